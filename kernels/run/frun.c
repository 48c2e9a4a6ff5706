/* frun.c — the functional runner (see frun.h): CTAs, the warps' schedule, barriers and the race
 * check; each warp's instructions run on the warp-step engine (warp_step.h). */
#include "kernels/run/frun.h"

#include "kernels/run/launch_cli.h"
#include "kernels/run/simt.h"
#include "kernels/run/warp_step.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#define FULL_MASK  0xffffffffu
#define N_BARRIERS WS_N_BARRIERS

typedef struct {
    wl_device dev; /* first: the wl_device handed out */
    ir_module *mod;
    fmem *mem;
    kload_module *k;
    ws_prog *prog;
    frun_stats stats;
    uint64_t max_instr;
    uint32_t gridid;
    unsigned quantum;    /* warp instructions per turn */
    uint32_t sched_seed; /* 0: CTAs in order, warps round-robin; else shuffled (frun_device_set_schedule) */
    bool race_check;     /* frun_device_set_race_check */
    FILE *trace;         /* frun_device_set_trace */
    uint64_t max_shared; /* shared bytes per CTA (frun_device_set_max_shared) */
    uint32_t nwarpid;    /* what %nwarpid reads (frun_device_set_nwarpid) */
} frun_dev;

/* ---- per-launch state ---------------------------------------------------------------------- */
enum { W_READY, W_BAR, W_DONE };

typedef struct {
    ws_warp w;      /* first: the engine's warp (registers, SIMT stack, memory) */
    uint32_t valid; /* lanes that exist */
    uint8_t state;
    uint8_t bar_id, bar_kind;
    uint32_t bar_dst; /* bar.red destination register slot, IR_NONE */
    uint32_t bar_mask;
} fwarp;

typedef struct {
    uint32_t warps, threads, expected;
    uint32_t popc;
    bool all, any;
} fbar;

typedef struct {
    ws_launch ws; /* first: the engine's launch (its ctx is this) */
    frun_dev *d;
    const wl_launch *l;
    uint32_t entry;
    const ir_func *kf;
    uint8_t *kparam;
    uint64_t kparam_size;
    ws_cta cta; /* the running CTA: its block index and shared memory */
    uint32_t nthreads, nwarps, live;
    fwarp *warps;
    fbar bar[N_BARRIERS];
    uint64_t local_bytes, cparam_bytes;
    GString *err;
    ws_info info; /* what the engine says about a barrier arrival */
    GRand *rng;   /* shuffled schedule, or NULL */
    /* The shared-memory race check: per 4-byte word of shared memory, who touched it in the current
     * barrier interval (epoch). */
    struct race_word *race;
    uint32_t epoch;
    uint32_t *order; /* warp visiting order of a pass */
} flaunch;

/* One word of shared memory in the race check. */
struct race_word {
    uint32_t epoch;   /* barrier interval of the records below */
    uint32_t readers; /* warps that read it in that interval */
    uint32_t wpc;     /* the writer's pc */
    uint16_t writer;  /* warp + 1 that wrote it in that interval, 0: none */
    uint16_t pad;
};

static void dump_state(flaunch *L)
{
    static const char *const states[] = {"ready", "at barrier", "done"};
    const uint32_t *c = L->cta.ctaid;
    g_string_append_printf(L->err, "\nstate of block (%u,%u,%u), %u warps:\n", c[0], c[1], c[2], L->nwarps);
    for (uint32_t i = 0; i < L->nwarps; i++) {
        const fwarp *w = &L->warps[i];
        g_string_append_printf(L->err, "  warp %u: %s", i, states[w->state]);
        if (w->state == W_BAR)
            g_string_append_printf(L->err, " %u", w->bar_id);
        g_string_append_printf(L->err, ", exited lanes 0x%08x", w->w.st.exited);
        if (!simt_done(&w->w.st)) {
            /* Where it stands: the instruction before the top entry's pc is what it last executed
             * (the barrier, for a blocked warp). */
            const simt_entry *t = simt_top(&w->w.st);
            const ir_func *f = g_ptr_array_index(L->d->mod->funcs, t->func);
            uint32_t at = w->state == W_BAR && t->pc > 0 ? t->pc - 1 : t->pc;
            if (at < ir_func_n_instrs(f)) {
                const ir_instr *in = ir_func_instr(f, at);
                g_string_append_printf(L->err, ", at pc %u (line %u `", at, in->line);
                ir_print_instr(L->err, L->d->mod, f, in);
                g_string_append(L->err, "`)");
            }
        }
        g_string_append_c(L->err, '\n');
        simt_dump(&w->w.st, L->err, "    ");
    }
    for (unsigned b = 0; b < N_BARRIERS; b++)
        if (L->bar[b].warps)
            g_string_append_printf(
                L->err, "  barrier %u: %u warps (%u threads) arrived, %u warps not finished%s\n", b,
                L->bar[b].warps, L->bar[b].threads, L->live, L->bar[b].expected ? " (count given)" : "");
}

uint64_t frun_sreg_value(const frun_sreg_ctx *c, ir_sreg sreg, unsigned comp, uint32_t lane)
{
    unsigned k = comp < 3 ? comp : 0;
    switch (sreg) {
    case IR_SREG_TID: {
        uint32_t lt = c->warp * (c->warp_size ? c->warp_size : IR_WARP_SIZE) + lane;
        uint32_t t[3] = {lt % c->block[0], lt / c->block[0] % c->block[1], lt / (c->block[0] * c->block[1])};
        return t[k];
    }
    case IR_SREG_NTID:
        return c->block[k];
    case IR_SREG_CTAID:
        return c->ctaid[k];
    case IR_SREG_NCTAID:
        return c->grid[k];
    case IR_SREG_LANEID:
        return lane;
    case IR_SREG_WARPID:
        return c->warp;
    case IR_SREG_NWARPID:
        return c->nwarpid ? c->nwarpid : FRUN_DEFAULT_NWARPID;
    case IR_SREG_SMID:
        return c->smid;
    case IR_SREG_NSMID:
        return c->nsmid;
    case IR_SREG_GRIDID:
        return c->gridid;
    case IR_SREG_CLOCK:
        return (uint32_t)c->clock;
    case IR_SREG_CLOCK64:
    case IR_SREG_GLOBALTIMER:
        return c->clock;
    case IR_SREG_LANEMASK_EQ:
        return UINT32_C(1) << lane;
    case IR_SREG_LANEMASK_LE:
        return (uint32_t)((UINT64_C(2) << lane) - 1);
    case IR_SREG_LANEMASK_LT:
        return (UINT32_C(1) << lane) - 1;
    case IR_SREG_LANEMASK_GE:
        return ~((UINT32_C(1) << lane) - 1);
    case IR_SREG_LANEMASK_GT:
        return (uint32_t) ~((UINT64_C(2) << lane) - 1);
    case IR_SREG_DYN_SMEM_SIZE:
        return c->dyn_smem;
    case IR_SREG_TOTAL_SMEM_SIZE:
        return c->total_smem;
    case IR_SREG_REGPASSX:
    case IR_SREG_REGPASSY:
    case IR_SREG_REGCPASSX:
    case IR_SREG_REGCPASSY:
    case IR_SREG_REGSPILLNB:
    case IR_SREG_REGCSPILLNB:
    case IR_SREG_REGVIU:
    case IR_SREG_REGIUDIR:
    case IR_SREG_REGIUID:
    case IR_SREG_REGLAST:
        return c->spu ? c->spu[sreg - IR_SREG_REGPASSX] : 0;
    case IR_SREG_COUNT:
        break;
    }
    return 0;
}

/* The race check: an access by warp w (not an atomic) to shared bytes [off, off+len). Two warps
 * touching one word in one barrier interval, at least one of them writing, is a race (accesses of
 * one warp are ordered; atomics are exempt). Returns nonzero after reporting it. */
static G_GNUC_NO_INLINE int race_note(flaunch *L, ws_warp *w, uint32_t func, uint32_t pc, uint32_t lane,
                                      uint64_t off, uint64_t len, bool write)
{
    for (uint64_t i = off / 4; i <= (off + len - 1) / 4; i++) {
        struct race_word *r = &L->race[i];
        if (r->epoch != L->epoch)
            *r = (struct race_word){.epoch = L->epoch};
        uint32_t me = UINT32_C(1) << w->id;
        if (r->writer && r->writer != w->id + 1)
            return ws_fail(&L->ws, w, func, pc, (int)lane,
                           "shared-memory race: %s of shared address 0x%" G_GINT64_MODIFIER
                           "x, which warp %u wrote at pc %u with no barrier in between",
                           write ? "store" : "load", i * 4, r->writer - 1u, r->wpc);
        if (write && (r->readers & ~me))
            return ws_fail(&L->ws, w, func, pc, (int)lane,
                           "shared-memory race: store to shared address 0x%" G_GINT64_MODIFIER
                           "x, which warp %u read with no barrier in between",
                           i * 4, (unsigned)__builtin_ctz(r->readers & ~me));
        if (write) {
            r->writer = (uint16_t)(w->id + 1);
            r->wpc = pc;
        } else {
            r->readers |= me;
        }
    }
    return 0;
}

/* The race check for a host pointer that may be in shared memory (ws_ops.race). */
static int race_check(void *ctx, ws_warp *w, uint32_t func, uint32_t pc, uint32_t lane, const uint8_t *p,
                      uint64_t len, bool write)
{
    flaunch *L = ctx;
    if (p < L->cta.shared.data || p >= L->cta.shared.data + L->cta.shared.size)
        return 0;
    return race_note(L, w, func, pc, lane, (uint64_t)(p - L->cta.shared.data), len, write);
}

static const ws_ops frun_ws_ops = {.race = race_check};

/* ---- barriers ------------------------------------------------------------------------------- */
static void bar_release(flaunch *L, unsigned id)
{
    fbar *b = &L->bar[id];
    L->epoch++; /* a new barrier interval for the race check */
    for (uint32_t i = 0; i < L->nwarps; i++) {
        fwarp *w = &L->warps[i];
        if (w->state != W_BAR || w->bar_id != id)
            continue;
        w->state = W_READY;
        if (w->bar_dst != IR_NONE) {
            uint64_t r = w->bar_kind == IR_BAR_RED_POPC  ? b->popc
                         : w->bar_kind == IR_BAR_RED_AND ? b->all
                                                         : b->any;
            uint32_t m = w->bar_mask;
            while (m) {
                unsigned l = (unsigned)__builtin_ctz(m);
                m &= m - 1;
                kload_reg_set(w->w.regs, L->d->k->slot_at[w->bar_dst], l, r);
            }
            w->bar_dst = IR_NONE;
        }
    }
    *b = (fbar){0};
}

static void bar_try_release(flaunch *L, unsigned id)
{
    const fbar *b = &L->bar[id];
    if (b->warps == 0)
        return;
    if (b->expected ? b->threads >= b->expected : b->warps >= L->live)
        bar_release(L, id);
}

/* Warp w arrived at a barrier (the engine checked the instruction and gave its id, count and
 * bar.red's predicate in `a`). */
static void bar_arrive(flaunch *L, fwarp *w, const ws_info *a)
{
    fbar *b = &L->bar[a->bar_id];
    bool red =
        a->bar_kind == IR_BAR_RED_POPC || a->bar_kind == IR_BAR_RED_AND || a->bar_kind == IR_BAR_RED_OR;
    if (b->warps == 0) {
        b->all = true;
        b->any = false;
    }
    if (red) {
        b->popc += (uint32_t)__builtin_popcount(a->bar_pred);
        b->all = b->all && a->bar_pred == a->active;
        b->any = b->any || a->bar_pred != 0;
    }
    b->warps++;
    b->threads += (uint32_t)__builtin_popcount(w->valid);
    if (a->bar_count)
        b->expected = a->bar_count;
    if (a->bar_wait) {
        w->state = W_BAR;
        w->bar_id = (uint8_t)a->bar_id;
        w->bar_kind = a->bar_kind;
        w->bar_mask = a->active;
        w->bar_dst = a->bar_dst == WS_NO_REG ? IR_NONE : a->bar_dst;
    }
    bar_try_release(L, a->bar_id);
}

/* ---- the warp loop -------------------------------------------------------------------------- */
static void warp_finish(flaunch *L, fwarp *w)
{
    w->state = W_DONE;
    L->live--;
    for (unsigned b = 0; b < N_BARRIERS; b++)
        bar_try_release(L, b);
}

/* A turn of warp w: up to `quantum` instructions on the engine, barriers arrived at on the way. */
static int warp_run(flaunch *L, fwarp *w, unsigned quantum)
{
    for (;;) {
        switch (ws_run(&L->ws, &w->w, &quantum, &L->info)) {
        case WS_STOP_TURN:
            return 0;
        case WS_STOP_DONE:
            warp_finish(L, w);
            return 0;
        case WS_STOP_BAR:
            bar_arrive(L, w, &L->info);
            if (w->state == W_BAR)
                return 0;
            break;
        case WS_STOP_LIMIT:
            dump_state(L);
            return 1;
        case WS_STOP_ERROR:
            return 1;
        }
    }
}

static double thread_cpu_seconds(void)
{
    struct timespec ts;
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0)
        return 0;
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Run one CTA to completion. */
static int cta_run(flaunch *L)
{
    const kload_module *k = L->d->k;
    uint64_t regs_per_warp = k->warp_words;
    memset(L->warps[0].w.regs, 0, L->nwarps * regs_per_warp * sizeof(uint64_t));
    if (L->local_bytes)
        memset(L->warps[0].w.local, 0, L->nwarps * IR_WARP_SIZE * L->local_bytes);
    if (L->cparam_bytes)
        memset(L->warps[0].w.cparam, 0, L->nwarps * IR_WARP_SIZE * L->cparam_bytes);
    if (L->cta.shared.size)
        memset(L->cta.shared.data, 0, L->cta.shared.size);
    memset(L->bar, 0, sizeof L->bar);
    if (L->race) {
        memset(L->race, 0, (L->cta.shared.size + 3) / 4 * sizeof *L->race);
        L->epoch = 1;
    }
    for (uint32_t i = 0; i < L->nwarps; i++) {
        fwarp *w = &L->warps[i];
        uint32_t left = L->nthreads - i * IR_WARP_SIZE;
        w->valid = left >= IR_WARP_SIZE ? FULL_MASK : (UINT32_C(1) << left) - 1;
        w->state = W_READY;
        w->w.cc = 0;
        w->bar_dst = IR_NONE;
        simt_init(&w->w.st, L->entry, 0, w->valid);
    }
    L->live = L->nwarps;
    unsigned quantum = L->d->quantum;
    for (uint32_t i = 0; i < L->nwarps; i++)
        L->order[i] = i;
    for (;;) {
        bool progress = false;
        if (L->rng) /* a random visiting order and turn length for every pass */
            for (uint32_t i = L->nwarps; i > 1; i--) {
                uint32_t j = (uint32_t)g_rand_int_range(L->rng, 0, (gint32)i), t = L->order[i - 1];
                L->order[i - 1] = L->order[j], L->order[j] = t;
            }
        for (uint32_t i = 0; i < L->nwarps; i++) {
            fwarp *w = &L->warps[L->order[i]];
            if (w->state != W_READY)
                continue;
            progress = true;
            unsigned q = L->rng ? (unsigned)g_rand_int_range(L->rng, 1, (gint32)quantum + 1) : quantum;
            if (warp_run(L, w, q))
                return 1;
        }
        if (L->live == 0)
            return 0;
        if (!progress) {
            g_string_append_printf(L->err,
                                   "kernel %s: barrier deadlock in block (%u,%u,%u): every unfinished warp "
                                   "waits at a barrier that cannot complete",
                                   L->kf->name, L->cta.ctaid[0], L->cta.ctaid[1], L->cta.ctaid[2]);
            dump_state(L);
            return 1;
        }
    }
}

/* Zeroed per-launch storage (at least one byte), or NULL with a message in L->err. */
static void *launch_alloc(flaunch *L, uint64_t bytes, const char *what)
{
    void *p = bytes < G_MAXSIZE ? g_try_malloc0(bytes ? bytes : 1) : NULL;
    if (!p)
        g_string_append_printf(L->err, "%s: kernel %s: cannot allocate %" G_GUINT64_FORMAT " bytes of %s",
                               L->d->mod->filename, L->kf->name, bytes, what);
    return p;
}

int frun_launch(wl_device *dev, const wl_launch *l, GString *err)
{
    frun_dev *d = (frun_dev *)dev;
    uint32_t entry;
    if (launch_cli_check(d->k, d->mod, l, &entry, err))
        return 1;
    const kload_module *k = d->k;
    const kload_func *kf = &k->funcs[entry];
    uint64_t shared = launch_cli_shared_bytes(k, entry, l->shared_bytes);
    if (shared > d->max_shared) {
        g_string_append_printf(
            err,
            "%s: kernel %s: a CTA needs %" G_GUINT64_FORMAT " bytes of shared memory (%" G_GUINT64_FORMAT
            " static + %u dynamic) but the functional runner allows %" G_GUINT64_FORMAT
            " per CTA (gpusc-run --max-shared)",
            d->mod->filename, l->entry, shared, kf->shared_static, l->shared_bytes, d->max_shared);
        return 1;
    }
    flaunch L = {.d = d, .l = l, .entry = entry, .kf = g_ptr_array_index(d->mod->funcs, entry), .err = err};
    L.kparam_size = kf->kparam_bytes;
    L.kparam = g_malloc0(L.kparam_size ? L.kparam_size : 1);
    GString *perr = g_string_new(NULL);
    if (kload_pack_params(k, entry, l->args, l->n_args, L.kparam, perr)) {
        if (g_str_has_prefix(perr->str, "kernel "))
            g_string_append(err, perr->str);
        else
            g_string_append_printf(err, "kernel %s: %s", l->entry, perr->str);
        g_string_free(perr, TRUE);
        g_free(L.kparam);
        return 1;
    }
    g_string_free(perr, TRUE);
    L.nthreads = l->block[0] * l->block[1] * l->block[2];
    L.nwarps = (L.nthreads + IR_WARP_SIZE - 1) / IR_WARP_SIZE;
    L.local_bytes = k->local_bytes;
    L.cparam_bytes = k->cparam_bytes;
    L.warps = g_new0(fwarp, L.nwarps);
    uint64_t regs_per_warp = k->warp_words;
    /* The sizes are bounded (launch_cli_check, the shared limit above, at most 1024 threads) but may
     * still be more than the host can give: a clear error then, not an abort. */
    uint64_t *regs = NULL;
    uint8_t *local = NULL, *cparam = NULL;
    L.cta.shared = (fmem_seg){.data = launch_alloc(&L, shared, "shared memory for a CTA"), .size = shared};
    if (L.cta.shared.data)
        regs = launch_alloc(&L, L.nwarps * regs_per_warp * sizeof(uint64_t), "registers for a CTA");
    if (regs)
        local = launch_alloc(&L, L.nwarps * IR_WARP_SIZE * L.local_bytes, "local memory for a CTA");
    if (local)
        cparam =
            launch_alloc(&L, L.nwarps * IR_WARP_SIZE * L.cparam_bytes, "call-parameter memory for a CTA");
    if (!cparam) {
        g_free(L.cta.shared.data);
        g_free(regs);
        g_free(local);
        g_free(cparam);
        g_free(L.warps);
        g_free(L.kparam);
        return 1;
    }
    for (uint32_t i = 0; i < L.nwarps; i++) {
        ws_warp *w = &L.warps[i].w;
        w->id = i;
        w->regs = regs + i * regs_per_warp;
        w->local = local + i * IR_WARP_SIZE * L.local_bytes;
        w->cparam = cparam + i * IR_WARP_SIZE * L.cparam_bytes;
        w->cta = &L.cta;
    }
    L.cta.nwarps = L.nwarps;
    ws_launch *ws = &L.ws;
    ws->prog = d->prog;
    ws->mod = d->mod;
    ws->k = k;
    ws->mem = d->mem;
    ws->entry = entry;
    ws->kparam = (fmem_seg){.data = L.kparam, .size = L.kparam_size};
    ws->err = err;
    ws->ops = &frun_ws_ops;
    ws->ctx = &L;
    ws->stats = &d->stats;
    ws->budget = d->max_instr;
    ws->trace = d->trace;
    ws_launch_reset_cache(ws);
    ws->sreg = (frun_sreg_ctx){
        .nwarpid = d->nwarpid, .smid = 0, .nsmid = 1, .gridid = d->gridid, .dyn_smem = l->shared_bytes};
    for (unsigned i = 0; i < 3; i++) {
        ws->block[i] = ws->sreg.block[i] = l->block[i];
        ws->sreg.grid[i] = l->grid[i];
    }
    gint64 t0 = g_get_monotonic_time();
    double c0 = thread_cpu_seconds();
    int rc = 0;
    uint64_t n_ctas = (uint64_t)l->grid[0] * l->grid[1] * l->grid[2];
    uint64_t *perm = NULL;
    L.order = g_new(uint32_t, L.nwarps);
    if (d->race_check && L.cta.shared.size)
        L.race = g_new0(struct race_word, (L.cta.shared.size + 3) / 4);
    ws->race = L.race != NULL;
    if (d->sched_seed) {
        /* Reproducible per (seed, launch number); CTAs in a random order too. */
        L.rng = g_rand_new_with_seed(d->sched_seed + 0x9e3779b9u * (uint32_t)d->stats.launches);
        perm = g_new(uint64_t, n_ctas);
        for (uint64_t i = 0; i < n_ctas; i++)
            perm[i] = i;
        for (uint64_t i = n_ctas; i > 1; i--) {
            uint64_t j = (uint64_t)(g_rand_double(L.rng) * (double)i), t = perm[i - 1];
            j = j < i ? j : i - 1;
            perm[i - 1] = perm[j], perm[j] = t;
        }
    }
    for (uint64_t c = 0; c < n_ctas && !rc; c++) {
        uint64_t lin = perm ? perm[c] : c;
        L.cta.ctaid[0] = (uint32_t)(lin % l->grid[0]);
        L.cta.ctaid[1] = (uint32_t)(lin / l->grid[0] % l->grid[1]);
        L.cta.ctaid[2] = (uint32_t)(lin / ((uint64_t)l->grid[0] * l->grid[1]));
        rc = cta_run(&L);
        d->stats.ctas++;
    }
    g_free(perm);
    g_free(L.order);
    g_free(L.race);
    if (L.rng)
        g_rand_free(L.rng);
    d->stats.seconds += (double)(g_get_monotonic_time() - t0) / 1e6;
    d->stats.cpu_seconds += thread_cpu_seconds() - c0;
    d->stats.launches++;
    d->gridid++;
    for (uint32_t i = 0; i < L.nwarps; i++)
        simt_release(&L.warps[i].w.st);
    g_free(L.warps);
    g_free(regs);
    g_free(local);
    g_free(cparam);
    g_free(L.cta.shared.data);
    g_free(L.kparam);
    return rc;
}

/* ---- the wl_device -------------------------------------------------------------------------- */
static uint64_t dev_alloc(wl_device *dev, size_t bytes)
{
    return fmem_alloc(((frun_dev *)dev)->mem, bytes);
}

static int dev_write(wl_device *dev, uint64_t addr, const void *src, size_t bytes, GString *err)
{
    frun_dev *d = (frun_dev *)dev;
    if (fmem_write(d->mem, addr, src, bytes))
        return 0;
    g_string_append_printf(err, "device write of %zu bytes: ", bytes);
    fmem_describe_fault(d->mem, addr, bytes, false, err);
    return 1;
}

static int dev_read(wl_device *dev, uint64_t addr, void *dst, size_t bytes, GString *err)
{
    frun_dev *d = (frun_dev *)dev;
    if (fmem_read(d->mem, addr, dst, bytes))
        return 0;
    g_string_append_printf(err, "device read of %zu bytes: ", bytes);
    fmem_describe_fault(d->mem, addr, bytes, false, err);
    return 1;
}

static const wl_device_ops frun_ops = {
    .alloc = dev_alloc,
    .write = dev_write,
    .read = dev_read,
    .launch = frun_launch,
};

wl_device *frun_device_new(ir_module *m, GString *err)
{
    frun_dev *d = g_new0(frun_dev, 1);
    d->dev.ops = &frun_ops;
    d->dev.impl = d;
    d->mod = m;
    d->mem = fmem_new();
    d->max_instr = FRUN_DEFAULT_MAX_INSTRUCTIONS;
    d->quantum = FRUN_QUANTUM;
    d->max_shared = FRUN_DEFAULT_MAX_SHARED;
    d->nwarpid = FRUN_DEFAULT_NWARPID;
    d->k = kload_module_new(m, d->mem, err);
    if (!d->k) {
        fmem_free(d->mem);
        g_free(d);
        return NULL;
    }
    d->prog = ws_prog_new(m, false);
    return &d->dev;
}

void frun_device_free(wl_device *dev)
{
    frun_dev *d = (frun_dev *)dev;
    if (!d)
        return;
    ws_prog_free(d->prog);
    kload_module_free(d->k);
    fmem_free(d->mem);
    g_free(d);
}

void frun_device_set_max_instructions(wl_device *dev, uint64_t max)
{
    ((frun_dev *)dev)->max_instr = max ? max : FRUN_DEFAULT_MAX_INSTRUCTIONS;
}

void frun_device_set_schedule(wl_device *dev, unsigned quantum, uint32_t seed)
{
    frun_dev *d = (frun_dev *)dev;
    d->quantum = quantum ? quantum : FRUN_QUANTUM;
    d->sched_seed = seed;
}

void frun_device_set_trace(wl_device *dev, FILE *out)
{
    ((frun_dev *)dev)->trace = out;
}

void frun_device_set_max_shared(wl_device *dev, uint64_t bytes)
{
    ((frun_dev *)dev)->max_shared =
        bytes ? MIN(bytes, (uint64_t)LAUNCH_MAX_SHARED_PER_CTA) : FRUN_DEFAULT_MAX_SHARED;
}

void frun_device_set_nwarpid(wl_device *dev, uint32_t n)
{
    ((frun_dev *)dev)->nwarpid = n ? MAX(n, 1024u / IR_WARP_SIZE) : FRUN_DEFAULT_NWARPID;
}

void frun_device_set_race_check(wl_device *dev, bool on)
{
    ((frun_dev *)dev)->race_check = on;
}

const frun_stats *frun_device_stats(const wl_device *dev)
{
    return &((const frun_dev *)dev)->stats;
}

fmem *frun_device_mem(wl_device *dev)
{
    return ((frun_dev *)dev)->mem;
}

const kload_module *frun_device_module(const wl_device *dev)
{
    return ((const frun_dev *)dev)->k;
}
