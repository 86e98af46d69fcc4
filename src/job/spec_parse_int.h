/* spec_parse_int.h - helpers shared by spec_parse.c and spec_parse_mix.c.
 *
 * Not a public interface: other modules use spec_parse.h only.
 */
#ifndef SSDBENCH_SPEC_PARSE_INT_H
#define SSDBENCH_SPEC_PARSE_INT_H

#include <stddef.h>

#include "base/errmsg.h"

/* Longest stretch of a user value quoted in a message, so it stays one line. */
#define SPEC_QUOTE_MAX 80

/* Writes the message and returns rc (-EINVAL or -ENOTSUP). */
#define spec_fail errmsg

/* First character of s that is one of seps and not inside parentheses. */
char *spec_find_sep(char *s, const char *seps);


/* Copies s into buf, failing with a message when it does not fit. */
int spec_copy(const char *s, char *buf, size_t buflen, char *err, size_t errlen);

/* Case-insensitive equality of a (length alen) and the NUL-terminated b. */
int spec_eq(const char *a, size_t alen, const char *b);

#endif
