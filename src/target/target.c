/* target.c - see target.h. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>

#include "base/rng.h"
#include "base/sysfs_attr.h"
#include "target/chardev_map.h"
#include "target/fileset.h"
#include "target/guard.h"
#include "target/target.h"

#define OURS_XATTR "user.ssdbench"

/* The active scheduler is the bracketed word in queue/scheduler. */
static void pick_scheduler(char *s)
{
    char *a = strchr(s, '['), *b = a ? strchr(a, ']') : NULL;
    if (a && b) {
        *b = 0;
        memmove(s, a + 1, strlen(a + 1) + 1);
    }
}

static void probe_sysfs(struct target_info *ti)
{
    char link[PATH_MAX], real[PATH_MAX];
    snprintf(link, sizeof(link), "/sys/dev/block/%u:%u", ti->major, ti->minor);
    if (!realpath(link, real))
        return;
    const char *base = strrchr(real, '/');
    snprintf(ti->devname, sizeof(ti->devname), "%s", base ? base + 1 : real);
    /* A partition's queue and device attributes live on its parent disk. */
    char disk[PATH_MAX];
    snprintf(disk, sizeof(disk), "%s", real);
    char partfile[PATH_MAX + 16];
    snprintf(partfile, sizeof(partfile), "%s/partition", real);
    if (access(partfile, F_OK) == 0) {
        char *slash = strrchr(disk, '/');
        if (slash)
            *slash = 0;
    }
    char buf[128], dir[PATH_MAX + 16];
    snprintf(dir, sizeof(dir), "%s/device", disk);
    sysfs_attr(dir, "model", ti->model, sizeof(ti->model));
    sysfs_attr(dir, "serial", ti->serial, sizeof(ti->serial));
    if (!ti->serial[0])
        sysfs_attr(dir, "wwid", ti->serial, sizeof(ti->serial));
    sysfs_attr(dir, "firmware_rev", ti->firmware, sizeof(ti->firmware));
    if (!ti->firmware[0])
        sysfs_attr(dir, "rev", ti->firmware, sizeof(ti->firmware));
    snprintf(dir, sizeof(dir), "%s/queue", disk);
    sysfs_attr(dir, "scheduler", ti->scheduler, sizeof(ti->scheduler));
    pick_scheduler(ti->scheduler);
    sysfs_attr(dir, "write_cache", ti->write_cache, sizeof(ti->write_cache));
    sysfs_attr(dir, "zoned", ti->zoned, sizeof(ti->zoned));
    sysfs_attr(dir, "rotational", buf, sizeof(buf));
    ti->rotational = buf[0] ? atoi(buf) : -1;
    snprintf(dir, sizeof(dir), "%s/loop", disk);
    sysfs_attr(dir, "backing_file", ti->backing_file, sizeof(ti->backing_file));
    if (!ti->model[0] && ti->backing_file[0])
        snprintf(ti->model, sizeof(ti->model), "loop device");
}

static const char *kind_name(mode_t m)
{
    if (S_ISFIFO(m))
        return "a FIFO";
    if (S_ISSOCK(m))
        return "a socket";
    if (S_ISCHR(m))
        return "a character device";
    if (S_ISDIR(m))
        return "a directory";
    if (S_ISLNK(m))
        return "a symbolic link";
    return "of another kind";
}

static int kind_error(const char *path, mode_t m, char *err, size_t errlen)
{
    snprintf(err, errlen, "%s: not a regular file or block device (it is %s)", path, kind_name(m));
    return -EINVAL;
}

static int probe_fd(int fd, struct target_info *ti, char *err, size_t errlen)
{
    struct stat st;
    if (fstat(fd, &st) < 0) {
        snprintf(err, errlen, "%s: %s", ti->path, strerror(errno));
        return -errno;
    }
    /* the name of what was opened, for the record (not used to open again) */
    char fdlink[64];
    snprintf(fdlink, sizeof(fdlink), "/proc/self/fd/%d", fd);
    ssize_t rl = readlink(fdlink, ti->resolved, sizeof(ti->resolved) - 1);
    if (rl > 0)
        ti->resolved[rl] = 0;
    if (S_ISBLK(st.st_mode)) {
        ti->kind = TARGET_BLOCK;
        uint64_t sz = 0;
        int lbs = 512;
        unsigned pbs = 512;
        if (ioctl(fd, BLKGETSIZE64, &sz) < 0) {
            snprintf(err, errlen, "%s: BLKGETSIZE64: %s", ti->path, strerror(errno));
            return -errno;
        }
        if (ioctl(fd, BLKSSZGET, &lbs) < 0)
            lbs = 512;
        if (ioctl(fd, BLKPBSZGET, &pbs) < 0)
            pbs = (unsigned)lbs;
        ti->size = sz;
        ti->logical_block = (uint32_t)lbs;
        ti->physical_block = pbs;
        ti->major = major(st.st_rdev);
        ti->minor = minor(st.st_rdev);
        probe_sysfs(ti);
    } else if (S_ISREG(st.st_mode)) {
        ti->kind = TARGET_FILE;
        ti->size = (uint64_t)st.st_size;
        /* O_DIRECT on a file needs the file system's logical block alignment;
         * that of the underlying device is the safe assumption. */
        ti->logical_block = 512;
        ti->physical_block = (uint32_t)st.st_blksize;
        ti->rotational = -1;
        ti->major = major(st.st_dev);
        ti->minor = minor(st.st_dev);
        char link[PATH_MAX], real[PATH_MAX], buf[32];
        snprintf(link, sizeof(link), "/sys/dev/block/%u:%u", ti->major, ti->minor);
        if (realpath(link, real)) {
            char q[PATH_MAX + 16];
            snprintf(q, sizeof(q), "%s/queue", real);
            sysfs_attr(q, "logical_block_size", buf, sizeof(buf));
            if (buf[0] && atoi(buf) > 0)
                ti->logical_block = (uint32_t)atoi(buf);
        }
    } else {
        return kind_error(ti->path, st.st_mode, err, errlen);
    }
    return 0;
}

/* Looks at path before opening it: whether the user named a symlink (then
 * it is followed, else opened O_NOFOLLOW) and whether it is a kind that may
 * be opened at all. Returns 0, -ENOENT, or -errno with a message. */
static int look(const char *path, struct stat *st, bool *follow, bool chardev, char *err,
                size_t errlen)
{
    *follow = false;
    if (lstat(path, st) < 0) {
        int e = errno;
        if (e != ENOENT)
            snprintf(err, errlen, "%s: %s", path, strerror(e));
        return -e;
    }
    if (S_ISLNK(st->st_mode)) {
        *follow = true;
        if (stat(path, st) < 0) {
            int e = errno;
            snprintf(err, errlen, "%s: %s%s", path, strerror(e),
                     e == ENOENT ? " (a symbolic link to nothing)" : "");
            return e == ENOENT ? -ELOOP : -e;
        }
    }
    if (!S_ISREG(st->st_mode) && !S_ISBLK(st->st_mode) && !(chardev && S_ISCHR(st->st_mode)))
        return kind_error(path, st->st_mode, err, errlen);
    return 0;
}

int target_probe(const char *path, struct target_info *ti, char *err, size_t errlen)
{
    memset(ti, 0, sizeof(*ti));
    ti->rotational = -1;
    snprintf(ti->path, sizeof(ti->path), "%s", path);
    snprintf(ti->resolved, sizeof(ti->resolved), "%s", path);
    struct stat st;
    bool follow;
    int ret = look(path, &st, &follow, false, err, errlen);
    if (ret < 0)
        return ret;
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC | (follow ? 0 : O_NOFOLLOW));
    if (fd < 0) {
        int e = errno;
        snprintf(err, errlen, "%s: cannot open: %s", path, strerror(e));
        return -e;
    }
    ret = probe_fd(fd, ti, err, errlen);
    close(fd);
    return ret;
}

uint64_t target_fs_free(const char *dir)
{
    struct statvfs sv;
    if (statvfs(dir, &sv) < 0)
        return 0;
    return (uint64_t)sv.f_bavail * sv.f_frsize;
}

#define MARK_TAG "ssdbench-mark 2"
#define MARK_PAST_S 10  /* the modification time a stamp sets: this far back */
#define MARK_CTIME_NS 2000000000LL /* the stamp's own change-time bump may take this long */

static void mark_format(const struct stat *st, char *buf, size_t len)
{
    snprintf(buf, len, MARK_TAG " dev=%llu ino=%llu size=%lld mtime=%lld.%09ld ctime=%lld.%09ld",
             (unsigned long long)st->st_dev, (unsigned long long)st->st_ino,
             (long long)st->st_size, (long long)st->st_mtim.tv_sec, (long)st->st_mtim.tv_nsec,
             (long long)st->st_ctim.tv_sec, (long)st->st_ctim.tv_nsec);
}

static long long ts_ns(const struct timespec *t)
{
    return (long long)t->tv_sec * 1000000000LL + t->tv_nsec;
}

bool target_fd_is_ours(int fd)
{
    char v[256];
    ssize_t n = fgetxattr(fd, OURS_XATTR, v, sizeof(v) - 1);
    struct stat st;
    if (n <= 0 || fstat(fd, &st) < 0 || !S_ISREG(st.st_mode))
        return false;
    v[n] = 0;
    unsigned long long dev, ino;
    long long size, msec, csec;
    long mns, cns;
    int used = 0;
    if (sscanf(v, MARK_TAG " dev=%llu ino=%llu size=%lld mtime=%lld.%9ld ctime=%lld.%9ld%n",
               &dev, &ino, &size, &msec, &mns, &csec, &cns, &used) != 7 ||
        (size_t)used != (size_t)n)
        return false;
    /* the stamp as it would be written now must be the one stored,
     * except the change time, which the stamp itself moved forward */
    struct stat want = st;
    want.st_ctim.tv_sec = (time_t)csec;
    want.st_ctim.tv_nsec = cns;
    char again[256];
    mark_format(&want, again, sizeof(again));
    if (strcmp(again, v) != 0)
        return false;
    long long c0 = ts_ns(&want.st_ctim), c1 = ts_ns(&st.st_ctim);
    return c1 >= c0 && c1 - c0 <= MARK_CTIME_NS;
}

int target_mark_ours(int fd)
{
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    struct timespec ts[2] = {{.tv_sec = 0, .tv_nsec = UTIME_OMIT},
                             {.tv_sec = now.tv_sec - MARK_PAST_S, .tv_nsec = 0}};
    struct stat st;
    if (futimens(fd, ts) < 0 || fstat(fd, &st) < 0)
        return -errno;
    if (!S_ISREG(st.st_mode))
        return -EINVAL;
    char v[256];
    mark_format(&st, v, sizeof(v));
    return fsetxattr(fd, OURS_XATTR, v, strlen(v), 0) < 0 ? -errno : 0;
}

int target_unlink_same(const char *path, const struct stat *st)
{
    struct stat now;
    if (fstatat(AT_FDCWD, path, &now, AT_SYMLINK_NOFOLLOW) < 0)
        return -errno;
    if (!S_ISREG(now.st_mode) || now.st_dev != st->st_dev || now.st_ino != st->st_ino)
        return -ESTALE;
    return unlinkat(AT_FDCWD, path, 0) < 0 ? -errno : 0;
}

/* Writes random data over the whole file in 1 MiB chunks. */
static int fill_range(int fd, uint64_t from, uint64_t size, uint64_t seed, const char *path,
                      char *err, size_t errlen);

static int fill_file(int fd, uint64_t size, uint64_t seed, const char *path, char *err,
                     size_t errlen)
{
    return fill_range(fd, 0, size, seed, path, err, errlen);
}

/* Random data over [from, size) in 1 MiB chunks. */
static int fill_range(int fd, uint64_t from, uint64_t size, uint64_t seed, const char *path,
                      char *err, size_t errlen)
{
    const size_t chunk = 1u << 20;
    uint64_t *buf = malloc(chunk);
    if (!buf) {
        snprintf(err, errlen, "out of memory");
        return -ENOMEM;
    }
    struct rng r;
    rng_seed(&r, seed ^ 0x5eed5eedull);
    for (uint64_t off = from; off < size; off += chunk) {
        for (size_t i = 0; i < chunk / 8; i++)
            buf[i] = rng_next(&r);
        size_t n = size - off < chunk ? (size_t)(size - off) : chunk;
        ssize_t w = pwrite(fd, buf, n, (off_t)off);
        if (w != (ssize_t)n) {
            int e = w < 0 ? errno : ENOSPC;
            snprintf(err, errlen, "%s: filling the test file failed at offset %llu: %s%s", path,
                     (unsigned long long)off, strerror(e),
                     e == ENOSPC ? " (the file system is full; use a smaller --size)" : "");
            free(buf);
            return -e;
        }
    }
    free(buf);
    if (fdatasync(fd) < 0) {
        snprintf(err, errlen, "%s: fdatasync: %s", path, strerror(errno));
        return -errno;
    }
    return 0;
}

/* Sets the final status flags once the checks are done: O_NONBLOCK off,
 * O_DIRECT on when asked. */
static int final_flags(struct target *t, bool direct, char *err, size_t errlen)
{
    if (t->chardev)
        direct = false; /* passthrough has no page cache to bypass */
    int fl = fcntl(t->fd, F_GETFL);
    if (fl < 0 || fcntl(t->fd, F_SETFL, (fl & ~O_NONBLOCK) | (direct ? O_DIRECT : 0)) < 0) {
        int e = errno;
        if (direct && e == EINVAL)
            snprintf(err, errlen, "%s: the file system does not support O_DIRECT; use --direct=0",
                     t->info.path);
        else
            snprintf(err, errlen, "%s: cannot set the open flags: %s", t->info.path, strerror(e));
        return -e;
    }
    return 0;
}

/* Opens the same file as fd anew with other flags, through /proc/self/fd
 * (the open file itself, not its path). */
static int reopen_fd(int fd, int flags)
{
    char p[64];
    snprintf(p, sizeof(p), "/proc/self/fd/%d", fd);
    return open(p, flags | O_CLOEXEC | O_NOCTTY);
}

static int io_flags(const struct target_open_opts *o)
{
    return (o->write ? O_RDWR : O_RDONLY) | (o->dsync ? O_DSYNC : 0) | (o->sync ? O_SYNC : 0);
}

static void close_target(struct target *t)
{
    if (t->fd >= 0)
        close(t->fd);
    t->fd = -1;
    if (t->chardev && t->hold_fd >= 0)
        close(t->hold_fd);
    t->hold_fd = -1;
}

/* The directory part of path ("." when it has none). */
static void parent_dir(const char *path, char *dir, size_t len)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        snprintf(dir, len, ".");
    else if (slash == path)
        snprintf(dir, len, "/");
    else
        snprintf(dir, len, "%.*s", (int)(slash - path), path);
}

bool target_pseudo_place(const char *path)
{
    char dir[TARGET_PATH_MAX];
    parent_dir(path, dir, sizeof(dir));
    struct statfs sf;
    if (statfs(dir, &sf) == 0) {
        switch ((unsigned long)sf.f_type) {
        case 0x9fa0:     /* proc */
        case 0x62656572: /* sysfs */
        case 0x1cd1:     /* devpts */
        case 0x64626720: /* debugfs */
        case 0x74726163: /* tracefs */
        case 0x73636673: /* securityfs */
        case 0x27e0eb:   /* cgroup */
        case 0x63677270: /* cgroup2 */
        case 0x62656570: /* configfs */
            return true;
        default: break;
        }
    }
    /* devtmpfs reports tmpfs's type: the directory is on the file system
     * mounted at /dev (its own mount; /dev/shm and the like are others) */
    struct stat d, dev, root;
    if (stat(dir, &d) == 0 && stat("/dev", &dev) == 0 && stat("/", &root) == 0 &&
        dev.st_dev != root.st_dev && d.st_dev == dev.st_dev)
        return true;
    /* a directory that does not exist yet under /dev, /proc or /sys */
    static const char *const tops[] = {"/dev", "/proc", "/sys"};
    for (unsigned i = 0; i < sizeof(tops) / sizeof(tops[0]); i++) {
        size_t n = strlen(tops[i]);
        if (!strncmp(path, tops[i], n) && (path[n] == '/' || path[n] == 0) && strncmp(path, "/dev/shm/", 9))
            return true;
    }
    return false;
}

static int create_file(struct target *t, const char *path, const struct target_open_opts *o,
                       char *err, size_t errlen)
{
    int fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY, 0644);
    if (fd < 0) {
        int e = errno;
        snprintf(err, errlen, "%s: cannot create: %s%s", path, strerror(e),
                 e == EEXIST ? " (it appeared while being created)" : "");
        return e == EEXIST ? -EPERM : -e;
    }
    struct stat st;
    fstat(fd, &st);
    t->dev = st.st_dev;
    t->ino = st.st_ino;
    t->info.created = true;
    t->ours = true;
    t->fd = fd;
    int ret = 0;
    if (o->alloc != FALLOC_UNSET) {
        /* fio's order: allocate, then lay the file out when it is read */
        ret = target_allocate(fd, o->alloc, o->create_size, path, err, errlen);
        if (ret == 0 && o->fill_random) {
            if (ftruncate(fd, (off_t)o->create_size) < 0) {
                ret = -errno;
                snprintf(err, errlen, "%s: ftruncate: %s", path, strerror(errno));
            } else {
                ret = fill_file(fd, o->create_size, o->seed, path, err, errlen);
            }
        }
    } else if (o->fill_random) {
        ret = fill_file(fd, o->create_size, o->seed, path, err, errlen);
    } else {
        ret = posix_fallocate(fd, 0, (off_t)o->create_size);
        if (ret == EOPNOTSUPP || ret == EINVAL)
            ret = ftruncate(fd, (off_t)o->create_size) < 0 ? errno : 0;
        if (ret) {
            snprintf(err, errlen, "%s: cannot allocate %llu bytes: %s%s", path,
                     (unsigned long long)o->create_size, strerror(ret),
                     ret == ENOSPC ? " (the file system is full; use a smaller --size)" : "");
            ret = -ret;
        }
    }
    if (ret == 0)
        target_mark_ours(fd); /* best effort: a file system may refuse */
    if (ret == 0 && (io_flags(o) & (O_DSYNC | O_SYNC | O_ACCMODE)) != O_RDWR) {
        int nfd = reopen_fd(fd, io_flags(o));
        if (nfd < 0) {
            ret = -errno;
            snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
        } else {
            close(fd);
            t->fd = nfd;
        }
    }
    if (ret == 0)
        ret = probe_fd(t->fd, &t->info, err, errlen);
    /* fallocate=none/keep: the file grows as it is written (fio's size) */
    if (ret == 0 && o->alloc != FALLOC_UNSET && t->info.size < o->create_size)
        t->info.size = o->create_size;
    if (ret == 0)
        ret = final_flags(t, o->direct, err, errlen);
    if (ret < 0) {
        close_target(t);
        target_unlink_same(path, &st);
    }
    return ret;
}

/* fio's layout of an existing file shorter than the job's region: grows it
 * from size to o->extend_to. Opened for writing, the guard has judged it;
 * otherwise only ssdbench's own file grows (through a read-write reopen),
 * keeping its mark. Growing writes only past the end: no data is lost. */
static int extend_file(int fd, const struct target_open_opts *o, uint64_t size, const char *path,
                       char *err, size_t errlen)
{
    bool ours = target_fd_is_ours(fd);
    if (!o->write && !ours)
        return 0;
    int wfd = o->write ? fd : reopen_fd(fd, O_RDWR);
    if (wfd < 0)
        return 0; /* not writable here: the region ends with the file, as before */
    int ret = 0;
    if (o->fill_random) {
        ret = fill_range(wfd, size, o->extend_to, o->seed, path, err, errlen);
    } else if (ftruncate(wfd, (off_t)o->extend_to) < 0) {
        ret = -errno;
        snprintf(err, errlen, "%s: cannot extend to %llu bytes: %s", path,
                 (unsigned long long)o->extend_to, strerror(errno));
    }
    if (ret == 0 && ours)
        target_mark_ours(wfd);
    if (wfd != fd)
        close(wfd);
    return ret;
}

/* A character device of a passthrough engine: the block device it
 * addresses is opened first as the target would be (O_EXCL for writing,
 * judged by the guard, probed for size and identity) and held; then the
 * node itself, checked to be the one looked at. */
static int open_chardev(struct target *t, const char *path, const struct stat *st, bool follow,
                        const struct target_open_opts *o, char *err, size_t errlen)
{
    char blk[TARGET_PATH_MAX], why[256];
    dev_t bdev;
    if (chardev_block(st->st_rdev, blk, sizeof(blk), &bdev, why, sizeof(why)) < 0) {
        snprintf(err, errlen, "%s: %s", path, why);
        return -EINVAL;
    }
    struct target_open_opts bo = *o;
    bo.chardev = false;
    bo.create_size = 0;
    bo.direct = false;
    struct target b;
    char berr[768];
    int ret = target_open(&b, blk, &bo, berr, sizeof(berr));
    if (ret < 0) {
        snprintf(err, errlen, "%s addresses %s: %s", path, blk, berr);
        t->busy = b.busy;
        t->info.major = b.info.major;
        t->info.minor = b.info.minor;
        return ret;
    }
    struct stat bst;
    if (b.info.kind != TARGET_BLOCK || fstat(b.fd, &bst) < 0 || bst.st_rdev != bdev) {
        snprintf(err, errlen, "%s: %s is not the block device sysfs names for it", path, blk);
        close_target(&b);
        return -EPERM;
    }
    int fd = open(path, (o->write ? O_RDWR : O_RDONLY) | O_CLOEXEC | O_NOCTTY | (follow ? 0 : O_NOFOLLOW));
    struct stat cst;
    if (fd < 0 || fstat(fd, &cst) < 0 || !S_ISCHR(cst.st_mode) || cst.st_rdev != st->st_rdev) {
        snprintf(err, errlen, "%s: cannot open%s: %s", path, o->write ? " for writing" : "",
                 fd < 0 ? strerror(errno) : "it changed while being opened");
        if (fd >= 0)
            close(fd);
        close_target(&b);
        return -EPERM;
    }
    *t = b;
    snprintf(t->info.path, sizeof(t->info.path), "%s", path);
    snprintf(t->info.resolved, sizeof(t->info.resolved), "%s", path);
    t->chardev = true;
    t->hold_fd = b.fd;
    t->fd = fd;
    t->write = o->write;
    return 0;
}

int target_open(struct target *t, const char *path, const struct target_open_opts *o,
                char *err, size_t errlen)
{
    memset(t, 0, sizeof(*t));
    t->fd = -1;
    t->hold_fd = -1;
    t->info.rotational = -1;
    t->write = o->write;
    snprintf(t->info.path, sizeof(t->info.path), "%s", path);
    snprintf(t->info.resolved, sizeof(t->info.resolved), "%s", path);
    struct stat st;
    bool follow;
    int ret = look(path, &st, &follow, o->chardev, err, errlen);
    if (ret == 0 && S_ISCHR(st.st_mode))
        return open_chardev(t, path, &st, follow, o, err, errlen);
    if (ret == -ENOENT) {
        if (!o->create_size) {
            snprintf(err, errlen, "%s: no such file or device", path);
            return -ENOENT;
        }
        /* a mistyped device name is not a file to create in RAM */
        if (target_pseudo_place(path)) {
            snprintf(err, errlen, "%s: no such device (ssdbench creates no file under /dev, /proc or /sys)",
                     path);
            return -ENOENT;
        }
        return create_file(t, path, o, err, errlen);
    }
    if (ret < 0)
        return ret;
    int flags = io_flags(o) | O_NONBLOCK | O_NOCTTY | O_CLOEXEC | (follow ? 0 : O_NOFOLLOW);
    bool excl = o->write && S_ISBLK(st.st_mode);
    if (excl)
        flags |= O_EXCL;
    /* as fio: no access-time update of a device node on every read (it
     * costs a relatime check per I/O); EPERM (not the owner) drops it */
    if (S_ISBLK(st.st_mode))
        flags |= O_NOATIME;
    t->fd = open(path, flags);
    if (t->fd < 0 && errno == EPERM && (flags & O_NOATIME)) {
        flags &= ~O_NOATIME;
        t->fd = open(path, flags);
    }
    int e = t->fd < 0 ? errno : 0;
    /* A device this process just closed can stay claimed for a moment (an
     * io_uring instance drops its files asynchronously): retry a busy
     * device for up to 2 s unless a mount, swap or holder explains it. */
    bool explained = false;
    for (int i = 0; e == EBUSY && excl && i < 100 &&
                    !(explained = guard_explain_busy(st.st_rdev, path, err, errlen));
         i++) {
        struct timespec ts = {.tv_sec = 0, .tv_nsec = 20000000};
        nanosleep(&ts, NULL);
        t->fd = open(path, flags);
        e = t->fd < 0 ? errno : 0;
    }
    if (t->fd < 0) {
        if (e == EBUSY && excl) {
            t->busy = true;
            t->info.kind = TARGET_BLOCK;
            t->info.major = major(st.st_rdev);
            t->info.minor = minor(st.st_rdev);
            if (!explained)
                guard_explain_busy(st.st_rdev, path, err, errlen);
            return -EPERM;
        }
        if (e == ELOOP && !follow) {
            snprintf(err, errlen, "%s: became a symbolic link while being opened; refusing it",
                     path);
            return -EPERM;
        }
        snprintf(err, errlen, "%s: cannot open%s: %s", path, o->write ? " for writing" : "",
                 strerror(e));
        return -e;
    }
    struct stat fst;
    if (fstat(t->fd, &fst) < 0 || (!S_ISREG(fst.st_mode) && !S_ISBLK(fst.st_mode))) {
        ret = kind_error(path, fst.st_mode, err, errlen);
        close_target(t);
        return ret;
    }
    if (o->write) {
        if (S_ISBLK(fst.st_mode) && !excl) {
            snprintf(err, errlen, "%s: became a block device while being opened; refusing it", path);
            close_target(t);
            return -EPERM;
        }
        ret = guard_check_fd(t->fd, &fst, path, o->consent, &t->ours, err, errlen);
        if (ret < 0) {
            close_target(t);
            return ret;
        }
        if (errlen && err[0]) { /* allowed, with a note: the result keeps it */
            snprintf(t->info.guard_note, sizeof(t->info.guard_note), "%s", err);
            err[0] = 0;
        }
    }
    if (S_ISREG(fst.st_mode) && o->extend_to > (uint64_t)fst.st_size) {
        ret = extend_file(t->fd, o, (uint64_t)fst.st_size, path, err, errlen);
        if (ret < 0) {
            close_target(t);
            return ret;
        }
        t->info.extended = true;
    }
    t->exclusive = excl;
    t->dev = fst.st_dev;
    t->ino = fst.st_ino;
    ret = probe_fd(t->fd, &t->info, err, errlen);
    if (ret == 0)
        ret = final_flags(t, o->direct, err, errlen);
    if (ret < 0)
        close_target(t);
    return ret;
}

int target_share(struct target *t, const char *path, const struct target *held,
                 const struct target_open_opts *o, char *err, size_t errlen)
{
    memset(t, 0, sizeof(*t));
    t->hold_fd = -1;
    t->info = held->info;
    snprintf(t->info.path, sizeof(t->info.path), "%s", path);
    t->write = o->write;
    t->chardev = held->chardev; /* the holder keeps the block device */
    /* O_NOATIME as the holder has it (a device node, as fio opens it):
     * without it every read of a block device pays touch_atime's
     * relatime check */
    int hfl = fcntl(held->fd, F_GETFL);
    int noatime = hfl >= 0 ? (hfl & O_NOATIME) : 0;
    t->fd = reopen_fd(held->fd, (io_flags(o) & ~(t->chardev ? O_DIRECT : 0)) | noatime);
    if (t->fd < 0 && errno == EPERM && noatime)
        t->fd = reopen_fd(held->fd, io_flags(o) & ~(t->chardev ? O_DIRECT : 0));
    if (t->fd < 0) {
        snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
        return -errno;
    }
    int ret = final_flags(t, o->direct, err, errlen);
    if (ret < 0)
        close_target(t);
    return ret;
}

int target_check_write(const char *path, const struct guard_consent *c, char *err,
                       size_t errlen)
{
    struct target t;
    struct target_open_opts o = {.write = true, .consent = c};
    int rc = target_open(&t, path, &o, err, errlen);
    if (rc == -ENOENT)
        return 0;
    close_target(&t);
    return rc;
}

void target_close(struct target *t, bool remove_created)
{
    bool remove = remove_created && t->info.created;
    if (t->fd >= 0 && t->write && t->ours && !remove && t->info.kind == TARGET_FILE)
        target_mark_ours(t->fd); /* after the last write: the mark matches what is left */
    close_target(t);
    if (remove) {
        struct stat st = {.st_dev = t->dev, .st_ino = t->ino, .st_mode = S_IFREG};
        target_unlink_same(t->info.path, &st);
    }
}
