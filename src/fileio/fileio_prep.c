/* fileio_prep.c - the test files of sysbench fileio: prepare, cleanup, and
 * the checks before a run (see fileio.h).
 *
 * Prepare follows sysbench 1.0.20 step by step (open O_CREAT | O_WRONLY with
 * the extra flags and mode 0600, seek to the end, append whole blocks until
 * the file size is reached, fsync, close), so the files are named and sized
 * byte for byte as sysbench makes them, including the last block running
 * past the file size when the size is not a multiple of the block. The one
 * deliberate change: blocks hold random data by default (every block
 * different), because sysbench's zeros flatter devices and file systems that
 * compress or deduplicate; --file-fill=zero restores them for comparisons. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/clock.h"
#include "base/rng.h"
#include "target/target.h"
#include "fileio/fileio.h"

/* The mark target.c puts on files ssdbench creates and the destructive-write
 * guard honours (target_file_is_ours). */

static int open_flags(const struct fileio_opts *o)
{
    int f = 0;
    if (o->extra_flags & FILEIO_FLAG_SYNC)
        f |= O_SYNC;
    if (o->extra_flags & FILEIO_FLAG_DSYNC)
        f |= O_DSYNC;
    if (o->extra_flags & FILEIO_FLAG_DIRECT)
        f |= O_DIRECT;
    return f;
}

/* sysbench's size words: "%.5g" in the largest binary unit not above the value. */
static void sb_size(char *buf, size_t len, double v)
{
    static const char *const unit[] = {"", "Ki", "Mi", "Gi", "Ti", "Pi"};
    unsigned i = 0;
    while (i < 5 && v >= 1024) {
        v /= 1024;
        i++;
    }
    snprintf(buf, len, "%.5g%sB", v, unit[i]);
}

/* Allowed to write name? Regular files (not symlinks) under the test names
 * are the benchmark's, as in sysbench; a missing name is created; anything
 * else goes through the guard. */
static int may_write(const char *name, const struct guard_consent *c, char *err, size_t errlen)
{
    struct stat st;
    if (lstat(name, &st) < 0) {
        if (errno == ENOENT)
            return 0;
        snprintf(err, errlen, "%s: %s", name, strerror(errno));
        return -errno;
    }
    if (S_ISREG(st.st_mode))
        return 0;
    return guard_check_write(name, c, err, errlen);
}

static int prep_file(const struct fileio_opts *o, const char *name, void *buf, struct rng *r,
                     fileio_file_fn fn, void *arg, uint64_t *written, char *err, size_t errlen)
{
    uint64_t fs = fileio_file_size(o), bs = o->block_size;
    int fd = open(name, O_CREAT | O_WRONLY | O_CLOEXEC | open_flags(o), 0600);
    if (fd < 0) {
        int e = errno;
        if (e == EINVAL && (o->extra_flags & FILEIO_FLAG_DIRECT))
            snprintf(err, errlen, "%s: the file system does not support O_DIRECT (--file-extra-flags=direct)",
                     name);
        else
            snprintf(err, errlen, "cannot open file '%s': %s", name, strerror(e));
        return -e;
    }
    off_t end = lseek(fd, 0, SEEK_END);
    uint64_t off = end > 0 ? (uint64_t)end : 0;
    fn(arg, name, off >= fs ? FILEIO_FILE_REUSING : off > 0 ? FILEIO_FILE_EXTENDING : FILEIO_FILE_CREATING);
    for (; off < fs; off += bs) {
        if (!o->zero_fill) {
            uint64_t *p = buf;
            for (size_t i = 0; i < bs / 8; i++)
                p[i] = rng_next(r);
            for (size_t i = bs / 8 * 8; i < bs; i++)
                ((unsigned char *)buf)[i] = (unsigned char)rng_next(r);
        }
        ssize_t w = write(fd, buf, bs);
        if (w != (ssize_t)bs) {
            int e = w < 0 ? errno : ENOSPC;
            snprintf(err, errlen, "failed to write file '%s' at offset %llu: %s%s", name,
                     (unsigned long long)off, strerror(e),
                     e == EINVAL && (o->extra_flags & FILEIO_FLAG_DIRECT)
                         ? " (O_DIRECT needs the file size and block size aligned to the device's sector)"
                         : "");
            close(fd);
            return -e;
        }
        *written += bs;
    }
    /* fsync so that write-back of the prepared data does not land in the run */
    fsync(fd);
    target_mark_ours(fd); /* best effort, see fileio_claim_files */
    if (close(fd) < 0) {
        snprintf(err, errlen, "failed to write file '%s': %s", name, strerror(errno));
        return -errno;
    }
    return 0;
}

int fileio_prepare(const struct fileio_opts *o, const struct guard_consent *c, fileio_file_fn fn,
                   void *arg, uint64_t *written, double *seconds, char *err, size_t errlen)
{
    *written = 0;
    *seconds = 0;
    size_t len = (o->block_size + 4095) & ~(size_t)4095;
    void *buf;
    if (posix_memalign(&buf, 4096, len)) {
        snprintf(err, errlen, "out of memory for a %llu-byte block", (unsigned long long)o->block_size);
        return -ENOMEM;
    }
    memset(buf, 0, len);
    struct rng r;
    rng_seed(&r, o->rand_seed ? o->rand_seed : clock_wall_ns());
    uint64_t t0 = clock_ns();
    int rc = 0;
    for (unsigned i = 0; i < o->file_num && rc == 0; i++) {
        char name[FILEIO_NAME_MAX];
        fileio_file_name(i, name, sizeof(name));
        rc = may_write(name, c, err, errlen);
        if (rc == 0)
            rc = prep_file(o, name, buf, &r, fn, arg, written, err, errlen);
    }
    *seconds = (double)(clock_ns() - t0) / 1e9;
    free(buf);
    return rc;
}

int fileio_cleanup(const struct fileio_opts *o, char *err, size_t errlen)
{
    for (unsigned i = 0; i < o->file_num; i++) {
        char name[FILEIO_NAME_MAX];
        fileio_file_name(i, name, sizeof(name));
        if (unlink(name) < 0 && errno != ENOENT) {
            snprintf(err, errlen, "cannot remove '%s': %s", name, strerror(errno));
            return -errno;
        }
    }
    return 0;
}

int fileio_check_files(const struct fileio_opts *o, char *err, size_t errlen)
{
    uint64_t fs = fileio_file_size(o);
    for (unsigned i = 0; i < o->file_num; i++) {
        char name[FILEIO_NAME_MAX];
        fileio_file_name(i, name, sizeof(name));
        struct stat st;
        if (stat(name, &st) < 0) {
            int e = errno;
            if (e == ENOENT && o->mode == FILEIO_SEQWR) {
                /* sysbench's "creation" test writes into new files: start
                 * them sparse at full size, so the writes allocate blocks */
                int fd = open(name, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0600);
                if (fd < 0 || ftruncate(fd, (off_t)fs) < 0) {
                    e = errno;
                    if (fd >= 0)
                        close(fd);
                    snprintf(err, errlen, "cannot create file '%s': %s", name, strerror(e));
                    return -e;
                }
                target_mark_ours(fd);
                close(fd);
                continue;
            }
            snprintf(err, errlen, "cannot open file '%s': %s%s", name, strerror(e),
                     e == ENOENT ? " (did you forget to run the prepare step?)" : "");
            return -e;
        }
        if (!S_ISREG(st.st_mode) && !S_ISBLK(st.st_mode)) {
            snprintf(err, errlen, "'%s' is not a regular file or block device", name);
            return -EINVAL;
        }
        if (S_ISREG(st.st_mode) && (uint64_t)st.st_size < fs) {
            char have[32], want[32];
            sb_size(have, sizeof(have), (double)st.st_size);
            sb_size(want, sizeof(want), (double)fs);
            snprintf(err, errlen,
                     "size of file '%s' is %s, but at least %s is expected (did you run 'prepare' with different --file-total-size or --file-num values?)",
                     name, have, want);
            return -EINVAL;
        }
    }
    return 0;
}

int fileio_claim_files(const struct fileio_opts *o, char *err, size_t errlen)
{
    for (unsigned i = 0; i < o->file_num; i++) {
        char name[FILEIO_NAME_MAX];
        fileio_file_name(i, name, sizeof(name));
        struct stat st;
        if (lstat(name, &st) < 0 || !S_ISREG(st.st_mode))
            continue;
        if (target_file_is_ours(name))
            continue;
        int fd = open(name, O_RDONLY | O_CLOEXEC);
        int rc = fd < 0 ? -errno : target_mark_ours(fd);
        if (fd >= 0)
            close(fd);
        if (rc < 0) {
            snprintf(err, errlen,
                     "%s: cannot mark it as a benchmark file (%s); name each file with --destroy %s to write to it",
                     name, strerror(-rc), name);
            return rc;
        }
    }
    return 0;
}
