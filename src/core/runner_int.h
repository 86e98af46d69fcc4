/* runner_int.h - state shared between the runner's setup/collection side
 * (runner.c) and its worker loop (worker.c). Not for use outside src/core. */
#ifndef SSDBENCH_RUNNER_INT_H
#define SSDBENCH_RUNNER_INT_H

#include <pthread.h>
#include <stdatomic.h>

#include "core/rng.h"
#include "core/runner.h"
#include "engine/engine.h"
#include "target/stripe.h"
#include "workload/gen.h"

#define WORKER_LOCAL_ERRORS 4

struct phase_run;
struct iolog;

/* Where a worker's I/O goes: one target (jbod), a stripe over all of the job's
 * targets, or a uniformly random target per I/O (ACT). */
struct worker_map {
    enum job_layout layout;
    unsigned ntouch;            /* targets this worker touches */
    uint64_t region_start;      /* jbod/random: byte offset of the region in each target;
                                   stripe: offset in the logical striped space */
    uint64_t region_len;
    struct stripe_map stripe;
};

struct worker {
    pthread_t tid;
    struct phase_run *run;
    const struct job_spec *job;
    unsigned job_index;
    unsigned clone;              /* 0..numjobs-1 */
    unsigned first_target;       /* jbod: the job-local target index */
    struct worker_map map;
    const int *fds;              /* job's fds, indexed by job-local target */
    int local_fds[JOB_MAX_TARGETS];

    unsigned depth;
    struct engine eng;
    struct io_req *slots;
    struct io_req **free_slots;
    unsigned nfree;
    struct io_req **done;
    void *bufmem;
    struct iovec *iov;
    size_t bufsize;
    struct gen gen;
    struct rng brng;             /* buffer contents */
    struct iolog *iolog;         /* fio-format logs (write_*_log); NULL when none */

    /* interval hand-over: buffer i holds interval numbers k with k % 2 == i.
     * A worker moves on to the other buffer only after the collector has
     * merged what it held; if the collector is behind (another worker stuck
     * in a long I/O) the worker keeps adding to the current buffer rather
     * than wait, so no worker ever stalls on statistics. */
    struct io_stats *ibuf[2];    /* each [map.ntouch] */
    struct io_stats *cur;
    unsigned k_pub;              /* next interval number to hand over */
    unsigned k_time;             /* interval the clock is in */
    uint64_t boundary;           /* end of interval k_time, abs ns */
    uint64_t last_boundary;      /* the job's end: completions drained after it
                                    stay in the last interval, not a sliver of a new one */
    bool measuring;              /* past the ramp */
    _Atomic unsigned published;  /* intervals handed over */
    _Atomic unsigned consumed;   /* intervals the collector has merged */
    _Atomic int finished;
    uint64_t t_finished;

    uint64_t max_lag_ns;
    uint64_t ramp_ios[DIR_COUNT];/* completions dropped with the ramp */
    uint64_t total_ios;          /* merged by the collector: I/Os + flushes */
    uint64_t total_busy_ns;      /* merged by the collector: latency sum */
    unsigned job_worker;         /* index among the job's workers */

    /* jobs with a shared request source (job->source): per-event time,
     * from taking the request to the end of its submission (and of the
     * wait for a free slot, or of the request itself with a synchronous
     * engine), as sysbench times an event */
    struct hist *ev_hist;        /* NULL unless job->source */
    uint64_t ev_start;           /* when the open event began */
    bool ev_open;                /* an event's requests are not all issued yet */
    bool ev_wait;                /* its submission still waits for a completion */
    uint64_t events;
    uint64_t ev_busy_ns;
    uint64_t end_syncs;          /* end_fsync flushes that succeeded */
    unsigned nerr;
    struct runner_error errs[WORKER_LOCAL_ERRORS];
    int setup_error;
    char setup_msg[256];
};

struct phase_run {
    const struct runner_opts *opts;
    const struct job_spec *jobs;
    unsigned njobs;
    unsigned nworkers;
    struct worker *workers;
    pthread_barrier_t ready, go;
    bool setup_failed;
    uint64_t t0;                 /* start, abs ns */
    uint64_t measure_start;      /* t0 + ramp */
    uint64_t step_ns;
    _Atomic int stop;            /* 1 = every job stops issuing (hook, lag) */
    _Atomic int *job_stop;       /* [njobs]: this job stops (I/O error) */
    _Atomic int lagged;
};

void *worker_main(void *arg);

#endif
