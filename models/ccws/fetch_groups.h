/* fetch_groups.h — the 2LVL-GTO issue policy the CCWS/DAWS/VWS spec compares with (§3, after
 * Narasiman et al.): warps in fetch groups of G by age (dispatch order: a CTA's warps are
 * consecutive), the scheduler issues from the current group (the group of the warp issued last)
 * while one of its warps is ready, GTO inside it (the last issued warp, then the oldest); when all
 * of its warps are stalled, the oldest group with a ready warp (GTO across groups). Policy spec
 * "fetch_groups:G" (default G = 2, the spec's configuration). A policy class of models/lib/policy.h,
 * registered by fetch_groups_register() (idempotent); tb-ccws's --sched 2lvl.
 * "fetch_groups_lrr:G" (default G = 8) is the spec's optional 2LVL-LRR (Narasiman's configuration):
 * round robin inside the current group (the warps after the one issued last, by age, then the rest)
 * while one of its warps is ready, then the next younger group with a ready warp, wrapping round to
 * the oldest (tb-ccws's --sched 2lvl-lrr). */
#ifndef GPUSC_MODELS_CCWS_FETCH_GROUPS_H
#define GPUSC_MODELS_CCWS_FETCH_GROUPS_H

#include <glib.h>

G_BEGIN_DECLS

void fetch_groups_register(void);

G_END_DECLS

#endif
