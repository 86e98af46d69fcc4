/* workload.h - one interface for every command that runs a workload (run,
 * suite, act, fileio; pts next) and the registry the CLI picks them from.
 *
 * A command is: its name and one-line summary, its usage text, a parse
 * (argv -> the family's configuration, common output options into the
 * CLI's struct, one-line errors), a run (a session -> a finished document)
 * and a render (the finished document -> what the user sees). The CLI's
 * glue (cli/workloads.c) does the rest the same way for every command:
 * parse, open the session, run, render when the session is done, close.
 *
 * workload/ may not include a family (see docs/design.md "Floors"), so the
 * registry does not list them: the CLI fills a table with the entries
 * (cli/workloads.c, the one place that names every workload command) and
 * looks a name up with workload_find. struct cli_output is the CLI's
 * common options: a workload entry only passes the pointer along. */
#ifndef SSDBENCH_WORKLOAD_H
#define SSDBENCH_WORKLOAD_H

#include <stddef.h>
#include <stdio.h>

#include "workload/session.h"

struct cli_output;

/* What parse returns to go on to run; any other value is the exit status
 * (WL_OK after --help, WL_USAGE or WL_FAIL after a one-line error). */
#define WL_PARSED (-1)

struct workload_cmd {
    const char *name;           /* the subcommand, "run" */
    const char *summary;        /* its line in `ssdbench --help` */
    void (*usage)(FILE *f);     /* `ssdbench NAME --help` */
    size_t cfg_size;            /* the family's configuration, zeroed for parse */
    /* argv[0] is the name. Fills cfg and out; everything that can be
     * refused before anything runs is refused here. */
    int (*parse)(int argc, char **argv, void *cfg, struct cli_output *out);
    /* Runs the workload in s (s->ro has the consent and status line).
     * Sets s->done when the document is finished and worth rendering;
     * returns a session status. */
    int (*run)(struct session *s, void *cfg, struct cli_output *out);
    /* Saves and renders a done session's document; returns status, or a
     * failure status if writing failed. NULL: run rendered as it went. */
    int (*render)(struct session *s, void *cfg, const struct cli_output *out, int status);
    /* Frees what parse and run allocated in cfg (not cfg itself); may be NULL. */
    void (*free)(void *cfg);
};

/* The entry called name in the NULL-terminated table, or NULL. */
const struct workload_cmd *workload_find(const struct workload_cmd *const *table, const char *name);

#endif
