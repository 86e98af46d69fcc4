/* replay_log_int.h - the state of one log read, shared by the text reader
 * (replay_log.c), the blktrace reader (replay_blk.c) and what both do with
 * an entry (replay_emit.c); nothing outside base/replay_* includes it. */
#ifndef SSDBENCH_REPLAY_LOG_INT_H
#define SSDBENCH_REPLAY_LOG_INT_H

#include <stdio.h>

#include "base/replay_log.h"

#define RLOG_LINE_MAX 4096

struct rlog_stream {
    FILE *fp;
    char path[RLOG_PATH_MAX];
    char redirect[RLOG_PATH_MAX];    /* "" = none */
    char dev_dir[RLOG_PATH_MAX];
    struct rlog_opts o;              /* o.redirect points at redirect (or NULL) */
    struct rlog *lg;
    unsigned line;                   /* lines (records) read */
    uint64_t last_t;                 /* fio's io_log_last_ttime (0: none yet) */
    uint8_t last_act;                /* the last file action (fio's file_action, for a redirected re-add) */
    bool open[RLOG_MAX_FILES];       /* the log's view: open since its last open */
    bool opened[RLOG_MAX_FILES];     /* opened at least once (a later open is a reopen) */
    bool ended;
    /* blktrace */
    bool swap;
    unsigned cache_dev, cache_file;  /* the last device and its file (fio's file_cache) */
    bool cache_valid;
    unsigned dev_of[RLOG_MAX_FILES]; /* the device a file was last found for */
    int this_depth[3], depth[3];
    unsigned closes_left;            /* at the end: fio's close of every file, still to hand out */
    char buf[RLOG_LINE_MAX];
};

/* "PATH:LINE: " (blktrace: "PATH: record N: ") of the entry being read,
 * into err; its length */
int rlog_where(const struct rlog_stream *st, char *err, size_t errlen);
/* That place, then "why 'what'"; -EINVAL */
int rlog_bad(const struct rlog_stream *st, char *err, size_t errlen, const char *why, const char *what);
/* fio's delay_since_ttime on a stamp in the log's unit, then to ns
 * (unit_ns: 1000 for iolog microseconds, 1 for blktrace nanoseconds,
 * which fio truncates to microseconds) */
uint64_t rlog_gap(struct rlog_stream *st, uint64_t t, unsigned unit_ns);
/* Appends an entry (counts, extents, the log's open state); 1, or -EINVAL
 * with the message for an I/O on a file not open or an open of an open one */
int rlog_emit(struct rlog_stream *st, struct rlog_entry *e, struct rlog_entry *out, size_t *n, char *err,
              size_t errlen);
/* A file by name, added when new; its index or -E2BIG / -ENAMETOOLONG with the message */
int rlog_file(struct rlog_stream *st, const char *name, bool add, char *err, size_t errlen);

/* blktrace (replay_blk.c) */
bool rlog_blk_magic(const unsigned char *rec, size_t n, bool *swap);
long rlog_blk_next(struct rlog_stream *st, struct rlog_entry *e, size_t max, char *err, size_t errlen);

#endif
