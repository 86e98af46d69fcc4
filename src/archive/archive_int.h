/* archive_int.h - what the archive's own files share: the open database
 * and its one-line error messages. Not for use outside src/archive/. */
#ifndef SSDBENCH_ARCHIVE_INT_H
#define SSDBENCH_ARCHIVE_INT_H

#include <sqlite3.h>

#include "archive/archive.h"

/* How long a statement waits for another process's write lock. */
#define ARCHIVE_BUSY_MS 60000

struct archive {
    sqlite3 *db;
    char *path;
    sqlite3_stmt *fig_st;   /* archive_figures' statement, prepared once */
};

/* err = "PATH: what: SQLite's message (why)"; returns the matching
 * negative errno (-EBUSY for a lock held too long, -EINVAL for a damaged
 * file). */
int archive_sql_err(struct archive *a, const char *what, char *err, size_t errlen);

/* Runs sql (no results); 0 or archive_sql_err. */
int archive_exec(struct archive *a, const char *sql, char *err, size_t errlen);

/* archive_list with an ORDER BY clause of its own (on the results row r). */
int archive_list_ordered(struct archive *a, const struct archive_filter *f, const char *order, unsigned limit,
                         archive_row_fn fn, void *ctx, char *err, size_t errlen);

#endif
