/* guard.h - the destructive-write guard.
 *
 * Before ssdbench writes to anything, every target passes through here, and
 * always as an open descriptor: target_open (target.h) opens the path once
 * (block devices O_EXCL, regular files O_NOFOLLOW unless the user named a
 * link) and hands that descriptor to guard_check_fd; the checks run on the
 * descriptor the writes then go through, so nothing can be swapped in
 * between. Reading is always allowed.
 *
 * A target is refused, consent or not, when it is in use anywhere in its
 * storage stack (guard_in_use; inuse_walk.h): mounted in any mount
 * namespace, swap, held (LVM, md, dm), under a loop device, written by
 * another process with or without a descriptor, or open exclusively
 * elsewhere (the O_EXCL open failed). A block device is refused
 * unless consented when it carries a signature: anything libblkid recognises
 * on it or its partitions (file system, partition table, RAID/LVM member),
 * or a GPT header or md superblock at its end. A regular file is writable
 * when ssdbench's mark on it is intact (see target_fd_is_ours) or with
 * consent. Consent names the exact device or file in a destroy option; it is
 * matched by identity (device number, or device and inode), not by string.
 * The refusal message says what was found and, when consent would help,
 * which option overrides it.
 */
#ifndef SSDBENCH_GUARD_H
#define SSDBENCH_GUARD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>

#define GUARD_MAX_CONSENT 64

struct guard_consent {
    unsigned n;
    const char *paths[GUARD_MAX_CONSENT]; /* as given to --destroy */
    const char *option;                   /* how the user spells the override, for messages */
};

/* Decides whether writes through fd may go ahead. fd is the descriptor the
 * writes will use, st its fstat; a block device must have been opened
 * O_EXCL (target_open does). path is for messages only. *ours is set when a
 * regular file carries ssdbench's intact mark. Returns 0 when allowed,
 * -EPERM with a one-line message when refused, another -errno on error. */
int guard_check_fd(int fd, const struct stat *st, const char *path,
                   const struct guard_consent *c, bool *ours, char *msg, size_t len);

/* The in-use walk every write goes through (guard_check_fd calls it first;
 * inuse_walk.h says how it is built): 0 when neither the target nor
 * anything below or beside it is in use; 1 in use, 2 the walk could not see
 * everything - both with a one-line refusal in msg that no consent
 * overrides. When it returns 0, msg holds "" or a note: what the walk could
 * not see without that stopping the write (guard_check_fd prints it on
 * stderr when the write goes ahead). fd is the descriptor to be written (-1:
 * none, a device whose O_EXCL open failed). */
int guard_in_use(int fd, const struct stat *st, const char *path, char *msg, size_t len);

/* The message for a block device whose O_EXCL open failed with EBUSY: names
 * the mount (any namespace), swap or holder when one is found (then true). */
bool guard_explain_busy(dev_t rdev, const char *path, char *msg, size_t len);

/* True when a consent path names the same device (block) or the same inode
 * (regular file) as st. */
bool guard_consented_st(const struct stat *st, const struct guard_consent *c);

/* Looks for signatures at the end of a device of size bytes that a probe
 * from the start misses: a backup GPT header on the last LBA (512 and 4096
 * byte sectors) and an md 1.0 superblock. True with a description in what. */
bool guard_end_signature(int fd, uint64_t size, char *what, size_t len);

#endif
