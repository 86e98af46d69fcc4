/* iolog_hist.h - fio's completion latency histogram log (write_hist_log=NAME,
 * log_hist_msec, log_hist_coarseness), part of the worker's logs
 * (stats/iolog.h): NAME_clat_hist.N.log, read by fio's
 * tools/hist/fiologparser_hist.py.
 *
 * Format (fio 3.33, iolog.c flush_hist_samples): one line per direction and
 * window, "t_ms, ddir, bs, c0, c1, ..., cK\n" with K + 1 = 1856 / 2^coarseness
 * columns, each the sum of 2^coarseness consecutive fio latency buckets
 * (stats/fio_plat.h) of the completions in that window; bs is that of the
 * completion that closed the window. Values are clat in ns, as fio's:
 * submission -> completion for synchronous engines, the submitting call's
 * return -> completion where slat is measured.
 *
 * Windows as fio cuts them, per direction: the first completion starts the
 * clock; a completion at t ms with t - last >= log_hist_msec writes the
 * line (stamped t, holding every completion since the previous line and
 * this one), and last becomes t - (t - last - log_hist_msec), so a late line
 * does not shift the ones after it. Unlike fio, which drops them, the
 * completions after the last whole window are written at the job's end as
 * one more line (stamped with the end), so the log's counts sum to the
 * job's completions, the figure of the JSON results.
 *
 * Counting is exact: fio's bucket of each clat value, computed per I/O (a
 * clz, a shift, an increment of a preallocated counter; no allocation).
 */
#ifndef SSDBENCH_STATS_IOLOG_HIST_H
#define SSDBENCH_STATS_IOLOG_HIST_H

#include <stddef.h>
#include <stdint.h>

#include "base/io_dir.h"
#include "stats/fio_plat.h"

/* Where the lines go: put(arg, text, n) appends n bytes (stats/iolog.c
 * gives its buffered NAME_clat_hist.N.log). */
struct iolog_hist_sink {
    void (*put)(void *arg, const char *text, size_t n);
    void *arg;
};

struct iolog_hist_dir {
    uint64_t last_ms;            /* fio's hist_last: start of the current window */
    uint64_t n;                  /* completions since the last line */
    uint32_t bs;                 /* block size of the latest completion */
    uint64_t counts[FIO_PLAT_NR];
};

struct iolog_hist {
    uint64_t msec;
    unsigned coarse;
    struct iolog_hist_dir dir[DIR_COUNT];
};

/* The histogram state for a log of msec ms windows (log_hist_msec > 0)
 * and 2^coarseness buckets per column; NULL when out of memory. Freed with
 * free(). */
struct iolog_hist *iolog_hist_new(uint64_t msec, unsigned coarseness);
/* One completion of direction ddir and bs bytes, clat_ns long, t_ms after
 * the job's measurement started (called through iolog_add). */
void iolog_hist_add(struct iolog_hist *h, unsigned ddir, uint32_t bs, uint64_t clat_ns, uint64_t t_ms,
                    const struct iolog_hist_sink *out);
/* The completions after the last whole window, at the job's end (t_ms). */
void iolog_hist_finish(struct iolog_hist *h, uint64_t t_ms, const struct iolog_hist_sink *out);

#endif
