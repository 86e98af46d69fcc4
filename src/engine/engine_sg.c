/* engine_sg.c - SCSI commands through SG_IO (fio's sg engine) on a SCSI
 * generic device /dev/sgN or a SCSI disk /dev/sdX.
 *
 * One command at a time per worker, synchronously (the SG_IO ioctl, as
 * fio's sg engine does on a block device): parallelism comes from numjobs.
 * Reads are READ(10) or READ(16), writes per sg_write_mode WRITE, WRITE AND
 * VERIFY, WRITE SAME (one block sent), WRITE SAME(16) with NDOB (none) or
 * VERIFY with BYTCHK 00/01/11, the (16) form when the LBA or the count
 * does not fit the (10) form (passthru.h builds the CDBs). The block size
 * is the device's own, from READ CAPACITY(16) at set-up. Flushes are
 * SYNCHRONIZE CACHE(10); trims are refused at set-up (runner).
 *
 * A command the device ends with CHECK CONDITION (or the transport or
 * driver fails) completes with -EIO; a MISCOMPARE (a VERIFY whose data
 * differ) with -EILSEQ.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <scsi/sg.h>

#include "engine/engine.h"
#include "engine/passthru.h"

#define SG_TIMEOUT_MS 30000

struct sg_priv {
    const int *fds;
    uint32_t block_size[ENGINE_MAX_FILES];
    struct io_req *staged;
    enum sg_write_mode mode;
    bool readfua, writefua;
};

/* One command on fd; buf holds c->xfer_len bytes. Returns 0, -EIO,
 * -EILSEQ (miscompare) or the ioctl's -errno. */
static int sg_exec(int fd, const struct scsi_cmd *c, void *buf)
{
    uint8_t sense[32];
    struct sg_io_hdr h;
    memset(&h, 0, sizeof(h));
    memset(sense, 0, sizeof(sense));
    h.interface_id = 'S';
    h.cmdp = (unsigned char *)c->cdb;
    h.cmd_len = c->cdb_len;
    h.dxferp = buf;
    h.dxfer_len = c->xfer_len;
    h.dxfer_direction = !c->xfer_len ? SG_DXFER_NONE : c->to_dev ? SG_DXFER_TO_DEV : SG_DXFER_FROM_DEV;
    h.sbp = sense;
    h.mx_sb_len = sizeof(sense);
    h.timeout = SG_TIMEOUT_MS;
    int rc;
    do
        rc = ioctl(fd, SG_IO, &h);
    while (rc < 0 && errno == EINTR);
    if (rc < 0)
        return -errno;
    if (h.status || h.host_status || (h.driver_status & 0x0f)) {
        /* fixed (70h/71h) or descriptor (72h/73h) sense: the key */
        unsigned key = (sense[0] & 0x7e) == 0x72 ? sense[1] & 0x0f : sense[2] & 0x0f;
        return h.sb_len_wr && key == 0x0e ? -EILSEQ : -EIO;
    }
    return 0;
}

static int sg_init(struct engine *e, unsigned depth, const int *fds, unsigned nfds,
                   const struct iovec *bufs, unsigned nbufs, char *err, size_t errlen)
{
    (void)depth, (void)bufs, (void)nbufs;
    struct sg_priv *p = calloc(1, sizeof(*p));
    if (!p) {
        snprintf(err, errlen, "out of memory");
        return -ENOMEM;
    }
    p->fds = fds;
    if (e->sg) {
        p->mode = (enum sg_write_mode)e->sg->write_mode;
        p->readfua = e->sg->readfua;
        p->writefua = e->sg->writefua;
    }
    for (unsigned i = 0; i < nfds; i++) {
        int ver = 0;
        if (ioctl(fds[i], SG_GET_VERSION_NUM, &ver) < 0 || ver < 30000) {
            snprintf(err, errlen, "target %u does not take SCSI commands (SG_IO)", i);
            free(p);
            return -ENOTTY;
        }
        struct scsi_cmd c;
        uint8_t cap[32];
        uint64_t blocks;
        scsi_readcap16_build(&c);
        int rc = sg_exec(fds[i], &c, cap);
        if (rc < 0 || scsi_readcap16_parse(cap, sizeof(cap), &blocks, &p->block_size[i]) < 0) {
            snprintf(err, errlen, "target %u: READ CAPACITY(16) %s", i,
                     rc < 0 ? strerror(-rc) : "gave no block size");
            free(p);
            return rc < 0 ? rc : -EIO;
        }
    }
    e->priv = p;
    return 0;
}

static int sg_queue(struct engine *e, struct io_req *r)
{
    struct sg_priv *p = e->priv;
    if (p->staged)
        return -EAGAIN;
    p->staged = r;
    return 0;
}

static int sg_run(struct engine *e, unsigned min_done, uint64_t timeout_ns, struct io_req **done,
                  unsigned max)
{
    (void)min_done, (void)timeout_ns;
    struct sg_priv *p = e->priv;
    struct io_req *r = p->staged;
    if (!r || max == 0)
        return 0;
    p->staged = NULL;
    struct scsi_cmd c;
    int rc;
    switch (r->op) {
    case IO_OP_READ:
        rc = scsi_rw_build(&c, false, SG_WRITE, p->readfua, p->block_size[r->file], r->off, r->len);
        break;
    case IO_OP_WRITE:
        rc = scsi_rw_build(&c, true, p->mode, p->writefua, p->block_size[r->file], r->off, r->len);
        break;
    case IO_OP_FSYNC:
    case IO_OP_FDATASYNC:
        scsi_sync_build(&c);
        rc = 0;
        break;
    default: rc = -EOPNOTSUPP; break;
    }
    if (rc == 0)
        rc = sg_exec(p->fds[r->file], &c, r->buf);
    r->res = rc < 0 ? rc : r->op <= IO_OP_WRITE ? (int32_t)r->len : 0;
    done[0] = r;
    return 1;
}

static void sg_exit(struct engine *e)
{
    free(e->priv);
    e->priv = NULL;
}

const struct engine_ops engine_sg_ops = {
    .name = "sg",
    .needs_files = true,
    .max_depth = 1,
    .init = sg_init,
    .queue = sg_queue,
    .run = sg_run,
    .exit = sg_exit,
};
