/* cmd_pts.c - `ssdbench pts [TEST...] DEVICE`: the SNIA Solid State Storage
 * Performance Test Specification's IOPS, Throughput, Latency, Write
 * Saturation, Host Idle Recovery, Cross Stimulus Recovery, Composite Block
 * Size Workload and Demand Intensity / Response Time Histogram tests (src/pts/), with the Enterprise and Client presets and
 * the options that shorten a run for a test device (marked not compliant). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/signal.h"
#include "job/spec_parse.h"
#include "cli/cli.h"
#include "cli/cli_dry.h"
#include "cli/cli_family.h"
#include "cli/workloads.h"
#include "output/pts_text.h"
#include "pts/pts.h"
#include "result/result.h"

struct pts_args {
    struct pts_cfg cfg;
    bool tests_named;
    bool dry_run;
};

static void pts_usage(FILE *f)
{
    fprintf(f,
            "usage: ssdbench pts [TEST...] [options] DEVICE\n\n"
            "SNIA SSS PTS 2.0.2 tests, each: purge, WIPC (2x capacity SEQ 128 KiB writes), then\n"
            "rounds until steady state (at most 25), with no idle time between steps; WSAT, HIR,\n"
            "XSR, CBW and DIRTH start from the purged state with their own stimulus instead.\n"
            "TEST: iops, throughput (tp), latency (lat), wsat, hir, xsr, cbw (ecw), dirth,\n"
            "or all (default: all).\n\n"
            "Test conditions:\n"
            "  --test LIST              the tests, comma-separated (same as naming them)\n"
            "  --enterprise             PTS-E (default): WCD, ActiveRange 100 %%, T4/Q32\n"
            "  --client                 PTS-C: WCE, ActiveRange 75 %%, T2/Q16, TP 1024 KiB only\n"
            "  --active-range PCT       ActiveRange in %% of the capacity (default: the preset's)\n"
            "  --tc N, --qd N           threads and outstanding I/O per thread (default: preset's)\n"
            "  --engine NAME            io_uring (default), libaio or psync\n"
            "  --purge-method auto|block  auto (default): the device's own erase (NVMe sanitize /\n"
            "                           format, ATA security erase / sanitize, SCSI sanitize /\n"
            "                           format unit) where it has one, else discard or zero fill;\n"
            "                           block: the block layer's only (not compliant)\n"
            "  --write-cache set|keep   set (default): the preset's state (E: off, C: on) for the\n"
            "                           run, restored after; keep: leave it as it is\n"
            "  --active-amount SIZE     PTS-C ActiveRange segmentation: the rounds of IOPS, TP and\n"
            "                           LAT touch only SIZE bytes (PTS-C: 8g or 16g) in segments\n"
            "  --segments N             how many segments, spread over the ActiveRange (2048)\n"
            "  --io-log PREFIX          per-phase fio latency logs with offsets (PREFIX-NNN-phase)\n"
            "Shortening a run (any of these marks the result not compliant):\n"
            "  --round-time TIME        length of one round, split evenly over its elements\n"
            "                           (default: 1 min per element: IOPS 56 min, LAT 9, TP 2)\n"
            "  --max-rounds N           give up after N rounds: SS not achieved (default 25, >= 5)\n"
            "  --capacity-scale F       WIPC writes 2F x, WSAT at most 4F x the ActiveRange (1)\n"
            "  --wsat-time TIME         WSAT time limit (default 24h)\n"
            "  --wsat-interval TIME     WSAT sample interval (default 1m)\n"
            "  --no-purge               skip the purge (the report says \"no purge\")\n"
            "  --hir-burst TIME         HIR burst length (5s); the waits are 1,2,3,5,10x it\n"
            "  --reps N                 HIR bursts per wait state and baseline bursts (360)\n"
            "  --xsr-time TIME          XSR AG1 and AG3 time (8h); AG2 runs 3/4 of it\n"
            "  --xsr-interval TIME      XSR sample interval (default 1m)\n"
            "  --di-tc LIST, --di-qd LIST  CBW/DIRTH demand grid, descending (32,16,8,6,4,2,1)\n"
            "DIRTH stimulus (the operator's choice; not a compliance matter):\n"
            "  --dirth-bs SIZE          block size (default 8k)\n"
            "  --dirth-read PCT         read share (default 65)\n"
            "Output and safety:\n"
            "  --format text|json|csv   what to print (default text: the PTS report)\n"
            "  --output FILE, -o FILE   write it to FILE\n"
            "  --result FILE            also save the result JSON (ssdbench report makes HTML)\n"
            "  --archive[=PATH]         also file the result in the archive (default archive:\n"
            "                           $SSDBENCH_ARCHIVE, else ${XDG_DATA_HOME:-~/.local/share}/ssdbench/results.db)\n"
            "  --tag KEY=VALUE          a tag on the filed result (repeatable; docs/archive.md)\n"
            "  --destroy PATH           consent to overwrite PATH (a device with signatures; also\n"
            "                           needed for the device's own erase, and for every other\n"
            "                           NVMe namespace with data that a sanitize reaches)\n"
            "  --quiet, -q              no progress or status lines\n"
            "  --dry-run                print the tests, their longest time and what the guard says\n"
            "                           about the device; run nothing (a missing device: exit 2)\n");
}

static int select_tests(struct pts_args *a, const char *list)
{
    if (!a->tests_named)
        memset(a->cfg.test, 0, sizeof(a->cfg.test));
    a->tests_named = true;
    const char *p = list;
    while (*p) {
        size_t l = strcspn(p, ",");
        char name[32];
        snprintf(name, sizeof(name), "%.*s", (int)(l < 31 ? l : 31), p);
        if (!strcmp(name, "all")) {
            for (int t = 0; t < PTS_NTESTS; t++)
                a->cfg.test[t] = true;
        } else {
            int t = pts_test_parse(name);
            if (t < 0) {
                cli_err("pts: unknown test '%s' (iops, throughput, latency, wsat, hir, xsr, cbw, "
                        "dirth, all)", name);
                return -1;
            }
            a->cfg.test[t] = true;
        }
        p += l;
        if (*p)
            p++;
    }
    return 0;
}

static int opt_time(const char *opt, const char *v, uint64_t *ns)
{
    if (cli_opt_time(opt, v, ns) < 0)
        return -1;
    if (!*ns) {
        cli_err("%s: must be more than 0", opt);
        return -1;
    }
    return 0;
}

/* "32,16,8": descending whole numbers, at most PTS_DI_MAX of them. */
static int opt_grid(const char *opt, const char *v, unsigned *out, unsigned *n)
{
    unsigned k = 0;
    const char *p = v;
    while (*p) {
        size_t l = strcspn(p, ",");
        char one[16];
        snprintf(one, sizeof(one), "%.*s", (int)(l < 15 ? l : 15), p);
        if (k == PTS_DI_MAX) {
            cli_err("%s: '%s' has more than %d values", opt, v, PTS_DI_MAX);
            return -1;
        }
        if (cli_opt_uint(opt, one, 1, 64, &out[k]) < 0)
            return -1;
        if (k && out[k] >= out[k - 1]) {
            cli_err("%s: '%s' is not descending", opt, v);
            return -1;
        }
        k++;
        p += l;
        if (*p)
            p++;
    }
    if (!k) {
        cli_err("%s: empty list", opt);
        return -1;
    }
    *n = k;
    return 0;
}

/* The purge, write-cache and segmentation options: 1 consumed, 0 not one,
 * -1 after an error message. */
static int pts_setup_option(int *ip, int argc, char **argv, struct pts_cfg *c)
{
    const char *v;
    if ((v = cli_opt_value("--purge-method", ip, argc, argv))) {
        if (!strcmp(v, "auto"))
            c->purge_mode = RPURGE_AUTO;
        else if (!strcmp(v, "block"))
            c->purge_mode = RPURGE_BLOCK;
        else {
            cli_err("--purge-method: '%s' is not auto or block", v);
            return -1;
        }
        return 1;
    }
    if ((v = cli_opt_value("--active-amount", ip, argc, argv))) {
        char msg[256] = "";
        if (spec_parse_size(v, 1024, &c->active_amount, msg, sizeof(msg)) < 0 || !c->active_amount) {
            cli_err("--active-amount: '%s' is not a size (e.g. 16g)%s%s", v, msg[0] ? ": " : "", msg);
            return -1;
        }
        return 1;
    }
    if ((v = cli_opt_value("--segments", ip, argc, argv))) {
        if (cli_opt_uint("--segments", v, 1, 1u << 20, &c->segments) < 0)
            return -1;
        return 1;
    }
    if ((v = cli_opt_value("--io-log", ip, argc, argv))) {
        if (strlen(v) + 64 >= sizeof(c->io_log)) {
            cli_err("--io-log: prefix too long");
            return -1;
        }
        snprintf(c->io_log, sizeof(c->io_log), "%s", v);
        return 1;
    }
    if ((v = cli_opt_value("--write-cache", ip, argc, argv))) {
        if (!strcmp(v, "set"))
            c->keep_write_cache = false;
        else if (!strcmp(v, "keep"))
            c->keep_write_cache = true;
        else {
            cli_err("--write-cache: '%s' is not set or keep", v);
            return -1;
        }
        return 1;
    }
    return 0;
}

/* Returns 1 when argv[*ip] is a pts option (consumed), 0 when not, -1
 * after an error message. */
static int pts_option(int *ip, int argc, char **argv, struct pts_args *a)
{
    struct pts_cfg *c = &a->cfg;
    const char *s = argv[*ip], *v;
    int i = *ip, r;
    if (!strcmp(s, "--enterprise")) {
        c->preset = PTS_ENTERPRISE;
    } else if (!strcmp(s, "--client")) {
        c->preset = PTS_CLIENT;
    } else if (!strcmp(s, "--no-purge")) {
        c->no_purge = true;
    } else if (!strcmp(s, "--dry-run")) {
        a->dry_run = true;
    } else if ((v = cli_opt_value("--test", &i, argc, argv))) {
        if (select_tests(a, v) < 0)
            return -1;
    } else if ((v = cli_opt_value("--active-range", &i, argc, argv))) {
        char *e;
        double pct = strtod(v, &e);
        if (e == v || (*e && strcmp(e, "%")) || !(pct > 0 && pct <= 100)) {
            cli_err("--active-range: '%s' is not a percentage in (0, 100]", v);
            return -1;
        }
        c->active_range_pct = pct;
    } else if ((v = cli_opt_value("--capacity-scale", &i, argc, argv))) {
        char *e;
        double f = strtod(v, &e);
        if (e == v || *e || !(f > 0 && f <= 100)) {
            cli_err("--capacity-scale: '%s' is not a number in (0, 100]", v);
            return -1;
        }
        c->capacity_scale = f;
    } else if ((v = cli_opt_value("--tc", &i, argc, argv))) {
        if (cli_opt_uint("--tc", v, 1, 64, &c->tc) < 0)
            return -1;
    } else if ((v = cli_opt_value("--qd", &i, argc, argv))) {
        if (cli_opt_uint("--qd", v, 1, 4096, &c->qd) < 0)
            return -1;
    } else if ((v = cli_opt_value("--max-rounds", &i, argc, argv))) {
        if (cli_opt_uint("--max-rounds", v, 5, 1000, &c->max_rounds) < 0)
            return -1;
    } else if ((v = cli_opt_value("--round-time", &i, argc, argv))) {
        if (opt_time("--round-time", v, &c->round_ns) < 0)
            return -1;
    } else if ((v = cli_opt_value("--engine", &i, argc, argv))) {
        if (!strcmp(v, "io_uring"))
            c->engine = ENGINE_IO_URING;
        else if (!strcmp(v, "libaio"))
            c->engine = ENGINE_LIBAIO;
        else if (!strcmp(v, "psync"))
            c->engine = ENGINE_PSYNC;
        else {
            cli_err("--engine: '%s' is not io_uring, libaio or psync", v);
            return -1;
        }
    } else if ((v = cli_opt_value("--wsat-time", &i, argc, argv))) {
        if (opt_time("--wsat-time", v, &c->wsat_ns) < 0)
            return -1;
    } else if ((v = cli_opt_value("--wsat-interval", &i, argc, argv))) {
        if (opt_time("--wsat-interval", v, &c->wsat_sample_ns) < 0)
            return -1;
    } else if ((v = cli_opt_value("--hir-burst", &i, argc, argv))) {
        if (opt_time("--hir-burst", v, &c->hir_burst_ns) < 0)
            return -1;
    } else if ((v = cli_opt_value("--reps", &i, argc, argv))) {
        if (cli_opt_uint("--reps", v, 1, 100000, &c->hir_reps) < 0)
            return -1;
    } else if ((v = cli_opt_value("--xsr-time", &i, argc, argv))) {
        if (opt_time("--xsr-time", v, &c->xsr_ns) < 0)
            return -1;
    } else if ((v = cli_opt_value("--xsr-interval", &i, argc, argv))) {
        if (opt_time("--xsr-interval", v, &c->xsr_sample_ns) < 0)
            return -1;
    } else if ((v = cli_opt_value("--di-tc", &i, argc, argv))) {
        if (opt_grid("--di-tc", v, c->di_tc, &c->di_ntc) < 0)
            return -1;
    } else if ((v = cli_opt_value("--di-qd", &i, argc, argv))) {
        if (opt_grid("--di-qd", v, c->di_qd, &c->di_nqd) < 0)
            return -1;
    } else if ((v = cli_opt_value("--dirth-bs", &i, argc, argv))) {
        uint64_t b;
        char e2[128];
        if (spec_parse_size(v, 1024, &b, e2, sizeof(e2)) < 0 || !b || b > (64u << 20) || b % 512) {
            cli_err("--dirth-bs: '%s' is not a block size of 512 bytes .. 64 MiB, a multiple of 512", v);
            return -1;
        }
        c->dirth_bs = (uint32_t)b;
    } else if ((v = cli_opt_value("--dirth-read", &i, argc, argv))) {
        if (cli_opt_uint("--dirth-read", v, 0, 100, &c->dirth_read_pct) < 0)
            return -1;
    } else if ((r = pts_setup_option(&i, argc, argv, c)) != 0) {
        if (r < 0)
            return -1;
    } else {
        return 0;
    }
    *ip = i;
    return 1;
}

static int pts_option_fn(int *ip, int argc, char **argv, void *arg)
{
    return pts_option(ip, argc, argv, arg);
}

/* A test name before the device; anything else is the device. */
static int pts_operand(const char *s, void *arg)
{
    struct pts_args *a = arg;
    if (!a->cfg.target[0] && (pts_test_parse(s) >= 0 || !strcmp(s, "all") || !strcasecmp(s, "hir") ||
                              !strcasecmp(s, "xsr") || !strcasecmp(s, "ecw") ||
                              !strcasecmp(s, "cbw") || !strcasecmp(s, "dirth")))
        return select_tests(a, s);
    if (a->cfg.target[0]) {
        cli_err("pts: one device at a time (got '%s' and '%s')", a->cfg.target, s);
        return -1;
    }
    if (strlen(s) >= sizeof(a->cfg.target)) {
        cli_err("pts: device path too long: %s", s);
        return -1;
    }
    snprintf(a->cfg.target, sizeof(a->cfg.target), "%s", s);
    return 0;
}

static int parse_args(int argc, char **argv, struct pts_args *a, struct cli_output *out)
{
    static const char *const names[] = {
        "--test", "--enterprise", "--client", "--active-range", "--tc", "--qd",
        "--round-time", "--max-rounds", "--capacity-scale", "--wsat-time",
        "--wsat-interval", "--no-purge", "--engine", "--format", "--output", "--result", "--destroy",
        "--quiet", "--archive", "--tag", "--hir-burst", "--reps", "--xsr-time", "--xsr-interval", "--di-tc", "--di-qd",
        "--dirth-bs", "--dirth-read",
        /* purge, write cache, segmentation */
        "--purge-method", "--write-cache", "--active-amount", "--segments", "--io-log", "--dry-run", NULL};
    const struct cli_family f = {.cmd = "pts", .usage = pts_usage, .option = pts_option_fn,
                                 .operand = pts_operand, .names = names, .arg = a};
    return cli_family_parse(argc, argv, &f, out);
}

/* The rounds of one steady-state test at most: max_rounds x its elements. */
static double rounds_seconds(const struct pts_cfg *c, enum pts_test t, uint32_t tp_bs)
{
    struct pts_matrix m;
    pts_matrix(t, tp_bs, &m);
    return (double)c->max_rounds * (double)m.nelements * (double)pts_element_ns(c, &m) / 1e9;
}

/* --dry-run: the tests in order with their longest time, the device and
 * what the guard says about it; nothing is purged or written. */
static int pts_dry(const struct pts_cfg *c, const struct guard_consent *consent)
{
    char d[48];
    double total = 0, t;
    printf("pts plan (%s, TC %u, QD %u, ActiveRange %g %%):\n", pts_preset_name(c->preset), pts_tc(c), pts_qd(c),
           pts_active_range(c));
    printf("  %s\n", c->no_purge ? "no purge" : "each test: purge, then WIPC (2x capacity SEQ 128 KiB writes; "
                                                "its time depends on the device)");
    for (int k = 0; k < PTS_NTESTS; k++) {
        if (!c->test[k])
            continue;
        switch (k) {
        case PTS_TP:
            t = (c->preset == PTS_ENTERPRISE ? rounds_seconds(c, PTS_TP, 128 << 10) : 0) +
                rounds_seconds(c, PTS_TP, 1024 << 10);
            break;
        case PTS_WSAT: t = (double)c->wsat_ns / 1e9; break;
        /* the bursts, each followed by its wait (1, 2, 3, 5, 10x the burst) */
        case PTS_HIR: t = (double)c->hir_reps * (double)c->hir_burst_ns / 1e9 * (5 + 1 + 2 + 3 + 5 + 10 + 1); break;
        case PTS_XSR: t = (double)c->xsr_ns / 1e9 * 2.75; break;
        case PTS_CBW:
        case PTS_DIRTH: {
            struct pts_matrix m;
            pts_di_matrix(c, (enum pts_test)k, &m);
            t = (double)c->max_rounds * (double)m.nelements * (double)pts_element_ns(c, &m) / 1e9;
            break;
        }
        default: t = rounds_seconds(c, (enum pts_test)k, 0); break;
        }
        cli_duration(d, sizeof(d), t);
        printf("  %-10s up to %s\n", pts_test_name((enum pts_test)k), d);
        total += t;
    }
    if (cli_dry_target(stdout, c->target, true, 0, consent) < 0)
        return CLI_EXIT_USAGE;
    cli_duration(d, sizeof(d), total);
    printf("  total: up to %s plus the purges and WIPC\n", d);
    return CLI_EXIT_OK;
}

static int pts_parse(int argc, char **argv, void *cfg, struct cli_output *out)
{
    struct pts_args *a = cfg;
    pts_defaults(&a->cfg);
    int rc = parse_args(argc, argv, a, out);
    if (rc)
        return rc > 0 ? CLI_EXIT_OK : CLI_EXIT_USAGE;
    char err[512];
    if (pts_check(&a->cfg, 0, err, sizeof(err)) < 0) {
        cli_err("%s", err);
        return CLI_EXIT_USAGE;
    }
    if (a->dry_run)
        return pts_dry(&a->cfg, &out->consent);
    if (cli_output_check(out, cli_journal_want(out)) < 0)
        return CLI_EXIT_USAGE;
    return WL_PARSED;
}

static void progress_line(void *arg, const char *line)
{
    (void)arg;
    fprintf(stderr, "pts: %s\n", line);
}

static int pts_run_cmd(struct session *s, void *cfg, struct cli_output *out)
{
    struct pts_args *a = cfg;
    signal_install();
    struct pts_run_opts o = {.consent = &out->consent, .status = s->ro.status, .base = &s->ro,
                             .progress = out->quiet ? NULL : progress_line};
    char err[1024];
    int rc = pts_run(&a->cfg, s->doc, &o, &s->st, err, sizeof(err));
    bool ran = cJSON_GetObjectItemCaseSensitive(s->doc, "pts") != NULL;
    result_finish(s->doc, s->st.interrupted, s->st.signal);
    if (rc < 0) {
        cli_err("%s", err);
        s->done = ran;
        cli_report_errors(s->doc);
        return ran ? CLI_EXIT_FAIL : CLI_EXIT_USAGE;
    }
    s->done = true;
    cli_report_errors(s->doc);
    return plan_exit_code(&s->st);
}

static void render_text_pts(FILE *f, const cJSON *doc, const struct render_opts *ro)
{
    (void)ro;
    render_pts_text(f, doc);
}

static int pts_render(struct session *s, void *cfg, const struct cli_output *o, int code)
{
    (void)cfg;
    return cli_family_render(s->doc, o, code, render_text_pts);
}

const struct workload_cmd pts_workload = {
    .name = "pts",
    .summary = "SNIA SSS PTS: IOPS, TP, LAT, WSAT, HIR, XSR, CBW, DIRTH to steady state",
    .usage = pts_usage,
    .cfg_size = sizeof(struct pts_args),
    .parse = pts_parse,
    .run = pts_run_cmd,
    .render = pts_render,
    .free = NULL,
};
