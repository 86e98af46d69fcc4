/* test_numfmt.c - base/numfmt.h: numfmt_u64's digits and numfmt_g17 writing
 * exactly the bytes of snprintf("%.17g") over edge values (powers of ten
 * and their neighbours, ties, integers, the fast path's limits, signs,
 * infinities, NaN) and millions of values drawn over every exponent and over
 * the range figures take. */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "base/numfmt.h"

static uint64_t rnd(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* 0 when numfmt_g17(v) equals "%.17g"; else fills got/want. */
static int differs(double v, char got[64], char want[64])
{
    char *e = numfmt_g17(got, v);
    *e = 0;
    snprintf(want, 64, "%.17g", v);
    return strcmp(got, want);
}

TEST(u64_digits)
{
    char b[32];
    *numfmt_u64(b, 0) = 0;
    CHECK(!strcmp(b, "0"), "%s", b);
    *numfmt_u64(b, UINT64_MAX) = 0;
    CHECK(!strcmp(b, "18446744073709551615"), "%s", b);
}

TEST(g17_edges)
{
    char got[64], want[64];
    double fixed[] = {0.0,   -0.0,   1.0,   -1.0,  0.1,   0.5,     1e-4,     1e-5,  9.99999e-5, 1e16, 1e17,
                      1e17 - 8, 99999999999999992.0, 0.30000000000000004, 1.0 / 3, 2.0 / 3, 123456789.125,
                      21999.970366039917, 90.111878619299503, 67328, 4503599627370496.5, 9007199254740993.0,
                      DBL_MAX, DBL_MIN, DBL_TRUE_MIN, INFINITY, -INFINITY, NAN, 0.000123, 12345678901234567.0};
    for (size_t i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++)
        CHECK(!differs(fixed[i], got, want), "%.17g: got %s want %s", fixed[i], got, want);
    for (int e = -8; e <= 18; e++) {
        double p = pow(10, e);
        double near[] = {p, nextafter(p, 0), nextafter(p, INFINITY), -p, p * 0.5, p * 1.5, p - 0.5, p + 0.5};
        for (size_t i = 0; i < sizeof(near) / sizeof(near[0]); i++)
            CHECK(!differs(near[i], got, want), "%.17g: got %s want %s", near[i], got, want);
    }
}

/* Ties: values with exactly 18 significant digits ending in 5 (k / 2^n). */
TEST(g17_ties)
{
    char got[64], want[64];
    for (uint64_t k = 1; k < 200000; k += 7)
        for (int n = 1; n <= 12; n++) {
            double v = ldexp((double)(k * 1000003), -n);
            CHECK(!differs(v, got, want), "%.17g: got %s want %s", v, got, want);
        }
}

TEST(g17_random_bits)
{
    char got[64], want[64];
    uint64_t s = 0x9e3779b97f4a7c15ULL;
    for (int i = 0; i < 400000; i++) {
        uint64_t b = rnd(&s);
        double v;
        memcpy(&v, &b, sizeof(v));
        CHECK(!differs(v, got, want), "bits %016llx: got %s want %s", (unsigned long long)b, got, want);
    }
}

/* The range of figures: [1e-4, 1e17), uniform in the exponent. */
TEST(g17_random_range)
{
    char got[64], want[64];
    uint64_t s = 12345;
    for (int i = 0; i < 400000; i++) {
        double u = (double)(rnd(&s) >> 11) / 9007199254740992.0;
        double v = pow(10, -4 + 21 * u);
        if (rnd(&s) & 1)
            v = round(v * 1000) / 1000;
        CHECK(!differs(v, got, want), "%a: got %s want %s", v, got, want);
    }
}

CHECK_MAIN()
