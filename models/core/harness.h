/* harness.h — test one block alone, cycle by cycle (in the spirit of GStreamer's GstHarness).
 *
 * harness_new() builds a fresh simulation holding a core clock (1000 ps), the block under test
 * (instance "dut", made by the block's constructor) and, in a module "harness", one channel per
 * port of the block (a latch or a FIFO as the port descriptor says; FIFO depth from the block's
 * depth parameter) plus a driver process that runs every cycle:
 *   - input latch ports: writes the next queued value (one per cycle; visible to the block in the
 *     next cycle, as from any upstream stage);
 *   - input FIFO ports: puts queued items while the FIFO has room;
 *   - output latch ports: samples the value visible in that cycle (and whether it is fresh);
 *   - output FIFO ports: gets every available item (unless draining is turned off), recording the
 *     cycle it was got in.
 * Interface ports get no channel: the test stubs the imports (harness_stub) and calls the exports
 * (harness_export). Port arrays get one channel per element (name_0, name_1 ...).
 * harness_step() runs one cycle. Cycle numbers are gsc_cycle() as seen by the driver.
 *
 * harness_free() resets the kernel (gsc_reset), so harnesses may follow one another in a process.
 * Still, register harness tests with harness_test_add(): each runs in its own subprocess (a fresh
 * SystemC kernel, a crash or fatal error fails only that test), which calls gsc_init() in the
 * child (the test's main() must not call gsc_init itself).
 */
#ifndef GPUSC_MODELS_CORE_HARNESS_H
#define GPUSC_MODELS_CORE_HARNESS_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

#include "models/core/block.h"

G_BEGIN_DECLS

#define HARNESS_PERIOD_PS 1000

typedef struct harness harness;

/* A block constructor: builds instance `name` under parent and returns the block's struct. */
typedef void *(*harness_ctor)(blk_ctx *ctx, gsc_module *parent, const char *name);

/* settings: NULL-terminated "key=value" parameters of the block (applied like --set to the block's
 * type section; "type.key=value" sets another block type's, for the blocks a constructor makes); an invalid setting is a test bug (g_error). vcd_path: NULL or a VCD to write
 * (everything traced). The simulation is elaborated by the first harness_step(). */
harness *harness_new(const blk_desc *desc, harness_ctor make, const char *const *settings,
                     const char *vcd_path);
void *harness_block(const harness *h);
blk_inst *harness_inst(const harness *h);

/* Queue a value for an input port (a latch or a FIFO); the driver applies it from the next step. */
void harness_push(harness *h, const char *port, const void *value);
/* Values queued on an input port and not yet written/put. */
unsigned harness_pending(const harness *h, const char *port);

/* Output latch: the value sampled in the last step, and whether it was fresh (written in the
 * cycle before). */
const void *harness_read(const harness *h, const char *port);
bool harness_fresh(const harness *h, const char *port);
/* Output FIFO: take the oldest item got by the driver; false if none. cycle may be NULL. */
bool harness_pop(harness *h, const char *port, void *item, uint64_t *cycle);
/* Output FIFO: step until an item is got (taking it, as harness_pop) and return the cycle it was got
 * in; a test failure (g_error naming the port) when none is got within max_steps steps. */
uint64_t harness_pop_within(harness *h, const char *port, void *item, unsigned max_steps);
/* Output FIFO: stop (false) or resume (true) getting items, to apply back-pressure. */
void harness_set_drain(harness *h, const char *port, bool drain);

/* Interfaces: bind import `import` of the block under test (an element name: "arbiter_1") to a
 * stub, a method table and its self (a MULTI import takes several, called in the order given); an
 * unbound required import is an elaboration error at the first step. harness_export gives the
 * block's export for the test to call, as a client block would, between or inside steps. */
void harness_stub(harness *h, const char *import, const void *methods, void *self);
blk_iref harness_export(const harness *h, const char *export);

/* Run one cycle; returns the cycle the driver ran in. */
uint64_t harness_step(harness *h);
/* Run n cycles; returns the last cycle. */
uint64_t harness_run(harness *h, unsigned n);
/* Close the VCD (if any), free the harness and reset the kernel (gsc_reset) for the next one. The
 * block's own struct (from the constructor) is not freed. */
void harness_free(harness *h);

/* Register a g_test that runs fn in a subprocess (see above). */
void harness_test_add(const char *path, void (*fn)(void));

G_END_DECLS

#endif /* GPUSC_MODELS_CORE_HARNESS_H */
