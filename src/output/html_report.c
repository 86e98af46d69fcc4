/* html_report.c - see html_report.h: the report model and its memory. It
 * knows no result kind: the kinds are html_kinds.c and html_<kind>.c, the
 * order they are built in is html_build.c. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "output/html_report.h"
#include "result/result_read.h"

/* Strings, charts and series names live in a bump arena freed with the
 * report, so the builders never free anything themselves. */
struct html_block {
    struct html_block *next;
    size_t used, cap;
    _Alignas(16) unsigned char data[];
};

void *html_alloc(struct html_report *r, size_t n)
{
    n = (n + 15) & ~(size_t)15;
    struct html_block *b = r->arena;
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

const char *html_strdup(struct html_report *r, const char *s)
{
    if (!s)
        return NULL;
    size_t n = strlen(s) + 1;
    char *d = html_alloc(r, n);
    if (d)
        memcpy(d, s, n);
    return d ? d : "";
}

const char *html_printf(struct html_report *r, const char *fmt, ...)
{
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof(buf), fmt, ap);
    va_end(ap);
    return html_strdup(r, buf);
}

static struct html_item *add_item(struct html_report *r, enum html_item_kind kind)
{
    if (r->oom)
        return NULL;
    if (r->nitems == r->itemcap) {
        size_t cap = r->itemcap ? r->itemcap * 2 : 32;
        struct html_item *it = realloc(r->items, cap * sizeof(*it));
        if (!it) {
            r->oom = true;
            return NULL;
        }
        r->items = it;
        r->itemcap = cap;
    }
    struct html_item *it = &r->items[r->nitems++];
    memset(it, 0, sizeof(*it));
    it->kind = kind;
    return it;
}

void html_heading(struct html_report *r, enum html_item_kind level, const char *text)
{
    struct html_item *it = add_item(r, level);
    if (!it)
        return;
    it->text = html_strdup(r, text);
    it->anchor = html_printf(r, "s%zu", r->nitems);
}

void html_para(struct html_report *r, const char *cls, const char *text)
{
    struct html_item *it = add_item(r, HTML_PARA);
    if (!it)
        return;
    it->text = html_strdup(r, text);
    it->cls = cls;
}

static struct html_table *new_table(struct html_report *r, const char *id, const char *title, bool hidden)
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
        struct html_table *probe = dup ? NULL : html_table_new(uid, title);
        if (!dup && probe) {
            /* html_table_new may have rewritten characters: check that form too */
            for (size_t i = 0; i < r->ntables && !dup; i++)
                dup = strcmp(r->tables[i]->id, probe->id) == 0;
            if (!dup) {
                if (r->ntables == r->tablecap) {
                    size_t cap = r->tablecap ? r->tablecap * 2 : 16;
                    struct html_table **t = realloc(r->tables, cap * sizeof(*t));
                    if (!t) {
                        html_table_free(probe);
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
            html_table_free(probe);
        } else if (!dup) {
            r->oom = true;
            return NULL;
        }
        /* the id is cut so the suffix always fits: a long id must not turn
         * into the same name again and again */
        snprintf(uid, sizeof(uid), "%.*s-%u", (int)(sizeof(uid) - 16), id, k);
    }
}

struct html_table *html_add_table(struct html_report *r, const char *id, const char *title)
{
    return new_table(r, id, title, false);
}

struct html_table *html_add_data_table(struct html_report *r, const char *id, const char *title)
{
    return new_table(r, id, title, true);
}

void html_show_setup(struct html_report *r, struct html_table *t)
{
    struct html_item *it = t ? add_item(r, HTML_SETUP) : NULL;
    if (it)
        it->table = t;
}

void html_show_table(struct html_report *r, struct html_table *t)
{
    if (!t)
        return;
    struct html_item *it = add_item(r, HTML_TABLE);
    if (it)
        it->table = t;
}

struct html_chart *html_chart(struct html_report *r, struct html_table *t, int xcol, const char *title)
{
    if (!t || xcol < 0)
        return NULL;
    struct html_chart *c = html_alloc(r, sizeof(*c));
    struct html_item *it = c ? add_item(r, HTML_CHART) : NULL;
    if (!it)
        return NULL;
    c->title = html_strdup(r, title);
    c->t = t;
    c->xcol = xcol;
    c->x = html_axis(NULL, HTML_SVG_LIN, HTML_SVG_FMT_NUM);
    c->y = html_axis(NULL, HTML_SVG_LIN, HTML_SVG_FMT_NUM);
    it->chart = c;
    return c;
}

void html_chart_series(struct html_chart *c, int ycol, const char *name, unsigned color, unsigned dash,
                      enum html_svg_style style)
{
    if (!c || ycol < 0 || c->nseries >= HTML_MAX_SERIES)
        return;
    c->series[c->nseries++] = (struct html_series){ycol, -1, name, color, dash, style};
}

void html_chart_mark(struct html_chart *c, enum html_svg_mark_kind kind, double x0, double y0, double x1,
                    double y1, const char *label, unsigned color, unsigned dash)
{
    if (!c || c->nmarks >= HTML_MAX_MARKS)
        return;
    c->marks[c->nmarks++] = (struct html_svg_mark){kind, x0, y0, x1, y1, label, color, dash};
}

struct html_svg_axis html_axis(const char *label, enum html_svg_scale scale, enum html_svg_fmt fmt)
{
    return (struct html_svg_axis){.label = label, .scale = scale, .fmt = fmt, .min = NAN, .max = NAN,
                             .zero = scale == HTML_SVG_LIN};
}

void html_add_ratios(struct html_report *r, struct html_table *t, const int *cols, size_t ncols, const char *name,
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
        int c = html_table_add_col(t, cname, NULL, HTML_TABLE_NUM, HTML_TABLE_RATIO);
        for (size_t row = 0; row < t->nrows; row++) {
            double a = html_table_get(t, row, cols[num]), b = html_table_get(t, row, cols[den]);
            html_table_set(t, row, c, b != 0 && !isnan(a) && !isnan(b) ? a / b : NAN);
        }
    }
}

size_t html_participants(struct html_report *r, const bool *present, size_t *first)
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

const char *html_series_name(struct html_report *r, size_t res, const char *what)
{
    if (!r->multi)
        return html_strdup(r, what ? what : r->labels[res]);
    if (!what)
        return r->labels[res];
    return html_printf(r, "%s %s", r->labels[res], what);
}

const cJSON *html_dir(const cJSON *scope, const char *dir)
{
    const cJSON *d = cJSON_GetObjectItemCaseSensitive(scope, dir);
    if (!cJSON_IsObject(d) || result_num(d, "ios", 0) <= 0)
        return NULL;
    return d;
}

void html_report_free(struct html_report *r)
{
    if (!r)
        return;
    for (size_t i = 0; i < r->ntables; i++)
        html_table_free(r->tables[i]);
    free(r->tables);
    free(r->items);
    while (r->arena) {
        struct html_block *b = r->arena;
        r->arena = b->next;
        free(b);
    }
    free(r);
}
