/* main.c - ssdbench's entry point: dispatches to one subcommand. The
 * commands that run a workload come from the registry (cli/workloads.h) and
 * run through its glue; the others (reading results, preparing devices) are
 * plain functions. Invoked as `fio` (a symlink), it is fio mode instead
 * (cli/fio_mode.h). */
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "base/cluster.h"
#include "cli/cli.h"
#include "cli/cli_opts.h"
#include "cli/commands.h"
#include "cli/fio_mode.h"
#include "cli/workloads.h"
#ifdef SSDBENCH_MPI
#include "mpi/mpi_cluster.h"
#endif

/* In the order of `ssdbench --help`; fn NULL: a workload command, its
 * summary and run from the registry. */
struct command {
    const char *name;
    int (*fn)(int argc, char **argv);
    const char *summary;
};

static const struct command commands[] = {
    {"run", NULL, NULL},
    {"show", cmd_show, "re-render a saved result (text, json, csv, fio-json)"},
    {"recover", cmd_recover, "turn the RESULT.partial journal of an unfinished run into a result"},
    {"report", cmd_report, "charts and tables of saved results: one self-contained HTML page, or CSV"},
    {"fileio", NULL, NULL},
    {"act", NULL, NULL},
    {"act-prep", cmd_act_prep, "ACT's device preparation: zero fill, then random fill, in parallel"},
    {"act-analyze", cmd_act_analyze, "ACT slice tables and certification verdict from an ACT log"},
    {"suite", NULL, NULL},
    {"pts", NULL, NULL},
    {"profiles", cmd_profiles, "list the workload profiles (built-in and from files) with their definitions"},
    {"compare", cmd_compare, "side-by-side tables of saved results with ratio columns (B/A, C/A)"},
    {"archive", cmd_archive, "the results archive: file, list, show, export and remove archived results"},
    {"check", cmd_check, "the regression gate: a result against the archived history of its device and workload"},
    {"purge", cmd_purge, "secure discard, discard or zero fill a device, and record the method"},
    {"info", cmd_info, "a device's identity, queue settings, write cache, NVMe namespace and health (read-only)"},
};

#define NCOMMANDS (sizeof(commands) / sizeof(commands[0]))

static void usage(FILE *f)
{
    fprintf(f, "usage: ssdbench COMMAND [options]\n\ncommands:\n");
    for (unsigned i = 0; i < NCOMMANDS; i++)
        fprintf(f, "  %-12s %s\n", commands[i].name,
                commands[i].fn ? commands[i].summary : workload_find(cli_workloads, commands[i].name)->summary);
    fprintf(f, "\n'ssdbench COMMAND --help' describes a command's options; man ssdbench has them all.\n"
               "Other options: --version, --help.\n");
}

static int dispatch(int argc, char **argv, struct cluster *cl)
{
    /* installed or linked as fio: fio's command line, no subcommand */
    if (argc > 0 && fio_mode_invoked(argv[0]))
        return fio_mode_main(argc, argv, cl);
    if (argc < 2) {
        usage(stderr);
        return CLI_EXIT_USAGE;
    }
    const char *cmd = argv[1];
    /* help read through a pager or `| head` ends quietly when the reader
     * goes away (exit 0, not 141) */
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
            signal(SIGPIPE, SIG_IGN);
    if (!strcmp(cmd, "--version") || !strcmp(cmd, "-V")) {
        printf("ssdbench %s\n", SSDBENCH_VERSION);
        return 0;
    }
    /* what the option tables say: scripts/gen-man.sh, scripts/gen-options-doc.sh */
    if (!strcmp(cmd, "--dump-options")) {
        if (argc < 3 || argc > 4 || cli_opts_dump(stdout, argv[2], argc == 4 ? argv[3] : NULL) < 0) {
            cli_err("--dump-options: give man, md or names, and optionally a command with a table");
            return CLI_EXIT_USAGE;
        }
        return 0;
    }
    if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h") || !strcmp(cmd, "help")) {
        usage(stdout);
        return 0;
    }
    const struct workload_cmd *w = workload_find(cli_workloads, cmd);
    if (w)
        return cli_workload_main(w, argc - 1, argv + 1, cl);
    for (unsigned i = 0; i < NCOMMANDS; i++)
        if (commands[i].fn && !strcmp(cmd, commands[i].name))
            /* commands that run no workload run once, on rank 0 */
            return cl->rank == 0 ? commands[i].fn(argc - 1, argv + 1) : 0;
    const char *names[NCOMMANDS + 1];
    for (unsigned i = 0; i < NCOMMANDS; i++)
        names[i] = commands[i].name;
    names[NCOMMANDS] = NULL;
    const char *s = cli_suggest(cmd, names);
    if (s)
        cli_err("unknown command '%s' (did you mean '%s'?)", cmd, s);
    else
        cli_err("unknown command '%s' (see ssdbench --help)", cmd);
    return CLI_EXIT_USAGE;
}

/* The MPI build (make MPI=1) runs every command as one rank of the job
 * mpirun started (src/mpi/); the plain build is rank 0 of 1. */
int main(int argc, char **argv)
{
    struct cluster cl;
#ifdef SSDBENCH_MPI
    if (mpi_cluster_init(&cl, &argc, &argv) < 0)
        return CLI_EXIT_FAIL;
    return mpi_cluster_finish(&cl, dispatch(argc, argv, &cl));
#else
    cluster_single(&cl);
    return dispatch(argc, argv, &cl);
#endif
}
