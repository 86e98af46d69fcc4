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
