/* test_iolog.c - fio-format logs: file names, exact line contents per I/O
 * and per averaging window (worked out by hand from fio's formulas), shared
 * logs appended worker by worker, buffer flushing and open errors. */
#include "check.h"

#include <errno.h>
#include <stdint.h>
#include <sys/stat.h>
#include <unistd.h>

#include "job/job_opts.h"
#include "stats/iolog.h"

#define MS 1000000ull
#define T0 (5000 * MS) /* an arbitrary absolute start */

static char dir[256];

static void make_dir(void)
{
    if (!dir[0]) {
        snprintf(dir, sizeof(dir), "/tmp/ssdbench-iolog.XXXXXX");
        if (!mkdtemp(dir))
            dir[0] = 0;
    }
}

/* Opens the logs job j asks for, as the runner does. */
static int open_job(struct iolog **out, const struct job_spec *j, unsigned number, char *err, size_t errlen)
{
    struct iolog_opts o;
    job_iolog_opts(j, &o);
    return iolog_open(out, &o, number, err, errlen);
}

/* One completion without slat (a synchronous engine), not paced. */
static void add_io(struct iolog *l, uint64_t t0, uint64_t tc, uint64_t lat, unsigned ddir,
                   uint32_t bytes)
{
    struct iolog_io io = {.tc = tc, .lat = lat, .bytes = bytes, .ddir = ddir};
    iolog_add(l, t0, &io);
}

static void job_with_logs(struct job_spec *j, const char *name, bool lat, bool bw, bool iops)
{
    job_defaults(j);
    char p[JOB_PATH_MAX];
    snprintf(p, sizeof(p), "%s/%s", dir, name);
    if (lat)
        snprintf(j->lat_log, sizeof(j->lat_log), "%s", p);
    if (bw)
        snprintf(j->bw_log, sizeof(j->bw_log), "%s", p);
    if (iops)
        snprintf(j->iops_log, sizeof(j->iops_log), "%s", p);
    j->per_job_logs = true;
}

/* The whole file as a string ("" when missing; NULL-free). */
static const char *slurp(const char *name)
{
    static char buf[1 << 20];
    char p[512];
    snprintf(p, sizeof(p), "%s/%s", dir, name);
    buf[0] = 0;
    FILE *f = fopen(p, "r");
    if (!f)
        return "<missing>";
    size_t n = fread(buf, 1, sizeof(buf) - 1, f);
    buf[n] = 0;
    fclose(f);
    return buf;
}

static bool exists(const char *name)
{
    char p[512];
    snprintf(p, sizeof(p), "%s/%s", dir, name);
    return access(p, F_OK) == 0;
}

TEST(no_logs_no_object)
{
    struct job_spec j;
    job_defaults(&j);
    struct iolog *l = (struct iolog *)1;
    char err[256];
    CHECK(open_job(&l, &j, 1, err, sizeof(err)) == 0 && l == NULL, "no log asked: NULL");
    CHECK(iolog_close(NULL, 0, 0, err, sizeof(err)) == 0, "closing NULL is fine");
}

TEST(one_line_per_io)
{
    make_dir();
    CHECK(dir[0], "mkdtemp");
    struct job_spec j;
    job_with_logs(&j, "a", true, true, true);
    struct iolog *l;
    char err[256];
    CHECK(open_job(&l, &j, 3, err, sizeof(err)) == 0 && l, "open: %s", err);
    /* 5.0 ms: read 4 KiB in 2000 ns; 12.9 ms: write 8 KiB in 8192 ns;
     * a completion stamped before t0 is logged at 0 */
    add_io(l, T0, T0 + 5 * MS, 2000, DIR_READ, 4096);
    add_io(l, T0, T0 + 12 * MS + 900000, 8192, DIR_WRITE, 8192);
    add_io(l, T0, T0 - 1, 0, DIR_READ, 512);
    CHECK(iolog_close(l, T0, T0 + 20 * MS, err, sizeof(err)) == 0, "close: %s", err);
    const char *lat = "5, 2000, 0, 4096, 0\n12, 8192, 1, 8192, 0\n0, 0, 0, 512, 0\n";
    CHECK(!strcmp(slurp("a_lat.3.log"), lat), "lat: [%s]", slurp("a_lat.3.log"));
    CHECK(!strcmp(slurp("a_clat.3.log"), lat), "clat = lat");
    CHECK(exists("a_slat.3.log") && !strcmp(slurp("a_slat.3.log"), ""), "slat exists, empty");
    /* bw: bytes * 10^6 / ns; 0 for a zero latency */
    CHECK(!strcmp(slurp("a_bw.3.log"), "5, 2048000, 0, 4096, 0\n12, 1000000, 1, 8192, 0\n0, 0, 0, 512, 0\n"),
          "bw: [%s]", slurp("a_bw.3.log"));
    CHECK(!strcmp(slurp("a_iops.3.log"), "5, 1, 0, 4096, 0\n12, 1, 1, 8192, 0\n0, 1, 0, 512, 0\n"),
          "iops: [%s]", slurp("a_iops.3.log"));
}

TEST(only_the_asked_logs)
{
    make_dir();
    struct job_spec j;
    job_with_logs(&j, "b", false, true, false);
    struct iolog *l;
    char err[256];
    CHECK(open_job(&l, &j, 1, err, sizeof(err)) == 0 && l, "open: %s", err);
    add_io(l, T0, T0 + MS, 1000, DIR_READ, 4096);
    CHECK(iolog_close(l, T0, T0 + 2 * MS, err, sizeof(err)) == 0, "close");
    CHECK(exists("b_bw.1.log") && !exists("b_lat.1.log") && !exists("b_iops.1.log"), "bw only");
}

TEST(averaged_windows)
{
    make_dir();
    struct job_spec j;
    job_with_logs(&j, "c", true, true, true);
    j.log_avg_msec = 10;
    struct iolog *l;
    char err[256];
    CHECK(open_job(&l, &j, 1, err, sizeof(err)) == 0 && l, "open: %s", err);
    /* window [0,10): reads of 100 and 301 ns, a write of 50 ns;
     * [10,20) empty; [20,30): one read of 1000 ns; the worker ends at 27 ms */
    add_io(l, T0, T0 + 1 * MS, 100, DIR_READ, 4096);
    add_io(l, T0, T0 + 4 * MS, 301, DIR_READ, 4096);
    add_io(l, T0, T0 + 5 * MS, 50, DIR_WRITE, 8192);
    add_io(l, T0, T0 + 25 * MS, 1000, DIR_READ, 4096);
    CHECK(iolog_close(l, T0, T0 + 27 * MS, err, sizeof(err)) == 0, "close: %s", err);
    /* mean (100+301)/2 = 200.5 rounds to 201; the part-window at the end
     * gives its latency, stamped 27 ms, and no rates */
    const char *lat = "10, 201, 0, 0, 0\n10, 50, 1, 0, 0\n27, 1000, 0, 0, 0\n";
    CHECK(!strcmp(slurp("c_lat.1.log"), lat), "lat: [%s]", slurp("c_lat.1.log"));
    CHECK(!strcmp(slurp("c_clat.1.log"), lat), "clat");
    /* 8192 B in 10 ms = 800 KiB/s either way; 2 and 1 I/Os in 10 ms */
    CHECK(!strcmp(slurp("c_bw.1.log"), "10, 800, 0, 0, 0\n10, 800, 1, 0, 0\n"), "bw: [%s]", slurp("c_bw.1.log"));
    CHECK(!strcmp(slurp("c_iops.1.log"), "10, 200, 0, 0, 0\n10, 100, 1, 0, 0\n"), "iops: [%s]",
          slurp("c_iops.1.log"));
}

TEST(averaged_last_window_complete)
{
    make_dir();
    struct job_spec j;
    job_with_logs(&j, "d", false, true, true);
    j.log_avg_msec = 100;
    struct iolog *l;
    char err[256];
    CHECK(open_job(&l, &j, 2, err, sizeof(err)) == 0 && l, "open: %s", err);
    for (unsigned i = 0; i < 50; i++)
        add_io(l, T0, T0 + 150 * MS + i * MS, 500, DIR_WRITE, 65536);
    /* ends at 200 ms: the window [100,200) is whole: 50 x 64 KiB / 0.1 s */
    CHECK(iolog_close(l, T0, T0 + 200 * MS, err, sizeof(err)) == 0, "close");
    CHECK(!strcmp(slurp("d_bw.2.log"), "200, 32000, 1, 0, 0\n"), "bw: [%s]", slurp("d_bw.2.log"));
    CHECK(!strcmp(slurp("d_iops.2.log"), "200, 500, 1, 0, 0\n"), "iops: [%s]", slurp("d_iops.2.log"));
}

TEST(shared_log_appends_worker_by_worker)
{
    make_dir();
    char p[512];
    snprintf(p, sizeof(p), "%s/e_iops.log", dir);
    FILE *f = fopen(p, "w");
    CHECK(f, "pre-existing file");
    fputs("old\n", f);
    fclose(f);
    struct job_spec j;
    job_with_logs(&j, "e", false, false, true);
    j.per_job_logs = false;
    struct iolog *a, *b;
    char err[256];
    CHECK(open_job(&a, &j, 1, err, sizeof(err)) == 0 && open_job(&b, &j, 2, err, sizeof(err)) == 0,
          "open: %s", err);
    add_io(a, T0, T0 + 1 * MS, 10, DIR_READ, 4096);
    add_io(b, T0, T0 + 2 * MS, 10, DIR_READ, 512);
    add_io(a, T0, T0 + 3 * MS, 10, DIR_READ, 4096);
    add_io(b, T0, T0 + 4 * MS, 10, DIR_READ, 512);
    CHECK(iolog_close(b, T0, T0 + 5 * MS, err, sizeof(err)) == 0, "close b");
    CHECK(iolog_close(a, T0, T0 + 5 * MS, err, sizeof(err)) == 0, "close a");
    /* fio appends each job's log at its end: whole blocks, old lines kept */
    CHECK(!strcmp(slurp("e_iops.log"), "old\n2, 1, 0, 512, 0\n4, 1, 0, 512, 0\n1, 1, 0, 4096, 0\n3, 1, 0, 4096, 0\n"),
          "shared: [%s]", slurp("e_iops.log"));
    CHECK(!exists("e_iops.1.log") && !exists("e_iops.2.log"), "no per-job files");
    char cmd[600];
    snprintf(cmd, sizeof(cmd), "ls %s | grep -q part", dir);
    CHECK(system(cmd) != 0, "no private files left");
}

TEST(buffer_flushes_keep_every_line)
{
    make_dir();
    struct job_spec j;
    job_with_logs(&j, "f", true, false, false);
    struct iolog *l;
    char err[256];
    CHECK(open_job(&l, &j, 1, err, sizeof(err)) == 0, "open");
    const unsigned n = 20000; /* ~30 bytes a line: several buffer fills */
    for (unsigned i = 0; i < n; i++)
        add_io(l, T0, T0 + (uint64_t)i * 1000, 123456789, DIR_READ, 4096);
    CHECK(iolog_close(l, T0, T0 + n * 1000ull, err, sizeof(err)) == 0, "close");
    const char *s = slurp("f_lat.1.log");
    unsigned lines = 0;
    for (const char *c = s; *c; c++)
        lines += *c == '\n';
    CHECK(lines == n, "lines %u", lines);
    CHECK(!strncmp(s, "0, 123456789, 0, 4096, 0\n", 25), "first line");
    CHECK(strstr(s, "\n19, 123456789, 0, 4096, 0\n") && !strstr(s, "\n20, "), "last ms is 19");
}

TEST(open_error_names_the_file)
{
    struct job_spec j;
    job_defaults(&j);
    snprintf(j.bw_log, sizeof(j.bw_log), "/nonexistent-dir-ssdbench/x");
    j.per_job_logs = true;
    struct iolog *l;
    char err[256] = "";
    int rc = open_job(&l, &j, 4, err, sizeof(err));
    CHECK(rc == -ENOENT && l == NULL, "rc %d", rc);
    CHECK(strstr(err, "/nonexistent-dir-ssdbench/x_bw.4.log"), "message: %s", err);
}

TEST(slat_clat_lat_and_offsets)
{
    /* an asynchronous engine: submitted at 2.0 ms, the submit call returned
     * 1500 ns later, completed at 3.7 ms; lat = slat + clat, slat stamped at
     * the return; log_offset adds the offset column before prio; a paced
     * job with log_schedlat gets the scheduled -> completion log */
    make_dir();
    struct job_spec j;
    job_with_logs(&j, "o", true, false, false);
    j.log_offset = true;
    j.rate_iops = 100;
    j.log_schedlat = true;
    struct iolog *l;
    char err[256];
    CHECK(open_job(&l, &j, 2, err, sizeof(err)) == 0 && l, "open: %s", err);
    uint64_t ts = T0 + 2 * MS, ti = ts + 1500, tc = T0 + 3 * MS + 700000;
    struct iolog_io io = {.tc = tc, .lat = tc - ts, .t_issue = ti, .slat = ti - ts,
                          .sched = tc - (T0 + MS), .paced = true, .off = 1048576,
                          .bytes = 4096, .ddir = DIR_WRITE};
    iolog_add(l, T0, &io);
    CHECK(iolog_close(l, T0, T0 + 10 * MS, err, sizeof(err)) == 0, "close: %s", err);
    CHECK(!strcmp(slurp("o_lat.2.log"), "3, 1700000, 1, 4096, 1048576, 0\n"), "lat: [%s]",
          slurp("o_lat.2.log"));
    CHECK(!strcmp(slurp("o_clat.2.log"), "3, 1698500, 1, 4096, 1048576, 0\n"), "clat: [%s]",
          slurp("o_clat.2.log"));
    CHECK(!strcmp(slurp("o_slat.2.log"), "2, 1500, 1, 4096, 1048576, 0\n"), "slat: [%s]",
          slurp("o_slat.2.log"));
    CHECK(!strcmp(slurp("o_schedlat.2.log"), "3, 2700000, 1, 4096, 1048576, 0\n"), "schedlat: [%s]",
          slurp("o_schedlat.2.log"));

    /* averaged: means of each part; not paced, no schedlat file */
    job_with_logs(&j, "v", true, false, false);
    j.log_avg_msec = 10;
    CHECK(open_job(&l, &j, 1, err, sizeof(err)) == 0 && l, "open: %s", err);
    struct iolog_io a = {.tc = T0 + MS, .lat = 1000, .t_issue = T0 + 1, .slat = 100,
                         .bytes = 4096, .ddir = DIR_READ};
    struct iolog_io b = {.tc = T0 + 2 * MS, .lat = 3000, .t_issue = T0 + 2, .slat = 301,
                         .bytes = 4096, .ddir = DIR_READ};
    iolog_add(l, T0, &a);
    iolog_add(l, T0, &b);
    CHECK(iolog_close(l, T0, T0 + 10 * MS, err, sizeof(err)) == 0, "close: %s", err);
    CHECK(!strcmp(slurp("v_lat.1.log"), "10, 2000, 0, 0, 0\n"), "avg lat: [%s]", slurp("v_lat.1.log"));
    CHECK(!strcmp(slurp("v_clat.1.log"), "10, 1800, 0, 0, 0\n"), "avg clat: [%s]", slurp("v_clat.1.log"));
    CHECK(!strcmp(slurp("v_slat.1.log"), "10, 201, 0, 0, 0\n"), "avg slat: [%s]", slurp("v_slat.1.log"));
    CHECK(!exists("v_schedlat.1.log"), "no schedlat log unless paced and asked");
}

TEST(cleanup)
{
    char cmd[300];
    snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
    CHECK(dir[0] && system(cmd) == 0, "rm");
}


CHECK_MAIN()
