/* archive_select.c - archive selectors (see archive.h): "archive:ID",
 * "archive:latest?k=v&..." and "archive:best?k=v&...", parsed into a filter
 * and resolved to ids; a selector that matches nothing says which of its
 * conditions matched nothing. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "archive/archive.h"
#include "archive/archive_int.h"

#define PREFIX "archive:"

bool archive_is_selector(const char *s)
{
    return s && strncmp(s, PREFIX, strlen(PREFIX)) == 0;
}

int archive_parse_date(const char *s, int64_t *ms)
{
    struct tm tm = {0};
    int y, mo, d, h = 0, mi = 0, sec = 0, n = 0;
    if (sscanf(s, "%4d-%2d-%2d%n", &y, &mo, &d, &n) != 3)
        return -EINVAL;
    const char *p = s + n;
    if (*p == 'T' || *p == ' ') {
        int k = 0;
        if (sscanf(p + 1, "%2d:%2d%n", &h, &mi, &k) != 2)
            return -EINVAL;
        p += 1 + k;
        if (*p == ':') {
            if (sscanf(p + 1, "%2d%n", &sec, &k) != 1)
                return -EINVAL;
            p += 1 + k;
        }
        if (*p == 'Z')
            p++;
    }
    if (*p || mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || sec > 60 || y < 1970)
        return -EINVAL;
    tm.tm_year = y - 1900;
    tm.tm_mon = mo - 1;
    tm.tm_mday = d;
    tm.tm_hour = h;
    tm.tm_min = mi;
    tm.tm_sec = sec;
    time_t t = timegm(&tm);
    if (t == (time_t)-1)
        return -EINVAL;
    *ms = (int64_t)t * 1000;
    return 0;
}

static bool all_digits(const char *s)
{
    if (!*s)
        return false;
    for (; *s; s++)
        if (*s < '0' || *s > '9')
            return false;
    return true;
}

int archive_sel_parse(const char *s, struct archive_sel *sel, char *err, size_t errlen)
{
    memset(sel, 0, sizeof(*sel));
    sel->n = 1;
    sel->by = "iops";
    if (!archive_is_selector(s)) {
        snprintf(err, errlen, "'%s' is not an archive selector (archive:ID, archive:latest?..., archive:best?...)", s);
        return -EINVAL;
    }
    const char *body = s + strlen(PREFIX);
    if (strlen(body) >= sizeof(sel->buf)) {
        snprintf(err, errlen, "%.60s...: selector too long", s);
        return -EINVAL;
    }
    strcpy(sel->buf, body);
    char *q = strchr(sel->buf, '?');
    if (q)
        *q++ = 0;
    if (all_digits(sel->buf)) {
        if (q) {
            snprintf(err, errlen, "%s: archive:ID takes no conditions", s);
            return -EINVAL;
        }
        sel->kind = ARCHIVE_SEL_ID;
        sel->id = strtoll(sel->buf, NULL, 10);
        return 0;
    }
    if (!strcmp(sel->buf, "latest"))
        sel->kind = ARCHIVE_SEL_LATEST;
    else if (!strcmp(sel->buf, "best"))
        sel->kind = ARCHIVE_SEL_BEST;
    else {
        snprintf(err, errlen, "%s: '%s' is not an id, 'latest' or 'best'", s, sel->buf);
        return -EINVAL;
    }
    for (char *kv = q; kv && *kv;) {
        char *next = strchr(kv, '&');
        if (next)
            *next++ = 0;
        char *eq = strchr(kv, '=');
        if (!eq || !eq[1]) {
            snprintf(err, errlen, "%s: '%s' is not KEY=VALUE", s, kv);
            return -EINVAL;
        }
        *eq = 0;
        char *v = eq + 1;
        struct archive_filter *f = &sel->f;
        if (!strcmp(kv, "device"))
            f->device = v;
        else if (!strcmp(kv, "workload"))
            f->workload = v;
        else if (!strcmp(kv, "host"))
            f->host = v;
        else if (!strcmp(kv, "kind"))
            f->kind = v;
        else if (!strcmp(kv, "label"))
            f->label = v;
        else if (!strcmp(kv, "since")) {
            if (archive_parse_date(v, &f->since_ms) < 0) {
                snprintf(err, errlen, "%s: since=%s is not a date (YYYY-MM-DD or YYYY-MM-DDTHH:MM[:SS], UTC)", s, v);
                return -EINVAL;
            }
            f->since_set = true;
        } else if (!strcmp(kv, "tag")) {
            char why[256];
            if (f->ntags == ARCHIVE_MAX_TAGS) {
                snprintf(err, errlen, "%s: at most %d tags", s, ARCHIVE_MAX_TAGS);
                return -EINVAL;
            }
            if (archive_tag_parse(v, &f->tags[f->ntags], why, sizeof(why)) < 0) {
                snprintf(err, errlen, "%s: tag=%s is not tag=KEY=VALUE", s, v);
                return -EINVAL;
            }
            f->ntags++;
        } else if (!strcmp(kv, "n")) {
            char *end;
            long n = strtol(v, &end, 10);
            if (*end || n < 1 || n > ARCHIVE_MAX_SELECT) {
                snprintf(err, errlen, "%s: n=%s is not a number in 1..%d", s, v, ARCHIVE_MAX_SELECT);
                return -EINVAL;
            }
            sel->n = (unsigned)n;
        } else if (!strcmp(kv, "by")) {
            if (strcmp(v, "iops") && strcmp(v, "mbps") && strcmp(v, "mean") && strcmp(v, "p99") && strcmp(v, "p99.9")) {
                snprintf(err, errlen, "%s: by=%s: use iops, mbps, mean, p99 or p99.9", s, v);
                return -EINVAL;
            }
            sel->by = v;
        } else {
            snprintf(err, errlen, "%s: unknown condition '%s' (use device, workload, host, kind, label, since, tag, n, by)",
                     s, kv);
            return -EINVAL;
        }
        kv = next;
    }
    if (sel->kind != ARCHIVE_SEL_BEST && strcmp(sel->by, "iops") != 0) {
        snprintf(err, errlen, "%s: by= is for archive:best", s);
        return -EINVAL;
    }
    return 0;
}

struct collect {
    int64_t *ids;
    size_t n, max;
};

static int collect_row(const struct archive_row *r, void *ctx)
{
    struct collect *c = ctx;
    if (c->n < c->max)
        c->ids[c->n++] = r->id;
    return 0;
}

/* How many rows f matches (at most 1: we only ask whether any does). */
static int any_match(struct archive *a, const struct archive_filter *f, size_t *n, char *err, size_t errlen)
{
    int64_t id;
    struct collect c = {&id, 0, 1};
    int rc = archive_list(a, f, true, 1, collect_row, &c, err, errlen);
    *n = c.n;
    return rc;
}

/* err: which of sel's conditions alone matched nothing. */
static void explain(struct archive *a, const char *text, const struct archive_filter *f, char *err, size_t errlen)
{
    char none[512] = "";
    char why[256];
    size_t n, len = 0;
#define TRY(field, name)                                                                                         \
    do {                                                                                                         \
        if (f->field) {                                                                                          \
            struct archive_filter one = {0};                                                                     \
            one.field = f->field;                                                                                \
            if (any_match(a, &one, &n, why, sizeof(why)) == 0 && n == 0)                                         \
                len += (size_t)snprintf(none + len, sizeof(none) - len, "%s%s=%s", len ? ", " : "", name, f->field); \
        }                                                                                                        \
    } while (0)
    TRY(device, "device");
    TRY(workload, "workload");
    TRY(host, "host");
    TRY(kind, "kind");
    TRY(label, "label");
#undef TRY
    for (size_t i = 0; i < f->ntags && len < sizeof(none); i++) {
        struct archive_filter one = {0};
        one.tags[0] = f->tags[i];
        one.ntags = 1;
        if (any_match(a, &one, &n, why, sizeof(why)) == 0 && n == 0)
            len += (size_t)snprintf(none + len, sizeof(none) - len, "%stag %s=%s", len ? ", " : "", f->tags[i].key,
                                    f->tags[i].value);
    }
    if (f->since_set && len < sizeof(none)) {
        struct archive_filter one = {0};
        one.since_ms = f->since_ms;
        one.since_set = true;
        if (any_match(a, &one, &n, why, sizeof(why)) == 0 && n == 0)
            len += (size_t)snprintf(none + len, sizeof(none) - len, "%snothing since then", len ? ", " : "");
    }
    struct archive_filter all = {0};
    if (any_match(a, &all, &n, why, sizeof(why)) == 0 && n == 0)
        snprintf(err, errlen, "%s: no result matches: the archive %s is empty", text, a->path);
    else if (len)
        snprintf(err, errlen, "%s: no result matches in %s (no archived result has %s)", text, a->path, none);
    else
        snprintf(err, errlen, "%s: no result matches in %s (each condition matches some result, not all together)",
                 text, a->path);
}

static const char *best_order(const char *by)
{
    if (!strcmp(by, "mbps"))
        return "(SELECT coalesce(sum(mbps), 0) FROM figures WHERE result_id = r.id) DESC, r.started_ms DESC";
    if (!strcmp(by, "mean"))
        return "(SELECT coalesce(max(mean_ns), 1e300) FROM figures WHERE result_id = r.id) ASC, r.started_ms DESC";
    if (!strcmp(by, "p99"))
        return "(SELECT coalesce(max(p99_ns), 1e300) FROM figures WHERE result_id = r.id) ASC, r.started_ms DESC";
    if (!strcmp(by, "p99.9"))
        return "(SELECT coalesce(max(p999_ns), 1e300) FROM figures WHERE result_id = r.id) ASC, r.started_ms DESC";
    return "(SELECT coalesce(sum(iops), 0) FROM figures WHERE result_id = r.id) DESC, r.started_ms DESC";
}

static void sel_text(const struct archive_sel *sel, char *buf, size_t len)
{
    /* the selector as written: buf's conditions were split in place */
    if (sel->kind == ARCHIVE_SEL_ID) {
        snprintf(buf, len, PREFIX "%lld", (long long)sel->id);
        return;
    }
    size_t n = (size_t)snprintf(buf, len, PREFIX "%s", sel->kind == ARCHIVE_SEL_BEST ? "best" : "latest");
    const struct archive_filter *f = &sel->f;
    const char *kv[][2] = {{"device", f->device}, {"workload", f->workload}, {"host", f->host},
                           {"kind", f->kind},     {"label", f->label}};
    char sep = '?';
    for (size_t i = 0; i < 5 && n < len; i++)
        if (kv[i][1]) {
            n += (size_t)snprintf(buf + n, len - n, "%c%s=%s", sep, kv[i][0], kv[i][1]);
            sep = '&';
        }
    for (size_t i = 0; i < f->ntags && n < len; i++) {
        n += (size_t)snprintf(buf + n, len - n, "%ctag=%s=%s", sep, f->tags[i].key, f->tags[i].value);
        sep = '&';
    }
}

int archive_sel_ids(struct archive *a, const struct archive_sel *sel, int64_t *ids, size_t *n, char *err,
                    size_t errlen)
{
    char text[600];
    sel_text(sel, text, sizeof(text));
    *n = 0;
    if (sel->kind == ARCHIVE_SEL_ID) {
        char why[512];
        struct collect c = {ids, 0, 1};
        int rc = archive_row_get(a, sel->id, collect_row, &c, why, sizeof(why));
        if (rc == -ENOENT) {
            snprintf(err, errlen, "%s: no such result in %s", text, a->path);
            return rc;
        }
        if (rc < 0) {
            snprintf(err, errlen, "%s", why);
            return rc;
        }
        *n = 1;
        return 0;
    }
    struct collect c = {ids, 0, sel->n < ARCHIVE_MAX_SELECT ? sel->n : ARCHIVE_MAX_SELECT};
    int rc = archive_list_ordered(a, &sel->f,
                                  sel->kind == ARCHIVE_SEL_BEST ? best_order(sel->by) : "r.started_ms DESC, r.id DESC",
                                  (unsigned)c.max, collect_row, &c, err, errlen);
    if (rc < 0)
        return rc;
    if (c.n == 0) {
        explain(a, text, &sel->f, err, errlen);
        return -ENOENT;
    }
    *n = c.n;
    return 0;
}
