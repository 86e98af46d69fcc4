/* runner.h - the one shared runner.
 *
 * A phase is a set of jobs that run at the same time (fio: jobs between two
 * stonewalls). runner_run() opens the targets through the guard, starts every
 * job's worker threads behind one start barrier, and runs the worker loop
 * (generate -> submit -> reap -> record) until each job's stop rule ends it:
 * runtime, bytes, a signal, an I/O error, or a stop requested by the
 * workload's interval hook (steady state, ACT max lag). Workers hand their
 * statistics over once per interval through a small ring of interval
 * buffers, so the I/O path takes no lock; the calling thread merges intervals into the phase totals,
 * streams one interval row per step and calls the hook.
 *
 * The runner knows nothing of any one workload: everything arrives in
 * struct job_spec and struct runner_opts, everything leaves in
 * struct phase_stats, which result.h turns into the results model.
 */
#ifndef SSDBENCH_RUNNER_H
#define SSDBENCH_RUNNER_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "device/device.h"
#include "stats/iostats.h"
#include "stats/prio_stats.h"
#include "target/guard.h"
#include "target/target.h"
#include "base/cluster.h"
#include "job/job.h"
#include "job/verify_hdr.h"

#define RUNNER_MAX_ERRORS 16

/* The first I/O errors of a phase, with where they happened. */
struct runner_error {
    unsigned job;
    unsigned target;
    uint64_t offset;
    int err;          /* errno */
    int op;           /* enum io_op */
    uint64_t count;   /* how many errors with this target/errno/op in total */
    const char *limit; /* a broken fio limit (rate_min, rate_iops_min, max_latency,
                          latency_target: a static name), not a failed I/O; NULL else */
};

/* fio's per-clone figures of one worker thread: its own resource usage
 * (getrusage RUSAGE_THREAD, from the start barrier to the end of its loop)
 * and how many I/Os each submitting and each reaping call handled, in
 * fio's buckets (0, 1-4, 5-8, 9-16, 17-32, 33-64, more; measured time
 * only). Plain counters, kept per worker, summed by whoever reports them. */
#define RUNNER_DEPTH_BUCKETS 7
struct worker_usage {
    double user_s, sys_s;
    uint64_t ctx;                  /* voluntary + involuntary context switches */
    uint64_t majf, minf;           /* major / minor page faults */
    uint64_t submit_calls[RUNNER_DEPTH_BUCKETS];
    uint64_t complete_calls[RUNNER_DEPTH_BUCKETS];
    uint64_t elapsed_ns;           /* this worker's measured time (excluding ramp) */
    /* fio's io_u_map (iodepth_level): I/Os submitted, by the number in
     * flight at their submission (themselves included), in buckets 1,
     * 2-3, 4-7, 8-15, 16-31, 32-63, >= 64 (runner_depth_level) */
    uint64_t depth_level[RUNNER_DEPTH_BUCKETS];
    /* I/Os fio counts as the job's (its issued count, total_ios) that
     * ssdbench did not complete: verify_only's dry-run writes and trims
     * (with their bytes, as fio's io_bytes has them) and fill_device's
     * writes that found the target full (no bytes) */
    uint64_t fio_only_ios[DIR_COUNT], fio_only_bytes[DIR_COUNT];
    /* continue_on_error: the errors it let pass and the first one's errno
     * (fio's total_err and first_error); errors_on says the job has it */
    bool errors_on;
    int first_passed;
    uint64_t errors_passed;
};

/* fio's io_u_mark_depth() bucket of an in-flight depth. */
static inline unsigned runner_depth_level(unsigned depth)
{
    if (depth == 0 || depth >= 64)
        return RUNNER_DEPTH_BUCKETS - 1;   /* fio: 0 falls to its default, >= 64 */
    return 31u - (unsigned)__builtin_clz(depth);   /* floor(log2): 0..5 for 1..63 */
}

/* verify (jobs with verify=): what the read-back checked and the first bad
 * block (docs/design.md "Verify"). */
struct verify_stats {
    uint64_t written;              /* blocks whose last write is tracked for checking */
    uint64_t blocks, bytes;        /* blocks and bytes read back and checked */
    uint64_t backlog_blocks;       /* of which checked as you go (verify_backlog) */
    uint64_t bad;                  /* blocks that failed */
    bool have_first;
    unsigned first_target;         /* job-local target index of the first bad block */
    struct verify_bad first;
    char dump_received[JOB_PATH_MAX + 48]; /* verify_dump: the files written, "" = none */
    char dump_expected[JOB_PATH_MAX + 48];
};

struct job_stats {
    struct io_stats total;
    struct io_stats *per_target;   /* [ntargets] */
    unsigned ntargets;
    uint64_t elapsed_ns;           /* measured time of this job (excluding ramp) */
    uint64_t ramp_ns;
    unsigned workers;
    uint64_t max_lag_ns;           /* paced jobs: worst lateness of an issue */
    uint64_t ramp_ios[DIR_COUNT];  /* completed during the ramp (not in the statistics) */
    uint64_t *worker_ios;          /* [workers]: completed I/Os + flushes per worker */
    uint64_t *worker_busy_ns;      /* [workers]: sum of that worker's I/O latencies */
    uint64_t end_syncs;            /* end_fsync flushes (not in total: they are no requests) */
    uint64_t zone_resets;          /* zonemode=zbd: zones reset (fio's nr_zone_resets) */
    /* per worker (clone): fio reports each clone on its own without
     * group_reporting */
    struct worker_usage *worker_usage; /* [workers] */
    struct io_stats *per_worker;   /* [workers] when workers > 1 and not group_reporting, else NULL */
    struct verify_stats verify;    /* jobs with verify= */
    uint64_t think_pauses;         /* fio thinktime pauses taken, all workers */
    /* jobs with a shared request source only (else NULL): per-event time */
    struct hist *event_lat;
    uint64_t *worker_events;       /* [workers] */
    uint64_t *worker_event_ns;     /* [workers]: sum of that worker's event times */
    /* fio latency_target: the queue depth the search ended at (of the
     * job's last worker, as fio reports it); 0 without latency_target */
    unsigned lat_depth;
    /* fio's cmdprio: per-priority latencies (stats/prio_stats.h), of the
     * job and (with per_worker) of each worker; NULL without cmdprio */
    struct prio_stats *prio;
    struct prio_stats *prio_worker; /* [workers] */
};

/* One interval's merged figures, handed to the hook and to the series. */
struct runner_interval {
    unsigned index;                /* 0-based */
    uint64_t t_start_ns, t_end_ns; /* relative to the measurement start */
    uint64_t stalled_ns;           /* time of the interval the process did not run */
    unsigned late_hist;            /* 1: some latencies of this interval are in a later
                                      interval's histograms; 2: its histograms also hold
                                      earlier intervals' (the collector had lagged) */
    unsigned njobs;
    const struct io_stats *jobs;   /* this interval only, per job */
    const struct io_stats *all;    /* this interval, all jobs merged */
    const struct job_stats *cumulative; /* per job, since the measurement start */
    /* overall progress of a long workload, for the live line */
    const char *status_prefix;     /* runner_opts.status_prefix, or NULL */
};

/* Returns true to stop the phase (e.g. steady state reached). */
typedef bool (*runner_interval_fn)(void *arg, const struct runner_interval *iv);

/* Live progress after each interval (iv NULL: the phase ended); total_s is
 * the planned length of the phase, 0 when it is bounded by bytes. The CLI
 * prints a status line with it when standard error is a terminal. */
typedef void (*runner_status_fn)(const struct runner_interval *iv, double total_s);

struct runner_hold;

struct runner_opts {
    const struct guard_consent *consent;
    /* a plan's targets, judged and held before its first phase
     * (runner_hold.h); NULL: each phase opens its own */
    struct runner_hold *hold;
    runner_interval_fn on_interval;  /* may be NULL */
    void *arg;
    FILE *series;                    /* interval rows are streamed here as JSON arrays, one per line; may be NULL */
    runner_status_fn status;         /* live progress; may be NULL */
    uint64_t max_lag_ns;             /* paced jobs: stop the phase when an issue is this late (0 = off) */
    bool stop_on_error;              /* default true */
    bool remove_created;             /* delete files created for this phase afterwards */
    unsigned log_number_base;        /* workers of earlier phases: fio numbers logs over the whole job file */
    /* overall progress of a suite or ladder: a line the workload keeps up
     * to date between phases ("point 7/16, profile 2/5, up to 3 h 10 min
     * left"); the status line shows it before the interval figures */
    const char *status_prefix;       /* may be NULL */
    /* Many ranks (base/cluster.h; NULL or one rank: this process alone):
     * the set-up verdict (guard refusals included) is agreed before any
     * I/O, the workers start at one agreed wall-clock time, and every
     * interval is merged over the ranks before it is streamed, shown or
     * handed to the hook, so a hook decides on the cluster's figures,
     * identically on every rank. */
    struct cluster *cluster;
};

/* The kernel's own counters for a block-device target over the phase
 * (/sys/block/<dev>/stat, read before the workers start and after they all
 * finished), so a result can show that its counts are the kernel's. */
struct kernel_stats {
    bool valid;
    /* the device counted: the target itself, or for a file the block
     * device its filesystem lives on (st_dev), as fio's disk_util */
    char device[64];
    bool of_file;
    uint64_t read_ios, read_merges, read_sectors, read_ticks_ms;
    uint64_t write_ios, write_merges, write_sectors, write_ticks_ms;
    uint64_t io_ticks_ms;           /* time the device had I/O in flight */
    bool has_discard, has_flush;    /* the kernel has these fields (4.18+, 5.5+) */
    uint64_t discard_ios, discard_merges, discard_sectors, discard_ticks_ms;
    uint64_t flush_ios, flush_ticks_ms;
};

/* A stretch of time in which the process did not run: the collector woke
 * more than one interval after it asked to (SIGSTOP, a starved host), or the
 * machine was suspended (CLOCK_BOOTTIME ran ahead of CLOCK_MONOTONIC), or a
 * worker woke from a planned sleep more than an interval late. */
#define RUNNER_MAX_STALLS 16
struct runner_stall {
    uint64_t start_ns, len_ns;      /* relative to the measurement start (monotonic) */
    bool suspended;                 /* machine suspend, not a stopped process */
    bool worker;                    /* seen by one worker only (a planned sleep that
                                       ended that late), not in the interval rows */
};

/* A phase run over many ranks: this rank's own view. The job totals,
 * elapsed times, error count and interval rows of the phase_stats it hangs
 * from are the cluster's (merged over every rank). */
struct phase_cluster {
    unsigned rank, nranks;
    uint64_t agreed_start_wall_ns;  /* CLOCK_REALTIME, broadcast by rank 0 */
    int64_t start_skew_ns;          /* this rank's release of its workers - agreed start */
    uint64_t elapsed_ns;            /* this rank's measured time */
    struct io_stats *job_total;     /* [njobs] this rank's job totals */
    uint64_t *job_elapsed_ns;       /* [njobs] */
    uint64_t error_total;           /* this rank's */
};

/* A block-device target's identity and health (device.h): probed and read
 * just before the workers start, read again after they all finished; the
 * highest per-interval temperature sample in between (NAN: none). */
struct runner_device {
    bool valid;                      /* a block device that was probed */
    struct device_info info;
    struct device_health before, after;
    double temp_max_c;
};

struct phase_stats {
    unsigned njobs;
    struct job_spec *jobs;           /* copies, with defaults resolved */
    struct job_stats *stats;         /* [njobs] */
    unsigned ntargets;               /* distinct targets over all jobs */
    struct target_info *targets;     /* [ntargets] */
    struct kernel_stats *kstats;     /* [ntargets] deltas over the phase */
    unsigned *job_target;            /* [njobs * JOB_MAX_TARGETS]: job target i -> targets[] index */
    uint64_t start_wall_ns;
    uint64_t elapsed_ns;
    unsigned nintervals;
    bool interrupted;                /* signal */
    int signal;
    bool stopped_by_hook;
    bool lagged;                     /* max lag exceeded */
    bool exit_all;                   /* fio's exitall with exit_what=all: no later phase runs */
    unsigned nerrors;
    struct runner_error errors[RUNNER_MAX_ERRORS];
    uint64_t error_total;
    unsigned side_file_errors;       /* logs, dumps, verify state not written (said on stderr) */
    double cpu_user_s, cpu_sys_s;    /* ssdbench's own CPU time over the phase */
    unsigned nstalls;                /* stalls seen (the first RUNNER_MAX_STALLS kept) */
    struct runner_stall stalls[RUNNER_MAX_STALLS];
    uint64_t stalled_ns;             /* all stalls together */
    uint64_t suspended_ns;           /* of which machine suspend */
    uint64_t worker_late_wake_ns;    /* longest late wake-up of a worker's planned sleep */
    uint64_t ring_wait_ns;           /* workers' waits for a free interval buffer */
    unsigned ring_waits;
    unsigned late_hist_intervals;    /* worker-intervals whose histograms were handed over late */
    struct phase_cluster *cluster;   /* runs over many ranks only, else NULL */
    /* device identity and health, [ntargets] (NULL when out of memory) */
    struct runner_device *devices;
};

/* Interval row fields, in order, as streamed to opts->series, and the unit
 * of each (runner_series_units[i] belongs to runner_series_fields[i]). */
extern const char *const runner_series_fields[];
extern const char *const runner_series_units[];
unsigned runner_series_nfields(void);

/* Runs one phase. Returns 0 when it ran (check interrupted/errors in out),
 * -EPERM when the guard refused a target, or another -errno for setup
 * failures; err then holds one line for the user. */
int runner_run(const struct job_spec *jobs, unsigned njobs, const struct runner_opts *opts,
               struct phase_stats *out, char *err, size_t errlen);

void phase_stats_free(struct phase_stats *ps);

#endif
