/* test_tsc_clock.c - the time-stamp counter clock (base/tsc_clock.h): its
 * scale, its adjustments toward CLOCK_MONOTONIC (driven with made-up counter
 * values, so exact), that it never goes back, and that it turns itself off
 * when it is too far from the monotonic clock. */
#include "check.h"

#include <stdint.h>

#include "base/tsc_clock.h"

#define GHZ 2500000000ull /* made-up counter rate: 2.5 GHz */

static uint64_t absdiff(uint64_t a, uint64_t b)
{
    return a > b ? a - b : b - a;
}

TEST(tsc_clock_scale_from_two_pairs)
{
    struct tsc_clock c;
    tsc_clock_start(&c, 1000000000ull, 1000000000000ull, 1001000000ull, 1000000000000ull + GHZ / 1000);
    CHECK(c.on, "on");
    uint64_t t = c.tsc0 + 2 * GHZ; /* two seconds on */
    CHECK(absdiff(tsc_clock_at(&c, t), 1001000000ull + 2000000000ull) <= 1, "%llu",
          (unsigned long long)tsc_clock_at(&c, t));
    CHECK(tsc_clock_at(&c, c.tsc0 - 5) == c.ns0, "a counter behind the anchor reads the anchor");
    /* a counter that did not move, or time that did not pass: off */
    tsc_clock_start(&c, 10, 100, 10, 200);
    CHECK(!c.on && c.next_ns == UINT64_MAX, "off");
    tsc_clock_start(&c, 10, 100, 20, 100);
    CHECK(!c.on, "off");
}

/* The calibration was 200 ppm off the real rate: the adjustments bring the
 * clock onto CLOCK_MONOTONIC, never stepping back. */
TEST(tsc_clock_adjust_converges_and_is_monotonic)
{
    struct tsc_clock c;
    /* the real rate is GHZ * (1 + 200e-6); the first pair says GHZ */
    const double real_rate = (double)GHZ * 1.0002;
    uint64_t ns0 = 5000000000ull, t0 = 777;
    tsc_clock_start(&c, ns0, t0, ns0 + 1000000, t0 + GHZ / 1000);
    CHECK(c.on, "on");
    uint64_t last = 0, worst_late = 0;
    for (int k = 1; k <= 40; k++) {
        uint64_t real = ns0 + 1000000 + (uint64_t)k * TSC_ADJUST_NS;
        uint64_t t = t0 + GHZ / 1000 + (uint64_t)((double)(real - ns0 - 1000000) * real_rate / 1e9);
        /* reads in between never go back */
        for (uint64_t x = c.tsc0; x < t; x += (t - c.tsc0) / 97 + 1) {
            uint64_t v = tsc_clock_at(&c, x);
            CHECK(v >= last, "step %d: %llu after %llu", k, (unsigned long long)v, (unsigned long long)last);
            last = v;
        }
        uint64_t before = tsc_clock_at(&c, t);
        CHECK(tsc_clock_adjust_at(&c, real, t), "adjust %d", k);
        CHECK(tsc_clock_at(&c, t) == before, "adjust %d jumped", k);
        if (k >= 3 && absdiff(before, real) > worst_late)
            worst_late = absdiff(before, real);
    }
    /* 200 ppm over the first 50 ms is 10 us; from the third on, the
     * rate is known to better than 1 ppm: under 100 ns off */
    CHECK(worst_late < 100, "off by %llu ns after the third adjustment", (unsigned long long)worst_late);
    CHECK(c.adjusts == 40, "%llu adjustments", (unsigned long long)c.adjusts);
}

TEST(tsc_clock_off_when_far_from_monotonic)
{
    struct tsc_clock c;
    tsc_clock_start(&c, 1000000000ull, 0, 1001000000ull, GHZ / 1000);
    uint64_t t = GHZ / 1000 + GHZ / 20; /* 50 ms on the counter */
    /* the monotonic clock says 52 ms passed: 2 ms apart */
    CHECK(!tsc_clock_adjust_at(&c, 1001000000ull + 52000000ull, t), "stays on");
    CHECK(!c.on && c.next_ns == UINT64_MAX, "off");
    CHECK(!tsc_clock_adjust_at(&c, 1001000000ull + 50000000ull, t), "an off clock stays off");
}

/* The live clock (whether or not this host's counter is used): it never
 * goes back, and the monotonic clock read between two of its reads lies
 * between them, give or take its largest allowed distance. */
TEST(tsc_clock_live_brackets_monotonic)
{
    struct tsc_clock c;
    tsc_clock_init(&c);
    uint64_t last = tsc_clock_ns(&c);
    for (int i = 0; i < 200000; i++) {
        uint64_t a = tsc_clock_ns(&c);
        uint64_t real = clock_ns();
        uint64_t b = tsc_clock_ns(&c);
        CHECK(a >= last && b >= a, "went back at %d", i);
        CHECK(a <= real + TSC_MAX_OFF_NS && real <= b + TSC_MAX_OFF_NS, "read %d: %llu %llu %llu", i,
              (unsigned long long)a, (unsigned long long)real, (unsigned long long)b);
        tsc_clock_tick(&c, b);
        last = b;
    }
}

CHECK_MAIN()
