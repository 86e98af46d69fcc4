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
#include "cli/cli_archive.h"
#include "cli/commands.h"
#include "base/outfile.h"
#include "output/html_build.h"
#include "output/html_report.h"
#include "output/report_csv.h"
#include "result/result.h"

#define REPORT_MAX_RESULTS HTML_REPORT_MAX_IN

static void usage(FILE *f)
{
    fprintf(f,
            "usage: ssdbench report [options] RESULT.json...\n"
            "\n"
            "Charts and tables of saved results as one self-contained HTML page (no\n"
            "network, no scripts; prints and reads on a phone), or as CSV tables.\n"
            "Several results are overlaid on the same axes, with ratio tables.\n"
            "\n"
            "  -o, --output PATH      html: the page (default: stdout);\n"
            "                         csv: a directory, one file per table (default: all\n"
            "                         tables to stdout)\n"
            "  --format html|csv      output format (default html)\n"
            "  --title TEXT           page title\n"
            "  --label NAME           series name of the next result, in order (repeat)\n"
            "  --baseline N           ratios divide by result N (1-based; default 1)\n"
            "  --archive PATH         the archive that selectors read (docs/archive.md)\n"
            "\n"
            "RESULT.json may be an archive selector: archive:ID, archive:latest?device=X&n=5,\n"
            "archive:best?workload=Y&n=3 (each result it names is one more result). With\n"
            "several results the page adds a comparables chart per profile (one bar per\n"
            "device) and, for a device with results from several times, its trend.\n");
}

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

/* The options and result files. 0, 1 after --help, -1 after a one-line
 * error. */
static int report_parse(int argc, char **argv, struct report_args *a)
{
    bool operands = false;
    for (int i = 1; i < argc; i++) {
        const char *v;
        int save = i;
        if (!operands && !strcmp(argv[i], "--")) {
            operands = true;
            continue;
        }
        if (operands) { /* after `--`: result files */
            if (a->npaths >= REPORT_MAX_RESULTS) {
                cli_err("report: at most %d result files in one report", REPORT_MAX_RESULTS);
                return -1;
            }
            a->paths[a->npaths++] = argv[i];
            continue;
        }
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            usage(stdout);
            return 1;
        }
        if ((v = cli_opt_value("--format", &i, argc, argv))) {
            if (!strcmp(v, "html"))
                a->csv = false;
            else if (!strcmp(v, "csv"))
                a->csv = true;
            else {
                cli_err("report: --format: unknown format '%s' (use html or csv)", v);
                return -1;
            }
            continue;
        }
        i = save;
        if ((v = cli_opt_value("--output", &i, argc, argv)) || (i = save, v = cli_opt_value("-o", &i, argc, argv))) {
            a->output = v;
            continue;
        }
        i = save;
        if (cli_archive_option(&i, argc, argv, &a->archive))
            continue;
        if ((v = cli_opt_value("--title", &i, argc, argv))) {
            a->title = v;
            continue;
        }
        i = save;
        if ((v = cli_opt_value("--label", &i, argc, argv))) {
            if (a->nlabels >= REPORT_MAX_RESULTS) {
                cli_err("report: --label: at most %d labels", REPORT_MAX_RESULTS);
                return -1;
            }
            a->labels[a->nlabels++] = v;
            continue;
        }
        i = save;
        if ((v = cli_opt_value("--baseline", &i, argc, argv))) {
            unsigned b;
            if (!cli_unsigned(v, 1, REPORT_MAX_RESULTS, &b)) {
                cli_err("report: --baseline: '%s' is not a result number (1 is the first result)", v);
                return -1;
            }
            a->baseline = b;
            continue;
        }
        i = save;
        if (argv[i][0] == '-' && argv[i][1]) {
            static const char *const opts[] = {"--format", "--output", "--title", "--label", "--baseline",
                                               "--archive", "--help", NULL};
            const char *s = cli_suggest(argv[i], opts);
            if (s)
                cli_err("report: unknown option '%s' (did you mean '%s'?)", argv[i], s);
            else
                cli_err("report: unknown option '%s' (see ssdbench report --help)", argv[i]);
            return -1;
        }
        if (a->npaths >= REPORT_MAX_RESULTS) {
            cli_err("report: at most %d result files in one report", REPORT_MAX_RESULTS);
            return -1;
        }
        a->paths[a->npaths++] = argv[i];
    }
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
