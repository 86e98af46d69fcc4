/* html_svg.c - see html_svg.h.
 *
 * Geometry is in SVG user units; the page scales the element to its width.
 * Text widths are estimated (7 units per character at 12 units), which is
 * enough to size margins and wrap the legend without a font. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "output/html_svg.h"
#include "output/html_svg_int.h"

#define FONT 12
#define CHAR_W 6.9
#define DEFAULT_W 700
#define DEFAULT_H 270

static const char *const palette[HTML_SVG_PALETTE] = {
    "#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9", "#333333", "#8c564b",
};
static const char *const dashes[4] = {"", "7 4", "2 3", "8 3 2 3"};

const char *html_svg_color(unsigned i)
{
    return palette[i % HTML_SVG_PALETTE];
}

/* Length of the valid UTF-8 sequence at p (1..4), or 0 when it is not one:
 * overlong forms, surrogates and code points past U+10FFFF are invalid. */
static int utf8_len(const unsigned char *p)
{
    if (p[0] < 0x80)
        return 1;
    int n = p[0] >= 0xf0 ? 4 : p[0] >= 0xe0 ? 3 : p[0] >= 0xc2 ? 2 : 0;
    if (!n || p[0] > 0xf4)
        return 0;
    for (int i = 1; i < n; i++)
        if ((p[i] & 0xc0) != 0x80)
            return 0;
    if ((n == 3 && p[0] == 0xe0 && p[1] < 0xa0) || (n == 3 && p[0] == 0xed && p[1] >= 0xa0) ||
        (n == 4 && p[0] == 0xf0 && p[1] < 0x90) || (n == 4 && p[0] == 0xf4 && p[1] >= 0x90))
        return 0;
    return n;
}

void html_svg_escape(FILE *f, const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    while (p && *p) {
        switch (*p) {
        case '&': fputs("&amp;", f); break;
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '"': fputs("&quot;", f); break;
        case '\'': fputs("&#39;", f); break;
        default:
            if (*p < 0x20 && *p != '\n' && *p != '\t') {
                fputc(' ', f);    /* control characters are not allowed in XML text */
            } else if (*p >= 0x80) {
                /* result files are read as bytes: keep the page valid UTF-8 */
                int n = utf8_len(p);
                if (n)
                    fwrite(p, 1, (size_t)n, f);
                else
                    fputs("\xef\xbf\xbd", f);
                p += n ? n : 1;
                continue;
            } else {
                fputc(*p, f);
            }
        }
        p++;
    }
}

static void widen(double *lo, double *hi, double v)
{
    if (v < *lo)
        *lo = v;
    if (v > *hi)
        *hi = v;
}

static void data_range(const struct html_svg_chart *c, double *xlo, double *xhi, double *ylo, double *yhi)
{
    *xlo = *ylo = INFINITY;
    *xhi = *yhi = -INFINITY;
    for (size_t s = 0; s < c->nseries; s++) {
        const struct html_svg_series *se = &c->series[s];
        for (size_t i = 0; i < se->n; i++) {
            bool xv = html_svg_valid_for(c->x.scale, se->x[i]);
            if (xv)
                widen(xlo, xhi, se->x[i]);
            if (se->x2 && html_svg_valid_for(c->x.scale, se->x2[i]))
                widen(xlo, xhi, se->x2[i]);
            if (xv && html_svg_valid_for(c->y.scale, se->y[i]))
                widen(ylo, yhi, se->y[i]);
        }
    }
    for (size_t k = 0; k < c->nmarks; k++) {
        const struct html_svg_mark *mk = &c->marks[k];
        if (mk->kind == HTML_SVG_VSPAN || mk->kind == HTML_SVG_SEGMENT) {
            if (html_svg_valid_for(c->x.scale, mk->x0))
                widen(xlo, xhi, mk->x0);
            if (html_svg_valid_for(c->x.scale, mk->x1))
                widen(xlo, xhi, mk->x1);
        }
        if (mk->kind != HTML_SVG_VSPAN) {
            if (html_svg_valid_for(c->y.scale, mk->y0))
                widen(ylo, yhi, mk->y0);
            if (mk->kind != HTML_SVG_HLINE && html_svg_valid_for(c->y.scale, mk->y1))
                widen(ylo, yhi, mk->y1);
        }
    }
}

static void dash_attr(FILE *f, unsigned dash)
{
    if (dash % 4)
        fprintf(f, " stroke-dasharray=\"%s\"", dashes[dash % 4]);
}

/* Path of a line series, thinned to min/max per pixel column when long. */
static void line_path(FILE *f, const struct html_svg_series *se, const struct html_svg_axis_map *mx,
                      const struct html_svg_axis_map *my, double plot_w)
{
    bool thin = (double)se->n > 3 * plot_w;
    bool open = false;
    long col = -1;
    double cmin = 0, cmax = 0, cfirst = 0;
    fprintf(f, "<path fill=\"none\" stroke=\"%s\" stroke-width=\"1.8\" stroke-linejoin=\"round\"",
            html_svg_color(se->color));
    dash_attr(f, se->dash);
    fputs(" d=\"", f);
    for (size_t i = 0; i <= se->n; i++) {
        double px = NAN, py = NAN;
        if (i < se->n) {
            px = html_svg_map(mx, se->x[i]);
            py = html_svg_map(my, se->y[i]);
        }
        bool ok = isfinite(px) && isfinite(py);
        if (thin && col >= 0 && (!ok || (long)px != col)) {
            /* flush the column: its first point leads, then the extremes */
            fprintf(f, "%c%.1f %.1f", open ? 'L' : 'M', (double)col, cfirst);
            open = true;
            if (cmin != cfirst)
                fprintf(f, "L%.1f %.1f", (double)col, cmin);
            if (cmax != cmin)
                fprintf(f, "L%.1f %.1f", (double)col, cmax);
            col = -1;
        }
        if (!ok) {
            open = false;
            continue;
        }
        if (thin) {
            if (col < 0) {
                col = (long)px;
                cfirst = cmin = cmax = py;
            } else {
                if (py < cmin)
                    cmin = py;
                if (py > cmax)
                    cmax = py;
            }
            continue;
        }
        fprintf(f, "%c%.1f %.1f", open ? 'L' : 'M', px, py);
        open = true;
    }
    fputs("\"><title>", f);
    html_svg_escape(f, se->name ? se->name : "");
    fputs("</title></path>\n", f);
}

static void point_title(FILE *f, const struct html_svg_chart *c, const struct html_svg_series *se, size_t i)
{
    char xs[64], ys[64];
    html_svg_tick_text(xs, sizeof(xs), &c->x, se->x[i]);
    if (c->x.scale == HTML_SVG_NINES)
        snprintf(xs, sizeof(xs), "p%.6g", se->x[i]);
    html_svg_format(ys, sizeof(ys), se->y[i], c->y.fmt, 4);
    fputs("<title>", f);
    if (se->name) {
        html_svg_escape(f, se->name);
        fputs(": ", f);
    }
    html_svg_escape(f, xs);
    fputs(", ", f);
    html_svg_escape(f, ys);
    fputs("</title>", f);
}

static void markers(FILE *f, const struct html_svg_chart *c, const struct html_svg_series *se,
                    const struct html_svg_axis_map *mx, const struct html_svg_axis_map *my)
{
    for (size_t i = 0; i < se->n; i++) {
        double px = html_svg_map(mx, se->x[i]), py = html_svg_map(my, se->y[i]);
        if (!isfinite(px) || !isfinite(py))
            continue;
        fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3.2\" fill=\"%s\" stroke=\"#fff\" stroke-width=\"0.8\">",
                px, py, html_svg_color(se->color));
        point_title(f, c, se, i);
        fputs("</circle>\n", f);
    }
}

static void step_fill(FILE *f, const struct html_svg_series *se, const struct html_svg_axis_map *mx,
                      const struct html_svg_axis_map *my, double base)
{
    const char *col = html_svg_color(se->color);
    if (!se->x2)
        return;
    fprintf(f, "<path fill=\"%s\" fill-opacity=\"0.18\" stroke=\"%s\" stroke-width=\"1.5\"", col, col);
    dash_attr(f, se->dash);
    fputs(" d=\"", f);
    bool open = false;
    double prev = NAN;
    for (size_t i = 0; i < se->n; i++) {
        double x0 = html_svg_map(mx, se->x[i]), x1 = html_svg_map(mx, se->x2[i]);
        if (!isfinite(x0) || !isfinite(x1))
            continue;
        double y = html_svg_valid_for(my->scale, se->y[i]) ? html_svg_map(my, se->y[i]) : base;
        if (!isfinite(y))
            y = base;
        if (open && fabs(x0 - prev) > 0.05) {
            fprintf(f, "L%.1f %.1fZ", prev, base);   /* a gap: back to the axis */
            open = false;
        }
        if (!open)
            fprintf(f, "M%.1f %.1f", x0, base);
        fprintf(f, "L%.1f %.1fL%.1f %.1f", x0, y, x1, y);
        open = true;
        prev = x1;
    }
    if (open)
        fprintf(f, "L%.1f %.1fZ", prev, base);
    fputs("\"><title>", f);
    html_svg_escape(f, se->name ? se->name : "");
    fputs("</title></path>\n", f);
}

static void bars(FILE *f, const struct html_svg_chart *c, const struct html_svg_series *se, size_t idx,
                 size_t nbars, const struct html_svg_axis_map *mx, const struct html_svg_axis_map *my, double base)
{
    double slot = fabs(html_svg_map(mx, 1) - html_svg_map(mx, 0));
    if (c->x.ncats < 2)
        slot = fabs(mx->p1 - mx->p0) / (c->x.ncats ? c->x.ncats : 1);
    double group = slot * 0.8, w = group / (double)(nbars ? nbars : 1);
    for (size_t i = 0; i < se->n; i++) {
        double cx = html_svg_map(mx, se->x[i]), y = html_svg_map(my, se->y[i]);
        if (!isfinite(cx) || !isfinite(y))
            continue;
        double x = cx - group / 2 + (double)idx * w;
        fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\">", x,
                y < base ? y : base, w * 0.92, fabs(base - y), html_svg_color(se->color));
        point_title(f, c, se, i);
        fputs("</rect>\n", f);
    }
}

struct legend_item {
    const char *text;
    unsigned color, dash;
    int shape;      /* 0 line, 1 marker, 2 box */
};

static int swatch_shape(enum html_svg_style s)
{
    return s == HTML_SVG_MARKS ? 1 : (s == HTML_SVG_BARS || s == HTML_SVG_STEP_FILL) ? 2 : 0;
}

static void draw_mark(FILE *f, const struct html_svg_mark *mk, const struct html_svg_axis_map *mx,
                      const struct html_svg_axis_map *my, double left, double right, double top, double bottom)
{
    const char *col = html_svg_color(mk->color);
    double x0, x1, y0, y1;
    switch (mk->kind) {
    case HTML_SVG_HLINE:
        y0 = html_svg_map(my, mk->y0);
        if (!isfinite(y0))
            return;
        fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"1.4\"",
                left, y0, right, y0, col);
        break;
    case HTML_SVG_HBAND:
        y0 = html_svg_map(my, mk->y0);
        y1 = html_svg_map(my, mk->y1);
        if (!isfinite(y0) || !isfinite(y1))
            return;
        fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\" fill-opacity=\"0.10\"/>\n",
                left, y0 < y1 ? y0 : y1, right - left, fabs(y1 - y0), col);
        fprintf(f, "<path fill=\"none\" stroke=\"%s\" stroke-width=\"1\" d=\"M%.1f %.1fH%.1fM%.1f %.1fH%.1f\"",
                col, left, y0, right, left, y1, right);
        break;
    case HTML_SVG_VSPAN:
        x0 = html_svg_map(mx, mk->x0);
        x1 = html_svg_map(mx, mk->x1);
        if (!isfinite(x0) || !isfinite(x1))
            return;
        fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\" fill-opacity=\"0.10\"",
                x0 < x1 ? x0 : x1, top, fabs(x1 - x0), bottom - top, col);
        break;
    case HTML_SVG_SEGMENT:
        x0 = html_svg_map(mx, mk->x0);
        x1 = html_svg_map(mx, mk->x1);
        y0 = html_svg_map(my, mk->y0);
        y1 = html_svg_map(my, mk->y1);
        if (!isfinite(x0) || !isfinite(x1) || !isfinite(y0) || !isfinite(y1))
            return;
        fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"1.6\"",
                x0, y0, x1, y1, col);
        break;
    }
    dash_attr(f, mk->dash);
    fputs(">", f);
    if (mk->label) {
        fputs("<title>", f);
        html_svg_escape(f, mk->label);
        fputs("</title>", f);
    }
    fputs(mk->kind == HTML_SVG_HLINE || mk->kind == HTML_SVG_SEGMENT ? "</line>\n"
          : mk->kind == HTML_SVG_HBAND                        ? "</path>\n"
                                                         : "</rect>\n", f);
}

static double text_w(const char *s)
{
    size_t n = 0;
    for (; s && *s; s++)
        if (((unsigned char)*s & 0xc0) != 0x80)   /* count UTF-8 characters */
            n++;
    return (double)n * CHAR_W;
}

/* Where a chart's plot area sits in its SVG. */
struct chart_frame {
    double W, MB, left, right, top, bottom, plot_w;
    bool rotate;   /* category labels turned to fit */
};

/* The plot frame: margins from the tick label sizes (mx, my set up on
 * their data ranges; their pixel ends are set here). */
static void frame_layout(const struct html_svg_chart *c, struct html_svg_axis_map *mx, struct html_svg_axis_map *my,
                         struct chart_frame *fr)
{
    double W = c->width ? c->width : DEFAULT_W, PH = c->height ? c->height : DEFAULT_H;
    /* margins from the label sizes */
    char buf[96];
    double ytw = 0;
    for (size_t i = 0; i < my->nticks; i++)
        if (my->ticks[i].label) {
            html_svg_tick_text(buf, sizeof(buf), &c->y, my->ticks[i].v);
            if (text_w(buf) > ytw)
                ytw = text_w(buf);
        }
    double xtw = 0;
    size_t nxl = 0;
    for (size_t i = 0; i < mx->nticks; i++)
        if (mx->ticks[i].label) {
            html_svg_tick_text(buf, sizeof(buf), &c->x, mx->ticks[i].v);
            if (text_w(buf) > xtw)
                xtw = text_w(buf);
            nxl++;
        }
    /* the last x label is centred on the right edge: leave it room */
    double lastw = 0;
    for (size_t i = mx->nticks; i-- > 0;)
        if (mx->ticks[i].label) {
            html_svg_tick_text(buf, sizeof(buf), &c->x, mx->ticks[i].v);
            lastw = text_w(buf);
            break;
        }
    double ML = 26 + ytw + 8, MR = c->x.scale == HTML_SVG_CAT || lastw / 2 + 4 < 18 ? 18 : lastw / 2 + 4, MT = 10;
    double plot_w = W - ML - MR;
    bool rotate = c->x.scale == HTML_SVG_CAT && nxl && xtw + 6 > plot_w / (double)nxl;
    double MB = rotate ? 30 + xtw * 0.72 : 44;
    double left = ML, right = W - MR, top = MT, bottom = MT + PH;
    mx->p0 = left;
    mx->p1 = right;
    my->p0 = bottom;
    my->p1 = top;
    *fr = (struct chart_frame){W, MB, left, right, top, bottom, plot_w, rotate};
}

/* Legend rows under the plot: the named series, then the labelled marks,
 * flowed left to right; returns the count and the SVG's height in *H. */
static size_t legend_layout(const struct html_svg_chart *c, const struct chart_frame *fr, struct legend_item *items,
                            double *pos_x, double *pos_y, double *H)
{
    double W = fr->W, left = fr->left, bottom = fr->bottom, MB = fr->MB;
    size_t nitems = 0;
    for (size_t s = 0; s < c->nseries && nitems < 64; s++)
        if (c->series[s].name)
            items[nitems++] = (struct legend_item){c->series[s].name, c->series[s].color,
                                                   c->series[s].dash, swatch_shape(c->series[s].style)};
    for (size_t k = 0; k < c->nmarks && nitems < 64; k++)
        if (c->marks[k].label)
            items[nitems++] = (struct legend_item){c->marks[k].label, c->marks[k].color, c->marks[k].dash,
                                                   c->marks[k].kind == HTML_SVG_HBAND || c->marks[k].kind == HTML_SVG_VSPAN ? 2 : 0};
    double lx = left, ly = bottom + MB + 8, row_h = 18;
    for (size_t i = 0; i < nitems; i++) {
        double w = 30 + text_w(items[i].text) + 14;
        if (lx + w > W - 4 && lx > left) {
            lx = left;
            ly += row_h;
        }
        pos_x[i] = lx;
        pos_y[i] = ly;
        lx += w;
    }
    *H = nitems ? ly + row_h - 4 : bottom + MB;
    return nitems;
}

/* Grid lines, tick labels and the axis labels. */
static void draw_axes(FILE *f, const struct html_svg_chart *c, const struct html_svg_axis_map *mx,
                      const struct html_svg_axis_map *my, const struct chart_frame *fr)
{
    double left = fr->left, right = fr->right, top = fr->top, bottom = fr->bottom, MB = fr->MB;
    char buf[96];
    /* grid and ticks */
    fputs("<g stroke=\"#e3e3e3\" stroke-width=\"1\">\n", f);
    for (size_t i = 0; i < my->nticks; i++) {
        double y = html_svg_map(my, my->ticks[i].v);
        if (isfinite(y) && y > top + 0.5 && y < bottom - 0.5)
            fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"%s/>\n", left, y, right, y,
                    my->ticks[i].label ? "" : " stroke-opacity=\"0.5\"");
    }
    if (c->x.scale != HTML_SVG_CAT)
        for (size_t i = 0; i < mx->nticks; i++) {
            double x = html_svg_map(mx, mx->ticks[i].v);
            if (isfinite(x) && x > left + 0.5 && x < right - 0.5)
                fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"%s/>\n", x, top, x, bottom,
                        mx->ticks[i].label ? "" : " stroke-opacity=\"0.5\"");
        }
    fputs("</g>\n<g fill=\"#333\">\n", f);
    for (size_t i = 0; i < my->nticks; i++) {
        if (!my->ticks[i].label)
            continue;
        double y = html_svg_map(my, my->ticks[i].v);
        html_svg_tick_text(buf, sizeof(buf), &c->y, my->ticks[i].v);
        fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">", left - 6, y + 4);
        html_svg_escape(f, buf);
        fputs("</text>\n", f);
    }
    for (size_t i = 0; i < mx->nticks; i++) {
        if (!mx->ticks[i].label)
            continue;
        double x = html_svg_map(mx, mx->ticks[i].v);
        html_svg_tick_text(buf, sizeof(buf), &c->x, mx->ticks[i].v);
        if (fr->rotate)
            fprintf(f, "<text transform=\"translate(%.1f %.1f) rotate(-40)\" text-anchor=\"end\">", x + 4,
                    bottom + 14);
        else
            fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">", x, bottom + 16);
        html_svg_escape(f, buf);
        fputs("</text>\n", f);
    }
    fputs("</g>\n", f);
    if (c->x.label) {
        fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" font-size=\"13\" fill=\"#111\">",
                (left + right) / 2, bottom + MB - 8);
        html_svg_escape(f, c->x.label);
        fputs("</text>\n", f);
    }
    if (c->y.label) {
        fprintf(f, "<text transform=\"translate(14 %.1f) rotate(-90)\" text-anchor=\"middle\" font-size=\"13\" "
                   "fill=\"#111\">", (top + bottom) / 2);
        html_svg_escape(f, c->y.label);
        fputs("</text>\n", f);
    }
}

/* The data: shaded marks under it, the series, lines over it ("no data"
 * when the y range is empty, ylo not finite, and there are no marks). */
static void draw_data(FILE *f, const struct html_svg_chart *c, const struct html_svg_axis_map *mx,
                      const struct html_svg_axis_map *my, const struct chart_frame *fr, double ylo)
{
    double left = fr->left, right = fr->right, top = fr->top, bottom = fr->bottom, plot_w = fr->plot_w;
    /* shaded marks under the data, lines over it */
    for (size_t k = 0; k < c->nmarks; k++)
        if (c->marks[k].kind == HTML_SVG_VSPAN || c->marks[k].kind == HTML_SVG_HBAND)
            draw_mark(f, &c->marks[k], mx, my, left, right, top, bottom);
    size_t nbars = 0, bar_idx = 0;
    for (size_t s = 0; s < c->nseries; s++)
        nbars += c->series[s].style == HTML_SVG_BARS;
    double base = c->y.scale == HTML_SVG_LIN ? html_svg_map(my, 0) : bottom;
    if (!isfinite(base))
        base = bottom;
    for (size_t s = 0; s < c->nseries; s++) {
        const struct html_svg_series *se = &c->series[s];
        switch (se->style) {
        case HTML_SVG_LINE: line_path(f, se, mx, my, plot_w); break;
        case HTML_SVG_LINE_MARKS:
            line_path(f, se, mx, my, plot_w);
            markers(f, c, se, mx, my);
            break;
        case HTML_SVG_MARKS: markers(f, c, se, mx, my); break;
        case HTML_SVG_STEP_FILL: step_fill(f, se, mx, my, base); break;
        case HTML_SVG_BARS: bars(f, c, se, bar_idx++, nbars, mx, my, base); break;
        }
    }
    for (size_t k = 0; k < c->nmarks; k++)
        if (c->marks[k].kind == HTML_SVG_HLINE || c->marks[k].kind == HTML_SVG_SEGMENT)
            draw_mark(f, &c->marks[k], mx, my, left, right, top, bottom);
    if (!isfinite(ylo) && c->nmarks == 0)
        fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" fill=\"#888\">no data</text>\n",
                (left + right) / 2, (top + bottom) / 2);
}

/* The legend: a swatch (line, marker or box) and the text per item. */
static void draw_legend(FILE *f, const struct legend_item *items, size_t nitems, const double *pos_x,
                        const double *pos_y)
{
    for (size_t i = 0; i < nitems; i++) {
        const char *col = html_svg_color(items[i].color);
        double x = pos_x[i], y = pos_y[i];
        if (items[i].shape == 1)
            fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"%s\"/>", x + 12, y - 4, col);
        else if (items[i].shape == 2)
        {
            fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"22\" height=\"10\" fill=\"%s\" fill-opacity=\"0.45\" "
                       "stroke=\"%s\"", x + 1, y - 9, col, col);
            dash_attr(f, items[i].dash);
            fputs("/>", f);
        }
        else {
            fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"2.2\"",
                    x + 1, y - 4, x + 23, y - 4, col);
            dash_attr(f, items[i].dash);
            fputs("/>", f);
        }
        fprintf(f, "<text x=\"%.1f\" y=\"%.1f\">", x + 30, y);
        html_svg_escape(f, items[i].text);
        fputs("</text>\n", f);
    }
}

int html_svg_chart_write(FILE *f, const struct html_svg_chart *c)
{
    double xlo, xhi, ylo, yhi;
    data_range(c, &xlo, &xhi, &ylo, &yhi);
    struct html_svg_axis_map mx, my;
    html_svg_axis_setup(&my, &c->y, ylo, yhi);
    html_svg_axis_setup(&mx, &c->x, xlo, xhi);
    struct chart_frame fr;
    frame_layout(c, &mx, &my, &fr);

    /* legend rows */
    struct legend_item items[64];
    double pos_x[64], pos_y[64], H;
    size_t nitems = legend_layout(c, &fr, items, pos_x, pos_y, &H);
    double W = fr.W;

    fprintf(f, "<svg class=\"chart\" viewBox=\"0 0 %.0f %.0f\" width=\"%.0f\" height=\"%.0f\" role=\"img\" "
               "font-family=\"sans-serif\" font-size=\"%d\" aria-label=\"", W, H, W, H, FONT);
    html_svg_escape(f, c->title ? c->title : "chart");
    fputs("\">\n<title>", f);
    html_svg_escape(f, c->title ? c->title : "chart");
    fputs("</title>\n", f);
    fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"#fff\" stroke=\"#999\"/>\n",
            fr.left, fr.top, fr.right - fr.left, fr.bottom - fr.top);
    draw_axes(f, c, &mx, &my, &fr);
    draw_data(f, c, &mx, &my, &fr, ylo);
    draw_legend(f, items, nitems, pos_x, pos_y);
    fputs("</svg>\n", f);
    return ferror(f) ? -EIO : 0;
}
