/* html_run.c - report sections for plain runs (kind "run" and any kind no
 * other builder claims): a summary table, the latency percentile curve and
 * histogram from the stored histograms, and IOPS and latency over time from
 * the interval series. Phases with the same name in several results share
 * one section, overlaid, with a ratio table.
 *
 * Also the helpers other kinds reuse for a phase's latency (html_kinds.h). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "output/html_kinds.h"
#include "result/hist_json.h"
#include "result/result.h"

static const double pct_grid[] = {
    0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 97, 98, 99, 99.5, 99.7, 99.8, 99.9, 99.95, 99.97, 99.98, 99.99,
    99.995, 99.997, 99.998, 99.999, 99.9995, 99.9997, 99.9998, 99.9999, 99.99995, 99.99997, 99.99998, 99.99999,
};

const char *const rep_dirs[REP_NDIRS] = {"read", "write", "sync"};

const cJSON *rep_lat(const cJSON *dir)
{
    return dir ? cJSON_GetObjectItemCaseSensitive(dir, "latency_ns") : NULL;
}

struct hist *rep_hist(const cJSON *lat, char *err, size_t errlen)
{
    err[0] = 0;
    const cJSON *hj = cJSON_GetObjectItemCaseSensitive(lat, "histogram");
    if (!hj)
        return NULL;
    struct hist *h = malloc(sizeof(*h));
    if (!h) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    if (hist_from_json(hj, h, err, errlen) < 0 || h->n == 0) {
        free(h);
        return NULL;
    }
    return h;
}

void rep_hist_bin(uint64_t lo, uint64_t *bin_lo, uint64_t *bin_hi)
{
    if (lo < 8) {
        *bin_lo = lo;
        *bin_hi = lo + 1;
        return;
    }
    unsigned m = 63u - (unsigned)__builtin_clzll(lo);
    uint64_t w = UINT64_C(1) << (m - 3);
    *bin_lo = lo / w * w;
    *bin_hi = *bin_lo + w;
}

/* Percentile rows of one histogram into column col (key column 0 = pct). */
static void fill_percentiles(struct rtab *t, int col, const struct hist *h)
{
    for (size_t i = 0; i < sizeof(pct_grid) / sizeof(pct_grid[0]); i++) {
        /* beyond 1 - 1/n the curve only repeats the top sample */
        if ((100 - pct_grid[i]) / 100 * (double)h->n < 0.999999)
            break;
        long row = rtab_row_for(t, 0, pct_grid[i]);
        if (row >= 0)
            rtab_set(t, (size_t)row, col, (double)hist_percentile(h, pct_grid[i]));
    }
    long row = rtab_row_for(t, 0, 100);
    if (row >= 0)
        rtab_set(t, (size_t)row, col, (double)h->max);
}

static void fill_histogram(struct rtab *t, int ccount, int cpct, const struct hist *h)
{
    for (unsigned i = 0; i < HIST_NBUCKETS; i++) {
        if (!h->counts[i])
            continue;
        uint64_t lo, hi;
        rep_hist_bin(hist_bucket_lo(i), &lo, &hi);
        long row = rtab_row_for(t, 0, (double)lo);
        if (row < 0)
            return;
        rtab_set(t, (size_t)row, 1, (double)hi);
        double c = rtab_get(t, (size_t)row, ccount);
        rtab_set(t, (size_t)row, ccount, (isnan(c) ? 0 : c) + (double)h->counts[i]);
    }
    for (size_t row = 0; row < t->nrows; row++) {
        double c = rtab_get(t, row, ccount);
        if (isnan(c))
            c = 0;
        rtab_set(t, row, ccount, c);
        rtab_set(t, row, cpct, 100.0 * c / (double)h->n);
    }
}

int rep_latency_charts(struct report *r, const char *id, const char *what, const struct rep_lat_src *src,
                       size_t nsrc)
{
    if (!nsrc)
        return 0;
    char err[256];
    struct rtab *pt = rep_data_table(r, rep_printf(r, "%s-percentiles", id),
                                     rep_printf(r, "%s: latency percentiles", what));
    struct rtab *ht = rep_data_table(r, rep_printf(r, "%s-histogram", id),
                                     rep_printf(r, "%s: latency histogram", what));
    if (!pt || !ht)
        return -ENOMEM;
    rtab_add_col(pt, "percentile", "%", RTAB_NUM, RTAB_AUTO);
    rtab_add_col(ht, "from", "ns", RTAB_NUM, RTAB_INT);
    rtab_add_col(ht, "to", "ns", RTAB_NUM, RTAB_INT);
    int pcol[REP_MAX_SERIES], hcol[REP_MAX_SERIES];
    size_t which[REP_MAX_SERIES], n = 0;
    for (size_t s = 0; s < nsrc && n < REP_MAX_SERIES; s++) {
        struct hist *h = rep_hist(src[s].lat, err, sizeof(err));
        if (!h) {
            if (err[0])
                rep_para(r, "warn", rep_printf(r, "%s: %s: histogram not usable: %s", what, src[s].name, err));
            err[0] = 0;
            continue;
        }
        pcol[n] = rtab_add_col(pt, src[s].name, "ns", RTAB_NUM, RTAB_NS);
        int cc = rtab_add_col(ht, rep_printf(r, "%s I/Os", src[s].name), NULL, RTAB_NUM, RTAB_INT);
        hcol[n] = rtab_add_col(ht, rep_printf(r, "%s share", src[s].name), "%", RTAB_NUM, RTAB_AUTO);
        fill_percentiles(pt, pcol[n], h);
        fill_histogram(ht, cc, hcol[n], h);
        free(h);
        which[n++] = s;
    }
    /* a bin only some histograms have is an empty bin of the others */
    for (size_t c = 2; c < ht->ncols; c++)
        for (size_t row = 0; row < ht->nrows; row++)
            if (isnan(rtab_get(ht, row, (int)c)))
                rtab_set(ht, row, (int)c, 0);
    rtab_sort(pt, 0);
    rtab_sort(ht, 0);
    if (!n)
        return 0;
    struct rep_chart *c = rep_chart(r, pt, 0, rep_printf(r, "%s: latency percentiles", what));
    if (c) {
        c->x = rep_axis("percentile", SVG_NINES, SVG_FMT_PCT);
        c->y = rep_axis("latency", SVG_LOG, SVG_FMT_NS);
        c->note = "Latency within which the given share of I/Os completed, from the stored histograms "
                  "(resolution 0.4 %). Each step right adds a nine; a curve ends where one I/O is left above it.";
        for (size_t k = 0; k < n; k++)
            rep_chart_series(c, pcol[k], src[which[k]].name, src[which[k]].color, src[which[k]].dash,
                             SVG_LINE_MARKS);
    }
    c = rep_chart(r, ht, 0, rep_printf(r, "%s: latency histogram", what));
    if (c) {
        c->x = rep_axis("latency", SVG_LOG, SVG_FMT_NS);
        c->y = rep_axis("share of I/Os (%)", SVG_LIN, SVG_FMT_PCT);
        c->note = "Eight bins per power of two; each bin is a union of whole histogram buckets, so its count is exact.";
        for (size_t k = 0; k < n; k++) {
            rep_chart_series(c, hcol[k], src[which[k]].name, src[which[k]].color, src[which[k]].dash, SVG_STEP_FILL);
            if (c->nseries)
                c->series[c->nseries - 1].x2col = 1;
        }
    }
    return 0;
}

double rep_row_num(const cJSON *row, int i)
{
    const cJSON *v = i >= 0 ? cJSON_GetArrayItem(row, i) : NULL;
    return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

static bool dir_present(struct report *r, const struct rep_run *runs, size_t nruns, const char *dir)
{
    for (size_t k = 0; k < nruns; k++)
        if (rep_dir(result_scope(runs[k].phase, "total"), dir))
            return true;
    return false;
}

unsigned rep_color(size_t res, unsigned slot, unsigned nslots)
{
    return (unsigned)res * (nslots ? nslots : 1) + slot;
}

/* Colour slots of the directions present (read, write, flush). */
static unsigned slot(int dir, const bool present[REP_NDIRS])
{
    unsigned s = 0;
    for (int d = 0; d < dir; d++)
        s += present[d];
    return s;
}

static unsigned nslots(const bool present[REP_NDIRS])
{
    return slot(REP_NDIRS, present);
}

static void time_charts(struct report *r, const char *id, const char *what, const struct rep_run *runs,
                        size_t nruns)
{
    static const char *const metric[5] = {"iops", "mbps", "lat_mean_ns", "lat_max_ns", "p99_ns"};
    static const char *const mname[5] = {"IOPS", "MB/s", "mean latency", "max latency", "p99 latency"};
    static const char *const munit[5] = {NULL, "MB/s", "ns", "ns", "ns"};
    struct rtab *t = rep_data_table(r, rep_printf(r, "%s-intervals", id), rep_printf(r, "%s: per interval", what));
    if (!t)
        return;
    rtab_add_col(t, "time", "s", RTAB_NUM, RTAB_AUTO);
    int col[REP_MAX_SERIES][2][5];
    const char *sname[REP_MAX_SERIES][2];
    bool present[REP_NDIRS];
    for (int d = 0; d < REP_NDIRS; d++)
        present[d] = dir_present(r, runs, nruns, rep_dirs[d]);
    size_t npoints = 0;
    for (size_t k = 0; k < nruns && k < REP_MAX_SERIES; k++) {
        const cJSON *iv = cJSON_GetObjectItemCaseSensitive(runs[k].phase, "intervals");
        int tf = result_field_index(iv, "t_ms");
        for (int d = 0; d < 2; d++) {
            sname[k][d] = NULL;
            for (int m = 0; m < 5; m++)
                col[k][d][m] = -1;
            if (!present[d] || tf < 0)
                continue;
            sname[k][d] = rep_series_name(r, runs[k].res, nslots(present) > 1 || !r->multi ? rep_dirs[d] : NULL);
            for (int m = 0; m < 5; m++) {
                char fname[64];
                snprintf(fname, sizeof(fname), "%s_%s", rep_dirs[d], metric[m]);
                int fi = result_field_index(iv, fname);
                if (fi < 0)
                    continue;
                col[k][d][m] = rtab_add_col(t, rep_printf(r, "%s %s", sname[k][d], mname[m]), munit[m], RTAB_NUM,
                                            m >= 2 ? RTAB_NS : RTAB_AUTO);
                const cJSON *row;
                cJSON_ArrayForEach(row, cJSON_GetObjectItemCaseSensitive(iv, "rows")) {
                    long w = rtab_row_for(t, 0, rep_row_num(row, tf) / 1000);
                    if (w >= 0)
                        rtab_set(t, (size_t)w, col[k][d][m], rep_row_num(row, fi));
                }
            }
        }
    }
    rtab_sort(t, 0);
    npoints = t->nrows;
    if (!npoints)
        return;
    enum svg_style st = npoints <= 40 ? SVG_LINE_MARKS : SVG_LINE;
    size_t nlines = 0;
    for (size_t k = 0; k < nruns && k < REP_MAX_SERIES; k++)
        for (int d = 0; d < 2; d++)
            nlines += col[k][d][0] >= 0;
    /* long runs read better in minutes or hours; the CSV keeps seconds */
    struct svg_axis time_axis = rep_axis("time (s)", SVG_LIN, SVG_FMT_PLAIN);
    time_axis.tight = true;
    int tcol = 0;
    double span = rtab_get(t, npoints - 1, 0);
    if (span > 600) {
        double unit = span > 3 * 3600 ? 3600 : 60;
        tcol = rtab_add_col(t, unit == 60 ? "time (min)" : "time (h)", NULL, RTAB_NUM, RTAB_AUTO);
        if (tcol < 0)
            return;
        t->cols[tcol].html_hidden = true;
        for (size_t i = 0; i < npoints; i++)
            rtab_set(t, i, tcol, rtab_get(t, i, 0) / unit);
        time_axis.label = unit == 60 ? "time (min)" : "time (h)";
    }
    struct rep_chart *c = rep_chart(r, t, tcol, rep_printf(r, "%s: IOPS over time", what));
    if (c) {
        c->x = time_axis;
        c->y = rep_axis("IOPS", SVG_LIN, SVG_FMT_NUM);
        c->height = 240;
        for (size_t k = 0; k < nruns && k < REP_MAX_SERIES; k++)
            for (int d = 0; d < 2; d++)
                if (col[k][d][0] >= 0)
                    rep_chart_series(c, col[k][d][0], sname[k][d], rep_color(runs[k].res, slot(d, present), nslots(present)), 0, st);
    }
    c = rep_chart(r, t, tcol, rep_printf(r, "%s: latency over time", what));
    if (c) {
        c->x = time_axis;
        c->y = rep_axis("latency per interval", SVG_LOG, SVG_FMT_NS);
        /* more than two lines of each kind get hard to read: leave out max */
        int nm = nlines > 2 ? 2 : 3;
        c->note = nm == 3 ? "Solid: mean; dashed: 99th percentile; dotted: maximum, per interval."
                          : "Solid: mean; dashed: 99th percentile, per interval (the maxima are in the data).";
        static const int order[3] = {2, 4, 3};     /* mean, p99, max */
        for (size_t k = 0; k < nruns && k < REP_MAX_SERIES; k++)
            for (int d = 0; d < 2; d++)
                for (int m = 0; m < nm; m++)
                    if (col[k][d][order[m]] >= 0)
                        rep_chart_series(c, col[k][d][order[m]],
                                         rep_printf(r, "%s %s", sname[k][d], m == 0 ? "mean" : m == 1 ? "p99" : "max"),
                                         rep_color(runs[k].res, slot(d, present), nslots(present)), (unsigned)m,
                                         SVG_LINE);
    }
}

/* Summary rows: one per result and direction. */
static void summary_table(struct report *r, const char *id, const char *what, const struct rep_run *runs,
                          size_t nruns)
{
    struct rtab *t = rep_table(r, rep_printf(r, "%s-summary", id), rep_printf(r, "%s: summary", what));
    if (!t)
        return;
    int cres = rtab_add_col(t, "result", NULL, RTAB_TEXT, RTAB_AUTO);
    int cdir = rtab_add_col(t, "op", NULL, RTAB_TEXT, RTAB_AUTO);
    int ciops = rtab_add_col(t, "IOPS", NULL, RTAB_NUM, RTAB_INT);
    int cmbps = rtab_add_col(t, "MB/s", NULL, RTAB_NUM, RTAB_AUTO);
    int cmean = rtab_add_col(t, "mean", "ns", RTAB_NUM, RTAB_NS);
    int cp50 = rtab_add_col(t, "p50", "ns", RTAB_NUM, RTAB_NS);
    int cp99 = rtab_add_col(t, "p99", "ns", RTAB_NUM, RTAB_NS);
    int cp999 = rtab_add_col(t, "p99.9", "ns", RTAB_NUM, RTAB_NS);
    int cmax = rtab_add_col(t, "max", "ns", RTAB_NUM, RTAB_NS);
    int csd = rtab_add_col(t, "stddev", "ns", RTAB_NUM, RTAB_NS);
    int cios = rtab_add_col(t, "I/Os", NULL, RTAB_NUM, RTAB_INT);
    int cerr = rtab_add_col(t, "errors", NULL, RTAB_NUM, RTAB_INT);
    int cqd = rtab_add_col(t, "mean in flight", NULL, RTAB_NUM, RTAB_AUTO);
    /* paced runs: the latency from the scheduled issue time beside it */
    bool paced = false;
    for (size_t k = 0; k < nruns; k++)
        for (int d = 0; d < 2; d++)
            paced |= cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(
                rep_dir(result_scope(runs[k].phase, "total"), rep_dirs[d]), "scheduled_latency_ns"));
    int cs999 = paced ? rtab_add_col(t, "p99.9 from schedule", "ns", RTAB_NUM, RTAB_NS) : -1;
    int csmax = paced ? rtab_add_col(t, "max from schedule", "ns", RTAB_NUM, RTAB_NS) : -1;
    char err[256];
    for (size_t k = 0; k < nruns; k++) {
        const cJSON *sc = result_scope(runs[k].phase, "total");
        for (int d = 0; d < REP_NDIRS; d++) {
            const cJSON *dir = rep_dir(sc, rep_dirs[d]);
            if (!dir)
                continue;
            long row = rtab_add_row(t);
            if (row < 0)
                return;
            size_t w = (size_t)row;
            const cJSON *lat = cJSON_GetObjectItemCaseSensitive(dir, "latency_ns");
            rtab_set_text(t, w, cres, r->labels[runs[k].res]);
            rtab_set_text(t, w, cdir, d == 2 ? "flush" : rep_dirs[d]);
            if (d < 2) {
                rtab_set(t, w, ciops, result_num(dir, "iops", NAN));
                rtab_set(t, w, cmbps, result_num(dir, "mbps", NAN));
                rtab_set(t, w, cqd, result_num(sc, "mean_inflight", NAN));
            }
            rtab_set(t, w, cmean, result_num(lat, "mean", NAN));
            rtab_set(t, w, cmax, result_num(lat, "max", NAN));
            rtab_set(t, w, csd, result_num(lat, "stddev", NAN));
            rtab_set(t, w, cios, result_num(dir, "ios", NAN));
            rtab_set(t, w, cerr, result_num(dir, "errors", NAN));
            struct hist *h = rep_hist(rep_lat(dir), err, sizeof(err));
            if (h) {
                rtab_set(t, w, cp50, (double)hist_percentile(h, 50));
                rtab_set(t, w, cp99, (double)hist_percentile(h, 99));
                rtab_set(t, w, cp999, (double)hist_percentile(h, 99.9));
                free(h);
            }
            const cJSON *sl = d < 2 ? cJSON_GetObjectItemCaseSensitive(dir, "scheduled_latency_ns") : NULL;
            if (paced && cJSON_IsObject(sl) && result_num(sl, "n", 0) > 0) {
                struct hist *sh = rep_hist(sl, err, sizeof(err));
                if (sh) {
                    rtab_set(t, w, cs999, (double)hist_percentile(sh, 99.9));
                    free(sh);
                }
                rtab_set(t, w, csmax, result_num(sl, "max", NAN));
            }
        }
    }
    rep_show_table(r, t);
}

/* Two or more results: one row per figure, a column per result, ratios. */
static void comparison_table(struct report *r, const char *id, const char *what, const struct rep_run *runs,
                             size_t nruns)
{
    if (nruns < 2)
        return;
    struct rtab *t = rep_table(r, rep_printf(r, "%s-comparison", id), rep_printf(r, "%s: comparison", what));
    if (!t)
        return;
    int cm = rtab_add_col(t, "figure", NULL, RTAB_TEXT, RTAB_AUTO);
    int cu = rtab_add_col(t, "unit", NULL, RTAB_TEXT, RTAB_AUTO);
    int cols[REPORT_MAX_IN];
    for (size_t i = 0; i < r->nin && i < REPORT_MAX_IN; i++)
        cols[i] = -1;
    for (size_t k = 0; k < nruns; k++)
        if (runs[k].res < REPORT_MAX_IN)
            cols[runs[k].res] = rtab_add_col(t, r->labels[runs[k].res], NULL, RTAB_NUM, RTAB_AUTO);
    static const char *const fig[] = {"IOPS", "MB/s", "mean latency", "p99 latency", "p99.9 latency",
                                      "max latency"};
    char err[256];
    for (int d = 0; d < 2; d++) {
        if (!dir_present(r, runs, nruns, rep_dirs[d]))
            continue;
        long base = (long)t->nrows;
        for (int m = 0; m < 6; m++) {
            long row = rtab_add_row(t);
            if (row < 0)
                return;
            rtab_set_text(t, (size_t)row, cm, rep_printf(r, "%s %s", rep_dirs[d], fig[m]));
            rtab_set_text(t, (size_t)row, cu, m < 1 ? "IOPS" : m == 1 ? "MB/s" : "\xc2\xb5s");
        }
        for (size_t k = 0; k < nruns; k++) {
            const cJSON *dir = rep_dir(result_scope(runs[k].phase, "total"), rep_dirs[d]);
            size_t res = runs[k].res;
            if (!dir || res >= REPORT_MAX_IN)
                continue;
            const cJSON *lat = cJSON_GetObjectItemCaseSensitive(dir, "latency_ns");
            rtab_set(t, (size_t)base, cols[res], result_num(dir, "iops", NAN));
            rtab_set(t, (size_t)base + 1, cols[res], result_num(dir, "mbps", NAN));
            rtab_set(t, (size_t)base + 2, cols[res], result_num(lat, "mean", NAN) / 1e3);
            struct hist *h = rep_hist(rep_lat(dir), err, sizeof(err));
            if (h) {
                rtab_set(t, (size_t)base + 3, cols[res], (double)hist_percentile(h, 99) / 1e3);
                rtab_set(t, (size_t)base + 4, cols[res], (double)hist_percentile(h, 99.9) / 1e3);
                free(h);
            }
            rtab_set(t, (size_t)base + 5, cols[res], result_num(lat, "max", NAN) / 1e3);
        }
    }
    rep_add_ratios(r, t, cols, r->nin < REPORT_MAX_IN ? r->nin : REPORT_MAX_IN, NULL, false);
    rtab_set_note(t, "Ratios divide by the baseline result; for IOPS and MB/s more is better, for latency less is better.");
    rep_show_table(r, t);
}

void rep_run_section(struct report *r, const char *id, const char *what, const struct rep_run *runs, size_t nruns)
{
    char buf[512];
    r->multi = nruns > 1;
    for (size_t k = 0; k < nruns; k++) {
        const cJSON *ph = runs[k].phase;
        const cJSON *job;
        cJSON_ArrayForEach(job, cJSON_GetObjectItemCaseSensitive(ph, "jobs")) {
            rep_job_text(buf, sizeof(buf), cJSON_GetObjectItemCaseSensitive(job, "params"));
            rep_para(r, NULL, rep_printf(r, "%s%s%s: %s; %.2f s measured, stopped by %s.",
                                         r->multi ? r->labels[runs[k].res] : "", r->multi ? ", job " : "Job ",
                                         result_str(job, "name", "?"), buf, result_num(ph, "elapsed_s", 0),
                                         result_str(ph, "stopped_by", "?")));
        }
    }
    summary_table(r, id, what, runs, nruns);
    comparison_table(r, id, what, runs, nruns);
    bool present[REP_NDIRS];
    for (int d = 0; d < REP_NDIRS; d++)
        present[d] = dir_present(r, runs, nruns, rep_dirs[d]);
    struct rep_lat_src src[REP_MAX_SERIES];
    size_t ns = 0;
    for (size_t k = 0; k < nruns; k++) {
        const cJSON *sc = result_scope(runs[k].phase, "total");
        for (int d = 0; d < REP_NDIRS && ns < REP_MAX_SERIES; d++) {
            const cJSON *dir = rep_dir(sc, rep_dirs[d]);
            if (!dir)
                continue;
            const char *dn = nslots(present) > 1 || !r->multi ? (d == 2 ? "flush" : rep_dirs[d]) : NULL;
            src[ns++] = (struct rep_lat_src){rep_lat(dir), rep_series_name(r, runs[k].res, dn),
                                             rep_color(runs[k].res, slot(d, present), nslots(present)), 0};
        }
    }
    rep_latency_charts(r, id, what, src, ns);
    time_charts(r, id, what, runs, nruns);
}

void rep_overview(struct report *r, const char *const *names, size_t nnames)
{
    rep_heading(r, REP_H2, "Overview of the phases");
    struct rtab *t = rep_table(r, "phases-overview", "Throughput and p99 latency per phase");
    if (!t)
        return;
    int cph = rtab_add_col(t, "phase", NULL, RTAB_TEXT, RTAB_AUTO);
    int cop = rtab_add_col(t, "op", NULL, RTAB_TEXT, RTAB_AUTO);
    int ciops[REPORT_MAX_IN], cmbps[REPORT_MAX_IN], cp99[REPORT_MAX_IN];
    size_t nres = r->nin < REPORT_MAX_IN ? r->nin : REPORT_MAX_IN;
    bool has[REPORT_MAX_IN] = {false};
    for (size_t i = 0; i < nres; i++) {
        const cJSON *ph;
        has[i] = false;
        cJSON_ArrayForEach(ph, rep_phases(r, i))
            has[i] |= rep_phase_is(ph, "run");
    }
    size_t first;
    rep_participants(r, has, &first);
    for (size_t i = 0; i < nres; i++) {
        ciops[i] = cmbps[i] = cp99[i] = -1;
        if (!has[i])
            continue;
        const char *pre = r->multi ? r->labels[i] : "";
        const char *sep = r->multi ? " " : "";
        ciops[i] = rtab_add_col(t, rep_printf(r, "%s%sIOPS", pre, sep), NULL, RTAB_NUM, RTAB_INT);
        cmbps[i] = rtab_add_col(t, rep_printf(r, "%s%sMB/s", pre, sep), NULL, RTAB_NUM, RTAB_AUTO);
        cp99[i] = rtab_add_col(t, rep_printf(r, "%s%sp99", pre, sep), "ns", RTAB_NUM, RTAB_NS);
    }
    char err[256];
    for (size_t k = 0; k < nnames; k++)
        for (int d = 0; d < 2; d++) {
            long row = -1;
            for (size_t i = 0; i < nres; i++) {
                const cJSON *ph;
                if (!has[i])
                    continue;
                cJSON_ArrayForEach(ph, rep_phases(r, i)) {
                    if (!rep_phase_is(ph, "run") || strcmp(result_str(ph, "name", ""), names[k]) != 0)
                        continue;
                    const cJSON *dir = rep_dir(result_scope(ph, "total"), rep_dirs[d]);
                    if (!dir)
                        break;
                    if (row < 0) {
                        row = rtab_add_row(t);
                        if (row < 0)
                            return;
                        rtab_set_text(t, (size_t)row, cph, names[k]);
                        rtab_set_text(t, (size_t)row, cop, rep_dirs[d]);
                    }
                    rtab_set(t, (size_t)row, ciops[i], result_num(dir, "iops", NAN));
                    rtab_set(t, (size_t)row, cmbps[i], result_num(dir, "mbps", NAN));
                    struct hist *h = rep_hist(rep_lat(dir), err, sizeof(err));
                    if (h) {
                        rtab_set(t, (size_t)row, cp99[i], (double)hist_percentile(h, 99));
                        free(h);
                    }
                    break;
                }
            }
        }
    if (r->multi)
        rep_add_ratios(r, t, ciops, nres, "IOPS", false);
    /* the category axis needs "phase op" labels of its own */
    int ccat = rtab_add_col(t, "point", NULL, RTAB_TEXT, RTAB_AUTO);
    if (ccat >= 0)
        t->cols[ccat].html_hidden = true;
    for (size_t row = 0; row < t->nrows; row++)
        rtab_set_text(t, row, ccat, rep_printf(r, "%s %s", rtab_text(t, row, cph), rtab_text(t, row, cop)));
    struct rep_chart *c = rep_chart(r, t, ccat, "IOPS per phase");
    if (c) {
        c->x = rep_axis(NULL, SVG_CAT, SVG_FMT_PLAIN);
        c->y = rep_axis("IOPS", SVG_LIN, SVG_FMT_NUM);
        for (size_t i = 0; i < nres; i++)
            if (has[i])
                rep_chart_series(c, ciops[i], r->multi ? r->labels[i] : "IOPS", (unsigned)i, 0, SVG_BARS);
    }
    rep_show_table(r, t);
}

int rep_build_runs(struct report *r)
{
    /* distinct phase names, in order of first appearance */
    const char *names[256];
    size_t nnames = 0, total = 0;
    for (size_t i = 0; i < r->nin; i++) {
        const cJSON *ph;
        cJSON_ArrayForEach(ph, rep_phases(r, i)) {
            if (!rep_phase_is(ph, "run"))
                continue;
            total++;
            const char *n = result_str(ph, "name", "?");
            size_t k = 0;
            while (k < nnames && strcmp(names[k], n) != 0)
                k++;
            if (k == nnames && nnames < 256)
                names[nnames++] = n;
        }
    }
    if (!nnames)
        return 0;
    if (nnames > 1)
        rep_overview(r, names, nnames);
    struct rep_run *runs = calloc(r->nin, sizeof(*runs));
    if (!runs)
        return -ENOMEM;
    for (size_t k = 0; k < nnames && !r->oom; k++) {
        size_t nruns = 0;
        for (size_t i = 0; i < r->nin; i++) {
            const cJSON *ph;
            cJSON_ArrayForEach(ph, rep_phases(r, i))
                if (rep_phase_is(ph, "run") && strcmp(result_str(ph, "name", ""), names[k]) == 0) {
                    runs[nruns++] = (struct rep_run){i, ph};
                    break;
                }
        }
        const char *what = names[k];
        rep_heading(r, REP_H2, rep_printf(r, "%s: %s", total == 1 ? "Run" : "Phase", what));
        rep_run_section(r, rep_printf(r, "run-%s", what), what, runs, nruns);
    }
    free(runs);
    return r->oom ? -ENOMEM : 0;
}
