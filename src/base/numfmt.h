/* numfmt.h - numbers written at a pointer, without printf: the decimal
 * digits of an unsigned 64-bit number (the log writers, stats/iolog.c and
 * iolog_hist.c, format every line of fio's logs with it) and a double as
 * "%.17g" writes it (numfmt_g17.c; archive list's JSON). */
#ifndef SSDBENCH_BASE_NUMFMT_H
#define SSDBENCH_BASE_NUMFMT_H

#include <stdint.h>

/* Writes the digits of v at p (at most 20 bytes, no terminator); returns
 * the end. */
static inline char *numfmt_u64(char *p, uint64_t v)
{
    char tmp[24];
    unsigned n = 0;
    do {
        tmp[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    while (n)
        *p++ = tmp[--n];
    return p;
}

/* Writes v at p exactly as snprintf(p, 32, "%.17g", v) would (at most 24
 * bytes, no terminator); returns the end. */
char *numfmt_g17(char *p, double v);

#endif
