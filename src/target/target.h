/* target.h - opening files and block devices as benchmark targets.
 *
 * Discovers what a path is (regular file or block device), its size and block
 * sizes, and for devices the identity the result should record (model, serial,
 * firmware, rotational, scheduler, write cache, from sysfs). Creates missing
 * regular files at the requested size and fills them with random data so that
 * reads hit real blocks. Whether a write is allowed at all is decided by
 * guard.h before anything here opens a path for writing.
 */
#ifndef SSDBENCH_TARGET_H
#define SSDBENCH_TARGET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "workload/job.h"

enum target_kind { TARGET_NONE, TARGET_FILE, TARGET_BLOCK };

struct target_info {
    char path[JOB_PATH_MAX];      /* as given */
    char resolved[JOB_PATH_MAX];  /* symlinks resolved */
    enum target_kind kind;
    uint64_t size;                /* bytes */
    uint32_t logical_block;       /* O_DIRECT alignment unit */
    uint32_t physical_block;
    bool created;                 /* ssdbench created this file in this run */
    /* block devices (empty strings when unknown) */
    char devname[64];             /* sysfs name, e.g. nvme0n1, loop3, sda1 */
    char model[96];
    char serial[96];
    char firmware[64];
    char scheduler[32];
    char write_cache[32];
    char backing_file[JOB_PATH_MAX]; /* loop devices */
    int rotational;               /* 1, 0, or -1 unknown */
    unsigned major, minor;
};

struct target {
    struct target_info info;
    int fd;
};

struct target_open_opts {
    bool write;            /* open read-write */
    bool direct;           /* O_DIRECT */
    bool dsync;            /* O_DSYNC */
    bool osync;            /* O_SYNC (data and metadata) */
    uint64_t create_size;  /* create a missing regular file with this size (0 = do not create) */
    bool fill_random;      /* fill a file ssdbench creates with random data */
    uint64_t seed;
};

/* Fills info for a path without opening it for I/O (stat, sysfs, ioctls on a
 * read-only descriptor). Returns 0, -ENOENT when the path does not exist, or
 * another -errno with a message. */
int target_probe(const char *path, struct target_info *info, char *err, size_t errlen);

/* Opens (and if allowed creates) a target. On failure returns -errno with a
 * one-line message naming the path. */
int target_open(struct target *t, const char *path, const struct target_open_opts *o,
                char *err, size_t errlen);

void target_close(struct target *t, bool remove_created);

/* Bytes free in the file system holding dir (for sizing default test files). */
uint64_t target_fs_free(const char *dir);

/* Marks/recognises regular files ssdbench created (an extended attribute), so
 * a later run may reuse them without asking. */
bool target_file_is_ours(const char *path);

/* Marks a regular file (by descriptor) as ssdbench's own, so the guard lets
 * later runs write to it. Returns 0 or -errno (e.g. a file system without
 * user extended attributes). */
int target_mark_ours(int fd);

#endif
