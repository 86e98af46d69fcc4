/* html_svg_int.h - internals shared by html_svg.c (drawing) and
 * html_svg_axis.c (scales, ticks, number formats). */
#ifndef SSDBENCH_HTML_SVG_INT_H
#define SSDBENCH_HTML_SVG_INT_H

#include <stdbool.h>
#include <stddef.h>

#include "output/html_svg_axis.h"

#define HTML_SVG_MAX_TICKS 64

struct html_svg_tick {
    double v;
    bool label;
};

/* One axis as drawn: the domain in transformed units (log10, nines) and
 * the pixel range it maps onto. */
struct html_svg_axis_map {
    enum html_svg_scale scale;
    double lo, hi;
    double p0, p1;
    struct html_svg_tick ticks[HTML_SVG_MAX_TICKS];
    size_t nticks;
};

/* Domain and ticks from the data range [dlo, dhi] (raw values) and the
 * axis settings; pixels are set by the caller. */
void html_svg_axis_setup(struct html_svg_axis_map *m, const struct html_svg_axis *a, double dlo, double dhi);
/* A value's pixel, clamped to the range; NaN when the scale cannot show it. */
double html_svg_map(const struct html_svg_axis_map *m, double v);
/* A tick's label. */
void html_svg_tick_text(char *buf, size_t len, const struct html_svg_axis *a, double v);
/* Whether a value can be placed on the scale (log: > 0, nines: [0, 100)). */
bool html_svg_valid_for(enum html_svg_scale s, double v);

#endif
