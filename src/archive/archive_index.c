/* archive_index.c - what the archive indexes of a result document (see
 * archive.h): its identity columns (time, host, device, kind, workload,
 * label), the workload key that says two results ran the same workload,
 * the names --workload matches, and the headline figures per phase and
 * direction. Reads the document only through result/result.h's accessors,
 * so any document that loaded can be filed. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "archive/archive.h"
#include "result/result.h"

static const char *trimmed(const char *s)
{
    while (s && *s == ' ')
        s++;
    return s ? s : "";
}

static void append(char *buf, size_t len, const char *sep, const char *s)
{
    size_t n = strlen(buf);
    if (n + 1 >= len)
        return;
    snprintf(buf + n, len - n, "%s%s", n ? sep : "", s);
}

/* True when name is already in the sep-separated list buf. */
static bool listed(const char *buf, const char *name)
{
    size_t k = strlen(name);
    for (const char *p = buf; (p = strstr(p, name)); p++)
        if ((p == buf || p[-1] == ',') && (p[k] == ',' || p[k] == 0))
            return true;
    return false;
}

static const char *doc_kind(const cJSON *doc)
{
    if (cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(doc, "pts")))
        return "pts";
    const char *k = result_kind(doc);
    if (strcmp(k, "run") != 0)
        return k;
    /* act-prep and purge write results of their own */
    const char *cmd = result_at_str(cJSON_GetObjectItemCaseSensitive(
                                        cJSON_GetObjectItemCaseSensitive(doc, "tool"), "command_line"), 0, "run");
    if (!strcmp(cmd, "act-prep") || !strcmp(cmd, "purge"))
        return cmd;
    return "run";
}

/* The workload's name for people: the suite's profiles, the PTS tests,
 * fileio's test mode, else the distinct job names. */
static void workload_name(const cJSON *doc, const char *kind, char *buf, size_t len)
{
    const cJSON *e;
    buf[0] = 0;
    if (!strcmp(kind, "suite")) {
        cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(doc, "suite"), "profiles"))
            append(buf, len, ",", result_str(e, "name", "?"));
    } else if (!strcmp(kind, "pts")) {
        cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(doc, "pts"), "tests"))
            append(buf, len, ",", result_str(e, "test", result_str(e, "id", "?")));
    } else if (!strcmp(kind, "fileio")) {
        const cJSON *o = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(doc, "fileio"), "options");
        append(buf, len, ",", result_str(o, "file-test-mode", "fileio"));
    } else if (!strcmp(kind, "act")) {
        append(buf, len, ",", "act");
    } else {
        const cJSON *ph;
        cJSON_ArrayForEach(ph, cJSON_GetObjectItemCaseSensitive(doc, "phases"))
            cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(ph, "jobs")) {
                const char *n = result_str(e, "name", "");
                if (*n && !listed(buf, n))
                    append(buf, len, ",", n);
            }
    }
    if (!buf[0])
        snprintf(buf, len, "%s", kind);
}

/* Two results ran the same workload when their kind, workload name and
 * phases agree: each phase's name and, for its first job, the access
 * pattern, block size, depth, jobs and engine (PTS: the tests alone, as
 * its rounds vary with the steady state). */
static void workload_key(const cJSON *doc, const struct archive_meta *m, char *buf, size_t len)
{
    snprintf(buf, len, "%s|%s", m->kind, m->workload);
    if (!strcmp(m->kind, "pts"))
        return;
    const cJSON *ph;
    cJSON_ArrayForEach(ph, cJSON_GetObjectItemCaseSensitive(doc, "phases")) {
        const cJSON *p = cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(ph, "jobs"), 0),
                                                          "params");
        char one[256];
        snprintf(one, sizeof(one), "%s:%s:%.0f:%.0f:%.0f:%s", result_str(ph, "name", "?"), result_str(p, "rw", ""),
                 result_num(p, "bs", 0), result_num(p, "iodepth", 0), result_num(p, "numjobs", 0),
                 result_str(p, "engine", ""));
        append(buf, len, "|", one);
    }
}

void archive_meta(const cJSON *doc, struct archive_meta *m)
{
    memset(m, 0, sizeof(*m));
    const cJSON *host = cJSON_GetObjectItemCaseSensitive(doc, "host");
    const cJSON *tool = cJSON_GetObjectItemCaseSensitive(doc, "tool");
    const cJSON *t = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(doc, "targets"), 0);
    const cJSON *dev = cJSON_GetObjectItemCaseSensitive(t, "device");
    m->started = result_str(doc, "started", "");
    m->started_ms = (int64_t)result_num_in(doc, "started_unix_ms", 0, 9e15, 0);
    m->host = result_str(host, "hostname", "");
    m->kernel = result_str(host, "kernel", "");
    m->version = result_str(tool, "version", "");
    m->model = trimmed(result_str(dev, "model", ""));
    m->serial = trimmed(result_str(dev, "serial", ""));
    m->firmware = trimmed(result_str(dev, "firmware", ""));
    m->bus = result_str(dev, "bus", "");
    m->target = result_str(t, "path", "");
    m->capacity = (int64_t)result_num_in(dev, "capacity_bytes", 0, 9e18, result_num_in(t, "size_bytes", 0, 9e18, 0));
    m->kind = doc_kind(doc);
    workload_name(doc, m->kind, m->workload_buf, sizeof(m->workload_buf));
    m->workload = m->workload_buf;
    const char *fl = result_str(cJSON_GetObjectItemCaseSensitive(doc, "fileio"), "label", "");
    m->label = result_str(doc, "label", fl);
    m->incomplete = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(doc, "incomplete"));
    workload_key(doc, m, m->workload_key, sizeof(m->workload_key));
}

static const char *steady_of(const cJSON *phase)
{
    const cJSON *ss = cJSON_GetObjectItemCaseSensitive(phase, "steady_state"), *e;
    if (cJSON_IsObject(ss))     /* one report */
        return result_str(ss, "state", cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(ss, "reached")) ? "reached" : "");
    const char *state = "";
    cJSON_ArrayForEach(e, ss) {
        const char *s = result_str(e, "state", "");
        if (!*state || strcmp(s, "reached") != 0)
            state = s;
    }
    return state;
}

static double pct(const cJSON *lat, const char *p)
{
    return result_num(cJSON_GetObjectItemCaseSensitive(lat, "percentiles"), p, NAN);
}

int archive_doc_figures(const cJSON *doc, archive_fig_fn fn, void *ctx)
{
    static const char *const dirs[] = {"read", "write", "trim"};
    const cJSON *ph;
    int seq = 0, rc;
    cJSON_ArrayForEach(ph, cJSON_GetObjectItemCaseSensitive(doc, "phases")) {
        const cJSON *tot = result_scope(ph, "total");
        for (unsigned d = 0; d < 3 && tot; d++) {
            const cJSON *o = cJSON_GetObjectItemCaseSensitive(tot, dirs[d]);
            if (!cJSON_IsObject(o) || result_num(o, "ios", 0) <= 0)
                continue;
            const cJSON *lat = cJSON_GetObjectItemCaseSensitive(o, "latency_ns");
            struct archive_fig f = {
                .seq = seq, .phase = result_str(ph, "name", "?"), .dir = dirs[d], .steady = steady_of(ph),
                .iops = result_num(o, "iops", NAN), .mbps = result_num(o, "mbps", NAN),
                .mean_ns = result_num(lat, "mean", NAN), .p99_ns = pct(lat, "99"), .p999_ns = pct(lat, "99.9"),
                .max_ns = result_num(lat, "max", NAN),
            };
            if ((rc = fn(&f, ctx)) != 0)
                return rc;
        }
        seq++;
    }
    return 0;
}

int archive_doc_names(const cJSON *doc, const struct archive_meta *m, int (*fn)(const char *name, void *ctx),
                      void *ctx)
{
    /* duplicates are the caller's to drop (INSERT OR IGNORE) */
    int rc;
    if ((rc = fn(m->kind, ctx)) || (rc = fn(m->workload, ctx)))
        return rc;
    char one[512];
    const char *w = m->workload;
    while (*w) {      /* each of a comma-separated workload's names */
        size_t k = strcspn(w, ",");
        snprintf(one, sizeof(one), "%.*s", (int)k, w);
        if ((rc = fn(one, ctx)))
            return rc;
        w += k + (w[k] == ',');
    }
    const cJSON *ph, *j;
    cJSON_ArrayForEach(ph, cJSON_GetObjectItemCaseSensitive(doc, "phases")) {
        if ((rc = fn(result_str(ph, "name", ""), ctx)))
            return rc;
        /* a phase run over many ranks (MPI) */
        if (cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(ph, "cluster")) && (rc = fn("cluster", ctx)))
            return rc;
        cJSON_ArrayForEach(j, cJSON_GetObjectItemCaseSensitive(ph, "jobs"))
            if ((rc = fn(result_str(j, "name", ""), ctx)))
                return rc;
    }
    return 0;
}
