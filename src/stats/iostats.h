/* iostats.h - the statistics one stream records: per direction the I/O count,
 * bytes, errors and the latency histogram (submission -> completion), when
 * measured its split into submission and completion latency, and for paced
 * runs the latency from the scheduled time; plus flushes. Plain data of
 * fixed size, merged by adding, never allocated per I/O. */
#ifndef SSDBENCH_IOSTATS_H
#define SSDBENCH_IOSTATS_H

#include <stdint.h>

#include "stats/hist.h"
#include "base/io_dir.h"

struct dir_stats {
    uint64_t ios;      /* completed successfully */
    uint64_t bytes;
    uint64_t errors;
    struct hist lat;   /* submission -> completion, ns (fio's lat) */
    struct hist slat;  /* submission -> the submitting call's return (fio's slat), ns; only
                          when slat is measured (an asynchronous engine and job->slat or a
                          latency log), else empty */
    struct hist clat;  /* that return -> completion (fio's clat), ns; filled with slat */
    struct hist sched; /* scheduled time -> completion (paced runs only) */
};

struct io_stats {
    struct dir_stats dir[DIR_COUNT];
    uint64_t syncs;          /* fsync/fdatasync completed */
    uint64_t sync_errors;
    struct hist sync_lat;
};

void iostats_init(struct io_stats *s);
/* Adds src into dst; skips empty histograms so untouched memory stays untouched. */
void iostats_merge(struct io_stats *dst, const struct io_stats *src);
/* Resets only what was used. */
void iostats_reset(struct io_stats *s);

#endif
