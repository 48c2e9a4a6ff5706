/* rfpower.h — the `rfpower` block: register power states of an SM's register banks (sleep
 * transistors), for GREENER and the Sleep-Reg baseline (docs/greener.md).
 *
 * Each architectural register of each warp (one 32-lane x 32-bit entry of the register file) is ON,
 * SLEEP (drowsy: keeps its value) or OFF (power-gated: loses it). A passive block: it acts through
 * the SM's extension points, to which the testbench binds its exports:
 *   check   -> issue.check      a warp may issue only when every register its head reads or writes
 *                               is ON; otherwise a wake-up is sent (SLEEP->ON wake_sleep_cycles,
 *                               OFF->ON wake_off_cycles) and the warp waits (wakeup_stalls);
 *   decode  -> fetch.gate       decode puts each instruction into the warp's run-time lookup table
 *                               (lut_entries per warp, default 2); while the table is full the warp's
 *                               decode stalls (decode_stalls);
 *   issued  -> issue.issued     the instruction's entry is marked issued; its encoded states
 *                               (kernels/passes/greener.h, read once per static instruction) apply at
 *                               its register accesses below, and it leaves the table after the last;
 *   access  -> regfile.access   the operand collector's bank reads and write-backs: a source takes
 *                               its state after its read, a destination after its write-back;
 *   mem     -> ldst.regs        a memory instruction's registers: its address and data registers
 *                               when ldst takes it, its destinations when ldst releases it;
 *   value   -> issue.value      the values: a register turned OFF loses its value (a read poisons it
 *                               with REGVAL_POISON), a write gives it a value again; a CTA's start
 *                               and end allocate and free its warps' registers.
 * Before a SLEEP/OFF is applied, the lookup table is asked: another instruction (a different PC) of
 * the warp in the table that uses the register keeps it ON (lut_cancels). An instruction that writes
 * a physical register drops the pending accesses of older instructions to it (superseded).
 * Modes: baseline (every register ON: nothing is bound, only the leakage is counted), sleep_reg
 * (unallocated registers OFF, every access leaves SLEEP, never OFF), greener (the pass's encoding).
 * Leakage is integrated per state (register-cycles), transitions are energy events (docs/energy.md).
 */
#ifndef GPUSC_MODELS_SM_RFPOWER_H
#define GPUSC_MODELS_SM_RFPOWER_H

#include "models/core/block.h"
#include "models/sm/sm_env.h"

G_BEGIN_DECLS

typedef struct rfpower rfpower;

enum { RFPOWER_MODE_BASELINE, RFPOWER_MODE_SLEEP_REG, RFPOWER_MODE_GREENER };
enum {
    RFPOWER_STAT_CYCLES_ON,
    RFPOWER_STAT_CYCLES_SLEEP,
    RFPOWER_STAT_CYCLES_OFF,
    RFPOWER_STAT_TRANS_SLEEP,
    RFPOWER_STAT_TRANS_OFF,
    RFPOWER_STAT_WAKEUPS,
    RFPOWER_STAT_WAKEUP_STALLS,
    RFPOWER_STAT_LUT_CANCELS,
    RFPOWER_STAT_POISONED_READS,
    RFPOWER_STAT_LATE_WAKEUPS,
    RFPOWER_STAT_LUT_OVERFLOWS,
    RFPOWER_STAT_DECODE_STALLS,
    RFPOWER_STAT_SUPERSEDED,
    RFPOWER_STAT_COUNT
};

extern const blk_desc rfpower_desc;

/* One SM's register power states: `warps` warp slots, `units` warp-registers in its register file
 * (sm.registers / 32). */
rfpower *rfpower_new(blk_ctx *ctx, gsc_module *parent, const char *name, sm_env *env, unsigned warps,
                     unsigned units);
void rfpower_free(rfpower *p);
blk_inst *rfpower_inst(rfpower *p);
unsigned rfpower_mode(const rfpower *p);

/* Tests: register phys of warp's state (GREENER_OFF, _SLEEP, _ON); the entries of warp's lookup
 * table; both with every change made so far applied (those of the current cycle too). */
unsigned rfpower_state(rfpower *p, unsigned warp, unsigned phys);
unsigned rfpower_lut_count(rfpower *p, unsigned warp);

/* The storage GREENER adds to an SM, in bits, for `warps` warp slots and `regs` registers per thread
 * at most (register numbers of ceil(log2 regs) bits): the lookup table (§10.6), warps x entries x
 * (pc_bits + operands x ceil(log2 regs)): 64 warps, 2 entries, a 32-bit PC, 8 operands (4 sources,
 * 4 destinations), 64 registers: 10240 bits, 1280 bytes; the scoreboard that stores register
 * numbers (§10.4), 4 source numbers per warp: 4 x warps x ceil(log2 regs), 1536 bits, 192 bytes. */
uint64_t greener_lut_bits(unsigned warps, unsigned entries, unsigned pc_bits, unsigned operands,
                          unsigned regs);
uint64_t greener_sb_bits(unsigned warps, unsigned regs);
/* This block's figures: its warp slots, lut_entries (an unsized table, lut_entries=0, counts the
 * entries it keeps at most) and storage_regs (the spec's R = 64). */
void rfpower_storage_bits(const rfpower *p, unsigned pc_bits, unsigned operands, uint64_t *lut, uint64_t *sb);

/* Test hook: turn register `phys` of `warp` OFF now (its value is lost), as a wrong encoding would. */
void rfpower_force_off(rfpower *p, unsigned warp, unsigned phys, uint64_t now);

G_END_DECLS

#endif
