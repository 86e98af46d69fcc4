/* html_kinds.c - see html_kinds.h: what the per-kind builders share: which
 * kinds have a builder, a phase's histograms, and the latency charts. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "output/html_kinds.h"
#include "result/result_hist.h"
#include "result/result_read.h"

bool html_kind_known(const char *kind)
{
    static const char *const known[] = {"precondition", "sweep-point", "act", "fileio",
                                         "pts-wipc", "pts-element", "pts-wsat",
                                         /* HIR, XSR, CBW/DIRTH phases */
                                         "pts-burst", "pts-baseline", "pts-xsr", "pts-prewrite",
                                         "pts-capture"};
    for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++)
        if (kind && strcmp(kind, known[i]) == 0)
            return true;
    return false;
}

bool html_phase_is(const cJSON *phase, const char *kind)
{
    const char *k = result_str(phase, "kind", "run");
    if (strcmp(kind, "run") == 0)
        return !html_kind_known(k);
    return strcmp(k, kind) == 0;
}

const cJSON *html_phases(const struct html_report *r, size_t res)
{
    return cJSON_GetObjectItemCaseSensitive(r->in[res].doc, "phases");
}

static const double pct_grid[] = {
    0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 97, 98, 99, 99.5, 99.7, 99.8, 99.9, 99.95, 99.97, 99.98, 99.99,
    99.995, 99.997, 99.998, 99.999, 99.9995, 99.9997, 99.9998, 99.9999, 99.99995, 99.99997, 99.99998, 99.99999,
};

const char *const html_dirs[HTML_NDIRS] = {"read", "write", "sync"};

const cJSON *html_lat(const cJSON *dir)
{
    return dir ? cJSON_GetObjectItemCaseSensitive(dir, "latency_ns") : NULL;
}

struct hist *html_hist(const cJSON *lat, char *err, size_t errlen)
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
    if (result_hist_from_json(hj, h, err, errlen) < 0 || h->n == 0) {
        free(h);
        return NULL;
    }
    return h;
}

void html_hist_bin(uint64_t lo, uint64_t *bin_lo, uint64_t *bin_hi)
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
static void fill_percentiles(struct html_table *t, int col, const struct hist *h)
{
    for (size_t i = 0; i < sizeof(pct_grid) / sizeof(pct_grid[0]); i++) {
        /* beyond 1 - 1/n the curve only repeats the top sample */
        if ((100 - pct_grid[i]) / 100 * (double)h->n < 0.999999)
            break;
        long row = html_table_row_for(t, 0, pct_grid[i]);
        if (row >= 0)
            html_table_set(t, (size_t)row, col, (double)hist_percentile(h, pct_grid[i]));
    }
    long row = html_table_row_for(t, 0, 100);
    if (row >= 0)
        html_table_set(t, (size_t)row, col, (double)h->max);
}

static void fill_histogram(struct html_table *t, int ccount, int cpct, const struct hist *h)
{
    for (unsigned i = 0; i < HIST_NBUCKETS; i++) {
        if (!h->counts[i])
            continue;
        uint64_t lo, hi;
        html_hist_bin(hist_bucket_lo(i), &lo, &hi);
        long row = html_table_row_for(t, 0, (double)lo);
        if (row < 0)
            return;
        html_table_set(t, (size_t)row, 1, (double)hi);
        double c = html_table_get(t, (size_t)row, ccount);
        html_table_set(t, (size_t)row, ccount, (isnan(c) ? 0 : c) + (double)h->counts[i]);
    }
    for (size_t row = 0; row < t->nrows; row++) {
        double c = html_table_get(t, row, ccount);
        if (isnan(c))
            c = 0;
        html_table_set(t, row, ccount, c);
        html_table_set(t, row, cpct, 100.0 * c / (double)h->n);
    }
}

int html_latency_charts(struct html_report *r, const char *id, const char *what, const struct html_lat_src *src,
                       size_t nsrc)
{
    if (!nsrc)
        return 0;
    char err[256];
    struct html_table *pt = html_add_data_table(r, html_printf(r, "%s-percentiles", id),
                                     html_printf(r, "%s: latency percentiles", what));
    struct html_table *ht = html_add_data_table(r, html_printf(r, "%s-histogram", id),
                                     html_printf(r, "%s: latency histogram", what));
    if (!pt || !ht)
        return -ENOMEM;
    html_table_add_col(pt, "percentile", "%", HTML_TABLE_NUM, HTML_TABLE_PCTILE);
    html_table_add_col(ht, "from", "ns", HTML_TABLE_NUM, HTML_TABLE_INT);
    html_table_add_col(ht, "to", "ns", HTML_TABLE_NUM, HTML_TABLE_INT);
    int pcol[HTML_MAX_SERIES], hcol[HTML_MAX_SERIES];
    size_t which[HTML_MAX_SERIES], n = 0;
    for (size_t s = 0; s < nsrc && n < HTML_MAX_SERIES; s++) {
        struct hist *h = html_hist(src[s].lat, err, sizeof(err));
        if (!h) {
            if (err[0])
                html_para(r, "warn", html_printf(r, "%s: %s: histogram not usable: %s", what, src[s].name, err));
            err[0] = 0;
            continue;
        }
        pcol[n] = html_table_add_col(pt, src[s].name, "ns", HTML_TABLE_NUM, HTML_TABLE_NS);
        int cc = html_table_add_col(ht, html_printf(r, "%s I/Os", src[s].name), NULL, HTML_TABLE_NUM, HTML_TABLE_INT);
        hcol[n] = html_table_add_col(ht, html_printf(r, "%s share", src[s].name), "%", HTML_TABLE_NUM, HTML_TABLE_AUTO);
        fill_percentiles(pt, pcol[n], h);
        fill_histogram(ht, cc, hcol[n], h);
        free(h);
        which[n++] = s;
    }
    /* a bin only some histograms have is an empty bin of the others */
    for (size_t c = 2; c < ht->ncols; c++)
        for (size_t row = 0; row < ht->nrows; row++)
            if (isnan(html_table_get(ht, row, (int)c)))
                html_table_set(ht, row, (int)c, 0);
    html_table_sort(pt, 0);
    html_table_sort(ht, 0);
    if (!n)
        return 0;
    struct html_chart *c = html_chart(r, pt, 0, html_printf(r, "%s: latency percentiles", what));
    if (c) {
        c->x = html_axis("percentile", HTML_SVG_NINES, HTML_SVG_FMT_PCT);
        c->y = html_axis("latency", HTML_SVG_LOG, HTML_SVG_FMT_NS);
        c->note = "Latency within which the given share of I/Os completed, from the stored histograms "
                  "(resolution 0.4 %). Each step right adds a nine; a curve ends where one I/O is left above it.";
        for (size_t k = 0; k < n; k++)
            html_chart_series(c, pcol[k], src[which[k]].name, src[which[k]].color, src[which[k]].dash,
                             HTML_SVG_LINE_MARKS);
    }
    c = html_chart(r, ht, 0, html_printf(r, "%s: latency histogram", what));
    if (c) {
        c->x = html_axis("latency", HTML_SVG_LOG, HTML_SVG_FMT_NS);
        c->y = html_axis("share of I/Os (%)", HTML_SVG_LIN, HTML_SVG_FMT_PCT);
        c->note = "Eight bins per power of two; each bin is a union of whole histogram buckets, so its count is exact.";
        for (size_t k = 0; k < n; k++) {
            html_chart_series(c, hcol[k], src[which[k]].name, src[which[k]].color, src[which[k]].dash, HTML_SVG_STEP_FILL);
            if (c->nseries)
                c->series[c->nseries - 1].x2col = 1;
        }
    }
    return 0;
}

double html_row_num(const cJSON *row, int i)
{
    const cJSON *v = i >= 0 ? cJSON_GetArrayItem(row, i) : NULL;
    return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

unsigned html_color(size_t res, unsigned slot, unsigned nslots)
{
    return (unsigned)res * (nslots ? nslots : 1) + slot;
}
