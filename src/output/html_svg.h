/* html_svg.h - the chart primitives of the HTML report: one generic XY chart
 * drawn as inline SVG (no scripts, no fonts, no external references).
 *
 * Every chart of the report is this one function with different axes and
 * series styles, so a result kind only chooses data, never drawing code:
 *  - axes: linear, log10, "nines" (percentiles: 0, 90, 99, 99.9 % equally
 *    spaced, the usual latency-percentile plot), or categories (sweep points);
 *  - series: lines, lines with markers, markers, filled steps (histograms)
 *    or grouped bars on a category axis;
 *  - marks: horizontal lines and bands (steady-state average and +/-10 %),
 *    vertical spans (the measurement window) and segments (the fit line).
 * Ranges come from the data unless fixed. Long series are thinned to the
 * minimum and maximum per pixel column, so spikes survive and a 24 h run at
 * one-second intervals stays a small file. A NaN y is a gap.
 */
#ifndef SSDBENCH_HTML_SVG_H
#define SSDBENCH_HTML_SVG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

enum svg_scale { SVG_LIN, SVG_LOG, SVG_NINES, SVG_CAT };

/* How tick labels and tooltips print a value. */
enum svg_fmt {
    SVG_FMT_NUM,    /* 1.5k, 20M */
    SVG_FMT_NS,     /* a latency in ns, printed with its unit: 850 ns, 1.2 ms */
    SVG_FMT_PCT,    /* 12.5% */
    SVG_FMT_PLAIN,  /* %g */
};

struct svg_axis {
    const char *label;              /* with its unit, e.g. "throughput (MB/s)" */
    enum svg_scale scale;
    enum svg_fmt fmt;
    double min, max;                /* NaN: from the data */
    bool zero;                      /* linear: the range includes 0 */
    bool tight;                     /* linear: the range ends at the data, not at a tick */
    const char *const *cats;        /* SVG_CAT: category names; x = index */
    unsigned ncats;
};

enum svg_style { SVG_LINE, SVG_LINE_MARKS, SVG_MARKS, SVG_STEP_FILL, SVG_BARS };

struct svg_series {
    const char *name;               /* legend text; NULL = not in the legend */
    const double *x, *y;            /* n points */
    const double *x2;               /* SVG_STEP_FILL: level y[i] spans x[i] .. x2[i] */
    size_t n;
    unsigned color;                 /* palette index */
    unsigned dash;                  /* 0 solid, 1 dashed, 2 dotted, 3 dash-dot */
    enum svg_style style;
};

enum svg_mark_kind { SVG_HLINE, SVG_HBAND, SVG_VSPAN, SVG_SEGMENT };

struct svg_mark {
    enum svg_mark_kind kind;
    double x0, y0, x1, y1;          /* HLINE: y0; HBAND: y0..y1; VSPAN: x0..x1 */
    const char *label;              /* legend text, or NULL */
    unsigned color;
    unsigned dash;
};

struct svg_chart {
    const char *title;              /* accessible name of the image */
    struct svg_axis x, y;
    const struct svg_series *series;
    size_t nseries;
    const struct svg_mark *marks;
    size_t nmarks;
    unsigned width, height;         /* whole width and plot height in user units;
                                       0 = 700 and 270 */
};

#define SVG_PALETTE 8
/* Colour of palette entry i (wraps), "#rrggbb". */
const char *svg_color(unsigned i);

/* Writes one <svg> element. Returns 0, or -EIO when the stream failed. */
int svg_chart_write(FILE *f, const struct svg_chart *c);

/* Escaped text for HTML and SVG (& < > " '). */
void svg_escape(FILE *f, const char *s);

/* A value as the axis format prints it, with about `digits` significant
 * digits ("1.25 ms", "45.3k", "99.9%"). */
void svg_format(char *buf, size_t len, double v, enum svg_fmt fmt, int digits);

/* Nice tick values for a linear range: fills at most cap ticks, returns the
 * count and widens [*lo, *hi] to the outer ticks. */
size_t svg_ticks_linear(double *lo, double *hi, double *ticks, size_t cap);

/* The nines transform of a percentile: -log10(1 - p/100); +inf at 100. */
double svg_nines(double pct);

#endif
