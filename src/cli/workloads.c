/* workloads.c - see workloads.h: the table of workload commands and the glue
 * every one of them runs through. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/cli_archive.h"
#include "cli/workloads.h"

const struct workload_cmd *const cli_workloads[] = {
    &run_workload, &fileio_workload, &act_workload, &suite_workload, &pts_workload, NULL,
};

/* argv with {rank}, {host} ... filled in (base/cluster.h), NULL-terminated,
 * in one allocation; NULL when out of memory or too long. */
static char **subst_argv(const struct cluster *cl, int argc, char **argv)
{
    size_t len = 0;
    for (int i = 0; i < argc; i++)
        len += strlen(argv[i]) * (CLUSTER_HOST_MAX / 6 + 1) + 16; /* "{host}" (6) -> a host name */
    char **v = malloc((size_t)(argc + 1) * sizeof(*v) + len);
    if (!v)
        return NULL;
    char *p = (char *)(v + argc + 1), *end = p + len;
    for (int i = 0; i < argc; i++) {
        int n = cluster_subst(cl, argv[i], p, (size_t)(end - p));
        if (n < 0) {
            free(v);
            return NULL;
        }
        v[i] = p;
        p += n + 1;
    }
    v[argc] = NULL;
    return v;
}

int cli_workload_main(const struct workload_cmd *w, int argc, char **argv, struct cluster *cl)
{
    struct cli_output out;
    struct cli_journal journal = {0};
    cli_output_init(&out);
    out.journal = &journal;
    /* a rank other than 0 runs its part and stays silent */
    out.follower = cl && cl->rank != 0;
    if (out.follower && !freopen("/dev/null", "w", stdout)) {
        cli_err("rank %u: cannot silence standard output", cl->rank);
        return CLI_EXIT_FAIL;
    }
    void *cfg = calloc(1, w->cfg_size);
    char **sargv = subst_argv(cl, argc, argv);
    if (!cfg || !sargv) {
        cli_err("%s: out of memory", w->name);
        free(cfg);
        free(sargv);
        return CLI_EXIT_FAIL;
    }
    int code = w->parse(argc, sargv, cfg, &out);
    if (out.follower)
        out.quiet = true;
    if (code == WL_PARSED && out.ntags && !out.archive) {
        cli_err("%s: --tag labels a result filed with --archive; add --archive", w->name);
        code = CLI_EXIT_USAGE;
    }
    if (code == WL_PARSED) {
        struct session ses;
        char err[512];
        if (session_open(&ses, argc, argv, &out.consent, out.quiet ? NULL : cli_status) < 0) {
            cli_err("%s: out of memory", w->name);
            code = CLI_EXIT_FAIL;
        } else if (session_cluster(&ses, cl, argc, argv, out.ranks_per_host, err, sizeof(err)) < 0) {
            if (!out.follower)
                cli_err("%s", err);
            code = CLI_EXIT_USAGE;
            session_close(&ses);
        } else if (cli_journal_open(out.journal, out.result, &ses) < 0) { /* rank 0's: --result is rank 0's */
            code = CLI_EXIT_USAGE;
            session_close(&ses);
        } else {
            ses.live = !out.quiet && cli_live_terminal();
            /* every rank's errors from here on are agreed ones, which rank
             * 0 prints naming the rank; an abort still speaks (errfd) */
            if (out.follower && (cl->errfd = dup(2)) >= 0 && !freopen("/dev/null", "w", stderr))
                cl->errfd = 2;
            code = w->run(&ses, cfg, &out);
            if (ses.done && w->render)
                code = w->render(&ses, cfg, &out, code);
            /* after the output, where it is read, on stderr; the drop-ins
             * (fio mode, fileio) print what fio and sysbench print, and
             * the result keeps host.busy and each target's guard_note */
            if (ses.done && !out.follower && strcmp(w->name, "fio") && strcmp(w->name, "fileio")) {
                cli_note_guard(ses.doc);
                cli_warn_busy(ses.doc);
            }
            /* after the result file is written: filing never touches it */
            if (ses.done && cli_archive_workload(ses.doc, &out) < 0 && code == CLI_EXIT_OK)
                code = CLI_EXIT_FAIL;
            cli_journal_end(out.journal, ses.done);
            session_close(&ses);
        }
    }
    if (w->free)
        w->free(cfg);
    free(cfg);
    free(sargv);
    return code;
}
