/* compare.c - see compare.h. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output/compare.h"
#include "output/render.h"
#include "result/result_hist.h"
#include "result/result.h"
#include "result/result_fig.h"

#define MAX_METRICS 16

enum mkind { M_IOPS, M_MBPS, M_LAT, M_AVG_LAT, M_MAX, M_SD, M_AVG_SD, M_PCT, M_DIR_IOPS, M_DIR_LAT,
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
             "--metrics: unknown metric '%s' (use iops, mbps, lat, avg-lat, max, sd, avg-sd, "
             "pN, read-iops, write-iops, read-lat, write-lat, read-pN, write-pN)",
             s);
    return -EINVAL;
}

static int parse_metrics(const char *list, struct metric *m, unsigned *n, char *err, size_t errlen)
{
    *n = 0;
    const char *p = list && *list ? list : "iops,mbps,lat,p99";
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

/* The value of a metric in one scope; NAN when it cannot be had. */
static double metric_value(const cJSON *scope, const struct metric *m)
{
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
    else if (m->latency)
        render_latency(buf, len, v);
    else if (m->kind == M_MBPS)
        snprintf(buf, len, "%.1f", v);
    else
        snprintf(buf, len, "%.0f", v);
}

int render_compare(FILE *f, const cJSON *const *docs, const char *const *names, unsigned n,
                   const struct compare_opts *o, char *err, size_t errlen)
{
    struct metric ms[MAX_METRICS];
    unsigned nm;
    int rc = parse_metrics(o->metrics, ms, &nm, err, errlen);
    if (rc < 0)
        return rc;
    if (n < 2 || n > COMPARE_MAX_DOCS) {
        snprintf(err, errlen, "compare: give 2 to %d result files", COMPARE_MAX_DOCS);
        return -EINVAL;
    }
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
    if (rc == 0 && !(tr = calloc(rl[0].n + (n - 1) * 64 + 64, sizeof(*tr))))
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
    if (rc == -ENOMEM)
        snprintf(err, errlen, "out of memory");
    const char *scope = o->scope ? o->scope : "total";
    if (rc == 0 && !o->csv) {
        for (unsigned d = 0; d < n; d++) {
            char tag[4] = {(char)('A' + d), 0};
            describe(f, docs[d], tag, names[d]);
            if (bypos[d])
                fprintf(f, "    (%s shares no phase name with A: rows matched by position)\n", tag);
        }
        if (strcmp(scope, "total"))
            fprintf(f, "scope: %s\n", scope);
    }
    if (rc == 0 && o->csv) {
        fprintf(f, "group,metric,row");
        for (unsigned d = 0; d < n; d++)
            fprintf(f, d ? ",%c,%c/A" : ",%c", 'A' + d, 'A' + d);
        fprintf(f, "\n");
    }
    /* groups in first-seen order */
    for (unsigned g = 0; rc == 0 && g < ntr; g++) {
        bool seen = false;
        for (unsigned e = 0; e < g && !seen; e++)
            seen = !strcmp(tr[e].group, tr[g].group);
        if (seen)
            continue;
        for (unsigned mi = 0; mi < nm; mi++) {
            const struct metric *m = &ms[mi];
            if (!o->csv) {
                fprintf(f, "\n== %s%s%s\n", tr[g].group, tr[g].group[0] ? ": " : "", m->title);
                fprintf(f, "  %-24s", tr[g].group[0] ? "point" : "phase");
                for (unsigned d = 0; d < n; d++) {
                    fprintf(f, " %12c", 'A' + d);
                    if (d)
                        fprintf(f, " %7c/A", 'A' + d);
                }
                fprintf(f, "\n");
            }
            for (unsigned t = g; t < ntr; t++) {
                if (strcmp(tr[t].group, tr[g].group))
                    continue;
                double v[COMPARE_MAX_DOCS];
                for (unsigned d = 0; d < n; d++)
                    v[d] = tr[t].idx[d] >= 0
                               ? metric_value(result_scope(rl[d].r[tr[t].idx[d]].phase, scope), m)
                               : NAN;
                if (o->csv)
                    fprintf(f, "\"%s\",%s,\"%s\"", tr[t].group, m->title, tr[t].label);
                else
                    fprintf(f, "  %-24.24s", tr[t].label);
                for (unsigned d = 0; d < n; d++) {
                    char b[32];
                    double r = v[0] > 0 && !isnan(v[d]) ? v[d] / v[0] : NAN;
                    if (o->csv) {
                        if (isnan(v[d]))
                            fprintf(f, ",");
                        else
                            fprintf(f, ",%.6g", v[d]);
                        if (d)
                            isnan(r) ? fprintf(f, ",") : fprintf(f, ",%.4f", r);
                        continue;
                    }
                    fmt_value(b, sizeof(b), v[d], m);
                    fprintf(f, " %12s", b);
                    if (d) {
                        if (isnan(r))
                            fprintf(f, " %9s", "-");
                        else
                            fprintf(f, " %9.2f", r);
                    }
                }
                fprintf(f, "\n");
            }
        }
    }
    if (rc == 0 && !o->csv)
        fprintf(f, "\n(X/A = ratio to A; for latency a ratio above 1 means slower. MB/s = 10^6 bytes/s)\n");
    for (unsigned d = 0; d < n; d++)
        free(rl[d].r);
    free(tr);
    return rc;
}
