/* cmd_compare.c - `ssdbench compare A.json B.json [C.json ...]`: side-by-side
 * tables with ratio columns for any saved results. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cli_archive.h"
#include "cli/commands.h"
#include "base/outfile.h"
#include "base/textsafe.h"
#include "output/compare.h"
#include "result/result.h"

int cmd_compare(int argc, char **argv)
{
    const char *files[COMPARE_MAX_DOCS];
    unsigned n = 0;
    struct compare_opts co = {0};
    const char *output = NULL, *archive = NULL;
    char err[1024];
    bool operands = false;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v;
        if (!operands && !strcmp(a, "--")) {
            operands = true;
            continue;
        }
        if (operands) { /* after `--`: result files */
            if (n == COMPARE_MAX_DOCS) {
                cli_err("compare: at most %d result files", COMPARE_MAX_DOCS);
                return CLI_EXIT_USAGE;
            }
            files[n++] = a;
            continue;
        }
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            printf("usage: ssdbench compare [--metrics LIST] [--scope SCOPE] [--label L]... [--baseline N|LABEL]\n"
                   "                        [--format text|csv] [-o FILE] A.json B.json [C.json ...]\n"
                   "Side-by-side tables of saved results with ratio columns against a baseline, so\n"
                   "that above 1 means better: throughput X / baseline, latency baseline / X. Rows are\n"
                   "matched by phase name (suites: one table per profile, one row per sweep point).\n"
                   "  --metrics LIST   iops mbps mibps pct lat avg-lat max sd avg-sd pN read-iops\n"
                   "                   write-iops read-lat write-lat read-pN write-pN (default\n"
                   "                   iops,mbps,lat,p99; fileio results: mibps,pct as sysbench prints)\n"
                   "  --scope SCOPE    results scope to compare (default total; e.g. target:t1)\n"
                   "  --label L        series label, once per file in order (default: the result's\n"
                   "                   label, else the file name)\n"
                   "  --baseline N|LABEL  the reference series (default the first file)\n"
                   "  --format text|csv  what to print (default text)\n"
                   "  --output FILE, -o FILE  write it to FILE instead of standard output\n"
                   "  --archive PATH   the archive that selectors read (docs/archive.md)\n"
                   "A.json may be an archive selector: archive:ID, archive:latest?device=X&n=3,\n"
                   "archive:best?workload=Y (each result it names is one series).\n");
            return 0;
        } else if ((v = cli_opt_value("--metrics", &i, argc, argv))) {
            if (compare_check_metrics(v, err, sizeof(err)) < 0) {
                cli_err("%s", err);
                return CLI_EXIT_USAGE;
            }
            co.metrics = v;
        } else if (cli_archive_option(&i, argc, argv, &archive)) {
            continue;
        } else if ((v = cli_opt_value("--label", &i, argc, argv))) {
            if (co.nlabels == COMPARE_MAX_DOCS) {
                cli_err("--label: at most %d labels", COMPARE_MAX_DOCS);
                return CLI_EXIT_USAGE;
            }
            co.labels[co.nlabels++] = v;
        } else if ((v = cli_opt_value("--baseline", &i, argc, argv))) {
            co.baseline = v;
        } else if ((v = cli_opt_value("--scope", &i, argc, argv))) {
            co.scope = v;
        } else if ((v = cli_opt_value("--format", &i, argc, argv))) {
            if (!strcmp(v, "csv"))
                co.csv = true;
            else if (strcmp(v, "text") != 0) {
                cli_err("--format: compare prints text or csv (got '%s')", v);
                return CLI_EXIT_USAGE;
            }
        } else if ((v = cli_opt_value("--output", &i, argc, argv)) ||
                   (v = cli_opt_value("-o", &i, argc, argv))) {
            output = v;
        } else if (a[0] == '-' && a[1]) {
            static const char *const names[] = {"--metrics", "--scope", "--label", "--baseline", "--format",
                                                "--output", "--help", NULL};
            char key[64];
            snprintf(key, sizeof(key), "%.*s", (int)strcspn(a, "="), a);
            const char *sg = cli_suggest(key, names);
            if (sg)
                cli_err("compare: unknown option '%s' (did you mean '%s'?)", a, sg);
            else
                cli_err("compare: unknown option '%s' (see ssdbench compare --help)", a);
            return CLI_EXIT_USAGE;
        } else if (n == COMPARE_MAX_DOCS) {
            cli_err("compare: at most %d result files", COMPARE_MAX_DOCS);
            return CLI_EXIT_USAGE;
        } else {
            files[n++] = a;
        }
    }
    cJSON *docs[COMPARE_MAX_DOCS] = {0};
    struct cli_loaded ld[COMPARE_MAX_DOCS];
    size_t nld = 0;
    int status = CLI_EXIT_USAGE;
    for (unsigned i = 0; i < n; i++)
        if (cli_load_named(files[i], archive, ld, COMPARE_MAX_DOCS, &nld) < 0)
            goto done;
    if (nld < 2) {
        cli_err("compare: give at least two result files (ssdbench compare A.json B.json)");
        goto done;
    }
    n = (unsigned)nld;
    for (unsigned i = 0; i < n; i++) {
        docs[i] = ld[i].doc;
        files[i] = ld[i].name;
    }
    struct outfile of;
    if (outfile_open(&of, output ? output : "-", err, sizeof(err)) < 0) {
        cli_err("%s", err);
        status = CLI_EXIT_FAIL;
        goto done;
    }
    /* text: control characters in labels and names escaped; CSV quotes */
    FILE *safe = co.csv ? NULL : textsafe_open(of.f);
    FILE *f = safe ? safe : of.f;
    if (!co.csv && !safe) {
        cli_err("out of memory");
    } else if (render_compare(f, (const cJSON *const *)docs, files, n, &co, err, sizeof(err)) < 0) {
        cli_err("%s", err);
    } else {
        status = 0;
    }
    if (safe)
        textsafe_close(safe); /* a failed write shows as an error on of.f */
    if (status != 0) {
        outfile_abort(&of);
    } else if (outfile_commit(&of, err, sizeof(err)) < 0) {
        cli_err("%s", err);
        status = CLI_EXIT_FAIL;
    }
done:
    cli_loaded_free(ld, nld);
    return status;
}
