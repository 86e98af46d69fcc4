/* act_analyze.c - one pass over an ACT raw log, feeding slice tables.
 *
 * Layouts understood:
 *  - ACT 6.x and ours: "ACT version 6.x", "after N sec:", names like `reads`.
 *  - ACT 5.x: same, with `reads` (queue + device time) and `device-reads`.
 *  - ACT 3.x/4.x: "Aerospike act version 3.0 - ...", "After N sec:", names
 *    `READS` (trans) and `RAW READS` (device), padded with spaces.
 * Names are compared case-insensitively with spaces read as '-', and
 * `RAW READS` answers to `device-reads`, so `-h reads` and the verdict pick
 * the table the certification used in each version.
 *
 * A report is trusted only when each histogram's buckets add up to its
 * "(N total)". A report cut off at the end of the file (a run still going, or
 * killed) is dropped and flagged; a bad one in the middle is an error with
 * its line number, because silently skipping it would shift every slice.
 */
#include "base/slurp.h"
#include "act/act_analyze.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

struct track {
    char want[ACT_HIST_NAME_MAX];  /* normalised */
    bool optional;                 /* dropped quietly when absent */
    struct act_table *t;
    /* the current report */
    bool found, cells_ok;
    unsigned line;
    char name[ACT_HIST_NAME_MAX];
    uint64_t total;
    uint64_t b[ACT_NBUCKETS];
};

enum capture { CAP_NONE, CAP_CONFIG, CAP_NAMES };

struct reader {
    const char *name;
    struct act_analysis *a;
    char *err;
    size_t errlen;
    unsigned ntrack;
    struct track tr[ACT_MAX_TABLES + 1];
    unsigned line;
    bool started;          /* first report seen: the header is over */
    bool in_block;
    unsigned elapsed;
    unsigned cur;          /* bit i: track i takes the bucket lines that follow */
    enum capture cap;
    bool got_interval, got_scale, got_duration, got_ndev;
};

static int fail(struct reader *r, unsigned line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int fail(struct reader *r, unsigned line, const char *fmt, ...)
{
    if (!r->err || !r->errlen)
        return -EINVAL;
    int n = line ? snprintf(r->err, r->errlen, "%s:%u: ", r->name, line)
                 : snprintf(r->err, r->errlen, "%s: ", r->name);
    if (n < 0 || (size_t)n >= r->errlen)
        n = 0;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->err + n, r->errlen - (size_t)n, fmt, ap);
    va_end(ap);
    return -EINVAL;
}

static void norm_name(const char *in, char *out)
{
    size_t n = 0;
    for (; *in && n + 1 < ACT_HIST_NAME_MAX; in++)
        out[n++] = *in == ' ' ? '-' : (char)tolower((unsigned char)*in);
    while (n && out[n - 1] == '-')
        n--;
    out[n] = '\0';
    if (!strcmp(out, "raw-reads"))
        strcpy(out, "device-reads");
}

static bool starts(const char *s, const char *p) { return !strncmp(s, p, strlen(p)); }

static void append(char *buf, size_t cap, const char *line)
{
    size_t n = strlen(buf);
    if (n + strlen(line) + 2 <= cap) {
        memcpy(buf + n, line, strlen(line));
        buf[n + strlen(line)] = '\n';
        buf[n + strlen(line) + 1] = '\0';
    }
}

static bool parse_uint(const char *s, unsigned *out)
{
    char *end;
    errno = 0;
    unsigned long v = strtoul(s, &end, 10);
    if (end == s || errno || v > UINT32_MAX || !isdigit((unsigned char)*s))
        return false;
    *out = (unsigned)v;
    return true;
}

/* "after N sec:" (6.x) or "After N sec:" (older). */
static bool parse_after(const char *s, unsigned *elapsed)
{
    if (strncasecmp(s, "after ", 6))
        return false;
    char *end;
    errno = 0;
    unsigned long v = strtoul(s + 6, &end, 10);
    if (end == s + 6 || errno || v > UINT32_MAX || strncmp(end, " sec", 4))
        return false;
    *elapsed = (unsigned)v;
    return true;
}

/* "<name> (<N> total)"; name is trimmed of the padding older versions add. */
static bool parse_hist_line(const char *s, char *name, uint64_t *total)
{
    size_t n = strlen(s);
    static const char tail[] = " total)";
    if (n < sizeof(tail) + 2 || strcmp(s + n - (sizeof(tail) - 1), tail))
        return false;
    const char *open = NULL;
    for (const char *p = s; (p = strstr(p, " (")); p++)
        open = p;
    if (!open || open == s)
        return false;
    const char *d = open + 2;
    uint64_t v = 0;
    if (!isdigit((unsigned char)*d))
        return false;
    for (; isdigit((unsigned char)*d); d++) {
        if (v > (UINT64_MAX - 9) / 10)
            return false;
        v = v * 10 + (uint64_t)(*d - '0');
    }
    if (strcmp(d, tail))
        return false;
    size_t len = (size_t)(open - s);
    while (len && s[len - 1] == ' ')
        len--;
    if (!len || len >= ACT_HIST_NAME_MAX)
        return false;
    memcpy(name, s, len);
    name[len] = '\0';
    *total = v;
    return true;
}

/* " (BB: CCCCCCCCCC) ..." into b[]. False on anything malformed. */
static bool parse_cells(const char *s, uint64_t *b)
{
    const char *p = s;
    bool any = false;
    while (*p) {
        if (*p == ' ') {
            p++;
            continue;
        }
        if (*p++ != '(')
            return false;
        unsigned idx = 0, nd = 0;
        for (; isdigit((unsigned char)*p); p++, nd++)
            idx = idx * 10 + (unsigned)(*p - '0');
        if (!nd || nd > 2 || idx >= ACT_NBUCKETS || *p++ != ':')
            return false;
        while (*p == ' ')
            p++;
        uint64_t v = 0;
        for (nd = 0; isdigit((unsigned char)*p); p++, nd++) {
            if (v > (UINT64_MAX - 9) / 10)
                return false;
            v = v * 10 + (uint64_t)(*p - '0');
        }
        if (!nd || *p++ != ')')
            return false;
        if (b)
            b[idx] = v;
        any = true;
    }
    return any;
}

static void header_line(struct reader *r, const char *s)
{
    struct act_log_info *in = &r->a->info;
    if (r->cap != CAP_NONE) {
        if (!*s) {
            if (r->cap == CAP_CONFIG)
                append(in->config_text, sizeof(in->config_text), "");
            r->cap = CAP_NONE;
        } else {
            append(r->cap == CAP_CONFIG ? in->config_text : in->names_text,
                   r->cap == CAP_CONFIG ? sizeof(in->config_text) : sizeof(in->names_text), s);
        }
    }
    const char *v = NULL;
    if (!in->version[0] && starts(s, "ACT version "))
        v = s + 12;
    else if (!in->version[0] && starts(s, "Aerospike act version "))
        v = s + 22;
    if (v) {
        size_t n = strcspn(v, " ");
        snprintf(in->version, sizeof(in->version), "%.*s", (int)(n < 15 ? n : 15), v);
        in->version_num = strtod(in->version, NULL);
    } else if (!in->producer[0] && starts(s, "Written by ")) {
        const char *p = s + 11, *e = strstr(p, " in ACT ");
        size_t n = e ? (size_t)(e - p) : strlen(p);
        snprintf(in->producer, sizeof(in->producer), "%.*s", (int)(n < 95 ? n : 95), p);
    } else if (r->cap == CAP_NONE && strlen(s) >= 13 &&
               !strcmp(s + strlen(s) - 13, "CONFIGURATION")) {
        r->cap = CAP_CONFIG;
        append(in->config_text, sizeof(in->config_text), s);
    } else if (r->cap == CAP_NONE && !strcmp(s, "HISTOGRAM NAMES")) {
        r->cap = CAP_NAMES;
    } else if (!r->got_interval && starts(s, "report-interval-sec:")) {
        r->got_interval = parse_uint(s + 20 + strspn(s + 20, " "), &in->report_interval_sec);
    } else if (!r->got_scale && starts(s, "microsecond-histograms:")) {
        in->us_histograms = s[23 + strspn(s + 23, " ")] == 'y';
        r->got_scale = in->scale_found = true;
    } else if (!r->got_duration && starts(s, "test-duration-sec:")) {
        r->got_duration = parse_uint(s + 18 + strspn(s + 18, " "), &in->test_duration_sec);
    } else if (!r->got_ndev && starts(s, "num-devices:")) {
        r->got_ndev = parse_uint(s + 12 + strspn(s + 12, " "), &in->num_devices);
    }
}

static void error_line(struct reader *r, const char *s)
{
    struct act_log_info *in = &r->a->info;
    if (!in->error_lines++)
        snprintf(in->first_error, sizeof(in->first_error), "%s", s);
    /* ACT 6: "... can't keep up" then "... - test stopped"; 3.x: "too many
     * read reqs queued". */
    if (!in->stopped_early && (strstr(s, "can't keep up") || strstr(s, "test stopped") ||
                               strstr(s, "too many read reqs queued"))) {
        in->stopped_early = true;
        snprintf(in->stop_message, sizeof(in->stop_message), "%s", s);
    }
}

static int add_track(struct reader *r, const char *name, bool optional, struct act_table *t,
                     unsigned slice)
{
    struct track *k = &r->tr[r->ntrack++];
    norm_name(name, k->want);
    k->optional = optional;
    k->t = t;
    return act_table_init(t, name, slice);
}

/* The report interval is known once the first report starts. */
static int start_tables(struct reader *r)
{
    struct act_analysis *a = r->a;
    unsigned iv = a->info.report_interval_sec;
    if (!r->got_interval || !iv)
        return fail(r, r->line, "a report before any 'report-interval-sec:' line "
                                "(not an ACT log, or its header is missing)");
    a->slice_sec = (a->opts.slice_sec + iv - 1) / iv * iv;
    a->slice_adjusted = a->slice_sec != a->opts.slice_sec;
    if (a->opts.nhist) {
        for (unsigned i = 0; i < a->opts.nhist; i++)
            add_track(r, a->opts.hist[i], false, &a->tables[i], a->slice_sec);
        a->ntables = a->opts.nhist;
    } else {
        add_track(r, "reads", false, &a->tables[0], a->slice_sec);
        a->ntables = 1;
        /* Before 6.0 `reads` included queueing; ACT's script then showed the
         * device-only table next to it, so we do too. */
        if (a->info.version[0] && a->info.version_num < 6.0) {
            add_track(r, "device-reads", true, &a->tables[1], a->slice_sec);
            a->ntables = 2;
        }
    }
    return add_track(r, "reads", true, &a->hourly, (ACT_CERT_SLICE + iv - 1) / iv * iv);
}

/* terminated: the report ended with its blank line (or the next report
 * began). One cut off by the end of the file is used only if every table's
 * histogram made it whole, so that all tables keep the same slices. */
static int end_block(struct reader *r, bool terminated)
{
    struct act_log_info *in = &r->a->info;
    r->in_block = false;
    r->cur = 0;
    for (unsigned i = 0; i < r->ntrack; i++) {
        struct track *k = &r->tr[i];
        uint64_t sum = 0;
        for (unsigned b = 0; k->found && b < ACT_NBUCKETS; b++)
            sum += k->b[b];
        bool ok = k->found && k->cells_ok && sum == k->total;
        if (!terminated && !ok && (k->found || k->t->found)) {
            in->truncated = true;
            return 0;
        }
        if (!k->found || ok)
            continue;
        if (!k->cells_ok)
            return fail(r, k->line, "%s: bad bucket line after it", k->name);
        return fail(r, k->line, "%s: buckets add up to %llu but the line says %llu total",
                    k->name, (unsigned long long)sum, (unsigned long long)k->total);
    }
    in->nblocks++;
    in->last_elapsed = r->elapsed;
    for (unsigned i = 0; i < r->ntrack; i++) {
        struct track *k = &r->tr[i];
        if (!k->found)
            continue;
        if (!k->t->found)
            snprintf(k->t->name, sizeof(k->t->name), "%s", k->name);
        int rc = act_table_feed(k->t, r->elapsed, k->b);
        if (rc == -ERANGE)
            return fail(r, k->line, "%s: counts went down since an earlier report "
                                    "(two runs in one file?)", k->name);
        if (rc)
            return fail(r, k->line, "out of memory");
    }
    return 0;
}

static void note_name(struct act_log_info *in, const char *name)
{
    size_t n = strlen(in->seen_names);
    if (n + strlen(name) + 8 < sizeof(in->seen_names))
        snprintf(in->seen_names + n, sizeof(in->seen_names) - n, "%s%s", n ? ", " : "", name);
}

/* One line, without its newline. last_cut: the final line had no newline. */
static int do_line(struct reader *r, const char *s, bool last_cut)
{
    struct act_log_info *in = &r->a->info;
    unsigned elapsed;
    if (starts(s, "ERROR")) {
        error_line(r, s);
        return 0;
    }
    if (parse_after(s, &elapsed)) {
        int rc = r->in_block ? end_block(r, true) : 0;
        if (!rc && !r->started) {
            r->started = true;
            rc = start_tables(r);
        }
        if (rc)
            return rc;
        if (in->nblocks && elapsed <= in->last_elapsed)
            return fail(r, r->line, "'%s' after the report at %u sec (two runs in one file?)",
                        s, in->last_elapsed);
        r->in_block = true;
        r->elapsed = elapsed;
        r->cur = 0;
        for (unsigned i = 0; i < r->ntrack; i++)
            r->tr[i].found = false;
        return 0;
    }
    if (!r->started) {
        header_line(r, s);
        return 0;
    }
    if (!r->in_block)
        return 0;
    if (!*s)
        return end_block(r, true);

    char name[ACT_HIST_NAME_MAX], norm[ACT_HIST_NAME_MAX];
    uint64_t total;
    if (s[0] == ' ' && s[1] == '(') {
        bool ok = parse_cells(s, NULL);
        if (!ok && !last_cut)
            return fail(r, r->line, "bad histogram bucket line '%.60s'", s);
        for (unsigned i = 0; i < r->ntrack; i++) {
            if (!(r->cur & (1u << i)))
                continue;
            if (ok)
                parse_cells(s, r->tr[i].b);
            else
                r->tr[i].cells_ok = false;
        }
        return 0;
    }
    if (!parse_hist_line(s, name, &total))
        return 0;   /* e.g. 3.x's "read-reqs queued: 0" */
    if (in->nblocks == 0)
        note_name(in, name);
    norm_name(name, norm);
    r->cur = 0;
    for (unsigned i = 0; i < r->ntrack; i++) {
        struct track *k = &r->tr[i];
        if (k->found || strcmp(k->want, norm))
            continue;   /* a name repeated within one report: keep the first */
        k->found = true;
        k->cells_ok = true;
        k->line = r->line;
        k->total = total;
        snprintf(k->name, sizeof(k->name), "%s", name);
        memset(k->b, 0, sizeof(k->b));
        r->cur |= 1u << i;
    }
    return 0;
}

void act_analyze_opts_default(struct act_analyze_opts *o)
{
    memset(o, 0, sizeof(*o));
    o->slice_sec = 3600;
    o->num_buckets = 7;
    o->every_nth = 1;
}

static int check_opts(struct reader *r, const struct act_analyze_opts *o)
{
    if (!o->slice_sec)
        return fail(r, 0, "slice must be at least 1 second");
    if (o->start_bucket >= ACT_TABLE_BUCKETS)
        return fail(r, 0, "start bucket %u: must be 0 to %u", o->start_bucket,
                    ACT_TABLE_BUCKETS - 1);
    if (!o->num_buckets || !o->every_nth)
        return fail(r, 0, "number of buckets and every-nth must be at least 1");
    if (o->nhist > ACT_MAX_TABLES)
        return fail(r, 0, "at most %u histograms", ACT_MAX_TABLES);
    for (unsigned i = 0; i < o->nhist; i++) {
        char a[ACT_HIST_NAME_MAX], b[ACT_HIST_NAME_MAX];
        norm_name(o->hist[i], a);
        if (!*a)
            return fail(r, 0, "empty histogram name");
        for (unsigned j = 0; j < i; j++) {
            norm_name(o->hist[j], b);
            if (!strcmp(a, b))
                return fail(r, 0, "histogram '%s' asked for twice", o->hist[i]);
        }
    }
    return 0;
}

static int finish(struct reader *r)
{
    struct act_analysis *a = r->a;
    struct act_log_info *in = &a->info;
    if (!r->started) {
        if (!in->version[0])
            return fail(r, 0, "not an ACT log (no 'ACT version' line, no 'after N sec:' "
                              "report)");
        return fail(r, 0, "no 'after N sec:' report in the log");
    }
    unsigned keep = 0;
    for (unsigned i = 0; i < a->ntables; i++) {
        struct track *k = &r->tr[i];
        if (!k->t->found && k->optional) {
            act_table_free(k->t);
            continue;
        }
        if (!k->t->found)
            return fail(r, 0, "no histogram '%s' in the log (it has: %s)", k->t->name,
                        in->seen_names[0] ? in->seen_names : "none");
        if (keep != i)
            a->tables[keep] = a->tables[i];
        keep++;
    }
    a->ntables = keep;
    for (unsigned i = 0; i < a->ntables; i++)
        act_table_finish(&a->tables[i]);
    act_table_finish(&a->hourly);
    a->ncols = act_display_columns(a->opts.start_bucket, a->opts.num_buckets,
                                   a->opts.every_nth, a->cols);
    act_verdict_compute(&a->hourly, in->us_histograms, in->stopped_early, in->stop_message,
                        in->test_duration_sec, &a->verdict);
    return 0;
}

int act_analyze_stream(FILE *f, const char *name, const struct act_analyze_opts *o,
                       struct act_analysis *a, char *err, size_t errlen)
{
    memset(a, 0, sizeof(*a));
    a->opts = *o;
    struct reader r = {.name = name, .a = a, .err = err, .errlen = errlen};
    int rc = check_opts(&r, o);
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    while (!rc && (n = getline(&line, &cap, f)) >= 0) {
        r.line++;
        bool cut = n == 0 || line[n - 1] != '\n';
        while (n && (line[n - 1] == '\n' || line[n - 1] == '\r'))
            line[--n] = '\0';
        if (memchr(line, '\0', (size_t)n)) {
            rc = fail(&r, r.line, "binary data; not an ACT log");
            break;
        }
        rc = do_line(&r, line, cut);
    }
    free(line);
    if (!rc && ferror(f))
        rc = fail(&r, 0, "read error");
    if (!rc && r.in_block)
        rc = end_block(&r, false);
    if (!rc)
        rc = finish(&r);
    if (rc)
        act_analysis_free(a);
    return rc;
}

int act_analyze_file(const char *path, const struct act_analyze_opts *o, struct act_analysis *a,
                     char *err, size_t errlen)
{
    /* a regular file (any size: the log is read as a stream, in bounded
     * memory); a FIFO or device is refused without blocking */
    FILE *f = slurp_open(path, "ACT log", 0, err, errlen);
    if (!f) {
        int e = errno;
        memset(a, 0, sizeof(*a));
        return -e;
    }
    int rc = act_analyze_stream(f, path, o, a, err, errlen);
    fclose(f);
    return rc;
}

void act_analysis_free(struct act_analysis *a)
{
    for (unsigned i = 0; i < ACT_MAX_TABLES; i++)
        act_table_free(&a->tables[i]);
    act_table_free(&a->hourly);
}
