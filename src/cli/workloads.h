/* workloads.h - the workload commands' registry entries (workload/workload.h),
 * one per cmd_*.c, the table main() looks commands up in, and the glue that
 * runs any of them. */
#ifndef SSDBENCH_WORKLOADS_H
#define SSDBENCH_WORKLOADS_H

#include "workload/workload.h"

extern const struct workload_cmd run_workload;
extern const struct workload_cmd fileio_workload;
extern const struct workload_cmd act_workload;
extern const struct workload_cmd suite_workload;
extern const struct workload_cmd pts_workload;

/* Every workload command, NULL-terminated. */
extern const struct workload_cmd *const cli_workloads[];

/* The one way a workload command runs: its parse (common output options
 * into a struct cli_output), a session with the consent and the live status
 * line (none with --quiet), its run, its render when the session is done.
 * cl is the ranks it runs on (base/cluster.h; one rank without mpirun):
 * parse sees argv with {rank}, {host} ... filled in, the session checks
 * that every rank runs the same version and command line, and only rank 0
 * prints, shows progress and writes --result/--output.
 * Returns the exit status. */
int cli_workload_main(const struct workload_cmd *w, int argc, char **argv, struct cluster *cl);

#endif
