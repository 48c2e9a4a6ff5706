/* gpusc-ptx — print a PTX kernel the way the toolchain sees it, like a disassembler.
 *
 *   gpusc-ptx FILE [--entry NAME] [--after PASS] [--greener[=W]] [--relssp[=opt|postdom]] [--resources]
 *             [--smem-layout [--threshold t] [--smem-per-cta BYTES]]
 *             [--occupancy THREADS [--dynamic-shared BYTES] [--markdown]]
 *             [--preset NAME] [--config FILE] [--set SECTION.KEY=VALUE]
 *
 * PASS is one of: parse (as parsed: instructions with their index), cfg (basic blocks with preds,
 * succs, loop depth, idom, ipdom, reconvergence points), split (cfg after critical-edge splitting),
 * regalloc (rematerialization + allocation: physical registers R12, pairs R12:R13, predicates P3),
 * lastuse, reconv and divergence (regalloc, then that annotation pass: its fields after each
 * instruction).
 * --greener[=W] runs the greener power-state pass (kernels/passes/greener.h, threshold W, default 3) after
 * allocation and prints each instruction's encoded states: "// power ON, SLEEP, OFF" (destination, sources).
 * --relssp[=opt|postdom] places `relssp` in every kernel first (kernels/passes/relssp.h).
 * --smem-layout [--threshold t] [--smem-per-cta BYTES] prints the scratchpad layout the spvar_layout
 * pass chooses for scratchpad sharing at threshold t (default 0.1) with BYTES per CTA (default: what
 * the kernel declares), as `tb-sharing --smem-layout` applies it: each kernel's static .shared
 * variables with their offsets and regions (docs/sharing.md).
 * --resources prints our register count beside ptxas's from FILE's .resources (same name, if present).
 * --reuse-hints TRACE [--rthld N] [--profile-warps N] prints the reuse-profile pass's near/far hints of
 * the register-cache (Malekeh, docs/rfcache.md) per instruction ("FUNC pc P src NF dst N"), from TRACE:
 * the instruction trace of a functional run of FILE's rewritten code (gpusc-run --functional
 * --rewritten --ptx FILE ... --trace TRACE); the first N warps (default 1) of block (0,0,0) of each
 * launch are profiled, near = reuse distance <= RTHLD (default 12).
 * --occupancy T prints the occupancy of the entry with T threads per block, plus BYTES of dynamic
 * shared memory per block, on the SM of the configuration (models/lib/occupancy.c; --preset, default
 * gtx480, --config and --set as the testbenches take them); --markdown prints it as a table row.
 * The allocation spills above the configuration's max_regs_per_thread, as the testbenches' does.
 *
 * Exit status: 0 success, 1 input error (unreadable file, parse error, unknown entry), 2 usage error.
 */
#include "kernels/analysis/annot.h"
#include "kernels/analysis/cfg.h"
#include "kernels/passes/greener.h"
#include "kernels/passes/relssp.h"
#include "kernels/passes/spvar_layout.h"
#include "kernels/frontend/hostfile.h"
#include "kernels/frontend/ptx_parse.h"
#include "kernels/analysis/regalloc.h"
#include "models/lib/occupancy.h"
#include "models/lib/sharing.h"
#include "kernels/passes/renaming.h"
#include "models/machines/machine.h"
#include "models/sm/reuse_trace.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { EXIT_OK = 0, EXIT_INPUT = 1, EXIT_USAGE = 2 };

/* --greener[=W]: the greener power-state pass after allocation, its states after each instruction
 * (0: not asked). */
static unsigned greener_w;

static gboolean greener_opt(const char *name, const char *value, gpointer data, GError **err)
{
    (void)name;
    (void)data;
    char *end = NULL;
    long w = value ? strtol(value, &end, 10) : GREENER_W_DEFAULT;
    if (value && (*value == '\0' || *end != '\0' || w < 1 || w > GREENER_MAX_W)) {
        g_set_error(err, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, "--greener: W must be 1..%d, not '%s'",
                    GREENER_MAX_W, value);
        return FALSE;
    }
    greener_w = (unsigned)w;
    return TRUE;
}

typedef enum { STAGE_PARSE, STAGE_CFG, STAGE_SPLIT, STAGE_REGALLOC, STAGE_ANNOT } stage;

static int G_GNUC_PRINTF(2, 3) die(int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("gpusc: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    return code;
}

/* ---- ptxas's numbers ---- */
typedef struct {
    bool found;
    unsigned regs, shared;
} ptxas_info;

static ptxas_info ptxas_lookup(const char *ptx_path, const char *entry)
{
    ptxas_info pi = { 0 };
    char *base = g_str_has_suffix(ptx_path, ".ptx") ? g_strndup(ptx_path, strlen(ptx_path) - 4) : g_strdup(ptx_path);
    char *path = g_strconcat(base, ".resources", NULL), *text = NULL;
    GError *err = NULL;
    /* (an input like any other: bounded, a NUL byte an error; no sidecar is the common case) */
    if (!hostfile_read(path, HOSTFILE_TEXT, &text, NULL, &err)) {
        if (!g_error_matches(err, G_FILE_ERROR, G_FILE_ERROR_NOENT))
            g_printerr("gpusc-ptx: warning: %s; ptxas's figures not shown\n", err->message);
        g_clear_error(&err);
    } else {
        char **lines = g_strsplit(text, "\n", -1);
        for (char **ln = lines; *ln && !pi.found; ln++) {
            char name[256];
            unsigned r, s;
            if (sscanf(*ln, "entry=%255s registers=%u shared=%u", name, &r, &s) == 3 && strcmp(name, entry) == 0) {
                pi.found = true;
                pi.regs = r;
                pi.shared = s;
            }
        }
        g_strfreev(lines);
        g_free(text);
    }
    g_free(path);
    g_free(base);
    return pi;
}

/* ---- resources of an entry from the IR ---- */

/* Static shared bytes the function (and its callees) reference: every distinct .shared symbol. */
static void shared_syms(const ir_module *m, const ir_func *f, GHashTable *seen, int depth)
{
    for (uint32_t i = 0; i < ir_func_n_instrs(f); i++) {
        const ir_instr *in = ir_func_instr(f, i);
        for (unsigned k = 0; k < in->n_src + in->n_dst; k++) {
            const ir_operand *o = k < in->n_src ? &in->src[k] : &in->dst[k - in->n_src];
            uint32_t sym = IR_NONE;
            if (o->kind == IR_OPND_MEM || o->kind == IR_OPND_ADDR)
                sym = o->u.mem.base_sym;
            if (sym != IR_NONE && g_array_index(m->syms, ir_sym, sym).space == IR_SPACE_SHARED)
                g_hash_table_add(seen, GUINT_TO_POINTER(sym + 1));
            if (o->kind == IR_OPND_FUNC && depth < 16) {
                const ir_func *c = g_ptr_array_index(m->funcs, o->u.func);
                if (c != f)
                    shared_syms(m, c, seen, depth + 1);
            }
        }
    }
}

static int cmp_ptr_uint(gconstpointer a, gconstpointer b)
{
    guint x = GPOINTER_TO_UINT(*(const gpointer *)a), y = GPOINTER_TO_UINT(*(const gpointer *)b);
    return x < y ? -1 : x > y;
}

/* Laid out in declaration order, each symbol at its alignment. */
static uint64_t shared_bytes(const ir_module *m, const ir_func *f)
{
    GHashTable *seen = g_hash_table_new(g_direct_hash, g_direct_equal);
    shared_syms(m, f, seen, 0);
    GPtrArray *keys = g_ptr_array_new();
    GHashTableIter it;
    gpointer k;
    g_hash_table_iter_init(&it, seen);
    while (g_hash_table_iter_next(&it, &k, NULL))
        g_ptr_array_add(keys, k);
    g_ptr_array_sort(keys, cmp_ptr_uint);
    uint64_t total = 0;
    for (guint i = 0; i < keys->len; i++) {
        const ir_sym *s = &g_array_index(m->syms, ir_sym, GPOINTER_TO_UINT(g_ptr_array_index(keys, i)) - 1);
        uint64_t a = s->align ? s->align : 1;
        total = (total + a - 1) / a * a + s->size;
    }
    g_ptr_array_unref(keys);
    g_hash_table_destroy(seen);
    return total;
}

/* ---- occupancy (models/lib/occupancy.c, on the configuration's SM) ---- */
typedef struct {
    unsigned by_blocks, by_threads, by_regs, by_shared, blocks, warps;
    char limiter[64];
} occupancy;

static occupancy occupancy_of(const occupancy_sm *sm, unsigned regs, uint64_t shared, unsigned threads)
{
    occupancy o = {0};
    occupancy_kernel k = {.regs_per_thread = regs,
                          .smem_static = (unsigned)MIN(shared, UINT32_MAX),
                          .threads_per_cta = threads};
    occupancy_result r;
    /* ptxas's counts (another machine's) may exceed the register limit: computed without it */
    occupancy_sm any = *sm;
    any.max_regs_per_thread = 0;
    if (!occupancy_compute(&any, &k, &r, NULL))
        memset(&r, 0, sizeof r); /* not even one CTA fits: 0 resident blocks */
    o.by_blocks = r.by_resource[OCCUPANCY_LIMIT_CTAS];
    o.by_threads = MIN(r.by_resource[OCCUPANCY_LIMIT_THREADS], r.by_resource[OCCUPANCY_LIMIT_WARPS]);
    o.by_regs = r.by_resource[OCCUPANCY_LIMIT_REGS];
    o.by_shared = r.by_resource[OCCUPANCY_LIMIT_SMEM];
    o.blocks = r.ctas;
    o.warps = r.ctas * r.warps_per_cta;
    const char *names[] = {"blocks", "threads", "registers", "shared"};
    unsigned vals[] = {o.by_blocks, o.by_threads, o.by_regs, o.by_shared};
    for (int i = 0; i < 4; i++)
        if (vals[i] == o.blocks) {
            if (o.limiter[0])
                g_strlcat(o.limiter, " = ", sizeof o.limiter);
            g_strlcat(o.limiter, names[i], sizeof o.limiter);
        }
    return o;
}

static void fmt_limit(char *buf, size_t n, unsigned v)
{
    if (v == UINT32_MAX)
        g_strlcpy(buf, "-", n);
    else
        g_snprintf(buf, n, "%u", v);
}

/* ---- printing ---- */

static char *phys_name(const ir_reg *r)
{
    if (r->phys == IR_NONE)
        return g_strdup(r->name);
    unsigned w = regalloc_units((ir_type)r->type);
    if (w == 0)
        return g_strdup_printf("P%u", r->phys);
    if (w == 1)
        return g_strdup_printf("R%u", r->phys);
    return g_strdup_printf("R%u:R%u", r->phys, r->phys + w - 1);
}

static void print_block_list(GString *s, const GArray *a, const char *none)
{
    if (a->len == 0)
        g_string_append(s, none);
    for (guint i = 0; i < a->len; i++)
        g_string_append_printf(s, "%sB%u", i ? " " : "", g_array_index(a, uint32_t, i));
}

static void print_block_header(GString *s, ir_func *f, uint32_t b)
{
    const ir_block *bl = cfg_block(f, b);
    g_string_append_printf(s, "B%u: [%u..%u] preds ", b, bl->first, bl->last);
    print_block_list(s, bl->pred, "-");
    g_string_append(s, " | succs ");
    bool exits = cfg_block_exits(f, b);
    print_block_list(s, bl->succ, exits ? "" : "-");
    if (exits)
        g_string_append(s, bl->succ->len ? " exit" : "exit");
    g_string_append_printf(s, " | depth %u", cfg_loop_depth(f, b));
    uint32_t l = cfg_block_loop(f, b);
    if (l != IR_NONE && cfg_get_loop(f, l)->header == b)
        g_string_append(s, " header");
    uint32_t id = cfg_idom(f, b), ip = cfg_ipdom(f, b);
    if (id == IR_NONE)
        g_string_append(s, cfg_reachable(f, b) ? " | idom -" : " | unreachable");
    else
        g_string_append_printf(s, " | idom B%u", id);
    if (ip == cfg_exit(f))
        g_string_append(s, " | ipdom exit\n");
    else
        g_string_append_printf(s, " | ipdom B%u\n", ip);
}

static void print_func(GString *s, const ir_module *m, ir_func *f, stage st, const char *pass)
{
    g_string_append_printf(s, "%s %s", f->is_entry ? ".entry" : ".func", f->name);
    if (st >= STAGE_REGALLOC) {
        g_string_append_printf(s, "  // %u registers", f->n_phys_regs);
        if (f->n_phys_regs)
            g_string_append_printf(s, " (R0..R%u)", f->n_phys_regs - 1);
        g_string_append_printf(s, ", %u predicates", f->n_phys_preds);
    }
    g_string_append_printf(s, ", %u instructions", ir_func_n_instrs(f));
    if (st >= STAGE_CFG)
        g_string_append_printf(s, ", %u blocks, %u loops", cfg_n_blocks(f), cfg_n_loops(f));
    g_string_append_c(s, '\n');
    /* After allocation, print physical names: swap them into the register table while printing. */
    char **saved = NULL;
    if (st >= STAGE_REGALLOC) {
        saved = g_new(char *, f->regs->len + 1);
        for (guint r = 0; r < f->regs->len; r++) {
            ir_reg *rg = &g_array_index(f->regs, ir_reg, r);
            saved[r] = rg->name;
            rg->name = phys_name(rg);
        }
    }
    bool *target = g_new0(bool, ir_func_n_instrs(f) + 1);
    for (uint32_t i = 0; i < ir_func_n_instrs(f); i++) {
        uint32_t t = cfg_branch_target(ir_func_instr(f, i));
        if (t != IR_NONE && t <= ir_func_n_instrs(f))
            target[t] = true;
    }
    for (uint32_t i = 0; i < ir_func_n_instrs(f); i++) {
        ir_instr *in = ir_func_instr(f, i);
        if (st >= STAGE_CFG && cfg_block(f, in->block)->first == i)
            print_block_header(s, f, in->block);
        else if (st == STAGE_PARSE && target[i])
            g_string_append_printf(s, "$L__%u:\n", i);
        g_string_append_printf(s, "%6u  ", i);
        ir_print_instr(s, m, f, in);
        if (st >= STAGE_CFG && cfg_branch_is_divergent(in)) {
            if (in->reconv == IR_NONE)
                g_string_append(s, "  // reconv exit");
            else
                g_string_append_printf(s, "  // reconv %u", in->reconv);
        }
        if (pass)
            annot_print_instr(s, in, pass);
        if (greener_w)
            greener_print_states(s, in);
        g_string_append_c(s, '\n');
    }
    if (st == STAGE_PARSE && target[ir_func_n_instrs(f)])
        g_string_append_printf(s, "$L__%u:\n", ir_func_n_instrs(f));
    g_free(target);
    if (saved) {
        for (guint r = 0; r < f->regs->len; r++) {
            ir_reg *rg = &g_array_index(f->regs, ir_reg, r);
            g_free(rg->name);
            rg->name = saved[r];
        }
        g_free(saved);
    }
}

/* The passes before allocation (every function), then the allocation of the whole module (spilling
 * above max_regs registers per thread, kernels with their callees), then the annotation pass. */
/* --relssp[=opt|postdom]: the relssp placement pass first (kernels/passes/relssp.h); 0: none. */
static int relssp_mode;

static gboolean relssp_opt(const char *name, const char *value, gpointer data, GError **err)
{
    (void)name, (void)data;
    if (!value || strcmp(value, "opt") == 0)
        relssp_mode = 1 + RELSSP_OPT;
    else if (strcmp(value, "postdom") == 0)
        relssp_mode = 1 + RELSSP_POSTDOM;
    else {
        g_set_error(err, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                    "--relssp: expected opt or postdom, not '%s'", value);
        return FALSE;
    }
    return TRUE;
}

static int run_stages(ir_module *m, stage st, const char *pass, unsigned max_regs)
{
    if (relssp_mode)
        relssp_place_module(m, (relssp_variant)(relssp_mode - 1));
    for (guint i = 0; i < m->funcs->len; i++) {
        ir_func *f = g_ptr_array_index(m->funcs, i);
        if (!f->is_defined)
            continue;
        if (st >= STAGE_CFG) {
            cfg_build(f);
            cfg_compute_reconvergence(f);
        }
        if (st == STAGE_SPLIT)
            cfg_split_critical_edges(f);
    }
    if (st >= STAGE_REGALLOC)
        regalloc_module_limit(m, max_regs, NULL);
    for (guint i = 0; i < m->funcs->len; i++) {
        ir_func *f = g_ptr_array_index(m->funcs, i);
        if (!f->is_defined)
            continue;
        GError *err = NULL;
        if (st >= STAGE_REGALLOC && !regalloc_check(f, &err))
            g_error("%s", err->message); /* an internal invariant: the allocator produced a conflict */
        if (st == STAGE_ANNOT && !annot_pass_run(pass, f))
            return -1;
        if (greener_w)
            greener_pass(f, greener_w);
    }
    return 0;
}

static bool parse_stage(const char *name, stage *st, const char **pass)
{
    static const struct {
        const char *name;
        stage st;
    } stages[] = { { "parse", STAGE_PARSE }, { "cfg", STAGE_CFG }, { "split", STAGE_SPLIT }, { "regalloc", STAGE_REGALLOC } };
    *pass = NULL;
    for (size_t i = 0; i < G_N_ELEMENTS(stages); i++)
        if (strcmp(name, stages[i].name) == 0) {
            *st = stages[i].st;
            return true;
        }
    for (const char *const *p = annot_pass_names(); *p; p++)
        if (strcmp(name, *p) == 0) {
            *st = STAGE_ANNOT;
            *pass = *p;
            return true;
        }
    return false;
}

/* --reuse-hints: the profile pass over a functional run's trace of the rewritten code (as gpusc-run
 * --rewritten allocates it). */
static int reuse_hints(ir_module *m, const char *trace, unsigned rthld, unsigned profile_warps)
{
    gchar *text = NULL;
    GError *err = NULL;
    if (!hostfile_read(trace, HOSTFILE_TEXT, &text, NULL, &err)) {
        int rc = die(EXIT_INPUT, "%s", err->message);
        g_error_free(err);
        return rc;
    }
    regalloc_module(m, NULL);
    fmem *mem = fmem_new();
    GString *msg = g_string_new(NULL);
    kload_module *k = kload_module_new(m, mem, msg);
    int rc = EXIT_OK;
    if (!k) {
        rc = die(EXIT_INPUT, "%s", msg->str);
    } else {
        rp_profile *p = rp_new(rthld);
        rp_trace *t = rp_trace_new(m, k, p, profile_warps, NULL);
        gchar **lines = g_strsplit(text, "\n", -1);
        for (gchar **l = lines; *l; l++)
            rp_trace_line(t, *l);
        g_strfreev(lines);
        rp_finish(p);
        if (rp_static_count(p) == 0)
            rc = die(EXIT_INPUT, "%s: no instruction of this module's profiled warps", trace);
        else
            rp_print(p, stdout, rp_trace_func_name, t);
        rp_trace_free(t);
        rp_free(p);
        kload_module_free(k);
    }
    g_string_free(msg, TRUE);
    fmem_free(mem);
    g_free(text);
    return rc;
}

/* Run the stages and print the listing or the reports. */
static void report(ir_module *m, const char *file, const char *entry, stage st, const char *pass,
                   bool resources, int occupancy_threads, int dynamic_shared, bool markdown,
                   const occupancy_sm *sm)
{
    if ((resources || occupancy_threads || greener_w) && st < STAGE_REGALLOC)
        st = STAGE_REGALLOC;
    GString *out = g_string_new(NULL);
    bool listing = !markdown && !resources && !occupancy_threads;
    /* The reports need every function allocated: --entry K still counts the functions K calls. */
    if (run_stages(m, st, pass, sm->max_regs_per_thread) != 0)
        g_assert_not_reached(); /* the pass name was checked */
    for (guint i = 0; listing && i < m->funcs->len; i++) {
        ir_func *f = g_ptr_array_index(m->funcs, i);
        if (!f->is_defined || (entry && strcmp(f->name, entry) != 0))
            continue;
        print_func(out, m, f, st, pass);
        g_string_append_c(out, '\n');
    }
    /* Entry-level reports: a kernel's registers with the functions it calls (regalloc_entry_regs: the
     * callee's frame on top of what the caller keeps live across the call). */
    for (guint i = 0; !listing && i < m->funcs->len; i++) {
        ir_func *f = g_ptr_array_index(m->funcs, i);
        if (!f->is_defined || !f->is_entry || (entry && strcmp(f->name, entry) != 0))
            continue;
        uint32_t preds;
        uint32_t ours = regalloc_entry_regs(m, f, &preds);
        uint64_t shared = shared_bytes(m, f);
        ptxas_info pi = ptxas_lookup(file, f->name);
        char ptxas_regs[32] = "n/a";
        if (pi.found)
            g_snprintf(ptxas_regs, sizeof ptxas_regs, "%u", pi.regs);
        if (resources && !markdown) {
            g_string_append_printf(out, "%s: registers ours %u ptxas %s", f->name, ours, ptxas_regs);
            if (pi.found && pi.regs)
                g_string_append_printf(out, " (%u%%)", ours * 100 / pi.regs);
            g_string_append_printf(out, ", predicates %u, shared %" G_GUINT64_FORMAT " bytes", preds, shared);
            if (pi.found)
                g_string_append_printf(out, " (ptxas %u)", pi.shared);
            g_string_append_c(out, '\n');
        }
        if (!occupancy_threads)
            continue;
        uint64_t total_shared = shared + (unsigned)dynamic_shared;
        occupancy o = occupancy_of(sm, ours, total_shared, (unsigned)occupancy_threads);
        char shared_text[64];
        if (dynamic_shared)
            g_snprintf(shared_text, sizeof shared_text, "%" G_GUINT64_FORMAT " + %d dynamic", shared, dynamic_shared);
        else
            g_snprintf(shared_text, sizeof shared_text, "%" G_GUINT64_FORMAT, shared);
        char r[16], sh[16];
        fmt_limit(r, sizeof r, o.by_regs);
        fmt_limit(sh, sizeof sh, o.by_shared);
        if (markdown) {
            char po[64] = "n/a";
            if (pi.found) {
                occupancy op = occupancy_of(sm, pi.regs, pi.shared + (unsigned)dynamic_shared,
                                            (unsigned)occupancy_threads);
                g_snprintf(po, sizeof po, "%u (%s)", op.blocks, op.limiter);
            }
            g_string_append_printf(out, "| %s | %u | %s | %s | %u | %u | %u | %s | %s | %u (%u) | %s | %s |\n",
                                   f->name, ours, ptxas_regs, shared_text, occupancy_threads, o.by_blocks, o.by_threads, r,
                                   sh, o.blocks, o.warps, o.limiter, po);
        } else {
            g_string_append_printf(out,
                                   "%s: %d threads/block, %u registers, %s"
                                   " shared bytes: blocks/SM by blocks %u, threads %u, registers %s, shared %s -> %u "
                                   "blocks (%u warps), limited by %s\n",
                                   f->name, occupancy_threads, ours, shared_text, o.by_blocks, o.by_threads, r, sh, o.blocks,
                                   o.warps, o.limiter);
        }
    }
    fputs(out->str, stdout);
    g_string_free(out, TRUE);
}

int main(int argc, char **argv)
{
    char *entry = NULL, *after = NULL;
    gboolean resources = FALSE, markdown = FALSE;
    gint occupancy_threads = 0, dynamic_shared = 0;
    gboolean renaming = FALSE;
    gint ren_warps = 48, ren_budget = 8192;
    char *hints_trace = NULL;
    gint rthld = 12, profile_warps = 1;
    char **presets = NULL, **configs = NULL, **sets = NULL;
    gboolean smem_layout = FALSE;
    char *threshold = NULL;
    gint64 smem_per_cta = -1;
    GOptionEntry opts[] = {
        {"entry", 'e', 0, G_OPTION_ARG_STRING, &entry, "Print only this function", "NAME"},
        {"after", 'a', 0, G_OPTION_ARG_STRING, &after,
         "Print after this pass: parse, cfg, split, regalloc, lastuse, reconv, divergence (default: parse)",
         "PASS"},
        {"resources", 'r', 0, G_OPTION_ARG_NONE, &resources, "Print our register count beside ptxas's", NULL},
        {"occupancy", 'o', 0, G_OPTION_ARG_INT, &occupancy_threads,
         "Print the occupancy on the configuration's SM for blocks of THREADS threads", "THREADS"},
        {"dynamic-shared", 'd', 0, G_OPTION_ARG_INT, &dynamic_shared,
         "With --occupancy: dynamic shared bytes per block given at launch", "BYTES"},
        {"greener", 0, G_OPTION_FLAG_OPTIONAL_ARG, G_OPTION_ARG_CALLBACK, (void *)greener_opt,
         "After allocation, the greener power-state pass with threshold W (default 3): each "
         "instruction's encoded states (destination, sources)",
         "W"},
        {"relssp", 0, G_OPTION_FLAG_OPTIONAL_ARG, G_OPTION_ARG_CALLBACK, (void *)relssp_opt,
         "First, place relssp (release shared scratchpad) in every kernel: opt (default; the must-analysis "
         "after critical-edge splitting) or postdom",
         "opt|postdom"},
        {"smem-layout", 0, 0, G_OPTION_ARG_NONE, &smem_layout,
         "Print the scratchpad layout the spvar_layout pass chooses for scratchpad sharing", NULL},
        {"threshold", 0, 0, G_OPTION_ARG_STRING, &threshold,
         "With --smem-layout: the sharing threshold t in (0, 1] (default 0.1)", "t"},
        {"smem-per-cta", 0, 0, G_OPTION_ARG_INT64, &smem_per_cta,
         "With --smem-layout: scratchpad bytes per CTA (default: what the kernel declares)", "BYTES"},
        {"markdown", 'm', 0, G_OPTION_ARG_NONE, &markdown,
         "With --occupancy: one markdown table row per entry", NULL},
        {"renaming", 0, 0, G_OPTION_ARG_NONE, &renaming,
         "Print the register-renaming release flags (pir/pbr), exempt registers and Eq. 1 (docs/renaming.md)",
         NULL},
        {"warps", 0, 0, G_OPTION_ARG_INT, &ren_warps, "With --renaming: resident warps per SM (default 48)", "N"},
        {"budget", 0, 0, G_OPTION_ARG_INT, &ren_budget,
         "With --renaming: the renaming table budget in bits (default 8192; 0: no exemption)", "BITS"},
        {"reuse-hints", 0, 0, G_OPTION_ARG_FILENAME, &hints_trace,
         "Print the reuse-profile hints (near/far per register operand) from a functional run's trace of the "
         "rewritten code (gpusc-run --functional --rewritten --trace)",
         "TRACE"},
        {"rthld", 0, 0, G_OPTION_ARG_INT, &rthld, "With --reuse-hints: the near/far threshold (default 12)",
         "N"},
        {"profile-warps", 0, 0, G_OPTION_ARG_INT, &profile_warps,
         "With --reuse-hints: warps of block (0,0,0) profiled per launch (default 1)", "N"},
        {"preset", 0, 0, G_OPTION_ARG_STRING_ARRAY, &presets,
         "The machine: a built-in preset (repeatable; default gtx480)", "NAME"},
        {"config", 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &configs, "The machine: an INI file (repeatable)",
         "FILE"},
        {"set", 0, 0, G_OPTION_ARG_STRING_ARRAY, &sets, "The machine: override one parameter (repeatable)",
         "SECTION.KEY=VALUE"},
        {NULL, 0, 0, 0, NULL, NULL, NULL}};
    GOptionContext *ctx = g_option_context_new("FILE - print a PTX kernel as the toolchain sees it");
    g_option_context_add_main_entries(ctx, opts, NULL);
    GError *err = NULL;
    if (!host_option_parse(ctx, &argc, &argv, &err)) {
        int rc = die(EXIT_USAGE, "%s", err->message);
        g_error_free(err);
        g_option_context_free(ctx);
        return rc;
    }
    g_option_context_free(ctx);
    int rc = EXIT_OK;
    stage st = STAGE_PARSE;
    const char *pass = NULL;
    ir_module *m = NULL;
    occupancy_sm sm;
    if (!machine_occupancy_config(presets, configs, sets, &sm, &err)) {
        rc = die(EXIT_USAGE, "%s", err->message);
        g_error_free(err);
        err = NULL;
    } else if (argc != 2)
        rc = die(EXIT_USAGE, "expected one PTX file (gpusc-ptx FILE [--entry NAME] [--after PASS])");
    else if (occupancy_threads < 0 || occupancy_threads > 1024)
        rc = die(EXIT_USAGE, "--occupancy: %d threads per block is out of range (1..1024)", occupancy_threads);
    else if (dynamic_shared < 0 || (unsigned)dynamic_shared > sm.smem_per_sm)
        rc = die(EXIT_USAGE, "--dynamic-shared: %d bytes is out of range (0..%u)", dynamic_shared,
                 sm.smem_per_sm);
    else if (after && !parse_stage(after, &st, &pass))
        rc = die(EXIT_USAGE, "unknown pass '%s' (known: parse, cfg, split, regalloc, lastuse, reconv, divergence)", after);
    else if (!(m = ptx_parse_file(argv[1], &err))) {
        rc = die(EXIT_INPUT, "%s", err->message);
        g_error_free(err);
    } else if (entry && !ir_module_find_func(m, entry)) {
        rc = die(EXIT_INPUT, "%s: no function named '%s'", argv[1], entry);
    }
    if (rc == EXIT_OK && renaming && (ren_warps < 1 || ren_warps > 128 || ren_budget < 0))
        rc = die(EXIT_USAGE, "--warps must be 1..128 and --budget at least 0");
    if (rc == EXIT_OK && hints_trace && (rthld < 0 || profile_warps < 1 || profile_warps > 4096))
        rc = die(EXIT_USAGE, "--rthld must be at least 0 and --profile-warps 1..4096");
    if (rc == EXIT_OK && markdown && !occupancy_threads) /* the table has the occupancy's columns */
        rc = die(EXIT_USAGE, "--markdown goes with --occupancy THREADS");
    share_threshold t = {1, 10};
    if (rc == EXIT_OK && !smem_layout && (threshold || smem_per_cta >= 0))
        rc = die(EXIT_USAGE, "--threshold and --smem-per-cta go with --smem-layout");
    else if (rc == EXIT_OK && smem_layout && smem_per_cta < -1)
        rc = die(EXIT_USAGE, "--smem-per-cta must be at least 0");
    else if (rc == EXIT_OK && threshold && !sharing_parse_threshold(threshold, &t, &err)) {
        rc = die(EXIT_USAGE, "--threshold: %s", err->message);
        g_error_free(err);
    }
    if (rc == EXIT_OK && smem_layout) {
        GString *out = g_string_new(NULL), *msg = g_string_new(NULL);
        if (spvar_layout_report(out, m, entry, t.num, t.den, smem_per_cta < 0 ? 0 : (uint64_t)smem_per_cta,
                                msg))
            fputs(out->str, stdout);
        else
            rc = die(EXIT_INPUT, "%s", msg->str);
        g_string_free(out, TRUE);
        g_string_free(msg, TRUE);
    } else if (rc == EXIT_OK && hints_trace) {
        rc = reuse_hints(m, hints_trace, (unsigned)rthld, (unsigned)profile_warps);
    } else if (rc == EXIT_OK && renaming) {
        run_stages(m, STAGE_REGALLOC, NULL, sm.max_regs_per_thread);
        ren_opts ro = {(uint32_t)ren_warps, (uint32_t)ren_budget, 10, false};
        if (!ren_report_module(stdout, m, entry, &ro, &err)) {
            rc = die(EXIT_INPUT, "%s", err->message);
            g_error_free(err);
        }
    } else if (rc == EXIT_OK)
        report(m, argv[1], entry, st, pass, resources, occupancy_threads, dynamic_shared, markdown, &sm);
    ir_module_free(m);
    g_free(entry);
    g_free(after);
    g_free(hints_trace);
    g_free(threshold);
    g_strfreev(presets);
    g_strfreev(configs);
    g_strfreev(sets);
    return rc;
}
