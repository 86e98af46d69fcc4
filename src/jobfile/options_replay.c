/* options_replay.c - fio's read_iolog at job level: the log is read once
 * (base/replay_log.h; a bad line refuses the job with "PATH:LINE: why") and
 * the job becomes what the log does, as fio 3.33 makes it: the log's files
 * (or replay_redirect) are the targets, its directions the job's rw (so a
 * replay that writes is opened and guarded as any write job), its largest
 * I/O per direction the block size (buffer room). The runner replays the
 * entries (runner/worker_replay.c). fio's ':' list names one log per
 * clone (clone N the Nth, modulo their number): the job's files are those
 * of every log replayed, each opened for writing only when a log naming it
 * writes or trims (job_target_destroys), as fio's clones open them. A blktrace file is read as fio reads it
 * (base/replay_blk.c), its probed depth the job's unless iodepth is given.
 * Options that would change what is issued besides the log are refused
 * with the reason; rate and rate_iops are taken and do nothing, as in fio. */
#include "jobfile/options_int.h"

#include "base/gcd.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/replay_log.h"
#include "job/spec_parse.h"

/* fio's replay_skip: "read,write,trim,sync", each adding to the set. */
JOPT_SETTER(replay_skip)
{
    (void)o;
    char buf[128];
    if (snprintf(buf, sizeof(buf), "%s", v) >= (int)sizeof(buf))
        return jopt_fail(c, -EINVAL, "value '%.40s...' is too long", v);
    char *p = buf;
    while (*p == ' ' || *p == '\t')
        p++;
    for (size_t l = strlen(p); l && (p[l - 1] == ' ' || p[l - 1] == '\t'); l--)
        p[l - 1] = 0;
    static const char *const names[] = {"read", "write", "trim", "sync"};
    for (char *save = NULL, *t = strtok_r(p, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        unsigned i = 0;
        while (i < 4 && strcmp(t, names[i]))
            i++;
        if (i == 4)
            return jopt_fail(c, -EINVAL, "unknown skip type '%s' (read, write, trim, sync)", t);
        c->job->replay_skip |= 1u << i;
    }
    return 0;
}

/* iodepth, remembered as given: a blktrace replay takes fio's probed depth
 * only when it was not. */
JOPT_SETTER(iodepth)
{
    uint64_t n;
    int rc = spec_parse_u64(v, &n, c->err, c->errlen);
    if (rc)
        return jopt_prefix(c, rc);
    if (n < o->min || n > o->max)
        return jopt_fail(c, -EINVAL, "value '%s' is out of range (allowed %llu..%llu)", v,
                         (unsigned long long)o->min, (unsigned long long)o->max);
    c->job->iodepth = (unsigned)n;
    c->x->iodepth_set = true;
    return 0;
}

/* Options whose generated I/O a replay does not have: refused by name. */
static int refuse_with_replay(const struct job_spec *job, const struct job_extra *x, char *err, size_t errlen)
{
    const char *why = NULL;
    if (job->fsync_every || job->fdatasync_every)
        why = "fsync/fdatasync (the log's own sync lines are replayed; fio ignores these with read_iolog)";
    else if (job->nrfiles > 1)
        why = "nrfiles (the log names the files)";
    else if (x->zone_mode > 0)
        why = "zonemode (the log gives every offset)";
    else if (job->time_based)
        why = "time_based (a replay ends with its log, as in fio)";
    else if (job->verify_only)
        why = "verify_only (fio 3.33 reads nothing back from a replay it did not write)";
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

/* verify of a replay, as fio 3.33 does it: a log that only writes, on one
 * file; its writes are then read back in offset order. The unit of the
 * written-block record is the gcd of the writes' offsets and lengths. */
static int replay_verify(struct job_spec *job, const struct rlog *sum, const struct rlog_opts *base,
                         unsigned nlogs, char *err, size_t errlen)
{
    if (sum->count[RLOG_READ] || sum->count[RLOG_TRIM])
        return snprintf(err, errlen, "read_iolog with verify: the log %s (fio 3.33 checks only a replay that only "
                                     "writes; with reads its check fails on its own writes)",
                        sum->count[RLOG_READ] ? "also reads" : "also trims"), -EINVAL;
    if (sum->nfiles > 1)
        return snprintf(err, errlen, "read_iolog with verify: a log of one file only (this one has %u)",
                        sum->nfiles), -EINVAL;
    uint64_t g = 0, glen = 0;
    struct rlog *lg = malloc(sizeof(*lg));
    if (!lg)
        return snprintf(err, errlen, "out of memory"), -ENOMEM;
    struct rlog_entry e[64];
    int rc = 0;
    for (unsigned i = 0; i < nlogs && !rc; i++) {
        char name[JOB_PATH_MAX], msg[512];
        struct rlog_stream *st = NULL;
        rlog_list_name(job->read_iolog, i, name, sizeof(name));
        long got = rlog_stream_open(name, base, lg, &st, msg, sizeof(msg));
        while (got >= 0 && (got = rlog_stream_next(st, e, 64, msg, sizeof(msg))) > 0)
            for (long k = 0; k < got; k++)
                if (e[k].op == RLOG_WRITE) {
                    g = gcd_u64(gcd_u64(g, e[k].off), e[k].len);
                    glen = gcd_u64(glen, e[k].len);
                }
        rlog_stream_close(st);
        if (got < 0)
            rc = (snprintf(err, errlen, "read_iolog: %s", msg), -EINVAL);
    }
    free(lg);
    if (rc)
        return rc;
    job->replay_verify_unit = g ? g : 1;
    /* a header in every block of every length the log writes */
    if (!job->verify_interval)
        job->verify_interval = (uint32_t)glen;
    return 0;
}

int job_replay_readonly(struct job_spec *job, struct job_extra *x, char *err, size_t errlen)
{
    job->readonly = true;
    if (!job->read_iolog[0])
        return 0;
    /* the same files: keep their paths as finalize made them (directory=) */
    struct job_spec *old = malloc(sizeof(*old));
    if (!old)
        return snprintf(err, errlen, "out of memory"), -ENOMEM;
    *old = *job;
    int rc = jopt_finalize_replay(job, x, err, errlen);
    if (!rc && job->ntargets == old->ntargets)
        memcpy(job->targets, old->targets, sizeof(job->targets));
    free(old);
    return rc;
}

int jopt_finalize_replay(struct job_spec *job, struct job_extra *x, char *err, size_t errlen)
{
    if (!job->read_iolog[0]) {
        if (job->replay_redirect[0] || job->replay_no_stall || job->replay_align || job->replay_scale > 1 ||
            (job->replay_time_scale && job->replay_time_scale != 100) || job->read_iolog_chunked ||
            job->replay_skip)
            return snprintf(err, errlen, "replay_* options need read_iolog"), -EINVAL;
        return 0;
    }
    if (job->replay_align & (job->replay_align - 1))
        return snprintf(err, errlen, "replay_align: %llu is not a power of 2",
                        (unsigned long long)job->replay_align), -EINVAL;
    int rc = refuse_with_replay(job, x, err, errlen);
    if (rc)
        return rc;
    /* fio 3.33 paces a replay by its log alone: rate and rate_iops are
     * taken and do nothing */
    job->rate_iops = 0;
    unsigned nlist = rlog_list_count(job->read_iolog);
    if (!nlist)
        return snprintf(err, errlen, "read_iolog: no log named in '%s'", job->read_iolog), -EINVAL;
    /* fio: clone N replays the list's name N (modulo its length) */
    unsigned clones = job->numjobs ? job->numjobs : 1;
    unsigned nlogs = clones < nlist ? clones : nlist;
    struct rlog *lg = malloc(sizeof(*lg));
    struct rlog *sum = calloc(1, sizeof(*sum));
    if (!lg || !sum) {
        free(lg);
        free(sum);
        return snprintf(err, errlen, "out of memory"), -ENOMEM;
    }
    struct rlog_opts o = {.redirect = job->replay_redirect, .align = job->replay_align,
                          .scale = job->replay_scale, .time_scale = job->replay_time_scale,
                          .no_stall = job->replay_no_stall, .skip = job->replay_skip,
                          .read_only = job->readonly};
    char msg[512];
    bool written[RLOG_MAX_FILES] = {false};
    for (unsigned i = 0; i < nlogs && !rc; i++) {
        char name[JOB_PATH_MAX];
        if (!rlog_list_name(job->read_iolog, i, name, sizeof(name))) {
            rc = (snprintf(err, errlen, "read_iolog: a name in '%.60s' is too long", job->read_iolog), -EINVAL);
            break;
        }
        if (!strcmp(name, "-")) {
            rc = (snprintf(err, errlen, "read_iolog=-: standard input is not replayed (the log is read at the start "
                                        "and again by each clone); name a file"), -EINVAL);
            break;
        }
        rc = rlog_read(name, &o, lg, msg, sizeof(msg));
        if (rc) {
            snprintf(err, errlen, "read_iolog: %s", msg);
            break;
        }
        /* the job's files: every log's, in the order they first appear;
         * fio's clone opens its log's files for writing when the log
         * writes or trims anything, else for reading */
        bool lw = lg->count[RLOG_WRITE] || lg->count[RLOG_TRIM];
        for (unsigned f = 0; f < lg->nfiles && !rc; f++) {
            unsigned k = 0;
            while (k < sum->nfiles && strcmp(sum->files[k], lg->files[f]))
                k++;
            if (k == sum->nfiles) {
                if (k == JOB_MAX_TARGETS || k == RLOG_MAX_FILES) {
                    rc = (snprintf(err, errlen, "read_iolog: the logs name more than %d files", JOB_MAX_TARGETS),
                          -E2BIG);
                    break;
                }
                strcpy(sum->files[sum->nfiles++], lg->files[f]);
            }
            if (lg->extent[f] > sum->extent[k])
                sum->extent[k] = lg->extent[f];
            written[k] |= lw;
        }
        for (int d = 0; d < 5; d++)
            sum->count[d] += lg->count[d];
        for (int d = 0; d < 3; d++)
            if (lg->max_len[d] > sum->max_len[d])
                sum->max_len[d] = lg->max_len[d];
        if (lg->blktrace && lg->depth > sum->depth)
            sum->depth = lg->depth;
        sum->blktrace |= lg->blktrace;
        rlog_free(lg);
    }
    free(lg);
    if (!rc && sum->blktrace && job->read_iolog_chunked)
        rc = (snprintf(err, errlen, "read_iolog_chunked with a blktrace file: fio 3.33 corrupts its heap reading one "
                                    "in chunks (realloc(): invalid next size, after a few I/Os)"), -EINVAL);
    if (!rc && job->verify != VERIFY_OFF)
        rc = replay_verify(job, sum, &o, nlogs, err, errlen);
    if (rc) {
        free(sum);
        return rc;
    }
    /* fio replaces the job's files with the logs'; with several, each
     * worker serves them all (the layout whose workers touch every
     * target), each I/O on its logged file */
    job->ntargets = sum->nfiles;
    for (unsigned i = 0; i < sum->nfiles; i++) {
        snprintf(job->targets[i], sizeof(job->targets[i]), "%s", sum->files[i]);
        job->replay_read_only[i] = !written[i];
    }
    job->layout = sum->nfiles > 1 ? LAYOUT_RANDOM : LAYOUT_JBOD;
    job->rw = replay_rw(sum, &job->rwmixread);
    x->pct_random_set = true;
    job->pct_random = 0;
    for (int d = 0; d < DIR_COUNT; d++)
        if (sum->max_len[d]) {
            job->bs[d].n = 1;
            job->bs[d].bs[0] = sum->max_len[d];
            job->bs[d].pct[0] = 100;
            job->blockalign[d] = 0;
        }
    /* fio: a blktrace replay's depth is the trace's, unless iodepth is given */
    job->replay_depth_probe = sum->blktrace && sum->depth && !x->iodepth_set;
    if (job->replay_depth_probe)
        job->iodepth = sum->depth;
    /* a missing file is created large enough for every logged I/O */
    uint64_t extent = 0;
    for (unsigned i = 0; i < sum->nfiles; i++)
        extent = sum->extent[i] > extent ? sum->extent[i] : extent;
    if (!job->file_size && !job->size)
        job->file_size = extent;
    /* a replay is its log: no pass count, no byte limit (fio's done) */
    job->loops = 1;
    free(sum);
    return 0;
}
