/* utf8.h - well-formed UTF-8 for everything ssdbench writes as JSON.
 *
 * Paths, device model and serial strings, job names and command-line
 * arguments can hold any bytes. JSON text must be UTF-8, so every byte that
 * is not part of a well-formed sequence (RFC 3629: no overlong forms, no
 * surrogates U+D800..U+DFFF, nothing above U+10FFFF, no truncated sequence)
 * is replaced by U+FFFD (EF BF BD), one replacement per offending byte.
 * Control characters are valid UTF-8 and left alone here; the JSON printer
 * escapes them as \u00XX. docs/results.md documents the scheme.
 */
#ifndef SSDBENCH_CORE_UTF8_H
#define SSDBENCH_CORE_UTF8_H

#include <stdbool.h>
#include <stddef.h>

/* Length of the well-formed sequence at p (1..4), or 0 when the byte at p
 * does not start one within avail bytes. */
size_t utf8_seq_len(const unsigned char *p, size_t avail);

/* True when s[0..len) is well-formed UTF-8. */
bool utf8_valid(const char *s, size_t len);

/* A malloc'd, NUL-terminated copy of s[0..len) with every ill-formed byte
 * replaced by U+FFFD; its length in *outlen (may be NULL). NULL on out of
 * memory. */
char *utf8_fix(const char *s, size_t len, size_t *outlen);

#endif
