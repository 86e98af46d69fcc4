/* result_check.c - see result_check.h. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/utf8.h"
#include "result/result_check.h"

struct chk {
    char *err;
    size_t errlen;
};

static int bad(struct chk *c, const char *path, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int bad(struct chk *c, const char *path, const char *fmt, ...)
{
    char what[160];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof(what), fmt, ap);
    va_end(ap);
    snprintf(c->err, c->errlen, "field %s %s", path[0] ? path : "(top)", what);
    return -EINVAL;
}

/* Replaces *s (allocated by cJSON) by its repaired copy when ill-formed. */
static int fix_string(char **s)
{
    if (!*s)
        return 0;
    size_t len = strlen(*s);
    if (utf8_valid(*s, len))
        return 0;
    size_t n;
    char *tmp = utf8_fix(*s, len, &n);
    char *cj = tmp ? cJSON_malloc(n + 1) : NULL;
    if (!cj) {
        free(tmp);
        return -ENOMEM;
    }
    memcpy(cj, tmp, n + 1);
    free(tmp);
    cJSON_free(*s);
    *s = cj;
    return 0;
}

static void child_path(char *out, size_t len, const char *path, const cJSON *parent, const cJSON *item,
                       int index)
{
    if (cJSON_IsArray(parent))
        snprintf(out, len, "%s[%d]", path, index);
    else
        snprintf(out, len, "%s%s%.40s", path, path[0] ? "." : "", item->string ? item->string : "?");
}

/* Every node: UTF-8 repaired, numbers finite. Depth is bounded by cJSON's
 * nesting limit (CJSON_NESTING_LIMIT) at parse time. */
static int walk(struct chk *c, cJSON *node, const char *path)
{
    int i = 0;
    cJSON *it;
    cJSON_ArrayForEach(it, node) {
        char p[256];
        child_path(p, sizeof(p), path, node, it, i++);
        if (!(it->type & cJSON_StringIsConst) && fix_string(&it->string) < 0)
            return bad(c, p, "cannot be repaired (out of memory)");
        if (cJSON_IsString(it) && fix_string(&it->valuestring) < 0)
            return bad(c, p, "cannot be repaired (out of memory)");
        if (cJSON_IsNumber(it) && !isfinite(it->valuedouble))
            return bad(c, p, "is not a finite number");
        if ((cJSON_IsArray(it) || cJSON_IsObject(it)) && walk(c, it, p) < 0)
            return -EINVAL;
    }
    return 0;
}

enum want { W_STRING, W_OBJECT, W_ARRAY, W_COUNT, W_NUMBER };

static const char *const want_name[] = {"a string", "an object", "a list", "a number >= 0", "a number"};

static bool is(const cJSON *v, enum want w)
{
    switch (w) {
    case W_STRING: return cJSON_IsString(v) && v->valuestring;
    case W_OBJECT: return cJSON_IsObject(v);
    case W_ARRAY: return cJSON_IsArray(v);
    case W_COUNT: return cJSON_IsNumber(v) && v->valuedouble >= 0;
    case W_NUMBER: return cJSON_IsNumber(v);
    }
    return false;
}

/* An optional field: absent or null is fine, anything else must be w. */
static int opt(struct chk *c, const cJSON *obj, const char *path, const char *key, enum want w)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!v || cJSON_IsNull(v) || is(v, w))
        return 0;
    char p[256];
    snprintf(p, sizeof(p), "%s%s%s", path, path[0] ? "." : "", key);
    return bad(c, p, "is not %s", want_name[w]);
}

/* Each element of obj[key] (a list, if present) must be w. */
static int each(struct chk *c, const cJSON *obj, const char *path, const char *key, enum want w)
{
    if (opt(c, obj, path, key, W_ARRAY) < 0)
        return -EINVAL;
    int i = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(obj, key)) {
        if (!is(e, w)) {
            char p[256];
            snprintf(p, sizeof(p), "%s%s%s[%d]", path, path[0] ? "." : "", key, i);
            return bad(c, p, "is not %s", want_name[w]);
        }
        i++;
    }
    return 0;
}

static int latency(struct chk *c, const cJSON *dir, const char *path, const char *key)
{
    const cJSON *l = cJSON_GetObjectItemCaseSensitive(dir, key);
    char p[256];
    snprintf(p, sizeof(p), "%s.%s", path, key);
    if (opt(c, dir, path, key, W_OBJECT) < 0 || !cJSON_IsObject(l))
        return cJSON_IsObject(l) ? -EINVAL : 0;
    if (opt(c, l, p, "n", W_COUNT) < 0 || opt(c, l, p, "percentiles", W_OBJECT) < 0 ||
        opt(c, l, p, "pct_over_ms", W_OBJECT) < 0)
        return -EINVAL;
    return 0;
}

static int scope(struct chk *c, const cJSON *sc, const char *path)
{
    static const char *const dirs[] = {"read", "write", "trim", "combined", "sync"};
    if (opt(c, sc, path, "scope", W_STRING) < 0)
        return -EINVAL;
    for (unsigned d = 0; d < sizeof(dirs) / sizeof(dirs[0]); d++) {
        const cJSON *dir = cJSON_GetObjectItemCaseSensitive(sc, dirs[d]);
        char p[256];
        snprintf(p, sizeof(p), "%s.%s", path, dirs[d]);
        if (!cJSON_IsObject(dir))
            continue;
        if (opt(c, dir, p, "ios", W_COUNT) < 0 || opt(c, dir, p, "bytes", W_COUNT) < 0 ||
            opt(c, dir, p, "errors", W_COUNT) < 0 || latency(c, dir, p, "latency_ns") < 0 ||
            latency(c, dir, p, "scheduled_latency_ns") < 0)
            return -EINVAL;
    }
    return 0;
}

static int intervals(struct chk *c, const cJSON *ph, const char *path)
{
    const cJSON *iv = cJSON_GetObjectItemCaseSensitive(ph, "intervals");
    if (opt(c, ph, path, "intervals", W_OBJECT) < 0)
        return -EINVAL;
    if (!cJSON_IsObject(iv))
        return 0;
    char p[256];
    snprintf(p, sizeof(p), "%s.intervals", path);
    return each(c, iv, p, "fields", W_STRING) < 0 || each(c, iv, p, "rows", W_ARRAY) < 0 ? -EINVAL : 0;
}

static int phase(struct chk *c, const cJSON *ph, const char *path)
{
    if (opt(c, ph, path, "name", W_STRING) < 0 || opt(c, ph, path, "kind", W_STRING) < 0 ||
        opt(c, ph, path, "elapsed_s", W_COUNT) < 0 || each(c, ph, path, "results", W_OBJECT) < 0 ||
        each(c, ph, path, "jobs", W_OBJECT) < 0 || each(c, ph, path, "errors", W_OBJECT) < 0 ||
        each(c, ph, path, "kernel_stats", W_OBJECT) < 0 ||
        each(c, ph, path, "fs_kernel_stats", W_OBJECT) < 0 || intervals(c, ph, path) < 0)
        return -EINVAL;
    int i = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(ph, "results")) {
        char p[256];
        snprintf(p, sizeof(p), "%s.results[%d]", path, i++);
        if (scope(c, e, p) < 0)
            return -EINVAL;
    }
    i = 0;
    cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(ph, "jobs")) {
        char p[256];
        snprintf(p, sizeof(p), "%s.jobs[%d]", path, i++);
        if (opt(c, e, p, "name", W_STRING) < 0 || opt(c, e, p, "params", W_OBJECT) < 0 ||
            each(c, e, p, "targets", W_STRING) < 0 || opt(c, e, p, "workers", W_COUNT) < 0)
            return -EINVAL;
    }
    return 0;
}

int result_check(cJSON *doc, char *err, size_t errlen)
{
    struct chk c = {err, errlen};
    if (!cJSON_IsObject(doc))
        return bad(&c, "", "is not an object");
    if (walk(&c, doc, "") < 0)
        return -EINVAL;
    if (opt(&c, doc, "", "schema", W_STRING) < 0 || each(&c, doc, "", "phases", W_OBJECT) < 0 ||
        each(&c, doc, "", "targets", W_OBJECT) < 0 || each(&c, doc, "", "errors", W_OBJECT) < 0 ||
        opt(&c, doc, "", "tool", W_OBJECT) < 0 || opt(&c, doc, "", "host", W_OBJECT) < 0)
        return -EINVAL;
    int i = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(doc, "targets")) {
        char p[64];
        snprintf(p, sizeof(p), "targets[%d]", i++);
        if (opt(&c, e, p, "id", W_STRING) < 0 || opt(&c, e, p, "path", W_STRING) < 0 ||
            opt(&c, e, p, "size_bytes", W_COUNT) < 0 || opt(&c, e, p, "device", W_OBJECT) < 0)
            return -EINVAL;
    }
    i = 0;
    cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(doc, "phases")) {
        char p[64];
        snprintf(p, sizeof(p), "phases[%d]", i++);
        if (phase(&c, e, p) < 0)
            return -EINVAL;
    }
    return 0;
}
