/* result.h - the results model: one JSON document per run.
 *
 * Workload modules run phases and add each finished phase here; renderers read
 * only this document (live or loaded from a file), never runner internals, so a
 * saved result can be re-rendered, compared or charted later. The schema is
 * versioned ("ssdbench-result/1") and documented in docs/results.md. Interval
 * series are streamed to a journal while a phase runs and copied in when the
 * phase is added, so memory stays flat however long the run.
 */
#ifndef SSDBENCH_RESULT_H
#define SSDBENCH_RESULT_H

#include <stdbool.h>
#include <stdio.h>
#include <cjson/cJSON.h>

#include "runner/runner.h"

#define RESULT_SCHEMA "ssdbench-result/1"
/* The largest result file or journal read (result_load, recover). */
#define RESULT_MAX_BYTES ((size_t)1 << 30)

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

/* doc as JSON text (malloc'd; free with free()), ill-formed UTF-8 in any
 * string replaced as described in base/utf8.h, so every JSON file ssdbench
 * writes is valid UTF-8. NULL on out of memory. */
char *result_print(const cJSON *doc, bool formatted);

/* Writes doc to path atomically (temp file + rename); "-" = stdout. */
int result_write(const cJSON *doc, const char *path, char *err, size_t errlen);

/* Parses and checks a result held in buf[0..len) (need not be
 * NUL-terminated): valid JSON, an object with the supported schema and a
 * "phases" list, and the validation pass of result_check.h. NULL with a
 * one-line message starting with name ("NAME: field X is not a number") on
 * error. Never crashes or hangs on any input. */
cJSON *result_parse(const char *buf, size_t len, const char *name, char *err, size_t errlen);

/* Loads a result file through result_parse; NULL with a one-line message. */
cJSON *result_load(const char *path, char *err, size_t errlen);

/* Accessors used by renderers. They are type-safe on any document: obj or
 * arr may be NULL or of any type, and a missing, null or mistyped value
 * gives dflt. Numbers are always finite; a decimal string that is entirely
 * a number counts as one (large integers are stored that way). */
double result_num(const cJSON *obj, const char *key, double dflt);
const char *result_str(const cJSON *obj, const char *key, const char *dflt);
double result_value_num(const cJSON *v, double dflt);
const char *result_value_str(const cJSON *v, const char *dflt);
/* result_num clamped to [lo, hi], for a value converted to an integer type
 * (a double beyond the type's range would be undefined behaviour). */
double result_num_in(const cJSON *obj, const char *key, double lo, double hi, double dflt);
#define RESULT_U64_MAX 1.8e19   /* below 2^64 */
/* Element i of a list. */
double result_at_num(const cJSON *arr, int i, double dflt);
const char *result_at_str(const cJSON *arr, int i, const char *dflt);
/* Column of a named field in an interval series ({"fields": [...], "rows":
 * ...}), or -1 when the series has no such field. */
int result_field_index(const cJSON *intervals, const char *name);

/* The scope object of a phase ("total", "job:NAME", ...), or NULL. */
const cJSON *result_scope(const cJSON *phase, const char *scope);

/* JSON for a job's parameters (also used by workloads that record plans). */
cJSON *result_job_params(const struct job_spec *j);

/* A result's name for tables: its "label" (or fileio's label), else the
 * file name without its directory and ".json". */
void result_label(const cJSON *doc, const char *file, char *buf, size_t len);

/* Which command made a result, from its top-level objects: "suite",
 * "fileio", "act", else "run" (run, quick, a job file). For checking that a
 * --baseline is of the kind a command scales against. */
const char *result_kind(const cJSON *doc);

#endif
