/* ir.h — the kernel IR: a PTX module as typed instructions in functions.
 *
 * The PTX parser (ptx_parse.h) builds it; the CFG and dataflow analyses (cfg.h, dataflow.h), the
 * register allocator (regalloc.h) and other passes read and annotate it; the functional semantics
 * (ir_exec.h) execute single instructions on per-lane values; the functional runner (frun.h) and the
 * timing model execute whole kernels. No SystemC here.
 *
 * Conventions
 *  - One ir_instr per PTX instruction, in source order, in ir_func.instrs (a GArray of ir_instr).
 *    Branch targets are resolved to instruction indices (the index of the first instruction after
 *    the label). Basic blocks are ranges of that array (cfg.h).
 *  - Registers are the PTX virtual registers of a function (%r12, %fd3, %p1, ...), numbered densely
 *    per function (ir_func.regs). Registers declared with the vector form `.reg .b32 %r<32>` give
 *    %r0..%r31.
 *  - Values travel as raw bits in uint64_t: an integer or bXX value in its low bits (zero-extended),
 *    an f32 as its IEEE bits in the low 32 bits, an f64 as its bits, a predicate as 0 or 1.
 *  - Source locations (line, col) are kept on every instruction for messages.
 */
#ifndef GPUSC_KERNELS_IR_H
#define GPUSC_KERNELS_IR_H

#include <glib.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

G_BEGIN_DECLS

#define IR_WARP_SIZE 32
#define IR_MAX_DST 2 /* setp %p|%q, shfl %r|%p */
#define IR_MAX_SRC 5 /* bfi a,b,c,d; shfl.sync a,b,c,mask; vote ... */
#define IR_NONE UINT32_MAX

/* ---- types ----------------------------------------------------------------------------------- */
typedef enum {
    IR_T_NONE = 0,
    IR_T_PRED,
    IR_T_B8, IR_T_B16, IR_T_B32, IR_T_B64, IR_T_B128,
    IR_T_U8, IR_T_U16, IR_T_U32, IR_T_U64,
    IR_T_S8, IR_T_S16, IR_T_S32, IR_T_S64,
    IR_T_F16, IR_T_F32, IR_T_F64,
    IR_T_COUNT
} ir_type;

unsigned ir_type_bits(ir_type t);     /* PRED: 1 */
bool ir_type_is_float(ir_type t);
bool ir_type_is_signed(ir_type t);    /* sXX */
const char *ir_type_name(ir_type t);  /* "s32" (no dot) */

/* ---- state spaces ---------------------------------------------------------------------------- */
typedef enum {
    IR_SPACE_NONE = 0, /* generic addressing */
    IR_SPACE_REG,
    IR_SPACE_PARAM, /* kernel parameters (entry) or call parameters (func / callseq) */
    IR_SPACE_GLOBAL,
    IR_SPACE_SHARED,
    IR_SPACE_LOCAL,
    IR_SPACE_CONST,
    IR_SPACE_COUNT
} ir_space;
const char *ir_space_name(ir_space s); /* "global"; "" for NONE */

/* ---- opcodes ----------------------------------------------------------------------------------- */
#define IR_OPCODES(X)                                                                                 \
    X(MOV, "mov") X(LD, "ld") X(LDU, "ldu") X(ST, "st") X(CVTA, "cvta") X(CVT, "cvt")                 \
    X(ADD, "add") X(SUB, "sub") X(MUL, "mul") X(MAD, "mad") X(MUL24, "mul24") X(MAD24, "mad24")       \
    X(ADDC, "addc") X(SUBC, "subc") X(MADC, "madc") X(SAD, "sad")                                     \
    X(DIV, "div") X(REM, "rem") X(ABS, "abs") X(NEG, "neg") X(MIN, "min") X(MAX, "max")               \
    X(AND, "and") X(OR, "or") X(XOR, "xor") X(NOT, "not") X(CNOT, "cnot")                             \
    X(SHL, "shl") X(SHR, "shr") X(SHF, "shf")                                                         \
    X(SETP, "setp") X(SET, "set") X(SELP, "selp") X(SLCT, "slct")                                     \
    X(BRA, "bra") X(CALL, "call") X(RET, "ret") X(EXIT, "exit")                                       \
    X(BAR, "bar") X(BARRIER, "barrier") X(MEMBAR, "membar") X(FENCE, "fence")                         \
    X(ATOM, "atom") X(RED, "red")                                                                     \
    X(FMA, "fma") X(RCP, "rcp") X(SQRT, "sqrt") X(RSQRT, "rsqrt") X(EX2, "ex2") X(LG2, "lg2")         \
    X(SIN, "sin") X(COS, "cos") X(TANH, "tanh") X(COPYSIGN, "copysign") X(TESTP, "testp")             \
    X(POPC, "popc") X(CLZ, "clz") X(BFIND, "bfind") X(BREV, "brev") X(BFE, "bfe") X(BFI, "bfi")       \
    X(PRMT, "prmt") X(SHFL, "shfl") X(VOTE, "vote") X(ACTIVEMASK, "activemask")                       \
    X(PREFETCH, "prefetch") X(NANOSLEEP, "nanosleep") X(TRAP, "trap") X(BRKPT, "brkpt")           \
    X(BLOCKSYNC, "bar.blocksync") /* the SPU's inter-SM barrier (spu_isa.h) */                       \
    X(RELSSP, "relssp") /* release the CTA's shared scratchpad region (scratchpad sharing, docs/sharing.md) */

typedef enum {
#define IR_OP_ENUM(e, s) IR_OP_##e,
    IR_OPCODES(IR_OP_ENUM)
#undef IR_OP_ENUM
    IR_OP_COUNT
} ir_opcode;
const char *ir_op_name(ir_opcode op);

/* Which execution resource an instruction uses (the timing model maps classes to units). */
typedef enum {
    IR_CLASS_ALU,  /* integer/f32 simple ops: SP pipe */
    IR_CLASS_INT,  /* integer multiply/divide-class ops (mul.wide, mul.hi, div/rem int, popc, ...) */
    IR_CLASS_SFU,  /* rcp, sqrt, rsqrt, ex2, lg2, sin, cos, tanh (f32) */
    IR_CLASS_DP,   /* anything on f64 */
    IR_CLASS_MEM,  /* ld, ldu, st, atom, red, prefetch */
    IR_CLASS_CTRL, /* bra, call, ret, exit */
    IR_CLASS_SYNC, /* bar, barrier, membar, fence */
    IR_CLASS_WARP, /* shfl, vote, activemask (cross-lane) */
    IR_CLASS_COUNT
} ir_class;
const char *ir_class_name(ir_class c);

/* ---- modifiers --------------------------------------------------------------------------------- */
typedef enum {
    IR_RND_NONE = 0,
    IR_RND_RN, IR_RND_RZ, IR_RND_RM, IR_RND_RP,     /* float rounding */
    IR_RND_RNI, IR_RND_RZI, IR_RND_RMI, IR_RND_RPI  /* round to integral value */
} ir_round;

typedef enum {
    IR_CMP_NONE = 0,
    IR_CMP_EQ, IR_CMP_NE, IR_CMP_LT, IR_CMP_LE, IR_CMP_GT, IR_CMP_GE,
    IR_CMP_LO, IR_CMP_LS, IR_CMP_HI, IR_CMP_HS,                         /* unsigned */
    IR_CMP_EQU, IR_CMP_NEU, IR_CMP_LTU, IR_CMP_LEU, IR_CMP_GTU, IR_CMP_GEU, /* float unordered */
    IR_CMP_NUM, IR_CMP_NAN
} ir_cmp;

typedef enum { IR_BOOL_NONE = 0, IR_BOOL_AND, IR_BOOL_OR, IR_BOOL_XOR } ir_boolop;

typedef enum {
    IR_ATOM_NONE = 0,
    IR_ATOM_ADD, IR_ATOM_MIN, IR_ATOM_MAX, IR_ATOM_INC, IR_ATOM_DEC,
    IR_ATOM_AND, IR_ATOM_OR, IR_ATOM_XOR, IR_ATOM_EXCH, IR_ATOM_CAS
} ir_atom_op;

/* shfl modes, vote modes, bar kinds, testp kinds, membar/fence scopes share `sub`. */
typedef enum { IR_SHFL_UP = 1, IR_SHFL_DOWN, IR_SHFL_BFLY, IR_SHFL_IDX } ir_shfl_mode;
typedef enum { IR_VOTE_ALL = 1, IR_VOTE_ANY, IR_VOTE_UNI, IR_VOTE_BALLOT } ir_vote_mode;
typedef enum { IR_BAR_SYNC = 1, IR_BAR_ARRIVE, IR_BAR_RED_POPC, IR_BAR_RED_AND, IR_BAR_RED_OR,
               IR_BAR_WARP_SYNC /* bar.warp.sync membermask (__syncwarp) */ } ir_bar_kind;
typedef enum {
    IR_TESTP_FINITE = 1, IR_TESTP_INFINITE, IR_TESTP_NUMBER, IR_TESTP_NOTANUMBER,
    IR_TESTP_NORMAL, IR_TESTP_SUBNORMAL
} ir_testp_kind;
typedef enum { IR_SCOPE_CTA = 1, IR_SCOPE_GPU, IR_SCOPE_SYS } ir_scope;
typedef enum { IR_SHF_L_CLAMP = 1, IR_SHF_L_WRAP, IR_SHF_R_CLAMP, IR_SHF_R_WRAP } ir_shf_mode;
typedef enum { IR_PRMT_DEFAULT = 0, IR_PRMT_F4E, IR_PRMT_B4E, IR_PRMT_RC8, IR_PRMT_ECL, IR_PRMT_ECR, IR_PRMT_RC16 } ir_prmt_mode;

/* Flags (ir_instr.flags). */
enum {
    IR_F_FTZ = 1u << 0,
    IR_F_SAT = 1u << 1,
    IR_F_APPROX = 1u << 2,
    IR_F_FULL = 1u << 3,
    IR_F_UNI = 1u << 4,    /* bra.uni / call.uni */
    IR_F_CC = 1u << 5,     /* add.cc / sub.cc / mad.cc: writes the carry flag */
    IR_F_HI = 1u << 6,     /* mul.hi / mad.hi */
    IR_F_LO = 1u << 7,     /* mul.lo / mad.lo */
    IR_F_WIDE = 1u << 8,   /* mul.wide / mad.wide */
    IR_F_NC = 1u << 9,     /* ld.global.nc */
    IR_F_VOLATILE = 1u << 10,
    IR_F_TO = 1u << 11,    /* cvta.to.<space> (generic -> space); without it: space -> generic */
    IR_F_SYNC = 1u << 12,  /* shfl.sync / vote.sync / barrier.sync / bar.sync */
    IR_F_ALIGNED = 1u << 13,
    IR_F_SHIFTAMT = 1u << 14, /* bfind.shiftamt */
    IR_F_RELAXED = 1u << 15,
    IR_F_ACQUIRE = 1u << 16,
    IR_F_RELEASE = 1u << 17,
    IR_F_ACQ_REL = 1u << 18,
    IR_F_NOFTZ = 1u << 19,
    IR_F_SC = 1u << 20,    /* fence.sc */
    IR_F_NAN = 1u << 21,   /* min.NaN / max.NaN */
    IR_F_ALL_MASK = 0xffffffffu
};

/* ---- operands ----------------------------------------------------------------------------------- */
typedef enum {
    IR_OPND_NONE = 0,
    IR_OPND_REG,   /* a virtual register: reg */
    IR_OPND_IMM,   /* an immediate: imm holds raw bits in the operand's type (0f3F800000 -> bits) */
    IR_OPND_SREG,  /* a special register: sreg (+ component for vector ones: %tid.x -> comp 0) */
    IR_OPND_ADDR,  /* the address of a symbol (+ offset): `mov.u32 %r9, smem;` or `[sym+8]` base */
    IR_OPND_MEM,   /* a memory reference [base + offset]: base is a REG, an ADDR (symbol) or none */
    IR_OPND_LABEL, /* a branch target: target = instruction index */
    IR_OPND_VEC,   /* {a, b, c, d}: vec_regs[0..vec_n-1] (IR_NONE = sink `_`) */
    IR_OPND_FUNC,  /* a called function: func = index in module->funcs */
    IR_OPND_SYM    /* a symbol by itself (call parameter names in a call's lists) */
} ir_opnd_kind;

typedef enum {
    IR_SREG_TID, IR_SREG_NTID, IR_SREG_CTAID, IR_SREG_NCTAID, /* .x .y .z in comp */
    IR_SREG_LANEID, IR_SREG_WARPID, IR_SREG_NWARPID, IR_SREG_SMID, IR_SREG_NSMID, IR_SREG_GRIDID,
    IR_SREG_CLOCK, IR_SREG_CLOCK64, IR_SREG_GLOBALTIMER,
    IR_SREG_LANEMASK_EQ, IR_SREG_LANEMASK_LE, IR_SREG_LANEMASK_LT, IR_SREG_LANEMASK_GE, IR_SREG_LANEMASK_GT,
    IR_SREG_DYN_SMEM_SIZE, IR_SREG_TOTAL_SMEM_SIZE,
    /* the SPU's (spu_isa.h; SPU spec §8 with the model's names) */
    IR_SREG_REGPASSX, IR_SREG_REGPASSY, IR_SREG_REGCPASSX, IR_SREG_REGCPASSY, IR_SREG_REGSPILLNB,
    IR_SREG_REGCSPILLNB, IR_SREG_REGVIU, IR_SREG_REGIUDIR, IR_SREG_REGIUID, IR_SREG_REGLAST,
    IR_SREG_COUNT
} ir_sreg;
const char *ir_sreg_name(ir_sreg s); /* "tid" (no %) */

typedef struct {
    uint8_t kind;  /* ir_opnd_kind */
    uint8_t neg;   /* `!%p` (predicate negation in a source) */
    uint8_t comp;  /* component for SREG (0=x,1=y,2=z); vec_n for VEC */
    uint8_t pad;
    uint32_t annot; /* per-operand annotation bits (annot.h) */
    union {
        uint32_t reg;    /* REG */
        uint64_t imm;    /* IMM */
        uint32_t sreg;   /* SREG (ir_sreg) */
        uint32_t target; /* LABEL: instruction index */
        uint32_t func;   /* FUNC */
        uint32_t sym;    /* SYM */
        struct {
            uint32_t base_reg; /* MEM: base register or IR_NONE */
            uint32_t base_sym; /* MEM/ADDR: symbol index (module->syms) or IR_NONE */
            int64_t offset;    /* MEM/ADDR: byte offset */
        } mem;
        uint32_t vec_regs[4]; /* VEC */
    } u;
} ir_operand;

/* ---- instructions ------------------------------------------------------------------------------- */
typedef struct {
    uint16_t op;       /* ir_opcode */
    uint8_t type;      /* ir_type: the instruction type (add.s32 -> S32; cvt.f32.s32 -> F32 = dst) */
    uint8_t type2;     /* ir_type: second type (cvt source type; setp/set comparison type is `type`,
                          set's dst type is type2; slct's c type; prmt none) */
    uint8_t rnd;       /* ir_round */
    uint8_t cmp;       /* ir_cmp (setp, set, slct has none) */
    uint8_t boolop;    /* ir_boolop (setp/set combining form) */
    uint8_t space;     /* ir_space (ld, st, atom, red, cvta, prefetch) */
    uint8_t atom;      /* ir_atom_op (atom, red) */
    uint8_t vec;       /* 1, 2 or 4 (ld/st .v2/.v4) */
    uint8_t sub;       /* shfl/vote/bar/testp/shf/prmt mode, membar/fence scope */
    uint8_t n_dst, n_src;
    uint8_t guard_neg; /* @!%p */
    uint8_t cb;        /* ld/st: an SPU communication-buffer access (spu_isa.h SPU_CB | direction) */
    uint32_t guard;    /* guard predicate register, or IR_NONE */
    uint32_t flags;    /* IR_F_* */
    ir_operand dst[IR_MAX_DST];
    ir_operand src[IR_MAX_SRC];
    /* call: the return-parameter symbols and argument symbols (indices in module->syms; these are
     * .param variables declared in the call sequence's scope) */
    uint32_t call_ret[4], call_args[16];
    uint8_t call_n_ret, call_n_args;
    uint32_t line, col; /* source position of the opcode */
    uint64_t annot;     /* per-instruction annotation bits (annot.h) */
    uint32_t block;     /* basic block index (cfg.h), IR_NONE before cfg_build */
    uint32_t reconv;    /* for a potentially divergent bra: instruction index of the immediate
                           post-dominator (reconvergence point; IR_NONE = function exit) */
} ir_instr;

/* What a memory instruction's access is, for messages: "atomic", "reduction", "store" or "load". */
static inline const char *ir_access_kind(const ir_instr *in, bool write)
{
    return in->op == IR_OP_ATOM ? "atomic" : in->op == IR_OP_RED ? "reduction" : write ? "store" : "load";
}

/* ---- registers, symbols, functions, module ------------------------------------------------------- */
typedef struct {
    char *name;       /* "%r12" */
    uint8_t type;     /* ir_type as declared (.b32, .f32, .pred, ...) */
    uint32_t phys;    /* physical register after allocation (regalloc.h), IR_NONE before */
    uint32_t scope;   /* `{ }` scope that declared it (index in ir_func.scopes; 0 = function body).
                         Names are unique per scope only: two call sequences may both declare
                         `temp_param_reg`. */
} ir_reg;

/* An address in a .global/.const initialiser: element `elem` of the variable holds the address of
 * .global/.const symbol `sym` plus `addend`, written `generic(sym)+addend` (generic address) or
 * `sym+addend` (address in sym's own space); with a mask (`0xFF00(generic(sym)+4)`, on .b8/.u8/.s8
 * elements) only one byte of that address. The parser leaves those elements zero in `init`; the
 * loader (kload.h) writes the addresses when it lays the data out. */
typedef struct {
    uint64_t elem;     /* element index in the variable */
    uint32_t sym;      /* module symbol whose address it is */
    bool generic;      /* generic(sym) rather than sym */
    uint8_t mask_byte; /* 0: the whole address; k + 1: byte k of it (mask 0xFF << 8k), shifted down */
    int64_t addend;    /* bytes added to the address (before the mask) */
} ir_init_addr;

typedef struct {
    char *name;
    uint8_t space;     /* ir_space */
    uint8_t type;      /* element type as declared (.b8, .u32, .f32, ...) */
    uint32_t align;    /* bytes */
    uint64_t size;     /* bytes (0 for an unsized .extern .shared array) */
    bool is_extern;    /* .extern (dynamic shared memory) */
    bool is_visible;
    bool smem_late;    /* .shared of a kernel: the loader places it after the kernel's other .shared
                          variables (spvar_layout.h: the shared region of scratchpad sharing) */
    uint8_t *init;      /* initial bytes (size bytes) or NULL (zero) */
    GArray *init_addrs; /* ir_init_addr in element order, or NULL: addresses in the initialiser */
    uint32_t func;      /* owning function, or IR_NONE for module scope */
    uint32_t scope;     /* nesting id of the `{ }` scope that declared it (0 = function body) */
    uint64_t offset;    /* assigned by the loader: offset in its space's segment */
    uint32_t line;
} ir_sym;

typedef struct {
    char *name;        /* "k_param_3" */
    uint8_t type;      /* ir_type (.b8 for by-value structs) */
    uint32_t align;
    uint64_t size;     /* bytes (array size * element size for .b8 arrays) */
    uint64_t offset;   /* offset in the parameter buffer (aligned) */
    uint32_t sym;      /* its symbol in module->syms (space PARAM) */
} ir_param;

typedef struct {
    uint32_t first, last; /* instruction index range [first, last] */
    /* Filled by cfg_build (cfg.h): */
    GArray *succ, *pred;  /* uint32_t block indices */
} ir_block;

typedef struct ir_func {
    char *name;
    bool is_entry;       /* .entry (kernel) or .func */
    bool is_visible;
    GArray *params;      /* ir_param: kernel/func parameters, in order */
    GArray *rets;        /* ir_param: .func return parameters */
    GArray *regs;        /* ir_reg */
    GArray *instrs;      /* ir_instr */
    GArray *blocks;      /* ir_block, filled by cfg_build */
    uint64_t param_bytes;       /* size of the parameter buffer */
    uint64_t local_bytes;       /* .local bytes per thread (frame) declared in the function */
    uint64_t shared_bytes;      /* static .shared bytes declared in the function */
    uint32_t line;
    void *analysis;      /* owned by cfg.h: dominators, loops, ... (opaque here) */
    uint32_t n_phys_regs;  /* after regalloc: 32-bit registers per thread (IR_NONE before) */
    uint32_t n_phys_preds; /* after regalloc: predicate registers per thread */
    /* Added by the front end: */
    GArray *scopes;      /* ir_lexscope: [0] = the function body, then each `{ }` in opening order */
    bool is_defined;     /* has a body (false: a prototype / .extern .func only) */
    bool is_extern;      /* declared .extern */
    uint32_t maxntid[3], reqntid[3]; /* performance directives, 0 = not given */
    uint32_t minnctapersm, maxnreg;  /* 0 = not given */
    GDestroyNotify analysis_free;    /* called on `analysis` by ir_module_free if both are set */
} ir_func;

/* A `{ }` scope of a function body. Instructions [first, end) lie inside it (end = first when empty).
 * Scopes nest: parent is the enclosing scope (IR_NONE for scope 0, the body). */
typedef struct {
    uint32_t parent;
    uint32_t first, end;
    uint32_t line;
} ir_lexscope;

typedef struct {
    char *filename;
    char *version;       /* ".version 9.0" -> "9.0" */
    char *target;        /* "sm_75" */
    unsigned address_size;
    GPtrArray *funcs;    /* ir_func* */
    GArray *syms;        /* ir_sym: every symbol (module scope and function scope) */
    uint64_t shared_static_bytes; /* module-scope .shared */
    uint64_t const_bytes;
    uint64_t global_bytes;
} ir_module;

ir_module *ir_module_new(const char *filename);
void ir_module_free(ir_module *m);
ir_func *ir_module_find_func(const ir_module *m, const char *name); /* NULL if absent */
uint32_t ir_module_find_sym(const ir_module *m, uint32_t func, const char *name); /* IR_NONE if absent */

static inline ir_instr *ir_func_instr(const ir_func *f, uint32_t i)
{
    return &g_array_index(f->instrs, ir_instr, i);
}
static inline uint32_t ir_func_n_instrs(const ir_func *f)
{
    return f->instrs->len;
}

/* First register of `f` named `name` (any scope), IR_NONE if absent. */
uint32_t ir_func_find_reg(const ir_func *f, const char *name);
/* Index of a function in m->funcs, IR_NONE if absent. */
uint32_t ir_module_func_index(const ir_module *m, const char *name);
/* "s32" -> IR_T_S32; IR_T_NONE if not a type name (no dot). */
ir_type ir_type_from_name(const char *name);

/* Static facts about an instruction. */
ir_class ir_instr_class(const ir_instr *in);
bool ir_instr_is_branch(const ir_instr *in);     /* bra */
bool ir_instr_ends_block(const ir_instr *in);    /* bra, ret, exit, (call does not) */
/* Registers read / written (guard included in reads; VEC and MEM bases expanded). Returns the count
 * written into out (at most max). */
unsigned ir_instr_uses(const ir_instr *in, uint32_t *out, unsigned max);
unsigned ir_instr_defs(const ir_instr *in, uint32_t *out, unsigned max);

/* Printing, as PTX-like text (a disassembler). */
void ir_print_operand(GString *s, const ir_module *m, const ir_func *f, const ir_instr *in, const ir_operand *o);
void ir_print_instr(GString *s, const ir_module *m, const ir_func *f, const ir_instr *in);
void ir_print_func(GString *s, const ir_module *m, const ir_func *f);
/* The whole module (directives, module-scope data, functions); the output parses back to the same IR
 * (labels are renamed `$L__<index>`, register declarations are compacted to `%r<N>` runs). */
void ir_print_module(GString *s, const ir_module *m);

/* The type of a source / destination operand, from the opcode and its types: cvt's source is type2,
 * set's destination is type2, setp/testp destinations and selp's third source are PRED, mul.wide's
 * destination (and mad.wide's third source) are twice as wide, shift amounts and bit positions are
 * U32, popc/clz/bfind give U32, vote gives PRED (B32 for ballot), shfl's second destination is PRED.
 * Memory operands give IR_T_NONE. */
ir_type ir_instr_src_type(const ir_instr *in, unsigned i);
ir_type ir_instr_dst_type(const ir_instr *in, unsigned i);

/* Immediates (IR_OPND_IMM.imm), as the parser stores them:
 *  - integer literals (decimal, 0x hex, 0 octal, 0b binary, optional U suffix, optional leading '-')
 *    keep their full 64-bit two's-complement value (-1 -> 0xffffffffffffffff, 0xffffffff ->
 *    0x00000000ffffffff); semantics truncate to the operand type.
 *  - in an operand whose type (ir_instr_src_type) is F32: the f32 bits in the low 32 bits. 0fXXXXXXXX
 *    is taken as is, 0dXXXXXXXXXXXXXXXX is rounded to f32, an integer or decimal literal is converted
 *    to the nearest f32 (as C does).
 *  - in an F64 operand: the f64 bits. 0f is widened exactly, integer and decimal literals converted.
 *  - in a non-float operand, 0f / 0d literals are raw bits (mov.b32 %r1, 0f3F800000 -> 0x3f800000);
 *    a decimal floating-point literal there is an error.
 *
 * Labels: a branch target is the index of the first instruction after the label. A label at the end
 * of a function resolves to ir_func_n_instrs(f): a runner treats reaching that index like `ret`
 * (falling off the end of the function). */

G_END_DECLS

#endif /* GPUSC_KERNELS_IR_H */
