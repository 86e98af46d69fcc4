/* fileset.c - see fileset.h. */
#include "target/fileset.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/falloc.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "target/target.h"

int target_allocate(int fd, enum target_fallocate m, uint64_t size, const char *path, char *err,
                    size_t errlen)
{
    int rc = 0;
    const char *how = "";
    switch (m) {
    case FALLOC_UNSET:
    case FALLOC_NONE:
        return 0;
    case FALLOC_NATIVE:
        /* fio falls back to nothing when native allocation fails */
        if (size)
            (void)fallocate(fd, 0, 0, (off_t)size);
        return 0;
    case FALLOC_POSIX:
        how = "posix_fallocate";
        rc = size ? posix_fallocate(fd, 0, (off_t)size) : 0;
        break;
    case FALLOC_KEEP:
        how = "fallocate(FALLOC_FL_KEEP_SIZE)";
        rc = size && fallocate(fd, FALLOC_FL_KEEP_SIZE, 0, (off_t)size) < 0 ? errno : 0;
        break;
    case FALLOC_TRUNCATE:
        how = "ftruncate";
        rc = ftruncate(fd, (off_t)size) < 0 ? errno : 0;
        break;
    }
    if (rc) {
        snprintf(err, errlen, "%s: %s of %llu bytes failed: %s%s", path, how,
                 (unsigned long long)size, strerror(rc),
                 rc == ENOSPC ? " (the file system is full; use a smaller size)" : "");
        return -rc;
    }
    return 0;
}

int target_invalidate(const struct target *t, uint64_t off, uint64_t len, char *err, size_t errlen)
{
    if (t->fd < 0)
        return 0;
    if (t->info.kind == TARGET_BLOCK) {
        /* a passthrough node: the page cache of the block device it addresses */
        int bfd = t->chardev ? t->hold_fd : t->fd;
        if (bfd < 0)
            return 0; /* a second job's share: the holder's job invalidates */
        int rc = ioctl(bfd, BLKFLSBUF, 0);
        for (int i = 0; rc < 0 && errno == EAGAIN && i < 25; i++) {
            struct timespec ts = {.tv_sec = 0, .tv_nsec = 10000000};
            nanosleep(&ts, NULL);
            rc = ioctl(bfd, BLKFLSBUF, 0);
        }
        if (rc < 0) {
            int e = errno;
            snprintf(err, errlen, "%s: cache invalidation (BLKFLSBUF) failed: %s%s", t->info.path,
                     strerror(e), e == EACCES || e == EPERM ? " (only root may flush block devices)" : "");
            return -e;
        }
        return 0;
    }
    int rc = posix_fadvise(t->fd, (off_t)off, (off_t)len, POSIX_FADV_DONTNEED);
    if (rc) {
        snprintf(err, errlen, "%s: cache invalidation failed: %s", t->info.path, strerror(rc));
        return -rc;
    }
    return 0;
}

int target_pre_read(const struct target *t, uint64_t off, uint64_t len, char *err, size_t errlen)
{
    if (t->fd < 0)
        return 0;
    char p[64];
    snprintf(p, sizeof(p), "/proc/self/fd/%d", t->fd);
    int fd = open(p, O_RDONLY | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) {
        snprintf(err, errlen, "%s: cannot pre-read: %s", t->info.path, strerror(errno));
        return -errno;
    }
    const size_t chunk = 1u << 20;
    char *buf = malloc(chunk);
    if (!buf) {
        close(fd);
        snprintf(err, errlen, "out of memory");
        return -ENOMEM;
    }
    uint64_t end = len ? off + len : t->info.size;
    int ret = 0;
    for (uint64_t o = off; o < end;) {
        size_t n = end - o < chunk ? (size_t)(end - o) : chunk;
        ssize_t r = pread(fd, buf, n, (off_t)o);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0) {
            int e = r < 0 ? errno : EIO;
            snprintf(err, errlen, "%s: pre-read failed at offset %llu: %s", t->info.path,
                     (unsigned long long)o, r < 0 ? strerror(e) : "end of file");
            ret = -e;
            break;
        }
        o += (uint64_t)r;
    }
    free(buf);
    close(fd);
    return ret;
}

int fileset_file_len(const struct fileset_spec *j, unsigned filenum, bool exists, uint64_t cur_size,
                     struct rng *r, uint64_t *len, char *err, size_t errlen)
{
    unsigned nf = j->nrfiles ? j->nrfiles : 1;
    uint64_t bs = j->min_bs;
    uint64_t off = j->offset;
    if (!j->file_size) {
        uint64_t fs = j->size / nf;
        uint64_t extra = (j->size - fs * nf) / bs;
        uint64_t l = fs + (filenum < extra ? bs : 0);
        if (l == 0) {
            /* fio: the size of the file as it is */
            if (!exists || cur_size <= off) {
                snprintf(err, errlen, "job '%s': file %u needs a size; give size= or filesize=", j->name,
                         filenum);
                return -EINVAL;
            }
            l = cur_size - off;
        }
        *len = l;
        return 0;
    }
    uint64_t lo = j->file_size, hi = j->file_size_hi > lo ? j->file_size_hi : lo;
    if (exists && cur_size >= lo && cur_size <= hi && cur_size > off) {
        *len = cur_size - off;
        return 0;
    }
    if (off > lo) {
        snprintf(err, errlen, "job '%s': offset %llu lies beyond filesize %llu", j->name,
                 (unsigned long long)off, (unsigned long long)lo);
        return -EINVAL;
    }
    uint64_t sz = lo;
    if (hi > lo) {
        sz = lo + (uint64_t)((double)(hi - lo) * ((double)(rng_next(r) >> 11) / 9007199254740992.0));
        sz -= sz % bs;
        if (sz < lo)
            sz = lo; /* lo itself need not be a multiple of the block size */
    }
    if (sz <= off) {
        snprintf(err, errlen, "job '%s': file %u would be %llu bytes, not past offset %llu", j->name,
                 filenum, (unsigned long long)sz, (unsigned long long)off);
        return -EINVAL;
    }
    *len = sz - off;
    return 0;
}
