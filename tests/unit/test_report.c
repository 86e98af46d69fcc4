/* test_report.c - the report model (html_report and the run builder) on
 * hand-made result documents whose answers are known: a histogram of the
 * values 1..100 ns (unit-width buckets, so every percentile is exact), two
 * interval rows, and two results for labels, ratios and the page itself. */
#include "check.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output/html_kinds.h"
#include "output/html_build.h"
#include "output/report_csv.h"
#include "result/result_hist.h"

static const char skeleton[] =
    "{\"schema\":\"ssdbench-result/1\",\"tool\":{\"name\":\"ssdbench\",\"version\":\"0.1.0\",\"command_line\":[\"run\"]},"
    "\"started\":\"2026-01-01T00:00:00Z\",\"duration_s\":2,\"host\":{\"hostname\":\"h\",\"kernel\":\"6.1\"},"
    "\"targets\":[{\"id\":\"t0\",\"path\":\"/tmp/x\",\"kind\":\"file\",\"size_bytes\":1048576}],"
    "\"phases\":[{\"name\":\"p\",\"kind\":\"run\",\"elapsed_s\":2,\"stopped_by\":\"complete\","
    "\"jobs\":[{\"name\":\"p\",\"params\":{\"rw\":\"randread\",\"bs\":4096,\"iodepth\":1,\"numjobs\":1,"
    "\"engine\":\"psync\",\"direct\":true}}],"
    "\"results\":[{\"scope\":\"total\",\"elapsed_s\":2,\"mean_inflight\":1,"
    "\"read\":{\"ios\":100,\"iops\":IOPS,\"mbps\":0.2048,\"errors\":0,"
    "\"latency_ns\":{\"n\":100,\"min\":1,\"max\":100,\"mean\":50.5,\"stddev\":29.01}},"
    "\"write\":{\"ios\":0}}],"
    "\"intervals\":{\"step_ms\":1000,\"fields\":[\"t_ms\",\"read_iops\",\"read_lat_mean_ns\"],"
    "\"rows\":[[1000,40,45],[2000,60,55]]}}],\"errors\":[]}";

/* A result whose read histogram holds 1..100 ns once each. */
static cJSON *make_doc(double iops)
{
    char text[sizeof(skeleton) + 32], num[32];
    snprintf(num, sizeof(num), "%g", iops);
    const char *at = strstr(skeleton, "IOPS");
    snprintf(text, sizeof(text), "%.*s%s%s", (int)(at - skeleton), skeleton, num, at + 4);
    cJSON *doc = cJSON_Parse(text);
    if (!doc)
        return NULL;
    struct hist *h = malloc(sizeof(*h));
    if (!h) {
        cJSON_Delete(doc);
        return NULL;
    }
    hist_init(h);
    for (uint64_t v = 1; v <= 100; v++)
        hist_add(h, v);
    cJSON *ph = cJSON_GetArrayItem(cJSON_GetObjectItem(doc, "phases"), 0);
    cJSON *sc = cJSON_GetArrayItem(cJSON_GetObjectItem(ph, "results"), 0);
    cJSON *lat = cJSON_GetObjectItem(cJSON_GetObjectItem(sc, "read"), "latency_ns");
    cJSON_AddItemToObject(lat, "histogram", result_hist_to_json(h));
    free(h);
    return doc;
}

static const struct html_table *table(const struct html_report *r, const char *id)
{
    for (size_t i = 0; i < r->ntables; i++)
        if (!strcmp(r->tables[i]->id, id))
            return r->tables[i];
    return NULL;
}

static int col(const struct html_table *t, const char *name)
{
    for (size_t c = 0; t && c < t->ncols; c++)
        if (!strcmp(t->cols[c].name, name))
            return (int)c;
    return -1;
}

/* Several results of one profile: a comparables table with a row per result
 * (its IOPS as filed) and, as they are of one target, its trend in start
 * order. */
TEST(comparables_and_trend)
{
    cJSON *a = make_doc(50), *b = make_doc(125), *c = make_doc(80);
    CHECK(a && b && c, "docs");
    cJSON_DeleteItemFromObject(a, "started_unix_ms");
    cJSON_AddNumberToObject(a, "started_unix_ms", 3000);
    cJSON_DeleteItemFromObject(b, "started_unix_ms");
    cJSON_AddNumberToObject(b, "started_unix_ms", 1000);
    cJSON_DeleteItemFromObject(c, "started_unix_ms");
    cJSON_AddNumberToObject(c, "started_unix_ms", 2000);
    struct html_report_input in[3] = {{a, "/r/a.json", NULL}, {b, "/r/b.json", NULL}, {c, "/r/c.json", NULL}};
    char err[256] = "";
    struct html_report *r = html_build(in, 3, NULL, err, sizeof(err));
    CHECK(r != NULL, "build: %s", err);
    const struct html_table *ct = table(r, "comparables-1");
    int ci = col(ct, "read IOPS"), cl = col(ct, "result");
    CHECK(ct && ct->nrows == 3 && ci >= 0 && cl >= 0, "comparables table");
    CHECK(html_table_get(ct, 0, ci) == 50 && html_table_get(ct, 1, ci) == 125 && html_table_get(ct, 2, ci) == 80 &&
              !strcmp(html_table_text(ct, 1, cl), "b"),
          "bars %g %g %g", html_table_get(ct, 0, ci), html_table_get(ct, 1, ci), html_table_get(ct, 2, ci));
    const struct html_table *tt = table(r, "trend-1");
    int tv = tt && tt->ncols > 2 ? 2 : -1;
    CHECK(tt && tt->nrows == 3 && tv >= 0, "trend table");
    CHECK(html_table_get(tt, 0, tv) == 125 && html_table_get(tt, 1, tv) == 80 && html_table_get(tt, 2, tv) == 50,
          "trend in start order");
    size_t charts = 0;
    for (size_t i = 0; i < r->nitems; i++)
        charts += r->items[i].kind == HTML_CHART && (strstr(r->items[i].chart->title, "Comparables") ||
                                                    strstr(r->items[i].chart->title, "Trend"));
    CHECK(charts == 2, "%zu comparables/trend charts", charts);
    html_report_free(r);
    /* one result: neither */
    r = html_build(in, 1, NULL, err, sizeof(err));
    CHECK(r && !table(r, "comparables-1") && !table(r, "trend-1"), "single result");
    html_report_free(r);
    cJSON_Delete(a);
    cJSON_Delete(b);
    cJSON_Delete(c);
}

TEST(hist_bins)
{
    uint64_t lo, hi;
    html_hist_bin(5, &lo, &hi);
    CHECK(lo == 5 && hi == 6, "%lu %lu", (unsigned long)lo, (unsigned long)hi);
    html_hist_bin(1000, &lo, &hi);          /* [512, 1024): bins of 64 */
    CHECK(lo == 960 && hi == 1024, "%lu %lu", (unsigned long)lo, (unsigned long)hi);
    html_hist_bin(1024, &lo, &hi);
    CHECK(lo == 1024 && hi == 1152, "%lu %lu", (unsigned long)lo, (unsigned long)hi);
    html_hist_bin(123136, &lo, &hi);        /* [65536, 131072): bins of 8192 */
    CHECK(lo == 122880 && hi == 131072, "%lu %lu", (unsigned long)lo, (unsigned long)hi);
}

TEST(single_run_tables)
{
    cJSON *doc = make_doc(50);
    CHECK(doc != NULL, "doc");
    struct html_report_input in = {doc, "/r/one.json", NULL};
    char err[256] = "";
    struct html_report *r = html_build(&in, 1, NULL, err, sizeof(err));
    CHECK(r != NULL, "build: %s", err);

    const struct html_table *pt = table(r, "run-p-percentiles");
    CHECK(pt && pt->nrows == 15, "percentile rows %zu", pt ? pt->nrows : 0);
    /* rank = ceil(p% of 100): the value itself; p0 is the minimum, 100 the maximum;
     * nothing past 99 % (1 - 1/n) but the maximum */
    const double p[15] = {0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 97, 98, 99, 100};
    const double v[15] = {1, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 97, 98, 99, 100};
    int pc = col(pt, "read");
    CHECK(pc >= 0, "read column");
    for (size_t i = 0; i < 15; i++)
        CHECK(html_table_get(pt, i, 0) == p[i] && html_table_get(pt, i, pc) == v[i], "row %zu: p%g = %g", i, html_table_get(pt, i, 0),
              html_table_get(pt, i, pc));

    /* 1..7 one bin each, 8..15 one each, 16..31 by 2, 32..63 by 4, 64..100 by 8 */
    const struct html_table *ht = table(r, "run-p-histogram");
    CHECK(ht && ht->nrows == 7 + 8 + 8 + 8 + 5, "histogram rows %zu", ht ? ht->nrows : 0);
    int cc = col(ht, "read I/Os"), cs = col(ht, "read share");
    double total = 0;
    for (size_t i = 0; i < ht->nrows; i++)
        total += html_table_get(ht, i, cc);
    size_t last = ht->nrows - 1;
    CHECK(total == 100, "counts sum to %g", total);
    CHECK(html_table_get(ht, last, 0) == 96 && html_table_get(ht, last, 1) == 104 && html_table_get(ht, last, cc) == 5 &&
              html_table_get(ht, last, cs) == 5,
          "last bin %g..%g: %g (%g %%)", html_table_get(ht, last, 0), html_table_get(ht, last, 1), html_table_get(ht, last, cc),
          html_table_get(ht, last, cs));
    /* rows 0..14 are 1..15; row 15 is 16-17, so row 20 is 26-27 */
    CHECK(html_table_get(ht, 20, 0) == 26 && html_table_get(ht, 20, 1) == 28 && html_table_get(ht, 20, cc) == 2, "bin 20 starts at %g",
          html_table_get(ht, 20, 0));

    const struct html_table *it = table(r, "run-p-intervals");
    int ic = col(it, "read IOPS"), lc = col(it, "read mean latency");
    CHECK(it && it->nrows == 2 && html_table_get(it, 0, 0) == 1 && html_table_get(it, 1, 0) == 2 && html_table_get(it, 0, ic) == 40 &&
              html_table_get(it, 1, ic) == 60 && html_table_get(it, 1, lc) == 55,
          "intervals");

    const struct html_table *st = table(r, "run-p-summary");
    CHECK(st && st->nrows == 1, "summary rows");
    CHECK(html_table_get(st, 0, col(st, "IOPS")) == 50 && html_table_get(st, 0, col(st, "p50")) == 50 &&
              html_table_get(st, 0, col(st, "p99")) == 99 && html_table_get(st, 0, col(st, "p99.9")) == 100 &&
              html_table_get(st, 0, col(st, "max")) == 100,
          "summary figures");
    CHECK(table(r, "run-p-comparison") == NULL, "no comparison for one result");

    /* the page: self-contained, one <svg> per chart */
    size_t charts = 0;
    for (size_t i = 0; i < r->nitems; i++)
        charts += r->items[i].kind == HTML_CHART;
    char *buf = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&buf, &n);
    CHECK(f && html_page_write(f, r) == 0, "html");
    fclose(f);
    size_t svgs = 0;
    for (const char *q = buf; (q = strstr(q, "<svg ")); q++)
        svgs++;
    int ok = !strncmp(buf, "<!DOCTYPE html>", 15) && !strstr(buf, "http") && !strstr(buf, "<script") &&
             strstr(buf, "</html>") && svgs == charts && charts == 4;
    free(buf);
    CHECK(ok, "page: %zu charts, %zu svg", charts, svgs);

    buf = NULL;
    f = open_memstream(&buf, &n);
    CHECK(f && report_csv_write_stream(f, r) == 0, "csv");
    fclose(f);
    ok = strstr(buf, "# run-p-percentiles: ") && strstr(buf, "\n99,99\n100,100\n");
    free(buf);
    CHECK(ok, "csv stream");
    html_report_free(r);
    cJSON_Delete(doc);
}

/* Latency rows divide the other way, as `ssdbench compare` does: b with
 * twice a's mean latency is 0.5 (worse), and sub-microsecond rows are in ns. */
TEST(comparison_latency_ratio_oriented)
{
    cJSON *a = make_doc(50), *b = make_doc(50);
    CHECK(a && b, "docs");
    cJSON *lat = cJSON_GetObjectItem(cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(
                     cJSON_GetArrayItem(cJSON_GetObjectItem(b, "phases"), 0), "results"), 0), "read"), "latency_ns");
    cJSON_ReplaceItemInObject(lat, "mean", cJSON_CreateNumber(101));
    struct html_report_input in[2] = {{a, "/r/a.json", NULL}, {b, "/r/b.json", NULL}};
    char err[256] = "";
    struct html_report_opts o = {.baseline = 0};
    struct html_report *r = html_build(in, 2, &o, err, sizeof(err));
    CHECK(r != NULL, "build: %s", err);
    const struct html_table *ct = r ? table(r, "run-p-comparison") : NULL;
    int ratio = col(ct, "b vs a (above 1: better)");
    CHECK(ct && ratio >= 0, "ratio column");
    CHECK(ct && !strcmp(html_table_text(ct, 2, 0), "read mean latency") && html_table_get(ct, 2, ratio) == 0.5,
          "mean latency ratio %g", ct ? html_table_get(ct, 2, ratio) : 0);
    CHECK(ct && !strcmp(html_table_text(ct, 2, 1), "ns") && html_table_get(ct, 2, col(ct, "a")) == 50.5,
          "sub-microsecond latency in ns: %s %g", ct ? html_table_text(ct, 2, 1) : "", ct ? html_table_get(ct, 2, col(ct, "a")) : 0);
    html_report_free(r);
    cJSON_Delete(a);
    cJSON_Delete(b);
}

TEST(two_results_ratios_labels)
{
    cJSON *a = make_doc(50), *b = make_doc(125);
    CHECK(a && b, "docs");
    struct html_report_input in[2] = {{a, "/r/a.json", NULL}, {b, "/r/b.json", NULL}};
    char err[256] = "";
    struct html_report_opts o = {.baseline = 0};
    struct html_report *r = html_build(in, 2, &o, err, sizeof(err));
    CHECK(r != NULL, "build: %s", err);
    /* same target name: the file names tell them apart */
    CHECK(!strcmp(r->labels[0], "a") && !strcmp(r->labels[1], "b"), "labels %s %s", r->labels[0], r->labels[1]);
    const struct html_table *ct = table(r, "run-p-comparison");
    int ratio = col(ct, "b vs a (above 1: better)");
    CHECK(ct && ratio >= 0, "ratio column");
    CHECK(html_table_get(ct, 0, ratio) == 2.5 && !strcmp(html_table_text(ct, 0, 0), "read IOPS"), "IOPS ratio %g",
          html_table_get(ct, 0, ratio));
    CHECK(html_table_get(ct, 2, ratio) == 1, "same latency: ratio %g", html_table_get(ct, 2, ratio));
    const struct html_table *pt = table(r, "run-p-percentiles");
    CHECK(pt && col(pt, "a") >= 0 && col(pt, "b") >= 0 && pt->nrows == 15, "overlaid percentile columns");
    html_report_free(r);

    o.baseline = 1;
    r = html_build(in, 2, &o, err, sizeof(err));
    ct = r ? table(r, "run-p-comparison") : NULL;
    CHECK(ct && col(ct, "a vs b (above 1: better)") >= 0 && html_table_get(ct, 0, col(ct, "a vs b (above 1: better)")) == 0.4, "baseline b");
    html_report_free(r);

    o.baseline = 2;
    r = html_build(in, 2, &o, err, sizeof(err));
    CHECK(r == NULL && strstr(err, "--baseline 3"), "bad baseline: %s", err);

    in[0].label = "left";
    in[1].label = "left";
    o.baseline = 0;
    r = html_build(in, 2, &o, err, sizeof(err));
    CHECK(r && !strcmp(r->labels[0], "left") && !strcmp(r->labels[1], "left (2)"), "given labels kept unique");
    html_report_free(r);
    cJSON_Delete(a);
    cJSON_Delete(b);
}

TEST(no_results)
{
    char err[128] = "";
    CHECK(html_build(NULL, 0, NULL, err, sizeof(err)) == NULL && strstr(err, "no result"), "%s", err);
}

CHECK_MAIN()
