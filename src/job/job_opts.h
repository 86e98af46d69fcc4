/* job_opts.h - what the floors below the job take from it: the small option
 * structs of stats/ (struct iolog_opts) and target/ (struct fileset_spec),
 * filled from a job, and whether a job can be striped over a stripe map.
 * (engine/'s options are embedded in the job: job->uring, job->sg.) */
#ifndef SSDBENCH_JOB_OPTS_H
#define SSDBENCH_JOB_OPTS_H

#include <stddef.h>

#include "job/job.h"

struct iolog_opts;
struct fileset_spec;
struct stripe_map;

/* The logs job asks for (stats/iolog.h); the names point into job. */
void job_iolog_opts(const struct job_spec *job, struct iolog_opts *o);

/* The sizing of resolved job's file set (target/fileset.h, job_resolve.h);
 * the name points into job. */
void job_fileset_spec(const struct job_spec *job, struct fileset_spec *fs);

/* Refuses a job that cannot be striped over m: a block size (of the
 * directions the job uses) larger than the chunk, an alignment that does
 * not divide the chunk, or a byte offset / offset_increment that is not a
 * chunk multiple. Sizes that do not divide the chunk are fine: the
 * generator keeps every I/O inside one chunk (gen.c). 0 or -EINVAL with a
 * one-line message. */
int job_stripe_check(const struct stripe_map *m, const struct job_spec *job, char *err,
                     size_t errlen);

#endif
