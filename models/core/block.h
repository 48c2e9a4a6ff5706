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
    BLK_CHAN_LATCH, /* the port is bound to a latch (pipeline register) */
    BLK_CHAN_FIFO   /* the port is bound to a bounded FIFO */
} blk_chan_kind;

typedef struct {
    const char *name;
    gsc_dir dir;
    const gsc_type *type;
    blk_chan_kind chan;
    /* FIFO ports only: the parameter of this block giving the FIFO depth (NULL: depth 2). Whoever
     * creates the channel (topology, harness) reads it with blk_port_fifo_depth(). */
    const char *depth_param;
    const char *meaning;
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
    const char *spec;        /* spec section implemented, e.g. "spu.md §3.2"; "" for demos */
    const blk_port_desc *ports;
    unsigned n_ports;
    const blk_param_desc *params;
    unsigned n_params;
    const blk_stat_desc *stats;
    unsigned n_stats;
    const blk_state_desc *state;
    unsigned n_state;
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
void blk_value_clear(blk_value *v);

/* ---- elaboration context and instances ---- */

typedef struct cfg cfg;
typedef struct blk_ctx blk_ctx;

/* config: the effective configuration (not owned; may be NULL = defaults only). clock: the core clock. */
blk_ctx *blk_ctx_new(const cfg *config, gsc_clock *clock);
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

struct blk_inst {
    const blk_desc *desc;
    blk_ctx *ctx;
    gsc_module *mod;
    const char *path;       /* full dotted name (the module's) */
    blk_value *params;      /* desc->n_params effective values */
    const char **param_src; /* where each value came from ("default", "preset x", "f.ini:3", "--set") */
    uint64_t *stats;        /* desc->n_stats counters (DERIVED slots stay 0) */
    gsc_port **ports;       /* desc->n_ports ports, created from the descriptors */
    gsc_fifo **fifos;       /* the FIFO bound to each port, looked up at first use (blk_fifo) */
    const char *log_domain; /* "gpusc.<type>" */
    void (*elaborate)(void *self); /* see blk_inst_on_elaborate */
    void *self;
};

/* Create an instance named `name` under parent (NULL: top level): the module, its ports, its
 * parameters from the configuration, zeroed counters. Registers the block's descriptor. */
blk_inst *blk_inst_new(blk_ctx *ctx, gsc_module *parent, const char *name, const blk_desc *desc);

/* Processes are usually sensitive to the channels bound to the block's ports, which exist only
 * once the topology (or the harness) has bound them. A block therefore creates its processes in
 * an elaboration hook, run by blk_ctx_elaborate() after binding and before gsc_elaborate(). */
void blk_inst_on_elaborate(blk_inst *inst, void (*fn)(void *self), void *self);
/* Run every instance's hook, in creation order (cli_elaborate and the harness call it). */
void blk_ctx_elaborate(blk_ctx *ctx);

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
/* Depth of the FIFO to bind to FIFO port idx (its depth parameter, or 2). */
unsigned blk_port_fifo_depth(const blk_inst *inst, unsigned idx);

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

/* Logging in the block's domain "gpusc.<type>" (G_MESSAGES_DEBUG=gpusc.demo_alu shows the debug
 * messages of every demo_alu). Keep them off the per-cycle path: arguments are evaluated. */
#define blk_debug(inst, ...)   g_log((inst)->log_domain, G_LOG_LEVEL_DEBUG, __VA_ARGS__)
#define blk_message(inst, ...) g_log((inst)->log_domain, G_LOG_LEVEL_MESSAGE, __VA_ARGS__)

/* Trace declared state variable `name` (width from the descriptor; g_error if undeclared). */
void blk_trace_state(blk_inst *inst, const char *name, gsc_ctype ctype, const void *addr);

G_END_DECLS

#endif /* GPUSC_MODELS_CORE_BLOCK_H */
