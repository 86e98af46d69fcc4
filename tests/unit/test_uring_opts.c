/* test_uring_opts.c - fio's io_uring engine options in the option table:
 * the tri-state knobs (bare key, 1/0, nonvectored=-1), sqthread_poll_cpu,
 * the plain ones, and one-line errors for bad values. */
#include <errno.h>

#include "job/job.h"
#include "check.h"
#include "jobfile/options.h"

static int set(struct job_spec *j, struct job_extra *x, const char *k, const char *v, char *e)
{
    return job_set_option(j, x, k, v, e, 256);
}

TEST(knobs_default_off_on)
{
    struct job_spec j;
    struct job_extra x;
    char e[256];
    job_defaults(&j);
    job_extra_defaults(&x);
    CHECK(j.uring.hipri == ENGINE_KNOB_DEFAULT && j.uring.fixedbufs == ENGINE_KNOB_DEFAULT &&
              j.uring.registerfiles == ENGINE_KNOB_DEFAULT && j.uring.nonvectored == ENGINE_KNOB_DEFAULT &&
              !j.uring.sqthread_poll && !j.uring.sqthread_poll_cpu_set && !j.uring.force_async,
          "defaults");
    CHECK(set(&j, &x, "hipri", NULL, e) == 0 && j.uring.hipri == ENGINE_KNOB_ON, "bare hipri: %s", e);
    CHECK(set(&j, &x, "fixedbufs", "0", e) == 0 && j.uring.fixedbufs == ENGINE_KNOB_OFF, "%s", e);
    CHECK(set(&j, &x, "registerfiles", "1", e) == 0 && j.uring.registerfiles == ENGINE_KNOB_ON, "%s", e);
    CHECK(set(&j, &x, "nonvectored", "0", e) == 0 && j.uring.nonvectored == ENGINE_KNOB_OFF, "%s", e);
    CHECK(set(&j, &x, "nonvectored", "-1", e) == 0 && j.uring.nonvectored == ENGINE_KNOB_DEFAULT, "%s", e);
    CHECK(set(&j, &x, "fixedbufs", "", e) == 0 && j.uring.fixedbufs == ENGINE_KNOB_ON, "empty: %s", e);
}

TEST(plain_options)
{
    struct job_spec j;
    struct job_extra x;
    char e[256];
    job_defaults(&j);
    job_extra_defaults(&x);
    CHECK(set(&j, &x, "sqthread_poll", NULL, e) == 0 && j.uring.sqthread_poll, "%s", e);
    CHECK(set(&j, &x, "sqthread_poll_cpu", "1", e) == 0 && j.uring.sqthread_poll_cpu_set &&
              j.uring.sqthread_poll_cpu == 1,
          "%s", e);
    CHECK(set(&j, &x, "force_async", "4", e) == 0 && j.uring.force_async == 4, "%s", e);
    CHECK(set(&j, &x, "uncached", "1", e) == 0 && j.uring.uncached, "%s", e);
    CHECK(set(&j, &x, "nowait", "1", e) == 0 && j.uring.nowait, "%s", e);
}

TEST(bad_values)
{
    struct job_spec j;
    struct job_extra x;
    char e[256];
    job_defaults(&j);
    job_extra_defaults(&x);
    int rc = set(&j, &x, "fixedbufs", "maybe", e);
    CHECK(rc == -EINVAL && !strncmp(e, "fixedbufs: ", 11) && !strchr(e, '\n'), "%d %s", rc, e);
    CHECK(j.uring.fixedbufs == ENGINE_KNOB_DEFAULT, "unchanged");
    rc = set(&j, &x, "sqthread_poll_cpu", "9999", e);
    CHECK(rc == -EINVAL && strstr(e, "sqthread_poll_cpu") && !j.uring.sqthread_poll_cpu_set, "%d %s", rc, e);
    rc = set(&j, &x, "sqthread_poll_cpu", "x", e);
    CHECK(rc == -EINVAL, "%d %s", rc, e);
    rc = set(&j, &x, "sqthread_poll_cpu", NULL, e);
    CHECK(rc == -EINVAL, "needs a value: %d %s", rc, e);
}

CHECK_MAIN()
