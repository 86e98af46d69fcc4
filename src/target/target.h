/* target.h - opening files and block devices as benchmark targets.
 *
 * Discovers what a path is (regular file or block device), its size and block
 * sizes, and for devices the identity the result should record (model, serial,
 * firmware, rotational, scheduler, write cache, from sysfs). Creates missing
 * regular files at the requested size and fills them with random data so that
 * reads hit real blocks.
 *
 * A path is resolved once: target_open opens it (without blocking, so a FIFO
 * cannot hang it; O_NOFOLLOW unless the user named a symlink; O_EXCL for a
 * block device opened for writing), checks the kind on the descriptor,
 * asks the guard (guard.h) about that same descriptor before any write, and
 * keeps it for the I/O. A missing file is created O_CREAT | O_EXCL |
 * O_NOFOLLOW, so a link planted at the path makes the creation fail.
 */
#ifndef SSDBENCH_TARGET_H
#define SSDBENCH_TARGET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>

#include "target/target_opts.h"

enum target_kind { TARGET_NONE, TARGET_FILE, TARGET_BLOCK };

struct target_info {
    char path[TARGET_PATH_MAX];      /* as given */
    char resolved[TARGET_PATH_MAX];  /* symlinks resolved */
    enum target_kind kind;
    uint64_t size;                /* bytes */
    uint32_t logical_block;       /* O_DIRECT alignment unit */
    uint32_t physical_block;
    bool created;                 /* ssdbench created this file in this run */
    bool extended;                /* an existing file this run grew to the job's region (fio's layout) */
    /* block devices (empty strings when unknown) */
    char devname[64];             /* sysfs name, e.g. nvme0n1, loop3, sda1 */
    char model[96];
    char serial[96];
    char firmware[64];
    char scheduler[32];
    char write_cache[32];
    char zoned[16];               /* queue/zoned: none, host-aware, host-managed */
    char backing_file[TARGET_PATH_MAX]; /* loop devices */
    char guard_note[320];         /* a write allowed although the in-use check could not see
                                     everything: what it could not see (kept in the result) */
    int rotational;               /* 1, 0, or -1 unknown */
    unsigned major, minor;
};

struct guard_consent;

/* True when path's directory is on /dev's file system (devtmpfs), proc,
 * sysfs or another kernel file system, or under /dev, /proc or /sys: a
 * missing path there is a mistyped device name, never a file to create. */
bool target_pseudo_place(const char *path);

struct target {
    struct target_info info;
    int fd;
    bool write;        /* opened for writing */
    bool ours;         /* a regular file ssdbench created or whose mark was intact */
    bool exclusive;    /* a block device held O_EXCL through fd */
    bool busy;         /* the O_EXCL open failed with EBUSY (info.major/minor say which) */
    /* a character device (opts.chardev): fd is the node the I/O goes
     * through; hold_fd the block device it addresses, opened (O_EXCL for
     * writing) and judged by the guard as if it were the target, held for
     * the run; info describes that block device (its size and identity) */
    bool chardev;
    int hold_fd;
    dev_t dev;         /* regular files: identity, to remove only what was created */
    ino_t ino;
};

struct target_open_opts {
    bool write;            /* open read-write */
    bool direct;           /* O_DIRECT */
    bool dsync;            /* O_DSYNC */
    bool sync;             /* O_SYNC */
    uint64_t create_size;  /* create a missing regular file with this size (0 = do not create) */
    bool fill_random;      /* fill a file ssdbench creates with random data */
    uint64_t seed;
    const struct guard_consent *consent; /* writes: what the user allowed to be destroyed */
    /* fio fallocate for a file this open creates (fileset.h): FALLOC_UNSET
     * = the above (random fill or posix_fallocate); any other mode
     * allocates that way first and then fills only when fill_random is set,
     * and the target's size is create_size even while the file is shorter */
    enum target_fallocate alloc;
    /* fio's layout of an existing regular file shorter than a job's region:
     * it grows to this size (random data when fill_random, else a hole),
     * when opened for writing (the guard has judged it) or when it is
     * ssdbench's own file; 0 = never */
    uint64_t extend_to;
    /* accept an NVMe generic (/dev/ngXnY) or SCSI generic (/dev/sgN)
     * character device, for the passthrough engines (chardev_map.h) */
    bool chardev;
};

/* Fills info for a path without opening it for I/O (stat, sysfs, ioctls on a
 * read-only, non-blocking descriptor). Returns 0, -ENOENT when the path does
 * not exist, or another -errno with a message (-EINVAL for anything but a
 * regular file or block device). */
int target_probe(const char *path, struct target_info *info, char *err, size_t errlen);

/* Opens (and if allowed creates) a target; for writing, the guard decides on
 * the opened descriptor. On failure returns -errno with a one-line message
 * naming the path: -EPERM for a refusal (t->busy when a block device was
 * busy), -ENOENT for a missing path that was not to be created, -EINVAL for
 * anything but a regular file or block device (or, with o->chardev, a
 * character device addressing one). */
int target_open(struct target *t, const char *path, const struct target_open_opts *o,
                char *err, size_t errlen);

/* Opens a second descriptor on a block device this process already holds
 * O_EXCL through held (several jobs on one device), with o's flags, by
 * reopening held's descriptor (/proc/self/fd), not a path; path is the
 * job's name for it, for the record. */
int target_share(struct target *t, const char *path, const struct target *held,
                 const struct target_open_opts *o, char *err, size_t errlen);

/* What target_open would decide about writing to path, without writing:
 * 0 when allowed or when path does not exist (it would be created), else
 * target_open's error. For refusing early, before a long run starts; the
 * run's own target_open decides again on its descriptor. */
int target_check_write(const char *path, const struct guard_consent *c, char *err,
                       size_t errlen);

/* Closes; a regular file that is ssdbench's own and was opened for writing
 * gets its mark renewed first (after the last write). remove_created unlinks
 * a file this open created, if the path still names it. */
void target_close(struct target *t, bool remove_created);

/* Bytes free in the file system holding dir (for sizing default test files). */
uint64_t target_fs_free(const char *dir);

/* The mark on regular files ssdbench created, so a later run may reuse them
 * without asking: an extended attribute (user.ssdbench) recording the
 * file's device, inode, size, modification time and change time as they
 * were when ssdbench last closed it. Stamping first sets the modification
 * time 10 s into the past, so any later write (which sets it to the
 * present, whatever the timestamp granularity) breaks the match; the change
 * time must lie within 2 s after the stamp, which a copy, a hand-set value,
 * a chmod, a rename or a reused inode number cannot fake. A file whose mark
 * does not match exactly is the user's. */
bool target_fd_is_ours(int fd);

/* Stamps (or renews) the mark on a regular file, after its last write.
 * Returns 0 or -errno (e.g. a file system without user extended attributes,
 * on which no file counts as ssdbench's). */
int target_mark_ours(int fd);

/* Unlinks path only if it still names the inode st describes (checked just
 * before the unlink, without following a symlink). 0, -ESTALE or -errno. */
int target_unlink_same(const char *path, const struct stat *st);

#endif
