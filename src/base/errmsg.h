/* errmsg.h - the one way library code reports an error: a one-line message
 * into the caller's buffer (which may be NULL or empty) and an error code
 * returned, so `return errmsg(err, n, -EINVAL, "...", ...);` reads as one
 * statement. */
#ifndef SSDBENCH_ERRMSG_H
#define SSDBENCH_ERRMSG_H

#include <stddef.h>

int errmsg(char *err, size_t errlen, int rc, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

#endif
