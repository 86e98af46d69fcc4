/* gcd.h - the greatest common divisor of two unsigned 64-bit numbers
 * (Euclid), for block sizes that must divide a region or a set of lengths. */
#ifndef SSDBENCH_GCD_H
#define SSDBENCH_GCD_H

#include <stdint.h>

static inline uint64_t gcd_u64(uint64_t a, uint64_t b)
{
    while (b) {
        uint64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

#endif
