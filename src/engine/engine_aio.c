/* engine_aio.c - Linux native AIO engine (libaio), for O_DIRECT comparisons with
 * fio's libaio numbers and for kernels or sandboxes without io_uring. Requests
 * are staged in an iocb array and submitted with one io_submit per batch.
 *
 * With engine.flush_writes a completed write is not handed back: its iocb is
 * reused for an fdsync of the same file, submitted at once, and the write
 * completes when that does (a blocking O_DSYNC pwrite on a block device:
 * the write, then a cache flush). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <libaio.h>

#include "engine/engine.h"

/* the kernel's IOCB_FLAG_IOPRIO (linux/aio_abi.h, which clashes with libaio.h) */
#define AIO_IOCB_IOPRIO (1u << 1)

struct aio_priv {
    io_context_t ctx;
    const int *fds;
    struct iocb *iocbs;      /* one per slot */
    struct iocb **staged;    /* pointers waiting for io_submit */
    struct io_event *events;
    unsigned nstaged;
    unsigned depth;
    bool *flushing;          /* per slot: the write is done, its fdsync is in flight */
    int resfd;               /* notify()'s eventfd (IOCB_FLAG_RESFD), or -1 */
    struct engine_trims trims;
};

static int aio_init(struct engine *e, unsigned depth, const int *fds, unsigned nfds,
                    const struct iovec *bufs, unsigned nbufs, char *err, size_t errlen)
{
    struct aio_priv *p = calloc(1, sizeof(*p));
    if (!p) {
        snprintf(err, errlen, "out of memory");
        return -ENOMEM;
    }
    p->iocbs = calloc(depth, sizeof(*p->iocbs));
    p->staged = calloc(depth, sizeof(*p->staged));
    p->events = calloc(depth, sizeof(*p->events));
    p->flushing = calloc(depth, sizeof(*p->flushing));
    if (!p->iocbs || !p->staged || !p->events || !p->flushing || engine_trims_init(&p->trims, depth)) {
        snprintf(err, errlen, "out of memory");
        free(p->iocbs); free(p->staged); free(p->events); free(p->flushing);
        engine_trims_free(&p->trims); free(p);
        return -ENOMEM;
    }
    int ret = io_setup((int)depth, &p->ctx);
    if (ret < 0) {
        snprintf(err, errlen, "io_setup(%u) failed: %s", depth, strerror(-ret));
        free(p->iocbs); free(p->staged); free(p->events); free(p->flushing);
        engine_trims_free(&p->trims); free(p);
        return ret;
    }
    p->fds = fds;
    p->depth = depth;
    p->resfd = -1;
    e->priv = p;
    return 0;
}

static int aio_queue(struct engine *e, struct io_req *r)
{
    struct aio_priv *p = e->priv;
    if (r->op == IO_OP_TRIM)
        return engine_trims_stage(&p->trims, r);
    if (p->nstaged >= p->depth)
        return -EAGAIN;
    struct iocb *cb = &p->iocbs[r->slot];
    int fd = p->fds[r->file];
    switch (r->op) {
    case IO_OP_READ: io_prep_pread(cb, fd, r->buf, r->len, (long long)r->off); break;
    case IO_OP_WRITE: io_prep_pwrite(cb, fd, r->buf, r->len, (long long)r->off); break;
    case IO_OP_FSYNC: io_prep_fsync(cb, fd); break;
    case IO_OP_FDATASYNC: io_prep_fdsync(cb, fd); break;
    }
    cb->data = r;
    if (__builtin_expect(r->ioprio != 0, 0) && r->op <= IO_OP_WRITE) {
        /* fio's cmdprio: this I/O's priority (the io_prep_* calls cleared both) */
        cb->aio_reqprio = (short)r->ioprio;
        cb->u.c.flags |= AIO_IOCB_IOPRIO;
    }
    if (p->resfd >= 0)
        io_set_eventfd(cb, p->resfd);
    p->staged[p->nstaged++] = cb;
    return 0;
}

static int aio_run_io(struct engine *e, unsigned min_done, uint64_t timeout_ns,
                      struct io_req **done, unsigned max)
{
    struct aio_priv *p = e->priv;
    unsigned off = 0;
    while (off < p->nstaged) {
        int ret = io_submit(p->ctx, (long)(p->nstaged - off), p->staged + off);
        if (ret == -EAGAIN || ret == -EINTR)
            continue;
        if (ret < 0) {
            /* A request the kernel refuses at submission (e.g. fsync on a
             * device without support) completes with its error. */
            struct io_req *r = p->staged[off]->data;
            r->res = ret;
            done[0] = r;
            memmove(p->staged + off, p->staged + off + 1,
                    (p->nstaged - off - 1) * sizeof(*p->staged));
            p->nstaged--;
            return 1;
        }
        off += (unsigned)ret;
    }
    p->nstaged = 0;
    struct timespec ts, *tsp = NULL;
    if (min_done == 0) {
        ts.tv_sec = 0; ts.tv_nsec = 0; tsp = &ts;
    } else if (timeout_ns) {
        ts.tv_sec = (time_t)(timeout_ns / 1000000000ull);
        ts.tv_nsec = (long)(timeout_ns % 1000000000ull);
        tsp = &ts;
    }
    if (max > p->depth)
        max = p->depth;
    int n = io_getevents(p->ctx, (long)min_done, (long)max, p->events, tsp);
    if (n == -EINTR)
        n = 0;
    if (n < 0)
        return n;
    int ndone = 0;
    for (int i = 0; i < n; i++) {
        struct io_req *r = p->events[i].data;
        long res = (long)p->events[i].res;
        if (e->flush_writes && r->op == IO_OP_WRITE) {
            if (!p->flushing[r->slot]) {
                r->res = (int32_t)res;
                if (res == (long)r->len) {
                    struct iocb *cb = &p->iocbs[r->slot];
                    io_prep_fdsync(cb, p->fds[r->file]);
                    cb->data = r;
                    if (p->resfd >= 0)
                        io_set_eventfd(cb, p->resfd);
                    int sr;
                    do
                        sr = io_submit(p->ctx, 1, &cb);
                    while (sr == -EAGAIN || sr == -EINTR);
                    if (sr == 1) {
                        p->flushing[r->slot] = true;
                        continue;
                    }
                    r->res = sr < 0 ? sr : -EIO;
                }
            } else {
                p->flushing[r->slot] = false;
                if (res < 0)
                    r->res = (int32_t)res;
            }
            done[ndone++] = r;
            continue;
        }
        r->res = (int32_t)res;
        done[ndone++] = r;
    }
    return ndone;
}

/* Staged trims first (carried out here, see engine.h), then the rest. */
static int aio_run(struct engine *e, unsigned min_done, uint64_t timeout_ns,
                   struct io_req **done, unsigned max)
{
    struct aio_priv *p = e->priv;
    return engine_trims_run(&p->trims, p->fds, aio_run_io, e, min_done, timeout_ns, done, max);
}

/* Submits what is staged (trims carried out first); stops at a request
 * the kernel refuses, which stays staged (first) so that run() completes
 * it with its error. */
static int aio_submit(struct engine *e)
{
    struct aio_priv *p = e->priv;
    engine_trims_do(&p->trims, p->fds);
    unsigned off = 0;
    while (off < p->nstaged) {
        int ret = io_submit(p->ctx, (long)(p->nstaged - off), p->staged + off);
        if (ret == -EAGAIN || ret == -EINTR)
            continue;
        if (ret < 0)
            break;
        off += (unsigned)ret;
    }
    memmove(p->staged, p->staged + off, (p->nstaged - off) * sizeof(*p->staged));
    p->nstaged -= off;
    return 0;
}

/* every iocb from now on signals efd when its event is posted */
static int aio_notify(struct engine *e, int efd)
{
    struct aio_priv *p = e->priv;
    p->resfd = efd;
    return 0;
}

static void aio_exit(struct engine *e)
{
    struct aio_priv *p = e->priv;
    if (!p)
        return;
    io_destroy(p->ctx);
    free(p->iocbs);
    free(p->staged);
    free(p->events);
    free(p->flushing);
    engine_trims_free(&p->trims);
    free(p);
    e->priv = NULL;
}

const struct engine_ops engine_aio_ops = {
    .name = "libaio",
    .needs_files = true,
    .init = aio_init,
    .queue = aio_queue,
    .run = aio_run,
    .submit = aio_submit,
    .notify = aio_notify,
    .exit = aio_exit,
};
