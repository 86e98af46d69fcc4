/* act_ladder.h - `ssdbench act` as a workload: the parsed command (a config
 * or the --load shorthand, the loads, --find-max) and the loop that runs the
 * loads in a session. Each load writes its ACT log (stdout, or --log FILE
 * with -<L>x before the extension when there are several) and prints its
 * description, slice tables and verdict to stderr when the log is on
 * stdout, else to stdout; several loads end with the ladder table, and
 * --find-max with the highest passing load. */
#ifndef SSDBENCH_ACT_LADDER_H
#define SSDBENCH_ACT_LADDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "act/act_run.h"
#include "workload/session.h"

#define ACT_MAX_LOADS 64
#define ACT_MAX_SETS 64

struct act_args {
    const char *config;
    const char *devices[ACT_MAX_DEVICES];
    unsigned ndev;
    double loads[ACT_MAX_LOADS];
    unsigned nloads;
    bool find_max;
    double max_load;
    uint32_t duration;
    bool duration_set;
    const char *sets[ACT_MAX_SETS];
    unsigned nsets;
    const char *log;
    bool engine_set;
    double op_pct;     /* --op: over-provisioning; ACT uses the first (100 - op) % of
                          each device and the rest is discarded first; 0 = none */
    bool dry_run;      /* --dry-run: print the plan and its total time, run nothing */
    struct act_run_opts o;
};

/* The shorthand's config (--load, devices, --duration, --set KEY=VALUE),
 * through the config parser so every key is checked as in a file. Returns 0,
 * or -1 with a one-line message in err. */
int act_shorthand_config(const struct act_args *a, struct act_config *c, char *err, size_t errlen);

/* Runs the loads of a in s (the document gets the "act" object, one entry per
 * load, and the find-max outcome), finishing the document. Returns a
 * session status (WL_OK, WL_FAIL, WL_USAGE, 128 + signal when interrupted);
 * *nloads_run says how many loads ran (the result is worth saving when > 0). */
int act_ladder_run(struct session *s, const struct act_args *a, const struct act_config *base,
                   const struct act_device *devs, unsigned *nloads_run);

/* --dry-run: the loads a would run, each with its rates and length, and the
 * total time (for --find-max the longest: every load up to --max-load), to f.
 * Writes to no device. 0, or -1 with a one-line message in err (a load the
 * config cannot take). */
int act_ladder_plan(FILE *f, const struct act_args *a, const struct act_config *base, char *err,
                    size_t errlen);

#endif
