/* buf_pattern.h - fio's byte-pattern syntax (buffer_pattern) and the fill
 * that repeats a pattern over a buffer.
 *
 * A pattern is a run of elements written back to back, as fio 3.33's
 * lib/pattern.c reads them:
 *   "text"      the bytes between double quotes (no escapes)
 *   'file'      the first bytes of that file (read when the job is parsed)
 *   0xHEX       hex digits in written order; an odd count gives the first
 *               byte one digit (0xfff = 0f ff); "0xff0x14" is two numbers
 *   DECIMAL     an int in [INT_MIN, INT_MAX], stored least significant byte
 *               first with as many bytes as it needs (66 = 42, -1 = ff ff ff
 *               ff, 0 = 00); a decimal stops where a later "0x" begins
 * The pattern is then repeated over each buffer from the buffer's start
 * (fio's cpy_pattern). fio has no repetition operator inside a pattern.
 */
#ifndef SSDBENCH_BUF_PATTERN_H
#define SSDBENCH_BUF_PATTERN_H

#include <stddef.h>
#include <stdint.h>

/* fio's MAX_PATTERN_SIZE */
#define BUF_PATTERN_MAX 512

/* Parses s into out (at most cap bytes). Returns the pattern length (> 0),
 * or -1 with a one-line message in err naming the bad element. */
int buf_pattern_parse(const char *s, uint8_t *out, unsigned cap, char *err, size_t errlen);

/* Fills len bytes of out with the n-byte pattern, repeated from its first
 * byte (n > 0). */
void buf_pattern_fill(const uint8_t *pat, unsigned n, void *out, size_t len);

#endif
