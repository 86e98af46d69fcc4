/* result_fig.h - the four figures of the enterprise reviews (throughput,
 * average, maximum and standard deviation of latency) for reads and writes
 * combined, computed both ways: as the reviews define them and exactly.
 *
 * The reviews combine the two directions with simple means: average latency
 * = (read mean + write mean) / 2, stddev = (read stddev + write stddev) / 2,
 * max = the larger maximum (profiles.md s3). Those figures are kept because
 * they are what the published charts show; next to them are the exact
 * figures over all I/Os, from the merged histogram (exact mean and sample
 * stddev from the exact sums, p99 within the histogram's 0.4 %). With one
 * direction only, both ways give the same numbers.
 */
#ifndef SSDBENCH_RESULT_FIG_H
#define SSDBENCH_RESULT_FIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <cjson/cJSON.h>

#include "stats/hist.h"
#include "stats/iostats.h"

struct result_fig {
    double ios;            /* completed I/Os, both directions */
    double iops, read_iops, write_iops;
    double mbps;           /* 10^6 bytes/s, both directions */
    double lat_avg_ns;     /* reviews: mean of the per-direction means */
    double lat_sd_avg_ns;  /* reviews: mean of the per-direction stddevs */
    double lat_max_ns;     /* larger of the two maxima */
    double lat_mean_ns;    /* exact, all I/Os */
    double lat_sd_ns;      /* exact sample stddev, all I/Os */
    double p99_ns;         /* merged histogram */
};

/* From one interval's or phase's statistics over secs seconds. scratch is a
 * caller-provided histogram (about 37 KiB) used for the merge. */
void result_fig_from_stats(const struct io_stats *s, double secs, struct hist *scratch,
                          struct result_fig *f);

/* From a results-model scope ({"elapsed_s", "read": DIR, "write": DIR}).
 * Returns 0, or -EINVAL / -ENOMEM with a message when a histogram is bad. */
int result_fig_from_scope(const cJSON *scope, struct result_fig *f, char *err, size_t errlen);

/* {"iops", "read_iops", "write_iops", "mbps", "lat_avg_ns", "lat_sd_avg_ns",
 *  "lat_max_ns", "lat_mean_ns", "lat_sd_ns", "p99_ns", "ios"} */
cJSON *result_fig_json(const struct result_fig *f);

/* Reads back what result_fig_json wrote (missing keys are 0). */
void result_fig_from_json(const cJSON *o, struct result_fig *f);

#endif
