/* test_svg.c - the report's drawing and table primitives (html_svg,
 * html_table) against hand-computed answers: value formats, tick choice,
 * escaping, the shortest round-trip number form of the CSV, table merging,
 * sorting and colour levels, and what a chart writes (markers, thinning of
 * long series, log ticks, no external reference). */
#include "check.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output/html_svg.h"
#include "output/html_table.h"

static char *chart_text(const struct html_svg_chart *c, size_t *len)
{
    char *buf = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&buf, &n);
    if (!f)
        return NULL;
    int rc = html_svg_chart_write(f, c);
    fclose(f);
    if (len)
        *len = n;
    if (rc) {
        free(buf);
        return NULL;
    }
    return buf;
}

static size_t count(const char *s, const char *what)
{
    size_t n = 0;
    for (const char *p = s; (p = strstr(p, what)); p += strlen(what))
        n++;
    return n;
}

TEST(format_units)
{
    char b[64];
    html_svg_format(b, sizeof(b), 1500, HTML_SVG_FMT_NUM, 3);
    CHECK(!strcmp(b, "1.5k"), "%s", b);
    html_svg_format(b, sizeof(b), 22746, HTML_SVG_FMT_NUM, 3);
    CHECK(!strcmp(b, "22.7k"), "%s", b);
    html_svg_format(b, sizeof(b), 2e6, HTML_SVG_FMT_NUM, 3);
    CHECK(!strcmp(b, "2M"), "%s", b);
    html_svg_format(b, sizeof(b), 850, HTML_SVG_FMT_NS, 3);
    CHECK(!strcmp(b, "850 ns"), "%s", b);
    html_svg_format(b, sizeof(b), 123136, HTML_SVG_FMT_NS, 3);
    CHECK(!strcmp(b, "123 \xc2\xb5s"), "%s", b);
    /* 999.95 us rounds to 1000 us at 3 digits: must become "1 ms" */
    html_svg_format(b, sizeof(b), 999950, HTML_SVG_FMT_NS, 3);
    CHECK(!strcmp(b, "1 ms"), "%s", b);
    html_svg_format(b, sizeof(b), 999400, HTML_SVG_FMT_NS, 3);
    CHECK(!strcmp(b, "999 \xc2\xb5s"), "%s", b);
    html_svg_format(b, sizeof(b), 2.5e9, HTML_SVG_FMT_NS, 3);
    CHECK(!strcmp(b, "2.5 s"), "%s", b);
    html_svg_format(b, sizeof(b), 12.5, HTML_SVG_FMT_PCT, 3);
    CHECK(!strcmp(b, "12.5%"), "%s", b);
    html_svg_format(b, sizeof(b), NAN, HTML_SVG_FMT_NUM, 3);
    CHECK(!strcmp(b, "-"), "%s", b);
}

TEST(linear_ticks)
{
    double lo = 0, hi = 93, t[16];
    size_t n = html_svg_ticks_linear(&lo, &hi, t, 16);
    CHECK(n == 6 && lo == 0 && hi == 100, "n %zu lo %g hi %g", n, lo, hi);
    for (size_t i = 0; i < n; i++)
        CHECK(t[i] == 20.0 * (double)i, "tick %zu = %g", i, t[i]);
    lo = 3.5;
    hi = 8.5;
    n = html_svg_ticks_linear(&lo, &hi, t, 16);
    CHECK(n == 7 && lo == 3 && hi == 9 && t[0] == 3 && t[6] == 9, "n %zu lo %g hi %g", n, lo, hi);
    /* a flat series still gets a range */
    lo = hi = 5;
    n = html_svg_ticks_linear(&lo, &hi, t, 16);
    CHECK(lo < 5 && hi > 5 && n >= 2, "lo %g hi %g n %zu", lo, hi, n);
}

TEST(nines)
{
    CHECK(html_svg_nines(0) == 0, "%g", html_svg_nines(0));
    CHECK(fabs(html_svg_nines(90) - 1) < 1e-12, "%g", html_svg_nines(90));
    CHECK(fabs(html_svg_nines(99.9) - 3) < 1e-9, "%g", html_svg_nines(99.9));
    CHECK(isinf(html_svg_nines(100)), "%g", html_svg_nines(100));
}

TEST(escape)
{
    char *buf = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&buf, &n);
    CHECK(f != NULL, "memstream");
    html_svg_escape(f, "<a&b>\"'\x01z");
    fclose(f);
    int ok = !strcmp(buf, "&lt;a&amp;b&gt;&quot;&#39; z");
    CHECK(ok, "%s", buf);
    free(buf);
    /* valid UTF-8 passes; a stray byte, an overlong form and a surrogate
     * each become U+FFFD */
    f = open_memstream(&buf, &n);
    CHECK(f != NULL, "memstream");
    html_svg_escape(f, "\xc2\xb5s \xff \xc0\xaf \xed\xa0\x80 \xf0\x9f\x98\x80");
    fclose(f);
    ok = !strcmp(buf, "\xc2\xb5s \xef\xbf\xbd \xef\xbf\xbd\xef\xbf\xbd \xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd "
                      "\xf0\x9f\x98\x80");
    CHECK(ok, "%s", buf);
    free(buf);
}

TEST(num_str_round_trip)
{
    char b[64];
    html_table_num_str(b, sizeof(b), 0.1);
    CHECK(!strcmp(b, "0.1"), "%s", b);
    html_table_num_str(b, sizeof(b), 123456789);
    CHECK(!strcmp(b, "123456789"), "%s", b);
    html_table_num_str(b, sizeof(b), 1.0 / 3);
    CHECK(!strcmp(b, "0.3333333333333333") && strtod(b, NULL) == 1.0 / 3, "%s", b);
    html_table_num_str(b, sizeof(b), 1e21);
    CHECK(!strcmp(b, "1e+21"), "%s", b);
    html_table_num_str(b, sizeof(b), NAN);
    CHECK(!strcmp(b, ""), "%s", b);
    /* awkward doubles read back exactly */
    const double v[] = {93.1678997869325, 22746.069283919063, 4.662885948330183, 1e-7, 2.0 / 3e9};
    for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
        html_table_num_str(b, sizeof(b), v[i]);
        CHECK(strtod(b, NULL) == v[i], "%.17g -> %s", v[i], b);
    }
}

TEST(table_merge_sort_levels)
{
    struct html_table *t = html_table_new("a b/c", "T");
    CHECK(t && !strcmp(t->id, "a-b-c"), "id %s", t ? t->id : "");
    int k = html_table_add_col(t, "x", NULL, HTML_TABLE_NUM, HTML_TABLE_AUTO);
    int a = html_table_add_col(t, "a", "%", HTML_TABLE_NUM, HTML_TABLE_AUTO);
    const double xs[] = {3, 1, 2, 1, NAN, 0.5};
    for (size_t i = 0; i < 6; i++) {
        long r = html_table_row_for(t, k, xs[i]);
        CHECK(r >= 0, "row");
        html_table_set(t, (size_t)r, a, 10 * (double)i);
    }
    /* 1 merged; NaN never equals anything, so it is a row of its own */
    CHECK(t->nrows == 5, "rows %zu", t->nrows);
    int b = html_table_add_col(t, "late", NULL, HTML_TABLE_TEXT, HTML_TABLE_AUTO);  /* added after rows: cells empty */
    CHECK(html_table_text(t, 0, b) == NULL && isnan(html_table_get(t, 4, -1)), "late column");
    html_table_set_text(t, 0, b, "three");
    html_table_sort(t, k);
    const double want_x[] = {0.5, 1, 2, 3};
    const double want_a[] = {50, 30, 20, 0};
    for (size_t i = 0; i < 4; i++)
        CHECK(html_table_get(t, i, k) == want_x[i] && html_table_get(t, i, a) == want_a[i], "row %zu: %g %g", i,
              html_table_get(t, i, k), html_table_get(t, i, a));
    CHECK(isnan(html_table_get(t, 4, k)) && html_table_get(t, 4, a) == 40, "NaN row last");
    CHECK(html_table_text(t, 3, b) && !strcmp(html_table_text(t, 3, b), "three"), "text moved with its row");
    html_table_set_limit(t, a, 5);
    CHECK(!strcmp(html_table_level(&t->cols[a], 2), "ok"), "ok");
    CHECK(!strcmp(html_table_level(&t->cols[a], 2.5), "near"), "near");
    CHECK(!strcmp(html_table_level(&t->cols[a], 5), "over"), "over at the limit");
    CHECK(html_table_level(&t->cols[k], 5) == NULL, "no limit");
    html_table_free(t);
}

TEST(table_long_series_merge)
{
    /* two series of a day of one-second rows merge by bisection: the second
     * finds every key, and a key in the middle is found, not duplicated */
    struct html_table *t = html_table_new("day", "day");
    int k = html_table_add_col(t, "t", "s", HTML_TABLE_NUM, HTML_TABLE_AUTO);
    int a = html_table_add_col(t, "a", NULL, HTML_TABLE_NUM, HTML_TABLE_AUTO);
    int b = html_table_add_col(t, "b", NULL, HTML_TABLE_NUM, HTML_TABLE_AUTO);
    size_t n = 86400;
    for (size_t i = 1; i <= n; i++)
        html_table_set(t, (size_t)html_table_row_for(t, k, (double)i), a, (double)i);
    CHECK(t->sorted_by == k, "appending in order keeps the table sorted");
    for (size_t i = 1; i <= n; i++)
        html_table_set(t, (size_t)html_table_row_for(t, k, (double)i), b, 2.0 * (double)i);
    CHECK(t->nrows == n && html_table_get(t, 43199, b) == 86400 && html_table_get(t, 43199, a) == 43200, "rows %zu", t->nrows);
    /* a key out of order is appended and ends the fast path; lookups still work */
    long r = html_table_row_for(t, k, 0.5);
    CHECK(r == (long)n && t->sorted_by == -1, "out of order");
    CHECK(html_table_row_for(t, k, 777) == 776 && html_table_row_for(t, k, 0.5) == r, "linear lookups");
    html_table_sort(t, k);
    CHECK(t->sorted_by == k && html_table_get(t, 0, k) == 0.5 && html_table_get(t, 1, a) == 1, "sorted again");
    html_table_free(t);
}

TEST(cell_formats)
{
    char b[64];
    struct html_table_col c = {.kind = HTML_TABLE_NUM, .fmt = HTML_TABLE_AUTO};
    html_table_format(b, sizeof(b), &c, 22746.069);
    CHECK(!strcmp(b, "22,746"), "%s", b);
    html_table_format(b, sizeof(b), &c, 93.1679);
    CHECK(!strcmp(b, "93.17"), "%s", b);
    html_table_format(b, sizeof(b), &c, 1234567.8);
    CHECK(!strcmp(b, "1,234,568"), "%s", b);
    /* one style: four digits are grouped as five are (not "4720" next to "22,746") */
    html_table_format(b, sizeof(b), &c, 4720);
    CHECK(!strcmp(b, "4,720"), "%s", b);
    html_table_format(b, sizeof(b), &c, 999);
    CHECK(!strcmp(b, "999.0"), "%s", b);
    c.fmt = HTML_TABLE_NS;
    html_table_format(b, sizeof(b), &c, 351391.4);
    CHECK(!strcmp(b, "351.4 \xc2\xb5s"), "%s", b);
    c.fmt = HTML_TABLE_BYTES;
    html_table_format(b, sizeof(b), &c, 67108864);
    CHECK(!strcmp(b, "64 MiB"), "%s", b);
    c.fmt = HTML_TABLE_RATIO;
    html_table_format(b, sizeof(b), &c, 1.2345);
    CHECK(!strcmp(b, "1.23x"), "%s", b);
    c.fmt = HTML_TABLE_FIXED;
    c.prec = 3;
    html_table_format(b, sizeof(b), &c, 0.0042);
    CHECK(!strcmp(b, "0.004"), "%s", b);
}

TEST(csv_output)
{
    struct html_table *t = html_table_new("t", "T");
    int a = html_table_add_col(t, "name", NULL, HTML_TABLE_TEXT, HTML_TABLE_AUTO);
    int b = html_table_add_col(t, "lat", "ns", HTML_TABLE_NUM, HTML_TABLE_NS);
    long r0 = html_table_add_row(t), r1 = html_table_add_row(t);
    html_table_set_text(t, (size_t)r0, a, "a,\"b\"");
    html_table_set(t, (size_t)r0, b, 0.1);
    html_table_set_text(t, (size_t)r1, a, "plain");
    char *buf = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&buf, &n);
    CHECK(f && html_table_write_csv(f, t) == 0, "write");
    fclose(f);
    int ok = !strcmp(buf, "name,lat (ns)\n\"a,\"\"b\"\"\",0.1\nplain,\n");
    CHECK(ok, "[%s]", buf);
    free(buf);
    html_table_free(t);
}

TEST(chart_markers_and_gaps)
{
    const double x[] = {1, 2, 3, 4, 5};
    const double y[] = {10, 20, NAN, 40, 50};
    struct html_svg_series s = {.name = "s<1>", .x = x, .y = y, .n = 5, .style = HTML_SVG_LINE_MARKS};
    struct html_svg_chart c = {.title = "t & u", .series = &s, .nseries = 1};
    c.x = (struct html_svg_axis){.label = "x", .scale = HTML_SVG_LIN, .fmt = HTML_SVG_FMT_PLAIN, .min = NAN, .max = NAN};
    c.y = (struct html_svg_axis){.label = "y", .scale = HTML_SVG_LIN, .fmt = HTML_SVG_FMT_NUM, .min = NAN, .max = NAN, .zero = true};
    char *out = chart_text(&c, NULL);
    CHECK(out != NULL, "chart");
    size_t circles = count(out, "<circle");
    size_t moves = count(out, "M");   /* path moves: the NaN splits the line in two */
    int ok = !strncmp(out, "<svg", 4) && count(out, "</svg>") == 1 && circles == 4 && strstr(out, "s&lt;1&gt;") &&
             strstr(out, "aria-label=\"t &amp; u\"") && !strstr(out, "http") && !strstr(out, "no data");
    char d[512] = "";
    const char *p = strstr(out, " d=\"");
    if (p)
        snprintf(d, sizeof(d), "%.*s", (int)strcspn(p + 4, "\""), p + 4);
    free(out);
    CHECK(ok, "circles %zu", circles);
    CHECK(count(d, "M") == 2 && count(d, "L") == 2, "path %s (moves %zu)", d, moves);
}

TEST(chart_log_ticks)
{
    const double x[] = {1, 2};
    const double y[] = {80000, 120000};
    struct html_svg_series s = {.name = "lat", .x = x, .y = y, .n = 2, .style = HTML_SVG_LINE};
    struct html_svg_chart c = {.title = "log", .series = &s, .nseries = 1};
    c.x = (struct html_svg_axis){.scale = HTML_SVG_LIN, .fmt = HTML_SVG_FMT_PLAIN, .min = NAN, .max = NAN};
    c.y = (struct html_svg_axis){.scale = HTML_SVG_LOG, .fmt = HTML_SVG_FMT_NS, .min = NAN, .max = NAN};
    char *out = chart_text(&c, NULL);
    CHECK(out != NULL, "chart");
    /* domain 50 us .. 200 us (1-2-5 steps around the data), labelled 50, 100, 200 */
    int ok = strstr(out, ">50 \xc2\xb5s<") && strstr(out, ">100 \xc2\xb5s<") && strstr(out, ">200 \xc2\xb5s<") &&
             !strstr(out, ">20 \xc2\xb5s<") && !strstr(out, ">500 \xc2\xb5s<");
    free(out);
    CHECK(ok, "log tick labels");
}

TEST(chart_thinning_keeps_spikes)
{
    size_t n = 100000;
    double *x = malloc(n * sizeof(double)), *y = malloc(n * sizeof(double));
    CHECK(x && y, "alloc");
    for (size_t i = 0; i < n; i++) {
        x[i] = (double)i;
        y[i] = 1;
    }
    y[54321] = 1000;
    struct html_svg_series s = {.name = "long", .x = x, .y = y, .n = n, .style = HTML_SVG_LINE};
    struct html_svg_chart c = {.title = "long", .series = &s, .nseries = 1};
    c.x = (struct html_svg_axis){.scale = HTML_SVG_LIN, .fmt = HTML_SVG_FMT_PLAIN, .min = NAN, .max = NAN, .tight = true};
    c.y = (struct html_svg_axis){.scale = HTML_SVG_LIN, .fmt = HTML_SVG_FMT_NUM, .min = NAN, .max = NAN, .zero = true};
    size_t len = 0;
    char *out = chart_text(&c, &len);
    free(x);
    free(y);
    CHECK(out != NULL, "chart");
    /* the y domain is 0..1000: the spike sits on the top edge (y = 10.0) */
    int spike = strstr(out, " 10.0L") != NULL || strstr(out, " 10.0\"") != NULL;
    free(out);
    CHECK(len < 60000, "%zu bytes for 100000 points", len);
    CHECK(spike, "spike kept");
}

TEST(chart_step_fill_and_marks)
{
    const double lo[] = {1, 2, 8}, hi[] = {2, 4, 16}, pct[] = {10, 60, 30};
    struct html_svg_series s = {.name = "h", .x = lo, .x2 = hi, .y = pct, .n = 3, .style = HTML_SVG_STEP_FILL};
    struct html_svg_mark m[2] = {{.kind = HTML_SVG_HBAND, .y0 = 20, .y1 = 40, .label = "band"},
                            {.kind = HTML_SVG_VSPAN, .x0 = 2, .x1 = 4, .label = "window"}};
    struct html_svg_chart c = {.title = "h", .series = &s, .nseries = 1, .marks = m, .nmarks = 2};
    c.x = (struct html_svg_axis){.scale = HTML_SVG_LOG, .fmt = HTML_SVG_FMT_NS, .min = NAN, .max = NAN};
    c.y = (struct html_svg_axis){.scale = HTML_SVG_LIN, .fmt = HTML_SVG_FMT_PCT, .min = NAN, .max = NAN, .zero = true};
    char *out = chart_text(&c, NULL);
    CHECK(out != NULL, "chart");
    /* bins 1-2 and 2-4 touch, 8-16 does not: two closed shapes */
    const char *p = strstr(out, "fill-opacity=\"0.18\"");
    char d[1024] = "";
    if (p && (p = strstr(p, " d=\"")))
        snprintf(d, sizeof(d), "%.*s", (int)strcspn(p + 4, "\""), p + 4);
    int legend = strstr(out, ">band<") && strstr(out, ">window<") && strstr(out, ">h<");
    free(out);
    CHECK(count(d, "Z") == 2 && count(d, "M") == 2, "step path %s", d);
    CHECK(legend, "legend entries for the series and the marks");
}

TEST(chart_categories_bars)
{
    const char *cats[] = {"QD1", "QD2", "QD4"};
    const double x[] = {0, 1, 2}, a[] = {1, 2, 3}, b[] = {2, 4, 6};
    struct html_svg_series s[2] = {{.name = "A", .x = x, .y = a, .n = 3, .style = HTML_SVG_BARS},
                              {.name = "B", .x = x, .y = b, .n = 3, .color = 1, .style = HTML_SVG_BARS}};
    struct html_svg_chart c = {.title = "bars", .series = s, .nseries = 2};
    c.x = (struct html_svg_axis){.scale = HTML_SVG_CAT, .cats = cats, .ncats = 3, .min = NAN, .max = NAN};
    c.y = (struct html_svg_axis){.scale = HTML_SVG_LIN, .fmt = HTML_SVG_FMT_NUM, .min = NAN, .max = NAN, .zero = true};
    char *out = chart_text(&c, NULL);
    CHECK(out != NULL, "chart");
    /* 6 bars + 2 legend swatches + the plot frame */
    size_t rects = count(out, "<rect");
    int labels = strstr(out, ">QD1<") && strstr(out, ">QD4<");
    free(out);
    CHECK(rects == 9, "rects %zu", rects);
    CHECK(labels, "category labels");
}

CHECK_MAIN()
