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
#include "cli/commands.h"
#include "base/outfile.h"
#include "base/signal.h"
#include "result/result.h"
#include "target/target.h"
#include "act/act_ladder.h"
#include "workload/plan.h"
#include "cli/workloads.h"


static const char act_usage[] =
    "usage: ssdbench act CONFIG [options]\n"
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
    "  CONFIG                an ACT storage config file (act_storage's keys)\n"
    "  --load L[,L...]       L x 1x per device (1x = 2000 reads/s + 1000 writes/s per\n"
    "                        device); a list runs each load in turn. With CONFIG it\n"
    "                        replaces the config's read/write rates\n"
    "  --find-max            run 1x, 2x, 3x, 4x, 6x, 8x, 12x, 16x, 24x ... (from --load)\n"
    "                        until a load fails; report the highest passing load\n"
    "  --max-load L          where --find-max gives up (1024x)\n"
    "  --duration D          test-duration-sec: seconds, or with s/m/h/d (24h)\n"
    "  --op PCT              over-provisioning: use the first (100 - PCT)% of each device\n"
    "                        and discard the rest first (block devices), e.g. --op 20\n"
    "  --set KEY=VALUE       any other ACT config key (shorthand only), e.g.\n"
    "                        --set report-interval-sec=10 --set commit-to-device=yes\n"
    "Execution:\n"
    "  --threads             ACT's model: service-threads blocking workers (psync), one\n"
    "                        I/O each; numbers comparable with published ACT results\n"
    "  --engine E            io_uring (default), libaio, psync (= --threads) or null\n"
    "  --iodepth N           open-loop mode: slots of the small-I/O workers (one ring per CPU)\n"
    "                        (default: service-threads, ACT's queue depth)\n"
    "  --seed N              seed the offsets and data (default: from the clock)\n"
    "Output:\n"
    "  --log FILE            the ACT log (default stdout); with several loads one file\n"
    "                        per load, FILE with -<L>x before its extension\n"
    "  --result FILE         also save the ssdbench result JSON (full histograms, per-slice\n"
    "                        histograms, verdicts)\n"
    "  --archive[=PATH]      also file the result in the archive (docs/archive.md)\n"
    "  --tag KEY=VALUE       a tag on the filed result (repeatable)\n"
    "  --slice SEC           slice of the summary table (default 3600, or the run if shorter)\n"
    "  --tick-ms MS          testing: one report interval lasts MS ms of real time\n"
    "                        (a scaled run: its verdict is marked scaled, not a certification)\n"
    "  --destroy PATH        consent to overwrite PATH when the guard refuses it\n"
    "  --quiet, -q           no live status line\n"
    "  --dry-run             print the loads, their rates and the total time; run nothing\n"
    "\n"
    "The slice tables and verdicts go to stderr while the log is on stdout, else to stdout.\n"
    "Exit status: 0 done (PASS, or a run shorter than 24 h; --find-max: a load passed),\n"
    "1 FAIL, max-lag stop or I/O errors, 2 bad input or refusal, 130/143 interrupted.\n";

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

static int parse_engine(const char *v, struct act_args *a)
{
    static const struct { const char *name; enum engine_kind e; } engines[] = {
        {"io_uring", ENGINE_IO_URING}, {"libaio", ENGINE_LIBAIO},
        {"psync", ENGINE_PSYNC},       {"null", ENGINE_NULL},
    };
    for (unsigned i = 0; i < sizeof(engines) / sizeof(engines[0]); i++)
        if (!strcmp(v, engines[i].name)) {
            a->o.engine = engines[i].e;
            a->engine_set = true;
            if (engines[i].e == ENGINE_PSYNC)
                a->o.mode = ACT_MODE_THREADS;
            return 0;
        }
    cli_err("act: --engine '%s': use io_uring, libaio, psync or null", v);
    return -1;
}

static void act_print_usage(FILE *f);

/* Returns 0, 1 for --help, or -1 after an error message. */
static int parse_args(int argc, char **argv, struct act_args *a, struct cli_output *out)
{
    bool operands = false;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i], *v;
        if (!operands && !strcmp(arg, "--")) {
            operands = true;
            continue;
        }
        if (operands) { /* after `--`: devices (or the config) */
            if (a->ndev < ACT_MAX_DEVICES)
                a->devices[a->ndev++] = arg;
            continue;
        }
        int c = cli_output_option(&i, argc, argv, out);
        if (c < 0)
            return -1;
        if (c > 0)
            continue;
        uint64_t n;
        if (!strcmp(arg, "--help") || !strcmp(arg, "-h")) {
            return 1;
        } else if ((v = cli_opt_value("--load", &i, argc, argv))) {
            if (parse_loads(v, a) < 0)
                return -1;
        } else if (!strcmp(arg, "--find-max")) {
            a->find_max = true;
        } else if (!strcmp(arg, "--dry-run")) {
            a->dry_run = true;
        } else if ((v = cli_opt_value("--max-load", &i, argc, argv))) {
            if (act_parse_load(v, &a->max_load) < 0) {
                cli_err("act: --max-load '%s': not a load like 64x", v);
                return -1;
            }
        } else if ((v = cli_opt_value("--op", &i, argc, argv))) {
            char *e;
            double pct = strtod(v, &e);
            if (e == v || (*e && strcmp(e, "%")) || !(pct >= 0 && pct < 100)) {
                cli_err("act: --op '%s': not a percentage in [0, 100)", v);
                return -1;
            }
            a->op_pct = pct;
        } else if ((v = cli_opt_value("--duration", &i, argc, argv))) {
            uint64_t sec;
            if (!cli_seconds(v, 1, UINT32_MAX, &sec)) {
                cli_err("act: --duration '%s': give seconds, or a number with s, m, h or d "
                        "(e.g. 24h), at least 1 s", v);
                return -1;
            }
            a->duration = (uint32_t)sec;
            a->duration_set = true;
        } else if ((v = cli_opt_value("--set", &i, argc, argv))) {
            if (!strchr(v, '=') || a->nsets == ACT_MAX_SETS) {
                cli_err("act: --set '%s': give KEY=VALUE with an ACT config key (at most %u)",
                        v, ACT_MAX_SETS);
                return -1;
            }
            a->sets[a->nsets++] = v;
        } else if (!strcmp(arg, "--threads")) {
            a->o.mode = ACT_MODE_THREADS;
        } else if ((v = cli_opt_value("--engine", &i, argc, argv))) {
            if (parse_engine(v, a) < 0)
                return -1;
        } else if ((v = cli_opt_value("--iodepth", &i, argc, argv))) {
            if (!cli_uint(v, 1, 65536, &n)) {
                cli_err("act: --iodepth '%s': give 1 to 65536", v);
                return -1;
            }
            a->o.iodepth = (unsigned)n;
        } else if ((v = cli_opt_value("--seed", &i, argc, argv))) {
            if (!cli_uint(v, 0, UINT64_MAX, &n)) {
                cli_err("act: --seed '%s': give a non-negative integer", v);
                return -1;
            }
            a->o.seed = n;
            a->o.seed_set = true;
        } else if ((v = cli_opt_value("--log", &i, argc, argv))) {
            a->log = v;
        } else if ((v = cli_opt_value("--slice", &i, argc, argv))) {
            if (!cli_uint(v, 1, 100ull * 86400, &n)) {
                cli_err("act: --slice '%s': give a whole number of seconds from 1", v);
                return -1;
            }
            a->o.slice_sec = (unsigned)n;
        } else if ((v = cli_opt_value("--tick-ms", &i, argc, argv))) {
            if (!cli_uint(v, 1, 3600000, &n)) {
                cli_err("act: --tick-ms '%s': give 1 to 3600000 ms", v);
                return -1;
            }
            a->o.tick_ns = n * 1000000ull;
        } else if (arg[0] == '-' && arg[1]) {
            cli_opts_unknown("act", arg, act_print_usage);
            return -1;
        } else if (a->ndev < ACT_MAX_DEVICES) {
            a->devices[a->ndev++] = arg;
        } else {
            cli_err("act: more than %u devices", ACT_MAX_DEVICES);
            return -1;
        }
    }
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
    if (rc) {
        if (rc > 0)
            fputs(act_usage, stdout);
        return rc > 0 ? CLI_EXIT_OK : CLI_EXIT_USAGE;
    }
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
    fputs(act_usage, f);
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
