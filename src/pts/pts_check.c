/* pts_check.c - see pts.h: a configuration's checks before any I/O
 * (pts_check) and the list of reasons a run is not compliant
 * (pts_noncompliance), for every test: IOPS, TP, LAT and WSAT here, HIR,
 * XSR, CBW and DIRTH through pts_more.c. */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "pts/pts.h"

int pts_check(const struct pts_cfg *c, uint32_t logical_block, char *err, size_t errlen)
{
    bool any = false;
    for (int t = 0; t < PTS_NTESTS; t++)
        any |= c->test[t];
    if (!any) {
        snprintf(err, errlen, "pts: no test selected");
        return -EINVAL;
    }
    if (!c->target[0]) {
        snprintf(err, errlen, "pts: name the device to test (ssdbench pts [TEST] DEVICE)");
        return -EINVAL;
    }
    double ar = pts_active_range(c);
    if (!(ar > 0 && ar <= 100)) {
        snprintf(err, errlen, "pts: --active-range %g is not a percentage in (0, 100]", ar);
        return -EINVAL;
    }
    if (!(c->capacity_scale > 0 && c->capacity_scale <= 100)) {
        snprintf(err, errlen, "pts: --capacity-scale %g is not in (0, 100]", c->capacity_scale);
        return -EINVAL;
    }
    if (c->max_rounds < 5) {
        snprintf(err, errlen, "pts: --max-rounds must be at least 5 (the steady-state window)");
        return -EINVAL;
    }
    for (int t = 0; t < PTS_HIR; t++) {
        if (!c->test[t])
            continue;
        struct pts_matrix m;
        pts_matrix((enum pts_test)t, 1024 << 10, &m);
        if (t != PTS_WSAT && pts_element_ns(c, &m) < PTS_MIN_ELEMENT_NS) {
            snprintf(err, errlen,
                     "pts: --round-time gives the %s test's %u elements %.1f ms each; at least "
                     "%.0f ms per element (a round of at least %.2f s)",
                     pts_test_name((enum pts_test)t), m.nelements,
                     (double)pts_element_ns(c, &m) / 1e6, PTS_MIN_ELEMENT_NS / 1e6,
                     (double)PTS_MIN_ELEMENT_NS * m.nelements / 1e9);
            return -EINVAL;
        }
        uint32_t lbs = logical_block ? logical_block : 512;
        for (unsigned i = 0; i < m.nelements; i++)
            if (m.el[i].bs % lbs) {
                char b[16];
                pts_bs_name(m.el[i].bs, b, sizeof(b));
                snprintf(err, errlen,
                         "pts: the %s test's block size %s is not a multiple of %s's logical "
                         "block size %" PRIu32 " (O_DIRECT needs it)",
                         pts_test_name((enum pts_test)t), b, c->target, lbs);
                return -EINVAL;
            }
    }
    /* ActiveRange segmentation */
    if (c->segments && !c->active_amount) {
        snprintf(err, errlen, "pts: --segments needs --active-amount (the amount they share)");
        return -EINVAL;
    }
    if (c->test[PTS_WSAT] && c->wsat_sample_ns < PTS_MIN_ELEMENT_NS) {
        snprintf(err, errlen, "pts: --wsat-interval must be at least %.0f ms",
                 PTS_MIN_ELEMENT_NS / 1e6);
        return -EINVAL;
    }
    return pts_more_check(c, logical_block, err, errlen);
}

cJSON *pts_noncompliance(const struct pts_cfg *c, const bool *tests_run)
{
    cJSON *a = cJSON_CreateArray();
    bool rounds = false;
    for (int t = 0; t < PTS_HIR; t++) {
        if (!tests_run[t] || t == PTS_WSAT)
            continue;
        struct pts_matrix m;
        pts_matrix((enum pts_test)t, 1024 << 10, &m);
        if (pts_element_ns(c, &m) != PTS_SPEC_ELEMENT_NS)
            pts_reason(a, "%s: elements of %.3g s instead of 60 s (--round-time)",
                   pts_test_name((enum pts_test)t), (double)pts_element_ns(c, &m) / 1e9);
        rounds = true;
    }
    rounds |= tests_run[PTS_HIR] || tests_run[PTS_CBW] || tests_run[PTS_DIRTH];
    if (rounds && c->max_rounds != 25)
        pts_reason(a, "at most %u rounds instead of 25 (--max-rounds)", c->max_rounds);
    if (c->capacity_scale != 1.0)
        pts_reason(a, "capacity scaled by %g: WIPC writes %gx and WSAT at most %gx the capacity instead "
                  "of 2x and 4x (--capacity-scale)",
               c->capacity_scale, 2 * c->capacity_scale, 4 * c->capacity_scale);
    if (tests_run[PTS_WSAT] && c->wsat_ns != PTS_SPEC_WSAT_NS)
        pts_reason(a, "WSAT limited to %.3g s instead of 24 h (--wsat-time)", (double)c->wsat_ns / 1e9);
    if (tests_run[PTS_WSAT] && c->wsat_sample_ns != PTS_SPEC_ELEMENT_NS)
        pts_reason(a, "WSAT sampled every %.3g s instead of 1 min (--wsat-interval)",
               (double)c->wsat_sample_ns / 1e9);
    if (c->preset == PTS_CLIENT && pts_active_range(c) != 75.0)
        pts_reason(a, "client: ActiveRange %g %% instead of 75 %%", pts_active_range(c));
    pts_more_noncompliance(c, tests_run, a);
    if (c->no_purge)
        pts_reason(a, "no purge (--no-purge)");
    return a;
}
