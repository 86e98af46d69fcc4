/* iolog_hist.c - see iolog_hist.h. */
#include "stats/iolog_hist.h"

#include <stdlib.h>
#include <string.h>

#include "stats/iolog.h"

int iolog_hist_init(struct iolog *l, const struct job_spec *job)
{
    struct iolog_hist *h = calloc(1, sizeof(*h));
    if (!h)
        return -1;
    h->msec = job->log_hist_msec;
    h->coarse = job->log_hist_coarseness;
    l->hist = h;
    return 0;
}

/* "t, ddir, bs, " and the coarsened bucket sums, then empties the window. */
static void hist_line(struct iolog *l, unsigned d, uint64_t t_ms)
{
    struct iolog_hist_dir *hd = &l->hist->dir[d];
    unsigned stride = 1u << l->hist->coarse;
    char num[64];
    char *p = iolog_put_u64(num, t_ms);
    *p++ = ',', *p++ = ' ';
    *p++ = (char)('0' + d);
    *p++ = ',', *p++ = ' ';
    p = iolog_put_u64(p, hd->bs);
    *p++ = ',', *p++ = ' ';
    iolog_put(l, IOLOG_HIST, num, (size_t)(p - num));
    for (unsigned j = 0; j < FIO_PLAT_NR; j += stride) {
        uint64_t sum = 0;
        for (unsigned k = 0; k < stride; k++)
            sum += hd->counts[j + k];
        p = iolog_put_u64(num, sum);
        if (j + stride < FIO_PLAT_NR)
            *p++ = ',', *p++ = ' ';
        else
            *p++ = '\n';
        iolog_put(l, IOLOG_HIST, num, (size_t)(p - num));
    }
    memset(hd->counts, 0, sizeof(hd->counts));
    hd->n = 0;
}

void iolog_hist_add(struct iolog *l, uint64_t t0_ns, const struct iolog_io *io)
{
    struct iolog_hist *h = l->hist;
    struct iolog_hist_dir *hd = &h->dir[io->ddir];
    uint64_t clat = io->t_issue ? io->lat - io->slat : io->lat;
    hd->counts[fio_plat_index(clat)]++;
    hd->n++;
    hd->bs = io->bytes;
    uint64_t t = (io->tc > t0_ns ? io->tc - t0_ns : 0) / 1000000;
    /* fio: a zero start is "not started yet" */
    if (!hd->last_ms)
        hd->last_ms = t;
    uint64_t win = t - hd->last_ms;
    if (win >= h->msec) {
        hist_line(l, io->ddir, t);
        hd->last_ms = t - (win - h->msec);
    }
}

void iolog_hist_finish(struct iolog *l, uint64_t t0_ns, uint64_t t_end_ns)
{
    uint64_t t = (t_end_ns > t0_ns ? t_end_ns - t0_ns : 0) / 1000000;
    for (unsigned d = 0; d < DIR_COUNT; d++)
        if (l->hist->dir[d].n)
            hist_line(l, d, t);
}
