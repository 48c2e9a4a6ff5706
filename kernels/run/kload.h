/* kload.h — "loading" a PTX module for execution: the data layout every runner shares.
 *
 * Address spaces and the generic address map (address_size 64):
 *
 *   generic address                      space      space address
 *   [FMEM_ALLOC_BASE, FMEM_ALLOC_LIMIT)  global     = generic (device allocations, 256-aligned, guarded)
 *   [KLOAD_GLOBALS_BASE, +global bytes)  global     = generic (module-scope .global variables)
 *   [KLOAD_CONST_BASE, +const bytes)     const      = generic (module-scope .const, read-only)
 *   [KLOAD_SHARED_WINDOW, +4 GiB)        shared     = generic - KLOAD_SHARED_WINDOW (the running CTA's)
 *   [KLOAD_LOCAL_WINDOW, +4 GiB)         local      = generic - KLOAD_LOCAL_WINDOW (the thread's own)
 *
 * So cvta to/from .global and .const is the identity, cvta to/from .shared and .local adds/subtracts
 * the window base, and a generic ld/st/atom resolves by window: shared window, local window, else the
 * global image (which holds the const bank too, read-only). Shared addresses are offsets in the CTA's
 * shared segment: static .shared variables first (module scope, then the kernel's own), then the
 * .extern dynamic array at the next 16-byte boundary. Local addresses are offsets in the thread's
 * local segment: every function's .local variables at a fixed place (functions do not recurse, which
 * the loader checks, so frames never overlap in use).
 *
 * Parameters: a kernel's .param variables live in the launch's parameter buffer (uniform for all
 * threads; param-space address = offset in it). The .param variables of .func functions (parameters
 * and return values) and of call sequences (`.param .b64 param0;` inside `{ }`) live in a per-thread
 * call-parameter segment at fixed offsets; their param-space addresses are KLOAD_CPARAM_BASE +
 * offset. A call copies the caller's argument variables into the callee's parameters; `ret` copies
 * the callee's return parameters into the call's return variables.
 *
 * Registers: each function's virtual registers are the slots [reg_base, reg_base + n_regs) (again
 * static, as there is no recursion): the register numbers every runner and timing block names. A
 * slot's value is kept in a row of one per-thread register array (kload_func.rows, total_rows rows):
 * the slot's own row for code as parsed; for register-allocated code (regalloc.h: every function's
 * ir_reg.phys set), a row of its physical register: each of the function's registers R0.. has a row
 * for the values of 32 bits or less it holds and one for the 64- or 128-bit values that start at it
 * (each only when there is such a value: a 32-bit value is never read from a row of 64-bit lanes),
 * R0's first, then the predicates P0.., then one spare row for the registers it declares and never
 * references — so virtual registers of one width that share a physical register share its row, and
 * a warp keeps about as many rows as the code has physical registers, not virtual ones.
 *
 * A warp's register array holds each row's 32 lanes in turn. A row is narrow when every register
 * kept in it is 32 bits wide or less (predicates too): its lanes are 32-bit words, 128 bytes, where a
 * wide row's are 64-bit words, 256 bytes; a narrow lane reads back zero-extended (every write masks a
 * value to its register's width, so nothing is lost). Where a row lives is `at` (kload_func.at,
 * kload_module.slot_at): its first uint64_t word in the array times two, plus one when narrow; read and
 * write lanes with kload_reg_get / kload_reg_set. kload_module.warp_words is the array's size.
 */
#ifndef GPUSC_KERNELS_KLOAD_H
#define GPUSC_KERNELS_KLOAD_H

#include <string.h>

#include "kernels/run/fmem.h"
#include "kernels/frontend/ir.h"
#include "kernels/workloads/workload.h"

G_BEGIN_DECLS

#define KLOAD_CONST_BASE       0x08000000ull
#define KLOAD_GLOBALS_BASE     0x0c000000ull
#define KLOAD_SEG_LIMIT        0x04000000ull /* 64 MiB each for module .const and .global data */
#define KLOAD_SHARED_WINDOW    0x100000000000ull
#define KLOAD_LOCAL_WINDOW     0x200000000000ull
#define KLOAD_WINDOW_SIZE      0x100000000ull
#define KLOAD_CPARAM_BASE      0x01000000ull
#define KLOAD_DYN_SHARED_ALIGN 16u

/* The space a generic address falls in (shared window, local window, else global — which holds the
 * const bank too) and the address within that space. */
static inline ir_space kload_generic_resolve(uint64_t addr, uint64_t *space_addr)
{
    if (addr - KLOAD_SHARED_WINDOW < KLOAD_WINDOW_SIZE) {
        *space_addr = addr - KLOAD_SHARED_WINDOW;
        return IR_SPACE_SHARED;
    }
    if (addr - KLOAD_LOCAL_WINDOW < KLOAD_WINDOW_SIZE) {
        *space_addr = addr - KLOAD_LOCAL_WINDOW;
        return IR_SPACE_LOCAL;
    }
    *space_addr = addr;
    return IR_SPACE_GLOBAL;
}

/* The generic window base of a space for cvta (0 for global and const: identity); false for a
 * space cvta does not support here (param). */
static inline bool kload_cvta_base(ir_space space, uint64_t *base)
{
    switch (space) {
    case IR_SPACE_GLOBAL:
    case IR_SPACE_CONST:
        *base = 0;
        return true;
    case IR_SPACE_SHARED:
        *base = KLOAD_SHARED_WINDOW;
        return true;
    case IR_SPACE_LOCAL:
        *base = KLOAD_LOCAL_WINDOW;
        return true;
    default:
        return false;
    }
}

/* The memory one thread sees, for kload_resolve: the global image (with the const bank), its CTA's
 * shared segment, its own local and call-parameter segments, and the launch's parameter buffer. */
typedef struct {
    fmem *global;
    fmem_seg shared;
    fmem_seg local;
    fmem_seg cparam;
    fmem_seg kparam; /* read-only for kernels */
} kload_spaces;

/* The host pointer for a `len`-byte access at `addr` in `space` (IR_SPACE_NONE: generic) by a
 * thread, or NULL, with the reason appended to `why` when it is not NULL. Alignment is the caller's
 * business. Used by the functional runner's slow path and meant for the timing model's LSU. */
uint8_t *kload_resolve(const kload_spaces *s, ir_space space, uint64_t addr, uint64_t len, bool write,
                       GString *why);

/* Memory-check mode warn (fmem.h): after kload_resolve refused a global access, the host pointer
 * when the access lies in an allocation's padding, with where it is appended to `where` ("offset
 * 400 of alloc#2 [0x10000000, +400), in its padding"); NULL otherwise. The caller reports it and goes on. */
uint8_t *kload_resolve_padding(const kload_spaces *s, ir_space space, uint64_t addr, uint64_t len,
                               GString *where);

/* kload_resolve without the reason, inline, with the global image looked up through the caller's
 * region cache `gc` (fmem_translate_cached): the same pointer or NULL. For per-lane loops, which
 * build `s` once and change only the lane's local and cparam segments; kload_resolve itself is this
 * with an empty cache, so a NULL here is explained by calling it with `why`. Always inlined: as a
 * call (which the compiler chose) it cost as much again. */
static inline __attribute__((always_inline)) uint8_t *kload_resolve_cached(const kload_spaces *s,
                                                                           fmem_cache *gc, ir_space space,
                                                                           uint64_t addr, uint64_t len,
                                                                           bool write)
{
    if (space == IR_SPACE_NONE)
        space = kload_generic_resolve(addr, &addr);
    switch (space) {
    case IR_SPACE_GLOBAL:
    case IR_SPACE_CONST:
        return fmem_translate_cached(s->global, gc, addr, len, write);
    case IR_SPACE_SHARED: /* 32-bit windows: an address computed past 2^32 wraps */
        return fmem_seg_ptr(&s->shared, (uint32_t)addr, len);
    case IR_SPACE_LOCAL:
        return fmem_seg_ptr(&s->local, (uint32_t)addr, len);
    case IR_SPACE_PARAM:
        if (addr >= KLOAD_CPARAM_BASE)
            return fmem_seg_ptr(&s->cparam, addr - KLOAD_CPARAM_BASE, len);
        return write ? NULL : fmem_seg_ptr(&s->kparam, addr, len);
    default:
        return NULL;
    }
}

/* What a symbol is, for address computation. */
typedef enum {
    KLOAD_SYM_GLOBAL,     /* address = KLOAD_GLOBALS_BASE + offset */
    KLOAD_SYM_CONST,      /* address = KLOAD_CONST_BASE + offset */
    KLOAD_SYM_SHARED,     /* shared address = offset */
    KLOAD_SYM_DYN_SHARED, /* .extern .shared: shared address = the kernel's dyn_shared_offset */
    KLOAD_SYM_LOCAL,      /* local address = offset */
    KLOAD_SYM_KPARAM,     /* kernel parameter: param address = offset in the parameter buffer */
    KLOAD_SYM_CPARAM,     /* call parameter: param address = KLOAD_CPARAM_BASE + offset */
    KLOAD_SYM_OTHER       /* not addressable (a .reg, a function-scope thing we do not lay out) */
} kload_sym_kind;

typedef struct {
    uint8_t kind;    /* kload_sym_kind */
    uint64_t offset; /* in its segment (also written to ir_sym.offset) */
} kload_sym;

typedef struct {
    uint32_t reg_base; /* first slot of this function's registers */
    uint32_t n_regs;
    const uint32_t *rows;       /* n_regs entries: the register-array row of each virtual register */
    const uint32_t *at;         /* n_regs entries: where that row lives in a warp's array ("Registers") */
    uint64_t shared_static;     /* entries: static shared bytes a CTA of this kernel needs */
    uint64_t dyn_shared_offset; /* entries: where the .extern shared array starts */
    uint64_t kparam_bytes;      /* entries: parameter buffer size */
    uint64_t *param_offset;     /* entries: offset of each parameter in the buffer */
    bool recursive;             /* part of a call cycle (the runner refuses to run it) */
} kload_func;

typedef struct {
    ir_module *mod;        /* not owned */
    fmem *mem;             /* not owned: module .global / .const data are mapped into it */
    kload_func *funcs;     /* per module function */
    kload_sym *syms;       /* per module symbol */
    uint32_t total_regs;   /* register slots per thread, all functions */
    uint32_t total_rows;   /* register-array rows per thread (<= total_regs) */
    uint32_t *slot_row;    /* total_regs + 1 entries: the row of each slot */
    uint32_t *slot_at;     /* total_regs + 1 entries: where each slot's row lives ("Registers") */
    uint32_t *row_at;      /* total_rows + 1 entries: where each row lives */
    uint64_t warp_words;   /* uint64_t words of a warp's register array (every row's 32 lanes) */
    uint64_t local_bytes;  /* local segment per thread, all functions */
    uint64_t cparam_bytes; /* call-parameter segment per thread */
    uint64_t module_shared_bytes;
    uint64_t global_bytes, const_bytes;
} kload_module;

/* The array is uint64_t; a narrow row's lanes are uint32_t in it. A row is always read and written
 * at its own width (zeroing and poisoning go through character copies), so the two never alias. */

/* Lane `lane` of the row at `at` (kload_func.at) in warp register array `regs`, zero-extended. */
static inline uint64_t kload_reg_get(const uint64_t *regs, uint32_t at, unsigned lane)
{
    const uint64_t *p = regs + (at >> 1);
    return (at & 1) ? ((const uint32_t *)p)[lane] : p[lane];
}

/* Write lane `lane` of the row at `at`; a narrow row keeps the low 32 bits. */
static inline void kload_reg_set(uint64_t *regs, uint32_t at, unsigned lane, uint64_t v)
{
    uint64_t *p = regs + (at >> 1);
    if (at & 1)
        ((uint32_t *)p)[lane] = (uint32_t)v;
    else
        p[lane] = v;
}

/* Eight lanes at a time (the compiler's vector extension: widened or cut in a few instructions). */
typedef uint32_t kload_v8w32 __attribute__((vector_size(32), aligned(4)));
typedef uint64_t kload_v8w64 __attribute__((vector_size(64), aligned(8)));

/* All 32 lanes of the row at `at`, zero-extended, into out. */
static inline void kload_reg_read_all(const uint64_t *regs, uint32_t at, uint64_t *out)
{
    const uint64_t *p = regs + (at >> 1);
    if (at & 1) {
        const kload_v8w32 *q = (const kload_v8w32 *)p;
        for (unsigned i = 0; i < IR_WARP_SIZE / 8; i++)
            ((kload_v8w64 *)out)[i] = __builtin_convertvector(q[i], kload_v8w64);
    } else {
        memcpy(out, (const void *)p, IR_WARP_SIZE * sizeof(uint64_t));
    }
}

/* Write all 32 lanes of the narrow row at `at` from v, each masked by vmask (a register's width: 32
 * bits or fewer, a predicate's 1). */
static inline void kload_reg_write_all_narrow(uint64_t *regs, uint32_t at, const uint64_t *v, uint32_t vmask)
{
    kload_v8w32 *q = (kload_v8w32 *)(regs + (at >> 1));
    for (unsigned i = 0; i < IR_WARP_SIZE / 8; i++)
        q[i] = __builtin_convertvector(((const kload_v8w64 *)v)[i], kload_v8w32) & vmask;
}

/* Lay out `m` and map its .global/.const data (with initialisers; the addresses in them, ir_init_addr,
 * written once every variable has its place) into `mem`. Computes the CFG
 * reconvergence points of every defined function (cfg_compute_reconvergence). NULL with a message on
 * error (a symbol that does not fit, a data segment over its limit). */
kload_module *kload_module_new(ir_module *m, fmem *mem, GString *err);
void kload_module_free(kload_module *k);

/* The address of symbol `sym` in its own space (see the kinds), for a launch of `entry`. */
uint64_t kload_sym_address(const kload_module *k, uint32_t entry, uint32_t sym);

/* Pack a kernel's parameter buffer (kload_func.kparam_bytes bytes, zeroed first) from `args` in
 * parameter order, converting each to the parameter's PTX type. Returns 0, or nonzero with a
 * message naming the parameter (count mismatch, a by-value array given a scalar or the wrong number
 * of bytes, a pointer given to a 32-bit parameter, ...). */
int kload_pack_params(const kload_module *k, uint32_t entry, const wl_arg *args, unsigned n_args,
                      uint8_t *buf, GString *err);

/* Index of an entry by name, IR_NONE if absent or not an .entry. */
uint32_t kload_find_entry(const kload_module *k, const char *name);
/* The alignment the loader gives a variable: its .align, else its element's size (at least 1). */
uint64_t kload_sym_align(const ir_sym *s);

G_END_DECLS

#endif /* GPUSC_KERNELS_KLOAD_H */
