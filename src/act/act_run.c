/* act_run.c - ACT's devices and jobs: the minimum-I/O probe, the plan of one
 * load, the --find-max ladder and act-prep's writers. Running a load, the
 * interval hook and the result summary are in act_run_load.c. */
#include "act/act_run.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "target/target.h"
#include "base/errmsg.h"

#define NULL_DEVICE_BYTES (2ull << 30)

int act_probe_min_io(const char *path, uint32_t *min_io, char *err, size_t errlen)
{
    int fd = open(path, O_RDONLY | O_DIRECT | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) {
        int e = errno;
        return errmsg(err, errlen, -e, "%s: cannot open for direct I/O: %s", path, strerror(e));
    }
    void *buf = NULL;
    if (posix_memalign(&buf, 4096, 4096)) {
        close(fd);
        return errmsg(err, errlen, -ENOMEM, "out of memory");
    }
    int last = 0;
    for (uint32_t sz = 512; sz <= 4096; sz *= 2) {
        ssize_t r = pread(fd, buf, sz, 0);
        if (r == (ssize_t)sz) {
            *min_io = sz;
            free(buf);
            close(fd);
            return 0;
        }
        last = r < 0 ? errno : EIO;
    }
    free(buf);
    close(fd);
    return errmsg(err, errlen, -last,
                "%s: no O_DIRECT read of 512, 1024, 2048 or 4096 bytes at offset 0 "
                "succeeded (%s)", path, strerror(last));
}

int act_probe_devices(const struct act_config *c, enum engine_kind engine,
                      struct act_device *devs, char *err, size_t errlen)
{
    for (unsigned i = 0; i < c->ndevices; i++) {
        const char *path = c->devices[i];
        struct act_device *dv = &devs[i];
        struct target_info ti;
        char msg[512];
        int rc = target_probe(path, &ti, msg, sizeof(msg));
        if (c->file_size_mbytes) {
            /* ACT's file mode: buffered I/O on files of this size */
            dv->size_bytes = (uint64_t)c->file_size_mbytes << 20;
            dv->min_io_bytes = 512;
            if (rc == 0 && ti.kind == TARGET_BLOCK)
                return errmsg(err, errlen, -EINVAL, "%s: a block device, but file-size-mbytes "
                            "makes the devices regular files; remove file-size-mbytes", path);
            if (rc == 0 && ti.size < dv->size_bytes)
                return errmsg(err, errlen, -EINVAL, "%s: the file holds %llu bytes, less than "
                            "file-size-mbytes (%u MiB); remove it or lower file-size-mbytes",
                            path, (unsigned long long)ti.size, c->file_size_mbytes);
            if (rc < 0 && rc != -ENOENT)
                return errmsg(err, errlen, rc, "%s", msg);
            continue;
        }
        if (engine == ENGINE_NULL) {
            dv->size_bytes = rc == 0 && ti.size ? ti.size : NULL_DEVICE_BYTES;
            dv->min_io_bytes = rc == 0 && ti.logical_block >= 512 && ti.logical_block <= 4096
                                   ? ti.logical_block : 512;
            continue;
        }
        if (rc == -ENOENT)
            return errmsg(err, errlen, rc, "%s: no such device (device-names lists the devices "
                        "to test; for regular files set file-size-mbytes)", path);
        if (rc < 0)
            return errmsg(err, errlen, rc, "%s", msg);
        dv->size_bytes = ti.size;
        rc = act_probe_min_io(path, &dv->min_io_bytes, err, errlen);
        if (rc < 0)
            return rc;
    }
    return 0;
}

uint32_t act_devices_min_io(const struct act_device *devs, unsigned n)
{
    uint32_t m = 512;
    for (unsigned i = 0; i < n; i++)
        if (devs[i].min_io_bytes > m)
            m = devs[i].min_io_bytes;
    return m;
}

void act_read_sizes(const struct act_derived *d, struct job_bssplit *bs, bool *approximated)
{
    uint32_t n = d->n_io_sizes ? d->n_io_sizes : 1, m = d->min_io_bytes;
    memset(bs, 0, sizeof(*bs));
    if (n <= JOB_BSSPLIT_MAX) {
        bs->n = n;
        for (uint32_t i = 0; i < n; i++) {
            bs->bs[i] = d->io_bytes_min + i * m;
            bs->pct[i] = 100.0 / n;
        }
        *approximated = false;
        return;
    }
    /* Pick sizes j and n-1-j in pairs so the mean is the range's midpoint.
     * The step (n-1)/63 is above 1, so rounding keeps them distinct. */
    const unsigned k = JOB_BSSPLIT_MAX;
    bs->n = k;
    for (unsigned i = 0; i < k / 2; i++) {
        uint32_t j = (uint32_t)llround((double)i * (n - 1) / (k - 1));
        bs->bs[i] = d->io_bytes_min + j * m;
        bs->bs[k - 1 - i] = d->io_bytes_min + (n - 1 - j) * m;
    }
    for (unsigned i = 0; i < k; i++)
        bs->pct[i] = 100.0 / k;
    *approximated = true;
}

static void set_single_bs(struct job_spec *j, uint32_t bs)
{
    for (unsigned dir = 0; dir < DIR_COUNT; dir++) {
        memset(&j->bs[dir], 0, sizeof(j->bs[dir]));
        j->bs[dir].n = 1;
        j->bs[dir].bs[0] = bs;
        j->bs[dir].pct[0] = 100;
        j->blockalign[dir] = bs;
    }
}

static void add_job(struct act_plan *p, enum act_job_kind kind, const struct job_spec *j)
{
    p->job_of[kind] = (int)p->njobs;
    p->jobs[p->njobs++] = *j;
}

/* The checks and the region every device shares: the fewest large blocks
 * of any device, the small-I/O offsets in it, the schedule's intervals. */
static int plan_region(const struct act_config *c, const struct act_derived *d,
                       const struct act_device *devs, const struct act_run_opts *o,
                       struct act_plan *p, char *err, size_t errlen)
{
    memset(p, 0, sizeof(*p));
    for (unsigned k = 0; k < ACT_NJOBS; k++)
        p->job_of[k] = -1;
    if (c->ndevices == 0 || c->ndevices > JOB_MAX_TARGETS)
        return errmsg(err, errlen, -EINVAL, "%u devices: ssdbench drives 1 to %u devices in one "
                    "run (ACT allows %u)", c->ndevices, JOB_MAX_TARGETS, ACT_MAX_DEVICES);
    if (!d->large_block_bytes || !d->min_io_bytes || !d->service_threads)
        return errmsg(err, errlen, -EINVAL, "the derived configuration is incomplete");
    if (!c->report_interval_sec || !c->test_duration_sec)
        return errmsg(err, errlen, -EINVAL, "report-interval-sec and test-duration-sec must be "
                    "at least 1");

    uint64_t nlb = UINT64_MAX;
    for (unsigned i = 0; i < c->ndevices; i++) {
        struct act_device_layout lay;
        if (act_device_layout(d, devs[i].size_bytes, d->min_io_bytes, &lay) < 0)
            return errmsg(err, errlen, -EINVAL, "%s: %llu bytes is too small: ACT needs at least "
                        "one whole large block (%u bytes) and room for the largest small I/O "
                        "(%u bytes)", c->devices[i], (unsigned long long)devs[i].size_bytes,
                        d->large_block_bytes, d->io_bytes_max);
        if (lay.n_large_blocks < nlb)
            nlb = lay.n_large_blocks;
    }
    p->min_io_bytes = d->min_io_bytes;
    p->n_large_blocks = nlb;
    p->region_bytes = nlb * d->large_block_bytes;
    p->n_small_offsets = p->region_bytes / d->min_io_bytes - d->io_bytes_max / d->min_io_bytes + 1;

    /* ACT stops after the first report at or past the duration. */
    p->nintervals = (c->test_duration_sec + c->report_interval_sec - 1) / c->report_interval_sec;
    p->interval_ns = o->tick_ns ? o->tick_ns : (uint64_t)c->report_interval_sec * 1000000000ull;
    p->runtime_ns = (uint64_t)p->nintervals * p->interval_ns;

    return 0;
}

/* What every ACT job shares: the devices, ACT's open flags (O_DIRECT,
 * O_DSYNC), the region, the duration and the data. */
static void plan_base_job(const struct act_config *c, const struct act_run_opts *o,
                          const struct act_plan *p, struct job_spec *base)
{
    bool file_mode = c->file_size_mbytes != 0;
    job_defaults(base);
    base->ntargets = c->ndevices;
    for (unsigned i = 0; i < c->ndevices; i++)
        snprintf(base->targets[i], JOB_PATH_MAX, "%s", c->devices[i]);
    base->engine = o->engine;
    base->direct = !file_mode;
    base->dsync = !file_mode && !c->disable_odsync;
    base->size = p->region_bytes;
    base->file_size = file_mode ? (uint64_t)c->file_size_mbytes << 20 : 0;
    base->runtime_ns = p->runtime_ns;
    base->time_based = true;
    base->interval_ns = p->interval_ns;
    base->iodepth = 1;
    base->numjobs = 1;
    base->norandommap = true; /* ACT draws every offset afresh: no random map */
    base->layout = LAYOUT_JBOD;
    /* compress-pct is the share that stays random; the runner's compress_pct
     * is the zeroed share of each 512 B chunk (see worker.c fill_buffer). */
    base->buffer = BUF_COMPRESSIBLE;
    base->compress_pct = 100 - c->compress_pct;
    base->refill_buffers = true;
    base->seed_set = o->seed_set;
    /* ACT's blocking pwrite on an O_DSYNC block device is the write, then a
     * cache flush; an asynchronous engine gets the flush explicitly. */
    base->dsync_flush = base->dsync && o->engine != ENGINE_PSYNC;
    /* Every I/O of the schedule is issued, a late one late: the run's
     * counts are the schedule's (act_scheduled_ios), not the clock's. */
    base->rate_complete = true;

}

/* The service threads' small reads (and commit writes): ACT's threads, or
 * the open-loop rings that keep their schedule. Returns their I/O slots. */
static unsigned plan_service_job(const struct act_derived *d, const struct act_run_opts *o,
                                 const struct job_spec *base, struct act_plan *p)
{
    uint64_t small_total = (uint64_t)d->small_reqs_per_thread * d->service_threads;
    p->small_rate_total = (double)small_total;
    unsigned small_slots = 0;
    if (small_total) {
        struct job_spec j = *base;
        snprintf(j.name, sizeof(j.name), "service");
        snprintf(j.description, sizeof(j.description),
                 "ACT service threads: small reads%s at random offsets, random device per I/O",
                 d->internal_write_reqs_per_sec ? " and commit writes" : "");
        j.layout = LAYOUT_RANDOM;
        bool reads = d->internal_read_reqs_per_sec > 0, writes = d->internal_write_reqs_per_sec > 0;
        p->read_frac = (double)d->read_split / ACT_SPLIT_RESOLUTION;
        if (reads && writes) {
            j.rw = RW_RANDRW;
            long pct = lround(p->read_frac * 100);
            j.rwmixread = (unsigned)(pct < 1 ? 1 : pct > 99 ? 99 : pct);
            j.rwmix_read_frac = p->read_frac;
        } else {
            j.rw = reads ? RW_RANDREAD : RW_RANDWRITE;
            p->read_frac = reads ? 1.0 : 0.0;
        }
        j.pct_random = 100;
        bool approx;
        act_read_sizes(d, &j.bs[DIR_READ], &approx);
        j.bs[DIR_WRITE] = j.bs[DIR_READ];
        j.blockalign[DIR_READ] = j.blockalign[DIR_WRITE] = d->min_io_bytes;
        p->n_sizes_used = j.bs[DIR_READ].n;
        p->sizes_approximated = approx;
        if (o->mode == ACT_MODE_THREADS) {
            j.numjobs = d->service_threads;
            j.iodepth = 1;
            j.rate_iops = d->small_reqs_per_thread;
        } else {
            /* ACT's threads all pace from one start, so its schedule is a
             * burst of service-threads I/Os every 1 / small_reqs_per_thread s;
             * the open-loop workers keep that schedule, not a smoother one.
             * It is split over one ring per CPU (as far as the thread count
             * divides), each carrying an equal share of ACT's threads, so a
             * busy host cannot starve the whole schedule through one thread. */
            unsigned slots = o->iodepth ? o->iodepth : d->service_threads;
            unsigned rings = act_service_rings(d->service_threads, slots, o->ncpus);
            j.numjobs = rings;
            j.iodepth = slots / rings;
            j.rate_iops = (double)small_total / rings;
            j.rate_burst = d->service_threads / rings;
        }
        p->service_rings = j.numjobs;
        small_slots = j.numjobs * j.iodepth;
        p->scheduled[ACT_JOB_SERVICE] =
            act_scheduled_ios(j.rate_iops, j.rate_burst, p->runtime_ns) * j.numjobs;
        j.seed = o->seed;
        add_job(p, ACT_JOB_SERVICE, &j);
    }
    return small_slots;
}

/* The large-block readers and writers and the tomb raider, one worker per
 * device each. Returns their number. */
static unsigned plan_large_block_jobs(const struct act_config *c, const struct act_derived *d,
                                      const struct act_run_opts *o, const struct job_spec *base,
                                      struct act_plan *p)
{
    unsigned lb_workers = 0;
    if (d->large_block_reads_per_sec > 0) {
        struct job_spec j = *base;
        snprintf(j.name, sizeof(j.name), "large-block-reads");
        snprintf(j.description, sizeof(j.description),
                 "ACT defrag reads: one large-block reader per device");
        j.rw = RW_RANDREAD;
        j.pct_random = 100;
        set_single_bs(&j, d->large_block_bytes);
        j.rate_iops = d->large_block_reads_per_device;
        j.seed = o->seed + 1000003;
        p->scheduled[ACT_JOB_LB_READS] =
            act_scheduled_ios(j.rate_iops, 1, p->runtime_ns) * c->ndevices;
        add_job(p, ACT_JOB_LB_READS, &j);
        lb_workers += c->ndevices;
    }
    if (d->large_block_writes_per_sec > 0) {
        struct job_spec j = *base;
        snprintf(j.name, sizeof(j.name), "large-block-writes");
        snprintf(j.description, sizeof(j.description),
                 "ACT large-block writes: one writer per device, fresh data each write");
        j.rw = RW_RANDWRITE;
        j.pct_random = 100;
        set_single_bs(&j, d->large_block_bytes);
        j.rate_iops = d->large_block_writes_per_device;
        j.seed = o->seed + 2000003;
        p->scheduled[ACT_JOB_LB_WRITES] =
            act_scheduled_ios(j.rate_iops, 1, p->runtime_ns) * c->ndevices;
        add_job(p, ACT_JOB_LB_WRITES, &j);
        lb_workers += c->ndevices;
    }
    if (c->tomb_raider) {
        struct job_spec j = *base;
        snprintf(j.name, sizeof(j.name), "tomb-raider");
        snprintf(j.description, sizeof(j.description),
                 "ACT tomb raider: sequential large-block reads per device (not in ACT's "
                 "histograms)");
        j.rw = RW_READ;
        j.pct_random = 0;
        set_single_bs(&j, d->large_block_bytes);
        /* ACT sleeps before each read; pacing at 1/sleep is the closest the
         * runner has (an upper bound on ACT's rate). */
        j.rate_iops = c->tomb_raider_sleep_usec ? 1e6 / c->tomb_raider_sleep_usec : 0;
        j.seed = o->seed + 3000017;
        add_job(p, ACT_JOB_TOMB, &j);
        lb_workers += c->ndevices;
    }
    return lb_workers;
}

int act_plan_build(const struct act_config *c, const struct act_derived *d,
                   const struct act_device *devs, const struct act_run_opts *o,
                   struct act_plan *p, char *err, size_t errlen)
{
    int rc = plan_region(c, d, devs, o, p, err, errlen);
    if (rc < 0)
        return rc;
    struct job_spec base;
    plan_base_job(c, o, p, &base);
    unsigned small_slots = plan_service_job(d, o, &base, p);
    unsigned lb_workers = plan_large_block_jobs(c, d, o, &base, p);
    p->max_queue_depth = small_slots + lb_workers;
    return 0;
}

unsigned act_service_rings(unsigned service_threads, unsigned slots, unsigned ncpus)
{
    unsigned max = ncpus ? ncpus : 1;
    for (unsigned r = max < service_threads ? max : service_threads; r > 1; r--)
        if (service_threads % r == 0 && slots % r == 0)
            return r;
    return 1;
}

uint64_t act_scheduled_ios(double rate, unsigned burst, uint64_t runtime_ns)
{
    if (!(rate > 0) || !runtime_ns)
        return 0;
    const uint64_t b = burst > 1 ? burst : 1;
    const double period = 1e9 / rate;
    /* group g is due at (uint64_t)((double)(g * b) * period), as in
     * worker.c; count the groups due before the end */
    uint64_t g = (uint64_t)((double)runtime_ns / ((double)b * period));
    while (g > 0 && (uint64_t)((double)(g * b) * period) >= runtime_ns)
        g--;
    while ((uint64_t)((double)(g * b) * period) < runtime_ns)
        g++;
    return g * b;
}

double act_ladder_next(double load)
{
    if (load < 1)
        return 1;
    if (load < 2)
        return 2;
    if (load < 3)
        return 3;
    for (double a = 4;; a *= 2) {
        if (a > load)
            return a;
        if (1.5 * a > load)
            return 1.5 * a;
    }
}

int act_config_with_load(struct act_config *c, double load, char *err, size_t errlen)
{
    if (!(load > 0) || !isfinite(load))
        return errmsg(err, errlen, -EINVAL, "--load %g: must be a positive multiple of 1x", load);
    double r = nearbyint(load * c->ndevices * ACT_1X_READS_PER_DEVICE);
    double w = nearbyint(load * c->ndevices * ACT_1X_WRITES_PER_DEVICE);
    if (r > UINT32_MAX || w > UINT32_MAX)
        return errmsg(err, errlen, -EINVAL, "--load %gx on %u devices: more than %u requests/s",
                    load, c->ndevices, UINT32_MAX);
    if (r == 0 && w == 0)
        return errmsg(err, errlen, -EINVAL, "--load %gx: rounds to 0 requests per second", load);
    c->read_reqs_per_sec = (uint32_t)r;
    c->write_reqs_per_sec = (uint32_t)w;
    return act_config_check(c, err, errlen);
}

int act_prep_jobs(const char *dev, uint64_t size, bool zero, struct job_spec *jobs,
                  unsigned *njobs, char *err, size_t errlen)
{
    *njobs = 0;
    if (size < 512 || size % 512)
        return errmsg(err, errlen, -EINVAL, "%s: size %llu bytes is not a positive multiple of "
                    "512", dev, (unsigned long long)size);
    uint64_t nblocks = size / ACT_PREP_BLOCK, tail = size % ACT_PREP_BLOCK;
    uint64_t per = nblocks / ACT_PREP_WRITERS;
    unsigned writers = per ? ACT_PREP_WRITERS : nblocks ? 1 : 0;
    struct job_spec base;
    job_defaults(&base);
    base.ntargets = 1;
    snprintf(base.targets[0], JOB_PATH_MAX, "%s", dev);
    base.rw = RW_WRITE;
    base.pct_random = 0;
    base.engine = ENGINE_PSYNC;
    base.direct = true;
    base.dsync = false;   /* act_prep dropped O_DSYNC: 14 MB/s with it (ACT issue #39) */
    base.iodepth = 1;
    base.numjobs = 1;
    base.buffer = zero ? BUF_ZERO : BUF_RANDOM;
    base.refill_buffers = !zero;
    base.interval_ns = 200000000ull;   /* progress five times a second */
    set_single_bs(&base, ACT_PREP_BLOCK);
    for (unsigned w = 0; w < writers; w++) {
        struct job_spec *j = &jobs[(*njobs)++];
        *j = base;
        snprintf(j->name, sizeof(j->name), "%s-%u", zero ? "zero" : "salt", w + 1);
        j->offset = (uint64_t)w * per * ACT_PREP_BLOCK;
        uint64_t blocks = w + 1 < writers ? per : nblocks - (uint64_t)w * per;
        j->size = blocks * ACT_PREP_BLOCK;
        j->io_limit = j->size;
    }
    if (tail) {
        struct job_spec *j = &jobs[(*njobs)++];
        *j = base;
        snprintf(j->name, sizeof(j->name), "%s-tail", zero ? "zero" : "salt");
        set_single_bs(j, (uint32_t)tail);
        j->offset = nblocks * ACT_PREP_BLOCK;
        j->size = tail;
        j->io_limit = tail;
    }
    return 0;
}
