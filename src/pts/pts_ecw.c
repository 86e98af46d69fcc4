/* pts_ecw.c - the Composite Block Size Workload (CBW; ECW in PTS-E 1.1) and
 * the Demand Intensity / Response Time Histogram test (DIRTH), which share
 * one structure (reference 4.7, 4.8):
 *   1. purge, then the stimulus as 100 % writes at the grid's largest TC/QD
 *      (TC32/QD32) in rounds of one element until steady state (IOPS);
 *   2. demand-variation rounds: each starts with a pre-write of 5 element
 *      times at TC32/QD32, then every TC x QD point of the grid for one
 *      element time at the test's mix, tracking TC32/QD32 IOPS, to steady
 *      state (at most --max-rounds);
 *   3. the Max (highest IOPS with ART < 5 ms), Mid and Min (TC1/QD1)
 *      points from the window table (pts_di_select);
 *   4. per point a pre-write of 60 element times at its TC/QD, then a
 *      capture of 10 element times at the test's mix whose latency
 *      histogram is the response-time histogram.
 * CBW's stimulus is the JESD219 composite (pts_cbw_apply) at 40/60; DIRTH's
 * one block size and mix of the operator's (8 KiB, 65/35 by default). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pts/pts_int.h"
#include "result/result.h"
#include "result/result_hist.h"

#define DI_ART_LIMIT_NS 5e6   /* Max: ART < 5 ms */
#define DI_ROUND_PREWRITE 5   /* element times of the pre-write before each round */
#define DI_POINT_PREWRITE 60  /* element times of the pre-write before each capture */
#define DI_POINT_CAPTURE 10   /* element times of each capture */

struct di_ctx {
    enum pts_test t;
    struct pts_element wr;    /* the stimulus as 100 % writes at the largest TC/QD */
    uint64_t el_ns;
    struct hist h[2];
};

/* One phase of the stimulus e for ns at e's TC/QD; its figures in *fig
 * (and, when lat is set, the latency object with the histogram). */
static cJSON *di_phase(struct pts_ctx *x, struct di_ctx *d, const char *name, const char *kind,
                       const struct pts_element *e, uint64_t ns, bool lat, int *rc, char *err,
                       size_t errlen)
{
    struct job_spec j;
    pts_rnd_job(x, name, e, ns, e->tc, e->qd, &j);
    cJSON *ph = pts_run_phase(x, name, kind, &j, 1, NULL, NULL, rc, err, errlen);
    if (!ph)
        return NULL;
    struct el_fig f;
    if ((*rc = pts_phase_fig(ph, &d->h[0], &d->h[1], &f, err, errlen)) < 0)
        return NULL;
    cJSON *fj = pts_fig_json(&f, name);
    cJSON_AddNumberToObject(fj, "threads", e->tc);
    cJSON_AddNumberToObject(fj, "depth", e->qd);
    if (lat) {
        const struct hist *h = &d->h[0];
        cJSON *l = cJSON_AddObjectToObject(fj, "latency_ns");
        cJSON_AddNumberToObject(l, "n", (double)h->n);
        cJSON_AddNumberToObject(l, "mean", hist_mean(h));
        cJSON_AddNumberToObject(l, "max", h->n ? (double)h->max : 0);
        static const double pct[] = {50, 90, 99, 99.9, 99.99, 99.999, 99.9999};
        cJSON *pj = cJSON_AddObjectToObject(l, "percentiles");
        for (unsigned i = 0; i < sizeof(pct) / sizeof(pct[0]); i++) {
            char k[16];
            snprintf(k, sizeof(k), "%g", pct[i]);
            cJSON_AddNumberToObject(pj, k, h->n ? (double)hist_percentile(h, pct[i]) : 0);
        }
        cJSON *hj = result_hist_to_json(h);
        if (hj)
            cJSON_AddItemToObject(l, "histogram", hj);
    }
    return fj;
}

static int round_prewrite(struct pts_ctx *x, unsigned round, cJSON *rj, void *arg, char *err,
                          size_t errlen)
{
    struct di_ctx *d = arg;
    char name[JOB_NAME_MAX];
    snprintf(name, sizeof(name), "pts %s r%u prewrite", pts_test_name(d->t), round);
    int rc = 0;
    cJSON *fj = di_phase(x, d, name, "pts-prewrite", &d->wr, DI_ROUND_PREWRITE * d->el_ns, false,
                         &rc, err, errlen);
    if (!fj)
        return rc;
    cJSON_AddItemToObject(rj, "prewrite", fj);
    return 0;
}

static cJSON *stimulus_json(const struct pts_cfg *c, enum pts_test t, const struct pts_matrix *m)
{
    cJSON *s = cJSON_CreateObject();
    bool cbw = t == PTS_CBW;
    cJSON_AddStringToObject(s, "access", "RND");
    cJSON_AddBoolToObject(s, "composite", cbw);
    cJSON_AddNumberToObject(s, "read_pct", m->el[0].read_pct);
    if (cbw) {
        cJSON *bs = cJSON_AddArrayToObject(s, "block_sizes");
        for (unsigned i = 0; i < PTS_CBW_NBS; i++) {
            cJSON *e = cJSON_CreateObject();
            cJSON_AddNumberToObject(e, "block_size", pts_cbw_bs[i]);
            cJSON_AddNumberToObject(e, "pct", pts_cbw_pct[i]);
            cJSON_AddItemToArray(bs, e);
        }
        cJSON *zs = cJSON_AddArrayToObject(s, "zones");
        for (unsigned z = 0; z < PTS_CBW_NZONES; z++) {
            cJSON *e = cJSON_CreateObject();
            cJSON_AddNumberToObject(e, "access_pct", pts_cbw_zone[z][0]);
            cJSON_AddNumberToObject(e, "range_pct", pts_cbw_zone[z][1]);
            cJSON_AddItemToArray(zs, e);
        }
        cJSON_AddNumberToObject(s, "blockalign", 4096);
    } else {
        cJSON_AddNumberToObject(s, "block_size", c->dirth_bs);
    }
    unsigned v[PTS_DI_MAX];
    unsigned n = pts_di_tcs(c, v);
    cJSON *g = cJSON_AddObjectToObject(s, "grid");
    cJSON *a = cJSON_AddArrayToObject(g, "threads");
    for (unsigned i = 0; i < n; i++)
        cJSON_AddItemToArray(a, cJSON_CreateNumber(v[i]));
    n = pts_di_qds(c, v);
    a = cJSON_AddArrayToObject(g, "depths");
    for (unsigned i = 0; i < n; i++)
        cJSON_AddItemToArray(a, cJSON_CreateNumber(v[i]));
    cJSON_AddNumberToObject(s, "art_limit_ns", DI_ART_LIMIT_NS);
    return s;
}

/* Max, Mid, Min from the window table; then each one's pre-write and capture. */
static int di_points(struct pts_ctx *x, struct di_ctx *d, cJSON *tj, const struct pts_matrix *m,
                     char *err, size_t errlen)
{
    const cJSON *tab = cJSON_GetObjectItemCaseSensitive(tj, "table");
    unsigned n = m->nelements;
    double iops[PTS_MAX_ELEMENTS], art[PTS_MAX_ELEMENTS];
    unsigned tc[PTS_MAX_ELEMENTS], qd[PTS_MAX_ELEMENTS];
    for (unsigned i = 0; i < n; i++) {
        const cJSON *row = cJSON_GetArrayItem(tab, (int)i);
        iops[i] = result_num(row, "iops", 0);
        art[i] = result_num(row, "lat_mean_ns", 0);
        tc[i] = m->el[i].tc;
        qd[i] = m->el[i].qd;
    }
    unsigned sel[3];
    bool max_ok;
    if (pts_di_select(iops, art, tc, qd, n, DI_ART_LIMIT_NS, sel, &max_ok) < 0)
        return 0;
    cJSON_AddBoolToObject(tj, "max_under_limit", max_ok);
    if (!max_ok)
        pts_add_reason(x, "%s: no demand point has an ART under 5 ms; MaxIOPS is the lowest ART",
                       pts_test_name(d->t));
    static const char *const label[3] = {"max", "mid", "min"};
    cJSON *pa = cJSON_AddArrayToObject(tj, "points");
    for (unsigned k = 0; k < 3 && !x->st->interrupted; k++) {
        const struct pts_element *e = &m->el[sel[k]];
        cJSON *pj = cJSON_CreateObject();
        cJSON_AddItemToArray(pa, pj);
        cJSON_AddStringToObject(pj, "point", label[k]);
        cJSON_AddNumberToObject(pj, "element", sel[k]);
        cJSON_AddNumberToObject(pj, "threads", e->tc);
        cJSON_AddNumberToObject(pj, "depth", e->qd);
        cJSON_AddNumberToObject(pj, "iops", iops[sel[k]]);
        cJSON_AddNumberToObject(pj, "lat_mean_ns", art[sel[k]]);
        pts_progress(x, "%s: %sIOPS point T%u/Q%u (%.0f IOPS, ART %.3g ms): pre-write, capture",
                     pts_test_name(d->t), label[k], e->tc, e->qd, iops[sel[k]], art[sel[k]] / 1e6);
        char name[JOB_NAME_MAX];
        int rc = 0;
        struct pts_element w = d->wr;
        w.tc = e->tc;
        w.qd = e->qd;
        snprintf(name, sizeof(name), "pts %s %s prewrite T%u/Q%u", pts_test_name(d->t), label[k],
                 e->tc, e->qd);
        cJSON *fj = di_phase(x, d, name, "pts-prewrite", &w, DI_POINT_PREWRITE * d->el_ns, false,
                             &rc, err, errlen);
        if (!fj)
            return rc;
        cJSON_AddItemToObject(pj, "prewrite", fj);
        if (x->st->interrupted)
            break;
        snprintf(name, sizeof(name), "pts %s %s capture T%u/Q%u", pts_test_name(d->t), label[k],
                 e->tc, e->qd);
        fj = di_phase(x, d, name, "pts-capture", e, DI_POINT_CAPTURE * d->el_ns, true, &rc, err,
                      errlen);
        if (!fj)
            return rc;
        cJSON_AddItemToObject(pj, "capture", fj);
    }
    return 0;
}

int pts_test_di(struct pts_ctx *x, enum pts_test t, char *err, size_t errlen)
{
    const struct pts_cfg *c = x->c;
    const char *id = pts_test_name(t);
    cJSON *tj = pts_new_test(x, id, t);
    struct di_ctx *d = calloc(1, sizeof(*d));
    struct pts_matrix *m = calloc(2, sizeof(*m));
    if (!d || !m) {
        free(d);
        free(m);
        snprintf(err, errlen, "out of memory");
        return -ENOMEM;
    }
    pts_di_matrix(c, t, &m[0]);
    d->t = t;
    d->el_ns = pts_element_ns(c, &m[0]);
    d->wr = m->el[0];          /* the largest TC and QD */
    d->wr.read_pct = 0;
    cJSON_AddItemToObject(tj, "stimulus", stimulus_json(c, t, &m[0]));
    cJSON_AddNumberToObject(tj, "round_prewrite_s", DI_ROUND_PREWRITE * (double)d->el_ns / 1e9);
    cJSON_AddNumberToObject(tj, "point_prewrite_s", DI_POINT_PREWRITE * (double)d->el_ns / 1e9);
    cJSON_AddNumberToObject(tj, "capture_s", DI_POINT_CAPTURE * (double)d->el_ns / 1e9);
    int rc = pts_do_purge(x, tj, err, errlen);
    cJSON_AddNullToObject(tj, "wipc");   /* the test's own preconditioning follows */
    /* 1. preconditioning: the stimulus as 100 % writes at TC32/QD32 to SS */
    if (rc == 0 && !x->st->interrupted) {
        struct pts_matrix *pm = &m[1];
        memset(pm, 0, sizeof(*pm));
        pm->test = t;
        pm->nelements = 1;
        pm->el[0] = d->wr;
        pm->ntrack = 1;
        pm->metric = STEADY_IOPS;
        cJSON *pre = cJSON_AddObjectToObject(tj, "precondition");
        cJSON_AddStringToObject(pre, "title", "preconditioning");
        char pid[32];
        snprintf(pid, sizeof(pid), "%s pre", id);
        rc = pts_run_rounds(x, pre, pid, pm, NULL, NULL, err, errlen);
    }
    /* 2. demand variation to SS */
    if (rc == 0 && !x->st->interrupted)
        rc = pts_run_rounds(x, tj, id, &m[0], round_prewrite, d, err, errlen);
    /* 3, 4. the demand-intensity points */
    if (rc == 0 && !x->st->interrupted && cJSON_GetObjectItemCaseSensitive(tj, "table"))
        rc = di_points(x, d, tj, &m[0], err, errlen);
    pts_end_test(tj);
    free(d);
    free(m);
    return rc;
}
