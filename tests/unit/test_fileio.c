/* test_fileio.c - the sysbench fileio workload: options and defaults, the
 * job mapping, prepare/cleanup on a temporary directory, sysbench's
 * percentile and histogram rules, and the summary computed from a result
 * phase. (The text layout is tested in test_sysbench_text.c.) */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "engine/engine.h"
#include "result/result_hist.h"
#include "fileio/fileio.h"

static char err[1024];

static bool near(double a, double b, double tol)
{
    return fabs(a - b) <= tol;
}

static int set(struct fileio_opts *o, const char *name, const char *v)
{
    return fileio_set(o, name, v, err, sizeof(err));
}

TEST(defaults_are_sysbench_1_0_20)
{
    struct fileio_opts o;
    fileio_defaults(&o);
    CHECK(o.file_num == 128 && o.block_size == 16384 && o.total_size == 2147483648ull, "sizes");
    CHECK(!o.mode_set && o.io_mode == FILEIO_IO_SYNC && o.async_backlog == 128, "modes");
    CHECK(o.extra_flags == 0 && o.fsync_freq == 100 && !o.fsync_all && o.fsync_end && !o.fdatasync,
          "fsync defaults");
    CHECK(o.merged_requests == 0 && o.rw_ratio == 1.5 && !o.zero_fill, "merge/ratio/fill");
    CHECK(o.nthreads == 1 && o.threads[0] == 1 && o.time_s == 10 && o.events == 0 && o.rate == 0,
          "general");
    CHECK(o.report_interval == 0 && o.percentile == 95 && !o.histogram && o.rand_seed == 0 &&
          !o.validate, "reporting");
    CHECK(fileio_file_size(&o) == 16777216, "2G / 128 = %llu", (unsigned long long)fileio_file_size(&o));
}

TEST(option_values)
{
    struct fileio_opts o;
    fileio_defaults(&o);
    CHECK(set(&o, "file-total-size", "4M") == 0 && o.total_size == 4194304, "4M");
    CHECK(set(&o, "file-total-size", "4mb") == 0 && o.total_size == 4194304, "4mb");
    CHECK(set(&o, "file-total-size", "1T") == 0 && o.total_size == 1ull << 40, "1T");
    CHECK(set(&o, "file-total-size", "4194304") == 0 && o.total_size == 4194304, "bytes");
    CHECK(set(&o, "file-block-size", "4k") == 0 && o.block_size == 4096, "4k");
    CHECK(set(&o, "file-test-mode", "rndrw") == 0 && o.mode == FILEIO_RNDRW && o.mode_set, "mode");
    CHECK(set(&o, "file-io-mode", "async") == 0 && o.io_mode == FILEIO_IO_ASYNC, "io");
    CHECK(set(&o, "file-extra-flags", "direct,dsync") == 0 &&
          o.extra_flags == (FILEIO_FLAG_DIRECT | FILEIO_FLAG_DSYNC), "flags");
    CHECK(set(&o, "file-extra-flags", "") == 0 && o.extra_flags == 0, "empty flags");
    CHECK(set(&o, "file-fsync-all", NULL) == 0 && o.fsync_all, "bare boolean = on");
    CHECK(set(&o, "file-fsync-end", "off") == 0 && !o.fsync_end, "off");
    CHECK(set(&o, "file-fsync-mode", "fdatasync") == 0 && o.fdatasync, "fdatasync");
    CHECK(set(&o, "file-rw-ratio", "2.5") == 0 && o.rw_ratio == 2.5, "ratio");
    CHECK(set(&o, "threads", "1,2,4,8,16,32") == 0 && o.nthreads == 6 && o.threads[5] == 32, "list");
    CHECK(set(&o, "num-threads", "3") == 0 && o.nthreads == 1 && o.threads[0] == 3, "alias");
    CHECK(set(&o, "max-time", "7") == 0 && o.time_s == 7, "max-time");
    CHECK(set(&o, "max-requests", "99") == 0 && o.events == 99, "max-requests");
    CHECK(set(&o, "tx-rate", "500") == 0 && o.rate == 500, "tx-rate");
    CHECK(set(&o, "percentile", "0") == 0 && o.percentile == 0, "pct 0");
    CHECK(set(&o, "rand-type", "pareto") == 0, "accepted, not used by fileio");
    CHECK(set(&o, "file-fill", "zero") == 0 && o.zero_fill, "fill");
}

#define BAD(name, val, msg)                                                                 \
    do {                                                                                    \
        const char *v_ = val;                                                               \
        fileio_defaults(&o);                                                                \
        int rc_ = set(&o, name, v_);                                                        \
        CHECK(rc_ == -EINVAL && strcmp(err, msg) == 0, "%s=%s: %d '%s'", name, v_ ? v_ : "", \
              rc_, err);                                                                    \
    } while (0)

TEST(bad_values_give_one_line)
{
    struct fileio_opts o;
    BAD("file-block-size", "abc",
        "invalid value for --file-block-size: 'abc' (expected a size in bytes, e.g. 16384 or 16K)");
    BAD("file-total-size", "4Mx",
        "invalid value for --file-total-size: '4Mx' (expected a size in bytes, e.g. 16384 or 16K)");
    BAD("file-block-size", "0", "invalid value for --file-block-size: 0 (must be 1 to 1073741824)");
    BAD("file-num", "0", "invalid value for --file-num: 0 (must be 1 to 1048576)");
    /* sysbench 1.0.20's own words where it names the value */
    BAD("file-test-mode", "foo", "Invalid IO operations mode: foo.");
    BAD("file-io-mode", "foo", "unknown I/O mode: foo");
    BAD("file-extra-flags", "sync,foo", "Invalid value for file-extra-flags: sync,foo");
    BAD("file-fsync-mode", "foo", "Invalid fsync mode: foo.");
    BAD("file-fsync-end", "maybe", "invalid value for --file-fsync-end: 'maybe' (expected on or off)");
    BAD("file-rw-ratio", "x",
        "invalid value for --file-rw-ratio: 'x' (expected a number above 0, e.g. 1.5)");
    BAD("threads", "0", "Invalid value for --threads: 0.");
    BAD("threads", "5000", "invalid value for --threads: 5000 (must be 1 to 4096)");
    BAD("threads", "1,,2", "invalid value for --threads: '1,,2' (expected N or a list N1,N2,...)");
    BAD("percentile", "101", "invalid value for --percentile: 101 (must be 0 to 100)");
    BAD("time", "-1", "invalid value for --time: '-1' (expected a whole number)");
    BAD("file-num", NULL, "--file-num needs a value (--file-num=VALUE)");
    fileio_defaults(&o);
    CHECK(set(&o, "file-nmu", "4") == -ENOENT &&
          strcmp(err, "invalid option: --file-nmu (did you mean --file-num?)") == 0, "%s", err);
}

TEST(cross_checks)
{
    struct fileio_opts o;
    fileio_defaults(&o);
    set(&o, "file-num", "4");
    set(&o, "file-total-size", "16M");
    CHECK(fileio_check(&o, FILEIO_PREPARE, err, sizeof(err)) == 0, "prepare needs no mode");
    CHECK(fileio_check(&o, FILEIO_RUN, err, sizeof(err)) == -EINVAL &&
          strcmp(err, "Missing required argument: --file-test-mode") == 0,
          "%s", err);
    set(&o, "file-test-mode", "seqrd");
    CHECK(fileio_check(&o, FILEIO_RUN, err, sizeof(err)) == 0, "%s", err);
    set(&o, "file-merged-requests", "3");
    CHECK(fileio_check(&o, FILEIO_RUN, err, sizeof(err)) == -EINVAL &&
          strcmp(err, "--file-merged-requests=3: the request size 49152 must divide the file size 4194304") == 0,
          "%s", err);
    set(&o, "file-merged-requests", "4");
    CHECK(fileio_check(&o, FILEIO_RUN, err, sizeof(err)) == 0 && fileio_request_size(&o) == 65536, "merged");
    set(&o, "file-test-mode", "rndrd");
    CHECK(fileio_request_size(&o) == 16384, "random modes never merge");
    set(&o, "file-total-size", "1000000");
    set(&o, "file-num", "3");
    CHECK(fileio_check(&o, FILEIO_RUN, err, sizeof(err)) == -EINVAL &&
          strcmp(err, "the file size 333333 (--file-total-size / --file-num) is not a multiple of --file-block-size=16384") == 0,
          "%s", err);
    set(&o, "file-total-size", "2");
    CHECK(fileio_check(&o, FILEIO_PREPARE, err, sizeof(err)) == -EINVAL, "zero-byte files");
    fileio_defaults(&o);
    set(&o, "file-test-mode", "rndrd");
    CHECK(fileio_check(&o, FILEIO_RUN, err, sizeof(err)) == (JOB_MAX_TARGETS >= 128 ? 0 : -EINVAL),
          "128 files vs %d targets per job: %s", JOB_MAX_TARGETS, err);
}

static struct fileio_opts base_opts(const char *mode)
{
    struct fileio_opts o;
    fileio_defaults(&o);
    set(&o, "file-num", "4");
    set(&o, "file-total-size", "16M");
    set(&o, "file-test-mode", mode);
    return o;
}

TEST(one_job_on_a_shared_source)
{
    struct fileio_opts o = base_opts("rndrw");
    struct job_spec *j;
    unsigned n;
    struct fileio_src *src = fileio_src_new(&o, 4, 1);
    CHECK(src != NULL, "source");
    CHECK(fileio_jobs(&o, 4, src, &j, &n, err, sizeof(err)) == 0 && n == 1, "%s", err);
    CHECK(j->rw == RW_RANDRW && j->pct_random == 100 && j->source == fileio_src_ops(src), "rw %d", j->rw);
    CHECK(j->numjobs == 4 && j->ntargets == 4 && strcmp(j->targets[3], "test_file.3") == 0, "targets");
    CHECK(j->layout == LAYOUT_STRIPE && j->stripe_chunk == 4194304 && j->size == 16777216 && j->offset == 0,
          "stripe");
    CHECK(j->bs[0].bs[0] == 16384 && j->bs[1].bs[0] == 16384 && j->engine == ENGINE_PSYNC && j->iodepth == 1,
          "bs/engine");
    /* the source issues the periodic fsyncs; each thread fsyncs at the end */
    CHECK(j->fsync_every == 0 && j->fdatasync_every == 0 && j->end_fsync && !j->end_fdatasync, "fsync");
    CHECK(!j->direct && !j->dsync && j->buffer == BUF_RANDOM && j->runtime_ns == 10000000000ull &&
          j->io_limit == 0 && j->ios_limit == 0, "flags/time: the source counts --events");
    free(j);
    fileio_src_free(src);

    set(&o, "events", "1001");
    set(&o, "time", "0");
    set(&o, "file-io-mode", "async");
    set(&o, "file-extra-flags", "direct,sync");
    set(&o, "file-fsync-mode", "fdatasync");
    CHECK(fileio_jobs(&o, 3, NULL, &j, &n, err, sizeof(err)) == 0 && n == 1, "%s n=%u", err, n);
    CHECK(j->numjobs == 3 && j->ios_limit == 0 && j->runtime_ns == 0 && j->time_based, "no per-thread split");
    CHECK(j->engine == ENGINE_LIBAIO && j->iodepth == 128 && j->direct && j->osync && !j->dsync, "async/direct, sync = O_SYNC");
    CHECK(j->end_fsync && j->end_fdatasync, "fdatasync at the end too");
    free(j);

    o = base_opts("rndwr");
    set(&o, "file-fsync-all", "on");
    CHECK(fileio_jobs(&o, 1, NULL, &j, &n, err, sizeof(err)) == 0 && n == 1, "%s", err);
    CHECK(!j->end_fsync, "fsync-all switches fsync-end off");
    free(j);
    o = base_opts("rndrd");
    CHECK(fileio_jobs(&o, 1, NULL, &j, &n, err, sizeof(err)) == 0 && !j->end_fsync, "reads: no end fsync");
    free(j);
    o = base_opts("seqwr");
    CHECK(fileio_jobs(&o, 6, NULL, &j, &n, err, sizeof(err)) == 0 && n == 1 && j->numjobs == 6 &&
          j->ntargets == 4, "sequential: the same one job at any thread count");
    free(j);
}

/* Draws n requests from the source round-robin over `threads` workers. */
struct drawn {
    uint64_t reads, writes, fsyncs, fdatasyncs, requests;
    bool ok;
};

static struct drawn draw(struct fileio_src *src, unsigned threads, uint64_t limit,
                         struct io_source_req *log, size_t nlog)
{
    const struct io_source *ops = fileio_src_ops(src);
    struct drawn d = {.ok = true};
    struct io_source_req r;
    for (unsigned w = 0; d.requests < limit && ops->next(ops->arg, w, &r); w = (w + 1) % threads) {
        if (d.requests < nlog)
            log[d.requests] = r;
        d.requests++;
        if (r.op == IO_OP_READ)
            d.reads++;
        else if (r.op == IO_OP_WRITE)
            d.writes++;
        else if (r.op == IO_OP_FSYNC)
            d.fsyncs++;
        else
            d.fdatasyncs++;
    }
    return d;
}

/* sysbench 1.0.20 seqwr with --events=E, --file-fsync-freq=F, K files: the
 * stream is F writes, then one fsync per file, repeated, over all threads. */
static void seq_expect(uint64_t E, uint64_t F, uint64_t K, uint64_t *writes, uint64_t *fsyncs)
{
    uint64_t full = E / (F + K), rem = E % (F + K);
    *writes = full * F + (rem < F ? rem : F);
    *fsyncs = full * K + (rem > F ? rem - F : 0);
}

TEST(source_seqwr_fsync_rounds_as_sysbench)
{
    static const unsigned threads[] = {1, 2, 4};
    static const unsigned freqs[] = {1, 7, 100};
    static const uint64_t events[] = {1, 100, 103, 1000, 1237};
    for (unsigned ti = 0; ti < 3; ti++)
        for (unsigned fi = 0; fi < 3; fi++)
            for (unsigned ei = 0; ei < 5; ei++) {
                struct fileio_opts o = base_opts("seqwr");
                char v[32];
                snprintf(v, sizeof(v), "%u", freqs[fi]);
                set(&o, "file-fsync-freq", v);
                snprintf(v, sizeof(v), "%llu", (unsigned long long)events[ei]);
                set(&o, "events", v);
                struct fileio_src *src = fileio_src_new(&o, threads[ti], 9);
                struct drawn d = draw(src, threads[ti], UINT64_MAX, NULL, 0);
                uint64_t w, f;
                seq_expect(events[ei], freqs[fi], 4, &w, &f);
                CHECK(d.requests == events[ei] && d.writes == w && d.fsyncs == f && d.reads == 0,
                      "T=%u F=%u E=%llu: %llu writes %llu fsyncs, want %llu %llu", threads[ti], freqs[fi],
                      (unsigned long long)events[ei], (unsigned long long)d.writes,
                      (unsigned long long)d.fsyncs, (unsigned long long)w, (unsigned long long)f);
                struct fileio_src_counts c;
                fileio_src_counts(src, &c);
                CHECK(c.events == events[ei] && c.fsyncs == f && c.periodic_fsyncs == f, "counts");
                fileio_src_free(src);
            }
}

TEST(source_sequence_is_sysbench_cursor)
{
    /* 4 files of 4 MiB, 1 MiB requests (merged 64 x 16 KiB): file 0 at 0, 1, 2, 3 MiB, file 1, ...
     * and after file 3 back to file 0; fsync-freq 6: after 6 writes, fsyncs of files 0..3 */
    struct fileio_opts o = base_opts("seqrewr");
    set(&o, "file-merged-requests", "64");
    set(&o, "file-fsync-freq", "6");
    struct fileio_src *src = fileio_src_new(&o, 2, 1);
    struct io_source_req log[40];
    struct drawn d = draw(src, 2, 40, log, 40);
    CHECK(d.requests == 40, "unbounded");
    unsigned wi = 0;
    for (unsigned i = 0; i < 40; i++) {
        unsigned k = i % 10;
        if (k < 6) {
            CHECK(log[i].op == IO_OP_WRITE && log[i].target == (wi / 4) % 4 && log[i].off == (wi % 4) * 1048576ull &&
                      log[i].len == 1048576 && !log[i].event_continues,
                  "request %u: op %u file %u off %llu len %u", i, log[i].op, log[i].target,
                  (unsigned long long)log[i].off, log[i].len);
            wi++;
        } else {
            CHECK(log[i].op == IO_OP_FSYNC && log[i].target == k - 6 && log[i].len == 0, "fsync %u: file %u", i,
                  log[i].target);
        }
    }
    fileio_src_free(src);
    /* a request size that does not divide the file: the last one is cut at the file end */
    o = base_opts("seqrd");
    set(&o, "file-total-size", "160K");
    set(&o, "file-num", "2");
    set(&o, "file-block-size", "16K");
    set(&o, "file-merged-requests", "3");
    src = fileio_src_new(&o, 1, 1);
    d = draw(src, 1, 8, log, 8);
    CHECK(log[0].len == 49152 && log[1].off == 49152 && log[1].len == 32768 && log[2].target == 1 &&
              log[2].off == 0 && log[4].target == 0 && d.fsyncs == 0,
          "cut at the file end: %u %llu %u", log[1].len, (unsigned long long)log[1].off, log[2].target);
    fileio_src_free(src);
}

TEST(source_random_offsets_and_rw_ratio)
{
    struct fileio_opts o = base_opts("rndrw");
    set(&o, "file-block-size", "4096");
    set(&o, "file-fsync-freq", "0");
    set(&o, "events", "1000");
    struct fileio_src *src = fileio_src_new(&o, 3, 5);
    static struct io_source_req log[1000];
    struct drawn d = draw(src, 3, UINT64_MAX, log, 1000);
    /* sysbench's rule: read when (reads + 1) / (writes + 1) < 1.5, on counters over all threads */
    uint64_t r = 0, w = 0;
    bool same = true, aligned = true, files[4] = {0};
    for (unsigned i = 0; i < 1000; i++) {
        bool rd = (double)(r + 1) / (double)(w + 1) < 1.5;
        same &= (log[i].op == IO_OP_READ) == rd;
        rd ? r++ : w++;
        aligned &= log[i].off % 4096 == 0 && log[i].off + log[i].len <= 4194304 && log[i].len == 4096 &&
                   log[i].target < 4;
        files[log[i].target % 4] = true;
    }
    CHECK(same && d.reads == r && d.writes == w && r == 600 && w == 400, "reads %llu writes %llu",
          (unsigned long long)d.reads, (unsigned long long)d.writes);
    CHECK(aligned && files[0] && files[1] && files[2] && files[3], "block-aligned, in a file, every file");
    fileio_src_free(src);

    /* periodic fsyncs in rndrw: a round of 4 after every 10 requests once a write happened */
    o = base_opts("rndrw");
    set(&o, "file-fsync-freq", "10");
    set(&o, "file-fsync-mode", "fdatasync");
    set(&o, "events", "1400");
    src = fileio_src_new(&o, 2, 5);
    d = draw(src, 2, UINT64_MAX, NULL, 0);
    CHECK(d.requests == 1400 && d.fdatasyncs == 400 && d.fsyncs == 0 && d.reads + d.writes == 1000,
          "%llu fdatasyncs", (unsigned long long)d.fdatasyncs);
    fileio_src_free(src);
}

TEST(source_fsync_all_is_part_of_the_write_event)
{
    struct fileio_opts o = base_opts("rndwr");
    set(&o, "file-fsync-all", "on");
    set(&o, "events", "50");
    struct fileio_src *src = fileio_src_new(&o, 2, 3);
    const struct io_source *ops = fileio_src_ops(src);
    struct io_source_req a, b;
    unsigned writes = 0, fsyncs = 0;
    bool paired = true;
    /* worker 0 takes a write, worker 1 a write, then each its own fsync of its write's file */
    while (ops->next(ops->arg, 0, &a)) {
        bool more1 = ops->next(ops->arg, 1, &b);
        struct io_source_req fa, fb;
        paired &= a.op == IO_OP_WRITE && a.event_continues && ops->next(ops->arg, 0, &fa) &&
                  fa.op == IO_OP_FSYNC && fa.target == a.target && !fa.event_continues;
        writes++;
        fsyncs++;
        if (more1) {
            paired &= b.op == IO_OP_WRITE && ops->next(ops->arg, 1, &fb) && fb.op == IO_OP_FSYNC &&
                      fb.target == b.target;
            writes++;
            fsyncs++;
        }
    }
    struct fileio_src_counts c;
    fileio_src_counts(src, &c);
    CHECK(paired && writes == 50 && fsyncs == 50, "%u writes %u fsyncs", writes, fsyncs);
    CHECK(c.events == 50 && c.fsyncs == 50 && c.periodic_fsyncs == 0, "the fsyncs are no events of their own");
    fileio_src_free(src);
}

TEST(percentile_rule_is_sysbench)
{
    struct hist h;
    hist_init(&h);
    for (uint64_t v = 1; v <= 10; v++) /* below 256 ns every value has its own bucket */
        hist_add(&h, v);
    /* n = floor(N * p / 100 + 0.5): p94 -> 9, p95 -> 10, p50 -> 5, p0 -> lowest */
    CHECK(fileio_percentile(&h, 94) == 9, "%llu", (unsigned long long)fileio_percentile(&h, 94));
    CHECK(fileio_percentile(&h, 95) == 10, "p95");
    CHECK(fileio_percentile(&h, 50) == 5, "p50");
    CHECK(fileio_percentile(&h, 0) == 1, "p0");
    CHECK(fileio_percentile(&h, 100) == 10, "p100");
    hist_init(&h);
    CHECK(fileio_percentile(&h, 95) == 0, "empty");
}

TEST(sysbench_histogram_buckets)
{
    /* 1024 buckets, 1 us .. 100 s: bucket i is exp(i / M) us with
     * M = 1023 / ln(1e8) = 55.5354; 0.1 ms is bucket 256 = 0.100451 ms */
    CHECK(fileio_sb_bucket(0.1) == 256 && near(fileio_sb_value(256), 0.100451, 0.000001), "%u %g",
          fileio_sb_bucket(0.1), fileio_sb_value(256));
    CHECK(fileio_sb_bucket(0.001) == 0 && fileio_sb_bucket(0.0001) == 0 && fileio_sb_bucket(0) == 0, "low");
    CHECK(fileio_sb_bucket(100000) == 1023 && fileio_sb_bucket(1e9) == 1023, "high");
    CHECK(near(fileio_sb_value(0), 0.001, 1e-12) && near(fileio_sb_value(1023), 100000, 1e-6), "ends");
    /* neighbouring buckets 1.8 % apart */
    CHECK(near(fileio_sb_value(501) / fileio_sb_value(500), 1.01817, 0.00001), "step");
}

/* A phase as result_add_phase writes it, with known samples. */
static cJSON *fake_phase(void)
{
    cJSON *ph = cJSON_CreateObject();
    cJSON_AddStringToObject(ph, "name", "threads=2");
    cJSON *res = cJSON_AddArrayToObject(ph, "results");
    cJSON *tot = cJSON_CreateObject();
    cJSON_AddItemToArray(res, tot);
    cJSON_AddStringToObject(tot, "scope", "total");
    cJSON_AddNumberToObject(tot, "elapsed_s", 2.0);
    static const char *const dirs[] = {"read", "write", "sync"};
    static const uint64_t vals[3][3] = {{100000, 200000, 300000}, {1000000}, {5000000}};
    static const unsigned nv[3] = {3, 1, 1};
    for (unsigned d = 0; d < 3; d++) {
        struct hist h;
        hist_init(&h);
        for (unsigned i = 0; i < nv[d]; i++)
            hist_add(&h, vals[d][i]);
        cJSON *o = cJSON_AddObjectToObject(tot, dirs[d]);
        cJSON_AddNumberToObject(o, "ios", nv[d]);
        cJSON_AddNumberToObject(o, "bytes", d < 2 ? nv[d] * 16384.0 : 0);
        cJSON *lat = cJSON_AddObjectToObject(o, "latency_ns");
        cJSON_AddItemToObject(lat, "histogram", result_hist_to_json(&h));
    }
    cJSON *jobs = cJSON_AddArrayToObject(ph, "jobs");
    cJSON *job = cJSON_CreateObject();
    cJSON_AddItemToArray(jobs, job);
    cJSON *ws = cJSON_AddArrayToObject(job, "worker_stats");
    double w[2][2] = {{696, 1.0}, {793, 1.5}};
    for (unsigned i = 0; i < 2; i++) {
        cJSON *x = cJSON_CreateObject();
        cJSON_AddNumberToObject(x, "ios", w[i][0]);
        cJSON_AddNumberToObject(x, "busy_s", w[i][1]);
        cJSON_AddItemToArray(ws, x);
    }
    cJSON_AddNumberToObject(cJSON_AddObjectToObject(ph, "fileio"), "threads", 2);
    return ph;
}

static double num(const cJSON *o, const char *path)
{
    char buf[128];
    snprintf(buf, sizeof(buf), "%s", path);
    const cJSON *c = o;
    for (char *s = NULL, *t = strtok_r(buf, ".", &s); t; t = strtok_r(NULL, ".", &s))
        c = cJSON_GetObjectItemCaseSensitive(c, t);
    return cJSON_IsNumber(c) ? c->valuedouble : NAN;
}

TEST(summary_from_phase)
{
    cJSON *ph = fake_phase();
    CHECK(fileio_summarize(ph, 95, true, err, sizeof(err)) == 0, "%s", err);
    const cJSON *r = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(ph, "fileio"), "report");
    CHECK(num(r, "reads_per_s") == 1.5 && num(r, "writes_per_s") == 0.5 && num(r, "fsyncs_per_s") == 0.5,
          "rates");
    CHECK(num(r, "read_mibps") == 49152.0 / 2 / 1048576 && num(r, "written_mibps") == 16384.0 / 2 / 1048576,
          "MiB/s");
    CHECK(num(r, "events") == 5 && num(r, "total_time_s") == 2, "events");
    /* merged: 0.1, 0.2, 0.3, 1, 5 ms */
    CHECK(near(num(r, "latency_ms.min"), 0.1, 1e-12) && near(num(r, "latency_ms.max"), 5, 1e-12) &&
          near(num(r, "latency_ms.avg"), 1.32, 1e-12) && near(num(r, "latency_ms.sum"), 6.6, 1e-12),
          "latency %g %g %g %g", num(r, "latency_ms.min"), num(r, "latency_ms.avg"), num(r, "latency_ms.max"),
          num(r, "latency_ms.sum"));
    /* rank floor(5 * 0.95 + 0.5) = 5: the 5 ms sample, reported as the midpoint
     * of its bucket [4980736, 5013504) ns (2^22 + 24 * 2^15) */
    CHECK(near(num(r, "latency_ms.pct"), 4.99712, 1e-12), "p95 %.9g", num(r, "latency_ms.pct"));
    CHECK(near(num(r, "fairness.events_avg"), 744.5, 1e-9) && near(num(r, "fairness.events_stddev"), 48.5, 1e-9) &&
          near(num(r, "fairness.time_avg"), 1.25, 1e-12) && near(num(r, "fairness.time_stddev"), 0.25, 1e-12),
          "fairness");
    const cJSON *hb = cJSON_GetObjectItemCaseSensitive(r, "histogram");
    CHECK(cJSON_GetArraySize(hb) == 5, "5 sysbench buckets, got %d", cJSON_GetArraySize(hb));
    CHECK(near(cJSON_GetArrayItem(cJSON_GetArrayItem(hb, 0), 0)->valuedouble, fileio_sb_value(256), 1e-12),
          "0.1 ms lands in bucket 256");
    /* p50: rank 3 = 0.3 ms; its bucket [299008, 301056) ns reports the midpoint */
    CHECK(fileio_summarize(ph, 50, false, err, sizeof(err)) == 0, "%s", err);
    r = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(ph, "fileio"), "report");
    CHECK(near(num(r, "latency_ms.pct"), 0.300032, 1e-12) && !cJSON_GetObjectItemCaseSensitive(r, "histogram"),
          "p50 %.9g", num(r, "latency_ms.pct"));
    cJSON_Delete(ph);

    cJSON *bad = cJSON_CreateObject();
    CHECK(fileio_summarize(bad, 95, false, err, sizeof(err)) == -EINVAL &&
          strcmp(err, "fileio summary: the phase has no \"total\" results") == 0, "%s", err);
    cJSON_Delete(bad);
}

/* --- prepare / cleanup on a temporary directory --- */

struct seen {
    unsigned n[3];
};

static void count_state(void *arg, const char *name, enum fileio_file_state st)
{
    ((struct seen *)arg)->n[st]++;
}

static long fsize(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 ? (long)st.st_size : -1;
}

static bool all_zero(const char *p, size_t len)
{
    unsigned char buf[4096];
    int fd = open(p, O_RDONLY);
    ssize_t r = read(fd, buf, len < sizeof(buf) ? len : sizeof(buf));
    close(fd);
    for (ssize_t i = 0; i < r; i++)
        if (buf[i])
            return false;
    return r > 0;
}

TEST(prepare_check_cleanup)
{
    char cwd[4096], dir[] = "/tmp/ssdbench-fileio.XXXXXX";
    CHECK(getcwd(cwd, sizeof(cwd)) && mkdtemp(dir) && chdir(dir) == 0, "temp dir");
    struct fileio_opts o;
    fileio_defaults(&o);
    set(&o, "file-num", "4");
    set(&o, "file-total-size", "1M");
    set(&o, "file-block-size", "4096");
    struct guard_consent c = {.n = 0, .option = "--destroy"};
    struct seen s = {{0}};
    uint64_t w;
    double secs;
    int rc = fileio_prepare(&o, &c, count_state, &s, &w, &secs, err, sizeof(err));
    bool ok = rc == 0 && s.n[FILEIO_FILE_CREATING] == 4 && w == 1048576;
    snprintf(err, sizeof(err), "first prepare: created %u written %llu", s.n[FILEIO_FILE_CREATING],
             (unsigned long long)w);
    for (unsigned i = 0; i < 4; i++) {
        char n[32];
        fileio_file_name(i, n, sizeof(n));
        ok = ok && fsize(n) == 262144;
    }
    ok = ok && !all_zero("test_file.0", 4096);
    if (ok) {
        /* again: every file reused, nothing written; a short file is extended */
        memset(&s, 0, sizeof(s));
        rc = truncate("test_file.2", 100000);
        set(&o, "file-fill", "zero");
        /* truncated by someone else, it is no longer ssdbench's: refused,
         * untouched; with consent for the directory it is extended */
        int r0 = rc ? rc : fileio_prepare(&o, &c, count_state, &s, &w, &secs, err, sizeof(err));
        ok = r0 == -EPERM && strstr(err, "test_file.2") && strstr(err, "--destroy=.") &&
             fsize("test_file.2") == 100000 && s.n[FILEIO_FILE_REUSING] == 0;
        memset(&s, 0, sizeof(s));
        struct guard_consent here = {.n = 1, .paths = {"."}, .option = "--destroy"};
        rc = ok ? fileio_prepare(&o, &here, count_state, &s, &w, &secs, err, sizeof(err)) : -1;
        /* appends whole blocks from the end until >= 262144: ceil(162144 / 4096) = 40,
         * 100000 + 40 * 4096 = 263840 */
        ok = ok && rc == 0 && s.n[FILEIO_FILE_REUSING] == 3 && s.n[FILEIO_FILE_EXTENDING] == 1 &&
             w == 40 * 4096 && fsize("test_file.2") == 263840;
    }
    char why[1100];
    snprintf(why, sizeof(why), "rc %d err '%s'", rc, err);
    if (ok) {
        set(&o, "file-test-mode", "rndrd");
        rc = fileio_check_files(&o, err, sizeof(err));
        ok = rc == 0;
        snprintf(why, sizeof(why), "check: %s", err);
    }
    if (ok) {
        set(&o, "file-total-size", "2M"); /* files now too small */
        rc = fileio_check_files(&o, err, sizeof(err));
        ok = rc == -EINVAL &&
             strcmp(err, "size of file 'test_file.0' is 256KiB, but at least 512KiB is expected (did you run 'prepare' with different --file-total-size or --file-num values?)") == 0;
        snprintf(why, sizeof(why), "short: %s", err);
        set(&o, "file-total-size", "1M");
    }
    if (ok) {
        ok = fileio_claim_files(&o, &c, err, sizeof(err)) == 0;
        snprintf(why, sizeof(why), "claim: %s", err);
    }
    if (ok) {
        ok = fileio_cleanup(&o, &c, err, sizeof(err)) == 0 && fsize("test_file.0") < 0 && fsize("test_file.3") < 0;
        snprintf(why, sizeof(why), "cleanup: %s", err);
    }
    if (ok) {
        rc = fileio_check_files(&o, err, sizeof(err));
        ok = rc == -ENOENT &&
             strcmp(err, "cannot open file 'test_file.0': No such file or directory (did you forget to run the prepare step?)") == 0;
        snprintf(why, sizeof(why), "missing: %s", err);
    }
    if (ok) {
        /* sysbench's creation test starts from no files: they are made sparse at full size */
        set(&o, "file-test-mode", "seqwr");
        ok = fileio_check_files(&o, err, sizeof(err)) == 0 && fsize("test_file.3") == 262144;
        snprintf(why, sizeof(why), "seqwr: %s", err);
    }
    if (ok) {
        /* size not a multiple of the block: sysbench writes whole blocks past it */
        fileio_cleanup(&o, &c, err, sizeof(err));
        set(&o, "file-num", "3");
        set(&o, "file-total-size", "1000000");
        set(&o, "file-block-size", "3000");
        ok = fileio_prepare(&o, &c, count_state, &s, &w, &secs, err, sizeof(err)) == 0 &&
             fsize("test_file.0") == 336000 && w == 3 * 336000;
        snprintf(why, sizeof(why), "odd sizes: %s size %ld", err, fsize("test_file.0"));
    }
    if (ok) {
        /* a symlink under a test name is not the benchmark's: the guard refuses */
        fileio_cleanup(&o, &c, err, sizeof(err));
        int fd = open("precious", O_CREAT | O_WRONLY, 0644);
        ok = fd >= 0 && write(fd, "data", 4) == 4 && close(fd) == 0 && symlink("precious", "test_file.1") == 0;
        rc = fileio_prepare(&o, &c, count_state, &s, &w, &secs, err, sizeof(err));
        ok = ok && rc == -EPERM && fsize("precious") == 4;
        /* and cleanup neither follows nor removes it */
        ok = ok && fileio_cleanup(&o, &c, err, sizeof(err)) == -EPERM && fsize("precious") == 4 &&
             strstr(err, "kept test_file.1");
        snprintf(why, sizeof(why), "symlink: %d %s", rc, err);
    }
    fileio_cleanup(&o, &c, err, sizeof(err));
    unlink("test_file.1"); /* cleanup keeps a symlink under a test name */
    unlink("precious");
    CHECK(chdir(cwd) == 0 && rmdir(dir) == 0, "remove %s", dir);
    CHECK(ok, "%s", why);
}

CHECK_MAIN()
