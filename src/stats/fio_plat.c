/* fio_plat.c - see fio_plat.h. */
#include "stats/fio_plat.h"

#include <string.h>

static unsigned plat_shift(unsigned idx)
{
    return idx < (FIO_PLAT_VAL << 1) ? 0 : (idx >> FIO_PLAT_BITS) - 1;
}

uint64_t fio_plat_lo(unsigned idx)
{
    if (idx >= FIO_PLAT_NR)
        idx = FIO_PLAT_NR - 1;
    unsigned s = plat_shift(idx);
    if (s == 0)
        return idx;
    return (UINT64_C(1) << (s + FIO_PLAT_BITS)) + ((uint64_t)(idx % FIO_PLAT_VAL) << s);
}

uint64_t fio_plat_hi(unsigned idx)
{
    if (idx >= FIO_PLAT_NR)
        idx = FIO_PLAT_NR - 1;
    return fio_plat_lo(idx) + (UINT64_C(1) << plat_shift(idx));
}

uint64_t fio_plat_mid(unsigned idx)
{
    if (idx >= FIO_PLAT_NR)
        idx = FIO_PLAT_NR - 1;
    unsigned s = plat_shift(idx);
    return fio_plat_lo(idx) + (s ? UINT64_C(1) << (s - 1) : 0);
}

void fio_plat_from_hist(const struct hist *h, uint64_t *out)
{
    memset(out, 0, FIO_PLAT_NR * sizeof(*out));
    for (unsigned i = 0; i < HIST_NBUCKETS; i++)
        if (h->counts[i])
            out[fio_plat_index(hist_bucket_lo(i))] += h->counts[i];
}
