/* cli.c - see cli.h. */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/cli_opts.h"
#include "base/outfile.h"
#include "base/textsafe.h"
#include "base/suggest.h"
#include "job/spec_parse.h"
#include "output/fio_json.h"
#include "output/fio_text.h"
#include "result/host_busy.h"
#include "result/result.h"

void cli_output_init(struct cli_output *o)
{
    memset(o, 0, sizeof(*o));
    o->format = FMT_TEXT;
    o->consent.option = "--destroy";
}

/* --format's words, and --output-format's (fio's: json is fio's JSON) */
#define FORMAT_WORDS(json)                                                                                 \
    {"text", FMT_TEXT}, {"normal", FMT_TEXT}, {"json", json}, {"csv", FMT_CSV}, {"fio-json", FMT_FIO_JSON}, \
        {"json+", FMT_FIO_JSON_PLUS}, {"fio-json+", FMT_FIO_JSON_PLUS}, {"fio-normal", FMT_FIO_NORMAL},     \
        {"fio-terse", FMT_FIO_TERSE}, {NULL, 0}
static const struct cli_enum formats[] = {FORMAT_WORDS(FMT_JSON)};
static const struct cli_enum fio_formats[] = {FORMAT_WORDS(FMT_FIO_JSON)};

static int parse_format(const char *v, bool fio_words, enum cli_format *f)
{
    char msg[256];
    int x;
    if (cli_parse_enum("--format", v, fio_words ? fio_formats : formats, &x, msg, sizeof(msg)) < 0)
        return -1;
    *f = (enum cli_format)x;
    return 0;
}

#define OUT(c) ((struct cli_output *)(c)->cfg)

static int set_format(const struct cli_ctx *c, const struct cli_opt *opt, const char *v)
{
    if (parse_format(v, false, &OUT(c)->format) < 0) {
        cli_err("--format: unknown format '%s' (use text, json, csv, fio-json, fio-json+, fio-normal "
                "or fio-terse)", v);
        return -1;
    }
    return 0;
}

static int set_output_format(const struct cli_ctx *c, const struct cli_opt *opt, const char *v)
{
    if (parse_format(v, true, &OUT(c)->format) < 0) {
        cli_err("--output-format: unknown format '%s' (use normal, json or json+)", v);
        return -1;
    }
    return 0;
}

/* --result and --output are rank 0's: ignored on the other ranks */
static int set_output(const struct cli_ctx *c, const struct cli_opt *opt, const char *v)
{
    OUT(c)->output = OUT(c)->follower ? NULL : v;
    return 0;
}

static int set_result(const struct cli_ctx *c, const struct cli_opt *opt, const char *v)
{
    OUT(c)->result = OUT(c)->follower ? NULL : v;
    return 0;
}

static int set_destroy(const struct cli_ctx *c, const struct cli_opt *opt, const char *v)
{
    struct guard_consent *g = &OUT(c)->consent;
    if (g->n >= GUARD_MAX_CONSENT) {
        cli_err("--destroy: at most %d paths", GUARD_MAX_CONSENT);
        return -1;
    }
    g->paths[g->n++] = v;
    return 0;
}

static int set_archive(const struct cli_ctx *c, const struct cli_opt *opt, const char *v)
{
    if (v && !*v) {
        cli_err("--archive=: give a path, or --archive alone for the default archive");
        return -1;
    }
    OUT(c)->archive = true;
    OUT(c)->archive_path = v;
    return 0;
}

static int set_tag(const struct cli_ctx *c, const struct cli_opt *opt, const char *v)
{
    struct cli_output *o = OUT(c);
    char err[256];
    if (o->ntags == ARCHIVE_MAX_TAGS) {
        cli_err("--tag: at most %d tags", ARCHIVE_MAX_TAGS);
        return -1;
    }
    if (strlen(v) >= sizeof(o->tagbuf[0])) {
        cli_err("--tag: '%.40s...' is longer than %zu bytes", v, sizeof(o->tagbuf[0]) - 1);
        return -1;
    }
    strcpy(o->tagbuf[o->ntags], v);
    if (archive_tag_parse(o->tagbuf[o->ntags], &o->tags[o->ntags], err, sizeof(err)) < 0) {
        cli_err("%s", err);
        return -1;
    }
    o->ntags++;
    return 0;
}

#define O(f) CLI_AT(struct cli_output, f)

/* The options every command shares (each command's table lists them for
 * its --help; the man page's COMMON OPTIONS describes them). */
static const struct cli_opt output_opts[] = {
    {.name = "--format", .value = "FORMAT", .help = "what to print", .type = CLI_T_CALL, .set = set_format},
    {.name = "--output-format", .value = "FORMAT", .help = "fio's names for the formats", .type = CLI_T_CALL,
     .set = set_output_format},
    {.name = "--output", .alias = "-o", .value = "FILE", .help = "where the format goes", .type = CLI_T_CALL,
     .set = set_output},
    {.name = "--result", .value = "FILE", .help = "also save the result", .type = CLI_T_CALL, .set = set_result},
    {.name = "--destroy", .value = "PATH", .help = "consent to overwrite PATH", .type = CLI_T_CALL,
     .set = set_destroy},
    {.name = "--ranks-per-host", .value = "N", .help = "cluster runs: ranks per host", .type = CLI_T_UINT,
     O(ranks_per_host), .ulo = 1, .uhi = 65536},
    {.name = "--quiet", .alias = "-q", .help = "no live status line", .type = CLI_T_FLAG, O(quiet)},
    CLI_OPTS_END,
};

/* Only where a result is written (a workload: o->journal set). */
static const struct cli_opt journal_opts[] = {
    {.name = "--archive", .value = "[=PATH]", .help = "file the result in the archive", .type = CLI_T_CALL,
     .set = set_archive},
    {.name = "--tag", .value = "KEY=VALUE", .help = "a tag on the filed result", .type = CLI_T_CALL,
     .set = set_tag},
    CLI_OPTS_END,
};

#undef O

int cli_output_option(int *i, int argc, char **argv, struct cli_output *o)
{
    const struct cli_opt *t = cli_opts_find(output_opts, argv[*i]) ? output_opts
                              : o->journal && cli_opts_find(journal_opts, argv[*i]) ? journal_opts
                                                                                   : NULL;
    if (!t)
        return 0;
    const struct cli_ctx ctx = {.cmd = NULL, .cfg = o, .out = o};
    const struct cli_opt *hit;
    const char *v;
    bool operands = false;
    if (cli_opts_next_typed(NULL, t, i, argc, argv, &v, &operands, &hit) != CLI_OPT_TYPED)
        return -1;
    return cli_opt_apply(&ctx, hit, v) < 0 ? -1 : 1;
}

int cli_output_check(const struct cli_output *o, bool *journal)
{
    char err[512];
    if (journal)
        *journal = false;
    if (o->result) {
        int rc = outfile_check(o->result, err, sizeof(err));
        if (rc < 0) {
            cli_err("--result %s", err);
            return -1;
        }
        if (journal)
            *journal = rc == 0 && strcmp(o->result, "-") != 0;
    }
    if (o->output && outfile_check(o->output, err, sizeof(err)) < 0) {
        cli_err("--output %s", err);
        return -1;
    }
    return 0;
}

int cli_output_check_readonly(const struct cli_output *o)
{
    char err[512];
    const char *what[2] = {"--result", "--output"}, *path[2] = {o->result, o->output};
    for (int i = 0; i < 2; i++)
        if (path[i] && outfile_check_strict(path[i], err, sizeof(err)) < 0) {
            cli_err("%s %s (read-only mode writes outputs only as regular files)", what[i], err);
            return -1;
        }
    return 0;
}

bool cli_jobs_readonly(const struct job_spec *jobs, unsigned n)
{
    for (unsigned j = 0; j < n; j++)
        if (jobs[j].readonly)
            return true;
    return false;
}

int cli_emit(cJSON *doc, const struct cli_output *o, const struct render_opts *ro, int status)
{
    char err[512];
    if (cli_save_result(doc, o) < 0)
        status = status ? status : CLI_EXIT_FAIL;
    if (o->format == FMT_JSON) {
        if (result_write(doc, o->output ? o->output : "-", err, sizeof(err)) < 0) {
            cli_err("%s", err);
            return status ? status : CLI_EXIT_FAIL;
        }
        return status;
    }
    struct outfile of;
    if (outfile_open(&of, o->output ? o->output : "-", err, sizeof(err)) < 0) {
        cli_err("%s", err);
        return status ? status : CLI_EXIT_FAIL;
    }
    /* text formats: control characters in names and paths escaped */
    bool text = o->format == FMT_TEXT || o->format == FMT_FIO_NORMAL || o->format == FMT_FIO_TERSE;
    FILE *safe = text ? textsafe_open(of.f) : NULL;
    if (text && !safe) {
        outfile_abort(&of);
        cli_err("out of memory");
        return status ? status : CLI_EXIT_FAIL;
    }
    FILE *f = safe ? safe : of.f;
    switch (o->format) {
    case FMT_TEXT: render_text(f, doc, ro); break;
    case FMT_CSV: render_csv(f, doc); break;
    case FMT_FIO_JSON:
    case FMT_FIO_JSON_PLUS:
        if (render_fio_json(f, doc, o->format == FMT_FIO_JSON_PLUS, err, sizeof(err)) < 0) {
            cli_err("%s", err);
            status = status ? status : CLI_EXIT_FAIL;
        }
        break;
    case FMT_FIO_NORMAL:
    case FMT_FIO_TERSE:
        if ((o->format == FMT_FIO_NORMAL ? render_fio_normal : render_fio_terse)(f, doc, err, sizeof(err)) < 0) {
            cli_err("%s", err);
            status = status ? status : CLI_EXIT_FAIL;
        }
        break;
    case FMT_JSON: break;
    }
    if (safe)
        textsafe_close(safe); /* a failed write shows as an error on of.f */
    int wrc = outfile_commit(&of, err, sizeof(err));
    if (OUTFILE_READER_GONE(wrc))
        return status; /* the reader of stdout went away (| head): a clean stop */
    if (wrc < 0) {
        cli_err("%s", err);
        return status ? status : CLI_EXIT_FAIL;
    }
    return status;
}

bool cli_live_terminal(void)
{
    const char *term = getenv("TERM");
    return isatty(2) && !(term && !strcmp(term, "dumb"));
}

void cli_status(const struct runner_interval *iv, double total_s)
{
    if (!cli_live_terminal())
        return;
    if (!iv) {
        fprintf(stderr, "\r\033[K");
        fflush(stderr);
        return;
    }
    double secs = (double)(iv->t_end_ns - iv->t_start_ns) / 1e9;
    char buf[512];
    int n = snprintf(buf, sizeof(buf), "\r");
    if (iv->status_prefix && *iv->status_prefix)
        n += snprintf(buf + n, sizeof(buf) - (size_t)n, "[%.200s] ", iv->status_prefix);
    n += snprintf(buf + n, sizeof(buf) - (size_t)n, "[%6.1f", (double)iv->t_end_ns / 1e9);
    if (total_s > 0)
        n += snprintf(buf + n, sizeof(buf) - (size_t)n, "/%.0f", total_s);
    n += snprintf(buf + n, sizeof(buf) - (size_t)n, " s]");
    for (int d = 0; d < DIR_COUNT && secs > 0; d++) {
        const struct dir_stats *ds = &iv->all->dir[d];
        if (!ds->ios)
            continue;
        char p99[32];
        render_latency(p99, sizeof(p99), (double)hist_percentile(&ds->lat, 99.0));
        n += snprintf(buf + n, sizeof(buf) - (size_t)n, "  %s %.0f IOPS %.1f MB/s p99 %s",
                      d == DIR_READ ? "read" : d == DIR_WRITE ? "write" : "trim", (double)ds->ios / secs,
                      (double)ds->bytes / secs / 1e6, p99);
    }
    fprintf(stderr, "%s\033[K", buf);
    fflush(stderr);
}

void cli_warn_busy(const cJSON *doc)
{
    struct host_load hl;
    char why[256];
    host_load_from_doc(doc, &hl);
    if (host_busy(&hl, why, sizeof(why)))
        fprintf(stderr, "WARNING: the host was busy during the run (%s): other work may have changed "
                        "these figures (host CPU per interval is in the result)\n", why);
}

void cli_note_guard(const cJSON *doc)
{
    const cJSON *t;
    cJSON_ArrayForEach(t, cJSON_GetObjectItemCaseSensitive(doc, "targets")) {
        const char *note = result_str(t, "guard_note", "");
        if (note[0])
            fprintf(stderr, "ssdbench: note: %s\n", note);
    }
}

void cli_report_errors(const cJSON *doc)
{
    const cJSON *e;
    cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(doc, "errors")) {
        const char *tid = result_str(e, "target", "?"), *path = tid;
        const cJSON *t;
        cJSON_ArrayForEach(t, cJSON_GetObjectItemCaseSensitive(doc, "targets"))
            if (!strcmp(result_str(t, "id", ""), tid))
                path = result_str(t, "path", tid);
        double n = result_num(e, "count", 0);
        int err = (int)result_num_in(e, "errno", INT_MIN, INT_MAX, 0);
        /* a fio limit the job broke (rate_min, max_latency, ...): no failed I/O */
        if (cJSON_GetObjectItemCaseSensitive(e, "limit")) {
            cli_err("job stopped on %s: %s (%s)", path, result_str(e, "message", "?"), strerror(err));
            continue;
        }
        cli_err("%.0f %s error%s on %s, first at offset %.0f: %s%s", n, result_str(e, "op", "I/O"),
                n == 1 ? "" : "s", path, result_num(e, "offset", 0), result_str(e, "message", "?"),
                err == ENOSPC ? " (the file system or device is full)" : "");
    }
}

const char *cli_suggest(const char *s, const char *const *names)
{
    return suggest_from_list(s, names);
}

bool cli_uint(const char *v, uint64_t lo, uint64_t hi, uint64_t *out)
{
    char msg[256];
    return v && spec_parse_uint_in(v, lo, hi, out, msg, sizeof(msg)) == 0;
}

bool cli_unsigned(const char *v, unsigned lo, unsigned hi, unsigned *out)
{
    uint64_t x;
    if (!cli_uint(v, lo, hi, &x))
        return false;
    *out = (unsigned)x;
    return true;
}

bool cli_seconds(const char *v, uint64_t lo, uint64_t hi, uint64_t *sec)
{
    char msg[256];
    uint64_t ns;
    if (!cli_time(v, SPEC_NS_PER_S, &ns, msg, sizeof(msg)) || ns % SPEC_NS_PER_S)
        return false;
    if (ns / SPEC_NS_PER_S < lo || ns / SPEC_NS_PER_S > hi)
        return false;
    *sec = ns / SPEC_NS_PER_S;
    return true;
}

bool cli_time(const char *v, uint64_t unit_ns, uint64_t *ns, char *msg, size_t msglen)
{
    return v && spec_parse_time(v, unit_ns, ns, msg, msglen) == 0;
}

int cli_opt_uint(const char *opt, const char *v, unsigned lo, unsigned hi, unsigned *out)
{
    if (!cli_unsigned(v, lo, hi, out)) {
        cli_err("%s: '%s' is not a number in %u..%u", opt, v, lo, hi);
        return -1;
    }
    return 0;
}

int cli_opt_time(const char *opt, const char *v, uint64_t *ns)
{
    char msg[256];
    if (!cli_time(v, SPEC_NS_PER_S, ns, msg, sizeof(msg))) {
        cli_err("%s: %s", opt, msg);
        return -1;
    }
    return 0;
}

bool *cli_journal_want(struct cli_output *o)
{
    return o->journal ? &o->journal->want : NULL;
}

int cli_save_result(const cJSON *doc, const struct cli_output *o)
{
    char err[1024];
    if (!o->result)
        return 0;
    if (result_write(doc, o->result, err, sizeof(err)) < 0) {
        cli_err("%s", err);
        return -1;
    }
    cli_journal_drop(o->journal);
    return 0;
}
