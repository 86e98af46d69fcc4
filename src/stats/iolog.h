/* iolog.h - fio-format latency, bandwidth and IOPS logs (write_lat_log,
 * write_bw_log, write_iops_log, log_avg_msec, per_job_logs), written by the
 * worker that completed the I/Os so that fio's log tools can read them.
 *
 * Format and names are fio 3.33's: lines "time_ms, value, ddir, bs, prio"
 * (with log_offset=1: "time_ms, value, ddir, bs, offset, prio") with time in
 * ms since the job's measurement start (the ramp is not logged), ddir 0 =
 * read, 1 = write, prio 0. write_lat_log=NAME makes NAME_lat.N.log (total:
 * submission -> completion), NAME_clat.N.log (the submitting call's return
 * -> completion) and NAME_slat.N.log (submission -> that return, stamped at
 * the return, as fio stamps it at issue), in ns; per I/O slat + clat = lat
 * exactly (the same three stamps). Where slat is not measured (synchronous
 * engines, as fio) the slat log stays empty and clat = lat. Paced jobs with
 * log_schedlat=1 also get NAME_schedlat.N.log: scheduled issue time ->
 * completion, in ns (not a fio log, so off by default: fio's log tools glob
 * the directory; it is the latency a stalled device cannot hide from). NAME_bw.N.log
 * holds KiB/s, NAME_iops.N.log I/Os
 * per second. N is fio's job number: one log per worker (fio clone). With
 * per_job_logs=0 every worker's lines go to NAME_kind.log instead, appended
 * one worker after another (as fio appends each job's log at its end), so a
 * log written by several workers never interleaves their lines.
 *
 * Without log_avg_msec every completion is one line (bw: that I/O's bytes
 * over its latency, as fio; iops: 1). With it, each window of log_avg_msec
 * ms (aligned to the job's start) gives one line per direction that had
 * completions: the rounded mean latency, or the window's bandwidth / IOPS;
 * bs is 0; empty windows are skipped, as fio skips them. When the worker
 * finishes inside a window, that part-window gives its latency lines
 * (stamped with the finish time) but no bandwidth or IOPS lines, as in fio.
 *
 * The I/O path allocates nothing: each file has a fixed buffer, written with
 * write(2) when full; a worker without logs pays one predictable branch.
 */
#ifndef SSDBENCH_IOLOG_H
#define SSDBENCH_IOLOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/io_dir.h"
#include "base/outfile.h"

#define IOLOG_BUF_SIZE (32 * 1024)
#define IOLOG_NAME_MAX 256 /* a log's NAME (write_*_log=NAME), its NUL included */
#define IOLOG_PATH_MAX (IOLOG_NAME_MAX + 64)

/* The logs a worker writes, as its job asks for them (job/job_opts.h fills
 * this from a job): each NAME, "" = that log is off. */
struct iolog_opts {
    const char *lat_log;      /* write_lat_log: NAME_lat, NAME_clat, NAME_slat */
    const char *bw_log;       /* write_bw_log */
    const char *iops_log;     /* write_iops_log */
    const char *hist_log;     /* write_hist_log (stats/iolog_hist.h) */
    bool schedlat;            /* NAME_schedlat too (a paced job with log_schedlat) */
    unsigned avg_msec;        /* log_avg_msec; 0 = a line per completion */
    bool offsets;             /* log_offset: an offset column */
    bool log_prio;            /* log_prio: the last column is each I/O's priority value */
    bool no_bw;               /* disable_bw_measurement: no per-I/O bandwidth lines (fio) */
    unsigned hist_msec;       /* log_hist_msec; 0 = the histogram log stays empty */
    unsigned hist_coarseness; /* log_hist_coarseness */
    bool compressed;          /* log_store_compressed with log_compression: NAME.log.fz */
    bool per_job_logs;        /* one file per worker (else one per log, appended to) */
};

enum iolog_kind { IOLOG_LAT, IOLOG_CLAT, IOLOG_SLAT, IOLOG_SCHED, IOLOG_BW, IOLOG_IOPS,
                 IOLOG_HIST, /* write_hist_log: stats/iolog_hist.h */
                 IOLOG_NKINDS };

struct iolog_file {
    int fd;
    struct outfile of;               /* per_job_logs=1: the safe output file (base/outfile.h) */
    size_t len;                      /* bytes waiting in buf */
    char path[IOLOG_PATH_MAX];       /* the file written while running */
    char shared[IOLOG_PATH_MAX];     /* per_job_logs=0: appended to at close; "" otherwise */
    bool gz;                         /* log_store_compressed: shared is NAME.fz, a zlib stream per part */
    bool gz_own;                     /* ... with per_job_logs=1: the file is this worker's alone */
    char buf[IOLOG_BUF_SIZE];
};

/* One direction's completions in the current averaging window. */
struct iolog_win {
    uint64_t n, lat_sum, bytes;
    uint64_t slat_n, slat_sum, clat_sum, sched_n, sched_sum;
};

/* One completed I/O, as the worker saw it. Absolute times in ns. */
struct iolog_io {
    uint64_t tc;      /* completion stamp */
    uint64_t lat;     /* submission -> completion */
    uint64_t t_issue; /* the submitting call's return; 0 = slat not measured */
    uint64_t slat;    /* submission -> t_issue */
    uint64_t sched;   /* scheduled time -> completion, when paced */
    uint64_t off;     /* byte offset in the target */
    uint32_t bytes;
    unsigned ddir;
    bool paced;
    uint16_t prio;    /* the I/O's priority (class << 13 | level) */
};

struct iolog {
    uint64_t avg_ns;                 /* log_avg_msec in ns; 0 = one line per I/O */
    uint64_t win_end;                /* end of the current window, ns since the job's start */
    bool offsets;                    /* log_offset: an offset column */
    bool log_prio;                   /* log_prio: the last column is the priority value */
    bool no_bw;                      /* disable_bw_measurement, per-I/O lines: no bandwidth lines (fio) */
    struct iolog_win win[DIR_COUNT];
    int error;                       /* first write error (negative errno); logging stops */
    struct iolog_file *f[IOLOG_NKINDS]; /* NULL where that log was not asked for */
    struct iolog_hist *hist;         /* write_hist_log with log_hist_msec; NULL otherwise */
};

#include "stats/iolog_hist.h"


/* Opens the logs o asks for, numbered `number` (fio's job number, from 1).
 * *out is NULL when it asks for none. Returns 0, or a negative errno
 * with "cannot create log file PATH: reason" in err. */
int iolog_open(struct iolog **out, const struct iolog_opts *o, unsigned number, char *err,
               size_t errlen);

/* Not for direct use: one line per I/O, and closing an averaging window. */
void iolog_emit(struct iolog *l, uint64_t t0_ns, const struct iolog_io *io);
void iolog_roll(struct iolog *l, uint64_t t_ns);
/* One completion into the histogram log (l->hist set). */
void iolog_hist_emit(struct iolog *l, uint64_t t0_ns, const struct iolog_io *io);

/* Logs one successful completion of a job whose measurement started at
 * t0_ns (absolute); io->ddir is DIR_READ or DIR_WRITE. */
static inline void iolog_add(struct iolog *l, uint64_t t0_ns, const struct iolog_io *io)
{
    if (__builtin_expect(l->hist != NULL, 0))
        iolog_hist_emit(l, t0_ns, io);
    if (!l->avg_ns) {
        iolog_emit(l, t0_ns, io);
        return;
    }
    uint64_t t = io->tc > t0_ns ? io->tc - t0_ns : 0;
    if (t >= l->win_end)
        iolog_roll(l, t);
    struct iolog_win *w = &l->win[io->ddir];
    w->n++;
    w->lat_sum += io->lat;
    w->bytes += io->bytes;
    if (io->t_issue) {
        w->slat_n++;
        w->slat_sum += io->slat;
        w->clat_sum += io->lat - io->slat;
    } else {
        w->clat_sum += io->lat;
    }
    if (io->paced) {
        w->sched_n++;
        w->sched_sum += io->sched;
    }
}

/* Writes the last window (ending at t_end_ns, absolute; nothing when it is
 * not after t0_ns), flushes, moves a per_job_logs=0 log onto the shared
 * file, and frees l (NULL is fine). Returns 0, or the first write error with
 * a message in err. */
int iolog_close(struct iolog *l, uint64_t t0_ns, uint64_t t_end_ns, char *err, size_t errlen);

/* fio --inflate-log: the lines of a log_store_compressed file (zlib streams
 * one after another) onto out. 0, or a negative errno with a message. */
#include <stdio.h>
int iolog_inflate(const char *path, FILE *out, char *err, size_t errlen);

#endif
