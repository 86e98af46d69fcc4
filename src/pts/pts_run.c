/* pts_run.c - running the PTS tests (see pts.h): per test a purge, the
 * workload-independent preconditioning (WIPC), then rounds of the test's
 * elements with no idle time between them until the tracking variables are
 * in steady state (base/steady.h through struct pts_ss) or the round limit,
 * and the test's table averaged over the measurement window. Every element
 * of every round is a phase of the document; the "pts" object lists them
 * with their figures, so the reports and a reader with the JSON can redo
 * every number. WSAT writes RND 4 KiB from a purged device until 4x the
 * capacity or its time, sampled per interval. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/clock.h"
#include "pts/pts_int.h"
#include "result/result.h"
#include "result/result_fig.h"
#include "result/result_hist.h"
#include "result/result_steady.h"
#include "stats/hist.h"
#include "prep/prep_purge.h"
#include "target/purge.h"
#include "target/target.h"

#define MIB (1ull << 20)

void pts_now_iso(char *buf, size_t len)
{
    time_t t = (time_t)(clock_wall_ns() / 1000000000ull);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* ---- jobs ------------------------------------------------------------------ */

static void base_job(const struct pts_ctx *x, const char *name, struct job_spec *j)
{
    job_defaults(j);
    snprintf(j->name, sizeof(j->name), "%s", name);
    j->ntargets = 1;
    snprintf(j->targets[0], sizeof(j->targets[0]), "%s", x->c->target);
    j->engine = x->c->engine;
    j->direct = true;
    j->buffer = BUF_RANDOM;
    j->refill_buffers = true;      /* random data, new for every write */
    j->norandommap = true;
    j->offset = 0;
    j->size = x->ar_bytes;
    /* the rounds of a segmented run see the segments laid end to end */
    if (x->in_rounds && x->segs.n) {
        j->segs = x->segs;
        j->size = (uint64_t)x->segs.n * x->segs.len;
    }
    if (x->c->io_log[0]) {
        char nm[JOB_NAME_MAX];
        size_t k = 0;
        for (const char *p = name; *p && k + 1 < sizeof(nm); p++)
            nm[k++] = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ? *p : '_';
        nm[k] = 0;
        snprintf(j->lat_log, sizeof(j->lat_log), "%s-%03u-%s", x->c->io_log, x->nphase, nm);
        j->log_offset = true;
    }
}

/* The space the jobs of this phase address: the ActiveRange, or in the
 * rounds of a segmented run the segments end to end. */
static uint64_t job_space(const struct pts_ctx *x)
{
    return x->in_rounds && x->segs.n ? (uint64_t)x->segs.n * x->segs.len : x->ar_bytes;
}

static void set_bs(struct job_spec *j, uint32_t bs)
{
    for (unsigned d = 0; d < DIR_COUNT; d++) {
        j->bs[d].n = 1;
        j->bs[d].bs[0] = bs;
        j->bs[d].pct[0] = 100;
    }
}

/* Sequential streams: one job per thread on its own slice of the
 * ActiveRange, so TC threads together cover it once per pass. Fills up to
 * tc jobs; returns how many. io_limit (bytes per thread) 0 = time based. */
static unsigned seq_jobs(const struct pts_ctx *x, const char *name, uint32_t bs, unsigned read_pct,
                         uint64_t runtime_ns, uint64_t total_bytes, struct job_spec *jobs)
{
    uint64_t space = job_space(x);
    /* segmented: whole segments per thread, so a slice starts a segment */
    uint64_t unit = x->in_rounds && x->segs.n ? x->segs.len : bs;
    uint64_t slice = space / x->tc / unit * unit;
    unsigned n = slice ? x->tc : 1;
    if (!slice)
        slice = space / unit * unit;
    for (unsigned k = 0; k < n; k++) {
        struct job_spec *j = &jobs[k];
        char nm[JOB_NAME_MAX];
        snprintf(nm, sizeof(nm), "%s.%u", name, k);
        base_job(x, nm, j);
        set_bs(j, bs);
        j->rw = read_pct == 100 ? RW_READ : read_pct == 0 ? RW_WRITE : RW_RW;
        j->rwmixread = read_pct;
        j->pct_random = 0;
        j->offset = slice * k;
        j->size = slice;
        j->iodepth = x->qd;
        j->numjobs = 1;
        if (runtime_ns) {
            j->runtime_ns = runtime_ns;
            j->time_based = true;
            j->interval_ns = runtime_ns;
        } else {
            /* this thread's share of total_bytes, whole blocks */
            j->io_limit = total_bytes / n / bs * bs;
            if (!j->io_limit)
                j->io_limit = bs;
        }
    }
    return n;
}

static void rnd_job(const struct pts_ctx *x, const char *name, const struct pts_element *e,
                    uint64_t runtime_ns, unsigned tc, unsigned qd, struct job_spec *j)
{
    base_job(x, name, j);
    set_bs(j, e->bs);
    j->rw = e->read_pct == 100 ? RW_RANDREAD : e->read_pct == 0 ? RW_RANDWRITE : RW_RANDRW;
    j->rwmixread = e->read_pct;
    j->pct_random = 100;
    if (e->composite)
        pts_cbw_apply(j);
    j->iodepth = qd;
    j->numjobs = tc;
    j->runtime_ns = runtime_ns;
    j->time_based = true;
    j->interval_ns = runtime_ns;
}

static cJSON *run_phase(struct pts_ctx *x, const char *name, const char *kind,
                        const struct job_spec *jobs, unsigned njobs, runner_interval_fn hook,
                        void *arg, int *rc, char *err, size_t errlen)
{
    struct plan_phase ph;
    memset(&ph, 0, sizeof(ph));
    snprintf(ph.name, sizeof(ph.name), "%s", name);
    snprintf(ph.kind, sizeof(ph.kind), "%s", kind);
    ph.jobs = (struct job_spec *)jobs;
    ph.njobs = njobs;
    struct runner_opts ro = {0};
    if (x->o->base)
        ro = *x->o->base;
    ro.consent = x->o->consent;
    ro.status = x->o->status;
    ro.on_interval = hook;
    ro.arg = arg;
    ro.stop_on_error = true;
    *rc = 0;
    x->nphase++;
    cJSON *obj = plan_run_phase(x->doc, &ph, &ro, x->st, rc, err, errlen);
    if (!obj && *rc == 0) {
        *rc = -ENOMEM;
        snprintf(err, errlen, "out of memory");
    }
    return obj;
}

/* ---- figures of a phase ----------------------------------------------------- */

/* Merges the read and write latency histograms of a phase's total into h. */
static int phase_hist(const cJSON *phase, struct hist *h, struct hist *tmp, char *err, size_t errlen)
{
    const cJSON *tot = result_scope(phase, "total");
    for (int d = 0; d < 2; d++) {
        const cJSON *dir = cJSON_GetObjectItemCaseSensitive(tot, d ? "write" : "read");
        const cJSON *hj = cJSON_GetObjectItemCaseSensitive(
            cJSON_GetObjectItemCaseSensitive(dir, "latency_ns"), "histogram");
        if (!hj)
            continue;
        int rc = result_hist_from_json(hj, tmp, err, errlen);
        if (rc < 0)
            return rc;
        hist_merge(h, tmp);
    }
    return 0;
}

static int phase_fig(const cJSON *phase, struct hist *h, struct hist *tmp, struct el_fig *f,
                     char *err, size_t errlen)
{
    memset(f, 0, sizeof(*f));
    const cJSON *tot = result_scope(phase, "total");
    if (!tot) {
        snprintf(err, errlen, "phase %s has no total results", result_str(phase, "name", "?"));
        return -EINVAL;
    }
    const cJSON *rd = cJSON_GetObjectItemCaseSensitive(tot, "read");
    const cJSON *wr = cJSON_GetObjectItemCaseSensitive(tot, "write");
    f->read_ios = result_num(rd, "ios", 0);
    f->write_ios = result_num(wr, "ios", 0);
    f->ios = f->read_ios + f->write_ios;
    f->bytes = result_num(rd, "bytes", 0) + result_num(wr, "bytes", 0);
    f->elapsed_s = result_num(tot, "elapsed_s", 0);
    f->iops = f->elapsed_s > 0 ? f->ios / f->elapsed_s : 0;
    f->mbps = f->elapsed_s > 0 ? f->bytes / f->elapsed_s / 1e6 : 0;
    hist_init(h);
    int rc = phase_hist(phase, h, tmp, err, errlen);
    if (rc < 0)
        return rc;
    f->lat_mean_ns = hist_mean(h);
    f->lat_max_ns = h->n ? (double)h->max : 0;
    f->p99999_ns = h->n ? (double)hist_percentile(h, 99.999) : 0;
    return 0;
}

static cJSON *fig_json(const struct el_fig *f, const char *phase)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "phase", phase);
    cJSON_AddNumberToObject(o, "ios", f->ios);
    cJSON_AddNumberToObject(o, "read_ios", f->read_ios);
    cJSON_AddNumberToObject(o, "write_ios", f->write_ios);
    cJSON_AddNumberToObject(o, "bytes", f->bytes);
    cJSON_AddNumberToObject(o, "elapsed_s", f->elapsed_s);
    cJSON_AddNumberToObject(o, "iops", f->iops);
    cJSON_AddNumberToObject(o, "mbps", f->mbps);
    cJSON_AddNumberToObject(o, "lat_mean_ns", f->lat_mean_ns);
    cJSON_AddNumberToObject(o, "lat_max_ns", f->lat_max_ns);
    cJSON_AddNumberToObject(o, "p99999_ns", f->p99999_ns);
    return o;
}

static double metric_of(enum steady_metric m, const struct el_fig *f)
{
    return m == STEADY_BW ? f->mbps : m == STEADY_LAT ? f->lat_mean_ns : f->iops;
}

static const char *metric_unit(enum steady_metric m)
{
    return m == STEADY_BW ? "MB/s" : m == STEADY_LAT ? "ns" : "IOPS";
}

/* ---- purge and WIPC ---------------------------------------------------------- */

static void purge_progress(void *arg, const char *line)
{
    const struct pts_ctx *x = arg;
    pts_progress(x, "purge: %s", line);
}

static int do_purge(struct pts_ctx *x, cJSON *tj, char *err, size_t errlen)
{
    cJSON *p = cJSON_AddObjectToObject(tj, "purge");
    if (x->c->no_purge) {
        cJSON_AddStringToObject(p, "method", "none");
        cJSON_AddBoolToObject(p, "skipped", true);
        cJSON_AddStringToObject(p, "statement", "no purge (--no-purge)");
        return 0;
    }
    struct rpurge_report rr;
    struct rpurge_opts po = {.consent = x->o->consent, .mode = x->c->purge_mode,
                             .progress = purge_progress, .arg = x};
    pts_progress(x, "purging %s", x->c->target);
    int rc = prep_purge(x->c->target, &po, &rr, err, errlen);
    if (rc < 0)
        return rc;
    const struct purge_report *r = &rr.r;
    cJSON_AddStringToObject(p, "method", purge_method_name(r->method));
    cJSON_AddBoolToObject(p, "skipped", false);
    cJSON_AddBoolToObject(p, "device_command", rr.device_command);
    cJSON_AddNumberToObject(p, "offset", (double)r->offset);
    cJSON_AddNumberToObject(p, "length", (double)r->length);
    cJSON_AddNumberToObject(p, "elapsed_s", r->elapsed_s);
    if (r->notes[0])
        cJSON_AddStringToObject(p, "notes", r->notes);
    if (rr.considered[0])
        cJSON_AddStringToObject(p, "considered", rr.considered);
    if (rr.scope[0])
        cJSON_AddStringToObject(p, "scope", rr.scope);
    char stmt[160];
    snprintf(stmt, sizeof(stmt), "purged by %s (%.2f s)", purge_method_name(r->method), r->elapsed_s);
    cJSON_AddStringToObject(p, "statement", stmt);
    /* the header's purge summary: every method used, and whether all were
     * the device's own */
    cJSON *hp = cJSON_GetObjectItemCaseSensitive(x->pts, "purge");
    const char *name = purge_method_name(r->method);
    const cJSON *ms = cJSON_GetObjectItemCaseSensitive(hp, "methods");
    if (!cJSON_IsString(ms)) {
        cJSON_AddStringToObject(hp, "methods", name);
        cJSON_AddBoolToObject(hp, "device_command", purge_method_is_device(r->method));
    } else if (!strstr(ms->valuestring, name)) {
        char both[256];
        snprintf(both, sizeof(both), "%s, %s", ms->valuestring, name);
        cJSON_ReplaceItemInObject(hp, "methods", cJSON_CreateString(both));
        if (!purge_method_is_device(r->method))
            cJSON_ReplaceItemInObject(hp, "device_command", cJSON_CreateBool(false));
    }
    /* PTS: SECURITY ERASE, FORMAT UNIT or an equivalent device method */
    if (!purge_method_is_device(r->method))
        pts_add_reason(x, "purge by %s, not a device SECURITY ERASE, FORMAT UNIT or sanitize",
                   purge_method_name(r->method));
    return 0;
}

/* WIPC: 2x the ActiveRange (x capacity scale) of SEQ bs writes at TC/QD. */
static int do_wipc(struct pts_ctx *x, cJSON *tj, const char *test, uint32_t bs, char *err,
                   size_t errlen)
{
    cJSON *w = cJSON_AddObjectToObject(tj, "wipc");
    uint64_t want = (uint64_t)((double)x->ar_bytes * 2.0 * x->c->capacity_scale);
    struct job_spec jobs[64];
    char name[JOB_NAME_MAX];
    snprintf(name, sizeof(name), "pts %s wipc", test);
    unsigned n = seq_jobs(x, name, bs, 0, 0, want, jobs);
    uint64_t planned = 0;
    for (unsigned k = 0; k < n; k++)
        planned += jobs[k].io_limit;
    char b[16];
    pts_bs_name(bs, b, sizeof(b));
    pts_progress(x, "%s: WIPC, SEQ %s writes, %.3g MB (%gx the ActiveRange) at T%u/Q%u", test, b,
             (double)planned / 1e6, 2.0 * x->c->capacity_scale, x->tc, x->qd);
    int rc;
    cJSON *ph = run_phase(x, name, "pts-wipc", jobs, n, NULL, NULL, &rc, err, errlen);
    if (!ph)
        return rc;
    const cJSON *tot = result_scope(ph, "total");
    const cJSON *wr = cJSON_GetObjectItemCaseSensitive(tot, "write");
    cJSON_AddStringToObject(w, "phase", name);
    cJSON_AddNumberToObject(w, "block_size", bs);
    cJSON_AddStringToObject(w, "access", "SEQ");
    cJSON_AddNumberToObject(w, "threads", n);
    cJSON_AddNumberToObject(w, "depth", x->qd);
    cJSON_AddNumberToObject(w, "capacity_multiple", 2.0 * x->c->capacity_scale);
    cJSON_AddNumberToObject(w, "bytes_planned", (double)planned);
    cJSON_AddNumberToObject(w, "bytes_written", result_num(wr, "bytes", 0));
    cJSON_AddNumberToObject(w, "write_ios", result_num(wr, "ios", 0));
    cJSON_AddNumberToObject(w, "elapsed_s", result_num(tot, "elapsed_s", 0));
    char stmt[200];
    snprintf(stmt, sizeof(stmt), "SEQ %s writes, %gx ActiveRange (%.4g GB), T%u/Q%u", b,
             2.0 * x->c->capacity_scale, result_num(wr, "bytes", 0) / 1e9, n, x->qd);
    cJSON_AddStringToObject(w, "statement", stmt);
    return 0;
}

/* ---- rounds -------------------------------------------------------------------- */

/* "4KiB 65/35", "CBW 40/60 T8/Q4": an element without its access. */
static void el_label(const struct pts_element *e, char *buf, size_t len)
{
    char b[16], mx[16];
    pts_bs_name(e->bs, b, sizeof(b));
    pts_mix_name(e->read_pct, mx, sizeof(mx));
    int n = snprintf(buf, len, "%s %s", e->composite ? "CBW" : b, mx);
    if (e->tc && n > 0 && (size_t)n < len)
        snprintf(buf + n, len - (size_t)n, " T%u/Q%u", e->tc, e->qd);
}

static cJSON *elements_json(const struct pts_matrix *m)
{
    cJSON *a = cJSON_CreateArray();
    for (unsigned i = 0; i < m->nelements; i++) {
        cJSON *e = cJSON_CreateObject();
        char lb[40], nm[48];
        el_label(&m->el[i], lb, sizeof(lb));
        snprintf(nm, sizeof(nm), "%s %s", m->el[i].seq ? "SEQ" : "RND", lb);
        cJSON_AddStringToObject(e, "name", nm);
        cJSON_AddNumberToObject(e, "block_size", m->el[i].bs);
        cJSON_AddNumberToObject(e, "read_pct", m->el[i].read_pct);
        cJSON_AddStringToObject(e, "access", m->el[i].seq ? "SEQ" : "RND");
        if (m->el[i].composite)
            cJSON_AddBoolToObject(e, "composite", true);
        if (m->el[i].tc) {
            cJSON_AddNumberToObject(e, "threads", m->el[i].tc);
            cJSON_AddNumberToObject(e, "depth", m->el[i].qd);
        }
        cJSON_AddItemToArray(a, e);
    }
    return a;
}

/* The measurement-window table: per element the averages of its rounds in
 * [wf, wl], the largest maximum, and the 99.999 % of the merged window
 * histograms (latency test: the histogram itself). */
static int window_table(struct pts_ctx *x, cJSON *tj, const struct pts_matrix *m,
                        cJSON **phases, unsigned rounds_run, unsigned wf, unsigned wl,
                        char *err, size_t errlen)
{
    struct hist *h = malloc(3 * sizeof(*h));
    if (!h) {
        snprintf(err, errlen, "out of memory");
        return -ENOMEM;
    }
    cJSON *tab = cJSON_AddArrayToObject(tj, "table");
    cJSON *rounds = cJSON_GetObjectItemCaseSensitive(tj, "rounds");
    int rc = 0;
    for (unsigned e = 0; e < m->nelements && rc == 0; e++) {
        double sum_iops = 0, sum_mbps = 0, sum_lat = 0, max_lat = 0;
        unsigned n = 0;
        hist_init(&h[0]);
        for (unsigned r = wf; r >= 1 && r <= wl && r <= rounds_run; r++) {
            const cJSON *ej = cJSON_GetArrayItem(
                cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(rounds, (int)r - 1), "elements"),
                (int)e);
            if (!ej)
                continue;
            sum_iops += result_num(ej, "iops", 0);
            sum_mbps += result_num(ej, "mbps", 0);
            sum_lat += result_num(ej, "lat_mean_ns", 0);
            double mx = result_num(ej, "lat_max_ns", 0);
            if (mx > max_lat)
                max_lat = mx;
            n++;
            const cJSON *ph = phases[(size_t)(r - 1) * m->nelements + e];
            hist_init(&h[1]);
            if (ph && (rc = phase_hist(ph, &h[1], &h[2], err, errlen)) < 0)
                break;
            hist_merge(&h[0], &h[1]);
        }
        cJSON *row = cJSON_CreateObject();
        cJSON_AddNumberToObject(row, "element", e);
        cJSON_AddNumberToObject(row, "rounds", n);
        cJSON_AddNumberToObject(row, "iops", n ? sum_iops / n : 0);
        cJSON_AddNumberToObject(row, "mbps", n ? sum_mbps / n : 0);
        cJSON_AddNumberToObject(row, "lat_mean_ns", n ? sum_lat / n : 0);
        cJSON_AddNumberToObject(row, "lat_max_ns", max_lat);
        cJSON_AddNumberToObject(row, "p99999_ns", h[0].n ? (double)hist_percentile(&h[0], 99.999) : 0);
        if (m->test == PTS_LAT) {
            cJSON *lat = cJSON_AddObjectToObject(row, "window_latency_ns");
            cJSON_AddNumberToObject(lat, "n", (double)h[0].n);
            cJSON_AddNumberToObject(lat, "mean", hist_mean(&h[0]));
            cJSON_AddNumberToObject(lat, "max", h[0].n ? (double)h[0].max : 0);
            cJSON *hj = result_hist_to_json(&h[0]);
            if (hj)
                cJSON_AddItemToObject(lat, "histogram", hj);
        }
        cJSON_AddItemToArray(tab, row);
    }
    free(h);
    (void)x;
    return rc;
}

/* Rounds of m's elements until steady state; fills tj. */
static int run_rounds(struct pts_ctx *x, cJSON *tj, const char *test, const struct pts_matrix *m,
                      pts_round_fn before, void *arg, char *err, size_t errlen)
{
    uint64_t el_ns = pts_element_ns(x->c, m);
    cJSON_AddItemToObject(tj, "elements", elements_json(m));
    cJSON_AddNumberToObject(tj, "element_s", (double)el_ns / 1e9);
    cJSON_AddNumberToObject(tj, "round_s", (double)el_ns * m->nelements / 1e9);
    unsigned tc = m->test == PTS_LAT ? 1 : x->tc, qd = m->test == PTS_LAT ? 1 : x->qd;
    cJSON_AddNumberToObject(tj, "threads", tc);
    cJSON_AddNumberToObject(tj, "depth", qd);
    cJSON_AddStringToObject(tj, "tracking_metric", steady_metric_name(m->metric));
    cJSON_AddStringToObject(tj, "tracking_unit", metric_unit(m->metric));
    cJSON *tr = cJSON_AddArrayToObject(tj, "tracking");
    for (unsigned k = 0; k < m->ntrack; k++)
        cJSON_AddItemToArray(tr, cJSON_CreateNumber(m->track[k]));
    cJSON *rounds = cJSON_AddArrayToObject(tj, "rounds");
    struct pts_ss *ss = calloc(1, sizeof(*ss));
    cJSON **phases = calloc((size_t)x->c->max_rounds * m->nelements, sizeof(*phases));
    struct hist *h = malloc(2 * sizeof(*h));
    int rc = 0;
    if (!ss || !phases || !h) {
        snprintf(err, errlen, "out of memory");
        rc = -ENOMEM;
        goto out;
    }
    pts_ss_init(ss, m->ntrack, m->metric, x->c->max_rounds);
    enum steady_state state = STEADY_CONTINUE;
    unsigned r;
    for (r = 1; r <= x->c->max_rounds && state == STEADY_CONTINUE && !x->st->interrupted; r++) {
        cJSON *rj = cJSON_CreateObject();
        cJSON_AddItemToArray(rounds, rj);
        cJSON_AddNumberToObject(rj, "round", r);
        if (before && (rc = before(x, r, rj, arg, err, errlen)) < 0)
            goto out;
        cJSON *els = cJSON_AddArrayToObject(rj, "elements");
        for (unsigned e = 0; e < m->nelements && !x->st->interrupted; e++) {
            const struct pts_element *el = &m->el[e];
            char lb[40], name[JOB_NAME_MAX];
            el_label(el, lb, sizeof(lb));
            snprintf(name, sizeof(name), "pts %s r%u %s", test, r, lb);
            struct job_spec jobs[64];
            unsigned nj = 1;
            if (el->seq)
                nj = seq_jobs(x, name, el->bs, el->read_pct, el_ns, 0, jobs);
            else
                rnd_job(x, name, el, el_ns, el->tc ? el->tc : tc, el->tc ? el->qd : qd, &jobs[0]);
            cJSON *ph = run_phase(x, name, "pts-element", jobs, nj, NULL, NULL, &rc, err, errlen);
            if (!ph)
                goto out;
            phases[(size_t)(r - 1) * m->nelements + e] = ph;
            struct el_fig f;
            if ((rc = phase_fig(ph, &h[0], &h[1], &f, err, errlen)) < 0)
                goto out;
            cJSON *fj = fig_json(&f, name);
            cJSON_AddNumberToObject(fj, "element", e);
            cJSON_AddItemToArray(els, fj);
        }
        if (x->st->interrupted || cJSON_GetArraySize(els) < (int)m->nelements) {
            cJSON_AddBoolToObject(rj, "incomplete", true);
            break;
        }
        double v[PTS_MAX_TRACK];
        char line[256];
        size_t ln = 0;
        for (unsigned k = 0; k < m->ntrack; k++) {
            const cJSON *ej = cJSON_GetArrayItem(els, (int)m->track[k]);
            struct el_fig f = {.iops = result_num(ej, "iops", 0), .mbps = result_num(ej, "mbps", 0),
                               .lat_mean_ns = result_num(ej, "lat_mean_ns", 0)};
            v[k] = metric_of(m->metric, &f);
            char b[16], mx[16];
            pts_bs_name(m->el[m->track[k]].bs, b, sizeof(b));
            pts_mix_name(m->el[m->track[k]].read_pct, mx, sizeof(mx));
            ln += (size_t)snprintf(line + ln, sizeof(line) - ln, "%s%s %s %.6g %s", k ? ", " : "", b,
                                   mx, v[k], metric_unit(m->metric));
            if (ln >= sizeof(line))
                ln = sizeof(line) - 1;
        }
        cJSON_AddItemToObject(rj, "tracking", cJSON_CreateDoubleArray(v, (int)m->ntrack));
        state = pts_ss_feed(ss, v);
        pts_progress(x, "%s: round %u: %s%s", test, r, line,
                 state == STEADY_REACHED ? " (steady state)" : "");
    }
    unsigned rounds_run = 0;
    const cJSON *rj;
    cJSON_ArrayForEach(rj, rounds)
        if (!cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(rj, "incomplete")))
            rounds_run++;
    cJSON_AddNumberToObject(tj, "rounds_run", rounds_run);
    cJSON *sj = cJSON_AddObjectToObject(tj, "steady_state");
    bool reached = ss->state == STEADY_REACHED;
    cJSON_AddBoolToObject(sj, "reached", reached);
    cJSON *vars = cJSON_AddArrayToObject(sj, "variables");
    unsigned wf = 0, wl = 0;
    for (unsigned k = 0; k < m->ntrack; k++) {
        struct steady_report rep;
        double win[5];
        unsigned nw = 0;
        pts_ss_report(ss, k, &rep, win, &nw);
        cJSON *vj = result_steady_json(&ss->cfg, &rep, win, nw, el_ns * m->nelements);
        cJSON_AddNumberToObject(vj, "element", m->track[k]);
        cJSON_AddItemToArray(vars, vj);
        wf = rep.window_first;
        wl = rep.window_last;
    }
    /* without a full window (interrupted early) the table is over every round */
    if (!wl) {
        wf = rounds_run ? 1 : 0;
        wl = rounds_run;
    }
    cJSON_AddNumberToObject(sj, "window_first", wf);
    cJSON_AddNumberToObject(sj, "window_last", wl);
    char stmt[160];
    if (reached)
        snprintf(stmt, sizeof(stmt), "SS achieved: rounds %u-%u", wf, wl);
    else
        snprintf(stmt, sizeof(stmt), "SS NOT ACHIEVED after %u rounds (reported window: rounds %u-%u)",
                 rounds_run, wf, wl);
    cJSON_AddStringToObject(sj, "statement", stmt);
    if (!reached)
        pts_add_reason(x, "%s: steady state not achieved", test);
    rc = window_table(x, tj, m, phases, rounds_run, wf, wl, err, errlen);
out:
    free(h);
    free(phases);
    free(ss);
    return rc;
}

/* ---- tests --------------------------------------------------------------------- */

static cJSON *new_test(struct pts_ctx *x, const char *id, enum pts_test t)
{
    cJSON *tj = cJSON_CreateObject();
    cJSON_AddItemToArray(cJSON_GetObjectItemCaseSensitive(x->pts, "tests"), tj);
    cJSON_AddStringToObject(tj, "id", id);
    cJSON_AddStringToObject(tj, "test", pts_test_name(t));
    cJSON_AddStringToObject(tj, "title", pts_test_title(t));
    char ts[64];
    pts_now_iso(ts, sizeof(ts));
    cJSON_AddStringToObject(tj, "started", ts);
    return tj;
}

static void end_test(cJSON *tj)
{
    char ts[64];
    pts_now_iso(ts, sizeof(ts));
    cJSON_AddStringToObject(tj, "finished", ts);
}

int pts_test_rounds(struct pts_ctx *x, enum pts_test t, uint32_t bs, char *err, size_t errlen)
{
    char id[32];
    if (t == PTS_TP)
        snprintf(id, sizeof(id), "throughput-%" PRIu32 "k", bs / 1024);
    else
        snprintf(id, sizeof(id), "%s", pts_test_name(t));
    cJSON *tj = new_test(x, id, t);
    struct pts_matrix m;
    pts_matrix(t, bs, &m);
    if (t == PTS_TP)
        cJSON_AddNumberToObject(tj, "block_size", bs);
    int rc = do_purge(x, tj, err, errlen);
    if (rc == 0 && !x->st->interrupted)
        rc = do_wipc(x, tj, id, t == PTS_TP ? bs : 128 << 10, err, errlen);
    if (rc == 0 && !x->st->interrupted) {
        x->in_rounds = true;
        rc = run_rounds(x, tj, id, &m, NULL, NULL, err, errlen);
        x->in_rounds = false;
    }
    end_test(tj);
    return rc;
}

/* WSAT samples: one row per interval. */
struct wsat_ctx {
    double *rows;
    unsigned nrows, cap;
    double bytes;
    struct hist scratch;
};

#define WSAT_NF 7
static const char *const wsat_fields[WSAT_NF] = {"t_s", "dur_s", "iops", "mbps", "tgbw_gb",
                                                 "lat_mean_ns", "lat_max_ns"};

static bool wsat_hook(void *arg, const struct runner_interval *iv)
{
    struct wsat_ctx *w = arg;
    double dur, ios, bytes;
    pts_interval_sums(iv, &dur, &ios, &bytes);
    w->bytes += bytes;
    const struct hist *lh = &iv->all->dir[DIR_WRITE].lat;
    if (w->nrows == w->cap) {
        unsigned cap = w->cap ? w->cap * 2 : 256;
        double *r = realloc(w->rows, (size_t)cap * WSAT_NF * sizeof(double));
        if (!r)
            return false;
        w->rows = r;
        w->cap = cap;
    }
    double v[WSAT_NF] = {(double)iv->t_end_ns / 1e9, dur, dur > 0 ? ios / dur : 0,
                         dur > 0 ? bytes / dur / 1e6 : 0, w->bytes / 1e9,
                         hist_mean(lh), lh->n ? (double)lh->max : 0};
    memcpy(&w->rows[(size_t)w->nrows * WSAT_NF], v, sizeof(v));
    w->nrows++;
    return false;
}

int pts_test_wsat(struct pts_ctx *x, char *err, size_t errlen)
{
    cJSON *tj = new_test(x, "wsat", PTS_WSAT);
    int rc = do_purge(x, tj, err, errlen);
    cJSON_AddNullToObject(tj, "wipc");   /* WSAT starts fresh out of the box */
    if (rc || x->st->interrupted) {
        end_test(tj);
        return rc;
    }
    uint64_t limit = (uint64_t)((double)x->ar_bytes * 4.0 * x->c->capacity_scale);
    struct pts_element el = {.bs = 4 << 10, .read_pct = 0, .seq = false};
    struct job_spec j;
    rnd_job(x, "pts wsat", &el, 0, x->tc, x->qd, &j);
    j.time_based = false;
    j.runtime_ns = x->c->wsat_ns;
    j.io_limit = limit / x->tc / 4096 * 4096;
    if (!j.io_limit)
        j.io_limit = 4096;
    j.interval_ns = x->c->wsat_sample_ns;
    cJSON_AddNumberToObject(tj, "threads", x->tc);
    cJSON_AddNumberToObject(tj, "depth", x->qd);
    cJSON_AddNumberToObject(tj, "limit_bytes", (double)j.io_limit * x->tc);
    cJSON_AddNumberToObject(tj, "capacity_multiple", 4.0 * x->c->capacity_scale);
    cJSON_AddNumberToObject(tj, "time_limit_s", (double)x->c->wsat_ns / 1e9);
    cJSON_AddNumberToObject(tj, "sample_s", (double)x->c->wsat_sample_ns / 1e9);
    pts_progress(x, "wsat: RND 4KiB writes, %.4g GB (%gx the ActiveRange) or %.4g s, at T%u/Q%u",
             (double)j.io_limit * x->tc / 1e9, 4.0 * x->c->capacity_scale,
             (double)x->c->wsat_ns / 1e9, x->tc, x->qd);
    struct wsat_ctx *w = calloc(1, sizeof(*w));
    if (!w) {
        snprintf(err, errlen, "out of memory");
        return -ENOMEM;
    }
    cJSON *ph = run_phase(x, "pts wsat", "pts-wsat", &j, 1, wsat_hook, w, &rc, err, errlen);
    if (ph) {
        cJSON_AddStringToObject(tj, "phase", "pts wsat");
        const cJSON *tot = result_scope(ph, "total");
        const cJSON *wr = cJSON_GetObjectItemCaseSensitive(tot, "write");
        double bytes = result_num(wr, "bytes", 0);
        cJSON_AddNumberToObject(tj, "bytes_written", bytes);
        cJSON_AddNumberToObject(tj, "write_ios", result_num(wr, "ios", 0));
        cJSON_AddNumberToObject(tj, "elapsed_s", result_num(tot, "elapsed_s", 0));
        cJSON_AddNumberToObject(tj, "capacity_writes", x->ar_bytes ? bytes / (double)x->ar_bytes : 0);
        cJSON_AddStringToObject(tj, "stopped_by",
                                x->st->interrupted ? "interrupt"
                                : bytes >= (double)j.io_limit * x->tc ? "capacity" : "time");
        cJSON *sj = cJSON_AddObjectToObject(tj, "samples");
        cJSON *fl = cJSON_AddArrayToObject(sj, "fields");
        for (unsigned i = 0; i < WSAT_NF; i++)
            cJSON_AddItemToArray(fl, cJSON_CreateString(wsat_fields[i]));
        cJSON *rows = cJSON_AddArrayToObject(sj, "rows");
        /* final IOPS: the last 5 whole samples (a short tail is not one) */
        double last = 0, step = (double)x->c->wsat_sample_ns / 1e9;
        unsigned nl = 0;
        for (unsigned r = 0; r < w->nrows; r++)
            cJSON_AddItemToArray(rows, cJSON_CreateDoubleArray(&w->rows[(size_t)r * WSAT_NF], WSAT_NF));
        for (unsigned r = w->nrows; r-- > 0 && nl < 5;)
            if (w->rows[(size_t)r * WSAT_NF + 1] >= 0.9 * step) {
                last += w->rows[(size_t)r * WSAT_NF + 2];
                nl++;
            }
        cJSON_AddNumberToObject(tj, "final_iops", nl ? last / nl : 0);
        cJSON_AddNumberToObject(tj, "final_samples", nl);
    }
    free(w->rows);
    free(w);
    end_test(tj);
    return ph ? 0 : rc;
}

void pts_progress(const struct pts_ctx *x, const char *fmt, ...)
{
    if (!x->o->progress)
        return;
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof(buf), fmt, ap);
    va_end(ap);
    x->o->progress(x->o->arg, buf);
}

void pts_add_reason(struct pts_ctx *x, const char *fmt, ...)
{
    char buf[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof(buf), fmt, ap);
    va_end(ap);
    const cJSON *e;
    cJSON_ArrayForEach(e, x->reasons)
        if (cJSON_IsString(e) && !strcmp(e->valuestring, buf))
            return;
    cJSON_AddItemToArray(x->reasons, cJSON_CreateString(buf));
}

void pts_interval_sums(const struct runner_interval *iv, double *dur_s, double *ios, double *bytes)
{
    *dur_s = (double)(iv->t_end_ns - iv->t_start_ns) / 1e9;
    *ios = *bytes = 0;
    for (int d = 0; d < DIR_COUNT; d++) {
        *ios += (double)iv->all->dir[d].ios;
        *bytes += (double)iv->all->dir[d].bytes;
    }
}

/* ---- for the tests of their own files (pts_int.h) ------------------------------ */

void pts_base_job(const struct pts_ctx *x, const char *name, struct job_spec *j)
{
    base_job(x, name, j);
}

void pts_rnd_job(const struct pts_ctx *x, const char *name, const struct pts_element *e,
                 uint64_t runtime_ns, unsigned tc, unsigned qd, struct job_spec *j)
{
    rnd_job(x, name, e, runtime_ns, tc, qd, j);
}

unsigned pts_seq_jobs(const struct pts_ctx *x, const char *name, uint32_t bs, unsigned read_pct,
                      uint64_t runtime_ns, uint64_t total_bytes, struct job_spec *jobs)
{
    return seq_jobs(x, name, bs, read_pct, runtime_ns, total_bytes, jobs);
}

cJSON *pts_run_phase(struct pts_ctx *x, const char *name, const char *kind,
                     const struct job_spec *jobs, unsigned njobs, runner_interval_fn hook,
                     void *arg, int *rc, char *err, size_t errlen)
{
    return run_phase(x, name, kind, jobs, njobs, hook, arg, rc, err, errlen);
}

int pts_phase_fig(const cJSON *phase, struct hist *h, struct hist *tmp, struct el_fig *f,
                  char *err, size_t errlen)
{
    return phase_fig(phase, h, tmp, f, err, errlen);
}

cJSON *pts_fig_json(const struct el_fig *f, const char *phase)
{
    return fig_json(f, phase);
}

const char *pts_metric_unit(enum steady_metric m)
{
    return metric_unit(m);
}

int pts_do_purge(struct pts_ctx *x, cJSON *tj, char *err, size_t errlen)
{
    return do_purge(x, tj, err, errlen);
}

cJSON *pts_new_test(struct pts_ctx *x, const char *id, enum pts_test t)
{
    return new_test(x, id, t);
}

void pts_end_test(cJSON *tj)
{
    end_test(tj);
}

int pts_run_rounds(struct pts_ctx *x, cJSON *tj, const char *test, const struct pts_matrix *m,
                   pts_round_fn before, void *arg, char *err, size_t errlen)
{
    return run_rounds(x, tj, test, m, before, arg, err, errlen);
}
