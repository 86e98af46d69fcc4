/* test_fio_cli.c - fio mode's pure parts: --showcmd's collector (fio's
 * priority order, main names, quoting) on a parsed job file, fio's number
 * words, and the running totals and aggregate bandwidth log lines the
 * interval hook writes from synthetic intervals. */
#include "check.h"

#include "cli/fio_help.h"
#include "cli/fio_progress.h"
#include "jobfile/jobfile.h"
#include "stats/iostats.h"

#include <unistd.h>

static char *showcmd_of(const char *text, const struct jobfile_opts *base)
{
    struct jobfile_opts o = base ? *base : (struct jobfile_opts){0};
    struct fio_showcmd sc;
    if (fio_showcmd_init(&sc) < 0)
        return NULL;
    o.on_entry = fio_showcmd_entry;
    o.entry_ctx = &sc;
    struct jobfile jf;
    char err[JOBFILE_MSG_MAX];
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (f && jobfile_parse_string(text, "t.fio", &o, &jf, err, sizeof(err)) == 0) {
        fio_showcmd_finish(&sc, f);
        jobfile_free(&jf);
    }
    if (f)
        fclose(f);
    fio_showcmd_free(&sc);
    return buf;
}

TEST(showcmd_order_and_names)
{
    char *s = showcmd_of("[global]\nfilename=/dev/null\nrw=read\nkb_base=1000\n"
                         "description=a b\n[one]\nblocksize=8k\ntime_based\nruntime=1\n"
                         "[two]\nblockalign=4k\niodepth_batch_submit=2\n",
                         NULL);
    const char *want = "fio --kb_base=1000 --rw=read --description=\"a b\" --filename=/dev/null "
                       "--name=one --bs=8k --time_based --runtime=1 --name=two --ba=4k --iodepth_batch=2 \n";
    CHECK(s && !strcmp(s, want), "\n  got  '%s'\n  want '%s'", s ? s : "(null)", want);
    free(s);
}

TEST(showcmd_skips_other_sections)
{
    const char *const secs[] = {"two"};
    struct jobfile_opts o = {.sections = secs, .nsections = 1};
    char *s = showcmd_of("[global]\nfilename=/dev/null\n[one]\nrw=read\n[two]\nrw=randread\n", &o);
    const char *want = "fio --filename=/dev/null --name=two --rw=randread \n";
    CHECK(s && !strcmp(s, want), "\n  got  '%s'\n  want '%s'", s ? s : "(null)", want);
    free(s);
}

TEST(fio_numbers)
{
    char b[32];
    fio_num(b, sizeof(b), 3483.0 * 1048576, true, "B/s");
    CHECK(!strcmp(b, "3483MiB/s"), "%s", b);
    fio_num(b, sizeof(b), 1048576.0 * 1024, true, "B");
    CHECK(!strcmp(b, "1024MiB"), "%s", b);
    fio_num(b, sizeof(b), 1073741824.0 * 12.5, true, "B");
    CHECK(!strcmp(b, "12.5GiB"), "%s", b);
    fio_num(b, sizeof(b), 0, true, "B/s");
    CHECK(!strcmp(b, "0B/s"), "%s", b);
    fio_num(b, sizeof(b), 397000, false, "");
    CHECK(!strcmp(b, "397k"), "%s", b);
}

/* Two phases of two 1 s intervals each, 4 MiB read per interval: the
 * totals every 2 s cover both phases, the ETA line is off. */
TEST(progress_running_totals)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    struct fio_progress p = {.eta = FIO_ETA_NEVER, .status_interval_ns = 2000000000ull, .err = f};
    char err[256];
    CHECK(fio_progress_start(&p, err, sizeof(err)) == 0, "%s", err);
    static struct io_stats all;
    iostats_init(&all);
    all.dir[DIR_READ].ios = 1024;
    all.dir[DIR_READ].bytes = 4u << 20;
    for (unsigned ph = 0; ph < 2; ph++)
        for (unsigned i = 0; i < 2; i++) {
            struct runner_interval iv = {.index = i, .t_start_ns = i * 1000000000ull,
                                         .t_end_ns = (i + 1) * 1000000000ull, .njobs = 1, .all = &all};
            CHECK(!fio_progress_hook(&p, &iv), "never stops the phase");
        }
    fio_progress_end(&p);
    fclose(f);
    const char *want = "Run status at 2000msec (running totals):\n"
                       "   READ: bw=4096KiB/s (4194kB/s), io=8192KiB (8389kB), run=2000-2000msec\n"
                       "Run status at 4000msec (running totals):\n"
                       "   READ: bw=4096KiB/s (4194kB/s), io=16.0MiB (16.8MB), run=4000-4000msec\n";
    CHECK(buf && !strcmp(buf, want), "\n  got  '%s'\n  want '%s'", buf ? buf : "(null)", want);
    free(buf);
}


TEST(progress_bandwidth_log)
{
    char dir[] = "/tmp/ssdbench-fiolog.XXXXXX", old[4096];
    CHECK(mkdtemp(dir) && getcwd(old, sizeof(old)) && chdir(dir) == 0, "temp dir");
    struct fio_progress p = {.eta = FIO_ETA_NEVER, .bw_log = true, .err = stderr};
    char err[256];
    CHECK(fio_progress_start(&p, err, sizeof(err)) == 0, "%s", err);
    static struct io_stats all;
    iostats_init(&all);
    all.dir[DIR_WRITE].ios = 256;
    all.dir[DIR_WRITE].bytes = 1u << 20;
    struct runner_interval iv = {.index = 0, .t_start_ns = 0, .t_end_ns = 500000000ull, .njobs = 1, .all = &all};
    fio_progress_hook(&p, &iv);
    fio_progress_end(&p);
    char line[128] = "";
    FILE *f = fopen("agg-write_bw.log", "r");
    CHECK(f && fgets(line, sizeof(line), f), "agg-write_bw.log");
    if (f)
        fclose(f);
    /* 1 MiB in 0.5 s = 2048 KiB/s, ddir 1 */
    CHECK(!strcmp(line, "500, 2048, 1, 0, 0\n"), "'%s'", line);
    f = fopen("agg-read_bw.log", "r");
    CHECK(f && fgetc(f) == EOF, "no read lines without reads");
    if (f)
        fclose(f);
    /* fio opens the trim log as well */
    f = fopen("agg-trim_bw.log", "r");
    CHECK(f && fgetc(f) == EOF, "no trim lines without trims");
    if (f)
        fclose(f);
    unlink("agg-write_bw.log");
    unlink("agg-read_bw.log");
    unlink("agg-trim_bw.log");
    CHECK(chdir(old) == 0 && rmdir(dir) == 0, "cleanup");
}
CHECK_MAIN()
