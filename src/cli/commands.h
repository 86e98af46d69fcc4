/* commands.h - the subcommands main() dispatches to. Each takes argv with
 * argv[0] = its own name and returns the process exit status. The commands
 * that run a workload are registry entries instead (cli/workloads.h). */
#ifndef SSDBENCH_COMMANDS_H
#define SSDBENCH_COMMANDS_H

#include "cli/cmd_act_analyze.h"

int cmd_show(int argc, char **argv);
int cmd_act_prep(int argc, char **argv);
int cmd_profiles(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_purge(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_recover(int argc, char **argv);
int cmd_info(int argc, char **argv);
int cmd_archive(int argc, char **argv);
int cmd_check(int argc, char **argv);

#endif
