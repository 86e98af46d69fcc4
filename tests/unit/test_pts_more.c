/* test_pts_more.c - the arithmetic of HIR, XSR, CBW and DIRTH
 * (pts_more.c): the CBW composite's block-size shares and access zones as
 * the reference gives them and as they reach a job, the demand grid and its
 * matrix, the choice of the MaxIOPS / MidIOPS / MinIOPS points on
 * hand-made tables, and these tests' checks and non-compliance reasons.
 * Expected values are worked out by hand in the comments. */
#include "check.h"
#include "pts/pts.h"

#include <math.h>
#include <string.h>

TEST(cbw_composite_shares)
{
    /* 0.5 KiB 4 %, 1 .. 3.5 KiB 1 % each (6), 4 KiB 67 %, 8 KiB 10 %,
     * 16 KiB 7 %, 32 and 64 KiB 3 %: 4 + 6 + 67 + 10 + 7 + 3 + 3 = 100 */
    double sum = 0, mean = 0;
    for (unsigned i = 0; i < PTS_CBW_NBS; i++) {
        sum += pts_cbw_pct[i];
        mean += pts_cbw_pct[i] / 100 * pts_cbw_bs[i];
    }
    CHECK(sum == 100, "shares sum to %g", sum);
    /* mean I/O size: 0.04*512 + 0.01*(1024+1536+2048+2560+3072+3584)
     * + 0.67*4096 + 0.10*8192 + 0.07*16384 + 0.03*32768 + 0.03*65536
     * = 20.48 + 138.24 + 2744.32 + 819.2 + 1146.88 + 983.04 + 1966.08 = 7818.24 */
    CHECK(fabs(mean - 7818.24) < 1e-9, "mean size %g", mean);
    CHECK(pts_cbw_bs[7] == 4096 && pts_cbw_pct[7] == 67, "4 KiB 67 %%");
    CHECK(pts_cbw_bs[0] == 512 && pts_cbw_bs[PTS_CBW_NBS - 1] == 65536, "0.5 .. 64 KiB");
    double acc = 0, rng = 0;
    for (unsigned z = 0; z < PTS_CBW_NZONES; z++) {
        acc += pts_cbw_zone[z][0];
        rng += pts_cbw_zone[z][1];
    }
    CHECK(acc == 100 && rng == 100, "zones %g/%g", acc, rng);
    CHECK(pts_cbw_zone[0][0] == 50 && pts_cbw_zone[0][1] == 5 && pts_cbw_zone[1][0] == 30 &&
              pts_cbw_zone[1][1] == 15 && pts_cbw_zone[2][0] == 20 && pts_cbw_zone[2][1] == 80,
          "zoned:50/5:30/15:20/80");
    CHECK(PTS_CBW_READ_PCT == 40, "R/W 40/60");
    struct job_spec j;
    job_defaults(&j);
    pts_cbw_apply(&j);
    for (unsigned d = 0; d < DIR_COUNT; d++) {
        CHECK(j.bs[d].n == PTS_CBW_NBS && j.blockalign[d] == 4096, "dir %u", d);
        for (unsigned i = 0; i < PTS_CBW_NBS; i++)
            CHECK(j.bs[d].bs[i] == pts_cbw_bs[i] && j.bs[d].pct[i] == pts_cbw_pct[i], "entry %u", i);
    }
    CHECK(j.dist.kind == DIST_ZONED && j.dist.nzones == 3 && j.dist.zones[2].range_pct == 80, "dist");
}

TEST(demand_grid_matrix)
{
    struct pts_cfg c;
    pts_defaults(&c);
    struct pts_matrix m;
    pts_di_matrix(&c, PTS_CBW, &m);
    /* 7 TC x 7 QD, TC outer, both descending from 32 */
    CHECK(m.nelements == 49, "points %u", m.nelements);
    CHECK(m.el[0].tc == 32 && m.el[0].qd == 32 && m.track[0] == 0 && m.ntrack == 1, "tracking TC32/QD32");
    CHECK(m.el[1].tc == 32 && m.el[1].qd == 16 && m.el[7].tc == 16 && m.el[7].qd == 32, "loop order");
    CHECK(m.el[3].qd == 6 && m.el[48].tc == 1 && m.el[48].qd == 1, "6 and the last");
    CHECK(m.el[10].composite && m.el[10].read_pct == 40, "composite 40/60");
    /* 1 min per point at spec; a 4.9 s round gives 100 ms points */
    CHECK(pts_element_ns(&c, &m) == 60000000000ull, "60 s");
    c.round_ns = 4900000000ull;
    CHECK(pts_element_ns(&c, &m) == 100000000ull, "split");
    c.di_ntc = 2;
    c.di_tc[0] = 4;
    c.di_tc[1] = 1;
    c.di_nqd = 3;
    c.di_qd[0] = 8;
    c.di_qd[1] = 2;
    c.di_qd[2] = 1;
    pts_di_matrix(&c, PTS_DIRTH, &m);
    CHECK(m.nelements == 6 && m.el[0].tc == 4 && m.el[0].qd == 8 && m.el[5].tc == 1 && m.el[5].qd == 1,
          "custom grid %u", m.nelements);
    CHECK(!m.el[0].composite && m.el[0].bs == 8192 && m.el[0].read_pct == 65, "DIRTH defaults 8 KiB 65/35");
}

TEST(point_selection)
{
    /* TC x QD:   2/4      2/1     1/4     1/1
     * IOPS:      9000     6000    5000    1000
     * ART (ms):  6.0      1.0     4.0     0.5
     * Max: 2/4 has ART >= 5 ms, so the highest below is 2/1 (6000).
     * Min: TC1/QD1 (1000). Mid target (6000 + 1000) / 2 = 3500:
     * distances 5500, 2500, 1500, 2500 -> 1/4. */
    const double iops[] = {9000, 6000, 5000, 1000};
    const double art[] = {6e6, 1e6, 4e6, 0.5e6};
    const unsigned tc[] = {2, 2, 1, 1}, qd[] = {4, 1, 4, 1};
    unsigned sel[3];
    bool ok;
    CHECK(pts_di_select(iops, art, tc, qd, 4, 5e6, sel, &ok) == 0, "select");
    CHECK(ok && sel[0] == 1 && sel[1] == 2 && sel[2] == 3, "max %u mid %u min %u", sel[0], sel[1], sel[2]);
    /* ART exactly 5 ms is not under it: "ART < 5 ms" */
    const double art2[] = {5e6, 5e6, 5e6, 5e6};
    CHECK(pts_di_select(iops, art2, tc, qd, 4, 5e6, sel, &ok) == 0 && !ok, "none under the limit");
    /* none qualifies: the lowest ART (the first of equals) */
    CHECK(sel[0] == 0, "lowest ART %u", sel[0]);
    /* no TC1/QD1 point: the lowest TC x QD (2/1 and 1/2 both 2: lower IOPS wins) */
    const unsigned tc3[] = {4, 2, 1, 2}, qd3[] = {4, 1, 2, 2};
    const double iops3[] = {8000, 3000, 2000, 4000};
    const double art3[] = {1e6, 1e6, 1e6, 1e6};
    CHECK(pts_di_select(iops3, art3, tc3, qd3, 4, 5e6, sel, &ok) == 0 && sel[0] == 0 && sel[2] == 2,
          "min without 1/1: %u", sel[2]);
    /* mid: (8000 + 2000) / 2 = 5000: distances 3000, 2000, 3000, 1000 -> index 3 */
    CHECK(sel[1] == 3, "mid %u", sel[1]);
    /* a tie in distance goes to the earlier point: target (9000+1000)/2 = 5000 with
     * 4000 and 6000 both 1000 away */
    const double iops4[] = {9000, 6000, 4000, 1000};
    const double art4[] = {1e6, 1e6, 1e6, 1e6};
    CHECK(pts_di_select(iops4, art4, tc, qd, 4, 5e6, sel, &ok) == 0 && sel[1] == 1, "tie %u", sel[1]);
    CHECK(pts_di_select(iops, art, tc, qd, 0, 5e6, sel, &ok) < 0, "empty");
}

TEST(checks_and_compliance)
{
    struct pts_cfg c;
    pts_defaults(&c);
    snprintf(c.target, sizeof(c.target), "/dev/x");
    CHECK(pts_test_parse("ecw") == PTS_CBW && pts_test_parse("CBW") == PTS_CBW, "ecw = cbw");
    CHECK(pts_test_parse("hir") == PTS_HIR && pts_test_parse("dirth") == PTS_DIRTH &&
              pts_test_parse("xsr") == PTS_XSR, "names");
    CHECK(c.hir_burst_ns == 5000000000ull && c.hir_reps == 360 && c.xsr_ns == 28800000000000ull &&
              c.xsr_sample_ns == 60000000000ull, "spec timing");
    char err[256];
    CHECK(pts_check(&c, 512, err, sizeof(err)) == 0, "%s", err);
    /* 4 KiB logical blocks: CBW's 0.5 KiB sizes cannot be O_DIRECT */
    memset(c.test, 0, sizeof(c.test));
    c.test[PTS_CBW] = true;
    CHECK(pts_check(&c, 4096, err, sizeof(err)) < 0 && strstr(err, "cbw"), "%s", err);
    c.test[PTS_CBW] = false;
    c.test[PTS_DIRTH] = true;
    CHECK(pts_check(&c, 4096, err, sizeof(err)) == 0, "8 KiB on 4 KiB: %s", err);
    c.dirth_bs = 6144;
    CHECK(pts_check(&c, 4096, err, sizeof(err)) < 0 && strstr(err, "--dirth-bs"), "%s", err);
    c.dirth_bs = 8192;
    /* 49 points need 49 x 20 ms = 0.98 s */
    c.round_ns = 900000000ull;
    CHECK(pts_check(&c, 512, err, sizeof(err)) < 0 && strstr(err, "0.98 s"), "%s", err);
    c.round_ns = 0;
    c.test[PTS_HIR] = true;
    c.hir_burst_ns = 10000000ull;
    CHECK(pts_check(&c, 512, err, sizeof(err)) < 0 && strstr(err, "--hir-burst"), "%s", err);
    c.hir_burst_ns = 5000000000ull;
    /* reasons: one per shortened control and test */
    memset(c.test, 0, sizeof(c.test));
    c.test[PTS_HIR] = c.test[PTS_XSR] = c.test[PTS_DIRTH] = true;
    cJSON *a = pts_noncompliance(&c, c.test);
    CHECK(cJSON_GetArraySize(a) == 0, "spec settings: %d reasons", cJSON_GetArraySize(a));
    cJSON_Delete(a);
    c.hir_reps = 3;
    c.hir_burst_ns = 100000000ull;
    c.xsr_ns = 1000000000ull;
    c.xsr_sample_ns = 100000000ull;
    c.di_ntc = 1;
    c.di_tc[0] = 1;
    a = pts_noncompliance(&c, c.test);
    /* hir burst, hir reps, xsr time, xsr interval, dirth grid */
    CHECK(cJSON_GetArraySize(a) == 5, "reasons %d", cJSON_GetArraySize(a));
    cJSON_Delete(a);
    c.round_ns = 2000000000ull;
    a = pts_noncompliance(&c, c.test);
    /* + hir pre-write rounds, dirth points, dirth preconditioning rounds */
    CHECK(cJSON_GetArraySize(a) == 8, "reasons %d", cJSON_GetArraySize(a));
    cJSON_Delete(a);
}

CHECK_MAIN()
