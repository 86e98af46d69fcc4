/* html_cluster.c - the per-host and per-rank view of a phase run over many
 * ranks (docs/cluster.md): a bar chart of each host's IOPS with its table
 * (from the phase's "cluster" hosts, exact sums of the ranks' counts) and a
 * table of every rank (its own figures and start skew). Phases without a
 * "cluster" object add nothing. */
#include <math.h>
#include <string.h>

#include "output/html_kinds.h"
#include "output/html_table.h"
#include "result/result_read.h"

static void host_chart(struct html_report *r, const char *id, const char *what, const struct html_run *run)
{
    const cJSON *co = cJSON_GetObjectItemCaseSensitive(run->phase, "cluster");
    const cJSON *hosts = cJSON_GetObjectItemCaseSensitive(co, "hosts");
    if (!cJSON_IsArray(hosts) || !cJSON_GetArraySize(hosts))
        return;
    const char *pre = r->multi ? html_printf(r, "%s: ", r->labels[run->res]) : "";
    html_para(r, NULL, html_printf(r, "%s%s ran on %d ranks on %d hosts; start skew %.0f to %.0f us; the phase ended "
                                   "with the %s.", pre, what, (int)result_num(co, "nranks", 0),
                                   (int)result_num(co, "nhosts", 0), result_num(co, "start_skew_min_us", 0),
                                   result_num(co, "start_skew_max_us", 0),
                                   !strcmp(result_str(co, "ended_by", ""), "agreed-time") ? "agreed time"
                                                                                           : "slowest rank"));
    struct html_table *t = html_add_table(r, html_printf(r, "%s-hosts-%zu", id, run->res),
                                          html_printf(r, "%sper host", pre));
    if (!t)
        return;
    int ch = html_table_add_col(t, "host", NULL, HTML_TABLE_TEXT, HTML_TABLE_AUTO);
    int cr = html_table_add_col(t, "ranks", NULL, HTML_TABLE_NUM, HTML_TABLE_INT);
    int ci[2], cm[2];
    static const char *const dirs[2] = {"read", "write"};
    for (int d = 0; d < 2; d++) {
        ci[d] = html_table_add_col(t, html_printf(r, "%s IOPS", dirs[d]), NULL, HTML_TABLE_NUM, HTML_TABLE_INT);
        cm[d] = html_table_add_col(t, html_printf(r, "%s MB/s", dirs[d]), NULL, HTML_TABLE_NUM, HTML_TABLE_AUTO);
    }
    const cJSON *h;
    bool any[2] = {false, false};
    cJSON_ArrayForEach(h, hosts) {
        long row = html_table_add_row(t);
        if (row < 0)
            return;
        html_table_set_text(t, (size_t)row, ch, result_str(h, "host", "?"));
        html_table_set(t, (size_t)row, cr, result_num(h, "ranks", NAN));
        for (int d = 0; d < 2; d++) {
            const cJSON *dd = cJSON_GetObjectItemCaseSensitive(h, dirs[d]);
            html_table_set(t, (size_t)row, ci[d], result_num(dd, "iops", NAN));
            html_table_set(t, (size_t)row, cm[d], result_num(dd, "mbps", NAN));
            any[d] |= result_num(dd, "ios", 0) > 0;
        }
    }
    struct html_chart *c = html_chart(r, t, ch, html_printf(r, "%sIOPS per host", pre));
    if (c) {
        c->x = html_axis(NULL, HTML_SVG_CAT, HTML_SVG_FMT_PLAIN);
        c->y = html_axis("IOPS", HTML_SVG_LIN, HTML_SVG_FMT_NUM);
        for (int d = 0; d < 2; d++)
            if (any[d])
                html_chart_series(c, ci[d], dirs[d], html_color(run->res, (unsigned)d, 2), 0, HTML_SVG_BARS);
    }
    html_show_table(r, t);
}

static void rank_table(struct html_report *r, const char *id, const struct html_run *run)
{
    const cJSON *co = cJSON_GetObjectItemCaseSensitive(run->phase, "cluster");
    const cJSON *ranks = cJSON_GetObjectItemCaseSensitive(co, "ranks");
    if (!cJSON_IsArray(ranks) || !cJSON_GetArraySize(ranks))
        return;
    const char *pre = r->multi ? html_printf(r, "%s: ", r->labels[run->res]) : "";
    struct html_table *t = html_add_table(r, html_printf(r, "%s-ranks-%zu", id, run->res),
                                          html_printf(r, "%sper rank", pre));
    if (!t)
        return;
    int crk = html_table_add_col(t, "rank", NULL, HTML_TABLE_NUM, HTML_TABLE_INT);
    int ch = html_table_add_col(t, "host", NULL, HTML_TABLE_TEXT, HTML_TABLE_AUTO);
    int ct = html_table_add_col(t, "targets", NULL, HTML_TABLE_TEXT, HTML_TABLE_AUTO);
    static const char *const dirs[2] = {"read", "write"};
    int ci[2], cp[2];
    for (int d = 0; d < 2; d++) {
        ci[d] = html_table_add_col(t, html_printf(r, "%s IOPS", dirs[d]), NULL, HTML_TABLE_NUM, HTML_TABLE_INT);
        cp[d] = html_table_add_col(t, html_printf(r, "%s p99", dirs[d]), "ns", HTML_TABLE_NUM, HTML_TABLE_NS);
    }
    int cs = html_table_add_col(t, "start skew", "us", HTML_TABLE_NUM, HTML_TABLE_AUTO);
    int ce = html_table_add_col(t, "errors", NULL, HTML_TABLE_NUM, HTML_TABLE_INT);
    const cJSON *rk;
    cJSON_ArrayForEach(rk, ranks) {
        long row = html_table_add_row(t);
        if (row < 0)
            return;
        html_table_set(t, (size_t)row, crk, result_num(rk, "rank", NAN));
        html_table_set_text(t, (size_t)row, ch, result_str(rk, "host", "?"));
        char buf[256] = "";
        size_t n = 0;
        const cJSON *tg;
        cJSON_ArrayForEach(tg, cJSON_GetObjectItemCaseSensitive(rk, "targets")) {
            int w = snprintf(buf + n, sizeof(buf) - n, "%s%s", n ? ", " : "", result_str(tg, "path", "?"));
            if (w < 0 || (size_t)w >= sizeof(buf) - n)
                break;
            n += (size_t)w;
        }
        html_table_set_text(t, (size_t)row, ct, buf);
        for (int d = 0; d < 2; d++) {
            const cJSON *dd = cJSON_GetObjectItemCaseSensitive(rk, dirs[d]);
            html_table_set(t, (size_t)row, ci[d], result_num(dd, "iops", NAN));
            if (cJSON_GetObjectItemCaseSensitive(dd, "lat_p99_ns"))
                html_table_set(t, (size_t)row, cp[d], result_num(dd, "lat_p99_ns", NAN));
        }
        html_table_set(t, (size_t)row, cs, result_num(rk, "start_skew_us", NAN));
        html_table_set(t, (size_t)row, ce, result_num(rk, "error_total", NAN));
    }
    html_table_set_note(t, "Each rank's own figures; the phase's totals and percentiles above are the merge of "
                           "every rank's histograms, not an average of these.");
    html_show_table(r, t);
}

void html_cluster_section(struct html_report *r, const char *id, const char *what, const struct html_run *runs,
                          size_t nruns)
{
    bool any = false;
    for (size_t k = 0; k < nruns; k++)
        any |= cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(runs[k].phase, "cluster"));
    if (!any)
        return;
    html_heading(r, HTML_H3, html_printf(r, "%s: hosts and ranks", what));
    for (size_t k = 0; k < nruns; k++) {
        if (!cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(runs[k].phase, "cluster")))
            continue;
        host_chart(r, id, what, &runs[k]);
        rank_table(r, id, &runs[k]);
    }
}
