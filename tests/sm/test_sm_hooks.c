/* test_sm_hooks — the SM's extension points reached through the topology (models/topo/sm.h accessors)
 * and cta_dispatch's pluggable decisions, on whole SMs running a workload whose output is checked
 * against its CPU reference (testbench/tb_common.h, as tb-sm). Each test runs in its own subprocess
 * (a fresh SystemC kernel): SMs sm0.. behind cta_dispatch, each with its own mem_fixed.
 *  - a resource check and a policy veto installed through sm_topo_issue(): the veto holds every warp
 *    until cycle 300, so the first instruction issues at 300 exactly (the issue log), and the
 *    scheduler-cycles before are stall_vetoed; the check lets a warp issue on odd cycles only: every
 *    issue in the log is on an odd cycle, and stall_check counts the refusals;
 *  - cta_dispatch_set_pick: a pick that always chooses SM 1 of 2: SM 0 runs no CTA;
 *  - cta_dispatch_set_alloc: a grant of at most one resident CTA per SM (wrapping the ledger): never
 *    two CTAs at once on an SM, every grant released, fewer resident CTAs than the default's;
 *  - ldst_set_l1_evict_hook on a small L1D: every line the L1D allocated (a miss) was replaced,
 *    invalidated (write-evict) or is still there at the end: misses = replaced + invalidated + resident.
 */
#include <glib.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>

#include "models/core/cli.h"
#include "models/sm/mem_fixed.h"
#include "testbench/tb_common.h"

#define MAX_SMS 2

static const blk_param_desc tb_params[] = {
    {"period_ps", BLK_PARAM_UINT, "1429", "2", "1000000", NULL, "ps", "core clock period"},
};
static const blk_desc tb_desc = {
    "tb_hooks", "test: SMs behind cta_dispatch, a mem_fixed each", "", NULL, 0, tb_params, BLK_N(tb_params),
    NULL,       0,                                                 NULL, 0,
};

typedef struct {
    cli_run *run;
    tb_opts o;
    tb_kernel *k;
    cta_dispatch *d;
    sm_topo *sm[MAX_SMS];
    unsigned n;
    tb_machine *m;
} rig;

static void bind(gsc_module *m, const char *name, const gsc_type *t, unsigned depth, gsc_port *out,
                 gsc_port *in)
{
    gsc_fifo *f = gsc_fifo_new(m, name, t, depth);
    gsc_port_bind_fifo(out, f);
    gsc_port_bind_fifo(in, f);
}

/* Builds n SMs for a workload at the tiny size; `sets` are --set arguments (NULL-terminated). */
static void rig_build(rig *r, unsigned n, const char *workload, const char *const *sets)
{
    GPtrArray *av = g_ptr_array_new();
    g_ptr_array_add(av, (char *)"test_sm_hooks");
    g_ptr_array_add(av, (char *)"--no-trace");
    g_ptr_array_add(av, (char *)"--workload");
    g_ptr_array_add(av, (char *)workload);
    g_ptr_array_add(av, (char *)"--size");
    g_ptr_array_add(av, (char *)"tiny");
    for (unsigned i = 0; sets && sets[i]; i++) {
        g_ptr_array_add(av, (char *)"--set");
        g_ptr_array_add(av, (char *)sets[i]);
    }
    int argc = (int)av->len;
    g_ptr_array_add(av, NULL);
    char **argv = (char **)av->pdata;
    sm_topo_register();
    r->run = cli_new("test_sm_hooks", "hooks", &tb_desc, "tb", "gtx480");
    tb_opts_add(r->run, &r->o);
    cli_parse(r->run, &argc, &argv);
    r->k = tb_kernel_load(&r->o, workload);
    sm_env *env = tb_kernel_env(r->k, n);
    gsc_module *top = r->run->top->mod;
    r->n = n;
    r->d = cta_dispatch_new(r->run->ctx, top, "dispatch", env, n);
    for (unsigned s = 0; s < n; s++) {
        char *name = g_strdup_printf("sm%u", s), *mn = g_strdup_printf("mem%u", s);
        r->sm[s] = sm_topo_new(r->run->ctx, top, name, s, env, false);
        mem_fixed *mem = mem_fixed_new(r->run->ctx, top, mn, env);
        char *a = g_strdup_printf("cta_launch%u", s), *b = g_strdup_printf("cta_done%u", s),
             *c = g_strdup_printf("mem_req%u", s), *e = g_strdup_printf("mem_resp%u", s);
        bind(top, a, &cta_launch_type, sm_topo_port_depth(r->sm[s], SM_PORT_CTA_LAUNCH),
             cta_dispatch_port_launch(r->d, s), sm_topo_port(r->sm[s], SM_PORT_CTA_LAUNCH));
        bind(top, b, &cta_done_type, blk_port_fifo_depth(r->d->inst, 1), sm_topo_port(r->sm[s], SM_PORT_CTA_DONE),
             cta_dispatch_port_done(r->d, s));
        bind(top, c, &mem_req_type, blk_port_fifo_depth(mem->inst, MEM_FIXED_REQ),
             sm_topo_port(r->sm[s], SM_PORT_MEM_REQ), blk_port(mem->inst, MEM_FIXED_REQ));
        bind(top, e, &mem_resp_type, sm_topo_port_depth(r->sm[s], SM_PORT_MEM_RESP),
             blk_port(mem->inst, MEM_FIXED_RESP), sm_topo_port(r->sm[s], SM_PORT_MEM_RESP));
        g_free(name), g_free(mn), g_free(a), g_free(b), g_free(c), g_free(e);
    }
    occupancy_sm occ;
    sm_topo_occupancy(r->sm[0], &occ);
    cta_dispatch_set_limits(r->d, &occ);
    r->m = tb_machine_new(r->run, env, r->d, r->sm, n);
    tb_machine_watchdog(r->m, top, 100000);
    g_ptr_array_free(av, TRUE);
}

/* Elaborates and runs the workload: its output must match the CPU reference. */
static void rig_run(rig *r)
{
    cli_elaborate(r->run);
    g_assert_cmpint(tb_machine_run(r->m, r->k, &r->o), ==, TB_EXIT_OK);
}

static uint64_t issue_stat(const rig *r, unsigned sm, unsigned stat)
{
    return blk_stat_get(sm_topo_issue_inst(r->sm[sm]), stat);
}

/* Runs `fn` in a subprocess (a fresh SystemC kernel each). */
static void in_subprocess(void (*fn)(void))
{
    if (g_test_subprocess()) {
        fn();
        return;
    }
    g_test_trap_subprocess(NULL, 0, G_TEST_SUBPROCESS_INHERIT_STDERR);
    g_test_trap_assert_passed();
}

/* ---- a check and a veto through sm_topo_issue ---- */
static bool veto_before_300(void *ctx, const policy_warp *w, unsigned n, unsigned i, uint64_t cycle)
{
    (void)ctx, (void)w, (void)n, (void)i;
    return cycle < 300;
}

static bool check_odd_cycles(void *ctx, unsigned warp, const decoded_t *head, uint64_t cycle)
{
    (void)warp, (void)head;
    ++*(unsigned *)ctx;
    return cycle % 2 == 1;
}

/* The issue log's cycles (first field of each line). */
static GArray *log_cycles(const char *path)
{
    GArray *c = g_array_new(FALSE, FALSE, sizeof(uint64_t));
    FILE *f = fopen(path, "r");
    g_assert_nonnull(f);
    char line[256];
    while (fgets(line, sizeof line, f)) {
        uint64_t v = g_ascii_strtoull(line, NULL, 10);
        g_array_append_val(c, v);
    }
    fclose(f);
    return c;
}

static void run_check_and_veto(void)
{
    char *dir = g_dir_make_tmp("hooks-XXXXXX", NULL);
    char *log = g_build_filename(dir, "issue.log", NULL);
    char *set = g_strdup_printf("issue.log=%s", log);
    const char *sets[] = {set, NULL};
    rig r;
    rig_build(&r, 1, "hotspot", sets);
    issue *is = sm_topo_issue(r.sm[0]);
    for (unsigned s = 0; s < issue_schedulers(is); s++)
        policy_add_veto(issue_policy(is, s), veto_before_300, NULL);
    unsigned asked = 0;
    issue_add_check(is, check_odd_cycles, &asked);
    rig_run(&r);
    fflush(is->log); /* the log is closed when the block is freed */
    GArray *c = log_cycles(log);
    g_assert_cmpuint(c->len, ==, issue_stat(&r, 0, ISSUE_STAT_WARP_INSTRS));
    g_assert_cmpuint(g_array_index(c, uint64_t, 0), ==, 301); /* 300 is even: the check refuses it */
    for (guint i = 0; i < c->len; i++)
        g_assert_cmpuint(g_array_index(c, uint64_t, i) % 2, ==, 1);
    g_assert_cmpuint(issue_stat(&r, 0, ISSUE_STAT_STALL_VETOED), >, 0);
    g_assert_cmpuint(issue_stat(&r, 0, ISSUE_STAT_STALL_CHECK), >, 0);
    g_assert_cmpuint(asked, >, c->len);
    g_array_free(c, TRUE);
    g_remove(log);
    g_rmdir(dir);
    g_free(set), g_free(log), g_free(dir);
}

static void test_check_and_veto(void)
{
    in_subprocess(run_check_and_veto);
}

/* ---- cta_dispatch_set_pick: everything on SM 1 ---- */
static int pick_sm1(ctaslots *const *sms, unsigned n, const occupancy_kernel *k, int last, void *ctx)
{
    (void)last;
    g_assert_cmpuint(n, ==, 2);
    ++*(unsigned *)ctx;
    return ctaslots_fits(sms[1], k, NULL) ? 1 : -1;
}

static void run_pick(void)
{
    rig r;
    rig_build(&r, 2, "hotspot", NULL);
    unsigned calls = 0;
    cta_dispatch_set_pick(r.d, pick_sm1, &calls);
    rig_run(&r);
    g_assert_cmpuint(issue_stat(&r, 0, ISSUE_STAT_CTAS), ==, 0);
    g_assert_cmpuint(issue_stat(&r, 1, ISSUE_STAT_CTAS), ==, blk_stat_get(r.d->inst, CTA_DISPATCH_STAT_CTAS));
    g_assert_cmpuint(issue_stat(&r, 1, ISSUE_STAT_CTAS), >, 1);
    g_assert_cmpuint(calls, >=, issue_stat(&r, 1, ISSUE_STAT_CTAS));
}

static void test_pick(void)
{
    in_subprocess(run_pick);
}

/* ---- cta_dispatch_set_alloc: at most one resident CTA per SM, wrapping the ledger ---- */
typedef struct {
    unsigned resident[MAX_SMS], max_resident, grants, releases;
} one_per_sm;

static bool one_fits(void *ctx, ctaslots *slots, unsigned sm, const occupancy_kernel *k)
{
    one_per_sm *o = ctx;
    return o->resident[sm] == 0 && cta_dispatch_ledger_fits(NULL, slots, sm, k);
}

static bool one_grant(void *ctx, ctaslots *slots, unsigned sm, const occupancy_kernel *k, ctaslots_grant *g)
{
    one_per_sm *o = ctx;
    if (!one_fits(ctx, slots, sm, k) || !cta_dispatch_ledger_grant(NULL, slots, sm, k, g))
        return false;
    o->grants++;
    o->resident[sm]++;
    o->max_resident = MAX(o->max_resident, o->resident[sm]);
    return true;
}

static void one_release(void *ctx, ctaslots *slots, unsigned sm, const cta_done_t *done)
{
    one_per_sm *o = ctx;
    g_assert_cmpuint(o->resident[sm], >, 0);
    o->resident[sm]--;
    o->releases++;
    cta_dispatch_ledger_release(NULL, slots, sm, done);
}

static void run_alloc(void)
{
    rig r;
    rig_build(&r, 1, "hotspot", NULL);
    one_per_sm o = {0};
    cta_dispatch_alloc a = {one_fits, one_grant, one_release, &o};
    cta_dispatch_set_alloc(r.d, &a);
    rig_run(&r);
    uint64_t ctas = blk_stat_get(r.d->inst, CTA_DISPATCH_STAT_CTAS);
    g_assert_cmpuint(ctas, >, 1);
    g_assert_cmpuint(o.grants, ==, ctas);
    g_assert_cmpuint(o.releases, ==, ctas);
    g_assert_cmpuint(o.max_resident, ==, 1);
    /* the time-average of resident CTAs (the default runs several at once) */
    g_assert_cmpfloat(blk_stat_value(sm_topo_issue_inst(r.sm[0]), ISSUE_STAT_AVG_CTAS), <=, 1.0);
}

static void test_alloc(void)
{
    in_subprocess(run_alloc);
}

/* ---- ldst_set_l1_evict_hook: every allocated line is accounted for ---- */
typedef struct {
    unsigned replaced, invalidated, bad_meta;
    unsigned warps;
} evictions;

static void count_eviction(const cache_eviction *ev, void *ctx)
{
    evictions *e = ctx;
    if (ev->reason == CACHE_EVICT_REPLACE)
        e->replaced++;
    else
        e->invalidated++;
    e->bad_meta += ev->meta >= e->warps; /* the line's reserving warp */
}

static void run_evict_hook(void)
{
    const char *sets[] = {"ldst.l1_sets=2", "ldst.l1_ways=2", NULL};
    rig r;
    rig_build(&r, 1, "stencil3d", sets);
    ldst *l = sm_topo_ldst(r.sm[0]);
    evictions e = {.warps = 48};
    ldst_set_l1_evict_hook(l, count_eviction, &e);
    rig_run(&r);
    cache_tags *t = ldst_l1_tags(l);
    const cache_config *cc = cache_tags_config(t);
    unsigned resident = 0;
    for (unsigned s = 0; s < cc->sets; s++)
        for (unsigned w = 0; w < cc->ways; w++)
            resident += cache_tags_line(t, s, w)->state != CACHE_LINE_INVALID;
    uint64_t misses = blk_stat_get(sm_topo_ldst_inst(r.sm[0]), LDST_STAT_L1_MISSES);
    g_assert_cmpuint(e.replaced, >, 0);
    g_assert_cmpuint(misses, ==, e.replaced + e.invalidated + resident);
    g_assert_cmpuint(e.bad_meta, ==, 0);
}

static void test_evict_hook(void)
{
    in_subprocess(run_evict_hook);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/sm/hooks/check_and_veto", test_check_and_veto);
    g_test_add_func("/sm/hooks/dispatch_pick", test_pick);
    g_test_add_func("/sm/hooks/dispatch_alloc", test_alloc);
    g_test_add_func("/sm/hooks/l1_evict_hook", test_evict_hook);
    return g_test_run();
}
