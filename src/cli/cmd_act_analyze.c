/* cmd_act_analyze.c - argument parsing and output for `ssdbench act-analyze`.
 * Options are act_latency.py's (-l is accepted too, so its command lines
 * work unchanged); the analysis itself lives in act/act_analyze.c. */
#include "cli/cmd_act_analyze.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "act/act_text.h"
#include "act/act_analyze.h"

static const char usage[] =
    "usage: ssdbench act-analyze LOG [-t SLICE] [-s START] [-n N] [-e EVERY] [-h NAME]... [-x]\n"
    "\n"
    "Tabulates an ACT raw log (written by `ssdbench act` or by Aerospike ACT) the way\n"
    "ACT's act_latency.py does: per time slice, the percentage of operations that took\n"
    "at least 2^i milliseconds (microseconds if the log has microsecond histograms),\n"
    "then the avg and max rows. For runs of 24 h or more it adds the certification\n"
    "verdict: PASS only if every hour of 'reads' has below 5% >= 1 ms, 1% >= 8 ms and\n"
    "0.1% >= 64 ms.\n"
    "\n"
    "  LOG, -l, --log LOG          the log file\n"
    "  -t, --slice SECONDS         slice length, rounded up to the report interval (3600)\n"
    "  -s, --start-bucket I        first threshold column, 2^I units (0; at most 16)\n"
    "  -n, --num-buckets N         number of threshold columns (7)\n"
    "  -e, --every-nth E           show every E-th threshold (1); -n 3 -e 3 gives 1/8/64\n"
    "  -h, --histogram NAME        histogram to tabulate (reads); repeat for side-by-side\n"
    "                              tables, e.g. -h reads -h large-block-writes\n"
    "  -x, --extra                 add a rate column (ops/s over the slice)\n"
    "  --help, -h                  this text (-h as the last word, without a NAME)\n"
    "\n"
    "Exit status: 0 analysed (PASS, or no verdict for runs under 24 h), 1 FAIL\n"
    "(a limit reached, or the run stopped early), 2 bad usage or log.\n";

static int usage_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int usage_err(const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    cli_err("act-analyze: %s", msg);
    return CLI_EXIT_USAGE;
}

struct optdef {
    char s;
    const char *l, *l2;   /* long name, and act_latency.py's spelling */
    bool arg;
};

static const struct optdef defs[] = {
    {'l', "log", NULL, true},         {'t', "slice", NULL, true},
    {'s', "start-bucket", "start_bucket", true},
    {'n', "num-buckets", "num_buckets", true},
    {'e', "every-nth", "every_nth", true},
    {'h', "histogram", NULL, true},   {'x', "extra", NULL, false},
};

/* Finds the option at argv[*i]; sets *val for options with an argument
 * (attached, after '=', or the next word). Returns the short letter, '?' for
 * unknown, ':' for a missing value, 0 for a plain word. */
static char next_opt(int argc, char **argv, int *i, const char **val)
{
    const char *a = argv[*i];
    *val = NULL;
    if (a[0] != '-' || !a[1])
        return 0;
    const struct optdef *d = NULL;
    const char *rest = NULL;
    if (a[1] == '-') {
        const char *name = a + 2, *eq = strchr(name, '=');
        size_t n = eq ? (size_t)(eq - name) : strlen(name);
        for (size_t k = 0; k < sizeof(defs) / sizeof(defs[0]); k++) {
            if ((strlen(defs[k].l) == n && !strncmp(defs[k].l, name, n)) ||
                (defs[k].l2 && strlen(defs[k].l2) == n && !strncmp(defs[k].l2, name, n)))
                d = &defs[k];
        }
        if (!d || (eq && !d->arg))
            return '?';
        rest = eq ? eq + 1 : NULL;
    } else {
        for (size_t k = 0; k < sizeof(defs) / sizeof(defs[0]); k++)
            if (defs[k].s == a[1])
                d = &defs[k];
        if (!d || (!d->arg && a[2]))
            return '?';
        rest = a[2] ? a + 2 : NULL;
    }
    if (d->arg) {
        if (!rest) {
            if (*i + 1 >= argc)
                return ':';
            rest = argv[++*i];
        }
        *val = rest;
    }
    return d->s;
}

int cmd_act_analyze(int argc, char **argv)
{
    struct act_analyze_opts o;
    act_analyze_opts_default(&o);
    const char *log = NULL;

    for (int i = 1; i < argc; i++) {
        /* ACT's -h NAME picks a histogram; a bare -h at the end asks for help */
        if (!strcmp(argv[i], "--help") || (!strcmp(argv[i], "-h") && i + 1 == argc)) {
            fputs(usage, stdout);
            return 0;
        }
        const char *val;
        const char *opt = argv[i];
        char c = next_opt(argc, argv, &i, &val);
        switch (c) {
        case 0:
        case 'l':
            if (log)
                return usage_err("two logs given ('%s' and '%s'); analyse one at a time",
                                 log, c ? val : opt);
            log = c ? val : opt;
            break;
        case 't':
            if (!cli_unsigned(val, 1, 100u * 86400, &o.slice_sec))
                return usage_err("-t '%s': slice must be a whole number of seconds from 1",
                                 val);
            break;
        case 's':
            if (!cli_unsigned(val, 0, ACT_TABLE_BUCKETS - 1, &o.start_bucket))
                return usage_err("-s '%s': start bucket must be 0 to 16", val);
            break;
        case 'n':
            if (!cli_unsigned(val, 1, 64, &o.num_buckets))
                return usage_err("-n '%s': number of buckets must be 1 to 64", val);
            break;
        case 'e':
            if (!cli_unsigned(val, 1, 64, &o.every_nth))
                return usage_err("-e '%s': every-nth must be 1 to 64", val);
            break;
        case 'h':
            if (o.nhist == ACT_MAX_TABLES)
                return usage_err("-h '%s': at most %u histograms", val, ACT_MAX_TABLES);
            if (!*val || strlen(val) >= ACT_HIST_NAME_MAX)
                return usage_err("-h '%s': histogram name empty or too long", val);
            snprintf(o.hist[o.nhist++], ACT_HIST_NAME_MAX, "%s", val);
            break;
        case 'x':
            o.extra = true;
            break;
        case ':':
            return usage_err("%s needs a value (see --help)", opt);
        default:
            return usage_err("unknown option '%s' (see --help)", opt);
        }
    }
    if (!log)
        return usage_err("no log given (usage: ssdbench act-analyze LOG [options]; see --help)");

    struct act_analysis a;
    char err[512];
    int rc = act_analyze_file(log, &o, &a, err, sizeof(err));
    if (rc) {
        cli_err("act-analyze: %s", err);
        return CLI_EXIT_USAGE;
    }
    act_text_header(stdout, log, &a);
    int rows = act_text_tables(stdout, &a);
    int exit_code = a.verdict.status == ACT_VERDICT_FAIL ? CLI_EXIT_FAIL : CLI_EXIT_OK;
    if (rows == 0) {
        fflush(stdout);
        cli_err("act-analyze: %s: could not find %u seconds of data (last full report: "
                "after %u sec); try a shorter -t", log, a.slice_sec, a.info.last_elapsed);
        if (exit_code == CLI_EXIT_OK)
            exit_code = CLI_EXIT_USAGE;
    }
    printf("\n");
    act_text_verdict(stdout, &a);
    act_analysis_free(&a);
    if (fflush(stdout) || ferror(stdout)) {
        cli_err("act-analyze: error writing the output");
        return CLI_EXIT_FAIL;
    }
    return exit_code;
}
