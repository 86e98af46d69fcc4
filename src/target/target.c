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
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "core/rng.h"
#include "target/target.h"

#define OURS_XATTR "user.ssdbench"

static void read_sysfs(const char *dir, const char *name, char *out, size_t len)
{
    char p[PATH_MAX];
    out[0] = 0;
    if (snprintf(p, sizeof(p), "%s/%s", dir, name) >= (int)sizeof(p))
        return;
    FILE *f = fopen(p, "r");
    if (!f)
        return;
    if (fgets(out, (int)len, f)) {
        size_t n = strlen(out);
        while (n && (out[n - 1] == '\n' || out[n - 1] == ' '))
            out[--n] = 0;
        size_t s = 0;
        while (out[s] == ' ')
            s++;
        memmove(out, out + s, n - s + 1);
    }
    fclose(f);
}

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
    read_sysfs(dir, "model", ti->model, sizeof(ti->model));
    read_sysfs(dir, "serial", ti->serial, sizeof(ti->serial));
    if (!ti->serial[0])
        read_sysfs(dir, "wwid", ti->serial, sizeof(ti->serial));
    read_sysfs(dir, "firmware_rev", ti->firmware, sizeof(ti->firmware));
    if (!ti->firmware[0])
        read_sysfs(dir, "rev", ti->firmware, sizeof(ti->firmware));
    snprintf(dir, sizeof(dir), "%s/queue", disk);
    read_sysfs(dir, "scheduler", ti->scheduler, sizeof(ti->scheduler));
    pick_scheduler(ti->scheduler);
    read_sysfs(dir, "write_cache", ti->write_cache, sizeof(ti->write_cache));
    read_sysfs(dir, "rotational", buf, sizeof(buf));
    ti->rotational = buf[0] ? atoi(buf) : -1;
    snprintf(dir, sizeof(dir), "%s/loop", disk);
    read_sysfs(dir, "backing_file", ti->backing_file, sizeof(ti->backing_file));
    if (!ti->model[0] && ti->backing_file[0])
        snprintf(ti->model, sizeof(ti->model), "loop device");
}

static int probe_fd(int fd, struct target_info *ti, char *err, size_t errlen)
{
    struct stat st;
    if (fstat(fd, &st) < 0) {
        snprintf(err, errlen, "%s: %s", ti->path, strerror(errno));
        return -errno;
    }
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
            read_sysfs(q, "logical_block_size", buf, sizeof(buf));
            if (buf[0] && atoi(buf) > 0)
                ti->logical_block = (uint32_t)atoi(buf);
        }
    } else {
        snprintf(err, errlen, "%s: not a regular file or block device", ti->path);
        return -EINVAL;
    }
    return 0;
}

int target_probe(const char *path, struct target_info *ti, char *err, size_t errlen)
{
    memset(ti, 0, sizeof(*ti));
    ti->rotational = -1;
    snprintf(ti->path, sizeof(ti->path), "%s", path);
    if (!realpath(path, ti->resolved)) {
        int e = errno;
        snprintf(ti->resolved, sizeof(ti->resolved), "%s", path);
        if (e == ENOENT)
            return -ENOENT;
        snprintf(err, errlen, "%s: %s", path, strerror(e));
        return -e;
    }
    int fd = open(ti->resolved, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        int e = errno;
        snprintf(err, errlen, "%s: cannot open: %s", path, strerror(e));
        return -e;
    }
    int ret = probe_fd(fd, ti, err, errlen);
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

bool target_file_is_ours(const char *path)
{
    char v[8];
    return getxattr(path, OURS_XATTR, v, sizeof(v)) > 0;
}

int target_mark_ours(int fd)
{
    return fsetxattr(fd, OURS_XATTR, "1", 1, 0) < 0 ? -errno : 0;
}

/* Writes random data over the whole file in 1 MiB chunks. */
static int fill_file(int fd, uint64_t size, uint64_t seed, const char *path, char *err,
                     size_t errlen)
{
    const size_t chunk = 1u << 20;
    uint64_t *buf = malloc(chunk);
    if (!buf) {
        snprintf(err, errlen, "out of memory");
        return -ENOMEM;
    }
    struct rng r;
    rng_seed(&r, seed ^ 0x5eed5eedull);
    for (uint64_t off = 0; off < size; off += chunk) {
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

static int create_file(struct target *t, const char *path, const struct target_open_opts *o,
                       char *err, size_t errlen)
{
    int fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0) {
        snprintf(err, errlen, "%s: cannot create: %s", path, strerror(errno));
        return -errno;
    }
    t->info.created = true;
    target_mark_ours(fd); /* best effort: a file system may refuse */
    int ret = 0;
    if (o->fill_random) {
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
    close(fd);
    if (ret < 0)
        unlink(path);
    return ret;
}

int target_open(struct target *t, const char *path, const struct target_open_opts *o,
                char *err, size_t errlen)
{
    memset(t, 0, sizeof(*t));
    t->fd = -1;
    int ret = target_probe(path, &t->info, err, errlen);
    bool created = false;
    if (ret == -ENOENT) {
        if (!o->create_size) {
            snprintf(err, errlen, "%s: no such file or device", path);
            return -ENOENT;
        }
        ret = create_file(t, path, o, err, errlen);
        if (ret < 0)
            return ret;
        created = true;
        ret = target_probe(path, &t->info, err, errlen);
        t->info.created = true;
    }
    if (ret < 0)
        return ret;
    int flags = (o->write ? O_RDWR : O_RDONLY) | O_CLOEXEC;
    if (o->direct)
        flags |= O_DIRECT;
    if (o->dsync)
        flags |= O_DSYNC;
    if (o->osync)
        flags |= O_SYNC;
    t->fd = open(t->info.resolved, flags);
    if (t->fd < 0) {
        int e = errno;
        if (e == EINVAL && o->direct)
            snprintf(err, errlen,
                     "%s: the file system does not support O_DIRECT; use --direct=0", path);
        else
            snprintf(err, errlen, "%s: cannot open%s: %s", path, o->write ? " for writing" : "",
                     strerror(e));
        if (created)
            unlink(t->info.resolved);
        return -e;
    }
    return 0;
}

void target_close(struct target *t, bool remove_created)
{
    if (t->fd >= 0)
        close(t->fd);
    t->fd = -1;
    if (remove_created && t->info.created)
        unlink(t->info.resolved);
}
