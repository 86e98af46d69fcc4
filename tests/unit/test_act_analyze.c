/* test_act_analyze.c - ACT log reader, slice tables (act_latency.py's
 * numbers) and the certification verdict. Logs are built with the writer
 * from counts chosen here, so every expected percentage is hand-computed;
 * the samples under tests/data/act/ follow ACT 6.6's and 3.0's layouts.
 * Run from the repository root. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "act/act_log.h"
#include "act/act_text.h"
#include "act/act_analyze.h"
#include "base/round.h"
#include "act/act_config.h"

#define DATA "tests/data/act/"

/* One hour's counts by bucket; 100000 reads. */
struct hour {
    unsigned b0, b1, b2, b4, b7;   /* [0,1) [1,2) [2,4) [8,16) [64,128) ms */
};
static const struct hour normal = {95500, 4000, 400, 90, 10};   /* 4.50 / 0.10 / 0.01 % */

struct logbuf {
    char *text;
    size_t len;
};

/* A log of nhours hours at `interval` s per report; each hour's counts are
 * spread over its reports. tail is appended (e.g. ERROR lines). */
static struct logbuf make_log(const struct hour *hours, unsigned nhours, unsigned interval,
                              unsigned configured, bool us, const char *tail)
{
    struct logbuf lb = {NULL, 0};
    FILE *f = open_memstream(&lb.text, &lb.len);
    const char *devs[] = {"/dev/sdb"};
    struct act_config c;
    struct act_derived d;
    char err[256];
    act_config_from_load(&c, 50, 1, devs, configured, err, sizeof(err));
    c.report_interval_sec = interval;
    c.microsecond_histograms = us;
    act_config_derive(&c, 2, 512, &d, err, sizeof(err));
    act_log_header(f, "ssdbench test");
    act_log_config(f, &c, &d);
    const char *names[] = {"reads", "/dev/sdb-reads"};
    act_log_hist_names(f, names, 2);
    struct act_log_hist h[2];
    memset(h, 0, sizeof(h));
    h[0].name = names[0];
    h[1].name = names[1];
    unsigned per = 3600 / interval, shift = us ? 10 : 0;
    for (unsigned k = 0; k < nhours; k++) {
        const unsigned v[5] = {hours[k].b0, hours[k].b1, hours[k].b2, hours[k].b4, hours[k].b7};
        const unsigned idx[5] = {0, 1, 2, 4, 7};
        for (unsigned r = 0; r < per; r++) {
            for (unsigned j = 0; j < 5; j++) {
                unsigned add = v[j] * (r + 1) / per - v[j] * r / per;
                h[0].buckets[idx[j] + shift] += add;
                h[1].buckets[idx[j] + shift] += add;
            }
            act_log_interval(f, (k * per + r + 1) * interval, h, 2);
        }
    }
    if (tail)
        fputs(tail, f);
    fclose(f);
    return lb;
}

static int analyze_text(const char *text, size_t len, const struct act_analyze_opts *o,
                        struct act_analysis *a, char *err)
{
    FILE *f = fmemopen((void *)text, len, "r");
    int rc = act_analyze_stream(f, "t.log", o, a, err, 256);
    fclose(f);
    return rc;
}

static struct hour hours24[30];
static void fill(unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        hours24[i] = normal;
}

TEST(verdict_pass_worst_hour)
{
    fill(24);
    /* 4994 of 100000 >= 1 ms = 4.994% -> 4.99 as ACT prints it: still below 5 */
    hours24[12] = (struct hour){95006, 4394, 450, 140, 10};
    struct logbuf lb = make_log(hours24, 24, 600, 86400, false, NULL);
    struct act_analyze_opts o;
    struct act_analysis a;
    char err[256];
    act_analyze_opts_default(&o);
    CHECK(analyze_text(lb.text, lb.len, &o, &a, err) == 0, "%s", err);
    free(lb.text);
    const struct act_verdict *v = &a.verdict;
    CHECK(a.info.nblocks == 144 && a.info.last_elapsed == 86400 && !a.info.truncated, "%u",
          a.info.nblocks);
    CHECK(a.ntables == 1 && a.tables[0].nslices == 24 && !strcmp(a.tables[0].name, "reads"), "-");
    CHECK(a.tables[0].rows[0].over[0] == 4.50 && a.tables[0].rows[0].over[3] == 0.10 &&
          a.tables[0].rows[0].over[6] == 0.01 && a.tables[0].rows[0].ops == 100000, "hour 1");
    /* >= 2 ms: 400 + 90 + 10 = 0.50%; >= 16 ms and >= 32 ms: 0.01% */
    CHECK(a.tables[0].rows[0].over[1] == 0.50 && a.tables[0].rows[0].over[4] == 0.01, "-");
    CHECK(a.tables[0].rows[12].over[0] == 4.99 && a.tables[0].rows[12].over[3] == 0.15, "-");
    CHECK(a.tables[0].max[0] == 4.99 && a.tables[0].max[3] == 0.15 && a.tables[0].max[6] == 0.01,
          "max row");
    /* avg: (23 x 4.50 + 4.99) / 24 = 4.52041... */
    CHECK(a.tables[0].avg[0] > 4.5204 && a.tables[0].avg[0] < 4.5205, "%f", a.tables[0].avg[0]);
    CHECK(a.tables[0].rows[5].rate == 27.8, "100000 / 3600 s = 27.8, got %f",
          a.tables[0].rows[5].rate);
    CHECK(v->status == ACT_VERDICT_PASS, "status %d: %s", v->status, v->reason);
    CHECK(v->hours == 24 && v->slice_sec == 3600 && v->worst_hour == 13, "worst %u", v->worst_hour);
    CHECK(v->worst_pct[0] == 4.99 && v->worst_pct[1] == 0.15 && v->worst_pct[2] == 0.01, "-");
    CHECK(v->max_hour[0] == 13 && v->max_hour[1] == 13 && v->max_hour[2] == 1, "-");
    CHECK(!v->over_limit[0] && !v->over_limit[1] && !v->over_limit[2] && !v->stopped_early, "-");
    act_analysis_free(&a);
}

static const struct act_verdict *fail_case(struct act_analysis *a, unsigned hour,
                                           struct hour bad, char *err)
{
    fill(24);
    hours24[hour - 1] = bad;
    struct logbuf lb = make_log(hours24, 24, 1800, 86400, false, NULL);
    struct act_analyze_opts o;
    act_analyze_opts_default(&o);
    int rc = analyze_text(lb.text, lb.len, &o, a, err);
    free(lb.text);
    return rc ? NULL : &a->verdict;
}

TEST(verdict_fails_each_limit)
{
    struct act_analysis a;
    char err[256];
    /* 4996 >= 1 ms = 4.996% prints as 5.00: ACT's max row fails it, and so do we */
    const struct act_verdict *v = fail_case(&a, 7, (struct hour){95004, 4496, 400, 90, 10}, err);
    CHECK(v, "%s", err);
    CHECK(v->status == ACT_VERDICT_FAIL && v->over_limit[0] && !v->over_limit[1] &&
          !v->over_limit[2], "1 ms: %d", v->status);
    CHECK(v->worst_hour == 7 && v->max_pct[0] == 5.00 && v->max_hour[0] == 7, "%u %f",
          v->worst_hour, v->max_pct[0]);
    CHECK(strstr(v->reason, "hour 7 has 5.00% of reads >= 1 ms"), "%s", v->reason);
    act_analysis_free(&a);

    /* 1000 >= 8 ms = 1.00% in hour 20 */
    v = fail_case(&a, 20, (struct hour){95500, 3000, 500, 990, 10}, err);
    CHECK(v, "%s", err);
    CHECK(v->status == ACT_VERDICT_FAIL && !v->over_limit[0] && v->over_limit[1] &&
          !v->over_limit[2], "8 ms");
    CHECK(v->worst_hour == 20 && v->max_pct[1] == 1.00 && v->worst_pct[0] == 4.50, "%u",
          v->worst_hour);
    CHECK(strstr(v->reason, "hour 20 has 1.00% of reads >= 8 ms"), "%s", v->reason);
    act_analysis_free(&a);

    /* 100 >= 64 ms = 0.10% in hour 3 */
    v = fail_case(&a, 3, (struct hour){95500, 4000, 400, 0, 100}, err);
    CHECK(v, "%s", err);
    CHECK(v->status == ACT_VERDICT_FAIL && !v->over_limit[0] && !v->over_limit[1] &&
          v->over_limit[2], "64 ms");
    CHECK(v->worst_hour == 3 && v->max_pct[2] == 0.10 && v->max_hour[2] == 3, "-");
    CHECK(strstr(v->reason, "hour 3 has 0.10% of reads >= 64 ms"), "%s", v->reason);
    act_analysis_free(&a);
}

TEST(verdict_short_incomplete_stopped)
{
    struct act_analyze_opts o;
    struct act_analysis a;
    char err[256];
    act_analyze_opts_default(&o);
    fill(24);
    /* 23 h of a configured 24 h run */
    struct logbuf lb = make_log(hours24, 23, 3600, 86400, false, NULL);
    CHECK(analyze_text(lb.text, lb.len, &o, &a, err) == 0, "%s", err);
    free(lb.text);
    CHECK(a.verdict.status == ACT_VERDICT_INCOMPLETE && a.verdict.hours == 23, "%d",
          a.verdict.status);
    act_analysis_free(&a);
    /* a 2 h run: no certification */
    lb = make_log(hours24, 2, 3600, 7200, false, NULL);
    CHECK(analyze_text(lb.text, lb.len, &o, &a, err) == 0, "%s", err);
    free(lb.text);
    CHECK(a.verdict.status == ACT_VERDICT_NONE && a.verdict.hours == 2 &&
          strstr(a.verdict.reason, "24 h"), "%s", a.verdict.reason);
    act_analysis_free(&a);
    /* stopped by max-lag after 5 hours: FAIL whatever the latencies */
    lb = make_log(hours24, 5, 600, 86400, false,
                  "ERROR: service thread can't keep up\n"
                  "ACT can't do requested load - test stopped\n"
                  "try configuring more 'service-threads'\n");
    CHECK(analyze_text(lb.text, lb.len, &o, &a, err) == 0, "%s", err);
    free(lb.text);
    CHECK(a.info.stopped_early && a.info.last_elapsed == 18000 && a.info.error_lines == 1, "-");
    CHECK(!strcmp(a.info.stop_message, "ERROR: service thread can't keep up"), "%s",
          a.info.stop_message);
    CHECK(a.verdict.status == ACT_VERDICT_FAIL && a.verdict.stopped_early &&
          a.verdict.hours == 5 && strstr(a.verdict.reason, "stopped early"), "%s",
          a.verdict.reason);
    act_analysis_free(&a);
}

TEST(verdict_microsecond_buckets)
{
    /* us buckets: the limits sit at 2^10, 2^13, 2^16 us. 4900 >= 1024 us. */
    fill(24);
    for (unsigned i = 0; i < 24; i++)
        hours24[i] = (struct hour){95100, 4800, 0, 90, 10};
    /* shifted by 10: b10 = [512,1024) us, b11 [1024,2048), b14 [8192,..), b17 [65536,..) */
    struct logbuf lb = make_log(hours24, 24, 3600, 86400, true, NULL);
    struct act_analyze_opts o;
    struct act_analysis a;
    char err[256];
    act_analyze_opts_default(&o);
    CHECK(analyze_text(lb.text, lb.len, &o, &a, err) == 0, "%s", err);
    free(lb.text);
    CHECK(a.info.us_histograms && a.verdict.us_buckets, "scale");
    CHECK(a.tables[0].rows[0].over[0] == 100.00, "every read is >= 1 us");
    CHECK(a.verdict.status == ACT_VERDICT_PASS, "%d %s", a.verdict.status, a.verdict.reason);
    CHECK(a.verdict.worst_hour == 1, "all hours tie: the first is named, got %u",
          a.verdict.worst_hour);
    CHECK(a.verdict.max_pct[0] == 4.90 && a.verdict.max_pct[1] == 0.10 &&
          a.verdict.max_pct[2] == 0.01, "%f %f %f", a.verdict.max_pct[0], a.verdict.max_pct[1],
          a.verdict.max_pct[2]);
    act_analysis_free(&a);
}

TEST(round_trip_counts)
{
    /* Three 1 s reports with chosen cumulative counts, including buckets
     * past 16 (which count as "over" in every column) and bucket 64. */
    struct logbuf lb = {NULL, 0};
    FILE *f = open_memstream(&lb.text, &lb.len);
    fputs("ACT version 6.6\nreport-interval-sec: 1\nmicrosecond-histograms: no\n"
          "test-duration-sec: 3\n\n", f);
    struct act_log_hist h = {"reads", {90, 10}};
    act_log_interval(f, 1, &h, 1);
    h.buckets[0] = 180;
    h.buckets[1] = 15;
    h.buckets[5] = 5;
    act_log_interval(f, 2, &h, 1);
    h.buckets[40] = 7;
    h.buckets[64] = 3;
    act_log_interval(f, 3, &h, 1);
    fclose(f);
    struct act_analyze_opts o;
    struct act_analysis a;
    char err[256];
    act_analyze_opts_default(&o);
    o.slice_sec = 1;
    CHECK(analyze_text(lb.text, lb.len, &o, &a, err) == 0, "%s", err);
    free(lb.text);
    const struct act_table *t = &a.tables[0];
    CHECK(t->nslices == 3 && a.info.nblocks == 3 && a.info.producer[0] == '\0', "%u", t->nslices);
    CHECK(t->rows[0].ops == 100 && t->rows[1].ops == 100 && t->rows[2].ops == 10, "ops");
    CHECK(t->rows[0].over[0] == 10.00 && t->rows[0].over[1] == 0.00, "slice 1");
    CHECK(t->rows[1].over[0] == 10.00 && t->rows[1].over[1] == 5.00 && t->rows[1].over[4] == 5.00 &&
          t->rows[1].over[5] == 0.00, "slice 2");
    CHECK(t->rows[2].over[0] == 100.00 && t->rows[2].over[16] == 100.00 &&
          t->rows[2].rate == 10.0, "slice 3");
    CHECK(t->avg[0] == 40.0 && t->max[0] == 100.0 && t->max[1] == 100.0, "avg %f", t->avg[0]);
    CHECK(a.verdict.status == ACT_VERDICT_NONE && a.verdict.hours == 0, "no hour");
    act_analysis_free(&a);
}

TEST(act66_sample_and_table_text)
{
    struct act_analyze_opts o;
    struct act_analysis a;
    char err[256];
    act_analyze_opts_default(&o);
    o.slice_sec = 1;
    o.num_buckets = 3;
    o.every_nth = 3;
    o.extra = true;
    CHECK(act_analyze_file(DATA "act66_sample.log", &o, &a, err, sizeof(err)) == 0, "%s", err);
    CHECK(!strcmp(a.info.version, "6.6") && a.info.version_num == 6.6 && !a.info.producer[0], "-");
    CHECK(a.info.report_interval_sec == 1 && a.info.test_duration_sec == 180 &&
          a.info.num_devices == 1 && !a.info.us_histograms, "header");
    CHECK(a.info.nblocks == 3 && a.info.stopped_early && a.verdict.status == ACT_VERDICT_FAIL, "-");
    CHECK(strstr(a.info.config_text, "ACT-STORAGE CONFIGURATION\ndevice-names: /dev/sdb\n") &&
          strstr(a.info.config_text, "\n\nDERIVED CONFIGURATION\n"), "%s", a.info.config_text);
    CHECK(!strcmp(a.info.names_text, "reads\n/dev/sdb-reads\nlarge-block-reads\n"
                                     "large-block-writes\n"), "%s", a.info.names_text);
    CHECK(a.ncols == 3 && a.cols[1] == 3 && a.cols[2] == 6, "columns");
    size_t len;
    char *buf = NULL;
    FILE *f = open_memstream(&buf, &len);
    CHECK(act_text_tables(f, &a) == 3, "rows");
    fclose(f);
    char want[1024];
    snprintf(want, sizeof(want),
             "%8s%-31s\n%7s%-32s\n"
             "slice        1      8     64       rate\n"
             "-----   ------ ------ ------ ----------\n"
             "    1     1.25   0.00   0.00     6000.0\n"
             "    2     1.25   0.03   0.00     6000.0\n"
             "    3     2.50   0.13   0.07     6000.0\n"
             "-----   ------ ------ ------ ----------\n"
             "  avg     1.67   0.05   0.02     6000.0\n"
             "  max     2.50   0.13   0.07     6000.0\n",
             "", "reads", "", " %>(ms)");
    CHECK(!strcmp(buf, want), "got:\n%s\nwant:\n%s", buf, want);
    free(buf);
    act_analysis_free(&a);

    /* -t 2: one 2 s slice; the third second is a partial slice, ignored.
     * Two tables, the second pushed right by the first's long name. */
    act_analyze_opts_default(&o);
    o.slice_sec = 2;
    o.num_buckets = 1;
    o.nhist = 2;
    strcpy(o.hist[0], "/dev/sdb-reads");
    strcpy(o.hist[1], "large-block-writes");
    CHECK(act_analyze_file(DATA "act66_sample.log", &o, &a, err, sizeof(err)) == 0, "%s", err);
    CHECK(a.ntables == 2 && a.tables[0].nslices == 1 && a.tables[0].rows[0].ops == 12001, "-");
    /* /dev/sdb-reads over 1 ms: 150 of 12001 = 1.2499% -> 1.25; lb writes 2 of 142 = 1.41 */
    CHECK(a.tables[0].rows[0].over[0] == 1.25 && a.tables[1].rows[0].over[0] == 1.41, "%f %f",
          a.tables[0].rows[0].over[0], a.tables[1].rows[0].over[0]);
    buf = NULL;
    f = open_memstream(&buf, &len);
    act_text_tables(f, &a);
    fclose(f);
    /* len_table 7; the 2nd table is padded by 1 + 14 - 7 = 8 */
    const char *want2 = "        /dev/sdb-reads   large-block-writes\n"
                        "        %>(ms)           %>(ms)\n"
                        "slice        1                1\n"
                        "-----   ------           ------\n"
                        "    1     1.25             1.41\n"
                        "-----   ------           ------\n"
                        "  avg     1.25             1.41\n"
                        "  max     1.25             1.41\n";
    CHECK(!strcmp(buf, want2), "got:\n%s", buf);
    free(buf);
    act_analysis_free(&a);
}

TEST(act30_sample_old_names)
{
    struct act_analyze_opts o;
    struct act_analysis a;
    char err[256];
    act_analyze_opts_default(&o);
    o.slice_sec = 1;
    CHECK(act_analyze_file(DATA "act30_sample.log", &o, &a, err, sizeof(err)) == 0, "%s", err);
    CHECK(!strcmp(a.info.version, "3.0") && a.ntables == 2, "%s %u", a.info.version, a.ntables);
    CHECK(!strcmp(a.tables[0].name, "READS") && !strcmp(a.tables[1].name, "RAW READS"), "%s %s",
          a.tables[0].name, a.tables[1].name);
    const struct act_slice_row *r = a.tables[0].rows, *raw = a.tables[1].rows;
    CHECK(r[0].over[0] == 1.00 && r[0].over[1] == 0.25 && r[1].over[0] == 1.50 &&
          r[1].over[1] == 0.50 && r[1].over[2] == 0.25 && r[1].over[3] == 0.00, "READS");
    CHECK(raw[0].over[0] == 0.50 && raw[1].over[0] == 0.75 && raw[1].over[1] == 0.25, "RAW");
    /* (0.25 + 0.50) / 2 = 0.375 prints as 0.38 (ties to even, as Python) */
    CHECK(a.tables[0].avg[1] == 0.375, "%f", a.tables[0].avg[1]);
    CHECK(a.verdict.status == ACT_VERDICT_INCOMPLETE && !strcmp(a.verdict.hist, "READS"), "%d",
          a.verdict.status);
    act_analysis_free(&a);
    /* -h large-block-reads finds "LARGE BLOCK READS" */
    o.nhist = 1;
    strcpy(o.hist[0], "large-block-reads");
    CHECK(act_analyze_file(DATA "act30_sample.log", &o, &a, err, sizeof(err)) == 0, "%s", err);
    CHECK(a.ntables == 1 && !strcmp(a.tables[0].name, "LARGE BLOCK READS") &&
          a.tables[0].rows[1].ops == 23, "%s", a.tables[0].name);
    act_analysis_free(&a);
}

static bool bad_log(const char *text, const char *want, char *err)
{
    struct act_analyze_opts o;
    struct act_analysis a;
    act_analyze_opts_default(&o);
    o.slice_sec = 1;
    err[0] = '\0';
    if (analyze_text(text, strlen(text), &o, &a, err) != -EINVAL)
        return false;
    return strstr(err, want) != NULL;
}

#define HDR "ACT version 6.6\nreport-interval-sec: 1\n\n"

TEST(reader_errors_and_truncation)
{
    char err[256];
    CHECK(bad_log("hello\nworld\n", "t.log: not an ACT log", err), "%s", err);
    CHECK(bad_log(HDR, "no 'after N sec:' report", err), "%s", err);
    CHECK(bad_log("ACT version 6.6\nafter 1 sec:\n", "t.log:2:", err), "%s", err);
    CHECK(bad_log(HDR "after 1 sec:\nreads (100 total)\n (00: 0000000090)\n\nafter 2 sec:\n"
                      "reads (200 total)\n (00: 0000000200)\n\n",
                  "t.log:5: reads: buckets add up to 90 but the line says 100 total", err),
          "%s", err);
    CHECK(bad_log(HDR "after 1 sec:\nreads (100 total)\n (00: 00000x0100)\n\n",
                  "t.log:6: bad histogram bucket line", err), "%s", err);
    CHECK(bad_log(HDR "after 1 sec:\nreads (100 total)\n (00: 0000000100)\n\nafter 2 sec:\n"
                      "reads (50 total)\n (00: 0000000050)\n\n",
                  "t.log:9: reads: counts went down", err), "%s", err);
    CHECK(bad_log(HDR "after 2 sec:\nreads (1 total)\n (00: 0000000001)\n\nafter 1 sec:\n",
                  "t.log:8: 'after 1 sec:' after the report at 2 sec", err), "%s", err);
    struct act_analyze_opts o;
    struct act_analysis a;
    act_analyze_opts_default(&o);
    o.nhist = 1;
    strcpy(o.hist[0], "writes");
    CHECK(act_analyze_file(DATA "act66_sample.log", &o, &a, err, sizeof(err)) == -EINVAL &&
          strstr(err, "no histogram 'writes' in the log (it has: reads, /dev/sdb-reads, "
                      "large-block-reads, large-block-writes)"), "%s", err);
    CHECK(act_analyze_file(DATA "missing.log", &o, &a, err, sizeof(err)) == -ENOENT, "%s", err);

    /* cut in the middle of the third report: dropped, flagged */
    const char *cut = HDR "after 1 sec:\nreads (100 total)\n (00: 0000000100)\n\n"
                          "after 2 sec:\nreads (200 total)\n (00: 0000000190) (01: 0000000010)\n\n"
                          "after 3 sec:\nreads (300 total)\n (00: 00000002";
    act_analyze_opts_default(&o);
    o.slice_sec = 1;
    CHECK(analyze_text(cut, strlen(cut), &o, &a, err) == 0, "%s", err);
    CHECK(a.info.truncated && a.info.nblocks == 2 && a.info.last_elapsed == 2 &&
          a.tables[0].nslices == 2 && a.tables[0].rows[1].over[0] == 10.00, "cut");
    act_analysis_free(&a);
    /* a whole last report without its blank line is kept */
    const char *whole = HDR "after 1 sec:\nreads (100 total)\n (00: 0000000100)\n\n"
                            "after 2 sec:\nreads (200 total)\n (00: 0000000190) (01: 0000000010)";
    CHECK(analyze_text(whole, strlen(whole), &o, &a, err) == 0, "%s", err);
    CHECK(!a.info.truncated && a.info.nblocks == 2 && a.tables[0].nslices == 2, "whole");
    act_analysis_free(&a);
    /* slices rounded up to the report interval (ACT: 3600 at 7 s -> 3605) */
    const char *seven = "ACT version 6.6\nreport-interval-sec: 7\n\nafter 7 sec:\n"
                        "reads (7 total)\n (00: 0000000007)\n\n";
    o.slice_sec = 10;
    CHECK(analyze_text(seven, strlen(seven), &o, &a, err) == 0, "%s", err);
    CHECK(a.slice_sec == 14 && a.slice_adjusted && a.hourly.slice_sec == 3605 &&
          a.tables[0].nslices == 0, "%u %u", a.slice_sec, a.hourly.slice_sec);
    act_analysis_free(&a);
}

TEST(table_feed_direct)
{
    /* The runner can feed snapshots without a log. 10 s slices. */
    struct act_table t;
    uint64_t cum[ACT_NBUCKETS] = {0};
    CHECK(act_table_init(&t, "reads", 10) == 0 && act_table_init(&t, "x", 0) == -EINVAL, "init");
    CHECK(act_table_init(&t, "reads", 10) == 0, "init");
    cum[0] = 50;
    CHECK(act_table_feed(&t, 5, cum) == 0 && t.nslices == 0, "mid-slice snapshot ignored");
    cum[0] = 99;
    cum[3] = 1;
    CHECK(act_table_feed(&t, 10, cum) == 0 && t.nslices == 1 && t.rows[0].over[2] == 1.00 &&
          t.rows[0].over[3] == 0.00 && t.rows[0].rate == 10.0, "slice 1");
    cum[0] = 50;
    CHECK(act_table_feed(&t, 20, cum) == -ERANGE, "counts went down");
    cum[0] = 199;
    CHECK(act_table_feed(&t, 20, cum) == 0 && t.nslices == 2 && t.rows[1].ops == 100 &&
          t.rows[1].over[0] == 0.00, "slice 2");
    /* no snapshot at 30 s: like act_latency.py, stop at the missing slice end */
    cum[0] = 400;
    CHECK(act_table_feed(&t, 35, cum) == 0 && act_table_feed(&t, 40, cum) == 0 &&
          t.nslices == 2 && t.gap, "gap");
    act_table_finish(&t);
    CHECK(t.avg[2] == 0.5 && t.max[2] == 1.0 && t.avg_rate == 10.0, "%f", t.avg[2]);
    act_table_free(&t);
}

TEST(display_columns_and_round)
{
    unsigned c[ACT_TABLE_BUCKETS];
    CHECK(act_display_columns(0, 7, 1, c) == 7 && c[6] == 6, "default");
    CHECK(act_display_columns(0, 3, 3, c) == 3 && c[0] == 0 && c[1] == 3 && c[2] == 6, "-n3 -e3");
    CHECK(act_display_columns(2, 20, 2, c) == 8 && c[7] == 16, "capped at bucket 16");
    CHECK(act_display_columns(16, 7, 1, c) == 1 && c[0] == 16, "last");
    /* Python: round(0.125, 2) = 0.12, round(0.375, 2) = 0.38, round(2.675, 2) = 2.67
     * (2.675 is 2.67499... in binary), round(1.005, 2) = 1.0 */
    CHECK(round_decimal(0.125, 2) == 0.12 && round_decimal(0.375, 2) == 0.38 &&
          round_decimal(2.675, 2) == 2.67 && round_decimal(1.005, 2) == 1.0 &&
          round_decimal(27.777, 1) == 27.8, "round");
}

CHECK_MAIN()
