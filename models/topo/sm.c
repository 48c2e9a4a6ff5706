/* sm.c — the `sm` and `subcore_sm` topologies (see sm.h, subcore_sm.h): instantiate the SM blocks
 * and bind their ports. No behaviour here. */
#include "models/topo/sm.h"

#include "models/sm/arbiter.h"
#include "models/sm/barrier.h"
#include "models/sm/cta_dispatch.h"
#include "models/sm/decode.h"
#include "models/sm/ibuffer.h"
#include "models/sm/ccu.h"
#include "models/sm/opcoll.h"
#include "models/sm/scoreboard_block.h"
#include "models/sm/fetch.h"
#include "models/sm/issue.h"
#include "models/sm/ldst.h"
#include "models/sm/link_port.h"
#include "models/sm/mem_fixed.h"

struct sm_topo {
    blk_inst *inst;
    unsigned id, parts;
    fetch *fe;
    decode *dec;
    ibuffer *ib;
    scoreboard_block *sb;
    barrier_unit *bar;
    arbiter *arb[ISSUE_MAX_SCHED];
    issue *is;
    opcoll *oc[SM_MAX_PARTS]; /* per partition: operand collectors, register banks, units */
    regfile *rf[SM_MAX_PARTS];
    units *un[SM_MAX_PARTS];
    ccu_blk *ccu[SM_MAX_PARTS]; /* collectors allocated at issue ([opcoll] collector != ocu) */
    ldst *ls;
    link_port *lp; /* NULL unless the GPU has SM-to-SM links (sm_topo_add_link_port) */
};

/* The warp slots of an SM of `warps` 32-wide warp slots at warp width ws: the same threads
 * (warps x 32 / ws), at most SM_MAX_WARPS. */
static unsigned sm_warp_slots(unsigned warps, unsigned ws)
{
    return MIN(warps * (IR_WARP_SIZE / ws), SM_MAX_WARPS);
}

/* The `warp_size` parameter, checked: a power of two from 4 to 32. */
static unsigned sm_topo_warp_size(blk_inst *inst)
{
    unsigned ws = (unsigned)blk_param_uint(inst, "warp_size");
    if (ws & (ws - 1))
        gsc_fatal("%s.warp_size = %u: a warp has 32, 16, 8 or 4 threads", inst->path, ws);
    return ws;
}

/* The SM's occupancy limits, shared by both topologies (the subcore one adds its partitions). */
// clang-format off
#define SM_LIMIT_PARAMS                                                                                      \
    {"warps", BLK_PARAM_UINT, "48", "1", "128", NULL, "warps", "resident warps per SM [S: GTX480 48]"},      \
    {"threads", BLK_PARAM_UINT, "1536", "32", "4096", NULL, "threads",                                      \
     "resident threads per SM [S: 1536] (also bounded by warps x 32)"},                                      \
    {"ctas", BLK_PARAM_UINT, "8", "1", "48", NULL, "CTAs", "resident CTAs per SM [S: gpgpu_shader_cta 8]"}, \
    {"registers", BLK_PARAM_UINT, "32768", "1", "1048576", NULL, "registers",                              \
     "32-bit registers per SM [S: 32768]"},                                                                  \
    {"reg_unit", BLK_PARAM_UINT, "4", "1", "256", NULL, "registers",                                        \
     "registers per thread rounded up to a multiple of this [S: GPGPU-Sim]"},                                \
    {"smem_bytes", BLK_PARAM_UINT, "49152", "0", "1048576", NULL, "bytes", "scratchpad per SM [S: 48 KiB]"}, \
    {"max_regs_per_thread", BLK_PARAM_UINT, "63", "4", "255", NULL, "registers",                            \
     "registers a thread may have; the allocator spills to local memory above it [S: Fermi ISA 63]"},    \
    {"warp_size", BLK_PARAM_UINT, "32", "4", "32", NULL, "threads",                                         \
     "threads per warp: 32, 16, 8 or 4; the warp slots scale to warps x 32 / warp_size (at most 256) "       \
     "[S: VWS Table 6.1 32]"}
// clang-format on

static const char *const slicing_choices[] = {"none", "warp", NULL};
static const blk_param_desc sm_params[] = {
    SM_LIMIT_PARAMS,
    {"slicing", BLK_PARAM_ENUM, "none", NULL, NULL, slicing_choices, "",
     "lane slices: none (one execution side of 32 lanes for every warp width) or warp (32 / warp_size "
     "slices of warp_size lanes, each its scheduler, collectors, register banks and units; one memory "
     "unit merges the slices' same-cycle accesses) [S: VWS §6.2, 8 slices of 4 lanes; docs/vws.md]"},
};
static const blk_param_desc subcore_params[] = {
    SM_LIMIT_PARAMS,
    {"partitions", BLK_PARAM_UINT, "4", "1", "4", NULL, "partitions",
     "sub-core partitions (each: a scheduler, register banks, collectors, units) [S: rf-cache-malekeh §2.1 "
     "4]"},
};

const blk_desc sm_topo_desc = {
    "sm",
    "topology: a monolithic SM (Fermi/GTX480-like: 2 schedulers, shared collectors)",
    "docs/baseline-design.md §2",
    NULL,
    0,
    sm_params,
    BLK_N(sm_params),
    NULL,
    0,
    NULL,
    0,
};
const blk_desc subcore_sm_topo_desc = {
    "subcore_sm",
    "topology: an SM of P partitions sharing LD/ST, scratchpad and L1 (Kepler..Turing style)",
    "docs/baseline-design.md §3; RF-cache (Malekeh) spec §2.1",
    NULL,
    0,
    subcore_params,
    BLK_N(subcore_params),
    NULL,
    0,
    NULL,
    0,
};

const blk_desc *const sm_topo_blocks[] = {&fetch_desc,   &decode_desc,  &ibuffer_desc, &scoreboard_desc,
                                          &arbiter_desc, &barrier_desc, &issue_desc,   &opcoll_desc,
                                          &regfile_desc, &units_desc,   &ldst_desc,    NULL};

void sm_topo_register(void)
{
    blk_registry_add(&sm_topo_desc);
    blk_registry_add(&subcore_sm_topo_desc);
    for (unsigned i = 0; sm_topo_blocks[i]; i++)
        blk_registry_add(sm_topo_blocks[i]);
    blk_registry_add(&ccu_desc);
    blk_registry_add(&mem_fixed_desc);
    blk_registry_add(&cta_dispatch_desc);
}

/* [opcoll] collector other than ocu: a `ccu` block allocates partition p's collectors at issue, as a
 * veto of its scheduler's arbiter (one scheduler per partition: a sub-core SM, or an SM of one
 * partition and one scheduler). */
static void sm_topo_add_ccu(sm_topo *s, blk_ctx *ctx, sm_env *env, unsigned p, unsigned warps)
{
    unsigned type = blk_param_enum(s->oc[p]->inst, "collector");
    if (type == 0)
        return;
    if (s->is->n_sched != s->parts)
        gsc_fatal("%s.collector: collectors allocated at issue need one scheduler per partition (a sub-core "
                  "SM: tb-subcore, tb-rfcache; or issue.schedulers=1 on one partition)",
                  s->oc[p]->inst->path);
    static const ccu_mode modes[] = {CCU_MODE_OCU_RANDOM, CCU_MODE_OCU_RANDOM, CCU_MODE_MALEKEH,
                                     CCU_MODE_LRU,        CCU_MODE_PR,         CCU_MODE_BOW,
                                     CCU_MODE_TWO_LEVEL,  CCU_MODE_RFC,        CCU_MODE_SWRFC};
    char *n = g_strdup_printf("ccu%u", p);
    s->ccu[p] = ccu_new(ctx, s->inst->mod, n, env, s->is->wx, p, s->parts, s->oc[p]->n_coll, warps,
                        modes[type], p ? s->ccu[0] : NULL);
    g_free(n);
    blk_bind(s->arb[p]->inst, "veto", ccu_inst(s->ccu[p]), "veto");
    opcoll_set_ccu(s->oc[p], s->ccu[p]);
}

ccu_blk *sm_topo_ccu(const sm_topo *s, unsigned p)
{
    return p < s->parts ? s->ccu[p] : NULL;
}

sm_topo *sm_topo_new(blk_ctx *ctx, gsc_module *parent, const char *name, unsigned sm_id, sm_env *env,
                     bool subcore)
{
    sm_topo *s = g_new0(sm_topo, 1);
    s->inst = blk_inst_new(ctx, parent, name, subcore ? &subcore_sm_topo_desc : &sm_topo_desc);
    s->id = sm_id;
    gsc_module *m = s->inst->mod;
    unsigned ws = sm_topo_warp_size(s->inst);
    unsigned warps = sm_warp_slots((unsigned)blk_param_uint(s->inst, "warps"), ws);
    env->warp_size = ws;
    unsigned ctas = (unsigned)blk_param_uint(s->inst, "ctas");
    s->parts = subcore ? (unsigned)blk_param_uint(s->inst, "partitions") : 1;
    bool sliced = !subcore && blk_param_enum(s->inst, "slicing") == 1 && ws < IR_WARP_SIZE;
    if (sliced)
        s->parts = IR_WARP_SIZE / ws; /* the lane slices: warp w on slice w mod parts */
    s->fe = fetch_new(ctx, m, "fetch", env, warps);
    s->dec = decode_new(ctx, m, "decode", env);
    blk_bind(s->fe->inst, "dec", s->dec->inst, "dec");
    s->ib = ibuffer_new(ctx, m, "ibuffer", warps);
    s->sb = scoreboard_block_new_phys(ctx, m, "scoreboard", warps, env);
    s->bar = barrier_new(ctx, m, "barrier", ctas);
    s->is = issue_new(ctx, m, "issue", env, sm_id, warps, ctas, s->parts);
    if (s->fe->entries != s->ib->entries)
        gsc_fatal("%s: fetch.ibuffer_entries (%u) and ibuffer.entries (%u) must be equal (fetch's credits "
                  "are the I-buffer's entries)",
                  s->inst->path, s->fe->entries, s->ib->entries);
    blk_inst *ii = s->is->inst;
    blk_bind(ii, "ib", s->ib->inst, "ib");
    blk_bind(ii, "sb", s->sb->inst, "sb");
    blk_bind(ii, "bar", s->bar->inst, "bar");
    for (unsigned i = 0; i < s->is->n_sched; i++) {
        char *n = g_strdup_printf("arbiter%u", i), *port = g_strdup_printf("arbiter_%u", i);
        s->arb[i] = arbiter_new(ctx, m, n);
        blk_bind(ii, port, s->arb[i]->inst, "arb");
        g_free(n);
        g_free(port);
    }
    if (sliced && s->is->n_sched != s->parts)
        gsc_fatal("%s: an SM of %u lane slices (slicing=warp, warp_size=%u) needs one scheduler per slice: "
                  "issue.schedulers = %u, not %u",
                  s->inst->path, s->parts, ws, s->parts, s->is->n_sched);
    if (subcore && s->is->n_sched != s->parts)
        gsc_fatal("%s: a sub-core SM needs one scheduler per partition (issue.schedulers = %u, "
                  "subcore_sm.partitions = %u)",
                  s->inst->path, s->is->n_sched, s->parts);
    unsigned slots = (unsigned)blk_param_uint(s->inst, "registers") / IR_WARP_SIZE / s->parts;
    for (unsigned p = 0; p < s->parts; p++) {
        char *n = s->parts > 1 ? g_strdup_printf("%u", p) : g_strdup("");
        char *on = g_strconcat("opcoll", n, NULL), *rn = g_strconcat("regfile", n, NULL);
        char *un = g_strconcat("units", n, NULL);
        s->oc[p] = opcoll_new(ctx, m, on);
        s->rf[p] = regfile_new(ctx, m, rn, p, s->parts, slots, s->oc[p]->n_coll);
        s->un[p] = units_new(ctx, m, un);
        units_set_warp_size(s->un[p], ws);
        blk_bind(s->oc[p]->inst, "regfile", s->rf[p]->inst, "regfile");
        blk_bind(s->oc[p]->inst, "units", s->un[p]->inst, "units");
        sm_topo_add_ccu(s, ctx, env, p, warps);
        g_free(n);
        g_free(on);
        g_free(rn);
        g_free(un);
    }
    s->ls = ldst_new(ctx, m, "ldst", env, sm_id);
    if (sliced) {
        ldst_set_slices(s->ls, s->parts, ws);
        fetch_set_slices(s->fe, s->parts);
    }

    blk_inst *fi = s->fe->inst, *li = s->ls->inst;
    blk_connect(m, "fetch_issue", fi, "out", ii, "decoded");
    blk_connect(m, "issue_redirect", ii, "redirect", fi, "redirect");
    blk_connect(m, "issue_credit", ii, "credit", fi, "credit");
    for (unsigned p = 0; p < s->parts; p++) {
        char *a = g_strdup_printf("issue_exec%u", p), *b = g_strdup_printf("exec%u_release", p);
        char *to = g_strdup_printf("to_exec_%u", p), *rel = g_strdup_printf("release_%u", p);
        blk_connect(m, a, ii, to, s->oc[p]->inst, "in");
        blk_connect(m, b, s->oc[p]->inst, "release", ii, rel);
        g_free(a);
        g_free(b);
        g_free(to);
        g_free(rel);
    }
    blk_connect(m, "issue_ldst", ii, "to_ldst", li, "in");
    blk_connect(m, "ldst_release", li, "release", ii, "release_ldst");
    return s;
}

void sm_topo_free(sm_topo *s)
{
    if (!s)
        return;
    fetch_free(s->fe);
    decode_free(s->dec);
    for (unsigned i = 0; i < s->is->n_sched; i++)
        arbiter_free(s->arb[i]);
    issue_free(s->is);
    ibuffer_free(s->ib);
    scoreboard_block_free(s->sb);
    barrier_free(s->bar);
    for (unsigned p = 0; p < s->parts; p++) {
        opcoll_free(s->oc[p]);
        ccu_free(s->ccu[p]);
        regfile_free(s->rf[p]);
        units_free(s->un[p]);
    }
    ldst_free(s->ls);
    link_port_free(s->lp);
    g_free(s);
}

link_port *sm_topo_add_link_port(sm_topo *s, unsigned n_dirs)
{
    g_assert(!s->lp);
    s->lp = link_port_new(s->inst->ctx, s->inst->mod, "link_port", n_dirs);
    return s->lp;
}

link_port *sm_topo_link_port(const sm_topo *s)
{
    return s->lp;
}

gsc_port *sm_topo_port(const sm_topo *s, sm_port p)
{
    switch (p) {
    case SM_PORT_CTA_LAUNCH:
        return blk_port(s->is->inst, ISSUE_CTA_LAUNCH);
    case SM_PORT_CTA_DONE:
        return blk_port(s->is->inst, ISSUE_CTA_DONE);
    case SM_PORT_MEM_REQ:
        return blk_port(s->ls->inst, LDST_MEM_REQ);
    case SM_PORT_MEM_RESP:
        return blk_port(s->ls->inst, LDST_MEM_RESP);
    default:
        g_assert_not_reached();
    }
}

unsigned sm_topo_port_depth(const sm_topo *s, sm_port p)
{
    switch (p) {
    case SM_PORT_CTA_LAUNCH:
        return blk_port_fifo_depth(s->is->inst, ISSUE_CTA_LAUNCH);
    case SM_PORT_MEM_RESP:
        return blk_port_fifo_depth(s->ls->inst, LDST_MEM_RESP);
    default:
        return 8; /* outputs: the consumer decides; 8 if it does not */
    }
}

gsc_module *sm_topo_module(const sm_topo *s)
{
    return s->inst->mod;
}

unsigned sm_topo_id(const sm_topo *s)
{
    return s->id;
}

/* The occupancy limits from parameter values, looked up by `param` (an instance's or the config's). */
typedef bool (*limit_fn)(void *ctx, const char *name, uint64_t *v, GError **err);

static bool occupancy_from(limit_fn get, void *ctx, occupancy_sm *o, GError **err)
{
    static const char *const names[] = {
        "threads",  "warps", "ctas", "registers", "reg_unit", "smem_bytes", "max_regs_per_thread",
        "warp_size"};
    uint64_t v[G_N_ELEMENTS(names)];
    for (unsigned i = 0; i < G_N_ELEMENTS(names); i++)
        if (!get(ctx, names[i], &v[i], err))
            return false;
    occupancy_sm_init_gtx480(o);
    o->max_threads = (unsigned)v[0];
    o->max_warps = (unsigned)v[1];
    o->max_ctas = (unsigned)v[2];
    o->regs_per_sm = (unsigned)v[3];
    o->reg_unit = (unsigned)v[4];
    o->smem_per_sm = (unsigned)v[5];
    o->max_regs_per_thread = (unsigned)v[6];
    o->warp_size = (unsigned)v[7];
    o->max_warps = sm_warp_slots(o->max_warps, o->warp_size);
    return true;
}

static bool inst_limit(void *ctx, const char *name, uint64_t *v, GError **err)
{
    (void)err;
    *v = blk_param_uint(ctx, name);
    return true;
}

void sm_topo_occupancy(const sm_topo *s, occupancy_sm *o)
{
    occupancy_from(inst_limit, s->inst, o, NULL);
}

typedef struct {
    const cfg *c;
    const char *path;
    const blk_desc *desc;
} cfg_limit_ctx;

static bool cfg_limit(void *ctx, const char *name, uint64_t *v, GError **err)
{
    const cfg_limit_ctx *x = ctx;
    const blk_param_desc *p = blk_desc_param(x->desc, name);
    cfg_value_ref ref;
    cfg_lookup(x->c, x->path, x->desc->name, p, &ref);
    blk_value val;
    char *problem = NULL;
    if (!blk_value_parse(p, ref.text, &val, &problem)) {
        g_set_error(err, CFG_ERROR, CFG_ERROR_RANGE, "%s: [%s] %s: %s", ref.where,
                    ref.section ? ref.section : x->desc->name, name, problem);
        g_free(problem);
        return false;
    }
    *v = val.u;
    blk_value_clear(&val);
    return true;
}

bool sm_topo_occupancy_config(const cfg *c, const char *path, bool subcore, occupancy_sm *o, GError **err)
{
    cfg_limit_ctx x = {c, path, subcore ? &subcore_sm_topo_desc : &sm_topo_desc};
    return occupancy_from(cfg_limit, &x, o, err);
}

bool sm_topo_busy(const sm_topo *s)
{
    return issue_busy(s->is) || ldst_busy(s->ls);
}

void sm_topo_dump_state(const sm_topo *s, GString *out)
{
    g_string_append_printf(out, "%s:\n", s->inst->path);
    issue_dump(s->is, out);
}

uint64_t sm_topo_progress(const sm_topo *s)
{
    return blk_stat_get(s->is->inst, ISSUE_STAT_WARP_INSTRS);
}

blk_inst *sm_topo_issue_inst(const sm_topo *s)
{
    return s->is->inst;
}

blk_inst *sm_topo_ldst_inst(const sm_topo *s)
{
    return s->ls->inst;
}

blk_inst *sm_topo_regfile_inst(const sm_topo *s, unsigned part)
{
    return part < s->parts ? s->rf[part]->inst : NULL;
}

issue *sm_topo_issue(const sm_topo *s)
{
    return s->is;
}

wexec *sm_topo_wexec(const sm_topo *s)
{
    return s->is->wx;
}

regfile *sm_topo_regfile(const sm_topo *s, unsigned part)
{
    return part < s->parts ? s->rf[part] : NULL;
}

ldst *sm_topo_ldst(const sm_topo *s)
{
    return s->ls;
}

fetch *sm_topo_fetch(const sm_topo *s)
{
    return s->fe;
}

unsigned sm_topo_parts(const sm_topo *s)
{
    return s->parts;
}
