/* ldst.c — see ldst.h. */
#include "models/sm/ldst.h"

#include <string.h>

#include "models/core/stats.h"

struct ldst_op {
    unsigned id;
    unsigned pending;    /* transactions / pieces not done */
    bool issued_all;     /* every piece has been started */
    uint64_t exec_cycle; /* the cycle it was started (release_t.exec_cycle) */
    unsigned n_txn, next_txn;
    uint8_t txn_space; /* the space of the transactions (global-like) */
    /* the cross-slice memory unit (ldst_set_slices): the instructions of this access, one per slice
     * (0: the access is `it` alone) */
    unsigned n_members;
    /* op_start clears the fields above; `it` is the input FIFO's copy (the part its kind uses) */
    issued_t it;
    uint64_t old[IR_WARP_SIZE];          /* atomics performed below: the old values returned (cleared
                                            for an access with atom_lanes, the only one that reads them) */
    coalesce_txn txn[COALESCE_MAX_TXNS]; /* op_start does not clear them */
    issued_t *members;                   /* (kept with the op for reuse: allocated once) */
    ldst_op *next_free;                  /* in l->free_ops */
};

/* The most requests an MSHR entry merges (the maximum of mshr_merge and const_mshr_merge): a fill
 * releases at most this many at once. */
#define LDST_MAX_MERGE 64

typedef struct ldst_ready {
    unsigned id;
    uint64_t cycle;
} ldst_ready;

static const blk_port_desc ports[] = {
    [LDST_IN] = {"in", GSC_IN, &issued_type, BLK_CHAN_FIFO, "in_depth", "issued memory instructions"},
    [LDST_RELEASE] = {"release", GSC_OUT, &release_type, BLK_CHAN_FIFO, NULL, "completions to issue"},
    [LDST_MEM_REQ] = {"mem_req", GSC_OUT, &mem_req_type, BLK_CHAN_FIFO, NULL, "requests to the memory side"},
    [LDST_MEM_RESP] = {"mem_resp", GSC_IN, &mem_resp_type, BLK_CHAN_FIFO, "resp_depth",
                       "responses from the memory side"},
    [LDST_L1_EVICT] = {"l1_evict", GSC_OUT, NULL, BLK_CHAN_IMPORT, NULL,
                       "listeners told of every L1D line evicted or invalidated (with its warp-id metadata)",
                       &l1_evict_iface, BLK_PORT_MULTI},
    [LDST_L1_ACCESS] = {"l1_access", GSC_OUT, NULL, BLK_CHAN_IMPORT, NULL,
                        "listeners told of every L1D load access (warp, line address, outcome)",
                        &l1_access_iface, BLK_PORT_MULTI},
    [LDST_REGS] = {"regs", GSC_OUT, NULL, BLK_CHAN_IMPORT, NULL,
                   "listeners told when an instruction's registers are read (taken) and written (released)",
                   &ldst_regs_iface, BLK_PORT_MULTI},
    [LDST_IU] = {"iu", GSC_IN, NULL, BLK_CHAN_EXPORT, NULL,
                 "an interface unit's role the SM plays (SPU partial passes): its requests, through the miss "
                 "queue and mem_req",
                 &ldst_iu_iface},
    [LDST_IU_REPLY] = {"iu_reply", GSC_OUT, NULL, BLK_CHAN_IMPORT, NULL,
                       "the replies to those requests (binding number: the id's upper half)", &ldst_iu_reply_iface,
                       BLK_PORT_MULTI},
};

static const char *const evict_methods[] = {"evicted(eviction: address, reason, metadata)", NULL};
const blk_iface l1_evict_iface = {
    "l1_evict", "an L1D line left the cache", evict_methods, {"addr", "reason"}, {32, 1}};
static const char *const access_methods[] = {"access(warp, address, outcome: cache_status)", NULL};
const blk_iface l1_access_iface = {
    "l1_access", "an L1D load access", access_methods, {"warp", "addr", "outcome"}, {16, 32, 4}};
static const char *const regs_methods[] = {"read(issued, cycle)", "written(issued, cycle)", NULL};
const blk_iface ldst_regs_iface = {
    "ldst_regs", "a memory instruction's register reads and write-backs", regs_methods, {"op", "warp", "pc"},
    {1, 16, 32}}; /* traced calls: op 0 read, 1 written */
static const char *const iu_methods[] = {"can_send()", "send(request)", NULL};
const blk_iface ldst_iu_iface = {
    "ldst_iu", "an interface unit's role's requests through the SM's memory port", iu_methods, {"op", "addr"},
    {1, 32}}; /* traced calls: op 0 can_send, 1 send (addr: the request's) */
static const char *const iu_reply_methods[] = {"reply(response)", NULL};
const blk_iface ldst_iu_reply_iface = {
    "ldst_iu_reply", "a reply to an interface unit's role's request", iu_reply_methods, {"id", "addr"}, {32, 32}};

static const blk_param_desc params[] = {
    {"l1_sets", BLK_PARAM_UINT, "32", "1", "65536", NULL, "sets", "L1D sets [S: GTX480 dl1 32:128:4]"},
    {"l1_ways", BLK_PARAM_UINT, "4", "1", "64", NULL, "ways", "L1D associativity [S]"},
    {"l1_line", BLK_PARAM_UINT, "128", "16", "128", NULL, "bytes", "L1D line = coalescing segment [S]"},
    {"l1_hashed", BLK_PARAM_BOOL, "true", NULL, NULL, NULL, "",
     "XOR-hashed set index [S: 'H'; the fold is [A]]"},
    {"l1_latency", BLK_PARAM_UINT, "1", "1", "1000", NULL, "cycles", "L1D hit latency after the lookup [A]"},
    {"l1_enabled", BLK_PARAM_BOOL, "true", NULL, NULL, NULL, "",
     "false: no L1D (every global load goes below as a read of its transaction, no L1D statistics; "
     "the SPU's caches are off [S: SPU spec §10])"},
    {"mshrs", BLK_PARAM_UINT, "32", "1", "1024", NULL, "entries", "L1D MSHR entries [S: 32]"},
    {"mshr_merge", BLK_PARAM_UINT, "8", "1", G_STRINGIFY(LDST_MAX_MERGE), NULL, "requests",
     "requests merged per MSHR [S: 8]"},
    {"const_sets", BLK_PARAM_UINT, "64", "1", "65536", NULL, "sets",
     "constant cache sets [S: GTX480 gpgpu_const_cache:l1 N:64:64:2]"},
    {"const_line", BLK_PARAM_UINT, "64", "16", "128", NULL, "bytes", "constant cache line [S]"},
    {"const_ways", BLK_PARAM_UINT, "2", "1", "64", NULL, "ways", "constant cache associativity [S]"},
    {"const_latency", BLK_PARAM_UINT, "1", "1", "1000", NULL, "cycles",
     "constant cache hit latency after the lookup [A: as the L1D]"},
    {"const_mshrs", BLK_PARAM_UINT, "8", "1", "1024", NULL, "entries", "constant cache MSHR entries [A]"},
    {"const_mshr_merge", BLK_PARAM_UINT, "8", "1", G_STRINGIFY(LDST_MAX_MERGE), NULL, "requests",
     "requests merged per constant cache MSHR [A]"},
    {"smem_banks", BLK_PARAM_UINT, "32", "1", "64", NULL, "banks", "scratchpad banks [S: 32]"},
    {"smem_bank_width", BLK_PARAM_UINT, "4", "1", "16", NULL, "bytes", "scratchpad bank word [S: 4]"},
    {"smem_broadcast", BLK_PARAM_BOOL, "true", NULL, NULL, NULL, "", "same-word reads cost one access [S]"},
    {"smem_latency", BLK_PARAM_UINT, "1", "1", "1000", NULL, "cycles", "scratchpad access latency [A]"},
    {"param_latency", BLK_PARAM_UINT, "1", "1", "1000", NULL, "cycles",
     "parameter buffer access latency [A]"},
    {"in_depth", BLK_PARAM_UINT, "4", "1", "64", NULL, "items",
     "depth of the input FIFO (4: two schedulers can put every cycle while the block drains it) [A]"},
    {"resp_depth", BLK_PARAM_UINT, "8", "1", "1024", NULL, "items", "depth of the response FIFO"},
    {"miss_queue", BLK_PARAM_UINT, "8", "1", "1024", NULL, "requests",
     "requests waiting for room towards the memory side; a transaction that needs one waits while it "
     "is full [S: GTX480 dl1 miss queue 8]"},
    {"release_queue", BLK_PARAM_UINT, "32", "1", "1024", NULL, "items",
     "completions (and source-read reports) waiting for room in the release FIFO to issue; a finished "
     "instruction waits, and no new one starts, while it is full [A: 32, more than any workload holds "
     "on the presets]"},
    {"e_l1_access", BLK_PARAM_DOUBLE, "20", "0", NULL, NULL, "pJ",
     "energy of an L1D access (hit, miss, merged read, store transaction) [A: the specs give none; "
     "an order of magnitude to set from CACTI for a study]"},
    {"e_smem_access", BLK_PARAM_DOUBLE, "10", "0", NULL, NULL, "pJ",
     "energy of a scratchpad bank cycle [A: as e_l1_access]"},
    {"e_const_access", BLK_PARAM_DOUBLE, "5", "0", NULL, NULL, "pJ",
     "energy of a constant cache access [A: as e_l1_access]"},
};

static double hit_rate(const blk_inst *inst)
{
    uint64_t h = blk_stat_get(inst, LDST_STAT_L1_HITS);
    return stats_ratio(h,
                       h + blk_stat_get(inst, LDST_STAT_L1_MISSES) + blk_stat_get(inst, LDST_STAT_L1_MERGED));
}

static const blk_stat_desc stats[] = {
    [LDST_STAT_INSTRS] = {"instrs", BLK_STAT_COUNTER, "instructions", "memory instructions", NULL},
    [LDST_STAT_SHARED] = {"shared_instrs", BLK_STAT_COUNTER, "instructions",
                          "instructions touching the scratchpad", NULL},
    [LDST_STAT_SMEM_CYCLES] = {"smem_cycles", BLK_STAT_COUNTER, "cycles", "scratchpad bank cycles", NULL},
    [LDST_STAT_SMEM_CONFLICT_CYCLES] = {"smem_conflict_cycles", BLK_STAT_COUNTER, "cycles",
                                        "extra scratchpad cycles from bank conflicts", NULL},
    [LDST_STAT_L1_HITS] = {"l1_hits", BLK_STAT_COUNTER, "accesses", "L1D read hits", NULL},
    [LDST_STAT_L1_MISSES] = {"l1_misses", BLK_STAT_COUNTER, "accesses", "L1D read misses (new MSHR)", NULL},
    [LDST_STAT_L1_MERGED] = {"l1_merged", BLK_STAT_COUNTER, "accesses",
                             "L1D reads merged into a pending miss", NULL},
    [LDST_STAT_L1_RES_FAIL] = {"l1_reservation_fails", BLK_STAT_COUNTER, "cycles",
                               "L1D accesses retried (no line/MSHR)", NULL},
    [LDST_STAT_STORES_TXN] = {"store_txns", BLK_STAT_COUNTER, "transactions",
                              "store transactions written through the L1D (none with l1_enabled=false)",
                              NULL},
    [LDST_STAT_ATOMIC_TXN] = {"atomic_txns", BLK_STAT_COUNTER, "transactions", "global atomic transactions",
                              NULL},
    [LDST_STAT_MEM_REQS] = {"mem_reqs", BLK_STAT_COUNTER, "requests", "requests sent below", NULL},
    [LDST_STAT_L1_HIT_RATE] = {"l1_hit_rate", BLK_STAT_DERIVED, "ratio", "L1D read hits / reads", hit_rate},
    [LDST_STAT_CONST_HITS] = {"const_hits", BLK_STAT_COUNTER, "accesses", "constant cache read hits", NULL},
    [LDST_STAT_CONST_MISSES] = {"const_misses", BLK_STAT_COUNTER, "accesses",
                                "constant cache read misses (new MSHR)", NULL},
    [LDST_STAT_CONST_MERGED] = {"const_merged", BLK_STAT_COUNTER, "accesses",
                                "constant cache reads merged into a pending miss", NULL},
    [LDST_STAT_MISS_QUEUE_PEAK] = {"miss_queue_peak", BLK_STAT_COUNTER, "requests",
                                   "most requests held by the miss queue (at most miss_queue)", NULL},
    [LDST_STAT_MISS_QUEUE_STALLS] = {"miss_queue_stalls", BLK_STAT_COUNTER, "cycles",
                                     "cycles a transaction waited for room in the full miss queue", NULL},
    [LDST_STAT_RELEASE_QUEUE_PEAK] = {"release_queue_peak", BLK_STAT_COUNTER, "items",
                                      "most items held by the release queue (at most release_queue)", NULL},
    [LDST_STAT_RELEASE_WAITS] = {"release_waits", BLK_STAT_COUNTER, "instructions",
                                 "finished instructions that waited for room in the full release queue",
                                 NULL},
    [LDST_STAT_SLICE_MERGED] = {"slice_merged", BLK_STAT_COUNTER, "instructions",
                                "instructions of other lane slices merged into a same-cycle access (an SM "
                                "with lane slices: sm.slicing=warp)",
                                NULL},
    [LDST_STAT_IU_REQS] = {"iu_reqs", BLK_STAT_COUNTER, "requests",
                           "requests of an interface unit's role the SM played, sent through its port (the "
                           "SPU's partial passes; iu export)",
                           NULL},
};

static const blk_energy_event energy_events[] = {
    {"l1_hit", "l1_hits", "e_l1_access", BLK_COMP_DCP},
    {"l1_miss", "l1_misses", "e_l1_access", BLK_COMP_DCP},
    {"l1_merged", "l1_merged", "e_l1_access", BLK_COMP_DCP},
    {"l1_store", "store_txns", "e_l1_access", BLK_COMP_DCP},
    {"smem", "smem_cycles", "e_smem_access", BLK_COMP_SHRDP},
    {"const_hit", "const_hits", "e_const_access", BLK_COMP_CCP},
    {"const_miss", "const_misses", "e_const_access", BLK_COMP_CCP},
    {"const_merged", "const_merged", "e_const_access", BLK_COMP_CCP},
};
static const blk_energy_desc energy = {energy_events, BLK_N(energy_events), NULL, 0, NULL};

static const blk_state_desc state[] = {
    {"inflight", 8, "memory instructions in flight"},
    {"warp", 8, "warp of the last instruction started"},
    {"hit", 1, "an L1D lookup hit this cycle"},
    {"const_hit", 1, "the last constant cache lookup hit"},
    {"mshr_used", 11, "L1D MSHR entries in use"},
    {"coalesced", 8, "line requests the coalescer made of the instruction started this cycle"},
    {"iu_inflight", 8, "requests of an interface unit's role the SM plays in flight (traced when bound)"},
};

const blk_desc ldst_desc = {
    "ldst",
    "load/store unit: coalescing, scratchpad banks, L1D and constant cache with MSHRs, requests below",
    "docs/baseline-design.md §2.2 ldst; §5.3",
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

static gsc_fifo *pf(const ldst *l, unsigned p)
{
    return blk_fifo(l->inst, p);
}

/* A completion of op at `cycle`, before the scheduled ones of the same or a later cycle (the order
 * completions of one cycle are released in). Few are pending: a sorted array. */
static void schedule(ldst *l, ldst_op *op, uint64_t cycle)
{
    if (l->n_ready == l->cap_ready) {
        l->cap_ready = l->cap_ready ? 2 * l->cap_ready : 16;
        l->ready = g_renew(ldst_ready, l->ready, l->cap_ready);
    }
    unsigned i = 0;
    while (i < l->n_ready && l->ready[i].cycle < cycle)
        i++;
    memmove(&l->ready[i + 1], &l->ready[i], (l->n_ready - i) * sizeof *l->ready);
    l->ready[i] = (ldst_ready){.id = op->id, .cycle = cycle};
    l->n_ready++;
}

/* The release queue has room for op's completions (one per instruction of the access). */
static inline bool rel_room(const ldst *l, const ldst_op *op)
{
    if (G_LIKELY(!op->n_members))
        return !blk_outq_full(&l->releases);
    return blk_outq_len(&l->releases) + op->n_members <= l->releases.depth;
}

/* The completion of one instruction of an access into the release queue (which has room): its
 * destinations, and for an atomic performed below its old values (old[0..lanes): its lanes' values
 * of the access). The instruction's register writes are reported to the listeners. */
static void release_instr(ldst *l, const issued_t *it, uint64_t exec_cycle, const uint64_t *old,
                          unsigned lanes)
{
    for (unsigned i = 0; i < l->n_regs; i++)
        ((const ldst_regs_if *)l->regs[i].methods)->written(l->regs[i].self, it, gsc_cycle());
    release_t *r = blk_outq_push(&l->releases);
    release_clear(r); /* (the header: vals are written below only when there are any) */
    r->seq = it->seq;
    r->func = it->func;
    r->warp = it->warp;
    r->n_dst = it->n_dst;
    r->long_op = it->long_op;
    r->unit = SM_UNIT_LDST;
    r->val_reg = SM_NO_REG;
    r->exec_cycle = exec_cycle;
    memcpy(r->dst, it->dst, sizeof r->dst);
    if (it->atom_lanes) {
        r->atomic = 1;
        if (it->atom_dst != SM_NO_REG) {
            r->val_reg = it->atom_dst;
            r->val_mask = it->atom_lanes;
            r->val_vmask = it->atom_vmask;
            memcpy(r->vals, old, lanes * sizeof *old);
        }
    }
}

/* A finished op's completion into the release queue (which has room): one per instruction of the
 * access (a merged access: each slice's instruction, with its slice's lanes of an atomic's old
 * values); the op is freed. */
static void op_release(ldst *l, ldst_op *op)
{
    unsigned id = op->id;
    if (G_LIKELY(!op->n_members))
        release_instr(l, &op->it, op->exec_cycle, op->old, IR_WARP_SIZE);
    for (unsigned j = 0; j < op->n_members; j++) {
        const issued_t *m = &op->members[j];
        release_instr(l, m, op->exec_cycle, &op->old[m->sched * l->slice_lanes], l->slice_lanes);
    }
    g_ptr_array_index(l->ops, id) = NULL;
    l->n_ops--;
    if (l->cur == op)
        l->cur = NULL;
    op->next_free = l->free_ops; /* reused by op_start: no allocation per instruction */
    l->free_ops = op;
}

/* The last piece of op is done: released now, or waits for room in the release queue. */
static void op_finished(ldst *l, ldst_op *op)
{
    if (l->rel_wait->len || !rel_room(l, op)) { /* stays in flight until there is room */
        g_ptr_array_add(l->rel_wait, op);
        blk_stat_add(l->inst, LDST_STAT_RELEASE_WAITS, 1);
        return;
    }
    op_release(l, op);
}

/* One piece of op `id` is done (inlined: most are not its last). */
static inline __attribute__((always_inline)) void op_piece_done(ldst *l, unsigned id)
{
    ldst_op *op = g_ptr_array_index(l->ops, id);
    g_assert(op && op->pending > 0);
    if (--op->pending > 0 || !op->issued_all)
        return;
    op_finished(l, op);
}

static void send_req(ldst *l, ldst_op *op, unsigned ti, mem_kind kind)
{
    const coalesce_txn *t = &op->txn[ti];
    mem_req_t *q = blk_outq_push(&l->reqs);
    /* Only what the request carries needs a value (mem_req_used): the header of a read, the line of
     * a write too, everything of an atomic. */
    memset(q, 0, kind == MEM_ATOMIC ? sizeof *q : offsetof(mem_req_t, data));
    q->addr = t->addr;
    q->id = (uint64_t)ti << 32 | op->id; /* the transaction, for the atomics' old values */
    q->bytes = t->size;
    q->src = (uint16_t)l->sm_id;
    q->warp = op->it.warp;
    q->kind = (uint8_t)kind;
    q->client = 0;
    if (op->txn_space == IR_SPACE_CONST) { /* a constant cache line fill */
        q->addr = t->addr & ~(uint64_t)(l->const_line - 1);
        q->bytes = l->const_line;
        q->client = 2;
    }
    if (kind != MEM_READ) {
        q->mask_lo = t->byte_mask[0];
        q->mask_hi = t->size > 64 ? t->byte_mask[1] : 0;
    }
    if (kind == MEM_WRITE)
        mem_line_fill(l->env->mem, t->addr, t->size, q->data); /* the bytes as stored at issue */
    if (kind == MEM_ATOMIC) { /* the lanes the memory side performs (the others were done at issue) */
        const issued_t *it = &op->it;
        q->atom.lanes = t->lanes & it->atom_lanes;
        q->atom.flags = it->atom_flags;
        q->atom.op = it->atom_op;
        q->atom.type = it->atom_type;
        q->atom.esize = it->bytes;
        for (uint32_t m = q->atom.lanes; m; m &= m - 1) {
            unsigned ln = (unsigned)__builtin_ctz(m);
            q->atom.offset[ln] = (uint8_t)(it->addr[ln] - t->addr);
            q->atom.b[ln] = it->atom_b[ln];
            q->atom.c[ln] = it->atom_c[ln];
        }
    }
    blk_stat_add(l->inst, LDST_STAT_MEM_REQS, 1);
}

static bool global_like(uint8_t s)
{
    return s == IR_SPACE_GLOBAL || s == IR_SPACE_LOCAL || s == IR_SPACE_CONST;
}

/* b, issued in the same cycle as a on another slice, is the same kind of access. */
static bool same_access(const issued_t *a, const issued_t *b)
{
    return b->issue_cycle == a->issue_cycle && b->sched != a->sched && b->kind == a->kind &&
           b->space == a->space && b->op == a->op && b->bytes == a->bytes && b->atom_op == a->atom_op &&
           b->atom_type == a->atom_type && b->atom_flags == a->atom_flags;
}

/* The cross-slice memory unit (ldst_set_slices): the memory instructions the other slices issued in
 * the same cycle (behind op's in the input FIFO) join op's access, each on its slice's lanes (slice s:
 * lanes s x W .. s x W + W - 1), so the coalescer sees one access of up to 32 lanes. */
static void ldst_gather(ldst *l, ldst_op *op)
{
    gsc_fifo *in = pf(l, LDST_IN);
    if (!gsc_fifo_can_get(in) || !same_access(&op->it, gsc_fifo_peek(in)))
        return;
    if (!op->members)
        op->members = g_new(issued_t, l->slices);
    op->members[0] = op->it;
    unsigned n = 1;
    while (n < l->slices && gsc_fifo_can_get(in) && same_access(&op->members[0], gsc_fifo_peek(in)))
        gsc_fifo_get(in, &op->members[n++]);
    op->n_members = n;
    blk_stat_add(l->inst, LDST_STAT_SLICE_MERGED, n - 1);
    issued_t *it = &op->it; /* the header stays the first instruction's */
    it->mask = it->store_lanes = it->atom_lanes = 0;
    for (unsigned j = 0; j < n; j++) {
        const issued_t *m = &op->members[j];
        unsigned off = m->sched * l->slice_lanes;
        g_assert(m->sched < l->slices && (m->mask >> l->slice_lanes) == 0);
        it->long_op |= m->long_op;
        for (uint32_t b = m->mask; b; b &= b - 1) {
            unsigned ln = (unsigned)__builtin_ctz(b), to = off + ln;
            it->mask |= 1u << to;
            it->lane_space[to] = m->lane_space[ln];
            it->addr[to] = m->addr[ln];
            if (m->store_lanes >> ln & 1) {
                it->store_lanes |= 1u << to;
                memcpy(it->store_data[to], m->store_data[ln], sizeof it->store_data[to]);
            }
            if (m->atom_lanes >> ln & 1) {
                it->atom_lanes |= 1u << to;
                it->atom_b[to] = m->atom_b[ln];
                it->atom_c[to] = m->atom_c[ln];
            }
        }
    }
}

/* The instruction's registers are read (address and store data): the read report (source
 * reservations) and the `regs` listeners. */
static inline __attribute__((always_inline)) void op_read(ldst *l, const issued_t *it, uint64_t now)
{
    if (it->report_reads) /* source reservations: the address and data registers are read now */
        release_init_reads(blk_outq_push(&l->releases), it, SM_UNIT_LDST);
    for (unsigned i = 0; i < l->n_regs; i++)
        ((const ldst_regs_if *)l->regs[i].methods)->read(l->regs[i].self, it, now);
}

/* Start a new instruction: the scratchpad and parameter pieces at once, the line transactions
 * one per cycle afterwards (ldst_step_txn). */
static void op_start(ldst *l, uint64_t now)
{
    ldst_op *op;
    if (l->free_ops) {
        op = l->free_ops;
        l->free_ops = op->next_free;
    } else {
        op = g_new(ldst_op, 1);
        op->members = NULL; /* (allocated when it first merges slices) */
    }
    memset(op, 0, offsetof(ldst_op, it)); /* coalesce_transactions writes the n_txn it makes */
    gsc_fifo_get(pf(l, LDST_IN), &op->it);
    guint id;
    for (id = 0; id < l->ops->len; id++)
        if (!g_ptr_array_index(l->ops, id))
            break;
    if (id == l->ops->len)
        g_ptr_array_add(l->ops, NULL);
    g_ptr_array_index(l->ops, id) = op;
    l->n_ops++;
    op->id = id;
    if (G_UNLIKELY(l->slices > 1))
        ldst_gather(l, op);
    if (op->it.atom_lanes)
        memset(op->old, 0, sizeof op->old);
    const issued_t *it = &op->it;
    op->exec_cycle = now;
    if (G_LIKELY(!op->n_members)) {
        op_read(l, it, now);
    } else {
        for (unsigned j = 0; j < op->n_members; j++) /* each instruction of the access */
            op_read(l, &op->members[j], now);
    }
    blk_stat_add(l->inst, LDST_STAT_INSTRS, 1);
    l->tr_warp = it->warp;
    /* The lanes by space: shared ones to the scratchpad (their addresses copied: the others are left
     * unset), global-like ones to the coalescer (which reads their addresses in place), others are
     * parameters. An instruction in an explicit space has every lane in it (issue resolves the space
     * lane by lane for generic addressing only). */
    coalesce_access sh;
    sh.lanes = IR_WARP_SIZE;
    sh.size = it->bytes ? it->bytes : 4;
    sh.active = 0;
    uint32_t gl = 0;
    bool param = false;
    if (G_LIKELY(it->space != IR_SPACE_NONE && global_like(it->space))) {
        gl = it->mask;
        op->txn_space = it->space;
    } else {
        for (uint32_t m = it->mask; m; m &= m - 1) {
            unsigned ln = (unsigned)__builtin_ctz(m);
            uint8_t s = it->lane_space[ln];
            if (s == IR_SPACE_SHARED) {
                sh.active |= 1u << ln;
                sh.addr[ln] = it->addr[ln];
            } else if (global_like(s)) {
                gl |= 1u << ln;
                op->txn_space = s;
            } else {
                param = true;
            }
        }
    }
    op->pending = 1; /* held until every piece is started */
    uint64_t busy = 1;
    if (sh.active) {
        unsigned k = coalesce_smem_cycles(&sh, &l->smem, NULL);
        blk_stat_add(l->inst, LDST_STAT_SHARED, 1);
        blk_stat_add(l->inst, LDST_STAT_SMEM_CYCLES, k);
        blk_stat_add(l->inst, LDST_STAT_SMEM_CONFLICT_CYCLES, k - 1);
        op->pending++;
        schedule(l, op, now + l->smem_latency + k - 1);
        busy = MAX(busy, k);
    }
    if (param) {
        op->pending++;
        schedule(l, op, now + l->param_latency);
    }
    if (gl) {
        /* a lane access never exceeds 8 bytes x 4 elements; coalesce counts sizes up to 16. Only
         * stores and atomics carry byte masks (send_req). */
        op->n_txn = coalesce_lanes(IR_WARP_SIZE, gl, MIN(sh.size, 16u), it->addr,
                                   op->txn_space == IR_SPACE_CONST ? l->const_line : l->line, 0, it->kind != 0,
                                   op->txn);
        l->tr_coalesced = (uint8_t)MIN(op->n_txn, UINT8_MAX);
    }
    l->busy_until = now + busy;
    l->cur = op;
    l->plan_ok = false;
}

/* The store is performed at the L1: its deferred lanes in this transaction write the image, in lane
 * order (as the functional runner; the addresses were checked at issue). */
static void ldst_perform_store(ldst *l, const ldst_op *op, const coalesce_txn *t)
{
    for (uint32_t m = t->lanes & op->it.store_lanes; m; m &= m - 1) {
        unsigned ln = (unsigned)__builtin_ctz(m);
        /* fmem_translate: with --memcheck warn, a store into an allocation's padding (reported at
         * issue) lands there too */
        uint8_t *p = fmem_translate(l->env->mem, op->it.addr[ln], op->it.bytes, true);
        g_assert(p != NULL);
        memcpy(p, op->it.store_data[ln], op->it.bytes);
    }
}

/* cur's next transaction is refused by the L1 from now on (each cycle slept counts one refusal:
 * ldst_run). */
static void block(ldst *l, cache_fail why)
{
    l->blocked = true; /* retried when a fill has changed the L1 (see ldst_run) */
    l->blocked_why = why;
    l->blocked_set = l->plan.set;
    l->blocked_may_pass = false;
}

/* cur's next load transaction, accepted by its cache (st: HIT, HIT_RESERVED or MISS), counted in the
 * cache's statistics (hits, misses, merged: consecutive from `stat`): a hit completes at `hit_done`,
 * a merged one with its line's fill, a miss sends the line's request below. */
static inline __attribute__((always_inline)) void load_accepted(ldst *l, ldst_op *op, cache_status st,
                                                                uint64_t hit_done, unsigned stat)
{
    G_STATIC_ASSERT(LDST_STAT_L1_MISSES == LDST_STAT_L1_HITS + 1 && LDST_STAT_L1_MERGED == LDST_STAT_L1_HITS + 2);
    G_STATIC_ASSERT(LDST_STAT_CONST_MISSES == LDST_STAT_CONST_HITS + 1 &&
                    LDST_STAT_CONST_MERGED == LDST_STAT_CONST_HITS + 2);
    op->pending++;
    if (st == CACHE_HIT) {
        blk_stat_add(l->inst, stat, 1);
        schedule(l, op, hit_done);
    } else if (st == CACHE_HIT_RESERVED) {
        blk_stat_add(l->inst, stat + 2, 1);
    } else {
        blk_stat_add(l->inst, stat + 1, 1);
        send_req(l, op, op->next_txn, MEM_READ);
    }
}

/* The L1D's answer to cur's next transaction, a load, now (and *why of a refusal), changing nothing:
 * the tag array is probed unless the plan's probe is still valid. */
static cache_status l1_decide(ldst *l, uint64_t addr, cache_fail *why)
{
    if (!l->plan_ok) {
        cache_read_probe(l->l1, addr, &l->plan);
        l->plan_ok = true;
    }
    return cache_read_decide(l->mshr, &l->plan, why);
}

/* cur's next transaction, a global or local load through the L1D; false: it waits (the miss queue is
 * full and it would send a request) or is refused (no line/MSHR: retried). */
static bool l1_load(ldst *l, ldst_op *op, uint64_t now)
{
    const coalesce_txn *t = &op->txn[op->next_txn];
    cache_fail why;
    cache_status st = l1_decide(l, t->addr, &why);
    if (st == CACHE_MISS && blk_outq_full(&l->reqs)) { /* the miss queue is full: wait */
        blk_stat_add(l->inst, LDST_STAT_MISS_QUEUE_STALLS, 1);
        return false;
    }
    if (st != CACHE_RESERVATION_FAIL) {
        cache_read_apply(l->l1, l->mshr, &l->plan, st, op->id, op->it.warp);
        l->plan_ok = false;
    }
    for (unsigned i = 0; i < l->n_access; i++)
        ((const l1_access_if *)l->access[i].methods)->access(l->access[i].self, op->it.warp, t->addr, st);
    if (st == CACHE_RESERVATION_FAIL) {
        blk_stat_add(l->inst, LDST_STAT_L1_RES_FAIL, 1);
        block(l, why);
        return false;
    }
    l->blocked = false;
    l->tr_hit = st == CACHE_HIT;
    load_accepted(l, op, st, now + l->l1_latency, LDST_STAT_L1_HITS);
    return true;
}

/* A const-space load transaction through the constant cache; false: no line/MSHR, retry. */
static bool const_read(ldst *l, ldst_op *op, uint64_t now)
{
    const coalesce_txn *t = &op->txn[op->next_txn];
    cache_fail why;
    cache_status st = cache_read(l->cc, l->cc_mshr, t->addr, op->id, op->it.warp, &why);
    if (st == CACHE_RESERVATION_FAIL || why != CACHE_FAIL_NONE)
        return false;
    l->tr_const_hit = st == CACHE_HIT;
    load_accepted(l, op, st, now + l->const_latency, LDST_STAT_CONST_HITS);
    return true;
}

/* Whether cur's next transaction, not an L1D load (l1_load decides those), would send a request below
 * now: a store, an atomic, a load without the L1D, or a constant load that would miss (and find an
 * MSHR entry). */
static bool txn_sends(const ldst *l, const ldst_op *op)
{
    if (op->it.kind != 0 || op->txn_space != IR_SPACE_CONST)
        return true;
    cache_fail why;
    return cache_read_check(l->cc, l->cc_mshr, op->txn[op->next_txn].addr, &why) == CACHE_MISS;
}

/* One line transaction of the current instruction per cycle. */
static void op_step_txn(ldst *l, uint64_t now)
{
    ldst_op *op = l->cur;
    if (op->next_txn >= op->n_txn)
        return;
    const coalesce_txn *t = &op->txn[op->next_txn];
    bool l1 = op->it.kind == 0 && op->txn_space != IR_SPACE_CONST && !l->l1_off;
    if (!l1 && blk_outq_full(&l->reqs) && txn_sends(l, op)) { /* the miss queue is full: wait */
        blk_stat_add(l->inst, LDST_STAT_MISS_QUEUE_STALLS, 1);
        return;
    }
    switch (op->it.kind) {
    case 0: /* load */
        if (l1) {
            if (!l1_load(l, op, now))
                return;
        } else if (op->txn_space == IR_SPACE_CONST) {
            if (!const_read(l, op, now))
                return;
        } else { /* no L1D: straight below; the reply completes the transaction */
            op->pending++;
            send_req(l, op, op->next_txn, MEM_READ);
        }
        break;
    case 1: /* store: write-evict, no write-allocate (global and local alike) */
        ldst_perform_store(l, op, t);
        cache_tags_invalidate(l->l1, t->addr);
        op->pending++;
        if (!l->l1_off) /* (an L1D store transaction: its energy is the L1D's) */
            blk_stat_add(l->inst, LDST_STAT_STORES_TXN, 1);
        send_req(l, op, op->next_txn, MEM_WRITE);
        break;
    default: /* atomics and reductions: performed below the L1; the line is dropped */
        cache_tags_invalidate(l->l1, t->addr);
        op->pending++;
        blk_stat_add(l->inst, LDST_STAT_ATOMIC_TXN, 1);
        send_req(l, op, op->next_txn, MEM_ATOMIC);
        break;
    }
    op->next_txn++;
    l->plan_ok = false;
}

static void take_responses(ldst *l)
{
    gsc_fifo *in = pf(l, LDST_MEM_RESP);
    while (gsc_fifo_can_get(in)) {
        /* read in place, in its ring slot (valid until the interconnect's next put, in a later
         * activation): a read's line (the values were loaded at issue) is not needed here */
        const mem_resp_t *rp = gsc_fifo_take(in);
        if (G_UNLIKELY(rp->client == MEM_CLIENT_IU)) { /* an interface unit's role: not the L1's */
            g_assert(rp->id >> 32 < l->n_iu_reply);
            blk_iref ir = l->iu_reply[rp->id >> 32];
            ((const ldst_iu_reply_if *)ir.methods)->reply(ir.self, rp);
            l->tr_iu_inflight--;
            continue;
        }
        if (rp->kind == MEM_READ && !(l->l1_off && rp->client == 0)) {
            bool cst = rp->client == 2; /* a constant cache fill: the L1D is not touched */
            cache_tags *tags = cst ? l->cc : l->l1;
            cache_mshr *mshr = cst ? l->cc_mshr : l->mshr;
            unsigned set;
            uint64_t req[LDST_MAX_MERGE];
            unsigned n = cache_read_fill(tags, mshr, rp->addr, rp->warp, &set, req);
            if (!cst && (l->plan_ok || (l->blocked && !l->blocked_may_pass))) {
                /* the fill changed its set: a probe of that set is stale, a refusal there may end */
                if (set == l->plan.set)
                    l->plan_ok = false;
                if (l->blocked && !l->blocked_may_pass)
                    l->blocked_may_pass = l->blocked_why == CACHE_FAIL_MSHR_FULL || set == l->blocked_set;
            }
            for (unsigned i = 0; i < n; i++)
                op_piece_done(l, (unsigned)req[i]);
        } else {
            unsigned id = (unsigned)(rp->id & 0xffffffffu);
            ldst_op *op = g_ptr_array_index(l->ops, id);
            g_assert(op);
            if (rp->kind == MEM_ATOMIC) {
                uint32_t lanes = op->txn[rp->id >> 32].lanes & op->it.atom_lanes;
                for (; lanes; lanes &= lanes - 1)
                    op->old[__builtin_ctz(lanes)] = rp->atom_old[__builtin_ctz(lanes)];
            }
            op_piece_done(l, id);
        }
    }
}

static void flush(ldst *l)
{
    blk_outq_flush(&l->reqs);
    blk_outq_flush(&l->releases);
    if (G_UNLIKELY(l->rel_wait->len)) { /* finished ops that waited for room, in order */
        guint n = 0;
        while (n < l->rel_wait->len && rel_room(l, g_ptr_array_index(l->rel_wait, n)))
            op_release(l, g_ptr_array_index(l->rel_wait, n++));
        g_ptr_array_remove_range(l->rel_wait, 0, n);
        blk_outq_flush(&l->releases);
    }
}

/* cur's next transaction, an L1D load, is attempted in the next cycle. With every MSHR in use it is
 * usually refused, and only a response (which wakes this process, and sets blocked_may_pass if it
 * can change the answer) changes the L1 before then: the refusal is known now. The process then
 * sleeps as if refused in the next cycle, which is counted when it wakes, as the cycles slept are.
 * Saves an activation per refused first attempt; the statistics are the same. */
static void foresee_refusal(ldst *l)
{
    const ldst_op *op = l->cur;
    if (op->it.kind != 0 || op->txn_space == IR_SPACE_CONST || cache_mshr_used(l->mshr) < l->mshr_entries)
        return;
    cache_fail why;
    if (l1_decide(l, op->txn[op->next_txn].addr, &why) == CACHE_RESERVATION_FAIL)
        block(l, why);
}

static void ldst_run(void *self)
{
    ldst *l = self;
    uint64_t now = gsc_cycle();
    blk_sleep_wake(l->inst, now);
    take_responses(l);
    unsigned done = 0;
    while (done < l->n_ready && l->ready[done].cycle <= now)
        done++;
    if (done) { /* op_piece_done does not schedule: the due entries are taken at once */
        unsigned n = l->n_ready;
        for (unsigned i = 0; i < done; i++)
            op_piece_done(l, l->ready[i].id);
        g_assert(l->n_ready == n);
        l->n_ready -= done;
        memmove(l->ready, l->ready + done, l->n_ready * sizeof *l->ready);
    }
    if (l->cur && l->cur->next_txn < l->cur->n_txn) {
        if (l->blocked && !l->blocked_may_pass) { /* no fill that could help since: refused again */
            blk_stat_add(l->inst, LDST_STAT_L1_RES_FAIL, 1);
        } else {
            op_step_txn(l, now);
        }
    }
    if (l->cur && l->cur->next_txn >= l->cur->n_txn) {
        ldst_op *op = l->cur;
        l->cur = NULL;
        op->issued_all = true;
        op_piece_done(l, op->id); /* drops the hold taken at op_start */
    }
    if (!l->cur && l->busy_until <= now && gsc_fifo_can_get(pf(l, LDST_IN)) &&
        (l->slices > 1 ? blk_outq_len(&l->releases) + l->slices <= l->releases.depth
                       : !blk_outq_full(&l->releases)))
        op_start(l, now); /* a full release queue stalls the next instruction */
    flush(l);
    l->tr_inflight = l->n_ops;
    l->tr_mshr_used = (uint16_t)cache_mshr_used(l->mshr);
    if (l->cur && !l->blocked && l->cur->next_txn < l->cur->n_txn)
        foresee_refusal(l);
    bool blocked = l->cur && l->blocked; /* waits for a response (LDST_MEM_RESP wakes it) */
    /* A refused load leaves the L1 and its MSHRs unchanged, and only a response (which wakes this
     * process) changes them: the cycles slept would each have been one more refusal. */
    if (blocked)
        blk_sleep_charge(l->inst, LDST_STAT_L1_RES_FAIL, 1);
    bool work = (l->cur && !blocked) || !blk_outq_empty(&l->reqs) || !blk_outq_empty(&l->releases) ||
                l->rel_wait->len || (!l->cur && gsc_fifo_can_get(pf(l, LDST_IN)) && l->busy_until <= now + 1);
    if (work) {
        gsc_run_within(1);
    } else {
        /* the next instruction's start or the next scheduled completion, whichever is first (a
         * shared-memory access whose bank conflicts keep the unit busy past an earlier access's
         * completion must not delay that completion) */
        uint64_t wake = !l->cur && gsc_fifo_can_get(pf(l, LDST_IN)) ? l->busy_until : UINT64_MAX;
        if (l->n_ready)
            wake = MIN(wake, l->ready[0].cycle);
        if (wake != UINT64_MAX)
            gsc_run_within(wake > now ? wake - now : 1);
        /* else: sleep until an instruction or a response arrives */
    }
}

/* The L1D's eviction hook: every listener bound to l1_evict, in binding order. */
static void ldst_on_evict(const cache_eviction *ev, void *ctx)
{
    ldst *l = ctx;
    for (unsigned i = 0; i < l->n_evict; i++)
        ((const l1_evict_if *)l->evict[i].methods)->evicted(l->evict[i].self, ev);
}

static void ldst_elaborate(void *self)
{
    ldst *l = self;
    l->evict = blk_import_all(l->inst, LDST_L1_EVICT, 0, &l->n_evict);
    l->access = blk_import_all(l->inst, LDST_L1_ACCESS, 0, &l->n_access);
    l->regs = blk_import_all(l->inst, LDST_REGS, 0, &l->n_regs);
    l->iu_reply = blk_import_all(l->inst, LDST_IU_REPLY, 0, &l->n_iu_reply);
    if (l->n_evict) /* (no hook at all without a listener: the baseline pays nothing) */
        cache_tags_set_evict_hook(l->l1, ldst_on_evict, l);
    gsc_process *p = gsc_process_new(l->inst->mod, "run", ldst_run, l);
    gsc_sensitive_fifo_put(p, pf(l, LDST_IN));
    gsc_sensitive_fifo_put(p, pf(l, LDST_MEM_RESP));
    gsc_sensitive_fifo_room(p, pf(l, LDST_MEM_REQ));
    gsc_sensitive_fifo_room(p, pf(l, LDST_RELEASE));
    if (l->n_iu_reply) { /* the SM plays an interface unit's role (no trace of it otherwise) */
        blk_trace_state(l->inst, "iu_inflight", GSC_U8, &l->tr_iu_inflight);
        l->iu_ev = gsc_event_new(l->inst->mod, "iu_request");
        gsc_sensitive_event(p, l->iu_ev);
    }
}

static bool iu_can_send(void *self)
{
    ldst *l = self;
    blk_call_note(l->probe[LDST_IU], 0, 0, 0);
    return !blk_outq_full(&l->reqs);
}

static void iu_send(void *self, const mem_req_t *q)
{
    ldst *l = self;
    blk_call_note(l->probe[LDST_IU], 1, (uint32_t)q->addr, 0);
    g_assert(l->iu_ev && !blk_outq_full(&l->reqs));
    mem_req_t *o = blk_outq_push(&l->reqs);
    memcpy(o, q, q->kind == MEM_READ ? offsetof(mem_req_t, data) : sizeof *q);
    o->src = (uint16_t)l->sm_id;
    o->client = MEM_CLIENT_IU;
    blk_stat_add(l->inst, LDST_STAT_IU_REQS, 1);
    l->tr_iu_inflight++;
    gsc_event_notify(l->iu_ev, 0); /* sent in this cycle's activation of the unit */
}

static const ldst_iu_if iu_table = {iu_can_send, iu_send};

ldst *ldst_new(blk_ctx *ctx, gsc_module *parent, const char *name, sm_env *env, unsigned sm_id)
{
    ldst *l = g_new0(ldst, 1);
    l->inst = blk_inst_new(ctx, parent, name, &ldst_desc);
    l->env = env;
    l->sm_id = sm_id;
    l->line = (unsigned)blk_param_uint(l->inst, "l1_line");
    cache_config cc = {(unsigned)blk_param_uint(l->inst, "l1_sets"),
                       (unsigned)blk_param_uint(l->inst, "l1_ways"), l->line,
                       blk_param_bool(l->inst, "l1_hashed") ? CACHE_INDEX_XOR : CACHE_INDEX_LINEAR};
    GError *err = NULL;
    l->l1 = cache_tags_new(&cc, &err);
    if (!l->l1)
        gsc_fatal("%s: %s", l->inst->path, err->message);
    l->mshr_entries = (unsigned)blk_param_uint(l->inst, "mshrs");
    l->mshr = cache_mshr_new(l->mshr_entries, (unsigned)blk_param_uint(l->inst, "mshr_merge"));
    l->const_line = (unsigned)blk_param_uint(l->inst, "const_line");
    cache_config ccc = {(unsigned)blk_param_uint(l->inst, "const_sets"),
                        (unsigned)blk_param_uint(l->inst, "const_ways"), l->const_line, CACHE_INDEX_LINEAR};
    l->cc = cache_tags_new(&ccc, &err);
    if (!l->cc)
        gsc_fatal("%s: constant cache: %s", l->inst->path, err->message);
    l->cc_mshr = cache_mshr_new((unsigned)blk_param_uint(l->inst, "const_mshrs"),
                                (unsigned)blk_param_uint(l->inst, "const_mshr_merge"));
    l->const_latency = (unsigned)blk_param_uint(l->inst, "const_latency");
    coalesce_smem_config_init(&l->smem);
    l->smem.banks = (unsigned)blk_param_uint(l->inst, "smem_banks");
    l->smem.bank_width = (unsigned)blk_param_uint(l->inst, "smem_bank_width");
    l->smem.broadcast = blk_param_bool(l->inst, "smem_broadcast");
    l->l1_latency = (unsigned)blk_param_uint(l->inst, "l1_latency");
    l->l1_off = !blk_param_bool(l->inst, "l1_enabled");
    l->smem_latency = (unsigned)blk_param_uint(l->inst, "smem_latency");
    l->param_latency = (unsigned)blk_param_uint(l->inst, "param_latency");
    l->ops = g_ptr_array_new();
    blk_outq_init(&l->reqs, l->inst, LDST_MEM_REQ, sizeof(mem_req_t), "miss_queue",
                  LDST_STAT_MISS_QUEUE_PEAK);
    blk_outq_init(&l->releases, l->inst, LDST_RELEASE, sizeof(release_t), "release_queue",
                  LDST_STAT_RELEASE_QUEUE_PEAK);
    l->rel_wait = g_ptr_array_new();
    blk_trace_state(l->inst, "inflight", GSC_U32, &l->tr_inflight);
    blk_trace_state(l->inst, "warp", GSC_U32, &l->tr_warp);
    blk_trace_state(l->inst, "hit", GSC_U8, &l->tr_hit);
    gsc_trace_var_strobe(l->inst->mod, "hit");
    blk_trace_state(l->inst, "const_hit", GSC_U8, &l->tr_const_hit);
    blk_trace_state(l->inst, "mshr_used", GSC_U16, &l->tr_mshr_used);
    blk_trace_state(l->inst, "coalesced", GSC_U8, &l->tr_coalesced);
    gsc_trace_var_strobe(l->inst->mod, "coalesced");
    blk_export(l->inst, LDST_IU, 0, &iu_table, l);
    blk_export_probes(l->inst, l->probe, LDST_IU + 1);
    blk_inst_on_elaborate(l->inst, ldst_elaborate, l);
    return l;
}

void ldst_set_slices(ldst *l, unsigned slices, unsigned lanes)
{
    g_assert(slices * lanes <= IR_WARP_SIZE);
    l->slices = slices;
    l->slice_lanes = lanes;
}

bool ldst_busy(const ldst *l)
{
    return l->n_ops > 0;
}

cache_tags *ldst_l1_tags(ldst *l)
{
    return l->l1;
}

const issued_t *ldst_current(const ldst *l, uint32_t *lanes)
{
    const ldst_op *op = l->cur;
    if (!op || op->next_txn >= op->n_txn)
        return NULL;
    if (lanes)
        *lanes = op->txn[op->next_txn].lanes;
    return &op->it;
}

void ldst_free(ldst *l)
{
    if (!l)
        return;
    g_free(l->evict);
    g_free(l->access);
    g_free(l->regs);
    g_free(l->iu_reply);
    for (guint i = 0; i < l->ops->len; i++) {
        ldst_op *op = g_ptr_array_index(l->ops, i);
        if (op)
            g_free(op->members);
        g_free(op);
    }
    g_ptr_array_free(l->ops, TRUE);
    for (ldst_op *op = l->free_ops, *next; op; op = next) {
        next = op->next_free;
        g_free(op->members);
        g_free(op);
    }
    blk_outq_clear(&l->reqs);
    blk_outq_clear(&l->releases);
    g_ptr_array_free(l->rel_wait, TRUE);
    g_free(l->ready);
    cache_tags_free(l->l1);
    cache_mshr_free(l->mshr);
    cache_tags_free(l->cc);
    cache_mshr_free(l->cc_mshr);
    g_free(l);
}
