/* worker_zbd.c - a worker's side of fio's zonemode=zbd (see runner_int.h):
 * the zones read from the device at the start, the next I/O placed by
 * base/zbd.c and the zone resets it asks for done on the device. */
#include "runner/runner_int.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "target/zoned.h"

int wzbd_setup(struct worker *w, const struct job_spec *j, const struct job_setup *js, char *err,
               size_t errlen)
{
    memset(&w->zbd, 0, sizeof(w->zbd));
    w->zbd_wait = w->zbd_held = false;
    if (j->zone_mode != JOB_ZONE_ZBD)
        return 0;
    const struct target *t = &js->tg[w->first_target];
    if (w->map.layout != LAYOUT_JBOD || w->map.segs.n || t->info.kind != TARGET_BLOCK ||
        !zoned_is_zoned(&t->info))
        return snprintf(err, errlen, "job '%s': zonemode=zbd needs one zoned block device (host-managed or "
                                     "host-aware) as its target; ssdbench does not emulate zones",
                        j->name), -ENOTSUP;
    if (job_rw_writes(j) && j->numjobs > 1)
        return snprintf(err, errlen, "job '%s': zonemode=zbd with writes runs as one worker in ssdbench "
                                     "(numjobs=%u): each worker keeps its own write pointers",
                        j->name, j->numjobs), -ENOTSUP;
    struct zbd_zone *zones;
    bool *open;
    unsigned n;
    int fd = w->fds[w->first_target];
    int rc = zoned_report(fd, t->info.path, &zones, &open, &n, err, errlen);
    if (rc < 0)
        return rc;
    if (j->zone_size && n && zones[0].len != j->zone_size) {
        snprintf(err, errlen, "job '%s': zonesize %llu does not match the device's zone size %llu", j->name,
                 (unsigned long long)j->zone_size, (unsigned long long)zones[0].len);
        free(zones);
        free(open);
        return -EINVAL;
    }
    struct zbd_params p = {
        .region_start = w->map.region_start,
        .region_len = w->map.region_len,
        .random = j->pct_random > 0,
        .mixed = job_rw_reads(j) && job_rw_writes(j),
        .writes = job_rw_writes(j),
        .read_beyond_wp = j->read_beyond_wp,
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
    rc = zbd_init(&w->zbd, &p, zones, n, job_rw_writes(j) ? open : NULL, err, errlen);
    free(zones);
    free(open);
    if (rc < 0)
        return rc;
    for (unsigned i = 0; i < w->zbd.nz; i++) {
        if (!w->zbd.z[i].reset_due)
            continue;
        rc = zoned_reset_zone(fd, w->zbd.z[i].start, w->zbd.z[i].len);
        if (rc < 0) {
            zbd_free(&w->zbd);
            return snprintf(err, errlen, "%s: resetting zone %u (BLKRESETZONE): %s", t->info.path, i,
                            strerror(-rc)), rc;
        }
        zbd_reset_done(&w->zbd, i);
    }
    return 0;
}

int wzbd_next(struct worker *w, struct gen_io *io)
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
        enum zbd_act a = zbd_adjust(s, &dir, &off, &len, w->depth - w->nfree);
        if (a == ZBD_RESET) {
            const struct zbd_zone *z = &s->z[s->reset_zone];
            int rc = zoned_reset_zone(w->fds[w->first_target], z->start, z->len);
            if (rc < 0) {
                fprintf(stderr, "ssdbench: job '%s': resetting the zone at byte %llu (BLKRESETZONE): %s\n",
                        w->job->name, (unsigned long long)z->start, strerror(-rc));
                w->side_errors++;
                return 0;
            }
            zbd_reset_done(s, s->reset_zone);
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
        /* fio's last position: where the I/O as placed ends */
        if (!s->p.random)
            w->gen.dir[io->dir].pos = io->off + len;
        return 1;
    }
}

void wzbd_queued(struct worker *w, const struct io_req *r)
{
    if (r->op == IO_OP_WRITE)
        zbd_queued(&w->zbd, 1, r->off, r->len);
}

void wzbd_completed(struct worker *w, const struct io_req *r)
{
    if (r->op == IO_OP_WRITE)
        zbd_completed(&w->zbd, 1, r->off, r->len);
}
