/* numfmt.h - numbers written at a pointer, without printf: the decimal
 * digits of an unsigned 64-bit number (the log writers, stats/iolog.c and
 * iolog_hist.c, format every line of fio's logs with it) and a double as
 * "%.17g" writes it (numfmt_g17.c; archive list's JSON). */
#ifndef SSDBENCH_BASE_NUMFMT_H
#define SSDBENCH_BASE_NUMFMT_H

#include <stdint.h>
#include <string.h>

/* Writes the digits of v at p (at most 20 bytes, no terminator); returns
 * the end. */
static inline char *numfmt_u64(char *p, uint64_t v)
{
    static const char d2[] = "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
                             "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
                             "8081828384858687888990919293949596979899";
    char tmp[24];
    unsigned n = sizeof(tmp);
    while (v >= 100) { /* two digits a step, from the right */
        n -= 2;
        memcpy(tmp + n, d2 + 2 * (v % 100), 2);
        v /= 100;
    }
    if (v >= 10) {
        n -= 2;
        memcpy(tmp + n, d2 + 2 * v, 2);
    } else {
        tmp[--n] = (char)('0' + v);
    }
    memcpy(p, tmp + n, sizeof(tmp) - n);
    return p + (sizeof(tmp) - n);
}

/* Writes v at p exactly as snprintf(p, 32, "%.17g", v) would (at most 24
 * bytes, no terminator); returns the end. */
char *numfmt_g17(char *p, double v);

#endif
