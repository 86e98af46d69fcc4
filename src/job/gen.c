/* gen.c - per-thread I/O generator (see gen.h for the semantics). */
#include "job/gen.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "base/errmsg.h"
#include "job/fio_rand.h"

#define gen_fail(err, errlen, ...) errmsg(err, errlen, -EINVAL, __VA_ARGS__)

#define GEN_SUM_TOL 0.001
#define GEN_FIT_TRIES 16

static const char *const gen_dir_name[DIR_COUNT] = {"reads", "writes", "trims"};

/* Does the generator draw I/Os of direction d itself? (rand)trimwrite's
 * writes repeat its trims, so they have no sizes of their own. */
static bool gen_draws(const struct job_spec *job, unsigned d)
{
    switch (d) {
    case DIR_READ: return job_rw_reads(job);
    case DIR_WRITE: return job_rw_writes(job) && !job_rw_trimwrite(job);
    default: return job_rw_trims(job);
    }
}

/* A cumulative share in [0,1] as a threshold for a 63-bit draw, so the last
 * entry (UINT64_MAX) is always above any draw and the scan needs no bound. */
static uint64_t gen_size_thresh(double frac)
{
    if (!(frac > 0))
        return 0;
    if (frac >= 1)
        return UINT64_MAX;
    return (uint64_t)ldexp(frac, 63);
}

static int gen_init_dir(struct gen *g, unsigned d, const struct job_spec *job, char *err,
                        size_t errlen)
{
    const struct job_bssplit *bs = &job->bs[d];
    struct gen_dir *gd = &g->dir[d];
    const char *dn = gen_dir_name[d];
    uint64_t R = g->region_len;

    if (bs->n < 1)
        return gen_fail(err, errlen, "no block size given for %s", dn);
    if (bs->n > JOB_BSSPLIT_MAX)
        return gen_fail(err, errlen, "%u block sizes for %s, at most %u", bs->n, dn,
                        JOB_BSSPLIT_MAX);
    double sum = 0;
    uint32_t minbs = 0;
    for (unsigned i = 0; i < bs->n; i++) {
        if (bs->bs[i] == 0)
            return gen_fail(err, errlen, "block size 0 for %s", dn);
        if (!(bs->pct[i] >= 0 && bs->pct[i] <= 100))
            return gen_fail(err, errlen, "bssplit share %g%% for %u-byte %s out of range",
                            bs->pct[i], bs->bs[i], dn);
        if (bs->bs[i] > R)
            return gen_fail(err, errlen,
                            "block size %u for %s is larger than the region (%llu bytes)",
                            bs->bs[i], dn, (unsigned long long)R);
        sum += bs->pct[i];
        if (bs->pct[i] > 0 && (minbs == 0 || bs->bs[i] < minbs))
            minbs = bs->bs[i];
    }
    if (fabs(sum - 100) > GEN_SUM_TOL)
        return gen_fail(err, errlen, "bssplit for %s sums to %g%%, must be 100%%", dn, sum);

    uint64_t align = job->blockalign[d] ? job->blockalign[d] : minbs;
    if (align > R)
        return gen_fail(err, errlen, "blockalign %llu for %s is larger than the region (%llu bytes)",
                        (unsigned long long)align, dn, (unsigned long long)R);
    if (g->chunk && g->chunk % align)
        return gen_fail(err, errlen,
                        "alignment %llu for %s does not divide the stripe chunk %llu",
                        (unsigned long long)align, dn, (unsigned long long)g->chunk);
    gd->align = align;
    gd->nblocks = R / align;

    double cum = 0;
    unsigned n = 0;
    for (unsigned i = 0; i < bs->n; i++) {
        if (!(bs->pct[i] > 0))
            continue;
        struct gen_size *s = &gd->size[n++];
        uint64_t len = bs->bs[i];
        cum += bs->pct[i];
        s->thresh = gen_size_thresh(cum / sum);
        s->len = (uint32_t)len;
        s->nstart = (R - len) / align + 1;
        s->last = (s->nstart - 1) * align;
        s->len_up = (len + align - 1) / align * align;
        if (g->chunk && s->len_up > g->chunk)
            return gen_fail(err, errlen,
                            "block size %llu for %s does not fit in the stripe chunk %llu",
                            (unsigned long long)len, dn, (unsigned long long)g->chunk);
    }
    gd->size[n - 1].thresh = UINT64_MAX;
    gd->nsizes = n;
    gd->smallest = 0;
    for (unsigned i = 1; i < n; i++)
        if (gd->size[i].len < gd->size[gd->smallest].len)
            gd->smallest = i;
    for (unsigned k = 0, i = 0; k < 256; k++) {
        while (gd->size[i].thresh <= (uint64_t)k << 55)
            i++;
        gd->guide[k] = (uint8_t)i;
    }
    gd->used = true;
    return 0;
}

const char *gen_map_name(enum gen_map m)
{
    switch (m) {
    case GEN_MAP_NONE: return "none";
    case GEN_MAP_PERM: return "permutation";
    case GEN_MAP_BITMAP: return "bitmap";
    }
    return "unknown";
}

/* Smallest block size with a positive share; 0 when there is none. */
static uint32_t gen_min_bs(const struct job_bssplit *bs, unsigned *nused)
{
    uint32_t m = 0;
    *nused = 0;
    for (unsigned i = 0; i < bs->n && i < JOB_BSSPLIT_MAX; i++) {
        if (!(bs->pct[i] > 0))
            continue;
        (*nused)++;
        if (m == 0 || bs->bs[i] < m)
            m = bs->bs[i];
    }
    return m;
}

enum gen_map gen_map_choice(const struct job_spec *job, const char **why)
{
    const char *dummy;
    if (!why)
        why = &dummy;
    *why = "";
    if (!job_rw_is_random(job->rw) || job->pct_random == 0) {
        *why = "sequential";
        return GEN_MAP_NONE;
    }
    /* lfsr is fio's offset sequence itself (every block once per pass),
     * kept with norandommap, which only drops the map fio's other
     * generators need */
    if (job->norandommap && job->random_generator != RANDGEN_LFSR) {
        *why = "norandommap";
        return GEN_MAP_NONE;
    }
    if (job->dist.kind != DIST_UNIFORM) {
        *why = "non-uniform random_distribution";
        return GEN_MAP_NONE;
    }
    if (gen_fio_stream(job)) {
        if (job->random_generator == RANDGEN_LFSR) {
            *why = "random_generator=lfsr: fio's shift register visits each block once";
            return GEN_MAP_NONE;
        }
        /* fio's rule: any blockalign other than a direction's smallest
         * size turns the map off; else one map in the job's smallest size */
        for (unsigned d = 0; d < DIR_COUNT; d++) {
            unsigned nused;
            uint32_t m = gen_min_bs(&job->bs[d], &nused);
            if (job->blockalign[d] && job->blockalign[d] != m) {
                *why = "blockalign";
                return GEN_MAP_NONE;
            }
        }
        return GEN_MAP_BITMAP;
    }
    uint32_t unit = 0;
    bool fixed = true;
    for (unsigned d = 0; d < DIR_COUNT; d++) {
        if (!gen_draws(job, d))
            continue;
        unsigned nused;
        uint32_t m = gen_min_bs(&job->bs[d], &nused);
        if (job->blockalign[d] && job->blockalign[d] != m) {
            *why = "blockalign";
            return GEN_MAP_NONE;
        }
        if (unit && m != unit) {
            *why = "read and write block sizes differ";
            return GEN_MAP_NONE;
        }
        unit = m;
        if (nused != 1)
            fixed = false;
    }
    if (job->random_generator == RANDGEN_LFSR || fixed)
        return GEN_MAP_PERM;
    return GEN_MAP_BITMAP;
}

static int gen_init_map(struct gen *g, const struct job_spec *job, uint64_t seed, char *err,
                        size_t errlen)
{
    g->map = (uint8_t)gen_map_choice(job, NULL);
    /* a job on fio's stream gets fio's map from gen_fio_start: none here,
     * so the memory is taken once */
    if (gen_fio_stream(job))
        g->map = GEN_MAP_NONE;
    if (g->map == GEN_MAP_NONE)
        return 0;
    const struct gen_dir *gd = g->dir[DIR_READ].used    ? &g->dir[DIR_READ]
                               : g->dir[DIR_WRITE].used ? &g->dir[DIR_WRITE]
                                                        : &g->dir[DIR_TRIM];
    g->map_unit = gd->align;
    uint64_t n = g->region_len / g->map_unit;
    if (g->map == GEN_MAP_PERM) {
        randperm_init(&g->perm, n, seed ^ 0x5ca1ab1e0ddba11ull);
        return 0;
    }
    if (randmap_init(&g->bitmap, n) < 0)
        return errmsg(err, errlen, -ENOMEM,
                      "out of memory for the random map of %llu blocks (%zu MiB); norandommap or "
                      "random_generator=lfsr need none",
                      (unsigned long long)n, randmap_bytes(n) >> 20);
    return 0;
}

int gen_init(struct gen *g, const struct job_spec *job, uint64_t region_len, uint64_t seed,
             char *err, size_t errlen)
{
    memset(g, 0, sizeof(*g));
    if (err && errlen)
        err[0] = 0;
    g->region_len = region_len;
    if (region_len == 0)
        return gen_fail(err, errlen, "the I/O region is empty (0 bytes)");

    bool mixed;
    switch (job->rw) {
    case RW_READ:
    case RW_WRITE:
    case RW_RANDREAD:
    case RW_RANDWRITE:
    case RW_TRIM:
    case RW_RANDTRIM:
    case RW_TRIMWRITE:
    case RW_RANDTRIMWRITE:
        mixed = false;
        break;
    case RW_RW:
    case RW_RANDRW:
        mixed = true;
        break;
    default:
        return gen_fail(err, errlen, "unknown rw mode %d", (int)job->rw);
    }
    if (mixed && job->rwmixread > 100)
        return gen_fail(err, errlen, "rwmixread %u out of range: must be 0 to 100", job->rwmixread);
    bool reads = job_rw_reads(job), writes = job_rw_writes(job);
    g->dir_mode = reads && writes ? GEN_MIXED : reads ? GEN_READS : job_rw_trims(job) ? GEN_TRIMS
                                                                                        : GEN_WRITES;
    g->trimwrite = job_rw_trimwrite(job);
    if (g->dir_mode == GEN_MIXED) {
        double f = job->rwmix_read_frac;
        if (f > 0 && !(f <= 1))
            return gen_fail(err, errlen, "read share %g out of range: must be above 0 and at most 1",
                            f);
        if (f > 0)
            g->read_thresh = f >= 1 ? UINT64_MAX : (uint64_t)ldexp(f, 64);
        else
            g->read_thresh = (uint64_t)(((unsigned __int128)job->rwmixread << 64) / 100);
    }

    bool random = job_rw_is_random(job->rw);
    if (random && job->pct_random > 100)
        return gen_fail(err, errlen, "percentage_random %u out of range: must be 0 to 100",
                        job->pct_random);
    unsigned pct = random ? job->pct_random : 0;
    g->rand_mode = pct == 0 ? GEN_SEQUENTIAL : pct == 100 ? GEN_RANDOM : GEN_SOME_RANDOM;
    g->rand_thresh = (uint64_t)(((unsigned __int128)pct << 64) / 100);
    g->seq_nr = random && job->rw_seq_nr > 1 ? job->rw_seq_nr : 1;
    g->seq_hole = job->seq_hole;

    if (job->layout == LAYOUT_STRIPE && job->stripe_chunk) {
        g->chunk = job->stripe_chunk;
        if ((g->chunk & (g->chunk - 1)) == 0)
            g->chunk_mask = g->chunk - 1;
    }
    /* ActiveRange segments: every I/O inside one segment, as in a chunk */
    if (job->segs.n && job->segs.len) {
        g->chunk = job->segs.len;
        g->chunk_mask = (g->chunk & (g->chunk - 1)) == 0 ? g->chunk - 1 : 0;
    }

    int rc = 0;
    for (unsigned d = 0; d < DIR_COUNT && !rc; d++)
        if (gen_draws(job, d))
            rc = gen_init_dir(g, d, job, err, errlen);
    if (!rc && g->rand_mode != GEN_SEQUENTIAL)
        rc = dist_validate(&job->dist, err, errlen);
    if (!rc && g->rand_mode != GEN_SEQUENTIAL && job->dist.kind != DIST_UNIFORM) {
        struct gen_dir *r = &g->dir[DIR_READ], *w = &g->dir[DIR_WRITE];
        if (r->used)
            rc = dist_init(&r->dist, &job->dist, r->nblocks, job->seed, err, errlen);
        if (!rc && w->used) {
            if (r->used && r->nblocks == w->nblocks) {
                w->dist = r->dist;
                g->dist_shared = true;
            } else {
                rc = dist_init(&w->dist, &job->dist, w->nblocks, job->seed, err, errlen);
            }
        }
        /* trims are never mixed with reads or drawn writes */
        if (!rc && g->dir[DIR_TRIM].used)
            rc = dist_init(&g->dir[DIR_TRIM].dist, &job->dist, g->dir[DIR_TRIM].nblocks, job->seed,
                           err, errlen);
    }
    if (!rc)
        rc = gen_init_map(g, job, seed, err, errlen);
    if (rc) {
        gen_free(g);
        return rc;
    }
    g->passes = job->passes;
    g->seq_passes = g->rand_mode == GEN_SEQUENTIAL && g->dir_mode != GEN_MIXED;
    if (g->map == GEN_MAP_PERM && g->rand_mode == GEN_RANDOM && g->seq_nr == 1 &&
        g->dir_mode != GEN_MIXED && !g->trimwrite && !g->chunk) {
        const struct gen_dir *gd = &g->dir[g->dir_mode];
        g->perm_only = gd->nsizes == 1 && gd->size[0].len == g->map_unit;
    }
    rng_seed(&g->rng, seed);
    return 0;
}

/* Start of the chunk holding off. Division only for a chunk that is not a
 * power of two. */
static inline uint64_t gen_chunk_start(const struct gen *g, uint64_t off)
{
    if (g->chunk_mask)
        return off & ~g->chunk_mask;
    return off / g->chunk * g->chunk;
}

static inline uint64_t gen_random_off(struct gen *g, const struct gen_dir *gd,
                                      const struct gen_size *s)
{
    uint64_t off;
    if (gd->dist.m == 0) { /* uniform */
        off = rng_below(&g->rng, s->nstart) * gd->align;
        if (!g->chunk)
            return off;
        for (int t = 1; t < GEN_FIT_TRIES; t++) {
            uint64_t c = gen_chunk_start(g, off);
            if (off + s->len <= c + g->chunk)
                return off;
            off = rng_below(&g->rng, s->nstart) * gd->align;
        }
    } else {
        off = dist_next(&gd->dist, &g->rng) * gd->align;
        if (off > s->last)
            off = s->last;
        if (!g->chunk)
            return off;
    }
    uint64_t c = gen_chunk_start(g, off);
    if (off + s->len > c + g->chunk)
        off = c + g->chunk - s->len_up;
    return off;
}

/* Does a len-byte I/O at off stay in the region (and in its stripe chunk)? */
static inline bool gen_fits(const struct gen *g, uint64_t off, uint64_t len)
{
    if (len > g->region_len || off > g->region_len - len)
        return false;
    return !g->chunk || off + len <= gen_chunk_start(g, off) + g->chunk;
}

/* A sequential I/O at *off: keeps the drawn size when it fits, else redraws
 * among the sizes (fio redraws until one fits), else takes the smallest that
 * fits; a stripe chunk too small for any size is skipped. False when no size
 * fits before the region's end. */
static bool gen_seq_place(struct gen *g, const struct gen_dir *gd, const struct gen_size **sp,
                          uint64_t *off)
{
    const struct gen_size *small = &gd->size[gd->smallest];
    for (;;) {
        if (gen_fits(g, *off, (*sp)->len))
            return true;
        if (gen_fits(g, *off, small->len))
            break;
        if (!g->chunk)
            return false;
        uint64_t next = gen_chunk_start(g, *off) + g->chunk;
        if (next >= g->region_len)
            return false;
        *off = next;
    }
    for (int t = 0; t < GEN_FIT_TRIES; t++) {
        uint64_t r = rng_next(&g->rng) >> 1;
        const struct gen_size *s = &gd->size[gd->guide[r >> 55]];
        while (r >= s->thresh)
            s++;
        if (gen_fits(g, *off, s->len)) {
            *sp = s;
            return true;
        }
    }
    *sp = small;
    return true;
}

/* The end of a pass: false when it was the last one, else everything starts
 * over (map emptied, sequential positions to 0). */
static bool gen_pass_end(struct gen *g)
{
    g->pass++;
    if (g->passes && g->pass >= g->passes)
        return false;
    gen_rewind(g);
    return true;
}

/* A random offset from the map: a block not yet covered this pass. Bitmap:
 * a uniform draw, moved to the next free block when taken (fio's rule), and
 * the I/O cut at the first block already covered. */
static bool gen_map_off(struct gen *g, const struct gen_dir *gd, const struct gen_size **sp,
                        uint64_t *offp, uint64_t *lenp)
{
    uint64_t b, unit = g->map_unit;
    for (;;) {
        if (g->map == GEN_MAP_PERM) {
            if (randperm_next(&g->perm, &b))
                break;
        } else if (g->bitmap.nfree) {
            b = rng_below(&g->rng, g->bitmap.n);
            if (randmap_isset(&g->bitmap, b))
                b = randmap_next_free(&g->bitmap, b);
            break;
        }
        if (!gen_pass_end(g))
            return false;
    }
    uint64_t off = b * unit, len = (*sp)->len;
    if (g->map == GEN_MAP_PERM) {
        /* one block per I/O, or random_generator=lfsr with several sizes:
         * a start block once per pass, the I/O must still fit */
        if (!gen_fits(g, off, len))
            gen_seq_place(g, gd, sp, &off);
        *offp = off;
        *lenp = (*sp)->len;
        return true;
    }
    uint64_t nb = (len + unit - 1) / unit;
    if (g->chunk) {
        uint64_t room = (gen_chunk_start(g, off) + g->chunk - off) / unit;
        if (nb > room)
            nb = room;
    }
    uint64_t got = randmap_set_run(&g->bitmap, b, nb);
    if (got * unit < len)
        len = got * unit;
    *offp = off;
    *lenp = len;
    return true;
}

bool gen_fio_stream(const struct job_spec *job)
{
    /* one file per worker, as one per fio thread: one target, or fio's
     * default per-clone files (fio drives several files of one job from
     * one thread, ssdbench from one worker each) */
    bool one_file = job->ntargets <= 1 || (job->numjobs <= 1 && job->clones == job->ntargets);
    /* a file set (and several names, which fio mode makes one): fio's one
     * thread over its files, picked round-robin, sequentially or at
     * random as fio; every file openable at once */
    unsigned nf = job->nrfiles ? job->nrfiles : 1;
    /* openfiles below the files: fio's busy answers retry at once only at
     * iodepth 1 (deeper, completions decide when a done file closes) */
    bool fset = job->layout == LAYOUT_FILES && (!job->openfiles || job->openfiles >= nf || job->iodepth <= 1);
    bool zones = job->zone_mode == JOB_ZONE_NONE ||
                 (job->zone_mode == JOB_ZONE_STRIDED && job->layout == LAYOUT_JBOD);
    return job->fio_stream && !fio_gen_unsupported(job) && zones &&
           ((job->layout == LAYOUT_JBOD && one_file) || fset);
}

int gen_fio_start(struct gen *g, const struct job_spec *job, unsigned thread_number,
                  const char *file_name, char *err, size_t errlen)
{
    if (!gen_fio_stream(job) || g->chunk)
        return 0;
    struct fio_gen *f = malloc(sizeof(*f));
    if (!f)
        return errmsg(err, errlen, -ENOMEM, "out of memory");
    int rc = fio_gen_init(f, job, g->region_len, thread_number, file_name, err, errlen);
    if (rc < 0) {
        free(f);
        return rc;
    }
    if (job->zone_mode == JOB_ZONE_STRIDED)
        f->passes = 1; /* an I/O that cannot be made ends fio's loop: the walk restarts (zone.h) */
    g->perm_only = false;
    g->write_due = false;
    g->dir_mode = GEN_FIO;
    g->fio = f;
    return 0;
}

bool gen_next_any(struct gen *g, struct gen_io *io)
{
    if (g->write_due) {
        /* (rand)trimwrite: the block just trimmed is written */
        g->write_due = false;
        io->dir = DIR_WRITE;
        io->len = g->due_len;
        io->off = g->due_off;
        return true;
    }
    unsigned d = g->dir_mode;
    if (d >= GEN_MIXED) {
        if (d == GEN_FIO) {
            bool more = fio_gen_next(g->fio, io);
            g->pass = g->fio->pass; /* the worker watches pass ends (unlink_each_loop, verify) */
            return more;
        }
        d = rng_next(&g->rng) < g->read_thresh ? DIR_READ : DIR_WRITE;
    }
    struct gen_dir *gd = &g->dir[d];

    const struct gen_size *s = &gd->size[0];
    if (gd->nsizes > 1) {
        uint64_t r = rng_next(&g->rng) >> 1;
        s = &gd->size[gd->guide[r >> 55]];
        while (r >= s->thresh)
            s++; /* stops at the last entry: its thresh is UINT64_MAX */
    }
    uint64_t R = g->region_len, off, len;

    bool rnd = false;
    if (gd->seq_left) {
        gd->seq_left--;
    } else {
        gd->seq_left = g->seq_nr - 1;
        rnd = g->rand_mode == GEN_RANDOM ||
              (g->rand_mode == GEN_SOME_RANDOM && rng_next(&g->rng) < g->rand_thresh);
    }

    if (rnd && g->map != GEN_MAP_NONE) {
        if (!gen_map_off(g, gd, &s, &off, &len))
            return false;
    } else if (rnd) {
        off = gen_random_off(g, gd, s);
        len = s->len;
    } else {
        off = gd->pos;
        if (g->seq_hole > INT64_MAX && off) {
            /* backwards: that far before the end of the last I/O, wrapping
             * to that far before the end of the region */
            uint64_t back = (uint64_t)0 - g->seq_hole;
            off = off >= back ? off - back : R >= back ? R - back : 0;
        }
        if (!gen_seq_place(g, gd, &s, &off)) {
            if (g->seq_passes) {
                /* one direction, sequential: the pass is over */
                if (!gen_pass_end(g))
                    return false;
            } else {
                gd->pos = 0; /* mixed or partly random: this direction starts over */
            }
            off = 0;
            gen_seq_place(g, gd, &s, &off);
        }
        len = s->len;
    }

    uint64_t end = off + len;
    gd->pos = g->seq_hole > INT64_MAX ? end : g->seq_hole >= R - end ? R : end + g->seq_hole;
    io->dir = (uint8_t)d;
    io->len = (uint32_t)len;
    io->off = off;
    if (g->trimwrite) {
        g->write_due = true;
        g->due_len = (uint32_t)len;
        g->due_off = off;
    }
    return true;
}

void gen_rewind(struct gen *g)
{
    if (g->fio) {
        fio_gen_rewind(g->fio);
        return;
    }
    for (unsigned d = 0; d < DIR_COUNT; d++) {
        g->dir[d].pos = 0;
        g->dir[d].seq_left = 0;
    }
    if (g->map == GEN_MAP_PERM)
        randperm_reset(&g->perm);
    else if (g->map == GEN_MAP_BITMAP)
        randmap_reset(&g->bitmap);
}

void gen_zone_reset(struct gen *g, uint64_t base, uint64_t io_size, uint64_t end)
{
    if (g->fio) {
        fio_gen_zone_base(g->fio, base, io_size, end);
        fio_gen_file_reset(g->fio);
    } else {
        gen_rewind(g);
    }
}

void gen_seq_wrap(struct gen *g, uint64_t limit)
{
    for (unsigned d = 0; d < DIR_COUNT; d++) {
        uint64_t *pos = g->fio ? &g->fio->cur->last_pos[d] : &g->dir[d].pos;
        if (*pos >= limit)
            *pos = 0;
    }
}

void gen_free(struct gen *g)
{
    dist_free(&g->dir[DIR_READ].dist);
    if (g->dist_shared)
        g->dir[DIR_WRITE].dist = (struct dist){0};
    else
        dist_free(&g->dir[DIR_WRITE].dist);
    g->dist_shared = false;
    dist_free(&g->dir[DIR_TRIM].dist);
    if (g->map == GEN_MAP_BITMAP)
        randmap_free(&g->bitmap);
    g->map = GEN_MAP_NONE;
    if (g->fio) {
        fio_gen_free(g->fio);
        free(g->fio);
        g->fio = NULL;
    }
}
