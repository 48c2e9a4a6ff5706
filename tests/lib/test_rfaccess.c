/* Unit tests for models/lib/rfaccess: the register access hook chain (lock, rename, wake-up). */
#include "models/lib/rfaccess.h"

/* A pair lock for shared registers >= 4 of warps 0 and 1 (resource-sharing §3.5 in miniature):
 * the first warp to touch a shared register takes the lock. */
typedef struct {
    int owner;
} pair_lock;

static rfaccess_verdict hook_lock(void *ctx, rfaccess_req *r, unsigned *delay)
{
    (void)delay;
    pair_lock *l = ctx;
    if (r->warp > 1 || r->reg < 4)
        return RFACCESS_ALLOW;
    if (l->owner < 0)
        l->owner = (int)r->warp;
    return l->owner == (int)r->warp ? RFACCESS_ALLOW : RFACCESS_RETRY;
}

/* Renaming: phys = table[warp][reg]. */
static rfaccess_verdict hook_rename(void *ctx, rfaccess_req *r, unsigned *delay)
{
    (void)delay;
    const unsigned(*table)[8] = ctx;
    r->phys = table[r->warp][r->reg];
    return RFACCESS_ALLOW;
}

/* Power states per physical register: 0 ON, 1 SLEEP (1 cycle), 2 OFF (2 cycles); an access wakes it. */
static rfaccess_verdict hook_wakeup(void *ctx, rfaccess_req *r, unsigned *delay)
{
    unsigned *state = ctx;
    unsigned s = state[r->phys];
    state[r->phys] = 0;
    if (s == 0)
        return RFACCESS_ALLOW;
    *delay = s;
    return RFACCESS_DELAY;
}

static void test_empty_chain(void)
{
    rfaccess_chain *c = rfaccess_chain_new();
    rfaccess_req r = {.warp = 3, .reg = 7, .phys = 7};
    g_assert_cmpint(rfaccess_run(c, &r), ==, RFACCESS_ALLOW);
    g_assert_cmpuint(r.phys, ==, 7);
    g_assert_cmpuint(r.delay, ==, 0);
    g_assert_cmpint(r.refused_by, ==, -1);
    rfaccess_chain_free(c);
}

static void test_chain(void)
{
    pair_lock lock = {.owner = -1};
    static const unsigned table[2][8] = {{10, 11, 12, 13, 14, 15, 16, 17}, {20, 21, 22, 23, 24, 25, 26, 27}};
    unsigned power[32] = {0};
    power[15] = 1; /* warp 0 r5 asleep */
    power[21] = 2; /* warp 1 r1 off */
    rfaccess_chain *c = rfaccess_chain_new();
    g_assert_cmpuint(rfaccess_chain_add(c, "lock", hook_lock, &lock), ==, 0);
    g_assert_cmpuint(rfaccess_chain_add(c, "rename", hook_rename, (void *)table), ==, 1);
    g_assert_cmpuint(rfaccess_chain_add(c, "wakeup", hook_wakeup, power), ==, 2);
    g_assert_cmpuint(rfaccess_chain_len(c), ==, 3);
    g_assert_cmpstr(rfaccess_chain_name(c, 1), ==, "rename");

    rfaccess_req r = {.warp = 0, .reg = 5, .phys = 5};
    g_assert_cmpint(rfaccess_run(c, &r), ==, RFACCESS_DELAY); /* takes the lock, renamed to 15, wakes */
    g_assert_cmpuint(r.phys, ==, 15);
    g_assert_cmpuint(r.delay, ==, 1);
    g_assert_cmpint(lock.owner, ==, 0);
    r = (rfaccess_req){.warp = 0, .reg = 5, .phys = 5};
    g_assert_cmpint(rfaccess_run(c, &r), ==, RFACCESS_ALLOW); /* awake now */

    r = (rfaccess_req){.warp = 1, .reg = 6, .phys = 6};
    g_assert_cmpint(rfaccess_run(c, &r), ==, RFACCESS_RETRY); /* partner holds the lock */
    g_assert_cmpint(r.refused_by, ==, 0);
    g_assert_cmpuint(r.phys, ==, 6); /* later hooks did not run */

    r = (rfaccess_req){.warp = 1, .reg = 1, .phys = 1, .write = true}; /* private register, OFF */
    g_assert_cmpint(rfaccess_run(c, &r), ==, RFACCESS_DELAY);
    g_assert_cmpuint(r.phys, ==, 21);
    g_assert_cmpuint(r.delay, ==, 2);

    const rfaccess_stats *s = rfaccess_chain_stats(c, 0);
    g_assert_cmpuint(s->calls, ==, 4);
    g_assert_cmpuint(s->retries, ==, 1);
    s = rfaccess_chain_stats(c, 1);
    g_assert_cmpuint(s->calls, ==, 3);
    s = rfaccess_chain_stats(c, 2);
    g_assert_cmpuint(s->calls, ==, 3);
    g_assert_cmpuint(s->delays, ==, 2);
    g_assert_cmpuint(s->delay_cycles, ==, 3);
    rfaccess_chain_free(c);
}

/* Delays of several hooks add up. */
static rfaccess_verdict hook_delay3(void *ctx, rfaccess_req *r, unsigned *delay)
{
    (void)ctx, (void)r;
    *delay = 3;
    return RFACCESS_DELAY;
}

static void test_delays_add(void)
{
    rfaccess_chain *c = rfaccess_chain_new();
    rfaccess_chain_add(c, "a", hook_delay3, NULL);
    rfaccess_chain_add(c, "b", hook_delay3, NULL);
    rfaccess_req r = {0};
    g_assert_cmpint(rfaccess_run(c, &r), ==, RFACCESS_DELAY);
    g_assert_cmpuint(r.delay, ==, 6);
    rfaccess_chain_free(c);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/rfaccess/empty", test_empty_chain);
    g_test_add_func("/rfaccess/chain", test_chain);
    g_test_add_func("/rfaccess/delays-add", test_delays_add);
    return g_test_run();
}
