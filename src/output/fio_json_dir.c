/* fio_json_dir.c - fio's per-direction and latency objects from ssdbench's
 * exact counters and stored histograms (see fio_json_int.h). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "output/fio_json_int.h"
#include "result/result_read.h"

cJSON *fio_json_lat_json(const struct hist *h, const struct fio_json_pcts *pct, bool bins)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "min", h->n ? (double)h->min : 0);
    cJSON_AddNumberToObject(o, "max", h->n ? (double)h->max : 0);
    cJSON_AddNumberToObject(o, "mean", fio_json_round6(hist_mean(h)));
    cJSON_AddNumberToObject(o, "stddev", fio_json_round6(hist_stddev(h)));
    cJSON_AddNumberToObject(o, "N", (double)h->n);
    if (!h->n)
        return o;
    if (pct && pct->n) {
        uint64_t v[FIO_JSON_PCT_MAX];
        hist_percentiles(h, pct->p, pct->n, v);
        cJSON *po = cJSON_AddObjectToObject(o, "percentile");
        for (unsigned i = 0; i < pct->n; i++) {
            char k[48];
            snprintf(k, sizeof(k), "%f", pct->p[i]);
            cJSON_AddNumberToObject(po, k, (double)v[i]);
        }
    }
    if (bins) {
        cJSON *bo = cJSON_AddObjectToObject(o, "bins");
        uint64_t tail = 0;
        for (unsigned i = 0; i < HIST_NBUCKETS; i++) {
            if (!h->counts[i])
                continue;
            uint64_t mid = hist_bucket_mid(i);
            if (mid >= FIO_JSON_BIN_MAX) {
                tail += h->counts[i];
                continue;
            }
            char k[32];
            snprintf(k, sizeof(k), "%llu", (unsigned long long)mid);
            cJSON_AddNumberToObject(bo, k, (double)h->counts[i]);
        }
        if (tail) {
            char k[32];
            snprintf(k, sizeof(k), "%llu", FIO_JSON_BIN_MAX);
            cJSON_AddNumberToObject(bo, k, (double)tail);
        }
    }
    return o;
}

static void add_samples(cJSON *o, const char *pfx, const struct fio_json_samples *s, bool bw,
                        double group_kib_s)
{
    static const struct fio_json_samples none;
    if (!s)
        s = &none;
    char k[32];
    snprintf(k, sizeof(k), "%s_min", pfx);
    cJSON_AddNumberToObject(o, k, s->n ? (double)llround(s->min) : 0);
    snprintf(k, sizeof(k), "%s_max", pfx);
    cJSON_AddNumberToObject(o, k, s->n ? (double)llround(s->max) : 0);
    if (bw) {
        double agg = s->n && group_kib_s > 0 ? 100.0 * s->mean / group_kib_s : 0;
        cJSON_AddNumberToObject(o, "bw_agg", agg > 100.0 ? 100.0 : fio_json_round6(agg));
    }
    snprintf(k, sizeof(k), "%s_mean", pfx);
    cJSON_AddNumberToObject(o, k, fio_json_round6(s->mean));
    snprintf(k, sizeof(k), bw ? "%s_dev" : "%s_stddev", pfx);
    cJSON_AddNumberToObject(o, k, fio_json_round6(s->dev));
    snprintf(k, sizeof(k), "%s_samples", pfx);
    cJSON_AddNumberToObject(o, k, s->n);
}

static cJSON *slat_zero(void)
{
    struct fio_json_pcts none = {0};
    static const struct hist empty; /* n = 0 */
    return fio_json_lat_json(&empty, &none, false);
}

cJSON *fio_json_dir_json(const struct fio_json_dir *d, double secs, const struct fio_json_samples *bw,
                   const struct fio_json_samples *iops, double group_bytes_s, const struct fio_json_pcts *pct,
                   bool plus)
{
    cJSON *o = cJSON_CreateObject();
    /* fio keeps a direction's runtime (and so its rates) only when it
     * moved bytes: cpuio and exec count I/Os of no bytes */
    bool any = d->ios > 0 && secs > 0, moved = any && d->bytes > 0;
    double bw_bytes = moved ? floor((double)d->bytes / secs) : 0;
    cJSON_AddNumberToObject(o, "io_bytes", (double)(d->bytes + d->only_bytes));
    cJSON_AddNumberToObject(o, "io_kbytes", (double)((d->bytes + d->only_bytes) >> 10));
    cJSON_AddNumberToObject(o, "bw_bytes", bw_bytes);
    cJSON_AddNumberToObject(o, "bw", floor(bw_bytes / 1024.0));
    /* fio counts an I/O at its issue: a failed one is in total_ios and iops */
    cJSON_AddNumberToObject(o, "iops", moved ? fio_json_round6((double)(d->ios + d->errors) / secs) : 0);
    cJSON_AddNumberToObject(o, "runtime", moved ? (double)llround(secs * 1000.0) : 0);
    cJSON_AddNumberToObject(o, "total_ios", (double)(d->ios + d->errors + d->only_ios));
    cJSON_AddNumberToObject(o, "short_ios", 0);
    cJSON_AddNumberToObject(o, "drop_ios", 0);
    /* fio's switches: a latency not measured is all zero; percentiles
     * (and json+ bins) only where asked for */
    static const struct hist none; /* n = 0 */
    bool no_lat = pct && pct->no_lat, no_clat = pct && pct->no_clat;
    const struct fio_json_pcts *cpct = pct && pct->clat_pct_off ? NULL : pct;
    const struct fio_json_pcts *lpct = pct && pct->lat_pct ? pct : NULL;
    const struct fio_json_pcts *spct = pct && pct->slat_pct ? pct : NULL;
    if (d->slat.n) {
        cJSON_AddItemToObject(o, "slat_ns", fio_json_lat_json(&d->slat, spct, plus && spct));
        cJSON_AddItemToObject(o, "clat_ns", fio_json_lat_json(no_clat ? &none : &d->clat, cpct, plus && cpct));
    } else {
        cJSON_AddItemToObject(o, "slat_ns", slat_zero());
        cJSON_AddItemToObject(o, "clat_ns", fio_json_lat_json(no_clat ? &none : &d->lat, cpct, plus && cpct));
    }
    /* json+: bins wherever percentiles are (fio: slat_, clat_, lat_percentiles) */
    cJSON_AddItemToObject(o, "lat_ns", fio_json_lat_json(no_lat ? &none : &d->lat, lpct, plus && lpct));
    if (d->paced)
        cJSON_AddItemToObject(o, "ssdbench_sched_lat_ns", fio_json_lat_json(&d->sched, pct, false));
    add_samples(o, "bw", moved ? bw : NULL, true, group_bytes_s / 1024.0);
    add_samples(o, "iops", any ? iops : NULL, false, 0);
    return o;
}

cJSON *fio_json_dir_zero(void)
{
    static const struct fio_json_dir zero; /* every count 0, empty histogram */
    return fio_json_dir_json(&zero, 0, NULL, NULL, 0, NULL, false);
}

/* fio's buckets: each key is the bucket's exclusive upper bound. */
static const unsigned fio_json_edges[] = {2, 4, 10, 20, 50, 100, 250, 500, 750, 1000};
#define FIO_JSON_NEDGES (sizeof(fio_json_edges) / sizeof(fio_json_edges[0]))

static double frac_ge(const struct hist *h, uint64_t v)
{
    return v == 0 ? 1.0 : hist_frac_ge(h, v);
}

/* Share in percent of [lo, hi) (hi = 0: no upper bound). */
static double share(const struct hist *h, uint64_t lo, uint64_t hi)
{
    if (!h->n)
        return 0;
    double s = frac_ge(h, lo) - (hi ? frac_ge(h, hi) : 0);
    return s > 0 ? fio_json_round6(100.0 * s) : 0;
}

void fio_json_latency_dists(cJSON *job, const struct hist *h)
{
    /* fio files a latency below 1000 ns under ns, below 1 ms under us (by
     * whole microseconds), else under ms (by whole milliseconds); so the
     * first us bucket starts at 1000 ns and the first ms bucket at 1 ms. */
    static const char *const names[] = {"latency_ns", "latency_us", "latency_ms"};
    uint64_t unit = 1;
    for (unsigned u = 0; u < 3; u++, unit *= 1000) {
        cJSON *t = cJSON_AddObjectToObject(job, names[u]);
        uint64_t lo = u == 0 ? 0 : unit;
        for (unsigned i = 0; i < FIO_JSON_NEDGES; i++) {
            char k[16];
            uint64_t hi = (uint64_t)fio_json_edges[i] * unit;
            snprintf(k, sizeof(k), "%u", fio_json_edges[i]);
            cJSON_AddNumberToObject(t, k, share(h, lo, hi));
            lo = hi;
        }
        if (u == 2) {
            cJSON_AddNumberToObject(t, "2000", share(h, 1000000000ull, 2000000000ull));
            cJSON_AddNumberToObject(t, ">=2000", share(h, 2000000000ull, 0));
        }
    }
}

void fio_json_iodepth_dist(cJSON *job, const double *counts)
{
    static const char *const keys[] = {"1", "2", "4", "8", "16", "32", ">=64"};
    double total = 0;
    for (unsigned i = 0; i < 7; i++)
        total += counts[i];
    cJSON *t = cJSON_AddObjectToObject(job, "iodepth_level");
    for (unsigned i = 0; i < 7; i++) {
        /* fio's stat_calc_dist: a share below 0.1 % that is not zero shows as 0.1 % */
        double v = total > 0 ? 100.0 * counts[i] / total : 0;
        if (v > 0 && v < 0.1)
            v = 0.1;
        cJSON_AddNumberToObject(t, keys[i], fio_json_round6(v));
    }
}

void fio_json_iodepth_level(cJSON *job, double depth)
{
    static const char *const keys[] = {"1", "2", "4", "8", "16", "32", ">=64"};
    long long d = llround(depth);
    unsigned b = 0;
    while (b < 6 && d >= (2LL << b))
        b++;
    cJSON *t = cJSON_AddObjectToObject(job, "iodepth_level");
    for (unsigned i = 0; i < 7; i++)
        cJSON_AddNumberToObject(t, keys[i], i == b ? 100.0 : 0.0);
}

void fio_json_samples_from_rows(const cJSON *intervals, const cJSON *rows, double step_ms, const char *field,
                          double scale, struct fio_json_samples *out)
{
    memset(out, 0, sizeof(*out));
    int col = result_field_index(intervals, field), tcol = result_field_index(intervals, "t_ms");
    if (col < 0)
        return;
    double mean = 0, m2 = 0, prev_t = 0;
    const cJSON *row;
    cJSON_ArrayForEach(row, rows)
    {
        const cJSON *c = cJSON_GetArrayItem(row, col);
        const cJSON *t = tcol >= 0 ? cJSON_GetArrayItem(row, tcol) : NULL;
        if (!cJSON_IsNumber(c))
            continue;
        if (cJSON_IsNumber(t)) {
            /* t_ms is whole ms: a whole step may read 1 ms short */
            bool whole = t->valuedouble - prev_t + 1.0 >= step_ms;
            prev_t = t->valuedouble;
            if (!whole)
                continue;
        }
        double v = c->valuedouble * scale;
        if (out->n == 0 || v < out->min)
            out->min = v;
        if (out->n == 0 || v > out->max)
            out->max = v;
        out->n++;
        double delta = v - mean;
        mean += delta / out->n;
        m2 += delta * (v - mean);
    }
    out->mean = mean;
    out->dev = out->n > 1 ? sqrt(m2 / (out->n - 1)) : 0;
}

void fio_json_add_prios(cJSON *dir, const struct prio_dir *p, const struct fio_json_pcts *pct, bool plus)
{
    unsigned with = 0;
    for (unsigned i = 0; i < p->n; i++)
        with += p->h[i]->n > 0;
    if (with < 2 || !dir)
        return;
    /* fio: percentiles when clat_percentiles or lat_percentiles is on */
    bool on = pct->lat_pct || !pct->clat_pct_off;
    cJSON *arr = cJSON_CreateArray();
    for (unsigned i = 0; i < p->n; i++) {
        if (!p->h[i]->n)
            continue;
        cJSON *o = cJSON_CreateObject();
        cJSON_AddNumberToObject(o, "prioclass", p->ioprio[i] >> 13);
        cJSON_AddNumberToObject(o, "prio", p->ioprio[i] & 7);
        cJSON_AddItemToObject(o, pct->lat_pct ? "lat_ns" : "clat_ns",
                              fio_json_lat_json(p->h[i], on ? pct : NULL, plus && on));
        cJSON_AddItemToArray(arr, o);
    }
    /* in fio's place: right after lat_ns */
    cJSON *lat = NULL, *it;
    cJSON_ArrayForEach(it, dir)
        if (it->string && !strcmp(it->string, "lat_ns")) /* the object fio_json_dir_json made */
            lat = it;
    cJSON_AddItemToObject(dir, "prios", arr);
    if (lat && lat->next && lat->next != arr) {
        cJSON_DetachItemViaPointer(dir, arr);
        arr->prev = lat;
        arr->next = lat->next;
        lat->next->prev = arr;
        lat->next = arr;
    }
}
