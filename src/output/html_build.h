/* html_build.h - `ssdbench report`'s entry: result documents -> the report
 * model (html_report.h), which html_page.c writes as one HTML page and
 * report_csv.c as CSV tables. */
#ifndef SSDBENCH_HTML_BUILD_H
#define SSDBENCH_HTML_BUILD_H

#include "output/html_report.h"

/* Builds the model. Returns NULL with a one-line message on bad input
 * (no results, a baseline out of range) or out of memory. */
struct html_report *html_build(const struct html_report_input *in, size_t nin, const struct html_report_opts *o,
                            char *err, size_t errlen);
#endif
