/* fio_json_int.h - what the two halves of the fio-shaped JSON renderer share:
 * fio_json.c walks the result document (phases, jobs, reporting groups,
 * disks) and fio_json_dir.c turns one reported object's figures into fio's
 * per-direction, latency and distribution objects. Not for use outside
 * src/output. */
#ifndef SSDBENCH_FIO_JSON_INT_H
#define SSDBENCH_FIO_JSON_INT_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <cjson/cJSON.h>

#include "stats/hist.h"
#include "stats/prio_stats.h"
#include "job/job.h"

/* fio's largest histogram value (the midpoint of its last bucket, which also
 * holds everything above): fio_jsonplus_clat2csv uses it as "no more bins",
 * so a larger bin key would never be consumed. */
#define FIO_JSON_BIN_MAX 17112760320ull

#define FIO_JSON_PCT_MAX 32

/* fio prints its floating-point figures with six decimals. */
static inline double fio_json_round6(double v)
{
    return round(v * 1e6) / 1e6;
}

/* One direction of one reported object (a job, or a group's jobs merged). */
struct fio_json_dir {
    uint64_t ios, bytes, errors;
    uint64_t only_ios, only_bytes; /* fio counts them, ssdbench did not complete them (runner.h fio_only_*):
                                      in total_ios and io_bytes, not in the rates */
    struct hist lat;            /* submission -> completion: fio's lat */
    struct hist slat, clat;     /* fio's slat and clat where measured; else empty (clat = lat) */
    bool paced;                 /* a paced job: sched holds its scheduled latency */
    struct hist sched;          /* scheduled issue time -> completion */
};

struct fio_json_obj {
    struct fio_json_dir dir[DIR_COUNT];
    uint64_t syncs, sync_errors;
    struct hist sync;
    double elapsed_s;           /* the longest job's measured time */
    unsigned workers;
    struct prio_stats prio;     /* fio's cmdprio: per-priority latencies of reads, writes */
};

struct fio_json_pcts;

/* fio's "prios" array of one direction object (after its lat_ns), when at
 * least two priorities have samples: prioclass, prio and the latency
 * object named lat_ns with lat_percentiles, else clat_ns. */
void fio_json_add_prios(cJSON *dir, const struct prio_dir *p, const struct fio_json_pcts *pct, bool plus);

/* The key fio_json_build_text adds to each job object: how many workers
 * (fio's "members", printed as "jobs=N" in its text) the object reports. */
#define FIO_JSON_MEMBERS_KEY "ssdbench members"
/* ... and the zone resets of its zonemode=zbd jobs (fio's nr_zone_resets,
 * which fio prints on the write line and not in its JSON) */
#define FIO_JSON_ZONE_RESETS_KEY "ssdbench zone resets"

/* fio_json_build for the text renderers (fio_text.c): the same document,
 * each job object with FIO_JSON_MEMBERS_KEY added. */
cJSON *fio_json_build_text(const cJSON *doc, char *err, size_t errlen);

/* Interval-row statistics of one quantity (fio's bw_* / iops_* fields). */
struct fio_json_samples {
    unsigned n;
    double min, max, mean, dev;
};

struct fio_json_pcts {
    unsigned n;
    double p[FIO_JSON_PCT_MAX];       /* ascending */
    /* fio's measurement switches of the reported job (params; all false =
     * fio's defaults): what is off is reported as fio does, zero with N 0 */
    bool no_lat, no_clat;             /* disable_lat, disable_clat (gtod_reduce) */
    bool lat_pct, clat_pct_off, slat_pct; /* lat_/clat_/slat_percentiles */
};

/* fio's latency object: min, max, mean, stddev, N, then "percentile" (keys
 * "%f", only when pct is given and there are samples) and, for json+,
 * "bins" (bucket midpoint in ns -> count, non-empty buckets only). */
cJSON *fio_json_lat_json(const struct hist *h, const struct fio_json_pcts *pct, bool bins);

/* One of fio's "read"/"write"/"trim" objects; for paced jobs with the extra
 * key "ssdbench_sched_lat_ns" (scheduled issue time -> completion, the
 * latency a stall cannot hide; fio has none). bw/iops may be NULL (no
 * samples); group_bytes_s is the reporting group's aggregate bandwidth in
 * bytes/s (fio's bw_agg is the share of it, in percent). */
cJSON *fio_json_dir_json(const struct fio_json_dir *d, double secs, const struct fio_json_samples *bw,
                   const struct fio_json_samples *iops, double group_bytes_s, const struct fio_json_pcts *pct,
                   bool plus);

/* A direction object with every figure zero (fio's "trim"). */
cJSON *fio_json_dir_zero(void);

/* Adds fio's latency_ns / latency_us / latency_ms share tables for h. */
void fio_json_latency_dists(cJSON *job, const struct hist *h);

/* Adds fio's iodepth_level table: 100 % in the bucket of depth (rounded). */
void fio_json_iodepth_level(cJSON *job, double depth);
/* fio's iodepth_level from the counts of I/Os per depth bucket (1, 2, 4, 8,
 * 16, 32, >=64): shares in %, as fio's stat_calc_dist. */
void fio_json_iodepth_dist(cJSON *job, const double *counts);

/* Statistics of one column (by field name) of a phase's interval series,
 * scaled, over the rows that span a whole step of step_ms (fio samples whole
 * windows only); n = 0 when the column is missing. */
void fio_json_samples_from_rows(const cJSON *intervals, const cJSON *rows, double step_ms, const char *field,
                          double scale, struct fio_json_samples *out);

#endif
