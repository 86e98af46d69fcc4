/* spec_parse.c - scalar values of the fio option language: numbers with units,
 * arithmetic in parentheses, times, booleans, ranges and the per-direction
 * comma rule. Compound values (block-size mixes, distributions, rw modes) are
 * in spec_parse_mix.c.
 *
 * Integers take an exact path (uint64 with overflow checks); only values with
 * a decimal point or in parentheses go through long double, and those must
 * come out as whole numbers.
 */
#include "job/spec_parse.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "job/spec_parse_int.h"

enum num_kind { NUM_PLAIN, NUM_SIZE, NUM_TIME };

struct num_ctx {
    enum num_kind kind;
    unsigned kb_base;
    uint64_t unit_ns;
};

static const char *const num_expect[] = {
    [NUM_PLAIN] = "a non-negative integer",
    [NUM_SIZE] = "a size such as 4096, 4k (4096 bytes), 64m, 1.5g or 0x1000",
    [NUM_TIME] = "a time such as 500us, 20ms, 30s, 5m, 2h or 1d",
};

char *spec_find_sep(char *s, const char *seps)
{
    int depth = 0;
    for (; *s; s++) {
        if (*s == '(')
            depth++;
        else if (*s == ')' && depth > 0)
            depth--;
        else if (depth == 0 && strchr(seps, *s))
            return s;
    }
    return NULL;
}

char *spec_trim(char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    size_t n = strlen(s);
    while (n > 0 && isspace((unsigned char)s[n - 1]))
        s[--n] = '\0';
    return s;
}

int spec_copy(const char *s, char *buf, size_t buflen, char *err, size_t errlen)
{
    size_t n = strlen(s);
    if (n + 1 > buflen)
        return spec_fail(err, errlen, -EINVAL, "value '%.*s...' is too long (at most %zu characters)",
                         SPEC_QUOTE_MAX, s, buflen - 1);
    memcpy(buf, s, n + 1);
    return 0;
}

int spec_eq(const char *a, size_t alen, const char *b)
{
    return strlen(b) == alen && strncasecmp(a, b, alen) == 0;
}

/* Multiplier of a size suffix; fio inverts only the "...ib" spellings. */
static int size_mult(const char *suf, size_t len, unsigned kb_base, uint64_t *mult)
{
    static const char letters[] = "kmgtp";
    if (len == 0 || spec_eq(suf, len, "b")) {
        *mult = 1;
        return 0;
    }
    const char *l = strchr(letters, tolower((unsigned char)suf[0]));
    if (!l || suf[0] == '\0')
        return -1;
    uint64_t base = kb_base;
    const char *rest = suf + 1;
    size_t rlen = len - 1;
    if (spec_eq(rest, rlen, "ib"))
        base = kb_base == 1000 ? 1024 : 1000;
    else if (!(rlen == 0 || spec_eq(rest, rlen, "b") || spec_eq(rest, rlen, "i")))
        return -1;
    uint64_t m = 1;
    for (long p = l - letters; p >= 0; p--)
        m *= base;
    *mult = m;
    return 0;
}

static int time_mult(const char *suf, size_t len, uint64_t unit_ns, uint64_t *mult)
{
    static const struct {
        const char *name;
        uint64_t ns;
    } units[] = {
        {"ns", 1},          {"nsec", 1},
        {"us", 1000},       {"usec", 1000},
        {"ms", 1000000},    {"msec", 1000000},
        {"s", SPEC_NS_PER_S}, {"sec", SPEC_NS_PER_S},
        {"m", 60 * SPEC_NS_PER_S}, {"min", 60 * SPEC_NS_PER_S},
        {"h", 3600 * SPEC_NS_PER_S}, {"d", 86400 * SPEC_NS_PER_S},
    };
    if (len == 0) {
        *mult = unit_ns;
        return 0;
    }
    for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
        if (spec_eq(suf, len, units[i].name)) {
            *mult = units[i].ns;
            return 0;
        }
    return -1;
}

static int unit_mult(const struct num_ctx *c, const char *suf, size_t len, uint64_t *mult)
{
    switch (c->kind) {
    case NUM_SIZE:
        return size_mult(suf, len, c->kb_base, mult);
    case NUM_TIME:
        return time_mult(suf, len, c->unit_ns, mult);
    default:
        if (len)
            return -1;
        *mult = 1;
        return 0;
    }
}

/* --- arithmetic in parentheses: + - * / % ^, unary minus, units on numbers --- */

struct expr {
    const char *p;
    const struct num_ctx *c;
    bool unit_seen;  /* bare numbers take the default unit only if no unit is written */
    const char *bad; /* set on the first error */
    const char *why;
};

static long double expr_sum(struct expr *e);

static void expr_skip(struct expr *e)
{
    while (isspace((unsigned char)*e->p))
        e->p++;
}

static long double expr_fail(struct expr *e, const char *why)
{
    if (!e->bad) {
        e->bad = e->p;
        e->why = why;
    }
    return 0;
}

/* Unit letters right after a number or a closing parenthesis. */
static long double expr_unit(struct expr *e, long double v)
{
    const char *s = e->p;
    while (isalpha((unsigned char)*e->p))
        e->p++;
    if (e->p == s)
        return v;
    uint64_t mult;
    if (unit_mult(e->c, s, (size_t)(e->p - s), &mult) < 0) {
        e->p = s;
        return expr_fail(e, "unknown unit");
    }
    e->unit_seen = true;
    return v * (long double)mult;
}

static long double expr_primary(struct expr *e)
{
    expr_skip(e);
    if (*e->p == '(') {
        e->p++;
        long double v = expr_sum(e);
        expr_skip(e);
        if (*e->p != ')')
            return expr_fail(e, "missing ')'");
        e->p++;
        return expr_unit(e, v);
    }
    if (*e->p == '-') {
        e->p++;
        return -expr_primary(e);
    }
    char *end;
    long double v;
    if (e->p[0] == '0' && (e->p[1] == 'x' || e->p[1] == 'X')) {
        errno = 0;
        unsigned long long u = strtoull(e->p + 2, &end, 16);
        if (end == e->p + 2 || errno)
            return expr_fail(e, "bad hex number");
        e->p = end;
        return (long double)u;
    }
    /* only digits and one '.': strtold alone would also take "1e3" or "inf" */
    char num[64];
    size_t n = 0, dots = 0;
    while ((isdigit((unsigned char)e->p[n]) || (e->p[n] == '.' && !dots++)) && n < sizeof(num) - 1)
        n++;
    if (n == 0 || (n == 1 && e->p[0] == '.'))
        return expr_fail(e, "number expected");
    memcpy(num, e->p, n);
    num[n] = '\0';
    v = strtold(num, &end);
    e->p += n;
    return expr_unit(e, v);
}

static long double expr_power(struct expr *e)
{
    long double b = expr_primary(e);
    expr_skip(e);
    if (*e->p == '^') {
        e->p++;
        return powl(b, expr_power(e));
    }
    return b;
}

static long double expr_product(struct expr *e)
{
    long double v = expr_power(e);
    for (;;) {
        expr_skip(e);
        char op = *e->p;
        if (op != '*' && op != '/' && op != '%')
            return v;
        e->p++;
        long double r = expr_power(e);
        if (op == '*') {
            v *= r;
        } else if (r == 0) {
            return expr_fail(e, "division by zero");
        } else {
            v = op == '/' ? v / r : fmodl(v, r);
        }
    }
}

static long double expr_sum(struct expr *e)
{
    long double v = expr_product(e);
    for (;;) {
        expr_skip(e);
        char op = *e->p;
        if (op != '+' && op != '-')
            return v;
        e->p++;
        long double r = expr_product(e);
        v = op == '+' ? v + r : v - r;
    }
}

/* One value in the context's units, as a whole uint64. */
static int num_parse(const char *s, const struct num_ctx *c, uint64_t *out, char *err,
                     size_t errlen)
{
    char buf[SPEC_VALUE_MAX];
    int rc = spec_copy(s, buf, sizeof(buf), err, errlen);
    if (rc)
        return rc;
    char *v = spec_trim(buf);
    const char *what = c->kind == NUM_SIZE ? "size" : c->kind == NUM_TIME ? "time" : "number";
    if (!*v)
        return spec_fail(err, errlen, -EINVAL, "empty %s (expected %s)", what,
                         num_expect[c->kind]);

    /* exact integer path: digits or 0x hex, then a unit */
    if (isdigit((unsigned char)v[0]) && !strchr(v, '.') && !strchr(v, '(')) {
        char *end;
        int base = (v[0] == '0' && (v[1] == 'x' || v[1] == 'X')) ? 16 : 10;
        errno = 0;
        unsigned long long n = strtoull(base == 16 ? v + 2 : v, &end, base);
        if (errno == ERANGE)
            return spec_fail(err, errlen, -EINVAL, "%s '%.*s' is too large", what,
                             SPEC_QUOTE_MAX, v);
        if (base == 16 && !isxdigit((unsigned char)v[2]))
            return spec_fail(err, errlen, -EINVAL, "invalid %s '%.*s' (expected %s)", what,
                             SPEC_QUOTE_MAX, v, num_expect[c->kind]);
        uint64_t mult;
        /* fio's str_to_decimal reads the number and its unit letters and
         * ignores what follows them ("1M)" is 1M, "512/25" is 512): a tail
         * that starts with neither a letter nor a digit (nor . or %) ends
         * the value */
        size_t ulen = strlen(end);
        if (c->kind != NUM_PLAIN) {
            size_t a = 0;
            while (isalpha((unsigned char)end[a]))
                a++;
            if (end[a] && !isalnum((unsigned char)end[a]) && !strchr(".%", end[a]))
                ulen = a;
        }
        if ((base == 16 && *end) || unit_mult(c, end, ulen, &mult) < 0)
            return spec_fail(err, errlen, -EINVAL, "invalid %s '%.*s' (expected %s)", what,
                             SPEC_QUOTE_MAX, v, num_expect[c->kind]);
        if (mult && n > UINT64_MAX / mult)
            return spec_fail(err, errlen, -EINVAL, "%s '%.*s' is too large", what,
                             SPEC_QUOTE_MAX, v);
        *out = n * mult;
        return 0;
    }

    struct expr e = {.p = v, .c = c};
    long double x;
    if (v[0] == '(') {
        x = expr_sum(&e);
    } else if (isdigit((unsigned char)v[0]) || v[0] == '.') {
        x = expr_primary(&e);
    } else {
        return spec_fail(err, errlen, -EINVAL, "invalid %s '%.*s' (expected %s)", what,
                         SPEC_QUOTE_MAX, v, num_expect[c->kind]);
    }
    expr_skip(&e);
    if (!e.bad && *e.p)
        expr_fail(&e, v[0] == '(' ? "unexpected text" : "unknown unit");
    if (e.bad)
        return spec_fail(err, errlen, -EINVAL, "invalid %s '%.*s': %s at '%.*s' (expected %s)",
                         what, SPEC_QUOTE_MAX, v, e.why, 20, e.bad, num_expect[c->kind]);
    if (!e.unit_seen && c->kind == NUM_TIME)
        x *= (long double)c->unit_ns;
    if (!(x >= 0))
        return spec_fail(err, errlen, -EINVAL, "%s '%.*s' is negative", what, SPEC_QUOTE_MAX, v);
    if (x >= 18446744073709551616.0L)
        return spec_fail(err, errlen, -EINVAL, "%s '%.*s' is too large", what, SPEC_QUOTE_MAX,
                         v);
    if (x != floorl(x))
        return spec_fail(err, errlen, -EINVAL, "%s '%.*s' is not a whole number of %s", what,
                         SPEC_QUOTE_MAX, v,
                         c->kind == NUM_SIZE ? "bytes" : c->kind == NUM_TIME ? "nanoseconds" : "units");
    *out = (uint64_t)x;
    return 0;
}

int spec_parse_u64(const char *s, uint64_t *out, char *err, size_t errlen)
{
    struct num_ctx c = {.kind = NUM_PLAIN};
    return num_parse(s, &c, out, err, errlen);
}

int spec_parse_uint_in(const char *s, uint64_t lo, uint64_t hi, uint64_t *out, char *err,
                       size_t errlen)
{
    uint64_t v;
    int rc = spec_parse_u64(s, &v, err, errlen);
    if (rc)
        return rc;
    if (v < lo || v > hi)
        return spec_fail(err, errlen, -EINVAL, "value %llu is out of range (allowed %llu..%llu)",
                         (unsigned long long)v, (unsigned long long)lo, (unsigned long long)hi);
    *out = v;
    return 0;
}

int spec_parse_double(const char *s, double *out, char *err, size_t errlen)
{
    char buf[128];
    if (strlen(s) >= sizeof(buf))
        return spec_fail(err, errlen, -EINVAL, "invalid number '%.*s'", SPEC_QUOTE_MAX, s);
    strcpy(buf, s);
    char *v = spec_trim(buf);
    unsigned digits = 0, dots = 0;
    for (const char *q = v; *q; q++) {
        if (isdigit((unsigned char)*q))
            digits++;
        else if (*q == '.')
            dots++;
        else
            dots = 2;
    }
    if (!digits || dots > 1)
        return spec_fail(err, errlen, -EINVAL,
                         "invalid number '%s' (expected a non-negative decimal such as 99.9)", v);
    *out = strtod(v, NULL);
    return 0;
}

int spec_parse_size(const char *s, unsigned kb_base, uint64_t *out, char *err, size_t errlen)
{
    struct num_ctx c = {.kind = NUM_SIZE, .kb_base = kb_base == 1000 ? 1000 : 1024};
    return num_parse(s, &c, out, err, errlen);
}

int spec_parse_size_pct(const char *s, unsigned kb_base, uint64_t *bytes, double *pct,
                        char *err, size_t errlen)
{
    char buf[SPEC_VALUE_MAX];
    int rc = spec_copy(s, buf, sizeof(buf), err, errlen);
    if (rc)
        return rc;
    char *v = spec_trim(buf);
    size_t n = strlen(v);
    if (n && v[n - 1] == '%') {
        v[n - 1] = '\0';
        double p;
        if (spec_parse_double(v, &p, NULL, 0) || !(p >= 0 && p <= 100))
            return spec_fail(err, errlen, -EINVAL,
                             "invalid percentage '%.*s%%' (expected 0%% to 100%%)",
                             SPEC_QUOTE_MAX, v);
        /* fio takes 0% as no percentage: offset 0, size to the end */
        *pct = p;
        *bytes = 0;
        return 0;
    }
    rc = spec_parse_size(v, kb_base, bytes, err, errlen);
    if (!rc)
        *pct = 0;
    return rc;
}

int spec_parse_time(const char *s, uint64_t default_unit_ns, uint64_t *ns, char *err,
                    size_t errlen)
{
    struct num_ctx c = {.kind = NUM_TIME, .unit_ns = default_unit_ns ? default_unit_ns : 1};
    return num_parse(s, &c, ns, err, errlen);
}

int spec_parse_bool(const char *s, bool *out, char *err, size_t errlen)
{
    static const char *const yes[] = {"1", "true", "yes", "on"};
    static const char *const no[] = {"0", "false", "no", "off"};
    char buf[32];
    if (!s) {
        *out = true;
        return 0;
    }
    if (strlen(s) >= sizeof(buf))
        return spec_fail(err, errlen, -EINVAL,
                         "invalid boolean '%.*s' (expected 1/0, true/false, yes/no or on/off)",
                         SPEC_QUOTE_MAX, s);
    strcpy(buf, s);
    char *v = spec_trim(buf);
    if (!*v) {
        *out = true;
        return 0;
    }
    for (unsigned i = 0; i < 4; i++) {
        if (!strcasecmp(v, yes[i])) {
            *out = true;
            return 0;
        }
        if (!strcasecmp(v, no[i])) {
            *out = false;
            return 0;
        }
    }
    return spec_fail(err, errlen, -EINVAL,
                     "invalid boolean '%s' (expected 1/0, true/false, yes/no or on/off)", v);
}

int spec_parse_range(const char *s, unsigned kb_base, uint64_t *lo, uint64_t *hi, char *err,
                     size_t errlen)
{
    char buf[SPEC_VALUE_MAX];
    int rc = spec_copy(s, buf, sizeof(buf), err, errlen);
    if (rc)
        return rc;
    char *v = spec_trim(buf);
    char *sep = spec_find_sep(v, "-");
    if (!sep)
        sep = spec_find_sep(v, ":");
    if (!sep)
        return spec_fail(err, errlen, -EINVAL, "invalid range '%.*s' (expected lo-hi or lo:hi, e.g. 4k-64k)",
                         SPEC_QUOTE_MAX, v);
    *sep = '\0';
    uint64_t a, b;
    if ((rc = spec_parse_size(v, kb_base, &a, err, errlen)) ||
        (rc = spec_parse_size(sep + 1, kb_base, &b, err, errlen)))
        return rc;
    *lo = a < b ? a : b;
    *hi = a < b ? b : a;
    return 0;
}

int spec_split_dirs(const char *s, char *buf, size_t buflen, const char *field[SPEC_NDIRS],
                    char *err, size_t errlen)
{
    int rc = spec_copy(s, buf, buflen, err, errlen);
    if (rc)
        return rc;
    char *part[SPEC_NDIRS + 1];
    unsigned n = 0;
    char *p = buf;
    for (;;) {
        char *comma = spec_find_sep(p, ",");
        if (n == SPEC_NDIRS)
            return spec_fail(err, errlen, -EINVAL,
                             "'%.*s' has more than %d comma-separated values (read,write,trim)",
                             SPEC_QUOTE_MAX, s, SPEC_NDIRS);
        part[n++] = p;
        if (!comma)
            break;
        *comma = '\0';
        p = comma + 1;
    }
    for (unsigned d = 0; d < SPEC_NDIRS; d++) {
        char *f = d < n ? spec_trim(part[d]) : NULL;
        field[d] = f && *f ? f : NULL;
    }
    /* a last value not closed by a comma carries over to the later directions */
    if (field[n - 1])
        for (unsigned d = n; d < SPEC_NDIRS; d++)
            field[d] = field[n - 1];
    if (!field[0] && !field[1] && !field[2])
        return spec_fail(err, errlen, -EINVAL, "empty value '%.*s'", SPEC_QUOTE_MAX, s);
    return 0;
}
