/* zoned.c - see zoned.h. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <linux/blkzoned.h>

#include "base/sysfs_attr.h"
#include "target/zoned.h"

bool zoned_is_zoned(const struct target_info *ti)
{
    return !strcmp(ti->zoned, "host-managed") || !strcmp(ti->zoned, "host-aware");
}

int zoned_check_write(const struct target_info *ti, const char *job, char *err, size_t errlen)
{
    if (strcmp(ti->zoned, "host-managed"))
        return 0;
    snprintf(err, errlen,
             "job '%s': %s is a host-managed zoned device (writes only at each zone's write "
             "pointer); ssdbench has no zonemode=zbd, so jobs that write to it are refused",
             job, ti->path);
    return -EPERM;
}

int zoned_reset_all(int fd, const struct target_info *ti, const char *path, unsigned *zones,
                    char *err, size_t errlen)
{
    struct blk_zone_range r = {.sector = 0, .nr_sectors = ti->size / 512};
    *zones = 0;
    if (ioctl(fd, BLKRESETZONE, &r) < 0) {
        int e = errno;
        snprintf(err, errlen, "%s: resetting the zones (BLKRESETZONE): %s", path, strerror(e));
        return -e;
    }
    char dir[PATH_MAX], b[32];
    snprintf(dir, sizeof(dir), "/sys/class/block/%s/queue", ti->devname);
    sysfs_attr(dir, "nr_zones", b, sizeof(b));
    *zones = b[0] ? (unsigned)strtoul(b, NULL, 10) : 0;
    return 0;
}
