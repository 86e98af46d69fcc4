/* act_text.h - renders an ACT analysis as text: the slice tables in the exact
 * layout of ACT's act_latency.py (so results can be compared line by line
 * with published ones), and ssdbench's certification verdict lines.
 *
 * Pure formatting of struct act_analysis; nothing is computed here.
 */
#ifndef SSDBENCH_ACT_TEXT_H
#define SSDBENCH_ACT_TEXT_H

#include <stdio.h>

#include "act/act_analyze.h"

/* "<log> is ACT version 6.6 (written by ...)", the slice-adjust note, and the
 * log's CONFIGURATION and HISTOGRAM NAMES blocks, as act_latency.py echoes them. */
int act_text_header(FILE *f, const char *logname, const struct act_analysis *a);

/* The tables side by side: two header lines, labels, rows, avg, max. Writes
 * nothing when there is no full slice (the caller says so). Returns the
 * number of slice rows written, or -EIO. */
int act_text_tables(FILE *f, const struct act_analysis *a);

/* Notes (stopped early, cut-off last report, short log) and the verdict. */
int act_text_verdict(FILE *f, const struct act_analysis *a);

#endif
