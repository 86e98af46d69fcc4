/* cmd_recover.c - `ssdbench recover [JOURNAL] [-o RESULT]`: puts back
 * the write cache of every disk a run that is gone left changed (its
 * record, prep/prep_wcjournal.h), and turns the RESULT.partial journal
 * of a run that did not finish (kill -9, a failed final write) into a
 * result file marked incomplete. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cli_opts.h"
#include "cli/commands.h"
#include "base/slurp.h"
#include "result/journal.h"
#include "result/result.h"
#include "prep/prep_wcjournal.h"

static void say_wcache(void *arg, const char *line)
{
    (void)arg;
    fprintf(stderr, "ssdbench: recover: %s\n", line);
}

enum { O_OUTPUT = 1 };

static const struct cli_opt recover_opts[] = {
    CLI_ROW(NULL, NULL, NULL,
     "usage: ssdbench recover [JOURNAL] [-o RESULT]\n"
     "Turns JOURNAL, the RESULT.partial a run leaves while it runs, into a result.\n"
     "First puts back the write cache of any disk a run that did not finish left\n"
     "changed (recorded in $SSDBENCH_STATE_DIR, default /run/ssdbench), and says so.", 0),
    CLI_ROW("--output", "-o", "RESULT", "write the recovered result here (default: stdout)", O_OUTPUT),
    CLI_ROW("--help", "-h", NULL, "this text", 0),
    CLI_OPTS_END,
};

int cmd_recover(int argc, char **argv)
{
    const char *path = NULL, *output = "-";
    bool operands = false;
    for (int i = 1; i < argc; i++) {
        const char *v;
        int id = cli_opts_next("recover", recover_opts, &i, argc, argv, &v, &operands);
        if (id == CLI_OPT_HELP) {
            cli_opts_print(stdout, recover_opts, 31);
            return 0;
        }
        if (id == CLI_OPT_ERROR)
            return CLI_EXIT_USAGE;
        if (id == O_OUTPUT)
            output = v;
        if (id != CLI_OPT_OPERAND)
            continue;
        if (path) {
            cli_err("recover: one journal at a time (got '%s' and '%s')", path, argv[i]);
            return CLI_EXIT_USAGE;
        }
        path = argv[i];
    }
    /* the disks first: a write cache left changed outlives any journal */
    int nwc = wcj_recover_all(say_wcache, NULL);
    if (!path) {
        if (nwc != 0)
            return nwc < 0 ? CLI_EXIT_FAIL : 0;
        cli_err("recover: no write cache left changed; which journal? usage: ssdbench recover "
                "RESULT.partial [-o RESULT]");
        return CLI_EXIT_USAGE;
    }
    char err[512];
    size_t len;
    char *buf = slurp_named(path, "journal", RESULT_MAX_BYTES, &len, err, sizeof(err));
    if (!buf) {
        cli_err("%s", err);
        return CLI_EXIT_USAGE;
    }
    cJSON *doc = journal_parse(buf, len, path, err, sizeof(err));
    free(buf);
    if (!doc) {
        cli_err("%s", err);
        return CLI_EXIT_USAGE;
    }
    fprintf(stderr, "ssdbench: recover: %.0f completed interval%s in %d phase%s\n",
            result_num(doc, "recovered_intervals", 0), result_num(doc, "recovered_intervals", 0) == 1 ? "" : "s",
            cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(doc, "phases")),
            cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(doc, "phases")) == 1 ? "" : "s");
    int rc = result_write(doc, output, err, sizeof(err));
    cJSON_Delete(doc);
    if (rc < 0) {
        cli_err("%s", err);
        return CLI_EXIT_FAIL;
    }
    return 0;
}
