/* prep_wcache.c - see prep_wcache.h. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "base/sysfs_attr.h"
#include "prep/prep_wcache.h"
#include "prep/prep_wcjournal.h"
#include "target/guard.h"
#include "target/target.h"

static void read_kernel(const struct wcache_state *s, char *out, size_t len)
{
    out[0] = 0;
    if (!s->sysfs[0])
        return;
    FILE *f = fopen(s->sysfs, "r");
    if (!f)
        return;
    if (fgets(out, (int)len, f))
        out[strcspn(out, "\n")] = 0;
    else
        out[0] = 0;
    fclose(f);
}

/* The kernel's view once it has followed the device. libata revalidates a
 * disk after a SET FEATURES write-cache command in its error handler, a
 * moment after the command completed, and only then does queue/write_cache
 * change; read at once it still says the old state. So for ATA wait (at most
 * 3 s) until it names the device's state. SCSI and NVMe do not revalidate
 * on such a command: their attribute is read as it is. */
static void read_kernel_settled(const struct wcache_state *s, int device_state, char *out, size_t len)
{
    read_kernel(s, out, len);
    if (s->di.bus != DEV_BUS_ATA || device_state < 0 || !out[0])
        return;
    const char *want = device_state ? "write back" : "write through";
    const struct timespec step = {0, 50 * 1000 * 1000};
    for (int i = 0; i < 60 && strcmp(out, want); i++) {
        nanosleep(&step, NULL);
        read_kernel(s, out, len);
    }
}

static int write_kernel(const struct wcache_state *s, const char *v)
{
    int fd = open(s->sysfs, O_WRONLY | O_CLOEXEC);
    if (fd < 0)
        return -errno;
    ssize_t w = write(fd, v, strlen(v));
    int e = w < 0 ? errno : 0;
    close(fd);
    return w < 0 ? -e : 0;
}

static int open_dev(const struct wcache_state *s)
{
    int fd = open(s->di.dev_node, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    return fd < 0 ? -errno : fd;
}

/* Before a change: the state before, on disk (a failed record changes
 * nothing). via is how it is about to be changed. */
static int wcache_note_before(struct wcache_state *s, enum wcache_via via, char *err, size_t errlen)
{
    enum wcache_via was = s->via;
    s->via = via;
    int rc = wcj_record(s, err, errlen);
    s->via = was;
    return rc;
}

/* 0 to go on; 1 (note set) when the cache must stay as it is: the disk or
 * a sibling partition is in use, or another run holds it. A record left
 * by a run that is gone is put back first (s->recovered). */
static int wcache_settle_disk(struct wcache_state *s)
{
    const char *disk = s->di.disk[0] ? s->di.disk : s->di.name;
    char dir[128], devno[32], why[512];
    snprintf(dir, sizeof(dir), "/sys/block/%s", disk);
    sysfs_attr(dir, "dev", devno, sizeof(devno));
    unsigned ma, mi;
    if (strcmp(disk, s->di.name) && sscanf(devno, "%u:%u", &ma, &mi) == 2) {
        /* the guard's in-use walk over the whole disk: mounts of any
         * partition, swap, holders, loops over it, writers; a walk that
         * cannot see everything counts as in use */
        char node[80];
        snprintf(node, sizeof(node), "/dev/%s", disk);
        struct stat dst;
        memset(&dst, 0, sizeof(dst));
        dst.st_mode = S_IFBLK | 0600;
        dst.st_rdev = makedev(ma, mi);
        if (guard_in_use(-1, &dst, node, why, sizeof(why)) != 0) {
            snprintf(s->note, sizeof(s->note),
                     "left as it was: the write cache belongs to the whole disk %s, and another part of "
                     "it is in use (%s)", disk, why);
            return 1;
        }
    }
    int rc = wcj_settle(disk, why, sizeof(why));
    if (rc == 1)
        snprintf(s->recovered, sizeof(s->recovered), "%s", why);
    if (rc == 2 || rc < 0) {
        snprintf(s->note, sizeof(s->note), "left as it was: %s", why);
        return 1;
    }
    return 0;
}

int wcache_apply(const char *path, bool enable, const struct devio_ops *ops, struct wcache_state *s,
                 char *err, size_t errlen)
{
    memset(s, 0, sizeof(*s));
    snprintf(s->path, sizeof(s->path), "%s", path);
    s->want = enable;
    s->ops = ops ? ops : devio_real();
    s->device_before = s->device_during = s->device_after = -1;
    struct target_info ti;
    int rc = target_probe(path, &ti, err, errlen);
    if (rc < 0)
        return rc;
    if (ti.kind != TARGET_BLOCK) {
        snprintf(s->note, sizeof(s->note), "not a block device: the write cache is the file system's");
        return 1;
    }
    struct device_probe_opts po = {0};
    snprintf(s->di.path, sizeof(s->di.path), "%s", path);
    if (device_probe_name(ti.devname, &po, &s->di, err, errlen) < 0)
        return -ENODEV;
    if (s->di.write_cache_path[0])
        snprintf(s->sysfs, sizeof(s->sysfs), "%s", s->di.write_cache_path);
    /* a disk's cache is changed only when nothing else on it is in use,
     * and only after what an earlier run left is put back */
    if ((rc = wcache_settle_disk(s)) != 0)
        return rc;
    read_kernel(s, s->kernel_before, sizeof(s->kernel_before));
    char e2[256] = "";
    bool device = s->di.bus == DEV_BUS_NVME || s->di.bus == DEV_BUS_ATA || s->di.bus == DEV_BUS_SCSI;
    if (device) {
        int fd = open_dev(s);
        if (fd >= 0) {
            s->device_before = devwc_get(fd, &s->di, s->ops);
            if (s->device_before < 0) {
                snprintf(e2, sizeof(e2), "the device's write cache cannot be read (%s)",
                         s->device_before == -EOPNOTSUPP ? "no volatile cache or no command"
                                                         : strerror(-s->device_before));
                s->device_before = -1;
            } else if (s->device_before == (int)enable) {
                s->via = WCACHE_DEVICE;
                s->device_during = s->device_before;
            } else if (wcache_note_before(s, WCACHE_DEVICE, e2, sizeof(e2)) == 0 &&
                       devwc_set(fd, &s->di, s->ops, enable, e2, sizeof(e2)) == 0) {
                s->via = WCACHE_DEVICE;
                s->changed = true;
                int now = devwc_get(fd, &s->di, s->ops);
                s->device_during = now < 0 ? (int)enable : now;
            }
            close(fd);
        } else {
            snprintf(e2, sizeof(e2), "%s: %s", s->di.dev_node, strerror(-fd));
        }
        if (s->via == WCACHE_DEVICE) {
            snprintf(s->note, sizeof(s->note), "set on the device (%s)",
                     s->di.bus == DEV_BUS_NVME ? "NVMe Set Features 06h"
                     : s->di.bus == DEV_BUS_ATA ? "ATA SET FEATURES" : "SCSI Caching mode page");
            read_kernel_settled(s, s->changed ? s->device_during : -1, s->kernel_during,
                                sizeof(s->kernel_during));
            return 0;
        }
    }
    /* the block layer's attribute */
    if (!s->sysfs[0]) {
        snprintf(s->note, sizeof(s->note), "%s%sno queue/write_cache attribute", e2, e2[0] ? "; " : "");
        return 1;
    }
    const char *want = enable ? "write back" : "write through";
    if (strcmp(s->kernel_before, want)) {
        char je[256];
        if (wcache_note_before(s, WCACHE_KERNEL, je, sizeof(je)) < 0) {
            snprintf(s->note, sizeof(s->note), "left as it was: %s", je);
            return 1;
        }
        rc = write_kernel(s, want);
        if (rc < 0) {
            snprintf(s->note, sizeof(s->note), "%s%s%s: %s", e2, e2[0] ? "; " : "", s->sysfs, strerror(-rc));
            return 1;
        }
        s->changed = true;
    }
    read_kernel(s, s->kernel_during, sizeof(s->kernel_during));
    if (strcmp(s->kernel_during, want)) {
        snprintf(s->note, sizeof(s->note), "%s reads '%s' after writing '%s'", s->sysfs,
                 s->kernel_during, want);
        wcache_restore(s, err, errlen);
        return 1;
    }
    s->via = WCACHE_KERNEL;
    snprintf(s->note, sizeof(s->note),
             "set in the kernel (%s): this only changes whether the kernel sends flushes; the "
             "device's own cache is not changed%s%s",
             s->sysfs, e2[0] ? "; " : "", e2);
    return 0;
}

int wcache_keep(const char *path, struct wcache_state *s, char *err, size_t errlen)
{
    memset(s, 0, sizeof(*s));
    snprintf(s->path, sizeof(s->path), "%s", path);
    s->device_before = s->device_during = s->device_after = -1;
    struct target_info ti;
    int rc = target_probe(path, &ti, err, errlen);
    if (rc < 0 || ti.kind != TARGET_BLOCK)
        return rc < 0 ? rc : 0;
    struct device_probe_opts po = {0};
    snprintf(s->di.path, sizeof(s->di.path), "%s", path);
    if (device_probe_name(ti.devname, &po, &s->di, err, errlen) < 0)
        return 0;
    char why[512];
    if (wcj_settle(s->di.disk[0] ? s->di.disk : s->di.name, why, sizeof(why)) == 1)
        snprintf(s->recovered, sizeof(s->recovered), "%s", why);
    return 0;
}

int wcache_restore(struct wcache_state *s, char *err, size_t errlen)
{
    int rc = 0;
    if (s->changed && s->via == WCACHE_DEVICE && s->device_before >= 0) {
        int fd = open_dev(s);
        rc = fd;
        if (fd >= 0) {
            rc = devwc_set(fd, &s->di, s->ops, s->device_before == 1, err, errlen);
            s->device_after = devwc_get(fd, &s->di, s->ops);
            close(fd);
        } else {
            snprintf(err, errlen, "%s: restoring the write cache: %s", s->di.dev_node, strerror(-fd));
        }
    } else if (s->changed && s->sysfs[0] && s->kernel_before[0]) {
        rc = write_kernel(s, s->kernel_before);
        if (rc < 0)
            snprintf(err, errlen, "%s: restoring '%s': %s", s->sysfs, s->kernel_before, strerror(-rc));
    }
    if (s->changed && s->via == WCACHE_DEVICE && rc == 0)
        read_kernel_settled(s, s->device_after, s->kernel_after, sizeof(s->kernel_after));
    else
        read_kernel(s, s->kernel_after, sizeof(s->kernel_after));
    if (s->via != WCACHE_DEVICE)
        s->device_after = s->device_before;
    s->restored = rc == 0;
    s->changed = false;
    if (rc == 0)
        wcj_clear(s->di.disk[0] ? s->di.disk : s->di.name);
    return rc;
}
