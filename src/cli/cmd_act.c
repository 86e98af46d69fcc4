/* cmd_act.c - `ssdbench act` (an ACT storage certification run: one load, a
 * ladder of loads, or a search for the highest passing load) and
 * `ssdbench act-prep` (ACT's zero + random fill of a device). Argument
 * parsing, which stream gets what, and exit codes; the workload is
 * workload/act_run.h. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/commands.h"
#include "core/signal.h"
#include "output/act_text.h"
#include "result/result.h"
#include "target/target.h"
#include "workload/act_run.h"
#include "workload/plan.h"

#define ACT_MAX_LOADS 64
#define ACT_MAX_SETS 64
#define PRODUCER "ssdbench " SSDBENCH_VERSION

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
    "  --slice SEC           slice of the summary table (default 3600, or the run if shorter)\n"
    "  --tick-ms MS          testing: one report interval lasts MS ms of real time\n"
    "                        (a scaled run: its verdict is marked scaled, not a certification)\n"
    "  --destroy PATH        consent to overwrite PATH when the guard refuses it\n"
    "  --quiet, -q           no live status line\n"
    "\n"
    "The slice tables and verdicts go to stderr while the log is on stdout, else to stdout.\n"
    "Exit status: 0 done (PASS, or a run shorter than 24 h; --find-max: a load passed),\n"
    "1 FAIL, max-lag stop or I/O errors, 2 bad input or refusal, 130/143 interrupted.\n";

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
    struct act_run_opts o;
};

static int parse_duration(const char *s, uint32_t *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || errno || !(v > 0))
        return -1;
    double mul = 1;
    if (*end == 's')
        end++;
    else if (*end == 'm')
        mul = 60, end++;
    else if (*end == 'h')
        mul = 3600, end++;
    else if (*end == 'd')
        mul = 86400, end++;
    double t = v * mul;
    if (*end || t < 1 || t > UINT32_MAX || t != floor(t))
        return -1;
    *out = (uint32_t)t;
    return 0;
}

static bool parse_uint(const char *s, unsigned long long max, unsigned long long *out)
{
    char *end;
    errno = 0;
    if (!s || *s < '0' || *s > '9')
        return false;
    unsigned long long v = strtoull(s, &end, 10);
    if (*end || errno || v > max)
        return false;
    *out = v;
    return true;
}

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
    static const struct { const char *name; enum job_engine e; } engines[] = {
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

/* Returns 0, 1 for --help, or -1 after an error message. */
static int parse_args(int argc, char **argv, struct act_args *a, struct cli_output *out)
{
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i], *v;
        int c = cli_output_option(&i, argc, argv, out);
        if (c < 0)
            return -1;
        if (c > 0)
            continue;
        unsigned long long n;
        if (!strcmp(arg, "--help") || !strcmp(arg, "-h")) {
            return 1;
        } else if ((v = cli_opt_value("--load", &i, argc, argv))) {
            if (parse_loads(v, a) < 0)
                return -1;
        } else if (!strcmp(arg, "--find-max")) {
            a->find_max = true;
        } else if ((v = cli_opt_value("--max-load", &i, argc, argv))) {
            if (act_parse_load(v, &a->max_load) < 0) {
                cli_err("act: --max-load '%s': not a load like 64x", v);
                return -1;
            }
        } else if ((v = cli_opt_value("--duration", &i, argc, argv))) {
            if (parse_duration(v, &a->duration) < 0) {
                cli_err("act: --duration '%s': give seconds, or a number with s, m, h or d "
                        "(e.g. 24h), at least 1 s", v);
                return -1;
            }
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
            if (!parse_uint(v, 65536, &n) || n == 0) {
                cli_err("act: --iodepth '%s': give 1 to 65536", v);
                return -1;
            }
            a->o.iodepth = (unsigned)n;
        } else if ((v = cli_opt_value("--seed", &i, argc, argv))) {
            if (!parse_uint(v, UINT64_MAX, &n)) {
                cli_err("act: --seed '%s': give a non-negative integer", v);
                return -1;
            }
            a->o.seed = n;
            a->o.seed_set = true;
        } else if ((v = cli_opt_value("--log", &i, argc, argv))) {
            a->log = v;
        } else if ((v = cli_opt_value("--slice", &i, argc, argv))) {
            if (!parse_uint(v, 100ull * 86400, &n) || n == 0) {
                cli_err("act: --slice '%s': give a whole number of seconds from 1", v);
                return -1;
            }
            a->o.slice_sec = (unsigned)n;
        } else if ((v = cli_opt_value("--tick-ms", &i, argc, argv))) {
            if (!parse_uint(v, 3600000, &n) || n == 0) {
                cli_err("act: --tick-ms '%s': give 1 to 3600000 ms", v);
                return -1;
            }
            a->o.tick_ns = n * 1000000ull;
        } else if (arg[0] == '-' && arg[1]) {
            cli_err("act: unknown option '%s' (see ssdbench act --help)", arg);
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

/* The shorthand's config, through the config parser so every key is
 * checked as in a file. */
static int shorthand_config(const struct act_args *a, struct act_config *c)
{
    char err[512];
    struct act_config tmp;
    if (act_config_from_load(&tmp, a->loads[0], a->ndev, a->devices,
                             a->duration_set ? a->duration : 86400, err, sizeof(err)) < 0) {
        cli_err("act: %s", err);
        return -1;
    }
    size_t cap = 4096 + (size_t)a->ndev * ACT_DEVICE_NAME_MAX + (size_t)a->nsets * 512;
    char *text = malloc(cap);
    if (!text)
        return -1;
    size_t n = (size_t)snprintf(text, cap, "device-names:");
    for (unsigned i = 0; i < a->ndev; i++)
        n += (size_t)snprintf(text + n, cap - n, " %s", a->devices[i]);
    n += (size_t)snprintf(text + n, cap - n,
                          "\ntest-duration-sec: %u\nread-reqs-per-sec: %u\nwrite-reqs-per-sec: %u\n",
                          tmp.test_duration_sec, tmp.read_reqs_per_sec, tmp.write_reqs_per_sec);
    for (unsigned i = 0; i < a->nsets; i++) {
        const char *eq = strchr(a->sets[i], '=');
        n += (size_t)snprintf(text + n, cap - n, "%.*s: %s\n", (int)(eq - a->sets[i]),
                              a->sets[i], eq + 1);
    }
    int rc = act_config_parse_text(c, text, "--set", err, sizeof(err));
    free(text);
    if (rc < 0) {
        cli_err("act: %s", err);
        return -1;
    }
    return 0;
}

/* "act.log" -> "act-3x.log" for one load of several. */
static void log_name(const char *base, double load, bool several, char *out, size_t n)
{
    if (!several) {
        snprintf(out, n, "%s", base);
        return;
    }
    const char *slash = strrchr(base, '/');
    const char *dot = strrchr(slash ? slash + 1 : base, '.');
    if (dot && dot != (slash ? slash + 1 : base))
        snprintf(out, n, "%.*s-%gx%s", (int)(dot - base), base, load, dot);
    else
        snprintf(out, n, "%s-%gx", base, load);
}

static void describe(FILE *f, const struct act_load_result *r, const struct act_run_opts *o)
{
    const struct act_derived *d = &r->derived;
    const struct act_plan *p = &r->plan;
    if (r->load > 0)
        fprintf(f, "With %gx load", r->load);
    else
        fprintf(f, "With the config's load");
    fprintf(f, " on %u device%s: %.0f small reads/s", r->cfg.ndevices,
            r->cfg.ndevices == 1 ? "" : "s", p->small_rate_total * p->read_frac);
    if (d->internal_write_reqs_per_sec)
        fprintf(f, ", %.0f commit writes/s", p->small_rate_total * (1 - p->read_frac));
    fprintf(f, ", %.2f large-block reads/s, %.2f large-block writes/s%s, %u s\n",
            d->large_block_reads_per_sec, d->large_block_writes_per_sec,
            r->cfg.tomb_raider ? ", tomb raider" : "", p->nintervals * r->cfg.report_interval_sec);
    if (o->mode == ACT_MODE_THREADS)
        fprintf(f, "  threads mode: %u service threads (%s), one I/O each", d->service_threads,
                job_engine_name(o->engine));
    else
        fprintf(f, "  open-loop mode: %u %s worker%s with %u slots each", p->service_rings,
                job_engine_name(o->engine), p->service_rings == 1 ? "" : "s",
                p->jobs[p->job_of[ACT_JOB_SERVICE] >= 0 ? p->job_of[ACT_JOB_SERVICE] : 0].iodepth);
    fprintf(f, "; queue depth at most %u; CPU %.2f s user + %.2f s system\n\n",
            p->max_queue_depth, r->cpu_user_s, r->cpu_sys_s);
}

static void print_screen(FILE *f, const char *what, const struct act_verdict *v, unsigned slice)
{
    bool over = v->over_limit[0] || v->over_limit[1] || v->over_limit[2];
    fprintf(f, "screen (%s, %u slice%s of %u s): max %.2f%% >= 1 ms, %.2f%% >= 8 ms, "
               "%.2f%% >= 64 ms: %s\n", what, v->hours, v->hours == 1 ? "" : "s", slice,
            v->max_pct[0], v->max_pct[1], v->max_pct[2],
            v->hours == 0 ? "no full slice" : over ? "FAIL" : "pass");
}

static void print_load(FILE *f, const struct act_load_result *r, const struct act_run_opts *o)
{
    describe(f, r, o);
    if (r->an.ntables && act_text_tables(f, &r->an) > 0) {
        fputc('\n', f);
        print_screen(f, "device", &r->screen, r->an.slice_sec);
        print_screen(f, "transaction", &r->screen_trans, r->an.slice_sec);
    } else if (r->an.ntables) {
        fprintf(f, "no full slice of %u s to tabulate (logged: %u s); try a shorter --slice\n",
                r->an.slice_sec, r->logged_s);
    } else {
        fprintf(f, "no small reads in this load: nothing to tabulate\n");
    }
    if (r->io_errors)
        fprintf(f, "I/O errors: %llu (see the result's errors)\n",
                (unsigned long long)r->io_errors);
    act_text_verdict(f, &r->an);
    fprintf(f, "load %s\n\n", r->passed ? "passed" : "failed");
    fflush(f);
}

static const char *outcome(const struct act_load_result *r)
{
    if (r->interrupted)
        return "interrupted";
    if (r->lagged)
        return "FAIL (max-lag stop)";
    if (r->io_errors)
        return "FAIL (I/O errors)";
    bool scaled = r->an.verdict.scaled_tick_ms > 0;
    switch (r->an.verdict.status) {
    case ACT_VERDICT_PASS: return scaled ? "PASS (scaled)" : "PASS";
    case ACT_VERDICT_FAIL: return scaled ? "FAIL (scaled)" : "FAIL";
    case ACT_VERDICT_INCOMPLETE: return "INCOMPLETE";
    case ACT_VERDICT_NONE: break;
    }
    return r->passed ? "pass (screen, < 24 h)" : "fail (screen, < 24 h)";
}

/* One row per load: the max of each slice table, as the seed's summary. */
static void print_ladder(FILE *f, const struct act_load_result *rs, unsigned n)
{
    fprintf(f, "%7s  %-13s %-13s %-13s %s\n%7s  %-13s %-13s %s\n", "load", "> 1 ms",
            "> 8 ms", "> 64 ms", "result", "", "trans/device", "trans/device", "trans/device");
    for (unsigned i = 0; i < n; i++) {
        const struct act_load_result *r = &rs[i];
        char cell[3][32];
        for (unsigned k = 0; k < 3; k++)
            snprintf(cell[k], sizeof(cell[k]), "%.2f/%.2f", r->screen_trans.max_pct[k],
                     r->screen.max_pct[k]);
        char load[16];
        snprintf(load, sizeof(load), "%gx", r->load);
        fprintf(f, "%7s  %-13s %-13s %-13s %s\n", r->load > 0 ? load : "config", cell[0],
                cell[1], cell[2], outcome(r));
    }
    fputc('\n', f);
}

static int run_loads(struct act_args *a, const struct act_config *base,
                     const struct act_device *devs, const struct cli_output *out, int argc,
                     char **argv)
{
    bool several = a->find_max || a->nloads > 1;
    FILE *sum = a->log ? stdout : stderr;
    signal_install();
    cJSON *doc = result_new(argc, argv);
    cJSON *act = act_json_begin(doc, base, &a->o, devs);
    struct runner_opts ro = {.consent = &out->consent, .status = out->quiet ? NULL : cli_status};
    unsigned cap = a->find_max ? 64 : (a->nloads ? a->nloads : 1);
    struct act_load_result *rs = calloc(cap, sizeof(*rs));
    if (!doc || !act || !rs) {
        cli_err("act: out of memory");
        free(rs);
        cJSON_Delete(doc);
        return CLI_EXIT_FAIL;
    }
    int status = CLI_EXIT_OK;
    unsigned nrun = 0;
    double load = a->nloads ? a->loads[0] : a->find_max ? 1 : 0;
    double highest = 0, first_fail = 0;
    bool interrupted = false;
    int sig = 0;
    while (nrun < cap) {
        char path[4096];
        FILE *log = stdout;
        if (a->log) {
            log_name(a->log, load, several, path, sizeof(path));
            log = fopen(path, "w");
            if (!log) {
                cli_err("act: %s: cannot write: %s", path, strerror(errno));
                status = CLI_EXIT_USAGE;
                break;
            }
        }
        char err[1024];
        struct act_load_result *r = &rs[nrun];
        int rc = act_run_load(doc, base, load, devs, &a->o, &ro, log, PRODUCER, r, err,
                              sizeof(err));
        if (log != stdout && fclose(log) != 0 && rc == 0)
            r->log_error = true;
        if (rc < 0) {
            cli_err("act: %s", err);
            act_load_result_free(r);
            status = rc == -EPERM || rc == -EINVAL ? CLI_EXIT_USAGE : CLI_EXIT_FAIL;
            break;
        }
        nrun++;
        act_json_add_load(act, r, a->log ? path : "-");
        print_load(sum, r, &a->o);
        if (r->log_error) {
            cli_err("act: writing the ACT log failed; the load was stopped");
            status = CLI_EXIT_FAIL;
        }
        if (r->interrupted) {
            interrupted = true;
            sig = r->signal;
            break;
        }
        if (a->find_max) {
            if (!r->passed) {
                first_fail = load;
                break;
            }
            highest = load;
            load = act_ladder_next(load);
            if (load > (a->max_load > 0 ? a->max_load : 1024))
                break;
        } else {
            if (r->lagged || r->io_errors || r->an.verdict.status == ACT_VERDICT_FAIL)
                status = status ? status : CLI_EXIT_FAIL;
            if (nrun >= a->nloads)
                break;
            load = a->loads[nrun];
        }
    }
    if (several && nrun)
        print_ladder(sum, rs, nrun);
    if (a->find_max && nrun) {
        act_json_find_max(act, highest, first_fail);
        if (highest > 0)
            fprintf(sum, "highest passing load: %gx", highest);
        else
            fprintf(sum, "no load passed");
        if (first_fail > 0)
            fprintf(sum, " (%gx failed: %s)\n", first_fail, outcome(&rs[nrun - 1]));
        else
            fprintf(sum, " (stopped before a load failed)\n");
        if (!status && !interrupted)
            status = highest > 0 ? CLI_EXIT_OK : CLI_EXIT_FAIL;
        for (unsigned i = 0; i < nrun && !status; i++)
            if (rs[i].io_errors)
                status = CLI_EXIT_FAIL;
    }
    for (unsigned i = 0; i < nrun; i++)
        act_load_result_free(&rs[i]);
    free(rs);
    result_finish(doc, interrupted, sig);
    if (nrun && out->result) {
        char err[512];
        if (result_write(doc, out->result, err, sizeof(err)) < 0) {
            cli_err("%s", err);
            status = status ? status : CLI_EXIT_FAIL;
        }
    }
    cJSON_Delete(doc);
    fflush(sum);
    if (interrupted)
        return 128 + (sig ? sig : SIGINT);
    return status;
}

int cmd_act(int argc, char **argv)
{
    struct act_args a;
    memset(&a, 0, sizeof(a));
    a.o.mode = ACT_MODE_OPEN_LOOP;
    a.o.engine = ENGINE_IO_URING;
    struct cli_output out;
    cli_output_init(&out);
    int rc = parse_args(argc, argv, &a, &out);
    if (rc) {
        if (rc > 0)
            fputs(act_usage, stdout);
        return rc > 0 ? CLI_EXIT_OK : CLI_EXIT_USAGE;
    }
    if (!a.engine_set && a.o.mode == ACT_MODE_THREADS)
        a.o.engine = ENGINE_PSYNC;
    if (a.o.mode == ACT_MODE_THREADS && a.o.engine != ENGINE_PSYNC && a.o.engine != ENGINE_NULL) {
        cli_err("act: --threads runs blocking I/O: use --engine psync (the default) or null");
        return CLI_EXIT_USAGE;
    }
    if (a.o.mode == ACT_MODE_THREADS && a.o.iodepth) {
        cli_err("act: --iodepth applies to the open-loop mode; --threads runs one I/O per "
                "service thread");
        return CLI_EXIT_USAGE;
    }
    if (a.find_max && a.nloads > 1) {
        cli_err("act: --find-max takes one starting --load, not a list");
        return CLI_EXIT_USAGE;
    }
    if (a.max_load > 0 && !a.find_max) {
        cli_err("act: --max-load applies to --find-max");
        return CLI_EXIT_USAGE;
    }
    if (a.find_max && !a.nloads)
        a.loads[a.nloads++] = 1;

    struct act_config base;
    char err[1024];
    /* The first word is the config when there is no load to go with
     * devices, or when it is a regular file (a shorthand's devices are
     * block devices; files need --set file-size-mbytes, shorthand only). */
    struct stat st;
    if (a.ndev >= 1 && !a.nsets &&
        (!a.nloads || (stat(a.devices[0], &st) == 0 && S_ISREG(st.st_mode)))) {
        a.config = a.devices[0];
        for (unsigned i = 1; i < a.ndev; i++)
            a.devices[i - 1] = a.devices[i];
        a.ndev--;
    }
    if (a.config) {
        if (a.ndev) {
            cli_err("act: devices come from the config's device-names; remove '%s'",
                    a.devices[0]);
            return CLI_EXIT_USAGE;
        }
        if (a.nsets) {
            cli_err("act: --set applies to the shorthand; edit %s instead", a.config);
            return CLI_EXIT_USAGE;
        }
        if (act_config_parse_file(&base, a.config, err, sizeof(err)) < 0) {
            cli_err("act: %s", err);
            return CLI_EXIT_USAGE;
        }
        if (a.duration_set)
            base.test_duration_sec = a.duration;
    } else {
        if (!a.ndev || !a.nloads) {
            cli_err("act: give a CONFIG file, or --load (or --find-max) and the DEVICEs "
                    "(see ssdbench act --help)");
            return CLI_EXIT_USAGE;
        }
        if (shorthand_config(&a, &base) < 0)
            return CLI_EXIT_USAGE;
    }
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    a.o.ncpus = ncpu > 0 ? (unsigned)ncpu : 1;

    struct act_device *devs = calloc(ACT_MAX_DEVICES, sizeof(*devs));
    if (!devs)
        return CLI_EXIT_FAIL;
    if (act_probe_devices(&base, a.o.engine, devs, err, sizeof(err)) < 0) {
        cli_err("act: %s", err);
        free(devs);
        return CLI_EXIT_USAGE;
    }
    rc = run_loads(&a, &base, devs, &out, argc, argv);
    free(devs);
    return rc;
}
