/* suite_text.c - see suite_text.h. Throughput is MB/s (10^6 bytes/s);
 * "avg lat" and "lat sd" are the reviews' figures (mean of the read and write
 * values), "mean lat" and "sd*" the exact ones over all I/Os. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "output/suite_text.h"
#include "result/result_read.h"

static const cJSON *get(const cJSON *o, const char *k)
{
    return cJSON_GetObjectItemCaseSensitive(o, k);
}

static const cJSON *find_phase(const cJSON *doc, const char *name)
{
    const cJSON *ph;
    cJSON_ArrayForEach(ph, get(doc, "phases"))
        if (!strcmp(result_str(ph, "name", ""), name))
            return ph;
    return NULL;
}

static const char *target_path(const cJSON *doc, const char *id)
{
    const cJSON *t;
    cJSON_ArrayForEach(t, get(doc, "targets"))
        if (!strcmp(result_str(t, "id", ""), id))
            return result_str(t, "path", id);
    return id;
}

static void lat(char *buf, size_t len, double ns)
{
    if (ns > 0)
        render_latency(buf, len, ns);
    else
        snprintf(buf, len, "-");
}

static void secs_str(char *buf, size_t len, double s)
{
    if (s >= 3600 && fmod(s, 3600) == 0)
        snprintf(buf, len, "%.0f h", s / 3600);
    else if (s >= 60 && fmod(s, 60) == 0)
        snprintf(buf, len, "%.0f min", s / 60);
    else
        snprintf(buf, len, "%g s", s);
}

static void list_str(char *buf, size_t len, const cJSON *arr)
{
    size_t n = 0;
    buf[0] = 0;
    const cJSON *v;
    cJSON_ArrayForEach(v, arr)
        if (n < len)
            n += (size_t)snprintf(buf + n, len - n, "%s%g", n ? "," : "", result_value_num(v, 0));
}

/* The baselines of a suite document: "baselines", else the one "baseline"
 * of older documents. */
static const cJSON *baselines_of(const cJSON *s, cJSON **owned)
{
    *owned = NULL;
    const cJSON *ba = get(s, "baselines");
    if (cJSON_IsArray(ba))
        return ba;
    if (!cJSON_IsObject(get(s, "baseline")))
        return NULL;
    *owned = cJSON_CreateArray();
    cJSON_AddItemToArray(*owned, cJSON_Duplicate(get(s, "baseline"), true));
    return *owned;
}

/* Scaling of a point against baseline k: "scalings"[k], else "scaling" (k 0). */
static const cJSON *point_scaling(const cJSON *pt, int k)
{
    const cJSON *scs = get(pt, "scalings");
    if (cJSON_IsArray(scs)) {
        const cJSON *sc = cJSON_GetArrayItem(scs, k);
        return cJSON_IsObject(sc) ? sc : NULL;
    }
    return k == 0 ? get(pt, "scaling") : NULL;
}

static void header(FILE *f, const cJSON *doc, const cJSON *s)
{
    const cJSON *tool = get(doc, "tool"), *host = get(doc, "host");
    fprintf(f, "ssdbench %s suite on %s (kernel %s, %g CPUs), started %s\n",
            result_str(tool, "version", "?"), result_str(host, "hostname", "?"),
            result_str(host, "kernel", "?"), result_num(host, "cpus", 0),
            result_str(doc, "started", "?"));
    const cJSON *t;
    cJSON_ArrayForEach(t, get(doc, "targets")) {
        fprintf(f, "target %s: %s (%s, %.0f MiB, logical block %g)", result_str(t, "id", "?"),
                result_str(t, "path", "?"), result_str(t, "kind", "?"),
                result_num(t, "size_bytes", 0) / 1048576.0, result_num(t, "logical_block", 0));
        const cJSON *d = get(t, "device");
        if (d && result_str(d, "model", "")[0])
            fprintf(f, " model %s", result_str(d, "model", ""));
        fprintf(f, "\n");
    }
    const char *layout = result_str(s, "layout", "single");
    int nt = cJSON_GetArraySize(get(s, "targets"));
    if (!strcmp(layout, "jbod"))
        fprintf(f, "layout: jbod, %d targets as separate LUNs at the same time (threads x queue per target)\n", nt);
    else if (!strcmp(layout, "stripe"))
        fprintf(f, "layout: stripe over %d targets, chunk %.0f KiB (threads x queue in total)\n", nt,
                result_num(s, "stripe_chunk", 0) / 1024);
    else
        fprintf(f, "layout: single target\n");
    double ar = result_num(s, "active_range_pct", 100);
    fprintf(f, "active range: %g%% of each target", ar);
    if (ar < 100)
        fprintf(f, " (over-provisioning %g%%)", 100 - ar);
    const cJSON *du;
    cJSON_ArrayForEach(du, get(s, "discard_unused"))
        fprintf(f, "; %s unused part %s", result_str(du, "target", "?"), result_str(du, "method", "?"));
    fprintf(f, "\n");
    const cJSON *pc = get(s, "precondition");
    const char *mode = result_str(pc, "mode", "off");
    char iv[32], rt[32];
    secs_str(iv, sizeof(iv), result_num(pc, "interval_s", 0));
    if (!strcmp(mode, "off"))
        fprintf(f, "preconditioning: off\n");
    else if (!strcmp(mode, "auto"))
        fprintf(f, "preconditioning: at %gT%gQ until steady state (%s, window %g rounds of %s, at most %g rounds)\n",
                result_num(pc, "threads", 0), result_num(pc, "depth", 0),
                result_str(pc, "criterion", "?"), result_num(pc, "window", 0), iv,
                result_num(pc, "max_rounds", 0));
    else {
        char tt[32];
        secs_str(tt, sizeof(tt), result_num(pc, "time_s", 0));
        fprintf(f, "preconditioning: at %gT%gQ for %s (intervals of %s; %s checked over windows of %g)\n",
                result_num(pc, "threads", 0), result_num(pc, "depth", 0), tt, iv,
                result_str(pc, "criterion", "?"), result_num(pc, "window", 0));
    }
    const cJSON *sw = get(s, "sweep");
    secs_str(rt, sizeof(rt), result_num(sw, "point_runtime_s", 0));
    const char *kind = result_str(sw, "kind", "none");
    char tl[128], ql[128];
    list_str(tl, sizeof(tl), get(sw, "threads"));
    list_str(ql, sizeof(ql), get(sw, "depths"));
    if (!strcmp(kind, "tq"))
        fprintf(f, "sweep: threads %s x queue depth %s, %s per point", tl, ql, rt);
    else if (!strcmp(kind, "qd"))
        fprintf(f, "sweep: queue depth %s (one thread), %s per point", ql, rt);
    else
        fprintf(f, "sweep: none");
    if (result_num(sw, "ramp_s", 0) > 0)
        fprintf(f, " after a %g s ramp", result_num(sw, "ramp_s", 0));
    fprintf(f, ", no idle time between steps\n");
    cJSON *owned;
    const cJSON *b, *bases = baselines_of(s, &owned);
    cJSON_ArrayForEach(b, bases)
        fprintf(f, "baseline %s: %s (%g target%s)\n", result_str(b, "label", "-"),
                result_str(b, "file", "?"), result_num(b, "targets", 0),
                result_num(b, "targets", 0) == 1 ? "" : "s");
    cJSON_Delete(owned);
}

/* A row of an interval series shorter than the series' step: the tail after
 * the last whole interval (or the time until a stop). Its rate covers only
 * that time; tables mark it, charts leave it out. */
static bool partial_row(const cJSON *iv, double t_ms, double prev_ms)
{
    double step = result_num(iv, "step_ms", 0);
    return step > 0 && t_ms - prev_ms < step * 0.999;
}

static void precond_table(FILE *f, const cJSON *doc, const cJSON *pc)
{
    fprintf(f, "\n  preconditioning (%s): %s at %s%s\n", result_str(pc, "phase", "?"),
            result_str(pc, "workload", "?"), result_str(pc, "load", "?"),
            cJSON_IsTrue(get(pc, "switched_to_write")) ? ", read profile switched to 100% write" : "");
    const cJSON *iv = get(pc, "intervals");
    /* field positions, so older or newer documents with other fields still read */
    static const char *const want[] = {"t_ms", "round", "iops", "mbps", "lat_avg_ns", "lat_max_ns",
                                       "lat_sd_avg_ns", "lat_mean_ns", "lat_sd_ns"};
    int idx[9];
    for (unsigned w = 0; w < 9; w++)
        idx[w] = result_field_index(iv, want[w]);
    fprintf(f, "  %9s %5s %11s %9s %10s %10s %10s %10s %10s\n", "time", "round", "IOPS", "MB/s",
            "avg lat", "max lat", "lat sd", "mean lat", "sd*");
    const cJSON *row, *rows = get(iv, "rows");
    double prev = 0, part_ms = -1;
    bool stopped = false;
    cJSON_ArrayForEach(row, rows) {
        double v[9];
        for (unsigned w = 0; w < 9; w++) {
            const cJSON *e = idx[w] >= 0 ? cJSON_GetArrayItem(row, idx[w]) : NULL;
            v[w] = cJSON_IsNumber(e) ? e->valuedouble : 0;
        }
        char a[24], m[24], s[24], me[24], se[24], rd[8];
        lat(a, sizeof(a), v[4]);
        lat(m, sizeof(m), v[5]);
        lat(s, sizeof(s), v[6]);
        lat(me, sizeof(me), v[7]);
        lat(se, sizeof(se), v[8]);
        bool part = partial_row(iv, v[0], prev);
        bool last = row->next == NULL;
        if (part) {
            part_ms = v[0] - prev;
            stopped = last && cJSON_IsTrue(get(doc, "interrupted"));
            snprintf(rd, sizeof(rd), "%s", stopped ? "stop" : "part");
        } else if (v[1] > 0) {
            snprintf(rd, sizeof(rd), "%.0f", v[1]);
        } else {
            snprintf(rd, sizeof(rd), "-");
        }
        prev = v[0];
        fprintf(f, "  %8.1fs %5s %11.0f %9.1f %10s %10s %10s %10s %10s\n", v[0] / 1000, rd, v[2],
                v[3], a, m, s, me, se);
    }
    if (part_ms >= 0)
        fprintf(f, "  (%s: the last %.0f ms only, %s; not a round, its rate covers that time only)\n",
                stopped ? "stop" : "part", part_ms,
                stopped ? "cut short by the interrupt" : "after the last whole interval");
    const cJSON *ss = get(pc, "steady_state");
    fprintf(f, "  %s%s\n", cJSON_IsTrue(get(ss, "reached")) ? "" : "NOTE: ",
            result_str(ss, "statement", "?"));
    if (!cJSON_IsTrue(get(ss, "evaluated")))
        return;
    const char *metric = result_str(ss, "metric", "iops");
    const cJSON *fit = get(ss, "fit");
    fprintf(f, "    rule %s on %s: window avg %.6g, min %.6g, max %.6g\n",
            result_str(ss, "criterion", "?"), metric, result_num(ss, "avg", 0),
            result_num(ss, "min", 0), result_num(ss, "max", 0));
    if (!strcmp(result_str(ss, "rule", ""), "snia"))
        fprintf(f, "    data excursion %.6g (%.2f%% of avg, allowed %.6g), slope excursion %.6g (%.2f%%, allowed %.6g)\n",
                result_num(ss, "range", 0), result_num(ss, "range_pct", 0),
                result_num(ss, "range_allowed", 0), result_num(ss, "slope_excursion", 0),
                result_num(ss, "slope_excursion_pct", 0), result_num(ss, "slope_allowed", 0));
    else
        fprintf(f, "    max deviation %.6g (%.2f%% of avg), slope %.3f%% of avg per round\n",
                result_num(ss, "max_dev", 0), result_num(ss, "max_dev_pct", 0),
                result_num(ss, "slope_pct", 0));
    fprintf(f, "    fit: y = %.6g * round + %.6g (rounds %g-%g)\n", result_num(fit, "slope", 0),
            result_num(fit, "intercept", 0), result_num(ss, "window_first", 0),
            result_num(ss, "window_last", 0));
}

/* Per direction and interval, from the phase's own series: the reviews
 * chart the combined figures, this shows what they are made of. */
static void precond_directions(FILE *f, const cJSON *phase)
{
    const cJSON *iv = get(phase, "intervals");
    static const char *const want[] = {"t_ms",
                                       "read_iops", "read_lat_mean_ns", "read_lat_max_ns", "read_lat_stddev_ns",
                                       "write_iops", "write_lat_mean_ns", "write_lat_max_ns", "write_lat_stddev_ns"};
    int idx[9];
    for (unsigned w = 0; w < 9; w++) {
        idx[w] = result_field_index(iv, want[w]);
        if (idx[w] < 0)
            return;
    }
    /* a fresh run's phase keeps its rows as raw JSON text; a loaded one as an array */
    const cJSON *rows = get(iv, "rows");
    cJSON *parsed = cJSON_IsRaw(rows) ? cJSON_Parse(rows->valuestring) : NULL;
    if (parsed)
        rows = parsed;
    fprintf(f, "  per direction:\n  %9s %11s %10s %10s %10s | %11s %10s %10s %10s\n", "time",
            "read IOPS", "read avg", "read max", "read sd", "write IOPS", "write avg", "write max",
            "write sd");
    const cJSON *row;
    double prev = 0;
    bool any_part = false;
    cJSON_ArrayForEach(row, rows) {
        double v[9];
        for (unsigned w = 0; w < 9; w++) {
            const cJSON *e = cJSON_GetArrayItem(row, idx[w]);
            v[w] = cJSON_IsNumber(e) ? e->valuedouble : 0;
        }
        bool part = partial_row(iv, v[0], prev);
        any_part |= part;
        prev = v[0];
        fprintf(f, "  %8.1fs%s", v[0] / 1000, part ? "*" : " ");
        for (int d = 0; d < 2; d++) {
            char a[24], m[24], sd[24];
            lat(a, sizeof(a), v[2 + 4 * d]);
            lat(m, sizeof(m), v[3 + 4 * d]);
            lat(sd, sizeof(sd), v[4 + 4 * d]);
            fprintf(f, "%s %11.0f %10s %10s %10s", d ? " |" : "", v[1 + 4 * d], a, m, sd);
        }
        fprintf(f, "\n");
    }
    if (any_part)
        fprintf(f, "  (*: a partial interval, the time after the last whole one)\n");
    cJSON_Delete(parsed);
}

static void sweep_table(FILE *f, const cJSON *points, const cJSON *bases)
{
    fprintf(f, "  %-18s %11s %9s %10s %10s %10s %10s %10s %10s", "point", "IOPS", "MB/s",
            "avg lat", "max lat", "lat sd", "p99", "mean lat", "sd*");
    int nb = cJSON_GetArraySize(bases);
    for (int k = 0; k < nb; k++) {
        const char *l = result_str(cJSON_GetArrayItem(bases, k), "label", "");
        char h[40];
        snprintf(h, sizeof(h), "x %s", *l ? l : "base");
        fprintf(f, " %12.12s %12s", h, "per target");
    }
    fprintf(f, "\n");
    const cJSON *pt;
    cJSON_ArrayForEach(pt, points) {
        const cJSON *c = get(pt, "combined");
        char a[24], m[24], s[24], p[24], me[24], se[24];
        lat(a, sizeof(a), result_num(c, "lat_avg_ns", 0));
        lat(m, sizeof(m), result_num(c, "lat_max_ns", 0));
        lat(s, sizeof(s), result_num(c, "lat_sd_avg_ns", 0));
        lat(p, sizeof(p), result_num(c, "p99_ns", 0));
        lat(me, sizeof(me), result_num(c, "lat_mean_ns", 0));
        lat(se, sizeof(se), result_num(c, "lat_sd_ns", 0));
        char label[64];
        const char *part = result_str(pt, "part", "");
        if (strchr(part, '/'))
            snprintf(label, sizeof(label), "%s %s", strchr(part, '/') + 1, result_str(pt, "label", "?"));
        else
            snprintf(label, sizeof(label), "%s", result_str(pt, "label", "?"));
        fprintf(f, "  %-18s %11.0f %9.1f %10s %10s %10s %10s %10s %10s", label,
                result_num(c, "iops", 0), result_num(c, "mbps", 0), a, m, s, p, me, se);
        for (int k = 0; k < nb; k++) {
            const cJSON *sc = point_scaling(pt, k);
            if (sc)
                fprintf(f, " %11.2fx %11.2fx", result_num(sc, "factor", 0),
                        result_num(sc, "per_target", 0));
            else
                fprintf(f, " %12s %12s", "-", "-");
        }
        fprintf(f, "\n");
    }
}

static void direction_table(FILE *f, const cJSON *doc, const cJSON *points)
{
    fprintf(f, "  %-18s %11s %10s %10s %10s | %11s %10s %10s %10s\n", "point", "read IOPS",
            "read avg", "read max", "read p99", "write IOPS", "write avg", "write max", "write p99");
    const cJSON *pt;
    cJSON_ArrayForEach(pt, points) {
        const cJSON *tot = result_scope(find_phase(doc, result_str(pt, "phase", "")), "total");
        if (!tot)
            continue;
        fprintf(f, "  %-18s", result_str(pt, "label", "?"));
        for (int d = 0; d < 2; d++) {
            const cJSON *dir = get(tot, d ? "write" : "read");
            const cJSON *l = get(dir, "latency_ns");
            char a[24], m[24], p[24];
            lat(a, sizeof(a), result_num(l, "mean", 0));
            lat(m, sizeof(m), result_num(l, "max", 0));
            lat(p, sizeof(p), result_num(get(l, "percentiles"), "99", 0));
            fprintf(f, "%s %11.0f %10s %10s %10s", d ? " |" : "", result_num(dir, "iops", 0), a, m, p);
        }
        fprintf(f, "\n");
    }
}

static void target_table(FILE *f, const cJSON *doc, const cJSON *points)
{
    const cJSON *first = NULL, *pt;
    cJSON_ArrayForEach(pt, points)
        if (get(pt, "targets")) {
            first = pt;
            break;
        }
    if (!first)
        return;
    fprintf(f, "\n  per target (IOPS / mean latency):\n  %-18s", "point");
    const cJSON *t;
    cJSON_ArrayForEach(t, get(first, "targets")) {
        char h[64];
        snprintf(h, sizeof(h), "%s", target_path(doc, result_str(t, "target", "?")));
        fprintf(f, " %22.22s", h);
    }
    fprintf(f, " %11s\n", "total IOPS");
    cJSON_ArrayForEach(pt, points) {
        fprintf(f, "  %-18s", result_str(pt, "label", "?"));
        cJSON_ArrayForEach(t, get(pt, "targets")) {
            const cJSON *c = get(t, "combined");
            char m[24];
            lat(m, sizeof(m), result_num(c, "lat_mean_ns", 0));
            fprintf(f, " %11.0f %10s", result_num(c, "iops", 0), m);
        }
        fprintf(f, " %11.0f\n", result_num(get(pt, "combined"), "iops", 0));
    }
}

static bool any_mixed(const cJSON *doc, const cJSON *points)
{
    const cJSON *pt;
    cJSON_ArrayForEach(pt, points) {
        const cJSON *tot = result_scope(find_phase(doc, result_str(pt, "phase", "")), "total");
        if (result_num(get(tot, "read"), "ios", 0) > 0 && result_num(get(tot, "write"), "ios", 0) > 0)
            return true;
    }
    return false;
}

static void profile_block(FILE *f, const cJSON *doc, const cJSON *s, const cJSON *p,
                          const struct render_opts *o)
{
    /* The heading names the workload that ran (mix included); the profile's
     * description follows only when no override changed its mix. */
    const cJSON *part, *parts = get(p, "parts");
    bool changed = false;
    cJSON_ArrayForEach(part, parts)
        changed |= get(part, "profile_rwmixread") != NULL;
    if (cJSON_GetArraySize(parts) == 1)
        fprintf(f, "\n== %s: %s\n", result_str(p, "name", "?"),
                result_str(cJSON_GetArrayItem(parts, 0), "workload", "?"));
    else
        fprintf(f, "\n== %s\n", result_str(p, "name", "?"));
    if (!changed)
        fprintf(f, "   %s\n", result_str(p, "description", ""));
    cJSON_ArrayForEach(part, parts) {
        if (cJSON_GetArraySize(parts) > 1)
            fprintf(f, "   %s: %s\n", result_str(part, "name", "?"), result_str(part, "workload", "?"));
        if (get(part, "profile_rwmixread")) {
            double d = result_num(part, "profile_rwmixread", 0);
            fprintf(f, "   %s: mix changed by an override (the profile's own is %.0f/%.0f)\n",
                    result_str(part, "name", "?"), d, 100 - d);
        }
    }
    if (cJSON_IsTrue(get(p, "fixed_load")))
        fprintf(f, "   fixed load: the profile sets its own threads and queue depth\n");
    const cJSON *pu;
    cJSON_ArrayForEach(pu, get(p, "purge"))
        fprintf(f, "   purge %s: %s (%.2f s)%s%s\n", result_str(pu, "target", "?"),
                result_str(pu, "method", "?"), result_num(pu, "elapsed_s", 0),
                get(pu, "notes") ? "; " : "", result_str(pu, "notes", ""));
    const cJSON *pc = get(p, "precondition");
    if (pc) {
        precond_table(f, doc, pc);
        const cJSON *ph = find_phase(doc, result_str(pc, "phase", ""));
        const cJSON *tot = result_scope(ph, "total");
        if (o->details && result_num(get(tot, "read"), "ios", 0) > 0 &&
            result_num(get(tot, "write"), "ios", 0) > 0)
            precond_directions(f, ph);
    }
    const cJSON *points = get(p, "points");
    if (cJSON_GetArraySize(points) == 0)
        return;
    cJSON *owned;
    const cJSON *bases = baselines_of(s, &owned);
    char rt[32], sm[32];
    secs_str(rt, sizeof(rt), result_num(get(s, "sweep"), "point_runtime_s", 0));
    secs_str(sm, sizeof(sm), result_num(s, "sample_s", 0));
    const char *per = !strcmp(result_str(s, "load_per", "total"), "target") ? "per target" : "in total";
    if (!strcmp(result_str(get(s, "sweep"), "kind", ""), "none"))
        fprintf(f, "\n  sample (%s at the preconditioning load, threads x queue %s):\n", sm, per);
    else if (result_num(s, "sample_s", 0) > 0)
        fprintf(f, "\n  sweep (%s per point after a %s sample, threads x queue %s):\n", rt, sm, per);
    else
        fprintf(f, "\n  sweep (%s per point, threads x queue %s):\n", rt, per);
    sweep_table(f, points, bases);
    if (cJSON_GetArraySize(bases) > 0)
        fprintf(f, "  (x NAME: IOPS / the baseline's IOPS at the same point; per target: the same per\n"
                   "   target, IOPS / targets over the baseline's IOPS / its targets)\n");
    fprintf(f, "  (avg lat, lat sd: mean of the read and write figures, as the reviews chart them;\n"
               "   mean lat, sd*: exact over all I/Os; max: the larger maximum; p99: merged histogram)\n");
    if (o->details && any_mixed(doc, points)) {
        fprintf(f, "\n  per direction:\n");
        direction_table(f, doc, points);
    }
    if (o->details)
        target_table(f, doc, points);
    const cJSON *best = NULL, *pt;
    cJSON_ArrayForEach(pt, points)
        if (!cJSON_IsTrue(get(pt, "sample")) &&
            (!best || result_num(get(pt, "combined"), "iops", 0) > result_num(get(best, "combined"), "iops", 0)))
            best = pt;
    if (best) {
        const char *slash = strchr(result_str(best, "part", ""), '/');
        fprintf(f, "  peak: %.0f IOPS, %.1f MB/s at %s%s%s", result_num(get(best, "combined"), "iops", 0),
                result_num(get(best, "combined"), "mbps", 0), slash ? slash + 1 : "", slash ? " " : "",
                result_str(best, "label", "?"));
        fprintf(f, "\n");
        const cJSON *pss = get(p, "peak_scalings"), *ps;
        if (!cJSON_IsArray(pss) && get(p, "peak_scaling")) {
            const cJSON *one = get(p, "peak_scaling");
            fprintf(f, "  peak: %.2fx the baseline peak of %.0f IOPS (%.2f per target)\n",
                    result_num(one, "factor", 0), result_num(one, "baseline_iops", 0),
                    result_num(one, "per_target", 0));
        }
        int k = 0;
        cJSON_ArrayForEach(ps, pss) {
            const char *l = result_str(cJSON_GetArrayItem(bases, k++), "label", "");
            if (cJSON_IsObject(ps))
                fprintf(f, "  peak: %.2fx the peak of %s (%.0f IOPS on %g target%s), %.2fx per target\n",
                        result_num(ps, "factor", 0), *l ? l : "the baseline",
                        result_num(ps, "baseline_iops", 0), result_num(ps, "baseline_targets", 1),
                        result_num(ps, "baseline_targets", 1) == 1 ? "" : "s",
                        result_num(ps, "per_target", 0));
        }
    }
    cJSON_Delete(owned);
}

void render_suite_text(FILE *f, const cJSON *doc, const struct render_opts *o)
{
    const cJSON *s = get(doc, "suite");
    if (!cJSON_IsObject(s)) {
        render_text(f, doc, o);
        return;
    }
    header(f, doc, s);
    const cJSON *p;
    cJSON_ArrayForEach(p, get(s, "profiles"))
        profile_block(f, doc, s, p, o);
    fprintf(f, "\n(MB/s = 10^6 bytes/s; latency = submission to completion)\n");
    if (cJSON_IsTrue(get(doc, "interrupted")))
        fprintf(f, "INTERRUPTED by %s: results cover the time until the stop.\n",
                result_str(doc, "signal", "a signal"));
}
