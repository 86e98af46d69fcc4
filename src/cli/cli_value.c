/* cli_value.c - see cli_value.h. */
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "job/spec_parse.h"
#include "cli/cli_value.h"

static int fail(char *msg, size_t msglen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(char *msg, size_t msglen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (msg && msglen)
        vsnprintf(msg, msglen, fmt, ap);
    va_end(ap);
    return -1;
}

static int in_range(double x, double lo, double hi, unsigned flags)
{
    if (isnan(x))
        return 0;
    if (flags & CLI_LO_OPEN ? !(x > lo) : !(x >= lo))
        return 0;
    return flags & CLI_HI_OPEN ? x < hi : x <= hi;
}

/* "(0, 100]": the range as the messages write it */
static void range_str(double lo, double hi, unsigned flags, char *buf, size_t len)
{
    snprintf(buf, len, "%c%g, %g%c", flags & CLI_LO_OPEN ? '(' : '[', lo, hi, flags & CLI_HI_OPEN ? ')' : ']');
}

int cli_parse_pct(const char *opt, const char *v, double lo, double hi, unsigned flags, double *out, char *msg,
                  size_t msglen)
{
    char *e;
    double x = v && *v ? strtod(v, &e) : NAN;
    if (isnan(x) || e == v || (*e && strcmp(e, "%") != 0) || !in_range(x, lo, hi, flags)) {
        char r[64];
        range_str(lo, hi, flags, r, sizeof(r));
        return fail(msg, msglen, "%s: '%s' is not a percentage in %s", opt, v ? v : "", r);
    }
    *out = x;
    return 0;
}

int cli_parse_real(const char *opt, const char *v, double lo, double hi, unsigned flags, double *out, char *msg,
                   size_t msglen)
{
    char *e;
    double x = v && *v ? strtod(v, &e) : NAN;
    if (isnan(x) || e == v || *e || !in_range(x, lo, hi, flags)) {
        char r[64];
        range_str(lo, hi, flags, r, sizeof(r));
        return fail(msg, msglen, "%s: '%s' is not a number in %s", opt, v ? v : "", r);
    }
    *out = x;
    return 0;
}

int cli_parse_uint(const char *opt, const char *v, uint64_t lo, uint64_t hi, uint64_t *out, char *msg,
                   size_t msglen)
{
    char why[256];
    uint64_t x;
    if (!v || spec_parse_uint_in(v, lo, hi, &x, why, sizeof(why)) < 0)
        return fail(msg, msglen, "%s: '%s' is not a number in %" PRIu64 "..%" PRIu64, opt, v ? v : "", lo, hi);
    *out = x;
    return 0;
}

void cli_size_str(uint64_t b, char *buf, size_t len)
{
    static const char *const unit[] = {"", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    unsigned u = 0;
    while (b && b % 1024 == 0 && u < 6) {
        b /= 1024;
        u++;
    }
    snprintf(buf, len, "%" PRIu64 "%s", b, unit[u]);
}

int cli_parse_size(const char *opt, const char *v, uint64_t lo, uint64_t hi, uint64_t step, uint64_t *out,
                   char *msg, size_t msglen)
{
    char why[256] = "";
    uint64_t x = 0;
    int bad = !v || spec_parse_size(v, 1024, &x, why, sizeof(why)) < 0;
    if (bad || x < lo || x > hi || (step > 1 && x % step)) {
        char a[32], b[32];
        cli_size_str(lo, a, sizeof(a));
        cli_size_str(hi, b, sizeof(b));
        if (step > 1)
            return fail(msg, msglen, "%s: '%s' is not a size in %s..%s, a multiple of %" PRIu64, opt, v ? v : "", a,
                        b, step);
        return fail(msg, msglen, "%s: '%s' is not a size in %s..%s (e.g. 4k, 16g)", opt, v ? v : "", a, b);
    }
    *out = x;
    return 0;
}

int cli_parse_duration(const char *opt, const char *v, uint64_t unit_ns, uint64_t lo_ns, uint64_t hi_ns,
                       int whole_unit, uint64_t *ns, char *msg, size_t msglen)
{
    char why[256] = "";
    uint64_t x = 0;
    if (!v || spec_parse_time(v, unit_ns, &x, why, sizeof(why)) < 0)
        return fail(msg, msglen, "%s: %s", opt, why[0] ? why : "not a time");
    if (whole_unit && unit_ns && x % unit_ns)
        return fail(msg, msglen, "%s: '%s' is not a whole number of %s", opt, v,
                    unit_ns == SPEC_NS_PER_S ? "seconds" : "units");
    if (x < lo_ns || x > hi_ns) {
        if (lo_ns == 1 && hi_ns == UINT64_MAX)
            return fail(msg, msglen, "%s: '%s': must be more than 0", opt, v);
        return fail(msg, msglen, "%s: '%s' is not a time from %" PRIu64 " to %" PRIu64 " s", opt, v,
                    (uint64_t)(lo_ns / SPEC_NS_PER_S), (uint64_t)(hi_ns / SPEC_NS_PER_S));
    }
    *ns = x;
    return 0;
}

void cli_enum_names(const struct cli_enum *e, const char *last_sep, char *buf, size_t len)
{
    size_t n = 0, k = 0;
    buf[0] = 0;
    while (e[k].name)
        k++;
    for (size_t i = 0; i < k && n < len; i++) {
        const char *sep = i == 0 ? "" : i + 1 == k ? last_sep : ", ";
        int w = snprintf(buf + n, len - n, "%s%s", sep, e[i].name);
        if (w < 0)
            break;
        n += (size_t)w;
    }
}

int cli_parse_enum(const char *opt, const char *v, const struct cli_enum *e, int *out, char *msg, size_t msglen)
{
    for (const struct cli_enum *p = e; v && p->name; p++)
        if (!strcmp(v, p->name)) {
            *out = p->value;
            return 0;
        }
    char names[256];
    cli_enum_names(e, " or ", names, sizeof(names));
    return fail(msg, msglen, "%s: '%s' is not %s", opt, v ? v : "", names);
}
