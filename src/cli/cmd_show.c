/* cmd_show.c - `ssdbench show RESULT.json`: re-renders a saved result in any
 * output format without re-running anything. */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "base/textsafe.h"
#include "cli/commands.h"
#include "output/pts_text.h"
#include "output/suite_text.h"
#include "output/sysbench_text.h"
#include "result/result.h"

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
            printf("usage: ssdbench show [--format text|json|csv|fio-json|fio-json+|fio-normal|fio-terse] "
                   "[--summary] [-o FILE] RESULT.json\n");
            return 0;
        }
        if (!strcmp(argv[i], "--summary")) {
            summary_only = true;
            continue;
        }
        if (argv[i][0] == '-' && argv[i][1]) {
            cli_err("show: unknown option '%s' (see ssdbench show --help)", argv[i]);
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
    cJSON_Delete(doc);
    return rc;
}
