/* test_hist.c - the latency histogram against exact, independently computed
 * answers: sorted data for percentiles, brute-force counts for ACT buckets,
 * hand-computed bucket layouts, and a two-pass mean/stddev. */
#include "check.h"

#include <math.h>
#include <stdint.h>

#include "result/result_hist.h"
#include "stats/hist.h"

#define NSAMP 1000000
#define TOP (UINT64_C(1) << 42)

/* ---- helpers ------------------------------------------------------------ */

struct rng { uint64_t x; };   /* splitmix64: plenty for test data */

static uint64_t rng_next(struct rng *r)
{
    uint64_t z = (r->x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static double rng_unit(struct rng *r)   /* (0, 1] */
{
    return ((double)(rng_next(r) >> 11) + 1.0) / 9007199254740992.0;
}

/* LSD radix sort, 16 bits per pass; qsort of 10^6 items is slow under ASan. */
static int sort_u64(uint64_t *a, uint64_t *tmp, size_t n)
{
    size_t *cnt = malloc(65536 * sizeof(*cnt));
    if (!cnt)
        return -1;
    for (int pass = 0; pass < 4; pass++) {
        int sh = pass * 16;
        memset(cnt, 0, 65536 * sizeof(*cnt));
        for (size_t i = 0; i < n; i++)
            cnt[(a[i] >> sh) & 0xffff]++;
        size_t pos = 0;
        for (size_t d = 0; d < 65536; d++) {
            size_t c = cnt[d];
            cnt[d] = pos;
            pos += c;
        }
        for (size_t i = 0; i < n; i++)
            tmp[cnt[(a[i] >> sh) & 0xffff]++] = a[i];
        memcpy(a, tmp, n * sizeof(*a));
    }
    free(cnt);
    return 0;
}

static const double default_pct[] = {1, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 99,
                                     99.5, 99.9, 99.95, 99.99, 99.999, 99.9999};
/* The same list in parts per million, so the exact rank is integer arithmetic. */
static const uint64_t default_ppm[] = {10000, 50000, 100000, 200000, 300000, 400000,
                                       500000, 600000, 700000, 800000, 900000, 950000,
                                       990000, 995000, 999000, 999500, 999900, 999990,
                                       999999};
#define NPCT (sizeof(default_pct) / sizeof(default_pct[0]))

static uint64_t exact_rank(uint64_t ppm, uint64_t n)   /* ceil(ppm * n / 1e6), >= 1 */
{
    uint64_t r = (ppm * n + 999999) / 1000000;
    return r ? r : 1;
}

static struct hist *hist_new(void)
{
    struct hist *h = malloc(sizeof(*h));
    if (h)
        hist_init(h);
    return h;
}

static int hist_equal(const struct hist *a, const struct hist *b)
{
    return memcmp(a, b, sizeof(*a)) == 0;
}

/* ---- layout ------------------------------------------------------------- */

TEST(bucket_bounds_contiguous)
{
    CHECK(HIST_NBUCKETS == 4608, "%u", (unsigned)HIST_NBUCKETS);
    CHECK(hist_bucket_lo(0) == 0, "%lu", (unsigned long)hist_bucket_lo(0));
    CHECK(hist_bucket_hi(HIST_NBUCKETS - 1) == TOP, "%lu",
          (unsigned long)hist_bucket_hi(HIST_NBUCKETS - 1));
    for (unsigned i = 0; i < HIST_NBUCKETS; i++) {
        uint64_t lo = hist_bucket_lo(i), hi = hist_bucket_hi(i), mid = hist_bucket_mid(i);
        CHECK(hi > lo, "bucket %u: [%lu,%lu)", i, (unsigned long)lo, (unsigned long)hi);
        if (i + 1 < HIST_NBUCKETS)
            CHECK(hist_bucket_lo(i + 1) == hi, "gap after bucket %u", i);
        CHECK(hist_index(lo) == i, "index(lo %lu) = %u, want %u", (unsigned long)lo,
              hist_index(lo), i);
        CHECK(hist_index(hi - 1) == i, "index(hi-1 %lu) = %u, want %u",
              (unsigned long)(hi - 1), hist_index(hi - 1), i);
        CHECK(mid >= lo && mid < hi, "mid of %u", i);
        if (lo < 256)
            CHECK(hi - lo == 1 && mid == lo, "bucket %u must be exact", i);
        else   /* midpoint within 1/256 of anything in the bucket */
            CHECK((hi - lo) * 128 <= lo && (mid - lo) * 256 <= lo, "bucket %u too wide", i);
    }
}

TEST(bucket_layout_by_hand)
{
    /* [256,512) has width 2, [512,1024) width 4, the top group width 2^34. */
    CHECK(hist_bucket_lo(256) == 256 && hist_bucket_hi(256) == 258, "256");
    CHECK(hist_bucket_lo(383) == 510 && hist_bucket_hi(383) == 512, "383");
    CHECK(hist_bucket_lo(384) == 512 && hist_bucket_hi(384) == 516, "384");
    CHECK(hist_bucket_mid(384) == 514, "mid 384 = %lu", (unsigned long)hist_bucket_mid(384));
    CHECK(hist_bucket_lo(4607) == (UINT64_C(255) << 34), "last lo");
    CHECK(hist_bucket_lo(4480) == (UINT64_C(1) << 41), "top group lo");
}

TEST(special_values)
{
    static const struct { uint64_t v; unsigned idx; } cases[] = {
        {0, 0}, {1, 1}, {127, 127}, {128, 128}, {255, 255}, {256, 256}, {257, 256},
        {258, 257}, {511, 383}, {512, 384}, {1000, 506}, /* [512,1024) in width 4: 384 + (1000-512)/4 */
        {TOP - 1, 4607}, {TOP, 4607}, {TOP + 12345, 4607}, {UINT64_MAX, 4607},
    };
    for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
        CHECK(hist_index(cases[i].v) == cases[i].idx, "index(%lu) = %u, want %u",
              (unsigned long)cases[i].v, hist_index(cases[i].v), cases[i].idx);

    struct hist *h = hist_new();
    CHECK(h, "oom");
    for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
        hist_add(h, cases[i].v);
    int ok = h->n == 15 && h->min == 0 && h->max == UINT64_MAX && h->counts[0] == 1 &&
             h->counts[256] == 2 && h->counts[4607] == 4 && h->ms_log2[31] == 1 &&
             h->ms_log2[23] == 3 && h->ms_log2[1] == 0 &&
             h->ms_log2[0] == 0;
    uint64_t p100 = hist_percentile(h, 100), p0 = hist_percentile(h, 0);
    free(h);
    CHECK(ok, "counters after adding the special values");
    CHECK(p0 == 0, "p0 = %lu", (unsigned long)p0);
    CHECK(p100 == (UINT64_C(255) << 34) + (UINT64_C(1) << 33), "p100 = %lu", (unsigned long)p100);
}

TEST(random_values_in_bounds)
{
    struct rng r = {7};
    for (int i = 0; i < 200000; i++) {
        uint64_t v = rng_next(&r) >> (rng_next(&r) % 42 + 22);   /* < 2^42, all scales */
        unsigned b = hist_index(v);
        CHECK(hist_bucket_lo(b) <= v && v < hist_bucket_hi(b), "v %lu bucket %u",
              (unsigned long)v, b);
    }
}

/* ---- percentiles -------------------------------------------------------- */

enum dist { UNIFORM, EXPONENTIAL, PARETO };

static uint64_t draw(struct rng *r, enum dist d)
{
    for (;;) {
        double x;
        switch (d) {
        case UNIFORM:     x = rng_unit(r) * 10e6; break;                  /* 0..10 ms */
        case EXPONENTIAL: x = -log(rng_unit(r)) * 100e3; break;           /* mean 100 us */
        default:          x = 20e3 / pow(rng_unit(r), 1.0 / 1.2); break;  /* alpha 1.2 */
        }
        if (x < 4e12)
            return (uint64_t)x;
    }
}

static void check_dist(int *check_failed_, enum dist d, const char *name)
{
    uint64_t *a = malloc(NSAMP * sizeof(*a)), *tmp = malloc(NSAMP * sizeof(*a));
    struct hist *h = hist_new();
    CHECK(a && tmp && h, "oom");
    struct rng r = {1000 + d};
    for (size_t i = 0; i < NSAMP; i++) {
        a[i] = draw(&r, d);
        hist_add(h, a[i]);
    }
    CHECK(sort_u64(a, tmp, NSAMP) == 0, "oom");
    uint64_t got[NPCT];
    hist_percentiles(h, default_pct, NPCT, got);
    double worst = 0;
    unsigned bad = NPCT;
    for (unsigned i = 0; i < NPCT; i++) {
        uint64_t want = a[exact_rank(default_ppm[i], NSAMP) - 1];
        double err = want ? fabs((double)got[i] - (double)want) / (double)want
                          : (got[i] ? 1.0 : 0.0);
        if (err > worst)
            worst = err;
        if (err > 0.005 || got[i] != hist_percentile(h, default_pct[i]))
            bad = i;
    }
    uint64_t mn = a[0], mx = a[NSAMP - 1];
    free(a), free(tmp);
    int minmax = h->min == mn && h->max == mx;
    free(h);
    CHECK(bad == NPCT, "%s: p%g off by more than 0.5%% (worst %.4f%%)", name,
          bad < NPCT ? default_pct[bad] : 0, worst * 100);
    CHECK(worst <= 1.0 / 256, "%s: worst error %.4f%% above the 1/256 bound", name, worst * 100);
    CHECK(minmax, "%s: min/max not exact", name);
}

TEST(percentiles_uniform) { check_dist(check_failed_, UNIFORM, "uniform"); }
TEST(percentiles_exponential) { check_dist(check_failed_, EXPONENTIAL, "exponential"); }
TEST(percentiles_pareto) { check_dist(check_failed_, PARETO, "pareto"); }

TEST(percentile_rank_rule)
{
    struct hist *h = hist_new();
    CHECK(h, "oom");
    for (int i = 0; i < 999; i++)
        hist_add(h, 10);
    hist_add(h, 200);
    /* rank(99.9) = 999 exactly: decimal 99.9 must not round up to 1000. */
    uint64_t p999 = hist_percentile(h, 99.9), p9995 = hist_percentile(h, 99.95);
    uint64_t p100 = hist_percentile(h, 100), p1 = hist_percentile(h, 1);
    double pcts[] = {100, 1, 99.95, 99.9};
    uint64_t out[4];
    hist_percentiles(h, pcts, 4, out);
    free(h);
    CHECK(p999 == 10, "p99.9 = %lu", (unsigned long)p999);
    CHECK(p9995 == 200, "p99.95 = %lu", (unsigned long)p9995);
    CHECK(p100 == 200 && p1 == 10, "p100 %lu p1 %lu", (unsigned long)p100, (unsigned long)p1);
    CHECK(out[0] == 200 && out[1] == 10 && out[2] == 200 && out[3] == 10, "unsorted list");
}

TEST(percentile_clamped_to_min_max)
{
    struct hist *h = hist_new();
    CHECK(h, "oom");
    hist_add(h, 1000001);   /* bucket [999424, 1003520): midpoint 1001472 above it */
    uint64_t p = hist_percentile(h, 50);
    hist_init(h);
    hist_add(h, 1003000);   /* same bucket, above the midpoint */
    uint64_t q = hist_percentile(h, 50);
    free(h);
    CHECK(p == 1000001, "single sample reported as %lu", (unsigned long)p);
    CHECK(q == 1003000, "single sample reported as %lu", (unsigned long)q);
}

TEST(empty_histogram)
{
    struct hist *h = hist_new();
    CHECK(h, "oom");
    uint64_t out[4] = {1, 1, 1, 1};
    int ok = hist_percentile(h, 50) == 0 && hist_mean(h) == 0 && hist_stddev(h) == 0 &&
             hist_frac_ge(h, 1000000) == 0 && hist_log2_buckets(h, 1000000, out, 4) == 0 &&
             out[0] == 0 && out[3] == 0 && h->min == UINT64_MAX && h->max == 0;
    free(h);
    CHECK(ok, "empty histogram answers");
}

/* ---- merge / sub -------------------------------------------------------- */

TEST(merge_equals_single)
{
    struct hist *all = hist_new(), *a = hist_new(), *b = hist_new();
    CHECK(all && a && b, "oom");
    struct rng r = {42};
    for (int i = 0; i < 200000; i++) {
        uint64_t v = draw(&r, (enum dist)(i % 3));
        hist_add(all, v);
        hist_add(i & 1 ? a : b, v);
    }
    hist_add(all, UINT64_MAX);
    hist_add(a, UINT64_MAX);
    hist_merge(a, b);
    int eq = hist_equal(a, all);
    free(all), free(a), free(b);
    CHECK(eq, "merged halves differ from the single histogram");
}

TEST(sub_inverts_merge)
{
    struct hist *a = hist_new(), *b = hist_new(), *m = hist_new(), *d = hist_new();
    CHECK(a && b && m && d, "oom");
    struct rng r = {5};
    for (int i = 0; i < 100000; i++)
        hist_add(a, draw(&r, PARETO));
    for (int i = 0; i < 100000; i++)
        hist_add(b, 3000 + draw(&r, EXPONENTIAL));
    hist_merge(m, a);
    hist_merge(m, b);
    hist_sub(d, m, a);
    int same = d->n == b->n && d->sum == b->sum && d->sumsq == b->sumsq &&
               !memcmp(d->counts, b->counts, sizeof(d->counts)) &&
               !memcmp(d->ms_log2, b->ms_log2, sizeof(d->ms_log2));
    /* min/max of a difference are bounds in the right bucket. */
    int bounds = d->min <= b->min && hist_index(d->min) == hist_index(b->min) &&
                 d->max >= b->max && hist_index(d->max) == hist_index(b->max);
    struct hist *e = hist_new(), *z = hist_new();
    CHECK(e && z, "oom");
    hist_sub(e, m, z);          /* minus an empty snapshot: identical */
    int ident = hist_equal(e, m);
    hist_sub(m, m, m);          /* aliasing, result empty */
    int empty = hist_equal(m, z);
    free(a); free(b); free(m); free(d); free(e); free(z);
    CHECK(same, "counts/n/sum/sumsq/ms_log2 of (a+b)-a differ from b");
    CHECK(bounds, "min/max of the difference outside b's buckets");
    CHECK(ident, "h - empty != h");
    CHECK(empty, "h - h is not empty");
}

/* ---- mean / stddev ------------------------------------------------------ */

TEST(mean_stddev_hand)
{
    struct hist *h = hist_new();
    CHECK(h, "oom");
    static const uint64_t v[] = {2, 4, 4, 4, 5, 5, 7, 9};
    for (unsigned i = 0; i < 8; i++)
        hist_add(h, v[i]);
    double m = hist_mean(h), s = hist_stddev(h);
    hist_init(h);
    /* Spread of 1 on a mean of 2^41: naive sumsq/n - mean^2 loses it entirely. */
    for (uint64_t i = 0; i < 3; i++)
        hist_add(h, (UINT64_C(1) << 41) + i);
    double s2 = hist_stddev(h), m2 = hist_mean(h);
    hist_init(h);
    hist_add(h, 77);
    double s1 = hist_stddev(h);
    hist_add(h, 78);        /* {77, 78}: sum^2/n = 155^2/2 is not an integer */
    double s01 = hist_stddev(h);
    free(h);
    CHECK(s01 == sqrt(0.5), "stddev of {77,78} = %.17g", s01);
    CHECK(m == 5.0, "mean %g", m);
    CHECK(fabs(s - sqrt(32.0 / 7.0)) < 1e-15, "stddev %.17g", s);
    CHECK(s2 == 1.0, "stddev of 2^41+{0,1,2} = %.17g", s2);
    CHECK(m2 == (double)((UINT64_C(1) << 41) + 1), "mean %.17g", m2);
    CHECK(s1 == 0.0, "n=1 stddev %g", s1);
}

TEST(mean_stddev_two_pass)
{
    struct hist *h = hist_new();
    uint64_t *a = malloc(NSAMP * sizeof(*a));
    CHECK(h && a, "oom");
    struct rng r = {99};
    for (size_t i = 0; i < NSAMP; i++) {
        a[i] = 5000000 + draw(&r, EXPONENTIAL);
        hist_add(h, a[i]);
    }
    double mean = 0, m2 = 0;
    for (size_t i = 0; i < NSAMP; i++)
        mean += (double)a[i] / NSAMP;
    for (size_t i = 0; i < NSAMP; i++)
        m2 += ((double)a[i] - mean) * ((double)a[i] - mean);
    double sd = sqrt(m2 / (NSAMP - 1));
    double gm = hist_mean(h), gs = hist_stddev(h);
    free(a), free(h);
    CHECK(fabs(gm - mean) <= 1e-9 * mean, "mean %.17g vs %.17g", gm, mean);
    CHECK(fabs(gs - sd) <= 1e-9 * sd, "stddev %.17g vs %.17g", gs, sd);
}

/* ---- ACT thresholds ----------------------------------------------------- */

/* Samples crowded around every power-of-two millisecond boundary. */
static size_t fill_ms_data(uint64_t *a, size_t cap, struct hist *h)
{
    struct rng r = {11};
    size_t n = 0;
    for (int k = 0; k <= 8; k++)
        for (int d = -3; d <= 3; d++)
            a[n++] = (UINT64_C(1000000) << k) + (uint64_t)(int64_t)d;
    a[n++] = 0;
    a[n++] = 999999;
    while (n < cap)
        a[n++] = (uint64_t)(-log(rng_unit(&r)) * 3e6);   /* mean 3 ms */
    for (size_t i = 0; i < n; i++)
        hist_add(h, a[i]);
    return n;
}

TEST(frac_ge_exact_at_ms)
{
    enum { N = 300000 };
    uint64_t *a = malloc(N * sizeof(*a));
    struct hist *h = hist_new();
    CHECK(a && h, "oom");
    size_t n = fill_ms_data(a, N, h);
    for (int k = 0; k <= 7; k++) {
        uint64_t thr = UINT64_C(1000000) << k, cnt = 0;
        for (size_t i = 0; i < n; i++)
            cnt += a[i] >= thr;
        double f = hist_frac_ge(h, thr);
        CHECK(llround(f * (double)n) == (long long)cnt && fabs(f - (double)cnt / n) < 1e-15,
              "frac >= %d ms: %.12f, brute force %.12f", 1 << k, f, (double)cnt / n);
    }
    /* Thresholds on bucket boundaries are exact too; others are off by at most
     * the straddling bucket's share. */
    static const uint64_t thr[] = {1, 100, 1000, 256000, 4096000, 1500000, 2999999, 7777777};
    for (unsigned t = 0; t < sizeof(thr) / sizeof(thr[0]); t++) {
        uint64_t cnt = 0, inb = 0;
        unsigned b = hist_index(thr[t]);
        for (size_t i = 0; i < n; i++) {
            cnt += a[i] >= thr[t];
            inb += hist_index(a[i]) == b;
        }
        double f = hist_frac_ge(h, thr[t]), want = (double)cnt / n;
        double tol = hist_bucket_lo(b) == thr[t] ? 1e-15 : (double)inb / n + 1e-15;
        CHECK(fabs(f - want) <= tol, "frac >= %lu ns: %.9f, brute force %.9f",
              (unsigned long)thr[t], f, want);
    }
    free(a), free(h);
}

TEST(frac_ge_interpolation_by_hand)
{
    struct hist *h = hist_new();
    CHECK(h, "oom");
    /* Both in bucket [999424, 1003520); the samples bound it to [1000500, 1003001). */
    hist_add(h, 1000500);
    hist_add(h, 1003000);
    double f = hist_frac_ge(h, 1002000);
    /* The open-ended last bucket is bounded by max alone: [2^42+1000, 2^42+3001). */
    hist_init(h);
    hist_add(h, TOP + 1000);
    hist_add(h, TOP + 3000);
    double g = hist_frac_ge(h, TOP + 2000), g0 = hist_frac_ge(h, TOP + 1000);
    double g1 = hist_frac_ge(h, TOP + 3001);
    free(h);
    CHECK(fabs(f - 1001.0 / 2501.0) < 1e-15, "frac %.17g", f);
    CHECK(fabs(g - 1001.0 / 2001.0) < 1e-15, "frac %.17g", g);
    CHECK(g0 == 1.0 && g1 == 0.0, "at min %g, above max %g", g0, g1);
}

/* ACT's bucketing: t = v / unit; 0 -> 0, else 1 + floor(log2 t), last open-ended. */
static void act_buckets(const uint64_t *a, size_t n, uint64_t unit, uint64_t *out, unsigned nout)
{
    memset(out, 0, nout * sizeof(*out));
    for (size_t i = 0; i < n; i++) {
        unsigned b = 0;
        for (uint64_t t = a[i] / unit; t; t >>= 1)
            b++;
        out[b < nout ? b : nout - 1]++;
    }
}

TEST(log2_buckets_ms_and_us)
{
    enum { N = 300000 };
    uint64_t *a = malloc(N * sizeof(*a));
    struct hist *h = hist_new();
    CHECK(a && h, "oom");
    size_t n = fill_ms_data(a, N, h);
    static const struct { uint64_t unit; unsigned nout; } cases[] = {
        {1000000, 32}, {1000000, 8}, {1000000, 40}, {1000, 40}, {1000, 12}, {1, 45},
    };
    for (unsigned c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
        uint64_t got[64], want[64];
        unsigned nout = cases[c].nout;
        unsigned used = hist_log2_buckets(h, cases[c].unit, got, nout);
        act_buckets(a, n, cases[c].unit, want, nout);
        unsigned wused = nout;
        while (wused && !want[wused - 1])
            wused--;
        CHECK(used == wused, "unit %lu nout %u: used %u, want %u",
              (unsigned long)cases[c].unit, nout, used, wused);
        for (unsigned i = 0; i < nout; i++)
            CHECK(got[i] == want[i], "unit %lu nout %u bucket %u: %lu, want %lu",
                  (unsigned long)cases[c].unit, nout, i, (unsigned long)got[i],
                  (unsigned long)want[i]);
    }
    /* A unit whose boundaries cut buckets: interpolated, still sums to n. */
    uint64_t got[24], want[24], sum = 0;
    hist_log2_buckets(h, 1500, got, 24);
    act_buckets(a, n, 1500, want, 24);
    for (unsigned i = 0; i < 24; i++) {
        sum += got[i];
        double tol = 0.01 * (double)want[i] + 60;   /* two straddled buckets, < 1% each */
        CHECK(fabs((double)got[i] - (double)want[i]) <= tol, "unit 1500 bucket %u: %lu vs %lu",
              i, (unsigned long)got[i], (unsigned long)want[i]);
    }
    free(a), free(h);
    CHECK(sum == n, "unit 1500 buckets sum to %lu, n %lu", (unsigned long)sum, (unsigned long)n);
}

/* ---- JSON --------------------------------------------------------------- */

static int roundtrip(const struct hist *h, struct hist *back, char **text)
{
    cJSON *j = result_hist_to_json(h);
    if (!j)
        return -1;
    *text = cJSON_PrintUnformatted(j);
    cJSON_Delete(j);
    cJSON *p = cJSON_Parse(*text);
    char err[256];
    int rc = p ? result_hist_from_json(p, back, err, sizeof(err)) : -1;
    if (rc)
        printf("round trip: %s\n", err);
    cJSON_Delete(p);
    return rc;
}

TEST(json_roundtrip)
{
    struct hist *h = hist_new(), *back = hist_new();
    CHECK(h && back, "oom");
    struct rng r = {3};
    for (int i = 0; i < 100000; i++)
        hist_add(h, draw(&r, (enum dist)(i % 3)));
    hist_add(h, 0);
    hist_add(h, TOP + 5);
    char *t1 = NULL, *t2 = NULL, *t3 = NULL;
    int rc1 = roundtrip(h, back, &t1), eq1 = hist_equal(h, back);

    /* Values past 2^53 must travel as strings. */
    hist_init(h);
    h->n = h->counts[5] = UINT64_C(1) << 60;
    h->sum = UINT64_C(5) << 60;
    h->sumsq = (unsigned __int128)25 << 60;
    h->min = h->max = 5;
    int rc2 = roundtrip(h, back, &t2), eq2 = hist_equal(h, back);
    int strs = t2 && strstr(t2, "\"n\":\"1152921504606846976\"") &&
               strstr(t2, "[5,\"1152921504606846976\"]") && strstr(t2, "\"max\":5,");

    hist_init(h);
    int rc3 = roundtrip(h, back, &t3), eq3 = hist_equal(h, back);
    free(h), free(back);
    CHECK(rc1 == 0 && eq1, "round trip of mixed samples");
    CHECK(rc2 == 0 && eq2, "round trip of 2^60 samples");
    CHECK(strs, "large values not written as strings: %.200s", t2 ? t2 : "(null)");
    CHECK(rc3 == 0 && eq3, "round trip of empty histogram: %s", t3 ? t3 : "(null)");
    free(t1), free(t2), free(t3);
}

#define GOOD "{\"sub_bucket_bits\":7,\"max_bits\":42,\"n\":3,\"sum\":6,\"sumsq\":\"14\"," \
             "\"min\":1,\"max\":3,\"ms_log2\":[[0,3]],\"buckets\":[[1,1],[2,1],[3,1]]}"

TEST(json_hand_written)
{
    cJSON *j = cJSON_Parse(GOOD);
    struct hist *h = hist_new();
    CHECK(j && h, "oom");
    char err[256] = "";
    int rc = result_hist_from_json(j, h, err, sizeof(err));
    cJSON_Delete(j);
    int ok = rc == 0 && h->n == 3 && hist_percentile(h, 50) == 2 && hist_mean(h) == 2.0 &&
             hist_stddev(h) == 1.0 && h->counts[2] == 1 && h->ms_log2[0] == 0;
    free(h);
    CHECK(ok, "hand-written histogram: rc %d %s", rc, err);
}

TEST(json_malformed_rejected)
{
    static const struct { const char *text, *msg; } bad[] = {
        {"[1,2]", "expected an object"},
        {"{\"max_bits\":42}", "missing \"sub_bucket_bits\""},
        {"{\"sub_bucket_bits\":6,\"max_bits\":42}", "\"sub_bucket_bits\" is 6"},
        {"{\"sub_bucket_bits\":7,\"max_bits\":34}", "\"max_bits\" is 34"},
        {"{\"sub_bucket_bits\":7,\"max_bits\":42,\"n\":3}", "missing \"sum\""},
        {"{\"sub_bucket_bits\":7,\"max_bits\":42,\"n\":-3}", "\"n\" is -3"},
        {"{\"sub_bucket_bits\":7,\"max_bits\":42,\"n\":1e20}", "\"n\" is 1e+20"},
        {"{\"sub_bucket_bits\":7,\"max_bits\":42,\"n\":\"+3\"}", "\"n\" is \"+3\""},
        {"{\"sub_bucket_bits\":7,\"max_bits\":42,\"n\":\"18446744073709551616\"}", "\"n\" is"},
        {"{\"sub_bucket_bits\":7,\"max_bits\":42,\"n\":2.5}", "\"n\" is 2.5"},
        {"{\"sub_bucket_bits\":7,\"max_bits\":42,\"n\":0,\"sum\":0,\"sumsq\":\"0\",\"min\":0,"
         "\"max\":0,\"ms_log2\":[],\"buckets\":[]}", "empty (n is 0) but"},
    };
    /* Variants of GOOD with one field broken. */
    static const struct { const char *from, *to, *msg; } edit[] = {
        {"[[1,1],[2,1],[3,1]]", "[[1,1],[2,1],[4608,1]]", "index 4608 out of range 0..4607"},
        {"[[1,1],[2,1],[3,1]]", "[[1,1],[2,1],[-1,1]]", "index -1 out of range"},
        {"[[1,1],[2,1],[3,1]]", "[[1,1],[2,1],[2.5,1]]", "index 2.5 out of range"},
        {"[[1,1],[2,1],[3,1]]", "[[1,1],[1,1],[3,1]]", "index 1 not above"},
        {"[[1,1],[2,1],[3,1]]", "[[1,1],[2,1],[3,\"x\"]]", "count \"x\""},
        {"[[1,1],[2,1],[3,1]]", "[[1,1],[2,1],[3,1,7]]", "buckets[2] is an array not of 2"},
        {"[[1,1],[2,1],[3,1]]", "[[1,1],[2,1],3]", "buckets[2] is 3"},
        {"[[1,1],[2,1],[3,1]]", "{}", "\"buckets\" is an object"},
        {"[[1,1],[2,1],[3,1]]", "[[1,1],[2,1],[3,2]]", "add up to 4, but n is 3"},
        {"[[0,3]]", "[[0,2]]", "ms_log2 counts add up to 2"},
        {"[[0,3]]", "[[0,3],[32,1]]", "index 32 out of range 0..31"},
        {"\"min\":1", "\"min\":2", "min 2 is not in the lowest"},
        {"\"max\":3", "\"max\":0", "above max"},
        {"\"sum\":6", "\"sum\":60", "sum 60 is outside"},
        {"\"sumsq\":\"14\"", "\"sumsq\":\"1x4\"", "\"sumsq\" is \"1x4\""},
    };
    struct hist *h = hist_new();
    CHECK(h, "oom");
    size_t nb = sizeof(bad) / sizeof(bad[0]), ne = sizeof(edit) / sizeof(edit[0]);
    for (size_t i = 0; i < nb + ne; i++) {
        char text[512];
        const char *msg;
        if (i < nb) {
            snprintf(text, sizeof(text), "%s", bad[i].text);
            msg = bad[i].msg;
        } else {
            const char *at = strstr(GOOD, edit[i - nb].from);
            CHECK(at, "edit %zu does not apply", i - nb);
            snprintf(text, sizeof(text), "%.*s%s%s", (int)(at - GOOD), GOOD, edit[i - nb].to,
                     at + strlen(edit[i - nb].from));
            msg = edit[i - nb].msg;
        }
        cJSON *j = cJSON_Parse(text);
        CHECK(j, "test text does not parse: %s", text);
        char err[256] = "";
        hist_add(h, 12345);   /* must be reset by the failed read */
        int rc = result_hist_from_json(j, h, err, sizeof(err));
        cJSON_Delete(j);
        int reset = h->n == 0 && h->counts[hist_index(12345)] == 0 && h->min == UINT64_MAX;
        if (rc == 0 || !strstr(err, msg) || strncmp(err, "histogram: ", 11) || strchr(err, '\n') ||
            !reset) {
            free(h);
            CHECK(0, "%s: rc %d, message \"%s\", want one containing \"%s\"", text, rc, err, msg);
        }
    }
    free(h);
}

CHECK_MAIN()
