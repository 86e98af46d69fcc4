/* steady.h - steady-state detection, fed one value per round or interval.
 *
 * Two families of rules behind one API, because preconditioning, the SNIA PTS
 * tests and fio job files with steadystate= all ask the same question ("has
 * the tracking variable stopped moving?") with different definitions:
 *
 *  - STEADY_SNIA: the SNIA SSS PTS rule (PTS 2.0.2 s2.1.24, PTS-E 1.1). Over
 *    the last `window` rounds (5), both must hold:
 *      max - min            <= range_pct % (20) of the window average, and
 *      |slope| * (window-1) <= slope_pct % (10) of the window average,
 *    where slope is the least-squares fit of (round, value). The check starts
 *    once `window` rounds exist and the window is always the last `window`
 *    rounds (x-4 .. x). After `max_rounds` (25) without success the result is
 *    STEADY_NOT_REACHED and the report holds the last window (the "SS not
 *    achieved" case of the spec). The comparison is <= ("no more than").
 *
 *  - STEADY_DEVIATION / STEADY_SLOPE: fio's rolling rules (ss=iops:10%,
 *    ss=iops_slope:0.1%, and the bw/lat variants). A ring of `window`
 *    samples (ss_dur / ss_interval), checked after every sample once full:
 *      deviation: max |x - mean|            < limit  (or 100*dev/mean  < limit %)
 *      slope:     |least-squares slope|     < limit  (or 100*|slope|/mean < limit %)
 *    The slope is per sample, with no (window-1) factor, and the comparison
 *    is strict, both as fio does it. Samples inside the ramp are dropped
 *    through `skip`.
 *
 * The module never measures anything: the caller feeds the metric (IOPS,
 * bytes/s, or latency in ns) and owns the round length. `metric` only names
 * the metric and selects the unit of an absolute fio limit.
 *
 * Rounds are numbered from 1 in feeding order, not counting skipped values.
 * The fit is reported as y = slope * round + intercept with those numbers, so
 * a window plot can draw it directly over rounds window_first..window_last.
 *
 * Zero average: a window whose values are all exactly 0 passes every rule
 * (all excursions are exactly 0, so 0 <= 0 holds for SNIA; for the fio rules
 * the relative figures are defined as 0 and pass any limit > 0); the report
 * flags it with zero_avg so the caller can say the device delivered nothing.
 * A window averaging 0 that holds non-zero values (only possible with
 * negative input) never passes, and its relative figures are +infinity.
 * A NaN anywhere in the window makes it fail.
 *
 * Several tracking variables that must pass in the same window (PTS 2.0 IOPS
 * tracks three) are fed together with steady_feed_many().
 *
 * State is fixed-size (no heap); a struct steady is about 33 KiB, so keep it
 * in a longer-lived struct rather than on a small thread stack.
 */
#ifndef SSDBENCH_WORKLOAD_STEADY_H
#define SSDBENCH_WORKLOAD_STEADY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Largest window: one hour of 1 s samples fits (fio ss_dur=1h). */
#define STEADY_WINDOW_MAX 4096

enum steady_rule { STEADY_SNIA, STEADY_DEVIATION, STEADY_SLOPE };
enum steady_metric { STEADY_IOPS, STEADY_BW, STEADY_LAT };
enum steady_state { STEADY_CONTINUE, STEADY_REACHED, STEADY_NOT_REACHED };

struct steady_cfg {
    enum steady_rule rule;
    enum steady_metric metric;
    /* fio rules: the limit, in the metric's unit (IOPS, bytes/s, ns) or, when
     * limit_pct, in percent of the window mean. Unused by STEADY_SNIA. */
    double limit;
    bool limit_pct;
    unsigned window;       /* values per window, >= 2 */
    unsigned max_rounds;   /* give up after this many counted values; 0 = never */
    unsigned skip;         /* leading values ignored (fio ss_ramp) */
    double range_pct;      /* SNIA data excursion limit, % of average (20) */
    double slope_pct;      /* SNIA slope excursion limit, % of average (10) */
};

/* Figures of the last evaluated window. All zero until a window is full. */
struct steady_report {
    enum steady_state state;
    bool evaluated;          /* a full window has been checked at least once */
    bool reached;            /* state == STEADY_REACHED */
    bool passed;             /* the last evaluated window passed the rule */
    bool zero_avg;           /* the window average is exactly 0 */
    unsigned rounds;         /* values counted (after skip) */
    unsigned skipped;        /* values dropped by cfg.skip */
    unsigned window_first;   /* round numbers of the window, 0 when none */
    unsigned window_last;
    unsigned n;              /* values in the window */
    double avg, min, max;
    /* SNIA data excursion: range = max - min, measured and allowed */
    double range, range_pct, range_allowed;
    /* least-squares fit y = slope * round + intercept */
    double slope, intercept;
    /* SNIA slope excursion: |slope| * (n - 1), measured and allowed */
    double slope_excursion, slope_excursion_pct, slope_allowed;
    /* fio figures: max |x - avg|, and the slope relative to the average */
    double max_dev, max_dev_pct;
    double slope_pct;        /* 100 * |slope| / |avg| */
    /* fio rules: the figure compared with cfg.limit (max_dev, |slope|,
     * max_dev_pct or slope_pct); 0 for STEADY_SNIA, which has two */
    double criterion;
};

struct steady {
    struct steady_cfg cfg;
    bool valid;              /* steady_init accepted the configuration */
    enum steady_state state;
    unsigned rounds;
    unsigned skipped;
    unsigned head;           /* ring slot of the next value */
    struct steady_report last;
    double ring[STEADY_WINDOW_MAX];
};

/* SNIA PTS defaults: window 5, at most 25 rounds, 20 % range, 10 % slope. */
void steady_snia_defaults(struct steady_cfg *c);

/* fio's default when only ss_dur is given: iops_slope:0.01%. The window is
 * left 0 (invalid) until steady_fio_window() sets it and the skip. */
void steady_fio_defaults(struct steady_cfg *c);

/* Parses the value of fio's steadystate= / ss= option into rule, metric and
 * limit (other fields untouched):
 *   iops:10%   iops:2000        IOPS, % of mean or absolute
 *   bw:5%      bw:2000000 bw:2M bytes/s; k/m/g/t suffixes are binary (1024),
 *                               fio's default kb_base; an optional i/b/ib is
 *                               accepted (2MiB, 2MB both mean 2 * 1024^2)
 *   lat:5%     lat:500us        latency in ns; suffixes ns, us, ms, s; a bare
 *                               number is microseconds, as fio reads it
 *   iops_slope:0.1%  bw_slope:...  lat_slope:...   the slope rule
 * Names are case-insensitive, blanks around the parts are ignored. Returns 0,
 * or -EINVAL with a one-line message naming the bad value in err. */
int steady_parse_fio(const char *s, struct steady_cfg *c, char *err, size_t errlen);

/* Sets window = dur / interval (truncated, as fio does) and skip = the number
 * of samples that overlap the ramp, ceil(ramp / interval): fio starts
 * collecting one interval after ss_ramp. Returns 0 or -EINVAL with a message
 * when the interval is 0, the window is under 2 samples or over
 * STEADY_WINDOW_MAX. */
int steady_fio_window(struct steady_cfg *c, uint64_t dur_ns, uint64_t ramp_ns,
                      uint64_t interval_ns, char *err, size_t errlen);

/* Checks a configuration; 0 or -EINVAL with a one-line message. */
int steady_cfg_check(const struct steady_cfg *c, char *err, size_t errlen);

/* Resets the detector. Returns 0, or -EINVAL for a configuration that
 * steady_cfg_check() rejects; such a detector answers STEADY_NOT_REACHED. */
int steady_init(struct steady *s, const struct steady_cfg *c);

/* Feeds the value of the round that just ended. The answer is final once it
 * is not STEADY_CONTINUE: later values are ignored and the report keeps the
 * deciding window. */
enum steady_state steady_feed(struct steady *s, double value);

/* Feeds one value to each of n detectors (values[i] to s[i]) that must all
 * pass in the same window: REACHED only when every one passes this round,
 * NOT_REACHED as soon as any has used its max_rounds. The answer is applied
 * to all n detectors. */
enum steady_state steady_feed_many(struct steady *const *s, const double *values,
                                   unsigned n);

/* Figures of the last evaluated window, also when the state is not reached. */
void steady_get_report(const struct steady *s, struct steady_report *r);

/* Copies the current window, oldest first, into out (at most cap values);
 * returns how many were copied. For plots and fio-style JSON data arrays. */
unsigned steady_window_values(const struct steady *s, double *out, unsigned cap);

/* Criterion text that steady_parse_fio() reads back, e.g. "iops_slope:0.1%",
 * "lat:500000ns"; "snia:20%/10%" for the SNIA rule. Returns what snprintf
 * returns. */
int steady_format(const struct steady_cfg *c, char *buf, size_t len);

const char *steady_rule_name(enum steady_rule r);      /* snia, deviation, slope */
const char *steady_metric_name(enum steady_metric m);  /* iops, bw, lat */
const char *steady_state_name(enum steady_state st);   /* continue, reached, not_reached */

#endif
