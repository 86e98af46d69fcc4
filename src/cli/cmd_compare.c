/* cmd_compare.c - `ssdbench compare A.json B.json [C.json ...]`: side-by-side
 * tables with ratio columns for any saved results. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cli_archive.h"
#include "cli/cli_opts.h"
#include "cli/cli_tables.h"
#include "cli/commands.h"
#include "base/outfile.h"
#include "base/textsafe.h"
#include "output/compare.h"
#include "result/result.h"

/* What `compare` was asked for. */
struct compare_args {
    struct compare_opts co;
    const char *files[COMPARE_MAX_DOCS];
    unsigned n;
    const char *output, *archive;
};

static int set_metrics(const struct cli_ctx *c, const struct cli_opt *o, const char *v)
{
    char err[1024];
    (void)o;
    if (compare_check_metrics(v, err, sizeof(err)) < 0) {
        cli_err("%s", err);
        return -1;
    }
    ((struct compare_args *)c->cfg)->co.metrics = v;
    return 0;
}

static const struct cli_enum formats[] = {{"text", 0}, {"csv", 1}, {NULL, 0}};

#define A(f) CLI_AT(struct compare_args, f)

static const struct cli_opt compare_opts[] = {
    CLI_TEXT("usage: ssdbench compare [--metrics LIST] [--scope SCOPE] [--label L]... [--baseline N|LABEL]\n"
             "                        [--format text|csv] [-o FILE] A.json B.json [C.json ...]\n"
             "Side-by-side tables of saved results with ratio columns against a baseline, so\n"
             "that above 1 means better: throughput X / baseline, latency baseline / X. Rows are\n"
             "matched by phase name (suites: one table per profile, one row per sweep point)."),
    {.name = "--metrics", .value = "LIST", .help = "iops mbps mibps pct lat avg-lat max sd avg-sd pN read-iops\n"
                                                   "write-iops read-lat write-lat read-pN write-pN (default\n"
                                                   "iops,mbps,lat,p99; fileio results: mibps,pct as sysbench prints)",
     .type = CLI_T_CALL, .set = set_metrics},
    {.name = "--scope", .value = "SCOPE", .help = "results scope to compare (e.g. target:t1)", .dflt = "total",
     .type = CLI_T_STR, A(co.scope)},
    {.name = "--label", .value = "L", .help = "series label, once per file in order (default: the result's\n"
                                              "label, else the file name)",
     .type = CLI_T_STRS, A(co.labels), CLI_COUNT(struct compare_args, co.nlabels)},
    {.name = "--baseline", .value = "N|LABEL", .help = "the reference series", .dflt = "the first file",
     .type = CLI_T_STR, A(co.baseline)},
    {.name = "--format", .value = "text|csv", .help = "what to print", .dflt = "text", .type = CLI_T_ENUM,
     A(co.csv), .enums = formats},
    {.name = "--output", .alias = "-o", .value = "FILE", .help = "write it to FILE instead of standard output",
     .type = CLI_T_STR, A(output)},
    {.name = "--archive", .value = "PATH", .help = "the archive that selectors read (docs/archive.md)",
     .type = CLI_T_STR, A(archive)},
    CLI_TEXT("A.json may be an archive selector: archive:ID, archive:latest?device=X&n=3,\n"
             "archive:best?workload=Y (each result it names is one series)."),
    CLI_OPTS_END,
};

#undef A

const struct cli_cmd_opts compare_cmd_opts = {.cmd = "compare", .man_section = "COMPARE", .opts = compare_opts,
                                              .col = 19};

static int compare_operand(const char *s, void *cfg)
{
    struct compare_args *a = cfg;
    if (a->n == COMPARE_MAX_DOCS) {
        cli_err("compare: at most %d result files", COMPARE_MAX_DOCS);
        return -1;
    }
    a->files[a->n++] = s;
    return 0;
}

int cmd_compare(int argc, char **argv)
{
    struct compare_args a = {0};
    int rc = cli_opts_parse(&compare_cmd_opts, argc, argv, &a, NULL, compare_operand);
    if (rc)
        return rc > 0 ? 0 : CLI_EXIT_USAGE;
    struct compare_opts co = a.co;
    const char **files = a.files;
    unsigned n = a.n;
    const char *output = a.output, *archive = a.archive;
    char err[1024];
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
