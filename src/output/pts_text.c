/* pts_text.c - see pts_text.h. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "output/pts_text.h"
#include "output/render.h"
#include "output/pts_fields.h"
#include "result/result_read.h"
#include "result/result_hist.h"
#include "stats/hist.h"

static void bs_name(double bs, char *buf, size_t len)
{
    if (fmod(bs, 1024) != 0)
        snprintf(buf, len, "%gKiB", bs / 1024.0);
    else
        snprintf(buf, len, "%.0fKiB", bs / 1024.0);
}

static void lat(char *buf, size_t len, double ns)
{
    render_latency(buf, len, ns);
}

/* Every field of the target's device object that is present (identity,
 * health, whatever the run recorded), one level of nesting flattened. */
static void identity(FILE *f, const cJSON *doc)
{
    const cJSON *t = cJSON_GetArrayItem(result_get(doc, "targets"), 0);
    fprintf(f, "Device under test\n");
    fprintf(f, "  path:              %s\n", result_str(t, "path", "?"));
    fprintf(f, "  capacity:          %.4g GB (%.0f bytes)\n", result_num(t, "size_bytes", 0) / 1e9,
            result_num(t, "size_bytes", 0));
    fprintf(f, "  logical block:     %.0f bytes, physical %.0f bytes\n",
            result_num(t, "logical_block", 0), result_num(t, "physical_block", 0));
    const cJSON *d = result_get(t, "device"), *e;
    cJSON_ArrayForEach(e, d) {
        if (cJSON_IsObject(e)) {
            const cJSON *s;
            cJSON_ArrayForEach(s, e) {
                if (cJSON_IsString(s) && s->valuestring[0])
                    fprintf(f, "  %s.%s: %s\n", e->string, s->string, s->valuestring);
                else if (cJSON_IsNumber(s))
                    fprintf(f, "  %s.%s: %g\n", e->string, s->string, s->valuedouble);
                else if (cJSON_IsBool(s))
                    fprintf(f, "  %s.%s: %s\n", e->string, s->string, cJSON_IsTrue(s) ? "yes" : "no");
            }
        } else if (cJSON_IsString(e) && e->valuestring[0]) {
            fprintf(f, "  %-18s %s\n", e->string, e->valuestring);
        } else if (cJSON_IsNumber(e)) {
            fprintf(f, "  %-18s %g\n", e->string, e->valuedouble);
        } else if (cJSON_IsBool(e)) {
            fprintf(f, "  %-18s %s\n", e->string, cJSON_IsTrue(e) ? "yes" : "no");
        }
    }
}

static void header(FILE *f, const cJSON *doc, const cJSON *p)
{
    fprintf(f, "%s report (ssdbench %s), %s preset\n", result_str(p, "spec", "SNIA SSS PTS"),
            result_str(result_get(doc, "tool"), "version", "?"), result_str(p, "preset", "?"));
    const cJSON *nc = result_get(p, "noncompliance");
    if (cJSON_IsTrue(result_get(p, "compliant"))) {
        fprintf(f, "COMPLIANT as far as ssdbench can tell\n");
    } else {
        fprintf(f, "NOT COMPLIANT:\n");
        for (int i = 0; i < cJSON_GetArraySize(nc); i++)
            fprintf(f, "  - %s\n", result_at_str(nc, i, "?"));
        if (!result_get(p, "compliant"))
            fprintf(f, "  - the run did not finish\n");
    }
    fprintf(f, "\n");
    identity(f, doc);
    const cJSON *h = result_get(doc, "host");
    fprintf(f, "Test platform\n");
    fprintf(f, "  host:              %s, %s %s\n", result_str(h, "hostname", "?"),
            result_str(h, "kernel", "?"), result_str(h, "arch", ""));
    fprintf(f, "  tool:              ssdbench %s, engine %s\n",
            result_str(result_get(doc, "tool"), "version", "?"), result_str(p, "engine", "?"));
    fprintf(f, "Set-up\n");
    fprintf(f, "  ActiveRange:       %g %% (%.0f of %.0f bytes)\n", result_num(p, "active_range_pct", 0),
            result_num(p, "active_range_bytes", 0), result_num(p, "capacity_bytes", 0));
    fprintf(f, "  TC/QD:             T%.0f/Q%.0f (latency: T1/Q1)\n", result_num(p, "threads", 0),
            result_num(p, "depth", 0));
    const cJSON *wc = result_get(p, "write_cache");
    fprintf(f, "  write cache:       %s (kernel: %s); preset asks for %s\n",
            result_str(wc, "state", "?"), result_str(wc, "kernel", "?"), result_str(wc, "required", "?"));
    /* how the write cache was set and put back, and the purge method */
    if (result_get(wc, "set_by"))
        fprintf(f, "  write cache set:   by %s; before the run %s, after %s (%s)\n",
                result_str(wc, "set_by", "?"), result_str(result_get(wc, "before"), "state", "?"),
                result_str(result_get(wc, "after"), "state", "?"),
                cJSON_IsTrue(result_get(wc, "restored")) ? "restored" : "NOT restored");
    const cJSON *pm = result_get(p, "purge");
    if (pm)
        fprintf(f, "  purge method:      %s (%s)\n", result_str(pm, "methods", "none"),
                cJSON_IsTrue(result_get(pm, "device_command")) ? "the device's own erase"
                                                        : "block layer, not a PTS purge");
    const cJSON *sg = result_get(p, "active_range_segments");
    if (sg)
        fprintf(f, "  AR segments:       %.0f of %.0f bytes (amount %.0f bytes), seed %s; %s\n",
                result_num(sg, "segments", 0), result_num(sg, "segment_bytes", 0),
                result_num(sg, "amount_bytes", 0), result_str(sg, "seed", "?"),
                result_str(sg, "applies_to", ""));
    fprintf(f, "  data pattern:      %s\n", result_str(p, "data_pattern", "?"));
    fprintf(f, "  max rounds:        %.0f, steady-state window 5 rounds, 20 %% data / 10 %% slope "
               "excursion\n", result_num(p, "max_rounds", 25));
    fprintf(f, "  test dates:        %s to %s\n", result_str(p, "started", "?"),
            result_str(p, "finished", "(not finished)"));
}

static const cJSON *element(const cJSON *t, int i)
{
    return cJSON_GetArrayItem(result_get(t, "elements"), i);
}

static void value(char *buf, size_t len, const char *key, double v)
{
    if (!strcmp(key, "lat_mean_ns") || !strcmp(key, "lat_max_ns") || !strcmp(key, "p99999_ns"))
        lat(buf, len, v);
    else if (!strcmp(key, "mbps"))
        snprintf(buf, len, "%.1f", v);
    else
        snprintf(buf, len, "%.0f", v);
}

/* Rounds x the convergence columns: every 100 % write element and the
 * tracking variables (throughput: both elements). */
static void convergence(FILE *f, const cJSON *t)
{
    int cols[64], nc = 0;
    const cJSON *tr = result_get(t, "tracking");
    int ne = cJSON_GetArraySize(result_get(t, "elements"));
    bool tp = !strcmp(result_str(t, "test", ""), "throughput");
    for (int i = 0; i < ne && nc < 64; i++) {
        bool track = false;
        for (int k = 0; k < cJSON_GetArraySize(tr); k++)
            track |= pts_el_at(tr, k) == i;
        if (tp || track || result_num(element(t, i), "read_pct", -1) == 0)
            cols[nc++] = i;
    }
    const char *mk = pts_metric_key(t);
    fprintf(f, "SS convergence (%s per round; * = tracking variable)\n",
            result_str(t, "tracking_unit", "IOPS"));
    fprintf(f, "  round");
    for (int c = 0; c < nc; c++) {
        bool track = false;
        for (int k = 0; k < cJSON_GetArraySize(tr); k++)
            track |= pts_el_at(tr, k) == cols[c];
        char nm[48];
        const char *en = result_str(element(t, cols[c]), "name", "?");
        /* "RND 4KiB 0/100" -> "4KiB 0/100" */
        if (!strncmp(en, "RND ", 4) || !strncmp(en, "SEQ ", 4))
            en += 4;
        snprintf(nm, sizeof(nm), "%s%s", en, track ? "*" : "");
        fprintf(f, " %14s", nm);
    }
    fprintf(f, "\n");
    const cJSON *r;
    const cJSON *ss = result_get(t, "steady_state");
    double wf = result_num(ss, "window_first", 0), wl = result_num(ss, "window_last", 0);
    cJSON_ArrayForEach(r, result_get(t, "rounds")) {
        double rn = result_num(r, "round", 0);
        fprintf(f, "  %4.0f%s", rn, rn >= wf && rn <= wl && wl > 0 ? "w" : " ");
        for (int c = 0; c < nc; c++) {
            const cJSON *e = cJSON_GetArrayItem(result_get(r, "elements"), cols[c]);
            char v[32] = "-";
            if (e)
                value(v, sizeof(v), mk, result_num(e, mk, 0));
            fprintf(f, " %14s", v);
        }
        fprintf(f, "%s\n", cJSON_IsTrue(result_get(r, "incomplete")) ? "  (incomplete)" : "");
    }
    fprintf(f, "  (w = measurement window)\n");
}

static void determination(FILE *f, const cJSON *t)
{
    const cJSON *ss = result_get(t, "steady_state");
    const char *mk = pts_metric_key(t);
    fprintf(f, "Steady state: %s\n", result_str(ss, "statement", "?"));
    const cJSON *v;
    cJSON_ArrayForEach(v, result_get(ss, "variables")) {
        const cJSON *e = element(t, pts_el_num(v, 0));
        double avg = result_num(v, "avg", 0);
        char a[32], a110[32], a90[32], a105[32], a95[32], rg[32], rga[32], se[32], sea[32];
        value(a, sizeof(a), mk, avg);
        value(a110, sizeof(a110), mk, avg * 1.1);
        value(a90, sizeof(a90), mk, avg * 0.9);
        value(a105, sizeof(a105), mk, avg * 1.05);
        value(a95, sizeof(a95), mk, avg * 0.95);
        value(rg, sizeof(rg), mk, result_num(v, "range", 0));
        value(rga, sizeof(rga), mk, result_num(v, "range_allowed", 0));
        value(se, sizeof(se), mk, result_num(v, "slope_excursion", 0));
        value(sea, sizeof(sea), mk, result_num(v, "slope_allowed", 0));
        const cJSON *fit = result_get(v, "fit");
        fprintf(f, "  %s (%s), window rounds %.0f-%.0f:\n", result_str(e, "name", "?"),
                result_str(t, "tracking_unit", ""), result_num(v, "window_first", 0),
                result_num(v, "window_last", 0));
        fprintf(f, "    average %s; 110%%/90%% %s / %s; 105%%/95%% %s / %s\n", a, a110, a90, a105, a95);
        fprintf(f, "    data excursion  %s (%.2f %%), allowed %s (20 %%): %s\n", rg,
                result_num(v, "range_pct", 0), rga,
                result_num(v, "range", 0) <= result_num(v, "range_allowed", 0) ? "pass" : "fail");
        fprintf(f, "    slope excursion %s (%.2f %%), allowed %s (10 %%): %s\n", se,
                result_num(v, "slope_excursion_pct", 0), sea,
                result_num(v, "slope_excursion", 0) <= result_num(v, "slope_allowed", 0) ? "pass"
                                                                                          : "fail");
        fprintf(f, "    fit: y = %.6g * round + %.6g\n", result_num(fit, "slope", 0),
                result_num(fit, "intercept", 0));
    }
}

static void iops_table(FILE *f, const cJSON *t)
{
    static const int mixes[] = {100, 95, 65, 50, 35, 5, 0};
    fprintf(f, "IOPS (average of the measurement window)\n  %-10s", "block size");
    for (int m = 0; m < 7; m++) {
        char mx[16];
        snprintf(mx, sizeof(mx), "%d/%d", mixes[m], 100 - mixes[m]);
        fprintf(f, " %10s", mx);
    }
    fprintf(f, "\n");
    const cJSON *tab = result_get(t, "table");
    int ne = cJSON_GetArraySize(result_get(t, "elements"));
    /* rows in the order block sizes first appear */
    double seen[16];
    int ns = 0;
    for (int i = 0; i < ne && ns < 16; i++) {
        double bs = result_num(element(t, i), "block_size", 0);
        bool dup = false;
        for (int k = 0; k < ns; k++)
            dup |= seen[k] == bs;
        if (!dup)
            seen[ns++] = bs;
    }
    for (int b = 0; b < ns; b++) {
        char bn[16];
        bs_name(seen[b], bn, sizeof(bn));
        fprintf(f, "  %-10s", bn);
        for (int m = 0; m < 7; m++) {
            char v[32] = "-";
            for (int i = 0; i < ne; i++)
                if (result_num(element(t, i), "block_size", 0) == seen[b] &&
                    result_num(element(t, i), "read_pct", -1) == mixes[m])
                    snprintf(v, sizeof(v), "%.0f", result_num(cJSON_GetArrayItem(tab, i), "iops", 0));
            fprintf(f, " %10s", v);
        }
        fprintf(f, "\n");
    }
}

static void element_table(FILE *f, const cJSON *t, bool latency)
{
    const cJSON *tab = result_get(t, "table");
    if (latency)
        fprintf(f, "Response times (window average; 5 nines and maximum over the window)\n"
                   "  %-22s %12s %12s %12s %10s\n", "element", "average", "99.999%", "maximum", "IOPS");
    else
        fprintf(f, "Throughput (average of the measurement window)\n  %-22s %10s %10s\n", "element",
                "MB/s", "IOPS");
    const cJSON *row;
    cJSON_ArrayForEach(row, tab) {
        const cJSON *e = element(t, pts_el_num(row, 0));
        if (latency) {
            char a[32], p[32], m[32];
            lat(a, sizeof(a), result_num(row, "lat_mean_ns", 0));
            lat(p, sizeof(p), result_num(row, "p99999_ns", 0));
            lat(m, sizeof(m), result_num(row, "lat_max_ns", 0));
            fprintf(f, "  %-22s %12s %12s %12s %10.0f\n", result_str(e, "name", "?"), a, p, m,
                    result_num(row, "iops", 0));
        } else {
            fprintf(f, "  %-22s %10.1f %10.0f\n", result_str(e, "name", "?"),
                    result_num(row, "mbps", 0), result_num(row, "iops", 0));
        }
    }
}

static void wsat(FILE *f, const cJSON *t)
{
    fprintf(f, "Stimulus: RND 4KiB 0/100 at T%.0f/Q%.0f from the purged state (no WIPC), up to %gx "
               "the ActiveRange or %g s\n",
            result_num(t, "threads", 0), result_num(t, "depth", 0),
            result_num(t, "capacity_multiple", 4), result_num(t, "time_limit_s", 0));
    fprintf(f, "Written: %.4g GB (%.3g x the ActiveRange) in %.3g s, stopped by %s; final IOPS %.0f "
               "(average of the last %.0f samples)\n",
            result_num(t, "bytes_written", 0) / 1e9, result_num(t, "capacity_writes", 0),
            result_num(t, "elapsed_s", 0), result_str(t, "stopped_by", "?"),
            result_num(t, "final_iops", 0), result_num(t, "final_samples", 0));
    const cJSON *s = result_get(t, "samples");
    int it = result_field_index(s, "t_s"), ii = result_field_index(s, "iops"),
        ig = result_field_index(s, "tgbw_gb"), il = result_field_index(s, "lat_mean_ns");
    const cJSON *rows = result_get(s, "rows");
    int n = cJSON_GetArraySize(rows);
    int step = n > 40 ? (n + 39) / 40 : 1;
    fprintf(f, "IOPS vs time and TGBW%s\n  %10s %10s %10s %12s\n", step > 1 ? " (every nth sample)" : "",
            "time (s)", "IOPS", "TGBW (GB)", "avg latency");
    for (int r = 0; r < n; r += step) {
        const cJSON *row = cJSON_GetArrayItem(rows, r);
        char l[32];
        lat(l, sizeof(l), result_at_num(row, il, 0));
        fprintf(f, "  %10.2f %10.0f %10.4f %12s\n", result_at_num(row, it, 0),
                result_at_num(row, ii, 0), result_at_num(row, ig, 0), l);
    }
}

static void recovery_page(FILE *f, const cJSON *t);
static void di_page(FILE *f, const cJSON *t);

static void test_page(FILE *f, const cJSON *t)
{
    const char *test = result_str(t, "test", "?");
    fprintf(f, "\n== %s test", result_str(t, "title", "?"));
    if (result_get(t, "block_size")) {
        char b[16];
        bs_name(result_num(t, "block_size", 0), b, sizeof(b));
        fprintf(f, ", SEQ %s", b);
    }
    fprintf(f, " (%s to %s) ==\n", result_str(t, "started", "?"), result_str(t, "finished", "?"));
    const cJSON *pu = result_get(t, "purge");
    fprintf(f, "Purge: %s%s%s\n", result_str(pu, "statement", "?"), result_get(pu, "notes") ? "; " : "",
            result_str(pu, "notes", ""));
    if (!strcmp(test, "hir") || !strcmp(test, "xsr")) {
        recovery_page(f, t);
        return;
    }
    if (!strcmp(test, "cbw") || !strcmp(test, "dirth")) {
        di_page(f, t);
        return;
    }
    const cJSON *w = result_get(t, "wipc");
    if (cJSON_IsObject(w))
        fprintf(f, "Preconditioning: WIPC %s\n", result_str(w, "statement", "?"));
    else
        fprintf(f, "Preconditioning: none (the test starts from the purged state)\n");
    if (!strcmp(test, "wsat")) {
        wsat(f, t);
        return;
    }
    fprintf(f, "WDPC: the test's own rounds at T%.0f/Q%.0f, %.0f elements of %.3g s (a %.3g s round), "
               "%.0f rounds run\n",
            result_num(t, "threads", 0), result_num(t, "depth", 0),
            (double)cJSON_GetArraySize(result_get(t, "elements")), result_num(t, "element_s", 0),
            result_num(t, "round_s", 0), result_num(t, "rounds_run", 0));
    if (!result_get(t, "steady_state")) {
        fprintf(f, "(not finished)\n");
        return;
    }
    convergence(f, t);
    determination(f, t);
    if (!strcmp(test, "iops"))
        iops_table(f, t);
    else
        element_table(f, t, !strcmp(test, "latency"));
}

void render_pts_text(FILE *f, const cJSON *doc)
{
    const cJSON *p = result_get(doc, "pts");
    if (!p) {
        fprintf(f, "not a PTS result (no \"pts\" object)\n");
        return;
    }
    header(f, doc, p);
    const cJSON *t;
    cJSON_ArrayForEach(t, result_get(p, "tests"))
        test_page(f, t);
}

/* ---- HIR, XSR, CBW/DIRTH ------------------------------------------------- */

/* A rounds-to-steady-state object (HIR pre-writes, CBW/DIRTH
 * preconditioning): its convergence and determination. */
static void ss_rounds(FILE *f, const char *what, const cJSON *o)
{
    const cJSON *e = element(o, 0);
    char at[32] = "";
    if (!result_get(e, "threads"))   /* else the name says it */
        snprintf(at, sizeof(at), " at T%.0f/Q%.0f", result_num(o, "threads", 0),
                 result_num(o, "depth", 0));
    fprintf(f, "%s: %s%s in rounds of %.3g s until steady state, %.0f rounds run\n", what,
            result_str(e, "name", "?"), at, result_num(o, "round_s", 0),
            result_num(o, "rounds_run", 0));
    if (!result_get(o, "steady_state")) {
        fprintf(f, "(not finished)\n");
        return;
    }
    convergence(f, o);
    determination(f, o);
}

/* One sample row of an XSR group or HIR baseline: time, IOPS, MB/s, ART. */
static void series_row(FILE *f, const cJSON *s, const cJSON *row, const char *seg)
{
    int it = result_field_index(s, "t_s"), ii = result_field_index(s, "iops"),
        im = result_field_index(s, "mbps"), il = result_field_index(s, "lat_mean_ns");
    char l[32];
    lat(l, sizeof(l), result_at_num(row, il, 0));
    fprintf(f, "  %10.4f %10.0f %10.1f %12s  %s\n", result_at_num(row, it, 0) / 60,
            result_at_num(row, ii, 0), result_at_num(row, im, 0), l, seg);
}

static void hir(FILE *f, const cJSON *t)
{
    ss_rounds(f, "Pre-writes", result_get(t, "prewrite"));
    fprintf(f, "Wait states: bursts of %.3g s RND 4KiB 0/100 at T%.0f/Q%.0f, %.0f per wait state, "
               "each followed by its idle; then %.3g s of continuous writes (return to baseline)\n",
            result_num(t, "burst_s", 0), result_num(t, "threads", 0), result_num(t, "depth", 0),
            result_num(t, "reps", 0), result_num(t, "baseline_s", 0));
    fprintf(f, "  %-10s %8s %7s %12s %10s %10s %14s\n", "wait state", "idle (s)", "bursts",
            "burst IOPS", "min", "max", "baseline IOPS");
    const cJSON *ws;
    cJSON_ArrayForEach(ws, result_get(t, "wait_states")) {
        double mn = 0, mx = 0;
        int n = 0;
        const cJSON *b;
        cJSON_ArrayForEach(b, result_get(ws, "bursts")) {
            double v = result_num(b, "iops", 0);
            if (!n || v < mn)
                mn = v;
            if (!n || v > mx)
                mx = v;
            n++;
        }
        const cJSON *bl = result_get(result_get(ws, "baseline"), "figures");
        char bv[24] = "-";
        if (bl)
            snprintf(bv, sizeof(bv), "%.0f", result_num(bl, "iops", 0));
        char wn[16];
        snprintf(wn, sizeof(wn), "%.0f", result_num(ws, "wait_state", 0));
        fprintf(f, "  %-10s %8.3g %7d %12.0f %10.0f %10.0f %14s\n", wn, result_num(ws, "wait_s", 0), n,
                result_num(ws, "burst_iops_mean", 0), mn, mx, bv);
    }
    fprintf(f, "IOPS vs time (minutes from the first burst; every burst, every baseline sample)\n"
               "  %10s %10s %10s %12s  %s\n", "time (min)", "IOPS", "MB/s", "avg latency", "segment");
    cJSON_ArrayForEach(ws, result_get(t, "wait_states")) {
        char seg[48];
        snprintf(seg, sizeof(seg), "wait state %.0f (%.3g s idle)", result_num(ws, "wait_state", 0),
                 result_num(ws, "wait_s", 0));
        const cJSON *b;
        cJSON_ArrayForEach(b, result_get(ws, "bursts")) {
            char l[32];
            lat(l, sizeof(l), result_num(b, "lat_mean_ns", 0));
            fprintf(f, "  %10.4f %10.0f %10.1f %12s  %s\n", result_num(b, "t_s", 0) / 60,
                    result_num(b, "iops", 0), result_num(b, "mbps", 0), l, seg);
        }
        const cJSON *s = result_get(result_get(ws, "baseline"), "samples"), *row;
        snprintf(seg, sizeof(seg), "baseline after wait state %.0f", result_num(ws, "wait_state", 0));
        cJSON_ArrayForEach(row, result_get(s, "rows"))
            series_row(f, s, row, seg);
    }
}

static void xsr(FILE *f, const cJSON *t)
{
    fprintf(f, "Access groups at T%.0f/Q%.0f, one after the other with no idle, sampled every %.3g s\n",
            result_num(t, "threads", 0), result_num(t, "depth", 0), result_num(t, "sample_s", 0));
    fprintf(f, "  %-5s %-18s %10s %10s %10s %12s %12s\n", "group", "stimulus", "time (s)", "MB/s",
            "IOPS", "ART", "MRT");
    const cJSON *g;
    cJSON_ArrayForEach(g, result_get(t, "groups")) {
        char st[32], bn[16], a[32], m[32];
        bs_name(result_num(g, "block_size", 0), bn, sizeof(bn));
        snprintf(st, sizeof(st), "%s %s 0/100", result_str(g, "access", "?"), bn);
        const cJSON *fg = result_get(g, "figures");
        lat(a, sizeof(a), result_num(fg, "lat_mean_ns", 0));
        lat(m, sizeof(m), result_num(fg, "lat_max_ns", 0));
        fprintf(f, "  %-5s %-18s %10.3g %10.1f %10.0f %12s %12s\n", result_str(g, "group", "?"), st,
                result_num(fg, "elapsed_s", 0), result_num(fg, "mbps", 0), result_num(fg, "iops", 0),
                a, m);
    }
    const cJSON *rc = result_get(t, "recovery");
    if (rc && cJSON_IsTrue(result_get(rc, "recovered")))
        fprintf(f, "Recovery time: %.4g s (%.4g min) until AG3 reached AG1's %.1f MB/s\n",
                result_num(rc, "time_s", 0), result_num(rc, "time_s", 0) / 60,
                result_num(rc, "ag1_mbps", 0));
    else if (rc)
        fprintf(f, "Recovery time: not recovered (AG3 never reached AG1's %.1f MB/s)\n",
                result_num(rc, "ag1_mbps", 0));
    fprintf(f, "TP, IOPS and ART vs time (minutes from AG1's start)\n"
               "  %10s %10s %10s %12s  %s\n", "time (min)", "IOPS", "MB/s", "avg latency", "group");
    cJSON_ArrayForEach(g, result_get(t, "groups")) {
        const cJSON *s = result_get(g, "samples"), *row;
        cJSON_ArrayForEach(row, result_get(s, "rows"))
            series_row(f, s, row, result_str(g, "group", "?"));
    }
}

static void recovery_page(FILE *f, const cJSON *t)
{
    if (!strcmp(result_str(t, "test", ""), "hir"))
        hir(f, t);
    else
        xsr(f, t);
}

/* A TC x QD table of one figure of the window table. */
static void di_grid(FILE *f, const cJSON *t, const char *key, const char *title)
{
    const cJSON *g = result_get(result_get(t, "stimulus"), "grid");
    const cJSON *tcs = result_get(g, "threads"), *qds = result_get(g, "depths");
    fprintf(f, "%s (average of the measurement window)\n  %-6s", title, "TC\\QD");
    for (int q = 0; q < cJSON_GetArraySize(qds); q++)
        fprintf(f, " %10.0f", result_at_num(qds, q, 0));
    fprintf(f, "\n");
    int ne = cJSON_GetArraySize(result_get(t, "elements"));
    for (int a = 0; a < cJSON_GetArraySize(tcs); a++) {
        double tc = result_at_num(tcs, a, 0);
        fprintf(f, "  %-6.0f", tc);
        for (int q = 0; q < cJSON_GetArraySize(qds); q++) {
            char v[32] = "-";
            for (int i = 0; i < ne; i++)
                if (result_num(element(t, i), "threads", 0) == tc &&
                    result_num(element(t, i), "depth", 0) == result_at_num(qds, q, 0))
                    value(v, sizeof(v), key, result_num(cJSON_GetArrayItem(result_get(t, "table"), i), key, 0));
            fprintf(f, " %10s", v);
        }
        fprintf(f, "\n");
    }
}

static void di_histogram(FILE *f, const cJSON *l)
{
    struct hist h;
    char e[128];
    if (result_hist_from_json(result_get(l, "histogram"), &h, e, sizeof(e)) < 0 || !h.n)
        return;
    uint64_t b[40];
    unsigned n = hist_log2_buckets(&h, 1000, b, 40);
    fprintf(f, "    response-time histogram (us, log2 bins):\n");
    for (unsigned i = 0; i < n; i++) {
        if (!b[i])
            continue;
        char r[48];
        if (i == 0)
            snprintf(r, sizeof(r), "[0, 1)");
        else
            snprintf(r, sizeof(r), "[%llu, %llu)", 1ull << (i - 1), 1ull << i);
        int bar = (int)(50.0 * (double)b[i] / (double)h.n + 0.5);
        fprintf(f, "    %18s %10llu %6.2f%% %.*s\n", r, (unsigned long long)b[i],
                100.0 * (double)b[i] / (double)h.n, bar,
                "##################################################");
    }
}

static void di_page(FILE *f, const cJSON *t)
{
    const cJSON *st = result_get(t, "stimulus");
    if (cJSON_IsTrue(result_get(st, "composite"))) {
        fprintf(f, "Stimulus: CBW composite, R/W %.0f/%.0f, blockalign %.0f; block sizes:",
                result_num(st, "read_pct", 0), 100 - result_num(st, "read_pct", 0),
                result_num(st, "blockalign", 0));
        const cJSON *b;
        cJSON_ArrayForEach(b, result_get(st, "block_sizes")) {
            char bn[16];
            bs_name(result_num(b, "block_size", 0), bn, sizeof(bn));
            fprintf(f, " %s %g%%", bn, result_num(b, "pct", 0));
        }
        fprintf(f, "; access:");
        cJSON_ArrayForEach(b, result_get(st, "zones"))
            fprintf(f, " %g%% of I/Os to %g%% of the range", result_num(b, "access_pct", 0),
                    result_num(b, "range_pct", 0));
        fprintf(f, "\n");
    } else {
        char bn[16];
        bs_name(result_num(st, "block_size", 0), bn, sizeof(bn));
        fprintf(f, "Stimulus: RND %s, R/W %.0f/%.0f\n", bn, result_num(st, "read_pct", 0),
                100 - result_num(st, "read_pct", 0));
    }
    ss_rounds(f, "Preconditioning", result_get(t, "precondition"));
    fprintf(f, "Demand variation: each round a %.3g s pre-write at the largest TC/QD, then %d TC x QD "
               "points of %.3g s, %.0f rounds run\n",
            result_num(t, "round_prewrite_s", 0), cJSON_GetArraySize(result_get(t, "elements")),
            result_num(t, "element_s", 0), result_num(t, "rounds_run", 0));
    if (!result_get(t, "steady_state")) {
        fprintf(f, "(not finished)\n");
        return;
    }
    fprintf(f, "Between-round pre-writes (IOPS):");
    const cJSON *rd;
    cJSON_ArrayForEach(rd, result_get(t, "rounds"))
        fprintf(f, " r%.0f %.0f", result_num(rd, "round", 0),
                result_num(result_get(rd, "prewrite"), "iops", 0));
    fprintf(f, "\n");
    convergence(f, t);
    determination(f, t);
    di_grid(f, t, "iops", "Demand variation: IOPS");
    di_grid(f, t, "lat_mean_ns", "Demand intensity: average response time");
    fprintf(f, "Demand intensity: ART vs IOPS (window averages)\n  %-12s %10s %12s %12s\n", "TC/QD",
            "IOPS", "ART", "total OIO");
    const cJSON *row;
    cJSON_ArrayForEach(row, result_get(t, "table")) {
        const cJSON *e = element(t, pts_el_num(row, 0));
        char q[24], a[32];
        snprintf(q, sizeof(q), "T%.0f/Q%.0f", result_num(e, "threads", 0), result_num(e, "depth", 0));
        lat(a, sizeof(a), result_num(row, "lat_mean_ns", 0));
        fprintf(f, "  %-12s %10.0f %12s %12.0f\n", q, result_num(row, "iops", 0), a,
                result_num(e, "threads", 0) * result_num(e, "depth", 0));
    }
    char lim[32];
    lat(lim, sizeof(lim), result_num(st, "art_limit_ns", 0));
    fprintf(f, "Selected points (MaxIOPS: highest IOPS with ART < %s%s); pre-writes of %.3g s, "
               "captures of %.3g s\n",
            lim, cJSON_IsFalse(result_get(t, "max_under_limit")) ? "; none under it: the lowest ART" : "",
            result_num(t, "point_prewrite_s", 0), result_num(t, "capture_s", 0));
    fprintf(f, "  %-6s %-10s %10s %10s %10s %12s %12s %12s %12s\n", "point", "TC/QD", "DV IOPS",
            "IOPS", "ART", "99%", "99.99%", "99.999%", "maximum");
    const cJSON *pt;
    cJSON_ArrayForEach(pt, result_get(t, "points")) {
        const cJSON *c = result_get(pt, "capture"), *l = result_get(c, "latency_ns"), *pc = result_get(l, "percentiles");
        char q[24], a[32], p1[32], p2[32], p3[32], m[32];
        snprintf(q, sizeof(q), "T%.0f/Q%.0f", result_num(pt, "threads", 0), result_num(pt, "depth", 0));
        lat(a, sizeof(a), result_num(c, "lat_mean_ns", 0));
        lat(p1, sizeof(p1), result_num(pc, "99", 0));
        lat(p2, sizeof(p2), result_num(pc, "99.99", 0));
        lat(p3, sizeof(p3), result_num(pc, "99.999", 0));
        lat(m, sizeof(m), result_num(l, "max", 0));
        fprintf(f, "  %-6s %-10s %10.0f %10.0f %10s %12s %12s %12s %12s\n",
                result_str(pt, "point", "?"), q, result_num(pt, "iops", 0), result_num(c, "iops", 0),
                a, p1, p2, p3, m);
    }
    cJSON_ArrayForEach(pt, result_get(t, "points")) {
        const cJSON *c = result_get(pt, "capture");
        fprintf(f, "  %s point T%.0f/Q%.0f: pre-write %.0f IOPS; capture %.0f I/Os\n",
                result_str(pt, "point", "?"), result_num(pt, "threads", 0), result_num(pt, "depth", 0),
                result_num(result_get(pt, "prewrite"), "iops", 0), result_num(c, "ios", 0));
        di_histogram(f, result_get(c, "latency_ns"));
    }
}
