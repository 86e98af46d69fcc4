/* fileset.h - fio's file life cycle on ssdbench's targets: how a file that
 * is created gets its space (fallocate), dropping a target's page cache
 * before the I/O (invalidate), reading it in beforehand (pre_read), and the
 * size fio gives each file of a file set (nrfiles, filesize).
 *
 * As fio 3.33 (filesetup.c):
 *  - fallocate: none does nothing (the file grows as it is written), native
 *    is fallocate(2) mode 0 (nothing when the file system lacks it), posix
 *    is posix_fallocate(3), keep is fallocate(2) with FALLOC_FL_KEEP_SIZE
 *    (blocks, size 0), truncate is ftruncate(2) (size, no blocks). A job
 *    that reads then writes the whole file (target.h fill_random).
 *  - invalidate: posix_fadvise(POSIX_FADV_DONTNEED) over the region of a
 *    regular file; BLKFLSBUF on a block device (retried while EAGAIN).
 *    Failure is a warning in fio; here too (the caller prints it).
 *  - pre_read: the region read once through a buffered descriptor (the
 *    same open file, reopened without O_DIRECT), before the timed phase.
 *  - sizes: without filesize each file gets size / nrfiles, and the first
 *    (size - that * nrfiles) / min_bs files one min_bs more; with filesize
 *    lo[-hi] an existing file whose size lies in the range keeps it, others
 *    get lo, or a size drawn in [lo, hi] rounded down to min_bs (drawn from
 *    the job's seed, so not fio's numbers). The region of a file is
 *    [offset, offset + len).
 */
#ifndef SSDBENCH_FILESET_H
#define SSDBENCH_FILESET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/rng.h"
#include "target/target_opts.h"

struct target;

/* Allocates size bytes of a file ssdbench just created, the fallocate way m
 * (not FALLOC_UNSET). 0 or -errno with a one-line message naming path. */
int target_allocate(int fd, enum target_fallocate m, uint64_t size, const char *path, char *err,
                    size_t errlen);

/* Drops the page cache of [off, off + len) of t (len 0 = to the end). 0 or
 * -errno with a message (a warning: the run goes on). */
int target_invalidate(const struct target *t, uint64_t off, uint64_t len, char *err, size_t errlen);

/* Reads [off, off + len) of t once, buffered. 0 or -errno with a message. */
int target_pre_read(const struct target *t, uint64_t off, uint64_t len, char *err, size_t errlen);

/* What sizing a file set takes from its job (job/job_opts.h fills it). */
struct fileset_spec {
    const char *name;      /* the job's name, for messages */
    unsigned nrfiles;      /* files in the set; 0 = 1 */
    uint64_t offset;       /* the region of each file starts here */
    uint64_t size;         /* size=: the bytes of the whole set, split over its files */
    uint64_t file_size;    /* filesize=lo[-hi]: lo; 0 = not given */
    uint64_t file_size_hi; /* ... hi (> lo: sizes drawn in [lo, hi]) */
    uint32_t min_bs;       /* the job's smallest block size (fio's td_min_bs) */
};

/* The length of the region of file number filenum of a file set (see
 * above). cur_size: the file's size now, exists: whether it exists. r draws
 * range sizes. 0, or -EINVAL with a message (no size to go by, an offset
 * past a fixed file size). */
int fileset_file_len(const struct fileset_spec *j, unsigned filenum, bool exists, uint64_t cur_size,
                     struct rng *r, uint64_t *len, char *err, size_t errlen);

#endif
