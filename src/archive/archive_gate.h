/* archive_gate.h - the regression gate's arithmetic (`ssdbench check`,
 * docs/archive.md): one figure of a new result against the same figure's
 * history, with the run-to-run noise estimated from that history.
 *
 * The centre is the median of the history; the noise is its median absolute
 * deviation scaled to a standard deviation (1.4826 x MAD, which a single
 * outlier run does not move). A figure regressed when it is worse than the
 * median by more than the bound = max(sigmas x noise, min_rel x |median|):
 * lower for throughput, higher for latency. The relative floor keeps a
 * history of identical values (MAD 0) from calling every wobble a change.
 * Pure code: no I/O, no allocation. */
#ifndef SSDBENCH_ARCHIVE_GATE_H
#define SSDBENCH_ARCHIVE_GATE_H

#include <stdbool.h>
#include <stddef.h>

#define ARCHIVE_GATE_MAX_HISTORY 1000
#define ARCHIVE_GATE_SIGMAS 3.0
#define ARCHIVE_GATE_MIN_REL 0.01

struct archive_gate_opts {
    double sigmas;          /* bound in noise units (default 3) */
    double min_rel;         /* smallest bound as a share of the median (default 0.01) */
};

enum archive_gate_verdict { ARCHIVE_GATE_WITHIN, ARCHIVE_GATE_REGRESSED, ARCHIVE_GATE_IMPROVED };

struct archive_gate {
    size_t n;               /* history values used */
    double median, mad;     /* of the history */
    double noise;           /* 1.4826 x mad */
    double bound;           /* allowed distance from the median */
    double limit;           /* the worst value still within: median -/+ bound */
    enum archive_gate_verdict verdict;
};

/* hist[0..n) (1 <= n <= ARCHIVE_GATE_MAX_HISTORY; not modified) against now.
 * higher_better: throughput (true) or latency (false). */
void archive_gate_eval(const double *hist, size_t n, double now, bool higher_better,
                       const struct archive_gate_opts *o, struct archive_gate *g);

/* The median of v[0..n) (n >= 1; v is sorted in place). */
double archive_median(double *v, size_t n);

#endif
