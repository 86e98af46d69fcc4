/* hist.c - everything about the latency histogram except the per-I/O add,
 * which is inline in hist.h. Nothing here runs per I/O, so clarity wins over
 * speed; the readers still make a single pass over the 4608 counters. */
#include "stats/hist.h"

#include <math.h>
#include <string.h>

#define HIST_LAST (HIST_NBUCKETS - 1)
#define HIST_MS 1000000u

void hist_init(struct hist *h)
{
    memset(h, 0, sizeof(*h));
    h->min = UINT64_MAX;
}

void hist_merge(struct hist *dst, const struct hist *src)
{
    dst->n += src->n;
    dst->sum += src->sum;
    dst->sumsq += src->sumsq;
    if (src->min < dst->min)
        dst->min = src->min;
    if (src->max > dst->max)
        dst->max = src->max;
    for (unsigned i = 0; i < HIST_MS_BUCKETS; i++)
        dst->ms_log2[i] += src->ms_log2[i];
    for (unsigned i = 0; i < HIST_NBUCKETS; i++)
        dst->counts[i] += src->counts[i];
}

void hist_sub(struct hist *dst, const struct hist *later, const struct hist *earlier)
{
    /* Saved first because dst may alias either argument. */
    uint64_t lmin = later->min, lmax = later->max;

    dst->n = later->n - earlier->n;
    dst->sum = later->sum - earlier->sum;
    dst->sumsq = later->sumsq - earlier->sumsq;
    for (unsigned i = 0; i < HIST_MS_BUCKETS; i++)
        dst->ms_log2[i] = later->ms_log2[i] - earlier->ms_log2[i];
    unsigned first = HIST_NBUCKETS, last = 0;
    for (unsigned i = 0; i < HIST_NBUCKETS; i++) {
        dst->counts[i] = later->counts[i] - earlier->counts[i];
        if (dst->counts[i]) {
            if (first == HIST_NBUCKETS)
                first = i;
            last = i;
        }
    }
    if (dst->n == 0) {
        dst->min = UINT64_MAX;
        dst->max = 0;
        return;
    }
    if (first == HIST_NBUCKETS) {   /* counts disagree with n: keep the safe bounds */
        dst->min = lmin;
        dst->max = lmax;
        return;
    }
    uint64_t lo = hist_bucket_lo(first);
    uint64_t hi = last == HIST_LAST ? UINT64_MAX : hist_bucket_hi(last) - 1;
    dst->min = lo > lmin ? lo : lmin;
    dst->max = hi < lmax ? hi : lmax;
}

/* Index layout (see hist_index): idx >> 7 is 0 or 1 for the 256 unit-width
 * buckets [0,256); from 2 on, g = idx >> 7 covers [2^(g+6), 2^(g+7)) in
 * buckets of width 2^(g-1). */
static unsigned bucket_shift(unsigned idx)
{
    unsigned g = idx >> HIST_SUB_BITS;
    return g <= 1 ? 0 : g - 1;
}

uint64_t hist_bucket_lo(unsigned idx)
{
    if (idx > HIST_LAST)
        idx = HIST_LAST;
    unsigned s = bucket_shift(idx);
    if (s == 0)
        return idx;
    return (uint64_t)((idx & (HIST_SUB - 1)) + HIST_SUB) << s;
}

uint64_t hist_bucket_hi(unsigned idx)
{
    if (idx > HIST_LAST)
        idx = HIST_LAST;
    return hist_bucket_lo(idx) + (UINT64_C(1) << bucket_shift(idx));
}

uint64_t hist_bucket_mid(unsigned idx)
{
    if (idx > HIST_LAST)
        idx = HIST_LAST;
    unsigned s = bucket_shift(idx);
    return hist_bucket_lo(idx) + (s ? UINT64_C(1) << (s - 1) : 0);
}

double hist_mean(const struct hist *h)
{
    if (h->n == 0)
        return 0.0;
    return (double)((long double)h->sum / (long double)h->n);
}

double hist_stddev(const struct hist *h)
{
    if (h->n < 2)
        return 0.0;
    /* (n-1) var = sumsq - sum^2/n. sum^2 < 2^128 fits exactly; split sum^2/n
     * into quotient and remainder so the big subtraction is exact and only
     * the small result is rounded. */
    unsigned __int128 s2 = (unsigned __int128)h->sum * h->sum;
    unsigned __int128 q = s2 / h->n, r = s2 % h->n;
    if (h->sumsq < q)   /* impossible for real data (Cauchy-Schwarz) */
        return 0.0;
    long double m2 = (long double)(h->sumsq - q) - (long double)r / (long double)h->n;
    if (m2 <= 0)
        return 0.0;
    return (double)sqrtl(m2 / (long double)(h->n - 1));
}

/* Rank of a percentile under fio's rule, ceil(pct/100 * n). The tiny downward
 * nudge absorbs the binary representation of decimal percentiles: 99.9 is
 * stored as 99.900000000000006, which would otherwise turn the exact rank 999
 * of 1000 into 1000. */
static uint64_t pct_rank(double pct, uint64_t n)
{
    if (!(pct > 0.0))
        return 1;
    if (pct >= 100.0)
        return n;
    long double x = (long double)pct / 100.0L * (long double)n;
    x -= x * 1e-12L;
    long double c = ceill(x);
    if (c < 1.0L)
        return 1;
    if (c >= (long double)n)
        return n;
    return (uint64_t)c;
}

static uint64_t bucket_report(const struct hist *h, unsigned idx)
{
    uint64_t v = hist_bucket_mid(idx);
    if (v < h->min)
        v = h->min;
    if (v > h->max)
        v = h->max;
    return v;
}

uint64_t hist_percentile(const struct hist *h, double pct)
{
    uint64_t out = 0;
    hist_percentiles(h, &pct, 1, &out);
    return out;
}

/* Smallest rank among the requested percentiles that is above cum, or 0 when
 * every one is at or below cum. Ranks are recomputed rather than stored so the
 * list can be any length without allocation; the cost is O(npct) per distinct
 * rank, negligible next to the bucket walk. */
static uint64_t next_rank(const double *pct, unsigned npct, uint64_t n, uint64_t cum)
{
    uint64_t best = 0;
    for (unsigned i = 0; i < npct; i++) {
        uint64_t r = pct_rank(pct[i], n);
        if (r > cum && (best == 0 || r < best))
            best = r;
    }
    return best;
}

void hist_percentiles(const struct hist *h, const double *pct, unsigned npct, uint64_t *out)
{
    for (unsigned i = 0; i < npct; i++)
        out[i] = 0;
    if (h->n == 0 || npct == 0)
        return;
    uint64_t cum = 0;
    uint64_t target = next_rank(pct, npct, h->n, 0);
    for (unsigned b = 0; b < HIST_NBUCKETS && target; b++) {
        if (h->counts[b] == 0)
            continue;
        uint64_t prev = cum;
        cum += h->counts[b];
        if (cum < target)
            continue;
        uint64_t v = bucket_report(h, b);
        for (unsigned i = 0; i < npct; i++) {
            uint64_t r = pct_rank(pct[i], h->n);
            if (r > prev && r <= cum)
                out[i] = v;
        }
        target = next_rank(pct, npct, h->n, cum);
    }
    /* Counts summing to less than n (a torn or inconsistent histogram):
     * whatever is still unresolved lies above every bucket seen. */
    if (target) {
        for (unsigned i = 0; i < npct; i++)
            if (pct_rank(pct[i], h->n) > cum)
                out[i] = h->max;
    }
}

/* Threshold is 1e6 * 2^k ms with k small enough to be a boundary of ms_log2:
 * return k + 1 (the first ms bucket at or above it), else 0. */
static unsigned ms_boundary(uint64_t thr)
{
    if (thr == 0 || thr % HIST_MS)
        return 0;
    uint64_t q = thr / HIST_MS;
    if (q & (q - 1))
        return 0;
    unsigned k = (unsigned)__builtin_ctzll(q);
    return k + 1 < HIST_MS_BUCKETS ? k + 1 : 0;
}

/* Estimated number of samples >= thr; see hist_frac_ge for when it is exact. */
static long double count_ge(const struct hist *h, uint64_t thr)
{
    if (h->n == 0 || thr > h->max)
        return 0.0L;
    if (thr <= h->min)
        return (long double)h->n;
    unsigned msb = ms_boundary(thr);
    if (msb) {
        uint64_t c = 0;
        for (unsigned i = msb; i < HIST_MS_BUCKETS; i++)
            c += h->ms_log2[i];
        return (long double)c;
    }
    unsigned b = hist_index(thr);
    uint64_t above = 0;
    for (unsigned i = b + 1; i < HIST_NBUCKETS; i++)
        above += h->counts[i];
    /* The samples of bucket b lie in [lo, hi) and in [min, max]; the last
     * bucket is open-ended, so there only max bounds them. */
    long double lo = (long double)hist_bucket_lo(b);
    long double hi = b == HIST_LAST ? (long double)h->max + 1.0L
                                    : (long double)hist_bucket_hi(b);
    if ((long double)h->min > lo)
        lo = (long double)h->min;
    if ((long double)h->max + 1.0L < hi)
        hi = (long double)h->max + 1.0L;
    long double t = (long double)thr;
    if (t <= lo)
        return (long double)(above + h->counts[b]);
    return (long double)above + (long double)h->counts[b] * (hi - t) / (hi - lo);
}

double hist_frac_ge(const struct hist *h, uint64_t threshold_ns)
{
    if (h->n == 0)
        return 0.0;
    return (double)(count_ge(h, threshold_ns) / (long double)h->n);
}

static unsigned log2_used(const uint64_t *out, unsigned nout)
{
    unsigned used = 0;
    for (unsigned i = 0; i < nout; i++)
        if (out[i])
            used = i + 1;
    return used;
}

unsigned hist_log2_buckets(const struct hist *h, uint64_t unit_ns, uint64_t *out, unsigned nout)
{
    for (unsigned i = 0; i < nout; i++)
        out[i] = 0;
    if (nout == 0 || h->n == 0 || unit_ns == 0)
        return 0;

    if (unit_ns == HIST_MS) {
        uint64_t above0 = 0;
        for (unsigned i = 1; i < HIST_MS_BUCKETS; i++) {
            above0 += h->ms_log2[i];
            out[i < nout ? i : nout - 1] += h->ms_log2[i];
        }
        out[0] += h->n - above0;
        return log2_used(out, nout);
    }

    /* ge[j] = samples >= unit * 2^j, rounded, forced non-increasing so that
     * the differences below are never negative. */
    uint64_t prev = h->n;
    for (unsigned i = 0; i + 1 < nout; i++) {
        uint64_t g = 0;
        if (i < 64 && unit_ns <= (UINT64_MAX >> i)) {
            long double c = count_ge(h, unit_ns << i);
            g = (uint64_t)(c + 0.5L);
        }
        if (g > prev)
            g = prev;
        out[i] = prev - g;
        prev = g;
    }
    out[nout - 1] = prev;
    return log2_used(out, nout);
}
