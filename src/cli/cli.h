/* cli.h - what every subcommand shares: one-line errors, exit codes, the
 * output options (--format, --output, --result), the destroy consent list,
 * and writing/rendering a finished result. Only src/cli decides what the user
 * sees and with which exit code. */
#ifndef SSDBENCH_CLI_H
#define SSDBENCH_CLI_H

#include <stdbool.h>
#include <cjson/cJSON.h>

#include "core/runner.h"
#include "output/render.h"
#include "target/guard.h"

#define CLI_EXIT_OK 0
#define CLI_EXIT_FAIL 1     /* I/O errors, a failed verdict */
#define CLI_EXIT_USAGE 2    /* bad input, refusal; nothing written */

enum cli_format { FMT_TEXT, FMT_JSON, FMT_CSV, FMT_FIO_JSON, FMT_FIO_JSON_PLUS };

struct cli_output {
    enum cli_format format;
    const char *output;      /* where the chosen format goes; NULL = stdout */
    const char *result;      /* also save the ssdbench result JSON here */
    bool quiet;              /* no live status line */
    struct guard_consent consent;
};

/* "ssdbench: <message>" on stderr. */
void cli_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

void cli_output_init(struct cli_output *o);

/* Consumes a shared option at argv[*i] (advancing *i past its value).
 * Returns 1 if consumed, 0 if not one of them, -1 after printing an error. */
int cli_output_option(int *i, int argc, char **argv, struct cli_output *o);

/* Splits "--key=value" / "--key value" for option parsers; returns the value
 * or NULL when the key does not match. */
const char *cli_opt_value(const char *key, int *i, int argc, char **argv);

/* Before a run starts: checks that --result and --output name something
 * ssdbench can write (core/outfile.h), so a long run is not lost to a typo
 * or a directory. Prints one line and returns -1 when not; 0 otherwise.
 * *journal (may be NULL) is set when the result is a regular file that a
 * RESULT.partial journal can sit next to. */
int cli_output_check(const struct cli_output *o, bool *journal);

/* Finishes a run: saves --result, writes the chosen format to --output or
 * stdout. Returns status unchanged, or CLI_EXIT_FAIL if writing failed. */
int cli_emit(cJSON *doc, const struct cli_output *o, const struct render_opts *ro, int status);

/* A live status line on stderr when it is a terminal (elapsed / total,
 * IOPS, MB/s and p99 per direction of the last interval); none otherwise.
 * Pass as runner_opts.status unless --quiet. */
void cli_status(const struct runner_interval *iv, double total_s);

/* One stderr line per error record of the result ("12 write errors on
 * /dev/x, first at offset N: No space left on device"), so a failed run says
 * why without reading the JSON. */
void cli_report_errors(const cJSON *doc);

/* The closest name to s in names[] (NULL-terminated), or NULL. */
const char *cli_suggest(const char *s, const char *const *names);

#endif
