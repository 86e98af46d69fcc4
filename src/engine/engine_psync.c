/* engine_psync.c - blocking pread/pwrite, one I/O at a time per worker.
 *
 * This is the engine of sysbench's sync mode and ACT's service threads:
 * parallelism comes from threads, not queue depth. run() performs the single
 * staged request, so the runner's stamps around it time exactly the call. */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include "engine/engine.h"

struct psync_priv {
    const int *fds;
    struct io_req *staged;
    uint8_t trim_kinds[ENGINE_MAX_FILES]; /* engine_trim_file's memory */
};

static int psync_init(struct engine *e, unsigned depth, const int *fds, unsigned nfds,
                      const struct iovec *bufs, unsigned nbufs, char *err, size_t errlen)
{
    struct psync_priv *p = calloc(1, sizeof(*p));
    if (!p)
        return -ENOMEM;
    p->fds = fds;
    e->priv = p;
    return 0;
}

static int psync_queue(struct engine *e, struct io_req *r)
{
    struct psync_priv *p = e->priv;
    if (p->staged)
        return -EAGAIN;
    p->staged = r;
    return 0;
}

static int psync_run(struct engine *e, unsigned min_done, uint64_t timeout_ns,
                     struct io_req **done, unsigned max)
{
    struct psync_priv *p = e->priv;
    struct io_req *r = p->staged;
    if (!r || max == 0)
        return 0;
    p->staged = NULL;
    int fd = p->fds[r->file];
    ssize_t ret = 0;
    do {
        switch (r->op) {
        case IO_OP_READ: ret = pread(fd, r->buf, r->len, (off_t)r->off); break;
        case IO_OP_WRITE: ret = pwrite(fd, r->buf, r->len, (off_t)r->off); break;
        case IO_OP_TRIM: ret = engine_trim_file(p->trim_kinds, r->file, fd, r->off, r->len) < 0 ? -1 : (ssize_t)r->len; break;
        case IO_OP_FSYNC: ret = fsync(fd); break;
        case IO_OP_FDATASYNC: ret = fdatasync(fd); break;
        }
    } while (ret < 0 && errno == EINTR);
    r->res = ret < 0 ? -errno : (int32_t)ret;
    done[0] = r;
    return 1;
}

static void psync_exit(struct engine *e)
{
    free(e->priv);
    e->priv = NULL;
}

const struct engine_ops engine_psync_ops = {
    .name = "psync",
    .needs_files = true,
    .max_depth = 1,
    .init = psync_init,
    .queue = psync_queue,
    .run = psync_run,
    .exit = psync_exit,
};
