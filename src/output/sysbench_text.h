/* sysbench_text.h - sysbench fileio 1.0.20's text output, from the result
 * document, so scripts that parse sysbench output read ssdbench's unchanged:
 * the prepare and cleanup lines, the run banner, interval lines, the latency
 * histogram block, and the report sections (File operations, Throughput,
 * General statistics, Latency (ms), Threads fairness) with sysbench's labels,
 * spacing and units (MiB = 2^20 bytes). The first line names the producer:
 * "sysbench 1.0.20 (produced by ssdbench X)".
 *
 * Also the thread-scaling tables of published sysbench comparisons: MiB/s and
 * the chosen percentile's response time per thread count, a column per
 * baseline result and one ratio column per baseline (A / B for throughput,
 * B / A for response time, so a ratio above 1 always favours A), as the
 * seed's "ratio Intel 320 / RAID10, ratio Intel 320 2 strip / RAID10".
 *
 * Pure formatting: every number comes from the document's "fileio" objects
 * (see fileio/fileio.h, fileio_summarize); nothing is computed here but
 * ratios. Functions write to f and ignore its errors (the caller checks
 * ferror once).
 */
#ifndef SSDBENCH_SYSBENCH_TEXT_H
#define SSDBENCH_SYSBENCH_TEXT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <cjson/cJSON.h>

#include "result/result_fileio.h"

/* The sysbench version whose output is reproduced. */
#define SYSBENCH_TEXT_SYSBENCH_VERSION "1.0.20"

/* "sysbench 1.0.20 (produced by ssdbench VERSION)" and an empty line. */
void sysbench_text_header(FILE *f, const char *ssdbench_version);

/* prepare: "N files, XKb each, YMb total", "Creating files for the test...",
 * "Extra file open flags: ..." (opts = fileio.options of the document). */
void sysbench_text_prepare_begin(FILE *f, const cJSON *opts);
void sysbench_text_prepare_file(FILE *f, const char *name, enum fileio_file_state st);
void sysbench_text_prepare_end(FILE *f, uint64_t written, double seconds);

/* cleanup: "Removing test files..." */
void sysbench_text_cleanup(FILE *f);

/* The run banner, from "Running the test with following options:" to
 * "Threads started!" and the empty line after it. */
void sysbench_text_run_banner(FILE *f, const cJSON *opts, unsigned threads);

/* One interval line "[ Ns ] reads: ... latency (ms,P%): ..."; rows shorter
 * than the step (the cut-off last interval) are skipped, as sysbench does. */
void sysbench_text_interval(FILE *f, const struct fileio_row *row, double step_s, unsigned percentile);

/* After the intervals: the histogram block (when the phase's report holds
 * one) and the report sections, ending with the empty line sysbench ends on.
 * with_intervals also prints the phase's stored interval lines first (for
 * re-rendering a saved result). */
void sysbench_text_report(FILE *f, const cJSON *phase, unsigned percentile, bool with_intervals);

/* A baseline of the scaling tables: another fileio result and the name of
 * its column (NULL or "": its fileio.label, else "baseline"). */
#define SYSBENCH_MAX_BASES 8
struct sysbench_base {
    const cJSON *doc;
    const char *label;
};

/* The thread-scaling tables over doc's runs, with a value and a ratio
 * column per baseline (at most SYSBENCH_MAX_BASES are shown). This run's
 * label is doc's fileio.label ("this run" when empty); a baseline label
 * equal to another column's gets " (baseline N)". A thread count a
 * baseline lacks prints "-". */
void sysbench_text_scaling(FILE *f, const cJSON *doc, const struct sysbench_base *bases, unsigned nbases);

/* A whole saved fileio result: per run header, banner, intervals and report,
 * then the scaling tables when there are several runs or a baseline. Returns
 * 0, or -EINVAL when doc holds no fileio run. */
int sysbench_text_render(FILE *f, const cJSON *doc, const struct sysbench_base *bases, unsigned nbases);

#endif
