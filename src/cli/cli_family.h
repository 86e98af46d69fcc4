/* cli_family.h - the command-line loop and the text output that the
 * family commands with a report renderer of their own (pts, suite) share:
 * the common output options (cli_output_option), --help, the family's own
 * options, an unknown option answered with the nearest known name, and the
 * operands; then text through the family's renderer (also into --output
 * FILE, after --result is saved) or any other format through cli_emit. */
#ifndef SSDBENCH_CLI_FAMILY_H
#define SSDBENCH_CLI_FAMILY_H

#include <stdio.h>
#include <cjson/cJSON.h>

#include "cli/cli.h"
#include "output/render.h"

struct cli_family {
    const char *cmd;                        /* "pts", for messages */
    void (*usage)(FILE *f);
    /* argv[*i] is one of the family's options: 1 consumed (*i past its
     * value), 0 not one, -1 after an error message */
    int (*option)(int *i, int argc, char **argv, void *arg);
    /* a non-option argument: 0 taken, -1 after an error message */
    int (*operand)(const char *s, void *arg);
    const char *const *names;               /* every option, NULL-terminated, for suggestions */
    void *arg;
};

/* Parses argv[1..argc). Returns 0, 1 after --help (usage printed), -1
 * after an error message. */
int cli_family_parse(int argc, char **argv, const struct cli_family *f, struct cli_output *out);

/* Emits the finished document: text through render (into --output or
 * standard output, after saving --result), other formats via cli_emit.
 * Returns code, or a failure code when writing failed. */
int cli_family_render(cJSON *doc, const struct cli_output *o, int code,
                      void (*render)(FILE *f, const cJSON *doc, const struct render_opts *ro));

#endif
