/* workloads.c - see workloads.h: the table of workload commands and the glue
 * every one of them runs through. */
#include <stdlib.h>

#include "cli/cli.h"
#include "cli/workloads.h"

const struct workload_cmd *const cli_workloads[] = {
    &run_workload, &fileio_workload, &act_workload, &suite_workload, &pts_workload, NULL,
};

int cli_workload_main(const struct workload_cmd *w, int argc, char **argv)
{
    struct cli_output out;
    cli_output_init(&out);
    void *cfg = calloc(1, w->cfg_size);
    if (!cfg)
        return CLI_EXIT_FAIL;
    int code = w->parse(argc, argv, cfg, &out);
    if (code == WL_PARSED) {
        struct session ses;
        if (session_open(&ses, argc, argv, &out.consent, out.quiet ? NULL : cli_status) < 0) {
            cli_err("%s: out of memory", w->name);
            code = CLI_EXIT_FAIL;
        } else {
            code = w->run(&ses, cfg, &out);
            if (ses.done && w->render)
                code = w->render(&ses, cfg, &out, code);
            session_close(&ses);
        }
    }
    if (w->free)
        w->free(cfg);
    free(cfg);
    return code;
}
