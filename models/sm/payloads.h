/* payloads.h — the channel types inside an SM and between an SM and cta_dispatch
 * (docs/baseline-design.md §2.1; docs/sm.md says which block puts and gets each one).
 *
 * Every struct has a field table (payloads.c), so a latch or FIFO carrying it traces field by field.
 * Bulk per-lane data (addresses, values) is GSC_OPAQUE: carried, not traced. The memory payloads
 * (mem_req_t / mem_resp_t) are in models/mem_types.h.
 *
 * Functional execution point (see docs/sm.md "where data is read and written"): as GPGPU-Sim does,
 * an instruction is executed on the warp's architectural state when `issue` issues it (global loads
 * complete when their data returns, global atomics at the memory side); the blocks after issue time it. The
 * payloads therefore carry what the timing blocks need to be real: the registers read and written (bank
 * conflicts, scoreboard release), the per-lane addresses of a memory instruction (coalescing, L1 tags,
 * scratchpad banks), masks and classes.
 */
#ifndef GPUSC_MODELS_SM_PAYLOADS_H
#define GPUSC_MODELS_SM_PAYLOADS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "kernels/frontend/ir.h"
#include "sc/gsc.h"

#define SM_MAX_WARPS       256     /* warp slots per SM (GTX480 48; Table 3.2 96; 4-thread warps 256) */
#define SM_MAX_CTAS        48      /* CTA slots per SM */
#define SM_NO_REG          0xffffu /* an unused register slot in src[]/dst[] */
#define SM_MAX_OPERANDS    8       /* registers read by one instruction (vector stores read 4 + address) */
#define SM_MAX_BANK_READS  16      /* 32-bit physical registers read (64-bit values are pairs) */
#define SM_MAX_BANK_WRITES 8       /* 32-bit physical registers written */

/* A thread block placed on an SM: cta_dispatch -> the SM (fetch and issue). */
typedef struct {
    uint32_t kernel;     /* launch number (statistics, %gridid) */
    uint32_t cta;        /* linear CTA id in the grid */
    uint32_t ctaid[3];   /* %ctaid */
    uint16_t slot;       /* CTA slot in the SM (0 .. max_ctas-1) */
    uint16_t first_warp; /* first warp slot; the CTA's warps are first_warp .. first_warp+warps-1 */
    uint16_t warps;      /* ceil(threads / 32) */
    uint16_t sm;         /* the SM it goes to */
    uint32_t threads;    /* blockDim.x*y*z */
    uint32_t smem_bytes; /* scratchpad bytes (static + dynamic) */
    uint32_t regs;       /* registers allocated (occupancy rounding) */
    /* A CTA outside the grid (cta_dispatch_extra: the SPU's interface-unit role run by an SM): 1 + the
     * function it runs and its own packed parameters; 0: the launch's entry and parameters. */
    uint32_t own_entry;
    uint32_t own_kparam_bytes;
    const uint8_t *own_kparam;
    const ir_module *own_mod; /* the module as its messages name it (its source file), NULL: as is */
} cta_launch_t;

/* A finished thread block: the SM -> cta_dispatch. */
typedef struct {
    uint32_t cta;  /* linear CTA id */
    uint16_t slot; /* CTA slot freed */
    uint16_t sm;
    uint16_t warps; /* warp slots freed */
    uint32_t regs;  /* registers freed */
    uint32_t smem_bytes;
    uint8_t failed; /* 1: the CTA ended on a run-time error (the SM reported it) */
} cta_done_t;

/* One decoded instruction for a warp's I-buffer: fetch/decode -> issue. 120 bytes: with its put
 * cycle, a FIFO's ring slot is two cache lines (tests/sm/test_payload_layout.c). */
typedef struct {
    uint16_t warp;
    uint16_t epoch; /* the warp's fetch epoch: entries of an older epoch are stale (redirect) */
    uint32_t func;  /* function index in the module */
    uint32_t pc;    /* instruction index in the function */
    uint8_t cls;    /* ir_class */
    uint8_t op;     /* ir_opcode */
    uint8_t ctrl;   /* 1: a control instruction (fetch stops behind it until redirected) */
    uint8_t pflags; /* memory instructions: the policy_warp.flags bits (POLICY_F_MEM, _LOAD, _STORE) */
    uint16_t n_src, n_dst;
    uint8_t n_bank_src, n_bank_dst;
    uint16_t src[SM_MAX_OPERANDS]; /* register numbers read (per-thread register slots) */
    uint16_t dst[IR_MAX_DST + 2];  /* register numbers written (vector loads write up to 4) */
    uint64_t annot;                /* the instruction's compiler annotation bits (annot.h), decoded here */
    /* For the pipeline log (issue's `pipeview`): the cycle fetch read it, the cycle issue put it in
     * the warp's I-buffer. Not traced. */
    uint64_t fetch_cycle, decode_cycle;
    /* The 32-bit physical registers (regalloc.h) the register banks see: a 64-bit value is its
     * aligned pair, predicates are in their own file and take no bank access. */
    uint16_t bank_dst[SM_MAX_BANK_WRITES];
    uint16_t bank_src[SM_MAX_BANK_READS];
} decoded_t;
/* A decoded instruction on whole cache lines of its own (128 bytes, in 64-byte aligned storage:
 * g_aligned_alloc): a store or a copy of it touches two lines (the I-buffer's entries, decode's cache). */
typedef struct {
    _Alignas(64) decoded_t d;
} decoded_line_t;

/* Fetch redirect: issue -> fetch. The warp continues at (func, pc) with a new epoch and a full set
 * of I-buffer credits; done = 1: the warp exited, stop fetching for it. */
typedef struct {
    uint16_t warp;
    uint16_t epoch;
    uint32_t func;
    uint32_t pc;
    uint8_t done;
} redirect_t;

/* An I-buffer entry consumed: issue -> fetch (flow control). */
typedef struct {
    uint16_t warp;
    uint16_t epoch; /* credits of an older epoch are ignored */
    uint16_t count;
} credit_t;

/* An issued instruction: issue -> exec (ALU/INT/SFU/DP/CTRL/WARP classes) or -> ldst (MEM).
 * The layout follows what a FIFO copies (issued_type's `used`, issued_bytes): a non-memory
 * instruction's header ends with its bank_src[0 .. n_bank_src); a memory instruction adds the rest of
 * bank_src, the atomic and store fields, its lane spaces and addresses, a store's or atomic's operands. */
typedef struct {
    uint64_t seq; /* issue sequence number in the SM */
    uint64_t issue_cycle;
    uint64_t annot; /* the instruction's compiler annotation bits (annot.h), as decoded: every block
                       after issue sees them (power states, release flags, reuse bits ...) */
    uint16_t warp;
    uint16_t sched; /* the scheduler (sub-core) that issued it */
    uint32_t pc;
    uint32_t func;
    uint32_t mask;        /* lanes that executed (active and guard true) */
    uint8_t cls;          /* ir_class */
    uint8_t op;           /* ir_opcode */
    uint8_t space;        /* MEM: ir_space resolved (generic resolved per lane; see addr_space) */
    uint8_t kind;         /* MEM: 0 load, 1 store, 2 atomic, 3 reduction */
    uint8_t bytes;        /* MEM: bytes per lane */
    uint8_t long_op;      /* the destinations were reserved as long-latency */
    uint8_t report_reads; /* 1: the sources are reserved too (scoreboard.source_reservations): the unit
                             reports when it has read them (a release_t with `reads` set) */
    uint8_t n_bank_src, n_bank_dst;
    uint16_t n_src, n_dst;
    uint16_t src[SM_MAX_OPERANDS];
    uint16_t dst[IR_MAX_DST + 2];
    uint16_t bank_dst[SM_MAX_BANK_WRITES]; /* physical registers written (as decoded_t) */
    uint16_t bank_src[SM_MAX_BANK_READS];  /* physical registers read: last of the header, copied up
                                              to n_bank_src for a non-memory instruction */
    /* What follows is used by memory instructions only. */
    /* MEM atom/red whose global lanes are performed at the memory side (warp_exec.h) */
    uint32_t atom_lanes; /* lanes to perform below (0: none) */
    uint32_t atom_flags;
    uint8_t atom_op, atom_type;
    uint16_t atom_dst; /* register slot for the old values, SM_NO_REG for red */
    uint32_t store_lanes; /* MEM st: global lanes whose bytes (store_data) the L1 writes when it performs
                             the store; the other lanes were written at issue */
    uint64_t atom_vmask;
    uint8_t lane_space[IR_WARP_SIZE]; /* MEM: each lane's resolved space (generic addressing) */
    uint64_t addr[IR_WARP_SIZE];      /* MEM: each lane's address in its space */
    union {
        struct {
            uint64_t atom_b[IR_WARP_SIZE], atom_c[IR_WARP_SIZE]; /* operands of atom_lanes */
        };
        uint8_t store_data[IR_WARP_SIZE][16]; /* store_lanes' bytes (bytes per lane: `bytes`) */
    };
} issued_t;

/* A result leaving a unit: exec/ldst -> issue (scoreboard release of the destinations).
 * With source reservations (issued_t.report_reads), a unit also sends, for each instruction and
 * before its completion, a read report: `reads` = 1, the source register slots src[0..n_src) it has
 * now read (exec: the cycle the collector's last bank read is granted; ldst: the cycle it takes the
 * instruction); issue releases their read reservations. A read report releases no destination and
 * does not complete the instruction. */
typedef struct {
    uint64_t seq;
    uint16_t warp;
    uint16_t n_dst;
    uint16_t dst[IR_MAX_DST + 2];
    uint8_t reads; /* 1: a read report (src[]), not a completion */
    uint16_t n_src;
    uint16_t src[SM_MAX_OPERANDS];
    uint8_t long_op;
    uint8_t unit; /* sm_unit that produced it */
    uint8_t n_bank_dst;
    uint16_t bank_dst[SM_MAX_BANK_WRITES]; /* physical registers written back (exec's bank writes) */
    /* An atomic performed at the memory side: its old values for register slot val_reg. */
    uint8_t atomic;   /* 1: the instruction had lanes performed below */
    uint16_t val_reg; /* SM_NO_REG: no values */
    uint32_t val_mask;
    uint32_t func; /* the instruction's function (issued_t.func): the frame of bank_dst's registers */
    uint64_t val_vmask;
    /* the cycle its unit accepted it, operands read (the pipeline log; 0: none) */
    uint64_t exec_cycle;
    /* Last, and carried only when val_mask is set (release_bytes): a FIFO, a ring or a copy moves
     * the header alone otherwise, and vals holds no meaning. */
    uint64_t vals[IR_WARP_SIZE];
} release_t;

/* The execution units of an SM (one pipe each, per sub-core in subcore_sm). */
typedef enum { SM_UNIT_SP, SM_UNIT_SFU, SM_UNIT_INT, SM_UNIT_DP, SM_UNIT_LDST, SM_UNIT_COUNT } sm_unit;

extern const gsc_type cta_launch_type;
extern const gsc_type cta_done_type;
extern const gsc_type decoded_type;
extern const gsc_type redirect_type;
extern const gsc_type credit_type;
extern const gsc_type issued_type;
extern const gsc_type release_type;

/* The bytes of *r that carry meaning: the header, and the values when there are any. */
static inline size_t release_bytes(const release_t *r)
{
    return r->val_mask ? sizeof *r : offsetof(release_t, vals);
}
/* A release with every header field zero (vals are not touched: release_bytes leaves them out). */
static inline void release_clear(release_t *r)
{
    memset(r, 0, offsetof(release_t, vals));
}

/* The bytes of an issued instruction that carry meaning (issued_type's `used`): a non-memory
 * instruction's header up to its last source bank register; a load's whole header, lane spaces and
 * addresses; a store's or an atomic's operands too. */
static inline size_t issued_bytes(const issued_t *it)
{
    if (it->cls != IR_CLASS_MEM)
        return offsetof(issued_t, bank_src) + it->n_bank_src * sizeof it->bank_src[0];
    return it->kind == 0 ? offsetof(issued_t, atom_b) : sizeof *it;
}

/* Fills *r with a read report for `it` from `unit` (release_t.reads = 1, its source slots). */
void release_init_reads(release_t *r, const issued_t *it, sm_unit unit);

/* The unit an instruction class runs on. */
sm_unit sm_unit_of_class(ir_class c);
const char *sm_unit_name(sm_unit u);
/* The enumerations of the payloads' fields, shown by name in the waveform views. */
extern const gsc_enum sm_op_enum, sm_class_enum, sm_space_enum, sm_unit_enum, sm_access_enum;

#endif /* GPUSC_MODELS_SM_PAYLOADS_H */
