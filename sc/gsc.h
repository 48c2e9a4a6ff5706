/* gsc.h — the C face of SystemC.
 *
 * A thin extern "C" API over the real Accellera SystemC kernel (sc/gsc.cc is the only C++ in the
 * tree). Models are written in C against this header; they never see a C++ type.
 *
 * Time model. One clock (the "core clock", created with gsc_clock_new) defines the cycle: cycle
 * k is the simulated time k * period. Every process activation happens at some cycle; within a
 * cycle the order of activations is unspecified, so blocks communicate only through channels
 * whose semantics do not depend on that order:
 *
 *   - a latch is a pipeline register: a value written in cycle N is read in cycle N+1 and after
 *     (until overwritten); a reader in cycle N still sees the previous value. gsc_latch_fresh()
 *     tells whether the value was written exactly in the previous cycle (a "valid" pulse).
 *   - a FIFO is bounded: an item put in cycle N can be got from cycle N+1; a slot freed by a get in
 *     cycle N can be refilled from cycle N+1. can_put/can_get/occupancy answer for the current
 *     cycle.
 *
 * Types. A channel carries one C struct, described by a gsc_type: a name, a size and a table of
 * fields (name, C type, offset, bit width). The table is declared once next to the struct (see
 * GSC_FIELD). Ports have a type too; binding a port to a channel of another type is an
 * elaboration error that names the port, the channel and both types.
 *
 * Errors. User-visible errors (binding, elaboration, SystemC error reports) end the program with
 * "gpusc: message" on stderr and exit status 1. Warnings and infos of SystemC go to GLib logging
 * (domain "systemc"; a SystemC warning is never fatal, even under g_test).
 *
 * Between runs. Outside a run (during elaboration, or after gsc_run* returned) gsc_cycle() is the
 * next cycle to execute; latch writes and FIFO puts/gets made there (a test harness driving
 * inputs) count as made at the end of the previous cycle, so the next cycle sees them. Reads there
 * see everything written so far.
 *
 * The semantics in full, the tracing details and the measured cost of an activation are in
 * docs/sc-api.md.
 */
#ifndef GPUSC_SC_GSC_H
#define GPUSC_SC_GSC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------------------------------------
 * Types of channels and ports
 * ------------------------------------------------------------------------------------------- */

typedef enum {
    GSC_BOOL, /* bool */
    GSC_U8,
    GSC_U16,
    GSC_U32,
    GSC_U64,
    GSC_I8,
    GSC_I16,
    GSC_I32,
    GSC_I64,
    GSC_F32,   /* traced as a VCD real */
    GSC_F64,   /* traced as a VCD real */
    GSC_OPAQUE /* bytes that are carried but never traced (e.g. 32 lanes of operand values) */
} gsc_ctype;

/* An enumeration: the names of the values 0 .. count-1 of a traced field or variable, which the
 * waveform views show instead of the numbers (GTKWave translate filter files written beside the
 * view; docs/framework.md). `name` names the filter file ("stall": <view>.stall.filter). */
typedef struct gsc_enum {
    const char *name;
    unsigned count;
    const char *(*name_of)(unsigned value);
} gsc_enum;

typedef struct {
    const char *name; /* field name; appears in the VCD as <channel>.<name> */
    gsc_ctype ctype;  /* C type of the member */
    size_t offset;    /* offsetof(struct, member) */
    unsigned width;   /* bits traced (1..64); 0 = the full width of ctype; ignored for OPAQUE/F32/F64 */
    size_t size;      /* sizeof the member (for OPAQUE; filled by GSC_FIELD) */
    const gsc_enum *enumeration; /* its values by name in the views, or NULL (GSC_FIELD_ENUM) */
} gsc_field;

typedef struct {
    const char *name;        /* type name used in error messages, e.g. "issue_packet" */
    size_t size;             /* sizeof(struct) */
    const gsc_field *fields; /* field table */
    unsigned n_fields;
    /* Optional (NULL: the whole item): the bytes of an item that carry information, a prefix of it.
     * A FIFO copies only those at put and at get, so a type whose large payload is used by some
     * kinds of items only (a request's write data) costs nothing for the others. The rest of an item
     * got from a FIFO is left as it was in the destination: a consumer must not read it. A traced
     * field beyond an item's prefix shows 0 in the waveform for that item. */
    size_t (*used)(const void *item);
    /* Optional, instead of `used`: the prefix looked up by one byte of the item (its kind, say), at
     * offset used_key, in used_by_key[0 .. n_used_by_key - 1]; a key beyond the table: the whole
     * item. The same rule as a `used` function whose answer depends on that byte only, without a
     * call per put and get. */
    size_t used_key;
    const size_t *used_by_key;
    unsigned n_used_by_key;
} gsc_type;

/* A field of struct S, member M, of C type CT traced on W bits. */
/* clang-format off: clang-format 14 breaks a braced initializer in a macro over four lines */
#define GSC_FIELD(S, M, CT, W)                                                                               \
    {                                                                                                        \
#M, CT, offsetof(S, M), W, sizeof(((S *)0)->M), NULL                                                 \
    }
/* The same, shown by the names of the gsc_enum E. */
#define GSC_FIELD_ENUM(S, M, CT, W, E)                                                                       \
    {                                                                                                        \
#M, CT, offsetof(S, M), W, sizeof(((S *)0)->M), &(E)                                                 \
    }
/* Declare the gsc_type of a struct from its field table: GSC_TYPE(issue_packet, issue_packet_fields) */
#define GSC_TYPE(S, FIELDS) GSC_TYPE_USED(S, FIELDS, NULL)
/* The same with a gsc_type.used function: GSC_TYPE_USED(mem_req_t, mem_req_fields, mem_req_used) */
#define GSC_TYPE_USED(S, FIELDS, USED)                                                                       \
    {                                                                                                        \
#S, sizeof(S), FIELDS, (unsigned)(sizeof(FIELDS) / sizeof((FIELDS)[0])), USED, 0, NULL, 0            \
    }
/* The same with the prefix looked up by the one-byte member KEY in the size_t array TABLE:
 * GSC_TYPE_USED_BY_KEY(mem_req_t, mem_req_fields, kind, mem_req_used_by_kind) */
#define GSC_TYPE_USED_BY_KEY(S, FIELDS, KEY, TABLE)                                                          \
    {                                                                                                        \
#S, sizeof(S), FIELDS, (unsigned)(sizeof(FIELDS) / sizeof((FIELDS)[0])), NULL, offsetof(S, KEY),     \
            TABLE, (unsigned)(sizeof(TABLE) / sizeof((TABLE)[0]))                                            \
    }
/* clang-format on */

/* ---------------------------------------------------------------------------------------------
 * Simulation control
 * ------------------------------------------------------------------------------------------- */

typedef struct gsc_module gsc_module;
typedef struct gsc_clock gsc_clock;
typedef struct gsc_event gsc_event;
typedef struct gsc_process gsc_process;
typedef struct gsc_latch gsc_latch;
typedef struct gsc_fifo gsc_fifo;
typedef struct gsc_port gsc_port;

/* Initialise the kernel for a program. Call once, before anything else. argv[0] is kept for
 * messages. Routes SystemC reports to GLib logging and errors to gsc_fatal. */
void gsc_init(const char *program_name);

/* End of elaboration: checks that every port is bound (error otherwise), creates the processes,
 * opens traces. Called implicitly by the first gsc_run* if not called before. */
void gsc_elaborate(void);

/* Run for n cycles of the core clock (from the current cycle). Returns the cycle reached: the next
 * cycle to execute, i.e. the number of cycles executed since the start (gsc_run_cycles(10) from
 * the start runs cycles 0..9 and returns 10). A gsc_stop() ends it early too. */
uint64_t gsc_run_cycles(uint64_t n);
/* Run until gsc_stop() is called from a process or no activity remains; at most max_cycles
 * (0 = no limit). Returns the cycle reached (as gsc_run_cycles). "No activity" means no process
 * is statically sensitive to the clock and no notification (event, next_trigger, latch/FIFO
 * sensitivity) is pending: a system with a clocked process runs until gsc_stop or max_cycles. */
uint64_t gsc_run(uint64_t max_cycles);
/* Called from a process: the run ends after every activation of the current cycle (the cycle
 * completes; the run returns the next cycle). A later gsc_run* goes on from there. */
void gsc_stop(void);
/* True when the last run ended through gsc_stop() (cleared when the next run starts). */
bool gsc_stopped(void);
/* The current cycle of the core clock (0 during elaboration; between runs, the next cycle to
 * execute). Cheap: meant for the hot path. */
uint64_t gsc_cycle_slow(void);
/* What the inline queries below read; sc/ keeps it, nothing else may write it. Inside a process
 * activation `cycle` is the current cycle (set by the process's trampoline). */
typedef struct {
    bool in_process;
    /* Some pulse is traced (gsc_trace_elaborate selected one): until then gsc_pulse_traced answers
     * from here, without reading the pulse (a line per probe a block calls, in every cycle). */
    bool pulses_traced;
    bool prefetch; /* prefetching the next activation is on (gsc_prefetch_active) */
    uint64_t cycle;
} gsc_hot_state;
extern gsc_hot_state gsc_hot;
static inline uint64_t gsc_cycle(void)
{
    return gsc_hot.in_process ? gsc_hot.cycle : gsc_cycle_slow();
}
/* The current simulated time in picoseconds (the kernel resolution is 1 ps). Cycle k is at time
 * k * period; between runs the time is just below the next cycle's. */
uint64_t gsc_time_ps(void);
/* Number of process activations so far (for benchmarks). */
uint64_t gsc_activations(void);

/* Check modes (docs/sc-api.md, "Check modes"): two ways of running a model that must give the same
 * results as the normal run when its blocks sleep correctly and do not depend on the order of the
 * activations of a cycle.
 *   - GSC_CHECK_AWAKE: every process also runs in every cycle (a dynamic wait included), as if each
 *     wake-up it asked for had been asked for every cycle; a block that sleeps through work it has
 *     does that work earlier, and its results move.
 *   - GSC_CHECK_SHUFFLE: the wake-ups of each cycle fire in a seeded random order (and the processes
 *     are created in one), so the processes of a cycle run in another order.
 * The environment variable GPUSC_CHECK (read by gsc_init and gsc_reset) selects one: "off", "awake",
 * "shuffle" or "shuffle:SEED" (default seed 1). */
typedef enum { GSC_CHECK_OFF, GSC_CHECK_AWAKE, GSC_CHECK_SHUFFLE } gsc_check_mode;
/* Parse one of the spellings above; false (and nothing set) if text is none of them. */
bool gsc_check_parse(const char *text, gsc_check_mode *mode, uint64_t *seed);
/* Select the mode (elaboration only, before gsc_elaborate). */
void gsc_set_check(gsc_check_mode mode, uint64_t seed);
gsc_check_mode gsc_check(void);

/* Host memory (docs/sc-api.md, "Host memory"): the simulator's state, not the model's. A machine of
 * many SMs keeps tens of MiB of state that every cycle walks through; in the host's 4 KiB pages that
 * is more pages than its TLB holds. At the start of every run the kernel asks the host to back its
 * anonymous memory (the malloc heap and malloc's own mappings) with 2 MiB pages (Linux transparent
 * huge pages: madvise MADV_HUGEPAGE, then MADV_COLLAPSE). Results never depend on it.
 *   - GSC_HUGE_AUTO (default): only when that memory is at least GSC_HUGE_AUTO_MIN bytes;
 *   - GSC_HUGE_ON: whatever its size; GSC_HUGE_OFF: never.
 * The environment variable GPUSC_HUGEPAGES (read by gsc_init and gsc_reset) selects one: "auto",
 * "on" or "off"; any other value is a fatal error. With GPUSC_HUGEPAGES_REPORT set, a run start that
 * asks prints one line on stderr: the memory in use, how much of it is in 2 MiB pages, any refusal. */
typedef enum { GSC_HUGE_AUTO, GSC_HUGE_ON, GSC_HUGE_OFF } gsc_huge_mode;
#define GSC_HUGE_AUTO_MIN (8u << 20)
/* The first run start that asks sets malloc's M_MMAP_THRESHOLD (its largest) and M_TOP_PAD to these
 * (and no trimming), so that what a run allocates falls in the part of the heap it advised. */
#define GSC_HUGE_MMAP_THRESHOLD (32u << 20)
#define GSC_HUGE_TOP_PAD (64u << 20)
typedef struct {
    uint64_t eligible;  /* bytes malloc holds in use (what the auto mode compares) */
    uint64_t collapsed; /* bytes of the advised memory the host maps with 2 MiB pages (read when
                         * gsc_huge_last is called) */
    int err;            /* 0, or the errno of the first madvise the host refused (EINVAL: no such
                         * advice); ENOSYS: not asked, malloc is not the C library's (a sanitizer) */
    bool done;          /* the last run start asked the host (false: off, or auto below its size) */
} gsc_huge_report;
bool gsc_huge_parse(const char *text, gsc_huge_mode *mode);
/* Select the mode (any time; takes effect at the next run start). */
void gsc_set_huge(gsc_huge_mode mode);
gsc_huge_mode gsc_huge(void);
/* What the last run start did (all zero before the first). */
gsc_huge_report gsc_huge_last(void);

/* Prefetching the next activation (docs/sc-api.md, "Prefetching the next activation"): the
 * simulator's speed, not the model's. In a machine whose state is larger than the host's caches an
 * activation starts by missing the lines of its process's records, its block's first lines and the
 * channels it listens to. The kernel learns which process ran after each one in the last cycle of the
 * same parity (a cycle's order of activations repeats every other cycle) and, as an activation
 * starts, asks the host to prefetch the lines the next one will start with (GSC_HOT_LINES of them:
 * its kernel process object, its context's first lines, the channels it listens to) and the records
 * of the one after it. Results never depend on it.
 *   - GSC_PREFETCH_AUTO (default): on when the simulation has GSC_PREFETCH_AUTO_PROCESSES processes
 *     or more (a machine whose cycles stay in the host's caches pays nothing: the prefetches cost
 *     about 50 instructions per activation);
 *   - GSC_PREFETCH_ON, GSC_PREFETCH_OFF.
 * GPUSC_PREFETCH (read by gsc_init and gsc_reset): "auto", "on" or "off"; any other value is a fatal
 * error. */
typedef enum { GSC_PREFETCH_AUTO, GSC_PREFETCH_ON, GSC_PREFETCH_OFF } gsc_prefetch_mode;
#define GSC_HOT_LINES 12
#define GSC_PREFETCH_AUTO_PROCESSES 200
bool gsc_prefetch_parse(const char *text, gsc_prefetch_mode *mode);
/* Select the mode (any time; takes effect at the next run start). */
void gsc_set_prefetch(gsc_prefetch_mode mode);
gsc_prefetch_mode gsc_prefetch(void);
/* Whether the last run start turned prefetching on. */
bool gsc_prefetch_active(void);
/* Activations, while prefetching was on, whose process was the one learned to come next: how often
 * the learned order was right (gsc_activations() counts them all). */
uint64_t gsc_prefetch_hits(void);
/* Inside an activation: the line at `addr` is among those the process's next activation will read
 * early (a block's guess: the registers of the warp it expects to issue next, say); prefetched with
 * its context's lines. At most GSC_NEXT_LINES per activation (those beyond are ignored); each
 * activation starts with none. Costs one test when prefetching is off. */
#define GSC_NEXT_LINES 8
void gsc_prefetch_next_slow(const void *addr);
static inline void gsc_prefetch_next(const void *addr)
{
    if (gsc_hot.prefetch)
        gsc_prefetch_next_slow(addr);
}

/* The lane (docs/sc-api.md, "The lane"): the simulator's speed, not the model's. Every process that
 * is not clocked is run by the kernel layer's own runner when its wake-up (its channels' puts and
 * gets, its events, gsc_run_within, the next cycle) fires, in the same evaluation phase the
 * kernel's scheduler would have run it, one kernel activation per batch instead of per process.
 * A dynamic wait on the kernel (gsc_next_trigger_event, gsc_next_trigger_cycles(n > 1), ..._or_cycles)
 * still goes through the kernel. Off in the check modes (they check sleep and order through the
 * kernel's scheduling). GPUSC_LANE (read by gsc_init and gsc_reset): "on" (or "auto", the default)
 * or "off"; any other value is a fatal error. */
/* On (true, the default) or off; elaboration only. */
void gsc_set_lane(bool on);
/* Whether the elaboration made laned processes. */
bool gsc_lane_active(void);
/* Activations run by the lane so far (gsc_activations() counts every activation). */
uint64_t gsc_lane_activations(void);

/* Print "gpusc: <message>" on stderr and exit(1). For user errors found during a run. */
void gsc_fatal(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));

/* Reset the whole kernel (a new simulation context) so that a test can build several systems in
 * one process. Invalidates every handle; closes the trace file. Not from inside a run. SystemC 2.3
 * has no reset of its own: the kernel's global context is replaced by a fresh one and the old one,
 * with everything in it, is leaked (fine for tests, not for a loop of thousands). A test that
 * expects a fatal error still needs its own process (g_test_trap_subprocess). */
void gsc_reset(void);

/* ---------------------------------------------------------------------------------------------
 * Modules (the hierarchy) and clocks
 * ------------------------------------------------------------------------------------------- */

/* A module named `name` under `parent` (NULL: top level). Its full name is the dotted path
 * ("gpu.sm3.issue0"). Only during elaboration (SystemC reports an error otherwise). */
gsc_module *gsc_module_new(gsc_module *parent, const char *name);
const char *gsc_module_name(const gsc_module *m);     /* full dotted name */
const char *gsc_module_basename(const gsc_module *m); /* last component */
gsc_module *gsc_module_parent(const gsc_module *m);

/* The core clock: period in picoseconds (e.g. 1000 = 1 GHz; at least 2). Exactly one core clock
 * per simulation; cycle numbers count its rising edges, the first at cycle 0 (time 0). */
gsc_clock *gsc_clock_new(const char *name, uint64_t period_ps);
uint64_t gsc_clock_period_ps(const gsc_clock *c);
/* The core clock's period in picoseconds (0 before gsc_clock_new). */
uint64_t gsc_core_period_ps(void);

/* ---------------------------------------------------------------------------------------------
 * Processes (SC_METHOD with a C callback)
 * ------------------------------------------------------------------------------------------- */

typedef void (*gsc_process_fn)(void *ctx);

/* Create a method process `name` in module m calling fn(ctx). Sensitivity is added with the
 * calls below before elaboration ends. By default a process does not run at time 0 unless it is
 * sensitive to the clock (dont_initialize semantics); gsc_process_initialize() makes it run once
 * at cycle 0 (a clocked process runs once at cycle 0 either way). The SystemC process is spawned
 * by gsc_elaborate. */
gsc_process *gsc_process_new(gsc_module *m, const char *name, gsc_process_fn fn, void *ctx);
void gsc_process_initialize(gsc_process *p);
/* Static sensitivity. */
void gsc_sensitive_clock(gsc_process *p, gsc_clock *c); /* every rising edge */
void gsc_sensitive_event(gsc_process *p, gsc_event *e);
void gsc_sensitive_latch(gsc_process *p,
                         gsc_latch *l); /* runs in the cycle after a write that changed the value */
void gsc_sensitive_fifo_put(gsc_process *p, gsc_fifo *f); /* runs in the cycle after an item was put */
void gsc_sensitive_fifo_get(gsc_process *p, gsc_fifo *f); /* runs in the cycle after an item was got */
/* Back-pressure only: runs in the first cycle a put to f can succeed after gsc_fifo_can_put(f)
 * answered false (the cycle after the get that made room, or after the get in the refusal's own
 * cycle). Unlike gsc_sensitive_fifo_get, gets that nobody was waiting for wake nobody: for a producer
 * that gets nothing from its consumer's gets except room. */
void gsc_sensitive_fifo_room(gsc_process *p, gsc_fifo *f);

/* Elaboration only: an arrival hook on f. fn(ctx) runs at the start of every cycle in which items
 * put in the cycle before become gettable, before any process of that cycle runs (from the
 * wake-up calendar, not as a process activation). It is for a consumer whose only work on an
 * arrival is to take it into its own state (a latency queue stamping its ready cycle): the hook
 * does that without waking the consumer's process. It may get from f, change its block's own
 * state and notify events (gsc_event_notify); what only a process may call (gsc_next_trigger_*,
 * gsc_run_within) is a fatal error there. gsc_cycle() is the arrival cycle. At most one hook per
 * FIFO. */
void gsc_fifo_on_arrival(gsc_fifo *f, gsc_process_fn fn, void *ctx);

/* Dynamic sensitivity, from inside a running process: the next activation is at the given
 * event only, or n cycles from now only (n >= 1), instead of the static sensitivity. Calling
 * neither keeps the static sensitivity. */
void gsc_next_trigger_event(gsc_event *e);
void gsc_next_trigger_cycles(uint64_t n);
/* n cycles from now or the event, whichever is first. */
void gsc_next_trigger_event_or_cycles(gsc_event *e, uint64_t n);
/* From inside a running process: run again n cycles from now (n >= 1) at the latest. Unlike the
 * next_trigger calls above, the static sensitivity stays: a put, get or event wakes the process
 * earlier, and every activation cancels the pending one (each run says again when it needs the next).
 * What a block uses to sleep until its next due work while its inputs can still arrive. (n = 1 waits
 * on the kernel's shared next-cycle event, with next_trigger: only a delta notification in the same
 * cycle, gsc_event_notify(e, 0), would be missed, and no block makes one.) */
void gsc_run_within(uint64_t n);

/* From inside a running process: the earliest cycle after the current one at which a timed
 * notification is pending for anything but the calling process (another process's
 * gsc_next_trigger_cycles or gsc_run_within, an event's gsc_event_notify with a delay); UINT64_MAX
 * when none. Clocked processes do not count (they run in every cycle whatever happens). For a
 * watchdog that must tell a deadlock from a slow but live machine; scans the calendar (not for the
 * hot path). */
uint64_t gsc_next_scheduled(void);

/* ---------------------------------------------------------------------------------------------
 * Events
 * ------------------------------------------------------------------------------------------- */

gsc_event *gsc_event_new(gsc_module *m, const char *name);
/* Fire the event `cycles` cycles from now (0: later in the current cycle — processes woken by it
 * run in this same cycle, after the current one returns). An earlier pending notification wins,
 * as in SystemC. */
void gsc_event_notify(gsc_event *e, uint64_t cycles);
void gsc_event_cancel(gsc_event *e);

/* ---------------------------------------------------------------------------------------------
 * Channels: latches and FIFOs
 * ------------------------------------------------------------------------------------------- */

/* Latches, FIFOs, ports and traced variables are named <module full name>.<name>; the name must be
 * new (not another latch, FIFO, port, traced variable or kernel object): gsc_fatal otherwise. */

/* A latch (pipeline register) holding one value of `type`, initially all zero bytes. */
gsc_latch *gsc_latch_new(gsc_module *m, const char *name, const gsc_type *type);
/* Write in cycle N; visible to readers from cycle N+1. Writing twice in a cycle keeps the last. */
void gsc_latch_write(gsc_latch *l, const void *value);
/* The value visible in the current cycle (written in an earlier cycle). Valid until the next
 * write in a later cycle. */
const void *gsc_latch_read(const gsc_latch *l);
/* True when the visible value was written in exactly the previous cycle. */
bool gsc_latch_fresh(const gsc_latch *l);
const gsc_type *gsc_latch_type(const gsc_latch *l);
const char *gsc_latch_name(const gsc_latch *l);

/* A bounded FIFO of `depth` items of `type`. */
gsc_fifo *gsc_fifo_new(gsc_module *m, const char *name, const gsc_type *type, unsigned depth);
/* The first members of every FIFO, read by the inline queries below; sc/ keeps them, nothing else
 * may write them. */
typedef struct {
    /* The ring: depth slots of `stride` bytes, each the cycle its item was put in (an int64_t) and
     * the item after it (8-byte aligned), so that a put or a get finds the two on one cache line. */
    unsigned char *ring;
    unsigned head, n; /* n: the occupancy */
    unsigned depth;
    unsigned freed_n; /* slots freed by gets in cycle freed_at */
    int64_t freed_at;
    unsigned stride;
    /* (sc/ only) The bytes a put or a get copies: the item's size when its type has no used prefix
     * (gsc_type.used, used_by_key) and is below 64 KB, else 0 (the prefix is looked up); what more
     * than waking one listener a put or a get has to do; a refused can_put not yet answered by a get. */
    uint16_t copy;
    uint8_t rare;
    bool refused;
} gsc_fifo_hdr;
/* The put cycle of slot i. */
static inline int64_t gsc_fifo_hdr_stamp(const gsc_fifo_hdr *h, unsigned i)
{
    int64_t s;
    memcpy(&s, h->ring + (size_t)i * h->stride, sizeof s);
    return s;
}
bool gsc_fifo_can_put_slow(const gsc_fifo *f);
bool gsc_fifo_can_get_slow(const gsc_fifo *f);
/* Room for a put in this cycle (slots freed by gets in this cycle count from the next). Inline for
 * the common answer; the rest (which also notes a refusal for room listeners) is out of line. */
static inline bool gsc_fifo_can_put(const gsc_fifo *f)
{
    const gsc_fifo_hdr *h = (const gsc_fifo_hdr *)(const void *)f;
    return h->n + h->freed_n < h->depth || gsc_fifo_can_put_slow(f);
}
void gsc_fifo_put(gsc_fifo *f, const void *item); /* gsc_fatal if !can_put (a model bug) */
/* A put in place, without the copy: gsc_fifo_put_slot answers the ring slot the next put fills (gsc_fatal
 * if !can_put); the producer writes the item there, then gsc_fifo_put_commit makes it the FIFO's newest
 * item, as gsc_fifo_put would have (stamp, trace, wake-ups). The slot holds an earlier item's bytes:
 * write all of the item's used prefix (gsc_type.used), the key first when the prefix depends on it. No
 * other put on f in between; a commit without its open slot is fatal. */
void *gsc_fifo_put_slot(gsc_fifo *f);
void gsc_fifo_put_commit(gsc_fifo *f);
/* An item put in an earlier cycle is there. Inline: polling FIFOs, most of them empty, costs no call. */
static inline bool gsc_fifo_can_get(const gsc_fifo *f)
{
    const gsc_fifo_hdr *h = (const gsc_fifo_hdr *)(const void *)f;
    if (!h->n)
        return false;
    if (gsc_hot.in_process)
        return gsc_fifo_hdr_stamp(h, h->head) < (int64_t)gsc_hot.cycle;
    return gsc_fifo_can_get_slow(f);
}
const void *gsc_fifo_peek(const gsc_fifo *f);   /* the head, or NULL if !can_get; valid until its get */
void gsc_fifo_get(gsc_fifo *f, void *item_out); /* item_out may be NULL; gsc_fatal if !can_get */
/* A get without the copy: the head item, in its ring slot, valid until the next put to f (or
 * gsc_fifo_put_slot: the producer's, in a later activation; a consumer copies what it keeps before it returns). Only the
 * used prefix of an item (gsc_type.used) is meaningful there. gsc_fatal if !can_get. */
const void *gsc_fifo_take(gsc_fifo *f);
unsigned gsc_fifo_occupancy(const gsc_fifo *f); /* items stored (including those put this cycle) */
unsigned gsc_fifo_depth(const gsc_fifo *f);
/* The puts that can succeed in this cycle (as gsc_fifo_can_put counts: slots freed by gets in this
 * cycle count from the next), whatever the order of the cycle's activations. */
unsigned gsc_fifo_room(const gsc_fifo *f);
const char *gsc_fifo_name(const gsc_fifo *f);

/* ---------------------------------------------------------------------------------------------
 * Ports: typed, bound to a channel at elaboration
 * ------------------------------------------------------------------------------------------- */

typedef enum { GSC_IN, GSC_OUT } gsc_dir;
/* The kind of channel a port is for. */
typedef enum {
    GSC_CHAN_ANY, /* either (the default of gsc_port_new) */
    GSC_CHAN_LATCH,
    GSC_CHAN_FIFO
} gsc_chan_kind;

gsc_port *gsc_port_new(gsc_module *m, const char *name, gsc_dir dir, const gsc_type *type);
/* Declare the kind of channel p must be bound to (before binding; block ports get it from their
 * descriptor). Binding it to the other kind is then a fatal error naming the port, the channel and
 * the kind expected. */
void gsc_port_set_kind(gsc_port *p, gsc_chan_kind kind);
/* Bind to a latch or a FIFO. Fatal errors, each naming the port and the channel: a type mismatch
 * (with both types), the other kind than gsc_port_set_kind declared, a port already bound, and a
 * second writer: a latch takes at most one out port (any number of in ports), a FIFO at most one
 * out port and one in port (with two, the order of their puts or gets within a cycle would decide
 * the result). A port left unbound is reported by gsc_elaborate. */
void gsc_port_bind_latch(gsc_port *p, gsc_latch *l);
void gsc_port_bind_fifo(gsc_port *p, gsc_fifo *f);
const char *gsc_port_name(const gsc_port *p); /* full dotted name */
gsc_dir gsc_port_dir(const gsc_port *p);
bool gsc_port_bound(const gsc_port *p);
/* The bound channel; NULL if the port is not bound (yet); a fatal error naming the port and its
 * channel if it is bound to the other kind. */
gsc_latch *gsc_port_latch(const gsc_port *p);
gsc_fifo *gsc_port_fifo(const gsc_port *p);

/* Port access to a latch, for blocks that keep port handles: gsc_in_read/gsc_in_fresh on an in
 * port, gsc_out_write on an out port, the port bound to a latch; anything else (the other
 * direction, a FIFO, an unbound port) is a fatal error naming the port. Otherwise equivalent to
 * the latch calls above. */
const void *gsc_in_read(const gsc_port *p);
bool gsc_in_fresh(const gsc_port *p);
void gsc_out_write(const gsc_port *p, const void *v);

/* ---------------------------------------------------------------------------------------------
 * VCD tracing
 * ------------------------------------------------------------------------------------------- */

/* Open a VCD trace file (path without or with ".vcd"). Must be called during elaboration. Only
 * objects whose full name matches one of the glob patterns (comma separated, e.g. "sm0.*,gpu.l2*";
 * NULL or "*" = everything) are traced. from_cycle/to_cycle bound the traced window (to_cycle 0 =
 * to the end).
 *
 * - Matching (g_pattern_match_simple, '*' also matches dots): a signal is traced when its full name
 *   matches a pattern, or one of its dotted prefixes does ("tb.sm0" and "tb.sm0.*" both select
 *   "tb.sm0.fetch.out.pc"). A pattern may leave out leading components: it is also tried against the
 *   name from each component on ("sm0.*" and "fetch.out.p*" select "tb.sm0.fetch.out.pc").
 * - Names: the VCD scopes are the dotted components (scope tb, sm0, fetch, out; var pc), with no
 *   extra root scope, so GTKWave shows "tb.sm0.fetch.out.pc" (a multi-bit var is "pc[11:0]").
 * - Timescale 1 ps: cycle k is at #(k * period_ps). A value written in cycle k shows at cycle k.
 * - Window (inclusive): the file is created when the run reaches from_cycle (its $dumpvars holds
 *   the state before the window, stamped #(from_cycle * period)) and closed once to_cycle has run;
 *   no change is recorded outside.
 * - Reproducible: at close the $date is set to a fixed date, so identical runs give identical
 *   files. One trace file per simulation. */
void gsc_trace_open(const char *path, const char *patterns, uint64_t from_cycle, uint64_t to_cycle);
/* Write FST instead of VCD (before gsc_trace_open): the path ends in ".fst" (added when missing; a
 * ".vcd" is replaced), and the VCD stream goes through a pipe into GTKWave's own converter
 * (`vcd2fst -v - -f PATH`, found in PATH or at the path `program` gives), so nothing but the FST is
 * written. A converter that cannot be started or fails is a fatal error. */
void gsc_trace_fst(const char *program);
/* gsc_elaborate traces, among what the patterns select (each signal by its own full name):
 * - every field of every latch, as <latch>.<field> (OPAQUE fields excepted), with the field's width
 *   (0 = the full width of its C type): the latest value written, from the cycle it was written;
 * - for every FIFO: <fifo>.put, 1 bit, high in exactly the cycles an item was put (low from the
 *   next cycle, even if nothing else runs then); <fifo>.<field> as for a latch, the fields of the last
 *   item put (the last one if several were put in a cycle), from the cycle it was put; and
 *   <fifo>.occupancy, the items stored at the end of the cycle, on as many bits as the depth needs.
 *   A FIFO's type may therefore have no field named "put" or "occupancy" (gsc_fifo_new says so).
 *   Tracing costs nothing on an untraced FIFO (one not-taken branch per put) and never changes a
 *   run: same cycles, same gsc_activations(). */
/* Trace a block-internal state variable by address (during elaboration; selected by the same
 * patterns). The address must stay valid for the whole run. name is relative to the module (full
 * name <module>.<name>). width in bits (1..64; 0 = the full width of ctype; ignored for F32/F64). */
void gsc_trace_var(gsc_module *m, const char *name, gsc_ctype ctype, const void *addr, unsigned width);
/* The traced variable <m>.<name> (made by gsc_trace_var) is shown by the names of e (elaboration). */
void gsc_trace_var_enum(gsc_module *m, const char *name, const gsc_enum *e);
/* The traced variable <m>.<name> (an unsigned integer made by gsc_trace_var) means "in this cycle"
 * (a count or a flag of what the block did in the cycle): the tracer shows each nonzero value as a
 * pulse back to 0 half a cycle later, as a FIFO's put count, and sets the variable to 0 after the
 * cycle is written, so that a value never outlives the cycle that set it (a block that sleeps shows
 * 0, not what it did last). Only while traced; the block must not read the variable (elaboration). */
void gsc_trace_var_strobe(gsc_module *m, const char *name);
/* The traced variable <m>.<name> is a detail (per-warp state on a many-SM machine): the pattern "*"
 * alone does not select it; any other pattern that matches it does ("*,*.warp*", "sm0.issue.*").
 * (elaboration) */
void gsc_trace_var_detail(gsc_module *m, const char *name);
/* gsc_elaborate sets *traced to whether the traced variable <m>.<name> is selected, so that a block
 * computes what it shows only then (elaboration; *traced is left alone when nothing is traced). */
void gsc_trace_var_flag(gsc_module *m, const char *name, bool *traced);
/* Traced variables are compared only in the cycles something marked their module (m of
 * gsc_trace_var), so that an idle block costs the writer nothing:
 * - an activation of a process of m marks m, and every module m calls into (below), transitively;
 * - an arrival hook (gsc_fifo_on_arrival) marks the module of its FIFO's consumer port, likewise;
 * - a run's start marks every module (a change made between runs shows in the next cycle written).
 * gsc_trace_calls declares that code running for `caller` (its processes, its hooks) may change the
 * traced variables of `callee` (a direct call into another block: blk_bind declares every interface
 * binding); elaboration only. gsc_trace_touch marks m's variables (and its callees') from any other
 * path (at run time; nothing when nothing is traced). gsc_trace_check (elaboration; or the environment
 * variable GPUSC_TRACE_CHECK=1) also compares every variable nobody marked, in every cycle written,
 * and makes a change there a fatal error naming the variable: a path that changes traced state
 * without marking it would otherwise silently lose the transition. */
void gsc_trace_calls(gsc_module *caller, gsc_module *callee);
void gsc_trace_touch(gsc_module *m);
void gsc_trace_check(bool on);
/* A traced variable <m>.<name> holding the cycle number (64 bits, written in every cycle of the
 * window, also those where nothing else happens), to read the time in cycles in a viewer. */
void gsc_trace_cycle_counter(gsc_module *m, const char *name);
/* A pulse: a traced count of events in a cycle (the calls of a traced interface, ...). The VCD
 * shows how many times gsc_pulse_fire ran in each cycle, back to 0 in the next cycle without one,
 * as a FIFO's put strobe. Made during elaboration (name relative to the module, width 1..32 bits);
 * `traced` is set by gsc_elaborate when the patterns select it. Fire it only when traced: callers
 * test gsc_pulse_traced first (one not-taken branch untraced); firing never changes a run. */
typedef struct gsc_pulse {
    bool traced;
    bool pending;    /* fired since the writer last looked (sc/ only) */
    int8_t promised; /* gsc_pulse_will_trace answered: 1 yes, -1 no, 0 not asked (sc/ only) */
    uint32_t count;
    uint32_t traceable; /* its entry in the list of what may be traced (sc/ only) */
    int64_t sig;        /* its signal in the trace (sc/ only) */
} gsc_pulse;
gsc_pulse *gsc_pulse_new(gsc_module *m, const char *name, unsigned width);
static inline bool gsc_pulse_traced(const gsc_pulse *p)
{
    return gsc_hot.pulses_traced && p->traced;
}
void gsc_pulse_fire(gsc_pulse *p);
/* During elaboration: whether gsc_elaborate will trace p (gsc_trace_open's patterns select it), so
 * that a caller chooses once between a path that fires p and one that does not even test it (a
 * block's method table with its calls noted or without). Asked before gsc_trace_open it answers
 * false, and gsc_elaborate then refuses (a fatal error) to trace the pulse: its count would stay 0
 * while the events happen. */
bool gsc_pulse_will_trace(gsc_pulse *p);
/* The full names and widths of what was traced, in declaration order (for .gtkw writers). */
unsigned gsc_trace_count(void);
const char *gsc_trace_signal_name(unsigned i);
unsigned gsc_trace_signal_width(unsigned i);
/* True for F32/F64 signals (VCD reals; their width is 32 or 64 but GTKWave shows no bit range). */
bool gsc_trace_signal_is_real(unsigned i);
/* The group a signal belongs to: its latch or FIFO (a FIFO's putN slots included), or the module
 * of a variable or pulse. */
const char *gsc_trace_signal_group(unsigned i);
/* The enumeration a signal is shown by (NULL: none); true for the cycle counter. */
const gsc_enum *gsc_trace_signal_enum(unsigned i);
bool gsc_trace_signal_is_counter(unsigned i);
/* True for a field of a FIFO's k-th item of a cycle (<fifo>.putK.<field>, K >= 1) when no cycle
 * written so far put more than K items in that FIFO: the slot has shown nothing (views leave it out). */
bool gsc_trace_signal_unused(unsigned i);
/* Whether signal i moved after the dump (the window's first cycle): a variable's bytes, a strobe or a
 * pulse changed; for a latch's field, a change of one of the latch's fields was written; for a FIFO's
 * signal, a cycle put an item in the FIFO or its occupancy is not the dump's; the cycle counter, the
 * dump spans more than one cycle. False before the file opens. Views close the groups none of whose
 * signals moved. */
bool gsc_trace_signal_changed(unsigned i);
/* The time range of the dump in ps: its first time (the window's start) and the last time written
 * so far (0, 0 when nothing was written). */
void gsc_trace_dump_range(uint64_t *first_ps, uint64_t *last_ps);
/* Flush and close the trace file (also done at exit, and at the end of the window). */
void gsc_trace_close(void);
/* True once the trace file has been created: false when nothing was opened, or the run never
 * reached the window's first cycle (no file is written then). */
bool gsc_trace_written(void);
/* After gsc_trace_close: why writing the trace file failed ("cannot write PATH: No space left on
 * device"), or NULL when every byte reached it. */
const char *gsc_trace_write_error(void);
/* After elaboration: the i-th pattern of gsc_trace_open (in the order given) that selected no
 * signal at all, or NULL past the last one (a typo in --trace would otherwise give an empty VCD). */
const char *gsc_trace_unmatched_pattern(unsigned i);

#ifdef __cplusplus
}
#endif

#endif /* GPUSC_SC_GSC_H */
