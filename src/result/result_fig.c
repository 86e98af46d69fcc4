/* result_fig.c - see result_fig.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "result/result_hist.h"
#include "result/result.h"
#include "result/result_fig.h"

/* Combines per-direction counts and histograms; h[d] may be empty. */
static void combine(const double ios[2], const double bytes[2], const struct hist *h[2],
                    double secs, struct hist *scratch, struct result_fig *f)
{
    memset(f, 0, sizeof(*f));
    hist_init(scratch);
    unsigned ndir = 0;
    for (int d = 0; d < 2; d++) {
        f->ios += ios[d];
        if (secs > 0) {
            double r = ios[d] / secs;
            if (d == 0)
                f->read_iops = r;
            else
                f->write_iops = r;
            f->mbps += bytes[d] / secs / 1e6;
        }
        if (h[d]->n == 0)
            continue;
        ndir++;
        f->lat_avg_ns += hist_mean(h[d]);
        f->lat_sd_avg_ns += hist_stddev(h[d]);
        if ((double)h[d]->max > f->lat_max_ns)
            f->lat_max_ns = (double)h[d]->max;
        hist_merge(scratch, h[d]);
    }
    f->iops = f->read_iops + f->write_iops;
    if (ndir) {
        f->lat_avg_ns /= ndir;
        f->lat_sd_avg_ns /= ndir;
    }
    f->lat_mean_ns = hist_mean(scratch);
    f->lat_sd_ns = hist_stddev(scratch);
    f->p99_ns = (double)hist_percentile(scratch, 99.0);
}

void result_fig_from_stats(const struct io_stats *s, double secs, struct hist *scratch,
                          struct result_fig *f)
{
    double ios[2], bytes[2];
    const struct hist *h[2];
    for (int d = 0; d < 2; d++) {
        ios[d] = (double)s->dir[d].ios;
        bytes[d] = (double)s->dir[d].bytes;
        h[d] = &s->dir[d].lat;
    }
    combine(ios, bytes, h, secs, scratch, f);
}

int result_fig_from_scope(const cJSON *scope, struct result_fig *f, char *err, size_t errlen)
{
    struct hist *hs = malloc(3 * sizeof(*hs));
    if (!hs) {
        snprintf(err, errlen, "out of memory");
        return -ENOMEM;
    }
    double ios[2], bytes[2];
    const struct hist *h[2];
    int rc = 0;
    for (int d = 0; d < 2 && rc == 0; d++) {
        const cJSON *dir = cJSON_GetObjectItemCaseSensitive(scope, d ? "write" : "read");
        ios[d] = result_num(dir, "ios", 0);
        bytes[d] = result_num(dir, "bytes", 0);
        const cJSON *lat = cJSON_GetObjectItemCaseSensitive(dir, "latency_ns");
        const cJSON *hj = cJSON_GetObjectItemCaseSensitive(lat, "histogram");
        hist_init(&hs[d]);
        if (hj)
            rc = result_hist_from_json(hj, &hs[d], err, errlen);
        h[d] = &hs[d];
    }
    if (rc == 0)
        combine(ios, bytes, h, result_num(scope, "elapsed_s", 0), &hs[2], f);
    free(hs);
    return rc;
}

static const char *const fig_keys[] = {"ios",        "iops",          "read_iops",  "write_iops",
                                       "mbps",       "lat_avg_ns",    "lat_sd_avg_ns",
                                       "lat_max_ns", "lat_mean_ns",   "lat_sd_ns",  "p99_ns"};

static double *fig_field(struct result_fig *f, unsigned i)
{
    double *p[] = {&f->ios,        &f->iops,          &f->read_iops,  &f->write_iops,
                   &f->mbps,       &f->lat_avg_ns,    &f->lat_sd_avg_ns,
                   &f->lat_max_ns, &f->lat_mean_ns,   &f->lat_sd_ns,  &f->p99_ns};
    return p[i];
}

cJSON *result_fig_json(const struct result_fig *f)
{
    cJSON *o = cJSON_CreateObject();
    struct result_fig c = *f;
    for (unsigned i = 0; i < sizeof(fig_keys) / sizeof(fig_keys[0]); i++)
        cJSON_AddNumberToObject(o, fig_keys[i], *fig_field(&c, i));
    return o;
}

void result_fig_from_json(const cJSON *o, struct result_fig *f)
{
    memset(f, 0, sizeof(*f));
    for (unsigned i = 0; i < sizeof(fig_keys) / sizeof(fig_keys[0]); i++)
        *fig_field(f, i) = result_num(o, fig_keys[i], 0);
}
