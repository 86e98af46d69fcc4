/* suite.h - the enterprise review suite: the methodology of published
 * enterprise SSD reviews (profiles.md) as a plan of phases.
 *
 * Per profile: an optional purge; preconditioning with the same profile (a
 * read-only one switched to 100 % write) at a heavy load, 16 threads x 16
 * queue, until steady state or for a fixed time, recording per interval the
 * combined throughput, average, maximum and stddev of latency; then, with no
 * idle time, a sweep of points (threads x queue depth, or queue depth 1..256)
 * of a fixed duration each. Several targets run as separate LUNs at the same
 * time (jbod: threads x queue per target) or as one striped space (stripe:
 * threads x queue in total). An active range below 100 % confines I/O to the
 * first part of every target; the rest may be discarded first as spare area.
 *
 * Every phase is a normal phase of the result document (kinds "precondition",
 * "sample", "sweep-point"); the suite adds one top-level "suite" object that
 * names them and holds what the phases cannot: the steady-state report, the
 * combined figures (result_fig.h), purges and the scaling against a baseline
 * result. docs/suite.md describes that object.
 */
#ifndef SSDBENCH_SUITE_H
#define SSDBENCH_SUITE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <cjson/cJSON.h>

#include "target/guard.h"
#include "job/job.h"
#include "workload/plan.h"
#include "profiles/profiles.h"
#include "base/steady.h"

#define SUITE_SWEEP_MAX 32
#define SUITE_MAX_PROFILES 64
#define SUITE_MAX_SET 32
#define SUITE_LABEL_MAX 24

enum suite_sweep_kind {
    SWEEP_TQ,    /* threads x queue depth, thread-major (2T2Q, 2T4Q, ...) */
    SWEEP_QD,    /* one thread, queue depth list (QD1 ... QD256) */
    SWEEP_NONE,  /* preconditioning (and sample) only */
};

struct suite_sweep {
    enum suite_sweep_kind kind;
    unsigned nthreads, threads[SUITE_SWEEP_MAX];
    unsigned ndepths, depths[SUITE_SWEEP_MAX];
};

struct suite_point {
    char label[SUITE_LABEL_MAX]; /* "2T4Q", "QD32" */
    unsigned threads, depth;
};

enum suite_precond { PRECOND_AUTO, PRECOND_TIME, PRECOND_OFF };

#define SUITE_MAX_BASELINES 4

struct suite_cfg {
    unsigned nprofiles;
    char profiles[SUITE_MAX_PROFILES][JOB_NAME_MAX];
    struct suite_sweep sweep;
    uint64_t runtime_ns;         /* per sweep point; 0 = default for the sweep kind */
    uint64_t ramp_ns;            /* discarded warm-up before each point */
    enum suite_precond precond;
    uint64_t precond_ns;         /* PRECOND_TIME */
    unsigned pre_threads, pre_depth; /* preconditioning load (16 x 16) */
    uint64_t interval_ns;        /* preconditioning interval = one steady-state round */
    struct steady_cfg ss;        /* rule, metric, window, max_rounds */
    uint64_t sample_ns;          /* a sample at the preconditioning load after it; 0 = none */
    bool purge;                  /* purge every target before each profile */
    double range_pct;            /* active range, % of each target (100 = all) */
    bool discard_unused;         /* discard what the active range leaves out */
    unsigned ntargets;
    char targets[JOB_MAX_TARGETS][JOB_PATH_MAX];
    enum job_layout layout;
    uint64_t stripe_chunk;
    int rwmixread;               /* override for the one mixed profile; -1 = the profile's */
    unsigned nset;               /* job options (--set [PROFILE:]KEY=VALUE) */
    char set_prof[SUITE_MAX_SET][JOB_NAME_MAX]; /* "" = every profile */
    char set_key[SUITE_MAX_SET][64];
    char set_val[SUITE_MAX_SET][256];
};

/* Defaults: the review set of profiles (4k-random-read, 4k-random-write,
 * 8k-70-30, fileserver, webserver), tq:2,4,8,16x2,4,8,16, auto
 * preconditioning at 16x16 with the SNIA rule on IOPS (5 rounds of 60 s, at
 * most 25), no purge, full range, jbod. */
void suite_defaults(struct suite_cfg *c);

/* Default point duration: 5 min for QD sweeps (the published procedure), 1 min
 * for thread x queue sweeps (not published; 16 points). */
uint64_t suite_point_runtime(const struct suite_cfg *c);

/* "tq:2,4,8,16x2,4,8,16", "qd:1,2,4,...,256", "none". In a list, "..."
 * continues the progression of the two values before it (x2 after a single
 * value) up to the value after it. 0 or -EINVAL with a message. */
int suite_parse_sweep(const char *s, struct suite_sweep *sw, char *err, size_t errlen);

/* "16x16", "16T16Q" -> threads, depth. */
int suite_parse_load(const char *s, unsigned *threads, unsigned *depth, char *err,
                     size_t errlen);

/* "snia" or "snia:20%/10%" (data/slope excursion limits), or fio's forms
 * (iops:10%, iops_slope:0.1%, bw:..., lat:...). Window and round limits are
 * left as they are. */
int suite_parse_ss(const char *s, struct steady_cfg *c, char *err, size_t errlen);

/* The sweep's points in run order; returns how many (at most cap). */
unsigned suite_points(const struct suite_sweep *sw, struct suite_point *out, unsigned cap);

/* The point label for a load: "2T4Q", or "QD32" for QD sweeps. */
void suite_point_label(enum suite_sweep_kind kind, unsigned threads, unsigned depth, char *buf,
                       size_t len);

/* Checks everything that can be checked before anything runs: profile names,
 * overrides (--set keys the suite controls are refused), sweep, durations,
 * targets, layout, range. 0 or -EINVAL with a one-line message. */
int suite_check(const struct suite_cfg *c, const struct profile_set *ps, char *err,
                size_t errlen);

/* A profile part with the suite's overrides applied (--rwmixread, --set; a
 * --set naming a profile applies to that profile's parts only).
 * 0 or -errno with a message naming the option. */
int suite_part_job(const struct suite_cfg *c, const struct profile_part *part,
                   struct job_spec *out, char *err, size_t errlen);

/* The job of one phase: the part (already overridden) on the suite's targets
 * with that load and duration (runtime 0 = size-bounded; time-based
 * otherwise). */
void suite_phase_job(const struct suite_cfg *c, const struct job_spec *part, unsigned threads,
                     unsigned depth, uint64_t runtime_ns, uint64_t ramp_ns,
                     struct job_spec *out);

/* What --discard-unused frees on target i (sizes[] in bytes, all targets):
 * [*offset, size_i). The used part is what the runner's region covers: the
 * first range_pct % of the smallest target (jbod), or of the striped space,
 * which on every member is a whole number of chunk rows. 0 or -EINVAL. */
int suite_unused_range(const struct suite_cfg *c, const uint64_t *sizes, unsigned i,
                       uint64_t *offset, char *err, size_t errlen);

/* Progress lines for the CLI ("preconditioning fileserver at 16T16Q ...");
 * the library itself prints nothing. */
typedef void (*suite_progress_fn)(void *arg, const char *msg);

struct suite_run_opts {
    const struct guard_consent *consent;
    runner_status_fn status;      /* live progress line (the CLI's), or NULL */
    FILE *series;                 /* the run journal every phase streams into, or NULL */
    suite_progress_fn progress;  /* may be NULL */
    const char *status_prefix;    /* overall progress in the live line (runner_opts), or NULL */
    void *arg;
    unsigned nbaselines;         /* suite results to scale against (--baseline, repeatable) */
    const cJSON *baselines[SUITE_MAX_BASELINES];
    const char *baseline_names[SUITE_MAX_BASELINES]; /* their file names, for the record */
    const char *baseline_labels[SUITE_MAX_BASELINES]; /* column labels */
    /* the session's ranks (runner_opts.cluster): every phase on all of them */
    struct cluster *cluster;
};

/* Runs the suite, appending phases and the "suite" object to doc. Returns 0
 * (check st for signals and I/O errors), or -errno with a message when a
 * phase could not start (guard refusal, bad alignment, purge failure). The
 * document holds every phase that ran, also on error. */
/* The number of targets a suite result ran on (1 when it does not say). */
unsigned suite_result_targets(const cJSON *doc);

/* Whether doc can be a --baseline: a suite result. 0, or -EINVAL with a
 * message naming what it is instead. */
int suite_baseline_check(const cJSON *doc, const char *file, char *err, size_t errlen);

int suite_run(const struct suite_cfg *c, const struct profile_set *ps, cJSON *doc,
              const struct suite_run_opts *o, struct plan_status *st, char *err, size_t errlen);

/* Scaling of one point against a baseline document: finds the phase of the
 * same name there (its suite figures, else its total scope) and returns
 * {"baseline_iops", "baseline_targets", "factor", "per_target"}, or NULL when
 * the baseline has no such point. factor = iops / baseline IOPS; per_target =
 * (iops / ntargets) / (baseline IOPS / baseline targets), so 8 LUNs against 4
 * compare LUN with LUN. */
cJSON *suite_scaling_json(const cJSON *baseline, const char *phase, double iops,
                          unsigned ntargets);

#endif
