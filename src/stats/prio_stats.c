/* prio_stats.c - fio's per-priority latency histograms (stats/prio_stats.h). */
#include "stats/prio_stats.h"

#include <errno.h>
#include <stdlib.h>

int prio_stats_slot(struct prio_dir *d, uint16_t ioprio)
{
    for (unsigned i = 0; i < d->n; i++)
        if (d->ioprio[i] == ioprio)
            return (int)i;
    if (d->n == PRIO_STATS_MAX)
        return -ENOSPC;
    struct hist *h = malloc(sizeof(*h));
    if (!h)
        return -ENOMEM;
    hist_init(h);
    d->ioprio[d->n] = ioprio;
    d->h[d->n] = h;
    return (int)d->n++;
}

int prio_dir_add(struct prio_dir *dst, const struct prio_dir *src)
{
    for (unsigned i = 0; i < src->n; i++) {
        int k = prio_stats_slot(dst, src->ioprio[i]);
        if (k < 0)
            return k;
        if (src->h[i]->n)
            hist_merge(dst->h[k], src->h[i]);
    }
    return 0;
}

int prio_stats_merge(struct prio_stats *dst, const struct prio_stats *src)
{
    for (int d = 0; d < 2; d++) {
        int rc = prio_dir_add(&dst->dir[d], &src->dir[d]);
        if (rc < 0)
            return rc;
    }
    return 0;
}

void prio_stats_clear(struct prio_stats *p)
{
    for (int d = 0; d < 2; d++) {
        for (unsigned i = 0; i < p->dir[d].n; i++)
            free(p->dir[d].h[i]);
        p->dir[d].n = 0;
    }
}
