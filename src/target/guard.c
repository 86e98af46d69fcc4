/* guard.c - see guard.h. Every check resolves the path to its device number
 * first, so /dev/disk/by-id links, /dev/mapper names and partitions cannot
 * slip past a string comparison. */
#include <blkid/blkid.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "target/guard.h"
#include "target/target.h"

bool guard_consented(const char *path, const struct guard_consent *c)
{
    char a[PATH_MAX], b[PATH_MAX];
    if (!c || !realpath(path, a))
        return false;
    for (unsigned i = 0; i < c->n; i++)
        if (realpath(c->paths[i], b) && strcmp(a, b) == 0)
            return true;
    return false;
}

/* sysfs directory of a block device and the names of its partitions. */
struct devnode {
    char sysdir[PATH_MAX];
    char name[64];
    dev_t dev;
};

static int sysfs_dir(dev_t dev, struct devnode *n)
{
    char link[64];
    snprintf(link, sizeof(link), "/sys/dev/block/%u:%u", major(dev), minor(dev));
    if (!realpath(link, n->sysdir))
        return -errno;
    const char *s = strrchr(n->sysdir, '/');
    snprintf(n->name, sizeof(n->name), "%s", s ? s + 1 : n->sysdir);
    n->dev = dev;
    return 0;
}

/* Lists the device itself plus its partitions (subdirectories with a "dev"). */
static unsigned list_nodes(dev_t dev, struct devnode *out, unsigned max)
{
    unsigned n = 0;
    if (sysfs_dir(dev, &out[0]) < 0)
        return 0;
    n = 1;
    char top[PATH_MAX];
    snprintf(top, sizeof(top), "%s", out[0].sysdir);
    DIR *d = opendir(top);
    if (!d)
        return n;
    struct dirent *e;
    while ((e = readdir(d)) && n < max) {
        if (e->d_name[0] == '.')
            continue;
        char f[PATH_MAX + 300];
        snprintf(f, sizeof(f), "%s/%s/partition", top, e->d_name);
        if (access(f, F_OK) != 0)
            continue;
        snprintf(f, sizeof(f), "%s/%s/dev", top, e->d_name);
        FILE *fp = fopen(f, "r");
        unsigned ma, mi;
        if (fp && fscanf(fp, "%u:%u", &ma, &mi) == 2) {
            struct devnode *p = &out[n];
            snprintf(p->sysdir, sizeof(p->sysdir), "%s/%s", top, e->d_name);
            snprintf(p->name, sizeof(p->name), "%s", e->d_name);
            p->dev = makedev(ma, mi);
            n++;
        }
        if (fp)
            fclose(fp);
    }
    closedir(d);
    return n;
}

static bool find_mount(const struct devnode *n, char *where, size_t len)
{
    FILE *f = fopen("/proc/self/mountinfo", "r");
    if (!f)
        return false;
    char line[4096];
    bool found = false;
    while (fgets(line, sizeof(line), f)) {
        unsigned ma, mi;
        char mnt[PATH_MAX];
        if (sscanf(line, "%*s %*s %u:%u %*s %4095s", &ma, &mi, mnt) == 3 &&
            makedev(ma, mi) == n->dev) {
            snprintf(where, len, "%s", mnt);
            found = true;
            break;
        }
    }
    fclose(f);
    return found;
}

static bool is_swap(const struct devnode *n)
{
    FILE *f = fopen("/proc/swaps", "r");
    if (!f)
        return false;
    char line[4096], path[PATH_MAX];
    bool found = false;
    while (fgets(line, sizeof(line), f)) {
        struct stat st;
        if (sscanf(line, "%4095s", path) == 1 && stat(path, &st) == 0 && S_ISBLK(st.st_mode) &&
            st.st_rdev == n->dev)
            found = true;
    }
    fclose(f);
    return found;
}

static bool holder(const struct devnode *n, char *who, size_t len)
{
    char h[PATH_MAX + 16];
    snprintf(h, sizeof(h), "%s/holders", n->sysdir);
    DIR *d = opendir(h);
    if (!d)
        return false;
    struct dirent *e;
    bool found = false;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        snprintf(who, len, "%s", e->d_name);
        found = true;
        break;
    }
    closedir(d);
    return found;
}

/* Asks libblkid for any file system, RAID/LVM member or partition table. */
static bool signature(const char *devpath, char *what, size_t len)
{
    blkid_probe pr = blkid_new_probe_from_filename(devpath);
    if (!pr)
        return false;
    blkid_probe_enable_superblocks(pr, 1);
    blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_TYPE | BLKID_SUBLKS_USAGE);
    blkid_probe_enable_partitions(pr, 1);
    blkid_probe_set_partitions_flags(pr, BLKID_PARTS_MAGIC);
    bool found = false;
    if (blkid_do_safeprobe(pr) == 0) {
        const char *type = NULL, *usage = NULL, *pttype = NULL;
        blkid_probe_lookup_value(pr, "TYPE", &type, NULL);
        blkid_probe_lookup_value(pr, "USAGE", &usage, NULL);
        blkid_probe_lookup_value(pr, "PTTYPE", &pttype, NULL);
        if (pttype) {
            snprintf(what, len, "a %s partition table", pttype);
            found = true;
        } else if (type) {
            const char *kind = "signature";
            if (usage && strcmp(usage, "filesystem") == 0)
                kind = "file system";
            else if (usage && strcmp(usage, "raid") == 0)
                kind = "RAID/LVM member signature";
            else if (usage && strcmp(usage, "crypto") == 0)
                kind = "encrypted volume signature";
            else if (usage && strcmp(usage, "other") == 0)
                kind = "signature";
            snprintf(what, len, "a %s %s", type, kind);
            found = true;
        }
    }
    blkid_free_probe(pr);
    return found;
}

static int refuse(char *msg, size_t len, const char *path, const char *found,
                  const struct guard_consent *c)
{
    snprintf(msg, len, "refusing to write to %s: %s; to destroy its contents, add %s=%s", path,
             found, c && c->option ? c->option : "--destroy", path);
    return -EPERM;
}

static int check_block(const char *path, const char *resolved, dev_t dev,
                       const struct guard_consent *c, char *msg, size_t len)
{
    struct devnode nodes[128];
    unsigned n = list_nodes(dev, nodes, 128);
    char found[PATH_MAX + 64], where[PATH_MAX];
    for (unsigned i = 0; i < n; i++) {
        const char *what = i == 0 ? "it" : nodes[i].name;
        if (find_mount(&nodes[i], where, sizeof(where))) {
            snprintf(found, sizeof(found), "%s is mounted on %s", i == 0 ? resolved : nodes[i].name,
                     where);
            return refuse(msg, len, path, found, c);
        }
        if (is_swap(&nodes[i])) {
            snprintf(found, sizeof(found), "%s is in use as swap", i == 0 ? resolved : what);
            return refuse(msg, len, path, found, c);
        }
        if (holder(&nodes[i], where, sizeof(where))) {
            snprintf(found, sizeof(found), "%s is held by %s (LVM, md or device-mapper)",
                     i == 0 ? resolved : nodes[i].name, where);
            return refuse(msg, len, path, found, c);
        }
    }
    /* Mounted or held devices were reported above with a better reason; O_EXCL
     * catches every other exclusive user the kernel knows of. */
    int fd = open(resolved, O_RDONLY | O_EXCL | O_CLOEXEC);
    if (fd < 0) {
        if (errno == EBUSY) {
            snprintf(found, sizeof(found), "it is in use (exclusive open failed: device busy)");
            return refuse(msg, len, path, found, c);
        }
        snprintf(msg, len, "%s: cannot open: %s", path, strerror(errno));
        return -errno;
    }
    close(fd);
    if (signature(resolved, found + 200, sizeof(found) - 200)) {
        char f2[PATH_MAX + 64];
        snprintf(f2, sizeof(f2), "it holds %s", found + 200);
        return refuse(msg, len, path, f2, c);
    }
    for (unsigned i = 1; i < n; i++) {
        char p[PATH_MAX];
        snprintf(p, sizeof(p), "/dev/%s", nodes[i].name);
        if (signature(p, found + 200, sizeof(found) - 200)) {
            char f2[PATH_MAX + 64];
            snprintf(f2, sizeof(f2), "its partition %s holds %s", nodes[i].name, found + 200);
            return refuse(msg, len, path, f2, c);
        }
    }
    return 0;
}

int guard_check_write(const char *path, const struct guard_consent *c, char *msg, size_t len)
{
    char resolved[PATH_MAX];
    if (!realpath(path, resolved)) {
        if (errno == ENOENT)
            return 0;
        snprintf(msg, len, "%s: %s", path, strerror(errno));
        return -errno;
    }
    struct stat st;
    if (stat(resolved, &st) < 0) {
        snprintf(msg, len, "%s: %s", path, strerror(errno));
        return -errno;
    }
    if (S_ISBLK(st.st_mode)) {
        /* Naming the exact device is the one override; in-use checks that
         * would make the write fail anyway (mounted, O_EXCL) still apply. */
        if (guard_consented(path, c)) {
            char where[PATH_MAX];
            struct devnode nodes[128];
            unsigned n = list_nodes(st.st_rdev, nodes, 128);
            for (unsigned i = 0; i < n; i++)
                if (find_mount(&nodes[i], where, sizeof(where))) {
                    snprintf(msg, len,
                             "refusing to write to %s: %s is mounted on %s; unmount it first",
                             path, i == 0 ? resolved : nodes[i].name, where);
                    return -EPERM;
                }
            return 0;
        }
        return check_block(path, resolved, st.st_rdev, c, msg, len);
    }
    if (S_ISREG(st.st_mode)) {
        if (guard_consented(path, c) || target_file_is_ours(resolved))
            return 0;
        char found[PATH_MAX + 64];
        snprintf(found, sizeof(found), "it is an existing file of %lld bytes that ssdbench did not create",
                 (long long)st.st_size);
        return refuse(msg, len, path, found, c);
    }
    snprintf(msg, len, "%s: not a regular file or block device", path);
    return -EINVAL;
}
