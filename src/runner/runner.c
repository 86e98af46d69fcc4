/* runner.c - runs a phase: set-up (runner_setup.c: targets, guard,
 * regions, workers), the workers (worker.c), and the collector that merges
 * interval hand-overs into the phase's statistics. */
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
#include "runner/runner_cluster.h"
#include "runner/runner_int.h"
#include "runner/worker_verify.h"
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

/* Long on purpose: one set-up sequence (jobs, targets, workers, threads)
 * whose every step can fail into the single unwind at `done`, which frees
 * whatever exists so far; in parts, each would need all the half-built
 * resources passed along. */
int runner_run(const struct job_spec *jobs, unsigned njobs, const struct runner_opts *opts,
               struct phase_stats *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof(*out));
    int rc = 0;
    out->njobs = njobs;
    out->jobs = calloc(njobs, sizeof(*out->jobs));
    out->stats = calloc(njobs, sizeof(*out->stats));
    out->targets = calloc((size_t)njobs * JOB_MAX_TARGETS, sizeof(*out->targets));
    out->job_target = calloc((size_t)njobs * JOB_MAX_TARGETS, sizeof(*out->job_target));
    out->kstats = calloc((size_t)njobs * JOB_MAX_TARGETS, sizeof(*out->kstats));
    struct job_setup *setups = calloc(njobs, sizeof(*setups));
    struct phase_run run;
    memset(&run, 0, sizeof(run));
    run.job_stop = calloc(njobs, sizeof(*run.job_stop));
    struct io_stats *ivjobs = calloc(njobs, sizeof(*ivjobs));
    struct io_stats *ivall = calloc(1, sizeof(*ivall));
    /* many ranks: the set-up verdict is agreed once, on every path */
    struct cluster *cl = opts->cluster;
    bool multi = cluster_multi(cl), verdict_done = false;
    struct runner_reduce rb;
    memset(&rb, 0, sizeof(rb));
    struct job_stats *ccum = NULL;      /* the cluster's cumulative figures (multi) */
    struct io_stats *ctgt = NULL;       /* their per-target parts, all jobs' back to back */
    unsigned nctgt = 0;
    if (!out->jobs || !out->stats || !out->targets || !out->job_target || !out->kstats || !setups || !run.job_stop ||
        !ivjobs || !ivall) {
        snprintf(err, errlen, "out of memory");
        rc = -ENOMEM;
        goto done;
    }
    uint64_t ramp = 0, step = 0;
    for (unsigned j = 0; j < njobs; j++) {
        struct job_spec *jb = &out->jobs[j];
        *jb = jobs[j];
        if (!jb->seed_set) {
            jb->seed = clock_wall_ns() ^ ((uint64_t)getpid() << 32) ^ j;
            jb->seed_set = true;
        }
        if (!jb->numjobs)
            jb->numjobs = 1;
        if (jb->ramp_ns > ramp)
            ramp = jb->ramp_ns;
        if (!step && jb->interval_ns)
            step = jb->interval_ns;
        iostats_init(ivjobs + j);
    }
    iostats_init(ivall);
    run.step_ns = step ? step : 1000000000ull;
    run.opts = opts;
    run.jobs = out->jobs;
    run.njobs = njobs;

    unsigned nworkers = 0;
    for (unsigned j = 0; j < njobs; j++) {
        struct job_spec *jb = &out->jobs[j];
        for (unsigned i = 0; i < JOB_MAX_TARGETS; i++)
            setups[j].fds[i] = -1;
        rc = runner_setup_job(jb, j, opts, setups, out, err, errlen);
        if (rc < 0)
            goto done;
        /* fio's rule: a job that is not time_based ends after one pass over
         * its region (times loops) or at runtime, whichever comes first */
        if (!jb->io_limit && !jb->time_based) {
            jb->io_limit = setups[j].region_len * (jb->loops ? jb->loops : 1);
            jb->passes = jb->loops ? jb->loops : 1;
        }
        /* (rand)trimwrite trims every byte and then writes it: fio doubles
         * the byte and number_ios limits */
        if (job_rw_trimwrite(jb)) {
            jb->io_limit *= 2;
            jb->rw_ios_limit *= 2;
        }
        rc = wverify_resolve_job(jb, setups[j].region_len, err, errlen);
        if (rc < 0)
            goto done;
        unsigned nt = setups[j].ntargets;
        bool jbod = jb->layout == LAYOUT_JBOD || (nt <= 1 && jb->layout != LAYOUT_FILES);
        out->stats[j].ntargets = nt;
        out->stats[j].ramp_ns = jb->ramp_ns;
        out->stats[j].per_target = calloc(nt, sizeof(struct io_stats));
        if (!out->stats[j].per_target) {
            rc = -ENOMEM;
            goto done;
        }
        iostats_init(&out->stats[j].total);
        for (unsigned t = 0; t < nt; t++)
            iostats_init(&out->stats[j].per_target[t]);
        out->stats[j].workers = jb->numjobs * (jbod ? nt : 1);
        out->stats[j].worker_ios = calloc(out->stats[j].workers, sizeof(uint64_t));
        out->stats[j].worker_busy_ns = calloc(out->stats[j].workers, sizeof(uint64_t));
        out->stats[j].worker_usage = calloc(out->stats[j].workers, sizeof(struct worker_usage));
        if (!out->stats[j].worker_ios || !out->stats[j].worker_busy_ns || !out->stats[j].worker_usage) {
            rc = -ENOMEM;
            goto done;
        }
        /* one statistics block per clone, for fio's per-clone reports */
        if (jb->clones > 1 && !jb->group_reporting && out->stats[j].workers % jb->clones == 0) {
            out->stats[j].per_worker = malloc(out->stats[j].workers * sizeof(struct io_stats));
            if (!out->stats[j].per_worker) {
                rc = -ENOMEM;
                goto done;
            }
            for (unsigned w = 0; w < out->stats[j].workers; w++)
                iostats_init(&out->stats[j].per_worker[w]);
        }
        if (jb->source) {
            struct job_stats *js = &out->stats[j];
            js->event_lat = malloc(sizeof(*js->event_lat));
            js->worker_events = calloc(js->workers, sizeof(uint64_t));
            js->worker_event_ns = calloc(js->workers, sizeof(uint64_t));
            if (!js->event_lat || !js->worker_events || !js->worker_event_ns) {
                rc = -ENOMEM;
                goto done;
            }
            hist_init(js->event_lat);
        }
        nworkers += out->stats[j].workers;
    }
    run.workers = calloc(nworkers, sizeof(*run.workers));
    if (!run.workers) {
        rc = -ENOMEM;
        goto done;
    }
    run.nworkers = 0;
    for (unsigned j = 0; j < njobs; j++) {
        struct job_spec *jb = &out->jobs[j];
        bool jbod = jb->layout == LAYOUT_JBOD || (setups[j].ntargets <= 1 && jb->layout != LAYOUT_FILES);
        for (unsigned i = 0; i < out->stats[j].workers; i++) {
            struct worker *w = &run.workers[run.nworkers++];
            w->run = &run;
            w->job = jb;
            w->job_index = j;
            w->clone = jbod ? i % jb->numjobs : i;
            w->first_target = jbod ? i / jb->numjobs : 0;
            w->job_worker = i;
            rc = runner_setup_worker(w, jb, &setups[j], err, errlen);
            if (rc < 0)
                goto done;
        }
    }

    pthread_barrier_init(&run.ready, NULL, run.nworkers + 1);
    pthread_barrier_init(&run.go, NULL, run.nworkers + 1);
    unsigned started = 0;
    for (; started < run.nworkers; started++)
        if (pthread_create(&run.workers[started].tid, NULL, worker_main, &run.workers[started]))
            break;
    if (started < run.nworkers) {
        /* Threads that did start are waiting at the barrier; this cannot be
         * undone portably, so treat it as fatal for the phase. */
        snprintf(err, errlen, "cannot start %u worker threads", run.nworkers);
        signal_raise_stop(SIGTERM);
        rc = -EAGAIN;
        goto done;
    }
    pthread_barrier_wait(&run.ready);
    for (unsigned i = 0; i < run.nworkers; i++)
        if (run.workers[i].setup_error) {
            run.setup_failed = true;
            snprintf(err, errlen, "%s engine: %s", run.workers[i].eng.ops->name,
                     run.workers[i].setup_msg);
            rc = run.workers[i].setup_error;
            break;
        }
    /* Every rank has opened (and the guard has judged) its targets: one
     * refusal anywhere stops every rank before any of them writes. */
    uint64_t agreed = 0;
    int64_t skew = 0;
    if (multi) {
        /* per-target figures merge by position: every rank needs as many */
        uint64_t shape = CLUSTER_HASH_INIT;
        for (unsigned j = 0; j < njobs; j++)
            shape = cluster_hash(shape, &out->stats[j].ntargets, sizeof(out->stats[j].ntargets));
        rc = runner_cluster_verdict(cl, rc, shape, err, errlen);
        verdict_done = true;
        if (rc < 0)
            run.setup_failed = true;
        ccum = calloc(njobs, sizeof(*ccum));
        for (unsigned j = 0; j < njobs; j++)
            nctgt += out->stats[j].ntargets;
        ctgt = calloc(nctgt ? nctgt : 1, sizeof(*ctgt));
        for (unsigned j = 0, o = 0; ccum && ctgt && j < njobs; j++) {
            ccum[j] = out->stats[j];
            iostats_init(&ccum[j].total);
            ccum[j].per_target = ctgt + o;
            o += out->stats[j].ntargets;
        }
        if ((!ccum || !ctgt) && !run.setup_failed) {
            /* every rank must go on in step: out of memory here ends the job */
            cluster_abort(cl, 1, "out of memory for the cluster totals");
        }
    }
    struct rusage ru0, ru1;
    struct runner_devices *rdev = runner_devices_before(out, run.step_ns);
    for (unsigned t = 0; t < out->ntargets; t++)
        runner_read_kstat(&out->targets[t], &out->kstats[t]);
    getrusage(RUSAGE_SELF, &ru0);
    if (multi && !run.setup_failed) {
        /* rank 0's start time, a little ahead, and every rank waits for it */
        agreed = cluster_agree_start(cl, 200000000ull);
        skew = cluster_sleep_until_wall(agreed);
    }
    out->start_wall_ns = clock_wall_ns();
    run.t0 = clock_ns();
    run.measure_start = run.t0 + ramp;
    pthread_barrier_wait(&run.go);

    double total_s = 0;
    for (unsigned j = 0; j < njobs; j++) {
        double t = (double)(out->jobs[j].runtime_ns + out->jobs[j].startdelay_ns) / 1e9;
        if (t > total_s)
            total_s = t;
    }
    unsigned k = 0;
    struct stall_log *sl = calloc(1, sizeof(*sl));
    struct hostcpu cpu_prev, cpu_now;
    struct runner_row_host rh = {0, 0, 0, NAN};
    hostcpu_read(&cpu_prev);
    uint64_t cpu_t = clock_ns();
    uint64_t boot_gap = clock_boot_ns() - clock_ns();
    while (!run.setup_failed) {
        uint64_t t_end_rel;
        unsigned late = 0;
        int c = runner_collect(&run, out, k, ivjobs, ivall, &t_end_rel, &late);
        if (multi && c != 0) {
            /* the cluster's interval k: every rank's, merged (collective) */
            c = runner_cluster_step(cl, &rb, c, ivjobs, njobs, &t_end_rel, &late);
            if (c > 0) {
                iostats_reset(ivall);
                for (unsigned j = 0; j < njobs; j++) {
                    iostats_merge(ivall, &ivjobs[j]);
                    iostats_merge(&ccum[j].total, &ivjobs[j]);
                    /* target t of the job on every rank, merged (a hook that
                     * reads per-target figures, ACT's, decides on these) */
                    for (unsigned t = 0; t < out->stats[j].ntargets; t++)
                        ccum[j].per_target[t] = out->stats[j].per_target[t];
                }
                if (runner_cluster_merge(cl, &rb, ctgt, nctgt) < 0)
                    cluster_abort(cl, 1, "the ranks lost contact merging an interval");
            }
        }
        if (c < 0)
            break;
        if (c == 0) {
            /* Sleep until interval k can be complete (its boundary), looking
             * every 20 ms for workers that finish early, then poll each ms
             * for stragglers: the collector must not take CPU from the
             * workers it measures (a 1 kHz wake-up costs ~1 us per I/O at
             * QD1 on a small VM). */
            uint64_t now = clock_ns();
            uint64_t due = run.measure_start + (uint64_t)(k + 1) * run.step_ns + 200000;
            /* short intervals (ACT's --tick-ms) are polled at 1/8 of one,
             * so the collector keeps up with them */
            uint64_t poll = run.step_ns / 8 < 1000000 ? run.step_ns / 8 : 1000000;
            uint64_t wake = now + (poll > 50000 ? poll : 50000);
            if (due > now)
                wake = due - now > 20000000 ? now + 20000000 : due;
            clock_sleep_until(wake);
            /* A wake-up more than an interval late: the process was stopped
             * or starved that long. BOOTTIME running ahead: a suspend. */
            uint64_t woke = clock_ns(), gap = clock_boot_ns() - woke;
            if (sl && woke > wake && woke - wake > run.step_ns)
                stall_add(out, sl, wake, woke - wake, false, run.measure_start);
            if (sl && gap > boot_gap + 1000000)
                stall_add(out, sl, woke, gap - boot_gap, true, run.measure_start);
            boot_gap = gap;
            continue;
        }
        uint64_t t_start_rel = (uint64_t)k * run.step_ns;
        double secs = t_end_rel > t_start_rel ? (double)(t_end_rel - t_start_rel) / 1e9 : 0;
        bool empty = ivall->dir[0].ios + ivall->dir[1].ios + ivall->dir[0].errors +
                         ivall->dir[1].errors == 0;
        if (secs > 0 && !(empty && secs < 1e-3)) {
            uint64_t stalled = sl ? stall_overlap(sl, t_start_rel, t_end_rel) : 0;
            /* Host CPU over the time since the last row; rows emitted
             * together (after a stall) share the one window that covers them. */
            uint64_t tnow = clock_ns();
            if (tnow - cpu_t >= run.step_ns / 4) {
                hostcpu_read(&cpu_now);
                hostcpu_pct(&cpu_prev, &cpu_now, &rh.busy_pct, &rh.steal_pct, &rh.iowait_pct);
                cpu_prev = cpu_now;
                cpu_t = tnow;
            }
            rh.device_temp_c = runner_devices_sample(rdev, out);
            if (opts->series)
                runner_stream_row(opts->series, ivall, t_end_rel / 1000000, secs, stalled, &rh, late);
            out->nintervals++;
            struct runner_interval iv = {
                .index = k, .t_start_ns = t_start_rel, .t_end_ns = t_end_rel,
                .stalled_ns = stalled, .late_hist = late, .njobs = njobs, .jobs = ivjobs, .all = ivall,
                .cumulative = multi ? ccum : out->stats, .status_prefix = opts->status_prefix,
            };
            if (opts->status)
                opts->status(&iv, total_s);
            if (opts->on_interval && opts->on_interval(opts->arg, &iv)) {
                out->stopped_by_hook = true;
                atomic_store(&run.stop, 1);
            }
        }
        k++;
    }
    free(sl);
    for (unsigned i = 0; i < run.nworkers; i++)
        pthread_join(run.workers[i].tid, NULL);
    getrusage(RUSAGE_SELF, &ru1);
    for (unsigned t = 0; t < out->ntargets; t++) {
        struct kernel_stats end;
        runner_read_kstat(&out->targets[t], &end);
        runner_kstat_delta(&out->kstats[t], &end);
    }
    runner_devices_after(rdev, out);
    if (opts->status)
        opts->status(NULL, total_s);
    out->cpu_user_s = cpu_seconds(&ru1.ru_utime) - cpu_seconds(&ru0.ru_utime);
    out->cpu_sys_s = cpu_seconds(&ru1.ru_stime) - cpu_seconds(&ru0.ru_stime);

    uint64_t last = run.measure_start;
    for (unsigned i = 0; i < run.nworkers; i++) {
        struct worker *w = &run.workers[i];
        struct job_stats *js = &out->stats[w->job_index];
        const struct job_spec *jb = &out->jobs[w->job_index];
        uint64_t jstart = run.measure_start + jb->startdelay_ns;
        uint64_t el = w->t_finished > jstart ? w->t_finished - jstart : 0;
        if (el > js->elapsed_ns)
            js->elapsed_ns = el;
        js->worker_usage[w->job_worker] = w->usage;
        js->worker_usage[w->job_worker].elapsed_ns = el;
        if (w->t_finished > last)
            last = w->t_finished;
        if (w->max_lag_ns > js->max_lag_ns)
            js->max_lag_ns = w->max_lag_ns;
        if (w->late_wake_ns > out->worker_late_wake_ns)
            out->worker_late_wake_ns = w->late_wake_ns;
        out->ring_wait_ns += w->ring_wait_ns;
        out->ring_waits += w->ring_waits;
        /* a worker that overslept by more than an interval while the
         * collector ran on (the collector's own stalls cover the process) */
        for (unsigned s = 0; s < w->nwstall; s++) {
            const struct runner_stall *ws = &w->wstall[s];
            uint64_t a = ws->start_ns > run.measure_start ? ws->start_ns - run.measure_start : 0;
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
        js->worker_ios[w->job_worker] = w->total_ios;
        for (int d = 0; d < DIR_COUNT; d++)
            js->ramp_ios[d] += w->ramp_ios[d];
        js->worker_busy_ns[w->job_worker] = w->total_busy_ns;
        js->end_syncs += w->end_syncs;
        js->zone_resets += w->zbd.resets;
        if (w->vf) {
            /* the first bad block: of the first worker that found one */
            struct verify_stats *vs = &js->verify;
            const struct verify_stats *ws = &w->vf->st;
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
        js->think_pauses += w->think_pauses;
        if (w->floor.target_on)
            js->lat_depth = rate_floor_depth(&w->floor);
        if (js->event_lat && w->ev_hist) {
            hist_merge(js->event_lat, w->ev_hist);
            js->worker_events[w->job_worker] = w->events;
            js->worker_event_ns[w->job_worker] = w->ev_busy_ns;
        }
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
    out->elapsed_ns = last - run.measure_start;
    if (signal_received()) {
        out->interrupted = true;
        out->signal = signal_received();
    }
    out->lagged = atomic_load(&run.lagged);
    if (multi && !run.setup_failed)
        runner_cluster_finish(cl, out, ccum, agreed, skew);
    pthread_barrier_destroy(&run.ready);
    pthread_barrier_destroy(&run.go);

done:
    if (multi && !verdict_done)
        rc = runner_cluster_verdict(cl, rc < 0 ? rc : -EIO, 0, err, errlen);
    free(ccum);
    free(ctgt);
    runner_reduce_free(&rb);
    if (run.workers)
        for (unsigned i = 0; i < run.nworkers; i++)
            out->side_file_errors += runner_free_worker(&run.workers[i]);
    free(run.workers);
    if (setups)
        for (unsigned j = 0; j < njobs; j++)
            for (unsigned t = 0; t < setups[j].ntargets; t++)
                if (setups[j].fds[t] >= 0)
                    target_close(&setups[j].tg[t], opts->remove_created || out->jobs[j].unlink_after);
    free(setups);
    free(run.job_stop);
    free(ivjobs);
    free(ivall);
    return rc;
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
