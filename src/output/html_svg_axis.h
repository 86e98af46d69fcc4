/* html_svg_axis.h - the axes of the report's charts: scales (linear, log10,
 * nines, categories), number formats, and the tick and transform helpers
 * (html_svg_axis.c). The chart itself is html_svg.h. */
#ifndef SSDBENCH_HTML_SVG_AXIS_H
#define SSDBENCH_HTML_SVG_AXIS_H

#include <stdbool.h>
#include <stddef.h>

enum html_svg_scale { HTML_SVG_LIN, HTML_SVG_LOG, HTML_SVG_NINES, HTML_SVG_CAT };

/* How tick labels and tooltips print a value. */
enum html_svg_fmt {
    HTML_SVG_FMT_NUM,    /* 1.5k, 20M */
    HTML_SVG_FMT_NS,     /* a latency in ns, printed with its unit: 850 ns, 1.2 ms */
    HTML_SVG_FMT_PCT,    /* 12.5% */
    HTML_SVG_FMT_PLAIN,  /* %g */
};

struct html_svg_axis {
    const char *label;              /* with its unit, e.g. "throughput (MB/s)" */
    enum html_svg_scale scale;
    enum html_svg_fmt fmt;
    double min, max;                /* NaN: from the data */
    bool zero;                      /* linear: the range includes 0 */
    bool tight;                     /* linear: the range ends at the data, not at a tick */
    const char *const *cats;        /* HTML_SVG_CAT: category names; x = index */
    unsigned ncats;
};

/* A value as the axis format prints it, with about `digits` significant
 * digits ("1.25 ms", "45.3k", "99.9%"). */
void html_svg_format(char *buf, size_t len, double v, enum html_svg_fmt fmt, int digits);

/* Nice tick values for a linear range: fills at most cap ticks, returns the
 * count and widens [*lo, *hi] to the outer ticks. */
size_t html_svg_ticks_linear(double *lo, double *hi, double *ticks, size_t cap);

/* The nines transform of a percentile: -log10(1 - p/100); +inf at 100. */
double html_svg_nines(double pct);

#endif
