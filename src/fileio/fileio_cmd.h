/* fileio_cmd.h - `ssdbench fileio` as a workload: prepare, cleanup and the
 * run of every --threads value in a session, with sysbench's refusals and
 * warnings. What the user sees of it (sysbench's text, its FATAL lines)
 * comes from the caller's view; the CLI renders the finished document. */
#ifndef SSDBENCH_FILEIO_CMD_H
#define SSDBENCH_FILEIO_CMD_H

#include <stdint.h>
#include <cjson/cJSON.h>

#include "fileio/fileio.h"
#include "workload/session.h"

/* How a fileio command shows itself as it goes; any function may be NULL. */
struct fileio_view {
    void *arg;
    void (*file)(void *arg, const char *name, enum fileio_file_state st); /* prepare, per file */
    void (*begin)(void *arg, const cJSON *opts, unsigned threads);        /* before a thread count */
    fileio_row_fn row;                                                   /* each interval */
    void (*phase)(void *arg, const cJSON *phase);                         /* after a thread count */
    void (*fatal)(void *arg, const char *msg);                            /* sysbench's FATAL */
};

/* Reads --baseline's result: *base, or NULL without a path. WL_OK, or
 * WL_FAIL after a one-line error (not a result of ssdbench fileio). */
int fileio_cmd_baseline(const char *path, cJSON **base);

/* prepare: the files (fileio_prepare), their bytes and seconds. A refusal is
 * WL_USAGE (nothing written), another failure WL_FAIL, both after fatal. */
int fileio_cmd_prepare(const struct fileio_opts *o, const struct guard_consent *consent,
                       const struct fileio_view *v, uint64_t *written, double *secs);

/* cleanup: removes ssdbench's test files; statuses as prepare's. */
int fileio_cmd_cleanup(const struct fileio_opts *o, const struct guard_consent *consent,
                       const struct fileio_view *v);

/* run: claims the files (removing them first for seqwr, as sysbench),
 * checks them, then runs each --threads value as a phase in s, labelled
 * label (NULL: the current directory). Sets s->done and returns
 * plan_exit_code's status when every value ran; WL_USAGE or WL_FAIL after
 * fatal otherwise. */
int fileio_cmd_run(struct session *s, const struct fileio_opts *o, const char *label,
                   const struct fileio_view *v);

#endif
