/* html_report.c - see html_report.h: the model, its memory, the labels and
 * the order in which the kinds are built (the "what was tested" table is in
 * html_setup.c). */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "output/html_kinds.h"
#include "result/result.h"

/* Strings, charts and series names live in a bump arena freed with the
 * report, so the builders never free anything themselves. */
struct rep_block {
    struct rep_block *next;
    size_t used, cap;
    _Alignas(16) unsigned char data[];
};

void *rep_alloc(struct report *r, size_t n)
{
    n = (n + 15) & ~(size_t)15;
    struct rep_block *b = r->arena;
    if (!b || b->cap - b->used < n) {
        size_t cap = n > 65536 ? n : 65536;
        b = malloc(sizeof(*b) + cap);
        if (!b) {
            r->oom = true;
            return NULL;
        }
        b->used = 0;
        b->cap = cap;
        b->next = r->arena;
        r->arena = b;
    }
    void *p = b->data + b->used;
    b->used += n;
    memset(p, 0, n);
    return p;
}

const char *rep_strdup(struct report *r, const char *s)
{
    if (!s)
        return NULL;
    size_t n = strlen(s) + 1;
    char *d = rep_alloc(r, n);
    if (d)
        memcpy(d, s, n);
    return d ? d : "";
}

const char *rep_printf(struct report *r, const char *fmt, ...)
{
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof(buf), fmt, ap);
    va_end(ap);
    return rep_strdup(r, buf);
}

static struct rep_item *add_item(struct report *r, enum rep_item_kind kind)
{
    if (r->oom)
        return NULL;
    if (r->nitems == r->itemcap) {
        size_t cap = r->itemcap ? r->itemcap * 2 : 32;
        struct rep_item *it = realloc(r->items, cap * sizeof(*it));
        if (!it) {
            r->oom = true;
            return NULL;
        }
        r->items = it;
        r->itemcap = cap;
    }
    struct rep_item *it = &r->items[r->nitems++];
    memset(it, 0, sizeof(*it));
    it->kind = kind;
    return it;
}

void rep_heading(struct report *r, enum rep_item_kind level, const char *text)
{
    struct rep_item *it = add_item(r, level);
    if (!it)
        return;
    it->text = rep_strdup(r, text);
    it->anchor = rep_printf(r, "s%zu", r->nitems);
}

void rep_para(struct report *r, const char *cls, const char *text)
{
    struct rep_item *it = add_item(r, REP_PARA);
    if (!it)
        return;
    it->text = rep_strdup(r, text);
    it->cls = cls;
}

static struct rtab *new_table(struct report *r, const char *id, const char *title, bool hidden)
{
    if (r->oom)
        return NULL;
    /* ids are CSV file names: make them unique */
    char uid[160];
    snprintf(uid, sizeof(uid), "%s", id);
    for (unsigned k = 2;; k++) {
        bool dup = false;
        for (size_t i = 0; i < r->ntables && !dup; i++)
            dup = strcmp(r->tables[i]->id, uid) == 0;
        struct rtab *probe = dup ? NULL : rtab_new(uid, title);
        if (!dup && probe) {
            /* rtab_new may have rewritten characters: check that form too */
            for (size_t i = 0; i < r->ntables && !dup; i++)
                dup = strcmp(r->tables[i]->id, probe->id) == 0;
            if (!dup) {
                if (r->ntables == r->tablecap) {
                    size_t cap = r->tablecap ? r->tablecap * 2 : 16;
                    struct rtab **t = realloc(r->tables, cap * sizeof(*t));
                    if (!t) {
                        rtab_free(probe);
                        r->oom = true;
                        return NULL;
                    }
                    r->tables = t;
                    r->tablecap = cap;
                }
                probe->html_hidden = hidden;
                r->tables[r->ntables++] = probe;
                return probe;
            }
            rtab_free(probe);
        } else if (!dup) {
            r->oom = true;
            return NULL;
        }
        /* the id is cut so the suffix always fits: a long id must not turn
         * into the same name again and again */
        snprintf(uid, sizeof(uid), "%.*s-%u", (int)(sizeof(uid) - 16), id, k);
    }
}

struct rtab *rep_table(struct report *r, const char *id, const char *title)
{
    return new_table(r, id, title, false);
}

struct rtab *rep_data_table(struct report *r, const char *id, const char *title)
{
    return new_table(r, id, title, true);
}

void rep_show_table(struct report *r, struct rtab *t)
{
    if (!t)
        return;
    struct rep_item *it = add_item(r, REP_TABLE);
    if (it)
        it->table = t;
}

struct rep_chart *rep_chart(struct report *r, struct rtab *t, int xcol, const char *title)
{
    if (!t || xcol < 0)
        return NULL;
    struct rep_chart *c = rep_alloc(r, sizeof(*c));
    struct rep_item *it = c ? add_item(r, REP_CHART) : NULL;
    if (!it)
        return NULL;
    c->title = rep_strdup(r, title);
    c->t = t;
    c->xcol = xcol;
    c->x = rep_axis(NULL, SVG_LIN, SVG_FMT_NUM);
    c->y = rep_axis(NULL, SVG_LIN, SVG_FMT_NUM);
    it->chart = c;
    return c;
}

void rep_chart_series(struct rep_chart *c, int ycol, const char *name, unsigned color, unsigned dash,
                      enum svg_style style)
{
    if (!c || ycol < 0 || c->nseries >= REP_MAX_SERIES)
        return;
    c->series[c->nseries++] = (struct rep_series){ycol, -1, name, color, dash, style};
}

void rep_chart_mark(struct rep_chart *c, enum svg_mark_kind kind, double x0, double y0, double x1,
                    double y1, const char *label, unsigned color, unsigned dash)
{
    if (!c || c->nmarks >= REP_MAX_MARKS)
        return;
    c->marks[c->nmarks++] = (struct svg_mark){kind, x0, y0, x1, y1, label, color, dash};
}

struct svg_axis rep_axis(const char *label, enum svg_scale scale, enum svg_fmt fmt)
{
    return (struct svg_axis){.label = label, .scale = scale, .fmt = fmt, .min = NAN, .max = NAN,
                             .zero = scale == SVG_LIN};
}

void rep_add_ratios(struct report *r, struct rtab *t, const int *cols, size_t ncols, const char *name,
                    bool lower_better)
{
    if (!t || ncols < 2)
        return;
    size_t base = r->baseline < ncols && cols[r->baseline] >= 0 ? r->baseline : ncols;
    for (size_t i = 0; i < ncols && base == ncols; i++)
        if (cols[i] >= 0)
            base = i;
    if (base == ncols)
        return;
    for (size_t i = 0; i < ncols; i++) {
        if (i == base || cols[i] < 0)
            continue;
        char cname[256];
        size_t num = lower_better ? base : i, den = lower_better ? i : base;
        snprintf(cname, sizeof(cname), "%s%s%s / %s", name ? name : "", name ? ": " : "", r->labels[num],
                 r->labels[den]);
        int c = rtab_add_col(t, cname, NULL, RTAB_NUM, RTAB_RATIO);
        for (size_t row = 0; row < t->nrows; row++) {
            double a = rtab_get(t, row, cols[num]), b = rtab_get(t, row, cols[den]);
            rtab_set(t, row, c, b != 0 && !isnan(a) && !isnan(b) ? a / b : NAN);
        }
    }
}

size_t rep_participants(struct report *r, const bool *present, size_t *first)
{
    size_t n = 0;
    *first = 0;
    for (size_t i = r->nin; i-- > 0;)
        if (present[i]) {
            n++;
            *first = i;
        }
    r->multi = n > 1;
    return n;
}

const char *rep_series_name(struct report *r, size_t res, const char *what)
{
    if (!r->multi)
        return rep_strdup(r, what ? what : r->labels[res]);
    if (!what)
        return r->labels[res];
    return rep_printf(r, "%s %s", r->labels[res], what);
}

bool rep_kind_known(const char *kind)
{
    static const char *const known[] = {"precondition", "sweep-point", "act", "fileio"};
    for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++)
        if (kind && strcmp(kind, known[i]) == 0)
            return true;
    return false;
}

bool rep_phase_is(const cJSON *phase, const char *kind)
{
    const char *k = result_str(phase, "kind", "run");
    if (strcmp(kind, "run") == 0)
        return !rep_kind_known(k);
    return strcmp(k, kind) == 0;
}

const cJSON *rep_phases(const struct report *r, size_t res)
{
    return cJSON_GetObjectItemCaseSensitive(r->in[res].doc, "phases");
}

/* ---- labels ----------------------------------------------------------- */

static const char *base_name(const char *p)
{
    const char *s = strrchr(p, '/');
    return s ? s + 1 : p;
}

static const char *file_label(struct report *r, size_t i)
{
    char buf[256];
    snprintf(buf, sizeof(buf), "%s", base_name(r->in[i].path ? r->in[i].path : "result"));
    size_t n = strlen(buf);
    if (n > 5 && strcmp(buf + n - 5, ".json") == 0)
        buf[n - 5] = 0;
    return rep_strdup(r, buf);
}

static const char *device_label(struct report *r, size_t i)
{
    /* a fileio run names its setup itself (--label, else the directory) */
    const char *fl = result_str(cJSON_GetObjectItemCaseSensitive(r->in[i].doc, "fileio"), "label", "");
    if (*fl)
        return rep_strdup(r, fl);
    const cJSON *t = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(r->in[i].doc, "targets"), 0);
    const char *model = result_str(cJSON_GetObjectItemCaseSensitive(t, "device"), "model", "");
    while (*model == ' ')
        model++;
    if (*model)
        return rep_strdup(r, model);
    const char *path = result_str(t, "path", NULL);
    if (path && strcmp(result_str(t, "kind", ""), "none") != 0)
        return rep_strdup(r, base_name(path));
    return file_label(r, i);
}

static void make_labels(struct report *r)
{
    r->labels = rep_alloc(r, r->nin * sizeof(*r->labels));
    if (!r->labels)
        return;
    for (size_t i = 0; i < r->nin; i++)
        r->labels[i] = r->in[i].label ? rep_strdup(r, r->in[i].label) : device_label(r, i);
    /* two drives have two models; two loads on one drive need the file names */
    bool *clash = rep_alloc(r, r->nin * sizeof(*clash));
    if (!clash)
        return;
    for (size_t i = 0; i < r->nin; i++)
        for (size_t j = 0; j < r->nin; j++)
            if (i != j && !r->in[i].label && strcmp(r->labels[i], r->labels[j]) == 0)
                clash[i] = true;
    for (size_t i = 0; i < r->nin; i++)
        if (clash[i])
            r->labels[i] = file_label(r, i);
    for (size_t i = 0; i < r->nin; i++)
        for (size_t j = 0; j < i; j++)
            if (strcmp(r->labels[i], r->labels[j]) == 0) {
                r->labels[i] = rep_printf(r, "%s (%zu)", r->labels[i], i + 1);
                j = (size_t)-1;   /* recheck against all earlier ones */
            }
}

const cJSON *rep_dir(const cJSON *scope, const char *dir)
{
    const cJSON *d = cJSON_GetObjectItemCaseSensitive(scope, dir);
    if (!cJSON_IsObject(d) || result_num(d, "ios", 0) <= 0)
        return NULL;
    return d;
}

static void set_err(char *err, size_t errlen, const char *msg)
{
    if (err && errlen)
        snprintf(err, errlen, "%s", msg);
}

struct report *report_build(const struct report_input *in, size_t nin, const struct report_opts *o,
                            char *err, size_t errlen)
{
    if (nin == 0) {
        set_err(err, errlen, "report: no result files given");
        return NULL;
    }
    if (nin > REPORT_MAX_IN) {
        if (err)
            snprintf(err, errlen, "report: at most %d results in one report (got %zu)", REPORT_MAX_IN, nin);
        return NULL;
    }
    unsigned baseline = o ? o->baseline : 0;
    if (baseline >= nin) {
        if (err)
            snprintf(err, errlen, "report: --baseline %u: there are only %zu results (1..%zu)", baseline + 1, nin,
                     nin);
        return NULL;
    }
    struct report *r = calloc(1, sizeof(*r));
    if (!r) {
        set_err(err, errlen, "report: out of memory");
        return NULL;
    }
    r->in = in;
    r->nin = nin;
    r->baseline = baseline;
    r->multi = nin > 1;
    make_labels(r);
    if (o && o->title) {
        r->title = (char *)rep_strdup(r, o->title);
    } else if (r->labels) {
        char buf[1024];
        size_t n = (size_t)snprintf(buf, sizeof(buf), "ssdbench report: ");
        for (size_t i = 0; i < nin && n < sizeof(buf); i++)
            n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s%s", i ? (i + 1 == nin ? " and " : ", ") : "",
                                  r->labels[i]);
        r->title = (char *)rep_strdup(r, buf);
    }
    if (!r->oom) {
        r->setup = rep_setup_table(r);
        struct rep_item *it = r->setup ? add_item(r, REP_SETUP) : NULL;
        if (it)
            it->table = r->setup;
    }
    int rc = 0;
    if (!r->oom)
        rc = rep_build_precondition(r);
    if (!rc && !r->oom)
        rc = rep_build_sweeps(r);
    if (!rc && !r->oom)
        rc = rep_build_runs(r);
    if (!rc && !r->oom)
        rc = rep_build_fileio(r);
    if (!rc && !r->oom)
        rc = rep_build_act(r);
    bool oom = r->oom || rc == -ENOMEM;
    for (size_t i = 0; i < r->ntables; i++)
        oom |= r->tables[i]->oom;
    if (oom || rc) {
        set_err(err, errlen, oom ? "report: out of memory" : "report: cannot build the report");
        report_free(r);
        return NULL;
    }
    return r;
}

void report_free(struct report *r)
{
    if (!r)
        return;
    for (size_t i = 0; i < r->ntables; i++)
        rtab_free(r->tables[i]);
    free(r->tables);
    free(r->items);
    while (r->arena) {
        struct rep_block *b = r->arena;
        r->arena = b->next;
        free(b);
    }
    free(r);
}
