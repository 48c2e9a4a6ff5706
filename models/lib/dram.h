/* dram.h — timing core of one DRAM channel: a bounded request queue, a pluggable scheduler, a data
 * bus of fixed bandwidth and a fixed access latency.
 *
 * Timing: the channel serves one request at a time on its data bus. When the bus is free at cycle c
 * (dram_step), the scheduler picks a queued request that arrived by c; it occupies the bus for
 * B = ceil(bytes / bytes_per_cycle) cycles and its reply is ready at c + B + latency. So N requests
 * queued at cycle 0 complete at k * B + B + latency (k = 0..N-1), and a lone request arriving at a
 * completes at a + B + latency.
 *
 * Room for banks, row buffers and FR-FCFS (ccws-daws-vws.md §2.2, resource-sharing §13.1: GDDR3/5
 * timing, FR-FCFS): requests carry bank and row (filled by dram_map_address from the configured
 * geometry); the scheduler is a function pointer that sees the whole queue and the channel, so an
 * FR-FCFS scheduler can prefer row hits once per-bank open rows and tRCD/tRP/tCL timings are added.
 * FCFS (the oldest request) is the only scheduler now.
 */
#ifndef GPUSC_MODELS_LIB_DRAM_H
#define GPUSC_MODELS_LIB_DRAM_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

G_BEGIN_DECLS

typedef struct {
    unsigned latency;         /* cycles from the end of the bus transfer to the reply */
    unsigned bytes_per_cycle; /* data bus bandwidth */
    unsigned queue_depth;     /* request queue entries; 0 = unbounded */
    unsigned banks;           /* for address mapping (FR-FCFS later); >= 1 */
    unsigned row_bytes;       /* bytes per row per bank (power of two); for address mapping */
} dram_config;

typedef struct {
    uint64_t addr;
    unsigned bytes;
    bool write;
    uint64_t tag;     /* caller's id */
    uint64_t arrival; /* cycle it entered the queue (set by dram_push) */
    unsigned bank;    /* set by dram_push from the mapping */
    uint64_t row;
    uint64_t done; /* reply cycle (set when service starts) */
} dram_req;

typedef struct dram_channel dram_channel;

/* Picks the index (in queue[0..n)) of the next request to serve at `cycle`; only requests with
 * arrival <= cycle are passed. */
typedef unsigned (*dram_sched_fn)(const dram_channel *ch, const dram_req *queue, unsigned n, uint64_t cycle,
                                  void *ctx);

dram_channel *dram_new(const dram_config *c);
void dram_free(dram_channel *ch);
void dram_set_scheduler(dram_channel *ch, dram_sched_fn fn, void *ctx); /* default: FCFS */
unsigned dram_sched_fcfs(const dram_channel *ch, const dram_req *queue, unsigned n, uint64_t cycle,
                         void *ctx);

/* Row-interleaved mapping: consecutive rows of row_bytes go to consecutive banks. */
void dram_map_address(const dram_config *c, uint64_t addr, unsigned *bank, uint64_t *row);
unsigned dram_burst_cycles(const dram_config *c, unsigned bytes);

bool dram_can_push(const dram_channel *ch);
/* Queues a request arriving at `cycle` (g_assert(dram_can_push)). */
void dram_push(dram_channel *ch, uint64_t cycle, uint64_t addr, unsigned bytes, bool write, uint64_t tag);
/* Starts a request if the bus is free at `cycle`; returns true if one started. Call every cycle the
 * channel has work, or sleep until dram_next_event(). */
bool dram_step(dram_channel *ch, uint64_t cycle);
/* The earliest cycle something can happen (bus frees with work queued, or a reply is due);
 * UINT64_MAX when idle. */
uint64_t dram_next_event(const dram_channel *ch);
bool dram_pop_done(dram_channel *ch, uint64_t cycle, dram_req *out);
unsigned dram_queued(const dram_channel *ch);
unsigned dram_in_service(const dram_channel *ch);

G_END_DECLS

#endif
