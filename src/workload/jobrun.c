/* jobrun.c - see jobrun.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "workload/jobrun.h"
#include "workload/plan_guard.h"
#include "base/steady.h"
#include "result/result_steady.h"

struct ss_state {
    unsigned first, njobs;          /* the phase's jobs in the jobfile */
    const struct jobfile *jf;
    struct steady *det;             /* [njobs], only where ss is set */
    bool *active;
    uint64_t step_ns;
};

static double ss_value(enum steady_metric m, const struct io_stats *s, double secs)
{
    uint64_t ios = s->dir[0].ios + s->dir[1].ios;
    switch (m) {
    case STEADY_IOPS: return secs > 0 ? (double)ios / secs : 0;
    case STEADY_BW: return secs > 0 ? (double)(s->dir[0].bytes + s->dir[1].bytes) / secs : 0;
    case STEADY_LAT:
        return ios ? (double)(s->dir[0].lat.sum + s->dir[1].lat.sum) / (double)ios : 0;
    }
    return 0;
}

/* Feeds each steady-state job its metric; the phase stops when every such
 * job has reached steady state (fio stops the whole group). */
static bool ss_hook(void *arg, const struct runner_interval *iv)
{
    struct ss_state *ss = arg;
    double secs = (double)(iv->t_end_ns - iv->t_start_ns) / 1e9;
    bool any = false, all = true;
    for (unsigned j = 0; j < ss->njobs; j++) {
        if (!ss->active[j])
            continue;
        any = true;
        const struct job_ss *cfg = &ss->jf->extra[ss->first + j].ss;
        enum steady_state r = steady_feed(&ss->det[j], ss_value(cfg->cfg.metric, &iv->jobs[j], secs));
        if (r != STEADY_REACHED)
            all = false;
    }
    return any && all;
}

static cJSON *ss_json(const struct ss_state *ss)
{
    cJSON *arr = cJSON_CreateArray();
    for (unsigned j = 0; j < ss->njobs; j++) {
        if (!ss->active[j])
            continue;
        struct steady_report rep;
        steady_get_report(&ss->det[j], &rep);
        double win[STEADY_WINDOW_MAX];
        unsigned n = steady_window_values(&ss->det[j], win, STEADY_WINDOW_MAX);
        cJSON *o = result_steady_json(&ss->jf->extra[ss->first + j].ss.cfg, &rep, win, n, ss->step_ns);
        cJSON_AddStringToObject(o, "job", ss->jf->jobs[ss->first + j].name);
        cJSON_AddItemToArray(arr, o);
    }
    return arr;
}

/* wait_for: job i waits for a job of the phase that began at start, so it
 * begins the next phase (it then also waits for the phase's other jobs). */
static bool waits_in_phase(const struct jobfile *jf, unsigned start, unsigned i)
{
    const char *w = jf->extra[i].wait_for;
    for (unsigned k = start; w[0] && k < i; k++)
        if (!strcmp(jf->jobs[k].name, w))
            return true;
    return false;
}

/* The end of the phase that begins with job start (the next stonewall or
 * wait_for), as the loop in run_phases splits them. */
static unsigned phase_end(const struct jobfile *jf, unsigned start)
{
    unsigned i = start + 1;
    while (i < jf->njobs && !jf->jobs[i].stonewall && !waits_in_phase(jf, start, i))
        i++;
    return i;
}

static int run_phases(cJSON *doc, const struct jobfile *jf, const struct runner_opts *opts,
                      struct plan_status *st, char *err, size_t errlen);

int jobrun_execute(cJSON *doc, const struct jobfile *jf, const struct runner_opts *opts,
                   struct plan_status *st, char *err, size_t errlen)
{
    /* every phase's targets judged and held before the first one runs */
    struct runner_hold hold;
    runner_hold_init(&hold);
    int rc = 0;
    for (unsigned s = 0, e; s < jf->njobs && rc == 0; s = e) {
        e = phase_end(jf, s);
        rc = plan_guard_add(&hold, opts, &jf->jobs[s], e - s, err, errlen);
    }
    rc = plan_guard_judge(&hold, opts, rc, err, errlen);
    if (rc == 0) {
        struct runner_opts go = plan_guard_opts(&hold, opts);
        rc = run_phases(doc, jf, &go, st, err, errlen);
    }
    runner_hold_close(&hold);
    return rc;
}

static int run_phases(cJSON *doc, const struct jobfile *jf, const struct runner_opts *opts,
                      struct plan_status *st, char *err, size_t errlen)
{
    unsigned start = 0, log_base = 0;
    for (unsigned i = 1; i <= jf->njobs && !st->interrupted && !st->exit_all; i++) {
        if (i < jf->njobs && !jf->jobs[i].stonewall && !waits_in_phase(jf, start, i))
            continue;
        struct plan_phase ph;
        memset(&ph, 0, sizeof(ph));
        if (i - start == 1)
            snprintf(ph.name, sizeof(ph.name), "%s", jf->jobs[start].name);
        else
            snprintf(ph.name, sizeof(ph.name), "%s+%u", jf->jobs[start].name, i - start - 1);
        snprintf(ph.kind, sizeof(ph.kind), "run");
        ph.jobs = &jf->jobs[start];
        ph.njobs = i - start;

        struct ss_state ss = {.first = start, .njobs = i - start, .jf = jf};
        ss.det = calloc(ss.njobs, sizeof(*ss.det));
        ss.active = calloc(ss.njobs, sizeof(*ss.active));
        if (!ss.det || !ss.active) {
            free(ss.det);
            free(ss.active);
            snprintf(err, errlen, "out of memory");
            return -ENOMEM;
        }
        bool any_ss = false;
        for (unsigned j = 0; j < ss.njobs; j++) {
            const struct job_extra *x = &jf->extra[start + j];
            if (x->ss.set && x->ss.dur_ns > 0 && steady_init(&ss.det[j], &x->ss.cfg) == 0) {
                ss.active[j] = true;
                any_ss = true;
                ss.step_ns = x->ss.interval_ns;
            }
        }
        struct runner_opts o = *opts;
        o.log_number_base = log_base;
        for (unsigned j = 0; j < ph.njobs; j++) {
            const struct job_spec *jb = &ph.jobs[j];
            unsigned nt = jb->ntargets ? jb->ntargets : 1;
            log_base += (jb->numjobs ? jb->numjobs : 1) * (jb->layout == LAYOUT_JBOD || nt <= 1 ? nt : 1);
        }
        struct job_spec *jobs_copy = NULL;
        if (any_ss) {
            /* fio samples steady state every ss_interval: make the series
             * step the same so each sample is one interval */
            jobs_copy = malloc(ss.njobs * sizeof(*jobs_copy));
            if (!jobs_copy) {
                free(ss.det);
                free(ss.active);
                return -ENOMEM;
            }
            memcpy(jobs_copy, ph.jobs, ss.njobs * sizeof(*jobs_copy));
            for (unsigned j = 0; j < ss.njobs; j++)
                jobs_copy[j].interval_ns = ss.step_ns;
            ph.jobs = jobs_copy;
            o.on_interval = ss_hook;
            o.arg = &ss;
        }
        int rc;
        cJSON *phase = plan_run_phase(doc, &ph, &o, st, &rc, err, errlen);
        if (phase && any_ss)
            cJSON_AddItemToObject(phase, "steady_state", ss_json(&ss));
        free(jobs_copy);
        free(ss.det);
        free(ss.active);
        if (!phase)
            return rc ? rc : -ENOMEM;
        start = i;
    }
    return 0;
}
