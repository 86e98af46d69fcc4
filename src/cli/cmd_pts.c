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
#include "cli/cli_opts.h"
#include "cli/cli_tables.h"
#include "cli/workloads.h"
#include "output/pts_text.h"
#include "pts/pts.h"
#include "result/result.h"

struct pts_args {
    struct pts_cfg cfg;
    bool tests_named;
    bool dry_run;
};

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

static int set_test(const struct cli_ctx *c, const struct cli_opt *o, const char *v)
{
    (void)o;
    return select_tests(c->cfg, v);
}

static int set_di_tc(const struct cli_ctx *c, const struct cli_opt *o, const char *v)
{
    struct pts_cfg *p = &((struct pts_args *)c->cfg)->cfg;
    return opt_grid(o->name, v, p->di_tc, &p->di_ntc);
}

static int set_di_qd(const struct cli_ctx *c, const struct cli_opt *o, const char *v)
{
    struct pts_cfg *p = &((struct pts_args *)c->cfg)->cfg;
    return opt_grid(o->name, v, p->di_qd, &p->di_nqd);
}

static int set_io_log(const struct cli_ctx *c, const struct cli_opt *o, const char *v)
{
    struct pts_cfg *p = &((struct pts_args *)c->cfg)->cfg;
    if (strlen(v) + 64 >= sizeof(p->io_log)) {
        cli_err("%s: prefix too long", o->name);
        return -1;
    }
    snprintf(p->io_log, sizeof(p->io_log), "%s", v);
    return 0;
}

static const struct cli_enum pts_engines[] = {
    {"io_uring", ENGINE_IO_URING}, {"libaio", ENGINE_LIBAIO}, {"psync", ENGINE_PSYNC}, {NULL, 0}};
static const struct cli_enum purge_methods[] = {{"auto", RPURGE_AUTO}, {"block", RPURGE_BLOCK}, {NULL, 0}};
static const struct cli_enum write_cache[] = {{"set", 0}, {"keep", 1}, {NULL, 0}};

#define A(f) CLI_AT(struct pts_args, f)
#define TIME_GT0 .type = CLI_T_TIME, .ulo = 1

static const struct cli_opt pts_opts[] = {
    CLI_TEXT("usage: ssdbench pts [TEST...] [options] DEVICE\n\n"
             "SNIA SSS PTS 2.0.2 tests, each: purge, WIPC (2x capacity SEQ 128 KiB writes), then\n"
             "rounds until steady state (at most 25), with no idle time between steps; WSAT, HIR,\n"
             "XSR, CBW and DIRTH start from the purged state with their own stimulus instead.\n"
             "TEST: iops, throughput (tp), latency (lat), wsat, hir, xsr, cbw (ecw), dirth,\n"
             "or all (default: all).\n\n"
             "Test conditions:"),
    {.name = "--test",
     .man = "The tests, comma-separated (the same as naming them before the device).", .value = "LIST", .help = "the tests, comma-separated (same as naming them)",
     .type = CLI_T_CALL, .set = set_test},
    {.name = "--enterprise",
     .man = "PTS-E (default): write cache disabled (WCD), ActiveRange 100 %, T4/Q32.", .help = "PTS-E (default): WCD, ActiveRange 100 %, T4/Q32",
     .type = CLI_T_CONST, A(cfg.preset), .ival = PTS_ENTERPRISE},
    {.name = "--client",
     .man = "PTS-C: write cache enabled (WCE), ActiveRange 75 %, T2/Q16.", .help = "PTS-C: WCE, ActiveRange 75 %, T2/Q16, TP 1024 KiB only",
     .type = CLI_T_CONST, A(cfg.preset), .ival = PTS_CLIENT},
    {.name = "--active-range",
     .man = "ActiveRange in percent of the capacity.", .value = "PCT", .help = "ActiveRange in % of the capacity", .dflt = "the preset's",
     .type = CLI_T_PCT, A(cfg.active_range_pct), .lo = 0, .hi = 100, .flags = CLI_LO_OPEN, .unit = "%"},
    {.name = "--tc",
     .man = "Threads and outstanding I/O per thread.", .value = "N", .help = "threads", .dflt = "the preset's", .type = CLI_T_UINT,
     A(cfg.tc), .ulo = 1, .uhi = 64},
    {.name = "--qd", .value = "N", .help = "outstanding I/O per thread", .dflt = "the preset's",
     .type = CLI_T_UINT, A(cfg.qd), .ulo = 1, .uhi = 4096},
    {.name = "--engine",
     .man = "io_uring (default), libaio or psync.", .value = "NAME", .help = "io_uring, libaio or psync", .dflt = "io_uring",
     .type = CLI_T_ENUM, A(cfg.engine), .enums = pts_engines},
    {.name = "--purge-method",
     .man = "auto (default): the device's own erase where it has one, else the block\n"
            "layer's; block: the block layer's only (not compliant).", .value = "auto|block",
     .help = "auto (default): the device's own erase (NVMe sanitize /\n"
             "format, ATA security erase / sanitize, SCSI sanitize /\n"
             "format unit) where it has one, else discard or zero fill;\n"
             "block: the block layer's only (not compliant)",
     .type = CLI_T_ENUM, A(cfg.purge_mode), .enums = purge_methods},
    {.name = "--write-cache",
     .man = "set (default): the preset's write cache state during the run, restored\n"
            "after; keep: leave it as it is (a state an earlier, killed run left is\n"
            "still put back first).", .value = "set|keep",
     .help = "set (default): the preset's state (E: off, C: on) for the\n"
             "run, restored after; keep: leave it as it is",
     .type = CLI_T_ENUM, A(cfg.keep_write_cache), .enums = write_cache},
    {.name = "--active-amount",
     .man = "PTS-C ActiveRange segmentation: the rounds of IOPS, throughput and latency\n"
            "touch only SIZE bytes in N (default 2048) equal, non-touching segments with\n"
            "random starts spread over the ActiveRange; the WIPC still covers the whole\n"
            "ActiveRange. The segment starts are recorded.", .value = "SIZE",
     .help = "PTS-C ActiveRange segmentation: the rounds of IOPS, TP and\n"
             "LAT touch only SIZE bytes (PTS-C: 8g or 16g) in segments",
     .type = CLI_T_SIZE, A(cfg.active_amount), .ulo = 1, .unit = "bytes"},
    {.name = "--segments", .value = "N", .help = "how many segments, spread over the ActiveRange", .dflt = "2048",
     .type = CLI_T_UINT, A(cfg.segments), .ulo = 1, .uhi = 1u << 20},
    {.name = "--io-log",
     .man = "Per-phase fio latency logs with offsets (PREFIX-NNN-phase_lat.N.log).", .value = "PREFIX", .help = "per-phase fio latency logs with offsets (PREFIX-NNN-phase)",
     .type = CLI_T_CALL, .set = set_io_log},
    CLI_TEXT("Shortening a run (any of these marks the result not compliant):"),
    {.name = "--round-time",
     .man = "Length of one round, split evenly over its elements (default 1 minute per\n"
            "element); at least 20 ms per element.", .value = "TIME",
     .help = "length of one round, split evenly over its elements\n(IOPS 56 elements, LAT 9, TP 2)",
     .dflt = "1 min per element", TIME_GT0, A(cfg.round_ns), .unit = "s"},
    {.name = "--max-rounds",
     .man = "Rounds before \"SS not achieved\" (default 25, at least 5).", .value = "N", .help = "give up after N rounds: SS not achieved (5 to 1000)",
     .dflt = "25", .type = CLI_T_UINT, A(cfg.max_rounds), .ulo = 5, .uhi = 1000},
    {.name = "--capacity-scale",
     .man = "WIPC writes 2F and WSAT at most 4F times the ActiveRange (default 1).", .value = "F", .help = "WIPC writes 2F x, WSAT at most 4F x the ActiveRange",
     .dflt = "1", .type = CLI_T_REAL, A(cfg.capacity_scale), .lo = 0, .hi = 100, .flags = CLI_LO_OPEN},
    {.name = "--wsat-time",
     .man = "WSAT's time limit (24h) and sample interval (1m).", .value = "TIME", .help = "WSAT time limit", .dflt = "24h", TIME_GT0,
     A(cfg.wsat_ns), .unit = "s"},
    {.name = "--wsat-interval", .value = "TIME", .help = "WSAT sample interval", .dflt = "1m", TIME_GT0,
     A(cfg.wsat_sample_ns), .unit = "s"},
    {.name = "--no-purge",
     .man = "Skip the purge; the report says \"no purge\".", .help = "skip the purge (the report says \"no purge\")", .type = CLI_T_FLAG,
     A(cfg.no_purge)},
    {.name = "--hir-burst",
     .man = "HIR's burst length (5s; the waits are 1, 2, 3, 5 and 10 times it) and the\n"
            "bursts per wait state, also the baseline's length in bursts (360).", .value = "TIME", .help = "HIR burst length; the waits are 1,2,3,5,10x it",
     .dflt = "5s", TIME_GT0, A(cfg.hir_burst_ns), .unit = "s"},
    {.name = "--reps", .value = "N", .help = "HIR bursts per wait state and baseline bursts", .dflt = "360",
     .type = CLI_T_UINT, A(cfg.hir_reps), .ulo = 1, .uhi = 100000},
    {.name = "--xsr-time",
     .man = "XSR's AG1 and AG3 time (8h; AG2 runs 3/4 of it) and sample interval (1m).", .value = "TIME", .help = "XSR AG1 and AG3 time; AG2 runs 3/4 of it", .dflt = "8h",
     TIME_GT0, A(cfg.xsr_ns), .unit = "s"},
    {.name = "--xsr-interval", .value = "TIME", .help = "XSR sample interval", .dflt = "1m", TIME_GT0,
     A(cfg.xsr_sample_ns), .unit = "s"},
    {.name = "--di-tc",
     .man = "CBW and DIRTH demand grid, descending (32,16,8,6,4,2,1 each).", .value = "LIST", .help = "CBW/DIRTH demand grid: thread counts, descending",
     .dflt = "32,16,8,6,4,2,1", .type = CLI_T_CALL, .set = set_di_tc},
    {.name = "--di-qd", .value = "LIST", .help = "CBW/DIRTH demand grid: queue depths, descending",
     .dflt = "32,16,8,6,4,2,1", .type = CLI_T_CALL, .set = set_di_qd},
    CLI_TEXT("DIRTH stimulus (the operator's choice; not a compliance matter):"),
    {.name = "--dirth-bs",
     .man = "DIRTH's block size (8k) and read share (65); the operator's choice, not a\n"
            "compliance matter.", .value = "SIZE", .help = "block size (512 bytes .. 64 MiB, a multiple of 512)",
     .dflt = "8k", .type = CLI_T_SIZE, A(cfg.dirth_bs), .ulo = 512, .uhi = 64u << 20, .scale = 512,
     .unit = "bytes"},
    {.name = "--dirth-read", .value = "PCT", .help = "read share (0 to 100)", .dflt = "65", .type = CLI_T_UINT,
     A(cfg.dirth_read_pct), .ulo = 0, .uhi = 100, .unit = "%"},
    CLI_TEXT("Output and safety:"),
    {.name = "--format", .value = "text|json|csv", .dflt = "text: the PTS report"},
    CLI_SHARED("--output"),
    CLI_SHARED("--result"),
    CLI_SHARED("--archive"),
    CLI_SHARED("--tag"),
    {.name = "--destroy", .note = "also needed for the device's own erase, and for every\n"
                                  "other NVMe namespace with data that a sanitize reaches",
     .man = "Also needed for the device's own erase, and for every other NVMe namespace\n"
            "with data that a sanitize reaches."},
    CLI_SHARED_NOTE("--quiet", "no progress lines either"),
    {.name = "--dry-run",
     .man = "Print the tests with their longest time, the total, and the device with what\n"
            "the write guard would say about it; purge and write nothing. A missing device\n"
            "is named and exits 2.", .help = "print the tests, their longest time and what the guard says\n"
                                  "about the device; run nothing (a missing device: exit 2)",
     .type = CLI_T_FLAG, A(dry_run)},
    CLI_OPTS_END,
};

#undef A
#undef TIME_GT0

const struct cli_cmd_opts pts_cmd_opts = {.cmd = "pts", .man_section = "PTS", .opts = pts_opts, .col = 27};

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
    return cli_opts_parse(&pts_cmd_opts, argc, argv, a, out, pts_operand);
}

static void pts_usage(FILE *f)
{
    cli_opts_help(f, &pts_cmd_opts);
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
