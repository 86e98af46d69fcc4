/* html_sweep.c - report sections for suites (docs/suite.md): per profile,
 * the preconditioning rounds with the steady-state window (the SNIA
 * convergence and window plots: tracking variable, window average, +/-10 %
 * band and the least-squares fit), latency during preconditioning, and the
 * sweep: IOPS and MB/s per T x Q or QD point, average / p99 / maximum /
 * standard deviation of latency per point, with ratio tables between
 * results. Everything comes from the "suite" object and the phases it
 * names; sweep-point phases without one are shown as plain runs. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "output/html_kinds.h"
#include "result/result_read.h"

static const cJSON *suite_profiles(const struct html_report *r, size_t res)
{
    const cJSON *s = cJSON_GetObjectItemCaseSensitive(r->in[res].doc, "suite");
    return cJSON_GetObjectItemCaseSensitive(s, "profiles");
}

static const cJSON *find_profile(const struct html_report *r, size_t res, const char *name)
{
    const cJSON *p;
    cJSON_ArrayForEach(p, suite_profiles(r, res))
        if (strcmp(result_str(p, "name", ""), name) == 0)
            return p;
    return NULL;
}

/* Distinct profile names over all results, in order; returns the count. */
static size_t profile_names(const struct html_report *r, const char *key, const char **names, size_t cap)
{
    size_t n = 0;
    for (size_t i = 0; i < r->nin; i++) {
        const cJSON *p;
        cJSON_ArrayForEach(p, suite_profiles(r, i)) {
            if (!cJSON_GetObjectItemCaseSensitive(p, key))
                continue;
            const char *nm = result_str(p, "name", "?");
            size_t k = 0;
            while (k < n && strcmp(names[k], nm) != 0)
                k++;
            if (k == n && n < cap)
                names[n++] = nm;
        }
    }
    return n;
}

static const char *metric_label(const char *metric, double *scale, enum html_svg_fmt *fmt, const char **field)
{
    *scale = 1;
    *fmt = HTML_SVG_FMT_NUM;
    *field = "iops";
    if (strcmp(metric, "bw") == 0) {
        *scale = 1e-6;     /* the rule tracks bytes/s; rows hold MB/s */
        *field = "mbps";
        return "throughput (MB/s)";
    }
    if (strcmp(metric, "lat") == 0) {
        *fmt = HTML_SVG_FMT_NS;
        *field = "lat_mean_ns";
        return "mean latency";
    }
    return "IOPS";
}

static void steady_marks(struct html_report *r, struct html_chart *c, const cJSON *ss, double scale, unsigned color,
                         const char *who)
{
    double avg = result_num(ss, "avg", NAN) * scale;
    double wf = result_num(ss, "window_first", 0), wl = result_num(ss, "window_last", 0);
    if (!(wl > 0) || isnan(avg))
        return;
    const cJSON *fit = cJSON_GetObjectItemCaseSensitive(ss, "fit");
    double slope = result_num(fit, "slope", NAN) * scale, icpt = result_num(fit, "intercept", NAN) * scale;
    const char *pre = who ? who : "";
    const char *sp = who ? " " : "";
    html_chart_mark(c, HTML_SVG_VSPAN, wf - 0.5, 0, wl + 0.5, 0, html_printf(r, "%s%smeasurement window", pre, sp), color, 0);
    html_chart_mark(c, HTML_SVG_HBAND, 0, avg * 0.9, 0, avg * 1.1, html_printf(r, "%s%swindow average \xc2\xb1" "10 %%", pre, sp),
                   color, 0);
    html_chart_mark(c, HTML_SVG_HLINE, 0, avg, 0, 0, html_printf(r, "%s%swindow average", pre, sp), color, 1);
    if (!isnan(slope) && !isnan(icpt))
        html_chart_mark(c, HTML_SVG_SEGMENT, wf, slope * wf + icpt, wl, slope * wl + icpt,
                       html_printf(r, "%s%sleast-squares fit", pre, sp), color, 3);
}

/* The preconditioning paragraphs per result: workload, verdict, window
 * figures. Returns the tracking metric (the last result's, "iops" if none). */
static const char *precondition_text(struct html_report *r, const cJSON *const *pcs, size_t nres)
{
    const char *metric = "iops";
    for (size_t i = 0; i < nres; i++) {
        if (!pcs[i])
            continue;
        const cJSON *ss = cJSON_GetObjectItemCaseSensitive(pcs[i], "steady_state");
        const cJSON *iv = cJSON_GetObjectItemCaseSensitive(pcs[i], "intervals");
        html_para(r, NULL, html_printf(r, "%s%s%s%s at %s%s, one round = %g s.", r->multi ? r->labels[i] : "",
                                     r->multi ? ": " : "", result_str(pcs[i], "workload", "?"),
                                     cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(pcs[i], "switched_to_write"))
                                         ? " (switched to 100 % writes)" : "",
                                     result_str(pcs[i], "load", "?"), "",
                                     result_num(iv, "step_ms", 0) / 1000));
        if (ss) {
            metric = result_str(ss, "metric", "iops");
            bool reached = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(ss, "reached"));
            html_para(r, reached ? "verdict pass" : "verdict fail",
                     html_printf(r, "%s%s%s (rule %s on %s).", r->multi ? r->labels[i] : "", r->multi ? ": " : "",
                                result_str(ss, "statement", reached ? "steady state reached" : "steady state not reached"),
                                result_str(ss, "criterion", "?"), metric));
            if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(ss, "evaluated")))
                html_para(r, "note", html_printf(r, "Window rounds %g-%g: average %.6g, data excursion %.6g (%.2f %% of the "
                                                  "average, allowed %.6g), slope excursion %.6g (%.2f %%, allowed %.6g); "
                                                  "fit y = %.6g x round + %.6g.",
                                               result_num(ss, "window_first", 0), result_num(ss, "window_last", 0),
                                               result_num(ss, "avg", 0), result_num(ss, "range", 0),
                                               result_num(ss, "range_pct", 0), result_num(ss, "range_allowed", 0),
                                               result_num(ss, "slope_excursion", 0),
                                               result_num(ss, "slope_excursion_pct", 0),
                                               result_num(ss, "slope_allowed", 0),
                                               result_num(cJSON_GetObjectItemCaseSensitive(ss, "fit"), "slope", 0),
                                               result_num(cJSON_GetObjectItemCaseSensitive(ss, "fit"), "intercept", 0)));
        }
    }
    return metric;
}

/* Fill the rounds table rt (the tracking field per round) and the intervals
 * table it (every figure per interval); rcol/icol get each result's columns,
 * -1 for a result without preconditioning. */
static void precondition_tables(struct html_report *r, const cJSON *const *pcs, size_t nres, const char *field,
                                enum html_svg_fmt mfmt, struct html_table *rt, struct html_table *it, int *rcol,
                                int icol[][6])
{
    static const char *const fields[] = {"iops", "mbps", "lat_avg_ns", "lat_max_ns", "lat_sd_avg_ns", "p99_ns"};
    static const char *const fnames[] = {"IOPS", "MB/s", "average latency", "max latency", "latency stddev",
                                         "p99 latency"};
    for (size_t i = 0; i < nres; i++) {
        rcol[i] = -1;
        for (int k = 0; k < 6; k++)
            icol[i][k] = -1;
        if (!pcs[i])
            continue;
        const cJSON *iv = cJSON_GetObjectItemCaseSensitive(pcs[i], "intervals");
        int ft = result_field_index(iv, "t_ms"), fr = result_field_index(iv, "round"), fm = result_field_index(iv, field);
        int fi[6];
        rcol[i] = html_table_add_col(rt, html_series_name(r, i, NULL), NULL, HTML_TABLE_NUM, mfmt == HTML_SVG_FMT_NS ? HTML_TABLE_NS : HTML_TABLE_AUTO);
        for (int k = 0; k < 6; k++) {
            fi[k] = result_field_index(iv, fields[k]);
            icol[i][k] = html_table_add_col(it, html_printf(r, "%s%s%s", r->multi ? r->labels[i] : "", r->multi ? " " : "",
                                                     fnames[k]),
                                      k >= 2 ? "ns" : k == 1 ? "MB/s" : NULL, HTML_TABLE_NUM, k >= 2 ? HTML_TABLE_NS : HTML_TABLE_AUTO);
        }
        const cJSON *row;
        double step = result_num(iv, "step_ms", 0), prev = 0;
        cJSON_ArrayForEach(row, cJSON_GetObjectItemCaseSensitive(iv, "rows")) {
            double round = html_row_num(row, fr), t = html_row_num(row, ft);
            /* a tail shorter than the step is no interval: its rate covers a few
             * milliseconds, so the chart and the table leave it out */
            bool part = step > 0 && t - prev < step * 0.999;
            prev = t;
            if (part)
                continue;
            if (round >= 1) {
                long w = html_table_row_for(rt, 0, round);
                if (w >= 0)
                    html_table_set(rt, (size_t)w, rcol[i], html_row_num(row, fm));
            }
            long w = html_table_row_for(it, 0, html_row_num(row, ft) / 1000);
            for (int k = 0; k < 6 && w >= 0; k++)
                html_table_set(it, (size_t)w, icol[i][k], html_row_num(row, fi[k]));
        }
    }
}

/* The window plot, one per result: rounds of the window only. Returns false
 * when the report ran out of room (nothing more is added then). */
static bool precondition_windows(struct html_report *r, const char *name, const cJSON *const *pcs, size_t nres,
                                 struct html_table *rt, const int *rcol, const char *mlabel,
                                 enum html_svg_fmt mfmt, double scale)
{
    for (size_t i = 0; i < nres; i++) {
        const cJSON *ss = pcs[i] ? cJSON_GetObjectItemCaseSensitive(pcs[i], "steady_state") : NULL;
        double wf = result_num(ss, "window_first", 0), wl = result_num(ss, "window_last", 0);
        if (!(wl > 0) || rcol[i] < 0)
            continue;
        struct html_chart *c = html_chart(r, rt, 0, html_printf(r, "%s: steady-state window%s%s", name, r->multi ? ", " : "",
                                           r->multi ? r->labels[i] : ""));
        if (!c)
            return false;
        c->x = html_axis("round", HTML_SVG_LIN, HTML_SVG_FMT_PLAIN);
        c->x.min = wf - 0.5;
        c->x.max = wl + 0.5;
        c->x.tight = true;
        c->y = html_axis(mlabel, HTML_SVG_LIN, mfmt);
        c->y.zero = false;
        c->height = 220;
        /* points outside the window are clipped to the edge: draw window rows only */
        struct html_table *wt = html_add_data_table(r, html_printf(r, "pre-%s-window%s%s", name, r->multi ? "-" : "",
                                                       r->multi ? r->labels[i] : ""),
                                         html_printf(r, "%s: steady-state window", name));
        if (!wt)
            return false;
        html_table_add_col(wt, "round", NULL, HTML_TABLE_NUM, HTML_TABLE_INT);
        int wc = html_table_add_col(wt, mlabel, NULL, HTML_TABLE_NUM, mfmt == HTML_SVG_FMT_NS ? HTML_TABLE_NS : HTML_TABLE_AUTO);
        for (size_t row = 0; row < rt->nrows; row++) {
            double rd = html_table_get(rt, row, 0);
            if (rd >= wf && rd <= wl) {
                long w = html_table_add_row(wt);
                if (w >= 0) {
                    html_table_set(wt, (size_t)w, 0, rd);
                    html_table_set(wt, (size_t)w, wc, html_table_get(rt, row, rcol[i]));
                }
            }
        }
        c->t = wt;
        html_chart_series(c, wc, html_series_name(r, i, mlabel), (unsigned)i, 0, HTML_SVG_LINE_MARKS);
        steady_marks(r, c, ss, scale, (unsigned)i, NULL);
    }
    return true;
}

/* The latency chart over the preconditioning intervals table it. */
static void precondition_latency_chart(struct html_report *r, const char *name, struct html_table *it, size_t nres,
                                       int icol[][6])
{
    struct html_chart *c = html_chart(r, it, 0, html_printf(r, "%s: latency during preconditioning", name));
    if (c) {
        c->x = html_axis("time (s)", HTML_SVG_LIN, HTML_SVG_FMT_PLAIN);
        c->x.tight = true;
        c->y = html_axis("latency per interval", HTML_SVG_LOG, HTML_SVG_FMT_NS);
        c->note = "Solid: average; dashed: standard deviation; dotted: maximum, per interval (reads and writes "
                  "combined as the reviews do: means of the two directions, the larger maximum).";
        for (size_t i = 0; i < nres; i++) {
            if (icol[i][2] < 0)
                continue;
            html_chart_series(c, icol[i][2], html_series_name(r, i, "average"), (unsigned)i, 0, HTML_SVG_LINE);
            html_chart_series(c, icol[i][4], html_series_name(r, i, "stddev"), (unsigned)i, 1, HTML_SVG_LINE);
            html_chart_series(c, icol[i][3], html_series_name(r, i, "max"), (unsigned)i, 2, HTML_SVG_LINE);
        }
    }
}

static void precondition_profile(struct html_report *r, const char *name)
{
    html_heading(r, HTML_H2, html_printf(r, "Preconditioning: %s", name));
    const cJSON *pcs[HTML_REPORT_MAX_IN];
    size_t nres = r->nin < HTML_REPORT_MAX_IN ? r->nin : HTML_REPORT_MAX_IN;
    bool has[HTML_REPORT_MAX_IN] = {false};
    for (size_t i = 0; i < nres; i++) {
        pcs[i] = cJSON_GetObjectItemCaseSensitive(find_profile(r, i, name), "precondition");
        has[i] = pcs[i] != NULL;
    }
    size_t first;
    html_participants(r, has, &first);
    const char *metric = precondition_text(r, pcs, nres);
    double scale;
    enum html_svg_fmt mfmt;
    const char *field;
    const char *mlabel = metric_label(metric, &scale, &mfmt, &field);

    /* rounds: the tracking variable per round */
    struct html_table *rt = html_add_data_table(r, html_printf(r, "pre-%s-rounds", name),
                                     html_printf(r, "%s: preconditioning rounds", name));
    /* intervals: every figure per interval, by time */
    struct html_table *it = html_add_data_table(r, html_printf(r, "pre-%s-intervals", name),
                                     html_printf(r, "%s: preconditioning intervals", name));
    if (!rt || !it)
        return;
    html_table_add_col(rt, "round", NULL, HTML_TABLE_NUM, HTML_TABLE_INT);
    html_table_add_col(it, "time", "s", HTML_TABLE_NUM, HTML_TABLE_AUTO);
    int rcol[HTML_REPORT_MAX_IN], icol[HTML_REPORT_MAX_IN][6];
    precondition_tables(r, pcs, nres, field, mfmt, rt, it, rcol, icol);
    html_table_sort(rt, 0);
    html_table_sort(it, 0);

    struct html_chart *c = html_chart(r, rt, 0, html_printf(r, "%s: steady-state convergence", name));
    if (c) {
        c->x = html_axis("round", HTML_SVG_LIN, HTML_SVG_FMT_PLAIN);
        c->x.min = 0.5;
        c->x.max = rt->nrows ? html_table_get(rt, rt->nrows - 1, 0) + 0.5 : 1.5;
        c->x.tight = true;
        c->y = html_axis(mlabel, HTML_SVG_LIN, mfmt);
        c->note = "The tracking variable per round; shaded: the measurement window and 90-110 % of its average; "
                  "dashed: the average; dash-dot: the least-squares fit over the window.";
        for (size_t i = 0; i < nres; i++) {
            if (rcol[i] < 0)
                continue;
            html_chart_series(c, rcol[i], html_series_name(r, i, mlabel), (unsigned)i, 0, HTML_SVG_LINE_MARKS);
            steady_marks(r, c, cJSON_GetObjectItemCaseSensitive(pcs[i], "steady_state"), scale, (unsigned)i,
                         r->multi ? r->labels[i] : NULL);
        }
    }
    if (!precondition_windows(r, name, pcs, nres, rt, rcol, mlabel, mfmt, scale))
        return;
    if (!it->nrows)
        return;
    precondition_latency_chart(r, name, it, nres, icol);
}

int html_build_precondition(struct html_report *r)
{
    const char *names[64];
    size_t n = profile_names(r, "precondition", names, 64);
    for (size_t k = 0; k < n && !r->oom; k++)
        precondition_profile(r, names[k]);
    /* precondition phases no suite object describes: shown as runs */
    for (size_t i = 0; i < r->nin; i++) {
        if (cJSON_GetObjectItemCaseSensitive(r->in[i].doc, "suite"))
            continue;
        const cJSON *ph;
        cJSON_ArrayForEach(ph, html_phases(r, i)) {
            if (!html_phase_is(ph, "precondition"))
                continue;
            const char *nm = result_str(ph, "name", "?");
            struct html_run run = {i, ph};
            html_heading(r, HTML_H2, html_printf(r, "Preconditioning: %s%s%s", nm, r->nin > 1 ? ", " : "",
                                              r->nin > 1 ? r->labels[i] : ""));
            html_run_section(r, html_printf(r, "pre-%s-%zu", nm, i), nm, &run, 1);
        }
    }
    return r->oom ? -ENOMEM : 0;
}

/* ---- sweeps ----------------------------------------------------------- */

/* A point's row key: its label ("QD32"), with the part in front when the
 * profile has several parts (each part runs every point). */
static const char *point_key(struct html_report *r, const cJSON *prof, const cJSON *pt)
{
    if (cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(prof, "parts")) > 1)
        return html_printf(r, "%s %s", result_str(pt, "part", "?"), result_str(pt, "label", "?"));
    return result_str(pt, "label", "?");
}

enum { F_IOPS, F_MBPS, F_AVG, F_P99, F_MAX, F_SD, F_SCALE, F_N };
static const char *const fig_key[F_N] = {"iops", "mbps", "lat_avg_ns", "p99_ns", "lat_max_ns", "lat_sd_avg_ns", NULL};
static const char *const fig_name[F_N] = {"IOPS", "MB/s", "average latency", "p99 latency", "max latency",
                                          "latency stddev", "scaling vs baseline"};

/* One paragraph per result with the sweep's settings; returns the sweep kind
 * ("tq" or "qd", the last result's). */
static const char *sweep_text(struct html_report *r, const cJSON *const *prof, size_t nres)
{
    const char *kind = "tq";
    for (size_t i = 0; i < nres; i++) {
        const cJSON *s = cJSON_GetObjectItemCaseSensitive(r->in[i].doc, "suite");
        const cJSON *sw = cJSON_GetObjectItemCaseSensitive(s, "sweep");
        if (prof[i])
            kind = result_str(sw, "kind", kind);
        char peak[32];
        html_table_thousands(peak, sizeof(peak), result_num(prof[i], "peak_iops", 0), 0);
        if (prof[i])
            html_para(r, NULL, html_printf(r, "%s%s%g s per point%s, load %s, active range %g %% of each target, "
                                            "layout %s; peak %s IOPS.", r->multi ? r->labels[i] : "",
                                         r->multi ? ": " : "", result_num(sw, "point_runtime_s", 0),
                                         result_num(sw, "ramp_s", 0) > 0 ? " after a ramp" : "",
                                         strcmp(result_str(s, "load_per", "total"), "target") == 0
                                             ? "per target" : "in total",
                                         result_num(s, "active_range_pct", 100), result_str(s, "layout", "?"),
                                         peak));
    }
    return kind;
}

/* Fill the data table t (point key in column cpt): every figure of every
 * result's sweep points; col gets each result's columns (-1: none). Returns
 * false when the table ran out of rows. */
static bool sweep_points_table(struct html_report *r, struct html_table *t, int cpt, const cJSON *const *prof,
                               size_t nres, int col[][F_N])
{
    bool any_scale = false;
    for (size_t i = 0; i < nres; i++) {
        for (int k = 0; k < F_N; k++)
            col[i][k] = -1;
        if (!prof[i])
            continue;
        for (int k = 0; k < F_N; k++) {
            if (k == F_SCALE) {
                const cJSON *pt0 = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(prof[i], "points"), 0);
                if (!cJSON_GetObjectItemCaseSensitive(pt0, "scaling"))
                    continue;
                any_scale = true;
            }
            col[i][k] = html_table_add_col(t, html_printf(r, "%s%s%s", r->multi ? r->labels[i] : "", r->multi ? " " : "",
                                                   fig_name[k]),
                                     k >= F_AVG && k <= F_SD ? "ns" : k == F_MBPS ? "MB/s" : NULL, HTML_TABLE_NUM,
                                     k >= F_AVG && k <= F_SD ? HTML_TABLE_NS : k == F_IOPS ? HTML_TABLE_INT : HTML_TABLE_AUTO);
        }
        const cJSON *pt;
        cJSON_ArrayForEach(pt, cJSON_GetObjectItemCaseSensitive(prof[i], "points")) {
            if (strcmp(result_str(pt, "kind", "sweep-point"), "sweep-point") != 0)
                continue;   /* a sample at the preconditioning load is a run of its own */
            long w = html_table_row_for_text(t, cpt, point_key(r, prof[i], pt));
            if (w < 0)
                return false;
            const cJSON *cb = cJSON_GetObjectItemCaseSensitive(pt, "combined");
            for (int k = 0; k < F_SCALE; k++)
                html_table_set(t, (size_t)w, col[i][k], result_num(cb, fig_key[k], NAN));
            html_table_set(t, (size_t)w, col[i][F_SCALE],
                     result_num(cJSON_GetObjectItemCaseSensitive(pt, "scaling"), "factor", NAN));
        }
    }
    (void)any_scale;
    return true;
}

/* The shown table for one result (the result at index only): every figure
 * per point. */
static void sweep_single_table(struct html_report *r, const char *name, const struct html_table *t, int cpt,
                               bool qd, size_t only, int col[][F_N])
{
    struct html_table *st = html_add_table(r, html_printf(r, "sweep-%s-table", name), html_printf(r, "%s: per point", name));
    if (st) {
        int c0 = html_table_add_col(st, qd ? "queue depth" : "threads x queue", NULL, HTML_TABLE_TEXT, HTML_TABLE_AUTO);
        int cc[F_N];
        for (int k = 0; k < F_N; k++)
            cc[k] = col[only][k] < 0 ? -1 : html_table_add_col(st, fig_name[k], t->cols[col[only][k]].unit, HTML_TABLE_NUM,
                                                           t->cols[col[only][k]].fmt);
        for (size_t row = 0; row < t->nrows; row++) {
            long w = html_table_add_row(st);
            if (w < 0)
                break;
            html_table_set_text(st, (size_t)w, c0, html_table_text(t, row, cpt));
            for (int k = 0; k < F_N; k++)
                if (cc[k] >= 0)
                    html_table_set(st, (size_t)w, cc[k], html_table_get(t, row, col[only][k]));
        }
        html_table_set_note(st, "Latency figures combine reads and writes as the reviews do (means of the two "
                          "directions, the larger maximum); p99 is over all I/Os.");
        html_show_table(r, st);
    }
}

/* The shown tables for several results: IOPS and average latency per point
 * with ratios (the two tables the reviews print). */
static void sweep_multi_tables(struct html_report *r, const char *name, const struct html_table *t, int cpt,
                               bool qd, size_t nres, const bool *has, int col[][F_N])
{
    static const int shown[2] = {F_IOPS, F_AVG};
    for (int s = 0; s < 2; s++) {
        int k = shown[s];
        struct html_table *st = html_add_table(r, html_printf(r, "sweep-%s-%s", name, s ? "latency" : "iops"),
                                    html_printf(r, "%s: %s per point (%s)", name, fig_name[k],
                                               s ? "less is better" : "more is better"));
        if (!st)
            break;
        int c0 = html_table_add_col(st, qd ? "queue depth" : "threads x queue", NULL, HTML_TABLE_TEXT, HTML_TABLE_AUTO);
        int cc[HTML_REPORT_MAX_IN];
        for (size_t i = 0; i < nres; i++)
            cc[i] = !has[i] ? -1
                            : html_table_add_col(st, r->labels[i], s ? "\xc2\xb5s" : NULL, HTML_TABLE_NUM, s ? HTML_TABLE_AUTO : HTML_TABLE_INT);
        for (size_t row = 0; row < t->nrows; row++) {
            long w = html_table_add_row(st);
            if (w < 0)
                break;
            html_table_set_text(st, (size_t)w, c0, html_table_text(t, row, cpt));
            for (size_t i = 0; i < nres; i++)
                if (cc[i] >= 0)
                    html_table_set(st, (size_t)w, cc[i], col[i][k] < 0 ? NAN : html_table_get(t, row, col[i][k]) / (s ? 1e3 : 1));
        }
        html_add_ratios(r, st, cc, nres, NULL, s == 1);
        html_show_table(r, st);
    }
}

/* The per-point charts of the data table t (x axis label xl). Returns false
 * when the report ran out of room for charts. */
static bool sweep_charts(struct html_report *r, const char *name, struct html_table *t, int cpt, const char *xl,
                         size_t nres, int col[][F_N])
{
    static const struct {
        int fig, fig2;
        const char *title, *axis, *note;
        enum html_svg_scale scale;
        enum html_svg_fmt fmt;
    } charts[] = {
        {F_IOPS, -1, "IOPS", "IOPS", NULL, HTML_SVG_LIN, HTML_SVG_FMT_NUM},
        {F_MBPS, -1, "throughput", "throughput (MB/s)", NULL, HTML_SVG_LIN, HTML_SVG_FMT_NUM},
        {F_MAX, -1, "maximum latency", "latency", NULL, HTML_SVG_LOG, HTML_SVG_FMT_NS},
        {F_SD, -1, "latency standard deviation", "latency stddev", NULL, HTML_SVG_LOG, HTML_SVG_FMT_NS},
        {F_AVG, F_P99, "average and p99 latency", "latency", "Solid: average latency; dashed: 99th percentile.",
         HTML_SVG_LOG, HTML_SVG_FMT_NS},
    };
    for (size_t k = 0; k < sizeof(charts) / sizeof(charts[0]); k++) {
        struct html_chart *c = html_chart(r, t, cpt, html_printf(r, "%s: %s per point", name, charts[k].title));
        if (!c)
            return false;
        c->x = html_axis(xl, HTML_SVG_CAT, HTML_SVG_FMT_PLAIN);
        c->y = html_axis(charts[k].axis, charts[k].scale, charts[k].fmt);
        c->note = charts[k].note;
        c->half = k <= 3;   /* pairs side by side on wide screens */
        for (size_t i = 0; i < nres; i++) {
            if (col[i][charts[k].fig] < 0)
                continue;
            const char *nm = charts[k].fig2 >= 0 ? html_series_name(r, i, "average") : html_series_name(r, i, NULL);
            if (!r->multi && charts[k].fig2 < 0)
                nm = charts[k].title;
            html_chart_series(c, col[i][charts[k].fig], nm, (unsigned)i, 0, HTML_SVG_LINE_MARKS);
            if (charts[k].fig2 >= 0 && col[i][charts[k].fig2] >= 0)
                html_chart_series(c, col[i][charts[k].fig2], html_series_name(r, i, "p99"), (unsigned)i, 1,
                                 HTML_SVG_LINE_MARKS);
        }
    }
    return true;
}

/* One result (index only, profile prof): the percentile curve of every point
 * on one chart; a mixed workload gets one set of charts per direction
 * (reads, then writes). */
static void sweep_percentile_charts(struct html_report *r, const char *name, const cJSON *prof, size_t only)
{
    static const char *const dirs[2] = {"read", "write"};
    struct html_lat_src src[2][HTML_MAX_SERIES];
    size_t ns[2] = {0, 0};
    bool both = false;
    const cJSON *pt;
    cJSON_ArrayForEach(pt, cJSON_GetObjectItemCaseSensitive(prof, "points")) {
        const char *phn = result_str(pt, "phase", "");
        if (strcmp(result_str(pt, "kind", "sweep-point"), "sweep-point") != 0)
            continue;
        const cJSON *ph;
        cJSON_ArrayForEach(ph, html_phases(r, only)) {
            if (strcmp(result_str(ph, "name", ""), phn) != 0)
                continue;
            const cJSON *sc = result_scope(ph, "total");
            bool mixed = html_dir(sc, "read") && html_dir(sc, "write");
            both |= mixed;
            for (int d = 0; d < 2; d++) {
                const cJSON *dir = html_dir(sc, dirs[d]);
                if (!dir || ns[d] >= HTML_MAX_SERIES)
                    continue;
                src[d][ns[d]] = (struct html_lat_src){
                    html_lat(dir),
                    html_printf(r, "%s%s%s", point_key(r, prof, pt), mixed ? " " : "",
                                mixed ? dirs[d] : ""),
                    (unsigned)(ns[d] % HTML_SVG_PALETTE), (unsigned)(ns[d] / HTML_SVG_PALETTE)};
                ns[d]++;
            }
            break;
        }
    }
    for (int d = 0; d < 2; d++)
        if (ns[d] > 1)
            html_latency_charts(r, html_printf(r, "sweep-%s%s%s", name, both ? "-" : "", both ? dirs[d] : ""),
                                html_printf(r, "%s, every point%s", name,
                                            both ? (d ? ", writes" : ", reads") : ""),
                                src[d], ns[d]);
}

static void sweep_profile(struct html_report *r, const char *name)
{
    html_heading(r, HTML_H2, html_printf(r, "Sweep: %s", name));
    size_t nres = r->nin < HTML_REPORT_MAX_IN ? r->nin : HTML_REPORT_MAX_IN;
    const cJSON *prof[HTML_REPORT_MAX_IN];
    bool has[HTML_REPORT_MAX_IN] = {false};
    for (size_t i = 0; i < nres; i++) {
        prof[i] = find_profile(r, i, name);
        has[i] = cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(prof[i], "points")) > 0;
        if (!has[i])
            prof[i] = NULL;
    }
    size_t only;
    html_participants(r, has, &only);
    const char *kind = sweep_text(r, prof, nres);
    bool qd = strcmp(kind, "qd") == 0;
    struct html_table *t = html_add_data_table(r, html_printf(r, "sweep-%s", name), html_printf(r, "%s: sweep points", name));
    if (!t)
        return;
    int cpt = html_table_add_col(t, qd ? "queue depth" : "threads x queue", NULL, HTML_TABLE_TEXT, HTML_TABLE_AUTO);
    int col[HTML_REPORT_MAX_IN][F_N];
    if (!sweep_points_table(r, t, cpt, prof, nres, col))
        return;
    if (!t->nrows)
        return;
    const char *xl = qd ? "queue depth (1 thread)" : "threads x queue depth";
    /* shown tables: every figure for one result; IOPS and average latency
     * with ratios for several (the two tables the reviews print) */
    if (!r->multi)
        sweep_single_table(r, name, t, cpt, qd, only, col);
    else
        sweep_multi_tables(r, name, t, cpt, qd, nres, has, col);
    if (!sweep_charts(r, name, t, cpt, xl, nres, col))
        return;
    if (!r->multi && prof[only])
        sweep_percentile_charts(r, name, prof[only], only);
}

int html_build_sweeps(struct html_report *r)
{
    const char *names[64];
    size_t n = profile_names(r, "points", names, 64);
    for (size_t k = 0; k < n && !r->oom; k++) {
        /* a profile without points (sweep none) has nothing to chart here */
        bool any = false;
        for (size_t i = 0; i < r->nin && !any; i++)
            any = cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(find_profile(r, i, names[k]), "points")) > 0;
        if (any)
            sweep_profile(r, names[k]);
    }
    /* sweep points no suite object describes: shown as runs */
    for (size_t i = 0; i < r->nin; i++) {
        if (cJSON_GetObjectItemCaseSensitive(r->in[i].doc, "suite"))
            continue;
        const cJSON *ph;
        cJSON_ArrayForEach(ph, html_phases(r, i)) {
            if (!html_phase_is(ph, "sweep-point"))
                continue;
            const char *nm = result_str(ph, "name", "?");
            struct html_run run = {i, ph};
            html_heading(r, HTML_H2, html_printf(r, "Sweep point: %s%s%s", nm, r->nin > 1 ? ", " : "",
                                              r->nin > 1 ? r->labels[i] : ""));
            html_run_section(r, html_printf(r, "point-%s-%zu", nm, i), nm, &run, 1);
        }
    }
    return r->oom ? -ENOMEM : 0;
}
