/* cmd_show.c - `ssdbench show RESULT.json`: re-renders a saved result in any
 * output format without re-running anything. */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cli_opts.h"
#include "base/textsafe.h"
#include "cli/commands.h"
#include "output/pts_text.h"
#include "output/suite_text.h"
#include "output/sysbench_text.h"
#include "result/result.h"

enum { O_SUMMARY = 1 };

static const struct cli_opt show_opts[] = {
    CLI_ROW(NULL, NULL, NULL, "usage: ssdbench show [options] RESULT.json\nRenders a saved result again.", 0),
    CLI_SHARED_NOTE("--format", "text, json, csv, fio-json, fio-json+, fio-normal or fio-terse"),
    CLI_ROW("--summary", NULL, NULL, "the summary table only", O_SUMMARY),
    CLI_SHARED("--output"),
    CLI_ROW("--help", "-h", NULL, "this text", 0),
    CLI_OPTS_END,
};

int cmd_show(int argc, char **argv)
{
    struct cli_output out;
    cli_output_init(&out);
    const char *path = NULL;
    bool summary_only = false;
    bool operands = false;
    for (int i = 1; i < argc; i++) {
        int c = operands ? 0 : cli_output_option(&i, argc, argv, &out);
        if (c < 0)
            return CLI_EXIT_USAGE;
        if (c > 0)
            continue;
        const char *v;
        int id = cli_opts_next("show", show_opts, &i, argc, argv, &v, &operands);
        if (id == CLI_OPT_HELP) {
            cli_opts_print(stdout, show_opts, 27);
            return 0;
        }
        if (id == CLI_OPT_ERROR)
            return CLI_EXIT_USAGE;
        if (id == O_SUMMARY)
            summary_only = true;
        if (id != CLI_OPT_OPERAND)
            continue;
        if (path) {
            cli_err("show: one result file at a time (got '%s' and '%s')", path, argv[i]);
            return CLI_EXIT_USAGE;
        }
        path = argv[i];
    }
    if (!path) {
        cli_err("show: which result? usage: ssdbench show RESULT.json");
        return CLI_EXIT_USAGE;
    }
    char err[512];
    cJSON *doc = result_load(path, err, sizeof(err));
    if (!doc) {
        cli_err("%s", err);
        return CLI_EXIT_USAGE;
    }
    struct render_opts ro = {.summary = true, .details = !summary_only};
    int rc;
    /* text of a suite or fileio result looks like what that command printed */
    bool own_text = out.format == FMT_TEXT && !out.output &&
                    (cJSON_GetObjectItemCaseSensitive(doc, "pts") || cJSON_GetObjectItemCaseSensitive(doc, "suite") ||
                     cJSON_GetObjectItemCaseSensitive(doc, "fileio"));
    /* names and paths in a result can hold any bytes: escaped on the terminal */
    FILE *safe = own_text ? textsafe_open(stdout) : NULL;
    if (own_text && !safe) {
        rc = CLI_EXIT_FAIL;
        cli_err("out of memory");
    } else if (own_text && cJSON_GetObjectItemCaseSensitive(doc, "pts")) {
        render_pts_text(safe, doc);
        rc = 0;
    } else if (own_text && cJSON_GetObjectItemCaseSensitive(doc, "suite")) {
        render_suite_text(safe, doc, &ro);
        rc = 0;
    } else if (own_text) {
        rc = sysbench_text_render(safe, doc, NULL, 0) < 0 ? CLI_EXIT_FAIL : 0;
    } else {
        rc = cli_emit(doc, &out, &ro, 0);
    }
    if (safe && (textsafe_close(safe) < 0 || fflush(stdout) != 0) && rc == 0)
        rc = CLI_EXIT_FAIL;
    if (rc == 0)
        cli_warn_busy(doc);
    cJSON_Delete(doc);
    return rc;
}
