/* slurp.h - reading the inputs a user names (job files and their includes,
 * ACT configs and logs, profile files, result files and journals) without
 * hanging or running out of memory: only a regular file is opened (a FIFO, a
 * device such as /dev/zero, a directory is refused with one line, without
 * blocking), and a size cap stated in the message bounds what is read. "-"
 * is standard input, read with the same cap. */
#ifndef SSDBENCH_SLURP_H
#define SSDBENCH_SLURP_H

#include <stddef.h>
#include <stdio.h>

/* Opens path for reading when it is a regular file of at most max bytes
 * (max 0 = any size); "-" = stdin. what names the kind of input in messages
 * ("job file"). Returns the stream, or NULL with a one-line message naming
 * the path and errno set (EINVAL: not a regular file, EFBIG: too large). */
FILE *slurp_open(const char *path, const char *what, size_t max, char *err, size_t errlen);

/* Reads a whole input by the same rules into one NUL-terminated malloc'ed
 * buffer (caller frees) and its length, or NULL with a one-line message
 * ("FILE: job file larger than 4 MiB") and errno set (the open error, EINVAL,
 * EFBIG, ENOMEM, or EIO on a read error). */
char *slurp_named(const char *path, const char *what, size_t max, size_t *len, char *err, size_t errlen);

/* slurp_named with what = "file". */
char *slurp(const char *path, size_t max, size_t *len, char *err, size_t errlen);

/* "4 MiB", "1 GiB", "512 KiB" or bytes, for the messages. */
void slurp_size_str(char *buf, size_t len, size_t bytes);

#endif
