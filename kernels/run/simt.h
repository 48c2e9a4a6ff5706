/* simt.h — the per-warp SIMT reconvergence stack (post-dominator reconvergence, as GPGPU-Sim does).
 *
 * Each entry is (pc, reconvergence pc, active mask, function). The top entry is what the warp
 * executes. On a divergent branch the top entry becomes the reconvergence entry (its pc is set to
 * the branch's immediate post-dominator) and the two paths are pushed above it with that
 * reconvergence pc; a path entry is popped when its pc reaches its reconvergence pc, and the lanes
 * carry on together in the entry below. A path whose first pc already is the reconvergence point is
 * not pushed.
 *
 * When the immediate post-dominator is the function's exit (SIMT_PC_EXIT), the paths only meet when
 * their lanes leave the function: `ret` removes the returning lanes from every entry of the current
 * call frame, `exit` removes the exiting lanes from every entry of the stack; entries left with no
 * lane are popped. A call pushes a frame base entry (kind SIMT_FRAME) in the callee after setting the
 * caller's pc to the return address; when every lane of the frame has returned, the frame base
 * empties, is popped, and the caller resumes. The bottom entry is the kernel's frame.
 *
 * Invariants (checked by g_assert): masks of entries above another entry of the same frame are
 * subsets of it; an entry's mask is never empty once settled (empty entries are popped at once).
 */
#ifndef GPUSC_KERNELS_SIMT_H
#define GPUSC_KERNELS_SIMT_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

G_BEGIN_DECLS

#define SIMT_PC_EXIT UINT32_MAX /* "the function exit": a reconvergence pc, or a pc waiting there */

typedef enum { SIMT_PATH = 0, SIMT_FRAME = 1 } simt_kind;

typedef struct {
    uint32_t pc;      /* next instruction (index in func's instrs) */
    uint32_t rpc;     /* reconvergence pc (SIMT_PC_EXIT: none before the function exit) */
    uint32_t mask;    /* active lanes */
    uint32_t func;    /* function index the entry executes in */
    uint32_t kind;    /* simt_kind */
    uint32_t call_pc; /* SIMT_FRAME: the caller's call instruction (UINT32_MAX for the kernel frame) */
} simt_entry;

typedef struct {
    simt_entry *e;
    uint32_t n, cap;
    uint32_t exited; /* lanes that executed exit (or ret in the kernel frame) */
    uint32_t max_depth;
} simt_stack;

/* Start a warp: one frame entry at `pc` of `func` with `mask`. Reuses the storage of a previous run. */
void simt_init(simt_stack *s, uint32_t func, uint32_t pc, uint32_t mask);
void simt_release(simt_stack *s); /* frees the storage */

static inline bool simt_done(const simt_stack *s)
{
    return s->n == 0;
}
static inline simt_entry *simt_top(const simt_stack *s)
{
    return &s->e[s->n - 1];
}
/* The frame base of the current function. */
const simt_entry *simt_frame(const simt_stack *s);

/* The top entry goes on at `next_pc` (a non-branch instruction, or a uniform jump). Reconverges. */
void simt_advance(simt_stack *s, uint32_t next_pc);
/* A conditional branch of the top entry: lanes in `taken` (a subset of the top mask; others are
 * masked off) go to `target`, the other lanes to `fallthrough`; `reconv` is the branch's immediate
 * post-dominator (SIMT_PC_EXIT for the function exit). Returns true if the warp diverged. */
bool simt_branch(simt_stack *s, uint32_t taken, uint32_t target, uint32_t fallthrough, uint32_t reconv);
/* Lanes `mask` of the top entry call `callee` at `callee_pc`; the caller resumes at `ret_pc`. The
 * lanes of the top entry that do not call (a guarded call) wait at ret_pc. */
void simt_call(simt_stack *s, uint32_t call_pc, uint32_t ret_pc, uint32_t callee, uint32_t callee_pc,
               uint32_t mask);
/* Lanes `mask` return from the current function (the other lanes of the top entry must already
 * have been moved on with simt_advance). Returns true when this completed the frame and the caller
 * resumed (or, for the kernel frame, the warp is done). In the kernel frame, ret is exit. */
bool simt_ret(simt_stack *s, uint32_t mask);
/* Lanes `mask` exit the kernel. */
void simt_exit(simt_stack *s, uint32_t mask);

/* "pc 12 rpc 20 mask 0x0000ffff func 0 path" lines, top first, for state dumps. */
void simt_dump(const simt_stack *s, GString *out, const char *indent);

G_END_DECLS

#endif /* GPUSC_KERNELS_SIMT_H */
