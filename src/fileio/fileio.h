/* fileio.h - sysbench fileio (1.0.20) as an ssdbench workload.
 *
 * Three parts:
 *  - the options model: sysbench's option names, defaults and value forms,
 *    checked with sysbench-like one-line messages (fileio.c);
 *  - prepare / cleanup of the test files test_file.0 .. N-1 in the current
 *    directory, named and sized exactly as sysbench does so both tools can
 *    share a prepared set (fileio_prep.c);
 *  - the run: each --threads value becomes one phase of ssdbench jobs on the
 *    shared runner, an interval hook records what sysbench prints per
 *    interval, and a summary computed from the result document holds every
 *    figure of sysbench's report and of the thread-scaling table
 *    (fileio_plan.c, fileio_sum.c). Nothing here prints; src/output/
 *    sysbench_text.c renders the summary in sysbench's exact layout.
 *
 * How sysbench maps onto the runner: the files are the targets of one job,
 * striped with a chunk of one file size; sync = psync engine, async = libaio
 * with iodepth = --file-async-backlog, mmap = the mmap engine; --threads =
 * numjobs. The workers draw every request from one shared request stream
 * (fileio_src.c) that generates them as sysbench 1.0.20's global generator
 * does, so the same options give the same I/O: one sequential cursor, one
 * set of read/write and fsync counters, one event limit over all threads.
 * docs/fileio.md lists what still differs.
 */
#ifndef SSDBENCH_FILEIO_H
#define SSDBENCH_FILEIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <cjson/cJSON.h>

#include "runner/runner.h"
#include "target/guard.h"
#include "job/job.h"
#include "result/result_fileio.h"
#include "workload/plan.h"

#define FILEIO_MAX_STEPS 32       /* values in a --threads list */
#define FILEIO_NAME_MAX 32        /* "test_file.N" */
#define FILEIO_MAX_THREADS 4096

enum fileio_mode { FILEIO_SEQWR, FILEIO_SEQREWR, FILEIO_SEQRD, FILEIO_RNDRD, FILEIO_RNDWR, FILEIO_RNDRW };
enum fileio_io { FILEIO_IO_SYNC, FILEIO_IO_ASYNC, FILEIO_IO_MMAP };

#define FILEIO_FLAG_SYNC 1u
#define FILEIO_FLAG_DSYNC 2u
#define FILEIO_FLAG_DIRECT 4u

struct fileio_opts {
    unsigned file_num;             /* --file-num, 128 */
    uint64_t block_size;           /* --file-block-size, 16384 */
    uint64_t total_size;           /* --file-total-size, 2G */
    bool mode_set;
    enum fileio_mode mode;         /* --file-test-mode (required for run) */
    enum fileio_io io_mode;        /* --file-io-mode, sync */
    unsigned async_backlog;        /* --file-async-backlog, 128 */
    unsigned extra_flags;          /* --file-extra-flags, FILEIO_FLAG_* */
    unsigned fsync_freq;           /* --file-fsync-freq, 100 (0 = off) */
    bool fsync_all;                /* --file-fsync-all, off */
    bool fsync_end;                /* --file-fsync-end, on */
    bool fdatasync;                /* --file-fsync-mode=fdatasync */
    unsigned merged_requests;      /* --file-merged-requests, 0 */
    double rw_ratio;               /* --file-rw-ratio, 1.5 */
    bool zero_fill;                /* --file-fill=zero: sysbench's zero data (default random) */

    unsigned nthreads;             /* --threads=N or a list N1,N2,... (default 1) */
    unsigned threads[FILEIO_MAX_STEPS];
    uint64_t time_s;               /* --time, 10 (0 = no limit) */
    uint64_t events;               /* --events, 0 (no limit) */
    uint64_t rate;                 /* --rate, total events/s, 0 (no limit) */
    unsigned report_interval;      /* --report-interval, s, 0 (off) */
    unsigned percentile;           /* --percentile, 95 (0 = off) */
    bool histogram;                /* --histogram */
    uint64_t rand_seed;            /* --rand-seed, 0 = from the clock */
    bool validate;                 /* --validate (accepted; not performed) */
};

void fileio_defaults(struct fileio_opts *o);

/* Applies one option by sysbench name without the leading "--" (aliases
 * num-threads, max-time, max-requests, tx-rate accepted). value NULL = bare
 * flag (booleans on). Returns 0, -ENOENT when name is no fileio option (err
 * then suggests the nearest name), or -EINVAL with a one-line message naming
 * the option and value. */
int fileio_set(struct fileio_opts *o, const char *name, const char *value, char *err,
               size_t errlen);

enum fileio_cmd { FILEIO_PREPARE, FILEIO_RUN, FILEIO_CLEANUP };

/* Cross-option checks for a command: test mode given (run), file size
 * non-zero and a multiple of the block size, merged request size dividing
 * the file size, thread counts and file count the runner can hold. 0 or
 * -EINVAL with a one-line message. */
int fileio_check(const struct fileio_opts *o, enum fileio_cmd cmd, char *err, size_t errlen);

/* --file-total-size / --file-num (integer division, as sysbench). */
uint64_t fileio_file_size(const struct fileio_opts *o);
/* Bytes per request: block size, times --file-merged-requests in sequential modes. */
uint64_t fileio_request_size(const struct fileio_opts *o);
bool fileio_mode_random(enum fileio_mode m);
bool fileio_mode_writes(enum fileio_mode m);
bool fileio_mode_reads(enum fileio_mode m);
const char *fileio_mode_name(enum fileio_mode m);   /* "rndrd" */
const char *fileio_io_name(enum fileio_io m);       /* "sync" */
/* "test_file.<i>" */
void fileio_file_name(unsigned i, char *buf, size_t len);

/* The options as stored in the result ("fileio.options"): sysbench names,
 * resolved values (file_size, request_size), everything the renderer prints. */
cJSON *fileio_opts_json(const struct fileio_opts *o);

/* --- prepare / cleanup (fileio_prep.c) --- */

/* Called before each file is written (sysbench prints its line then). */
typedef void (*fileio_file_fn)(void *arg, const char *name, enum fileio_file_state st);

/* Creates or extends every file to the file size with block-size appends
 * (O_CREAT | O_WRONLY | extra flags, mode 0600), then fsyncs it. Data is
 * random unless zero_fill. An existing file is written only when it is
 * ssdbench's (its mark intact) or with consent (see fileio_claim_files);
 * a symlink or device under the name passes the destructive-write guard
 * like any target. Returns 0 with *written (bytes appended) and *seconds,
 * or -errno with a message (-EPERM: refused, nothing written). */
int fileio_prepare(const struct fileio_opts *o, const struct guard_consent *c, fileio_file_fn fn,
                   void *arg, uint64_t *written, double *seconds, char *err, size_t errlen);

/* Unlinks those of test_file.0 .. N-1 that are ssdbench's (mark intact) or
 * consented; missing ones are skipped. Others (a user's file of that name,
 * a symlink) are kept: -EPERM with a message naming the first kept. */
int fileio_cleanup(const struct fileio_opts *o, const struct guard_consent *c, char *err,
                   size_t errlen);

/* Before a run: every file exists and holds at least the file size
 * (sequential write creates missing files). Message in sysbench's words. */
int fileio_check_files(const struct fileio_opts *o, char *err, size_t errlen);

/* Before anything writes: every existing regular test file must be
 * ssdbench's (mark intact) or consented - --destroy naming the file, or the
 * directory they are in (--destroy=.); consented ones are marked as
 * ssdbench's from then on. Symlinks and other kinds are left to the guard
 * at open. 0, -EPERM with a message naming the override, or -errno. */
int fileio_claim_files(const struct fileio_opts *o, const struct guard_consent *c, char *err,
                       size_t errlen);

/* --- sysbench's request stream (fileio_src.c) --- */

/* What the source handed out so far. events: what --events limits (reads,
 * writes and periodic fsyncs); fsyncs: all fsyncs it asked for, including
 * those of --file-fsync-all (which belong to their write's event). */
struct fileio_src_counts {
    uint64_t events, reads, writes, fsyncs, periodic_fsyncs;
};

struct fileio_src;

/* The one request stream all `threads` workers of a run draw from, as
 * sysbench's global generator (see fileio_src.c). NULL when out of memory. */
struct fileio_src *fileio_src_new(const struct fileio_opts *o, unsigned threads, uint64_t seed);
const struct io_source *fileio_src_ops(const struct fileio_src *s);
void fileio_src_counts(struct fileio_src *s, struct fileio_src_counts *c);
void fileio_src_free(struct fileio_src *s);

/* --- the run (fileio_plan.c) --- */

/* The job of one run at `threads` threads (caller frees *jobs): one job,
 * numjobs = threads, over all files, drawing from src (which may be NULL
 * only to inspect the job). */
int fileio_jobs(const struct fileio_opts *o, unsigned threads, const struct fileio_src *src,
                struct job_spec **jobs, unsigned *njobs, char *err, size_t errlen);

typedef void (*fileio_row_fn)(void *arg, const struct fileio_row *row);

/* Starts the document's "fileio" object: options and the label of this setup. */
void fileio_doc_begin(cJSON *doc, const struct fileio_opts *o, const char *label);

/* Runs one --threads value as a phase "threads=N", attaches the interval rows
 * and the summary (fileio_summarize) to it and adds a row to the document's
 * scaling table. on_row (may be NULL) sees each interval as it ends. Returns
 * the phase object, or NULL with *rc and err set. */
cJSON *fileio_run(cJSON *doc, const struct fileio_opts *o, unsigned threads,
                  const struct runner_opts *base, fileio_row_fn on_row, void *arg,
                  struct plan_status *st, int *rc, char *err, size_t errlen);

/* --- summary from the result document (fileio_sum.c) --- */

/* sysbench's percentile rule on a histogram: rank n = floor(N * p / 100 + 0.5),
 * the first bucket whose cumulative count reaches n (the lowest non-empty
 * one for n = 0); reported as ssdbench's bucket midpoint clamped to
 * [min, max], so finer than sysbench's 1.8 % buckets. ns; 0 when empty. */
uint64_t fileio_percentile(const struct hist *h, double p);

/* sysbench's histogram bucket (1024 log buckets, 1 us .. 100 s) of a value
 * in ms, and the value a bucket prints as. */
unsigned fileio_sb_bucket(double ms);
double fileio_sb_value(unsigned bucket);

/* Computes phase.fileio.report from the phase's results and jobs: per second
 * rates, MiB/s, total time, events, latency min/avg/max/percentile/sum (ms)
 * over reads, writes and fsyncs, threads fairness from worker_stats, and with
 * histogram the sysbench-binned histogram. 0 or -EINVAL when the phase lacks
 * what is needed (err names it). */
int fileio_summarize(cJSON *phase, unsigned percentile, bool histogram, char *err, size_t errlen);

#endif
