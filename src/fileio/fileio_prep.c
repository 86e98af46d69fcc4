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
#include <sys/statvfs.h>
#include <unistd.h>

#include "base/sizefmt.h"
#include "base/clock.h"
#include "base/rng.h"
#include "base/signal.h"
#include "target/target.h"
#include "fileio/fileio.h"

/* Whose files are these? A test file ssdbench created carries its mark
 * (target_mark_ours, renewed after every write). Any other regular file
 * under a test name is the user's - a leftover of sysbench or a file of the
 * same name - and is written or removed only with consent: --destroy naming
 * the file, or naming the directory the test files are in (the current
 * one, so --destroy=.). Symlinks and other kinds under a test name go
 * through the guard at open like any target. Every check runs on a
 * descriptor opened O_NOFOLLOW, never on a second look-up of the name. */

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

/* Consent for a test file (st): --destroy names it, or names the directory
 * the test files are in. */
static bool consented(const struct stat *st, const struct guard_consent *c)
{
    if (guard_consented_st(st, c))
        return true;
    struct stat here;
    if (!c || stat(".", &here) < 0)
        return false;
    for (unsigned i = 0; i < c->n; i++) {
        struct stat d;
        if (stat(c->paths[i], &d) == 0 && S_ISDIR(d.st_mode) && d.st_dev == here.st_dev &&
            d.st_ino == here.st_ino)
            return true;
    }
    return false;
}

/* Opens a test file without following a link and without blocking. 0 with
 * *fd and *st; *fd = -1 when the name is missing (-ENOENT), a symlink
 * (-ELOOP) or not a regular file (-EINVAL, *st set). */
static int open_name(const char *name, int *fd, struct stat *st, char *err, size_t errlen)
{
    *fd = open(name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (*fd < 0) {
        int e = errno;
        if (e != ENOENT && e != ELOOP)
            snprintf(err, errlen, "cannot open file '%s': %s", name, strerror(e));
        return -e;
    }
    if (fstat(*fd, st) < 0 || !S_ISREG(st->st_mode)) {
        close(*fd);
        *fd = -1;
        return -EINVAL;
    }
    return 0;
}

static int refuse_foreign(const char *name, const struct stat *st, const struct guard_consent *c,
                          char *err, size_t errlen)
{
    const char *opt = c && c->option ? c->option : "--destroy";
    snprintf(err, errlen,
             "refusing to write to %s: it is an existing file of %lld bytes that ssdbench did not "
             "create (or that changed since ssdbench last closed it); to destroy the test files "
             "here, add %s=. (or %s=%s for this one)",
             name, (long long)st->st_size, opt, opt, name);
    return -EPERM;
}

static int prep_file(const struct fileio_opts *o, const struct guard_consent *c, const char *name,
                     void *buf, struct rng *r, fileio_file_fn fn, void *arg, uint64_t *written,
                     char *err, size_t errlen)
{
    uint64_t fs = fileio_file_size(o), bs = o->block_size;
    /* a new file is created without following a link planted at the name;
     * an existing one is opened once through the guard (ours, or consent) */
    struct target t = {.fd = -1};
    bool created = true;
    int fd = open(name, O_CREAT | O_EXCL | O_NOFOLLOW | O_WRONLY | O_CLOEXEC | open_flags(o), 0600);
    if (fd < 0 && errno == EEXIST) {
        struct target_open_opts to = {
            .write = true,
            .direct = (o->extra_flags & FILEIO_FLAG_DIRECT) != 0,
            .dsync = (o->extra_flags & FILEIO_FLAG_DSYNC) != 0,
            .sync = (o->extra_flags & FILEIO_FLAG_SYNC) != 0,
            .consent = c,
        };
        int rc = target_open(&t, name, &to, err, errlen);
        if (rc < 0)
            return rc;
        fd = t.fd;
        created = false;
    }
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
    int werr = 0;
    for (; off < fs; off += bs) {
        /* a stop signal ends the prepare at the next block */
        if (signal_received()) {
            snprintf(err, errlen, "interrupted by %s while writing '%s' at offset %llu",
                     signal_name(signal_received()), name, (unsigned long long)off);
            werr = -EINTR;
            break;
        }
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
            werr = -e;
            break;
        }
        *written += bs;
    }
    int rc = werr;
    if (rc == 0)
        fsync(fd); /* so that write-back of the prepared data does not land in the run */
    if (!created) {
        target_close(&t, false); /* renews the mark of a file that is ours */
        return rc;
    }
    target_mark_ours(fd); /* best effort: a file system may refuse */
    if (close(fd) < 0 && rc == 0) {
        snprintf(err, errlen, "failed to write file '%s': %s", name, strerror(errno));
        return -errno;
    }
    return rc;
}

/* The bytes prepare will add (each file up to its size, in whole blocks)
 * against the free space of the current directory's file system. */
static int prep_space(const struct fileio_opts *o, char *err, size_t errlen)
{
    uint64_t fs = fileio_file_size(o), bs = o->block_size ? o->block_size : 1, need = 0;
    for (unsigned i = 0; i < o->file_num; i++) {
        char name[FILEIO_NAME_MAX];
        struct stat st;
        fileio_file_name(i, name, sizeof(name));
        uint64_t have = lstat(name, &st) == 0 && S_ISREG(st.st_mode) ? (uint64_t)st.st_size : 0;
        if (have >= fs)
            continue;
        uint64_t add = (fs - have + bs - 1) / bs * bs;
        need = need + add < need ? UINT64_MAX : need + add;
    }
    struct statvfs vfs;
    if (!need || statvfs(".", &vfs) < 0)
        return 0;
    uint64_t avail = (uint64_t)vfs.f_bavail * vfs.f_frsize;
    if (need <= avail)
        return 0;
    char a[32], b[32];
    sizefmt_binary(a, sizeof(a), (double)need, "B");
    sizefmt_binary(b, sizeof(b), (double)avail, "B");
    snprintf(err, errlen,
             "the test files need %llu more bytes (%s) but the file system has %llu bytes (%s) free; use "
             "a smaller --file-total-size",
             (unsigned long long)need, a, (unsigned long long)avail, b);
    return -ENOSPC;
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
    /* every existing file is asked about before any is written, and what
     * is missing must fit the file system */
    int rc = fileio_claim_files(o, c, err, errlen);
    if (rc == 0)
        rc = prep_space(o, err, errlen);
    for (unsigned i = 0; i < o->file_num && rc == 0; i++) {
        char name[FILEIO_NAME_MAX];
        fileio_file_name(i, name, sizeof(name));
        rc = prep_file(o, c, name, buf, &r, fn, arg, written, err, errlen);
    }
    *seconds = (double)(clock_ns() - t0) / 1e9;
    free(buf);
    return rc;
}

int fileio_cleanup(const struct fileio_opts *o, const struct guard_consent *c, char *err,
                   size_t errlen)
{
    unsigned kept = 0;
    char first[FILEIO_NAME_MAX] = "";
    for (unsigned i = 0; i < o->file_num; i++) {
        char name[FILEIO_NAME_MAX];
        fileio_file_name(i, name, sizeof(name));
        int fd;
        struct stat st;
        int rc = open_name(name, &fd, &st, err, errlen);
        if (rc == -ENOENT)
            continue;
        bool mine = false;
        if (rc == 0) {
            mine = target_fd_is_ours(fd) || consented(&st, c);
            close(fd);
        } else if (rc != -ELOOP && rc != -EINVAL) {
            return rc;
        }
        /* the name is looked at again just before the unlink: an entry
         * swapped in since the check is left alone */
        if (mine && (rc = target_unlink_same(name, &st)) < 0 && rc != -ESTALE && rc != -ENOENT) {
            snprintf(err, errlen, "cannot remove '%s': %s", name, strerror(-rc));
            return rc;
        }
        if (!mine || rc == -ESTALE) {
            /* a user's file, a symlink or another kind: not ssdbench's */
            if (!kept++)
                snprintf(first, sizeof(first), "%s", name);
        }
    }
    if (kept) {
        const char *opt = c && c->option ? c->option : "--destroy";
        snprintf(err, errlen,
                 "kept %s%s: not removed because ssdbench did not create it (or it changed since "
                 "ssdbench last closed it); remove it yourself, or add %s=. to let cleanup "
                 "remove the test files here",
                 first, kept > 1 ? " and other test files" : "", opt);
        return -EPERM;
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
                int fd = open(name, O_CREAT | O_EXCL | O_NOFOLLOW | O_WRONLY | O_CLOEXEC, 0600);
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
            sizefmt_binary(have, sizeof(have), (double)st.st_size, "B");
            sizefmt_binary(want, sizeof(want), (double)fs, "B");
            snprintf(err, errlen,
                     "size of file '%s' is %s, but at least %s is expected (did you run 'prepare' with different --file-total-size or --file-num values?)",
                     name, have, want);
            return -EINVAL;
        }
    }
    return 0;
}

int fileio_claim_files(const struct fileio_opts *o, const struct guard_consent *c, char *err,
                       size_t errlen)
{
    for (unsigned i = 0; i < o->file_num; i++) {
        char name[FILEIO_NAME_MAX];
        fileio_file_name(i, name, sizeof(name));
        int fd;
        struct stat st;
        int rc = open_name(name, &fd, &st, err, errlen);
        if (rc == -ENOENT || rc == -ELOOP || rc == -EINVAL)
            continue; /* missing: created later; links and other kinds: the guard at open */
        if (rc < 0)
            return rc;
        if (target_fd_is_ours(fd)) {
            close(fd);
            continue;
        }
        if (!consented(&st, c)) {
            close(fd);
            return refuse_foreign(name, &st, c, err, errlen);
        }
        /* consent given: from now on it is a benchmark file */
        rc = target_mark_ours(fd);
        close(fd);
        if (rc < 0) {
            snprintf(err, errlen, "%s: cannot mark it as a benchmark file (%s)", name,
                     strerror(-rc));
            return rc;
        }
    }
    return 0;
}
