/* fio_rand.h - fio 3.33's own I/O stream: for a job of fio's job language,
 * the directions, block sizes and offsets fio would issue, in fio's order.
 *
 * fio draws from several Tausworthe generators (taus88, or taus258 with
 * random_generator=tausworthe64), each seeded from fio's per-thread seed
 * table (init.c: setup_random_seeds, td_fill_rand_seeds; randseed,
 * randrepeat, allrandrepeat and the thread number decide it):
 *
 *  - direction of a mixed job: fio's rwmix cycle (io_u.c get_rw_ddir and
 *    set_rwmix_bytes): a draw 1..100 against rwmixread picks a direction,
 *    which then holds for a number of I/Os that grows with the I/Os done;
 *  - block size: bsrange_state of the direction (minbs + maxbs * u rounded
 *    down to minbs; bssplit entries in fio's order, sorted by percentage);
 *  - offset: random_state, block = lastb * u, moved to the next free block
 *    of the random map (fio's axmap) when taken; the map is one bit per
 *    block of the job's smallest block size (rw_min_bs) but each direction
 *    indexes it in its own block size, and a next free block past the
 *    region ends the pass (fio's quirk, kept);
 *  - random_distribution zipf, pareto, normal: fio's generators, seeded
 *    from the file name and thread number (no map, as fio);
 *  - random_distribution=zoned: zone_state picks the zone, random_state
 *    the block in it (no map, as fio);
 *  - random_generator=lfsr: fio's shift register over the blocks instead
 *    of random_state and the map (a block once per pass, sizes not cut);
 *  - percentage_random: seq_rand_state; rw=randread:N: every Nth I/O takes
 *    a new offset, counted over all directions, the others continue from
 *    the last I/O of their direction and are not marked in the map.
 *
 *  - files: fio's per-file state (struct fio_fstate) apart from the
 *    thread's generators; a file set or several names is one thread over
 *    its files, each I/O's file picked as fio's get_next_file
 *    (roundrobin[:N], sequential, random[:N] from next_file_state,
 *    zipf, pareto and normal from fio's unhashed generators over
 *    nrfiles << 10 ranges, a file whose I/O cannot be made reset);
 *  - (rand)trimwrite: fio's set_rw_ddir pairing by the files' last_start;
 *  - zonemode=strided: the zone's limits (fio_gen_zone_base) and reset
 *    (fio_gen_file_reset) from job/zone.c;
 *  - more than 2^32 blocks: 32-bit draws until a re-seeded loop (fio's
 *    check_rand_gen_limits switches after seeding).
 *
 * Everything is decided at fio_gen_init; fio_gen_next draws exactly what
 * fio draws for one I/O and allocates nothing. The map is one allocation at
 * init (job/randmap.h). With randrepeat (fio's default) every pass (loop)
 * starts from the same seeds, as fio re-seeds at each loop.
 */
#ifndef SSDBENCH_FIO_RAND_H
#define SSDBENCH_FIO_RAND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/fio_taus.h"
#include "base/io_dir.h"
#include "job/job.h"
#include "job/randmap.h"

/* fio's FIO_RAND_NR_OFFS: the slots of its per-thread seed table */
#define FIO_NSEEDS 21
/* fio's default randseed (options.c: "0x89") and FIO_RANDSEED (init.c) */
#define FIO_DEFAULT_RANDSEED FIO_TAUS_DEFAULT_SEED
#define FIO_RANDSEED_CONST 0xb1899bedull

/* One fio frand_state: taus88 (32 bits) or taus258 (64 bits), seeded by
 * fio_taus_seed and drawn by fio_taus_next (base/fio_taus.h). */
#define fio_frand fio_taus
/* fio's rand_between: start..end inclusive */
uint64_t fio_frand_between(struct fio_frand *f, uint64_t start, uint64_t end);

/* fio's random_generator=lfsr (lib/lfsr.c, spin 0): a maximal-length
 * shift register over the blocks, each block once per pass, no map */
struct fio_lfsr {
    uint64_t xormask, last, top_bit, max_val, num_vals, cycle, cached_cycle;
};

/* fio's zipf, pareto and normal offsets (lib/zipf.c, lib/gauss.c): a
 * block among nranges of the smallest read/write size, hashed and turned
 * by a per-file offset */
struct fio_dist {
    unsigned kind;           /* enum job_dist */
    uint64_t nranges;
    uint64_t rand_off;
    double theta, zeta2, zetan, pareto_pow;
    unsigned stddev;
    bool nohash;             /* fio's zipf_disable_hash (the file picks) */
    struct fio_frand r;
};

struct fio_dir {
    uint64_t min_bs, max_bs, ba;
    unsigned nsplit;         /* bssplit entries; 0: bs or bsrange */
    uint32_t split_bs[JOB_BSSPLIT_MAX];
    unsigned split_perc[JOB_BSSPLIT_MAX]; /* fio's integer percentages, fio's order */
};

/* fio's per-file state (its struct fio_file): the region, each
 * direction's last block and position, the random map, the shift
 * register and the distribution's generator */
struct fio_fstate {
    uint64_t region_len;          /* random blocks and the map (a strided zone's range) */
    /* the limits fio checks, relative to the zone base (all region_len
     * without zones): io_size itself, the end for a size drawn to fit
     * (io_size - base) and the file's end */
    uint64_t io_size, io_end, file_end;
    uint64_t lastb[DIR_COUNT];    /* fio's last_block: random blocks are below */
    uint64_t last_pos[DIR_COUNT]; /* end of this direction's last I/O */
    uint64_t last_start[DIR_COUNT]; /* its start (UINT64_MAX: none this loop) */
    bool map_on, done, open;
    struct randmap map;
    struct fio_lfsr lfsr;
    struct fio_dist dist;         /* kind DIST_UNIFORM: none */
};

/* fio's thread: the generators every file shares, and the files it
 * serves (one, or a file set / several names, picked as fio's
 * get_next_file does) */
struct fio_gen {
    struct fio_frand bs_state[DIR_COUNT], rwmix_state, random_state, seq_rand[DIR_COUNT], zone_state;
    struct fio_frand next_file_state; /* file_service_type=random */
    struct fio_dist file_dist;        /* zipf, pareto, normal: over nfiles << 10 ranges */
    struct job_distribution file_jd;
    uint64_t seeds[FIO_NSEEDS];
    struct fio_fstate *cur;  /* the file of the I/O being made */
    struct fio_fstate *files;
    unsigned nfiles, ndone, cur_k, next_file, fs_left, fs_nr;
    uint8_t fs_type;         /* enum job_fservice */
    unsigned fs_fails;       /* I/Os not made in a row (non-uniform picks: a bound) */
    unsigned nopen, max_open; /* openfiles: files served at once */
    bool have_cur;
    struct fio_fstate one;   /* files of a one-file job */
    uint64_t rw_min_bs;
    int64_t seq_add;         /* rw=read:8k (negative: backwards) */
    uint64_t io_issues[DIR_COUNT];
    uint64_t rwmix_issues;
    unsigned rwmix[2];
    unsigned perc_rand;
    unsigned seq_nr, seq_left; /* rw=randread:N and fio's td->ddir_seq_nr */
    unsigned passes, pass;
    unsigned thread_number;
    uint64_t pass_ios;       /* I/Os of this pass (0: a pass that cannot start) */
    uint8_t mode;            /* DIR_READ/WRITE/TRIM, or DIR_COUNT for a mixed job */
    uint8_t rwmix_ddir;
    bool random, use64, use64_later, repeat, allrand, verify, time_based, lfsr_on, nonuniform, map_on;
    bool trimwrite;          /* (rand)trimwrite: a trim, then the write fio pairs with it */
    /* random_distribution=zoned: a draw 1..100 picks the zone; its share
     * of the region, in percent (fio's zone_state_index) */
    bool zoned;
    uint8_t zone_lo[100], zone_hi[100];
    struct fio_dir d[DIR_COUNT];
};

struct gen_io;

/* Can fio's stream run this job? NULL when it can, else the reason (a
 * feature the stream does not follow: the caller keeps ssdbench's own). */
const char *fio_gen_unsupported(const struct job_spec *job);

/* Prepares the stream for one worker (fio thread number thread_number,
 * 1-based over the job file) over a region of region_len bytes of the file
 * fio would name file_name (it seeds zipf, pareto and normal offsets). 0,
 * or -ENOMEM / -EINVAL with a message. */
int fio_gen_init(struct fio_gen *f, const struct job_spec *job, uint64_t region_len,
                 unsigned thread_number, const char *file_name, char *err, size_t errlen);
/* The same over a file set or several names (nfiles files of lens[k]
 * bytes named names[k], in fio's order of the job's files), its files
 * picked by file_service_type as fio's get_next_file; a loop ends when
 * every file is done. fio_gen_file says which file an I/O is on. */
int fio_gen_init_files(struct fio_gen *f, const struct job_spec *job, unsigned nfiles,
                       const uint64_t *lens, const char *const *names, unsigned thread_number,
                       char *err, size_t errlen);
static inline unsigned fio_gen_file(const struct fio_gen *f)
{
    return f->cur_k;
}
/* fio's jhash of a byte string (hash.h, with its byte-wise first blocks) */
uint32_t fio_jhash(const void *key, uint32_t length, uint32_t initval);
/* The next I/O as fio makes it; false when the last pass is over. */
bool fio_gen_next(struct fio_gen *f, struct gen_io *io);
/* A new pass: map emptied, positions to the start, re-seeded with randrepeat. */
void fio_gen_rewind(struct fio_gen *f);
/* fio_file_reset of the file being served: positions to its start, its
 * map emptied, its shift register restarted (no new seeds). */
void fio_gen_file_reset(struct fio_gen *f);
/* zonemode=strided: the file being served now starts at base (relative
 * to the region start) of a region of io_size bytes in a target whose end
 * is end bytes past the region start (fio's file_offset, io_size and
 * real_file_size); the random draws stay over the zone's range */
void fio_gen_zone_base(struct fio_gen *f, uint64_t base, uint64_t io_size, uint64_t end);
void fio_gen_free(struct fio_gen *f);

#endif
