/* cmd_check.c - `ssdbench check RESULT --against SELECTOR`: the regression
 * gate. The headline figures of RESULT (per phase and direction: IOPS,
 * MB/s, mean, p99 and p99.9 latency) against the archived history of the
 * same device and workload, with the run-to-run noise estimated from that
 * history (archive/archive_gate.h). Exit 0 within noise, 1 regressed, 2 not
 * comparable. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cli_opts.h"
#include "cli/cli_tables.h"
#include "cli/cli_archive.h"
#include "cli/commands.h"
#include "archive/archive_gate.h"
#include "job/spec_parse.h"
#include "base/textsafe.h"

#define CHECK_MAX_LAST 1000

/* One figure of one archived result. */
struct hfig {
    char phase[160], dir[8];
    double v[6];            /* iops mbps mean p99 p99.9 max */
};

struct hist_set {
    struct hfig *f;
    size_t n, cap;
    int64_t *owner;         /* index of the history result per figure */
    int64_t cur;
};

static const char *const metric_name[6] = {"IOPS", "MB/s", "mean latency", "p99 latency", "p99.9 latency",
                                           "max latency"};

static void fig_values(const struct archive_fig *f, double v[6])
{
    v[0] = f->iops;
    v[1] = f->mbps;
    v[2] = f->mean_ns;
    v[3] = f->p99_ns;
    v[4] = f->p999_ns;
    v[5] = f->max_ns;
}

static int add_hfig(const struct archive_fig *f, void *ctx)
{
    struct hist_set *h = ctx;
    if (h->n == h->cap) {
        size_t cap = h->cap ? h->cap * 2 : 64;
        struct hfig *nf = realloc(h->f, cap * sizeof(*nf));
        int64_t *no = nf ? realloc(h->owner, cap * sizeof(*no)) : NULL;
        if (nf)
            h->f = nf;
        if (!nf || !no)
            return -ENOMEM;
        h->owner = no;
        h->cap = cap;
    }
    struct hfig *x = &h->f[h->n];
    snprintf(x->phase, sizeof(x->phase), "%s", f->phase);
    snprintf(x->dir, sizeof(x->dir), "%s", f->dir);
    fig_values(f, x->v);
    h->owner[h->n++] = h->cur;
    return 0;
}

struct hrow {
    int64_t id;
    char workload_key[512], serial[128], model[128], target[256], host[128];
    int64_t started_ms;
};

struct hrows {
    struct hrow *r;
    size_t n, cap;
};

static int add_hrow(const struct archive_row *r, void *ctx)
{
    struct hrows *h = ctx;
    if (h->n == h->cap) {
        size_t cap = h->cap ? h->cap * 2 : 16;
        struct hrow *nr = realloc(h->r, cap * sizeof(*nr));
        if (!nr)
            return -ENOMEM;
        h->r = nr;
        h->cap = cap;
    }
    struct hrow *x = &h->r[h->n++];
    x->id = r->id;
    x->started_ms = r->started_ms;
    snprintf(x->workload_key, sizeof(x->workload_key), "%s", r->workload_key);
    snprintf(x->serial, sizeof(x->serial), "%s", r->serial);
    snprintf(x->model, sizeof(x->model), "%s", r->model);
    snprintf(x->target, sizeof(x->target), "%s", r->target);
    snprintf(x->host, sizeof(x->host), "%s", r->host);
    return 0;
}

/* The new result's figures, gated one by one. */
struct gate_run {
    FILE *out;              /* stdout with control characters escaped */
    const struct hist_set *h;
    size_t nresults, min_history;
    struct archive_gate_opts opts;
    unsigned gated, regressed, improved, short_history;
    char first[512];        /* the first regression, for the exit line */
};

static void fmt_val(char *buf, size_t len, int m, double v)
{
    if (m == 0)
        snprintf(buf, len, "%.0f", v);
    else if (m == 1)
        snprintf(buf, len, "%.1f MB/s", v);
    else
        snprintf(buf, len, "%.1f us", v / 1e3);
}

static int gate_fig(const struct archive_fig *f, void *ctx)
{
    struct gate_run *g = ctx;
    double now[6];
    fig_values(f, now);
    double *vals = malloc((g->h->n + 1) * sizeof(*vals));
    if (!vals)
        return -ENOMEM;
    for (int m = 0; m < 6; m++) {
        if (!isfinite(now[m]))
            continue;
        size_t n = 0;
        for (size_t i = 0; i < g->h->n && n < ARCHIVE_GATE_MAX_HISTORY; i++)
            if (!strcmp(g->h->f[i].phase, f->phase) && !strcmp(g->h->f[i].dir, f->dir) && isfinite(g->h->f[i].v[m]))
                vals[n++] = g->h->f[i].v[m];
        char a[64], b[64], c[64];
        if (n < g->min_history) {
            if (m == 0)
                g->short_history++;
            continue;
        }
        struct archive_gate r;
        archive_gate_eval(vals, n, now[m], m < 2, &g->opts, &r);
        fmt_val(a, sizeof(a), m, now[m]);
        fmt_val(b, sizeof(b), m, r.median);
        fmt_val(c, sizeof(c), m, r.limit);
        if (m == 5) {   /* one I/O: shown, not gated */
            fprintf(g->out, "  %-28.28s %-5s %-13s %14s  median %14s  (not gated)\n", f->phase, f->dir, metric_name[m], a, b);
            continue;
        }
        g->gated++;
        const char *verdict = r.verdict == ARCHIVE_GATE_REGRESSED ? "REGRESSED"
                              : r.verdict == ARCHIVE_GATE_IMPROVED ? "improved"
                                                                   : "within noise";
        fprintf(g->out, "  %-28.28s %-5s %-13s %14s  median %14s  MAD %-10.4g bound %s %-14s %s\n", f->phase, f->dir,
               metric_name[m], a, b, r.mad, m < 2 ? ">=" : "<=", c, verdict);
        if (r.verdict == ARCHIVE_GATE_REGRESSED && g->regressed++ == 0)
            snprintf(g->first, sizeof(g->first), "%s %s %s: old %s (median of %zu), new %s, bound %s %s", f->phase,
                     f->dir, metric_name[m], b, n, a, m < 2 ? ">=" : "<=", c);
        if (r.verdict == ARCHIVE_GATE_IMPROVED)
            g->improved++;
    }
    free(vals);
    return 0;
}

struct check_args {
    const char *result, *against, *path;
    unsigned last, min_history;
    struct archive_gate_opts opts;
    double min_change_pct;      /* --min-change; opts.min_rel is it as a share */
};

#define A(f) CLI_AT(struct check_args, f)

static const struct cli_opt check_opts[] = {
    CLI_TEXT("usage: ssdbench check RESULT [--against SELECTOR] [--last N] [--min-history N]\n"
             "                      [--sigmas K] [--min-change PCT] [--archive PATH]\n"
             "The regression gate: RESULT (a file or archive:ID) against the archived history\n"
             "of the same device (serial, else model, else target path) and workload (kind,\n"
             "workload name, and per phase its name, pattern, block size, depth, jobs and\n"
             "engine). Gated per phase and direction: IOPS and MB/s (lower is worse), mean,\n"
             "p99 and p99.9 latency (higher is worse); max latency is shown, not gated."),
    {.name = "--against", .value = "SELECTOR", .help = "the history: archive:latest?...\n"
                                                       "and archive:best?... are narrowed to RESULT's device and\n"
                                                       "workload; archive:ID must be of the same device and workload",
     .dflt = "archive:latest", .type = CLI_T_STR, A(against)},
    {.name = "--last", .value = "N", .help = "the N most recent comparable results", .dflt = "10",
     .type = CLI_T_UINT, A(last), .ulo = 1, .uhi = CHECK_MAX_LAST},
    {.name = "--min-history", .value = "N", .help = "fewer comparable results is exit 2", .dflt = "3",
     .type = CLI_T_UINT, A(min_history), .ulo = 1, .uhi = CHECK_MAX_LAST},
    {.name = "--sigmas", .value = "K", .help = "bound in noise units", .dflt = "3", .type = CLI_T_REAL,
     A(opts.sigmas), .lo = 0.1, .hi = 100},
    {.name = "--min-change", .value = "PCT", .help = "smallest bound, in percent of the median", .dflt = "1",
     .type = CLI_T_PCT, A(min_change_pct), .lo = 0, .hi = 100, .unit = "%"},
    {.name = "--archive", .value = "PATH", .help = "the archive (docs/archive.md)", .type = CLI_T_STR, A(path)},
    CLI_TEXT("Noise: 1.4826 x the median absolute deviation (MAD) of the history's values;\n"
             "a figure regressed when it is worse than the history's median by more than\n"
             "max(K x noise, PCT % of the median). RESULT itself (same host and start time)\n"
             "is left out of its history.\n"
             "Exit: 0 every figure within noise (or better), 1 a figure regressed (named with\n"
             "the old median, the new value and the bound), 2 not comparable (different\n"
             "device or workload, or too little history)."),
    CLI_OPTS_END,
};

#undef A

const struct cli_cmd_opts check_cmd_opts = {.cmd = "check", .man_section = "CHECK", .opts = check_opts, .col = 22};

static int check_operand(const char *s, void *cfg)
{
    struct check_args *a = cfg;
    if (a->result) {
        cli_err("check: one result at a time (got '%s' and '%s')", a->result, s);
        return -1;
    }
    a->result = s;
    return 0;
}

/* Parses argv into ca; -1: exit with *status (help printed, or an error). */
static int check_parse(int argc, char **argv, struct check_args *ca, int *status)
{
    int rc = cli_opts_parse(&check_cmd_opts, argc, argv, ca, NULL, check_operand);
    *status = rc > 0 ? 0 : CLI_EXIT_USAGE;
    if (rc)
        return -1;
    if (!ca->result) {
        cli_err("check: which result? usage: ssdbench check RESULT --against SELECTOR");
        return -1;
    }
    if (ca->min_history > ca->last) {
        cli_err("check: --min-history %u is more than --last %u", ca->min_history, ca->last);
        return -1;
    }
    ca->opts.min_rel = ca->min_change_pct / 100;
    return 0;
}

static int check_history(struct archive *ar, const struct check_args *a, const struct archive_sel *sel,
                         const struct archive_meta *m, const char *dev, struct hrows *rows)
{
    char err[1024];
    const char *result = a->result;
    if (sel->kind == ARCHIVE_SEL_ID) {
        if (archive_row_get(ar, sel->id, add_hrow, rows, err, sizeof(err)) < 0) {
            cli_err("check: --against %s", err);
            return CLI_EXIT_USAGE;
        }
        struct hrow *h = &rows->r[0];
        const char *hdev = *m->serial ? h->serial : *m->model ? h->model : h->target;
        if (strcmp(h->workload_key, m->workload_key) != 0) {
            cli_err("check: not comparable: archive:%lld ran workload '%s', %s ran '%s'", (long long)h->id,
                    h->workload_key, result, m->workload_key);
            return CLI_EXIT_USAGE;
        }
        if (strcmp(hdev, dev) != 0) {
            cli_err("check: not comparable: archive:%lld is of device '%s', %s of '%s'", (long long)h->id, hdev, result,
                    dev);
            return CLI_EXIT_USAGE;
        }
    } else {
        struct archive_filter f = sel->f;
        f.workload_key = m->workload_key;
        if (*m->serial)
            f.serial = m->serial;
        else if (*m->model)
            f.model = m->model;
        else
            f.target = m->target;
        if (archive_list(ar, &f, true, a->last + 1, add_hrow, rows, err, sizeof(err)) < 0) {
            cli_err("check: %s", err);
            return CLI_EXIT_FAIL;
        }
    }
    /* RESULT itself, when it is filed already, is not its own history */
    size_t k = 0;
    for (size_t i = 0; i < rows->n; i++)
        if (!(rows->r[i].started_ms == m->started_ms && !strcmp(rows->r[i].host, m->host)))
            rows->r[k++] = rows->r[i];
    rows->n = k < a->last ? k : a->last;
    if (rows->n < a->min_history) {
        int64_t any[ARCHIVE_MAX_SELECT];
        size_t nany = 0;
        char why[1024];
        bool sel_matches = archive_sel_ids(ar, sel, any, &nany, why, sizeof(why)) == 0;
        if (rows->n == 0 && sel_matches)
            cli_err("check: not comparable: %s matches archived results, but none of device '%s' with workload '%s'",
                    a->against, dev, m->workload_key);
        else if (rows->n == 0)
            cli_err("check: not comparable: no history: %s", why);
        else
            cli_err("check: not comparable: too little history: %zu earlier result%s of device '%s' with this workload "
                    "(--min-history %u)", rows->n, rows->n == 1 ? "" : "s", dev, a->min_history);
        return CLI_EXIT_USAGE;
    }
    return 0;
}

/* Gates RESULT's figures against the history's: the report on stdout,
 * the verdict as the exit status. */
static int check_gate(struct archive *ar, const struct check_args *a, const struct cli_loaded *res,
                      const struct archive_meta *m, const char *dev, const struct hrows *rows, struct hist_set *hs)
{
    char err[1024];
    const char *result = a->result;
    unsigned min_history = a->min_history;
    for (size_t i = 0; i < rows->n; i++) {
        hs->cur = (int64_t)i;
        int rc = archive_figures(ar, rows->r[i].id, add_hfig, hs, err, sizeof(err));
        if (rc < 0) {
            cli_err("check: %s", rc == -ENOMEM ? "out of memory" : err);
            return CLI_EXIT_FAIL;
        }
    }
    FILE *out = textsafe_open(stdout);
    if (!out) {
        cli_err("check: out of memory");
        return CLI_EXIT_FAIL;
    }
    fprintf(out, "check: %s against %zu earlier result%s of device %s, workload %s (archive:%lld ... archive:%lld)\n"
           "noise: 1.4826 x median absolute deviation; bound: max(%.3g x noise, %.3g %% of the median)\n",
           res[0].name, rows->n, rows->n == 1 ? "" : "s", dev, m->workload, (long long)rows->r[rows->n - 1].id,
           (long long)rows->r[0].id, a->opts.sigmas, a->opts.min_rel * 100);
    struct gate_run g = {.out = out, .h = hs, .nresults = rows->n, .min_history = min_history, .opts = a->opts};
    int grc = archive_doc_figures(res[0].doc, gate_fig, &g);
    if (g.gated && !g.regressed)
        fprintf(out, "check: %u figure%s within noise%s\n", g.gated - g.improved, g.gated - g.improved == 1 ? "" : "s",
                g.improved ? ", some improved" : "");
    if (textsafe_close(out) < 0 && grc == 0)
        grc = -EIO;
    if (grc < 0) {
        cli_err("check: %s", grc == -ENOMEM ? "out of memory" : "cannot write to standard output");
        return CLI_EXIT_FAIL;
    }
    if (g.gated == 0) {
        cli_err("check: not comparable: no figure of %s has %u values in its history (phases or directions differ)",
                result, min_history);
        return CLI_EXIT_USAGE;
    } else if (g.regressed) {
        cli_err("check: regressed: %s%s", g.first,
                g.regressed > 1 ? " (and more above)" : "");
        return CLI_EXIT_FAIL;
    } else {
        return CLI_EXIT_OK;
    }
}

int cmd_check(int argc, char **argv)
{
    struct check_args a = {.against = "archive:latest", .last = 10, .min_history = 3,
                           .opts = {ARCHIVE_GATE_SIGMAS, ARCHIVE_GATE_MIN_REL},
                           .min_change_pct = ARCHIVE_GATE_MIN_REL * 100};
    int status;
    if (check_parse(argc, argv, &a, &status) < 0)
        return status;
    char err[1024];
    struct archive_sel sel;
    if (archive_sel_parse(a.against, &sel, err, sizeof(err)) < 0) {
        cli_err("check: --against %s", err);
        return CLI_EXIT_USAGE;
    }
    struct cli_loaded res[1];
    size_t nres = 0;
    if (cli_load_named(a.result, a.path, res, 1, &nres) < 0)
        return CLI_EXIT_USAGE;
    struct archive_meta m;
    archive_meta(res[0].doc, &m);
    struct archive *ar = cli_archive_open(a.path, false);
    if (!ar) {
        cli_loaded_free(res, nres);
        return CLI_EXIT_USAGE;
    }
    struct hrows rows = {0};
    struct hist_set hs = {0};
    const char *dev = *m.serial ? m.serial : *m.model ? m.model : m.target;
    status = check_history(ar, &a, &sel, &m, dev, &rows);
    if (status == 0)
        status = check_gate(ar, &a, res, &m, dev, &rows, &hs);
    free(rows.r);
    free(hs.f);
    free(hs.owner);
    archive_close(ar);
    cli_loaded_free(res, nres);
    return status;
}
