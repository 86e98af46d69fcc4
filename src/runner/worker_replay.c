/* worker_replay.c - fio's read_iolog in a worker: the I/O source that
 * takes the place of the generators. At set-up the worker's log (fio's
 * ':' list: clone N replays the Nth name) is read and checked against its
 * targets' sizes; its entries are then handed out in log order, all of
 * them at once or (read_iolog_chunked) a chunk at a time from the file,
 * in a buffer allocated once.
 *
 * The schedule is fio's (iolog.c iolog_delay): each entry's gap is slept
 * relative to the last issue (the last I/O queued, or the last file
 * action done), less the time it was already late by, and a sleep that
 * overran the whole gap carries the overrun to the next entry (fio's
 * time_offset); a version 2 wait is until its time after the start. File
 * actions are done at their turn: a close followed by an open reopens the
 * file (a regular file: opened again by name, checked to be the same file,
 * and put under the old descriptor number, so the engine goes on with it;
 * a device keeps its descriptor and its exclusive hold). Declared in
 * runner_int.h. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/replay_log.h"
#include "base/replay_sched.h"
#include "runner/runner_int.h"
#include "runner/worker_verify.h"
#include "target/target.h"

#define WRP_CHUNK 1024 /* entries read at a time with read_iolog_chunked */

struct wreplay {
    struct rlog lg;                    /* the whole log (or its counts and files, chunked) */
    struct rlog slg;                   /* chunked: the stream's own counts */
    struct rlog_stream *st;            /* chunked: the log being read; NULL: lg.e holds it all */
    struct rlog_entry *e;              /* the entries at hand: lg.e, or the chunk */
    size_t n, next;
    uint16_t target[RLOG_MAX_FILES];   /* a log file's job-local target */
    bool closed[RLOG_MAX_FILES];       /* closed by the log: the next open reopens it */
    const struct target *tg;
    bool files;                        /* the engine has descriptors to reopen */
    bool failed, counted;              /* the replay could not go on; counted as the worker's error */
    struct rsched sched;               /* fio's schedule (base/replay_sched.h) */
    char name[JOB_PATH_MAX];
    const char *job;
};

static void wr_fail(struct wreplay *rp, const char *msg)
{
    if (!rp->failed)
        fprintf(stderr, "ssdbench: job '%s': read_iolog %s: %s\n", rp->job, rp->name, msg);
    rp->failed = true;
}

/* The entry due next, refilling the chunk; NULL at the end. */
static const struct rlog_entry *head(struct wreplay *rp)
{
    if (rp->next < rp->n)
        return &rp->e[rp->next];
    if (!rp->st || rp->failed)
        return NULL;
    char msg[512];
    long got = rlog_stream_next(rp->st, rp->e, WRP_CHUNK, msg, sizeof(msg));
    if (got < 0)
        wr_fail(rp, msg);
    if (got <= 0)
        return NULL;
    rp->n = (size_t)got;
    rp->next = 0;
    return &rp->e[0];
}

/* A logged open after a close: the file opened again by name, the same
 * file, under the old descriptor. */
static int reopen(struct wreplay *rp, unsigned f)
{
    const struct target *t = &rp->tg[rp->target[f]];
    if (!rp->files || t->info.kind != TARGET_FILE || t->fd < 0 || t->chardev)
        return 0;
    int flags = fcntl(t->fd, F_GETFL);
    if (flags < 0)
        return -errno;
    /* without blocking on whatever may have taken the name since (the
     * identity check below refuses it) */
    int nfd = open(t->info.path, (flags & (O_ACCMODE | O_DIRECT | O_DSYNC | O_SYNC | O_NOATIME)) | O_CLOEXEC |
                                     O_NOCTTY | O_NONBLOCK);
    if (nfd < 0)
        return -errno;
    struct stat a, b;
    int rc = 0;
    if (fstat(t->fd, &a) < 0 || fstat(nfd, &b) < 0)
        rc = -errno;
    else if (a.st_dev != b.st_dev || a.st_ino != b.st_ino)
        rc = -ESTALE;
    else if (fcntl(nfd, F_SETFL, flags & ~O_NONBLOCK) < 0 || dup3(nfd, t->fd, O_CLOEXEC) < 0)
        rc = -errno;
    close(nfd);
    return rc;
}

static void file_action(struct wreplay *rp, const struct rlog_entry *e)
{
    if (e->op == RLOG_CLOSE) {
        rp->closed[e->file] = true;
    } else if (e->op == RLOG_OPEN && rp->closed[e->file]) {
        rp->closed[e->file] = false;
        int rc = reopen(rp, e->file);
        if (rc < 0) {
            char msg[300];
            snprintf(msg, sizeof(msg), "cannot reopen %s: %s", rp->lg.files[e->file],
                     rc == -ESTALE ? "the name no longer holds the file the replay opened" : strerror(-rc));
            wr_fail(rp, msg);
        }
    }
}

uint64_t wreplay_due(struct worker *w, uint64_t now)
{
    struct wreplay *rp = w->rp;
    for (;;) {
        const struct rlog_entry *e = head(rp);
        if (!e)
            return now; /* due now, so the loop asks for it and ends */
        uint64_t due = rsched_due(&rp->sched, e->gap_ns, e->op == RLOG_WAIT, now);
        if (due > now || RLOG_IS_IO(e->op))
            return due;
        /* a file action or a wait whose time came: done, and (fio) a file
         * action starts the clock of the next gap again */
        rsched_done(&rp->sched, now, e->op != RLOG_WAIT);
        if (e->op != RLOG_WAIT)
            file_action(rp, e);
        rp->next++;
    }
}

uint64_t wreplay_begin(struct worker *w, uint64_t start)
{
    struct wreplay *rp = w->rp;
    rsched_begin(&rp->sched, start);
    return wreplay_due(w, start);
}

void wreplay_issued(struct worker *w, uint64_t now)
{
    rsched_done(&w->rp->sched, now, true);
}

bool wreplay_next(struct worker *w, struct io_req *r)
{
    struct wreplay *rp = w->rp;
    const struct rlog_entry *e;
    while ((e = head(rp)) != NULL && !RLOG_IS_IO(e->op)) {
        /* not paced (replay_no_stall): file actions at once, no waits */
        if (e->op != RLOG_WAIT)
            file_action(rp, e);
        rp->next++;
    }
    if (!e || rp->failed)
        return false;
    rp->next++;
    r->op = e->op; /* enum rlog_op is numbered as enum io_op */
    r->len = e->len;
    r->off = e->off;
    bool jbod = w->map.layout == LAYOUT_JBOD; /* one file; else the job's files */
    r->target = jbod ? 0 : rp->target[e->file];
    r->file = jbod ? (uint16_t)w->first_target : rp->target[e->file];
    if (w->vf && e->op == RLOG_WRITE)
        w->vf->roff = e->off - w->map.region_start; /* recorded by verify_staged (worker_verify.h) */
    return true;
}

bool wreplay_failed(struct worker *w)
{
    if (!w->rp || !w->rp->failed || w->rp->counted)
        return false;
    w->rp->counted = true;
    return true;
}

static int setup_fail(struct wreplay *rp, int rc)
{
    rlog_stream_close(rp->st);
    free(rp->st ? rp->e : NULL);
    rlog_free(&rp->lg);
    free(rp);
    return rc;
}

int wreplay_setup(struct worker *w, const struct job_spec *j, const struct job_setup *js, char *err,
                  size_t errlen)
{
    if (!j->read_iolog[0])
        return 0;
    struct wreplay *rp = calloc(1, sizeof(*rp));
    if (!rp)
        return snprintf(err, errlen, "out of memory"), -ENOMEM;
    rp->job = j->name;
    unsigned clones = j->clones ? j->clones : j->numjobs ? j->numjobs : 1;
    if (!rlog_list_name(j->read_iolog, w->job_worker % clones, rp->name, sizeof(rp->name))) {
        snprintf(err, errlen, "job '%s': read_iolog: no log for clone %u in '%s'", j->name, w->job_worker % clones,
                 j->read_iolog);
        free(rp);
        return -EINVAL;
    }
    struct rlog_opts o = {.redirect = j->replay_redirect, .align = j->replay_align, .scale = j->replay_scale,
                          .time_scale = j->replay_time_scale, .no_stall = j->replay_no_stall,
                          .skip = j->replay_skip, .read_only = j->readonly, .keep = !j->read_iolog_chunked};
    char msg[512];
    int rc = rlog_read(rp->name, &o, &rp->lg, msg, sizeof(msg));
    if (rc) {
        snprintf(err, errlen, "job '%s': read_iolog: %s", j->name, msg);
        free(rp);
        return rc;
    }
    if (rp->lg.ro_skipped && rp->lg.blktrace) /* fio's line, each clone's (fio has it for blktrace only) */
        fprintf(stderr, "ssdbench: %s skips replay of %llu writes due to read-only\n", j->name,
                (unsigned long long)rp->lg.ro_skipped);
    bool jbod = w->map.layout == LAYOUT_JBOD;
    if (jbod && rp->lg.nfiles > 1) {
        snprintf(err, errlen, "job '%s': read_iolog %s: %u files, the worker has one", j->name, rp->name,
                 rp->lg.nfiles);
        return setup_fail(rp, -EINVAL);
    }
    /* each log file's target (the job's files are every log's) */
    for (unsigned f = 0; f < rp->lg.nfiles; f++) {
        unsigned t = 0;
        if (jbod)
            t = w->first_target;
        else
            while (t < j->ntargets && strcmp(j->targets[t], rp->lg.files[f]))
                t++;
        if (t >= j->ntargets || (!jbod && t >= w->map.ntouch)) {
            snprintf(err, errlen, "job '%s': read_iolog %s: %s is not one of the job's files", j->name, rp->name,
                     rp->lg.files[f]);
            return setup_fail(rp, -EINVAL);
        }
        rp->target[f] = (uint16_t)t;
        /* a file or device smaller than the log's I/O would fail them short */
        uint64_t size = engine_lookup(j->engine)->needs_files && t < js->ntargets ? js->tg[t].info.size : 0;
        if (size && rp->lg.extent[f] > size) {
            snprintf(err, errlen, "job '%s': read_iolog %s: I/O up to byte %llu, past the end of %s (%llu bytes)",
                     j->name, rp->name, (unsigned long long)rp->lg.extent[f], j->targets[t],
                     (unsigned long long)size);
            return setup_fail(rp, -EINVAL);
        }
    }
    /* verify: the written-block record covers the job's region */
    if (j->verify != VERIFY_OFF && rp->lg.nfiles == 1 &&
        (w->map.region_start || rp->lg.extent[0] > w->map.region_len)) {
        snprintf(err, errlen, "job '%s': read_iolog %s with verify: the log writes outside the job's region "
                 "(offset/size)", j->name, rp->name);
        return setup_fail(rp, -EINVAL);
    }
    /* fio's clone takes its own trace's probed depth (the job's is the
     * deepest of its logs'): the slots past it stay unused */
    if (j->replay_depth_probe && rp->lg.depth && rp->lg.depth < w->depth) {
        w->depth = rp->lg.depth;
        w->nfree = w->depth;
    }
    rp->tg = js->tg;
    rp->files = engine_lookup(j->engine)->needs_files;
    if (j->read_iolog_chunked) {
        rp->e = malloc(WRP_CHUNK * sizeof(*rp->e));
        if (!rp->e) {
            snprintf(err, errlen, "out of memory");
            return setup_fail(rp, -ENOMEM);
        }
        o.keep = false;
        if ((rc = rlog_stream_open(rp->name, &o, &rp->slg, &rp->st, msg, sizeof(msg))) < 0) {
            snprintf(err, errlen, "job '%s': read_iolog: %s", j->name, msg);
            free(rp->e);
            rp->e = NULL;
            return setup_fail(rp, rc);
        }
    } else {
        rp->e = rp->lg.e;
        rp->n = rp->lg.n;
    }
    w->rp = rp;
    return 0;
}

void wreplay_free(struct worker *w)
{
    struct wreplay *rp = w->rp;
    if (!rp)
        return;
    if (rp->st) {
        rlog_stream_close(rp->st);
        free(rp->e);
    }
    rlog_free(&rp->lg);
    free(rp);
    w->rp = NULL;
}
