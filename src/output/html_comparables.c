/* html_comparables.c - the report's comparables and trends, as the reviews
 * set a drive against others: for every profile (a phase name: a job, a
 * suite sweep point, an ACT load, a fileio thread count) that two or more
 * of the report's results ran, one chart with a bar per result (read and
 * write IOPS) and its table; for every device with results from two or
 * more start times, its IOPS per profile over time. The results come from
 * files or archive selectors alike (the CLI loads them); PTS rounds and
 * preconditioning are not profiles. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output/html_kinds.h"
#include "result/result_read.h"

#define CMP_MAX_PROFILES 16     /* comparables charts in one page */
#define CMP_MAX_TREND_SERIES 8  /* profiles per trend chart */

static bool is_profile(const cJSON *phase)
{
    const char *k = result_str(phase, "kind", "");
    return strncmp(k, "pts", 3) != 0 && strcmp(k, "precondition") != 0 && *result_str(phase, "name", "");
}

static const cJSON *phase_named(const cJSON *doc, const char *name)
{
    const cJSON *ph;
    cJSON_ArrayForEach(ph, cJSON_GetObjectItemCaseSensitive(doc, "phases"))
        if (is_profile(ph) && !strcmp(result_str(ph, "name", ""), name))
            return ph;
    return NULL;
}

static double dir_iops(const cJSON *phase, const char *dir)
{
    const cJSON *o = cJSON_GetObjectItemCaseSensitive(result_scope(phase, "total"), dir);
    return result_num(o, "ios", 0) > 0 ? result_num(o, "iops", NAN) : NAN;
}

static double dir_p99(const cJSON *phase, const char *dir)
{
    const cJSON *o = cJSON_GetObjectItemCaseSensitive(result_scope(phase, "total"), dir);
    if (result_num(o, "ios", 0) <= 0)
        return NAN;
    return result_num(cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(o, "latency_ns"), "percentiles"),
                      "99", NAN);
}

static double total_iops(const cJSON *phase)
{
    double s = 0;
    static const char *const dirs[] = {"read", "write", "trim"};
    for (int d = 0; d < 3; d++) {
        double v = dir_iops(phase, dirs[d]);
        if (isfinite(v))
            s += v;
    }
    return s;
}

/* The profiles (phase names) at least two results ran, in first-seen order. */
static size_t shared_profiles(struct html_report *r, const char **names, size_t max)
{
    size_t n = 0;
    for (size_t i = 0; i < r->nin && n < max; i++) {
        const cJSON *ph;
        cJSON_ArrayForEach(ph, cJSON_GetObjectItemCaseSensitive(r->in[i].doc, "phases")) {
            if (!is_profile(ph))
                continue;
            const char *name = result_str(ph, "name", "");
            bool seen = false;
            for (size_t k = 0; k < n && !seen; k++)
                seen = !strcmp(names[k], name);
            if (seen)
                continue;
            size_t in = 0;
            for (size_t j = 0; j < r->nin; j++)
                in += phase_named(r->in[j].doc, name) != NULL;
            if (in >= 2 && n < max)
                names[n++] = name;
        }
    }
    return n;
}

static void comparables(struct html_report *r, const char *const *names, size_t nnames)
{
    html_heading(r, HTML_H2, "Comparables");
    html_para(r, NULL, "Every profile that more than one of these results ran, one bar per result (device), as "
                       "the reviews set a drive against its comparables.");
    static const char *const dirs[2] = {"read", "write"};
    for (size_t p = 0; p < nnames; p++) {
        struct html_table *t = html_add_table(r, html_printf(r, "comparables-%zu", p + 1),
                                              html_printf(r, "Comparables: %s", names[p]));
        if (!t)
            return;
        int cl = html_table_add_col(t, "result", NULL, HTML_TABLE_TEXT, HTML_TABLE_AUTO);
        int cs = html_table_add_col(t, "started", NULL, HTML_TABLE_TEXT, HTML_TABLE_AUTO);
        int ci[2], cp[2];
        bool any[2] = {false, false};
        for (int d = 0; d < 2; d++) {
            ci[d] = html_table_add_col(t, html_printf(r, "%s IOPS", dirs[d]), NULL, HTML_TABLE_NUM, HTML_TABLE_INT);
            cp[d] = html_table_add_col(t, html_printf(r, "%s p99", dirs[d]), "ns", HTML_TABLE_NUM, HTML_TABLE_NS);
        }
        for (size_t i = 0; i < r->nin; i++) {
            const cJSON *ph = phase_named(r->in[i].doc, names[p]);
            if (!ph)
                continue;
            long row = html_table_add_row(t);
            if (row < 0)
                return;
            html_table_set_text(t, (size_t)row, cl, r->labels[i]);
            html_table_set_text(t, (size_t)row, cs, html_printf(r, "%.10s", result_str(r->in[i].doc, "started", "")));
            for (int d = 0; d < 2; d++) {
                double v = dir_iops(ph, dirs[d]);
                html_table_set(t, (size_t)row, ci[d], v);
                html_table_set(t, (size_t)row, cp[d], dir_p99(ph, dirs[d]));
                any[d] |= isfinite(v);
            }
        }
        struct html_chart *c = html_chart(r, t, cl, html_printf(r, "Comparables: %s, IOPS per result", names[p]));
        if (c) {
            c->x = html_axis(NULL, HTML_SVG_CAT, HTML_SVG_FMT_PLAIN);
            c->y = html_axis("IOPS", HTML_SVG_LIN, HTML_SVG_FMT_NUM);
            for (int d = 0; d < 2; d++)
                if (any[d])
                    html_chart_series(c, ci[d], dirs[d], (unsigned)d, 0, HTML_SVG_BARS);
        }
        html_show_table(r, t);
    }
}

/* A result's device for trends: serial, model, else the first target's path. */
static const char *device_of(const cJSON *doc)
{
    const cJSON *t = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(doc, "targets"), 0);
    const cJSON *dev = cJSON_GetObjectItemCaseSensitive(t, "device");
    const char *s = result_str(dev, "serial", "");
    while (*s == ' ')
        s++;
    if (*s)
        return s;
    s = result_str(dev, "model", "");
    while (*s == ' ')
        s++;
    return *s ? s : result_str(t, "path", "?");
}

static int cmp_time(const void *a, const void *b, void *ctx)
{
    const struct html_report *r = ctx;
    double x = result_num(r->in[*(const size_t *)a].doc, "started_unix_ms", 0);
    double y = result_num(r->in[*(const size_t *)b].doc, "started_unix_ms", 0);
    return x < y ? -1 : x > y;
}

static void trend(struct html_report *r, const char *dev, size_t *idx, size_t n, bool *heading, unsigned *ntrend)
{
    /* the device's profiles that at least two of its results ran */
    const char *names[CMP_MAX_TREND_SERIES];
    size_t nn = 0;
    for (size_t k = 0; k < n && nn < CMP_MAX_TREND_SERIES; k++) {
        const cJSON *ph;
        cJSON_ArrayForEach(ph, cJSON_GetObjectItemCaseSensitive(r->in[idx[k]].doc, "phases")) {
            if (!is_profile(ph) || nn == CMP_MAX_TREND_SERIES)
                continue;
            const char *name = result_str(ph, "name", "");
            bool seen = false;
            for (size_t j = 0; j < nn && !seen; j++)
                seen = !strcmp(names[j], name);
            size_t in = 0;
            for (size_t j = 0; j < n && !seen; j++)
                in += phase_named(r->in[idx[j]].doc, name) != NULL;
            if (!seen && in >= 2)
                names[nn++] = name;
        }
    }
    if (!nn)
        return;
    qsort_r(idx, n, sizeof(*idx), cmp_time, r);
    if (!*heading) {
        html_heading(r, HTML_H2, "Trends");
        html_para(r, NULL, "Each device with results from several runs: IOPS (all directions) per profile, in "
                           "the order the runs started.");
        *heading = true;
    }
    struct html_table *t = html_add_table(r, html_printf(r, "trend-%u", ++*ntrend), html_printf(r, "Trend: %s", dev));
    if (!t)
        return;
    int cx = html_table_add_col(t, "started", NULL, HTML_TABLE_TEXT, HTML_TABLE_AUTO);
    int cl = html_table_add_col(t, "result", NULL, HTML_TABLE_TEXT, HTML_TABLE_AUTO);
    int cv[CMP_MAX_TREND_SERIES];
    for (size_t s = 0; s < nn; s++)
        cv[s] = html_table_add_col(t, html_printf(r, "%s IOPS", names[s]), NULL, HTML_TABLE_NUM, HTML_TABLE_INT);
    for (size_t k = 0; k < n; k++) {
        const cJSON *doc = r->in[idx[k]].doc;
        long row = html_table_add_row(t);
        if (row < 0)
            return;
        const char *st = result_str(doc, "started", "");
        html_table_set_text(t, (size_t)row, cx, html_printf(r, "%.10s %.5s", st, strlen(st) > 11 ? st + 11 : ""));
        html_table_set_text(t, (size_t)row, cl, r->labels[idx[k]]);
        for (size_t s = 0; s < nn; s++) {
            const cJSON *ph = phase_named(doc, names[s]);
            html_table_set(t, (size_t)row, cv[s], ph ? total_iops(ph) : NAN);
        }
    }
    struct html_chart *c = html_chart(r, t, cx, html_printf(r, "Trend: %s, IOPS per profile over time", dev));
    if (c) {
        c->x = html_axis("started (UTC)", HTML_SVG_CAT, HTML_SVG_FMT_PLAIN);
        c->y = html_axis("IOPS", HTML_SVG_LIN, HTML_SVG_FMT_NUM);
        for (size_t s = 0; s < nn; s++)
            html_chart_series(c, cv[s], names[s], (unsigned)s, 0, HTML_SVG_LINE_MARKS);
    }
    html_show_table(r, t);
}

int html_build_comparables(struct html_report *r)
{
    if (r->nin < 2)
        return 0;
    bool multi = r->multi;
    r->multi = true;
    const char *names[CMP_MAX_PROFILES];
    size_t n = shared_profiles(r, names, CMP_MAX_PROFILES);
    if (n)
        comparables(r, names, n);
    /* group the results by device; a device with two or more gets a trend */
    size_t idx[HTML_REPORT_MAX_IN];
    bool done[HTML_REPORT_MAX_IN] = {false}, heading = false;
    unsigned ntrend = 0;
    for (size_t i = 0; i < r->nin; i++) {
        if (done[i])
            continue;
        const char *dev = device_of(r->in[i].doc);
        size_t k = 0;
        for (size_t j = i; j < r->nin; j++)
            if (!done[j] && !strcmp(device_of(r->in[j].doc), dev)) {
                idx[k++] = j;
                done[j] = true;
            }
        if (k >= 2)
            trend(r, dev, idx, k, &heading, &ntrend);
    }
    r->multi = multi;
    return r->oom ? -ENOMEM : 0;
}
