/* plan.c - see plan.h. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "result/journal.h"
#include "result/result.h"
#include "workload/plan.h"

struct plan_phase *plan_add(struct plan *p, const char *name, const char *kind,
                            const struct job_spec *jobs, unsigned njobs)
{
    struct plan_phase *np = realloc(p->phases, (p->nphases + 1) * sizeof(*np));
    if (!np)
        return NULL;
    p->phases = np;
    struct plan_phase *ph = &np[p->nphases];
    memset(ph, 0, sizeof(*ph));
    snprintf(ph->name, sizeof(ph->name), "%s", name);
    snprintf(ph->kind, sizeof(ph->kind), "%s", kind);
    ph->jobs = calloc(njobs ? njobs : 1, sizeof(*jobs));
    if (!ph->jobs)
        return NULL;
    memcpy(ph->jobs, jobs, njobs * sizeof(*jobs));
    ph->njobs = njobs;
    p->nphases++;
    return ph;
}

void plan_free(struct plan *p)
{
    for (unsigned i = 0; i < p->nphases; i++)
        free(p->phases[i].jobs);
    free(p->phases);
    memset(p, 0, sizeof(*p));
}

cJSON *plan_run_phase(cJSON *doc, const struct plan_phase *ph, const struct runner_opts *opts,
                      struct plan_status *st, int *rc, char *err, size_t errlen)
{
    return plan_run_phase_with(doc, ph, opts, NULL, NULL, st, rc, err, errlen);
}

cJSON *plan_run_phase_with(cJSON *doc, const struct plan_phase *ph, const struct runner_opts *opts,
                           plan_stats_fn fn, void *arg, struct plan_status *st, int *rc, char *err,
                           size_t errlen)
{
    struct runner_opts o = *opts;
    /* Interval rows go to an unlinked temporary file while the phase runs,
     * so memory stays flat however long it is. */
    FILE *series = o.series ? o.series : tmpfile();
    o.series = series;
    /* A shared journal (the CLI's RESULT.partial) holds every phase: a header
     * line, then this phase's rows, which are read back from here. */
    long start = 0;
    if (series) {
        fseek(series, 0, SEEK_END);
        journal_write_phase(series, ph->name, ph->kind, ph->jobs, ph->njobs);
        start = ftell(series);
    }
    struct phase_stats ps;
    *rc = runner_run(ph->jobs, ph->njobs, &o, &ps, err, errlen);
    cJSON *obj = NULL;
    if (*rc == 0) {
        if (fn)
            fn(arg, &ps);
        if (series)
            fseek(series, start, SEEK_SET);
        obj = result_add_phase(doc, ph->name, ph->kind, &ps, series);
        /* the shared journal also keeps the phase as filed, so a later
         * kill loses only the phase it cuts short */
        if (obj && opts->series)
            journal_write_done(opts->series, doc, obj);
        if (ps.interrupted) {
            st->interrupted = true;
            st->signal = ps.signal;
        }
        if (ps.error_total)
            st->io_errors = true;
        if (ps.lagged)
            st->lagged = true;
    }
    phase_stats_free(&ps);
    if (series && series != opts->series)
        fclose(series);
    return obj;
}

int plan_run(cJSON *doc, const struct plan *p, const struct runner_opts *opts,
             struct plan_status *st, char *err, size_t errlen)
{
    for (unsigned i = 0; i < p->nphases && !st->interrupted; i++) {
        int rc;
        if (!plan_run_phase(doc, &p->phases[i], opts, st, &rc, err, errlen))
            return rc ? rc : -ENOMEM;
    }
    return 0;
}

int plan_exit_code(const struct plan_status *st)
{
    if (st->interrupted)
        return 128 + (st->signal ? st->signal : SIGINT);
    if (st->io_errors || st->lagged)
        return 1;
    return 0;
}
