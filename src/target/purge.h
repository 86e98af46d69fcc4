/* purge.h - returning a target to an as-if-never-written state before a test
 * (SNIA PTS purge, the reviews' secure erase), and discarding the unused part
 * of a device so it can serve as spare area (over-provisioning by active
 * range).
 *
 * The kernel offers no portable secure erase, so this tries, in order, what
 * the block layer has: secure discard (BLKSECDISCARD), discard (BLKDISCARD),
 * then a zero fill (BLKZEROOUT, else plain writes of zeroes). A regular file
 * is purged by punching out its blocks, else by writing zeroes. The report
 * says which method worked and why the stronger ones did not, because a
 * result must state how (and whether) the device was purged.
 *
 * A zoned block device is purged by resetting every zone (BLKRESETZONE),
 * which also returns the write pointers to the zones' starts.
 *
 * Every path is opened once through target_open, whose guard decides on that
 * descriptor; block devices stay held O_EXCL until done, so nothing can
 * mount them meanwhile.
 */
#ifndef SSDBENCH_PURGE_H
#define SSDBENCH_PURGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "target/guard.h"
#include "target/target.h"
#include "target/target_opts.h"

enum purge_method {
    PURGE_NONE,            /* nothing done (file does not exist, empty range) */
    PURGE_SECURE_DISCARD,  /* BLKSECDISCARD */
    PURGE_DISCARD,         /* BLKDISCARD */
    PURGE_ZERO_FILL,       /* BLKZEROOUT or written zeroes */
    PURGE_PUNCH_HOLE,      /* regular file: fallocate(PUNCH_HOLE) */
    /* the device's own erase, sent by prep/prep_purge.c (device/
     * device_purge.h); this layer only names them */
    PURGE_NVME_SANITIZE_BLOCK,
    PURGE_NVME_SANITIZE_CRYPTO,
    PURGE_NVME_FORMAT_ERASE,
    PURGE_ATA_SECURITY_ERASE,
    PURGE_ATA_SANITIZE_BLOCK,
    PURGE_ATA_SANITIZE_CRYPTO,
    PURGE_SCSI_SANITIZE_BLOCK,
    PURGE_SCSI_SANITIZE_CRYPTO,
    PURGE_SCSI_FORMAT_UNIT,
    PURGE_ZONE_RESET,      /* zoned block device: every zone reset (target/zoned.h) */
};

struct purge_report {
    enum purge_method method;
    char path[TARGET_PATH_MAX];
    uint64_t offset, length;       /* the range that was purged */
    double elapsed_s;
    char notes[256];               /* what was tried first and why it failed */
};

/* Purges the whole target. Returns 0 with the method in r, -EPERM when the
 * guard refuses (message names the override), -EINTR when a signal stopped a
 * zero fill, or another -errno with a one-line message. */
int purge_target(const char *path, const struct guard_consent *c, struct purge_report *r,
                 char *err, size_t errlen);

/* Discards [offset, offset + length) of a block device (BLKDISCARD; the range
 * is shrunk to whole logical blocks). Regular files and devices without
 * discard support are refused (-EINVAL / -EOPNOTSUPP) with a message. */
int purge_discard(const char *path, uint64_t offset, uint64_t length,
                  const struct guard_consent *c, struct purge_report *r, char *err,
                  size_t errlen);

/* "none", "secure-discard", "discard", "zero-fill", "punch-hole",
 * "nvme-sanitize-block-erase", ... (the names of device_purge_cmd.h) */
const char *purge_method_name(enum purge_method m);
/* True for the device's own erase commands: a purge as SNIA PTS means it
 * (SECURITY ERASE, FORMAT UNIT, sanitize). */
bool purge_method_is_device(enum purge_method m);

/* purge_target on a target already opened for writing through the guard
 * (target_open with write): the block layer's methods on its descriptor.
 * The caller closes t. */
int purge_target_open(struct target *t, const char *path, struct purge_report *r, char *err,
                      size_t errlen);

#endif
