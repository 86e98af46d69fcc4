/* test_fio_small.c - fio's small engines and their options as the job
 * language reads them (ioengine names, cpuio's pause from cpuload and
 * cpuchunks, stat_type, a file-operation engine's name set of tens of
 * thousands of names, exit_what, bwavgtime), and fio's negative offset
 * increment (rw=read:-8k) from the parse to the generator's offsets, worked
 * out from fio's get_next_seq_offset rule by hand. */
#include <errno.h>
#include <string.h>

#include "job/gen.h"
#include "check.h"
#include "engine/engine.h"
#include "jobfile/jobfile.h"
#include "testjob.h"

static char err[1024];

static int parse(const char *text, struct jobfile *jf)
{
    struct jobfile_opts o = {.fio_defaults = true};
    err[0] = '\0';
    return jobfile_parse_string(text, "t.fio", &o, jf, err, sizeof(err));
}

TEST(engines_by_name)
{
    static const struct {
        const char *name;
        enum engine_kind e;
    } want[] = {{"falloc", ENGINE_FALLOC},         {"ftruncate", ENGINE_FTRUNCATE}, {"cpuio", ENGINE_CPUIO},
                {"filecreate", ENGINE_FILECREATE}, {"filestat", ENGINE_FILESTAT},   {"filedelete", ENGINE_FILEDELETE},
                {"exec", ENGINE_EXEC}};
    for (unsigned i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
        char text[128];
        snprintf(text, sizeof(text), "[j]\nioengine=%s\nsize=1m\ncpuload=10\nprogram=true\n", want[i].name);
        struct jobfile jf;
        CHECK(parse(text, &jf) == 0, "%s: %s", want[i].name, err);
        CHECK(jf.jobs[0].engine == want[i].e, "%s: engine %d", want[i].name, jf.jobs[0].engine);
        CHECK(!strcmp(job_engine_name(want[i].e), want[i].name), "name %s", job_engine_name(want[i].e));
        CHECK(engine_lookup(want[i].e) && engine_lookup(want[i].e)->by_name == engine_kind_by_name(want[i].e),
              "%s: vtable", want[i].name);
        jobfile_free(&jf);
    }
}

TEST(cpuio_pause_from_load)
{
    struct jobfile jf;
    /* fio: thinktime = cpucycle * (100 - cpuload) / cpuload us */
    CHECK(parse("[c]\nioengine=cpuio\ncpuload=25\ncpuchunks=2000\ncpumode=qsort\n", &jf) == 0, "%s", err);
    const struct job_spec *j = &jf.jobs[0];
    CHECK(j->thinktime_ns == 6000000ull && j->thinktime_blocks == 1 && !j->thinktime_issue, "thinktime %llu",
          (unsigned long long)j->thinktime_ns);
    CHECK(j->time_based && j->small.cpu_qsort && j->small.cpuchunks == 2000, "time_based %d", j->time_based);
    jobfile_free(&jf);
    CHECK(parse("[c]\nioengine=cpuio\ncpuload=50\n", &jf) == 0, "%s", err);
    CHECK(jf.jobs[0].small.cpuchunks == 50000 && jf.jobs[0].thinktime_ns == 50000000ull, "default chunk %u",
          jf.jobs[0].small.cpuchunks);
    jobfile_free(&jf);
    CHECK(parse("[c]\nioengine=cpuio\n", &jf) != 0 && strstr(err, "cpuload"), "no cpuload: %s", err);
    CHECK(parse("[c]\nioengine=cpuio\ncpuload=5\ncpumode=spin\n", &jf) != 0 && strstr(err, "'spin'"), "%s", err);
}

TEST(exec_arguments_and_pause)
{
    struct jobfile jf;
    CHECK(parse("[mon]\nioengine=exec\nprogram=sleep\narguments=%r -n %n%n\nruntime=90\ngrace_time=0\n", &jf) == 0, "%s",
          err);
    const struct job_spec *j = &jf.jobs[0];
    /* fio's expand_variables: %r = runtime in seconds, %n = the job's name */
    CHECK(!strcmp(j->exec.arguments, "90 -n monmon"), "arguments '%s'", j->exec.arguments);
    CHECK(j->exec.grace_time == 0 && j->exec.std_redirect && j->exec.runtime_ns == 90000000000ull, "grace %u",
          j->exec.grace_time);
    /* fio's exec init: 50 ms thinktime after every I/O, time based */
    CHECK(j->thinktime_ns == 50000000ull && j->thinktime_blocks == 1 && j->time_based, "thinktime %llu",
          (unsigned long long)j->thinktime_ns);
    jobfile_free(&jf);
    CHECK(parse("[x]\nioengine=exec\n", &jf) != 0 && strstr(err, "no program"), "%s", err);
}

TEST(name_set_of_tens_of_thousands)
{
    struct jobfile jf;
    CHECK(parse("[global]\nioengine=filecreate\nnrfiles=31250\nfilesize=4k\ndirectory=/d\n[t0]\n[t1]\n", &jf) == 0,
          "%s", err);
    CHECK(jf.njobs == 2, "%u jobs", jf.njobs);
    const struct job_spec *j = &jf.jobs[1];
    CHECK(j->nrfiles == 31250 && j->ntargets == 0 && j->layout == LAYOUT_JBOD, "nrfiles %u targets %u", j->nrfiles,
          j->ntargets);
    CHECK(!strcmp(j->names_fmt, "/d/t1.$jobnum.$filenum"), "names %s", j->names_fmt);
    struct engine_names n = {.numbered = true};
    snprintf(n.head, sizeof(n.head), "/d/t1.0.");
    char path[64];
    CHECK(engine_name_of(&n, 31249, path, sizeof(path)) == 0 && !strcmp(path, "/d/t1.0.31249"), "%s", path);
    jobfile_free(&jf);
    /* other engines keep the 128-file limit, with a one-line reason */
    CHECK(parse("[t]\nnrfiles=200\nsize=1m\n", &jf) != 0 && strstr(err, "200"), "%s", err);
    /* several files need $filenum in the name */
    CHECK(parse("[t]\nioengine=filestat\nnrfiles=2\nfilesize=4k\nfilename_format=x.$jobnum\n", &jf) != 0 &&
              strstr(err, "$filenum"),
          "%s", err);
}

TEST(stat_type_exit_what_bwavgtime)
{
    struct jobfile jf;
    CHECK(parse("[s]\nioengine=filestat\nstat_type=statx\nfilesize=4k\nexitall=1\nexit_what=all\nbwavgtime=250\n",
                &jf) == 0,
          "%s", err);
    CHECK(jf.jobs[0].small.stat_type == STAT_TYPE_STATX && jf.jobs[0].exit_what == JOB_EXIT_ALL, "stat %u exit %u",
          jf.jobs[0].small.stat_type, jf.jobs[0].exit_what);
    CHECK(jf.jobs[0].interval_ns == 250000000ull, "bwavgtime in ms: %llu", (unsigned long long)jf.jobs[0].interval_ns);
    jobfile_free(&jf);
    CHECK(parse("[s]\niopsavgtime=750\n", &jf) == 0 && jf.jobs[0].interval_ns == 750000000ull, "iopsavgtime: %s", err);
    jobfile_free(&jf);
    /* create_on_open=1 is filecreate's; any other engine refuses it */
    CHECK(parse("[s]\ncreate_on_open=1\nioengine=filecreate\nfilesize=4k\n", &jf) == 0, "%s", err);
    jobfile_free(&jf);
    CHECK(parse("[s]\ncreate_on_open=1\nsize=1m\n", &jf) != 0 && strstr(err, "create_on_open"), "%s", err);
    CHECK(parse("[s]\nexit_what=some\n", &jf) != 0 && strstr(err, "'some'"), "%s", err);
    CHECK(parse("[s]\nioengine=filestat\nstat_type=fstat\nfilesize=4k\n", &jf) != 0 && strstr(err, "'fstat'"), "%s",
          err);
}

TEST(backwards_read_offsets)
{
    struct jobfile jf;
    CHECK(parse("[b]\nrw=read:-8k\nbs=4k\nsize=64k\n", &jf) == 0, "%s", err);
    struct job_spec j = jf.jobs[0];
    jobfile_free(&jf);
    CHECK(j.seq_hole == (uint64_t)0 - 8192, "hole %llu", (unsigned long long)j.seq_hole);
    struct gen g;
    char e[256];
    CHECK(gen_init(&g, &j, 65536, 1, e, sizeof(e)) == 0, "%s", e);
    /* fio: 0, then 64k - 8k, each next 4k lower, down to 0, and round again */
    static const unsigned want_k[] = {0, 56, 52, 48, 44, 40, 36, 32, 28, 24, 20, 16, 12, 8, 4, 0, 56, 52};
    for (unsigned i = 0; i < sizeof(want_k) / sizeof(want_k[0]); i++) {
        struct gen_io io;
        CHECK(gen_next(&g, &io), "I/O %u", i);
        CHECK(io.off == want_k[i] * 1024ull && io.len == 4096, "I/O %u at %llu, fio %u k", i,
              (unsigned long long)io.off, want_k[i]);
    }
    gen_free(&g);
    CHECK(parse("[b]\nrw=read:-0\n", &jf) != 0 && strstr(err, "-8k"), "%s", err);
    CHECK(parse("[b]\nrw=randread:-8\n", &jf) != 0, "random modes take a count: %s", err);
}

CHECK_MAIN()
