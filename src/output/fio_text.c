/* fio_text.c - fio's normal and terse output (see fio_text.h), written from
 * the fio-shaped document of fio_json.c, so that every figure in the text is
 * the one the JSON carries, in fio 3.33's layout: stat.c's
 * show_thread_status_normal, show_group_stats and show_disk_util for the
 * normal output, show_thread_status_terse_all (version 3) for the terse. */
#include "output/fio_text.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "output/fio_json.h"
#include "output/fio_json_int.h"
#include "output/fio_text_fmt.h"
#include "result/result_read.h"

/* fio's defaults: percentile_precision, sig_figs, kb_base */
#define PCT_PRECISION 2
#define SIG_FIGS 4
/* fio's terse lines have room for this many percentiles */
#define TERSE_PCTS 20

static const char *const dir_names[DIR_COUNT] = {"read", "write", "trim"};

static uint64_t jnum_u64(const cJSON *o, const char *key)
{
    return (uint64_t)result_num_in(o, key, 0, RESULT_U64_MAX, 0);
}

static double jnum(const cJSON *o, const char *key)
{
    return result_num(o, key, 0);
}

static const cJSON *jobj(const cJSON *o, const char *key)
{
    return cJSON_GetObjectItemCaseSensitive(o, key);
}

/* fio's default percentile_list; ssdbench's default adds 99.999 and
 * 99.9999 to it. */
static const double fio_default_pcts[] = {1, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 99, 99.5, 99.9, 99.95, 99.99};
#define FIO_NDEFAULT (sizeof(fio_default_pcts) / sizeof(fio_default_pcts[0]))

/* The percentiles of a latency object, ascending (keys "%f" -> ns). The
 * list of a job that kept ssdbench's default is shown as fio's default
 * (the two extra tail percentiles left out), so the rows are fio's. */
static unsigned lat_pcts(const cJSON *lat, double *pct, uint64_t *val, unsigned max)
{
    unsigned n = 0;
    const cJSON *k;
    cJSON_ArrayForEach(k, jobj(lat, "percentile"))
    {
        if (n >= max || !k->string)
            break;
        pct[n] = strtod(k->string, NULL);
        val[n] = (uint64_t)result_value_num(k, 0);
        n++;
    }
    if (n == FIO_NDEFAULT + 2 && fabs(pct[n - 2] - 99.999) < 1e-9 && fabs(pct[n - 1] - 99.9999) < 1e-9) {
        bool same = true;
        for (unsigned i = 0; i < FIO_NDEFAULT; i++)
            same = same && fabs(pct[i] - fio_default_pcts[i]) < 1e-9;
        if (same)
            n = FIO_NDEFAULT;
    }
    return n;
}

/* ---- reporting groups (fio's group_run_stats) ---- */

struct group_rs {
    int id;
    uint64_t iobytes[DIR_COUNT], min_run[DIR_COUNT], max_run[DIR_COUNT];
    uint64_t min_bw[DIR_COUNT], max_bw[DIR_COUNT], agg[DIR_COUNT];
};

#define MAX_GROUPS 256

struct groups {
    unsigned n;
    struct group_rs g[MAX_GROUPS];
};

static struct group_rs *group_of(struct groups *gs, int id)
{
    for (unsigned i = 0; i < gs->n; i++)
        if (gs->g[i].id == id)
            return &gs->g[i];
    if (gs->n >= MAX_GROUPS)
        return NULL;
    struct group_rs *g = &gs->g[gs->n++];
    memset(g, 0, sizeof(*g));
    g->id = id;
    for (int d = 0; d < DIR_COUNT; d++)
        g->min_bw[d] = UINT64_MAX;
    return g;
}

static void groups_build(const cJSON *jobs, struct groups *gs)
{
    gs->n = 0;
    const cJSON *j;
    cJSON_ArrayForEach(j, jobs)
    {
        struct group_rs *g = group_of(gs, (int)result_num_in(j, "groupid", INT_MIN, INT_MAX, 0));
        if (!g)
            continue;
        for (int d = 0; d < DIR_COUNT; d++) {
            const cJSON *dj = jobj(j, dir_names[d]);
            uint64_t run = jnum_u64(dj, "runtime"), bytes = jnum_u64(dj, "io_bytes");
            if (!run)
                continue;
            if (!g->min_run[d] || run < g->min_run[d])
                g->min_run[d] = run;
            if (run > g->max_run[d])
                g->max_run[d] = run;
            uint64_t bw = bytes * 1000 / run;
            if (bw < g->min_bw[d])
                g->min_bw[d] = bw;
            if (bw > g->max_bw[d])
                g->max_bw[d] = bw;
            g->iobytes[d] += bytes;
        }
    }
    for (unsigned i = 0; i < gs->n; i++)
        for (int d = 0; d < DIR_COUNT; d++)
            if (gs->g[i].max_run[d])
                gs->g[i].agg[d] = gs->g[i].iobytes[d] * 1000 / gs->g[i].max_run[d];
}

static const struct group_rs *group_find(const struct groups *gs, const cJSON *job)
{
    int id = (int)result_num_in(job, "groupid", INT_MIN, INT_MAX, 0);
    for (unsigned i = 0; i < gs->n; i++)
        if (gs->g[i].id == id)
            return &gs->g[i];
    return NULL;
}

/* ---- the normal output ---- */

static void bs_range(const cJSON *params, int d, char *lo, char *hi, size_t len)
{
    double mn = result_num(params, "bs", 0), mx = mn;
    if (!jobj(params, "bs")) {
        const cJSON *e;
        mn = 0;
        mx = 0;
        cJSON_ArrayForEach(e, jobj(jobj(params, "bssplit"), dir_names[d]))
        {
            double b = result_at_num(e, 0, 0);
            if (mn == 0 || b < mn)
                mn = b;
            if (b > mx)
                mx = b;
        }
    }
    fio_num2str(lo, len, (uint64_t)mn, SIG_FIGS, 1, true, FIO_N2S_BYTE);
    fio_num2str(hi, len, (uint64_t)mx, SIG_FIGS, 1, true, FIO_N2S_BYTE);
}

/* What fio prints while it sets jobs up: one line per job (clones after the
 * first as "..."), its version, how many workers it starts, and the files
 * each clone lays out (created or grown). */
static void preamble(FILE *f, const cJSON *doc)
{
    unsigned workers = 0, threads = 0;
    const cJSON *phase, *job;
    cJSON_ArrayForEach(phase, jobj(doc, "phases"))
    {
        cJSON_ArrayForEach(job, jobj(phase, "jobs"))
        {
            const cJSON *p = jobj(job, "params");
            char r0[32], r1[32], w0[32], w1[32], t0[32], t1[32];
            bs_range(p, 0, r0, r1, sizeof(r0));
            bs_range(p, 1, w0, w1, sizeof(w0));
            /* the trim sizes are stored for jobs that trim */
            bs_range(p, jobj(jobj(p, "bssplit"), "trim") ? DIR_TRIM : DIR_WRITE, t0, t1, sizeof(t0));
            /* fio prints no such line for its engines that move no bytes
             * (FIO_NOIO: cpuio, exec) */
            const char *eng = result_str(p, "engine", "psync");
            if (strcmp(eng, "cpuio") && strcmp(eng, "exec"))
                fprintf(f, "%s: (g=%d): rw=%s, bs=(R) %s-%s, (W) %s-%s, (T) %s-%s, ioengine=%s, iodepth=%u\n",
                        result_str(job, "name", "job"), (int)result_num_in(job, "group", INT_MIN, INT_MAX, 0),
                        result_str(p, "rw", "read"), r0, r1, w0, w1, t0, t1, eng,
                        (unsigned)result_num_in(p, "iodepth", 0, UINT_MAX, 1));
            /* fio's clones (older results: the workers) */
            unsigned nw = (unsigned)result_num_in(job, "workers", 0, 1e6, 1);
            unsigned nc = (unsigned)result_num_in(p, "clones", 0, 1e6, nw);
            if (nc > 1)
                fputs("...\n", f);
            workers += nc;
            if (cJSON_IsTrue(jobj(p, "thread")))
                threads += nc;
        }
    }
    const char *ver = result_str(jobj(doc, "tool"), "version", "?");
    fprintf(f, "%s-compatible (ssdbench %s)\n", FIO_JSON_COMPAT, ver);
    /* fio's words: thread=1 jobs are threads, the others processes */
    unsigned procs = workers - threads;
    fputs("Starting ", f);
    if (threads)
        fprintf(f, "%u thread%s", threads, threads > 1 ? "s" : "");
    if (procs || !threads)
        fprintf(f, "%s%u process%s", threads ? " and " : "", procs, procs > 1 ? "es" : "");
    fputc('\n', f);
    /* fio's layout lines: per clone, the files it created or grew */
    cJSON_ArrayForEach(phase, jobj(doc, "phases"))
    {
        cJSON_ArrayForEach(job, jobj(phase, "jobs"))
        {
            const cJSON *lo = jobj(job, "laid_out");
            unsigned n = (unsigned)result_num_in(lo, "files", 0, 1e9, 0);
            uint64_t bytes = jnum_u64(lo, "bytes");
            unsigned nc = (unsigned)result_num_in(jobj(job, "params"), "clones", 1, 1e6, 1);
            if (!n)
                continue;
            if (n % nc)
                nc = 1;
            for (unsigned c = 0; c < nc; c++) {
                unsigned k = n / nc;
                fprintf(f, "%s: Laying out IO file%s (%u file%s / %s%" PRIu64 "MiB)\n", result_str(job, "name", "job"),
                        k > 1 ? "s" : "", k, k > 1 ? "s" : "", k > 1 ? "total " : "", (bytes / nc) >> 20);
            }
        }
    }
}

static void ddir_status(FILE *f, const cJSON *job, int d, const struct group_rs *rs)
{
    const cJSON *dj = jobj(job, dir_names[d]);
    uint64_t runt = jnum_u64(dj, "runtime"), bytes = jnum_u64(dj, "io_bytes");
    if (!runt)
        return;
    char io[32], bw[32], bwalt[32], iops[32];
    uint64_t bwv = 1000 * bytes / runt;
    fio_num2str(io, sizeof(io), bytes, SIG_FIGS, 1, true, FIO_N2S_BYTE);
    fio_num2str(bw, sizeof(bw), bwv, SIG_FIGS, 1, true, FIO_N2S_BYTEPERSEC);
    fio_num2str(bwalt, sizeof(bwalt), bwv, SIG_FIGS, 1, false, FIO_N2S_BYTEPERSEC);
    fio_num2str(iops, sizeof(iops), 1000 * jnum_u64(dj, "total_ios") / runt, SIG_FIGS, 1, false, FIO_N2S_NONE);
    char resets[48] = "";
    if (d == DIR_WRITE)
        snprintf(resets, sizeof(resets), "; %" PRIu64 " zone resets", jnum_u64(job, FIO_JSON_ZONE_RESETS_KEY));
    fprintf(f, "  %s: IOPS=%s, BW=%s (%s)(%s/%" PRIu64 "msec)%s\n", dir_names[d], iops, bw, bwalt, io, runt, resets);
    static const char *const lats[3][2] = {{"slat_ns", "slat"}, {"clat_ns", "clat"}, {"lat_ns", " lat"}};
    for (int i = 0; i < 3; i++) {
        const cJSON *l = jobj(dj, lats[i][0]);
        if (jnum(l, "N") > 0)
            fio_text_lat_line(f, lats[i][1], jnum_u64(l, "min"), jnum_u64(l, "max"), jnum(l, "mean"),
                              jnum(l, "stddev"));
    }
    /* fio's cmdprio: each priority's latency ("clat prio 1/0", or "lat
     * prio" with lat_percentiles) */
    const cJSON *prios = jobj(dj, "prios");
    const cJSON *pe;
    cJSON_ArrayForEach(pe, prios)
    {
        bool total = jobj(pe, "lat_ns") != NULL;
        const cJSON *l = jobj(pe, total ? "lat_ns" : "clat_ns");
        char name[64];
        snprintf(name, sizeof(name), "%s prio %u/%u", total ? "lat" : "clat", (unsigned)jnum(pe, "prioclass"),
                 (unsigned)jnum(pe, "prio"));
        if (jnum(l, "N") > 0)
            fio_text_lat_line(f, name, jnum_u64(l, "min"), jnum_u64(l, "max"), jnum(l, "mean"), jnum(l, "stddev"));
    }
    double pct[FIO_JSON_PCT_MAX];
    uint64_t val[FIO_JSON_PCT_MAX];
    /* fio: slat, clat, lat percentiles, each where its *_percentiles put them */
    for (int i = 0; i < 3; i++) {
        const cJSON *l = jobj(dj, lats[i][0]);
        unsigned np = jnum(l, "N") > 0 ? lat_pcts(l, pct, val, FIO_JSON_PCT_MAX) : 0;
        if (np)
            fio_text_pct_block(f, i == 2 ? "lat" : lats[i][1], pct, val, np, PCT_PRECISION);
    }
    cJSON_ArrayForEach(pe, prios)
    {
        bool total = jobj(pe, "lat_ns") != NULL;
        const cJSON *l = jobj(pe, total ? "lat_ns" : "clat_ns");
        double all = jnum(jobj(dj, total ? "lat_ns" : "clat_ns"), "N");
        unsigned np = jnum(l, "N") > 0 ? lat_pcts(l, pct, val, FIO_JSON_PCT_MAX) : 0;
        char name[64];
        snprintf(name, sizeof(name), "%s prio %u/%u (%.2f%% of IOs)", total ? "lat" : "clat",
                 (unsigned)jnum(pe, "prioclass"), (unsigned)jnum(pe, "prio"),
                 all > 0 ? 100.0 * jnum(l, "N") / all : 0.0);
        if (np)
            fio_text_pct_block(f, name, pct, val, np, PCT_PRECISION);
    }
    if (jnum(dj, "bw_samples") > 0) {
        uint64_t mn = jnum_u64(dj, "bw_min"), mx = jnum_u64(dj, "bw_max");
        double mean = jnum(dj, "bw_mean"), dev = jnum(dj, "bw_dev");
        /* fio's share of the group: the mean truncated to whole KiB/s */
        double per = 100.0;
        if (rs && rs->agg[d] > 1024) {
            per = (double)(long long)mean * 100.0 / ((double)rs->agg[d] / 1024.0);
            if (per > 100.0)
                per = 100.0;
        }
        const char *unit = "KiB";
        if (mean > 1024.0 * 1024.0) {
            mn /= 1024, mx /= 1024, mean /= 1024.0, dev /= 1024.0;
            unit = "MiB";
        }
        fprintf(f, "   bw (%5s/s): min=%5" PRIu64 ", max=%5" PRIu64 ", per=%3.2f%%, avg=%5.02f, stdev=%5.02f, "
                   "samples=%" PRIu64 "\n",
                unit, mn, mx, per, mean, dev, jnum_u64(dj, "bw_samples"));
    }
    if (jnum(dj, "iops_samples") > 0)
        fprintf(f, "   iops        : min=%5" PRIu64 ", max=%5" PRIu64 ", avg=%5.02f, stdev=%5.02f, samples=%" PRIu64
                   "\n",
                jnum_u64(dj, "iops_min"), jnum_u64(dj, "iops_max"), jnum(dj, "iops_mean"), jnum(dj, "iops_stddev"),
                jnum_u64(dj, "iops_samples"));
}

static const char *const lat_ranges[] = {"2=", "4=", "10=", "20=", "50=", "100=", "250=", "500=",
                                         "750=", "1000=", "2000=", ">=2000="};
static const char *const lat_keys[] = {"2", "4", "10", "20", "50", "100", "250", "500",
                                       "750", "1000", "2000", ">=2000"};

static unsigned lat_shares(const cJSON *job, const char *key, double *out)
{
    unsigned n = strcmp(key, "latency_ms") == 0 ? 12 : 10;
    for (unsigned i = 0; i < n; i++)
        out[i] = jnum(jobj(job, key), lat_keys[i]);
    return n;
}

/* One of fio's 7-bucket depth rows ("1=%3.1f%%, ..."), from a JSON table. */
static void depth_row(FILE *f, const char *lead, const cJSON *tab, const char *const *keys)
{
    fputs(lead, f);
    for (int i = 0; i < 7; i++)
        fprintf(f, "%s%s=%3.1f%%", i ? ", " : "", keys[i], fio_text_min_share(jnum(tab, keys[i]), 0.1));
    fputc('\n', f);
}

static void job_status(FILE *f, const cJSON *job, const struct groups *gs, long pid, const char *when)
{
    const cJSON *r = jobj(job, "read"), *w = jobj(job, "write"), *t = jobj(job, "trim");
    if (jnum(r, "io_bytes") + jnum(w, "io_bytes") + jnum(t, "io_bytes") + jnum(r, "total_ios") +
            jnum(w, "total_ios") + jnum(t, "total_ios") == 0)
        return;
    int err = (int)result_num_in(job, "error", INT_MIN, INT_MAX, 0);
    unsigned members = (unsigned)result_num_in(job, FIO_JSON_MEMBERS_KEY, 0, 1e6, 1);
    fprintf(f, "%s: (groupid=%d, jobs=%u): err=%2d", result_str(job, "jobname", "job"),
            (int)result_num_in(job, "groupid", INT_MIN, INT_MAX, 0), members, err);
    if (err)
        fprintf(f, " (%s)", strerror(err));
    fprintf(f, ": pid=%ld: %s\n", pid, when);
    const char *desc = result_str(job, "desc", "");
    if (*desc)
        fprintf(f, "  Description  : [%s]\n", desc);
    const struct group_rs *rs = group_find(gs, job);
    for (int d = 0; d < DIR_COUNT; d++)
        if (jnum(jobj(job, dir_names[d]), "io_bytes") > 0)
            ddir_status(f, job, d, rs);
    double sh[12];
    static const char *const lkeys[3] = {"latency_ns", "latency_us", "latency_ms"};
    static const char *const lunits[3] = {"nsec", "usec", "msec"};
    for (int u = 0; u < 3; u++) {
        unsigned n = lat_shares(job, lkeys[u], sh);
        fio_text_lat_dist(f, lunits[u], lat_ranges, sh, n);
    }
    const cJSON *sy = jobj(job, "sync");
    const cJSON *sl = jobj(sy, "lat_ns");
    if (jnum(sl, "N") > 0) {
        fputs("  fsync/fdatasync/sync_file_range:\n", f);
        fio_text_lat_line(f, "sync", jnum_u64(sl, "min"), jnum_u64(sl, "max"), jnum(sl, "mean"), jnum(sl, "stddev"));
        double pct[FIO_JSON_PCT_MAX];
        uint64_t val[FIO_JSON_PCT_MAX];
        fio_text_pct_block(f, "sync", pct, val, lat_pcts(sl, pct, val, FIO_JSON_PCT_MAX), PCT_PRECISION);
    }
    fprintf(f, "  cpu          : usr=%3.2f%%, sys=%3.2f%%, ctx=%" PRIu64 ", majf=%" PRIu64 ", minf=%" PRIu64 "\n",
            jnum(job, "usr_cpu"), jnum(job, "sys_cpu"), jnum_u64(job, "ctx"), jnum_u64(job, "majf"),
            jnum_u64(job, "minf"));
    static const char *const lv[7] = {"1", "2", "4", "8", "16", "32", ">=64"};
    static const char *const sc[7] = {"0", "4", "8", "16", "32", "64", ">=64"};
    depth_row(f, "  IO depths    : ", jobj(job, "iodepth_level"), lv);
    depth_row(f, "     submit    : ", jobj(job, "iodepth_submit"), sc);
    depth_row(f, "     complete  : ", jobj(job, "iodepth_complete"), sc);
    fprintf(f, "     issued rwts: total=%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",0 short=%" PRIu64 ",%" PRIu64 ",%" PRIu64
               ",0 dropped=%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",0\n",
            jnum_u64(r, "total_ios"), jnum_u64(w, "total_ios"), jnum_u64(t, "total_ios"), jnum_u64(r, "short_ios"),
            jnum_u64(w, "short_ios"), jnum_u64(t, "short_ios"), jnum_u64(r, "drop_ios"), jnum_u64(w, "drop_ios"),
            jnum_u64(t, "drop_ios"));
    if (cJSON_GetObjectItemCaseSensitive(job, "total_err")) { /* continue_on_error */
        int fe = (int)result_num_in(job, "first_error", INT_MIN, INT_MAX, 0);
        fprintf(f, "     errors    : total=%" PRIu64 ", first_error=%d/<%s>\n", jnum_u64(job, "total_err"), fe,
                strerror(fe));
    }
    if (jnum(job, "latency_depth") > 0)
        fprintf(f, "     latency   : target=%" PRIu64 ", window=%" PRIu64 ", percentile=%.2f%%, depth=%u\n",
                jnum_u64(job, "latency_target"), jnum_u64(job, "latency_window"), jnum(job, "latency_percentile"),
                (unsigned)result_num_in(job, "latency_depth", 0, UINT_MAX, 0));
}

static void group_status(FILE *f, const struct group_rs *g)
{
    static const char *const str[DIR_COUNT] = {"   READ", "  WRITE", "   TRIM"};
    fprintf(f, "\nRun status group %d (all jobs):\n", g->id);
    for (int d = 0; d < DIR_COUNT; d++) {
        if (!g->max_run[d])
            continue;
        char io[32], ioalt[32], agg[32], aggalt[32], mn[32], mnalt[32], mx[32], mxalt[32];
        fio_num2str(io, sizeof(io), g->iobytes[d], SIG_FIGS, 1, true, FIO_N2S_BYTE);
        fio_num2str(ioalt, sizeof(ioalt), g->iobytes[d], SIG_FIGS, 1, false, FIO_N2S_BYTE);
        fio_num2str(agg, sizeof(agg), g->agg[d], SIG_FIGS, 1, true, FIO_N2S_BYTEPERSEC);
        fio_num2str(aggalt, sizeof(aggalt), g->agg[d], SIG_FIGS, 1, false, FIO_N2S_BYTEPERSEC);
        fio_num2str(mn, sizeof(mn), g->min_bw[d], SIG_FIGS, 1, true, FIO_N2S_BYTEPERSEC);
        fio_num2str(mnalt, sizeof(mnalt), g->min_bw[d], SIG_FIGS, 1, false, FIO_N2S_BYTEPERSEC);
        fio_num2str(mx, sizeof(mx), g->max_bw[d], SIG_FIGS, 1, true, FIO_N2S_BYTEPERSEC);
        fio_num2str(mxalt, sizeof(mxalt), g->max_bw[d], SIG_FIGS, 1, false, FIO_N2S_BYTEPERSEC);
        fprintf(f, "%s: bw=%s (%s), %s-%s (%s-%s), io=%s (%s), run=%" PRIu64 "-%" PRIu64 "msec\n", str[d], agg,
                aggalt, mn, mx, mnalt, mxalt, io, ioalt, g->min_run[d], g->max_run[d]);
    }
}

static void disk_line(FILE *f, const cJSON *du, bool terse)
{
    const char *fmt = terse ? ";%s;%" PRIu64 ";%" PRIu64 ";%" PRIu64 ";%" PRIu64 ";%" PRIu64 ";%" PRIu64 ";%" PRIu64
                              ";%3.2f%%"
                            : "  %s: ios=%" PRIu64 "/%" PRIu64 ", merge=%" PRIu64 "/%" PRIu64 ", ticks=%" PRIu64
                              "/%" PRIu64 ", in_queue=%" PRIu64 ", util=%3.2f%%\n";
    fprintf(f, fmt, result_str(du, "name", "?"), jnum_u64(du, "read_ios"), jnum_u64(du, "write_ios"),
            jnum_u64(du, "read_merges"), jnum_u64(du, "write_merges"), jnum_u64(du, "read_ticks"),
            jnum_u64(du, "write_ticks"), jnum_u64(du, "in_queue"), jnum(du, "util"));
}

/* fio's report time (ctime without its newline): the end of the run. */
static void report_time(const cJSON *fj, char *buf, size_t len)
{
    time_t t = (time_t)result_num(fj, "timestamp", 0);
    struct tm tm;
    buf[0] = 0;
    if (localtime_r(&t, &tm))
        strftime(buf, len, "%a %b %e %H:%M:%S %Y", &tm);
}

static int finish(FILE *f, cJSON *fj, char *err, size_t errlen, const char *what)
{
    cJSON_Delete(fj);
    if (fflush(f) != 0 || ferror(f)) {
        snprintf(err, errlen, "cannot write fio's %s output: %s", what, strerror(errno));
        return -EIO;
    }
    return 0;
}

static cJSON *build(const cJSON *doc, char *err, size_t errlen, int *rc)
{
    snprintf(err, errlen, "out of memory");
    cJSON *fj = fio_json_build_text(doc, err, errlen);
    if (!fj)
        *rc = strcmp(err, "out of memory") == 0 ? -ENOMEM : -EINVAL;
    return fj;
}

/* build, and fio's reporting groups of its jobs in *gs (the caller frees
 * both); NULL with *rc and err set. */
static cJSON *build_grouped(const cJSON *doc, char *err, size_t errlen, int *rc, struct groups **gs)
{
    cJSON *fj = build(doc, err, errlen, rc);
    if (!fj)
        return NULL;
    *gs = malloc(sizeof(**gs));
    if (!*gs) {
        cJSON_Delete(fj);
        snprintf(err, errlen, "out of memory");
        *rc = -ENOMEM;
        return NULL;
    }
    groups_build(jobj(fj, "jobs"), *gs);
    return fj;
}

int render_fio_normal(FILE *f, const cJSON *doc, char *err, size_t errlen)
{
    int rc = 0;
    struct groups *gs;
    cJSON *fj = build_grouped(doc, err, errlen, &rc, &gs);
    if (!fj)
        return rc;
    const cJSON *jobs = jobj(fj, "jobs");
    long pid = (long)result_num_in(jobj(doc, "tool"), "pid", 0, INT_MAX, 0);
    char when[64];
    report_time(fj, when, sizeof(when));
    preamble(f, doc);
    fputc('\n', f);
    const cJSON *job;
    cJSON_ArrayForEach(job, jobs)
        job_status(f, job, gs, pid, when);
    for (unsigned i = 0; i < gs->n; i++)
        group_status(f, &gs->g[i]);
    free(gs);
    const cJSON *dus = jobj(fj, "disk_util");
    if (cJSON_GetArraySize(dus) > 0) {
        fputs("\nDisk stats (read/write):\n", f);
        const cJSON *du;
        cJSON_ArrayForEach(du, dus)
            disk_line(f, du, false);
    }
    return finish(f, fj, err, errlen, "normal");
}

/* ";%llu;%llu;%f;%f" of a latency object in whole / fractional usec. */
static void terse_lat(FILE *f, const cJSON *l)
{
    if (jnum(l, "N") > 0)
        fprintf(f, ";%" PRIu64 ";%" PRIu64 ";%f;%f", jnum_u64(l, "min") / 1000, jnum_u64(l, "max") / 1000,
                jnum(l, "mean") / 1000.0, jnum(l, "stddev") / 1000.0);
    else
        fputs(";0;0;0.000000;0.000000", f);
}

static void terse_dir(FILE *f, const cJSON *job, int d, const struct group_rs *rs, unsigned ver)
{
    const cJSON *dj = jobj(job, dir_names[d]);
    uint64_t runt = jnum_u64(dj, "runtime"), bytes = jnum_u64(dj, "io_bytes");
    uint64_t bw = runt ? 1000 * bytes / runt / 1024 : 0, iops = runt ? 1000 * jnum_u64(dj, "total_ios") / runt : 0;
    fprintf(f, ";%" PRIu64 ";%" PRIu64 ";%" PRIu64 ";%" PRIu64, bytes >> 10, bw, iops, runt);
    terse_lat(f, jobj(dj, "slat_ns"));
    const cJSON *clat = jobj(dj, "clat_ns");
    terse_lat(f, clat);
    double pct[FIO_JSON_PCT_MAX];
    uint64_t val[FIO_JSON_PCT_MAX];
    /* fio: the total latency's percentiles with lat_percentiles, else clat's */
    const cJSON *lat = jobj(dj, "lat_ns");
    const cJSON *ps = cJSON_GetObjectItemCaseSensitive(lat, "percentile") ? lat : clat;
    unsigned n = jnum(ps, "N") > 0 ? lat_pcts(ps, pct, val, FIO_JSON_PCT_MAX) : 0;
    for (unsigned i = 0; i < TERSE_PCTS; i++) {
        if (i < n)
            fprintf(f, ";%f%%=%" PRIu64, pct[i], val[i] / 1000);
        else
            fputs(";0%=0", f);
    }
    terse_lat(f, jobj(dj, "lat_ns"));
    if (jnum(dj, "bw_samples") > 0) {
        double mean = jnum(dj, "bw_mean"), per = 100.0;
        if (rs && rs->agg[d]) {
            per = mean * 100.0 / (double)(rs->agg[d] / 1024);
            if (per > 100.0)
                per = 100.0;
        }
        fprintf(f, ";%" PRIu64 ";%" PRIu64 ";%f%%;%f;%f", jnum_u64(dj, "bw_min"), jnum_u64(dj, "bw_max"), per, mean,
                jnum(dj, "bw_dev"));
    } else {
        fputs(";0;0;0.000000%;0.000000;0.000000", f);
    }
    if (ver != 5)
        return;
    /* v5: the bandwidth samples' count, then the IOPS samples' figures */
    fprintf(f, ";%" PRIu64, jnum(dj, "bw_samples") > 0 ? jnum_u64(dj, "bw_samples") : 0);
    if (jnum(dj, "iops_samples") > 0)
        fprintf(f, ";%" PRIu64 ";%" PRIu64 ";%f;%f;%" PRIu64, jnum_u64(dj, "iops_min"), jnum_u64(dj, "iops_max"),
                jnum(dj, "iops_mean"), jnum(dj, "iops_stddev"), jnum_u64(dj, "iops_samples"));
    else
        fputs(";0;0;0.000000;0.000000;0", f);
}

int render_fio_terse(FILE *f, const cJSON *doc, char *err, size_t errlen)
{
    return render_fio_terse_v(f, doc, 3, err, errlen);
}

int render_fio_terse_v(FILE *f, const cJSON *doc, unsigned ver, char *err, size_t errlen)
{
    if (ver < 2 || ver > 5) {
        snprintf(err, errlen, "terse version %u: fio's versions are 2, 3, 4 and 5", ver);
        return -EINVAL;
    }
    int rc = 0;
    struct groups *gs;
    cJSON *fj = build_grouped(doc, err, errlen, &rc, &gs);
    if (!fj)
        return rc;
    const cJSON *jobs = jobj(fj, "jobs");
    const char *tool = result_str(jobj(doc, "tool"), "version", "?");
    const cJSON *job;
    cJSON_ArrayForEach(job, jobs)
    {
        if (ver == 2)
            fprintf(f, "2;%s", result_str(job, "jobname", "job"));
        else
            fprintf(f, "%u;%s-compatible (ssdbench %s);%s", ver, FIO_JSON_COMPAT, tool, result_str(job, "jobname", "job"));
        fprintf(f, ";%d;%d", (int)result_num_in(job, "groupid", INT_MIN, INT_MAX, 0),
                (int)result_num_in(job, "error", INT_MIN, INT_MAX, 0));
        const struct group_rs *rs = group_find(gs, job);
        /* terse v3 has reads and writes only (fio's v2, v4 and v5 add trims) */
        for (int d = 0; d <= (ver == 3 ? DIR_WRITE : DIR_TRIM); d++)
            terse_dir(f, job, d, rs, ver);
        fprintf(f, ";%f%%;%f%%;%" PRIu64 ";%" PRIu64 ";%" PRIu64, jnum(job, "usr_cpu"), jnum(job, "sys_cpu"),
                jnum_u64(job, "ctx"), jnum_u64(job, "majf"), jnum_u64(job, "minf"));
        static const char *const lv[7] = {"1", "2", "4", "8", "16", "32", ">=64"};
        for (int i = 0; i < 7; i++)
            fprintf(f, ";%3.1f%%", fio_text_min_share(jnum(jobj(job, "iodepth_level"), lv[i]), 0.1));
        /* fio adds the nsec buckets into the first usec bucket here */
        double us[12], ns[12], ms[12];
        lat_shares(job, "latency_us", us);
        lat_shares(job, "latency_ns", ns);
        for (int i = 0; i < 10; i++)
            us[0] += ns[i];
        for (int i = 0; i < 10; i++)
            fprintf(f, ";%3.2f%%", fio_text_min_share(us[i], 0.01));
        lat_shares(job, "latency_ms", ms);
        for (int i = 0; i < 12; i++)
            fprintf(f, ";%3.2f%%", fio_text_min_share(ms[i], 0.01));
        const cJSON *du;
        if (ver >= 3) /* fio: no disk fields in v2 */
            cJSON_ArrayForEach(du, jobj(fj, "disk_util"))
                disk_line(f, du, true);
        if (cJSON_GetObjectItemCaseSensitive(job, "total_err")) /* continue_on_error */
            fprintf(f, ";%" PRIu64 ";%d", jnum_u64(job, "total_err"),
                    (int)result_num_in(job, "first_error", INT_MIN, INT_MAX, 0));
        const char *desc = result_str(job, "desc", "");
        if (*desc)
            fprintf(f, "%s;%s", ver == 2 ? "\n" : "", desc);
        fputc('\n', f);
    }
    free(gs);
    return finish(f, fj, err, errlen, "terse");
}
