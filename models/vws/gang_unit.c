/* gang_unit.c — the warp ganging unit (gang_unit.h). */
#include "models/vws/gang_unit.h"

#include <string.h>

#include "models/core/stats.h"
#include "models/sm/warp_exec.h"

static const blk_port_desc ports[] = {
    [GANG_UNIT_CHECK] = {"check", GSC_IN, NULL, BLK_CHAN_EXPORT, NULL,
                         "bind issue.check: picked gangs' members and free slices' independent warps issue",
                         &issue_check_iface},
    [GANG_UNIT_ISSUED] = {"issued", GSC_IN, NULL, BLK_CHAN_EXPORT, NULL,
                          "bind issue.issued: which members issued, and what", &instr_issued_iface},
    [GANG_UNIT_EVENTS] = {"events", GSC_IN, NULL, BLK_CHAN_EXPORT, NULL,
                          "bind issue.warp_events: original gangs at CTA start, warps leaving at their end",
                          &warp_events_iface},
    [GANG_UNIT_GANGS] = {"gangs", GSC_IN, NULL, BLK_CHAN_EXPORT, NULL,
                         "bind fetch.gangs (an SM of lane slices): the gangs, for the gang fetch",
                         &fetch_gangs_iface},
};

static const char *const reform_choices[] = {"none", "opportunistic", NULL};
static const char *const mem_choices[] = {"none", "impatient", "group", NULL};
static const char *const fault_choices[] = {"none", "nosplit", NULL};
static const char *const ready_choices[] = {"same_cycle", "registered", NULL};
static const char *const sched_choices[] = {"bgto", "lgto", "lpc", "lrr", "gto", NULL};
static const char *const tie_choices[] = {"gto", "oldest", NULL};
static const char *const mode_choices[] = {"mixed", "gang_only", "slice_only", NULL};

static const blk_param_desc params[] = {
    {"gangs_per_cycle", BLK_PARAM_UINT, "2", "1", "4", NULL, "gangs",
     "gangs the gang issue scheduler picks per cycle (disjoint masks) [S: 2]"},
    {"reform", BLK_PARAM_ENUM, "none", NULL, NULL, reform_choices, "",
     "reformation: none (I-VWS) or opportunistic (E-VWS: one original gang per cycle, round robin, "
     "two entities at one PC merge) [S; A: option (a)]"},
    {"mem_split", BLK_PARAM_ENUM, "none", NULL, NULL, mem_choices, "",
     "splitting on memory divergence: none, impatient (all members independent) or group [S]"},
    {"ready", BLK_PARAM_ENUM, "same_cycle", NULL, NULL, ready_choices, "",
     "the ReadyMask: same_cycle (a gang issues in the cycle its members' scoreboards clear) or registered "
     "(from the members seen ready in the previous cycle: a gang issues at most every other cycle) [S: "
     "ReadyMask from the slices' scoreboard-ready signals; A: same cycle]"},
    {"sync", BLK_PARAM_UINT, "0", "0", "100000", NULL, "cycles",
     "E-VWS-Sync<XX>: a gang or independent warp at a reconvergence sync point (the kernel's, from the "
     "sync insertion pass), not its whole original gang, waits up to XX cycles there to re-gang; 0: off "
     "[S: XX in {10, 50, 100}]"},
    {"sched", BLK_PARAM_ENUM, "bgto", NULL, NULL, sched_choices, "",
     "the gang issue scheduler: bgto (biggest gang first), lgto (littlest first), lpc (lowest PC first), "
     "lrr (loose round robin over the table's entries, from the one after the last gang picked) or gto "
     "(greedy then oldest, any size) [S: BGTO; GTO, LRR, LPC, LGTO compared]"},
    {"tie", BLK_PARAM_ENUM, "gto", NULL, NULL, tie_choices, "",
     "how bgto, lgto and lpc order gangs they rank equal: gto (the one that issued last, then the older) "
     "or oldest [S: BGTO ties fall back to GTO; A: the same for LGTO and LPC]"},
    {"mode", BLK_PARAM_ENUM, "mixed", NULL, NULL, mode_choices, "",
     "mixed (gangs, and independent warps on the slices they leave free), gang_only (no independent "
     "scheduling by the slices: every entity a split leaves, lone warps too, is issued by the gang "
     "scheduler and fetched by the gang fetch) or slice_only (no gangs: every warp independent) [S: the "
     "operating modes; A: gang_only keeps the splits]"},
    {"fault", BLK_PARAM_ENUM, "none", NULL, NULL, fault_choices, "",
     "deliberate bug for tests: nosplit = never split on control divergence (members then issue at "
     "the wrong PC and are poisoned)"},
};

static double avg_size(const blk_inst *inst)
{
    uint64_t n = 0, s = 0;
    for (unsigned k = 0; k < 7; k++) {
        uint64_t v = blk_stat_get(inst, GANG_STAT_SIZE2 + k);
        n += v;
        s += v * (k + 2);
    }
    return stats_ratio(s, n);
}

#define SIZE_STAT(k)                                                                                         \
    [GANG_STAT_SIZE2 + (k)-2] = {"size" #k "_cycles", BLK_STAT_COUNTER, "gang-cycles",                       \
                                 "cycles x gangs of " #k " warps (gang-size histogram over time)", NULL}
static const blk_stat_desc stats[] = {
    [GANG_STAT_GANG_ISSUES] = {"gang_issues", BLK_STAT_COUNTER, "instructions",
                               "gang instructions issued (one per picked gang whose members issued)", NULL},
    [GANG_STAT_GANG_WARP_ISSUES] = {"gang_warp_issues", BLK_STAT_COUNTER, "instructions",
                                    "warp instructions issued as gang members", NULL},
    [GANG_STAT_INDEP_ISSUES] = {"indep_issues", BLK_STAT_COUNTER, "instructions",
                                "warp instructions issued by independent warps", NULL},
    [GANG_STAT_FORMED] = {"formed", BLK_STAT_COUNTER, "gangs", "original gangs formed at CTA start", NULL},
    [GANG_STAT_CF_SPLITS] = {"cf_splits", BLK_STAT_COUNTER, "splits", "splits on control divergence", NULL},
    [GANG_STAT_MEM_SPLITS] = {"mem_splits", BLK_STAT_COUNTER, "splits", "splits on memory divergence", NULL},
    [GANG_STAT_REFORMS] = {"reforms", BLK_STAT_COUNTER, "merges", "opportunistic reformations", NULL},
    [GANG_STAT_TO_INDEP] = {"to_independent", BLK_STAT_COUNTER, "warps",
                            "warps that left the ganging unit (splits, a set full, a gang of one)", NULL},
    [GANG_STAT_SLIPS] = {"slips", BLK_STAT_COUNTER, "gangs",
                         "picked gangs of which some member did not issue (then split by PC)", NULL},
    [GANG_STAT_PC_MISMATCH] = {"pc_mismatch", BLK_STAT_COUNTER, "warps",
                               "picked members not at the gang's PC (poisoned: must stay 0)", NULL},
    [GANG_STAT_CYCLES] = {"cycles", BLK_STAT_COUNTER, "cycles", "cycles the unit evaluated", NULL},
    SIZE_STAT(2),
    SIZE_STAT(3),
    SIZE_STAT(4),
    SIZE_STAT(5),
    SIZE_STAT(6),
    SIZE_STAT(7),
    SIZE_STAT(8),
    [GANG_STAT_INDEP_CYCLES] = {"indep_cycles", BLK_STAT_COUNTER, "warp-cycles", "cycles x independent warps",
                                NULL},
    [GANG_STAT_AVG_SIZE] = {"avg_gang_size", BLK_STAT_DERIVED, "warps", "average gang size over time",
                            avg_size},
    [GANG_STAT_SYNC_WAITS] = {"sync_waits", BLK_STAT_COUNTER, "warp-cycles",
                              "ready warps held at a sync point to re-gang (sync > 0)", NULL},
};

static const blk_state_desc state[] = {
    {"gangs", 16, "valid gang-table entries"},
    {"independent", 16, "independent warps"},
    {"issue_mask", 8, "slices the gangs picked this cycle use"},
    {"set0_way0", 8, "GangMask of set 0, entry 0 (bit = slice)"},
    {"set0_way1", 8, "GangMask of set 0, entry 1"},
    {"set0_way2", 8, "GangMask of set 0, entry 2"},
    {"set0_way3", 8, "GangMask of set 0, entry 3"},
    {"set0_indep", 8, "independent-warp mask of set 0 (bit = slice)"},
};

const blk_desc gang_unit_desc = {
    "gang_unit",
    "VWS warp ganging unit: gang table (32 sets x 4), lock-step gang issue, splits, reformation, BGTO",
    "docs/vws.md; CCWS/DAWS/VWS spec §7.3-§7.6",
    ports,
    BLK_N(ports),
    params,
    BLK_N(params),
    stats,
    BLK_N(stats),
    state,
    BLK_N(state),
};

static bool warp_pc(gang_unit *u, unsigned w, uint64_t *pc)
{
    if (u->pc_fn)
        return u->pc_fn(u->pc_ctx, w, pc);
    uint32_t f, p;
    if (!wexec_warp_next(u->is->wx, w, &f, &p))
        return false;
    *pc = (uint64_t)f << 32 | p;
    return true;
}

static void set_pcs(gang_unit *u, unsigned g, uint64_t pcs[GANG_SLICES])
{
    for (unsigned s = 0; s < GANG_SLICES; s++) {
        pcs[s] = GANG_NO_PC;
        if (u->t.set[g].present >> s & 1)
            warp_pc(u, g * u->t.slices + s, &pcs[s]);
    }
}

/* The members of `mask` in set g that were ready in cycle c. */
static uint8_t ready_in(const gang_unit *u, unsigned g, uint8_t mask, uint64_t c)
{
    uint8_t r = 0;
    for (uint8_t m = mask; m; m &= (uint8_t)(m - 1)) {
        unsigned s = (unsigned)__builtin_ctz(m);
        if (u->ready_at[g * u->t.slices + s] == c + 1)
            r |= (uint8_t)(1u << s);
    }
    return r;
}

static void sync_counts(gang_unit *u)
{
    blk_stat_add(u->inst, GANG_STAT_FORMED, u->c.formed - u->c_seen.formed);
    blk_stat_add(u->inst, GANG_STAT_CF_SPLITS, u->c.cf_splits - u->c_seen.cf_splits);
    blk_stat_add(u->inst, GANG_STAT_MEM_SPLITS, u->c.mem_splits - u->c_seen.mem_splits);
    blk_stat_add(u->inst, GANG_STAT_REFORMS, u->c.reforms - u->c_seen.reforms);
    blk_stat_add(u->inst, GANG_STAT_TO_INDEP, u->c.to_independent - u->c_seen.to_independent);
    u->c_seen = u->c;
}

/* The next set with resident warps in reformation's round-robin order (advanced past it), or -1. */
static int reform_next_set(gang_unit *u)
{
    for (unsigned i = 0; i < GANG_SETS; i++) {
        unsigned g = u->t.reform_next;
        u->t.reform_next = (g + 1) % GANG_SETS;
        if (u->t.set[g].present)
            return (int)g;
    }
    return -1;
}

/* Close cycle `prev`: slips, control and memory divergence, one reformation step (true if it
 * merged). */
static bool close_cycle(gang_unit *u, uint64_t prev)
{
    for (unsigned g = 0; g < GANG_SETS; g++) {
        gang_set *st = &u->t.set[g];
        if (!st->present)
            continue;
        uint8_t picked = u->picked_set[g], issued = u->issued_set[g];
        for (unsigned k = 0; k < GANG_WAYS; k++) {
            gang_entry *e = &st->e[k];
            if (!e->valid)
                continue;
            bool was_picked = picked >> k & 1, did_issue = issued >> k & 1;
            if (was_picked) {
                uint8_t went = 0;
                for (uint8_t m = e->mask; m; m &= (uint8_t)(m - 1)) {
                    unsigned s = (unsigned)__builtin_ctz(m);
                    if (u->issued_at[g * u->t.slices + s] == prev + 1)
                        went |= (uint8_t)(1u << s);
                }
                if (went != e->mask && went)
                    blk_stat_add(u->inst, GANG_STAT_SLIPS, 1);
                if (went)
                    blk_stat_add(u->inst, GANG_STAT_GANG_ISSUES, 1);
            }
            if (did_issue || was_picked) {
                uint64_t pcs[GANG_SLICES];
                set_pcs(u, g, pcs);
                if (u->fault == GANG_FAULT_NOSPLIT)
                    continue; /* the deliberate bug: the gang keeps its PC and members */
                gang_split_pcs(&u->t, g, k, pcs, &u->c);
                continue;
            }
            if (u->mem_split != GANG_MEM_NONE && (u->waits_mem[g] >> k & 1)) {
                uint8_t r = ready_in(u, g, e->mask, prev);
                if (r == e->mask) {
                    u->waits_mem[g] &= (uint8_t) ~(1u << k);
                } else if (r) {
                    u->waits_mem[g] &= (uint8_t) ~(1u << k);
                    if (u->mem_split == GANG_MEM_IMPATIENT)
                        gang_split_all(&u->t, g, k, &u->c);
                    else
                        gang_split_group(&u->t, g, k, r, &u->c);
                }
            }
        }
        u->picked_set[g] = u->issued_set[g] = u->picked_lone[g] = 0;
    }
    bool merged = false;
    if (u->reform == GANG_REFORM_OPPORTUNISTIC) {
        int g = reform_next_set(u);
        if (g >= 0) {
            uint64_t pcs[GANG_SLICES];
            set_pcs(u, (unsigned)g, pcs);
            /* a warp waiting for its ready bit still compares by PC: it joins at that PC */
            merged = gang_reform(&u->t, (unsigned)g, pcs, &u->c);
        }
    }
    sync_counts(u);
    return merged;
}

/* Room in the FIFO of issue output `port` (element i of the array) for n instructions this cycle. */
static bool room_for(const gang_unit *u, unsigned port, unsigned i, unsigned n)
{
    const gsc_fifo *f = blk_fifo_at(u->is->inst, port, i);
    return gsc_fifo_room(f) >= n; /* (not depth - occupancy: a slot got earlier in the cycle is free
                                      only from the next) */
}

/* The units a gang's instruction goes to have room for it: ldst (shared by the slices) and an
 * unsliced SM's one collector FIFO for every slice's instruction of the cycle, so no member can be
 * stopped by a full FIFO while the others issue; on an SM of lane slices each member's own. */
static bool gang_room(const gang_unit *u, uint8_t mask, bool mem)
{
    if (!u->is)
        return true;
    if (mem)
        return room_for(u, ISSUE_TO_LDST, 0, u->t.slices);
    if (u->is->parts == 1)
        return room_for(u, ISSUE_TO_EXEC, 0, u->t.slices);
    for (uint8_t m = mask; m; m &= (uint8_t)(m - 1))
        if (!room_for(u, ISSUE_TO_EXEC, (unsigned)__builtin_ctz(m) % u->is->parts, 1))
            return false;
    return true;
}

/* Warp w's I-buffer head as issue_ready_head gives it (the harness: ready_fn). */
static const decoded_t *issue_head(gang_unit *u, unsigned w)
{
    return u->is ? issue_ready_head(u->is, w) : u->ready_fn ? u->ready_fn(u->pc_ctx, w) : NULL;
}

/* The ReadyMask of this cycle (ready=same_cycle): every member's head may issue now as far as its
 * slice decides (scoreboard, SIMT stack, barrier, unit). *mem: the gang's instruction goes to ldst. */
static bool members_ready(gang_unit *u, unsigned g, uint8_t mask, bool *mem)
{
    for (uint8_t m = mask; m; m &= (uint8_t)(m - 1)) {
        unsigned w = g * u->t.slices + (unsigned)__builtin_ctz(m);
        const decoded_t *h = issue_head(u, w);
        if (!h)
            return false;
        *mem = h->cls == IR_CLASS_MEM;
    }
    return true;
}

/* The table's statistics over time: `cycles` cycles of the table as it is now (and its traced
 * counts). */
static void account(gang_unit *u, uint64_t cycles)
{
    unsigned gangs = 0, indep = 0;
    uint64_t sizes[7] = {0};
    for (unsigned g = 0; g < GANG_SETS; g++) {
        const gang_set *st = &u->t.set[g];
        if (!st->present)
            continue;
        indep += (unsigned)__builtin_popcount(st->indep);
        for (unsigned k = 0; k < GANG_WAYS; k++)
            if (st->e[k].valid) {
                gangs++;
                sizes[gang_size(st->e[k].mask) - 2]++;
            }
    }
    blk_stat_add(u->inst, GANG_STAT_CYCLES, cycles);
    for (unsigned s = 0; s < 7; s++)
        blk_stat_add(u->inst, GANG_STAT_SIZE2 + s, sizes[s] * cycles);
    blk_stat_add(u->inst, GANG_STAT_INDEP_CYCLES, (uint64_t)indep * cycles);
    u->tr_gangs = gangs;
    u->tr_indep = indep;
    for (unsigned k = 0; k < GANG_WAYS; k++)
        u->tr_set0[k] = u->t.set[0].e[k].valid ? u->t.set[0].e[k].mask : 0;
    u->tr_set0_indep = u->t.set[0].indep;
}

/* E-VWS-Sync<XX>: warp w (leading `mask`, its entity in set g) is ready with `h` at its head in
 * cycle now; true if it must wait at a sync point: the head is one, the entity is not the whole
 * original gang, and fewer than `sync` cycles have passed since it first could issue there. */
static bool sync_holds(gang_unit *u, unsigned w, uint8_t mask, const decoded_t *h, uint64_t now)
{
    if (!u->sync || !u->sync_tab || !vws_sync_at(u->sync_tab, h->func, h->pc))
        return false;
    if (mask == u->t.set[gang_set_of(&u->t, w)].present)
        return false;
    uint64_t pc = ((uint64_t)h->func << 32 | h->pc) + 1;
    if (u->sync_pc[w] != pc) {
        u->sync_pc[w] = pc;
        u->sync_since[w] = now;
    }
    if (now - u->sync_since[w] >= u->sync)
        return false;
    blk_stat_add(u->inst, GANG_STAT_SYNC_WAITS, gang_size(mask));
    return true;
}

/* gang_only: the lone warps of the table as entities of one the gang scheduler can pick (lone[w] is
 * warp w's; id GANG_SETS * GANG_WAYS + w); returns how many, with their ids in ids. */
static unsigned lone_entities(gang_unit *u, gang_entry *lone, unsigned *ids)
{
    unsigned n = 0;
    for (unsigned g = 0; g < GANG_SETS; g++)
        for (uint8_t m = u->t.set[g].indep; m; m &= (uint8_t)(m - 1)) {
            unsigned s = (unsigned)__builtin_ctz(m), w = g * u->t.slices + s;
            uint64_t pc = GANG_NO_PC;
            const decoded_t *h = u->ready_reg ? NULL : issue_head(u, w);
            if (h)
                pc = (uint64_t)h->func << 32 | h->pc;
            lone[w] = (gang_entry){.valid = true,
                                   .mask = (uint8_t)(1u << s),
                                   .pc = pc,
                                   .age = u->set_age[g],
                                   .last_issue = (int64_t)u->issued_at[w] - 1};
            ids[n++] = GANG_SETS * GANG_WAYS + w;
        }
    return n;
}

/* Pick the gangs of cycle `now` (the gang issue scheduler; gang_only: lone warps too). */
static void pick(gang_unit *u, uint64_t now)
{
    unsigned cand[GANG_SCHED_IDS], n = 0, ids[GANG_MAX_WARPS], nl = 0;
    gang_entry lone[GANG_MAX_WARPS];
    if (u->mode == GANG_MODE_GANG_ONLY)
        nl = lone_entities(u, lone, ids);
    for (unsigned i = 0; i < nl; i++) {
        unsigned w = ids[i] - GANG_SETS * GANG_WAYS;
        const gang_entry *e = &lone[w];
        bool mem = false, ready;
        if (u->ready_reg) {
            mem = u->head_mem[w];
            ready = now > 0 && u->ready_at[w] == now && e->last_issue != (int64_t)now - 1;
        } else {
            ready = members_ready(u, gang_set_of(&u->t, w), e->mask, &mem) &&
                    !(u->sync && sync_holds(u, w, e->mask, issue_head(u, w), now));
        }
        if (ready && gang_room(u, e->mask, mem))
            cand[n++] = ids[i];
    }
    for (unsigned g = 0; g < GANG_SETS; g++) {
        const gang_set *st = &u->t.set[g];
        if (!st->present)
            continue;
        for (unsigned k = 0; k < GANG_WAYS; k++) {
            const gang_entry *e = &st->e[k];
            if (!e->valid)
                continue;
            bool mem = false, ready;
            if (u->ready_reg) { /* every member ready last cycle, and no issue since */
                mem = u->head_mem[g * u->t.slices + (unsigned)__builtin_ctz(e->mask)];
                ready = now > 0 && ready_in(u, g, e->mask, now - 1) == e->mask &&
                        e->last_issue != (int64_t)now - 1;
            } else {
                ready = members_ready(u, g, e->mask, &mem);
                unsigned lead = g * u->t.slices + (unsigned)__builtin_ctz(e->mask);
                if (ready && u->sync && sync_holds(u, lead, e->mask, issue_head(u, lead), now))
                    ready = false;
            }
            if (ready && gang_room(u, e->mask, mem))
                cand[n++] = g << 2 | k;
        }
    }
    unsigned picks[GANG_SCHED_IDS];
    unsigned np = gang_schedule(&u->t, lone, &u->sched, cand, n, u->per_cycle, picks);
    u->busy_slices = 0;
    for (unsigned i = 0; i < np; i++) {
        if (picks[i] >= GANG_SETS * GANG_WAYS) { /* a lone warp (gang_only) */
            unsigned w = picks[i] - GANG_SETS * GANG_WAYS;
            u->picked_lone[gang_set_of(&u->t, w)] |= (uint8_t)(1u << gang_slice(&u->t, w));
            u->busy_slices |= (uint8_t)(1u << gang_slice(&u->t, w));
            continue;
        }
        unsigned g = picks[i] >> 2, k = picks[i] & 3;
        u->picked_set[g] |= (uint8_t)(1u << k);
        u->busy_slices |= u->t.set[g].e[k].mask;
    }
    if (np && u->sched.policy == GANG_SCHED_LRR) /* the next cycle starts after the last gang picked */
        u->sched.rr_from = (picks[np - 1] + 1) % GANG_SCHED_IDS;
    u->tr_issue_mask = u->busy_slices;
}

static bool set_empty(const gang_unit *u)
{
    for (unsigned g = 0; g < GANG_SETS; g++)
        if (u->t.set[g].present)
            return false;
    return true;
}

/* Evaluate the cycles u->next .. to - 1, in which issue asked nothing: no gang was picked (a gang
 * is a candidate only when every member may issue, and issue asks about every warp that may), so a
 * cycle closes the one before it and takes a reformation step. The unit's results are thus those of
 * an evaluation in every cycle, whenever issue runs, fetch asks or the run ends. Once the table
 * stops changing (no merge in a round of the sets), the rest is counted at once. */
static void skip_to(gang_unit *u, uint64_t to)
{
    unsigned quiet = 0; /* steps since the last change */
    while (u->next < to) {
        if (set_empty(u)) {
            u->next = to;
            u->tr_gangs = u->tr_indep = 0;
            break;
        }
        if (quiet > GANG_SETS || (quiet > 0 && u->reform == GANG_REFORM_NONE)) {
            uint64_t rest = to - u->next;
            account(u, rest);
            if (u->reform == GANG_REFORM_OPPORTUNISTIC) {
                unsigned present = 0;
                for (unsigned g = 0; g < GANG_SETS; g++)
                    present += u->t.set[g].present != 0;
                for (uint64_t i = 0; i < rest % present; i++)
                    reform_next_set(u);
            }
            u->next = to;
            break;
        }
        /* (closing a cycle issue asked in, with its picks and issues, changes the table) */
        bool changed = u->next > 0 && (close_cycle(u, u->next - 1) || u->next - 1 < u->quiet_from);
        quiet = changed ? 0 : quiet + 1;
        account(u, 1);
        u->tr_issue_mask = 0;
        u->next++;
    }
}

static void snapshot(gang_unit *u);

/* Issue asks in cycle `now`: the cycles before it are evaluated, then this one (its gangs picked). */
static void begin(gang_unit *u, uint64_t now)
{
    if (u->next > now)
        return;
    snapshot(u); /* (evaluates the cycles before now) */
    if (now > 0)
        close_cycle(u, now - 1);
    account(u, 1);
    pick(u, now);
    u->next = now + 1;
    u->quiet_from = now + 1;
}

static void gu_finish(void *self, uint64_t cycles)
{
    gang_unit *u = self;
    skip_to(u, cycles);
}

/* The gang's instruction would run on a member at another PC: its registers become garbage. */
static void poison(gang_unit *u, unsigned w)
{
    blk_stat_add(u->inst, GANG_STAT_PC_MISMATCH, 1);
    if (!u->is || !u->env)
        return;
    uint64_t vals[IR_WARP_SIZE];
    for (unsigned l = 0; l < IR_WARP_SIZE; l++)
        vals[l] = REGVAL_POISON;
    for (unsigned r = 0; r < u->env->k->total_regs; r++)
        wexec_write_slot(u->is->wx, w, r, UINT32_MAX, vals, UINT64_MAX, u->next - 1);
}

static bool gu_allow(void *self, unsigned w, const decoded_t *head, uint64_t cycle)
{
    gang_unit *u = self;
    begin(u, cycle);
    if (w >= GANG_MAX_WARPS)
        return true;
    u->ready_at[w] = cycle + 1;
    u->head_mem[w] = head->cls == IR_CLASS_MEM;
    unsigned g = gang_set_of(&u->t, w);
    int k = gang_entry_of(&u->t, w);
    if (k < 0 && u->mode == GANG_MODE_GANG_ONLY) /* only when the gang scheduler picked it */
        return u->picked_lone[g] >> gang_slice(&u->t, w) & 1;
    if (k < 0) /* independent: the slices the picked gangs leave free */
        return !(u->busy_slices >> gang_slice(&u->t, w) & 1) &&
               !(u->sync && sync_holds(u, w, (uint8_t)(1u << gang_slice(&u->t, w)), head, cycle));
    if (!(u->picked_set[g] >> k & 1))
        return false;
    uint64_t pc = (uint64_t)head->func << 32 | head->pc;
    if (pc != u->t.set[g].e[k].pc)
        poison(u, w);
    return true;
}

static void gu_issued(void *self, const issued_t *it)
{
    gang_unit *u = self;
    uint64_t now = gsc_cycle();
    begin(u, now);
    unsigned w = it->warp;
    if (w >= GANG_MAX_WARPS)
        return;
    u->issued_at[w] = now + 1;
    unsigned g = gang_set_of(&u->t, w);
    int k = gang_entry_of(&u->t, w);
    if (k < 0) {
        blk_stat_add(u->inst, GANG_STAT_INDEP_ISSUES, 1);
        return;
    }
    blk_stat_add(u->inst, GANG_STAT_GANG_WARP_ISSUES, 1);
    u->issued_set[g] |= (uint8_t)(1u << k);
    u->t.set[g].e[k].last_issue = (int64_t)now;
    if (it->long_op && it->cls == IR_CLASS_MEM)
        u->waits_mem[g] |= (uint8_t)(1u << k);
}

static void gu_cta_start(void *self, const cta_launch_t *c, uint64_t cycle)
{
    gang_unit *u = self;
    blk_call_note(u->probe[GANG_UNIT_EVENTS], 0, c->cta, c->slot);
    (void)cycle;
    if (c->first_warp + c->warps > GANG_SETS * u->t.slices)
        gsc_fatal("%s: warp slots %u..%u: the gang table covers %u warps", u->inst->path, c->first_warp,
                  c->first_warp + c->warps - 1, GANG_SETS * u->t.slices);
    uint64_t entry = u->env ? (uint64_t)u->env->launch.entry << 32 : 0; /* pc 0 of the kernel */
    snapshot(u);
    for (unsigned w = c->first_warp; w < (unsigned)c->first_warp + c->warps;) {
        unsigned g = gang_set_of(&u->t, w);
        uint8_t mask = 0;
        for (; w < (unsigned)c->first_warp + c->warps && gang_set_of(&u->t, w) == g; w++)
            mask |= (uint8_t)(1u << gang_slice(&u->t, w));
        u->set_age[g] = u->age_seq;
        if (u->mode == GANG_MODE_SLICE_ONLY)
            gang_add_independent(&u->t, g, mask);
        else
            gang_form(&u->t, g, mask, entry, u->age_seq, &u->c);
        u->age_seq++;
    }
    sync_counts(u);
}

static void gu_cta_end(void *self, const cta_launch_t *c, uint64_t cycle)
{
    gang_unit *u = self;
    (void)cycle;
    blk_call_note(u->probe[GANG_UNIT_EVENTS], 1, c->cta, c->slot);
}

static void gu_warp_start(void *self, unsigned w, unsigned slot, uint64_t cycle)
{
    gang_unit *u = self;
    (void)cycle;
    blk_call_note(u->probe[GANG_UNIT_EVENTS], 2, w, slot);
}

static void gu_warp_end(void *self, unsigned w, unsigned slot, uint64_t cycle)
{
    (void)slot;
    (void)cycle;
    gang_unit *u = self;
    blk_call_note(u->probe[GANG_UNIT_EVENTS], 3, w, slot);
    if (w >= GANG_MAX_WARPS)
        return;
    snapshot(u); /* (first: the cycles before this one are closed with what the warp did in them) */
    u->ready_at[w] = u->issued_at[w] = 0;
    gang_leave(&u->t, w, &u->c);
    sync_counts(u);
}

static unsigned gang_list(const gang_unit *u, uint32_t *gangs);

/* The gangs for the gang fetch: set g's entries as base warp 8g, GangMask. Fetch reads them in its
 * own activation, before or after issue's in the same cycle: it gets the table as it was at the start
 * of the cycle (the copy taken before the first change of the cycle), whatever the order. */
static unsigned gu_list(void *self, uint32_t *gangs)
{
    gang_unit *u = self;
    uint64_t now = gsc_cycle();
    if (u->snap_cycle == now + 1) {
        memcpy(gangs, u->snap, u->n_snap * sizeof *gangs);
        return u->n_snap;
    }
    skip_to(u, now); /* the cycles before this one, unchanged since (issue has not asked yet) */
    return gang_list(u, gangs);
}

/* The table is about to change in this cycle: keep what it was for the gang fetch (gu_list). */
static void snapshot(gang_unit *u)
{
    uint64_t now = gsc_cycle();
    skip_to(u, now);
    if (u->snap_cycle == now + 1)
        return;
    u->snap_cycle = now + 1;
    u->n_snap = gang_list(u, u->snap);
}

static unsigned gang_list(const gang_unit *u, uint32_t *gangs)
{
    unsigned n = 0;
    for (unsigned g = 0; g < GANG_SETS; g++) {
        if (!u->t.set[g].present)
            continue;
        if (u->mode == GANG_MODE_GANG_ONLY) /* the slices' front ends are off: lone warps too */
            for (uint8_t m = u->t.set[g].indep; m; m &= (uint8_t)(m - 1))
                gangs[n++] = (uint32_t)(g * u->t.slices) << 8 | (m & (uint8_t)-m);
        for (unsigned k = 0; k < GANG_WAYS; k++)
            if (u->t.set[g].e[k].valid)
                gangs[n++] = (uint32_t)(g * u->t.slices) << 8 | u->t.set[g].e[k].mask;
    }
    return n;
}

/* Called for every warp issue checks, every instruction issued and every gang fetch: the notes are
 * in tables of their own (blk_export_noted). */
static bool gu_allow_noted(void *self, unsigned w, const decoded_t *head, uint64_t cycle)
{
    blk_call_note(((gang_unit *)self)->probe[GANG_UNIT_CHECK], w, head->pc, 0);
    return gu_allow(self, w, head, cycle);
}

static void gu_issued_noted(void *self, const issued_t *it)
{
    blk_call_note(((gang_unit *)self)->probe[GANG_UNIT_ISSUED], it->warp, it->pc, 0);
    gu_issued(self, it);
}

static unsigned gu_list_noted(void *self, uint32_t *gangs)
{
    blk_call_note(((gang_unit *)self)->probe[GANG_UNIT_GANGS], 0, 0, 0);
    return gu_list(self, gangs);
}

static const fetch_gangs_if gangs_table = {gu_list};
static const fetch_gangs_if gangs_noted = {gu_list_noted};
static const issue_check_if check_table = {gu_allow};
static const issue_check_if check_noted = {gu_allow_noted};
static const instr_issued_if issued_table = {gu_issued};
static const instr_issued_if issued_noted = {gu_issued_noted};
static const warp_events_if events_table = {gu_cta_start, gu_cta_end, gu_warp_start, gu_warp_end};

gang_unit *gang_unit_new(blk_ctx *ctx, gsc_module *parent, const char *name, sm_env *env, issue *is)
{
    gang_unit *u = g_new0(gang_unit, 1);
    u->inst = blk_inst_new(ctx, parent, name, &gang_unit_desc);
    u->env = env;
    u->is = is;
    u->per_cycle = (unsigned)blk_param_uint(u->inst, "gangs_per_cycle");
    u->reform = blk_param_enum(u->inst, "reform");
    u->mem_split = blk_param_enum(u->inst, "mem_split");
    u->fault = blk_param_enum(u->inst, "fault");
    u->ready_reg = blk_param_enum(u->inst, "ready") == 1;
    u->sync = (unsigned)blk_param_uint(u->inst, "sync");
    u->sched.policy = blk_param_enum(u->inst, "sched");
    u->sched.tie = blk_param_enum(u->inst, "tie");
    u->mode = blk_param_enum(u->inst, "mode");
    if (u->mode == GANG_MODE_SLICE_ONLY)
        u->reform = GANG_REFORM_NONE;                          /* (no gangs: nothing to re-form) */
    unsigned slices = is ? issue_schedulers(is) : GANG_SLICES; /* (one scheduler per slice) */
    if (slices != 4 && slices != GANG_SLICES)
        gsc_fatal("%s: %u issue schedulers: the ganging unit needs one per slice, 8 (4-thread warps) or 4 "
                  "(8-thread warps)",
                  u->inst->path, slices);
    gang_table_init_slices(&u->t, slices);
    blk_export_noted(u->inst, GANG_UNIT_CHECK, 0, &check_table, &check_noted, u);
    blk_export_noted(u->inst, GANG_UNIT_ISSUED, 0, &issued_table, &issued_noted, u);
    blk_export(u->inst, GANG_UNIT_EVENTS, 0, &events_table, u);
    blk_export_noted(u->inst, GANG_UNIT_GANGS, 0, &gangs_table, &gangs_noted, u);
    blk_export_probes(u->inst, u->probe, GANG_UNIT_GANGS + 1);
    blk_trace_state(u->inst, "gangs", GSC_U32, &u->tr_gangs);
    blk_trace_state(u->inst, "independent", GSC_U32, &u->tr_indep);
    blk_trace_state(u->inst, "issue_mask", GSC_U8, &u->tr_issue_mask);
    for (unsigned k = 0; k < GANG_WAYS; k++) {
        char n[16];
        g_snprintf(n, sizeof n, "set0_way%u", k);
        blk_trace_state(u->inst, n, GSC_U8, &u->tr_set0[k]);
    }
    blk_trace_state(u->inst, "set0_indep", GSC_U8, &u->tr_set0_indep);
    blk_inst_on_finish(u->inst, gu_finish, u);
    return u;
}

void gang_unit_attach(gang_unit *u, blk_inst *issue_inst)
{
    blk_bind(issue_inst, "check", u->inst, "check");
    blk_bind(issue_inst, "issued", u->inst, "issued");
    blk_bind(issue_inst, "warp_events", u->inst, "events");
}

void gang_unit_attach_fetch(gang_unit *u, blk_inst *fetch_inst)
{
    blk_bind(fetch_inst, "gangs", u->inst, "gangs");
}

void gang_unit_set_sync(gang_unit *u, const vws_sync *s)
{
    u->sync_tab = s;
}

void gang_unit_free(gang_unit *u)
{
    g_free(u);
}
