/* fio_text_fmt.h - the small formatting rules of fio 3.33's human output,
 * apart from any document so they can be tested on their own: fio's number
 * scaling (num2str: significant figures, k/M/G or Ki/Mi/Gi, carry
 * rounding), the unit choice of a latency line (nsec, usec or msec from its
 * min/max/stdev), a percentile block with fio's row layout, and the
 * "lat (usec)   :" distribution rows. Not for use outside src/output. */
#ifndef SSDBENCH_FIO_TEXT_FMT_H
#define SSDBENCH_FIO_TEXT_FMT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* The unit suffixes of fio's num2str. */
enum fio_n2s { FIO_N2S_NONE, FIO_N2S_PERSEC, FIO_N2S_BYTE, FIO_N2S_BIT, FIO_N2S_BYTEPERSEC, FIO_N2S_BITPERSEC };

/* fio's num2str: num (in units of base: 1, 1024, ...) as at most maxlen
 * digits (the '.' counted) plus an SI (pow2 false) or IEC prefix and the
 * unit: 11534336 -> "11.0MiB". Writes "" when buf is too small. */
void fio_num2str(char *buf, size_t len, uint64_t num, int maxlen, int base, bool pow2, enum fio_n2s unit);

/* One of fio's "    clat (usec): min=.., max=.., avg=.., stdev=.." lines
 * for figures in ns; name is "slat", "clat", " lat" or "sync". fio moves to
 * usec when min > 2000 ns, max > 99999 ns and stdev > 1000 ns, to msec at a
 * thousand times that. */
void fio_text_lat_line(FILE *f, const char *name, uint64_t min, uint64_t max, double mean, double dev);

/* fio's percentile block ("    clat percentiles (usec):" and rows of
 * "     |  1.00th=[   34], ..."): n percentiles pct[] (ascending, in
 * percent) with their values val[] in ns; precision is fio's
 * percentile_precision (2 by default). Nothing when n is 0. */
void fio_text_pct_block(FILE *f, const char *pre, const double *pct, const uint64_t *val, unsigned n,
                        unsigned precision);

/* fio's "  lat (unit)   : 2=1.00%, 4=..." rows: the buckets with a share
 * above zero, five per row; a share below 0.01 % shows as 0.01 %. */
void fio_text_lat_dist(FILE *f, const char *unit, const char *const *ranges, const double *share, unsigned n);

/* fio's rounding of a share shown with one or two decimals: a share above
 * zero but below the smallest shown step (0.1 or 0.01) shows as that step. */
double fio_text_min_share(double v, double step);

#endif
