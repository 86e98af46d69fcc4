/* test_sysbench_text.c - sysbench fileio 1.0.20's text layout: banner,
 * prepare/cleanup lines, interval lines, the histogram block, the report
 * sections and the thread-scaling tables. Expected strings are sysbench's
 * own output (captured from the Debian 12 binary) or the seed article's
 * tables; the figures are given, so only formatting is tested here. */
#include <errno.h>
#include <stdlib.h>

#include "check.h"
#include "fileio/fileio.h"
#include "output/sysbench_text.h"

static char err[1024];

static int set(struct fileio_opts *o, const char *name, const char *v)
{
    return fileio_set(o, name, v, err, sizeof(err));
}

/* not inlined: GCC 12 takes the memstream buffer for a dangling local */
__attribute__((noinline)) static char *render(void (*fn)(FILE *, void *), void *arg)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    fn(f, arg);
    fclose(f);
    return buf;
}

static void r_banner(FILE *f, void *arg)
{
    sysbench_text_run_banner(f, arg, 1);
}

TEST(text_banner_matches_sysbench)
{
    struct fileio_opts o;
    fileio_defaults(&o);
    set(&o, "file-num", "8");
    set(&o, "file-test-mode", "rndrd");
    set(&o, "file-extra-flags", "direct");
    cJSON *oj = fileio_opts_json(&o);
    char *t = render(r_banner, oj);
    /* sysbench 1.0.20's banner for these options (reference output) */
    const char *want = "Running the test with following options:\n"
                       "Number of threads: 1\n"
                       "Initializing random number generator from current time\n"
                       "\n\n"
                       "Extra file open flags: directio\n"
                       "8 files, 256MiB each\n"
                       "2GiB total file size\n"
                       "Block size 16KiB\n"
                       "Number of IO requests: 0\n"
                       "Read/Write ratio for combined random IO test: 1.50\n"
                       "Periodic FSYNC enabled, calling fsync() each 100 requests.\n"
                       "Calling fsync() at the end of test, Enabled.\n"
                       "Using synchronous I/O mode\n"
                       "Doing random read test\n"
                       "Initializing worker threads...\n"
                       "\n"
                       "Threads started!\n"
                       "\n";
    CHECK(strcmp(t, want) == 0, "got:\n%s", t);
    free(t);
    cJSON_Delete(oj);

    fileio_defaults(&o);
    set(&o, "file-num", "3");
    set(&o, "file-total-size", "1000000");
    set(&o, "file-block-size", "512");
    set(&o, "file-test-mode", "seqrewr");
    set(&o, "file-merged-requests", "3");
    set(&o, "file-fsync-all", "on");
    set(&o, "file-extra-flags", "sync,dsync");
    set(&o, "rate", "1000");
    set(&o, "report-interval", "1");
    set(&o, "rand-seed", "5");
    set(&o, "file-io-mode", "mmap");
    oj = fileio_opts_json(&o);
    t = render(r_banner, oj);
    want = "Running the test with following options:\n"
           "Number of threads: 1\n"
           "Target transaction rate: 1000/sec\n"
           "Report intermediate results every 1 second(s)\n"
           "Initializing random number generator from seed (5).\n"
           "\n\n"
           "Extra file open flags: sync dsync \n"
           "3 files, 325.52KiB each\n"
           "976.56KiB total file size\n"
           "Block size 512B\n"
           "Merging requests up to 1.5KiB for sequential IO.\n"
           "Calling fsync() after each write operation.\n"
           "Using fast mmaped I/O mode\n"
           "Doing sequential rewrite test\n"
           "Initializing worker threads...\n"
           "\n"
           "Threads started!\n"
           "\n";
    CHECK(strcmp(t, want) == 0, "got:\n%s", t);
    free(t);
    cJSON_Delete(oj);
}

static void r_prepare(FILE *f, void *arg)
{
    sysbench_text_header(f, "9.9");
    sysbench_text_prepare_begin(f, arg);
    sysbench_text_prepare_file(f, "test_file.0", FILEIO_FILE_CREATING);
    sysbench_text_prepare_file(f, "test_file.1", FILEIO_FILE_EXTENDING);
    sysbench_text_prepare_file(f, "test_file.2", FILEIO_FILE_REUSING);
    sysbench_text_prepare_end(f, 2147483648ull, 8.99);
    sysbench_text_prepare_end(f, 0, 0);
    sysbench_text_cleanup(f);
}

TEST(text_prepare_and_cleanup)
{
    struct fileio_opts o;
    fileio_defaults(&o);
    set(&o, "file-num", "8");
    cJSON *oj = fileio_opts_json(&o);
    char *t = render(r_prepare, oj);
    const char *want = "sysbench 1.0.20 (produced by ssdbench 9.9)\n\n"
                       "8 files, 262144Kb each, 2048Mb total\n"
                       "Creating files for the test...\n"
                       "Extra file open flags: (none)\n"
                       "Creating file test_file.0\n"
                       "Extending existing file test_file.1\n"
                       "Reusing existing file test_file.2\n"
                       "2147483648 bytes written in 8.99 seconds (227.81 MiB/sec).\n"
                       "No bytes written.\n"
                       "Removing test files...\n";
    CHECK(strcmp(t, want) == 0, "got:\n%s", t);
    free(t);
    cJSON_Delete(oj);
}

/* A phase whose fileio.report holds the figures of sysbench's reference
 * output (1 thread, rndrd, 16 KiB, O_DIRECT). */
static cJSON *report_phase(void)
{
    cJSON *ph = cJSON_CreateObject();
    cJSON_AddStringToObject(ph, "name", "threads=1");
    cJSON *fo = cJSON_AddObjectToObject(ph, "fileio");
    cJSON_AddNumberToObject(fo, "threads", 1);
    cJSON *iv = cJSON_AddObjectToObject(fo, "intervals");
    cJSON_AddNumberToObject(iv, "step_s", 1);
    cJSON *rows = cJSON_AddArrayToObject(iv, "rows");
    const double r1[] = {1000, 1, 241.85, 0, 0, 0.395}, r2[] = {1400, 0.4, 1, 1, 1, 1};
    cJSON_AddItemToArray(rows, cJSON_CreateDoubleArray(r1, 6));
    cJSON_AddItemToArray(rows, cJSON_CreateDoubleArray(r2, 6));
    cJSON *r = cJSON_AddObjectToObject(fo, "report");
    cJSON_AddNumberToObject(r, "reads_per_s", 10925.96);
    cJSON_AddNumberToObject(r, "writes_per_s", 0);
    cJSON_AddNumberToObject(r, "fsyncs_per_s", 0);
    cJSON_AddNumberToObject(r, "read_mibps", 170.72);
    cJSON_AddNumberToObject(r, "written_mibps", 0);
    cJSON_AddNumberToObject(r, "total_time_s", 10.0001);
    cJSON_AddNumberToObject(r, "events", 109267);
    cJSON *l = cJSON_AddObjectToObject(r, "latency_ms");
    cJSON_AddNumberToObject(l, "min", 0.04);
    cJSON_AddNumberToObject(l, "avg", 0.09);
    cJSON_AddNumberToObject(l, "max", 26.97);
    cJSON_AddNumberToObject(l, "pct", 0.1);
    cJSON_AddNumberToObject(l, "sum", 9920.42);
    cJSON *fa = cJSON_AddObjectToObject(r, "fairness");
    cJSON_AddNumberToObject(fa, "events_avg", 109267);
    cJSON_AddNumberToObject(fa, "events_stddev", 0);
    cJSON_AddNumberToObject(fa, "time_avg", 9.9204);
    cJSON_AddNumberToObject(fa, "time_stddev", 0);
    return ph;
}

/* sysbench 1.0.20's report for those figures, verbatim */
static const char *const sb_report =
    "\n"
    "File operations:\n"
    "    reads/s:                      10925.96\n"
    "    writes/s:                     0.00\n"
    "    fsyncs/s:                     0.00\n"
    "\n"
    "Throughput:\n"
    "    read, MiB/s:                  170.72\n"
    "    written, MiB/s:               0.00\n"
    "\n"
    "General statistics:\n"
    "    total time:                          10.0001s\n"
    "    total number of events:              109267\n"
    "\n"
    "Latency (ms):\n"
    "         min:                                    0.04\n"
    "         avg:                                    0.09\n"
    "         max:                                   26.97\n"
    "         95th percentile:                        0.10\n"
    "         sum:                                 9920.42\n"
    "\n"
    "Threads fairness:\n"
    "    events (avg/stddev):           109267.0000/0.00\n"
    "    execution time (avg/stddev):   9.9204/0.00\n"
    "\n";

static void r_report(FILE *f, void *arg)
{
    struct fileio_row row = {.t_s = 1, .secs = 1, .read_mibps = 107.9, .write_mibps = 71.96,
                             .fsyncs_per_s = 918.88, .pct_ms = 2.184};
    sysbench_text_interval(f, &row, 1, 99);
    row.secs = 0.5; /* the cut-off last interval is not printed */
    sysbench_text_interval(f, &row, 1, 99);
    sysbench_text_report(f, arg, 95, false);
}

TEST(text_report_matches_sysbench)
{
    cJSON *ph = report_phase();
    char *t = render(r_report, ph);
    char want[4096];
    snprintf(want, sizeof(want), "%s%s",
             "[ 1s ] reads: 107.90 MiB/s writes: 71.96 MiB/s fsyncs: 918.88/s latency (ms,99%): 2.184\n",
             sb_report);
    CHECK(strcmp(t, want) == 0, "got:\n%s", t);
    free(t);
    cJSON_Delete(ph);
}

static void r_pct0(FILE *f, void *arg)
{
    sysbench_text_report(f, arg, 0, true);
}

TEST(text_stored_intervals_histogram_pct0)
{
    cJSON *ph = report_phase();
    cJSON *r = cJSON_GetObjectItem(cJSON_GetObjectItem(ph, "fileio"), "report");
    cJSON *h = cJSON_AddArrayToObject(r, "histogram");
    const double b[][2] = {{0.045117, 1}, {0.045936, 3}, {0.100451, 80}, {37.565, 2}};
    for (unsigned i = 0; i < 4; i++)
        cJSON_AddItemToArray(h, cJSON_CreateDoubleArray(b[i], 2));
    char *t = render(r_pct0, ph);
    /* the stored 0.4 s row is the cut-off last interval: not printed */
    const char *head = "[ 1s ] reads: 241.85 MiB/s writes: 0.00 MiB/s fsyncs: 0.00/s latency (ms,0%): 0.395\n"
                       "Latency histogram (values are in milliseconds)\n"
                       "       value  ------------- distribution ------------- count\n"
                       "       0.045 |*                                        1\n"
                       "       0.046 |**                                       3\n"
                       "       0.100 |**************************************** 80\n"
                       "      37.565 |*                                        2\n"
                       " \n";
    CHECK(strncmp(t, head, strlen(head)) == 0, "got:\n%s", t);
    CHECK(strstr(t, "\n         max:                                   26.97\n"
                    "         percentile stats:               disabled\n"
                    "         sum:                                 9920.42\n") != NULL, "pct 0:\n%s", t);
    free(t);
    cJSON_Delete(ph);
}

static cJSON *scaling_doc(const char *label, const double (*rows)[3], unsigned n)
{
    cJSON *d = cJSON_CreateObject();
    cJSON *f = cJSON_AddObjectToObject(d, "fileio");
    cJSON_AddStringToObject(f, "label", label);
    cJSON_AddNumberToObject(cJSON_AddObjectToObject(f, "options"), "percentile", 95);
    cJSON *sc = cJSON_AddArrayToObject(f, "scaling");
    for (unsigned i = 0; i < n; i++) {
        cJSON *r = cJSON_CreateObject();
        cJSON_AddNumberToObject(r, "threads", rows[i][0]);
        cJSON_AddNumberToObject(r, "mibps", rows[i][1]);
        cJSON_AddNumberToObject(r, "pct_ms", rows[i][2]);
        cJSON_AddItemToArray(sc, r);
    }
    return d;
}

struct two {
    cJSON *a, *b, *c;
};

static void r_scaling(FILE *f, void *arg)
{
    struct two *t = arg;
    struct sysbench_base b = {.doc = t->b};
    sysbench_text_scaling(f, t->a, &b, 1);
}

/* Several baselines: a value column each, then a ratio column each. */
static void r_scaling2(FILE *f, void *arg)
{
    struct two *t = arg;
    struct sysbench_base b[2] = {{.doc = t->b, .label = "Intel 320"}, {.doc = t->c}};
    sysbench_text_scaling(f, t->a, b, 2);
}

TEST(scaling_table_with_ratios)
{
    /* the seed's first rows: Intel 320 vs RAID10 */
    static const double a[][3] = {{1, 30.27, 0.53}, {2, 55.18, 0.72}, {4, 95.13, 0.89}};
    static const double b[][3] = {{1, 3.75, 6.13}, {2, 6.98, 7.27}};
    struct two t = {scaling_doc("Intel 320", a, 3), scaling_doc("RAID10", b, 2), NULL};
    char *s = render(r_scaling, &t);
    const char *want = "Throughput, MiB/s (more is better)\n"
                       "threads   Intel 320      RAID10  ratio Intel 320 / RAID10\n"
                       "      1       30.27        3.75                      8.07\n"
                       "      2       55.18        6.98                      7.91\n"
                       "      4       95.13           -                         -\n"
                       "\n"
                       "95% response time, ms (less is better)\n"
                       "threads   Intel 320      RAID10  ratio RAID10 / Intel 320\n"
                       "      1       0.530       6.130                     11.57\n"
                       "      2       0.720       7.270                     10.10\n"
                       "      4       0.890           -                         -\n"
                       "\n";
    CHECK(strcmp(s, want) == 0, "got:\n%s", s);
    free(s);
    cJSON_Delete(t.a);
    cJSON_Delete(t.b);
}

TEST(scaling_table_two_baselines)
{
    /* the seed's rows with the RAID10 run as this one: one ratio column per
     * baseline, labelled by the baseline's label */
    static const double raid[][3] = {{1, 3.75, 6.13}, {2, 6.98, 7.27}};
    static const double one[][3] = {{1, 30.27, 0.53}, {2, 55.18, 0.72}};
    static const double two[][3] = {{1, 31.18, 0.56}};
    struct two t = {scaling_doc("RAID10", raid, 2), scaling_doc("ignored", one, 2),
                    scaling_doc("Intel 320 2 strip", two, 1)};
    char *s = render(r_scaling2, &t);
    const char *want =
        "Throughput, MiB/s (more is better)\n"
        "threads      RAID10   Intel 320  Intel 320 2 strip  ratio RAID10 / Intel 320"
        "  ratio RAID10 / Intel 320 2 strip\n"
        "      1        3.75       30.27              31.18                      0.12"
        "                              0.12\n"
        "      2        6.98       55.18                  -                      0.13"
        "                                 -\n"
        "\n"
        "95% response time, ms (less is better)\n"
        "threads      RAID10   Intel 320  Intel 320 2 strip  ratio Intel 320 / RAID10"
        "  ratio Intel 320 2 strip / RAID10\n"
        "      1       6.130       0.530              0.560                      0.09"
        "                              0.09\n"
        "      2       7.270       0.720                  -                      0.10"
        "                                 -\n"
        "\n";
    CHECK(strcmp(s, want) == 0, "got:\n%s", s);
    free(s);
    /* the same label twice: the second column says which baseline it is */
    cJSON_Delete(t.c);
    t.c = scaling_doc("Intel 320", two, 1);
    s = render(r_scaling2, &t);
    CHECK(strstr(s, "Intel 320 (baseline 2)") && strstr(s, "ratio RAID10 / Intel 320 (baseline 2)"), "got:\n%s", s);
    free(s);
    cJSON_Delete(t.a);
    cJSON_Delete(t.b);
    cJSON_Delete(t.c);
}

static void r_render(FILE *f, void *arg)
{
    sysbench_text_render(f, arg, NULL, 0);
}

TEST(render_saved_result)
{
    struct fileio_opts o;
    fileio_defaults(&o);
    set(&o, "file-num", "8");
    set(&o, "file-test-mode", "rndrd");
    set(&o, "file-extra-flags", "direct");
    cJSON *doc = cJSON_CreateObject();
    cJSON_AddStringToObject(cJSON_AddObjectToObject(doc, "tool"), "version", "9.9");
    cJSON *fo = cJSON_AddObjectToObject(doc, "fileio");
    cJSON_AddItemToObject(fo, "options", fileio_opts_json(&o));
    cJSON_AddItemToArray(cJSON_AddArrayToObject(doc, "phases"), report_phase());
    char *t = render(r_render, doc);
    const char *head = "sysbench 1.0.20 (produced by ssdbench 9.9)\n\nRunning the test with following options:\n";
    CHECK(strncmp(t, head, strlen(head)) == 0, "got:\n%s", t);
    const char *tail = strstr(t, "Threads started!\n\n[ 1s ] reads: 241.85");
    CHECK(tail && strcmp(strstr(tail, "\nFile operations:") + 0, sb_report) == 0, "got:\n%s", t);
    CHECK(!strstr(t, "Throughput, MiB/s (more is better)"), "one run: no scaling table");
    free(t);
    cJSON *empty = cJSON_CreateObject();
    CHECK(sysbench_text_render(stdout, empty, NULL, 0) == -EINVAL, "not a fileio result");
    cJSON_Delete(empty);
    cJSON_Delete(doc);
}

CHECK_MAIN()
