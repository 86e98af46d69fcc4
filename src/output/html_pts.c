/* html_pts.c - the report pages of a PTS result (the document's "pts"
 * object): the PTS header with the compliance statement, then per test the
 * SS convergence plot, an SS window plot per tracking variable (average,
 * 90-110 % band, 95/105 % lines, the fitted line), the determination data,
 * the test's table and plots: the IOPS surface as a heat table (block size x
 * R/W mix) and IOPS against block size per mix; throughput per element;
 * latency average / 5 nines / maximum and the window's histograms; WSAT IOPS
 * against time and against TGBW. Each result with a "pts" object gets its
 * own pages (PTS reports are per device). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "output/html_kinds.h"
#include "result/result.h"

/* An element index stored in the document, clamped so the conversion is
 * defined whatever the file holds (-1 when missing). */
static int el_num(const cJSON *o, int dflt)
{
    return (int)result_num_in(o, "element", -1, 1e6, dflt);
}

static int el_at(const cJSON *arr, int i)
{
    double v = result_at_num(arr, i, -1);
    return v >= 0 && v <= 1e6 ? (int)v : -1;
}

static const cJSON *get(const cJSON *o, const char *k)
{
    return cJSON_GetObjectItemCaseSensitive(o, k);
}

static const char *bs_text(struct html_report *r, double bs)
{
    if (fmod(bs, 1024) != 0)
        return html_printf(r, "%gKiB", bs / 1024.0);
    return html_printf(r, "%.0fKiB", bs / 1024.0);
}

static const char *metric_key(const cJSON *t)
{
    const char *m = result_str(t, "tracking_metric", "iops");
    return !strcmp(m, "bw") ? "mbps" : !strcmp(m, "lat") ? "lat_mean_ns" : "iops";
}

static bool is_lat(const cJSON *t)
{
    return !strcmp(metric_key(t), "lat_mean_ns");
}

static void header(struct html_report *r, size_t i, const cJSON *p)
{
    const cJSON *doc = r->in[i].doc;
    html_heading(r, HTML_H2, html_printf(r, "SNIA PTS: %s", r->labels[i]));
    const cJSON *nc = get(p, "noncompliance");
    if (cJSON_IsTrue(get(p, "compliant"))) {
        html_para(r, "verdict pass", "Compliant as far as ssdbench can tell.");
    } else {
        char buf[2048];
        size_t n = (size_t)snprintf(buf, sizeof(buf), "NOT COMPLIANT: ");
        for (int k = 0; k < cJSON_GetArraySize(nc) && n < sizeof(buf); k++)
            n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s%s", k ? "; " : "", result_at_str(nc, k, "?"));
        if (!get(p, "compliant") && n < sizeof(buf))
            snprintf(buf + n, sizeof(buf) - n, "; the run did not finish");
        html_para(r, "verdict fail", html_strdup(r, buf));
    }
    struct html_table *t = html_add_table(r, html_printf(r, "pts-header-%zu", i), "PTS header");
    if (!t)
        return;
    int ck = html_table_add_col(t, "field", NULL, HTML_TABLE_TEXT, HTML_TABLE_AUTO);
    int cv = html_table_add_col(t, "value", NULL, HTML_TABLE_TEXT, HTML_TABLE_AUTO);
#define ROW(k, v)                                          \
    do {                                                   \
        long w_ = html_table_add_row(t);                   \
        if (w_ >= 0) {                                     \
            html_table_set_text(t, (size_t)w_, ck, (k));   \
            html_table_set_text(t, (size_t)w_, cv, (v));   \
        }                                                  \
    } while (0)
    ROW("specification", html_printf(r, "%s, %s preset", result_str(p, "spec", "?"), result_str(p, "preset", "?")));
    const cJSON *tg = cJSON_GetArrayItem(get(doc, "targets"), 0);
    ROW("device", result_str(tg, "path", "?"));
    ROW("capacity", html_printf(r, "%.4g GB (%.0f bytes)", result_num(tg, "size_bytes", 0) / 1e9,
                                result_num(tg, "size_bytes", 0)));
    /* whatever identity and health the target records */
    const cJSON *e;
    cJSON_ArrayForEach(e, get(tg, "device")) {
        if (cJSON_IsString(e) && e->valuestring[0])
            ROW(html_strdup(r, e->string), html_strdup(r, e->valuestring));
        else if (cJSON_IsNumber(e))
            ROW(html_strdup(r, e->string), html_printf(r, "%g", e->valuedouble));
        else if (cJSON_IsBool(e))
            ROW(html_strdup(r, e->string), cJSON_IsTrue(e) ? "yes" : "no");
        else if (cJSON_IsObject(e)) {
            const cJSON *s;
            cJSON_ArrayForEach(s, e) {
                if (cJSON_IsString(s) && s->valuestring[0])
                    ROW(html_printf(r, "%s.%s", e->string, s->string), html_strdup(r, s->valuestring));
                else if (cJSON_IsNumber(s))
                    ROW(html_printf(r, "%s.%s", e->string, s->string), html_printf(r, "%g", s->valuedouble));
            }
        }
    }
    const cJSON *h = get(doc, "host");
    ROW("platform", html_printf(r, "%s, %s %s; ssdbench %s, engine %s", result_str(h, "hostname", "?"),
                                result_str(h, "kernel", "?"), result_str(h, "arch", ""),
                                result_str(get(doc, "tool"), "version", "?"), result_str(p, "engine", "?")));
    ROW("ActiveRange", html_printf(r, "%g %% (%.0f bytes)", result_num(p, "active_range_pct", 0),
                                   result_num(p, "active_range_bytes", 0)));
    ROW("TC/QD", html_printf(r, "T%.0f/Q%.0f (latency T1/Q1)", result_num(p, "threads", 0), result_num(p, "depth", 0)));
    const cJSON *wc = get(p, "write_cache");
    ROW("write cache", html_printf(r, "%s (kernel: %s); preset asks for %s", result_str(wc, "state", "?"),
                                   result_str(wc, "kernel", "?"), result_str(wc, "required", "?")));
    /* how the write cache was set and put back, and the purge method */
    if (get(wc, "set_by"))
        ROW("write cache set", html_printf(r, "by %s; before the run %s, after %s (%s)",
                                           result_str(wc, "set_by", "?"),
                                           result_str(get(wc, "before"), "state", "?"),
                                           result_str(get(wc, "after"), "state", "?"),
                                           cJSON_IsTrue(get(wc, "restored")) ? "restored" : "NOT restored"));
    if (get(p, "purge"))
        ROW("purge method", html_printf(r, "%s (%s)", result_str(get(p, "purge"), "methods", "none"),
                                        cJSON_IsTrue(get(get(p, "purge"), "device_command"))
                                            ? "the device's own erase"
                                            : "block layer, not a PTS purge"));
    if (get(p, "active_range_segments")) {
        const cJSON *sg = get(p, "active_range_segments");
        ROW("ActiveRange segments",
            html_printf(r, "%.0f of %.0f bytes (amount %.0f bytes), seed %s; %s",
                        result_num(sg, "segments", 0), result_num(sg, "segment_bytes", 0),
                        result_num(sg, "amount_bytes", 0), result_str(sg, "seed", "?"),
                        result_str(sg, "applies_to", "")));
    }
    ROW("data pattern", result_str(p, "data_pattern", "?"));
    const cJSON *tt;
    cJSON_ArrayForEach(tt, get(p, "tests")) {
        const char *id = result_str(tt, "id", "?");
        ROW(html_printf(r, "%s: purge", id), result_str(get(tt, "purge"), "statement", "?"));
        ROW(html_printf(r, "%s: preconditioning", id),
            cJSON_IsObject(get(tt, "wipc")) ? html_printf(r, "WIPC %s; WDPC: the test's rounds",
                                                          result_str(get(tt, "wipc"), "statement", "?"))
                                            : "none (from the purged state)");
        if (get(tt, "steady_state"))
            ROW(html_printf(r, "%s: SS rounds", id), result_str(get(tt, "steady_state"), "statement", "?"));
    }
    ROW("test dates", html_printf(r, "%s to %s", result_str(p, "started", "?"), result_str(p, "finished", "(not finished)")));
    const cJSON *nd = get(p, "tests_not_implemented");
    if (cJSON_GetArraySize(nd)) {
        char buf[256];
        size_t n = 0;
        buf[0] = 0;
        for (int k = 0; k < cJSON_GetArraySize(nd) && n < sizeof(buf); k++)
            n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s%s", k ? ", " : "", result_at_str(nd, k, "?"));
        ROW("not done", html_printf(r, "%s (not implemented)", buf));
    }
#undef ROW
}

/* SS marks on a chart of the tracking variable: window span, 90-110 %
 * band, 95/105 % lines, average, fit. */
static void ss_marks(struct html_chart *c, const cJSON *v, unsigned color)
{
    double wf = result_num(v, "window_first", 0), wl = result_num(v, "window_last", 0);
    double avg = result_num(v, "avg", 0);
    if (wl <= 0)
        return;
    const cJSON *fit = get(v, "fit");
    double s = result_num(fit, "slope", 0), b = result_num(fit, "intercept", 0);
    html_chart_mark(c, HTML_SVG_VSPAN, wf - 0.5, 0, wl + 0.5, 0, "measurement window", color, 0);
    html_chart_mark(c, HTML_SVG_HBAND, 0, avg * 0.9, 0, avg * 1.1, "90-110 % of the average", color, 0);
    html_chart_mark(c, HTML_SVG_HLINE, 0, avg, 0, 0, "average", color, 1);
    html_chart_mark(c, HTML_SVG_HLINE, 0, avg * 1.05, 0, 0, "105 %", color, 2);
    html_chart_mark(c, HTML_SVG_HLINE, 0, avg * 0.95, 0, 0, "95 %", color, 2);
    html_chart_mark(c, HTML_SVG_SEGMENT, wf, s * wf + b, wl, s * wl + b, "least-squares fit", color, 3);
}

static enum html_table_fmt mfmt(const char *key)
{
    return strstr(key, "_ns") ? HTML_TABLE_NS : !strcmp(key, "iops") ? HTML_TABLE_INT : HTML_TABLE_AUTO;
}

static void convergence(struct html_report *r, const char *id, const cJSON *t)
{
    const char *mk = metric_key(t);
    const cJSON *tr = get(t, "tracking");
    const cJSON *els = get(t, "elements");
    bool tp = !strcmp(result_str(t, "test", ""), "throughput");
    struct html_table *d = html_add_data_table(r, html_printf(r, "%s-rounds", id), html_printf(r, "%s: every element per round", id));
    if (!d)
        return;
    int cr = html_table_add_col(d, "round", NULL, HTML_TABLE_NUM, HTML_TABLE_INT);
    int ne = cJSON_GetArraySize(els);
    int col[64];
    for (int e = 0; e < ne && e < 64; e++)
        col[e] = html_table_add_col(d, result_str(cJSON_GetArrayItem(els, e), "name", "?"),
                                    result_str(t, "tracking_unit", NULL), HTML_TABLE_NUM, mfmt(mk));
    const cJSON *rd;
    cJSON_ArrayForEach(rd, get(t, "rounds")) {
        long w = html_table_add_row(d);
        if (w < 0)
            return;
        html_table_set(d, (size_t)w, cr, result_num(rd, "round", 0));
        const cJSON *ej;
        cJSON_ArrayForEach(ej, get(rd, "elements")) {
            int e = el_num(ej, -1);
            if (e >= 0 && e < ne && e < 64)
                html_table_set(d, (size_t)w, col[e], result_num(ej, mk, NAN));
        }
    }
    const char *unit = result_str(t, "tracking_unit", "");
    struct html_chart *c = html_chart(r, d, cr, html_printf(r, "%s: SS convergence", result_str(t, "title", "?")));
    if (c) {
        c->x = html_axis("round", HTML_SVG_LIN, HTML_SVG_FMT_PLAIN);
        c->x.min = 0.5;
        c->x.max = d->nrows + 0.5;
        c->x.tight = true;
        c->y = html_axis(html_printf(r, "%s (%s)", is_lat(t) ? "average latency" : unit, unit),
                         is_lat(t) ? HTML_SVG_LIN : HTML_SVG_LOG, is_lat(t) ? HTML_SVG_FMT_NS : HTML_SVG_FMT_NUM);
        c->note = "Per round: the tracking variables (solid) and every 100 % write element (dashed).";
        unsigned k = 0;
        for (int e = 0; e < ne && e < 64; e++) {
            bool track = false;
            for (int q = 0; q < cJSON_GetArraySize(tr); q++)
                track |= el_at(tr, q) == e;
            if (tp || track || result_num(cJSON_GetArrayItem(els, e), "read_pct", -1) == 0)
                html_chart_series(c, col[e], result_str(cJSON_GetArrayItem(els, e), "name", "?"), k++, track ? 0 : 1,
                                  HTML_SVG_LINE_MARKS);
        }
    }
    /* one window plot and determination table per tracking variable */
    const cJSON *ss = get(t, "steady_state");
    html_para(r, cJSON_IsTrue(get(ss, "reached")) ? "verdict pass" : "verdict fail", result_str(ss, "statement", "?"));
    struct html_table *dt = html_add_table(r, html_printf(r, "%s-ss", id), html_printf(r, "%s: steady-state determination", id));
    int c0 = html_table_add_col(dt, "tracking variable", NULL, HTML_TABLE_TEXT, HTML_TABLE_AUTO);
    int c1 = html_table_add_col(dt, "window", NULL, HTML_TABLE_TEXT, HTML_TABLE_AUTO);
    int c2 = html_table_add_col(dt, "average", unit, HTML_TABLE_NUM, mfmt(mk));
    int c3 = html_table_add_col(dt, "data excursion", unit, HTML_TABLE_NUM, mfmt(mk));
    int c4 = html_table_add_col(dt, "allowed (20 %)", unit, HTML_TABLE_NUM, mfmt(mk));
    int c5 = html_table_add_col(dt, "slope excursion", unit, HTML_TABLE_NUM, mfmt(mk));
    int c6 = html_table_add_col(dt, "allowed (10 %)", unit, HTML_TABLE_NUM, mfmt(mk));
    int c7 = html_table_add_col(dt, "fit slope", NULL, HTML_TABLE_NUM, HTML_TABLE_AUTO);
    int c8 = html_table_add_col(dt, "fit intercept", NULL, HTML_TABLE_NUM, HTML_TABLE_AUTO);
    const cJSON *v;
    unsigned k = 0;
    cJSON_ArrayForEach(v, get(ss, "variables")) {
        int e = el_num(v, 0);
        const char *en = result_str(cJSON_GetArrayItem(els, e), "name", "?");
        long w = html_table_add_row(dt);
        if (w >= 0) {
            html_table_set_text(dt, (size_t)w, c0, en);
            html_table_set_text(dt, (size_t)w, c1, html_printf(r, "rounds %.0f-%.0f", result_num(v, "window_first", 0),
                                                               result_num(v, "window_last", 0)));
            html_table_set(dt, (size_t)w, c2, result_num(v, "avg", NAN));
            html_table_set(dt, (size_t)w, c3, result_num(v, "range", NAN));
            html_table_set(dt, (size_t)w, c4, result_num(v, "range_allowed", NAN));
            html_table_set(dt, (size_t)w, c5, result_num(v, "slope_excursion", NAN));
            html_table_set(dt, (size_t)w, c6, result_num(v, "slope_allowed", NAN));
            html_table_set(dt, (size_t)w, c7, result_num(get(v, "fit"), "slope", NAN));
            html_table_set(dt, (size_t)w, c8, result_num(get(v, "fit"), "intercept", NAN));
        }
        if (e < 0 || e >= ne || e >= 64)
            continue;
        double wf = result_num(v, "window_first", 0), wl = result_num(v, "window_last", 0);
        struct html_table *wt = html_add_data_table(r, html_printf(r, "%s-window-%d", id, e),
                                                    html_printf(r, "%s: SS window of %s", id, en));
        if (!wt)
            return;
        int wr = html_table_add_col(wt, "round", NULL, HTML_TABLE_NUM, HTML_TABLE_INT);
        int wv = html_table_add_col(wt, en, unit, HTML_TABLE_NUM, mfmt(mk));
        for (size_t row = 0; row < d->nrows; row++) {
            double rn = html_table_get(d, row, cr);
            if (rn >= wf && rn <= wl) {
                long w2 = html_table_add_row(wt);
                if (w2 >= 0) {
                    html_table_set(wt, (size_t)w2, wr, rn);
                    html_table_set(wt, (size_t)w2, wv, html_table_get(d, row, col[e]));
                }
            }
        }
        struct html_chart *wc = html_chart(r, wt, wr, html_printf(r, "SS window: %s", en));
        if (wc) {
            wc->half = true;
            wc->x = html_axis("round", HTML_SVG_LIN, HTML_SVG_FMT_PLAIN);
            wc->x.min = wf - 0.5;
            wc->x.max = wl + 0.5;
            wc->x.tight = true;
            wc->y = html_axis(unit, HTML_SVG_LIN, is_lat(t) ? HTML_SVG_FMT_NS : HTML_SVG_FMT_NUM);
            html_chart_series(wc, wv, en, k, 0, HTML_SVG_LINE_MARKS);
            ss_marks(wc, v, k);
        }
        k++;
    }
    html_show_table(r, dt);
}

static void iops_surface(struct html_report *r, const char *id, const cJSON *t)
{
    static const int mixes[] = {100, 95, 65, 50, 35, 5, 0};
    const cJSON *els = get(t, "elements"), *tab = get(t, "table");
    struct html_table *h = html_add_table(r, html_printf(r, "%s-table", id),
                                          "IOPS: block size x R/W mix (average of the measurement window)");
    if (!h)
        return;
    h->heat = true;
    int cb = html_table_add_col(h, "block size", NULL, HTML_TABLE_TEXT, HTML_TABLE_AUTO);
    int cbs = html_table_add_col(h, "block size (bytes)", NULL, HTML_TABLE_NUM, HTML_TABLE_INT);
    h->cols[cbs].html_hidden = true;
    int cm[7];
    for (int m = 0; m < 7; m++)
        cm[m] = html_table_add_col(h, html_printf(r, "%d/%d", mixes[m], 100 - mixes[m]), "IOPS", HTML_TABLE_NUM, HTML_TABLE_INT);
    int ne = cJSON_GetArraySize(els);
    for (int e = 0; e < ne; e++) {
        const cJSON *el = cJSON_GetArrayItem(els, e);
        double bs = result_num(el, "block_size", 0);
        long w = html_table_row_for_text(h, cb, bs_text(r, bs));
        if (w < 0)
            return;
        html_table_set(h, (size_t)w, cbs, bs);
        for (int m = 0; m < 7; m++)
            if (result_num(el, "read_pct", -1) == mixes[m])
                html_table_set(h, (size_t)w, cm[m], result_num(cJSON_GetArrayItem(tab, e), "iops", NAN));
    }
    html_table_set_note(h, "Shaded by IOPS on a log scale: light blue the lowest, orange the highest.");
    html_show_table(r, h);
    /* 2D: IOPS vs block size, one series per mix */
    struct html_table *s = html_add_data_table(r, html_printf(r, "%s-2d", id), "IOPS vs block size");
    if (!s)
        return;
    int sx = html_table_add_col(s, "block size", "KiB", HTML_TABLE_NUM, HTML_TABLE_AUTO);
    int sm[7];
    for (int m = 0; m < 7; m++)
        sm[m] = html_table_add_col(s, html_printf(r, "%d/%d", mixes[m], 100 - mixes[m]), "IOPS", HTML_TABLE_NUM, HTML_TABLE_INT);
    for (size_t row = 0; row < h->nrows; row++) {
        long w = html_table_add_row(s);
        if (w < 0)
            return;
        html_table_set(s, (size_t)w, sx, html_table_get(h, row, cbs) / 1024.0);
        for (int m = 0; m < 7; m++)
            html_table_set(s, (size_t)w, sm[m], html_table_get(h, row, cm[m]));
    }
    html_table_sort(s, sx);
    struct html_chart *c = html_chart(r, s, sx, "IOPS vs block size, one line per R/W mix");
    if (c) {
        c->x = html_axis("block size (KiB)", HTML_SVG_LOG, HTML_SVG_FMT_PLAIN);
        c->y = html_axis("IOPS", HTML_SVG_LOG, HTML_SVG_FMT_NUM);
        for (int m = 0; m < 7; m++)
            html_chart_series(c, sm[m], html_printf(r, "%d/%d", mixes[m], 100 - mixes[m]), (unsigned)m, 0,
                              HTML_SVG_LINE_MARKS);
    }
}

static void element_table(struct html_report *r, const char *id, const cJSON *t, bool latency)
{
    const cJSON *els = get(t, "elements"), *row;
    struct html_table *h = html_add_table(r, html_printf(r, "%s-table", id),
                                          latency ? "Response times: window average, 5 nines and maximum over the window"
                                                  : "Throughput (average of the measurement window)");
    if (!h)
        return;
    int c0 = html_table_add_col(h, "element", NULL, HTML_TABLE_TEXT, HTML_TABLE_AUTO);
    int ca = -1, cp = -1, cm = -1, cb = -1;
    if (latency) {
        ca = html_table_add_col(h, "average", "ns", HTML_TABLE_NUM, HTML_TABLE_NS);
        cp = html_table_add_col(h, "99.999 %", "ns", HTML_TABLE_NUM, HTML_TABLE_NS);
        cm = html_table_add_col(h, "maximum", "ns", HTML_TABLE_NUM, HTML_TABLE_NS);
    } else {
        cb = html_table_add_col(h, "throughput", "MB/s", HTML_TABLE_NUM, HTML_TABLE_AUTO);
    }
    int ci = html_table_add_col(h, "IOPS", NULL, HTML_TABLE_NUM, HTML_TABLE_INT);
    struct html_lat_src src[16];
    size_t ns = 0;
    cJSON_ArrayForEach(row, get(t, "table")) {
        long w = html_table_add_row(h);
        if (w < 0)
            return;
        const char *en = result_str(cJSON_GetArrayItem(els, el_num(row, 0)), "name", "?");
        html_table_set_text(h, (size_t)w, c0, en);
        if (latency) {
            html_table_set(h, (size_t)w, ca, result_num(row, "lat_mean_ns", NAN));
            html_table_set(h, (size_t)w, cp, result_num(row, "p99999_ns", NAN));
            html_table_set(h, (size_t)w, cm, result_num(row, "lat_max_ns", NAN));
            const cJSON *wl = get(row, "window_latency_ns");
            if (wl && ns < 16) {
                src[ns] = (struct html_lat_src){wl, en, (unsigned)ns, 0};
                ns++;
            }
        } else {
            html_table_set(h, (size_t)w, cb, result_num(row, "mbps", NAN));
        }
        html_table_set(h, (size_t)w, ci, result_num(row, "iops", NAN));
    }
    html_show_table(r, h);
    struct html_chart *c = html_chart(r, h, c0, latency ? "Average and maximum response time per element"
                                                        : "Throughput per element");
    if (c) {
        c->x = html_axis("element", HTML_SVG_CAT, HTML_SVG_FMT_PLAIN);
        if (latency) {
            c->y = html_axis("response time", HTML_SVG_LOG, HTML_SVG_FMT_NS);
            html_chart_series(c, ca, "average", 0, 0, HTML_SVG_BARS);
            html_chart_series(c, cp, "99.999 %", 1, 0, HTML_SVG_BARS);
            html_chart_series(c, cm, "maximum", 2, 0, HTML_SVG_BARS);
        } else {
            c->y = html_axis("throughput (MB/s)", HTML_SVG_LIN, HTML_SVG_FMT_NUM);
            c->y.zero = true;
            html_chart_series(c, cb, "MB/s", 0, 0, HTML_SVG_BARS);
        }
    }
    if (latency && ns)
        html_latency_charts(r, html_printf(r, "%s-lat", id), "measurement window", src, ns);
}

static void wsat(struct html_report *r, const char *id, const cJSON *t)
{
    html_para(r, NULL, html_printf(r, "RND 4KiB writes at T%.0f/Q%.0f from the purged state: %.4g GB written (%.3g x the "
                                      "ActiveRange) in %.3g s, stopped by %s; final IOPS %.0f (last %.0f samples).",
                                   result_num(t, "threads", 0), result_num(t, "depth", 0),
                                   result_num(t, "bytes_written", 0) / 1e9, result_num(t, "capacity_writes", 0),
                                   result_num(t, "elapsed_s", 0), result_str(t, "stopped_by", "?"),
                                   result_num(t, "final_iops", 0), result_num(t, "final_samples", 0)));
    const cJSON *s = get(t, "samples");
    int it = result_field_index(s, "t_s"), ii = result_field_index(s, "iops"), ig = result_field_index(s, "tgbw_gb");
    struct html_table *d = html_add_data_table(r, html_printf(r, "%s-samples", id), "WSAT samples");
    if (!d || it < 0 || ii < 0 || ig < 0)
        return;
    int ct = html_table_add_col(d, "time", "s", HTML_TABLE_NUM, HTML_TABLE_AUTO);
    int ci = html_table_add_col(d, "IOPS", NULL, HTML_TABLE_NUM, HTML_TABLE_INT);
    int cg = html_table_add_col(d, "TGBW", "GB", HTML_TABLE_NUM, HTML_TABLE_AUTO);
    const cJSON *row;
    cJSON_ArrayForEach(row, get(s, "rows")) {
        long w = html_table_add_row(d);
        if (w < 0)
            return;
        html_table_set(d, (size_t)w, ct, result_at_num(row, it, NAN));
        html_table_set(d, (size_t)w, ci, result_at_num(row, ii, NAN));
        html_table_set(d, (size_t)w, cg, result_at_num(row, ig, NAN));
    }
    struct html_chart *c = html_chart(r, d, ct, "WSAT: IOPS vs time");
    if (c) {
        c->x = html_axis("time (s)", HTML_SVG_LIN, HTML_SVG_FMT_PLAIN);
        c->y = html_axis("IOPS", HTML_SVG_LIN, HTML_SVG_FMT_NUM);
        c->y.zero = true;
        html_chart_series(c, ci, "IOPS", 0, 0, HTML_SVG_LINE_MARKS);
    }
    c = html_chart(r, d, cg, "WSAT: IOPS vs total GB written");
    if (c) {
        c->x = html_axis("TGBW (GB)", HTML_SVG_LIN, HTML_SVG_FMT_NUM);
        c->y = html_axis("IOPS", HTML_SVG_LIN, HTML_SVG_FMT_NUM);
        c->y.zero = true;
        html_chart_series(c, ci, "IOPS", 1, 0, HTML_SVG_LINE_MARKS);
    }
}

int html_build_pts(struct html_report *r)
{
    bool multi = r->multi;
    for (size_t i = 0; i < r->nin && !r->oom; i++) {
        const cJSON *p = get(r->in[i].doc, "pts");
        if (!p)
            continue;
        r->multi = false;
        header(r, i, p);
        const cJSON *t;
        cJSON_ArrayForEach(t, get(p, "tests")) {
            const char *test = result_str(t, "test", "?");
            const char *id = html_printf(r, "pts-%zu-%s", i, result_str(t, "id", "?"));
            html_heading(r, HTML_H3, html_printf(r, "%s test%s%s", result_str(t, "title", "?"),
                                                 get(t, "block_size") ? ", SEQ " : "",
                                                 get(t, "block_size") ? bs_text(r, result_num(t, "block_size", 0)) : ""));
            html_para(r, NULL, html_printf(r, "Purge: %s. Preconditioning: %s. %s to %s.",
                                           result_str(get(t, "purge"), "statement", "?"),
                                           cJSON_IsObject(get(t, "wipc"))
                                               ? html_printf(r, "WIPC %s", result_str(get(t, "wipc"), "statement", "?"))
                                               : "none",
                                           result_str(t, "started", "?"), result_str(t, "finished", "?")));
            if (!strcmp(test, "wsat")) {
                wsat(r, id, t);
                continue;
            }
            if (!get(t, "steady_state"))
                continue;
            html_para(r, NULL, html_printf(r, "%d elements of %.3g s per round at T%.0f/Q%.0f; %.0f rounds run.",
                                           cJSON_GetArraySize(get(t, "elements")), result_num(t, "element_s", 0),
                                           result_num(t, "threads", 0), result_num(t, "depth", 0),
                                           result_num(t, "rounds_run", 0)));
            convergence(r, id, t);
            if (!strcmp(test, "iops"))
                iops_surface(r, id, t);
            else
                element_table(r, id, t, !strcmp(test, "latency"));
        }
    }
    r->multi = multi;
    return r->oom ? -ENOMEM : 0;
}
