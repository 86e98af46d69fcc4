/* suite_cmd.h - `ssdbench suite` as a workload: the parsed options (the
 * suite's configuration, extra profile files, a baseline, --dry-run) and
 * the run in a session: loading the profiles, checking the configuration,
 * printing the plan for --dry-run, then suite_run. Progress lines go to
 * stderr unless quiet; the CLI renders the finished document. */
#ifndef SSDBENCH_SUITE_CMD_H
#define SSDBENCH_SUITE_CMD_H

#include <stdbool.h>

#include "suite/suite.h"
#include "workload/session.h"

#define SUITE_MAX_PROFILE_FILES 16

struct suite_args {
    struct suite_cfg *cfg;
    const char *pfiles[SUITE_MAX_PROFILE_FILES];
    unsigned npfiles;
    unsigned nbaselines;        /* --baseline RESULT.json (repeatable) */
    const char *baselines[SUITE_MAX_BASELINES];
    bool dry;                   /* --dry-run: print the plan, run nothing */
    bool quiet;                 /* no progress lines */
};

/* Runs the suite in s. Returns a session status (WL_OK, WL_FAIL, WL_USAGE or
 * plan_exit_code's) after printing a one-line error for what failed; *ran is
 * true when the document holds phases and is finished, so it is worth
 * rendering and saving. */
int suite_workload_run(struct session *s, const struct suite_args *a, bool *ran);

#endif
