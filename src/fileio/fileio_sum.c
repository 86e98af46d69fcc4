/* fileio_sum.c - sysbench's report figures, computed from a phase of the
 * result document (see fileio.h), so a saved result re-renders the same.
 *
 * Where each figure comes from:
 *  - reads/s, writes/s, fsyncs/s, MiB/s: the phase's "total" scope counts
 *    and bytes over its elapsed time (sysbench uses its own timer, which
 *    differs from events / time by a fraction of a percent);
 *  - fsyncs: every fsync the run made, the end-of-test ones (jobs[].end_fsyncs)
 *    included, as sysbench counts them;
 *  - events: the workers' event counts (jobs[].worker_stats[].events): reads,
 *    writes and periodic fsyncs; a --file-fsync-all fsync belongs to its
 *    write's event and the end-of-test fsyncs are no events, as in sysbench;
 *  - latency min/avg/max/sum: exact, from the per-event times
 *    (jobs[].event_latency_ns), timed as sysbench times an event (in async
 *    mode: the submission, and the wait when the backlog is full); the
 *    submission -> completion latency of the same requests is kept as
 *    completion_latency_ms; with --rate the reads' and writes' completion
 *    latency from their scheduled time;
 *  - the percentile: sysbench's rank rule on the merged histogram, reported
 *    at ssdbench's resolution (0.4 %) rather than sysbench's (1.8 %);
 *  - threads fairness: jobs[].worker_stats (events and event time per thread),
 *    mean and population standard deviation as sysbench prints them;
 *  - the --histogram block: the merged histogram re-binned into sysbench's
 *    1024 log buckets (1 us .. 100 s), so the printed values are sysbench's.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "result/result_hist.h"
#include "result/result.h"
#include "fileio/fileio.h"

#define SB_BUCKETS 1024
#define SB_MIN_MS 0.001
#define SB_MAX_MS 100000.0

uint64_t fileio_percentile(const struct hist *h, double p)
{
    if (!h->n)
        return 0;
    uint64_t rank = (uint64_t)floor((double)h->n * p / 100.0 + 0.5);
    uint64_t cum = 0;
    for (unsigned i = 0; i < HIST_NBUCKETS; i++) {
        cum += h->counts[i];
        if (h->counts[i] && cum >= rank) {
            uint64_t v = hist_bucket_mid(i);
            return v < h->min ? h->min : v > h->max ? h->max : v;
        }
    }
    return h->max;
}

static double sb_mult(void)
{
    return (SB_BUCKETS - 1) / (log(SB_MAX_MS) - log(SB_MIN_MS));
}

unsigned fileio_sb_bucket(double ms)
{
    if (!(ms > 0))
        return 0;
    double i = floor((log(ms) - log(SB_MIN_MS)) * sb_mult() + 0.5);
    if (i < 0)
        return 0;
    if (i >= SB_BUCKETS)
        return SB_BUCKETS - 1;
    return (unsigned)i;
}

double fileio_sb_value(unsigned bucket)
{
    return exp(bucket / sb_mult() + log(SB_MIN_MS));
}

static int fail(char *err, size_t errlen, const char *what)
{
    snprintf(err, errlen, "fileio summary: the phase has no %s", what);
    return -EINVAL;
}

/* Merges the latency histogram of scope[dir] (dir = read, write, sync) into h. */
static int merge_dir(const cJSON *scope, const char *dir, struct hist *h, struct hist *tmp,
                     char *err, size_t errlen)
{
    const cJSON *d = cJSON_GetObjectItemCaseSensitive(scope, dir);
    if (!d)
        return 0;
    /* paced runs (--rate): from the scheduled time, as sysbench counts the
     * time a request waits in its queue */
    const cJSON *lat = cJSON_GetObjectItemCaseSensitive(d, "scheduled_latency_ns");
    if (!cJSON_IsObject(lat))
        lat = cJSON_GetObjectItemCaseSensitive(d, "latency_ns");
    const cJSON *hj = cJSON_GetObjectItemCaseSensitive(lat, "histogram");
    if (!hj)
        return 0;
    char e[256];
    if (result_hist_from_json(hj, tmp, e, sizeof(e)) < 0) {
        snprintf(err, errlen, "fileio summary: %s latency: %s", dir, e);
        return -EINVAL;
    }
    hist_merge(h, tmp);
    return 0;
}

/* Merges the jobs' per-event time histograms into h; false when the phase
 * has none (a result of an older ssdbench: completion latency is used). */
static int merge_events(const cJSON *phase, struct hist *h, struct hist *tmp, bool *found,
                        double *events, double *end_fsyncs, char *err, size_t errlen)
{
    const cJSON *job, *w;
    *found = false;
    *events = *end_fsyncs = 0;
    cJSON_ArrayForEach(job, cJSON_GetObjectItemCaseSensitive(phase, "jobs")) {
        *end_fsyncs += result_num(job, "end_fsyncs", 0);
        const cJSON *hj = cJSON_GetObjectItemCaseSensitive(
            cJSON_GetObjectItemCaseSensitive(job, "event_latency_ns"), "histogram");
        if (!hj)
            continue;
        char e[256];
        if (result_hist_from_json(hj, tmp, e, sizeof(e)) < 0) {
            snprintf(err, errlen, "fileio summary: event latency: %s", e);
            return -EINVAL;
        }
        hist_merge(h, tmp);
        *found = true;
        cJSON_ArrayForEach(w, cJSON_GetObjectItemCaseSensitive(job, "worker_stats"))
            *events += result_num(w, "events", 0);
    }
    return 0;
}

static void latency_obj(cJSON *rep, const char *key, const struct hist *h, unsigned percentile)
{
    cJSON *lat = cJSON_AddObjectToObject(rep, key);
    cJSON_AddNumberToObject(lat, "min", h->n ? (double)h->min / 1e6 : 0);
    cJSON_AddNumberToObject(lat, "avg", hist_mean(h) / 1e6);
    cJSON_AddNumberToObject(lat, "max", h->n ? (double)h->max / 1e6 : 0);
    cJSON_AddNumberToObject(lat, "percentile", percentile);
    if (percentile)
        cJSON_AddNumberToObject(lat, "pct", (double)fileio_percentile(h, percentile) / 1e6);
    cJSON_AddNumberToObject(lat, "sum", (double)h->sum / 1e6);
}

static void mean_sd(const double *v, unsigned n, double *mean, double *sd)
{
    double s = 0, ss = 0;
    for (unsigned i = 0; i < n; i++)
        s += v[i];
    *mean = n ? s / n : 0;
    for (unsigned i = 0; i < n; i++)
        ss += (v[i] - *mean) * (v[i] - *mean);
    *sd = n ? sqrt(ss / n) : 0;
}

static int fairness(const cJSON *phase, cJSON *rep, char *err, size_t errlen)
{
    const cJSON *jobs = cJSON_GetObjectItemCaseSensitive(phase, "jobs"), *job, *w;
    unsigned n = 0;
    cJSON_ArrayForEach(job, jobs)
        n += (unsigned)cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(job, "worker_stats"));
    if (!n)
        return fail(err, errlen, "worker_stats");
    /* With fewer --events than threads some threads had nothing to do and
     * got no worker; they count as threads with no events, as in sysbench. */
    double want = result_num(cJSON_GetObjectItemCaseSensitive(phase, "fileio"), "threads", 0);
    unsigned total = want > n && want <= FILEIO_MAX_THREADS ? (unsigned)want : n;
    double *ev = calloc(total, sizeof(double)), *tm = calloc(total, sizeof(double));
    if (!ev || !tm) {
        free(ev);
        free(tm);
        snprintf(err, errlen, "out of memory");
        return -ENOMEM;
    }
    unsigned i = 0;
    cJSON_ArrayForEach(job, jobs)
        cJSON_ArrayForEach(w, cJSON_GetObjectItemCaseSensitive(job, "worker_stats")) {
            bool evs = cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(w, "events"));
            ev[i] = evs ? result_num(w, "events", 0) : result_num(w, "ios", 0);
            tm[i++] = evs ? result_num(w, "event_busy_s", 0) : result_num(w, "busy_s", 0);
        }
    n = total;
    double m, sd;
    cJSON *f = cJSON_AddObjectToObject(rep, "fairness");
    cJSON_AddNumberToObject(f, "threads", n);
    mean_sd(ev, n, &m, &sd);
    cJSON_AddNumberToObject(f, "events_avg", m);
    cJSON_AddNumberToObject(f, "events_stddev", sd);
    mean_sd(tm, n, &m, &sd);
    cJSON_AddNumberToObject(f, "time_avg", m);
    cJSON_AddNumberToObject(f, "time_stddev", sd);
    free(ev);
    free(tm);
    return 0;
}

static cJSON *sb_histogram(const struct hist *h)
{
    uint64_t *b = calloc(SB_BUCKETS, sizeof(uint64_t));
    cJSON *a = cJSON_CreateArray();
    if (!b || !a) {
        free(b);
        return a;
    }
    for (unsigned i = 0; i < HIST_NBUCKETS; i++)
        if (h->counts[i])
            b[fileio_sb_bucket((double)hist_bucket_mid(i) / 1e6)] += h->counts[i];
    for (unsigned i = 0; i < SB_BUCKETS; i++)
        if (b[i]) {
            cJSON *e = cJSON_CreateArray();
            cJSON_AddItemToArray(e, cJSON_CreateNumber(fileio_sb_value(i)));
            cJSON_AddItemToArray(e, cJSON_CreateNumber((double)b[i]));
            cJSON_AddItemToArray(a, e);
        }
    free(b);
    return a;
}

int fileio_summarize(cJSON *phase, unsigned percentile, bool histogram, char *err, size_t errlen)
{
    const cJSON *tot = result_scope(phase, "total");
    if (!tot)
        return fail(err, errlen, "\"total\" results");
    struct hist *h = malloc(sizeof(*h)), *tmp = malloc(sizeof(*tmp)), *ev = malloc(sizeof(*ev));
    if (!h || !tmp || !ev) {
        free(h);
        free(tmp);
        free(ev);
        snprintf(err, errlen, "out of memory");
        return -ENOMEM;
    }
    hist_init(h);
    int rc = merge_dir(tot, "read", h, tmp, err, errlen);
    if (rc == 0)
        rc = merge_dir(tot, "write", h, tmp, err, errlen);
    if (rc == 0)
        rc = merge_dir(tot, "sync", h, tmp, err, errlen);
    bool have_ev = false;
    double nev = 0, end_fsyncs = 0;
    hist_init(ev);
    if (rc == 0)
        rc = merge_events(phase, ev, tmp, &have_ev, &nev, &end_fsyncs, err, errlen);
    free(tmp);
    if (rc < 0) {
        free(h);
        free(ev);
        return rc;
    }
    double secs = result_num(tot, "elapsed_s", 0);
    const cJSON *rd = cJSON_GetObjectItemCaseSensitive(tot, "read");
    const cJSON *wr = cJSON_GetObjectItemCaseSensitive(tot, "write");
    const cJSON *sy = cJSON_GetObjectItemCaseSensitive(tot, "sync");
    double reads = result_num(rd, "ios", 0), writes = result_num(wr, "ios", 0);
    double syncs = result_num(sy, "ios", 0);
    double events = have_ev ? nev : reads + writes + syncs;
    syncs += end_fsyncs;
    double per = secs > 0 ? 1.0 / secs : 0;

    cJSON *fo = cJSON_GetObjectItemCaseSensitive(phase, "fileio");
    if (!fo)
        fo = cJSON_AddObjectToObject(phase, "fileio");
    cJSON_DeleteItemFromObjectCaseSensitive(fo, "report");
    cJSON *rep = cJSON_AddObjectToObject(fo, "report");
    cJSON_AddNumberToObject(rep, "reads_per_s", reads * per);
    cJSON_AddNumberToObject(rep, "writes_per_s", writes * per);
    cJSON_AddNumberToObject(rep, "fsyncs_per_s", syncs * per);
    cJSON_AddNumberToObject(rep, "read_mibps", result_num(rd, "bytes", 0) * per / 1048576.0);
    cJSON_AddNumberToObject(rep, "written_mibps", result_num(wr, "bytes", 0) * per / 1048576.0);
    cJSON_AddNumberToObject(rep, "total_time_s", secs);
    cJSON_AddNumberToObject(rep, "events", events);
    cJSON_AddNumberToObject(rep, "fsyncs", syncs);
    cJSON_AddNumberToObject(rep, "end_fsyncs", end_fsyncs);
    /* latency_ms: what sysbench prints (per event); completion_latency_ms:
     * submission -> completion of the reads, writes and fsyncs */
    const struct hist *shown = have_ev ? ev : h;
    latency_obj(rep, "latency_ms", shown, percentile);
    latency_obj(rep, "completion_latency_ms", h, percentile);
    if (histogram)
        cJSON_AddItemToObject(rep, "histogram", sb_histogram(shown));
    free(h);
    free(ev);
    return fairness(phase, rep, err, errlen);
}
