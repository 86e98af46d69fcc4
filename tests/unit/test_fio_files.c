/* test_fio_files.c - fio's file-set options as parsed: the names fio gives
 * a job's files (default $jobname.$jobnum.$filenum, filename_format's
 * keywords, directory per clone, clones that share names), the file
 * service types with their :N, filesize ranges, fallocate's values and
 * aliases, invalidate's default, and the one-line errors for bad values. */
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

TEST(default_names_per_clone_and_file)
{
    struct jobfile jf;
    CHECK(parse("[fs]\nnrfiles=3\nnumjobs=2\nsize=1m\ndirectory=/d1:/d2\n", &jf) == 0, "%s", err);
    const struct job_spec *j = &jf.jobs[0];
    CHECK(j->layout == LAYOUT_FILES && j->nrfiles == 3 && j->numjobs == 2, "layout %d nrfiles %u numjobs %u",
          j->layout, j->nrfiles, j->numjobs);
    CHECK(j->ntargets == 6, "%u targets", j->ntargets);
    static const char *const want[6] = {"/d1/fs.0.0", "/d1/fs.0.1", "/d1/fs.0.2",
                                        "/d2/fs.1.0", "/d2/fs.1.1", "/d2/fs.1.2"};
    for (unsigned i = 0; i < 6; i++) {
        CHECK(!strcmp(j->targets[i], want[i]), "target %u: %s", i, j->targets[i]);
        CHECK(j->fileset_idx[i] == i, "clone %u file %u -> %u", i / 3, i % 3, j->fileset_idx[i]);
    }
    CHECK(j->file_service == FSERVICE_ROUNDROBIN && j->file_service_nr <= 1, "roundrobin by default");
    CHECK(j->invalidate, "invalidate on by default in job files");
    CHECK(j->clones == 2, "clones %u", j->clones);
    jobfile_free(&jf);
}

TEST(filename_format_keywords_and_sharing)
{
    struct jobfile jf;
    CHECK(parse("[w]\nnrfiles=2\nnumjobs=2\nsize=1m\nfilename_format=x/$JOBNAME-$filenum$clientuid.$jobname\n",
                &jf) == 0, "%s", err);
    const struct job_spec *j = &jf.jobs[0];
    /* no $jobnum: clone 1's names are clone 0's, which fio leaves out */
    CHECK(j->ntargets == 2, "%u targets", j->ntargets);
    CHECK(!strcmp(j->targets[0], "x/w-0.w") && !strcmp(j->targets[1], "x/w-1.w"), "%s %s", j->targets[0],
          j->targets[1]);
    CHECK(j->fileset_idx[2] == JOB_FILESET_NONE && j->fileset_idx[3] == JOB_FILESET_NONE, "clone 1 has none");
    jobfile_free(&jf);

    /* a value holding a keyword is not expanded again */
    CHECK(parse("[a$jobname]\nsize=1m\nfilename_format=$jobname.$jobnum\nnumjobs=2\n", &jf) == 0, "%s", err);
    j = &jf.jobs[0];
    CHECK(j->ntargets == 2 && !strcmp(j->targets[0], "a$jobname.0") && !strcmp(j->targets[1], "a$jobname.1"),
          "%u: %s %s", j->ntargets, j->targets[0], j->targets[1]);
    /* one file per clone: fio's per-clone files, one worker each */
    CHECK(j->layout == LAYOUT_JBOD && j->numjobs == 1 && j->clones == 2, "layout %d numjobs %u", j->layout,
          j->numjobs);
    jobfile_free(&jf);
}

TEST(service_types_sizes_fallocate)
{
    static const struct {
        const char *v;
        enum job_fservice t;
        unsigned nr;
        double p;
    } st[] = {
        {"random:8", FSERVICE_RANDOM, 8, 0},       {"sequential", FSERVICE_SEQUENTIAL, 1, 0},
        {"roundrobin:3", FSERVICE_ROUNDROBIN, 3, 0}, {"zipf:1.2", FSERVICE_ZIPF, 1, 1.2},
        {"pareto", FSERVICE_PARETO, 1, 0.2},        {"gauss:5", FSERVICE_NORMAL, 1, 5},
    };
    for (unsigned i = 0; i < sizeof(st) / sizeof(st[0]); i++) {
        char text[256];
        struct jobfile jf;
        snprintf(text, sizeof(text), "[a]\nnrfiles=2\nsize=1m\nfile_service_type=%s\n", st[i].v);
        CHECK(parse(text, &jf) == 0, "%s: %s", st[i].v, err);
        const struct job_spec *j = &jf.jobs[0];
        CHECK(j->file_service == st[i].t && j->file_service_nr == st[i].nr &&
                  j->file_service_param > st[i].p - 1e-9 && j->file_service_param < st[i].p + 1e-9,
              "%s: %d %u %g", st[i].v, j->file_service, j->file_service_nr, j->file_service_param);
        jobfile_free(&jf);
    }
    struct jobfile jf;
    CHECK(parse("[a]\nnrfiles=2\nsize=1m\nfilesize=256k-64k\nfallocate=1\ninvalidate=0\npre_read=1\nopenfiles=1\n",
                &jf) == 0, "%s", err);
    const struct job_spec *j = &jf.jobs[0];
    CHECK(j->file_size == 65536 && j->file_size_hi == 262144, "range swapped: %llu-%llu",
          (unsigned long long)j->file_size, (unsigned long long)j->file_size_hi);
    CHECK(j->fallocate == FALLOC_POSIX && !j->invalidate && j->pre_read && j->openfiles == 1, "fields");
    jobfile_free(&jf);
    CHECK(parse("[a]\nsize=1m\nfallocate=0\n[b]\nsize=1m\nfallocate=keep\n", &jf) == 0, "%s", err);
    CHECK(jf.jobs[0].fallocate == FALLOC_NONE && jf.jobs[1].fallocate == FALLOC_KEEP, "0 / keep");
    jobfile_free(&jf);
}

TEST(bad_values)
{
    static const struct {
        const char *text, *msg;
    } bad[] = {
        {"[a]\nnrfiles=2\nfile_service_type=bogus\n", "file_service_type: unknown value 'bogus'"},
        {"[a]\nnrfiles=2\nfile_service_type=random:0\n", "file_service_type"},
        {"[a]\nnrfiles=2\nfile_service_type=normal\n", "needs a sigma"},
        {"[a]\nnrfiles=0\n", "nrfiles"},
        {"[a]\nnrfiles=129\n", "nrfiles"},
        {"[a]\nfallocate=sometimes\n", "fallocate: unknown value 'sometimes'"},
        {"[a]\nnrfiles=2\nnumjobs=65\n", "numjobs=65 x nrfiles=2"},
        {"[a]\nfilename=/x\nfilesize=1k-2k\n", "filesize range"},
        {"[a]\nnrfiles=2\nlayout=stripe:64k\n", "layout"},
    };
    for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        struct jobfile jf;
        int rc = parse(bad[i].text, &jf);
        CHECK(rc < 0, "case %u accepted", i);
        CHECK(strstr(err, bad[i].msg) && strstr(err, "t.fio") && !strchr(err, '\n'), "case %u: %s", i, err);
        if (rc == 0)
            jobfile_free(&jf);
    }
}

CHECK_MAIN()
