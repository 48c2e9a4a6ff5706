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

#include "sc/gsc.h"

#define MEM_LINE_MAX 128 /* bytes: the largest line any cache of the machine uses */

typedef enum {
    MEM_READ = 0,   /* a line (or sector) read: L1D miss, const miss, I-cache miss */
    MEM_WRITE = 1,  /* a write-through / write-evict store: bytes under `mask` */
    MEM_ATOMIC = 2, /* a global atomic performed at the L2 (ldst sends the operation; see ldst) */
    MEM_WRITEBACK = 3 /* an evicted dirty line (L2 -> DRAM) */
} mem_kind;

typedef struct {
    uint64_t addr;     /* line-aligned byte address (global address space of kernels/kload.h) */
    uint64_t id;       /* request id, unique per source (echoed in the response) */
    uint64_t mask_lo;  /* byte mask of a write, bytes 0..63 of the line */
    uint64_t mask_hi;  /* bytes 64..127 */
    uint32_t bytes;    /* line size of the request (<= MEM_LINE_MAX) */
    uint16_t src;      /* source port: the SM index in the GPU (requests and responses are routed on it) */
    uint16_t warp;     /* requesting warp (statistics, the victim tag array's owner) */
    uint8_t kind;      /* mem_kind */
    uint8_t client;    /* which unit of the SM asked: 0 = ldst (data), 1 = fetch (instructions), 2 = const */
    uint8_t data[MEM_LINE_MAX]; /* write data (MEM_WRITE / MEM_ATOMIC operands), not traced */
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
} mem_resp_t;

extern const gsc_type mem_req_type;
extern const gsc_type mem_resp_type;

#endif /* GPUSC_MODELS_MEM_TYPES_H */
