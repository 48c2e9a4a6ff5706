/* dram.h — timing core of one DRAM channel: a bounded request queue, a pluggable scheduler, a data
 * bus of fixed bandwidth and a fixed access latency; optionally banks with row buffers and GDDR
 * command timing (the FR-FCFS machine).
 *
 * Bus-only timing (`banked` false, the default): the channel serves one request at a time on its
 * data bus. When the bus is free at cycle c (dram_step), the scheduler picks a queued request that
 * arrived by c; it occupies the bus for B = ceil(bytes / bytes_per_cycle) cycles and its reply is
 * ready at c + B + latency. So N requests queued at cycle 0 complete at k * B + B + latency
 * (k = 0..N-1), and a lone request arriving at a completes at a + B + latency.
 *
 * Banked timing (`banked` true): every request maps to a bank and a row (dram_map_address). A bank
 * keeps its last row open (open-page). At most one request leaves the queue per cycle, and only for
 * a bank that is free (its previous request's column command has issued); the scheduler picks among
 * those. A request picked at c on bank k:
 *   row hit (k's open row):   column command at C = max(c, ACT_k + tRCD)
 *   row closed:               ACT at A = max(c, ACT_k + tRC, ACT_any + tRRD), C = A + tRCD
 *   row conflict (other row): PRE at P = max(c, ACT_k + tRAS, WEND_k + tWR),
 *                             ACT at A = max(P + tRP, ACT_k + tRC, ACT_any + tRRD), C = A + tRCD
 * a read's column command also waits for the channel's last write data + tCDLR, and every column
 * command waits until its data finds the bus free: C = max(C, bus_free - tCL). The data then occupies
 * the bus from D = C + tCL for B cycles (the bus serves requests in the order they left the queue),
 * and the reply is ready at D + B + latency. ACT_k: k's last activate, ACT_any: the channel's, WEND_k:
 * the end of k's last write data. Every timing is in the channel's cycles.
 */
#ifndef GPUSC_MODELS_LIB_DRAM_H
#define GPUSC_MODELS_LIB_DRAM_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

G_BEGIN_DECLS

/* GDDR command timing, in the channel's cycles (see above). */
typedef struct {
    unsigned tCL;   /* column command to data */
    unsigned tRP;   /* precharge to activate, same bank */
    unsigned tRC;   /* activate to activate, same bank */
    unsigned tRAS;  /* activate to precharge, same bank */
    unsigned tRCD;  /* activate to column command, same bank */
    unsigned tRRD;  /* activate to activate, any two banks of the channel */
    unsigned tWR;   /* end of write data to precharge, same bank */
    unsigned tCDLR; /* end of write data to a read's column command, the channel */
} dram_timing;

typedef struct {
    unsigned latency;         /* cycles from the end of the bus transfer to the reply */
    unsigned bytes_per_cycle; /* data bus bandwidth */
    unsigned queue_depth;     /* request queue entries; 0 = unbounded */
    unsigned banks;           /* >= 1 */
    unsigned row_bytes;       /* bytes per row per bank (power of two) */
    unsigned bank_bytes;      /* consecutive bytes in one bank before the next (power of two dividing
                                 row_bytes); 0 = row_bytes */
    bool banked;              /* banks, row buffers and `timing` (above); false: the bus only */
    dram_timing timing;
} dram_config;

/* Per-channel counters of the banked model (all zero when bus-only). */
typedef struct {
    uint64_t row_hits, row_misses; /* requests that found their row open / closed or another one open */
    uint64_t activates, precharges;
} dram_counts;

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
 * arrival <= cycle are passed (on a banked channel, only those whose bank is free), oldest first. */
typedef unsigned (*dram_sched_fn)(const dram_channel *ch, const dram_req *queue, unsigned n, uint64_t cycle,
                                  void *ctx);

dram_channel *dram_new(const dram_config *c);
void dram_free(dram_channel *ch);
void dram_set_scheduler(dram_channel *ch, dram_sched_fn fn, void *ctx); /* default: FCFS */
unsigned dram_sched_fcfs(const dram_channel *ch, const dram_req *queue, unsigned n, uint64_t cycle,
                         void *ctx);

/* FR-FCFS: the oldest request whose row is open in its bank, else the oldest (banked channels; on a
 * bus-only channel no row is open, so the oldest). */
unsigned dram_sched_frfcfs(const dram_channel *ch, const dram_req *queue, unsigned n, uint64_t cycle,
                           void *ctx);
/* The open row of `bank` (false: none, or a bus-only channel). */
bool dram_open_row(const dram_channel *ch, unsigned bank, uint64_t *row);
const dram_counts *dram_get_counts(const dram_channel *ch);
/* The first cycle the data bus is free (after the transfers already scheduled). */
uint64_t dram_bus_free(const dram_channel *ch);

/* Interleaved mapping: bank = (addr / bank_bytes) mod banks, row = addr / (row_bytes * banks); so
 * with bank_bytes = row_bytes consecutive rows go to consecutive banks, with a smaller bank_bytes
 * consecutive chunks of a row's bytes do. */
void dram_map_address(const dram_config *c, uint64_t addr, unsigned *bank, uint64_t *row);
unsigned dram_burst_cycles(const dram_config *c, unsigned bytes);

bool dram_can_push(const dram_channel *ch);
/* Queues a request arriving at `cycle` (g_assert(dram_can_push)). */
void dram_push(dram_channel *ch, uint64_t cycle, uint64_t addr, unsigned bytes, bool write, uint64_t tag);
/* Starts a request if the bus is free at `cycle`; returns true if one started. Call every cycle the
 * channel has work, or sleep until dram_next_event(). */
bool dram_step(dram_channel *ch, uint64_t cycle);
/* The earliest cycle a queued request can start (UINT64_MAX: none queued). */
uint64_t dram_next_start(const dram_channel *ch);
/* The earliest cycle something can happen (a queued request can start, or a reply is due);
 * UINT64_MAX when idle. */
uint64_t dram_next_event(const dram_channel *ch);
bool dram_pop_done(dram_channel *ch, uint64_t cycle, dram_req *out);
unsigned dram_queued(const dram_channel *ch);
unsigned dram_in_service(const dram_channel *ch);

G_END_DECLS

#endif
