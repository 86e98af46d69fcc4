/* job_resolve.h - fio's job rules and the values derived from a finished
 * job, computed in one place.
 *
 * A front end fills a struct job_spec with what the user gave; the rules
 * that follow from it are applied here and nowhere else:
 *  - the run command line's --runtime means "run this long": it implies
 *    time_based unless a byte limit (io_size) is given; job files keep
 *    fio's rule (stop at the end of the region or at runtime, whichever
 *    is first);
 *  - a job that is neither time_based nor byte-limited ends after `loops`
 *    passes over its region (at least one), the byte limit being those
 *    passes' bytes;
 *  - (rand)trimwrite trims every byte and then writes it: fio doubles the
 *    byte and number_ios limits;
 *  - the smallest and largest block sizes (fio's td_min_bs, td_max_bs) and
 *    the smallest write size.
 * job_resolve() runs once per job, in one of two places, and never again:
 * the run command resolves its jobs as it parses them (the command-line
 * rule is its own, and its plan shows time_based); every other job (the
 * families', the quick grid's) arrives at the runner unresolved and the
 * runner resolves its copy. The runner takes a resolved job (res.done) as
 * it is: its derived values are the front end's. job_resolve_limits() adds
 * what needs the job's region to a resolved job, once the runner has opened
 * the targets; it is called once per copy (it writes the limits the
 * results record).
 */
#ifndef SSDBENCH_JOB_RESOLVE_H
#define SSDBENCH_JOB_RESOLVE_H

#include <stdbool.h>
#include <stdint.h>

#include "job/job.h"

/* The rules of job_resolve() on job (from_cmdline: the run command's own
 * options, not a job file); fills job->res. */
void job_resolve(struct job_spec *job, bool from_cmdline);

/* The limits of a resolved job (res.done) over its region of region_len bytes (per
 * worker): io_limit (the passes' bytes when no io_size is given; in fio's
 * job language an io_size times loops, as fio; doubled for trimwrite), passes and rw_ios_limit (doubled for trimwrite). */
void job_resolve_limits(struct job_spec *job, uint64_t region_len);

#endif
