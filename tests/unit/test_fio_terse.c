/* test_fio_terse.c - the field lists of fio's terse versions 2 to 5
 * (render_fio_terse_v) on a result document built here, against fio 3.33's
 * documented layout (HOWTO "Terse output", stat.c
 * show_thread_status_terse_all): per direction 41 fields (KiB, KiB/s, IOPS,
 * runtime; slat, clat min/max/mean/dev; 20 percentiles "P%=usec"; lat
 * min/max/mean/dev; bw min/max/share/mean/dev), version 5 six more (bw
 * samples; iops min/max/mean/dev/samples); then cpu usr/sys/ctx/majf/minf,
 * 7 depth shares, 10 usec and 12 msec latency shares. Version 2 starts
 * "2;name;group;error", the others "V;version;name;group;error"; 3 has
 * reads and writes, 2, 4 and 5 add trims. Counts are worked out from that
 * layout, not taken from the renderer. */
#include "check.h"

#include <errno.h>

#include "output/fio_text.h"
#include "result/result_hist.h"

#define PER_DIR 41
#define V5_EXTRA 6
#define TAIL (5 + 7 + 10 + 12)

static cJSON *lat_obj(uint64_t v, unsigned n)
{
    static struct hist h;
    hist_init(&h);
    for (unsigned k = 0; k < n; k++)
        hist_add(&h, v);
    cJSON *l = cJSON_CreateObject();
    cJSON_AddNumberToObject(l, "n", (double)h.n);
    cJSON *p = cJSON_AddObjectToObject(l, "percentiles");
    cJSON_AddNumberToObject(p, "50", (double)v);
    cJSON_AddItemToObject(l, "histogram", result_hist_to_json(&h));
    return l;
}

static cJSON *dir_obj(uint64_t ios, uint64_t bytes, cJSON *lat)
{
    cJSON *d = cJSON_CreateObject();
    cJSON_AddNumberToObject(d, "ios", (double)ios);
    cJSON_AddNumberToObject(d, "bytes", (double)bytes);
    cJSON_AddNumberToObject(d, "errors", 0);
    if (lat)
        cJSON_AddItemToObject(d, "latency_ns", lat);
    return d;
}

/* One job "tj" (description desc when given): 100 reads of 4 KiB in 2 s
 * at 1500 ns each. */
static cJSON *doc_one(const char *desc)
{
    cJSON *doc = cJSON_CreateObject();
    cJSON_AddStringToObject(doc, "schema", "ssdbench-result/1");
    cJSON *tool = cJSON_AddObjectToObject(doc, "tool");
    cJSON_AddStringToObject(tool, "name", "ssdbench");
    cJSON_AddStringToObject(tool, "version", "9.9.9");
    cJSON_AddNumberToObject(doc, "started_unix_ms", 1700000000000.0);
    cJSON_AddNumberToObject(doc, "duration_s", 2.0);
    cJSON *phases = cJSON_AddArrayToObject(doc, "phases");
    cJSON *ph = cJSON_CreateObject();
    cJSON_AddItemToArray(phases, ph);
    cJSON_AddStringToObject(ph, "name", "p0");
    cJSON_AddStringToObject(ph, "kind", "run");
    cJSON_AddNumberToObject(ph, "elapsed_s", 2.0);
    cJSON *cpu = cJSON_AddObjectToObject(ph, "cpu");
    cJSON_AddNumberToObject(cpu, "user_s", 0.5);
    cJSON_AddNumberToObject(cpu, "sys_s", 0.25);
    cJSON *jobs = cJSON_AddArrayToObject(ph, "jobs");
    cJSON *results = cJSON_AddArrayToObject(ph, "results");
    cJSON_AddArrayToObject(ph, "kernel_stats");
    cJSON_AddArrayToObject(ph, "errors");
    cJSON *j = cJSON_CreateObject();
    cJSON_AddItemToArray(jobs, j);
    cJSON_AddStringToObject(j, "name", "tj");
    if (desc)
        cJSON_AddStringToObject(j, "description", desc);
    cJSON_AddNumberToObject(j, "group", 0);
    cJSON_AddNumberToObject(j, "workers", 1);
    cJSON *p = cJSON_AddObjectToObject(j, "params");
    cJSON_AddStringToObject(p, "rw", "read");
    cJSON_AddNumberToObject(p, "bs", 4096);
    cJSON_AddNumberToObject(p, "iodepth", 1);
    cJSON_AddNumberToObject(p, "numjobs", 1);
    cJSON_AddStringToObject(p, "engine", "psync");
    cJSON_AddNumberToObject(p, "ramp_s", 0);
    if (desc)
        cJSON_AddStringToObject(p, "description", desc);
    cJSON *t = cJSON_AddArrayToObject(j, "targets");
    cJSON_AddItemToArray(t, cJSON_CreateString("t0"));
    cJSON *s = cJSON_CreateObject();
    cJSON_AddItemToArray(results, s);
    cJSON_AddStringToObject(s, "scope", "total");
    cJSON_AddNumberToObject(s, "elapsed_s", 2.0);
    cJSON_AddItemToObject(s, "read", dir_obj(100, 409600, lat_obj(1500, 100)));
    cJSON_AddItemToObject(s, "write", dir_obj(0, 0, NULL));
    return doc;
}

/* The terse text of doc in version ver (NULL on a renderer error). */
static char *terse(const cJSON *doc, unsigned ver, int *rc)
{
    char *buf = NULL, err[256];
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    *rc = render_fio_terse_v(f, doc, ver, err, sizeof(err));
    fclose(f);
    if (*rc < 0) {
        free(buf);
        return NULL;
    }
    return buf;
}

/* Splits line (up to its newline) at ';' into at most max fields. */
static unsigned fields(char *line, char **out, unsigned max)
{
    char *nl = strchr(line, '\n');
    if (nl)
        *nl = 0;
    unsigned n = 0;
    for (char *s = line; n < max;) {
        out[n++] = s;
        char *semi = strchr(s, ';');
        if (!semi)
            break;
        *semi = 0;
        s = semi + 1;
    }
    return n;
}

static const unsigned header[6] = {0, 0, 4, 5, 5, 5};
static const unsigned ndirs[6] = {0, 0, 3, 2, 3, 3};

TEST(field_counts_per_version)
{
    cJSON *doc = doc_one(NULL);
    for (unsigned v = 2; v <= 5; v++) {
        int rc;
        char *txt = terse(doc, v, &rc);
        CHECK(txt, "version %u: rc %d", v, rc);
        char *f[300];
        unsigned n = fields(txt, f, 300);
        unsigned want = header[v] + ndirs[v] * (PER_DIR + (v == 5 ? V5_EXTRA : 0)) + TAIL;
        CHECK(n == want, "version %u: %u fields, fio's layout has %u", v, n, want);
        free(txt);
    }
    /* fio's counts: 161 (v2), 121 (v3), 162 (v4), 180 (v5) without disks */
    CHECK(header[2] + 3 * PER_DIR + TAIL == 161 && header[3] + 2 * PER_DIR + TAIL == 121 &&
              header[4] + 3 * PER_DIR + TAIL == 162 && header[5] + 3 * (PER_DIR + V5_EXTRA) + TAIL == 180,
          "layout arithmetic");
    cJSON_Delete(doc);
}

TEST(field_order_per_version)
{
    cJSON *doc = doc_one(NULL);
    for (unsigned v = 2; v <= 5; v++) {
        int rc;
        char *txt = terse(doc, v, &rc);
        CHECK(txt, "version %u: rc %d", v, rc);
        char *f[300];
        fields(txt, f, 300);
        char vs[4];
        snprintf(vs, sizeof(vs), "%u", v);
        CHECK(!strcmp(f[0], vs), "version %u: first field %s", v, f[0]);
        unsigned h = header[v];
        CHECK(!strcmp(f[h - 3], "tj") && !strcmp(f[h - 2], "0") && !strcmp(f[h - 1], "0"),
              "version %u: name, group, error: %s %s %s", v, f[h - 3], f[h - 2], f[h - 1]);
        if (v != 2)
            CHECK(strstr(f[1], "ssdbench 9.9.9") != NULL, "version %u: version string %s", v, f[1]);
        /* reads: 400 KiB; clat min 1 usec (1500 ns / 1000); first percentile "P%=usec" */
        CHECK(!strcmp(f[h], "400"), "version %u: read KiB %s", v, f[h]);
        CHECK(strchr(f[h + 12], '=') && strchr(f[h + 12], '%'), "version %u: first percentile %s", v, f[h + 12]);
        CHECK(strchr(f[h + 31], '=') && !strchr(f[h + 32], '='), "version %u: 20 percentiles end at %s", v,
              f[h + 31]);
        unsigned per = PER_DIR + (v == 5 ? V5_EXTRA : 0);
        /* the write block (and trim block) start with 0 KiB, then a percentile run */
        for (unsigned d = 1; d < ndirs[v]; d++) {
            CHECK(!strcmp(f[h + d * per], "0"), "version %u: dir %u KiB %s", v, d, f[h + d * per]);
            CHECK(!strcmp(f[h + d * per + 12], "0%=0"), "version %u: dir %u pct %s", v, d, f[h + d * per + 12]);
        }
        /* the tail: usr and sys cpu as percents, then 7 depth shares */
        unsigned t = h + ndirs[v] * per;
        CHECK(strchr(f[t], '%') && strchr(f[t + 1], '%') && !strchr(f[t + 2], '%'), "version %u: cpu %s %s %s", v,
              f[t], f[t + 1], f[t + 2]);
        CHECK(!strcmp(f[t + 5], "100.0%"), "version %u: depth 1 share %s", v, f[t + 5]);
        free(txt);
    }
    cJSON_Delete(doc);
}

TEST(description_and_bad_versions)
{
    cJSON *doc = doc_one("my job");
    int rc;
    char *t2 = terse(doc, 2, &rc);
    CHECK(t2, "v2: rc %d", rc);
    /* fio's v2 puts the description after a newline */
    CHECK(strstr(t2, "\n;my job\n") != NULL, "v2 description: %s", t2);
    free(t2);
    char *t3 = terse(doc, 3, &rc);
    CHECK(t3 && strstr(t3, ";my job\n") && !strstr(t3, "\n;my job"), "v3 description: %s", t3 ? t3 : "");
    free(t3);
    CHECK(!terse(doc, 1, &rc) && rc == -EINVAL, "version 1: %d", rc);
    CHECK(!terse(doc, 6, &rc) && rc == -EINVAL, "version 6: %d", rc);
    cJSON_Delete(doc);
}

CHECK_MAIN()
