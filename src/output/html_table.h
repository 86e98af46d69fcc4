/* html_table.h - the tables of a report: the data behind every chart and
 * every table of `ssdbench report`, written as HTML or as CSV.
 *
 * A report is built as tables first and charts second: each chart names the
 * columns it draws, so the CSV output holds exactly the numbers the charts
 * show. Columns are stored column-major (one double array per numeric
 * column) so a chart series is a plain pointer into the table; NaN is an
 * empty cell. Text columns hold labels (sweep points, metric names).
 *
 * Allocation failures do not return through every call: the table remembers
 * them (html_table.oom) and later calls do nothing, so a builder can add a hundred
 * cells and check once at the end.
 *
 * Colour thresholds: a numeric column may carry a limit (ACT's 5 % / 1 % /
 * 0.1 %): the HTML cell is marked "ok" below half the limit, "near" below
 * the limit and "over" at or above it, comparing the value as printed
 * (rounded to the column's decimals), the way ACT judges its tables.
 */
#ifndef SSDBENCH_HTML_TABLE_H
#define SSDBENCH_HTML_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

enum html_table_kind { HTML_TABLE_NUM, HTML_TABLE_TEXT };

/* How the HTML prints a numeric cell (CSV always prints the exact value). */
enum html_table_fmt {
    HTML_TABLE_AUTO,      /* 4 significant digits, thousands separated */
    HTML_TABLE_INT,       /* rounded to an integer */
    HTML_TABLE_FIXED,     /* `prec` decimals */
    HTML_TABLE_NS,        /* a latency in ns with a unit: 85.3 µs */
    HTML_TABLE_RATIO,     /* 1.23x */
    HTML_TABLE_BYTES,     /* binary units: 64 MiB, 1.82 TiB */
    HTML_TABLE_PCTILE,    /* a percentile with as many decimals as it has: 50, 99.995, 99.99999 */
};

struct html_table_col {
    char *name;
    char *unit;              /* "ns", "IOPS", "MB/s", "%", or NULL */
    enum html_table_kind kind;
    enum html_table_fmt fmt;
    int prec;
    bool has_limit;
    double limit;
    bool html_hidden;        /* only in the CSV (e.g. a chart's category labels) */
    char *group;             /* HTML: a spanning header over adjacent columns, or NULL */
    char *short_name;        /* HTML: the name under a group header ("1" under "trans, % >= ms") */
    double *num;             /* nrows values (HTML_TABLE_NUM) */
    char **text;             /* nrows strings or NULL (HTML_TABLE_TEXT) */
};

struct html_table {
    char *id;                /* file-name safe, unique in a report: the CSV file name */
    char *title;
    char *note;              /* shown under the table, or NULL */
    size_t ncols, nrows, colcap, rowcap;
    struct html_table_col *cols;
    bool oom;
    bool html_hidden;        /* chart data: in the CSV, in the HTML only as a foldout */
    int sorted_by;           /* rows are in strictly increasing order of this numeric
                                column (-1: unknown); keeps html_table_row_for fast on
                                long series */
    /* heat table (the PTS IOPS surface): HTML cells shaded by their value on a
     * log scale between the smallest and largest positive numeric cell */
    bool heat;
};

/* A new empty table; id is made file-name safe. NULL on out of memory. */
struct html_table *html_table_new(const char *id, const char *title);
void html_table_free(struct html_table *t);

/* Adds a column (before or after rows exist; earlier rows get empty cells).
 * Returns its index, or -1 on out of memory. */
int html_table_add_col(struct html_table *t, const char *name, const char *unit, enum html_table_kind kind,
                 enum html_table_fmt fmt);
/* Appends an empty row; returns its index, or -1. */
long html_table_add_row(struct html_table *t);

void html_table_set(struct html_table *t, size_t row, int col, double v);
void html_table_set_text(struct html_table *t, size_t row, int col, const char *s);
double html_table_get(const struct html_table *t, size_t row, int col);
const char *html_table_text(const struct html_table *t, size_t row, int col);
void html_table_set_limit(struct html_table *t, int col, double limit);
void html_table_set_note(struct html_table *t, const char *note);
/* Puts a column under a spanning HTML header (adjacent columns with the
 * same group share it) with a short name of its own; the CSV keeps the
 * full name. */
void html_table_set_group(struct html_table *t, int col, const char *group, const char *short_name);

/* The row whose key column equals v (numeric) or s (text), added at the
 * end when missing. For tables that merge several results on a shared key.
 * A table filled only through html_table_row_for in increasing key order (or
 * sorted by the key) is searched by bisection, so a day of one-second
 * intervals merges in n log n. Returns -1 on out of memory. */
long html_table_row_for(struct html_table *t, int col, double v);
long html_table_row_for_text(struct html_table *t, int col, const char *s);

/* Sorts the rows by a numeric column, ascending (stable; NaN last). */
void html_table_sort(struct html_table *t, int col);

/* The HTML class of a value against a column limit: "ok", "near", "over", or
 * NULL without a limit. */
const char *html_table_level(const struct html_table_col *c, double v);

/* A cell as the HTML prints it. */
void html_table_format(char *buf, size_t len, const struct html_table_col *c, double v);

/* <table> with a caption; rows beyond max_rows are left out with a note
 * (0 = all). Returns 0 or -EIO. */
int html_table_write_html(FILE *f, const struct html_table *t, size_t max_rows);

/* The same, transposed: one row per column of t, one column per row of t
 * (headed by the text of column 0). For short wide tables such as the
 * list of results with their settings. */
int html_table_write_html_transposed(FILE *f, const struct html_table *t, const char *cls);

/* CSV: one header row ("name (unit)"), then the rows. Numbers are printed
 * with the fewest digits that read back to the same double. */
int html_table_write_csv(FILE *f, const struct html_table *t);

/* v with `decimals` decimals in the page's one thousands style
 * ("1,234,568", "12,345.68"), for numbers in paragraphs and text cells so
 * they read as the numeric cells do. */
void html_table_thousands(char *buf, size_t len, double v, int decimals);
/* The shortest decimal that strtod() reads back as v ("" for NaN). */
void html_table_num_str(char *buf, size_t len, double v);

#endif
