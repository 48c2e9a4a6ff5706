/* Unit tests for models/lib/regval: the register value hook chain (order, what each hook sees and
 * leaves, counts by kind, the poison pattern). */
#include "models/lib/regval.h"

/* Power states per register slot (GREENER in miniature): an OFF register loses its value, so a read
 * of it reads the poison pattern; a write turns it ON. */
typedef struct {
    bool off[8];
    unsigned poisoned;
} power;

static void hook_power(void *ctx, regval_access *a)
{
    power *p = ctx;
    if (a->kind == REGVAL_READ && p->off[a->slot]) {
        regval_poison(a->v, 0xffffffffu);
        p->poisoned++;
    } else if (a->kind == REGVAL_WRITE) {
        p->off[a->slot] = false;
    }
}

/* Records the value of lane 0 it sees, after the hooks before it. */
typedef struct {
    uint64_t seen[8];
    unsigned warp_events;
} recorder;

static void hook_record(void *ctx, regval_access *a)
{
    recorder *r = ctx;
    if (a->v)
        r->seen[a->slot] = a->v[0];
    else
        r->warp_events++;
}

static void test_empty_chain(void)
{
    regval_chain *c = regval_chain_new();
    uint64_t v[REGVAL_LANES] = {7};
    regval_access a = {.kind = REGVAL_READ, .slot = 1, .lanes = 1, .v = v};
    regval_run(c, &a);
    g_assert_cmpuint(v[0], ==, 7);
    g_assert_cmpuint(regval_chain_len(c), ==, 0);
    regval_chain_free(c);
}

static void test_chain(void)
{
    power p = {.off = {[2] = true}};
    recorder rec = {.warp_events = 0};
    regval_chain *c = regval_chain_new();
    g_assert_cmpuint(regval_chain_add(c, "greener", hook_power, &p), ==, 0);
    g_assert_cmpuint(regval_chain_add(c, "record", hook_record, &rec), ==, 1);
    g_assert_cmpuint(regval_chain_len(c), ==, 2);
    g_assert_cmpstr(regval_chain_name(c, 0), ==, "greener");

    uint64_t r1[REGVAL_LANES], r2[REGVAL_LANES];
    for (unsigned l = 0; l < REGVAL_LANES; l++)
        r1[l] = r2[l] = l;
    regval_access a = {.kind = REGVAL_READ, .slot = 1, .lanes = 0xffffffffu, .v = r1};
    regval_run(c, &a); /* ON: untouched */
    g_assert_cmpuint(r1[5], ==, 5);
    a = (regval_access){.kind = REGVAL_READ, .slot = 2, .lanes = 0xffffffffu, .v = r2};
    regval_run(c, &a); /* OFF: lost, and the later hook sees the poison */
    for (unsigned l = 0; l < REGVAL_LANES; l++)
        g_assert_cmphex(r2[l], ==, REGVAL_POISON);
    g_assert_cmphex(rec.seen[2], ==, REGVAL_POISON);
    g_assert_cmpuint(p.poisoned, ==, 1);

    r2[0] = 42; /* a write turns it ON: the next read keeps the value */
    a = (regval_access){.kind = REGVAL_WRITE, .slot = 2, .lanes = 1, .v = r2};
    regval_run(c, &a);
    a = (regval_access){.kind = REGVAL_READ, .slot = 2, .lanes = 1, .v = r2};
    regval_run(c, &a);
    g_assert_cmpuint(r2[0], ==, 42);
    g_assert_cmpuint(p.poisoned, ==, 1);

    a = (regval_access){.kind = REGVAL_FREE, .slot = REGVAL_NONE};
    regval_run(c, &a);
    g_assert_cmpuint(rec.warp_events, ==, 1);

    for (unsigned i = 0; i < 2; i++) {
        const regval_stats *s = regval_chain_stats(c, i);
        g_assert_cmpuint(s->calls[REGVAL_READ], ==, 3);
        g_assert_cmpuint(s->calls[REGVAL_WRITE], ==, 1);
        g_assert_cmpuint(s->calls[REGVAL_ALLOC], ==, 0);
        g_assert_cmpuint(s->calls[REGVAL_FREE], ==, 1);
    }
    regval_chain_free(c);
}

/* A hook that sets quiet when its context says so, and records what it saw on entry. */
typedef struct {
    bool quiet, saw_quiet;
} quiet_hook;

static void quiet_fn(void *ctx, regval_access *a)
{
    quiet_hook *q = ctx;
    q->saw_quiet = a->quiet;
    a->quiet = q->quiet;
}

/* The chain's quiet is set only when every hook set it; each hook starts from false. */
static void test_quiet(void)
{
    regval_chain *c = regval_chain_new();
    regval_access a = {.kind = REGVAL_READ, .slot = 1, .quiet = true};
    regval_run(c, &a);
    g_assert_false(a.quiet); /* no hook: nobody asked */
    quiet_hook q1 = {true, true}, q2 = {false, true};
    regval_chain_add(c, "q1", quiet_fn, &q1);
    regval_chain_add(c, "q2", quiet_fn, &q2);
    a = (regval_access){.kind = REGVAL_READ, .slot = 1};
    regval_run(c, &a);
    g_assert_false(a.quiet);
    g_assert_false(q2.saw_quiet); /* q1's quiet is not q2's */
    q2.quiet = true;
    regval_run(c, &a);
    g_assert_true(a.quiet);
    q1.quiet = false;
    regval_run(c, &a);
    g_assert_false(a.quiet);
    regval_chain_free(c);
}

static void test_poison_lanes(void)
{
    uint64_t v[REGVAL_LANES] = {0};
    regval_poison(v, 0x80000005u);
    for (unsigned l = 0; l < REGVAL_LANES; l++)
        g_assert_cmphex(v[l], ==, l == 0 || l == 2 || l == 31 ? REGVAL_POISON : 0);
    g_assert_cmphex((uint32_t)REGVAL_POISON, ==, 0xdeadbeefu);
    g_assert_cmphex(REGVAL_POISON >> 32, ==, 0xdeadbeefu);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/regval/empty", test_empty_chain);
    g_test_add_func("/regval/chain", test_chain);
    g_test_add_func("/regval/poison_lanes", test_poison_lanes);
    g_test_add_func("/regval/quiet", test_quiet);
    return g_test_run();
}
