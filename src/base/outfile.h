/* outfile.h - safe output files: the one way ssdbench writes any file other
 * than a benchmark target, whether the user named it (--result, --output,
 * report -o, ACT --log) or ssdbench made the name (fio-format logs, verify
 * dumps and state, agg-*_bw.log, report CSV tables, the journal).
 *
 * The rule (docs/design.md, "Outputs and the journal"):
 *  - an absent path or a regular file is written to a new temporary file in
 *    the same directory (created O_EXCL|O_NOFOLLOW) and renamed over the path
 *    when complete, so a reader sees the old or the new file, never half;
 *  - a character device, FIFO or socket (/dev/null, /dev/stdout on a pipe or
 *    terminal) is written into directly, as a plain open would; it is never
 *    replaced;
 *  - a directory or a block device is refused;
 *  - /dev/stdout, /dev/stderr, /dev/fd/N and /proc/self/fd/N name files
 *    this process already has open: written through a duplicate of that
 *    descriptor, whatever it is (a pipe, a terminal, a file the shell
 *    redirected to), as writing to standard output would;
 *  - any other symbolic link as the last component is followed only to a
 *    character device, FIFO or socket; a link to a regular file or a
 *    dangling link is refused: renaming over it would replace the link,
 *    writing through it would put data where the name does not say.
 *  - a FIFO is opened without blocking; with no reader yet it is retried
 *    for up to OUTFILE_FIFO_WAIT_S seconds, then refused (never a hang).
 * Names ssdbench derives itself (outfile_open_derived, outfile_open_append:
 * per-job and shared fio logs, verify dumps and state, agg-*_bw.log, report
 * CSV tables) are stricter: nobody named what is there, so the last
 * component must be absent or a regular file. A symbolic link (to anything),
 * a FIFO, a socket or a device is refused, judged before anything is opened
 * (and for appends again on the descriptor, opened O_NOFOLLOW|O_NONBLOCK).
 * Every refusal is a one-line message naming the path.
 */
#ifndef SSDBENCH_OUTFILE_H
#define SSDBENCH_OUTFILE_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct outfile {
    FILE *f;             /* write here between outfile_open and commit/abort */
    char path[4096];     /* the path as named */
    char tmp[4200];      /* the temporary file to rename; "" when direct */
    bool created;        /* outfile_open_stream made path itself: abort removes it */
};

/* Opens path for writing by the rule above ("-" = standard output, written
 * directly). Returns 0, or a negative errno with a one-line message. */
int outfile_open(struct outfile *o, const char *path, char *err, size_t errlen);

/* How long a FIFO named as an output may have no reader before it is refused. */
#define OUTFILE_FIFO_WAIT_S 10

/* outfile_open for a name ssdbench derived itself: absent or a regular
 * file (replaced by a rename at commit); anything else is refused. */
int outfile_open_derived(struct outfile *o, const char *path, char *err, size_t errlen);

/* Opens a derived name for appending (fio's shared logs): created if absent
 * (O_NOFOLLOW), else it must be a regular file; written in place, so commit
 * only flushes and closes. Anything but a regular file is refused, checked
 * on the descriptor opened O_NONBLOCK (a FIFO swapped in cannot hang it). */
int outfile_open_append(struct outfile *o, const char *path, char *err, size_t errlen);

/* outfile_check for a derived name, or for any output of a read-only run:
 * 0 when path is absent or a regular file (or "-", /dev/stdout, /dev/fd/N:
 * a descriptor this process already has), else a negative errno with a
 * one-line message. Opens nothing but a temporary file in the directory. */
int outfile_check_strict(const char *path, char *err, size_t errlen);

/* outfile_open for a log written as a run goes (ACT's log): an absent path
 * is created as the file itself (O_CREAT|O_EXCL|O_NOFOLLOW) and written
 * directly, so a run killed with SIGKILL leaves every line written so far
 * under the name the user gave; an existing regular file is still replaced
 * only at commit (the old log stays whole until the new one is). Everything
 * else as outfile_open. */
int outfile_open_stream(struct outfile *o, const char *path, char *err, size_t errlen);

/* Flushes and closes; for a temporary file also fsyncs and renames it over
 * the path. On any failure the temporary file is removed and the path is left
 * as it was. Returns 0 or a negative errno with a one-line message. */
int outfile_commit(struct outfile *o, char *err, size_t errlen);

/* True for the error outfile_commit returns when the reader of a pipe went
 * away (ssdbench run | head -1): a clean stop, not a failure to report. */
#define OUTFILE_READER_GONE(rc) ((rc) == -EPIPE)

/* Closes and removes the temporary file (nothing is renamed), or the file
 * outfile_open_stream created. */
void outfile_abort(struct outfile *o);

/* Checks, before a long run, that path could be written by outfile_open:
 * opens it as outfile_open would (creating and removing a temporary file in
 * its directory; a FIFO nobody reads yet is accepted without waiting) and
 * aborts. Returns 0 when path would be replaced by a rename (a regular file
 * or a new name), 1 when written directly (a device, FIFO, socket or "-"),
 * or a negative errno with a one-line message. */
int outfile_check(const char *path, char *err, size_t errlen);

/* Creates path as a new regular file (O_CREAT|O_EXCL|O_NOFOLLOW): for files
 * ssdbench derives from a user's name, such as the RESULT.partial journal.
 * Returns the fd or a negative errno with a one-line message. */
int outfile_create_new(const char *path, char *err, size_t errlen);

#endif
