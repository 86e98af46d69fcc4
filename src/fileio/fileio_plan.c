/* fileio_plan.c - one sysbench fileio run as a phase of ssdbench jobs, the
 * interval hook that records sysbench's interval lines, and the document's
 * "fileio" object (see fileio.h).
 *
 * Job layout per run (T threads, N files of size F): one job, numjobs = T,
 * over all N files striped in chunks of F (region N * F). Its workers draw
 * every request from one shared source (fileio_src.c) that generates them
 * as sysbench 1.0.20 does: one sequential cursor, one set of read/write and
 * fsync counters and one event limit for all threads. The source also
 * issues the periodic fsyncs and --file-fsync-all's fsyncs; each worker
 * fsyncs every file at the end (--file-fsync-end, write modes), as each
 * sysbench thread does.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <unistd.h>

#include "base/clock.h"
#include "result/result.h"
#include "fileio/fileio.h"

static const char *const fileio_row_fields[] = {
    "t_ms", "secs", "read_mibps", "write_mibps", "fsyncs_per_s", "pct_ms",
};

static void add_pct(struct job_spec *j, double p)
{
    for (unsigned i = 0; i < j->npercentiles; i++)
        if (j->percentiles[i] == p)
            return;
    if (j->npercentiles < JOB_PCT_MAX)
        j->percentiles[j->npercentiles++] = p;
}

static void set_targets(struct job_spec *j, unsigned first, unsigned n, uint64_t fs)
{
    j->ntargets = n;
    for (unsigned i = 0; i < n; i++)
        fileio_file_name(first + i, j->targets[i], sizeof(j->targets[i]));
    j->layout = n > 1 ? LAYOUT_STRIPE : LAYOUT_JBOD;
    j->stripe_chunk = n > 1 ? fs : 0;
    j->offset = 0;
    j->size = (uint64_t)n * fs;
}

/* Everything but the targets, region, numjobs and event limit. */
static void base_job(const struct fileio_opts *o, unsigned threads, struct job_spec *j)
{
    job_defaults(j);
    j->norandommap = true; /* sysbench draws every offset afresh: no random map */
    snprintf(j->name, sizeof(j->name), "fileio");
    snprintf(j->description, sizeof(j->description), "sysbench fileio %s, %s I/O, %u thread%s",
             fileio_mode_name(o->mode), fileio_io_name(o->io_mode), threads, threads == 1 ? "" : "s");
    switch (o->mode) {
    case FILEIO_SEQWR:
    case FILEIO_SEQREWR: j->rw = RW_WRITE; break;
    case FILEIO_SEQRD: j->rw = RW_READ; break;
    case FILEIO_RNDRD: j->rw = RW_RANDREAD; break;
    case FILEIO_RNDWR: j->rw = RW_RANDWRITE; break;
    case FILEIO_RNDRW: j->rw = RW_RANDRW; break;
    }
    j->rwmixread = (unsigned)lround(100.0 * o->rw_ratio / (1.0 + o->rw_ratio));
    j->pct_random = fileio_mode_random(o->mode) ? 100 : 0;
    uint32_t rq = (uint32_t)fileio_request_size(o);
    for (unsigned d = 0; d < DIR_COUNT; d++) {
        j->bs[d].n = 1;
        j->bs[d].bs[0] = rq;
        j->bs[d].pct[0] = 100;
    }
    switch (o->io_mode) {
    case FILEIO_IO_SYNC: j->engine = ENGINE_PSYNC; j->iodepth = 1; break;
    case FILEIO_IO_ASYNC: j->engine = ENGINE_LIBAIO; j->iodepth = o->async_backlog; break;
    case FILEIO_IO_MMAP: j->engine = ENGINE_MMAP; j->iodepth = 1; break;
    }
    j->direct = (o->extra_flags & FILEIO_FLAG_DIRECT) != 0;
    j->dsync = (o->extra_flags & FILEIO_FLAG_DSYNC) != 0;
    j->osync = (o->extra_flags & FILEIO_FLAG_SYNC) != 0;
    /* time-based: sequential modes wrap; with --time=0 only --events or a
     * signal ends the run, as in sysbench */
    j->time_based = true;
    j->runtime_ns = o->time_s * 1000000000ull;
    if (o->rate)
        j->rate_iops = (double)o->rate / threads;
    if (o->rand_seed) {
        j->seed = o->rand_seed;
        j->seed_set = true;
    }
    j->buffer = o->zero_fill ? BUF_ZERO : BUF_RANDOM;
    /* the periodic and per-write fsyncs come from the source */
    if (fileio_mode_writes(o->mode)) {
        j->end_fsync = o->fsync_end && !o->fsync_all;
        j->end_fdatasync = o->fdatasync;
    }
    j->interval_ns = (o->report_interval ? o->report_interval : 1) * 1000000000ull;
    if (o->percentile)
        add_pct(j, o->percentile);
    j->file_size = fileio_file_size(o);
}

int fileio_jobs(const struct fileio_opts *o, unsigned T, const struct fileio_src *src,
                struct job_spec **jobs, unsigned *njobs, char *err, size_t errlen)
{
    *jobs = NULL;
    *njobs = 0;
    int rc = fileio_check(o, FILEIO_RUN, err, errlen);
    if (rc < 0)
        return rc;
    struct job_spec *js = calloc(1, sizeof(*js));
    if (!js) {
        snprintf(err, errlen, "out of memory");
        return -ENOMEM;
    }
    base_job(o, T, js);
    set_targets(js, 0, o->file_num, fileio_file_size(o));
    js->numjobs = T;
    js->source = src ? fileio_src_ops(src) : NULL;
    *jobs = js;
    *njobs = 1;
    return 0;
}

struct fileio_hook {
    const struct fileio_opts *o;
    fileio_row_fn fn;
    void *arg;
    cJSON *rows;
    struct hist *h;
};

static bool fileio_on_interval(void *arg, const struct runner_interval *iv)
{
    struct fileio_hook *hk = arg;
    const struct io_stats *s = iv->all;
    double secs = (double)(iv->t_end_ns - iv->t_start_ns) / 1e9;
    if (secs <= 0)
        return false;
    bool paced = hk->o->rate > 0; /* as in fileio_summarize */
    hist_init(hk->h);
    hist_merge(hk->h, paced ? &s->dir[DIR_READ].sched : &s->dir[DIR_READ].lat);
    hist_merge(hk->h, paced ? &s->dir[DIR_WRITE].sched : &s->dir[DIR_WRITE].lat);
    hist_merge(hk->h, &s->sync_lat);
    struct fileio_row row = {
        .t_s = (double)iv->t_end_ns / 1e9,
        .secs = secs,
        .read_mibps = (double)s->dir[DIR_READ].bytes / 1048576.0 / secs,
        .write_mibps = (double)s->dir[DIR_WRITE].bytes / 1048576.0 / secs,
        .fsyncs_per_s = (double)s->syncs / secs,
        .pct_ms = (double)fileio_percentile(hk->h, hk->o->percentile) / 1e6,
    };
    cJSON *a = cJSON_CreateArray();
    double v[] = {(double)iv->t_end_ns / 1e6, row.secs, row.read_mibps, row.write_mibps,
                  row.fsyncs_per_s, row.pct_ms};
    for (unsigned i = 0; i < sizeof(v) / sizeof(v[0]); i++)
        cJSON_AddItemToArray(a, cJSON_CreateNumber(v[i]));
    cJSON_AddItemToArray(hk->rows, a);
    if (hk->fn)
        hk->fn(hk->arg, &row);
    return false;
}

void fileio_doc_begin(cJSON *doc, const struct fileio_opts *o, const char *label)
{
    cJSON_DeleteItemFromObjectCaseSensitive(doc, "fileio");
    cJSON *f = cJSON_AddObjectToObject(doc, "fileio");
    cJSON_AddStringToObject(f, "label", label ? label : "");
    cJSON_AddItemToObject(f, "options", fileio_opts_json(o));
    cJSON_AddArrayToObject(f, "scaling");
}

static void add_scaling_row(cJSON *doc, const cJSON *phase, unsigned threads, unsigned pct)
{
    cJSON *f = cJSON_GetObjectItemCaseSensitive(doc, "fileio");
    cJSON *sc = cJSON_GetObjectItemCaseSensitive(f, "scaling");
    const cJSON *rep = cJSON_GetObjectItemCaseSensitive(
        cJSON_GetObjectItemCaseSensitive(phase, "fileio"), "report");
    if (!sc || !rep)
        return;
    const cJSON *lat = cJSON_GetObjectItemCaseSensitive(rep, "latency_ms");
    cJSON *row = cJSON_CreateObject();
    cJSON_AddNumberToObject(row, "threads", threads);
    cJSON_AddStringToObject(row, "phase", result_str(phase, "name", ""));
    double rd = result_num(rep, "read_mibps", 0), wr = result_num(rep, "written_mibps", 0);
    cJSON_AddNumberToObject(row, "mibps", rd + wr);
    cJSON_AddNumberToObject(row, "read_mibps", rd);
    cJSON_AddNumberToObject(row, "write_mibps", wr);
    cJSON_AddNumberToObject(row, "iops", result_num(rep, "reads_per_s", 0) + result_num(rep, "writes_per_s", 0));
    cJSON_AddNumberToObject(row, "percentile", pct);
    if (pct)
        cJSON_AddNumberToObject(row, "pct_ms", result_num(lat, "pct", 0));
    else
        cJSON_AddNullToObject(row, "pct_ms");
    cJSON_AddNumberToObject(row, "avg_ms", result_num(lat, "avg", 0));
    cJSON_AddItemToArray(sc, row);
}

cJSON *fileio_run(cJSON *doc, const struct fileio_opts *o, unsigned threads,
                  const struct runner_opts *base, fileio_row_fn on_row, void *arg,
                  struct plan_status *st, int *rc, char *err, size_t errlen)
{
    struct plan_phase ph;
    memset(&ph, 0, sizeof(ph));
    snprintf(ph.name, sizeof(ph.name), "threads=%u", threads);
    snprintf(ph.kind, sizeof(ph.kind), "fileio");
    uint64_t seed = o->rand_seed ? o->rand_seed : clock_ns() ^ ((uint64_t)getpid() << 32);
    struct fileio_src *src = fileio_src_new(o, threads, seed);
    if (!src) {
        snprintf(err, errlen, "out of memory");
        *rc = -ENOMEM;
        return NULL;
    }
    *rc = fileio_jobs(o, threads, src, &ph.jobs, &ph.njobs, err, errlen);
    if (*rc < 0) {
        fileio_src_free(src);
        return NULL;
    }
    struct fileio_hook hk = {.o = o, .fn = on_row, .arg = arg, .rows = cJSON_CreateArray(),
                             .h = malloc(sizeof(struct hist))};
    if (!hk.rows || !hk.h) {
        cJSON_Delete(hk.rows);
        free(hk.h);
        free(ph.jobs);
        fileio_src_free(src);
        snprintf(err, errlen, "out of memory");
        *rc = -ENOMEM;
        return NULL;
    }
    struct runner_opts ro = *base;
    ro.on_interval = fileio_on_interval;
    ro.arg = &hk;
    cJSON *phase = plan_run_phase(doc, &ph, &ro, st, rc, err, errlen);
    struct fileio_src_counts cnt;
    fileio_src_counts(src, &cnt);
    fileio_src_free(src);
    free(ph.jobs);
    free(hk.h);
    if (!phase) {
        cJSON_Delete(hk.rows);
        return NULL;
    }
    cJSON *fo = cJSON_AddObjectToObject(phase, "fileio");
    cJSON_AddNumberToObject(fo, "threads", threads);
    cJSON_AddStringToObject(fo, "io_mode", fileio_io_name(o->io_mode));
    /* what the request stream handed out (sysbench's own counters) */
    cJSON *gen = cJSON_AddObjectToObject(fo, "generated");
    cJSON_AddNumberToObject(gen, "events", (double)cnt.events);
    cJSON_AddNumberToObject(gen, "reads", (double)cnt.reads);
    cJSON_AddNumberToObject(gen, "writes", (double)cnt.writes);
    cJSON_AddNumberToObject(gen, "fsyncs", (double)cnt.fsyncs);
    cJSON_AddNumberToObject(gen, "periodic_fsyncs", (double)cnt.periodic_fsyncs);
    char seedbuf[32];
    snprintf(seedbuf, sizeof(seedbuf), "%llu", (unsigned long long)seed);
    cJSON_AddStringToObject(fo, "rand_seed", seedbuf);
    cJSON *iv = cJSON_AddObjectToObject(fo, "intervals");
    cJSON_AddNumberToObject(iv, "step_s", o->report_interval ? o->report_interval : 1);
    cJSON *fields = cJSON_AddArrayToObject(iv, "fields");
    for (unsigned i = 0; i < sizeof(fileio_row_fields) / sizeof(fileio_row_fields[0]); i++)
        cJSON_AddItemToArray(fields, cJSON_CreateString(fileio_row_fields[i]));
    cJSON_AddItemToObject(iv, "rows", hk.rows);
    *rc = fileio_summarize(phase, o->percentile, o->histogram, err, errlen);
    if (*rc < 0)
        return NULL;
    add_scaling_row(doc, phase, threads, o->percentile);
    return phase;
}
