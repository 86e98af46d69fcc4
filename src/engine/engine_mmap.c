/* engine_mmap.c - I/O through shared file mappings, one request at a time per
 * worker: sysbench fileio's --file-io-mode=mmap.
 *
 * Every file is mapped MAP_SHARED over its whole size when the worker starts
 * (writable only when the runner opened it for writing); a read is a memcpy
 * out of the mapping, a write a memcpy into it, and a flush is
 * msync(MS_SYNC | MS_INVALIDATE) of the whole mapping, as sysbench does. So
 * the recorded latency of a read is a page-cache copy or a page fault, and
 * write-back cost shows up only in the flushes. A request that would run past
 * the end of the mapping fails with EINVAL instead of faulting. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>

#include "engine/engine.h"

struct mmap_file {
    char *base;
    uint64_t len;
};

struct mmap_priv {
    struct mmap_file *files;
    unsigned nfiles;
    struct io_req *staged;
};

static void mmap_unmap_all(struct mmap_priv *p)
{
    for (unsigned i = 0; i < p->nfiles; i++)
        if (p->files[i].base)
            munmap(p->files[i].base, p->files[i].len);
    free(p->files);
    free(p);
}

static int mmap_init(struct engine *e, unsigned depth, const int *fds, unsigned nfds,
                     const struct iovec *bufs, unsigned nbufs, char *err, size_t errlen)
{
    struct mmap_priv *p = calloc(1, sizeof(*p));
    if (p)
        p->files = calloc(nfds ? nfds : 1, sizeof(*p->files));
    if (!p || !p->files) {
        free(p);
        snprintf(err, errlen, "out of memory");
        return -ENOMEM;
    }
    p->nfiles = nfds;
    for (unsigned i = 0; i < nfds; i++) {
        if (fds[i] < 0)
            continue;
        struct stat st;
        int rc = fstat(fds[i], &st) < 0 ? -errno : st.st_size <= 0 ? -EINVAL : 0;
        if (rc < 0) {
            snprintf(err, errlen, "cannot map file %u: %s", i,
                     rc == -EINVAL ? "empty file" : strerror(-rc));
            mmap_unmap_all(p);
            return rc;
        }
        int acc = fcntl(fds[i], F_GETFL) & O_ACCMODE;
        int prot = PROT_READ | (acc == O_RDWR ? PROT_WRITE : 0);
        void *m = mmap(NULL, (size_t)st.st_size, prot, MAP_SHARED, fds[i], 0);
        if (m == MAP_FAILED) {
            rc = -errno;
            snprintf(err, errlen, "mmap of file %u (%lld bytes) failed: %s", i,
                     (long long)st.st_size, strerror(-rc));
            mmap_unmap_all(p);
            return rc;
        }
        p->files[i].base = m;
        p->files[i].len = (uint64_t)st.st_size;
    }
    e->priv = p;
    return 0;
}

static int mmap_queue(struct engine *e, struct io_req *r)
{
    struct mmap_priv *p = e->priv;
    if (p->staged)
        return -EAGAIN;
    p->staged = r;
    return 0;
}

static int mmap_run(struct engine *e, unsigned min_done, uint64_t timeout_ns,
                    struct io_req **done, unsigned max)
{
    struct mmap_priv *p = e->priv;
    struct io_req *r = p->staged;
    if (!r || max == 0)
        return 0;
    p->staged = NULL;
    done[0] = r;
    if (r->file >= p->nfiles || !p->files[r->file].base) {
        r->res = -EBADF;
        return 1;
    }
    struct mmap_file *f = &p->files[r->file];
    switch (r->op) {
    case IO_OP_READ:
    case IO_OP_WRITE:
        if (r->off > f->len || r->len > f->len - r->off) {
            r->res = -EINVAL;
            break;
        }
        if (r->op == IO_OP_READ)
            memcpy(r->buf, f->base + r->off, r->len);
        else
            memcpy(f->base + r->off, r->buf, r->len);
        r->res = (int32_t)r->len;
        break;
    case IO_OP_FSYNC:
    case IO_OP_FDATASYNC:
        r->res = msync(f->base, f->len, MS_SYNC | MS_INVALIDATE) < 0 ? -errno : 0;
        break;
    case IO_OP_TRIM: /* sysbench fileio never trims */
        r->res = -EOPNOTSUPP;
        break;
    default:
        r->res = -EINVAL;
    }
    return 1;
}

static void mmap_exit(struct engine *e)
{
    if (e->priv)
        mmap_unmap_all(e->priv);
    e->priv = NULL;
}

const struct engine_ops engine_mmap_ops = {
    .name = "mmap",
    .needs_files = true,
    .max_depth = 1,
    .init = mmap_init,
    .queue = mmap_queue,
    .run = mmap_run,
    .exit = mmap_exit,
};
