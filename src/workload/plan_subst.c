/* plan_subst.c - see plan_subst.h. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "workload/plan_subst.h"

int plan_subst_jobs(const struct cluster *c, struct job_spec *jobs, unsigned njobs, char *err, size_t errlen)
{
    for (unsigned j = 0; j < njobs; j++) {
        struct job_spec *jb = &jobs[j];
        char *fields[JOB_MAX_TARGETS + 3];
        unsigned nf = 0;
        for (unsigned t = 0; t < jb->ntargets && t < JOB_MAX_TARGETS; t++)
            fields[nf++] = jb->targets[t];
        fields[nf++] = jb->lat_log;
        fields[nf++] = jb->bw_log;
        fields[nf++] = jb->iops_log;
        for (unsigned f = 0; f < nf; f++) {
            char tmp[JOB_PATH_MAX];
            if (!cluster_has_subst(fields[f]))
                continue;
            if (cluster_subst(c, fields[f], tmp, sizeof(tmp)) < 0) {
                snprintf(err, errlen, "job %s: '%s' is too long with {rank}/{host} filled in", jb->name, fields[f]);
                return -ENAMETOOLONG;
            }
            memcpy(fields[f], tmp, sizeof(tmp));
        }
    }
    return 0;
}
