/* plan.c - see plan.h. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "result/journal.h"
#include "runner/runner_cluster.h"
#include "result/result.h"
#include "result/result_cluster.h"
#include "workload/plan.h"
#include "workload/plan_guard.h"
#include "workload/plan_subst.h"

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

/* Every rank's part of a cluster phase, gathered into rank 0's phase
 * object (collective: every rank calls it after the same phase). */
static void gather_ranks(cJSON *obj, const struct phase_stats *ps, struct cluster *c)
{
    cJSON *mine = result_rank_json(ps, c);
    char *txt = mine ? cJSON_PrintUnformatted(mine) : NULL;
    cJSON_Delete(mine);
    void *all = NULL;
    size_t *lens = NULL;
    int rc = cluster_gather(c, txt ? txt : "{}", txt ? strlen(txt) : 2, &all, &lens);
    free(txt);
    if (rc == 0 && c->rank == 0 && obj) {
        cJSON *ranks = cJSON_CreateArray();
        size_t off = 0;
        for (unsigned r = 0; r < c->nranks; r++) {
            cJSON *one = cJSON_ParseWithLength((const char *)all + off, lens[r]);
            off += lens[r];
            cJSON_AddItemToArray(ranks, one ? one : cJSON_CreateObject());
        }
        result_add_cluster(obj, ps, ranks);
    }
    free(all);
    free(lens);
}

cJSON *plan_run_phase_with(cJSON *doc, const struct plan_phase *ph, const struct runner_opts *opts,
                           plan_stats_fn fn, void *arg, struct plan_status *st, int *rc, char *err,
                           size_t errlen)
{
    /* {rank}, {host} ... in target names and log names: this rank's own */
    struct job_spec *sjobs = malloc((ph->njobs ? ph->njobs : 1) * sizeof(*sjobs));
    if (!sjobs) {
        snprintf(err, errlen, "out of memory");
        *rc = -ENOMEM;
        return NULL;
    }
    memcpy(sjobs, ph->jobs, ph->njobs * sizeof(*sjobs));
    *rc = plan_subst_jobs(opts->cluster, sjobs, ph->njobs, err, errlen);
    struct plan_phase sph = *ph;
    sph.jobs = sjobs;
    ph = &sph;
    /* every rank begins the phase together (the runner agrees the start) */
    if (cluster_barrier(opts->cluster) < 0 && !*rc) {
        snprintf(err, errlen, "the ranks lost contact before phase %s", ph->name);
        *rc = -EIO;
    }
    if (*rc) {
        /* the runner's verdict is how every rank learns of the refusal */
        if (cluster_multi(opts->cluster))
            *rc = runner_cluster_verdict(opts->cluster, *rc, 0, err, errlen);
        free(sjobs);
        return NULL;
    }
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
        if (ps.cluster)
            gather_ranks(obj, &ps, opts->cluster);
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
        if (ps.exit_all)
            st->exit_all = true;
    }
    if (ps.side_file_errors)
        st->side_files = true;
    phase_stats_free(&ps);
    if (series && series != opts->series)
        fclose(series);
    free(sjobs);
    return obj;
}

int plan_run(cJSON *doc, const struct plan *p, const struct runner_opts *opts,
             struct plan_status *st, char *err, size_t errlen)
{
    /* every phase's targets judged and held before the first one runs */
    struct runner_hold hold;
    runner_hold_init(&hold);
    int rc = 0;
    for (unsigned i = 0; i < p->nphases && rc == 0; i++)
        rc = plan_guard_add(&hold, opts, p->phases[i].jobs, p->phases[i].njobs, err, errlen);
    rc = plan_guard_judge(&hold, opts, rc, err, errlen);
    struct runner_opts go = plan_guard_opts(&hold, opts);
    for (unsigned i = 0; rc == 0 && i < p->nphases && !st->interrupted; i++)
        if (!plan_run_phase(doc, &p->phases[i], &go, st, &rc, err, errlen))
            rc = rc ? rc : -ENOMEM;
    runner_hold_close(&hold);
    return rc;
}

int plan_exit_code(const struct plan_status *st)
{
    if (st->interrupted)
        return 128 + (st->signal ? st->signal : SIGINT);
    if (st->io_errors || st->lagged || st->side_files)
        return 1;
    return 0;
}
