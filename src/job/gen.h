/* gen.h - the per-thread I/O generator: for each I/O, its direction, size and
 * offset, with fio's meaning of rw, rwmixread, bssplit, blockalign,
 * percentage_random, rw=...:N and random_distribution.
 *
 * All tables are prepared by gen_init; gen_next runs once per I/O and costs a
 * few xoshiro draws, a short threshold scan and a multiply (no allocation, no
 * lock, no division). The struct is public so the runner can embed it by
 * value; the only heap memory is the distribution table and the random map's
 * bitmap gen_init allocates.
 *
 * Jobs of fio's job language run on fio 3.33's own stream instead
 * (gen_fio_start, job/fio_rand.h: fio's draws, rwmix cycle and random map,
 * so the I/O is fio's line for line); what follows is ssdbench's own
 * stream, which `ssdbench run`'s command line keeps.
 *
 * Choices worth knowing:
 *  - Direction: mixed modes draw per I/O (read when a draw is below
 *    rwmixread%); fio batches its mix, which makes short windows lumpy.
 *  - Size: one draw against the cumulative bssplit shares (shares of I/Os),
 *    started from a 256-entry guide table so the scan is usually 0-1 steps.
 *    Zero-share entries are ignored, also for the default alignment.
 *  - Random offsets are multiples of blockalign (default: the smallest block
 *    size of that direction) and always fit: off + len <= region_len.
 *    Uniform draws pick among the aligned starts that fit this size, so they
 *    are exactly uniform. Other distributions draw a block among
 *    region_len / align and, where the I/O would run past the end, move it
 *    back to the last aligned start that fits.
 *  - Sequential: each direction keeps its own position, starting at 0; after
 *    each I/O the position moves past it plus seq_hole. A negative seq_hole
 *    (two's complement, fio's rw=read:-8k) moves back instead: the next I/O
 *    starts that far before the end of the last one, and one that would
 *    start before the region wraps to that far before the region's end
 *    (fio's get_next_seq_offset: the first I/O of a pass is at 0, the
 *    second at region_len - 8k, then 4k lower each). No I/O crosses the
 *    region end: when the drawn size does not fit, sizes are redrawn (up to
 *    16 times, then the smallest that fits), as fio's get_next_buflen does.
 *    When none fits, a one-direction sequential job's pass is over (the
 *    job ends after job->passes passes; otherwise everything starts again at
 *    0); a mixed or partly random job starts that direction again at 0.
 *    Sequential offsets are not aligned to blockalign (fio aligns random
 *    offsets only).
 *  - Random map (gen_map_choice, randmap.h): a size-bounded uniform random
 *    job covers every block of the map's unit (the smallest block size)
 *    exactly once per pass, reads and writes sharing one map, as fio's
 *    default randommap. With several sizes the bitmap cuts an I/O at the
 *    first block already covered (fio's rule), so late in a pass sizes
 *    shrink. A full map ends the pass. Each worker has its own map.
 *  - pct_random applies to the random rw modes only (as in fio). The other
 *    I/Os continue sequentially from the end of that direction's last I/O.
 *  - rw_seq_nr = N (random modes): every Nth I/O of a direction takes a new
 *    offset (random per pct_random); the N-1 in between continue
 *    sequentially (fio's default rw_sequencer=sequential; fio counts across
 *    both directions, we count per direction).
 *  - Striped layout (job->layout == LAYOUT_STRIPE): I/Os never cross a
 *    multiple of job->stripe_chunk in region offsets (the runner keeps the
 *    region start chunk-aligned, see stripe_check_region). Uniform random
 *    offsets are redrawn until they fit in a chunk; other distributions move
 *    the I/O back inside its chunk; sequential I/Os skip to the next chunk.
 *  - Trims (rw=trim, randtrim) are a direction of their own with the third
 *    block size (bs=r,w,t). (rand)trimwrite draws trims only and follows
 *    each with a write of exactly the trimmed block (same offset and
 *    length), as fio's randtrimwrite does; fio's sequential trimwrite
 *    keeps the write its own position and write block size, which is the
 *    same block whenever the trim and write sizes agree.
 *  - The zipf/pareto hot set is keyed by job->seed, not by the per-thread
 *    seed, so all workers of a job hammer the same blocks.
 */
#ifndef SSDBENCH_GEN_H
#define SSDBENCH_GEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/rng.h"
#include "job/dist.h"
#include "job/job.h"
#include "job/randmap.h"

struct fio_gen; /* job/fio_rand.h */

struct gen_io {
    uint8_t dir;  /* enum io_dir */
    uint32_t len;
    uint64_t off; /* relative to the region start */
};

/* One bssplit entry, prepared for the hot path. */
struct gen_size {
    uint64_t thresh; /* pick when a 63-bit draw is below: cumulative share * 2^63 */
    uint64_t nstart; /* aligned starts where this size fits in the region */
    uint64_t last;   /* the last of them, in bytes */
    uint64_t len_up; /* len rounded up to the alignment */
    uint32_t len;
};

struct gen_dir {
    bool used;
    unsigned nsizes;
    unsigned smallest; /* index of the smallest size */
    unsigned seq_left; /* I/Os to go before rw_seq_nr asks for a new offset */
    uint64_t align;
    uint64_t nblocks;  /* region_len / align: the random distribution's space */
    uint64_t pos;      /* next sequential offset */
    struct dist dist;
    uint8_t guide[256]; /* first size entry worth testing, by the draw's top 8 bits */
    struct gen_size size[JOB_BSSPLIT_MAX];
};

/* GEN_FIO: every I/O from fio's stream (gen.fio), tested with GEN_MIXED's
 * compare so the other modes pay nothing for it */
enum gen_dir_mode { GEN_READS = DIR_READ, GEN_WRITES = DIR_WRITE, GEN_TRIMS = DIR_TRIM, GEN_MIXED, GEN_FIO };
enum gen_rand_mode { GEN_SEQUENTIAL, GEN_RANDOM, GEN_SOME_RANDOM };
enum gen_map { GEN_MAP_NONE, GEN_MAP_PERM, GEN_MAP_BITMAP };

struct gen {
    struct rng rng;
    uint64_t region_len;
    uint64_t seq_hole;
    uint64_t read_thresh; /* GEN_MIXED: read when a draw is below */
    uint64_t rand_thresh; /* GEN_SOME_RANDOM: random when a draw is below */
    uint64_t chunk;       /* striped layout: I/Os stay inside chunks; 0 = off */
    uint64_t chunk_mask;  /* chunk - 1 when chunk is a power of two, else 0 */
    uint8_t dir_mode;     /* enum gen_dir_mode */
    uint8_t rand_mode;    /* enum gen_rand_mode */
    bool dist_shared;     /* dir[WRITE].dist is a copy of dir[READ].dist */
    unsigned seq_nr;
    uint8_t map;          /* enum gen_map */
    bool seq_passes;      /* sequential, one direction: the region end ends a pass */
    unsigned passes;      /* job->passes: 0 = no limit */
    unsigned pass;        /* passes finished */
    uint64_t map_unit;    /* bytes per map block */
    /* (rand)trimwrite: the write of the block trimmed last is due next */
    bool trimwrite;
    bool write_due;
    uint32_t due_len;
    uint64_t due_off;
    /* one direction, one size, all random, one block per I/O from the
     * permutation, no chunk, no trimwrite: gen_next's inline path */
    bool perm_only;
    struct randperm perm;
    struct randmap bitmap;
    /* fio's own streams (gen_fio_start, dir_mode GEN_FIO): every I/O comes
     * from it; NULL for ssdbench's own draws */
    struct fio_gen *fio;
    struct gen_dir dir[DIR_COUNT];
};

/* The random map a job gets (a pure function of the job, so results can
 * record it): on fio's stream (gen_fio_stream) fio's own rule: a bitmap for
 * uniform random jobs but with norandommap or another blockalign (fio's
 * axmap, job/fio_rand.h); else none for sequential jobs, norandommap, non-uniform
 * distributions and a blockalign other than the smallest block size (all as
 * fio), and when reads and writes have different smallest block sizes (an
 * ssdbench limit); else a permutation when every I/O is one block or with
 * random_generator=lfsr, a bitmap otherwise. *why (may be NULL) names the
 * reason for none. */
enum gen_map gen_map_choice(const struct job_spec *job, const char **why);
const char *gen_map_name(enum gen_map m);

/* Validates the job against a region of region_len bytes and prepares the
 * tables. seed seeds this generator's own stream (one per worker). Returns 0,
 * or -EINVAL / -ENOMEM with a one-line message naming the value. On failure
 * nothing is left allocated (gen_free is still safe). */
int gen_init(struct gen *g, const struct job_spec *job, uint64_t region_len, uint64_t seed,
             char *err, size_t errlen);

/* Does the job run on fio's own I/O stream (a pure function of the job, so
 * results can record it)? Jobs of fio's job language (job->fio_stream) whose
 * every option the stream follows (fio_gen_unsupported), over one region,
 * one strided zone at a time or a file set (file_service_type roundrobin,
 * sequential or random, every file open at once): not zbd zones, stripes
 * or segments. */
bool gen_fio_stream(const struct job_spec *job);

/* Switches g (gen_init done) to fio's own I/O stream (job/fio_rand.h) when
 * the job asks for it (job->fio_stream) and the stream follows all it
 * does; thread_number is fio's (1-based over the job file), file_name the
 * name fio gives the file (it seeds fio's zipf/pareto/normal). Decided once:
 * 0 (switched or not: gen_fio_name says which), or -ENOMEM. */
int gen_fio_start(struct gen *g, const struct job_spec *job, unsigned thread_number,
                  const char *file_name, char *err, size_t errlen);

/* The next I/O; false when the job's last pass (job->passes) is over. */
bool gen_next_any(struct gen *g, struct gen_io *io);

/* gen_next_any, with its most common case inline: g->perm_only, one block
 * of the permutation per I/O, which always fits (the sequential position
 * it would also move is never read in that mode). The end of a pass takes
 * the general path. */
static inline bool gen_next(struct gen *g, struct gen_io *io)
{
    uint64_t b;
    if (g->perm_only && randperm_next(&g->perm, &b)) {
        io->dir = g->dir_mode;
        io->len = (uint32_t)g->map_unit;
        io->off = b * g->map_unit;
        return true;
    }
    return gen_next_any(g, io);
}

/* Back to the start of a pass: sequential positions to 0, rw_seq_nr count
 * restarted, the random map emptied (a permutation gets a new order). The
 * random stream continues. */
void gen_rewind(struct gen *g);

/* fio's fio_file_reset of the file being served (a new strided zone):
 * positions to the start and the random map emptied, the generators
 * going on, and fio's limits for the zone at base (relative to the region
 * start) of a region of io_size bytes in a target end bytes past its
 * start (fio_gen_zone_base); on ssdbench's own stream gen_rewind. */
void gen_zone_reset(struct gen *g, uint64_t base, uint64_t io_size, uint64_t end);
/* Sequential positions at or past limit (region-relative) back to 0. */
void gen_seq_wrap(struct gen *g, uint64_t limit);

void gen_free(struct gen *g);

#endif
