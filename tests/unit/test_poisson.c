/* test_poisson.c - the exponential gaps behind rate_process=poisson: with a
 * fixed seed, over N draws, the mean, the variance (mean squared for an
 * exponential) and the share of gaps above the mean (1/e) are where they
 * must be, and a seed repeats its sequence. */
#include <math.h>

#include "check.h"
#include "base/poisson.h"

#define N 200000

TEST(mean_variance_tail)
{
    struct rng r;
    rng_seed(&r, 42);
    const double mean = 1000.0;
    double sum = 0, sumsq = 0;
    unsigned above = 0;
    uint64_t zero = 0;
    for (unsigned i = 0; i < N; i++) {
        uint64_t g = poisson_gap_ns(&r, mean);
        sum += (double)g;
        sumsq += (double)g * (double)g;
        above += g > mean;
        zero += g == 0;
    }
    double m = sum / N, var = sumsq / N - m * m;
    /* standard error of the mean: 1000 / sqrt(N) = 2.2 ns; the truncation
     * to whole ns lowers the mean by about 0.5 ns */
    CHECK(fabs(m - (mean - 0.5)) < 12, "mean %.2f", m);
    CHECK(fabs(var / (mean * mean) - 1) < 0.03, "variance / mean^2 = %.4f", var / (mean * mean));
    CHECK(fabs((double)above / N - exp(-1)) < 0.005, "share above the mean %.4f", (double)above / N);
    /* P(g < 1 ns) = 1 - e^-0.001, about 0.1 % */
    CHECK(zero < N / 500, "%llu gaps of 0 ns", (unsigned long long)zero);
}

TEST(seed_repeats)
{
    struct rng a, b, c;
    rng_seed(&a, 7);
    rng_seed(&b, 7);
    rng_seed(&c, 8);
    unsigned same = 0, differ = 0;
    for (unsigned i = 0; i < 1000; i++) {
        uint64_t x = poisson_gap_ns(&a, 5e6), y = poisson_gap_ns(&b, 5e6), z = poisson_gap_ns(&c, 5e6);
        same += x == y;
        differ += x != z;
    }
    CHECK(same == 1000, "same seed: %u of 1000 equal", same);
    CHECK(differ > 990, "other seed: only %u of 1000 differ", differ);
}

CHECK_MAIN()
