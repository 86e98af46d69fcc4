/* runner.c - runs a phase, in named steps: set-up (phase_alloc,
 * phase_setup_jobs, phase_setup_workers; runner_setup.c opens targets under
 * the guard and builds workers), start (phase_start, phase_check_workers,
 * phase_agree, phase_go), collect (phase_collect merges the interval
 * hand-overs, runner_collect.c; phase_finish), merge (phase_merge) and
 * tear-down (phase_teardown). The workers themselves are worker.c. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "base/clock.h"
#include "base/hostcpu.h"
#include "runner/worker_prio.h"
#include "runner/runner_cluster.h"
#include "runner/runner_int.h"
#include "runner/worker_buf.h"
#include "runner/runner_mem.h"
#include "runner/worker_verify.h"
#include "job/job_resolve.h"
#include "base/signal.h"
#include "stats/iolog.h"

const char *const runner_series_fields[] = {
    "t_ms",
    "read_iops", "read_mbps", "read_lat_mean_ns", "read_lat_max_ns", "read_lat_stddev_ns", "read_p99_ns",
    "write_iops", "write_mbps", "write_lat_mean_ns", "write_lat_max_ns", "write_lat_stddev_ns", "write_p99_ns",
    "mean_inflight",
    "read_ios", "read_bytes", "write_ios", "write_bytes", "syncs",
    "read_sched_p99_ns", "read_sched_max_ns", "write_sched_p99_ns", "write_sched_max_ns",
    /* trims (readers find columns by name; device_temp_c stays last) */
    "trim_iops", "trim_mbps", "trim_lat_mean_ns", "trim_lat_max_ns", "trim_lat_stddev_ns", "trim_p99_ns",
    "trim_ios", "trim_bytes",
    "stalled_ms", "cpu_busy_pct", "cpu_steal_pct", "cpu_iowait_pct", "late_hist",
    "device_temp_c",
};

/* The unit of each field above, in the same order (MB = 10^6 bytes). */
const char *const runner_series_units[] = {
    "ms",
    "IO/s", "MB/s", "ns", "ns", "ns", "ns",
    "IO/s", "MB/s", "ns", "ns", "ns", "ns",
    "I/Os",
    "I/Os", "bytes", "I/Os", "bytes", "syncs",
    "ns", "ns", "ns", "ns",
    "IO/s", "MB/s", "ns", "ns", "ns", "ns",
    "I/Os", "bytes",
    "ms", "%", "%", "%", "flag",
    "C",
};
_Static_assert(sizeof(runner_series_units) == sizeof(runner_series_fields), "one unit per field");

unsigned runner_series_nfields(void)
{
    return sizeof(runner_series_fields) / sizeof(runner_series_fields[0]);
}


/* Stalls the collector saw, kept for the phase and for the intervals they
 * overlap (recent: a small ring, only intervals not yet emitted need it). */
struct stall_log {
    struct runner_stall recent[RUNNER_MAX_STALLS];
    unsigned nrecent;            /* total added; the last RUNNER_MAX_STALLS are in recent */
};

static void stall_add(struct phase_stats *out, struct stall_log *sl, uint64_t start_abs, uint64_t len,
                      bool suspended, uint64_t measure_start)
{
    struct runner_stall st = {.start_ns = start_abs > measure_start ? start_abs - measure_start : 0,
                              .len_ns = len, .suspended = suspended};
    if (out->nstalls < RUNNER_MAX_STALLS)
        out->stalls[out->nstalls] = st;
    out->nstalls++;
    out->stalled_ns += len;
    if (suspended)
        out->suspended_ns += len;
    /* the part before the measurement start is in no interval */
    if (!suspended && start_abs < measure_start)
        st.len_ns = start_abs + len > measure_start ? start_abs + len - measure_start : 0;
    sl->recent[sl->nrecent++ % RUNNER_MAX_STALLS] = st;
}

/* Time of [a, b) (relative ns) covered by stalls; a suspend (no monotonic
 * time passes) counts in the interval it began in. */
static uint64_t stall_overlap(const struct stall_log *sl, uint64_t a, uint64_t b)
{
    uint64_t sum = 0;
    unsigned n = sl->nrecent < RUNNER_MAX_STALLS ? sl->nrecent : RUNNER_MAX_STALLS;
    for (unsigned i = 0; i < n; i++) {
        const struct runner_stall *st = &sl->recent[i];
        if (st->suspended) {
            if (st->start_ns >= a && st->start_ns < b)
                sum += st->len_ns;
            continue;
        }
        uint64_t lo = st->start_ns > a ? st->start_ns : a;
        uint64_t hi = st->start_ns + st->len_ns < b ? st->start_ns + st->len_ns : b;
        if (hi > lo)
            sum += hi - lo;
    }
    return sum;
}

static double cpu_seconds(const struct timeval *tv)
{
    return (double)tv->tv_sec + (double)tv->tv_usec / 1e6;
}

/* One phase from set-up to tear-down: the state runner_run's steps share.
 * Everything is freed in phase_teardown, whatever step failed; the threads
 * started are joined before it frees what they use. */
struct phase {
    const struct runner_opts *opts;
    const struct runner_hooks *hooks;
    unsigned njobs;
    struct phase_stats *out;
    char *err;
    size_t errlen;
    struct job_setup *setups;
    struct phase_run run;
    struct io_stats *ivjobs;            /* interval k, per job */
    struct io_stats *ivall;             /* interval k, all jobs */
    uint64_t ramp;                      /* the longest ramp of the phase's jobs */
    unsigned nworkers;                  /* workers the jobs need */
    unsigned started;                   /* threads started and not yet joined */
    bool gate_init;
    /* many ranks: the set-up verdict is agreed once, on every path */
    struct cluster *cl;
    bool multi, verdict_done;
    struct runner_reduce rb;
    struct job_stats *ccum;             /* the cluster's cumulative figures (multi) */
    struct io_stats *ctgt;              /* their per-target parts, all jobs' back to back */
    unsigned nctgt;
    uint64_t agreed;                    /* the agreed start (wall ns) */
    int64_t skew;
    /* the load */
    struct rusage ru0;
    struct runner_devices *rdev;
    double total_s;                     /* the longest start delay + runtime, for the status line */
};

/* Set-up, 1: the phase's arrays, and its own copy of the jobs (seeded). */
static int phase_alloc(struct phase *ph, const struct job_spec *jobs)
{
    struct phase_stats *out = ph->out;
    unsigned njobs = ph->njobs;
    out->njobs = njobs;
    out->jobs = calloc(njobs, sizeof(*out->jobs));
    out->stats = calloc(njobs, sizeof(*out->stats));
    out->targets = calloc((size_t)njobs * JOB_MAX_TARGETS, sizeof(*out->targets));
    out->job_target = calloc((size_t)njobs * JOB_MAX_TARGETS, sizeof(*out->job_target));
    out->kstats = calloc((size_t)njobs * JOB_MAX_TARGETS, sizeof(*out->kstats));
    ph->setups = calloc(njobs, sizeof(*ph->setups));
    ph->run.job_stop = calloc(njobs, sizeof(*ph->run.job_stop));
    ph->ivjobs = calloc(njobs, sizeof(*ph->ivjobs));
    ph->ivall = calloc(1, sizeof(*ph->ivall));
    if (!out->jobs || !out->stats || !out->targets || !out->job_target || !out->kstats || !ph->setups ||
        !ph->run.job_stop || !ph->ivjobs || !ph->ivall) {
        snprintf(ph->err, ph->errlen, "out of memory");
        return -ENOMEM;
    }
    uint64_t step = 0;
    for (unsigned j = 0; j < njobs; j++) {
        struct job_spec *jb = &out->jobs[j];
        *jb = jobs[j];
        if (!jb->seed_set) {
            jb->seed = clock_wall_ns() ^ ((uint64_t)getpid() << 32) ^ j;
            jb->seed_set = true;
        }
        if (!jb->numjobs)
            jb->numjobs = 1;
        /* the derived values the runner reads (job/job_resolve.h): the
         * front end's when it resolved the job (the run command), else here */
        if (!jb->res.done)
            job_resolve(jb, false);
        if (jb->ramp_ns > ph->ramp)
            ph->ramp = jb->ramp_ns;
        if (!step && jb->interval_ns)
            step = jb->interval_ns;
        iostats_init(ph->ivjobs + j);
    }
    iostats_init(ph->ivall);
    ph->run.step_ns = step ? step : 1000000000ull;
    ph->run.opts = ph->opts;
    ph->run.jobs = out->jobs;
    ph->run.njobs = njobs;
    for (unsigned j = 0; j < njobs; j++)
        for (unsigned i = 0; i < JOB_MAX_TARGETS; i++)
            ph->setups[j].fds[i] = -1;
    return 0;
}

/* The statistics of job jb over its nt targets and workers. */
static int job_stats_alloc(struct job_stats *js, const struct job_spec *jb, unsigned nt)
{
    bool jbod = jb->layout == LAYOUT_JBOD || (nt <= 1 && jb->layout != LAYOUT_FILES);
    js->ntargets = nt;
    js->ramp_ns = jb->ramp_ns;
    js->per_target = calloc(nt, sizeof(struct io_stats));
    if (!js->per_target)
        return -ENOMEM;
    iostats_init(&js->total);
    for (unsigned t = 0; t < nt; t++)
        iostats_init(&js->per_target[t]);
    js->workers = jb->numjobs * (jbod ? nt : 1);
    js->worker_ios = calloc(js->workers, sizeof(uint64_t));
    js->worker_busy_ns = calloc(js->workers, sizeof(uint64_t));
    js->worker_usage = calloc(js->workers, sizeof(struct worker_usage));
    if (!js->worker_ios || !js->worker_busy_ns || !js->worker_usage)
        return -ENOMEM;
    /* one statistics block per clone, for fio's per-clone reports */
    if (jb->clones > 1 && !jb->group_reporting && js->workers % jb->clones == 0) {
        js->per_worker = malloc(js->workers * sizeof(struct io_stats));
        if (!js->per_worker)
            return -ENOMEM;
        for (unsigned w = 0; w < js->workers; w++)
            iostats_init(&js->per_worker[w]);
    }
    if (jb->source) {
        js->event_lat = malloc(sizeof(*js->event_lat));
        js->worker_events = calloc(js->workers, sizeof(uint64_t));
        js->worker_event_ns = calloc(js->workers, sizeof(uint64_t));
        if (!js->event_lat || !js->worker_events || !js->worker_event_ns)
            return -ENOMEM;
        hist_init(js->event_lat);
    }
    return 0;
}

/* Set-up, 2: every job's targets (the guard decides on them), region,
 * fio limits, verify plan and statistics. */
static int phase_setup_jobs(struct phase *ph)
{
    struct phase_stats *out = ph->out;
    for (unsigned j = 0; j < ph->njobs; j++) {
        struct job_spec *jb = &out->jobs[j];
        int rc = runner_setup_job(jb, j, ph->opts, ph->setups, out, ph->err, ph->errlen);
        if (rc < 0)
            return rc;
        /* io_size=P%: that share of each file's region, per loop (fio's o->size) */
        if (jb->io_size_pct > 0 && !jb->time_based)
            jb->io_limit = ph->setups[j].io_share * (jb->loops ? jb->loops : 1);
        job_resolve_limits(jb, ph->setups[j].region_len); /* fio's limits (job/job_resolve.h) */
        rc = wverify_resolve_job(jb, ph->setups[j].region_len, ph->err, ph->errlen);
        if (rc < 0)
            return rc;
        if (job_stats_alloc(&out->stats[j], jb, ph->setups[j].ntargets) < 0)
            return -ENOMEM;
        ph->nworkers += out->stats[j].workers;
    }
    return 0;
}

/* Set-up, 3: the workers (engine, buffers, generators; their threads
 * start in phase_start). */
static int phase_setup_workers(struct phase *ph)
{
    struct phase_stats *out = ph->out;
    struct phase_run *run = &ph->run;
    /* what the workers will allocate, against what the host has */
    int mrc = runner_mem_check_phase(out->jobs, ph->njobs, ph->setups, ph->err, ph->errlen);
    if (mrc < 0)
        return mrc;
    run->workers = calloc(ph->nworkers, sizeof(*run->workers));
    if (!run->workers)
        return -ENOMEM;
    run->nworkers = 0;
    /* dedupe_global: the workers sharing working sets, from the first one's seed */
    unsigned gn = 0, gk = 0;
    uint64_t gseed = 0;
    for (unsigned j = 0; j < ph->njobs; j++) {
        const struct job_spec *jb = &out->jobs[j];
        if (jb->dedupe_global && jb->dedupe_working_set && jb->dedupe_pct) {
            if (!gn)
                gseed = jb->seed;
            gn += out->stats[j].workers;
        }
    }
    for (unsigned j = 0; j < ph->njobs; j++) {
        struct job_spec *jb = &out->jobs[j];
        bool jbod = jb->layout == LAYOUT_JBOD || (ph->setups[j].ntargets <= 1 && jb->layout != LAYOUT_FILES);
        for (unsigned i = 0; i < out->stats[j].workers; i++) {
            /* a stop signal ends the set-up: the workers made so far start,
             * see the flag and stop, and the phase is filed interrupted */
            if (signal_received())
                return 0;
            struct worker *w = &run->workers[run->nworkers++];
            w->run = run;
            w->job = jb;
            w->job_index = j;
            w->clone = jbod ? i % jb->numjobs : i;
            w->first_target = jbod ? i / jb->numjobs : 0;
            w->job_worker = i;
            if (jb->dedupe_global && jb->dedupe_working_set && jb->dedupe_pct)
                wbuf_global(w, gk++, gn, gseed);
            int rc = runner_setup_worker(w, jb, &ph->setups[j], ph->err, ph->errlen);
            if (rc == 0)
                rc = wuel_setup(w, jb, &ph->setups[j], ph->err, ph->errlen);
            if (rc < 0)
                return rc;
        }
    }
    return 0;
}

/* Start, 1: one thread per worker; each sets its engine up and waits at the
 * gate. A thread that cannot be started fails the phase: the gate opens
 * with setup_failed, so the started ones end without I/O, and
 * phase_teardown joins them. */
static int phase_start(struct phase *ph)
{
    struct phase_run *run = &ph->run;
    int frc = wflow_setup(run, ph->err, ph->errlen); /* fio's flow groups */
    if (frc < 0)
        return frc;
    runner_gate_init(&run->gate);
    ph->gate_init = true;
    for (; ph->started < run->nworkers; ph->started++)
        if (ph->hooks->spawn(&run->workers[ph->started].tid, worker_main, &run->workers[ph->started],
                             ph->hooks->ctx))
            break;
    if (ph->started < run->nworkers) {
        snprintf(ph->err, ph->errlen, "cannot start %u worker threads", run->nworkers);
        run->setup_failed = true;
        runner_gate_open(&run->gate);
        return -EAGAIN;
    }
    runner_gate_wait_ready(&run->gate, run->nworkers);
    return 0;
}

/* Start, 2: the first worker whose engine could not be set up fails the
 * phase (setup_failed: it then runs through without I/O). */
static int phase_check_workers(struct phase *ph)
{
    struct phase_run *run = &ph->run;
    for (unsigned i = 0; i < run->nworkers; i++)
        if (run->workers[i].setup_error) {
            run->setup_failed = true;
            snprintf(ph->err, ph->errlen, "%s engine: %s", run->workers[i].eng.ops->name,
                     run->workers[i].setup_msg);
            return run->workers[i].setup_error;
        }
    return 0;
}

/* Start, 3 (many ranks): every rank has opened (and the guard has judged)
 * its targets: one refusal anywhere stops every rank before any of them
 * writes. Also the cluster's cumulative figures. */
static int phase_agree(struct phase *ph, int rc)
{
    struct phase_stats *out = ph->out;
    struct phase_run *run = &ph->run;
    unsigned njobs = ph->njobs;
    if (!ph->multi)
        return rc;
    /* per-target figures merge by position: every rank needs as many */
    uint64_t shape = CLUSTER_HASH_INIT;
    for (unsigned j = 0; j < njobs; j++)
        shape = cluster_hash(shape, &out->stats[j].ntargets, sizeof(out->stats[j].ntargets));
    rc = runner_cluster_verdict(ph->cl, rc, shape, ph->err, ph->errlen);
    ph->verdict_done = true;
    if (rc < 0)
        run->setup_failed = true;
    ph->ccum = calloc(njobs, sizeof(*ph->ccum));
    for (unsigned j = 0; j < njobs; j++)
        ph->nctgt += out->stats[j].ntargets;
    ph->ctgt = calloc(ph->nctgt ? ph->nctgt : 1, sizeof(*ph->ctgt));
    for (unsigned j = 0, o = 0; ph->ccum && ph->ctgt && j < njobs; j++) {
        ph->ccum[j] = out->stats[j];
        iostats_init(&ph->ccum[j].total);
        ph->ccum[j].per_target = ph->ctgt + o;
        o += out->stats[j].ntargets;
    }
    if ((!ph->ccum || !ph->ctgt) && !run->setup_failed) {
        /* every rank must go on in step: out of memory here ends the job */
        cluster_abort(ph->cl, 1, "out of memory for the cluster totals");
    }
    return rc;
}

/* Start, 4: the readings before the load, the (agreed) start time, and the
 * gate opens. */
static void phase_go(struct phase *ph)
{
    struct phase_stats *out = ph->out;
    struct phase_run *run = &ph->run;
    ph->rdev = runner_devices_before(out, run->step_ns);
    for (unsigned t = 0; t < out->ntargets; t++)
        runner_read_kstat(&out->targets[t], &out->kstats[t]);
    getrusage(RUSAGE_SELF, &ph->ru0);
    if (ph->multi && !run->setup_failed) {
        /* rank 0's start time, a little ahead, and every rank waits for it */
        ph->agreed = cluster_agree_start(ph->cl, 200000000ull);
        ph->skew = cluster_sleep_until_wall(ph->agreed);
    }
    out->start_wall_ns = clock_wall_ns();
    run->t0 = clock_ns();
    run->measure_start = run->t0 + ph->ramp;
    runner_gate_open(&run->gate);
    for (unsigned j = 0; j < ph->njobs; j++) {
        double t = (double)(out->jobs[j].runtime_ns + out->jobs[j].startdelay_ns) / 1e9;
        if (t > ph->total_s)
            ph->total_s = t;
    }
}

/* Collect (many ranks): the cluster's interval k, every rank's merged
 * (collective); c as runner_collect returns it. */
static int collect_cluster(struct phase *ph, int c, uint64_t *t_end_rel, unsigned *late)
{
    struct phase_stats *out = ph->out;
    c = runner_cluster_step(ph->cl, &ph->rb, c, ph->ivjobs, ph->njobs, t_end_rel, late);
    if (c > 0) {
        iostats_reset(ph->ivall);
        for (unsigned j = 0; j < ph->njobs; j++) {
            iostats_merge(ph->ivall, &ph->ivjobs[j]);
            iostats_merge(&ph->ccum[j].total, &ph->ivjobs[j]);
            /* target t of the job on every rank, merged (a hook that
             * reads per-target figures, ACT's, decides on these) */
            for (unsigned t = 0; t < out->stats[j].ntargets; t++)
                ph->ccum[j].per_target[t] = out->stats[j].per_target[t];
        }
        if (runner_cluster_merge(ph->cl, &ph->rb, ph->ctgt, ph->nctgt) < 0)
            cluster_abort(ph->cl, 1, "the ranks lost contact merging an interval");
    }
    return c;
}

/* The collector's clocks: stalls seen, the host CPU since the last row. */
struct collect_clock {
    struct stall_log *sl;        /* NULL when out of memory: no stalls noted */
    uint64_t boot_gap;           /* BOOTTIME - MONOTONIC at the last look */
    struct hostcpu cpu_prev;
    uint64_t cpu_t;
    struct runner_row_host rh;
};

/* Collect, waiting: sleeps until interval k can be complete (its
 * boundary), looking every 20 ms for workers that finish early, then polls
 * each ms for stragglers: the collector must not take CPU from the workers
 * it measures (a 1 kHz wake-up costs ~1 us per I/O at QD1 on a small VM). */
static void collect_wait(struct phase *ph, struct collect_clock *cc, unsigned k)
{
    struct phase_run *run = &ph->run;
    uint64_t now = clock_ns();
    uint64_t due = run->measure_start + (uint64_t)(k + 1) * run->step_ns + 200000;
    /* short intervals (ACT's --tick-ms) are polled at 1/8 of one,
     * so the collector keeps up with them */
    uint64_t poll = run->step_ns / 8 < 1000000 ? run->step_ns / 8 : 1000000;
    uint64_t wake = now + (poll > 50000 ? poll : 50000);
    if (due > now)
        wake = due - now > 20000000 ? now + 20000000 : due;
    clock_sleep_until(wake);
    /* A wake-up more than an interval late: the process was stopped
     * or starved that long. BOOTTIME running ahead: a suspend. */
    uint64_t woke = clock_ns(), gap = clock_boot_ns() - woke;
    if (cc->sl && woke > wake && woke - wake > run->step_ns)
        stall_add(ph->out, cc->sl, wake, woke - wake, false, run->measure_start);
    if (cc->sl && gap > cc->boot_gap + 1000000)
        stall_add(ph->out, cc->sl, woke, gap - cc->boot_gap, true, run->measure_start);
    cc->boot_gap = gap;
}

/* Collect, a merged interval k ending t_end_rel: its journal row, the
 * status line and the interval hook (which may stop the phase). */
static void collect_row(struct phase *ph, struct collect_clock *cc, unsigned k, uint64_t t_end_rel,
                        unsigned late)
{
    struct phase_stats *out = ph->out;
    struct phase_run *run = &ph->run;
    const struct runner_opts *opts = ph->opts;
    struct io_stats *ivall = ph->ivall;
    uint64_t t_start_rel = (uint64_t)k * run->step_ns;
    double secs = t_end_rel > t_start_rel ? (double)(t_end_rel - t_start_rel) / 1e9 : 0;
    bool empty = ivall->dir[0].ios + ivall->dir[1].ios + ivall->dir[0].errors + ivall->dir[1].errors == 0;
    if (!(secs > 0 && !(empty && secs < 1e-3)))
        return;
    uint64_t stalled = cc->sl ? stall_overlap(cc->sl, t_start_rel, t_end_rel) : 0;
    /* Host CPU over the time since the last row; rows emitted
     * together (after a stall) share the one window that covers them. */
    uint64_t tnow = clock_ns();
    if (tnow - cc->cpu_t >= run->step_ns / 4) {
        struct hostcpu cpu_now;
        hostcpu_read(&cpu_now);
        hostcpu_pct(&cc->cpu_prev, &cpu_now, &cc->rh.busy_pct, &cc->rh.steal_pct, &cc->rh.iowait_pct);
        cc->cpu_prev = cpu_now;
        cc->cpu_t = tnow;
    }
    cc->rh.device_temp_c = runner_devices_sample(ph->rdev, out);
    if (opts->series)
        runner_stream_row(opts->series, ivall, t_end_rel / 1000000, secs, stalled, &cc->rh, late);
    out->nintervals++;
    struct runner_interval iv = {
        .index = k, .t_start_ns = t_start_rel, .t_end_ns = t_end_rel,
        .stalled_ns = stalled, .late_hist = late, .njobs = ph->njobs, .jobs = ph->ivjobs, .all = ivall,
        .cumulative = ph->multi ? ph->ccum : out->stats, .status_prefix = opts->status_prefix,
    };
    if (opts->status)
        opts->status(&iv, ph->total_s);
    if (opts->on_interval && opts->on_interval(opts->arg, &iv)) {
        out->stopped_by_hook = true;
        atomic_store(&run->stop, 1);
    }
}

/* Collect: merges the workers' interval hand-overs, one row per interval,
 * until every worker has finished. */
static void phase_collect(struct phase *ph)
{
    struct phase_run *run = &ph->run;
    struct collect_clock cc = {.sl = calloc(1, sizeof(*cc.sl)), .rh = {0, 0, 0, NAN}};
    hostcpu_read(&cc.cpu_prev);
    cc.cpu_t = clock_ns();
    cc.boot_gap = clock_boot_ns() - clock_ns();
    unsigned k = 0;
    while (!run->setup_failed) {
        uint64_t t_end_rel;
        unsigned late = 0;
        int c = runner_collect(run, ph->out, k, ph->ivjobs, ph->ivall, &t_end_rel, &late);
        if (ph->multi && c != 0)
            c = collect_cluster(ph, c, &t_end_rel, &late);
        if (c < 0)
            break;
        if (c == 0) {
            collect_wait(ph, &cc, k);
            continue;
        }
        collect_row(ph, &cc, k, t_end_rel, late);
        k++;
    }
    free(cc.sl);
}

/* Joins the started threads (after the gate opened). */
static void phase_join(struct phase *ph)
{
    for (unsigned i = 0; i < ph->started; i++)
        pthread_join(ph->run.workers[i].tid, NULL);
    ph->started = 0;
}

/* Collect, the end: the threads joined, the readings after the load. */
static void phase_finish(struct phase *ph)
{
    struct phase_stats *out = ph->out;
    struct rusage ru1;
    phase_join(ph);
    getrusage(RUSAGE_SELF, &ru1);
    for (unsigned t = 0; t < out->ntargets; t++) {
        struct kernel_stats end;
        runner_read_kstat(&out->targets[t], &end);
        runner_kstat_delta(&out->kstats[t], &end);
    }
    runner_devices_after(ph->rdev, out);
    if (ph->opts->status)
        ph->opts->status(NULL, ph->total_s);
    out->cpu_user_s = cpu_seconds(&ru1.ru_utime) - cpu_seconds(&ph->ru0.ru_utime);
    out->cpu_sys_s = cpu_seconds(&ru1.ru_stime) - cpu_seconds(&ph->ru0.ru_stime);
}

/* Merge: a worker that overslept by more than an interval while the
 * collector ran on (the collector's own stalls cover the process). */
static void merge_wstalls(struct phase_stats *out, const struct worker *w, uint64_t measure_start)
{
    for (unsigned s = 0; s < w->nwstall; s++) {
        const struct runner_stall *ws = &w->wstall[s];
        uint64_t a = ws->start_ns > measure_start ? ws->start_ns - measure_start : 0;
        bool seen = false;
        for (unsigned x = 0; x < out->nstalls && x < RUNNER_MAX_STALLS; x++) {
            const struct runner_stall *cs = &out->stalls[x];
            if (!cs->suspended && a < cs->start_ns + cs->len_ns && cs->start_ns < a + ws->len_ns)
                seen = true;
        }
        if (!seen && out->nstalls < RUNNER_MAX_STALLS) {
            out->stalls[out->nstalls] = (struct runner_stall){.start_ns = a, .len_ns = ws->len_ns,
                                                              .worker = true};
            out->nstalls++;
            out->stalled_ns += ws->len_ns;
        }
    }
}

/* Merge: a worker's verify counts into its job's; the first bad block is
 * the first worker's that found one. */
static void merge_verify(struct verify_stats *vs, const struct verify_stats *ws)
{
    if (ws->have_first && !vs->have_first) {
        uint64_t written = vs->written, blocks = vs->blocks, bytes = vs->bytes, bad = vs->bad,
                 bl = vs->backlog_blocks;
        *vs = *ws;
        vs->written = written;
        vs->blocks = blocks;
        vs->bytes = bytes;
        vs->bad = bad;
        vs->backlog_blocks = bl;
    }
    vs->written += ws->written;
    vs->blocks += ws->blocks;
    vs->bytes += ws->bytes;
    vs->bad += ws->bad;
    vs->backlog_blocks += ws->backlog_blocks;
}

/* Merge: a worker's errors into the phase's (by target, errno and op). */
static void merge_errors(struct phase_stats *out, const struct worker *w)
{
    for (unsigned e = 0; e < w->nerr; e++) {
        struct runner_error re = w->errs[e];
        re.target = out->job_target[w->job_index * JOB_MAX_TARGETS + re.target];
        out->error_total += re.count;
        bool merged = false;
        for (unsigned x = 0; x < out->nerrors; x++)
            if (out->errors[x].target == re.target && out->errors[x].err == re.err &&
                out->errors[x].op == re.op) {
                out->errors[x].count += re.count;
                merged = true;
            }
        if (!merged && out->nerrors < RUNNER_MAX_ERRORS)
            out->errors[out->nerrors++] = re;
    }
}

/* Merge: a worker's per-priority latencies (fio's cmdprio) into its job's
 * and, when clones are reported apart, its own block. Out of memory leaves
 * them out (the result then has no "prios"). */
static void merge_prio(struct job_stats *js, const struct worker *w)
{
    if (!js->prio && !(js->prio = calloc(1, sizeof(*js->prio))))
        return;
    prio_stats_merge(js->prio, &w->prio->st);
    if (!js->per_worker)
        return;
    if (!js->prio_worker && !(js->prio_worker = calloc(js->workers, sizeof(*js->prio_worker))))
        return;
    prio_stats_merge(&js->prio_worker[w->job_worker], &w->prio->st);
}

/* Merge: one finished worker's figures into its job's and the phase's;
 * the latest end of a worker so far in *last. */
static void merge_worker(struct phase_stats *out, const struct phase_run *run, const struct worker *w,
                         uint64_t *last)
{
    struct job_stats *js = &out->stats[w->job_index];
    const struct job_spec *jb = &out->jobs[w->job_index];
    uint64_t jstart = run->measure_start + jb->startdelay_ns;
    uint64_t el = w->t_finished > jstart ? w->t_finished - jstart : 0;
    if (el > js->elapsed_ns)
        js->elapsed_ns = el;
    js->worker_usage[w->job_worker] = w->usage;
    js->worker_usage[w->job_worker].elapsed_ns = el;
    js->worker_usage[w->job_worker].errors_on = jb->continue_on_error != 0;
    if (w->t_finished > *last)
        *last = w->t_finished;
    if (w->max_lag_ns > js->max_lag_ns)
        js->max_lag_ns = w->max_lag_ns;
    if (w->late_wake_ns > out->worker_late_wake_ns)
        out->worker_late_wake_ns = w->late_wake_ns;
    out->ring_wait_ns += w->ring_wait_ns;
    out->ring_waits += w->ring_waits;
    merge_wstalls(out, w, run->measure_start);
    js->worker_ios[w->job_worker] = w->total_ios;
    for (int d = 0; d < DIR_COUNT; d++)
        js->ramp_ios[d] += w->ramp_ios[d];
    js->worker_busy_ns[w->job_worker] = w->total_busy_ns;
    js->end_syncs += w->end_syncs;
    js->zone_resets += w->zbd.resets;
    if (w->vf)
        merge_verify(&js->verify, &w->vf->st);
    js->think_pauses += w->think.pauses;
    if (w->floor.target_on)
        js->lat_depth = rate_floor_depth(&w->floor);
    if (w->prio)
        merge_prio(js, w);
    if (js->event_lat && w->ev.hist) {
        hist_merge(js->event_lat, w->ev.hist);
        js->worker_events[w->job_worker] = w->ev.count;
        js->worker_event_ns[w->job_worker] = w->ev.busy_ns;
    }
    merge_errors(out, w);
}

/* Merge: every worker's figures, the phase's end, signal and lag, and (many
 * ranks) the cluster's totals. */
static void phase_merge(struct phase *ph)
{
    struct phase_stats *out = ph->out;
    struct phase_run *run = &ph->run;
    uint64_t last = run->measure_start;
    for (unsigned i = 0; i < run->nworkers; i++)
        merge_worker(out, run, &run->workers[i], &last);
    out->elapsed_ns = last - run->measure_start;
    if (signal_received()) {
        out->interrupted = true;
        out->signal = signal_received();
    }
    out->lagged = atomic_load(&run->lagged);
    out->exit_all = atomic_load(&run->exit_all);
    if (ph->multi && !run->setup_failed)
        runner_cluster_finish(ph->cl, out, ph->ccum, ph->agreed, ph->skew);
}

/* Tear-down: (many ranks) the verdict when set-up failed before it, the
 * threads still running joined, workers freed, targets closed (created
 * ones removed when asked). Returns rc, or the verdict's. */
static int phase_teardown(struct phase *ph, int rc)
{
    struct phase_run *run = &ph->run;
    if (ph->multi && !ph->verdict_done)
        rc = runner_cluster_verdict(ph->cl, rc < 0 ? rc : -EIO, 0, ph->err, ph->errlen);
    phase_join(ph);
    if (ph->gate_init)
        runner_gate_destroy(&run->gate);
    free(ph->ccum);
    free(ph->ctgt);
    runner_reduce_free(&ph->rb);
    if (run->workers)
        for (unsigned i = 0; i < run->nworkers; i++)
            ph->out->side_file_errors += runner_free_worker(&run->workers[i]);
    free(run->workers);
    if (ph->setups)
        for (unsigned j = 0; j < ph->njobs; j++)
            for (unsigned t = 0; t < ph->setups[j].ntargets; t++)
                if (ph->setups[j].fds[t] >= 0)
                    target_close(&ph->setups[j].tg[t], ph->opts->remove_created || ph->out->jobs[j].unlink_after);
    if (ph->setups)
        for (unsigned j = 0; j < ph->njobs; j++) {
            free(ph->setups[j].name_ids);
            wuel_free_job(&ph->setups[j]);
            if (ph->setups[j].exec_open) {
                target_close(&ph->setups[j].exec_out[0], false);
                target_close(&ph->setups[j].exec_out[1], false);
            }
            if (ph->setups[j].donor_open)
                target_close(&ph->setups[j].donor, false);
        }
    free(ph->setups);
    free(run->job_stop);
    free(ph->ivjobs);
    free(ph->ivall);
    return rc;
}

int runner_run_with(const struct runner_hooks *hooks, const struct job_spec *jobs, unsigned njobs,
                    const struct runner_opts *opts, struct phase_stats *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof(*out));
    struct phase ph;
    memset(&ph, 0, sizeof(ph));
    ph.opts = opts;
    ph.hooks = hooks;
    ph.njobs = njobs;
    ph.out = out;
    ph.err = err;
    ph.errlen = errlen;
    ph.cl = opts->cluster;
    ph.multi = cluster_multi(ph.cl);
    int rc = phase_alloc(&ph, jobs);
    if (rc == 0)
        rc = phase_setup_jobs(&ph);
    if (rc == 0)
        rc = phase_setup_workers(&ph);
    if (rc == 0)
        rc = phase_start(&ph);
    if (rc == 0) {
        /* a worker's set-up error (or another rank's refusal) runs the
         * phase through without I/O, every rank in step */
        rc = phase_agree(&ph, phase_check_workers(&ph));
        phase_go(&ph);
        phase_collect(&ph);
        phase_finish(&ph);
        phase_merge(&ph);
    }
    return phase_teardown(&ph, rc);
}

static int spawn_pthread(pthread_t *tid, void *(*fn)(void *), void *arg, void *ctx)
{
    (void)ctx;
    return pthread_create(tid, NULL, fn, arg);
}

int runner_run(const struct job_spec *jobs, unsigned njobs, const struct runner_opts *opts,
               struct phase_stats *out, char *err, size_t errlen)
{
    static const struct runner_hooks hooks = {.spawn = spawn_pthread};
    return runner_run_with(&hooks, jobs, njobs, opts, out, err, errlen);
}

void phase_stats_free(struct phase_stats *ps)
{
    if (ps->stats)
        for (unsigned j = 0; j < ps->njobs; j++) {
            free(ps->stats[j].per_target);
            free(ps->stats[j].worker_ios);
            free(ps->stats[j].worker_busy_ns);
            free(ps->stats[j].worker_usage);
            free(ps->stats[j].per_worker);
            free(ps->stats[j].event_lat);
            if (ps->stats[j].prio) {
                prio_stats_clear(ps->stats[j].prio);
                free(ps->stats[j].prio);
            }
            for (unsigned w = 0; ps->stats[j].prio_worker && w < ps->stats[j].workers; w++)
                prio_stats_clear(&ps->stats[j].prio_worker[w]);
            free(ps->stats[j].prio_worker);
            free(ps->stats[j].worker_events);
            free(ps->stats[j].worker_event_ns);
        }
    free(ps->stats);
    free(ps->jobs);
    free(ps->targets);
    free(ps->job_target);
    free(ps->kstats);
    if (ps->cluster) {
        free(ps->cluster->job_total);
        free(ps->cluster->job_elapsed_ns);
        free(ps->cluster);
    }
    free(ps->devices);
    memset(ps, 0, sizeof(*ps));
}
