/* text.c - ssdbench's human-readable output.
 *
 * Throughput is MB/s (10^6 bytes per second) with MiB/s beside it where the
 * difference matters; sizes are binary (KiB, MiB). Latency is submission to
 * completion; for paced runs the latency from the scheduled start stands
 * beside it everywhere a latency is shown (it is the one a stall cannot
 * hide). Warnings say when the process was stopped or the host busy. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "output/device_text.h"
#include "output/render.h"
#include "result/result_read.h"

void render_latency(char *buf, size_t len, double ns)
{
    if (!isfinite(ns))
        snprintf(buf, len, "-");
    else if (ns < 1e3)
        snprintf(buf, len, "%.0f ns", ns);
    else if (ns < 1e6)
        snprintf(buf, len, "%.1f us", ns / 1e3);
    else if (ns < 1e9)
        snprintf(buf, len, "%.2f ms", ns / 1e6);
    else
        snprintf(buf, len, "%.2f s", ns / 1e9);
}

static void size_str(char *buf, size_t len, double b)
{
    if (b >= 1099511627776.0 && fmod(b, 1099511627776.0) == 0)
        snprintf(buf, len, "%.0fTiB", b / 1099511627776.0);
    else if (b >= 1073741824.0 && fmod(b, 1073741824.0) == 0)
        snprintf(buf, len, "%.0fGiB", b / 1073741824.0);
    else if (b >= 1048576.0 && fmod(b, 1048576.0) == 0)
        snprintf(buf, len, "%.0fMiB", b / 1048576.0);
    else if (b >= 1024 && fmod(b, 1024) == 0)
        snprintf(buf, len, "%.0fKiB", b / 1024);
    else if (b >= 1048576.0)
        snprintf(buf, len, "%.1fMiB", b / 1048576.0);
    else
        snprintf(buf, len, "%.0fB", b);
}

/* Appends to buf (len bytes) at *n; the text is cut at the end of buf and
 * *n never passes len - 1, however long the strings from the result are. */
static void __attribute__((format(printf, 4, 5))) append(char *buf, size_t len, size_t *n, const char *fmt, ...)
{
    if (*n + 1 >= len)
        return;
    va_list ap;
    va_start(ap, fmt);
    int w = vsnprintf(buf + *n, len - *n, fmt, ap);
    va_end(ap);
    if (w > 0)
        *n = *n + (size_t)w < len ? *n + (size_t)w : len - 1;
}

/* "randread 4KiB QD32 x1 io_uring direct" */
static void params_str(char *buf, size_t len, const cJSON *params)
{
    char bs[32] = "mix";
    double b = result_num(params, "bs", 0);
    if (b > 0)
        size_str(bs, sizeof(bs), b);
    size_t n = 0;
    buf[0] = 0;
    append(buf, len, &n, "%s %s", result_str(params, "rw", "?"), bs);
    double mix = result_num(params, "rwmixread", -1);
    if (mix >= 0)
        append(buf, len, &n, " %g/%g", mix, 100 - mix);
    append(buf, len, &n, " QD%g x%g %s%s", result_num(params, "iodepth", 1), result_num(params, "numjobs", 1),
           result_str(params, "engine", "?"),
           cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(params, "direct")) ? " direct" : " buffered");
    double rate = result_num(params, "rate_iops", 0);
    if (rate > 0)
        append(buf, len, &n, " rate %g IOPS", rate);
}

static const cJSON *lat(const cJSON *dir)
{
    return cJSON_GetObjectItemCaseSensitive(dir, "latency_ns");
}

static double pct(const cJSON *latency, const char *p)
{
    return result_num(cJSON_GetObjectItemCaseSensitive(latency, "percentiles"), p, NAN);
}

static void summary(FILE *f, const cJSON *doc)
{
    fprintf(f, "%-22s %-5s %11s %10s %10s %10s %10s %10s\n", "test", "dir", "IOPS", "MB/s", "mean lat",
            "p99", "p99.9", "max");
    bool paced = false;
    const cJSON *ph;
    cJSON_ArrayForEach(ph, cJSON_GetObjectItemCaseSensitive(doc, "phases")) {
        const cJSON *tot = result_scope(ph, "total");
        if (!tot)
            continue;
        static const char *const dnames[] = {"read", "write", "trim"};
        for (int d = 0; d < 3; d++) {
            const cJSON *dir = cJSON_GetObjectItemCaseSensitive(tot, dnames[d]);
            if (result_num(dir, "ios", 0) == 0 && result_num(dir, "errors", 0) == 0)
                continue;
            const cJSON *l = lat(dir);
            char m[32], p99[32], p999[32], mx[32];
            render_latency(m, sizeof(m), result_num(l, "mean", 0));
            render_latency(p99, sizeof(p99), pct(l, "99"));
            render_latency(p999, sizeof(p999), pct(l, "99.9"));
            render_latency(mx, sizeof(mx), result_num(l, "max", 0));
            fprintf(f, "%-22.22s %-5s %11.0f %10.1f %10s %10s %10s %10s\n", result_str(ph, "name", "?"),
                    dnames[d], result_num(dir, "iops", 0), result_num(dir, "mbps", 0), m, p99,
                    p999, mx);
            const cJSON *sl = cJSON_GetObjectItemCaseSensitive(dir, "scheduled_latency_ns");
            if (cJSON_IsObject(sl)) {
                render_latency(m, sizeof(m), result_num(sl, "mean", 0));
                render_latency(p99, sizeof(p99), pct(sl, "99"));
                render_latency(p999, sizeof(p999), pct(sl, "99.9"));
                render_latency(mx, sizeof(mx), result_num(sl, "max", 0));
                fprintf(f, "%-22s %-5s %11s %10s %10s %10s %10s %10s\n", "  from schedule",
                        dnames[d], "", "", m, p99, p999, mx);
                paced = true;
            }
        }
    }
    fprintf(f, "(MB/s = 10^6 bytes/s; latency = submission to completion%s)\n",
            paced ? "; \"from schedule\" = scheduled issue time to completion, for paced jobs" : "");
}

static void latency_block(FILE *f, const char *label, const cJSON *l)
{
    char a[32], b[32], c[32], d[32];
    render_latency(a, sizeof(a), result_num(l, "min", 0));
    render_latency(b, sizeof(b), result_num(l, "mean", 0));
    render_latency(c, sizeof(c), result_num(l, "stddev", 0));
    render_latency(d, sizeof(d), result_num(l, "max", 0));
    fprintf(f, "      %s: min %s, mean %s, stddev %s, max %s\n", label, a, b, c, d);
    fprintf(f, "        percentiles:");
    const cJSON *p;
    int i = 0;
    cJSON_ArrayForEach(p, cJSON_GetObjectItemCaseSensitive(l, "percentiles")) {
        char v[32];
        render_latency(v, sizeof(v), result_value_num(p, 0));
        fprintf(f, "%s p%s=%s", i && i % 5 == 0 ? "\n                    " : "", p->string, v);
        i++;
    }
    fprintf(f, "\n        share of I/Os >= 1/2/4/8/16/32/64 ms:");
    /* fixed notation, one precision for the row: enough decimals for two
     * significant digits of the smallest share above 0 (at most 6) */
    int dec = 2;
    cJSON_ArrayForEach(p, cJSON_GetObjectItemCaseSensitive(l, "pct_over_ms")) {
        double v = result_value_num(p, 0);
        while (v > 0 && dec < 6 && v < 10 / pow(10, dec))
            dec++;
    }
    cJSON_ArrayForEach(p, cJSON_GetObjectItemCaseSensitive(l, "pct_over_ms"))
        fprintf(f, " %.*f%%", dec, result_value_num(p, 0));
    fprintf(f, "\n");
}

static void scope_block(FILE *f, const cJSON *sc)
{
    fprintf(f, "  [%s] %.2f s, mean I/Os in flight %.2f\n", result_str(sc, "scope", "?"),
            result_num(sc, "elapsed_s", 0), result_num(sc, "mean_inflight", 0));
    static const char *const dirs[] = {"read", "write", "trim", "combined"};
    /* the combined figures when more than one direction ran */
    int ndirs = 0;
    for (int d = 0; d < 3; d++)
        ndirs += result_num(cJSON_GetObjectItemCaseSensitive(sc, dirs[d]), "ios", 0) > 0;
    for (int d = 0; d < (ndirs > 1 ? 4 : 3); d++) {
        const cJSON *dir = cJSON_GetObjectItemCaseSensitive(sc, dirs[d]);
        if (result_num(dir, "ios", 0) == 0 && result_num(dir, "errors", 0) == 0)
            continue;
        fprintf(f, "    %-5s: %.0f IOPS, %.2f MB/s (%.2f MiB/s), %.0f I/Os, %.0f bytes, %.0f errors\n",
                d == 3 ? (ndirs > 2 ? "all" : "both") : dirs[d], result_num(dir, "iops", 0), result_num(dir, "mbps", 0),
                result_num(dir, "mibps", 0), result_num(dir, "ios", 0), result_num(dir, "bytes", 0),
                result_num(dir, "errors", 0));
        latency_block(f, "latency", lat(dir));
        const cJSON *s = cJSON_GetObjectItemCaseSensitive(dir, "scheduled_latency_ns");
        if (cJSON_IsObject(s))
            latency_block(f, "latency from scheduled start", s);
    }
    const cJSON *sy = cJSON_GetObjectItemCaseSensitive(sc, "sync");
    if (sy)
        fprintf(f, "    sync : %.0f flushes, %.0f errors\n", result_num(sy, "ios", 0),
                result_num(sy, "errors", 0));
}

/* One line when the process did not run for a while during the phase. */
static bool stall_line(FILE *f, const cJSON *ph, const char *indent)
{
    const cJSON *st = cJSON_GetObjectItemCaseSensitive(ph, "stalls");
    double n = result_num(st, "count", 0);
    if (n <= 0)
        return false;
    double sus = result_num(st, "suspended_s", 0);
    char extra[64] = "";
    if (sus > 0)
        snprintf(extra, sizeof(extra), ", %.2f s of it machine suspend", sus);
    fprintf(f, "%sWARNING: %s: the process did not run for %.2f s (%g stall%s, longest %.2f s%s): "
               "counts stay exact, but rates and latencies of those intervals include the stall "
               "(rows marked STALL)\n",
            indent, result_str(ph, "name", "?"), result_num(st, "total_s", 0), n, n == 1 ? "" : "s",
            result_num(st, "longest_s", 0), extra);
    return true;
}

/* Interval rows: every row for short series, else only the marked ones. */
static void interval_rows(FILE *f, const cJSON *ph)
{
    const cJSON *iv = cJSON_GetObjectItemCaseSensitive(ph, "intervals");
    const cJSON *rows = cJSON_GetObjectItemCaseSensitive(iv, "rows");
    cJSON *parsed = cJSON_IsRaw(rows) ? cJSON_Parse(rows->valuestring) : NULL;
    if (parsed)
        rows = parsed;
    static const char *const want[] = {"t_ms", "read_iops", "read_p99_ns", "write_iops", "write_p99_ns",
                                       "read_sched_p99_ns", "write_sched_p99_ns", "stalled_ms",
                                       "cpu_busy_pct", "cpu_steal_pct", "cpu_iowait_pct", "late_hist"};
    enum { NW = sizeof(want) / sizeof(want[0]) };
    int idx[NW];
    for (unsigned w = 0; w < NW; w++)
        idx[w] = result_field_index(iv, want[w]);
    int nrows = cJSON_GetArraySize(rows);
    if (nrows == 0 || idx[0] < 0) {
        cJSON_Delete(parsed);
        return;
    }
    bool all = nrows <= 100, sched = false;
    const cJSON *r;
    cJSON_ArrayForEach(r, rows)
        for (unsigned w = 5; w < 7; w++)
            if (idx[w] >= 0 && cJSON_IsNumber(cJSON_GetArrayItem(r, idx[w])) &&
                cJSON_GetArrayItem(r, idx[w])->valuedouble > 0)
                sched = true;
    fprintf(f, "  intervals%s:\n  %8s %10s %10s %10s %10s%s %18s\n",
            all ? "" : " (only those marked; every row is in the result)", "end", "read IOPS",
            "read p99", "write IOPS", "write p99", sched ? "  sched p99" : "", "host busy/steal/io%");
    cJSON_ArrayForEach(r, rows) {
        double v[NW];
        for (unsigned w = 0; w < NW; w++) {
            const cJSON *e = idx[w] >= 0 ? cJSON_GetArrayItem(r, idx[w]) : NULL;
            v[w] = cJSON_IsNumber(e) ? e->valuedouble : 0;
        }
        if (!all && v[7] <= 0 && v[11] <= 0)
            continue;
        char rp[32], wp[32], sp[32] = "", host[32];
        render_latency(rp, sizeof(rp), v[2]);
        render_latency(wp, sizeof(wp), v[4]);
        if (sched) {
            char t[24];
            render_latency(t, sizeof(t), v[5] > v[6] ? v[5] : v[6]);
            snprintf(sp, sizeof(sp), " %10s", v[1] + v[3] > 0 ? t : "-");
        }
        snprintf(host, sizeof(host), "%.0f/%.0f/%.0f", v[8], v[9], v[10]);
        fprintf(f, "  %7.1fs %10.0f %10s %10.0f %10s%s %18s", v[0] / 1000, v[1], v[1] > 0 ? rp : "-",
                v[3], v[3] > 0 ? wp : "-", sp, host);
        if (v[7] > 0)
            fprintf(f, "  STALL %.2f s", v[7] / 1000);
        if ((int)v[11] & 1)
            fprintf(f, "  LATE-HIST (latencies in a later row)");
        if ((int)v[11] & 2)
            fprintf(f, "  LATE-HIST (holds earlier rows' latencies)");
        fprintf(f, "\n");
    }
    cJSON_Delete(parsed);
}


/* A phase run over many ranks (docs/cluster.md): how many, the start skew,
 * how it ended, each host's and each rank's share. The job line above names
 * rank 0's targets; every rank's are here. */
static void cluster_block(FILE *f, const cJSON *ph)
{
    const cJSON *co = cJSON_GetObjectItemCaseSensitive(ph, "cluster");
    if (!cJSON_IsObject(co))
        return;
    double nr = result_num(co, "nranks", 0), nh = result_num(co, "nhosts", 0);
    fprintf(f, "  cluster: %.0f rank%s on %.0f host%s, started %.0f..%.0f us after the agreed time, ended %s; "
               "the figures below are merged over every rank\n",
            nr, nr == 1 ? "" : "s", nh, nh == 1 ? "" : "s", result_num(co, "start_skew_min_us", 0),
            result_num(co, "start_skew_max_us", 0),
            !strcmp(result_str(co, "ended_by", ""), "agreed-time") ? "at the agreed time" : "with the slowest rank");
    const cJSON *h;
    cJSON_ArrayForEach(h, cJSON_GetObjectItemCaseSensitive(co, "hosts")) {
        const cJSON *rd = cJSON_GetObjectItemCaseSensitive(h, "read"), *wr = cJSON_GetObjectItemCaseSensitive(h, "write");
        fprintf(f, "    host %s: %.0f ranks, read %.0f IOPS %.2f MB/s, write %.0f IOPS %.2f MB/s\n",
                result_str(h, "host", "?"), result_num(h, "ranks", 0), result_num(rd, "iops", 0),
                result_num(rd, "mbps", 0), result_num(wr, "iops", 0), result_num(wr, "mbps", 0));
    }
    const cJSON *r;
    cJSON_ArrayForEach(r, cJSON_GetObjectItemCaseSensitive(co, "ranks")) {
        const cJSON *rd = cJSON_GetObjectItemCaseSensitive(r, "read"), *wr = cJSON_GetObjectItemCaseSensitive(r, "write");
        fprintf(f, "    rank %.0f (%s): read %.0f I/Os, write %.0f I/Os, %.0f errors, %.2f s on",
                result_num(r, "rank", 0), result_str(r, "host", "?"), result_num(rd, "ios", 0),
                result_num(wr, "ios", 0), result_num(r, "error_total", 0), result_num(r, "elapsed_s", 0));
        const cJSON *t;
        cJSON_ArrayForEach(t, cJSON_GetObjectItemCaseSensitive(r, "targets"))
            fprintf(f, " %s", result_str(t, "path", "?"));
        fprintf(f, "\n");
    }
}

/* A verify job's line and, when a block was bad, the first one. */
static void verify_lines(FILE *f, const cJSON *j)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(j, "verify");
    if (!v)
        return;
    fprintf(f, "  verify (%s) of job %s: %.0f blocks checked (%.0f bytes, %.0f as you go) of %.0f written, %.0f bad\n",
            result_str(v, "method", "?"), result_str(j, "name", "?"), result_num(v, "blocks_checked", 0),
            result_num(v, "bytes_checked", 0), result_num(v, "backlog_blocks", 0),
            result_num(v, "blocks_written", 0), result_num(v, "bad_blocks", 0));
    const cJSON *b = cJSON_GetObjectItemCaseSensitive(v, "first_bad");
    if (!cJSON_IsObject(b))
        return;
    fprintf(f, "    first bad block: %s offset %.0f length %.0f (chunk at %.0f, %.0f bytes): bad %s, ",
            result_str(b, "target", "?"), result_num(b, "offset", 0), result_num(b, "length", 0),
            result_num(b, "chunk_offset", 0), result_num(b, "chunk_length", 0), result_str(b, "problem", "?"));
    if (cJSON_GetObjectItemCaseSensitive(b, "expected_checksum"))
        fprintf(f, "expected %s found %s", result_str(b, "expected_checksum", "?"), result_str(b, "found_checksum", "?"));
    else
        fprintf(f, "expected %.0f found %.0f", result_num(b, "expected", 0), result_num(b, "found", 0));
    fprintf(f, "; first differing byte %.0f\n", result_num(b, "first_differing_byte", -1));
    const cJSON *h = cJSON_GetObjectItemCaseSensitive(b, "header_found");
    if (h)
        fprintf(f, "    header found: offset %.0f length %.0f seed %s sequence %.0f\n", result_num(h, "offset", 0),
                result_num(h, "length", 0), result_str(h, "seed", "?"), result_num(h, "sequence", 0));
    if (cJSON_GetObjectItemCaseSensitive(b, "dump_received"))
        fprintf(f, "    dumped: %s, %s\n", result_str(b, "dump_received", "?"), result_str(b, "dump_expected", "?"));
}

/* What ended a phase in words: "complete" is the runtime when a job is
 * time based or ran for its runtime, else its I/O being done. */
static void stop_words(const cJSON *ph, char *buf, size_t len)
{
    const char *s = result_str(ph, "stopped_by", "?");
    if (strcmp(s, "complete")) {
        snprintf(buf, len, "stopped by %s", s);
        return;
    }
    double el = result_num(ph, "elapsed_s", 0), rt = 0;
    bool timed = false;
    const cJSON *j;
    cJSON_ArrayForEach(j, cJSON_GetObjectItemCaseSensitive(ph, "jobs")) {
        const cJSON *p = cJSON_GetObjectItemCaseSensitive(j, "params");
        double r = result_num(p, "runtime_s", 0);
        rt = r > rt ? r : rt;
        timed |= r > 0 && cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(p, "time_based"));
    }
    if (rt > 0 && (timed || el >= rt * 0.99))
        snprintf(buf, len, "ended by its runtime (%g s)", rt);
    else
        snprintf(buf, len, "ended when its I/O was done");
}

static void phase_block(FILE *f, const cJSON *doc, const cJSON *ph)
{
    char stop[96];
    stop_words(ph, stop, sizeof(stop));
    fprintf(f, "\n%s (%s), %.2f s measured, %s\n", result_str(ph, "name", "?"),
            result_str(ph, "kind", "?"), result_num(ph, "elapsed_s", 0), stop);
    stall_line(f, ph, "  ");
    const cJSON *j;
    cJSON_ArrayForEach(j, cJSON_GetObjectItemCaseSensitive(ph, "jobs")) {
        char p[256];
        params_str(p, sizeof(p), cJSON_GetObjectItemCaseSensitive(j, "params"));
        fprintf(f, "  job %s: %s on", result_str(j, "name", "?"), p);
        const cJSON *t;
        cJSON_ArrayForEach(t, cJSON_GetObjectItemCaseSensitive(j, "targets")) {
            const cJSON *ti;
            cJSON_ArrayForEach(ti, cJSON_GetObjectItemCaseSensitive(doc, "targets"))
                if (strcmp(result_str(ti, "id", ""), result_value_str(t, "?")) == 0)
                    fprintf(f, " %s", result_str(ti, "path", "?"));
        }
        fprintf(f, "\n");
    }
    cluster_block(f, ph);
    const cJSON *ss;
    cJSON_ArrayForEach(ss, cJSON_GetObjectItemCaseSensitive(ph, "steady_state"))
        fprintf(f, "  steady state (%s) of job %s: %s\n", result_str(ss, "criterion", "?"),
                result_str(ss, "job", "?"), result_str(ss, "statement", "?"));
    const cJSON *sc;
    cJSON_ArrayForEach(sc, cJSON_GetObjectItemCaseSensitive(ph, "results"))
        scope_block(f, sc);
    cJSON_ArrayForEach(j, cJSON_GetObjectItemCaseSensitive(ph, "jobs"))
        verify_lines(f, j);
    const cJSON *e;
    cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(ph, "errors"))
        fprintf(f, "  error: %s on %s at offset %.0f: %s (errno %.0f), %.0f times\n",
                result_str(e, "op", "?"), result_str(e, "target", "?"), result_num(e, "offset", 0),
                result_str(e, "message", "?"), result_num(e, "errno", 0), result_num(e, "count", 0));
    const cJSON *cpu = cJSON_GetObjectItemCaseSensitive(ph, "cpu");
    fprintf(f, "  ssdbench CPU: %.2f s user, %.2f s system\n", result_num(cpu, "user_s", 0),
            result_num(cpu, "sys_s", 0));
    interval_rows(f, ph);
}

/* What a result rebuilt from a journal holds: the phases filed whole, and
 * the phases (the one a kill cut short) summed from their interval rows. */
static void recovered_line(FILE *f, const cJSON *doc)
{
    unsigned nphases = 0, nrows_phases = 0;
    double rows = 0;
    const cJSON *ph;
    cJSON_ArrayForEach(ph, cJSON_GetObjectItemCaseSensitive(doc, "phases")) {
        nphases++;
        const cJSON *ri = cJSON_GetObjectItemCaseSensitive(ph, "recovered_intervals");
        if (cJSON_IsNumber(ri)) {
            nrows_phases++;
            rows += ri->valuedouble;
        }
    }
    fprintf(f, "\nRECOVERED from the journal %s: the run did not finish; %u of %u phases as filed "
               "when they ended",
            result_str(doc, "recovered_from", "?"), nphases - nrows_phases, nphases);
    if (nrows_phases)
        fprintf(f, ", %u cut short rebuilt from %.0f completed intervals (totals summed from them; "
                   "their percentiles are not known)",
                nrows_phases, rows);
    fprintf(f, ".\n");
}

void render_text(FILE *f, const cJSON *doc, const struct render_opts *o)
{
    const cJSON *tool = cJSON_GetObjectItemCaseSensitive(doc, "tool");
    const cJSON *host = cJSON_GetObjectItemCaseSensitive(doc, "host");
    fprintf(f, "ssdbench %s on %s (kernel %s, %g CPUs), started %s\n", result_str(tool, "version", "?"),
            result_str(host, "hostname", "?"), result_str(host, "kernel", "?"),
            result_num(host, "cpus", 0), result_str(doc, "started", "?"));
    const cJSON *t;
    cJSON_ArrayForEach(t, cJSON_GetObjectItemCaseSensitive(doc, "targets")) {
        char sz[32];
        size_str(sz, sizeof(sz), result_num(t, "size_bytes", 0));
        fprintf(f, "target %s: %s (%s, %s, logical block %g)", result_str(t, "id", "?"),
                result_str(t, "path", "?"), result_str(t, "kind", "?"), sz, result_num(t, "logical_block", 0));
        const cJSON *d = cJSON_GetObjectItemCaseSensitive(t, "device");
        if (d && result_str(d, "model", "")[0])
            fprintf(f, " model %s", result_str(d, "model", ""));
        fprintf(f, "\n");
    }
    render_device_health(f, doc);
    if (o->summary)
        summary(f, doc);
    if (o->details) {
        const cJSON *ph;
        cJSON_ArrayForEach(ph, cJSON_GetObjectItemCaseSensitive(doc, "phases"))
            phase_block(f, doc, ph);
    }
    /* warnings last, where they are read: stalls (summary only: the phase
     * blocks carry their own line) and a busy host */
    const cJSON *ph;
    if (!o->details)
        cJSON_ArrayForEach(ph, cJSON_GetObjectItemCaseSensitive(doc, "phases"))
            stall_line(f, ph, "");
    if (result_str(doc, "recovered_from", NULL))
        recovered_line(f, doc);
    else if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(doc, "interrupted")))
        fprintf(f, "\nINTERRUPTED by %s: results cover the time until the stop.\n",
                result_str(doc, "signal", "a signal"));
}
