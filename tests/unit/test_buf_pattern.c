/* test_buf_pattern.c - fio's pattern syntax (base/buf_pattern.h): the
 * examples of fio 3.33's lib/pattern.c, the hex and decimal corner cases,
 * files, the errors, and the fill that repeats a pattern from a buffer's
 * start. */
#include "check.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "base/buf_pattern.h"

static uint8_t out[BUF_PATTERN_MAX];
static char err[160];

/* parses s and compares with the n bytes of want */
static int same(const char *s, const uint8_t *want, int n)
{
    memset(out, 0xee, sizeof(out));
    int got = buf_pattern_parse(s, out, sizeof(out), err, sizeof(err));
    return got == n && !memcmp(out, want, (size_t)n);
}

#define SAME(s, ...)                                                                     \
    do {                                                                                 \
        static const uint8_t w_[] = {__VA_ARGS__};                                       \
        CHECK(same(s, w_, (int)sizeof(w_)), "pattern %s (err '%s')", s, err);            \
    } while (0)

TEST(fio_documented_examples)
{
    SAME("\"abcd\"", 0x61, 0x62, 0x63, 0x64);
    SAME("-1024", 0x00, 0xfc, 0xff, 0xff);
    SAME("66", 0x42);
    SAME("0xFF0X1", 0xff, 0x01);
    SAME("\"123\"0xFFeeCC", 0x31, 0x32, 0x33, 0xff, 0xee, 0xcc);
    SAME("0xfefefefefefefefefefefefefefefefefefefefefe", 0xfe, 0xfe, 0xfe, 0xfe, 0xfe, 0xfe, 0xfe, 0xfe,
         0xfe, 0xfe, 0xfe, 0xfe, 0xfe, 0xfe, 0xfe, 0xfe, 0xfe, 0xfe, 0xfe, 0xfe, 0xfe);
    SAME("0xdeadface\"abcd\"-12", 0xde, 0xad, 0xfa, 0xce, 0x61, 0x62, 0x63, 0x64, 0xf4, 0xff, 0xff, 0xff);
}

TEST(hex_and_decimal_corners)
{
    SAME("0xfff", 0x0f, 0xff);      /* odd digit count: the first byte takes one */
    SAME("0xff0x14", 0xff, 0x14);   /* the 0 before x starts the next number */
    SAME("0", 0x00);
    SAME("-1", 0xff, 0xff, 0xff, 0xff);
    SAME("256", 0x00, 0x01);
    SAME("2147483647", 0xff, 0xff, 0xff, 0x7f);
    SAME("-100xab", 0xf6, 0xff, 0xff, 0xff, 0xab); /* fio: -10 then 0xab */
    SAME("1 2", 0x01, 0x02);        /* a decimal may follow blanks (strtol) */
    SAME("\"a b\"", 0x61, 0x20, 0x62);
}

TEST(errors_name_the_element)
{
    static const char *const bad[] = {"", "\"abc", "\"\"", "zz", "2147483648", "-2147483649",
                                      "0xzz", "12,13", "0xx1", "'/nonexistent/ssdbench-pattern'"};
    for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        err[0] = '\0';
        CHECK(buf_pattern_parse(bad[i], out, sizeof(out), err, sizeof(err)) < 0, "'%s' accepted", bad[i]);
        CHECK(err[0], "no message for '%s'", bad[i]);
    }
    /* too long: 513 bytes of hex */
    char big[2 + 2 * 513 + 1] = "0x";
    for (int i = 0; i < 513; i++)
        memcpy(big + 2 + 2 * i, "ab", 2);
    big[sizeof(big) - 1] = '\0';
    CHECK(buf_pattern_parse(big, out, sizeof(out), err, sizeof(err)) < 0, "513 bytes accepted");
    CHECK(strstr(err, "512"), "message: %s", err);
    CHECK(buf_pattern_parse(big + 2, out, sizeof(out), err, sizeof(err)) < 0, "huge decimal accepted");
}

TEST(file_element)
{
    char path[] = "/tmp/ssdbench-pattern-XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0, "mkstemp");
    CHECK(write(fd, "xyz", 3) == 3, "write");
    close(fd);
    char spec[64];
    snprintf(spec, sizeof(spec), "0x01'%s'\"!\"", path);
    static const uint8_t want[] = {0x01, 'x', 'y', 'z', '!'};
    int ok = same(spec, want, 5);
    unlink(path);
    CHECK(ok, "file pattern (err '%s')", err);
}

TEST(fill_repeats_from_the_start)
{
    static const uint8_t pat[] = {1, 2, 3};
    uint8_t b[1000];
    buf_pattern_fill(pat, 3, b, sizeof(b));
    for (unsigned i = 0; i < sizeof(b); i++)
        CHECK(b[i] == pat[i % 3], "byte %u = %u", i, b[i]);
    uint8_t s[2] = {0, 0};
    buf_pattern_fill(pat, 3, s, 2); /* shorter than the pattern */
    CHECK(s[0] == 1 && s[1] == 2, "short fill");
}

CHECK_MAIN()
