/* job_fiosize.h - fio 3.33's region arithmetic for a file an engine never
 * opens (ioengine=null: fio's DISKLESSIO engines), as filesetup.c's
 * setup_files and get_start_offset compute it, so that ssdbench's null
 * jobs move fio's volume for every mix of offset, size, filesize,
 * offset_increment, nrfiles and numjobs, percentages included.
 *
 * fio marks such a file's size unknown (-1) and takes size / nr_files for
 * it only when size= is a byte count (a percentage leaves size 0). The
 * start of a clone's file is offset + clone * offset_increment, or, with
 * offset=P%, the known size times P / 100 (in fio's unsigned 64-bit
 * arithmetic: of an unknown size the product wraps) plus the increment,
 * rounded up to the smallest block size. Its length: without filesize
 * size / nr_files (the first files one smallest block more); with
 * filesize lo[-hi] the known size less the start when it lies in the
 * range, else lo (or a size drawn in the range) less the start, and a
 * start past lo is fio's "you need to specify valid offset=". size=P% then
 * keeps P / 100 of start + length, cut at the length, in whole smallest
 * blocks. A clone's pass is the sum of its files' lengths, capped by a
 * byte size=. */
#ifndef SSDBENCH_JOB_FIOSIZE_H
#define SSDBENCH_JOB_FIOSIZE_H

#include <stddef.h>
#include <stdint.h>

#include "base/rng.h"
#include "job/job.h"

/* The region [*start, *start + *len) of file filenum (0..nf-1) of clone
 * clone of resolved job j on an engine without files; nf: the clone's
 * files (fio's nr_files). r draws a filesize range's sizes. 0, or -EINVAL
 * with a one-line message naming the job (fio refuses the same job). A job
 * with neither size nor filesize is the caller's (fio: an error). */
int job_fio_null_file(const struct job_spec *j, unsigned clone, unsigned filenum, unsigned nf,
                      struct rng *r, uint64_t *start, uint64_t *len, char *err, size_t errlen);

/* One pass of a clone whose files' lengths add up to total: total, or a
 * byte size= when smaller (fio's o->size after setup_files). */
uint64_t job_fio_null_pass(const struct job_spec *j, uint64_t total);

#endif
