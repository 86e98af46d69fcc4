/* html_report.h - the report model of `ssdbench report` (built by html_build.c):
 * one self-contained HTML page (html_page.c) or CSV tables (report_csv.c).
 *
 * The model is a flat list of items in page order (headings, paragraphs,
 * charts, tables) plus every table the charts draw from. Building it is the
 * only place where results are read; each result kind is a small selection
 * layer (html_run.c, html_sweep.c, html_act.c, html_fileio.c) that fills
 * tables from the documents and declares charts on their columns. Drawing
 * is generic (html_svg.h), so the CSV holds the numbers the charts show.
 *
 * Several results in one report are overlaid: phases are matched by name
 * (and sweep points by their label), each result is one series per chart,
 * and comparison tables carry a ratio to the baseline result (the first,
 * unless html_report_opts.baseline says otherwise), as published reviews do.
 *
 * Latency percentiles and histograms are computed from the stored lossless
 * histograms (result_hist_from_json), never estimated from anything else.
 */
#ifndef SSDBENCH_HTML_REPORT_H
#define SSDBENCH_HTML_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <cjson/cJSON.h>

#include "output/html_svg.h"
#include "output/html_table.h"

#define HTML_REPORT_MAX_IN 32     /* results in one report */

struct html_report_input {
    const cJSON *doc;       /* a loaded result (result_load) */
    const char *path;       /* its file name, for the header and messages */
    const char *label;      /* series name; NULL = derived from the device or file */
};

struct html_report_opts {
    const char *title;      /* NULL = derived */
    unsigned baseline;      /* index of the result that ratios divide by */
};

enum html_item_kind { HTML_H2, HTML_H3, HTML_PARA, HTML_CHART, HTML_TABLE, HTML_SETUP };

/* A series of a chart: columns of the chart's table. */
struct html_series {
    int ycol;
    int x2col;              /* HTML_SVG_STEP_FILL right edges, else -1 */
    const char *name;
    unsigned color, dash;
    enum html_svg_style style;
};

#define HTML_MAX_SERIES 48
#define HTML_MAX_MARKS 16

struct html_chart {
    const char *title;
    const char *note;       /* a sentence under the chart, or NULL */
    struct html_table *t;         /* its data (also in report.tables) */
    int xcol;               /* numeric x, or the text column of an HTML_SVG_CAT axis */
    struct html_svg_axis x, y;
    unsigned height;        /* plot height, 0 = default */
    bool half;              /* drawn narrower; two in a row sit side by side */
    struct html_series series[HTML_MAX_SERIES];
    size_t nseries;
    struct html_svg_mark marks[HTML_MAX_MARKS];
    size_t nmarks;
};

struct html_item {
    enum html_item_kind kind;
    const char *text;       /* headings and paragraphs */
    const char *cls;        /* paragraph class: "verdict pass", "warn" ... or NULL */
    const char *anchor;     /* headings: the id for the contents list */
    struct html_chart *chart;
    struct html_table *table;
};

struct html_block;

struct html_report {
    const struct html_report_input *in;
    size_t nin;
    unsigned baseline;
    const char **labels;    /* one per input, unique */
    char *title;
    struct html_item *items;
    size_t nitems, itemcap;
    struct html_table **tables;   /* every table, in creation order (the CSV files) */
    size_t ntables, tablecap;
    struct html_table *setup;     /* one row per result: what was tested, and how */
    bool multi;             /* the section being built shows several results: series
                               and ids carry the labels (set by each builder) */
    struct html_block *arena;
    bool oom;
};

void html_report_free(struct html_report *r);

/* The page: html_page.c. Returns 0 or -EIO. */
int html_page_write(FILE *f, const struct html_report *r);

/* --- for the per-kind builders --------------------------------------- */

void *html_alloc(struct html_report *r, size_t n);                   /* zeroed, freed with r */
const char *html_strdup(struct html_report *r, const char *s);
const char *html_printf(struct html_report *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

void html_heading(struct html_report *r, enum html_item_kind level, const char *text);
void html_para(struct html_report *r, const char *cls, const char *text);
/* A table shown in the page (and written to the CSV). */
struct html_table *html_add_table(struct html_report *r, const char *id, const char *title);
/* A table that only backs charts (in the CSV; a foldout in the page). */
struct html_table *html_add_data_table(struct html_report *r, const char *id, const char *title);
/* Places a chart on t in the page; x axis from xcol. NULL on out of memory. */
struct html_chart *html_chart(struct html_report *r, struct html_table *t, int xcol, const char *title);
void html_chart_series(struct html_chart *c, int ycol, const char *name, unsigned color, unsigned dash,
                      enum html_svg_style style);
void html_chart_mark(struct html_chart *c, enum html_svg_mark_kind kind, double x0, double y0, double x1,
                    double y1, const char *label, unsigned color, unsigned dash);
/* Places the "what was tested" table t (may be NULL) at this point of the page. */
void html_show_setup(struct html_report *r, struct html_table *t);
/* Places a table (already created with html_add_table) at this point of the page. */
void html_show_table(struct html_report *r, struct html_table *t);

/* For each row, adds "name: A / base" columns: cols[i] holds result i's
 * value (-1: result i is not in this table); one ratio column per other
 * result. The base is the report's baseline, or the first result present
 * when the baseline is not. For figures where less is better (latency)
 * lower_better turns them into "base / A", so that, as in the published
 * comparisons, a ratio above 1 always means A is better. */
void html_add_ratios(struct html_report *r, struct html_table *t, const int *cols, size_t ncols, const char *name,
                    bool lower_better);

/* Series name: the result label (when r->multi), plus what when given ("read"). */
const char *html_series_name(struct html_report *r, size_t res, const char *what);

/* "randread 4 KiB, QD 8, 1 job, io_uring, direct" from a job's params. */
void html_job_text(char *buf, size_t len, const cJSON *params);

/* A scope's direction ("read", "write", or "sync" for flushes): the object
 * holding latency_ns, or NULL when absent or without I/Os. */
const cJSON *html_dir(const cJSON *scope, const char *dir);

/* Axis presets. */
struct html_svg_axis html_axis(const char *label, enum html_svg_scale scale, enum html_svg_fmt fmt);

/* Sets r->multi from how many of present[0..nin) are true; returns that count
 * and the index of the first in *first. */
size_t html_participants(struct html_report *r, const bool *present, size_t *first);

#endif
