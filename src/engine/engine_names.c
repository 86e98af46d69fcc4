/* engine_names.c - fio's file-operation engines (engines/fileoperations.c
 * of fio 3.33): filecreate, filestat and filedelete move no data; each
 * file of the job's name set is created (open O_CREAT), looked up (stat,
 * lstat or statx) or removed (unlink) once per pass, by the I/O that
 * covers the file's first byte (so a sequential or random pass acts on
 * every file exactly once); the other I/Os of a file complete at once.
 *
 * What the guard asks of these names is settled before the run
 * (runner/runner_names.c): filecreate never opens an existing file for
 * writing (a name already there is opened read-only, so nothing is
 * written), and filedelete removes a name only while it still holds the
 * file (device and inode) the guard judged at set-up. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/engine.h"

struct names_priv {
    struct io_req *staged;
};

int engine_name_of(const struct engine_names *n, unsigned f, char *out, size_t len)
{
    int k = n->numbered ? snprintf(out, len, "%s%u%s", n->head, f, n->tail) : snprintf(out, len, "%s", n->head);
    return k < 0 || (size_t)k >= len ? -1 : 0;
}

static int names_init(struct engine *e, unsigned depth, const int *fds, unsigned nfds,
                      const struct iovec *bufs, unsigned nbufs, char *err, size_t errlen)
{
    if (!e->names.nfiles || !e->names.file_len) {
        snprintf(err, errlen, "ioengine=%s: no file names", e->ops->name);
        return -EINVAL;
    }
    struct names_priv *p = calloc(1, sizeof(*p));
    if (!p)
        return -ENOMEM;
    e->priv = p;
    return 0;
}

static int names_queue(struct engine *e, struct io_req *r)
{
    struct names_priv *p = e->priv;
    if (p->staged)
        return -EAGAIN;
    p->staged = r;
    return 0;
}

static int do_create(const struct engine_names *n, const char *path)
{
    int fd = open(path, O_CREAT | O_EXCL | O_RDWR | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0 && errno == EEXIST)
        fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK); /* there: only opened */
    if (fd < 0)
        return -errno;
    close(fd);
    return 0;
}

static int do_stat(const struct engine_names *n, const char *path)
{
    struct stat st;
    struct statx sx;
    int rc;
    switch (n->stat_type) {
    case STAT_TYPE_LSTAT: rc = lstat(path, &st); break;
    case STAT_TYPE_STATX: rc = statx(AT_FDCWD, path, 0, STATX_ALL, &sx); break;
    default: rc = stat(path, &st); break;
    }
    return rc < 0 ? -errno : 0;
}

static int do_delete(const struct engine_names *n, unsigned f, const char *path)
{
    struct stat st;
    if (fstatat(AT_FDCWD, path, &st, AT_SYMLINK_NOFOLLOW) < 0)
        return -errno;
    /* only the file the guard judged: a name swapped since is left alone */
    if (!n->ids || (uint64_t)st.st_dev != n->ids[2 * f] || (uint64_t)st.st_ino != n->ids[2 * f + 1])
        return -EPERM;
    return unlink(path) < 0 ? -errno : 0;
}

static int names_run(struct engine *e, unsigned min_done, uint64_t timeout_ns, struct io_req **done,
                     unsigned max)
{
    struct names_priv *p = e->priv;
    struct io_req *r = p->staged;
    if (!r || max == 0)
        return 0;
    p->staged = NULL;
    const struct engine_names *n = &e->names;
    int rc = 0;
    uint64_t f = r->off / n->file_len;
    if (r->op <= IO_OP_TRIM && r->off % n->file_len == 0 && f < n->nfiles) {
        char path[512];
        if (engine_name_of(n, (unsigned)f, path, sizeof(path)) < 0)
            rc = -ENAMETOOLONG;
        else if (e->ops == &engine_filecreate_ops)
            rc = do_create(n, path);
        else if (e->ops == &engine_filestat_ops)
            rc = do_stat(n, path);
        else
            rc = do_delete(n, (unsigned)f, path);
    }
    r->res = rc < 0 ? rc : r->op <= IO_OP_TRIM ? (int32_t)r->len : 0;
    done[0] = r;
    return 1;
}

static void names_exit(struct engine *e)
{
    free(e->priv);
    e->priv = NULL;
}

#define NAMES_OPS(n)                                                                              \
    const struct engine_ops engine_##n##_ops = {                                                  \
        .name = #n, .needs_files = false, .max_depth = 1, .by_name = true, .init = names_init,   \
        .queue = names_queue, .run = names_run, .exit = names_exit,                               \
    }
NAMES_OPS(filecreate);
NAMES_OPS(filestat);
NAMES_OPS(filedelete);
