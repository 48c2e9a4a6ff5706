/* port.h — the framework's private view of a port element's links (interfaces and bindings); the
 * public API is in block.h ("channels and interfaces between blocks"). */
#ifndef GPUSC_MODELS_CORE_PORT_H
#define GPUSC_MODELS_CORE_PORT_H

#include "models/core/block.h"

G_BEGIN_DECLS

struct blk_link {
    blk_inst *inst; /* the port element's instance, descriptor index and element */
    unsigned idx, k;
    /* an export: its implementation (blk_export) and the probe its calls are noted on */
    const void *methods;
    void *self;
    blk_call_probe probe;
    /* an import: the exports it is bound to (struct blk_link *), in binding order */
    GPtrArray *bound;
    GPtrArray *stubs; /* the stub links it owns (blk_bind_stub) */
};

void blk_link_init(struct blk_link *l, blk_inst *inst, unsigned idx, unsigned k);
void blk_link_clear(struct blk_link *l);

G_END_DECLS

#endif /* GPUSC_MODELS_CORE_PORT_H */
