/* steady.c - steady-state rules (SNIA PTS and fio ss=); see steady.h.
 *
 * Every check recomputes the window from the ring instead of keeping running
 * sums: it runs once per round or interval (seconds to minutes apart), so the
 * O(window) cost is irrelevant, and it avoids the drift of incremental sums.
 * The fit uses centred x (k - (n-1)/2), which keeps hand-computable series
 * exact in binary floating point.
 */
#include "base/steady.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static void steady_err(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void steady_err(char *err, size_t errlen, const char *fmt, ...)
{
    if (!err || !errlen)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
}

void steady_snia_defaults(struct steady_cfg *c)
{
    memset(c, 0, sizeof(*c));
    c->rule = STEADY_SNIA;
    c->metric = STEADY_IOPS;
    c->window = 5;
    c->max_rounds = 25;
    c->range_pct = 20.0;
    c->slope_pct = 10.0;
}

void steady_fio_defaults(struct steady_cfg *c)
{
    memset(c, 0, sizeof(*c));
    c->rule = STEADY_SLOPE;
    c->metric = STEADY_IOPS;
    c->limit = 0.01;
    c->limit_pct = true;
    c->window = 0;           /* unset: steady_fio_window() must fill it */
    c->range_pct = 20.0;
    c->slope_pct = 10.0;
}

const char *steady_rule_name(enum steady_rule r)
{
    switch (r) {
    case STEADY_SNIA: return "snia";
    case STEADY_DEVIATION: return "deviation";
    case STEADY_SLOPE: return "slope";
    }
    return "unknown";
}

const char *steady_metric_name(enum steady_metric m)
{
    switch (m) {
    case STEADY_IOPS: return "iops";
    case STEADY_BW: return "bw";
    case STEADY_LAT: return "lat";
    }
    return "unknown";
}

const char *steady_state_name(enum steady_state st)
{
    switch (st) {
    case STEADY_CONTINUE: return "continue";
    case STEADY_REACHED: return "reached";
    case STEADY_NOT_REACHED: return "not_reached";
    }
    return "unknown";
}

int steady_cfg_check(const struct steady_cfg *c, char *err, size_t errlen)
{
    if (c->rule != STEADY_SNIA && c->rule != STEADY_DEVIATION && c->rule != STEADY_SLOPE) {
        steady_err(err, errlen, "steady state: unknown rule %d", (int)c->rule);
        return -EINVAL;
    }
    if (c->metric != STEADY_IOPS && c->metric != STEADY_BW && c->metric != STEADY_LAT) {
        steady_err(err, errlen, "steady state: unknown metric %d", (int)c->metric);
        return -EINVAL;
    }
    if (c->window < 2 || c->window > STEADY_WINDOW_MAX) {
        steady_err(err, errlen, "steady state: window of %u values is outside 2..%u",
                   c->window, (unsigned)STEADY_WINDOW_MAX);
        return -EINVAL;
    }
    if (c->max_rounds && c->max_rounds < c->window) {
        steady_err(err, errlen,
                   "steady state: max rounds %u is less than the window of %u rounds",
                   c->max_rounds, c->window);
        return -EINVAL;
    }
    if (c->rule == STEADY_SNIA) {
        if (!isfinite(c->range_pct) || c->range_pct < 0) {
            steady_err(err, errlen, "steady state: range limit %g%% must be a number >= 0",
                       c->range_pct);
            return -EINVAL;
        }
        if (!isfinite(c->slope_pct) || c->slope_pct < 0) {
            steady_err(err, errlen, "steady state: slope limit %g%% must be a number >= 0",
                       c->slope_pct);
            return -EINVAL;
        }
    } else if (!isfinite(c->limit) || c->limit < 0) {
        steady_err(err, errlen, "steady state: limit %g must be a number >= 0", c->limit);
        return -EINVAL;
    }
    return 0;
}

int steady_init(struct steady *s, const struct steady_cfg *c)
{
    s->cfg = *c;
    s->state = STEADY_CONTINUE;
    s->rounds = 0;
    s->skipped = 0;
    s->head = 0;
    memset(&s->last, 0, sizeof(s->last));
    s->valid = steady_cfg_check(c, NULL, 0) == 0;
    if (!s->valid) {
        s->state = STEADY_NOT_REACHED;
        return -EINVAL;
    }
    return 0;
}

/* x relative to |avg| in percent. 0/0 is 0 (an all-zero window has no
 * excursion); anything else over 0 is infinite so that it never passes. */
static double steady_rel(double x, double avg)
{
    if (avg != 0)
        return 100.0 * x / fabs(avg);
    if (x == 0)
        return 0;
    return isnan(x) ? x : INFINITY;
}

/* Figures of the current (full) window, and whether it passes the rule. */
static bool steady_eval(const struct steady *s, struct steady_report *r)
{
    const struct steady_cfg *c = &s->cfg;
    unsigned n = c->window;
    unsigned oldest = s->head;   /* ring is full: the next slot holds the oldest */
    double sum = 0, mn = INFINITY, mx = -INFINITY;
    bool has_nan = false;

    for (unsigned k = 0; k < n; k++) {
        double y = s->ring[(oldest + k) % n];
        if (isnan(y))
            has_nan = true;
        sum += y;
        if (y < mn)
            mn = y;
        if (y > mx)
            mx = y;
    }
    double avg = sum / n;
    double xm = (n - 1) / 2.0;
    double sxx = (double)n * ((double)n * n - 1) / 12.0;   /* sum of (k - xm)^2 */
    double sxy = 0, dev = 0;
    for (unsigned k = 0; k < n; k++) {
        double y = s->ring[(oldest + k) % n];
        sxy += (k - xm) * (y - avg);
        double d = fabs(y - avg);
        if (d > dev || isnan(d))
            dev = d;
    }
    double slope = sxy / sxx;

    memset(r, 0, sizeof(*r));
    r->evaluated = true;
    r->n = n;
    r->window_last = s->rounds;
    r->window_first = s->rounds - n + 1;
    r->avg = avg;
    r->min = has_nan ? NAN : mn;
    r->max = has_nan ? NAN : mx;
    r->zero_avg = avg == 0;
    r->range = r->max - r->min;
    r->range_pct = steady_rel(r->range, avg);
    r->range_allowed = c->range_pct / 100.0 * fabs(avg);
    r->slope = slope;
    r->intercept = avg - slope * (r->window_first + xm);
    r->slope_excursion = fabs(slope) * (n - 1);
    r->slope_excursion_pct = steady_rel(r->slope_excursion, avg);
    r->slope_allowed = c->slope_pct / 100.0 * fabs(avg);
    r->max_dev = dev;
    r->max_dev_pct = steady_rel(dev, avg);
    r->slope_pct = steady_rel(fabs(slope), avg);

    if (has_nan)
        return false;
    switch (c->rule) {
    case STEADY_SNIA:
        /* x * 100 <= pct * avg rather than x <= pct/100 * avg: exact for
         * integer series, so a window right at the limit is decided as the
         * spec's "no more than" says. An all-zero window gives 0 <= 0. */
        r->criterion = 0;
        return r->range * 100.0 <= c->range_pct * fabs(avg) &&
               r->slope_excursion * 100.0 <= c->slope_pct * fabs(avg);
    case STEADY_DEVIATION:
        r->criterion = c->limit_pct ? r->max_dev_pct : r->max_dev;
        return r->criterion < c->limit;
    case STEADY_SLOPE:
        r->criterion = c->limit_pct ? r->slope_pct : fabs(slope);
        return r->criterion < c->limit;
    }
    return false;
}

/* Adds one value; returns true when a full window was evaluated and passed.
 * *capped is set when this detector has used all its rounds. */
static bool steady_step(struct steady *s, double value, bool *capped)
{
    *capped = false;
    if (!s->valid) {
        *capped = true;
        return false;
    }
    if (s->skipped < s->cfg.skip) {
        s->skipped++;
        return false;
    }
    s->ring[s->head] = value;
    s->head = (s->head + 1) % s->cfg.window;
    s->rounds++;
    bool pass = false;
    if (s->rounds >= s->cfg.window) {
        pass = steady_eval(s, &s->last);
        s->last.passed = pass;
    }
    if (s->cfg.max_rounds && s->rounds >= s->cfg.max_rounds)
        *capped = true;
    return pass;
}

enum steady_state steady_feed_many(struct steady *const *s, const double *values,
                                   unsigned n)
{
    if (n == 0)
        return STEADY_NOT_REACHED;
    for (unsigned i = 0; i < n; i++)
        if (s[i]->state != STEADY_CONTINUE)
            return s[i]->state;

    bool all_pass = true, any_capped = false;
    for (unsigned i = 0; i < n; i++) {
        bool capped;
        if (!steady_step(s[i], values[i], &capped))
            all_pass = false;
        if (capped)
            any_capped = true;
    }
    enum steady_state st = all_pass ? STEADY_REACHED
                         : any_capped ? STEADY_NOT_REACHED : STEADY_CONTINUE;
    for (unsigned i = 0; i < n; i++)
        s[i]->state = st;
    return st;
}

enum steady_state steady_feed(struct steady *s, double value)
{
    struct steady *one[1] = {s};
    return steady_feed_many(one, &value, 1);
}

void steady_get_report(const struct steady *s, struct steady_report *r)
{
    *r = s->last;
    r->state = s->state;
    r->reached = s->state == STEADY_REACHED;
    r->rounds = s->rounds;
    r->skipped = s->skipped;
}

unsigned steady_window_values(const struct steady *s, double *out, unsigned cap)
{
    if (!s->valid)
        return 0;
    unsigned w = s->cfg.window;
    unsigned have = s->rounds < w ? s->rounds : w;
    unsigned oldest = s->rounds < w ? 0 : s->head;
    unsigned n = have < cap ? have : cap;
    for (unsigned k = 0; k < n; k++)
        out[k] = s->ring[(oldest + k) % w];
    return n;
}

/* ---- fio steadystate= syntax ---- */

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

/* The threshold of criterion crit: a percentage, or a number with the
 * metric's unit (converted). 0, or -EINVAL with a one-line message. */
static int steady_threshold(char *thr, const char *crit, enum steady_metric metric, double *v, bool *pct,
                            char *err, size_t errlen)
{
    char q[64];
    *pct = false;
    size_t tl = strlen(thr);
    char thr_copy[256];
    strcpy(thr_copy, thr);
    if (thr[tl - 1] == '%') {
        *pct = true;
        thr[tl - 1] = 0;
        thr = steady_trim(thr);
    }
    if (thr[0] == '-') {
        steady_err(err, errlen, "steadystate: threshold '%s' of %s must not be negative",
                   steady_quote(thr_copy, q, sizeof(q)), crit);
        return -EINVAL;
    }
    const char *end = steady_number(thr, v);
    if (!end) {
        steady_err(err, errlen, "steadystate: threshold '%s' of %s is not a number (expected %s)",
                   steady_quote(thr_copy, q, sizeof(q)), crit,
                   steady_unit_help(metric));
        return -EINVAL;
    }
    while (isspace((unsigned char)*end))
        end++;
    if (*pct) {
        if (*end) {
            steady_err(err, errlen, "steadystate: threshold '%s' of %s is not a percentage",
                       steady_quote(thr_copy, q, sizeof(q)), crit);
            return -EINVAL;
        }
    } else {
        double mult = steady_unit(metric, end);
        if (mult == 0 || strchr(end, '%')) {
            char q2[64];
            steady_err(err, errlen, "steadystate: bad unit '%s' in threshold '%s' of %s (expected %s)",
                       steady_quote(end, q, sizeof(q)), steady_quote(thr_copy, q2, sizeof(q2)),
                       crit,
                       steady_unit_help(metric));
            return -EINVAL;
        }
        *v *= mult;
        if (!isfinite(*v)) {
            steady_err(err, errlen, "steadystate: threshold '%s' of %s is out of range",
                       steady_quote(thr_copy, q, sizeof(q)), crit);
            return -EINVAL;
        }
    }
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
        steady_err(err, errlen, "steadystate: missing value");
        return -EINVAL;
    }
    if (strlen(s) >= sizeof(buf)) {
        steady_err(err, errlen, "steadystate value '%s' is too long",
                   steady_quote(s, q, sizeof(q)));
        return -EINVAL;
    }
    strcpy(buf, s);
    char *all = steady_trim(buf);
    if (!*all) {
        steady_err(err, errlen, "steadystate: empty value (expected e.g. iops:10%% or iops_slope:0.1%%)");
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
        steady_err(err, errlen,
                   "steadystate: unknown criterion '%s' (expected iops, iops_slope, bw, "
                   "bw_slope, lat or lat_slope)", steady_quote(name, q, sizeof(q)));
        return -EINVAL;
    }
    enum steady_metric metric = names[idx].metric;
    if (!thr || !*thr) {
        steady_err(err, errlen, "steadystate: criterion '%s' needs a threshold, e.g. %s:10%%",
                   names[idx].name, names[idx].name);
        return -EINVAL;
    }

    double v;
    bool pct;
    if (steady_threshold(thr, names[idx].name, metric, &v, &pct, err, errlen) < 0)
        return -EINVAL;
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
        steady_err(err, errlen, "steadystate: ss_interval must be greater than 0");
        return -EINVAL;
    }
    uint64_t w = dur_ns / interval_ns;
    if (w < 2) {
        steady_err(err, errlen,
                   "steadystate: ss_dur %.3fs holds %llu samples of %.3fs; at least 2 are needed",
                   dur_ns / 1e9, (unsigned long long)w, interval_ns / 1e9);
        return -EINVAL;
    }
    if (w > STEADY_WINDOW_MAX) {
        steady_err(err, errlen,
                   "steadystate: ss_dur %.3fs holds %llu samples of %.3fs; at most %u are supported",
                   dur_ns / 1e9, (unsigned long long)w, interval_ns / 1e9,
                   (unsigned)STEADY_WINDOW_MAX);
        return -EINVAL;
    }
    uint64_t skip = ramp_ns / interval_ns + (ramp_ns % interval_ns != 0);
    if (skip > UINT32_MAX) {
        steady_err(err, errlen, "steadystate: ss_ramp %.3fs is too long", ramp_ns / 1e9);
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
