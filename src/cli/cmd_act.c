/* cmd_act.c - `ssdbench act` (an ACT storage certification run: one load, a
 * ladder of loads, or a search for the highest passing load) and
 * `ssdbench act-prep` (ACT's zero + random fill of a device). Argument
 * parsing and exit codes; the loads run in act/act_ladder.h. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/cli_opts.h"
#include "cli/cli_tables.h"
#include "job/spec_parse.h"
#include "cli/commands.h"
#include "base/outfile.h"
#include "base/signal.h"
#include "result/result.h"
#include "target/target.h"
#include "act/act_ladder.h"
#include "workload/plan.h"
#include "cli/workloads.h"


static int parse_loads(const char *s, struct act_args *a)
{
    char buf[512];
    snprintf(buf, sizeof(buf), "%s", s);
    a->nloads = 0;
    for (char *save = NULL, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        double l;
        if (act_parse_load(t, &l) < 0) {
            cli_err("act: --load '%s': '%s' is not a load like 3x or 1.5x", s, t);
            return -1;
        }
        if (a->nloads == ACT_MAX_LOADS) {
            cli_err("act: --load '%s': at most %u loads", s, ACT_MAX_LOADS);
            return -1;
        }
        a->loads[a->nloads++] = l;
    }
    if (!a->nloads) {
        cli_err("act: --load '%s': no load given", s);
        return -1;
    }
    return 0;
}

static const struct cli_enum act_engines[] = {
    {"io_uring", ENGINE_IO_URING}, {"libaio", ENGINE_LIBAIO}, {"psync", ENGINE_PSYNC}, {"null", ENGINE_NULL},
    {NULL, 0}};

static int parse_engine(const char *v, struct act_args *a)
{
    char msg[256];
    int e;
    if (cli_parse_enum("--engine", v, act_engines, &e, msg, sizeof(msg)) < 0) {
        cli_err("act: --engine '%s': use io_uring, libaio, psync or null", v);
        return -1;
    }
    a->o.engine = (enum engine_kind)e;
    a->engine_set = true;
    if (e == ENGINE_PSYNC)
        a->o.mode = ACT_MODE_THREADS;
    return 0;
}

#define AA(c) ((struct act_args *)(c)->cfg)

static int set_load(const struct cli_ctx *c, const struct cli_opt *o, const char *v)
{
    return parse_loads(v, AA(c));
}

static int set_max_load(const struct cli_ctx *c, const struct cli_opt *o, const char *v)
{
    if (act_parse_load(v, &AA(c)->max_load) < 0) {
        cli_err("act: --max-load '%s': not a load like 64x", v);
        return -1;
    }
    return 0;
}

static int set_engine(const struct cli_ctx *c, const struct cli_opt *o, const char *v)
{
    (void)o;
    return parse_engine(v, AA(c));
}

static int set_duration(const struct cli_ctx *c, const struct cli_opt *o, const char *v)
{
    char msg[512];
    uint64_t sec;
    if (cli_parse_duration(o->name, v, SPEC_NS_PER_S, SPEC_NS_PER_S, UINT32_MAX * SPEC_NS_PER_S, 1, &sec, msg,
                           sizeof(msg)) < 0) {
        cli_err("act: --duration '%s': give seconds, or a number with s, m, h or d (e.g. 24h), at least 1 s", v);
        return -1;
    }
    AA(c)->duration = (uint32_t)(sec / SPEC_NS_PER_S);
    AA(c)->duration_set = true;
    return 0;
}

static int set_seed(const struct cli_ctx *c, const struct cli_opt *o, const char *v)
{
    char msg[512];
    if (cli_parse_uint(o->name, v, 0, UINT64_MAX, &AA(c)->o.seed, msg, sizeof(msg)) < 0) {
        cli_err("%s", msg);
        return -1;
    }
    AA(c)->o.seed_set = true;
    return 0;
}

static int set_set(const struct cli_ctx *c, const struct cli_opt *o, const char *v)
{
    struct act_args *a = AA(c);
    if (!strchr(v, '=') || a->nsets == ACT_MAX_SETS) {
        cli_err("act: %s '%s': give KEY=VALUE with an ACT config key (at most %u)", o->name, v, ACT_MAX_SETS);
        return -1;
    }
    a->sets[a->nsets++] = v;
    return 0;
}

#define A(f) CLI_AT(struct act_args, f)

static const struct cli_opt act_opts[] = {
    CLI_TEXT("usage: ssdbench act CONFIG [options]\n"
             "       ssdbench act --load 3x[,6x,...] [--duration 24h] [options] DEVICE...\n"
             "       ssdbench act --find-max [--load START] [--duration D] [options] DEVICE...\n"
             "\n"
             "Runs Aerospike ACT's storage certification workload (act_storage 6.x): small reads\n"
             "of the record size at random offsets, large-block reads and writes at the rates ACT\n"
             "derives, paced on an absolute schedule, and writes ACT's raw log (readable by ACT's\n"
             "act_latency.py and by `ssdbench act-analyze`). After each load it prints the slice\n"
             "table of small-read latency, transaction (from the scheduled start) next to device\n"
             "(around the I/O), and the verdict: PASS only for 24 h runs whose every hour has\n"
             "below 5% >= 1 ms, 1% >= 8 ms and 0.1% >= 64 ms. THE DEVICES' DATA IS DESTROYED.\n"
             "\n"
             "Load:\n"
             "  CONFIG                an ACT storage config file (act_storage's keys)"),
    {.name = "--load",
     .man = "Load per device (3x, 1.5x); a list runs each in turn. With \\fICONFIG\\fR it\n"
            "replaces the config's read and write rates.", .value = "L[,L...]", .help = "L x 1x per device (1x = 2000 reads/s + 1000 writes/s per\n"
                                                    "device); a list runs each load in turn. With CONFIG it\n"
                                                    "replaces the config's read/write rates",
     .type = CLI_T_CALL, .set = set_load},
    {.name = "--find-max",
     .man = "Run 1x, 2x, 3x, 4x, 6x, 8x, 12x, 16x, 24x ... until a load fails; report the\n"
            "highest that passed and why the climb stopped (the next load failed, or\n"
            "\\fB\\-\\-max\\-load\\fR \\fIL\\fR, default 1024x, was reached). With several loads a\n"
            "summary ends the output, one row per load as the published ACT summaries:\n"
            "drive, size, load, OP, the worst slice's % over 1, 8 and 64 ms as total\n"
            "(transaction) / ssd only (device), the date (ISO 8601, YYYY\\-MM\\-DD), the\n"
            "result; and the overall progress (load 2/4, time left) goes to stderr before\n"
            "each load: one line per load, or on a terminal the live status line,\n"
            "rewritten in place and cleared at the end.", .help = "run 1x, 2x, 3x, 4x, 6x, 8x, 12x, 16x, 24x ... (from --load)\n"
                                   "until a load fails; report the highest passing load",
     .type = CLI_T_FLAG, A(find_max)},
    {.name = "--max-load", .value = "L", .help = "where --find-max gives up", .dflt = "1024x", .type = CLI_T_CALL,
     .set = set_max_load},
    {.name = "--duration",
     .man = "test-duration-sec: seconds or a number with s, m, h, d (default 24h).", .value = "D", .help = "test-duration-sec: seconds, or with s/m/h/d", .dflt = "24h",
     .type = CLI_T_CALL, .set = set_duration, .unit = "s"},
    {.name = "--op",
     .man = "Over-provisioning: ACT uses the first (100 \\- PCT) % of each device, in whole\n"
            "large blocks, and the rest is discarded first (block devices only).", .value = "PCT", .help = "over-provisioning: use the first (100 - PCT)% of each device\n"
                                             "and discard the rest first (block devices), e.g. --op 20",
     .type = CLI_T_PCT, A(op_pct), .lo = 0, .hi = 100, .flags = CLI_HI_OPEN, .unit = "%"},
    {.name = "--set",
     .man = "Any other ACT config key (shorthand only), e.g. \\fB\\-\\-set commit\\-to\\-device=yes\\fR.", .value = "KEY=VALUE", .help = "any other ACT config key (shorthand only), e.g.\n"
                                                    "--set report-interval-sec=10 --set commit-to-device=yes",
     .type = CLI_T_CALL, .set = set_set},
    CLI_TEXT("Execution:"),
    {.name = "--threads",
     .man = "ACT's model: service-threads blocking workers (psync), one I/O each; for\n"
            "numbers comparable with published ACT results. The default is open loop: one\n"
            "ring per CPU (\\fB\\-\\-engine\\fR io_uring, libaio or null) with as many slots in all\n"
            "as ACT has service threads (\\fB\\-\\-iodepth\\fR), issuing ACT's schedule with far\n"
            "less CPU; each O_DSYNC write is followed by a flush, as ACT's blocking pwrite,\n"
            "so the device sees the same reads, writes and flushes.", .help = "ACT's model: service-threads blocking workers (psync), one\n"
                                  "I/O each; numbers comparable with published ACT results",
     .type = CLI_T_CONST, A(o.mode), .ival = ACT_MODE_THREADS},
    {.name = "--engine", .value = "E", .help = "io_uring, libaio, psync (= --threads) or null", .dflt = "io_uring",
     .type = CLI_T_CALL, .set = set_engine},
    {.name = "--iodepth", .value = "N", .help = "open-loop mode: slots of the small-I/O workers (one ring per CPU)",
     .dflt = "service-threads, ACT's queue depth", .type = CLI_T_UINT, A(o.iodepth), .ulo = 1, .uhi = 65536},
    {.name = "--seed",
     .man = "Seed the offsets and data (default: from the clock).", .value = "N", .help = "seed the offsets and data", .dflt = "from the clock",
     .type = CLI_T_CALL, .set = set_seed},
    CLI_TEXT("Output:"),
    {.name = "--log",
     .man = "The ACT log (default stdout; the tables then go to stderr). With several loads\n"
            "one file per load: act.log becomes act\\-3x.log, act\\-6x.log ...", .value = "FILE", .help = "the ACT log (default stdout); with several loads one file\n"
                                               "per load, FILE with -<L>x before its extension",
     .type = CLI_T_STR, A(log)},
    {.name = "--result", .note = "full histograms, per-slice histograms, verdicts",
     .man = "The result has one phase per load, plus a top-level \\fBact\\fR object with\n"
            "the config, derived rates, verdict, worst hour and per-slice full-resolution\n"
            "histograms of each load."},
    CLI_SHARED("--archive"),
    CLI_SHARED("--tag"),
    {.name = "--slice",
     .man = "Slice length of the printed tables (default 3600, or the run if shorter).", .value = "SEC", .help = "slice of the summary table", .dflt = "3600, or the run if shorter",
     .type = CLI_T_UINT, A(o.slice_sec), .ulo = 1, .uhi = 100ull * 86400, .unit = "s"},
    {.name = "--tick-ms",
     .man = "For testing: one report interval lasts MS ms of real time.", .value = "MS", .help = "testing: one report interval lasts MS ms of real time\n"
                                                 "(a scaled run: its verdict is marked scaled, not a certification)",
     .type = CLI_T_UINT, A(o.tick_ns), .ulo = 1, .uhi = 3600000, .scale = 1000000, .unit = "ms"},
    CLI_SHARED("--destroy"),
    CLI_SHARED("--quiet"),
    {.name = "--dry-run",
     .man = "Print the loads with their rates and length and the total time (for\n"
            "\\fB\\-\\-find\\-max\\fR the longest: every load up to \\fB\\-\\-max\\-load\\fR); run\n"
            "nothing.", .help = "print the loads, their rates and the total time; run nothing",
     .type = CLI_T_FLAG, A(dry_run)},
    CLI_TEXT("\n"
             "The slice tables and verdicts go to stderr while the log is on stdout, else to stdout.\n"
             "Exit status: 0 done (PASS, or a run shorter than 24 h; --find-max: a load passed),\n"
             "1 FAIL, max-lag stop or I/O errors, 2 bad input or refusal, 130/143 interrupted."),
    CLI_OPTS_END,
};

#undef A

const struct cli_cmd_opts act_cmd_opts = {.cmd = "act", .man_section = "ACT", .opts = act_opts, .col = 24};

static int act_operand(const char *s, void *cfg)
{
    struct act_args *a = cfg;
    if (a->ndev >= ACT_MAX_DEVICES) {
        cli_err("act: more than %u devices", ACT_MAX_DEVICES);
        return -1;
    }
    a->devices[a->ndev++] = s;
    return 0;
}

/* Returns 0, 1 for --help (printed), or -1 after an error message. */
static int parse_args(int argc, char **argv, struct act_args *a, struct cli_output *out)
{
    int rc = cli_opts_parse(&act_cmd_opts, argc, argv, a, out, act_operand);
    if (rc)
        return rc;
    if (out->format != FMT_TEXT || out->output) {
        cli_err("act: --format/--output do not apply: the ACT log goes to stdout or --log "
                "FILE; save the result with --result FILE");
        return -1;
    }
    return 0;
}

/* What `act` parsed: the loads and options, the base config, the probed
 * devices. */
struct act_cmd {
    struct act_args a;
    struct act_config base;
    struct act_device *devs;    /* ACT_MAX_DEVICES, probed */
};

static int act_parse(int argc, char **argv, void *cfg, struct cli_output *out)
{
    struct act_cmd *ac = cfg;
    struct act_args *ap = &ac->a;
    ap->o.mode = ACT_MODE_OPEN_LOOP;
    ap->o.engine = ENGINE_IO_URING;
    int rc = parse_args(argc, argv, ap, out);
    if (rc)
        return rc > 0 ? CLI_EXIT_OK : CLI_EXIT_USAGE;
    if (!ap->engine_set && ap->o.mode == ACT_MODE_THREADS)
        ap->o.engine = ENGINE_PSYNC;
    if (ap->o.mode == ACT_MODE_THREADS && ap->o.engine != ENGINE_PSYNC && ap->o.engine != ENGINE_NULL) {
        cli_err("act: --threads runs blocking I/O: use --engine psync (the default) or null");
        return CLI_EXIT_USAGE;
    }
    if (ap->o.mode == ACT_MODE_THREADS && ap->o.iodepth) {
        cli_err("act: --iodepth applies to the open-loop mode; --threads runs one I/O per "
                "service thread");
        return CLI_EXIT_USAGE;
    }
    if (ap->find_max && ap->nloads > 1) {
        cli_err("act: --find-max takes one starting --load, not a list");
        return CLI_EXIT_USAGE;
    }
    if (ap->max_load > 0 && !ap->find_max) {
        cli_err("act: --max-load applies to --find-max");
        return CLI_EXIT_USAGE;
    }
    if (cli_output_check(out, cli_journal_want(out)) < 0)
        return CLI_EXIT_USAGE;
    if (ap->find_max && !ap->nloads)
        ap->loads[ap->nloads++] = 1;

    struct act_config *base = &ac->base;
    char err[1024];
    /* The first word is the config when there is no load to go with
     * devices, or when it is a regular file (a shorthand's devices are
     * block devices; files need --set file-size-mbytes, shorthand only). */
    struct stat st;
    if (ap->ndev >= 1 && !ap->nsets &&
        (!ap->nloads || (stat(ap->devices[0], &st) == 0 && S_ISREG(st.st_mode)))) {
        ap->config = ap->devices[0];
        for (unsigned i = 1; i < ap->ndev; i++)
            ap->devices[i - 1] = ap->devices[i];
        ap->ndev--;
    }
    if (ap->config) {
        if (ap->ndev) {
            cli_err("act: devices come from the config's device-names; remove '%s'",
                    ap->devices[0]);
            return CLI_EXIT_USAGE;
        }
        if (ap->nsets) {
            cli_err("act: --set applies to the shorthand; edit %s instead", ap->config);
            return CLI_EXIT_USAGE;
        }
        if (act_config_parse_file(base, ap->config, err, sizeof(err)) < 0) {
            cli_err("act: %s", err);
            return CLI_EXIT_USAGE;
        }
        if (ap->duration_set)
            base->test_duration_sec = ap->duration;
    } else {
        if (!ap->ndev || !ap->nloads) {
            cli_err("act: give a CONFIG file, or --load (or --find-max) and the DEVICEs "
                    "(see ssdbench act --help)");
            return CLI_EXIT_USAGE;
        }
        if (act_shorthand_config(ap, base, err, sizeof(err)) < 0) {
            cli_err("act: %s", err);
            return CLI_EXIT_USAGE;
        }
    }
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    ap->o.ncpus = ncpu > 0 ? (unsigned)ncpu : 1;

    struct act_device *devs = ac->devs = calloc(ACT_MAX_DEVICES, sizeof(*devs));
    if (!devs)
        return CLI_EXIT_FAIL;
    if (act_probe_devices(base, ap->o.engine, devs, err, sizeof(err)) < 0) {
        cli_err("act: %s", err);
        return CLI_EXIT_USAGE;
    }
    return WL_PARSED;
}

static int act_run_cmd(struct session *s, void *cfg, struct cli_output *out)
{
    struct act_cmd *ac = cfg;
    (void)out;
    if (ac->a.dry_run) {
        char err[512];
        if (act_ladder_plan(stdout, &ac->a, &ac->base, err, sizeof(err)) < 0) {
            cli_err("act: %s", err);
            return CLI_EXIT_USAGE;
        }
        return CLI_EXIT_OK;
    }
    signal_install();
    unsigned nrun = 0;
    int rc = act_ladder_run(s, &ac->a, &ac->base, ac->devs, &nrun);
    s->done = nrun > 0;
    return rc;
}

/* The slice tables and verdicts were printed as each load ended; what is
 * left is saving the result. */
static int act_render(struct session *s, void *cfg, const struct cli_output *out, int rc)
{
    (void)cfg;
    if (cli_save_result(s->doc, out) < 0) {
        if (!s->st.interrupted)
            rc = rc ? rc : CLI_EXIT_FAIL;
    }
    return rc;
}

static void act_free(void *cfg)
{
    struct act_cmd *ac = cfg;
    free(ac->devs);
}

static void act_print_usage(FILE *f)
{
    cli_opts_help(f, &act_cmd_opts);
}

const struct workload_cmd act_workload = {
    .name = "act",
    .summary = "Aerospike ACT storage certification: a config or --load Nx DEVICE..., ACT log + verdict",
    .usage = act_print_usage,
    .cfg_size = sizeof(struct act_cmd),
    .parse = act_parse,
    .run = act_run_cmd,
    .render = act_render,
    .free = act_free,
};
