/* result_read.h - reading a results-model document, without the runner.
 *
 * Everything a renderer or a reader of saved results needs: parsing and
 * checking a result file, the type-safe accessors, a result's label and kind.
 * It includes no runner/ header, so renderers (output/) do not depend on the
 * runner's types; the writers' side is result/result.h, which includes this.
 * The keys a document may hold are listed in result/result_schema.h.
 */
#ifndef SSDBENCH_RESULT_READ_H
#define SSDBENCH_RESULT_READ_H

#include <stdbool.h>
#include <stddef.h>
#include <cjson/cJSON.h>

#define RESULT_SCHEMA "ssdbench-result/1"
/* The largest result file or journal read (result_load, recover). */
#define RESULT_MAX_BYTES ((size_t)1 << 30)

/* Parses and checks a result held in buf[0..len) (need not be
 * NUL-terminated): valid JSON, an object with the supported schema and a
 * "phases" list, and the validation pass of result_check.h. NULL with a
 * one-line message starting with name ("NAME: field X is not a number") on
 * error. Never crashes or hangs on any input. */
cJSON *result_parse(const char *buf, size_t len, const char *name, char *err, size_t errlen);

/* Loads a result file through result_parse; NULL with a one-line message. */
cJSON *result_load(const char *path, char *err, size_t errlen);

/* doc as JSON text (renderers that print JSON use it too) (malloc'd; free with free()), ill-formed UTF-8 in any
 * string replaced as described in base/utf8.h, so every JSON file ssdbench
 * writes is valid UTF-8. NULL on out of memory. */
char *result_print(const cJSON *doc, bool formatted);

/* Accessors used by renderers. They are type-safe on any document: obj or
 * arr may be NULL or of any type, and a missing, null or mistyped value
 * gives dflt. Numbers are always finite; a decimal string that is entirely
 * a number counts as one (large integers are stored that way). */
double result_num(const cJSON *obj, const char *key, double dflt);
/* The member key of obj (of any type), or NULL: cJSON's case-sensitive
 * look-up, the one every reader uses. */
const cJSON *result_get(const cJSON *obj, const char *key);
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

/* A result's name for tables: its "label" (or fileio's label), else the
 * file name without its directory and ".json". */
void result_label(const cJSON *doc, const char *file, char *buf, size_t len);

/* Which command made a result, from its top-level objects: "suite",
 * "fileio", "act", else "run" (run, quick, a job file). For checking that a
 * --baseline is of the kind a command scales against. */
const char *result_kind(const cJSON *doc);

#endif
