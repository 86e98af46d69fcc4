/* cmd_archive.c - `ssdbench archive add|list|show|export|rm`: filing saved
 * results and journals in the results archive, finding them again, getting
 * a document back byte for byte, removing one (docs/archive.md). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/cli.h"
#include "cli/cli_opts.h"
#include "cli/cli_tables.h"
#include "cli/cli_archive.h"
#include "cli/commands.h"
#include "base/numfmt.h"
#include "base/outfile.h"
#include "base/slurp.h"
#include "base/textsafe.h"
#include "result/journal.h"
#include "result/result.h"
#include "result/result_check.h"

static int parse_id(const char *s, int64_t *id)
{
    const char *p = archive_is_selector(s) ? s + 8 : s;
    char *end;
    errno = 0;
    long long v = strtoll(p, &end, 10);
    if (!*p || *end || errno || v < 1) {
        cli_err("archive: '%s' is not a result id (a number from archive list)", s);
        return -1;
    }
    *id = v;
    return 0;
}

/* ---- add --------------------------------------------------------------- */

/* The bytes to file for path and their parse: a result as it is, a journal
 * as the result recover writes. NULL after a one-line error. */
static char *load_for_filing(const char *path, size_t *len, cJSON **doc)
{
    char err[1024];
    char *buf = slurp_named(path, "result file", RESULT_MAX_BYTES, len, err, sizeof(err));
    if (!buf) {
        cli_err("%s", err);
        return NULL;
    }
    if (!journal_detect(buf, *len)) {
        if (!(*doc = result_parse(buf, *len, path, err, sizeof(err)))) {
            cli_err("%s", err);
            free(buf);
            return NULL;
        }
        return buf;
    }
    *doc = journal_parse(buf, *len, path, err, sizeof(err));
    free(buf);
    char why[400];
    if (*doc && result_check(*doc, why, sizeof(why)) < 0) {
        snprintf(err, sizeof(err), "%s: %s", path, why);
        cJSON_Delete(*doc);
        *doc = NULL;
    }
    if (!*doc) {
        cli_err("%s", err);
        return NULL;
    }
    char *txt = result_print(*doc, true);
    char *out = txt ? realloc(txt, strlen(txt) + 2) : NULL;
    if (!out) {
        free(txt);
        cJSON_Delete(*doc);
        cli_err("%s: out of memory", path);
        return NULL;
    }
    *len = strlen(out);
    out[(*len)++] = '\n';
    out[*len] = 0;
    /* indexed from the bytes filed (see cli_archive_workload) */
    cJSON_Delete(*doc);
    if (!(*doc = cJSON_ParseWithLength(out, *len))) {
        free(out);
        cli_err("%s: out of memory", path);
        return NULL;
    }
    return out;
}

static int cmd_add(struct archive *a, int nfiles, char **files, const struct archive_tag *tags, size_t ntags)
{
    int status = CLI_EXIT_OK;
    for (int k = 0; k < nfiles; k++) {
        size_t len;
        cJSON *doc = NULL;
        char *text = load_for_filing(files[k], &len, &doc);
        if (!text) {
            status = CLI_EXIT_USAGE;
            continue;
        }
        char err[1024];
        int64_t id;
        int rc = archive_file(a, text, len, doc, files[k], tags, ntags, &id, err, sizeof(err));
        free(text);
        cJSON_Delete(doc);
        if (rc == -EEXIST) {
            fprintf(stderr, "ssdbench: %s\n", err);
            printf("archive:%lld %s\n", (long long)id, files[k]);
        } else if (rc < 0) {
            cli_err("archive: %s", err);
            return CLI_EXIT_FAIL; /* the database itself failed: stop */
        } else {
            printf("archive:%lld %s\n", (long long)id, files[k]);
        }
    }
    return status;
}

/* ---- list and show ------------------------------------------------------- */

enum list_format { LIST_TEXT, LIST_JSON, LIST_CSV };

struct lister {
    struct archive *a;
    FILE *out;
    struct jout *json;      /* json: the buffer over stdout */              /* text: stdout with control characters escaped */
    enum list_format fmt;
    unsigned n;
    int err;
};

static const char *device_of(const struct archive_row *r, char *buf, size_t len)
{
    if (*r->model && *r->serial)
        snprintf(buf, len, "%s (%s)", r->model, r->serial);
    else
        snprintf(buf, len, "%s", *r->model ? r->model : *r->serial ? r->serial : r->target);
    return buf;
}

static void csv_field(const char *s, bool last)
{
    bool q = strpbrk(s, ",\"\n\r") != NULL;
    if (q) {
        putchar('"');
        for (; *s; s++) {
            if (*s == '"')
                putchar('"');
            putchar(*s);
        }
        putchar('"');
    } else {
        fputs(s, stdout);
    }
    putchar(last ? '\n' : ',');
}

/* JSON for list, written through one buffer (10,000 rows with their
 * figures stay under 100 ms): strings escaped as JSON requires, numbers
 * exact (as "%.17g" writes them, numfmt_g17), null for a figure not in the
 * document. */
struct jout {
    FILE *f;
    size_t n;
    bool failed;
    char b[1 << 16];
};

static void j_flush(struct jout *j)
{
    if (j->n && fwrite(j->b, 1, j->n, j->f) != j->n)
        j->failed = true;
    j->n = 0;
}

/* Room for len more bytes (len <= sizeof(b)). */
static char *j_room(struct jout *j, size_t len)
{
    if (j->n + len > sizeof(j->b))
        j_flush(j);
    return j->b + j->n;
}

static void j_mem(struct jout *j, const char *s, size_t len)
{
    if (j->n + len <= sizeof(j->b)) {
        memcpy(j->b + j->n, s, len);
        j->n += len;
        return;
    }
    while (len) {
        size_t k = len < sizeof(j->b) ? len : sizeof(j->b);
        memcpy(j_room(j, k), s, k);
        j->n += k;
        s += k;
        len -= k;
    }
}

/* A string literal (its length known when compiled). */
#define j_lit(j, s) j_mem((j), "" s, sizeof(s) - 1)

/* s[0..len) as a JSON string: copied into the buffer as it is scanned,
 * "\\u00XX" for a control byte, a backslash before '"' and '\\'. */
static void j_strn(struct jout *j, const char *s, size_t len)
{
    static const char hex[] = "0123456789abcdef";
    if (len > (sizeof(j->b) - 2) / 6) { /* too long to escape in one buffer: a run at a time */
        j_mem(j, "\"", 1);
        const unsigned char *p = (const unsigned char *)s, *end = p + len, *run = p;
        for (; p < end; p++) {
            if (*p != '"' && *p != '\\' && *p >= 0x20)
                continue;
            j_mem(j, (const char *)run, (size_t)(p - run));
            char esc[6] = {'\\', (char)*p, 0};
            if (*p < 0x20)
                memcpy(esc + 1, (char[5]){'u', '0', '0', hex[*p >> 4], hex[*p & 15]}, 5);
            j_mem(j, esc, *p < 0x20 ? 6 : 2);
            run = p + 1;
        }
        j_mem(j, (const char *)run, (size_t)(p - run));
        j_mem(j, "\"", 1);
        return;
    }
    char *o = j_room(j, 6 * len + 2), *start = o;
    *o++ = '"';
    const unsigned char *p = (const unsigned char *)s, *end = p + len;
    /* eight plain bytes at a time: none below 0x20, none '"' or '\\'
     * (the high bit of a byte of t is set where a byte of w is one of them) */
    const uint64_t ones = 0x0101010101010101ull, highs = 0x8080808080808080ull;
    for (; end - p >= 8; p += 8) {
        uint64_t w;
        memcpy(&w, p, 8);
        uint64_t q = w ^ (ones * '"'), b = w ^ (ones * '\\');
        uint64_t t = (((w - ones * 0x20) & ~w) | ((q - ones) & ~q) | ((b - ones) & ~b)) & highs;
        if (t)
            break;
        memcpy(o, p, 8);
        o += 8;
    }
    for (; p < end; p++) {
        unsigned char c = *p;
        if (__builtin_expect(c >= 0x20 && c != '"' && c != '\\', 1)) {
            *o++ = (char)c;
        } else if (c >= 0x20) {
            *o++ = '\\';
            *o++ = (char)c;
        } else {
            memcpy(o, (char[6]){'\\', 'u', '0', '0', hex[c >> 4], hex[c & 15]}, 6);
            o += 6;
        }
    }
    *o++ = '"';
    j->n += (size_t)(o - start);
}

static void j_str(struct jout *j, const char *s)
{
    j_strn(j, s, strlen(s));
}

static void j_int(struct jout *j, long long v)
{
    char *p = j_room(j, 24), *e = p;
    if (v < 0) {
        *e++ = '-';
        e = numfmt_u64(e, 0 - (unsigned long long)v);
    } else {
        e = numfmt_u64(e, (unsigned long long)v);
    }
    j->n += (size_t)(e - p);
}

static void j_num(struct jout *j, double v)
{
    if (!isfinite(v)) {
        j_lit(j, "null");
        return;
    }
    char *p = j_room(j, 32);
    j->n += (size_t)(numfmt_g17(p, v) - p);
}

static void fig_json(struct jout *j, const struct archive_fig *f, bool first)
{
    if (first)
        j_lit(j, "{\"phase\":");
    else
        j_lit(j, ",{\"phase\":");
    j_str(j, f->phase);
    j_lit(j, ",\"dir\":");
    j_str(j, f->dir);
    j_lit(j, ",\"iops\":");
    j_num(j, f->iops);
    j_lit(j, ",\"mbps\":");
    j_num(j, f->mbps);
    j_lit(j, ",\"mean_ns\":");
    j_num(j, f->mean_ns);
    j_lit(j, ",\"p99_ns\":");
    j_num(j, f->p99_ns);
    j_lit(j, ",\"p99.9_ns\":");
    j_num(j, f->p999_ns);
    j_lit(j, ",\"max_ns\":");
    j_num(j, f->max_ns);
    j_lit(j, ",\"steady_state\":");
    j_str(j, f->steady);
    j_mem(j, "}", 1);
}

/* The tags object: keys have no '=' (archive_tag_parse). */
static void tags_json(struct jout *j, const char *tags)
{
    bool first = true;
    const char sep[2] = {ARCHIVE_TAG_SEP, 0};
    for (const char *t = tags; *t;) {
        size_t n = strcspn(t, sep), k = strcspn(t, "=");
        if (k < n) {
            if (!first)
                j_mem(j, ",", 1);
            j_strn(j, t, k);
            j_mem(j, ":", 1);
            j_strn(j, t + k + 1, n - k - 1);
            first = false;
        }
        t += n + (t[n] == ARCHIVE_TAG_SEP);
    }
}

static int row_json(struct jout *j, const struct archive_row *r)
{
    j_lit(j, "{\"id\":");
    j_int(j, r->id);
    j_lit(j, ",\"started\":");
    j_str(j, r->started);
    j_lit(j, ",\"started_unix_ms\":");
    j_int(j, r->started_ms);
    j_lit(j, ",\"filed_unix_ms\":");
    j_int(j, r->filed_ms);
#define KEY(k) {",\"" k "\":", sizeof(",\"" k "\":") - 1}
    static const struct {
        const char *s;
        size_t n;
    } key[] = {KEY("host"), KEY("kernel"), KEY("version"), KEY("model"),    KEY("serial"), KEY("firmware"), KEY("bus"),
               KEY("target"), KEY("kind"), KEY("workload"), KEY("label"), KEY("source"), KEY("sha256")};
#undef KEY
    const char *val[] = {r->host, r->kernel, r->version,  r->model, r->serial, r->firmware, r->bus,
                         r->target, r->kind, r->workload, r->label, r->source, r->sha256};
    for (size_t i = 0; i < sizeof(key) / sizeof(key[0]); i++) {
        j_mem(j, key[i].s, key[i].n);
        j_str(j, val[i]);
    }
    j_lit(j, ",\"capacity_bytes\":");
    j_int(j, r->capacity);
    if (r->incomplete)
        j_lit(j, ",\"incomplete\":true,\"bytes\":");
    else
        j_lit(j, ",\"incomplete\":false,\"bytes\":");
    j_int(j, r->doc_len);
    j_lit(j, ",\"tags\":{");
    tags_json(j, r->tags);
    j_lit(j, "},\"figures\":[");
    struct archive_fig f;
    int rc;
    bool first = true;
    while ((rc = archive_row_figure(r, &f)) > 0) {
        fig_json(j, &f, first);
        first = false;
    }
    j_lit(j, "]}");
    return rc < 0 ? rc : 0;
}

/* The tags for people: "k=v, k=v" ("-" for none). */
static const char *tags_text(const char *tags, char *buf, size_t len)
{
    size_t n = 0;
    for (const char *t = tags; *t && n + 3 < len; t++) {
        if (*t == ARCHIVE_TAG_SEP) {
            buf[n++] = ',';
            buf[n++] = ' ';
        } else {
            buf[n++] = *t;
        }
    }
    buf[n] = 0;
    return n ? buf : "-";
}

static int list_row(const struct archive_row *r, void *ctx)
{
    struct lister *l = ctx;
    char tags[2048];
    char dev[300], when[24];
    if (l->fmt == LIST_TEXT) {
        snprintf(when, sizeof(when), "%.19s", r->started);
        if (l->n == 0)
            fprintf(l->out, "%-6s %-19s %-12s %-28s %-7s %-20s %-12s %s\n", "ID", "STARTED", "HOST", "DEVICE", "KIND",
                    "WORKLOAD", "LABEL", "TAGS");
        fprintf(l->out, "%-6lld %-19s %-12s %-28s %-7s %-20s %-12s %s%s\n", (long long)r->id, when, r->host,
               device_of(r, dev, sizeof(dev)), r->kind, r->workload, *r->label ? r->label : "-",
               tags_text(r->tags, tags, sizeof(tags)),
               r->incomplete ? " (incomplete)" : "");
    } else if (l->fmt == LIST_CSV) {
        if (l->n == 0)
            printf("id,started,host,kernel,version,model,serial,firmware,capacity_bytes,bus,target,kind,workload,label,"
                   "tags,incomplete,source\n");
        char num[32], cap[32];
        snprintf(num, sizeof(num), "%lld", (long long)r->id);
        snprintf(cap, sizeof(cap), "%lld", (long long)r->capacity);
        const char *f[] = {num, r->started, r->host, r->kernel, r->version, r->model, r->serial, r->firmware, cap,
                           r->bus, r->target, r->kind, r->workload, r->label, *r->tags ? tags_text(r->tags, tags, sizeof(tags)) : "",
                           r->incomplete ? "1" : "0",
                           r->source};
        for (size_t i = 0; i < sizeof(f) / sizeof(f[0]); i++)
            csv_field(f[i], i + 1 == sizeof(f) / sizeof(f[0]));
    } else {
        if (l->n)
            j_lit(l->json, ",\n ");
        else
            j_lit(l->json, "[");
        int rc = row_json(l->json, r);
        if (rc < 0)
            return rc;
    }
    l->n++;
    return 0;
}

struct shower {
    FILE *out;
    unsigned n;
};

static int show_fig(const struct archive_fig *f, void *ctx)
{
    struct shower *sh = ctx;
    if (sh->n++ == 0)
        fprintf(sh->out, "\n%-32s %-5s %12s %10s %12s %12s %12s %12s %s\n", "PHASE", "DIR", "IOPS", "MB/s", "MEAN us", "P99 us",
               "P99.9 us", "MAX us", "STEADY");
    fprintf(sh->out, "%-32.32s %-5s %12.0f %10.1f %12.2f %12.2f %12.2f %12.2f %s\n", f->phase, f->dir, f->iops, f->mbps,
           f->mean_ns / 1e3, f->p99_ns / 1e3, f->p999_ns / 1e3, f->max_ns / 1e3, *f->steady ? f->steady : "-");
    return 0;
}

static int show_row(const struct archive_row *r, void *ctx)
{
    struct shower *sh = ctx;
    char dev[300], tags[2048];
    fprintf(sh->out, "id:         archive:%lld\nstarted:    %s\nhost:       %s (kernel %s)\nssdbench:   %s\n"
           "device:     %s\nfirmware:   %s\ncapacity:   %lld bytes\nbus:        %s\ntarget:     %s\n"
           "kind:       %s\nworkload:   %s\nlabel:      %s\ntags:       %s\nsource:     %s\n"
           "document:   %lld bytes, sha256 %s%s\n",
           (long long)r->id, r->started, r->host, r->kernel, r->version, device_of(r, dev, sizeof(dev)),
           *r->firmware ? r->firmware : "-", (long long)r->capacity, *r->bus ? r->bus : "-", r->target, r->kind,
           r->workload, *r->label ? r->label : "-", tags_text(r->tags, tags, sizeof(tags)), r->source, (long long)r->doc_len,
           r->sha256, r->incomplete ? " (incomplete: recovered from a journal)" : "");
    return 0;
}

/* archive list: text (control characters escaped), csv, or json with the
 * figures of every row; archive_list_all reads rows, tags and figures in
 * three statements. */
static int cmd_list(struct archive *ar, const struct archive_filter *f, enum list_format fmt)
{
    char err[1024];
    int status = CLI_EXIT_OK;
    struct lister l = {.a = ar, .fmt = fmt, .out = stdout};
    if (fmt == LIST_TEXT)
        l.out = textsafe_open(stdout);
    else if (fmt == LIST_JSON && (l.json = malloc(sizeof(*l.json))) != NULL)
        *l.json = (struct jout){.f = stdout};
    if (!l.out || (fmt == LIST_JSON && !l.json)) {
        cli_err("archive: out of memory");
        status = CLI_EXIT_FAIL;
    } else if (archive_list_all(ar, f, list_row, &l, err, sizeof(err)) < 0) {
        cli_err("archive: %s", err);
        status = CLI_EXIT_FAIL;
    }
    if (fmt == LIST_TEXT && l.out && textsafe_close(l.out) < 0)
        status = CLI_EXIT_FAIL;
    if (l.json) {
        if (l.n)
            j_lit(l.json, "]\n");
        else
            j_lit(l.json, "[]\n");
        j_flush(l.json);
        if (l.json->failed)
            status = CLI_EXIT_FAIL;
        free(l.json);
    }
    if (fflush(stdout) != 0)
        status = CLI_EXIT_FAIL;
    return status;
}

/* archive show ID: the indexed columns and the figures. */
static int sub_show(struct archive *ar, int64_t id)
{
    char err[1024];
    int status = CLI_EXIT_OK;
    struct shower sh = {.out = textsafe_open(stdout)};
    if (!sh.out) {
        cli_err("archive: out of memory");
        return CLI_EXIT_FAIL;
    }
    if (archive_row_get(ar, id, show_row, &sh, err, sizeof(err)) < 0 ||
        archive_figures(ar, id, show_fig, &sh, err, sizeof(err)) < 0) {
        cli_err("archive: %s", err);
        status = CLI_EXIT_USAGE;
    }
    if (textsafe_close(sh.out) < 0)
        status = CLI_EXIT_FAIL;
    return status;
}

/* archive export ID [-o FILE]: the document's exact bytes. */
static int sub_export(struct archive *ar, int64_t id, const char *output)
{
    char err[1024];
    char *text;
    size_t len;
    struct outfile of;
    int status = CLI_EXIT_OK;
    if (archive_get(ar, id, &text, &len, err, sizeof(err)) < 0) {
        cli_err("archive: %s", err);
        return CLI_EXIT_USAGE;
    }
    if (outfile_open(&of, output ? output : "-", err, sizeof(err)) < 0) {
        cli_err("%s", err);
        status = CLI_EXIT_FAIL;
    } else if (fwrite(text, 1, len, of.f) != len) {
        outfile_abort(&of);
        cli_err("%s: cannot write: %s", output ? output : "standard output", strerror(errno ? errno : EIO));
        status = CLI_EXIT_FAIL;
    } else if (outfile_commit(&of, err, sizeof(err)) < 0) {
        cli_err("%s", err);
        status = CLI_EXIT_FAIL;
    }
    free(text);
    return status;
}

static int sub_rm(struct archive *ar, int64_t id)
{
    char err[1024];
    if (archive_rm(ar, id, err, sizeof(err)) < 0) {
        cli_err("archive: %s", err);
        return CLI_EXIT_USAGE;
    }
    printf("removed archive:%lld\n", (long long)id);
    return CLI_EXIT_OK;
}

/* What `archive SUB` was asked for. */
struct archive_args {
    const char *path, *output;
    struct archive_filter f;
    int fmt;                    /* enum list_format */
    char tagbuf[ARCHIVE_MAX_TAGS][128];
    struct archive_tag tags[ARCHIVE_MAX_TAGS];
    size_t ntags;
    char **pos;
    int npos;
};

static int set_tag(const struct cli_ctx *c, const struct cli_opt *o, const char *v)
{
    struct archive_args *a = c->cfg;
    char err[256];
    if (a->ntags == ARCHIVE_MAX_TAGS || strlen(v) >= sizeof(a->tagbuf[0])) {
        cli_err("%s: at most %d tags of %zu bytes", o->name, ARCHIVE_MAX_TAGS, sizeof(a->tagbuf[0]) - 1);
        return -1;
    }
    strcpy(a->tagbuf[a->ntags], v);
    if (archive_tag_parse(a->tagbuf[a->ntags], &a->tags[a->ntags], err, sizeof(err)) < 0) {
        cli_err("%s", err);
        return -1;
    }
    a->ntags++;
    return 0;
}

static int set_since(const struct cli_ctx *c, const struct cli_opt *o, const char *v)
{
    struct archive_args *a = c->cfg;
    if (archive_parse_date(v, &a->f.since_ms) < 0) {
        cli_err("archive list: %s '%s' is not a date (YYYY-MM-DD or YYYY-MM-DDTHH:MM[:SS], UTC)", o->name, v);
        return -1;
    }
    a->f.since_set = true;
    return 0;
}

static const struct cli_enum list_formats[] = {{"text", LIST_TEXT}, {"json", LIST_JSON}, {"csv", LIST_CSV}, {NULL, 0}};

#define A(f) CLI_AT(struct archive_args, f)
/* the rows, each in the tables of the subcommands that take it */
#define O_ARCHIVE {.name = "--archive", .value = "PATH", .help = "the database (default $SSDBENCH_ARCHIVE, else\n" \
                   "$XDG_DATA_HOME/ssdbench/results.db, else\n~/.local/share/ssdbench/results.db)",            \
                   .type = CLI_T_STR, A(path)}
#define O_TAG {.name = "--tag", .value = "K=V", .help = "add, list: a tag to file with, or to match (repeatable)", \
               .type = CLI_T_CALL, .set = set_tag}
#define O_LIST                                                                                                \
    {.name = "--device", .value = "MODEL|SERIAL", .help = "list: results of this device (model, serial or target path)",    \
     .type = CLI_T_STR, A(f.device)},                                                                         \
    {.name = "--since", .value = "DATE", .help = "list: started at or after YYYY-MM-DD[THH:MM[:SS]] (UTC)",   \
     .type = CLI_T_CALL, .set = set_since},                                                                   \
    {.name = "--workload", .value = "NAME", .help = "list: matches the kind, workload, a profile, test, phase\n" \
                                                    "or job name",                                          \
     .type = CLI_T_STR, A(f.workload)},                                                                       \
    {.name = "--host", .value = "NAME", .help = "list: results of this host", .type = CLI_T_STR, A(f.host)},    \
    {.name = "--kind", .value = "KIND", .help = "list: run, suite, pts, act, fileio ...", .type = CLI_T_STR,    \
     A(f.kind)},                                                                                              \
    {.name = "--format", .value = "text|json|csv", .help = "list: what to print", .dflt = "text",              \
     .type = CLI_T_ENUM, A(fmt), .enums = list_formats}
#define O_OUTPUT {.name = "--output", .alias = "-o", .value = "FILE", .help = "export: write it to FILE",        \
                  .dflt = "stdout", .type = CLI_T_STR, A(output)}

#define ARCHIVE_HEAD CLI_TEXT("usage: ssdbench archive add [--tag K=V]... FILE...\n"\
             "       ssdbench archive list [--device MODEL|SERIAL] [--since DATE] [--workload NAME]\n"\
             "                             [--host NAME] [--kind KIND] [--tag K=V]... [--format text|json|csv]\n"\
             "       ssdbench archive show ID\n"\
             "       ssdbench archive export ID [-o FILE]\n"\
             "       ssdbench archive rm ID\n"\
             "The results archive: every filed result kept whole in one SQLite database, with\n"\
             "its device, host, workload, tags and headline figures indexed (docs/archive.md).\n"\
             "  add FILE...       file saved results; a RESULT.partial journal is filed as the\n"\
             "                    result `ssdbench recover` makes of it\n"\
             "  list              oldest first, filtered by the options below\n"\
             "  show ID           what is indexed of one result, and its headline figures\n"\
             "  export ID         the filed document, byte for byte (default: stdout)\n"\
             "  rm ID             remove one result")

static const struct cli_opt archive_opts[] = {
    ARCHIVE_HEAD,
    O_ARCHIVE, O_TAG, O_LIST, O_OUTPUT,
    CLI_TEXT("Other commands read the archive through selectors: archive:ID,\n"
             "archive:latest?device=X&workload=Y&n=3, archive:best?workload=Y&by=p99."),
    CLI_OPTS_END,
};
static const struct cli_opt add_opts[] = {ARCHIVE_HEAD, O_ARCHIVE, O_TAG, CLI_OPTS_END};
static const struct cli_opt list_opts[] = {ARCHIVE_HEAD, O_ARCHIVE, O_TAG, O_LIST, CLI_OPTS_END};
static const struct cli_opt export_opts[] = {ARCHIVE_HEAD, O_ARCHIVE, O_OUTPUT, CLI_OPTS_END};
static const struct cli_opt id_opts[] = {ARCHIVE_HEAD, O_ARCHIVE, CLI_OPTS_END};

#undef A

const struct cli_cmd_opts archive_cmd_opts = {.cmd = "archive", .man_section = "ARCHIVE", .opts = archive_opts,
                                              .col = 20};

enum { SUB_ADD, SUB_LIST, SUB_SHOW, SUB_EXPORT, SUB_RM };
static const struct cli_enum subs[] = {{"add", SUB_ADD}, {"list", SUB_LIST}, {"show", SUB_SHOW},
                                       {"export", SUB_EXPORT}, {"rm", SUB_RM}, {NULL, 0}};

static int archive_operand(const char *s, void *cfg)
{
    struct archive_args *a = cfg;
    a->pos[a->npos++] = (char *)s;
    return 0;
}

/* The subcommand's options and operands into *aa; 0, 1 after --help, -1
 * after a one-line error. */
static int archive_parse(int argc, char **argv, int which, struct archive_args *aa)
{
    static const struct cli_opt *const tables[] = {add_opts, list_opts, id_opts, export_opts, id_opts};
    char cmdname[32];
    snprintf(cmdname, sizeof(cmdname), "archive %s", argv[1]);
    const struct cli_cmd_opts sc = {.cmd = cmdname, .man_section = "ARCHIVE", .opts = tables[which], .col = 20};
    aa->fmt = LIST_TEXT;
    /* after the subcommand: its own options (--help: the head and those) */
    int rc = cli_opts_parse(&sc, argc - 1, argv + 1, aa, NULL, archive_operand);
    if (rc)
        return rc;
    int want = which == SUB_ADD ? -1 : which == SUB_LIST ? 0 : 1;
    if ((want == -1 && aa->npos == 0) || (want >= 0 && aa->npos != want)) {
        cli_err("archive %s: %s", argv[1],
                want == -1 ? "which files? usage: ssdbench archive add FILE..."
                : want == 0 ? "takes no file or id (filter with --device, --workload, --since, --tag)"
                            : "give one result id (see ssdbench archive list)");
        return -1;
    }
    return 0;
}

/* ---- the command ----------------------------------------------------------- */

int cmd_archive(int argc, char **argv)
{
    if (argc < 2) {
        cli_opts_help(stderr, &archive_cmd_opts);
        return CLI_EXIT_USAGE;
    }
    const char *sub = argv[1];
    char msg[256];
    int which;
    if (!strcmp(sub, "--help") || !strcmp(sub, "-h") || !strcmp(sub, "help")) {
        cli_opts_help(stdout, &archive_cmd_opts);
        return 0;
    }
    if (cli_parse_enum("archive", sub, subs, &which, msg, sizeof(msg)) < 0) {
        const char *names[] = {"add", "list", "show", "export", "rm", NULL};
        const char *sg = cli_suggest(sub, names);
        cli_err("archive: unknown subcommand '%s'%s%s%s", sub, sg ? " (did you mean '" : " (use add, list, show, export or rm)",
                sg ? sg : "", sg ? "'?)" : "");
        return CLI_EXIT_USAGE;
    }
    struct archive_args *aa = calloc(1, sizeof(*aa));
    if (!aa || !(aa->pos = calloc((size_t)argc, sizeof(*aa->pos)))) {
        free(aa);
        cli_err("archive: out of memory");
        return CLI_EXIT_FAIL;
    }
    int status = CLI_EXIT_USAGE, rc = archive_parse(argc, argv, which, aa);
    int64_t id = 0;
    if (rc > 0)
        status = 0;
    if (rc || (which != SUB_ADD && which != SUB_LIST && parse_id(aa->pos[0], &id) < 0))
        goto done;
    struct archive *ar = cli_archive_open(aa->path, which == SUB_ADD);
    if (!ar) {
        status = CLI_EXIT_FAIL;
        goto done;
    }
    switch (which) {
    case SUB_ADD:
        status = cmd_add(ar, aa->npos, aa->pos, aa->tags, aa->ntags);
        break;
    case SUB_LIST:
        memcpy(aa->f.tags, aa->tags, aa->ntags * sizeof(aa->tags[0]));
        aa->f.ntags = aa->ntags;
        status = cmd_list(ar, &aa->f, (enum list_format)aa->fmt);
        break;
    case SUB_SHOW:
        status = sub_show(ar, id);
        break;
    case SUB_EXPORT:
        status = sub_export(ar, id, aa->output);
        break;
    default:
        status = sub_rm(ar, id);
    }
    archive_close(ar);
done:
    free(aa->pos);
    free(aa);
    return status;
}
