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
#include "cli/cli_opts.h"
#include "cli/cli_tables.h"
#include "cli/commands.h"
#include "base/signal.h"
#include "output/suite_text.h"
#include "result/result.h"
#include "profiles/profiles.h"
#include "job/spec_parse.h"
#include "suite/suite_cmd.h"
#include "cli/workloads.h"

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

#define SA(c) ((struct suite_args *)(c)->aux)

static int set_profiles(const struct cli_ctx *c, const struct cli_opt *o, const char *v)
{
    (void)o;
    return split_profiles(v, c->cfg);
}

static int set_sweep(const struct cli_ctx *c, const struct cli_opt *o, const char *v)
{
    char msg[1024];
    if (suite_parse_sweep(v, &((struct suite_cfg *)c->cfg)->sweep, msg, sizeof(msg)) < 0) {
        cli_err("%s", msg);
        return -1;
    }
    return 0;
}

static int set_ss(const struct cli_ctx *c, const struct cli_opt *o, const char *v)
{
    char msg[1024];
    if (suite_parse_ss(v, &((struct suite_cfg *)c->cfg)->ss, msg, sizeof(msg)) < 0) {
        cli_err("%s", msg);
        return -1;
    }
    return 0;
}

static int set_load(const struct cli_ctx *c, const struct cli_opt *o, const char *v)
{
    char msg[1024];
    struct suite_cfg *s = c->cfg;
    if (suite_parse_load(v, &s->pre_threads, &s->pre_depth, msg, sizeof(msg)) < 0) {
        cli_err("%s: %s", o->name, msg);
        return -1;
    }
    return 0;
}

static int set_precondition(const struct cli_ctx *c, const struct cli_opt *o, const char *v)
{
    char msg[1024];
    struct suite_cfg *s = c->cfg;
    if (!strcmp(v, "auto")) {
        s->precond = PRECOND_AUTO;
    } else if (!strcmp(v, "off") || !strcmp(v, "none")) {
        s->precond = PRECOND_OFF;
    } else {
        s->precond = PRECOND_TIME;
        if (!cli_time(v, SPEC_NS_PER_S, &s->precond_ns, msg, sizeof(msg))) {
            cli_err("%s: '%s' is not auto, off or a time (%s)", o->name, v, msg);
            return -1;
        }
    }
    return 0;
}

static int set_layout(const struct cli_ctx *c, const struct cli_opt *o, const char *v)
{
    char msg[1024];
    struct suite_cfg *s = c->cfg;
    uint64_t chunk = 0;
    if (spec_parse_layout(v, 1024, &s->layout, &chunk, msg, sizeof(msg)) < 0) {
        cli_err("%s: %s", o->name, msg);
        return -1;
    }
    if (s->layout == LAYOUT_STRIPE && !chunk) {
        cli_err("%s: give the stripe chunk, e.g. stripe:128k", o->name);
        return -1;
    }
    s->stripe_chunk = chunk;
    return 0;
}

static int set_rwmixread(const struct cli_ctx *c, const struct cli_opt *o, const char *v)
{
    unsigned x;
    if (cli_opt_uint(o->name, v, 0, 100, &x) < 0)
        return -1;
    ((struct suite_cfg *)c->cfg)->rwmixread = (int)x;
    return 0;
}

static int set_set(const struct cli_ctx *cx, const struct cli_opt *o, const char *v)
{
    struct suite_cfg *c = cx->cfg;
    const char *kv = v;
    size_t pn = strcspn(v, ":=");
    c->set_prof[c->nset < SUITE_MAX_SET ? c->nset : 0][0] = 0;
    if (v[pn] == ':') {
        if (pn == 0 || pn >= sizeof(c->set_prof[0]) || c->nset >= SUITE_MAX_SET) {
            cli_err("%s: bad '%s' (use --set [PROFILE:]KEY=VALUE)", o->name, v);
            return -1;
        }
        snprintf(c->set_prof[c->nset], sizeof(c->set_prof[0]), "%.*s", (int)pn, v);
        kv = v + pn + 1;
    }
    size_t k = strcspn(kv, "=");
    if (k == 0 || k >= sizeof(c->set_key[0]) || strlen(kv + k) >= sizeof(c->set_val[0]) || c->nset >= SUITE_MAX_SET) {
        cli_err("%s: bad '%s' (use --set [PROFILE:]KEY=VALUE)", o->name, v);
        return -1;
    }
    snprintf(c->set_key[c->nset], sizeof(c->set_key[0]), "%.*s", (int)k, kv);
    snprintf(c->set_val[c->nset], sizeof(c->set_val[0]), "%s", kv[k] ? kv + k + 1 : "");
    c->nset++;
    return 0;
}

/* --profile-file, --baseline, --dry-run: kept in struct suite_args (aux) */
static int set_dry(const struct cli_ctx *c, const struct cli_opt *o, const char *v)
{
    SA(c)->dry = true;
    return 0;
}

static int set_profile_file(const struct cli_ctx *c, const struct cli_opt *o, const char *v)
{
    struct suite_args *sa = SA(c);
    if (sa->npfiles == SUITE_MAX_PROFILE_FILES) {
        cli_err("%s: at most %d files", o->name, SUITE_MAX_PROFILE_FILES);
        return -1;
    }
    sa->pfiles[sa->npfiles++] = v;
    return 0;
}

static int set_baseline(const struct cli_ctx *c, const struct cli_opt *o, const char *v)
{
    struct suite_args *sa = SA(c);
    if (sa->nbaselines >= SUITE_MAX_BASELINES) {
        cli_err("%s: at most %d baselines", o->name, SUITE_MAX_BASELINES);
        return -1;
    }
    sa->baselines[sa->nbaselines++] = v;
    return 0;
}

#define C(f) CLI_AT(struct suite_cfg, f)

static const struct cli_opt suite_opts[] = {
    CLI_TEXT("usage: ssdbench suite [options] TARGET...\n\n"
             "Per profile: optional purge, preconditioning with the same profile at 16 threads x 16\n"
             "queue until steady state, then each sweep point for a fixed time, with no idle time.\n\n"
             "Workload:"),
    {.name = "--profiles",
     .man = "Comma-separated profile names (default\n"
            "4k-random-read,4k-random-write,8k-70-30,fileserver,webserver).", .value = "LIST", .help = "comma-separated profile names (see ssdbench profiles)",
     .dflt = "4k-random-read,4k-random-write,8k-70-30,fileserver,webserver", .type = CLI_T_CALL,
     .set = set_profiles},
    {.name = "--profile-file",
     .man = "Add profiles from a job file (repeatable).", .value = "FILE", .help = "add profiles from a fio-style job file (repeatable)",
     .type = CLI_T_CALL, .set = set_profile_file},
    {.name = "--rwmixread",
     .man = "Read share of the one mixed profile selected (database 66 for the 66/34\n"
            "variant); with several mixed profiles it is refused: name the profile with\n"
            "\\fB\\-\\-set\\fR \\fINAME\\fR:rwmixread=\\fIN\\fR. Headings print the mix that ran.", .value = "N", .help = "read share of the one mixed profile (database 66 = 66/34);\n"
                                                  "with several mixed profiles use --set NAME:rwmixread=N",
     .type = CLI_T_CALL, .set = set_rwmixread, .unit = "%"},
    {.name = "--set",
     .man = "A job option for every profile (e.g. ioengine=libaio, filesize=64g), or with\n"
            "\\fIPROFILE\\fR: for that profile only (database:rwmixread=66); options the\n"
            "suite sets itself are refused.", .value = "[PROFILE:]KEY=VALUE",
     .help = "a job option for every profile, e.g. ioengine=libaio,\n"
             "or for the named one only, e.g. database:rwmixread=66",
     .type = CLI_T_CALL, .set = set_set},
    CLI_TEXT("Sweep:"),
    {.name = "--sweep",
     .man = "Threads x queue depth, thread-major (default tq:2,4,8,16x2,4,8,16), or one\n"
            "thread over queue depths (qd:1,2,4,...,256; \"...\" doubles up to the next\n"
            "value), or preconditioning only.", .value = "S", .help = "tq:2,4,8,16x2,4,8,16 | qd:1,2,4,...,256 | none;\n"
                                              "'...' doubles up to the next value",
     .dflt = "tq:2,4,8,16x2,4,8,16", .type = CLI_T_CALL, .set = set_sweep},
    {.name = "--runtime",
     .man = "Each sweep point (default 1m for tq, 5m for qd).", .value = "TIME", .help = "each sweep point", .dflt = "1m for tq, 5m for qd",
     .type = CLI_T_TIME, .ulo = 1, C(runtime_ns), .unit = "s"},
    {.name = "--ramp",
     .man = "Discarded warm-up before each point (default 0).", .value = "TIME", .help = "discarded warm-up before each point", .dflt = "0",
     .type = CLI_T_TIME, C(ramp_ns), .unit = "s"},
    CLI_TEXT("Preconditioning:"),
    {.name = "--precondition",
     .man = "Until steady state (default), for a fixed time, or not at all.", .value = "auto|TIME|off", .help = "until steady state (auto), a fixed time, or none",
     .dflt = "auto", .type = CLI_T_CALL, .set = set_precondition},
    {.name = "--precondition-load",
     .man = "Threads x queue depth of preconditioning (default 16x16).", .value = "TxQ", .help = "threads x queue depth", .dflt = "16x16",
     .type = CLI_T_CALL, .set = set_load},
    {.name = "--ss",
     .man = "Steady-state rule: \\fBsnia\\fR (max-min <= 20 % and slope excursion <= 10 % of\n"
            "the window average; \\fBsnia:R%/S%\\fR sets the limits) or fio's\n"
            "\\fBiops:10%\\fR, \\fBiops_slope:0.1%\\fR, \\fBbw:\\fR..., \\fBlat:\\fR....", .value = "RULE", .help = "snia (= snia:20%/10%) or fio's iops:10%,\n"
                                              "iops_slope:0.1%, bw:..., lat:...",
     .dflt = "snia", .type = CLI_T_CALL, .set = set_ss},
    {.name = "--ss-interval",
     .man = "Preconditioning interval = one round (default 1m).", .value = "TIME", .help = "interval = one steady-state round", .dflt = "1m",
     .type = CLI_T_TIME, C(interval_ns), .unit = "s"},
    {.name = "--ss-window",
     .man = "Rounds per window (default 5).", .value = "N", .help = "rounds per window", .dflt = "5", .type = CLI_T_UINT,
     C(ss.window), .ulo = 2, .uhi = STEADY_WINDOW_MAX},
    {.name = "--ss-max-rounds",
     .man = "Give up after N rounds and report \"steady state not achieved\" (default 25).", .value = "N", .help = "give up after N rounds: 'not achieved'", .dflt = "25",
     .type = CLI_T_UINT, C(ss.max_rounds), .ulo = 0, .uhi = 1000000},
    {.name = "--sample",
     .man = "After preconditioning, run each profile at the preconditioning load for TIME.", .value = "TIME", .help = "after preconditioning, run each profile at that load for TIME",
     .type = CLI_T_TIME, C(sample_ns), .unit = "s"},
    {.name = "--purge",
     .man = "Purge every target before each profile (as \\fBssdbench purge\\fR).", .help = "purge every target before each profile", .type = CLI_T_FLAG, C(purge)},
    CLI_TEXT("Targets:"),
    {.name = "--range",
     .man = "Active range: I/O only to the first PCT % of each target (of the striped space\n"
            "with stripe), for over-provisioning.", .value = "PCT", .help = "active range: only the first PCT% of each target", .dflt = "100",
     .type = CLI_T_PCT, C(range_pct), .lo = 0, .hi = 100, .flags = CLI_LO_OPEN, .unit = "%"},
    {.name = "--discard-unused",
     .man = "Discard the rest of each block device first, so the drive can use it as spare area.", .help = "discard the rest first (block devices), as spare area",
     .type = CLI_T_FLAG, C(discard_unused)},
    {.name = "--layout",
     .man = "Several targets as separate LUNs at the same time, T x Q per target (default),\n"
            "or one RAID-0 space in CHUNK units, T x Q in total. Per-target results are\n"
            "reported beside the total.", .value = "jbod|stripe:CHUNK",
     .help = "several targets: separate LUNs at once (threads x queue\n"
             "per target) or one striped space (in total)",
     .dflt = "jbod", .type = CLI_T_CALL, .set = set_layout},
    {.name = "--baseline",
     .man = "A suite result to scale against (repeatable; a fileio or ACT result is\n"
            "refused): each point gets, per baseline, the factor (IOPS over the baseline's\n"
            "at the same point) and the factor per target, using both target counts.", .value = "RESULT.json", .help = "a suite result to scale against (repeatable): the factor\n"
                                                           "and the factor per target, using both target counts",
     .type = CLI_T_CALL, .set = set_baseline},
    CLI_TEXT("Output and safety:"),
    {.name = "--format", .value = "text|json|csv"},
    CLI_SHARED("--output"),
    CLI_SHARED("--result"),
    CLI_SHARED("--archive"),
    CLI_SHARED("--tag"),
    CLI_SHARED("--destroy"),
    {.name = "--dry-run",
     .man = "Print the plan and its longest duration, and each target with what the write\n"
            "guard would say about it; run nothing. A missing target is named and exits 2.", .help = "print the plan and its longest duration, run nothing", .type = CLI_T_CALL,
     .set = set_dry},
    CLI_SHARED_NOTE("--quiet", "no progress lines either"),
    CLI_OPTS_END,
};

#undef C

const struct cli_cmd_opts suite_cmd_opts = {.cmd = "suite", .man_section = "SUITE", .opts = suite_opts, .col = 27};

static void suite_usage(FILE *f)
{
    cli_opts_help(f, &suite_cmd_opts);
}

static int suite_operand(const char *a, void *arg)
{
    struct suite_cfg *c = arg;
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
    const struct cli_ctx ctx = {.cmd = "suite", .cfg = sa->cfg, .out = out, .aux = sa};
    int rc = cli_opts_parse_ctx(&suite_cmd_opts, argc, argv, &ctx, suite_operand);
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
