/* cli_tables.c - the registry of the commands' option tables (see
 * cli_tables.h), in the man page's order. */
#include <stddef.h>

#include "cli/cli_tables.h"

const struct cli_cmd_opts *const cli_tables[] = {
    &run_cmd_opts,
    &suite_cmd_opts,
    &act_cmd_opts,
    &act_analyze_cmd_opts,
    &compare_cmd_opts,
    &report_cmd_opts,
    &archive_cmd_opts,
    &check_cmd_opts,
    &pts_cmd_opts,
    &fileio_cmd_opts,
    NULL,
};
