/* html_pts.c - the report pages of a PTS result (the document's "pts"
 * object): the PTS header with the compliance statement, then per test the
 * SS convergence plot, an SS window plot per tracking variable (average,
 * 90-110 % band, 95/105 % lines, the fitted line), the determination data,
 * the test's table and plots: the IOPS surface as a heat table (block size x
 * R/W mix) and IOPS against block size per mix; throughput per element;
 * latency average / 5 nines / maximum and the window's histograms; WSAT IOPS
 * against time and against TGBW; HIR IOPS against time with the wait
 * states marked; XSR throughput and response times against time per access
 * group; CBW/DIRTH demand variation (IOPS per TC x QD), demand intensity
 * (ART against IOPS) and the Max/Mid/Min response-time histograms. Each
 * result with a "pts" object gets its own pages (PTS reports are per device). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "output/html_kinds.h"
#include "output/pts_fields.h"
#include "result/result_read.h"

static const char *bs_text(struct html_report *r, double bs)
{
    if (fmod(bs, 1024) != 0)
        return html_printf(r, "%gKiB", bs / 1024.0);
    return html_printf(r, "%.0fKiB", bs / 1024.0);
}

static bool is_lat(const cJSON *t)
{
    return !strcmp(pts_metric_key(t), "lat_mean_ns");
}

static void header(struct html_report *r, size_t i, const cJSON *p)
{
    const cJSON *doc = r->in[i].doc;
    html_heading(r, HTML_H2, html_printf(r, "SNIA PTS: %s", r->labels[i]));
    const cJSON *nc = result_get(p, "noncompliance");
    if (cJSON_IsTrue(result_get(p, "compliant"))) {
        html_para(r, "verdict pass", "Compliant as far as ssdbench can tell.");
    } else {
        char buf[2048];
        size_t n = (size_t)snprintf(buf, sizeof(buf), "NOT COMPLIANT: ");
        for (int k = 0; k < cJSON_GetArraySize(nc) && n < sizeof(buf); k++)
            n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s%s", k ? "; " : "", result_at_str(nc, k, "?"));
        if (!result_get(p, "compliant") && n < sizeof(buf))
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
    const cJSON *tg = cJSON_GetArrayItem(result_get(doc, "targets"), 0);
    ROW("device", result_str(tg, "path", "?"));
    ROW("capacity", html_printf(r, "%.4g GB (%.0f bytes)", result_num(tg, "size_bytes", 0) / 1e9,
                                result_num(tg, "size_bytes", 0)));
    /* whatever identity and health the target records */
    const cJSON *e;
    cJSON_ArrayForEach(e, result_get(tg, "device")) {
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
    const cJSON *h = result_get(doc, "host");
    ROW("platform", html_printf(r, "%s, %s %s; ssdbench %s, engine %s", result_str(h, "hostname", "?"),
                                result_str(h, "kernel", "?"), result_str(h, "arch", ""),
                                result_str(result_get(doc, "tool"), "version", "?"), result_str(p, "engine", "?")));
    ROW("ActiveRange", html_printf(r, "%g %% (%.0f bytes)", result_num(p, "active_range_pct", 0),
                                   result_num(p, "active_range_bytes", 0)));
    ROW("TC/QD", html_printf(r, "T%.0f/Q%.0f (latency T1/Q1)", result_num(p, "threads", 0), result_num(p, "depth", 0)));
    const cJSON *wc = result_get(p, "write_cache");
    ROW("write cache", html_printf(r, "%s (kernel: %s); preset asks for %s", result_str(wc, "state", "?"),
                                   result_str(wc, "kernel", "?"), result_str(wc, "required", "?")));
    /* how the write cache was set and put back, and the purge method */
    if (result_get(wc, "set_by"))
        ROW("write cache set", html_printf(r, "by %s; before the run %s, after %s (%s)",
                                           result_str(wc, "set_by", "?"),
                                           result_str(result_get(wc, "before"), "state", "?"),
                                           result_str(result_get(wc, "after"), "state", "?"),
                                           cJSON_IsTrue(result_get(wc, "restored")) ? "restored" : "NOT restored"));
    if (result_get(p, "purge"))
        ROW("purge method", html_printf(r, "%s (%s)", result_str(result_get(p, "purge"), "methods", "none"),
                                        cJSON_IsTrue(result_get(result_get(p, "purge"), "device_command"))
                                            ? "the device's own erase"
                                            : "block layer, not a PTS purge"));
    if (result_get(p, "active_range_segments")) {
        const cJSON *sg = result_get(p, "active_range_segments");
        ROW("ActiveRange segments",
            html_printf(r, "%.0f of %.0f bytes (amount %.0f bytes), seed %s; %s",
                        result_num(sg, "segments", 0), result_num(sg, "segment_bytes", 0),
                        result_num(sg, "amount_bytes", 0), result_str(sg, "seed", "?"),
                        result_str(sg, "applies_to", "")));
    }
    ROW("data pattern", result_str(p, "data_pattern", "?"));
    const cJSON *tt;
    cJSON_ArrayForEach(tt, result_get(p, "tests")) {
        const char *id = result_str(tt, "id", "?");
        ROW(html_printf(r, "%s: purge", id), result_str(result_get(tt, "purge"), "statement", "?"));
        ROW(html_printf(r, "%s: preconditioning", id),
            cJSON_IsObject(result_get(tt, "wipc")) ? html_printf(r, "WIPC %s; WDPC: the test's rounds",
                                                          result_str(result_get(tt, "wipc"), "statement", "?"))
                                            : "none (from the purged state)");
        const cJSON *pre = result_get(tt, "prewrite") ? result_get(tt, "prewrite") : result_get(tt, "precondition");
        if (result_get(pre, "steady_state"))
            ROW(html_printf(r, "%s: %s SS rounds", id, result_str(pre, "title", "?")),
                result_str(result_get(pre, "steady_state"), "statement", "?"));
        if (result_get(tt, "steady_state"))
            ROW(html_printf(r, "%s: SS rounds", id), result_str(result_get(tt, "steady_state"), "statement", "?"));
    }
    ROW("test dates", html_printf(r, "%s to %s", result_str(p, "started", "?"), result_str(p, "finished", "(not finished)")));
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
    const cJSON *fit = result_get(v, "fit");
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
    const char *mk = pts_metric_key(t);
    const cJSON *tr = result_get(t, "tracking");
    const cJSON *els = result_get(t, "elements");
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
    cJSON_ArrayForEach(rd, result_get(t, "rounds")) {
        long w = html_table_add_row(d);
        if (w < 0)
            return;
        html_table_set(d, (size_t)w, cr, result_num(rd, "round", 0));
        const cJSON *ej;
        cJSON_ArrayForEach(ej, result_get(rd, "elements")) {
            int e = pts_el_num(ej, -1);
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
                track |= pts_el_at(tr, q) == e;
            if (tp || track || result_num(cJSON_GetArrayItem(els, e), "read_pct", -1) == 0)
                html_chart_series(c, col[e], result_str(cJSON_GetArrayItem(els, e), "name", "?"), k++, track ? 0 : 1,
                                  HTML_SVG_LINE_MARKS);
        }
    }
    /* one window plot and determination table per tracking variable */
    const cJSON *ss = result_get(t, "steady_state");
    html_para(r, cJSON_IsTrue(result_get(ss, "reached")) ? "verdict pass" : "verdict fail", result_str(ss, "statement", "?"));
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
    cJSON_ArrayForEach(v, result_get(ss, "variables")) {
        int e = pts_el_num(v, 0);
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
            html_table_set(dt, (size_t)w, c7, result_num(result_get(v, "fit"), "slope", NAN));
            html_table_set(dt, (size_t)w, c8, result_num(result_get(v, "fit"), "intercept", NAN));
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
    const cJSON *els = result_get(t, "elements"), *tab = result_get(t, "table");
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
    const cJSON *els = result_get(t, "elements"), *row;
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
    cJSON_ArrayForEach(row, result_get(t, "table")) {
        long w = html_table_add_row(h);
        if (w < 0)
            return;
        const char *en = result_str(cJSON_GetArrayItem(els, pts_el_num(row, 0)), "name", "?");
        html_table_set_text(h, (size_t)w, c0, en);
        if (latency) {
            html_table_set(h, (size_t)w, ca, result_num(row, "lat_mean_ns", NAN));
            html_table_set(h, (size_t)w, cp, result_num(row, "p99999_ns", NAN));
            html_table_set(h, (size_t)w, cm, result_num(row, "lat_max_ns", NAN));
            const cJSON *wl = result_get(row, "window_latency_ns");
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
    const cJSON *s = result_get(t, "samples");
    int it = result_field_index(s, "t_s"), ii = result_field_index(s, "iops"), ig = result_field_index(s, "tgbw_gb");
    struct html_table *d = html_add_data_table(r, html_printf(r, "%s-samples", id), "WSAT samples");
    if (!d || it < 0 || ii < 0 || ig < 0)
        return;
    int ct = html_table_add_col(d, "time", "s", HTML_TABLE_NUM, HTML_TABLE_AUTO);
    int ci = html_table_add_col(d, "IOPS", NULL, HTML_TABLE_NUM, HTML_TABLE_INT);
    int cg = html_table_add_col(d, "TGBW", "GB", HTML_TABLE_NUM, HTML_TABLE_AUTO);
    const cJSON *row;
    cJSON_ArrayForEach(row, result_get(s, "rows")) {
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

static void hir_page(struct html_report *r, const char *id, const cJSON *t);
static void xsr_page(struct html_report *r, const char *id, const cJSON *t);
static void di_page(struct html_report *r, const char *id, const cJSON *t);

int html_build_pts(struct html_report *r)
{
    bool multi = r->multi;
    for (size_t i = 0; i < r->nin && !r->oom; i++) {
        const cJSON *p = result_get(r->in[i].doc, "pts");
        if (!p)
            continue;
        r->multi = false;
        header(r, i, p);
        const cJSON *t;
        cJSON_ArrayForEach(t, result_get(p, "tests")) {
            const char *test = result_str(t, "test", "?");
            const char *id = html_printf(r, "pts-%zu-%s", i, result_str(t, "id", "?"));
            html_heading(r, HTML_H3, html_printf(r, "%s test%s%s", result_str(t, "title", "?"),
                                                 result_get(t, "block_size") ? ", SEQ " : "",
                                                 result_get(t, "block_size") ? bs_text(r, result_num(t, "block_size", 0)) : ""));
            html_para(r, NULL, html_printf(r, "Purge: %s. Preconditioning: %s. %s to %s.",
                                           result_str(result_get(t, "purge"), "statement", "?"),
                                           cJSON_IsObject(result_get(t, "wipc"))
                                               ? html_printf(r, "WIPC %s", result_str(result_get(t, "wipc"), "statement", "?"))
                                               : "none",
                                           result_str(t, "started", "?"), result_str(t, "finished", "?")));
            if (!strcmp(test, "wsat")) {
                wsat(r, id, t);
                continue;
            }
            if (!strcmp(test, "hir")) {
                hir_page(r, id, t);
                continue;
            }
            if (!strcmp(test, "xsr")) {
                xsr_page(r, id, t);
                continue;
            }
            if (!strcmp(test, "cbw") || !strcmp(test, "dirth")) {
                di_page(r, id, t);
                continue;
            }
            if (!result_get(t, "steady_state"))
                continue;
            html_para(r, NULL, html_printf(r, "%d elements of %.3g s per round at T%.0f/Q%.0f; %.0f rounds run.",
                                           cJSON_GetArraySize(result_get(t, "elements")), result_num(t, "element_s", 0),
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

/* ---- HIR, XSR, CBW/DIRTH ------------------------------------------------- */

/* A rounds-to-steady-state object (HIR pre-writes, CBW/DIRTH preconditioning). */
static void ss_rounds(struct html_report *r, const char *id, const cJSON *o)
{
    if (!o)
        return;
    html_para(r, NULL, html_printf(r, "%s: %s, rounds of %.3g s until steady state; %.0f rounds run.",
                                   result_str(o, "title", "?"),
                                   result_str(cJSON_GetArrayItem(result_get(o, "elements"), 0), "name", "?"),
                                   result_num(o, "round_s", 0), result_num(o, "rounds_run", 0)));
    if (result_get(o, "steady_state"))
        convergence(r, id, o);
}

static void hir_page(struct html_report *r, const char *id, const cJSON *t)
{
    ss_rounds(r, html_printf(r, "%s-pre", id), result_get(t, "prewrite"));
    html_para(r, NULL, html_printf(r, "Wait states: bursts of %.3g s RND 4KiB 0/100 at T%.0f/Q%.0f, %.0f per wait "
                                      "state, each followed by its idle; after each wait state %.3g s of "
                                      "continuous writes (return to baseline).",
                                   result_num(t, "burst_s", 0), result_num(t, "threads", 0), result_num(t, "depth", 0),
                                   result_num(t, "reps", 0), result_num(t, "baseline_s", 0)));
    struct html_table *w = html_add_table(r, html_printf(r, "%s-waits", id), "HIR: wait states");
    if (!w)
        return;
    int c0 = html_table_add_col(w, "wait state", NULL, HTML_TABLE_NUM, HTML_TABLE_INT);
    int c1 = html_table_add_col(w, "idle", "s", HTML_TABLE_NUM, HTML_TABLE_AUTO);
    int c2 = html_table_add_col(w, "bursts", NULL, HTML_TABLE_NUM, HTML_TABLE_INT);
    int c3 = html_table_add_col(w, "burst IOPS (mean)", "IOPS", HTML_TABLE_NUM, HTML_TABLE_INT);
    int c4 = html_table_add_col(w, "baseline IOPS", "IOPS", HTML_TABLE_NUM, HTML_TABLE_INT);
    struct html_table *d = html_add_data_table(r, html_printf(r, "%s-time", id), "HIR: IOPS vs time");
    if (!d)
        return;
    int dt = html_table_add_col(d, "time", "min", HTML_TABLE_NUM, HTML_TABLE_AUTO);
    int db = html_table_add_col(d, "burst IOPS", "IOPS", HTML_TABLE_NUM, HTML_TABLE_INT);
    int dl = html_table_add_col(d, "baseline IOPS", "IOPS", HTML_TABLE_NUM, HTML_TABLE_INT);
    const cJSON *ws;
    cJSON_ArrayForEach(ws, result_get(t, "wait_states")) {
        long row = html_table_add_row(w);
        if (row < 0)
            return;
        html_table_set(w, (size_t)row, c0, result_num(ws, "wait_state", NAN));
        html_table_set(w, (size_t)row, c1, result_num(ws, "wait_s", NAN));
        html_table_set(w, (size_t)row, c2, cJSON_GetArraySize(result_get(ws, "bursts")));
        html_table_set(w, (size_t)row, c3, result_num(ws, "burst_iops_mean", NAN));
        html_table_set(w, (size_t)row, c4, result_num(result_get(result_get(ws, "baseline"), "figures"), "iops", NAN));
        const cJSON *b;
        cJSON_ArrayForEach(b, result_get(ws, "bursts")) {
            long k = html_table_add_row(d);
            if (k < 0)
                return;
            html_table_set(d, (size_t)k, dt, result_num(b, "t_s", NAN) / 60);
            html_table_set(d, (size_t)k, db, result_num(b, "iops", NAN));
            html_table_set(d, (size_t)k, dl, NAN);
        }
        const cJSON *s = result_get(result_get(ws, "baseline"), "samples"), *sr;
        int it = result_field_index(s, "t_s"), ii = result_field_index(s, "iops");
        cJSON_ArrayForEach(sr, result_get(s, "rows")) {
            long k = html_table_add_row(d);
            if (k < 0)
                return;
            html_table_set(d, (size_t)k, dt, result_at_num(sr, it, NAN) / 60);
            html_table_set(d, (size_t)k, db, NAN);
            html_table_set(d, (size_t)k, dl, result_at_num(sr, ii, NAN));
        }
    }
    html_show_table(r, w);
    struct html_chart *c = html_chart(r, d, dt, "HIR: IOPS vs time, wait states marked");
    if (!c)
        return;
    c->x = html_axis("time (min)", HTML_SVG_LIN, HTML_SVG_FMT_PLAIN);
    c->y = html_axis("IOPS", HTML_SVG_LIN, HTML_SVG_FMT_NUM);
    c->y.zero = true;
    c->note = "Bursts (markers) in the shaded wait-state segments; continuous baseline writes between them.";
    html_chart_series(c, db, "burst IOPS", 0, 0, HTML_SVG_MARKS);
    html_chart_series(c, dl, "baseline IOPS", 1, 0, HTML_SVG_LINE_MARKS);
    unsigned k = 2;
    cJSON_ArrayForEach(ws, result_get(t, "wait_states")) {
        double a = result_num(ws, "t_start_s", 0) / 60;
        double e = result_num(result_get(ws, "baseline"), "t_start_s", NAN) / 60;
        if (isnan(e))
            e = a;
        html_chart_mark(c, HTML_SVG_VSPAN, a, 0, e, 0,
                        html_printf(r, "wait state %.0f (%.3g s idle)", result_num(ws, "wait_state", 0),
                                    result_num(ws, "wait_s", 0)),
                        k++, 0);
    }
}

static void xsr_page(struct html_report *r, const char *id, const cJSON *t)
{
    const cJSON *rc = result_get(t, "recovery");
    if (rc)
        html_para(r, cJSON_IsTrue(result_get(rc, "recovered")) ? "verdict pass" : "verdict fail",
                  cJSON_IsTrue(result_get(rc, "recovered"))
                      ? html_printf(r, "Recovery time: %.4g s (%.4g min) until AG3 reached AG1's %.1f MB/s.",
                                    result_num(rc, "time_s", 0), result_num(rc, "time_s", 0) / 60,
                                    result_num(rc, "ag1_mbps", 0))
                      : html_printf(r, "Not recovered: AG3 never reached AG1's %.1f MB/s.",
                                    result_num(rc, "ag1_mbps", 0)));
    struct html_table *g = html_add_table(r, html_printf(r, "%s-groups", id), "XSR: access groups");
    struct html_table *d = html_add_data_table(r, html_printf(r, "%s-time", id), "XSR: samples");
    if (!g || !d)
        return;
    int g0 = html_table_add_col(g, "group", NULL, HTML_TABLE_TEXT, HTML_TABLE_AUTO);
    int g1 = html_table_add_col(g, "stimulus", NULL, HTML_TABLE_TEXT, HTML_TABLE_AUTO);
    int g2 = html_table_add_col(g, "time", "s", HTML_TABLE_NUM, HTML_TABLE_AUTO);
    int g3 = html_table_add_col(g, "TP", "MB/s", HTML_TABLE_NUM, HTML_TABLE_AUTO);
    int g4 = html_table_add_col(g, "IOPS", NULL, HTML_TABLE_NUM, HTML_TABLE_INT);
    int g5 = html_table_add_col(g, "ART", "ns", HTML_TABLE_NUM, HTML_TABLE_NS);
    int g6 = html_table_add_col(g, "MRT", "ns", HTML_TABLE_NUM, HTML_TABLE_NS);
    int dt = html_table_add_col(d, "time", "min", HTML_TABLE_NUM, HTML_TABLE_AUTO);
    int dm = html_table_add_col(d, "TP", "MB/s", HTML_TABLE_NUM, HTML_TABLE_AUTO);
    int da = html_table_add_col(d, "ART", "ns", HTML_TABLE_NUM, HTML_TABLE_NS);
    int dx = html_table_add_col(d, "MRT", "ns", HTML_TABLE_NUM, HTML_TABLE_NS);
    const cJSON *gj;
    cJSON_ArrayForEach(gj, result_get(t, "groups")) {
        long w = html_table_add_row(g);
        if (w < 0)
            return;
        const cJSON *fg = result_get(gj, "figures");
        html_table_set_text(g, (size_t)w, g0, result_str(gj, "group", "?"));
        html_table_set_text(g, (size_t)w, g1, html_printf(r, "%s %s 0/100", result_str(gj, "access", "?"),
                                                          bs_text(r, result_num(gj, "block_size", 0))));
        html_table_set(g, (size_t)w, g2, result_num(fg, "elapsed_s", NAN));
        html_table_set(g, (size_t)w, g3, result_num(fg, "mbps", NAN));
        html_table_set(g, (size_t)w, g4, result_num(fg, "iops", NAN));
        html_table_set(g, (size_t)w, g5, result_num(fg, "lat_mean_ns", NAN));
        html_table_set(g, (size_t)w, g6, result_num(fg, "lat_max_ns", NAN));
        const cJSON *s = result_get(gj, "samples"), *row;
        int it = result_field_index(s, "t_s"), im = result_field_index(s, "mbps"),
            il = result_field_index(s, "lat_mean_ns"), ix = result_field_index(s, "lat_max_ns");
        cJSON_ArrayForEach(row, result_get(s, "rows")) {
            long k = html_table_add_row(d);
            if (k < 0)
                return;
            html_table_set(d, (size_t)k, dt, result_at_num(row, it, NAN) / 60);
            html_table_set(d, (size_t)k, dm, result_at_num(row, im, NAN));
            html_table_set(d, (size_t)k, da, result_at_num(row, il, NAN));
            html_table_set(d, (size_t)k, dx, result_at_num(row, ix, NAN));
        }
    }
    html_show_table(r, g);
    for (int k = 0; k < 2; k++) {
        struct html_chart *c = html_chart(r, d, dt, k ? "XSR: ART and MRT vs time" : "XSR: throughput vs time");
        if (!c)
            return;
        c->x = html_axis("time (min)", HTML_SVG_LIN, HTML_SVG_FMT_PLAIN);
        if (k) {
            c->y = html_axis("response time", HTML_SVG_LOG, HTML_SVG_FMT_NS);
            html_chart_series(c, da, "ART", 0, 0, HTML_SVG_LINE_MARKS);
            html_chart_series(c, dx, "MRT", 1, 0, HTML_SVG_LINE_MARKS);
        } else {
            c->y = html_axis("throughput (MB/s)", HTML_SVG_LIN, HTML_SVG_FMT_NUM);
            c->y.zero = true;
            html_chart_series(c, dm, "MB/s", 0, 0, HTML_SVG_LINE_MARKS);
        }
        unsigned col = 2;
        cJSON_ArrayForEach(gj, result_get(t, "groups")) {
            double a = result_num(gj, "t_start_s", 0) / 60;
            double e = a + result_num(result_get(gj, "figures"), "elapsed_s", 0) / 60;
            html_chart_mark(c, HTML_SVG_VSPAN, a, 0, e, 0, result_str(gj, "group", "?"), col++, 0);
        }
    }
}

/* The stimulus a DI test ran: the CBW composite or one block size. */
static void di_stimulus(struct html_report *r, const cJSON *st)
{
    if (cJSON_IsTrue(result_get(st, "composite")))
        html_para(r, NULL, html_printf(r, "Stimulus: the CBW composite (%d block sizes, %d access zones), R/W %.0f/%.0f.",
                                       cJSON_GetArraySize(result_get(st, "block_sizes")), cJSON_GetArraySize(result_get(st, "zones")),
                                       result_num(st, "read_pct", 0), 100 - result_num(st, "read_pct", 0)));
    else
        html_para(r, NULL, html_printf(r, "Stimulus: RND %s, R/W %.0f/%.0f.", bs_text(r, result_num(st, "block_size", 0)),
                                       result_num(st, "read_pct", 0), 100 - result_num(st, "read_pct", 0)));
}

/* The between-round pre-writes: a table and its chart. False when out of
 * memory (the page stops there). */
static bool di_prewrites(struct html_report *r, const char *id, const cJSON *t)
{
    html_para(r, NULL, html_printf(r, "Demand variation: each round a %.3g s pre-write at the largest TC/QD, then "
                                      "%d TC x QD points of %.3g s; %.0f rounds run.",
                                   result_num(t, "round_prewrite_s", 0), cJSON_GetArraySize(result_get(t, "elements")),
                                   result_num(t, "element_s", 0), result_num(t, "rounds_run", 0)));
    struct html_table *pw = html_add_data_table(r, html_printf(r, "%s-prewrites", id), "Between-round pre-writes");
    if (!pw)
        return false;
    int pr = html_table_add_col(pw, "round", NULL, HTML_TABLE_NUM, HTML_TABLE_INT);
    int pi = html_table_add_col(pw, "pre-write IOPS", "IOPS", HTML_TABLE_NUM, HTML_TABLE_INT);
    const cJSON *rd;
    cJSON_ArrayForEach(rd, result_get(t, "rounds")) {
        long w = html_table_add_row(pw);
        if (w < 0)
            return false;
        html_table_set(pw, (size_t)w, pr, result_num(rd, "round", NAN));
        html_table_set(pw, (size_t)w, pi, result_num(result_get(rd, "prewrite"), "iops", NAN));
    }
    struct html_chart *pc = html_chart(r, pw, pr, "Between-round pre-writes: IOPS per round");
    if (pc) {
        pc->half = true;
        pc->x = html_axis("round", HTML_SVG_LIN, HTML_SVG_FMT_PLAIN);
        pc->y = html_axis("IOPS", HTML_SVG_LIN, HTML_SVG_FMT_NUM);
        pc->y.zero = true;
        html_chart_series(pc, pi, "pre-write IOPS", 0, 0, HTML_SVG_LINE_MARKS);
    }
    return true;
}

/* A DI test's TC x QD grid: its thread counts, queue depths, elements
 * (one per TC/QD point) and their window averages (table). */
struct di_grid {
    const cJSON *tcs, *qds, *els, *tab;
    int ntc, nqd, ne;
};

/* The grid tables (IOPS, ART): TC rows, QD columns. */
static bool di_grid_tables(struct html_report *r, const char *id, const struct di_grid *gr)
{
    const cJSON *tcs = gr->tcs, *qds = gr->qds, *els = gr->els, *tab = gr->tab;
    int ntc = gr->ntc, nqd = gr->nqd, ne = gr->ne;
    for (int k = 0; k < 2; k++) {
        const char *key = k ? "lat_mean_ns" : "iops";
        struct html_table *h = html_add_table(r, html_printf(r, "%s-%s", id, k ? "art" : "iops"),
                                              k ? "Average response time: TC x QD (window average)"
                                                : "IOPS: TC x QD (window average)");
        if (!h)
            return false;
        h->heat = !k;
        int c0 = html_table_add_col(h, "TC", NULL, HTML_TABLE_NUM, HTML_TABLE_INT);
        int cq[16];
        for (int q = 0; q < nqd; q++)
            cq[q] = html_table_add_col(h, html_printf(r, "QD %.0f", result_at_num(qds, q, 0)), k ? "ns" : "IOPS",
                                       HTML_TABLE_NUM, k ? HTML_TABLE_NS : HTML_TABLE_INT);
        for (int a = 0; a < ntc; a++) {
            long w = html_table_add_row(h);
            if (w < 0)
                return false;
            html_table_set(h, (size_t)w, c0, result_at_num(tcs, a, 0));
            for (int q = 0; q < nqd; q++)
                html_table_set(h, (size_t)w, cq[q], NAN);
            for (int e = 0; e < ne; e++) {
                const cJSON *el = cJSON_GetArrayItem(els, e);
                for (int q = 0; q < nqd; q++)
                    if (result_num(el, "threads", 0) == result_at_num(tcs, a, 0) &&
                        result_num(el, "depth", 0) == result_at_num(qds, q, 0))
                        html_table_set(h, (size_t)w, cq[q], result_num(cJSON_GetArrayItem(tab, e), key, NAN));
            }
        }
        html_show_table(r, h);
    }
    return true;
}

/* Demand variation (IOPS vs QD per TC), demand intensity (ART vs IOPS per
 * TC) and IOPS vs outstanding I/O: two data tables and three charts. */
static bool di_demand(struct html_report *r, const char *id, const cJSON *t, const struct di_grid *gr)
{
    const cJSON *st = result_get(t, "stimulus"), *tcs = gr->tcs, *qds = gr->qds, *els = gr->els, *tab = gr->tab;
    int ntc = gr->ntc, nqd = gr->nqd, ne = gr->ne;
    struct html_table *dv = html_add_data_table(r, html_printf(r, "%s-dv", id), "Demand variation");
    struct html_table *di = html_add_data_table(r, html_printf(r, "%s-di", id), "Demand intensity");
    if (!dv || !di)
        return false;
    int vx = html_table_add_col(dv, "QD", NULL, HTML_TABLE_NUM, HTML_TABLE_INT);
    int ix = html_table_add_col(di, "IOPS", NULL, HTML_TABLE_NUM, HTML_TABLE_INT);
    int io = html_table_add_col(di, "total OIO", NULL, HTML_TABLE_NUM, HTML_TABLE_INT);
    int iy = html_table_add_col(di, "IOPS (all points)", "IOPS", HTML_TABLE_NUM, HTML_TABLE_INT);
    int is = html_table_add_col(di, "ART of the Max/Mid/Min points", "ns", HTML_TABLE_NUM, HTML_TABLE_NS);
    int vc[16], ic[16];
    for (int a = 0; a < ntc; a++) {
        vc[a] = html_table_add_col(dv, html_printf(r, "TC %.0f", result_at_num(tcs, a, 0)), "IOPS", HTML_TABLE_NUM,
                                   HTML_TABLE_INT);
        ic[a] = html_table_add_col(di, html_printf(r, "ART TC %.0f", result_at_num(tcs, a, 0)), "ns", HTML_TABLE_NUM,
                                   HTML_TABLE_NS);
    }
    for (int q = 0; q < nqd; q++) {
        long w = html_table_add_row(dv);
        if (w < 0)
            return false;
        html_table_set(dv, (size_t)w, vx, result_at_num(qds, q, 0));
        for (int a = 0; a < ntc; a++)
            html_table_set(dv, (size_t)w, vc[a], NAN);
    }
    for (int e = 0; e < ne; e++) {
        const cJSON *el = cJSON_GetArrayItem(els, e), *row = cJSON_GetArrayItem(tab, e);
        long w = html_table_add_row(di);
        if (w < 0)
            return false;
        html_table_set(di, (size_t)w, ix, result_num(row, "iops", NAN));
        html_table_set(di, (size_t)w, io, result_num(el, "threads", 0) * result_num(el, "depth", 0));
        html_table_set(di, (size_t)w, iy, result_num(row, "iops", NAN));
        html_table_set(di, (size_t)w, is, NAN);
        const cJSON *pt;
        cJSON_ArrayForEach(pt, result_get(t, "points"))
            if (pts_el_num(pt, -1) == e)
                html_table_set(di, (size_t)w, is, result_num(row, "lat_mean_ns", NAN));
        for (int a = 0; a < ntc; a++) {
            bool mine = result_num(el, "threads", 0) == result_at_num(tcs, a, 0);
            html_table_set(di, (size_t)w, ic[a], mine ? result_num(row, "lat_mean_ns", NAN) : NAN);
            for (int q = 0; q < nqd && mine; q++)
                if (result_num(el, "depth", 0) == result_at_num(qds, q, 0))
                    html_table_set(dv, (size_t)q, vc[a], result_num(row, "iops", NAN));
        }
    }
    html_table_sort(dv, vx);
    html_table_sort(di, ix);
    struct html_chart *c = html_chart(r, dv, vx, "Demand variation: IOPS vs QD, one line per TC");
    if (c) {
        c->x = html_axis("QD", HTML_SVG_LOG, HTML_SVG_FMT_PLAIN);
        c->y = html_axis("IOPS", HTML_SVG_LIN, HTML_SVG_FMT_NUM);
        c->y.zero = true;
        for (int a = 0; a < ntc; a++)
            html_chart_series(c, vc[a], html_printf(r, "TC %.0f", result_at_num(tcs, a, 0)), (unsigned)a, 0,
                              HTML_SVG_LINE_MARKS);
    }
    c = html_chart(r, di, ix, "Demand intensity: average response time vs IOPS, one colour per TC");
    if (c) {
        c->x = html_axis("IOPS", HTML_SVG_LIN, HTML_SVG_FMT_NUM);
        c->y = html_axis("average response time", HTML_SVG_LIN, HTML_SVG_FMT_NS);
        c->y.zero = true;
        for (int a = 0; a < ntc; a++)
            html_chart_series(c, ic[a], html_printf(r, "TC %.0f", result_at_num(tcs, a, 0)), (unsigned)a, 0,
                              HTML_SVG_MARKS);
        html_chart_series(c, is, "MaxIOPS, MidIOPS, MinIOPS", 7, 0, HTML_SVG_MARKS);
        html_chart_mark(c, HTML_SVG_HLINE, 0, result_num(st, "art_limit_ns", 5e6), 0, 0, "MaxIOPS ART limit", 7, 1);
    }
    c = html_chart(r, di, io, "IOPS vs total outstanding I/O (TC x QD)");
    if (c) {
        c->x = html_axis("total OIO", HTML_SVG_LOG, HTML_SVG_FMT_PLAIN);
        c->y = html_axis("IOPS", HTML_SVG_LIN, HTML_SVG_FMT_NUM);
        c->y.zero = true;
        html_chart_series(c, iy, "IOPS", 0, 0, HTML_SVG_MARKS);
    }
    return true;
}

/* The Max / Mid / Min points: a table (pre-write, then the histogram
 * capture) and their latency histograms. */
static void di_points(struct html_report *r, const char *id, const cJSON *t)
{
    struct html_table *p = html_add_table(r, html_printf(r, "%s-points", id),
                                          "Demand-intensity points: pre-write, then the histogram capture");
    if (!p)
        return;
    int p0 = html_table_add_col(p, "point", NULL, HTML_TABLE_TEXT, HTML_TABLE_AUTO);
    int p1 = html_table_add_col(p, "TC/QD", NULL, HTML_TABLE_TEXT, HTML_TABLE_AUTO);
    int p2 = html_table_add_col(p, "DV IOPS", NULL, HTML_TABLE_NUM, HTML_TABLE_INT);
    int p3 = html_table_add_col(p, "pre-write IOPS", NULL, HTML_TABLE_NUM, HTML_TABLE_INT);
    int p4 = html_table_add_col(p, "capture IOPS", NULL, HTML_TABLE_NUM, HTML_TABLE_INT);
    int p5 = html_table_add_col(p, "ART", "ns", HTML_TABLE_NUM, HTML_TABLE_NS);
    int p6 = html_table_add_col(p, "99.999 %", "ns", HTML_TABLE_NUM, HTML_TABLE_NS);
    int p7 = html_table_add_col(p, "maximum", "ns", HTML_TABLE_NUM, HTML_TABLE_NS);
    struct html_lat_src src[3];
    size_t ns = 0;
    const cJSON *pt;
    cJSON_ArrayForEach(pt, result_get(t, "points")) {
        long w = html_table_add_row(p);
        if (w < 0)
            return;
        const cJSON *cap = result_get(pt, "capture"), *l = result_get(cap, "latency_ns");
        const char *nm = html_printf(r, "%sIOPS T%.0f/Q%.0f", result_str(pt, "point", "?"), result_num(pt, "threads", 0),
                                     result_num(pt, "depth", 0));
        html_table_set_text(p, (size_t)w, p0, html_printf(r, "%sIOPS", result_str(pt, "point", "?")));
        html_table_set_text(p, (size_t)w, p1, html_printf(r, "T%.0f/Q%.0f", result_num(pt, "threads", 0),
                                                          result_num(pt, "depth", 0)));
        html_table_set(p, (size_t)w, p2, result_num(pt, "iops", NAN));
        html_table_set(p, (size_t)w, p3, result_num(result_get(pt, "prewrite"), "iops", NAN));
        html_table_set(p, (size_t)w, p4, result_num(cap, "iops", NAN));
        html_table_set(p, (size_t)w, p5, result_num(cap, "lat_mean_ns", NAN));
        html_table_set(p, (size_t)w, p6, result_num(result_get(l, "percentiles"), "99.999", NAN));
        html_table_set(p, (size_t)w, p7, result_num(l, "max", NAN));
        if (l && ns < 3) {
            src[ns] = (struct html_lat_src){l, nm, (unsigned)ns, 0};
            ns++;
        }
    }
    html_show_table(r, p);
    if (ns)
        html_latency_charts(r, html_printf(r, "%s-hist", id), "Max/Mid/Min capture", src, ns);
}

static void di_page(struct html_report *r, const char *id, const cJSON *t)
{
    const cJSON *st = result_get(t, "stimulus");
    di_stimulus(r, st);
    ss_rounds(r, html_printf(r, "%s-pre", id), result_get(t, "precondition"));
    if (!result_get(t, "steady_state") || !di_prewrites(r, id, t))
        return;
    convergence(r, id, t);
    const cJSON *g = result_get(st, "grid");
    struct di_grid gr = {.tcs = result_get(g, "threads"), .qds = result_get(g, "depths"),
                         .els = result_get(t, "elements"), .tab = result_get(t, "table")};
    gr.ntc = cJSON_GetArraySize(gr.tcs);
    gr.nqd = cJSON_GetArraySize(gr.qds);
    gr.ne = cJSON_GetArraySize(gr.els);
    if (gr.ntc > 16 || gr.nqd > 16)
        return;
    if (di_grid_tables(r, id, &gr) && di_demand(r, id, t, &gr))
        di_points(r, id, t);
}
