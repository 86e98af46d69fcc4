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

/* --baseline: at most FILEIO_MAX_BASELINES results, each named in the
 * scaling tables by its label (result_label: its label, else the file name). */
#define FILEIO_MAX_BASELINES 8
#define FILEIO_LABEL_MAX 64

/* Loads the --baseline results paths[0..n) into docs and their labels.
 * Each must be a fileio result with a scaling table; another kind (a
 * suite, ACT or run result) is refused with one line naming the file and
 * its kind. WL_OK, or WL_USAGE after that line with nothing left loaded. */
int fileio_cmd_baselines(const char *const *paths, unsigned n, cJSON **docs,
                         char labels[][FILEIO_LABEL_MAX]);
void fileio_cmd_baselines_free(cJSON **docs, unsigned n);

/* Records the baselines in the document: fileio.baselines [{file, label}]. */
void fileio_doc_baselines(cJSON *doc, const char *const *paths, char labels[][FILEIO_LABEL_MAX], unsigned n);

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
