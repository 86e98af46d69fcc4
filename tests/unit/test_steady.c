/* test_steady.c - steady-state rules on hand-computed series, and the fio
 * steadystate= parser. Every expected figure below is worked out by hand in
 * the comments (or from a closed form), never taken from the module. */
#include "check.h"
#include "base/steady.h"

#include <errno.h>
#include <math.h>

static int near(double a, double b, double tol)
{
    return fabs(a - b) <= tol;
}

/* Feeds values until the detector answers something other than CONTINUE;
 * returns the 1-based index of the deciding value (0 = never decided) and
 * the answer in *st. */
static unsigned feed_until(struct steady *s, const double *v, unsigned n, enum steady_state *st)
{
    for (unsigned i = 0; i < n; i++) {
        *st = steady_feed(s, v[i]);
        if (*st != STEADY_CONTINUE)
            return i + 1;
    }
    *st = STEADY_CONTINUE;
    return 0;
}

static struct steady g_s;   /* 33 KiB: keep it off the stack */
static struct steady g_s2;

TEST(snia_defaults)
{
    struct steady_cfg c;
    steady_snia_defaults(&c);
    CHECK(c.rule == STEADY_SNIA, "rule %d", c.rule);
    CHECK(c.window == 5 && c.max_rounds == 25, "window %u max %u", c.window, c.max_rounds);
    CHECK(c.range_pct == 20.0 && c.slope_pct == 10.0, "%g %g", c.range_pct, c.slope_pct);
    CHECK(steady_cfg_check(&c, NULL, 0) == 0, "defaults rejected");
}

/* Rounds 1-10 fall 200..105, then a noisy plateau around 100.
 *   window 7..11  120 115 110 105 100: range 20 <= 22, slope -5, exc 20 > 11    fail
 *   window 8..12  115 110 105 100 102: avg 106.4, sum (k-2)y = -36, slope -3.6,
 *                 exc 14.4 > 10.64                                            fail
 *   window 9..13  110 105 100 102 98: avg 103, sum (k-2)y = -27, slope -2.7,
 *                 exc 10.8 > 10.3                                             fail
 *   window 10..14 105 100 102 98 101: avg 101.2, range 7 <= 20.24,
 *                 sum (k-2)y = -10, slope -1, exc 4 <= 10.12                  pass
 * Intercept over round numbers: 101.2 - (-1) * 12 = 113.2. */
TEST(snia_converges_at_round_14)
{
    const double v[] = {200, 180, 160, 150, 140, 130, 120, 115, 110, 105,
                        100, 102, 98, 101, 99, 100, 101, 100};
    struct steady_cfg c;
    steady_snia_defaults(&c);
    CHECK(steady_init(&g_s, &c) == 0, "init");
    enum steady_state st;
    unsigned at = feed_until(&g_s, v, sizeof(v) / sizeof(v[0]), &st);
    CHECK(st == STEADY_REACHED, "state %s", steady_state_name(st));
    CHECK(at == 14, "reached at round %u, expected 14", at);
    struct steady_report r;
    steady_get_report(&g_s, &r);
    CHECK(r.reached && r.passed && r.evaluated, "flags");
    CHECK(r.rounds == 14, "rounds %u", r.rounds);
    CHECK(r.window_first == 10 && r.window_last == 14, "window %u..%u", r.window_first,
          r.window_last);
    CHECK(near(r.avg, 101.2, 1e-9), "avg %.17g", r.avg);
    CHECK(r.min == 98 && r.max == 105 && r.range == 7, "min %g max %g range %g", r.min, r.max,
          r.range);
    CHECK(near(r.range_pct, 700.0 / 101.2, 1e-9), "range pct %.17g", r.range_pct);
    CHECK(near(r.range_allowed, 20.24, 1e-9), "range allowed %.17g", r.range_allowed);
    CHECK(near(r.slope, -1.0, 1e-12), "slope %.17g", r.slope);
    CHECK(near(r.intercept, 113.2, 1e-9), "intercept %.17g", r.intercept);
    CHECK(near(r.slope_excursion, 4.0, 1e-12), "exc %.17g", r.slope_excursion);
    CHECK(near(r.slope_excursion_pct, 400.0 / 101.2, 1e-9), "exc pct %.17g",
          r.slope_excursion_pct);
    CHECK(near(r.slope_allowed, 10.12, 1e-9), "slope allowed %.17g", r.slope_allowed);

    /* the answer is final: further values change nothing */
    CHECK(steady_feed(&g_s, 1e9) == STEADY_REACHED, "latched");
    steady_get_report(&g_s, &r);
    CHECK(r.rounds == 14 && r.window_last == 14, "rounds %u after latch", r.rounds);

    double w[8];
    CHECK(steady_window_values(&g_s, w, 8) == 5, "window values");
    CHECK(w[0] == 105 && w[1] == 100 && w[2] == 102 && w[3] == 98 && w[4] == 101,
          "window %g %g %g %g %g", w[0], w[1], w[2], w[3], w[4]);
}

/* The window right before convergence (9..13) fails only on the slope:
 * its report must say so. */
TEST(snia_report_of_failing_window)
{
    const double v[] = {200, 180, 160, 150, 140, 130, 120, 115, 110, 105, 100, 102, 98};
    struct steady_cfg c;
    steady_snia_defaults(&c);
    steady_init(&g_s, &c);
    enum steady_state st;
    CHECK(feed_until(&g_s, v, 13, &st) == 0 && st == STEADY_CONTINUE, "decided early");
    struct steady_report r;
    steady_get_report(&g_s, &r);
    CHECK(r.evaluated && !r.passed && !r.reached, "flags");
    CHECK(r.window_first == 9 && r.window_last == 13, "window %u..%u", r.window_first,
          r.window_last);
    CHECK(near(r.avg, 103, 1e-9) && near(r.slope, -2.7, 1e-12), "avg %g slope %g", r.avg,
          r.slope);
    CHECK(near(r.slope_excursion, 10.8, 1e-12), "exc %.17g", r.slope_excursion);
    CHECK(r.range * 100 <= 20 * r.avg, "range should pass");
}

/* 3 % growth per round: every window is a scaled copy of 1, r, r^2, r^3, r^4
 * (r = 1.03), so
 *   range %    = 100 (r^4 - 1) / (S / 5),           S = 1 + r + r^2 + r^3 + r^4
 *   slope      = (-2 - r + r^3 + 2 r^4) / 10 (per unit of the first value)
 *   slope exc% = 100 * 4 * slope / (S / 5)
 * which is 11.82 % (<= 20) and 11.82 % (> 10): never steady; at round 25
 * the answer is NOT_REACHED with window 21..25. */
TEST(snia_trend_3pct_not_reached)
{
    struct steady_cfg c;
    steady_snia_defaults(&c);
    steady_init(&g_s, &c);
    double r = 1.03, y = 1000;
    enum steady_state st = STEADY_CONTINUE;
    unsigned i;
    for (i = 1; i <= 30 && st == STEADY_CONTINUE; i++) {
        st = steady_feed(&g_s, y);
        y *= r;
    }
    CHECK(st == STEADY_NOT_REACHED, "state %s", steady_state_name(st));
    CHECK(i - 1 == 25, "decided at round %u, expected 25", i - 1);
    struct steady_report rep;
    steady_get_report(&g_s, &rep);
    CHECK(!rep.reached && rep.state == STEADY_NOT_REACHED, "flags");
    CHECK(rep.window_first == 21 && rep.window_last == 25, "window %u..%u", rep.window_first,
          rep.window_last);
    double S = 1 + r + r * r + r * r * r + r * r * r * r;
    double range_pct = 100 * (r * r * r * r - 1) / (S / 5);
    double slope1 = (-2 - r + r * r * r + 2 * r * r * r * r) / 10;
    double exc_pct = 100 * 4 * slope1 / (S / 5);
    CHECK(near(rep.range_pct, range_pct, 1e-9), "range pct %.12g vs %.12g", rep.range_pct,
          range_pct);
    CHECK(near(rep.slope_excursion_pct, exc_pct, 1e-9), "exc pct %.12g vs %.12g",
          rep.slope_excursion_pct, exc_pct);
    CHECK(rep.range_pct < 20 && rep.slope_excursion_pct > 10, "%g %g", rep.range_pct,
          rep.slope_excursion_pct);
    double first = 1000 * pow(r, 20);   /* value of round 21 */
    CHECK(near(rep.min, first, 1e-6) && near(rep.avg, first * S / 5, 1e-6), "min %g avg %g",
          rep.min, rep.avg);
}

/* 100, 130, 100, 130, ...: range 30 against averages of 112 or 118
 * (26.8 %, 25.4 % > 20 %); every window is symmetric, so sum (k-2)y = 0 and
 * the slope is 0: it fails on the data excursion alone. */
TEST(snia_oscillation_not_reached)
{
    struct steady_cfg c;
    steady_snia_defaults(&c);
    steady_init(&g_s, &c);
    enum steady_state st = STEADY_CONTINUE;
    unsigned n = 0;
    while (st == STEADY_CONTINUE && n < 40)
        st = steady_feed(&g_s, (n++ % 2) ? 130 : 100);
    CHECK(st == STEADY_NOT_REACHED && n == 25, "state %s after %u", steady_state_name(st), n);
    struct steady_report r;
    steady_get_report(&g_s, &r);
    /* round 25 is odd -> 100; window 21..25 = 100 130 100 130 100 */
    CHECK(r.avg == 112 && r.range == 30 && r.slope == 0, "avg %g range %g slope %g", r.avg,
          r.range, r.slope);
    CHECK(r.slope_excursion_pct == 0 && r.range_pct > 20, "%g %g", r.slope_excursion_pct,
          r.range_pct);
}

/* A smaller cap: 2, 4, 5, 4, 5 at rounds 3..7 (classic least-squares
 * example). mean x = 5, mean y = 4, sum (x-5)(y-4) = 6, sum (x-5)^2 = 10:
 * slope 0.6, intercept 4 - 0.6 * 5 = 1. Range 3 > 20 % of 4 -> fails, and
 * max_rounds = 7 ends it there with that window in the report. */
TEST(snia_least_squares_and_cap)
{
    const double v[] = {50, 60, 2, 4, 5, 4, 5, 4, 4};
    struct steady_cfg c;
    steady_snia_defaults(&c);
    c.max_rounds = 7;
    steady_init(&g_s, &c);
    enum steady_state st;
    unsigned at = feed_until(&g_s, v, 9, &st);
    CHECK(st == STEADY_NOT_REACHED && at == 7, "state %s at %u", steady_state_name(st), at);
    struct steady_report r;
    steady_get_report(&g_s, &r);
    CHECK(r.window_first == 3 && r.window_last == 7, "window %u..%u", r.window_first,
          r.window_last);
    CHECK(near(r.slope, 0.6, 1e-12), "slope %.17g", r.slope);
    CHECK(near(r.intercept, 1.0, 1e-12), "intercept %.17g", r.intercept);
    CHECK(r.avg == 4 && r.range == 3, "avg %g range %g", r.avg, r.range);
    CHECK(near(r.slope_excursion, 2.4, 1e-12), "exc %.17g", r.slope_excursion);
}

TEST(snia_five_constant_rounds)
{
    struct steady_cfg c;
    steady_snia_defaults(&c);
    steady_init(&g_s, &c);
    for (int i = 1; i <= 4; i++) {
        enum steady_state st = steady_feed(&g_s, 50000);
        CHECK(st == STEADY_CONTINUE, "round %d: %s", i, steady_state_name(st));
    }
    struct steady_report r;
    steady_get_report(&g_s, &r);
    CHECK(!r.evaluated && r.window_first == 0 && r.rounds == 4, "evaluated before round 5");
    CHECK(steady_feed(&g_s, 50000) == STEADY_REACHED, "round 5");
    steady_get_report(&g_s, &r);
    CHECK(r.window_first == 1 && r.window_last == 5, "window %u..%u", r.window_first,
          r.window_last);
    CHECK(r.avg == 50000 && r.range == 0 && r.slope == 0 && r.intercept == 50000,
          "avg %g range %g slope %g icpt %g", r.avg, r.range, r.slope, r.intercept);
    CHECK(r.range_pct == 0 && r.slope_excursion_pct == 0 && !r.zero_avg, "pcts");
}

/* Limits are inclusive ("no more than"):
 *   90 110 100 100 100: avg 100, range 20 = 20 %; sum (k-2)y = 10, slope 1,
 *                       exc 4 -> pass at round 5
 *   95 97.5 100 102.5 105: avg 100, slope 2.5, exc 10 = 10 % -> pass
 *   95 97.5 100 102.5 106: avg 100.2, sum (k-2)y = 27, exc 10.8 > 10.02 -> no */
TEST(snia_limits_inclusive)
{
    struct steady_cfg c;
    steady_snia_defaults(&c);
    const double a[] = {90, 110, 100, 100, 100};
    const double b[] = {95, 97.5, 100, 102.5, 105};
    const double d[] = {95, 97.5, 100, 102.5, 106};
    enum steady_state st;
    steady_init(&g_s, &c);
    CHECK(feed_until(&g_s, a, 5, &st) == 5 && st == STEADY_REACHED, "range at 20%% exactly");
    steady_init(&g_s, &c);
    CHECK(feed_until(&g_s, b, 5, &st) == 5 && st == STEADY_REACHED, "slope at 10%% exactly");
    struct steady_report r;
    steady_get_report(&g_s, &r);
    CHECK(r.slope == 2.5 && r.slope_excursion_pct == 10, "%.17g %.17g", r.slope,
          r.slope_excursion_pct);
    steady_init(&g_s, &c);
    CHECK(feed_until(&g_s, d, 5, &st) == 0, "slope over 10%% passed");
    steady_get_report(&g_s, &r);
    CHECK(near(r.slope_excursion, 10.8, 1e-12) && !r.passed, "exc %.17g", r.slope_excursion);
}

/* All exactly zero: every excursion is 0 and 0 <= 0, so it is steady (the
 * documented choice), flagged zero_avg, with no NaN in the report. A window
 * averaging 0 with non-zero values never passes. */
TEST(snia_all_zero)
{
    struct steady_cfg c;
    steady_snia_defaults(&c);
    steady_init(&g_s, &c);
    enum steady_state st = STEADY_CONTINUE;
    for (int i = 0; i < 5; i++)
        st = steady_feed(&g_s, 0);
    CHECK(st == STEADY_REACHED, "state %s", steady_state_name(st));
    struct steady_report r;
    steady_get_report(&g_s, &r);
    CHECK(r.zero_avg && r.avg == 0, "zero_avg");
    CHECK(r.range_pct == 0 && r.slope_excursion_pct == 0 && r.max_dev_pct == 0 &&
          r.slope_pct == 0, "pcts %g %g %g %g", r.range_pct, r.slope_excursion_pct,
          r.max_dev_pct, r.slope_pct);

    c.max_rounds = 5;
    steady_init(&g_s, &c);
    const double v[] = {-1, 1, -1, 1, 0};
    CHECK(feed_until(&g_s, v, 5, &st) == 5 && st == STEADY_NOT_REACHED, "zero mean passed");
    steady_get_report(&g_s, &r);
    CHECK(r.zero_avg && isinf(r.range_pct), "range pct %g", r.range_pct);
}

TEST(snia_nan_never_passes)
{
    struct steady_cfg c;
    steady_snia_defaults(&c);
    c.max_rounds = 5;
    steady_init(&g_s, &c);
    const double v[] = {100, 100, NAN, 100, 100};
    enum steady_state st;
    CHECK(feed_until(&g_s, v, 5, &st) == 5 && st == STEADY_NOT_REACHED, "nan passed");
}

/* Two variables must pass in the same window.
 *   A: 100 x5, 200, 100 x6: passes window 1..5, fails every window holding
 *      round 6 (windows ending 6..10), passes again from window 7..11
 *   B: 100 150 100 x10: fails windows holding round 2 (ending 5 and 6),
 *      passes from window 3..7
 * Each passes on its own (A at 5, B at 7) but both pass in the same window
 * only at round 11, window 7..11. */
TEST(snia_many_same_window)
{
    const double a[] = {100, 100, 100, 100, 100, 200, 100, 100, 100, 100, 100, 100};
    const double b[] = {100, 150, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100};
    struct steady_cfg c;
    steady_snia_defaults(&c);
    steady_init(&g_s, &c);
    steady_init(&g_s2, &c);
    struct steady *both[2] = {&g_s, &g_s2};
    enum steady_state st = STEADY_CONTINUE;
    unsigned i;
    for (i = 0; i < 12 && st == STEADY_CONTINUE; i++) {
        double v[2] = {a[i], b[i]};
        st = steady_feed_many(both, v, 2);
    }
    CHECK(st == STEADY_REACHED && i == 11, "state %s at %u", steady_state_name(st), i);
    struct steady_report ra, rb;
    steady_get_report(&g_s, &ra);
    steady_get_report(&g_s2, &rb);
    CHECK(ra.reached && rb.reached, "both reached");
    CHECK(ra.window_first == 7 && rb.window_first == 7 && ra.window_last == 11,
          "windows %u %u", ra.window_first, rb.window_first);

    /* cap: with max_rounds 6 the pair gives up at round 6 */
    c.max_rounds = 6;
    steady_init(&g_s, &c);
    steady_init(&g_s2, &c);
    st = STEADY_CONTINUE;
    for (i = 0; i < 12 && st == STEADY_CONTINUE; i++) {
        double v[2] = {a[i], b[i]};
        st = steady_feed_many(both, v, 2);
    }
    CHECK(st == STEADY_NOT_REACHED && i == 6, "state %s at %u", steady_state_name(st), i);
    CHECK(g_s.state == STEADY_NOT_REACHED && g_s2.state == STEADY_NOT_REACHED, "applied to all");
}

/* fio.md's example window 65k 75k 78k 78k 64k:
 *   mean 72000; max |x - mean| = 8000 -> 11.11 %: fails iops:10%
 *   sum (k-2)y = -130000 - 75000 + 78000 + 128000 = 1000 -> slope 100 per
 *   sample -> 100 * 100 / 72000 = 0.1389 %: passes iops_slope:0.5% */
TEST(fio_example_slope_passes_deviation_fails)
{
    const double v[] = {65000, 75000, 78000, 78000, 64000};
    struct steady_cfg c;
    enum steady_state st;
    struct steady_report r;

    steady_fio_defaults(&c);
    CHECK(steady_parse_fio("iops_slope:0.5%", &c, NULL, 0) == 0, "parse");
    c.window = 5;
    CHECK(steady_init(&g_s, &c) == 0, "init");
    CHECK(feed_until(&g_s, v, 5, &st) == 5 && st == STEADY_REACHED, "slope rule: %s",
          steady_state_name(st));
    steady_get_report(&g_s, &r);
    CHECK(r.slope == 100 && near(r.slope_pct, 100.0 * 100 / 72000, 1e-12), "slope %g pct %g",
          r.slope, r.slope_pct);
    CHECK(near(r.criterion, 0.13888888888888889, 1e-12), "criterion %.17g", r.criterion);

    CHECK(steady_parse_fio("iops:10%", &c, NULL, 0) == 0, "parse");
    steady_init(&g_s, &c);
    CHECK(feed_until(&g_s, v, 5, &st) == 0, "deviation rule passed");
    steady_get_report(&g_s, &r);
    CHECK(r.evaluated && !r.passed, "flags");
    CHECK(r.max_dev == 8000 && near(r.max_dev_pct, 800000.0 / 72000, 1e-12), "dev %g %g",
          r.max_dev, r.max_dev_pct);
}

/* Rolling deviation window, iops:10%, window 5, after the example:
 *   s6 = 72k: 75 78 78 64 72  mean 73.4, dev 9.4  -> 12.81 %
 *   s7 = 72k: 78 78 64 72 72  mean 72.8, dev 8.8  -> 12.09 %
 *   s8 = 72k: 78 64 72 72 72  mean 71.6, dev 7.6  -> 10.61 %
 *   s9 = 72k: 64 72 72 72 72  mean 70.4, dev 6.4  ->  9.09 %  pass */
TEST(fio_deviation_rolling)
{
    const double v[] = {65000, 75000, 78000, 78000, 64000, 72000, 72000, 72000, 72000, 72000};
    struct steady_cfg c;
    steady_fio_defaults(&c);
    CHECK(steady_parse_fio("iops:10%", &c, NULL, 0) == 0, "parse");
    c.window = 5;
    steady_init(&g_s, &c);
    enum steady_state st;
    unsigned at = feed_until(&g_s, v, 10, &st);
    CHECK(st == STEADY_REACHED && at == 9, "state %s at %u", steady_state_name(st), at);
    struct steady_report r;
    steady_get_report(&g_s, &r);
    CHECK(near(r.avg, 70400, 1e-9) && near(r.max_dev, 6400, 1e-9), "avg %g dev %g", r.avg,
          r.max_dev);
    CHECK(near(r.max_dev_pct, 640000.0 / 70400, 1e-9), "dev pct %.17g", r.max_dev_pct);
    CHECK(r.window_first == 5 && r.window_last == 9, "window %u..%u", r.window_first,
          r.window_last);
}

/* Absolute limits and fio's strict comparison: max deviation 8000 and
 * slope 100 on the example window. */
TEST(fio_absolute_strict)
{
    const double v[] = {65000, 75000, 78000, 78000, 64000};
    struct { const char *spec; enum steady_state want; } cases[] = {
        {"iops:8000", STEADY_CONTINUE}, {"iops:8001", STEADY_REACHED},
        {"iops_slope:100", STEADY_CONTINUE}, {"iops_slope:100.5", STEADY_REACHED},
    };
    for (unsigned i = 0; i < 4; i++) {
        struct steady_cfg c;
        steady_fio_defaults(&c);
        CHECK(steady_parse_fio(cases[i].spec, &c, NULL, 0) == 0, "parse %s", cases[i].spec);
        c.window = 5;
        steady_init(&g_s, &c);
        enum steady_state st;
        feed_until(&g_s, v, 5, &st);
        CHECK(st == cases[i].want, "%s: %s", cases[i].spec, steady_state_name(st));
    }
}

/* fio ramp: ss_dur 5 s, ss_ramp 2 s at 1 s -> window 5, skip 2. The first
 * two samples (huge) are ignored; five 100s follow -> reached at the 5th
 * counted sample with window 1..5. */
TEST(fio_window_and_ramp)
{
    struct steady_cfg c;
    char err[160];
    steady_fio_defaults(&c);
    CHECK(steady_cfg_check(&c, NULL, 0) == -EINVAL, "fio defaults without a window accepted");
    CHECK(steady_fio_window(&c, 30000000000ull, 10000000000ull, 1000000000ull, err,
                            sizeof(err)) == 0, "%s", err);
    CHECK(c.window == 30 && c.skip == 10, "window %u skip %u", c.window, c.skip);
    CHECK(steady_fio_window(&c, 5000000000ull, 1500000000ull, 1000000000ull, err,
                            sizeof(err)) == 0, "%s", err);
    CHECK(c.window == 5 && c.skip == 2, "window %u skip %u", c.window, c.skip);
    CHECK(steady_fio_window(&c, 1000000000ull, 0, 1000000000ull, err, sizeof(err)) == -EINVAL,
          "1-sample window accepted");
    CHECK(strstr(err, "ss_dur") && !strchr(err, '\n'), "err '%s'", err);
    CHECK(steady_fio_window(&c, 5000000000ull, 0, 0, err, sizeof(err)) == -EINVAL,
          "interval 0 accepted");
    CHECK(steady_fio_window(&c, 7200000000000ull, 0, 1000000000ull, err, sizeof(err)) == -EINVAL,
          "7200-sample window accepted");

    steady_fio_window(&c, 5000000000ull, 2000000000ull, 1000000000ull, err, sizeof(err));
    CHECK(c.skip == 2, "skip %u", c.skip);
    CHECK(steady_parse_fio("iops:1%", &c, NULL, 0) == 0, "parse");
    steady_init(&g_s, &c);
    const double v[] = {1e6, 5e5, 100, 100, 100, 100, 100};
    enum steady_state st;
    unsigned at = feed_until(&g_s, v, 7, &st);
    CHECK(st == STEADY_REACHED && at == 7, "state %s at %u", steady_state_name(st), at);
    struct steady_report r;
    steady_get_report(&g_s, &r);
    CHECK(r.rounds == 5 && r.skipped == 2 && r.window_first == 1 && r.window_last == 5,
          "rounds %u skipped %u window %u..%u", r.rounds, r.skipped, r.window_first,
          r.window_last);
    CHECK(r.avg == 100, "avg %g", r.avg);
}

TEST(fio_all_zero)
{
    struct steady_cfg c;
    steady_fio_defaults(&c);
    CHECK(steady_parse_fio("bw_slope:1%", &c, NULL, 0) == 0, "parse");
    c.window = 3;
    steady_init(&g_s, &c);
    enum steady_state st = STEADY_CONTINUE;
    for (int i = 0; i < 3; i++)
        st = steady_feed(&g_s, 0);
    CHECK(st == STEADY_REACHED, "state %s", steady_state_name(st));
    struct steady_report r;
    steady_get_report(&g_s, &r);
    CHECK(r.zero_avg && r.criterion == 0, "criterion %g", r.criterion);
}

TEST(parse_good)
{
    struct {
        const char *s;
        enum steady_rule rule;
        enum steady_metric metric;
        double limit;
        bool pct;
    } ok[] = {
        {"iops:10%", STEADY_DEVIATION, STEADY_IOPS, 10, true},
        {"iops_slope:0.1%", STEADY_SLOPE, STEADY_IOPS, 0.1, true},
        {"bw:2000000", STEADY_DEVIATION, STEADY_BW, 2000000, false},
        {"bw:2M", STEADY_DEVIATION, STEADY_BW, 2097152, false},
        {"bw:1.5k", STEADY_DEVIATION, STEADY_BW, 1536, false},
        {"bw:2MiB", STEADY_DEVIATION, STEADY_BW, 2097152, false},
        {"bw_slope:1%", STEADY_SLOPE, STEADY_BW, 1, true},
        {"lat:5%", STEADY_DEVIATION, STEADY_LAT, 5, true},
        {"lat_slope:0.5%", STEADY_SLOPE, STEADY_LAT, 0.5, true},
        {"lat:500us", STEADY_DEVIATION, STEADY_LAT, 500000, false},
        {"lat:2ms", STEADY_DEVIATION, STEADY_LAT, 2000000, false},
        {"lat:750", STEADY_DEVIATION, STEADY_LAT, 750000, false},
        {"lat:300ns", STEADY_DEVIATION, STEADY_LAT, 300, false},
        {"lat_slope:1s", STEADY_SLOPE, STEADY_LAT, 1e9, false},
        {"iops:2000", STEADY_DEVIATION, STEADY_IOPS, 2000, false},
        {" IOPS_Slope : 0.01 % ", STEADY_SLOPE, STEADY_IOPS, 0.01, true},
        {"iops:1e3", STEADY_DEVIATION, STEADY_IOPS, 1000, false},
        {"iops:0%", STEADY_DEVIATION, STEADY_IOPS, 0, true},
    };
    for (unsigned i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
        struct steady_cfg c;
        char err[200] = "";
        steady_snia_defaults(&c);
        c.window = 7;
        int rc = steady_parse_fio(ok[i].s, &c, err, sizeof(err));
        CHECK(rc == 0, "'%s' rejected: %s", ok[i].s, err);
        CHECK(c.rule == ok[i].rule && c.metric == ok[i].metric, "'%s': rule %s metric %s",
              ok[i].s, steady_rule_name(c.rule), steady_metric_name(c.metric));
        CHECK(c.limit == ok[i].limit && c.limit_pct == ok[i].pct, "'%s': limit %.17g pct %d",
              ok[i].s, c.limit, c.limit_pct);
        CHECK(c.window == 7, "'%s' touched the window", ok[i].s);

        /* the formatted criterion reads back to the same thing */
        char buf[64];
        struct steady_cfg back = c;
        steady_format(&c, buf, sizeof(buf));
        CHECK(steady_parse_fio(buf, &back, err, sizeof(err)) == 0, "'%s' -> '%s': %s", ok[i].s,
              buf, err);
        CHECK(back.rule == c.rule && back.metric == c.metric && back.limit == c.limit &&
              back.limit_pct == c.limit_pct, "'%s' -> '%s' differs", ok[i].s, buf);
    }
    struct steady_cfg c;
    char buf[64];
    steady_snia_defaults(&c);
    steady_format(&c, buf, sizeof(buf));
    CHECK(!strcmp(buf, "snia:20%/10%"), "'%s'", buf);
    steady_parse_fio("iops_slope:0.1%", &c, NULL, 0);
    steady_format(&c, buf, sizeof(buf));
    CHECK(!strcmp(buf, "iops_slope:0.1%"), "'%s'", buf);
}

TEST(parse_bad)
{
    struct { const char *s; const char *must; } bad[] = {
        {"", "empty"},
        {"   ", "empty"},
        {"iops", "threshold"},
        {"iops:", "threshold"},
        {"foo:10%", "foo"},
        {"iopsslope:1%", "iopsslope"},
        {"iops:abc", "abc"},
        {"iops:-5%", "negative"},
        {"iops:10%%", "10%%"},
        {"iops:10x", "10x"},
        {"iops:2k", "2k"},
        {"lat:5parsecs", "parsecs"},
        {"bw:2Q", "2Q"},
        {"bw:2MBps", "2MBps"},
        {"iops:nan", "nan"},
        {"iops:inf%", "inf"},
        {"iops:0x10", "0x10"},
        {"iops:1e400", "1e400"},
        {"bw:1e308P", "1e308P"},
        {"iops:10%:5", "10%:5"},
        {"iops:1\n0%", "1?0%"},
        {":10%", "criterion"},
    };
    for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        struct steady_cfg c, before;
        char err[200] = "";
        steady_snia_defaults(&c);
        before = c;
        int rc = steady_parse_fio(bad[i].s, &c, err, sizeof(err));
        CHECK(rc == -EINVAL, "'%s' accepted (rc %d)", bad[i].s, rc);
        CHECK(err[0] && !strchr(err, '\n'), "'%s': message '%s'", bad[i].s, err);
        CHECK(strstr(err, bad[i].must), "'%s': message '%s' lacks '%s'", bad[i].s, err,
              bad[i].must);
        CHECK(!memcmp(&c, &before, sizeof(c)), "'%s' changed the config", bad[i].s);
    }
    char err[8];
    CHECK(steady_parse_fio("foo", NULL, err, sizeof(err)) == -EINVAL, "small buffer");
    CHECK(strlen(err) == 7, "not truncated to the buffer: '%s'", err);
    CHECK(steady_parse_fio(NULL, NULL, NULL, 0) == -EINVAL, "NULL accepted");
}

TEST(cfg_check_bad)
{
    struct steady_cfg c;
    char err[160];
    steady_snia_defaults(&c);
    c.window = 1;
    CHECK(steady_cfg_check(&c, err, sizeof(err)) == -EINVAL, "window 1");
    CHECK(strstr(err, "window"), "'%s'", err);
    c.window = STEADY_WINDOW_MAX + 1;
    CHECK(steady_cfg_check(&c, err, sizeof(err)) == -EINVAL, "window too big");
    steady_snia_defaults(&c);
    c.max_rounds = 4;
    CHECK(steady_cfg_check(&c, err, sizeof(err)) == -EINVAL, "max rounds < window");
    steady_snia_defaults(&c);
    c.range_pct = -1;
    CHECK(steady_cfg_check(&c, err, sizeof(err)) == -EINVAL, "negative range");
    steady_snia_defaults(&c);
    c.slope_pct = NAN;
    CHECK(steady_cfg_check(&c, err, sizeof(err)) == -EINVAL, "nan slope");
    steady_fio_defaults(&c);
    c.window = 5;
    c.limit = -1;
    CHECK(steady_cfg_check(&c, err, sizeof(err)) == -EINVAL, "negative limit");

    /* an invalid detector answers NOT_REACHED and reports nothing */
    c.limit = NAN;
    CHECK(steady_init(&g_s, &c) == -EINVAL, "init accepted nan limit");
    CHECK(steady_feed(&g_s, 1) == STEADY_NOT_REACHED, "invalid detector continued");
    double w[4];
    CHECK(steady_window_values(&g_s, w, 4) == 0, "window values of invalid detector");
}

TEST(names)
{
    CHECK(!strcmp(steady_rule_name(STEADY_SNIA), "snia"), "snia");
    CHECK(!strcmp(steady_rule_name(STEADY_DEVIATION), "deviation"), "deviation");
    CHECK(!strcmp(steady_rule_name(STEADY_SLOPE), "slope"), "slope");
    CHECK(!strcmp(steady_metric_name(STEADY_LAT), "lat"), "lat");
    CHECK(!strcmp(steady_state_name(STEADY_NOT_REACHED), "not_reached"), "not_reached");
}

CHECK_MAIN()
