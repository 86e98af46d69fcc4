/* replay_log.h - reading fio's I/O logs (read_iolog): "fio version 2 iolog"
 * and "fio version 3 iolog", as fio 3.33 reads them (iolog.c read_iolog).
 *
 * Version 3 lines are "USEC FILE ACTION" (add, open, close) or "USEC FILE
 * DIR OFFSET LENGTH" (read, write, trim, sync, datasync); version 2 lines
 * have no time stamp and may also be "FILE wait MSEC 0" (wait until MSEC
 * after the start). What fio applies on reading is applied here:
 * replay_redirect (every file is that one), replay_scale (offsets divided),
 * replay_align (offsets rounded down to a multiple), replay_time_scale
 * (time stamps times 100 / pct). A line fio would skip with a message is an
 * error here: "PATH:LINE: why", so a trace is replayed whole or not at all.
 *
 * The result is the list of I/Os in log order, each with the time since the
 * log's first time stamp at which it is due (v2: the last wait's), the files
 * in the order they were added, and per-direction counts and sizes. */
#ifndef SSDBENCH_REPLAY_LOG_H
#define SSDBENCH_REPLAY_LOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define RLOG_MAX_FILES 128
#define RLOG_PATH_MAX 256

/* Directions, numbered as base/io_dir.h's DIR_* and engine.h's io_op. */
enum rlog_op { RLOG_READ = 0, RLOG_WRITE = 1, RLOG_TRIM = 2, RLOG_SYNC = 3, RLOG_DATASYNC = 4 };

struct rlog_entry {
    uint64_t due_ns;     /* after the replay's start (time scale applied) */
    uint64_t off;        /* scale and align applied */
    uint32_t len;        /* 0 for syncs */
    uint8_t op;          /* enum rlog_op */
    uint16_t file;       /* index in rlog.files */
};

struct rlog_opts {
    const char *redirect;    /* replay_redirect; NULL or "" = the logged names */
    uint64_t align;          /* replay_align; 0 = none */
    unsigned scale;          /* replay_scale; 0 or 1 = none */
    unsigned time_scale;     /* replay_time_scale in percent; 0 = 100 */
    bool keep;               /* keep the entries (else counts, files and sizes only) */
};

struct rlog {
    unsigned version;                   /* 2 or 3 */
    unsigned nfiles;
    char files[RLOG_MAX_FILES][RLOG_PATH_MAX];
    uint64_t extent[RLOG_MAX_FILES];    /* highest offset + length per file */
    uint64_t count[5];                  /* per enum rlog_op */
    uint64_t bytes[3];                  /* read, write, trim */
    uint32_t max_len[3];
    uint64_t opens, closes, waits;      /* file actions and v2 waits read */
    struct rlog_entry *e;               /* opts.keep: n entries */
    size_t n;
};

/* Reads path into *out (cleared first; rlog_free releases it). 0, or -errno
 * with a one-line message naming the path and, for a bad line, its number. */
int rlog_read(const char *path, const struct rlog_opts *o, struct rlog *out, char *err, size_t errlen);
void rlog_free(struct rlog *lg);

#endif
