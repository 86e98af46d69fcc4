/* html_act.c - report sections for ACT runs (docs/act.md): a summary of
 * every load as published ACT results print it (drive, size, load, OP,
 * the worst slice's % over 1/8/64 ms as "total / device only", date,
 * result: the text summary's figures), the "> 1 ms / > 8 ms / > 64 ms,
 * trans / device" table coloured against the certification limits, then per load the
 * verdict, the per-slice "% of reads over 1, 2, 4 ... 64 ms" table with the
 * 1/8/64 ms columns coloured, its chart with the limits drawn in, and the
 * latency percentile curves of the small reads.
 *
 * Percentages come from each slice's stored histogram (hist_frac_ge, exact
 * at 2^k ms); the verdicts are the ones the run filed, never re-judged. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "output/html_kinds.h"
#include "result/result_read.h"
#include "result/result_schema.h"
#include "base/round.h"

#define NTHR 7                              /* 1, 2, 4 ... 64 ms */
static const double limit_ms[3] = {1, 8, 64};
static const double limit_pct[3] = {5, 1, 0.1};

static const cJSON *html_act_loads(const struct html_report *r, size_t i)
{
    return cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(r->in[i].doc, "act"), "loads");
}

static const char *load_name(struct html_report *r, const cJSON *load)
{
    double l = result_num(load, "load", NAN);
    return isnan(l) ? result_str(load, "phase", "config") : html_printf(r, "%gx", l);
}

/* % of a slice histogram's samples >= ms: the figure the run filed when it
 * has one (1, 8, 64 ms), else from the stored histogram; NaN when absent. */
static double pct_over(const cJSON *lat, double ms)
{
    char err[128], key[16];
    snprintf(key, sizeof(key), "%g", ms);
    const cJSON *filed = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(lat, "pct_over_ms"), key);
    if (cJSON_IsNumber(filed))
        return filed->valuedouble;
    struct hist *h = html_hist(lat, err, sizeof(err));
    if (!h)
        return lat ? 0 : NAN;
    double v = 100.0 * hist_frac_ge(h, (uint64_t)(ms * 1e6));
    free(h);
    return v;
}

static int limit_index(double ms)
{
    for (int k = 0; k < 3; k++)
        if (ms == limit_ms[k])
            return k;
    return -1;
}

static const char *verdict_class(const char *status, bool passed)
{
    if (!strcasecmp(status, "pass"))
        return "verdict pass";
    if (!strcasecmp(status, "fail"))
        return "verdict fail";
    return passed ? "verdict warn" : "verdict fail";
}

/* One load of one result: verdict, slice table, chart, latency curves. */
/* The histograms a slice table shows, and their column labels. */
static const char *const hist_name[2] = {"reads_transaction", "reads"};
static const char *const hist_label[2] = {"trans", "device"};

/* The load's paragraphs: rates and settings, the verdict, the worst hour,
 * a max-lag stop. */
static void act_load_text(struct html_report *r, const cJSON *load, const cJSON *act)
{
    const cJSON *dv = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(act, "devices"), 0);
    int ndev = cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(act, "devices"));
    const cJSON *d = cJSON_GetObjectItemCaseSensitive(load, "derived");
    char rd[32], wr[32], lg[32], qd[32];
    html_table_thousands(rd, sizeof(rd), result_num(load, "read_reqs_per_sec", 0), 0);
    html_table_thousands(wr, sizeof(wr), result_num(load, "write_reqs_per_sec", 0), 0);
    html_table_thousands(lg, sizeof(lg), result_num(load, "logged_s", 0), 0);
    html_table_thousands(qd, sizeof(qd), result_num(d, "max_queue_depth", 0), 0);
    html_para(r, NULL, html_printf(r, "%s small reads/s and %s client writes/s on %d device%s (%s%s): %.2f "
                                    "large-block reads/s and %.2f large-block writes/s; %s s logged, %s mode, "
                                    "queue depth at most %s; stopped by %s.",
                                 rd, wr, ndev, ndev == 1 ? "" : "s", result_str(dv, "name", "?"), ndev > 1 ? ", ..." : "",
                                 result_num(d, "large_block_reads_per_sec", 0),
                                 result_num(d, "large_block_writes_per_sec", 0), lg,
                                 result_str(act, "mode", "?"), qd, result_str(load, "stopped_by", "?")));
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(load, "verdict");
    const char *status = result_sstr(v, "act.loads[].verdict.status");
    bool passed = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(load, "passed"));
    const char *vtext = !strcasecmp(status, "pass")   ? "PASS"
                        : !strcasecmp(status, "fail") ? "FAIL"
                        : !strcasecmp(status, "incomplete") ? "INCOMPLETE"
                                                            : "no certification verdict";
    html_para(r, verdict_class(status, passed),
             html_printf(r, "Verdict: %s%s%s.%s", vtext, *result_sstr(v, "act.loads[].verdict.reason") ? ": " : "",
                        result_sstr(v, "act.loads[].verdict.reason"),
                        strcasecmp(status, "pass") && strcasecmp(status, "fail")
                            ? (passed ? " Every slice stays below the limits (screening)."
                                      : " A slice reached a limit, or the load stopped early.")
                            : ""));
    if (result_snum(v, "act.loads[].verdict.hours") > 0) {
        const cJSON *w = cJSON_GetObjectItemCaseSensitive(v, "worst_hour_pct_over_ms");
        html_para(r, "note", html_printf(r, "Judged on the %s histogram over %g one-hour slices; worst hour %g: "
                                          "%.2f %% >= 1 ms, %.2f %% >= 8 ms, %.2f %% >= 64 ms (limits 5, 1, 0.1 %%).",
                                       result_sstr(v, "act.loads[].verdict.histogram"), result_snum(v, "act.loads[].verdict.hours"),
                                       result_snum(v, "act.loads[].verdict.worst_hour"), result_snum(w, "act.loads[].verdict.worst_hour_pct_over_ms.1"), result_snum(w, "act.loads[].verdict.worst_hour_pct_over_ms.8"),
                                       result_snum(w, "act.loads[].verdict.worst_hour_pct_over_ms.64")));
    }
    if (!strcmp(result_str(load, "stopped_by", ""), "max-lag"))
        html_para(r, "warn", html_printf(r, "%s", result_str(load, "stop_message", "the load could not keep up")));
}

/* The slice table: transaction then device, every threshold, with ACT's
 * avg and max rows; shown. cols gets the threshold columns, *nsl the slice
 * rows. Returns NULL when the report ran out of room (stop there). */
static struct html_table *act_slice_table(struct html_report *r, const char *id, const char *who, const char *ln,
                                          const cJSON *slices, int cols[2][NTHR], size_t *nslp)
{
    struct html_table *t = html_add_table(r, html_printf(r, "%s-slices", id),
                               html_printf(r, "%s%s: %% of small reads at or over each latency, per slice", who, ln));
    if (!t)
        return NULL;
    int cs = html_table_add_col(t, "slice", NULL, HTML_TABLE_TEXT, HTML_TABLE_AUTO);
    int ce = html_table_add_col(t, "end", "s", HTML_TABLE_NUM, HTML_TABLE_INT);
    for (int h = 0; h < 2; h++)
        for (int k = 0; k < NTHR; k++) {
            cols[h][k] = html_table_add_col(t, html_printf(r, "%s >= %d ms", hist_label[h], 1 << k), "%", HTML_TABLE_NUM, HTML_TABLE_FIXED);
            html_table_set_group(t, cols[h][k], html_printf(r, "%s: %% of reads >= ms", hist_label[h]),
                           html_printf(r, "%d", 1 << k));
            int li = limit_index(1 << k);
            if (li >= 0)
                html_table_set_limit(t, cols[h][k], limit_pct[li]);
        }
    const cJSON *sl;
    cJSON_ArrayForEach(sl, slices) {
        long w = html_table_add_row(t);
        if (w < 0)
            return NULL;
        html_table_set_text(t, (size_t)w, cs, html_printf(r, "%g", result_num(sl, "slice", 0)));
        html_table_set(t, (size_t)w, ce, result_num(sl, "end_s", NAN));
        const cJSON *hs = cJSON_GetObjectItemCaseSensitive(sl, "histograms");
        for (int h = 0; h < 2; h++) {
            const cJSON *lat = cJSON_GetObjectItemCaseSensitive(hs, hist_name[h]);
            for (int k = 0; k < NTHR; k++)
                html_table_set(t, (size_t)w, cols[h][k], pct_over(lat, 1 << k));
        }
    }
    size_t nsl = t->nrows;
    /* ACT's closing rows, as html_act_latency.py makes them: the unweighted mean
     * and the maximum of the slice figures rounded to 0.01 */
    long ra = html_table_add_row(t), rm = html_table_add_row(t);
    if (ra < 0 || rm < 0)
        return NULL;
    html_table_set_text(t, (size_t)ra, cs, "avg");
    html_table_set_text(t, (size_t)rm, cs, "max");
    for (int h = 0; h < 2; h++)
        for (int k = 0; k < NTHR; k++) {
            double sum = 0, mx = NAN;
            size_t n = 0;
            for (size_t row = 0; row < nsl; row++) {
                double x = html_table_get(t, row, cols[h][k]);
                if (isnan(x))
                    continue;
                x = round_decimal(x, 2);
                sum += x;
                n++;
                if (isnan(mx) || x > mx)
                    mx = x;
            }
            html_table_set(t, (size_t)ra, cols[h][k], n ? sum / (double)n : NAN);
            html_table_set(t, (size_t)rm, cols[h][k], mx);
        }
    html_table_set_note(t, "trans: from the scheduled start of each read (queueing and lateness count, as older ACT's "
                     "trans); device: around the I/O (ACT 6's reads). Limits in the worst hour: below 5 % at 1 ms, "
                     "1 % at 8 ms, 0.1 % at 64 ms; cells turn amber at half a limit and red at the limit.");
    html_show_table(r, t);
    *nslp = nsl;
    return t;
}

/* The chart: the three judged thresholds per slice (the first nsl rows of
 * the slice table t) with their limits. */
static void act_slice_chart(struct html_report *r, const char *id, const char *who, const char *ln,
                            const struct html_table *t, int cols[2][NTHR], size_t nsl)
{
    struct html_table *ct = html_add_data_table(r, html_printf(r, "%s-chart", id), html_printf(r, "%s%s: judged thresholds", who, ln));
    if (!ct)
        return;
    html_table_add_col(ct, "slice", NULL, HTML_TABLE_NUM, HTML_TABLE_INT);
    int cc[2][3];
    for (int h = 0; h < 2; h++)
        for (int k = 0; k < 3; k++)
            cc[h][k] = html_table_add_col(ct, html_printf(r, "%s >= %g ms", hist_label[h], limit_ms[k]), "%", HTML_TABLE_NUM,
                                    HTML_TABLE_FIXED);
    for (size_t row = 0; row < nsl; row++) {
        long w = html_table_add_row(ct);
        if (w < 0)
            return;
        html_table_set(ct, (size_t)w, 0, (double)row + 1);
        for (int h = 0; h < 2; h++)
            for (int k = 0; k < 3; k++)
                html_table_set(ct, (size_t)w, cc[h][k], html_table_get(t, row, cols[h][k == 0 ? 0 : k == 1 ? 3 : 6]));
    }
    struct html_chart *c = html_chart(r, ct, 0, html_printf(r, "%s%s: %% of reads over 1, 8 and 64 ms per slice", who, ln));
    if (c) {
        c->x = html_axis("slice", HTML_SVG_LIN, HTML_SVG_FMT_PLAIN);
        c->x.min = 0.5;
        c->x.max = (double)nsl + 0.5;
        c->x.tight = true;
        c->y = html_axis("% of reads", HTML_SVG_LIN, HTML_SVG_FMT_PCT);
        c->note = "Solid: transaction latency; dashed: device latency. Thin lines: the limits (5 % at 1 ms, 1 % at "
                  "8 ms, 0.1 % at 64 ms), in the colour of their threshold.";
        for (int k = 0; k < 3; k++) {
            for (int h = 0; h < 2; h++)
                html_chart_series(c, cc[h][k], html_printf(r, "%s >= %g ms", hist_label[h], limit_ms[k]), (unsigned)k,
                                 h ? 1 : 0, nsl <= 48 ? HTML_SVG_LINE_MARKS : HTML_SVG_LINE);
            html_chart_mark(c, HTML_SVG_HLINE, 0, limit_pct[k], 0, 0, html_printf(r, "limit %g %%", limit_pct[k]), (unsigned)k,
                           2);
        }
    }
}

static void html_act_load_section(struct html_report *r, size_t i, const cJSON *load, const cJSON *act)
{
    const char *ln = load_name(r, load);
    const char *who = r->multi ? html_printf(r, "%s, ", r->labels[i]) : "";
    html_heading(r, HTML_H3, html_printf(r, "%sload %s", who, ln));
    act_load_text(r, load, act);

    /* the slice table: transaction then device, every threshold */
    const cJSON *slices = cJSON_GetObjectItemCaseSensitive(load, "slices");
    if (!cJSON_GetArraySize(slices)) {
        html_para(r, "note", "No complete slice was recorded.");
        return;
    }
    const char *id = html_printf(r, "act-%s%s%s", r->multi ? r->labels[i] : "", r->multi ? "-" : "", ln);
    int cols[2][NTHR];
    size_t nsl = 0;
    const struct html_table *t = act_slice_table(r, id, who, ln, slices, cols, &nsl);
    if (!t)
        return;
    act_slice_chart(r, id, who, ln, t, cols, nsl);
}

/* Latency curves of the small reads, one per load (device and transaction). */
static void html_act_latency(struct html_report *r, size_t i, const cJSON *act)
{
    struct html_lat_src src[HTML_MAX_SERIES];
    size_t ns = 0, nl = 0;
    const cJSON *load;
    cJSON_ArrayForEach(load, cJSON_GetObjectItemCaseSensitive(act, "loads")) {
        const char *phn = result_str(load, "phase", "");
        const cJSON *ph;
        cJSON_ArrayForEach(ph, html_phases(r, i)) {
            if (strcmp(result_str(ph, "name", ""), phn) != 0)
                continue;
            const cJSON *sc = result_scope(ph, "job:service");
            if (!sc)
                sc = result_scope(ph, "total");
            const cJSON *dir = html_dir(sc, "read");
            if (!dir || ns + 2 > HTML_MAX_SERIES)
                break;
            const char *ln = load_name(r, load);
            const cJSON *sched = cJSON_GetObjectItemCaseSensitive(dir, "scheduled_latency_ns");
            if (cJSON_IsObject(sched))
                src[ns++] = (struct html_lat_src){sched, html_printf(r, "%s trans", ln), (unsigned)nl, 0};
            src[ns++] = (struct html_lat_src){html_lat(dir), html_printf(r, "%s device", ln), (unsigned)nl, 1};
            nl++;
            break;
        }
    }
    if (ns)
        html_latency_charts(r, html_printf(r, "act%s%s", r->multi ? "-" : "", r->multi ? r->labels[i] : ""),
                           html_printf(r, "%ssmall reads", r->multi ? html_printf(r, "%s, ", r->labels[i]) : ""), src,
                           ns);
}

/* All loads of all results: the summary table and the load ladder chart. */
/* --- the certification summary: the text's table (act_ladder.c) from the
 * result: drive, size ACT used, load, over-provisioning, the worst slice's
 * % over 1/8/64 ms as "total / device only", the date the load started and
 * the result --- */

static const cJSON *obj(const cJSON *o, const char *k)
{
    return cJSON_GetObjectItemCaseSensitive(o, k);
}

/* The first device's model, else its kernel name, else its path; "N x " in
 * front for several. */
static const char *cert_drive(struct html_report *r, const cJSON *doc, const cJSON *act)
{
    const cJSON *devs = obj(act, "devices"), *t;
    int n = cJSON_GetArraySize(devs);
    const char *path = result_str(cJSON_GetArrayItem(devs, 0), "name", "?"), *name = path;
    cJSON_ArrayForEach(t, obj(doc, "targets"))
        if (!strcmp(result_str(t, "path", ""), path)) {
            const char *model = result_str(obj(t, "device"), "model", "");
            const char *dev = result_str(obj(t, "device"), "name", "");
            name = *model ? model : *dev ? dev : path;
            break;
        }
    return n > 1 ? html_printf(r, "%d x %s", n, name) : name;
}

/* The bytes ACT used of the first device: what --op left, else its size. */
static const char *cert_size(struct html_report *r, const cJSON *act)
{
    const cJSON *op = cJSON_GetArrayItem(obj(obj(act, "over_provisioning"), "discard"), 0);
    double b = op ? result_num(op, "used_bytes", 0)
                  : result_num(cJSON_GetArrayItem(obj(act, "devices"), 0), "size_bytes", 0);
    double gb = b / 1e9;
    return html_printf(r, gb >= 10 ? "%.0f GB" : "%.2f GB", gb);
}

/* The result column, in the text summary's words. */
static const char *cert_result(const cJSON *load)
{
    const char *stop = result_str(load, "stopped_by", "");
    if (!strcmp(stop, "signal"))
        return "interrupted";
    if (!strcmp(stop, "max-lag"))
        return "FAIL (max-lag stop)";
    if (result_snum(load, "act.loads[].io_errors") > 0)
        return "FAIL (I/O errors)";
    const cJSON *v = obj(load, "verdict");
    const char *st = result_sstr(v, "act.loads[].verdict.status");
    bool scaled = cJSON_IsTrue(obj(v, "scaled"));
    if (!strcasecmp(st, "pass"))
        return scaled ? "PASS (scaled)" : "PASS";
    if (!strcasecmp(st, "fail"))
        return scaled ? "FAIL (scaled)" : "FAIL";
    if (!strcasecmp(st, "incomplete"))
        return "INCOMPLETE";
    return cJSON_IsTrue(obj(load, "passed")) ? "pass (screen, < 24 h)" : "fail (screen, < 24 h)";
}

/* "2026-12-01": the date part of the load's phase start (ISO 8601, UTC). */
static const char *cert_date(struct html_report *r, const cJSON *doc, const cJSON *load)
{
    const cJSON *ph;
    cJSON_ArrayForEach(ph, obj(doc, "phases"))
        if (!strcmp(result_str(ph, "name", ""), result_str(load, "phase", "")))
            return html_printf(r, "%.10s", result_str(ph, "started", ""));
    return "";
}

static void html_act_summary(struct html_report *r)
{
    struct html_table *t = html_add_table(r, "act-loads", "Worst slice per load: % of small reads over 1, 8 and 64 ms");
    if (!t)
        return;
    int cres = html_table_add_col(t, "result", NULL, HTML_TABLE_TEXT, HTML_TABLE_AUTO);
    int cld = html_table_add_col(t, "load", NULL, HTML_TABLE_TEXT, HTML_TABLE_AUTO);
    int crd = html_table_add_col(t, "reads/s", NULL, HTML_TABLE_NUM, HTML_TABLE_INT);
    int cwr = html_table_add_col(t, "writes/s", NULL, HTML_TABLE_NUM, HTML_TABLE_INT);
    int cdur = html_table_add_col(t, "logged", "s", HTML_TABLE_NUM, HTML_TABLE_INT);
    int cm[2][3];
    static const char *const scr[2] = {"transaction", "device"};
    static const char *const lbl[2] = {"trans", "device"};
    for (int k = 0; k < 3; k++)
        for (int h = 0; h < 2; h++) {
            cm[h][k] = html_table_add_col(t, html_printf(r, "> %g ms %s", limit_ms[k], lbl[h]), "%", HTML_TABLE_NUM, HTML_TABLE_FIXED);
            html_table_set_group(t, cm[h][k], html_printf(r, "> %g ms (%%)", limit_ms[k]), lbl[h]);
            html_table_set_limit(t, cm[h][k], limit_pct[k]);
        }
    int cv = html_table_add_col(t, "verdict", NULL, HTML_TABLE_TEXT, HTML_TABLE_AUTO);
    for (size_t i = 0; i < r->nin; i++) {
        const cJSON *load;
        cJSON_ArrayForEach(load, html_act_loads(r, i)) {
            long w = html_table_add_row(t);
            if (w < 0)
                return;
            html_table_set_text(t, (size_t)w, cres, r->labels[i]);
            html_table_set_text(t, (size_t)w, cld, load_name(r, load));
            html_table_set(t, (size_t)w, crd, result_num(load, "read_reqs_per_sec", NAN));
            html_table_set(t, (size_t)w, cwr, result_num(load, "write_reqs_per_sec", NAN));
            html_table_set(t, (size_t)w, cdur, result_num(load, "logged_s", NAN));
            const cJSON *screen = cJSON_GetObjectItemCaseSensitive(load, "screen");
            for (int h = 0; h < 2; h++) {
                const cJSON *mx = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(screen, scr[h]),
                                                                   "max_pct_over_ms");
                for (int k = 0; k < 3; k++) {
                    char key[8];
                    snprintf(key, sizeof(key), "%g", limit_ms[k]);
                    html_table_set(t, (size_t)w, cm[h][k], result_num(mx, key, NAN));
                }
            }
            html_table_set_text(t, (size_t)w, cv, cert_result(load));
        }
    }
    html_table_set_note(t, "The maximum over the slices of each load, as ACT's max row (rounded to 0.01 %); the verdict "
                     "is the run's own: a certification needs 24 one-hour slices.");
    html_show_table(r, t);
    if (t->nrows < 2)
        return;
    /* the ladder: worst % over 1 ms per load, one series per result */
    struct html_table *lt = html_add_data_table(r, "act-ladder", "Worst slice per load, by load");
    if (!lt)
        return;
    int lk = html_table_add_col(lt, "load", NULL, HTML_TABLE_TEXT, HTML_TABLE_AUTO);
    int lc[HTML_REPORT_MAX_IN][2];
    size_t nres = r->nin < HTML_REPORT_MAX_IN ? r->nin : HTML_REPORT_MAX_IN;
    for (size_t i = 0; i < nres; i++)
        for (int h = 0; h < 2; h++)
            lc[i][h] = cJSON_GetArraySize(html_act_loads(r, i)) == 0 ? -1 : html_table_add_col(lt, html_printf(r, "%s%s> 1 ms %s", r->multi ? r->labels[i] : "",
                                                   r->multi ? " " : "", lbl[h]), "%", HTML_TABLE_NUM, HTML_TABLE_FIXED);
    for (size_t row = 0; row < t->nrows; row++) {
        size_t i = 0;
        while (i < nres && strcmp(r->labels[i], html_table_text(t, row, cres)) != 0)
            i++;
        if (i == nres)
            continue;
        long w = html_table_row_for_text(lt, lk, html_table_text(t, row, cld));
        if (w < 0)
            return;
        for (int h = 0; h < 2; h++)
            html_table_set(lt, (size_t)w, lc[i][h], html_table_get(t, row, cm[h][0]));
    }
    struct html_chart *c = html_chart(r, lt, lk, "% of small reads over 1 ms in the worst slice, by load");
    if (c) {
        c->x = html_axis("load", HTML_SVG_CAT, HTML_SVG_FMT_PLAIN);
        c->y = html_axis("% of reads >= 1 ms", HTML_SVG_LIN, HTML_SVG_FMT_PCT);
        for (size_t i = 0; i < nres; i++)
            for (int h = 0; h < 2; h++)
                if (lc[i][h] >= 0)
                    html_chart_series(c, lc[i][h], html_series_name(r, i, lbl[h]), (unsigned)i, (unsigned)h, HTML_SVG_LINE_MARKS);
        html_chart_mark(c, HTML_SVG_HLINE, 0, 5, 0, 0, "limit 5 %", 1, 2);
    }
}

static void html_act_certification(struct html_report *r)
{
    struct html_table *t = html_add_table(r, "act-summary", "Certification summary");
    if (!t)
        return;
    int cres = r->multi ? html_table_add_col(t, "result file", NULL, HTML_TABLE_TEXT, HTML_TABLE_AUTO) : -1;
    int cdr = html_table_add_col(t, "drive", NULL, HTML_TABLE_TEXT, HTML_TABLE_AUTO);
    int csz = html_table_add_col(t, "size", NULL, HTML_TABLE_TEXT, HTML_TABLE_AUTO);
    int cld = html_table_add_col(t, "load", NULL, HTML_TABLE_TEXT, HTML_TABLE_AUTO);
    int cop = html_table_add_col(t, "OP", NULL, HTML_TABLE_TEXT, HTML_TABLE_AUTO);
    int cm[3];
    for (int k = 0; k < 3; k++) {
        cm[k] = html_table_add_col(t, html_printf(r, "> %g ms, total / device only", limit_ms[k]), "%",
                                   HTML_TABLE_TEXT, HTML_TABLE_AUTO);
        html_table_set_group(t, cm[k], "% of small reads over, total / device only",
                             html_printf(r, "> %g ms", limit_ms[k]));
    }
    int cdt = html_table_add_col(t, "date", NULL, HTML_TABLE_TEXT, HTML_TABLE_AUTO);
    int cv = html_table_add_col(t, "result", NULL, HTML_TABLE_TEXT, HTML_TABLE_AUTO);
    for (size_t i = 0; i < r->nin; i++) {
        const cJSON *doc = r->in[i].doc, *act = obj(doc, "act"), *load;
        const cJSON *op = obj(act, "over_provisioning");
        cJSON_ArrayForEach(load, html_act_loads(r, i)) {
            long w = html_table_add_row(t);
            if (w < 0)
                return;
            if (cres >= 0)
                html_table_set_text(t, (size_t)w, cres, r->labels[i]);
            html_table_set_text(t, (size_t)w, cdr, cert_drive(r, doc, act));
            html_table_set_text(t, (size_t)w, csz, cert_size(r, act));
            html_table_set_text(t, (size_t)w, cld, isnan(result_num(load, "load", NAN)) ? "config"
                                                                                         : load_name(r, load));
            html_table_set_text(t, (size_t)w, cop, op ? html_printf(r, "%g%%", result_num(op, "pct", 0)) : "no");
            const cJSON *tr = obj(obj(obj(load, "screen"), "transaction"), "max_pct_over_ms");
            const cJSON *dv = obj(obj(obj(load, "screen"), "device"), "max_pct_over_ms");
            for (int k = 0; k < 3; k++) {
                char key[8];
                snprintf(key, sizeof(key), "%g", limit_ms[k]);
                double a = result_num(tr, key, NAN), b = result_num(dv, key, NAN);
                html_table_set_text(t, (size_t)w, cm[k], isnan(a) || isnan(b) ? "-"
                                                         : html_printf(r, "%.2f/%.2f", a, b));
            }
            html_table_set_text(t, (size_t)w, cdt, cert_date(r, doc, load));
            html_table_set_text(t, (size_t)w, cv, cert_result(load));
        }
    }
    html_table_set_note(t, "% of small reads over the limit in the worst slice: total = transaction latency from "
                           "the scheduled start, device only = device latency; the result judges the device "
                           "column: ACT's rule for 24 h runs, the same limits per slice for shorter ones. Dates "
                           "are ISO 8601 (UTC) as every date of ssdbench.");
    html_show_table(r, t);
}

int html_build_act(struct html_report *r)
{
    bool has[HTML_REPORT_MAX_IN] = {false};
    for (size_t i = 0; i < r->nin && i < HTML_REPORT_MAX_IN; i++)
        has[i] = cJSON_GetArraySize(html_act_loads(r, i)) > 0;
    size_t first;
    if (!html_participants(r, has, &first))
        return 0;
    html_heading(r, HTML_H2, "ACT: storage certification workload");
    html_act_certification(r);
    html_act_summary(r);
    for (size_t i = 0; i < r->nin && !r->oom; i++) {
        const cJSON *act = cJSON_GetObjectItemCaseSensitive(r->in[i].doc, "act");
        const cJSON *fm = cJSON_GetObjectItemCaseSensitive(act, "find_max");
        if (fm) {
            double hp = result_num(fm, "highest_passing_load", NAN), ff = result_num(fm, "first_failing_load", NAN);
            html_para(r, isnan(hp) ? "verdict fail" : "verdict pass",
                     html_printf(r, "%s%sHighest passing load: %s%s.", r->multi ? r->labels[i] : "",
                                r->multi ? ": " : "", isnan(hp) ? "none" : html_printf(r, "%gx", hp),
                                isnan(ff) ? "" : html_printf(r, " (first failing: %gx)", ff)));
        }
        const cJSON *load;
        cJSON_ArrayForEach(load, html_act_loads(r, i))
            html_act_load_section(r, i, load, act);
        html_act_latency(r, i, act);
    }
    return r->oom ? -ENOMEM : 0;
}
