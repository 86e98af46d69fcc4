/* pts_int.h - what the PTS test files share inside src/pts: the run's
 * context and the building blocks of pts_run.c (jobs, phases, a phase's
 * figures, purge, the rounds-to-steady-state loop), so HIR (pts_hir.c), XSR
 * (pts_xsr.c) and CBW/DIRTH (pts_ecw.c) run their phases the same way as
 * IOPS, Throughput, Latency and WSAT. Not for use outside src/pts. */
#ifndef SSDBENCH_PTS_INT_H
#define SSDBENCH_PTS_INT_H

#include "pts/pts.h"
#include "stats/hist.h"
#include "target/target.h"

struct pts_ctx {
    const struct pts_cfg *c;
    const struct pts_run_opts *o;
    cJSON *doc;
    cJSON *pts;                 /* the document's "pts" object */
    cJSON *reasons;             /* its "noncompliance" list */
    struct plan_status *st;
    struct target_info ti;
    uint64_t capacity;          /* bytes */
    uint64_t ar_bytes;          /* the ActiveRange, whole MiB */
    unsigned tc, qd;
    /* the write cache as the preset wants it, and what to put back */
    struct wcache_state *wc;
    int wc_rc;                  /* wcache_apply's answer; 1: not set */
    /* ActiveRange segmentation (PTS-C): used by the rounds of IOPS, TP, LAT */
    struct ar_segments segs;
    bool in_rounds;
    unsigned nphase;            /* phases run, for the I/O log names */
};

/* The figures of one phase (its total scope and merged latency histogram). */
struct el_fig {
    double ios, read_ios, write_ios, bytes, elapsed_s;
    double iops, mbps, lat_mean_ns, lat_max_ns, p99999_ns;
};

void pts_progress(const struct pts_ctx *x, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void pts_add_reason(struct pts_ctx *x, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* An interval's length in seconds and its I/Os and bytes over every direction. */
void pts_interval_sums(const struct runner_interval *iv, double *dur_s, double *ios, double *bytes);

/* A job on the ActiveRange: random data refilled per write, O_DIRECT, norandommap. */
void pts_base_job(const struct pts_ctx *x, const char *name, struct job_spec *j);
/* RND element e (composite: the CBW mix) for runtime_ns at tc threads x qd. */
void pts_rnd_job(const struct pts_ctx *x, const char *name, const struct pts_element *e,
                 uint64_t runtime_ns, unsigned tc, unsigned qd, struct job_spec *j);
/* SEQ streams, one per thread on its slice (see pts_run.c); returns the count. */
unsigned pts_seq_jobs(const struct pts_ctx *x, const char *name, uint32_t bs, unsigned read_pct,
                      uint64_t runtime_ns, uint64_t total_bytes, struct job_spec *jobs);
/* Runs one phase (plan_run_phase); NULL with *rc and err on failure. */
cJSON *pts_run_phase(struct pts_ctx *x, const char *name, const char *kind,
                     const struct job_spec *jobs, unsigned njobs, runner_interval_fn hook,
                     void *arg, int *rc, char *err, size_t errlen);
int pts_phase_fig(const cJSON *phase, struct hist *h, struct hist *tmp, struct el_fig *f,
                  char *err, size_t errlen);
cJSON *pts_fig_json(const struct el_fig *f, const char *phase);
const char *pts_metric_unit(enum steady_metric m);

int pts_do_purge(struct pts_ctx *x, cJSON *tj, char *err, size_t errlen);
cJSON *pts_new_test(struct pts_ctx *x, const char *id, enum pts_test t);
void pts_end_test(cJSON *tj);

/* Called before each round of pts_run_rounds (the round's object rj). */
typedef int (*pts_round_fn)(struct pts_ctx *x, unsigned round, cJSON *rj, void *arg, char *err,
                            size_t errlen);
/* Rounds of m's elements until steady state, filling tj with elements,
 * rounds, steady_state and the window table, as the IOPS test does. */
int pts_run_rounds(struct pts_ctx *x, cJSON *tj, const char *test, const struct pts_matrix *m,
                   pts_round_fn before, void *arg, char *err, size_t errlen);

/* The wall-clock time now, ISO 8601 UTC (the test dates of the header). */
void pts_now_iso(char *buf, size_t len);

/* The tests: IOPS, TP (one block size) and LAT rounds, and WSAT (pts_run.c);
 * the others in their own files. */
int pts_test_rounds(struct pts_ctx *x, enum pts_test t, uint32_t bs, char *err, size_t errlen);
int pts_test_wsat(struct pts_ctx *x, char *err, size_t errlen);
int pts_test_hir(struct pts_ctx *x, char *err, size_t errlen);
int pts_test_xsr(struct pts_ctx *x, char *err, size_t errlen);
int pts_test_di(struct pts_ctx *x, enum pts_test t, char *err, size_t errlen);

#endif
