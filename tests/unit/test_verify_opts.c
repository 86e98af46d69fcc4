/* test_verify_opts.c - the verify keys of the option table: values land in
 * the job, verify_pattern alone means verify=pattern (as in fio), bad
 * values are one-line errors naming the key. */
#include "check.h"

#include <errno.h>
#include <string.h>

#include "jobfile/options.h"

static int set(struct job_spec *j, struct job_extra *x, const char *k, const char *v, char *err)
{
    return job_set_option(j, x, k, v, err, 256);
}

TEST(verify_keys_set_the_job)
{
    struct job_spec j;
    struct job_extra x;
    char err[256];
    job_defaults(&j);
    job_extra_defaults(&x);
    CHECK(j.verify == VERIFY_OFF && j.do_verify, "defaults: off, do_verify on");
    CHECK(!set(&j, &x, "verify", "crc32c-intel", err) && j.verify == VERIFY_CRC32C_INTEL, "%s", err);
    CHECK(!set(&j, &x, "verify_interval", "1k", err) && j.verify_interval == 1024, "%s", err);
    CHECK(!set(&j, &x, "verify_offset", "512", err) && j.verify_offset == 512, "%s", err);
    CHECK(!set(&j, &x, "verify_backlog", "100", err) && j.verify_backlog == 100, "%s", err);
    CHECK(!set(&j, &x, "verify_backlog_batch", "10", err) && j.verify_backlog_batch == 10, "%s", err);
    CHECK(!set(&j, &x, "verify_fatal", "1", err) && j.verify_fatal, "%s", err);
    CHECK(!set(&j, &x, "verify_dump", "1", err) && j.verify_dump, "%s", err);
    CHECK(!set(&j, &x, "verify_only", NULL, err) && j.verify_only, "%s", err);
    CHECK(!set(&j, &x, "do_verify", "0", err) && !j.do_verify, "%s", err);
    /* a pattern with verify= given keeps the method */
    CHECK(!set(&j, &x, "verify_pattern", "0xaa55", err) && j.verify == VERIFY_CRC32C_INTEL &&
              j.verify_pattern_len == 2,
          "%s", err);
}

TEST(pattern_alone_means_verify_pattern)
{
    struct job_spec j;
    struct job_extra x;
    char err[256];
    job_defaults(&j);
    job_extra_defaults(&x);
    CHECK(!set(&j, &x, "verify_pattern", "\"abc\"%o", err) && j.verify == VERIFY_PATTERN &&
              j.verify_pattern_len == 11 && j.verify_pattern_nfmt == 1,
          "%s", err);
}

TEST(trim_keys_set_the_job)
{
    struct job_spec j;
    struct job_extra x;
    char err[256];
    job_defaults(&j);
    job_extra_defaults(&x);
    CHECK(j.trim_zero && !j.trim_percentage && !j.trim_backlog && !j.trim_batch,
          "defaults: trim_verify_zero on, no trims");
    CHECK(!set(&j, &x, "trim_percentage", "30", err) && j.trim_percentage == 30, "%s", err);
    CHECK(!set(&j, &x, "trim_backlog", "8", err) && j.trim_backlog == 8, "%s", err);
    CHECK(!set(&j, &x, "trim_backlog_batch", "2", err) && j.trim_batch == 2, "%s", err);
    CHECK(!set(&j, &x, "trim_verify_zero", "0", err) && !j.trim_zero, "%s", err);
}

TEST(bad_verify_values)
{
    struct job_spec j;
    struct job_extra x;
    char err[256];
    job_defaults(&j);
    job_extra_defaults(&x);
    CHECK(set(&j, &x, "verify", "crc63", err) == -EINVAL && strstr(err, "verify: unknown verify method 'crc63'"),
          "%s", err);
    CHECK(set(&j, &x, "verify_pattern", "0xzz", err) == -EINVAL && strstr(err, "verify_pattern:"), "%s", err);
    CHECK(set(&j, &x, "verify_async_cpus", "1-x", err) == -EINVAL && strstr(err, "verify_async_cpus"),
          "a bad verify_async_cpus list names the key: %s", err);
    CHECK(set(&j, &x, "trim_percentage", "101", err) < 0 && strstr(err, "trim_percentage"), "%s", err);
    /* accepted: ssdbench's verify reads back the blocks fio's replay finds */
    CHECK(set(&j, &x, "experimental_verify", "1", err) == 0 && x.experimental_verify, "%s", err);
    CHECK(j.verify == VERIFY_OFF, "a rejected value leaves the job as it was");
}

CHECK_MAIN()
