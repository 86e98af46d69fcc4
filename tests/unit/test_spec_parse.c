/* test_spec_parse.c - the fio value parsers against hand-computed values and
 * exact error messages. Unit expectations were checked against fio 3.33
 * (io_bytes / total_ios of null-engine runs), e.g. fio reads 4ki as 4096 and
 * 4kib as 4000 under the default kb_base. */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "check.h"
#include "job/spec_parse.h"

static char err[512];

#define SIZE_IS(str, base, want)                                                                \
    do {                                                                                        \
        uint64_t v_ = 0;                                                                        \
        int rc_ = spec_parse_size(str, base, &v_, err, sizeof(err));                            \
        CHECK(rc_ == 0, "'%s' (kb_base %u) rc %d: %s", str, (unsigned)(base), rc_, err);        \
        CHECK(v_ == (uint64_t)(want), "'%s' (kb_base %u) = %llu, want %llu", str,               \
              (unsigned)(base), (unsigned long long)v_, (unsigned long long)(want));            \
    } while (0)

#define FAILS_WITH(call, want_rc, want_msg)                                                     \
    do {                                                                                        \
        err[0] = '\0';                                                                          \
        int rc_ = (call);                                                                       \
        CHECK(rc_ == (want_rc), "rc %d, want %d (%s)", rc_, want_rc, err);                      \
        CHECK(!strcmp(err, want_msg), "message\n  got  '%s'\n  want '%s'", err, want_msg);      \
    } while (0)

static bool near(double a, double b)
{
    return fabs(a - b) < 1e-9;
}

TEST(size_units_default_base)
{
    SIZE_IS("4096", 1024, 4096);
    SIZE_IS("4k", 1024, 4096);
    SIZE_IS("4K", 1024, 4096);
    SIZE_IS("4kb", 1024, 4096);
    SIZE_IS("4KB", 1024, 4096);
    SIZE_IS("4ki", 1024, 4096);   /* fio: no "b", no inversion */
    SIZE_IS("4kib", 1024, 4000);  /* fio's deliberate inversion */
    SIZE_IS("4KiB", 1024, 4000);
    SIZE_IS("1m", 1024, 1048576);
    SIZE_IS("1mi", 1024, 1048576);
    SIZE_IS("1MiB", 1024, 1000000);
    SIZE_IS("1g", 1024, 1073741824ull);
    SIZE_IS("1gib", 1024, 1000000000ull);
    SIZE_IS("2t", 1024, 2199023255552ull);
    SIZE_IS("1p", 1024, 1125899906842624ull);
    SIZE_IS("4096b", 1024, 4096);
    SIZE_IS("4096B", 1024, 4096);
    SIZE_IS("0x1000", 1024, 4096);
    SIZE_IS("0X1f", 1024, 31);
    SIZE_IS("1.5k", 1024, 1536);
    SIZE_IS("0.5m", 1024, 524288);
    SIZE_IS("  64k  ", 1024, 65536);
    SIZE_IS("0", 1024, 0);
}

TEST(size_units_kb_base_1000)
{
    SIZE_IS("4k", 1000, 4000);
    SIZE_IS("4kb", 1000, 4000);
    SIZE_IS("4ki", 1000, 4000);
    SIZE_IS("4kib", 1000, 4096);
    SIZE_IS("4KiB", 1000, 4096);
    SIZE_IS("1m", 1000, 1000000);
    SIZE_IS("1mib", 1000, 1048576);
    SIZE_IS("3g", 1000, 3000000000ull);
    SIZE_IS("512", 1000, 512);
}

TEST(size_arithmetic)
{
    SIZE_IS("(8*1024)", 1024, 8192);
    SIZE_IS("(2^20)", 1024, 1048576);
    SIZE_IS("(1+1)k", 1024, 2048);
    SIZE_IS("(4k*2)", 1024, 8192);
    SIZE_IS("(10-2)*(1)", 1024, 8);  /* only the leading '(' matters */
    SIZE_IS("(7%4)", 1024, 3);
    SIZE_IS("(1m/4)", 1024, 262144);
    SIZE_IS("( 3 * 2 )k", 1000, 6000);
}

TEST(size_errors)
{
    uint64_t v = 77;
    FAILS_WITH(spec_parse_size("4q", 1024, &v, err, sizeof(err)), -EINVAL,
               "invalid size '4q' (expected a size such as 4096, 4k (4096 bytes), 64m, 1.5g or 0x1000)");
    CHECK(v == 77, "output changed on error: %llu", (unsigned long long)v);
    FAILS_WITH(spec_parse_size("", 1024, &v, err, sizeof(err)), -EINVAL,
               "empty size (expected a size such as 4096, 4k (4096 bytes), 64m, 1.5g or 0x1000)");
    FAILS_WITH(spec_parse_size("-4k", 1024, &v, err, sizeof(err)), -EINVAL,
               "invalid size '-4k' (expected a size such as 4096, 4k (4096 bytes), 64m, 1.5g or 0x1000)");
    FAILS_WITH(spec_parse_size("1.3k", 1024, &v, err, sizeof(err)), -EINVAL,
               "size '1.3k' is not a whole number of bytes");
    FAILS_WITH(spec_parse_size("20000p", 1024, &v, err, sizeof(err)), -EINVAL,
               "size '20000p' is too large");
    FAILS_WITH(spec_parse_size("4kk", 1024, &v, err, sizeof(err)), -EINVAL,
               "invalid size '4kk' (expected a size such as 4096, 4k (4096 bytes), 64m, 1.5g or 0x1000)");
    FAILS_WITH(spec_parse_size("0x", 1024, &v, err, sizeof(err)), -EINVAL,
               "invalid size '0x' (expected a size such as 4096, 4k (4096 bytes), 64m, 1.5g or 0x1000)");
    FAILS_WITH(spec_parse_size("20%", 1024, &v, err, sizeof(err)), -EINVAL,
               "invalid size '20%' (expected a size such as 4096, 4k (4096 bytes), 64m, 1.5g or 0x1000)");
    FAILS_WITH(spec_parse_size("(1+", 1024, &v, err, sizeof(err)), -EINVAL,
               "invalid size '(1+': number expected at '' (expected a size such as 4096, 4k (4096 bytes), 64m, 1.5g or 0x1000)");
    FAILS_WITH(spec_parse_size("(1/0)", 1024, &v, err, sizeof(err)), -EINVAL,
               "invalid size '(1/0)': division by zero at ')' (expected a size such as 4096, 4k (4096 bytes), 64m, 1.5g or 0x1000)");
    FAILS_WITH(spec_parse_size("(1-2)", 1024, &v, err, sizeof(err)), -EINVAL,
               "size '(1-2)' is negative");
    FAILS_WITH(spec_parse_size("(2q)", 1024, &v, err, sizeof(err)), -EINVAL,
               "invalid size '(2q)': unknown unit at 'q)' (expected a size such as 4096, 4k (4096 bytes), 64m, 1.5g or 0x1000)");
}

TEST(size_or_percent)
{
    uint64_t b = 9;
    double p = 9;
    CHECK(spec_parse_size_pct("20%", 1024, &b, &p, err, sizeof(err)) == 0, "%s", err);
    CHECK(b == 0 && near(p, 20), "b %llu p %g", (unsigned long long)b, p);
    CHECK(spec_parse_size_pct("12.5%", 1024, &b, &p, err, sizeof(err)) == 0, "%s", err);
    CHECK(near(p, 12.5), "p %g", p);
    CHECK(spec_parse_size_pct("100%", 1024, &b, &p, err, sizeof(err)) == 0, "%s", err);
    CHECK(near(p, 100), "p %g", p);
    CHECK(spec_parse_size_pct("2g", 1024, &b, &p, err, sizeof(err)) == 0, "%s", err);
    CHECK(b == 2147483648ull && p == 0, "b %llu p %g", (unsigned long long)b, p);
    /* fio: 0% is 0 (offset 0, size to the end) */
    b = p = 9;
    CHECK(spec_parse_size_pct("0%", 1024, &b, &p, err, sizeof(err)) == 0, "%s", err);
    CHECK(b == 0 && p == 0, "0%%: b %llu p %g", (unsigned long long)b, p);
    FAILS_WITH(spec_parse_size_pct("-1%", 1024, &b, &p, err, sizeof(err)), -EINVAL,
               "invalid percentage '-1%' (expected 0% to 100%)");
    FAILS_WITH(spec_parse_size_pct("101%", 1024, &b, &p, err, sizeof(err)), -EINVAL,
               "invalid percentage '101%' (expected 0% to 100%)");
    FAILS_WITH(spec_parse_size_pct("x%", 1024, &b, &p, err, sizeof(err)), -EINVAL,
               "invalid percentage 'x%' (expected 0% to 100%)");
}

#define TIME_IS(str, unit, want)                                                                \
    do {                                                                                        \
        uint64_t v_ = 0;                                                                        \
        int rc_ = spec_parse_time(str, unit, &v_, err, sizeof(err));                            \
        CHECK(rc_ == 0, "'%s' rc %d: %s", str, rc_, err);                                       \
        CHECK(v_ == (uint64_t)(want), "'%s' = %llu ns, want %llu", str,                         \
              (unsigned long long)v_, (unsigned long long)(want));                              \
    } while (0)

TEST(times)
{
    const uint64_t s = 1000000000ull;
    TIME_IS("30", s, 30 * s);
    TIME_IS("30s", s, 30 * s);
    TIME_IS("500ms", s, 500000000ull);
    TIME_IS("20msec", s, 20000000ull);
    TIME_IS("10us", s, 10000ull);
    TIME_IS("10usec", s, 10000ull);
    TIME_IS("100ns", s, 100ull);
    TIME_IS("5m", s, 300 * s);
    TIME_IS("2h", s, 7200 * s);
    TIME_IS("1d", s, 86400 * s);
    TIME_IS("1.5s", s, 1500000000ull);
    TIME_IS("1H", s, 3600 * s);
    TIME_IS("250", 1000, 250000ull);      /* option whose default unit is us */
    TIME_IS("(2*30)s", s, 60 * s);
    TIME_IS("(2*30)", s, 60 * s);          /* no unit written: the default unit */
    TIME_IS("(1s+500ms)", s, 1500000000ull);
    TIME_IS("1.5", 1000, 1500ull);
    uint64_t v;
    FAILS_WITH(spec_parse_time("5x", s, &v, err, sizeof(err)), -EINVAL,
               "invalid time '5x' (expected a time such as 500us, 20ms, 30s, 5m, 2h or 1d)");
    FAILS_WITH(spec_parse_time("1.5ns", s, &v, err, sizeof(err)), -EINVAL,
               "time '1.5ns' is not a whole number of nanoseconds");
    FAILS_WITH(spec_parse_time("soon", s, &v, err, sizeof(err)), -EINVAL,
               "invalid time 'soon' (expected a time such as 500us, 20ms, 30s, 5m, 2h or 1d)");
}

TEST(booleans)
{
    const char *yes[] = {"1", "true", "TRUE", "yes", "on", "On", " 1 ", ""};
    const char *no[] = {"0", "false", "no", "off", "OFF"};
    bool b;
    for (unsigned i = 0; i < sizeof(yes) / sizeof(yes[0]); i++) {
        b = false;
        CHECK(spec_parse_bool(yes[i], &b, err, sizeof(err)) == 0 && b, "'%s'", yes[i]);
    }
    for (unsigned i = 0; i < sizeof(no) / sizeof(no[0]); i++) {
        b = true;
        CHECK(spec_parse_bool(no[i], &b, err, sizeof(err)) == 0 && !b, "'%s'", no[i]);
    }
    b = false;
    CHECK(spec_parse_bool(NULL, &b, err, sizeof(err)) == 0 && b, "bare key is true");
    FAILS_WITH(spec_parse_bool("maybe", &b, err, sizeof(err)), -EINVAL,
               "invalid boolean 'maybe' (expected 1/0, true/false, yes/no or on/off)");
    FAILS_WITH(spec_parse_bool("2", &b, err, sizeof(err)), -EINVAL,
               "invalid boolean '2' (expected 1/0, true/false, yes/no or on/off)");
}

TEST(integers)
{
    uint64_t v;
    CHECK(spec_parse_uint_in("64", 1, 65536, &v, err, sizeof(err)) == 0 && v == 64, "%s", err);
    CHECK(spec_parse_uint_in("0x10", 1, 65536, &v, err, sizeof(err)) == 0 && v == 16, "%s", err);
    CHECK(spec_parse_uint_in("(4*8)", 1, 65536, &v, err, sizeof(err)) == 0 && v == 32, "%s", err);
    FAILS_WITH(spec_parse_uint_in("0", 1, 65536, &v, err, sizeof(err)), -EINVAL,
               "value 0 is out of range (allowed 1..65536)");
    FAILS_WITH(spec_parse_uint_in("4k", 1, 65536, &v, err, sizeof(err)), -EINVAL,
               "invalid number '4k' (expected a non-negative integer)");
    double d;
    CHECK(spec_parse_double("99.99", &d, err, sizeof(err)) == 0 && near(d, 99.99), "%g", d);
    FAILS_WITH(spec_parse_double("9.9.9", &d, err, sizeof(err)), -EINVAL,
               "invalid number '9.9.9' (expected a non-negative decimal such as 99.9)");
}

TEST(ranges)
{
    uint64_t lo, hi;
    CHECK(spec_parse_range("1k-4k", 1024, &lo, &hi, err, sizeof(err)) == 0, "%s", err);
    CHECK(lo == 1024 && hi == 4096, "%llu-%llu", (unsigned long long)lo, (unsigned long long)hi);
    CHECK(spec_parse_range("64k:4k", 1024, &lo, &hi, err, sizeof(err)) == 0, "%s", err);
    CHECK(lo == 4096 && hi == 65536, "swapped: %llu-%llu", (unsigned long long)lo,
          (unsigned long long)hi);
    CHECK(spec_parse_range("(1+1)k-(4-1)k", 1024, &lo, &hi, err, sizeof(err)) == 0, "%s", err);
    CHECK(lo == 2048 && hi == 3072, "%llu-%llu", (unsigned long long)lo, (unsigned long long)hi);
    FAILS_WITH(spec_parse_range("4k", 1024, &lo, &hi, err, sizeof(err)), -EINVAL,
               "invalid range '4k' (expected lo-hi or lo:hi, e.g. 4k-64k)");
    /* fio reads a malformed bssplit given to bsrange as its first two
     * numbers (fio 3.33 runs t0023's bsrange=512/25:1k:25:... as 512-1k) */
    CHECK(spec_parse_range("512/25:1k:25:2k:25:4k/25", 1024, &lo, &hi, err, sizeof(err)) == 0, "%s", err);
    CHECK(lo == 512 && hi == 1024, "%llu-%llu", (unsigned long long)lo, (unsigned long long)hi);
}

TEST(size_fio_tail)
{
    /* fio's str_to_decimal: the number and its unit letters; a tail that
     * starts with another character is ignored */
    uint64_t v;
    CHECK(spec_parse_size("1M)", 1024, &v, err, sizeof(err)) == 0 && v == 1048576, "%s %llu", err,
          (unsigned long long)v);
    CHECK(spec_parse_size("512/25", 1024, &v, err, sizeof(err)) == 0 && v == 512, "%s", err);
    CHECK(spec_parse_size("4k-8k", 1024, &v, err, sizeof(err)) == 0 && v == 4096, "%s", err);
    uint64_t ns;
    CHECK(spec_parse_time("30s)", SPEC_NS_PER_S, &ns, err, sizeof(err)) == 0 && ns == 30 * SPEC_NS_PER_S,
          "%s", err);
    /* unknown letters stay an error, as do a percent and a plain number's tail */
    FAILS_WITH(spec_parse_size("4q)", 1024, &v, err, sizeof(err)), -EINVAL,
               "invalid size '4q)' (expected a size such as 4096, 4k (4096 bytes), 64m, 1.5g or 0x1000)");
    FAILS_WITH(spec_parse_u64("4)", &v, err, sizeof(err)), -EINVAL,
               "invalid number '4)' (expected a non-negative integer)");
}

static const char *dirs_str(const char *f[SPEC_NDIRS], char *buf, size_t n)
{
    snprintf(buf, n, "%s|%s|%s", f[0] ? f[0] : "-", f[1] ? f[1] : "-", f[2] ? f[2] : "-");
    return buf;
}

TEST(per_direction_commas)
{
    static const struct {
        const char *in, *want;
    } cases[] = {
        {"8k", "8k|8k|8k"},       {"8k,32k", "8k|32k|32k"},   {"8k,32k,", "8k|32k|-"},
        {",8k", "-|8k|8k"},       {",8k,", "-|8k|-"},         {"8k,", "8k|-|-"},
        {"1,2,3", "1|2|3"},       {" 4k , 8k ", "4k|8k|8k"},  {"(1,2)", "(1,2)|(1,2)|(1,2)"},
    };
    char buf[256], out[256];
    const char *f[SPEC_NDIRS];
    for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        CHECK(spec_split_dirs(cases[i].in, buf, sizeof(buf), f, err, sizeof(err)) == 0, "%s: %s",
              cases[i].in, err);
        CHECK(!strcmp(dirs_str(f, out, sizeof(out)), cases[i].want), "'%s' -> %s, want %s",
              cases[i].in, out, cases[i].want);
    }
    FAILS_WITH(spec_split_dirs("1,2,3,4", buf, sizeof(buf), f, err, sizeof(err)), -EINVAL,
               "'1,2,3,4' has more than 3 comma-separated values (read,write,trim)");
    FAILS_WITH(spec_split_dirs(",", buf, sizeof(buf), f, err, sizeof(err)), -EINVAL,
               "empty value ','");
}

static void bs_init(struct job_bssplit b[DIR_COUNT])
{
    memset(b, 0, sizeof(struct job_bssplit) * DIR_COUNT);
    for (unsigned d = 0; d < DIR_COUNT; d++) {
        b[d].n = 1;
        b[d].bs[0] = 4096;
        b[d].pct[0] = 100;
    }
}

TEST(block_sizes)
{
    struct job_bssplit b[DIR_COUNT];
    bs_init(b);
    CHECK(spec_parse_bs("8k,32k", 1024, b, err, sizeof(err)) == 0, "%s", err);
    CHECK(b[0].n == 1 && b[0].bs[0] == 8192 && b[1].bs[0] == 32768 && near(b[1].pct[0], 100),
          "%u %u", b[0].bs[0], b[1].bs[0]);
    CHECK(spec_parse_bs("16k,", 1024, b, err, sizeof(err)) == 0, "%s", err);
    CHECK(b[0].bs[0] == 16384 && b[1].bs[0] == 32768, "trailing comma: %u %u", b[0].bs[0],
          b[1].bs[0]);
    CHECK(spec_parse_bs(",1m", 1024, b, err, sizeof(err)) == 0, "%s", err);
    CHECK(b[0].bs[0] == 16384 && b[1].bs[0] == 1048576, "leading comma: %u %u", b[0].bs[0],
          b[1].bs[0]);
    CHECK(spec_parse_bs("4k,8k,16k", 1024, b, err, sizeof(err)) == 0, "%s", err);
    CHECK(b[0].bs[0] == 4096 && b[1].bs[0] == 8192, "%u %u", b[0].bs[0], b[1].bs[0]);
    FAILS_WITH(spec_parse_bs("0", 1024, b, err, sizeof(err)), -EINVAL,
               "block size '0' is out of range (allowed 1 byte to 1g)");
    FAILS_WITH(spec_parse_bs("4k,2g", 1024, b, err, sizeof(err)), -EINVAL,
               "block size '2g' is out of range (allowed 1 byte to 1g)");
    CHECK(b[0].bs[0] == 4096 && b[1].bs[0] == 8192, "changed on error");
    /* trim values are checked even though they are dropped */
    FAILS_WITH(spec_parse_bs("4k,8k,4q", 1024, b, err, sizeof(err)), -EINVAL,
               "invalid size '4q' (expected a size such as 4096, 4k (4096 bytes), 64m, 1.5g or 0x1000)");

    uint32_t al[DIR_COUNT] = {0, 0};
    CHECK(spec_parse_blockalign("512,4k", 1024, al, err, sizeof(err)) == 0, "%s", err);
    CHECK(al[0] == 512 && al[1] == 4096, "%u %u", al[0], al[1]);
    CHECK(spec_parse_blockalign("0", 1024, al, err, sizeof(err)) == 0, "%s", err);
    CHECK(al[0] == 0 && al[1] == 0, "%u %u", al[0], al[1]);
}

TEST(bsrange_as_bssplit)
{
    struct job_bssplit b[DIR_COUNT];
    bs_init(b);
    CHECK(spec_parse_bsrange("1k-4k", 1024, b, err, sizeof(err)) == 0, "%s", err);
    CHECK(b[0].n == 4 && b[1].n == 4, "n %u %u", b[0].n, b[1].n);
    for (unsigned i = 0; i < 4; i++)
        CHECK(b[0].bs[i] == 1024 * (i + 1) && near(b[0].pct[i], 25), "entry %u: %u/%g", i,
              b[0].bs[i], b[0].pct[i]);
    /* 4k-10k: fio's draw lands on 4k 40%, 8k 40%, clamped 10k 20% */
    CHECK(spec_parse_bsrange("4k-10k", 1024, b, err, sizeof(err)) == 0, "%s", err);
    CHECK(b[0].n == 3 && b[0].bs[0] == 4096 && b[0].bs[1] == 8192 && b[0].bs[2] == 10240,
          "n %u", b[0].n);
    CHECK(near(b[0].pct[0], 40) && near(b[0].pct[1], 40) && near(b[0].pct[2], 20), "%g %g %g",
          b[0].pct[0], b[0].pct[1], b[0].pct[2]);
    /* 2048 multiples: 64 evenly spaced sizes with equal shares */
    CHECK(spec_parse_bsrange("512-1m", 1024, b, err, sizeof(err)) == 0, "%s", err);
    CHECK(b[0].n == 64 && b[0].bs[0] == 512 && b[0].bs[63] == 1048576, "n %u first %u last %u",
          b[0].n, b[0].bs[0], b[0].bs[63]);
    CHECK(b[0].bs[1] == 512 * 33 && near(b[0].pct[10], 100.0 / 64), "bs[1] %u", b[0].bs[1]);
    CHECK(spec_parse_bsrange("1k-2k,4k-8k", 1024, b, err, sizeof(err)) == 0, "%s", err);
    CHECK(b[0].n == 2 && b[0].bs[1] == 2048 && b[1].n == 2 && b[1].bs[0] == 4096 &&
          b[1].bs[1] == 8192, "per direction");
    FAILS_WITH(spec_parse_bsrange("0-4k", 1024, b, err, sizeof(err)), -EINVAL,
               "block size range '0-4k' is out of range (allowed 1 byte to 1g)");
}

TEST(bssplit)
{
    struct job_bssplit b[DIR_COUNT];
    bs_init(b);
    CHECK(spec_parse_bssplit("4k/60:64k/40", 1024, b, err, sizeof(err)) == 0, "%s", err);
    CHECK(b[0].n == 2 && b[0].bs[0] == 4096 && near(b[0].pct[0], 60) && b[0].bs[1] == 65536 &&
          near(b[0].pct[1], 40), "reads");
    CHECK(b[1].n == 2 && b[1].bs[1] == 65536 && near(b[1].pct[1], 40), "writes get the same");

    /* blank percentages share the remainder equally */
    CHECK(spec_parse_bssplit("4k/50:1k/:32k/", 1024, b, err, sizeof(err)) == 0, "%s", err);
    CHECK(b[0].n == 3 && near(b[0].pct[0], 50) && b[0].bs[1] == 1024 && near(b[0].pct[1], 25) &&
          b[0].bs[2] == 32768 && near(b[0].pct[2], 25), "%g %g %g", b[0].pct[0], b[0].pct[1],
          b[0].pct[2]);
    CHECK(spec_parse_bssplit("4k/40:8k/:16k", 1024, b, err, sizeof(err)) == 0, "%s", err);
    CHECK(near(b[0].pct[1], 30) && near(b[0].pct[2], 30), "%g %g", b[0].pct[1], b[0].pct[2]);
    CHECK(spec_parse_bssplit("8k", 1024, b, err, sizeof(err)) == 0, "%s", err);
    CHECK(b[0].n == 1 && b[0].bs[0] == 8192 && near(b[0].pct[0], 100), "single entry");

    /* per direction: reads first, then writes */
    CHECK(spec_parse_bssplit("2k/50:4k/50,4k/90:8k/10", 1024, b, err, sizeof(err)) == 0, "%s", err);
    CHECK(b[0].n == 2 && b[0].bs[0] == 2048 && near(b[0].pct[0], 50), "reads");
    CHECK(b[1].n == 2 && b[1].bs[0] == 4096 && near(b[1].pct[0], 90) && b[1].bs[1] == 8192 &&
          near(b[1].pct[1], 10), "writes");
    CHECK(spec_parse_bssplit("1k/100,", 1024, b, err, sizeof(err)) == 0, "%s", err);
    CHECK(b[0].bs[0] == 1024 && b[1].n == 2 && b[1].bs[0] == 4096, "trailing comma keeps writes");

    /* 0% entries are dropped; a trailing ':' is tolerated */
    CHECK(spec_parse_bssplit("4k/0:8k/100:", 1024, b, err, sizeof(err)) == 0, "%s", err);
    CHECK(b[0].n == 1 && b[0].bs[0] == 8192, "n %u", b[0].n);

    /* the JESD219 mix from profiles.md: 12 entries, 1536 and 3584 included */
    CHECK(spec_parse_bssplit("512/4:1k/1:1536/1:2k/1:2560/1:3k/1:3584/1:4k/67:8k/10:16k/7:32k/3:64k/3",
                             1024, b, err, sizeof(err)) == 0, "%s", err);
    CHECK(b[0].n == 12 && b[0].bs[2] == 1536 && b[0].bs[6] == 3584 && near(b[0].pct[7], 67),
          "n %u", b[0].n);

    bs_init(b);
    FAILS_WITH(spec_parse_bssplit("4k/60:64k/50", 1024, b, err, sizeof(err)), -EINVAL,
               "bssplit percentages for reads add up to 110%, not 100%");
    FAILS_WITH(spec_parse_bssplit("4k/60:64k/30", 1024, b, err, sizeof(err)), -EINVAL,
               "bssplit percentages for reads add up to 90%, not 100%");
    FAILS_WITH(spec_parse_bssplit("4k/100,4k/50:8k/20", 1024, b, err, sizeof(err)), -EINVAL,
               "bssplit percentages for writes add up to 70%, not 100%");
    FAILS_WITH(spec_parse_bssplit("4k/100:8k/", 1024, b, err, sizeof(err)), -EINVAL,
               "bssplit percentages for reads add up to 100%, leaving nothing for the 1 entry without one");
    FAILS_WITH(spec_parse_bssplit("4k/60::8k/40", 1024, b, err, sizeof(err)), -EINVAL,
               "bssplit for reads has an empty entry (expected SIZE/PERCENT:SIZE/PERCENT...)");
    FAILS_WITH(spec_parse_bssplit("4k/abc", 1024, b, err, sizeof(err)), -EINVAL,
               "bssplit percentage 'abc' for reads is invalid (expected 0 to 100)");
    CHECK(b[0].n == 1 && b[0].bs[0] == 4096 && b[1].n == 1, "unchanged after errors");

    char big[1024] = "";
    for (int i = 1; i <= 65; i++)
        snprintf(big + strlen(big), sizeof(big) - strlen(big), "%s%dk/", i > 1 ? ":" : "", i);
    FAILS_WITH(spec_parse_bssplit(big, 1024, b, err, sizeof(err)), -EINVAL,
               "bssplit for reads has more than 64 entries");
}

TEST(distributions)
{
    struct job_distribution d;
    memset(&d, 0, sizeof(d));
    CHECK(spec_parse_distribution("random", &d, err, sizeof(err)) == 0 && d.kind == DIST_UNIFORM,
          "%s", err);
    CHECK(spec_parse_distribution("uniform", &d, err, sizeof(err)) == 0 && d.kind == DIST_UNIFORM,
          "%s", err);
    CHECK(spec_parse_distribution("zipf", &d, err, sizeof(err)) == 0 && d.kind == DIST_ZIPF &&
          near(d.param, 1.1), "zipf default %g", d.param);
    CHECK(spec_parse_distribution("zipf:1.2", &d, err, sizeof(err)) == 0 && near(d.param, 1.2), "%s", err);
    CHECK(spec_parse_distribution("zipf:1", &d, err, sizeof(err)) == 0 && near(d.param, 1), "%s", err);
    CHECK(spec_parse_distribution("zipf:0.8:0", &d, err, sizeof(err)) == 0 && near(d.param, 0.8), "%s", err);
    CHECK(spec_parse_distribution("pareto", &d, err, sizeof(err)) == 0 && d.kind == DIST_PARETO &&
          near(d.param, 0.2), "pareto default");
    CHECK(spec_parse_distribution("pareto:0.3", &d, err, sizeof(err)) == 0 && near(d.param, 0.3), "%s", err);
    CHECK(spec_parse_distribution("normal:10", &d, err, sizeof(err)) == 0 && d.kind == DIST_NORMAL &&
          near(d.param, 10), "%s", err);
    CHECK(spec_parse_distribution("gauss:2.5", &d, err, sizeof(err)) == 0 && d.kind == DIST_NORMAL &&
          near(d.param, 2.5), "%s", err);

    FAILS_WITH(spec_parse_distribution("zipf:0", &d, err, sizeof(err)), -EINVAL,
               "zipf theta 0 is out of range (expected more than 0)");
    FAILS_WITH(spec_parse_distribution("pareto:1", &d, err, sizeof(err)), -EINVAL,
               "pareto h 1 is out of range (expected more than 0 and less than 1)");
    FAILS_WITH(spec_parse_distribution("normal", &d, err, sizeof(err)), -EINVAL,
               "normal sigma (none) is out of range (expected normal:SIGMA with 0 < SIGMA < 100, percent of the range)");
    FAILS_WITH(spec_parse_distribution("zipf:1.2:0.25", &d, err, sizeof(err)), -ENOTSUP,
               "a zipf hot-spot centre other than 0 is not supported ('0.25')");
    FAILS_WITH(spec_parse_distribution("zoned_abs:60/20G:40/", &d, err, sizeof(err)), -ENOTSUP,
               "random_distribution=zoned_abs is not supported (expected random, uniform, zipf:THETA, pareto:H, normal:SIGMA or zoned:ACCESS/RANGE:...)");
    FAILS_WITH(spec_parse_distribution("lognormal", &d, err, sizeof(err)), -EINVAL,
               "unknown distribution 'lognormal' (expected random, uniform, zipf:THETA, pareto:H, normal:SIGMA or zoned:ACCESS/RANGE:...)");
    FAILS_WITH(spec_parse_distribution("random:3", &d, err, sizeof(err)), -EINVAL,
               "distribution 'random' takes no parameter");
}

TEST(zoned_shares)
{
    struct job_distribution d;
    memset(&d, 0, sizeof(d));
    CHECK(spec_parse_distribution("zoned:50/5:30/15:20/80", &d, err, sizeof(err)) == 0, "%s", err);
    CHECK(d.kind == DIST_ZONED && d.nzones == 3, "kind %d n %u", d.kind, d.nzones);
    CHECK(near(d.zones[0].access_pct, 50) && near(d.zones[0].range_pct, 5) &&
          near(d.zones[1].access_pct, 30) && near(d.zones[1].range_pct, 15) &&
          near(d.zones[2].access_pct, 20) && near(d.zones[2].range_pct, 80), "zones");
    CHECK(spec_parse_distribution("zoned:50/5:30/15:20/", &d, err, sizeof(err)) == 0, "%s", err);
    CHECK(near(d.zones[2].range_pct, 80), "blank range takes the rest: %g", d.zones[2].range_pct);
    CHECK(spec_parse_distribution("zoned:40/10:30/:20/:10/40", &d, err, sizeof(err)) == 0, "%s", err);
    CHECK(d.nzones == 4 && near(d.zones[1].range_pct, 25) && near(d.zones[2].range_pct, 25) &&
          near(d.zones[3].range_pct, 40), "%g %g", d.zones[1].range_pct, d.zones[2].range_pct);
    /* the same list for both directions is fine */
    CHECK(spec_parse_distribution("zoned:60/10:40/90,60/10:40/90", &d, err, sizeof(err)) == 0, "%s", err);
    CHECK(d.nzones == 2 && near(d.zones[0].access_pct, 60), "per-direction equal");

    FAILS_WITH(spec_parse_distribution("zoned:50/5:30/15:10/80", &d, err, sizeof(err)), -EINVAL,
               "zoned access shares add up to 90%, not 100%");
    FAILS_WITH(spec_parse_distribution("zoned:50/50:50/60", &d, err, sizeof(err)), -EINVAL,
               "zoned range shares add up to 110%, not 100%");
    FAILS_WITH(spec_parse_distribution("zoned:50/100:50/", &d, err, sizeof(err)), -EINVAL,
               "zoned range shares add up to 100%, leaving nothing for the zones without one");
    FAILS_WITH(spec_parse_distribution("zoned:50/5:30/15:20/,50/10:50/90", &d, err, sizeof(err)),
               -ENOTSUP,
               "per-direction zoned lists are not supported: one list applies to reads and writes");
    FAILS_WITH(spec_parse_distribution("zoned", &d, err, sizeof(err)), -EINVAL,
               "zoned distribution needs zones (expected random, uniform, zipf:THETA, pareto:H, normal:SIGMA or zoned:ACCESS/RANGE:...)");
    FAILS_WITH(spec_parse_distribution("zoned:100/0", &d, err, sizeof(err)), -EINVAL,
               "zoned range share '0' is invalid (expected more than 0 and at most 100)");
}

TEST(percentile_lists)
{
    double p[JOB_PCT_MAX];
    unsigned n = 0;
    CHECK(spec_parse_percentiles("99.9:50:99", p, &n, err, sizeof(err)) == 0, "%s", err);
    CHECK(n == 3 && near(p[0], 50) && near(p[1], 99) && near(p[2], 99.9), "sorted: n %u", n);
    CHECK(spec_parse_percentiles("50,99,99.99,100", p, &n, err, sizeof(err)) == 0, "%s", err);
    CHECK(n == 4 && near(p[2], 99.99) && near(p[3], 100), "comma form");
    CHECK(spec_parse_percentiles("99:99:1", p, &n, err, sizeof(err)) == 0 && n == 2 && near(p[0], 1),
          "duplicates removed: n %u", n);
    char many[256] = "";
    for (int i = 1; i <= 24; i++)
        snprintf(many + strlen(many), sizeof(many) - strlen(many), "%s%d", i > 1 ? ":" : "", i);
    CHECK(spec_parse_percentiles(many, p, &n, err, sizeof(err)) == 0 && n == 24, "24 values: %s", err);
    strcat(many, ":25");
    FAILS_WITH(spec_parse_percentiles(many, p, &n, err, sizeof(err)), -EINVAL,
               "percentile list '1:2:3:4:5:6:7:8:9:10:11:12:13:14:15:16:17:18:19:20:21:22:23:24:25' has more than 24 values");
    FAILS_WITH(spec_parse_percentiles("50:0", p, &n, err, sizeof(err)), -EINVAL,
               "invalid percentile '0' (expected more than 0 and at most 100)");
    FAILS_WITH(spec_parse_percentiles("100.1", p, &n, err, sizeof(err)), -EINVAL,
               "invalid percentile '100.1' (expected more than 0 and at most 100)");
    FAILS_WITH(spec_parse_percentiles(":", p, &n, err, sizeof(err)), -EINVAL,
               "empty percentile list (expected values such as 50:99:99.9)");
}

TEST(rw_modes)
{
    static const struct {
        const char *s;
        enum job_rw rw;
        unsigned nr;
        uint64_t hole;
    } ok[] = {
        {"read", RW_READ, 1, 0},           {"write", RW_WRITE, 1, 0},
        {"randread", RW_RANDREAD, 1, 0},   {"randwrite", RW_RANDWRITE, 1, 0},
        {"rw", RW_RW, 1, 0},               {"readwrite", RW_RW, 1, 0},
        {"randrw", RW_RANDRW, 1, 0},       {"randread:8", RW_RANDREAD, 8, 0},
        {"randrw:2", RW_RANDRW, 2, 0},     {"write:4k", RW_WRITE, 1, 4096},
        {"read:1m", RW_READ, 1, 1048576},  {"rw:512", RW_RW, 1, 512},
        {"RandRead", RW_RANDREAD, 1, 0},   {"trim", RW_TRIM, 1, 0},
        {"randtrim", RW_RANDTRIM, 1, 0},   {"trimwrite", RW_TRIMWRITE, 1, 0},
        {"randtrimwrite", RW_RANDTRIMWRITE, 1, 0}, {"randtrim:4", RW_RANDTRIM, 4, 0},
        {"trim:8k", RW_TRIM, 1, 8192},
    };
    for (unsigned i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
        enum job_rw rw = RW_RANDRW;
        unsigned nr = 99;
        uint64_t hole = 99;
        CHECK(spec_parse_rw(ok[i].s, 1024, &rw, &nr, &hole, err, sizeof(err)) == 0, "%s: %s",
              ok[i].s, err);
        CHECK(rw == ok[i].rw && nr == ok[i].nr && hole == ok[i].hole, "%s: rw %d nr %u hole %llu",
              ok[i].s, rw, nr, (unsigned long long)hole);
    }
    enum job_rw rw;
    unsigned nr;
    uint64_t hole;
    FAILS_WITH(spec_parse_rw("randread:0", 1024, &rw, &nr, &hole, err, sizeof(err)), -EINVAL,
               "invalid rw suffix 'randread:0' (random modes take a count of I/Os per offset, e.g. randread:8)");
    FAILS_WITH(spec_parse_rw("write:x", 1024, &rw, &nr, &hole, err, sizeof(err)), -EINVAL,
               "invalid rw suffix 'write:x' (sequential modes take a size to skip after each I/O, e.g. write:4k, or to step back, e.g. write:-8k)");
    FAILS_WITH(spec_parse_rw("readonly", 1024, &rw, &nr, &hole, err, sizeof(err)), -EINVAL,
               "unknown rw mode 'readonly' (expected read, write, randread, randwrite, rw, readwrite, randrw, trim, randtrim, trimwrite or randtrimwrite)");
}

TEST(engines_layouts_buffers)
{
    static const struct {
        const char *s;
        enum engine_kind e;
    } eng[] = {
        {"io_uring", ENGINE_IO_URING}, {"libaio", ENGINE_LIBAIO}, {"psync", ENGINE_PSYNC},
        {"pvsync", ENGINE_PSYNC},      {"sync", ENGINE_PSYNC},    {"null", ENGINE_NULL},
    };
    for (unsigned i = 0; i < sizeof(eng) / sizeof(eng[0]); i++) {
        enum engine_kind e = ENGINE_NULL + 1;
        CHECK(spec_parse_engine(eng[i].s, &e, err, sizeof(err)) == 0 && e == eng[i].e, "%s", eng[i].s);
    }
    enum engine_kind e;
    FAILS_WITH(spec_parse_engine("pvsync2", &e, err, sizeof(err)), -ENOTSUP,
               "unsupported ioengine 'pvsync2' (expected io_uring, libaio, posixaio, psync, pvsync, sync, null, io_uring_cmd, sg, falloc, ftruncate, cpuio, filecreate, filestat, filedelete, exec or e4defrag)");
    FAILS_WITH(spec_parse_engine("uring", &e, err, sizeof(err)), -EINVAL,
               "unknown ioengine 'uring' (expected io_uring, libaio, posixaio, psync, pvsync, sync, null, io_uring_cmd, sg, falloc, ftruncate, cpuio, filecreate, filestat, filedelete, exec or e4defrag)");

    enum job_layout l = LAYOUT_JBOD;
    uint64_t chunk = 7;
    CHECK(spec_parse_layout("stripe:256k", 1024, &l, &chunk, err, sizeof(err)) == 0 &&
          l == LAYOUT_STRIPE && chunk == 262144, "%s", err);
    chunk = 7;
    CHECK(spec_parse_layout("stripe", 1024, &l, &chunk, err, sizeof(err)) == 0 && chunk == 7, "%s", err);
    CHECK(spec_parse_layout("random", 1024, &l, &chunk, err, sizeof(err)) == 0 && l == LAYOUT_RANDOM, "%s", err);
    CHECK(spec_parse_layout("jbod", 1024, &l, &chunk, err, sizeof(err)) == 0 && l == LAYOUT_JBOD, "%s", err);
    FAILS_WITH(spec_parse_layout("stripe:100", 1024, &l, &chunk, err, sizeof(err)), -EINVAL,
               "stripe chunk '100' is out of range (allowed a multiple of 512 from 512 to 1g)");
    FAILS_WITH(spec_parse_layout("raid5", 1024, &l, &chunk, err, sizeof(err)), -EINVAL,
               "unknown layout 'raid5' (expected jbod, stripe[:CHUNK] or random)");

    enum job_buffer b = BUF_RANDOM;
    unsigned pct = 0;
    CHECK(spec_parse_buffer("compressible:50", &b, &pct, err, sizeof(err)) == 0 &&
          b == BUF_COMPRESSIBLE && pct == 50, "%s", err);
    CHECK(spec_parse_buffer("zero", &b, &pct, err, sizeof(err)) == 0 && b == BUF_ZERO, "%s", err);
    CHECK(spec_parse_buffer("random", &b, &pct, err, sizeof(err)) == 0 && b == BUF_RANDOM, "%s", err);
    FAILS_WITH(spec_parse_buffer("compressible:101", &b, &pct, err, sizeof(err)), -EINVAL,
               "invalid compressible share '101' (expected compressible:PCT with PCT 0..100)");
    FAILS_WITH(spec_parse_buffer("ones", &b, &pct, err, sizeof(err)), -EINVAL,
               "unknown buffer 'ones' (expected random, zero or compressible:PCT)");
}

CHECK_MAIN()
