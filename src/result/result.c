/* result.c - see result.h. */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysinfo.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "base/clock.h"
#include "base/hostcpu.h"
#include "base/signal.h"
#include "engine/engine.h"
#include "result/result_hist.h"
#include "result/journal.h"
#include "result/host_busy.h"
#include "result/result.h"
#include "result/result_check.h"
#include "result/result_device.h"
#include "result/result_verify.h"
#include "job/dist.h"
#include "job/gen.h"

static const double over_ms[] = {1, 2, 4, 8, 16, 32, 64};


static void iso_time(uint64_t wall_ns, char *buf, size_t len)
{
    time_t t = (time_t)(wall_ns / 1000000000ull);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

static cJSON *host_json(void)
{
    cJSON *h = cJSON_CreateObject();
    char name[256] = "";
    gethostname(name, sizeof(name) - 1);
    cJSON_AddStringToObject(h, "hostname", name);
    struct utsname u;
    if (uname(&u) == 0) {
        cJSON_AddStringToObject(h, "kernel", u.release);
        cJSON_AddStringToObject(h, "arch", u.machine);
    }
    char model[256] = "";
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (f) {
        char line[512];
        while (fgets(line, sizeof(line), f))
            if (strncmp(line, "model name", 10) == 0) {
                char *c = strchr(line, ':');
                if (c) {
                    snprintf(model, sizeof(model), "%s", c + 2);
                    model[strcspn(model, "\n")] = 0;
                }
                break;
            }
        fclose(f);
    }
    cJSON_AddStringToObject(h, "cpu_model", model);
    cJSON_AddNumberToObject(h, "cpus", (double)sysconf(_SC_NPROCESSORS_ONLN));
    struct sysinfo si;
    if (sysinfo(&si) == 0) {
        cJSON_AddNumberToObject(h, "memory_bytes", (double)si.totalram * si.mem_unit);
        cJSON_AddNumberToObject(h, "loadavg_1m_start", (double)si.loads[0] / 65536.0);
    }
    return h;
}

cJSON *result_new(int argc, char **argv)
{
    cJSON *doc = cJSON_CreateObject();
    if (!doc)
        return NULL;
    cJSON_AddStringToObject(doc, "schema", RESULT_SCHEMA);
    cJSON *tool = cJSON_AddObjectToObject(doc, "tool");
    cJSON_AddStringToObject(tool, "name", "ssdbench");
    cJSON_AddStringToObject(tool, "version", SSDBENCH_VERSION);
    cJSON_AddNumberToObject(tool, "pid", (double)getpid());
    cJSON *cl = cJSON_AddArrayToObject(tool, "command_line");
    for (int i = 0; i < argc; i++)
        cJSON_AddItemToArray(cl, cJSON_CreateString(argv[i]));
    char ts[64];
    uint64_t now = clock_wall_ns();
    iso_time(now, ts, sizeof(ts));
    cJSON_AddStringToObject(doc, "started", ts);
    cJSON_AddNumberToObject(doc, "started_unix_ms", (double)(now / 1000000ull));
    cJSON_AddItemToObject(doc, "host", host_json());
    cJSON_AddArrayToObject(doc, "targets");
    cJSON_AddArrayToObject(doc, "phases");
    cJSON_AddArrayToObject(doc, "errors");
    struct hostcpu hc;
    hostcpu_read(&hc);
    cJSON *priv = cJSON_AddArrayToObject(doc, "_start");
    cJSON_AddItemToArray(priv, cJSON_CreateNumber(hc.busy));
    cJSON_AddItemToArray(priv, cJSON_CreateNumber(hc.steal));
    cJSON_AddItemToArray(priv, cJSON_CreateNumber(hc.total));
    cJSON_AddItemToArray(priv, cJSON_CreateNumber((double)clock_ns()));
    cJSON_AddItemToArray(priv, cJSON_CreateNumber(hc.iowait));
    cJSON_AddItemToArray(priv, cJSON_CreateBool(hc.valid));
    return doc;
}

static const char *target_kind(enum target_kind k)
{
    return k == TARGET_BLOCK ? "block" : k == TARGET_FILE ? "file" : "none";
}

/* Returns the id ("t0", ...) of a target in the document, adding it if new. */
static const char *doc_target(cJSON *doc, const struct target_info *ti)
{
    cJSON *arr = cJSON_GetObjectItemCaseSensitive(doc, "targets");
    cJSON *t;
    cJSON_ArrayForEach(t, arr)
        if (strcmp(result_str(t, "resolved", ""), ti->resolved) == 0)
            return result_str(t, "id", "?");
    char id[16];
    snprintf(id, sizeof(id), "t%d", cJSON_GetArraySize(arr));
    t = cJSON_CreateObject();
    cJSON_AddStringToObject(t, "id", id);
    cJSON_AddStringToObject(t, "path", ti->path);
    cJSON_AddStringToObject(t, "resolved", ti->resolved);
    cJSON_AddStringToObject(t, "kind", target_kind(ti->kind));
    cJSON_AddNumberToObject(t, "size_bytes", (double)ti->size);
    cJSON_AddNumberToObject(t, "logical_block", ti->logical_block);
    cJSON_AddNumberToObject(t, "physical_block", ti->physical_block);
    cJSON_AddBoolToObject(t, "created", ti->created);
    if (ti->guard_note[0])
        cJSON_AddStringToObject(t, "guard_note", ti->guard_note);
    if (ti->kind == TARGET_BLOCK) {
        cJSON *d = cJSON_AddObjectToObject(t, "device");
        cJSON_AddStringToObject(d, "name", ti->devname);
        cJSON_AddStringToObject(d, "model", ti->model);
        cJSON_AddStringToObject(d, "serial", ti->serial);
        cJSON_AddStringToObject(d, "firmware", ti->firmware);
        if (ti->rotational >= 0)
            cJSON_AddBoolToObject(d, "rotational", ti->rotational);
        else
            cJSON_AddNullToObject(d, "rotational");
        cJSON_AddStringToObject(d, "scheduler", ti->scheduler);
        cJSON_AddStringToObject(d, "write_cache", ti->write_cache);
        if (ti->backing_file[0])
            cJSON_AddStringToObject(d, "backing_file", ti->backing_file);
    }
    cJSON_AddItemToArray(arr, t);
    return result_str(t, "id", "?");
}


static cJSON *latency_json(const struct hist *h, const struct job_spec *j)
{
    cJSON *l = cJSON_CreateObject();
    cJSON_AddNumberToObject(l, "n", (double)h->n);
    cJSON_AddNumberToObject(l, "min", h->n ? (double)h->min : 0);
    cJSON_AddNumberToObject(l, "max", h->n ? (double)h->max : 0);
    cJSON_AddNumberToObject(l, "mean", hist_mean(h));
    cJSON_AddNumberToObject(l, "stddev", hist_stddev(h));
    cJSON *pc = cJSON_AddObjectToObject(l, "percentiles");
    uint64_t vals[JOB_PCT_MAX];
    hist_percentiles(h, j->percentiles, j->npercentiles, vals);
    for (unsigned i = 0; i < j->npercentiles; i++) {
        char k[32];
        snprintf(k, sizeof(k), "%g", j->percentiles[i]);
        cJSON_AddNumberToObject(pc, k, (double)vals[i]);
    }
    cJSON *om = cJSON_AddObjectToObject(l, "pct_over_ms");
    for (unsigned i = 0; i < sizeof(over_ms) / sizeof(over_ms[0]); i++) {
        char k[16];
        snprintf(k, sizeof(k), "%g", over_ms[i]);
        cJSON_AddNumberToObject(om, k, h->n ? 100.0 * hist_frac_ge(h, (uint64_t)(over_ms[i] * 1e6)) : 0);
    }
    cJSON_AddItemToObject(l, "histogram", result_hist_to_json(h));
    return l;
}

static cJSON *dir_json(const struct dir_stats *d, double secs, const struct job_spec *j, bool paced)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "ios", (double)d->ios);
    cJSON_AddNumberToObject(o, "bytes", (double)d->bytes);
    cJSON_AddNumberToObject(o, "iops", secs > 0 ? (double)d->ios / secs : 0);
    cJSON_AddNumberToObject(o, "mbps", secs > 0 ? (double)d->bytes / secs / 1e6 : 0);
    cJSON_AddNumberToObject(o, "mibps", secs > 0 ? (double)d->bytes / secs / 1048576.0 : 0);
    cJSON_AddNumberToObject(o, "errors", (double)d->errors);
    cJSON_AddItemToObject(o, "latency_ns", latency_json(&d->lat, j));
    /* fio's split, where measured (asynchronous engines with slat on) */
    if (d->slat.n) {
        cJSON_AddItemToObject(o, "slat_ns", latency_json(&d->slat, j));
        cJSON_AddItemToObject(o, "clat_ns", latency_json(&d->clat, j));
    } else {
        cJSON_AddNullToObject(o, "slat_ns");
        cJSON_AddNullToObject(o, "clat_ns");
    }
    if (paced)
        cJSON_AddItemToObject(o, "scheduled_latency_ns", latency_json(&d->sched, j));
    else
        cJSON_AddNullToObject(o, "scheduled_latency_ns");
    return o;
}

/* fio's cmdprio: each direction's latency per I/O priority */
static void prios_json(cJSON *r, const struct prio_stats *p, const struct job_spec *j)
{
    static const char *const dn[2] = {"read", "write"};
    for (int d = 0; d < 2; d++) {
        if (!p->dir[d].n)
            continue;
        cJSON *arr = cJSON_AddArrayToObject(cJSON_GetObjectItemCaseSensitive(r, dn[d]), "prios");
        for (unsigned i = 0; i < p->dir[d].n; i++) {
            cJSON *o = cJSON_CreateObject();
            unsigned v = p->dir[d].ioprio[i];
            cJSON_AddNumberToObject(o, "ioprio", v);
            cJSON_AddNumberToObject(o, "prioclass", v >> 13);
            cJSON_AddNumberToObject(o, "prio", v & 7);
            cJSON_AddItemToObject(o, "latency_ns", latency_json(p->dir[d].h[i], j));
            cJSON_AddItemToArray(arr, o);
        }
    }
}

static cJSON *scope_json(const char *scope, const struct io_stats *s, double secs,
                         const struct job_spec *j, bool paced, const struct prio_stats *prio)
{
    cJSON *r = cJSON_CreateObject();
    cJSON_AddStringToObject(r, "scope", scope);
    cJSON_AddNumberToObject(r, "elapsed_s", secs);
    cJSON_AddItemToObject(r, "read", dir_json(&s->dir[DIR_READ], secs, j, paced));
    cJSON_AddItemToObject(r, "write", dir_json(&s->dir[DIR_WRITE], secs, j, paced));
    cJSON_AddItemToObject(r, "trim", dir_json(&s->dir[DIR_TRIM], secs, j, paced));
    if (prio)
        prios_json(r, prio, j);
    /* every direction together, from the merged histograms (exact as well) */
    struct dir_stats *both = malloc(sizeof(*both));
    if (both) {
        *both = s->dir[DIR_READ];
        for (int d = DIR_READ + 1; d < DIR_COUNT; d++) {
            const struct dir_stats *o = &s->dir[d];
            both->ios += o->ios;
            both->bytes += o->bytes;
            both->errors += o->errors;
            if (o->lat.n)
                hist_merge(&both->lat, &o->lat);
            if (o->sched.n)
                hist_merge(&both->sched, &o->sched);
            if (o->slat.n) {
                hist_merge(&both->slat, &o->slat);
                hist_merge(&both->clat, &o->clat);
            }
        }
        cJSON_AddItemToObject(r, "combined", dir_json(both, secs, j, paced));
        free(both);
    }
    double lat_sum = 0;
    for (int d = 0; d < DIR_COUNT; d++)
        lat_sum += (double)s->dir[d].lat.sum;
    cJSON_AddNumberToObject(r, "mean_inflight", secs > 0 ? lat_sum / (secs * 1e9) : 0);
    if (s->syncs || s->sync_errors) {
        cJSON *sy = cJSON_AddObjectToObject(r, "sync");
        cJSON_AddNumberToObject(sy, "ios", (double)s->syncs);
        cJSON_AddNumberToObject(sy, "errors", (double)s->sync_errors);
        cJSON_AddItemToObject(sy, "latency_ns", latency_json(&s->sync_lat, j));
    }
    return r;
}

/* Copies the streamed interval rows back in as one raw JSON array. */
static cJSON *series_json(FILE *series, uint64_t step_ns)
{
    cJSON *iv = cJSON_CreateObject();
    cJSON_AddNumberToObject(iv, "step_ms", (double)step_ns / 1e6);
    cJSON *f = cJSON_AddArrayToObject(iv, "fields");
    for (unsigned i = 0; i < runner_series_nfields(); i++)
        cJSON_AddItemToArray(f, cJSON_CreateString(runner_series_fields[i]));
    cJSON *u = cJSON_AddArrayToObject(iv, "units");
    for (unsigned i = 0; i < runner_series_nfields(); i++)
        cJSON_AddItemToArray(u, cJSON_CreateString(runner_series_units[i]));
    size_t cap = 1024, len = 0;
    char *raw = malloc(cap);
    if (!raw)
        return iv;
    raw[len++] = '[';
    if (series) {
        fflush(series);
        char line[1024];
        bool first = true;
        while (fgets(line, sizeof(line), series)) {
            size_t n = strcspn(line, "\n");
            if (n == 0 || line[0] != '[')
                continue;
            if (len + n + 4 > cap) {
                while (len + n + 4 > cap)
                    cap *= 2;
                char *nr = realloc(raw, cap);
                if (!nr)
                    break;
                raw = nr;
            }
            if (!first)
                raw[len++] = ',';
            memcpy(raw + len, line, n);
            len += n;
            first = false;
        }
    }
    raw[len++] = ']';
    raw[len] = 0;
    cJSON_AddItemToObject(iv, "rows", cJSON_CreateRaw(raw));
    free(raw);
    return iv;
}

static const char *errno_name(int e)
{
    return e == ENOSPC ? "ENOSPC" : e == EIO ? "EIO" : e == EINVAL ? "EINVAL" : e == EILSEQ ? "EILSEQ" : "";
}

static const char *op_name(int op)
{
    switch (op) {
    case IO_OP_READ: return "read";
    case IO_OP_WRITE: return "write";
    case IO_OP_TRIM: return "trim";
    case IO_OP_FSYNC: return "fsync";
    case IO_OP_FDATASYNC: return "fdatasync";
    }
    return "?";
}

/* Time the process did not run (stopped, starved, suspended) during the
 * phase, so a result never counts it silently. */
static cJSON *stalls_json(const struct phase_stats *ps)
{
    cJSON *st = cJSON_CreateObject();
    uint64_t longest = 0;
    for (unsigned i = 0; i < ps->nstalls && i < RUNNER_MAX_STALLS; i++)
        if (ps->stalls[i].len_ns > longest)
            longest = ps->stalls[i].len_ns;
    cJSON_AddNumberToObject(st, "count", ps->nstalls);
    cJSON_AddNumberToObject(st, "total_s", (double)ps->stalled_ns / 1e9);
    cJSON_AddNumberToObject(st, "suspended_s", (double)ps->suspended_ns / 1e9);
    cJSON_AddNumberToObject(st, "longest_s", (double)longest / 1e9);
    cJSON *list = cJSON_AddArrayToObject(st, "list");
    for (unsigned i = 0; i < ps->nstalls && i < RUNNER_MAX_STALLS; i++) {
        cJSON *e = cJSON_CreateObject();
        cJSON_AddNumberToObject(e, "start_s", (double)ps->stalls[i].start_ns / 1e9);
        cJSON_AddNumberToObject(e, "length_s", (double)ps->stalls[i].len_ns / 1e9);
        cJSON_AddBoolToObject(e, "suspended", ps->stalls[i].suspended);
        cJSON_AddStringToObject(e, "seen_by", ps->stalls[i].worker ? "worker" : "collector");
        cJSON_AddItemToArray(list, e);
    }
    cJSON_AddNumberToObject(st, "worker_late_wake_max_ms", (double)ps->worker_late_wake_ns / 1e6);
    cJSON_AddNumberToObject(st, "stats_waits", ps->ring_waits);
    cJSON_AddNumberToObject(st, "stats_wait_s", (double)ps->ring_wait_ns / 1e9);
    cJSON_AddNumberToObject(st, "late_hist_intervals", ps->late_hist_intervals);
    return st;
}

/* One job of a phase: its parameters, targets, workers and what only some
 * jobs have (pacing lag, ramp counts, end fsyncs, per-event latency). */
/* One worker's own figures (fio's per-clone cpu, ctx, faults, and its
 * submit / complete call tables). */
static void worker_usage_json(cJSON *wo, const struct worker_usage *u)
{
    cJSON_AddNumberToObject(wo, "elapsed_s", (double)u->elapsed_ns / 1e9);
    cJSON_AddNumberToObject(wo, "user_s", u->user_s);
    cJSON_AddNumberToObject(wo, "sys_s", u->sys_s);
    cJSON_AddNumberToObject(wo, "ctx", (double)u->ctx);
    cJSON_AddNumberToObject(wo, "majf", (double)u->majf);
    cJSON_AddNumberToObject(wo, "minf", (double)u->minf);
    cJSON *sc = cJSON_AddArrayToObject(wo, "submit_calls");
    cJSON *cc = cJSON_AddArrayToObject(wo, "complete_calls");
    for (unsigned i = 0; i < RUNNER_DEPTH_BUCKETS; i++) {
        cJSON_AddItemToArray(sc, cJSON_CreateNumber((double)u->submit_calls[i]));
        cJSON_AddItemToArray(cc, cJSON_CreateNumber((double)u->complete_calls[i]));
    }
    /* fio's iodepth_level counts (runner.h worker_usage.depth_level) */
    cJSON *dl = cJSON_AddArrayToObject(wo, "depth_levels");
    for (unsigned i = 0; i < RUNNER_DEPTH_BUCKETS; i++)
        cJSON_AddItemToArray(dl, cJSON_CreateNumber((double)u->depth_level[i]));
    if (u->errors_on) { /* runner.h: what continue_on_error let pass */
        cJSON *pe = cJSON_AddObjectToObject(wo, "errors_passed");
        cJSON_AddNumberToObject(pe, "count", (double)u->errors_passed);
        cJSON_AddNumberToObject(pe, "first_errno", u->first_passed);
    }
    uint64_t any = 0;
    for (int d = 0; d < DIR_COUNT; d++)
        any |= u->fio_only_ios[d];
    if (any) { /* runner.h: what fio counts and ssdbench did not complete */
        cJSON *fo = cJSON_AddObjectToObject(wo, "fio_only");
        cJSON *io = cJSON_AddArrayToObject(fo, "ios"), *by = cJSON_AddArrayToObject(fo, "bytes");
        for (int d = 0; d < DIR_COUNT; d++) {
            cJSON_AddItemToArray(io, cJSON_CreateNumber((double)u->fio_only_ios[d]));
            cJSON_AddItemToArray(by, cJSON_CreateNumber((double)u->fio_only_bytes[d]));
        }
    }
}

static cJSON *job_json(cJSON *doc, const struct phase_stats *ps, unsigned j)
{
    const struct job_spec *jb = &ps->jobs[j];
    const struct job_stats *st = &ps->stats[j];
    bool paced = jb->rate_iops > 0;
    cJSON *jo = cJSON_CreateObject();
    cJSON_AddStringToObject(jo, "name", jb->name);
    if (jb->description[0])
        cJSON_AddStringToObject(jo, "description", jb->description);
    cJSON_AddNumberToObject(jo, "group", jb->group_id);
    cJSON_AddNumberToObject(jo, "workers", st->workers);
    cJSON_AddItemToObject(jo, "params", result_job_params(jb));
    cJSON *tl = cJSON_AddArrayToObject(jo, "targets");
    for (unsigned t = 0; t < st->ntargets; t++)
        cJSON_AddItemToArray(tl, cJSON_CreateString(doc_target(doc, &ps->targets[ps->job_target[j * JOB_MAX_TARGETS + t]])));
    /* fio's "Laying out IO file" line: the files this job was the first of
     * its phase to create or grow, and their sizes */
    unsigned laid = 0;
    uint64_t laid_bytes = 0;
    for (unsigned t = 0; t < st->ntargets; t++) {
        unsigned idx = ps->job_target[j * JOB_MAX_TARGETS + t];
        const struct target_info *ti = &ps->targets[idx];
        bool first = true;
        for (unsigned k = 0; k < j && first; k++)
            for (unsigned u = 0; u < ps->stats[k].ntargets && first; u++)
                first = ps->job_target[k * JOB_MAX_TARGETS + u] != idx;
        if (first && ti->kind == TARGET_FILE && (ti->created || ti->extended)) {
            laid++;
            laid_bytes += ti->size;
        }
    }
    if (laid) {
        cJSON *lo = cJSON_AddObjectToObject(jo, "laid_out");
        cJSON_AddNumberToObject(lo, "files", laid);
        cJSON_AddNumberToObject(lo, "bytes", (double)laid_bytes);
    }
    if (paced)
        cJSON_AddNumberToObject(jo, "max_lag_ms", (double)st->max_lag_ns / 1e6);
    if (st->ramp_ns) {
        cJSON *ri = cJSON_AddObjectToObject(jo, "ramp_ios");
        cJSON_AddNumberToObject(ri, "read", (double)st->ramp_ios[DIR_READ]);
        cJSON_AddNumberToObject(ri, "write", (double)st->ramp_ios[DIR_WRITE]);
        if (st->ramp_ios[DIR_TRIM])
            cJSON_AddNumberToObject(ri, "trim", (double)st->ramp_ios[DIR_TRIM]);
    }
    cJSON *wk = cJSON_AddArrayToObject(jo, "worker_stats");
    for (unsigned w = 0; st->worker_ios && w < st->workers; w++) {
        cJSON *wo = cJSON_CreateObject();
        cJSON_AddNumberToObject(wo, "ios", (double)st->worker_ios[w]);
        cJSON_AddNumberToObject(wo, "busy_s", (double)st->worker_busy_ns[w] / 1e9);
        if (st->worker_events) {
            cJSON_AddNumberToObject(wo, "events", (double)st->worker_events[w]);
            cJSON_AddNumberToObject(wo, "event_busy_s", (double)st->worker_event_ns[w] / 1e9);
        }
        if (st->worker_usage)
            worker_usage_json(wo, &st->worker_usage[w]);
        if (st->per_worker)
            cJSON_AddItemToObject(wo, "stats", scope_json("worker", &st->per_worker[w],
                                                         (double)st->worker_usage[w].elapsed_ns / 1e9, jb, paced,
                                                         st->prio_worker ? &st->prio_worker[w] : NULL));
        cJSON_AddItemToArray(wk, wo);
    }
    if (jb->end_fsync)
        cJSON_AddNumberToObject(jo, "end_fsyncs", (double)st->end_syncs);
    if (jb->zone_mode == JOB_ZONE_ZBD)
        cJSON_AddNumberToObject(jo, "zone_resets", (double)st->zone_resets);
    if (jb->verify != VERIFY_OFF) {
        unsigned ft = st->verify.have_first ? st->verify.first_target : 0;
        const char *id = doc_target(doc, &ps->targets[ps->job_target[j * JOB_MAX_TARGETS + ft]]);
        cJSON_AddItemToObject(jo, "verify", result_verify_json(jb, &st->verify, id));
    }
    if (jb->thinktime_ns)
        cJSON_AddNumberToObject(jo, "think_pauses", (double)st->think_pauses);
    /* fio latency_target: the search's settings and the depth it found */
    if (jb->lat_target_ns) {
        cJSON *lt = cJSON_AddObjectToObject(jo, "latency_target");
        cJSON_AddNumberToObject(lt, "target_ns", (double)jb->lat_target_ns);
        cJSON_AddNumberToObject(lt, "window_ns", (double)jb->lat_window_ns);
        cJSON_AddNumberToObject(lt, "percentile", jb->lat_percentile);
        cJSON_AddNumberToObject(lt, "depth", st->lat_depth);
    }
    /* shared request source: each event's time as sysbench takes it */
    if (st->event_lat)
        cJSON_AddItemToObject(jo, "event_latency_ns", latency_json(st->event_lat, jb));
    return jo;
}

/* The phase's result scopes: the total, each job's (several jobs), each
 * target's (a job on several targets). */
static void scopes_json(cJSON *doc, const struct phase_stats *ps, cJSON *results,
                        const struct io_stats *total, const struct job_spec *first, bool any_paced)
{
    cJSON_AddItemToArray(results, scope_json("total", total, (double)ps->elapsed_ns / 1e9, first, any_paced,
                                                       ps->njobs == 1 ? ps->stats[0].prio : NULL));
    for (unsigned j = 0; j < ps->njobs && ps->njobs > 1; j++) {
        char sc[JOB_NAME_MAX + 8];
        snprintf(sc, sizeof(sc), "job:%s", ps->jobs[j].name);
        cJSON_AddItemToArray(results, scope_json(sc, &ps->stats[j].total,
                                                 (double)ps->stats[j].elapsed_ns / 1e9,
                                                 &ps->jobs[j], ps->jobs[j].rate_iops > 0, ps->stats[j].prio));
    }
    for (unsigned j = 0; j < ps->njobs; j++) {
        const struct job_stats *st = &ps->stats[j];
        /* a cluster phase: the per-target figures are each rank's own
         * (its "cluster" ranks), not parts of the cluster's totals */
        if (st->ntargets < 2 || ps->cluster)
            continue;
        for (unsigned t = 0; t < st->ntargets; t++) {
            char sc[JOB_NAME_MAX + 32];
            const char *id = doc_target(doc, &ps->targets[ps->job_target[j * JOB_MAX_TARGETS + t]]);
            if (ps->njobs > 1)
                snprintf(sc, sizeof(sc), "job:%s/target:%s", ps->jobs[j].name, id);
            else
                snprintf(sc, sizeof(sc), "target:%s", id);
            cJSON_AddItemToArray(results, scope_json(sc, &st->per_target[t],
                                                     (double)st->elapsed_ns / 1e9, &ps->jobs[j],
                                                     ps->jobs[j].rate_iops > 0, NULL));
        }
    }
}

/* The kernel's counters of target t over the phase (/proc/diskstats). */
static cJSON *kernel_json(cJSON *doc, const struct phase_stats *ps, unsigned t)
{
    const struct kernel_stats *k = &ps->kstats[t];
    cJSON *ko = cJSON_CreateObject();
    cJSON_AddStringToObject(ko, "target", doc_target(doc, &ps->targets[t]));
    cJSON_AddStringToObject(ko, "device", k->device);
    cJSON_AddNumberToObject(ko, "read_ios", (double)k->read_ios);
    cJSON_AddNumberToObject(ko, "write_ios", (double)k->write_ios);
    cJSON_AddNumberToObject(ko, "read_bytes", (double)k->read_sectors * 512);
    cJSON_AddNumberToObject(ko, "write_bytes", (double)k->write_sectors * 512);
    cJSON_AddNumberToObject(ko, "read_merges", (double)k->read_merges);
    cJSON_AddNumberToObject(ko, "write_merges", (double)k->write_merges);
    cJSON_AddNumberToObject(ko, "read_ticks_ms", (double)k->read_ticks_ms);
    cJSON_AddNumberToObject(ko, "write_ticks_ms", (double)k->write_ticks_ms);
    cJSON_AddNumberToObject(ko, "io_ticks_ms", (double)k->io_ticks_ms);
    if (k->has_discard) {
        cJSON_AddNumberToObject(ko, "discard_ios", (double)k->discard_ios);
        cJSON_AddNumberToObject(ko, "discard_merges", (double)k->discard_merges);
        cJSON_AddNumberToObject(ko, "discard_bytes", (double)k->discard_sectors * 512);
        cJSON_AddNumberToObject(ko, "discard_ticks_ms", (double)k->discard_ticks_ms);
    }
    if (k->has_flush) {
        cJSON_AddNumberToObject(ko, "flush_ios", (double)k->flush_ios);
        cJSON_AddNumberToObject(ko, "flush_ticks_ms", (double)k->flush_ticks_ms);
    }
    double ms = (double)ps->elapsed_ns / 1e6 + (double)(ps->njobs ? ps->jobs[0].ramp_ns : 0) / 1e6;
    cJSON_AddNumberToObject(ko, "util_pct", ms > 0 ? 100.0 * (double)k->io_ticks_ms / ms : 0);
    return ko;
}

/* Device identity (once per target) and health before / after the phase
 * of each block-device target (result_device.h). */
static void devices_json(cJSON *doc, const struct phase_stats *ps)
{
    for (unsigned t = 0; ps->devices && t < ps->ntargets; t++) {
        if (ps->targets[t].kind != TARGET_BLOCK)
            continue;
        const struct runner_device *rd = &ps->devices[t];
        const char *id = doc_target(doc, &ps->targets[t]);
        cJSON *to, *found = NULL;
        cJSON_ArrayForEach(to, cJSON_GetObjectItemCaseSensitive(doc, "targets"))
            if (strcmp(result_str(to, "id", ""), id) == 0)
                found = to;
        if (!found)
            continue;
        cJSON *d = cJSON_GetObjectItemCaseSensitive(found, "device");
        if (rd->valid && cJSON_IsObject(d) && !cJSON_GetObjectItemCaseSensitive(d, "identity_source"))
            result_device_identity(d, &rd->info);
        result_target_health(found, &rd->before, rd->valid ? &rd->after : &rd->before, rd->temp_max_c);
    }
}

/* The phase's error records, also collected in the document's "errors". */
static void errors_json(cJSON *doc, const struct phase_stats *ps, cJSON *phase)
{
    cJSON *errs = cJSON_AddArrayToObject(phase, "errors");
    for (unsigned e = 0; e < ps->nerrors; e++) {
        const struct runner_error *re = &ps->errors[e];
        cJSON *eo = cJSON_CreateObject();
        cJSON_AddStringToObject(eo, "target", doc_target(doc, &ps->targets[re->target]));
        cJSON_AddNumberToObject(eo, "offset", (double)re->offset);
        cJSON_AddNumberToObject(eo, "errno", re->err);
        cJSON_AddStringToObject(eo, "errno_name", errno_name(re->err));
        /* EILSEQ is how a failed verify is counted (as fio reports it) */
        if (re->limit) {
            /* not a failed I/O: a fio limit the job broke (runner/rate_floor.h) */
            char m[96];
            snprintf(m, sizeof(m), "%s: %s", re->limit,
                     re->err == ETIMEDOUT ? "latency limit exceeded" : "minimum rate not met");
            cJSON_AddStringToObject(eo, "message", m);
            cJSON_AddStringToObject(eo, "limit", re->limit);
        } else {
            cJSON_AddStringToObject(eo, "message", re->err == EILSEQ ? "verify failed: bad block" : strerror(re->err));
        }
        cJSON_AddStringToObject(eo, "op", op_name(re->op));
        cJSON_AddNumberToObject(eo, "count", (double)re->count);
        cJSON_AddItemToArray(errs, eo);
        cJSON_AddItemToArray(cJSON_GetObjectItemCaseSensitive(doc, "errors"), cJSON_Duplicate(eo, 1));
    }
}

cJSON *result_add_phase(cJSON *doc, const char *name, const char *kind,
                        const struct phase_stats *ps, FILE *series)
{
    cJSON *phase = cJSON_CreateObject();
    if (!phase)
        return NULL;
    cJSON_AddStringToObject(phase, "name", name);
    cJSON_AddStringToObject(phase, "kind", kind);
    char ts[64];
    iso_time(ps->start_wall_ns, ts, sizeof(ts));
    cJSON_AddStringToObject(phase, "started", ts);
    cJSON_AddNumberToObject(phase, "elapsed_s", (double)ps->elapsed_ns / 1e9);
    const char *stop = ps->interrupted ? "signal" : ps->lagged ? "max-lag" : ps->stopped_by_hook ? "hook"
                     : ps->error_total ? "error" : "complete";
    cJSON_AddStringToObject(phase, "stopped_by", stop);
    cJSON *cpu = cJSON_AddObjectToObject(phase, "cpu");
    cJSON_AddNumberToObject(cpu, "user_s", ps->cpu_user_s);
    cJSON_AddNumberToObject(cpu, "sys_s", ps->cpu_sys_s);
    cJSON_AddItemToObject(phase, "stalls", stalls_json(ps));

    const struct job_spec *first = ps->njobs ? &ps->jobs[0] : NULL;
    bool any_paced = false;
    struct io_stats *total = calloc(1, sizeof(*total));
    if (total)
        iostats_init(total);
    cJSON *jobs = cJSON_AddArrayToObject(phase, "jobs");
    cJSON *results = cJSON_AddArrayToObject(phase, "results");
    for (unsigned j = 0; j < ps->njobs; j++) {
        any_paced |= ps->jobs[j].rate_iops > 0;
        cJSON_AddItemToArray(jobs, job_json(doc, ps, j));
        if (total)
            iostats_merge(total, &ps->stats[j].total);
    }
    if (total && first)
        scopes_json(doc, ps, results, total, first, any_paced);
    free(total);
    cJSON_AddItemToObject(phase, "intervals", series_json(series, first ? first->interval_ns : 1000000000ull));
    cJSON *ks = cJSON_AddArrayToObject(phase, "kernel_stats");
    cJSON *fks = NULL;
    for (unsigned t = 0; ps->kstats && t < ps->ntargets; t++) {
        if (!ps->kstats[t].valid)
            continue;
        /* a file's filesystem device counts every process's I/O to it:
         * kept apart from the targets' own counters */
        if (ps->kstats[t].of_file && !fks)
            fks = cJSON_AddArrayToObject(phase, "fs_kernel_stats");
        cJSON_AddItemToArray(ps->kstats[t].of_file ? fks : ks, kernel_json(doc, ps, t));
    }
    errors_json(doc, ps, phase);
    devices_json(doc, ps);
    cJSON_AddItemToArray(cJSON_GetObjectItemCaseSensitive(doc, "phases"), phase);
    return phase;
}

void result_finish(cJSON *doc, bool interrupted, int sig)
{
    cJSON *priv = cJSON_GetObjectItemCaseSensitive(doc, "_start");
    struct hostcpu end;
    hostcpu_read(&end);
    if (cJSON_GetArraySize(priv) == 6) {
        struct hostcpu start = {
            .valid = cJSON_IsTrue(cJSON_GetArrayItem(priv, 5)),
            .busy = cJSON_GetArrayItem(priv, 0)->valuedouble,
            .steal = cJSON_GetArrayItem(priv, 1)->valuedouble,
            .total = cJSON_GetArrayItem(priv, 2)->valuedouble,
            .iowait = cJSON_GetArrayItem(priv, 4)->valuedouble,
        };
        double t0 = cJSON_GetArrayItem(priv, 3)->valuedouble;
        double busy, steal, iowait;
        hostcpu_pct(&start, &end, &busy, &steal, &iowait);
        cJSON_AddNumberToObject(doc, "duration_s", ((double)clock_ns() - t0) / 1e9);
        cJSON *h = cJSON_GetObjectItemCaseSensitive(doc, "host");
        cJSON_AddNumberToObject(h, "cpu_busy_pct", busy);
        cJSON_AddNumberToObject(h, "cpu_steal_pct", steal);
        cJSON_AddNumberToObject(h, "cpu_iowait_pct", iowait);
        struct sysinfo si;
        if (sysinfo(&si) == 0)
            cJSON_AddNumberToObject(h, "loadavg_1m_end", (double)si.loads[0] / 65536.0);
    }
    cJSON_DeleteItemFromObjectCaseSensitive(doc, "_start");
    /* the verdict on the host's load, for every format (docs/results.md) */
    cJSON *host = cJSON_GetObjectItemCaseSensitive(doc, "host");
    if (cJSON_IsObject(host)) {
        struct host_load hl;
        char why[256];
        host_load_from_doc(doc, &hl);
        bool busy = host_busy(&hl, why, sizeof(why));
        cJSON_AddBoolToObject(host, "busy", busy);
        if (busy)
            cJSON_AddStringToObject(host, "busy_why", why);
    }
    cJSON_AddBoolToObject(doc, "interrupted", interrupted);
    if (interrupted)
        cJSON_AddStringToObject(doc, "signal", signal_name(sig));
}
