/* gang.c — the gang table's operations (gang.h). */
#include "models/vws/gang.h"

#include <string.h>

#include <glib.h>

void gang_table_init(gang_table *t)
{
    gang_table_init_slices(t, GANG_SLICES);
}

void gang_table_init_slices(gang_table *t, unsigned slices)
{
    g_assert(slices >= 2 && slices <= GANG_SLICES);
    memset(t, 0, sizeof *t);
    t->slices = slices;
}

int gang_entry_of(const gang_table *t, unsigned w)
{
    const gang_set *s = &t->set[gang_set_of(t, w)];
    uint8_t bit = (uint8_t)(1u << gang_slice(t, w));
    for (unsigned k = 0; k < GANG_WAYS; k++)
        if (s->e[k].valid && (s->e[k].mask & bit))
            return (int)k;
    return -1;
}

static int free_way(const gang_set *s)
{
    for (unsigned k = 0; k < GANG_WAYS; k++)
        if (!s->e[k].valid)
            return (int)k;
    return -1;
}

/* mask (>= 2 members) becomes a gang in way k (or a free way if k < 0); -1 and independent when the
 * set is full. */
static int put_gang(gang_set *s, int k, uint8_t mask, uint64_t pc, uint64_t age, int64_t last)
{
    if (k < 0)
        k = free_way(s);
    if (k < 0) {
        s->indep |= mask;
        return -1;
    }
    s->e[k] = (gang_entry){.valid = true, .mask = mask, .pc = pc, .age = age, .last_issue = last};
    s->indep &= (uint8_t)~mask;
    return k;
}

int gang_form(gang_table *t, unsigned g, uint8_t mask, uint64_t pc, uint64_t age, gang_counts *c)
{
    gang_set *s = &t->set[g];
    s->present |= mask;
    if (gang_size(mask) < 2) {
        s->indep |= mask;
        return -1;
    }
    int k = put_gang(s, -1, mask, pc, age, -1);
    if (k >= 0)
        c->formed++;
    else
        c->to_independent += gang_size(mask);
    return k;
}

void gang_add_independent(gang_table *t, unsigned g, uint8_t mask)
{
    t->set[g].present |= mask;
    t->set[g].indep |= mask;
}

void gang_leave(gang_table *t, unsigned w, gang_counts *c)
{
    gang_set *s = &t->set[gang_set_of(t, w)];
    uint8_t bit = (uint8_t)(1u << gang_slice(t, w));
    int k = gang_entry_of(t, w);
    if (k >= 0) {
        gang_entry *e = &s->e[k];
        e->mask &= (uint8_t)~bit;
        if (gang_size(e->mask) < 2) { /* a singleton leaves the ganging unit */
            s->indep |= e->mask;
            c->to_independent += gang_size(e->mask);
            e->valid = false;
            e->mask = 0;
        }
    }
    s->indep &= (uint8_t)~bit;
    s->present &= (uint8_t)~bit;
}

unsigned gang_split_pcs(gang_table *t, unsigned g, unsigned way, const uint64_t pcs[GANG_SLICES],
                        gang_counts *c)
{
    gang_set *s = &t->set[g];
    gang_entry old = s->e[way];
    uint8_t left = old.mask;
    unsigned first = (unsigned)__builtin_ctz(left);
    bool same = true;
    for (uint8_t m = left; m; m &= (uint8_t)(m - 1))
        same &= pcs[__builtin_ctz(m)] == pcs[first];
    if (same) {
        s->e[way].pc = pcs[first];
        return 1;
    }
    c->cf_splits++;
    s->e[way].valid = false;
    s->e[way].mask = 0;
    unsigned made = 0;
    bool reuse = true;
    while (left) { /* groups by PC, in slice order of their first member */
        unsigned f = (unsigned)__builtin_ctz(left);
        uint8_t grp = 0;
        for (uint8_t m = left; m; m &= (uint8_t)(m - 1)) {
            unsigned sl = (unsigned)__builtin_ctz(m);
            if (pcs[sl] == pcs[f])
                grp |= (uint8_t)(1u << sl);
        }
        left &= (uint8_t)~grp;
        if (gang_size(grp) >= 2) {
            if (put_gang(s, reuse ? (int)way : -1, grp, pcs[f], old.age, old.last_issue) >= 0)
                made++;
            else
                c->to_independent += gang_size(grp);
            reuse = false;
        } else {
            s->indep |= grp;
            c->to_independent++;
        }
    }
    return made;
}

void gang_split_all(gang_table *t, unsigned g, unsigned way, gang_counts *c)
{
    gang_set *s = &t->set[g];
    c->mem_splits++;
    c->to_independent += gang_size(s->e[way].mask);
    s->indep |= s->e[way].mask;
    s->e[way].valid = false;
    s->e[way].mask = 0;
}

void gang_split_group(gang_table *t, unsigned g, unsigned way, uint8_t first, gang_counts *c)
{
    gang_set *s = &t->set[g];
    gang_entry old = s->e[way];
    first &= old.mask;
    if (!first || first == old.mask)
        return;
    c->mem_splits++;
    uint8_t rest = old.mask & (uint8_t)~first;
    s->e[way].valid = false;
    s->e[way].mask = 0;
    const uint8_t parts[2] = {first, rest};
    bool reuse = true;
    for (unsigned i = 0; i < 2; i++) {
        if (gang_size(parts[i]) >= 2) {
            if (put_gang(s, reuse ? (int)way : -1, parts[i], old.pc, old.age, old.last_issue) < 0)
                c->to_independent += gang_size(parts[i]);
            reuse = false;
        } else {
            s->indep |= parts[i];
            c->to_independent++;
        }
    }
}

bool gang_reform(gang_table *t, unsigned g, const uint64_t pcs[GANG_SLICES], gang_counts *c)
{
    gang_set *s = &t->set[g];
    /* entities: the gangs (their mask) and the independent warps (one bit each), in slice order of
     * their first member */
    uint8_t ent[GANG_SLICES];
    int way[GANG_SLICES];
    unsigned n = 0;
    for (unsigned sl = 0; sl < GANG_SLICES; sl++) {
        uint8_t bit = (uint8_t)(1u << sl);
        if (!(s->present & bit) || pcs[sl] == GANG_NO_PC)
            continue;
        if (s->indep & bit) {
            ent[n] = bit;
            way[n++] = -1;
            continue;
        }
        for (unsigned k = 0; k < GANG_WAYS; k++)
            if (s->e[k].valid && (s->e[k].mask & bit) && __builtin_ctz(s->e[k].mask) == (int)sl) {
                ent[n] = s->e[k].mask;
                way[n++] = (int)k;
            }
    }
    for (unsigned i = 0; i < n; i++)
        for (unsigned j = i + 1; j < n; j++) {
            uint64_t pc = pcs[__builtin_ctz(ent[i])];
            if (pc != pcs[__builtin_ctz(ent[j])])
                continue;
            int k = way[i] >= 0 ? way[i] : way[j];
            uint64_t age = way[i] >= 0 ? s->e[way[i]].age : way[j] >= 0 ? s->e[way[j]].age : (uint64_t)g;
            if (k < 0)
                k = free_way(s);
            if (k < 0)
                continue; /* two independent warps and no free entry */
            if (way[i] >= 0 && way[j] >= 0) {
                s->e[way[j]].valid = false;
                s->e[way[j]].mask = 0;
            }
            put_gang(s, k, ent[i] | ent[j], pc, age, -1);
            c->reforms++;
            return true;
        }
    return false;
}

/* a before b in GTO order (tie = GANG_TIE_GTO: the one that issued last, then the older one) or by
 * age alone (GANG_TIE_OLDEST); 0 when neither goes first */
static int tie_order(const gang_entry *a, const gang_entry *b, unsigned tie)
{
    if (tie == GANG_TIE_GTO && a->last_issue != b->last_issue)
        return a->last_issue > b->last_issue ? -1 : 1; /* greedy: the one that issued last */
    if (a->age != b->age)
        return a->age < b->age ? -1 : 1;
    return 0;
}

/* a (entry id ia) before b (id ib) under policy s */
static bool sched_before(const gang_entry *a, unsigned ia, const gang_entry *b, unsigned ib,
                         const gang_sched *s)
{
    unsigned sa = gang_size(a->mask), sb = gang_size(b->mask);
    switch (s->policy) {
    case GANG_SCHED_BGTO:
        if (sa != sb)
            return sa > sb;
        break;
    case GANG_SCHED_LGTO:
        if (sa != sb)
            return sa < sb;
        break;
    case GANG_SCHED_LPC:
        if (a->pc != b->pc)
            return a->pc < b->pc;
        break;
    case GANG_SCHED_LRR: {
        unsigned n = GANG_SCHED_IDS;
        return (ia + n - s->rr_from) % n < (ib + n - s->rr_from) % n; /* ids are distinct */
    }
    default: /* GANG_SCHED_GTO: size and PC do not matter */
        break;
    }
    int o = tie_order(a, b, s->policy == GANG_SCHED_GTO ? GANG_TIE_GTO : s->tie);
    return o ? o < 0 : ia < ib;
}

/* the entry of candidate id */
static const gang_entry *cand_entry(const gang_table *t, const gang_entry *lone, unsigned id)
{
    return id < GANG_SETS * GANG_WAYS ? &t->set[id >> 2].e[id & 3] : &lone[id - GANG_SETS * GANG_WAYS];
}

unsigned gang_schedule(const gang_table *t, const gang_entry *lone, const gang_sched *s, const unsigned *cand,
                       unsigned n, unsigned limit, unsigned *pick)
{
    unsigned order[GANG_SCHED_IDS];
    g_assert(n <= GANG_SCHED_IDS);
    for (unsigned i = 0; i < n; i++) { /* insertion sort: n is small */
        unsigned j = i;
        const gang_entry *e = cand_entry(t, lone, cand[i]);
        while (j > 0 && sched_before(e, cand[i], cand_entry(t, lone, order[j - 1]), order[j - 1], s)) {
            order[j] = order[j - 1];
            j--;
        }
        order[j] = cand[i];
    }
    unsigned np = 0;
    uint8_t used = 0;
    for (unsigned i = 0; i < n && np < limit; i++) {
        uint8_t m = cand_entry(t, lone, order[i])->mask;
        if (m & used)
            continue;
        used |= m;
        pick[np++] = order[i];
    }
    return np;
}

unsigned gang_bgto(const gang_table *t, const unsigned *cand, unsigned n, unsigned limit, unsigned *pick)
{
    const gang_sched s = {GANG_SCHED_BGTO, GANG_TIE_GTO, 0};
    return gang_schedule(t, NULL, &s, cand, n, limit, pick);
}
