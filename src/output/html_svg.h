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

#include "output/html_svg_axis.h"

enum html_svg_style { HTML_SVG_LINE, HTML_SVG_LINE_MARKS, HTML_SVG_MARKS, HTML_SVG_STEP_FILL, HTML_SVG_BARS };

struct html_svg_series {
    const char *name;               /* legend text; NULL = not in the legend */
    const double *x, *y;            /* n points */
    const double *x2;               /* HTML_SVG_STEP_FILL: level y[i] spans x[i] .. x2[i] */
    size_t n;
    unsigned color;                 /* palette index */
    unsigned dash;                  /* 0 solid, 1 dashed, 2 dotted, 3 dash-dot */
    enum html_svg_style style;
};

enum html_svg_mark_kind { HTML_SVG_HLINE, HTML_SVG_HBAND, HTML_SVG_VSPAN, HTML_SVG_SEGMENT };

struct html_svg_mark {
    enum html_svg_mark_kind kind;
    double x0, y0, x1, y1;          /* HLINE: y0; HBAND: y0..y1; VSPAN: x0..x1 */
    const char *label;              /* legend text, or NULL */
    unsigned color;
    unsigned dash;
};

struct html_svg_chart {
    const char *title;              /* accessible name of the image */
    struct html_svg_axis x, y;
    const struct html_svg_series *series;
    size_t nseries;
    const struct html_svg_mark *marks;
    size_t nmarks;
    unsigned width, height;         /* whole width and plot height in user units;
                                       0 = 700 and 270 */
};

#define HTML_SVG_PALETTE 8
/* Colour of palette entry i (wraps), "#rrggbb". */
const char *html_svg_color(unsigned i);

/* Writes one <svg> element. Returns 0, or -EIO when the stream failed. */
int html_svg_chart_write(FILE *f, const struct html_svg_chart *c);

/* Escaped text for HTML and SVG (& < > " '). */
void html_svg_escape(FILE *f, const char *s);

#endif
