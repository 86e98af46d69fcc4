/* session.h - what a workload runs in: the result document it fills, the
 * runner options every phase shares (destroy consent, live status line,
 * interval journal), and the plan status the exit code comes from. The CLI
 * opens a session, hands it to a workload's run, then renders and saves the
 * document; a workload runs its phases through session_phase and never
 * decides what the user sees beyond its own progress lines.
 *
 * Statuses (also the CLI's exit codes): WL_OK, WL_FAIL (I/O errors, a failed
 * verdict), WL_USAGE (bad input, refusal); 128 + signal when interrupted. */
#ifndef SSDBENCH_SESSION_H
#define SSDBENCH_SESSION_H

#include <stdbool.h>
#include <stdio.h>
#include <cjson/cJSON.h>

#include "runner/runner.h"
#include "workload/plan.h"

enum wl_status { WL_OK = 0, WL_FAIL = 1, WL_USAGE = 2 };

struct session {
    cJSON *doc;                 /* the result document (result_new), owned */
    struct runner_opts ro;      /* shared by every phase */
    struct plan_status st;      /* what the phases run so far ended with */
    bool done;                  /* the document is finished: worth saving and rendering */
    /* standard error is a terminal the user watches (the CLI sets it): a
     * workload's overall progress goes into the live status line, rewritten
     * in place, instead of one line per step */
    bool live;
    /* The ranks the run is spread over (base/cluster.h): NULL or one rank
     * is this process alone. Also in ro.cluster, so every phase runs on
     * all of them (session_cluster sets both). */
    struct cluster *cluster;
};

/* Opens a session: a new document for the command line argv, the consent
 * and status callback for every phase. Returns 0 or -ENOMEM. */
int session_open(struct session *s, int argc, char **argv, const struct guard_consent *consent,
                 runner_status_fn status);

/* Joins the session to the cluster c before anything runs: every rank's
 * version and command line (argv as typed, before {rank} is filled in)
 * are hashed and compared; a difference is refused on every rank with
 * err naming the first rank that differs from rank 0, its host and what
 * differs (returns -EINVAL). ranks_per_host (0: any) is the number of
 * ranks every host must run (--ranks-per-host; 1: one rank, so one device
 * name, per host); another count is refused the same way. With more than
 * one rank, the document gets a "cluster" object with every rank's host,
 * version and pid. 0 otherwise. */
int session_cluster(struct session *s, struct cluster *c, int argc, char **argv, unsigned ranks_per_host,
                    char *err, size_t errlen);

/* Runs one phase and files it in the document (plan_run_phase). */
cJSON *session_phase(struct session *s, const struct plan_phase *ph, int *rc, char *err,
                     size_t errlen);

/* session_phase with the phase's own runner options (a copy of s->ro with
 * a workload's interval hook, lag limit or error policy) and a look at its
 * statistics before they are filed (plan_run_phase_with; fn may be NULL). */
cJSON *session_phase_with(struct session *s, const struct plan_phase *ph, const struct runner_opts *ro,
                          plan_stats_fn fn, void *arg, int *rc, char *err, size_t errlen);

/* Frees the document. */
void session_close(struct session *s);

/* "ssdbench: <message>" on stderr: the one-line error of a workload that
 * goes on (or stops) after telling the user. */
void session_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
