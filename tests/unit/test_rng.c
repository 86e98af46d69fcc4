/* test_rng.c - the per-thread RNG (rng.h) against the published xoshiro256**
 * and splitmix64 reference outputs, plus range and uniformity checks. */
#include "check.h"

#include <stdint.h>

#include "base/rng.h"

#define NDRAW 1000000

TEST(rng_xoshiro_reference_vector)
{
    /* published xoshiro256** outputs from the state {1, 2, 3, 4} */
    static const uint64_t want[10] = {11520ULL, 0ULL, 1509978240ULL, 1215971899390074240ULL,
                                      1216172134540287360ULL, 607988272756665600ULL,
                                      16172922978634559625ULL, 8476171486693032832ULL,
                                      10595114339597558777ULL, 2904607092377533576ULL};
    struct rng r = {{1, 2, 3, 4}};
    for (int i = 0; i < 10; i++) {
        uint64_t v = rng_next(&r);
        CHECK(v == want[i], "output %d = %llu, want %llu", i, (unsigned long long)v,
              (unsigned long long)want[i]);
    }
}

TEST(rng_seed_is_splitmix64)
{
    /* splitmix64's first outputs from state 0 */
    struct rng r;
    rng_seed(&r, 0);
    CHECK(r.s[0] == 0xE220A8397B1DCDAFULL, "s0 %llx", (unsigned long long)r.s[0]);
    CHECK(r.s[1] == 0x6E789E6AA1B965F4ULL, "s1 %llx", (unsigned long long)r.s[1]);
    CHECK(r.s[2] == 0x06C45D188009454FULL, "s2 %llx", (unsigned long long)r.s[2]);
    CHECK(r.s[3] == 0xF88BB8A8724C81ECULL, "s3 %llx", (unsigned long long)r.s[3]);
}

TEST(rng_below_uniform_and_in_range)
{
    struct rng r;
    rng_seed(&r, 7);
    unsigned cnt[10] = {0};
    for (int i = 0; i < NDRAW; i++) {
        uint64_t v = rng_below(&r, 10);
        CHECK(v < 10, "rng_below(10) gave %llu", (unsigned long long)v);
        cnt[v]++;
    }
    double chi = 0, e = NDRAW / 10.0;
    for (int i = 0; i < 10; i++)
        chi += (cnt[i] - e) * (cnt[i] - e) / e;
    CHECK(chi < 27.877, "chi-square %.2f over 10 cells (p = 0.001 limit 27.877)", chi);
    /* a huge bound not a power of two: the top half of [0, n) must be hit */
    uint64_t n = (1ULL << 63) + (1ULL << 62), hi = 0;
    for (int i = 0; i < 1000; i++) {
        uint64_t v = rng_below(&r, n);
        CHECK(v < n, "rng_below(3*2^62) gave %llu", (unsigned long long)v);
        if (v >= n / 2)
            hi++;
    }
    CHECK(hi > 400 && hi < 600, "%llu of 1000 in the upper half", (unsigned long long)hi);
    CHECK(rng_below(&r, 1) == 0, "rng_below(1)");
    for (int i = 0; i < 1000; i++) {
        double u = rng_unit(&r);
        CHECK(u >= 0 && u < 1, "rng_unit %g", u);
    }
}

TEST(rng_jump_gives_another_stream)
{
    struct rng a, b;
    rng_seed(&a, 5);
    b = a;
    rng_jump(&b);
    int same = 0;
    for (int i = 0; i < 1000; i++)
        same += rng_next(&a) == rng_next(&b);
    CHECK(same == 0, "%d equal outputs after a jump", same);
}

CHECK_MAIN()
