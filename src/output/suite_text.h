/* suite_text.h - the suite's text output, laid out like the reviews' charts:
 * per profile a preconditioning table (one row per interval) with the
 * steady-state verdict, then a table with one row per sweep point (2T2Q ...
 * 16T16Q, or QD1 ... QD256) and the columns IOPS, MB/s, average / maximum /
 * stddev latency and p99; per-direction and per-target tables where they
 * apply, and the scaling against a baseline. Reads only the "suite" object
 * and the phases it names. */
#ifndef SSDBENCH_SUITE_TEXT_H
#define SSDBENCH_SUITE_TEXT_H

#include <stdio.h>
#include <cjson/cJSON.h>

#include "output/render.h"

/* Renders a suite result; a document without a "suite" object goes to
 * render_text(). o->details adds per-direction and per-target tables. */
void render_suite_text(FILE *f, const cJSON *doc, const struct render_opts *o);

#endif
