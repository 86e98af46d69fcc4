/* cli_opts.h - one option table per command, and what reads it.
 *
 * A command declares its options once, as a table of struct cli_opt: name,
 * alias, value word, type (flag, text, number, percentage, size, time,
 * enum, or a setter of its own), range, unit, default, help text, the man
 * page's text, and the field of the command's configuration it fills.
 * From the table come the parsing (cli_opts_parse: "--key=value",
 * "--key value", flags, `--` ending the options, "needs a value", an
 * unknown option answered with the nearest name, one-line errors naming
 * option and value), the --help rows (cli_opts_print: "  --output FILE,
 * -o FILE   text (default D)"), and the option part of the man page and
 * docs/options.md (cli_opts_dump, via scripts/gen-man.sh and
 * scripts/gen-options-doc.sh). scripts/gen-completion.sh reads the help
 * rows for the shell completion, and tests/integration/firsthour.sh
 * compares them with the man page and docs. The typed values are read by
 * cli_value.h. */
#ifndef SSDBENCH_CLI_OPTS_H
#define SSDBENCH_CLI_OPTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cli/cli_value.h"

/* What a typed entry's value is and where it goes (cli_opts_parse stores
 * it in the command's configuration at .off). */
enum cli_type {
    CLI_T_ID = 0,   /* no value kept here: cli_opts_next returns .id (> 0), or the
                       row is one of the shared options (.id 0, cli_output_option) */
    CLI_T_FLAG,     /* a flag: the bool at .off becomes true */
    CLI_T_CONST,    /* a flag: the int (or enum) at .off becomes .ival */
    CLI_T_STR,      /* the value itself (a const char * at .off, pointing into argv) */
    CLI_T_STRS,     /* repeatable: appended to the const char *[] at .off, its count at .count_off */
    CLI_T_UINT,     /* a whole number in [.ulo, .uhi] (0: the field's largest), stored times
                       .scale (1 if 0) */
    CLI_T_PCT,      /* a percentage ("20" or "20%") in [.lo, .hi] (ends open per .flags) */
    CLI_T_REAL,     /* a real number in [.lo, .hi] */
    CLI_T_SIZE,     /* bytes with fio's units in [.ulo, .uhi], a multiple of .scale */
    CLI_T_TIME,     /* a duration in ns in [.ulo, .uhi]; a bare number in .scale ns (0: s);
                       CLI_WHOLE: a whole number of .scale, stored in that unit */
    CLI_T_ENUM,     /* one of .enums' names: its value in the int (or enum) at .off */
    CLI_T_CALL,     /* .set reads the value (or the flag, .value NULL) */
};

#define CLI_WHOLE 4u    /* CLI_T_TIME: a whole number of units, stored as units */
#define CLI_GETOPT 8u   /* the short alias also takes its value attached: "-t3600" */

struct cli_output;

/* What a setter sees: the command's name, its configuration, the shared
 * output options. */
struct cli_ctx {
    const char *cmd;
    void *cfg;
    struct cli_output *out;
    void *aux;      /* what else the command's setters need, or NULL */
};

struct cli_opt;
/* Reads v (NULL for a flag) into c->cfg; 0, or -1 after a one-line error. */
typedef int (*cli_setter)(const struct cli_ctx *c, const struct cli_opt *o, const char *v);

/* One option (name set) or one line of the help text (name NULL: help
 * printed as it is). A table ends with an entry whose name and help are
 * both NULL. Tables are written with designated initializers (CLI_AT for
 * the field); CLI_ROW is an untyped row. */
struct cli_opt {
    const char *name;       /* "--output" */
    const char *alias;      /* "-o", or NULL */
    const char *alt;        /* another spelling accepted and not shown ("--start_bucket",
                               another tool's), or NULL */
    const char *value;      /* "FILE": takes a value; NULL: a flag; "[=PATH]": optional, no space */
    const char *help;       /* the text; "\n" continues on the next line */
    int id;                 /* what cli_opts_next returns for it (> 0); 0: handled
                               by cli_output_option, listed for the help */
    enum cli_type type;
    size_t off, size;       /* the field in the configuration: offsetof, sizeof */
    size_t count_off, count_size; /* CLI_T_STRS: its count (unsigned or size_t) */
    uint64_t ulo, uhi;      /* CLI_T_UINT, CLI_T_SIZE, CLI_T_TIME: the range */
    double lo, hi;          /* CLI_T_PCT, CLI_T_REAL: the range */
    unsigned flags;         /* CLI_LO_OPEN, CLI_HI_OPEN (cli_value.h), CLI_WHOLE */
    uint64_t scale;         /* see the types */
    int ival;               /* CLI_T_CONST */
    const struct cli_enum *enums;  /* CLI_T_ENUM */
    cli_setter set;         /* CLI_T_CALL */
    const char *dflt;       /* the default as shown: "25", "the preset's"; NULL: none said */
    const char *unit;       /* the unit of a number: "s", "ms", "%", "bytes" */
    const char *man;        /* the man page's whole text (roff, its default included) when it
                               says more than help */
    const char *note;       /* a shared row (CLI_SHARED): what this command adds to the shared
                               text, for its --help, its man section and docs/options.md */
};

#define CLI_ROW(n, a, v, h, i) {.name = (n), .alias = (a), .value = (v), .help = (h), .id = (i)}
/* One of the shared options (cli_output_option) where this command's help
 * lists it: its words come from the shared table. A row may give its own
 * .value (the formats this command prints) and .dflt, and a .note (and a
 * roff .man note) where the command really differs; never a .help. */
#define CLI_SHARED(n) {.name = (n)}
#define CLI_SHARED_NOTE(n, nt) {.name = (n), .note = (nt)}
#define CLI_TEXT(h) {.help = (h)}
#define CLI_OPTS_END {.name = NULL}
/* The field f of the configuration type T */
#define CLI_AT(T, f) .off = offsetof(T, f), .size = sizeof(((T *)0)->f)
#define CLI_COUNT(T, f) .count_off = offsetof(T, f), .count_size = sizeof(((T *)0)->f)

#define CLI_OPT_HELP (-3)       /* --help or -h */
#define CLI_OPT_OPERAND 0       /* not an option: an operand (also every word after --) */
#define CLI_OPT_ERROR (-1)      /* a one-line error was printed */
#define CLI_OPT_SKIP (-4)       /* the word was `--`: consumed, nothing to do */
#define CLI_OPT_TYPED (-5)      /* a typed entry (cli_opts_next_typed): *hit is it */

/* The help rows of t, the text column at col. */
void cli_opts_print(FILE *f, const struct cli_opt *t, int col);

/* Reads argv[*i] (advancing *i past a value taken from the next word):
 * an option's id with *value (NULL for a flag), CLI_OPT_HELP, CLI_OPT_SKIP,
 * CLI_OPT_OPERAND, or CLI_OPT_ERROR after "CMD: OPT needs a value" or
 * "CMD: unknown option 'X' (did you mean 'Y'?)". *operands is the state of
 * `--` (start it false): once set, every word is an operand. */
int cli_opts_next(const char *cmd, const struct cli_opt *t, int *i, int argc, char **argv, const char **value,
                  bool *operands);

/* The same, also for typed entries: CLI_OPT_TYPED with *hit set. */
int cli_opts_next_typed(const char *cmd, const struct cli_opt *t, int *i, int argc, char **argv, const char **value,
                        bool *operands, const struct cli_opt **hit);

/* The entry of t that arg ("--label=x", "-o") names, or NULL; prints
 * nothing (for a command that hands unknown options to another parser). */
const struct cli_opt *cli_opts_find(const struct cli_opt *t, const char *arg);

/* Stores v (NULL for a flag) by o's type into c->cfg. 0, or -1 after the
 * one-line error "OPT: 'V' is not ...". */
int cli_opt_apply(const struct cli_ctx *c, const struct cli_opt *o, const char *v);

/* One command's table: what parses its options, prints its --help
 * (head, then the rows with the text at column col) and its part of the
 * man page (section man_section, scripts/gen-man.sh). */
struct cli_cmd_opts {
    const char *cmd;            /* "pts" */
    const char *man_section;    /* "PTS" */
    const struct cli_opt *opts;
    int col;
};

/* Parses argv[1..argc) against c's table into cfg: the shared output
 * options first (when out is set), `--`, --help/-h (prints the help, returns
 * 1), typed entries stored, every other word to operand (0, or -1 after a
 * one-line error). 0, 1 after --help, -1 after a one-line error. */
int cli_opts_parse(const struct cli_cmd_opts *c, int argc, char **argv, void *cfg, struct cli_output *out,
                   int (*operand)(const char *s, void *cfg));

/* The same with the setters' context given whole (ctx->cfg is what
 * operand receives). */
int cli_opts_parse_ctx(const struct cli_cmd_opts *c, int argc, char **argv, const struct cli_ctx *ctx,
                       int (*operand)(const char *s, void *cfg));

/* The help text of c (what --help prints). */
void cli_opts_help(FILE *f, const struct cli_cmd_opts *c);

/* Every command on a table, NULL-terminated (cli_tables.c). */
extern const struct cli_cmd_opts *const cli_tables[];

/* --dump-options: what the tables say, as FORMAT "man" (the option part
 * of each command's section of man/ssdbench.1), "md" (docs/options.md) or
 * "names" (CMD OPTION per line). 0, or -1 for an unknown format. */
int cli_opts_dump(FILE *f, const char *format, const char *cmd);

/* Checks a table's entries against their types (field sizes, ranges,
 * enums); 0, or -1 with what is wrong in msg. For the unit tests. */
int cli_opts_check(const struct cli_cmd_opts *c, char *msg, size_t msglen);

#define CLI_OPTS_MAX 160   /* entries of one table, at most */

/* The shared table's entry of an option name ("--result"), or NULL;
 * *journal_only is set for --archive and --tag (only where a result is
 * written). With name NULL: the i-th entry (i from 0), NULL past the last. */
const struct cli_opt *cli_shared_find(const char *name, unsigned i, bool *journal_only);

/* A row of a command's table as it is shown: a shared row (a name, no
 * help, no id, untyped) takes the shared entry's words, its own .value and
 * .dflt where given, and its .note on the lines after the text (buf
 * holds the text). Any other row is returned as it is. */
struct cli_opt cli_opt_shown(const struct cli_opt *row, char *buf, size_t len);

/* True for a row of a command's table that is one of the shared options. */
bool cli_opt_is_shared(const struct cli_opt *row);

/* Consumes a shared option at argv[*i] (advancing *i past its value):
 * --format, --output, --result, ... (cli_opts_typed.c). Returns 1 if
 * consumed, 0 if not one of them, -1 after printing an error. */
int cli_output_option(int *i, int argc, char **argv, struct cli_output *o);

#endif
