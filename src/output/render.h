/* render.h - renderers of the results model for ssdbench's own formats.
 *
 * Each renderer reads a result document (live or loaded from a file) and
 * writes one format; none computes a statistic the document lacks beyond what
 * its stored histograms make exact. Compatibility formats (fio JSON, ACT log,
 * sysbench text) live in their own files. */
#ifndef SSDBENCH_RENDER_H
#define SSDBENCH_RENDER_H

#include <stdbool.h>
#include <stdio.h>
#include <cjson/cJSON.h>

struct render_opts {
    bool details;     /* per-phase detail blocks (percentiles, % over ms) */
    bool summary;     /* one summary table over all phases */
};

/* Human text: a summary table and/or one block per phase. */
void render_text(FILE *f, const cJSON *doc, const struct render_opts *o);

/* CSV: one row per phase x scope x direction with the headline figures and
 * percentiles (header row first). */
void render_csv(FILE *f, const cJSON *doc);
/* One CSV field in quotes, quotes inside doubled (names in results are any text). */
void render_csv_quoted(FILE *f, const char *s);

/* Formats a latency in ns with a sensible unit ("85.3 us", "1.20 ms"). */
void render_latency(char *buf, size_t len, double ns);

#endif
