/* html_fileio.c - report sections for sysbench-style fileio runs
 * (docs/fileio.md): the thread-scaling tables of the published comparisons
 * ("Throughput, MiB/s (more is better)", "95% response time, ms (less is
 * better)", one column per setup and ratio columns) and their charts, from
 * the "fileio" object's scaling rows; then, for one result, the latency
 * percentile curve of every thread count from the phases' histograms. */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "output/html_kinds.h"
#include "result/result_read.h"

static const cJSON *scaling(const struct html_report *r, size_t i)
{
    return cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(r->in[i].doc, "fileio"), "scaling");
}

/* A shown table in the published layout: threads, one column per result,
 * ratios to the baseline. */
static void scaling_table(struct html_report *r, const struct html_table *data, const int *cols, size_t nres,
                          const char *id, const char *title, const char *unit, bool lower_better)
{
    struct html_table *t = html_add_table(r, id, title);
    if (!t)
        return;
    html_table_add_col(t, "threads", NULL, HTML_TABLE_NUM, HTML_TABLE_INT);
    int cc[HTML_REPORT_MAX_IN];
    for (size_t i = 0; i < nres; i++)
        cc[i] = cols[i] < 0 ? -1 : html_table_add_col(t, r->labels[i], unit, HTML_TABLE_NUM, HTML_TABLE_FIXED);
    for (size_t row = 0; row < data->nrows; row++) {
        long w = html_table_add_row(t);
        if (w < 0)
            return;
        html_table_set(t, (size_t)w, 0, html_table_get(data, row, 0));
        for (size_t i = 0; i < nres; i++)
            if (cc[i] >= 0)
                html_table_set(t, (size_t)w, cc[i], html_table_get(data, row, cols[i]));
    }
    for (size_t i = 0; i < nres; i++)
        if (cc[i] >= 0)
            t->cols[cc[i]].prec = strcmp(unit, "ms") == 0 ? 3 : 2;
    html_add_ratios(r, t, cc, nres, NULL, lower_better);
    html_show_table(r, t);
}

/* One paragraph per result with its fileio options; returns the
 * percentile the results report (the last one's, 95 if none). */
static double fileio_text(struct html_report *r, size_t nres)
{
    double pct = 95;
    for (size_t i = 0; i < nres; i++) {
        const cJSON *fo = cJSON_GetObjectItemCaseSensitive(r->in[i].doc, "fileio");
        const cJSON *o = cJSON_GetObjectItemCaseSensitive(fo, "options");
        if (!o)
            continue;
        pct = result_num(o, "percentile", pct);
        char flags[128] = "";
        const cJSON *fl;
        cJSON_ArrayForEach(fl, cJSON_GetObjectItemCaseSensitive(o, "file-extra-flags"))
            if (cJSON_IsString(fl)) {
                size_t n = strlen(flags);
                snprintf(flags + n, sizeof(flags) - n, "%s%s", n ? "," : ", flags ", fl->valuestring);
            }
        char total[32];
        struct html_table_col bytes = {.kind = HTML_TABLE_NUM, .fmt = HTML_TABLE_BYTES};
        html_table_format(total, sizeof(total), &bytes, result_num(o, "file-total-size", 0));
        char rq[32], nf[32], fq[32];
        html_table_thousands(rq, sizeof(rq), result_num(o, "request_size", 0), 0);
        html_table_thousands(nf, sizeof(nf), result_num(o, "file-num", 0), 0);
        html_table_thousands(fq, sizeof(fq), result_num(o, "file-fsync-freq", 0), 0);
        html_para(r, NULL, html_printf(r, "%s%s%s, %s-byte requests, %s files of %s in total, %s I/O%s, "
                                        "fsync every %s requests, %g s per thread count.",
                                     r->multi ? r->labels[i] : "", r->multi ? ": " : "",
                                     result_str(o, "file-test-mode", "?"), rq, nf, total,
                                     result_str(o, "file-io-mode", "?"), flags, fq, result_num(o, "time", 0)));
    }
    return pct;
}

/* Fill the data table t (threads in column 0): every figure per thread
 * count; col gets each result's columns (-1: none). */
static void fileio_scaling_rows(struct html_report *r, struct html_table *t, size_t nres, double pct,
                                int col[][6])
{
    static const char *const key[] = {"mibps", "read_mibps", "write_mibps", "iops", "pct_ms", "avg_ms"};
    static const char *const nm[] = {"MiB/s", "read MiB/s", "written MiB/s", "events/s", "percentile",
                                     "avg latency"};
    for (size_t i = 0; i < nres; i++) {
        for (int k = 0; k < 6; k++)
            col[i][k] = -1;
        if (!cJSON_GetArraySize(scaling(r, i)))
            continue;
        for (int k = 0; k < 6; k++) {
            const char *name = k == 4 ? html_printf(r, "%g%% latency", pct) : nm[k];
            col[i][k] = html_table_add_col(t, html_printf(r, "%s%s%s", r->multi ? r->labels[i] : "", r->multi ? " " : "",
                                                   name),
                                     k >= 4 ? "ms" : k == 3 ? NULL : "MiB/s", HTML_TABLE_NUM, HTML_TABLE_AUTO);
        }
        const cJSON *s;
        cJSON_ArrayForEach(s, scaling(r, i)) {
            long w = html_table_row_for(t, 0, result_num(s, "threads", NAN));
            for (int k = 0; k < 6 && w >= 0; k++)
                html_table_set(t, (size_t)w, col[i][k], result_num(s, key[k], NAN));
        }
    }
}

/* The throughput and response-time charts by thread count (categories in
 * column ccat of t; mib and pc: each result's columns). */
static void fileio_charts(struct html_report *r, struct html_table *t, int ccat, size_t nres, const int *mib,
                          const int *pc, double pct)
{
    struct html_chart *c = html_chart(r, t, ccat, "fileio: throughput by threads");
    if (c) {
        c->x = html_axis("threads", HTML_SVG_CAT, HTML_SVG_FMT_PLAIN);
        c->y = html_axis("throughput (MiB/s)", HTML_SVG_LIN, HTML_SVG_FMT_NUM);
        c->half = true;
        for (size_t i = 0; i < nres; i++)
            if (mib[i] >= 0)
                html_chart_series(c, mib[i], html_series_name(r, i, r->multi ? NULL : "MiB/s"), (unsigned)i, 0,
                                 HTML_SVG_LINE_MARKS);
    }
    c = html_chart(r, t, ccat, html_printf(r, "fileio: %g%% response time by threads", pct));
    if (c) {
        c->x = html_axis("threads", HTML_SVG_CAT, HTML_SVG_FMT_PLAIN);
        c->y = html_axis(html_printf(r, "%g%% response time (ms)", pct), HTML_SVG_LIN, HTML_SVG_FMT_PLAIN);
        c->half = true;
        for (size_t i = 0; i < nres; i++)
            if (pc[i] >= 0)
                html_chart_series(c, pc[i], html_series_name(r, i, r->multi ? NULL : "percentile"), (unsigned)i, 0,
                                 HTML_SVG_LINE_MARKS);
    }
}

/* One result (index only): the latency curve of each thread count. */
static void fileio_latency_curves(struct html_report *r, size_t only)
{
    struct html_lat_src src[HTML_MAX_SERIES];
    size_t ns = 0;
    const cJSON *s;
    cJSON_ArrayForEach(s, scaling(r, only)) {
        const char *phn = result_str(s, "phase", "");
        const cJSON *ph;
        cJSON_ArrayForEach(ph, html_phases(r, only)) {
            if (strcmp(result_str(ph, "name", ""), phn) != 0)
                continue;
            const cJSON *sc = result_scope(ph, "total");
            const cJSON *dir = html_dir(sc, "read") ? html_dir(sc, "read") : html_dir(sc, "write");
            if (dir && ns < HTML_MAX_SERIES) {
                src[ns] = (struct html_lat_src){html_lat(dir), html_printf(r, "%g thread%s%s", result_num(s, "threads", 0),
                                                               result_num(s, "threads", 0) == 1 ? "" : "s",
                                                               html_dir(sc, "read") && html_dir(sc, "write")
                                                                   ? " read" : ""),
                                               (unsigned)(ns % HTML_SVG_PALETTE), (unsigned)(ns / HTML_SVG_PALETTE)};
                ns++;
            }
            break;
        }
    }
    if (ns)
        html_latency_charts(r, "fileio", "fileio, every thread count", src, ns);
}

int html_build_fileio(struct html_report *r)
{
    size_t nres = r->nin < HTML_REPORT_MAX_IN ? r->nin : HTML_REPORT_MAX_IN;
    bool has[HTML_REPORT_MAX_IN] = {false};
    for (size_t i = 0; i < nres; i++)
        has[i] = cJSON_GetArraySize(scaling(r, i)) > 0;
    size_t only;
    if (!html_participants(r, has, &only))
        return 0;
    html_heading(r, HTML_H2, "fileio: thread scaling");
    double pct = fileio_text(r, nres);
    struct html_table *t = html_add_data_table(r, "fileio-scaling", "fileio: figures per thread count");
    if (!t)
        return -ENOMEM;
    html_table_add_col(t, "threads", NULL, HTML_TABLE_NUM, HTML_TABLE_INT);
    int col[HTML_REPORT_MAX_IN][6];
    fileio_scaling_rows(r, t, nres, pct, col);
    html_table_sort(t, 0);
    int mib[HTML_REPORT_MAX_IN], pc[HTML_REPORT_MAX_IN];
    for (size_t i = 0; i < nres; i++) {
        mib[i] = col[i][0];
        pc[i] = col[i][4];
    }
    scaling_table(r, t, mib, nres, "fileio-throughput", "Throughput, MiB/s (more is better)", "MiB/s", false);
    scaling_table(r, t, pc, nres, "fileio-response-time",
                  html_printf(r, "%g%% response time, ms (less is better)", pct), "ms", true);
    /* threads as categories: 1, 2, 4 ... equally spaced, as published */
    int ccat = html_table_add_col(t, "threads (label)", NULL, HTML_TABLE_TEXT, HTML_TABLE_AUTO);
    if (ccat >= 0)
        t->cols[ccat].html_hidden = true;
    for (size_t row = 0; row < t->nrows; row++)
        html_table_set_text(t, row, ccat, html_printf(r, "%g", html_table_get(t, row, 0)));
    fileio_charts(r, t, ccat, nres, mib, pc, pct);
    /* one result: the latency curve of each thread count */
    if (!r->multi)
        fileio_latency_curves(r, only);
    return r->oom ? -ENOMEM : 0;
}
