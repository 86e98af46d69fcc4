/* workloads.c - see workloads.h: the table of workload commands and the glue
 * every one of them runs through. */
#include <stdlib.h>

#include "cli/cli.h"
#include "cli/workloads.h"

const struct workload_cmd *const cli_workloads[] = {
    &run_workload, &fileio_workload, &act_workload, &suite_workload, NULL,
};

int cli_workload_main(const struct workload_cmd *w, int argc, char **argv)
{
    struct cli_output out;
    struct cli_journal journal = {0};
    cli_output_init(&out);
    out.journal = &journal;
    void *cfg = calloc(1, w->cfg_size);
    if (!cfg)
        return CLI_EXIT_FAIL;
    int code = w->parse(argc, argv, cfg, &out);
    if (code == WL_PARSED) {
        struct session ses;
        if (session_open(&ses, argc, argv, &out.consent, out.quiet ? NULL : cli_status) < 0) {
            cli_err("%s: out of memory", w->name);
            code = CLI_EXIT_FAIL;
        } else if (cli_journal_open(&out, &ses) < 0) {
            code = CLI_EXIT_USAGE;
            session_close(&ses);
        } else {
            code = w->run(&ses, cfg, &out);
            if (ses.done && w->render)
                code = w->render(&ses, cfg, &out, code);
            cli_journal_end(&out, ses.done);
            session_close(&ses);
        }
    }
    if (w->free)
        w->free(cfg);
    free(cfg);
    return code;
}
