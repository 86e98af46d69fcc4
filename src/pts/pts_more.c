/* pts_more.c - see pts.h: the configuration side of HIR, XSR, CBW and
 * DIRTH: the CBW composite (block-size shares, access zones), the demand
 * grid and its matrix, the choice of the Max/Mid/Min demand-intensity
 * points, and these tests' checks and non-compliance reasons. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "pts/pts.h"

/* JESD219 / PTS CBW [IMPL]: shares of I/Os in percent (sum 100). */
const uint32_t pts_cbw_bs[PTS_CBW_NBS] = {512,      1024,     1536,     2048,    2560,     3072,
                                          3584,     4 << 10,  8 << 10,  16 << 10, 32 << 10, 64 << 10};
const double pts_cbw_pct[PTS_CBW_NBS] = {4, 1, 1, 1, 1, 1, 1, 67, 10, 7, 3, 3};
/* 50 % of I/Os to the first 5 % of LBAs, 30 % to the next 15 %, 20 % to the rest */
const double pts_cbw_zone[PTS_CBW_NZONES][2] = {{50, 5}, {30, 15}, {20, 80}};

void pts_cbw_apply(struct job_spec *j)
{
    for (unsigned d = 0; d < DIR_COUNT; d++) {
        j->bs[d].n = PTS_CBW_NBS;
        for (unsigned i = 0; i < PTS_CBW_NBS; i++) {
            j->bs[d].bs[i] = pts_cbw_bs[i];
            j->bs[d].pct[i] = pts_cbw_pct[i];
        }
        j->blockalign[d] = 4096;
    }
    j->dist.kind = DIST_ZONED;
    j->dist.nzones = PTS_CBW_NZONES;
    for (unsigned z = 0; z < PTS_CBW_NZONES; z++)
        j->dist.zones[z] = (struct job_zone){pts_cbw_zone[z][0], pts_cbw_zone[z][1]};
}

static const unsigned spec_grid[PTS_DI_MAX] = {32, 16, 8, 6, 4, 2, 1};

unsigned pts_di_tcs(const struct pts_cfg *c, unsigned *tc)
{
    unsigned n = c->di_ntc ? c->di_ntc : PTS_DI_MAX;
    memcpy(tc, c->di_ntc ? c->di_tc : spec_grid, n * sizeof(*tc));
    return n;
}

unsigned pts_di_qds(const struct pts_cfg *c, unsigned *qd)
{
    unsigned n = c->di_nqd ? c->di_nqd : PTS_DI_MAX;
    memcpy(qd, c->di_nqd ? c->di_qd : spec_grid, n * sizeof(*qd));
    return n;
}

void pts_di_matrix(const struct pts_cfg *c, enum pts_test t, struct pts_matrix *m)
{
    memset(m, 0, sizeof(*m));
    m->test = t;
    unsigned tc[PTS_DI_MAX], qd[PTS_DI_MAX];
    unsigned ntc = pts_di_tcs(c, tc), nqd = pts_di_qds(c, qd);
    bool cbw = t == PTS_CBW;
    for (unsigned a = 0; a < ntc; a++)
        for (unsigned b = 0; b < nqd; b++)
            m->el[m->nelements++] = (struct pts_element){
                .bs = cbw ? 0 : c->dirth_bs,
                .read_pct = cbw ? PTS_CBW_READ_PCT : c->dirth_read_pct,
                .composite = cbw,
                .tc = tc[a],
                .qd = qd[b]};
    m->ntrack = 1;
    m->track[0] = 0;   /* the largest TC and QD (TC32/QD32) */
    m->metric = STEADY_IOPS;
}

int pts_di_select(const double *iops, const double *art_ns, const unsigned *tc, const unsigned *qd,
                  unsigned n, double art_limit_ns, unsigned sel[3], bool *max_ok)
{
    if (!n)
        return -EINVAL;
    int mx = -1;
    for (unsigned i = 0; i < n; i++)
        if (art_ns[i] < art_limit_ns && (mx < 0 || iops[i] > iops[mx]))
            mx = (int)i;
    *max_ok = mx >= 0;
    if (mx < 0) {
        mx = 0;
        for (unsigned i = 1; i < n; i++)
            if (art_ns[i] < art_ns[mx])
                mx = (int)i;
    }
    int mn = -1;
    for (unsigned i = 0; i < n; i++) {
        if (mn < 0) {
            mn = (int)i;
            continue;
        }
        unsigned oi = tc[i] * qd[i], om = tc[mn] * qd[mn];
        bool one_i = tc[i] == 1 && qd[i] == 1, one_m = tc[mn] == 1 && qd[mn] == 1;
        if (one_m)
            continue;
        if (one_i || oi < om || (oi == om && iops[i] < iops[mn]))
            mn = (int)i;
    }
    double mid = (iops[mx] + iops[mn]) / 2;
    unsigned md = 0;
    for (unsigned i = 1; i < n; i++)
        if (fabs(iops[i] - mid) < fabs(iops[md] - mid))
            md = i;
    sel[0] = (unsigned)mx;
    sel[1] = md;
    sel[2] = (unsigned)mn;
    return 0;
}

int pts_more_check(const struct pts_cfg *c, uint32_t logical_block, char *err, size_t errlen)
{
    uint32_t lbs = logical_block ? logical_block : 512;
    if (c->test[PTS_HIR]) {
        if (c->hir_burst_ns < PTS_MIN_ELEMENT_NS || !c->hir_reps) {
            snprintf(err, errlen, "pts: --hir-burst must be at least %.0f ms and --reps at least 1",
                     PTS_MIN_ELEMENT_NS / 1e6);
            return -EINVAL;
        }
        if (c->round_ns && c->round_ns < PTS_MIN_ELEMENT_NS) {
            snprintf(err, errlen, "pts: --round-time gives the hir pre-writes %.1f ms rounds; at "
                     "least %.0f ms", (double)c->round_ns / 1e6, PTS_MIN_ELEMENT_NS / 1e6);
            return -EINVAL;
        }
    }
    if (c->test[PTS_XSR] && (c->xsr_sample_ns < PTS_MIN_ELEMENT_NS || c->xsr_ns < c->xsr_sample_ns)) {
        snprintf(err, errlen, "pts: --xsr-interval must be at least %.0f ms and --xsr-time at least "
                 "one interval", PTS_MIN_ELEMENT_NS / 1e6);
        return -EINVAL;
    }
    if (c->test[PTS_XSR] && (1024u << 10) % lbs) {
        snprintf(err, errlen, "pts: the xsr test's block sizes are not multiples of %s's logical "
                 "block size %" PRIu32, c->target, lbs);
        return -EINVAL;
    }
    for (int t = PTS_CBW; t <= PTS_DIRTH; t++) {
        if (!c->test[t])
            continue;
        struct pts_matrix m;
        pts_di_matrix(c, (enum pts_test)t, &m);
        if (pts_element_ns(c, &m) < PTS_MIN_ELEMENT_NS) {
            snprintf(err, errlen,
                     "pts: --round-time gives the %s test's %u demand points %.1f ms each; at least "
                     "%.0f ms per point (a round of at least %.2f s)",
                     pts_test_name((enum pts_test)t), m.nelements,
                     (double)pts_element_ns(c, &m) / 1e6, PTS_MIN_ELEMENT_NS / 1e6,
                     (double)PTS_MIN_ELEMENT_NS * m.nelements / 1e9);
            return -EINVAL;
        }
        uint32_t small = t == PTS_CBW ? pts_cbw_bs[0] : c->dirth_bs;
        if (t == PTS_CBW && lbs > 512) {
            snprintf(err, errlen, "pts: the cbw composite's 0.5 KiB to 3.5 KiB block sizes need a "
                     "512-byte logical block; %s has %" PRIu32, c->target, lbs);
            return -EINVAL;
        }
        if (!small || small % lbs) {
            snprintf(err, errlen, "pts: --dirth-bs %" PRIu32 " is not a multiple of %s's logical "
                     "block size %" PRIu32 " (O_DIRECT needs it)", small, c->target, lbs);
            return -EINVAL;
        }
    }
    if (c->test[PTS_DIRTH] && c->dirth_read_pct > 100) {
        snprintf(err, errlen, "pts: --dirth-read %u is not a percentage", c->dirth_read_pct);
        return -EINVAL;
    }
    return 0;
}

static bool spec_grid_used(const struct pts_cfg *c)
{
    unsigned tc[PTS_DI_MAX], qd[PTS_DI_MAX];
    unsigned ntc = pts_di_tcs(c, tc), nqd = pts_di_qds(c, qd);
    return ntc == PTS_DI_MAX && nqd == PTS_DI_MAX && !memcmp(tc, spec_grid, sizeof(tc)) &&
           !memcmp(qd, spec_grid, sizeof(qd));
}

void pts_more_noncompliance(const struct pts_cfg *c, const bool *tests_run, cJSON *a)
{
    if (tests_run[PTS_HIR]) {
        if (c->round_ns && c->round_ns != PTS_SPEC_ELEMENT_NS)
            pts_reason(a, "hir: pre-write rounds of %.3g s instead of 60 s (--round-time)",
                   (double)c->round_ns / 1e9);
        if (c->hir_burst_ns != PTS_SPEC_HIR_BURST_NS)
            pts_reason(a, "hir: bursts of %.3g s instead of 5 s, waits scaled with them (--hir-burst)",
                   (double)c->hir_burst_ns / 1e9);
        if (c->hir_reps != PTS_SPEC_HIR_REPS)
            pts_reason(a, "hir: %u bursts per wait state instead of 360 (--reps)", c->hir_reps);
    }
    if (tests_run[PTS_XSR]) {
        if (c->xsr_ns != PTS_SPEC_XSR_NS)
            pts_reason(a, "xsr: access groups of %.3g s / %.3g s / %.3g s instead of 8 h / 6 h / 8 h "
                   "(--xsr-time)", (double)c->xsr_ns / 1e9, 0.75 * (double)c->xsr_ns / 1e9,
                   (double)c->xsr_ns / 1e9);
        if (c->xsr_sample_ns != PTS_SPEC_ELEMENT_NS)
            pts_reason(a, "xsr: sampled every %.3g s instead of 1 min (--xsr-interval)",
                   (double)c->xsr_sample_ns / 1e9);
    }
    for (int t = PTS_CBW; t <= PTS_DIRTH; t++) {
        if (!tests_run[t])
            continue;
        struct pts_matrix m;
        pts_di_matrix(c, (enum pts_test)t, &m);
        if (pts_element_ns(c, &m) != PTS_SPEC_ELEMENT_NS)
            pts_reason(a, "%s: demand points of %.3g s instead of 60 s, pre-writes and captures scaled "
                   "with them (--round-time)", pts_test_name((enum pts_test)t),
                   (double)pts_element_ns(c, &m) / 1e9);
        if (c->round_ns && c->round_ns != PTS_SPEC_ELEMENT_NS)
            pts_reason(a, "%s: preconditioning rounds of %.3g s instead of 60 s (--round-time)",
                   pts_test_name((enum pts_test)t), (double)c->round_ns / 1e9);
        if (!spec_grid_used(c))
            pts_reason(a, "%s: a TC x QD grid of %u x %u points instead of 7 x 7 (--di-tc, --di-qd)",
                   pts_test_name((enum pts_test)t), c->di_ntc ? c->di_ntc : PTS_DI_MAX,
                   c->di_nqd ? c->di_nqd : PTS_DI_MAX);
    }
}
