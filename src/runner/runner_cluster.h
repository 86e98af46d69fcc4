/* runner_cluster.h - the runner's side of a run over many ranks
 * (base/cluster.h): agreeing on the set-up verdict before any I/O, and
 * merging each interval's statistics over the ranks in the collector, at
 * interval boundaries (never per I/O). Every call is collective. */
#ifndef SSDBENCH_RUNNER_CLUSTER_H
#define SSDBENCH_RUNNER_CLUSTER_H

#include <stddef.h>
#include <stdint.h>

#include "base/cluster.h"
#include "runner/runner.h"
#include "stats/iostats.h"

/* Agrees on the set-up of a phase: rc is this rank's (0 or -errno, err its
 * message), shape a hash of what must be alike on every rank (the jobs'
 * target counts). Returns 0 on every rank when every rank's rc was 0 and
 * the shapes are equal; otherwise the first failing rank's rc on every
 * rank, with err set to "rank R (host H): message" everywhere, or -EINVAL
 * with a message about the shapes. One sequence of collectives whatever
 * the outcome, so a failing and a succeeding rank stay in step. */
int runner_cluster_verdict(struct cluster *c, int rc, uint64_t shape, char *err, size_t errlen);

/* Scratch space for merging io_stats over ranks, kept for a phase. */
struct runner_reduce {
    uint64_t *head;     /* counters and histogram sizes */
    uint64_t *sum, *mn, *mx;
    size_t head_cap, sum_cap, mn_cap, mx_cap;
};

/* s[0..n) on every rank becomes the sum over all ranks, exactly: counters
 * and histogram buckets summed, min/max the min/max. 0 or -errno. */
int runner_cluster_merge(struct cluster *c, struct runner_reduce *rb, struct io_stats *s, unsigned n);
void runner_reduce_free(struct runner_reduce *rb);

/* One collector step over the ranks (see runner.c): mine is this rank's
 * runner_collect result for interval k (1: merged here, -1: all its
 * workers are done and ivjobs is reset). Merges ivjobs over the ranks and
 * the end time (max) and late flags; a stop signal on any rank is raised on
 * every rank. Returns 1 when some rank had interval k, -1 when none had. */
int runner_cluster_step(struct cluster *c, struct runner_reduce *rb, int mine, struct io_stats *ivjobs,
                        unsigned njobs, uint64_t *t_end_rel, unsigned *late);

/* After the workers of every rank finished: keeps this rank's job totals
 * and times in out->cluster and puts the cluster's in their place (ccum:
 * the sums of the merged intervals; times, stop causes: the max over the
 * ranks, the error count: the sum), so the phase reads the same on every
 * rank. agreed/skew: the agreed start and this rank's lateness to it. */
void runner_cluster_finish(struct cluster *c, struct phase_stats *out, const struct job_stats *ccum,
                           uint64_t agreed, int64_t skew);

#endif
