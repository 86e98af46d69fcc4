/* stripe.h - RAID-0 address mapping for the striped layout: one logical
 * address space laid over N targets in fixed-size chunks.
 *
 * Chunk k of the logical space lives on target k % N at chunk index k / N,
 * which is what md RAID-0 with equal members, LVM stripes and hardware RAID-0
 * do. An I/O is never split: the generator keeps every I/O inside one chunk
 * (gen.h), and job_stripe_check (job/job_opts.h) and stripe_check_region
 * refuse jobs whose sizes, alignment or region start would make that
 * impossible. stripe_map is inline
 * and division-free for power-of-two chunks (the usual case): a shift, a mask
 * and a multiply by a precomputed reciprocal of N.
 */
#ifndef SSDBENCH_STRIPE_H
#define SSDBENCH_STRIPE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define STRIPE_CHUNK_UNIT 512u /* chunks are whole sectors */
#define STRIPE_MAX_TARGETS 128 /* targets a stripe spans at most */

struct stripe_map {
    unsigned ntargets;
    uint64_t chunk;      /* bytes */
    uint64_t target_len; /* usable bytes per target, as given */
    /* precomputed by stripe_init */
    bool chunk_pow2;
    unsigned chunk_shift;
    bool n_pow2;
    unsigned n_shift;
    uint64_t n_recip;    /* floor(2^64 / N) + 1: exact k / N for k * N < 2^64 */
};

/* ntargets in 1..STRIPE_MAX_TARGETS, chunk a non-zero multiple of 512,
 * target_len >= chunk. 0 or -EINVAL with a one-line message. */
int stripe_init(struct stripe_map *m, unsigned ntargets, uint64_t chunk, uint64_t target_len,
                char *err, size_t errlen);

/* ntargets * floor(target_len / chunk) * chunk: the tail of each target
 * smaller than a chunk is not used. */
uint64_t stripe_logical_len(const struct stripe_map *m);

/* (whether a job can be striped over a map: job_stripe_check, job/job_opts.h) */

/* The resolved region [start, start + len) of a worker: start chunk-aligned,
 * inside the logical space. */
int stripe_check_region(const struct stripe_map *m, uint64_t start, uint64_t len, char *err,
                        size_t errlen);

static inline uint64_t stripe_div_n(const struct stripe_map *m, uint64_t k, uint64_t *rem)
{
    uint64_t q;
    if (m->n_pow2)
        q = k >> m->n_shift;
    else
        q = (uint64_t)(((unsigned __int128)k * m->n_recip) >> 64);
    *rem = k - q * m->ntargets;
    return q;
}

/* logical_off < stripe_logical_len(m). */
static inline void stripe_map(const struct stripe_map *m, uint64_t logical_off, unsigned *target,
                              uint64_t *target_off)
{
    uint64_t k, within, t;
    if (m->chunk_pow2) {
        k = logical_off >> m->chunk_shift;
        within = logical_off & (m->chunk - 1);
    } else {
        k = logical_off / m->chunk;
        within = logical_off - k * m->chunk;
    }
    uint64_t row = stripe_div_n(m, k, &t);
    *target = (unsigned)t;
    *target_off = row * m->chunk + within;
}

/* The inverse: (target, offset on it) -> logical offset. */
static inline uint64_t stripe_unmap(const struct stripe_map *m, unsigned target,
                                    uint64_t target_off)
{
    uint64_t row, within;
    if (m->chunk_pow2) {
        row = target_off >> m->chunk_shift;
        within = target_off & (m->chunk - 1);
    } else {
        row = target_off / m->chunk;
        within = target_off - row * m->chunk;
    }
    return (row * m->ntargets + target) * m->chunk + within;
}

#endif
