/* spu_iu_code.c — an SPU interface unit running IU code; see spu_iu_code.h. */
#include "models/spu/spu_iu_code.h"

#include <string.h>

#include "kernels/frontend/ptx_parse.h"
#include "kernels/frontend/spu_isa.h"
#include "kernels/run/kload.h"
#include "kernels/run/warp_step.h"
#include "models/mem_types.h"
#include "models/spu/spu_cb.h"

struct spu_iu_prog {
    ir_module *mod;
    kload_module *k;
    ws_prog *prog;
};

/* a global load in flight: its lanes read the image at `ready` (UINT64_MAX on the interconnect path
 * until its `left` requests are answered; then its registers `in` writes are ready) */
typedef struct {
    ws_load pl;
    uint64_t ready, seq;
    unsigned left;
    uint32_t func;
    const ir_instr *in;
} code_load;

/* one run of an entry: the unit's role in one pass (the runtime sets its registers per pass) */
typedef struct {
    uint32_t entry;
    uint8_t *kparam;
    uint32_t sregs[10];
} code_seg;

/* the interconnect path: a request waiting for the unit's port; `load` the code_load's seq (0: a
 * store) */
typedef struct {
    mem_req_t q;
    uint64_t load;
} code_send;

typedef struct spu_iu_code {
    const spu_iu_prog *p;
    ws_launch L;
    ws_warp w;
    ws_cta cta;
    GArray *segs; /* code_seg, run in order; seg: the current one */
    unsigned seg;
    bool seg_done; /* in role mode: the current run has ended, the next role starts the next one */
    uint32_t sregs[10];
    GArray *sendq;     /* code_send (icnt path) */
    uint64_t *id_load; /* per request id: the load it answers (0: a store) */
    uint64_t last_send, wait_since;
    uint64_t poll_at;   /* the issue of the guard word's last read (UINT64_MAX: none since a transfer) */
    bool cb_write;      /* a loader writes its CB, a storer reads it */
    uint64_t *ready;    /* per register row: the cycle its value is ready (the scoreboard) */
    GArray *loads;      /* code_load */
    uint64_t load_seq;  /* the last code_load's seq */
    uint64_t port_free; /* the memory port sends its next request from this cycle */
    uint64_t seq;
    unsigned alu_latency;
    GString *err;
    char where[96];
} spu_iu_code;

/* ---- the program and the subset ------------------------------------------------------------------ */

spu_iu_prog *spu_iu_prog_load(const char *path, fmem *mem, GString *err)
{
    GError *ge = NULL;
    ir_module *m = ptx_parse_file(path, &ge);
    if (!m) {
        g_string_append(err, ge->message);
        g_error_free(ge);
        return NULL;
    }
    kload_module *k = kload_module_new(m, mem, err);
    if (!k) {
        ir_module_free(m);
        return NULL;
    }
    spu_iu_prog *p = g_new0(spu_iu_prog, 1);
    p->mod = m;
    p->k = k;
    p->prog = ws_prog_new(m, true);
    return p;
}

void spu_iu_prog_free(spu_iu_prog *p)
{
    if (!p)
        return;
    ws_prog_free(p->prog);
    kload_module_free(p->k);
    ir_module_free(p->mod);
    g_free(p);
}

/* The CB a unit on `side` has: toward its SM (a north unit's is south of it, ...). */
static unsigned cb_dir_of(unsigned side)
{
    static const unsigned d[] = {[SPU_DIR_NORTH] = SPU_DIR_SOUTH,
                                 [SPU_DIR_WEST] = SPU_DIR_EAST,
                                 [SPU_DIR_SOUTH] = SPU_DIR_NORTH,
                                 [SPU_DIR_EAST] = SPU_DIR_WEST};
    return d[side];
}

/* NULL if `in` is in the subset of a unit on `side` syncing as sync_dir, else why not. */
static const char *subset_why(const ir_instr *in, unsigned side, unsigned sync_dir)
{
    switch (in->op) {
    case IR_OP_BLOCKSYNC:
        if (in->sub == sync_dir)
            return NULL;
        return sync_dir ? "this interface unit synchronises only with its SM (bar.blocksync toward it)"
                        : "under the global blocksync the interface unit executes bar.blocksync without "
                          "a direction";
    case IR_OP_BRA:
    case IR_OP_EXIT:
    case IR_OP_RET:
        return NULL;
    case IR_OP_CALL:
        return "calls are not in the subset";
    case IR_OP_CVTA:
        return "address-space conversion: the interface unit addresses .global memory and its CB only";
    default:
        break;
    }
    switch (ir_instr_class(in)) {
    case IR_CLASS_ALU:
    case IR_CLASS_INT:
        if (ir_type_is_float((ir_type)in->type) ||
            (in->op == IR_OP_CVT && ir_type_is_float((ir_type)in->type2)))
            return "floating-point arithmetic: the interface unit has no floating-point unit";
        return NULL;
    case IR_CLASS_SFU:
        return "the interface unit has no special function unit";
    case IR_CLASS_DP:
        return "the interface unit has no floating-point unit";
    case IR_CLASS_MEM:
        if (in->op != IR_OP_LD && in->op != IR_OP_ST)
            return "only ld and st: no atomics, reductions or prefetches";
        if (in->cb)
            return (in->cb & 0xfu) == cb_dir_of(side) ? NULL
                                                      : "the interface unit has only the CB toward its SM";
        switch (in->space) {
        case IR_SPACE_GLOBAL:
            return NULL;
        case IR_SPACE_CONST:
        case IR_SPACE_PARAM:
            return in->op == IR_OP_LD ? NULL : "stores go to .global memory or the CB";
        case IR_SPACE_SHARED:
            return "the interface unit has no shared memory";
        case IR_SPACE_LOCAL:
            return "the interface unit has no local memory";
        case IR_SPACE_NONE:
            return "generic addressing: the interface unit addresses .global memory and its CB only";
        default:
            return "the interface unit has no texture or surface path";
        }
    case IR_CLASS_SYNC:
        return "bar.sync, membar and fence are not in the subset (one warp; bar.blocksync only)";
    case IR_CLASS_WARP:
        return "warp-level operations are not in the subset";
    default:
        return "not in the subset";
    }
}

int spu_iu_prog_check(const spu_iu_prog *p, const char *entry, unsigned side, unsigned sync_dir, GString *err)
{
    const ir_func *f = ir_module_find_func(p->mod, entry);
    if (!f || !f->is_entry) {
        g_string_append_printf(err, "%s: no entry %s in the interface-unit code", p->mod->filename, entry);
        return 1;
    }
    for (unsigned i = 0; i < f->instrs->len; i++) {
        const ir_instr *in = &g_array_index(f->instrs, ir_instr, i);
        const char *why = subset_why(in, side, sync_dir);
        if (!why)
            continue;
        GString *t = g_string_new(NULL);
        ir_print_instr(t, p->mod, f, in);
        g_string_append_printf(err,
                               "%s:%u: `%s`: not in the interface unit's instruction subset (integer "
                               "arithmetic, branches, .global/.param/.const and CB loads and stores, "
                               "bar.blocksync): %s",
                               p->mod->filename, in->line, t->str, why);
        g_string_free(t, TRUE);
        return 1;
    }
    return 0;
}

/* ---- the engine's hooks -------------------------------------------------------------------------- */

static void hook_load(void *ctx, ws_warp *w, const ws_load *pl)
{
    spu_iu *u = ctx;
    (void)w;
    code_load cl = {.pl = *pl, .ready = 0};
    g_array_append_val(u->code->loads, cl);
}

static fmem_seg hook_cb(void *ctx, unsigned dir)
{
    spu_iu *u = ctx;
    (void)dir; /* checked before the run: the unit's own CB */
    uint64_t bytes = 0;
    uint8_t *h = ((const spu_cb_if *)u->cb_m)->peek(u->cb_self, u->code->cb_write, &bytes);
    return (fmem_seg){.data = h, .size = bytes};
}

static const uint32_t *hook_sregs(void *ctx)
{
    return ((spu_iu *)ctx)->code->sregs;
}

static const ws_ops code_ops = {.load_deferred = hook_load, .cb = hook_cb, .spu_sregs = hook_sregs};

/* The segment's entry, parameters and registers become the warp's (a fresh warp at the entry). */
static void seg_start(spu_iu_code *c, unsigned i)
{
    const code_seg *sg = &g_array_index(c->segs, code_seg, i);
    c->seg = i;
    memcpy(c->sregs, sg->sregs, sizeof c->sregs);
    c->cta.ctaid[0] = sg->sregs[IR_SREG_REGIUID - IR_SREG_REGPASSX];
    c->L.sreg.ctaid[0] = c->cta.ctaid[0];
    c->L.entry = sg->entry;
    c->L.kparam = (fmem_seg){.data = sg->kparam, .size = c->p->k->funcs[sg->entry].kparam_bytes};
    if (i)
        simt_release(&c->w.st);
    simt_init(&c->w.st, sg->entry, 0, UINT32_MAX);
    ws_launch_reset_cache(&c->L);
}

static spu_iu_code *code_new(spu_iu *u, const spu_iu_prog *p)
{
    const kload_module *k = p->k;
    spu_iu_code *c = g_new0(spu_iu_code, 1);
    c->p = p;
    c->segs = g_array_new(FALSE, TRUE, sizeof(code_seg));
    c->ready = g_new0(uint64_t, (uint64_t)k->total_rows + 1);
    c->loads = g_array_new(FALSE, FALSE, sizeof(code_load));
    c->sendq = g_array_new(FALSE, FALSE, sizeof(code_send));
    c->id_load = g_new0(uint64_t, u->max_out + 1);
    c->last_send = UINT64_MAX;
    c->wait_since = UINT64_MAX;
    c->poll_at = UINT64_MAX;
    c->alu_latency = (unsigned)blk_param_uint(u->inst, "code_alu_latency");
    c->err = g_string_new(NULL);
    g_snprintf(c->where, sizeof c->where, "on %s", u->inst->path);
    c->w.regs = g_new0(uint64_t, k->warp_words + 1);
    c->w.local = g_malloc0(IR_WARP_SIZE * k->local_bytes + 1);
    c->w.cparam = g_malloc0(IR_WARP_SIZE * k->cparam_bytes + 1);
    c->w.cta = &c->cta;
    c->cta.nwarps = 1;
    c->L = (ws_launch){.prog = p->prog,
                       .mod = p->mod,
                       .k = k,
                       .mem = u->mem,
                       .block = {IR_WARP_SIZE, 1, 1},
                       .err = c->err,
                       .where = c->where,
                       .ops = &code_ops,
                       .ctx = u,
                       .blocksync_bar = WS_N_BARRIERS - 1};
    c->L.sreg = (frun_sreg_ctx){.block = {IR_WARP_SIZE, 1, 1},
                                .grid = {1, 1, 1},
                                .nwarps = 1,
                                .warp_size = IR_WARP_SIZE,
                                .nwarpid = 1,
                                .nsmid = 1};
    return c;
}

int spu_iu_set_code(spu_iu *u, const spu_iu_prog *p, const char *entry, const wl_arg *args, unsigned n_args,
                    const uint32_t sregs[10], unsigned side, unsigned sync_dir, GString *err)
{
    uint32_t e = kload_find_entry(p->k, entry);
    if (e == IR_NONE) {
        g_string_append_printf(err, "%s: no entry %s in the interface-unit code", p->mod->filename, entry);
        return 1;
    }
    g_assert(!u->code || (u->code->p == p && u->sync_dir == sync_dir));
    code_seg sg = {.entry = e, .kparam = g_malloc0(p->k->funcs[e].kparam_bytes + 1)};
    if (kload_pack_params(p->k, e, args, n_args, sg.kparam, err)) {
        g_free(sg.kparam);
        return 1;
    }
    memcpy(sg.sregs, sregs, sizeof sg.sregs);
    if (!u->code) {
        u->code = code_new(u, p);
        u->code->cb_write = side == SPU_DIR_NORTH || side == SPU_DIR_WEST;
    }
    g_array_append_val(u->code->segs, sg);
    if (u->code->segs->len == 1)
        seg_start(u->code, 0);
    u->sync_dir = sync_dir;
    u->state = u->roles ? SPU_IU_DONE : SPU_IU_MOVING; /* in role mode the runtime starts each run */
    return 0;
}

unsigned spu_iu_prog_n_funcs(const spu_iu_prog *p)
{
    return p->mod->funcs->len;
}

bool spu_iu_code_run_at(const spu_iu *u, unsigned n, const char **entry, const uint8_t **kparam,
                        uint32_t *kparam_bytes, const uint32_t **sregs)
{
    const spu_iu_code *c = u->code;
    if (!c || n >= c->segs->len)
        return false;
    const code_seg *sg = &g_array_index(c->segs, code_seg, n);
    *entry = ((const ir_func *)g_ptr_array_index(c->p->mod->funcs, sg->entry))->name;
    *kparam = sg->kparam;
    *kparam_bytes = (uint32_t)c->p->k->funcs[sg->entry].kparam_bytes;
    *sregs = sg->sregs;
    return true;
}

void spu_iu_code_start_role(spu_iu *u)
{
    spu_iu_code *c = u->code;
    if (!c->seg_done)
        return; /* the first role runs the first entry, started already */
    g_assert(c->seg + 1 < c->segs->len);
    c->seg_done = false;
    seg_start(c, c->seg + 1);
}

void spu_iu_code_free(spu_iu *u)
{
    spu_iu_code *c = u->code;
    if (!c)
        return;
    simt_release(&c->w.st);
    g_free(c->w.regs);
    g_free(c->w.local);
    g_free(c->w.cparam);
    for (unsigned i = 0; i < c->segs->len; i++)
        g_free(g_array_index(c->segs, code_seg, i).kparam);
    g_array_free(c->segs, TRUE);
    g_array_free(c->sendq, TRUE);
    g_free(c->id_load);
    g_free(c->ready);
    g_array_free(c->loads, TRUE);
    g_string_free(c->err, TRUE);
    g_free(c);
    u->code = NULL;
}

/* ---- timing -------------------------------------------------------------------------------------- */

#define ROW(c, func, reg) ((c)->p->k->funcs[func].rows[reg])

/* The cycle every register `in` reads or writes is ready (the scoreboard). */
static uint64_t regs_ready(const spu_iu_code *c, uint32_t func, const ir_instr *in)
{
    uint64_t t = 0;
    if (in->guard != IR_NONE)
        t = MAX(t, c->ready[ROW(c, func, in->guard)]);
    for (unsigned side = 0; side < 2; side++) {
        const ir_operand *ops = side ? in->dst : in->src;
        unsigned n = side ? in->n_dst : in->n_src;
        for (unsigned i = 0; i < n; i++) {
            const ir_operand *o = &ops[i];
            if (o->kind == IR_OPND_REG)
                t = MAX(t, c->ready[ROW(c, func, o->u.reg)]);
            else if (o->kind == IR_OPND_MEM && o->u.mem.base_reg != IR_NONE)
                t = MAX(t, c->ready[ROW(c, func, o->u.mem.base_reg)]);
            else if (o->kind == IR_OPND_VEC)
                for (unsigned v = 0; v < o->comp; v++)
                    if (o->u.vec_regs[v] != IR_NONE)
                        t = MAX(t, c->ready[ROW(c, func, o->u.vec_regs[v])]);
        }
    }
    return t;
}

/* The registers `in` writes are ready at `at`. */
static void regs_written(spu_iu_code *c, uint32_t func, const ir_instr *in, uint64_t at)
{
    for (unsigned i = 0; i < in->n_dst; i++) {
        const ir_operand *o = &in->dst[i];
        if (o->kind == IR_OPND_REG)
            c->ready[ROW(c, func, o->u.reg)] = at;
        else if (o->kind == IR_OPND_VEC)
            for (unsigned v = 0; v < o->comp; v++)
                if (o->u.vec_regs[v] != IR_NONE)
                    c->ready[ROW(c, func, o->u.vec_regs[v])] = at;
    }
}

/* The 32-byte requests of a warp access: the distinct 32-byte segments its lanes touch. */
static unsigned requests(const ws_info *info, uint32_t lanes)
{
    uint64_t seg[2 * IR_WARP_SIZE];
    unsigned n = 0;
    for (uint32_t m = lanes; m; m &= m - 1) {
        unsigned l = (unsigned)__builtin_ctz(m);
        uint64_t first = info->addr[l] / 32, last = (info->addr[l] + info->bytes - 1) / 32;
        for (uint64_t s = first; s <= last; s++) {
            bool seen = false;
            for (unsigned i = 0; i < n && !seen; i++)
                seen = seg[i] == s;
            if (!seen && n < G_N_ELEMENTS(seg))
                seg[n++] = s;
        }
    }
    return n;
}

/* Loads whose data has returned read the image into the registers; the earliest still in flight. */
static uint64_t apply_loads(spu_iu_code *c, uint64_t now)
{
    uint64_t next = UINT64_MAX;
    for (unsigned i = 0; i < c->loads->len;) {
        code_load *cl = &g_array_index(c->loads, code_load, i);
        if (cl->ready <= now) {
            ws_load_apply(&cl->pl, c->w.regs);
            g_array_remove_index_fast(c->loads, i);
        } else {
            next = MIN(next, cl->ready);
            i++;
        }
    }
    return next;
}

void spu_iu_code_release(spu_iu *u)
{
    g_assert(u->state == SPU_IU_WAITING);
    u->state = SPU_IU_MOVING;
    u->resume_at = gsc_cycle() + 1; /* the release's swap takes effect next cycle */
    u->round++;
    gsc_event_notify(u->ev, 1);
}

/* ---- the interconnect path (icnt_path) ---------------------------------------------------------- */

/* The requests of a global warp access: one per line its lanes touch, a store's with its bytes and
 * mask, queued for the port; returns how many. */
static unsigned icnt_queue(spu_iu *u, const ws_info *info, bool store, uint64_t load)
{
    spu_iu_code *c = u->code;
    unsigned first = c->sendq->len;
    for (uint32_t m = info->active; m; m &= m - 1) {
        unsigned l = (unsigned)__builtin_ctz(m);
        uint64_t line = info->addr[l] - info->addr[l] % u->line_bytes;
        unsigned off = (unsigned)(info->addr[l] - line), i = first;
        if (off + info->bytes > u->line_bytes)
            gsc_fatal("%s: a %u-byte access at 0x%" G_GINT64_MODIFIER "x crosses a %u-byte line",
                      u->inst->path, info->bytes, info->addr[l], u->line_bytes);
        while (i < c->sendq->len && g_array_index(c->sendq, code_send, i).q.addr != line)
            i++;
        if (i == c->sendq->len) {
            code_send cs = {.load = load};
            memset(&cs.q, 0, offsetof(mem_req_t, data));
            cs.q.addr = line;
            cs.q.bytes = u->line_bytes;
            cs.q.src = (uint16_t)u->node;
            cs.q.kind = store ? MEM_WRITE : MEM_READ;
            g_array_append_val(c->sendq, cs);
        }
        mem_req_t *q = &g_array_index(c->sendq, code_send, i).q;
        if (store) {
            memcpy(q->data + off, info->store_data[l], info->bytes);
            mem_req_mask_bytes(q, off, info->bytes);
        }
    }
    return c->sendq->len - first;
}

/* The port sends the next queued request (one per cycle, while the unit has an id free and the
 * interconnect room); true if one is left to send next cycle. */
static bool icnt_send(spu_iu *u, uint64_t now)
{
    spu_iu_code *c = u->code;
    if (!c->sendq->len || c->last_send == now || !u->n_free)
        return false;
    if (u->sm_role && !u->sm_port->can_send(u->sm_port_self))
        return true; /* an SM's full miss queue: look again next cycle */
    if (u->sm_role || gsc_fifo_can_put(u->req_f)) {
        code_send *cs = &g_array_index(c->sendq, code_send, 0);
        c->id_load[spu_iu_send(u, &cs->q)] = cs->load;
        c->last_send = now;
        g_array_remove_index(c->sendq, 0);
        return c->sendq->len != 0;
    }
    return false; /* nothing to send, or a reply or room wakes the unit */
}

/* A reply: a load whose requests are all answered reads the image now (its registers ready). */
void spu_iu_code_reply(spu_iu *u, const mem_resp_t *r)
{
    spu_iu_code *c = u->code;
    uint64_t now = gsc_cycle();
    unsigned id = spu_iu_reply_id(u, r); /* (free for the next request; its load read here) */
    for (unsigned i = 0; c->id_load[id] && i < c->loads->len; i++) {
        code_load *cl = &g_array_index(c->loads, code_load, i);
        if (cl->seq == c->id_load[id] && !--cl->left) {
            cl->ready = now;
            regs_written(c, cl->func, cl->in, now);
        }
    }
}

static void icnt_replies(spu_iu *u)
{
    mem_resp_t r;
    while (gsc_fifo_can_get(u->resp_f)) {
        gsc_fifo_get(u->resp_f, &r);
        spu_iu_code_reply(u, &r);
    }
}

/* ---- the unit's step ----------------------------------------------------------------------------- */

/* A memory instruction issued: its requests (ideal path: the port busy for them; icnt: queued), its
 * element counts (not the guard's counter words, ld/st.volatile: synchronisation), its data. */
static void issue_mem(spu_iu *u, uint32_t func, const ir_instr *in, const ws_info *info, uint64_t now)
{
    spu_iu_code *c = u->code;
    unsigned elems = (unsigned)__builtin_popcount(info->active) * info->bytes / 4;
    bool load = info->mem_kind == WS_MEM_LOAD, sync = (in->flags & IR_F_VOLATILE) != 0;
    if (in->cb) {
        unsigned n = requests(info, info->active);
        c->port_free = now + n;
        for (unsigned i = 0; i < n; i++) { /* the CB counts its accesses and the words */
            uint64_t b;
            ((const spu_cb_if *)u->cb_m)
                ->half(u->cb_self, c->cb_write, elems * (i + 1) / n - elems * i / n, &b);
        }
        blk_stat_add(u->inst, SPU_IU_STAT_REQUESTS, n);
        regs_written(c, func, in, now + n);
        return;
    }
    if (info->space != IR_SPACE_GLOBAL) { /* .param, .const: the constant cache */
        for (unsigned i = 0; i < c->loads->len; i++)
            if (g_array_index(c->loads, code_load, i).ready == 0)
                g_array_index(c->loads, code_load, i).ready = now + 1;
        regs_written(c, func, in, now + 1);
        return;
    }
    if (!load)
        for (uint32_t m = info->store_defer; m; m &= m - 1) {
            unsigned l = (unsigned)__builtin_ctz(m);
            if (!fmem_write(u->mem, info->addr[l], info->store_data[l], info->bytes))
                gsc_fatal("%s: invalid global store at 0x%" G_GINT64_MODIFIER "x", u->inst->path,
                          info->addr[l]);
        }
    if (!sync) { /* a VIU (%regviu, the runtime's role this pass) spills and restores */
        bool viu = c->sregs[IR_SREG_REGVIU - IR_SREG_REGPASSX] != 0;
        blk_stat_add(u->inst,
                     viu ? (load ? SPU_IU_STAT_RESTORES : SPU_IU_STAT_SPILLS)
                         : (load ? SPU_IU_STAT_LOADS : SPU_IU_STAT_STORES),
                     elems);
        c->poll_at = UINT64_MAX;
        u->guard_waiting = false;
    } else if (load) { /* the guard's word read again: the cycles since the last read stalled, and
                        * the unit waits on its guard (as the planned unit: the watchdog sees it) */
        if (c->poll_at != UINT64_MAX) {
            blk_stat_add(u->inst, SPU_IU_STAT_GUARD, now - c->poll_at);
            if (!u->guard_waiting && u->on_block)
                gsc_event_notify(u->on_block, 1);
            u->guard_waiting = true;
        }
        c->poll_at = now;
    }
    if (u->icnt) {
        uint64_t seq = load ? ++c->load_seq : 0;
        unsigned n = icnt_queue(u, info, !load, seq);
        for (unsigned i = 0; load && i < c->loads->len; i++) {
            code_load *cl = &g_array_index(c->loads, code_load, i);
            if (cl->ready == 0)
                *cl = (code_load){
                    .pl = cl->pl, .ready = UINT64_MAX, .seq = seq, .left = n, .func = func, .in = in};
        }
        if (load)
            regs_written(c, func, in, UINT64_MAX); /* until the replies */
        return;
    }
    unsigned n = requests(info, info->active);
    c->port_free = now + n;
    if (load) {
        uint64_t at = MAX(now + n - 1 + u->mem_latency, now + 1);
        for (unsigned i = 0; i < c->loads->len; i++)
            if (g_array_index(c->loads, code_load, i).ready == 0)
                g_array_index(c->loads, code_load, i).ready = at;
        regs_written(c, func, in, at);
    }
}

/* One cycle of the unit: 0 to wait for an event (a release, a reply, room), else the cycles to the
 * next look. */
static uint64_t code_step(spu_iu *u, uint64_t now)
{
    spu_iu_code *c = u->code;
    uint64_t next_load = apply_loads(c, now);
    if (u->state != SPU_IU_MOVING || now < u->resume_at)
        return 0;
    bool mem_busy = u->icnt && (u->outstanding || c->sendq->len);
    if (simt_done(&c->w.st)) { /* exited: its last loads (and requests) in, the next role or leave */
        if (c->loads->len || mem_busy)
            return next_load != UINT64_MAX ? next_load - now : 0;
        if (u->roles) { /* the role ends with its run: idle until the runtime starts the next */
            u->state = SPU_IU_DONE;
            c->seg_done = true;
            u->round = u->role_end;
            if (u->sync_dir)
                u->bs->leave(u->bs_self, u->unit);
            u->role_done(u->role_ctx, u);
            return 0;
        }
        if (c->seg + 1 < c->segs->len) {
            seg_start(c, c->seg + 1);
            return 1;
        }
        u->state = SPU_IU_DONE;
        u->bs->leave(u->bs_self, u->unit);
        return 0;
    }
    const simt_entry *top = simt_top(&c->w.st);
    uint32_t func = top->func;
    const ir_func *f = g_ptr_array_index(c->p->mod->funcs, func);
    const ir_instr *in = top->pc < f->instrs->len ? &g_array_index(f->instrs, ir_instr, top->pc) : NULL;
    if (in) {
        uint64_t ready = regs_ready(c, func, in);
        bool mem = ir_instr_class(in) == IR_CLASS_MEM && (in->cb || in->space == IR_SPACE_GLOBAL);
        if (mem)
            ready = MAX(ready, c->port_free);
        /* icnt: a global access waits for the port's queue, a blocksync for every answer */
        bool port = mem && !in->cb && u->icnt && c->sendq->len;
        if (ready == UINT64_MAX || port || (in->op == IR_OP_BLOCKSYNC && mem_busy)) {
            if (c->wait_since == UINT64_MAX) /* a reply (or the port) is awaited */
                c->wait_since = now;
            return 0;
        }
        if (ready > now)
            return ready - now;
    }
    if (c->wait_since != UINT64_MAX) {
        blk_stat_add(u->inst, SPU_IU_STAT_MEM_WAIT, now - c->wait_since);
        c->wait_since = UINT64_MAX;
    }
    ws_info info;
    if (ws_step(&c->L, &c->w, ++c->seq, &info))
        gsc_fatal("%s", c->err->str);
    blk_stat_add(u->inst, SPU_IU_STAT_INSTRS, 1);
    blk_stat_add(u->inst, SPU_IU_STAT_BUSY, 1);
    if (info.kind == WS_MEM && info.active)
        issue_mem(u, func, in, &info, now);
    else if (info.kind == WS_BAR && info.blocksync) {
        u->state = SPU_IU_WAITING;
        blk_stat_add(u->inst, SPU_IU_STAT_ROUNDS, 1);
        u->bs->arrive(u->bs_self, u->unit, 0, info.blocksync - 1u);
        return 0;
    } else if (in)
        regs_written(c, func, in, now + c->alu_latency);
    return 1;
}

void spu_iu_code_run(spu_iu *u)
{
    uint64_t now = gsc_cycle();
    bool more = false;
    if (u->icnt) {
        if (!u->sm_role) /* an SM's role gets its replies through the SM's port */
            icnt_replies(u);
        more = icnt_send(u, now);
    }
    uint64_t d = code_step(u, now);
    if (u->icnt && !more) /* the step may have queued requests: the first goes out now */
        more = icnt_send(u, now);
    if (more)
        d = d ? MIN(d, 1) : 1;
    if (d)
        gsc_run_within(d);
}
