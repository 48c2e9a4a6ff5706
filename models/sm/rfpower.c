/* rfpower.c — see rfpower.h. */
#include "models/sm/rfpower.h"

#include <string.h>

#include "kernels/passes/greener.h"
#include "kernels/analysis/regalloc.h"
#include "models/lib/regval.h"
#include "models/lib/wmask.h"
#include "models/sm/fetch.h"
#include "models/sm/issue.h"
#include "models/sm/ldst.h"
#include "models/sm/regfile.h"

#define RP_MAX_REGS   256 /* registers per warp tracked (a thread has at most 255) */
#define RP_INSTR_REGS 20  /* 32-bit registers of one instruction */
#define RP_LUT_MAX    64  /* lookup-table storage per warp (lut_entries at most this) */

enum { RP_CHECK, RP_ISSUED, RP_ACCESS, RP_VALUE, RP_DECODE, RP_MEM };
enum { ST_OFF = GREENER_OFF, ST_SLEEP = GREENER_SLEEP, ST_ON = GREENER_ON };

typedef struct {
    uint8_t n;
    greener_reg r[RP_INSTR_REGS];
} rp_instr;

/* One lookup-table entry: an instruction of the warp from its decode to its last register access. */
typedef struct {
    uint64_t seq; /* issue sequence number (issued) */
    uint32_t func, pc;
    uint16_t epoch; /* fetch epoch at decode: a flushed (stale) entry is dropped */
    bool issued;
    const rp_instr *ins;
    uint32_t pend_read, pend_write; /* bits over ins->r: accesses still to come */
} rp_lut;

typedef struct {
    unsigned n_alloc; /* registers allocated to the warp (0: none) */
    unsigned n_lut;
    /* Entries that left the table in cycle freed_at (an access, issue): decode sees them leave only
     * in the next cycle, whichever of its process and theirs runs first in the cycle. */
    unsigned n_freed;
    uint64_t freed_at;
    rp_lut lut[RP_LUT_MAX];
} rp_warp;

/* A change of the registers' states made in some cycle by a process other than the reader's: it
 * takes effect at the end of that cycle (applied at the first call of a later cycle, in a fixed
 * order), so that what issue, fetch, the banks and ldst see in a cycle does not depend on which of
 * them ran first. */
enum { OP_ACCESS, OP_MEM, OP_ON };
typedef struct {
    uint64_t cycle, seq; /* seq UINT64_MAX: a bank access that names no instruction */
    uint16_t warp, phys; /* OP_ON, OP_ACCESS: the register */
    uint8_t kind, write;
} rp_op;

struct rfpower {
    blk_call_probe *probe[RP_MEM + 1]; /* the exports' traced calls, by port (blk_export_probes) */
    blk_inst *inst;
    sm_env *env;
    unsigned warps, units, mode;
    unsigned lut_entries;  /* per warp; 0: no decode stall (storage RP_LUT_MAX, oldest dropped) */
    unsigned storage_regs; /* R of the added-storage figures */
    unsigned wake_sleep, wake_off;
    bool lut_on, poison, unalloc_off, dst_no_wait;
    uint8_t alloc_state;
    int64_t debug_off_pc;
    uint8_t *st;    /* warps x RP_MAX_REGS: ST_* */
    uint8_t *lost;  /* the value was lost (OFF since its last write) */
    uint64_t *wake; /* wake-up done at this cycle (0: none sent) */
    rp_warp *w;
    uint64_t n_st[3]; /* register-file entries in each state (allocated or not) */
    uint64_t last;    /* cycle up to which leakage is integrated */
    GArray *ops;      /* rp_op: changes of the current cycle (and earlier ones not applied yet) */
    /* decode: per launch, per static instruction */
    uint32_t kernel_no;
    GHashTable *decoded; /* (func << 32 | pc) -> rp_instr */
    uint32_t *slot_phys; /* per register slot: first 32-bit physical register (UINT32_MAX: none) */
    uint8_t *slot_units;
    unsigned n_slot;
};

static const char *const modes[] = {"baseline", "sleep_reg", "greener", NULL};
static const char *const states[] = {"off", "sleep", "on", NULL};

static const blk_port_desc ports[] = {
    [RP_DECODE] = {"decode", GSC_IN, NULL, BLK_CHAN_EXPORT, NULL,
                   "bound to fetch.gate: decode inserts into the warp's lookup table, stalls when it is full",
                   &decode_gate_iface},
    [RP_MEM] = {"mem", GSC_IN, NULL, BLK_CHAN_EXPORT, NULL,
                "bound to ldst.regs: a memory instruction's sources' states when ldst reads them, its "
                "destinations' at write-back",
                &ldst_regs_iface},
    [RP_CHECK] = {"check", GSC_IN, NULL, BLK_CHAN_EXPORT, NULL,
                  "bound to issue.check: a warp issues only when its head's registers are ON (wake-up)",
                  &issue_check_iface},
    [RP_ISSUED] = {"issued", GSC_IN, NULL, BLK_CHAN_EXPORT, NULL,
                   "bound to issue.issued: the encoded states into the warp's lookup table",
                   &instr_issued_iface},
    [RP_ACCESS] =
        {"access", GSC_IN, NULL, BLK_CHAN_EXPORT, NULL,
         "bound to regfile.access: a source's state after its read, a destination's after write-back",
         &rfaccess_iface},
    [RP_VALUE] = {"value", GSC_IN, NULL, BLK_CHAN_EXPORT, NULL,
                  "bound to issue.value: an OFF register's value is lost (poisoned), allocation and free",
                  &regval_iface},
};

static const blk_param_desc params[] = {
    {"mode", BLK_PARAM_ENUM, "greener", NULL, NULL, modes, "",
     "baseline (all ON), sleep_reg (SLEEP after every access) or greener (the pass's encoding)"},
    {"wake_sleep_cycles", BLK_PARAM_UINT, "1", "0", "64", NULL, "cycles", "wake-up SLEEP->ON [S: 1]"},
    {"wake_off_cycles", BLK_PARAM_UINT, "2", "0", "64", NULL, "cycles", "wake-up OFF->ON [S: 2]"},
    {"runtime_lut", BLK_PARAM_BOOL, "true", NULL, NULL, NULL, "",
     "the run-time lookup table keeps a register ON that another in-flight instruction uses [S] "
     "(false: Comp-OPT, compiler only)"},
    {"lut_entries", BLK_PARAM_UINT, "2", "0", "64", NULL, "entries",
     "lookup-table entries per warp: an instruction holds one from decode to its last register access; "
     "decode stalls while the table is full [A: the spec's w = 2] (0: no stall, up to 64 kept, the "
     "oldest dropped: lut_overflows)"},
    {"storage_regs", BLK_PARAM_UINT, "64", "2", "256", NULL, "registers",
     "registers per thread in the added-storage figures (register numbers of ceil(log2) bits) [S: the "
     "source's storage formulas take 64]; reported, not simulated"},
    {"poison_off", BLK_PARAM_BOOL, "true", NULL, NULL, NULL, "",
     "a register turned OFF loses its value: a read before the next write reads REGVAL_POISON [A]"},
    {"unalloc_off", BLK_PARAM_BOOL, "true", NULL, NULL, NULL, "", "unallocated registers are OFF [A]"},
    {"alloc_state", BLK_PARAM_ENUM, "off", NULL, NULL, states, "",
     "state of a register when its warp starts (greener; sleep_reg: sleep) [A]"},
    {"dst_off_no_wait", BLK_PARAM_BOOL, "false", NULL, NULL, NULL, "",
     "a destination about to be overwritten needs no OFF->ON wait [A: the source waits]"},
    {"trace_regs", BLK_PARAM_STRING, "", NULL, NULL, NULL, "",
     "registers whose state the VCD shows, a glob over w<warp>_r<register> (w0_r*: warp 0's)"},
    {"debug_off_pc", BLK_PARAM_INT, "-1", "-1", NULL, NULL, "pc",
     "a deliberately wrong encoding (tests): every register the entry's instruction at this pc reads "
     "turns OFF after the read (-1: none)"},
    {"p_leak_on", BLK_PARAM_DOUBLE, "0.0875", "0", NULL, NULL, "mW",
     "leakage of one warp-register (128 B) ON [D: a 4 KB bank's 2.8 mW / 32, 40 nm CACTI 5.3]"},
    {"p_leak_sleep", BLK_PARAM_DOUBLE, "0.0306", "0", NULL, NULL, "mW",
     "leakage of one warp-register in SLEEP (drowsy, SRAM_vccmin) [A: 0.35 x ON]"},
    {"p_leak_off", BLK_PARAM_DOUBLE, "0.0044", "0", NULL, NULL, "mW",
     "leakage of one warp-register OFF (power-gated) [A: 0.05 x ON]"},
    {"e_sleep_on", BLK_PARAM_DOUBLE, "37.3", "0", NULL, NULL, "pJ",
     "energy of one SLEEP<->ON transition, each direction [S: Table 4.4, 22 nm, CACTI-P]"},
    {"e_off_on", BLK_PARAM_DOUBLE, "117.74", "0", NULL, NULL, "pJ",
     "energy of one OFF<->ON transition, each direction [S: Table 4.4, 22 nm, CACTI-P]"},
};

static const blk_stat_desc stats[] = {
    [RFPOWER_STAT_CYCLES_ON] = {"reg_cycles_on", BLK_STAT_COUNTER, "register-cycles", "register-cycles ON",
                                NULL},
    [RFPOWER_STAT_CYCLES_SLEEP] = {"reg_cycles_sleep", BLK_STAT_COUNTER, "register-cycles",
                                   "register-cycles in SLEEP", NULL},
    [RFPOWER_STAT_CYCLES_OFF] = {"reg_cycles_off", BLK_STAT_COUNTER, "register-cycles", "register-cycles OFF",
                                 NULL},
    [RFPOWER_STAT_TRANS_SLEEP] = {"transitions_sleep", BLK_STAT_COUNTER, "transitions",
                                  "ON->SLEEP and SLEEP->ON", NULL},
    [RFPOWER_STAT_TRANS_OFF] = {"transitions_off", BLK_STAT_COUNTER, "transitions", "ON->OFF and OFF->ON",
                                NULL},
    [RFPOWER_STAT_WAKEUPS] = {"wakeups", BLK_STAT_COUNTER, "wake-ups", "wake-up signals sent", NULL},
    [RFPOWER_STAT_WAKEUP_STALLS] = {"wakeup_stalls", BLK_STAT_COUNTER, "warp-cycles",
                                    "a warp's head refused because a register was waking up", NULL},
    [RFPOWER_STAT_LUT_CANCELS] = {"lut_cancels", BLK_STAT_COUNTER, "transitions",
                                  "SLEEP/OFF kept ON: another in-flight instruction uses the register", NULL},
    [RFPOWER_STAT_POISONED_READS] = {"poisoned_reads", BLK_STAT_COUNTER, "reads",
                                     "reads of a register whose value was lost (OFF)", NULL},
    [RFPOWER_STAT_LATE_WAKEUPS] = {"late_wakeups", BLK_STAT_COUNTER, "accesses",
                                   "bank accesses that found the register not ON after issue (delayed)",
                                   NULL},
    [RFPOWER_STAT_LUT_OVERFLOWS] = {"lut_overflows", BLK_STAT_COUNTER, "entries",
                                    "lookup-table entries dropped (oldest) for room (lut_entries=0)", NULL},
    [RFPOWER_STAT_SUPERSEDED] = {"superseded", BLK_STAT_COUNTER, "accesses",
                                 "an older instruction's pending access whose state change was dropped: a "
                                 "newer instruction writes the same physical register",
                                 NULL},
    [RFPOWER_STAT_DECODE_STALLS] = {"decode_stalls", BLK_STAT_COUNTER, "warp-cycles",
                                    "a warp's decode refused: its lookup table was full", NULL},
};

static const blk_state_desc state[] = {
    {"w%u_r%u", 2, "state of register %u of warp %u: 2 ON, 1 SLEEP, 0 OFF (trace_regs selects them)"},
};

static const blk_energy_event energy_events[] = {
    {"sleep_on", "transitions_sleep", "e_sleep_on", BLK_COMP_RFP},
    {"off_on", "transitions_off", "e_off_on", BLK_COMP_RFP},
};
static const blk_energy_leak energy_leak[] = {
    {BLK_POWER_ON, "p_leak_on", "reg_cycles_on"},
    {BLK_POWER_SLEEP, "p_leak_sleep", "reg_cycles_sleep"},
    {BLK_POWER_OFF, "p_leak_off", "reg_cycles_off"},
};
static const blk_energy_desc energy = {energy_events, BLK_N(energy_events), energy_leak, BLK_N(energy_leak),
                                       NULL};

const blk_desc rfpower_desc = {
    "rfpower",
    "register power states (sleep transistors): ON/SLEEP/OFF per warp-register, wake-up, lookup table",
    "docs/greener.md",
    ports,
    BLK_N(ports),
    params,
    BLK_N(params),
    stats,
    BLK_N(stats),
    state,
    BLK_N(state),
    &energy,
};

/* ---- states and leakage ---- */

static void integrate(rfpower *p, uint64_t now)
{
    if (now <= p->last)
        return;
    uint64_t dt = now - p->last;
    blk_stat_add(p->inst, RFPOWER_STAT_CYCLES_ON, p->n_st[ST_ON] * dt);
    blk_stat_add(p->inst, RFPOWER_STAT_CYCLES_SLEEP, p->n_st[ST_SLEEP] * dt);
    blk_stat_add(p->inst, RFPOWER_STAT_CYCLES_OFF, p->n_st[ST_OFF] * dt);
    p->last = now;
}

/* Move one register between states (transition energy when `charge`). */
static void set_state(rfpower *p, unsigned idx, uint8_t to, uint64_t now, bool charge)
{
    uint8_t from = p->st[idx];
    if (from == to)
        return;
    integrate(p, now);
    p->n_st[from]--;
    p->n_st[to]++;
    p->st[idx] = to;
    if (charge)
        blk_stat_add(p->inst,
                     (from == ST_OFF || to == ST_OFF) ? RFPOWER_STAT_TRANS_OFF : RFPOWER_STAT_TRANS_SLEEP, 1);
    if (to == ST_OFF && p->poison)
        p->lost[idx] = 1;
}

/* ---- decode: the encoded states of a static instruction ---- */

static void new_launch(rfpower *p)
{
    if (p->decoded && p->kernel_no == p->env->launch.kernel_no)
        return;
    if (p->decoded)
        g_hash_table_remove_all(p->decoded);
    else
        p->decoded = g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free, g_free);
    p->kernel_no = p->env->launch.kernel_no;
    const kload_module *k = p->env->k;
    const ir_module *m = p->env->mod;
    g_free(p->slot_phys);
    g_free(p->slot_units);
    p->n_slot = k->total_regs + 1;
    p->slot_phys = g_new(uint32_t, p->n_slot);
    p->slot_units = g_new0(uint8_t, p->n_slot);
    memset(p->slot_phys, 0xff, p->n_slot * sizeof(uint32_t));
    for (guint fi = 0; fi < m->funcs->len; fi++) {
        const ir_func *f = g_ptr_array_index(m->funcs, fi);
        if (!f->is_defined || !f->regs)
            continue;
        for (guint r = 0; r < f->regs->len; r++) {
            const ir_reg *rg = &g_array_index(f->regs, ir_reg, r);
            uint32_t slot = k->funcs[fi].reg_base + r;
            unsigned u = regalloc_units((ir_type)rg->type);
            if (slot < p->n_slot && rg->phys != IR_NONE && u) {
                p->slot_phys[slot] = rg->phys;
                p->slot_units[slot] = (uint8_t)u;
            }
        }
    }
}

static const rp_instr *decode_instr(rfpower *p, uint32_t func, uint32_t pc)
{
    new_launch(p);
    gint64 key = ((gint64)func << 32) | pc;
    rp_instr *d = g_hash_table_lookup(p->decoded, &key);
    if (d)
        return d;
    d = g_new0(rp_instr, 1);
    const ir_func *f = g_ptr_array_index(p->env->mod->funcs, func);
    if (pc < ir_func_n_instrs(f)) {
        const ir_instr *in = ir_func_instr(f, pc);
        d->n = (uint8_t)greener_instr_regs(f, in, p->mode == RFPOWER_MODE_SLEEP_REG, d->r, RP_INSTR_REGS);
        if (p->debug_off_pc >= 0 && (int64_t)pc == p->debug_off_pc && func == p->env->launch.entry)
            for (unsigned i = 0; i < d->n; i++)
                if (d->r[i].after_read != GREENER_NONE)
                    d->r[i].after_read = GREENER_OFF;
    }
    gint64 *kk = g_new(gint64, 1);
    *kk = key;
    g_hash_table_insert(p->decoded, kk, d);
    return d;
}

/* ---- the run-time lookup table ---- */

static bool uses(const rp_instr *d, unsigned phys)
{
    for (unsigned i = 0; i < d->n; i++)
        if (d->r[i].phys == phys)
            return true;
    return false;
}

/* Another instruction (a different PC) in the warp's table (decoded, some register access still to
 * come) uses phys. */
static bool lut_hit(rfpower *p, unsigned warp, unsigned phys, uint32_t func, uint32_t pc)
{
    const rp_warp *w = &p->w[warp];
    for (unsigned i = 0; i < w->n_lut; i++)
        if ((w->lut[i].pc != pc || w->lut[i].func != func) && uses(w->lut[i].ins, phys))
            return true;
    return false;
}

/* After an access by (func, pc): phys takes `to` unless the table keeps it ON. */
static void after_access(rfpower *p, unsigned warp, unsigned phys, uint8_t to, uint32_t func, uint32_t pc,
                         uint64_t now)
{
    if (to == GREENER_NONE || phys >= p->w[warp].n_alloc)
        return;
    unsigned idx = warp * RP_MAX_REGS + phys;
    if (to != ST_ON && p->lut_on && lut_hit(p, warp, phys, func, pc)) {
        blk_stat_add(p->inst, RFPOWER_STAT_LUT_CANCELS, 1);
        to = ST_ON;
    }
    if (p->st[idx] != ST_ON && to != ST_ON)
        return; /* not ON (woken late or never): stays as it is */
    set_state(p, idx, to, now, true);
}

static void lut_remove(rp_warp *w, unsigned i)
{
    memmove(&w->lut[i], &w->lut[i + 1], (w->n_lut - i - 1) * sizeof w->lut[0]);
    w->n_lut--;
}

/* Entry i leaves the table in cycle now, its room for decode from the next cycle on. */
static void lut_free(rp_warp *w, unsigned i, uint64_t now)
{
    if (w->freed_at != now) {
        w->freed_at = now;
        w->n_freed = 0;
    }
    w->n_freed++;
    lut_remove(w, i);
}

/* A new entry at the end of the warp's table, every register access of the instruction to come
 * (full storage: the oldest entry is dropped). */
static unsigned lut_push(rfpower *p, unsigned warp, uint32_t func, uint32_t pc)
{
    rp_warp *w = &p->w[warp];
    if (w->n_lut == RP_LUT_MAX) {
        lut_remove(w, 0);
        blk_stat_add(p->inst, RFPOWER_STAT_LUT_OVERFLOWS, 1);
    }
    const rp_instr *d = decode_instr(p, func, pc);
    rp_lut *e = &w->lut[w->n_lut];
    *e = (rp_lut){.func = func, .pc = pc, .ins = d};
    for (unsigned i = 0; i < d->n; i++) {
        if (d->r[i].after_read != GREENER_NONE)
            e->pend_read |= 1u << i;
        if (d->r[i].after_write != GREENER_NONE)
            e->pend_write |= 1u << i;
    }
    return w->n_lut++;
}

/* The issued entry of instruction seq in the warp's table (-1: none). */
static int lut_find_seq(const rp_warp *w, uint64_t seq)
{
    for (unsigned i = 0; i < w->n_lut; i++)
        if (w->lut[i].issued && w->lut[i].seq == seq)
            return (int)i;
    return -1;
}

static bool in_list(const uint16_t *l, unsigned n, unsigned phys)
{
    for (unsigned i = 0; i < n; i++)
        if (l[i] == phys)
            return true;
    return false;
}

/* A register access found phys not ON (turned off by a same-PC instruction after this one issued):
 * it is woken now; returns the wake-up's cycles. */
static unsigned late_wake(rfpower *p, unsigned idx, uint64_t now)
{
    blk_stat_add(p->inst, RFPOWER_STAT_LATE_WAKEUPS, 1);
    unsigned d = p->st[idx] == ST_SLEEP ? p->wake_sleep : p->wake_off;
    set_state(p, idx, ST_ON, now, true);
    return d;
}

/* Entry i of the warp's table has read (write false) or written its registers of `mask` (bits over
 * its registers, pending ones only): each takes its state; the entry leaves the table after its
 * last access, before its own transitions (its PC's other in-flight instances stay). */
static void lut_accessed(rfpower *p, unsigned warp, unsigned i, bool write, uint32_t mask, uint64_t now)
{
    rp_warp *w = &p->w[warp];
    rp_lut e = w->lut[i];
    uint32_t *pend = write ? &w->lut[i].pend_write : &w->lut[i].pend_read;
    mask &= *pend;
    *pend &= ~mask;
    if (!w->lut[i].pend_read && !w->lut[i].pend_write)
        lut_free(w, i, now);
    for (unsigned j = 0; j < e.ins->n; j++) {
        if (!(mask >> j & 1))
            continue;
        const greener_reg *r = &e.ins->r[j];
        if (r->phys < w->n_alloc && p->st[warp * RP_MAX_REGS + r->phys] != ST_ON)
            late_wake(p, warp * RP_MAX_REGS + r->phys, now);
        after_access(p, warp, r->phys, write ? r->after_write : r->after_read, e.func, e.pc, now);
    }
}

/* ---- changes at the end of a cycle ---- */

static void queue_op(rfpower *p, uint8_t kind, unsigned warp, unsigned phys, uint64_t seq, bool write,
                     uint64_t cycle)
{
    rp_op o = {.cycle = cycle, .seq = seq, .warp = (uint16_t)warp, .phys = (uint16_t)phys, .kind = kind,
               .write = write};
    g_array_append_val(p->ops, o);
}

/* The order of a cycle's changes: accesses by instruction age (a read before a write), then the
 * wake-ups issue completed. */
static int op_cmp(const void *a, const void *b)
{
    const rp_op *x = a, *y = b;
    int kx = x->kind == OP_ON, ky = y->kind == OP_ON;
#define CMP(u, v)                                                                                            \
    if ((u) != (v))                                                                                          \
        return (u) < (v) ? -1 : 1;
    CMP(x->cycle, y->cycle)
    CMP(kx, ky)
    CMP(x->seq, y->seq)
    CMP(x->write, y->write)
    CMP(x->warp, y->warp)
    CMP(x->phys, y->phys)
    CMP(x->kind, y->kind)
#undef CMP
    return 0;
}

/* Table entry i's access of register phys (a read or a write), if it still has one to come: taken;
 * false if it has none. */
static bool lut_access_reg(rfpower *p, unsigned warp, unsigned i, const rp_op *o)
{
    const rp_lut *e = &p->w[warp].lut[i];
    uint32_t pend = o->write ? e->pend_write : e->pend_read;
    for (unsigned j = 0; j < e->ins->n; j++)
        if ((pend >> j & 1) && e->ins->r[j].phys == o->phys) {
            lut_accessed(p, warp, i, o->write, 1u << j, o->cycle);
            return true;
        }
    return false;
}

static void apply_access(rfpower *p, const rp_op *o)
{
    unsigned warp = o->warp, phys = o->phys;
    if (phys >= p->w[warp].n_alloc)
        return;
    rp_warp *w = &p->w[warp];
    unsigned idx = warp * RP_MAX_REGS + phys;
    if (p->st[idx] != ST_ON) /* (counted as a late wake-up at the access) */
        set_state(p, idx, ST_ON, o->cycle, true);
    if (o->seq != UINT64_MAX) { /* the access's own instruction, if it still has this access to come */
        int i = lut_find_seq(w, o->seq);
        if (i >= 0)
            lut_access_reg(p, warp, (unsigned)i, o);
        return;
    }
    /* unnamed: the oldest issued instruction with this access to come (one decoded only reads its
     * values at its issue) */
    for (unsigned i = 0; i < w->n_lut; i++)
        if (w->lut[i].issued && lut_access_reg(p, warp, i, o))
            return;
}

static void apply_op(rfpower *p, const rp_op *o)
{
    if (o->warp >= p->warps)
        return;
    switch (o->kind) {
    case OP_ACCESS:
        apply_access(p, o);
        break;
    case OP_MEM: {
        int i = lut_find_seq(&p->w[o->warp], o->seq);
        if (i >= 0)
            lut_accessed(p, o->warp, (unsigned)i, o->write, UINT32_MAX, o->cycle);
        break;
    }
    default: { /* OP_ON: a wake-up issue completed */
        unsigned idx = o->warp * RP_MAX_REGS + o->phys;
        if (o->phys < p->w[o->warp].n_alloc) {
            p->wake[idx] = 0;
            set_state(p, idx, ST_ON, o->cycle, true);
        }
        break;
    }
    }
}

static void settle_apply(rfpower *p, uint64_t now)
{
    rp_op *o = (rp_op *)(void *)p->ops->data;
    guint n = 0;
    while (n < p->ops->len && o[n].cycle < now)
        n++;
    if (!n)
        return;
    qsort(o, n, sizeof *o, op_cmp);
    for (guint i = 0; i < n; i++)
        apply_op(p, &o[i]);
    g_array_remove_range(p->ops, 0, n);
}

/* Applies the changes of the cycles before `now` (called first by every export). */
static inline void settle(rfpower *p, uint64_t now)
{
    if (G_LIKELY(!p->ops->len) || ((const rp_op *)(const void *)p->ops->data)[0].cycle >= now)
        return;
    settle_apply(p, now);
}

/* ---- the exports ---- */

/* issue.check: every register of the head ON, else wake-up. */
static bool rp_allow(void *self, unsigned warp, const decoded_t *h, uint64_t cycle)
{
    rfpower *p = self;
    blk_call_note(p->probe[RP_CHECK], warp, h->pc, 0);
    settle(p, cycle);
    unsigned n_alloc = p->w[warp].n_alloc;
    bool ok = true;
    for (unsigned k = 0; k < (unsigned)h->n_bank_src + h->n_bank_dst; k++) {
        bool dst = k >= h->n_bank_src;
        unsigned phys = dst ? h->bank_dst[k - h->n_bank_src] : h->bank_src[k];
        if (phys >= n_alloc)
            continue;
        unsigned idx = warp * RP_MAX_REGS + phys;
        uint8_t s = p->st[idx];
        if (s == ST_ON)
            continue;
        if (dst && s == ST_OFF && p->dst_no_wait) {
            queue_op(p, OP_ON, warp, phys, 0, false, cycle);
            continue;
        }
        if (!p->wake[idx]) {
            p->wake[idx] = cycle + (s == ST_SLEEP ? p->wake_sleep : p->wake_off);
            blk_stat_add(p->inst, RFPOWER_STAT_WAKEUPS, 1);
        }
        if (cycle >= p->wake[idx]) { /* ON at the end of the cycle: the instruction may issue */
            queue_op(p, OP_ON, warp, phys, 0, false, cycle);
        } else {
            ok = false;
        }
    }
    if (!ok)
        blk_stat_add(p->inst, RFPOWER_STAT_WAKEUP_STALLS, 1);
    return ok;
}

/* fetch.gate: room in the warp's table for one more decoded instruction (entries of an older
 * epoch that never issued were flushed from the I-buffer: they leave first). */
static bool rp_room(void *self, unsigned warp, uint16_t epoch, uint64_t cycle)
{
    rfpower *p = self;
    if (warp >= p->warps)
        return true;
    settle(p, cycle);
    rp_warp *w = &p->w[warp];
    for (unsigned i = 0; i < w->n_lut;)
        if (!w->lut[i].issued && w->lut[i].epoch != epoch)
            lut_remove(w, i);
        else
            i++;
    unsigned used = w->n_lut + (w->freed_at == cycle ? w->n_freed : 0);
    if (!p->lut_on || !p->lut_entries || used < p->lut_entries)
        return true;
    blk_stat_add(p->inst, RFPOWER_STAT_DECODE_STALLS, 1);
    return false;
}

/* room with its call noted: fetch asks every warp it considers, about 16 times a cycle, so the table
 * with the note is exported only when the trace selects decode.calls (blk_export_noted). */
static bool rp_room_noted(void *self, unsigned warp, uint16_t epoch, uint64_t cycle)
{
    blk_call_note(((rfpower *)self)->probe[RP_DECODE], 0, warp, 0);
    return rp_room(self, warp, epoch, cycle);
}

/* fetch.gate: decode inserts the instruction into the warp's table. */
static void rp_decoded(void *self, const decoded_t *d)
{
    rfpower *p = self;
    blk_call_note(p->probe[RP_DECODE], 1, d->warp, 0);
    if (d->warp >= p->warps || !p->w[d->warp].n_alloc)
        return;
    settle(p, d->fetch_cycle);
    unsigned i = lut_push(p, d->warp, d->func, d->pc);
    p->w[d->warp].lut[i].epoch = d->epoch;
}

/* issue.issued: the warp's oldest decoded entry of this PC is the instruction (in order: entries
 * decoded before it and not issued were flushed); not decoded through the gate: a new entry. An ALU
 * instruction's registers are accessed by the register banks (rp_access), only those its bank
 * lists name; a memory instruction's by ldst (rp_mem_read, rp_mem_written). */
static void rp_issued(void *self, const issued_t *it)
{
    rfpower *p = self;
    blk_call_note(p->probe[RP_ISSUED], it->warp, it->pc, 0);
    if (it->warp >= p->warps)
        return;
    settle(p, it->issue_cycle);
    rp_warp *w = &p->w[it->warp];
    unsigned i = 0;
    while (i < w->n_lut && (w->lut[i].issued || w->lut[i].func != it->func || w->lut[i].pc != it->pc))
        i++;
    if (i < w->n_lut) {
        for (unsigned j = 0; j < i;)
            if (!w->lut[j].issued) {
                lut_free(w, j, it->issue_cycle);
                i--;
            } else {
                j++;
            }
    } else {
        i = lut_push(p, it->warp, it->func, it->pc);
    }
    rp_lut *e = &w->lut[i];
    e->issued = true;
    e->seq = it->seq;
    if (it->cls != IR_CLASS_MEM)
        for (unsigned j = 0; j < e->ins->n; j++) {
            if (!in_list(it->bank_src, it->n_bank_src, e->ins->r[j].phys))
                e->pend_read &= ~(1u << j);
            if (!in_list(it->bank_dst, it->n_bank_dst, e->ins->r[j].phys))
                e->pend_write &= ~(1u << j);
        }
    /* A register it writes is a new value: an older instruction's access of the same physical
     * register still to come (the scoreboard orders register slots, and the allocator gives several
     * slots one physical register) must not change its state any more (an OFF would lose it). */
    for (unsigned j = 0; j < e->ins->n; j++) {
        if (e->ins->r[j].after_write == GREENER_NONE || !(e->pend_write >> j & 1))
            continue;
        for (unsigned k = 0; k < i;) {
            rp_lut *o = &w->lut[k];
            for (unsigned m = 0; m < o->ins->n; m++)
                if (o->ins->r[m].phys == e->ins->r[j].phys) {
                    o->pend_read &= ~(1u << m);
                    o->pend_write &= ~(1u << m);
                    blk_stat_add(p->inst, RFPOWER_STAT_SUPERSEDED, 1);
                }
            if (o->issued && !o->pend_read && !o->pend_write) {
                lut_free(w, k, it->issue_cycle);
                i--;
                e = &w->lut[i];
            } else {
                k++;
            }
        }
    }
    if (!e->pend_read && !e->pend_write)
        lut_free(w, i, it->issue_cycle);
}

/* regfile.access: a bank read (a source read) or write (a write-back) of the operand collectors. */
static rfaccess_verdict rp_access(void *self, rfaccess_req *q, unsigned *delay)
{
    rfpower *p = self;
    blk_call_note(p->probe[RP_ACCESS], q->write, q->warp, q->reg);
    unsigned warp = q->warp, phys = q->reg;
    if (warp >= p->warps || phys >= p->w[warp].n_alloc)
        return RFACCESS_ALLOW;
    settle(p, q->cycle);
    unsigned idx = warp * RP_MAX_REGS + phys;
    rfaccess_verdict v = RFACCESS_ALLOW;
    if (p->st[idx] != ST_ON) { /* woken now (at the end of the cycle), the read delayed */
        blk_stat_add(p->inst, RFPOWER_STAT_LATE_WAKEUPS, 1);
        unsigned d = p->st[idx] == ST_SLEEP ? p->wake_sleep : p->wake_off;
        if (!q->write && d) {
            *delay = d;
            v = RFACCESS_DELAY;
        }
    }
    queue_op(p, OP_ACCESS, warp, phys, q->has_instr ? q->seq : UINT64_MAX, q->write, q->cycle);
    return v;
}

/* ldst.regs: a memory instruction's address and data registers read as ldst takes it. */
static void rp_mem_read(void *self, const issued_t *it, uint64_t cycle)
{
    rfpower *p = self;
    blk_call_note(p->probe[RP_MEM], 0, it->warp, it->pc);
    if (it->warp >= p->warps)
        return;
    settle(p, cycle);
    queue_op(p, OP_MEM, it->warp, 0, it->seq, false, cycle);
}

/* ldst.regs: a load's (an atomic's) destinations written back as ldst releases it. */
static void rp_mem_written(void *self, const issued_t *it, uint64_t cycle)
{
    rfpower *p = self;
    blk_call_note(p->probe[RP_MEM], 1, it->warp, it->pc);
    if (it->warp >= p->warps)
        return;
    settle(p, cycle);
    queue_op(p, OP_MEM, it->warp, 0, it->seq, true, cycle);
}

static void warp_alloc(rfpower *p, unsigned warp, uint64_t now)
{
    rp_warp *w = &p->w[warp];
    unsigned R = MIN(p->env->launch.regs_per_thread, RP_MAX_REGS);
    uint8_t init = p->mode == RFPOWER_MODE_SLEEP_REG ? ST_SLEEP : p->alloc_state;
    uint8_t unalloc = p->unalloc_off ? ST_OFF : ST_ON;
    for (unsigned r = 0; r < R; r++) {
        unsigned idx = warp * RP_MAX_REGS + r;
        p->st[idx] = unalloc; /* an unallocated entry of the file becomes this warp's register */
        set_state(p, idx, init, now, false);
        p->lost[idx] = 0;
        p->wake[idx] = 0;
    }
    w->n_alloc = R;
    w->n_lut = 0;
}

static void warp_free(rfpower *p, unsigned warp, uint64_t now)
{
    rp_warp *w = &p->w[warp];
    uint8_t unalloc = p->unalloc_off ? ST_OFF : ST_ON;
    for (unsigned r = 0; r < w->n_alloc; r++) {
        unsigned idx = warp * RP_MAX_REGS + r;
        set_state(p, idx, unalloc, now, false);
        p->st[idx] = ST_OFF; /* (traced: not this warp's any more) */
        p->wake[idx] = 0;
    }
    w->n_alloc = 0;
    w->n_lut = 0;
}

/* issue.value: lost values, allocation, free. */
static void rp_value(void *self, regval_access *a)
{
    rfpower *p = self;
    blk_call_note(p->probe[RP_VALUE], a->kind, a->warp, a->slot);
    if (a->warp >= p->warps)
        return;
    settle(p, a->cycle);
    switch (a->kind) {
    case REGVAL_ALLOC:
        new_launch(p);
        warp_alloc(p, a->warp, a->cycle);
        return;
    case REGVAL_FREE:
        warp_free(p, a->warp, a->cycle);
        return;
    default:
        break;
    }
    if (a->slot >= p->n_slot || p->slot_phys[a->slot] == UINT32_MAX)
        return;
    unsigned phys = p->slot_phys[a->slot], n_alloc = p->w[a->warp].n_alloc;
    bool lost = false;
    for (unsigned u = 0; u < p->slot_units[a->slot]; u++)
        if (phys + u < n_alloc && p->lost[a->warp * RP_MAX_REGS + phys + u]) {
            lost = true;
            if (a->kind == REGVAL_WRITE)
                p->lost[a->warp * RP_MAX_REGS + phys + u] = 0;
        }
    if (!lost)
        return;
    if (a->kind == REGVAL_READ) {
        regval_poison(a->v, UINT32_MAX);
        blk_stat_add(p->inst, RFPOWER_STAT_POISONED_READS, 1);
    } else {
        regval_poison(a->v, ~a->lanes); /* the lanes not written had lost their values */
    }
}

static const issue_check_if check_methods = {rp_allow};
static const instr_issued_if issued_methods = {rp_issued};
static const rfaccess_hook_if access_methods = {"rfpower", rp_access};
static const regval_if value_methods = {rp_value};
static const decode_gate_if decode_methods = {rp_room, rp_decoded};
static const decode_gate_if decode_noted = {rp_room_noted, rp_decoded};
static const ldst_regs_if mem_methods = {rp_mem_read, rp_mem_written};

static void rp_finish(void *self, uint64_t cycles)
{
    settle(self, UINT64_MAX);
    integrate(self, cycles);
}

rfpower *rfpower_new(blk_ctx *ctx, gsc_module *parent, const char *name, sm_env *env, unsigned warps,
                     unsigned units)
{
    rfpower *p = g_new0(rfpower, 1);
    p->inst = blk_inst_new(ctx, parent, name, &rfpower_desc);
    p->env = env;
    p->warps = warps;
    p->units = units;
    p->mode = blk_param_enum(p->inst, "mode");
    p->wake_sleep = (unsigned)blk_param_uint(p->inst, "wake_sleep_cycles");
    p->wake_off = (unsigned)blk_param_uint(p->inst, "wake_off_cycles");
    p->lut_on = blk_param_bool(p->inst, "runtime_lut") && p->mode == RFPOWER_MODE_GREENER;
    p->lut_entries = (unsigned)blk_param_uint(p->inst, "lut_entries");
    p->storage_regs = (unsigned)blk_param_uint(p->inst, "storage_regs");
    p->poison = blk_param_bool(p->inst, "poison_off");
    p->unalloc_off = blk_param_bool(p->inst, "unalloc_off") && p->mode != RFPOWER_MODE_BASELINE;
    p->dst_no_wait = blk_param_bool(p->inst, "dst_off_no_wait");
    p->alloc_state = (uint8_t)blk_param_enum(p->inst, "alloc_state");
    p->debug_off_pc = blk_param_int(p->inst, "debug_off_pc");
    size_t n = (size_t)warps * RP_MAX_REGS;
    p->st = g_malloc(n);
    memset(p->st, ST_OFF, n);
    p->lost = g_malloc0(n);
    p->wake = g_new0(uint64_t, n);
    p->w = g_new0(rp_warp, warps);
    p->ops = g_array_new(FALSE, FALSE, sizeof(rp_op));
    p->n_st[p->unalloc_off ? ST_OFF : ST_ON] = units;
    blk_export(p->inst, RP_CHECK, 0, &check_methods, p);
    blk_export(p->inst, RP_ISSUED, 0, &issued_methods, p);
    blk_export(p->inst, RP_ACCESS, 0, &access_methods, p);
    blk_export(p->inst, RP_VALUE, 0, &value_methods, p);
    blk_export_noted(p->inst, RP_DECODE, 0, &decode_methods, &decode_noted, p);
    blk_export(p->inst, RP_MEM, 0, &mem_methods, p);
    blk_export_probes(p->inst, p->probe, RP_MEM + 1);
    const char *glob = blk_param_string(p->inst, "trace_regs");
    if (glob && *glob) {
        GPatternSpec *ps = g_pattern_spec_new(glob);
        for (unsigned w = 0; w < warps; w++)
            for (unsigned r = 0; r < RP_MAX_REGS; r++) {
                char *nm = g_strdup_printf("w%u_r%u", w, r);
                if (g_pattern_spec_match_string(ps, nm))
                    gsc_trace_var(p->inst->mod, nm, GSC_U8, &p->st[w * RP_MAX_REGS + r], 2);
                g_free(nm);
            }
        g_pattern_spec_free(ps);
    }
    blk_inst_on_finish(p->inst, rp_finish, p);
    return p;
}

blk_inst *rfpower_inst(rfpower *p)
{
    return p->inst;
}

unsigned rfpower_mode(const rfpower *p)
{
    return p->mode;
}

unsigned rfpower_state(rfpower *p, unsigned warp, unsigned phys)
{
    settle(p, UINT64_MAX);
    g_assert(warp < p->warps && phys < RP_MAX_REGS);
    return p->st[warp * RP_MAX_REGS + phys];
}

uint64_t greener_lut_bits(unsigned warps, unsigned entries, unsigned pc_bits, unsigned operands,
                          unsigned regs)
{
    return (uint64_t)warps * entries * (pc_bits + (uint64_t)operands * clog2(regs));
}

uint64_t greener_sb_bits(unsigned warps, unsigned regs)
{
    return 4ull * warps * clog2(regs);
}

void rfpower_storage_bits(const rfpower *p, unsigned pc_bits, unsigned operands, uint64_t *lut, uint64_t *sb)
{
    *lut = greener_lut_bits(p->warps, p->lut_entries ? p->lut_entries : RP_LUT_MAX, pc_bits, operands,
                            p->storage_regs);
    *sb = greener_sb_bits(p->warps, p->storage_regs);
}

unsigned rfpower_lut_count(rfpower *p, unsigned warp)
{
    settle(p, UINT64_MAX);
    g_assert(warp < p->warps);
    return p->w[warp].n_lut;
}

void rfpower_force_off(rfpower *p, unsigned warp, unsigned phys, uint64_t now)
{
    if (warp < p->warps && phys < p->w[warp].n_alloc)
        set_state(p, warp * RP_MAX_REGS + phys, ST_OFF, now, true);
}

void rfpower_free(rfpower *p)
{
    if (!p)
        return;
    if (p->decoded)
        g_hash_table_destroy(p->decoded);
    g_free(p->slot_phys);
    g_free(p->slot_units);
    g_free(p->st);
    g_free(p->lost);
    g_free(p->wake);
    g_free(p->w);
    g_array_free(p->ops, TRUE);
    g_free(p);
}
