/* cmd_suite.c - `ssdbench suite`: the enterprise review methodology
 * (preconditioning to steady state, thread x queue or QD sweeps, server
 * profiles, over-provisioning, several devices) on any targets. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cli_dry.h"
#include "cli/cli_family.h"
#include "cli/commands.h"
#include "base/signal.h"
#include "output/suite_text.h"
#include "result/result.h"
#include "profiles/profiles.h"
#include "job/spec_parse.h"
#include "suite/suite_cmd.h"
#include "cli/workloads.h"

static void suite_usage(FILE *f)
{
    fprintf(f,
            "usage: ssdbench suite [options] TARGET...\n\n"
            "Per profile: optional purge, preconditioning with the same profile at 16 threads x 16\n"
            "queue until steady state, then each sweep point for a fixed time, with no idle time.\n\n"
            "Workload:\n"
            "  --profiles LIST          comma-separated profile names (default\n"
            "                           4k-random-read,4k-random-write,8k-70-30,fileserver,webserver;\n"
            "                           see ssdbench profiles)\n"
            "  --profile-file FILE      add profiles from a fio-style job file (repeatable)\n"
            "  --rwmixread N            read share of the one mixed profile (database 66 = 66/34);\n"
            "                           with several mixed profiles use --set NAME:rwmixread=N\n"
            "  --set [PROFILE:]KEY=VALUE  a job option for every profile, e.g. ioengine=libaio,\n"
            "                           or for the named one only, e.g. database:rwmixread=66\n"
            "Sweep:\n"
            "  --sweep S                tq:2,4,8,16x2,4,8,16 (default) | qd:1,2,4,...,256 | none;\n"
            "                           '...' doubles up to the next value\n"
            "  --runtime TIME           each sweep point (default 1m for tq, 5m for qd)\n"
            "  --ramp TIME              discarded warm-up before each point (default 0)\n"
            "Preconditioning:\n"
            "  --precondition auto|TIME|off   until steady state (default), a fixed time, or none\n"
            "  --precondition-load TxQ  threads x queue depth (default 16x16)\n"
            "  --ss RULE                snia (default, = snia:20%%/10%%) or fio's iops:10%%,\n"
            "                           iops_slope:0.1%%, bw:..., lat:...\n"
            "  --ss-interval TIME       interval = one steady-state round (default 1m)\n"
            "  --ss-window N            rounds per window (default 5)\n"
            "  --ss-max-rounds N        give up after N rounds: 'not achieved' (default 25)\n"
            "  --sample TIME            after preconditioning, run each profile at that load for TIME\n"
            "  --purge                  purge every target before each profile\n"
            "Targets:\n"
            "  --range PCT              active range: only the first PCT%% of each target\n"
            "  --discard-unused         discard the rest first (block devices), as spare area\n"
            "  --layout jbod|stripe:CHUNK  several targets: separate LUNs at once (threads x queue\n"
            "                           per target) or one striped space (in total); default jbod\n"
            "  --baseline RESULT.json   a suite result to scale against (repeatable): the factor\n"
            "                           and the factor per target, using both target counts\n"
            "Output and safety:\n"
            "  --format text|json|csv   what to print (default text)\n"
            "  --output FILE, -o FILE   write it to FILE\n"
            "  --result FILE            also save the result JSON\n"
            "  --archive[=PATH]         also file the result in the archive (default archive:\n"
            "                           $SSDBENCH_ARCHIVE, else ${XDG_DATA_HOME:-~/.local/share}/ssdbench/results.db)\n"
            "  --tag KEY=VALUE          a tag on the filed result (repeatable; docs/archive.md)\n"
            "  --destroy PATH           consent to overwrite PATH (a device or an existing file)\n"
            "  --dry-run                print the plan and its longest duration, run nothing\n"
            "  --quiet, -q              no progress or status lines\n");
}

static int split_profiles(const char *v, struct suite_cfg *c)
{
    c->nprofiles = 0;
    const char *p = v;
    while (*p) {
        size_t l = strcspn(p, ",");
        if (l == 0 || l >= JOB_NAME_MAX || c->nprofiles >= SUITE_MAX_PROFILES) {
            cli_err("--profiles: bad list '%s' (names separated by ',')", v);
            return -1;
        }
        snprintf(c->profiles[c->nprofiles++], JOB_NAME_MAX, "%.*s", (int)l, p);
        p += l;
        if (*p)
            p++;
    }
    if (!c->nprofiles) {
        cli_err("--profiles: empty list");
        return -1;
    }
    return 0;
}

/* The sweep, timing and preconditioning options (--sweep .. --sample).
 * Returns 1 when argv[*ip] is one of them (consumed), 0 when not, -1
 * after an error message. */
static int sweep_option(int *ip, int argc, char **argv, struct suite_args *sa)
{
    struct suite_cfg *c = sa->cfg;
    const char *v;
    char msg[1024];
    int i = *ip;
    if ((v = cli_opt_value("--sweep", &i, argc, argv))) {
        if (suite_parse_sweep(v, &c->sweep, msg, sizeof(msg)) < 0) {
            cli_err("%s", msg);
            return -1;
        }
    } else if ((v = cli_opt_value("--runtime", &i, argc, argv))) {
        if (cli_opt_time("--runtime", v, &c->runtime_ns) < 0)
            return -1;
        if (!c->runtime_ns) {
            cli_err("--runtime: must be more than 0");
            return -1;
        }
    } else if ((v = cli_opt_value("--ramp", &i, argc, argv))) {
        if (cli_opt_time("--ramp", v, &c->ramp_ns) < 0)
            return -1;
    } else if ((v = cli_opt_value("--precondition-load", &i, argc, argv))) {
        if (suite_parse_load(v, &c->pre_threads, &c->pre_depth, msg, sizeof(msg)) < 0) {
            cli_err("--precondition-load: %s", msg);
            return -1;
        }
    } else if ((v = cli_opt_value("--precondition", &i, argc, argv))) {
        if (!strcmp(v, "auto")) {
            c->precond = PRECOND_AUTO;
        } else if (!strcmp(v, "off") || !strcmp(v, "none")) {
            c->precond = PRECOND_OFF;
        } else {
            c->precond = PRECOND_TIME;
            if (!cli_time(v, SPEC_NS_PER_S, &c->precond_ns, msg, sizeof(msg))) {
                cli_err("--precondition: '%s' is not auto, off or a time (%s)", v, msg);
                return -1;
            }
        }
    } else if ((v = cli_opt_value("--ss-interval", &i, argc, argv))) {
        if (cli_opt_time("--ss-interval", v, &c->interval_ns) < 0)
            return -1;
    } else if ((v = cli_opt_value("--ss-window", &i, argc, argv))) {
        if (cli_opt_uint("--ss-window", v, 2, STEADY_WINDOW_MAX, &c->ss.window) < 0)
            return -1;
    } else if ((v = cli_opt_value("--ss-max-rounds", &i, argc, argv))) {
        if (cli_opt_uint("--ss-max-rounds", v, 0, 1000000, &c->ss.max_rounds) < 0)
            return -1;
    } else if ((v = cli_opt_value("--ss", &i, argc, argv))) {
        if (suite_parse_ss(v, &c->ss, msg, sizeof(msg)) < 0) {
            cli_err("%s", msg);
            return -1;
        }
    } else if ((v = cli_opt_value("--sample", &i, argc, argv))) {
        if (cli_opt_time("--sample", v, &c->sample_ns) < 0)
            return -1;
    } else {
        return 0;
    }
    *ip = i;
    return 1;
}

/* The target, layout and record options (--purge .. --dry-run).
 * Returns 1 when argv[*ip] is one of them (consumed), 0 when not, -1
 * after an error message. */
static int target_option(int *ip, int argc, char **argv, struct suite_args *sa)
{
    struct suite_cfg *c = sa->cfg;
    const char *a = argv[*ip], *v;
    char msg[1024];
    int i = *ip;
    if (!strcmp(a, "--purge")) {
        c->purge = true;
    } else if ((v = cli_opt_value("--range", &i, argc, argv))) {
        char *e;
        double pct = strtod(v, &e);
        if (e == v || (*e && strcmp(e, "%")) || !(pct > 0 && pct <= 100)) {
            cli_err("--range: '%s' is not a percentage in (0, 100]", v);
            return -1;
        }
        c->range_pct = pct;
    } else if (!strcmp(a, "--discard-unused")) {
        c->discard_unused = true;
    } else if ((v = cli_opt_value("--layout", &i, argc, argv))) {
        uint64_t chunk = 0;
        if (spec_parse_layout(v, 1024, &c->layout, &chunk, msg, sizeof(msg)) < 0) {
            cli_err("--layout: %s", msg);
            return -1;
        }
        if (c->layout == LAYOUT_STRIPE && !chunk) {
            cli_err("--layout: give the stripe chunk, e.g. stripe:128k");
            return -1;
        }
        c->stripe_chunk = chunk;
    } else if ((v = cli_opt_value("--baseline", &i, argc, argv))) {
        if (sa->nbaselines >= SUITE_MAX_BASELINES) {
            cli_err("--baseline: at most %d baselines", SUITE_MAX_BASELINES);
            return -1;
        }
        sa->baselines[sa->nbaselines++] = v;
    } else if ((v = cli_opt_value("--rwmixread", &i, argc, argv))) {
        unsigned x;
        if (cli_opt_uint("--rwmixread", v, 0, 100, &x) < 0)
            return -1;
        c->rwmixread = (int)x;
    } else if ((v = cli_opt_value("--set", &i, argc, argv))) {
        const char *kv = v;
        size_t pn = strcspn(v, ":=");
        c->set_prof[c->nset < SUITE_MAX_SET ? c->nset : 0][0] = 0;
        if (v[pn] == ':') {
            if (pn == 0 || pn >= sizeof(c->set_prof[0]) || c->nset >= SUITE_MAX_SET) {
                cli_err("--set: bad '%s' (use --set [PROFILE:]KEY=VALUE)", v);
                return -1;
            }
            snprintf(c->set_prof[c->nset], sizeof(c->set_prof[0]), "%.*s", (int)pn, v);
            kv = v + pn + 1;
        }
        size_t k = strcspn(kv, "=");
        if (k == 0 || k >= sizeof(c->set_key[0]) || strlen(kv + k) >= sizeof(c->set_val[0]) ||
            c->nset >= SUITE_MAX_SET) {
            cli_err("--set: bad '%s' (use --set [PROFILE:]KEY=VALUE)", v);
            return -1;
        }
        v = kv;
        snprintf(c->set_key[c->nset], sizeof(c->set_key[0]), "%.*s", (int)k, v);
        snprintf(c->set_val[c->nset], sizeof(c->set_val[0]), "%s", v[k] ? v + k + 1 : "");
        c->nset++;
    } else if (!strcmp(a, "--dry-run")) {
        sa->dry = true;
    } else {
        return 0;
    }
    *ip = i;
    return 1;
}

/* --profiles, --profile-file, then the sweep and target options: 1 when
 * argv[*ip] is one of them (consumed), 0 when not, -1 after an error. */
static int suite_option(int *ip, int argc, char **argv, void *arg)
{
    struct suite_args *sa = arg;
    struct suite_cfg *c = sa->cfg;
    const char *v;
    int i = *ip;
    if ((v = cli_opt_value("--profiles", &i, argc, argv))) {
        if (split_profiles(v, c) < 0)
            return -1;
    } else if ((v = cli_opt_value("--profile-file", &i, argc, argv))) {
        if (sa->npfiles == SUITE_MAX_PROFILE_FILES) {
            cli_err("--profile-file: at most %d files", SUITE_MAX_PROFILE_FILES);
            return -1;
        }
        sa->pfiles[sa->npfiles++] = v;
    } else {
        int r = sweep_option(ip, argc, argv, sa);
        return r ? r : target_option(ip, argc, argv, sa);
    }
    *ip = i;
    return 1;
}

static int suite_operand(const char *a, void *arg)
{
    struct suite_cfg *c = ((struct suite_args *)arg)->cfg;
    if (c->ntargets == JOB_MAX_TARGETS) {
        cli_err("suite: at most %d targets", JOB_MAX_TARGETS);
        return -1;
    }
    if (strlen(a) >= JOB_PATH_MAX) {
        cli_err("suite: target path too long: %s", a);
        return -1;
    }
    snprintf(c->targets[c->ntargets++], JOB_PATH_MAX, "%s", a);
    return 0;
}

/* Parses argv into sa and out. Returns 0, 1 after --help, or -1 after an
 * error message. */
static int parse_args(int argc, char **argv, struct suite_args *sa, struct cli_output *out)
{
    static const char *const names[] = {
        "--profiles", "--profile-file", "--sweep", "--runtime", "--ramp", "--precondition",
        "--precondition-load", "--ss", "--ss-interval", "--ss-window", "--ss-max-rounds",
        "--sample", "--purge", "--range", "--discard-unused", "--layout", "--baseline",
        "--rwmixread", "--set", "--dry-run", "--format", "--output", "--result",
        "--destroy", "--quiet", "--archive", "--tag", NULL};
    const struct cli_family f = {.cmd = "suite", .usage = suite_usage, .option = suite_option,
                                 .operand = suite_operand, .names = names, .arg = sa};
    int rc = cli_family_parse(argc, argv, &f, out);
    sa->quiet = out->quiet;
    return rc;
}

static int suite_parse(int argc, char **argv, void *cfg, struct cli_output *out)
{
    struct suite_args *sa = cfg;
    struct suite_cfg *c = sa->cfg = calloc(1, sizeof(*c));
    if (!c)
        return CLI_EXIT_FAIL;
    suite_defaults(c);
    int rc = parse_args(argc, argv, sa, out);
    if (rc)
        return rc > 0 ? CLI_EXIT_OK : CLI_EXIT_USAGE;
    /* a bad --result or --output is found before hours of measuring */
    if (!sa->dry && cli_output_check(out, cli_journal_want(out)) < 0)
        return CLI_EXIT_USAGE;
    return WL_PARSED;
}

static int suite_run_cmd(struct session *s, void *cfg, struct cli_output *out)
{
    struct suite_args *sa = cfg;
    signal_install();
    int rc = suite_workload_run(s, cfg, &s->done);
    /* the plan's targets: what the guard would say, a missing one named */
    for (unsigned t = 0; sa->dry && rc == 0 && t < sa->cfg->ntargets; t++)
        if (cli_dry_target(stdout, sa->cfg->targets[t], true, 0, &out->consent) < 0)
            rc = CLI_EXIT_USAGE;
    return rc;
}

static int suite_render(struct session *s, void *cfg, const struct cli_output *out, int status)
{
    (void)cfg;
    return cli_family_render(s->doc, out, status, render_suite_text);
}

static void suite_free(void *cfg)
{
    struct suite_args *sa = cfg;
    free(sa->cfg);
}

const struct workload_cmd suite_workload = {
    .name = "suite",
    .summary = "enterprise review suite: preconditioning to steady state, T x Q / QD sweeps, profiles",
    .usage = suite_usage,
    .cfg_size = sizeof(struct suite_args),
    .parse = suite_parse,
    .run = suite_run_cmd,
    .render = suite_render,
    .free = suite_free,
};
