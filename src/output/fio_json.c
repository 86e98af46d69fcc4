/* fio_json.c - see fio_json.h. Walks the result document: phases in run
 * order, their jobs grouped into fio's reported objects, and the kernel's
 * disk counters summed per device over all phases. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "output/fio_json.h"
#include "output/fio_json_int.h"
#include "result/result_hist.h"
#include "result/result_read.h"

#define FIO_JSON_MAX_DISKS 64

struct fio_json_disk {
    char name[64];
    int last_phase;              /* counted once per phase */
    double read_ios, write_ios, read_merges, write_merges, read_ticks, write_ticks, io_ticks, ms;
    double other_ticks;          /* discard + flush ticks, when the kernel has them */
};

struct fio_json_ctx {
    bool plus;
    bool members;                /* add FIO_JSON_MEMBERS_KEY (text renderers) */
    char *err;
    size_t errlen;
    struct hist tmp;             /* scratch for result_hist_from_json */
    struct fio_json_obj obj;           /* the object being built */
    unsigned ndisks;
    struct fio_json_disk disks[FIO_JSON_MAX_DISKS];
};

static bool job_bool(const cJSON *job, const char *key)
{
    const cJSON *params = cJSON_GetObjectItemCaseSensitive(job, "params");
    return cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(params, key));
}

static double job_param(const cJSON *job, const char *key, double dflt)
{
    return result_num(cJSON_GetObjectItemCaseSensitive(job, "params"), key, dflt);
}

/* The statistics of the k-th job of a phase: the phase total when it has
 * one job, else the k-th "job:NAME" scope among jobs of that name. */
static const cJSON *job_scope(const cJSON *phase, const cJSON *jobs, int k)
{
    int n = cJSON_GetArraySize(jobs);
    if (n == 1)
        return result_scope(phase, "total");
    const char *name = result_str(cJSON_GetArrayItem(jobs, k), "name", "");
    int nth = 0;
    for (int i = 0; i < k; i++)
        nth += strcmp(result_str(cJSON_GetArrayItem(jobs, i), "name", ""), name) == 0;
    char want[JOB_NAME_MAX + 8];
    snprintf(want, sizeof(want), "job:%s", name);
    const cJSON *r;
    cJSON_ArrayForEach(r, cJSON_GetObjectItemCaseSensitive(phase, "results"))
        if (strcmp(result_str(r, "scope", ""), want) == 0 && nth-- == 0)
            return r;
    return NULL;
}

/* Adds the histogram of a latency object ({n, ..., histogram}) into dst. */
static int merge_hist(struct fio_json_ctx *c, const cJSON *lat, struct hist *dst, const char *where)
{
    if (!lat || cJSON_IsNull(lat) || result_num(lat, "n", 0) == 0)
        return 0;
    char msg[256];
    if (result_hist_from_json(cJSON_GetObjectItemCaseSensitive(lat, "histogram"), &c->tmp, msg, sizeof(msg)) < 0) {
        snprintf(c->err, c->errlen, "%s: %s", where, msg);
        return -EINVAL;
    }
    hist_merge(dst, &c->tmp);
    return 0;
}

static int add_scope(struct fio_json_ctx *c, const cJSON *scope, const char *where)
{
    static const char *const dn[DIR_COUNT] = {"read", "write", "trim"};
    struct fio_json_obj *o = &c->obj;
    for (int d = 0; d < DIR_COUNT; d++) {
        const cJSON *ds = cJSON_GetObjectItemCaseSensitive(scope, dn[d]);
        o->dir[d].ios += (uint64_t)result_num_in(ds, "ios", 0, RESULT_U64_MAX, 0);
        o->dir[d].bytes += (uint64_t)result_num_in(ds, "bytes", 0, RESULT_U64_MAX, 0);
        o->dir[d].errors += (uint64_t)result_num_in(ds, "errors", 0, RESULT_U64_MAX, 0);
        if (merge_hist(c, cJSON_GetObjectItemCaseSensitive(ds, "latency_ns"), &o->dir[d].lat, where) < 0 ||
            merge_hist(c, cJSON_GetObjectItemCaseSensitive(ds, "slat_ns"), &o->dir[d].slat, where) < 0 ||
            merge_hist(c, cJSON_GetObjectItemCaseSensitive(ds, "clat_ns"), &o->dir[d].clat, where) < 0)
            return -EINVAL;
        const cJSON *pa = d < 2 ? cJSON_GetObjectItemCaseSensitive(ds, "prios") : NULL;
        const cJSON *pe;
        cJSON_ArrayForEach(pe, pa)
        {
            int k = prio_stats_slot(&o->prio.dir[d], (uint16_t)result_num_in(pe, "ioprio", 0, 65535, 0));
            if (k < 0) {
                snprintf(c->err, c->errlen, "%s: out of memory", where);
                return -ENOMEM;
            }
            if (merge_hist(c, cJSON_GetObjectItemCaseSensitive(pe, "latency_ns"), o->prio.dir[d].h[k], where) < 0)
                return -EINVAL;
        }
        const cJSON *sl = cJSON_GetObjectItemCaseSensitive(ds, "scheduled_latency_ns");
        if (cJSON_IsObject(sl)) {
            o->dir[d].paced = true;
            if (merge_hist(c, sl, &o->dir[d].sched, where) < 0)
                return -EINVAL;
        }
    }
    const cJSON *sy = cJSON_GetObjectItemCaseSensitive(scope, "sync");
    if (sy) {
        o->syncs += (uint64_t)result_num_in(sy, "ios", 0, RESULT_U64_MAX, 0);
        o->sync_errors += (uint64_t)result_num_in(sy, "errors", 0, RESULT_U64_MAX, 0);
        if (merge_hist(c, cJSON_GetObjectItemCaseSensitive(sy, "latency_ns"), &o->sync, where) < 0)
            return -EINVAL;
    }
    double el = result_num(scope, "elapsed_s", 0);
    if (el > o->elapsed_s)
        o->elapsed_s = el;
    return 0;
}

/* The job's percentile list, from the keys ssdbench stored. */
static void job_pcts(const cJSON *scope, struct fio_json_pcts *p)
{
    p->n = 0;
    const cJSON *lat = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(scope, "read"),
                                                         "latency_ns");
    const cJSON *k;
    cJSON_ArrayForEach(k, cJSON_GetObjectItemCaseSensitive(lat, "percentiles"))
    {
        char *end;
        double v = strtod(k->string, &end);
        if (end == k->string || *end || v <= 0 || v > 100 || p->n >= FIO_JSON_PCT_MAX)
            continue;
        unsigned i = p->n++;
        while (i > 0 && p->p[i - 1] > v) {
            p->p[i] = p->p[i - 1];
            i--;
        }
        p->p[i] = v;
    }
}

/* fio's group aggregate bandwidth per direction (bytes/s): the group's bytes
 * over its longest runtime. */
static void group_rate(const cJSON *phase, const cJSON *jobs, int gid, double out[DIR_COUNT])
{
    static const char *const dn[DIR_COUNT] = {"read", "write", "trim"};
    double bytes[DIR_COUNT] = {0}, el = 0;
    for (int k = 0; k < cJSON_GetArraySize(jobs); k++) {
        if ((int)result_num_in(cJSON_GetArrayItem(jobs, k), "group", INT_MIN, INT_MAX, 0) != gid)
            continue;
        const cJSON *s = job_scope(phase, jobs, k);
        for (int d = 0; d < DIR_COUNT; d++)
            bytes[d] += result_num(cJSON_GetObjectItemCaseSensitive(s, dn[d]), "bytes", 0);
        if (result_num(s, "elapsed_s", 0) > el)
            el = result_num(s, "elapsed_s", 0);
    }
    for (int d = 0; d < DIR_COUNT; d++)
        out[d] = el > 0 ? bytes[d] / el : 0;
}

static bool has_target(const cJSON *job, const char *id)
{
    const cJSON *t;
    cJSON_ArrayForEach(t, cJSON_GetObjectItemCaseSensitive(job, "targets"))
        if (cJSON_IsString(t) && strcmp(t->valuestring, id) == 0)
            return true;
    return false;
}

/* fio's "error": the first errno recorded on one of the jobs' targets (EIO
 * when none is recorded), 0 when the jobs had no failed I/O. A failed
 * verify (its reads succeeded) is EILSEQ, 84, as fio reports it. */
static int obj_error(const struct fio_json_obj *o, const cJSON *phase, const cJSON *jobs, int j0, int j1)
{
    const cJSON *e;
    if (o->dir[0].errors + o->dir[1].errors + o->sync_errors == 0) {
        cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(phase, "errors"))
        {
            /* no failed I/O: a failed verify (EILSEQ), or a limit the job
             * broke - max_latency / latency_target (ETIMEDOUT), rate_min /
             * rate_iops_min (EIO, recorded with no I/O failed) */
            int en = (int)result_num_in(e, "errno", INT_MIN, INT_MAX, 0);
            if (en != EILSEQ && en != ETIMEDOUT && en != EIO)
                continue;
            for (int k = j0; k < j1; k++)
                if (has_target(cJSON_GetArrayItem(jobs, k), result_str(e, "target", "")))
                    return en;
        }
        return 0;
    }
    cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(phase, "errors"))
    {
        const char *t = result_str(e, "target", "");
        for (int k = j0; k < j1; k++)
            if (has_target(cJSON_GetArrayItem(jobs, k), t))
                return (int)result_num_in(e, "errno", INT_MIN, INT_MAX, EIO);
    }
    return EIO;
}

static void opt_str(cJSON *o, const char *key, const char *v)
{
    cJSON_AddStringToObject(o, key, v);
}

static void opt_num(cJSON *o, const char *key, double v)
{
    char b[48];
    snprintf(b, sizeof(b), "%.15g", v);
    cJSON_AddStringToObject(o, key, b);
}

static void opt_time(cJSON *o, const char *key, double secs)
{
    char b[48];
    if (secs == floor(secs))
        snprintf(b, sizeof(b), "%.0f", secs);
    else
        snprintf(b, sizeof(b), "%.0fms", secs * 1000.0);
    cJSON_AddStringToObject(o, key, b);
}

/* "4096/50:8192/50" from [[bytes, pct], ...]. */
static void bssplit_str(const cJSON *list, char *b, size_t n)
{
    size_t len = 0;
    const cJSON *e;
    b[0] = 0;
    cJSON_ArrayForEach(e, list)
    {
        int w = snprintf(b + len, n - len, "%s%.15g/%.15g", len ? ":" : "",
                         result_at_num(e, 0, 0), result_at_num(e, 1, 0));
        if (w < 0 || (size_t)w >= n - len)
            break;
        len += (size_t)w;
    }
}

/* A copy of a {"key": "value"} object, strings only. */
static cJSON *written_copy(const cJSON *w)
{
    cJSON *o = cJSON_CreateObject();
    const cJSON *e;
    cJSON_ArrayForEach(e, w)
        if (cJSON_IsString(e) && e->string)
            cJSON_AddStringToObject(o, e->string, e->valuestring);
    return o;
}

/* fio's "job options": the job as written (results that have it), else the job as run, in fio's option names; every value
 * is a string, as in fio. */
static cJSON *job_options(const cJSON *job)
{
    const cJSON *p = cJSON_GetObjectItemCaseSensitive(job, "params");
    /* the section's own keys as written, as fio echoes them */
    const cJSON *wj = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(p, "written"), "job");
    if (cJSON_IsObject(wj))
        return written_copy(wj);
    cJSON *o = cJSON_CreateObject();
    const char *rw = result_str(p, "rw", "randread");
    opt_str(o, "rw", rw);
    if (cJSON_GetObjectItemCaseSensitive(p, "rwmixread"))
        opt_num(o, "rwmixread", result_num(p, "rwmixread", 50));
    if (cJSON_GetObjectItemCaseSensitive(p, "bs")) {
        opt_num(o, "bs", result_num(p, "bs", 4096));
    } else {
        const cJSON *bss = cJSON_GetObjectItemCaseSensitive(p, "bssplit");
        char r[512], w[512], all[1100];
        bssplit_str(cJSON_GetObjectItemCaseSensitive(bss, "read"), r, sizeof(r));
        bssplit_str(cJSON_GetObjectItemCaseSensitive(bss, "write"), w, sizeof(w));
        snprintf(all, sizeof(all), "%s,%s", r, w);
        opt_str(o, "bssplit", all);
    }
    opt_str(o, "ioengine", result_str(p, "engine", "io_uring"));
    opt_num(o, "iodepth", result_num(p, "iodepth", 1));
    opt_num(o, "numjobs", result_num(p, "numjobs", 1));
    opt_str(o, "direct", cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(p, "direct")) ? "1" : "0");
    const cJSON *range = cJSON_GetObjectItemCaseSensitive(p, "range");
    if (result_num(range, "size", 0) > 0)
        opt_num(o, "size", result_num(range, "size", 0));
    if (result_num(range, "offset", 0) > 0)
        opt_num(o, "offset", result_num(range, "offset", 0));
    if (result_num(p, "io_limit", 0) > 0)
        opt_num(o, "io_size", result_num(p, "io_limit", 0));
    if (result_num(p, "runtime_s", 0) > 0)
        opt_time(o, "runtime", result_num(p, "runtime_s", 0));
    if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(p, "time_based")))
        opt_str(o, "time_based", "1");
    if (result_num(p, "ramp_s", 0) > 0)
        opt_time(o, "ramp_time", result_num(p, "ramp_s", 0));
    if (result_num(p, "rate_iops", 0) > 0)
        opt_num(o, "rate_iops", result_num(p, "rate_iops", 0));
    if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(p, "group_reporting")))
        opt_str(o, "group_reporting", "1");
    return o;
}

/* fio unified_rw_reporting: "mixed" holds reads, writes and trims together; with
 * mixed (not both) it stands in place of read, write and trim. Its bw and
 * iops sample statistics are not formed (the interval rows are per
 * direction). */
static void add_mixed(cJSON *jo, const cJSON *job, struct fio_json_obj *o, double group_bytes_s,
                      const struct fio_json_pcts *pct, bool plus)
{
    const cJSON *params = cJSON_GetObjectItemCaseSensitive(job, "params");
    const char *mode = result_str(params, "unified_rw_reporting", "");
    if (strcmp(mode, "mixed") && strcmp(mode, "both"))
        return;
    struct fio_json_dir *m = malloc(sizeof(*m));
    if (!m)
        return;
    *m = o->dir[DIR_READ];
    for (int d = DIR_WRITE; d < DIR_COUNT; d++) {
        const struct fio_json_dir *w = &o->dir[d];
        m->ios += w->ios;
        m->bytes += w->bytes;
        m->only_ios += w->only_ios;
        m->only_bytes += w->only_bytes;
        m->errors += w->errors;
        m->paced = m->paced || w->paced;
        hist_merge(&m->lat, &w->lat);
        hist_merge(&m->slat, &w->slat);
        hist_merge(&m->clat, &w->clat);
        hist_merge(&m->sched, &w->sched);
    }
    if (!strcmp(mode, "mixed")) {
        cJSON_DeleteItemFromObjectCaseSensitive(jo, "read");
        cJSON_DeleteItemFromObjectCaseSensitive(jo, "write");
        cJSON_DeleteItemFromObjectCaseSensitive(jo, "trim");
    }
    cJSON *mo = fio_json_dir_json(m, o->elapsed_s, NULL, NULL, group_bytes_s, pct, plus);
    cJSON_AddItemToObject(jo, "mixed", mo);
    free(m);
    /* fio: the priorities of reads and writes added up by value */
    struct prio_stats mp = {0};
    if (prio_dir_add(&mp.dir[0], &o->prio.dir[0]) == 0 && prio_dir_add(&mp.dir[0], &o->prio.dir[1]) == 0)
        fio_json_add_prios(mo, &mp.dir[0], pct, plus);
    prio_stats_clear(&mp);
}

static int clones_kept(const cJSON *job);

/* The worker_stats entries an object reports: every worker of jobs
 * [j0, j1), or only worker clone of job j0 (clone >= 0). */
struct fio_json_usage {
    double user_s, sys_s, run_s;
    double job_s;   /* the workers' own run times, summed (fio's job_runtime) */
    unsigned nw;
    double ctx, majf, minf;
    double submit[7], complete[7];
    bool any;
    /* fio's io_u_map from worker_stats.depth_levels (results before it: none) */
    double depth[7];
    bool any_depth;
    double fio_only_ios[DIR_COUNT], fio_only_bytes[DIR_COUNT]; /* worker_stats[].fio_only */
    bool errors_on; /* worker_stats[].errors_passed: continue_on_error's count and */
    double errors_passed, first_passed; /* the last worker's first errno, as fio sums them */
};

static void add_usage(struct fio_json_usage *u, const cJSON *ws, double ramp_s)
{
    if (!cJSON_GetObjectItemCaseSensitive(ws, "ctx"))
        return;
    u->any = true;
    u->user_s += result_num(ws, "user_s", 0);
    u->sys_s += result_num(ws, "sys_s", 0);
    u->run_s += result_num(ws, "elapsed_s", 0) + ramp_s;
    u->job_s += result_num(ws, "elapsed_s", 0);
    u->nw++;
    u->ctx += result_num(ws, "ctx", 0);
    u->majf += result_num(ws, "majf", 0);
    u->minf += result_num(ws, "minf", 0);
    for (int i = 0; i < 7; i++) {
        u->submit[i] += result_at_num(cJSON_GetObjectItemCaseSensitive(ws, "submit_calls"), i, 0);
        u->complete[i] += result_at_num(cJSON_GetObjectItemCaseSensitive(ws, "complete_calls"), i, 0);
    }
    const cJSON *ep = cJSON_GetObjectItemCaseSensitive(ws, "errors_passed");
    if (cJSON_IsObject(ep)) {
        u->errors_on = true;
        u->errors_passed += result_num(ep, "count", 0);
        u->first_passed = result_num(ep, "first_errno", 0);
    }
    const cJSON *fo = cJSON_GetObjectItemCaseSensitive(ws, "fio_only");
    for (int d = 0; fo && d < DIR_COUNT; d++) {
        u->fio_only_ios[d] += result_at_num(cJSON_GetObjectItemCaseSensitive(fo, "ios"), d, 0);
        u->fio_only_bytes[d] += result_at_num(cJSON_GetObjectItemCaseSensitive(fo, "bytes"), d, 0);
    }
    const cJSON *dl = cJSON_GetObjectItemCaseSensitive(ws, "depth_levels");
    if (cJSON_IsArray(dl)) {
        u->any_depth = true;
        for (int i = 0; i < 7; i++)
            u->depth[i] += result_at_num(dl, i, 0);
    }
}

/* fio's iodepth_submit / iodepth_complete: shares of calls per bucket
 * (a share below 0.1 % that is not zero shows as 0.1 %, as in fio). */
static void calls_table(cJSON *jo, const char *key, const double *calls)
{
    static const char *const keys[7] = {"0", "4", "8", "16", "32", "64", ">=64"};
    double total = 0;
    for (int i = 0; i < 7; i++)
        total += calls[i];
    cJSON *t = cJSON_AddObjectToObject(jo, key);
    for (int i = 0; i < 7; i++) {
        double v = total > 0 ? 100.0 * calls[i] / total : 0;
        if (v > 0 && v < 0.1)
            v = 0.1;
        cJSON_AddNumberToObject(t, keys[i], fio_json_round6(v));
    }
}

/* Builds one fio job object from jobs [j0, j1) of a phase, or from one
 * clone (worker) of job j0 when clone >= 0. */
/* fio's steadystate object from the phase's steady_state entry of the job
 * named name (ss, duration in s, attained, criterion as fio prints it, the
 * window's samples of the measured metric and their mean). */
static void add_steadystate(cJSON *jo, const cJSON *phase, const char *name)
{
    const cJSON *e, *arr = cJSON_GetObjectItemCaseSensitive(phase, "steady_state");
    cJSON_ArrayForEach(e, arr) {
        if (strcmp(result_str(e, "job", ""), name))
            continue;
        const char *metric = result_str(e, "metric", "iops"), *rule = result_str(e, "rule", "");
        if (strcmp(rule, "slope") && strcmp(rule, "deviation"))
            return; /* snia: not a fio criterion */
        char ss[96], crit[64];
        bool pct = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(e, "limit_pct"));
        snprintf(ss, sizeof(ss), "%s%s:%f%s", metric, strcmp(rule, "slope") ? "" : "_slope", result_num(e, "limit", 0),
                 pct ? "%" : "");
        cJSON *o = cJSON_AddObjectToObject(jo, "steadystate");
        cJSON_AddStringToObject(o, "ss", ss);
        cJSON_AddNumberToObject(o, "duration", llround(result_num(e, "window", 0) * result_num(e, "interval_s", 1)));
        cJSON_AddNumberToObject(o, "attained", cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(e, "reached")) ? 1 : 0);
        double cv = result_num(e, "criterion_value", 0);
        snprintf(crit, sizeof(crit), pct ? "%f%%" : "%f", cv < 0 ? 0 : cv);
        cJSON_AddStringToObject(o, "criterion", crit);
        cJSON_AddNumberToObject(o, "max_deviation", result_num(e, "max_dev", 0));
        cJSON_AddNumberToObject(o, "slope", result_num(cJSON_GetObjectItemCaseSensitive(e, "fit"), "slope", 0));
        cJSON *d = cJSON_AddObjectToObject(o, "data");
        char k[40];
        snprintf(k, sizeof(k), "%s_mean", metric);
        cJSON_AddNumberToObject(d, k, result_num(e, "avg", 0));
        /* fio's window is a buffer of `duration` samples, zeros until filled */
        cJSON *vals = cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(e, "values"), 1);
        if (!cJSON_IsArray(vals)) {
            cJSON_Delete(vals);
            vals = cJSON_CreateArray();
        }
        for (int i = cJSON_GetArraySize(vals); i < (int)result_num(e, "window", 0); i++)
            cJSON_AddItemToArray(vals, cJSON_CreateNumber(0));
        cJSON_AddItemToObject(d, metric, vals);
        return;
    }
}

/* Sums the statistics of jobs [j0, j1) of phase (or of one clone's
 * workers, clone >= 0) into c->obj, the first job's percentile settings
 * into pct and the reported threads' usage into usage; -1 (c->err) when a
 * job has no statistics. */
/* fio's priority of a job's I/O without cmdprio (td->ioprio): 0 unless
 * prio or prioclass is given, then class (0: best effort) and level. */
static unsigned job_ioprio(const cJSON *job)
{
    double cls = job_param(job, "prioclass", -1), lvl = job_param(job, "prio", -1);
    if (cls < 0 && lvl < 0)
        return 0;
    unsigned c = cls > 0 ? (unsigned)cls : 2, l = lvl > 0 ? (unsigned)lvl : 0;
    return c << 13 | l;
}

static bool scope_has_prios(const cJSON *scope)
{
    static const char *const dn[2] = {"read", "write"};
    for (int d = 0; d < 2; d++)
        if (cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(scope, dn[d]),
                                                              "prios")) > 0)
            return true;
    return false;
}

/* fio's group of jobs (sum_thread_stats): the group keeps per-priority
 * figures when one of its jobs has them (cmdprio) or their priorities
 * differ; a job without them then counts all of its I/O under its own
 * priority (its clat, or lat with lat_percentiles). */
static bool group_prios(const cJSON *phase, const cJSON *jobs, int j0, int j1)
{
    for (int k = j0; k < j1; k++) {
        const cJSON *job = cJSON_GetArrayItem(jobs, k);
        const cJSON *scope = job_scope(phase, jobs, k);
        if ((scope && scope_has_prios(scope)) || job_ioprio(job) != job_ioprio(cJSON_GetArrayItem(jobs, j0)))
            return true;
    }
    return false;
}

static int add_plain_prio(struct fio_json_ctx *c, const cJSON *job, const cJSON *scope, const char *where)
{
    static const char *const dn[2] = {"read", "write"};
    struct fio_json_obj *o = &c->obj;
    bool total = job_bool(job, "lat_percentiles");
    for (int d = 0; d < 2; d++) {
        const cJSON *ds = cJSON_GetObjectItemCaseSensitive(scope, dn[d]);
        bool slat = result_num(cJSON_GetObjectItemCaseSensitive(ds, "slat_ns"), "n", 0) > 0;
        const cJSON *h = cJSON_GetObjectItemCaseSensitive(ds, !total && slat ? "clat_ns" : "latency_ns");
        if (result_num(h, "n", 0) == 0)
            continue;
        int k = prio_stats_slot(&o->prio.dir[d], (uint16_t)job_ioprio(job));
        if (k < 0) {
            snprintf(c->err, c->errlen, "%s: out of memory", where);
            return -ENOMEM;
        }
        if (merge_hist(c, h, o->prio.dir[d].h[k], where) < 0)
            return -EINVAL;
    }
    return 0;
}

static int obj_collect(struct fio_json_ctx *c, const cJSON *phase, const cJSON *jobs, int j0, int j1, int clone,
                       int nclones, struct fio_json_pcts *pct, struct fio_json_usage *usage)
{
    struct fio_json_obj *o = &c->obj;
    prio_stats_clear(&o->prio);
    memset(o, 0, sizeof(*o));
    for (int d = 0; d < DIR_COUNT; d++) {
        hist_init(&o->dir[d].lat);
        hist_init(&o->dir[d].sched);
        hist_init(&o->dir[d].slat);
        hist_init(&o->dir[d].clat);
    }
    hist_init(&o->sync);
    const char *pname = result_str(phase, "name", "?");
    bool gprio = clone < 0 && j1 - j0 > 1 && group_prios(phase, jobs, j0, j1);
    memset(pct, 0, sizeof(*pct));
    memset(usage, 0, sizeof(*usage));
    for (int k = j0; k < j1; k++) {
        const cJSON *job = cJSON_GetArrayItem(jobs, k);
        const cJSON *wstats = cJSON_GetObjectItemCaseSensitive(job, "worker_stats");
        char where[160];
        snprintf(where, sizeof(where), "phase '%s', job '%s'", pname, result_str(job, "name", "?"));
        double jramp = job_param(job, "ramp_s", 0);
        if (clone >= 0) {
            /* the clone's workers: one per file in jbod layout */
            int nw = cJSON_GetArraySize(wstats);
            for (int w = clone; w < nw; w += nclones) {
                const cJSON *ws = cJSON_GetArrayItem(wstats, w);
                const cJSON *scope = cJSON_GetObjectItemCaseSensitive(ws, "stats");
                if (add_scope(c, scope, where) < 0)
                    return -1;
                if (w == clone)
                    job_pcts(scope, pct);
                add_usage(usage, ws, jramp);
            }
            o->workers += 1;
            continue;
        }
        const cJSON *scope = job_scope(phase, jobs, k);
        if (!scope) {
            snprintf(c->err, c->errlen, "%s: no statistics in the result", where);
            return -1;
        }
        if (add_scope(c, scope, where) < 0)
            return -1;
        if (gprio && !scope_has_prios(scope) && add_plain_prio(c, job, scope, where) < 0)
            return -1;
        if (k == j0)
            job_pcts(scope, pct);
        o->workers += (unsigned)result_num_in(job, "workers", 0, 1e6, 1);
        const cJSON *ws;
        cJSON_ArrayForEach(ws, wstats)
            add_usage(usage, ws, jramp);
    }
    return 0;
}

/* fio's measurement switches, as the job was given them. */
static void job_switches(const cJSON *first, struct fio_json_pcts *pct)
{
    pct->no_lat = job_bool(first, "disable_lat");
    pct->no_clat = job_bool(first, "disable_clat");
    pct->lat_pct = job_bool(first, "lat_percentiles");
    pct->clat_pct_off = cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(
        cJSON_GetObjectItemCaseSensitive(first, "params"), "clat_percentiles"));
    pct->slat_pct = job_bool(first, "slat_percentiles");
}

/* The "read", "write", "trim" and mixed objects. Interval rows are the
 * phase's: they are this object's own samples only when it reports every
 * job of the phase (whole). */
static void job_dirs(struct fio_json_ctx *c, cJSON *jo, const cJSON *phase, const cJSON *jobs, const cJSON *first,
                     int gid, bool whole, const struct fio_json_pcts *pct)
{
    struct fio_json_obj *o = &c->obj;
    const cJSON *iv = cJSON_GetObjectItemCaseSensitive(phase, "intervals");
    const cJSON *rows = cJSON_GetObjectItemCaseSensitive(iv, "rows");
    double step_ms = result_num(iv, "step_ms", 1000);
    /* a live document holds the streamed rows as raw JSON text */
    cJSON *parsed = whole && cJSON_IsRaw(rows) ? cJSON_Parse(rows->valuestring) : NULL;
    if (parsed)
        rows = parsed;
    double grate[DIR_COUNT];
    group_rate(phase, jobs, gid, grate);
    static const char *const dn[DIR_COUNT] = {"read", "write", "trim"};
    for (int d = 0; d < DIR_COUNT; d++) {
        struct fio_json_samples bw, iops;
        char f[32];
        snprintf(f, sizeof(f), "%s_mbps", dn[d]);
        fio_json_samples_from_rows(iv, rows, step_ms, f, 1e6 / 1024.0, &bw);
        snprintf(f, sizeof(f), "%s_iops", dn[d]);
        fio_json_samples_from_rows(iv, rows, step_ms, f, 1.0, &iops);
        cJSON *dobj = fio_json_dir_json(&o->dir[d], o->elapsed_s, whole ? &bw : NULL, whole ? &iops : NULL,
                                        grate[d], pct, c->plus);
        cJSON_AddItemToObject(jo, dn[d], dobj);
        if (d < 2)
            fio_json_add_prios(dobj, &o->prio.dir[d], pct, c->plus);
    }
    cJSON_Delete(parsed);
    add_mixed(jo, first, o, grate[0] + grate[1] + grate[2], pct, c->plus);
}

/* The "sync" object: flushes and their latency. */
static void job_sync(struct fio_json_ctx *c, cJSON *jo, const struct fio_json_pcts *pct)
{
    struct fio_json_obj *o = &c->obj;
    cJSON *sy = cJSON_AddObjectToObject(jo, "sync");
    cJSON_AddNumberToObject(sy, "total_ios", (double)o->syncs);
    if (pct->no_clat) /* fio times flushes with clat */
        hist_init(&o->sync);
    /* fio: flush percentiles when lat_ or clat_percentiles is on */
    bool sync_pct = pct->lat_pct || !pct->clat_pct_off;
    cJSON_AddItemToObject(sy, "lat_ns", fio_json_lat_json(&o->sync, sync_pct ? pct : NULL, c->plus && sync_pct));
}

/* job_runtime, CPU shares and faults of the reported threads. */
static void job_usage(cJSON *jo, const cJSON *phase, const struct fio_json_obj *o, const struct fio_json_usage *usage,
                      double ramp_s)
{
    /* fio: the sum of the reported clones' run times (group_reporting) */
    cJSON_AddNumberToObject(jo, "job_runtime",
                            (double)llround((usage->nw > 1 ? usage->job_s : o->elapsed_s) * 1000.0));
    if (usage->any) {
        /* fio: the reported threads' own CPU time over their run time */
        double per = usage->run_s > 0 ? 100.0 / usage->run_s : 0;
        cJSON_AddNumberToObject(jo, "usr_cpu", fio_json_round6(usage->user_s * per));
        cJSON_AddNumberToObject(jo, "sys_cpu", fio_json_round6(usage->sys_s * per));
    } else {
        /* results written before per-thread usage was kept: the process's */
        const cJSON *cpu = cJSON_GetObjectItemCaseSensitive(phase, "cpu");
        double phase_s = result_num(phase, "elapsed_s", 0) + ramp_s;
        double per_s = phase_s > 0 ? 100.0 / phase_s : 0;
        cJSON_AddNumberToObject(jo, "usr_cpu", fio_json_round6(result_num(cpu, "user_s", 0) * per_s));
        cJSON_AddNumberToObject(jo, "sys_cpu", fio_json_round6(result_num(cpu, "sys_s", 0) * per_s));
    }
    cJSON_AddNumberToObject(jo, "ctx", usage->ctx);
    cJSON_AddNumberToObject(jo, "majf", usage->majf);
    cJSON_AddNumberToObject(jo, "minf", usage->minf);
}

/* The iodepth tables, latency_* shares and the latency target in force. */
static void job_depths(struct fio_json_ctx *c, cJSON *jo, const cJSON *first, const struct fio_json_usage *usage,
                       const struct fio_json_pcts *pct)
{
    const struct fio_json_obj *o = &c->obj;
    double lat_sum = (double)o->dir[0].lat.sum + (double)o->dir[1].lat.sum;
    double inflight = o->elapsed_s > 0 ? lat_sum / (o->elapsed_s * 1e9) : 0;
    if (usage->any_depth)
        fio_json_iodepth_dist(jo, usage->depth);
    else
        fio_json_iodepth_level(jo, o->workers ? inflight / o->workers : inflight);
    calls_table(jo, "iodepth_submit", usage->submit);
    calls_table(jo, "iodepth_complete", usage->complete);
    /* fio's latency_* tables are shares of all read and write I/Os */
    hist_init(&c->tmp);
    if (!pct->no_clat) { /* fio counts them from clat */
        hist_merge(&c->tmp, &o->dir[0].lat);
        hist_merge(&c->tmp, &o->dir[1].lat);
    }
    fio_json_latency_dists(jo, &c->tmp);
    if (usage->errors_on) { /* fio: with continue_on_error, the errors it let pass */
        cJSON_AddNumberToObject(jo, "total_err", usage->errors_passed);
        cJSON_AddNumberToObject(jo, "first_error", usage->first_passed);
    }
    /* fio: the depth in force (iodepth without latency_target), the target
     * in ns, the window in us */
    const cJSON *lt = cJSON_GetObjectItemCaseSensitive(first, "latency_target");
    if (cJSON_IsObject(lt)) {
        cJSON_AddNumberToObject(jo, "latency_depth", result_num(lt, "depth", 1));
        cJSON_AddNumberToObject(jo, "latency_target", result_num(lt, "target_ns", 0));
        cJSON_AddNumberToObject(jo, "latency_percentile", result_num(lt, "percentile", 100));
        cJSON_AddNumberToObject(jo, "latency_window", (double)(uint64_t)(result_num(lt, "window_ns", 0) / 1000));
    } else {
        cJSON_AddNumberToObject(jo, "latency_depth", job_param(first, "iodepth", 1));
        cJSON_AddNumberToObject(jo, "latency_target", 0);
        cJSON_AddNumberToObject(jo, "latency_percentile", 100.0);
        cJSON_AddNumberToObject(jo, "latency_window", 0);
    }
}

/* One fio job object for jobs [j0, j1) of phase, or for clone `clone` of
 * nclones (clone < 0: the jobs as one): collect, then the keys in fio's
 * order. */
static cJSON *job_object(struct fio_json_ctx *c, const cJSON *phase, const cJSON *jobs, int j0, int j1, int clone,
                         int nclones)
{
    struct fio_json_obj *o = &c->obj;
    struct fio_json_pcts pct;
    struct fio_json_usage usage;
    if (obj_collect(c, phase, jobs, j0, j1, clone, nclones, &pct, &usage) < 0)
        return NULL;
    const cJSON *first = cJSON_GetArrayItem(jobs, j0);
    int gid = (int)result_num_in(first, "group", INT_MIN, INT_MAX, 0);
    double ramp_s = job_param(first, "ramp_s", 0);
    job_switches(first, &pct);
    for (int d = 0; d < DIR_COUNT; d++) {
        o->dir[d].only_ios = (uint64_t)usage.fio_only_ios[d];
        o->dir[d].only_bytes = (uint64_t)usage.fio_only_bytes[d];
    }

    cJSON *jo = cJSON_CreateObject();
    cJSON_AddStringToObject(jo, "jobname", result_str(first, "name", "job"));
    cJSON_AddNumberToObject(jo, "groupid", gid);
    cJSON_AddNumberToObject(jo, "error", obj_error(o, phase, jobs, j0, j1));
    const char *desc = result_str(first, "description", NULL);
    if (desc && *desc)
        cJSON_AddStringToObject(jo, "desc", desc);
    cJSON_AddNumberToObject(jo, "eta", 0);
    cJSON_AddNumberToObject(jo, "elapsed", ceil(o->elapsed_s + ramp_s));
    cJSON_AddItemToObject(jo, "job options", job_options(first));
    bool whole = clone < 0 && j0 == 0 && j1 == cJSON_GetArraySize(jobs);
    job_dirs(c, jo, phase, jobs, first, gid, whole, &pct);
    job_sync(c, jo, &pct);
    job_usage(jo, phase, o, &usage, ramp_s);
    job_depths(c, jo, first, &usage, &pct);
    add_steadystate(jo, phase, result_str(first, "name", "job"));
    if (c->members) {
        cJSON_AddNumberToObject(jo, FIO_JSON_MEMBERS_KEY, o->workers);
        double resets = 0;
        for (int k = j0; k < j1; k++)
            resets += result_num(cJSON_GetArrayItem(jobs, k), "zone_resets", 0);
        cJSON_AddNumberToObject(jo, FIO_JSON_ZONE_RESETS_KEY, resets);
    }
    return jo;
}

/* How many clones of job have statistics of their own (0: report the job
 * as one object). Worker w is clone w % numjobs (a job on several files in
 * jbod layout has one worker per file and clone; fio reports the files of
 * a clone together). */
static int clones_kept(const cJSON *job)
{
    const cJSON *ws = cJSON_GetObjectItemCaseSensitive(job, "worker_stats");
    int n = cJSON_GetArraySize(ws);
    int clones = (int)job_param(job, "clones", 0);
    if (clones < 2 || n < clones || n % clones)
        return 0;
    for (int i = 0; i < n; i++)
        if (!cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(ws, i), "stats")))
            return 0;
    return clones;
}

static void disks_add_phase(struct fio_json_ctx *c, const cJSON *phase, int pidx)
{
    const cJSON *first = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(phase, "jobs"), 0);
    double ms = 1000.0 * (result_num(phase, "elapsed_s", 0) + job_param(first, "ramp_s", 0));
    static const char *const lists[] = {"kernel_stats", "fs_kernel_stats"};
    for (unsigned li = 0; li < 2; li++) {
    const cJSON *k;
    cJSON_ArrayForEach(k, cJSON_GetObjectItemCaseSensitive(phase, lists[li]))
    {
        const char *name = result_str(k, "device", "");
        if (!*name)
            continue;
        struct fio_json_disk *d = NULL;
        for (unsigned i = 0; i < c->ndisks && !d; i++)
            if (strcmp(c->disks[i].name, name) == 0)
                d = &c->disks[i];
        if (!d) {
            if (c->ndisks >= FIO_JSON_MAX_DISKS)
                continue;
            d = &c->disks[c->ndisks++];
            snprintf(d->name, sizeof(d->name), "%s", name);
            d->last_phase = -1;
        }
        if (d->last_phase == pidx)
            continue;
        d->last_phase = pidx;
        d->read_ios += result_num(k, "read_ios", 0);
        d->write_ios += result_num(k, "write_ios", 0);
        d->read_merges += result_num(k, "read_merges", 0);
        d->write_merges += result_num(k, "write_merges", 0);
        d->read_ticks += result_num(k, "read_ticks_ms", 0);
        d->write_ticks += result_num(k, "write_ticks_ms", 0);
        d->io_ticks += result_num(k, "io_ticks_ms", 0);
        d->other_ticks += result_num(k, "discard_ticks_ms", 0) + result_num(k, "flush_ticks_ms", 0);
        d->ms += ms;
    }
    }
}

static cJSON *disks_json(const struct fio_json_ctx *c)
{
    cJSON *a = cJSON_CreateArray();
    for (unsigned i = 0; i < c->ndisks; i++) {
        const struct fio_json_disk *d = &c->disks[i];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "name", d->name);
        cJSON_AddNumberToObject(o, "read_ios", d->read_ios);
        cJSON_AddNumberToObject(o, "write_ios", d->write_ios);
        cJSON_AddNumberToObject(o, "read_merges", d->read_merges);
        cJSON_AddNumberToObject(o, "write_merges", d->write_merges);
        cJSON_AddNumberToObject(o, "read_ticks", d->read_ticks);
        cJSON_AddNumberToObject(o, "write_ticks", d->write_ticks);
        /* the kernel's time_in_queue is the sum of the per-direction ticks,
         * discard and flush time included */
        cJSON_AddNumberToObject(o, "in_queue", d->read_ticks + d->write_ticks + d->other_ticks);
        double util = d->ms > 0 ? 100.0 * d->io_ticks / d->ms : 0;
        cJSON_AddNumberToObject(o, "util", util > 100.0 ? 100.0 : fio_json_round6(util));
        cJSON_AddItemToArray(a, o);
    }
    return a;
}

static void add_header(cJSON *out, const cJSON *doc, bool plus)
{
    const char *ver = result_str(cJSON_GetObjectItemCaseSensitive(doc, "tool"), "version", "?");
    char v[128];
    snprintf(v, sizeof(v), "%s-compatible (ssdbench %s)", FIO_JSON_COMPAT, ver);
    cJSON_AddStringToObject(out, "fio version", v);
    cJSON_AddStringToObject(out, "ssdbench version", ver);
    cJSON_AddStringToObject(out, "ssdbench format", plus ? "fio-json+/1" : "fio-json/1");
    /* fio stamps the time its report is written: the end of the run */
    double end_ms = result_num(doc, "started_unix_ms", 0) + 1000.0 * result_num(doc, "duration_s", 0);
    time_t t = (time_t)(end_ms / 1000.0);
    cJSON_AddNumberToObject(out, "timestamp", (double)t);
    cJSON_AddNumberToObject(out, "timestamp_ms", floor(end_ms));
    struct tm tm;
    char ts[64] = "";
    if (localtime_r(&t, &tm))
        strftime(ts, sizeof(ts), "%a %b %e %H:%M:%S %Y", &tm);
    cJSON_AddStringToObject(out, "time", ts);
    if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(doc, "interrupted")))
        cJSON_AddBoolToObject(out, "ssdbench interrupted", true);
}

static cJSON *build(const cJSON *doc, bool plus, bool members, char *err, size_t errlen)
{
    struct fio_json_ctx *c = calloc(1, sizeof(*c));
    cJSON *out = cJSON_CreateObject();
    if (!c || !out) {
        snprintf(err, errlen, "out of memory");
        free(c);
        cJSON_Delete(out);
        return NULL;
    }
    c->plus = plus;
    c->members = members;
    c->err = err;
    c->errlen = errlen;
    add_header(out, doc, plus);
    /* fio's "global options": the [global] keys as written, of the first
     * job (present when there are any) */
    const cJSON *j0 = cJSON_GetArrayItem(
        cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(doc, "phases"), 0), "jobs"), 0);
    const cJSON *wg = cJSON_GetObjectItemCaseSensitive(
        cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(j0, "params"), "written"), "global");
    if (cJSON_GetArraySize(wg) > 0)
        cJSON_AddItemToObject(out, "global options", written_copy(wg));
    cJSON *jobs_out = cJSON_AddArrayToObject(out, "jobs");
    const cJSON *phase;
    int pidx = 0;
    cJSON_ArrayForEach(phase, cJSON_GetObjectItemCaseSensitive(doc, "phases"))
    {
        const cJSON *jobs = cJSON_GetObjectItemCaseSensitive(phase, "jobs");
        int n = cJSON_GetArraySize(jobs);
        /* fio: a job joins the object before it when it has group_reporting
         * and the same group as the job before it */
        for (int j = 0; j < n;) {
            int e = j + 1;
            while (e < n && job_bool(cJSON_GetArrayItem(jobs, e), "group_reporting") &&
                   result_num(cJSON_GetArrayItem(jobs, e), "group", 0) ==
                       result_num(cJSON_GetArrayItem(jobs, e - 1), "group", 0))
                e++;
            /* fio: without group_reporting each clone is its own object */
            const cJSON *first = cJSON_GetArrayItem(jobs, j);
            int nclones = e == j + 1 && !job_bool(first, "group_reporting") ? clones_kept(first) : 0;
            for (int k = nclones ? 0 : -1; k < nclones; k++) {
                cJSON *jo = job_object(c, phase, jobs, j, e, k, nclones);
                if (!jo) {
                    cJSON_Delete(out);
                    prio_stats_clear(&c->obj.prio);
                    free(c);
                    return NULL;
                }
                cJSON_AddItemToArray(jobs_out, jo);
            }
            j = e;
        }
        disks_add_phase(c, phase, pidx++);
    }
    if (c->ndisks)
        cJSON_AddItemToObject(out, "disk_util", disks_json(c));
    prio_stats_clear(&c->obj.prio);
    free(c);
    return out;
}

cJSON *fio_json_build(const cJSON *doc, bool plus, char *err, size_t errlen)
{
    return build(doc, plus, false, err, errlen);
}

cJSON *fio_json_build_text(const cJSON *doc, char *err, size_t errlen)
{
    return build(doc, false, true, err, errlen);
}

/* fio writes its floating-point figures with "%f" (six decimals, always a
 * decimal point: "100.000000"), so readers that check the type see a
 * float; cJSON would write 100 for them. Done on the finished document
 * only, which the text renderers never read. */
static bool float_key(const char *k)
{
    static const char *const keys[] = {"bw_agg", "bw_dev",    "bw_mean", "iops",    "iops_mean",
                                       "iops_stddev", "mean", "stddev", "util", "latency_percentile",
                                       "sys_cpu", "usr_cpu"};
    for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
        if (!strcmp(k, keys[i]))
            return true;
    return false;
}

static bool float_table(const char *k)
{
    static const char *const keys[] = {"iodepth_level", "iodepth_submit", "iodepth_complete",
                                       "latency_ns",    "latency_us",     "latency_ms"};
    for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
        if (!strcmp(k, keys[i]))
            return true;
    return false;
}

static void floats_as_fio(cJSON *o, bool all)
{
    for (cJSON *e = o ? o->child : NULL; e; e = e->next) {
        if (cJSON_IsNumber(e) && e->string && (all || float_key(e->string))) {
            char b[64];
            snprintf(b, sizeof(b), "%f", e->valuedouble);
            /* in place: the item becomes raw JSON text */
            e->type = cJSON_Raw;
            e->valuestring = strdup(b);
            if (!e->valuestring) {
                e->type = cJSON_Number;
                continue;
            }
        } else if (cJSON_IsObject(e) || cJSON_IsArray(e)) {
            floats_as_fio(e, cJSON_IsObject(e) && e->string && float_table(e->string));
        }
    }
}

int render_fio_json(FILE *f, const cJSON *doc, bool plus, char *err, size_t errlen)
{
    snprintf(err, errlen, "out of memory");
    cJSON *out = fio_json_build(doc, plus, err, errlen);
    if (!out)
        return strcmp(err, "out of memory") == 0 ? -ENOMEM : -EINVAL;
    floats_as_fio(out, false);
    char *txt = result_print(out, true);
    cJSON_Delete(out);
    if (!txt) {
        snprintf(err, errlen, "out of memory");
        return -ENOMEM;
    }
    bool ok = fputs(txt, f) >= 0 && fputc('\n', f) != EOF && fflush(f) == 0;
    free(txt);
    if (!ok) {
        snprintf(err, errlen, "cannot write the fio-shaped JSON: %s", strerror(errno));
        return -EIO;
    }
    return 0;
}
