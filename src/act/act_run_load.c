/* act_run_load.c - runs one ACT load (see act_run.h): the log header, the
 * interval hook that writes ACT log blocks and feeds the slice tables, the
 * verdict after the phase, and the result's "act" summary.
 *
 * Log blocks are written only for whole report intervals: the runner also
 * hands over a short last interval (I/Os still in flight at the end, or the
 * stretch before a lag stop), which ACT would never dump. Those I/Os are in
 * the phase's totals but not in the log, as in ACT, whose last dump is also
 * taken with I/Os in flight. */
#include "act/act_run.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "result/result_hist.h"
#include "result/result.h"
#include "stats/hist.h"
#include "target/guard.h"
#include "target/target.h"

/* Where one ACT histogram comes from: a job, a target of it (-1 = all) and
 * a direction. */
struct act_src {
    int job;
    int target;
    int dir;
};

/* A histogram kept at full resolution per slice. */
struct act_slice_hist {
    const char *key;
    int job;
    int dir;
    bool sched;
    struct hist *prev;   /* cumulative at the last slice end */
};

#define ACT_SLICE_HISTS 6

struct act_hook {
    const struct act_config *c;
    const struct act_plan *p;
    FILE *log;
    unsigned nhist;
    char (*names)[ACT_HIST_NAME_MAX];
    struct act_log_hist *h;
    struct act_src *src;
    int reads_hist;              /* index of `reads` in h[], -1 without reads */
    uint64_t unit_ns;
    unsigned logged_s;
    int rc;                      /* first log or table error: stops the phase */
    struct act_load_result *res;
    unsigned nslice;
    struct act_slice_hist sh[ACT_SLICE_HISTS];
    struct hist *tmp;
    unsigned slice_sec, next_slice_end, slice_no;
};

static const struct hist *pick(const struct job_stats *cum, const struct act_src *s, bool sched)
{
    if (s->job < 0)
        return NULL;
    const struct job_stats *js = &cum[s->job];
    const struct io_stats *st;
    if (s->target < 0)
        st = &js->total;
    else if ((unsigned)s->target < js->ntargets)
        st = &js->per_target[s->target];
    else
        return NULL; /* null engine: one pseudo target */
    return sched ? &st->dir[s->dir].sched : &st->dir[s->dir].lat;
}

static void slice_json(struct act_hook *hk, const struct job_stats *cum, unsigned end_s)
{
    static const double pcts[] = {50, 90, 99, 99.9, 99.99};
    static const unsigned over[] = {1, 8, 64};
    cJSON *so = cJSON_CreateObject();
    cJSON_AddNumberToObject(so, "slice", ++hk->slice_no);
    cJSON_AddNumberToObject(so, "end_s", end_s);
    cJSON *hs = cJSON_AddObjectToObject(so, "histograms");
    for (unsigned i = 0; i < hk->nslice; i++) {
        struct act_slice_hist *s = &hk->sh[i];
        struct act_src src = {s->job, -1, s->dir};
        const struct hist *now = pick(cum, &src, s->sched);
        if (!now)
            continue;
        hist_sub(hk->tmp, now, s->prev);
        memcpy(s->prev, now, sizeof(*now));
        cJSON *o = cJSON_AddObjectToObject(hs, s->key);
        cJSON_AddNumberToObject(o, "n", (double)hk->tmp->n);
        cJSON *pc = cJSON_AddObjectToObject(o, "percentiles_ns");
        uint64_t v[5];
        hist_percentiles(hk->tmp, pcts, 5, v);
        for (unsigned k = 0; k < 5; k++) {
            char key[16];
            snprintf(key, sizeof(key), "%g", pcts[k]);
            cJSON_AddNumberToObject(pc, key, (double)v[k]);
        }
        cJSON *po = cJSON_AddObjectToObject(o, "pct_over_ms");
        for (unsigned k = 0; k < 3; k++) {
            char key[16];
            snprintf(key, sizeof(key), "%u", over[k]);
            cJSON_AddNumberToObject(po, key, hk->tmp->n ? 100.0 * hist_frac_ge(hk->tmp,
                                                     (uint64_t)over[k] * 1000000) : 0);
        }
        cJSON_AddItemToObject(o, "histogram", result_hist_to_json(hk->tmp));
    }
    char *text = cJSON_PrintUnformatted(so);
    cJSON_Delete(so);
    if (!text)
        hk->rc = -ENOMEM;
    else if (fputs(text, hk->res->slices) < 0 || fputc('\n', hk->res->slices) < 0)
        hk->rc = -ENOSPC;
    free(text);
}

static bool act_hook_interval(void *arg, const struct runner_interval *iv)
{
    struct act_hook *hk = arg;
    if (hk->rc)
        return true;
    if (iv->index >= hk->p->nintervals || iv->t_end_ns != (uint64_t)(iv->index + 1) * hk->p->interval_ns)
        return false;
    unsigned elapsed = (iv->index + 1) * hk->c->report_interval_sec;
    for (unsigned i = 0; i < hk->nhist; i++) {
        const struct hist *h = pick(iv->cumulative, &hk->src[i], false);
        if (h)
            hist_log2_buckets(h, hk->unit_ns, hk->h[i].buckets, ACT_NBUCKETS);
        else
            memset(hk->h[i].buckets, 0, sizeof(hk->h[i].buckets));
    }
    int rc = act_log_interval(hk->log, elapsed, hk->h, hk->nhist);
    if (rc) {
        hk->rc = rc;
        return true;
    }
    hk->logged_s = elapsed;
    struct act_analysis *an = &hk->res->an;
    if (hk->reads_hist >= 0) {
        const uint64_t *dev = hk->h[hk->reads_hist].buckets;
        uint64_t trans[ACT_NBUCKETS];
        const struct hist *ts = pick(iv->cumulative, &hk->src[hk->reads_hist], true);
        hist_log2_buckets(ts, hk->unit_ns, trans, ACT_NBUCKETS);
        rc = act_table_feed(&an->tables[1], elapsed, dev);
        if (!rc)
            rc = act_table_feed(&an->hourly, elapsed, dev);
        if (!rc)
            rc = act_table_feed(&an->tables[0], elapsed, trans);
        if (rc) {
            hk->rc = rc;
            return true;
        }
    }
    if (elapsed == hk->next_slice_end) {
        slice_json(hk, iv->cumulative, elapsed);
        hk->next_slice_end += hk->slice_sec;
    }
    return false;
}

static unsigned round_up(unsigned v, unsigned m) { return (v + m - 1) / m * m; }

static const char *stop_text(enum act_log_stop why)
{
    switch (why) {
    case ACT_STOP_SERVICE_LAG: return "ERROR: service thread can't keep up";
    case ACT_STOP_LB_READ_LAG: return "ERROR: large block reads can't keep up";
    case ACT_STOP_LB_WRITE_LAG: return "ERROR: large block writes can't keep up";
    }
    return "ERROR: can't keep up";
}

/* Sets up names, sources and tables; returns -ENOMEM. */
static int hook_init(struct act_hook *hk, struct act_load_result *res, FILE *log,
                     const struct act_run_opts *o)
{
    const struct act_config *c = &res->cfg;
    const struct act_derived *d = &res->derived;
    const struct act_plan *p = &res->plan;
    memset(hk, 0, sizeof(*hk));
    hk->c = c;
    hk->p = p;
    hk->log = log;
    hk->res = res;
    hk->unit_ns = act_hist_unit_ns(c);
    hk->reads_hist = -1;
    unsigned max = 2 + 2 * c->ndevices + 2;
    hk->names = calloc(max, sizeof(*hk->names));
    hk->h = calloc(max, sizeof(*hk->h));
    hk->src = calloc(max, sizeof(*hk->src));
    hk->tmp = malloc(sizeof(struct hist));
    res->slices = tmpfile();
    if (!hk->names || !hk->h || !hk->src || !hk->tmp || !res->slices)
        return -ENOMEM;
    hk->nhist = act_log_standard_names(c, d, hk->names, max);
    /* The same order as act_log_standard_names. */
    unsigned n = 0;
    int svc = p->job_of[ACT_JOB_SERVICE];
    if (d->do_reads) {
        hk->reads_hist = svc >= 0 ? 0 : -1;
        hk->src[n++] = (struct act_src){svc, -1, DIR_READ};
        for (unsigned i = 0; i < c->ndevices; i++)
            hk->src[n++] = (struct act_src){svc, (int)i, DIR_READ};
    }
    if (d->do_large_blocks) {
        hk->src[n++] = (struct act_src){p->job_of[ACT_JOB_LB_READS], -1, DIR_READ};
        hk->src[n++] = (struct act_src){p->job_of[ACT_JOB_LB_WRITES], -1, DIR_WRITE};
    }
    if (d->do_commits) {
        hk->src[n++] = (struct act_src){svc, -1, DIR_WRITE};
        for (unsigned i = 0; i < c->ndevices; i++)
            hk->src[n++] = (struct act_src){svc, (int)i, DIR_WRITE};
    }
    if (n != hk->nhist)
        return -EINVAL;
    for (unsigned i = 0; i < n; i++)
        hk->h[i].name = hk->names[i];

    static const struct { const char *key; enum act_job_kind kind; int dir; bool sched; } sl[] = {
        {"reads", ACT_JOB_SERVICE, DIR_READ, false},
        {"reads_transaction", ACT_JOB_SERVICE, DIR_READ, true},
        {"large-block-reads", ACT_JOB_LB_READS, DIR_READ, false},
        {"large-block-writes", ACT_JOB_LB_WRITES, DIR_WRITE, false},
        {"writes", ACT_JOB_SERVICE, DIR_WRITE, false},
        {"writes_transaction", ACT_JOB_SERVICE, DIR_WRITE, true},
    };
    for (unsigned i = 0; i < ACT_SLICE_HISTS; i++) {
        int job = p->job_of[sl[i].kind];
        if (job < 0 || (sl[i].kind == ACT_JOB_SERVICE && sl[i].dir == DIR_READ && !d->internal_read_reqs_per_sec) ||
            (sl[i].kind == ACT_JOB_SERVICE && sl[i].dir == DIR_WRITE && !d->internal_write_reqs_per_sec))
            continue;
        struct act_slice_hist *s = &hk->sh[hk->nslice];
        s->prev = malloc(sizeof(struct hist));
        if (!s->prev)
            return -ENOMEM;
        hist_init(s->prev);
        s->key = sl[i].key;
        s->job = job;
        s->dir = sl[i].dir;
        s->sched = sl[i].sched;
        hk->nslice++;
    }

    struct act_analysis *an = &res->an;
    unsigned ri = c->report_interval_sec;
    unsigned run_s = p->nintervals * ri;
    unsigned slice = o->slice_sec ? o->slice_sec : (run_s < ACT_CERT_SLICE ? run_s : ACT_CERT_SLICE);
    hk->slice_sec = round_up(slice, ri);
    hk->next_slice_end = hk->slice_sec;
    act_analyze_opts_default(&an->opts);
    an->opts.slice_sec = slice;
    an->slice_sec = hk->slice_sec;
    an->slice_adjusted = hk->slice_sec != slice;
    an->ncols = act_display_columns(0, 7, 1, an->cols);
    if (hk->reads_hist >= 0) {
        an->ntables = 2;
        act_table_init(&an->tables[0], "trans", hk->slice_sec);
        act_table_init(&an->tables[1], "device", hk->slice_sec);
        act_table_init(&an->hourly, "reads", round_up(ACT_CERT_SLICE, ri));
    }
    return 0;
}

static void hook_free(struct act_hook *hk)
{
    free(hk->names);
    free(hk->h);
    free(hk->src);
    free(hk->tmp);
    for (unsigned i = 0; i < hk->nslice; i++)
        free(hk->sh[i].prev);
}

static void fill_info(struct act_load_result *res, const struct act_hook *hk, const char *producer)
{
    struct act_log_info *in = &res->an.info;
    const struct act_config *c = &res->cfg;
    snprintf(in->version, sizeof(in->version), "%s", ACT_LOG_VERSION);
    in->version_num = 6.6;
    snprintf(in->producer, sizeof(in->producer), "%s", producer ? producer : "ssdbench");
    in->report_interval_sec = c->report_interval_sec;
    in->us_histograms = c->microsecond_histograms;
    in->scale_found = true;
    in->test_duration_sec = c->test_duration_sec;
    in->num_devices = c->ndevices;
    in->nblocks = hk->logged_s / c->report_interval_sec;
    in->last_elapsed = hk->logged_s;
    in->stopped_early = res->lagged;
    if (res->lagged)
        snprintf(in->stop_message, sizeof(in->stop_message), "%s", stop_text(res->stop_why));
}

/* Which paced job fell behind: the first of service, large-block reads,
 * large-block writes (tomb raider counts as reads) past the limit. */
static enum act_log_stop lag_cause(const struct act_plan *p, const struct phase_stats *ps,
                                   uint64_t max_lag_ns)
{
    static const struct { enum act_job_kind k; enum act_log_stop why; } order[] = {
        {ACT_JOB_SERVICE, ACT_STOP_SERVICE_LAG},
        {ACT_JOB_LB_READS, ACT_STOP_LB_READ_LAG},
        {ACT_JOB_LB_WRITES, ACT_STOP_LB_WRITE_LAG},
        {ACT_JOB_TOMB, ACT_STOP_LB_READ_LAG},
    };
    for (unsigned i = 0; i < 4; i++) {
        int j = p->job_of[order[i].k];
        if (j >= 0 && ps->stats[j].max_lag_ns > max_lag_ns)
            return order[i].why;
    }
    return ACT_STOP_SERVICE_LAG;
}

static void judge(struct act_load_result *res)
{
    struct act_analysis *an = &res->an;
    const struct act_config *c = &res->cfg;
    bool has = res->an.ntables == 2;
    const char *msg = res->lagged ? stop_text(res->stop_why) + 7 : NULL; /* past "ERROR: " */
    for (unsigned t = 0; t < an->ntables; t++)
        act_table_finish(&an->tables[t]);
    act_table_finish(&an->hourly);
    act_verdict_compute(has ? &an->hourly : NULL, c->microsecond_histograms, res->lagged, msg,
                        c->test_duration_sec, &an->verdict);
    act_verdict_compute(has ? &an->tables[1] : NULL, c->microsecond_histograms, res->lagged, msg,
                        c->test_duration_sec, &res->screen);
    act_verdict_compute(has ? &an->tables[0] : NULL, c->microsecond_histograms, res->lagged, msg,
                        c->test_duration_sec, &res->screen_trans);
    const struct act_plan *p = &res->plan;
    if (p->interval_ns != (uint64_t)c->report_interval_sec * 1000000000ull) {
        /* --tick-ms: judged over the hours it has, marked scaled */
        bool complete = res->ran && !res->interrupted && !res->log_error &&
                        res->logged_s == p->nintervals * c->report_interval_sec;
        act_verdict_scale(&an->verdict, (double)p->interval_ns / 1e6, complete);
    }
    bool ok = res->ran && !res->lagged && !res->interrupted && !res->log_error && !res->io_errors;
    bool over = res->screen.over_limit[0] || res->screen.over_limit[1] || res->screen.over_limit[2];
    enum act_verdict_status st = an->verdict.status;
    res->passed = ok && (st == ACT_VERDICT_PASS ||
                         (st == ACT_VERDICT_NONE && (!has || (res->screen.hours > 0 && !over))));
}

/* What the phase's statistics tell ACT's log and the load's result, read
 * before the session files them: the outcome, ACT's error lines for failed
 * I/O and the cause of a lag stop. */
struct act_after {
    struct act_load_result *res;
    const struct act_hook *hk;
    FILE *log;
    const struct act_plan *p;
    uint64_t max_lag_ns;
};

static void act_after_run(void *arg, const struct phase_stats *ps)
{
    const struct act_after *aa = arg;
    struct act_load_result *res = aa->res;
    res->ran = true;
    res->interrupted = ps->interrupted;
    res->signal = ps->signal;
    res->lagged = ps->lagged;
    res->io_errors = ps->error_total;
    res->log_error = aa->hk->rc == -EIO;
    res->logged_s = aa->hk->logged_s;
    res->cpu_user_s = ps->cpu_user_s;
    res->cpu_sys_s = ps->cpu_sys_s;
    for (unsigned e = 0; e < ps->nerrors && !res->log_error; e++) {
        const struct runner_error *re = &ps->errors[e];
        act_log_io_error(aa->log, ps->targets[re->target].path, re->op == DIR_WRITE, re->err);
        res->an.info.error_lines++;
        if (e == 0)
            snprintf(res->an.info.first_error, sizeof(res->an.info.first_error),
                     "ERROR: %s %s: %d", re->op == DIR_WRITE ? "writing" : "reading",
                     ps->targets[re->target].path, re->err);
    }
    if (res->lagged) {
        res->stop_why = lag_cause(aa->p, ps, aa->max_lag_ns);
        if (!res->log_error)
            act_log_stop(aa->log, res->stop_why);
        res->an.info.error_lines++;
        if (!res->an.info.first_error[0])
            snprintf(res->an.info.first_error, sizeof(res->an.info.first_error), "%s",
                     stop_text(res->stop_why));
    }
}

int act_run_load(struct session *s, const struct act_config *base, double load,
                 const struct act_device *devs, const struct act_run_opts *o, FILE *log,
                 const char *producer, struct act_load_result *res, char *err, size_t errlen)
{
    memset(res, 0, sizeof(*res));
    res->load = load;
    res->cfg = *base;
    struct act_config *c = &res->cfg;
    if (load > 0) {
        snprintf(res->phase, sizeof(res->phase), "act-%gx", load);
        int rc = act_config_with_load(c, load, err, errlen);
        if (rc < 0)
            return rc;
    } else {
        snprintf(res->phase, sizeof(res->phase), "act");
    }
    int rc = act_config_derive(c, o->ncpus, act_devices_min_io(devs, c->ndevices), &res->derived,
                               err, errlen);
    if (rc < 0)
        return rc;
    rc = act_plan_build(c, &res->derived, devs, o, &res->plan, err, errlen);
    if (rc < 0)
        return rc;
    const struct act_plan *p = &res->plan;

    /* Ask the guard before the log starts, so a refusal writes nothing. */
    if (o->engine != ENGINE_NULL)
        for (unsigned j = 0; j < p->njobs; j++) {
            if (!job_rw_writes(&p->jobs[j]))
                continue;
            for (unsigned t = 0; t < p->jobs[j].ntargets; t++) {
                rc = target_check_write(p->jobs[j].targets[t], s->ro.consent, err, errlen);
                if (rc < 0)
                    return rc;
            }
        }

    struct act_hook hk;
    rc = hook_init(&hk, res, log, o);
    if (rc < 0) {
        hook_free(&hk);
        snprintf(err, errlen, rc == -ENOMEM ? "out of memory" : "histogram names out of step");
        return rc;
    }
    struct act_log_device ld[ACT_MAX_DEVICES];
    for (unsigned i = 0; i < c->ndevices; i++)
        ld[i] = (struct act_log_device){c->devices[i], devs[i].size_bytes, devs[i].min_io_bytes};
    const char *nm[2 + 2 * ACT_MAX_DEVICES + 2];
    for (unsigned i = 0; i < hk.nhist; i++)
        nm[i] = hk.names[i];
    if (act_log_header(log, producer) || act_log_config(log, c, &res->derived) ||
        act_log_devices(log, ld, c->ndevices, res->derived.large_block_bytes) ||
        act_log_hist_names(log, nm, hk.nhist) || fflush(log)) {
        hook_free(&hk);
        snprintf(err, errlen, "cannot write the ACT log: %s", strerror(errno ? errno : EIO));
        return -EIO;
    }

    struct runner_opts opts = s->ro;
    opts.on_interval = act_hook_interval;
    opts.arg = &hk;
    opts.max_lag_ns = (uint64_t)c->max_lag_sec * 1000000000ull;
    opts.stop_on_error = false;   /* ACT reports a failed I/O and carries on */
    struct plan_phase ph = {.kind = "act", .njobs = p->njobs, .jobs = res->plan.jobs};
    snprintf(ph.name, sizeof(ph.name), "%s", res->phase);
    struct act_after aa = {.res = res, .hk = &hk, .log = log, .p = p, .max_lag_ns = opts.max_lag_ns};
    cJSON *phase = session_phase_with(s, &ph, &opts, act_after_run, &aa, &rc, err, errlen);
    if (!phase && rc < 0) {
        hook_free(&hk);
        return rc;
    }
    if (fflush(log))
        res->log_error = true;
    fill_info(res, &hk, producer);
    judge(res);
    rc = phase ? 0 : -ENOMEM;
    if (hk.rc && hk.rc != -EIO && !rc)
        rc = hk.rc;
    hook_free(&hk);
    if (rc < 0)
        snprintf(err, errlen, "%s", rc == -ENOMEM ? "out of memory" : strerror(-rc));
    return rc;
}

void act_load_result_free(struct act_load_result *res)
{
    act_analysis_free(&res->an);
    if (res->slices)
        fclose(res->slices);
    res->slices = NULL;
}
