/* tb_monitor.h — what a person watching a long testbench run sees: a progress line on the terminal
 * (cycles, warp instructions, CTAs done / total, simulated cycles per second, an ETA) and a time
 * series of per-interval statistics as CSV (--sample-every N: IPC, stall breakdown, L1D hit rate,
 * resident CTAs, DRAM requests, per SM, and any block's counters by glob). See docs/experiments.md.
 *
 * A launch runs in slices of cycles (gsc_run with a limit) while a monitor is on; the simulation is
 * the same as in one gsc_run, so the statistics are too. No monitor (NULL) when neither is asked for
 * or stdout is not a terminal without --progress: the launch is one gsc_run, as before. */
#ifndef GPUSC_TESTBENCH_TB_MONITOR_H
#define GPUSC_TESTBENCH_TB_MONITOR_H

#include <stdbool.h>
#include <stdint.h>

#include "models/core/cli.h"
#include "models/sm/cta_dispatch.h"
#include "models/topo/sm.h"

typedef struct tb_monitor tb_monitor;

/* progress: 1 always (--progress), 0 never (--no-progress), -1 when stdout is a terminal. samples:
 * the CSV path (NULL: no time series); every: cycles per sample; stats: comma-separated globs of
 * `instance.counter` names added as columns (NULL: none). NULL with *problem set (to free) on a bad
 * option; NULL with *problem NULL when there is nothing to do. */
tb_monitor *tb_monitor_new(cli_run *run, cta_dispatch *d, sm_topo **sms, unsigned n_sms, int progress,
                           const char *samples, uint64_t every, const char *stats, char **problem);
/* Run one launch of `kernel` to its end or to cycle `limit` (0: no limit). */
void tb_monitor_run(tb_monitor *mon, const char *kernel, uint64_t limit);
/* Close the CSV (the last partial interval was written at the end of the last launch). False with
 * *problem (when problem is not NULL) when the file could not be written. */
bool tb_monitor_free(tb_monitor *mon, char **problem);

#endif
