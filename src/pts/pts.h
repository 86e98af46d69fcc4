/* pts.h - the SNIA Solid State Storage Performance Test Specification
 * (PTS 2.0.2, PTS-E 1.1, PTS-C 1.2) as `ssdbench pts`: its configuration,
 * the Enterprise and Client presets, each test's matrix of elements (block
 * size x read/write mix), the compliance check, and the steady-state
 * determination over one or several tracking variables.
 *
 * The steady-state rule itself is base/steady.h (STEADY_SNIA, the rule the
 * suite's preconditioning uses); struct pts_ss only holds one detector per
 * tracking variable and feeds them together (steady_feed_many), so all must
 * pass in the same window, as PTS 2.0 asks for the three IOPS variables.
 *
 * The run (pts_run.c): purge, WIPC, WDPC rounds to steady state (every
 * element of every round is a phase of the result document and a row of the
 * "pts" object), the measurement window, and each test's table. The text
 * and HTML reports (output/pts_text.c, output/html_pts.c) read only that
 * object and the phases it names. docs/pts.md says which reading of the
 * specification each choice follows.
 *
 * HIR, XSR and CBW/DIRTH run in pts_hir.c, pts_xsr.c and pts_ecw.c on the
 * same building blocks (pts_int.h); their configuration, the CBW composite,
 * the demand grid and the choice of the demand-intensity points are in
 * pts_more.c.
 */
#ifndef SSDBENCH_PTS_H
#define SSDBENCH_PTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <cjson/cJSON.h>

#include "base/steady.h"
#include "job/job.h"
#include "prep/prep_purge.h"
#include "target/guard.h"
#include "workload/plan.h"

enum pts_test {
    PTS_IOPS, PTS_TP, PTS_LAT, PTS_WSAT,
    /* the recovery and demand-intensity tests (pts_hir.c, pts_xsr.c, pts_ecw.c) */
    PTS_HIR, PTS_XSR, PTS_CBW, PTS_DIRTH,
    PTS_NTESTS
};
enum pts_preset { PTS_ENTERPRISE, PTS_CLIENT };

#define PTS_MAX_BS 8
#define PTS_MAX_MIX 7
#define PTS_MAX_ELEMENTS (PTS_MAX_BS * PTS_MAX_MIX)
#define PTS_MAX_TRACK 3
#define PTS_SPEC_ELEMENT_NS (60ull * 1000000000ull)   /* 1 min per element */
#define PTS_SPEC_WSAT_NS (24ull * 3600ull * 1000000000ull)
#define PTS_MIN_ELEMENT_NS (20ull * 1000000ull)       /* 20 ms: below this a rate is noise */
#define PTS_DI_MAX 7                                   /* TC (and QD) values of the demand grid */
#define PTS_SPEC_HIR_BURST_NS (5ull * 1000000000ull)
#define PTS_SPEC_HIR_REPS 360
#define PTS_SPEC_XSR_NS (8ull * 3600ull * 1000000000ull)

struct pts_cfg {
    char target[JOB_PATH_MAX];
    bool test[PTS_NTESTS];          /* which tests run, in enum order */
    enum pts_preset preset;
    double active_range_pct;        /* 0 = the preset's (E 100, C 75) */
    unsigned tc, qd;                /* 0 = the preset's (E 4/32, C 2/16) */
    uint64_t round_ns;              /* 0 = elements x 1 min */
    unsigned max_rounds;            /* 25 */
    double capacity_scale;          /* WIPC 2x and WSAT 4x capacity are scaled by this (1) */
    uint64_t wsat_ns;               /* WSAT time limit (24 h) */
    uint64_t wsat_sample_ns;        /* WSAT sample interval (1 min) */
    bool no_purge;
    enum engine_kind engine;
    /* ---- HIR, XSR, CBW/DIRTH (pts_hir.c, pts_xsr.c, pts_ecw.c) ---- */
    uint64_t hir_burst_ns;          /* HIR burst of RND 4 KiB W (5 s); waits are 1, 2, 3, 5, 10x it */
    unsigned hir_reps;              /* bursts per wait state; baseline = reps bursts' time (360) */
    uint64_t xsr_ns;                /* XSR AG1 and AG3 time (8 h); AG2 is 3/4 of it (6 h) */
    uint64_t xsr_sample_ns;         /* XSR sample interval (1 min) */
    unsigned di_ntc, di_nqd;        /* demand grid; 0 = the specification's 32 .. 1 */
    unsigned di_tc[PTS_DI_MAX], di_qd[PTS_DI_MAX];   /* descending */
    uint32_t dirth_bs;              /* DIRTH block size (8 KiB) */
    unsigned dirth_read_pct;        /* DIRTH read share (65) */
    /* purge, write cache and ActiveRange segmentation (pts_run.c, docs/pts.md) */
    enum rpurge_mode purge_mode;    /* auto: the device's erase where it has one */
    bool keep_write_cache;          /* leave the write cache as it is (not compliant if it differs) */
    uint64_t active_amount;         /* PTS-C ActiveRange Amount, bytes; 0 = no segmentation */
    unsigned segments;              /* ActiveRange segments (0 = 2048 with an amount) */
    char io_log[JOB_PATH_MAX];      /* prefix of per-phase fio latency logs with offsets; "" none */
};

#define PTS_SEGMENTS 2048               /* PTS-C: the ActiveRange Amount in 2048 segments */
#define PTS_SEGMENT_ALIGN (1u << 20)    /* segment starts and lengths: whole MiB (the largest
                                           block size, 1024 KiB, fits in one) */

/* One element of a round: block size and read share. */
struct pts_element {
    uint32_t bs;
    unsigned read_pct;
    bool seq;
    bool composite;                 /* CBW: the composite block-size mix and access zones */
    unsigned tc, qd;                /* demand-intensity points: this TC/QD (0 = the test's) */
};

/* A test's matrix and tracking variables (indexes into the elements). */
struct pts_matrix {
    enum pts_test test;
    unsigned nelements;
    struct pts_element el[PTS_MAX_ELEMENTS];
    unsigned ntrack;
    unsigned track[PTS_MAX_TRACK];
    enum steady_metric metric;      /* what the tracking variables are */
};

/* Defaults: all four tests, Enterprise, spec timing, scale 1. */
void pts_defaults(struct pts_cfg *c);

/* The values a run uses after the preset: active range, TC, QD; the write
 * cache state the preset asks for ("WCD" or "WCE"). */
double pts_active_range(const struct pts_cfg *c);
unsigned pts_tc(const struct pts_cfg *c);
unsigned pts_qd(const struct pts_cfg *c);
const char *pts_wc_required(const struct pts_cfg *c);

const char *pts_test_name(enum pts_test t);      /* iops, throughput, latency, wsat, hir ... */
const char *pts_test_title(enum pts_test t);     /* "IOPS", "Throughput" ... */
const char *pts_preset_name(enum pts_preset p);  /* enterprise, client */
/* A test by name (also "tp", "lat", "ecw"); -1 when unknown. */
int pts_test_parse(const char *s);

/* The matrix of test t; for PTS_TP the one block size bs (128 KiB or
 * 1024 KiB: read then write, both SEQ). */
void pts_matrix(enum pts_test t, uint32_t tp_bs, struct pts_matrix *m);

/* The time of one element: round_ns / elements, or 1 min. */
uint64_t pts_element_ns(const struct pts_cfg *c, const struct pts_matrix *m);

/* "4KiB", "0.5KiB", "1024KiB"; "65/35". */
void pts_bs_name(uint32_t bs, char *buf, size_t len);
void pts_mix_name(unsigned read_pct, char *buf, size_t len);

/* Checks the configuration (and the device's logical block against the
 * block sizes); 0 or -EINVAL with a one-line message. */
int pts_check(const struct pts_cfg *c, uint32_t logical_block, char *err, size_t errlen);

/* The reasons a run with c is not a compliant PTS run, as a JSON list of
 * strings (empty when compliant as far as the configuration goes); the run
 * adds what it learns (purge method, write cache state, SS not achieved). */
cJSON *pts_noncompliance(const struct pts_cfg *c, const bool *tests_run);
/* Appends one formatted reason (at most 255 bytes) to the list a. */
void pts_reason(cJSON *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* ---- steady state over the tracking variables --------------------------- */

struct pts_ss {
    unsigned n;
    struct steady det[PTS_MAX_TRACK];
    struct steady_cfg cfg;
    enum steady_state state;
};

/* n detectors with the SNIA rule (window 5, 20 %/10 %) and max_rounds. */
int pts_ss_init(struct pts_ss *s, unsigned n, enum steady_metric metric, unsigned max_rounds);
/* One round's tracking values (n of them); the answer for all. */
enum steady_state pts_ss_feed(struct pts_ss *s, const double *values);
/* Tracking variable i's report and its window values (oldest first). */
void pts_ss_report(const struct pts_ss *s, unsigned i, struct steady_report *r, double *win,
                   unsigned *nwin);

/* ---- HIR, XSR, CBW/DIRTH: configuration (pts_hir.c, pts_xsr.c, pts_ecw.c) -- */

/* The CBW composite (JESD219): block sizes and shares of I/Os, the access
 * zones (share of I/Os, share of the range), and the R/W mix 40/60. */
#define PTS_CBW_NBS 12
#define PTS_CBW_NZONES 3
#define PTS_CBW_READ_PCT 40
extern const uint32_t pts_cbw_bs[PTS_CBW_NBS];
extern const double pts_cbw_pct[PTS_CBW_NBS];
extern const double pts_cbw_zone[PTS_CBW_NZONES][2];
/* Sets j's block-size mix (both directions), blockalign 4 KiB and the
 * zoned access distribution to the CBW composite. */
void pts_cbw_apply(struct job_spec *j);

/* The demand grid of c: TC and QD values, descending (spec 32,16,8,6,4,2,1). */
unsigned pts_di_tcs(const struct pts_cfg *c, unsigned *tc);
unsigned pts_di_qds(const struct pts_cfg *c, unsigned *qd);
/* The demand-variation matrix of CBW or DIRTH: TC outer, QD inner, at the
 * test's mix; tracking = the first (largest TC and QD) point. */
void pts_di_matrix(const struct pts_cfg *c, enum pts_test t, struct pts_matrix *m);

/* The demand-intensity points: Max = the highest IOPS with ART below
 * art_limit_ns (none qualifies: the lowest ART, *max_ok false), Min = the
 * TC1/QD1 point (absent: the lowest TC x QD, then the lowest IOPS), Mid =
 * the point whose IOPS is nearest (Max + Min) / 2; ties go to the earlier
 * point. sel[0..2] = Max, Mid, Min. -EINVAL when n is 0. */
int pts_di_select(const double *iops, const double *art_ns, const unsigned *tc, const unsigned *qd,
                  unsigned n, double art_limit_ns, unsigned sel[3], bool *max_ok);

/* The checks and non-compliance reasons of these four tests, called by
 * pts_check and pts_noncompliance. */
int pts_more_check(const struct pts_cfg *c, uint32_t logical_block, char *err, size_t errlen);
void pts_more_noncompliance(const struct pts_cfg *c, const bool *tests_run, cJSON *reasons);

/* ---- the run ------------------------------------------------------------- */

typedef void (*pts_progress_fn)(void *arg, const char *line);

struct pts_run_opts {
    const struct guard_consent *consent;
    runner_status_fn status;
    /* the session's runner options every phase starts from (the run
     * journal, the ranks of a cluster run); may be NULL */
    const struct runner_opts *base;
    pts_progress_fn progress;
    void *arg;
};

/* Runs every selected test on c->target, filing phases and the "pts"
 * object in doc. Returns 0 (also when interrupted: st says so) or a
 * negative errno with a one-line message. */
int pts_run(const struct pts_cfg *c, cJSON *doc, const struct pts_run_opts *o,
            struct plan_status *st, char *err, size_t errlen);

#endif
