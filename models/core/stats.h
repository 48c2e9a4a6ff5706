/* stats.h — statistics dumps: every instance's counters and derived statistics, then the run's
 * derived figures, as aligned text or as JSON. Instances appear in creation order, so two runs of
 * the same program produce the same bytes. */
#ifndef GPUSC_MODELS_CORE_STATS_H
#define GPUSC_MODELS_CORE_STATS_H

#include <stdio.h>

#include "models/core/block.h"

G_BEGIN_DECLS

/* One line per statistic: "<instance>.<stat>  <value>  <unit>  # <meaning>", aligned. `cycles` is
 * printed first as the run length. */
void stats_dump_text(const blk_ctx *ctx, uint64_t cycles, FILE *out);
/* {"program": ..., "cycles": N, "instances": [{"path":..,"type":..,"stats":{"name":{"value":..,
 * "unit":..,"meaning":..}}}], "derived": {"name": {...}}}. Integers for counters, %.17g numbers for
 * derived values (null if not finite). */
void stats_dump_json(const blk_ctx *ctx, const char *program, uint64_t cycles, FILE *out);
/* Write the JSON to a file; false and a message in *err on I/O failure. */
bool stats_write_json(const blk_ctx *ctx, const char *program, uint64_t cycles, const char *path,
                      GError **err);

/* A ratio helper for derived statistics: a / b, or 0 when b is 0. */
static inline double stats_ratio(uint64_t a, uint64_t b)
{
    return b ? (double)a / (double)b : 0.0;
}

G_END_DECLS

#endif /* GPUSC_MODELS_CORE_STATS_H */
