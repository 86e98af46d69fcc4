/* worker_zbd.c - a worker's side of fio's zonemode=zbd (see runner_int.h):
 * the zones read from the device at the start, the next I/O placed by
 * base/zbd.c and the zone resets it asks for done on the device. The
 * workers of a phase on the same zones of one device (numjobs clones, jobs
 * side by side) share one zone set, as fio's jobs share a device's write
 * pointers: the first one's lock serialises the placing, the queueing and
 * the completions of them all; a worker whose next write waits for another
 * worker's, with nothing of its own in flight, sleeps on the set's
 * condition until a write completes. */
#include "runner/runner_int.h"
#include "runner/worker_verify.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <time.h>

#include "base/signal.h"
#include "target/chardev_map.h"
#include "target/zoned.h"

/* The descriptor the worker's zones are reported and reset through: the
 * target's own, or for a passthrough node the block device it addresses
 * (held by the target), opened here and owned by the worker. */
static int zbd_open_fd(struct worker *w, const struct job_spec *j, const struct target *t, struct stat *st,
                       char *err, size_t errlen)
{
    int fd = w->fds[w->first_target];
    if (fstat(fd, st) < 0)
        return snprintf(err, errlen, "%s: %s", t->info.path, strerror(errno)), -errno;
    if (t->chardev) {
        char blk[JOB_PATH_MAX], why[256];
        dev_t bdev;
        if (chardev_block(st->st_rdev, blk, sizeof(blk), &bdev, why, sizeof(why)) < 0)
            return snprintf(err, errlen, "%s: %s", t->info.path, why), -EINVAL;
        fd = open(blk, (job_rw_writes(j) ? O_RDWR : O_RDONLY) | O_CLOEXEC);
        if (fd < 0 || fstat(fd, st) < 0 || st->st_rdev != bdev) {
            int e = fd < 0 ? errno : EPERM;
            if (fd >= 0)
                close(fd);
            return snprintf(err, errlen, "%s: cannot open %s for its zones: %s", t->info.path, blk,
                            strerror(e)), -e;
        }
        w->zbd_fd_own = true;
    }
    w->zbd_dev = st->st_rdev;
    w->zbd_fd = fd;
    return 0;
}

/* The job's zone rules and the smallest block per direction (a direction
 * the job does not use takes the other's, else 512). */
static struct zbd_params zbd_params_of(const struct worker *w, const struct job_spec *j,
                                       const struct target *t)
{
    struct zbd_params p = {
        .region_start = w->map.region_start,
        .region_len = w->map.region_len,
        .random = j->pct_random > 0,
        .mixed = job_rw_reads(j) && job_rw_writes(j),
        .writes = job_rw_writes(j),
        .read_beyond_wp = j->read_beyond_wp,
        .verify = j->verify != VERIFY_OFF,
        .host_managed = !strcmp(t->info.zoned, "host-managed"),
        .ignore_zone_limits = j->ignore_zone_limits,
        .max_open_zones = j->max_open_zones,
        .job_max_open_zones = j->job_max_open_zones,
        .dev_max_open = zoned_max_open(&t->info),
        .reset_threshold = j->zone_reset_threshold,
        .reset_frequency = j->zone_reset_frequency,
    };
    for (unsigned d = 0; d < 2; d++) {
        const struct gen_dir *gd = &w->gen.dir[d == 1 ? DIR_WRITE : DIR_READ];
        p.min_bs[d] = gd->used ? gd->size[gd->smallest].len : 0;
    }
    for (unsigned d = 0; d < 2; d++)
        if (!p.min_bs[d])
            p.min_bs[d] = p.min_bs[1 - d] ? p.min_bs[1 - d] : 512;
    return p;
}

/* An earlier worker of the phase on the same device: this worker joins its
 * zone set (one write pointer per zone for both) and its lock. 1 when it
 * joined, 0 when there is none, < 0 with err set when it may not. */
static int zbd_join(struct worker *w, const struct job_spec *j, const struct target *t,
                    const struct zbd_params *p, char *err, size_t errlen)
{
    for (struct worker *o = w->run->workers; o < w; o++) {
        if (!o->zbd.on || o->zbd_dev != w->zbd_dev)
            continue;
        /* each worker checks the blocks it wrote: another one's write or
         * zone reset would change them behind its back */
        if ((w->vf || o->vf) && (job_rw_writes(j) || job_rw_writes(o->job)))
            return snprintf(err, errlen, "job '%s': zonemode=zbd with verify and another job writing to the "
                                         "same zones of %s at the same time (numjobs=%u) is not supported",
                            j->name, t->info.path, j->numjobs), -ENOTSUP;
        int rc = zbd_share(&w->zbd, p, &o->zbd, err, errlen);
        if (rc < 0) {
            size_t l = strlen(err);
            snprintf(err + l, errlen - l, " (job '%s', %s)", j->name, t->info.path);
            return rc;
        }
        if (!o->zbd_lock) {
            pthread_mutex_init(&o->zbd_mu, NULL);
            pthread_cond_init(&o->zbd_cv, NULL);
            o->zbd_lock = o;
            o->zbd_lock_own = true;
        }
        w->zbd_lock = o->zbd_lock;
        return 1;
    }
    return 0;
}

/* The zones the set-up found due for a reset (a verifying writer's zones
 * that hold data), reset before the first I/O. */
static int zbd_reset_due(struct worker *w, const struct target *t, char *err, size_t errlen)
{
    for (unsigned i = 0; i < w->zbd.zs->nz; i++) {
        if (!w->zbd.zs->z[i].reset_due)
            continue;
        int rc = zoned_reset_zone(w->zbd_fd, w->zbd.zs->z[i].start, w->zbd.zs->z[i].len);
        if (rc < 0) {
            zbd_free(&w->zbd);
            return snprintf(err, errlen, "%s: resetting zone %u (BLKRESETZONE): %s", t->info.path, i,
                            strerror(-rc)), rc;
        }
        zbd_reset_done(&w->zbd, i);
    }
    return 0;
}

int wzbd_setup(struct worker *w, const struct job_spec *j, const struct job_setup *js, char *err,
               size_t errlen)
{
    memset(&w->zbd, 0, sizeof(w->zbd));
    w->zbd_wait = w->zbd_held = false;
    w->zbd_lock = NULL;
    w->zbd_lock_own = false;
    w->zbd_fd = -1;
    w->zbd_fd_own = false;
    if (j->zone_mode != JOB_ZONE_ZBD)
        return 0;
    const struct target *t = &js->tg[w->first_target];
    if (w->map.layout != LAYOUT_JBOD || w->map.segs.n || t->info.kind != TARGET_BLOCK ||
        !zoned_is_zoned(&t->info))
        return snprintf(err, errlen, "job '%s': zonemode=zbd needs one zoned block device (host-managed or "
                                     "host-aware) as its target; ssdbench does not emulate zones",
                        j->name), -ENOTSUP;
    struct stat st;
    int rc = zbd_open_fd(w, j, t, &st, err, errlen);
    if (rc < 0)
        return rc;
    struct zbd_zone *zones;
    bool *open;
    unsigned n;
    rc = zoned_report(w->zbd_fd, t->info.path, &zones, &open, &n, err, errlen);
    if (rc < 0)
        return rc;
    if (j->zone_size && n && zones[0].len != j->zone_size) {
        snprintf(err, errlen, "job '%s': zonesize %llu does not match the device's zone size %llu", j->name,
                 (unsigned long long)j->zone_size, (unsigned long long)zones[0].len);
        free(zones);
        free(open);
        return -EINVAL;
    }
    struct zbd_params p = zbd_params_of(w, j, t);
    rc = zbd_join(w, j, t, &p, err, errlen);
    if (rc != 0) {
        free(zones);
        free(open);
        return rc < 0 ? rc : 0;
    }
    rc = zbd_init(&w->zbd, &p, zones, n, job_rw_writes(j) ? open : NULL, err, errlen);
    free(zones);
    free(open);
    if (rc < 0)
        return rc;
    return zbd_reset_due(w, t, err, errlen);
}

static void zlock(struct worker *w)
{
    if (w->zbd_lock)
        pthread_mutex_lock(&w->zbd_lock->zbd_mu);
}

static void zunlock(struct worker *w)
{
    if (w->zbd_lock)
        pthread_mutex_unlock(&w->zbd_lock->zbd_mu);
}

/* Another worker's write must complete first and this one has nothing in
 * flight: a nap on the set's condition (10 ms at most, then it looks
 * again; a stopping phase ends the wait). False when the phase stops. */
static bool wait_others(struct worker *w)
{
    if (atomic_load(&w->run->stop) || atomic_load(&w->run->job_stop[w->job_index]) || signal_received())
        return false;
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    ts.tv_nsec += 10 * 1000 * 1000;
    if (ts.tv_nsec >= 1000000000) {
        ts.tv_sec++;
        ts.tv_nsec -= 1000000000;
    }
    pthread_cond_timedwait(&w->zbd_lock->zbd_cv, &w->zbd_lock->zbd_mu, &ts);
    return true;
}

static int next_locked(struct worker *w, struct gen_io *io);

int wzbd_next(struct worker *w, struct gen_io *io)
{
    zlock(w);
    int rc = next_locked(w, io);
    zunlock(w);
    return rc;
}

static int next_locked(struct worker *w, struct gen_io *io)
{
    struct zbd_state *s = &w->zbd;
    if (w->zbd_held) {
        *io = w->zbd_io;
    } else {
        /* sequential writes skip from a zone's capacity to its end */
        w->gen.dir[DIR_WRITE].pos = zbd_seq_pos(s, DIR_WRITE, w->gen.dir[DIR_WRITE].pos);
        if (!gen_next(&w->gen, io))
            return 0;
    }
    for (;;) {
        unsigned dir = io->dir == DIR_WRITE ? 1 : 0;
        uint64_t off = w->map.region_start + io->off;
        uint32_t len = io->len;
        unsigned inflight = w->depth - w->nfree;
        enum zbd_act a = zbd_adjust(s, &dir, &off, &len, inflight);
        if (a == ZBD_WAIT && !inflight && w->zbd_lock && wait_others(w))
            continue;
        if (a == ZBD_RESET) {
            const struct zbd_zone *z = &s->zs->z[s->reset_zone];
            int rc = zoned_reset_zone(w->zbd_fd, z->start, z->len);
            if (rc < 0) {
                fprintf(stderr, "ssdbench: job '%s': resetting the zone at byte %llu (BLKRESETZONE): %s\n",
                        w->job->name, (unsigned long long)z->start, strerror(-rc));
                w->side_errors++;
                return 0;
            }
            zbd_reset_done(s, s->reset_zone);
            /* the zone's blocks are gone: verify checks only what is written after */
            if (w->vf)
                wverify_forget(w, z->start - w->map.region_start, z->len);
            continue;
        }
        if (a == ZBD_WAIT) {
            w->zbd_io = *io;
            w->zbd_held = true;
            w->zbd_wait = true;
            return -1;
        }
        w->zbd_held = false;
        if (a == ZBD_EOF)
            return 0;
        io->dir = dir ? DIR_WRITE : DIR_READ;
        io->off = off - w->map.region_start;
        io->len = len;
        /* the write pointer moves now, under the lock: the next placing
         * (of any worker on the set) sees it */
        if (dir == 1)
            zbd_queued(s, 1, off, len);
        /* fio's last position: where the I/O as placed ends */
        if (!s->p.random)
            w->gen.dir[io->dir].pos = io->off + len;
        return 1;
    }
}

void wzbd_unqueued(struct worker *w, const struct io_req *r)
{
    if (r->op != IO_OP_WRITE)
        return;
    zlock(w);
    zbd_unqueued(&w->zbd, 1, r->off, r->len);
    zunlock(w);
}

void wzbd_completed(struct worker *w, const struct io_req *r)
{
    if (r->op != IO_OP_WRITE)
        return;
    zlock(w);
    zbd_completed(&w->zbd, 1, r->off, r->len);
    if (w->zbd_lock)
        pthread_cond_broadcast(&w->zbd_lock->zbd_cv);
    zunlock(w);
}

void wzbd_free(struct worker *w)
{
    zbd_free(&w->zbd);
    if (w->zbd_fd_own)
        close(w->zbd_fd);
    w->zbd_fd_own = false;
    if (w->zbd_lock_own) {
        pthread_mutex_destroy(&w->zbd_mu);
        pthread_cond_destroy(&w->zbd_cv);
        w->zbd_lock_own = false;
    }
    w->zbd_lock = NULL;
}
