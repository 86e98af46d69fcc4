/* fio_plat.h - fio's latency bucket layout (stat.h's FIO_IO_U_PLAT_*), for
 * the files fio's tools read (the histogram log, stats/iolog_hist.h).
 *
 * fio keeps 29 groups of 64 buckets (1856 in all), in ns: values below 128
 * get one bucket each; a value v with top bit m >= 7 goes to bucket
 * (m - 5) * 64 + ((v >> (m - 6)) & 63), so [2^m, 2^(m+1)) is cut into 64
 * buckets of width 2^(m-6), up to 2^34 ns (~17 s); the last bucket, from
 * 2^34 - 2^27 ns on, also holds every larger value.
 *
 * ssdbench's own histogram (stats/hist.h) is twice as fine: its buckets are
 * unit-width below 256 ns and 2^(m-7) wide above, so every one of its
 * buckets lies inside exactly one fio bucket, and fio_plat_from_hist() is
 * exact: the same counts fio would have made of the same values. The
 * other way round is not possible (a fio bucket cannot be split).
 */
#ifndef SSDBENCH_STATS_FIO_PLAT_H
#define SSDBENCH_STATS_FIO_PLAT_H

#include <stdint.h>

#include "stats/hist.h"

#define FIO_PLAT_BITS 6
#define FIO_PLAT_VAL (1u << FIO_PLAT_BITS)
#define FIO_PLAT_GROUP_NR 29
#define FIO_PLAT_NR (FIO_PLAT_GROUP_NR * FIO_PLAT_VAL) /* 1856 */

/* fio's plat_val_to_idx(). */
static inline unsigned fio_plat_index(uint64_t v)
{
    unsigned msb = v ? 63u - (unsigned)__builtin_clzll(v) : 0;
    if (msb <= FIO_PLAT_BITS)
        return (unsigned)v;
    unsigned err = msb - FIO_PLAT_BITS;
    unsigned idx = ((err + 1) << FIO_PLAT_BITS) + (unsigned)((FIO_PLAT_VAL - 1) & (v >> err));
    return idx < FIO_PLAT_NR - 1 ? idx : FIO_PLAT_NR - 1;
}

/* Bucket bounds in ns, [lo, hi) (the last bucket also holds every larger
 * value), and fio's reported value of a bucket (plat_idx_to_val: lo + half
 * the width, truncated). */
uint64_t fio_plat_lo(unsigned idx);
uint64_t fio_plat_hi(unsigned idx);
uint64_t fio_plat_mid(unsigned idx);

/* out[FIO_PLAT_NR] = h's counts in fio's buckets (exact, see above). */
void fio_plat_from_hist(const struct hist *h, uint64_t *out);

#endif
