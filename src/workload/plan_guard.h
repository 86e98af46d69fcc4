/* plan_guard.h - a plan judged whole before its first phase.
 *
 * Before a job file's first stonewall phase (or the quick grid's first
 * point) runs, every target of every phase is opened and judged by the
 * guard and held (runner/runner_hold.h), the new files are checked against
 * the free space of their file systems, and each phase's memory is
 * computed against the host's (runner/runner_mem.h). A refusal anywhere
 * comes before anything is created or written. The phases then run with
 * the held descriptors and the consent bound at the check (plan_guard_opts).
 */
#ifndef SSDBENCH_PLAN_GUARD_H
#define SSDBENCH_PLAN_GUARD_H

#include <stddef.h>

#include "runner/runner.h"
#include "runner/runner_hold.h"

/* Adds one phase's jobs (their {rank}/{host} names filled in) to the
 * plan's targets and checks the phase's memory. 0 or -errno with err. */
int plan_guard_add(struct runner_hold *h, const struct runner_opts *opts, const struct job_spec *jobs,
                   unsigned njobs, char *err, size_t errlen);

/* Opens and judges everything added (runner_hold_judge) unless rc (what
 * the adds returned) is already a refusal; with many ranks the verdict is
 * agreed, so a refusal on one stops all (every rank calls this once).
 * 0 or -errno with err set. */
int plan_guard_judge(struct runner_hold *h, const struct runner_opts *opts, int rc, char *err,
                     size_t errlen);

/* The phases' runner options: opts with the held targets and the bound
 * consent. */
struct runner_opts plan_guard_opts(struct runner_hold *h, const struct runner_opts *opts);

#endif
