/* test_act_run.c - ACT's plan on the runner (act_run.h): the jobs one load
 * becomes, with rates, sizes, threads, per-device rates and regions
 * hand-computed from reference/act.md sections 3-5; the record-size bssplit
 * and its 64-entry approximation; the --find-max ladder; act-prep's writers;
 * and one short load on the null engine, whose log must parse back with the
 * counts the result holds. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check.h"
#include "runner/runner.h"
#include "result/result.h"
#include "act/act_analyze.h"
#include "act/act_config.h"
#include "act/act_run.h"

#define GiB (1024ull * 1024 * 1024)

static bool near(double a, double b) { return fabs(a - b) <= 1e-9 * (fabs(b) > 1 ? fabs(b) : 1); }

/* Parses text, derives with ncpus and the devices' min I/O, plans. */
static int plan_text(const char *text, const struct act_device *devs, enum act_mode mode,
                     struct act_config *c, struct act_derived *d, struct act_plan *p, char *err)
{
    struct act_run_opts o = {.mode = mode, .engine = mode == ACT_MODE_THREADS ? ENGINE_PSYNC
                                                                                : ENGINE_IO_URING};
    int rc = act_config_parse_text(c, text, "t.conf", err, 256);
    if (rc)
        return rc;
    rc = act_config_derive(c, 2, act_devices_min_io(devs, c->ndevices), d, err, 256);
    if (rc)
        return rc;
    return act_plan_build(c, d, devs, &o, p, err, 256);
}

#define CFG_3X "device-names: /dev/sdb\ntest-duration-sec: 12\nread-reqs-per-sec: 6000\n" \
               "write-reqs-per-sec: 3000\n"

TEST(plan_3x_threads_mode)
{
    struct act_device dev = {2 * GiB, 512};
    struct act_config c;
    struct act_derived d;
    static struct act_plan p;
    char err[256];
    CHECK(plan_text(CFG_3X, &dev, ACT_MODE_THREADS, &c, &d, &p, err) == 0, "%s", err);
    CHECK(p.njobs == 3, "%u jobs", p.njobs);
    CHECK(p.job_of[ACT_JOB_SERVICE] == 0 && p.job_of[ACT_JOB_LB_READS] == 1 &&
          p.job_of[ACT_JOB_LB_WRITES] == 2 && p.job_of[ACT_JOB_TOMB] == -1, "job order");
    /* 5 x 2 CPUs = 10 threads, 6000 / 10 = 600 reads/s each */
    const struct job_spec *s = &p.jobs[0];
    CHECK(s->numjobs == 10 && s->iodepth == 1 && s->rate_iops == 600 && s->rate_burst == 0,
          "service %u x QD%u at %g", s->numjobs, s->iodepth, s->rate_iops);
    CHECK(s->engine == ENGINE_PSYNC && s->layout == LAYOUT_RANDOM && s->rw == RW_RANDREAD,
          "engine %d layout %d rw %d", s->engine, s->layout, s->rw);
    CHECK(s->bs[DIR_READ].n == 1 && s->bs[DIR_READ].bs[0] == 1536 &&
          s->blockalign[DIR_READ] == 512, "1536 B reads aligned to 512, got %u/%u",
          s->bs[DIR_READ].bs[0], s->blockalign[DIR_READ]);
    CHECK(s->direct && s->dsync && s->ntargets == 1 && !strcmp(s->targets[0], "/dev/sdb"), "open");
    /* 2 GiB / 128 KiB = 16384 whole blocks; small reads start at 0 .. 4194304 - 3 */
    CHECK(p.n_large_blocks == 16384 && p.region_bytes == 2 * GiB && s->size == 2 * GiB, "region");
    CHECK(p.n_small_offsets == 4194302, "%llu offsets", (unsigned long long)p.n_small_offsets);
    CHECK(p.nintervals == 12 && p.interval_ns == 1000000000ull && s->runtime_ns == 12000000000ull &&
          s->interval_ns == 1000000000ull, "time");
    /* lb rate: 3000 / 85 records per block x 2.0 amplification = 70.588.../s */
    const struct job_spec *r = &p.jobs[1], *w = &p.jobs[2];
    CHECK(near(r->rate_iops, 6000.0 / 85) && near(w->rate_iops, 6000.0 / 85), "lb %g %g",
          r->rate_iops, w->rate_iops);
    CHECK(r->layout == LAYOUT_JBOD && r->numjobs == 1 && r->rw == RW_RANDREAD &&
          r->bs[DIR_READ].bs[0] == 131072 && r->blockalign[DIR_READ] == 131072, "lb reads");
    CHECK(w->rw == RW_RANDWRITE && w->bs[DIR_WRITE].bs[0] == 131072 && w->buffer == BUF_COMPRESSIBLE &&
          w->compress_pct == 0 && w->refill_buffers, "lb writes: fresh random data");
    CHECK(p.max_queue_depth == 12 && near(p.small_rate_total, 6000) && p.read_frac == 1.0, "qd %u",
          p.max_queue_depth);
}

TEST(plan_3x_open_loop_keeps_act_schedule)
{
    struct act_device dev = {2 * GiB, 512};
    struct act_config c;
    struct act_derived d;
    static struct act_plan p;
    char err[256];
    CHECK(plan_text(CFG_3X, &dev, ACT_MODE_OPEN_LOOP, &c, &d, &p, err) == 0, "%s", err);
    const struct job_spec *s = &p.jobs[0];
    /* one worker, 10 slots, 6000/s issued 10 at a time every 1/600 s */
    CHECK(s->numjobs == 1 && s->iodepth == 10 && s->rate_iops == 6000 && s->rate_burst == 10 &&
          s->engine == ENGINE_IO_URING, "%u x QD%u at %g burst %u", s->numjobs, s->iodepth,
          s->rate_iops, s->rate_burst);
    CHECK(p.jobs[1].iodepth == 1 && p.jobs[1].numjobs == 1 && p.max_queue_depth == 12, "lb QD1");
    struct act_run_opts o = {.mode = ACT_MODE_OPEN_LOOP, .engine = ENGINE_IO_URING, .iodepth = 32,
                             .tick_ns = 5000000};
    CHECK(act_plan_build(&c, &d, &dev, &o, &p, err, sizeof(err)) == 0, "%s", err);
    CHECK(p.jobs[0].iodepth == 32 && p.max_queue_depth == 34, "--iodepth 32");
    CHECK(p.interval_ns == 5000000 && p.runtime_ns == 12 * 5000000ull, "tick: 12 intervals of 5 ms");
}

TEST(plan_30x_four_devices_per_device_rates)
{
    /* sizes: the smallest whole-block count (1 GiB + 100000 B -> 8192) wins */
    struct act_device devs[4] = {{2 * GiB, 512}, {GiB + 100000, 512}, {3 * GiB, 512},
                                 {4 * GiB, 512}};
    struct act_config c;
    struct act_derived d;
    static struct act_plan p;
    char err[256];
    const char *text = "device-names: /dev/a /dev/b /dev/c /dev/d\ntest-duration-sec: 86400\n"
                       "read-reqs-per-sec: 240000\nwrite-reqs-per-sec: 120000\n"
                       "service-threads: 48\nreport-interval-sec: 10\n";
    CHECK(plan_text(text, devs, ACT_MODE_THREADS, &c, &d, &p, err) == 0, "%s", err);
    const struct job_spec *s = &p.jobs[0];
    CHECK(s->numjobs == 48 && s->rate_iops == 5000 && s->ntargets == 4, "240000 / 48 = 5000");
    CHECK(p.n_large_blocks == 8192 && p.region_bytes == GiB && s->size == GiB, "%llu blocks",
          (unsigned long long)p.n_large_blocks);
    /* 120000 / 85 x 2 = 2823.53 total, 705.88 per device */
    CHECK(near(p.jobs[1].rate_iops, 240000.0 / 85 / 4) && near(p.jobs[2].rate_iops, 240000.0 / 85 / 4),
          "per device %g", p.jobs[1].rate_iops);
    CHECK(p.jobs[1].ntargets == 4 && p.jobs[1].layout == LAYOUT_JBOD, "one lb worker per device");
    CHECK(p.nintervals == 8640 && p.runtime_ns == 86400000000000ull, "8640 reports of 10 s");
    CHECK(p.max_queue_depth == 48 + 8, "qd %u", p.max_queue_depth);
}

TEST(plan_commit_to_device_record_range)
{
    /* act.md: records 1000..4000 B -> stored 1008..4000, avg 2504, R = 52.
     * 3000 writes/s: lb reads 3000/52 x 2 = 115.38, lb writes 3000/52 x 1 = 57.69.
     * small reads 6000 + 3000 x 10% = 6300, small writes 3000, 9300 / 10 threads = 930.
     * Reads: 2^20 x 6300 / 9300 = 710325 (integer) of 2^20. */
    struct act_device devs[2] = {{GiB, 512}, {GiB, 512}};
    struct act_config c;
    struct act_derived d;
    static struct act_plan p;
    char err[256];
    const char *text = "device-names: /dev/a,/dev/b\ntest-duration-sec: 60\n"
                       "read-reqs-per-sec: 6000\nwrite-reqs-per-sec: 3000\nservice-threads: 10\n"
                       "record-bytes: 1000\nrecord-bytes-range-max: 4000\ncommit-to-device: yes\n"
                       "update-pct: 10\ncompress-pct: 40\n";
    CHECK(plan_text(text, devs, ACT_MODE_THREADS, &c, &d, &p, err) == 0, "%s", err);
    const struct job_spec *s = &p.jobs[0];
    CHECK(s->rw == RW_RANDRW && s->rate_iops == 930 && s->numjobs == 10, "rw %d rate %g", s->rw,
          s->rate_iops);
    CHECK(near(s->rwmix_read_frac, 710325.0 / 1048576) && s->rwmixread == 68,
          "read share %.9f (%u%%)", s->rwmix_read_frac, s->rwmixread);
    /* sizes: 1008 -> 1024 .. 4000 -> 4096 in 512 steps: 7 sizes, 1/7 each, both directions */
    CHECK(s->bs[DIR_READ].n == 7 && s->bs[DIR_WRITE].n == 7 && !p.sizes_approximated, "%u sizes",
          s->bs[DIR_READ].n);
    for (unsigned i = 0; i < 7; i++)
        CHECK(s->bs[DIR_READ].bs[i] == 1024 + 512 * i && near(s->bs[DIR_READ].pct[i], 100.0 / 7) &&
              s->bs[DIR_WRITE].bs[i] == s->bs[DIR_READ].bs[i], "size %u: %u", i,
              s->bs[DIR_READ].bs[i]);
    CHECK(s->blockalign[DIR_WRITE] == 512 && s->buffer == BUF_COMPRESSIBLE && s->compress_pct == 60 &&
          s->refill_buffers, "commit writes: 60%% zero per 512 B, refilled");
    CHECK(near(p.jobs[1].rate_iops, 3000.0 / 52 * 2 / 2) && near(p.jobs[2].rate_iops, 3000.0 / 52 / 2),
          "lb per device %g %g", p.jobs[1].rate_iops, p.jobs[2].rate_iops);
    CHECK(p.jobs[2].compress_pct == 60, "lb writes compress too");
    /* a 4 KiB device: 1008 -> 4096 .. 4096: one size */
    struct act_device big[2] = {{GiB, 4096}, {GiB, 512}};
    CHECK(plan_text(text, big, ACT_MODE_THREADS, &c, &d, &p, err) == 0, "%s", err);
    CHECK(p.min_io_bytes == 4096 && p.jobs[0].bs[DIR_READ].n == 1 &&
          p.jobs[0].bs[DIR_READ].bs[0] == 4096 && p.jobs[0].blockalign[DIR_READ] == 4096,
          "largest min I/O of the devices: %u", p.min_io_bytes);
}

TEST(record_range_over_64_sizes)
{
    /* 1536 .. 1 MiB on 512 B: 3 .. 2048 sectors, 2046 sizes: 64 of them,
     * in pairs j, 2045 - j with j = round(i x 2045 / 63). */
    struct act_derived d;
    memset(&d, 0, sizeof(d));
    d.min_io_bytes = 512;
    d.io_bytes_min = 1536;
    d.io_bytes_max = 1048576;
    d.n_io_sizes = 2046;
    struct job_bssplit bs;
    bool approx = false;
    act_read_sizes(&d, &bs, &approx);
    CHECK(approx && bs.n == 64, "n %u", bs.n);
    CHECK(bs.bs[0] == 1536 && bs.bs[63] == 1048576, "ends %u %u", bs.bs[0], bs.bs[63]);
    CHECK(bs.bs[1] == 1536 + 32 * 512 && bs.bs[62] == 1536 + 2013 * 512, "second %u", bs.bs[1]);
    double mean = 0;
    for (unsigned i = 0; i < 64; i++) {
        CHECK(bs.pct[i] == 1.5625, "share %g", bs.pct[i]);
        CHECK(i == 0 || bs.bs[i] > bs.bs[i - 1], "not increasing at %u", i);
        CHECK(bs.bs[i] % 512 == 0, "unaligned %u", bs.bs[i]);
        mean += bs.bs[i] / 64.0;
    }
    CHECK(mean == (1536 + 1048576) / 2.0, "mean %f: ACT's uniform mean is 525056", mean);
    /* 65 sizes: still 64 entries, distinct */
    d.io_bytes_max = 1536 + 64 * 512;
    d.n_io_sizes = 65;
    act_read_sizes(&d, &bs, &approx);
    CHECK(approx && bs.n == 64 && bs.bs[31] < bs.bs[32], "mid %u %u", bs.bs[31], bs.bs[32]);
}

TEST(plan_tomb_raider_file_mode_and_errors)
{
    struct act_device dev = {GiB, 512};
    struct act_config c;
    struct act_derived d;
    static struct act_plan p;
    char err[256];
    CHECK(plan_text(CFG_3X "tomb-raider: yes\n", &dev, ACT_MODE_THREADS, &c, &d, &p, err) == 0, "%s",
          err);
    const struct job_spec *t = &p.jobs[p.job_of[ACT_JOB_TOMB]];
    CHECK(p.njobs == 4 && t->rw == RW_READ && t->rate_iops == 0 && t->bs[DIR_READ].bs[0] == 131072 &&
          t->layout == LAYOUT_JBOD, "tomb raider: unpaced sequential 128 KiB reads");
    CHECK(p.max_queue_depth == 13, "qd %u", p.max_queue_depth);
    CHECK(plan_text(CFG_3X "tomb-raider: yes\ntomb-raider-sleep-usec: 500\n", &dev, ACT_MODE_THREADS,
                    &c, &d, &p, err) == 0, "%s", err);
    CHECK(p.jobs[3].rate_iops == 2000, "1 / 500 us = 2000/s, got %g", p.jobs[3].rate_iops);
    /* file mode: buffered, no O_DSYNC, files of 64 MiB */
    struct act_device f = {64u << 20, 512};
    CHECK(plan_text(CFG_3X "file-size-mbytes: 64\n", &f, ACT_MODE_THREADS, &c, &d, &p, err) == 0,
          "%s", err);
    CHECK(!p.jobs[0].direct && !p.jobs[0].dsync && p.jobs[0].file_size == 64u << 20 &&
          p.region_bytes == 64u << 20, "file mode");
    CHECK(plan_text(CFG_3X "disable-odsync: yes\n", &dev, ACT_MODE_THREADS, &c, &d, &p, err) == 0,
          "%s", err);
    CHECK(p.jobs[0].direct && !p.jobs[0].dsync, "disable-odsync");
    /* reads only: no large-block jobs; writes only: no service job */
    const char *ro = "device-names: /dev/sdb\ntest-duration-sec: 5\nread-reqs-per-sec: 2000\n";
    CHECK(plan_text(ro, &dev, ACT_MODE_THREADS, &c, &d, &p, err) == 0 && p.njobs == 1 &&
          p.job_of[ACT_JOB_LB_READS] == -1, "reads only: %u jobs", p.njobs);
    const char *wo = "device-names: /dev/sdb\ntest-duration-sec: 5\nwrite-reqs-per-sec: 1000\n";
    CHECK(plan_text(wo, &dev, ACT_MODE_THREADS, &c, &d, &p, err) == 0 && p.njobs == 2 &&
          p.job_of[ACT_JOB_SERVICE] == -1, "writes only: %u jobs", p.njobs);
    /* no-defrag-reads: no lb reader */
    CHECK(plan_text(CFG_3X "no-defrag-reads: yes\n", &dev, ACT_MODE_THREADS, &c, &d, &p, err) == 0 &&
          p.job_of[ACT_JOB_LB_READS] == -1 && p.njobs == 2, "no-defrag-reads");
    /* a device below one large block is refused by name */
    struct act_device tiny = {100000, 512};
    CHECK(plan_text(CFG_3X, &tiny, ACT_MODE_THREADS, &c, &d, &p, err) == -EINVAL &&
          strstr(err, "/dev/sdb") && strstr(err, "100000"), "%s", err);
    /* ACT's 128 devices: one service job over all, one lb worker per device */
    char text[8192] = "device-names:";
    static struct act_device many[ACT_MAX_DEVICES];
    for (unsigned i = 0; i < ACT_MAX_DEVICES; i++) {
        snprintf(text + strlen(text), sizeof(text) - strlen(text), " /dev/d%u", i);
        many[i] = dev;
    }
    strcat(text, "\ntest-duration-sec: 5\nread-reqs-per-sec: 256000\nwrite-reqs-per-sec: 128000\n");
    CHECK(plan_text(text, many, ACT_MODE_THREADS, &c, &d, &p, err) == 0, "%s", err);
    CHECK(p.jobs[0].ntargets == 128 && p.jobs[1].ntargets == 128 && p.max_queue_depth == 10 + 256 &&
          near(p.jobs[1].rate_iops, 256000.0 / 85 / 128), "128 devices: qd %u", p.max_queue_depth);
}

TEST(ladder_and_load_scaling)
{
    static const double in[] = {0.5, 1, 1.5, 2, 3, 4, 6, 8, 12, 16, 24, 30, 32, 48, 64, 96};
    static const double out[] = {1, 2, 2, 3, 4, 6, 8, 12, 16, 24, 32, 32, 48, 64, 96, 128};
    for (unsigned i = 0; i < sizeof(in) / sizeof(in[0]); i++)
        CHECK(act_ladder_next(in[i]) == out[i], "after %g: %g", in[i], act_ladder_next(in[i]));
    struct act_config c;
    char err[256];
    CHECK(act_config_parse_text(&c, "device-names: a b\ntest-duration-sec: 5\nread-reqs-per-sec: 1\n"
                                    "record-bytes: 4000\n", "t", err, sizeof(err)) == 0, "%s", err);
    CHECK(act_config_with_load(&c, 30, err, sizeof(err)) == 0, "%s", err);
    CHECK(c.read_reqs_per_sec == 120000 && c.write_reqs_per_sec == 60000 && c.record_bytes == 4000,
          "30x on 2 devices: %u/%u", c.read_reqs_per_sec, c.write_reqs_per_sec);
    CHECK(act_config_with_load(&c, 1.25, err, sizeof(err)) == 0 && c.read_reqs_per_sec == 5000 &&
          c.write_reqs_per_sec == 2500, "1.25x");
    CHECK(act_config_with_load(&c, 0, err, sizeof(err)) == -EINVAL, "0x accepted");
}

TEST(act_prep_writers)
{
    static struct job_spec jobs[ACT_PREP_MAX_JOBS];
    unsigned n;
    char err[256];
    /* 1 GiB + 1536 B: 8192 blocks, 1024 per writer, and a 1536 B tail */
    CHECK(act_prep_jobs("/dev/x", GiB + 1536, true, jobs, &n, err, sizeof(err)) == 0, "%s", err);
    CHECK(n == 9, "%u jobs", n);
    for (unsigned w = 0; w < 8; w++)
        CHECK(jobs[w].offset == w * 128ull * 1048576 && jobs[w].size == 128ull * 1048576 &&
              jobs[w].io_limit == jobs[w].size && jobs[w].rw == RW_WRITE &&
              jobs[w].bs[DIR_WRITE].bs[0] == 131072 && jobs[w].buffer == BUF_ZERO && jobs[w].direct &&
              !jobs[w].dsync, "writer %u at %llu", w, (unsigned long long)jobs[w].offset);
    CHECK(jobs[8].offset == GiB && jobs[8].size == 1536 && jobs[8].bs[DIR_WRITE].bs[0] == 1536,
          "tail at %llu size %llu", (unsigned long long)jobs[8].offset,
          (unsigned long long)jobs[8].size);
    /* 8203 blocks: 1025 each, the last writer takes 8203 - 7 x 1025 = 1028 */
    CHECK(act_prep_jobs("/dev/x", 8203ull * 131072, false, jobs, &n, err, sizeof(err)) == 0 && n == 8,
          "%u", n);
    CHECK(jobs[7].offset == 7 * 1025ull * 131072 && jobs[7].size == 1028ull * 131072 &&
          jobs[0].buffer == BUF_RANDOM && jobs[0].refill_buffers, "last writer takes the rest");
    /* under 8 blocks: one writer */
    CHECK(act_prep_jobs("/dev/x", 300 * 1024, true, jobs, &n, err, sizeof(err)) == 0 && n == 2 &&
          jobs[0].size == 262144 && jobs[1].size == 45056, "small device");
    CHECK(act_prep_jobs("/dev/x", 1000, true, jobs, &n, err, sizeof(err)) == -EINVAL, "1000 B");
}

/* A 5-report load on the null engine (50 ms per report): the log parses
 * back, every report is there, and the hourly verdict is "none". */
TEST(null_engine_load_log_parses)
{
    struct act_config base;
    char err[512];
    CHECK(act_config_parse_text(&base, "device-names: /dev/nonexistent-act0\ntest-duration-sec: 5\n"
                                       "read-reqs-per-sec: 6000\nwrite-reqs-per-sec: 3000\n",
                                "t", err, sizeof(err)) == 0, "%s", err);
    struct act_device dev;
    CHECK(act_probe_devices(&base, ENGINE_NULL, &dev, err, sizeof(err)) == 0, "%s", err);
    CHECK(dev.size_bytes == 2 * GiB && dev.min_io_bytes == 512, "null device %llu",
          (unsigned long long)dev.size_bytes);
    struct act_run_opts o = {.mode = ACT_MODE_OPEN_LOOP, .engine = ENGINE_NULL, .ncpus = 2,
                             .tick_ns = 50000000, .slice_sec = 1};
    struct guard_consent none = {0};
    struct session ses;
    CHECK(session_open(&ses, 0, NULL, &none, NULL) == 0, "session");
    cJSON *doc = ses.doc;
    FILE *log = tmpfile();
    static struct act_load_result res;
    CHECK(act_run_load(&ses, &base, 0, &dev, &o, log, "test", &res, err, sizeof(err)) == 0, "%s",
          err);
    CHECK(res.ran && !res.lagged && res.logged_s == 5, "logged %u s", res.logged_s);
    CHECK(res.an.verdict.status == ACT_VERDICT_NONE && res.an.tables[1].nslices == 5 &&
          res.an.tables[0].nslices == 5, "verdict %d, %u slices", res.an.verdict.status,
          res.an.tables[1].nslices);
    rewind(log);
    struct act_analysis a;
    struct act_analyze_opts ao;
    act_analyze_opts_default(&ao);
    ao.slice_sec = 1;
    CHECK(act_analyze_stream(log, "log", &ao, &a, err, sizeof(err)) == 0, "%s", err);
    CHECK(a.info.nblocks == 5 && a.info.last_elapsed == 5,
          "blocks %u", a.info.nblocks);
    /* the log's slices are the ones the run computed */
    CHECK(a.tables[0].nslices == 5, "%u", a.tables[0].nslices);
    for (unsigned s = 0; s < 5; s++)
        CHECK(a.tables[0].rows[s].ops == res.an.tables[1].rows[s].ops, "slice %u: %llu vs %llu", s,
              (unsigned long long)a.tables[0].rows[s].ops,
              (unsigned long long)res.an.tables[1].rows[s].ops);
    act_analysis_free(&a);
    cJSON *act = act_json_begin(doc, &base, &o, &dev);
    act_json_add_load(act, &res, "log");
    cJSON *l0 = cJSON_GetArrayItem(cJSON_GetObjectItem(act, "loads"), 0);
    CHECK(l0 && !strcmp(result_str(l0, "phase", ""), "act"), "phase name");
    cJSON *sl = cJSON_GetObjectItem(l0, "slices");
    CHECK(cJSON_GetArraySize(sl) == 5, "%d slices in the result", cJSON_GetArraySize(sl));
    act_load_result_free(&res);
    session_close(&ses);
    fclose(log);
}

TEST(service_rings_split_act_threads)
{
    /* largest divisor of both the thread and the slot count, at most ncpus */
    CHECK(act_service_rings(10, 10, 2) == 2, "10 threads, 2 CPUs");
    CHECK(act_service_rings(10, 10, 4) == 2, "10 threads, 4 CPUs: 4 and 3 do not divide");
    CHECK(act_service_rings(20, 20, 4) == 4, "20 threads, 4 CPUs");
    CHECK(act_service_rings(7, 7, 4) == 1, "a prime thread count");
    CHECK(act_service_rings(10, 32, 4) == 2, "--iodepth 32");
    CHECK(act_service_rings(10, 10, 0) == 1 && act_service_rings(10, 10, 1) == 1, "one CPU");
    CHECK(act_service_rings(10, 10, 64) == 10, "never more rings than threads");
}

/* The worker's schedule, I/O by I/O: n is due at (n - n % b) / rate. */
static uint64_t brute_scheduled(double rate, unsigned burst, uint64_t runtime)
{
    uint64_t b = burst > 1 ? burst : 1, n = 0;
    const double period = 1e9 / rate;
    while ((uint64_t)((double)(n - n % b) * period) < runtime)
        n++;
    return n;
}

TEST(scheduled_ios_is_the_workers_schedule)
{
    CHECK(act_scheduled_ios(6000, 10, 1000000000ull) == 6000, "6000/s in bursts of 10, 1 s");
    /* 70.588 large-block writes/s for 10 s: due at 0, 14.2 ms ... 9.9875 s */
    CHECK(act_scheduled_ios(6000.0 / 85, 1, 10000000000ull) == 706, "%llu",
          (unsigned long long)act_scheduled_ios(6000.0 / 85, 1, 10000000000ull));
    CHECK(act_scheduled_ios(0, 1, 1000000000ull) == 0, "unpaced");
    static const double rates[] = {600, 70.58823529411765, 3000, 1234.5, 7, 99999};
    static const unsigned bursts[] = {1, 5, 10, 3};
    for (unsigned r = 0; r < 6; r++)
        for (unsigned b = 0; b < 4; b++)
            for (uint64_t t = 1; t <= 3000000001ull; t += 333333331ull) {
                uint64_t got = act_scheduled_ios(rates[r], bursts[b], t),
                         want = brute_scheduled(rates[r], bursts[b], t);
                CHECK(got == want, "rate %g burst %u %llu ns: %llu vs %llu", rates[r], bursts[b],
                      (unsigned long long)t, (unsigned long long)got, (unsigned long long)want);
            }
}

TEST(plan_open_loop_rings_flushes_and_schedule)
{
    struct act_device dev = {2 * GiB, 512};
    struct act_config c;
    struct act_derived d;
    static struct act_plan p;
    char err[256];
    CHECK(act_config_parse_text(&c, CFG_3X, "t.conf", err, sizeof(err)) == 0, "%s", err);
    CHECK(act_config_derive(&c, 2, 512, &d, err, sizeof(err)) == 0, "%s", err);
    struct act_run_opts o = {.mode = ACT_MODE_OPEN_LOOP, .engine = ENGINE_IO_URING, .ncpus = 2};
    CHECK(act_plan_build(&c, &d, &dev, &o, &p, err, sizeof(err)) == 0, "%s", err);
    /* 10 ACT threads on 2 CPUs: 2 rings of 5 threads' share each */
    const struct job_spec *s = &p.jobs[0];
    CHECK(p.service_rings == 2 && s->numjobs == 2 && s->iodepth == 5 && s->rate_iops == 3000 &&
          s->rate_burst == 5, "%u x QD%u at %g burst %u", s->numjobs, s->iodepth, s->rate_iops,
          s->rate_burst);
    CHECK(p.max_queue_depth == 12, "queue depth %u", p.max_queue_depth);
    /* every write of the async engine is followed by a flush, as ACT's
     * blocking O_DSYNC pwrite; every job issues its whole schedule */
    for (unsigned j = 0; j < p.njobs; j++)
        CHECK(p.jobs[j].dsync && p.jobs[j].dsync_flush && p.jobs[j].rate_complete, "job %u", j);
    CHECK(p.scheduled[ACT_JOB_SERVICE] == 72000 && p.scheduled[ACT_JOB_LB_READS] == 848 &&
          p.scheduled[ACT_JOB_LB_WRITES] == 848, "scheduled %llu %llu %llu",
          (unsigned long long)p.scheduled[ACT_JOB_SERVICE],
          (unsigned long long)p.scheduled[ACT_JOB_LB_READS],
          (unsigned long long)p.scheduled[ACT_JOB_LB_WRITES]);
    /* threads mode: blocking pwrite flushes by itself */
    o.mode = ACT_MODE_THREADS;
    o.engine = ENGINE_PSYNC;
    CHECK(act_plan_build(&c, &d, &dev, &o, &p, err, sizeof(err)) == 0, "%s", err);
    CHECK(p.service_rings == 10 && !p.jobs[0].dsync_flush && p.jobs[0].dsync, "threads");
    CHECK(p.scheduled[ACT_JOB_SERVICE] == 72000, "%llu",
          (unsigned long long)p.scheduled[ACT_JOB_SERVICE]);
    /* disable-odsync: no O_DSYNC, no flushes */
    c.disable_odsync = true;
    o.mode = ACT_MODE_OPEN_LOOP;
    o.engine = ENGINE_IO_URING;
    CHECK(act_plan_build(&c, &d, &dev, &o, &p, err, sizeof(err)) == 0, "%s", err);
    CHECK(!p.jobs[0].dsync && !p.jobs[0].dsync_flush, "disable-odsync");
}

/* A worker that cannot keep up (20 million I/Os a second on the null
 * engine) still issues every I/O its schedule holds: the count is the
 * schedule's, whatever the host's speed. */
TEST(behind_worker_issues_whole_schedule)
{
    struct job_spec j;
    job_defaults(&j);
    snprintf(j.name, sizeof(j.name), "paced");
    j.engine = ENGINE_NULL;
    j.rw = RW_RANDREAD;
    j.size = 1ull << 30;
    j.iodepth = 4;
    j.numjobs = 2;
    j.rate_iops = 20e6;
    j.rate_burst = 4;
    j.rate_complete = true;
    j.runtime_ns = 20000000ull;
    j.time_based = true;
    j.interval_ns = 5000000ull;
    struct runner_opts ro = {.stop_on_error = true};
    struct phase_stats ps;
    char err[256];
    CHECK(runner_run(&j, 1, &ro, &ps, err, sizeof(err)) == 0, "%s", err);
    uint64_t want = 2 * act_scheduled_ios(20e6, 4, 20000000ull);
    CHECK(want == 800000, "%llu", (unsigned long long)want);
    CHECK(ps.stats[0].total.dir[DIR_READ].ios == want, "issued %llu of %llu",
          (unsigned long long)ps.stats[0].total.dir[DIR_READ].ios, (unsigned long long)want);
    CHECK(ps.stats[0].max_lag_ns > 0, "the worker was behind");
    phase_stats_free(&ps);
}

struct slow_hook {
    unsigned calls;
    unsigned last_index;
    uint64_t ios;
};

static bool slow_interval(void *arg, const struct runner_interval *iv)
{
    struct slow_hook *h = arg;
    h->calls++;
    h->last_index = iv->index;
    h->ios += iv->all->dir[DIR_READ].ios;
    struct timespec ts = {0, 4000000};   /* 4 ms per 1 ms interval: far behind */
    nanosleep(&ts, NULL);
    return false;
}

/* A collector slower than the intervals (a short --tick-ms on a loaded
 * host) still gets every interval, and every I/O in one of them. */
TEST(slow_collector_gets_every_interval)
{
    struct job_spec j;
    job_defaults(&j);
    snprintf(j.name, sizeof(j.name), "paced");
    j.engine = ENGINE_NULL;
    j.rw = RW_RANDREAD;
    j.size = 1ull << 30;
    j.rate_iops = 20000;
    j.rate_complete = true;
    j.runtime_ns = 40000000ull;
    j.time_based = true;
    j.interval_ns = 1000000ull;
    struct slow_hook h = {0};
    struct runner_opts ro = {.stop_on_error = true, .on_interval = slow_interval, .arg = &h};
    struct phase_stats ps;
    char err[256];
    CHECK(runner_run(&j, 1, &ro, &ps, err, sizeof(err)) == 0, "%s", err);
    CHECK(h.calls == 40 && h.last_index == 39, "%u intervals, last %u", h.calls, h.last_index);
    CHECK(h.ios == ps.stats[0].total.dir[DIR_READ].ios && h.ios == 800, "%llu in intervals, %llu",
          (unsigned long long)h.ios, (unsigned long long)ps.stats[0].total.dir[DIR_READ].ios);
    phase_stats_free(&ps);
}

/* A time-scaled run on the null engine with several rings: every interval
 * logged, every scheduled I/O issued, and a PASS/FAIL verdict marked
 * scaled. */
TEST(scaled_multi_ring_load_complete)
{
    struct act_config base;
    char err[512];
    CHECK(act_config_parse_text(&base, "device-names: /dev/nonexistent-act0\ntest-duration-sec: 3600\n"
                                       "read-reqs-per-sec: 6000\nwrite-reqs-per-sec: 3000\n"
                                       "service-threads: 12\n",
                                "t", err, sizeof(err)) == 0, "%s", err);
    struct act_device dev;
    CHECK(act_probe_devices(&base, ENGINE_NULL, &dev, err, sizeof(err)) == 0, "%s", err);
    struct act_run_opts o = {.mode = ACT_MODE_OPEN_LOOP, .engine = ENGINE_NULL, .ncpus = 4,
                             .tick_ns = 1000000};
    struct guard_consent none = {0};
    struct session ses;
    CHECK(session_open(&ses, 0, NULL, &none, NULL) == 0, "session");
    cJSON *doc = ses.doc;
    FILE *log = tmpfile();
    static struct act_load_result res;
    CHECK(act_run_load(&ses, &base, 0, &dev, &o, log, "test", &res, err, sizeof(err)) == 0, "%s",
          err);
    CHECK(res.plan.service_rings == 4, "%u rings", res.plan.service_rings);
    CHECK(res.ran && !res.lagged && res.logged_s == 3600, "logged %u s", res.logged_s);
    CHECK((res.an.verdict.status == ACT_VERDICT_PASS || res.an.verdict.status == ACT_VERDICT_FAIL) &&
          res.an.verdict.scaled_tick_ms == 1 && res.an.verdict.hours == 1 &&
          strstr(res.an.verdict.reason, "time-scaled"), "verdict %d: %s", res.an.verdict.status,
          res.an.verdict.reason);
    rewind(log);
    struct act_analysis a;
    struct act_analyze_opts ao;
    act_analyze_opts_default(&ao);
    CHECK(act_analyze_stream(log, "log", &ao, &a, err, sizeof(err)) == 0, "%s", err);
    CHECK(a.info.nblocks == 3600, "%u report blocks", a.info.nblocks);
    act_analysis_free(&a);
    cJSON *ph = cJSON_GetArrayItem(cJSON_GetObjectItem(doc, "phases"), 0);
    cJSON *rs;
    uint64_t got[ACT_NJOBS] = {0};
    cJSON_ArrayForEach(rs, cJSON_GetObjectItem(ph, "results"))
    {
        const char *scope = result_str(rs, "scope", "");
        double r = result_num(cJSON_GetObjectItem(rs, "read"), "ios", 0),
               w = result_num(cJSON_GetObjectItem(rs, "write"), "ios", 0);
        if (!strcmp(scope, "job:service"))
            got[ACT_JOB_SERVICE] = (uint64_t)(r + w);
        else if (!strcmp(scope, "job:large-block-reads"))
            got[ACT_JOB_LB_READS] = (uint64_t)r;
        else if (!strcmp(scope, "job:large-block-writes"))
            got[ACT_JOB_LB_WRITES] = (uint64_t)w;
    }
    for (unsigned k = 0; k < ACT_JOB_TOMB; k++)
        CHECK(got[k] == res.plan.scheduled[k] && got[k] > 0, "job kind %u: %llu issued, %llu "
              "scheduled", k, (unsigned long long)got[k], (unsigned long long)res.plan.scheduled[k]);
    act_load_result_free(&res);
    session_close(&ses);
    fclose(log);
}

CHECK_MAIN()
