/* job_opts.c - see job_opts.h. */
#include "job/job_opts.h"

#include <errno.h>

#include "base/errmsg.h"
#include "stats/iolog.h"
#include "target/fileset.h"
#include "target/stripe.h"

_Static_assert(JOB_PATH_MAX <= IOLOG_NAME_MAX, "a job's log names fit the logs' paths");
_Static_assert(JOB_MAX_TARGETS <= STRIPE_MAX_TARGETS, "a job's targets fit a stripe");

#define stripe_fail(err, errlen, ...) errmsg(err, errlen, -EINVAL, __VA_ARGS__)

void job_iolog_opts(const struct job_spec *job, struct iolog_opts *o)
{
    *o = (struct iolog_opts){
        .lat_log = job->lat_log,
        .bw_log = job->bw_log,
        .iops_log = job->iops_log,
        .hist_log = job->hist_log,
        .schedlat = job->rate_iops > 0 && job->log_schedlat,
        .avg_msec = job->log_avg_msec,
        .offsets = job->log_offset,
        .log_prio = job->cmdprio.log_prio,
        .no_bw = job->no_bw,
        .hist_msec = job->log_hist_msec,
        .hist_coarseness = job->log_hist_coarseness,
        .compressed = job->log_store_compressed && job->log_compression,
        .per_job_logs = job->per_job_logs,
    };
}

void job_fileset_spec(const struct job_spec *job, struct fileset_spec *fs)
{
    *fs = (struct fileset_spec){
        .name = job->name,
        .nrfiles = job->nrfiles,
        .offset = job->offset,
        .size = job->size,
        .file_size = job->file_size,
        .file_size_hi = job->file_size_hi,
        .min_bs = job->res.bs_min,
    };
}

int job_stripe_check(const struct stripe_map *m, const struct job_spec *job, char *err,
                     size_t errlen)
{
    static const char *const dname[DIR_COUNT] = {"reads", "writes", "trims"};
    unsigned long long chunk = m->chunk;
    for (unsigned d = 0; d < DIR_COUNT; d++) {
        if (!(d == DIR_READ ? job_rw_reads(job) : d == DIR_WRITE ? job_rw_writes(job) : job_rw_trims(job)))
            continue;
        const struct job_bssplit *bs = &job->bs[d];
        uint32_t minbs = 0;
        for (unsigned i = 0; i < bs->n && i < JOB_BSSPLIT_MAX; i++) {
            if (!(bs->pct[i] > 0) || bs->bs[i] == 0)
                continue;
            if (bs->bs[i] > chunk)
                return stripe_fail(err, errlen,
                                   "block size %u for %s is larger than the stripe chunk %llu",
                                   bs->bs[i], dname[d], chunk);
            if (minbs == 0 || bs->bs[i] < minbs)
                minbs = bs->bs[i];
        }
        uint64_t align = job->blockalign[d] ? job->blockalign[d] : minbs;
        if (align && chunk % align)
            return stripe_fail(err, errlen,
                               "blockalign %llu for %s does not divide the stripe chunk %llu",
                               (unsigned long long)align, dname[d], chunk);
    }
    if (!(job->offset_pct > 0) && job->offset % chunk)
        return stripe_fail(err, errlen, "offset %llu is not a multiple of the stripe chunk %llu",
                           (unsigned long long)job->offset, chunk);
    if (job->offset_increment % chunk)
        return stripe_fail(err, errlen,
                           "offset_increment %llu is not a multiple of the stripe chunk %llu",
                           (unsigned long long)job->offset_increment, chunk);
    return 0;
}
