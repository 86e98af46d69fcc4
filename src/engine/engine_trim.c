/* engine_trim.c - trims (discards) for every engine: the one blocking
 * discard call and the queue the asynchronous engines keep their trims in
 * (see engine.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <linux/fs.h>

#include "engine/engine.h"

enum { TRIM_UNKNOWN, TRIM_DISCARD, TRIM_PUNCH };

static int trim_discard(int fd, uint64_t off, uint64_t len)
{
    uint64_t range[2] = {off, len};
    int rc;
    do
        rc = ioctl(fd, BLKDISCARD, range);
    while (rc < 0 && errno == EINTR);
    /* EBUSY: the kernel could not drop the range's cached pages because
     * they are dirty (a buffered write there, and the device is claimed
     * through another of the process's descriptors, so the discard may
     * only invalidate the cache): they are written back and the discard
     * made once more */
    if (rc < 0 && errno == EBUSY &&
        sync_file_range(fd, (off_t)off, (off_t)len,
                        SYNC_FILE_RANGE_WAIT_BEFORE | SYNC_FILE_RANGE_WRITE | SYNC_FILE_RANGE_WAIT_AFTER) == 0) {
        do
            rc = ioctl(fd, BLKDISCARD, range);
        while (rc < 0 && errno == EINTR);
    }
    return rc;
}

/* a regular file's range is deallocated */
static int trim_punch(int fd, uint64_t off, uint64_t len)
{
    int rc;
    do
        rc = fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, (off_t)off, (off_t)len);
    while (rc < 0 && errno == EINTR);
    return rc;
}

int engine_trim(int fd, uint64_t off, uint64_t len)
{
    int rc = trim_discard(fd, off, len);
    if (rc == 0 || errno != ENOTTY)
        return rc;
    return trim_punch(fd, off, len); /* not a block device */
}

int engine_trim_file(uint8_t kinds[ENGINE_MAX_FILES], unsigned file, int fd, uint64_t off, uint64_t len)
{
    uint8_t *k = file < ENGINE_MAX_FILES ? &kinds[file] : NULL;
    if (k && *k == TRIM_PUNCH)
        return trim_punch(fd, off, len);
    int rc = trim_discard(fd, off, len);
    if (rc == 0 || errno != ENOTTY) {
        if (k && rc == 0)
            *k = TRIM_DISCARD;
        return rc;
    }
    if (k)
        *k = TRIM_PUNCH;
    return trim_punch(fd, off, len);
}

int engine_trims_init(struct engine_trims *t, unsigned depth)
{
    t->n = t->ndone = 0;
    t->depth = depth;
    memset(t->kinds, 0, sizeof(t->kinds));
    t->req = calloc(depth ? depth : 1, sizeof(*t->req));
    return t->req ? 0 : -ENOMEM;
}

int engine_trims_stage(struct engine_trims *t, struct io_req *r)
{
    if (t->n >= t->depth)
        return -EAGAIN;
    t->req[t->n++] = r;
    return 0;
}

void engine_trims_do(struct engine_trims *t, const int *fds)
{
    for (; t->ndone < t->n; t->ndone++) {
        struct io_req *r = t->req[t->ndone];
        r->res = engine_trim_file(t->kinds, r->file, fds[r->file], r->off, r->len) < 0 ? -errno
                                                                                     : (int32_t)r->len;
    }
}

unsigned engine_trims_take(struct engine_trims *t, struct io_req **done, unsigned max)
{
    unsigned k = t->ndone < max ? t->ndone : max;
    for (unsigned i = 0; i < k; i++)
        done[i] = t->req[i];
    for (unsigned i = k; i < t->n; i++)
        t->req[i - k] = t->req[i];
    t->n -= k;
    t->ndone -= k;
    return k;
}

void engine_trims_free(struct engine_trims *t)
{
    free(t->req);
    t->req = NULL;
    t->n = t->ndone = 0;
}

int engine_trims_run(struct engine_trims *t, const int *fds, engine_run_fn run_io, struct engine *e,
                     unsigned min_done, uint64_t timeout_ns, struct io_req **done, unsigned max)
{
    engine_trims_do(t, fds);
    unsigned nt = engine_trims_take(t, done, max);
    if (nt == 0)
        return run_io(e, min_done, timeout_ns, done, max);
    int n = run_io(e, 0, 0, done + nt, max - nt);
    return n < 0 ? n : n + (int)nt;
}
