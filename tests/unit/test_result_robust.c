/* test_result_robust.c - malformed result documents: loading gives a
 * one-line error or a document every renderer survives; nothing crashes or
 * hangs. Renderers that must finish run in a child process under alarm(). */
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "base/utf8.h"
#include "output/compare.h"
#include "output/html_build.h"
#include "output/html_report.h"
#include "output/html_svg_int.h"
#include "output/render.h"
#include "result/result.h"

#define HEAD "{\"schema\":\"ssdbench-result/1\","

/* Writes text to a temporary file, loads it with result_load. */
static cJSON *load_text(const char *text, char *err, size_t errlen)
{
    char path[] = "/tmp/ssdbench-robust.XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0)
        return NULL;
    size_t n = strlen(text);
    ssize_t w = write(fd, text, n);
    close(fd);
    cJSON *doc = (size_t)w == n ? result_load(path, err, errlen) : NULL;
    unlink(path);
    return doc;
}

/* Every renderer of a saved result, to /dev/null. */
static void render_all(const cJSON *doc)
{
    FILE *f = fopen("/dev/null", "w");
    if (!f)
        return;
    struct render_opts ro = {.summary = true, .details = true};
    render_text(f, doc, &ro);
    render_csv(f, doc);
    char err[512];
    struct html_report_input in[1] = {{doc, "x.json", NULL}};
    struct html_report_opts o = {0};
    struct html_report *rep = html_build(in, 1, &o, err, sizeof(err));
    if (rep) {
        html_page_write(f, rep);
        html_report_free(rep);
    }
    const cJSON *docs[2] = {doc, doc};
    const char *names[2] = {"a", "b"};
    struct compare_opts co = {0};
    render_compare(f, docs, names, 2, &co, err, sizeof(err));
    fclose(f);
}

/* Runs render_all(doc) in a child with a 10 s alarm: 0 when it finished,
 * else the signal that ended it (SIGALRM = a hang). */
static int render_in_child(const cJSON *doc)
{
    fflush(stdout);
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        alarm(10);
        render_all(doc);
        _exit(0);
    }
    int st;
    if (waitpid(pid, &st, 0) < 0)
        return -1;
    if (WIFSIGNALED(st))
        return WTERMSIG(st);
    return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : 100 + WEXITSTATUS(st);
}

static const char *one_phase(const char *job_targets, const char *lat)
{
    static char buf[4096];
    snprintf(buf, sizeof(buf),
             HEAD "\"targets\":[{\"id\":\"t0\",\"path\":\"/dev/x\"}],\"phases\":[{\"name\":\"p\",\"kind\":\"run\","
                  "\"jobs\":[{\"name\":\"j\",\"targets\":%s}],\"results\":[{\"scope\":\"total\",\"read\":{\"ios\":10,"
                  "\"bytes\":40960,\"iops\":10,\"latency_ns\":%s}}],"
                  "\"intervals\":{\"fields\":[\"t_ms\",\"read_iops\",\"read_lat_mean_ns\",\"read_p99_ns\"],"
                  "\"rows\":[[0,1,%s,%s],[1000,2,%s,%s]]}}]}",
             job_targets, lat, "1e308", "1e308", "1e308", "1e308");
    return buf;
}

TEST(target_id_not_a_string_is_refused_and_renderers_survive)
{
    char err[512];
    const char *text = one_phase("[5, {\"x\":1}]", "{\"n\":1}");
    cJSON *doc = load_text(text, err, sizeof(err));
    CHECK(!doc, "a job target list holding a number was accepted");
    CHECK(strstr(err, "phases[0].jobs[0].targets[0] is not a string"), "message: %s", err);
    CHECK(!strchr(err, '\n'), "message is not one line: %s", err);
    /* a renderer handed such a document anyway (a live document, a future
     * reader) must not crash either */
    cJSON *raw = cJSON_Parse(text);
    CHECK(raw, "test document does not parse");
    int sig = render_in_child(raw);
    cJSON_Delete(raw);
    CHECK(sig == 0, "renderers ended with signal/status %d", sig);
}

TEST(numbers_as_strings)
{
    cJSON *o = cJSON_Parse("{\"a\":\"12abc\",\"b\":\"1e999\",\"c\":\"4096\",\"d\":\"\",\"e\":[1],\"f\":\"nan\"}");
    CHECK(o, "parse");
    CHECK(result_num(o, "a", 7) == 7, "'12abc' read as %g", result_num(o, "a", 7));
    CHECK(result_num(o, "b", 7) == 7, "'1e999' read as %g", result_num(o, "b", 7));
    CHECK(result_num(o, "c", 7) == 4096, "'4096' read as %g (large integers are stored as strings)",
          result_num(o, "c", 7));
    CHECK(result_num(o, "d", 7) == 7, "'' read as %g", result_num(o, "d", 7));
    CHECK(result_num(o, "e", 7) == 7, "a list read as %g", result_num(o, "e", 7));
    CHECK(result_num(o, "f", 7) == 7, "'nan' read as %g", result_num(o, "f", 7));
    CHECK(strcmp(result_str(o, "e", "dflt"), "dflt") == 0, "a list read as a string");
    /* an accessor on a node that is not an object */
    CHECK(result_num(cJSON_GetObjectItem(o, "e"), "x", 3) == 3, "lookup in a list");
    cJSON_Delete(o);
}

TEST(nan_and_infinity)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "nan", NAN);
    cJSON_AddNumberToObject(o, "inf", INFINITY);
    CHECK(result_num(o, "nan", 1) == 1, "NaN passed through");
    CHECK(result_num(o, "inf", 1) == 1, "infinity passed through");
    cJSON_Delete(o);
    /* JSON has no NaN; 1e999 is what a file can hold, and cJSON reads it as
     * infinity */
    char err[512];
    cJSON *doc = load_text(HEAD "\"phases\":[{\"name\":\"p\",\"elapsed_s\":1e999}]}", err, sizeof(err));
    CHECK(!doc, "an infinite number was accepted");
    CHECK(strstr(err, "phases[0].elapsed_s is not a finite number"), "message: %s", err);
    doc = load_text(HEAD "\"phases\":[NaN]}", err, sizeof(err));
    CHECK(!doc && strstr(err, "not valid JSON"), "NaN literal: %s", doc ? "accepted" : err);
}

TEST(huge_latencies_report_finishes)
{
    char err[512];
    const char *text = one_phase("[\"t0\"]", "{\"n\":1,\"min\":1e308,\"max\":1e308,\"mean\":1e308,"
                                             "\"percentiles\":{\"99\":1e308}}");
    cJSON *doc = load_text(text, err, sizeof(err));
    CHECK(doc, "load: %s", err);
    int sig = render_in_child(doc);
    cJSON_Delete(doc);
    CHECK(sig == 0, "rendering 1e308 latencies ended with signal/status %d (%d = alarm: a hang)", sig,
          SIGALRM);
}

TEST(axis_ticks_end_for_any_range)
{
    static const double v[] = {1e308, -1e308, 1e300, 5e-324, 0, -0.0, 1, 1e-300, NAN, INFINITY, -INFINITY};
    static const enum html_svg_scale sc[] = {HTML_SVG_LIN, HTML_SVG_LOG, HTML_SVG_NINES};
    for (unsigned s = 0; s < 3; s++)
        for (unsigned i = 0; i < sizeof(v) / sizeof(v[0]); i++)
            for (unsigned j = 0; j < sizeof(v) / sizeof(v[0]); j++) {
                struct html_svg_axis a = {.scale = sc[s], .min = NAN, .max = NAN};
                struct html_svg_axis_map m;
                html_svg_axis_setup(&m, &a, v[i], v[j]);
                CHECK(isfinite(m.lo) && isfinite(m.hi) && m.hi > m.lo, "scale %u [%g, %g]: domain [%g, %g]", s,
                      v[i], v[j], m.lo, m.hi);
                CHECK(m.nticks <= HTML_SVG_MAX_TICKS, "ticks %zu", (size_t)m.nticks);
            }
    double lo = -1e308, hi = 1e308, t[16];
    size_t n = html_svg_ticks_linear(&lo, &hi, t, 16);
    CHECK(n >= 2 && isfinite(lo) && isfinite(hi) && hi > lo, "linear -1e308..1e308: %zu ticks [%g, %g]", n, lo, hi);
}

TEST(deep_nesting)
{
    /* deeper than cJSON's nesting limit: a one-line error */
    size_t depth = CJSON_NESTING_LIMIT + 100;
    char *s = malloc(2 * depth + 64);
    CHECK(s, "oom");
    size_t n = (size_t)sprintf(s, HEAD "\"phases\":[],\"x\":");
    memset(s + n, '[', depth);
    memset(s + n + depth, ']', depth);
    strcpy(s + n + 2 * depth, "}");
    char err[512];
    cJSON *doc = load_text(s, err, sizeof(err));
    CHECK(!doc && strstr(err, "nested deeper than"), "%s", doc ? "accepted" : err);
    /* within the limit: loads, and the validation pass walks it */
    depth = CJSON_NESTING_LIMIT - 10;
    n = (size_t)sprintf(s, HEAD "\"phases\":[],\"x\":");
    memset(s + n, '[', depth);
    memset(s + n + depth, ']', depth);
    strcpy(s + n + 2 * depth, "}");
    doc = load_text(s, err, sizeof(err));
    free(s);
    CHECK(doc, "%s", err);
    int sig = render_in_child(doc);
    cJSON_Delete(doc);
    CHECK(sig == 0, "signal/status %d", sig);
}

TEST(missing_and_mistyped_phases)
{
    char err[512];
    cJSON *doc = load_text(HEAD "\"tool\":{}}", err, sizeof(err));
    CHECK(!doc && strstr(err, "\"phases\" is missing"), "%s", doc ? "accepted" : err);
    doc = load_text(HEAD "\"phases\":[1,\"x\"]}", err, sizeof(err));
    CHECK(!doc && strstr(err, "field phases[0] is not an object"), "%s", doc ? "accepted" : err);
    doc = load_text(HEAD "\"phases\":[{\"results\":{\"scope\":1}}]}", err, sizeof(err));
    CHECK(!doc && strstr(err, "phases[0].results is not a list"), "%s", doc ? "accepted" : err);
    doc = load_text(HEAD "\"phases\":[{\"results\":[{\"scope\":\"total\",\"read\":{\"ios\":-5}}]}]}", err,
                    sizeof(err));
    CHECK(!doc && strstr(err, "phases[0].results[0].read.ios is not a number >= 0"), "%s",
          doc ? "accepted" : err);
    doc = load_text("[1,2]", err, sizeof(err));
    CHECK(!doc && strstr(err, "not a JSON object"), "%s", doc ? "accepted" : err);
    /* phases without results, jobs or intervals: renderers print what there is */
    doc = load_text(HEAD "\"phases\":[{},{\"name\":\"x\",\"results\":[{}]}]}", err, sizeof(err));
    CHECK(doc, "%s", err);
    int sig = render_in_child(doc);
    cJSON_Delete(doc);
    CHECK(sig == 0, "signal/status %d", sig);
}

TEST(absurd_histograms)
{
    static const char *const hists[] = {
        "{\"sub_bucket_bits\":7,\"max_bits\":42,\"n\":1,\"sum\":1,\"sumsq\":\"1\",\"min\":1,\"max\":1,"
        "\"buckets\":[[999999999,1]]}",
        "{\"sub_bucket_bits\":7,\"max_bits\":42,\"n\":1e300,\"sum\":1,\"sumsq\":\"1\",\"min\":1,\"max\":1,"
        "\"buckets\":[[1,1e300]]}",
        "{\"sub_bucket_bits\":7,\"max_bits\":42,\"n\":-1,\"buckets\":[[-1,-1]]}",
        "{\"sub_bucket_bits\":99,\"max_bits\":-3}",
        "\"nope\"",
    };
    for (unsigned i = 0; i < sizeof(hists) / sizeof(hists[0]); i++) {
        char lat[1024];
        snprintf(lat, sizeof(lat), "{\"n\":1,\"histogram\":%s}", hists[i]);
        char err[512];
        cJSON *doc = load_text(one_phase("[\"t0\"]", lat), err, sizeof(err));
        CHECK(doc, "histogram %u: %s", i, err);
        int sig = render_in_child(doc);
        cJSON_Delete(doc);
        CHECK(sig == 0, "histogram %u: signal/status %d", i, sig);
    }
}

TEST(invalid_utf8_is_repaired_on_load)
{
    char err[512];
    cJSON *doc = load_text(HEAD "\"phases\":[],\"targets\":[{\"id\":\"t0\",\"path\":\"/tmp/a\xff\xfe\x01z\"}],"
                                "\"k\xc0\xaf\":\"\xed\xa0\x80\"}",
                           err, sizeof(err));
    CHECK(doc, "%s", err);
    const char *p = result_str(cJSON_GetArrayItem(cJSON_GetObjectItem(doc, "targets"), 0), "path", "");
    CHECK(strcmp(p, "/tmp/a\xef\xbf\xbd\xef\xbf\xbd\x01z") == 0, "path read as '%s'", p);
    /* the overlong key and the surrogate value */
    const cJSON *k = cJSON_GetObjectItem(doc, "k\xef\xbf\xbd\xef\xbf\xbd");
    CHECK(k && strcmp(k->valuestring, "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd") == 0, "key/value not repaired");
    cJSON_Delete(doc);
}

TEST(written_json_is_utf8)
{
    cJSON *doc = result_new(2, (char *[]){"ssdbench", "--filename=/tmp/\xff\xfe\x01x", NULL});
    CHECK(doc, "oom");
    cJSON_AddStringToObject(doc, "model", "SSD \xe2\x82 \xf4\x90\x80\x80 ok \xc3\xa9");
    char path[] = "/tmp/ssdbench-robust-w.XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0, "mkstemp");
    close(fd);
    char err[256];
    int rc = result_write(doc, path, err, sizeof(err));
    cJSON_Delete(doc);
    CHECK(rc == 0, "%s", err);
    FILE *f = fopen(path, "r");
    char buf[8192];
    size_t n = f ? fread(buf, 1, sizeof(buf) - 1, f) : 0;
    if (f)
        fclose(f);
    unlink(path);
    buf[n] = 0;
    CHECK(n > 0 && utf8_valid(buf, n), "written result is not UTF-8");
    CHECK(strstr(buf, "/tmp/\xef\xbf\xbd\xef\xbf\xbd\\u0001x"), "path not written as documented");
    CHECK(strstr(buf, "SSD \xef\xbf\xbd\xef\xbf\xbd \xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd ok \xc3\xa9"),
          "model not written as documented");
}

TEST(utf8_scheme)
{
    static const struct {
        const char *in, *out;
    } c[] = {
        {"abc", "abc"},
        {"\xc3\xa9", "\xc3\xa9"},                     /* U+00E9 */
        {"\xf0\x9f\x98\x80", "\xf0\x9f\x98\x80"},     /* U+1F600 */
        {"\xff", "\xef\xbf\xbd"},
        {"\xc0\x80", "\xef\xbf\xbd\xef\xbf\xbd"},     /* overlong NUL */
        {"\xe0\x80\xaf", "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd"},
        {"\xed\xbf\xbf", "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd"},   /* surrogate */
        {"\xf4\x90\x80\x80", "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd"},
        {"a\xe2\x82", "a\xef\xbf\xbd\xef\xbf\xbd"},   /* truncated */
    };
    for (unsigned i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
        char *o = utf8_fix(c[i].in, strlen(c[i].in), NULL);
        CHECK(o && strcmp(o, c[i].out) == 0, "case %u", i);
        CHECK(utf8_valid(o, strlen(o)), "case %u: output invalid", i);
        CHECK(utf8_valid(c[i].in, strlen(c[i].in)) == (strcmp(c[i].in, c[i].out) == 0), "case %u: valid()", i);
        free(o);
    }
}

CHECK_MAIN()
