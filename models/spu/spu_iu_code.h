/* spu_iu_code.h — an SPU interface unit as a truncated SM running IU code (SPU spec §4.1;
 * docs/spu.md "Interface units running code").
 *
 * The IU code is PTX (kernels/spu/spu_iu.ptx, or any module given to tb-spu --iu-ptx), loaded into
 * the machine's memory image beside the kernel. An `spu_iu` given code (spu_iu_set_code) fetches and
 * executes its entry, one warp of 32 threads, on the functional runner's warp-step engine
 * (kernels/run/warp_step.h) instead of moving a plan of transfers. Only the IU's instruction subset
 * [S: §4.1, Table 5.2] is accepted, checked before the run (spu_iu_prog_check):
 *
 *   integer arithmetic (the integer ALU and the complex ALU: mul, div, rem; no floating-point type),
 *   branches and exit, loads from .param and .const (the constant cache), loads and stores of
 *   .global memory, ld.cb / st.cb of the unit's own CB, bar.blocksync (global, or toward its SM),
 *   the special registers.
 *
 * Anything else (floating-point or SFU arithmetic, shared, local or generic memory, atomics,
 * textures, calls, bar.sync, warp-level operations, a CB or blocksync direction the unit does not
 * have) is refused with `FILE:LINE: `instr`: ...`.
 *
 * Timing [A: the IU's pipeline is not given; the SM's scheduler with one warp]: one warp instruction
 * issues per cycle at most, in order; an instruction waits for the registers it reads or writes
 * (a scoreboard); ALU results are ready `code_alu_latency` cycles after issue; the unit's memory
 * port sends one 32-byte request per cycle (a warp's access: one request per 32-byte segment its
 * lanes touch), as the plan-driven unit; a global load's data is ready `mem_latency` cycles after
 * its last request (read from the memory image then), a CB load's the cycle after its last request;
 * stores are posted (the image and the CB are written at issue). Off-chip elements, CB requests and
 * blocksync rounds count as for the plan-driven unit; `instructions` counts the warp instructions.
 *
 * On the interconnect path (spu_iu.icnt_path) a global access becomes one request per line its lanes
 * touch (a store's with its bytes and mask), sent by the port one per cycle, at most
 * `max_outstanding` in flight; a load's registers are ready when its last reply arrives (the image is
 * read then); a blocksync (and the end of the code) waits until every request is answered;
 * `mem_wait_cycles` counts the cycles an instruction waited for replies or the port.
 *
 * Multipass: a unit runs a sequence of entries, one per pass it serves (spu_iu_set_code once per
 * pass, in order), each from a fresh warp with that pass's registers; between them it stays in the
 * barrier. In role mode (every unit under global sync with partial passes) each run is one role:
 * the runtime starts it (spu_iu_start_role), the unit idles when its warp exits (under
 * producer-consumer sync it leaves the barrier then). An SM standing in as an interface unit runs
 * its stand-in block's runs itself (spu_iu_code_run_at, spu_grid_sm_code). A run with %regviu set
 * is the runtime's VIU code: its global loads count as restores, its
 * stores as spills. ld.volatile / st.volatile of .global are the guard's counter words
 * (synchronisation, not element accesses); a volatile load issued again with no transfer in between
 * adds the cycles since the previous one to `guard_stall_cycles`.
 */
#ifndef GPUSC_MODELS_SPU_SPU_IU_CODE_H
#define GPUSC_MODELS_SPU_SPU_IU_CODE_H

#include "kernels/workloads/workload.h"
#include "models/spu/spu_iu.h"

G_BEGIN_DECLS

typedef struct spu_iu_prog spu_iu_prog;

/* Parses and loads the IU code of `path` into `mem` (its .global/.const data). NULL with a message. */
spu_iu_prog *spu_iu_prog_load(const char *path, fmem *mem, GString *err);
/* Is `entry` an entry of the program using only the IU's instruction subset, its CB accesses and
 * blocksyncs of the directions a unit of side `side` (spu_dir: the side of the grid it sits on) has
 * under `sync_dir` (0: the global blocksync; else toward its SM)? 0, or nonzero with the first
 * offending instruction as "FILE:LINE: `instr`: why" in err. */
int spu_iu_prog_check(const spu_iu_prog *p, const char *entry, unsigned side, unsigned sync_dir,
                      GString *err);
void spu_iu_prog_free(spu_iu_prog *p);
/* The functions of the program (entries and others). */
unsigned spu_iu_prog_n_funcs(const spu_iu_prog *p);

/* The unit runs `entry` of p (checked with spu_iu_prog_check first) with the kernel arguments `args`
 * and its SPU registers `sregs` (%regpassx .. %reglast, spu_isa.h order), synchronising as
 * sync_dir says; called again, after the entries given before (the next pass's role; the same
 * program, side and sync_dir). Before the run; 0, or nonzero with a message (arguments that do not
 * fit). */
int spu_iu_set_code(spu_iu *u, const spu_iu_prog *p, const char *entry, const wl_arg *args, unsigned n_args,
                    const uint32_t sregs[10], unsigned side, unsigned sync_dir, GString *err);
/* Role mode (spu_iu_set_roles): the unit's next role runs its next entry (spu_iu_start_role calls
 * it); the role ends when that entry's warp exits. */
void spu_iu_code_start_role(spu_iu *u);
/* Run n of a unit given code (in role mode its n-th role), for an SM that runs it instead (the SMs
 * standing in as interface units, spu_grid_sm_code): its entry's name, packed parameters and SPU
 * registers (%regpassx .. %reglast). False when the unit has no run n. */
bool spu_iu_code_run_at(const spu_iu *u, unsigned n, const char **entry, const uint8_t **kparam,
                        uint32_t *kparam_bytes, const uint32_t **sregs);
/* The code engine's step (spu_iu's process, for a unit with code). */
void spu_iu_code_run(spu_iu *u);
/* A reply on the interconnect path (from the unit's node, or an SM's role's through its SM). */
void spu_iu_code_reply(spu_iu *u, const mem_resp_t *r);
/* A blocksync released the unit. */
void spu_iu_code_release(spu_iu *u);
void spu_iu_code_free(spu_iu *u);

G_END_DECLS

#endif
