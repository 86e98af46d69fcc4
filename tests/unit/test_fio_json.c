/* test_fio_json.c - the fio-shaped JSON renderer on result documents built
 * here with known contents: every expected figure is worked out by hand from
 * the samples put in (bucket bounds from the histogram's layout rule, fio's
 * units and bucket semantics), never taken from the renderer itself. */
#include "check.h"

#include <errno.h>
#include <math.h>

#include "output/fio_json.h"
#include "output/fio_json_int.h"
#include "result/result_hist.h"

/* ---- building a result document ---------------------------------------- */

/* latency_ns object of a scope: n, the percentile keys ssdbench writes
 * ("%g"), and the lossless histogram. */
static cJSON *lat_obj(const uint64_t *v, const unsigned *count, unsigned nv)
{
    static struct hist h;
    hist_init(&h);
    for (unsigned i = 0; i < nv; i++)
        for (unsigned k = 0; k < count[i]; k++)
            hist_add(&h, v[i]);
    cJSON *l = cJSON_CreateObject();
    cJSON_AddNumberToObject(l, "n", (double)h.n);
    cJSON *p = cJSON_AddObjectToObject(l, "percentiles");
    cJSON_AddNumberToObject(p, "99.9", 0);
    cJSON_AddNumberToObject(p, "50", 0);
    cJSON_AddNumberToObject(p, "60", 0);
    cJSON_AddNumberToObject(p, "90", 0);
    cJSON_AddItemToObject(l, "histogram", result_hist_to_json(&h));
    return l;
}

static cJSON *dir_obj(uint64_t ios, uint64_t bytes, uint64_t errors, cJSON *lat)
{
    cJSON *d = cJSON_CreateObject();
    cJSON_AddNumberToObject(d, "ios", (double)ios);
    cJSON_AddNumberToObject(d, "bytes", (double)bytes);
    cJSON_AddNumberToObject(d, "errors", (double)errors);
    if (lat)
        cJSON_AddItemToObject(d, "latency_ns", lat);
    return d;
}

static cJSON *scope_obj(const char *name, double elapsed, cJSON *rd, cJSON *wr)
{
    cJSON *s = cJSON_CreateObject();
    cJSON_AddStringToObject(s, "scope", name);
    cJSON_AddNumberToObject(s, "elapsed_s", elapsed);
    cJSON_AddItemToObject(s, "read", rd ? rd : dir_obj(0, 0, 0, NULL));
    cJSON_AddItemToObject(s, "write", wr ? wr : dir_obj(0, 0, 0, NULL));
    return s;
}

static cJSON *job_obj(const char *name, int group, bool gr, unsigned workers, unsigned iodepth,
                      const char *target)
{
    cJSON *j = cJSON_CreateObject();
    cJSON_AddStringToObject(j, "name", name);
    cJSON_AddNumberToObject(j, "group", group);
    cJSON_AddNumberToObject(j, "workers", workers);
    cJSON *p = cJSON_AddObjectToObject(j, "params");
    cJSON_AddStringToObject(p, "rw", "randread");
    cJSON_AddNumberToObject(p, "bs", 4096);
    cJSON_AddNumberToObject(p, "iodepth", iodepth);
    cJSON_AddNumberToObject(p, "numjobs", workers);
    cJSON_AddStringToObject(p, "engine", "io_uring");
    cJSON_AddBoolToObject(p, "direct", true);
    cJSON_AddNumberToObject(p, "ramp_s", 0);
    if (gr)
        cJSON_AddBoolToObject(p, "group_reporting", true);
    cJSON *t = cJSON_AddArrayToObject(j, "targets");
    cJSON_AddItemToArray(t, cJSON_CreateString(target));
    return j;
}

static cJSON *new_phase(cJSON *doc, const char *name, double elapsed, double user_s)
{
    cJSON *ph = cJSON_CreateObject();
    cJSON_AddStringToObject(ph, "name", name);
    cJSON_AddStringToObject(ph, "kind", "run");
    cJSON_AddNumberToObject(ph, "elapsed_s", elapsed);
    cJSON *cpu = cJSON_AddObjectToObject(ph, "cpu");
    cJSON_AddNumberToObject(cpu, "user_s", user_s);
    cJSON_AddNumberToObject(cpu, "sys_s", user_s / 2);
    cJSON_AddArrayToObject(ph, "jobs");
    cJSON_AddArrayToObject(ph, "results");
    cJSON_AddArrayToObject(ph, "kernel_stats");
    cJSON_AddArrayToObject(ph, "errors");
    cJSON_AddItemToArray(cJSON_GetObjectItem(doc, "phases"), ph);
    return ph;
}

/* rows [t_ms, read_iops, read_mbps, write_iops, write_mbps] */
static void set_rows(cJSON *ph, const double (*rows)[5], unsigned n, bool raw)
{
    cJSON *iv = cJSON_AddObjectToObject(ph, "intervals");
    cJSON_AddNumberToObject(iv, "step_ms", 1000);
    const char *names[] = {"t_ms", "read_iops", "read_mbps", "write_iops", "write_mbps"};
    cJSON_AddItemToObject(iv, "fields", cJSON_CreateStringArray(names, 5));
    cJSON *a = cJSON_CreateArray();
    for (unsigned i = 0; i < n; i++)
        cJSON_AddItemToArray(a, cJSON_CreateDoubleArray(rows[i], 5));
    if (raw) {
        char *txt = cJSON_PrintUnformatted(a);
        cJSON_AddItemToObject(iv, "rows", cJSON_CreateRaw(txt));
        free(txt);
        cJSON_Delete(a);
    } else {
        cJSON_AddItemToObject(iv, "rows", a);
    }
}

static cJSON *new_doc(void)
{
    cJSON *doc = cJSON_CreateObject();
    cJSON_AddStringToObject(doc, "schema", "ssdbench-result/1");
    cJSON *tool = cJSON_AddObjectToObject(doc, "tool");
    cJSON_AddStringToObject(tool, "name", "ssdbench");
    cJSON_AddStringToObject(tool, "version", "9.9.9");
    cJSON_AddNumberToObject(doc, "started_unix_ms", 1700000000000.0);
    cJSON_AddNumberToObject(doc, "duration_s", 2.5);
    cJSON_AddArrayToObject(doc, "phases");
    return doc;
}

/* One job, one phase: 100 reads of 4 KiB in 2 s; latencies 50 x 100 ns,
 * 30 x 1500 ns, 20 x 3 ms; two interval rows. */
static cJSON *doc_single(bool raw_rows)
{
    cJSON *doc = new_doc();
    cJSON *ph = new_phase(doc, "p0", 2.0, 0.5);
    cJSON_AddItemToArray(cJSON_GetObjectItem(ph, "jobs"), job_obj("r", 0, false, 1, 4, "t0"));
    uint64_t v[] = {100, 1500, 3000000};
    unsigned c[] = {50, 30, 20};
    cJSON_AddItemToArray(cJSON_GetObjectItem(ph, "results"),
                         scope_obj("total", 2.0, dir_obj(100, 409600, 0, lat_obj(v, c, 3)), NULL));
    /* 40 and 60 I/Os per second; 0.16384 and 0.24576 MB/s = 160 and 240 KiB/s */
    const double rows[][5] = {{1000, 40, 0.16384, 0, 0}, {2000, 60, 0.24576, 0, 0}};
    set_rows(ph, rows, 2, raw_rows);
    return doc;
}

static const cJSON *get(const cJSON *o, const char *path)
{
    char buf[256];
    snprintf(buf, sizeof(buf), "%s", path);
    for (char *tok = strtok(buf, "/"); tok && o; tok = strtok(NULL, "/")) {
        char *end;
        long idx = strtol(tok, &end, 10);
        o = *end == 0 && cJSON_IsArray(o) ? cJSON_GetArrayItem(o, (int)idx)
                                          : cJSON_GetObjectItemCaseSensitive(o, tok);
    }
    return o;
}

static double num(const cJSON *o, const char *path)
{
    const cJSON *n = get(o, path);
    return cJSON_IsNumber(n) ? n->valuedouble : NAN;
}

static bool near(double a, double b)
{
    return fabs(a - b) <= 1e-6 * (fabs(b) > 1 ? fabs(b) : 1);
}

/* ---- tests -------------------------------------------------------------- */

TEST(header_names_the_producer)
{
    cJSON *doc = doc_single(false);
    char err[256];
    cJSON *f = fio_json_build(doc, false, err, sizeof(err));
    CHECK(f, "build failed: %s", err);
    const char *v = cJSON_GetStringValue(cJSON_GetObjectItem(f, "fio version"));
    CHECK(v && strncmp(v, "fio-3.33", 8) == 0 && strstr(v, "ssdbench 9.9.9"), "fio version '%s'", v ? v : "");
    CHECK(!strcmp(cJSON_GetStringValue(cJSON_GetObjectItem(f, "ssdbench version")), "9.9.9"), "version");
    /* the report is stamped at the end of the run: start + 2.5 s */
    CHECK(num(f, "timestamp") == 1700000002.0, "timestamp %g", num(f, "timestamp"));
    CHECK(num(f, "timestamp_ms") == 1700000002500.0, "timestamp_ms %g", num(f, "timestamp_ms"));
    CHECK(cJSON_GetArraySize(get(f, "jobs")) == 1, "one job");
    CHECK(!get(f, "disk_util"), "no disk_util without kernel counters");
    cJSON_Delete(f);
    cJSON_Delete(doc);
}

TEST(direction_figures_in_fio_units)
{
    cJSON *doc = doc_single(false);
    char err[256];
    cJSON *f = fio_json_build(doc, false, err, sizeof(err));
    CHECK(f, "build failed: %s", err);
    const cJSON *r = get(f, "jobs/0/read");
    CHECK(!strcmp(cJSON_GetStringValue(get(f, "jobs/0/jobname")), "r"), "jobname");
    CHECK(num(f, "jobs/0/groupid") == 0 && num(f, "jobs/0/error") == 0, "groupid/error");
    CHECK(num(r, "io_bytes") == 409600 && num(r, "io_kbytes") == 400, "bytes");
    CHECK(num(r, "bw_bytes") == 204800 && num(r, "bw") == 200, "bw %g", num(r, "bw"));
    CHECK(num(r, "iops") == 50 && num(r, "runtime") == 2000 && num(r, "total_ios") == 100, "iops/runtime");
    CHECK(num(r, "slat_ns/N") == 0 && num(r, "slat_ns/max") == 0, "slat zero");
    CHECK(num(r, "clat_ns/N") == 100 && num(r, "clat_ns/min") == 100 && num(r, "clat_ns/max") == 3000000,
          "clat n/min/max");
    /* mean = (50*100 + 30*1500 + 20*3e6) / 100 */
    CHECK(near(num(r, "clat_ns/mean"), 600500), "clat mean %f", num(r, "clat_ns/mean"));
    CHECK(num(r, "lat_ns/N") == 100 && !get(r, "lat_ns/percentile"), "lat_ns without percentiles");
    CHECK(!get(r, "clat_ns/bins"), "no bins without json+");
    /* percentile keys "%f", ascending; 1500 ns sits in [1496, 1504) whose
     * midpoint is 1500; the 3 ms bucket's midpoint 3006464 is clamped to max */
    const cJSON *p = get(r, "clat_ns/percentile");
    const char *want[] = {"50.000000", "60.000000", "90.000000", "99.900000"};
    double vals[] = {100, 1500, 3000000, 3000000};
    CHECK(cJSON_GetArraySize(p) == 4, "4 percentiles, got %d", cJSON_GetArraySize(p));
    for (int i = 0; i < 4; i++) {
        const cJSON *e = cJSON_GetArrayItem(p, i);
        CHECK(!strcmp(e->string, want[i]), "key %d '%s'", i, e->string);
        CHECK(e->valuedouble == vals[i], "%s = %g", want[i], e->valuedouble);
    }
    /* samples: KiB/s 160, 240; IOPS 40, 60 */
    CHECK(num(r, "bw_min") == 160 && num(r, "bw_max") == 240 && near(num(r, "bw_mean"), 200), "bw samples");
    CHECK(near(num(r, "bw_dev"), sqrt(3200)) && num(r, "bw_samples") == 2, "bw dev %f", num(r, "bw_dev"));
    CHECK(near(num(r, "bw_agg"), 100), "bw_agg %f", num(r, "bw_agg"));
    CHECK(num(r, "iops_min") == 40 && num(r, "iops_max") == 60 && near(num(r, "iops_mean"), 50), "iops samples");
    CHECK(near(num(r, "iops_stddev"), sqrt(200)) && num(r, "iops_samples") == 2, "iops dev");
    const cJSON *w = get(f, "jobs/0/write");
    CHECK(num(w, "total_ios") == 0 && num(w, "bw_samples") == 0 && !get(w, "clat_ns/percentile"),
          "empty write direction has no samples or percentiles");
    CHECK(num(f, "jobs/0/trim/io_bytes") == 0 && num(f, "jobs/0/trim/clat_ns/N") == 0, "trim zeros");
    CHECK(num(f, "jobs/0/sync/total_ios") == 0, "sync");
    cJSON_Delete(f);
    cJSON_Delete(doc);
}

TEST(job_level_fields)
{
    cJSON *doc = doc_single(true); /* live form: rows as raw JSON text */
    char err[256];
    cJSON *f = fio_json_build(doc, false, err, sizeof(err));
    CHECK(f, "build failed: %s", err);
    const cJSON *j = get(f, "jobs/0");
    CHECK(num(j, "read/bw_samples") == 2, "raw rows are read too");
    /* cpu: 0.5 s user, 0.25 s sys over a 2 s phase */
    CHECK(near(num(j, "usr_cpu"), 25) && near(num(j, "sys_cpu"), 12.5), "cpu %f", num(j, "usr_cpu"));
    CHECK(num(j, "job_runtime") == 2000 && num(j, "latency_depth") == 4, "runtime/depth");
    CHECK(!strcmp(cJSON_GetStringValue(get(j, "job options/rw")), "randread") &&
              !strcmp(cJSON_GetStringValue(get(j, "job options/iodepth")), "4"),
          "job options are strings");
    /* fio's buckets, key = exclusive upper bound: 100 ns in ns "250"
     * [100,250), 1500 ns in us "2" [1000,2000), 3 ms in ms "4" [2,4) ms */
    CHECK(near(num(j, "latency_ns/250"), 50) && num(j, "latency_ns/100") == 0, "ns table");
    CHECK(near(num(j, "latency_us/2"), 30) && num(j, "latency_us/4") == 0, "us table");
    CHECK(near(num(j, "latency_ms/4"), 20) && num(j, "latency_ms/2") == 0, "ms table");
    CHECK(num(j, "latency_ms/>=2000") == 0 && get(j, "latency_ms/2000"), "ms tail keys");
    CHECK(cJSON_GetArraySize(get(j, "latency_ns")) == 10 && cJSON_GetArraySize(get(j, "latency_us")) == 10 &&
              cJSON_GetArraySize(get(j, "latency_ms")) == 12,
          "table sizes");
    /* mean in flight = 60,050,000 ns of latency over 2 s = 0.03: bucket "1" */
    CHECK(num(j, "iodepth_level/1") == 100 && num(j, "iodepth_level/2") == 0, "iodepth_level");
    cJSON_Delete(f);
    cJSON_Delete(doc);
}

/* fio samples whole windows only: a last row shorter than the step (here
 * 300 ms of a 1 s step) is not a sample, and neither is a lone short row */
TEST(part_rows_are_not_samples)
{
    cJSON *doc = doc_single(false);
    cJSON *iv = (cJSON *)get(doc, "phases/0/intervals");
    const double tail[5] = {2300, 9000, 1.0, 0, 0};
    cJSON_AddItemToArray(cJSON_GetObjectItem(iv, "rows"), cJSON_CreateDoubleArray(tail, 5));
    char err[256];
    cJSON *f = fio_json_build(doc, false, err, sizeof(err));
    CHECK(f, "build failed: %s", err);
    CHECK(num(f, "jobs/0/read/iops_samples") == 2 && num(f, "jobs/0/read/iops_max") == 60, "tail row skipped");
    cJSON_Delete(f);
    cJSON_Delete(doc);

    doc = doc_single(false);
    iv = (cJSON *)get(doc, "phases/0/intervals");
    const double only[][5] = {{52, 4923, 20.16, 0, 0}};
    cJSON_ReplaceItemInObject(iv, "rows", cJSON_CreateArray());
    cJSON_AddItemToArray(cJSON_GetObjectItem(iv, "rows"), cJSON_CreateDoubleArray(only[0], 5));
    f = fio_json_build(doc, false, err, sizeof(err));
    CHECK(f && num(f, "jobs/0/read/bw_samples") == 0 && num(f, "jobs/0/read/bw_mean") == 0,
          "a 52 ms job has no samples");
    cJSON_Delete(f);
    cJSON_Delete(doc);
}

TEST(json_plus_bins_and_clat2csv_limit)
{
    cJSON *doc = new_doc();
    cJSON *ph = new_phase(doc, "p0", 30.0, 0);
    cJSON_AddItemToArray(cJSON_GetObjectItem(ph, "jobs"), job_obj("slow", 0, false, 1, 1, "t0"));
    /* 20 s and 30 s lie above fio's last bin: both fold into 17112760320 */
    uint64_t v[] = {100, 1500, 20000000000ull, 30000000000ull};
    unsigned c[] = {3, 2, 1, 1};
    cJSON_AddItemToArray(cJSON_GetObjectItem(ph, "results"),
                         scope_obj("total", 30.0, dir_obj(7, 7 * 4096, 0, lat_obj(v, c, 4)), NULL));
    char err[256];
    cJSON *f = fio_json_build(doc, true, err, sizeof(err));
    CHECK(f, "build failed: %s", err);
    const cJSON *b = get(f, "jobs/0/read/clat_ns/bins");
    CHECK(cJSON_GetArraySize(b) == 3, "3 bins, got %d", cJSON_GetArraySize(b));
    CHECK(num(b, "100") == 3 && num(b, "1500") == 2 && num(b, "17112760320") == 2, "bin counts");
    CHECK(!get(f, "jobs/0/read/lat_ns/bins") && !get(f, "jobs/0/write/clat_ns/bins"),
          "bins only on non-empty clat");
    /* 20 s and 30 s are >= 2000 ms */
    CHECK(near(num(f, "jobs/0/latency_ms/>=2000"), 200.0 / 7), "ms tail %f", num(f, "jobs/0/latency_ms/>=2000"));
    CHECK(!strcmp(cJSON_GetStringValue(cJSON_GetObjectItem(f, "ssdbench format")), "fio-json+/1"), "format");
    cJSON_Delete(f);
    cJSON_Delete(doc);
}

/* Phase of four jobs: a, b (group 0, group_reporting), c (group 1, gr),
 * d (group 1, no gr). fio reports a+b as one object, then c, then d. */
TEST(group_reporting_merges_as_fio)
{
    cJSON *doc = new_doc();
    cJSON *ph = new_phase(doc, "p0", 2.0, 0);
    cJSON *jobs = cJSON_GetObjectItem(ph, "jobs");
    cJSON_AddItemToArray(jobs, job_obj("a", 0, true, 2, 1, "t0"));
    cJSON_AddItemToArray(jobs, job_obj("b", 0, true, 1, 1, "t1"));
    cJSON_AddItemToArray(jobs, job_obj("c", 1, true, 1, 1, "t2"));
    cJSON_AddItemToArray(jobs, job_obj("d", 1, false, 1, 1, "t3"));
    cJSON *res = cJSON_GetObjectItem(ph, "results");
    uint64_t va[] = {1000}, vb[] = {3000}, vc[] = {200};
    unsigned ca[] = {10}, cb[] = {30}, cc[] = {5};
    cJSON_AddItemToArray(res, scope_obj("total", 2.0, dir_obj(45, 45 * 4096, 0, NULL), NULL));
    cJSON_AddItemToArray(res, scope_obj("job:a", 1.5, dir_obj(10, 10 * 4096, 0, lat_obj(va, ca, 1)), NULL));
    cJSON_AddItemToArray(res, scope_obj("job:b", 2.0, dir_obj(30, 30 * 4096, 0, lat_obj(vb, cb, 1)), NULL));
    cJSON_AddItemToArray(res, scope_obj("job:c", 1.0, dir_obj(5, 5 * 4096, 2, lat_obj(vc, cc, 1)), NULL));
    cJSON_AddItemToArray(res, scope_obj("job:d", 1.0, NULL, NULL));
    cJSON *e = cJSON_CreateObject();
    cJSON_AddStringToObject(e, "target", "t2");
    cJSON_AddNumberToObject(e, "errno", ENOSPC);
    cJSON_AddItemToArray(cJSON_GetObjectItem(ph, "errors"), e);
    const double rows[][5] = {{1000, 20, 0.08192, 0, 0}, {2000, 25, 0.1024, 0, 0}};
    set_rows(ph, rows, 2, false);
    char err[256];
    cJSON *f = fio_json_build(doc, false, err, sizeof(err));
    CHECK(f, "build failed: %s", err);
    CHECK(cJSON_GetArraySize(get(f, "jobs")) == 3, "3 objects, got %d", cJSON_GetArraySize(get(f, "jobs")));
    const cJSON *ab = get(f, "jobs/0");
    CHECK(!strcmp(cJSON_GetStringValue(get(ab, "jobname")), "a") && num(ab, "groupid") == 0, "a+b named a");
    /* merged: 40 I/Os, runtime = the longer job (2 s) */
    CHECK(num(ab, "read/total_ios") == 40 && num(ab, "read/runtime") == 2000, "merged counts");
    CHECK(num(ab, "read/io_bytes") == 40 * 4096 && num(ab, "read/bw_bytes") == 20 * 4096, "merged bw");
    /* merged histogram: 10 x 1000 and 30 x 3000 -> p50 = 3000, min 1000 */
    CHECK(num(ab, "read/clat_ns/percentile/50.000000") == 3000 && num(ab, "read/clat_ns/min") == 1000,
          "merged histogram");
    CHECK(near(num(ab, "read/clat_ns/mean"), 2500), "merged mean %f", num(ab, "read/clat_ns/mean"));
    /* the phase's rows are not a+b's own: no samples */
    CHECK(num(ab, "read/bw_samples") == 0 && num(ab, "read/iops_samples") == 0, "no samples for part");
    const cJSON *c = get(f, "jobs/1"), *d = get(f, "jobs/2");
    CHECK(!strcmp(cJSON_GetStringValue(get(c, "jobname")), "c") && num(c, "groupid") == 1, "c");
    CHECK(num(c, "error") == ENOSPC, "c error %g", num(c, "error"));
    CHECK(!strcmp(cJSON_GetStringValue(get(d, "jobname")), "d") && num(d, "error") == 0, "d separate");
    cJSON_Delete(f);

    /* a job without group_reporting starts an object even in the same
     * group; one with it joins the job before it (fio's rule) */
    cJSON *x = cJSON_GetArrayItem(jobs, 0);
    cJSON_ReplaceItemInObject(cJSON_GetObjectItem(x, "params"), "group_reporting", cJSON_CreateFalse());
    f = fio_json_build(doc, false, err, sizeof(err));
    CHECK(f && cJSON_GetArraySize(get(f, "jobs")) == 3, "a (no gr) + b (gr) still merge");
    cJSON_Delete(f);
    cJSON *y = cJSON_GetArrayItem(jobs, 1);
    cJSON_ReplaceItemInObject(cJSON_GetObjectItem(y, "params"), "group_reporting", cJSON_CreateFalse());
    f = fio_json_build(doc, false, err, sizeof(err));
    CHECK(f && cJSON_GetArraySize(get(f, "jobs")) == 4, "no group_reporting: one object per job");
    CHECK(num(f, "jobs/1/read/total_ios") == 30 && near(num(f, "jobs/1/read/bw_agg"), 0),
          "b alone, no samples");
    cJSON_Delete(f);
    cJSON_Delete(doc);
}

TEST(whole_phase_group_gets_samples_and_agg)
{
    cJSON *doc = new_doc();
    cJSON *ph = new_phase(doc, "p0", 2.0, 0);
    cJSON *jobs = cJSON_GetObjectItem(ph, "jobs");
    cJSON_AddItemToArray(jobs, job_obj("a", 0, true, 1, 1, "t0"));
    cJSON_AddItemToArray(jobs, job_obj("a", 0, true, 1, 1, "t1")); /* same name twice */
    cJSON *res = cJSON_GetObjectItem(ph, "results");
    uint64_t v1[] = {1000}, v2[] = {5000};
    unsigned c1[] = {20}, c2[] = {20};
    cJSON_AddItemToArray(res, scope_obj("job:a", 2.0, dir_obj(20, 20 * 4096, 0, lat_obj(v1, c1, 1)), NULL));
    cJSON_AddItemToArray(res, scope_obj("job:a", 2.0, dir_obj(20, 20 * 4096, 0, lat_obj(v2, c2, 1)), NULL));
    const double rows[][5] = {{1000, 20, 0.08192, 0, 0}, {2000, 20, 0.08192, 0, 0}};
    set_rows(ph, rows, 2, false);
    char err[256];
    cJSON *f = fio_json_build(doc, false, err, sizeof(err));
    CHECK(f, "build failed: %s", err);
    CHECK(cJSON_GetArraySize(get(f, "jobs")) == 1, "one group object");
    /* both same-named scopes are used, each once: min 1000, max 5000 */
    CHECK(num(f, "jobs/0/read/clat_ns/min") == 1000 && num(f, "jobs/0/read/clat_ns/max") == 5000,
          "k-th scope of a repeated name");
    CHECK(num(f, "jobs/0/read/bw_samples") == 2 && num(f, "jobs/0/read/bw_min") == 80, "samples");
    CHECK(near(num(f, "jobs/0/read/bw_agg"), 100), "agg %f", num(f, "jobs/0/read/bw_agg"));
    cJSON_Delete(f);
    cJSON_Delete(doc);
}

TEST(disk_util_summed_over_phases)
{
    cJSON *doc = new_doc();
    for (int p = 0; p < 2; p++) {
        cJSON *ph = new_phase(doc, p ? "p1" : "p0", 1.0, 0);
        cJSON_AddItemToArray(cJSON_GetObjectItem(ph, "jobs"), job_obj("j", p, false, 1, 1, "t0"));
        cJSON_AddItemToArray(cJSON_GetObjectItem(ph, "results"), scope_obj("total", 1.0, NULL, NULL));
        cJSON *k = cJSON_CreateObject();
        cJSON_AddStringToObject(k, "device", "loop7");
        cJSON_AddNumberToObject(k, "read_ios", 100 + p);
        cJSON_AddNumberToObject(k, "write_ios", 10);
        cJSON_AddNumberToObject(k, "read_merges", 1);
        cJSON_AddNumberToObject(k, "write_merges", 2);
        cJSON_AddNumberToObject(k, "read_ticks_ms", 300);
        cJSON_AddNumberToObject(k, "write_ticks_ms", 40);
        cJSON_AddNumberToObject(k, "io_ticks_ms", p ? 900 : 500);
        cJSON_AddItemToArray(cJSON_GetObjectItem(ph, "kernel_stats"), k);
    }
    char err[256];
    cJSON *f = fio_json_build(doc, false, err, sizeof(err));
    CHECK(f, "build failed: %s", err);
    const cJSON *d = get(f, "disk_util/0");
    CHECK(cJSON_GetArraySize(get(f, "disk_util")) == 1, "one disk");
    CHECK(!strcmp(cJSON_GetStringValue(get(d, "name")), "loop7"), "name");
    CHECK(num(d, "read_ios") == 201 && num(d, "write_ios") == 20 && num(d, "read_merges") == 2 &&
              num(d, "write_merges") == 4,
          "ios");
    CHECK(num(d, "read_ticks") == 600 && num(d, "write_ticks") == 80 && num(d, "in_queue") == 680, "ticks");
    /* 1400 ms busy over 2000 ms */
    CHECK(near(num(d, "util"), 70), "util %f", num(d, "util"));
    CHECK(num(f, "jobs/1/groupid") == 1, "second phase's group");
    cJSON_Delete(f);
    cJSON_Delete(doc);
}

TEST(iodepth_level_buckets)
{
    const struct {
        double depth;
        const char *key;
    } cases[] = {{0.2, "1"}, {1.4, "1"}, {1.6, "2"}, {3.0, "2"}, {4.0, "4"}, {31.6, "32"},
                 {63.0, "32"}, {64.0, ">=64"}, {500, ">=64"}};
    for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        cJSON *j = cJSON_CreateObject();
        fio_json_iodepth_level(j, cases[i].depth);
        const cJSON *t = cJSON_GetObjectItem(j, "iodepth_level");
        CHECK(cJSON_GetArraySize(t) == 7, "7 keys");
        CHECK(num(t, cases[i].key) == 100, "depth %g -> %s", cases[i].depth, cases[i].key);
        cJSON_Delete(j);
    }
}

TEST(damaged_histogram_is_an_error)
{
    cJSON *doc = doc_single(false);
    cJSON *h = (cJSON *)get(doc, "phases/0/results/0/read/latency_ns/histogram");
    cJSON_ReplaceItemInObject(h, "buckets", cJSON_CreateString("nonsense"));
    char err[256] = "";
    CHECK(fio_json_build(doc, false, err, sizeof(err)) == NULL, "must fail");
    CHECK(strstr(err, "phase 'p0'") && strstr(err, "job 'r'"), "message names phase and job: %s", err);
    FILE *f = tmpfile();
    CHECK(f, "tmpfile");
    CHECK(render_fio_json(f, doc, false, err, sizeof(err)) == -EINVAL, "render fails");
    CHECK(ftell(f) == 0, "nothing written");
    fclose(f);
    cJSON_Delete(doc);
}

TEST(render_writes_one_document)
{
    cJSON *doc = doc_single(false);
    FILE *f = tmpfile();
    char err[256];
    CHECK(f && render_fio_json(f, doc, true, err, sizeof(err)) == 0, "render: %s", err);
    long n = ftell(f);
    rewind(f);
    char *buf = calloc(1, (size_t)n + 1);
    CHECK(buf && fread(buf, 1, (size_t)n, f) == (size_t)n, "read back");
    const char *end = NULL;
    cJSON *back = cJSON_ParseWithOpts(buf, &end, true);
    CHECK(back, "output parses as exactly one JSON document");
    CHECK(num(back, "jobs/0/read/clat_ns/bins/100") == 50, "bins survive printing");
    cJSON_Delete(back);
    free(buf);
    fclose(f);
    cJSON_Delete(doc);
}

CHECK_MAIN()
