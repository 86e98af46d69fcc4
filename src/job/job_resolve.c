/* job_resolve.c - see job_resolve.h. */
#include "job/job_resolve.h"

static uint32_t write_bs_min(const struct job_spec *job)
{
    const struct job_bssplit *b = &job->bs[DIR_WRITE];
    uint32_t m = 0;
    for (unsigned i = 0; i < b->n; i++)
        if (b->bs[i] && (!m || b->bs[i] < m))
            m = b->bs[i];
    return m ? m : 4096;
}

void job_resolve(struct job_spec *job, bool from_cmdline)
{
    /* the run command line: --runtime means "run this long" */
    if (from_cmdline && job->runtime_ns && !job->io_limit)
        job->time_based = true;
    struct job_resolved *r = &job->res;
    r->bs_min = job_bs_min(job);
    r->bs_max = job_bs_max(job);
    r->write_bs_min = write_bs_min(job);
    /* fio: a job that is not time_based ends after one pass over its
     * region (times loops) or at runtime, whichever comes first */
    r->passes = !job->io_limit && !job->time_based && !(job->io_size_pct > 0) ? (job->loops ? job->loops : 1) : 0;
    /* (rand)trimwrite trims every byte and then writes it */
    r->limit_mult = job_rw_trimwrite(job) ? 2 : 1;
    /* read_iolog: a replay ends with its log (io_size and number_ios,
     * when given, still end it earlier) */
    if (job->read_iolog[0]) {
        r->passes = 0;
        r->limit_mult = 1;
    }
    r->done = true;
}

void job_resolve_limits(struct job_spec *job, uint64_t region_len)
{
    const struct job_resolved *r = &job->res;
    if (r->passes) {
        job->io_limit = region_len * r->passes;
        job->passes = r->passes;
    } else if (job->fio_stream && job->io_limit && region_len && !job->time_based && !job->read_iolog[0] &&
               !(job->io_size_pct > 0)) {
        /* fio (io_bytes_exceeded, keep_running): a loop ends at the end of
         * a pass or at io_size times loops bytes; after loops loops more
         * start while the bytes are below io_size */
        unsigned loops = job->loops ? job->loops : 1;
        if (job->io_limit / loops <= region_len) {
            /* the loops' passes reach io_size: loops of them, each cut at
             * io_size times loops bytes */
            job->passes = loops;
            job->io_limit *= loops;
        } /* else passes go on (each a loop of fio's) until io_size */
    }
    job->io_limit *= r->limit_mult;
    job->rw_ios_limit *= r->limit_mult;
}
