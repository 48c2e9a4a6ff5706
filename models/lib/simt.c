/* simt.c — PDOM SIMT stack; see simt.h. */
#include "models/lib/simt.h"

struct simt_stack {
    GArray *e; /* simt_entry, bottom first */
    bool taken_first;
};

simt_stack *simt_stack_new(bool taken_first)
{
    simt_stack *s = g_new0(simt_stack, 1);
    s->e = g_array_new(FALSE, FALSE, sizeof(simt_entry));
    s->taken_first = taken_first;
    return s;
}

void simt_stack_free(simt_stack *s)
{
    if (!s)
        return;
    g_array_free(s->e, TRUE);
    g_free(s);
}

void simt_stack_reset(simt_stack *s, uint32_t pc, uint32_t mask)
{
    g_array_set_size(s->e, 0);
    if (mask) {
        simt_entry b = {.pc = pc, .rpc = SIMT_NO_RPC, .mask = mask};
        g_array_append_val(s->e, b);
    }
}

static simt_entry *top(const simt_stack *s)
{
    g_assert(s->e->len > 0);
    return &g_array_index(s->e, simt_entry, s->e->len - 1);
}

bool simt_stack_done(const simt_stack *s)
{
    return s->e->len == 0;
}

uint32_t simt_stack_pc(const simt_stack *s)
{
    return top(s)->pc;
}

uint32_t simt_stack_mask(const simt_stack *s)
{
    return s->e->len ? top(s)->mask : 0;
}

unsigned simt_stack_active(const simt_stack *s)
{
    return (unsigned)__builtin_popcount(simt_stack_mask(s));
}

unsigned simt_stack_depth(const simt_stack *s)
{
    return s->e->len;
}

const simt_entry *simt_stack_entry(const simt_stack *s, unsigned i)
{
    g_return_val_if_fail(i < s->e->len, NULL);
    return &g_array_index(s->e, simt_entry, i);
}

/* Pops entries that reached their reconvergence point or have no lane left. */
static void reconverge(simt_stack *s)
{
    while (s->e->len > 0) {
        simt_entry *t = top(s);
        if (t->mask != 0 && t->pc != t->rpc)
            break;
        g_array_set_size(s->e, s->e->len - 1);
    }
}

void simt_stack_step(simt_stack *s, uint32_t next_pc)
{
    top(s)->pc = next_pc;
    reconverge(s);
}

static void push(simt_stack *s, uint32_t pc, uint32_t rpc, uint32_t mask)
{
    simt_entry x = {.pc = pc, .rpc = rpc, .mask = mask};
    g_array_append_val(s->e, x);
}

void simt_stack_branch(simt_stack *s, uint32_t taken_mask, uint32_t target, uint32_t fallthrough, uint32_t rpc)
{
    simt_entry *t = top(s);
    uint32_t m = t->mask;
    g_assert((taken_mask & ~m) == 0);
    if (taken_mask == m) {
        t->pc = target;
    } else if (taken_mask == 0) {
        t->pc = fallthrough;
    } else {
        t->pc = rpc;
        if (s->taken_first) {
            push(s, fallthrough, rpc, m & ~taken_mask);
            push(s, target, rpc, taken_mask);
        } else {
            push(s, target, rpc, taken_mask);
            push(s, fallthrough, rpc, m & ~taken_mask);
        }
        /* A reconvergence entry without a reconvergence pc has nothing to resume: drop it when
         * its paths are done (it keeps no lane of its own). */
        if (rpc == SIMT_NO_RPC)
            g_array_index(s->e, simt_entry, s->e->len - 3).mask &= ~m;
    }
    reconverge(s);
}

void simt_stack_exit(simt_stack *s, uint32_t lanes)
{
    unsigned k = 0;
    for (unsigned i = 0; i < s->e->len; i++) {
        simt_entry x = g_array_index(s->e, simt_entry, i);
        x.mask &= ~lanes;
        if (x.mask)
            g_array_index(s->e, simt_entry, k++) = x;
    }
    g_array_set_size(s->e, k);
    reconverge(s);
}
