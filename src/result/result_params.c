/* result_params.c - a job's parameters as the result records them (the
 * "params" object of every job: what ran, in the job file's words). */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "job/dist.h"
#include "job/gen.h"
#include "engine/engine.h"
#include "result/result.h"
#include "result/result_params_fio.h"

static cJSON *bssplit_json(const struct job_bssplit *b)
{
    cJSON *a = cJSON_CreateArray();
    for (unsigned i = 0; i < b->n; i++) {
        cJSON *e = cJSON_CreateArray();
        cJSON_AddItemToArray(e, cJSON_CreateNumber(b->bs[i]));
        cJSON_AddItemToArray(e, cJSON_CreateNumber(b->pct[i]));
        cJSON_AddItemToArray(a, e);
    }
    return a;
}

/* fio's io_uring options as given: each knob "on", "off" or "default"
 * (ssdbench's choice, see job.h); the others only when set. */
static cJSON *uring_json(const struct engine_uring_opts *u)
{
    static const char *const knob[] = {"default", "off", "on"};
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "hipri", knob[u->hipri % 3]);
    cJSON_AddStringToObject(o, "fixedbufs", knob[u->fixedbufs % 3]);
    cJSON_AddStringToObject(o, "registerfiles", knob[u->registerfiles % 3]);
    cJSON_AddStringToObject(o, "nonvectored", knob[u->nonvectored % 3]);
    cJSON_AddBoolToObject(o, "sqthread_poll", u->sqthread_poll);
    if (u->sqthread_poll_cpu_set)
        cJSON_AddNumberToObject(o, "sqthread_poll_cpu", u->sqthread_poll_cpu);
    cJSON_AddBoolToObject(o, "uncached", u->uncached);
    cJSON_AddBoolToObject(o, "nowait", u->nowait);
    cJSON_AddNumberToObject(o, "force_async", u->force_async);
    return o;
}

/* {"key": "value", ...} from "key\tvalue\n" lines. */
static cJSON *written_json(const char *s)
{
    cJSON *o = cJSON_CreateObject();
    while (*s) {
        const char *tab = strchr(s, '\t'), *nl = tab ? strchr(tab, '\n') : NULL;
        if (!nl)
            break;
        char k[256], v[JOB_WRITTEN_MAX];
        snprintf(k, sizeof(k), "%.*s", (int)(tab - s), s);
        snprintf(v, sizeof(v), "%.*s", (int)(nl - tab - 1), tab + 1);
        cJSON_DeleteItemFromObjectCaseSensitive(o, k); /* a later key wins */
        cJSON_AddStringToObject(o, k, v);
        s = nl + 1;
    }
    return o;
}

cJSON *result_job_params(const struct job_spec *j)
{
    cJSON *p = cJSON_CreateObject();
    if (j->clones)
        cJSON_AddNumberToObject(p, "clones", j->clones);
    if (j->fio_thread)
        cJSON_AddBoolToObject(p, "thread", true);
    if (j->written_opts[0] || j->written_global[0]) {
        cJSON *w = cJSON_AddObjectToObject(p, "written");
        cJSON_AddItemToObject(w, "job", written_json(j->written_opts));
        cJSON_AddItemToObject(w, "global", written_json(j->written_global));
    }
    cJSON_AddStringToObject(p, "rw", job_rw_name(j->rw));
    if (j->rw == RW_RW || j->rw == RW_RANDRW) {
        cJSON_AddNumberToObject(p, "rwmixread", j->rwmixread);
        if (j->rwmix_read_frac > 0)
            cJSON_AddNumberToObject(p, "rwmix_read_frac", j->rwmix_read_frac);
    }
    if (j->bs[DIR_READ].n == 1 && j->bs[DIR_WRITE].n == 1 && j->bs[0].bs[0] == j->bs[1].bs[0] &&
        (!job_rw_trims(j) || (j->bs[DIR_TRIM].n == 1 && j->bs[DIR_TRIM].bs[0] == j->bs[0].bs[0])))
        cJSON_AddNumberToObject(p, "bs", j->bs[0].bs[0]);
    cJSON *bss = cJSON_AddObjectToObject(p, "bssplit");
    cJSON_AddItemToObject(bss, "read", bssplit_json(&j->bs[DIR_READ]));
    cJSON_AddItemToObject(bss, "write", bssplit_json(&j->bs[DIR_WRITE]));
    if (job_rw_trims(j))
        cJSON_AddItemToObject(bss, "trim", bssplit_json(&j->bs[DIR_TRIM]));
    cJSON_AddNumberToObject(p, "iodepth", j->iodepth);
    cJSON_AddNumberToObject(p, "numjobs", j->numjobs);
    cJSON_AddStringToObject(p, "engine", job_engine_name(j->engine));
    if (j->engine == ENGINE_IO_URING)
        cJSON_AddItemToObject(p, "io_uring", uring_json(&j->uring));
    cJSON_AddBoolToObject(p, "direct", j->direct);
    cJSON_AddBoolToObject(p, "dsync", j->dsync);
    cJSON_AddBoolToObject(p, "osync", j->osync);
    cJSON_AddStringToObject(p, "layout", job_layout_name(j->layout));
    if (j->layout == LAYOUT_STRIPE)
        cJSON_AddNumberToObject(p, "stripe_chunk", (double)j->stripe_chunk);
    /* fio's file set and file life cycle (target/fileset.h) */
    if (j->layout == LAYOUT_FILES) {
        static const char *const svc[] = {"roundrobin", "sequential", "random", "zipf", "pareto", "normal"};
        cJSON *fs = cJSON_AddObjectToObject(p, "fileset");
        cJSON_AddNumberToObject(fs, "nrfiles", j->nrfiles);
        cJSON_AddNumberToObject(fs, "openfiles", j->openfiles && j->openfiles < j->nrfiles ? j->openfiles : j->nrfiles);
        cJSON_AddStringToObject(fs, "file_service_type", svc[j->file_service]);
        cJSON_AddNumberToObject(fs, "file_service_nr", j->file_service_nr ? j->file_service_nr : 1);
        if (j->file_service >= FSERVICE_ZIPF)
            cJSON_AddNumberToObject(fs, "file_service_param", j->file_service_param);
    }
    if (j->fallocate != FALLOC_UNSET) {
        static const char *const fa[] = {"", "none", "native", "posix", "keep", "truncate"};
        cJSON_AddStringToObject(p, "fallocate", fa[j->fallocate]);
    }
    if (j->invalidate)
        cJSON_AddBoolToObject(p, "invalidate", true);
    if (j->pre_read)
        cJSON_AddBoolToObject(p, "pre_read", true);
    cJSON *r = cJSON_AddObjectToObject(p, "range");
    cJSON_AddNumberToObject(r, "offset", (double)j->offset);
    cJSON_AddNumberToObject(r, "offset_pct", j->offset_pct);
    cJSON_AddNumberToObject(r, "size", (double)j->size);
    cJSON_AddNumberToObject(r, "size_pct", j->size_pct);
    cJSON_AddNumberToObject(p, "io_limit", (double)j->io_limit);
    if (j->ios_limit)
        cJSON_AddNumberToObject(p, "ios_limit", (double)j->ios_limit);
    /* fio job-file options that change what is reported or counted */
    if (j->rw_ios_limit)
        cJSON_AddNumberToObject(p, "number_ios", (double)j->rw_ios_limit);
    if (j->unified_rw)
        cJSON_AddStringToObject(p, "unified_rw_reporting", j->unified_rw == 1 ? "mixed" : "both");
    cJSON_AddNumberToObject(p, "runtime_s", (double)j->runtime_ns / 1e9);
    cJSON_AddNumberToObject(p, "ramp_s", (double)j->ramp_ns / 1e9);
    cJSON_AddBoolToObject(p, "time_based", j->time_based);
    if (j->rate_iops > 0) {
        cJSON_AddNumberToObject(p, "rate_iops", j->rate_iops);
        if (j->rate_burst > 1)
            cJSON_AddNumberToObject(p, "rate_burst", j->rate_burst);
    }
    else
        cJSON_AddNullToObject(p, "rate_iops");
    cJSON *d = cJSON_AddObjectToObject(p, "distribution");
    cJSON_AddStringToObject(d, "kind", dist_name(j->dist.kind));
    if (j->dist.kind == DIST_ZONED) {
        cJSON *z = cJSON_AddArrayToObject(d, "zones");
        for (unsigned i = 0; i < j->dist.nzones; i++) {
            cJSON *e = cJSON_CreateArray();
            cJSON_AddItemToArray(e, cJSON_CreateNumber(j->dist.zones[i].access_pct));
            cJSON_AddItemToArray(e, cJSON_CreateNumber(j->dist.zones[i].range_pct));
            cJSON_AddItemToArray(z, e);
        }
    } else if (j->dist.kind != DIST_UNIFORM) {
        cJSON_AddNumberToObject(d, "param", j->dist.param);
    }
    cJSON_AddNumberToObject(p, "pct_random", j->pct_random);
    /* which random map the generator used, and why none (see gen.h) */
    const char *nomap;
    enum gen_map map = gen_map_choice(j, &nomap);
    cJSON_AddStringToObject(p, "random_map", gen_map_name(map));
    if (map == GEN_MAP_NONE)
        cJSON_AddStringToObject(p, "random_map_off", nomap);
    cJSON_AddBoolToObject(p, "norandommap", j->norandommap);
    /* whose draws decide the I/O: fio's own streams (job/fio_rand.h) or ssdbench's */
    cJSON_AddStringToObject(p, "random_stream", gen_fio_stream(j) ? "fio" : "ssdbench");
    cJSON_AddStringToObject(p, "random_generator", job_randgen_name(j->random_generator));
    char seed[32];
    snprintf(seed, sizeof(seed), "%" PRIu64, j->seed);
    cJSON_AddStringToObject(p, "seed", seed);
    const char *buf = j->buffer == BUF_ZERO ? "zero" : j->buffer == BUF_RANDOM ? "random" : "compressible";
    cJSON_AddStringToObject(p, "buffer", buf);
    if (j->buffer == BUF_COMPRESSIBLE)
        cJSON_AddNumberToObject(p, "compress_pct", j->compress_pct);
    cJSON_AddBoolToObject(p, "refill_buffers", j->refill_buffers);
    result_params_fio_extra(p, j); /* buffer contents, scheduling, measurement switches */
    if (j->fsync_every)
        cJSON_AddNumberToObject(p, "fsync", j->fsync_every);
    if (j->fdatasync_every)
        cJSON_AddNumberToObject(p, "fdatasync", j->fdatasync_every);
    cJSON_AddNumberToObject(p, "interval_ms", (double)j->interval_ns / 1e6);
    if (j->group_reporting)
        cJSON_AddBoolToObject(p, "group_reporting", true);
    return p;
}
