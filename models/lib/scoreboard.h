/* scoreboard.h — per-warp register reservations for in-order issue (CCWS/DAWS/VWS spec §2.1 "in-order
 * scoreboard"; GPGPU-Sim scoreboard).
 *
 *  - Destination reservations (always): issue reserves an instruction's destinations; write-back
 *    releases each. An instruction whose source or destination is reserved has a RAW or WAW hazard.
 *  - Source reservations (behind `source_reservations`, off by default; GREENER,
 *    resource-sharing/GREENER spec §10.4): issue also reserves the sources, released when the operand
 *    has been read; an instruction that writes a register still waiting to be read has a WAR hazard.
 *  - Long-latency marking: a reservation made with `long_op` (a global/local load) is remembered, so
 *    the issue stage can tell a stall on a long-latency result (two-level demotion) from a short one.
 * Reservations are counted, so several in-flight readers of one register are tracked.
 * This object belongs to the `issue` block: the check and the reservation happen in the same cycle.
 */
#ifndef GPUSC_MODELS_LIB_SCOREBOARD_H
#define GPUSC_MODELS_LIB_SCOREBOARD_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

G_BEGIN_DECLS

typedef enum {
    SCOREBOARD_CLEAR = 0,
    SCOREBOARD_RAW = 1u << 0,  /* a source has a pending write */
    SCOREBOARD_WAW = 1u << 1,  /* a destination has a pending write */
    SCOREBOARD_WAR = 1u << 2,  /* a destination has a pending read (source reservations only) */
    SCOREBOARD_LONG = 1u << 3, /* one of the pending writes involved is a long-latency one */
} scoreboard_hazard_bits;

typedef struct scoreboard scoreboard;

scoreboard *scoreboard_new(unsigned warps, unsigned regs, bool source_reservations);
void scoreboard_free(scoreboard *sb);
bool scoreboard_source_reservations(const scoreboard *sb);

/* Hazard bits of an instruction (sources srcs[0..nsrc), destinations dsts[0..ndst)) for `warp`. */
unsigned scoreboard_check(const scoreboard *sb, unsigned warp, const unsigned *srcs, unsigned nsrc,
                          const unsigned *dsts, unsigned ndst);
/* Reserves the destinations (and, with source reservations, the sources). */
void scoreboard_reserve(scoreboard *sb, unsigned warp, const unsigned *srcs, unsigned nsrc,
                        const unsigned *dsts, unsigned ndst, bool long_op);
/* long_op: the write being released was reserved as long-latency (the result came from a load). */
void scoreboard_release_write(scoreboard *sb, unsigned warp, unsigned reg, bool long_op);
void scoreboard_release_read(scoreboard *sb, unsigned warp, unsigned reg); /* g_assert a pending read */
unsigned scoreboard_pending_writes(const scoreboard *sb, unsigned warp, unsigned reg);
unsigned scoreboard_pending_reads(const scoreboard *sb, unsigned warp, unsigned reg);
bool scoreboard_warp_idle(const scoreboard *sb, unsigned warp); /* nothing reserved (a warp may exit) */
void scoreboard_clear_warp(scoreboard *sb, unsigned warp);      /* slot reuse by a new warp */
/* The warp's pending reservations. */
unsigned scoreboard_reserved(const scoreboard *sb, unsigned warp);

G_END_DECLS

#endif
