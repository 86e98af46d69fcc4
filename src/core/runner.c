/* runner.c - phase set-up (targets, guard, regions, workers) and the
 * collector that merges interval hand-overs into the phase's statistics.
 * The worker loop itself is in worker.c. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/runner_int.h"
#include "core/signal.h"
#include "stats/iolog.h"

#define DEFAULT_FILE_SIZE (1ull << 30)

const char *const runner_series_fields[] = {
    "t_ms",
    "read_iops", "read_mbps", "read_lat_mean_ns", "read_lat_max_ns", "read_lat_stddev_ns", "read_p99_ns",
    "write_iops", "write_mbps", "write_lat_mean_ns", "write_lat_max_ns", "write_lat_stddev_ns", "write_p99_ns",
    "mean_inflight",
};

unsigned runner_series_nfields(void)
{
    return sizeof(runner_series_fields) / sizeof(runner_series_fields[0]);
}

/* Per job: opened targets and their regions. */
struct job_setup {
    struct target tg[JOB_MAX_TARGETS];
    int fds[JOB_MAX_TARGETS];
    unsigned ntargets;
    uint64_t region_start, region_len; /* in a target (jbod/random) or the striped space */
    struct stripe_map stripe;
};

static uint32_t max_bs(const struct job_spec *j)
{
    uint32_t m = 0;
    for (int d = 0; d < DIR_COUNT; d++)
        for (unsigned i = 0; i < j->bs[d].n; i++)
            if (j->bs[d].bs[i] > m)
                m = j->bs[d].bs[i];
    return m;
}

static unsigned find_or_add_target(struct phase_stats *out, const struct target_info *ti)
{
    for (unsigned i = 0; i < out->ntargets; i++)
        if (strcmp(out->targets[i].resolved, ti->resolved) == 0)
            return i;
    out->targets[out->ntargets] = *ti;
    return out->ntargets++;
}

static int check_alignment(const struct job_spec *j, const struct target_info *ti, uint64_t start,
                           char *err, size_t errlen)
{
    uint32_t lbs = ti->logical_block ? ti->logical_block : 512;
    for (int d = 0; d < DIR_COUNT; d++) {
        if ((d == DIR_READ && !job_rw_reads(j)) || (d == DIR_WRITE && !job_rw_writes(j)))
            continue;
        for (unsigned i = 0; i < j->bs[d].n; i++)
            if (j->bs[d].bs[i] % lbs) {
                snprintf(err, errlen,
                         "%s block size %" PRIu32 " is not a multiple of %s's logical block size %" PRIu32
                         " (needed for O_DIRECT); use a multiple of %" PRIu32 " or --direct=0",
                         d == DIR_READ ? "read" : "write", j->bs[d].bs[i], ti->path, lbs, lbs);
                return -EINVAL;
            }
        if (j->blockalign[d] && j->blockalign[d] % lbs) {
            snprintf(err, errlen,
                     "blockalign %" PRIu32 " is not a multiple of %s's logical block size %" PRIu32
                     " (needed for O_DIRECT)", j->blockalign[d], ti->path, lbs);
            return -EINVAL;
        }
    }
    if (start % lbs) {
        snprintf(err, errlen,
                 "offset %" PRIu64 " is not a multiple of %s's logical block size %" PRIu32
                 " (needed for O_DIRECT)", start, ti->path, lbs);
        return -EINVAL;
    }
    return 0;
}

/* Region [start, start+len) of a space of total bytes, from offset/size or
 * their percentages. */
static int compute_region(const struct job_spec *j, uint64_t total, uint64_t *start, uint64_t *len,
                          char *err, size_t errlen)
{
    uint64_t s = j->offset_pct > 0 ? (uint64_t)((double)total * j->offset_pct / 100.0) : j->offset;
    s &= ~(uint64_t)4095 | (j->offset_pct > 0 ? 0 : 4095); /* percentages land on 4 KiB */
    if (s >= total) {
        snprintf(err, errlen, "job '%s': offset %" PRIu64 " is beyond the end of the target (%" PRIu64
                 " bytes)", j->name, s, total);
        return -EINVAL;
    }
    uint64_t l = j->size_pct > 0 ? (uint64_t)((double)total * j->size_pct / 100.0) : j->size;
    if (j->size_pct > 0)
        l &= ~(uint64_t)4095;
    if (l == 0 || s + l > total)
        l = total - s;
    *start = s;
    *len = l;
    return 0;
}

static int setup_job(const struct job_spec *j, unsigned jidx, const struct runner_opts *opts,
                     struct job_setup *js, struct phase_stats *out, char *err, size_t errlen)
{
    const struct engine_ops *ops = engine_lookup(j->engine);
    bool writes = job_rw_writes(j);
    js->ntargets = 0;
    if (!ops->needs_files) {
        /* The null engine has no target: the region is the job's size. */
        uint64_t size = j->size ? j->size : DEFAULT_FILE_SIZE;
        js->region_start = 0;
        js->region_len = size;
        js->ntargets = 1;
        js->fds[0] = -1;
        struct target_info ti;
        memset(&ti, 0, sizeof(ti));
        snprintf(ti.path, sizeof(ti.path), "(null engine)");
        snprintf(ti.resolved, sizeof(ti.resolved), "(null engine)");
        ti.size = size;
        ti.rotational = -1;
        out->job_target[jidx * JOB_MAX_TARGETS] = find_or_add_target(out, &ti);
        return 0;
    }
    if (j->ntargets == 0) {
        snprintf(err, errlen, "job '%s': no target; give --filename=PATH (a file or a block device)",
                 j->name);
        return -EINVAL;
    }
    for (unsigned i = 0; i < j->ntargets; i++) {
        if (writes) {
            int rc = guard_check_write(j->targets[i], opts->consent, err, errlen);
            if (rc < 0)
                return rc;
        }
        struct target_open_opts oo = {
            .write = writes,
            .direct = j->direct,
            .dsync = j->dsync,
            .osync = j->osync,
            .create_size = j->file_size ? j->file_size : (j->size ? j->size : DEFAULT_FILE_SIZE),
            .fill_random = true,
            .seed = j->seed + i,
        };
        int rc = target_open(&js->tg[i], j->targets[i], &oo, err, errlen);
        if (rc < 0)
            return rc;
        js->ntargets = i + 1;
        js->fds[i] = js->tg[i].fd;
        out->job_target[jidx * JOB_MAX_TARGETS + i] = find_or_add_target(out, &js->tg[i].info);
    }
    uint64_t min_size = UINT64_MAX;
    for (unsigned i = 0; i < js->ntargets; i++)
        if (js->tg[i].info.size < min_size)
            min_size = js->tg[i].info.size;
    uint64_t space = min_size;
    if (j->layout == LAYOUT_STRIPE) {
        int rc = stripe_init(&js->stripe, js->ntargets, j->stripe_chunk, min_size, err, errlen);
        if (rc < 0)
            return rc;
        rc = stripe_check_job(&js->stripe, j, err, errlen);
        if (rc < 0)
            return rc;
        space = stripe_logical_len(&js->stripe);
    }
    int rc = compute_region(j, space, &js->region_start, &js->region_len, err, errlen);
    if (rc < 0)
        return rc;
    if (j->layout == LAYOUT_STRIPE) {
        rc = stripe_check_region(&js->stripe, js->region_start, js->region_len, err, errlen);
        if (rc < 0)
            return rc;
    }
    if (j->direct)
        for (unsigned i = 0; i < js->ntargets; i++) {
            rc = check_alignment(j, &js->tg[i].info, j->layout == LAYOUT_STRIPE ? 0 : js->region_start,
                                 err, errlen);
            if (rc < 0)
                return rc;
        }
    return 0;
}

static int setup_worker(struct worker *w, const struct job_spec *j, const struct job_setup *js,
                        char *err, size_t errlen)
{
    const struct engine_ops *ops = engine_lookup(j->engine);
    w->eng.ops = ops;
    w->depth = j->iodepth ? j->iodepth : 1;
    if (ops->max_depth && w->depth > ops->max_depth)
        w->depth = ops->max_depth;
    w->map.layout = js->ntargets > 1 ? j->layout : LAYOUT_JBOD;
    w->map.ntouch = w->map.layout == LAYOUT_JBOD ? 1 : js->ntargets;
    w->map.region_start = js->region_start;
    w->map.region_len = js->region_len;
    w->map.stripe = js->stripe;
    if (w->map.layout == LAYOUT_JBOD) {
        /* numjobs workers per target; clones shift by offset_increment */
        uint64_t shift = j->offset_increment * w->clone;
        if (shift >= js->region_len) {
            snprintf(err, errlen, "job '%s': offset_increment moves clone %u past the region end",
                     j->name, w->clone);
            return -EINVAL;
        }
        w->map.region_start += shift;
        w->map.region_len -= shift;
    }
    memcpy(w->local_fds, js->fds, sizeof(w->local_fds));
    w->fds = w->local_fds;

    size_t bs = max_bs(j);
    w->bufsize = (bs + 4095) & ~(size_t)4095;
    w->slots = calloc(w->depth, sizeof(*w->slots));
    w->free_slots = calloc(w->depth, sizeof(*w->free_slots));
    w->done = calloc(w->depth, sizeof(*w->done));
    w->iov = calloc(w->depth, sizeof(*w->iov));
    w->ibuf[0] = calloc(w->map.ntouch, sizeof(struct io_stats));
    w->ibuf[1] = calloc(w->map.ntouch, sizeof(struct io_stats));
    if (j->source && !(w->ev_hist = malloc(sizeof(*w->ev_hist)))) {
        snprintf(err, errlen, "out of memory");
        return -ENOMEM;
    }
    if (w->ev_hist)
        hist_init(w->ev_hist);
    if (!w->slots || !w->free_slots || !w->done || !w->iov || !w->ibuf[0] || !w->ibuf[1] ||
        posix_memalign(&w->bufmem, 4096, w->bufsize * w->depth)) {
        snprintf(err, errlen, "out of memory");
        return -ENOMEM;
    }
    for (unsigned t = 0; t < w->map.ntouch; t++) {
        iostats_init(&w->ibuf[0][t]);
        iostats_init(&w->ibuf[1][t]);
    }
    w->cur = w->ibuf[0];
    uint64_t seed = j->seed + 0x9e3779b97f4a7c15ull * (w->clone + 1) + w->first_target * 7919;
    rng_seed(&w->brng, seed ^ 0xb0ffe5ull);
    for (unsigned i = 0; i < w->depth; i++) {
        struct io_req *r = &w->slots[i];
        r->slot = i;
        r->buf = (char *)w->bufmem + i * w->bufsize;
        w->iov[i].iov_base = r->buf;
        w->iov[i].iov_len = w->bufsize;
        w->free_slots[i] = r;
        if (j->buffer == BUF_COMPRESSIBLE || j->buffer == BUF_RANDOM) {
            uint64_t *p = r->buf;
            for (size_t k = 0; k < w->bufsize / 8; k++)
                p[k] = rng_next(&w->brng);
            if (j->buffer == BUF_COMPRESSIBLE)
                for (size_t c = 0; c < w->bufsize; c += 512)
                    memset((char *)r->buf + c, 0, 512 * j->compress_pct / 100);
        } else {
            memset(r->buf, 0, w->bufsize);
        }
    }
    w->nfree = w->depth;
    /* fio numbers its logs by job clone: the worker's place in the phase */
    int lrc = iolog_open(&w->iolog, j, w->run->opts->log_number_base + (unsigned)(w - w->run->workers) + 1, err, errlen);
    if (lrc < 0)
        return lrc;
    return gen_init(&w->gen, j, w->map.region_len, seed, err, errlen);
}

static void free_worker(struct worker *w)
{
    if (w->iolog) {
        char lerr[64];
        iolog_close(w->iolog, w->run->measure_start + w->job->startdelay_ns, w->t_finished, lerr,
                    sizeof(lerr));
    }
    gen_free(&w->gen);
    free(w->slots);
    free(w->free_slots);
    free(w->done);
    free(w->iov);
    free(w->ibuf[0]);
    free(w->ibuf[1]);
    free(w->ev_hist);
    free(w->bufmem);
}

static double mbps(uint64_t bytes, double secs)
{
    return secs > 0 ? (double)bytes / secs / 1e6 : 0;
}

static void stream_row(FILE *f, const struct io_stats *s, uint64_t t_ms, double secs)
{
    fprintf(f, "[%" PRIu64, t_ms);
    double inflight_ns = 0;
    for (int d = 0; d < DIR_COUNT; d++) {
        const struct dir_stats *ds = &s->dir[d];
        fprintf(f, ",%.3f,%.6f,%.1f,%" PRIu64 ",%.1f,%" PRIu64, secs > 0 ? (double)ds->ios / secs : 0,
                mbps(ds->bytes, secs), hist_mean(&ds->lat), ds->lat.n ? ds->lat.max : 0,
                hist_stddev(&ds->lat), hist_percentile(&ds->lat, 99.0));
        inflight_ns += (double)ds->lat.sum;
    }
    fprintf(f, ",%.3f]\n", secs > 0 ? inflight_ns / (secs * 1e9) : 0);
    fflush(f);
}

/* Merges every worker's interval k once all of them handed it over (or
 * finished). Returns 1 when merged, 0 when not ready, -1 when all is done. */
static int collect(struct phase_run *run, struct phase_stats *out, unsigned k,
                   struct io_stats *ivjobs, struct io_stats *ivall, uint64_t *t_end_rel)
{
    bool all_finished = true, any = false;
    uint64_t last_finish = 0;
    for (unsigned i = 0; i < run->nworkers; i++) {
        struct worker *w = &run->workers[i];
        int fin = atomic_load_explicit(&w->finished, memory_order_acquire);
        unsigned pub = atomic_load_explicit(&w->published, memory_order_acquire);
        if (!fin) {
            all_finished = false;
            if (pub <= k)
                return 0;
        } else if (w->t_finished > last_finish) {
            last_finish = w->t_finished;
        }
        if (pub > k)
            any = true;
    }
    if (!any && all_finished)
        return -1;
    for (unsigned j = 0; j < run->njobs; j++)
        iostats_reset(&ivjobs[j]);
    iostats_reset(ivall);
    for (unsigned i = 0; i < run->nworkers; i++) {
        struct worker *w = &run->workers[i];
        if (atomic_load_explicit(&w->published, memory_order_acquire) <= k)
            continue;
        struct job_stats *js = &out->stats[w->job_index];
        for (unsigned t = 0; t < w->map.ntouch; t++) {
            const struct io_stats *s = &w->ibuf[k & 1][t];
            unsigned jt = w->map.layout == LAYOUT_JBOD ? w->first_target : t;
            iostats_merge(&ivjobs[w->job_index], s);
            w->total_ios += s->dir[0].ios + s->dir[1].ios + s->syncs;
            w->total_busy_ns += s->dir[0].lat.sum + s->dir[1].lat.sum + s->sync_lat.sum;
            iostats_merge(&js->total, s);
            iostats_merge(&js->per_target[jt], s);
        }
        atomic_store_explicit(&w->consumed, k + 1, memory_order_release);
    }
    for (unsigned j = 0; j < run->njobs; j++)
        iostats_merge(ivall, &ivjobs[j]);
    uint64_t end = (uint64_t)(k + 1) * run->step_ns;
    if (all_finished && last_finish > run->measure_start && last_finish - run->measure_start < end)
        end = last_finish - run->measure_start;
    *t_end_rel = end;
    return 1;
}

static void read_kstat(const struct target_info *ti, struct kernel_stats *k)
{
    memset(k, 0, sizeof(*k));
    if (ti->kind != TARGET_BLOCK || !ti->devname[0])
        return;
    char p[128];
    snprintf(p, sizeof(p), "/sys/class/block/%s/stat", ti->devname);
    FILE *f = fopen(p, "r");
    if (!f)
        return;
    unsigned long long v[11];
    if (fscanf(f, "%llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2],
               &v[3], &v[4], &v[5], &v[6], &v[7], &v[8], &v[9], &v[10]) == 11) {
        k->valid = true;
        k->read_ios = v[0], k->read_merges = v[1], k->read_sectors = v[2], k->read_ticks_ms = v[3];
        k->write_ios = v[4], k->write_merges = v[5], k->write_sectors = v[6], k->write_ticks_ms = v[7];
        k->io_ticks_ms = v[9];
    }
    fclose(f);
}

static void kstat_delta(struct kernel_stats *a, const struct kernel_stats *b)
{
    if (!a->valid || !b->valid) {
        a->valid = false;
        return;
    }
    a->read_ios = b->read_ios - a->read_ios;
    a->read_merges = b->read_merges - a->read_merges;
    a->read_sectors = b->read_sectors - a->read_sectors;
    a->read_ticks_ms = b->read_ticks_ms - a->read_ticks_ms;
    a->write_ios = b->write_ios - a->write_ios;
    a->write_merges = b->write_merges - a->write_merges;
    a->write_sectors = b->write_sectors - a->write_sectors;
    a->write_ticks_ms = b->write_ticks_ms - a->write_ticks_ms;
    a->io_ticks_ms = b->io_ticks_ms - a->io_ticks_ms;
}

static double cpu_seconds(const struct timeval *tv)
{
    return (double)tv->tv_sec + (double)tv->tv_usec / 1e6;
}

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
        rc = setup_job(jb, j, opts, &setups[j], out, err, errlen);
        if (rc < 0)
            goto done;
        /* fio's rule: a job that is not time_based ends after one pass over
         * its region (times loops) or at runtime, whichever comes first */
        if (!jb->io_limit && !jb->time_based)
            jb->io_limit = setups[j].region_len * (jb->loops ? jb->loops : 1);
        unsigned nt = setups[j].ntargets;
        bool jbod = jb->layout == LAYOUT_JBOD || nt <= 1;
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
        if (!out->stats[j].worker_ios || !out->stats[j].worker_busy_ns) {
            rc = -ENOMEM;
            goto done;
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
        bool jbod = jb->layout == LAYOUT_JBOD || setups[j].ntargets <= 1;
        for (unsigned i = 0; i < out->stats[j].workers; i++) {
            struct worker *w = &run.workers[run.nworkers++];
            w->run = &run;
            w->job = jb;
            w->job_index = j;
            w->clone = jbod ? i % jb->numjobs : i;
            w->first_target = jbod ? i / jb->numjobs : 0;
            w->job_worker = i;
            rc = setup_worker(w, jb, &setups[j], err, errlen);
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
    struct rusage ru0, ru1;
    for (unsigned t = 0; t < out->ntargets; t++)
        read_kstat(&out->targets[t], &out->kstats[t]);
    getrusage(RUSAGE_SELF, &ru0);
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
    while (!run.setup_failed) {
        uint64_t t_end_rel;
        int c = collect(&run, out, k, ivjobs, ivall, &t_end_rel);
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
            uint64_t wake = now + 1000000;
            if (due > now)
                wake = due - now > 20000000 ? now + 20000000 : due;
            clock_sleep_until(wake);
            continue;
        }
        uint64_t t_start_rel = (uint64_t)k * run.step_ns;
        double secs = t_end_rel > t_start_rel ? (double)(t_end_rel - t_start_rel) / 1e9 : 0;
        bool empty = ivall->dir[0].ios + ivall->dir[1].ios + ivall->dir[0].errors +
                         ivall->dir[1].errors == 0;
        if (secs > 0 && !(empty && secs < 1e-3)) {
            if (opts->series)
                stream_row(opts->series, ivall, t_end_rel / 1000000, secs);
            out->nintervals++;
            if (opts->status) {
                struct runner_interval sv = {.index = k, .t_start_ns = t_start_rel,
                                             .t_end_ns = t_end_rel, .njobs = njobs,
                                             .jobs = ivjobs, .all = ivall,
                                             .cumulative = out->stats};
                opts->status(&sv, total_s);
            }
            if (opts->on_interval) {
                struct runner_interval iv = {
                    .index = k, .t_start_ns = t_start_rel, .t_end_ns = t_end_rel,
                    .njobs = njobs, .jobs = ivjobs, .all = ivall, .cumulative = out->stats,
                };
                if (opts->on_interval(opts->arg, &iv)) {
                    out->stopped_by_hook = true;
                    atomic_store(&run.stop, 1);
                }
            }
        }
        k++;
    }
    for (unsigned i = 0; i < run.nworkers; i++)
        pthread_join(run.workers[i].tid, NULL);
    getrusage(RUSAGE_SELF, &ru1);
    for (unsigned t = 0; t < out->ntargets; t++) {
        struct kernel_stats end;
        read_kstat(&out->targets[t], &end);
        kstat_delta(&out->kstats[t], &end);
    }
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
        if (w->t_finished > last)
            last = w->t_finished;
        if (w->max_lag_ns > js->max_lag_ns)
            js->max_lag_ns = w->max_lag_ns;
        js->worker_ios[w->job_worker] = w->total_ios;
        for (int d = 0; d < DIR_COUNT; d++)
            js->ramp_ios[d] += w->ramp_ios[d];
        js->worker_busy_ns[w->job_worker] = w->total_busy_ns;
        js->end_syncs += w->end_syncs;
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
    pthread_barrier_destroy(&run.ready);
    pthread_barrier_destroy(&run.go);

done:
    if (run.workers)
        for (unsigned i = 0; i < run.nworkers; i++)
            free_worker(&run.workers[i]);
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
            free(ps->stats[j].event_lat);
            free(ps->stats[j].worker_events);
            free(ps->stats[j].worker_event_ns);
        }
    free(ps->stats);
    free(ps->jobs);
    free(ps->targets);
    free(ps->job_target);
    free(ps->kstats);
    memset(ps, 0, sizeof(*ps));
}
