/* test_job_resolve.c - fio's job rules in job_resolve() (job/job_resolve.h),
 * each asserted alone: --runtime implies time_based on the command line
 * only, the pass limit of a size-bounded job (loops), trimwrite doubling
 * the byte and number_ios limits, the block size extremes, idempotence;
 * and that the runner resolves a job only when no front end did (once). */
#include "check.h"

#include <stdint.h>

#include "job/job.h"
#include "job/job_resolve.h"
#include "runner/runner.h"

#define MiB (1024ull * 1024)

static void bs_mix(struct job_spec *j, unsigned d, unsigned n, const uint32_t *bs)
{
    j->bs[d].n = n;
    for (unsigned i = 0; i < n; i++) {
        j->bs[d].bs[i] = bs[i];
        j->bs[d].pct[i] = 100.0 / n;
    }
}

TEST(runtime_implies_time_based_on_the_command_line)
{
    struct job_spec j;
    job_defaults(&j);
    j.runtime_ns = 10000000000ull;
    job_resolve(&j, true);
    CHECK(j.time_based, "--runtime on the command line: time_based");
    CHECK(j.res.passes == 0, "time_based: no pass limit, got %u", j.res.passes);
}

TEST(runtime_in_a_job_file_keeps_fios_rule)
{
    struct job_spec j;
    job_defaults(&j);
    j.runtime_ns = 10000000000ull;
    job_resolve(&j, false);
    CHECK(!j.time_based, "a job file's runtime does not imply time_based");
    CHECK(j.res.passes == 1, "one pass, got %u", j.res.passes);
}

TEST(runtime_with_io_size_is_not_time_based)
{
    struct job_spec j;
    job_defaults(&j);
    j.runtime_ns = 10000000000ull;
    j.io_limit = 8 * MiB;
    job_resolve(&j, true);
    CHECK(!j.time_based, "io_size given: the bytes end the job");
    CHECK(j.res.passes == 0, "io_size: no pass limit, got %u", j.res.passes);
    job_resolve_limits(&j, 64 * MiB);
    CHECK(j.io_limit == 8 * MiB && j.passes == 0, "io_limit %llu passes %u",
          (unsigned long long)j.io_limit, j.passes);
}

TEST(size_bounded_job_ends_after_its_loops)
{
    struct job_spec j;
    job_defaults(&j);
    j.loops = 3;
    job_resolve(&j, false);
    CHECK(j.res.passes == 3, "loops=3: 3 passes, got %u", j.res.passes);
    job_resolve_limits(&j, 10 * MiB);
    CHECK(j.io_limit == 30 * MiB, "3 passes of 10 MiB: %llu", (unsigned long long)j.io_limit);
    CHECK(j.passes == 3, "generator's passes %u", j.passes);
    j = (struct job_spec){0};
    job_defaults(&j);
    j.loops = 0;
    job_resolve(&j, false);
    CHECK(j.res.passes == 1, "loops=0 counts as one pass, got %u", j.res.passes);
}

TEST(time_based_job_has_no_byte_limit)
{
    struct job_spec j;
    job_defaults(&j);
    j.time_based = true;
    j.runtime_ns = 1000000000ull;
    job_resolve(&j, false);
    job_resolve_limits(&j, 10 * MiB);
    CHECK(j.io_limit == 0 && j.passes == 0, "io_limit %llu passes %u", (unsigned long long)j.io_limit,
          j.passes);
}

TEST(trimwrite_doubles_the_limits)
{
    struct job_spec j;
    job_defaults(&j);
    j.rw = RW_TRIMWRITE;
    j.rw_ios_limit = 100;
    job_resolve(&j, false);
    CHECK(j.res.limit_mult == 2, "trimwrite: x2, got %u", j.res.limit_mult);
    job_resolve_limits(&j, 10 * MiB);
    CHECK(j.io_limit == 20 * MiB, "one pass trimmed and written: %llu", (unsigned long long)j.io_limit);
    CHECK(j.rw_ios_limit == 200, "number_ios doubled: %llu", (unsigned long long)j.rw_ios_limit);

    job_defaults(&j);
    j.rw = RW_RANDTRIMWRITE;
    j.io_limit = 4 * MiB;
    job_resolve(&j, false);
    job_resolve_limits(&j, 10 * MiB);
    CHECK(j.io_limit == 8 * MiB, "io_size doubled: %llu", (unsigned long long)j.io_limit);

    job_defaults(&j);
    j.rw = RW_RANDWRITE;
    j.rw_ios_limit = 100;
    job_resolve(&j, false);
    job_resolve_limits(&j, 10 * MiB);
    CHECK(j.res.limit_mult == 1 && j.io_limit == 10 * MiB && j.rw_ios_limit == 100,
          "randwrite: no doubling (io_limit %llu, number_ios %llu)", (unsigned long long)j.io_limit,
          (unsigned long long)j.rw_ios_limit);
}

TEST(block_size_extremes)
{
    struct job_spec j;
    job_defaults(&j);
    static const uint32_t r[] = {8192, 65536}, w[] = {16384, 4096 * 3}, t[] = {1048576};
    bs_mix(&j, DIR_READ, 2, r);
    bs_mix(&j, DIR_WRITE, 2, w);
    bs_mix(&j, DIR_TRIM, 1, t);
    job_resolve(&j, false);
    CHECK(j.res.bs_min == 8192, "smallest of all directions: %u", j.res.bs_min);
    CHECK(j.res.bs_max == 1048576, "largest of all directions: %u", j.res.bs_max);
    CHECK(j.res.write_bs_min == 12288, "smallest write: %u", j.res.write_bs_min);
    j.bs[DIR_READ].n = j.bs[DIR_WRITE].n = j.bs[DIR_TRIM].n = 0;
    job_resolve(&j, false);
    CHECK(j.res.bs_min == 4096 && j.res.write_bs_min == 4096 && j.res.bs_max == 0,
          "none set: min 4096 (fio's default), max 0: %u %u %u", j.res.bs_min, j.res.write_bs_min,
          j.res.bs_max);
}

TEST(resolve_is_idempotent)
{
    struct job_spec a, b;
    job_defaults(&a);
    a.runtime_ns = 5000000000ull;
    a.loops = 2;
    job_resolve(&a, true);
    b = a;
    job_resolve(&b, false);
    CHECK(b.time_based && b.res.passes == a.res.passes && b.res.bs_min == a.res.bs_min &&
              b.res.bs_max == a.res.bs_max && b.res.limit_mult == a.res.limit_mult,
          "resolving again changes nothing");
    CHECK(b.res.done, "done");
}

/* The runner takes a resolved job's derived values as they are: a pass
 * count the front end derived (3 here, where resolving again would give 1)
 * is the one the run uses. A job no front end resolved is resolved by the
 * runner (1 pass). Either way job_resolve ran once for the job. */
static uint64_t null_reads(struct job_spec *j)
{
    struct runner_opts o = {.stop_on_error = true};
    struct phase_stats ps;
    char err[256];
    if (runner_run(j, 1, &o, &ps, err, sizeof(err)) != 0)
        return UINT64_MAX;
    uint64_t n = ps.stats[0].total.dir[DIR_READ].ios;
    phase_stats_free(&ps);
    return n;
}

TEST(runner_resolves_only_an_unresolved_job)
{
    struct job_spec j;
    job_defaults(&j);
    j.engine = ENGINE_NULL;
    j.size = 1 * MiB;
    j.seed = 42;
    j.seed_set = true;
    struct job_spec fresh = j;
    job_resolve(&j, false);
    CHECK(j.res.done && j.res.passes == 1, "one pass, got %u", j.res.passes);
    j.res.passes = 3;
    uint64_t n = null_reads(&j);
    CHECK(n == 3 * MiB / 4096, "a resolved job runs as resolved: %llu reads, want %llu", (unsigned long long)n,
          (unsigned long long)(3 * MiB / 4096));
    CHECK(!fresh.res.done, "unresolved");
    n = null_reads(&fresh);
    CHECK(n == MiB / 4096, "an unresolved job is resolved by the runner: %llu reads", (unsigned long long)n);
}

CHECK_MAIN()
