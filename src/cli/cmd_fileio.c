/* cmd_fileio.c - `ssdbench fileio [options] prepare|run|cleanup|help`: a
 * drop-in for `sysbench fileio` (same options, files and text output), with
 * thread-scaling tables for --threads=1,2,4,... and ratios against one or more
 * --baseline results. */
#include <errno.h>
#include <stdarg.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/cli_opts.h"
#include "cli/cli_tables.h"
#include "cli/cli_dry.h"
#include "cli/commands.h"
#include "base/outfile.h"
#include "base/signal.h"
#include "output/sysbench_text.h"
#include "result/result.h"
#include "fileio/fileio_cmd.h"
#include "cli/workloads.h"

/* sysbench's way to fail: "FATAL: <message>" on standard output, exit 1. */
static int fatal(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int fatal(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fflush(stdout);
    fputs("FATAL: ", stdout);
    vfprintf(stdout, fmt, ap);
    fputc('\n', stdout);
    fflush(stdout);
    va_end(ap);
    return CLI_EXIT_FAIL;
}

/* An I/O error of a run, as sysbench reports it. */
static void fatal_io(const cJSON *phase)
{
    const cJSON *e;
    cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(phase, "errors")) {
        const char *op = result_str(e, "op", "?"), *t = result_str(e, "target", "?");
        int no = (int)result_num(e, "errno", 0);
        const char *msg = result_str(e, "message", "");
        if (!strcmp(op, "read") || !strcmp(op, "write"))
            fatal("Failed to %s file! file: %s pos: %.0f errno = %d (%s)", op, t, result_num(e, "offset", 0),
                  no, msg);
        else
            fatal("Failed to fsync file! file: %s errno = %d (%s)", t, no, msg);
    }
}

/* The sysbench text of a run as it goes: the banner before each thread
 * count, interval lines, the report after it (text only); an I/O error's
 * FATAL lines in any format. */
struct live {
    FILE *f;
    double step_s;
    unsigned percentile;
    bool text;
};

static void on_row(void *arg, const struct fileio_row *row)
{
    struct live *l = arg;
    sysbench_text_interval(l->f, row, l->step_s, l->percentile);
    fflush(l->f);
}

static void on_begin(void *arg, const cJSON *opts, unsigned threads)
{
    struct live *l = arg;
    if (!l->text)
        return;
    sysbench_text_header(l->f, SSDBENCH_VERSION);
    sysbench_text_run_banner(l->f, opts, threads);
    fflush(l->f);
}

static void on_phase(void *arg, const cJSON *phase)
{
    struct live *l = arg;
    if (cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(phase, "errors")) > 0)
        fatal_io(phase);
    if (l->text) {
        sysbench_text_report(l->f, phase, l->percentile, false);
        fflush(l->f);
    }
}

static void on_fatal(void *arg, const char *msg)
{
    struct live *l = arg;
    fflush(l->f);
    fatal("%s", msg);
}

static void on_file(void *arg, const char *name, enum fileio_file_state st)
{
    struct live *l = arg;
    sysbench_text_prepare_file(l->f, name, st);
    fflush(l->f);
}

static int do_prepare(const struct fileio_opts *o, const struct cli_output *out, FILE *f)
{
    struct live lv = {.f = f};
    struct fileio_view v = {.arg = &lv, .file = on_file, .fatal = on_fatal};
    cJSON *opts = fileio_opts_json(o);
    sysbench_text_header(f, SSDBENCH_VERSION);
    sysbench_text_prepare_begin(f, opts);
    cJSON_Delete(opts);
    fflush(f);
    uint64_t written;
    double secs;
    int status = fileio_cmd_prepare(o, &out->consent, &v, &written, &secs);
    if (status == CLI_EXIT_OK)
        sysbench_text_prepare_end(f, written, secs);
    return status;
}

/* The --baseline results of a run and their column labels. */
struct bases {
    unsigned n;
    const char *paths[FILEIO_MAX_BASELINES];
    cJSON *docs[FILEIO_MAX_BASELINES];
    char labels[FILEIO_MAX_BASELINES][FILEIO_LABEL_MAX];
};

/* The finished run: the scaling table (text), the result, the chosen format. */
static int render_run(struct session *s, const struct fileio_opts *o, const struct cli_output *out, FILE *f,
                      const struct bases *b, int status)
{
    if (out->format != FMT_TEXT) {
        struct render_opts rend = {.summary = true, .details = true};
        return cli_emit(s->doc, out, &rend, status);
    }
    struct sysbench_base sb[FILEIO_MAX_BASELINES];
    for (unsigned k = 0; k < b->n; k++)
        sb[k] = (struct sysbench_base){.doc = b->docs[k], .label = b->labels[k]};
    if (o->nthreads > 1 || b->n)
        sysbench_text_scaling(f, s->doc, sb, b->n);
    if (cli_save_result(s->doc, out) < 0)
        status = status ? status : CLI_EXIT_FAIL;
    return status;
}

static int do_run(struct session *s, const struct fileio_opts *o, struct cli_output *out, FILE *f,
                  const char *label, struct bases *b)
{
    int status = fileio_cmd_baselines(b->paths, b->n, b->docs, b->labels);
    if (status != CLI_EXIT_OK)
        return status;
    if (cli_output_check(out, cli_journal_want(out)) < 0 || cli_journal_open(out->journal, out->result, s) < 0) {
        fileio_cmd_baselines_free(b->docs, b->n);
        return CLI_EXIT_USAGE;
    }
    bool text = out->format == FMT_TEXT;
    struct live lv = {.f = f, .step_s = o->report_interval, .percentile = o->percentile, .text = text};
    struct fileio_view v = {.arg = &lv, .begin = on_begin, .phase = on_phase, .fatal = on_fatal,
                            .row = text && o->report_interval ? on_row : NULL};
    status = fileio_cmd_run(s, o, label, &v);
    if (s->done) {
        fileio_doc_baselines(s->doc, b->paths, b->labels, b->n);
        status = render_run(s, o, out, f, b, status);
    }
    fileio_cmd_baselines_free(b->docs, b->n);
    return status;
}

/* What `fileio` parsed: sysbench's options and command, ssdbench's own. */
struct fileio_cfg {
    struct fileio_opts o;
    enum fileio_cmd fc;
    bool dry_run;         /* --dry-run: the plan and the files, nothing written */
    const char *label;
    struct bases bases;   /* --baseline, repeatable */
};

static int set_json(const struct cli_ctx *c, const struct cli_opt *o, const char *v)
{
    (void)o;
    (void)v;
    c->out->format = FMT_JSON;
    return 0;
}

#define A(f) CLI_AT(struct fileio_cfg, f)

/* ssdbench's own options of fileio; sysbench's (the text rows) are read by
 * fileio_set (src/fileio/fileio.c), with sysbench's rules and messages. */
static const struct cli_opt fileio_opts[] = {
    CLI_TEXT("usage: ssdbench fileio [options] prepare|run|cleanup|help\n\n"
             "A drop-in for 'sysbench fileio' (1.0.20): the same options, test files\n"
             "(test_file.N in the current directory) and text output, measured by ssdbench.\n\n"
             "fileio options (sysbench's names and defaults):\n"
             "  --file-num=N                  number of files to create [128]\n"
             "  --file-block-size=N           block size to use in all IO operations [16384]\n"
             "  --file-total-size=SIZE        total size of files to create [2G]\n"
             "  --file-test-mode=STRING       test mode {seqwr, seqrewr, seqrd, rndrd, rndwr, rndrw}\n"
             "  --file-io-mode=STRING         file operations mode {sync,async,mmap} [sync]\n"
             "  --file-async-backlog=N        number of asynchronous operations to queue per thread [128]\n"
             "  --file-extra-flags=[LIST,...] additional flags to open files with {sync,dsync,direct} []\n"
             "  --file-fsync-freq=N           do fsync() after this number of requests (0 - don't) [100]\n"
             "  --file-fsync-all[=on|off]     do fsync() after each write operation [off]\n"
             "  --file-fsync-end[=on|off]     do fsync() at the end of test [on]\n"
             "  --file-fsync-mode=STRING      which method to use for synchronization {fsync, fdatasync} [fsync]\n"
             "  --file-merged-requests=N      merge at most this number of IO requests (sequential) [0]\n"
             "  --file-rw-ratio=N             reads/writes ratio for combined test [1.5]\n\n"
             "General options:\n"
             "  --threads=N[,N...], --num-threads=N[,N...]\n"
             "                                number of threads; a list runs once per value [1]\n"
             "  --time=N, --max-time=N        limit for total execution time in seconds (0 - none) [10]\n"
             "  --events=N, --max-requests=N  limit for total number of events (0 - none) [0]\n"
             "  --rate=N, --tx-rate=N         average events per second over all threads (0 - none) [0]\n"
             "  --report-interval=N           interval lines every N seconds (0 - off) [0]\n"
             "  --percentile=N                latency percentile to report, 1-100 (0 - off) [95]\n"
             "  --histogram[=on|off]          print the latency histogram [off]\n"
             "  --rand-seed=N                 seed for the random numbers (0 - from the clock) [0]\n"
             "  --validate[=on|off]           accepted; data validation is not performed [off]\n"
             "  --rand-type, --rand-spec-iter, --rand-spec-pct, --rand-spec-res, --rand-pareto-h,\n"
             "  --rand-zipfian-exp, --thread-stack-size, --forced-shutdown, --verbosity, --debug\n"
             "                                accepted and ignored: they do not change a fileio run\n\n"
             "ssdbench options:\n"
             "  --file-fill=STRING            data written by prepare and run {random, zero} [random]"),
    {.name = "--label", .value = "NAME",
     .man = "This setup's name in the tables (default the current directory).", .help = "name of this setup in the tables [the current directory]",
     .type = CLI_T_STR, A(label)},
    {.name = "--baseline", .value = "RESULT.json",
     .man = "Repeatable, up to 8: another fileio result's column and a ratio column,\n"
            "labelled by its label or file name: A/B for throughput, B/A for response\n"
            "time; a suite, ACT or run result is refused.", .help = "a fileio result of another setup: its columns and a ratio\n"
                                                           "column in the tables (repeatable, up to 8)",
     .type = CLI_T_STRS, A(bases.paths), CLI_COUNT(struct fileio_cfg, bases.n)},
    {.name = "--json", .help = "print the result JSON instead of sysbench text", .type = CLI_T_CALL, .set = set_json},
    {.name = "--dry-run",
     .man = "Print the plan (the files, the runs and their longest time) and name the\n"
            "test files the write guard would refuse; write nothing. \\fBrun\\fR without\n"
            "prepared files names the first missing one and exits 2.",
     .help = "print the plan, its longest time and the test files (those\n"
                                  "the guard refuses named); write nothing (run: a missing\n"
                                  "test file is named, exit 2)",
     .type = CLI_T_FLAG, A(dry_run)},
    CLI_TEXT("  --format text|json|csv, --output FILE, --result FILE, --destroy PATH, --quiet, -q\n"
             "  --archive[=PATH], --tag KEY=VALUE  file the result in the archive (docs/archive.md)\n"
             "  --destroy=. (or =test_file.N)  consent to write or remove test files ssdbench\n"
             "                                did not create (sysbench's, or a user's)\n\n"
             "For the same options the device sees the same I/O as with sysbench; see\n"
             "docs/fileio.md for what differs (random file data, completion latency kept).\n"
             "Errors are sysbench's: a bad option value prints its FATAL line on standard\n"
             "output and exits 1, as sysbench does; a refused write exits 2."),
    CLI_OPTS_END,
};

#undef A

const struct cli_cmd_opts fileio_cmd_opts = {.cmd = "fileio", .man_section = "FILEIO", .opts = fileio_opts,
                                             .col = 32};

static void fileio_usage(FILE *f)
{
    cli_opts_help(f, &fileio_cmd_opts);
}

static const struct cli_enum fileio_cmds[] = {
    {"prepare", FILEIO_PREPARE}, {"run", FILEIO_RUN}, {"cleanup", FILEIO_CLEANUP}, {"help", -1}, {NULL, 0}};

/* --dry-run: what the command would do, its longest time, and the test
 * files with what the guard says about those it writes; a file run needs
 * and prepare has not made is named (exit 2). Nothing is written. */
static int fileio_dry(const struct fileio_opts *o, enum fileio_cmd fc, const char *cmd,
                      const struct guard_consent *consent)
{
    char d[48], cwd[4096];
    uint64_t fsize = fileio_file_size(o);
    bool writes = fc != FILEIO_RUN || fileio_mode_writes(o->mode);
    printf("fileio plan (%s) in %s: %u files test_file.0 .. test_file.%u of %llu bytes\n", cmd,
           getcwd(cwd, sizeof(cwd)) ? cwd : ".", o->file_num, o->file_num - 1, (unsigned long long)fsize);
    if (fc == FILEIO_RUN) {
        double secs = (double)o->time_s * o->nthreads;
        cli_duration(d, sizeof(d), secs);
        printf("  %s, %u run%s (threads", fileio_mode_name(o->mode), o->nthreads, o->nthreads == 1 ? "" : "s");
        for (unsigned i = 0; i < o->nthreads; i++)
            printf("%s%u", i ? "," : " ", o->threads[i]);
        if (o->time_s)
            printf("), up to %s\n", d);
        else
            printf("), each until %llu events\n", (unsigned long long)o->events);
    }
    int code = 0;
    unsigned missing = 0, present = 0;
    for (unsigned i = 0; i < o->file_num; i++) {
        char name[FILEIO_NAME_MAX];
        struct stat st;
        fileio_file_name(i, name, sizeof(name));
        if (stat(name, &st) < 0) {
            missing++;
            if (fc == FILEIO_RUN && missing == 1) {
                cli_err("fileio: %s: no such file (run 'ssdbench fileio ... prepare' first)", name);
                code = CLI_EXIT_USAGE;
            }
            continue;
        }
        present++;
        /* only a refusal is worth a line per file */
        FILE *mem = NULL;
        char *buf = NULL;
        size_t len = 0;
        if (writes && (mem = open_memstream(&buf, &len))) {
            if (cli_dry_target(mem, name, true, 0, consent) < 0)
                code = CLI_EXIT_USAGE;
            fclose(mem);
            if (buf && strstr(buf, "REFUSED"))
                fputs(buf, stdout);
            free(buf);
        }
    }
    printf("  %u present, %u missing%s\n", present, missing,
           fc == FILEIO_PREPARE ? " (prepare creates the missing ones and extends short ones)"
           : fc == FILEIO_CLEANUP ? " (cleanup removes those ssdbench made)" : "");
    return code;
}

static int fileio_parse(int argc, char **argv, void *cfg, struct cli_output *out)
{
    struct fileio_cfg *fcfg = cfg;
    struct fileio_opts *o = &fcfg->o;
    fileio_defaults(o);
    const char *cmd = NULL;
    char err[512];
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v;
        int c = cli_output_option(&i, argc, argv, out);
        if (c < 0)
            return CLI_EXIT_FAIL;
        if (c > 0)
            continue;
        const struct cli_opt *own = cli_opts_find(fileio_opts, a), *hit;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            fileio_usage(stdout);
            return CLI_EXIT_OK;
        } else if (own) {
            bool operands = false;
            const struct cli_ctx ctx = {.cmd = "fileio", .cfg = fcfg, .out = out};
            if (cli_opts_next_typed("fileio", fileio_opts, &i, argc, argv, &v, &operands, &hit) != CLI_OPT_TYPED ||
                cli_opt_apply(&ctx, hit, v) < 0)
                return CLI_EXIT_USAGE;
        } else if (a[0] == '-' && a[1] == '-' && a[2]) {
            char name[64];
            const char *eq = strchr(a + 2, '=');
            size_t n = eq ? (size_t)(eq - a - 2) : strlen(a + 2);
            if (n >= sizeof(name)) {
                cli_err("fileio: invalid option: %s", a);
                return CLI_EXIT_FAIL;
            }
            memcpy(name, a + 2, n);
            name[n] = 0;
            int src = fileio_set(o, name, eq ? eq + 1 : NULL, err, sizeof(err));
            if (src == -ENOENT) {
                cli_err("%s", err); /* sysbench: no FATAL prefix, on standard error */
                return CLI_EXIT_FAIL;
            }
            if (src < 0)
                return fatal("%s", err);
        } else if (a[0] == '-') {
            cli_err("fileio: invalid option: %s (see ssdbench fileio --help)", a);
            return CLI_EXIT_FAIL;
        } else if (cmd) {
            cli_err("fileio: one command at a time (got '%s' and '%s')", cmd, a);
            return CLI_EXIT_FAIL;
        } else {
            cmd = a;
        }
    }
    if (!cmd) {
        cli_err("fileio: missing command: prepare, run, cleanup or help (see ssdbench fileio --help)");
        return CLI_EXIT_FAIL;
    }
    int fcv;
    char msg[256];
    if (cli_parse_enum("fileio", cmd, fileio_cmds, &fcv, msg, sizeof(msg)) < 0) {
        cli_err("Unknown command: %s (expected prepare, run, cleanup or help)", cmd);
        return CLI_EXIT_FAIL;
    }
    if (fcv < 0) {
        fileio_usage(stdout);
        return CLI_EXIT_OK;
    }
    enum fileio_cmd fc = (enum fileio_cmd)fcv;
    if (fileio_check(o, fc, err, sizeof(err)) < 0)
        return fatal("%s", err);
    fcfg->fc = fc;
    return fcfg->dry_run ? fileio_dry(o, fc, cmd, &out->consent) : WL_PARSED;
}

static int fileio_run_cmd(struct session *s, void *cfg, struct cli_output *out)
{
    struct fileio_cfg *fcfg = cfg;
    const struct fileio_opts *o = &fcfg->o;
    char err[512];
    bool to_file = out->output && strcmp(out->output, "-") != 0 && out->format == FMT_TEXT;
    struct outfile of;
    if (outfile_open(&of, to_file ? out->output : "-", err, sizeof(err)) < 0) {
        cli_err("%s", err);
        return CLI_EXIT_USAGE;
    }
    FILE *f = of.f;
    int status;
    if (fcfg->fc == FILEIO_PREPARE) {
        status = do_prepare(o, out, f);
    } else if (fcfg->fc == FILEIO_CLEANUP) {
        struct live lv = {.f = f};
        struct fileio_view v = {.arg = &lv, .fatal = on_fatal};
        sysbench_text_header(f, SSDBENCH_VERSION);
        sysbench_text_cleanup(f);
        status = fileio_cmd_cleanup(o, &out->consent, &v);
    } else {
        status = do_run(s, o, out, f, fcfg->label, &fcfg->bases);
    }
    int wrc = outfile_commit(&of, err, sizeof(err));
    if (wrc < 0 && !OUTFILE_READER_GONE(wrc)) {
        cli_err("%s", err);
        status = status ? status : CLI_EXIT_FAIL;
    }
    return status;
}

const struct workload_cmd fileio_workload = {
    .name = "fileio",
    .summary = "drop-in for sysbench fileio: prepare, run, cleanup; thread-scaling tables",
    .usage = fileio_usage,
    .cfg_size = sizeof(struct fileio_cfg),
    .parse = fileio_parse,
    .run = fileio_run_cmd,
};
