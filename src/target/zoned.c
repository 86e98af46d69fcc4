/* zoned.c - see zoned.h. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <linux/blkzoned.h>

#include "base/sysfs_attr.h"
#include "base/zbd.h"
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
             "pointer); a job that writes to it needs zonemode=zbd",
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

int zoned_report(int fd, const char *path, struct zbd_zone **zones, bool **open, unsigned *n, char *err,
                 size_t errlen)
{
    enum { BATCH = 256 };
    *zones = NULL;
    *open = NULL;
    *n = 0;
    unsigned cap = 0;
    struct blk_zone_report *rep = calloc(1, sizeof(*rep) + BATCH * sizeof(struct blk_zone));
    if (!rep)
        return snprintf(err, errlen, "%s: out of memory for the zone report", path), -ENOMEM;
    uint64_t sector = 0;
    int rc = 0;
    for (;;) {
        rep->sector = sector;
        rep->nr_zones = BATCH;
        if (ioctl(fd, BLKREPORTZONE, rep) < 0) {
            rc = -errno;
            snprintf(err, errlen, "%s: reading the zones (BLKREPORTZONE): %s", path, strerror(errno));
            break;
        }
        if (!rep->nr_zones)
            break;
        if (*n + rep->nr_zones > cap) {
            unsigned nc = cap ? cap * 2 : BATCH;
            while (nc < *n + rep->nr_zones)
                nc *= 2;
            struct zbd_zone *z = realloc(*zones, nc * sizeof(*z));
            bool *o = z ? realloc(*open, nc * sizeof(*o)) : NULL;
            if (z)
                *zones = z;
            if (o)
                *open = o;
            if (!z || !o) {
                rc = -ENOMEM;
                snprintf(err, errlen, "%s: out of memory for the zone report", path);
                break;
            }
            cap = nc;
        }
        for (unsigned i = 0; i < rep->nr_zones; i++) {
            const struct blk_zone *b = &rep->zones[i];
            uint64_t zcap = (rep->flags & BLK_ZONE_REP_CAPACITY) ? b->capacity : b->len;
            (*zones)[*n] = (struct zbd_zone){.start = b->start * 512, .len = b->len * 512, .cap = zcap * 512,
                                             .wp = b->wp * 512, .seq = b->type != BLK_ZONE_TYPE_CONVENTIONAL};
            /* a full zone's reported wp is not meaningful: it is at capacity */
            if (b->cond == BLK_ZONE_COND_FULL)
                (*zones)[*n].wp = (*zones)[*n].start + (*zones)[*n].cap;
            (*open)[*n] = b->cond == BLK_ZONE_COND_IMP_OPEN || b->cond == BLK_ZONE_COND_EXP_OPEN;
            (*n)++;
            sector = b->start + b->len;
        }
    }
    free(rep);
    if (rc < 0) {
        free(*zones);
        free(*open);
        *zones = NULL;
        *open = NULL;
        *n = 0;
    }
    return rc;
}

int zoned_reset_zone(int fd, uint64_t start, uint64_t len)
{
    struct blk_zone_range r = {.sector = start / 512, .nr_sectors = len / 512};
    return ioctl(fd, BLKRESETZONE, &r) < 0 ? -errno : 0;
}

unsigned zoned_max_open(const struct target_info *ti)
{
    char dir[PATH_MAX], b[32];
    snprintf(dir, sizeof(dir), "/sys/class/block/%s/queue", ti->devname);
    sysfs_attr(dir, "max_open_zones", b, sizeof(b));
    return b[0] ? (unsigned)strtoul(b, NULL, 10) : 0;
}
