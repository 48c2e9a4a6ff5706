/* test_frun — the functional runner on hand-written PTX (tests/kernels/ptx/): divergence and
 * reconvergence, barriers (exchange, bar.red, deadlock, early exit), contended atomics, call/ret
 * with .param passing under divergence, generic addressing through cvta, .v4 accesses, every atom
 * operation on shared and global words, membar/fence/barrier.sync, ld.global.nc, module data
 * with initialisers (pointers set by address initialisers too), by-value parameters, and the errors (out of
 * bounds with the PC, store to .const, the watchdog). */
#include "kernels/run/frun.h"
#include "kernels/frontend/ptx_parse.h"

#include <string.h>

#ifndef TEST_PTX_DIR
#define TEST_PTX_DIR "tests/kernels/ptx"
#endif

typedef struct {
    ir_module *m;
    wl_device *dev;
    GString *err;
} rig;

static void rig_init(rig *r, const char *file)
{
    char *path = g_build_filename(TEST_PTX_DIR, file, NULL);
    GError *gerr = NULL;
    r->m = ptx_parse_file(path, &gerr);
    g_assert_no_error(gerr);
    g_free(path);
    r->err = g_string_new(NULL);
    r->dev = frun_device_new(r->m, r->err);
    if (!r->dev)
        g_error("frun_device_new: %s", r->err->str);
}

static void rig_free(rig *r)
{
    frun_device_free(r->dev);
    ir_module_free(r->m);
    g_string_free(r->err, TRUE);
}

static uint64_t rig_alloc(rig *r, const void *src, size_t bytes)
{
    uint64_t a = r->dev->ops->alloc(r->dev, bytes);
    g_assert_cmpuint(a, !=, 0);
    if (src)
        g_assert_cmpint(r->dev->ops->write(r->dev, a, src, bytes, r->err), ==, 0);
    return a;
}

static void rig_read(rig *r, uint64_t a, void *dst, size_t bytes)
{
    g_assert_cmpint(r->dev->ops->read(r->dev, a, dst, bytes, r->err), ==, 0);
}

static int rig_launch(rig *r, const char *entry, unsigned gx, unsigned bx, const wl_arg *args, unsigned n)
{
    wl_launch l = {.entry = entry, .grid = {gx, 1, 1}, .block = {bx, 1, 1}, .args = args, .n_args = n};
    g_string_truncate(r->err, 0);
    return r->dev->ops->launch(r->dev, &l, r->err);
}

static void launch_ok(rig *r, const char *entry, unsigned gx, unsigned bx, const wl_arg *args, unsigned n)
{
    if (rig_launch(r, entry, gx, bx, args, n))
        g_error("%s: %s", entry, r->err->str);
}

/* Runs a diverge.ptx kernel on 64 threads (2 warps); out and mask arrays of 64 + 32 words. */
static void run_diverge(const char *entry, uint32_t *out, uint32_t *mask)
{
    rig r;
    rig_init(&r, "diverge.ptx");
    uint64_t o = rig_alloc(&r, NULL, 96 * 4), m = rig_alloc(&r, NULL, 96 * 4);
    wl_arg args[] = {WL_PTR(o), WL_PTR(m)};
    launch_ok(&r, entry, 1, 64, args, 2);
    rig_read(&r, o, out, 96 * 4);
    rig_read(&r, m, mask, 96 * 4);
    rig_free(&r);
}

static void test_ifelse(void)
{
    uint32_t out[96], mask[96];
    run_diverge("ifelse", out, mask);
    for (unsigned t = 0; t < 64; t++) {
        g_assert_cmpuint(out[t], ==, t & 1 ? t * 3 : t + 100);
        g_assert_cmphex(mask[t], ==, 0xffffffffu); /* reconverged at the join */
    }
}

static void test_nested(void)
{
    uint32_t out[96], mask[96];
    run_diverge("nested", out, mask);
    for (unsigned t = 0; t < 64; t++) {
        uint32_t want = t < 16 ? (t & 1 ? 3u : 4u) + 10 + 100 : 101;
        g_assert_cmpuint(out[t], ==, want);
        g_assert_cmphex(mask[t], ==, 0xffffffffu);
        if (t < 16)
            g_assert_cmphex(mask[64 + t], ==, 0x0000ffffu); /* the inner join: lanes 0..15 together */
    }
}

static void test_loop(void)
{
    uint32_t out[96], mask[96];
    run_diverge("loop", out, mask);
    for (unsigned t = 0; t < 64; t++) {
        uint32_t n = t % 7 + 1, want = 0;
        for (uint32_t i = 0; i < n; i++)
            want += i * t;
        g_assert_cmpuint(out[t], ==, want);
        g_assert_cmphex(mask[t], ==, 0xffffffffu);
    }
}

static void test_early_exit(void)
{
    uint32_t out[96], mask[96];
    run_diverge("early_exit", out, mask);
    for (unsigned t = 0; t < 64; t++) {
        g_assert_cmpuint(out[t], ==, t % 4 ? t + 1 : 0);
        g_assert_cmphex(mask[t], ==, t % 4 ? 0xeeeeeeeeu : 0);
    }
}

static void test_negpred(void)
{
    uint32_t out[96], mask[96];
    run_diverge("negpred", out, mask);
    for (unsigned t = 0; t < 64; t++)
        g_assert_cmpuint(out[t], ==, t & 1 ? 9 : 7);
}

static void test_barrier_exchange(void)
{
    rig r;
    rig_init(&r, "barrier.ptx");
    uint64_t o = rig_alloc(&r, NULL, 128 * 4);
    wl_arg args[] = {WL_PTR(o)};
    launch_ok(&r, "exchange", 2, 128, args, 1);
    uint32_t out[128];
    rig_read(&r, o, out, sizeof out);
    for (unsigned t = 0; t < 128; t++)
        g_assert_cmpuint(out[t], ==, (127 - t) * 2);
    rig_free(&r);
}

static void test_barrier_reduce(void)
{
    rig r;
    rig_init(&r, "barrier.ptx");
    const unsigned n = 96;
    uint64_t o = rig_alloc(&r, NULL, n * 16);
    wl_arg args[] = {WL_PTR(o)};
    launch_ok(&r, "reduce", 1, n, args, 1);
    uint32_t out[96 * 4];
    rig_read(&r, o, out, sizeof out);
    for (unsigned t = 0; t < n; t++) {
        g_assert_cmpuint(out[4 * t], ==, 32);    /* 0, 3, ..., 93 */
        g_assert_cmpuint(out[4 * t + 1], ==, 1); /* all tid < 1000 */
        g_assert_cmpuint(out[4 * t + 2], ==, 1); /* tid 77 exists */
        g_assert_cmpuint(out[4 * t + 3], ==, 0); /* tid 5 is not != 5 */
    }
    rig_free(&r);
}

static void test_barrier_deadlock(void)
{
    rig r;
    rig_init(&r, "barrier.ptx");
    uint64_t o = rig_alloc(&r, NULL, 4);
    wl_arg args[] = {WL_PTR(o)};
    g_assert_cmpint(rig_launch(&r, "deadlock", 1, 64, args, 1), !=, 0);
    g_assert_nonnull(strstr(r.err->str, "deadlock"));
    g_assert_nonnull(strstr(r.err->str, "warp 0: at barrier 1"));
    g_assert_nonnull(strstr(r.err->str, "warp 1: at barrier 2"));
    g_assert_nonnull(strstr(r.err->str, "`bar.sync 1;`"));
    rig_free(&r);
}

static void test_barrier_after_exit(void)
{
    rig r;
    rig_init(&r, "barrier.ptx");
    uint64_t o = rig_alloc(&r, NULL, 96 * 4);
    wl_arg args[] = {WL_PTR(o)};
    launch_ok(&r, "exit_then_bar", 1, 96, args, 1);
    uint32_t out[96];
    rig_read(&r, o, out, sizeof out);
    for (unsigned t = 0; t < 96; t++)
        g_assert_cmpuint(out[t], ==, t / 32 == 1 ? 0 : 1);
    rig_free(&r);
}

static uint32_t run_race(rig *r, uint64_t o, uint32_t seed)
{
    frun_device_set_schedule(r->dev, 8, seed);
    wl_arg args[] = {WL_PTR(o)};
    launch_ok(r, "race", 1, 64, args, 1);
    uint32_t v;
    rig_read(r, o, &v, 4);
    return v;
}

/* One device: the in-order result, then seeds 1..20. */
static uint32_t race_series(uint32_t res[20])
{
    rig r;
    rig_init(&r, "barrier.ptx");
    uint64_t o = rig_alloc(&r, NULL, 4);
    uint32_t in_order = run_race(&r, o, 0);
    for (uint32_t seed = 1; seed <= 20; seed++)
        res[seed - 1] = run_race(&r, o, seed);
    rig_free(&r);
    return in_order;
}

/* The schedule option exposes an order-dependent kernel, reproducibly. */
static void test_schedule_shuffle(void)
{
    uint32_t a[20], b[20];
    g_assert_cmpuint(race_series(a), ==, 42);
    g_assert_cmpuint(race_series(b), ==, 42);
    g_assert_cmpmem(a, sizeof a, b, sizeof b);
    unsigned zeros = 0, fortytwos = 0;
    for (unsigned i = 0; i < 20; i++) {
        zeros += a[i] == 0;
        fortytwos += a[i] == 42;
    }
    g_assert_cmpuint(zeros, >, 0);
    g_assert_cmpuint(fortytwos, >, 0);
    g_assert_cmpuint(zeros + fortytwos, ==, 20);
}

/* The shared-memory race check flags the race kernel, and not kernels ordered by barriers or using
 * shared atomics. */
static void test_race_check(void)
{
    rig r;
    rig_init(&r, "barrier.ptx");
    frun_device_set_race_check(r.dev, true);
    uint64_t o = rig_alloc(&r, NULL, 512);
    wl_arg args[] = {WL_PTR(o)};
    g_assert_cmpint(rig_launch(&r, "race", 1, 64, args, 1), !=, 0);
    g_assert_nonnull(
        strstr(r.err->str, "shared-memory race: load of shared address 0x0, which warp 0 wrote at pc 5"));
    g_assert_nonnull(strstr(r.err->str, "thread (32,0,0)"));
    launch_ok(&r, "exchange", 2, 128, args, 1);
    rig_free(&r);
    rig_init(&r, "memory.ptx");
    frun_device_set_race_check(r.dev, true);
    uint64_t c = rig_alloc(&r, NULL, 4), olds = rig_alloc(&r, NULL, 256 * 4), sc = rig_alloc(&r, NULL, 4);
    wl_arg a2[] = {WL_PTR(c), WL_PTR(olds), WL_PTR(sc)};
    launch_ok(&r, "atomics", 1, 256, a2, 3);
    rig_free(&r);
}

static void test_atomics(void)
{
    rig r;
    rig_init(&r, "memory.ptx");
    const unsigned blocks = 3, threads = 200, n = blocks * threads; /* partial last warp */
    uint64_t c = rig_alloc(&r, NULL, 4), olds = rig_alloc(&r, NULL, n * 4),
             sc = rig_alloc(&r, NULL, blocks * 4);
    wl_arg args[] = {WL_PTR(c), WL_PTR(olds), WL_PTR(sc)};
    launch_ok(&r, "atomics", blocks, threads, args, 3);
    uint32_t count, old[600], scount[3];
    rig_read(&r, c, &count, 4);
    rig_read(&r, olds, old, sizeof old);
    rig_read(&r, sc, scount, sizeof scount);
    g_assert_cmpuint(count, ==, n);
    bool seen[600] = {false};
    for (unsigned i = 0; i < n; i++) {
        g_assert_cmpuint(old[i], <, n);
        g_assert_false(seen[old[i]]);
        seen[old[i]] = true;
    }
    for (unsigned b = 0; b < blocks; b++)
        g_assert_cmpuint(scount[b], ==, threads);
    rig_free(&r);
}

static void test_atom_mix(void)
{
    rig r;
    rig_init(&r, "memory.ptx");
    uint32_t init[8] = {0, 0, 0x80000000u, 0, 0, 0, 0, 0};
    uint64_t p = rig_alloc(&r, init, sizeof init);
    wl_arg args[] = {WL_PTR(p)};
    launch_ok(&r, "atom_mix", 2, 100, args, 1);
    uint32_t out[8];
    rig_read(&r, p, out, sizeof out);
    g_assert_cmpuint(out[0], ==, 200);
    g_assert_cmpuint(out[1], ==, 2 * 4950);
    g_assert_cmpint((int32_t)out[2], ==, 49);
    uint64_t sum64;
    memcpy(&sum64, &out[4], 8);
    g_assert_cmphex(sum64, ==, (uint64_t)(2 * 4950) << 32);
    float f;
    memcpy(&f, &out[6], 4);
    g_assert_cmpfloat(f, ==, 100.0f);
    g_assert_cmpuint(frun_device_stats(r.dev)->divergent_branches, >, 0); /* the CAS retry loop */
    rig_free(&r);
}

/* memops.ptx atom_ops: every atom operation on .shared and .global words, red.shared/red.global,
 * ld.global.nc, .v2/.v4 shared and global accesses, membar, fence and barrier.sync, with the warps in
 * order and shuffled (the results do not depend on the order, except which thread exchanged last). */
static void check_atom_ops(uint32_t sched_seed)
{
    rig r;
    rig_init(&r, "memops.ptx");
    frun_device_set_schedule(r.dev, 3, sched_seed);
    uint32_t g_init[12] = {0, 0xffffffffu, 0, 0, 1000, 0, 5, (uint32_t)-100, 0x11111111u, 0x22222222u, 0x33333333u, 0};
    uint64_t o = rig_alloc(&r, NULL, 128 * 4), g = rig_alloc(&r, g_init, sizeof g_init);
    wl_arg args[] = {WL_PTR(o), WL_PTR(g)};
    launch_ok(&r, "atom_ops", 1, 64, args, 2);
    uint32_t out[128], gw[12];
    rig_read(&r, o, out, sizeof out);
    rig_read(&r, g, gw, sizeof gw);
    /* the shared words, then the global ones (same operations) */
    for (unsigned k = 0; k < 2; k++) {
        const uint32_t *w = k == 0 ? out : gw;
        g_assert_cmpuint(w[0], <, 64);           /* exch: some thread's tid */
        g_assert_cmphex(w[1], ==, 0);            /* and with ~(1 << (t & 31)) */
        g_assert_cmphex(w[2], ==, 0xffffffffu);  /* or with 1 << (t & 31) */
        g_assert_cmphex(w[3], ==, 64);           /* xor of 1..64 */
    }
    g_assert_cmpint((int32_t)out[4], ==, -20); /* min.s32 of t - 20 from 1000 */
    g_assert_cmpuint(out[5], ==, 189);         /* max.u32 of 3t */
    g_assert_cmpuint(out[6], ==, 4);           /* inc.u32 bound 9, 64 times from 0: 64 mod 10 */
    g_assert_cmpuint(out[7], ==, 1);           /* dec.u32 bound 9, 64 times from 5: (5 - 64) mod 10 */
    g_assert_cmpuint(out[8], ==, 2016);        /* red.shared.add of t */
    g_assert_cmpuint(out[9], ==, 32);          /* cas chain over warp 0's lanes in lane order */
    g_assert_cmpuint(gw[4], ==, 1);            /* min.u32 of t + 1 from 1000 */
    g_assert_cmpuint(gw[5], ==, 4);            /* inc */
    g_assert_cmpuint(gw[6], ==, 1);            /* dec */
    g_assert_cmpint((int32_t)gw[7], ==, 43);   /* red.global.max.s32 of t - 20 from -100 */
    g_assert_cmphex(out[16], ==, 0x11111111u); /* ld.global.nc.v2 */
    g_assert_cmphex(out[17], ==, 0x22222222u);
    g_assert_cmphex(out[18], ==, 0x33333333u); /* ld.global.nc */
    /* exch: the old values and the final value are the initial 0 and every tid, once each */
    unsigned seen[65] = {0};
    for (unsigned t = 0; t < 64; t++) {
        g_assert_cmpuint(out[64 + t], <, 64);
        seen[out[64 + t]]++;
    }
    seen[out[0]]++;
    g_assert_cmpuint(seen[0], ==, 2);
    for (unsigned v = 1; v < 64; v++)
        g_assert_cmpuint(seen[v], ==, 1);
    rig_free(&r);
}

static void test_atom_ops(void)
{
    check_atom_ops(0);
    for (uint32_t seed = 1; seed <= 4; seed++)
        check_atom_ops(seed);
}

static void test_generic(void)
{
    rig r;
    rig_init(&r, "memory.ptx");
    uint64_t o = rig_alloc(&r, NULL, 32 * 4);
    wl_arg args[] = {WL_PTR(o)};
    launch_ok(&r, "generic", 1, 32, args, 1);
    uint32_t out[32];
    rig_read(&r, o, out, sizeof out);
    static const uint32_t gtab[4] = {10, 20, 30, 40}, ctab[4] = {1, 2, 3, 4};
    for (unsigned t = 0; t < 32; t++) {
        uint32_t want = (t ^ 1) * 5 + (t & 3) * 1000 + t + gtab[t & 3] + ctab[t & 3];
        g_assert_cmpuint(out[t], ==, want);
    }
    rig_free(&r);
}

static void test_vec4(void)
{
    rig r;
    rig_init(&r, "memory.ptx");
    float in[64 * 4], out[64 * 4];
    for (unsigned i = 0; i < 64 * 4; i++)
        in[i] = (float)i * 0.5f;
    uint64_t a = rig_alloc(&r, in, sizeof in), b = rig_alloc(&r, NULL, sizeof out);
    wl_arg args[] = {WL_PTR(a), WL_PTR(b)};
    launch_ok(&r, "vec4", 1, 64, args, 2);
    rig_read(&r, b, out, sizeof out);
    for (unsigned i = 0; i < 64 * 4; i++)
        g_assert_cmpfloat(out[i], ==, in[i] * 2 + (float)(i % 4));
    rig_free(&r);
}

static void test_dynshared(void)
{
    rig r;
    rig_init(&r, "memory.ptx");
    const unsigned n = 96;
    uint64_t o = rig_alloc(&r, NULL, n * 4);
    wl_arg args[] = {WL_PTR(o)};
    wl_launch l = {.entry = "dynshared",
                   .grid = {2, 1, 1},
                   .block = {n, 1, 1},
                   .shared_bytes = n * 4,
                   .args = args,
                   .n_args = 1};
    if (r.dev->ops->launch(r.dev, &l, r.err))
        g_error("%s", r.err->str);
    uint32_t out[96];
    rig_read(&r, o, out, sizeof out);
    for (unsigned t = 0; t < n; t++)
        g_assert_cmpuint(out[t], ==, n * 4 * 1000 + (n - 1 - t));
    /* Without the dynamic size the array has no room: the first store faults. */
    l.shared_bytes = 0;
    g_string_truncate(r.err, 0);
    g_assert_cmpint(r.dev->ops->launch(r.dev, &l, r.err), !=, 0);
    g_assert_nonnull(strstr(r.err->str, "outside the CTA's 0 bytes of shared memory"));
    /* The per-CTA shared limit: 48 KiB by default, refused before anything runs; configurable. */
    l.shared_bytes = FRUN_DEFAULT_MAX_SHARED + 4;
    g_string_truncate(r.err, 0);
    g_assert_cmpint(r.dev->ops->launch(r.dev, &l, r.err), !=, 0);
    g_assert_cmpstr(r.err->str, ==,
                    TEST_PTX_DIR
                    "/memory.ptx: kernel dynshared: a CTA needs 49156 bytes of shared memory (0 static + "
                    "49156 dynamic) but the functional runner allows 49152 per CTA (gpusc-run --max-shared)");
    frun_device_set_max_shared(r.dev, 65536);
    g_string_truncate(r.err, 0);
    if (r.dev->ops->launch(r.dev, &l, r.err))
        g_error("%s", r.err->str);
    rig_read(&r, o, out, sizeof out);
    g_assert_cmpuint(out[0], ==, (FRUN_DEFAULT_MAX_SHARED + 4) * 1000 + n - 1);
    rig_free(&r);
}

static void test_coords(void)
{
    rig r;
    rig_init(&r, "memory.ptx");
    const unsigned bx = 5, by = 3, bz = 3, gx = 2, gy = 2, per = bx * by * bz, n = per * gx * gy;
    uint64_t o = rig_alloc(&r, NULL, n * 4);
    wl_arg args[] = {WL_PTR(o)};
    wl_launch l = {.entry = "coords", .grid = {gx, gy, 1}, .block = {bx, by, bz}, .args = args, .n_args = 1};
    if (r.dev->ops->launch(r.dev, &l, r.err))
        g_error("%s", r.err->str);
    uint32_t out[180];
    g_assert_cmpuint(n, ==, 180);
    rig_read(&r, o, out, sizeof out);
    for (unsigned cy = 0; cy < gy; cy++)
        for (unsigned cx = 0; cx < gx; cx++)
            for (unsigned lt = 0; lt < per; lt++) {
                unsigned tx = lt % bx, ty = lt / bx % by, tz = lt / (bx * by);
                uint32_t want =
                    tx | ty << 4 | tz << 8 | cx << 12 | cy << 16 | (lt % 32) << 20 | (lt / 32) << 26;
                g_assert_cmphex(out[(cy * gx + cx) * per + lt], ==, want);
            }
    g_assert_cmpuint(frun_device_stats(r.dev)->ctas, ==, 4);
    rig_free(&r);
}

static void test_sreg_values(void)
{
    frun_sreg_ctx c = {.block = {5, 3, 3},
                       .grid = {7, 2, 1},
                       .ctaid = {6, 1, 0},
                       .warp = 1,
                       .nwarps = 2,
                       .nsmid = 1,
                       .gridid = 4,
                       .clock = 0x1234567890ull,
                       .dyn_smem = 64,
                       .total_smem = 96};
    /* lane 12 of warp 1 = linear thread 44 = (4, 2, 2) in a 5x3x3 block */
    g_assert_cmpuint(frun_sreg_value(&c, IR_SREG_TID, 0, 12), ==, 4);
    g_assert_cmpuint(frun_sreg_value(&c, IR_SREG_TID, 1, 12), ==, 2);
    g_assert_cmpuint(frun_sreg_value(&c, IR_SREG_TID, 2, 12), ==, 2);
    g_assert_cmpuint(frun_sreg_value(&c, IR_SREG_NCTAID, 0, 0), ==, 7);
    g_assert_cmpuint(frun_sreg_value(&c, IR_SREG_CTAID, 1, 0), ==, 1);
    g_assert_cmpuint(frun_sreg_value(&c, IR_SREG_CLOCK, 0, 0), ==, 0x34567890u);
    g_assert_cmpuint(frun_sreg_value(&c, IR_SREG_CLOCK64, 0, 0), ==, 0x1234567890ull);
    g_assert_cmphex(frun_sreg_value(&c, IR_SREG_LANEMASK_LT, 0, 0), ==, 0);
    g_assert_cmphex(frun_sreg_value(&c, IR_SREG_LANEMASK_LE, 0, 31), ==, 0xffffffffu);
    g_assert_cmphex(frun_sreg_value(&c, IR_SREG_LANEMASK_GT, 0, 31), ==, 0);
    g_assert_cmphex(frun_sreg_value(&c, IR_SREG_LANEMASK_GE, 0, 4), ==, 0xfffffff0u);
    g_assert_cmphex(frun_sreg_value(&c, IR_SREG_LANEMASK_EQ, 0, 4), ==, 0x10u);
    g_assert_cmpuint(frun_sreg_value(&c, IR_SREG_DYN_SMEM_SIZE, 0, 0), ==, 64);
    g_assert_cmpuint(frun_sreg_value(&c, IR_SREG_GRIDID, 0, 0), ==, 4);
    /* %nwarpid: the SM's warp ids, not the CTA's warps (nwarps = 2 here); 0 reads the default. */
    g_assert_cmpuint(frun_sreg_value(&c, IR_SREG_WARPID, 0, 0), ==, 1);
    g_assert_cmpuint(frun_sreg_value(&c, IR_SREG_NWARPID, 0, 0), ==, FRUN_DEFAULT_NWARPID);
    g_assert_cmpuint(FRUN_DEFAULT_NWARPID, ==, 48);
    c.nwarpid = 64;
    g_assert_cmpuint(frun_sreg_value(&c, IR_SREG_NWARPID, 0, 0), ==, 64);
}

static void test_oob(void)
{
    rig r;
    rig_init(&r, "memory.ptx");
    uint64_t a = rig_alloc(&r, NULL, 40 * 4), b = rig_alloc(&r, NULL, 64 * 4);
    wl_arg args[] = {WL_PTR(a), WL_PTR(b)};
    g_assert_cmpint(rig_launch(&r, "oob", 1, 64, args, 2), !=, 0);
    /* The first failing thread is 40 (lane 8 of warp 1), at the ld (pc 5). */
    g_assert_nonnull(strstr(r.err->str, "kernel oob: pc 5 "));
    g_assert_nonnull(strstr(r.err->str, "ld.global.u32"));
    g_assert_nonnull(strstr(r.err->str, "thread (40,0,0)"));
    g_assert_nonnull(strstr(r.err->str, "invalid global load"));
    char addr[32];
    g_snprintf(addr, sizeof addr, "0x%" G_GINT64_MODIFIER "x", a + 160);
    g_assert_nonnull(strstr(r.err->str, addr));
    rig_free(&r);
}

static void test_misaligned(void)
{
    rig r;
    rig_init(&r, "memory.ptx");
    uint64_t a = rig_alloc(&r, NULL, 64);
    wl_arg args[] = {WL_PTR(a)};
    g_assert_cmpint(rig_launch(&r, "misaligned", 1, 1, args, 1), !=, 0);
    char want[96];
    g_snprintf(want, sizeof want, "misaligned global load of 4 bytes at address 0x%" G_GINT64_MODIFIER "x",
               a + 2);
    g_assert_nonnull(strstr(r.err->str, want));
    g_assert_nonnull(strstr(r.err->str, "kernel misaligned: pc 1 "));
    rig_free(&r);
}

static void test_store_const(void)
{
    rig r;
    rig_init(&r, "memory.ptx");
    g_assert_cmpint(rig_launch(&r, "store_const", 1, 1, NULL, 0), !=, 0);
    g_assert_nonnull(strstr(r.err->str, "read-only"));
    rig_free(&r);
}

static void test_watchdog(void)
{
    rig r;
    rig_init(&r, "memory.ptx");
    frun_device_set_max_instructions(r.dev, 10000);
    g_assert_cmpint(rig_launch(&r, "forever", 1, 32, NULL, 0), !=, 0);
    g_assert_nonnull(strstr(r.err->str, "instruction limit of 10000"));
    rig_free(&r);
}

/* A kernel loading through pointers that address initialisers set (tests/kernels/ptx/addrinit.ptx):
 * generic and non-generic, into .global and .const data, 32-bit, a negative addend, a masked one. */
static void test_address_initialisers(void)
{
    rig r;
    rig_init(&r, "addrinit.ptx");
    uint64_t o = rig_alloc(&r, NULL, 11 * 4);
    wl_arg args[] = {WL_PTR(o)};
    launch_ok(&r, "addrinit", 1, 1, args, 1);
    uint32_t out[11];
    rig_read(&r, o, out, sizeof out);
    static const uint32_t want[11] = {20, 10, 30, 40, 2, 4, 3, 30, 40, 7, 20};
    g_assert_cmpmem(out, sizeof out, want, sizeof want);
    rig_free(&r);
}

static void test_byval(void)
{
    rig r;
    rig_init(&r, "memory.ptx");
    uint64_t o = rig_alloc(&r, NULL, 24);
    uint8_t s[16];
    uint32_t a = 0x11223344, b = 0x55667788;
    uint64_t c = 0x0123456789abcdefull;
    memcpy(s, &a, 4);
    memcpy(s + 4, &b, 4);
    memcpy(s + 8, &c, 8);
    wl_arg args[] = {WL_PTR(o), {.kind = WL_ARG_BYTES, .v.raw = {s, 16}}, WL_U32(77), WL_F32(1.75f)};
    launch_ok(&r, "byval", 1, 1, args, 4);
    uint8_t out[24];
    rig_read(&r, o, out, sizeof out);
    g_assert_cmpmem(out, 16, s, 16);
    uint32_t k;
    float f;
    memcpy(&k, out + 16, 4);
    memcpy(&f, out + 20, 4);
    g_assert_cmpuint(k, ==, 77);
    g_assert_cmpfloat(f, ==, 1.75f);
    /* Wrong argument count and a scalar for the struct are refused with the parameter's name. */
    g_assert_cmpint(rig_launch(&r, "byval", 1, 1, args, 3), !=, 0);
    g_assert_nonnull(strstr(r.err->str, "takes 4 parameters but 3 arguments were given"));
    wl_arg bad[] = {WL_PTR(o), WL_U32(1), WL_U32(77), WL_F32(1.75f)};
    g_assert_cmpint(rig_launch(&r, "byval", 1, 1, bad, 4), !=, 0);
    g_assert_nonnull(strstr(r.err->str, "parameter s "));
    rig_free(&r);
}

static void test_call(void)
{
    rig r;
    rig_init(&r, "call.ptx");
    uint64_t o = rig_alloc(&r, NULL, 64 * 4), m = rig_alloc(&r, NULL, 64 * 4);
    wl_arg args[] = {WL_PTR(o), WL_PTR(m)};
    launch_ok(&r, "caller", 1, 64, args, 2);
    int32_t out[64];
    uint32_t mask[64];
    rig_read(&r, o, out, sizeof out);
    rig_read(&r, m, mask, sizeof mask);
    for (int t = 0; t < 64; t++) {
        if (t % 3 == 0) {
            g_assert_cmpint(out[t], ==, -1);
            continue;
        }
        int b = 10 + (t & 7);
        int want = (t > b ? t - b : t * b + 1) + 1000;
        g_assert_cmpint(out[t], ==, want);
        /* after the call, every calling lane of the warp is back together */
        uint32_t calling = 0;
        for (int l = 0; l < 32; l++)
            if (((t / 32) * 32 + l) % 3 != 0)
                calling |= 1u << l;
        g_assert_cmphex(mask[t], ==, calling);
    }
    rig_free(&r);
}

static void test_bad_launch(void)
{
    rig r;
    rig_init(&r, "memory.ptx");
    g_assert_cmpint(rig_launch(&r, "nosuch", 1, 1, NULL, 0), !=, 0);
    g_assert_nonnull(strstr(r.err->str, "no kernel (.entry) named 'nosuch'"));
    g_assert_cmpint(rig_launch(&r, "forever", 1, 2048, NULL, 0), !=, 0);
    g_assert_nonnull(strstr(r.err->str, "at most 1024"));
    rig_free(&r);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/frun/diverge/ifelse", test_ifelse);
    g_test_add_func("/frun/diverge/nested", test_nested);
    g_test_add_func("/frun/diverge/loop", test_loop);
    g_test_add_func("/frun/diverge/early-exit", test_early_exit);
    g_test_add_func("/frun/diverge/negated-predicate", test_negpred);
    g_test_add_func("/frun/barrier/exchange", test_barrier_exchange);
    g_test_add_func("/frun/barrier/reduce", test_barrier_reduce);
    g_test_add_func("/frun/barrier/deadlock", test_barrier_deadlock);
    g_test_add_func("/frun/barrier/after-exit", test_barrier_after_exit);
    g_test_add_func("/frun/schedule-shuffle", test_schedule_shuffle);
    g_test_add_func("/frun/race-check", test_race_check);
    g_test_add_func("/frun/memory/atomics", test_atomics);
    g_test_add_func("/frun/memory/atom-mix", test_atom_mix);
    g_test_add_func("/frun/memory/atom-ops", test_atom_ops);
    g_test_add_func("/frun/memory/generic", test_generic);
    g_test_add_func("/frun/memory/vec4", test_vec4);
    g_test_add_func("/frun/memory/oob", test_oob);
    g_test_add_func("/frun/memory/dynamic-shared", test_dynshared);
    g_test_add_func("/frun/coords", test_coords);
    g_test_add_func("/frun/sreg-values", test_sreg_values);
    g_test_add_func("/frun/memory/store-const", test_store_const);
    g_test_add_func("/frun/memory/misaligned", test_misaligned);
    g_test_add_func("/frun/memory/byval", test_byval);
    g_test_add_func("/frun/memory/address-initialisers", test_address_initialisers);
    g_test_add_func("/frun/watchdog", test_watchdog);
    g_test_add_func("/frun/call", test_call);
    g_test_add_func("/frun/bad-launch", test_bad_launch);
    return g_test_run();
}
