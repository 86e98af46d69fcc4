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
#include "cli/cli_opts.h"
#include "cli/cli_tables.h"
#include "act/act_text.h"
#include "act/act_analyze.h"

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

/* What act-analyze was asked for: the log and the table options. */
struct aa_args {
    struct act_analyze_opts o;
    const char *log;
};

static int set_log(const struct cli_ctx *c, const struct cli_opt *o, const char *v)
{
    struct aa_args *a = c->cfg;
    (void)o;
    if (a->log) {
        usage_err("two logs given ('%s' and '%s'); analyse one at a time", a->log, v);
        return -1;
    }
    a->log = v;
    return 0;
}

static int aa_operand(const char *s, void *cfg)
{
    const struct cli_ctx c = {.cmd = "act-analyze", .cfg = cfg};
    return set_log(&c, NULL, s);
}

static int set_hist(const struct cli_ctx *c, const struct cli_opt *o, const char *v)
{
    struct act_analyze_opts *p = &((struct aa_args *)c->cfg)->o;
    (void)o;
    if (p->nhist == ACT_MAX_TABLES) {
        usage_err("-h '%s': at most %u histograms", v, ACT_MAX_TABLES);
        return -1;
    }
    if (!*v || strlen(v) >= ACT_HIST_NAME_MAX) {
        usage_err("-h '%s': histogram name empty or too long", v);
        return -1;
    }
    snprintf(p->hist[p->nhist++], ACT_HIST_NAME_MAX, "%s", v);
    return 0;
}

#define A(f) CLI_AT(struct aa_args, f)

/* ACT's act_latency.py options: its short letters (values attached or
 * not) and its underscore spellings are accepted too. */
static const struct cli_opt aa_opts[] = {
    CLI_TEXT("usage: ssdbench act-analyze LOG [-t SLICE] [-s START] [-n N] [-e EVERY] [-h NAME]... [-x]\n"
             "\n"
             "Tabulates an ACT raw log (written by `ssdbench act` or by Aerospike ACT) the way\n"
             "ACT's act_latency.py does: per time slice, the percentage of operations that took\n"
             "at least 2^i milliseconds (microseconds if the log has microsecond histograms),\n"
             "then the avg and max rows. For runs of 24 h or more it adds the certification\n"
             "verdict: PASS only if every hour of 'reads' has below 5% >= 1 ms, 1% >= 8 ms and\n"
             "0.1% >= 64 ms.\n"
             "\n"
             "  LOG                         the log file (or --log LOG)"),
    {.name = "--log",
     .man = "The log file (or the first argument).", .alias = "-l", .value = "LOG", .help = "the log file", .type = CLI_T_CALL, .set = set_log,
     .flags = CLI_GETOPT},
    {.name = "--slice",
     .man = "Slice length, rounded up to the report interval (default 3600).", .alias = "-t", .value = "SECONDS", .help = "slice length, rounded up to the report interval",
     .dflt = "3600", .type = CLI_T_UINT, A(o.slice_sec), .ulo = 1, .uhi = 100u * 86400, .flags = CLI_GETOPT,
     .unit = "s"},
    {.name = "--start-bucket",
     .man = "First threshold column, 2^I units (default 0).", .alias = "-s", .alt = "--start_bucket", .value = "I",
     .help = "first threshold column, 2^I units (at most 16)", .dflt = "0", .type = CLI_T_UINT,
     A(o.start_bucket), .ulo = 0, .uhi = ACT_TABLE_BUCKETS - 1, .flags = CLI_GETOPT},
    {.name = "--num-buckets",
     .man = "Number of threshold columns (default 7).", .alias = "-n", .alt = "--num_buckets", .value = "N",
     .help = "number of threshold columns", .dflt = "7", .type = CLI_T_UINT, A(o.num_buckets), .ulo = 1,
     .uhi = 64, .flags = CLI_GETOPT},
    {.name = "--every-nth",
     .man = "Show every E-th threshold; \\fB\\-n 3 \\-e 3\\fR gives 1/8/64.", .alias = "-e", .alt = "--every_nth", .value = "E",
     .help = "show every E-th threshold; -n 3 -e 3 gives 1/8/64", .dflt = "1", .type = CLI_T_UINT,
     A(o.every_nth), .ulo = 1, .uhi = 64, .flags = CLI_GETOPT},
    {.name = "--histogram",
     .man = "Histogram to tabulate (default reads); repeat for tables side by side.", .alias = "-h", .value = "NAME",
     .help = "histogram to tabulate; repeat for side-by-side\n"
             "tables, e.g. -h reads -h large-block-writes",
     .dflt = "reads", .type = CLI_T_CALL, .set = set_hist, .flags = CLI_GETOPT},
    {.name = "--extra",
     .man = "Add a rate column (operations per second over the slice).", .alias = "-x", .help = "add a rate column (ops/s over the slice)", .type = CLI_T_FLAG,
     A(o.extra)},
    {.name = "--help",
     .man = "Print the help; \\fB\\-h\\fR does so as the last word, without a NAME.", .help = "this text; also -h as the last word (without a NAME)"},
    CLI_TEXT("\n"
             "Exit status: 0 analysed (PASS, or no verdict for runs under 24 h), 1 FAIL\n"
             "(a limit reached, or the run stopped early), 2 bad usage or log."),
    CLI_OPTS_END,
};

#undef A

const struct cli_cmd_opts act_analyze_cmd_opts = {.cmd = "act-analyze", .man_section = "ACT ANALYZE",
                                                  .opts = aa_opts, .col = 30};

int cmd_act_analyze(int argc, char **argv)
{
    struct aa_args args = {.log = NULL};
    act_analyze_opts_default(&args.o);
    int prc = cli_opts_parse(&act_analyze_cmd_opts, argc, argv, &args, NULL, aa_operand);
    if (prc)
        return prc > 0 ? 0 : CLI_EXIT_USAGE;
    struct act_analyze_opts o = args.o;
    const char *log = args.log;
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
