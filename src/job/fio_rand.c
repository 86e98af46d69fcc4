/* fio_rand.c - fio 3.33's I/O stream (see fio_rand.h for what it follows). */
#include "job/fio_rand.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/errmsg.h"
#include "job/gen.h"

/* rand_max(state) + 1.0, as fio computes it in double */
static double fio_frand_span(const struct fio_frand *f)
{
    return f->use64 ? (double)UINT64_MAX + 1.0 : (double)UINT32_MAX + 1.0;
}

uint64_t fio_frand_between(struct fio_frand *f, uint64_t start, uint64_t end)
{
    if (f->use64) {
        uint64_t r = fio_taus_next64(f);
        return start + (uint64_t)((double)(end - start + 1) * (r / ((double)UINT64_MAX + 1.0)));
    }
    uint32_t r = fio_taus_next32(f);
    uint32_t e = (uint32_t)(end - start) + 1;
    return start + (uint64_t)(int)((double)e * (r / ((double)UINT32_MAX + 1.0)));
}

/* --- fio's LFSR (lib/lfsr.c) --- */

/* Tap positions of maximal-length shift registers of 3 to 63 bits (the
 * published table fio 3.33 uses), up to six taps each, 0-terminated. */
static const uint8_t fio_lfsr_taps[64][6] = {
    {0}, {0}, {0}, {3, 2}, {4, 3}, {5, 3}, {6, 5}, {7, 6}, {8, 6, 5, 4}, {9, 5}, {10, 7},
    {11, 9}, {12, 6, 4, 1}, {13, 4, 3, 1}, {14, 5, 3, 1}, {15, 14}, {16, 15, 13, 4}, {17, 14},
    {18, 11}, {19, 6, 2, 1}, {20, 17}, {21, 19}, {22, 21}, {23, 18}, {24, 23, 22, 17}, {25, 22},
    {26, 6, 2, 1}, {27, 5, 2, 1}, {28, 25}, {29, 27}, {30, 6, 4, 1}, {31, 28}, {32, 31, 29, 1},
    {33, 20}, {34, 27, 2, 1}, {35, 33}, {36, 25}, {37, 5, 4, 3, 2, 1}, {38, 6, 5, 1}, {39, 35},
    {40, 38, 21, 19}, {41, 38}, {42, 41, 20, 19}, {43, 42, 38, 37}, {44, 43, 18, 17},
    {45, 44, 42, 41}, {46, 45, 26, 25}, {47, 42}, {48, 47, 21, 20}, {49, 40}, {50, 49, 24, 23},
    {51, 50, 36, 35}, {52, 49}, {53, 52, 38, 37}, {54, 53, 18, 17}, {55, 31}, {56, 55, 35, 34},
    {57, 50}, {58, 39}, {59, 58, 38, 37}, {60, 59}, {61, 60, 46, 45}, {62, 61, 6, 5}, {63, 62},
};

static void fio_lfsr_step(struct fio_lfsr *l)
{
    uint64_t v = l->last;
    l->last = ((v >> 1) | l->top_bit) ^ (((v & 1) - 1) & l->xormask);
}

/* lfsr_reset: false when the seed is the register's one illegal state */
static bool fio_lfsr_reset(struct fio_lfsr *l, uint64_t seed)
{
    uint64_t mask = (l->top_bit << 1) - 1;
    l->num_vals = 0;
    l->last = seed & mask;
    l->cycle = 1; /* spin 0: the first value takes two steps (prepare_spin) */
    l->cached_cycle = 0;
    return l->last != mask;
}

/* lfsr_init for nums values; false when fio's would fail */
static bool fio_lfsr_init(struct fio_lfsr *l, uint64_t nums, uint64_t seed)
{
    memset(l, 0, sizeof(*l));
    unsigned bits = 3;
    while (bits < 64 && (1ull << bits) <= nums)
        bits++;
    if (bits >= 64 || nums == 0)
        return false;
    l->max_val = nums - 1;
    for (unsigned i = 0; i < 6 && fio_lfsr_taps[bits][i]; i++)
        l->xormask |= 1ull << (fio_lfsr_taps[bits][i] - 1);
    l->top_bit = 1ull << (fio_lfsr_taps[bits][0] - 1);
    return fio_lfsr_reset(l, seed);
}

/* lfsr_next: false once every value of the pass was handed out */
static bool fio_lfsr_next(struct fio_lfsr *l, uint64_t *v)
{
    if (l->num_vals++ > l->max_val)
        return false;
    do {
        if (l->cycle && !--l->cycle) {
            fio_lfsr_step(l);
            fio_lfsr_step(l);
            l->cycle = l->cached_cycle;
        } else {
            fio_lfsr_step(l);
        }
    } while (l->last > l->max_val);
    *v = l->last;
    return true;
}

/* --- fio's zipf, pareto and normal offsets --- */

static uint32_t fio_rol32(uint32_t w, unsigned s)
{
    return (w << s) | (w >> (32 - s));
}

uint32_t fio_jhash(const void *key, uint32_t length, uint32_t initval)
{
    const uint8_t *k = key;
    uint32_t a, b, c;
    a = b = c = 0x61C88647u + length + initval;
    while (length > 12) {
        /* fio adds one byte of each word here, not the word */
        a += k[0];
        b += k[4];
        c += k[8];
        a -= c; a ^= fio_rol32(c, 4); c += b;
        b -= a; b ^= fio_rol32(a, 6); a += c;
        c -= b; c ^= fio_rol32(b, 8); b += a;
        a -= c; a ^= fio_rol32(c, 16); c += b;
        b -= a; b ^= fio_rol32(a, 19); a += c;
        c -= b; c ^= fio_rol32(b, 4); b += a;
        length -= 12;
        k += 12;
    }
    if (length == 0)
        return c;
    uint32_t add[3] = {0, 0, 0};
    for (uint32_t i = 0; i < length; i++)
        add[i / 4] += (uint32_t)k[i] << (8 * (i % 4));
    a += add[0];
    b += add[1];
    c += add[2];
    c ^= b; c -= fio_rol32(b, 14);
    a ^= c; a -= fio_rol32(c, 11);
    b ^= a; b -= fio_rol32(a, 25);
    c ^= b; c -= fio_rol32(b, 16);
    a ^= c; a -= fio_rol32(c, 4);
    b ^= a; b -= fio_rol32(a, 14);
    c ^= b; c -= fio_rol32(b, 24);
    return c;
}

#define FIO_GOLDEN_64 0x61C8864680B583EBull
#define FIO_ZIPF_MAX_GEN 10000000ull

static void fio_dist_init(struct fio_dist *z, const struct job_distribution *jd, uint64_t nranges,
                          uint32_t seed)
{
    memset(z, 0, sizeof(*z));
    z->kind = jd->kind;
    z->nranges = nranges;
    fio_taus_seed(&z->r, seed, false);
    if (jd->kind == DIST_NORMAL) {
        if (jd->param != 0.0) {
            z->stddev = (unsigned)ceil((double)nranges * jd->param / 100.0);
            if (z->stddev > nranges / 2)
                z->stddev = (unsigned)(nranges / 2);
        }
        return;
    }
    z->rand_off = fio_taus_next32(&z->r);
    if (jd->kind == DIST_ZIPF) {
        z->theta = jd->param;
        z->zeta2 = pow(1.0, z->theta) + pow(0.5, z->theta);
        uint64_t n = nranges < FIO_ZIPF_MAX_GEN ? nranges : FIO_ZIPF_MAX_GEN;
        for (uint64_t i = 0; i < n; i++)
            z->zetan += pow(1.0 / (double)(i + 1), z->theta);
    } else {
        z->pareto_pow = log(jd->param) / log(1.0 - jd->param);
    }
}

static uint64_t fio_dist_next(struct fio_dist *z)
{
    uint64_t val;
    if (z->kind == DIST_ZIPF) {
        double n = (double)z->nranges;
        double alpha = 1.0 / (1.0 - z->theta);
        double eta = (1.0 - pow(2.0 / n, 1.0 - z->theta)) / (1.0 - z->zeta2 / z->zetan);
        double u = (double)fio_taus_next32(&z->r) / (double)UINT32_MAX;
        double rz = u * z->zetan;
        if (rz < 1.0)
            val = 1;
        else if (rz < 1.0 + pow(0.5, z->theta))
            val = 2;
        else
            val = 1 + (uint64_t)(n * pow(eta * u - eta + 1.0, alpha));
        val--;
    } else if (z->kind == DIST_PARETO) {
        double u = (double)fio_taus_next32(&z->r) / (double)UINT32_MAX;
        val = (uint64_t)((double)(z->nranges - 1) * pow(u, z->pareto_pow));
    } else {
        uint64_t sum = 0;
        for (int i = 0; i < 12; i++)
            sum += fio_taus_next32(&z->r) % (z->nranges + 1);
        sum = (sum + 11) / 12;
        if (z->stddev) {
            uint32_t r = fio_taus_next32(&z->r);
            int vr = (int)(z->stddev * (r / ((double)UINT32_MAX + 1.0)));
            int dev = (int)((unsigned)vr - z->stddev / 2);
            while ((uint64_t)(int64_t)dev + sum >= z->nranges)
                dev /= 2;
            sum += (uint64_t)(int64_t)dev;
        }
        val = sum;
    }
    if (!z->nohash)
        val *= FIO_GOLDEN_64;
    return (val + z->rand_off) % z->nranges;
}

/* --- the seed table (init.c) --- */

enum {
    FIO_S_BS = 0,
    FIO_S_BS1,
    FIO_S_BS2,
    FIO_S_VER,
    FIO_S_MIX,
    FIO_S_FILE,
    FIO_S_BLOCK,
    FIO_S_SEQ_RAND_READ = 10,
    FIO_S_ZONE = 16,
};

/* td_fill_rand_seeds: the states this stream uses, from the table */
static void fio_fill_states(struct fio_gen *f, unsigned thread_number, bool repeatable)
{
    if (f->allrand)
        for (unsigned i = 0; i < FIO_NSEEDS; i++)
            f->seeds[i] = FIO_RANDSEED_CONST * thread_number + i;
    uint64_t rs = f->seeds[FIO_S_BS], ws = f->seeds[FIO_S_BS1], ts = f->seeds[FIO_S_BS2];
    if (f->verify)
        ws = rs;
    if (f->trimwrite)
        ts = ws; /* the trims' sizes are the writes' */
    fio_taus_seed(&f->bs_state[DIR_READ], rs, f->use64);
    fio_taus_seed(&f->bs_state[DIR_WRITE], ws, f->use64);
    fio_taus_seed(&f->bs_state[DIR_TRIM], ts, f->use64);
    fio_taus_seed(&f->rwmix_state, f->seeds[FIO_S_MIX], false);
    fio_taus_seed(&f->zone_state, f->seeds[FIO_S_ZONE], false);
    if (f->fs_type == FSERVICE_RANDOM)
        fio_taus_seed(&f->next_file_state, f->seeds[FIO_S_FILE], f->use64);
    else if (f->fs_type >= FSERVICE_ZIPF && f->nfiles > 1) {
        /* init_rand_file_service: fio's file_service_nr ranges per file,
         * no hash, seeded from the file slot's low 32 bits */
        fio_dist_init(&f->file_dist, &f->file_jd, (uint64_t)f->nfiles << 10, (uint32_t)f->seeds[FIO_S_FILE]);
        f->file_dist.nohash = true;
    }
    if (!f->random)
        return;
    if (repeatable)
        f->seeds[FIO_S_BLOCK] = FIO_RANDSEED_CONST * thread_number;
    fio_taus_seed(&f->random_state, f->seeds[FIO_S_BLOCK], f->use64);
    for (unsigned d = 0; d < DIR_COUNT; d++)
        fio_taus_seed(&f->seq_rand[d], f->seeds[FIO_S_SEQ_RAND_READ], false);
}

/* --- set-up --- */

const char *fio_gen_unsupported(const struct job_spec *job)
{
    /* fio 3.33 adds the file offset twice to randtrimwrite's writes */
    if (job_rw_trimwrite(job) && job_rw_is_random(job->rw) && (job->offset || job->offset_increment))
        return "randtrimwrite with an offset";
    if (job->rwmix_read_frac > 0)
        return "an exact read share";
    if (job->segs.n)
        return "segments";
    return NULL;
}

/* fio's order of bssplit entries: sorted by percentage (a stable sort, as
 * glibc's qsort is for these sizes) */
static void fio_dir_sizes(struct fio_dir *fd, const struct job_bssplit *b)
{
    if (b->range_lo) {
        fd->min_bs = b->range_lo;
        fd->max_bs = b->range_hi;
        return;
    }
    fd->min_bs = UINT64_MAX;
    fd->max_bs = 0;
    for (unsigned i = 0; i < b->n && i < JOB_BSSPLIT_MAX; i++) {
        if (b->bs[i] < fd->min_bs)
            fd->min_bs = b->bs[i];
        if (b->bs[i] > fd->max_bs)
            fd->max_bs = b->bs[i];
    }
    if (b->n <= 1)
        return;
    unsigned n = 0;
    for (unsigned i = 0; i < b->n && i < JOB_BSSPLIT_MAX; i++) {
        unsigned p = (unsigned)(b->pct[i] + 1e-6); /* fio reads percentages with atoi */
        unsigned k = n++;
        while (k > 0 && fd->split_perc[k - 1] > p) {
            fd->split_perc[k] = fd->split_perc[k - 1];
            fd->split_bs[k] = fd->split_bs[k - 1];
            k--;
        }
        fd->split_perc[k] = p;
        fd->split_bs[k] = b->bs[i];
    }
    fd->nsplit = n;
}

/* fio's per-file set-up (init_random_map, init_rand_distribution, and
 * last_block for each direction) for file k */
static int fio_file_init(struct fio_gen *f, const struct job_spec *job, struct fio_fstate *fs,
                         uint64_t region_len, const char *file_name, char *err, size_t errlen)
{
    fs->region_len = fs->io_size = fs->io_end = fs->file_end = region_len;
    for (unsigned d = 0; d < DIR_COUNT; d++) {
        const struct fio_dir *fd = &f->d[d];
        uint64_t max_size = region_len;
        if (fd->min_bs > fd->ba)
            max_size = max_size > fd->min_bs - fd->ba ? max_size - (fd->min_bs - fd->ba) : 0;
        fs->lastb[d] = max_size / fd->ba;
        fs->last_start[d] = UINT64_MAX;
    }
    uint64_t blocks = region_len / f->rw_min_bs;
    fs->map_on = f->map_on && blocks > 0;
    if (fs->map_on && randmap_init(&fs->map, blocks) < 0) {
        fs->map_on = false;
        return errmsg(err, errlen, -ENOMEM,
                      "out of memory for fio's random map of %llu blocks (%zu MiB); norandommap needs none",
                      (unsigned long long)blocks, randmap_bytes(blocks) >> 20);
    }
    if (f->nonuniform && !f->zoned) {
        /* init_rand_distribution: ranges of the smaller of the read and
         * write sizes, seeded from the file's name (randrepeat) */
        uint64_t rs = f->d[DIR_READ].min_bs < f->d[DIR_WRITE].min_bs ? f->d[DIR_READ].min_bs
                                                                       : f->d[DIR_WRITE].min_bs;
        uint64_t nranges = (region_len + rs - 1) / rs;
        const char *name = file_name ? file_name : "";
        uint32_t dseed = fio_jhash(name, (uint32_t)strlen(name), 0) * f->thread_number;
        if (!f->repeat)
            dseed = (uint32_t)f->seeds[FIO_S_BLOCK];
        fio_dist_init(&fs->dist, &job->dist, nranges ? nranges : 1, dseed);
    }
    if (f->lfsr_on && !fio_lfsr_init(&fs->lfsr, blocks, f->seeds[FIO_S_BLOCK]))
        return errmsg(err, errlen, -EINVAL,
                      "random_generator=lfsr: fio's shift register cannot start from this seed or "
                      "cover %llu blocks (fio fails the same job)",
                      (unsigned long long)blocks);
    return 0;
}

int fio_gen_init(struct fio_gen *f, const struct job_spec *job, uint64_t region_len,
                 unsigned thread_number, const char *file_name, char *err, size_t errlen)
{
    const char *names[1] = {file_name};
    return fio_gen_init_files(f, job, 1, &region_len, names, thread_number, err, errlen);
}

int fio_gen_init_files(struct fio_gen *f, const struct job_spec *job, unsigned nfiles,
                       const uint64_t *lens, const char *const *names, unsigned thread_number,
                       char *err, size_t errlen)
{
    memset(f, 0, sizeof(*f));
    if (nfiles == 0)
        return errmsg(err, errlen, -EINVAL, "no file to serve");
    f->random = job_rw_is_random(job->rw);
    bool reads = job_rw_reads(job), writes = job_rw_writes(job);
    f->trimwrite = job_rw_trimwrite(job);
    f->mode = reads && writes ? DIR_COUNT : reads ? DIR_READ : job_rw_trims(job) && !f->trimwrite ? DIR_TRIM : DIR_WRITE;
    f->rwmix[DIR_READ] = job->rwmixread > 100 ? 100 : job->rwmixread;
    f->rwmix[DIR_WRITE] = 100 - f->rwmix[DIR_READ];
    f->perc_rand = f->random ? job->pct_random : 0;
    f->seq_nr = f->random && job->rw_seq_nr > 1 ? job->rw_seq_nr : 1;
    f->seq_left = 1; /* fio: the first I/O takes a new offset */
    f->seq_add = (int64_t)job->seq_hole;
    f->passes = job->passes;
    f->time_based = job->time_based;
    f->verify = job->verify != VERIFY_OFF;
    /* fio seeds a thread (setup_random_seeds) before fixup_options lets a
     * randseed turn randrepeat off: the offsets' seed follows randrepeat
     * alone at the start, and only randrepeat without randseed re-seeds
     * every loop */
    f->repeat = job->fio_randrepeat && !job->fio_seed_given;
    bool repeat_init = job->fio_randrepeat;
    f->allrand = job->fio_allrandrepeat;
    f->fs_type = (uint8_t)job->file_service;
    f->fs_nr = job->file_service_nr ? job->file_service_nr : 1;
    f->nfiles = nfiles; /* the seeds below need it */
    f->max_open = job->openfiles && job->openfiles < nfiles ? job->openfiles : nfiles;
    if (f->fs_type >= FSERVICE_ZIPF) {
        /* fio's defaults: zipf 1.1, pareto 0.2, gauss 0 (no deviation) */
        f->file_jd.kind = f->fs_type == FSERVICE_ZIPF ? DIST_ZIPF : f->fs_type == FSERVICE_PARETO ? DIST_PARETO : DIST_NORMAL;
        f->file_jd.param = job->file_service_param;
        if (f->file_jd.param == 0 && f->fs_type != FSERVICE_NORMAL)
            f->file_jd.param = f->fs_type == FSERVICE_ZIPF ? 1.1 : 0.2;
    }

    f->rw_min_bs = UINT64_MAX;
    bool ba_other = false;
    for (unsigned d = 0; d < DIR_COUNT; d++) {
        struct fio_dir *fd = &f->d[d];
        fio_dir_sizes(fd, &job->bs[d]);
        if (fd->min_bs == UINT64_MAX || fd->min_bs == 0)
            fd->min_bs = fd->max_bs = 4096;
        fd->ba = f->random && job->blockalign[d] ? job->blockalign[d] : fd->min_bs;
        if (fd->ba != fd->min_bs)
            ba_other = true;
        if (fd->min_bs < f->rw_min_bs)
            f->rw_min_bs = fd->min_bs;
    }
    /* fio seeds the thread with the generator the job names; for a file
     * of more than 2^32 blocks (filesetup.c check_rand_gen_limits) it
     * moves a job that names none to tausworthe64 after that, so the
     * first loop draws 32 bits and a re-seeded loop 64 */
    f->use64 = job->random_generator == RANDGEN_TAUSWORTHE64;
    for (unsigned k = 0; k < nfiles; k++)
        if (f->random && lens[k] / f->rw_min_bs > UINT32_MAX && job->random_generator == RANDGEN_TAUSWORTHE)
            f->use64_later = true;
    f->nonuniform = f->random && job->dist.kind != DIST_UNIFORM;
    if (f->nonuniform && job->dist.kind == DIST_ZONED) {
        /* td_zone_gen_index: entry v - 1 of a draw v in 1..100 is the
         * zone's range in percent of the region */
        f->zoned = true;
        unsigned a = 0, sp = 0;
        for (unsigned i = 0; i < job->dist.nzones && a < 100; i++) {
            unsigned ap = (unsigned)(job->dist.zones[i].access_pct + 1e-6);
            unsigned rp = (unsigned)(job->dist.zones[i].range_pct + 1e-6);
            for (unsigned k = a; k < a + ap && k < 100; k++) {
                f->zone_lo[k] = (uint8_t)sp;
                f->zone_hi[k] = (uint8_t)(sp + rp > 100 ? 100 : sp + rp);
            }
            a += ap;
            sp += rp;
        }
        for (unsigned k = a; k < 100; k++) { /* shares below 100: the whole region */
            f->zone_lo[k] = 0;
            f->zone_hi[k] = 100;
        }
    }
    f->lfsr_on = f->random && !f->nonuniform && job->random_generator == RANDGEN_LFSR;
    f->map_on = f->random && !f->nonuniform && !f->lfsr_on && !job->norandommap && !ba_other;

    /* setup_random_seeds: randseed, or fio's default one; with
     * randrepeat=0 and no randseed fio takes random seeds, here the job's
     * own (taken from the clock) */
    uint64_t seed = !job->fio_seed_given && job->fio_randrepeat ? FIO_DEFAULT_RANDSEED : job->seed;
    for (int i = 0; i < 4; i++)
        seed *= 0x9e370001ull;
    for (unsigned i = 0; i < FIO_NSEEDS; i++) {
        f->seeds[i] = seed * thread_number + i;
        seed *= 0x9e370001ull;
    }
    f->thread_number = thread_number;
    fio_fill_states(f, thread_number, repeat_init);

    f->nfiles = nfiles;
    f->files = &f->one;
    if (nfiles > 1 && !(f->files = calloc(nfiles, sizeof(*f->files))))
        return errmsg(err, errlen, -ENOMEM, "out of memory");
    f->cur = f->files;
    for (unsigned k = 0; k < nfiles; k++) {
        int rc = fio_file_init(f, job, &f->files[k], lens[k], names ? names[k] : NULL, err, errlen);
        if (rc < 0) {
            fio_gen_free(f);
            return rc;
        }
    }
    return 0;
}

void fio_gen_free(struct fio_gen *f)
{
    if (!f->files)
        return;
    for (unsigned k = 0; k < f->nfiles; k++) {
        if (f->files[k].map_on)
            randmap_free(&f->files[k].map);
        f->files[k].map_on = false;
    }
    if (f->files != &f->one)
        free(f->files);
    f->files = f->cur = NULL;
}

/* fio_file_reset: the map emptied, positions back to the start */
static void fio_file_reset(struct fio_gen *f, struct fio_fstate *fs)
{
    for (unsigned d = 0; d < DIR_COUNT; d++) {
        fs->last_pos[d] = 0;
        fs->last_start[d] = UINT64_MAX;
    }
    if (fs->map_on)
        randmap_reset(&fs->map);
    if (f->lfsr_on)
        fio_lfsr_reset(&fs->lfsr, f->seeds[FIO_S_BLOCK]);
}

void fio_gen_file_reset(struct fio_gen *f)
{
    fio_file_reset(f, f->cur);
}

void fio_gen_zone_base(struct fio_gen *f, uint64_t base, uint64_t io_size, uint64_t end)
{
    struct fio_fstate *fs = f->cur;
    fs->io_size = io_size;
    fs->io_end = io_size > base ? io_size - base : 0;
    fs->file_end = end > base ? end - base : 0;
}

void fio_gen_rewind(struct fio_gen *f)
{
    /* a new loop: fio's clear_io_state (files closed, not done; seeds
     * again with randrepeat) and each file's reset when it is opened */
    if (f->use64_later)
        f->use64 = true; /* check_rand_gen_limits' switch takes effect with the seeds */
    for (unsigned k = 0; k < f->nfiles; k++) {
        fio_file_reset(f, &f->files[k]);
        f->files[k].done = f->files[k].open = false;
    }
    f->ndone = f->nopen = 0;
    f->have_cur = false;
    f->rwmix_issues = 0;
    f->pass_ios = 0;
    if (f->repeat)
        fio_fill_states(f, f->thread_number, true);
}

/* --- one I/O (io_u.c fill_io_u) --- */

/* get_next_rand_offset for random_distribution=random: false when the map
 * has no free block */
static bool fio_rand_offset(struct fio_gen *f, unsigned d, uint64_t *b)
{
    struct fio_fstate *fs = f->cur;
    if (fs->dist.kind != DIST_UNIFORM) {
        *b = fio_dist_next(&fs->dist);
        return true;
    }
    uint64_t lastb = fs->lastb[d];
    if (!lastb)
        return false;
    uint64_t base = 0;
    if (f->zoned) {
        /* __get_next_rand_offset_zoned */
        unsigned v = (unsigned)fio_frand_between(&f->zone_state, 1, 100);
        unsigned lo = f->zone_lo[v - 1], hi = f->zone_hi[v - 1];
        base = lo ? lo * lastb / 100 : 0;
        lastb = lastb * (hi - lo) / 100;
    }
    if (f->lfsr_on)
        return fio_lfsr_next(&fs->lfsr, b);
    uint64_t r = fio_taus_next(&f->random_state);
    *b = (uint64_t)((double)lastb * (r / fio_frand_span(&f->random_state))) + base;
    if (!fs->map_on || *b >= fs->map.n || !randmap_isset(&fs->map, *b))
        return true;
    *b = randmap_next_free(&fs->map, *b);
    return *b != UINT64_MAX;
}

/* get_next_rand_block: a time-based job starts the map over once */
static bool fio_rand_block(struct fio_gen *f, unsigned d, uint64_t *b)
{
    if (fio_rand_offset(f, d, b))
        return true;
    if (!f->time_based && f->fs_type < FSERVICE_ZIPF)
        return false; /* fio resets the file for time_based and non-uniform file picks */
    fio_file_reset(f, f->cur);
    return fio_rand_offset(f, d, b);
}

/* get_next_seq_offset */
static bool fio_seq_offset(struct fio_gen *f, unsigned d, uint64_t *off)
{
    struct fio_fstate *fs = f->cur;
    uint64_t R = fs->file_end;
    if (fs->last_pos[d] >= fs->io_end && f->time_based && f->nfiles == 1)
        fs->last_pos[d] = 0; /* fio wraps one file; a file set's loop ends */
    if (fs->last_pos[d] >= R)
        return false;
    uint64_t pos = fs->last_pos[d];
    if (pos && f->seq_add) {
        pos += (uint64_t)f->seq_add;
        if (pos >= R)
            pos = f->seq_add > 0 ? 0 : R + (uint64_t)f->seq_add;
    }
    *off = pos;
    return true;
}

/* get_next_buflen; 0 when not even the smallest size fits */
static uint64_t fio_buflen(struct fio_gen *f, unsigned d, uint64_t off)
{
    const struct fio_dir *fd = &f->d[d];
    uint64_t minbs = fd->min_bs, maxbs = fd->max_bs, R = f->cur->io_end, len = 0;
    if (minbs == maxbs)
        return minbs;
    if (off + minbs > R)
        return 0;
    struct fio_frand *st = &f->bs_state[d];
    uint64_t frand_max = st->use64 ? UINT64_MAX : UINT32_MAX;
    double span = fio_frand_span(st);
    unsigned tries = 0;
    do {
        /* fio draws until a size fits; the smallest one does, so this ends
         * (bounded all the same: no job may hang here) */
        if (++tries > 1u << 20)
            return minbs;
        uint64_t r = fio_taus_next(st);
        if (!fd->nsplit) {
            len = minbs + (uint64_t)((double)maxbs * (r / span));
        } else {
            uint64_t perc = 0;
            for (unsigned i = 0; i < fd->nsplit; i++) {
                if (!fd->split_perc[i])
                    continue;
                len = fd->split_bs[i];
                perc += fd->split_perc[i];
                if (r / perc <= frand_max / 100 && off + len <= R)
                    break;
            }
        }
        if ((minbs & (minbs - 1)) == 0)
            len &= ~(minbs - 1);
        else
            len -= len % minbs;
        if (len > maxbs)
            len = maxbs;
    } while (off + len > R);
    return len;
}

/* fill_io_u: false when fio's would fail (the file, so the pass, is done) */
static bool fio_fill(struct fio_gen *f, struct gen_io *io)
{
    unsigned d = f->mode;
    if (d == DIR_COUNT) {
        /* get_rw_ddir: a new direction when this one has had its share */
        if (f->io_issues[f->rwmix_ddir] >= f->rwmix_issues) {
            unsigned nd = fio_frand_between(&f->rwmix_state, 1, 100) <= f->rwmix[DIR_READ] ? DIR_READ
                                                                                          : DIR_WRITE;
            if (nd != f->rwmix_ddir)
                f->rwmix_issues = f->io_issues[f->rwmix_ddir] * f->rwmix[f->rwmix_ddir ^ 1] / 100;
            f->rwmix_ddir = (uint8_t)nd;
        }
        d = f->rwmix_ddir;
    }
    struct fio_fstate *fs = f->cur;
    if (f->trimwrite) /* set_rw_ddir: a trim once the write of the last one is done */
        d = fs->last_start[DIR_WRITE] == fs->last_start[DIR_TRIM] ? DIR_TRIM : DIR_WRITE;

    /* get_next_offset / get_next_block */
    bool hit = false, busy_ok = false, have_b = false, ok;
    uint64_t off = 0, b = 0;
    if (!--f->seq_left) {
        hit = true;
        f->seq_left = f->seq_nr;
    }
    if (f->trimwrite && f->random && d == DIR_WRITE) {
        /* randtrimwrite: the write of the block just trimmed, not marked */
        busy_ok = true;
        off = fs->last_start[DIR_TRIM];
        ok = true;
    } else if (hit && f->random) {
        if (f->perc_rand >= 100 ||
            fio_frand_between(&f->seq_rand[d], 1, 100) <= f->perc_rand) {
            ok = have_b = fio_rand_block(f, d, &b);
        } else {
            busy_ok = true;
            ok = fio_seq_offset(f, d, &off);
            if (!ok)
                ok = have_b = fio_rand_block(f, d, &b);
        }
    } else if (hit) {
        ok = fio_seq_offset(f, d, &off);
    } else {
        busy_ok = true;
        ok = fio_seq_offset(f, d, &off);
        if (!ok)
            ok = have_b = fio_rand_block(f, d, &b);
    }
    if (!ok)
        return false;
    if (have_b)
        off = b * f->d[d].ba;
    if (off >= fs->io_size || off >= fs->file_end)
        return false;
    /* a new trim at the block of the last pair: the write is still due */
    if (f->trimwrite && f->random && d == DIR_TRIM && fs->last_start[DIR_TRIM] == off)
        fs->last_start[DIR_WRITE]--;

    uint64_t len = f->trimwrite && f->random && d == DIR_WRITE
                       ? fs->last_pos[DIR_TRIM] - fs->last_start[DIR_TRIM]
                       : fio_buflen(f, d, off);
    if (!len || off + len > fs->file_end)
        return false;
    if (fs->map_on) {
        /* mark_random_map: in this direction's smallest size, and the I/O
         * cut at the first block already covered */
        uint64_t mbs = f->d[d].min_bs, nr = (len + mbs - 1) / mbs;
        if (!busy_ok) {
            nr = randmap_set_run(&fs->map, off / mbs, nr);
            if (!nr)
                return false;
        }
        if (nr * mbs < len)
            len = nr * mbs;
    }
    fs->last_pos[d] = off + len;
    fs->last_start[d] = off;
    f->io_issues[d]++;
    io->dir = (uint8_t)d;
    io->len = (uint32_t)len;
    io->off = off;
    return true;
}

/* __get_next_file: the file of the next I/O (fio's get_next_file_rr and
 * get_next_file_rand with every file openable); a file stays picked for
 * file_service_nr I/Os, or, with sequential, until it is done */
/* may file k serve the next I/O (fio: done files no, closed ones only
 * while fewer than openfiles are open; fio answers busy and tries again,
 * its cursor or draw moved on) */
static bool fio_file_ok(const struct fio_gen *f, unsigned k)
{
    return !f->files[k].done && (f->files[k].open || f->nopen < f->max_open);
}

/* td_io_open_file: opening a file resets it */
static void fio_file_open(struct fio_gen *f, unsigned k)
{
    if (!f->files[k].open) {
        f->files[k].open = true;
        f->nopen++;
        fio_file_reset(f, &f->files[k]);
    }
}

static void fio_file_close(struct fio_gen *f, unsigned k)
{
    if (f->files[k].open) {
        f->files[k].open = false;
        f->nopen--;
    }
}

static unsigned fio_next_file(struct fio_gen *f)
{
    if (f->have_cur && f->files[f->cur_k].open) {
        if (f->fs_type == FSERVICE_SEQUENTIAL)
            return f->cur_k;
        if (f->fs_left) {
            f->fs_left--;
            return f->cur_k;
        }
    }
    unsigned k;
    if (f->fs_type >= FSERVICE_ZIPF) {
        /* __get_next_fileno_rand: the range's file (these are never done) */
        do {
            k = (unsigned)(fio_dist_next(&f->file_dist) >> 10);
            if (k >= f->nfiles)
                k = f->nfiles - 1;
        } while (!fio_file_ok(f, k));
    } else if (f->fs_type == FSERVICE_RANDOM) {
        /* a draw over all files until one may serve */
        do {
            uint64_t r = fio_taus_next(&f->next_file_state);
            k = (unsigned)((double)f->nfiles * (r / fio_frand_span(&f->next_file_state)));
        } while (k >= f->nfiles || !fio_file_ok(f, k));
    } else {
        /* the next file after the last one tried that may serve */
        do {
            k = f->next_file;
            f->next_file = k + 1 < f->nfiles ? k + 1 : 0;
        } while (!fio_file_ok(f, k));
    }
    fio_file_open(f, k);
    f->have_cur = true;
    f->fs_left = f->fs_nr - 1;
    return k;
}

/* set_io_u_file: a file whose I/O cannot be made is done for this loop,
 * and the next file is asked; the loop ends when every file is done */
static bool fio_gen_next_files(struct fio_gen *f, struct gen_io *io)
{
    for (;;) {
        if (f->ndone >= f->nfiles) {
            if (f->pass_ios == 0)
                return false;
            f->pass++;
            if (f->passes && f->pass >= f->passes)
                return false;
            fio_gen_rewind(f);
        }
        unsigned k = fio_next_file(f);
        f->cur_k = k;
        f->cur = &f->files[k];
        if (fio_fill(f, io)) {
            f->pass_ios++;
            f->fs_fails = 0;
            return true;
        }
        if (f->fs_type >= FSERVICE_ZIPF) {
            /* fio resets the file and picks again: the job's bytes or
             * runtime end it (bounded: a file set that makes no I/O) */
            if (++f->fs_fails > 4 * f->nfiles + 4)
                return false;
            fio_file_close(f, k);
            fio_file_reset(f, &f->files[k]);
            continue;
        }
        fio_file_close(f, k);
        f->files[k].done = true;
        f->ndone++;
    }
}

bool fio_gen_next(struct fio_gen *f, struct gen_io *io)
{
    if (f->nfiles > 1)
        return fio_gen_next_files(f, io);
    for (;;) {
        if (fio_fill(f, io)) {
            f->pass_ios++;
            return true;
        }
        /* the file is done: the loop (pass) is over */
        if (f->pass_ios == 0)
            return false; /* a pass that cannot start would never end */
        f->pass++;
        if (f->passes && f->pass >= f->passes)
            return false;
        fio_gen_rewind(f);
    }
}
