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

#endif
