/* engine_small.c - fio's small synchronous engines that move no data:
 * falloc (each I/O's range fallocated: reads keep the size, writes may
 * extend the file, trims punch a hole, as fio 3.33's engines/falloc.c),
 * ftruncate (each write truncates its file to the write's offset; reads
 * and trims fail with EINVAL, as engines/ftruncate.c) and cpuio (each I/O
 * burns cpuchunks microseconds of CPU, spinning or sorting, as
 * engines/cpu.c; the pause that makes the load is the job's thinktime,
 * which the job language sets from cpuload) and e4defrag (each write's
 * blocks swapped with the donor file's by EXT4_IOC_MOVE_EXT, the donor's
 * range allocated first with inplace=1, and the donor emptied after; reads
 * and trims fail with EINVAL, as engines/e4defrag.c).
 *
 * Like psync, one request at a time: run() carries out the staged one, so
 * the runner's stamps time exactly the call. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "engine/engine.h"

struct small_priv {
    const int *fds;
    struct io_req *staged;
    int32_t *sortbuf;       /* cpuio qsort: fio's 256 Ki integers */
    unsigned cpuchunks_us;
    bool qsort;
    int donor_fd;           /* e4defrag */
    uint64_t donor_bsz;     /* its st_blksize */
    bool inplace;
};

/* linux/ext4.h's move request (not in every distribution's headers) */
struct e4_move_extent {
    uint32_t reserved;
    uint32_t donor_fd;
    uint64_t orig_start;    /* blocks */
    uint64_t donor_start;
    uint64_t len;
    uint64_t moved_len;
};
#define E4_IOC_MOVE_EXT _IOWR('f', 15, struct e4_move_extent)

#define QSORT_N (256u * 1024u)

static int small_init(struct engine *e, unsigned depth, const int *fds, unsigned nfds,
                      const struct iovec *bufs, unsigned nbufs, char *err, size_t errlen)
{
    struct small_priv *p = calloc(1, sizeof(*p));
    if (!p)
        return -ENOMEM;
    p->fds = fds;
    if (e->small) {
        p->cpuchunks_us = e->small->cpuchunks;
        p->qsort = e->small->cpu_qsort;
    }
    if (p->qsort) {
        p->sortbuf = malloc(QSORT_N * sizeof(*p->sortbuf));
        if (!p->sortbuf) {
            free(p);
            return -ENOMEM;
        }
        /* fio's multiply-with-carry fill, from its fixed seed */
        uint32_t w = 521288629u, z = 362436069u;
        for (unsigned i = 0; i < QSORT_N; i++) {
            z = 36969 * (z & 65535) + (z >> 16);
            w = 18000 * (w & 65535) + (w >> 16);
            p->sortbuf[i] = (int32_t)((z << 16) + w);
        }
    }
    e->priv = p;
    return 0;
}

static int small_queue(struct engine *e, struct io_req *r)
{
    struct small_priv *p = e->priv;
    if (p->staged)
        return -EAGAIN;
    p->staged = r;
    return 0;
}

/* Takes the staged request, or NULL. */
static struct io_req *take(struct engine *e, unsigned max)
{
    struct small_priv *p = e->priv;
    struct io_req *r = p->staged;
    if (!r || max == 0)
        return NULL;
    p->staged = NULL;
    return r;
}

static int sync_op(int fd, const struct io_req *r)
{
    return r->op == IO_OP_FSYNC ? fsync(fd) : fdatasync(fd);
}

static int falloc_run(struct engine *e, unsigned min_done, uint64_t timeout_ns, struct io_req **done,
                      unsigned max)
{
    struct small_priv *p = e->priv;
    struct io_req *r = take(e, max);
    if (!r)
        return 0;
    int fd = p->fds[r->file], rc;
    if (r->op > IO_OP_TRIM) {
        rc = sync_op(fd, r);
    } else {
        int mode = r->op == IO_OP_READ ? FALLOC_FL_KEEP_SIZE
                   : r->op == IO_OP_TRIM ? FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE : 0;
        do
            rc = fallocate(fd, mode, (off_t)r->off, (off_t)r->len);
        while (rc < 0 && errno == EINTR);
    }
    r->res = rc < 0 ? -errno : r->op <= IO_OP_TRIM ? (int32_t)r->len : 0;
    done[0] = r;
    return 1;
}

static int ftruncate_run(struct engine *e, unsigned min_done, uint64_t timeout_ns, struct io_req **done,
                         unsigned max)
{
    struct small_priv *p = e->priv;
    struct io_req *r = take(e, max);
    if (!r)
        return 0;
    int fd = p->fds[r->file], rc;
    if (r->op > IO_OP_TRIM) {
        rc = sync_op(fd, r);
    } else if (r->op != IO_OP_WRITE) {
        rc = -1;
        errno = EINVAL; /* fio: only writes truncate */
    } else {
        do
            rc = ftruncate(fd, (off_t)r->off);
        while (rc < 0 && errno == EINTR);
    }
    r->res = rc < 0 ? -errno : r->op <= IO_OP_TRIM ? (int32_t)r->len : 0;
    done[0] = r;
    return 1;
}

static int cmp_up(const void *a, const void *b)
{
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}

static int cmp_down(const void *a, const void *b)
{
    return cmp_up(b, a);
}

static int cmp_bytes(const void *a, const void *b)
{
    return *(const int8_t *)a - *(const int8_t *)b;
}

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static int cpuio_run(struct engine *e, unsigned min_done, uint64_t timeout_ns, struct io_req **done,
                     unsigned max)
{
    struct small_priv *p = e->priv;
    struct io_req *r = take(e, max);
    if (!r)
        return 0;
    if (p->qsort) {
        /* fio's do_qsort: sort, reverse, reorder by byte, reverse again */
        qsort(p->sortbuf, QSORT_N, sizeof(*p->sortbuf), cmp_up);
        qsort(p->sortbuf, QSORT_N, sizeof(*p->sortbuf), cmp_down);
        qsort(p->sortbuf, QSORT_N * sizeof(*p->sortbuf), 1, cmp_bytes);
        qsort(p->sortbuf, QSORT_N, sizeof(*p->sortbuf), cmp_down);
    } else {
        /* fio's usec_spin: busy until cpuchunks microseconds passed */
        uint64_t end = now_ns() + (uint64_t)p->cpuchunks_us * 1000u;
        while (now_ns() < end)
            ;
    }
    /* fio's FIO_NOIO: the I/O is counted, its bytes are not */
    r->len = 0;
    r->res = 0;
    done[0] = r;
    return 1;
}

static void small_exit(struct engine *e)
{
    struct small_priv *p = e->priv;
    if (p)
        free(p->sortbuf);
    free(p);
    e->priv = NULL;
}

const struct engine_ops engine_falloc_ops = {
    .name = "falloc",
    .needs_files = true,
    .max_depth = 1,
    .init = small_init,
    .queue = small_queue,
    .run = falloc_run,
    .exit = small_exit,
};

static int e4defrag_init(struct engine *e, unsigned depth, const int *fds, unsigned nfds,
                         const struct iovec *bufs, unsigned nbufs, char *err, size_t errlen)
{
    struct stat st;
    if (e->donor_fd < 0 || fstat(e->donor_fd, &st) < 0) {
        snprintf(err, errlen, "e4defrag: no donor file");
        return -EINVAL;
    }
    int rc = small_init(e, depth, fds, nfds, bufs, nbufs, err, errlen);
    if (rc < 0)
        return rc;
    struct small_priv *p = e->priv;
    p->donor_fd = e->donor_fd;
    p->donor_bsz = st.st_blksize > 0 ? (uint64_t)st.st_blksize : 4096;
    p->inplace = e->small && e->small->inplace;
    return 0;
}

static int e4defrag_run(struct engine *e, unsigned min_done, uint64_t timeout_ns, struct io_req **done,
                        unsigned max)
{
    struct small_priv *p = e->priv;
    struct io_req *r = take(e, max);
    if (!r)
        return 0;
    int fd = p->fds[r->file];
    done[0] = r;
    if (r->op > IO_OP_TRIM) {
        r->res = sync_op(fd, r) < 0 ? -errno : 0;
        return 1;
    }
    if (r->op != IO_OP_WRITE) {
        r->res = -EINVAL; /* fio: only writes move extents */
        return 1;
    }
    if (p->inplace && fallocate(p->donor_fd, 0, (off_t)r->off, (off_t)r->len) < 0) {
        r->res = -errno;
        return 1;
    }
    struct e4_move_extent me;
    memset(&me, 0, sizeof(me));
    me.donor_fd = (uint32_t)p->donor_fd;
    me.orig_start = r->off / p->donor_bsz;
    me.donor_start = me.orig_start;
    me.len = (r->off + r->len + p->donor_bsz - 1) / p->donor_bsz - me.orig_start;
    int rc = ioctl(fd, E4_IOC_MOVE_EXT, &me);
    int ioerr = rc < 0 ? errno : 0;
    uint64_t moved = me.moved_len * p->donor_bsz;
    if (moved > r->len)
        moved = r->len;
    /* fio: a partial move is a short write, none at all (past the end of
     * the file) EINVAL; the ioctl's own error wins */
    r->res = ioerr ? -ioerr : moved ? (int32_t)moved : -EINVAL;
    if (p->inplace && ftruncate(p->donor_fd, 0) < 0 && r->res >= 0)
        r->res = -errno;
    return 1;
}

const struct engine_ops engine_e4defrag_ops = {
    .name = "e4defrag",
    .needs_files = true,
    .max_depth = 1,
    .init = e4defrag_init,
    .queue = small_queue,
    .run = e4defrag_run,
    .exit = small_exit,
};

const struct engine_ops engine_ftruncate_ops = {
    .name = "ftruncate",
    .needs_files = true,
    .max_depth = 1,
    .init = small_init,
    .queue = small_queue,
    .run = ftruncate_run,
    .exit = small_exit,
};

const struct engine_ops engine_cpuio_ops = {
    .name = "cpuio",
    .needs_files = false,
    .max_depth = 1,
    .init = small_init,
    .queue = small_queue,
    .run = cpuio_run,
    .exit = small_exit,
};
