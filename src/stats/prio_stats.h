/* prio_stats.h - fio's per-priority latencies (the cmdprio options): per
 * direction (read, write), one histogram per I/O priority value, in the
 * order fio keeps them (the job's own priority first, then each priority
 * of its cmdprio options once). Which latency it holds is fio's rule:
 * the total latency with lat_percentiles, else the completion latency.
 * Merging adds the histograms of equal priority values (fio's
 * sum_clat_prio_stats).
 */
#ifndef SSDBENCH_STATS_PRIO_STATS_H
#define SSDBENCH_STATS_PRIO_STATS_H

#include <stdint.h>

#include "stats/hist.h"

#define PRIO_STATS_MAX 66     /* the job's own + 64 bssplit entries + cmdprio */

struct prio_dir {
    unsigned n;
    uint16_t ioprio[PRIO_STATS_MAX];
    struct hist *h[PRIO_STATS_MAX];
};

struct prio_stats {
    struct prio_dir dir[2];   /* DIR_READ, DIR_WRITE */
};

/* The slot of ioprio in d, added (with an empty histogram) when new.
 * -ENOMEM, or -ENOSPC when d is full. */
int prio_stats_slot(struct prio_dir *d, uint16_t ioprio);
/* Adds src into dst by priority value (new values at the end). 0 or
 * -ENOMEM / -ENOSPC. */
int prio_dir_add(struct prio_dir *dst, const struct prio_dir *src);
/* The same for both directions. */
int prio_stats_merge(struct prio_stats *dst, const struct prio_stats *src);
/* The histograms (not p itself). */
void prio_stats_clear(struct prio_stats *p);

#endif
