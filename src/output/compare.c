/* compare.c - see compare.h. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output/compare.h"
#include "output/render.h"
#include "result/result_hist.h"
#include "result/result_read.h"
#include "result/result_fig.h"

#define MAX_METRICS 16

enum mkind { M_IOPS, M_MBPS, M_MIBPS, M_FPCT, M_LAT, M_AVG_LAT, M_MAX, M_SD, M_AVG_SD, M_PCT, M_DIR_IOPS, M_DIR_LAT,
             M_DIR_PCT };

struct metric {
    enum mkind kind;
    int dir;            /* 0 read, 1 write (M_DIR_*) */
    double pct;         /* M_PCT, M_DIR_PCT */
    char title[64];
    bool latency;
};

static int parse_metric(const char *s, struct metric *m, char *err, size_t errlen)
{
    memset(m, 0, sizeof(*m));
    static const struct {
        const char *name, *title;
        enum mkind kind;
        bool latency;
    } tab[] = {
        {"iops", "IOPS", M_IOPS, false},
        {"mbps", "MB/s", M_MBPS, false},
        {"mibps", "MiB/s", M_MIBPS, false},
        {"pct", "sysbench percentile response time, ms", M_FPCT, true},
        {"lat", "mean latency (all I/Os)", M_LAT, true},
        {"avg-lat", "average latency (mean of the read and write means)", M_AVG_LAT, true},
        {"max", "maximum latency", M_MAX, true},
        {"sd", "latency stddev (all I/Os)", M_SD, true},
        {"avg-sd", "latency stddev (mean of the read and write stddevs)", M_AVG_SD, true},
    };
    for (unsigned i = 0; i < sizeof(tab) / sizeof(tab[0]); i++)
        if (!strcmp(s, tab[i].name)) {
            m->kind = tab[i].kind;
            m->latency = tab[i].latency;
            snprintf(m->title, sizeof(m->title), "%s", tab[i].title);
            return 0;
        }
    const char *p = s;
    m->dir = -1;
    if (!strncmp(p, "read-", 5)) {
        m->dir = 0;
        p += 5;
    } else if (!strncmp(p, "write-", 6)) {
        m->dir = 1;
        p += 6;
    }
    const char *dn = m->dir == 0 ? "read " : m->dir == 1 ? "write " : "";
    if (m->dir >= 0 && !strcmp(p, "iops")) {
        m->kind = M_DIR_IOPS;
        snprintf(m->title, sizeof(m->title), "%sIOPS", dn);
        return 0;
    }
    if (m->dir >= 0 && !strcmp(p, "lat")) {
        m->kind = M_DIR_LAT;
        m->latency = true;
        snprintf(m->title, sizeof(m->title), "%smean latency", dn);
        return 0;
    }
    if (p[0] == 'p') {
        char *e;
        double v = strtod(p + 1, &e);
        if (e != p + 1 && !*e && v > 0 && v <= 100) {
            m->kind = m->dir >= 0 ? M_DIR_PCT : M_PCT;
            m->pct = v;
            m->latency = true;
            snprintf(m->title, sizeof(m->title), "%sp%g latency", dn, v);
            return 0;
        }
    }
    snprintf(err, errlen,
             "--metrics: unknown metric '%s' (use iops, mbps, mibps, pct, lat, avg-lat, max, sd, avg-sd, "
             "pN, read-iops, write-iops, read-lat, write-lat, read-pN, write-pN)",
             s);
    return -EINVAL;
}

/* The defaults: what the source tool prints. sysbench fileio results get its
 * two scaling tables (MiB/s and the percentile response time in ms); the
 * others fio's figures. */
#define DEFAULT_METRICS "iops,mbps,lat,p99"
#define DEFAULT_METRICS_FILEIO "mibps,pct"

static int parse_metrics(const char *list, struct metric *m, unsigned *n, char *err, size_t errlen)
{
    *n = 0;
    const char *p = list && *list ? list : DEFAULT_METRICS;
    while (*p) {
        size_t l = strcspn(p, ",");
        char tok[32];
        if (l == 0 || l >= sizeof(tok) || *n >= MAX_METRICS) {
            snprintf(err, errlen, "--metrics: bad list '%s'", list);
            return -EINVAL;
        }
        memcpy(tok, p, l);
        tok[l] = 0;
        int rc = parse_metric(tok, &m[*n], err, errlen);
        if (rc < 0)
            return rc;
        (*n)++;
        p += l;
        if (*p)
            p++;
    }
    return 0;
}

int compare_check_metrics(const char *metrics, char *err, size_t errlen)
{
    struct metric m[MAX_METRICS];
    unsigned n;
    return parse_metrics(metrics, m, &n, err, errlen);
}

/* The row of a fileio result's "scaling" list for a phase, or NULL. */
static const cJSON *fileio_row(const cJSON *doc, const char *phase)
{
    const cJSON *r;
    cJSON_ArrayForEach(r, cJSON_GetObjectItemCaseSensitive(
                              cJSON_GetObjectItemCaseSensitive(doc, "fileio"), "scaling"))
        if (!strcmp(result_str(r, "phase", ""), phase))
            return r;
    return NULL;
}

/* The value of a metric in one scope (frow: the fileio row of the phase, as
 * sysbench printed it, or NULL); NAN when it cannot be had. */
static double metric_value(const cJSON *scope, const cJSON *frow, const struct metric *m)
{
    if (m->kind == M_FPCT)
        return frow ? result_num(frow, "pct_ms", NAN) : NAN;
    if (m->kind == M_MIBPS && frow)
        return result_num(frow, "mibps", NAN);
    if (!scope)
        return NAN;
    char err[256];
    const cJSON *dir = m->dir >= 0 ? cJSON_GetObjectItemCaseSensitive(scope, m->dir ? "write" : "read")
                                   : NULL;
    if (m->kind == M_DIR_IOPS)
        return result_num(dir, "iops", NAN);
    if (m->kind == M_DIR_LAT)
        return result_num(cJSON_GetObjectItemCaseSensitive(dir, "latency_ns"), "mean", NAN);
    if (m->kind == M_PCT || m->kind == M_DIR_PCT) {
        struct hist *h = malloc(2 * sizeof(*h));
        if (!h)
            return NAN;
        hist_init(&h[0]);
        double v = NAN;
        bool ok = true;
        for (int d = 0; d < 2 && ok; d++) {
            if (m->dir >= 0 && d != m->dir)
                continue;
            const cJSON *dj = cJSON_GetObjectItemCaseSensitive(scope, d ? "write" : "read");
            const cJSON *hj = cJSON_GetObjectItemCaseSensitive(
                cJSON_GetObjectItemCaseSensitive(dj, "latency_ns"), "histogram");
            if (!hj)
                continue;
            ok = result_hist_from_json(hj, &h[1], err, sizeof(err)) == 0;
            if (ok)
                hist_merge(&h[0], &h[1]);
        }
        if (ok && h[0].n)
            v = (double)hist_percentile(&h[0], m->pct);
        free(h);
        return v;
    }
    struct result_fig f;
    if (result_fig_from_scope(scope, &f, err, sizeof(err)) < 0)
        return NAN;
    switch (m->kind) {
    case M_IOPS: return f.iops;
    case M_MBPS: return f.mbps;
    case M_MIBPS: return f.mbps * 1e6 / 1048576.0;
    case M_LAT: return f.ios ? f.lat_mean_ns : NAN;
    case M_AVG_LAT: return f.ios ? f.lat_avg_ns : NAN;
    case M_MAX: return f.ios ? f.lat_max_ns : NAN;
    case M_SD: return f.ios ? f.lat_sd_ns : NAN;
    case M_AVG_SD: return f.ios ? f.lat_sd_avg_ns : NAN;
    default: return NAN;
    }
}

struct row {
    char group[64];
    char label[96];
    const cJSON *phase;
};

struct rowlist {
    unsigned n, cap;
    struct row *r;
};

static int add_row(struct rowlist *l, const char *group, const char *label, const cJSON *phase)
{
    if (l->n == l->cap) {
        unsigned cap = l->cap ? l->cap * 2 : 32;
        struct row *nr = realloc(l->r, cap * sizeof(*nr));
        if (!nr)
            return -ENOMEM;
        l->r = nr;
        l->cap = cap;
    }
    struct row *r = &l->r[l->n++];
    snprintf(r->group, sizeof(r->group), "%s", group);
    snprintf(r->label, sizeof(r->label), "%s", label);
    r->phase = phase;
    return 0;
}

static const cJSON *find_phase(const cJSON *doc, const char *name)
{
    const cJSON *ph;
    cJSON_ArrayForEach(ph, cJSON_GetObjectItemCaseSensitive(doc, "phases"))
        if (!strcmp(result_str(ph, "name", ""), name))
            return ph;
    return NULL;
}

/* Suites: one group per profile, one row per point. Others: one row per phase. */
static int build_rows(const cJSON *doc, struct rowlist *l)
{
    const cJSON *suite = cJSON_GetObjectItemCaseSensitive(doc, "suite");
    const cJSON *p, *pt, *ph;
    if (cJSON_IsObject(suite)) {
        cJSON_ArrayForEach(p, cJSON_GetObjectItemCaseSensitive(suite, "profiles"))
            cJSON_ArrayForEach(pt, cJSON_GetObjectItemCaseSensitive(p, "points")) {
                const char *part = result_str(pt, "part", "");
                const char *slash = strchr(part, '/');
                char label[96];
                snprintf(label, sizeof(label), "%s%s%s", slash ? slash + 1 : "", slash ? " " : "",
                         result_str(pt, "label", "?"));
                const cJSON *phase = find_phase(doc, result_str(pt, "phase", ""));
                if (phase && add_row(l, result_str(p, "name", "?"), label, phase) < 0)
                    return -ENOMEM;
            }
        return 0;
    }
    cJSON_ArrayForEach(ph, cJSON_GetObjectItemCaseSensitive(doc, "phases"))
        if (add_row(l, "", result_str(ph, "name", "?"), ph) < 0)
            return -ENOMEM;
    return 0;
}

struct trow {
    const char *group, *label;
    int idx[COMPARE_MAX_DOCS];
};

static void describe(FILE *f, const cJSON *doc, const char *tag, const char *name)
{
    const cJSON *cl = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(doc, "tool"),
                                                      "command_line");
    const cJSON *cmd = cJSON_GetArrayItem(cl, 0);
    const cJSON *host = cJSON_GetObjectItemCaseSensitive(doc, "host");
    fprintf(f, "%s = %s: %s on %s (kernel %s), targets", tag, name,
            result_value_str(cmd, "?"), result_str(host, "hostname", "?"),
            result_str(host, "kernel", "?"));
    const cJSON *t;
    cJSON_ArrayForEach(t, cJSON_GetObjectItemCaseSensitive(doc, "targets"))
        fprintf(f, " %s", result_str(t, "path", "?"));
    const char *layout = result_str(cJSON_GetObjectItemCaseSensitive(doc, "suite"), "layout", NULL);
    if (layout)
        fprintf(f, " (%s)", layout);
    fprintf(f, "\n");
}

static void fmt_value(char *buf, size_t len, double v, const struct metric *m)
{
    if (isnan(v))
        snprintf(buf, len, "-");
    else if (m->kind == M_FPCT || m->kind == M_MIBPS)
        snprintf(buf, len, "%.2f", v);
    else if (m->latency)
        render_latency(buf, len, v);
    else if (m->kind == M_MBPS)
        snprintf(buf, len, "%.1f", v);
    else
        snprintf(buf, len, "%.0f", v);
}

static bool all_fileio(const cJSON *const *docs, unsigned n)
{
    for (unsigned d = 0; d < n; d++)
        if (!cJSON_IsArray(cJSON_GetObjectItemCaseSensitive(
                cJSON_GetObjectItemCaseSensitive(docs[d], "fileio"), "scaling")))
            return false;
    return true;
}

/* The table title: sysbench's for its two metrics, else the metric with the
 * reading direction. */
static void metric_heading(char *buf, size_t len, const struct metric *m, const cJSON *doc0)
{
    if (m->kind == M_FPCT) {
        const cJSON *fo = cJSON_GetObjectItemCaseSensitive(
            cJSON_GetObjectItemCaseSensitive(doc0, "fileio"), "options");
        snprintf(buf, len, "%g%% response time, ms (less is better)",
                 result_num(fo, "percentile", 95));
    } else if (m->kind == M_MIBPS) {
        snprintf(buf, len, "Throughput, MiB/s (more is better)");
    } else {
        snprintf(buf, len, "%s (%s is better)", m->title, m->latency ? "less" : "more");
    }
}

/* Series labels: --label, else the result's label, else the file name;
 * a repeated one gets its position so columns stay apart. */
static void series_labels(const cJSON *const *docs, const char *const *names, unsigned n,
                          const struct compare_opts *o, char lab[][64])
{
    for (unsigned d = 0; d < n; d++) {
        if (o->nlabels)
            snprintf(lab[d], sizeof(lab[d]), "%s", o->labels[d]);
        else
            result_label(docs[d], names[d], lab[d], sizeof(lab[d]));
    }
    for (unsigned d = 1; d < n; d++)
        for (unsigned e = 0; e < d; e++)
            if (!strcmp(lab[d], lab[e])) {
                size_t l = strlen(lab[d]);
                snprintf(lab[d] + (l < 56 ? l : 56), sizeof(lab[d]) - (l < 56 ? l : 56), " #%u", d + 1);
                break;
            }
}

/* The baseline series (0-based) from --baseline: a file position 1..n or a
 * series label; the first file when none is given. */
static int pick_baseline(const char *baseline, char lab[][64], unsigned n, unsigned *basep, char *err,
                         size_t errlen)
{
    unsigned base = 0;
    if (baseline && *baseline) {
        char *e;
        unsigned long k = strtoul(baseline, &e, 10);
        if (!*e && k >= 1 && k <= n) {
            base = (unsigned)k - 1;
        } else {
            unsigned d;
            for (d = 0; d < n && strcmp(lab[d], baseline); d++)
                ;
            if (d == n) {
                snprintf(err, errlen,
                         "--baseline %s: not a file position (1..%u) or a series label", baseline, n);
                return -EINVAL;
            }
            base = d;
        }
    }
    *basep = base;
    return 0;
}

/* The table's rows: the first file's rows in order; each other file's rows
 * matched to them by phase name, else (no name shared, same count) by
 * position (bypos[d] set), else to an earlier unmatched row of the same
 * group and label, else appended. *trp is set on every path (free it). */
static int match_rows(const struct rowlist *rl, unsigned n, struct trow **trp, unsigned *ntrp, bool *bypos)
{
    int rc = 0;
    struct trow *tr = NULL;
    unsigned ntr = 0;
    if (!(tr = calloc(rl[0].n + (n - 1) * 64 + 64, sizeof(*tr))))
        rc = -ENOMEM;
    unsigned trcap = rc == 0 ? rl[0].n + (n - 1) * 64 + 64 : 0;
    for (unsigned i = 0; rc == 0 && i < rl[0].n; i++) {
        tr[ntr].group = rl[0].r[i].group;
        tr[ntr].label = rl[0].r[i].label;
        for (unsigned d = 0; d < n; d++)
            tr[ntr].idx[d] = d == 0 ? (int)i : -1;
        ntr++;
    }
    for (unsigned d = 1; rc == 0 && d < n; d++) {
        unsigned matched = 0;
        for (unsigned i = 0; i < rl[d].n; i++) {
            const char *pn = result_str(rl[d].r[i].phase, "name", "");
            for (unsigned t = 0; t < ntr; t++)
                if (tr[t].idx[0] >= 0 && tr[t].idx[d] < 0 &&
                    !strcmp(result_str(rl[0].r[tr[t].idx[0]].phase, "name", ""), pn)) {
                    tr[t].idx[d] = (int)i;
                    matched++;
                    break;
                }
        }
        if (matched == 0 && rl[d].n == rl[0].n) {
            bypos[d] = true;
            for (unsigned i = 0; i < rl[d].n; i++)
                tr[i].idx[d] = (int)i;
            continue;
        }
        for (unsigned i = 0; i < rl[d].n; i++) {
            bool used = false;
            for (unsigned t = 0; t < ntr && !used; t++)
                used = tr[t].idx[d] == (int)i;
            if (used)
                continue;
            unsigned t;
            for (t = 0; t < ntr; t++)
                if (tr[t].idx[d] < 0 && tr[t].idx[0] < 0 && !strcmp(tr[t].group, rl[d].r[i].group) &&
                    !strcmp(tr[t].label, rl[d].r[i].label))
                    break;
            if (t == ntr) {
                if (ntr == trcap) {
                    struct trow *nt = realloc(tr, (trcap * 2) * sizeof(*nt));
                    if (!nt) {
                        rc = -ENOMEM;
                        break;
                    }
                    tr = nt;
                    trcap *= 2;
                }
                tr[ntr].group = rl[d].r[i].group;
                tr[ntr].label = rl[d].r[i].label;
                for (unsigned k = 0; k < n; k++)
                    tr[ntr].idx[k] = -1;
                ntr++;
            }
            tr[t].idx[d] = (int)i;
        }
    }
    *trp = tr;
    *ntrp = ntr;
    return rc;
}

/* What one comparison prints from: the results, their labels and rows. */
struct cmp_table {
    const cJSON *const *docs;
    unsigned n, base;
    char (*lab)[64];
    const struct rowlist *rl;
    const struct trow *tr;
    unsigned ntr;
    const char *scope;
    bool csv;
    int namew;                  /* the row name column's width */
};

/* A phase's workload in words from its first job's parameters: "randread
 * 4KiB QD1 x1" (empty when the phase has no job parameters). */
static void workload_words(const cJSON *ph, char *buf, size_t len)
{
    const cJSON *p = cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(ph, "jobs"), 0),
                                                     "params");
    buf[0] = 0;
    if (!cJSON_IsObject(p))
        return;
    double bs = result_num(p, "bs", 0);
    const char *rw = result_str(p, "rw", "?");
    int n;
    if (bs >= 1024 && (uint64_t)bs % 1024 == 0)
        n = snprintf(buf, len, "%s %.0fKiB", rw, bs / 1024);
    else
        n = snprintf(buf, len, "%s %.0fB", rw, bs);
    if (!strcmp(rw, "rw") || !strcmp(rw, "randrw") || !strcmp(rw, "readwrite"))
        n += snprintf(buf + n, len > (size_t)n ? len - (size_t)n : 0, " %.0f%% read", result_num(p, "rwmixread", 50));
    snprintf(buf + n, len > (size_t)n ? len - (size_t)n : 0, " QD%.0f x%.0f", result_num(p, "iodepth", 1),
             result_num(p, "numjobs", 1));
}

/* Rows whose results ran different workloads (randread 4 KiB QD1 against
 * randrw 8 KiB QD8): named, each result's workload given, so no ratio of
 * unlike things passes silently. */
static void workload_warnings(FILE *f, const struct cmp_table *c)
{
    for (unsigned t = 0; t < c->ntr; t++) {
        char w[COMPARE_MAX_DOCS][96];
        bool differ = false;
        int first = -1;
        for (unsigned d = 0; d < c->n; d++) {
            w[d][0] = 0;
            if (c->tr[t].idx[d] < 0)
                continue;
            workload_words(c->rl[d].r[c->tr[t].idx[d]].phase, w[d], sizeof(w[d]));
            if (first < 0)
                first = (int)d;
            else
                differ |= strcmp(w[d], w[first]) != 0;
        }
        if (!differ)
            continue;
        fprintf(f, "WARNING: row '%s%s%s' compares different workloads:", c->tr[t].group,
                c->tr[t].group[0] ? " " : "", c->tr[t].label);
        for (unsigned d = 0; d < c->n; d++)
            if (w[d][0])
                fprintf(f, "%s %s: %s", d == (unsigned)first ? "" : ";", c->lab[d], w[d]);
        fprintf(f, "\n");
    }
}

/* The text header (each result described, the scope) or the CSV header. */
static void print_header(FILE *f, const struct cmp_table *c, const char *const *names, const bool *bypos)
{
    unsigned n = c->n, base = c->base;
    char (*lab)[64] = c->lab;
    if (!c->csv) {
        for (unsigned d = 0; d < n; d++) {
            describe(f, c->docs[d], lab[d], names[d]);
            if (bypos[d])
                fprintf(f, "    (%s shares no phase name with %s: rows matched by position)\n", lab[d],
                        lab[0]);
        }
        if (strcmp(c->scope, "total"))
            fprintf(f, "scope: %s\n", c->scope);
        workload_warnings(f, c);
    }
    /* ratio columns: against the baseline, oriented so that above 1 means
     * "better than the baseline" for every metric: throughput X / base,
     * latency base / X (the fileio tables' and the reviews' direction) */
    if (c->csv) {
        fprintf(f, "group,metric,row");
        for (unsigned d = 0; d < n; d++) {
            fputc(',', f);
            render_csv_quoted(f, lab[d]);
        }
        for (unsigned d = 0; d < n; d++)
            if (d != base) {
                char h[200];
                snprintf(h, sizeof(h), "ratio %s / %s (throughput; latency inverted)", lab[d], lab[base]);
                fputc(',', f);
                render_csv_quoted(f, h);
            }
        fprintf(f, "\n");
    }
}

/* One table row t: each series' value of metric m, then the ratios. */
static void print_row(FILE *f, const struct cmp_table *c, unsigned t, bool threads, const struct metric *m,
                      const int *w, const int *rw)
{
    unsigned n = c->n, base = c->base;
    const struct trow *tr = c->tr;
    double v[COMPARE_MAX_DOCS];
    for (unsigned d = 0; d < n; d++) {
        const cJSON *ph = tr[t].idx[d] >= 0 ? c->rl[d].r[tr[t].idx[d]].phase : NULL;
        v[d] = ph ? metric_value(result_scope(ph, c->scope),
                                 fileio_row(c->docs[d], result_str(ph, "name", "")), m)
                  : NAN;
    }
    const char *rowname = threads ? tr[t].label + 8 : tr[t].label;
    /* a phase row says its workload too ("job" alone names nothing) */
    char named[160];
    if (!c->csv && !tr[t].group[0] && !threads && tr[t].idx[base] >= 0) { /* text only: CSV keeps the name */
        char wl[96];
        workload_words(c->rl[base].r[tr[t].idx[base]].phase, wl, sizeof(wl));
        if (wl[0]) {
            snprintf(named, sizeof(named), "%s (%s)", rowname, wl);
            rowname = named;
        }
    }
    if (c->csv) {
        render_csv_quoted(f, tr[t].group);
        fprintf(f, ",%s,", m->title);
        render_csv_quoted(f, rowname);
    }
    else
        fprintf(f, "  %-*.*s", c->namew, c->namew, rowname);
    for (unsigned d = 0; d < n; d++) {
        char b[32];
        if (c->csv) {
            isnan(v[d]) ? fprintf(f, ",") : fprintf(f, ",%.6g", v[d]);
            continue;
        }
        fmt_value(b, sizeof(b), v[d], m);
        fprintf(f, " %*s", w[d], b);
    }
    for (unsigned d = 0; d < n; d++) {
        if (d == base)
            continue;
        double num = m->latency ? v[base] : v[d], den = m->latency ? v[d] : v[base];
        double r = den > 0 && !isnan(num) ? num / den : NAN;
        if (c->csv)
            isnan(r) ? fprintf(f, ",") : fprintf(f, ",%.4f", r);
        else if (isnan(r))
            fprintf(f, " %*s", rw[d], "-");
        else
            fprintf(f, " %*.2f", rw[d], r);
    }
    fprintf(f, "\n");
}

/* The table of metric m for the group first seen at row g. */
static void print_metric_table(FILE *f, const struct cmp_table *c, unsigned g, bool threads,
                               const struct metric *m)
{
    unsigned n = c->n, base = c->base;
    char (*lab)[64] = c->lab;
    const struct trow *tr = c->tr;
    int w[COMPARE_MAX_DOCS], rw[COMPARE_MAX_DOCS];
    char rh[COMPARE_MAX_DOCS][140];
    for (unsigned d = 0; d < n; d++) {
        w[d] = (int)strlen(lab[d]) > 12 ? (int)strlen(lab[d]) : 12;
        if (m->latency)
            snprintf(rh[d], sizeof(rh[d]), "ratio %s / %s", lab[base], lab[d]);
        else
            snprintf(rh[d], sizeof(rh[d]), "ratio %s / %s", lab[d], lab[base]);
        rw[d] = (int)strlen(rh[d]);
    }
    if (!c->csv) {
        char h[128];
        metric_heading(h, sizeof(h), m, c->docs[0]);
        fprintf(f, "\n== %s%s%s\n", tr[g].group, tr[g].group[0] ? ": " : "", h);
        fprintf(f, "  %-*s", c->namew, threads ? "threads" : tr[g].group[0] ? "point" : "phase");
        for (unsigned d = 0; d < n; d++)
            fprintf(f, " %*s", w[d], lab[d]);
        for (unsigned d = 0; d < n; d++)
            if (d != base)
                fprintf(f, " %*s", rw[d], rh[d]);
        fprintf(f, "\n");
    }
    for (unsigned t = g; t < c->ntr; t++) {
        if (strcmp(tr[t].group, tr[g].group))
            continue;
        print_row(f, c, t, threads, m, w, rw);
    }
}

/* Every group, in first-seen order, one table per metric. */
static void print_groups(FILE *f, const struct cmp_table *c, const struct metric *ms, unsigned nm)
{
    const struct trow *tr = c->tr;
    unsigned ntr = c->ntr;
    for (unsigned g = 0; g < ntr; g++) {
        bool seen = false;
        for (unsigned e = 0; e < g && !seen; e++)
            seen = !strcmp(tr[e].group, tr[g].group);
        if (seen)
            continue;
        bool threads = true;
        for (unsigned t = g; t < ntr; t++)
            if (!strcmp(tr[t].group, tr[g].group) && strncmp(tr[t].label, "threads=", 8))
                threads = false;
        for (unsigned mi = 0; mi < nm; mi++)
            print_metric_table(f, c, g, threads, &ms[mi]);
    }
}

int render_compare(FILE *f, const cJSON *const *docs, const char *const *names, unsigned n,
                   const struct compare_opts *o, char *err, size_t errlen)
{
    struct metric ms[MAX_METRICS];
    unsigned nm;
    const char *mlist = o->metrics ? o->metrics : all_fileio(docs, n) ? DEFAULT_METRICS_FILEIO : NULL;
    int rc = parse_metrics(mlist, ms, &nm, err, errlen);
    if (rc < 0)
        return rc;
    if (n < 2 || n > COMPARE_MAX_DOCS) {
        snprintf(err, errlen, "compare: give 2 to %d result files", COMPARE_MAX_DOCS);
        return -EINVAL;
    }
    if (o->nlabels && o->nlabels != n) {
        snprintf(err, errlen, "--label: %u labels for %u result files", o->nlabels, n);
        return -EINVAL;
    }
    char lab[COMPARE_MAX_DOCS][64];
    series_labels(docs, names, n, o, lab);
    unsigned base = 0;
    rc = pick_baseline(o->baseline, lab, n, &base, err, errlen);
    if (rc < 0)
        return rc;
    struct rowlist rl[COMPARE_MAX_DOCS];
    memset(rl, 0, sizeof(rl));
    struct trow *tr = NULL;
    unsigned ntr = 0;
    bool bypos[COMPARE_MAX_DOCS] = {false};
    for (unsigned d = 0; d < n && rc == 0; d++) {
        rc = build_rows(docs[d], &rl[d]);
        if (rc == 0 && rl[d].n == 0) {
            snprintf(err, errlen, "%s: no phases to compare", names[d]);
            rc = -EINVAL;
        }
    }
    if (rc == 0)
        rc = match_rows(rl, n, &tr, &ntr, bypos);
    if (rc == -ENOMEM)
        snprintf(err, errlen, "out of memory");
    const char *scope = o->scope ? o->scope : "total";
    struct cmp_table c = {docs, n, base, lab, rl, tr, ntr, scope, o->csv, 24};
    for (unsigned t = 0; rc == 0 && t < ntr; t++)
        if (!tr[t].group[0] && tr[t].idx[base] >= 0) {
            char wl[96];
            workload_words(rl[base].r[tr[t].idx[base]].phase, wl, sizeof(wl));
            int w = (int)(strlen(tr[t].label) + (wl[0] ? strlen(wl) + 3 : 0));
            c.namew = w > c.namew ? (w < 48 ? w : 48) : c.namew;
        }
    if (rc == 0) {
        print_header(f, &c, names, bypos);
        print_groups(f, &c, ms, nm);
    }
    if (rc == 0 && !o->csv)
        fprintf(f, "\n(ratios against %s: throughput X / %s, latency %s / X, so above 1 means X is "
                   "better for every metric. MB/s = 10^6 bytes/s, MiB/s = 2^20 bytes/s)\n",
                lab[base], lab[base], lab[base]);
    for (unsigned d = 0; d < n; d++)
        free(rl[d].r);
    free(tr);
    return rc;
}
