/* worker_replay.c - fio's read_iolog in a worker: the I/O source that
 * takes the place of the generators. The log is read at set-up (every
 * clone replays all of it, as each fio clone does), checked against the
 * target's size, and handed out one entry per request in log order; the
 * worker loop paces them by their due times (unless replay_no_stall).
 * A log of several files is a job of several targets in the log's order,
 * each worker touching all of them.
 * File actions are not replayed: the target is opened once for the whole
 * replay. Declared in runner_int.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/replay_log.h"
#include "runner/runner_int.h"

struct wreplay {
    struct rlog lg;
    size_t next;
};

int wreplay_setup(struct worker *w, const struct job_spec *j, const struct job_setup *js, char *err,
                  size_t errlen)
{
    if (!j->read_iolog[0])
        return 0;
    struct wreplay *rp = calloc(1, sizeof(*rp));
    if (!rp)
        return snprintf(err, errlen, "out of memory"), -ENOMEM;
    struct rlog_opts o = {.redirect = j->replay_redirect, .align = j->replay_align, .scale = j->replay_scale,
                          .time_scale = j->replay_time_scale, .keep = true};
    char msg[512];
    int rc = rlog_read(j->read_iolog, &o, &rp->lg, msg, sizeof(msg));
    if (rc) {
        snprintf(err, errlen, "job '%s': read_iolog: %s", j->name, msg);
        free(rp);
        return rc;
    }
    /* a file or device smaller than the log's I/O would fail them short */
    for (unsigned f = 0; f < rp->lg.nfiles && engine_lookup(j->engine)->needs_files; f++) {
        unsigned t = w->map.layout == LAYOUT_JBOD ? w->first_target : f;
        uint64_t size = t < js->ntargets ? js->tg[t].info.size : 0;
        if (size && rp->lg.extent[f] > size) {
            snprintf(err, errlen, "job '%s': read_iolog %s: I/O up to byte %llu, past the end of %s (%llu bytes)",
                     j->name, j->read_iolog, (unsigned long long)rp->lg.extent[f], j->targets[t],
                     (unsigned long long)size);
            rlog_free(&rp->lg);
            free(rp);
            return -EINVAL;
        }
    }
    if (rp->lg.nfiles > w->map.ntouch) {
        snprintf(err, errlen, "job '%s': read_iolog %s: %u files, the worker has %u", j->name, j->read_iolog,
                 rp->lg.nfiles, w->map.ntouch);
        rlog_free(&rp->lg);
        free(rp);
        return -EINVAL;
    }
    w->rp = rp;
    return 0;
}

bool wreplay_next(struct worker *w, struct io_req *r)
{
    struct wreplay *rp = w->rp;
    if (rp->next >= rp->lg.n)
        return false;
    const struct rlog_entry *e = &rp->lg.e[rp->next++];
    r->op = e->op; /* enum rlog_op is numbered as enum io_op */
    r->len = e->len;
    r->off = e->off;
    bool jbod = w->map.layout == LAYOUT_JBOD; /* one file; else the job's files in log order */
    r->target = jbod ? 0 : e->file;
    r->file = jbod ? (uint16_t)w->first_target : e->file;
    return true;
}

uint64_t wreplay_due(const struct wreplay *rp)
{
    /* past the last entry: due now, so the loop asks for it and ends */
    return rp->next < rp->lg.n ? rp->lg.e[rp->next].due_ns : 0;
}

void wreplay_free(struct worker *w)
{
    if (!w->rp)
        return;
    rlog_free(&w->rp->lg);
    free(w->rp);
    w->rp = NULL;
}
