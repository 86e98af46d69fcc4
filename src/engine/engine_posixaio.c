/* engine_posixaio.c - POSIX asynchronous I/O (aio_read, aio_write, aio_fsync),
 * fio's posixaio engine: glibc carries the requests out on its own helper
 * threads. Requests are staged per slot and submitted one call each by the
 * next run() or submit(); completions are found with aio_error and waited
 * for with aio_suspend. Trims are carried out synchronously (engine.h). */
#include <aio.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine/engine.h"

struct paio_priv {
    const int *fds;
    struct aiocb *cbs;          /* one per slot */
    const struct aiocb **list;  /* [depth]: in flight, for aio_suspend */
    struct io_req **staged;     /* waiting for their submitting call */
    struct io_req **flight;     /* submitted, not yet reaped */
    unsigned nstaged, nflight, depth;
    struct engine_trims trims;
};

static void paio_free(struct paio_priv *p)
{
    free(p->cbs);
    free(p->list);
    free(p->staged);
    free(p->flight);
    engine_trims_free(&p->trims);
    free(p);
}

static int paio_init(struct engine *e, unsigned depth, const int *fds, unsigned nfds,
                     const struct iovec *bufs, unsigned nbufs, char *err, size_t errlen)
{
    struct paio_priv *p = calloc(1, sizeof(*p));
    if (!p) {
        snprintf(err, errlen, "out of memory");
        return -ENOMEM;
    }
    p->cbs = calloc(depth, sizeof(*p->cbs));
    p->list = calloc(depth, sizeof(*p->list));
    p->staged = calloc(depth, sizeof(*p->staged));
    p->flight = calloc(depth, sizeof(*p->flight));
    if (!p->cbs || !p->list || !p->staged || !p->flight || engine_trims_init(&p->trims, depth)) {
        paio_free(p);
        snprintf(err, errlen, "out of memory");
        return -ENOMEM;
    }
    p->fds = fds;
    p->depth = depth;
    e->priv = p;
    return 0;
}

static int paio_queue(struct engine *e, struct io_req *r)
{
    struct paio_priv *p = e->priv;
    if (r->op == IO_OP_TRIM)
        return engine_trims_stage(&p->trims, r);
    if (p->nstaged + p->nflight >= p->depth)
        return -EAGAIN;
    struct aiocb *cb = &p->cbs[r->slot];
    memset(cb, 0, sizeof(*cb));
    cb->aio_fildes = p->fds[r->file];
    cb->aio_buf = r->buf;
    cb->aio_nbytes = r->len;
    cb->aio_offset = (off_t)r->off;
    cb->aio_sigevent.sigev_notify = SIGEV_NONE;
    p->staged[p->nstaged++] = r;
    return 0;
}

/* Submits every staged request; one the library refuses completes at once
 * with its error (res set, kept for the reaping as done). */
static void paio_submit_all(struct paio_priv *p, struct io_req **failed, unsigned *nfailed)
{
    for (unsigned i = 0; i < p->nstaged; i++) {
        struct io_req *r = p->staged[i];
        struct aiocb *cb = &p->cbs[r->slot];
        int ret;
        switch (r->op) {
        case IO_OP_READ: ret = aio_read(cb); break;
        case IO_OP_WRITE: ret = aio_write(cb); break;
        case IO_OP_FSYNC: ret = aio_fsync(O_SYNC, cb); break;
        default: ret = aio_fsync(O_DSYNC, cb); break;
        }
        if (ret < 0) {
            r->res = -errno;
            failed[(*nfailed)++] = r;
        } else {
            p->flight[p->nflight++] = r;
        }
    }
    p->nstaged = 0;
}

static int paio_run_io(struct engine *e, unsigned min_done, uint64_t timeout_ns,
                       struct io_req **done, unsigned max)
{
    struct paio_priv *p = e->priv;
    unsigned ndone = 0;
    paio_submit_all(p, done, &ndone);
    if (max > p->depth)
        max = p->depth;
    struct timespec deadline;
    clock_gettime(CLOCK_MONOTONIC, &deadline);
    uint64_t dl = (uint64_t)deadline.tv_sec * 1000000000ull + (uint64_t)deadline.tv_nsec + timeout_ns;
    for (;;) {
        for (unsigned i = 0; i < p->nflight && ndone < max;) {
            struct io_req *r = p->flight[i];
            struct aiocb *cb = &p->cbs[r->slot];
            int st = aio_error(cb);
            if (st == EINPROGRESS) {
                i++;
                continue;
            }
            ssize_t res = aio_return(cb);
            r->res = st ? -st : (r->op <= IO_OP_TRIM ? (int32_t)res : 0);
            done[ndone++] = r;
            p->flight[i] = p->flight[--p->nflight];
        }
        if (ndone >= min_done || ndone >= max || p->nflight == 0)
            return (int)ndone;
        struct timespec now, ts;
        clock_gettime(CLOCK_MONOTONIC, &now);
        uint64_t t = (uint64_t)now.tv_sec * 1000000000ull + (uint64_t)now.tv_nsec;
        if (timeout_ns && t >= dl)
            return (int)ndone;
        for (unsigned i = 0; i < p->nflight; i++)
            p->list[i] = &p->cbs[p->flight[i]->slot];
        if (timeout_ns) {
            ts.tv_sec = (time_t)((dl - t) / 1000000000ull);
            ts.tv_nsec = (long)((dl - t) % 1000000000ull);
        }
        if (aio_suspend(p->list, (int)p->nflight, timeout_ns ? &ts : NULL) < 0 && errno != EAGAIN &&
            errno != EINTR)
            return -errno;
    }
}

/* Staged trims first (carried out here, see engine.h), then the rest. */
static int paio_run(struct engine *e, unsigned min_done, uint64_t timeout_ns, struct io_req **done,
                    unsigned max)
{
    struct paio_priv *p = e->priv;
    return engine_trims_run(&p->trims, p->fds, paio_run_io, e, min_done, timeout_ns, done, max);
}

/* Submits what is staged, without waiting; a refused request stays staged
 * so that run() completes it with its error. */
static int paio_submit(struct engine *e)
{
    struct paio_priv *p = e->priv;
    engine_trims_do(&p->trims, p->fds);
    unsigned keep = 0;
    for (unsigned i = 0; i < p->nstaged; i++) {
        struct io_req *r = p->staged[i];
        struct aiocb *cb = &p->cbs[r->slot];
        int ret = r->op == IO_OP_READ    ? aio_read(cb)
                  : r->op == IO_OP_WRITE ? aio_write(cb)
                                         : aio_fsync(r->op == IO_OP_FSYNC ? O_SYNC : O_DSYNC, cb);
        if (ret < 0)
            p->staged[keep++] = r;
        else
            p->flight[p->nflight++] = r;
    }
    p->nstaged = keep;
    return 0;
}

static void paio_exit(struct engine *e)
{
    struct paio_priv *p = e->priv;
    if (!p)
        return;
    /* the run waits for every I/O before the engine ends; cancel any left */
    for (unsigned i = 0; i < p->nflight; i++) {
        struct aiocb *cb = &p->cbs[p->flight[i]->slot];
        if (aio_cancel(cb->aio_fildes, cb) == AIO_NOTCANCELED) {
            const struct aiocb *one[1] = {cb};
            while (aio_error(cb) == EINPROGRESS)
                aio_suspend(one, 1, NULL);
        }
        aio_return(cb);
    }
    paio_free(p);
    e->priv = NULL;
}

const struct engine_ops engine_posixaio_ops = {
    .name = "posixaio",
    .needs_files = true,
    .init = paio_init,
    .queue = paio_queue,
    .run = paio_run,
    .submit = paio_submit,
    .exit = paio_exit,
};
