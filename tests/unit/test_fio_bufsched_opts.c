/* test_fio_bufsched_opts.c - fio's buffer-content, scheduling and
 * measurement options as parsed from a job file: fio's resolution rules
 * (compression implies refill unless given, 100 % is zero buffers, a pattern
 * turns scrambling off and is refilled when the job reads, dedupe implies
 * refill), the CPU and node lists, priorities and nice within fio's ranges,
 * gtod_reduce, and every bad value refused with the option named. */
#include <errno.h>
#include <string.h>

#include "check.h"
#include "jobfile/jobfile.h"

static char err[1024];

static int parse(const char *text, struct jobfile *jf)
{
    struct jobfile_opts o = {.fio_defaults = true};
    err[0] = '\0';
    return jobfile_parse_string(text, "t.fio", &o, jf, err, sizeof(err));
}

TEST(buffer_rules)
{
    struct jobfile jf;
    CHECK(parse("[a]\nfilename=/dev/x\nrw=write\nbuffer_compress_percentage=40\n"
                "[b]\nfilename=/dev/x\nrw=write\nbuffer_compress_percentage=40\nrefill_buffers=0\nbuffer_compress_chunk=0\n"
                "[c]\nfilename=/dev/x\nrw=write\nbuffer_compress_percentage=100\n"
                "[d]\nfilename=/dev/x\nrw=write\nbuffer_pattern=0x0102\n"
                "[e]\nfilename=/dev/x\nrw=randrw\nbuffer_pattern=\"ab\"\nzero_buffers\n"
                "[f]\nfilename=/dev/x\nrw=write\ndedupe_percentage=30\n"
                "[g]\nfilename=/dev/x\nrw=write\n"
                "[h]\nfilename=/dev/x\nrw=write\nzero_buffers\n", &jf) == 0, "%s", err);
    const struct job_spec *j = jf.jobs;
    CHECK(j[0].compress_fio && j[0].compress_pct == 40 && j[0].compress_chunk == 512 && j[0].refill_buffers &&
              !j[0].scramble_buffers, "a: compress implies refill, default chunk 512, no scramble");
    CHECK(j[1].compress_fio && !j[1].refill_buffers && j[1].compress_chunk == 0, "b: refill_buffers=0 kept");
    CHECK(!j[2].compress_fio && j[2].buffer == BUF_ZERO && !j[2].scramble_buffers, "c: 100%% is zero buffers");
    CHECK(j[3].buf_pattern_len == 2 && j[3].buf_pattern[0] == 1 && j[3].buf_pattern[1] == 2 &&
              !j[3].refill_buffers && !j[3].scramble_buffers, "d: pattern, write only: no refill");
    CHECK(j[4].buf_pattern_len == 2 && j[4].refill_buffers, "e: pattern of a reading job is refilled");
    CHECK(j[5].dedupe_pct == 30 && j[5].refill_buffers && !j[5].scramble_buffers, "f: dedupe implies refill");
    CHECK(j[6].scramble_buffers && !j[6].refill_buffers && j[6].buffer == BUF_RANDOM, "g: fio's default scrambles");
    CHECK(j[7].buffer == BUF_ZERO && !j[7].scramble_buffers, "h: zero buffers are not scrambled");
    jobfile_free(&jf);
}

TEST(sched_values)
{
    struct jobfile jf;
    CHECK(parse("[a]\nfilename=/dev/x\ncpus_allowed=0\ncpus_allowed_policy=split\nprio=6\nnice=-4\n"
                "numa_mem_policy=interleave\nnuma_cpu_nodes=0\n"
                "[b]\nfilename=/dev/x\ncpumask=1\nprioclass=3\nnuma_mem_policy=prefer:0\n"
                "[c]\nfilename=/dev/x\nnuma_mem_policy=bind:0\nnuma_cpu_nodes=all\n"
                "[d]\nfilename=/dev/x\n", &jf) == 0, "%s", err);
    const struct job_spec *j = jf.jobs;
    CHECK(j[0].cpus_allowed[0] == 1 && j[0].cpus_split && j[0].ioprio == 6 && j[0].ioprio_class == -1 &&
              j[0].nice == -4, "a: cpus, split, prio, nice");
    CHECK(j[0].mem_policy == JOB_MPOL_INTERLEAVE && j[0].mem_nodes == UINT64_MAX && j[0].cpu_nodes == 1,
          "a: interleave over all nodes, cpu node 0");
    CHECK(j[1].cpus_allowed[0] == 1 && !j[1].cpus_split && j[1].ioprio == -1 && j[1].ioprio_class == 3 &&
              j[1].mem_policy == JOB_MPOL_PREFER && j[1].mem_nodes == 1, "b: cpumask, class, prefer");
    CHECK(j[2].mem_policy == JOB_MPOL_BIND && j[2].mem_nodes == 1 && j[2].cpu_nodes == UINT64_MAX, "c");
    CHECK(j[3].ioprio == -1 && j[3].ioprio_class == -1 && !j[3].nice && !j[3].mem_policy && !j[3].cpus_allowed[0],
          "d: nothing set");
    jobfile_free(&jf);
}

TEST(gtod_reduce_and_switches)
{
    struct jobfile jf;
    CHECK(parse("[a]\nfilename=/dev/x\ndisable_slat=0\nlat_percentiles=1\ngtod_reduce=1\n"
                "[b]\nfilename=/dev/x\ngtod_reduce=0\nclat_percentiles=0\nslat_percentiles=1\ndisable_bw=1\n"
                "clocksource=cpu\n", &jf) == 0, "%s", err);
    const struct job_spec *j = jf.jobs;
    CHECK(j[0].no_lat && j[0].no_clat && j[0].no_bw && !j[0].slat && !j[0].lat_pct && j[0].clat_pct_off &&
              !j[0].slat_pct, "a: gtod_reduce turns everything off");
    CHECK(!j[1].no_lat && !j[1].no_clat && j[1].clat_pct_off && j[1].slat_pct && j[1].no_bw, "b");
    jobfile_free(&jf);
}

TEST(bad_values_named)
{
    static const char *const bad[][2] = {
        {"buffer_pattern=0xzz", "buffer_pattern"},
        {"buffer_pattern=\"\"", "buffer_pattern"},
        {"buffer_compress_percentage=101", "buffer_compress_percentage"},
        {"dedupe_percentage=-1", "dedupe_percentage"},
        {"dedupe_mode=first", "dedupe_mode"},
        {"dedupe_working_set_percentage=101", "dedupe_working_set_percentage"},
        {"scramble_buffers=maybe", "scramble_buffers"},
        {"cpus_allowed=100000", "cpus_allowed"},
        {"cpus_allowed=3-1", "cpus_allowed"},
        {"cpumask=0", "cpumask"},
        {"cpumask=0x100000000", "cpumask"},
        {"cpus_allowed_policy=block", "cpus_allowed_policy"},
        {"numa_cpu_nodes=64", "numa_cpu_nodes"},
        {"numa_mem_policy=bind", "numa_mem_policy"},
        {"numa_mem_policy=local:0", "numa_mem_policy"},
        {"numa_mem_policy=prefer:0,1", "numa_mem_policy"},
        {"numa_mem_policy=first", "numa_mem_policy"},
        {"prio=8", "prio"},
        {"prioclass=-1", "prioclass"},
        {"nice=-21", "nice"},
        {"clocksource=tsc", "clocksource"},
    };
    for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        char text[256];
        snprintf(text, sizeof(text), "[a]\nfilename=/dev/x\n%s\n", bad[i][0]);
        struct jobfile jf;
        int rc = parse(text, &jf);
        CHECK(rc < 0, "'%s' accepted", bad[i][0]);
        CHECK(strstr(err, bad[i][1]) && strstr(err, "t.fio"), "'%s': message '%s'", bad[i][0], err);
    }
}

CHECK_MAIN()
