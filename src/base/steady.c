/* steady.c - steady-state rules (SNIA PTS and fio ss=); see steady.h. fio's
 * steadystate= syntax is read in steady_fio.c.
 *
 * Every check recomputes the window from the ring instead of keeping running
 * sums: it runs once per round or interval (seconds to minutes apart), so the
 * O(window) cost is irrelevant, and it avoids the drift of incremental sums.
 * The fit uses centred x (k - (n-1)/2), which keeps hand-computable series
 * exact in binary floating point.
 */
#include "base/steady.h"
#include "base/errmsg.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>



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
        (void)errmsg(err, errlen, 0, "steady state: unknown rule %d", (int)c->rule);
        return -EINVAL;
    }
    if (c->metric != STEADY_IOPS && c->metric != STEADY_BW && c->metric != STEADY_LAT) {
        (void)errmsg(err, errlen, 0, "steady state: unknown metric %d", (int)c->metric);
        return -EINVAL;
    }
    if (c->window < 2 || c->window > STEADY_WINDOW_MAX) {
        (void)errmsg(err, errlen, 0, "steady state: window of %u values is outside 2..%u",
                   c->window, (unsigned)STEADY_WINDOW_MAX);
        return -EINVAL;
    }
    if (c->max_rounds && c->max_rounds < c->window) {
        (void)errmsg(err, errlen, 0,
                   "steady state: max rounds %u is less than the window of %u rounds",
                   c->max_rounds, c->window);
        return -EINVAL;
    }
    if (c->rule == STEADY_SNIA) {
        if (!isfinite(c->range_pct) || c->range_pct < 0) {
            (void)errmsg(err, errlen, 0, "steady state: range limit %g%% must be a number >= 0",
                       c->range_pct);
            return -EINVAL;
        }
        if (!isfinite(c->slope_pct) || c->slope_pct < 0) {
            (void)errmsg(err, errlen, 0, "steady state: slope limit %g%% must be a number >= 0",
                       c->slope_pct);
            return -EINVAL;
        }
    } else if (!isfinite(c->limit) || c->limit < 0) {
        (void)errmsg(err, errlen, 0, "steady state: limit %g must be a number >= 0", c->limit);
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
