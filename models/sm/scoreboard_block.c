/* scoreboard_block.c — see scoreboard_block.h. */
#include "models/sm/scoreboard_block.h"

static const char *const sb_methods[] = {
    "check(warp, instruction) -> hazard bits (RAW, WAW, WAR, LONG)",
    "reserve(warp, instruction, long_op)",
    "release_write(warp, register, long_op)",
    "release_read(warp, register)   (source reservations: the operand was read)",
    "clear_warp(warp)",
    "pending_writes(warp, register), pending_reads(warp, register)",
    "source_reservations() -> bool",
    NULL,
};
const blk_iface scoreboard_iface = {
    "scoreboard", "register reservations of in-order issue", sb_methods, {"warp", "reg", "op"}, {8, 16, 3}};

static const blk_port_desc ports[] = {
    [SCOREBOARD_SB] = {"sb", GSC_IN, NULL, BLK_CHAN_EXPORT, NULL,
                       "the issue stage checks, reserves and releases registers (same cycle)",
                       &scoreboard_iface},
};

static const blk_param_desc params[] = {
    {"source_reservations", BLK_PARAM_BOOL, "false", NULL, NULL, NULL, "",
     "also reserve sources until read, a WAR hazard for later writes (GREENER) — off in the baseline"},
};

static const blk_stat_desc stats[] = {
    [SCOREBOARD_STAT_RESERVED] = {"reserved", BLK_STAT_COUNTER, "instructions",
                                  "instructions whose registers were reserved", NULL},
    [SCOREBOARD_STAT_RELEASED] = {"released", BLK_STAT_COUNTER, "registers",
                                  "destination reservations released", NULL},
    [SCOREBOARD_STAT_READ_RELEASED] = {"read_released", BLK_STAT_COUNTER, "registers",
                                       "source reservations released (source_reservations only)", NULL},
    [SCOREBOARD_STAT_HAZARDS] = {"hazards", BLK_STAT_COUNTER, "checks",
                                 "checks that found a hazard (an instruction waits until a release)", NULL},
};

static const blk_state_desc state[] = {
    {"pending", 12, "register writes pending, all warps"},
};

const blk_desc scoreboard_desc = {
    "scoreboard",
    "per-warp register reservations of in-order issue (RAW/WAW; WAR with source reservations)",
    "docs/baseline-design.md §2.2 scoreboard; CCWS/DAWS/VWS spec §2.1; resource-sharing/GREENER spec §10.4",
    ports,
    BLK_N(ports),
    params,
    BLK_N(params),
    stats,
    BLK_N(stats),
    state,
    BLK_N(state),
};

enum { OP_CHECK, OP_RESERVE, OP_RELEASE, OP_RELEASE_READ, OP_CLEAR };

/* The instruction's registers as the storage takes them. */
static unsigned regs_of(const decoded_t *h, unsigned *src, unsigned *dst, unsigned *ndst)
{
    for (unsigned i = 0; i < h->n_src; i++)
        src[i] = h->src[i];
    for (unsigned i = 0; i < h->n_dst; i++)
        dst[i] = h->dst[i];
    *ndst = h->n_dst;
    return h->n_src;
}

static unsigned sb_check(void *self, unsigned warp, const decoded_t *h)
{
    scoreboard_block *b = self;
    blk_call_note(b->probe, warp, h->pc, OP_CHECK);
    unsigned src[SM_MAX_OPERANDS], dst[IR_MAX_DST + 2], nd;
    unsigned ns = regs_of(h, src, dst, &nd);
    unsigned hz = scoreboard_check(b->sb, warp, src, ns, dst, nd);
    if (hz != SCOREBOARD_CLEAR)
        blk_stat_add(b->inst, SCOREBOARD_STAT_HAZARDS, 1);
    return hz;
}

static void sb_reserve(void *self, unsigned warp, const decoded_t *h, bool long_op)
{
    scoreboard_block *b = self;
    blk_call_note(b->probe, warp, h->pc, OP_RESERVE);
    unsigned src[SM_MAX_OPERANDS], dst[IR_MAX_DST + 2], nd;
    unsigned ns = regs_of(h, src, dst, &nd);
    scoreboard_reserve(b->sb, warp, src, ns, dst, nd, long_op);
    b->tr_pending += nd;
    blk_stat_add(b->inst, SCOREBOARD_STAT_RESERVED, 1);
}

static void sb_release_write(void *self, unsigned warp, unsigned reg, bool long_op)
{
    scoreboard_block *b = self;
    blk_call_note(b->probe, warp, reg, OP_RELEASE);
    scoreboard_release_write(b->sb, warp, reg, long_op);
    b->tr_pending--;
    blk_stat_add(b->inst, SCOREBOARD_STAT_RELEASED, 1);
}

static void sb_release_read(void *self, unsigned warp, unsigned reg)
{
    scoreboard_block *b = self;
    blk_call_note(b->probe, warp, reg, OP_RELEASE_READ);
    scoreboard_release_read(b->sb, warp, reg);
    blk_stat_add(b->inst, SCOREBOARD_STAT_READ_RELEASED, 1);
}

static void sb_clear_warp(void *self, unsigned warp)
{
    scoreboard_block *b = self;
    blk_call_note(b->probe, warp, 0, OP_CLEAR);
    if (!scoreboard_warp_idle(b->sb, warp)) /* the traced count loses the slot's pending writes */
        for (unsigned r = 0; r < b->regs; r++)
            b->tr_pending -= scoreboard_pending_writes(b->sb, warp, r);
    scoreboard_clear_warp(b->sb, warp);
}

static unsigned sb_pending_writes(void *self, unsigned warp, unsigned reg)
{
    return scoreboard_pending_writes(((scoreboard_block *)self)->sb, warp, reg);
}

static unsigned sb_pending_reads(void *self, unsigned warp, unsigned reg)
{
    return scoreboard_pending_reads(((scoreboard_block *)self)->sb, warp, reg);
}

static bool sb_source_reservations(void *self)
{
    return scoreboard_source_reservations(((scoreboard_block *)self)->sb);
}

static unsigned sb_reserved(void *self, unsigned warp)
{
    return scoreboard_reserved(((scoreboard_block *)self)->sb, warp);
}

static const scoreboard_if sb_table = {
    sb_check,          sb_reserve,       sb_release_write,       sb_release_read, sb_clear_warp,
    sb_pending_writes, sb_pending_reads, sb_source_reservations, sb_reserved};

scoreboard_block *scoreboard_block_new(blk_ctx *ctx, gsc_module *parent, const char *name, unsigned warps,
                                       unsigned regs)
{
    scoreboard_block *b = g_new0(scoreboard_block, 1);
    b->inst = blk_inst_new(ctx, parent, name, &scoreboard_desc);
    b->sb = scoreboard_new(warps, regs, blk_param_bool(b->inst, "source_reservations"));
    b->regs = regs;
    blk_export(b->inst, SCOREBOARD_SB, 0, &sb_table, b);
    b->probe = blk_export_probe(b->inst, SCOREBOARD_SB, 0);
    blk_trace_state(b->inst, "pending", GSC_U32, &b->tr_pending);
    return b;
}

void scoreboard_block_free(scoreboard_block *b)
{
    if (!b)
        return;
    scoreboard_free(b->sb);
    g_free(b);
}
