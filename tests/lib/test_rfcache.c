/* Unit tests for models/lib/rfcache: the RF-cache (Malekeh) spec's closed-form checks (§18.1) and the
 * directed tests of §18.2 that concern the CT, the allocator and the STHLD controller (the port and
 * timing ones run on the block: tests/sm/test_ccu.c). */
#include "models/lib/rfcache.h"

static rfc_rng rng;

static void fill(rfc_ccu *c, int warp, const unsigned *tags, unsigned n, bool near)
{
    c->warp = warp;
    for (unsigned i = 0; i < n; i++) {
        bool hit;
        g_assert_cmpint(rfc_source(c, tags[i], near, RFC_REPL_MALEKEH, &rng, &hit), >=, 0);
    }
    rfc_unlock_all(c);
}

/* §18.1: field widths and storage. */
static void test_closed_form(void)
{
    rfc_geometry g = {
        .subcores = 4, .ccus = 2, .ct_entries = 8, .oct_slots = 6, .reg_bytes = 128, .max_regs = 256};
    g_assert_cmpuint(rfc_bits_for(256), ==, 8); /* tag */
    g_assert_cmpuint(rfc_bits_for(8), ==, 3);   /* LRU, OCT index */
    g_assert_cmpuint(rfc_added_bytes(&g), ==, 2048);
    g_assert_cmpfloat(rfc_added_bytes(&g) * 100.0 / 262144, ==, 0.78125);
    g_assert_cmpuint(rfc_ct_bytes_per_subcore(&g), ==, 2048);
    g_assert_cmpuint(rfc_ct_control_bits(&g), ==, 8 * (8 + 1 + 1 + 3) + 8); /* 104 + 8 valid bits */
    /* Malekeh_PR: 8 CCUs per sub-core (one per warp): 8 KB; BOW: 8 x 3 x 8 x 128 = 24 KB */
    rfc_geometry pr = g;
    pr.ccus = 8;
    g_assert_cmpuint(rfc_ct_bytes_per_subcore(&pr), ==, 8192);
    g_assert_cmpuint(8u * 3 * 8 * 128, ==, 24576);
    g_assert_cmpfloat(2048.0 / 24576 * 100, >, 8.33);
    g_assert_cmpfloat(2048.0 / 24576 * 100, <, 8.34);
}

/* 1. Flush on warp change: CCU0 holds warp 3's {R1, R2}; a warp-5 instruction gets it: all miss. */
static void test_flush_on_warp_change(void)
{
    rfc_ccu c[2];
    rfc_ccu_init(&c[0], 8);
    rfc_ccu_init(&c[1], 8);
    fill(&c[0], 3, (unsigned[]){1, 2}, 2, false);
    c[1].busy = true;
    unsigned counter = 0;
    int k;
    g_assert_cmpint(rfc_allocate(c, 2, 5, &counter, 2, &rng, &k), ==, RFC_ALLOC_FAR);
    g_assert_cmpint(k, ==, 0);
    rfc_flush(&c[0]);
    c[0].warp = 5;
    g_assert_cmpuint(rfc_valid_count(&c[0]), ==, 0);
    bool hit;
    rfc_source(&c[0], 1, true, RFC_REPL_MALEKEH, &rng, &hit);
    g_assert_false(hit);
    rfc_source(&c[0], 2, true, RFC_REPL_MALEKEH, &rng, &hit);
    g_assert_false(hit);
}

/* 2. Same-warp hit: FFMA R4, R1, R2, R7 with R1, R2 in warp 3's free CCU: 2 hits, 1 miss, 3 locked. */
static void test_same_warp_hit(void)
{
    rfc_ccu c[2];
    rfc_ccu_init(&c[0], 8);
    rfc_ccu_init(&c[1], 8);
    fill(&c[0], 3, (unsigned[]){1, 2}, 2, true);
    unsigned counter = 0, misses = 0;
    int k;
    g_assert_cmpint(rfc_allocate(c, 2, 3, &counter, 2, &rng, &k), ==, RFC_ALLOC_OWN);
    g_assert_cmpint(k, ==, 0);
    const unsigned src[] = {1, 2, 7};
    const bool hint[] = {false, true, false};
    for (unsigned i = 0; i < 3; i++) {
        bool hit;
        int e = rfc_source(&c[0], src[i], hint[i], RFC_REPL_MALEKEH, &rng, &hit);
        misses += !hit;
        g_assert_true(c[0].ct[e].lock);
        g_assert_true(c[0].ct[e].near == hint[i]);
    }
    g_assert_cmpuint(misses, ==, 1);
}

/* 3. Own CCU occupied (4): warp 3's CCU0 busy, CCU1 free: no allocation. */
static void test_own_busy(void)
{
    rfc_ccu c[2];
    rfc_ccu_init(&c[0], 8);
    rfc_ccu_init(&c[1], 8);
    c[0].warp = 3;
    c[0].busy = true;
    unsigned counter = 0;
    int k;
    g_assert_cmpint(rfc_allocate(c, 2, 3, &counter, 0, &rng, &k), ==, RFC_ALLOC_OWN_BUSY);
    g_assert_cmpint(k, ==, -1);
    g_assert_cmpint(rfc_allocate_random(c, 2, 3, &rng, &k), ==, RFC_ALLOC_OWN_BUSY);
}

/* 4. Far-CCU preference (5): CCU0 free with a near value, CCU1 free with far values: CCU1, counter 0. */
static void test_far_preference(void)
{
    for (unsigned rep = 0; rep < 20; rep++) {
        rfc_ccu c[2];
        rfc_ccu_init(&c[0], 8);
        rfc_ccu_init(&c[1], 8);
        fill(&c[0], 1, (unsigned[]){4}, 1, true);
        fill(&c[1], 2, (unsigned[]){5, 6}, 2, false);
        unsigned counter = 0;
        int k;
        g_assert_cmpint(rfc_allocate(c, 2, 7, &counter, 2, &rng, &k), ==, RFC_ALLOC_FAR);
        g_assert_cmpint(k, ==, 1);
        g_assert_cmpuint(counter, ==, 0);
    }
}

/* 5. Waiting (7-9): STHLD 2, both CCUs free with near values: 0 -> 1 -> 2, then a forced allocation
 * resetting to 0; STHLD 0 allocates at once. */
static void test_waiting(void)
{
    rfc_ccu c[2];
    rfc_ccu_init(&c[0], 8);
    rfc_ccu_init(&c[1], 8);
    fill(&c[0], 1, (unsigned[]){4}, 1, true);
    fill(&c[1], 2, (unsigned[]){5}, 1, true);
    unsigned counter = 0;
    int k;
    g_assert_cmpint(rfc_allocate(c, 2, 7, &counter, 2, &rng, &k), ==, RFC_ALLOC_WAIT);
    g_assert_cmpuint(counter, ==, 1);
    g_assert_cmpint(rfc_allocate(c, 2, 7, &counter, 2, &rng, &k), ==, RFC_ALLOC_WAIT);
    g_assert_cmpuint(counter, ==, 2);
    g_assert_cmpint(rfc_allocate(c, 2, 7, &counter, 2, &rng, &k), ==, RFC_ALLOC_FORCED);
    g_assert_cmpuint(counter, ==, 0);
    g_assert_true(k == 0 || k == 1);
    g_assert_cmpint(rfc_allocate(c, 2, 7, &counter, 0, &rng, &k), ==, RFC_ALLOC_FORCED);
    /* every CCU occupied (6) */
    c[0].busy = c[1].busy = true;
    g_assert_cmpint(rfc_allocate(c, 2, 7, &counter, 2, &rng, &k), ==, RFC_ALLOC_ALL_BUSY);
}

/* 6. Replacement: 8 valid, 3 locked, 2 unlocked far -> one of the 2 far (random); no unlocked far ->
 * the LRU of the 5 unlocked; an invalid entry present -> it. */
static void test_replacement(void)
{
    rfc_ccu c;
    rfc_ccu_init(&c, 8);
    c.warp = 0;
    /* tags 10..17; near except 13 and 15; 10, 11, 12 locked */
    for (unsigned i = 0; i < 8; i++)
        rfc_dest(&c, 10 + i, !(i == 3 || i == 5), RFC_REPL_MALEKEH, &rng);
    for (unsigned i = 0; i < 3; i++)
        c.ct[rfc_lookup(&c, 10 + i)].lock = true;
    bool seen[2] = {false, false};
    for (unsigned rep = 0; rep < 64; rep++) {
        int v = rfc_victim(&c, RFC_REPL_MALEKEH, &rng);
        unsigned tag = c.ct[v].tag;
        g_assert_true(tag == 13 || tag == 15);
        seen[tag == 15] = true;
    }
    g_assert_true(seen[0] && seen[1]); /* random among the far ones */
    c.ct[rfc_lookup(&c, 13)].near = true;
    c.ct[rfc_lookup(&c, 15)].near = true;
    /* LRU among unlocked 13..17: 13 was written first */
    g_assert_cmpuint(c.ct[rfc_victim(&c, RFC_REPL_MALEKEH, &rng)].tag, ==, 13);
    c.ct[rfc_lookup(&c, 13)].lru = 1000; /* now 14 is the LRU */
    g_assert_cmpuint(c.ct[rfc_victim(&c, RFC_REPL_MALEKEH, &rng)].tag, ==, 14);
    rfc_invalidate(&c, 16);
    g_assert_cmpint(rfc_victim(&c, RFC_REPL_MALEKEH, &rng), ==, 6);
    /* the LRU ablation ignores RD: a far entry is not preferred */
    rfc_dest(&c, 16, true, RFC_REPL_MALEKEH, &rng);
    c.ct[rfc_lookup(&c, 17)].near = false;
    g_assert_cmpuint(c.ct[rfc_victim(&c, RFC_REPL_LRU, &rng)].tag, ==, 14);
    g_assert_cmpuint(c.ct[rfc_victim(&c, RFC_REPL_MALEKEH, &rng)].tag, ==, 17);
    /* all locked: none */
    for (unsigned i = 0; i < 8; i++)
        c.ct[i].lock = true;
    g_assert_cmpint(rfc_victim(&c, RFC_REPL_MALEKEH, &rng), ==, -1);
}

/* 7. Write filter, first part: a near write allocates an unlocked entry; a far write invalidates. */
static void test_write_entry(void)
{
    rfc_ccu c;
    rfc_ccu_init(&c, 8);
    c.warp = 3;
    int e = rfc_dest(&c, 9, true, RFC_REPL_MALEKEH, &rng);
    g_assert_cmpint(e, >=, 0);
    g_assert_false(c.ct[e].lock);
    g_assert_true(rfc_invalidate(&c, 9));
    g_assert_cmpint(rfc_lookup(&c, 9), ==, -1);
    g_assert_false(rfc_invalidate(&c, 9));
}

/* 9. Tensor instruction: 6 distinct sources lock 6 entries; 2 stay replaceable, so a write-back to
 * the CCU in the same cycle still gets an entry. */
static void test_tensor_sources(void)
{
    rfc_ccu c;
    rfc_ccu_init(&c, 8);
    c.warp = 0;
    for (unsigned i = 0; i < 8; i++)
        rfc_dest(&c, 100 + i, true, RFC_REPL_MALEKEH, &rng);
    for (unsigned i = 0; i < 6; i++) {
        bool hit;
        g_assert_cmpint(rfc_source(&c, 20 + i, true, RFC_REPL_MALEKEH, &rng, &hit), >=, 0);
        g_assert_false(hit);
    }
    unsigned locked = 0;
    for (unsigned i = 0; i < 8; i++)
        locked += c.ct[i].lock;
    g_assert_cmpuint(locked, ==, 6);
    int e = rfc_dest(&c, 50, true, RFC_REPL_MALEKEH, &rng);
    g_assert_cmpint(e, >=, 0);
    g_assert_false(c.ct[e].lock);
    for (unsigned i = 0; i < 6; i++)
        g_assert_cmpint(rfc_lookup(&c, 20 + i), >=, 0); /* no source was evicted */
}

/* 13. Duplicate sources: FADD R1, R2, R2 with R2 missing: one entry, the second lookup hits it. */
static void test_duplicate_sources(void)
{
    rfc_ccu c;
    rfc_ccu_init(&c, 8);
    c.warp = 0;
    bool hit1, hit2;
    int a = rfc_source(&c, 2, true, RFC_REPL_MALEKEH, &rng, &hit1);
    int b = rfc_source(&c, 2, true, RFC_REPL_MALEKEH, &rng, &hit2);
    g_assert_false(hit1);
    g_assert_cmpint(a, ==, b); /* the two OCT slots share the index */
    g_assert_cmpuint(rfc_valid_count(&c), ==, 1);
}

/* 12. FSM with the placeholder table: four S, then L -> state 3 with STHLD up; L -> down; S -> state 6,
 * held on S until an L. */
static void test_fsm(void)
{
    rfc_sthld_ctrl f;
    rfc_sthld_init(&f, 1, 0, -1);
    g_assert_cmpint(rfc_sthld_step(&f, 1.00), ==, -1); /* first interval: a reference */
    g_assert_cmpint(rfc_sthld_step(&f, 1.00), ==, 0);
    g_assert_cmpint(rfc_sthld_step(&f, 1.01), ==, 0);
    g_assert_cmpint(rfc_sthld_step(&f, 1.01), ==, 0);
    g_assert_cmpint(rfc_sthld_step(&f, 1.00), ==, 0);
    g_assert_cmpint(f.sthld, ==, 4);
    g_assert_cmpuint(f.state + 1, ==, 2);
    g_assert_cmpint(rfc_sthld_step(&f, 0.90), ==, 1); /* L */
    g_assert_cmpuint(f.state + 1, ==, 3);
    g_assert_cmpint(f.sthld, ==, 5);
    g_assert_cmpint(rfc_sthld_step(&f, 0.80), ==, 1); /* L: the speculation did not pay */
    g_assert_cmpuint(f.state + 1, ==, 4);
    g_assert_cmpint(f.sthld, ==, 4);
    g_assert_cmpint(rfc_sthld_step(&f, 0.80), ==, 0); /* S: converged */
    g_assert_cmpuint(f.state + 1, ==, 6);
    for (unsigned i = 0; i < 5; i++)
        rfc_sthld_step(&f, 0.80);
    g_assert_cmpuint(f.state + 1, ==, 6);
    g_assert_cmpint(f.sthld, ==, 4);
    rfc_sthld_step(&f, 0.816); /* exactly 0.02 counts as L */
    g_assert_cmpuint(f.state + 1, ==, 3);
    g_assert_cmpint(f.sthld, ==, 5);
    /* clamps */
    rfc_sthld_init(&f, 1, 0, 1);
    rfc_sthld_step(&f, 1);
    for (unsigned i = 0; i < 4; i++)
        rfc_sthld_step(&f, 1);
    g_assert_cmpint(f.sthld, ==, 1);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    rfc_rng_seed(&rng, 1);
    g_test_add_func("/rfcache/closed_form", test_closed_form);
    g_test_add_func("/rfcache/flush_on_warp_change", test_flush_on_warp_change);
    g_test_add_func("/rfcache/same_warp_hit", test_same_warp_hit);
    g_test_add_func("/rfcache/own_busy", test_own_busy);
    g_test_add_func("/rfcache/far_preference", test_far_preference);
    g_test_add_func("/rfcache/waiting", test_waiting);
    g_test_add_func("/rfcache/replacement", test_replacement);
    g_test_add_func("/rfcache/write_entry", test_write_entry);
    g_test_add_func("/rfcache/tensor_sources", test_tensor_sources);
    g_test_add_func("/rfcache/duplicate_sources", test_duplicate_sources);
    g_test_add_func("/rfcache/fsm", test_fsm);
    return g_test_run();
}
