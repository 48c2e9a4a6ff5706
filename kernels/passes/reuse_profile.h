/* reuse_profile.h — the reuse-profile pass of the register-file cache (Malekeh; docs/rfcache.md):
 * a 1-bit near/far reuse-distance hint per register operand of each static instruction, by majority
 * over the dynamic instruction streams of the first warps of each kernel.
 *
 * Input: per profiled warp, its dynamic instruction stream as the register banks see it: (function,
 * pc, the 32-bit physical registers read, those written), in program order (rp_instr). The caller
 * decides which warps are profiled (the first `profile_warps` of each kernel launch) and where the
 * stream comes from (a functional pre-pass: the testbench's, over the register-allocated code).
 *
 * Distance (per warp, in dynamic instructions of that warp): a source operand's distance is the
 * index of the next instruction that reads the same register minus its own, provided nothing writes
 * the register in between (the instruction itself included: `add r1, r1, 1` ends its source's
 * value); a destination's is the index of the first read of the value it writes. A value written
 * again, or never read again, before any read is far. Near = distance <= rthld (12 [S]; equality is
 * near [A]). Each static operand (function, pc, source or destination, its index in the instruction's
 * register list) gets the majority label of its dynamic instances; a tie is far [A]; an operand never
 * seen is far.
 * Oracle mode keeps the exact bits of each dynamic instance instead: rp_oracle(warp, k) gives the
 * k-th dynamic instruction's source and destination masks.
 */
#ifndef GPUSC_KERNELS_REUSE_PROFILE_H
#define GPUSC_KERNELS_REUSE_PROFILE_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

G_BEGIN_DECLS

#define RP_MAX_REGS 16 /* registers per instruction and direction (as SM_MAX_BANK_READS) */

typedef struct rp_profile rp_profile;

rp_profile *rp_new(unsigned rthld);
void rp_free(rp_profile *p);
/* Append one dynamic instruction to warp `warp`'s stream (any key: a warp of a launch). */
void rp_instr(rp_profile *p, unsigned warp, uint32_t func, uint32_t pc, const uint16_t *src, unsigned n_src,
              const uint16_t *dst, unsigned n_dst);
/* Compute the distances of every stream given so far, add their votes, and forget the streams (the
 * oracle bits are kept); rp_instr may go on for other warps afterwards. */
void rp_finish(rp_profile *p);

/* The hints of a static instruction: bit i of *src (*dst) = the i-th source (destination) register is
 * near. False if the instruction was never profiled (both masks 0: far). */
bool rp_hints(const rp_profile *p, uint32_t func, uint32_t pc, uint32_t *src, uint32_t *dst);
/* Oracle: the exact bits of dynamic instruction k of warp (false: not recorded). */
bool rp_oracle(const rp_profile *p, unsigned warp, uint64_t k, uint32_t *src, uint32_t *dst);
/* Oracle: the function and pc of dynamic instruction k of warp (false: not recorded). */
bool rp_oracle_instr(const rp_profile *p, unsigned warp, uint64_t k, uint32_t *func, uint32_t *pc);
/* Votes: near and far dynamic instances over all operands (statistics). */
void rp_votes(const rp_profile *p, uint64_t *near, uint64_t *far);
unsigned rp_static_count(const rp_profile *p);
/* One line per profiled static instruction, sorted: "func F pc P src NF.. dst N." (N near, F far). */
void rp_print(const rp_profile *p, FILE *out, const char *(*func_name)(void *ctx, uint32_t func), void *ctx);

G_END_DECLS

#endif
