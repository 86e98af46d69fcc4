/* test_pts_steady.c - the PTS steady-state determination (pts_ss_*, which
 * feeds base/steady.h's SNIA rule, the suite's module) on hand-made series:
 * converging, trending, oscillating, not achieved at 25 rounds, and several
 * tracking variables that must pass in the same window; plus the PTS test
 * matrices and the compliance list. Expected figures are worked out by hand
 * in the comments or from closed forms, never read from the module. */
#include "check.h"
#include "pts/pts.h"

#include <math.h>
#include <string.h>

static struct pts_ss g_ss;   /* ~100 KiB: off the stack */

static int near(double a, double b, double tol)
{
    return fabs(a - b) <= tol;
}

/* Feeds one variable's series; returns the 1-based round that decided (0 =
 * never) with the answer in *st. */
static unsigned feed1(struct pts_ss *s, const double *v, unsigned n, enum steady_state *st)
{
    for (unsigned i = 0; i < n; i++) {
        *st = pts_ss_feed(s, &v[i]);
        if (*st != STEADY_CONTINUE)
            return i + 1;
    }
    *st = STEADY_CONTINUE;
    return 0;
}

TEST(converging_series_reaches_at_round_7)
{
    /* 2000 1500 1100 then 1000 flat. Window 1-5: range 1000 > 20 % of 1320;
     * 2-6: 500 > 20 % of 1120; 3-7 = 1100 1000 1000 1000 1000: avg 1020,
     * range 100 <= 204; slope = sum((r-5)(y-1020))/10 = (-2*80 -1*-20 + 0
     * + 1*-20 + 2*-20)/10 = -20, excursion 4*20 = 80 <= 102: reached at 7.
     * Fit y = -20 r + 1120 (1020 + 20*5). */
    const double v[] = {2000, 1500, 1100, 1000, 1000, 1000, 1000, 1000, 1000};
    CHECK(pts_ss_init(&g_ss, 1, STEADY_IOPS, 25) == 0, "init");
    enum steady_state st;
    unsigned at = feed1(&g_ss, v, 9, &st);
    CHECK(at == 7 && st == STEADY_REACHED, "decided at %u state %d", at, st);
    struct steady_report r;
    double win[5];
    unsigned nw;
    pts_ss_report(&g_ss, 0, &r, win, &nw);
    CHECK(r.window_first == 3 && r.window_last == 7, "window %u-%u", r.window_first, r.window_last);
    CHECK(near(r.avg, 1020, 1e-9) && near(r.range, 100, 1e-9), "avg %g range %g", r.avg, r.range);
    CHECK(near(r.range_allowed, 204, 1e-9), "allowed %g", r.range_allowed);
    CHECK(near(r.slope, -20, 1e-9) && near(r.intercept, 1120, 1e-9), "fit %g %g", r.slope, r.intercept);
    CHECK(near(r.slope_excursion, 80, 1e-9) && near(r.slope_allowed, 102, 1e-9), "slope exc %g of %g",
          r.slope_excursion, r.slope_allowed);
    CHECK(nw == 5 && win[0] == 1100 && win[4] == 1000, "window values %u %g %g", nw, win[0], win[4]);
    /* the answer is final: a wild value later changes nothing */
    double wild = 1;
    CHECK(pts_ss_feed(&g_ss, &wild) == STEADY_REACHED, "not final");
}

TEST(trending_series_not_achieved_at_25)
{
    /* y_r = 1000 * 1.04^r. Every window: max/min = 1.04^4 = 1.16986, so the
     * range is 0.16986 min and the average (1 + 1.04 + ... + 1.04^4)/5 min =
     * 1.08326 min: 15.68 % of the average, within 20 %. The slope excursion
     * is about as large (over 10 %), so it fails every round and the answer
     * after round 25 is NOT_REACHED with the window 21-25. */
    double v[30];
    for (unsigned i = 0; i < 30; i++)
        v[i] = 1000 * pow(1.04, i + 1);
    CHECK(pts_ss_init(&g_ss, 1, STEADY_IOPS, 25) == 0, "init");
    enum steady_state st;
    unsigned at = feed1(&g_ss, v, 30, &st);
    CHECK(at == 25 && st == STEADY_NOT_REACHED, "decided at %u state %d", at, st);
    struct steady_report r;
    double win[5];
    unsigned nw;
    pts_ss_report(&g_ss, 0, &r, win, &nw);
    CHECK(r.window_first == 21 && r.window_last == 25 && r.rounds == 25, "window %u-%u rounds %u",
          r.window_first, r.window_last, r.rounds);
    double mn = 1000 * pow(1.04, 21), sum = 0;
    for (int k = 0; k < 5; k++)
        sum += mn * pow(1.04, k);
    double range_pct = 100 * (mn * pow(1.04, 4) - mn) / (sum / 5);
    CHECK(near(r.range_pct, range_pct, 1e-6) && r.range_pct < 20, "range %% %g want %g", r.range_pct,
          range_pct);
    CHECK(r.slope_excursion_pct > 10 && !r.passed, "slope %% %g passed %d", r.slope_excursion_pct,
          r.passed);
}

TEST(oscillating_series_fails_the_data_excursion)
{
    /* 1000 1300 1000 1300 ...: a window of three lows and two highs has avg
     * 1120 and range 300 (26.79 %) > 20 %; three highs: avg 1180, 25.42 %.
     * The fit is flat for the low-high-low pattern: deviations -120 180 -120
     * 180 -120 against -2 -1 0 1 2 sum to 0. Never reached; round 25 ends
     * on a low (odd round), window 21-25 = low high low high low. */
    double v[25];
    for (unsigned i = 0; i < 25; i++)
        v[i] = (i % 2) ? 1300 : 1000;
    CHECK(pts_ss_init(&g_ss, 1, STEADY_BW, 25) == 0, "init");
    enum steady_state st;
    unsigned at = feed1(&g_ss, v, 25, &st);
    CHECK(at == 25 && st == STEADY_NOT_REACHED, "decided at %u state %d", at, st);
    struct steady_report r;
    double win[5];
    unsigned nw;
    pts_ss_report(&g_ss, 0, &r, win, &nw);
    CHECK(near(r.avg, 1120, 1e-9) && near(r.range, 300, 1e-9), "avg %g range %g", r.avg, r.range);
    CHECK(near(r.range_pct, 100.0 * 300 / 1120, 1e-9), "range %% %g", r.range_pct);
    CHECK(near(r.slope, 0, 1e-9) && near(r.slope_excursion, 0, 1e-9), "slope %g", r.slope);
}

TEST(max_rounds_is_the_limit)
{
    /* the oscillating series with --max-rounds 10: decided at 10, window 6-10 */
    double v[25];
    for (unsigned i = 0; i < 25; i++)
        v[i] = (i % 2) ? 1300 : 1000;
    CHECK(pts_ss_init(&g_ss, 1, STEADY_IOPS, 10) == 0, "init");
    enum steady_state st;
    unsigned at = feed1(&g_ss, v, 25, &st);
    CHECK(at == 10 && st == STEADY_NOT_REACHED, "decided at %u state %d", at, st);
    struct steady_report r;
    double win[5];
    unsigned nw;
    pts_ss_report(&g_ss, 0, &r, win, &nw);
    CHECK(r.window_first == 6 && r.window_last == 10, "window %u-%u", r.window_first, r.window_last);
    /* fewer rounds than the window cannot be configured */
    CHECK(pts_ss_init(&g_ss, 1, STEADY_IOPS, 4) < 0, "max rounds 4 accepted");
}

TEST(all_tracking_variables_in_the_same_window)
{
    /* A: the converging series (passes from window 3-7 on). B: 3000 for six
     * rounds, then 1000: alone it passes at once (window 1-5 all 3000), but
     * windows 3-7 .. 6-10 mix 3000 and 1000 (range 2000). Together the
     * first window where both pass is 7-11. */
    double a[] = {2000, 1500, 1100, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000};
    double b[] = {3000, 3000, 3000, 3000, 3000, 3000, 1000, 1000, 1000, 1000, 1000, 1000};
    CHECK(pts_ss_init(&g_ss, 2, STEADY_IOPS, 25) == 0, "init");
    unsigned at = 0;
    for (unsigned i = 0; i < 12; i++) {
        double v[2] = {a[i], b[i]};
        if (pts_ss_feed(&g_ss, v) != STEADY_CONTINUE) {
            at = i + 1;
            break;
        }
    }
    CHECK(at == 11 && g_ss.state == STEADY_REACHED, "decided at %u state %d", at, g_ss.state);
    for (unsigned k = 0; k < 2; k++) {
        struct steady_report r;
        double win[5];
        unsigned nw;
        pts_ss_report(&g_ss, k, &r, win, &nw);
        CHECK(r.reached && r.window_first == 7 && r.window_last == 11, "var %u window %u-%u", k,
              r.window_first, r.window_last);
        CHECK(near(r.avg, 1000, 1e-9), "var %u avg %g", k, r.avg);
    }
    /* B alone decides at round 5 */
    CHECK(pts_ss_init(&g_ss, 1, STEADY_IOPS, 25) == 0, "init");
    enum steady_state st;
    CHECK(feed1(&g_ss, b, 12, &st) == 5 && st == STEADY_REACHED, "B alone");
}

TEST(matrices)
{
    struct pts_matrix m;
    pts_matrix(PTS_IOPS, 0, &m);
    CHECK(m.nelements == 56, "iops elements %u", m.nelements);
    /* outer mix 100/0 first, inner block size 1024 KiB first, 0.5 KiB last */
    CHECK(m.el[0].bs == 1048576 && m.el[0].read_pct == 100, "first %u %u", m.el[0].bs, m.el[0].read_pct);
    CHECK(m.el[7].bs == 512 && m.el[8].read_pct == 95, "loop order");
    CHECK(m.el[55].bs == 512 && m.el[55].read_pct == 0, "last");
    CHECK(m.ntrack == 3, "tracking %u", m.ntrack);
    CHECK(m.el[m.track[0]].bs == 4096 && m.el[m.track[0]].read_pct == 0, "4k write");
    CHECK(m.el[m.track[1]].bs == 65536 && m.el[m.track[1]].read_pct == 65, "64k 65/35");
    CHECK(m.el[m.track[2]].bs == 1048576 && m.el[m.track[2]].read_pct == 100, "1m read");
    pts_matrix(PTS_LAT, 0, &m);
    CHECK(m.nelements == 9 && m.ntrack == 1 && m.metric == STEADY_LAT, "lat %u", m.nelements);
    CHECK(m.el[m.track[0]].bs == 4096 && m.el[m.track[0]].read_pct == 0, "lat tracking");
    pts_matrix(PTS_TP, 131072, &m);
    CHECK(m.nelements == 2 && m.el[0].seq && m.el[1].read_pct == 0 && m.track[0] == 1, "tp");
    struct pts_cfg c;
    pts_defaults(&c);
    pts_matrix(PTS_IOPS, 0, &m);
    CHECK(pts_element_ns(&c, &m) == 60000000000ull, "element time");
    c.round_ns = 5600000000ull;
    CHECK(pts_element_ns(&c, &m) == 100000000ull, "round split %llu",
          (unsigned long long)pts_element_ns(&c, &m));
}

TEST(presets_and_compliance)
{
    struct pts_cfg c;
    pts_defaults(&c);
    CHECK(pts_tc(&c) == 4 && pts_qd(&c) == 32 && pts_active_range(&c) == 100, "enterprise");
    CHECK(!strcmp(pts_wc_required(&c), "WCD"), "wcd");
    cJSON *a = pts_noncompliance(&c, c.test);
    CHECK(cJSON_GetArraySize(a) == 0, "spec settings listed %d reasons", cJSON_GetArraySize(a));
    cJSON_Delete(a);
    c.preset = PTS_CLIENT;
    CHECK(pts_tc(&c) == 2 && pts_qd(&c) == 16 && pts_active_range(&c) == 75, "client");
    c.round_ns = 1000000000ull;
    c.max_rounds = 6;
    c.capacity_scale = 0.5;
    c.active_range_pct = 50;
    /* the four tests of test_pts_more.c have their own reasons */
    for (int t = PTS_HIR; t < PTS_NTESTS; t++)
        c.test[t] = false;
    a = pts_noncompliance(&c, c.test);
    /* iops, throughput, latency element times; rounds; scale; client AR */
    CHECK(cJSON_GetArraySize(a) == 6, "reasons %d", cJSON_GetArraySize(a));
    cJSON_Delete(a);
    char err[256];
    snprintf(c.target, sizeof(c.target), "/dev/x");
    c.round_ns = 1000000ull;   /* 1 ms rounds: under 20 ms per element */
    CHECK(pts_check(&c, 512, err, sizeof(err)) < 0 && strstr(err, "--round-time"), "%s", err);
    c.round_ns = 0;
    CHECK(pts_check(&c, 4096, err, sizeof(err)) < 0 && strstr(err, "0.5KiB"), "%s", err);
    CHECK(pts_check(&c, 512, err, sizeof(err)) == 0, "%s", err);
}

CHECK_MAIN()
