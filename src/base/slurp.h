/* slurp.h - reads a whole text file (or "-" = standard input) into one
 * NUL-terminated buffer, for the small inputs ssdbench parses in one piece
 * (result documents, profile files). */
#ifndef SSDBENCH_SLURP_H
#define SSDBENCH_SLURP_H

#include <stddef.h>

/* Returns a malloc'ed buffer (caller frees) and its length, or NULL with a
 * one-line message naming the path and errno set (the open error, EFBIG when
 * larger than max or out of memory, EIO on a read error). */
char *slurp(const char *path, size_t max, size_t *len, char *err, size_t errlen);

/* Whether fd may be read as a text file: NULL for a regular file, a pipe or
 * a socket, else why not ("is a directory", "is a device, not a file"):
 * reading a device such as /dev/zero as a text file would never end. */
const char *slurp_not_text(int fd);

#endif
