/* dist.h - random offset distributions (fio's random_distribution) for the
 * I/O generators.
 *
 * Every non-uniform distribution is reduced at init to one shape: a table of
 * buckets (contiguous block ranges) with exact probabilities, sampled with
 * Walker's alias method (one 64-bit random number picks the bucket in O(1)),
 * then a block uniformly inside the bucket. A draw is two or three xoshiro
 * steps, one table load and no floating point; the table is bounded
 * (DIST_MAX_BUCKETS) whatever the region size.
 *
 *  zoned   buckets are the zones themselves, so shares are exact.
 *  normal  equal-width buckets (at most 1/64 sigma or 1/8192 of the range)
 *          centred in the middle; the curve is folded (reflected) at both
 *          ends rather than clamped, so no end block collects a spike. A sigma
 *          above 400% of the range is flat to within 1e-30 and is drawn
 *          uniformly.
 *  zipf    theta > 0 (1.0 included, unlike fio). Rank k (0-based) has
 *          probability (k+1)^-theta / H(n, theta), as fio's zipf intends (fio
 *          itself uses Gray's fast approximation, which is off by several
 *          percent beyond the first two ranks). The 1024 hottest ranks are
 *          one bucket each, so their probabilities are exact; beyond that,
 *          buckets cover ranks [r, r*rho) with rho = 1 + 1/(64*max(1,theta))
 *          and carry their exact total probability (direct sums for narrow
 *          buckets, Euler-Maclaurin to ~1e-12 for wide ones). Ranks inside a
 *          bucket are drawn uniformly, so any single rank's probability is
 *          within rho^theta - 1 (1/64, 1.6%) of the formula, and the share of
 *          the hottest x% of blocks is exact to within one bucket's mass. A
 *          2^28-block region needs ~1,900 buckets (~46 KiB) at theta 1.2.
 *  pareto  fio's pareto:h: rank = floor(n * u^p), p = ln(h)/ln(1-h) (fio
 *          scales by n-1), so P(rank < k) = (k/n)^(1/p): the hottest 20% of
 *          blocks take 80% of I/Os at h = 0.2. Same bucket scheme as zipf,
 *          with rho set from the density exponent 1/p - 1; for h > 0.5 on
 *          huge regions the bucket cap widens rho (h = 0.9 over 2^40 blocks:
 *          15k buckets, per-block error 3%). d->spread reports the bound.
 *
 * Zipf and pareto ranks are spread over the range by a keyed bijection
 * (multiply/xorshift rounds on the next power of two, cycle-walked into
 * [0, n)): hot blocks are scattered, every block has exactly one rank (fio's
 * hash-then-modulo lets ranks collide), and the same key gives the same hot
 * set, so all workers of a job can share one.
 */
#ifndef SSDBENCH_DIST_H
#define SSDBENCH_DIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/rng.h"
#include "job/job.h"

#define DIST_EXACT_RANKS 1024u
#define DIST_MAX_BUCKETS 16384u

struct dist_slot {
    uint64_t thresh; /* take this bucket if the 64-bit fraction is below */
    uint32_t alias;  /* else this one */
    uint32_t pad;
};

struct dist {
    enum job_dist kind;
    bool permute;            /* zipf, pareto: ranks -> scattered blocks */
    unsigned m;              /* buckets; 0 for uniform */
    uint64_t n;              /* blocks in the space */
    uint64_t *start;         /* m + 1 bucket bounds, start[m] == n */
    struct dist_slot *slot;  /* m alias slots (same allocation as start) */
    double spread;           /* per-block probability error inside a bucket, relative
                                (worst case; normal: at 3 sigma) */
    unsigned perm_shift;
    uint64_t perm_mask, perm_key0, perm_key1;
};

/* Checks a distribution's parameters without a region (for parsers):
 * 0 or -EINVAL with a one-line message naming the bad value. */
int dist_validate(const struct job_distribution *spec, char *err, size_t errlen);

/* Builds the table for n blocks (n >= 1). key picks the zipf/pareto hot-set
 * placement. Allocates once; 0 or -EINVAL / -ENOMEM with a message. */
int dist_init(struct dist *d, const struct job_distribution *spec, uint64_t n, uint64_t key,
              char *err, size_t errlen);
void dist_free(struct dist *d);

/* One round of the rank scrambler: a bijection of [0, 2^bits). */
static inline uint64_t dist_mix(const struct dist *d, uint64_t x)
{
    const uint64_t mask = d->perm_mask;
    const unsigned s = d->perm_shift;
    x = ((x ^ d->perm_key0) * 0xbf58476d1ce4e5b9ULL) & mask;
    x ^= x >> s;
    x = ((x + d->perm_key1) * 0x94d049bb133111ebULL) & mask;
    x ^= x >> s;
    x = (x * 0x9e3779b97f4a7c15ULL) & mask;
    x ^= x >> s;
    return x;
}

/* Block holding a given rank (0 = hottest); a bijection of [0, n). The
 * power-of-two domain is < 2n, so the walk takes < 2 rounds on average. */
static inline uint64_t dist_permute(const struct dist *d, uint64_t rank)
{
    uint64_t x = rank;
    do
        x = dist_mix(d, x);
    while (x >= d->n);
    return x;
}

/* A draw before the zipf/pareto scatter: the rank (or, for normal and zoned,
 * the block itself). */
static inline uint64_t dist_next_rank(const struct dist *d, struct rng *r)
{
    if (d->m == 0)
        return rng_below(r, d->n);
    unsigned __int128 p = (unsigned __int128)rng_next(r) * d->m;
    uint32_t i = (uint32_t)(p >> 64);
    uint32_t j = (uint64_t)p < d->slot[i].thresh ? i : d->slot[i].alias;
    uint64_t a = d->start[j];
    uint64_t w = d->start[j + 1] - a;
    return w > 1 ? a + rng_below(r, w) : a;
}

/* A block in [0, n). */
static inline uint64_t dist_next(const struct dist *d, struct rng *r)
{
    uint64_t b = dist_next_rank(d, r);
    return d->permute ? dist_permute(d, b) : b;
}

/* sum_{k=a}^{b} k^-theta (0 when b < a): the zipf bucket masses. Direct for
 * short ranges, Euler-Maclaurin (relative error ~1e-13) for long ones. */
double dist_zipf_sum(uint64_t a, uint64_t b, double theta);

/* "uniform", "zipf", "pareto", "normal", "zoned". */
const char *dist_name(enum job_dist kind);

#endif
