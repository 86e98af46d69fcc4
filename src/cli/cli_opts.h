/* cli_opts.h - a command's option names, read from its own --help: every
 * row of the help that starts with an option ("  --output FILE, -o FILE
 * text") names the options of its left column. The help is the one list
 * of a command's options: "did you mean" suggestions, the shell completion
 * (`ssdbench --completion bash|zsh`) and the documentation test
 * (tests/integration/firsthour.sh compares it with the man page) all read
 * it, so none of them can name an option the help does not. */
#ifndef SSDBENCH_CLI_OPTS_H
#define SSDBENCH_CLI_OPTS_H

#include <stdio.h>

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
