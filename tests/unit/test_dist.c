/* test_dist.c - the random offset distributions (dist.h), through the
 * generator: zoned shares, zipf shares against the formula computed here by
 * plain summation, pareto's 80/20 point, normal sigma bands, the hot-set
 * scatter and the table size bounds. Fixed seeds; statistical bounds at >= 4.5
 * standard deviations. */
#include "check.h"
#include "testjob.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>

#include "base/rng.h"
#include "job/dist.h"
#include "job/gen.h"
#include "job/job.h"

#define KiB 1024ULL
#define MiB (1024ULL * KiB)
#define GiB (1024ULL * MiB)
#define NDRAW 1000000

TEST(zoned_shares_and_bounds)
{
    struct job_spec j = mkjob(RW_RANDRW);
    j.rwmixread = 40;
    set_bssplit(&j, DIR_READ, "512/4:1k/1:1536/1:2k/1:2560/1:3k/1:3584/1:4k/67:8k/10:16k/7:32k/3:64k/3");
    j.bs[DIR_WRITE] = j.bs[DIR_READ];
    j.blockalign[DIR_READ] = j.blockalign[DIR_WRITE] = 4096;
    j.dist.kind = DIST_ZONED;
    j.dist.nzones = 3;
    j.dist.zones[0] = (struct job_zone){50, 5};
    j.dist.zones[1] = (struct job_zone){30, 15};
    j.dist.zones[2] = (struct job_zone){20, 80};
    struct gen g;
    char err[256];
    uint64_t R = 100 * 4 * MiB; /* 102400 blocks: zone bounds at 5120 and 20480 blocks */
    CHECK(gen_init(&g, &j, R, 21, err, sizeof(err)) == 0, "%s", err);
    CHECK(g.dist_shared, "reads and writes should share one table");
    uint64_t z1 = 5120 * 4096ULL, z2 = 20480 * 4096ULL;
    unsigned cnt[3] = {0};
    for (int i = 0; i < NDRAW; i++) {
        struct gen_io io;
        gen_next(&g, &io);
        CHECK(io.off % 4096 == 0 && io.off + io.len <= R, "off %llu len %u",
              (unsigned long long)io.off, io.len);
        cnt[io.off < z1 ? 0 : io.off < z2 ? 1 : 2]++;
    }
    const double want[3] = {0.5, 0.3, 0.2};
    for (int z = 0; z < 3; z++) {
        double f = cnt[z] / (double)NDRAW;
        CHECK(fabs(f - want[z]) <= 0.01 * want[z], "zone %d share %.5f, want %.2f", z, f, want[z]);
    }
    gen_free(&g);

    /* a zone with no access is never touched */
    j = mkjob(RW_RANDREAD);
    j.dist.kind = DIST_ZONED;
    j.dist.nzones = 3;
    j.dist.zones[0] = (struct job_zone){50, 25};
    j.dist.zones[1] = (struct job_zone){0, 50};
    j.dist.zones[2] = (struct job_zone){50, 25};
    CHECK(gen_init(&g, &j, 400 * KiB, 21, err, sizeof(err)) == 0, "%s", err);
    for (int i = 0; i < 100000; i++) {
        struct gen_io io;
        gen_next(&g, &io);
        CHECK(io.off < 100 * KiB || io.off >= 300 * KiB, "off %llu in the idle zone",
              (unsigned long long)io.off);
    }
    gen_free(&g);
}

/* sum_{k=a}^{b} k^-theta by plain summation (the test's own reference) */
static double zsum(uint64_t a, uint64_t b, double theta)
{
    double s = 0;
    for (uint64_t k = b; k >= a; k--)
        s += pow((double)k, -theta);
    return s;
}

static int check_zipf(double theta, char *why, size_t whylen)
{
    const uint64_t n = 1ULL << 20;
    struct job_spec j = mkjob(RW_RANDREAD);
    j.dist.kind = DIST_ZIPF;
    j.dist.param = theta;
    struct gen g;
    char err[160];
    if (gen_init(&g, &j, n * 4096, 31, err, sizeof(err))) {
        snprintf(why, whylen, "init: %s", err);
        return 0;
    }
    const struct dist *d = &g.dir[DIR_READ].dist;
    /* rank of every block: the scatter must be a bijection */
    uint32_t *rank = malloc(n * sizeof(uint32_t));
    memset(rank, 0xff, n * sizeof(uint32_t));
    for (uint64_t r = 0; r < n; r++) {
        uint64_t b = dist_permute(d, r);
        if (b >= n || rank[b] != UINT32_MAX) {
            snprintf(why, whylen, "rank %llu -> block %llu twice or out of range",
                     (unsigned long long)r, (unsigned long long)b);
            free(rank);
            gen_free(&g);
            return 0;
        }
        rank[b] = (uint32_t)r;
    }
    const uint64_t hot = n / 100, lo = 2000, hi = 6000, emlo = 50000, emhi = 500000;
    unsigned c_hot = 0, c_top = 0, c_band = 0, c_em = 0;
    for (int i = 0; i < NDRAW; i++) {
        struct gen_io io;
        gen_next(&g, &io);
        uint32_t r = rank[io.off / 4096];
        c_hot += r < hot;
        c_top += r == 0;
        c_band += r >= lo && r < hi;
        c_em += r >= emlo && r < emhi;
    }
    free(rank);
    gen_free(&g);
    double H = zsum(1, n, theta);
    struct {
        const char *what;
        unsigned count;
        double p;
    } t[4] = {
        {"hottest 1%", c_hot, zsum(1, hot, theta) / H},
        {"hottest block", c_top, 1 / H},
        {"ranks 2000-5999", c_band, zsum(lo + 1, hi, theta) / H},
        {"ranks 50000-499999", c_em, zsum(emlo + 1, emhi, theta) / H},
    };
    for (int k = 0; k < 4; k++) {
        double f = t[k].count / (double)NDRAW;
        double tol = 4.5 * sqrt(t[k].p * (1 - t[k].p) / NDRAW) + 1e-4;
        if (fabs(f - t[k].p) > tol) {
            snprintf(why, whylen, "theta %g %s: share %.5f, formula %.5f +- %.5f", theta,
                     t[k].what, f, t[k].p, tol);
            return 0;
        }
    }
    return 1;
}

TEST(zipf_shares_match_formula)
{
    const double thetas[] = {0.8, 1.0, 1.2, 2.0};
    for (unsigned i = 0; i < sizeof(thetas) / sizeof(thetas[0]); i++) {
        char why[256];
        CHECK(check_zipf(thetas[i], why, sizeof(why)), "%s", why);
    }
}

TEST(zipf_hot_blocks_spread_over_range)
{
    const uint64_t n = 1ULL << 24;
    struct job_distribution spec = {.kind = DIST_ZIPF, .param = 1.2};
    struct dist d;
    char err[256];
    CHECK(dist_init(&d, &spec, n, 1234, err, sizeof(err)) == 0, "%s", err);
    /* the 1000 hottest blocks: in every sixteenth of the range, mean near the middle */
    unsigned sixteenth[16] = {0};
    double mean = 0;
    for (uint64_t r = 0; r < 1000; r++) {
        uint64_t b = dist_permute(&d, r);
        sixteenth[b / (n / 16)]++;
        mean += (double)b / 1000;
    }
    for (int i = 0; i < 16; i++)
        CHECK(sixteenth[i] >= 30, "sixteenth %d holds %u of the 1000 hottest", i, sixteenth[i]);
    CHECK(fabs(mean / (double)n - 0.5) < 0.05, "mean position %.3f of the range", mean / (double)n);
    /* another key, another hot set */
    struct dist e;
    CHECK(dist_init(&e, &spec, n, 1235, err, sizeof(err)) == 0, "%s", err);
    CHECK(dist_permute(&d, 0) != dist_permute(&e, 0), "same hottest block for two keys");
    dist_free(&d);
    dist_free(&e);
}

TEST(permutation_bijective_small_sizes)
{
    static const uint64_t sizes[] = {1, 2, 3, 5, 1000, 1024, 1025, 4097, 65537};
    for (unsigned s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
        uint64_t n = sizes[s];
        struct job_distribution spec = {.kind = DIST_PARETO, .param = 0.2};
        struct dist d;
        char err[256];
        CHECK(dist_init(&d, &spec, n, 99, err, sizeof(err)) == 0, "n %llu: %s",
              (unsigned long long)n, err);
        unsigned char *seen = calloc(n, 1);
        for (uint64_t r = 0; r < n; r++) {
            uint64_t b = dist_permute(&d, r);
            CHECK(b < n && !seen[b], "n %llu: rank %llu -> %llu", (unsigned long long)n,
                  (unsigned long long)r, (unsigned long long)b);
            seen[b] = 1;
        }
        free(seen);
        dist_free(&d);
    }
}

TEST(zipf_tables_bounded)
{
    struct job_distribution spec = {.kind = DIST_ZIPF, .param = 1.2};
    struct dist d;
    char err[256];
    /* 1 TiB of 4 KiB blocks */
    CHECK(dist_init(&d, &spec, 1ULL << 28, 1, err, sizeof(err)) == 0, "%s", err);
    CHECK(d.m < 2500, "%u buckets for 2^28 blocks", d.m);
    CHECK(d.spread <= expm1(1.0 / 64), "spread %g", d.spread);
    CHECK(d.start[d.m] == 1ULL << 28 && d.start[DIST_EXACT_RANKS] == DIST_EXACT_RANKS, "bounds");
    dist_free(&d);
    /* 4 PiB of 512 B blocks, extreme parameters: still capped */
    spec.param = 40;
    CHECK(dist_init(&d, &spec, 1ULL << 43, 1, err, sizeof(err)) == 0, "%s", err);
    CHECK(d.m <= DIST_MAX_BUCKETS, "%u buckets", d.m);
    dist_free(&d);
    spec = (struct job_distribution){.kind = DIST_PARETO, .param = 0.95};
    CHECK(dist_init(&d, &spec, 1ULL << 43, 1, err, sizeof(err)) == 0, "%s", err);
    CHECK(d.m <= DIST_MAX_BUCKETS, "%u buckets", d.m);
    dist_free(&d);
}

TEST(pareto_80_20_and_in_range)
{
    /* h = 0.2: P(rank < 0.2 n) = 0.2^(ln 0.8 / ln 0.2) = 0.8 */
    const uint64_t n = 1ULL << 20;
    struct job_spec j = mkjob(RW_RANDREAD);
    j.dist.kind = DIST_PARETO;
    j.dist.param = 0.2;
    set_bssplit(&j, DIR_READ, "4k/50:64k/50");
    struct gen g;
    char err[256];
    uint64_t R = n * 4096;
    CHECK(gen_init(&g, &j, R, 41, err, sizeof(err)) == 0, "%s", err);
    const struct dist *d = &g.dir[DIR_READ].dist;
    unsigned char *hot = calloc(n, 1);
    for (uint64_t r = 0; r < n / 5; r++)
        hot[dist_permute(d, r)] = 1;
    unsigned c = 0;
    for (int i = 0; i < NDRAW; i++) {
        struct gen_io io;
        gen_next(&g, &io);
        CHECK(io.off % 4096 == 0 && io.off + io.len <= R, "off %llu len %u",
              (unsigned long long)io.off, io.len);
        /* a 64k I/O moved back from the end still starts in the tail */
        c += hot[io.off / 4096];
    }
    free(hot);
    gen_free(&g);
    double f = c / (double)NDRAW;
    CHECK(fabs(f - 0.8) < 0.003, "hottest 20%% of blocks got %.5f", f);
}

TEST(normal_shape_and_in_range)
{
    const uint64_t n = 1ULL << 20;
    struct job_spec j = mkjob(RW_RANDREAD);
    j.dist.kind = DIST_NORMAL;
    j.dist.param = 5; /* sigma = 5% of the range */
    struct gen g;
    char err[256];
    uint64_t R = n * 4096;
    CHECK(gen_init(&g, &j, R, 51, err, sizeof(err)) == 0, "%s", err);
    double c = n / 2.0, s = 0.05 * n;
    unsigned in1 = 0, in2 = 0, left = 0;
    for (int i = 0; i < NDRAW; i++) {
        struct gen_io io;
        gen_next(&g, &io);
        CHECK(io.off + io.len <= R, "off %llu", (unsigned long long)io.off);
        double x = (double)(io.off / 4096) + 0.5; /* block centre */
        in1 += fabs(x - c) < s;
        in2 += fabs(x - c) < 2 * s;
        left += x < c;
    }
    gen_free(&g);
    double f1 = in1 / (double)NDRAW, f2 = in2 / (double)NDRAW, fl = left / (double)NDRAW;
    CHECK(fabs(f1 - 0.682689) < 0.0025, "within 1 sigma %.5f, want 0.68269", f1);
    CHECK(fabs(f2 - 0.954500) < 0.0012, "within 2 sigma %.5f, want 0.95450", f2);
    CHECK(fabs(fl - 0.5) < 0.0025, "left of centre %.5f", fl);

    /* wide (folded) and tiny sigmas stay in range; mixed sizes too */
    const double sig[] = {300, 60, 0.001, 1e-7};
    for (unsigned k = 0; k < 4; k++) {
        j.dist.param = sig[k];
        set_bssplit(&j, DIR_READ, "4k/50:1024k/50");
        R = 64 * MiB + 4096;
        CHECK(gen_init(&g, &j, R, 52, err, sizeof(err)) == 0, "sigma %g: %s", sig[k], err);
        for (int i = 0; i < 100000; i++) {
            struct gen_io io;
            gen_next(&g, &io);
            CHECK(io.off % 4096 == 0 && io.off + io.len <= R, "sigma %g: off %llu len %u",
                  sig[k], (unsigned long long)io.off, io.len);
        }
        gen_free(&g);
    }
}

TEST(normal_folded_is_near_flat_for_wide_sigma)
{
    /* sigma 300%: folding makes the density almost flat; each quarter ~25% */
    struct job_distribution spec = {.kind = DIST_NORMAL, .param = 300};
    struct dist d;
    char err[256];
    const uint64_t n = 1 << 16;
    CHECK(dist_init(&d, &spec, n, 0, err, sizeof(err)) == 0, "%s", err);
    struct rng r;
    rng_seed(&r, 3);
    unsigned q[4] = {0};
    for (int i = 0; i < NDRAW; i++)
        q[dist_next(&d, &r) / (n / 4)]++;
    dist_free(&d);
    /* folded N(n/2, 3n) on [0,n): quarter shares differ from 1/4 by < 0.2% */
    for (int i = 0; i < 4; i++)
        CHECK(fabs(q[i] / (double)NDRAW - 0.25) < 0.003, "quarter %d share %.5f", i,
              q[i] / (double)NDRAW);
}

TEST(normal_folding_matches_simulation)
{
    /* sigma 50%: a third of the curve lies outside and is reflected back.
     * Reference: Box-Muller draws reflected at 0 and n by hand, compared by
     * a two-sample chi-square over eighths (7 df, p = 0.001: 24.322). */
    const uint64_t n = 1 << 16;
    struct job_distribution spec = {.kind = DIST_NORMAL, .param = 50};
    struct dist d;
    char err[256];
    CHECK(dist_init(&d, &spec, n, 0, err, sizeof(err)) == 0, "%s", err);
    struct rng r;
    rng_seed(&r, 8);
    unsigned a[8] = {0}, b[8] = {0};
    for (int i = 0; i < NDRAW; i++)
        a[dist_next(&d, &r) / (n / 8)]++;
    dist_free(&d);
    for (int i = 0; i < NDRAW; i++) {
        double u1 = 1 - rng_unit(&r), u2 = rng_unit(&r);
        double x = n / 2.0 + 0.5 * n * sqrt(-2 * log(u1)) * cos(2 * M_PI * u2);
        while (x < 0 || x > (double)n)
            x = x < 0 ? -x : 2.0 * n - x;
        uint64_t blk = x >= (double)n ? n - 1 : (uint64_t)x;
        b[blk / (n / 8)]++;
    }
    double chi = 0;
    for (int i = 0; i < 8; i++)
        chi += ((double)a[i] - b[i]) * ((double)a[i] - b[i]) / ((double)a[i] + b[i]);
    CHECK(chi < 24.322, "chi-square %.2f; eighths %u %u %u %u / sim %u %u %u %u", chi, a[0], a[1],
          a[2], a[3], b[0], b[1], b[2], b[3]);
    /* folded, the outer eighths hold more than a clamp-free cut-off would */
    CHECK(a[0] > NDRAW / 16 && a[7] > NDRAW / 16, "edges %u %u", a[0], a[7]);
}

TEST(zipf_sum_matches_plain_summation)
{
    static const struct {
        uint64_t a, b;
        double theta;
    } t[] = {
        {1, 1000000, 0.8}, {1, 1000000, 1.0}, {1, 1000000, 1.2}, {300, 100000, 1.2},
        {1025, 1100, 2.0}, {1025, 300000, 0.5}, {5000, 5000, 0.7}, {100, 700, 3.0},
    };
    for (unsigned i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
        double want = zsum(t[i].a, t[i].b, t[i].theta);
        double got = dist_zipf_sum(t[i].a, t[i].b, t[i].theta);
        CHECK(fabs(got - want) <= 1e-11 * want, "sum %llu..%llu theta %g: %.15g, want %.15g",
              (unsigned long long)t[i].a, (unsigned long long)t[i].b, t[i].theta, got, want);
    }
    CHECK(dist_zipf_sum(10, 9, 1.0) == 0, "empty range");
}

/* Bucket probabilities encoded in an alias table. */
static double *alias_probs(const struct dist *d)
{
    double *p = calloc(d->m, sizeof(double));
    for (unsigned i = 0; i < d->m; i++) {
        double keep = d->slot[i].thresh == UINT64_MAX ? 1 : d->slot[i].thresh / 18446744073709551616.0;
        p[i] += keep / d->m;
        p[d->slot[i].alias] += (1 - keep) / d->m;
    }
    return p;
}

TEST(tables_hold_exact_bucket_probabilities)
{
    const uint64_t n = 1 << 20;
    char err[256];
    /* zipf: against prefix sums of k^-theta */
    double *pre = malloc((n + 1) * sizeof(double));
    const double thetas[2] = {0.8, 1.2};
    for (int t = 0; t < 2; t++) {
        pre[0] = 0;
        for (uint64_t k = 1; k <= n; k++)
            pre[k] = pre[k - 1] + pow((double)k, -thetas[t]);
        struct job_distribution spec = {.kind = DIST_ZIPF, .param = thetas[t]};
        struct dist d;
        CHECK(dist_init(&d, &spec, n, 5, err, sizeof(err)) == 0, "%s", err);
        double *p = alias_probs(&d);
        for (unsigned i = 0; i < d.m; i++) {
            double want = (pre[d.start[i + 1]] - pre[d.start[i]]) / pre[n];
            CHECK(fabs(p[i] - want) <= 1e-9 * want + 1e-13,
                  "theta %g bucket %u [%llu,%llu): %.12g, want %.12g", thetas[t], i,
                  (unsigned long long)d.start[i], (unsigned long long)d.start[i + 1], p[i], want);
        }
        free(p);
        dist_free(&d);
    }
    free(pre);

    /* pareto h=0.3: P(a <= rank < b) = (b/n)^q - (a/n)^q, q = ln 0.7 / ln 0.3 */
    struct job_distribution ps = {.kind = DIST_PARETO, .param = 0.3};
    struct dist d;
    CHECK(dist_init(&d, &ps, n, 5, err, sizeof(err)) == 0, "%s", err);
    double q = log(0.7) / log(0.3), *p = alias_probs(&d);
    for (unsigned i = 0; i < d.m; i++) {
        double want = pow((double)d.start[i + 1] / n, q) - pow((double)d.start[i] / n, q);
        CHECK(fabs(p[i] - want) <= 1e-9 * want + 1e-13, "pareto bucket %u: %.12g, want %.12g",
              i, p[i], want);
    }
    free(p);
    dist_free(&d);

    /* normal, sigma 5%: far from the ends, folding adds < 1e-20 */
    struct job_distribution ns = {.kind = DIST_NORMAL, .param = 5};
    CHECK(dist_init(&d, &ns, n, 5, err, sizeof(err)) == 0, "%s", err);
    p = alias_probs(&d);
    double c = n / 2.0, s = 0.05 * n, tot = 0;
    for (unsigned i = 0; i < d.m; i++) {
        double za = (d.start[i] - c) / (s * sqrt(2)), zb = (d.start[i + 1] - c) / (s * sqrt(2));
        double want = 0.5 * (erf(zb) - erf(za));
        CHECK(fabs(p[i] - want) <= 1e-12 + 1e-9 * want, "normal bucket %u: %.12g, want %.12g",
              i, p[i], want);
        CHECK(d.start[i + 1] - d.start[i] <= (uint64_t)(s / 64) + 1, "bucket %u width %llu", i,
              (unsigned long long)(d.start[i + 1] - d.start[i]));
        tot += p[i];
    }
    CHECK(fabs(tot - 1) < 1e-12, "total %.15g", tot);
    free(p);
    dist_free(&d);
}

CHECK_MAIN()
