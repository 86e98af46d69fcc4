/* chardev_map.c - the block device behind an NVMe generic or SCSI generic
 * character device, from sysfs (see chardev_map.h). */
#include <dirent.h>
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "base/sysfs_attr.h"
#include "target/chardev_map.h"

int chardev_ng_disk(const char *ng, char *disk, size_t len)
{
    unsigned ctrl, ns;
    int used = 0;
    if (sscanf(ng, "ng%un%u%n", &ctrl, &ns, &used) != 2 || ng[used] || strchr(ng, 'c'))
        return -1;
    snprintf(disk, len, "nvme%un%u", ctrl, ns);
    return 0;
}

/* The disk's device number from /sys/class/block/NAME/dev */
static int disk_dev(const char *name, dev_t *bdev)
{
    char dir[128], val[32];
    unsigned ma, mi;
    snprintf(dir, sizeof(dir), "/sys/class/block/%s", name);
    if (!sysfs_attr(dir, "dev", val, sizeof(val)) || sscanf(val, "%u:%u", &ma, &mi) != 2)
        return -1;
    *bdev = makedev(ma, mi);
    return 0;
}

int chardev_block(dev_t rdev, char *path, size_t len, dev_t *bdev, char *why, size_t whylen)
{
    char node[96], real[PATH_MAX], sub[PATH_MAX + 16], subreal[PATH_MAX];
    snprintf(node, sizeof(node), "/sys/dev/char/%u:%u", major(rdev), minor(rdev));
    if (!realpath(node, real)) {
        snprintf(why, whylen, "character device %u:%u is not in sysfs", major(rdev), minor(rdev));
        return -ENODEV;
    }
    snprintf(sub, sizeof(sub), "%s/subsystem", real);
    const char *cls = realpath(sub, subreal) ? basename(subreal) : "?";
    const char *name = basename(real);
    char disk[64] = "";
    if (!strcmp(cls, "nvme-generic")) {
        if (chardev_ng_disk(name, disk, sizeof(disk)) < 0) {
            snprintf(why, whylen, "%s is a per-path NVMe generic device; use the namespace's ngXnY", name);
            return -ENODEV;
        }
    } else if (!strcmp(cls, "scsi_generic")) {
        char bdir[PATH_MAX + 32];
        snprintf(bdir, sizeof(bdir), "%s/device/block", real);
        DIR *d = opendir(bdir);
        struct dirent *de;
        while (d && (de = readdir(d)))
            if (de->d_name[0] != '.') {
                snprintf(disk, sizeof(disk), "%s", de->d_name);
                break;
            }
        if (d)
            closedir(d);
        if (!disk[0]) {
            snprintf(why, whylen, "%s addresses no disk (a SCSI device without a block device)", name);
            return -ENODEV;
        }
    } else {
        snprintf(why, whylen, "%s is neither an NVMe generic (ngXnY) nor a SCSI generic (sgN) device",
                 name);
        return -ENODEV;
    }
    if (disk_dev(disk, bdev) < 0) {
        snprintf(why, whylen, "%s: its disk %s is not in sysfs", name, disk);
        return -ENODEV;
    }
    snprintf(path, len, "/dev/%s", disk);
    return 0;
}
