/* numfmt_g17.c - a double written as printf's "%.17g" writes it (17
 * significant digits, exact, shortest of the f and e styles, trailing zeros
 * dropped), without printf for the values figures have: integers below
 * 1e17 and every value in [1e-4, 1e17) are rounded exactly in 128-bit
 * integer arithmetic (round half to even, as glibc does in the default
 * rounding mode); other values go to snprintf. `archive list --format json`
 * writes 120,000 numbers over 10,000 results with it. */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "base/numfmt.h"

typedef unsigned __int128 u128;

static const char DIGITS2[] = "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
                              "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
                              "8081828384858687888990919293949596979899";

static const uint64_t P10[] = {1ULL,
                               10ULL,
                               100ULL,
                               1000ULL,
                               10000ULL,
                               100000ULL,
                               1000000ULL,
                               10000000ULL,
                               100000000ULL,
                               1000000000ULL,
                               10000000000ULL,
                               100000000000ULL,
                               1000000000000ULL,
                               10000000000000ULL,
                               100000000000000ULL,
                               1000000000000000ULL,
                               10000000000000000ULL,
                               100000000000000000ULL,
                               1000000000000000000ULL,
                               10000000000000000000ULL};

/* round(m * 10^k / 2^s), ties to even; m < 2^53, k <= 20, 1 <= s <= 120. */
static u128 scaled(uint64_t m, int k, int s)
{
    u128 p = (u128)m;
    if (k > 19) {
        p *= P10[19];
        k -= 19;
    }
    p *= P10[k];
    u128 q = p >> s, r = p & (((u128)1 << s) - 1), half = (u128)1 << (s - 1);
    if (r > half || (r == half && (q & 1)))
        q++;
    return q;
}

/* The 17 significant digits of v (0 < v, v = m * 2^-s, 1e-4 <= v < 1e17)
 * as an integer in [1e16, 1e17) and v's decimal exponent x after
 * rounding; false when x falls outside [-4, 16]. b is v's binary exponent
 * (2^b <= v < 2^(b+1)): floor(b * log10(2)) is the decimal exponent or one
 * less (78913 / 2^18 is log10(2) to within 2e-7, exact enough for |b| < 2^10). */
static bool digits17(uint64_t m, int s, int b, int *x, uint64_t *out)
{
    int e = b >= 0 ? (b * 78913) >> 18 : -((-b * 78913 + (1 << 18) - 1) >> 18); /* corrected below */
    e = e < -4 ? -4 : e > 16 ? 16 : e;
    for (int tries = 0; tries < 4; tries++) {
        u128 q = scaled(m, 16 - e, s);
        if (q < (u128)P10[16]) {
            if (e-- == -4)
                return false;
        } else if (q >= (u128)P10[17]) {
            if (e++ == 16)
                return false;
        } else {
            *x = e;
            *out = (uint64_t)q;
            return true;
        }
    }
    return false;
}

char *numfmt_g17(char *p, double v)
{
    if (!isfinite(v) || v == 0) {
        if (v == 0 && !signbit(v)) {
            *p++ = '0';
            return p;
        }
        return p + snprintf(p, 32, "%.17g", v);
    }
    double a = fabs(v);
    if (a < 1e17 && a == (double)(uint64_t)a) { /* an integer: every digit is significant */
        if (signbit(v))
            *p++ = '-';
        return numfmt_u64(p, (uint64_t)a);
    }
    if (a < 1e-4 || a >= 1e17)
        return p + snprintf(p, 32, "%.17g", v);
    if (signbit(v))
        *p++ = '-';
    int ex;
    double fr = frexp(a, &ex); /* a = fr * 2^ex, fr in [0.5, 1) */
    uint64_t m = (uint64_t)ldexp(fr, 53);
    int s = 53 - ex;
    if (s <= 0) /* an integer below 1e17: every digit is significant */
        return numfmt_u64(p, m << -s);
    while (s > 0 && !(m & 1)) { /* fewer fraction bits, same value */
        m >>= 1;
        s--;
    }
    if (s == 0)
        return numfmt_u64(p, m);
    int x;
    uint64_t d;
    if (!digits17(m, s, ex - 1, &x, &d)) {
        p -= signbit(v) != 0; /* the sign is snprintf's to write */
        return p + snprintf(p, 32, "%.17g", v);
    }
    char dig[17];
    dig[16] = (char)('0' + d % 10);
    d /= 10;
    for (int i = 14; i >= 0; i -= 2) { /* two digits a step */
        memcpy(dig + i, DIGITS2 + 2 * (d % 100), 2);
        d /= 100;
    }
    int n = 17;
    while (n > 1 && dig[n - 1] == '0')
        n--;
    if (x >= 0) {
        int ip = x + 1; /* integer digits */
        memcpy(p, dig, (size_t)(ip < n ? ip : n));
        p += ip < n ? ip : n;
        for (int i = n; i < ip; i++)
            *p++ = '0';
        if (n > ip) {
            *p++ = '.';
            memcpy(p, dig + ip, (size_t)(n - ip));
            p += n - ip;
        }
    } else {
        *p++ = '0';
        *p++ = '.';
        for (int i = 0; i < -x - 1; i++)
            *p++ = '0';
        memcpy(p, dig, (size_t)n);
        p += n;
    }
    return p;
}
