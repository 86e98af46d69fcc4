/* cmd_show.c - `ssdbench show RESULT.json`: re-renders a saved result in any
 * output format without re-running anything. */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cli_opts.h"
#include "cli/commands.h"
#include "output/pts_text.h"
#include "output/suite_text.h"
#include "output/sysbench_text.h"
#include "result/result.h"

static void show_usage(FILE *f)
{
    fprintf(f, "usage: ssdbench show [options] RESULT.json\n"
               "Renders a saved result again.\n"
               "  --format text|json|csv|fio-json|fio-json+|fio-normal|fio-terse  what to print (text)\n"
               "  --summary                the summary table only\n"
               "  --output FILE, -o FILE   write it to FILE instead of standard output\n");
}

int cmd_show(int argc, char **argv)
{
    struct cli_output out;
    cli_output_init(&out);
    const char *path = NULL;
    bool summary_only = false;
    for (int i = 1; i < argc; i++) {
        int c = cli_output_option(&i, argc, argv, &out);
        if (c < 0)
            return CLI_EXIT_USAGE;
        if (c > 0)
            continue;
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            show_usage(stdout);
            return 0;
        }
        if (!strcmp(argv[i], "--summary")) {
            summary_only = true;
            continue;
        }
        if (argv[i][0] == '-' && argv[i][1]) {
            cli_opts_unknown("show", argv[i], show_usage);
            return CLI_EXIT_USAGE;
        }
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
    if (out.format == FMT_TEXT && !out.output && cJSON_GetObjectItemCaseSensitive(doc, "pts")) {
        render_pts_text(stdout, doc);
        rc = 0;
    } else if (out.format == FMT_TEXT && !out.output && cJSON_GetObjectItemCaseSensitive(doc, "suite")) {
        render_suite_text(stdout, doc, &ro);
        rc = 0;
    } else if (out.format == FMT_TEXT && !out.output &&
               cJSON_GetObjectItemCaseSensitive(doc, "fileio")) {
        rc = sysbench_text_render(stdout, doc, NULL, 0) < 0 ? CLI_EXIT_FAIL : 0;
    } else {
        rc = cli_emit(doc, &out, &ro, 0);
    }
    cli_warn_busy(doc);
    cJSON_Delete(doc);
    return rc;
}
