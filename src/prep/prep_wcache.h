/* prep_wcache.h - setting a device's volatile write cache for a test and
 * putting it back afterwards (SNIA PTS: WCD for Enterprise, WCE for
 * Client).
 *
 * Where the device has its own command (NVMe Set Features 06h, ATA SET
 * FEATURES 02h / 82h, SCSI Caching mode page WCE; device/device_purge.h)
 * that changes the cache itself. Elsewhere (loop, zram, virtio, dm, or a
 * device that refuses) the block layer's /sys/block/X/queue/write_cache
 * is the fallback: "write through" only makes the kernel stop sending
 * flushes, the device's cache (if any) is not touched, and the record says
 * so. The state before, during and after is recorded; wcache_restore puts
 * back what was there (the run calls it on every way out, including a stop
 * signal, which only sets the signal flag and lets the run return).
 */
#ifndef SSDBENCH_PREP_WCACHE_H
#define SSDBENCH_PREP_WCACHE_H

#include <stdbool.h>
#include <stddef.h>

#include "device/device.h"
#include "device/device_purge.h"
#include "prep/prep_wcstate.h"

/* Sets path's write cache to enable (ops NULL: the real ioctls). Returns
 * 0 when it is set (s->via says how), 1 when it could not be set (s->note
 * says why; nothing changed), -errno on error with a message.
 *
 * The cache is the whole disk's: under a partition whose disk, or a
 * sibling partition, is in use (guard_in_use on the whole disk: mounts,
 * swap, holders, loops over it, writers) it is left as it is (1, the note says why). The state
 * before is written down (prep_wcjournal.h) before anything changes;
 * a record an earlier run left on this disk is put back first
 * (s->recovered says so), and a record of a run still alive keeps the
 * cache as it is. */
int wcache_apply(const char *path, bool enable, const struct devio_ops *ops, struct wcache_state *s,
                 char *err, size_t errlen);

/* Leaves path's write cache as it is (--write-cache keep), but first puts
 * back a record an earlier run left on its disk (s->recovered says so).
 * 0, or -errno with a message when path cannot be probed. */
int wcache_keep(const char *path, struct wcache_state *s, char *err, size_t errlen);

/* Puts back what wcache_apply changed; 0, or -errno with a message. */
int wcache_restore(struct wcache_state *s, char *err, size_t errlen);

#endif
