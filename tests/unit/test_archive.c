/* test_archive.c - the results archive (src/archive/): the gate's median,
 * MAD and verdicts in exact arithmetic, selector and date parsing, and a
 * database round trip in a temporary directory: filing (bytes back exactly,
 * duplicates found), the indexed columns and figures, filters, selectors
 * (and the message of one that matches nothing), removal, mode 0600, a
 * damaged file, a newer schema and a foreign SQLite database refused. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <sqlite3.h>

#include "check.h"
#include "archive/archive.h"
#include "archive/archive_gate.h"

TEST(median_and_mad)
{
    double v[] = {5, 1, 3, 2, 4};
    CHECK(archive_median(v, 5) == 3, "odd");
    double w[] = {4, 1, 3, 2};
    CHECK(archive_median(w, 4) == 2.5, "even");
    double h[] = {100, 102, 98, 101, 99};
    struct archive_gate g;
    struct archive_gate_opts o = {3, 0.0};
    archive_gate_eval(h, 5, 100, true, &o, &g);
    CHECK(g.median == 100 && g.mad == 1, "median %g mad %g", g.median, g.mad);
    CHECK(fabs(g.bound - 3 * 1.4826) < 1e-12 && g.verdict == ARCHIVE_GATE_WITHIN, "bound %g", g.bound);
    CHECK(h[0] == 100 && h[4] == 99, "history not modified");
}

TEST(gate_verdicts)
{
    double stable[] = {1000, 1000, 1000, 1000, 1000};
    struct archive_gate g;
    struct archive_gate_opts o = {3, 0.01};
    /* MAD 0: the 1 % floor is the bound */
    archive_gate_eval(stable, 5, 995, true, &o, &g);
    CHECK(g.bound == 10 && g.limit == 990 && g.verdict == ARCHIVE_GATE_WITHIN, "bound %g", g.bound);
    archive_gate_eval(stable, 5, 989, true, &o, &g);
    CHECK(g.verdict == ARCHIVE_GATE_REGRESSED, "989 IOPS regressed");
    archive_gate_eval(stable, 5, 1011, true, &o, &g);
    CHECK(g.verdict == ARCHIVE_GATE_IMPROVED, "1011 IOPS improved");
    /* latency: higher is worse */
    archive_gate_eval(stable, 5, 1011, false, &o, &g);
    CHECK(g.verdict == ARCHIVE_GATE_REGRESSED && g.limit == 1010, "latency up regressed, limit %g", g.limit);
    /* noise larger than the change: MAD 100 -> bound 444.78 */
    double noisy[] = {800, 900, 1000, 1100, 1200};
    archive_gate_eval(noisy, 5, 700, true, &o, &g);
    CHECK(g.mad == 100 && g.verdict == ARCHIVE_GATE_WITHIN, "within the noise, mad %g", g.mad);
    archive_gate_eval(noisy, 5, 500, true, &o, &g);
    CHECK(g.verdict == ARCHIVE_GATE_REGRESSED, "beyond the noise");
    /* one outlier does not move the median or the MAD much */
    double outlier[] = {1000, 1001, 999, 1000, 5000};
    archive_gate_eval(outlier, 5, 950, true, &o, &g);
    CHECK(g.median == 1000 && g.mad == 1 && g.verdict == ARCHIVE_GATE_REGRESSED, "median %g mad %g", g.median, g.mad);
}

TEST(selectors_parse)
{
    struct archive_sel s;
    char err[512];
    CHECK(archive_sel_parse("archive:42", &s, err, sizeof(err)) == 0 && s.kind == ARCHIVE_SEL_ID && s.id == 42, "%s", err);
    CHECK(archive_sel_parse("archive:latest", &s, err, sizeof(err)) == 0 && s.kind == ARCHIVE_SEL_LATEST && s.n == 1,
          "%s", err);
    CHECK(archive_sel_parse("archive:best?workload=oltp&by=p99&n=3&tag=fw=1.2&device=X1", &s, err, sizeof(err)) == 0,
          "%s", err);
    CHECK(s.kind == ARCHIVE_SEL_BEST && s.n == 3 && !strcmp(s.by, "p99") && !strcmp(s.f.workload, "oltp") &&
              !strcmp(s.f.device, "X1") && s.f.ntags == 1 && !strcmp(s.f.tags[0].key, "fw") &&
              !strcmp(s.f.tags[0].value, "1.2"),
          "fields");
    CHECK(archive_sel_parse("archive:latest?since=2026-12-01", &s, err, sizeof(err)) == 0 && s.f.since_set &&
              s.f.since_ms == 1796083200000LL,
          "since %lld", (long long)s.f.since_ms);
    CHECK(archive_sel_parse("archive:newest", &s, err, sizeof(err)) == -EINVAL && strstr(err, "'newest'"), "%s", err);
    CHECK(archive_sel_parse("archive:latest?colour=red", &s, err, sizeof(err)) == -EINVAL && strstr(err, "'colour'"),
          "%s", err);
    CHECK(archive_sel_parse("archive:latest?n=0", &s, err, sizeof(err)) == -EINVAL, "n=0");
    CHECK(archive_sel_parse("archive:latest?by=p99", &s, err, sizeof(err)) == -EINVAL, "by only for best");
    CHECK(archive_sel_parse("archive:7?n=2", &s, err, sizeof(err)) == -EINVAL, "id takes no conditions");
    CHECK(archive_sel_parse("run.json", &s, err, sizeof(err)) == -EINVAL && !archive_is_selector("run.json"), "file");
    int64_t ms;
    CHECK(archive_parse_date("2026-12-01T13:05:00Z", &ms) == 0 && ms == 1796083200000LL + 13 * 3600000LL + 5 * 60000LL,
          "%lld", (long long)ms);
    CHECK(archive_parse_date("2026-13-01", &ms) == -EINVAL && archive_parse_date("yesterday", &ms) == -EINVAL, "bad");
}

static const char *doc_text(int n, const char *model, double iops, char *buf, size_t len)
{
    snprintf(buf, len,
             "{\"schema\":\"ssdbench-result/1\",\"started\":\"2026-12-0%dT10:00:00Z\",\"started_unix_ms\":%lld,"
             "\"tool\":{\"version\":\"0.1.0\",\"command_line\":[\"run\"]},\"host\":{\"hostname\":\"h1\",\"kernel\":\"6.1\"},"
             "\"targets\":[{\"id\":\"t0\",\"path\":\"/dev/x\",\"kind\":\"block\",\"size_bytes\":1000,"
             "\"device\":{\"model\":\"%s\",\"serial\":\"S%s\",\"firmware\":\"F1\",\"bus\":\"nvme\",\"capacity_bytes\":4096}}],"
             "\"phases\":[{\"name\":\"j\",\"kind\":\"run\",\"jobs\":[{\"name\":\"j\",\"params\":{\"rw\":\"randread\",\"bs\":4096,"
             "\"iodepth\":8,\"numjobs\":1,\"engine\":\"io_uring\"}}],"
             "\"results\":[{\"scope\":\"total\",\"read\":{\"ios\":10,\"iops\":%g,\"mbps\":2.5,"
             "\"latency_ns\":{\"mean\":100,\"max\":900,\"percentiles\":{\"99\":300,\"99.9\":500}}}}]}]}\n",
             n, 1796083200000LL + n * 86400000LL, model, model, iops);
    return buf;
}

struct seen {
    int n;
    int64_t ids[16];
    char model[64], tags[128], workload[64], key[256];
};

static int see_row(const struct archive_row *r, void *ctx)
{
    struct seen *s = ctx;
    if (s->n < 16)
        s->ids[s->n] = r->id;
    s->n++;
    snprintf(s->model, sizeof(s->model), "%s", r->model);
    snprintf(s->tags, sizeof(s->tags), "%s", r->tags);
    snprintf(s->workload, sizeof(s->workload), "%s", r->workload);
    snprintf(s->key, sizeof(s->key), "%s", r->workload_key);
    return 0;
}

/* the strings are valid during the callback only: the direction is copied */
struct seen_fig {
    struct archive_fig f;
    char dir[16];
};

static int see_fig(const struct archive_fig *f, void *ctx)
{
    struct seen_fig *out = ctx;
    out->f = *f;
    snprintf(out->dir, sizeof(out->dir), "%s", f->dir);
    out->f.dir = out->dir;
    out->f.phase = out->f.steady = "";
    return 0;
}

/* A result of two phases: phase 0 with every direction, phase 1 with
 * write and trim (or, when bare, no I/O at all). */
static const char *doc_dirs(int n, const char *model, bool bare, char *buf, size_t len)
{
    const char *dir = "{\"ios\":10,\"iops\":%d.25,\"mbps\":1.5,\"latency_ns\":{\"mean\":100,\"max\":900,"
                      "\"percentiles\":{\"99\":300,\"99.9\":500}}}";
    char r[256], w[256], t[256];
    snprintf(r, sizeof(r), dir, n * 10 + 1);
    snprintf(w, sizeof(w), dir, n * 10 + 2);
    snprintf(t, sizeof(t), dir, n * 10 + 3);
    snprintf(buf, len,
             "{\"schema\":\"ssdbench-result/1\",\"started\":\"2026-12-01T10:00:00Z\",\"started_unix_ms\":%lld,"
             "\"tool\":{\"version\":\"0.1.0\"},\"host\":{\"hostname\":\"h\",\"kernel\":\"6.1\"},"
             "\"targets\":[{\"id\":\"t0\",\"path\":\"/dev/x\",\"kind\":\"block\",\"size_bytes\":1000,"
             "\"device\":{\"model\":\"%s\",\"serial\":\"S\",\"capacity_bytes\":4096}}],"
             "\"phases\":[{\"name\":\"p0\",\"kind\":\"run\",\"results\":[{\"scope\":\"total\",\"read\":%s,\"write\":%s,"
             "\"trim\":%s}]},{\"name\":\"p1\",\"kind\":\"run\",\"results\":[{\"scope\":\"total\"%s%s%s%s}]}]}\n",
             /* the same start for ids 2 and 3: the id orders them */
             1796083200000LL + (n == 3 ? 2 : n) * 1000LL, model, r, w, t, bare ? "" : ",\"write\":", bare ? "" : w,
             bare ? "" : ",\"trim\":", bare ? "" : t);
    return buf;
}

/* "id[tags]:seq/dir/iops,..." of every row listed, one way or the other */
struct trace {
    char s[4096];
    size_t n;
    int skip_id; /* list_figures: leave this row's figures unread */
};

static void trace_fig(struct trace *t, const struct archive_fig *f)
{
    t->n += (size_t)snprintf(t->s + t->n, sizeof(t->s) - t->n, "%d/%s/%s/%g,", f->seq, f->phase, f->dir, f->iops);
}

static int trace_fig_cb(const struct archive_fig *f, void *ctx)
{
    trace_fig(ctx, f);
    return 0;
}

static int trace_row(const struct archive_row *r, void *ctx)
{
    struct trace *t = ctx;
    t->n += (size_t)snprintf(t->s + t->n, sizeof(t->s) - t->n, "%lld[%s]:", (long long)r->id, r->tags);
    if (!r->figcur)
        return 0;
    struct archive_fig f;
    int rc;
    if (r->id != t->skip_id)
        while ((rc = archive_row_figure(r, &f)) > 0)
            trace_fig(t, &f);
    t->n += (size_t)snprintf(t->s + t->n, sizeof(t->s) - t->n, ";");
    return 0;
}

/* archive_list + archive_figures per row, the way list_figures must match */
struct trace_all {
    struct archive *a;
    struct trace *t;
    int64_t ids[16];
    int n;
};

static int collect_ids(const struct archive_row *r, void *ctx)
{
    struct trace_all *ta = ctx;
    trace_row(r, ta->t);
    if (ta->n < 16)
        ta->ids[ta->n] = r->id;
    ta->n++;
    return 0;
}

TEST(list_with_figures)
{
    char dir[] = "/tmp/ssdbench-test-archive.XXXXXX";
    CHECK(mkdtemp(dir), "mkdtemp");
    char path[256], err[1024], buf[8192];
    snprintf(path, sizeof(path), "%s/results.db", dir);
    int rc;
    struct archive *a = archive_open(path, true, &rc, err, sizeof(err));
    CHECK(a, "open: %s", err);
    struct archive_tag tags[] = {{"zz", "last"}, {"a", "first"}};
    for (int i = 1; i <= 5; i++) {
        const char *t = doc_dirs(i, i == 4 ? "M2" : "M1", i == 2, buf, sizeof(buf));
        cJSON *d = cJSON_Parse(t);
        CHECK(d, "parse %d", i);
        int64_t id;
        rc = archive_file(a, t, strlen(t), d, "test", tags, (size_t)(i % 3), &id, err, sizeof(err));
        cJSON_Delete(d);
        CHECK(rc == 0 && id == i, "file %d: %s", i, err);
    }
    struct archive_filter filters[] = {{0}, {.device = "M1"}, {.ntags = 1, .tags = {{"zz", "last"}}}};
    for (int k = 0; k < 3; k++) {
        for (int skip = 0; skip <= 3; skip += 3) {
            struct trace want = {.n = 0}, got = {.skip_id = skip};
            struct trace_all ta = {.a = a, .t = &want};
            CHECK(archive_list(a, &filters[k], false, 0, collect_ids, &ta, err, sizeof(err)) == 0, "%s", err);
            /* the figures of each row, then ";" as trace_row writes them */
            struct trace w2 = {.n = 0};
            for (int i = 0; i < ta.n && i < 16; i++) {
                const char *colon = NULL;
                char idtxt[32];
                snprintf(idtxt, sizeof(idtxt), "%lld[", (long long)ta.ids[i]);
                colon = strstr(want.s, idtxt);
                CHECK(colon, "row %lld", (long long)ta.ids[i]);
                const char *end = strchr(colon, ':');
                w2.n += (size_t)snprintf(w2.s + w2.n, sizeof(w2.s) - w2.n, "%.*s", (int)(end - colon + 1), colon);
                if (ta.ids[i] != skip)
                    CHECK(archive_figures(a, ta.ids[i], trace_fig_cb, &w2, err, sizeof(err)) == 0, "%s", err);
                w2.n += (size_t)snprintf(w2.s + w2.n, sizeof(w2.s) - w2.n, ";");
            }
            CHECK(archive_list_all(a, &filters[k], trace_row, &got, err, sizeof(err)) == 0, "%s", err);
            CHECK(!strcmp(got.s, w2.s), "filter %d skip %d:\n got  %s\n want %s", k, skip, got.s, w2.s);
        }
    }
    /* the order spelled out once: document order, read, write, trim */
    struct trace one = {.n = 0};
    struct archive_filter f4 = {.device = "M2"};
    CHECK(archive_list_all(a, &f4, trace_row, &one, err, sizeof(err)) == 0, "%s", err);
    CHECK(!strcmp(one.s, "4[zz=last]:0/p0/read/41.25,0/p0/write/42.25,0/p0/trim/43.25,"
                         "1/p1/write/42.25,1/p1/trim/43.25,;"),
          "%s", one.s);
    archive_close(a);
    char cmd[400];
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
    CHECK(system(cmd) == 0, "cleanup");
}

TEST(database_round_trip)
{
    char dir[] = "/tmp/ssdbench-test-archive.XXXXXX";
    CHECK(mkdtemp(dir), "mkdtemp");
    char path[256], err[1024], buf[4096];
    snprintf(path, sizeof(path), "%s/sub/results.db", dir);
    int rc;
    struct archive *a = archive_open(path, false, &rc, err, sizeof(err));
    CHECK(!a && rc == -ENOENT, "missing and not created: %d", rc);
    mode_t old = umask(0);
    a = archive_open(path, true, &rc, err, sizeof(err));
    umask(old);
    CHECK(a, "open: %s", err);
    struct stat st;
    CHECK(stat(path, &st) == 0 && (st.st_mode & 0777) == 0600, "mode %o", st.st_mode & 0777);
    struct archive_tag tags[] = {{"fw", "1.0"}, {"build", "77"}};
    int64_t ids[4];
    for (int i = 0; i < 4; i++) {
        const char *t = doc_text(i + 1, i < 3 ? "M1" : "M2", 1000 + i, buf, sizeof(buf));
        cJSON *d = cJSON_Parse(t);
        CHECK(d, "parse");
        rc = archive_file(a, t, strlen(t), d, "test", tags, i == 0 ? 2 : 0, &ids[i], err, sizeof(err));
        cJSON_Delete(d);
        CHECK(rc == 0, "file %d: %s", i, err);
    }
    /* the same bytes again: found, not filed twice */
    const char *t0 = doc_text(1, "M1", 1000, buf, sizeof(buf));
    cJSON *d0 = cJSON_Parse(t0);
    int64_t dup = 0;
    rc = archive_file(a, t0, strlen(t0), d0, "again", NULL, 0, &dup, err, sizeof(err));
    cJSON_Delete(d0);
    CHECK(rc == -EEXIST && dup == ids[0] && strstr(err, "already filed"), "dup %d %s", rc, err);
    char *text;
    size_t len;
    CHECK(archive_get(a, ids[0], &text, &len, err, sizeof(err)) == 0, "%s", err);
    CHECK(len == strlen(t0) && memcmp(text, t0, len) == 0, "bytes back");
    free(text);
    struct seen s = {0};
    struct archive_filter f = {0};
    CHECK(archive_list(a, &f, false, 0, see_row, &s, err, sizeof(err)) == 0 && s.n == 4, "all %d", s.n);
    memset(&s, 0, sizeof(s));
    f.device = "M1";
    CHECK(archive_list(a, &f, false, 0, see_row, &s, err, sizeof(err)) == 0 && s.n == 3, "M1 %d", s.n);
    memset(&s, 0, sizeof(s));
    f.device = "SM2";   /* by serial */
    CHECK(archive_list(a, &f, false, 0, see_row, &s, err, sizeof(err)) == 0 && s.n == 1 && !strcmp(s.model, "M2"),
          "serial");
    memset(&s, 0, sizeof(s));
    struct archive_filter ft = {.ntags = 1, .tags = {{"fw", "1.0"}}};
    CHECK(archive_list(a, &ft, false, 0, see_row, &s, err, sizeof(err)) == 0 && s.n == 1 && s.ids[0] == ids[0] &&
              !strcmp(s.tags, "build=77\x1f" "fw=1.0"),
          "tag %d '%s'", s.n, s.tags);
    CHECK(!strcmp(s.workload, "j") && !strcmp(s.key, "run|j|j:randread:4096:8:1:io_uring"), "key %s", s.key);
    memset(&s, 0, sizeof(s));
    struct archive_filter fs = {.since_set = true, .since_ms = 1796083200000LL + 3 * 86400000LL};
    CHECK(archive_list(a, &fs, false, 0, see_row, &s, err, sizeof(err)) == 0 && s.n == 2, "since %d", s.n);
    memset(&s, 0, sizeof(s));
    struct archive_filter fw = {.workload = "j"};
    CHECK(archive_list(a, &fw, false, 0, see_row, &s, err, sizeof(err)) == 0 && s.n == 4, "workload %d", s.n);
    struct seen_fig sf;
    CHECK(archive_figures(a, ids[2], see_fig, &sf, err, sizeof(err)) == 0, "%s", err);
    const struct archive_fig fig = sf.f;
    CHECK(fig.iops == 1002 && fig.mbps == 2.5 && fig.mean_ns == 100 && fig.p99_ns == 300 && fig.p999_ns == 500 &&
              fig.max_ns == 900 && !strcmp(fig.dir, "read"),
          "figures %g %g %g %g %g %g %s", fig.iops, fig.mbps, fig.mean_ns, fig.p99_ns, fig.p999_ns, fig.max_ns, fig.dir);
    /* selectors */
    struct archive_sel sel;
    int64_t got[ARCHIVE_MAX_SELECT];
    size_t n;
    CHECK(archive_sel_parse("archive:latest?device=M1&n=2", &sel, err, sizeof(err)) == 0, "%s", err);
    CHECK(archive_sel_ids(a, &sel, got, &n, err, sizeof(err)) == 0 && n == 2 && got[0] == ids[2] && got[1] == ids[1],
          "latest");
    CHECK(archive_sel_parse("archive:best?device=M1", &sel, err, sizeof(err)) == 0, "%s", err);
    CHECK(archive_sel_ids(a, &sel, got, &n, err, sizeof(err)) == 0 && n == 1 && got[0] == ids[2], "best");
    CHECK(archive_sel_parse("archive:latest?device=M9&workload=j", &sel, err, sizeof(err)) == 0, "%s", err);
    CHECK(archive_sel_ids(a, &sel, got, &n, err, sizeof(err)) == -ENOENT && strstr(err, "device=M9") &&
              !strstr(err, "workload=j)"),
          "%s", err);
    CHECK(archive_sel_parse("archive:999", &sel, err, sizeof(err)) == 0, "%s", err);
    CHECK(archive_sel_ids(a, &sel, got, &n, err, sizeof(err)) == -ENOENT && strstr(err, "archive:999"), "%s", err);
    /* removal */
    CHECK(archive_rm(a, ids[1], err, sizeof(err)) == 0, "%s", err);
    CHECK(archive_rm(a, ids[1], err, sizeof(err)) == -ENOENT, "twice");
    CHECK(archive_get(a, ids[1], &text, &len, err, sizeof(err)) == -ENOENT, "gone");
    memset(&s, 0, sizeof(s));
    CHECK(archive_list(a, &(struct archive_filter){0}, false, 0, see_row, &s, err, sizeof(err)) == 0 && s.n == 3,
          "3 left");
    archive_close(a);
    /* reopened: the same rows */
    a = archive_open(path, false, &rc, err, sizeof(err));
    CHECK(a, "%s", err);
    memset(&s, 0, sizeof(s));
    CHECK(archive_list(a, &(struct archive_filter){0}, false, 0, see_row, &s, err, sizeof(err)) == 0 && s.n == 3,
          "after reopen");
    archive_close(a);
    /* a damaged file: one message, no crash */
    char bad[300];
    snprintf(bad, sizeof(bad), "%s/bad.db", dir);
    FILE *fp = fopen(bad, "w");
    CHECK(fp, "fopen");
    for (int i = 0; i < 200; i++)
        fputs("this is not a database, not at all\n", fp);
    fclose(fp);
    a = archive_open(bad, true, &rc, err, sizeof(err));
    CHECK(!a && rc == -EINVAL && strstr(err, "bad.db") && !strchr(err, '\n'), "%d %s", rc, err);
    /* a newer schema and a foreign SQLite database: refused, untouched */
    sqlite3 *db;
    CHECK(sqlite3_open(path, &db) == SQLITE_OK && sqlite3_exec(db, "PRAGMA user_version = 99", 0, 0, 0) == SQLITE_OK,
          "set version");
    sqlite3_close(db);
    a = archive_open(path, false, &rc, err, sizeof(err));
    CHECK(!a && rc == -EINVAL && strstr(err, "schema 99 is newer"), "%d %s", rc, err);
    char other[300];
    snprintf(other, sizeof(other), "%s/other.db", dir);
    CHECK(sqlite3_open(other, &db) == SQLITE_OK && sqlite3_exec(db, "CREATE TABLE t (x)", 0, 0, 0) == SQLITE_OK,
          "foreign db");
    sqlite3_close(db);
    a = archive_open(other, true, &rc, err, sizeof(err));
    CHECK(!a && rc == -EINVAL && strstr(err, "not an ssdbench archive"), "%d %s", rc, err);
    CHECK(sqlite3_open(other, &db) == SQLITE_OK, "reopen");
    sqlite3_stmt *q;
    CHECK(sqlite3_prepare_v2(db, "SELECT count(*) FROM sqlite_master", -1, &q, NULL) == SQLITE_OK &&
              sqlite3_step(q) == SQLITE_ROW && sqlite3_column_int(q, 0) == 1,
          "foreign db untouched");
    sqlite3_finalize(q);
    CHECK(sqlite3_prepare_v2(db, "PRAGMA journal_mode", -1, &q, NULL) == SQLITE_OK && sqlite3_step(q) == SQLITE_ROW &&
              !strcmp((const char *)sqlite3_column_text(q, 0), "delete"),
          "foreign db's journal mode untouched");
    sqlite3_finalize(q);
    sqlite3_close(db);
    char cmd[700];
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
    CHECK(system(cmd) == 0, "cleanup");
}

CHECK_MAIN()
