/* test_runner_start.c - the start of a phase's worker threads: a thread
 * that cannot be started (a spawn hook that fails after n threads) fails
 * the phase with its message, and the threads already started are released
 * and joined before runner_run returns (none left waiting on freed state;
 * the sanitizer build checks the memory); with every thread started, each
 * worker runs and exits once. */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>

#include "check.h"
#include "base/signal.h"
#include "runner/runner_int.h"

/* A spawn hook: pthread_create for the first `allow` threads, EAGAIN
 * after; each thread it starts runs the worker and then counts its end. */
struct spawn_ctx {
    unsigned allow, calls, started;
    _Atomic unsigned exited;
    struct tramp {
        void *(*fn)(void *);
        void *arg;
        struct spawn_ctx *ctx;
    } tr[16];
};

static void *tramp_main(void *p)
{
    struct tramp *t = p;
    void *r = t->fn(t->arg);
    atomic_fetch_add(&t->ctx->exited, 1);
    return r;
}

static int spawn_some(pthread_t *tid, void *(*fn)(void *), void *arg, void *ctxp)
{
    struct spawn_ctx *c = ctxp;
    c->calls++;
    if (c->started >= c->allow || c->started >= 16)
        return EAGAIN;
    struct tramp *t = &c->tr[c->started];
    *t = (struct tramp){fn, arg, c};
    int rc = pthread_create(tid, NULL, tramp_main, t);
    if (rc == 0)
        c->started++;
    return rc;
}

static void null_job(struct job_spec *j, unsigned numjobs)
{
    job_defaults(j);
    j->engine = ENGINE_NULL;
    j->size = 4ull << 20;
    j->iodepth = 4;
    j->numjobs = numjobs;
    j->seed = 7;
    j->seed_set = true;
}

/* n of the phase's 4 threads start, the next fails */
static void start_fails_after(unsigned n, int *check_failed_)
{
    struct job_spec j;
    null_job(&j, 4);
    struct runner_opts o = {.stop_on_error = true};
    struct spawn_ctx c = {.allow = n};
    struct runner_hooks h = {.spawn = spawn_some, .ctx = &c};
    struct phase_stats ps;
    char err[256] = "";
    int rc = runner_run_with(&h, &j, 1, &o, &ps, err, sizeof(err));
    CHECK(rc == -EAGAIN, "rc %d (%s)", rc, err);
    CHECK(strcmp(err, "cannot start 4 worker threads") == 0, "err '%s'", err);
    CHECK(c.calls == n + 1, "spawn called %u times", c.calls);
    CHECK(c.started == n, "started %u", c.started);
    /* joined before the return: every started thread has ended */
    CHECK(atomic_load(&c.exited) == n, "%u of %u started threads ended", atomic_load(&c.exited), n);
    CHECK(ps.stats[0].total.dir[DIR_READ].ios == 0, "I/O ran: %llu",
          (unsigned long long)ps.stats[0].total.dir[DIR_READ].ios);
    /* the failure is the phase's, not a stop of the whole program */
    CHECK(signal_received() == 0, "stop flag raised: %d", signal_received());
    phase_stats_free(&ps);
}

TEST(start_fails_after_two_threads)
{
    start_fails_after(2, check_failed_);
}

TEST(start_fails_at_first_thread)
{
    start_fails_after(0, check_failed_);
}

TEST(every_thread_started_runs_and_ends)
{
    struct job_spec j;
    null_job(&j, 3);
    struct runner_opts o = {.stop_on_error = true};
    struct spawn_ctx c = {.allow = 16};
    struct runner_hooks h = {.spawn = spawn_some, .ctx = &c};
    struct phase_stats ps;
    char err[256] = "";
    int rc = runner_run_with(&h, &j, 1, &o, &ps, err, sizeof(err));
    CHECK(rc == 0, "rc %d (%s)", rc, err);
    CHECK(c.started == 3 && c.calls == 3, "started %u, calls %u", c.started, c.calls);
    CHECK(atomic_load(&c.exited) == 3, "ended %u", atomic_load(&c.exited));
    /* each of the 3 clones reads the 4 MiB region once, 4 KiB at a time */
    CHECK(ps.stats[0].total.dir[DIR_READ].ios == 3 * 1024, "ios %llu",
          (unsigned long long)ps.stats[0].total.dir[DIR_READ].ios);
    phase_stats_free(&ps);
}

CHECK_MAIN()
