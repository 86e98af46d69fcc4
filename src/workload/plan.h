/* plan.h - a workload's plan: an ordered list of phases, each a set of jobs
 * that run together, and the glue that runs one phase and files its results.
 *
 * Workload modules (run, suite, PTS, ACT, fileio) build phases and call
 * plan_run_phase(); they may inspect each finished phase's results (through
 * the result document) before deciding the next one. */
#ifndef SSDBENCH_PLAN_H
#define SSDBENCH_PLAN_H

#include <stdbool.h>
#include <cjson/cJSON.h>

#include "runner/runner.h"
#include "job/job.h"

struct plan_phase {
    char name[JOB_NAME_MAX];
    char kind[24];              /* "run", "precondition", "sweep-point", "act", "fileio", ... */
    unsigned njobs;
    struct job_spec *jobs;
};

struct plan {
    unsigned nphases;
    struct plan_phase *phases;
};

/* Appends a phase (copies the jobs). Returns the phase or NULL. */
struct plan_phase *plan_add(struct plan *p, const char *name, const char *kind,
                            const struct job_spec *jobs, unsigned njobs);
void plan_free(struct plan *p);

/* Outcome of running phases, for the CLI's exit code. */
struct plan_status {
    bool interrupted;
    int signal;
    bool io_errors;
    bool lagged;
    bool exit_all;   /* fio's exit_what=all ended the run: no later phase */
    bool side_files; /* a log, dump or verify state could not be written */
};

/* Runs one phase with opts, adds it to doc. Interval rows go to
 * opts->series when set (a journal shared by all phases: a "# phase" line,
 * then the rows, appended; a crash keeps everything up to the last interval),
 * else to a private temporary file.
 * Returns the phase's JSON object, or NULL with err set (guard refusal or
 * set-up failure: *rc holds the -errno). */
cJSON *plan_run_phase(cJSON *doc, const struct plan_phase *ph, const struct runner_opts *opts,
                      struct plan_status *st, int *rc, char *err, size_t errlen);

/* Sees a phase's statistics once it ran, before they are filed and freed:
 * what a workload reports from them beyond the results model (ACT's log
 * lines for failed I/O and the lag stop's cause). */
typedef void (*plan_stats_fn)(void *arg, const struct phase_stats *ps);

/* plan_run_phase, calling fn(arg, stats) (fn may be NULL) when the phase ran. */
cJSON *plan_run_phase_with(cJSON *doc, const struct plan_phase *ph, const struct runner_opts *opts,
                           plan_stats_fn fn, void *arg, struct plan_status *st, int *rc, char *err,
                           size_t errlen);

/* Runs every phase in order, stopping after an interrupt. */
int plan_run(cJSON *doc, const struct plan *p, const struct runner_opts *opts,
             struct plan_status *st, char *err, size_t errlen);

/* The CLI exit code for a status: 130/143 on signals, 1 on I/O errors,
 * lag or a side file not written, else 0. */
int plan_exit_code(const struct plan_status *st);

#endif
