/* result.h - the results model: one JSON document per run.
 *
 * Workload modules run phases and add each finished phase here; renderers read
 * only this document (live or loaded from a file), never runner internals, so a
 * saved result can be re-rendered, compared or charted later. The schema is
 * versioned ("ssdbench-result/1") and documented in docs/results.md. Interval
 * series are streamed to a journal while a phase runs and copied in when the
 * phase is added, so memory stays flat however long the run.
 *
 * This header is the writers' side (it needs the runner's phase statistics
 * and job spec); a renderer includes result/result_read.h, which has every
 * reader and no runner type.
 */
#ifndef SSDBENCH_RESULT_H
#define SSDBENCH_RESULT_H

#include <stdbool.h>
#include <stdio.h>
#include <cjson/cJSON.h>

#include "result/result_read.h"
#include "runner/runner.h"

/* Starts a document: schema, tool (version, command line), host, start time. */
cJSON *result_new(int argc, char **argv);

/* Adds a finished phase. series is the journal the runner streamed interval
 * rows to (may be NULL); rows are read from its current position to the end
 * (lines not starting with '[' are skipped). Returns the phase object
 * (owned by doc) so a workload can attach its own summary (steady state, ACT
 * verdict), or NULL on out of memory. */
cJSON *result_add_phase(cJSON *doc, const char *name, const char *kind,
                        const struct phase_stats *ps, FILE *series);

/* Final fields: duration, interrupted flag, exit status, host load over the run. */
void result_finish(cJSON *doc, bool interrupted, int signal);

/* Writes doc to path atomically (temp file + rename); "-" = stdout. */
int result_write(const cJSON *doc, const char *path, char *err, size_t errlen);

/* JSON for a job's parameters (also used by workloads that record plans). */
cJSON *result_job_params(const struct job_spec *j);

#endif
