/* chardev_map.h - which block device a character device addresses.
 *
 * The passthrough engines write through character devices: an NVMe
 * namespace's generic device /dev/ngXnY (io_uring_cmd) and a SCSI generic
 * device /dev/sgN (sg). The guard judges the block device behind one
 * exactly as if it were the target (target.c opens and holds it), so a
 * namespace with a file system is refused through /dev/ng0n1 as through
 * /dev/nvme0n1. The mapping is the kernel's, from sysfs:
 * /sys/dev/char/MAJ:MIN names the node and its class; an nvme-generic ngXnY
 * is the namespace of the disk nvmeXnY (a per-path ngXcYnZ is not mapped),
 * a scsi_generic sgN is the disk in its device's block/ folder.
 */
#ifndef SSDBENCH_CHARDEV_MAP_H
#define SSDBENCH_CHARDEV_MAP_H

#include <stddef.h>
#include <sys/types.h>

/* The disk name an nvme-generic node's name maps to ("ng0n1" -> "nvme0n1").
 * Returns 0, or -1 for a name of another form (also ngXcYnZ). */
int chardev_ng_disk(const char *ng, char *disk, size_t len);

/* The block device the character device rdev addresses: its /dev path in
 * path and its device number in *bdev. Returns 0, or -ENODEV with the
 * reason in why (not an NVMe generic or SCSI generic node, or no disk
 * behind it, e.g. a SCSI tape or enclosure). */
int chardev_block(dev_t rdev, char *path, size_t len, dev_t *bdev, char *why, size_t whylen);

#endif
