/* textsafe.h - text output a terminal cannot be steered by: a FILE that
 * forwards everything written to it to another FILE with the control
 * characters escaped. Job names, paths, labels and device strings in a
 * result can hold any bytes; printed raw, an ESC sequence would move the
 * cursor, retitle the window or rewrite what was printed before.
 *
 * Escaped as "\xHH": the C0 controls (0x00-0x1f) except tab and newline,
 * DEL (0x7f), and bytes that are not part of well-formed UTF-8 (a stray
 * continuation byte, an invalid lead byte, a sequence cut short). The C1
 * controls U+0080-U+009F (UTF-8 0xc2 0x80-0x9f; 0x9b is CSI) are escaped
 * as "\u00HH". Everything else, valid UTF-8 included, passes unchanged.
 * Backslashes are not doubled: the text is for reading, not parsing.
 * JSON writers escape on their own and CSV writers quote; they do not use
 * this. */
#ifndef SSDBENCH_TEXTSAFE_H
#define SSDBENCH_TEXTSAFE_H

#include <stddef.h>
#include <stdio.h>

/* A write-only stream onto dst (which stays open and owned by the caller),
 * or NULL when out of memory. */
FILE *textsafe_open(FILE *dst);

/* Flushes and closes a textsafe_open stream (any incomplete UTF-8
 * sequence at the end is escaped). 0, or -1 when a write to dst failed. */
int textsafe_close(FILE *f);

/* Escapes n bytes of s into out (capacity outlen, always terminated when
 * outlen > 0), as the stream does; returns the length written. */
size_t textsafe_escape(const char *s, size_t n, char *out, size_t outlen);

#endif
