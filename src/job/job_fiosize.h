/* job_fiosize.h - fio 3.33's region arithmetic for one file of a job, as
 * filesetup.c's setup_files and get_start_offset compute it, so that
 * ssdbench moves fio's volume for every mix of offset, size, filesize,
 * offset_increment, io_size, nrfiles and numjobs, percentages included:
 * on a file an engine never opens (ioengine=null: fio's DISKLESSIO
 * engines) and on the files of a file set (nrfiles).
 *
 * fio knows a file's size before the run (real): a regular file's size (0
 * when it is not there yet), a device's; on an engine without files it
 * marks the size unknown (-1) and takes size / nr_files for it only when
 * size= is a byte count (a percentage leaves size 0). The start of a
 * clone's file is offset + clone * increment (offset_increment, or with
 * offset_increment=P% P% of real), or, with offset=P%, real times P / 100
 * (in fio's unsigned 64-bit arithmetic: of an unknown size the product
 * wraps) plus the increment; a percentage rounds the start up to the
 * smallest block size. file_append starts a regular file at real. Its
 * length: without filesize size / nr_files (the first files one smallest
 * block more), or when that is 0 real less the start; with filesize
 * lo[-hi] real less the start when it lies in the range, else lo (or a
 * size drawn in the range) less the start, and a start past lo is fio's
 * "you need to specify valid offset=". size=P% then keeps P / 100 of
 * start + length, cut at the length, in whole smallest blocks. A clone's
 * pass is the sum of its files' lengths (io_size=P%: P / 100 of each),
 * capped by a byte size=. */
#ifndef SSDBENCH_JOB_FIOSIZE_H
#define SSDBENCH_JOB_FIOSIZE_H

#include <stddef.h>
#include <stdint.h>

#include "base/rng.h"
#include "job/job.h"

#define JOB_FIO_SIZE_UNKNOWN UINT64_MAX /* fio's real_file_size of -1 */

/* The region [*start, *start + *len) of file filenum (0..nf-1) of clone
 * clone of resolved job j, whose size before the run fio knows as real
 * (JOB_FIO_SIZE_UNKNOWN: not at all); regular: a regular file (file_append
 * applies). nf: the clone's files (fio's nr_files). r draws a filesize
 * range's sizes. 0, or -EINVAL with a one-line message naming the job (fio
 * refuses the same job). *len may be 0 (fio: "file may be ignored"). */
int job_fio_file(const struct job_spec *j, unsigned clone, unsigned filenum, unsigned nf, uint64_t real,
                 bool regular, struct rng *r, uint64_t *start, uint64_t *len, char *err, size_t errlen);

/* The same on an engine without files: real is size / nf for a byte
 * size=, else unknown; a length of 0 is refused. A job with neither size
 * nor filesize is the caller's (fio: an error). */
int job_fio_null_file(const struct job_spec *j, unsigned clone, unsigned filenum, unsigned nf,
                      struct rng *r, uint64_t *start, uint64_t *len, char *err, size_t errlen);

/* What a file of len bytes adds to a clone's pass: len, or with
 * io_size=P% P / 100 of it (fio's total_size). */
uint64_t job_fio_file_share(const struct job_spec *j, uint64_t len);

/* One pass of a clone whose files add total (job_fio_file_share summed):
 * total, or a byte size= when smaller (fio's o->size after setup_files). */
uint64_t job_fio_null_pass(const struct job_spec *j, uint64_t total);

#endif
