/* tb_common.c — see tb_common.h. */
#include "testbench/tb_common.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/run/frun.h"
#include "kernels/run/kload.h"
#include "kernels/run/launch_cli.h"
#include "kernels/frontend/hostfile.h"
#include "kernels/frontend/ptx_parse.h"
#include "kernels/analysis/regalloc.h"
#include "kernels/frontend/spu_isa.h"
#include "models/core/gtkw.h"
#include "models/core/stats.h"
#include "models/sm/issue.h"
#include "models/sm/ldst.h"
#include "models/sm/regfile.h"
#include "testbench/tb_monitor.h"

#ifndef GPUSC_SRC_PTX_DIR
#define GPUSC_SRC_PTX_DIR "kernels/ptx"
#endif

/* --spin-limit's default: about 5 to 20 s of simulation on one SM, far beyond any thread block of
 * the project's workloads (the longest runs for well under a million cycles). */
#define TB_SPIN_LIMIT 10000000

struct tb_kernel {
    char *path, *name;
    uint32_t seed; /* the workload's input seed (--seed, default 1) */
    const workload *w;
    wl_size size;
    ir_module *mod;
    fmem *mem;
    kload_module *k;
    sm_env env;
    unsigned max_regs; /* the SM's registers per thread (0: no limit) */
    unsigned regs_per_thread, smem_per_cta; /* declared (--regs-per-thread, --smem-per-cta), 0: none */
};

struct tb_machine {
    wl_device dev; /* first */
    cli_run *run;
    sm_env *env;
    cta_dispatch *d;
    sm_topo **sms;
    unsigned n_sms;
    uint64_t watchdog, last_progress, last_check;
    uint64_t spin_limit;     /* --spin-limit (0: off) */
    uint32_t spin_completed; /* CTAs finished at spin_since */
    uint64_t spin_since;     /* the cycle the last CTA finished (or the grid started) */
    bool slow_noted; /* the watchdog said once that a window without issue had events scheduled */
    gsc_process *wd;
    tb_kernel *k;
    double seconds;
    uint64_t launches;
    tb_dump_fn extra_dump; /* the watchdog appends the rest of the machine's state (tb-gpu: memory side) */
    char *abort_msg;       /* why the watchdog process stopped the run (no progress, a signal) */
    void *extra_dump_ctx;
    tb_monitor *mon; /* progress line, time series (NULL: neither) */
    GString *occupancy;  /* one summary line per kernel launched (the first launch of each) */
    GHashTable *entries; /* entries already described */
};

static void G_GNUC_PRINTF(2, 3) G_GNUC_NORETURN die(int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("gpusc: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(code);
}

void tb_opts_add(cli_run *run, tb_opts *o)
{
    memset(o, 0, sizeof *o);
    o->run = run;
    o->watchdog = 100000;
    o->spin_limit = TB_SPIN_LIMIT;
    GOptionEntry entries[] = {
        {"workload", 'w', 0, G_OPTION_ARG_STRING, &o->workload,
         "Run a built-in workload (checked against its CPU reference)", "NAME"},
        {"size", 0, 0, G_OPTION_ARG_STRING, &o->size,
         "Workload size: tiny (the default here), default or large", "SIZE"},
        {"list-workloads", 0, 0, G_OPTION_ARG_NONE, &o->list_workloads, "List the built-in workloads", NULL},
        {"ptx-dir", 0, 0, G_OPTION_ARG_FILENAME, &o->ptx_dir, "Where the workloads' PTX files are", "DIR"},
        {"ptx", 0, 0, G_OPTION_ARG_FILENAME, &o->ptx, "Run a kernel of this PTX file", "FILE"},
        {"entry", 0, 0, G_OPTION_ARG_STRING, &o->entry, "The kernel (.entry) to run", "NAME"},
        {"grid", 0, 0, G_OPTION_ARG_STRING, &o->grid, "Blocks per grid", "X,Y,Z"},
        {"block", 0, 0, G_OPTION_ARG_STRING, &o->block, "Threads per block", "X,Y,Z"},
        {"shared", 0, 0, G_OPTION_ARG_INT64, &o->shared, "Dynamic shared memory per block", "BYTES"},
        {"regs-per-thread", 0, 0, G_OPTION_ARG_INT64, &o->regs_per_thread,
         "Registers per thread occupancy charges every kernel (at least what its code needs; the rest are "
         "allocated, never used)",
         "N"},
        {"smem-per-cta", 0, 0, G_OPTION_ARG_INT64, &o->smem_per_cta,
         "Scratchpad bytes per CTA occupancy charges every kernel (at least what it uses, static + dynamic)",
         "BYTES"},
        {"arg", 'a', 0, G_OPTION_ARG_STRING_ARRAY, &o->args,
         "A kernel argument, in parameter order: a scalar literal (converted to the parameter's type), "
         "in:PATH, out:PATH:BYTES, inout:PATH:OUTPATH, or bytes:HEX (a by-value .b8 parameter)",
         "A"},
        {"memcheck", 0, 0, G_OPTION_ARG_STRING, &o->memcheck,
         "Global memory check: strict (the default: any access outside an allocation faults), warn "
         "(allocations padded; an access in the padding is reported once per instruction and the run goes "
         "on) or isolate (a large unmapped gap after every allocation)",
         "MODE"},
        {"watchdog", 0, 0, G_OPTION_ARG_INT64, &o->watchdog,
         "Fail with a dump of every warp after this many cycles without an issued instruction (0: off)",
         "CYCLES"},
        {"spin-limit", 0, 0, G_OPTION_ARG_INT64, &o->spin_limit,
         "Fail with a dump of every warp when no thread block of a running grid finishes for this many "
         "cycles (a kernel that spins; 0: off; default 10000000)",
         "CYCLES"},
        {"progress", 0, 0, G_OPTION_ARG_NONE, &o->progress,
         "Show a progress line (default: when stdout is a terminal; else on stderr)", NULL},
        {"no-progress", 0, 0, G_OPTION_ARG_NONE, &o->no_progress, "Show no progress line", NULL},
        {"sample-every", 0, 0, G_OPTION_ARG_INT64, &o->sample_every,
         "Write per-interval statistics every N cycles (time series, CSV)", "N"},
        {"samples", 0, 0, G_OPTION_ARG_FILENAME, &o->samples, "The time series' CSV (default samples.csv)",
         "FILE"},
        {"sample-stats", 0, 0, G_OPTION_ARG_STRING, &o->sample_stats,
         "More time-series columns: counters by glob (instance.counter, comma-separated)", "GLOBS"},
        {NULL, 0, 0, 0, NULL, NULL, NULL},
    };
    GOptionGroup *g =
        g_option_group_new("kernel", "Kernel options", "Show the workload/kernel options", NULL, NULL);
    g_option_group_add_entries(g, entries);
    cli_add_group(run, g);
}

/* ---- the kernel -------------------------------------------------------------------------------- */

/* The toolchain's register allocation, before the loader lays the module out: rematerialization,
 * allocation and, above the SM's registers per thread, spilling to local memory (regalloc.h). The
 * timing model runs this code; its physical registers are what the register banks see and its count
 * (regalloc_entry_regs) is what occupancy charges. */
static void kernel_allocate(tb_kernel *k, const tb_opts *o, const char *sm_path, bool subcore,
                            occupancy_sm *occ)
{
    GError *gerr = NULL;
    if (!sm_topo_occupancy_config(o->run ? o->run->config : NULL, sm_path, subcore, occ, &gerr))
        die(TB_EXIT_USAGE, "%s", gerr->message);
    k->max_regs = occ->max_regs_per_thread;
    regalloc_module_limit(k->mod, k->max_regs, NULL);
}

const char *tb_kernel_extra_ptx;

/* The kernel's text, then tb_kernel_extra_ptx's without its module directives (their lines left
 * empty, so the kernel's own lines keep their numbers). */
static ir_module *parse_with_extra(const char *path, GError **gerr)
{
    gchar *a = NULL, *b = NULL;
    if (!hostfile_read(path, HOSTFILE_TEXT, &a, NULL, gerr))
        return NULL;
    if (!hostfile_read(tb_kernel_extra_ptx, HOSTFILE_TEXT, &b, NULL, gerr)) {
        g_free(a);
        return NULL;
    }
    GString *t = g_string_new(a);
    g_string_append_c(t, '\n');
    uint32_t offset = 1; /* the extra file's line 1 is the text's line offset + 1 */
    for (const char *c = a; *c; c++)
        offset += *c == '\n';
    gchar **lines = g_strsplit(b, "\n", -1);
    for (gchar **l = lines; *l; l++) {
        const char *s = *l + strspn(*l, " \t");
        if (!g_str_has_prefix(s, ".version") && !g_str_has_prefix(s, ".target") &&
            !g_str_has_prefix(s, ".address_size"))
            g_string_append(t, *l);
        g_string_append_c(t, '\n');
    }
    g_strfreev(lines);
    ir_module *m = ptx_parse_string(t->str, (gssize)t->len, path, gerr);
    g_string_free(t, TRUE);
    /* the extra file's instructions carry their own lines (its functions are named by their file
     * where they run: cta_launch_t.own_mod) */
    for (unsigned f = 0; m && f < m->funcs->len; f++) {
        ir_func *fn = g_ptr_array_index(m->funcs, f);
        for (uint32_t i = 0; i < ir_func_n_instrs(fn); i++) {
            ir_instr *in = (ir_instr *)ir_func_instr(fn, i);
            if (in->line > offset)
                in->line -= offset;
        }
    }
    g_free(a);
    g_free(b);
    return m;
}

static ir_module *kernel_parse(const tb_kernel *k)
{
    GError *gerr = NULL;
    ir_module *m = tb_kernel_extra_ptx ? parse_with_extra(k->path, &gerr) : ptx_parse_file(k->path, &gerr);
    if (!m)
        die(TB_EXIT_USAGE, "%s", gerr->message);
    return m;
}

bool (*tb_kernel_pass_gate)(tb_kernel *k, const tb_opts *o, const occupancy_sm *sm, unsigned n_sms);
static unsigned load_sms = 1; /* the machine's SMs, for the gate (tb_main_ext sets it) */

/* The pass (tb_kernel_pass) on the parsed module; with a gate, only if the gate, asked about the
 * module as parsed and allocated, says so, on the module parsed again. Then the allocation. */
static void kernel_pass_allocate(tb_kernel *k, const tb_opts *o, const char *sm_path, bool subcore)
{
    occupancy_sm occ;
    if (tb_kernel_pass && tb_kernel_pass_gate) {
        kernel_allocate(k, o, sm_path, subcore, &occ);
        bool apply = tb_kernel_pass_gate(k, o, &occ, load_sms);
        ir_module_free(k->mod);
        k->mod = kernel_parse(k);
        if (apply)
            tb_kernel_pass(k->mod);
    } else if (tb_kernel_pass)
        tb_kernel_pass(k->mod);
    kernel_allocate(k, o, sm_path, subcore, &occ);
}

/* The functional run of tb_kernel_launches: the functional runner's device, each launch recorded. */
typedef struct {
    wl_device dev;
    wl_device *inner;
    const kload_module *k;
    GArray *out;
} rec_device;

static uint64_t rec_alloc(wl_device *dev, size_t bytes)
{
    rec_device *r = dev->impl;
    return r->inner->ops->alloc(r->inner, bytes);
}

static int rec_write(wl_device *dev, uint64_t addr, const void *src, size_t bytes, GString *err)
{
    rec_device *r = dev->impl;
    return r->inner->ops->write(r->inner, addr, src, bytes, err);
}

static int rec_read(wl_device *dev, uint64_t addr, void *dst, size_t bytes, GString *err)
{
    rec_device *r = dev->impl;
    return r->inner->ops->read(r->inner, addr, dst, bytes, err);
}

/* A launch as cta_dispatch_start counts it: with a dynamic array the static part ends where it starts. */
static void rec_add(GArray *out, const kload_module *k, uint32_t entry, const unsigned grid[3],
                    const unsigned block[3], unsigned shared_dyn)
{
    const kload_func *kf = &k->funcs[entry];
    tb_launch_rec x = {.entry = entry,
                       .shared_dyn = shared_dyn,
                       .smem_static = shared_dyn ? kf->dyn_shared_offset : kf->shared_static};
    memcpy(x.grid, grid, sizeof x.grid);
    memcpy(x.block, block, sizeof x.block);
    g_array_append_val(out, x);
}

static int rec_launch(wl_device *dev, const wl_launch *l, GString *err)
{
    rec_device *r = dev->impl;
    uint32_t entry = kload_find_entry(r->k, l->entry);
    if (entry != IR_NONE)
        rec_add(r->out, r->k, entry, l->grid, l->block, l->shared_bytes);
    return r->inner->ops->launch(r->inner, l, err);
}

/* --grid and --block into l; false with the option and its value named in err. */
static bool launch_dims(const tb_opts *o, wl_launch *l, GString *err)
{
    const char *opt[2] = {"--grid", "--block"}, *text[2] = {o->grid, o->block};
    unsigned *dims[2] = {l->grid, l->block};
    for (unsigned i = 0; i < 2; i++) {
        if (!text[i]) {
            g_string_append_printf(err, "%s X[,Y[,Z]] is missing", opt[i]);
            return false;
        }
        if (!launch_cli_parse_dims(text[i], dims[i])) {
            char *x = blk_excerpt(text[i]);
            g_string_append_printf(err, "%s %s: expected X[,Y[,Z]], one to three integers from 1 to 4294967295",
                                   opt[i], x);
            g_free(x);
            return false;
        }
    }
    return true;
}

static const wl_device_ops rec_ops = {rec_alloc, rec_write, rec_read, rec_launch};

int tb_kernel_launches(tb_kernel *k, const tb_opts *o, GArray *out, GString *err)
{
    if (k->w) {
        wl_device *inner = frun_device_new(k->mod, err);
        if (!inner)
            return -1;
        rec_device r = {{&rec_ops, &r}, inner, frun_device_module(inner), out};
        int rc = k->w->run(k->size, k->seed, &r.dev, err);
        frun_device_free(inner);
        return rc;
    }
    wl_launch l = {.entry = o->entry};
    if (!launch_dims(o, &l, err))
        return -1;
    fmem *mem = fmem_new();
    kload_module *km = kload_module_new(k->mod, mem, err);
    int rc = km ? 0 : -1;
    uint32_t entry = km ? kload_find_entry(km, o->entry) : IR_NONE;
    if (km && entry == IR_NONE) {
        g_string_append_printf(err, "no kernel (.entry) named '%s' in %s", o->entry, k->path);
        rc = -1;
    } else if (km)
        rec_add(out, km, entry, l.grid, l.block, (unsigned)o->shared);
    if (km)
        kload_module_free(km);
    fmem_free(mem);
    return rc;
}

ir_module *tb_kernel_module(tb_kernel *k)
{
    return k->mod;
}

tb_kernel *tb_kernel_load(const tb_opts *o, const char *def, const char *sm_path, bool subcore)
{
    if (o->list_workloads) {
        for (unsigned i = 0; i < workload_count(); i++)
            printf("%s\t%s\n", workload_get(i)->name, workload_get(i)->blurb);
        exit(0);
    }
    if (o->watchdog < 0)
        die(TB_EXIT_USAGE, "--watchdog must not be negative (0: off)");
    if (o->regs_per_thread < 0 || o->regs_per_thread > 255)
        die(TB_EXIT_USAGE, "--regs-per-thread %" G_GINT64_FORMAT " is out of range (1 to 255)",
            o->regs_per_thread);
    if (o->smem_per_cta < 0 || o->smem_per_cta > (gint64)UINT32_MAX)
        die(TB_EXIT_USAGE, "--smem-per-cta %" G_GINT64_FORMAT " is out of range (0 to %u)", o->smem_per_cta,
            UINT32_MAX);
    fmem_check check = FMEM_CHECK_STRICT;
    if (o->memcheck && !fmem_check_parse(o->memcheck, &check))
        die(TB_EXIT_USAGE, "--memcheck '%s': not strict, warn or isolate", o->memcheck);
    if (o->shared < 0 || o->shared > (gint64)UINT32_MAX)
        die(TB_EXIT_USAGE, "--shared %" G_GINT64_FORMAT " is out of range (0 to %u)", o->shared, UINT32_MAX);
    tb_kernel *k = g_new0(tb_kernel, 1);
    k->size = WL_SIZE_TINY;
    k->seed = 1;
    const char *seed = o->run ? o->run->seed : NULL;
    if (seed) {
        guint64 v;
        if (!g_ascii_string_to_unsigned(seed, 10, 0, UINT32_MAX, &v, NULL))
            die(TB_EXIT_USAGE, "--seed '%s': not a number from 0 to 4294967295", seed);
        if (o->ptx)
            die(TB_EXIT_USAGE, "--seed sets the input of a workload (--workload); a --ptx kernel's input is "
                               "its --arg files");
        k->seed = (uint32_t)v;
    }
    if (o->ptx) {
        if (o->workload)
            die(TB_EXIT_USAGE, "--ptx and --workload exclude each other");
        if (!o->entry || !o->grid || !o->block)
            die(TB_EXIT_USAGE, "--ptx needs --entry, --grid and --block");
        k->path = g_strdup(o->ptx);
        k->name = g_strdup(o->entry);
    } else {
        const char *name = o->workload ? o->workload : def;
        k->w = workload_find(name);
        if (!k->w)
            die(TB_EXIT_USAGE, "unknown workload '%s' (--list-workloads lists them)", name);
        if (o->size && !workload_size_parse(o->size, &k->size))
            die(TB_EXIT_USAGE, "unknown size '%s' (tiny, default or large)", o->size);
        const char *defaults[] = {GPUSC_SRC_PTX_DIR};
        GString *perr = g_string_new(NULL);
        k->path = launch_cli_find_ptx(o->ptx_dir, k->w->ptx, defaults, G_N_ELEMENTS(defaults), perr);
        if (!k->path)
            die(TB_EXIT_USAGE, "%s", perr->str);
        g_string_free(perr, TRUE);
        k->name = g_strdup(k->w->name);
    }
    k->mod = kernel_parse(k);
    kernel_pass_allocate(k, o, sm_path, subcore);
    k->regs_per_thread = (unsigned)o->regs_per_thread;
    k->smem_per_cta = (unsigned)o->smem_per_cta;
    k->mem = fmem_new();
    fmem_set_check(k->mem, check);
    GString *err = g_string_new(NULL);
    k->k = kload_module_new(k->mod, k->mem, err);
    if (!k->k) /* its messages start with the file's name */
        die(TB_EXIT_USAGE, "%s", err->str);
    g_string_free(err, TRUE);
    return k;
}

void (*tb_kernel_pass)(ir_module *m);

sm_env *tb_kernel_env(tb_kernel *k, unsigned n_sms)
{
    k->env.mod = k->mod;
    k->env.k = k->k;
    k->env.mem = k->mem;
    k->env.n_sms = n_sms;
    k->env.error = g_string_new(NULL);
    return &k->env;
}

const char *tb_kernel_name(const tb_kernel *k)
{
    return k->name;
}

/* ---- the device ------------------------------------------------------------------------------- */
static uint64_t dev_alloc(wl_device *dev, size_t bytes)
{
    tb_machine *m = dev->impl;
    return fmem_alloc(m->env->mem, bytes);
}

static int dev_write(wl_device *dev, uint64_t addr, const void *src, size_t bytes, GString *err)
{
    tb_machine *m = dev->impl;
    if (fmem_write(m->env->mem, addr, src, bytes))
        return 0;
    g_string_append_printf(err, "device write of %zu bytes: ", bytes);
    fmem_describe_fault(m->env->mem, addr, bytes, true, err);
    return 1;
}

static int dev_read(wl_device *dev, uint64_t addr, void *dst, size_t bytes, GString *err)
{
    tb_machine *m = dev->impl;
    if (fmem_read(m->env->mem, addr, dst, bytes))
        return 0;
    g_string_append_printf(err, "device read of %zu bytes: ", bytes);
    fmem_describe_fault(m->env->mem, addr, bytes, false, err);
    return 1;
}

/* Registers per thread for occupancy: the allocation (32-bit registers) of the entry with the
 * functions it calls (regalloc_entry_regs: a caller's live values stay taken during a call). */
static unsigned entry_regs(tb_machine *m, uint32_t entry)
{
    ir_func *f = g_ptr_array_index(m->env->mod->funcs, entry);
    g_assert(f->n_phys_regs != IR_NONE); /* kernel_allocate allocated every defined function */
    return regalloc_entry_regs(m->env->mod, f, NULL);
}
static void dump_machine(tb_machine *m, GString *out);

/* The summary's line for a kernel: the register count and scratchpad occupancy charged, and what
 * they give (the same figures as gpusc-ptx --resources and gpusc-occupancy). */
static void note_occupancy(tb_machine *m, const char *entry)
{
    if (!m->entries)
        m->entries = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    if (g_hash_table_contains(m->entries, entry))
        return;
    g_hash_table_add(m->entries, g_strdup(entry));
    const occupancy_result *r = cta_dispatch_occupancy(m->d);
    const sm_launch *L = &m->env->launch;
    if (!m->occupancy)
        m->occupancy = g_string_new(NULL);
    g_string_append_printf(m->occupancy,
                           "occupancy: %s: %u registers/thread, %" G_GUINT64_FORMAT
                           " bytes scratchpad/CTA, %u threads/CTA: ctas %u limit %s\n",
                           entry, L->regs_per_thread, r->smem_per_cta,
                           L->block[0] * L->block[1] * L->block[2], r->ctas, occupancy_limit_key(r->limiter));
}

static int dev_launch(wl_device *dev, const wl_launch *l, GString *err)
{
    tb_machine *m = dev->impl;
    sm_env *env = m->env;
    uint32_t entry;
    if (launch_cli_check(env->k, env->mod, l, &entry, err))
        return 1;
    sm_launch *L = &env->launch;
    g_free(L->kparam);
    L->entry = entry;
    L->kparam_bytes = env->k->funcs[entry].kparam_bytes;
    L->kparam = g_malloc0(L->kparam_bytes ? L->kparam_bytes : 1);
    GString *perr = g_string_new(NULL);
    if (kload_pack_params(env->k, entry, l->args, l->n_args, L->kparam, perr)) {
        g_string_append_printf(err, "%s%s",
                               g_str_has_prefix(perr->str, "kernel ") ? "" : "kernel: ", perr->str);
        g_string_free(perr, TRUE);
        return 1;
    }
    g_string_free(perr, TRUE);
    for (unsigned i = 0; i < 3; i++) {
        L->grid[i] = l->grid[i];
        L->block[i] = l->block[i];
    }
    L->shared_dyn = l->shared_bytes;
    L->regs_per_thread = entry_regs(m, entry);
    if (m->k && m->k->regs_per_thread) {
        if (m->k->regs_per_thread < L->regs_per_thread) {
            g_string_append_printf(
                err, "kernel %s: --regs-per-thread %u is less than the %u registers its code needs", l->entry,
                m->k->regs_per_thread, L->regs_per_thread);
            return 1;
        }
        L->regs_per_thread = m->k->regs_per_thread;
    }
    L->smem_per_cta = m->k ? m->k->smem_per_cta : 0;
    if (!cta_dispatch_start(m->d, err))
        return 1;
    note_occupancy(m, l->entry);
    m->last_progress = UINT64_MAX;
    m->spin_completed = 0;
    m->spin_since = gsc_cycle();
    gint64 t0 = g_get_monotonic_time();
    uint64_t limit = m->run->max_cycles > 0 ? (uint64_t)m->run->max_cycles : 0;
    uint64_t now = gsc_cycle();
    if (limit && now >= limit) {
        g_string_append_printf(err, "kernel %s: --max-cycles %" G_GUINT64_FORMAT " reached before the launch",
                               l->entry, limit);
        return 1;
    }
    if (m->mon)
        tb_monitor_run(m->mon, l->entry, limit);
    else
        gsc_run(limit ? limit - now : 0);
    m->seconds += (double)(g_get_monotonic_time() - t0) / 1e6;
    m->launches++;
    L->kernel_no++;
    if (env->failed) {
        g_string_append(err, env->error->str);
        return 1;
    }
    if (m->abort_msg) {
        g_string_append(err, m->abort_msg);
        return 1;
    }
    if (!cta_dispatch_done(m->d)) {
        g_string_append_printf(err,
                               "kernel %s: not finished after %" G_GUINT64_FORMAT
                               " cycles (--max-cycles); state of every warp:\n",
                               l->entry, gsc_cycle());
        dump_machine(m, err);
        return 1;
    }
    return 0;
}

static const wl_device_ops tb_ops = {dev_alloc, dev_write, dev_read, dev_launch};

/* ---- the watchdog and signals ------------------------------------------------------------------ */
/* Cycles between two looks at a pending signal (the watchdog's own period when it is shorter). */
#define TB_SIGNAL_POLL 10000

/* SIGINT, SIGTERM or SIGHUP received (the handler only notes it; the watchdog process stops the
 * run, so the statistics, the JSON and the VCD are still written). A second one kills at once. */
static volatile sig_atomic_t tb_signal;

static void on_signal(int sig)
{
    tb_signal = sig;
}

static void dump_machine(tb_machine *m, GString *out)
{
    for (unsigned s = 0; s < m->n_sms; s++)
        sm_topo_dump_state(m->sms[s], out);
    if (m->extra_dump)
        m->extra_dump(m->extra_dump_ctx, out);
}

/* Stop the run with a reason and the state of every warp (dev_launch reports it). */
static void watchdog_stop(tb_machine *m, GString *out)
{
    dump_machine(m, out);
    m->abort_msg = g_string_free(out, FALSE);
    gsc_stop();
}

/* The watchdog: every `watchdog` cycles, a grid that is running must have issued something; every
 * TB_SIGNAL_POLL cycles, a signal stops the run. */
static void watchdog_run(void *self)
{
    tb_machine *m = self;
    uint64_t now = gsc_cycle();
    if (m->abort_msg)
        return;
    if (tb_signal) {
        GString *out = g_string_new(NULL);
        g_string_append_printf(out,
                               "interrupted by %s at cycle %" G_GUINT64_FORMAT "; state of every warp:\n",
                               g_strsignal(tb_signal), now);
        char *why =
            g_strdup_printf("interrupted by %s at cycle %" G_GUINT64_FORMAT, g_strsignal(tb_signal), now);
        blk_ctx_set_partial(m->run->ctx, why);
        g_free(why);
        watchdog_stop(m, out);
        return;
    }
    /* A grid whose threads keep issuing but no thread block finishes: a kernel that spins. */
    if (m->spin_limit && !cta_dispatch_done(m->d)) {
        uint32_t c = cta_dispatch_completed(m->d);
        if (c != m->spin_completed) {
            m->spin_completed = c;
            m->spin_since = now;
        } else if (now - m->spin_since >= m->spin_limit) {
            GString *out = g_string_new(NULL);
            g_string_append_printf(out,
                                   "no thread block finished for %" G_GUINT64_FORMAT
                                   " cycles (cycle %" G_GUINT64_FORMAT
                                   "; --spin-limit): a kernel that spins? State of every warp:\n",
                                   now - m->spin_since, now);
            watchdog_stop(m, out);
            return;
        }
    }
    if (m->watchdog && now - m->last_check >= m->watchdog) {
        m->last_check = now;
        if (!cta_dispatch_done(m->d)) {
            uint64_t p = 0;
            for (unsigned s = 0; s < m->n_sms; s++)
                p += sm_topo_progress(m->sms[s]);
            /* No issue, but a block will act at a known later cycle (a reply on its way through a
             * slow memory): not a deadlock; say so once and look again a window later. */
            uint64_t next = p == m->last_progress ? gsc_next_scheduled() : UINT64_MAX;
            if (next != UINT64_MAX) {
                if (!m->slow_noted)
                    fprintf(stderr,
                            "gpusc: note: no instruction issued for %" G_GUINT64_FORMAT
                            " cycles (cycle %" G_GUINT64_FORMAT
                            "), but the next scheduled event is at cycle %" G_GUINT64_FORMAT
                            ": a slow machine, not a deadlock (the watchdog goes on watching)\n",
                            m->watchdog, now, next);
                m->slow_noted = true;
            } else if (p == m->last_progress) {
                GString *out = g_string_new(NULL);
                g_string_append_printf(out,
                                       "watchdog: no instruction issued for %" G_GUINT64_FORMAT
                                       " cycles (cycle %" G_GUINT64_FORMAT "); state of every warp:\n",
                                       m->watchdog, now);
                watchdog_stop(m, out);
                return;
            }
            m->last_progress = p;
        }
    }
    gsc_next_trigger_cycles(m->watchdog && m->watchdog < TB_SIGNAL_POLL ? m->watchdog : TB_SIGNAL_POLL);
}

/* ---- derived figures -------------------------------------------------------------------------- */
static uint64_t sum_stat(const tb_machine *m, int which, unsigned idx)
{
    uint64_t v = 0;
    for (unsigned s = 0; s < m->n_sms; s++) {
        if (which == 0)
            v += blk_stat_get(sm_topo_issue_inst(m->sms[s]), idx);
        else if (which == 1)
            v += blk_stat_get(sm_topo_ldst_inst(m->sms[s]), idx);
        else
            for (unsigned p = 0; p < SM_MAX_PARTS; p++) {
                blk_inst *e = sm_topo_regfile_inst(m->sms[s], p);
                if (e)
                    v += blk_stat_get(e, idx);
            }
    }
    return v;
}

static double d_ipc(const blk_ctx *ctx, void *data)
{
    (void)ctx;
    return stats_ratio(sum_stat(data, 0, ISSUE_STAT_WARP_INSTRS), gsc_cycle());
}

static double d_l1(const blk_ctx *ctx, void *data)
{
    (void)ctx;
    uint64_t h = sum_stat(data, 1, LDST_STAT_L1_HITS);
    return stats_ratio(h,
                       h + sum_stat(data, 1, LDST_STAT_L1_MISSES) + sum_stat(data, 1, LDST_STAT_L1_MERGED));
}

static double d_stall(const blk_ctx *ctx, void *data, unsigned idx)
{
    (void)ctx;
    uint64_t total = 0;
    for (unsigned i = ISSUE_STAT_ISSUE_CYCLES; i <= ISSUE_STAT_STALL_VETOED; i++)
        total += sum_stat(data, 0, i);
    return stats_ratio(sum_stat(data, 0, idx), total);
}
#define STALL_FN(n, idx)                                                                                     \
    static double n(const blk_ctx *c, void *d)                                                               \
    {                                                                                                        \
        return d_stall(c, d, idx);                                                                           \
    }
STALL_FN(d_issue, ISSUE_STAT_ISSUE_CYCLES)
STALL_FN(d_no_ready, ISSUE_STAT_STALL_NO_READY)
STALL_FN(d_sb, ISSUE_STAT_STALL_SCOREBOARD)
STALL_FN(d_pipe, ISSUE_STAT_STALL_PIPELINE)
STALL_FN(d_mem, ISSUE_STAT_STALL_MEMORY)
STALL_FN(d_bar, ISSUE_STAT_STALL_BARRIER)
STALL_FN(d_idle, ISSUE_STAT_STALL_IDLE)
STALL_FN(d_check, ISSUE_STAT_STALL_CHECK)
STALL_FN(d_vetoed, ISSUE_STAT_STALL_VETOED)

static double d_conflicts(const blk_ctx *ctx, void *data)
{
    (void)ctx;
    return (double)sum_stat(data, 2, REGFILE_STAT_BANK_CONFLICTS);
}

static double d_ctas(const blk_ctx *ctx, void *data)
{
    (void)ctx;
    const tb_machine *m = data;
    return stats_ratio(sum_stat(data, 0, ISSUE_STAT_CTA_CYCLES), gsc_cycle() * (uint64_t)m->n_sms);
}

static double d_speed(const blk_ctx *ctx, void *data)
{
    (void)ctx;
    const tb_machine *m = data;
    return m->seconds > 0 ? (double)gsc_cycle() / m->seconds : 0;
}

static double d_act(const blk_ctx *ctx, void *data)
{
    (void)ctx;
    (void)data;
    return stats_ratio(gsc_activations(), gsc_cycle());
}

tb_machine *tb_machine_new(cli_run *run, sm_env *env, cta_dispatch *d, sm_topo **sms, unsigned n_sms)
{
    tb_machine *m = g_new0(tb_machine, 1);
    m->dev.ops = &tb_ops;
    m->dev.impl = m;
    m->run = run;
    m->env = env;
    m->d = d;
    m->sms = g_memdup2(sms, n_sms * sizeof *sms);
    m->n_sms = n_sms;
    blk_ctx *c = run->ctx;
    blk_ctx_add_derived(c, "tb.ipc", "instructions/cycle", "warp instructions per cycle, all SMs", d_ipc, m);
    blk_ctx_add_derived(c, "tb.issue_slot_use", "ratio", "scheduler-cycles with an issue", d_issue, m);
    blk_ctx_add_derived(c, "tb.stall_no_ready_warp", "ratio", "scheduler-cycles: no valid instruction",
                        d_no_ready, m);
    blk_ctx_add_derived(c, "tb.stall_scoreboard", "ratio", "scheduler-cycles: waiting on a short result",
                        d_sb, m);
    blk_ctx_add_derived(c, "tb.stall_pipeline_busy", "ratio", "scheduler-cycles: unit busy", d_pipe, m);
    blk_ctx_add_derived(c, "tb.stall_memory", "ratio", "scheduler-cycles: waiting on a load", d_mem, m);
    blk_ctx_add_derived(c, "tb.stall_barrier", "ratio", "scheduler-cycles: warps at a barrier", d_bar, m);
    blk_ctx_add_derived(c, "tb.stall_idle", "ratio", "scheduler-cycles: no resident warp", d_idle, m);
    blk_ctx_add_derived(c, "tb.stall_check", "ratio", "scheduler-cycles: a ready warp refused by a check",
                        d_check, m);
    blk_ctx_add_derived(c, "tb.stall_vetoed", "ratio", "scheduler-cycles: ready warps vetoed by the policy",
                        d_vetoed, m);
    blk_ctx_add_derived(c, "tb.l1_hit_rate", "ratio", "L1D read hits / reads, all SMs", d_l1, m);
    blk_ctx_add_derived(c, "tb.bank_conflicts", "read-cycles", "register bank conflicts, all SMs",
                        d_conflicts, m);
    blk_ctx_add_derived(c, "tb.resident_ctas_per_sm", "CTAs", "average resident CTAs per SM", d_ctas, m);
    blk_ctx_add_derived(c, "tb.activations_per_cycle", "activations/cycle",
                        "process activations per cycle (sleeping blocks cost none)", d_act, m);
    blk_ctx_add_derived_wallclock(c, "tb.cycles_per_second", "cycles/s",
                                  "simulation speed (wall clock, launches only)", d_speed, m);
    return m;
}

static int run_ptx(tb_machine *m, tb_kernel *k, const tb_opts *o, GString *err)
{
    wl_launch l = {.entry = o->entry, .shared_bytes = (unsigned)o->shared};
    if (!launch_dims(o, &l, err))
        return TB_EXIT_USAGE;
    uint32_t entry = kload_find_entry(k->k, o->entry);
    if (entry == IR_NONE) {
        g_string_append_printf(err, "no kernel (.entry) named '%s' in %s", o->entry, k->path);
        return TB_EXIT_USAGE;
    }
    const ir_func *f = g_ptr_array_index(k->mod->funcs, entry);
    unsigned np = f->params ? f->params->len : 0, na = o->args ? g_strv_length(o->args) : 0;
    if (np != na) {
        g_string_append_printf(err, "kernel %s takes %u arguments, %u given (--arg)", o->entry, np, na);
        return TB_EXIT_USAGE;
    }
    launch_cli_args *args = launch_cli_args_new();
    int rc = launch_cli_convert(args, f, o->args, &m->dev, err) ? TB_EXIT_USAGE : TB_EXIT_OK;
    l.args = launch_cli_values(args);
    l.n_args = np;
    if (!rc && (dev_launch(&m->dev, &l, err) || launch_cli_write_outputs(args, &m->dev, err)))
        rc = TB_EXIT_RUN;
    launch_cli_args_free(args);
    return rc;
}

int tb_machine_run(tb_machine *m, tb_kernel *k, const tb_opts *o)
{
    m->k = k;
    m->watchdog = o->watchdog > 0 ? (uint64_t)o->watchdog : 0;
    if (o->spin_limit < 0)
        die(TB_EXIT_USAGE, "--spin-limit must not be negative (0: off)");
    m->spin_limit = (uint64_t)o->spin_limit;
    if (o->sample_every < 0)
        die(TB_EXIT_USAGE, "--sample-every must not be negative");
    if (o->progress && o->no_progress)
        die(TB_EXIT_USAGE, "--progress and --no-progress exclude each other");
    int progress = o->progress ? 1 : -1; /* -1: when stdout is a terminal */
    if (o->no_progress)
        progress = 0;
    char *problem;
    m->mon = tb_monitor_new(m->run, m->d, m->sms, m->n_sms, progress, o->samples, (uint64_t)o->sample_every,
                            o->sample_stats, &problem);
    if (problem)
        die(TB_EXIT_USAGE, "%s", problem);
    GString *err = g_string_new(NULL);
    int rc;
    if (k->w) {
        rc = k->w->run(k->size, k->seed, &m->dev, err) ? TB_EXIT_RUN : TB_EXIT_OK;
        if (rc)
            fprintf(stderr, "gpusc: workload %s (%s, seed %u): %s\n", k->w->name, workload_size_name(k->size),
                    (unsigned)k->seed, err->len ? err->str : "failed");
    } else {
        rc = run_ptx(m, k, o, err);
        if (rc)
            fprintf(stderr, "gpusc: %s\n", err->str);
    }
    g_string_free(err, TRUE);
    if (!tb_monitor_free(m->mon, &problem))
        die(TB_EXIT_RUN, "%s", problem);
    m->mon = NULL;
    return rc;
}

wl_device *tb_machine_device(tb_machine *m)
{
    return &m->dev;
}

void tb_machine_set_dump(tb_machine *m, tb_dump_fn fn, void *ctx)
{
    m->extra_dump = fn;
    m->extra_dump_ctx = ctx;
}

/* Created before elaboration (the watchdog process), after tb_machine_new. */
void tb_machine_watchdog(tb_machine *m, gsc_module *mod, uint64_t cycles)
{
    m->watchdog = cycles;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sa.sa_flags = SA_RESETHAND; /* the second one kills */
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
    m->wd = gsc_process_new(mod, "watchdog", watchdog_run, m);
    gsc_process_initialize(m->wd);
}

int tb_exit_status(int rc)
{
    return tb_signal ? 128 + tb_signal : rc;
}

void tb_machine_summary(tb_machine *m, FILE *out)
{
    uint64_t cycles = gsc_cycle();
    uint64_t wi = sum_stat(m, 0, ISSUE_STAT_WARP_INSTRS);
    fprintf(out,
            "summary: %s: %" G_GUINT64_FORMAT " cycles, %" G_GUINT64_FORMAT " warp instructions, IPC %.3f, "
            "L1D hit rate %.3f, %" G_GUINT64_FORMAT
            " bank conflicts, %.2f resident CTAs/SM, %.0f cycles/s, %.0f warp instructions/s",
            m->k ? m->k->name : "?", cycles, wi, stats_ratio(wi, cycles), d_l1(NULL, m),
            sum_stat(m, 2, REGFILE_STAT_BANK_CONFLICTS), d_ctas(NULL, m), d_speed(NULL, m),
            m->seconds > 0 ? (double)wi / m->seconds : 0.0);
    if (blk_ctx_has_energy(m->run->ctx)) {
        blk_energy e = blk_ctx_energy(m->run->ctx, cycles);
        fprintf(out, ", energy %.3f nJ (dynamic %.3f, leakage %.3f)", (e.dynamic_pj + e.leakage_pj) / 1e3,
                e.dynamic_pj / 1e3, e.leakage_pj / 1e3);
    }
    fputc('\n', out);
    if (m->occupancy)
        fputs(m->occupancy->str, out);
}

int tb_kernel_run_functional(tb_kernel *k, FILE *trace, GString *err)
{
    if (!k->w) {
        g_string_assign(err, "a functional pre-run needs a workload (--workload)");
        return -1;
    }
    wl_device *dev = frun_device_new(k->mod, err);
    if (!dev)
        return -1;
    frun_device_set_trace(dev, trace);
    int rc = k->w->run(k->size, k->seed, dev, err);
    frun_device_free(dev);
    return rc;
}

sm_env *tb_kernel_env_of(tb_kernel *k)
{
    return &k->env;
}

bool tb_kernel_refuse_spu(const tb_kernel *k, const char *program)
{
    const char *what;
    const ir_instr *use = spu_isa_first_use(k->mod, &what);
    if (use) /* bar.blocksync, CB accesses and SPU registers: only tb-spu has an SPU */
        fprintf(stderr, "gpusc: %s:%u: %s needs the SPU machine (tb-spu): %s has no SPU\n", k->mod->filename,
                use->line, what, program);
    return use != NULL;
}

bool tb_kernel_refuse_narrow(const tb_kernel *k, unsigned warp_size, const char *program)
{
    if (warp_size >= IR_WARP_SIZE)
        return false;
    const ir_module *m = k->mod;
    for (unsigned f = 0; f < m->funcs->len; f++) {
        const ir_func *fn = g_ptr_array_index(m->funcs, f);
        for (unsigned i = 0; fn->instrs && i < fn->instrs->len; i++) {
            const ir_instr *in = &g_array_index(fn->instrs, ir_instr, i);
            bool warp_wide = in->op == IR_OP_SHFL || in->op == IR_OP_VOTE || in->op == IR_OP_ACTIVEMASK ||
                             (in->op == IR_OP_BAR && in->sub == IR_BAR_WARP_SYNC);
            if (warp_wide) { /* their lane numbers and masks are those of a 32-thread warp */
                fprintf(stderr, "gpusc: %s:%u: %s assumes 32-thread warps: %s refuses it at warp size %u\n",
                        m->filename, in->line, ir_op_name((ir_opcode)in->op), program, warp_size);
                return true;
            }
        }
    }
    return false;
}

int tb_main_ext(machine_kind kind, int argc, char **argv, const tb_ext *ext)
{
    machine_register(kind);
    const machine_info *mi = machine_info_get(kind);
    cli_run *run = cli_new(ext && ext->program ? ext->program : mi->program,
                           ext && ext->summary ? ext->summary : mi->summary, mi->top, "tb",
                           ext && ext->default_preset ? ext->default_preset : mi->default_preset);
    machine_cli(run, kind);
    tb_opts o;
    tb_opts_add(run, &o);
    if (ext && ext->options)
        ext->options(run, ext->ctx);
    cli_parse(run, &argc, &argv);
    if (ext && ext->parsed)
        ext->parsed(run, ext->ctx);
    machine *mach = machine_new(kind, run->ctx, run->top->mod);
    bool subcore;
    char *sm_path = machine_sm_path(mach, &subcore);
    load_sms = machine_n_sms(mach);
    tb_kernel *k = tb_kernel_load(&o, "vecadd", sm_path, subcore);
    g_free(sm_path);
    sm_env *env = tb_kernel_env(k, machine_n_sms(mach));
    if (tb_kernel_refuse_spu(k, ext && ext->program ? ext->program : mi->program))
        return TB_EXIT_USAGE;
    int refused = ext && ext->check ? ext->check(mach, k, ext->ctx) : 0;
    if (refused)
        return refused;
    machine_build(mach, env);
    if (tb_kernel_refuse_narrow(k, sm_env_warp_size(env), ext && ext->program ? ext->program : mi->program))
        return TB_EXIT_USAGE;
    if (ext && ext->built)
        ext->built(mach, k, ext->ctx);
    tb_machine *m = tb_machine_new(run, env, machine_dispatch(mach), machine_sms(mach), machine_n_sms(mach));
    tb_machine_watchdog(m, run->top->mod, o.watchdog > 0 ? (uint64_t)o.watchdog : 0);
    if (machine_gpu(mach))
        tb_machine_set_dump(m, machine_dump_state, mach);
    cli_elaborate(run);

    int rc = tb_machine_run(m, k, &o);
    const char *fault = machine_fault(mach);
    if (fault && rc == 0) {
        fprintf(stderr, "gpusc: %s\n", fault);
        rc = TB_EXIT_RUN;
    }
    cli_finish(run, gsc_cycle());
    tb_machine_summary(m, stdout);
    machine_summary(mach, stdout);
    if (ext && ext->finished)
        ext->finished(mach, rc, ext->ctx);
    printf("%s: %s: %s\n", ext && ext->program ? ext->program : mi->program, tb_kernel_name(k),
           tb_exit_status(rc) != rc ? "INTERRUPTED"
           : rc == 0                ? "PASS"
                                    : "FAIL");
    return tb_exit_status(rc);
}

void tb_write_view(cli_run *run, const char *file, bool after_vcd, bool (*keep)(const char *name, void *ctx),
                   void *ctx)
{
    if (run->no_trace || !run->vcd_path || !g_str_has_suffix(run->vcd_path, ".vcd") ||
        !g_file_test(run->vcd_path, G_FILE_TEST_EXISTS))
        return;
    char *base = g_strndup(run->vcd_path, strlen(run->vcd_path) - 4);
    char *dir = g_path_get_dirname(run->vcd_path);
    char *path = after_vcd ? g_strconcat(base, file, NULL) : g_build_filename(dir, file, NULL);
    GError *err = NULL;
    if (!gtkw_write_traced_some(path, run->vcd_path, gsc_clock_period_ps(run->clock), base, keep, ctx,
                                &err)) {
        fprintf(stderr, "gpusc: %s\n", err->message);
        g_error_free(err);
    }
    g_free(path);
    g_free(dir);
    g_free(base);
}

int tb_main(machine_kind kind, int argc, char **argv)
{
    return tb_main_ext(kind, argc, argv, NULL);
}
