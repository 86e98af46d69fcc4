/* result_hist.h - a struct hist to and from its place in the result JSON.
 *
 * The stored form is lossless, so a saved result can be re-rendered, merged
 * or sliced later with the same percentiles the live run would have printed:
 *
 *   {"sub_bucket_bits":7, "max_bits":42, "n":..., "sum":..., "sumsq":"<decimal>",
 *    "min":..., "max":..., "ms_log2":[[i,count],...], "buckets":[[index,count],...]}
 *
 * Only non-zero buckets are listed, in increasing index order. ms_log2 lists
 * the ACT millisecond buckets including index 0 ([0,1) ms, derived as n minus
 * the rest). Integers below 2^53 are JSON numbers; larger ones are decimal
 * strings because a JSON number is a double in most readers. Both forms are
 * accepted when reading; sumsq (128-bit) is always a string.
 */
#ifndef SSDBENCH_RESULT_HIST_H
#define SSDBENCH_RESULT_HIST_H

#include <stddef.h>
#include <cjson/cJSON.h>

#include "stats/hist.h"

/* New cJSON object (caller frees with cJSON_Delete), NULL on out of memory. */
cJSON *result_hist_to_json(const struct hist *h);

/* Fills h from j. Returns 0, or -EINVAL with a one-line reason in err (naming
 * the field and value, e.g. "histogram: buckets[3]: index 5000 out of range
 * 0..4607") and h reset to empty. The caller prefixes the file name. */
int result_hist_from_json(const cJSON *j, struct hist *h, char *err, size_t errlen);

#endif
