/* test_runner.c - the runner end to end on the null engine and on small
 * files: exact I/O counts for size-bounded jobs, interval rows adding up to
 * the totals, pacing, stripe and jbod per-target counts, errors. */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "runner/runner.h"
#include "target/stripe.h"

static void base_job(struct job_spec *j)
{
    job_defaults(j);
    j->interval_ns = 100000000ull; /* 100 ms */
    j->seed = 42;
    j->seed_set = true;
}

static uint64_t total_ios(const struct io_stats *s)
{
    return s->dir[0].ios + s->dir[1].ios;
}

/* Sums the read_iops*secs of streamed rows: rows are [t_ms, riops, ...]. */
static double series_ios(FILE *f, double step_s)
{
    rewind(f);
    char line[1024];
    double sum = 0, prev_t = 0;
    while (fgets(line, sizeof(line), f)) {
        double t, ri, rm, a, b, c, d, wi;
        if (sscanf(line, "[%lf,%lf,%lf,%lf,%lf,%lf,%lf,%lf", &t, &ri, &rm, &a, &b, &c, &d, &wi) == 8) {
            double secs = (t - prev_t) / 1000.0;
            (void)step_s;
            sum += (ri + wi) * secs;
            prev_t = t;
        }
    }
    return sum;
}

TEST(null_size_bounded_exact_count)
{
    struct job_spec j;
    base_job(&j);
    j.engine = ENGINE_NULL;
    j.size = 64ull << 20;
    j.iodepth = 8;
    struct runner_opts o = {.stop_on_error = true};
    struct phase_stats ps;
    char err[256];
    int rc = runner_run(&j, 1, &o, &ps, err, sizeof(err));
    CHECK(rc == 0, "runner_run: %s", err);
    CHECK(ps.stats[0].total.dir[DIR_READ].ios == (64ull << 20) / 4096, "ios %llu",
          (unsigned long long)ps.stats[0].total.dir[DIR_READ].ios);
    CHECK(ps.stats[0].total.dir[DIR_READ].bytes == 64ull << 20, "bytes");
    CHECK(ps.stats[0].total.dir[DIR_READ].lat.n == (64ull << 20) / 4096, "hist n");
    CHECK(ps.stats[0].total.dir[DIR_WRITE].ios == 0, "no writes");
    phase_stats_free(&ps);
}

TEST(null_mixed_numjobs_and_intervals_add_up)
{
    struct job_spec j;
    base_job(&j);
    j.engine = ENGINE_NULL;
    j.rw = RW_RANDRW;
    j.rwmixread = 70;
    j.numjobs = 2;
    j.iodepth = 4;
    j.size = 1ull << 30;
    j.runtime_ns = 500000000ull;
    j.time_based = true;
    FILE *series = tmpfile();
    struct runner_opts o = {.stop_on_error = true, .series = series};
    struct phase_stats ps;
    char err[256];
    int rc = runner_run(&j, 1, &o, &ps, err, sizeof(err));
    CHECK(rc == 0, "runner_run: %s", err);
    const struct io_stats *t = &ps.stats[0].total;
    uint64_t n = total_ios(t);
    /* how many I/Os a busy host lets the workers do is not the test: the
     * read share is checked within five standard deviations of the count,
     * the intervals against the phase's own elapsed time */
    CHECK(n > 0, "ran %llu I/Os", (unsigned long long)n);
    double rshare = (double)t->dir[0].ios / (double)n;
    double tol = 5.0 * sqrt(0.7 * 0.3 / (double)n) + 1.0 / (double)n;
    CHECK(fabs(rshare - 0.7) <= tol, "read share %.4f of %llu I/Os (within %.4f)", rshare,
          (unsigned long long)n, tol);
    CHECK(ps.stats[0].workers == 2, "workers %u", ps.stats[0].workers);
    double el = (double)ps.elapsed_ns / 1e9;
    CHECK(el > 0.45, "elapsed %.3f of a 0.5 s time-based run", el);
    /* rows carry rates with 3 decimals; their sum must equal the total count */
    double s = series_ios(series, 0.1);
    CHECK(s > (double)n * 0.999 && s < (double)n * 1.001, "series %.0f vs total %llu", s,
          (unsigned long long)n);
    CHECK(ps.nintervals >= 5 && ps.nintervals <= (unsigned)(ps.elapsed_ns / 100000000ull) + 2,
          "intervals %u in %.3f s", ps.nintervals, el);
    fclose(series);
    phase_stats_free(&ps);
}

TEST(null_paced_rate_and_scheduled_latency)
{
    struct job_spec j;
    base_job(&j);
    j.engine = ENGINE_NULL;
    j.rate_iops = 2000;
    j.size = 1ull << 30;
    j.runtime_ns = 1000000000ull;
    j.time_based = true;
    /* every I/O scheduled before the end is issued, however late the worker
     * runs on a busy host, and none scheduled after it: the count is exact */
    j.rate_complete = true;
    struct runner_opts o = {.stop_on_error = true};
    struct phase_stats ps;
    char err[256];
    int rc = runner_run(&j, 1, &o, &ps, err, sizeof(err));
    CHECK(rc == 0, "runner_run: %s", err);
    uint64_t n = ps.stats[0].total.dir[0].ios;
    /* the schedule starts at t0: I/O k at k x 0.5 ms, k = 0 .. 1999 */
    CHECK(n == 2000, "paced ios %llu", (unsigned long long)n);
    CHECK(ps.stats[0].total.dir[0].sched.n == n, "scheduled-latency samples %llu",
          (unsigned long long)ps.stats[0].total.dir[0].sched.n);
    phase_stats_free(&ps);
}

/* A hook that records each interval's read count and histogram flag, and
 * keeps the collector from running for 700 ms (7 intervals) at interval 1,
 * more than the workers' ring of interval buffers covers. */
struct starve {
    bool slept;
    unsigned n;
    uint64_t ios[64];
    unsigned late[64];
};

static bool starve_hook(void *arg, const struct runner_interval *iv)
{
    struct starve *s = arg;
    if (iv->index < 64) {
        s->ios[iv->index] = iv->all->dir[DIR_READ].ios;
        s->late[iv->index] = iv->late_hist;
        if (iv->index + 1 > s->n)
            s->n = iv->index + 1;
    }
    if (iv->index == 1 && !s->slept) {
        s->slept = true;
        struct timespec ts = {0, 700000000};
        nanosleep(&ts, NULL);
    }
    return false;
}

TEST(starved_collector_counts_stay_in_their_interval)
{
    struct job_spec j;
    base_job(&j);
    j.engine = ENGINE_NULL;
    j.rate_iops = 2000;
    j.size = 1ull << 30;
    j.runtime_ns = 1500000000ull;
    j.time_based = true;
    char base[128], clat[160];
    snprintf(base, sizeof(base), "/tmp/ssdbench-test-%d-starve", (int)getpid());
    snprintf(j.lat_log, sizeof(j.lat_log), "%s", base);
    snprintf(clat, sizeof(clat), "%s_clat.1.log", base);
    static struct starve st;
    memset(&st, 0, sizeof(st));
    struct runner_opts o = {.stop_on_error = true, .on_interval = starve_hook, .arg = &st};
    struct phase_stats ps;
    char err[256];
    int rc = runner_run(&j, 1, &o, &ps, err, sizeof(err));
    CHECK(rc == 0, "runner_run: %s", err);
    /* the per-I/O log: completion time in ms since the measurement start */
    uint64_t logged[64] = {0}, nlog = 0;
    FILE *f = fopen(clat, "r");
    CHECK(f != NULL, "no log %s", clat);
    unsigned long long t;
    while (fscanf(f, "%llu, %*u, %*u, %*u, %*u\n", &t) == 1) {
        unsigned k = (unsigned)(t / 100);
        logged[k < st.n ? k : st.n - 1]++; /* drained completions stay in the last */
        nlog++;
    }
    fclose(f);
    for (const char *k = "lat\0clat\0slat\0"; *k; k += strlen(k) + 1) {
        char p[200];
        snprintf(p, sizeof(p), "%s_%s.1.log", base, k);
        unlink(p);
    }
    CHECK(st.n >= 14 && st.n <= (unsigned)(ps.elapsed_ns / 100000000ull) + 2 && st.n == ps.nintervals,
          "intervals %u (%u in the phase) in %.3f s", st.n, ps.nintervals, (double)ps.elapsed_ns / 1e9);
    uint64_t sum = 0;
    unsigned missing = 0, extra = 0;
    for (unsigned k = 0; k < st.n; k++) {
        CHECK(st.ios[k] == logged[k], "interval %u: %llu counted, %llu logged", k,
              (unsigned long long)st.ios[k], (unsigned long long)logged[k]);
        sum += st.ios[k];
        missing += (st.late[k] & 1) != 0;
        extra += (st.late[k] & 2) != 0;
    }
    const struct dir_stats *d = &ps.stats[0].total.dir[DIR_READ];
    CHECK(sum == d->ios && nlog == d->ios, "sum %llu, log %llu, total %llu", (unsigned long long)sum,
          (unsigned long long)nlog, (unsigned long long)d->ios);
    /* the histograms of the late intervals arrived: totals stay exact */
    CHECK(d->lat.n == d->ios && d->sched.n == d->ios, "hist n %llu / %llu", (unsigned long long)d->lat.n,
          (unsigned long long)d->ios);
    CHECK(missing >= 1 && extra >= 1, "late intervals %u, carrying %u", missing, extra);
    CHECK(ps.ring_waits == 0, "the worker waited %u times", ps.ring_waits);
    CHECK(ps.late_hist_intervals == missing + extra, "%u", ps.late_hist_intervals);
    phase_stats_free(&ps);
}

static char *make_file(const char *name, size_t size)
{
    static char path[256];
    snprintf(path, sizeof(path), "/tmp/ssdbench-test-%d-%s", (int)getpid(), name);
    int fd = open(path, O_CREAT | O_TRUNC | O_WRONLY, 0644);
    if (fd < 0)
        return NULL;
    char *buf = calloc(1, 1 << 20);
    for (size_t o = 0; o < size; o += 1 << 20)
        if (write(fd, buf, 1 << 20) != 1 << 20)
            break;
    free(buf);
    close(fd);
    return path;
}

TEST(file_read_size_bounded_psync_and_uring)
{
    char *p = make_file("a", 4 << 20);
    CHECK(p, "make file");
    enum engine_kind engines[] = {ENGINE_PSYNC, ENGINE_IO_URING, ENGINE_LIBAIO};
    for (unsigned e = 0; e < 3; e++) {
        struct job_spec j;
        base_job(&j);
        j.engine = engines[e];
        j.rw = RW_READ;
        j.pct_random = 0;
        j.direct = false;
        j.iodepth = 4;
        snprintf(j.targets[0], sizeof(j.targets[0]), "%s", p);
        j.ntargets = 1;
        struct runner_opts o = {.stop_on_error = true};
        struct phase_stats ps;
        char err[256];
        int rc = runner_run(&j, 1, &o, &ps, err, sizeof(err));
        CHECK(rc == 0, "engine %d: %s", e, err);
        CHECK(ps.stats[0].total.dir[0].ios == 1024, "engine %d: ios %llu", e,
              (unsigned long long)ps.stats[0].total.dir[0].ios);
        CHECK(ps.error_total == 0, "errors");
        phase_stats_free(&ps);
    }
    unlink(p);
}

TEST(existing_file_write_refused_without_consent)
{
    char *p = make_file("b", 1 << 20);
    CHECK(p, "make file");
    struct job_spec j;
    base_job(&j);
    j.rw = RW_WRITE;
    j.direct = false;
    snprintf(j.targets[0], sizeof(j.targets[0]), "%s", p);
    j.ntargets = 1;
    struct guard_consent none = {.n = 0, .option = "--destroy"};
    struct runner_opts o = {.stop_on_error = true, .consent = &none};
    struct phase_stats ps;
    char err[512];
    int rc = runner_run(&j, 1, &o, &ps, err, sizeof(err));
    phase_stats_free(&ps);
    CHECK(rc == -EPERM, "rc %d", rc);
    CHECK(strstr(err, "did not create") && strstr(err, "--destroy="), "message: %s", err);
    struct guard_consent yes = {.n = 1, .paths = {p}, .option = "--destroy"};
    o.consent = &yes;
    rc = runner_run(&j, 1, &o, &ps, err, sizeof(err));
    CHECK(rc == 0, "with consent: %s", err);
    CHECK(ps.stats[0].total.dir[DIR_WRITE].ios == 256, "writes %llu",
          (unsigned long long)ps.stats[0].total.dir[DIR_WRITE].ios);
    phase_stats_free(&ps);
    unlink(p);
}

TEST(stripe_and_jbod_per_target_counts)
{
    char paths[3][256];
    for (int i = 0; i < 3; i++) {
        char n[8];
        snprintf(n, sizeof(n), "s%d", i);
        char *p = make_file(n, 3 << 20);
        CHECK(p, "make file");
        snprintf(paths[i], sizeof(paths[i]), "%s", p);
    }
    /* stripe: sequential 64 KiB reads over 3 x 3 MiB with 64 KiB chunks hit
     * every target exactly 48 times */
    struct job_spec j;
    base_job(&j);
    j.rw = RW_READ;
    j.pct_random = 0;
    j.direct = false;
    j.bs[0].bs[0] = j.bs[1].bs[0] = 65536;
    j.layout = LAYOUT_STRIPE;
    j.stripe_chunk = 65536;
    j.ntargets = 3;
    for (int i = 0; i < 3; i++)
        snprintf(j.targets[i], sizeof(j.targets[i]), "%s", paths[i]);
    struct runner_opts o = {.stop_on_error = true};
    struct phase_stats ps;
    char err[256];
    int rc = runner_run(&j, 1, &o, &ps, err, sizeof(err));
    CHECK(rc == 0, "stripe: %s", err);
    for (int i = 0; i < 3; i++)
        CHECK(ps.stats[0].per_target[i].dir[0].ios == 48, "stripe target %d: %llu", i,
              (unsigned long long)ps.stats[0].per_target[i].dir[0].ios);
    CHECK(ps.stats[0].workers == 1, "one stream");
    phase_stats_free(&ps);
    /* jbod: each target its own stream of 48 I/Os */
    j.layout = LAYOUT_JBOD;
    rc = runner_run(&j, 1, &o, &ps, err, sizeof(err));
    CHECK(rc == 0, "jbod: %s", err);
    CHECK(ps.stats[0].workers == 3, "three streams");
    for (int i = 0; i < 3; i++)
        CHECK(ps.stats[0].per_target[i].dir[0].ios == 48, "jbod target %d: %llu", i,
              (unsigned long long)ps.stats[0].per_target[i].dir[0].ios);
    CHECK(ps.stats[0].total.dir[0].ios == 144, "total");
    phase_stats_free(&ps);
    for (int i = 0; i < 3; i++)
        unlink(paths[i]);
}

TEST(missing_target_and_bad_alignment_are_errors)
{
    struct job_spec j;
    base_job(&j);
    snprintf(j.targets[0], sizeof(j.targets[0]), "/nonexistent/dir/file");
    j.ntargets = 1;
    struct runner_opts o = {.stop_on_error = true};
    struct phase_stats ps;
    char err[512];
    int rc = runner_run(&j, 1, &o, &ps, err, sizeof(err));
    phase_stats_free(&ps);
    CHECK(rc < 0, "rc %d", rc);
    CHECK(strstr(err, "/nonexistent/dir/file"), "message names the path: %s", err);
}

CHECK_MAIN()
