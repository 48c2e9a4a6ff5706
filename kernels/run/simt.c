/* simt.c — the PDOM SIMT stack (see simt.h). */
#include "kernels/run/simt.h"

static void stack_push(simt_stack *s, simt_entry e)
{
    if (s->n == s->cap) {
        s->cap = s->cap ? s->cap * 2 : 8;
        s->e = g_renew(simt_entry, s->e, s->cap);
    }
    s->e[s->n++] = e;
    if (s->n > s->max_depth)
        s->max_depth = s->n;
}

/* Pop entries that have no lane left or whose path reached its reconvergence pc. */
static void stack_settle(simt_stack *s)
{
    while (s->n > 0) {
        const simt_entry *t = &s->e[s->n - 1];
        if (t->mask == 0 || (t->kind == SIMT_PATH && t->rpc != SIMT_PC_EXIT && t->pc == t->rpc))
            s->n--;
        else
            break;
    }
}

/* Index of the current frame base. */
static uint32_t frame_index(const simt_stack *s)
{
    g_assert(s->n > 0);
    uint32_t i = s->n - 1;
    while (s->e[i].kind != SIMT_FRAME) {
        g_assert(i > 0);
        i--;
    }
    return i;
}

void simt_init(simt_stack *s, uint32_t func, uint32_t pc, uint32_t mask)
{
    s->n = 0;
    s->exited = 0;
    s->max_depth = 0;
    stack_push(s, (simt_entry){.pc = pc,
                               .rpc = SIMT_PC_EXIT,
                               .mask = mask,
                               .func = func,
                               .kind = SIMT_FRAME,
                               .call_pc = UINT32_MAX});
    stack_settle(s);
}

void simt_release(simt_stack *s)
{
    g_free(s->e);
    s->e = NULL;
    s->n = s->cap = 0;
}

const simt_entry *simt_frame(const simt_stack *s)
{
    return &s->e[frame_index(s)];
}

void simt_advance(simt_stack *s, uint32_t next_pc)
{
    g_assert(s->n > 0);
    s->e[s->n - 1].pc = next_pc;
    stack_settle(s);
}

bool simt_branch(simt_stack *s, uint32_t taken, uint32_t target, uint32_t fallthrough, uint32_t reconv)
{
    g_assert(s->n > 0);
    simt_entry *t = &s->e[s->n - 1];
    uint32_t active = t->mask;
    taken &= active;
    uint32_t not_taken = active & ~taken;
    if (not_taken == 0 || taken == 0) {
        t->pc = taken ? target : fallthrough;
        stack_settle(s);
        return false;
    }
    /* The top entry waits at the reconvergence point; the paths run above it. */
    simt_entry base = *t;
    t->pc = reconv;
    /* A path entry that would wait at its own reconvergence point is redundant (the entry below
     * already waits there): replace it, so loops do not grow the stack every iteration. */
    if (t->kind == SIMT_PATH && t->rpc == reconv)
        s->n--;
    simt_entry path = {.rpc = reconv, .func = base.func, .kind = SIMT_PATH, .call_pc = UINT32_MAX};
    /* Taken pushed first, so the fall-through path runs first. */
    if (target != reconv) {
        path.pc = target;
        path.mask = taken;
        stack_push(s, path);
    }
    if (fallthrough != reconv) {
        path.pc = fallthrough;
        path.mask = not_taken;
        stack_push(s, path);
    }
    stack_settle(s);
    return true;
}

void simt_call(simt_stack *s, uint32_t call_pc, uint32_t ret_pc, uint32_t callee, uint32_t callee_pc,
               uint32_t mask)
{
    g_assert(s->n > 0);
    simt_entry *t = &s->e[s->n - 1];
    g_assert((mask & ~t->mask) == 0);
    t->pc = ret_pc;
    if (mask == 0) {
        stack_settle(s);
        return;
    }
    stack_push(s, (simt_entry){.pc = callee_pc,
                               .rpc = SIMT_PC_EXIT,
                               .mask = mask,
                               .func = callee,
                               .kind = SIMT_FRAME,
                               .call_pc = call_pc});
}

bool simt_ret(simt_stack *s, uint32_t mask)
{
    if (s->n == 0 || mask == 0)
        return false;
    uint32_t f = frame_index(s);
    if (f == 0) {
        simt_exit(s, mask);
        return s->n == 0;
    }
    for (uint32_t i = f; i < s->n; i++)
        s->e[i].mask &= ~mask;
    bool done = s->e[f].mask == 0;
    stack_settle(s);
    return done;
}

void simt_exit(simt_stack *s, uint32_t mask)
{
    s->exited |= mask;
    for (uint32_t i = 0; i < s->n; i++)
        s->e[i].mask &= ~mask;
    stack_settle(s);
}

void simt_dump(const simt_stack *s, GString *out, const char *indent)
{
    for (uint32_t i = s->n; i-- > 0;) {
        const simt_entry *e = &s->e[i];
        g_string_append_printf(out, "%s[%u] pc ", indent, i);
        if (e->pc == SIMT_PC_EXIT)
            g_string_append(out, "exit");
        else
            g_string_append_printf(out, "%u", e->pc);
        g_string_append(out, " rpc ");
        if (e->rpc == SIMT_PC_EXIT)
            g_string_append(out, "exit");
        else
            g_string_append_printf(out, "%u", e->rpc);
        g_string_append_printf(out, " mask 0x%08x func %u %s\n", e->mask, e->func,
                               e->kind == SIMT_FRAME ? "frame" : "path");
    }
}
