/* engine_uring.c - io_uring engine (liburing).
 *
 * One ring per worker, created SINGLE_ISSUER + DEFER_TASKRUN so completions are
 * processed in the worker's own context (falls back to COOP_TASKRUN and plain
 * rings on older kernels). By default the target files and the worker's
 * buffers are registered when the kernel grants it, so each I/O is
 * READ_FIXED/WRITE_FIXED on a fixed file: no per-I/O fd lookup or page
 * pinning; the ring's own fd is registered too, so io_uring_enter skips its
 * fd lookup. Submission and waiting are one system call; completions are
 * reaped in batches.
 *
 * fio's io_uring options (struct engine_uring_opts) change that: hipri (IOPOLL,
 * refused up front on a device that cannot poll), fixedbufs and
 * registerfiles (given on: required; given off: not used), sqthread_poll
 * (+ _cpu), nonvectored=0 (READV/WRITEV of one iovec per slot), uncached
 * (RWF_DONTCACHE on buffered I/O), nowait (RWF_NOWAIT) and force_async
 * (IOSQE_ASYNC on every Nth request).
 *
 * With engine.flush_writes a write is linked (IOSQE_IO_LINK) to an
 * fdatasync of the same file and completes when that does: the device sees
 * what a blocking pwrite on an O_DSYNC block device makes it see (the write,
 * then a cache flush), and the latency runs to the end of the flush. The
 * write's own CQE carries PAIR_WRITE_TAG in its user data and only records the
 * write's result.
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include <liburing.h>

#include "base/sysfs_attr.h"
#include "engine/engine.h"
#include "engine/uring_wait.h"

#define PAIR_WRITE_TAG (1ull << 32)

#ifndef RWF_DONTCACHE
#define RWF_DONTCACHE 0x00000080 /* Linux 6.14: drop the page cache pages after the I/O */
#endif

struct uring_priv {
    struct io_uring ring;
    const int *fds;
    struct iovec *iov;      /* nonvectored=0: one iovec per slot, else NULL */
    bool fixed_files;
    bool fixed_bufs;
    bool defer_taskrun;
    bool sqpoll;
    int rw_flags;           /* RWF_* on every read and write */
    unsigned force_async;   /* IOSQE_ASYNC every this many requests; 0 = never */
    unsigned since_async;
    unsigned staged;
    unsigned iowq_bounded;  /* iowq_cap: the bounded io-wq limit to restore; 0 = not capped */
    struct engine_trims trims;
};

/* Is the block device dev request-based (blk-mq, with tags)? Its
 * queue/scheduler lists the choices with the current one in brackets; a
 * bio-based device (md, most dm) shows a bare "none" or no such attribute,
 * and io-wq may issue every one of its requests. */
static bool blk_mq_dev(dev_t dev)
{
    char dir[128], val[128];
    snprintf(dir, sizeof(dir), "/sys/dev/block/%u:%u/queue", major(dev), minor(dev));
    if (!sysfs_attr(dir, "scheduler", val, sizeof(val))) {
        snprintf(dir, sizeof(dir), "/sys/dev/block/%u:%u/../queue", major(dev), minor(dev));
        sysfs_attr(dir, "scheduler", val, sizeof(val)); /* a partition */
    }
    return strchr(val, '[') != NULL;
}

/* io-wq is the kernel's pool of threads for requests that cannot be issued
 * without blocking. On a block device with O_DIRECT that is a request that
 * found no free tag (more in flight than the queue's nr_requests, e.g. 16
 * workers x QD16 on one device): by default each such request wakes or
 * creates an io-wq thread that sleeps on the tag, and those threads' wake-ups
 * and switches cost more than the I/O itself. One thread per worker issues
 * them in order as tags come free, which is all the device can take anyway
 * (an async direct read or write does not wait for its completion in
 * io-wq), so the limit is one bounded io-wq worker when every target is a
 * request-based block device (blk-mq: the tags) opened O_DIRECT and nothing
 * asks for punting (force_async), for flushes (they block in io-wq for the
 * flush: the limit is lifted at the first one, see iowq_uncap) or for a
 * polling thread. Buffered I/O, files on a file system and bio-based
 * devices keep the default: there io-wq threads do block for the data or
 * issue every request. The requests, the in-flight count and every time
 * stamp stay what they were. */
static void iowq_cap(struct engine *e, struct uring_priv *p, const int *fds, unsigned nfds)
{
    if (!nfds || p->force_async || p->sqpoll || e->flush_writes)
        return;
    for (unsigned i = 0; i < nfds; i++) {
        struct stat st;
        int fl = fcntl(fds[i], F_GETFL);
        if (fl < 0 || !(fl & O_DIRECT) || fstat(fds[i], &st) < 0 || !S_ISBLK(st.st_mode) ||
            !blk_mq_dev(st.st_rdev))
            return;
    }
    unsigned v[2] = {1, 0}; /* bounded, unbounded (0: unchanged) */
    if (io_uring_register_iowq_max_workers(&p->ring, v) < 0)
        return;
    /* the previous limit, or the kernel's default when the pool had none */
    unsigned dflt = 4 * (unsigned)sysconf(_SC_NPROCESSORS_ONLN);
    if (dflt > p->ring.sq.ring_entries)
        dflt = p->ring.sq.ring_entries;
    p->iowq_bounded = v[0] ? v[0] : dflt ? dflt : 1;
}

/* A flush is queued: io-wq gets its default limit back. */
static void iowq_uncap(struct uring_priv *p)
{
    unsigned v[2] = {p->iowq_bounded, 0};
    (void)io_uring_register_iowq_max_workers(&p->ring, v);
    p->iowq_bounded = 0;
}

/* hipri: polled completions need O_DIRECT and a block queue that polls
 * (queue/io_poll = 1); elsewhere every I/O would fail with EOPNOTSUPP, as
 * fio's do. Returns 0, or -EOPNOTSUPP with the reason in err. */
static int poll_capable(const int *fds, unsigned nfds, char *err, size_t errlen)
{
    for (unsigned i = 0; i < nfds; i++) {
        struct stat st;
        if (fstat(fds[i], &st) < 0)
            continue;
        int fl = fcntl(fds[i], F_GETFL);
        if (fl >= 0 && !(fl & O_DIRECT)) {
            snprintf(err, errlen, "hipri needs direct=1 (polled completions are for O_DIRECT I/O)");
            return -EOPNOTSUPP;
        }
        dev_t dev = S_ISBLK(st.st_mode) ? st.st_rdev : st.st_dev;
        char dir[96], val[16], link[PATH_MAX];
        snprintf(dir, sizeof(dir), "/sys/dev/block/%u:%u", major(dev), minor(dev));
        ssize_t n = readlink(dir, link, sizeof(link) - 1);
        link[n > 0 ? n : 0] = '\0';
        const char *name = n > 0 ? basename(link) : "?";
        char qdir[128];
        snprintf(qdir, sizeof(qdir), "%s/queue", dir);
        if (!sysfs_attr(qdir, "io_poll", val, sizeof(val))) {
            snprintf(qdir, sizeof(qdir), "%s/../queue", dir); /* a partition */
            sysfs_attr(qdir, "io_poll", val, sizeof(val));
        }
        if (strcmp(val, "1") != 0) {
            if (n > 0)
                snprintf(err, errlen,
                         "hipri: %s (%u:%u) does not support polled I/O (queue/io_poll is %s); "
                         "its I/Os would fail with EOPNOTSUPP",
                         name, major(dev), minor(dev), val[0] ? val : "absent");
            else
                snprintf(err, errlen,
                         "hipri: target %u is not on a block device that supports polled I/O; "
                         "its I/Os would fail with EOPNOTSUPP", i);
            return -EOPNOTSUPP;
        }
    }
    return 0;
}

static int uring_fail(struct uring_priv *p, bool ring_up, int ret, char *err, size_t errlen,
                      const char *what)
{
    if (what)
        snprintf(err, errlen, "%s: %s", what, strerror(-ret));
    if (ring_up)
        io_uring_queue_exit(&p->ring);
    engine_trims_free(&p->trims);
    free(p->iov);
    free(p);
    return ret;
}

static int uring_init(struct engine *e, unsigned depth, const int *fds, unsigned nfds,
                      const struct iovec *bufs, unsigned nbufs, char *err, size_t errlen)
{
    static const struct engine_uring_opts defaults;
    const struct engine_uring_opts *o = e->uring ? e->uring : &defaults;
    struct uring_priv *p = calloc(1, sizeof(*p));
    if (!p) {
        snprintf(err, errlen, "out of memory");
        return -ENOMEM;
    }
    int ret;
    if (o->hipri == ENGINE_KNOB_ON && (ret = poll_capable(fds, nfds, err, errlen)) < 0)
        return uring_fail(p, false, ret, err, errlen, NULL);
    unsigned base = 0;
    if (o->hipri == ENGINE_KNOB_ON)
        base |= IORING_SETUP_IOPOLL;
    if (o->sqthread_poll) {
        base |= IORING_SETUP_SQPOLL;
        if (o->sqthread_poll_cpu_set)
            base |= IORING_SETUP_SQ_AFF;
    }
    /* DEFER_TASKRUN is for rings whose completions the issuer reaps itself;
     * an SQPOLL ring's kernel thread does that work */
    const unsigned flag_sets[] = {
        IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN,
        IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_COOP_TASKRUN,
        IORING_SETUP_COOP_TASKRUN,
        0,
    };
    ret = -EINVAL;
    for (unsigned i = o->sqthread_poll ? 1 : 0; i < sizeof(flag_sets) / sizeof(flag_sets[0]); i++) {
        struct io_uring_params prm;
        memset(&prm, 0, sizeof(prm));
        prm.flags = base | flag_sets[i];
        prm.sq_thread_cpu = o->sqthread_poll_cpu;
        ret = io_uring_queue_init_params(e->flush_writes ? 2 * depth : depth, &p->ring, &prm);
        if (ret == 0) {
            p->defer_taskrun = flag_sets[i] & IORING_SETUP_DEFER_TASKRUN;
            break;
        }
        if (ret != -EINVAL)
            break;
    }
    if (ret < 0)
        return uring_fail(p, false, ret, err, errlen,
                          o->sqthread_poll ? "io_uring setup (sqthread_poll) failed"
                          : o->hipri == ENGINE_KNOB_ON ? "io_uring setup (hipri) failed"
                                                    : "io_uring setup failed");
    p->sqpoll = o->sqthread_poll;
    /* one fd lookup less per io_uring_enter (kernel 5.18); optional */
    (void)io_uring_register_ring_fd(&p->ring);
    p->fds = fds;
    if (engine_trims_init(&p->trims, depth) < 0) {
        snprintf(err, errlen, "out of memory");
        io_uring_queue_exit(&p->ring);
        free(p);
        return -ENOMEM;
    }
    if (nfds && o->registerfiles != ENGINE_KNOB_OFF) {
        ret = io_uring_register_files(&p->ring, fds, nfds);
        if (ret == 0)
            p->fixed_files = true;
        else if (o->registerfiles == ENGINE_KNOB_ON)
            return uring_fail(p, true, ret, err, errlen, "registerfiles: io_uring_register_files failed");
    }
    /* Fixed buffers need locked memory; without enough RLIMIT_MEMLOCK the
     * default falls back to plain reads and writes, which are still correct;
     * fixedbufs=1 makes that an error, as in fio. */
    if (nbufs && o->fixedbufs != ENGINE_KNOB_OFF) {
        ret = io_uring_register_buffers(&p->ring, bufs, nbufs);
        if (ret == 0)
            p->fixed_bufs = true;
        else if (o->fixedbufs == ENGINE_KNOB_ON)
            return uring_fail(p, true, ret, err, errlen, "fixedbufs: io_uring_register_buffers failed");
    }
    if (o->nonvectored == ENGINE_KNOB_OFF && !p->fixed_bufs) {
        p->iov = calloc(depth, sizeof(*p->iov));
        if (!p->iov)
            return uring_fail(p, true, -ENOMEM, err, errlen, "iovecs");
    }
    if (o->nowait)
        p->rw_flags |= RWF_NOWAIT;
    if (o->uncached && nfds) {
        int fl = fcntl(fds[0], F_GETFL);
        if (fl >= 0 && !(fl & O_DIRECT))
            p->rw_flags |= RWF_DONTCACHE; /* as fio: buffered I/O only */
    }
    p->force_async = o->force_async;
    iowq_cap(e, p, fds, nfds);
    e->priv = p;
    return 0;
}

static int uring_queue(struct engine *e, struct io_req *r)
{
    struct uring_priv *p = e->priv;
    if (r->op == IO_OP_TRIM)
        return engine_trims_stage(&p->trims, r);
    bool linked = e->flush_writes && r->op == IO_OP_WRITE;
    /* io_uring_get_sqe checks the space itself; a pair needs two */
    if (linked && io_uring_sq_space_left(&p->ring) < 2u)
        return -EAGAIN;
    struct io_uring_sqe *sqe = io_uring_get_sqe(&p->ring);
    if (!sqe)
        return -EAGAIN;
    int fd = p->fixed_files ? r->file : p->fds[r->file];
    switch (r->op) {
    case IO_OP_READ:
        if (p->fixed_bufs)
            io_uring_prep_read_fixed(sqe, fd, r->buf, r->len, r->off, (int)r->slot);
        else if (p->iov) {
            p->iov[r->slot] = (struct iovec){.iov_base = r->buf, .iov_len = r->len};
            io_uring_prep_readv(sqe, fd, &p->iov[r->slot], 1, r->off);
        } else
            io_uring_prep_read(sqe, fd, r->buf, r->len, r->off);
        sqe->rw_flags = p->rw_flags;
        sqe->ioprio = r->ioprio; /* fio's cmdprio; 0 = the thread's priority */
        break;
    case IO_OP_WRITE:
        if (p->fixed_bufs)
            io_uring_prep_write_fixed(sqe, fd, r->buf, r->len, r->off, (int)r->slot);
        else if (p->iov) {
            p->iov[r->slot] = (struct iovec){.iov_base = r->buf, .iov_len = r->len};
            io_uring_prep_writev(sqe, fd, &p->iov[r->slot], 1, r->off);
        } else
            io_uring_prep_write(sqe, fd, r->buf, r->len, r->off);
        sqe->rw_flags = p->rw_flags;
        sqe->ioprio = r->ioprio;
        break;
    case IO_OP_FSYNC:
        if (p->iowq_bounded)
            iowq_uncap(p);
        io_uring_prep_fsync(sqe, fd, 0);
        break;
    case IO_OP_FDATASYNC:
        if (p->iowq_bounded)
            iowq_uncap(p);
        io_uring_prep_fsync(sqe, fd, IORING_FSYNC_DATASYNC);
        break;
    }
    if (p->fixed_files)
        sqe->flags |= IOSQE_FIXED_FILE;
    if (p->force_async && ++p->since_async == p->force_async) {
        p->since_async = 0;
        sqe->flags |= IOSQE_ASYNC;
    }
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
    int ret = uring_submit_wait(&p->ring, min_done, timeout_ns, p->defer_taskrun);
    if (ret < 0 && ret != -EAGAIN && ret != -EBUSY)
        return ret;
    p->staged = 0;

    /* walk the CQ ring in place (inline, no copy); at most max requests */
    struct io_uring_cqe *cqe;
    unsigned head, n = 0, ndone = 0;
    io_uring_for_each_cqe(&p->ring, head, cqe) {
        if (ndone == max)
            break;
        n++;
        uint64_t data = io_uring_cqe_get_data64(cqe);
        struct io_req *r = &e->slots[data & ~PAIR_WRITE_TAG];
        if (data & PAIR_WRITE_TAG) {
            /* the write of a write + flush pair: its result, not yet done */
            r->res = cqe->res;
            continue;
        }
        if (e->flush_writes && r->op == IO_OP_WRITE) {
            /* the flush: a failed or short write cancelled it and keeps
             * its own result; a failed flush fails the write */
            if (r->res == (int32_t)r->len && cqe->res < 0)
                r->res = cqe->res;
        } else {
            r->res = cqe->res;
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
    return engine_trims_run(&p->trims, p->fds, uring_run_io, e, min_done, timeout_ns, done, max);
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

/* a registered eventfd: the kernel signals it for every completion (and,
 * on a DEFER_TASKRUN ring, for every deferred completion, which run()'s
 * get_events then posts); polled rings (hipri) post completions only when
 * reaped, so they cannot */
static int uring_notify(struct engine *e, int efd)
{
    struct uring_priv *p = e->priv;
    if (p->ring.flags & IORING_SETUP_IOPOLL)
        return -EOPNOTSUPP;
    return io_uring_register_eventfd(&p->ring, efd);
}

static void uring_exit(struct engine *e)
{
    struct uring_priv *p = e->priv;
    if (!p)
        return;
    io_uring_queue_exit(&p->ring);
    engine_trims_free(&p->trims);
    free(p->iov);
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
    .notify = uring_notify,
    .exit = uring_exit,
};
