/* html_setup.c - the "what was tested" table of a report: per result the
 * device identity, host, versions, command line and the settings that
 * decide what the numbers mean (engine, direct I/O, active range,
 * preconditioning and steady state). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "output/html_kinds.h"
#include "result/result_read.h"

static void bytes_text(char *buf, size_t len, double v)
{
    struct html_table_col c = {.kind = HTML_TABLE_NUM, .fmt = HTML_TABLE_BYTES};
    html_table_format(buf, len, &c, v);
}

/* The first job of the first measured phase: the settings in the header. */
static const cJSON *first_params(const cJSON *doc)
{
    const cJSON *ph;
    cJSON_ArrayForEach(ph, cJSON_GetObjectItemCaseSensitive(doc, "phases")) {
        if (html_phase_is(ph, "precondition"))
            continue;
        const cJSON *job = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(ph, "jobs"), 0);
        if (job)
            return cJSON_GetObjectItemCaseSensitive(job, "params");
    }
    ph = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(doc, "phases"), 0);
    return cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(ph, "jobs"), 0),
                                            "params");
}

static void range_text(char *buf, size_t len, const cJSON *params, double target_size)
{
    const cJSON *rg = cJSON_GetObjectItemCaseSensitive(params, "range");
    double off = result_num(rg, "offset", 0), offp = result_num(rg, "offset_pct", 0);
    double size = result_num(rg, "size", 0), sizep = result_num(rg, "size_pct", 0);
    char a[32], b[32];
    if (!rg) {
        snprintf(buf, len, "-");
    } else if (offp > 0 || sizep > 0) {
        snprintf(buf, len, "%g%% .. %g%% of the target", offp, offp + (sizep > 0 ? sizep : 100 - offp));
    } else if (size == 0 && off == 0) {
        snprintf(buf, len, "whole target");
    } else {
        bytes_text(a, sizeof(a), off);
        bytes_text(b, sizeof(b), size > 0 ? size : target_size - off);
        if (target_size > 0)
            snprintf(buf, len, "%s from offset %s (%.3g%% of the target)", b, a,
                     100 * (size > 0 ? size : target_size - off) / target_size);
        else
            snprintf(buf, len, "%s from offset %s", b, a);
    }
}

void html_job_text(char *buf, size_t len, const cJSON *p)
{
    char bs[32] = "mixed sizes", mixs[32] = "", rate[48] = "";
    if (result_num(p, "bs", 0) > 0)
        bytes_text(bs, sizeof(bs), result_num(p, "bs", 0));
    double mix = result_num(p, "rwmixread", -1);
    if (mix >= 0)
        snprintf(mixs, sizeof(mixs), " %g/%g", mix, 100 - mix);
    if (result_num(p, "rate_iops", 0) > 0)
        snprintf(rate, sizeof(rate), ", paced at %g IOPS per worker", result_num(p, "rate_iops", 0));
    const cJSON *direct = cJSON_GetObjectItemCaseSensitive(p, "direct");
    snprintf(buf, len, "%s%s %s, QD %g, %g job%s, %s, %s%s", result_str(p, "rw", "?"), mixs, bs,
             result_num(p, "iodepth", 1), result_num(p, "numjobs", 1), result_num(p, "numjobs", 1) == 1 ? "" : "s",
             result_str(p, "engine", "?"), cJSON_IsTrue(direct) ? "direct" : "buffered", rate);
}

/* "randread 4 KiB, QD 8, 1 job" for each distinct setting, at most 4. */
static void workload_text(char *buf, size_t len, const cJSON *doc)
{
    size_t n = 0, count = 0;
    buf[0] = 0;
    const cJSON *ph;
    cJSON_ArrayForEach(ph, cJSON_GetObjectItemCaseSensitive(doc, "phases")) {
        const cJSON *job;
        cJSON_ArrayForEach(job, cJSON_GetObjectItemCaseSensitive(ph, "jobs")) {
            const cJSON *p = cJSON_GetObjectItemCaseSensitive(job, "params");
            char one[160], bs[32] = "mixed sizes";
            if (result_num(p, "bs", 0) > 0)
                bytes_text(bs, sizeof(bs), result_num(p, "bs", 0));
            double mix = result_num(p, "rwmixread", -1);
            char mixs[32] = "";
            if (mix >= 0)
                snprintf(mixs, sizeof(mixs), " %g/%g", mix, 100 - mix);
            snprintf(one, sizeof(one), "%s%s %s, QD %g, %g job%s", result_str(p, "rw", "?"), mixs, bs,
                     result_num(p, "iodepth", 1), result_num(p, "numjobs", 1),
                     result_num(p, "numjobs", 1) == 1 ? "" : "s");
            if (strstr(buf, one))
                continue;
            if (++count > 4) {
                if (n + 6 < len)
                    n += (size_t)snprintf(buf + n, len - n, "; ...");
                return;
            }
            n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? "; " : "", one);
            if (n >= len)
                return;
        }
    }
}

/* Preconditioning and steady state, from the workload summaries when the
 * result has them (the suite's, per profile), else from the phase kinds. */
static void precondition_text(char *pre, size_t plen, char *ss, size_t slen, const cJSON *doc)
{
    unsigned rounds = 0;
    const cJSON *ph;
    cJSON_ArrayForEach(ph, cJSON_GetObjectItemCaseSensitive(doc, "phases"))
        rounds += html_phase_is(ph, "precondition");
    if (rounds)
        snprintf(pre, plen, "%u precondition phase%s", rounds, rounds == 1 ? "" : "s");
    else
        snprintf(pre, plen, "none recorded");
    snprintf(ss, slen, "not checked");
    const cJSON *suite = cJSON_GetObjectItemCaseSensitive(doc, "suite");
    const cJSON *prof;
    size_t pn = 0, sn = 0;
    cJSON_ArrayForEach(prof, cJSON_GetObjectItemCaseSensitive(suite, "profiles")) {
        const cJSON *pc = cJSON_GetObjectItemCaseSensitive(prof, "precondition");
        if (!pc)
            continue;
        const cJSON *st = cJSON_GetObjectItemCaseSensitive(pc, "steady_state");
        const cJSON *iv = cJSON_GetObjectItemCaseSensitive(pc, "intervals");
        if (pn < plen)
            pn += (size_t)snprintf(pre + pn, plen - pn, "%s%s: %s at %s, %d intervals of %g s", pn ? "; " : "",
                                   result_str(prof, "name", "?"), result_str(pc, "workload", "?"),
                                   result_str(pc, "load", "?"), cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(iv, "rows")),
                                   result_num(iv, "step_ms", 0) / 1000);
        if (st && sn < slen)
            sn += (size_t)snprintf(ss + sn, slen - sn, "%s%s: %s", sn ? "; " : "", result_str(prof, "name", "?"),
                                   result_str(st, "statement", cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(st, "reached"))
                                                                   ? "reached" : "not reached"));
    }
    const cJSON *st = cJSON_GetObjectItemCaseSensitive(doc, "steady_state");
    if (!sn && st && cJSON_IsObject(st)) {
        const cJSON *reached = cJSON_GetObjectItemCaseSensitive(st, "reached");
        const char *rule = result_str(st, "rule", "");
        if (cJSON_IsBool(reached))
            snprintf(ss, slen, "%s%s%s", cJSON_IsTrue(reached) ? "reached" : "NOT reached", *rule ? ", rule " : "",
                     rule);
    }
}

/* The columns of the "What was tested" table. */
static const char *const setup_col_name[] = {
    "result", "file", "started", "duration", "ssdbench", "command line", "host", "kernel", "CPU",
    "memory", "target", "device", "size", "blocks", "queue", "engine", "direct I/O", "workload",
    "active range", "preconditioning", "steady state", "status",
    "device health"};
enum setup_col { C_RESULT, C_FILE, C_STARTED, C_DURATION, C_VERSION, C_CMD, C_HOST, C_KERNEL, C_CPU, C_MEM,
                C_TARGET, C_DEVICE, C_SIZE, C_BLOCKS, C_QUEUE, C_ENGINE, C_DIRECT, C_WORKLOAD, C_RANGE,
                C_PRECOND, C_STEADY, C_STATUS,
                C_HEALTH, C_N };

/* The run's own cells of row w (result i): file, time, tool, host. */
static void setup_run_cells(struct html_report *r, size_t i, struct html_table *t, size_t w, const int *col)
{
    const cJSON *doc = r->in[i].doc;
    char buf[2048];
    html_table_set_text(t, w, col[C_RESULT], r->labels[i]);
    html_table_set_text(t, w, col[C_FILE], r->in[i].path);
    html_table_set_text(t, w, col[C_STARTED], result_str(doc, "started", ""));
    html_table_set(t, w, col[C_DURATION], result_num(doc, "duration_s", NAN));
    const cJSON *tool = cJSON_GetObjectItemCaseSensitive(doc, "tool");
    html_table_set_text(t, w, col[C_VERSION], result_str(tool, "version", ""));
    size_t n = (size_t)snprintf(buf, sizeof(buf), "ssdbench");
    const cJSON *a;
    cJSON_ArrayForEach(a, cJSON_GetObjectItemCaseSensitive(tool, "command_line")) {
        if (!cJSON_IsString(a) || n + 2 >= sizeof(buf))
            continue;
        bool q = strpbrk(a->valuestring, " \t'\"") != NULL || !*a->valuestring;
        n += (size_t)snprintf(buf + n, sizeof(buf) - n, q ? " '%s'" : " %s", a->valuestring);
    }
    html_table_set_text(t, w, col[C_CMD], buf);
    const cJSON *host = cJSON_GetObjectItemCaseSensitive(doc, "host");
    html_table_set_text(t, w, col[C_HOST], result_str(host, "hostname", ""));
    snprintf(buf, sizeof(buf), "%s %s", result_str(host, "kernel", ""), result_str(host, "arch", ""));
    html_table_set_text(t, w, col[C_KERNEL], buf);
    snprintf(buf, sizeof(buf), "%s, %g CPUs; busy %.0f%%, steal %.0f%% during the run",
             result_str(host, "cpu_model", "?"), result_num(host, "cpus", 0),
             result_num(host, "cpu_busy_pct", 0), result_num(host, "cpu_steal_pct", 0));
    html_table_set_text(t, w, col[C_CPU], buf);
    html_table_set(t, w, col[C_MEM], result_num(host, "memory_bytes", NAN));
}

/* The target cells of row w: every target, joined; returns their total
 * size in bytes. */
static double setup_target_cells(struct html_table *t, size_t w, const int *col, const cJSON *doc)
{
    char buf[2048];
    /* targets: all of them, joined */
    char tgt[1024] = "", dev[1024] = "", blk[256] = "", q[512] = "";
    double size = 0;
    const cJSON *tg;
    cJSON_ArrayForEach(tg, cJSON_GetObjectItemCaseSensitive(doc, "targets")) {
        size_t tl = strlen(tgt), dl = strlen(dev), bl = strlen(blk), ql = strlen(q);
        snprintf(tgt + tl, sizeof(tgt) - tl, "%s%s (%s%s)", tl ? "; " : "", result_str(tg, "path", "?"),
                 result_str(tg, "kind", "?"), cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(tg, "created"))
                                                 ? ", created by ssdbench" : "");
        size += result_num(tg, "size_bytes", 0);
        snprintf(blk + bl, sizeof(blk) - bl, "%s%g/%g", bl ? "; " : "", result_num(tg, "logical_block", 0),
                 result_num(tg, "physical_block", 0));
        const cJSON *d = cJSON_GetObjectItemCaseSensitive(tg, "device");
        if (d) {
            const cJSON *rot = cJSON_GetObjectItemCaseSensitive(d, "rotational");
            /* identity fields the kernel left empty are omitted, not
             * printed as "serial , firmware ," */
            const char *model = result_str(d, "model", ""), *serial = result_str(d, "serial", "");
            const char *fw = result_str(d, "firmware", "");
            snprintf(dev + dl, sizeof(dev) - dl, "%s%s%s%s%s%s%s%s%s%s", dl ? "; " : "",
                     result_str(d, "name", ""), *model ? " " : "", model, *serial ? ", serial " : "", serial,
                     *fw ? ", firmware " : "", fw,
                     cJSON_IsBool(rot) ? (cJSON_IsTrue(rot) ? ", rotational" : ", non-rotational") : "",
                     *result_str(d, "backing_file", "") ? ", loop device" : "");
            snprintf(q + ql, sizeof(q) - ql, "%sscheduler %s, write cache %s", ql ? "; " : "",
                     result_str(d, "scheduler", "?"), result_str(d, "write_cache", "?"));
        }
    }
    html_table_set_text(t, w, col[C_TARGET], tgt);
    html_table_set_text(t, w, col[C_DEVICE], *dev ? dev : "-");
    html_table_set(t, w, col[C_SIZE], size);
    snprintf(buf, sizeof(buf), "logical/physical %s bytes", blk);
    html_table_set_text(t, w, col[C_BLOCKS], *blk ? buf : "-");
    html_table_set_text(t, w, col[C_QUEUE], *q ? q : "-");
    return size;
}

/* The workload cells of row w: engine, direct I/O, workload, active range
 * (size: the targets' total), preconditioning, steady state, status. */
static void setup_workload_cells(struct html_table *t, size_t w, const int *col, const cJSON *doc, double size)
{
    char buf[2048];
    const cJSON *p = first_params(doc);
    html_table_set_text(t, w, col[C_ENGINE], result_str(p, "engine", "-"));
    const cJSON *direct = cJSON_GetObjectItemCaseSensitive(p, "direct");
    html_table_set_text(t, w, col[C_DIRECT], cJSON_IsBool(direct) ? (cJSON_IsTrue(direct) ? "yes (O_DIRECT)" : "no (page cache)")
                                                            : "-");
    const cJSON *suite = cJSON_GetObjectItemCaseSensitive(doc, "suite");
    if (suite) {
        /* a suite: its profiles and sweep say more than the job list */
        size_t m = (size_t)snprintf(buf, sizeof(buf), "suite: ");
        const cJSON *pn;
        int k = 0;
        cJSON_ArrayForEach(pn, cJSON_GetObjectItemCaseSensitive(suite, "profiles"))
            if (m < sizeof(buf))
                m += (size_t)snprintf(buf + m, sizeof(buf) - m, "%s%s", k++ ? ", " : "", result_str(pn, "name", "?"));
        const cJSON *sw = cJSON_GetObjectItemCaseSensitive(suite, "sweep");
        if (m < sizeof(buf))
            snprintf(buf + m, sizeof(buf) - m, "; sweep %s, %g s per point; layout %s", result_str(sw, "kind", "?"),
                     result_num(sw, "point_runtime_s", 0), result_str(suite, "layout", "?"));
    } else {
        workload_text(buf, sizeof(buf), doc);
    }
    html_table_set_text(t, w, col[C_WORKLOAD], buf);
    range_text(buf, sizeof(buf), p, size);
    if (suite)
        snprintf(buf, sizeof(buf), "first %g %% of each target", result_num(suite, "active_range_pct", 100));
    html_table_set_text(t, w, col[C_RANGE], buf);
    char pre[256], ss[256];
    precondition_text(pre, sizeof(pre), ss, sizeof(ss), doc);
    html_table_set_text(t, w, col[C_PRECOND], pre);
    html_table_set_text(t, w, col[C_STEADY], ss);
    size_t nerr = (size_t)cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(doc, "errors"));
    const char *sig = result_str(doc, "signal", "");
    snprintf(buf, sizeof(buf), "%s%s%s%s",
             cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(doc, "interrupted")) ? "interrupted" : "complete",
             *sig ? " by " : "", sig, nerr ? ", with I/O errors (see the result file)" : ", no I/O errors");
    html_table_set_text(t, w, col[C_STATUS], buf);
}

struct html_table *html_setup_table(struct html_report *r)
{
    struct html_table *t = html_add_table(r, "results", "What was tested");
    if (!t)
        return NULL;
    int col[C_N];
    for (int c = 0; c < C_N; c++) {
        bool num = c == C_DURATION || c == C_MEM || c == C_SIZE;
        col[c] = html_table_add_col(t, setup_col_name[c], c == C_DURATION ? "s" : c == C_MEM || c == C_SIZE ? "bytes" : NULL,
                              num ? HTML_TABLE_NUM : HTML_TABLE_TEXT, c == C_DURATION ? HTML_TABLE_AUTO : HTML_TABLE_BYTES);
    }
    for (size_t i = 0; i < r->nin; i++) {
        const cJSON *doc = r->in[i].doc;
        long row = html_table_add_row(t);
        if (row < 0)
            return t;
        size_t w = (size_t)row;
        setup_run_cells(r, i, t, w, col);
        double size = setup_target_cells(t, w, col, doc);
        setup_workload_cells(t, w, col, doc, size);
        /* device targets' health before and after (html_health.c) */
        char health[2048];
        html_health_text(health, sizeof(health), doc);
        html_table_set_text(t, w, col[C_HEALTH], health);
    }
    return t;
}

