/* cmd_report.c - `ssdbench report RESULT.json... [-o report.html]`: charts
 * and tables of one or more saved results as one self-contained HTML page,
 * or the same tables as CSV files. Several results are overlaid on the same
 * axes with ratios to a baseline. Nothing is re-run. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/cli_opts.h"
#include "cli/cli_tables.h"
#include "cli/cli_archive.h"
#include "cli/commands.h"
#include "base/outfile.h"
#include "output/html_build.h"
#include "output/html_report.h"
#include "output/report_csv.h"
#include "result/result.h"

#define REPORT_MAX_RESULTS HTML_REPORT_MAX_IN

/* Writes the page to path through a temporary file, so a failed run never
 * leaves half a report behind. */
static int write_html(const struct html_report *rep, const char *path)
{
    char err[512];
    struct outfile of;
    if (outfile_open(&of, path ? path : "-", err, sizeof(err)) < 0) {
        cli_err("%s", err);
        return CLI_EXIT_FAIL;
    }
    int rc = html_page_write(of.f, rep);
    if (rc) {
        int e = errno ? errno : EIO;
        outfile_abort(&of);
        cli_err("%s: cannot write: %s", path ? path : "standard output", strerror(e));
        return CLI_EXIT_FAIL;
    }
    if (outfile_commit(&of, err, sizeof(err)) < 0) {
        cli_err("%s", err);
        return CLI_EXIT_FAIL;
    }
    return CLI_EXIT_OK;
}

/* What `report` was asked for. */
struct report_args {
    const char *paths[REPORT_MAX_RESULTS], *labels[REPORT_MAX_RESULTS];
    size_t npaths, nlabels;
    const char *output, *title, *archive;
    bool csv;
    unsigned baseline;          /* 1-based */
};

static const struct cli_enum formats[] = {{"html", 0}, {"csv", 1}, {NULL, 0}};

#define A(f) CLI_AT(struct report_args, f)

static const struct cli_opt report_opts[] = {
    CLI_TEXT("usage: ssdbench report [options] RESULT.json...\n"
             "\n"
             "Charts and tables of saved results as one self-contained HTML page (no\n"
             "network, no scripts; prints and reads on a phone), or as CSV tables.\n"
             "Several results are overlaid on the same axes, with ratio tables.\n"),
    {.name = "--output",
     .man = "HTML: the page (default stdout), written to a temporary file and renamed.\n"
            "CSV: a directory (created when missing) with one file per table, named by\n"
            "table id, and index.csv; without \\fB\\-o\\fR all tables go to stdout, each after\n"
            "a \"# ID: TITLE\" line.", .alias = "-o", .value = "PATH", .help = "html: the page (default: stdout);\n"
                                                                "csv: a directory, one file per table (default: all\n"
                                                                "tables to stdout)",
     .type = CLI_T_STR, A(output)},
    {.name = "--format",
     .man = "CSV tables hold every number the charts draw; numbers are printed with the\n"
            "fewest digits that read back as the same value.", .value = "html|csv", .help = "output format", .dflt = "html", .type = CLI_T_ENUM, A(csv),
     .enums = formats},
    {.name = "--title",
     .man = "Page title.", .value = "TEXT", .help = "page title", .type = CLI_T_STR, A(title)},
    {.name = "--label",
     .man = "Series name of the next result, in order; default: a fileio run's own label,\n"
            "the device model, or the target's file name (the result file name when two\n"
            "would clash).", .value = "NAME", .help = "series name of the next result, in order (repeat)",
     .type = CLI_T_STRS, A(labels), CLI_COUNT(struct report_args, nlabels)},
    {.name = "--baseline", .value = "N", .help = "ratios divide by result N (1-based)", .dflt = "1",
     .type = CLI_T_UINT, A(baseline), .ulo = 1, .uhi = REPORT_MAX_RESULTS},
    {.name = "--archive",
     .man = "The archive that selectors read. A \\fIRESULT.json\\fR may be an archive\n"
            "selector (see ARCHIVE); each result it names is one more result.", .value = "PATH", .help = "the archive that selectors read (docs/archive.md)",
     .type = CLI_T_STR, A(archive)},
    CLI_TEXT("\n"
             "RESULT.json may be an archive selector: archive:ID, archive:latest?device=X&n=5,\n"
             "archive:best?workload=Y&n=3 (each result it names is one more result). With\n"
             "several results the page adds a comparables chart per profile (one bar per\n"
             "device) and, for a device with results from several times, its trend."),
    CLI_OPTS_END,
};

#undef A

const struct cli_cmd_opts report_cmd_opts = {.cmd = "report", .man_section = "REPORT", .opts = report_opts,
                                             .col = 25};

static int report_operand(const char *s, void *cfg)
{
    struct report_args *a = cfg;
    if (a->npaths >= REPORT_MAX_RESULTS) {
        cli_err("report: at most %d result files in one report", REPORT_MAX_RESULTS);
        return -1;
    }
    a->paths[a->npaths++] = s;
    return 0;
}

/* The options and result files. 0, 1 after --help, -1 after a one-line
 * error. */
static int report_parse(int argc, char **argv, struct report_args *a)
{
    int rc = cli_opts_parse(&report_cmd_opts, argc, argv, a, NULL, report_operand);
    if (rc)
        return rc;
    if (!a->npaths) {
        cli_err("report: which results? usage: ssdbench report RESULT.json... -o report.html");
        return -1;
    }
    if (a->nlabels > a->npaths) {
        cli_err("report: %zu --label options for %zu result file%s", a->nlabels, a->npaths, a->npaths == 1 ? "" : "s");
        return -1;
    }
    struct stat st;
    if (a->csv && a->output && strcmp(a->output, "-") != 0 && stat(a->output, &st) == 0 && !S_ISDIR(st.st_mode)) {
        cli_err("report: %s: not a directory (--format csv writes one file per table into a directory)", a->output);
        return -1;
    }
    /* a page is a file: a directory (or a missing one) is bad input, found
     * before any result is read */
    char oerr[512];
    if (!a->csv && a->output && outfile_check(a->output, oerr, sizeof(oerr)) < 0) {
        cli_err("report: -o %s", oerr);
        return -1;
    }
    if (a->baseline > a->npaths) {
        cli_err("report: --baseline %u: there %s only %zu result%s", a->baseline, a->npaths == 1 ? "is" : "are", a->npaths,
                a->npaths == 1 ? "" : "s");
        return -1;
    }

    return 0;
}

/* Loads the results, builds the report and writes it as asked. */
static int report_write(const struct report_args *a)
{
    struct cli_loaded ld[REPORT_MAX_RESULTS];
    struct html_report_input in[REPORT_MAX_RESULTS];
    char err[512];
    int status = CLI_EXIT_OK;
    size_t nloaded = 0;
    /* a selector may name several results: each is one more input */
    for (size_t k = 0; k < a->npaths; k++)
        if (cli_load_named(a->paths[k], a->archive, ld, REPORT_MAX_RESULTS, &nloaded) < 0) {
            status = CLI_EXIT_USAGE;
            break;
        }
    for (size_t k = 0; k < nloaded; k++)
        in[k] = (struct html_report_input){ld[k].doc, ld[k].name, k < a->nlabels ? a->labels[k] : NULL};
    if (status == CLI_EXIT_OK) {
        struct html_report_opts o = {.title = a->title, .baseline = a->baseline - 1};
        struct html_report *rep = html_build(in, nloaded, &o, err, sizeof(err));
        if (!rep) {
            cli_err("%s", err);
            status = CLI_EXIT_FAIL;
        } else if (!a->csv) {
            status = write_html(rep, a->output);
        } else if (a->output && strcmp(a->output, "-") != 0) {
            if (report_csv_write_dir(rep, a->output, err, sizeof(err)) < 0) {
                cli_err("%s", err);
                status = CLI_EXIT_FAIL;
            }
        } else if (report_csv_write_stream(stdout, rep) < 0 || fflush(stdout) != 0) {
            cli_err("report: cannot write to stdout");
            status = CLI_EXIT_FAIL;
        }
        html_report_free(rep);
    }
    cli_loaded_free(ld, nloaded);
    return status;
}

int cmd_report(int argc, char **argv)
{
    struct report_args a = {.baseline = 1};
    int rc = report_parse(argc, argv, &a);
    if (rc)
        return rc > 0 ? CLI_EXIT_OK : CLI_EXIT_USAGE;
    return report_write(&a);
}
