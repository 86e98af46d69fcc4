/* iolog_hist.c - see iolog_hist.h. */
#include "stats/iolog_hist.h"

#include <stdlib.h>
#include <string.h>

#include "base/numfmt.h"

struct iolog_hist *iolog_hist_new(uint64_t msec, unsigned coarseness)
{
    struct iolog_hist *h = calloc(1, sizeof(*h));
    if (!h)
        return NULL;
    h->msec = msec;
    h->coarse = coarseness;
    return h;
}

/* "t, ddir, bs, " and the coarsened bucket sums, then empties the window. */
static void hist_line(struct iolog_hist *h, unsigned d, uint64_t t_ms, const struct iolog_hist_sink *out)
{
    struct iolog_hist_dir *hd = &h->dir[d];
    unsigned stride = 1u << h->coarse;
    char num[64];
    char *p = numfmt_u64(num, t_ms);
    *p++ = ',', *p++ = ' ';
    *p++ = (char)('0' + d);
    *p++ = ',', *p++ = ' ';
    p = numfmt_u64(p, hd->bs);
    *p++ = ',', *p++ = ' ';
    out->put(out->arg, num, (size_t)(p - num));
    for (unsigned j = 0; j < FIO_PLAT_NR; j += stride) {
        uint64_t sum = 0;
        for (unsigned k = 0; k < stride; k++)
            sum += hd->counts[j + k];
        p = numfmt_u64(num, sum);
        if (j + stride < FIO_PLAT_NR)
            *p++ = ',', *p++ = ' ';
        else
            *p++ = '\n';
        out->put(out->arg, num, (size_t)(p - num));
    }
    memset(hd->counts, 0, sizeof(hd->counts));
    hd->n = 0;
}

void iolog_hist_add(struct iolog_hist *h, unsigned ddir, uint32_t bs, uint64_t clat_ns, uint64_t t_ms,
                    const struct iolog_hist_sink *out)
{
    struct iolog_hist_dir *hd = &h->dir[ddir];
    hd->counts[fio_plat_index(clat_ns)]++;
    hd->n++;
    hd->bs = bs;
    /* fio: a zero start is "not started yet" */
    if (!hd->last_ms)
        hd->last_ms = t_ms;
    uint64_t win = t_ms - hd->last_ms;
    if (win >= h->msec) {
        hist_line(h, ddir, t_ms, out);
        hd->last_ms = t_ms - (win - h->msec);
    }
}

void iolog_hist_finish(struct iolog_hist *h, uint64_t t_ms, const struct iolog_hist_sink *out)
{
    for (unsigned d = 0; d < DIR_COUNT; d++)
        if (h->dir[d].n)
            hist_line(h, d, t_ms, out);
}
