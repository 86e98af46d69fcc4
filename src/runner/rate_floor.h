/* rate_floor.h - fio's rate floors and latency limits, checked by each worker:
 *  - rate_min / rate_iops_min (per direction): after a 2 s settle from the
 *    worker's start and outside the ramp, the completed bytes (rate_min)
 *    or I/Os (rate_iops_min; rate_min wins when both are set) of a
 *    direction that has done any, averaged over at least rate_cycle ms
 *    since the last check, must reach the floor; else the job fails with
 *    EIO and fio's line "NAME: rate_min=XB/s not met, got YB/s" (backend.c
 *    __check_min_rate).
 *  - max_latency (per direction): a completion whose latency (submission
 *    to completion, fio's lat) exceeds it fails the job with ETIMEDOUT and
 *    fio's "latency of N nsec exceeds specified max (M nsec)" line.
 *  - latency_target: fio's queue-depth search (io_u.c lat_target_*): start
 *    at depth 1; every latency_window, when at least latency_percentile % of
 *    the I/Os since the last step met the target, go up (double, or halfway
 *    to the lowest failing depth), else halfway down; with a percentile of
 *    100 every slow I/O steps down at once, and one at depth 1 fails the job
 *    (ETIMEDOUT). When a step leaves the depth unchanged the search has
 *    converged: one more window at that depth, then the job ends (unless
 *    latency_run, which keeps adjusting). The depth in force at the end is
 *    reported as fio's latency_depth.
 * Differences from fio: the depth goes down without first draining the
 * queue (fio quiesces), and the statistics are not reset for the final
 * window.
 * All per worker, no allocation, no lock.
 */
#ifndef SSDBENCH_RATE_FLOOR_H
#define SSDBENCH_RATE_FLOOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "job/job.h"

struct rate_floor {
    bool rate_on;                /* a rate_min or rate_iops_min is set */
    bool lat_on;                 /* max_latency or latency_target is set */
    bool target_on;              /* latency_target */
    uint64_t start_ns;           /* the worker's start (the settle period counts from it) */
    bool have_last[DIR_COUNT];
    uint64_t last_ns[DIR_COUNT], last_bytes[DIR_COUNT], last_ios[DIR_COUNT];
    /* latency_target search (fio's latency_qd, _low, _high) */
    unsigned depth_max;          /* the job's iodepth */
    unsigned qd, qd_low, qd_high, stable;
    bool end_run, done;
    uint64_t win_start_ns, win_ios, win_failed;
    const char *broken;          /* the limit a nonzero return broke (its option name) */
    /* reads and writes completed in the measured part, per direction */
    uint64_t done_bytes[DIR_COUNT], done_ios[DIR_COUNT];
};

#define RATE_FLOOR_MSG 512

void rate_floor_init(struct rate_floor *f, const struct job_spec *job, unsigned depth);
/* The worker starts issuing at now (the settle and the first window start). */
void rate_floor_start(struct rate_floor *f, uint64_t now);

/* The rate floors after a round of completions: bytes[] and ios[] are the
 * worker's completed totals since its start. 0, or EIO with fio's message
 * in msg. */
int rate_floor_check(struct rate_floor *f, const struct job_spec *job, uint64_t now,
                     const uint64_t bytes[DIR_COUNT], const uint64_t ios[DIR_COUNT], char *msg,
                     size_t msglen);

/* One completed read or write of lat_ns: 0, or ETIMEDOUT with fio's line ("fio: ...")
 * (target names the file, off/len the I/O). */
int rate_floor_complete(struct rate_floor *f, const struct job_spec *job, unsigned dir,
                        uint64_t lat_ns, const char *target, uint64_t off, uint32_t len,
                        char *msg, size_t msglen);

/* latency_target: the search step at now (ios = reads and writes completed
 * so far). */
void rate_floor_step(struct rate_floor *f, const struct job_spec *job, uint64_t now, uint64_t ios);

/* The queue depth the worker may use now (the search's, else depth_max). */
static inline unsigned rate_floor_depth(const struct rate_floor *f)
{
    return f->target_on ? f->qd : f->depth_max;
}

#endif
