/* job.c - defaults and names for struct job_spec (see job.h). */
#include "job/job.h"

#include <errno.h>
#include <string.h>

static const double job_default_pcts[] = {1,    5,     10,    20,     30,      40,  50,
                                          60,   70,    80,    90,     95,      99,  99.5,
                                          99.9, 99.95, 99.99, 99.999, 99.9999};

void job_defaults(struct job_spec *job)
{
    memset(job, 0, sizeof(*job));
    strcpy(job->name, "job");
    job->layout = LAYOUT_JBOD;
    job->rw = RW_RANDREAD;
    job->rwmixread = 50;
    job->pct_random = 100; /* randread */
    job->rw_seq_nr = 1;
    job->exec.grace_time = 1;   /* fio's exec engine defaults */
    job->exec.std_redirect = true;
    for (unsigned d = 0; d < DIR_COUNT; d++) {
        job->bs[d].n = 1;
        job->bs[d].bs[0] = 4096;
        job->bs[d].pct[0] = 100;
    }
    job->loops = 1;
    job->per_job_logs = true; /* fio: one log per clone, name.N.log */
    job->iodepth = 1;
    job->numjobs = 1;
    job->engine = ENGINE_IO_URING;
    job->direct = true;
    job->dist.kind = DIST_UNIFORM;
    job->buffer = BUF_RANDOM;
    job->do_verify = true; /* fio: verify after writing once verify= is set */
    job->trim_zero = true; /* fio's trim_verify_zero default */
    job->interval_ns = 1000000000ULL;
    job->npercentiles = sizeof(job_default_pcts) / sizeof(job_default_pcts[0]);
    memcpy(job->percentiles, job_default_pcts, sizeof(job_default_pcts));
    /* fio buffer contents and scheduling */
    job->scramble_buffers = false; /* job files and command lines: fio's 1 (jobfile.c) */
    job->compress_chunk = 512;    /* fio's buffer_compress_chunk default */
    job->dedupe_ws_pct = 5;       /* fio's dedupe_working_set_percentage default */
    job->ioprio = -1;
    job->ioprio_class = -1;
    /* fio rate floors and latency limits: fio's defaults */
    job->rate_cycle_ms = 1000;
    job->lat_percentile = 100;
}

const char *job_rw_name(enum job_rw rw)
{
    switch (rw) {
    case RW_READ: return "read";
    case RW_WRITE: return "write";
    case RW_RANDREAD: return "randread";
    case RW_RANDWRITE: return "randwrite";
    case RW_RW: return "rw";
    case RW_RANDRW: return "randrw";
    case RW_TRIM: return "trim";
    case RW_RANDTRIM: return "randtrim";
    case RW_TRIMWRITE: return "trimwrite";
    case RW_RANDTRIMWRITE: return "randtrimwrite";
    }
    return "unknown";
}

const char *job_engine_name(enum engine_kind e)
{
    switch (e) {
    case ENGINE_IO_URING: return "io_uring";
    case ENGINE_LIBAIO: return "libaio";
    case ENGINE_PSYNC: return "psync";
    case ENGINE_NULL: return "null";
    case ENGINE_POSIXAIO: return "posixaio";
    case ENGINE_MMAP: return "mmap";
    case ENGINE_URING_CMD: return "io_uring_cmd";
    case ENGINE_SG: return "sg";
    case ENGINE_FALLOC: return "falloc";
    case ENGINE_FTRUNCATE: return "ftruncate";
    case ENGINE_E4DEFRAG: return "e4defrag";
    case ENGINE_CPUIO: return "cpuio";
    case ENGINE_FILECREATE: return "filecreate";
    case ENGINE_FILESTAT: return "filestat";
    case ENGINE_FILEDELETE: return "filedelete";
    case ENGINE_EXEC: return "exec";
    }
    return "unknown";
}

const char *job_layout_name(enum job_layout l)
{
    switch (l) {
    case LAYOUT_JBOD: return "jbod";
    case LAYOUT_STRIPE: return "stripe";
    case LAYOUT_RANDOM: return "random";
    case LAYOUT_FILES: return "files";
    }
    return "unknown";
}

const char *job_randgen_name(enum job_randgen g)
{
    switch (g) {
    case RANDGEN_TAUSWORTHE: return "tausworthe";
    case RANDGEN_TAUSWORTHE64: return "tausworthe64";
    case RANDGEN_LFSR: return "lfsr";
    }
    return "unknown";
}

bool job_rw_is_random(enum job_rw rw)
{
    return rw == RW_RANDREAD || rw == RW_RANDWRITE || rw == RW_RANDRW || rw == RW_RANDTRIM ||
           rw == RW_RANDTRIMWRITE;
}

bool job_rw_reads(const struct job_spec *job)
{
    switch (job->rw) {
    case RW_READ:
    case RW_RANDREAD:
        return true;
    case RW_RW:
    case RW_RANDRW:
        return job->rwmixread > 0;
    default:
        return false;
    }
}

bool job_rw_writes(const struct job_spec *job)
{
    switch (job->rw) {
    case RW_WRITE:
    case RW_RANDWRITE:
    case RW_TRIMWRITE:
    case RW_RANDTRIMWRITE:
        return true;
    case RW_RW:
    case RW_RANDRW:
        return job->rwmixread < 100;
    default:
        return false;
    }
}

bool job_rw_trims(const struct job_spec *job)
{
    return job->rw == RW_TRIM || job->rw == RW_RANDTRIM || job->rw == RW_TRIMWRITE ||
           job->rw == RW_RANDTRIMWRITE;
}

uint32_t job_bs_max(const struct job_spec *job)
{
    uint32_t m = 0;
    for (int d = 0; d < DIR_COUNT; d++)
        for (unsigned i = 0; i < job->bs[d].n; i++)
            if (job->bs[d].bs[i] > m)
                m = job->bs[d].bs[i];
    return m;
}

uint32_t job_bs_min(const struct job_spec *job)
{
    uint32_t m = 0;
    for (unsigned d = 0; d < DIR_COUNT; d++)
        for (unsigned i = 0; i < job->bs[d].n && i < JOB_BSSPLIT_MAX; i++)
            if (job->bs[d].bs[i] && (m == 0 || job->bs[d].bs[i] < m))
                m = job->bs[d].bs[i];
    return m ? m : 4096;
}

bool job_rw_trimwrite(const struct job_spec *job)
{
    return job->rw == RW_TRIMWRITE || job->rw == RW_RANDTRIMWRITE;
}

bool job_rw_destroys(const struct job_spec *job)
{
    /* falloc changes a file's allocation (and size) whatever the direction,
     * on a descriptor open for writing, as fio's engine opens it */
    return job_rw_writes(job) || job_rw_trims(job) || job->engine == ENGINE_FALLOC;
}

bool job_target_destroys(const struct job_spec *job, unsigned t)
{
    if (!job_rw_destroys(job) || (job->verify != VERIFY_OFF && job->verify_only))
        return false;
    return !(job->read_iolog[0] && t < JOB_MAX_TARGETS && job->replay_read_only[t]);
}

/* fio's td_non_fatal_error(): EILSEQ is a verify error, any other error
 * of a read a read error, else a write error; the job goes on only when
 * continue_on_error names that class and the error is in the class's
 * ignore_error list (by default EIO and EILSEQ). */
bool job_error_continues(const struct job_spec *job, bool is_read, int err)
{
    unsigned cls = err == EILSEQ ? 2 : is_read ? 0 : 1;
    if (!(job->continue_on_error & (1u << cls)))
        return false;
    if (job->nignore[cls] == 0)
        return err == EIO || err == EILSEQ;
    for (unsigned i = 0; i < job->nignore[cls]; i++)
        if (job->ignore_errno[cls][i] == err)
            return true;
    return false;
}
