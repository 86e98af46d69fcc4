/* inuse_walk.h - "in use" as a property of the storage, not of a name: the
 * walk guard_in_use (guard.h) runs for every write. From the target's
 * identity (device number, or device and inode) it builds the stack below
 * and beside it - a partition's whole disk and the partitions overlapping
 * it, a loop device's backing file or device (by LOOP_GET_STATUS64, never
 * the sysfs path), a mapped device's components - and then looks for every
 * use of any of them from above: mounts in any mount namespace, swap,
 * sysfs holders, loop devices over them at any offset, and other
 * processes' descriptors open for writing, writable shared mappings and
 * io_uring registered files (inuse_proc.h). For a regular file the
 * kernel's own count of openers (a write lease that cannot be taken while
 * anyone else has the file open) decides first. What the walk could not
 * see is a verdict of its own, never a pass. See docs/design.md, "Safety". */
#ifndef SSDBENCH_INUSE_WALK_H
#define SSDBENCH_INUSE_WALK_H

#include <limits.h>
#include <stdint.h>
#include <sys/types.h>

/* A block device or one of its partitions as sysfs shows it. */
struct inuse_node {
    char sysdir[PATH_MAX];
    char name[64];
    dev_t dev;
    uint64_t start, size; /* partitions: bytes from the start of the disk */
    unsigned item;        /* the walk's item it belongs to */
};

/* Lists the device itself (out[0]) plus its partitions. */
unsigned inuse_list_nodes(dev_t dev, struct inuse_node *out, unsigned max);

#endif
