/* fio_progress.h - what fio prints while jobs run, for fio mode: the ETA
 * line on stderr (--eta=always|never|auto, --eta-newline=T), the running
 * totals every --status-interval=T (on stderr, so the output stays one
 * document), and --bandwidth-log's aggregate logs agg-read_bw.log and
 * agg-write_bw.log. Fed by the runner's interval hook. */
#ifndef SSDBENCH_FIO_PROGRESS_H
#define SSDBENCH_FIO_PROGRESS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "runner/runner.h"

enum fio_eta { FIO_ETA_AUTO, FIO_ETA_ALWAYS, FIO_ETA_NEVER };

struct fio_progress {
    /* settings */
    enum fio_eta eta;
    uint64_t eta_newline_ns;      /* 0: the ETA line is rewritten with '\r' */
    uint64_t status_interval_ns;  /* 0: no running totals */
    bool bw_log;                  /* --bandwidth-log */
    double planned_s;             /* the run's planned length, 0 when bounded by bytes */
    FILE *err;                    /* where the ETA and status lines go (stderr) */
    /* state */
    FILE *log[DIR_COUNT];
    uint64_t base_ns;             /* run time of the phases before this one */
    uint64_t now_ns;              /* run time at the end of the last interval */
    uint64_t next_status_ns, last_newline_ns;
    uint64_t ios[DIR_COUNT], bytes[DIR_COUNT];
    bool line_open;
};

/* Opens the bandwidth logs (appending, as fio's logs). 0, or -1 with a
 * one-line message in err. */
int fio_progress_start(struct fio_progress *p, char *err, size_t errlen);
/* runner_opts.on_interval with arg = the struct fio_progress; never stops
 * the phase. */
bool fio_progress_hook(void *arg, const struct runner_interval *iv);
/* Ends the ETA line and closes the logs: 0, or -1 after a one-line error
 * when a log could not be written. */
int fio_progress_end(struct fio_progress *p);

/* fio's num2str for the figures: 4 significant digits in B, KiB, MiB, ...
 * (binary) or B, kB, MB, ... (decimal), then suffix: "3483MiB/s". */
void fio_num(char *buf, size_t len, double v, bool binary, const char *suffix);

#endif
