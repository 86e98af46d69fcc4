/* cli_archive.h - the archive as the commands see it (archive/archive.h,
 * docs/archive.md): which database (--archive PATH, SSDBENCH_ARCHIVE, the
 * default), filing a finished result from a workload command, and loading
 * results named by a file or an archive selector (compare, report, check). */
#ifndef SSDBENCH_CLI_ARCHIVE_H
#define SSDBENCH_CLI_ARCHIVE_H

#include <stdbool.h>
#include <stddef.h>
#include <cjson/cJSON.h>

#include "archive/archive.h"

struct cli_output;

/* Opens the archive at path, or the default one when path is NULL; create
 * as archive_open. NULL after a one-line error. */
struct archive *cli_archive_open(const char *path, bool create);

/* A workload's finished document filed as --archive asked (nothing when it
 * did not): the same bytes --result writes. A failure prints one line and
 * returns -1; the result file is never touched. */
int cli_archive_workload(const cJSON *doc, const struct cli_output *o);

/* A loaded result and the name it came by. */
struct cli_loaded {
    cJSON *doc;
    char name[160];         /* the file name, or "archive:ID" */
};

/* Loads what name names: a result file (or journal), or every result an
 * archive selector names (archive_path: the --archive option, NULL =
 * default), appended to out[*n..max). 0, or -1 after a one-line error
 * (nothing appended). */
int cli_load_named(const char *name, const char *archive_path, struct cli_loaded *out, size_t max, size_t *n);

/* Frees what cli_load_named loaded. */
void cli_loaded_free(struct cli_loaded *l, size_t n);


#endif
