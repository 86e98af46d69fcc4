/* cli_tables.h - the option table of each command that has one
 * (cli_opts.h), for the registry cli_tables[] (cli_tables.c), which
 * --dump-options, the man page generator and the unit tests read. */
#ifndef SSDBENCH_CLI_TABLES_H
#define SSDBENCH_CLI_TABLES_H

#include "cli/cli_opts.h"

extern const struct cli_cmd_opts run_cmd_opts;
extern const struct cli_cmd_opts pts_cmd_opts;
extern const struct cli_cmd_opts suite_cmd_opts;
extern const struct cli_cmd_opts act_cmd_opts;
extern const struct cli_cmd_opts act_analyze_cmd_opts;
extern const struct cli_cmd_opts fileio_cmd_opts;
extern const struct cli_cmd_opts compare_cmd_opts;
extern const struct cli_cmd_opts report_cmd_opts;
extern const struct cli_cmd_opts check_cmd_opts;
extern const struct cli_cmd_opts archive_cmd_opts;

#endif
