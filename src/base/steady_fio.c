/* steady_fio.c - fio's steadystate= syntax (ss=, ss_dur, ss_ramp) read into
 * a steady_cfg, and printed back; the rules themselves are steady.c. */
#include "base/steady.h"
#include "base/errmsg.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Copies at most 48 characters of s for an error message, with control
 * characters replaced, so the message stays one line. */
static const char *steady_quote(const char *s, char *buf, size_t len)
{
    size_t i = 0;
    for (; s[i] && i + 4 < len && i < 48; i++)
        buf[i] = iscntrl((unsigned char)s[i]) ? '?' : s[i];
    if (s[i] && i + 4 <= len) {
        memcpy(buf + i, "...", 3);
        i += 3;
    }
    buf[i] = 0;
    return buf;
}

/* Parses an unsigned decimal number (digits, optional fraction and
 * exponent) at the start of p. No sign, hex, inf or nan: a threshold is a
 * plain non-negative figure. Returns the end, or NULL. */
static const char *steady_number(const char *p, double *v)
{
    const char *q = p;
    if (!isdigit((unsigned char)*q) && !(*q == '.' && isdigit((unsigned char)q[1])))
        return NULL;
    while (isdigit((unsigned char)*q))
        q++;
    if (*q == '.') {
        q++;
        while (isdigit((unsigned char)*q))
            q++;
    }
    if ((*q == 'e' || *q == 'E') &&
        (isdigit((unsigned char)q[1]) ||
         ((q[1] == '+' || q[1] == '-') && isdigit((unsigned char)q[2])))) {
        q += 2;
        while (isdigit((unsigned char)*q))
            q++;
    }
    char tmp[64];
    size_t len = (size_t)(q - p);
    if (len >= sizeof(tmp))
        return NULL;
    memcpy(tmp, p, len);
    tmp[len] = 0;
    *v = strtod(tmp, NULL);
    if (!isfinite(*v))
        return NULL;
    return q;
}

static bool steady_suffix_is(const char *suf, const char *const *names)
{
    for (; *names; names++)
        if (!strcasecmp(suf, *names))
            return true;
    return false;
}

/* Multiplier of an absolute threshold's unit suffix (already trimmed), or 0
 * when the suffix is not valid for the metric. */
static double steady_unit(enum steady_metric m, const char *suf)
{
    static const char *const lat_ns[] = {"ns", "nsec", NULL};
    static const char *const lat_us[] = {"", "us", "usec", NULL};
    static const char *const lat_ms[] = {"ms", "msec", NULL};
    static const char *const lat_s[] = {"s", "sec", NULL};

    switch (m) {
    case STEADY_IOPS:
        return *suf ? 0 : 1;
    case STEADY_LAT:
        if (steady_suffix_is(suf, lat_ns)) return 1;
        if (steady_suffix_is(suf, lat_us)) return 1e3;
        if (steady_suffix_is(suf, lat_ms)) return 1e6;
        if (steady_suffix_is(suf, lat_s)) return 1e9;
        return 0;
    case STEADY_BW: {
        static const char prefixes[] = "kmgtp";
        if (!*suf || !strcasecmp(suf, "b"))
            return 1;
        const char *pos = strchr(prefixes, tolower((unsigned char)suf[0]));
        if (!pos || !suf[0])
            return 0;
        const char *rest = suf + 1;
        if (*rest && strcasecmp(rest, "b") && strcasecmp(rest, "i") && strcasecmp(rest, "ib"))
            return 0;
        return ldexp(1.0, 10 * (int)(pos - prefixes + 1));
    }
    }
    return 0;
}

static const char *steady_unit_help(enum steady_metric m)
{
    switch (m) {
    case STEADY_IOPS: return "a plain number or a percentage, e.g. 2000 or 10%";
    case STEADY_BW: return "bytes/s with an optional k/m/g/t suffix or a percentage, e.g. 2M or 5%";
    case STEADY_LAT: return "a time with ns/us/ms/s (bare = us) or a percentage, e.g. 500us or 5%";
    }
    return "";
}

/* Trims blanks in place; returns the start. */
static char *steady_trim(char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    size_t n = strlen(s);
    while (n && isspace((unsigned char)s[n - 1]))
        s[--n] = 0;
    return s;
}

/* The threshold thr (a trimmed, writable copy no longer than 255 bytes) of
 * criterion cname on metric: a percentage or a number with the metric's
 * unit, into *vp (in base units) and *pctp. */
static int parse_threshold(char *thr, enum steady_metric metric, const char *cname, double *vp, bool *pctp,
                           char *err, size_t errlen)
{
    double v;
    bool pct = false;
    char q[64];
    size_t tl = strlen(thr);
    char thr_copy[256];   /* as the caller's buffer */
    strcpy(thr_copy, thr);
    if (thr[tl - 1] == '%') {
        pct = true;
        thr[tl - 1] = 0;
        thr = steady_trim(thr);
    }
    if (thr[0] == '-') {
        (void)errmsg(err, errlen, 0, "steadystate: threshold '%s' of %s must not be negative",
                   steady_quote(thr_copy, q, sizeof(q)), cname);
        return -EINVAL;
    }
    const char *end = steady_number(thr, &v);
    if (!end) {
        (void)errmsg(err, errlen, 0, "steadystate: threshold '%s' of %s is not a number (expected %s)",
                   steady_quote(thr_copy, q, sizeof(q)), cname,
                   steady_unit_help(metric));
        return -EINVAL;
    }
    while (isspace((unsigned char)*end))
        end++;
    if (pct) {
        if (*end) {
            (void)errmsg(err, errlen, 0, "steadystate: threshold '%s' of %s is not a percentage",
                       steady_quote(thr_copy, q, sizeof(q)), cname);
            return -EINVAL;
        }
    } else {
        double mult = steady_unit(metric, end);
        if (mult == 0 || strchr(end, '%')) {
            char q2[64];
            (void)errmsg(err, errlen, 0, "steadystate: bad unit '%s' in threshold '%s' of %s (expected %s)",
                       steady_quote(end, q, sizeof(q)), steady_quote(thr_copy, q2, sizeof(q2)),
                       cname,
                       steady_unit_help(metric));
            return -EINVAL;
        }
        v *= mult;
        if (!isfinite(v)) {
            (void)errmsg(err, errlen, 0, "steadystate: threshold '%s' of %s is out of range",
                       steady_quote(thr_copy, q, sizeof(q)), cname);
            return -EINVAL;
        }
    }
    *vp = v;
    *pctp = pct;
    return 0;
}

int steady_parse_fio(const char *s, struct steady_cfg *c, char *err, size_t errlen)
{
    static const struct {
        const char *name;
        enum steady_metric metric;
        enum steady_rule rule;
    } names[] = {
        {"iops", STEADY_IOPS, STEADY_DEVIATION}, {"iops_slope", STEADY_IOPS, STEADY_SLOPE},
        {"bw", STEADY_BW, STEADY_DEVIATION},     {"bw_slope", STEADY_BW, STEADY_SLOPE},
        {"lat", STEADY_LAT, STEADY_DEVIATION},   {"lat_slope", STEADY_LAT, STEADY_SLOPE},
    };
    char q[64];
    char buf[256];

    if (!s) {
        (void)errmsg(err, errlen, 0, "steadystate: missing value");
        return -EINVAL;
    }
    if (strlen(s) >= sizeof(buf)) {
        (void)errmsg(err, errlen, 0, "steadystate value '%s' is too long",
                   steady_quote(s, q, sizeof(q)));
        return -EINVAL;
    }
    strcpy(buf, s);
    char *all = steady_trim(buf);
    if (!*all) {
        (void)errmsg(err, errlen, 0, "steadystate: empty value (expected e.g. iops:10%% or iops_slope:0.1%%)");
        return -EINVAL;
    }
    char *colon = strchr(all, ':');
    char *thr = NULL;
    if (colon) {
        *colon = 0;
        thr = steady_trim(colon + 1);
    }
    char *name = steady_trim(all);

    int idx = -1;
    for (unsigned i = 0; i < sizeof(names) / sizeof(names[0]); i++)
        if (!strcasecmp(name, names[i].name))
            idx = (int)i;
    if (idx < 0) {
        (void)errmsg(err, errlen, 0,
                   "steadystate: unknown criterion '%s' (expected iops, iops_slope, bw, "
                   "bw_slope, lat or lat_slope)", steady_quote(name, q, sizeof(q)));
        return -EINVAL;
    }
    enum steady_metric metric = names[idx].metric;
    if (!thr || !*thr) {
        (void)errmsg(err, errlen, 0, "steadystate: criterion '%s' needs a threshold, e.g. %s:10%%",
                   names[idx].name, names[idx].name);
        return -EINVAL;
    }

    double v;
    bool pct;
    int rc = parse_threshold(thr, metric, names[idx].name, &v, &pct, err, errlen);
    if (rc < 0)
        return rc;
    c->rule = names[idx].rule;
    c->metric = metric;
    c->limit = v;
    c->limit_pct = pct;
    return 0;
}

int steady_fio_window(struct steady_cfg *c, uint64_t dur_ns, uint64_t ramp_ns,
                      uint64_t interval_ns, char *err, size_t errlen)
{
    if (interval_ns == 0) {
        (void)errmsg(err, errlen, 0, "steadystate: ss_interval must be greater than 0");
        return -EINVAL;
    }
    uint64_t w = dur_ns / interval_ns;
    if (w < 2) {
        (void)errmsg(err, errlen, 0,
                   "steadystate: ss_dur %.3fs holds %llu samples of %.3fs; at least 2 are needed",
                   dur_ns / 1e9, (unsigned long long)w, interval_ns / 1e9);
        return -EINVAL;
    }
    if (w > STEADY_WINDOW_MAX) {
        (void)errmsg(err, errlen, 0,
                   "steadystate: ss_dur %.3fs holds %llu samples of %.3fs; at most %u are supported",
                   dur_ns / 1e9, (unsigned long long)w, interval_ns / 1e9,
                   (unsigned)STEADY_WINDOW_MAX);
        return -EINVAL;
    }
    uint64_t skip = ramp_ns / interval_ns + (ramp_ns % interval_ns != 0);
    if (skip > UINT32_MAX) {
        (void)errmsg(err, errlen, 0, "steadystate: ss_ramp %.3fs is too long", ramp_ns / 1e9);
        return -EINVAL;
    }
    c->window = (unsigned)w;
    c->skip = (unsigned)skip;
    return 0;
}

int steady_format(const struct steady_cfg *c, char *buf, size_t len)
{
    if (c->rule == STEADY_SNIA)
        return snprintf(buf, len, "snia:%.15g%%/%.15g%%", c->range_pct, c->slope_pct);
    const char *slope = c->rule == STEADY_SLOPE ? "_slope" : "";
    const char *unit = c->limit_pct ? "%" : c->metric == STEADY_LAT ? "ns" : "";
    return snprintf(buf, len, "%s%s:%.15g%s", steady_metric_name(c->metric), slope,
                    c->limit, unit);
}
