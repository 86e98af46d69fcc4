/* result_check.h - the validation pass every loaded result goes through.
 *
 * A result file may come from anywhere (another version, a hand edit, a
 * truncated copy, a hostile file), and every renderer reads it. This pass
 * runs once at load so renderers can rely on a few things:
 *   - every string (value and key) is well-formed UTF-8 (ill-formed bytes are
 *     replaced by U+FFFD, as on writing; see base/utf8.h);
 *   - every number is finite (cJSON reads 1e999 as infinity);
 *   - the structure renderers walk has the right types: phases, results,
 *     targets and jobs are lists of objects; ids, names and scopes are
 *     strings; job target lists hold strings; I/O, byte, error and sample
 *     counts are numbers >= 0; interval series are {fields: [strings],
 *     rows: [[...]]}.
 * Anything else is left to the type-safe accessors of result.h, which fall
 * back to a default for a missing or mistyped field.
 */
#ifndef SSDBENCH_RESULT_CHECK_H
#define SSDBENCH_RESULT_CHECK_H

#include <stddef.h>
#include <cjson/cJSON.h>

/* Checks (and repairs the UTF-8 of) doc. Returns 0, or -EINVAL with a
 * one-line reason naming the field, e.g. "phases[0].results[1].scope is not
 * a string"; the caller prefixes the file name. */
int result_check(cJSON *doc, char *err, size_t errlen);

#endif
