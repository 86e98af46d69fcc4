/* prep_wcjournal.h - the write cache's original state, written down
 * before it is changed, so a run that dies (kill -9, a crash, power) does
 * not leave a disk changed without a trace.
 *
 * One small record per disk in the state directory ($SSDBENCH_STATE_DIR,
 * else /run/ssdbench, made 0700): "ssdbench-wcache 1", the disk's sysfs
 * name, its diskseq (so a record never applies to another disk that
 * later got the same name), how the cache was set (kernel attribute or
 * device command), the state before, and the pid of the run. It is
 * written (and fsynced) before the change and removed once the original
 * is back. The next run that sets the write cache of that disk, and
 * `ssdbench recover`, restore a record whose run is gone and say so; a
 * record whose run is still alive means another run owns that cache now.
 * Nothing but the disk name is taken from the record to find what to
 * write: the sysfs file and the device node are derived from it.
 */
#ifndef SSDBENCH_PREP_WCJOURNAL_H
#define SSDBENCH_PREP_WCJOURNAL_H

#include <stdbool.h>
#include <stddef.h>

struct wcache_state;

/* Writes the record for s (after wcache_apply read the state before, and
 * before it changes anything). 0 or -errno with a message. */
int wcj_record(const struct wcache_state *s, char *err, size_t errlen);

/* Removes the record of disk (after the original was put back). */
void wcj_clear(const char *disk);

/* A record for disk: 0 none; 1 left by a run that is gone, and restored
 * (msg says from what to what); 2 held by a run that is alive (msg names
 * it; nothing may change the cache now); -errno when it could not be
 * restored or read (msg says why; the record is kept). */
int wcj_settle(const char *disk, char *msg, size_t len);

/* Restores every record left by a run that is gone; fn(arg, line) for
 * each (restored, stale, or failed). Returns how many were restored, or
 * -errno when one failed. */
int wcj_recover_all(void (*fn)(void *arg, const char *line), void *arg);

#endif
