/* numfmt.h - decimal digits of an unsigned 64-bit number written at a
 * pointer, without printf: the log writers (stats/iolog.c, iolog_hist.c)
 * format every line of fio's logs with it. */
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

#endif
