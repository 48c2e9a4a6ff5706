/* ibuffer.h — the `ibuffer` block: each warp's instruction buffer, the decoded instructions waiting
 * to issue (GPGPU-Sim's 2-entry I-buffer per warp). Spec: docs/baseline-design.md §2.2 I-buffer;
 * CCWS/DAWS/VWS spec §2.1.
 *
 * A passive block with one client, the issue block, which puts what fetch/decode delivers, reads a
 * warp's head when it decides, removes it when it issues and empties a warp's buffer on a redirect,
 * all through the exported `ibuffer` interface inside its own activation. fetch's credits are these
 * entries (fetch.ibuffer_entries must equal ibuffer.entries; the topology checks it). Traced: the
 * warps whose buffer holds an instruction (a mask by warp slot).
 */
#ifndef GPUSC_MODELS_SM_IBUFFER_H
#define GPUSC_MODELS_SM_IBUFFER_H

#include "models/core/block.h"
#include "models/sm/payloads.h"

G_BEGIN_DECLS

typedef struct {
    const decoded_t *(*head)(void *self, unsigned warp); /* NULL when empty */
    unsigned (*count)(void *self, unsigned warp);
    void (*push)(void *self, const decoded_t *d); /* into d->warp's buffer; g_assert room */
    void (*pop)(void *self, unsigned warp);       /* remove the head */
    void (*flush)(void *self, unsigned warp);     /* empty it (a redirect) */
} ibuffer_if;
extern const blk_iface ibuffer_iface;

enum { IBUFFER_IB };
enum { IBUFFER_STAT_PUSHED, IBUFFER_STAT_FLUSHED };

typedef struct {
    decoded_line_t *e; /* entries slots (a push writes two lines, an issue reads them) */
    unsigned head, count;
} ibuffer_warp;

typedef struct {
    blk_inst *inst;
    unsigned warps, entries;
    ibuffer_warp *w;
    blk_call_probe *probe;
    uint64_t tr_valid; /* traced: bit = warp slot with an instruction (slots 0..63) */
} ibuffer;

extern const blk_desc ibuffer_desc;
ibuffer *ibuffer_new(blk_ctx *ctx, gsc_module *parent, const char *name, unsigned warps);
void ibuffer_free(ibuffer *b);

G_END_DECLS

#endif
