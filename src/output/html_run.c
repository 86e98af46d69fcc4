/* html_run.c - report sections for plain runs (kind "run" and any kind no
 * other builder claims): a summary table, the latency percentile curve and
 * histogram from the stored histograms, and IOPS and latency over time from
 * the interval series. Phases with the same name in several results share
 * one section, overlaid, with a ratio table.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "output/html_kinds.h"
#include "result/result_hist.h"
#include "result/result_read.h"

static bool dir_present(struct html_report *r, const struct html_run *runs, size_t nruns, const char *dir)
{
    for (size_t k = 0; k < nruns; k++)
        if (html_dir(result_scope(runs[k].phase, "total"), dir))
            return true;
    return false;
}

/* Colour slots of the directions present (read, write, flush). */
static unsigned slot(int dir, const bool present[HTML_NDIRS])
{
    unsigned s = 0;
    for (int d = 0; d < dir; d++)
        s += present[d];
    return s;
}

static unsigned nslots(const bool present[HTML_NDIRS])
{
    return slot(HTML_NDIRS, present);
}

static void time_charts(struct html_report *r, const char *id, const char *what, const struct html_run *runs,
                        size_t nruns)
{
    static const char *const metric[5] = {"iops", "mbps", "lat_mean_ns", "lat_max_ns", "p99_ns"};
    static const char *const mname[5] = {"IOPS", "MB/s", "mean latency", "max latency", "p99 latency"};
    static const char *const munit[5] = {NULL, "MB/s", "ns", "ns", "ns"};
    struct html_table *t = html_add_data_table(r, html_printf(r, "%s-intervals", id), html_printf(r, "%s: per interval", what));
    if (!t)
        return;
    html_table_add_col(t, "time", "s", HTML_TABLE_NUM, HTML_TABLE_AUTO);
    int col[HTML_MAX_SERIES][2][5];
    const char *sname[HTML_MAX_SERIES][2];
    bool present[HTML_NDIRS];
    for (int d = 0; d < HTML_NDIRS; d++)
        present[d] = dir_present(r, runs, nruns, html_dirs[d]);
    size_t npoints = 0;
    for (size_t k = 0; k < nruns && k < HTML_MAX_SERIES; k++) {
        const cJSON *iv = cJSON_GetObjectItemCaseSensitive(runs[k].phase, "intervals");
        int tf = result_field_index(iv, "t_ms");
        for (int d = 0; d < 2; d++) {
            sname[k][d] = NULL;
            for (int m = 0; m < 5; m++)
                col[k][d][m] = -1;
            /* a direction this run did not run gets no series (not a line at 0) */
            if (!present[d] || tf < 0 || !html_dir(result_scope(runs[k].phase, "total"), html_dirs[d]))
                continue;
            sname[k][d] = html_series_name(r, runs[k].res, nslots(present) > 1 || !r->multi ? html_dirs[d] : NULL);
            for (int m = 0; m < 5; m++) {
                char fname[64];
                snprintf(fname, sizeof(fname), "%s_%s", html_dirs[d], metric[m]);
                int fi = result_field_index(iv, fname);
                if (fi < 0)
                    continue;
                col[k][d][m] = html_table_add_col(t, html_printf(r, "%s %s", sname[k][d], mname[m]), munit[m], HTML_TABLE_NUM,
                                            m >= 2 ? HTML_TABLE_NS : HTML_TABLE_AUTO);
                const cJSON *row;
                cJSON_ArrayForEach(row, cJSON_GetObjectItemCaseSensitive(iv, "rows")) {
                    long w = html_table_row_for(t, 0, html_row_num(row, tf) / 1000);
                    if (w >= 0)
                        html_table_set(t, (size_t)w, col[k][d][m], html_row_num(row, fi));
                }
            }
        }
    }
    html_table_sort(t, 0);
    npoints = t->nrows;
    if (!npoints)
        return;
    enum html_svg_style st = npoints <= 40 ? HTML_SVG_LINE_MARKS : HTML_SVG_LINE;
    size_t nlines = 0;
    for (size_t k = 0; k < nruns && k < HTML_MAX_SERIES; k++)
        for (int d = 0; d < 2; d++)
            nlines += col[k][d][0] >= 0;
    /* long runs read better in minutes or hours; the CSV keeps seconds */
    struct html_svg_axis time_axis = html_axis("time (s)", HTML_SVG_LIN, HTML_SVG_FMT_PLAIN);
    time_axis.tight = true;
    int tcol = 0;
    double span = html_table_get(t, npoints - 1, 0);
    if (span > 600) {
        double unit = span > 3 * 3600 ? 3600 : 60;
        tcol = html_table_add_col(t, unit == 60 ? "time (min)" : "time (h)", NULL, HTML_TABLE_NUM, HTML_TABLE_AUTO);
        if (tcol < 0)
            return;
        t->cols[tcol].html_hidden = true;
        for (size_t i = 0; i < npoints; i++)
            html_table_set(t, i, tcol, html_table_get(t, i, 0) / unit);
        time_axis.label = unit == 60 ? "time (min)" : "time (h)";
    }
    struct html_chart *c = html_chart(r, t, tcol, html_printf(r, "%s: IOPS over time", what));
    if (c) {
        c->x = time_axis;
        c->y = html_axis("IOPS", HTML_SVG_LIN, HTML_SVG_FMT_NUM);
        c->height = 240;
        for (size_t k = 0; k < nruns && k < HTML_MAX_SERIES; k++)
            for (int d = 0; d < 2; d++)
                if (col[k][d][0] >= 0)
                    html_chart_series(c, col[k][d][0], sname[k][d], html_color(runs[k].res, slot(d, present), nslots(present)), 0, st);
    }
    /* device temperature per interval, where the run sampled it, so
     * throttling lines up with the IOPS above */
    int tempcol[HTML_MAX_SERIES];
    bool anytemp = false;
    for (size_t k = 0; k < nruns && k < HTML_MAX_SERIES; k++) {
        const cJSON *iv = cJSON_GetObjectItemCaseSensitive(runs[k].phase, "intervals");
        int tf = result_field_index(iv, "t_ms"), fi = result_field_index(iv, "device_temp_c");
        tempcol[k] = -1;
        const cJSON *row;
        bool some = false;
        cJSON_ArrayForEach(row, cJSON_GetObjectItemCaseSensitive(iv, "rows"))
            some |= fi >= 0 && cJSON_IsNumber(cJSON_GetArrayItem(row, fi));
        if (!some || tf < 0)
            continue;
        tempcol[k] = html_table_add_col(t, html_printf(r, "%s device temperature", html_series_name(r, runs[k].res, NULL)),
                                        "C", HTML_TABLE_NUM, HTML_TABLE_AUTO);
        cJSON_ArrayForEach(row, cJSON_GetObjectItemCaseSensitive(iv, "rows")) {
            long w = html_table_row_for(t, 0, html_row_num(row, tf) / 1000);
            if (w >= 0 && tempcol[k] >= 0 && cJSON_IsNumber(cJSON_GetArrayItem(row, fi)))
                html_table_set(t, (size_t)w, tempcol[k], html_row_num(row, fi));
        }
        anytemp |= tempcol[k] >= 0;
    }
    if (anytemp && (c = html_chart(r, t, tcol, html_printf(r, "%s: device temperature over time", what)))) {
        c->x = time_axis;
        c->y = html_axis("temperature (C)", HTML_SVG_LIN, HTML_SVG_FMT_NUM);
        c->height = 200;
        c->note = "Highest temperature of the run's device targets, sampled once per interval.";
        for (size_t k = 0; k < nruns && k < HTML_MAX_SERIES; k++)
            if (tempcol[k] >= 0)
                html_chart_series(c, tempcol[k], html_series_name(r, runs[k].res, NULL), html_color(runs[k].res, 0, 1), 0, st);
    }
    c = html_chart(r, t, tcol, html_printf(r, "%s: latency over time", what));
    if (c) {
        c->x = time_axis;
        c->y = html_axis("latency per interval", HTML_SVG_LOG, HTML_SVG_FMT_NS);
        /* more than two lines of each kind get hard to read: leave out max */
        int nm = nlines > 2 ? 2 : 3;
        c->note = nm == 3 ? "Solid: mean; dashed: 99th percentile; dotted: maximum, per interval."
                          : "Solid: mean; dashed: 99th percentile, per interval (the maxima are in the data).";
        if (npoints == 1) /* one point per series: marks, and a word on why there is no curve */
            c->note = html_printf(r, "%s One interval only: a run longer than the report interval draws a curve.",
                                  c->note);
        static const int order[3] = {2, 4, 3};     /* mean, p99, max */
        for (size_t k = 0; k < nruns && k < HTML_MAX_SERIES; k++)
            for (int d = 0; d < 2; d++)
                for (int m = 0; m < nm; m++)
                    if (col[k][d][order[m]] >= 0)
                        html_chart_series(c, col[k][d][order[m]],
                                         html_printf(r, "%s %s", sname[k][d], m == 0 ? "mean" : m == 1 ? "p99" : "max"),
                                         html_color(runs[k].res, slot(d, present), nslots(present)), (unsigned)m,
                                         npoints == 1 ? HTML_SVG_LINE_MARKS : HTML_SVG_LINE);
    }
}

/* Summary rows: one per result and direction. */
static void summary_table(struct html_report *r, const char *id, const char *what, const struct html_run *runs,
                          size_t nruns)
{
    struct html_table *t = html_add_table(r, html_printf(r, "%s-summary", id), html_printf(r, "%s: summary", what));
    if (!t)
        return;
    int cres = html_table_add_col(t, "result", NULL, HTML_TABLE_TEXT, HTML_TABLE_AUTO);
    int cdir = html_table_add_col(t, "op", NULL, HTML_TABLE_TEXT, HTML_TABLE_AUTO);
    int ciops = html_table_add_col(t, "IOPS", NULL, HTML_TABLE_NUM, HTML_TABLE_INT);
    int cmbps = html_table_add_col(t, "MB/s", NULL, HTML_TABLE_NUM, HTML_TABLE_AUTO);
    int cmean = html_table_add_col(t, "mean", "ns", HTML_TABLE_NUM, HTML_TABLE_NS);
    int cp50 = html_table_add_col(t, "p50", "ns", HTML_TABLE_NUM, HTML_TABLE_NS);
    int cp99 = html_table_add_col(t, "p99", "ns", HTML_TABLE_NUM, HTML_TABLE_NS);
    int cp999 = html_table_add_col(t, "p99.9", "ns", HTML_TABLE_NUM, HTML_TABLE_NS);
    int cmax = html_table_add_col(t, "max", "ns", HTML_TABLE_NUM, HTML_TABLE_NS);
    int csd = html_table_add_col(t, "stddev", "ns", HTML_TABLE_NUM, HTML_TABLE_NS);
    int cios = html_table_add_col(t, "I/Os", NULL, HTML_TABLE_NUM, HTML_TABLE_INT);
    int cerr = html_table_add_col(t, "errors", NULL, HTML_TABLE_NUM, HTML_TABLE_INT);
    int cqd = html_table_add_col(t, "mean in flight", NULL, HTML_TABLE_NUM, HTML_TABLE_AUTO);
    /* paced runs: the latency from the scheduled issue time beside it */
    bool paced = false;
    for (size_t k = 0; k < nruns; k++)
        for (int d = 0; d < 2; d++)
            paced |= cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(
                html_dir(result_scope(runs[k].phase, "total"), html_dirs[d]), "scheduled_latency_ns"));
    int cs999 = paced ? html_table_add_col(t, "p99.9 from schedule", "ns", HTML_TABLE_NUM, HTML_TABLE_NS) : -1;
    int csmax = paced ? html_table_add_col(t, "max from schedule", "ns", HTML_TABLE_NUM, HTML_TABLE_NS) : -1;
    char err[256];
    for (size_t k = 0; k < nruns; k++) {
        const cJSON *sc = result_scope(runs[k].phase, "total");
        for (int d = 0; d < HTML_NDIRS; d++) {
            const cJSON *dir = html_dir(sc, html_dirs[d]);
            if (!dir)
                continue;
            long row = html_table_add_row(t);
            if (row < 0)
                return;
            size_t w = (size_t)row;
            const cJSON *lat = cJSON_GetObjectItemCaseSensitive(dir, "latency_ns");
            html_table_set_text(t, w, cres, r->labels[runs[k].res]);
            html_table_set_text(t, w, cdir, d == 2 ? "flush" : html_dirs[d]);
            if (d < 2) {
                html_table_set(t, w, ciops, result_num(dir, "iops", NAN));
                html_table_set(t, w, cmbps, result_num(dir, "mbps", NAN));
                html_table_set(t, w, cqd, result_num(sc, "mean_inflight", NAN));
            }
            html_table_set(t, w, cmean, result_num(lat, "mean", NAN));
            html_table_set(t, w, cmax, result_num(lat, "max", NAN));
            html_table_set(t, w, csd, result_num(lat, "stddev", NAN));
            html_table_set(t, w, cios, result_num(dir, "ios", NAN));
            html_table_set(t, w, cerr, result_num(dir, "errors", NAN));
            struct hist *h = html_hist(html_lat(dir), err, sizeof(err));
            if (h) {
                html_table_set(t, w, cp50, (double)hist_percentile(h, 50));
                html_table_set(t, w, cp99, (double)hist_percentile(h, 99));
                html_table_set(t, w, cp999, (double)hist_percentile(h, 99.9));
                free(h);
            }
            const cJSON *sl = d < 2 ? cJSON_GetObjectItemCaseSensitive(dir, "scheduled_latency_ns") : NULL;
            if (paced && cJSON_IsObject(sl) && result_num(sl, "n", 0) > 0) {
                struct hist *sh = html_hist(sl, err, sizeof(err));
                if (sh) {
                    html_table_set(t, w, cs999, (double)hist_percentile(sh, 99.9));
                    free(sh);
                }
                html_table_set(t, w, csmax, result_num(sl, "max", NAN));
            }
        }
    }
    html_show_table(r, t);
}

/* Ratio columns as `ssdbench compare` has them, oriented so that above 1
 * means better: throughput rows X / baseline, latency rows (lat[row])
 * baseline / X. */
static void add_oriented_ratios(struct html_report *r, struct html_table *t, const int *cols, size_t ncols,
                                const bool *lat)
{
    size_t base = r->baseline < ncols && cols[r->baseline] >= 0 ? r->baseline : ncols;
    for (size_t i = 0; i < ncols && base == ncols; i++)
        if (cols[i] >= 0)
            base = i;
    for (size_t i = 0; base < ncols && i < ncols; i++) {
        if (i == base || cols[i] < 0)
            continue;
        int c = html_table_add_col(t, html_printf(r, "%s vs %s (above 1: better)", r->labels[i], r->labels[base]), NULL,
                                   HTML_TABLE_NUM, HTML_TABLE_RATIO);
        for (size_t row = 0; row < t->nrows; row++) {
            double x = html_table_get(t, row, cols[i]), b = html_table_get(t, row, cols[base]);
            double num = lat[row] ? b : x, den = lat[row] ? x : b;
            html_table_set(t, row, c, den != 0 && !isnan(num) && !isnan(den) ? num / den : NAN);
        }
    }
}

/* A latency row in ns when every value is below 1 µs (25 ns, not 0.0250 µs). */
static void small_latency_row(struct html_table *t, size_t row, int cu, const int *cols, size_t ncols)
{
    for (size_t i = 0; i < ncols; i++) {
        double v = cols[i] >= 0 ? html_table_get(t, row, cols[i]) : NAN;
        if (!isnan(v) && v >= 1)
            return;
    }
    for (size_t i = 0; i < ncols; i++)
        if (cols[i] >= 0)
            html_table_set(t, row, cols[i], html_table_get(t, row, cols[i]) * 1e3);
    html_table_set_text(t, row, cu, "ns");
}

/* Two or more results: one row per figure, a column per result, ratios. */
static void comparison_table(struct html_report *r, const char *id, const char *what, const struct html_run *runs,
                             size_t nruns)
{
    if (nruns < 2)
        return;
    struct html_table *t = html_add_table(r, html_printf(r, "%s-comparison", id), html_printf(r, "%s: comparison", what));
    if (!t)
        return;
    int cm = html_table_add_col(t, "figure", NULL, HTML_TABLE_TEXT, HTML_TABLE_AUTO);
    int cu = html_table_add_col(t, "unit", NULL, HTML_TABLE_TEXT, HTML_TABLE_AUTO);
    int cols[HTML_REPORT_MAX_IN];
    for (size_t i = 0; i < r->nin && i < HTML_REPORT_MAX_IN; i++)
        cols[i] = -1;
    for (size_t k = 0; k < nruns; k++)
        if (runs[k].res < HTML_REPORT_MAX_IN)
            cols[runs[k].res] = html_table_add_col(t, r->labels[runs[k].res], NULL, HTML_TABLE_NUM, HTML_TABLE_AUTO);
    static const char *const fig[] = {"IOPS", "MB/s", "mean latency", "p99 latency", "p99.9 latency",
                                      "max latency"};
    char err[256];
    for (int d = 0; d < 2; d++) {
        if (!dir_present(r, runs, nruns, html_dirs[d]))
            continue;
        long base = (long)t->nrows;
        for (int m = 0; m < 6; m++) {
            long row = html_table_add_row(t);
            if (row < 0)
                return;
            html_table_set_text(t, (size_t)row, cm, html_printf(r, "%s %s", html_dirs[d], fig[m]));
            html_table_set_text(t, (size_t)row, cu, m < 1 ? "IOPS" : m == 1 ? "MB/s" : "\xc2\xb5s");
        }
        for (size_t k = 0; k < nruns; k++) {
            const cJSON *dir = html_dir(result_scope(runs[k].phase, "total"), html_dirs[d]);
            size_t res = runs[k].res;
            if (!dir || res >= HTML_REPORT_MAX_IN)
                continue;
            const cJSON *lat = cJSON_GetObjectItemCaseSensitive(dir, "latency_ns");
            html_table_set(t, (size_t)base, cols[res], result_num(dir, "iops", NAN));
            html_table_set(t, (size_t)base + 1, cols[res], result_num(dir, "mbps", NAN));
            html_table_set(t, (size_t)base + 2, cols[res], result_num(lat, "mean", NAN) / 1e3);
            struct hist *h = html_hist(html_lat(dir), err, sizeof(err));
            if (h) {
                html_table_set(t, (size_t)base + 3, cols[res], (double)hist_percentile(h, 99) / 1e3);
                html_table_set(t, (size_t)base + 4, cols[res], (double)hist_percentile(h, 99.9) / 1e3);
                free(h);
            }
            html_table_set(t, (size_t)base + 5, cols[res], result_num(lat, "max", NAN) / 1e3);
        }
    }
    size_t ncols = r->nin < HTML_REPORT_MAX_IN ? r->nin : HTML_REPORT_MAX_IN;
    bool lat[2 * 6];
    for (size_t row = 0; row < t->nrows && row < 12; row++) {
        lat[row] = row % 6 >= 2; /* mean, p99, p99.9, max */
        if (lat[row])
            small_latency_row(t, row, cu, cols, ncols);
    }
    add_oriented_ratios(r, t, cols, ncols, lat);
    html_table_set_note(t, "Ratios are oriented as in ssdbench compare, so that above 1 means better: IOPS and "
                           "MB/s X / baseline, latency baseline / X.");
    html_show_table(r, t);
}

void html_run_section(struct html_report *r, const char *id, const char *what, const struct html_run *runs, size_t nruns)
{
    char buf[512];
    r->multi = nruns > 1;
    for (size_t k = 0; k < nruns; k++) {
        const cJSON *ph = runs[k].phase;
        const cJSON *job;
        cJSON_ArrayForEach(job, cJSON_GetObjectItemCaseSensitive(ph, "jobs")) {
            html_job_text(buf, sizeof(buf), cJSON_GetObjectItemCaseSensitive(job, "params"));
            html_para(r, NULL, html_printf(r, "%s%s%s: %s; %.2f s measured, stopped by %s.",
                                         r->multi ? r->labels[runs[k].res] : "", r->multi ? ", job " : "Job ",
                                         result_str(job, "name", "?"), buf, result_num(ph, "elapsed_s", 0),
                                         result_str(ph, "stopped_by", "?")));
        }
    }
    summary_table(r, id, what, runs, nruns);
    comparison_table(r, id, what, runs, nruns);
    bool present[HTML_NDIRS];
    for (int d = 0; d < HTML_NDIRS; d++)
        present[d] = dir_present(r, runs, nruns, html_dirs[d]);
    struct html_lat_src src[HTML_MAX_SERIES];
    size_t ns = 0;
    for (size_t k = 0; k < nruns; k++) {
        const cJSON *sc = result_scope(runs[k].phase, "total");
        for (int d = 0; d < HTML_NDIRS && ns < HTML_MAX_SERIES; d++) {
            const cJSON *dir = html_dir(sc, html_dirs[d]);
            if (!dir)
                continue;
            const char *dn = nslots(present) > 1 || !r->multi ? (d == 2 ? "flush" : html_dirs[d]) : NULL;
            src[ns++] = (struct html_lat_src){html_lat(dir), html_series_name(r, runs[k].res, dn),
                                             html_color(runs[k].res, slot(d, present), nslots(present)), 0};
        }
    }
    html_latency_charts(r, id, what, src, ns);
    time_charts(r, id, what, runs, nruns);
    html_cluster_section(r, id, what, runs, nruns);
}

void html_overview(struct html_report *r, const char *const *names, size_t nnames)
{
    html_heading(r, HTML_H2, "Overview of the phases");
    struct html_table *t = html_add_table(r, "phases-overview", "Throughput and p99 latency per phase");
    if (!t)
        return;
    int cph = html_table_add_col(t, "phase", NULL, HTML_TABLE_TEXT, HTML_TABLE_AUTO);
    int cop = html_table_add_col(t, "op", NULL, HTML_TABLE_TEXT, HTML_TABLE_AUTO);
    int ciops[HTML_REPORT_MAX_IN], cmbps[HTML_REPORT_MAX_IN], cp99[HTML_REPORT_MAX_IN];
    size_t nres = r->nin < HTML_REPORT_MAX_IN ? r->nin : HTML_REPORT_MAX_IN;
    bool has[HTML_REPORT_MAX_IN] = {false};
    for (size_t i = 0; i < nres; i++) {
        const cJSON *ph;
        has[i] = false;
        cJSON_ArrayForEach(ph, html_phases(r, i))
            has[i] |= html_phase_is(ph, "run");
    }
    size_t first;
    html_participants(r, has, &first);
    for (size_t i = 0; i < nres; i++) {
        ciops[i] = cmbps[i] = cp99[i] = -1;
        if (!has[i])
            continue;
        const char *pre = r->multi ? r->labels[i] : "";
        const char *sep = r->multi ? " " : "";
        ciops[i] = html_table_add_col(t, html_printf(r, "%s%sIOPS", pre, sep), NULL, HTML_TABLE_NUM, HTML_TABLE_INT);
        cmbps[i] = html_table_add_col(t, html_printf(r, "%s%sMB/s", pre, sep), NULL, HTML_TABLE_NUM, HTML_TABLE_AUTO);
        cp99[i] = html_table_add_col(t, html_printf(r, "%s%sp99", pre, sep), "ns", HTML_TABLE_NUM, HTML_TABLE_NS);
    }
    char err[256];
    for (size_t k = 0; k < nnames; k++)
        for (int d = 0; d < 2; d++) {
            long row = -1;
            for (size_t i = 0; i < nres; i++) {
                const cJSON *ph;
                if (!has[i])
                    continue;
                cJSON_ArrayForEach(ph, html_phases(r, i)) {
                    if (!html_phase_is(ph, "run") || strcmp(result_str(ph, "name", ""), names[k]) != 0)
                        continue;
                    const cJSON *dir = html_dir(result_scope(ph, "total"), html_dirs[d]);
                    if (!dir)
                        break;
                    if (row < 0) {
                        row = html_table_add_row(t);
                        if (row < 0)
                            return;
                        html_table_set_text(t, (size_t)row, cph, names[k]);
                        html_table_set_text(t, (size_t)row, cop, html_dirs[d]);
                    }
                    html_table_set(t, (size_t)row, ciops[i], result_num(dir, "iops", NAN));
                    html_table_set(t, (size_t)row, cmbps[i], result_num(dir, "mbps", NAN));
                    struct hist *h = html_hist(html_lat(dir), err, sizeof(err));
                    if (h) {
                        html_table_set(t, (size_t)row, cp99[i], (double)hist_percentile(h, 99));
                        free(h);
                    }
                    break;
                }
            }
        }
    if (r->multi)
        html_add_ratios(r, t, ciops, nres, "IOPS", false);
    /* the category axis needs "phase op" labels of its own */
    int ccat = html_table_add_col(t, "point", NULL, HTML_TABLE_TEXT, HTML_TABLE_AUTO);
    if (ccat >= 0)
        t->cols[ccat].html_hidden = true;
    for (size_t row = 0; row < t->nrows; row++)
        html_table_set_text(t, row, ccat, html_printf(r, "%s %s", html_table_text(t, row, cph), html_table_text(t, row, cop)));
    struct html_chart *c = html_chart(r, t, ccat, "IOPS per phase");
    if (c) {
        c->x = html_axis(NULL, HTML_SVG_CAT, HTML_SVG_FMT_PLAIN);
        c->y = html_axis("IOPS", HTML_SVG_LIN, HTML_SVG_FMT_NUM);
        for (size_t i = 0; i < nres; i++)
            if (has[i])
                html_chart_series(c, ciops[i], r->multi ? r->labels[i] : "IOPS", (unsigned)i, 0, HTML_SVG_BARS);
    }
    html_show_table(r, t);
}

int html_build_runs(struct html_report *r)
{
    /* distinct phase names, in order of first appearance */
    const char *names[256];
    size_t nnames = 0, total = 0;
    for (size_t i = 0; i < r->nin; i++) {
        const cJSON *ph;
        cJSON_ArrayForEach(ph, html_phases(r, i)) {
            if (!html_phase_is(ph, "run"))
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
        html_overview(r, names, nnames);
    struct html_run *runs = calloc(r->nin, sizeof(*runs));
    if (!runs)
        return -ENOMEM;
    for (size_t k = 0; k < nnames && !r->oom; k++) {
        size_t nruns = 0;
        for (size_t i = 0; i < r->nin; i++) {
            const cJSON *ph;
            cJSON_ArrayForEach(ph, html_phases(r, i))
                if (html_phase_is(ph, "run") && strcmp(result_str(ph, "name", ""), names[k]) == 0) {
                    runs[nruns++] = (struct html_run){i, ph};
                    break;
                }
        }
        const char *what = names[k];
        html_heading(r, HTML_H2, html_printf(r, "%s: %s", total == 1 ? "Run" : "Phase", what));
        html_run_section(r, html_printf(r, "run-%s", what), what, runs, nruns);
    }
    free(runs);
    return r->oom ? -ENOMEM : 0;
}
