/* hist.h - the latency histogram every measurement in ssdbench goes through.
 *
 * Log-linear layout (as in fio and HdrHistogram): values below 2^HIST_SUB_BITS
 * get one bucket each (exact); above that, each power of two [2^m, 2^(m+1)) is
 * split into HIST_SUB equal sub-buckets of width 2^(m-7). Reporting a bucket's
 * midpoint is therefore within 1/256 (0.39%) of any value in it, from 1 ns to
 * 2^42 ns (~73 min) in 4608 fixed counters (36 KiB). Larger values share the
 * last bucket; min/max stay exact for them.
 *
 * Alongside the buckets we keep what the buckets cannot give exactly: n, sum,
 * sum of squares, min and max (so mean/stddev are exact), and ACT's log2
 * millisecond buckets. The latter exist because ACT's thresholds (2^k ms =
 * 2^(k+6) * 15625 ns) never fall on a log-linear bucket boundary, and the
 * "% over 1/8/64 ms" verdict must be exact, not interpolated.
 *
 * Merging is plain addition, so per-thread histograms are combined at interval
 * ends without locks. A struct hist is written by one thread only.
 */
#ifndef SSDBENCH_STATS_HIST_H
#define SSDBENCH_STATS_HIST_H

#include <stdint.h>

#define HIST_SUB_BITS 7                 /* 128 linear sub-buckets per power of two */
#define HIST_SUB (1u << HIST_SUB_BITS)
#define HIST_MAX_BITS 42                /* values >= 2^42 ns (~73 min) go to the last bucket */
#define HIST_NBUCKETS ((HIST_MAX_BITS - HIST_SUB_BITS + 1) * HIST_SUB)   /* 4608 */
#define HIST_MS_BUCKETS 32              /* exact ACT-style log2 millisecond buckets */

struct hist {
    uint64_t n;                 /* samples */
    uint64_t sum;               /* exact sum of values (ns) */
    unsigned __int128 sumsq;    /* exact sum of squares */
    uint64_t min, max;          /* exact; min = UINT64_MAX when empty */
    /* Exact counts by ACT bucket of floor(v / 1e6) ms: index i >= 1 holds
     * [2^(i-1), 2^i) ms, the last bucket is open-ended. Index 0 ([0,1) ms) is
     * NOT maintained: hist_add skips sub-millisecond samples to keep the hot
     * path free of a second store, so ms_log2[0] stays 0 and the count is
     * n - sum(ms_log2[1..]). Read the buckets through hist_log2_buckets(). */
    uint64_t ms_log2[HIST_MS_BUCKETS];
    uint64_t counts[HIST_NBUCKETS];
};

/* Bucket of a value. One clz and a shift; the only branch is the rare
 * overflow past 2^42 ns. OR-ing in HIST_SUB makes every value below 256 take
 * shift 0, which gives the 256 unit-width buckets at the bottom without a
 * separate branch. */
static inline unsigned hist_index(uint64_t v)
{
    if (__builtin_expect(v >= (UINT64_C(1) << HIST_MAX_BITS), 0))
        return HIST_NBUCKETS - 1;
    unsigned shift = (unsigned)(63 - __builtin_clzll(v | HIST_SUB)) - HIST_SUB_BITS;
    return (shift << HIST_SUB_BITS) + (unsigned)(v >> shift);
}

/* Hot path, once per I/O. The division by 1e6 is a multiply by constant and
 * only runs for samples of a millisecond or more. */
static inline void hist_add(struct hist *h, uint64_t v)
{
    h->n++;
    h->sum += v;
    h->sumsq += (unsigned __int128)v * v;
    if (v < h->min)
        h->min = v;
    if (v > h->max)
        h->max = v;
    h->counts[hist_index(v)]++;
    if (__builtin_expect(v >= 1000000, 0)) {
        unsigned b = (unsigned)(64 - __builtin_clzll(v / 1000000));
        h->ms_log2[b < HIST_MS_BUCKETS ? b : HIST_MS_BUCKETS - 1]++;
    }
}

void     hist_init(struct hist *h);
void     hist_merge(struct hist *dst, const struct hist *src);

/* dst = later - earlier, where both are snapshots of one cumulative histogram
 * (every count in earlier <= the same count in later). n, sum, sumsq and all
 * counts are exact. min/max of the difference cannot be known exactly; they
 * are the bounds of the lowest/highest non-empty bucket, tightened by
 * later's exact min/max (the difference is a subset of later's samples).
 * dst may alias later or earlier. */
void     hist_sub(struct hist *dst, const struct hist *later, const struct hist *earlier);

/* Bucket bounds in ns: [lo, hi). The last bucket's hi is 2^42, but it also
 * holds every larger value (see hist_index). mid is what percentiles report:
 * the value itself for unit-width buckets, else lo + width/2. */
uint64_t hist_bucket_lo(unsigned idx);
uint64_t hist_bucket_hi(unsigned idx);
uint64_t hist_bucket_mid(unsigned idx);

double   hist_mean(const struct hist *h);      /* exact sum / n; 0 when empty */
/* Sample standard deviation (n-1). Computed as sqrt((sumsq - sum^2/n)/(n-1))
 * with the subtraction done in 128-bit integers, so there is no catastrophic
 * cancellation even when the spread is tiny next to the mean. 0 for n < 2. */
double   hist_stddev(const struct hist *h);

/* fio's rule: rank = ceil(pct/100 * n) (at least 1), report the midpoint of
 * the first bucket whose cumulative count reaches rank, clamped to [min, max].
 * No interpolation. 0 when empty. The rank is that of the decimal pct (99.9 of
 * 1000 samples is rank 999), where fio's double arithmetic can give 1000. */
uint64_t hist_percentile(const struct hist *h, double pct);
/* The same for a list of percentiles in any order, in one pass over the
 * buckets; out[i] belongs to pct[i]. */
void     hist_percentiles(const struct hist *h, const double *pct, unsigned npct, uint64_t *out);

/* Fraction of samples >= threshold_ns. Exact when the threshold is 1e6 * 2^k
 * (ACT's "% over 2^k ms", from ms_log2), on a bucket boundary (which includes
 * every value below 256 ns and every 2^k us), at or below min, or above max.
 * Otherwise the straddling bucket is split by linear interpolation, so the
 * error is at most that one bucket's share of the samples. 0 when empty. */
double   hist_frac_ge(const struct hist *h, uint64_t threshold_ns);

/* ACT-style log2 buckets in a unit (1000000 = ms, 1000 = us): out[0] counts
 * [0,1) unit, out[i] counts [2^(i-1), 2^i) units, and out[nout-1] also takes
 * everything above. Returns the number of entries filled = index of the highest
 * non-empty bucket + 1 (0 when empty); entries past it are set to 0.
 *
 * Error: exact for unit 1e6 (from ms_log2; with nout > 32, out[31] is
 * open-ended). For other units the counts come from the log-linear buckets:
 * a boundary 2^j * unit lands on a bucket boundary, hence is exact, whenever
 * the odd part of unit is below 256 (1 ns, 1 us = 2^3 * 125 ns, any power of
 * two). Otherwise each boundary cuts one bucket, whose count is split by
 * linear interpolation and rounded; at most that bucket's count moves to
 * a neighbour, and the entries always sum to n. */
unsigned hist_log2_buckets(const struct hist *h, uint64_t unit_ns, uint64_t *out, unsigned nout);

#endif
