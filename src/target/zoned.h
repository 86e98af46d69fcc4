/* zoned.h - zoned block devices (host-managed and host-aware, queue/zoned)
 * as targets: which writes they refuse and how they are purged.
 *
 * A host-managed device accepts writes only at each sequential zone's write
 * pointer. A job that writes to one without zonemode=zbd (base/zbd.h) is
 * refused before it starts, with one line, rather than failing I/O by I/O.
 * For zonemode=zbd the zones and their write pointers come from
 * BLKREPORTZONE and single zones are reset with BLKRESETZONE. A purge resets every zone (BLKRESETZONE over the
 * whole device), which empties the zones and moves their write pointers back
 * to the start; a discard does neither on such a device.
 */
#ifndef SSDBENCH_ZONED_H
#define SSDBENCH_ZONED_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "target/target.h"

/* queue/zoned of the target is host-managed or host-aware. */
bool zoned_is_zoned(const struct target_info *ti);
/* 0, or -EPERM with "job 'NAME': PATH is a host-managed zoned device..." for
 * a writing job on a host-managed device. */
int zoned_check_write(const struct target_info *ti, const char *job, char *err, size_t errlen);
/* Resets every zone of the zoned device behind fd ([0, size) bytes): 0 with
 * the number of zones in *zones (from sysfs; 0 when unknown), or -errno with
 * a one-line message naming path. */
/* The zones of the device behind fd (BLKREPORTZONE): *zones and *open
 * (zones implicitly or explicitly open) allocated with *n entries; the
 * caller frees both. 0, or -errno with a one-line message naming path. */
struct zbd_zone;
int zoned_report(int fd, const char *path, struct zbd_zone **zones, bool **open, unsigned *n, char *err,
                 size_t errlen);
/* queue/max_open_zones of the device (0: no limit or unknown). */
unsigned zoned_max_open(const struct target_info *ti);
/* Resets the zone of len bytes at start (BLKRESETZONE): 0 or -errno. */
int zoned_reset_zone(int fd, uint64_t start, uint64_t len);
int zoned_reset_all(int fd, const struct target_info *ti, const char *path, unsigned *zones,
                    char *err, size_t errlen);
#endif
