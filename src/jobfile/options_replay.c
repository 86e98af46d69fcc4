/* options_replay.c - fio's read_iolog at job level: the log is read once
 * (base/replay_log.h; a bad line refuses the job with "PATH:LINE: why") and
 * the job becomes what the log does, as fio 3.33 makes it: the log's files
 * (or replay_redirect) are the targets, its directions the job's rw (so a
 * replay that writes is opened and guarded as any write job), its largest
 * I/O per direction the block size (buffer room). The runner replays the
 * entries (runner/worker_replay.c). Options that would change what is
 * issued besides the log are refused with the reason. */
#include "jobfile/options_int.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/replay_log.h"

/* Options whose generated I/O a replay does not have: refused by name. */
static int refuse_with_replay(const struct job_spec *job, const struct job_extra *x, char *err, size_t errlen)
{
    const char *why = NULL;
    if (job->verify != VERIFY_OFF)
        why = "verify (a replay has no written-block record to check)";
    else if (job->fsync_every || job->fdatasync_every)
        why = "fsync/fdatasync (the log's own sync lines are replayed; fio ignores these with read_iolog)";
    else if (x->rate_bytes[0] || x->rate_bytes[1] || x->rate_bytes[2] || x->rate_iops[0] || x->rate_iops[1] ||
             x->rate_iops[2])
        why = "rate/rate_iops (the log's time stamps pace a replay; replay_time_scale scales them)";
    else if (job->nrfiles > 1)
        why = "nrfiles (the log names the files)";
    else if (x->zone_mode > 0)
        why = "zonemode (the log gives every offset)";
    else if (job->time_based)
        why = "time_based (a replay ends with its log, as in fio)";
    if (!why)
        return 0;
    return snprintf(err, errlen, "read_iolog cannot be combined with %s", why), -EINVAL;
}

static enum job_rw replay_rw(const struct rlog *lg, unsigned *rwmixread)
{
    bool r = lg->count[RLOG_READ] > 0, w = lg->count[RLOG_WRITE] > 0, t = lg->count[RLOG_TRIM] > 0;
    uint64_t rw = lg->count[RLOG_READ] + lg->count[RLOG_WRITE];
    if (r && w) {
        unsigned pct = (unsigned)(lg->count[RLOG_READ] * 100 / rw);
        *rwmixread = pct < 1 ? 1 : pct > 99 ? 99 : pct;
    }
    if (t)
        return r || w ? RW_RANDTRIMWRITE : RW_RANDTRIM;
    if (r && w)
        return RW_RANDRW;
    return w ? RW_WRITE : RW_READ;
}

int jopt_finalize_replay(struct job_spec *job, struct job_extra *x, char *err, size_t errlen)
{
    if (!job->read_iolog[0]) {
        if (job->replay_redirect[0] || job->replay_no_stall || job->replay_align || job->replay_scale > 1 ||
            (job->replay_time_scale && job->replay_time_scale != 100))
            return snprintf(err, errlen, "replay_* options need read_iolog"), -EINVAL;
        return 0;
    }
    if (strchr(job->read_iolog, ':'))
        return snprintf(err, errlen, "read_iolog: one log per job (fio's ':' list of logs per clone is not supported)"),
               -EINVAL;
    if (job->replay_align & (job->replay_align - 1))
        return snprintf(err, errlen, "replay_align: %llu is not a power of 2",
                        (unsigned long long)job->replay_align), -EINVAL;
    int rc = refuse_with_replay(job, x, err, errlen);
    if (rc)
        return rc;
    struct rlog *lg = malloc(sizeof(*lg));
    if (!lg)
        return snprintf(err, errlen, "out of memory"), -ENOMEM;
    struct rlog_opts o = {.redirect = job->replay_redirect, .align = job->replay_align,
                          .scale = job->replay_scale, .time_scale = job->replay_time_scale};
    char msg[512];
    rc = rlog_read(job->read_iolog, &o, lg, msg, sizeof(msg));
    if (rc) {
        snprintf(err, errlen, "read_iolog: %s", msg);
        free(lg);
        return rc;
    }
    if (lg->nfiles > JOB_MAX_TARGETS) {
        snprintf(err, errlen, "read_iolog: %s names %u files (at most %d)", job->read_iolog, lg->nfiles,
                 JOB_MAX_TARGETS);
        free(lg);
        return -E2BIG;
    }
    /* fio replaces the job's files with the log's; with several, each
     * worker serves them all (the layout whose workers touch every
     * target), each I/O on its logged file */
    job->ntargets = lg->nfiles;
    for (unsigned i = 0; i < lg->nfiles; i++)
        snprintf(job->targets[i], sizeof(job->targets[i]), "%s", lg->files[i]);
    job->layout = lg->nfiles > 1 ? LAYOUT_RANDOM : LAYOUT_JBOD;
    job->rw = replay_rw(lg, &job->rwmixread);
    x->pct_random_set = true;
    job->pct_random = 0;
    for (int d = 0; d < DIR_COUNT; d++)
        if (lg->max_len[d]) {
            job->bs[d].n = 1;
            job->bs[d].bs[0] = lg->max_len[d];
            job->bs[d].pct[0] = 100;
            job->blockalign[d] = 0;
        }
    /* a missing file is created large enough for every logged I/O */
    uint64_t extent = 0;
    for (unsigned i = 0; i < lg->nfiles; i++)
        extent = lg->extent[i] > extent ? lg->extent[i] : extent;
    if (!job->file_size && !job->size)
        job->file_size = extent;
    /* a replay is its log: no pass count, no byte limit (fio's done) */
    job->loops = 1;
    free(lg);
    return 0;
}
