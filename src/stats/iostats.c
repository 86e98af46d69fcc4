/* iostats.c - see iostats.h. */
#include <string.h>

#include "stats/iostats.h"

void iostats_init(struct io_stats *s)
{
    memset(s, 0, sizeof(*s));
    for (int d = 0; d < DIR_COUNT; d++) {
        hist_init(&s->dir[d].lat);
        hist_init(&s->dir[d].slat);
        hist_init(&s->dir[d].clat);
        hist_init(&s->dir[d].sched);
    }
    hist_init(&s->sync_lat);
}

static void merge_hist(struct hist *dst, const struct hist *src)
{
    if (src->n)
        hist_merge(dst, src);
}

void iostats_merge(struct io_stats *dst, const struct io_stats *src)
{
    for (int d = 0; d < DIR_COUNT; d++) {
        dst->dir[d].ios += src->dir[d].ios;
        dst->dir[d].bytes += src->dir[d].bytes;
        dst->dir[d].errors += src->dir[d].errors;
        merge_hist(&dst->dir[d].lat, &src->dir[d].lat);
        merge_hist(&dst->dir[d].slat, &src->dir[d].slat);
        merge_hist(&dst->dir[d].clat, &src->dir[d].clat);
        merge_hist(&dst->dir[d].sched, &src->dir[d].sched);
    }
    dst->syncs += src->syncs;
    dst->sync_errors += src->sync_errors;
    merge_hist(&dst->sync_lat, &src->sync_lat);
}

static void reset_hist(struct hist *h)
{
    if (h->n)
        hist_init(h);
}

void iostats_reset(struct io_stats *s)
{
    for (int d = 0; d < DIR_COUNT; d++) {
        s->dir[d].ios = s->dir[d].bytes = s->dir[d].errors = 0;
        reset_hist(&s->dir[d].lat);
        reset_hist(&s->dir[d].slat);
        reset_hist(&s->dir[d].clat);
        reset_hist(&s->dir[d].sched);
    }
    s->syncs = s->sync_errors = 0;
    reset_hist(&s->sync_lat);
}
