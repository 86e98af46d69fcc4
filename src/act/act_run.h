/* act_run.h - runs Aerospike ACT's storage workload (act_storage 6.x) on the
 * shared runner, writes ACT's raw log while it runs, and files the
 * certification figures in the result.
 *
 * One load is one phase of concurrent jobs (act_plan_build):
 *   service             small reads, and with commit-to-device small writes,
 *                       of the stored record size rounded up to the minimum
 *                       direct-I/O size, at random min-I/O-aligned offsets on
 *                       a uniformly random device per I/O (LAYOUT_RANDOM).
 *                       Threads mode: service-threads blocking workers, each
 *                       paced to small_reqs_per_thread (ACT's model). Open-loop
 *                       mode: one worker paced to the same total, with as many
 *                       slots as ACT has service threads, so the maximum queue
 *                       depth is ACT's but one thread does the work.
 *   large-block-reads   one worker per device (LAYOUT_JBOD) paced to the
 *   large-block-writes  derived per-device rate, writes refilled with fresh
 *                       data (compress-pct) before each I/O.
 *   tomb-raider         one sequential large-block reader per device; in no
 *                       ACT histogram.
 * The read share of the service job is ACT's 2^20-resolution split, exact
 * (job.rwmix_read_frac), not a whole percent.
 *
 * The runner's interval hook converts cumulative statistics into ACT log
 * blocks (hist_log2_buckets in ms or us), flushed each interval, and feeds
 * the slice tables and the hourly verdict table (act_analyze.h) plus
 * full-resolution per-slice histograms for the result. Two latencies are
 * kept: device (submission -> completion, ACT 6's `reads`) and transaction
 * (scheduled issue time -> completion, so queueing and lateness count: older
 * ACT's "trans").
 *
 * The max-lag rule is the runner's (runner_opts.max_lag_ns); a lagged load
 * ends with ACT's ERROR lines and counts as FAIL (ACT itself exits 0).
 */
#ifndef SSDBENCH_ACT_RUN_H
#define SSDBENCH_ACT_RUN_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <cjson/cJSON.h>

#include "runner/runner.h"
#include "act/act_log.h"
#include "act/act_analyze.h"
#include "act/act_config.h"
#include "job/job.h"
#include "workload/session.h"

enum act_mode {
    ACT_MODE_OPEN_LOOP,  /* one paced worker with service-threads slots (io_uring by default) */
    ACT_MODE_THREADS,    /* ACT's service threads: blocking I/O, one worker per thread */
};

struct act_run_opts {
    enum act_mode mode;
    enum engine_kind engine;   /* every job's engine (psync in threads mode) */
    unsigned iodepth;         /* open loop: slots of the service worker; 0 = service threads */
    unsigned ncpus;           /* online CPUs, for ACT's 5 x CPUs default */
    uint64_t tick_ns;         /* real length of one report interval; 0 = report-interval-sec
                                 (a shorter tick compresses a long run in time, for testing) */
    unsigned slice_sec;       /* summary table slice in log seconds; 0 = min(3600, run) */
    uint64_t seed;
    bool seed_set;
};

/* What act_probe_devices found about one device (ACT's discover_device). */
struct act_device {
    uint64_t size_bytes;
    uint32_t min_io_bytes;
};

enum act_job_kind { ACT_JOB_SERVICE, ACT_JOB_LB_READS, ACT_JOB_LB_WRITES, ACT_JOB_TOMB,
                    ACT_NJOBS };

/* One load's phase. */
struct act_plan {
    unsigned njobs;
    struct job_spec jobs[ACT_NJOBS];
    int job_of[ACT_NJOBS];         /* index in jobs[] per kind, -1 when the load has none */
    uint32_t min_io_bytes;         /* used for every device: the largest of theirs */
    uint64_t n_large_blocks;       /* per device: of the smallest device */
    uint64_t region_bytes;         /* n_large_blocks * large block, on every device */
    uint64_t n_small_offsets;      /* aligned small-I/O starts of the largest size */
    unsigned nintervals;           /* report intervals: ceil(duration / interval) */
    uint64_t interval_ns;          /* real length of one */
    uint64_t runtime_ns;
    double small_rate_total;       /* small I/Os per second issued: per thread x threads */
    double read_frac;              /* share of service I/Os that are reads */
    unsigned max_queue_depth;      /* service slots + large-block workers (+ tomb raiders) */
    unsigned service_rings;        /* workers of the service job: service threads (threads
                                      mode) or rings (open loop, act_service_rings) */
    uint64_t scheduled[ACT_NJOBS]; /* I/Os the schedule holds per job, all workers (0: unpaced);
                                      each is issued, so a full run completes exactly these */
    unsigned n_sizes_used;         /* small I/O sizes in the bssplit */
    bool sizes_approximated;       /* more record sizes than a bssplit holds (see act_read_sizes) */
};

/* ACT's minimum I/O size probe: an O_DIRECT pread of 512, 1024, 2048 and
 * 4096 bytes at offset 0; the first that succeeds. -errno with a message when
 * none does. */
int act_probe_min_io(const char *path, uint32_t *min_io, char *err, size_t errlen);

/* Sizes and minimum I/O sizes of c's devices. Block devices and existing
 * files are measured; with file-size-mbytes the size is that and the minimum
 * I/O 512 (buffered I/O); with the null engine nothing is opened (a missing
 * device counts as 2 GiB of 512 B sectors). */
int act_probe_devices(const struct act_config *c, enum engine_kind engine,
                      struct act_device *devs, char *err, size_t errlen);

/* The minimum I/O size every device accepts: the largest of theirs. */
uint32_t act_devices_min_io(const struct act_device *devs, unsigned n);

/* The small I/O sizes: every multiple of min_io from io_bytes_min to
 * io_bytes_max with equal shares (ACT's uniform choice). A bssplit holds 64
 * entries; a wider range is represented by 64 of its sizes spread evenly and
 * symmetrically (smallest and largest included), which keeps the mean size,
 * hence the bytes moved, exactly ACT's. *approximated tells. */
void act_read_sizes(const struct act_derived *d, struct job_bssplit *bs, bool *approximated);

/* Builds one load's jobs from a config, ACT's derivation of it (made with
 * act_devices_min_io) and the probed devices. -EINVAL with a message when a
 * device is too small or there are more devices than a job holds. */
int act_plan_build(const struct act_config *c, const struct act_derived *d,
                   const struct act_device *devs, const struct act_run_opts *o,
                   struct act_plan *p, char *err, size_t errlen);

/* Open-loop mode's service rings: the largest divisor of both
 * service_threads and slots that is at most ncpus (1 when none is). Each
 * ring carries service_threads / rings of ACT's threads and slots / rings
 * slots, so the merged schedule is ACT's. */
unsigned act_service_rings(unsigned service_threads, unsigned slots, unsigned ncpus);

/* The I/Os the runner's pacing schedules for one worker before runtime_ns
 * at rate I/Os per second in groups of burst (I/O n due at
 * (n - n % burst) / rate s; worker.c). */
uint64_t act_scheduled_ios(double rate, unsigned burst, uint64_t runtime_ns);

/* The ladder --find-max climbs: 1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48 ...
 * (then x4/3 and x3/2 alternately). The smallest step above load. */
double act_ladder_next(double load);

/* One load, run and judged. */
struct act_load_result {
    double load;                  /* multiple of 1x; 0 = the config's own rates */
    char phase[JOB_NAME_MAX];
    struct act_config cfg;        /* as run */
    struct act_derived derived;
    struct act_plan plan;
    bool ran;                     /* the phase ran (else setup failed) */
    bool lagged;
    enum act_log_stop stop_why;
    bool interrupted;
    int signal;
    bool log_error;               /* writing the log failed: the phase was stopped */
    uint64_t io_errors;
    unsigned logged_s;            /* log seconds of the last report written */
    double cpu_user_s, cpu_sys_s;
    /* tables[0] = transaction latency, tables[1] = device latency of the
     * small reads at slice_sec; hourly = device latency by the hour; verdict
     * = the certification verdict from hourly (ACT's rule). */
    struct act_analysis an;
    /* The same three limits applied to every slice of tables[1] (device) and
     * tables[0] (transaction): a screen for runs shorter than 24 h. */
    struct act_verdict screen, screen_trans;
    bool passed;                  /* PASS, or a short run whose slices all pass; never
                                     after a lag stop, I/O errors or an interrupt */
    FILE *slices;                 /* per-slice full-resolution histograms, one JSON object
                                     per line, kept on disk so memory stays flat (owned) */
};

/* Rates of c replaced by load x ndevices x 1x (load > 0), as the shorthand
 * does; every other key kept. */
int act_config_with_load(struct act_config *c, double load, char *err, size_t errlen);

/* Runs one load: writes the log header to log, runs the phase in s with
 * its consent/live status (the hook, max lag and error policy are set here)
 * through session_phase_with, which files it in s's document, and fills res. Returns 0 when the phase ran
 * (look at res), or -errno with err set (guard refusal: -EPERM; bad load:
 * -EINVAL) before anything was written to log. Release res with
 * act_load_result_free. */
int act_run_load(struct session *s, const struct act_config *base, double load,
                 const struct act_device *devs, const struct act_run_opts *o, FILE *log,
                 const char *producer, struct act_load_result *res, char *err, size_t errlen);
void act_load_result_free(struct act_load_result *res);

/* The result's top-level "act" object: config, mode, devices; then one entry
 * per load (phase name, rates, derived, verdict with the worst hour, screen,
 * per-slice histograms read back from res->slices) and the find-max outcome. */
cJSON *act_json_begin(cJSON *doc, const struct act_config *c, const struct act_run_opts *o,
                      const struct act_device *devs);
void act_json_add_load(cJSON *act, struct act_load_result *res, const char *logname);
void act_json_find_max(cJSON *act, double highest_pass, double first_fail);

/* act-prep: a zero pass, then a random pass, over the whole device, as
 * act_prep does: 8 sequential 128 KiB writers over one eighth of the whole
 * blocks each, the last also over the leftover blocks, and a final partial
 * block written by one more I/O of its size. One job per writer (so each has
 * its own region); jobs[] holds ACT_PREP_MAX_JOBS. -EINVAL when the device
 * is smaller than 512 bytes or not a multiple of 512. */
#define ACT_PREP_WRITERS 8
#define ACT_PREP_BLOCK (128u * 1024u)
#define ACT_PREP_MAX_JOBS (ACT_PREP_WRITERS + 1)
int act_prep_jobs(const char *dev, uint64_t size, bool zero, struct job_spec *jobs,
                  unsigned *njobs, char *err, size_t errlen);

#endif
