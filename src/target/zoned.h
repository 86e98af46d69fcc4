/* zoned.h - zoned block devices (host-managed and host-aware, queue/zoned)
 * as targets: which writes they refuse and how they are purged.
 *
 * A host-managed device accepts writes only at each sequential zone's write
 * pointer. ssdbench has no zone-aware I/O mode (fio's zonemode=zbd), so a
 * job that writes to one is refused before it starts, with one line, rather
 * than failing I/O by I/O. A purge resets every zone (BLKRESETZONE over the
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
int zoned_reset_all(int fd, const struct target_info *ti, const char *path, unsigned *zones,
                    char *err, size_t errlen);
#endif
