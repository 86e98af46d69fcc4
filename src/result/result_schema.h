/* result_schema.h - the schema of a results-model document as one table.
 *
 * Every key a writer puts into a result (result.c, result_device.c, the
 * workloads' summaries) and every key a renderer or reader takes out of one
 * is an entry here: its path, its JSON type, its unit and what it means.
 * The table is the source of docs/results.md's key index
 * (scripts/gen-results-doc.sh), and tests/integration/result_schema.sh fails
 * when a string key spelt in src/ is missing from it, so a renamed key does
 * not compile into a silent fallback.
 *
 * Paths: members joined by ".", "[]" after an array's name for each of its
 * elements ("phases[].results[].read.iops"), "*" for a member whose name is
 * data (a job name, a percentile "99.9", an option as written), "<dir>" for
 * each direction object of a scope or job (read, write, trim, sync,
 * combined), and "**" for "somewhere below" where a reader's key was not met
 * in a recorded result (its place is told by docs/results.md).
 */
#ifndef SSDBENCH_RESULT_SCHEMA_H
#define SSDBENCH_RESULT_SCHEMA_H

#include <stddef.h>
#include <cjson/cJSON.h>

enum result_type {
    RK_ANY,     /* more than one type (a number or null, a list or a string) */
    RK_NUM,     /* a number; a decimal string that is entirely a number counts */
    RK_STR,
    RK_BOOL,
    RK_OBJ,
    RK_ARR,
};

struct result_key {
    const char *path;
    enum result_type type;
    const char *unit;       /* "ns", "s", "bytes", "1/s", ... or "" */
    const char *meaning;    /* "" where docs/results.md's prose tells it */
    double dflt;            /* what result_snum gives when the value is absent */
    const char *dflt_str;   /* what result_sstr gives when it is absent */
};

/* The table, sorted by path; *n gets its length. */
const struct result_key *result_schema(size_t *n);

/* The entry of a full path, or NULL. */
const struct result_key *result_schema_find(const char *path);

/* The first entry whose last member is key ("iops" matches
 * "phases[].results[].read.iops"), or NULL. */
const struct result_key *result_schema_leaf(const char *key);

/* The name of a type as docs/results.md prints it ("number", ...). */
const char *result_type_name(enum result_type t);

/* Typed readers: the last member of path read from obj, with the table's
 * default. path must be one of the table's full paths (a path the table does
 * not have reads as the default 0 / "", and the schema test fails on it). */
double result_snum(const cJSON *obj, const char *path);
const char *result_sstr(const cJSON *obj, const char *path);

#endif
