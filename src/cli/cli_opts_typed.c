/* cli_opts_typed.c - the typed entries of the option tables: storing a
 * value by its type in the command's configuration (cli_opt_apply), the
 * whole parse loop of a command on a table (cli_opts_parse), its help
 * text (cli_opts_help, cli_opts_print: a shared option's row shown from the
 * shared table, cli_opt_shown) and that table of the options every command
 * shares (cli_shared_find, cli_output_option). See cli_opts.h. */
#include <string.h>

#include "job/spec_parse.h"
#include "cli/cli.h"
#include "cli/cli_opts.h"

/* The largest value a field of size bytes holds (unsigned). */
static uint64_t field_max(size_t size)
{
    return size >= 8 ? UINT64_MAX : size == 4 ? UINT32_MAX : size == 2 ? UINT16_MAX : UINT8_MAX;
}

static void store_u(void *p, size_t size, uint64_t x)
{
    if (size == 8) {
        uint64_t v = x;
        memcpy(p, &v, 8);
    } else if (size == 4) {
        uint32_t v = (uint32_t)x;
        memcpy(p, &v, 4);
    } else if (size == 2) {
        uint16_t v = (uint16_t)x;
        memcpy(p, &v, 2);
    } else {
        uint8_t v = (uint8_t)x;
        memcpy(p, &v, 1);
    }
}

static uint64_t load_u(const void *p, size_t size)
{
    if (size == 8) {
        uint64_t v;
        memcpy(&v, p, 8);
        return v;
    }
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
}

static void store_int(void *p, size_t size, int x)
{
    if (size == sizeof(int))
        memcpy(p, &x, sizeof(int));
    else
        store_u(p, size, (uint64_t)(unsigned)x);
}

static uint64_t hi_of(const struct cli_opt *o, size_t size)
{
    uint64_t m = field_max(size);
    return o->uhi && o->uhi < m ? o->uhi : m;
}

int cli_opt_apply(const struct cli_ctx *c, const struct cli_opt *o, const char *v)
{
    char *field = (char *)c->cfg + o->off;
    char msg[512];
    int rc = 0;
    switch (o->type) {
    case CLI_T_ID:
        cli_err("%s: %s is not handled here", c->cmd, o->name);
        return -1;
    case CLI_T_FLAG: {
        bool t = true;
        memcpy(field, &t, sizeof(t));
        return 0;
    }
    case CLI_T_CONST:
        store_int(field, o->size, o->ival);
        return 0;
    case CLI_T_STR:
        memcpy(field, &v, sizeof(v));
        return 0;
    case CLI_T_STRS: {
        char *cnt = (char *)c->cfg + o->count_off;
        uint64_t n = load_u(cnt, o->count_size), max = o->size / sizeof(const char *);
        if (n >= max) {
            cli_err("%s: at most %llu values ('%s')", o->name, (unsigned long long)max, v);
            return -1;
        }
        memcpy(field + n * sizeof(const char *), &v, sizeof(v));
        store_u(cnt, o->count_size, n + 1);
        return 0;
    }
    case CLI_T_UINT: {
        uint64_t x, s = o->scale ? o->scale : 1;
        uint64_t hi = o->uhi ? o->uhi : field_max(o->size) / s; /* the range in the value's units */
        rc = cli_parse_uint(o->name, v, o->ulo, hi, &x, msg, sizeof(msg));
        if (rc == 0)
            store_u(field, o->size, x * s);
        break;
    }
    case CLI_T_SIZE: {
        uint64_t x;
        rc = cli_parse_size(o->name, v, o->ulo, hi_of(o, o->size), o->scale, &x, msg, sizeof(msg));
        if (rc == 0)
            store_u(field, o->size, x);
        break;
    }
    case CLI_T_TIME: {
        uint64_t unit = o->scale ? o->scale : SPEC_NS_PER_S, ns;
        bool whole = o->flags & CLI_WHOLE;
        uint64_t hi = o->uhi ? o->uhi : UINT64_MAX;
        rc = cli_parse_duration(o->name, v, unit, o->ulo, hi, whole, &ns, msg, sizeof(msg));
        if (rc == 0)
            store_u(field, o->size, whole ? ns / unit : ns);
        break;
    }
    case CLI_T_PCT:
    case CLI_T_REAL: {
        double x;
        rc = o->type == CLI_T_PCT ? cli_parse_pct(o->name, v, o->lo, o->hi, o->flags, &x, msg, sizeof(msg))
                                  : cli_parse_real(o->name, v, o->lo, o->hi, o->flags, &x, msg, sizeof(msg));
        if (rc == 0)
            memcpy(field, &x, sizeof(x));
        break;
    }
    case CLI_T_ENUM: {
        int x;
        rc = cli_parse_enum(o->name, v, o->enums, &x, msg, sizeof(msg));
        if (rc == 0)
            store_int(field, o->size, x);
        break;
    }
    case CLI_T_CALL:
        return o->set(c, o, v);
    }
    if (rc < 0)
        cli_err("%s", msg);
    return rc;
}

int cli_opts_parse(const struct cli_cmd_opts *c, int argc, char **argv, void *cfg, struct cli_output *out,
                   int (*operand)(const char *s, void *cfg))
{
    const struct cli_ctx ctx = {.cmd = c->cmd, .cfg = cfg, .out = out};
    return cli_opts_parse_ctx(c, argc, argv, &ctx, operand);
}

int cli_opts_parse_ctx(const struct cli_cmd_opts *c, int argc, char **argv, const struct cli_ctx *ctx,
                       int (*operand)(const char *s, void *cfg))
{
    bool operands = false;
    struct cli_output *out = ctx->out;
    void *cfg = ctx->cfg;
    for (int i = 1; i < argc; i++) {
        if (!operands && out && strcmp(argv[i], "--") != 0) {
            int r = cli_output_option(&i, argc, argv, out);
            if (r < 0)
                return -1;
            if (r > 0)
                continue;
        }
        const char *v;
        const struct cli_opt *hit;
        int id = cli_opts_next_typed(c->cmd, c->opts, &i, argc, argv, &v, &operands, &hit);
        switch (id) {
        case CLI_OPT_HELP:
            cli_opts_help(stdout, c);
            return 1;
        case CLI_OPT_ERROR:
            return -1;
        case CLI_OPT_SKIP:
            continue;
        case CLI_OPT_OPERAND:
            if (operand(argv[i], cfg) < 0)
                return -1;
            continue;
        case CLI_OPT_TYPED:
            if (cli_opt_apply(ctx, hit, v) < 0)
                return -1;
            continue;
        default:
            cli_err("%s: %s is not handled here", c->cmd, argv[i]);
            return -1;
        }
    }
    return 0;
}

bool cli_opt_is_shared(const struct cli_opt *row)
{
    return row->name && !row->help && row->type == CLI_T_ID && row->id == 0 &&
           cli_shared_find(row->name, 0, NULL) != NULL;
}

struct cli_opt cli_opt_shown(const struct cli_opt *row, char *buf, size_t len)
{
    if (!cli_opt_is_shared(row))
        return *row;
    const struct cli_opt *sh = cli_shared_find(row->name, 0, NULL);
    struct cli_opt o = {.name = sh->name, .alias = sh->alias, .value = row->value ? row->value : sh->value,
                        .dflt = row->dflt ? row->dflt : sh->dflt, .unit = sh->unit,
                        .man = row->man, .note = row->note, .help = sh->help};
    if (row->note) {
        snprintf(buf, len, "%s\n%s", sh->help, row->note);
        o.help = buf;
    }
    return o;
}

void cli_opts_print(FILE *f, const struct cli_opt *rows, int col)
{
    char note[512];
    for (const struct cli_opt *r = rows; r->name || r->help; r++) {
        if (!r->name) {
            fprintf(f, "%s\n", r->help);
            continue;
        }
        const struct cli_opt shown = cli_opt_shown(r, note, sizeof(note));
        const struct cli_opt *t = &shown;
        char spec[160];
        const char *sp = t->value && strncmp(t->value, "[=", 2) != 0 ? " " : "";
        int n = snprintf(spec, sizeof(spec), "%s%s%s", t->name, sp, t->value ? t->value : "");
        if (t->alias)
            snprintf(spec + n, sizeof(spec) - (size_t)n, ", %s%s%s", t->alias, sp, t->value ? t->value : "");
        int w = (int)strlen(spec) + 2;
        fprintf(f, "  %s", spec);
        const char *h = t->help ? t->help : "";
        if (w + 2 > col) { /* a long left column: the text on the next line */
            fprintf(f, "\n%*s", col, "");
        } else {
            fprintf(f, "%*s", col - w, "");
        }
        for (const char *l = h; *l;) {
            const char *nl = strchr(l, '\n');
            int len = nl ? (int)(nl - l) : (int)strlen(l);
            fprintf(f, "%.*s", len, l);
            if (!nl && t->dflt) { /* the default after the text, on a line of its own when long */
                if (col + len + (int)strlen(t->dflt) + 11 > 90)
                    fprintf(f, "\n%*s(default %s)", col, "", t->dflt);
                else
                    fprintf(f, " (default %s)", t->dflt);
            }
            fputc('\n', f);
            if (!nl)
                break;
            l = nl + 1;
            fprintf(f, "%*s", col, "");
        }
        if (!*h)
            fprintf(f, t->dflt ? "(default %s)\n" : "\n", t->dflt);
    }
}

void cli_opts_help(FILE *f, const struct cli_cmd_opts *c)
{
    cli_opts_print(f, c->opts, c->col);
}

/* The options every command shares: --format, --output, --result,
 * --destroy, ... and, where a result is written, --archive and --tag. */

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

/* The options every command shares: the one place their words are
 * written. A command's table lists the ones it takes with CLI_SHARED (its
 * --help shows these words, with the command's note where it differs);
 * the man page's COMMON OPTIONS and docs/options.md are made from here. */
static const struct cli_opt output_opts[] = {
    {.name = "--format", .value = "FORMAT", .help = "what to print", .dflt = "text", .type = CLI_T_CALL,
     .set = set_format,
     .man = "What to print: \\fBtext\\fR (the default), \\fBjson\\fR (the ssdbench result document),\n"
            "\\fBcsv\\fR, or fio's \\fBfio-json\\fR, \\fBfio-json+\\fR, \\fBfio-normal\\fR and\n"
            "\\fBfio-terse\\fR; each command's help lists the ones it prints."},
    {.name = "--output-format", .value = "FORMAT", .help = "fio's names for the formats: normal, json, json+",
     .type = CLI_T_CALL, .set = set_output_format,
     .man = "fio's names: \\fBnormal\\fR is ssdbench's text, \\fBjson\\fR and \\fBjson+\\fR are\n"
            "fio-shaped JSON."},
    {.name = "--output", .alias = "-o", .value = "FILE", .help = "write the chosen format to FILE instead of stdout",
     .type = CLI_T_CALL, .set = set_output, .man = "Write the chosen format to FILE instead of standard output."},
    {.name = "--result", .value = "FILE", .help = "also save the result JSON to FILE", .type = CLI_T_CALL,
     .set = set_result,
     .man = "Also save the result document (JSON) to FILE, atomically. While the run goes\n"
            "on, completed intervals are journaled to \\fIFILE\\fR.partial (see RECOVER)."},
    {.name = "--destroy", .value = "PATH", .help = "consent to overwrite PATH (repeatable)",
     .type = CLI_T_CALL, .set = set_destroy,
     .man = "Consent to overwrite PATH, a device or an existing file that the write guard\n"
            "would refuse (repeatable)."},
    {.name = "--ranks-per-host", .value = "N", .help = "cluster runs: every host must run N ranks",
     .type = CLI_T_UINT, O(ranks_per_host), .ulo = 1, .uhi = 65536,
     .man = "Cluster runs (see CLUSTER RUNS): refuse to start unless every host runs\n"
            "exactly N ranks; with 1, a device name such as \\fI/dev/nvme0n1\\fR is the one\n"
            "device of each host. The plain build is one rank on one host."},
    {.name = "--quiet", .alias = "-q", .help = "no live status line", .type = CLI_T_FLAG, O(quiet),
     .man = "No live status line (it is shown only when standard error is a terminal)."},
    CLI_OPTS_END,
};

/* Only where a result is written (a workload: o->journal set). */
static const struct cli_opt journal_opts[] = {
    {.name = "--archive", .value = "[=PATH]", .help = "also file the result in the archive (default archive:\n"
                                                      "$SSDBENCH_ARCHIVE, else ${XDG_DATA_HOME:-~/.local/share}/ssdbench/results.db)",
     .type = CLI_T_CALL, .set = set_archive,
     .man = "\\fBrun\\fR, \\fBsuite\\fR, \\fBpts\\fR, \\fBfileio\\fR and \\fBact\\fR: also file\n"
            "the finished result in the results archive (see ARCHIVE): \\fIPATH\\fR, else\n"
            "\\fB$SSDBENCH_ARCHIVE\\fR, else \\fI$XDG_DATA_HOME/ssdbench/results.db\\fR\n"
            "(\\fI~/.local/share/ssdbench/results.db\\fR when XDG_DATA_HOME is unset).\n"
            "Filing is off unless asked for. The filed bytes are those \\fB\\-\\-result\\fR\n"
            "writes; the result file is written first and never touched. A damaged or\n"
            "locked archive gives one line and exit status 1; the result is still written.\n"
            "An MPI run files once, from rank 0."},
    {.name = "--tag", .value = "KEY=VALUE", .help = "a tag on the filed result (repeatable; docs/archive.md)",
     .type = CLI_T_CALL, .set = set_tag,
     .man = "With \\fB\\-\\-archive\\fR: a tag on the filed result (repeatable), for\n"
            "\\fBarchive list \\-\\-tag\\fR and selectors."},
    CLI_OPTS_END,
};

const struct cli_opt *cli_shared_find(const char *name, unsigned i, bool *journal_only)
{
    const unsigned nout = sizeof(output_opts) / sizeof(output_opts[0]) - 1;
    const unsigned njour = sizeof(journal_opts) / sizeof(journal_opts[0]) - 1;
    if (!name) {
        if (journal_only)
            *journal_only = i >= nout;
        return i < nout ? &output_opts[i] : i < nout + njour ? &journal_opts[i - nout] : NULL;
    }
    for (unsigned k = 0; k < nout + njour; k++) {
        const struct cli_opt *o = k < nout ? &output_opts[k] : &journal_opts[k - nout];
        if (!strcmp(o->name, name)) {
            if (journal_only)
                *journal_only = k >= nout;
            return o;
        }
    }
    return NULL;
}

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
