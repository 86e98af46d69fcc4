/* html_page.c - the report model as one self-contained HTML page.
 *
 * Everything is inline: CSS, SVG charts; no script, no font, no image, no
 * link to anything outside the page, so it opens offline and archives as
 * one file. The markup is also well-formed XML (every element closed, only
 * the five XML entities), which keeps it easy to check and to post-process.
 * The layout is one column that narrows to a phone (charts keep a minimum
 * width and scroll sideways) and prints on A4 without the foldouts. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "output/html_report.h"

#define MAX_DATA_ROWS 120   /* foldout tables under charts; the CSV has all */

static const char css[] =
    ":root{--fg:#1b1d21;--muted:#596170;--line:#d8dce2;--accent:#2d4b63}\n"
    "*{box-sizing:border-box}\n"
    "body{margin:0;font:15px/1.45 system-ui,-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;"
    "color:var(--fg);background:#f4f5f7}\n"
    "header,nav,main,footer{max-width:1000px;margin:0 auto;padding:0 16px}\n"
    "header{padding-top:18px}\n"
    "h1{font-size:1.55em;margin:.3em 0 .1em}\n"
    "h2{font-size:1.28em;margin:1.7em 0 .6em;padding-bottom:.2em;border-bottom:2px solid var(--accent)}\n"
    "h3{font-size:1.08em;margin:1.3em 0 .4em}\n"
    "p{margin:.45em 0}\n"
    ".sub,.note{color:var(--muted)}\n"
    ".note{font-size:.87em}\n"
    "nav.toc{font-size:.92em}\n"
    "nav.toc ol{margin:.3em 0;padding-left:1.4em;columns:2;column-gap:2em}\n"
    "nav.toc a{color:var(--accent);text-decoration:none}\n"
    "figure{margin:1em 0 1.4em;background:#fff;border:1px solid var(--line);border-radius:6px;padding:10px 12px}\n"
    "figcaption{font-weight:600;margin:0 0 6px}\n"
    ".svgwrap{overflow-x:auto}\n"
    "svg.chart{display:block;width:100%;height:auto;max-width:880px;min-width:520px}\n"
    ".pair{display:grid;grid-template-columns:1fr 1fr;gap:0 14px}\n"
    ".pair figure{min-width:0}\n"
    ".pair svg.chart{min-width:0}\n"
    "@media (max-width:900px){.pair{display:block}.pair svg.chart{min-width:420px}}\n"
    ".tablewrap{overflow-x:auto;margin:.5em 0}\n"
    "table{border-collapse:collapse;font-size:.88em;background:#fff;font-variant-numeric:tabular-nums}\n"
    "caption{text-align:left;font-weight:600;padding:4px 0;white-space:nowrap}\n"
    "th,td{border:1px solid var(--line);padding:3px 8px;text-align:right;white-space:nowrap;vertical-align:top}\n"
    /* headers wrap (numbers do not), so wide tables fit the page */
    "th{background:#eaeef3;white-space:normal;min-width:4.5em}\n"
    "th.key,td.key{text-align:left}\n"
    "th.group{text-align:center}\n"
    "table.setup td{white-space:normal;min-width:12em;max-width:38em;overflow-wrap:anywhere}\n"
    "table.setup th{white-space:nowrap}\n"
    "td.ok{background:#dcf1e1}\n"
    "td.near{background:#fcedbd}\n"
    "td.over{background:#f6cdc9;font-weight:600}\n"
    ".legendbox span{display:inline-block;padding:1px 8px;margin-right:6px;border-radius:3px;font-size:.85em}\n"
    ".verdict{font-size:1.08em;font-weight:700;padding:8px 12px;border-radius:6px;border:1px solid var(--line)}\n"
    ".pass{background:#dcf1e1;color:#0f4d26}\n"
    ".fail{background:#f6cdc9;color:#6e1111}\n"
    ".warn{background:#fcedbd;padding:6px 10px;border-radius:6px}\n"
    "details{margin-top:6px;font-size:.92em}\n"
    "summary{cursor:pointer;color:var(--accent)}\n"
    "footer{margin-top:2.5em;padding-bottom:2em;font-size:.85em;color:var(--muted)}\n"
    "@media (max-width:640px){body{font-size:14px}nav.toc ol{columns:1}table.setup td{min-width:9em}"
    "figure{padding:6px;margin-left:-8px;margin-right:-8px}header,nav,main,footer{padding:0 10px}}\n"
    "@media print{@page{size:A4;margin:12mm}"
    "*{-webkit-print-color-adjust:exact;print-color-adjust:exact}"
    "body{background:#fff;font-size:10pt}"
    "header,nav,main,footer{max-width:none;padding:0}"
    "nav.toc,details{display:none}"
    "figure{break-inside:avoid;border:0;padding:0;margin:.6em 0}"
    "svg.chart{min-width:0}"
    ".pair{display:block}.pair figure{width:78%}"
    ".svgwrap,.tablewrap{overflow:visible}"
    "h2,h3{break-after:avoid}"
    "tr{break-inside:avoid}"
    "table{font-size:8pt}th,td{padding:2px 4px}}\n";

static void esc(FILE *f, const char *s)
{
    html_svg_escape(f, s);
}

/* Draws one chart from its table. */
static int write_chart(FILE *f, const struct html_chart *c)
{
    const struct html_table *t = c->t;
    if (c->xcol < 0 || (size_t)c->xcol >= t->ncols)
        return 0;
    struct html_svg_series se[HTML_MAX_SERIES];
    double *idx = NULL;
    struct html_svg_chart ch = {.title = c->title, .x = c->x, .y = c->y, .series = se, .marks = c->marks,
                           .nmarks = c->nmarks, .height = c->height, .width = c->half ? 480 : 0};
    if (c->half && !c->height)
        ch.height = 220;
    const double *xs = t->cols[c->xcol].num;
    if (c->x.scale == HTML_SVG_CAT) {
        idx = malloc((t->nrows ? t->nrows : 1) * sizeof(*idx));
        if (!idx)
            return -ENOMEM;
        for (size_t i = 0; i < t->nrows; i++)
            idx[i] = (double)i;
        xs = idx;
        if (t->cols[c->xcol].kind == HTML_TABLE_TEXT) {
            ch.x.cats = (const char *const *)t->cols[c->xcol].text;
            ch.x.ncats = (unsigned)t->nrows;
        }
    }
    size_t n = 0;
    for (size_t s = 0; s < c->nseries; s++) {
        const struct html_series *rs = &c->series[s];
        if (rs->ycol < 0 || (size_t)rs->ycol >= t->ncols || t->cols[rs->ycol].kind != HTML_TABLE_NUM || !xs)
            continue;
        se[n] = (struct html_svg_series){
            .name = rs->name, .x = xs, .y = t->cols[rs->ycol].num,
            .x2 = rs->x2col >= 0 && (size_t)rs->x2col < t->ncols ? t->cols[rs->x2col].num : NULL,
            .n = t->nrows, .color = rs->color, .dash = rs->dash, .style = rs->style};
        n++;
    }
    ch.nseries = n;
    fputs("<div class=\"svgwrap\">\n", f);
    int rc = html_svg_chart_write(f, &ch);
    fputs("</div>\n", f);
    free(idx);
    return rc;
}

static void write_setup(FILE *f, const struct html_report *r, const struct html_table *t)
{
    /* the heading names it already */
    struct html_table copy = *t;
    copy.title = NULL;
    html_table_write_html_transposed(f, &copy, "setup");
    fputs("<p class=\"note\">Throughput in MB/s is 10^6 bytes per second; sizes are binary (KiB, MiB, GiB). "
          "Latency is submission to completion of each I/O.</p>\n", f);
    (void)r;
}

/* The page's head and its header: title, the results and the baseline. */
static void page_header(FILE *f, const struct html_report *r)
{
    fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n"
          "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>\n", f);
    fprintf(f, "<meta name=\"generator\" content=\"ssdbench %s\"/>\n<title>", SSDBENCH_VERSION);
    esc(f, r->title);
    fprintf(f, "</title>\n<style>\n%s</style>\n</head>\n<body>\n<header>\n<h1>", css);
    esc(f, r->title);
    fputs("</h1>\n<p class=\"sub\">", f);
    fprintf(f, "%zu result%s: ", r->nin, r->nin == 1 ? "" : "s");
    for (size_t i = 0; i < r->nin; i++) {
        if (i)
            fputs(", ", f);
        esc(f, r->labels[i]);
        if (r->nin > 1 && i == r->baseline)
            fputs(" (baseline of the ratios)", f);
    }
    fputs("</p>\n</header>\n", f);
}

/* The contents list, when the page has more than one section. */
static void page_contents(FILE *f, const struct html_report *r)
{
    size_t nh = 0;
    for (size_t i = 0; i < r->nitems; i++)
        nh += r->items[i].kind == HTML_H2;
    if (nh > 1) {
        fputs("<nav class=\"toc\">\n<ol>\n", f);
        for (size_t i = 0; i < r->nitems; i++)
            if (r->items[i].kind == HTML_H2) {
                fprintf(f, "<li><a href=\"#%s\">", r->items[i].anchor);
                esc(f, r->items[i].text);
                fputs("</a></li>\n", f);
            }
        fputs("</ol>\n</nav>\n", f);
    }
}

/* Item i, a chart: its figure, note and (first time a hidden data table is
 * drawn) the data foldout; two half charts in a row share a line (state in
 * *in_pair, *pair_n). shown lists the data tables already folded out. */
static int page_chart(FILE *f, const struct html_report *r, size_t i, const struct html_table **shown,
                      size_t *nshown, bool *in_pair, int *pair_n)
{
    int rc = 0;
    const struct html_chart *c = r->items[i].chart;
    /* two half charts in a row share a line */
    bool next_half = i + 1 < r->nitems && r->items[i + 1].kind == HTML_CHART && r->items[i + 1].chart->half;
    if (c->half && !*in_pair && next_half) {
        fputs("<div class=\"pair\">\n", f);
        *in_pair = true;
        *pair_n = 0;
    }
    fputs("<figure>\n<figcaption>", f);
    esc(f, c->title);
    fputs("</figcaption>\n", f);
    rc = write_chart(f, c);
    if (c->note) {
        fputs("<p class=\"note\">", f);
        esc(f, c->note);
        fputs("</p>\n", f);
    }
    bool seen = false;
    for (size_t k = 0; k < *nshown && !seen; k++)
        seen = shown[k] == c->t;
    if (!seen && shown && c->t->html_hidden) {
        shown[(*nshown)++] = c->t;
        fprintf(f, "<details><summary>Data: %zu rows (table %s of the CSV output)</summary>\n",
                c->t->nrows, c->t->id);
        if (!rc)
            rc = html_table_write_html(f, c->t, MAX_DATA_ROWS);
        fputs("</details>\n", f);
    }
    fputs("</figure>\n", f);
    if (*in_pair && ++*pair_n == 2) {
        fputs("</div>\n", f);
        *in_pair = false;
    }
    return rc;
}

/* The footer: where the page came from and where its numbers are. */
static void page_footer(FILE *f, const struct html_report *r)
{
    fputs("</main>\n<footer>\n<p>", f);
    fprintf(f, "Made by ssdbench %s report from ", SSDBENCH_VERSION);
    for (size_t i = 0; i < r->nin; i++) {
        if (i)
            fputs(", ", f);
        esc(f, r->in[i].path ? r->in[i].path : "-");
    }
    fputs(". Percentiles and histograms come from the stored latency histograms; every chart's numbers "
          "are in the CSV output (ssdbench report --format csv).</p>\n</footer>\n</body>\n</html>\n", f);
}

int html_page_write(FILE *f, const struct html_report *r)
{
    page_header(f, r);
    page_contents(f, r);
    fputs("<main>\n", f);
    /* a data table's foldout goes under the first chart that draws it */
    const struct html_table **shown = calloc(r->ntables + 1, sizeof(*shown));
    size_t nshown = 0;
    int rc = 0;
    bool in_pair = false;
    int pair_n = 0;
    for (size_t i = 0; i < r->nitems && !rc; i++) {
        const struct html_item *it = &r->items[i];
        switch (it->kind) {
        case HTML_H2:
        case HTML_H3:
            fprintf(f, "<%s id=\"%s\">", it->kind == HTML_H2 ? "h2" : "h3", it->anchor);
            esc(f, it->text);
            fprintf(f, "</%s>\n", it->kind == HTML_H2 ? "h2" : "h3");
            break;
        case HTML_PARA:
            if (it->cls)
                fprintf(f, "<p class=\"%s\">", it->cls);
            else
                fputs("<p>", f);
            esc(f, it->text);
            fputs("</p>\n", f);
            break;
        case HTML_SETUP:
            fputs("<h2 id=\"setup\">What was tested</h2>\n", f);
            write_setup(f, r, it->table);
            break;
        case HTML_TABLE:
            rc = html_table_write_html(f, it->table, 0);
            break;
        case HTML_CHART:
            rc = page_chart(f, r, i, shown, &nshown, &in_pair, &pair_n);
            break;
        }
    }
    if (in_pair)
        fputs("</div>\n", f);
    free(shown);
    page_footer(f, r);
    if (rc)
        return rc;
    return ferror(f) ? -EIO : 0;
}
