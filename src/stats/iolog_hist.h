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

#include <stdint.h>

#include "base/job.h"
#include "stats/fio_plat.h"

struct iolog;
struct iolog_io;

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

/* Allocates l->hist for job (write_hist_log with log_hist_msec > 0).
 * 0, or -1 when out of memory. */
int iolog_hist_init(struct iolog *l, const struct job_spec *job);
/* One completion (called from iolog_add). */
void iolog_hist_add(struct iolog *l, uint64_t t0_ns, const struct iolog_io *io);
/* The completions after the last whole window, at the job's end. */
void iolog_hist_finish(struct iolog *l, uint64_t t0_ns, uint64_t t_end_ns);

#endif
