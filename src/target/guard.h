/* guard.h - the destructive-write guard.
 *
 * Before ssdbench writes to anything, every target passes through here.
 * Reading is always allowed. Writing to a block device is refused when the
 * device or any partition of it is mounted, is swap, has holders (LVM, md, dm),
 * cannot be opened O_EXCL, or carries a signature libblkid recognises
 * (file system, partition table, RAID/LVM member) - unless the user named that
 * exact device (after resolving symlinks) in a destroy option. Writing into an
 * existing regular file that ssdbench did not create needs the same consent.
 * The refusal message says what was found and which option overrides it.
 */
#ifndef SSDBENCH_GUARD_H
#define SSDBENCH_GUARD_H

#include <stdbool.h>
#include <stddef.h>

#define GUARD_MAX_CONSENT 64

struct guard_consent {
    unsigned n;
    const char *paths[GUARD_MAX_CONSENT]; /* as given to --destroy */
    const char *option;                   /* how the user spells the override, for messages */
};

/* Returns 0 when writing to path is allowed, -EPERM with a one-line message
 * when it is refused, or another -errno when the path cannot be examined. A
 * missing path is allowed (ssdbench will create it). */
int guard_check_write(const char *path, const struct guard_consent *c, char *msg, size_t len);

/* True when the consent list names path (symlinks resolved on both sides). */
bool guard_consented(const char *path, const struct guard_consent *c);

#endif
