/* block.h — block descriptors, the block registry and block instances.
 *
 * Every block type has one static, read-only descriptor (blk_desc), in the spirit of a GStreamer
 * element's pad templates and properties: its ports, parameters, statistics and traced state. From
 * the descriptors every program lists and describes blocks (--list-blocks, --describe), validates
 * configuration and dumps statistics.
 *
 * A block instance (blk_inst) is created by a block constructor with blk_inst_new(): it owns the
 * SystemC module, one gsc_port per port descriptor, the effective parameter values (resolved from
 * the configuration once, at construction) and the statistics counters. Instances belong to a
 * blk_ctx, the elaboration context of one simulation (configuration, core clock, instances in
 * creation order, derived figures).
 *
 * Topologies and testbenches declare a descriptor too (parameters, no ports), so that their
 * parameters live in the same configuration and show up in --dump-config.
 */
#ifndef GPUSC_MODELS_CORE_BLOCK_H
#define GPUSC_MODELS_CORE_BLOCK_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

#include "models/core/energy.h"
#include "sc/gsc.h"

G_BEGIN_DECLS

typedef enum {
    BLK_PARAM_INT,    /* int64_t */
    BLK_PARAM_UINT,   /* uint64_t */
    BLK_PARAM_BOOL,   /* true/false, yes/no, on/off, 1/0 */
    BLK_PARAM_DOUBLE, /* finite double */
    BLK_PARAM_ENUM,   /* one of a NULL-terminated list of choices */
    BLK_PARAM_STRING
} blk_param_type;

typedef enum {
    BLK_CHAN_LATCH,  /* the port is bound to a latch (pipeline register) */
    BLK_CHAN_FIFO,   /* the port is bound to a bounded FIFO */
    BLK_CHAN_EXPORT, /* an interface this block implements: other blocks call it (sc_export) */
    BLK_CHAN_IMPORT  /* an interface this block calls, bound to another block's export (sc_port<IF>) */
} blk_chan_kind;

/* A typed interface: a named table of methods (a C struct of function pointers, each taking the
 * exporter's `self` first), in the spirit of SystemC's interface method calls. A block exports it
 * (an EXPORT port and blk_export() with its table); a client block imports it (an IMPORT port bound
 * with blk_bind()) and calls the methods inside its own activation: a same-cycle decision at the
 * cost of one indirect call. Binding checks that both ends name the same interface. `fields` name
 * the (up to BLK_CALL_FIELDS) argument values a traced call shows in the VCD (see blk_call_note). */
#define BLK_CALL_FIELDS 3
typedef struct {
    const char *name;                      /* "scoreboard" */
    const char *meaning;                   /* one line */
    const char *const *methods;            /* NULL-terminated: one line per method, for --describe */
    const char *fields[BLK_CALL_FIELDS];   /* traced argument fields (NULL: unused) */
    unsigned field_width[BLK_CALL_FIELDS]; /* their widths in bits */
} blk_iface;

/* Port flags. */
#define BLK_PORT_OPTIONAL 1u /* import: may stay unbound (a mechanism's listener, a stub) */
#define BLK_PORT_MULTI                                                                                       \
    2u /* import: any number of exports, called in binding order (listeners,                                 \
        * a chain of checks); implies OPTIONAL */

typedef struct {
    const char *name;     /* a port array's name holds one "%u": its elements are name_0, name_1 ... */
    gsc_dir dir;          /* EXPORT: GSC_IN (others call in); IMPORT: GSC_OUT (it calls out) */
    const gsc_type *type; /* LATCH and FIFO ports: the channel's type; NULL for interfaces */
    blk_chan_kind chan;
    /* FIFO ports only: the parameter of this block giving the FIFO depth (NULL: depth 2). Whoever
     * creates the channel (topology, harness) reads it with blk_port_fifo_depth(); blk_connect()
     * does it for a topology. */
    const char *depth_param;
    const char *meaning;
    const blk_iface *iface; /* EXPORT and IMPORT ports: the interface */
    unsigned flags;         /* BLK_PORT_* */
    /* Port arrays (the name holds "%u"; as GStreamer request pads and gem5 vector ports): at most
     * max_count elements; their number is the value of this block's parameter count_param, or,
     * with count_param NULL, what the constructor passes to blk_inst_new_arrays(). */
    unsigned max_count;
    const char *count_param;
} blk_port_desc;

typedef struct {
    const char *name;
    blk_param_type type;
    const char *def;            /* default, as it would be written in an INI file */
    const char *min, *max;      /* inclusive range for INT/UINT/DOUBLE; NULL = unbounded */
    const char *const *choices; /* ENUM: NULL-terminated */
    const char *unit;           /* "cycles", "bytes", "" ... */
    const char *meaning;        /* one line */
} blk_param_desc;

typedef struct blk_inst blk_inst;

typedef enum {
    BLK_STAT_COUNTER, /* a uint64_t counter, incremented with blk_stat_add */
    BLK_STAT_DERIVED  /* computed at dump time by derive() (e.g. a ratio of counters) */
} blk_stat_kind;

typedef struct {
    const char *name;
    blk_stat_kind kind;
    const char *unit;
    const char *meaning;
    double (*derive)(const blk_inst *inst); /* DERIVED only */
} blk_stat_desc;

typedef struct {
    const char *name; /* relative to the instance: <instance>.<name> in the VCD */
    unsigned width;   /* bits */
    const char *meaning;
} blk_state_desc;

typedef struct {
    const char *name;        /* type name: config section, --describe argument */
    const char *description; /* one line */
    const char *spec;        /* spec section implemented, e.g. "SPU spec §3.2"; "" for demos */
    const blk_port_desc *ports;
    unsigned n_ports;
    const blk_param_desc *params;
    unsigned n_params;
    const blk_stat_desc *stats;
    unsigned n_stats;
    const blk_state_desc *state;
    unsigned n_state;
    const struct blk_energy_desc *energy; /* energy events and leakage (models/core/energy.h); NULL: none */
} blk_desc;

/* Number of elements of a static descriptor array. */
#define BLK_N(a) ((unsigned)(sizeof(a) / sizeof((a)[0])))

/* ---- registry (the one mutable global of the framework, filled by registration functions) ---- */

/* Register a descriptor (idempotent for the same pointer; a different descriptor with the same
 * name is an internal error). Checks the descriptor's own defaults (g_error if one is invalid). */
void blk_registry_add(const blk_desc *desc);
const blk_desc *blk_registry_find(const char *name);
/* Descriptors sorted by name. */
unsigned blk_registry_count(void);
const blk_desc *blk_registry_nth(unsigned i);

/* A program that knows more block types than it builds (a testbench knows every block a preset may
 * name) marks those it builds: --list-blocks lists only them. Registers desc too. */
void blk_registry_mark_built(const blk_desc *desc);
/* True when the program builds blocks of desc's type (every type, when it marked none). */
bool blk_registry_built(const blk_desc *desc);

const blk_param_desc *blk_desc_param(const blk_desc *desc, const char *name);
int blk_desc_param_index(const blk_desc *desc, const char *name);
int blk_desc_port_index(const blk_desc *desc, const char *name);
const char *blk_param_type_name(blk_param_type t);

/* ---- parameter values ---- */

typedef struct {
    blk_param_type type;
    union {
        int64_t i;
        uint64_t u; /* UINT; ENUM: index in choices */
        bool b;
        double d;
    };
    char *s; /* the text (all types); the value for STRING and ENUM */
} blk_value;

/* Parse text as a value of parameter p. On error returns false and sets *problem to a message
 * (to g_free) such as "expected an unsigned integer, got 'x'" or "4096 is out of range [1, 1024]". */
bool blk_value_parse(const blk_param_desc *p, const char *text, blk_value *out, char **problem);
/* A user's text as an error message quotes it (to g_free): whole up to 80 bytes, else its first 64
 * bytes and "... (N bytes)", so a huge bad value does not flood the terminal. */
char *blk_excerpt(const char *text);
void blk_value_clear(blk_value *v);

/* ---- elaboration context and instances ---- */

typedef struct cfg cfg;
typedef struct blk_ctx blk_ctx;

/* config: the effective configuration (not owned; may be NULL = defaults only). clock: the core clock. */
blk_ctx *blk_ctx_new(const cfg *config, gsc_clock *clock);
/* Mark the statistics as covering part of the run only (a run stopped by a signal): the text dump
 * says so in a "# partial: WHY" line, the JSON in "partial": "WHY". NULL clears it. */
void blk_ctx_set_partial(blk_ctx *ctx, const char *why);
const char *blk_ctx_partial(const blk_ctx *ctx);
void blk_ctx_free(blk_ctx *ctx);
gsc_clock *blk_ctx_clock(const blk_ctx *ctx);
const cfg *blk_ctx_config(const blk_ctx *ctx);
unsigned blk_ctx_n_insts(const blk_ctx *ctx);
blk_inst *blk_ctx_inst(const blk_ctx *ctx, unsigned i);
blk_inst *blk_ctx_find(const blk_ctx *ctx, const char *path);

/* A derived figure of the whole run (e.g. IPC), computed at dump time. */
typedef double (*blk_derived_fn)(const blk_ctx *ctx, void *data);
void blk_ctx_add_derived(blk_ctx *ctx, const char *name, const char *unit, const char *meaning,
                         blk_derived_fn fn, void *data);
/* The same for a figure of the simulator's wall-clock time (its speed): shown in the text dump, left
 * out of the JSON, which two runs must write identically. */
void blk_ctx_add_derived_wallclock(blk_ctx *ctx, const char *name, const char *unit, const char *meaning,
                                   blk_derived_fn fn, void *data);
bool blk_ctx_derived_is_wallclock(const blk_ctx *ctx, unsigned i);
unsigned blk_ctx_n_derived(const blk_ctx *ctx);
void blk_ctx_derived(const blk_ctx *ctx, unsigned i, const char **name, const char **unit,
                     const char **meaning, double *value);

/* What each cycle a block sleeps through adds to one of its counters (blk_sleep_charge). */
typedef struct {
    unsigned stat;
    uint64_t per_cycle;
} blk_sleep_item;
#define BLK_SLEEP_MAX 12

struct blk_inst {
    /* What an activation reads (blk_sleep_wake, blk_fifo, blk_stat_add) first, on the first of the
     * record's 64-byte lines (the record is aligned to one): the counters and the FIFOs, which are
     * one allocation (the FIFOs' pointers, then the counters), the cycles slept. */
    uint64_t *stats; /* desc->n_stats counters (DERIVED slots stay 0) */
    gsc_fifo **fifos; /* the FIFO bound to each port element, looked up at first use (blk_fifo) */
    /* Cycles slept (blk_sleep_wake): the last cycle counted (-1: none yet) and what each later
     * cycle adds until the next activation. */
    int64_t sleep_last;
    unsigned n_sleep;
    blk_sleep_item sleep[BLK_SLEEP_MAX];
    /* The clock domain the block runs in (blk_inst_set_domain; NULL: the core clock's). */
    const struct blk_domain *domain;
    const blk_desc *desc;
    blk_ctx *ctx;
    gsc_module *mod;
    const char *path;       /* full dotted name (the module's) */
    blk_value *params;      /* desc->n_params effective values */
    const char **param_src; /* where each value came from ("default", "preset x", "f.ini:3", "--set") */
    /* Ports, one element per descriptor entry first (element 0 of an array; NULL for an interface
     * port or an empty array), then the further elements of the arrays (see blk_port_at). */
    gsc_port **ports;
    unsigned *port_count;   /* per descriptor entry: its elements (1 for a plain port) */
    unsigned *port_more;    /* per descriptor entry: where its elements 1.. start in ports[] */
    struct blk_link *links; /* per element, as ports[]: interface implementations and bindings */
    const char *log_domain; /* "gpusc.<type>" */
    void (*elaborate)(void *self); /* see blk_inst_on_elaborate */
    void *self;
    void (*finish)(void *self, uint64_t cycles); /* see blk_inst_on_finish */
    void *finish_self;
};

/* Create an instance named `name` under parent (NULL: top level): the module, its ports, its
 * parameters from the configuration, zeroed counters. Registers the block's descriptor. */
blk_inst *blk_inst_new(blk_ctx *ctx, gsc_module *parent, const char *name, const blk_desc *desc);

/* The same, for a block with port arrays sized by its constructor (count_param NULL): counts[i] is
 * the number of elements of descriptor port i (only read for such arrays; at most max_count). */
blk_inst *blk_inst_new_arrays(blk_ctx *ctx, gsc_module *parent, const char *name, const blk_desc *desc,
                              const unsigned *counts);

/* The same, for port arrays whose sizes follow from the block's parameters (and the constructor's
 * arguments): once the parameters are resolved, fn(inst, counts, data) fills counts[i] for each
 * array sized by its constructor (sm_link: every node on the enabled directions, none on the others). */
typedef void (*blk_count_fn)(const blk_inst *inst, unsigned *counts, void *data);
blk_inst *blk_inst_new_counted(blk_ctx *ctx, gsc_module *parent, const char *name, const blk_desc *desc,
                               blk_count_fn fn, void *data);

/* Processes are usually sensitive to the channels bound to the block's ports, which exist only
 * once the topology (or the harness) has bound them. A block therefore creates its processes in
 * an elaboration hook, run by blk_ctx_elaborate() after binding and before gsc_elaborate(). */
void blk_inst_on_elaborate(blk_inst *inst, void (*fn)(void *self), void *self);
/* Run every instance's hook, in creation order (cli_elaborate and the harness call it). */
void blk_ctx_elaborate(blk_ctx *ctx);

/* The end of the run: fn(self, cycles) runs when the program reports its statistics (cli_finish,
 * through blk_ctx_finish), cycles being the cycles executed, however the run ended (completion,
 * --max-cycles, the watchdog). For statistics a block keeps outside its counters. */
void blk_inst_on_finish(blk_inst *inst, void (*fn)(void *self, uint64_t cycles), void *self);
/* Before statistics are reported: every instance's cycles slept up to the last executed cycle
 * (cycles - 1) are counted (blk_sleep_wake), then the finish hooks run, in creation order. */
void blk_ctx_finish(blk_ctx *ctx, uint64_t cycles);

/* ---- clock domains (docs/framework.md, "Clock domains") ----
 * A domain is a clock of its own period. Its edge d (at time d x period) is taken at the first core
 * clock edge at or after it; a block in the domain counts its own cycles (latencies, bandwidths,
 * its statistics) and does its work only at the core edges that take one of its edges. A domain
 * faster than the core clock has several edges in one core cycle: only a block that can do the work
 * of several of its cycles in one activation may run in one (blk_domain_init's `faster_ok`). Items
 * cross between domains through the FIFOs between the blocks: an item put in one domain is got at
 * the consumer's first edge after the put. */
typedef struct blk_domain {
    uint64_t period_ps; /* the domain's clock */
    uint64_t core_ps;   /* the core clock's */
} blk_domain;

/* A domain of period_ps on the core clock (which must exist: gsc_clock_new). Returns NULL, the core
 * domain, when period_ps is 0 or the core's period; otherwise d, filled. `what` names the setting in
 * the error for a faster domain when !faster_ok. */
const blk_domain *blk_domain_init(blk_domain *d, uint64_t period_ps, bool faster_ok, const char *what);
/* Run `inst` in domain d (NULL: the core clock's); during elaboration. */
void blk_inst_set_domain(blk_inst *inst, const blk_domain *d);

/* The domain's current cycle at core cycle `core`: its last edge at or before the core edge. */
static inline uint64_t blk_domain_cycle(const blk_domain *d, uint64_t core)
{
    return d ? core * d->core_ps / d->period_ps : core;
}
/* The core cycle that takes the domain's edge dc. */
static inline uint64_t blk_domain_core_cycle(const blk_domain *d, uint64_t dc)
{
    return d ? (dc * d->period_ps + d->core_ps - 1) / d->core_ps : dc;
}
/* Whether core cycle `core` takes an edge of the domain (always, for the core domain). */
static inline bool blk_domain_edge(const blk_domain *d, uint64_t core)
{
    return !d || blk_domain_core_cycle(d, blk_domain_cycle(d, core)) == core;
}
/* The domain's edges taken in core cycles 0 .. cores - 1 (a run of `cores` cycles). */
static inline uint64_t blk_domain_cycles(const blk_domain *d, uint64_t cores)
{
    return d ? (cores ? blk_domain_cycle(d, cores - 1) + 1 : 0) : cores;
}
/* At core cycle `core`: notify e for the core cycle that takes domain edge dc (this cycle if it is
 * not later). */
static inline void blk_domain_notify(const blk_domain *d, gsc_event *e, uint64_t core, uint64_t dc)
{
    uint64_t at = blk_domain_core_cycle(d, dc);
    gsc_event_notify(e, at > core ? at - core : 0);
}
/* At the start of an activation at core cycle `core`: true, with *now the domain's current cycle, when
 * the cycle takes an edge of the domain; otherwise (a put woke the block between two of its edges)
 * false, having notified `wake` for the next edge: the activation must change nothing. */
static inline bool blk_domain_at_edge(const blk_domain *d, gsc_event *wake, uint64_t core, uint64_t *now)
{
    *now = blk_domain_cycle(d, core);
    if (blk_domain_edge(d, core))
        return true;
    blk_domain_notify(d, wake, core, *now + 1);
    return false;
}

/* ---- cycles slept count as ... (docs/framework.md, "Sleeping") ----
 * A block that sleeps through cycles in which some counters would have gone on counting (a stall
 * reason, resident CTAs, an access refused again) calls blk_sleep_wake(inst, now) first in every
 * activation and blk_sleep_charge(inst, stat, n) for what each cycle from the next one on adds
 * while it sleeps. The next activation (or the end of the run, blk_ctx_finish) adds those for the
 * cycles slept in between. A counter that the activation itself counts in the same way gives the
 * same totals whether the block sleeps or runs in every cycle (the always-awake check mode,
 * docs/sc-api.md). Charges declared before the first activation count from cycle 0. */
static inline void blk_sleep_wake(blk_inst *inst, uint64_t now)
{
    uint64_t gap = now - (uint64_t)(inst->sleep_last + 1);
    if (inst->n_sleep && gap) {
        for (unsigned i = 0; i < inst->n_sleep; i++)
            inst->stats[inst->sleep[i].stat] += gap * inst->sleep[i].per_cycle;
    }
    inst->n_sleep = 0;
    inst->sleep_last = (int64_t)now;
}
void blk_sleep_overflow(const blk_inst *inst) G_GNUC_NORETURN;
static inline void blk_sleep_charge(blk_inst *inst, unsigned stat, uint64_t per_cycle)
{
    if (!per_cycle)
        return;
    for (unsigned i = 0; i < inst->n_sleep; i++) {
        if (inst->sleep[i].stat == stat) {
            inst->sleep[i].per_cycle += per_cycle;
            return;
        }
    }
    if (inst->n_sleep == BLK_SLEEP_MAX)
        blk_sleep_overflow(inst);
    inst->sleep[inst->n_sleep++] = (blk_sleep_item){stat, per_cycle};
}

/* Typed getters; the name must be a declared parameter of that type (g_error otherwise). Look
 * parameters up at construction time, not on the hot path. */
int64_t blk_param_int(const blk_inst *inst, const char *name);
uint64_t blk_param_uint(const blk_inst *inst, const char *name);
bool blk_param_bool(const blk_inst *inst, const char *name);
double blk_param_double(const blk_inst *inst, const char *name);
unsigned blk_param_enum(const blk_inst *inst, const char *name);      /* index in choices */
const char *blk_param_string(const blk_inst *inst, const char *name); /* also the text of any type */

static inline gsc_port *blk_port(const blk_inst *inst, unsigned idx)
{
    return inst->ports[idx];
}
/* Element k of port idx (k = 0 for a plain port); g_assert k < blk_port_count. */
static inline unsigned blk_port_flat(const blk_inst *inst, unsigned idx, unsigned k)
{
    return k == 0 ? idx : inst->port_more[idx] + k - 1;
}
static inline gsc_port *blk_port_at(const blk_inst *inst, unsigned idx, unsigned k)
{
    return inst->ports[blk_port_flat(inst, idx, k)];
}
/* Elements of port idx: 1 for a plain port, the array's size for an array. */
static inline unsigned blk_port_count(const blk_inst *inst, unsigned idx)
{
    return inst->port_count[idx];
}
/* The port element named `name` ("decoded", "to_exec_1"): its descriptor index and element. False
 * if the block has none. */
bool blk_port_lookup(const blk_inst *inst, const char *name, unsigned *idx, unsigned *k);
/* Its name ("to_exec_1"; to g_free). */
char *blk_port_element_name(const blk_inst *inst, unsigned idx, unsigned k);
gsc_port *blk_port_by_name(const blk_inst *inst, const char *name);
/* The FIFO bound to port idx (gsc_port_fifo, checked once and then kept: binding ends with
 * elaboration). For the hot path of a block's process. */
static inline gsc_fifo *blk_fifo(const blk_inst *inst, unsigned idx)
{
    gsc_fifo *f = inst->fifos[idx];
    if (__builtin_expect(!f, 0))
        f = inst->fifos[idx] = gsc_port_fifo(inst->ports[idx]); /* NULL while unbound: not kept */
    return f;
}
static inline gsc_fifo *blk_fifo_at(const blk_inst *inst, unsigned idx, unsigned k)
{
    return blk_fifo(inst, blk_port_flat(inst, idx, k));
}
/* Depth of the FIFO to bind to FIFO port idx (its depth parameter, or 2). */
unsigned blk_port_fifo_depth(const blk_inst *inst, unsigned idx);

/* ---- channels and interfaces between blocks (topologies; models/core/port.c) ---- */

/* Make a FIFO under `parent` named `name`, its depth from the consumer's descriptor (the depth
 * parameter of its input port), and bind producer port `out` and consumer port `in` to it. Ports
 * are named as blk_port_lookup takes them ("release_2"). Checks kinds, directions and types (an
 * elaboration error naming both ends). Returns the FIFO. */
gsc_fifo *blk_connect(gsc_module *parent, const char *name, blk_inst *producer, const char *out,
                      blk_inst *consumer, const char *in);

/* Register the implementation of export port element (idx, k): `methods` points to the interface's
 * method table (static storage), `self` is passed as every method's first argument. */
void blk_export(blk_inst *inst, unsigned idx, unsigned k, const void *methods, void *self);
/* The same for an export called many times per cycle: `plain` does not note its calls, `noted` does
 * (the same methods, each noting its call first). The table is chosen here, once: `noted` when the
 * trace selects the export's calls (gsc_pulse_will_trace), so an untraced run does not even test
 * the probe. Call it after gsc_trace_open (cli_parse and harness_new do). */
void blk_export_noted(blk_inst *inst, unsigned idx, unsigned k, const void *plain, const void *noted,
                      void *self);
/* Bind import `import` of `client` to export `export` of `server` (names as blk_port_lookup). The
 * interfaces must be the same; an import that is not MULTI takes one binding. Errors name both
 * ends (gsc_fatal). */
void blk_bind(blk_inst *client, const char *import, blk_inst *server, const char *export);

/* Bind import `import` of `client` to a method table that no block exports (a test's stub, a
 * testbench's probe): as blk_bind, without the interface check. */
void blk_bind_stub(blk_inst *client, const char *import, const void *methods, void *self);

/* A bound interface as a client calls it: methods (NULL when an optional import is unbound) and the
 * exporter's self. Look it up once (at elaboration), keep it in the block. */
typedef struct {
    const void *methods;
    void *self;
    const struct blk_link *link; /* the export's link (for blk_call_note) */
} blk_iref;
blk_iref blk_import(const blk_inst *inst, unsigned idx, unsigned k);
/* Export element (idx, k) as a client would see it bound. */
blk_iref blk_export_ref(const blk_inst *inst, unsigned idx, unsigned k);
/* A MULTI import: how many exports are bound, and the i-th in binding order. */
unsigned blk_import_n(const blk_inst *inst, unsigned idx, unsigned k);
blk_iref blk_import_nth(const blk_inst *inst, unsigned idx, unsigned k, unsigned i);
/* Every binding of a MULTI import, in binding order, as an array to g_free (NULL when none). */
blk_iref *blk_import_all(const blk_inst *inst, unsigned idx, unsigned k, unsigned *n);
/* The instance and export port element a (non-MULTI) import is bound to (NULL: unbound). */
blk_inst *blk_import_peer(const blk_inst *inst, unsigned idx, unsigned k, char **export_name);

/* Run by blk_ctx_elaborate before the blocks' hooks: every export has an implementation and every
 * required import is bound, else a gsc_fatal naming the port, its interface and the instances that
 * export that interface. */
void blk_ctx_check_links(const blk_ctx *ctx);

/* A traced call: an export's method implementation notes each call with up to BLK_CALL_FIELDS
 * argument values. When the export is traced (--trace selects <instance>.<export>.calls), the VCD
 * shows <export>.calls (calls in the cycle, back to 0 in the next cycle without a call) and the
 * interface's fields (<export>.<field>, the values of the cycle's last call). Untraced, the cost is
 * one not-taken branch. */
typedef struct blk_call_probe {
    gsc_pulse *pulse;
    uint32_t vals[BLK_CALL_FIELDS];
} blk_call_probe;
/* cold: the compiler keeps the traced path out of line, so an untraced note leaves its caller's
 * fast path (registers, frame) as it was */
void blk_call_note_slow(blk_call_probe *p, uint32_t a, uint32_t b, uint32_t c) __attribute__((cold));
static inline void blk_call_note(blk_call_probe *p, uint32_t a, uint32_t b, uint32_t c)
{
    if (__builtin_expect(gsc_pulse_traced(p->pulse), 0))
        blk_call_note_slow(p, a, b, c);
}
/* The probe of export element (idx, k) (made by blk_export; traced at elaboration if selected). */
blk_call_probe *blk_export_probe(blk_inst *inst, unsigned idx, unsigned k);
/* The probes of ports 0 .. n-1 (element 0), indexed by port: an export's probe, NULL for the other
 * ports. Call it once every export has its implementation (after the blk_export calls). */
void blk_export_probes(blk_inst *inst, blk_call_probe **probes, unsigned n);

/* Hot path: counters are indexed by the descriptor's order (blocks keep an enum next to the table). */
static inline void blk_stat_add(blk_inst *inst, unsigned idx, uint64_t n)
{
    inst->stats[idx] += n;
}
static inline uint64_t blk_stat_get(const blk_inst *inst, unsigned idx)
{
    return inst->stats[idx];
}
/* The value of any statistic (a counter or a derived one). */
double blk_stat_value(const blk_inst *inst, unsigned idx);

/* ---- output queues (docs/framework.md, "Output queues") ----
 * What a block has made for an output FIFO and could not put yet waits in a bounded queue of the
 * framework whose depth is a declared parameter of the block: the block asks blk_outq_full before
 * making more and stalls when it is full (a push on a full queue is a model bug: gsc_fatal).
 * blk_outq_flush puts the head items while the FIFO has room. The queue keeps its peak occupancy in
 * a counter of the block (a statistic the block declares), which never exceeds the depth. */
typedef struct {
    unsigned char *buf;
    size_t elem;
    unsigned depth, head, n;
    blk_inst *inst;
    unsigned port, peak_stat;
} blk_outq;

/* Items of `elem` bytes for FIFO port `port`; depth from the uint parameter `depth_param`; the peak
 * in counter `peak_stat`. At construction. */
void blk_outq_init(blk_outq *q, blk_inst *inst, unsigned port, size_t elem, const char *depth_param,
                   unsigned peak_stat);
void blk_outq_clear(blk_outq *q);
void blk_outq_overflow(const blk_outq *q) G_GNUC_NORETURN;
static inline unsigned blk_outq_len(const blk_outq *q)
{
    return q->n;
}
static inline bool blk_outq_empty(const blk_outq *q)
{
    return q->n == 0;
}
static inline bool blk_outq_full(const blk_outq *q)
{
    return q->n >= q->depth;
}
/* A new item at the tail, uninitialised (fill it before the next push or flush). */
static inline void *blk_outq_push(blk_outq *q)
{
    if (q->n >= q->depth)
        blk_outq_overflow(q);
    void *slot = q->buf + (size_t)((q->head + q->n) % q->depth) * q->elem;
    if (++q->n > q->inst->stats[q->peak_stat])
        q->inst->stats[q->peak_stat] = q->n;
    return slot;
}
/* Put the head items on the FIFO while it has room. A queue it empties starts again at its first
 * slot (as a ring.h ring does: pushes and flushes in the same activation stay on the same lines). */
static inline void blk_outq_flush(blk_outq *q)
{
    if (!q->n)
        return;
    gsc_fifo *f = blk_fifo(q->inst, q->port);
    while (q->n && gsc_fifo_can_put(f)) {
        gsc_fifo_put(f, q->buf + (size_t)q->head * q->elem);
        q->head = --q->n ? (q->head + 1) % q->depth : 0;
    }
}

/* Logging in the block's domain "gpusc.<type>" (G_MESSAGES_DEBUG=gpusc.demo_alu shows the debug
 * messages of every demo_alu). Keep them off the per-cycle path: arguments are evaluated. */
#define blk_debug(inst, ...)   g_log((inst)->log_domain, G_LOG_LEVEL_DEBUG, __VA_ARGS__)
#define blk_message(inst, ...) g_log((inst)->log_domain, G_LOG_LEVEL_MESSAGE, __VA_ARGS__)

/* Trace declared state variable `name` (width from the descriptor; g_error if undeclared). */
void blk_trace_state(blk_inst *inst, const char *name, gsc_ctype ctype, const void *addr);

G_END_DECLS

#endif /* GPUSC_MODELS_CORE_BLOCK_H */
