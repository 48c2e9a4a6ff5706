/* blocksync.c — the bar.blocksync interfaces (see blocksync.h). */
#include "models/sm/blocksync.h"

static const char *const arrive_methods[] = {"arrive(sm, slot, dir): a CTA arrived at bar.blocksync",
                                             "leave(sm): a unit takes part in no more barriers", NULL};
/* Traced calls: arrive's arguments; leave(sm) shows slot 15 and dir 7 (no CTA, no direction). */
const blk_iface blocksync_iface = {
    "blocksync", "the SPU grid's inter-SM barrier", arrive_methods, {"sm", "slot", "dir"}, {8, 4, 3}};
static const char *const release_methods[] = {"release(slot): the CTA's warps go on next cycle", NULL};
const blk_iface blocksync_release_iface = {
    "blocksync_release", "the grid releases a CTA from bar.blocksync", release_methods, {"slot"}, {4}};
