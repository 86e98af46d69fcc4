/* rate_floor.c - fio's rate floors, max_latency and latency_target search
 * (see rate_floor.h). */
#include "runner/rate_floor.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#define SETTLE_NS 2000000000ull /* fio: no rate check in the first 2 s */

static const char *const dir_name[DIR_COUNT] = {"read", "write", "trim"};

void rate_floor_init(struct rate_floor *f, const struct job_spec *job, unsigned depth)
{
    memset(f, 0, sizeof(*f));
    for (unsigned d = 0; d < DIR_COUNT; d++) {
        f->rate_on |= job->rate_min_bytes[d] || job->rate_min_iops[d];
        f->lat_on |= job->max_latency_ns[d] != 0;
    }
    f->target_on = job->lat_target_ns != 0;
    f->lat_on |= f->target_on;
    f->depth_max = depth ? depth : 1;
    f->qd = f->target_on ? 1 : f->depth_max;
    f->qd_low = 1;
    f->qd_high = f->depth_max;
}

void rate_floor_start(struct rate_floor *f, uint64_t now)
{
    f->start_ns = now;
    f->win_start_ns = now;
}

int rate_floor_check(struct rate_floor *f, const struct job_spec *job, uint64_t now,
                     const uint64_t bytes[DIR_COUNT], const uint64_t ios[DIR_COUNT], char *msg,
                     size_t msglen)
{
    if (!f->rate_on || now - f->start_ns < SETTLE_NS)
        return 0;
    for (unsigned d = 0; d < DIR_COUNT; d++) {
        if (!bytes[d] || (!job->rate_min_bytes[d] && !job->rate_min_iops[d]))
            continue;
        if (f->have_last[d]) {
            uint64_t spent_ms = (now - f->last_ns[d]) / 1000000;
            if (spent_ms < job->rate_cycle_ms || spent_ms == 0)
                continue;
            if (job->rate_min_bytes[d]) {
                uint64_t got = (bytes[d] - f->last_bytes[d]) * 1000 / spent_ms;
                if (got < job->rate_min_bytes[d]) {
                    f->broken = "rate_min";
                    snprintf(msg, msglen, "%s: rate_min=%lluB/s not met, got %lluB/s", job->name,
                             (unsigned long long)job->rate_min_bytes[d], (unsigned long long)got);
                    return EIO;
                }
            } else {
                uint64_t got = (ios[d] - f->last_ios[d]) * 1000 / spent_ms;
                if (got < job->rate_min_iops[d]) {
                    f->broken = "rate_iops_min";
                    snprintf(msg, msglen, "%s: rate_iops_min=%llu not met, got %llu IOPS", job->name,
                             (unsigned long long)job->rate_min_iops[d], (unsigned long long)got);
                    return EIO;
                }
            }
        }
        f->have_last[d] = true;
        f->last_bytes[d] = bytes[d];
        f->last_ios[d] = ios[d];
        f->last_ns[d] = now;
    }
    return 0;
}

static void new_window(struct rate_floor *f, uint64_t now, uint64_t ios)
{
    f->win_start_ns = now;
    f->win_ios = ios;
    f->win_failed = 0;
}

/* fio's __lat_target_failed: halfway down; true at depth 1 */
static bool step_down(struct rate_floor *f)
{
    if (f->qd == 1)
        return true;
    f->qd_high = f->qd;
    if (f->qd == f->qd_low)
        f->qd_low--;
    f->qd = (f->qd + f->qd_low) / 2;
    f->stable = 0;
    return false;
}

static void step_up(struct rate_floor *f, const struct job_spec *job)
{
    unsigned prev = f->qd;
    f->qd_low = f->qd;
    if (f->qd + 1 == f->qd_high && ++f->stable >= 3) {
        f->qd_high++;
        f->stable = 0;
    }
    if (f->qd_high != f->depth_max)
        f->qd = (f->qd + f->qd_high) / 2;
    else
        f->qd *= 2;
    if (f->qd > f->depth_max)
        f->qd = f->depth_max;
    if (!job->lat_run && f->qd == prev) {
        if (f->end_run)
            f->done = true;
        else
            f->end_run = true;
    }
}

int rate_floor_complete(struct rate_floor *f, const struct job_spec *job, unsigned dir,
                        uint64_t lat_ns, const char *target, uint64_t off, uint32_t len,
                        char *msg, size_t msglen)
{
    uint64_t max = job->max_latency_ns[dir];
    if (max && lat_ns > max) {
        f->broken = "max_latency";
        snprintf(msg, msglen, "fio: latency of %llu nsec exceeds specified max (%llu nsec): %s %s %llu %u",
                 (unsigned long long)lat_ns, (unsigned long long)max, target, dir_name[dir],
                 (unsigned long long)off, len);
        return ETIMEDOUT;
    }
    if (f->target_on && lat_ns > job->lat_target_ns) {
        if (job->lat_percentile < 100) {
            f->win_failed++;
        } else if (step_down(f)) {
            f->broken = "latency_target";
            snprintf(msg, msglen, "fio: latency of %llu nsec exceeds specified max (%llu nsec): %s %s %llu %u",
                     (unsigned long long)lat_ns, (unsigned long long)job->lat_target_ns, target,
                     dir_name[dir], (unsigned long long)off, len);
            return ETIMEDOUT;
        } else {
            f->win_failed = 0;
            f->win_ios = UINT64_MAX; /* the window restarts at the next step call */
        }
    }
    return 0;
}

void rate_floor_step(struct rate_floor *f, const struct job_spec *job, uint64_t now, uint64_t ios)
{
    if (!f->target_on)
        return;
    if (f->win_ios == UINT64_MAX) { /* a step down just happened */
        new_window(f, now, ios);
        return;
    }
    if (now - f->win_start_ns < job->lat_window_ns)
        return;
    uint64_t n = ios - f->win_ios;
    double ok = n ? (double)(n - (f->win_failed < n ? f->win_failed : n)) / (double)n * 100.0 : 0;
    if (n && ok >= job->lat_percentile)
        step_up(f, job);
    else
        step_down(f);
    new_window(f, now, ios);
}
