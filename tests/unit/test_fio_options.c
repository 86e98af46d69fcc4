/* test_fio_options.c - fio job-file options beyond the basic set: aliases
 * (timeout, steadystate_duration, steadystate_ramp_time), 0%, number_ios,
 * continue_on_error / ignore_error and fio's rule for which failed I/O lets a
 * job go on, fill_device, exitall (file-wide) and wait_for, io_submit_mode,
 * serialize_overlap and the cmdprio options, each checked
 * field by field and every bad value against its exact message. */
#include <errno.h>
#include <string.h>

#include "check.h"
#include "jobfile/jobfile.h"

#define S 1000000000ull

static char err[1024];

static int parse(const char *text, struct jobfile *jf)
{
    struct jobfile_opts o = {.fio_defaults = true};
    err[0] = '\0';
    return jobfile_parse_string(text, "t.fio", &o, jf, err, sizeof(err));
}

TEST(aliases_and_zero_percent)
{
    struct jobfile jf;
    int rc = parse("[a]\nfilename=/dev/x\ntimeout=7\nsteadystate=iops:5%\n"
                   "steadystate_duration=30\nsteadystate_ramp_time=3s\noffset=0%\nsize=0%\n", &jf);
    CHECK(rc == 0, "%s", err);
    const struct job_spec *j = &jf.jobs[0];
    CHECK(j->runtime_ns == 7 * S, "timeout: %llu", (unsigned long long)j->runtime_ns);
    CHECK(jf.extra[0].ss.dur_ns == 30 * S && jf.extra[0].ss.ramp_ns == 3 * S, "ss aliases");
    CHECK(j->offset == 0 && j->offset_pct == 0 && j->size == 0 && j->size_pct == 0, "0%%");
    jobfile_free(&jf);
}

TEST(number_ios_times_loops)
{
    struct jobfile jf;
    CHECK(parse("[a]\nfilename=/dev/x\nnumber_ios=1k\nloops=3\n[b]\nfilename=/dev/x\n", &jf) == 0,
          "%s", err);
    CHECK(jf.jobs[0].rw_ios_limit == 3072, "a: %llu", (unsigned long long)jf.jobs[0].rw_ios_limit);
    CHECK(jf.jobs[1].rw_ios_limit == 0, "b: no limit");
    CHECK(jf.jobs[0].ios_limit == 0, "flushes are not counted: ios_limit stays off");
    jobfile_free(&jf);
}

TEST(error_classes)
{
    struct jobfile jf;
    int rc = parse("[a]\nfilename=/dev/x\ncontinue_on_error=write\n"
                   "[b]\nfilename=/dev/x\nignore_error=ENOSPC:5,,EILSEQ\n"
                   "[c]\nfilename=/dev/x\ncontinue_on_error=1\n"
                   "[d]\nfilename=/dev/x\n", &jf);
    CHECK(rc == 0, "%s", err);
    const struct job_spec *a = &jf.jobs[0], *b = &jf.jobs[1], *c = &jf.jobs[2], *d = &jf.jobs[3];
    CHECK(a->continue_on_error == JOB_ERR_WRITE, "a bits %u", a->continue_on_error);
    /* default list: EIO and EILSEQ, write class only */
    CHECK(job_error_continues(a, false, EIO) && !job_error_continues(a, true, EIO), "a EIO");
    CHECK(!job_error_continues(a, false, ENOSPC), "a ENOSPC stops");
    /* lists turn their classes on: read (ENOSPC, 5) and verify (EILSEQ) */
    CHECK(b->continue_on_error == (JOB_ERR_READ | JOB_ERR_VERIFY), "b bits %u", b->continue_on_error);
    CHECK(b->nignore[0] == 2 && b->ignore_errno[0][0] == ENOSPC && b->ignore_errno[0][1] == 5 &&
          b->nignore[1] == 0 && b->nignore[2] == 1 && b->ignore_errno[2][0] == EILSEQ, "b lists");
    CHECK(job_error_continues(b, true, ENOSPC) && job_error_continues(b, true, EIO) &&
          !job_error_continues(b, true, EINVAL) && !job_error_continues(b, false, EIO), "b rule");
    /* EILSEQ is a verify error whatever the direction */
    CHECK(job_error_continues(b, false, EILSEQ), "EILSEQ is verify");
    CHECK(c->continue_on_error == 7 && job_error_continues(c, true, EIO) &&
          !job_error_continues(c, true, EINVAL), "c all");
    CHECK(d->continue_on_error == 0 && !job_error_continues(d, true, EIO), "d none");
    jobfile_free(&jf);

    CHECK(parse("[a]\nfilename=/dev/x\ncontinue_on_error=sometimes\n", &jf) == -EINVAL, "bad value");
    CHECK(strstr(err, "t.fio:3: continue_on_error: unknown value 'sometimes' (expected none, read, "
                      "write, io, verify, all, 0 or 1)") != NULL, "%s", err);
    CHECK(parse("[a]\nfilename=/dev/x\nignore_error=ENOTANERROR\n", &jf) == -EINVAL, "bad errno");
    CHECK(strstr(err, "ignore_error: unknown error 'ENOTANERROR' (give a name like ENOSPC or a number)"),
          "%s", err);
    CHECK(parse("[a]\nfilename=/dev/x\nignore_error=5,5,5,5\n", &jf) == -EINVAL, "4 lists");
    CHECK(strstr(err, "more than 3 lists (read,write,verify) in '5,5,5,5'"), "%s", err);
}

TEST(exitall_wait_for_fill_device)
{
    struct jobfile jf;
    int rc = parse("[a]\nfilename=/dev/x\nrw=write\nfill_device=1\n[b]\nfilename=/dev/x\nexitall\n"
                   "[c]\nfilename=/dev/x\nwait_for=a\nfill_fs=0\n", &jf);
    CHECK(rc == 0, "%s", err);
    CHECK(jf.jobs[0].fill_device && !jf.jobs[1].fill_device && !jf.jobs[2].fill_device, "fill");
    /* exitall on one job holds for all (fio's global flag) */
    CHECK(jf.jobs[0].exitall && jf.jobs[1].exitall && jf.jobs[2].exitall, "exitall");
    CHECK(!strcmp(jf.extra[2].wait_for, "a") && !jf.extra[1].wait_for[0], "wait_for");
    jobfile_free(&jf);

    CHECK(parse("[a]\nfilename=/dev/x\nwait_for=z\n[z]\nfilename=/dev/x\n", &jf) == -EINVAL, "later");
    CHECK(strstr(err, "job 'a': wait_for=z names no earlier job"), "%s", err);
    CHECK(parse("[a]\nfilename=/dev/x\nwait_for=a\n", &jf) == -EINVAL, "itself");
    CHECK(strstr(err, "job 'a': a job cannot wait for itself (wait_for=a)"), "%s", err);
}

TEST(unified_rw_and_submit_mode)
{
    struct jobfile jf;
    CHECK(parse("[a]\nfilename=/dev/x\nunified_rw_reporting=mixed\nio_submit_mode=inline\n"
                "[b]\nfilename=/dev/x\nunified_rw_reporting=2\n[c]\nfilename=/dev/x\n", &jf) == 0, "%s", err);
    CHECK(jf.jobs[0].unified_rw == 1 && jf.jobs[1].unified_rw == 2 && jf.jobs[2].unified_rw == 0, "values");
    CHECK(!jf.jobs[0].submit_offload, "inline");
    jobfile_free(&jf);
    CHECK(parse("[a]\nfilename=/dev/x\nio_submit_mode=offload\n", &jf) == 0, "%s", err);
    CHECK(jf.jobs[0].submit_offload, "offload");
    jobfile_free(&jf);
    CHECK(parse("[a]\nfilename=/dev/x\nio_submit_mode=later\n", &jf) == -EINVAL, "bad mode");
    CHECK(strstr(err, "unknown value 'later' (expected inline or offload)"), "%s", err);
    /* serialize_overlap: where no two I/Os are in flight, else refused */
    CHECK(parse("[a]\nfilename=/dev/x\nserialize_overlap=1\n", &jf) == 0, "%s", err);
    CHECK(jf.jobs[0].serialize_overlap, "set");
    jobfile_free(&jf);
    CHECK(parse("[a]\nfilename=/dev/x\nserialize_overlap=1\niodepth=8\n", &jf) == -ENOTSUP, "depth 8");
    CHECK(strstr(err, "serialize_overlap is supported with iodepth=1 only"), "%s", err);
    CHECK(parse("[a]\nfilename=/dev/x\nunified_rw_reporting=some\n", &jf) == -EINVAL, "bad");
    CHECK(strstr(err, "unknown value 'some' (expected none, mixed, both, 0, 1 or 2)"), "%s", err);
}

TEST(cmdprio_options)
{
    struct jobfile jf;
    CHECK(parse("[a]\nfilename=/dev/x\nioengine=libaio\ncmdprio_percentage=30,70\ncmdprio_class=3\ncmdprio=4,6\n"
                "log_prio=1\n"
                "[b]\nfilename=/dev/x\nioengine=io_uring\n"
                "cmdprio_bssplit=64k/25/1/1:4k/10:64k/75/3/2:1m/0:8k/200/9/9,16k/40\n", &jf) == 0, "%s", err);
    const struct job_cmdprio *a = &jf.jobs[0].cmdprio, *b = &jf.jobs[1].cmdprio;
    CHECK(a->pct[0] == 30 && a->pct[1] == 70 && a->cls[0] == 3 && a->cls[1] == 3 && a->level[0] == 4 &&
          a->level[1] == 6 && a->log_prio && !a->bssplit, "a");
    /* sorted by block size, 0 % dropped, over-range values clamped as fio */
    CHECK(b->bssplit && b->nsplit[0] == 4 && b->nsplit[1] == 1, "b counts %u %u", b->nsplit[0], b->nsplit[1]);
    CHECK(b->split[0][0].bs == 4096 && b->split[0][0].pct == 10 && b->split[0][0].prio == -1, "4k");
    CHECK(b->split[0][1].bs == 8192 && b->split[0][1].pct == 100 && b->split[0][1].prio == (3 << 13 | 7), "8k");
    CHECK(b->split[0][2].bs == 65536 && b->split[0][2].pct == 25 && b->split[0][2].prio == (1 << 13 | 1), "64k a");
    CHECK(b->split[0][3].bs == 65536 && b->split[0][3].pct == 75 && b->split[0][3].prio == (3 << 13 | 2), "64k b");
    CHECK(b->split[1][0].bs == 16384 && b->split[1][0].pct == 40, "write list");
    jobfile_free(&jf);
    CHECK(parse("[a]\nfilename=/dev/x\nioengine=psync\ncmdprio_percentage=50\n", &jf) == -EINVAL, "psync");
    CHECK(strstr(err, "options of fio's libaio and io_uring engines"), "%s", err);
    CHECK(parse("[a]\nfilename=/dev/x\nioengine=libaio\ncmdprio_percentage=50\ncmdprio_bssplit=4k/50\n", &jf) ==
              -EINVAL, "both");
    CHECK(strstr(err, "mutually exclusive"), "%s", err);
    CHECK(parse("[a]\nfilename=/dev/x\nioengine=libaio\ncmdprio_bssplit=4k/60/1/0:4k/50\n", &jf) == -EINVAL, "sum");
    CHECK(strstr(err, "add up to 110 (over 100)"), "%s", err);
    CHECK(parse("[a]\nfilename=/dev/x\nioengine=libaio\ncmdprio_bssplit=4k/50/1\n", &jf) == -EINVAL, "3 fields");
    CHECK(strstr(err, "expected bs/percentage[/class/level]"), "%s", err);
    CHECK(parse("[a]\nfilename=/dev/x\nioengine=libaio\ncmdprio_class=0\n", &jf) == -EINVAL, "class 0");
    CHECK(parse("[a]\nfilename=/dev/x\nioengine=libaio\ncmdprio=8\n", &jf) == -EINVAL, "level 8");
}

TEST(thinktime_options)
{
    struct jobfile jf;
    CHECK(parse("[a]\nfilename=/dev/x\nthinktime=250\nthinktime_spin=50us\nthinktime_blocks=8\n"
                "thinktime_blocks_type=issue\nthinktime_iotime=2\n[b]\nfilename=/dev/x\n", &jf) == 0,
          "%s", err);
    const struct job_spec *a = &jf.jobs[0], *b = &jf.jobs[1];
    /* fio: thinktime and thinktime_spin in microseconds, thinktime_iotime in seconds */
    CHECK(a->thinktime_ns == 250000 && a->thinktime_spin_ns == 50000 && a->thinktime_blocks == 8 &&
          a->thinktime_issue && a->thinktime_iotime_ns == 2 * S, "a");
    CHECK(b->thinktime_ns == 0 && b->thinktime_blocks == 0 && !b->thinktime_issue, "b off");
    jobfile_free(&jf);
    CHECK(parse("[a]\nfilename=/dev/x\nthinktime_blocks_type=sometimes\n", &jf) == -EINVAL, "bad");
    CHECK(strstr(err, "unknown value 'sometimes' (expected complete or issue)"), "%s", err);
}

CHECK_MAIN()
