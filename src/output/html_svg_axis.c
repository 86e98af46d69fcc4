/* html_svg_axis.c - scales, ticks and number formats of the report's
 * charts (see html_svg.h). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "output/html_svg_int.h"

#define MAX_TICKS HTML_SVG_MAX_TICKS

/* Data beyond +-AXIS_LIMIT (a result file may hold 1e308) is drawn at the
 * limit: inside it, spans, steps and decade counts stay finite, so every
 * tick loop below ends. Non-finite values never reach the arithmetic. */
#define AXIS_LIMIT 1e300
#define LOG_FLOOR 1e-300

static double clamp_abs(double v)
{
    return v > AXIS_LIMIT ? AXIS_LIMIT : v < -AXIS_LIMIT ? -AXIS_LIMIT : v;
}

double html_svg_nines(double pct)
{
    if (pct >= 100)
        return INFINITY;
    return -log10(1 - pct / 100);
}

/* Picks the largest unit the value reaches once rounded to `digits`. */
static void scaled(char *buf, size_t len, double v, int digits, const double *thr,
                   const char *const *unit, int nunits, const char *sep)
{
    double a = fabs(v), edge = 1 - 0.5 * pow(10, -digits);
    int u = 0;
    for (int i = nunits - 1; i > 0; i--)
        if (a >= thr[i] * edge) {
            u = i;
            break;
        }
    snprintf(buf, len, "%.*g%s%s", digits, v / thr[u], sep, unit[u]);
}

void html_svg_format(char *buf, size_t len, double v, enum html_svg_fmt fmt, int digits)
{
    static const double thr[4] = {1, 1e3, 1e6, 1e9};
    static const char *const ns_units[4] = {"ns", "\xc2\xb5s", "ms", "s"};
    static const char *const si_units[4] = {"", "k", "M", "G"};
    if (!isfinite(v)) {
        snprintf(buf, len, "-");
        return;
    }
    if (digits < 1)
        digits = 3;
    switch (fmt) {
    case HTML_SVG_FMT_NS: scaled(buf, len, v, digits, thr, ns_units, 4, " "); break;
    case HTML_SVG_FMT_NUM: scaled(buf, len, v, digits, thr, si_units, 4, ""); break;
    case HTML_SVG_FMT_PCT: snprintf(buf, len, "%.*g%%", digits, v); break;
    case HTML_SVG_FMT_PLAIN: snprintf(buf, len, "%.*g", digits, v); break;
    }
}

size_t html_svg_ticks_linear(double *lo, double *hi, double *ticks, size_t cap)
{
    if (!isfinite(*lo))
        *lo = 0;
    if (!isfinite(*hi))
        *hi = *lo + 1;
    *lo = clamp_abs(*lo);
    *hi = clamp_abs(*hi);
    /* a span too narrow to step through (1e300 .. 1e300 + 1 ulp) counts as
     * empty */
    if (!(*hi - *lo > 1e-12 * fmax(fabs(*lo), fabs(*hi)))) {
        *hi = *lo;
        double d = fabs(*lo) > 1e-200 ? fabs(*lo) * 0.1 : 1;
        *lo -= d;
        *hi += d;
    }
    double raw = (*hi - *lo) / 5;
    if (!(raw > 0) || !isfinite(raw)) {
        *lo = 0;
        *hi = 1;
        raw = 0.2;
    }
    double mag = pow(10, floor(log10(raw))), step = mag;
    static const double nice[4] = {1, 2, 2.5, 5};
    for (int i = 0; i < 4; i++)
        if (nice[i] * mag >= raw * 0.999) {
            step = nice[i] * mag;
            break;
        }
    if (step < raw * 0.999)
        step = 10 * mag;
    double a = floor(*lo / step + 1e-9) * step, b = ceil(*hi / step - 1e-9) * step;
    *lo = a;
    *hi = b;
    size_t n = 0;
    for (double t = a; t <= b + step * 1e-6 && n < cap; t = a + (double)n * step)
        ticks[n++] = fabs(t) < step * 1e-9 ? 0 : t;
    return n;
}

static double transform(enum html_svg_scale s, double v)
{
    switch (s) {
    case HTML_SVG_LOG: return v > 0 ? log10(v) : NAN;
    case HTML_SVG_NINES: return v >= 0 ? html_svg_nines(v) : NAN;
    default: return v;
    }
}

double html_svg_map(const struct html_svg_axis_map *m, double v)
{
    double t = transform(m->scale, v);
    if (!isfinite(t))
        return NAN;
    double p = m->p0 + (t - m->lo) / (m->hi - m->lo) * (m->p1 - m->p0);
    double a = m->p0 < m->p1 ? m->p0 : m->p1, b = m->p0 < m->p1 ? m->p1 : m->p0;
    return p < a ? a : p > b ? b : p;
}

static void add_tick(struct html_svg_axis_map *m, double v, bool label)
{
    if (m->nticks < MAX_TICKS)
        m->ticks[m->nticks++] = (struct html_svg_tick){v, label};
}

/* Sets the domain and ticks from the data range [dlo, dhi] (raw values). */
void html_svg_axis_setup(struct html_svg_axis_map *m, const struct html_svg_axis *a, double dlo, double dhi)
{
    m->scale = a->scale;
    m->nticks = 0;
    if (!isnan(a->min))
        dlo = a->min;
    if (!isnan(a->max))
        dhi = a->max;
    if (isfinite(dlo))
        dlo = clamp_abs(dlo);
    if (isfinite(dhi))
        dhi = clamp_abs(dhi);
    if (a->scale == HTML_SVG_CAT) {
        m->lo = -0.5;
        m->hi = (a->ncats ? (double)a->ncats : 1) - 0.5;
        for (unsigned i = 0; i < a->ncats; i++)
            add_tick(m, i, true);
        return;
    }
    if (a->scale == HTML_SVG_NINES) {
        double top = isfinite(dhi) ? ceil(html_svg_nines(dhi) - 1e-9) : 2;
        if (!(top >= 2))
            top = 2;
        if (top > 9)
            top = 9;
        m->lo = 0;
        m->hi = top;
        add_tick(m, 0, true);
        add_tick(m, 50, top <= 6);
        for (int k = 1; k <= (int)top; k++)
            add_tick(m, 100 * (1 - pow(10, -k)), true);
        return;
    }
    if (a->scale == HTML_SVG_LOG) {
        if (!(dlo > 0) || !isfinite(dlo))
            dlo = isfinite(dhi) && dhi > 0 ? dhi / 10 : 1;
        if (!(dhi > 0) || !isfinite(dhi))
            dhi = dlo * 10;
        dlo = fmax(dlo, LOG_FLOOR);
        dhi = fmin(fmax(dhi, LOG_FLOOR), AXIS_LIMIT);
        /* the domain ends on 1-2-5 steps so a narrow range is not padded
         * out to whole decades */
        static const double steps[3] = {1, 2, 5};
        double e = floor(log10(dlo)), lo = pow(10, e);
        for (int i = 2; i >= 0; i--)
            if (steps[i] * pow(10, e) <= dlo * (1 + 1e-9)) {
                lo = steps[i] * pow(10, e);
                break;
            }
        e = floor(log10(dhi));
        double hi = 10 * pow(10, e);
        for (int i = 0; i < 3; i++)
            if (steps[i] * pow(10, e) >= dhi * (1 - 1e-9)) {
                hi = steps[i] * pow(10, e);
                break;
            }
        if (hi <= lo)
            hi = lo * 2;
        m->lo = log10(lo);
        m->hi = log10(hi);
        double decades = m->hi - m->lo;
        int every = decades > 16 ? 4 : decades > 8 ? 2 : 1;
        for (double d = floor(m->lo); d <= ceil(m->hi) && m->nticks < MAX_TICKS; d++) {
            for (int k = 1; k <= 9; k++) {
                double v = k * pow(10, d), t = log10(v);
                if (t < m->lo - 1e-9 || t > m->hi + 1e-9)
                    continue;
                bool major = k == 1 && ((long)d % every) == 0;
                bool label = major || (decades <= 2.1 && (k == 2 || k == 5));
                if (major || label || decades <= 6)
                    add_tick(m, v, label);
            }
        }
        return;
    }
    if (a->zero && isnan(a->min)) {
        if (dlo > 0)
            dlo = 0;
        if (dhi < 0)
            dhi = 0;
    }
    if (!isfinite(dlo) || !isfinite(dhi)) {
        dlo = 0;
        dhi = 1;
    }
    double t[MAX_TICKS], lo = dlo, hi = dhi;
    size_t n = html_svg_ticks_linear(&lo, &hi, t, 16);
    if (a->tight && dhi > dlo) {
        m->lo = dlo;
        m->hi = dhi;
    } else {
        m->lo = lo;
        m->hi = hi;
    }
    for (size_t i = 0; i < n; i++)
        if (t[i] >= m->lo - 1e-9 * (m->hi - m->lo) && t[i] <= m->hi + 1e-9 * (m->hi - m->lo))
            add_tick(m, t[i], true);
}

void html_svg_tick_text(char *buf, size_t len, const struct html_svg_axis *a, double v)
{
    if (a->scale == HTML_SVG_CAT) {
        unsigned i = (unsigned)v;
        snprintf(buf, len, "%s", i < a->ncats && a->cats[i] ? a->cats[i] : "");
    } else if (a->scale == HTML_SVG_NINES) {
        int k = v <= 0 ? 0 : (int)floor(html_svg_nines(v) + 1e-9 + 0.5);
        if (fabs(v - 50) < 1e-9)
            snprintf(buf, len, "50%%");
        else if (k <= 2)
            snprintf(buf, len, "%d%%", k == 0 ? 0 : k == 1 ? 90 : 99);
        else
            snprintf(buf, len, "%.*f%%", k - 2, v);
    } else {
        html_svg_format(buf, len, v, a->fmt, 3);
    }
}

bool html_svg_valid_for(enum html_svg_scale s, double v)
{
    if (!isfinite(v))
        return false;
    if (s == HTML_SVG_LOG)
        return v > 0;
    if (s == HTML_SVG_NINES)
        return v >= 0 && v < 100;
    return true;
}

