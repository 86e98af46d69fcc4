/* html_build.c - see html_build.h: builds a report from result documents:
 * the labels of the results, the "what was tested" table, then each kind's
 * sections in page order. The one file of the html report that names every
 * kind; the kit (html_report.c, html_svg.c, html_table.c, html_page.c) knows
 * none. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output/html_build.h"
#include "output/html_kinds.h"
#include "result/result_read.h"

/* ---- labels ----------------------------------------------------------- */

static const char *base_name(const char *p)
{
    const char *s = strrchr(p, '/');
    return s ? s + 1 : p;
}

static const char *file_label(struct html_report *r, size_t i)
{
    char buf[256];
    snprintf(buf, sizeof(buf), "%s", base_name(r->in[i].path ? r->in[i].path : "result"));
    size_t n = strlen(buf);
    if (n > 5 && strcmp(buf + n - 5, ".json") == 0)
        buf[n - 5] = 0;
    return html_strdup(r, buf);
}

static const char *device_label(struct html_report *r, size_t i)
{
    /* a fileio run names its setup itself (--label, else the directory) */
    const char *fl = result_str(cJSON_GetObjectItemCaseSensitive(r->in[i].doc, "fileio"), "label", "");
    if (*fl)
        return html_strdup(r, fl);
    const cJSON *t = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(r->in[i].doc, "targets"), 0);
    const char *model = result_str(cJSON_GetObjectItemCaseSensitive(t, "device"), "model", "");
    while (*model == ' ')
        model++;
    if (*model)
        return html_strdup(r, model);
    const char *path = result_str(t, "path", NULL);
    if (path && strcmp(result_str(t, "kind", ""), "none") != 0)
        return html_strdup(r, base_name(path));
    return file_label(r, i);
}

static void make_labels(struct html_report *r)
{
    r->labels = html_alloc(r, r->nin * sizeof(*r->labels));
    if (!r->labels)
        return;
    for (size_t i = 0; i < r->nin; i++)
        r->labels[i] = r->in[i].label ? html_strdup(r, r->in[i].label) : device_label(r, i);
    /* two drives have two models; two loads on one drive need the file names */
    bool *clash = html_alloc(r, r->nin * sizeof(*clash));
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
                r->labels[i] = html_printf(r, "%s (%zu)", r->labels[i], i + 1);
                j = (size_t)-1;   /* recheck against all earlier ones */
            }
}

static void set_err(char *err, size_t errlen, const char *msg)
{
    if (err && errlen)
        snprintf(err, errlen, "%s", msg);
}

struct html_report *html_build(const struct html_report_input *in, size_t nin, const struct html_report_opts *o,
                            char *err, size_t errlen)
{
    if (nin == 0) {
        set_err(err, errlen, "report: no result files given");
        return NULL;
    }
    if (nin > HTML_REPORT_MAX_IN) {
        if (err)
            snprintf(err, errlen, "report: at most %d results in one report (got %zu)", HTML_REPORT_MAX_IN, nin);
        return NULL;
    }
    unsigned baseline = o ? o->baseline : 0;
    if (baseline >= nin) {
        if (err)
            snprintf(err, errlen, "report: --baseline %u: there are only %zu results (1..%zu)", baseline + 1, nin,
                     nin);
        return NULL;
    }
    struct html_report *r = calloc(1, sizeof(*r));
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
        r->title = (char *)html_strdup(r, o->title);
    } else if (r->labels) {
        char buf[1024];
        size_t n = (size_t)snprintf(buf, sizeof(buf), "ssdbench report: ");
        for (size_t i = 0; i < nin && n < sizeof(buf); i++)
            n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s%s", i ? (i + 1 == nin ? " and " : ", ") : "",
                                  r->labels[i]);
        r->title = (char *)html_strdup(r, buf);
    }
    if (!r->oom) {
        r->setup = html_setup_table(r);
        html_show_setup(r, r->setup);
    }
    int rc = 0;
    if (!r->oom)
        rc = html_build_precondition(r);
    if (!rc && !r->oom)
        rc = html_build_sweeps(r);
    if (!rc && !r->oom)
        rc = html_build_runs(r);
    if (!rc && !r->oom)
        rc = html_build_fileio(r);
    if (!rc && !r->oom)
        rc = html_build_act(r);
    if (!rc && !r->oom)
        rc = html_build_pts(r);
    if (!rc && !r->oom)
        rc = html_build_comparables(r);
    bool oom = r->oom || rc == -ENOMEM;
    for (size_t i = 0; i < r->ntables; i++)
        oom |= r->tables[i]->oom;
    if (oom || rc) {
        set_err(err, errlen, oom ? "report: out of memory" : "report: cannot build the report");
        html_report_free(r);
        return NULL;
    }
    return r;
}
