/* test_jobfile.c - job files (the corpus in tests/jobs), the command-line form
 * and the option table, checked field by field against hand-written values,
 * and every malformed file against its exact "FILE:LINE: message". */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "jobfile/jobfile.h"

#define S 1000000000ull
#define KiB 1024ull
#define MiB (1024ull * 1024)
#define GiB (1024ull * 1024 * 1024)

static char err[2048];

/* The corpus, found from the repository root (tests/run.sh runs there) or
 * from this file's location. */
static const char *corpus(void)
{
    static char dir[512];
    if (!dir[0]) {
        if (access("tests/jobs/all_keys.fio", R_OK) == 0) {
            strcpy(dir, "tests/jobs");
        } else {
            const char *f = __FILE__;
            const char *slash = strrchr(f, '/');
            snprintf(dir, sizeof(dir), "%.*s/../jobs", slash ? (int)(slash - f) : 1, slash ? f : ".");
        }
    }
    return dir;
}

static int parse(const char *name, const struct jobfile_opts *o, struct jobfile *jf)
{
    char path[1024];
    snprintf(path, sizeof(path), "%s/%s", corpus(), name);
    err[0] = '\0';
    return jobfile_parse_file(path, o, jf, err, sizeof(err));
}

static bool near(double a, double b)
{
    return fabs(a - b) < 1e-9;
}

static bool one_bs(const struct job_bssplit *b, uint32_t bs)
{
    return b->n == 1 && b->bs[0] == bs && near(b->pct[0], 100);
}

/* Expected message with the corpus directory put in front of the file name. */
static const char *at(const char *fmt)
{
    static char buf[2048];
    const char *d = corpus();
    char *w = buf;
    for (const char *p = fmt; *p && w < buf + sizeof(buf) - 600; p++) {
        if (*p == '@')
            w += sprintf(w, "%s", d);
        else
            *w++ = *p;
    }
    *w = '\0';
    return buf;
}

#define PARSED(name, o, jf)                                                           \
    do {                                                                              \
        int rc_ = parse(name, o, jf);                                                 \
        CHECK(rc_ == 0, "%s: rc %d: %s", name, rc_, err);                             \
    } while (0)

#define FAILS(name, o, want_rc, want_fmt)                                             \
    do {                                                                              \
        struct jobfile jf_;                                                           \
        int rc_ = parse(name, o, &jf_);                                               \
        CHECK(rc_ == (want_rc), "%s: rc %d, want %d (%s)", name, rc_, want_rc, err);  \
        CHECK(jf_.njobs == 0 && jf_.jobs == NULL, "%s: output not empty", name);      \
        CHECK(!strcmp(err, at(want_fmt)), "%s:\n  got  '%s'\n  want '%s'", name, err, \
              at(want_fmt));                                                          \
    } while (0)

TEST(all_keys)
{
    struct jobfile jf;
    PARSED("all_keys.fio", NULL, &jf);
    CHECK(jf.njobs == 2 && jf.nwarnings == 0 && jf.ngroups == 1, "njobs %u warnings %u groups %u",
          jf.njobs, jf.nwarnings, jf.ngroups);
    const struct job_spec *j = &jf.jobs[0];
    const struct job_extra *x = &jf.extra[0];

    CHECK(!strcmp(j->name, "renamed") && !strcmp(x->section, "all"), "name %s section %s", j->name,
          x->section);
    CHECK(!strcmp(j->description, "all keys"), "description '%s'", j->description);
    CHECK(j->ntargets == 2 && !strcmp(j->targets[0], "/tmp/ssdbench-jobs/data.0") &&
          !strcmp(j->targets[1], "/dev/null"), "targets %u '%s' '%s'", j->ntargets, j->targets[0],
          j->targets[1]);
    CHECK(!x->files_per_clone && !strcmp(x->directory, "/tmp/ssdbench-jobs"), "directory");
    CHECK(j->engine == ENGINE_LIBAIO && j->direct && j->dsync, "engine %d direct %d dsync %d",
          j->engine, j->direct, j->dsync);
    CHECK(j->fio_thread && j->norandommap, "thread/norandommap");
    CHECK(j->group_reporting && j->time_based, "group_reporting/time_based");
    CHECK(j->runtime_ns == 120 * S && j->ramp_ns == 5 * S && j->startdelay_ns == 1500000000ull,
          "runtime %llu ramp %llu startdelay %llu", (unsigned long long)j->runtime_ns,
          (unsigned long long)j->ramp_ns, (unsigned long long)j->startdelay_ns);
    CHECK(j->log_avg_msec == 500 && !j->per_job_logs, "log_avg_msec %u", j->log_avg_msec);

    CHECK(j->size == 0 && near(j->size_pct, 10) && j->offset == 4096 && j->offset_pct == 0,
          "size %llu/%g offset %llu", (unsigned long long)j->size, j->size_pct,
          (unsigned long long)j->offset);
    CHECK(j->offset_increment == MiB && j->io_limit == 8 * GiB && j->file_size == 2 * GiB &&
          j->loops == 3, "offset_increment/io_size/filesize/loops");
    CHECK(j->rw == RW_RANDRW && j->rw_seq_nr == 4 && j->seq_hole == 0 && j->rwmixread == 70,
          "rw %d seq_nr %u rwmixread %u", j->rw, j->rw_seq_nr, j->rwmixread);
    CHECK(j->pct_random == 90 && x->pct_random_set, "pct_random %u", j->pct_random);
    CHECK(one_bs(&j->bs[DIR_READ], 8192) && one_bs(&j->bs[DIR_WRITE], 16384), "bs %u %u",
          j->bs[0].bs[0], j->bs[1].bs[0]);
    CHECK(j->blockalign[0] == 4096 && j->blockalign[1] == 4096, "blockalign");
    CHECK(j->iodepth == 64 && j->iodepth_batch_submit == 16 && j->iodepth_batch_complete_min == 8 &&
          j->numjobs == 2 && x->numjobs == 2, "depths/numjobs");
    /* rate_iops=1400,600 at 70/30: each direction's limit allows 2000 in total */
    CHECK(near(j->rate_iops, 2000) && x->rate_iops[0] == 1400 && x->rate_iops[1] == 600,
          "rate_iops %g", j->rate_iops);
    CHECK(j->dist.kind == DIST_PARETO && near(j->dist.param, 0.3), "distribution");
    CHECK(j->seed == 1234 && j->seed_set && x->randrepeat == 0, "seed %llu set %d",
          (unsigned long long)j->seed, j->seed_set);
    CHECK(j->refill_buffers && j->buffer == BUF_COMPRESSIBLE && j->compress_pct == 40, "buffers");
    CHECK(j->fsync_every == 32 && j->fdatasync_every == 16 && j->end_fsync && j->unlink_after,
          "durability/unlink");
    CHECK(!j->stonewall && x->new_group && j->group_id == 0, "groups");
    CHECK(!strcmp(j->lat_log, "lat") && !strcmp(j->bw_log, "renamed") &&
          !strcmp(j->iops_log, "iops"), "logs '%s' '%s' '%s'", j->lat_log, j->bw_log, j->iops_log);
    CHECK(j->npercentiles == 3 && near(j->percentiles[0], 50) && near(j->percentiles[1], 99) &&
          near(j->percentiles[2], 99.9), "percentiles");
    CHECK(x->ss.set && x->ss.cfg.rule == STEADY_SLOPE && x->ss.cfg.metric == STEADY_IOPS &&
          near(x->ss.cfg.limit, 0.5) && x->ss.cfg.limit_pct, "steadystate");
    CHECK(x->ss.dur_ns == 60 * S && x->ss.ramp_ns == 10 * S && x->ss.interval_ns == 2 * S &&
          x->ss.cfg.window == 30 && x->ss.cfg.skip == 5, "ss window %u skip %u",
          x->ss.cfg.window, x->ss.cfg.skip);
    CHECK(x->kb_base == 1024, "kb_base");

    j = &jf.jobs[1];
    x = &jf.extra[1];
    CHECK(!strcmp(j->name, "later") && j->ntargets == 1 && !strcmp(j->targets[0], "/dev/zero"),
          "absolute path untouched by directory: '%s'", j->targets[0]);
    CHECK(j->rw == RW_READ && j->pct_random == 0 && j->buffer == BUF_ZERO, "rw/pct/buffer");
    /* bssplit after bsrange: the later key wins */
    CHECK(j->bs[0].n == 2 && j->bs[0].bs[0] == 4096 && near(j->bs[0].pct[0], 60) &&
          j->bs[0].bs[1] == 65536, "bssplit");
    /* rate=40m over a mean read size of 0.6*4k + 0.4*64k = 28672 bytes */
    CHECK(near(j->rate_iops, 41943040.0 / 28672.0), "rate_iops %.9f", j->rate_iops);
    CHECK(j->fio_thread && j->runtime_ns == 120 * S && !x->new_group && j->group_id == 0,
          "inherits [global]");
    jobfile_free(&jf);
    CHECK(jf.jobs == NULL && jf.njobs == 0, "free resets");
}

TEST(ssdbench_keys)
{
    struct jobfile jf;
    PARSED("ssdbench_keys.fio", NULL, &jf);
    CHECK(jf.njobs == 3, "njobs %u", jf.njobs);
    for (unsigned i = 0; i < 3; i++) {
        const struct job_spec *j = &jf.jobs[i];
        CHECK(j->engine == ENGINE_NULL && j->interval_ns == 500000000ull && j->ramp_ns == 10 * S,
              "job %u engine/interval/ramp", i);
        CHECK(j->npercentiles == 3 && near(j->percentiles[2], 99.99), "job %u percentiles", i);
        CHECK(near(j->rate_iops, 2500) && j->io_limit == GiB && j->seed == 42 && j->seed_set,
              "job %u rate %g io %llu seed %llu", i, j->rate_iops, (unsigned long long)j->io_limit,
              (unsigned long long)j->seed);
    }
    const struct job_spec *j = &jf.jobs[0];
    CHECK(j->ntargets == 3 && !strcmp(j->targets[2], "/dev/c") && j->layout == LAYOUT_STRIPE &&
          j->stripe_chunk == 256 * KiB, "stripe");
    CHECK(j->offset == 0 && j->offset_pct == 0 && j->size == 0 && near(j->size_pct, 25), "range=25%%");
    CHECK(j->dist.kind == DIST_ZIPF && near(j->dist.param, 1.2), "zipf");
    CHECK(j->buffer == BUF_COMPRESSIBLE && j->compress_pct == 30, "buffer");
    j = &jf.jobs[1];
    CHECK(j->ntargets == 2 && j->layout == LAYOUT_RANDOM && j->offset == GiB &&
          near(j->size_pct, 10) && j->size == 0, "range=1g:10%%");
    CHECK(j->dist.kind == DIST_UNIFORM && j->buffer == BUF_ZERO, "uniform/zero");
    j = &jf.jobs[2];
    CHECK(j->ntargets == 1 && j->layout == LAYOUT_JBOD && near(j->offset_pct, 10) &&
          j->offset == 0 && j->size == 2 * GiB, "range=10%%:2g");
    CHECK(j->dist.kind == DIST_NORMAL && near(j->dist.param, 5) && j->buffer == BUF_RANDOM, "normal");
    jobfile_free(&jf);
}

TEST(second_global_mid_file)
{
    struct jobfile jf;
    PARSED("global_mid.fio", NULL, &jf);
    CHECK(jf.njobs == 3, "njobs %u", jf.njobs);
    const struct job_spec *a = &jf.jobs[0], *b = &jf.jobs[1], *c = &jf.jobs[2];
    CHECK(one_bs(&a->bs[0], 8192) && a->iodepth == 8 && a->rw == RW_RANDREAD, "first");
    CHECK(one_bs(&b->bs[0], 65536) && b->iodepth == 4 && b->rw == RW_WRITE &&
          !strcmp(b->targets[0], "/dev/null"), "second");
    CHECK(one_bs(&c->bs[1], 16384) && c->iodepth == 4 && c->rw == RW_WRITE, "third");
    jobfile_free(&jf);

    /* --section keeps only the named job; [global] still applies */
    const char *want[] = {"second"};
    struct jobfile_opts o = {.sections = want, .nsections = 1};
    PARSED("global_mid.fio", &o, &jf);
    CHECK(jf.njobs == 1 && !strcmp(jf.jobs[0].name, "second") && one_bs(&jf.jobs[0].bs[0], 65536),
          "section filter");
    jobfile_free(&jf);
    const char *none[] = {"nosuch"};
    o.sections = none;
    FAILS("global_mid.fio", &o, -EINVAL, "@/global_mid.fio: no job matches the selected section");
}

TEST(nested_includes)
{
    struct jobfile jf;
    PARSED("include_main.fio", NULL, &jf);
    CHECK(jf.njobs == 1, "njobs %u", jf.njobs);
    const struct job_spec *j = &jf.jobs[0];
    /* common.inc: psync, include nested.inc (runtime 45, bs 2k), then bs=16k */
    CHECK(j->engine == ENGINE_PSYNC && j->runtime_ns == 45 * S && one_bs(&j->bs[0], 16384),
          "engine %d runtime %llu bs %u", j->engine, (unsigned long long)j->runtime_ns,
          j->bs[0].bs[0]);
    CHECK(j->rw == RW_RANDWRITE && j->iodepth == 2 && !strcmp(j->targets[0], "/dev/null"),
          "job.inc then iodepth=2: rw %d qd %u", j->rw, j->iodepth);
    jobfile_free(&jf);
}

TEST(env_expansion)
{
    struct jobfile jf;
    setenv("SSDB_TEST_DEV", "/dev/loop-ssdb", 1);
    setenv("SSDB_TEST_BS", "16k", 1);
    setenv("SSDB_TEST_QD", "7", 1);
    unsetenv("SSDB_TEST_UNSET");
    PARSED("env.fio", NULL, &jf);
    const struct job_spec *j = &jf.jobs[0];
    CHECK(j->ntargets == 1 && !strcmp(j->targets[0], "/dev/loop-ssdb"), "target '%s'", j->targets[0]);
    CHECK(one_bs(&j->bs[0], 16384) && j->iodepth == 7, "bs %u qd %u", j->bs[0].bs[0], j->iodepth);
    CHECK(!strcmp(j->description, "ab"), "unset variable expands to nothing: '%s'", j->description);
    CHECK(j->size == 2 * (uint64_t)sysconf(_SC_PAGESIZE), "size %llu", (unsigned long long)j->size);
    jobfile_free(&jf);
    setenv("SSDB_TEST_BS", "4x", 1);
    FAILS("env.fio", NULL, -EINVAL,
          "@/env.fio:5: bs: invalid size '4x' (expected a size such as 4096, 4k (4096 bytes), 64m, 1.5g or 0x1000)");
}

TEST(stonewall_groups)
{
    struct jobfile jf;
    PARSED("groups.fio", NULL, &jf);
    static const int want[] = {0, 1, 1, 2, 2, 3};
    CHECK(jf.njobs == 6 && jf.ngroups == 4, "njobs %u ngroups %u", jf.njobs, jf.ngroups);
    for (unsigned i = 0; i < 6; i++)
        CHECK(jf.jobs[i].group_id == want[i], "job %s group %d, want %d", jf.jobs[i].name,
              jf.jobs[i].group_id, want[i]);
    CHECK(jf.jobs[0].stonewall && jf.jobs[1].stonewall && !jf.jobs[2].stonewall &&
          jf.extra[3].new_group && jf.jobs[5].stonewall, "flags");
    jobfile_free(&jf);
}

TEST(per_direction_values)
{
    struct jobfile jf;
    PARSED("perdir.fio", NULL, &jf);
    CHECK(jf.njobs == 4, "njobs %u", jf.njobs);
    const struct job_spec *j = &jf.jobs[0];
    CHECK(one_bs(&j->bs[0], 16384) && one_bs(&j->bs[1], 65536), "bs=16k, keeps write: %u %u",
          j->bs[0].bs[0], j->bs[1].bs[0]);
    j = &jf.jobs[1];
    CHECK(one_bs(&j->bs[0], 4096) && one_bs(&j->bs[1], 32768), "bs=,32k keeps read");
    j = &jf.jobs[2];
    CHECK(j->bs[0].n == 2 && j->bs[0].bs[0] == 2048 && near(j->bs[0].pct[1], 50), "bssplit reads");
    CHECK(j->bs[1].n == 2 && j->bs[1].bs[0] == 4096 && near(j->bs[1].pct[0], 90) &&
          j->bs[1].bs[1] == 8192 && near(j->bs[1].pct[1], 10), "bssplit writes");
    CHECK(j->blockalign[0] == 512 && j->blockalign[1] == 4096, "blockalign");
    j = &jf.jobs[3];
    CHECK(one_bs(&j->bs[0], 4096) && one_bs(&j->bs[1], 8192), "trim value dropped");
    /* 8m/4k = 2048 reads/s, 16m/8k = 2048 writes/s, 50/50: 4096 in total */
    CHECK(near(j->rate_iops, 4096), "rate_iops %g", j->rate_iops);
    jobfile_free(&jf);
}

TEST(zoned_in_files)
{
    struct jobfile jf;
    PARSED("zoned.fio", NULL, &jf);
    const struct job_distribution *d = &jf.jobs[0].dist;
    CHECK(d->kind == DIST_ZONED && d->nzones == 3 && near(d->zones[2].access_pct, 20) &&
          near(d->zones[2].range_pct, 80), "ecw");
    d = &jf.jobs[1].dist;
    CHECK(d->nzones == 4 && near(d->zones[1].range_pct, 25) && near(d->zones[2].range_pct, 25) &&
          near(d->zones[3].range_pct, 40) && near(d->zones[3].access_pct, 10), "blanks share");
    jobfile_free(&jf);
}

TEST(numjobs_and_size)
{
    struct jobfile jf;
    PARSED("numjobs.fio", NULL, &jf);
    const struct job_spec *j = &jf.jobs[0];
    CHECK(j->numjobs == 4 && j->size == GiB && j->ntargets == 1 && !jf.extra[0].files_per_clone,
          "shared file: numjobs %u", j->numjobs);
    j = &jf.jobs[1];
    const struct job_extra *x = &jf.extra[1];
    CHECK(j->numjobs == 1 && x->numjobs == 4 && x->files_per_clone && j->ntargets == 4 &&
          j->size == GiB, "one file per clone: numjobs %u targets %u", j->numjobs, j->ntargets);
    static const char *want[] = {"/tmp/ssdb-a/perclone.0.0", "/tmp/ssdb-b/perclone.1.0",
                                 "/tmp/ssdb-a/perclone.2.0", "/tmp/ssdb-b/perclone.3.0"};
    for (unsigned i = 0; i < 4; i++)
        CHECK(!strcmp(j->targets[i], want[i]), "target %u '%s'", i, j->targets[i]);
    jobfile_free(&jf);

    struct jobfile_opts o = {.no_default_files = true};
    PARSED("numjobs.fio", &o, &jf);
    CHECK(jf.jobs[1].ntargets == 0 && jf.jobs[1].numjobs == 4, "no default files");
    jobfile_free(&jf);
}

TEST(kb_base_applies_first)
{
    struct jobfile jf;
    PARSED("kb_base.fio", NULL, &jf);
    const struct job_spec *j = &jf.jobs[0];
    CHECK(one_bs(&j->bs[0], 4000) && j->size == 1000000 && j->offset == 4096 &&
          jf.extra[0].kb_base == 1000, "decimal: bs %u size %llu offset %llu", j->bs[0].bs[0],
          (unsigned long long)j->size, (unsigned long long)j->offset);
    j = &jf.jobs[1];
    CHECK(one_bs(&j->bs[0], 4000) && j->size == MiB, "binary: 4kib = 4000");
    jobfile_free(&jf);
}

TEST(comments_and_bare_keys)
{
    struct jobfile jf;
    PARSED("comments.fio", NULL, &jf);
    const struct job_spec *j = &jf.jobs[0];
    CHECK(jf.njobs == 1 && !strcmp(j->name, "c1") && !strcmp(j->targets[0], "/dev/null"),
          "name '%s' target '%s'", j->name, j->targets[0]);
    CHECK(j->time_based && !j->direct && j->group_reporting && j->runtime_ns == 10 * S &&
          j->iodepth == 3, "values");
    jobfile_free(&jf);
    PARSED("crlf.fio", NULL, &jf);
    CHECK(one_bs(&jf.jobs[0].bs[0], 8192) && !strcmp(jf.jobs[0].targets[0], "/dev/null"), "crlf");
    jobfile_free(&jf);
}

TEST(malformed_files)
{
    FAILS("bad_unknown.fio", NULL, -ENOENT,
          "@/bad_unknown.fio:6: unknown option 'iodepht' (did you mean 'iodepth'?)");
    FAILS("bad_value.fio", NULL, -EINVAL,
          "@/bad_value.fio:3: bs: invalid size '4q' (expected a size such as 4096, 4k (4096 bytes), 64m, 1.5g or 0x1000)");
    FAILS("bad_range.fio", NULL, -EINVAL,
          "@/bad_range.fio:4: iodepth: value '0' is out of range (allowed 1..65536)");
    FAILS("bad_nosection.fio", NULL, -EINVAL, "@/bad_nosection.fio:2: option 'bs' outside of a [section]");
    FAILS("bad_unterminated.fio", NULL, -EINVAL,
          "@/bad_unterminated.fio:3: unterminated section header '[job' (missing ']')");
    FAILS("bad_loop_a.fio", NULL, -ELOOP,
          "@/inc/loop_c.inc:2: include loop: '@/inc/loop_b.inc' is already being read");
    FAILS("bad_include_section.fio", NULL, -EINVAL,
          "@/inc/has_section.inc:3: section header '[other]' in an included file (includes hold key=value lines only)");
    FAILS("bad_bssplit.fio", NULL, -EINVAL,
          "@/bad_bssplit.fio:3: bssplit: bssplit percentages for reads add up to 110%, not 100%");
    FAILS("bad_zoned.fio", NULL, -EINVAL,
          "@/bad_zoned.fio:3: random_distribution: zoned access shares add up to 90%, not 100%");
    FAILS("bad_nojob.fio", NULL, -EINVAL,
          "@/bad_nojob.fio: no job defined (only [global] sections or no sections)");
    FAILS("bad_unsupported.fio", NULL, -ENOTSUP,
          "@/bad_unsupported.fio:3: fio option 'cgroup_weight' is not supported by ssdbench");
    FAILS("no_such_file.fio", NULL, -ENOENT,
          "@/no_such_file.fio: cannot open '@/no_such_file.fio': No such file or directory");
}

TEST(ignore_unsupported_collects_warnings)
{
    struct jobfile_opts o = {.ignore_unsupported = true};
    struct jobfile jf;
    /* options fio knows that ssdbench lacks: warnings, the rest applies */
    PARSED("bad_unsupported_keys.fio", &o, &jf);
    CHECK(jf.njobs == 1 && jf.nwarnings == 2, "njobs %u warnings %u", jf.njobs, jf.nwarnings);
    CHECK(!strcmp(jf.warnings[0], at("@/bad_unsupported_keys.fio:3: fio option 'cgroup_weight' is not supported by ssdbench (ignored)")),
          "warning 0: %s", jf.warnings[0]);
    CHECK(!strcmp(jf.warnings[1], at("@/bad_unsupported_keys.fio:4: fio option 'exec_prerun' is not supported by ssdbench (ignored)")),
          "warning 1: %s", jf.warnings[1]);
    CHECK(jf.jobs[0].rw == RW_WRITE, "rw=write applied");
    jobfile_free(&jf);
    /* without the flag the first of them is an error */
    FAILS("bad_unsupported_keys.fio", NULL, -ENOTSUP,
          "@/bad_unsupported_keys.fio:3: fio option 'cgroup_weight' is not supported by ssdbench");
    /* a typo is never ignored */
    FAILS("bad_unknown.fio", &o, -ENOENT,
          "@/bad_unknown.fio:6: unknown option 'iodepht' (did you mean 'iodepth'?)");
    /* an engine ssdbench lacks is refused, never swapped for the default */
    FAILS("bad_engine_rbd.fio", &o, -ENOTSUP,
          "@/bad_engine_rbd.fio:3: ioengine: unsupported ioengine 'rbd' (expected io_uring, libaio, posixaio, psync, pvsync, sync, null, io_uring_cmd, sg, falloc, ftruncate, cpuio, filecreate, filestat, filedelete, exec or e4defrag)");
    /* bad values stay errors */
    FAILS("bad_value.fio", &o, -EINVAL,
          "@/bad_value.fio:3: bs: invalid size '4q' (expected a size such as 4096, 4k (4096 bytes), 64m, 1.5g or 0x1000)");
}

/* Every corpus file: bad_*.fio must fail, every other must parse. */
TEST(whole_corpus)
{
    DIR *d = opendir(corpus());
    CHECK(d, "cannot open %s", corpus());
    setenv("SSDB_TEST_DEV", "/dev/null", 1);
    setenv("SSDB_TEST_BS", "4k", 1);
    setenv("SSDB_TEST_QD", "1", 1);
    unsigned good = 0, bad = 0;
    struct dirent *e;
    int failed = 0;
    while (!failed && (e = readdir(d))) {
        size_t n = strlen(e->d_name);
        if (n < 5 || strcmp(e->d_name + n - 4, ".fio"))
            continue;
        struct jobfile jf;
        int rc = parse(e->d_name, NULL, &jf);
        bool expect_bad = !strncmp(e->d_name, "bad_", 4);
        if (expect_bad != (rc != 0)) {
            printf("corpus file %s: rc %d (%s)\n", e->d_name, rc, err);
            failed = 1;
        }
        if (rc != 0 && strncmp(err, corpus(), strlen(corpus()))) {
            printf("corpus file %s: message does not start with the file: %s\n", e->d_name, err);
            failed = 1;
        }
        expect_bad ? bad++ : good++;
        jobfile_free(&jf);
    }
    closedir(d);
    CHECK(!failed, "see above");
    CHECK(good >= 12 && bad >= 10, "good %u bad %u", good, bad);
}

TEST(fio_defaults_and_strings)
{
    struct jobfile jf;
    const char *text = "[j]\nfilename=/dev/null\n";
    struct jobfile_opts o = {.fio_defaults = true};
    CHECK(jobfile_parse_string(text, "profile:j", &o, &jf, err, sizeof(err)) == 0, "%s", err);
    const struct job_spec *j = &jf.jobs[0];
    CHECK(j->rw == RW_READ && j->pct_random == 0 && j->engine == ENGINE_PSYNC && !j->direct &&
          j->seed_set && j->seed == JOB_FIO_RANDSEED && one_bs(&j->bs[0], 4096) && j->iodepth == 1,
          "fio defaults");
    jobfile_free(&jf);
    CHECK(jobfile_parse_string(text, "profile:j", NULL, &jf, err, sizeof(err)) == 0, "%s", err);
    j = &jf.jobs[0];
    CHECK(j->rw == RW_RANDREAD && j->pct_random == 100 && j->engine == ENGINE_IO_URING &&
          j->direct, "ssdbench defaults");
    jobfile_free(&jf);
    CHECK(jobfile_parse_string("[j]\nfilename=/dev/null\nrw=randread:x\n", "profile:j", NULL, &jf,
                               err, sizeof(err)) == -EINVAL, "bad string");
    CHECK(!strcmp(err, "profile:j:3: rw: invalid rw suffix 'randread:x' (random modes take a count of I/Os per offset, e.g. randread:8)"),
          "%s", err);
}

static int cli_hook(void *ctx, const char *key, const char *value, const char *next, char *e,
                    size_t elen)
{
    char *seen = ctx;
    if (!strcmp(key, "output")) {
        snprintf(seen, 64, "output=%s", value ? value : "");
        return 1;
    }
    if (!strcmp(key, "format") && !value && next) {
        snprintf(seen, 64, "format=%s", next);
        return 2;
    }
    if (!strcmp(key, "explode")) {
        snprintf(e, elen, "--explode is not allowed here");
        return -EINVAL;
    }
    return 0;
}

static int cmdline(const struct jobfile_opts *o, struct jobfile *jf, int argc, ...)
{
    char *argv[32];
    va_list ap;
    va_start(ap, argc);
    for (int i = 0; i < argc; i++)
        argv[i] = va_arg(ap, char *);
    va_end(ap);
    err[0] = '\0';
    return jobfile_parse_cmdline(argc, argv, o, jf, err, sizeof(err));
}

TEST(command_line)
{
    struct jobfile jf;
    /* options before the first --name are global, every --name starts a job */
    int rc = cmdline(NULL, &jf, 7, "--rw=randwrite", "--bs", "8k", "--name=a", "--iodepth=8",
                     "--name=b", "--filename=/dev/x:/dev/y");
    CHECK(rc == 0, "%s", err);
    CHECK(jf.njobs == 2 && !strcmp(jf.jobs[0].name, "a") && !strcmp(jf.jobs[1].name, "b"), "names");
    CHECK(jf.jobs[0].rw == RW_RANDWRITE && one_bs(&jf.jobs[0].bs[0], 8192) &&
          jf.jobs[0].iodepth == 8 && !strcmp(jf.jobs[0].targets[0], "a.0.0"), "job a");
    CHECK(jf.jobs[1].rw == RW_RANDWRITE && jf.jobs[1].iodepth == 1 && jf.jobs[1].ntargets == 2 &&
          !strcmp(jf.jobs[1].targets[1], "/dev/y"), "job b");
    jobfile_free(&jf);

    /* fio's own example: --name=global opens a global section */
    rc = cmdline(NULL, &jf, 6, "--name=global", "--rw=randread", "--size=128m", "--name=job1",
                 "--name=job2", "--time_based");
    CHECK(rc == 0 && jf.njobs == 2 && jf.jobs[0].size == 128 * MiB && jf.jobs[1].size == 128 * MiB &&
          !jf.jobs[0].time_based && jf.jobs[1].time_based, "%s", err);
    jobfile_free(&jf);

    /* no --name: one job, ssdbench's own keys, '-' for '_' */
    struct jobfile_opts o = {.default_name = "run"};
    rc = cmdline(&o, &jf, 8, "--target=/dev/null", "--rate-iops=500", "--io-size=1g",
                 "--percentiles=50,99.9", "--distribution=zipf:0.9", "--ramp=2s", "--seed=7",
                 "--direct=0");
    CHECK(rc == 0 && jf.njobs == 1 && !strcmp(jf.jobs[0].name, "run"), "%s", err);
    const struct job_spec *j = &jf.jobs[0];
    CHECK(near(j->rate_iops, 500) && j->io_limit == GiB && j->npercentiles == 2 &&
          near(j->percentiles[1], 99.9) && j->dist.kind == DIST_ZIPF && j->ramp_ns == 2 * S &&
          j->seed == 7 && !j->direct, "values");
    jobfile_free(&jf);

    /* the caller's own options ride along */
    char seen[64] = "";
    o.cli_option = cli_hook;
    o.cli_ctx = seen;
    rc = cmdline(&o, &jf, 4, "--output=r.json", "--filename=/dev/null", "--format", "json");
    CHECK(rc == 0 && !strcmp(seen, "format=json") && jf.njobs == 1, "%s / %s", err, seen);
    jobfile_free(&jf);
    rc = cmdline(&o, &jf, 2, "--filename=/dev/null", "--explode");
    CHECK(rc == -EINVAL && !strcmp(err, "command line: --explode is not allowed here"), "%s", err);

    rc = cmdline(NULL, &jf, 2, "--filename=/dev/null", "--iodepht=4");
    CHECK(rc == -ENOENT && !strcmp(err, "command line: unknown option 'iodepht' (did you mean 'iodepth'?)"),
          "%s", err);
    rc = cmdline(NULL, &jf, 2, "--name=a", "--bs=4q");
    CHECK(rc == -EINVAL && !strcmp(err, "command line: bs: invalid size '4q' (expected a size such as 4096, 4k (4096 bytes), 64m, 1.5g or 0x1000)"),
          "%s", err);
    /* fio's empty-or-boolean options never take the next argument */
    rc = cmdline(NULL, &jf, 3, "--filename=/dev/null", "--time_based", "0");
    CHECK(rc == -EINVAL && !strcmp(err, "command line: unexpected argument '0' (options are written --key=value)"),
          "%s", err);
    rc = cmdline(NULL, &jf, 1, "--name");
    CHECK(rc == -EINVAL && !strcmp(err, "command line: --name needs a value"), "%s", err);
    rc = cmdline(NULL, &jf, 1, "--include=x.fio");
    CHECK(rc == -EINVAL && !strcmp(err, "command line: include is only valid in job files"), "%s", err);
    rc = cmdline(NULL, &jf, 1, "--iodepth");
    CHECK(rc == -EINVAL && !strcmp(err, "command line: iodepth: needs a value (int)"), "%s", err);
    CHECK(jf.njobs == 0 && jf.jobs == NULL, "empty after error");
}

/* "--key value" as fio's getopt reads it: every option that takes a value
 * in fio takes the next argument (even fio's booleans such as direct), the
 * empty-or-boolean ones (time_based, group_reporting) never do, and a value
 * never starts with "--". */
TEST(command_line_space_form)
{
    struct jobfile jf;
    int rc = cmdline(NULL, &jf, 14, "--rw", "randwrite", "--bs", "8k", "--time_based", "--runtime", "3",
                     "--direct", "0", "--group_reporting", "--name", "a", "--filename", "/dev/null");
    CHECK(rc == 0 && jf.njobs == 1, "rc %d: %s", rc, err);
    if (rc == 0) {
        const struct job_spec *j = &jf.jobs[0];
        CHECK(j->rw == RW_RANDWRITE && one_bs(&j->bs[DIR_READ], 8192) && j->time_based && j->runtime_ns == 3 * S &&
                  !j->direct && j->group_reporting && !strcmp(j->name, "a"),
              "rw %d bs %llu time_based %d runtime %llu direct %d", (int)j->rw,
              (unsigned long long)j->bs[DIR_READ].bs[0], j->time_based, (unsigned long long)j->runtime_ns, j->direct);
        jobfile_free(&jf);
    }
    /* an alias takes its value the same way (blocksize = bs); "--" never is a value */
    rc = cmdline(NULL, &jf, 5, "--filename=/dev/null", "--blocksize", "16k", "--log_offset", "1");
    CHECK(rc == 0 && one_bs(&jf.jobs[0].bs[DIR_READ], 16384) && jf.jobs[0].log_offset, "rc %d: %s", rc, err);
    if (rc == 0)
        jobfile_free(&jf);
    rc = cmdline(NULL, &jf, 3, "--filename=/dev/null", "--iodepth", "--direct");
    CHECK(rc == -EINVAL && !strcmp(err, "command line: iodepth: needs a value (int)"), "%s", err);
    /* an unknown key takes the next argument too: the error names the key */
    rc = cmdline(NULL, &jf, 3, "--filename=/dev/null", "--iodepht", "4");
    CHECK(rc == -ENOENT && !strcmp(err, "command line: unknown option 'iodepht' (did you mean 'iodepth'?)"),
          "%s", err);
    /* a key fio knows and ssdbench lacks: "not supported", its value consumed */
    rc = cmdline(NULL, &jf, 3, "--filename=/dev/null", "--cgroup_weight", "100");
    CHECK(rc == -ENOTSUP && !strcmp(err, "command line: fio option 'cgroup_weight' is not supported by ssdbench"),
          "%s", err);
    struct jobfile_opts o = {.ignore_unsupported = true};
    rc = cmdline(&o, &jf, 3, "--filename=/dev/null", "--cgroup_weight", "100");
    CHECK(rc == 0 && jf.nwarnings == 1, "rc %d: %s", rc, err);
    if (rc == 0)
        jobfile_free(&jf);
}

/* fio: command-line options before any --name are defaults for the job
 * files' jobs; the file's own [global] and sections override them */
TEST(presets_before_job_file)
{
    const char *keys[] = {"bs", "time_based", "iodepth"};
    const char *values[] = {"16k", NULL, "0"};
    struct jobfile_opts o = {.preset_keys = keys, .preset_values = values, .npreset = 2};
    struct jobfile jf;
    char e[JOBFILE_MSG_MAX];
    int rc = jobfile_parse_string("[global]\nfilename=/dev/null\n[a]\n[b]\nbs=8k\n", "p.fio", &o, &jf, e, sizeof(e));
    CHECK(rc == 0 && jf.njobs == 2, "rc %d: %s", rc, e);
    if (rc == 0) {
        CHECK(one_bs(&jf.jobs[0].bs[DIR_READ], 16384) && jf.jobs[0].time_based, "a takes the presets");
        CHECK(one_bs(&jf.jobs[1].bs[DIR_READ], 8192) && jf.jobs[1].time_based, "b overrides bs");
        jobfile_free(&jf);
    }
    o.npreset = 3; /* iodepth=0 is out of range: a command-line error */
    rc = jobfile_parse_string("[a]\nfilename=/dev/null\n", "p.fio", &o, &jf, e, sizeof(e));
    CHECK(rc == -EINVAL && !strncmp(e, "command line: iodepth: value '0' is out of range", 48), "%d %s", rc, e);
}

TEST(fio_option_names)
{
    /* fio's names decide known against unknown, and the main name */
    CHECK(job_option_fio_known("verify") && job_option_fio_known("cgroup_weight") &&
              job_option_fio_known("hugepage-size") && job_option_fio_known("Hugepage_Size") &&
              job_option_fio_known("sqthread_poll") && !job_option_fio_known("iodepht") &&
              !job_option_fio_known("layout"),
          "known");
    CHECK(!strcmp(job_option_canonical("timeout"), "runtime") &&
              !strcmp(job_option_canonical("blockalign"), "ba") &&
              !strcmp(job_option_canonical("iodepth_batch_submit"), "iodepth_batch") &&
              !strcmp(job_option_canonical("layout"), "layout") && !job_option_canonical("nosuch"),
          "canonical");
    CHECK(job_option_takes_arg("rw") && job_option_takes_arg("direct") && !job_option_takes_arg("time_based") &&
              !job_option_takes_arg("group_reporting") && job_option_takes_arg("layout") &&
              job_option_takes_arg("log_offset") && !job_option_takes_arg("log_schedlat") &&
              job_option_takes_arg("nosuch"),
          "takes_arg");
}

TEST(option_table)
{
    struct job_spec j;
    struct job_extra x;
    char e[512];
    job_defaults(&j);
    job_extra_defaults(&x);

    /* names: case-insensitive, '-' = '_', aliases */
    CHECK(job_option_find("IO-DEPTH") == NULL && job_option_find("Rate-Iops") == job_option_find("rate_iops"),
          "normalisation");
    CHECK(job_option_find("readwrite") == job_option_find("rw") &&
          job_option_find("target") == job_option_find("filename") &&
          job_option_find("engine") == job_option_find("ioengine") &&
          job_option_find("ss") == job_option_find("steadystate"), "aliases");

    /* a rejected value leaves the job unchanged */
    CHECK(job_set_option(&j, &x, "bssplit", "4k/60:8k/60", e, sizeof(e)) == -EINVAL, "bssplit");
    CHECK(one_bs(&j.bs[0], 4096) && one_bs(&j.bs[1], 4096), "unchanged");
    CHECK(job_set_option(&j, &x, "bs", NULL, e, sizeof(e)) == -EINVAL &&
          !strcmp(e, "bs: needs a value (size[,size])"), "%s", e);
    CHECK(job_set_option(&j, &x, "runtime", "2y", e, sizeof(e)) == -EINVAL &&
          !strcmp(e, "runtime: invalid time '2y' (expected a time such as 500us, 20ms, 30s, 5m, 2h or 1d)"),
          "%s", e);
    CHECK(job_set_option(&j, &x, "interval", "100us", e, sizeof(e)) == -EINVAL &&
          !strcmp(e, "interval: value '100us' is out of range (allowed 1ms..86400s)"), "%s", e);
    CHECK(job_set_option(&j, &x, "rate_process", "bursty", e, sizeof(e)) == -EINVAL &&
          !strcmp(e, "rate_process: unknown value 'bursty' (expected linear or poisson)"), "%s", e);
    CHECK(job_set_option(&j, &x, "rate_process", "poisson", e, sizeof(e)) == 0 && j.rate_poisson, "%s", e);
    CHECK(job_set_option(&j, &x, "rate_process", "linear", e, sizeof(e)) == 0 && !j.rate_poisson, "%s", e);
    CHECK(job_set_option(&j, &x, "filename", "-", e, sizeof(e)) == -ENOTSUP, "%s", e);
    CHECK(job_set_option(&j, &x, "percentage_random", "10,20", e, sizeof(e)) == -ENOTSUP, "%s", e);
    CHECK(job_set_option(&j, &x, "kb_base", "1001", e, sizeof(e)) == -EINVAL &&
          !strcmp(e, "kb_base: invalid value '1001' (expected 1024 or 1000)"), "%s", e);
    CHECK(job_set_option(&j, &x, "xyzzy", "1", e, sizeof(e)) == -ENOENT &&
          !strcmp(e, "unknown option 'xyzzy'"), "no suggestion when nothing is close: %s", e);
    CHECK(job_set_option(&j, &x, "ramptime", "1", e, sizeof(e)) == -ENOENT &&
          !strcmp(e, "unknown option 'ramptime' (did you mean 'ramp_time'?)"), "%s", e);

    /* filename: colon list with an escaped colon */
    CHECK(job_set_option(&j, &x, "filename", "/dev/a:/tmp/odd\\:name::/dev/b", e, sizeof(e)) == 0, "%s", e);
    CHECK(j.ntargets == 3 && !strcmp(j.targets[1], "/tmp/odd:name") && !strcmp(j.targets[2], "/dev/b"),
          "targets %u '%s'", j.ntargets, j.targets[1]);
    /* rwmixwrite and rwmixread are two views of one field */
    CHECK(job_set_option(&j, &x, "rwmixwrite", "25", e, sizeof(e)) == 0 && j.rwmixread == 75, "mix");
    CHECK(job_set_option(&j, &x, "rwmixread", "101", e, sizeof(e)) == -EINVAL &&
          !strcmp(e, "rwmixread: value '101' is out of range (allowed 0..100)"), "%s", e);
    /* rw resets the :N suffix state */
    CHECK(job_set_option(&j, &x, "rw", "randread:8", e, sizeof(e)) == 0 && j.rw_seq_nr == 8, "%s", e);
    CHECK(job_set_option(&j, &x, "rw", "randread", e, sizeof(e)) == 0 && j.rw_seq_nr == 1, "reset");
    CHECK(job_set_option(&j, &x, "buffered", NULL, e, sizeof(e)) == 0 && !j.direct, "buffered");
    CHECK(job_set_option(&j, &x, "layout", "stripe", e, sizeof(e)) == 0 &&
          j.layout == LAYOUT_STRIPE && j.stripe_chunk == 128 * KiB, "default chunk");

    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    CHECK(jobfile_help(f) == 0, "help");
    fclose(f);
    unsigned n;
    job_option_table(&n);
    unsigned lines = 0;
    for (char *p = buf; *p; p++)
        lines += *p == '\n';
    CHECK(lines == 2 * n + 7, "help lines %u for %u options", lines, n);
    CHECK(strstr(buf, "\n  bs, blocksize=size[,size]\n        block size, per direction read,write (default 4k)\n") &&
          strstr(buf, "\n  ioengine, engine=io_uring|libaio|posixaio|psync|null|io_uring_cmd|sg\n"), "entries");
    free(buf);
}

CHECK_MAIN()
