/* engine_uring_cmd.c - NVMe passthrough through io_uring (fio's io_uring_cmd
 * engine with cmd_type=nvme) on an NVMe generic character device /dev/ngXnY.
 *
 * The ring has 128-byte SQEs and 32-byte CQEs (IORING_SETUP_SQE128 |
 * CQE32); each I/O is one IORING_OP_URING_CMD carrying a struct
 * nvme_uring_cmd (NVME_URING_CMD_IO, or NVME_URING_CMD_IO_VEC with one
 * iovec when nonvectored=0) with an NVMe Read (02h) or Write (01h) that
 * ssdbench builds (passthru.h): the namespace id from NVME_IOCTL_ID, the
 * block size from Identify Namespace (CNS 00h). The block layer is not in
 * the path: no merging, no scheduler, no page cache. Flushes are NVMe
 * Flush (00h) commands; trims are Dataset Management (09h) with one range
 * and Deallocate, the range in a 16-byte buffer of the request's slot
 * (fio 3.33's engine has no trims).
 *
 * fio's options: fixedbufs (IORING_URING_CMD_FIXED with the slot's
 * registered buffer), registerfiles (IOSQE_FIXED_FILE), sqthread_poll
 * (+ _cpu), nonvectored, hipri (IORING_SETUP_IOPOLL: polled completions); as on the io_uring engine, fixedbufs and
 * registerfiles are used when the kernel grants them unless given off, and
 * one given on that the kernel refuses fails the job.
 *
 * A completion's res is the NVMe status: 0 is success (the request's
 * length done), a positive status is -EIO, a negative one the errno.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <linux/nvme_ioctl.h>
#include <liburing.h>

#include "engine/engine.h"
#include "engine/passthru.h"
#include "engine/uring_wait.h"

struct ucmd_file {
    uint32_t nsid;
    unsigned lba_shift;
};

struct ucmd_priv {
    struct io_uring ring;
    const int *fds;
    struct ucmd_file files[ENGINE_MAX_FILES];
    struct iovec *iov;      /* vectored: one iovec per slot */
    int32_t *bad;           /* per slot: an error decided at staging (0 = none) */
    uint8_t (*ranges)[16];  /* per slot: a trim's Dataset Management range */
    bool fixed_files;
    bool fixed_bufs;
};

/* The namespace id and block size behind one descriptor; 0 or -errno with
 * the reason in err. */
static int ucmd_probe(int fd, unsigned i, struct ucmd_file *f, char *err, size_t errlen)
{
    int id = ioctl(fd, NVME_IOCTL_ID);
    if (id <= 0) {
        snprintf(err, errlen, "target %u is not an NVMe namespace (NVME_IOCTL_ID: %s)",
                 i, id < 0 ? strerror(errno) : "no namespace id");
        return id < 0 ? -errno : -ENOTTY;
    }
    uint8_t *idns = aligned_alloc(4096, 4096);
    if (!idns)
        return -ENOMEM;
    memset(idns, 0, 4096);
    struct nvme_admin_cmd c = {
        .opcode = 0x06, /* Identify */
        .nsid = (uint32_t)id,
        .addr = (uint64_t)(uintptr_t)idns,
        .data_len = 4096,
        .cdw10 = 0, /* CNS 00h: Identify Namespace */
    };
    int rc = ioctl(fd, NVME_IOCTL_ADMIN_CMD, &c);
    int shift = rc == 0 ? nvme_idns_lba_shift(idns, 4096) : -1;
    free(idns);
    if (shift < 0) {
        snprintf(err, errlen, "target %u: Identify Namespace %d %s", i, id,
                 rc < 0 ? strerror(errno) : rc > 0 ? "failed with an NVMe status" : "names no block size");
        return -EIO;
    }
    f->nsid = (uint32_t)id;
    f->lba_shift = (unsigned)shift;
    return 0;
}

static void ucmd_free(struct ucmd_priv *p, bool ring_up)
{
    if (ring_up)
        io_uring_queue_exit(&p->ring);
    free(p->iov);
    free(p->bad);
    free(p->ranges);
    free(p);
}

static int ucmd_init(struct engine *e, unsigned depth, const int *fds, unsigned nfds,
                     const struct iovec *bufs, unsigned nbufs, char *err, size_t errlen)
{
    static const struct engine_uring_opts defaults;
    const struct engine_uring_opts *o = e->uring ? e->uring : &defaults;
    struct ucmd_priv *p = calloc(1, sizeof(*p));
    if (!p || !(p->bad = calloc(depth, sizeof(*p->bad))) || !(p->ranges = calloc(depth, sizeof(*p->ranges)))) {
        if (p)
            free(p->bad);
        free(p);
        snprintf(err, errlen, "out of memory");
        return -ENOMEM;
    }
    p->fds = fds;
    int ret;
    for (unsigned i = 0; i < nfds; i++)
        if ((ret = ucmd_probe(fds[i], i, &p->files[i], err, errlen)) < 0) {
            ucmd_free(p, false);
            return ret;
        }
    struct io_uring_params prm;
    memset(&prm, 0, sizeof(prm));
    prm.flags = IORING_SETUP_SQE128 | IORING_SETUP_CQE32;
    /* hipri: the completions are polled (the driver's poll queues, where it
     * has them: nvme's poll_queues), as fio's engine does */
    if (o->hipri == ENGINE_KNOB_ON)
        prm.flags |= IORING_SETUP_IOPOLL;
    if (o->sqthread_poll) {
        prm.flags |= IORING_SETUP_SQPOLL;
        if (o->sqthread_poll_cpu_set)
            prm.flags |= IORING_SETUP_SQ_AFF;
        prm.sq_thread_cpu = o->sqthread_poll_cpu;
    }
    ret = io_uring_queue_init_params(depth, &p->ring, &prm);
    if (ret < 0) {
        snprintf(err, errlen, "ring set-up (SQE128|CQE32%s%s) failed: %s",
                 o->hipri == ENGINE_KNOB_ON ? "|IOPOLL" : "", o->sqthread_poll ? "|SQPOLL" : "", strerror(-ret));
        ucmd_free(p, false);
        return ret;
    }
    if (nfds && o->registerfiles != ENGINE_KNOB_OFF) {
        ret = io_uring_register_files(&p->ring, fds, nfds);
        if (ret == 0)
            p->fixed_files = true;
        else if (o->registerfiles == ENGINE_KNOB_ON) {
            snprintf(err, errlen, "registerfiles: io_uring_register_files failed: %s", strerror(-ret));
            ucmd_free(p, true);
            return ret;
        }
    }
    /* registered buffers are for the non-vectored command only */
    bool vectored = o->nonvectored == ENGINE_KNOB_OFF;
    if (nbufs && !vectored && o->fixedbufs != ENGINE_KNOB_OFF) {
        ret = io_uring_register_buffers(&p->ring, bufs, nbufs);
        if (ret == 0)
            p->fixed_bufs = true;
        else if (o->fixedbufs == ENGINE_KNOB_ON) {
            snprintf(err, errlen, "fixedbufs: io_uring_register_buffers failed: %s", strerror(-ret));
            ucmd_free(p, true);
            return ret;
        }
    } else if (vectored && o->fixedbufs == ENGINE_KNOB_ON) {
        snprintf(err, errlen, "fixedbufs needs nonvectored=1 (a registered buffer is one range)");
        ucmd_free(p, true);
        return -EINVAL;
    }
    if (vectored && !(p->iov = calloc(depth, sizeof(*p->iov)))) {
        snprintf(err, errlen, "out of memory");
        ucmd_free(p, true);
        return -ENOMEM;
    }
    e->priv = p;
    return 0;
}

static int ucmd_queue(struct engine *e, struct io_req *r)
{
    struct ucmd_priv *p = e->priv;
    struct io_uring_sqe *sqe = io_uring_get_sqe(&p->ring);
    if (!sqe)
        return -EAGAIN;
    const struct ucmd_file *f = &p->files[r->file];
    int fd = p->fixed_files ? r->file : p->fds[r->file];
    struct nvme_rw_dwords d;
    int rc = 0;
    switch (r->op) {
    case IO_OP_READ: rc = nvme_rw_build(&d, NVME_OPC_READ, f->nsid, f->lba_shift, r->off, r->len); break;
    case IO_OP_WRITE: rc = nvme_rw_build(&d, NVME_OPC_WRITE, f->nsid, f->lba_shift, r->off, r->len); break;
    case IO_OP_TRIM: rc = nvme_dsm_build(&d, p->ranges[r->slot], f->nsid, f->lba_shift, r->off, r->len); break;
    case IO_OP_FSYNC:
    case IO_OP_FDATASYNC:
        memset(&d, 0, sizeof(d));
        d.opcode = NVME_OPC_FLUSH;
        d.nsid = f->nsid;
        break;
    default: rc = -EOPNOTSUPP; break;
    }
    p->bad[r->slot] = rc;
    if (rc < 0) {
        /* nothing goes to the device; the request completes with the error */
        io_uring_prep_nop(sqe);
        io_uring_sqe_set_data64(sqe, r->slot);
        return 0;
    }
    memset(sqe, 0, 2 * sizeof(*sqe)); /* the command area runs into the second half */
    sqe->opcode = IORING_OP_URING_CMD;
    sqe->fd = fd;
    if (p->fixed_files)
        sqe->flags |= IOSQE_FIXED_FILE;
    struct nvme_uring_cmd *cmd = (struct nvme_uring_cmd *)sqe->cmd;
    cmd->opcode = d.opcode;
    cmd->nsid = d.nsid;
    cmd->cdw10 = d.cdw10;
    cmd->cdw11 = d.cdw11;
    cmd->cdw12 = d.cdw12;
    bool data = r->op == IO_OP_READ || r->op == IO_OP_WRITE;
    if (data && p->iov) {
        p->iov[r->slot] = (struct iovec){.iov_base = r->buf, .iov_len = r->len};
        sqe->cmd_op = NVME_URING_CMD_IO_VEC;
        cmd->addr = (uint64_t)(uintptr_t)&p->iov[r->slot];
        cmd->data_len = 1;
    } else {
        sqe->cmd_op = NVME_URING_CMD_IO;
        if (r->op == IO_OP_TRIM) {
            cmd->addr = (uint64_t)(uintptr_t)p->ranges[r->slot];
            cmd->data_len = d.data_len;
        } else if (data) {
            cmd->addr = (uint64_t)(uintptr_t)r->buf;
            cmd->data_len = d.data_len;
            if (p->fixed_bufs) {
                sqe->uring_cmd_flags = IORING_URING_CMD_FIXED;
                sqe->buf_index = (uint16_t)r->slot;
            }
        }
    }
    io_uring_sqe_set_data64(sqe, r->slot);
    return 0;
}

static int ucmd_run(struct engine *e, unsigned min_done, uint64_t timeout_ns,
                    struct io_req **done, unsigned max)
{
    struct ucmd_priv *p = e->priv;
    int ret = uring_submit_wait(&p->ring, min_done, timeout_ns, false);
    if (ret < 0 && ret != -EAGAIN && ret != -EBUSY)
        return ret;
    struct io_uring_cqe *cqe;
    unsigned head, n = 0;
    io_uring_for_each_cqe(&p->ring, head, cqe) {
        if (n == max)
            break;
        struct io_req *r = &e->slots[io_uring_cqe_get_data64(cqe)];
        if (p->bad[r->slot])
            r->res = p->bad[r->slot];
        else if (cqe->res < 0)
            r->res = cqe->res;
        else if (cqe->res > 0)
            r->res = -EIO; /* an NVMe status */
        else
            r->res = r->op <= IO_OP_TRIM ? (int32_t)r->len : 0;
        done[n++] = r;
    }
    io_uring_cq_advance(&p->ring, n);
    return (int)n;
}

static int ucmd_submit(struct engine *e)
{
    struct ucmd_priv *p = e->priv;
    int ret = io_uring_submit(&p->ring);
    return ret < 0 && ret != -EAGAIN && ret != -EBUSY && ret != -EINTR ? ret : 0;
}

/* a registered eventfd: the kernel signals it for every completion (and,
 * on a DEFER_TASKRUN ring, for every deferred completion, which run()'s
 * get_events then posts); polled rings (hipri) post completions only when
 * reaped, so they cannot */
static int ucmd_notify(struct engine *e, int efd)
{
    struct ucmd_priv *p = e->priv;
    if (p->ring.flags & IORING_SETUP_IOPOLL)
        return -EOPNOTSUPP;
    return io_uring_register_eventfd(&p->ring, efd);
}

static void ucmd_exit(struct engine *e)
{
    struct ucmd_priv *p = e->priv;
    if (!p)
        return;
    ucmd_free(p, true);
    e->priv = NULL;
}

const struct engine_ops engine_uring_cmd_ops = {
    .name = "io_uring_cmd",
    .needs_files = true,
    .init = ucmd_init,
    .queue = ucmd_queue,
    .run = ucmd_run,
    .submit = ucmd_submit,
    .notify = ucmd_notify,
    .exit = ucmd_exit,
};
