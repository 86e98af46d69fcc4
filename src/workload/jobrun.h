/* jobrun.h - runs parsed fio-style jobs the way fio would: jobs between two
 * stonewalls run together as one phase, in file order; a job with fio's
 * steadystate= settings stops its phase early once the rule is met (fio stops
 * the group), and the phase records the steady-state report. */
#ifndef SSDBENCH_JOBRUN_H
#define SSDBENCH_JOBRUN_H

#include <cjson/cJSON.h>

#include "jobfile/jobfile.h"
#include "workload/plan.h"

/* Runs every phase of jf, adding each to doc. Returns 0, or a negative errno
 * with err set when a phase could not start (guard refusal, bad target). */
int jobrun_execute(cJSON *doc, const struct jobfile *jf, const struct runner_opts *opts,
                   struct plan_status *st, char *err, size_t errlen);

#endif
