/* mem_types.h — the payloads that cross between an SM and the memory system: memory requests from
 * an SM's ldst (or fetch, on an I-cache miss) toward the interconnect and the L2 slices, and their
 * responses. This is the contract between the SM blocks and the memory-side blocks (icnt, l2, dram)
 * of docs/baseline-design.md §2.3.
 *
 * Data is real: a read response carries the line's bytes as the functional memory image holds them
 * when the response is produced; a write request carries the bytes to write and a byte mask. Where
 * the functional image is written is stated by the block that writes it (the SM's ldst writes global
 * stores into the image when it performs them, so the memory side only times writes and keeps L2
 * line state; see docs/baseline-design.md §2.2 ldst).
 */
#ifndef GPUSC_MODELS_MEM_TYPES_H
#define GPUSC_MODELS_MEM_TYPES_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <glib.h>

#include "kernels/run/fmem.h"
#include "sc/gsc.h"

#define MEM_LINE_MAX 128 /* bytes: the largest line any cache of the machine uses */
#define MEM_ATOM_LANES 32 /* lanes of one atomic access (a warp) */

typedef enum {
    MEM_READ = 0,   /* a line (or sector) read: L1D miss, const miss, I-cache miss */
    MEM_WRITE = 1,  /* a write-through / write-evict store: bytes under `mask` */
    MEM_ATOMIC = 2, /* a global atomic performed at the L2 (ldst sends the operation; see ldst) */
    MEM_WRITEBACK = 3 /* an evicted dirty line (L2 -> DRAM) */
} mem_kind;

/* The operation of a MEM_ATOMIC request (added by the memory side; the SM's ldst fills it). One
 * request carries the lanes of one warp atom/red instruction whose elements lie in the request's line.
 * The memory side (the L2 slice owning the line, or mem_fixed) performs them on the functional image
 * with mem_atomic_perform: lanes in increasing lane order, each lane's old value returned in
 * mem_resp_t.atom_old[lane] (red: ignore them). Requests are performed in their arrival order at
 * the slice, so per-address results equal the functional runner's for one warp's lanes. */
typedef struct {
    uint32_t lanes;  /* lanes taking part: bit l = lane l */
    uint32_t flags;  /* the instruction's IR_F_* flags (ir_instr.flags: .ftz/.noftz for f32 add) */
    uint8_t op;      /* ir_atom_op (ir_instr.atom) */
    uint8_t type;    /* ir_type (ir_instr.type) */
    uint8_t esize;   /* element bytes: 4 or 8 */
    uint8_t pad;
    uint8_t offset[MEM_ATOM_LANES];  /* byte offset of lane l's element from the request's addr */
    uint64_t b[MEM_ATOM_LANES];      /* operand b of lane l */
    uint64_t c[MEM_ATOM_LANES];      /* operand c of lane l (cas: the new value) */
} mem_atom_t;

typedef struct {
    uint64_t addr;     /* line-aligned byte address (global address space of kernels/run/kload.h) */
    uint64_t id;       /* request id, unique per source (echoed in the response) */
    uint64_t mask_lo;  /* byte mask of a write, bytes 0..63 of the line */
    uint64_t mask_hi;  /* bytes 64..127 */
    uint32_t bytes;    /* line size of the request (<= MEM_LINE_MAX) */
    uint16_t src;      /* source port: the SM index in the GPU (requests and responses are routed on it) */
    uint16_t warp;     /* requesting warp (statistics, the victim tag array's owner) */
    uint8_t kind;      /* mem_kind */
    uint8_t client;    /* which unit of the SM asked: 0 = ldst (data), 1 = fetch (instructions), 2 = const,
                        * 3 = an interface unit's role the SM plays (MEM_CLIENT_IU; the SPU) */
    uint8_t data[MEM_LINE_MAX]; /* write data (MEM_WRITE / MEM_ATOMIC operands), not traced */
    mem_atom_t atom;   /* MEM_ATOMIC: the operation and per-lane operands, not traced */
} mem_req_t;

typedef struct {
    uint64_t addr;     /* line address of the request */
    uint64_t id;       /* the request's id */
    uint32_t bytes;
    uint16_t dst;      /* destination port: the SM index */
    uint16_t warp;
    uint8_t kind;      /* the request's mem_kind (writes are acknowledged) */
    uint8_t client;
    uint8_t data[MEM_LINE_MAX]; /* read data, not traced */
    uint64_t atom_old[MEM_ATOM_LANES]; /* MEM_ATOMIC: lane l's old value (lanes of the request), not traced */
} mem_resp_t;

#define MEM_CLIENT_IU 3

/* Mark bytes [off, off + n) of a write request's line in its byte mask. */
static inline void mem_req_mask_bytes(mem_req_t *q, unsigned off, unsigned n)
{
    for (unsigned b = off; b < off + n; b++)
        *(b < 64 ? &q->mask_lo : &q->mask_hi) |= 1ull << (b % 64);
}

/* mem_kind and the client by name in the waveform views. */
extern const gsc_enum mem_kind_enum, mem_client_enum;
extern const gsc_type mem_req_type;
extern const gsc_type mem_resp_type;

/* Shared by every block that answers memory requests (l2, mem_fixed), so they agree exactly. */
/* Copy the line [addr, addr+bytes) from the functional image into dst: mapped bytes as the image
 * holds them now, unmapped bytes (past a region's end, local/shared windows) as zero. */
void mem_line_read(fmem *m, uint64_t addr, unsigned bytes, uint8_t *dst);
/* mem_line_read into a whole line buffer (bytes <= MEM_LINE_MAX), its bytes past `bytes` zeroed: what
 * a request or response carries in its data field. */
static inline void mem_line_fill(fmem *m, uint64_t addr, unsigned bytes, uint8_t dst[MEM_LINE_MAX])
{
    g_assert(bytes <= MEM_LINE_MAX);
    mem_line_read(m, addr, bytes, dst);
    memset(dst + bytes, 0, MEM_LINE_MAX - bytes);
}
/* Perform a MEM_ATOMIC request on the image: for each lane of req->atom.lanes in increasing order,
 * old = element at req->addr + offset[l]; new = ir_exec_atom(op, type, flags; old, b[l], c[l]);
 * store new; old_out[l] = old. No lanes (atom.lanes == 0): nothing to do (an SM that executes atomics
 * at issue sends the request for timing only). Returns false (with a message in err) if an element is not in a
 * writable mapped region or the element size is not 4 or 8; lanes before it were performed. */
bool mem_atomic_perform(fmem *m, const mem_req_t *req, uint64_t old_out[MEM_ATOM_LANES], GString *err);

#endif /* GPUSC_MODELS_MEM_TYPES_H */
