/* result_cluster.c - see result_cluster.h. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "result/result.h"
#include "result/result_cluster.h"
#include "stats/hist.h"

static cJSON *dir_json(const struct dir_stats *d, double secs)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "ios", (double)d->ios);
    cJSON_AddNumberToObject(o, "bytes", (double)d->bytes);
    cJSON_AddNumberToObject(o, "errors", (double)d->errors);
    cJSON_AddNumberToObject(o, "iops", secs > 0 ? (double)d->ios / secs : 0);
    cJSON_AddNumberToObject(o, "mbps", secs > 0 ? (double)d->bytes / secs / 1e6 : 0);
    if (d->lat.n) {
        static const double pct[] = {50, 99, 99.9};
        uint64_t v[3];
        hist_percentiles(&d->lat, pct, 3, v);
        cJSON_AddNumberToObject(o, "lat_mean_ns", hist_mean(&d->lat));
        cJSON_AddNumberToObject(o, "lat_p50_ns", (double)v[0]);
        cJSON_AddNumberToObject(o, "lat_p99_ns", (double)v[1]);
        cJSON_AddNumberToObject(o, "lat_p99_9_ns", (double)v[2]);
        cJSON_AddNumberToObject(o, "lat_max_ns", (double)d->lat.max);
    }
    return o;
}

cJSON *result_rank_json(const struct phase_stats *ps, const struct cluster *c)
{
    const struct phase_cluster *pc = ps->cluster;
    cJSON *o = cJSON_CreateObject();
    if (!o || !pc)
        return o;
    cJSON_AddNumberToObject(o, "rank", c->rank);
    cJSON_AddStringToObject(o, "host", c->host);
    cJSON_AddNumberToObject(o, "host_index", c->hostindex);
    cJSON_AddNumberToObject(o, "local_rank", c->localrank);
    cJSON_AddStringToObject(o, "version", SSDBENCH_VERSION);
    cJSON_AddNumberToObject(o, "pid", (double)getpid());
    cJSON_AddNumberToObject(o, "start_skew_us", (double)pc->start_skew_ns / 1e3);
    double secs = (double)pc->elapsed_ns / 1e9;
    cJSON_AddNumberToObject(o, "elapsed_s", secs);
    cJSON_AddNumberToObject(o, "error_total", (double)pc->error_total);
    struct io_stats *tot = calloc(1, sizeof(*tot));
    if (tot) {
        iostats_init(tot);
        for (unsigned j = 0; j < ps->njobs; j++)
            iostats_merge(tot, &pc->job_total[j]);
        cJSON_AddItemToObject(o, "read", dir_json(&tot->dir[DIR_READ], secs));
        cJSON_AddItemToObject(o, "write", dir_json(&tot->dir[DIR_WRITE], secs));
        cJSON_AddNumberToObject(o, "syncs", (double)tot->syncs);
        free(tot);
    }
    cJSON *el = cJSON_AddArrayToObject(o, "errors");
    for (unsigned e = 0; e < ps->nerrors; e++) {
        const struct runner_error *re = &ps->errors[e];
        cJSON *eo = cJSON_CreateObject();
        cJSON_AddStringToObject(eo, "target", re->target < ps->ntargets ? ps->targets[re->target].path : "?");
        cJSON_AddNumberToObject(eo, "offset", (double)re->offset);
        cJSON_AddNumberToObject(eo, "errno", re->err);
        cJSON_AddStringToObject(eo, "message", strerror(re->err));
        cJSON_AddNumberToObject(eo, "count", (double)re->count);
        cJSON_AddItemToArray(el, eo);
    }
    cJSON *tl = cJSON_AddArrayToObject(o, "targets");
    for (unsigned t = 0; t < ps->ntargets; t++) {
        const struct target_info *ti = &ps->targets[t];
        cJSON *to = cJSON_CreateObject();
        cJSON_AddStringToObject(to, "path", ti->path);
        cJSON_AddStringToObject(to, "device", ti->devname);
        cJSON_AddStringToObject(to, "model", ti->model);
        cJSON_AddStringToObject(to, "serial", ti->serial);
        cJSON_AddStringToObject(to, "firmware", ti->firmware);
        cJSON_AddNumberToObject(to, "size", (double)ti->size);
        const struct kernel_stats *k = ps->kstats ? &ps->kstats[t] : NULL;
        if (k && k->valid) {
            cJSON *ko = cJSON_AddObjectToObject(to, "kernel_stats");
            cJSON_AddNumberToObject(ko, "read_ios", (double)k->read_ios);
            cJSON_AddNumberToObject(ko, "read_merges", (double)k->read_merges);
            cJSON_AddNumberToObject(ko, "write_ios", (double)k->write_ios);
            cJSON_AddNumberToObject(ko, "write_merges", (double)k->write_merges);
            cJSON_AddNumberToObject(ko, "read_bytes", (double)k->read_sectors * 512);
            cJSON_AddNumberToObject(ko, "write_bytes", (double)k->write_sectors * 512);
            if (k->has_flush)
                cJSON_AddNumberToObject(ko, "flush_ios", (double)k->flush_ios);
        }
        cJSON_AddItemToArray(tl, to);
    }
    return o;
}

/* Adds a rank's direction figures (ios, bytes, errors) into a host's. */
static void add_dir(cJSON *host, const char *dir, const cJSON *rank)
{
    const cJSON *src = cJSON_GetObjectItemCaseSensitive(rank, dir);
    cJSON *dst = cJSON_GetObjectItemCaseSensitive(host, dir);
    static const char *const keys[] = {"ios", "bytes", "errors"};
    for (unsigned i = 0; i < 3; i++) {
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(src, keys[i]);
        cJSON *w = cJSON_GetObjectItemCaseSensitive(dst, keys[i]);
        if (cJSON_IsNumber(v) && cJSON_IsNumber(w))
            cJSON_SetNumberValue(w, w->valuedouble + v->valuedouble);
    }
}

void result_add_cluster(cJSON *phase, const struct phase_stats *ps, cJSON *ranks)
{
    cJSON *co = cJSON_AddObjectToObject(phase, "cluster");
    if (!co) {
        cJSON_Delete(ranks);
        return;
    }
    const struct phase_cluster *pc = ps->cluster;
    cJSON_AddNumberToObject(co, "nranks", pc ? pc->nranks : 1);
    bool timed = true;
    for (unsigned j = 0; j < ps->njobs; j++)
        timed &= ps->jobs[j].time_based;
    /* time-based phases end at the agreed start + runtime on every rank;
     * the others when the slowest rank has done its share */
    cJSON_AddStringToObject(co, "ended_by", timed ? "agreed-time" : "slowest-rank");
    double skew_max = 0, skew_min = 0;
    cJSON *hosts = cJSON_CreateArray();
    cJSON *r;
    double secs = (double)ps->elapsed_ns / 1e9;
    bool first = true;
    cJSON_ArrayForEach(r, ranks) {
        double s = result_num(r, "start_skew_us", 0);
        if (first || s > skew_max)
            skew_max = s;
        if (first || s < skew_min)
            skew_min = s;
        first = false;
        const cJSON *hn = cJSON_GetObjectItemCaseSensitive(r, "host");
        const char *name = cJSON_IsString(hn) ? hn->valuestring : "?";
        cJSON *h = NULL, *x;
        cJSON_ArrayForEach(x, hosts) {
            const cJSON *n = cJSON_GetObjectItemCaseSensitive(x, "host");
            if (cJSON_IsString(n) && !strcmp(n->valuestring, name))
                h = x;
        }
        if (!h) {
            h = cJSON_CreateObject();
            cJSON_AddStringToObject(h, "host", name);
            cJSON_AddNumberToObject(h, "ranks", 0);
            for (unsigned d = 0; d < 2; d++) {
                cJSON *dd = cJSON_AddObjectToObject(h, d ? "write" : "read");
                cJSON_AddNumberToObject(dd, "ios", 0);
                cJSON_AddNumberToObject(dd, "bytes", 0);
                cJSON_AddNumberToObject(dd, "errors", 0);
            }
            cJSON_AddItemToArray(hosts, h);
        }
        cJSON *nr = cJSON_GetObjectItemCaseSensitive(h, "ranks");
        cJSON_SetNumberValue(nr, nr->valuedouble + 1);
        add_dir(h, "read", r);
        add_dir(h, "write", r);
    }
    /* rates of a host over the cluster's phase time */
    cJSON *h;
    cJSON_ArrayForEach(h, hosts) {
        for (unsigned d = 0; d < 2; d++) {
            cJSON *dd = cJSON_GetObjectItemCaseSensitive(h, d ? "write" : "read");
            double ios = cJSON_GetObjectItemCaseSensitive(dd, "ios")->valuedouble;
            double bytes = cJSON_GetObjectItemCaseSensitive(dd, "bytes")->valuedouble;
            cJSON_AddNumberToObject(dd, "iops", secs > 0 ? ios / secs : 0);
            cJSON_AddNumberToObject(dd, "mbps", secs > 0 ? bytes / secs / 1e6 : 0);
        }
    }
    cJSON_AddNumberToObject(co, "nhosts", cJSON_GetArraySize(hosts));
    if (pc)
        cJSON_AddNumberToObject(co, "agreed_start_unix_s", (double)pc->agreed_start_wall_ns / 1e9);
    cJSON_AddNumberToObject(co, "start_skew_min_us", skew_min);
    cJSON_AddNumberToObject(co, "start_skew_max_us", skew_max);
    cJSON_AddItemToObject(co, "hosts", hosts);
    cJSON_AddItemToObject(co, "ranks", ranks);
}
