/* suite_run.c - running the suite (see suite.h): checks before anything is
 * written, discard of the unused range, then per profile purge,
 * preconditioning with the steady-state detector in the runner's interval
 * hook, an optional sample and the sweep, phase after phase with no idle
 * time between them. Everything measured lands in the result document; the
 * "suite" object gathers the names, the steady-state report, the combined
 * figures and the scaling. */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "result/result.h"
#include "target/purge.h"
#include "target/target.h"
#include "suite/suite.h"
#include "result/result_steady.h"
#include "result/result_fig.h"

/* Preconditioning: per-interval combined figures and the detector. */
static const char *const pre_fields[] = {"t_ms",       "round",         "iops",       "read_iops",
                                         "write_iops", "mbps",          "lat_avg_ns", "lat_max_ns",
                                         "lat_sd_avg_ns", "lat_mean_ns", "lat_sd_ns",  "p99_ns"};
#define PRE_NF (sizeof(pre_fields) / sizeof(pre_fields[0]))

struct precond_ctx {
    struct steady ss;
    bool auto_stop;
    uint64_t step_ns;
    enum steady_state state;
    double *rows;
    unsigned nrows, cap;
    bool oom;
    struct hist scratch;
};

static double metric_value(enum steady_metric m, const struct result_fig *f)
{
    switch (m) {
    case STEADY_IOPS: return f->iops;
    case STEADY_BW: return f->mbps * 1e6;
    case STEADY_LAT: return f->lat_mean_ns;
    }
    return f->iops;
}

static bool precond_hook(void *arg, const struct runner_interval *iv)
{
    struct precond_ctx *x = arg;
    uint64_t dur = iv->t_end_ns - iv->t_start_ns;
    struct result_fig f;
    result_fig_from_stats(iv->all, (double)dur / 1e9, &x->scratch, &f);
    double round = 0;
    /* a short last interval (the phase ended inside it) is recorded but not
     * a round: its rate is not comparable */
    if (dur * 10 >= x->step_ns * 9 && x->state == STEADY_CONTINUE) {
        x->state = steady_feed(&x->ss, metric_value(x->ss.cfg.metric, &f));
        round = x->ss.rounds;
    }
    if (x->nrows == x->cap && !x->oom) {
        unsigned cap = x->cap ? x->cap * 2 : 64;
        double *r = realloc(x->rows, (size_t)cap * PRE_NF * sizeof(double));
        if (r) {
            x->rows = r;
            x->cap = cap;
        } else {
            x->oom = true;
        }
    }
    if (x->nrows < x->cap) {
        double v[PRE_NF] = {(double)(iv->t_end_ns / 1000000), round, f.iops, f.read_iops,
                            f.write_iops, f.mbps, f.lat_avg_ns, f.lat_max_ns, f.lat_sd_avg_ns,
                            f.lat_mean_ns, f.lat_sd_ns, f.p99_ns};
        memcpy(&x->rows[(size_t)x->nrows * PRE_NF], v, sizeof(v));
        x->nrows++;
    }
    return x->auto_stop && x->state != STEADY_CONTINUE;
}

static void progress(const struct suite_run_opts *o, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void progress(const struct suite_run_opts *o, const char *fmt, ...)
{
    if (!o->progress)
        return;
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof(buf), fmt, ap);
    va_end(ap);
    o->progress(o->arg, buf);
}

static cJSON *purge_json(const struct purge_report *r)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "target", r->path);
    cJSON_AddStringToObject(o, "method", purge_method_name(r->method));
    cJSON_AddNumberToObject(o, "offset", (double)r->offset);
    cJSON_AddNumberToObject(o, "length", (double)r->length);
    cJSON_AddNumberToObject(o, "elapsed_s", r->elapsed_s);
    if (r->notes[0])
        cJSON_AddStringToObject(o, "notes", r->notes);
    return o;
}

static cJSON *int_array(const unsigned *v, unsigned n)
{
    cJSON *a = cJSON_CreateArray();
    for (unsigned i = 0; i < n; i++)
        cJSON_AddItemToArray(a, cJSON_CreateNumber(v[i]));
    return a;
}

static cJSON *config_json(const struct suite_cfg *c, const struct suite_run_opts *o)
{
    cJSON *s = cJSON_CreateObject();
    cJSON_AddNumberToObject(s, "version", 1);
    cJSON *pl = cJSON_AddArrayToObject(s, "profiles_requested");
    for (unsigned i = 0; i < c->nprofiles; i++)
        cJSON_AddItemToArray(pl, cJSON_CreateString(c->profiles[i]));
    cJSON *tl = cJSON_AddArrayToObject(s, "targets");
    for (unsigned i = 0; i < c->ntargets; i++)
        cJSON_AddItemToArray(tl, cJSON_CreateString(c->targets[i]));
    const char *layout = c->ntargets < 2 ? "single" : c->layout == LAYOUT_STRIPE ? "stripe" : "jbod";
    cJSON_AddStringToObject(s, "layout", layout);
    if (c->ntargets > 1 && c->layout == LAYOUT_STRIPE)
        cJSON_AddNumberToObject(s, "stripe_chunk", (double)c->stripe_chunk);
    cJSON_AddStringToObject(s, "load_per",
                            c->ntargets > 1 && c->layout == LAYOUT_JBOD ? "target" : "total");
    cJSON_AddNumberToObject(s, "active_range_pct", c->range_pct);
    cJSON *sw = cJSON_AddObjectToObject(s, "sweep");
    cJSON_AddStringToObject(sw, "kind", c->sweep.kind == SWEEP_TQ ? "tq"
                                        : c->sweep.kind == SWEEP_QD ? "qd" : "none");
    cJSON_AddItemToObject(sw, "threads", int_array(c->sweep.threads, c->sweep.nthreads));
    cJSON_AddItemToObject(sw, "depths", int_array(c->sweep.depths, c->sweep.ndepths));
    cJSON_AddNumberToObject(sw, "point_runtime_s", (double)suite_point_runtime(c) / 1e9);
    cJSON_AddNumberToObject(sw, "ramp_s", (double)c->ramp_ns / 1e9);
    cJSON *pc = cJSON_AddObjectToObject(s, "precondition");
    cJSON_AddStringToObject(pc, "mode", c->precond == PRECOND_AUTO ? "auto"
                                        : c->precond == PRECOND_TIME ? "time" : "off");
    if (c->precond == PRECOND_TIME)
        cJSON_AddNumberToObject(pc, "time_s", (double)c->precond_ns / 1e9);
    cJSON_AddNumberToObject(pc, "threads", c->pre_threads);
    cJSON_AddNumberToObject(pc, "depth", c->pre_depth);
    cJSON_AddNumberToObject(pc, "interval_s", (double)c->interval_ns / 1e9);
    char crit[64];
    steady_format(&c->ss, crit, sizeof(crit));
    cJSON_AddStringToObject(pc, "rule", steady_rule_name(c->ss.rule));
    cJSON_AddStringToObject(pc, "criterion", crit);
    cJSON_AddNumberToObject(pc, "window", c->ss.window);
    cJSON_AddNumberToObject(pc, "max_rounds", c->ss.max_rounds);
    cJSON_AddNumberToObject(s, "sample_s", (double)c->sample_ns / 1e9);
    cJSON_AddBoolToObject(s, "purge", c->purge);
    cJSON *ov = cJSON_AddObjectToObject(s, "overrides");
    if (c->rwmixread >= 0)
        cJSON_AddNumberToObject(ov, "rwmixread", c->rwmixread);
    for (unsigned i = 0; i < c->nset; i++) {
        char key[JOB_NAME_MAX + 80];
        snprintf(key, sizeof(key), "%s%s%s", c->set_prof[i], c->set_prof[i][0] ? ":" : "",
                 c->set_key[i]);
        cJSON_AddStringToObject(ov, key, c->set_val[i]);
    }
    /* "baseline": the first, as older readers know it; "baselines": all */
    cJSON *ba = cJSON_CreateArray();
    for (unsigned k = 0; k < o->nbaselines; k++) {
        cJSON *b = cJSON_CreateObject();
        cJSON_AddStringToObject(b, "file", o->baseline_names[k] ? o->baseline_names[k] : "");
        cJSON_AddStringToObject(b, "label", o->baseline_labels[k] ? o->baseline_labels[k] : "");
        cJSON_AddNumberToObject(b, "targets", suite_result_targets(o->baselines[k]));
        cJSON_AddItemToArray(ba, b);
    }
    if (o->nbaselines)
        cJSON_AddItemToObject(s, "baseline", cJSON_Duplicate(cJSON_GetArrayItem(ba, 0), true));
    else
        cJSON_AddNullToObject(s, "baseline");
    cJSON_AddItemToObject(s, "baselines", ba);
    cJSON_AddArrayToObject(s, "discard_unused");
    cJSON_AddArrayToObject(s, "profiles");
    return s;
}

/* Writes are refused before anything runs rather than hours into a suite;
 * so are block sizes the device's O_DIRECT alignment cannot take. */
static int precheck(const struct suite_cfg *c, const struct job_spec *jobs, unsigned njobs,
                    bool writes, const struct suite_run_opts *o, char *err, size_t errlen)
{
    for (unsigned t = 0; t < c->ntargets; t++) {
        if (writes) {
            int rc = target_check_write(c->targets[t], o->consent, err, errlen);
            if (rc < 0)
                return rc;
        }
        struct target_info ti;
        char msg[256];
        if (target_probe(c->targets[t], &ti, msg, sizeof(msg)) < 0)
            continue; /* a file the first phase will create */
        uint32_t lbs = ti.logical_block ? ti.logical_block : 512;
        for (unsigned j = 0; j < njobs; j++) {
            if (!jobs[j].direct)
                continue;
            for (int d = 0; d < DIR_COUNT; d++) {
                if ((d == DIR_READ && !job_rw_reads(&jobs[j])) ||
                    (d == DIR_WRITE && !job_rw_writes(&jobs[j]) && c->precond == PRECOND_OFF))
                    continue;
                int dd = d == DIR_WRITE && !job_rw_writes(&jobs[j]) ? DIR_READ : d;
                for (unsigned i = 0; i < jobs[j].bs[dd].n; i++)
                    if (jobs[j].bs[dd].bs[i] % lbs) {
                        snprintf(err, errlen,
                                 "profile part %s: block size %" PRIu32 " is not a multiple of "
                                 "%s's logical block size %" PRIu32 " (O_DIRECT needs it); leave "
                                 "this profile out or add --set direct=0",
                                 jobs[j].name, jobs[j].bs[dd].bs[i], c->targets[t], lbs);
                        return -EINVAL;
                    }
            }
        }
    }
    return 0;
}

static int discard_unused(const struct suite_cfg *c, const struct suite_run_opts *o,
                          cJSON *suite, char *err, size_t errlen)
{
    uint64_t sizes[JOB_MAX_TARGETS];
    for (unsigned t = 0; t < c->ntargets; t++) {
        struct target_info ti;
        int rc = target_probe(c->targets[t], &ti, err, errlen);
        if (rc < 0)
            return rc;
        if (ti.kind != TARGET_BLOCK) {
            snprintf(err, errlen, "--discard-unused: %s is not a block device", c->targets[t]);
            return -EINVAL;
        }
        sizes[t] = ti.size;
    }
    cJSON *arr = cJSON_GetObjectItemCaseSensitive(suite, "discard_unused");
    for (unsigned t = 0; t < c->ntargets; t++) {
        uint64_t off;
        int rc = suite_unused_range(c, sizes, t, &off, err, errlen);
        if (rc < 0)
            return rc;
        struct purge_report r;
        progress(o, "discarding %s from byte %" PRIu64 " to the end (%.1f%% unused)",
                 c->targets[t], off, 100.0 - 100.0 * (double)off / (double)sizes[t]);
        rc = purge_discard(c->targets[t], off, sizes[t] - off, o->consent, &r, err, errlen);
        if (rc < 0)
            return rc;
        cJSON_AddItemToArray(arr, purge_json(&r));
    }
    return 0;
}

/* Runs one phase of the given jobs; returns its JSON or NULL (rc set). */
static cJSON *run_phase(cJSON *doc, const char *name, const char *kind, const struct job_spec *jobs,
                        unsigned njobs, const struct runner_opts *ro, struct plan_status *st,
                        int *rc, char *err, size_t errlen)
{
    struct plan_phase ph;
    memset(&ph, 0, sizeof(ph));
    snprintf(ph.name, sizeof(ph.name), "%s", name);
    snprintf(ph.kind, sizeof(ph.kind), "%s", kind);
    ph.jobs = (struct job_spec *)jobs;
    ph.njobs = njobs;
    cJSON *obj = plan_run_phase(doc, &ph, ro, st, rc, err, errlen);
    if (!obj && *rc == 0) {
        *rc = -ENOMEM;
        snprintf(err, errlen, "out of memory");
    }
    return obj;
}

static int precondition(const struct suite_cfg *c, const struct profile *p,
                        const struct job_spec *parts, cJSON *doc, cJSON *pj,
                        const struct suite_run_opts *o, struct plan_status *st, char *err,
                        size_t errlen)
{
    unsigned pick = 0;
    for (unsigned k = 0; k < p->nparts; k++)
        if (job_rw_writes(&parts[k])) {
            pick = k;
            break;
        }
    struct job_spec pre, job;
    profile_precondition_job(&parts[pick], &pre);
    uint64_t runtime = c->precond == PRECOND_AUTO
                           ? c->interval_ns * c->ss.max_rounds + c->interval_ns / 2
                           : c->precond_ns;
    suite_phase_job(c, &pre, c->pre_threads, c->pre_depth, runtime, 0, &job);
    job.interval_ns = c->interval_ns;
    struct precond_ctx *x = calloc(1, sizeof(*x));
    if (!x) {
        snprintf(err, errlen, "out of memory");
        return -ENOMEM;
    }
    struct steady_cfg cfg = c->ss;
    if (c->precond == PRECOND_TIME)
        cfg.max_rounds = 0;
    steady_init(&x->ss, &cfg);
    x->auto_stop = c->precond == PRECOND_AUTO;
    x->step_ns = c->interval_ns;
    x->state = STEADY_CONTINUE;
    char name[JOB_NAME_MAX], load[SUITE_LABEL_MAX], sum[160];
    snprintf(name, sizeof(name), "%s precondition", p->name);
    suite_point_label(SWEEP_TQ, c->pre_threads, c->pre_depth, load, sizeof(load));
    profile_summary(&pre, sum, sizeof(sum));
    progress(o, "%s: preconditioning at %s with %s (%s)", p->name, load, sum,
             c->precond == PRECOND_AUTO ? "until steady state" : "fixed time");
    struct runner_opts ro = {.consent = o->consent, .on_interval = precond_hook, .arg = x,
                             .status = o->status, .series = o->series, .stop_on_error = true};
    int rc = 0;
    cJSON *obj = run_phase(doc, name, "precondition", &job, 1, &ro, st, &rc, err, errlen);
    if (obj) {
        cJSON *pc = cJSON_AddObjectToObject(pj, "precondition");
        cJSON_AddStringToObject(pc, "phase", name);
        cJSON_AddStringToObject(pc, "part", parts[pick].name);
        cJSON_AddStringToObject(pc, "workload", sum);
        cJSON_AddBoolToObject(pc, "switched_to_write", !job_rw_writes(&parts[pick]));
        cJSON_AddStringToObject(pc, "load", load);
        cJSON *iv = cJSON_AddObjectToObject(pc, "intervals");
        cJSON_AddNumberToObject(iv, "step_ms", (double)c->interval_ns / 1e6);
        cJSON *fl = cJSON_AddArrayToObject(iv, "fields");
        for (unsigned i = 0; i < PRE_NF; i++)
            cJSON_AddItemToArray(fl, cJSON_CreateString(pre_fields[i]));
        cJSON *rows = cJSON_AddArrayToObject(iv, "rows");
        for (unsigned r = 0; r < x->nrows; r++)
            cJSON_AddItemToArray(rows, cJSON_CreateDoubleArray(&x->rows[(size_t)r * PRE_NF], PRE_NF));
        struct steady_report rep;
        steady_get_report(&x->ss, &rep);
        double win[STEADY_WINDOW_MAX];
        unsigned nw = rep.evaluated ? steady_window_values(&x->ss, win, STEADY_WINDOW_MAX) : 0;
        cJSON_AddItemToObject(pc, "steady_state",
                              result_steady_json(&cfg, &rep, win, nw, c->interval_ns));
        progress(o, "%s: %s", p->name,
                 result_str(cJSON_GetObjectItemCaseSensitive(pc, "steady_state"), "statement", ""));
    }
    free(x->rows);
    free(x);
    return obj ? 0 : rc;
}

/* The figures of a finished phase: total and, with several targets, each. */
static int point_record(cJSON *pt, const cJSON *phase, char *err, size_t errlen, double *iops)
{
    struct result_fig f;
    const cJSON *tot = result_scope(phase, "total");
    int rc = tot ? result_fig_from_scope(tot, &f, err, errlen) : -EINVAL;
    if (rc < 0) {
        if (!tot)
            snprintf(err, errlen, "phase %s has no total results", result_str(phase, "name", "?"));
        return rc;
    }
    *iops = f.iops;
    cJSON_AddItemToObject(pt, "combined", result_fig_json(&f));
    cJSON *tl = NULL;
    const cJSON *sc;
    cJSON_ArrayForEach(sc, cJSON_GetObjectItemCaseSensitive(phase, "results")) {
        const char *name = result_str(sc, "scope", "");
        if (strncmp(name, "target:", 7) != 0)
            continue;
        struct result_fig tf;
        if ((rc = result_fig_from_scope(sc, &tf, err, errlen)) < 0)
            return rc;
        if (!tl)
            tl = cJSON_AddArrayToObject(pt, "targets");
        cJSON *to = cJSON_CreateObject();
        cJSON_AddStringToObject(to, "target", name + 7);
        cJSON_AddItemToObject(to, "combined", result_fig_json(&tf));
        cJSON_AddItemToArray(tl, to);
    }
    return 0;
}

static int run_point(const struct suite_cfg *c, const struct job_spec *part, const char *label,
                     unsigned threads, unsigned depth, uint64_t runtime, const char *kind,
                     cJSON *doc, cJSON *points, const struct suite_run_opts *o,
                     struct plan_status *st, double *peak, char *err, size_t errlen)
{
    struct job_spec job;
    suite_phase_job(c, part, threads, depth, runtime, c->ramp_ns, &job);
    char name[JOB_NAME_MAX];
    snprintf(name, sizeof(name), "%s %s", part->name, label);
    progress(o, "%s: %s", kind, name);
    struct runner_opts ro = {.consent = o->consent, .status = o->status, .series = o->series,
                             .stop_on_error = true};
    int rc = 0;
    cJSON *obj = run_phase(doc, name, kind, &job, 1, &ro, st, &rc, err, errlen);
    if (!obj)
        return rc;
    cJSON *pt = cJSON_CreateObject();
    cJSON_AddStringToObject(pt, "label", label);
    cJSON_AddStringToObject(pt, "part", part->name);
    cJSON_AddNumberToObject(pt, "threads", threads);
    cJSON_AddNumberToObject(pt, "depth", depth);
    cJSON_AddStringToObject(pt, "phase", name);
    cJSON_AddStringToObject(pt, "kind", kind);
    cJSON_AddItemToArray(points, pt);
    double iops = 0;
    rc = point_record(pt, obj, err, errlen, &iops);
    if (rc < 0)
        return rc;
    if (iops > *peak)
        *peak = iops;
    /* "scaling": against the first baseline; "scalings": one per baseline,
     * null where that baseline has no such point */
    cJSON *scs = o->nbaselines ? cJSON_AddArrayToObject(pt, "scalings") : NULL;
    for (unsigned b = 0; b < o->nbaselines; b++) {
        cJSON *sc = suite_scaling_json(o->baselines[b], name, iops, c->ntargets);
        if (b == 0 && sc)
            cJSON_AddItemToObject(pt, "scaling", cJSON_Duplicate(sc, true));
        cJSON_AddItemToArray(scs, sc ? sc : cJSON_CreateNull());
    }
    return 0;
}

static void definition(const struct profile_set *ps, const struct profile *p, char *buf,
                       size_t len)
{
    size_t n = (size_t)snprintf(buf, len, "[global]\n%s", p->global_def);
    for (unsigned k = 0; k < p->nparts && n < len; k++) {
        const struct profile_part *pp = profile_part(ps, p, k);
        n += (size_t)snprintf(buf + n, len - n, "[%s]\n%s", pp->name, pp->def);
    }
}

static double baseline_peak(const cJSON *base, const char *profile)
{
    const cJSON *pr, *pt;
    double peak = 0;
    cJSON_ArrayForEach(pr, cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(base, "suite"), "profiles"))
        if (!strcmp(result_str(pr, "name", ""), profile))
            cJSON_ArrayForEach(pt, cJSON_GetObjectItemCaseSensitive(pr, "points")) {
                double v = result_num(cJSON_GetObjectItemCaseSensitive(pt, "combined"), "iops", 0);
                if (v > peak && !cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(pt, "sample")))
                    peak = v;
            }
    return peak;
}

static int run_profile(const struct suite_cfg *c, const struct profile_set *ps,
                       const struct profile *p, const struct job_spec *parts, cJSON *doc,
                       cJSON *pj, const struct suite_run_opts *o, struct plan_status *st,
                       char *err, size_t errlen)
{
    int rc;
    if (c->purge) {
        cJSON *pa = cJSON_AddArrayToObject(pj, "purge");
        for (unsigned t = 0; t < c->ntargets; t++) {
            struct purge_report r;
            progress(o, "%s: purging %s", p->name, c->targets[t]);
            if ((rc = purge_target(c->targets[t], o->consent, &r, err, errlen)) < 0)
                return rc;
            cJSON_AddItemToArray(pa, purge_json(&r));
        }
    }
    if (c->precond != PRECOND_OFF) {
        if ((rc = precondition(c, p, parts, doc, pj, o, st, err, errlen)) < 0)
            return rc;
        if (st->interrupted)
            return 0;
    }
    cJSON *points = cJSON_AddArrayToObject(pj, "points");
    double peak = 0, unused = 0;
    char label[SUITE_LABEL_MAX];
    if (c->sample_ns) {
        suite_point_label(SWEEP_TQ, c->pre_threads, c->pre_depth, label, sizeof(label));
        for (unsigned k = 0; k < p->nparts && !st->interrupted; k++) {
            char sl[SUITE_LABEL_MAX + 8];
            snprintf(sl, sizeof(sl), "sample %s", label);
            rc = run_point(c, &parts[k], sl, c->pre_threads, c->pre_depth, c->sample_ns, "sample",
                           doc, points, o, st, &unused, err, errlen);
            if (rc < 0)
                return rc;
            cJSON_AddBoolToObject(cJSON_GetArrayItem(points, cJSON_GetArraySize(points) - 1),
                                  "sample", true);
        }
    }
    uint64_t runtime = suite_point_runtime(c);
    for (unsigned k = 0; c->sweep.kind != SWEEP_NONE && k < p->nparts && !st->interrupted; k++) {
        if (p->fixed_load) {
            suite_point_label(SWEEP_TQ, parts[k].numjobs, parts[k].iodepth, label, sizeof(label));
            rc = run_point(c, &parts[k], label, parts[k].numjobs, parts[k].iodepth, runtime,
                           "sweep-point", doc, points, o, st, &peak, err, errlen);
            if (rc < 0)
                return rc;
            continue;
        }
        struct suite_point pts[SUITE_SWEEP_MAX * SUITE_SWEEP_MAX];
        unsigned np = suite_points(&c->sweep, pts, SUITE_SWEEP_MAX * SUITE_SWEEP_MAX);
        for (unsigned i = 0; i < np && !st->interrupted; i++) {
            rc = run_point(c, &parts[k], pts[i].label, pts[i].threads, pts[i].depth, runtime,
                           "sweep-point", doc, points, o, st, &peak, err, errlen);
            if (rc < 0)
                return rc;
        }
    }
    cJSON_AddNumberToObject(pj, "peak_iops", peak);
    cJSON *pss = o->nbaselines ? cJSON_AddArrayToObject(pj, "peak_scalings") : NULL;
    for (unsigned b = 0; b < o->nbaselines; b++) {
        double bp = baseline_peak(o->baselines[b], p->name);
        if (bp <= 0) {
            cJSON_AddItemToArray(pss, cJSON_CreateNull());
            continue;
        }
        unsigned bt = suite_result_targets(o->baselines[b]);
        cJSON *ps_ = cJSON_CreateObject();
        cJSON_AddStringToObject(ps_, "label", o->baseline_labels[b] ? o->baseline_labels[b] : "");
        cJSON_AddNumberToObject(ps_, "baseline_iops", bp);
        cJSON_AddNumberToObject(ps_, "baseline_targets", bt);
        cJSON_AddNumberToObject(ps_, "factor", peak / bp);
        cJSON_AddNumberToObject(ps_, "per_target", peak / bp * bt / c->ntargets);
        cJSON_AddItemToArray(pss, ps_);
        if (b == 0)
            cJSON_AddItemToObject(pj, "peak_scaling", cJSON_Duplicate(ps_, true));
    }
    (void)ps;
    return 0;
}

int suite_run(const struct suite_cfg *c, const struct profile_set *ps, cJSON *doc,
              const struct suite_run_opts *o, struct plan_status *st, char *err, size_t errlen)
{
    int rc = suite_check(c, ps, err, errlen);
    if (rc < 0)
        return rc;
    /* every part of every profile, overridden, for the checks */
    unsigned nall = 0;
    for (unsigned i = 0; i < c->nprofiles; i++)
        nall += profile_find(ps, c->profiles[i])->nparts;
    struct job_spec *all = calloc(nall ? nall : 1, sizeof(*all));
    if (!all) {
        snprintf(err, errlen, "out of memory");
        return -ENOMEM;
    }
    bool writes = c->precond != PRECOND_OFF || c->purge || c->discard_unused;
    unsigned k = 0;
    for (unsigned i = 0; i < c->nprofiles; i++) {
        const struct profile *p = profile_find(ps, c->profiles[i]);
        for (unsigned j = 0; j < p->nparts; j++, k++) {
            suite_part_job(c, profile_part(ps, p, j), &all[k], err, errlen);
            writes |= job_rw_writes(&all[k]);
        }
    }
    rc = precheck(c, all, nall, writes, o, err, errlen);
    cJSON *suite = config_json(c, o);
    cJSON_AddItemToObject(doc, "suite", suite);
    if (rc == 0 && c->discard_unused)
        rc = discard_unused(c, o, suite, err, errlen);
    cJSON *profiles = cJSON_GetObjectItemCaseSensitive(suite, "profiles");
    k = 0;
    for (unsigned i = 0; rc == 0 && i < c->nprofiles && !st->interrupted; i++) {
        const struct profile *p = profile_find(ps, c->profiles[i]);
        cJSON *pj = cJSON_CreateObject();
        cJSON_AddItemToArray(profiles, pj);
        cJSON_AddStringToObject(pj, "name", p->name);
        cJSON_AddStringToObject(pj, "description", p->description);
        cJSON_AddStringToObject(pj, "source", p->source);
        char def[PROFILE_DEF_MAX * 4];
        definition(ps, p, def, sizeof(def));
        cJSON_AddStringToObject(pj, "definition", def);
        cJSON_AddBoolToObject(pj, "fixed_load", p->fixed_load);
        cJSON *pa = cJSON_AddArrayToObject(pj, "parts");
        for (unsigned j = 0; j < p->nparts; j++) {
            char sum[160];
            profile_summary(&all[k + j], sum, sizeof(sum));
            cJSON *po = cJSON_CreateObject();
            cJSON_AddStringToObject(po, "name", all[k + j].name);
            cJSON_AddStringToObject(po, "workload", sum);
            const struct job_spec *dj = &profile_part(ps, p, j)->job;
            bool mixed = all[k + j].rw == RW_RW || all[k + j].rw == RW_RANDRW;
            if (mixed && dj->rwmixread != all[k + j].rwmixread)
                cJSON_AddNumberToObject(po, "profile_rwmixread", dj->rwmixread);
            cJSON_AddItemToArray(pa, po);
        }
        rc = run_profile(c, ps, p, &all[k], doc, pj, o, st, err, errlen);
        k += p->nparts;
    }
    free(all);
    return rc;
}
