/* engine_uring.c - io_uring engine (liburing).
 *
 * One ring per worker, created SINGLE_ISSUER + DEFER_TASKRUN so completions are
 * processed in the worker's own context (falls back to plain rings on older
 * kernels). Target files and the worker's buffers are registered once, so each
 * I/O is READ_FIXED/WRITE_FIXED on a fixed file: no per-I/O fd lookup or page
 * pinning. Submission and waiting are one system call; completions are reaped
 * in batches.
 *
 * With engine.flush_writes a write is linked (IOSQE_IO_LINK) to an
 * fdatasync of the same file and completes when that does: the device sees
 * what a blocking pwrite on an O_DSYNC block device makes it see (the write,
 * then a cache flush), and the latency runs to the end of the flush. The
 * write's own CQE carries PAIR_WRITE_TAG in its user data and only records the
 * write's result.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <liburing.h>

#include "engine/engine.h"

#define PAIR_WRITE_TAG (1ull << 32)

struct uring_priv {
    struct io_uring ring;
    const int *fds;
    bool fixed_files;
    bool fixed_bufs;
    bool defer_taskrun;
    unsigned staged;
    struct engine_trims trims;
};

static int uring_init(struct engine *e, unsigned depth, const int *fds, unsigned nfds,
                      const struct iovec *bufs, unsigned nbufs, char *err, size_t errlen)
{
    struct uring_priv *p = calloc(1, sizeof(*p));
    if (!p) {
        snprintf(err, errlen, "out of memory");
        return -ENOMEM;
    }
    const unsigned flag_sets[] = {
        IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN,
        IORING_SETUP_SINGLE_ISSUER,
        0,
    };
    int ret = -EINVAL;
    for (unsigned i = 0; i < sizeof(flag_sets) / sizeof(flag_sets[0]); i++) {
        struct io_uring_params prm;
        memset(&prm, 0, sizeof(prm));
        prm.flags = flag_sets[i];
        ret = io_uring_queue_init_params(e->flush_writes ? 2 * depth : depth, &p->ring, &prm);
        if (ret == 0) {
            p->defer_taskrun = flag_sets[i] & IORING_SETUP_DEFER_TASKRUN;
            break;
        }
    }
    if (ret < 0) {
        snprintf(err, errlen, "io_uring setup failed: %s", strerror(-ret));
        free(p);
        return ret;
    }
    p->fds = fds;
    if (engine_trims_init(&p->trims, depth) < 0) {
        snprintf(err, errlen, "out of memory");
        io_uring_queue_exit(&p->ring);
        free(p);
        return -ENOMEM;
    }
    if (nfds && io_uring_register_files(&p->ring, fds, nfds) == 0)
        p->fixed_files = true;
    /* Fixed buffers need locked memory; without enough RLIMIT_MEMLOCK we fall
     * back to plain reads and writes, which are still correct. */
    if (nbufs && io_uring_register_buffers(&p->ring, bufs, nbufs) == 0)
        p->fixed_bufs = true;
    e->priv = p;
    return 0;
}

static int uring_queue(struct engine *e, struct io_req *r)
{
    struct uring_priv *p = e->priv;
    if (r->op == IO_OP_TRIM)
        return engine_trims_stage(&p->trims, r);
    bool linked = e->flush_writes && r->op == IO_OP_WRITE;
    if (io_uring_sq_space_left(&p->ring) < (linked ? 2u : 1u))
        return -EAGAIN;
    struct io_uring_sqe *sqe = io_uring_get_sqe(&p->ring);
    int fd = p->fixed_files ? r->file : p->fds[r->file];
    switch (r->op) {
    case IO_OP_READ:
        if (p->fixed_bufs)
            io_uring_prep_read_fixed(sqe, fd, r->buf, r->len, r->off, (int)r->slot);
        else
            io_uring_prep_read(sqe, fd, r->buf, r->len, r->off);
        break;
    case IO_OP_WRITE:
        if (p->fixed_bufs)
            io_uring_prep_write_fixed(sqe, fd, r->buf, r->len, r->off, (int)r->slot);
        else
            io_uring_prep_write(sqe, fd, r->buf, r->len, r->off);
        break;
    case IO_OP_FSYNC:
        io_uring_prep_fsync(sqe, fd, 0);
        break;
    case IO_OP_FDATASYNC:
        io_uring_prep_fsync(sqe, fd, IORING_FSYNC_DATASYNC);
        break;
    }
    if (p->fixed_files)
        sqe->flags |= IOSQE_FIXED_FILE;
    io_uring_sqe_set_data64(sqe, r->slot);
    if (linked) {
        sqe->flags |= IOSQE_IO_LINK;
        io_uring_sqe_set_data64(sqe, r->slot | PAIR_WRITE_TAG);
        sqe = io_uring_get_sqe(&p->ring);
        io_uring_prep_fsync(sqe, fd, IORING_FSYNC_DATASYNC);
        if (p->fixed_files)
            sqe->flags |= IOSQE_FIXED_FILE;
        io_uring_sqe_set_data64(sqe, r->slot);
    }
    p->staged++;
    return 0;
}

static int uring_run_io(struct engine *e, unsigned min_done, uint64_t timeout_ns,
                        struct io_req **done, unsigned max)
{
    struct uring_priv *p = e->priv;
    int ret;
    if (min_done == 0) {
        ret = p->defer_taskrun ? io_uring_submit_and_get_events(&p->ring)
                               : io_uring_submit(&p->ring);
    } else if (timeout_ns) {
        struct __kernel_timespec ts = {
            .tv_sec = (long long)(timeout_ns / 1000000000ull),
            .tv_nsec = (long long)(timeout_ns % 1000000000ull),
        };
        struct io_uring_cqe *cqe;
        ret = io_uring_submit_and_wait_timeout(&p->ring, &cqe, min_done, &ts, NULL);
        if (ret == -ETIME || ret == -EINTR)
            ret = 0;
    } else {
        ret = io_uring_submit_and_wait(&p->ring, min_done);
        if (ret == -EINTR)
            ret = 0;
    }
    if (ret < 0 && ret != -EAGAIN && ret != -EBUSY)
        return ret;
    p->staged = 0;

    struct io_uring_cqe *cqes[256];
    unsigned want = max < 256 ? max : 256;
    unsigned n = io_uring_peek_batch_cqe(&p->ring, cqes, want), ndone = 0;
    for (unsigned i = 0; i < n; i++) {
        uint64_t data = io_uring_cqe_get_data64(cqes[i]);
        struct io_req *r = &e->slots[data & ~PAIR_WRITE_TAG];
        if (data & PAIR_WRITE_TAG) {
            /* the write of a write + flush pair: its result, not yet done */
            r->res = cqes[i]->res;
            continue;
        }
        if (e->flush_writes && r->op == IO_OP_WRITE) {
            /* the flush: a failed or short write cancelled it and keeps
             * its own result; a failed flush fails the write */
            if (r->res == (int32_t)r->len && cqes[i]->res < 0)
                r->res = cqes[i]->res;
        } else {
            r->res = cqes[i]->res;
        }
        done[ndone++] = r;
    }
    io_uring_cq_advance(&p->ring, n);
    return (int)ndone;
}

/* Staged trims first (carried out here, see engine.h), then the rest. */
static int uring_run(struct engine *e, unsigned min_done, uint64_t timeout_ns,
                     struct io_req **done, unsigned max)
{
    struct uring_priv *p = e->priv;
    engine_trims_do(&p->trims, p->fds);
    unsigned nt = engine_trims_take(&p->trims, done, max);
    if (nt == 0)
        return uring_run_io(e, min_done, timeout_ns, done, max);
    int n = uring_run_io(e, 0, 0, done + nt, max - nt);
    return n < 0 ? n : n + (int)nt;
}

static int uring_submit(struct engine *e)
{
    struct uring_priv *p = e->priv;
    engine_trims_do(&p->trims, p->fds);
    int ret = io_uring_submit(&p->ring);
    if (ret < 0 && ret != -EAGAIN && ret != -EBUSY && ret != -EINTR)
        return ret;
    p->staged = 0;
    return 0;
}

static void uring_exit(struct engine *e)
{
    struct uring_priv *p = e->priv;
    if (!p)
        return;
    io_uring_queue_exit(&p->ring);
    engine_trims_free(&p->trims);
    free(p);
    e->priv = NULL;
}

const struct engine_ops engine_uring_ops = {
    .name = "io_uring",
    .needs_files = true,
    .init = uring_init,
    .queue = uring_queue,
    .run = uring_run,
    .submit = uring_submit,
    .exit = uring_exit,
};
