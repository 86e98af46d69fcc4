/* purge.c - see purge.h. */
#include <errno.h>
#include <fcntl.h>
#include <linux/falloc.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/clock.h"
#include "base/signal.h"
#include "target/purge.h"

#define ZERO_CHUNK (1u << 20)

const char *purge_method_name(enum purge_method m)
{
    switch (m) {
    case PURGE_NONE: return "none";
    case PURGE_SECURE_DISCARD: return "secure-discard";
    case PURGE_DISCARD: return "discard";
    case PURGE_ZERO_FILL: return "zero-fill";
    case PURGE_PUNCH_HOLE: return "punch-hole";
    }
    return "?";
}

static void note(struct purge_report *r, const char *what, int e)
{
    size_t n = strlen(r->notes);
    snprintf(r->notes + n, sizeof(r->notes) - n, "%s%s: %s", n ? "; " : "", what,
             e == EOPNOTSUPP || e == ENOTTY ? "not supported" : strerror(e));
}

/* Writes zeroes over [off, off + len); fd may be O_DIRECT. */
static int zero_write(int fd, uint64_t off, uint64_t len, const char *path, char *err,
                      size_t errlen)
{
    void *buf;
    if (posix_memalign(&buf, 4096, ZERO_CHUNK)) {
        snprintf(err, errlen, "out of memory");
        return -ENOMEM;
    }
    memset(buf, 0, ZERO_CHUNK);
    int rc = 0;
    while (len > 0) {
        if (signal_received()) {
            snprintf(err, errlen, "%s: zero fill interrupted at offset %llu", path,
                     (unsigned long long)off);
            rc = -EINTR;
            break;
        }
        size_t n = len < ZERO_CHUNK ? (size_t)len : ZERO_CHUNK;
        ssize_t w = pwrite(fd, buf, n, (off_t)off);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            rc = w < 0 ? -errno : -EIO;
            snprintf(err, errlen, "%s: zero fill failed at offset %llu: %s", path,
                     (unsigned long long)off, strerror(-rc));
            break;
        }
        off += (uint64_t)w;
        len -= (uint64_t)w;
    }
    free(buf);
    if (rc == 0 && fsync(fd) < 0) {
        rc = -errno;
        snprintf(err, errlen, "%s: fsync after zero fill: %s", path, strerror(errno));
    }
    return rc;
}

static int purge_block(const char *path, struct purge_report *r, char *err, size_t errlen)
{
    int fd = open(path, O_RDWR | O_EXCL | O_DIRECT | O_CLOEXEC);
    if (fd < 0) {
        snprintf(err, errlen, "%s: cannot open for purge: %s", path, strerror(errno));
        return -errno;
    }
    uint64_t size = 0;
    if (ioctl(fd, BLKGETSIZE64, &size) < 0) {
        int e = errno;
        close(fd);
        snprintf(err, errlen, "%s: cannot read the device size: %s", path, strerror(e));
        return -e;
    }
    r->offset = 0;
    r->length = size;
    uint64_t range[2] = {0, size};
    int rc = 0;
    if (ioctl(fd, BLKSECDISCARD, range) == 0) {
        r->method = PURGE_SECURE_DISCARD;
    } else {
        note(r, "secure discard", errno);
        if (ioctl(fd, BLKDISCARD, range) == 0) {
            r->method = PURGE_DISCARD;
        } else {
            note(r, "discard", errno);
            r->method = PURGE_ZERO_FILL;
            if (ioctl(fd, BLKZEROOUT, range) < 0) {
                note(r, "kernel zero-out", errno);
                rc = zero_write(fd, 0, size, path, err, errlen);
            }
        }
    }
    close(fd);
    return rc;
}

static int purge_file(const char *path, const struct stat *st, struct purge_report *r,
                      char *err, size_t errlen)
{
    int fd = open(path, O_RDWR | O_CLOEXEC);
    if (fd < 0) {
        snprintf(err, errlen, "%s: cannot open for purge: %s", path, strerror(errno));
        return -errno;
    }
    r->offset = 0;
    r->length = (uint64_t)st->st_size;
    int rc = 0;
    if (st->st_size == 0) {
        r->method = PURGE_NONE;
    } else if (fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, 0, st->st_size) == 0) {
        r->method = PURGE_PUNCH_HOLE;
    } else {
        note(r, "punch hole", errno);
        r->method = PURGE_ZERO_FILL;
        rc = zero_write(fd, 0, (uint64_t)st->st_size, path, err, errlen);
    }
    close(fd);
    return rc;
}

int purge_target(const char *path, const struct guard_consent *c, struct purge_report *r,
                 char *err, size_t errlen)
{
    memset(r, 0, sizeof(*r));
    snprintf(r->path, sizeof(r->path), "%s", path);
    struct stat st;
    if (stat(path, &st) < 0) {
        if (errno == ENOENT) {
            r->method = PURGE_NONE;
            snprintf(r->notes, sizeof(r->notes), "does not exist yet");
            return 0;
        }
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return -errno;
    }
    if (!S_ISBLK(st.st_mode) && !S_ISREG(st.st_mode)) {
        snprintf(err, errlen, "%s: not a block device or regular file; cannot purge it", path);
        return -EINVAL;
    }
    int rc = guard_check_write(path, c, err, errlen);
    if (rc < 0)
        return rc;
    uint64_t t0 = clock_ns();
    rc = S_ISBLK(st.st_mode) ? purge_block(path, r, err, errlen)
                             : purge_file(path, &st, r, err, errlen);
    r->elapsed_s = (double)(clock_ns() - t0) / 1e9;
    return rc;
}

int purge_discard(const char *path, uint64_t offset, uint64_t length,
                  const struct guard_consent *c, struct purge_report *r, char *err,
                  size_t errlen)
{
    memset(r, 0, sizeof(*r));
    snprintf(r->path, sizeof(r->path), "%s", path);
    struct stat st;
    if (stat(path, &st) < 0) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return -errno;
    }
    if (!S_ISBLK(st.st_mode)) {
        snprintf(err, errlen,
                 "%s: discarding the unused range needs a block device (this is not one)", path);
        return -EINVAL;
    }
    int rc = guard_check_write(path, c, err, errlen);
    if (rc < 0)
        return rc;
    int fd = open(path, O_RDWR | O_EXCL | O_CLOEXEC);
    if (fd < 0) {
        snprintf(err, errlen, "%s: cannot open for discard: %s", path, strerror(errno));
        return -errno;
    }
    int lbs = 512;
    uint64_t size = 0;
    if (ioctl(fd, BLKSSZGET, &lbs) < 0 || lbs <= 0)
        lbs = 512;
    if (ioctl(fd, BLKGETSIZE64, &size) < 0)
        size = 0;
    uint64_t end = offset + length > size ? size : offset + length;
    uint64_t b = (uint64_t)lbs;
    uint64_t start = (offset + b - 1) / b * b;
    end = end / b * b;
    r->offset = start;
    r->length = end > start ? end - start : 0;
    uint64_t t0 = clock_ns();
    if (r->length == 0) {
        r->method = PURGE_NONE;
    } else {
        uint64_t range[2] = {start, r->length};
        if (ioctl(fd, BLKDISCARD, range) == 0) {
            r->method = PURGE_DISCARD;
        } else {
            rc = -errno;
            if (errno == EOPNOTSUPP)
                snprintf(err, errlen,
                         "%s does not support discard, so its unused range cannot be freed as "
                         "spare area (purge it with the vendor's tool and leave out "
                         "--discard-unused)",
                         path);
            else
                snprintf(err, errlen, "%s: discard of %llu bytes at %llu failed: %s", path,
                         (unsigned long long)r->length, (unsigned long long)start,
                         strerror(errno));
        }
    }
    r->elapsed_s = (double)(clock_ns() - t0) / 1e9;
    close(fd);
    return rc;
}
