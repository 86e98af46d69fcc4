/* worker.c - the worker loop: generate -> submit -> reap -> record.
 *
 * One thread per worker, one engine per thread. Per I/O the loop draws the
 * next (direction, size, offset), maps it onto a target, stages it, and after
 * one engine call records every completion: a histogram add and a few
 * counters in the worker's own interval buffer. Time stamps: one clock read
 * right before each submitting call (shared by the requests it submits) and
 * one after each reaping call (shared by the completions it returns), so the
 * recorded latency is submission -> observed completion. When slat is
 * measured, asynchronous engines submit in a call of their own and one more
 * clock read at its return splits that latency into slat and clat. Paced jobs also
 * record scheduled time -> completion, so a stalled device cannot hide in the
 * gap between when an I/O should have been issued and when it was.
 */
#include <errno.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <unistd.h>

#include "base/clock.h"
#include "base/poisson.h"
#include "runner/runner_int.h"
#include "runner/worker_verify.h"
#include "runner/worker_vasync.h"
#include "runner/worker_sched.h"
#include "runner/worker_offload.h"
#include "runner/worker_prio.h"
#include "base/signal.h"
#include "stats/iolog.h"
#include "runner/worker_vstate.h"

static void fill_buffer(struct worker *w, void *buf, size_t len)
{
    const struct job_spec *job = w->job;
    uint64_t *p = buf;
    if (wbuf_active(job)) { /* fio's pattern, compression layout, dedupe */
        wbuf_fill(w, buf, len);
        return;
    }
    switch (job->buffer) {
    case BUF_ZERO:
        memset(buf, 0, len);
        break;
    case BUF_RANDOM:
        for (size_t i = 0; i < len / 8; i++)
            p[i] = rng_next(&w->brng);
        break;
    case BUF_COMPRESSIBLE: {
        /* Within each 512 B chunk the first compress_pct percent are zero,
         * the rest random (ACT's compress-pct and fio's
         * buffer_compress_percentage both mean "this share compresses"). */
        size_t zero = 512 * job->compress_pct / 100 / 8;
        for (size_t c = 0; c < len / 8; c += 64) {
            for (size_t i = 0; i < 64 && c + i < len / 8; i++)
                p[c + i] = i < zero ? 0 : rng_next(&w->brng);
        }
        break;
    }
    }
}

static bool slot_free(_Atomic unsigned *tag, unsigned consumed)
{
    unsigned held = atomic_load_explicit(tag, memory_order_relaxed);
    return held == RING_NONE || held < consumed;
}

/* Moves the exact counts of interval k (recorded in late) to its lite slot,
 * which enter_interval reserved, and zeroes them in late (the histograms
 * stay there). */
static void save_lite(struct worker *w, unsigned k)
{
    struct lite_counts *lc = &w->lite[(size_t)(k % WORKER_LITE) * w->map.ntouch];
    for (unsigned t = 0; t < w->map.ntouch; t++) {
        struct io_stats *s = &w->late[t];
        for (int d = 0; d < DIR_COUNT; d++) {
            lc[t].ios[d] = s->dir[d].ios;
            lc[t].bytes[d] = s->dir[d].bytes;
            lc[t].errors[d] = s->dir[d].errors;
            s->dir[d].ios = s->dir[d].bytes = s->dir[d].errors = 0;
        }
        lc[t].syncs = s->syncs;
        lc[t].sync_errors = s->sync_errors;
        s->syncs = s->sync_errors = 0;
    }
    atomic_store_explicit(&w->lite_k[k % WORKER_LITE], k, memory_order_relaxed);
}

/* Moves the worker into interval kt: everything before kt is complete
 * (published), and kt's completions go to slot kt % WORKER_RING. That slot
 * is free once the collector has taken what it held, which it always has
 * unless the collector did not run for WORKER_RING - 1 intervals; then kt
 * is recorded into the late buffer (exact counts per interval, histograms
 * handed over with the next interval that gets a slot) and nothing waits.
 * Only a collector that did not run for WORKER_LITE intervals makes the
 * worker wait (counted and reported) rather than put kt's completions into
 * another interval. No lock, no read-modify-write: release stores, acquire
 * loads. */
static void enter_interval(struct worker *w, unsigned kt)
{
    if (w->in_late)
        save_lite(w, w->cur_k);
    atomic_store_explicit(&w->published, kt, memory_order_release);
    unsigned s = kt % WORKER_RING;
    unsigned consumed = atomic_load_explicit(&w->consumed, memory_order_acquire);
    if (!slot_free(&w->ring_k[s], consumed) && !slot_free(&w->lite_k[kt % WORKER_LITE], consumed)) {
        uint64_t t0 = clock_ns();
        do {
            clock_sleep_until(clock_ns() + 200000);
            consumed = atomic_load_explicit(&w->consumed, memory_order_acquire);
        } while (!slot_free(&w->ring_k[s], consumed) &&
                 !slot_free(&w->lite_k[kt % WORKER_LITE], consumed));
        w->ring_wait_ns += clock_ns() - t0;
        w->ring_waits++;
    }
    if (slot_free(&w->ring_k[s], consumed)) {
        /* ring[s] was last written by the collector before its release of
         * consumed, which the acquire above has seen */
        w->cur = w->ring[s];
        w->ring_late[s] = w->in_late;
        if (w->in_late) {
            /* the late intervals' histograms join this one (its counts
             * stay its own) */
            for (unsigned t = 0; t < w->map.ntouch; t++) {
                struct io_stats *l = &w->late[t], *c = &w->cur[t];
                for (int d = 0; d < DIR_COUNT; d++) {
                    if (l->dir[d].lat.n)
                        hist_merge(&c->dir[d].lat, &l->dir[d].lat);
                    if (l->dir[d].sched.n)
                        hist_merge(&c->dir[d].sched, &l->dir[d].sched);
                }
                if (l->sync_lat.n)
                    hist_merge(&c->sync_lat, &l->sync_lat);
                iostats_reset(l);
            }
            w->in_late = false;
        }
        atomic_store_explicit(&w->ring_k[s], kt, memory_order_relaxed);
    } else {
        w->cur = w->late;
        w->in_late = true;
    }
    w->cur_k = kt;
}

/* At the end: a last interval recorded late gets a full slot (the worker
 * waits for it; its I/O is over, so nothing measured waits), so that the
 * late histograms are handed over with it. */
static void finish_late(struct worker *w)
{
    if (!w->in_late)
        return;
    unsigned s = w->cur_k % WORKER_RING;
    while (!slot_free(&w->ring_k[s], atomic_load_explicit(&w->consumed, memory_order_acquire)))
        clock_sleep_until(clock_ns() + 1000000);
    for (unsigned t = 0; t < w->map.ntouch; t++) {
        iostats_merge(&w->ring[s][t], &w->late[t]);
        iostats_reset(&w->late[t]);
    }
    w->ring_late[s] = true;
    w->in_late = false;
    w->cur = w->ring[s];
    atomic_store_explicit(&w->ring_k[s], w->cur_k, memory_order_relaxed);
}

/* Keeps the interval the worker records into equal to the interval the
 * clock (the completion stamp) is in. */
static void worker_tick_slow(struct worker *w, uint64_t now)
{
    struct phase_run *run = w->run;
    if (!w->measuring) {
        if (now < run->measure_start)
            return;
        for (unsigned i = 0; i < w->map.ntouch; i++) {
            for (int d = 0; d < DIR_COUNT; d++)
                w->ramp_ios[d] += w->cur[i].dir[d].ios;
            iostats_reset(&w->cur[i]);
        }
        atomic_store_explicit(&w->ring_k[0], 0, memory_order_relaxed);
        w->cur_k = 0;
        w->measuring = true;
    }
    while (now >= w->boundary && w->boundary < w->last_boundary) {
        w->k_time++;
        w->boundary += run->step_ns;
    }
    if (w->k_time > w->cur_k)
        enter_interval(w, w->k_time);
}

/* Once per round: nothing to do while the stamp is inside the measured
 * interval being recorded (k_time == cur_k holds after every tick). */
static inline void worker_tick(struct worker *w, uint64_t now)
{
    if (__builtin_expect(w->measuring && now < w->boundary, 1))
        return;
    worker_tick_slow(w, now);
}

/* Sleeps until t and notes how late the wake-up came (a stopped or starved
 * process wakes long after t). */
static void worker_sleep_until(struct worker *w, uint64_t t)
{
    clock_sleep_until(t);
    uint64_t now = clock_ns();
    if (now > t && now - t > w->late_wake_ns)
        w->late_wake_ns = now - t;
    if (now > t && now - t > w->run->step_ns && w->nwstall < 4)
        w->wstall[w->nwstall++] = (struct runner_stall){.start_ns = t, .len_ns = now - t};
}

/* fio's error_dump=1 (io_u.c __io_u_log_error): a line on stderr for
 * every failed request, in fio's words. */
static void dump_error(const struct worker *w, const struct io_req *r, int err)
{
    static const char *const dir[] = {"read", "write", "trim", "sync", "datasync"};
    unsigned t = w->map.layout == LAYOUT_JBOD ? w->first_target : r->target;
    fprintf(stderr, "fio: io_u error on file %s: %s: %s offset=%llu, buflen=%llu\n",
            t < w->job->ntargets ? w->job->targets[t] : "?", strerror(err),
            r->op <= IO_OP_FDATASYNC ? dir[r->op] : "?", (unsigned long long)r->off,
            (unsigned long long)(r->op <= IO_OP_TRIM ? r->len : 0));
}

static void note_error(struct worker *w, const struct io_req *r, int err)
{
    if (__builtin_expect(w->job->error_dump, 0))
        dump_error(w, r, err);
    for (unsigned i = 0; i < w->nerr; i++) {
        struct runner_error *e = &w->errs[i];
        if (e->target == r->target && e->err == err && e->op == r->op) {
            e->count++;
            return;
        }
    }
    if (w->nerr < WORKER_LOCAL_ERRORS) {
        struct runner_error *e = &w->errs[w->nerr++];
        e->job = w->job_index;
        e->target = w->map.layout == LAYOUT_JBOD ? w->first_target : r->target;
        e->offset = r->off;
        e->err = err;
        e->op = r->op;
        e->count = 1;
        e->limit = NULL;
    }
}

static inline bool record(struct worker *w, struct io_req *r, uint64_t tc)
{
    struct io_stats *s = &w->cur[w->map.layout == LAYOUT_JBOD ? 0 : r->target];
    uint64_t lat = tc > r->t_submit ? tc - r->t_submit : 0;
    if (r->op <= IO_OP_TRIM) {
        struct dir_stats *d = &s->dir[r->op];
        if (r->res == (int32_t)r->len) {
            d->ios++;
            d->bytes += r->len;
            hist_add(&d->lat, lat);
            uint64_t slat = 0;
            if (r->t_issue) {
                /* the same three stamps: slat + clat == lat */
                slat = r->t_issue - r->t_submit;
                if (slat > lat)
                    slat = lat;
                hist_add(&d->slat, slat);
                hist_add(&d->clat, lat - slat);
            }
            uint64_t sched = 0;
            if (r->t_sched) {
                sched = tc > r->t_sched ? tc - r->t_sched : 0;
                hist_add(&d->sched, sched);
            }
            if (__builtin_expect(w->prio != NULL, 0) && w->measuring)
                wprio_record(w->prio, r, lat, slat);
            if (__builtin_expect(w->iolog != NULL, 0) && w->measuring) {
                struct iolog_io io = {.tc = tc, .lat = lat, .t_issue = r->t_issue, .slat = slat,
                                      .sched = sched, .paced = r->t_sched != 0, .off = r->off,
                                      .bytes = r->len, .ddir = r->op, .prio = r->ioprio};
                iolog_add(w->iolog, w->run->measure_start + w->job->startdelay_ns, &io);
            }
            return true;
        }
        if (__builtin_expect(w->job->fill_device, 0) && r->op == IO_OP_WRITE &&
            (r->res >= 0 || r->res == -ENOSPC || r->res == -EDQUOT) &&
            !job_error_continues(w->job, false, r->res < 0 ? -r->res : EIO)) {
            /* fill_device: the target is full, the job ends (fio clears
             * the error, unless continue_on_error lets it pass first);
             * none of its bytes count, but fio counts it as issued and
             * prints its error line before it clears the error */
            if (r->res < 0)
                dump_error(w, r, -r->res);
            w->usage.fio_only_ios[DIR_WRITE]++;
            w->filled = true;
            return true;
        }
        d->errors++;
        /* A short transfer has no errno; record it as EIO ("short I/O"). */
        note_error(w, r, r->res < 0 ? -r->res : EIO);
        return false;
    }
    if (r->res == 0) {
        s->syncs++;
        hist_add(&s->sync_lat, lat);
        return true;
    }
    s->sync_errors++;
    note_error(w, r, r->res < 0 ? -r->res : EIO);
    return false;
}

/* fio's update_error_count: an error continue_on_error let pass */
static void error_passed(struct worker *w, int en)
{
    if (!w->usage.errors_passed++)
        w->usage.first_passed = en;
}

/* After a failed request: stop the job unless the runner goes on after
 * errors or fio's continue_on_error / ignore_error let this one pass. */
static void after_error(struct worker *w, const struct io_req *r)
{
    const struct job_spec *job = w->job;
    int en = r->res < 0 ? -r->res : EIO;
    if (job->continue_on_error && job_error_continues(job, r->op == IO_OP_READ, en))
        error_passed(w, en);
    else if (w->run->opts->stop_on_error)
        atomic_store(&w->run->job_stop[w->job_index], 1);
}

/* fio's handle_thinktime() test, after an I/O was issued: a pause is due
 * when thinktime_blocks more I/Os were issued or completed (thinktime_
 * blocks_type) since the last one, or when thinktime_iotime (plus
 * thinktime, as fio counts it) passed since the last pause ended. */
static bool think_due(struct worker *w, uint64_t nrw, uint64_t now)
{
    const struct job_spec *job = w->job;
    bool stall = false;
    if (job->thinktime_iotime_ns) {
        if (now - w->think.last_ns >= job->thinktime_iotime_ns + job->thinktime_ns)
            stall = true;
        else if (!job->thinktime_blocks)
            return false;
    }
    uint64_t b = job->thinktime_issue ? nrw : w->think.completed;
    if (b >= w->think.last_count + (job->thinktime_blocks ? job->thinktime_blocks : 1))
        stall = true;
    if (stall)
        w->think.count_at_due = b;
    return stall;
}

/* The pause itself, once every I/O completed: spin thinktime_spin, sleep
 * the rest, handing intervals over on time. */
static void think_pause(struct worker *w, uint64_t t_end)
{
    const struct job_spec *job = w->job;
    struct phase_run *run = w->run;
    uint64_t t0 = clock_ns();
    uint64_t spin = job->thinktime_spin_ns < job->thinktime_ns ? job->thinktime_spin_ns : job->thinktime_ns;
    while (clock_ns() - t0 < spin)
        ;
    uint64_t until = t0 + job->thinktime_ns;
    for (uint64_t now = clock_ns(); now < until && now < t_end && !signal_received() &&
                                    !atomic_load_explicit(&run->stop, memory_order_relaxed);
         now = clock_ns()) {
        uint64_t b = w->measuring ? w->boundary : run->measure_start;
        worker_sleep_until(w, until < b ? until : b);
        worker_tick(w, clock_ns());
    }
    w->think.last_count = w->think.count_at_due;
    w->think.last_ns = clock_ns();
    w->think.pauses++;
}

/* exitall: a job that ends stops the running jobs of its reporting group
 * (fio's exit_what=group), of its whole phase (stonewall), or those and
 * every later phase (all: the phase records it, the plan stops). */
static void exit_group(struct worker *w)
{
    struct phase_run *run = w->run;
    uint8_t what = w->job->exit_what;
    for (unsigned j = 0; j < run->njobs; j++)
        if (what != JOB_EXIT_GROUP || run->jobs[j].group_id == w->job->group_id)
            atomic_store(&run->job_stop[j], 1);
    if (what == JOB_EXIT_ALL)
        atomic_store(&run->exit_all, 1);
}

/* Picks the next request: a flush when one is due, else the generator's I/O
 * mapped onto a target.
 *
 * Flushes: a worker of a striped or random layout wrote to all of its
 * targets, so a due flush is a round of one flush per target, one per call
 * (sysbench fileio fsyncs every file); *writes_since_sync runs on past
 * `every` to count the round. After every single write (every == 1) only
 * that write's target needs it: the write leaves 1 + its target in
 * *writes_since_sync. */
/* A request from the job's shared source; false when it has no more.
 * *cont: the next request of this worker belongs to the same event. */
static bool prepare_source(struct worker *w, struct io_req *r, bool *cont)
{
    const struct job_spec *job = w->job;
    struct io_source_req q = {0};
    if (!job->source->next(job->source->arg, w->job_worker, &q))
        return false;
    unsigned t = q.target < w->map.ntouch ? q.target : 0;
    r->op = q.op;
    r->len = q.op <= IO_OP_TRIM ? q.len : 0;
    r->off = q.off;
    r->target = (uint16_t)t;
    r->file = (uint16_t)(w->map.layout == LAYOUT_JBOD ? w->first_target : t);
    if (r->op == IO_OP_WRITE && job->refill_buffers && job->buffer != BUF_ZERO)
        fill_buffer(w, r->buf, r->len);
    else if (r->op == IO_OP_WRITE && wbuf_scrambles(job))
        wbuf_scramble(r, clock_ns());
    *cont = q.event_continues;
    return true;
}

/* One finished event (job->source): its time and count. */
static inline void event_done(struct worker *w, uint64_t tc)
{
    uint64_t d = tc > w->ev.start ? tc - w->ev.start : 0;
    hist_add(w->ev.hist, d);
    w->ev.busy_ns += d;
    w->ev.count++;
}

static bool prepare(struct worker *w, struct io_req *r, unsigned *writes_since_sync)
{
    const struct job_spec *job = w->job;
    if (__builtin_expect(w->rp != NULL, 0)) { /* read_iolog: the logged I/O (worker_replay.c) */
        if (!wreplay_next(w, r)) {
            if (wreplay_failed(w))
                w->side_errors++; /* the log could not go on (its message printed) */
            return false;
        }
        if (r->op == IO_OP_WRITE && job->refill_buffers && job->buffer != BUF_ZERO)
            fill_buffer(w, r->buf, r->len);
        else if (r->op == IO_OP_WRITE && wbuf_scrambles(job))
            wbuf_scramble(r, clock_ns());
        return true;
    }
    unsigned every = job->fsync_every ? job->fsync_every : job->fdatasync_every;
    bool jbod = w->map.layout == LAYOUT_JBOD;
    if (every && *writes_since_sync >= every) {
        unsigned t = 0;
        if (jbod) {
            *writes_since_sync = 0;
        } else if (w->map.layout == LAYOUT_FILES) {
            /* fio's file set: the file of the write that made it due */
            t = wfiles_last_write(w);
            *writes_since_sync = 0;
        } else if (every == 1) {
            t = *writes_since_sync - 1;
            *writes_since_sync = 0;
        } else {
            t = *writes_since_sync - every;
            *writes_since_sync = t + 1 < w->map.ntouch ? *writes_since_sync + 1 : 0;
        }
        r->op = job->fsync_every ? IO_OP_FSYNC : IO_OP_FDATASYNC;
        r->len = 0;
        r->off = 0;
        r->target = (uint16_t)t;
        r->file = (uint16_t)(jbod ? w->first_target : t);
        return true;
    }
    struct gen_io io;
    unsigned ft = 0;
    uint64_t foff = 0;
    if (w->map.layout == LAYOUT_FILES) {
        /* fio's file set: the file first, then its own generator */
        if (!wfiles_next(w, &io, &ft, &foff))
            return false;
    } else if (__builtin_expect(w->zbd.on, 0)) {
        if (wzbd_next(w, &io) <= 0)
            return false; /* done, or w->zbd_wait: the zone's write is in flight */
    } else if (!(w->zone.on ? zone_walk_next(&w->zone, &w->gen, w->map.region_start, &io)
                            : gen_next(&w->gen, &io)))
        return false; /* the last pass over the region is done */
    r->op = io.dir;
    r->len = io.len;
    switch (w->map.layout) {
    case LAYOUT_FILES:
        r->target = (uint16_t)ft;
        r->file = (uint16_t)ft;
        r->off = foff;
        break;
    case LAYOUT_JBOD:
        r->target = 0;
        r->file = (uint16_t)w->first_target;
        r->off = w->map.region_start + io.off;
        if (w->map.segs.n)
            r->off = ar_segment_map(&w->map.segs, r->off);
        break;
    case LAYOUT_STRIPE: {
        unsigned t;
        uint64_t toff;
        stripe_map(&w->map.stripe, w->map.region_start + io.off, &t, &toff);
        r->target = (uint16_t)t;
        r->file = (uint16_t)t;
        r->off = toff;
        break;
    }
    case LAYOUT_RANDOM: {
        unsigned t = (unsigned)rng_below(&w->brng, w->map.ntouch);
        r->target = (uint16_t)t;
        r->file = (uint16_t)t;
        r->off = w->map.region_start + io.off;
        break;
    }
    }
    if (io.dir == DIR_WRITE) {
        if (every == 1 && !jbod && w->map.layout != LAYOUT_FILES)
            *writes_since_sync = 1u + r->target;
        else
            (*writes_since_sync)++;
        if (__builtin_expect(w->vf != NULL, 0)) /* recorded and filled by the caller (verify_staged) */
            w->vf->roff = w->map.layout == LAYOUT_FILES ? wverify_file_roff(w, wfiles_last_index(w), io.off) : io.off;
        else if (job->refill_buffers && job->buffer != BUF_ZERO)
            fill_buffer(w, r->buf, r->len);
        else if (wbuf_scrambles(job))
            wbuf_scramble(r, clock_ns());
    }
    return true;
}

/* fio's bucket of a submitting or reaping call that handled n I/Os: 0,
 * 1-4, 5-8, 9-16, 17-32, 33-64, more. */
static inline unsigned depth_bucket(unsigned n)
{
    if (n == 0)
        return 0;
    unsigned b = 1;
    for (unsigned lim = 4; b < RUNNER_DEPTH_BUCKETS - 1 && n > lim; lim *= 2)
        b++;
    return b;
}

/* A read of a verify job completed: checked (read-only jobs against the
 * block's own header, read-back reads against the table); a bad block is
 * an EILSEQ error of the job, as fio reports it, and verify_fatal stops it. */
static void verify_failed(struct worker *w, const struct io_req *r)
{
    const struct job_spec *job = w->job;
    note_error(w, r, EILSEQ);
    /* fio: a bad block ends the job unless continue_on_error lets its
     * class (verify) pass; verify_fatal ends it even then */
    bool passes = job->continue_on_error && job_error_continues(job, true, EILSEQ);
    if (job->verify_fatal || (w->run->opts->stop_on_error && !passes))
        atomic_store(&w->run->job_stop[w->job_index], 1);
    if (passes && !job->verify_fatal)
        error_passed(w, EILSEQ);
}

static void verify_completed(struct worker *w, struct io_req *r, bool readback)
{
    bool good = readback ? wverify_done(w, r) : wverify_read_done(w, r);
    if (!good)
        verify_failed(w, r);
}

static inline bool verify_async_on(const struct worker *w)
{
    return w->vf != NULL && w->vf->va != NULL;
}

/* verify_async: the reads the threads have checked come back, counted as
 * the worker's own check counts them, their slots free again; with wait,
 * at least one while any is out. Returns how many. */
static unsigned verify_collect(struct worker *w, bool wait)
{
    unsigned n = 0;
    struct io_req *r;
    bool good;
    while (wvasync_take(w, wait && !n, &r, &good)) {
        if (!good)
            verify_failed(w, r);
        w->free_slots[w->nfree++] = r;
        n++;
    }
    return n;
}

/* verify_async: every read handed over checked and back. */
static void verify_drain(struct worker *w)
{
    while (verify_async_on(w) && wvasync_out(w))
        verify_collect(w, true);
}

/* A write (or a trimwrite's trim) about to be staged, of a verify job:
 * recorded and filled, or held back (false) when it begins a pass whose
 * predecessor is checked first (a trim of the next pass would otherwise
 * trim a block before it is read back). */
static bool verify_staged(struct worker *w, struct io_req *r)
{
    if (wverify_pass_over(w, r))
        return false;
    if (r->op == IO_OP_WRITE)
        wverify_write(w, r, w->vf->roff, true);
    return true;
}

/* verify_only: the job's offsets and sizes are generated as if written
 * (the same seed gives the same blocks and write numbers), nothing is
 * written, and the verify phase checks them. */
/* fio counts each I/O of its dry run as the job's (do_dry_run: issued,
 * its bytes done, at depth 1) */
static void dry_counted(struct worker *w, int dir, uint64_t len)
{
    w->usage.fio_only_ios[dir]++;
    w->usage.fio_only_bytes[dir] += len;
    if (w->measuring)
        w->usage.depth_level[runner_depth_level(1)]++;
}

static void verify_replay(struct worker *w)
{
    uint64_t issued = 0;
    struct io_req fake = {0};
    struct gen_io io;
    for (;;) {
        /* fio's dry run makes its trims of written blocks too, so it knows
         * which read back as zeros */
        if (w->vf->vt && wverify_trim_next(w, &fake)) {
            wverify_completed_op(w, IO_OP_TRIM);
            dry_counted(w, DIR_TRIM, fake.len);
            continue;
        }
        unsigned ft;
        uint64_t foff;
        if ((w->job->io_limit && issued >= w->job->io_limit) ||
            !(w->map.layout == LAYOUT_FILES ? wfiles_next(w, &io, &ft, &foff) : gen_next(&w->gen, &io)))
            break;
        if (w->map.layout == LAYOUT_FILES)
            io.off = wverify_file_roff(w, wfiles_last_index(w), io.off);
        issued += io.len;
        if (w->vf->vt)
            wverify_completed_op(w, io.dir);
        if (io.dir != DIR_WRITE) {
            dry_counted(w, io.dir, io.len);
            continue;
        }
        /* verify_state_load: only the writes the state file says were done */
        if (w->vf->state_loaded && w->vf->seq >= w->vf->state_writes)
            break;
        dry_counted(w, DIR_WRITE, io.len);
        fake.len = io.len;
        /* with loops only the last pass is on the device: it is checked
         * once, with seeds and sequence numbers (fio checks every pass
         * against the data there, without them) */
        wverify_write(w, &fake, io.off, false);
    }
}

/* Reads back the blocks of the table (backlog: one verify_backlog round)
 * through the worker's engine, up to its depth, and checks each as it
 * completes. The reads are the job's reads in the statistics, as in fio. */
static uint64_t verify_phase(struct worker *w, bool backlog, uint64_t t_end)
{
    struct phase_run *run = w->run;
    const struct engine_ops *ops = w->eng.ops;
    struct io_req **staged = w->staged;
    unsigned inflight = 0;
    uint64_t issued = 0;
    bool more = true;
    wverify_round_start(w, backlog);
    bool async = verify_async_on(w);
    for (;;) {
        if (async)
            verify_collect(w, false);
        uint64_t now = clock_ns();
        if (signal_received() || atomic_load_explicit(&run->stop, memory_order_relaxed) ||
            atomic_load_explicit(&run->job_stop[w->job_index], memory_order_relaxed) ||
            (!backlog && now >= t_end))
            more = false;
        unsigned nstaged = 0;
        while (more && w->nfree) {
            struct io_req *r = w->free_slots[w->nfree - 1];
            if (!wverify_next(w, r, backlog)) {
                more = false;
                break;
            }
            if (ops->queue(&w->eng, r) < 0) {
                more = false;
                break;
            }
            w->nfree--;
            if (__builtin_expect(w->wlog != NULL, 0))
                wlog_io(w, r, now); /* fio's write_iolog has the verify reads too */
            staged[nstaged++] = r;
            inflight++;
            issued++;
        }
        if (!inflight) {
            if (async && wvasync_out(w)) { /* the last checks of the round */
                verify_collect(w, true);
                continue;
            }
            break;
        }
        uint64_t ts = tsc_clock_ns(&w->clk);
        for (unsigned i = 0; i < nstaged; i++)
            staged[i]->t_submit = ts;
        /* fio's iodepth_level counts the verify reads too */
        if (w->measuring && nstaged)
            w->usage.depth_level[runner_depth_level(inflight)] += nstaged;
        uint64_t wake = w->measuring ? w->boundary : run->measure_start;
        int n = ops->run(&w->eng, 1, wake > ts ? wake - ts : 1, w->done, w->depth);
        uint64_t tc = tsc_clock_ns(&w->clk);
        tsc_clock_tick(&w->clk, tc);
        if (n < 0) {
            struct io_req fake = {.op = IO_OP_READ, .target = 0};
            note_error(w, &fake, -n);
            atomic_store(&run->job_stop[w->job_index], 1);
            break;
        }
        worker_tick(w, tc);
        for (int i = 0; i < n; i++) {
            struct io_req *r = w->done[i];
            wverify_completed_op(w, r->op); /* fio's last_ddir (trims, verify_backlog) */
            inflight--;
            if (record(w, r, tc)) {
                if (async) { /* its slot comes back with its check */
                    wvasync_hand(w, r, true);
                    continue;
                }
                verify_completed(w, r, true);
            } else if (run->opts->stop_on_error) {
                atomic_store(&run->job_stop[w->job_index], 1);
            }
            w->free_slots[w->nfree++] = r;
        }
    }
    return issued;
}

/* fio's rate floors and latency limits (rate_floor.h): a failed limit
 * prints fio's line, is recorded as an error of the job and stops it. */
static void floor_fail(struct worker *w, const struct io_req *r, int err, const char *msg)
{
    fprintf(stderr, "%s\n", msg); /* fio's own words (rate_floor.c) */
    note_error(w, r, err);
    for (unsigned i = 0; i < w->nerr; i++)
        if (w->errs[i].err == err && w->errs[i].op == r->op && !w->errs[i].limit)
            w->errs[i].limit = w->floor.broken;
    atomic_store(&w->run->job_stop[w->job_index], 1);
}

/* After a successful read or write: its latency against the limits, and
 * the completed counts for the floors (measured part only). */
static void floor_completion(struct worker *w, const struct io_req *r, uint64_t tc)
{
    struct rate_floor *f = &w->floor;
    if (!w->measuring)
        return;
    if (!f->start_ns)
        rate_floor_start(f, tc);
    f->done_bytes[r->op] += r->len;
    f->done_ios[r->op]++;
    if (!f->lat_on)
        return;
    char msg[RATE_FLOOR_MSG];
    uint64_t lat = tc > r->t_submit ? tc - r->t_submit : 0;
    const struct job_spec *job = w->job;
    unsigned t = w->map.layout == LAYOUT_JBOD ? w->first_target : r->target;
    const char *path = w->eng.ops->needs_files && t < job->ntargets ? job->targets[t] : "(null engine)";
    int err = rate_floor_complete(f, job, r->op, lat, path, r->off, r->len, msg, sizeof(msg));
    if (err)
        floor_fail(w, r, err, msg);
}

/* After a round of completions: the rate floors and the depth search. */
static void floor_round(struct worker *w, uint64_t now)
{
    struct rate_floor *f = &w->floor;
    if (!w->measuring || !f->start_ns)
        return;
    char msg[RATE_FLOOR_MSG];
    if (f->rate_on && !atomic_load_explicit(&w->run->job_stop[w->job_index], memory_order_relaxed) &&
        rate_floor_check(f, w->job, now, f->done_bytes, f->done_ios, msg, sizeof(msg))) {
        struct io_req fake = {.op = f->done_ios[DIR_READ] ? IO_OP_READ : IO_OP_WRITE, .target = 0};
        floor_fail(w, &fake, EIO, msg);
    }
    rate_floor_step(f, w->job, now, f->done_ios[DIR_READ] + f->done_ios[DIR_WRITE] + f->done_ios[DIR_TRIM]);
}

static uint64_t min3(uint64_t a, uint64_t b, uint64_t c)
{
    uint64_t m = a < b ? a : b;
    return m < c ? m : c;
}

/* fio's limits of a job, and the loop's counts against them: bytes issued
 * (io_size, and a pass over the region), requests (number_ios with
 * flushes) and reads, writes and trims (number_ios); 0 = no limit. */
struct loop_limits {
    uint64_t io_limit, ios_limit, rw_limit;
    uint64_t issued, nreq, nrw;
};

static inline bool limits_reached(const struct loop_limits *l)
{
    return (l->io_limit && l->issued >= l->io_limit) || (l->ios_limit && l->nreq >= l->ios_limit) ||
           (l->rw_limit && l->nrw >= l->rw_limit);
}

/* rate_iops pacing: the absolute schedule start + n x period, so a late
 * worker catches up instead of drifting; rate_burst > 1 issues slots in
 * groups on the same schedule (ACT's service threads all wake together),
 * rate_process=poisson draws exponential gaps from the job's seed. */
struct loop_pace {
    bool on;
    bool poisson;
    double period;
    uint64_t burst;
    uint64_t start, nsched, next_sched;
    struct rng prng;
    bool rp;                     /* read_iolog: the log's gaps (worker_replay.c wreplay_due) */
};

/* thinktime: a pause is due; no more I/O is issued until it is over */
struct loop_think {
    bool on, due;
};

/* The I/O loop's state (worker_loop and its steps). The completion stamp
 * of one round is the "now" of the next: one clock read per submission
 * batch and one per reap batch, none besides. */
struct loop {
    const struct engine_ops *ops;
    uint64_t now, t_end;
    unsigned inflight, nstaged;  /* staged: this round's, in w->staged */
    unsigned writes_since_sync, batch_min;
    unsigned batch_submit;       /* iodepth_batch_submit: I/Os staged per submission; 0 = all free slots */
    unsigned batch_max;          /* iodepth_batch_complete_max: completions taken per reap */
    bool batch_held;             /* this round's admission stopped at batch_submit */
    bool fio_q;                  /* fio's queue (job->fio_queue): a queue not full is not reaped, a
                                    full one down to low, the last I/Os in one reap */
    unsigned low;                /* iodepth_low (fio's low-water mark; the depth when not given) */
    bool draining;               /* fio_q: a full queue is being reaped down to low */
    bool stopping;
    bool slat_on;                /* slat apart: asynchronous engines, when asked or logged (job.h) */
    bool src, inline_flush;      /* a shared request source (sysbench); its flushes called directly */
    bool verify_writes;
    bool vtrim;                  /* verify trims written blocks (trim_backlog; worker_verify.h) */
    bool vbacklog;               /* verify_backlog without trims: fio's choice before each I/O */
    bool holds;                  /* latency_target or verify_backlog may hold the next I/O back */
    bool flow_held;              /* fio's flow: ahead of its share, this round issued nothing more */
    bool plain;                  /* none of the per-I/O features below: loop_admit_plain */
    bool plain_done;             /* nor of the completion's: loop_complete_plain */
    bool write_fill;             /* a write's buffer is refilled or scrambled */
    struct loop_limits lim;
    struct loop_pace pace;
    struct loop_think tt;
};

static void loop_init(struct worker *w, struct loop *ls, uint64_t start)
{
    const struct job_spec *job = w->job;
    struct phase_run *run = w->run;
    memset(ls, 0, sizeof(*ls));
    ls->ops = w->eng.ops;
    ls->t_end = job->runtime_ns ? run->measure_start + job->startdelay_ns + job->runtime_ns : UINT64_MAX;
    ls->lim = (struct loop_limits){.io_limit = w->io_limit_own ? w->io_limit_own : job->io_limit,
                                   .ios_limit = job->ios_limit, .rw_limit = job->rw_ios_limit};
    ls->tt.on = job->thinktime_ns > 0;
    w->think.last_ns = start;
    struct loop_pace *p = &ls->pace;
    p->on = job->rate_iops > 0;
    p->start = p->next_sched = start;
    if (p->on) {
        p->period = 1e9 / job->rate_iops;
        p->burst = job->rate_burst > 1 ? job->rate_burst : 1;
        p->poisson = job->rate_poisson;
        rng_seed(&p->prng, job->seed ^ 0x5052415445ull ^ (0x9e3779b97f4a7c15ull * (w->job_worker + 1)));
    }
    if (w->rp && !job->replay_no_stall) { /* read_iolog: at the logged gaps, as fio sleeps them */
        p->on = true;
        p->rp = true;
        p->next_sched = wreplay_begin(w, start);
    }
    ls->batch_min = job->iodepth_batch_complete_min ? job->iodepth_batch_complete_min : 1;
    ls->batch_submit = job->iodepth_batch_submit < w->depth ? job->iodepth_batch_submit : 0;
    ls->batch_max = job->iodepth_batch_complete_max && job->iodepth_batch_complete_max < w->depth
                        ? job->iodepth_batch_complete_max : w->depth;
    if (job->fio_queue && !job->iodepth_batch_complete_max) /* fio: not given, the min */
        ls->batch_max = ls->batch_min;
    if (ls->batch_min > ls->batch_max) /* fio: the max is raised to the min */
        ls->batch_max = ls->batch_min < w->depth ? ls->batch_min : w->depth;
    /* fio's queue (backend.c do_io, wait_for_completions): I/Os are
     * submitted without reaping until every slot is busy, a full queue is
     * reaped until no more than iodepth_low are in flight, and what is
     * left at the end is taken in one reap. For open-loop jobs and an
     * engine that submits apart (ops->submit); fio's null and posixaio
     * engines take every completion, whatever the max. */
    ls->low = job->iodepth_low && job->iodepth_low < w->depth ? job->iodepth_low : w->depth;
    ls->fio_q = (job->fio_queue || job->iodepth_low) && ls->ops->submit && !ls->pace.on && !ls->tt.on &&
                job->source == NULL && !job->submit_offload && !w->flow && !w->floor.target_on && !w->uel.on &&
                !(w->vf && job_rw_writes(job));
    if ((job->fio_queue || job->iodepth_low) && (job->engine == ENGINE_NULL || job->engine == ENGINE_POSIXAIO))
        ls->batch_max = w->depth;
    if (ls->fio_q && job->engine == ENGINE_NULL)
        ls->fio_q = false; /* fio's null refuses an I/O while one is unreaped: each batch is reaped at once */
    ls->slat_on = ls->ops->submit && (job->slat || job->lat_log[0]);
    ls->src = job->source != NULL;
    ls->inline_flush = ls->src && w->depth > 1;
    ls->verify_writes = w->vf && job_rw_writes(job);
    ls->vtrim = ls->verify_writes && w->vf->vt && !job->verify_only;
    ls->vbacklog = ls->verify_writes && w->vf->fio_backlog && !job->verify_only;
    ls->holds = w->floor.target_on || ls->verify_writes || w->uel.on;
    /* Chosen once: a job with one region on one target (or a random target
     * per I/O), without pacing, thinktime, flushes, verify, zones, flow,
     * a write log, a replayed log or cmdprio, is admitted
     * and completed by the short loops (the same requests, stamps and
     * records, without testing each feature per I/O). */
    ls->plain = !ls->pace.on && !ls->tt.on && !ls->holds && !ls->src && !w->vf && !w->flow &&
                !w->wlog && !w->rp && !w->prio && !w->zbd.on && !w->zone.on && !job->fsync_every && !job->fdatasync_every &&
                (w->map.layout == LAYOUT_JBOD ? !w->map.segs.n : w->map.layout == LAYOUT_RANDOM);
    ls->write_fill = (job->refill_buffers && job->buffer != BUF_ZERO) || wbuf_scrambles(job);
    ls->plain_done = ls->plain && !w->floor.rate_on && !w->floor.lat_on && !ls->slat_on && !w->iolog;
    w->last_boundary = ls->t_end;
}

/* Whether the loop stops issuing: the end of the runtime (rate_complete:
 * past it, the I/Os scheduled before it are still issued, a late worker
 * catches up), a signal, a phase or job stop, a limit, a full target
 * (fill_device) or a failed rate floor. */
static inline bool loop_stop_due(const struct worker *w, const struct loop *ls)
{
    const struct phase_run *run = w->run;
    bool past_end = ls->now >= ls->t_end &&
                    !(w->job->rate_complete && ls->pace.on && ls->pace.next_sched < ls->t_end);
    return past_end || signal_received() || atomic_load_explicit(&run->stop, memory_order_relaxed) ||
           atomic_load_explicit(&run->job_stop[w->job_index], memory_order_relaxed) ||
           limits_reached(&ls->lim) || w->filled || w->floor.done;
}

/* Pacing, before the next I/O: false while its scheduled time has not
 * come, or when the loop stops (rate_complete's end, or a lag past
 * max_lag: every job stops); else its scheduled time in *tsched. */
static bool pace_admit(struct worker *w, struct loop *ls, uint64_t *tsched)
{
    struct loop_pace *p = &ls->pace;
    struct phase_run *run = w->run;
    if (p->rp)
        p->next_sched = wreplay_due(w, ls->now);
    if (p->next_sched > ls->now)
        return false;
    /* a late worker catching up past the end issues what was
     * scheduled before it, not what came due since */
    if (w->job->rate_complete && p->next_sched >= ls->t_end) {
        ls->stopping = true;
        return false;
    }
    *tsched = p->next_sched;
    uint64_t lag = ls->now - *tsched;
    if (lag > w->max_lag_ns)
        w->max_lag_ns = lag;
    if (run->opts->max_lag_ns && lag > run->opts->max_lag_ns) {
        atomic_store(&run->lagged, 1);
        atomic_store(&run->stop, 1);
        ls->stopping = true;
        return false;
    }
    return true;
}

/* Pacing, after an I/O was queued: its successor's scheduled time. */
static inline void pace_advance(struct worker *w, struct loop_pace *p, uint64_t now)
{
    p->nsched++;
    if (p->rp) {
        wreplay_issued(w, now);
        p->next_sched = wreplay_due(w, now);
    } else if (p->poisson)
        p->next_sched += poisson_gap_ns(&p->prng, p->period);
    else
        p->next_sched = p->start + (uint64_t)((double)(p->nsched - p->nsched % p->burst) * p->period);
}

/* latency_target (the search's depth) and verify_backlog (the written
 * blocks are checked first) hold the next I/O back. */
static bool admit_held(struct worker *w, const struct loop *ls)
{
    if (w->floor.target_on && ls->inflight >= rate_floor_depth(&w->floor))
        return true;
    if (w->uel.on && w->uel.due)
        return true; /* unlink_each_loop: the files are made anew first */
    return w->vf != NULL && ls->verify_writes && wverify_hold(w);
}

/* The shared source's next request into r (one per submission, as sysbench
 * issues them): 1 to queue it, 0 when it was a flush done here (sysbench
 * calls fsync() itself in async mode), -1 to stop admitting. */
static int source_take(struct worker *w, struct loop *ls, struct io_req *r)
{
    if (ls->nstaged)
        return -1;
    uint64_t t0 = clock_ns();
    if (!w->ev.open)
        w->ev.start = t0;
    bool cont = false;
    if (!prepare_source(w, r, &cont)) {
        ls->stopping = true;
        return -1;
    }
    w->ev.open = cont;
    if (r->op <= IO_OP_TRIM || !ls->inline_flush)
        return 1;
    r->t_submit = t0;
    int fd = w->fds[r->file];
    int frc = r->op == IO_OP_FSYNC ? fsync(fd) : fdatasync(fd);
    r->res = frc < 0 ? -errno : 0;
    ls->now = clock_ns();
    if (!record(w, r, ls->now))
        after_error(w, r);
    if (!w->ev.open)
        event_done(w, ls->now);
    worker_tick(w, ls->now);
    ls->lim.nreq++; /* counted here: it is not queued */
    return 0;
}

/* After the last I/O of the job (its pass or its limit): fio goes on
 * while written blocks wait for a trim that is due; not after a stop, a
 * signal or the runtime's end. */
static bool vtrim_tail(const struct worker *w, const struct loop *ls)
{
    const struct phase_run *run = w->run;
    return ls->now < ls->t_end && !signal_received() && !atomic_load_explicit(&run->stop, memory_order_relaxed) &&
           !atomic_load_explicit(&run->job_stop[w->job_index], memory_order_relaxed) && !w->filled &&
           !w->floor.done && w->vf->vt->live;
}

/* Admission: fills free slots (paced jobs: only those whose time has come)
 * until a policy holds the next I/O back; an event already begun (a write
 * and its fsync) is finished even when stopping. */
static void loop_admit(struct worker *w, struct loop *ls)
{
    const struct job_spec *job = w->job;
    ls->nstaged = 0;
    ls->flow_held = false;
    ls->batch_held = false;
    /* verify_async: checked reads back; a bad one may stop the job */
    if (__builtin_expect(verify_async_on(w), 0) && verify_collect(w, false) && !ls->stopping &&
        loop_stop_due(w, ls))
        ls->stopping = true;
    while ((!ls->stopping || (ls->src && w->ev.open) || (ls->vtrim && vtrim_tail(w, ls))) && w->nfree &&
           !ls->tt.due) {
        if (__builtin_expect(ls->batch_submit != 0, 0) && ls->nstaged == ls->batch_submit) {
            ls->batch_held = true; /* iodepth_batch_submit: this batch is full */
            break;
        }
        uint64_t tsched = 0;
        if (ls->pace.on && !pace_admit(w, ls, &tsched))
            break;
        struct io_req *r = w->free_slots[w->nfree - 1];
        /* fio's order before each I/O: the backlog check, then a trim of a
         * queued written block (also after the last write, while one is
         * due), then the next I/O */
        bool vtrim = false;
        if (__builtin_expect(ls->vtrim, 0)) {
            if (admit_held(w, ls))
                break;
            /* a trim waits until nothing is in flight, so the write of its
             * block has landed (fio's engines may trim it under the write) */
            if (ls->inflight && wverify_trim_due(w))
                break;
            vtrim = wverify_trim_next(w, r);
            if (!vtrim && ls->stopping)
                break;
        }
        if (!vtrim && limits_reached(&ls->lim))
            break;
        if (__builtin_expect(ls->holds, 0) && !vtrim && admit_held(w, ls))
            break;
        /* verify_backlog: fio's check_get_verify before the next I/O */
        bool vread = __builtin_expect(ls->vbacklog, 0) && !vtrim && wverify_backlog_next(w, r);
        if (__builtin_expect(w->flow != NULL, 0) && wflow_ahead(w)) {
            ls->flow_held = true;
            break;
        }
        if (vtrim || vread) {
            /* a verify trim or a backlog read: r is filled; fio's byte
             * limits count neither */
        } else if (ls->src) {
            int got = source_take(w, ls, r);
            if (got < 0)
                break;
            if (got == 0)
                continue;
        } else if (__builtin_expect(w->vf != NULL, 0) && wverify_take_held(w, r)) {
            /* the first write of a pass, held while the last was checked */
        } else if (__builtin_expect(w->uel.on, 0) && wuel_take_held(w, r)) {
            /* unlink_each_loop: the first write of a pass, held while the files were remade */
        } else if (!prepare(w, r, &ls->writes_since_sync)) {
            if (w->zbd_wait) {
                w->zbd_wait = false; /* zonemode=zbd: wait for a completion */
                break;
            }
            ls->stopping = true;
            break;
        }
        if (__builtin_expect(w->vf != NULL, 0) && !vtrim && !vread &&
            (r->op == IO_OP_WRITE || (r->op == IO_OP_TRIM && ls->verify_writes)) && !verify_staged(w, r))
            break;
        if (__builtin_expect(w->uel.on, 0) && wuel_pass_over(w, r))
            break;
        r->t_sched = tsched;
        if (__builtin_expect(w->prio != NULL, 0))
            wprio_draw(w->prio, r); /* fio's cmdprio (worker_prio.h) */
        if (ls->ops->queue(&w->eng, r) < 0) {
            if (__builtin_expect(w->zbd.on, 0))
                wzbd_unqueued(w, r); /* placed, not taken: its zone's write pointer back */
            break;
        }
        w->nfree--;
        if (__builtin_expect(w->wlog != NULL, 0))
            wlog_io(w, r, ls->now);
        w->staged[ls->nstaged++] = r;
        ls->inflight++;
        ls->lim.nreq++;
        ls->lim.nrw += r->op <= IO_OP_TRIM;
        if (vtrim || vread)
            continue; /* fio's number_ios counts it, its byte limit not */
        ls->lim.issued += r->len;
        if (ls->tt.on && job->thinktime_issue && r->op <= IO_OP_TRIM && think_due(w, ls->lim.nrw, ls->now)) {
            ls->tt.due = true;
            break;
        }
        if (ls->pace.on)
            pace_advance(w, &ls->pace, ls->now);
    }
}

/* A write's buffer, as prepare() fills it: refilled, or scrambled. */
static void write_fill(struct worker *w, struct io_req *r)
{
    const struct job_spec *job = w->job;
    if (job->refill_buffers && job->buffer != BUF_ZERO)
        fill_buffer(w, r->buf, r->len);
    else if (wbuf_scrambles(job))
        wbuf_scramble(r, clock_ns());
}

/* loop_admit for ls->plain: the generator's I/O on the one target (or a
 * random one of the worker's, layout=random), queued until the slots are
 * full, a limit is reached or the pass is over. */
static inline __attribute__((always_inline)) void admit_plain(struct worker *w, struct loop *ls,
                                                              const bool random_target)
{
    const uint64_t base = w->map.region_start;
    const uint16_t file = (uint16_t)w->first_target;
    struct io_req **free_slots = w->free_slots, **staged = w->staged;
    unsigned nfree = w->nfree, nstaged = 0;
    /* limits_reached() before each I/O, as two compares: every request
     * here is a read, write or trim, so nreq and nrw grow together */
    const struct loop_limits *l = &ls->lim;
    uint64_t room_bytes = !l->io_limit ? UINT64_MAX : l->io_limit > l->issued ? l->io_limit - l->issued : 0;
    uint64_t room_n = UINT64_MAX;
    if (l->ios_limit)
        room_n = l->ios_limit > l->nreq ? l->ios_limit - l->nreq : 0;
    if (l->rw_limit && (l->rw_limit > l->nrw ? l->rw_limit - l->nrw : 0) < room_n)
        room_n = l->rw_limit > l->nrw ? l->rw_limit - l->nrw : 0;
    /* iodepth_batch_submit: at most that many per submission (loop_admit's
     * batch_held when free slots are left) */
    if (__builtin_expect(ls->batch_submit != 0, 0) && ls->batch_submit < room_n)
        room_n = ls->batch_submit;
    uint64_t issued = 0;
    while (nfree && nstaged < room_n && issued < room_bytes) {
        struct io_req *r = free_slots[nfree - 1];
        struct gen_io io;
        if (!gen_next(&w->gen, &io)) {
            ls->stopping = true; /* the last pass over the region is done */
            break;
        }
        r->op = io.dir;
        r->len = io.len;
        if (random_target) { /* as prepare(): a uniformly random target per I/O */
            unsigned t = (unsigned)rng_below(&w->brng, w->map.ntouch);
            r->target = (uint16_t)t;
            r->file = (uint16_t)t;
        } else {
            r->target = 0;
            r->file = file;
        }
        r->off = base + io.off;
        r->t_sched = 0;
        if (io.dir == DIR_WRITE && ls->write_fill)
            write_fill(w, r);
        if (ls->ops->queue(&w->eng, r) < 0)
            break;
        nfree--;
        staged[nstaged++] = r;
        issued += io.len;
    }
    w->nfree = nfree;
    ls->nstaged = nstaged;
    if (__builtin_expect(ls->batch_submit != 0, 0)) /* else it stays false (loop_init) */
        ls->batch_held = nstaged == ls->batch_submit && nfree;
    ls->inflight += nstaged;
    ls->lim.issued += issued;
    ls->lim.nreq += nstaged;
    ls->lim.nrw += nstaged;
}

/* (one copy of the loop per layout, so neither tests it per I/O) */
static void loop_admit_plain(struct worker *w, struct loop *ls)
{
    ls->nstaged = 0;
    ls->flow_held = false;
    if (ls->stopping)
        return;
    if (w->map.layout == LAYOUT_RANDOM)
        admit_plain(w, ls, true);
    else
        admit_plain(w, ls, false);
}

enum loop_step { LOOP_NEXT, LOOP_END, LOOP_REAP };

/* Nothing in flight: a verify_backlog round, a thinktime pause, the end,
 * or (paced) a sleep until the next scheduled I/O. LOOP_REAP when I/O is
 * in flight. */
static enum loop_step loop_idle(struct worker *w, struct loop *ls)
{
    struct phase_run *run = w->run;
    if (ls->inflight)
        return LOOP_REAP;
    if (__builtin_expect(verify_async_on(w), 0) && wvasync_out(w)) {
        verify_collect(w, true); /* every slot waits for its check */
        ls->now = clock_ns();
        worker_tick(w, ls->now);
        return LOOP_NEXT;
    }
    if (__builtin_expect(w->vf != NULL, 0) && ls->verify_writes && wverify_hold(w)) {
        bool backlog = !w->vf->pass_due;
        if (!verify_phase(w, backlog, ls->t_end) && backlog)
            wverify_round_empty(w); /* a stop, or nothing to read: the hold ends */
        ls->now = clock_ns();
        return LOOP_NEXT;
    }
    if (__builtin_expect(w->uel.due, 0)) {
        char msg[512];
        if (wuel_renew(w, msg, sizeof(msg)) < 0) { /* an error of the job: it stops */
            fprintf(stderr, "ssdbench: %s\n", msg);
            note_error(w, &w->uel.held, EIO);
            atomic_store(&w->run->job_stop[w->job_index], 1);
            ls->stopping = true;
        }
        return LOOP_NEXT;
    }
    if (ls->tt.due) {
        /* as fio, also after the last I/O (the pause ends early on a
         * signal, a phase stop or the end of the runtime) */
        think_pause(w, ls->t_end);
        ls->tt.due = false;
    } else {
        if (ls->stopping)
            return LOOP_END;
        if (ls->flow_held) {
            /* fio spins without flow_sleep; ssdbench naps 10 us */
            uint64_t nap = w->job->flow_sleep_ns ? w->job->flow_sleep_ns : 10000;
            worker_sleep_until(w, min3(ls->now + nap, w->measuring ? w->boundary : run->measure_start, ls->t_end));
        } else if (ls->pace.on) {
            uint64_t wake = min3(ls->pace.next_sched, w->measuring ? w->boundary : run->measure_start, ls->t_end);
            worker_sleep_until(w, wake);
        }
    }
    ls->now = clock_ns();
    worker_tick(w, ls->now);
    return LOOP_NEXT;
}

/* The round's batch: one clock read stamps it; with slat measured, the
 * submitting call apart and one more read at its return (fio's issue
 * time). False when the submission failed (the job stops). */
static bool loop_submit(struct worker *w, struct loop *ls)
{
    if (!ls->nstaged)
        return true;
    uint64_t ts = tsc_clock_ns(&w->clk);
    for (unsigned i = 0; i < ls->nstaged; i++)
        w->staged[i]->t_submit = ts;
    ls->now = ts;
    if (!ls->slat_on)
        return true;
    int subrc = ls->ops->submit(&w->eng);
    uint64_t ti = tsc_clock_ns(&w->clk);
    if (subrc < 0) {
        struct io_req fake = {.op = IO_OP_READ, .target = 0};
        note_error(w, &fake, -subrc);
        atomic_store(&w->run->job_stop[w->job_index], 1);
        return false;
    }
    for (unsigned i = 0; i < ls->nstaged; i++)
        w->staged[i]->t_issue = ti;
    ls->now = ti;
    return true;
}

/* How long the engine call may wait and for how many completions: none
 * when more can be issued now (the shared source's backlog not full, a
 * paced I/O due), a batch when every slot is busy; never past the next
 * scheduled I/O, the interval's end or the runtime's. */
static void reap_wait(const struct worker *w, const struct loop *ls, unsigned *min_done, uint64_t *timeout)
{
    *min_done = 1;
    *timeout = 0;
    if (ls->stopping)
        return;
    bool paced = ls->pace.on;
    bool submit_only = (ls->src || ls->batch_held) && ls->nstaged && w->nfree;
    if (submit_only)
        *min_done = 0;
    else if (paced && w->nfree && ls->pace.next_sched <= ls->now && !ls->tt.due)
        *min_done = 0;
    else if (!paced && w->nfree == 0)
        *min_done = ls->batch_min < ls->inflight ? ls->batch_min : ls->inflight;
    uint64_t wake = min3(paced && w->nfree ? ls->pace.next_sched : UINT64_MAX,
                         w->measuring ? w->boundary : w->run->measure_start, ls->t_end);
    *timeout = wake > ls->now ? wake - ls->now : 1;
}

/* The shared source's event time after a reap of n (job->source). */
static void source_reaped(struct worker *w, const struct loop *ls, unsigned min_done, int n, uint64_t tc)
{
    if (ls->nstaged && !w->ev.open) {
        if (min_done && n == 0)
            w->ev.wait = true; /* woke for the interval before a slot came free */
        else
            event_done(w, tc);
    } else if (!ls->nstaged && w->ev.wait && n > 0) {
        w->ev.wait = false;
        event_done(w, tc);
    }
}

/* The n completions of a reap at tc: recorded; a limit and verify each see
 * every good one; the slots are free again. */
static void loop_complete(struct worker *w, struct loop *ls, int n, uint64_t tc)
{
    for (int i = 0; i < n; i++) {
        struct io_req *r = w->done[i];
        bool ok = record(w, r, tc);
        /* verify_backlog: the write no longer in flight, fio's last_ddir */
        bool readback = __builtin_expect(ls->vbacklog, 0) && wverify_loop_done(w, r);
        if (!ok) {
            after_error(w, r);
        } else {
            if (__builtin_expect(w->floor.rate_on || w->floor.lat_on, 0) && r->op <= IO_OP_TRIM)
                floor_completion(w, r, tc);
            if (__builtin_expect(w->vf != NULL, 0) && r->op == IO_OP_READ && (!ls->verify_writes || readback)) {
                if (w->vf->va) { /* its slot comes back with its check */
                    wvasync_hand(w, r, readback);
                    ls->inflight--;
                    goto next;
                }
                verify_completed(w, r, readback);
            }
        }
        if (__builtin_expect(ls->vtrim, 0))
            wverify_completed_op(w, r->op);
        if (ls->tt.on)
            w->think.completed += r->op <= IO_OP_TRIM;
        if (__builtin_expect(w->zbd.on, 0))
            wzbd_completed(w, r);
        w->free_slots[w->nfree++] = r;
        ls->inflight--;
    next:;
    }
}

/* loop_complete for ls->plain_done: a good read, write or trim is counted
 * and its latency added as record() does (no slat, no schedule, no log);
 * anything else goes through record(). */
static inline __attribute__((always_inline)) void complete_plain(struct worker *w, struct loop *ls, int n,
                                                                 uint64_t tc, const bool one_target)
{
    struct io_req **done = w->done, **free_slots = w->free_slots;
    unsigned nfree = w->nfree;
    for (int i = 0; i < n; i++) {
        struct io_req *r = done[i];
        if (__builtin_expect(r->op <= IO_OP_TRIM && r->res == (int32_t)r->len, 1)) {
            struct dir_stats *d = &w->cur[one_target ? 0 : r->target].dir[r->op];
            d->ios++;
            d->bytes += r->len;
            hist_add(&d->lat, tc > r->t_submit ? tc - r->t_submit : 0);
        } else {
            w->nfree = nfree; /* record() and after_error() see the worker as it is */
            if (!record(w, r, tc))
                after_error(w, r);
        }
        free_slots[nfree++] = r;
    }
    w->nfree = nfree;
    ls->inflight -= (unsigned)n;
}

static void loop_complete_plain(struct worker *w, struct loop *ls, int n, uint64_t tc)
{
    if (w->map.layout == LAYOUT_JBOD)
        complete_plain(w, ls, n, tc, true);
    else
        complete_plain(w, ls, n, tc, false);
}

/* fio's queue not yet full: the batch submitted, nothing reaped (fio
 * reaps only a full queue); counted as loop_reap counts a submission. */
static bool fio_submit_only(struct worker *w, struct loop *ls)
{
    if (!ls->slat_on) { /* else loop_submit has submitted it */
        int subrc = ls->ops->submit(&w->eng);
        if (subrc < 0) {
            struct io_req fake = {.op = IO_OP_READ, .target = 0};
            note_error(w, &fake, -subrc);
            atomic_store(&w->run->job_stop[w->job_index], 1);
            return false;
        }
    }
    if (w->measuring) {
        w->usage.depth_level[runner_depth_level(ls->inflight)] += ls->nstaged;
        w->usage.submit_calls[depth_bucket(ls->nstaged)]++;
    }
    return true;
}

/* One engine call that submits the batch and reaps, and what follows it.
 * False when the engine failed (the job stops). */
static bool loop_reap(struct worker *w, struct loop *ls)
{
    unsigned min_done;
    uint64_t timeout;
    unsigned max = ls->batch_max;
    bool full = w->nfree == 0;
    if (__builtin_expect(ls->fio_q, 0)) {
        if (ls->nstaged && w->nfree)
            return fio_submit_only(w, ls);
        reap_wait(w, ls, &min_done, &timeout);
        if (ls->stopping && !ls->nstaged) /* fio: what is in flight at the end, in one reap */
            min_done = max = ls->inflight;
        else if (ls->draining) /* the same wait as the reap that found it full */
            min_done = ls->batch_min < ls->inflight ? ls->batch_min : ls->inflight;
        full |= ls->draining;
        ls->draining = false;
    } else {
        reap_wait(w, ls, &min_done, &timeout);
    }
    int n = ls->ops->run(&w->eng, min_done, timeout, w->done, max);
    uint64_t tc = tsc_clock_ns(&w->clk);
    tsc_clock_tick(&w->clk, tc);
    if (n < 0) {
        struct io_req fake = {.op = IO_OP_READ, .target = 0};
        note_error(w, &fake, -n);
        atomic_store(&w->run->job_stop[w->job_index], 1);
        return false;
    }
    /* fio's submit / complete tables: one count per call */
    if (w->measuring) {
        /* fio's iodepth_level: the batch at the depth it makes */
        if (ls->nstaged)
            w->usage.depth_level[runner_depth_level(ls->inflight)] += ls->nstaged;
        if (ls->nstaged)
            w->usage.submit_calls[depth_bucket(ls->nstaged)]++;
        if (n > 0)
            w->usage.complete_calls[depth_bucket((unsigned)n)]++;
    }
    worker_tick(w, tc);
    ls->now = tc;
    if (ls->src)
        source_reaped(w, ls, min_done, n, tc);
    if (ls->plain_done)
        loop_complete_plain(w, ls, n, tc);
    else
        loop_complete(w, ls, n, tc);
    /* "complete" counts what has completed by the end of the call that
     * issued the I/O (fio: a synchronous engine's I/O is complete when
     * its issue returns) */
    if (ls->tt.on && !w->job->thinktime_issue && ls->nstaged && !ls->tt.due && think_due(w, ls->lim.nrw, tc))
        ls->tt.due = true;
    if (__builtin_expect(w->floor.rate_on || w->floor.target_on, 0))
        floor_round(w, tc);
    /* fio: a full queue is reaped until no more than iodepth_low are in
     * flight, one reap after the other */
    if (__builtin_expect(ls->fio_q, 0) && full && n > 0 && ls->inflight > ls->low && !ls->stopping) {
        ls->nstaged = 0;
        ls->draining = true;
        return loop_reap(w, ls);
    }
    return true;
}

/* end_fsync: each of the worker's files flushed once at the end. */
static void end_fsync(struct worker *w)
{
    const struct job_spec *job = w->job;
    const struct engine_ops *ops = w->eng.ops;
    for (unsigned i = 0; i < w->map.ntouch; i++) {
        unsigned file = w->map.layout == LAYOUT_JBOD ? w->first_target : i;
        if (w->wf && !wfiles_serves(w, i))
            continue; /* fio's file set: this worker's own files only */
        /* one-at-a-time engines flush their way (mmap: msync); queueing
         * engines would submit it, so flush directly, as sysbench does */
        if (w->depth == 1 && w->nfree == 1) {
            struct io_req *r = w->free_slots[0];
            r->op = job->end_fdatasync ? IO_OP_FDATASYNC : IO_OP_FSYNC;
            r->len = 0;
            r->off = 0;
            r->target = (uint16_t)i;
            r->file = (uint16_t)file;
            if (ops->queue(&w->eng, r) == 0 && ops->run(&w->eng, 1, 0, w->done, w->depth) == 1 &&
                w->done[0]->res == 0)
                w->end_syncs++;
            continue;
        }
        int fd = w->fds[file];
        if ((job->end_fdatasync ? fdatasync(fd) : fsync(fd)) == 0)
            w->end_syncs++;
    }
}

/* After the loop: the verify state saved, the verify phase, exitall, the
 * last interval handed over, end_fsync. */
static void worker_end(struct worker *w, const struct loop *ls)
{
    const struct job_spec *job = w->job;
    verify_drain(w); /* the loop ended with checks out (an engine error) */
    /* verify_state_save: how far the writes got (runner/worker_vstate.h) */
    if (ls->verify_writes && job->verify_state_save && !job->verify_only) {
        char serr[JOB_PATH_MAX + 160];
        if (wvstate_save(w, ls->inflight, serr, sizeof(serr)) < 0) {
            fprintf(stderr, "ssdbench: %s\n", serr);
            w->side_errors++;
        }
    }
    /* fio: the verify phase after the writes, unless they failed; a
     * time_based job's writes take all of its runtime, so it has none;
     * nor has a fill_device job the full file system stopped (fio ends
     * its thread then) */
    if (ls->verify_writes && job->do_verify && !job->time_based && !w->nerr && !w->filled)
        verify_phase(w, false, ls->t_end);
    if (job->exitall)
        exit_group(w);
    uint64_t tfin = clock_ns();
    worker_tick(w, tfin);
    w->t_finished = tfin;
    if (w->measuring) {
        finish_late(w);
        atomic_store_explicit(&w->published, w->cur_k + 1, memory_order_release);
    }
    if (job->end_fsync && w->eng.ops->needs_files)
        end_fsync(w);
}

/* The I/O loop: per round, the stop test, admission, then (I/O in flight)
 * one submission and one reap; idle rounds pause, sleep or end. */
static void worker_loop(struct worker *w)
{
    struct phase_run *run = w->run;
    const struct job_spec *job = w->job;
    const uint64_t start = run->t0 + job->startdelay_ns;
    w->boundary = run->measure_start + run->step_ns;
    /* While a start delay runs, keep handing over (empty) intervals on time,
     * so the collector is not held up and this worker's first I/Os land in
     * the interval where they happen. */
    for (uint64_t t = clock_ns(); t < start && !signal_received(); t = clock_ns()) {
        worker_tick(w, t);
        uint64_t wake = w->measuring ? w->boundary : run->measure_start;
        worker_sleep_until(w, wake < start ? wake : start);
    }
    struct loop ls;
    loop_init(w, &ls, start);
    ls.now = clock_ns();
    worker_tick(w, ls.now);
    bool replay = ls.verify_writes && job->verify_only;
    if (replay)
        verify_replay(w);
    while (!replay) {
        if (!ls.stopping && loop_stop_due(w, &ls))
            ls.stopping = true;
        if (ls.plain)
            loop_admit_plain(w, &ls);
        else
            loop_admit(w, &ls);
        enum loop_step st = loop_idle(w, &ls);
        if (st == LOOP_END)
            break;
        if (st == LOOP_NEXT)
            continue;
        if (!loop_submit(w, &ls) || !loop_reap(w, &ls))
            break;
    }
    worker_end(w, &ls);
}

void *worker_main(void *arg)
{
    struct worker *w = arg;
    struct phase_run *run = w->run;
    const int *fds = w->fds;
    unsigned nfds = w->eng.ops->needs_files ? (w->map.layout == LAYOUT_JBOD ? w->first_target + 1
                                                                            : w->map.ntouch)
                                            : 0;
    w->eng.slots = w->slots;
    w->eng.depth = w->depth;
    w->eng.flush_writes = w->job->dsync_flush;
    w->eng.uring = w->uel.on && w->job->engine == ENGINE_IO_URING ? &w->uel.uring : &w->job->uring;
    w->eng.sg = &w->job->sg;
    /* Paced workers sleep until each scheduled issue; the default 50 us
     * timer slack would make every issue that late. */
    if (w->job->rate_iops > 0 || w->rp)
        prctl(PR_SET_TIMERSLACK, 1000UL, 0, 0, 0);
    /* fio's cpus_allowed, numa_*, prio/prioclass and nice (worker_sched.c),
     * before the engine is set up, as fio's thread_main: a thread the
     * engine starts (io_submit_mode=offload's submitter) inherits them */
    int rc = wsched_apply(w, w->setup_msg, sizeof(w->setup_msg));
    /* verify_async's threads, started here so they inherit the scheduling */
    if (rc == 0 && w->vf && w->job->verify_async)
        rc = wvasync_start(w, w->setup_msg, sizeof(w->setup_msg));
    /* io_submit_mode=offload: a submitter thread issues the I/O (worker_offload.h) */
    if (rc == 0 && w->job->submit_offload)
        rc = woffload_wrap(&w->eng);
    if (rc == 0)
        rc = w->eng.ops->init(&w->eng, w->depth, fds, nfds, w->iov, w->depth, w->setup_msg,
                              sizeof(w->setup_msg));
    if (rc < 0)
        w->setup_error = rc;
    tsc_clock_init(&w->clk); /* the 1 ms calibration, before the gate */
    runner_gate_arrive(&run->gate);
    struct rusage ru0, ru1;
    bool ru_ok = getrusage(RUSAGE_THREAD, &ru0) == 0;
    if (!run->setup_failed) {
        worker_loop(w);
        wlog_close(w, clock_ns());
    }
    wvasync_stop(w); /* joined whichever way the loop ended */
    wflow_exit(w);
    if (ru_ok && getrusage(RUSAGE_THREAD, &ru1) == 0) {
        struct worker_usage *u = &w->usage;
        u->user_s = (double)(ru1.ru_utime.tv_sec - ru0.ru_utime.tv_sec) +
                    (double)(ru1.ru_utime.tv_usec - ru0.ru_utime.tv_usec) / 1e6;
        u->sys_s = (double)(ru1.ru_stime.tv_sec - ru0.ru_stime.tv_sec) +
                   (double)(ru1.ru_stime.tv_usec - ru0.ru_stime.tv_usec) / 1e6;
        u->ctx = (uint64_t)((ru1.ru_nvcsw - ru0.ru_nvcsw) + (ru1.ru_nivcsw - ru0.ru_nivcsw));
        u->majf = (uint64_t)(ru1.ru_majflt - ru0.ru_majflt);
        u->minf = (uint64_t)(ru1.ru_minflt - ru0.ru_minflt);
    }
    atomic_store_explicit(&w->finished, 1, memory_order_release);
    if (rc == 0)
        w->eng.ops->exit(&w->eng);
    return NULL;
}
