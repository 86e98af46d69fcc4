/* plan_subst.h - the cluster's names ({rank}, {host}, ...) filled into a
 * plan's target and log names, before its targets are judged and before
 * each phase runs. */
#ifndef SSDBENCH_WORKLOAD_PLAN_SUBST_H
#define SSDBENCH_WORKLOAD_PLAN_SUBST_H

#include <stddef.h>

#include "base/cluster.h"
#include "job/job.h"

/* Fills in {rank}, {nranks}, {host}, {localrank}, {localsize}, {hostindex}
 * and {nhosts} (base/cluster.h; c NULL: the single process) in the jobs'
 * target and log names. plan_run_phase does this for every phase; 0, or
 * -ENAMETOOLONG with err set. */
int plan_subst_jobs(const struct cluster *c, struct job_spec *jobs, unsigned njobs, char *err, size_t errlen);

#endif
