/* test_suite.c - the suite's pieces that need no device: sweep, load and
 * steady-state rule parsing, the 2T2Q..16T16Q grid in the published order,
 * phase jobs (targets, layout, load, active range), overrides and the options
 * the suite keeps for itself, the unused range that --discard-unused frees
 * (hand-computed for jbod and stripe), the combined figures (reviews' means
 * and exact values from hand-computed samples, live and from JSON), the
 * steady-state report and the baseline scaling. */
#include "check.h"

#include <errno.h>
#include <math.h>

#include "result/result_hist.h"
#include "stats/iostats.h"
#include "profiles/profiles.h"
#include "suite/suite.h"
#include "result/result_steady.h"
#include "result/result_fig.h"

#define MiB (1024ull * 1024)

TEST(sweep_tq_default_grid_in_published_order)
{
    struct suite_sweep sw;
    char err[256];
    CHECK(suite_parse_sweep("tq:2,4,8,16x2,4,8,16", &sw, err, sizeof(err)) == 0, "%s", err);
    static const char *const want[16] = {"2T2Q",  "2T4Q",  "2T8Q",  "2T16Q", "4T2Q",  "4T4Q",
                                         "4T8Q",  "4T16Q", "8T2Q",  "8T4Q",  "8T8Q",  "8T16Q",
                                         "16T2Q", "16T4Q", "16T8Q", "16T16Q"};
    struct suite_point pts[64];
    unsigned n = suite_points(&sw, pts, 64);
    CHECK(n == 16, "%u points", n);
    for (unsigned i = 0; i < 16; i++)
        CHECK(!strcmp(pts[i].label, want[i]), "point %u is %s, want %s", i, pts[i].label, want[i]);
    CHECK(pts[15].threads == 16 && pts[15].depth == 16 && pts[4].threads == 4 && pts[4].depth == 2,
          "loads");
    struct suite_cfg c;
    suite_defaults(&c);
    CHECK(c.sweep.kind == SWEEP_TQ && c.sweep.nthreads == 4 && c.sweep.ndepths == 4, "default sweep");
    CHECK(c.pre_threads == 16 && c.pre_depth == 16, "16T16Q preconditioning");
    CHECK(suite_point_runtime(&c) == 60000000000ull, "tq default 1 min");
}

TEST(sweep_qd_ellipsis_doubles)
{
    struct suite_sweep sw;
    char err[256];
    CHECK(suite_parse_sweep("qd:1,2,4,...,256", &sw, err, sizeof(err)) == 0, "%s", err);
    static const unsigned want[] = {1, 2, 4, 8, 16, 32, 64, 128, 256};
    CHECK(sw.kind == SWEEP_QD && sw.ndepths == 9, "%u depths", sw.ndepths);
    for (unsigned i = 0; i < 9; i++)
        CHECK(sw.depths[i] == want[i], "depth %u = %u", i, sw.depths[i]);
    struct suite_point pts[16];
    CHECK(suite_points(&sw, pts, 16) == 9 && !strcmp(pts[5].label, "QD32") && pts[5].threads == 1,
          "labels");
    CHECK(suite_parse_sweep("qd:1,...,8", &sw, err, sizeof(err)) == 0 && sw.ndepths == 4 &&
              sw.depths[3] == 8,
          "1,...,8");
    CHECK(suite_parse_sweep("tq:1x3,...,20", &sw, err, sizeof(err)) == 0 && sw.ndepths == 4 &&
              sw.depths[1] == 6 && sw.depths[2] == 12 && sw.depths[3] == 20,
          "3,6,12,20");
    CHECK(suite_parse_sweep("none", &sw, err, sizeof(err)) == 0 && sw.kind == SWEEP_NONE &&
              suite_points(&sw, pts, 16) == 0,
          "none");
    struct suite_cfg c;
    suite_defaults(&c);
    c.sweep.kind = SWEEP_QD;
    CHECK(suite_point_runtime(&c) == 300000000000ull, "qd default 5 min");
}

TEST(sweep_errors_are_one_line)
{
    struct suite_sweep sw;
    char err[256];
    CHECK(suite_parse_sweep("qd:", &sw, err, sizeof(err)) == -EINVAL, "empty");
    CHECK(suite_parse_sweep("qd:0,4", &sw, err, sizeof(err)) == -EINVAL && strstr(err, "'0'"), "%s", err);
    CHECK(suite_parse_sweep("tq:2,4", &sw, err, sizeof(err)) == -EINVAL && strstr(err, "THREADS"), "%s", err);
    CHECK(suite_parse_sweep("qd:1,...", &sw, err, sizeof(err)) == -EINVAL, "trailing ...");
    CHECK(suite_parse_sweep("qd:...,4", &sw, err, sizeof(err)) == -EINVAL, "leading ...");
    CHECK(suite_parse_sweep("zz:1", &sw, err, sizeof(err)) == -EINVAL && strstr(err, "'zz:1'"), "%s", err);
    CHECK(suite_parse_sweep("qd:4k", &sw, err, sizeof(err)) == -EINVAL && strstr(err, "'4k'"), "%s", err);
    CHECK(!strchr(err, '\n'), "one line");
}

TEST(load_and_rule_parsing)
{
    unsigned t, q;
    char err[256];
    CHECK(suite_parse_load("16x16", &t, &q, err, sizeof(err)) == 0 && t == 16 && q == 16, "16x16");
    CHECK(suite_parse_load("4T32Q", &t, &q, err, sizeof(err)) == 0 && t == 4 && q == 32, "4T32Q");
    CHECK(suite_parse_load("16", &t, &q, err, sizeof(err)) == -EINVAL, "16");
    CHECK(suite_parse_load("0x4", &t, &q, err, sizeof(err)) == -EINVAL, "0x4");
    CHECK(suite_parse_load("4x4x", &t, &q, err, sizeof(err)) == -EINVAL, "4x4x");
    struct steady_cfg c;
    steady_snia_defaults(&c);
    CHECK(suite_parse_ss("snia:10%/5%", &c, err, sizeof(err)) == 0 && c.rule == STEADY_SNIA &&
              c.range_pct == 10 && c.slope_pct == 5 && c.window == 5,
          "snia limits");
    CHECK(suite_parse_ss("iops:10%", &c, err, sizeof(err)) == 0 && c.rule == STEADY_DEVIATION &&
              c.metric == STEADY_IOPS && c.limit == 10 && c.limit_pct,
          "fio deviation");
    CHECK(suite_parse_ss("bw_slope:0.5%", &c, err, sizeof(err)) == 0 && c.rule == STEADY_SLOPE &&
              c.metric == STEADY_BW,
          "fio slope");
    CHECK(suite_parse_ss("snia:20%", &c, err, sizeof(err)) == -EINVAL, "half snia");
    CHECK(suite_parse_ss("iopz:1%", &c, err, sizeof(err)) == -EINVAL && strstr(err, "--ss"), "%s", err);
}

static void two_targets(struct suite_cfg *c)
{
    c->ntargets = 2;
    snprintf(c->targets[0], JOB_PATH_MAX, "/dev/a");
    snprintf(c->targets[1], JOB_PATH_MAX, "/dev/b");
}

TEST(phase_job_targets_layout_load_range)
{
    struct suite_cfg c;
    suite_defaults(&c);
    two_targets(&c);
    c.range_pct = 80;
    struct job_spec part, j;
    job_defaults(&part);
    part.size = 12345;
    part.stonewall = true;
    suite_phase_job(&c, &part, 8, 4, 5000000000ull, 1000000000ull, &j);
    CHECK(j.ntargets == 2 && !strcmp(j.targets[1], "/dev/b"), "targets");
    CHECK(j.layout == LAYOUT_JBOD && j.numjobs == 8 && j.iodepth == 4, "jbod 8x4");
    CHECK(j.runtime_ns == 5000000000ull && j.ramp_ns == 1000000000ull && j.time_based, "time");
    CHECK(j.size == 0 && j.size_pct == 80 && j.offset == 0 && !j.stonewall, "range");
    c.layout = LAYOUT_STRIPE;
    c.stripe_chunk = 128 * 1024;
    suite_phase_job(&c, &part, 2, 2, 1, 0, &j);
    CHECK(j.layout == LAYOUT_STRIPE && j.stripe_chunk == 131072, "stripe");
    c.ntargets = 1;
    c.range_pct = 100;
    suite_phase_job(&c, &part, 2, 2, 1, 0, &j);
    CHECK(j.layout == LAYOUT_JBOD && j.stripe_chunk == 0 && j.size == 12345, "single target, full range");
}

TEST(overrides_and_options_the_suite_keeps)
{
    struct profile_set ps;
    char err[512];
    CHECK(profile_set_builtin(&ps, err, sizeof(err)) == 0, "%s", err);
    struct suite_cfg c;
    suite_defaults(&c);
    c.rwmixread = 66;
    snprintf(c.set_key[0], 64, "ioengine");
    snprintf(c.set_val[0], 256, "libaio");
    c.nset = 1;
    struct job_spec j;
    const struct profile *db = profile_find(&ps, "database");
    CHECK(suite_part_job(&c, profile_part(&ps, db, 0), &j, err, sizeof(err)) == 0, "%s", err);
    CHECK(j.rwmixread == 66 && j.engine == ENGINE_LIBAIO, "66/33 libaio");
    const struct profile *rr = profile_find(&ps, "4k-random-read");
    CHECK(suite_part_job(&c, profile_part(&ps, rr, 0), &j, err, sizeof(err)) == 0, "%s", err);
    CHECK(j.rw == RW_RANDREAD && j.rwmixread == 50, "non-mixed untouched");
    snprintf(c.set_key[0], 64, "iodepth");
    snprintf(c.set_val[0], 256, "4");
    CHECK(suite_part_job(&c, profile_part(&ps, db, 0), &j, err, sizeof(err)) == -EINVAL &&
              strstr(err, "--sweep"),
          "'%s'", err);
    snprintf(c.set_key[0], 64, "bs");
    snprintf(c.set_val[0], 256, "4q");
    CHECK(suite_part_job(&c, profile_part(&ps, db, 0), &j, err, sizeof(err)) < 0 && strstr(err, "4q"),
          "'%s'", err);
    profile_set_free(&ps);
}

TEST(check_refuses_before_anything_runs)
{
    struct profile_set ps;
    char err[512];
    CHECK(profile_set_builtin(&ps, err, sizeof(err)) == 0, "%s", err);
    struct suite_cfg c;
    suite_defaults(&c);
    CHECK(suite_check(&c, &ps, err, sizeof(err)) == -EINVAL && strstr(err, "target"), "no target");
    two_targets(&c);
    CHECK(suite_check(&c, &ps, err, sizeof(err)) == 0, "%s", err);
    snprintf(c.profiles[0], JOB_NAME_MAX, "fileservr");
    CHECK(suite_check(&c, &ps, err, sizeof(err)) == -EINVAL && strstr(err, "'fileserver'"), "%s", err);
    suite_defaults(&c);
    two_targets(&c);
    c.nprofiles = 1;
    snprintf(c.profiles[0], JOB_NAME_MAX, "ecw");
    c.layout = LAYOUT_STRIPE;
    c.stripe_chunk = 65536;
    /* sizes that do not divide the chunk stripe fine (I/Os stay in one chunk) */
    CHECK(suite_check(&c, &ps, err, sizeof(err)) == 0, "ecw striped: %s", err);
    /* a size larger than the chunk cannot: webserver has 128 and 512 KiB reads */
    snprintf(c.profiles[0], JOB_NAME_MAX, "webserver");
    err[0] = 0;
    CHECK(suite_check(&c, &ps, err, sizeof(err)) == -EINVAL && strstr(err, "larger than the stripe chunk 65536"), "%s", err);
    snprintf(c.profiles[0], JOB_NAME_MAX, "fileserver");
    CHECK(suite_check(&c, &ps, err, sizeof(err)) == 0, "%s", err);
    c.discard_unused = true;
    CHECK(suite_check(&c, &ps, err, sizeof(err)) == -EINVAL && strstr(err, "--range"), "%s", err);
    c.discard_unused = false;
    c.ss.max_rounds = 0;
    CHECK(suite_check(&c, &ps, err, sizeof(err)) == -EINVAL && strstr(err, "--ss-max-rounds"), "%s", err);
    c.precond = PRECOND_OFF;
    c.sweep.kind = SWEEP_NONE;
    CHECK(suite_check(&c, &ps, err, sizeof(err)) == -EINVAL && strstr(err, "nothing"), "%s", err);
    suite_defaults(&c);
    two_targets(&c);
    c.nprofiles = 1;
    snprintf(c.profiles[0], JOB_NAME_MAX, "4k-random-read");
    c.rwmixread = 66;
    CHECK(suite_check(&c, &ps, err, sizeof(err)) == -EINVAL && strstr(err, "--rwmixread"), "%s", err);
    profile_set_free(&ps);
}

TEST(unused_range_hand_computed)
{
    struct suite_cfg c;
    suite_defaults(&c);
    two_targets(&c);
    char err[256];
    uint64_t sizes[2] = {128 * MiB, 256 * MiB}, off;
    c.range_pct = 80;
    /* jbod: 80 % of the smallest target, floored to 4 KiB: 107374182.4 -> 107372544 */
    CHECK(suite_unused_range(&c, sizes, 0, &off, err, sizeof(err)) == 0 && off == 107372544ull,
          "jbod t0 %llu", (unsigned long long)off);
    CHECK(suite_unused_range(&c, sizes, 1, &off, err, sizeof(err)) == 0 && off == 107372544ull,
          "jbod t1 %llu", (unsigned long long)off);
    /* stripe 1 MiB over 2 x 128 MiB: 256 MiB space, 80 % = 214745088 bytes after
     * flooring, = 102.4 rows of 2 MiB -> 103 rows -> 103 MiB on each member */
    sizes[1] = 128 * MiB;
    c.layout = LAYOUT_STRIPE;
    c.stripe_chunk = MiB;
    CHECK(suite_unused_range(&c, sizes, 1, &off, err, sizeof(err)) == 0 && off == 103 * MiB,
          "stripe %llu", (unsigned long long)off);
    /* 32 MiB chunks, 12.5 %: only chunk 0 (on member 0) is used; one row */
    c.stripe_chunk = 32 * MiB;
    c.range_pct = 12.5;
    CHECK(suite_unused_range(&c, sizes, 0, &off, err, sizeof(err)) == 0 && off == 32 * MiB,
          "stripe 32M %llu", (unsigned long long)off);
}

/* read latencies 10, 20, 30 ns; write latencies 100, 200 ns; over 1 s */
static void sample_stats(struct io_stats *s)
{
    iostats_init(s);
    static const uint64_t r[] = {10, 20, 30}, w[] = {100, 200};
    for (int i = 0; i < 3; i++) {
        hist_add(&s->dir[DIR_READ].lat, r[i]);
        s->dir[DIR_READ].ios++;
        s->dir[DIR_READ].bytes += 4096;
    }
    for (int i = 0; i < 2; i++) {
        hist_add(&s->dir[DIR_WRITE].lat, w[i]);
        s->dir[DIR_WRITE].ios++;
        s->dir[DIR_WRITE].bytes += 8192;
    }
}

static void check_sample_fig(const struct result_fig *f, int *check_failed_)
{
    CHECK(f->iops == 5 && f->read_iops == 3 && f->write_iops == 2 && f->ios == 5, "iops");
    CHECK(fabs(f->mbps - 0.028672) < 1e-12, "mbps %.9f", f->mbps); /* (3*4096 + 2*8192) / 1e6 */
    CHECK(fabs(f->lat_avg_ns - 85) < 1e-9, "reviews' avg %.6f", f->lat_avg_ns); /* (20+150)/2 */
    CHECK(fabs(f->lat_mean_ns - 72) < 1e-9, "exact mean %.6f", f->lat_mean_ns); /* 360/5 */
    CHECK(f->lat_max_ns == 200, "max");
    /* stddevs: read 10, write 70.7107; reviews' mean 40.3553; exact sqrt(25480/4) */
    CHECK(fabs(f->lat_sd_avg_ns - (10 + sqrt(5000)) / 2) < 1e-6, "reviews' sd %.6f", f->lat_sd_avg_ns);
    CHECK(fabs(f->lat_sd_ns - sqrt(6370)) < 1e-6, "exact sd %.6f", f->lat_sd_ns);
    CHECK(f->p99_ns == 200, "p99 %.0f", f->p99_ns);
}

TEST(combined_figures_hand_computed)
{
    struct io_stats *s = malloc(sizeof(*s));
    struct hist *scratch = malloc(sizeof(*scratch));
    sample_stats(s);
    struct result_fig f;
    result_fig_from_stats(s, 1.0, scratch, &f);
    int failed = 0;
    check_sample_fig(&f, &failed);
    CHECK(!failed, "live figures");
    /* the same from a results-model scope */
    cJSON *sc = cJSON_CreateObject();
    cJSON_AddNumberToObject(sc, "elapsed_s", 1.0);
    for (int d = 0; d < 2; d++) {
        cJSON *dir = cJSON_AddObjectToObject(sc, d ? "write" : "read");
        cJSON_AddNumberToObject(dir, "ios", (double)s->dir[d].ios);
        cJSON_AddNumberToObject(dir, "bytes", (double)s->dir[d].bytes);
        cJSON *l = cJSON_AddObjectToObject(dir, "latency_ns");
        cJSON_AddItemToObject(l, "histogram", result_hist_to_json(&s->dir[d].lat));
    }
    char err[256];
    CHECK(result_fig_from_scope(sc, &f, err, sizeof(err)) == 0, "%s", err);
    check_sample_fig(&f, &failed);
    CHECK(!failed, "figures from JSON");
    cJSON *fj = result_fig_json(&f);
    struct result_fig back;
    result_fig_from_json(fj, &back);
    CHECK(memcmp(&back, &f, sizeof(f)) == 0, "JSON round trip");
    /* one direction only: both ways agree */
    iostats_init(s);
    hist_add(&s->dir[DIR_WRITE].lat, 1000);
    hist_add(&s->dir[DIR_WRITE].lat, 3000);
    s->dir[DIR_WRITE].ios = 2;
    result_fig_from_stats(s, 2.0, scratch, &f);
    CHECK(f.iops == 1 && f.lat_avg_ns == 2000 && f.lat_mean_ns == 2000 &&
              fabs(f.lat_sd_avg_ns - f.lat_sd_ns) < 1e-9,
          "write only");
    cJSON_Delete(fj);
    cJSON_Delete(sc);
    free(s);
    free(scratch);
}

TEST(steady_report_json)
{
    struct steady_cfg cfg;
    steady_snia_defaults(&cfg);
    struct steady *s = malloc(sizeof(*s));
    CHECK(steady_init(s, &cfg) == 0, "init");
    /* the 50 of round 2 stays in the window until round 6, so the first
     * window to pass is rounds 3-7 */
    static const double v[] = {100, 50, 100, 100, 100, 100, 100};
    enum steady_state st = STEADY_CONTINUE;
    for (unsigned i = 0; i < 7; i++)
        st = steady_feed(s, v[i]);
    CHECK(st == STEADY_REACHED, "state %d", st);
    struct steady_report r;
    steady_get_report(s, &r);
    double w[8];
    unsigned nw = steady_window_values(s, w, 8);
    cJSON *j = result_steady_json(&cfg, &r, w, nw, 60000000000ull);
    CHECK(cJSON_IsTrue(cJSON_GetObjectItem(j, "reached")), "reached");
    CHECK(cJSON_GetObjectItem(j, "window_first")->valuedouble == 3 &&
              cJSON_GetObjectItem(j, "window_last")->valuedouble == 7,
          "window");
    CHECK(!strcmp(cJSON_GetObjectItem(j, "statement")->valuestring,
                  "steady state reached at round 7 (window rounds 3-7)"),
          "'%s'", cJSON_GetObjectItem(j, "statement")->valuestring);
    CHECK(!strcmp(cJSON_GetObjectItem(j, "criterion")->valuestring, "snia:20%/10%"), "criterion");
    CHECK(cJSON_GetObjectItem(j, "avg")->valuedouble == 100 &&
              cJSON_GetObjectItem(j, "range_allowed")->valuedouble == 20 &&
              cJSON_GetObjectItem(j, "slope_allowed")->valuedouble == 10,
          "figures");
    CHECK(cJSON_GetArraySize(cJSON_GetObjectItem(j, "values")) == 5, "window values");
    CHECK(cJSON_GetObjectItem(j, "interval_s")->valuedouble == 60, "interval");
    cJSON_Delete(j);
    /* a rising series never settles: not achieved, stated plainly */
    cfg.max_rounds = 6;
    steady_init(s, &cfg);
    for (unsigned i = 0; i < 6; i++)
        st = steady_feed(s, 100.0 * (i + 1));
    steady_get_report(s, &r);
    nw = steady_window_values(s, w, 8);
    j = result_steady_json(&cfg, &r, w, nw, 1000000000ull);
    CHECK(st == STEADY_NOT_REACHED && !cJSON_IsTrue(cJSON_GetObjectItem(j, "reached")), "not reached");
    CHECK(strstr(cJSON_GetObjectItem(j, "statement")->valuestring, "not achieved after 6 rounds"),
          "'%s'", cJSON_GetObjectItem(j, "statement")->valuestring);
    /* fit over rounds 2..6 of 200..600: slope 100, intercept 0 */
    const cJSON *fit = cJSON_GetObjectItem(j, "fit");
    CHECK(fabs(cJSON_GetObjectItem(fit, "slope")->valuedouble - 100) < 1e-9 &&
              fabs(cJSON_GetObjectItem(fit, "intercept")->valuedouble) < 1e-9,
          "fit");
    cJSON_Delete(j);
    free(s);
}

TEST(baseline_scaling)
{
    cJSON *base = cJSON_Parse(
        "{\"suite\":{\"profiles\":[{\"name\":\"x\",\"points\":[{\"phase\":\"x QD1\","
        "\"combined\":{\"iops\":1000}}]}]},"
        "\"phases\":[{\"name\":\"y\",\"results\":[{\"scope\":\"total\",\"read\":{\"iops\":300},"
        "\"write\":{\"iops\":100}}]}]}");
    CHECK(base, "parse");
    cJSON *s = suite_scaling_json(base, "x QD1", 1900, 2);
    CHECK(s && cJSON_GetObjectItem(s, "baseline_iops")->valuedouble == 1000, "baseline");
    CHECK(fabs(cJSON_GetObjectItem(s, "factor")->valuedouble - 1.9) < 1e-12, "factor");
    CHECK(fabs(cJSON_GetObjectItem(s, "per_target")->valuedouble - 0.95) < 1e-12, "per target");
    cJSON_Delete(s);
    s = suite_scaling_json(base, "y", 800, 1);
    CHECK(s && cJSON_GetObjectItem(s, "factor")->valuedouble == 2, "from the phase total");
    cJSON_Delete(s);
    CHECK(!suite_scaling_json(base, "x QD2", 1, 1), "no such point");
    CHECK(!suite_scaling_json(NULL, "x QD1", 1, 1), "no baseline");
    cJSON_Delete(base);
    /* a 4-LUN baseline against an 8-LUN run: per target compares LUN with LUN */
    base = cJSON_Parse("{\"suite\":{\"targets\":[{},{},{},{}],\"profiles\":[{\"name\":\"x\","
                       "\"points\":[{\"phase\":\"x QD1\",\"combined\":{\"iops\":1000}}]}]}}");
    s = suite_scaling_json(base, "x QD1", 1800, 8);
    CHECK(s && fabs(cJSON_GetObjectItem(s, "factor")->valuedouble - 1.8) < 1e-12, "factor 8 vs 4");
    CHECK(fabs(cJSON_GetObjectItem(s, "per_target")->valuedouble - 0.9) < 1e-12, "per target 8 vs 4");
    CHECK(cJSON_GetObjectItem(s, "baseline_targets")->valuedouble == 4, "baseline targets");
    cJSON_Delete(s);
    cJSON_Delete(base);
}

CHECK_MAIN()
