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
 *  - the register access chain: a hook bound to regfile's `access` import (sm_topo_regfile) that delays
 *    every read by a cycle: the output is right, every bank read was deferred once, and the hook saw
 *    each read twice (requested, then served) and each write once;
 *  - ldst's l1_evict port on a small L1D: every line the L1D allocated (a miss) was replaced,
 *    invalidated (write-evict) or is still there at the end: misses = replaced + invalidated + resident;
 *  - the register value path through sm_topo_wexec (wexec_add_value_hook, regval.h), on every workload:
 *    a hook keeping a shadow copy of every register from the writes it sees finds every read (all
 *    32 lanes) equal to its copy, and every write unchanged outside the lanes it says it wrote, so no
 *    value moves around the hooks; on sgemm the reads and writes it counts equal those of the issue
 *    log's instructions (decode's register lists); poisoning one live register once (the data of a
 *    st.global) makes the CPU-reference check fail; poisoning, before every instruction, every
 *    register the toolchain's liveness says is dead there (in the lanes at that pc) leaves every
 *    output correct, and poisoning those dead only after it (one instruction too early) fails vecadd.
 */
#include <glib.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>

#include "kernels/analysis/dataflow.h"
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
    sm_env *env;
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
    machine_register(MACHINE_SM);
    r->run = cli_new("test_sm_hooks", "hooks", &tb_desc, "tb", "gtx480");
    tb_opts_add(r->run, &r->o);
    cli_parse(r->run, &argc, &argv);
    r->k = tb_kernel_load(&r->o, workload, "tb.sm0", false);
    sm_env *env = tb_kernel_env(r->k, n);
    r->env = env;
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
        bind(top, b, &cta_done_type, blk_port_fifo_depth(r->d->inst, 1),
             sm_topo_port(r->sm[s], SM_PORT_CTA_DONE), cta_dispatch_port_done(r->d, s));
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

/* An issue log in a temporary directory; `set` is the --set argument that writes it. */
typedef struct {
    char *dir, *path, *set;
} issue_log;

static void issue_log_new(issue_log *l)
{
    l->dir = g_dir_make_tmp("hooks-XXXXXX", NULL);
    l->path = g_build_filename(l->dir, "issue.log", NULL);
    l->set = g_strdup_printf("issue.log=%s", l->path);
}

static void issue_log_free(issue_log *l)
{
    g_remove(l->path);
    g_rmdir(l->dir);
    g_free(l->set), g_free(l->path), g_free(l->dir);
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
    issue_log log;
    issue_log_new(&log);
    const char *sets[] = {log.set, NULL};
    rig r;
    rig_build(&r, 1, "hotspot", sets);
    issue *is = sm_topo_issue(r.sm[0]);
    /* a veto bound to every scheduler's arbiter, a check bound to issue: as a mechanism would */
    static const issue_veto_if veto = {veto_before_300};
    static const issue_check_if check = {check_odd_cycles};
    for (unsigned s = 0; s < issue_schedulers(is); s++) {
        char *arb = g_strdup_printf("%s.arbiter%u", gsc_module_name(sm_topo_module(r.sm[0])), s);
        blk_inst *a = blk_ctx_find(r.run->ctx, arb);
        g_assert_nonnull(a);
        blk_bind_stub(a, "veto", &veto, NULL);
        g_free(arb);
    }
    unsigned asked = 0;
    blk_bind_stub(is->inst, "check", &check, &asked);
    rig_run(&r);
    fflush(is->log); /* the log is closed when the block is freed */
    GArray *c = log_cycles(log.path);
    g_assert_cmpuint(c->len, ==, issue_stat(&r, 0, ISSUE_STAT_WARP_INSTRS));
    g_assert_cmpuint(g_array_index(c, uint64_t, 0), ==, 301); /* 300 is even: the check refuses it */
    for (guint i = 0; i < c->len; i++)
        g_assert_cmpuint(g_array_index(c, uint64_t, i) % 2, ==, 1);
    g_assert_cmpuint(issue_stat(&r, 0, ISSUE_STAT_STALL_VETOED), >, 0);
    g_assert_cmpuint(issue_stat(&r, 0, ISSUE_STAT_STALL_CHECK), >, 0);
    g_assert_cmpuint(asked, >, c->len);
    g_array_free(c, TRUE);
    issue_log_free(&log);
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
    static const cta_pick_if pick = {pick_sm1}; /* through the dispatcher's `pick` port */
    blk_bind_stub(r.d->inst, "pick", &pick, &calls);
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
    static const cta_grant_if grant = {one_fits, one_grant, one_release}; /* the `grant` port */
    blk_bind_stub(r.d->inst, "grant", &grant, &o);
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

/* ---- ldst's l1_evict port: every allocated line is accounted for ---- */
typedef struct {
    unsigned replaced, invalidated, bad_meta;
    unsigned warps;
} evictions;

static void count_eviction(void *ctx, const cache_eviction *ev)
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
    static const l1_evict_if listener = {count_eviction};
    blk_bind_stub(l->inst, "l1_evict", &listener, &e);
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

/* ---- ldst's l1_access port: two listeners, in binding order, see every L1D load probe ---- */
typedef struct {
    unsigned n[4]; /* by cache_status */
    unsigned calls, order_bad;
    const unsigned *other_calls; /* the listener bound before this one */
} accesses;

static void count_access(void *ctx, unsigned warp, uint64_t addr, unsigned outcome)
{
    accesses *a = ctx;
    (void)warp, (void)addr;
    g_assert_cmpuint(outcome, <, 4);
    a->n[outcome]++;
    a->calls++;
    if (a->other_calls && *a->other_calls != a->calls) /* the first listener ran already */
        a->order_bad++;
}

static void run_access_hook(void)
{
    rig r;
    rig_build(&r, 1, "bfs", NULL);
    ldst *l = sm_topo_ldst(r.sm[0]);
    static const l1_access_if listener = {count_access};
    accesses first = {{0}}, second = {{0}};
    second.other_calls = &first.calls;
    blk_bind_stub(l->inst, "l1_access", &listener, &first);
    blk_bind_stub(l->inst, "l1_access", &listener, &second);
    rig_run(&r);
    blk_inst *li = sm_topo_ldst_inst(r.sm[0]);
    g_assert_cmpuint(first.n[CACHE_HIT], ==, blk_stat_get(li, LDST_STAT_L1_HITS));
    g_assert_cmpuint(first.n[CACHE_HIT_RESERVED], ==, blk_stat_get(li, LDST_STAT_L1_MERGED));
    g_assert_cmpuint(first.n[CACHE_MISS], ==, blk_stat_get(li, LDST_STAT_L1_MISSES));
    g_assert_cmpuint(first.calls, >, 0);
    g_assert_cmpuint(second.calls, ==, first.calls);
    g_assert_cmpuint(second.order_bad, ==, 0);
}

static void test_access_hook(void)
{
    in_subprocess(run_access_hook);
}

/* ---- the register value path (sm_topo_wexec + wexec_add_value_hook) ---- */

/* Runs the test's function in a subprocess (the same test path, with its data). */
static void in_subprocess_data(const void *data, void (*fn)(const void *))
{
    if (g_test_subprocess()) {
        fn(data);
        return;
    }
    g_test_trap_subprocess(NULL, 0, G_TEST_SUBPROCESS_INHERIT_STDERR);
    g_test_trap_assert_passed();
}

/* A copy of every register of every warp slot, kept from the accesses the hooks see: by the row
 * that holds a register slot's value (kload.h: the row of its physical register), so the lanes a
 * write leaves alone hold what the last write of any slot sharing the row put there. */
typedef struct {
    const uint32_t *row; /* kload slot_row */
    const uint32_t *at;  /* kload row_at: bit 0, a narrow row (its lanes keep 32 bits) */
    unsigned regs;       /* rows */
    uint64_t *copy;      /* SM_MAX_WARPS x rows x 32 lanes */
    uint64_t calls[REGVAL_N_KINDS];
    uint64_t bad; /* accesses that found a value the hooks did not see written */
} shadow;

static void shadow_init(shadow *s, const rig *r)
{
    s->row = r->env->k->slot_row;
    s->at = r->env->k->row_at;
    s->regs = r->env->k->total_rows;
    s->copy = g_new0(uint64_t, (size_t)SM_MAX_WARPS * s->regs * IR_WARP_SIZE);
    memset(s->calls, 0, sizeof s->calls);
    s->bad = 0;
}

static void shadow_hook(void *ctx, regval_access *a)
{
    shadow *s = ctx;
    s->calls[a->kind]++;
    uint64_t *c = &s->copy[(size_t)a->warp * s->regs * IR_WARP_SIZE];
    if (a->kind == REGVAL_ALLOC || a->kind == REGVAL_FREE) {
        for (size_t i = 0; i < (size_t)s->regs * IR_WARP_SIZE; i++)
            c[i] = a->kind == REGVAL_ALLOC ? 0
                   : (s->at[i / IR_WARP_SIZE] & 1) ? (uint32_t)REGVAL_POISON
                                                   : REGVAL_POISON;
        return;
    }
    g_assert_cmpuint(s->row[a->slot], <, s->regs);
    c += (size_t)s->row[a->slot] * IR_WARP_SIZE;
    for (unsigned l = 0; l < IR_WARP_SIZE; l++) {
        if (a->kind == REGVAL_WRITE && (a->lanes >> l & 1))
            c[l] = a->v[l];
        else if (a->v[l] != c[l] && s->bad++ == 0)
            g_printerr("%s of warp %u slot %u lane %u (pc %u, cycle %" G_GUINT64_FORMAT
                       "): 0x%" G_GINT64_MODIFIER "x, the hooks last saw 0x%" G_GINT64_MODIFIER "x\n",
                       a->kind == REGVAL_READ ? "read" : "write", a->warp, a->slot, l, a->pc, a->cycle,
                       a->v[l], c[l]);
    }
}

static void run_shadow(const void *data)
{
    rig r;
    rig_build(&r, 1, data, NULL);
    shadow s;
    shadow_init(&s, &r);
    g_assert_cmpuint(wexec_add_value_hook(sm_topo_wexec(r.sm[0]), "shadow", shadow_hook, &s), ==, 0);
    rig_run(&r);
    g_assert_cmpuint(s.bad, ==, 0);
    g_assert_cmpuint(s.calls[REGVAL_READ], >, 0);
    g_assert_cmpuint(s.calls[REGVAL_WRITE], >, 0);
    g_assert_cmpuint(s.calls[REGVAL_ALLOC], >, 0);
    g_assert_cmpuint(s.calls[REGVAL_FREE], ==, s.calls[REGVAL_ALLOC]);
    const regval_stats *st = regval_chain_stats(wexec_value_hooks(sm_topo_wexec(r.sm[0])), 0);
    for (unsigned k = 0; k < REGVAL_N_KINDS; k++)
        g_assert_cmpuint(st->calls[k], ==, s.calls[k]);
    g_free(s.copy);
}

/* A hook that is quiet after 3 accesses of a warp: the engine gives it no more READ or WRITE of the
 * warp until the warp's next ALLOC (a new CTA), and the run still passes its check. */
typedef struct {
    unsigned since[SM_MAX_WARPS], most, allocs;
} quiet_count;

static void quiet_after_3(void *ctx, regval_access *a)
{
    quiet_count *q = ctx;
    if (a->kind == REGVAL_ALLOC) {
        q->since[a->warp] = 0;
        q->allocs++;
    }
    if (a->kind != REGVAL_READ && a->kind != REGVAL_WRITE)
        return;
    unsigned n = ++q->since[a->warp];
    q->most = MAX(q->most, n);
    a->quiet = n >= 3;
}

static void run_quiet(void)
{
    rig r;
    rig_build(&r, 1, "vecadd", NULL);
    quiet_count q = {{0}, 0, 0};
    wexec_add_value_hook(sm_topo_wexec(r.sm[0]), "quiet", quiet_after_3, &q);
    rig_run(&r);
    g_assert_cmpuint(q.allocs, >, 1);
    g_assert_cmpuint(q.most, ==, 3);
}

static void test_values_quiet(void)
{
    in_subprocess(run_quiet);
}

static void test_values_shadow(const void *data)
{
    in_subprocess_data(data, run_shadow);
}

/* The issue log's instructions (sgemm: one kernel, no calls, every load in an explicit space, so each
 * destination is written once, at issue or when the data returns): reads = decode's source
 * registers of every issued instruction, writes = its destination registers when a lane executed. */
static void run_counts(void)
{
    issue_log log;
    issue_log_new(&log);
    const char *sets[] = {log.set, NULL};
    rig r;
    rig_build(&r, 1, "sgemm", sets);
    shadow s;
    shadow_init(&s, &r);
    wexec_add_value_hook(sm_topo_wexec(r.sm[0]), "shadow", shadow_hook, &s);
    rig_run(&r);
    fflush(sm_topo_issue(r.sm[0])->log);
    uint32_t entry = r.env->launch.entry;
    const ir_func *f = g_ptr_array_index(r.env->mod->funcs, entry);
    uint64_t reads = 0, writes = 0, lines = 0;
    FILE *fp = fopen(log.path, "r");
    g_assert_nonnull(fp);
    char line[256];
    while (fgets(line, sizeof line, fp)) {
        unsigned pc, mask;
        const char *p = strstr(line, " pc "), *m = strstr(line, " mask ");
        g_assert_true(p && m && sscanf(p, " pc %u", &pc) == 1 && sscanf(m, " mask %x", &mask) == 1);
        lines++;
        if (pc >= ir_func_n_instrs(f))
            continue; /* the implicit ret */
        uint16_t src[SM_MAX_OPERANDS], dst[IR_MAX_DST + 2], ns, nd;
        wexec_instr_regs(r.env->k, entry, ir_func_instr(f, pc), src, &ns, dst, &nd);
        reads += ns;
        writes += mask ? nd : 0;
    }
    fclose(fp);
    g_assert_cmpuint(lines, ==, issue_stat(&r, 0, ISSUE_STAT_WARP_INSTRS));
    g_assert_cmpuint(s.bad, ==, 0);
    g_assert_cmpuint(s.calls[REGVAL_READ], ==, reads);
    g_assert_cmpuint(s.calls[REGVAL_WRITE], ==, writes);
    g_assert_cmpuint(reads, >, lines);
    g_test_message("sgemm: %" G_GUINT64_FORMAT " instructions, %" G_GUINT64_FORMAT
                   " reads, %" G_GUINT64_FORMAT " writes",
                   lines, reads, writes);
    g_free(s.copy);
    issue_log_free(&log);
}

static void test_values_counts(void)
{
    in_subprocess(run_counts);
}

/* Poison one live register once: the data of the first st.global a warp issues from cycle 1000 on. */
typedef struct {
    const sm_env *env;
    unsigned poisoned, warp;
    uint64_t cycle;
} poison_once;

static void poison_store_data(void *ctx, regval_access *a)
{
    poison_once *p = ctx;
    if (p->poisoned || a->kind != REGVAL_READ || a->cycle < 1000 || a->lanes == 0)
        return;
    const ir_func *f = g_ptr_array_index(p->env->mod->funcs, a->func);
    const ir_instr *in = ir_func_instr(f, a->pc);
    if (in->op != IR_OP_ST || in->space != IR_SPACE_GLOBAL)
        return;
    const ir_operand *data = in->dst[0].kind == IR_OPND_MEM ? &in->src[0] : &in->src[1];
    if (data->kind != IR_OPND_REG || a->slot != p->env->k->funcs[a->func].reg_base + data->u.reg)
        return;
    regval_poison(a->v, a->lanes);
    p->poisoned++;
    p->warp = a->warp;
    p->cycle = a->cycle;
}

static void test_values_poison_live(void)
{
    if (g_test_subprocess()) {
        rig r;
        rig_build(&r, 1, "sgemm", NULL);
        poison_once p = {.env = r.env};
        wexec_add_value_hook(sm_topo_wexec(r.sm[0]), "poison", poison_store_data, &p);
        cli_elaborate(r.run);
        int rc = tb_machine_run(r.m, r.k, &r.o);
        g_assert_cmpuint(p.poisoned, ==, 1);
        g_printerr("poisoned warp %u at cycle %" G_GUINT64_FORMAT ": exit %d\n", p.warp, p.cycle, rc);
        g_assert_cmpint(rc, ==, TB_EXIT_RUN);
        return;
    }
    g_test_trap_subprocess(NULL, 0, 0);
    g_test_trap_assert_passed();
    g_test_trap_assert_stderr("*workload sgemm*differ*poisoned warp * at cycle *: exit 1*");
}

/* Before each instruction, poison (in the lanes at its pc) every register of its function the
 * toolchain's liveness says is dead there: no later instruction of those threads reads it before
 * writing it, so the outputs stay correct. A register is dead when every register kept in its row
 * (kload.h: the row of its physical register) is. */
typedef struct {
    wexec *x;
    const sm_env *env;
    df_bits ***dead; /* per function, per instruction: the registers not live before it */
    uint32_t last_warp, last_func, last_pc;
    uint64_t last_cycle;
    uint64_t lanes_poisoned; /* lanes of dead registers that held something else than the poison */
} poison_dead;

/* too_early: the registers dead after the instruction instead (its last reads are then poisoned
 * before it reads them). */
static void poison_dead_init(poison_dead *p, rig *r, bool too_early)
{
    const ir_module *m = r->env->mod;
    *p = (poison_dead){.x = sm_topo_wexec(r->sm[0]), .env = r->env, .last_warp = REGVAL_NONE};
    p->dead = g_new0(df_bits **, m->funcs->len);
    for (guint fi = 0; fi < m->funcs->len; fi++) {
        ir_func *f = g_ptr_array_index(m->funcs, fi);
        uint32_t n = ir_func_n_instrs(f), nr = f->regs ? f->regs->len : 0;
        if (n == 0 || nr == 0)
            continue;
        df_liveness *l = df_liveness_compute(f);
        p->dead[fi] = g_new0(df_bits *, n);
        const uint32_t *row = r->env->k->funcs[fi].rows;
        GHashTable *live_rows = g_hash_table_new(NULL, NULL);
        for (uint32_t i = 0; i < n; i++) {
            df_bits *live = df_bits_new(nr);
            if (too_early)
                df_live_after(l, i, live);
            else
                df_live_before(l, i, live);
            g_hash_table_remove_all(live_rows);
            for (uint32_t v = df_bits_next(live, 0); v != IR_NONE; v = df_bits_next(live, v + 1))
                g_hash_table_add(live_rows, GUINT_TO_POINTER(row[v] + 1));
            p->dead[fi][i] = df_bits_new(nr);
            for (uint32_t v = 0; v < nr; v++)
                if (!g_hash_table_contains(live_rows, GUINT_TO_POINTER(row[v] + 1)))
                    df_bits_set(p->dead[fi][i], v);
            df_bits_free(live);
        }
        g_hash_table_destroy(live_rows);
        df_liveness_free(l);
    }
}

static void poison_dead_free(poison_dead *p)
{
    const ir_module *m = p->env->mod;
    for (guint fi = 0; fi < m->funcs->len; fi++) {
        if (!p->dead[fi])
            continue;
        for (uint32_t i = 0; i < ir_func_n_instrs(g_ptr_array_index(m->funcs, fi)); i++)
            df_bits_free(p->dead[fi][i]);
        g_free(p->dead[fi]);
    }
    g_free(p->dead);
}

static void poison_dead_hook(void *ctx, regval_access *a)
{
    poison_dead *p = ctx;
    if (a->kind != REGVAL_READ || !p->dead[a->func])
        return;
    if (a->warp == p->last_warp && a->func == p->last_func && a->pc == p->last_pc &&
        a->cycle == p->last_cycle)
        return; /* done at this instruction's first read */
    p->last_warp = a->warp, p->last_func = a->func, p->last_pc = a->pc, p->last_cycle = a->cycle;
    uint32_t lanes = wexec_warp_active_lanes(p->x, a->warp); /* the threads at this pc */
    const df_bits *dead = p->dead[a->func][a->pc];
    uint32_t base = p->env->k->funcs[a->func].reg_base;
    uint64_t v[IR_WARP_SIZE];
    for (uint32_t reg = df_bits_next(dead, 0); reg != IR_NONE; reg = df_bits_next(dead, reg + 1)) {
        for (uint32_t m = lanes; m; m &= m - 1) {
            unsigned l = (unsigned)__builtin_ctz(m);
            v[l] = wexec_read_slot(p->x, a->warp, base + reg, l);
            p->lanes_poisoned += v[l] != REGVAL_POISON;
        }
        regval_poison(v, lanes);
        wexec_write_slot(p->x, a->warp, base + reg, lanes, v, UINT64_MAX, a->cycle);
    }
}

static void run_poison_dead(const void *data)
{
    rig r;
    rig_build(&r, 1, data, NULL);
    poison_dead p;
    poison_dead_init(&p, &r, false);
    wexec_add_value_hook(sm_topo_wexec(r.sm[0]), "poison-dead", poison_dead_hook, &p);
    rig_run(&r); /* the outputs are still correct */
    g_assert_cmpuint(p.lanes_poisoned, >, 0);
    g_test_message("%s: %" G_GUINT64_FORMAT " lanes of dead registers poisoned", (const char *)data,
                   p.lanes_poisoned);
    poison_dead_free(&p);
}

static void test_values_poison_dead(const void *data)
{
    in_subprocess_data(data, run_poison_dead);
}

/* The same one instruction too early: vecadd's check fails. */
static void test_values_poison_too_early(void)
{
    if (g_test_subprocess()) {
        rig r;
        rig_build(&r, 1, "vecadd", NULL);
        poison_dead p;
        poison_dead_init(&p, &r, true);
        wexec_add_value_hook(sm_topo_wexec(r.sm[0]), "poison-too-early", poison_dead_hook, &p);
        cli_elaborate(r.run);
        g_assert_cmpint(tb_machine_run(r.m, r.k, &r.o), ==, TB_EXIT_RUN);
        poison_dead_free(&p);
        return;
    }
    g_test_trap_subprocess(NULL, 0, 0);
    g_test_trap_assert_passed();
    g_test_trap_assert_stderr("*workload vecadd*differ*");
}

/* ---- the register access chain: a hook bound to regfile's `access` import through sm_topo_regfile ---- */
static rfaccess_verdict delay_reads(void *ctx, rfaccess_req *q, unsigned *delay)
{
    ++*(uint64_t *)ctx;
    if (q->write)
        return RFACCESS_ALLOW;
    *delay = 1;
    return RFACCESS_DELAY;
}
static const rfaccess_hook_if delay_hook = {"wakeup", delay_reads};

static void run_register_access(void)
{
    rig r;
    rig_build(&r, 1, "hotspot", NULL);
    regfile *rf = sm_topo_regfile(r.sm[0], 0);
    g_assert_null(sm_topo_regfile(r.sm[0], 1));
    uint64_t calls = 0;
    blk_bind_stub(rf->inst, "access", &delay_hook, &calls);
    rig_run(&r); /* every read one cycle later: the output is still right */
    uint64_t reads = blk_stat_get(rf->inst, REGFILE_STAT_BANK_READS);
    uint64_t writes = blk_stat_get(rf->inst, REGFILE_STAT_BANK_WRITES);
    g_assert_cmpuint(reads, >, 0);
    g_assert_cmpuint(blk_stat_get(rf->inst, REGFILE_STAT_RF_DEFERRED), ==, reads); /* each read once */
    /* a read runs the chain when requested and again when its delay is served (for its translation) */
    g_assert_cmpuint(calls, ==, 2 * reads + writes);
    const rfaccess_chain *ch = regfile_access_chain(rf);
    g_assert_cmpuint(rfaccess_chain_len(ch), ==, 1);
    g_assert_cmpuint(rfaccess_chain_stats(ch, 0)->delays, ==, 2 * reads);
}

static void test_register_access(void)
{
    in_subprocess(run_register_access);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/sm/hooks/check_and_veto", test_check_and_veto);
    g_test_add_func("/sm/hooks/dispatch_pick", test_pick);
    g_test_add_func("/sm/hooks/dispatch_alloc", test_alloc);
    g_test_add_func("/sm/hooks/l1_evict_hook", test_evict_hook);
    g_test_add_func("/sm/hooks/l1_access", test_access_hook);
    g_test_add_func("/sm/hooks/register_access", test_register_access);
    g_test_add_func("/sm/hooks/values/counts", test_values_counts);
    g_test_add_func("/sm/hooks/values/quiet", test_values_quiet);
    g_test_add_func("/sm/hooks/values/poison_live", test_values_poison_live);
    g_test_add_func("/sm/hooks/values/poison_too_early", test_values_poison_too_early);
    for (unsigned i = 0; i < workload_count(); i++) {
        const char *name = workload_get(i)->name;
        char *a = g_strdup_printf("/sm/hooks/values/shadow/%s", name);
        char *b = g_strdup_printf("/sm/hooks/values/poison_dead/%s", name);
        g_test_add_data_func(a, name, test_values_shadow);
        g_test_add_data_func(b, name, test_values_poison_dead);
        g_free(a), g_free(b);
    }
    return g_test_run();
}
