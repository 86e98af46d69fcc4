/* cli_opts.h - one option table per command, and what reads it.
 *
 * A command declares its options once (struct cli_opt: name, alias, value,
 * help, id); cli_opts_print prints the --help rows from it and
 * cli_opts_next parses argv against it ("--key=value", "--key value",
 * flags, `--` ending the options, "needs a value", an unknown option
 * answered with the nearest name of the table). The help rows have one
 * shape ("  --output FILE, -o FILE   text"), which is how the commands not
 * yet on a table read too: cli_opts_from_usage reads the option names back
 * from any help text, for "did you mean", and scripts/gen-completion.sh
 * reads them for the shell completion, and tests/integration/firsthour.sh
 * compares them with the man page, so none of them can name an option the
 * help does not. */
#ifndef SSDBENCH_CLI_OPTS_H
#define SSDBENCH_CLI_OPTS_H

#include <stdbool.h>
#include <stdio.h>

/* One option (name set) or one line of the help text (name NULL: help
 * printed as it is). A table ends with an entry whose name and help are
 * both NULL. */
struct cli_opt {
    const char *name;       /* "--output" */
    const char *alias;      /* "-o", or NULL */
    const char *value;      /* "FILE": takes a value; NULL: a flag */
    const char *help;       /* the text; "\n" continues on the next line */
    int id;                 /* what cli_opts_next returns for it (> 0); 0: handled
                               by cli_output_option, listed for the help */
};

#define CLI_OPTS_END {NULL, NULL, NULL, NULL, 0}
#define CLI_OPT_HELP (-3)       /* --help or -h */
#define CLI_OPT_OPERAND 0       /* not an option: an operand (also every word after --) */
#define CLI_OPT_ERROR (-1)      /* a one-line error was printed */
#define CLI_OPT_SKIP (-4)       /* the word was `--`: consumed, nothing to do */

/* The help rows of t, the text column at col. */
void cli_opts_print(FILE *f, const struct cli_opt *t, int col);

/* Reads argv[*i] (advancing *i past a value taken from the next word):
 * an option's id with *value (NULL for a flag), CLI_OPT_HELP, CLI_OPT_SKIP,
 * CLI_OPT_OPERAND, or CLI_OPT_ERROR after "CMD: OPT needs a value" or
 * "CMD: unknown option 'X' (did you mean 'Y'?)". *operands is the state of
 * `--` (start it false): once set, every word is an operand. */
int cli_opts_next(const char *cmd, const struct cli_opt *t, int *i, int argc, char **argv, const char **value,
                  bool *operands);

#define CLI_OPTS_MAX 160
#define CLI_OPT_LEN 48

struct cli_opts {
    unsigned n;
    char name[CLI_OPTS_MAX][CLI_OPT_LEN];   /* "--output", "-o", ... in help order, no repeats */
    const char *ptr[CLI_OPTS_MAX + 1];      /* the same, NULL-terminated, for cli_suggest */
};

/* Reads usage's text into o. */
void cli_opts_from_usage(struct cli_opts *o, void (*usage)(FILE *f));

/* The same from a help text held in memory. */
void cli_opts_from_text(struct cli_opts *o, const char *text);

/* The one-line error for an unknown option arg of command cmd: with the
 * nearest name of usage's options when one is a typo away. */
void cli_opts_unknown(const char *cmd, const char *arg, void (*usage)(FILE *f));

/* "OPT needs a value" when arg (at argv[i], the last word) is one of
 * usage's options that takes a value; 1 after printing it, else 0. */
int cli_opts_needs_value(const char *cmd, const char *arg, void (*usage)(FILE *f));

#endif
