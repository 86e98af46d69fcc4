/* sysbench_text.c - sysbench fileio 1.0.20's text layout (see
 * sysbench_text.h). Format strings are sysbench's own, character for
 * character, as printed by the Debian 12 binary (1.0.20+ds-5). */
#include "output/sysbench_text.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <string.h>

#include "base/sizefmt.h"
#include "result/result_read.h"
#include "result/result_schema.h"

static const cJSON *obj(const cJSON *o, const char *k)
{
    return cJSON_GetObjectItemCaseSensitive(o, k);
}

static bool has_flag(const cJSON *opts, const char *flag)
{
    const cJSON *e;
    cJSON_ArrayForEach(e, obj(opts, "file-extra-flags"))
        if (cJSON_IsString(e) && strcmp(e->valuestring, flag) == 0)
            return true;
    return false;
}

static bool opt_bool(const cJSON *opts, const char *k)
{
    return cJSON_IsTrue(obj(opts, k));
}

void sysbench_text_header(FILE *f, const char *ssdbench_version)
{
    fprintf(f, "sysbench %s (produced by ssdbench %s)\n\n", SYSBENCH_TEXT_SYSBENCH_VERSION,
            ssdbench_version ? ssdbench_version : "?");
}

/* "Extra file open flags: ..." with sysbench's spacing ("sync " has a
 * trailing space, "directio" none). */
static void print_flags(FILE *f, const cJSON *opts)
{
    bool s = has_flag(opts, "sync"), d = has_flag(opts, "dsync"), x = has_flag(opts, "direct");
    fprintf(f, "Extra file open flags: %s%s%s%s\n", !s && !d && !x ? "(none)" : "", s ? "sync " : "",
            d ? "dsync " : "", x ? "directio" : "");
}

void sysbench_text_prepare_begin(FILE *f, const cJSON *opts)
{
    double fs = result_snum(opts, "fileio.options.file_size"), n = result_snum(opts, "fileio.options.file-num");
    fprintf(f, "%.0f files, %ldKb each, %ldMb total\n", n, (long)(fs / 1024),
            (long)(fs * n / (1024 * 1024)));
    fprintf(f, "Creating files for the test...\n");
    print_flags(f, opts);
}

void sysbench_text_prepare_file(FILE *f, const char *name, enum fileio_file_state st)
{
    const char *w = st == FILEIO_FILE_REUSING ? "Reusing existing file"
                  : st == FILEIO_FILE_EXTENDING ? "Extending existing file" : "Creating file";
    fprintf(f, "%s %s\n", w, name);
}

void sysbench_text_prepare_end(FILE *f, uint64_t written, double seconds)
{
    if (written)
        fprintf(f, "%llu bytes written in %.2f seconds (%.2f MiB/sec).\n", (unsigned long long)written,
                seconds, seconds > 0 ? (double)written / 1048576.0 / seconds : 0);
    else
        fprintf(f, "No bytes written.\n");
}

void sysbench_text_cleanup(FILE *f)
{
    fprintf(f, "Removing test files...\n");
}

static const char *mode_words(const char *m)
{
    if (!strcmp(m, "seqwr")) return "sequential write (creation)";
    if (!strcmp(m, "seqrewr")) return "sequential rewrite";
    if (!strcmp(m, "seqrd")) return "sequential read";
    if (!strcmp(m, "rndrd")) return "random read";
    if (!strcmp(m, "rndwr")) return "random write";
    if (!strcmp(m, "rndrw")) return "random r/w";
    return "(unknown)";
}

void sysbench_text_run_banner(FILE *f, const cJSON *opts, unsigned threads)
{
    char a[32], b[32];
    fprintf(f, "Running the test with following options:\n");
    fprintf(f, "Number of threads: %u\n", threads);
    double rate = result_snum(opts, "fileio.options.rate");
    if (rate > 0)
        fprintf(f, "Target transaction rate: %.0f/sec\n", rate);
    double ri = result_snum(opts, "fileio.options.report-interval");
    if (ri > 0)
        fprintf(f, "Report intermediate results every %.0f second(s)\n", ri);
    const char *seed = result_sstr(opts, "fileio.options.rand-seed");
    if (strcmp(seed, "0") == 0)
        fprintf(f, "Initializing random number generator from current time\n");
    else
        fprintf(f, "Initializing random number generator from seed (%s).\n", seed);
    fprintf(f, "\n\n");
    print_flags(f, opts);
    double fs = result_snum(opts, "fileio.options.file_size"), n = result_snum(opts, "fileio.options.file-num");
    sizefmt_binary(a, sizeof(a), fs, "");
    fprintf(f, "%.0f files, %sB each\n", n, a);
    sizefmt_binary(a, sizeof(a), fs * n, "");
    fprintf(f, "%sB total file size\n", a);
    sizefmt_binary(a, sizeof(a), result_snum(opts, "fileio.options.file-block-size"), "");
    fprintf(f, "Block size %sB\n", a);
    const char *mode = result_sstr(opts, "fileio.options.file-test-mode");
    bool rnd = mode[0] == 'r';
    if (result_snum(opts, "fileio.options.file-merged-requests") > 0) {
        sizefmt_binary(b, sizeof(b), result_snum(opts, "fileio.options.request_size"), "");
        fprintf(f, "Merging requests up to %sB for sequential IO.\n", b);
    }
    if (rnd) {
        fprintf(f, "Number of IO requests: %.0f\n", result_snum(opts, "fileio.options.events"));
        fprintf(f, "Read/Write ratio for combined random IO test: %2.2f\n",
                result_snum(opts, "fileio.options.file-rw-ratio"));
    }
    double freq = result_snum(opts, "fileio.options.file-fsync-freq");
    if (freq > 0)
        fprintf(f, "Periodic FSYNC enabled, calling fsync() each %.0f requests.\n", freq);
    if (opt_bool(opts, "file-fsync-end"))
        fprintf(f, "Calling fsync() at the end of test, Enabled.\n");
    if (opt_bool(opts, "file-fsync-all"))
        fprintf(f, "Calling fsync() after each write operation.\n");
    const char *io = result_sstr(opts, "fileio.options.file-io-mode");
    fprintf(f, "Using %s I/O mode\n", !strcmp(io, "async") ? "asynchronous"
                                      : !strcmp(io, "mmap") ? "fast mmaped" : "synchronous");
    fprintf(f, "Doing %s test\n", mode_words(mode));
    fprintf(f, "Initializing worker threads...\n\n");
    fprintf(f, "Threads started!\n\n");
}

void sysbench_text_interval(FILE *f, const struct fileio_row *row, double step_s, unsigned percentile)
{
    if (row->secs < step_s * 0.99)
        return;
    fprintf(f, "[ %.0fs ] reads: %4.2f MiB/s writes: %4.2f MiB/s fsyncs: %4.2f/s latency (ms,%u%%): %4.3f\n",
            row->t_s, row->read_mibps, row->write_mibps, row->fsyncs_per_s, percentile, row->pct_ms);
}

static void stored_intervals(FILE *f, const cJSON *fo, unsigned percentile)
{
    const cJSON *iv = obj(fo, "intervals"), *r;
    double step = result_snum(iv, "phases[].fileio.intervals.step_s");
    cJSON_ArrayForEach(r, obj(iv, "rows")) {
        if (cJSON_GetArraySize(r) < 6)
            continue;
        struct fileio_row row = {
            .t_s = result_at_num(r, 0, 0) / 1e3,
            .secs = result_at_num(r, 1, 0),
            .read_mibps = result_at_num(r, 2, 0),
            .write_mibps = result_at_num(r, 3, 0),
            .fsyncs_per_s = result_at_num(r, 4, 0),
            .pct_ms = result_at_num(r, 5, 0),
        };
        sysbench_text_interval(f, &row, step, percentile);
    }
}

/* sysbench's histogram block: one line per non-empty bucket, a bar of up to
 * 40 '*' scaled to the largest count (rounded half up). */
static void histogram(FILE *f, const cJSON *hist)
{
    const cJSON *e;
    double maxc = 0;
    cJSON_ArrayForEach(e, hist)
        if (cJSON_GetArraySize(e) == 2 && result_at_num(e, 1, 0) > maxc)
            maxc = result_at_num(e, 1, 0);
    fprintf(f, "Latency histogram (values are in milliseconds)\n");
    if (maxc > 0) {
        fprintf(f, "       value  ------------- distribution ------------- count\n");
        cJSON_ArrayForEach(e, hist) {
            if (cJSON_GetArraySize(e) != 2)
                continue;
            double v = result_at_num(e, 0, 0), c = result_at_num(e, 1, 0);
            int width = c > 0 ? (int)floor(fmin(c, maxc) * 40.0 / maxc + 0.5) : 0;
            fprintf(f, "%12.3f |%-40.*s %.0f\n", v, width, "****************************************", c);
        }
    }
    fprintf(f, " \n");
}

void sysbench_text_report(FILE *f, const cJSON *phase, unsigned percentile, bool with_intervals)
{
    const cJSON *fo = obj(phase, "fileio");
    const cJSON *rep = obj(fo, "report");
    if (with_intervals)
        stored_intervals(f, fo, percentile);
    if (obj(rep, "histogram"))
        histogram(f, obj(rep, "histogram"));
    fprintf(f, "\nFile operations:\n");
    fprintf(f, "    reads/s:                      %4.2f\n", result_snum(rep, "phases[].fileio.report.reads_per_s"));
    fprintf(f, "    writes/s:                     %4.2f\n", result_snum(rep, "phases[].fileio.report.writes_per_s"));
    fprintf(f, "    fsyncs/s:                     %4.2f\n", result_snum(rep, "phases[].fileio.report.fsyncs_per_s"));
    fprintf(f, "\nThroughput:\n");
    fprintf(f, "    read, MiB/s:                  %4.2f\n", result_snum(rep, "phases[].fileio.report.read_mibps"));
    fprintf(f, "    written, MiB/s:               %4.2f\n", result_snum(rep, "phases[].fileio.report.written_mibps"));
    fprintf(f, "\nGeneral statistics:\n");
    fprintf(f, "    total time:                          %.4fs\n", result_snum(rep, "phases[].fileio.report.total_time_s"));
    fprintf(f, "    total number of events:              %.0f\n", result_snum(rep, "phases[].fileio.report.events"));
    const cJSON *lat = obj(rep, "latency_ms");
    fprintf(f, "\nLatency (ms):\n");
    fprintf(f, "         min: %39.2f\n", result_snum(lat, "phases[].fileio.report.latency_ms.min"));
    fprintf(f, "         avg: %39.2f\n", result_snum(lat, "phases[].fileio.report.latency_ms.avg"));
    fprintf(f, "         max: %39.2f\n", result_snum(lat, "phases[].fileio.report.latency_ms.max"));
    if (percentile)
        fprintf(f, "        %3uth percentile: %27.2f\n", percentile, result_snum(lat, "phases[].fileio.report.latency_ms.pct"));
    else
        fprintf(f, "         percentile stats:               disabled\n");
    fprintf(f, "         sum: %39.2f\n", result_snum(lat, "phases[].fileio.report.latency_ms.sum"));
    const cJSON *fa = obj(rep, "fairness");
    fprintf(f, "\nThreads fairness:\n");
    fprintf(f, "    events (avg/stddev):           %.4f/%3.2f\n", result_snum(fa, "phases[].fileio.report.fairness.events_avg"),
            result_snum(fa, "phases[].fileio.report.fairness.events_stddev"));
    fprintf(f, "    execution time (avg/stddev):   %.4f/%3.2f\n\n", result_snum(fa, "phases[].fileio.report.fairness.time_avg"),
            result_snum(fa, "phases[].fileio.report.fairness.time_stddev"));
    /* async: sysbench's event time is mostly submission; say so and add the
     * device's view (sync and mmap: the two are the same request) */
    const cJSON *cl = obj(rep, "completion_latency_ms");
    if (!strcmp(result_sstr(fo, "phases[].fileio.io_mode"), "async") && cl) {
        fprintf(f, "ssdbench:\n");
        fprintf(f, "    Latency above is per event, as sysbench times it: the submission, plus the\n"
                   "    wait for a completion when the backlog is full.\n");
        fprintf(f, "    Completion latency (ms, submission -> completion of each request):\n");
        fprintf(f, "         min: %39.2f\n", result_snum(cl, "phases[].fileio.report.completion_latency_ms.min"));
        fprintf(f, "         avg: %39.2f\n", result_snum(cl, "phases[].fileio.report.completion_latency_ms.avg"));
        fprintf(f, "         max: %39.2f\n", result_snum(cl, "phases[].fileio.report.completion_latency_ms.max"));
        if (percentile)
            fprintf(f, "        %3uth percentile: %27.2f\n", percentile, result_snum(cl, "phases[].fileio.report.completion_latency_ms.pct"));
        fprintf(f, "\n");
    }
}

/* --- thread-scaling tables --- */

static const cJSON *scaling_row(const cJSON *doc, double threads)
{
    const cJSON *r;
    cJSON_ArrayForEach(r, obj(obj(doc, "fileio"), "scaling"))
        if (result_num(r, "threads", -1) == threads) /* -1: a row without threads matches none */
            return r;
    return NULL;
}

static void cell(char *buf, size_t len, const cJSON *row, const char *key, const char *fmt)
{
    const cJSON *v = obj(row, key);
    if (cJSON_IsNumber(v))
        snprintf(buf, len, fmt, v->valuedouble);
    else
        snprintf(buf, len, "-");
}

static void ratio(char *buf, size_t len, const cJSON *num, const cJSON *den, const char *key)
{
    const cJSON *a = obj(num, key), *b = obj(den, key);
    if (cJSON_IsNumber(a) && cJSON_IsNumber(b) && b->valuedouble > 0)
        snprintf(buf, len, "%.2f", a->valuedouble / b->valuedouble);
    else
        snprintf(buf, len, "-");
}

/* One table: threads, A, B1..Bn, then one ratio per baseline. b_over_a
 * flips the ratios for "less is better", so above 1 always favours A. */
static void table(FILE *f, const char *title, const cJSON *doc, const struct sysbench_base *bases,
                  unsigned nb, const char *la, const char *const *lb, const char *key, const char *fmt,
                  bool b_over_a)
{
    char rh[SYSBENCH_MAX_BASES][300];
    int wb[SYSBENCH_MAX_BASES], wr[SYSBENCH_MAX_BASES];
    int wa = (int)strlen(la) > 10 ? (int)strlen(la) : 10;
    for (unsigned k = 0; k < nb; k++) {
        if (b_over_a)
            snprintf(rh[k], sizeof(rh[k]), "ratio %s / %s", lb[k], la);
        else
            snprintf(rh[k], sizeof(rh[k]), "ratio %s / %s", la, lb[k]);
        wb[k] = (int)strlen(lb[k]) > 10 ? (int)strlen(lb[k]) : 10;
        wr[k] = (int)strlen(rh[k]) > 10 ? (int)strlen(rh[k]) : 10;
    }
    fprintf(f, "%s\n", title);
    fprintf(f, "%7s  %*s", "threads", wa, la);
    for (unsigned k = 0; k < nb; k++)
        fprintf(f, "  %*s", wb[k], lb[k]);
    for (unsigned k = 0; k < nb; k++)
        fprintf(f, "  %*s", wr[k], rh[k]);
    fprintf(f, "\n");
    const cJSON *r;
    cJSON_ArrayForEach(r, obj(obj(doc, "fileio"), "scaling")) {
        char a[32], b[32], q[32];
        cell(a, sizeof(a), r, key, fmt);
        fprintf(f, "%7.0f  %*s", result_snum(r, "fileio.scaling[].threads"), wa, a);
        for (unsigned k = 0; k < nb; k++) {
            cell(b, sizeof(b), scaling_row(bases[k].doc, result_snum(r, "fileio.scaling[].threads")), key, fmt);
            fprintf(f, "  %*s", wb[k], b);
        }
        for (unsigned k = 0; k < nb; k++) {
            const cJSON *br = scaling_row(bases[k].doc, result_snum(r, "fileio.scaling[].threads"));
            if (b_over_a)
                ratio(q, sizeof(q), br, r, key);
            else
                ratio(q, sizeof(q), r, br, key);
            fprintf(f, "  %*s", wr[k], q);
        }
        fprintf(f, "\n");
    }
    fprintf(f, "\n");
}

void sysbench_text_scaling(FILE *f, const cJSON *doc, const struct sysbench_base *bases, unsigned nbases)
{
    if (nbases > SYSBENCH_MAX_BASES)
        nbases = SYSBENCH_MAX_BASES;
    const char *la = result_sstr(obj(doc, "fileio"), "fileio.label");
    char a[128], b[SYSBENCH_MAX_BASES][160];
    const char *lb[SYSBENCH_MAX_BASES];
    snprintf(a, sizeof(a), "%s", la[0] ? la : "this run");
    for (unsigned k = 0; k < nbases; k++) {
        const char *l = bases[k].label && bases[k].label[0] ? bases[k].label
                        : result_sstr(obj(bases[k].doc, "fileio"), "fileio.label");
        snprintf(b[k], sizeof(b[k]), "%s", l[0] ? l : "baseline");
        /* a column named like this run (or an earlier baseline) says which it is */
        bool dup = strcmp(a, b[k]) == 0;
        for (unsigned j = 0; j < k; j++)
            dup = dup || strcmp(b[j], b[k]) == 0;
        if (dup) {
            char t[160];
            snprintf(t, sizeof(t), "%s", b[k]);
            if (nbases == 1)
                snprintf(b[k], sizeof(b[k]), "%.120s (baseline)", t);
            else
                snprintf(b[k], sizeof(b[k]), "%.120s (baseline %u)", t, k + 1);
        }
        lb[k] = b[k];
    }
    unsigned pct = (unsigned)result_num_in(obj(obj(doc, "fileio"), "options"), "percentile", 0, 100, 95);
    table(f, "Throughput, MiB/s (more is better)", doc, bases, nbases, a, lb, "mibps", "%.2f", false);
    char title[64];
    if (pct) {
        snprintf(title, sizeof(title), "%u%% response time, ms (less is better)", pct);
        table(f, title, doc, bases, nbases, a, lb, "pct_ms", "%.3f", true);
    } else {
        table(f, "avg response time, ms (less is better)", doc, bases, nbases, a, lb, "avg_ms", "%.3f", true);
    }
}

int sysbench_text_render(FILE *f, const cJSON *doc, const struct sysbench_base *bases, unsigned nbases)
{
    const cJSON *fio = obj(doc, "fileio");
    const cJSON *opts = obj(fio, "options");
    if (!opts)
        return -EINVAL;
    const char *ver = result_str(obj(doc, "tool"), "version", "?");
    unsigned pct = (unsigned)result_num_in(opts, "percentile", 0, 100, 95);
    unsigned runs = 0;
    const cJSON *ph;
    cJSON_ArrayForEach(ph, obj(doc, "phases")) {
        const cJSON *fo = obj(ph, "fileio");
        if (!fo || !obj(fo, "report"))
            continue;
        sysbench_text_header(f, ver);
        sysbench_text_run_banner(f, opts, (unsigned)result_num_in(fo, "threads", 0, UINT_MAX, 1));
        sysbench_text_report(f, ph, pct, true);
        runs++;
    }
    if (!runs)
        return -EINVAL;
    if (runs > 1 || nbases)
        sysbench_text_scaling(f, doc, bases, nbases);
    return 0;
}
