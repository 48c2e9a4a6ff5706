/* vta.c — see vta.h. */
#include "models/ccws/vta.h"

#include "models/sm/ldst.h"

static const char *const hit_methods[] = {"hit(warp, line address, cycle): the warp lost locality", NULL};
const blk_iface vta_hit_iface = {"vta_hit", "a victim tag array hit", hit_methods, {"warp"}, {8}};

static const blk_port_desc ports[] = {
    [VTA_EVICT] = {"evict", GSC_IN, NULL, BLK_CHAN_EXPORT, NULL,
                   "L1D evictions (bind ldst.l1_evict): the line's tag into its owner warp's partition",
                   &l1_evict_iface},
    [VTA_ACCESS] = {"access", GSC_IN, NULL, BLK_CHAN_EXPORT, NULL,
                    "L1D load accesses (bind ldst.l1_access): a miss probes the missing warp's partition",
                    &l1_access_iface},
    [VTA_HIT] = {"hit", GSC_OUT, NULL, BLK_CHAN_IMPORT, NULL,
                 "listeners told of every VTA hit (the lost-locality scoring)", &vta_hit_iface,
                 BLK_PORT_MULTI | BLK_PORT_OPTIONAL},
};

static const blk_param_desc params[] = {
    {"warps", BLK_PARAM_UINT, "0", "0", "1024", NULL, "warps",
     "warp contexts (partitions; at least the SM's warp slots); 0: the SM's warp slots (as bound by "
     "the testbench; 48 in the harness) [S: 32 in Table 3.1]"},
    {"epw", BLK_PARAM_UINT, "16", "1", "4096", NULL, "entries", "entries per warp [S: 16, 512 in all]"},
    {"ways", BLK_PARAM_UINT, "8", "1", "64", NULL, "ways",
     "associativity, at most epw [S: 8-way; EPW 1-4 are 1-4 way]"},
    {"line", BLK_PARAM_UINT, "128", "16", "4096", NULL, "bytes", "line size (the L1D's) [S: 128]"},
    {"invalidate_on_hit", BLK_PARAM_BOOL, "false", NULL, NULL, NULL, "",
     "a VTA hit drops the entry [A: not given; default keeps it]"},
    {"area_mm2", BLK_PARAM_DOUBLE, "0.026", "0", NULL, NULL, "mm2",
     "area of one SM's VTA, for the report (not simulated) [S: 0.026 mm2, the source's CACTI figure]"},
};

static const blk_stat_desc stats[] = {
    [VTA_STAT_INSERTS] = {"inserts", BLK_STAT_COUNTER, "tags", "evicted L1D lines inserted", NULL},
    [VTA_STAT_PROBES] = {"probes", BLK_STAT_COUNTER, "probes", "L1D load misses probed", NULL},
    [VTA_STAT_HITS] = {"hits", BLK_STAT_COUNTER, "hits", "VTA hits (lost intra-warp locality detected)",
                       NULL},
    [VTA_STAT_FOREIGN] = {"foreign_evictions", BLK_STAT_COUNTER, "lines",
                          "evicted lines whose warp id is outside the partitions (not inserted)", NULL},
};

static const blk_state_desc state[] = {
    {"hit_warp", 8, "warp of the last VTA hit"},
    {"hits", 32, "VTA hits so far"},
};

const blk_desc vta_desc = {
    "vta",
    "CCWS victim tag array: per-warp tag-only partitions, insert on L1D eviction, probe on L1D miss",
    "docs/ccws.md; CCWS/DAWS/VWS spec §5.2, §5.3",
    ports,
    BLK_N(ports),
    params,
    BLK_N(params),
    stats,
    BLK_N(stats),
    state,
    BLK_N(state),
};

void vta_insert(vta *v, unsigned warp, uint64_t line_addr)
{
    if (warp >= v->warps) {
        blk_stat_add(v->inst, VTA_STAT_FOREIGN, 1);
        return;
    }
    blk_stat_add(v->inst, VTA_STAT_INSERTS, 1);
    uint64_t addr = line_addr * v->line;
    if (!cache_tags_fill(v->part[warp], addr, 0)) /* already present: make it most recent */
        cache_tags_access(v->part[warp], addr, false, 0, NULL);
}

bool vta_probe(vta *v, unsigned warp, uint64_t line_addr)
{
    if (warp >= v->warps)
        return false;
    blk_stat_add(v->inst, VTA_STAT_PROBES, 1);
    uint64_t addr = line_addr * v->line;
    unsigned way;
    if (cache_tags_access(v->part[warp], addr, false, 0, &way) != CACHE_HIT)
        return false;
    if (v->invalidate_on_hit)
        cache_tags_invalidate(v->part[warp], addr);
    blk_stat_add(v->inst, VTA_STAT_HITS, 1);
    v->warp_hits[warp]++;
    v->tr_hit_warp = warp;
    v->tr_hits++;
    return true;
}

uint64_t vta_warp_hits(const vta *v, unsigned warp)
{
    return warp < v->warps ? v->warp_hits[warp] : 0;
}

static void vta_evicted(void *self, const cache_eviction *ev)
{
    vta *v = self;
    blk_call_note(v->probe[VTA_EVICT], (uint32_t)ev->line_addr, ev->reason, 0);
    vta_insert(v, (unsigned)ev->meta, ev->line_addr);
}

static void vta_access(void *self, unsigned warp, uint64_t addr, unsigned outcome)
{
    vta *v = self;
    if (outcome != CACHE_MISS)
        return;
    uint64_t la = addr / v->line;
    if (!vta_probe(v, warp, la))
        return;
    uint64_t now = gsc_cycle();
    for (unsigned i = 0; i < v->n_hit; i++)
        ((const vta_hit_if *)v->hit[i].methods)->hit(v->hit[i].self, warp, la, now);
}

static const l1_evict_if evict_table = {vta_evicted};
/* Called for every L1D access: the note is in a table of its own (blk_export_noted). */
static void vta_access_noted(void *self, unsigned warp, uint64_t addr, unsigned outcome)
{
    blk_call_note(((vta *)self)->probe[VTA_ACCESS], warp, (uint32_t)addr, outcome);
    vta_access(self, warp, addr, outcome);
}

static const l1_access_if access_table = {vta_access};
static const l1_access_if access_noted = {vta_access_noted};

static void vta_elaborate(void *self)
{
    vta *v = self;
    v->hit = blk_import_all(v->inst, VTA_HIT, 0, &v->n_hit);
}

static void free_parts(vta *v)
{
    for (unsigned w = 0; w < v->warps; w++)
        cache_tags_free(v->part[w]);
    g_free(v->part);
    g_free(v->warp_hits);
}

static void alloc_parts(vta *v, unsigned warps)
{
    cache_config cc = {v->epw / v->ways, v->ways, v->line, CACHE_INDEX_LINEAR};
    v->warps = warps;
    v->part = g_new0(cache_tags *, v->warps);
    for (unsigned w = 0; w < v->warps; w++) {
        GError *err = NULL;
        v->part[w] = cache_tags_new(&cc, &err);
        if (!v->part[w])
            gsc_fatal("%s: %s", v->inst->path, err->message);
    }
    v->warp_hits = g_new0(uint64_t, v->warps);
}

void vta_set_warps(vta *v, unsigned warps)
{
    if (v->warps_param || !warps || warps == v->warps)
        return;
    free_parts(v);
    alloc_parts(v, warps);
}

vta *vta_new(blk_ctx *ctx, gsc_module *parent, const char *name)
{
    vta *v = g_new0(vta, 1);
    v->inst = blk_inst_new(ctx, parent, name, &vta_desc);
    v->warps_param = (unsigned)blk_param_uint(v->inst, "warps");
    v->epw = (unsigned)blk_param_uint(v->inst, "epw");
    v->ways = (unsigned)blk_param_uint(v->inst, "ways");
    v->line = (unsigned)blk_param_uint(v->inst, "line");
    v->invalidate_on_hit = blk_param_bool(v->inst, "invalidate_on_hit");
    v->area_mm2 = blk_param_double(v->inst, "area_mm2");
    if (v->ways > v->epw || v->epw % v->ways)
        gsc_fatal("%s: epw (%u) must be a multiple of ways (%u)", v->inst->path, v->epw, v->ways);
    if (v->line & (v->line - 1))
        gsc_fatal("%s: line (%u) must be a power of two", v->inst->path, v->line);
    alloc_parts(v, v->warps_param ? v->warps_param : 48);
    blk_export(v->inst, VTA_EVICT, 0, &evict_table, v);
    blk_export_noted(v->inst, VTA_ACCESS, 0, &access_table, &access_noted, v);
    blk_export_probes(v->inst, v->probe, VTA_ACCESS + 1);
    blk_trace_state(v->inst, "hit_warp", GSC_U32, &v->tr_hit_warp);
    blk_trace_state(v->inst, "hits", GSC_U32, &v->tr_hits);
    blk_inst_on_elaborate(v->inst, vta_elaborate, v);
    return v;
}

void vta_free(vta *v)
{
    if (!v)
        return;
    free_parts(v);
    g_free(v->hit);
    g_free(v);
}

static unsigned log2u(unsigned x)
{
    unsigned n = 0;
    while (x > 1) {
        x >>= 1;
        n++;
    }
    return n;
}

unsigned vta_tag_bits(unsigned va_bits, unsigned line, unsigned sets)
{
    return va_bits - log2u(line) - log2u(sets);
}

unsigned vta_wid_bits(unsigned warps)
{
    return warps > 1 ? log2u(warps - 1) + 1 : 1;
}

unsigned vta_wid_bytes(unsigned warps, unsigned l1_lines)
{
    return (vta_wid_bits(warps) * l1_lines + 7) / 8;
}

double vta_area_mm2(const vta *v, unsigned sms)
{
    return v->area_mm2 * sms;
}
