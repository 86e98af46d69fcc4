/* replay_log.h - reading the logs fio 3.33 replays (read_iolog): "fio
 * version 2 iolog" and "fio version 3 iolog" (iolog.c read_iolog), and
 * blktrace binary files, told apart by the blktrace magic in the first
 * record (blktrace.c, base/replay_blk.c).
 *
 * Version 3 lines are "USEC FILE ACTION" (add, open, close) or "USEC FILE
 * DIR OFFSET LENGTH" (read, write, trim, sync, datasync); version 2 lines
 * have no time stamp and may also be "FILE wait MSEC 0" (wait until MSEC
 * after the start). What fio applies on reading is applied here:
 * replay_redirect (every file is that one), replay_scale (offsets divided),
 * replay_align (offsets rounded down to a multiple), replay_time_scale
 * (gaps times 100 / pct), replay_no_stall (no gaps, no waits). A line fio
 * would skip with a message, or on which fio 3.33 aborts (an I/O on a file
 * the log has not opened, an open of an open file), is an error here:
 * "PATH:LINE: why" (blktrace: "PATH: record N: why"), so a trace is
 * replayed whole or not at all.
 *
 * The entries are the log's lines in order, file actions included (fio
 * replays them: an open after a close reopens the file, and each one
 * restarts the gap's clock), each with its gap: the time since the
 * previous line's stamp (fio's delay_since_ttime), slept relative to the
 * previous issue as fio's iolog_delay does. They are read whole
 * (rlog_read) or a chunk at a time from a stream (read_iolog_chunked,
 * bounded memory: rlog_stream_*). */
#ifndef SSDBENCH_REPLAY_LOG_H
#define SSDBENCH_REPLAY_LOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define RLOG_MAX_FILES 128
#define RLOG_PATH_MAX 256

/* Directions, numbered as base/io_dir.h's DIR_* and engine.h's io_op; then
 * the file actions and version 2's wait. */
enum rlog_op {
    RLOG_READ = 0, RLOG_WRITE = 1, RLOG_TRIM = 2, RLOG_SYNC = 3, RLOG_DATASYNC = 4,
    RLOG_ADD = 5, RLOG_OPEN = 6, RLOG_CLOSE = 7,
    RLOG_WAIT = 8, /* version 2: wait until gap_ns after the start */
};
#define RLOG_IS_IO(op) ((op) <= RLOG_DATASYNC)

struct rlog_entry {
    uint64_t gap_ns;     /* fio's delay before it (time scale applied); RLOG_WAIT: its time after the start */
    uint64_t off;        /* scale and align applied */
    uint32_t len;        /* 0 for syncs and file actions */
    uint8_t op;          /* enum rlog_op */
    uint16_t file;       /* index in rlog.files */
};

/* replay_skip's bits (fio: only blktrace input is skipped) */
#define RLOG_SKIP_READ (1u << 0)
#define RLOG_SKIP_WRITE (1u << 1)
#define RLOG_SKIP_TRIM (1u << 2)
#define RLOG_SKIP_SYNC (1u << 3)

struct rlog_opts {
    const char *redirect;    /* replay_redirect; NULL or "" = the logged names */
    uint64_t align;          /* replay_align; 0 = none */
    unsigned scale;          /* replay_scale; 0 or 1 = none */
    unsigned time_scale;     /* replay_time_scale in percent; 0 = 100 */
    bool no_stall;           /* replay_no_stall: gaps are 0, version 2 waits dropped */
    unsigned skip;           /* replay_skip: RLOG_SKIP_* (blktrace only, as fio) */
    const char *dev_dir;     /* blktrace without redirect: where devices are looked up (NULL = "/dev") */
    bool read_only;          /* fio's --readonly: writes (and trims) are not replayed, as fio skips them */
    bool keep;               /* rlog_read: keep the entries (else counts, files and sizes only) */
};

struct rlog {
    unsigned version;                   /* 2 or 3; 0 = blktrace */
    bool blktrace;
    unsigned nfiles;
    char files[RLOG_MAX_FILES][RLOG_PATH_MAX];
    uint64_t extent[RLOG_MAX_FILES];    /* highest offset + length per file */
    uint64_t count[5];                  /* per enum rlog_op */
    uint64_t bytes[3];                  /* read, write, trim */
    uint32_t max_len[3];
    uint64_t opens, closes, reopens, waits; /* file actions, opens after a close, v2 waits */
    unsigned depth;                     /* blktrace: fio's probed depth (queued less merged, per completion) */
    uint64_t ro_skipped;                /* read_only: the writes left out (fio's "skips replay of N writes") */
    struct rlog_entry *e;               /* rlog_read with opts.keep: n entries */
    size_t n;
};

/* Reads path into *out (cleared first; rlog_free releases it). 0, or -errno
 * with a one-line message naming the path and, for a bad line, its number. */
int rlog_read(const char *path, const struct rlog_opts *o, struct rlog *out, char *err, size_t errlen);
void rlog_free(struct rlog *lg);

/* A log read as it is replayed: rlog_stream_open allocates once (and fills
 * *lg's files and counts as it goes; lg must outlive the stream);
 * rlog_stream_next puts up to max (at least 2) entries into e: their count,
 * 0 at the end, or -errno with the message. */
struct rlog_stream;
int rlog_stream_open(const char *path, const struct rlog_opts *o, struct rlog *lg, struct rlog_stream **out,
                     char *err, size_t errlen);
long rlog_stream_next(struct rlog_stream *st, struct rlog_entry *e, size_t max, char *err, size_t errlen);
void rlog_stream_close(struct rlog_stream *st);

/* fio's ':' list of logs (read_iolog=a:b, "\:" a colon in a name): the
 * name clone idx replays (idx modulo their number) into out; false when
 * the list has no name or it does not fit. */
bool rlog_list_name(const char *list, unsigned idx, char *out, size_t outlen);
unsigned rlog_list_count(const char *list);

#endif
