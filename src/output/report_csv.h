/* report_csv.h - `ssdbench report --format csv`: the report's tables (the
 * numbers behind every chart and table of the HTML page) as CSV for
 * spreadsheets. Numbers are printed with the fewest digits that read back
 * as the same double, so nothing is lost against the result JSON. */
#ifndef SSDBENCH_REPORT_CSV_H
#define SSDBENCH_REPORT_CSV_H

#include <stddef.h>
#include <stdio.h>

#include "output/html_report.h"

/* One file per table, DIR/<table id>.csv, plus DIR/index.csv listing them
 * (file, title, rows). DIR is created when missing; each file is written
 * to a temporary name and renamed. Returns 0, or a negative errno with a
 * one-line message naming the file. */
int report_csv_write_dir(const struct html_report *r, const char *dir, char *err, size_t errlen);

/* Every table into one stream: a "# <id>: <title>" line, the table, and a
 * blank line between tables. Returns 0 or -EIO. */
int report_csv_write_stream(FILE *f, const struct html_report *r);

#endif
