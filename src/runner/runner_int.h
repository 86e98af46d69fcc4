/* runner_int.h - state shared between the runner's setup/collection side
 * (runner.c) and its worker loop (worker.c). Not for use outside src/core. */
#ifndef SSDBENCH_RUNNER_INT_H
#define SSDBENCH_RUNNER_INT_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "base/rng.h"
#include "base/tsc_clock.h"
#include "runner/runner.h"
#include "engine/engine.h"
#include "target/stripe.h"
#include "job/gen.h"
#include "runner/worker_buf.h"
#include "job/zone.h"
#include "base/zbd.h"
#include "runner/rate_floor.h"

#define WORKER_LOCAL_ERRORS 4
#define WORKER_RING 4
#define WORKER_LITE 64
#define RING_NONE 0xffffffffu

/* The counts of one interval and target, kept when no full interval buffer
 * was free (see worker.late). */
struct lite_counts {
    uint64_t ios[DIR_COUNT], bytes[DIR_COUNT], errors[DIR_COUNT];
    uint64_t syncs, sync_errors;
};

struct phase_run;
struct iolog;
struct wverify;
struct wreplay;
struct job_setup;

/* Where a worker's I/O goes: one target (jbod), a stripe over all of the job's
 * targets, or a uniformly random target per I/O (ACT). */
struct worker_map {
    enum job_layout layout;
    unsigned ntouch;            /* targets this worker touches */
    uint64_t region_start;      /* jbod/random: byte offset of the region in each target;
                                   stripe: offset in the logical striped space */
    uint64_t region_len;
    struct stripe_map stripe;
    struct ar_segments segs;    /* n > 0: region offsets are in the segments' space */
};

/* Histogram flags of an interval (the row's late_hist): its latencies are in
 * a later row's histograms / its histograms also hold earlier rows'. */
#define LATE_HIST_MISSING 1u
#define LATE_HIST_EXTRA 2u

/* One interval buffer taken from a worker, waiting to be merged. */
struct worker_pend {
    unsigned k;
    unsigned late;               /* LATE_HIST_* */
    struct io_stats *buf;
};

/* A shared request source's events (struct worker.ev). */
struct worker_events {
    struct hist *hist;           /* NULL unless job->source */
    uint64_t start;              /* when the open event began */
    bool open;                   /* an event's requests are not all issued yet */
    bool wait;                   /* its submission still waits for a completion */
    uint64_t count;
    uint64_t busy_ns;
};

/* fio's thinktime: the counts its pauses are due at (struct worker.think). */
struct worker_think {
    uint64_t completed;          /* reads/writes completed */
    uint64_t last_count;         /* the count the last pause was due at */
    uint64_t count_at_due;
    uint64_t last_ns;            /* when the last pause ended (thinktime_iotime) */
    uint64_t pauses;
};

/* unlink_each_loop (worker_uel.c): the first I/O of a new pass, held
 * until nothing is in flight and the files are made anew */
struct wuel {
    bool on, due, have_held;
    unsigned pass_seen;          /* w->gen.pass when last looked at */
    struct io_req held;
    struct target *tg;           /* the job's targets (job_setup) */
    unsigned first, n;           /* the worker's: tg[first .. first+n) */
    /* clones sharing a file: each has its own descriptor of it (own_fd,
     * in the worker's fds), renewed alone; the name is removed and made
     * under the job's lock */
    bool shared;
    int own_fd;
    pthread_mutex_t *lock;
    /* io_uring: the job's options without registered files (a registered
     * file would stay the unlinked one) */
    struct engine_uring_opts uring;
};

struct worker {
    pthread_t tid;
    struct phase_run *run;
    const struct job_spec *job;
    unsigned job_index;
    unsigned clone;              /* 0..numjobs-1 */
    unsigned first_target;       /* jbod: the job-local target index */
    uint64_t io_limit_own;       /* bytes of its passes when not the job's io_limit; 0 = the job's */
    struct worker_map map;
    struct tsc_clock clk;        /* the loop's submission and completion stamps (base/tsc_clock.h) */
    const int *fds;              /* job's fds, indexed by job-local target */
    int local_fds[JOB_MAX_TARGETS];
    struct flow_group *flow;     /* fio's flow (worker_flow.c); NULL = none */
    uint64_t flow_count;         /* the I/Os it counted in the group */
    FILE *wlog;                  /* write_iolog (worker_wlog.c); NULL = none */
    char *wlog_buf;
    uint64_t wlog_t0;
    struct wreplay *rp;          /* read_iolog (worker_replay.c); NULL = the generators */

    unsigned depth;
    struct engine eng;
    struct io_req *slots;
    struct io_req **free_slots;
    unsigned nfree;
    struct io_req **done;
    struct io_req **staged;      /* [depth]: the requests of one submission batch */
    void *bufmem;
    struct iovec *iov;
    size_t bufsize;
    struct gen gen;
    struct rng brng;             /* buffer contents */
    struct iolog *iolog;         /* fio-format logs (write_*_log); NULL when none */

    /* Interval hand-over (docs/design.md "Interval hand-over without
     * locks"): a ring of WORKER_RING interval buffers. The worker records
     * every completion into the buffer of the interval its completion time
     * falls in (cur, interval cur_k); ring_k[s] says which interval slot s
     * holds. Crossing into interval k it publishes "everything before k is
     * complete" (published = k, release) and moves into slot k % WORKER_RING
     * once the collector has taken what that slot held (consumed, acquire).
     * Intervals in which the worker saw no completion use no slot at all, so
     * a stopped or starved process skips them without lagging. The collector
     * takes each published slot as soon as it can, swapping a clean buffer
     * in, so a worker stuck in a long I/O never holds the others' rings. */
    struct io_stats *ring[WORKER_RING]; /* each [map.ntouch]; ring[s] is replaced
                                           by the collector only while it holds slot s */
    _Atomic unsigned ring_k[WORKER_RING]; /* interval held by slot s, RING_NONE = none */
    struct io_stats *cur;
    unsigned cur_k;              /* interval cur belongs to */
    unsigned k_time;             /* interval the clock is in */
    uint64_t boundary;           /* end of interval k_time, abs ns */
    uint64_t last_boundary;      /* the job's end: completions drained after it
                                    stay in the last interval, not a sliver of a new one */
    bool measuring;              /* past the ramp */
    _Atomic unsigned published;  /* intervals < published are complete */
    _Atomic unsigned consumed;   /* slots holding intervals < consumed are free again */
    bool ring_late[WORKER_RING]; /* slot's histograms also hold earlier intervals' */
    /* No full slot free (the collector did not run for WORKER_RING - 1
     * intervals): the worker records into late and, leaving the interval,
     * moves its exact counts to lite slot k % WORKER_LITE (tag lite_k); the
     * histograms stay in late until a full slot is free again and are then
     * added to that interval's (flagged LATE_HIST_EXTRA). Nothing blocks. */
    struct io_stats *late;       /* [map.ntouch] */
    bool in_late;
    struct lite_counts *lite;    /* [WORKER_LITE * map.ntouch] */
    _Atomic unsigned lite_k[WORKER_LITE];
    uint64_t ring_wait_ns;       /* time spent waiting for a free slot (only when
                                    the collector did not run for WORKER_LITE intervals) */
    unsigned ring_waits;
    uint64_t late_wake_ns;       /* longest wake-up beyond a planned sleep's end */
    struct runner_stall wstall[4]; /* wake-ups more than an interval late (abs start) */
    unsigned nwstall;
    /* collector side only: taken slots waiting for the other workers, and
     * clean buffers to swap in */
    unsigned taken;              /* intervals < taken have been taken */
    struct worker_pend *pend;
    unsigned pend_head, pend_len, pend_cap;
    struct io_stats **pool;
    unsigned npool, pool_cap;
    _Atomic int finished;
    uint64_t t_finished;

    uint64_t max_lag_ns;
    uint64_t ramp_ios[DIR_COUNT];/* completions dropped with the ramp */
    uint64_t total_ios;          /* merged by the collector: I/Os + flushes */
    uint64_t total_busy_ns;      /* merged by the collector: latency sum */
    unsigned job_worker;         /* index among the job's workers */
    struct worker_usage usage;   /* this thread's rusage and call counts (runner.h) */

    /* jobs with a shared request source (job->source, worker.c
     * source_take): per-event time, from taking the request to the end of
     * its submission (and of the wait for a free slot, or of the request
     * itself with a synchronous engine), as sysbench times an event */
    struct worker_events ev;
    uint64_t end_syncs;          /* end_fsync flushes that succeeded */
    /* fio job-file rules */
    bool filled;                 /* fill_device: a write found the target full */
    struct worker_think think;   /* thinktime (worker.c think_due, think_pause) */
    unsigned nerr;
    unsigned side_errors;       /* side files (logs, dumps, verify state) not written */
    struct runner_error errs[WORKER_LOCAL_ERRORS];
    int setup_error;
    char setup_msg[256];

    /* fio's cmdprio (worker_prio.h); NULL when the job has none */
    struct wprio *prio;
    /* verify (worker_verify.h); NULL when the job has no verify= */
    struct wverify *vf;
    struct wuel uel;             /* unlink_each_loop; uel.on false without it */
    /* fio buffer contents (worker_buf.h) */
    struct wbuf_state wb;

    /* fio's file set (LAYOUT_FILES, worker_files.c); NULL otherwise */
    struct wfiles *wf;
    /* fio zonemode=strided (job/zone.h); zone.on false otherwise */
    struct zone_walk zone;
    /* fio zonemode=zbd (base/zbd.h, worker_zbd.c); zbd.on false otherwise */
    struct zbd_state zbd;
    bool zbd_wait;               /* prepare found the I/O's zone busy: complete first */
    bool zbd_held;               /* zbd_io is drawn and waits for its zone */
    struct gen_io zbd_io;
    dev_t zbd_dev;               /* the zoned device (workers on the same one share zbd.zs) */
    int zbd_fd;                  /* its block device: zone report and resets */
    bool zbd_fd_own;             /* zbd_fd opened here (a passthrough target's block device) */
    struct worker *zbd_lock;     /* the worker whose zbd_mu/zbd_cv guard the shared set; NULL unshared */
    bool zbd_lock_own;           /* zbd_mu/zbd_cv are initialised (this worker's set is shared) */
    pthread_mutex_t zbd_mu;
    pthread_cond_t zbd_cv;       /* broadcast at each write completion on the set */
    /* fio rate floors, max_latency and latency_target (rate_floor.h) */
    struct rate_floor floor;
};

/* runner_gate.c: the start of a phase's workers. Each worker arrives once
 * its engine is set up (runner_gate_arrive: counted, then it waits until the
 * gate opens); the runner waits for the workers it started
 * (runner_gate_wait_ready), decides, and opens the gate. Unlike a barrier
 * sized for every worker, it can be opened when only some threads started,
 * so a failed thread start releases the others (they see setup_failed). */
struct runner_gate {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    unsigned ready;              /* workers arrived */
    bool open;
};
void runner_gate_init(struct runner_gate *g);
void runner_gate_arrive(struct runner_gate *g);
void runner_gate_wait_ready(struct runner_gate *g, unsigned n);
void runner_gate_open(struct runner_gate *g);
void runner_gate_destroy(struct runner_gate *g);

/* fio's flow groups of a phase (worker_flow.c) */
#define RUN_MAX_FLOWS 64
struct flow_group {
    unsigned id;
    _Atomic uint64_t count;   /* I/Os issued by the group, from 1 as fio's */
    _Atomic int64_t weight;   /* the weights of its running workers */
};

struct phase_run {
    const struct runner_opts *opts;
    const struct job_spec *jobs;
    unsigned njobs;
    unsigned nworkers;
    struct worker *workers;
    struct runner_gate gate;
    bool setup_failed;           /* set before the gate opens: workers do no I/O */
    uint64_t t0;                 /* start, abs ns */
    uint64_t measure_start;      /* t0 + ramp */
    uint64_t step_ns;
    _Atomic int stop;            /* 1 = every job stops issuing (hook, lag) */
    _Atomic int *job_stop;       /* [njobs]: this job stops (I/O error) */
    _Atomic int exit_all;        /* a job with exitall and exit_what=all ended */
    _Atomic int lagged;
    struct flow_group flows[RUN_MAX_FLOWS];
    unsigned nflows;
};

/* worker_flow.c: fio's flow. wflow_setup puts every worker of a job with a
 * flow weight in its flow_id's group (-EINVAL with a message past
 * RUN_MAX_FLOWS ids); wflow_ahead is true when the worker has issued more
 * than its weight's share of the group (it then issues nothing now), else
 * counts one I/O; wflow_exit takes a finished worker out of its group. */
int wflow_setup(struct phase_run *run, char *err, size_t errlen);
bool wflow_ahead(struct worker *w);
void wflow_exit(struct worker *w);
/* worker_wlog.c: fio's write_iolog. wlog_open starts the worker's part
 * (the header, its files added and opened at now); wlog_io logs one issued
 * request; wlog_close closes its files and the stream (0 or -errno). */
int wlog_open(struct worker *w, uint64_t now, char *err, size_t errlen);
void wlog_io(struct worker *w, const struct io_req *r, uint64_t now);
int wlog_close(struct worker *w, uint64_t now);

/* worker_replay.c: fio's read_iolog. wreplay_setup reads the job's log for
 * the worker (w->rp; nothing without read_iolog); wreplay_next puts the
 * next logged I/O into r (false when the log is done or failed:
 * wreplay_failed is true once then, its message printed). A paced replay (not replay_no_stall): wreplay_begin at
 * the loop's start, wreplay_due the time the next I/O is due (file actions
 * and waits whose time came are done on the way), wreplay_issued after
 * each I/O was queued (fio's clock of the next gap). */
int wreplay_setup(struct worker *w, const struct job_spec *j, const struct job_setup *js, char *err,
                  size_t errlen);
bool wreplay_next(struct worker *w, struct io_req *r);
uint64_t wreplay_begin(struct worker *w, uint64_t start);
uint64_t wreplay_due(struct worker *w, uint64_t now);
void wreplay_issued(struct worker *w, uint64_t now);
bool wreplay_failed(struct worker *w);
void wreplay_free(struct worker *w);

/* unlink_each_loop: wuel_setup (runner.c, after runner_setup_worker)
 * refuses what it does not do; wuel_pass_over holds r when it begins a new
 * pass (true: not queued); wuel_renew, with nothing in flight, removes and
 * remakes the worker's files this run created; wuel_take_held gives the
 * held I/O back after it. */
int wuel_setup(struct worker *w, const struct job_spec *j, struct job_setup *js, char *err,
               size_t errlen);
bool wuel_pass_over(struct worker *w, const struct io_req *r);
bool wuel_take_held(struct worker *w, struct io_req *r);
int wuel_renew(struct worker *w, char *err, size_t errlen);
/* the worker's own descriptor of a shared file, closed; the job's lock
 * destroyed with its set-up (wuel_free_job) */
void wuel_free(struct worker *w);
void wuel_free_job(struct job_setup *js);

void *worker_main(void *arg);

/* How runner_run starts a worker's thread (spawn: pthread_create's
 * contract, 0 or an error number); a unit test passes a spawn that fails
 * on purpose to runner_run_with, which is runner_run otherwise. */
struct runner_hooks {
    int (*spawn)(pthread_t *tid, void *(*fn)(void *), void *arg, void *ctx);
    void *ctx;
};
int runner_run_with(const struct runner_hooks *hooks, const struct job_spec *jobs, unsigned njobs,
                    const struct runner_opts *opts, struct phase_stats *out, char *err, size_t errlen);

/* Per job: opened targets and their regions. */
struct job_setup {
    struct target tg[JOB_MAX_TARGETS];
    int fds[JOB_MAX_TARGETS];
    unsigned ntargets;
    uint64_t region_start, region_len; /* in a target (jbod/random) or the striped space */
    struct stripe_map stripe;
    /* LAYOUT_FILES: each target's own region (region_len: the bytes of one
     * pass of a clone over its files) */
    uint64_t file_start[JOB_MAX_TARGETS], file_len[JOB_MAX_TARGETS];
    /* io_size=P%: the bytes of clone 0's pass, P% of each of its files'
     * regions capped by a byte size (fio's o->size; job_fiosize.h) */
    uint64_t io_share;
    /* each target's size before the run (0: this run creates it): the
     * size fio's offset_increment=P% is a share of */
    uint64_t before[JOB_MAX_TARGETS];
    /* unlink_each_loop on a file clones share (worker_uel.c): one clone
     * at a time removes and makes the name */
    pthread_mutex_t uel_lock;
    bool uel_lock_on;
    /* a file-operation engine's name set (runner_names.c): each file's
     * length, and filedelete's judged identities (2 per name, freed with
     * the phase) */
    uint64_t names_len;
    uint64_t *name_ids;
    /* ioengine=exec with std_redirect: NAME.stdout and NAME.stderr, opened
     * through the guard (runner_names.c), closed with the phase */
    struct target exec_out[2];
    bool exec_open;
    /* ioengine=e4defrag: the donor file, opened through the guard
     * (runner_names.c), closed with the phase */
    struct target donor;
    bool donor_open;
    /* ioengine=null sized as fio sizes its files (runner_null.c): each
     * clone's region is its own (runner_null_clone) */
    bool null_fio;
};

/* runner_null.c: fio clone clone's region of a null job sized as fio's
 * (js->null_fio): its first file's start, its pass and the pass's
 * io_size=P% share. 0 or -EINVAL.
 * runner_null_fio_clone: which fio clone a worker (its clone, its first
 * target) is. */
int runner_null_clone(const struct job_spec *j, unsigned clone, uint64_t *start, uint64_t *len,
                      uint64_t *share, char *err, size_t errlen);
unsigned runner_null_fio_clone(const struct job_spec *j, unsigned clone, unsigned target);

/* runner_setup.c: opens and checks job j's targets (setups[jidx]; earlier
 * entries are the phase's jobs set up before it) and region (guard
 * refusals and bad alignment come back as -errno with a message). */
int runner_setup_job(const struct job_spec *j, unsigned jidx, const struct runner_opts *opts,
                     struct job_setup *setups, struct phase_stats *out, char *err, size_t errlen);
/* Engine, buffers, generators and logs of one worker of job j. */
int runner_setup_worker(struct worker *w, const struct job_spec *j, const struct job_setup *js,
                        char *err, size_t errlen);
/* Frees a worker and closes its logs: how many of its side files (logs,
 * dumps, verify state) could not be written, each said on stderr. */
unsigned runner_free_worker(struct worker *w);
/* fio's thread number (1-based) of worker w of job j, which seeds its random
 * streams: fio makes a job's clones after it, last name first, so the clone
 * named k (file NAME.k.0) is thread 1 + clones - k of the job */
static inline unsigned runner_fio_thread(const struct worker *w, const struct job_spec *j)
{
    unsigned first = w->run->opts->log_number_base + (unsigned)(w - w->run->workers) - w->job_worker;
    unsigned nc = j->clones ? j->clones : 1, k = w->job_worker % nc;
    return first + (k == 0 ? 1 : 1 + nc - k);
}

/* runner_files.c: fio's file set. runner_setup_files opens, creates (sizes
 * and fallocate as fio) and guards every file of a LAYOUT_FILES job, as
 * runner_setup_job does a job's targets; runner_prepare_cache then runs
 * pre_read or invalidate over every target of a job (a failed invalidation
 * is a warning on stderr, as in fio). */
int runner_setup_files(const struct job_spec *j, unsigned jidx, const struct runner_opts *opts,
                       struct job_setup *setups, struct phase_stats *out, char *err, size_t errlen);
int runner_prepare_cache(const struct job_spec *j, struct job_setup *js, char *err, size_t errlen);

/* runner_null.c: a job on an engine without files (null): no target is
 * opened; the region and the clones' files follow fio's sizes. */
int runner_setup_null(const struct job_spec *j, unsigned jidx, struct job_setup *js,
                      struct phase_stats *out, char *err, size_t errlen);

/* runner_names.c: a job on a file-operation engine (filecreate, filestat,
 * filedelete): its name set laid out and judged by the guard; and each
 * worker's names (its clone's) for its engine. */
int runner_setup_names(const struct job_spec *j, unsigned jidx, const struct runner_opts *opts,
                       struct job_setup *js, struct phase_stats *out, char *err, size_t errlen);
int runner_names_worker(struct worker *w, const struct job_spec *j, const struct job_setup *js, char *err,
                        size_t errlen);
/* ioengine=exec: its output files opened (created empty, or an existing
 * one judged by the guard and emptied, as fio truncates them) */
int runner_e4defrag_donor(const struct job_spec *j, const struct runner_opts *opts, struct job_setup *js,
                          char *err, size_t errlen);
int runner_exec_outputs(const struct job_spec *j, const struct runner_opts *opts, struct job_setup *js, char *err,
                        size_t errlen);

/* A target's index in the phase's list, added when not there yet (by its
 * resolved path): for runner_setup.c and runner_files.c. */
static inline unsigned runner_add_target(struct phase_stats *out, const struct target_info *ti)
{
    for (unsigned i = 0; i < out->ntargets; i++)
        if (strcmp(out->targets[i].resolved, ti->resolved) == 0)
            return i;
    out->targets[out->ntargets] = *ti;
    return out->ntargets++;
}

/* worker_files.c: a file-set worker's files (each its own generator over
 * its own region) and file_service_type's choice of the file of each I/O.
 * wfiles_next draws the next I/O: its job-local target, the offset in it
 * and the direction and size; false when the worker's last pass over all
 * of its files is over. No allocation after wfiles_setup. */
/* worker_zbd.c: fio's zonemode=zbd for a worker on one zoned device.
 * wzbd_setup reads the zones (BLKREPORTZONE) and resets those fio resets at
 * the start, or joins the zone set of an earlier worker of the phase on the
 * same device; wzbd_next draws and places the next I/O and moves the write
 * pointer (1; 0 when the job is done; -1 when its zone is busy: complete
 * I/O first); wzbd_unqueued takes a placed write back (the engine did not
 * take it); wzbd_completed follows the completions; wzbd_free ends it. */
int wzbd_setup(struct worker *w, const struct job_spec *j, const struct job_setup *js, char *err,
               size_t errlen);
int wzbd_next(struct worker *w, struct gen_io *io);
void wzbd_unqueued(struct worker *w, const struct io_req *r);
void wzbd_completed(struct worker *w, const struct io_req *r);
void wzbd_free(struct worker *w);
int wfiles_setup(struct worker *w, const struct job_spec *j, const struct job_setup *js, char *err,
                 size_t errlen);
bool wfiles_next(struct worker *w, struct gen_io *io, unsigned *target, uint64_t *off);
void wfiles_free(struct worker *w);
/* The target of the worker's last write (fio fsyncs that file), and
 * whether target is one of the worker's files (end_fsync). */
unsigned wfiles_last_write(const struct worker *w);
bool wfiles_serves(const struct worker *w, unsigned target);
/* For verify: the worker's files (k < wfiles_count: its target, region
 * start and length), the file of the last I/O drawn, the loop number. */
unsigned wfiles_count(const struct worker *w);
void wfiles_file(const struct worker *w, unsigned k, unsigned *target, uint64_t *start, uint64_t *len);
unsigned wfiles_last_index(const struct worker *w);
unsigned wfiles_loop(const struct worker *w);
/* One interval buffer of a worker: [ntouch] clean statistics (NULL when out
 * of memory). */
struct io_stats *runner_new_ibuf(unsigned ntouch);

/* The host's CPU shares over one interval, for its journal row. */
struct runner_row_host {
    double busy_pct, steal_pct, iowait_pct;
    double device_temp_c;        /* highest temperature of the device targets, NAN: not sampled */
};

/* runner_device.c: identity and health of the phase's block-device targets
 * before the load (and their temperature sensors opened), the sample of an
 * interval, and the readings after the load (sensors closed). */
struct runner_devices;
struct runner_devices *runner_devices_before(struct phase_stats *out, uint64_t step_ns);
double runner_devices_sample(struct runner_devices *rd, struct phase_stats *out);
void runner_devices_after(struct runner_devices *rd, struct phase_stats *out);

/* runner_collect.c: merges every worker's interval k once all of them have
 * handed it over (or finished): 1 when merged, 0 when not ready, -1 when
 * all is done. */
int runner_collect(struct phase_run *run, struct phase_stats *out, unsigned k,
                   struct io_stats *ivjobs, struct io_stats *ivall, uint64_t *t_end_rel,
                   unsigned *late);
/* One journal row of interval statistics s. */
void runner_stream_row(FILE *f, const struct io_stats *s, uint64_t t_ms, double secs,
                       uint64_t stalled_ns, const struct runner_row_host *h, unsigned late);

/* runner_kstat.c: the device's counters now, and a <- b - a. */
void runner_read_kstat(const struct target_info *ti, struct kernel_stats *k);
void runner_kstat_delta(struct kernel_stats *a, const struct kernel_stats *b);

#endif
