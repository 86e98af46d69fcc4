/* plan_guard.c - see plan_guard.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "runner/runner_cluster.h"
#include "runner/runner_mem.h"
#include "workload/plan.h"
#include "workload/plan_guard.h"
#include "workload/plan_subst.h"

int plan_guard_add(struct runner_hold *h, const struct runner_opts *opts, const struct job_spec *jobs,
                   unsigned njobs, char *err, size_t errlen)
{
    int rc = runner_mem_check(jobs, njobs, NULL, err, errlen);
    if (rc < 0)
        return rc;
    struct job_spec *j = malloc(sizeof(*j));
    if (!j) {
        snprintf(err, errlen, "out of memory");
        return -ENOMEM;
    }
    for (unsigned k = 0; k < njobs && rc == 0; k++) {
        *j = jobs[k];
        rc = plan_subst_jobs(opts->cluster, j, 1, err, errlen);
        const struct engine_ops *ops = engine_lookup(j->engine);
        if (rc < 0 || (ops && !ops->needs_files))
            continue;
        /* as runner_setup_job decides: verify_only writes nothing */
        bool writes = job_rw_destroys(j) && !(j->verify != VERIFY_OFF && j->verify_only);
        uint64_t size = runner_create_size(j);
        if (j->layout == LAYOUT_FILES)
            size = j->file_size ? j->file_size : j->size / (j->ntargets ? j->ntargets : 1);
        /* a file that grows only as it is written, fill_device (which
         * writes until the file system is full, as fio), a read-only job
         * (creates nothing) */
        if (j->fill_device || j->readonly || (j->fallocate == FALLOC_NONE && !job_rw_reads(j)))
            size = 0;
        bool passthru = j->engine == ENGINE_URING_CMD || j->engine == ENGINE_SG;
        for (unsigned t = 0; t < j->ntargets && rc == 0; t++)
            if ((passthru ? runner_hold_add_chardev(h, j->targets[t], writes && job_target_destroys(j, t))
                          : runner_hold_add(h, j->targets[t], writes && job_target_destroys(j, t), size)) < 0) {
                snprintf(err, errlen, "out of memory");
                rc = -ENOMEM;
            }
    }
    free(j);
    return rc;
}

int plan_guard_judge(struct runner_hold *h, const struct runner_opts *opts, int rc, char *err,
                     size_t errlen)
{
    if (rc == 0)
        rc = runner_hold_judge(h, opts->consent, err, errlen);
    if (cluster_multi(opts->cluster))
        rc = runner_cluster_verdict(opts->cluster, rc, 0, err, errlen);
    return rc;
}

struct runner_opts plan_guard_opts(struct runner_hold *h, const struct runner_opts *opts)
{
    struct runner_opts o = *opts;
    o.hold = h;
    o.consent = &h->consent;
    return o;
}
