/* pts_text.h - the text report of `ssdbench pts`, laid out like the SNIA
 * report pages: the PTS header (compliance, device identity, platform, set-up
 * and test dates), then per test its purge and preconditioning, the
 * steady-state convergence rounds, the determination (window average,
 * +/-10 % and +/-5 % bands, the fitted slope and both excursions) and the
 * test's table (IOPS: block size x R/W mix; throughput: MB/s; latency:
 * average, 5 nines and maximum; WSAT: IOPS against time and TGBW). Reads only
 * the document's "pts" and "targets" objects. */
#ifndef SSDBENCH_PTS_TEXT_H
#define SSDBENCH_PTS_TEXT_H

#include <stdio.h>
#include <cjson/cJSON.h>

/* Renders a PTS result; a document without a "pts" object prints a line
 * saying so. */
void render_pts_text(FILE *f, const cJSON *doc);

#endif
