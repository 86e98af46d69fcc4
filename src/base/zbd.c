/* zbd.c - fio's zonemode=zbd offset rules over a worker's zones (see zbd.h). */
#include "base/zbd.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "base/errmsg.h"

static uint64_t cap_end(const struct zbd_zone *z)
{
    return z->start + z->cap;
}

static bool zone_full(const struct zbd_zone *z, uint64_t need)
{
    return z->seq && z->wp + need > cap_end(z);
}

unsigned zbd_zone_of(const struct zbd_state *s, uint64_t off)
{
    if (!s->zs->nz || off < s->zs->z[0].start)
        return s->zs->nz;
    uint64_t i = (off - s->zs->z[0].start) / s->zs->zone_size;
    return i < s->zs->nz ? (unsigned)i : s->zs->nz;
}

static void reset_write_cnt(struct zbd_state *s)
{
    double f = s->p.reset_frequency;
    s->zs->write_cnt = f > 0 ? (1.0 / f < (double)UINT_MAX ? (uint32_t)(1.0 / f) : UINT_MAX) : UINT_MAX;
}

static bool dec_and_reset_write_cnt(struct zbd_state *s)
{
    uint32_t c = 0;
    if (s->zs->write_cnt)
        c = --s->zs->write_cnt;
    if (c == 0)
        reset_write_cnt(s);
    return c == 0;
}

/* fio's zbd_open_zone: the set's open count against max_open_zones, the
 * worker's against job_max_open_zones */
static bool open_zone(struct zbd_state *s, unsigned zi)
{
    struct zbd_zone *z = &s->zs->z[zi];
    /* fio: with verify a full zone is not reopened (its reset loses data) */
    if (s->p.verify && zone_full(z, s->p.min_bs[1]))
        return false;
    if (!s->zs->max_open)
        return true;
    if (z->open)
        return z->wp < cap_end(z);
    if (s->p.job_max_open_zones && s->my_open >= s->p.job_max_open_zones)
        return false;
    if (s->zs->nopen >= s->zs->max_open)
        return false;
    s->zs->open[s->zs->nopen++] = zi;
    s->my_open++;
    z->open = true;
    return true;
}

/* fio's zbd_close_zone: the list moves up over its whole length; the
 * closing worker's count goes down (fio's td->num_open_zones) */
static void close_zone(struct zbd_state *s, unsigned zi)
{
    if (!s->zs->z[zi].open)
        return;
    unsigned i = 0;
    while (i < s->zs->nopen && s->zs->open[i] != zi)
        i++;
    if (i == s->zs->nopen)
        return;
    memmove(s->zs->open + i, s->zs->open + i + 1, (s->zs->nz - i) * sizeof(s->zs->open[0]));
    s->zs->nopen--;
    if (s->my_open)
        s->my_open--;
    s->zs->z[zi].open = false;
}

/* The set's open zone limit for p (fio's zbd_set_max_open_zones): 0 or
 * -EINVAL with a message. */
static int effective_max_open(const struct zbd_params *p, unsigned *maxo, char *err, size_t errlen)
{
    *maxo = p->max_open_zones;
    if (p->host_managed && !p->ignore_zone_limits && p->dev_max_open) {
        if (!*maxo)
            *maxo = p->dev_max_open;
        else if (*maxo > p->dev_max_open)
            return errmsg(err, errlen, -EINVAL, "max_open_zones=%u is larger than the device's %u", *maxo,
                          p->dev_max_open);
    }
    if (p->job_max_open_zones && !*maxo)
        return errmsg(err, errlen, -EINVAL, "job_max_open_zones cannot be used without a global open zones limit");
    return 0;
}

int zbd_init(struct zbd_state *s, const struct zbd_params *p, const struct zbd_zone *dev, unsigned n,
             const bool *dev_open, char *err, size_t errlen)
{
    memset(s, 0, sizeof(*s));
    if (!n || !dev[0].len)
        return errmsg(err, errlen, -EINVAL, "zonemode=zbd: the target reports no zones");
    uint64_t zsize = dev[0].len;
    if (p->region_start % zsize || p->region_len % zsize || !p->region_len)
        return errmsg(err, errlen, -EINVAL,
                      "zonemode=zbd: offset %llu and size %llu must be whole zones of %llu bytes",
                      (unsigned long long)p->region_start, (unsigned long long)p->region_len,
                      (unsigned long long)zsize);
    uint64_t first = p->region_start / zsize, count = p->region_len / zsize;
    if (first + count > n)
        return errmsg(err, errlen, -EINVAL, "zonemode=zbd: the region ends past the last zone (%u zones)", n);
    unsigned maxo;
    int rc = effective_max_open(p, &maxo, err, errlen);
    if (rc < 0)
        return rc;
    struct zbd_zones *zs = calloc(1, sizeof(*zs));
    if (zs) {
        zs->z = calloc(count + 1, sizeof(*zs->z));
        zs->open = calloc(count + 1, sizeof(*zs->open));
    }
    if (!zs || !zs->z || !zs->open) {
        if (zs) {
            free(zs->z);
            free(zs->open);
        }
        free(zs);
        return errmsg(err, errlen, -ENOMEM, "zonemode=zbd: out of memory for %llu zones", (unsigned long long)count);
    }
    s->zs = zs;
    s->p = *p;
    zs->users = 1;
    zs->nz = (unsigned)count;
    zs->zone_size = zsize;
    zs->region_start = p->region_start;
    zs->region_len = p->region_len;
    zs->max_open = maxo;
    for (unsigned i = 0; i < zs->nz; i++) {
        zs->z[i] = dev[first + i];
        zs->z[i].open = zs->z[i].busy = zs->z[i].reset_due = false;
        if (!zs->z[i].seq)
            zs->z[i].wp = zs->z[i].start + zs->z[i].len;
        else
            zs->wp_bytes += zs->z[i].wp - zs->z[i].start;
    }
    zs->z[zs->nz].start = zs->z[zs->nz - 1].start + zsize; /* fio's zone end sentinel */
    reset_write_cnt(s);
    /* fio's zbd_setup_files: zones open on the device count as open; those
     * over the limits are reset */
    if (dev_open)
        for (unsigned i = 0; i < zs->nz; i++)
            if (zs->z[i].seq && dev_open[first + i] && !open_zone(s, i))
                zs->z[i].reset_due = zs->z[i].wp > zs->z[i].start;
    /* fio's zbd_file_reset: a verifying writer starts from empty zones */
    if (p->verify && p->writes)
        for (unsigned i = 0; i < zs->nz; i++)
            if (zs->z[i].seq) {
                close_zone(s, i);
                zs->z[i].reset_due = zs->z[i].wp != zs->z[i].start;
            }
    s->on = true;
    return 0;
}

int zbd_share(struct zbd_state *s, const struct zbd_params *p, struct zbd_state *owner, char *err,
              size_t errlen)
{
    memset(s, 0, sizeof(*s));
    struct zbd_zones *zs = owner->zs;
    if (p->region_start != zs->region_start || p->region_len != zs->region_len)
        return errmsg(err, errlen, -EINVAL,
                      "zonemode=zbd: jobs on the same zones at the same time must cover the same zones "
                      "(offset %llu size %llu, another job: offset %llu size %llu)",
                      (unsigned long long)p->region_start, (unsigned long long)p->region_len,
                      (unsigned long long)zs->region_start, (unsigned long long)zs->region_len);
    unsigned maxo;
    int rc = effective_max_open(p, &maxo, err, errlen);
    if (rc < 0)
        return rc;
    if (maxo != zs->max_open)
        return errmsg(err, errlen, -EINVAL,
                      "zonemode=zbd: jobs on the same zones at the same time must agree on max_open_zones "
                      "(%u, another job: %u)", maxo, zs->max_open);
    s->zs = zs;
    s->p = *p;
    zs->users++;
    s->on = true;
    return 0;
}

void zbd_free(struct zbd_state *s)
{
    if (s->zs && !--s->zs->users) {
        free(s->zs->z);
        free(s->zs->open);
        free(s->zs);
    }
    s->zs = NULL;
    s->on = false;
}

uint64_t zbd_seq_pos(struct zbd_state *s, unsigned dir, uint64_t pos)
{
    if (!s->on || s->p.random || dir != 1)
        return pos;
    uint64_t abs = s->p.region_start + pos;
    unsigned zi = zbd_zone_of(s, abs);
    if (zi >= s->zs->nz)
        return pos;
    const struct zbd_zone *z = &s->zs->z[zi];
    if (z->cap < s->zs->zone_size && abs >= cap_end(z)) {
        s->skip_bytes += z->start + z->len - abs;
        return z->start + z->len - s->p.region_start;
    }
    return pos;
}

static unsigned pick_open(const struct zbd_state *s, uint64_t off)
{
    return (unsigned)((off - s->p.region_start) * s->zs->nopen / s->p.region_len);
}

/* fio's zbd_convert_to_open_zone: nz = none (end of the job), nz + 1 = wait */
static unsigned convert_to_open(struct zbd_state *s, uint64_t *off, uint64_t min_bs, unsigned inflight)
{
    const unsigned none = s->zs->nz, wait = s->zs->nz + 1;
    unsigned zi = s->zs->max_open || s->p.job_max_open_zones ? s->zs->open[pick_open(s, *off)] : zbd_zone_of(s, *off);
    if (zi >= s->zs->nz)
        zi = s->zs->nz - 1;
    for (;;) {
        const struct zbd_zone *z = &s->zs->z[zi];
        if (z->seq) {
            if (!s->zs->max_open && !s->p.job_max_open_zones)
                goto examine;
            if (!s->zs->nopen)
                goto other;
        }
        if (!s->zs->nopen)
            return none;
        unsigned oi = pick_open(s, *off);
        if (oi >= s->zs->nopen)
            oi = 0;
        unsigned nzi = s->zs->open[oi];
        if (nzi == zi)
            break;
        zi = nzi;
    }
examine:
    if (s->zs->z[zi].wp + min_bs <= cap_end(&s->zs->z[zi]))
        goto out;
other:;
    bool wait_close = s->zs->nopen == s->zs->nz || (s->zs->max_open && s->zs->nopen == s->zs->max_open) ||
                      (s->p.job_max_open_zones && s->my_open == s->p.job_max_open_zones);
    if (wait_close && inflight)
        return wait; /* fio quiesces so that zones can close */
    for (uint64_t i = s->p.region_len / s->zs->zone_size; i > 0; i--) {
        zi = zi + 1 < s->zs->nz ? zi + 1 : 0;
        if (!s->zs->z[zi].seq || s->zs->z[zi].open)
            continue;
        if (open_zone(s, zi))
            goto out;
    }
    for (unsigned i = 0; i < s->zs->nopen; i++) {
        zi = s->zs->open[i];
        if (s->zs->z[zi].wp + min_bs <= cap_end(&s->zs->z[zi]))
            goto out;
    }
    /* fio's any_io_in_flight: this worker's I/O or the others' writes */
    return inflight || s->zs->nbusy > s->my_busy ? wait : none;
out:
    *off = s->zs->z[zi].start;
    return zi;
}

/* fio's zbd_find_zone: a zone with min_bytes below its write pointer, the
 * next one for sequential I/O, the nearest for random I/O; nz = none */
static unsigned find_zone(const struct zbd_state *s, unsigned zb, uint64_t min_bytes)
{
    long n = (long)s->zs->nz;
    for (long z1 = (long)zb + 1, z2 = (long)zb - 1; z1 < n || z2 >= 0; z1++, z2--) {
        if (z1 < n) {
            if (s->zs->z[z1].start + min_bytes <= s->zs->z[z1].wp)
                return (unsigned)z1;
        } else if (!s->p.random) {
            break;
        }
        if (s->p.random && z2 >= 0 && s->zs->z[z2].start + min_bytes <= s->zs->z[z2].wp)
            return (unsigned)z2;
    }
    return s->zs->nz;
}

static enum zbd_act adjust_read(struct zbd_state *s, uint64_t *off, uint32_t *len)
{
    uint64_t min_bs = s->p.min_bs[0];
    unsigned zi = zbd_zone_of(s, *off);
    const struct zbd_zone *orig = &s->zs->z[zi];
    if (s->p.read_beyond_wp)
        return ZBD_OK;
    uint64_t range = s->zs->z[zi].wp - s->zs->z[zi].start;
    if (range < min_bs || (!s->p.random && *off + min_bs > s->zs->z[zi].wp)) {
        zi = find_zone(s, zi, min_bs);
        if (zi >= s->zs->nz)
            return ZBD_EOF;
        range = s->zs->z[zi].wp - s->zs->z[zi].start;
        if (!s->p.random)
            *off = s->zs->z[zi].start;
    }
    const struct zbd_zone *z = &s->zs->z[zi];
    if (range <= *len)
        *off = z->start;
    else if (s->p.random)
        *off = z->start + ((*off - orig->start) % (range - *len)) / min_bs * min_bs;
    if (!z->seq)
        return ZBD_OK;
    uint64_t nl = *len < z->wp - *off ? *len : z->wp - *off;
    nl = nl / min_bs * min_bs;
    if (nl < *len)
        *len = (uint32_t)nl;
    return ZBD_OK;
}

enum zbd_act zbd_adjust(struct zbd_state *s, unsigned *dir, uint64_t *off, uint32_t *len, unsigned inflight)
{
    /* fio's zbd_adjust_ddir: a mixed job writes until there is data */
    if (*dir == 0 && s->p.mixed && !s->zs->wp_bytes && !s->p.read_beyond_wp)
        *dir = 1;
    unsigned zi = zbd_zone_of(s, *off);
    if (zi >= s->zs->nz)
        return ZBD_EOF;
    if (!s->zs->z[zi].seq) {
        if (*dir != 1)
            return ZBD_OK;
        /* a write in a conventional zone does not run into the next */
        uint64_t end = s->zs->z[zi].start + s->zs->z[zi].len;
        if (zi + 1 >= s->zs->nz || !s->zs->z[zi + 1].seq || *off + *len <= end)
            return ZBD_OK;
        uint64_t nl = end - *off;
        if (*off + s->p.min_bs[1] > end) {
            *off = s->zs->z[zi].start + end - *off;
            nl = *len < end - *off ? *len : end - *off;
        }
        *len = (uint32_t)(nl / s->p.min_bs[1] * s->p.min_bs[1]);
        return ZBD_OK;
    }
    if (*dir == 0)
        return adjust_read(s, off, len);
    uint64_t min_bs = s->p.min_bs[1];
    if (*len > s->zs->zone_size)
        return ZBD_EOF;
    if (!open_zone(s, zi)) {
        zi = convert_to_open(s, off, min_bs, inflight);
        if (zi == s->zs->nz + 1)
            return ZBD_WAIT;
        if (zi >= s->zs->nz)
            return ZBD_EOF;
    }
    struct zbd_zone *z = &s->zs->z[zi];
    if (z->busy)
        return ZBD_WAIT; /* fio's zone lock: one write in flight per zone */
    /* the zone reset threshold, counted once per write */
    if (s->p.reset_frequency > 0 && !z->reset_due && !s->resumed &&
        (double)s->zs->wp_bytes >= (double)s->p.region_len * s->p.reset_threshold && dec_and_reset_write_cnt(s))
        z->reset_due = true;
    if (z->reset_due || zone_full(z, min_bs)) {
        z->reset_due = true;
        if (z->wp > z->start) {
            if (inflight)
                return ZBD_WAIT; /* fio quiesces before a reset */
            s->reset_zone = zi;
            s->resumed = true;
            return ZBD_RESET;
        }
        z->reset_due = false;
        if (z->cap < min_bs)
            return ZBD_EOF;
    }
    s->resumed = false;
    *off = z->wp;
    uint64_t nl = *len < cap_end(z) - *off ? *len : cap_end(z) - *off;
    nl = nl / min_bs * min_bs;
    if (nl < min_bs)
        return ZBD_EOF;
    *len = (uint32_t)nl;
    return ZBD_OK;
}

void zbd_reset_done(struct zbd_state *s, unsigned zi)
{
    struct zbd_zone *z = &s->zs->z[zi];
    s->zs->wp_bytes -= z->wp - z->start;
    z->wp = z->start;
    z->reset_due = false;
    s->resets++;
}

void zbd_queued(struct zbd_state *s, unsigned dir, uint64_t off, uint32_t len)
{
    unsigned zi = zbd_zone_of(s, off);
    if (dir != 1 || zi >= s->zs->nz || !s->zs->z[zi].seq)
        return;
    struct zbd_zone *z = &s->zs->z[zi];
    uint64_t end = off + len < cap_end(z) ? off + len : cap_end(z);
    if (z->wp <= end)
        s->zs->wp_bytes += end - z->wp;
    z->wp = end;
    if (!z->busy) {
        z->busy = true;
        s->zs->nbusy++;
        s->my_busy++;
    }
}

void zbd_unqueued(struct zbd_state *s, unsigned dir, uint64_t off, uint32_t len)
{
    unsigned zi = zbd_zone_of(s, off);
    if (dir != 1 || zi >= s->zs->nz || !s->zs->z[zi].seq)
        return;
    struct zbd_zone *z = &s->zs->z[zi];
    uint64_t end = off + len < cap_end(z) ? off + len : cap_end(z);
    if (z->wp == end && off <= end) {
        s->zs->wp_bytes -= end - off;
        z->wp = off;
    }
    if (z->busy) {
        z->busy = false;
        s->zs->nbusy--;
        s->my_busy--;
    }
}

void zbd_completed(struct zbd_state *s, unsigned dir, uint64_t off, uint32_t len)
{
    unsigned zi = zbd_zone_of(s, off);
    if (dir != 1 || zi >= s->zs->nz || !s->zs->z[zi].seq)
        return;
    if (s->zs->z[zi].busy) {
        s->zs->z[zi].busy = false;
        s->zs->nbusy--;
        if (s->my_busy)
            s->my_busy--;
    }
    if (off + len >= cap_end(&s->zs->z[zi]))
        close_zone(s, zi);
}
