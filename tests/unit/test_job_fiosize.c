/* test_job_fiosize.c - fio 3.33's file arithmetic (job/job_fiosize.h) on
 * hand-computed cases from filesetup.c's setup_files and get_start_offset,
 * and the job language's offset_increment=P% and io_size=P% as parsed. */
#include <errno.h>
#include <string.h>

#include "check.h"
#include "job/job_fiosize.h"
#include "job/job_resolve.h"
#include "jobfile/jobfile.h"

static char err[1024];

static int parse(const char *text, struct jobfile *jf)
{
    struct jobfile_opts o = {.fio_defaults = true};
    err[0] = '\0';
    return jobfile_parse_string(text, "t.fio", &o, jf, err, sizeof(err));
}

#define K 1024ull

TEST(percent_values_parse)
{
    struct jobfile jf;
    int rc = parse("[a]\nfilename=/tmp/x\noffset_increment=25%\nio_size=50%\n", &jf);
    CHECK(rc == 0, "%s", err);
    const struct job_spec *j = &jf.jobs[0];
    CHECK(j->offset_increment_pct == 25 && j->offset_increment == 0, "%g %llu", j->offset_increment_pct,
          (unsigned long long)j->offset_increment);
    CHECK(j->io_size_pct == 50 && j->io_limit == 0, "%g", j->io_size_pct);
    CHECK(j->res.passes == 0, "io_size=P%% ends a job by its share, not by passes: %u", j->res.passes);
    jobfile_free(&jf);
    rc = parse("[a]\nfilename=/tmp/x\noffset_increment=64k\nio_size=128k\n", &jf);
    CHECK(rc == 0, "%s", err);
    j = &jf.jobs[0];
    CHECK(j->offset_increment_pct == 0 && j->offset_increment == 64 * K, "bytes after a percentage");
    CHECK(j->io_size_pct == 0 && j->io_limit == 128 * K, "bytes");
    jobfile_free(&jf);
    rc = parse("[a]\nfilename=/tmp/x\nio_size=150%\n", &jf);
    CHECK(rc < 0 && strstr(err, "t.fio") && strstr(err, "150"), "%s", err);
}

static struct job_spec base(void)
{
    struct job_spec j;
    job_defaults(&j);
    j.bs[DIR_READ].n = 1;
    j.bs[DIR_READ].bs[0] = 4096;
    j.bs[DIR_READ].pct[0] = 100;
    j.res.bs_min = 4096;
    snprintf(j.name, sizeof(j.name), "x");
    return j;
}

TEST(start_and_length)
{
    struct job_spec j = base();
    struct rng r;
    rng_seed(&r, 1);
    uint64_t s, l;
    /* offset=25% of an existing 1 MiB file, size=1m: 256k .. 1.25m */
    j.offset_pct = 25;
    j.size = 1024 * K;
    CHECK(job_fio_file(&j, 0, 0, 1, 1024 * K, true, &r, &s, &l, err, sizeof(err)) == 0, "%s", err);
    CHECK(s == 256 * K && l == 1024 * K, "%llu %llu", (unsigned long long)s, (unsigned long long)l);
    /* a file not there yet: the start is 0 */
    CHECK(job_fio_file(&j, 0, 0, 1, 0, true, &r, &s, &l, err, sizeof(err)) == 0 && s == 0, "new");
    /* offset_increment=50% on clone 2 of a 256k file: 2 * 128k */
    j = base();
    j.offset_increment_pct = 50;
    j.size = 256 * K;
    CHECK(job_fio_file(&j, 2, 0, 1, 256 * K, true, &r, &s, &l, err, sizeof(err)) == 0, "%s", err);
    CHECK(s == 256 * K && l == 256 * K, "%llu %llu", (unsigned long long)s, (unsigned long long)l);
    /* 10% of 100k is 10240: rounded up to the block size, 12288 */
    CHECK(job_fio_file(&j, 0, 0, 1, 100 * K, true, &r, &s, &l, err, sizeof(err)) == 0 && s == 0, "clone 0");
    j.offset_increment_pct = 10;
    CHECK(job_fio_file(&j, 1, 0, 1, 100 * K, true, &r, &s, &l, err, sizeof(err)) == 0 && s == 12288, "%llu",
          (unsigned long long)s);
    /* size=50% with filesize=512k on a new file, offset 32k: (480k + 32k) / 2 */
    j = base();
    j.size_pct = 50;
    j.file_size = 512 * K;
    j.offset = 32 * K;
    CHECK(job_fio_file(&j, 0, 0, 2, 0, true, &r, &s, &l, err, sizeof(err)) == 0, "%s", err);
    CHECK(s == 32 * K && l == 256 * K, "%llu %llu", (unsigned long long)s, (unsigned long long)l);
    /* file_append: the end of the file, size / nrfiles long */
    j = base();
    j.file_append = true;
    j.size = 64 * K;
    CHECK(job_fio_file(&j, 0, 1, 2, 8 * K, true, &r, &s, &l, err, sizeof(err)) == 0, "%s", err);
    CHECK(s == 8 * K && l == 32 * K, "%llu %llu", (unsigned long long)s, (unsigned long long)l);
    /* a start past filesize: fio's "you need to specify valid offset=" */
    j = base();
    j.file_size = 64 * K;
    j.offset_increment = 64 * K;
    CHECK(job_fio_file(&j, 2, 0, 1, 0, true, &r, &s, &l, err, sizeof(err)) == -EINVAL &&
              strstr(err, "valid offset="), "%s", err);
}

TEST(io_size_share)
{
    struct job_spec j = base();
    j.io_size_pct = 30;
    CHECK(job_fio_file_share(&j, 1000) == 300, "%llu", (unsigned long long)job_fio_file_share(&j, 1000));
    CHECK(job_fio_file_share(&j, 1001) == 300, "whole bytes, rounded down");
    j.io_size_pct = 0;
    CHECK(job_fio_file_share(&j, 1001) == 1001, "no share: the whole");
    j.size = 256 * K;
    CHECK(job_fio_null_pass(&j, 1024 * K) == 256 * K, "a byte size caps the pass");
}

CHECK_MAIN()
