/* fio_taus.h - fio's Tausworthe generators (taus88 32-bit, taus258 64-bit)
 * and fio's per-thread stream seeds, for the decisions whose counts must
 * equal fio's for the same job (job/fio_rand.c: offsets, directions, block
 * sizes; verify's trim_percentage draws).
 * Written from the generators' published definitions (L'Ecuyer 1996,
 * 1999) with fio's seeding: an LCG spreads the seed over the state, six
 * draws are discarded. Header-only, no state beyond the caller's struct.
 */
#ifndef SSDBENCH_FIO_TAUS_H
#define SSDBENCH_FIO_TAUS_H

#include <stdbool.h>
#include <stdint.h>

struct fio_taus {
    bool use64;
    uint32_t s[3];
    uint64_t t[5];
};

/* fio's stream numbers (its enum of random seeds per thread) */
enum { FIO_TAUS_STREAM_TRIM = 8 };

/* fio's default randseed */
#define FIO_TAUS_DEFAULT_SEED 0x89ull

static inline uint64_t fio_taus_min(uint64_t x, uint64_t m)
{
    return x < m ? x + m : x;
}

static inline uint32_t fio_taus_next32(struct fio_taus *g)
{
    uint32_t *s = g->s;
    s[0] = ((s[0] & 4294967294u) << 12) ^ (((s[0] << 13) ^ s[0]) >> 19);
    s[1] = ((s[1] & 4294967288u) << 4) ^ (((s[1] << 2) ^ s[1]) >> 25);
    s[2] = ((s[2] & 4294967280u) << 17) ^ (((s[2] << 3) ^ s[2]) >> 11);
    return s[0] ^ s[1] ^ s[2];
}

static inline uint64_t fio_taus_next64(struct fio_taus *g)
{
    uint64_t *t = g->t, x;
    x = ((t[0] << 1) ^ t[0]) >> 53;
    t[0] = ((t[0] & 18446744073709551614ull) << 10) ^ x;
    x = ((t[1] << 24) ^ t[1]) >> 50;
    t[1] = ((t[1] & 18446744073709551104ull) << 5) ^ x;
    x = ((t[2] << 3) ^ t[2]) >> 23;
    t[2] = ((t[2] & 18446744073709547520ull) << 29) ^ x;
    x = ((t[3] << 5) ^ t[3]) >> 24;
    t[3] = ((t[3] & 18446744073709420544ull) << 23) ^ x;
    x = ((t[4] << 3) ^ t[4]) >> 33;
    t[4] = ((t[4] & 18446744073701163008ull) << 8) ^ x;
    return t[0] ^ t[1] ^ t[2] ^ t[3] ^ t[4];
}

static inline uint64_t fio_taus_next(struct fio_taus *g)
{
    return g->use64 ? fio_taus_next64(g) : fio_taus_next32(g);
}

static inline uint64_t fio_taus_max(const struct fio_taus *g)
{
    return g->use64 ? UINT64_MAX : UINT32_MAX;
}

/* fio's init_rand_seed: the 32-bit generator takes the seed's low 32 bits.
 * (fio's starting value is written (2^31) + (2^17) + (2^7), exclusive ors:
 * 29 + 19 + 5 = 53.) */
static inline void fio_taus_seed(struct fio_taus *g, uint64_t seed, bool use64)
{
    g->use64 = use64;
    if (!use64) {
        uint32_t sd = (uint32_t)seed;
        g->s[0] = (uint32_t)fio_taus_min((uint32_t)(53u * 69069u ^ sd), 1);
        g->s[1] = (uint32_t)fio_taus_min((uint32_t)(g->s[0] * 69069u ^ sd), 7);
        g->s[2] = (uint32_t)fio_taus_min((uint32_t)(g->s[1] * 69069u ^ sd), 15);
        for (int i = 0; i < 6; i++)
            fio_taus_next32(g);
    } else {
        static const uint64_t m[5] = {1, 7, 15, 33, 49};
        uint64_t x = 53;
        for (int i = 0; i < 5; i++) {
            g->t[i] = fio_taus_min(x * 6906969069ull ^ seed, m[i]);
            x = g->t[i];
        }
        for (int i = 0; i < 6; i++)
            fio_taus_next64(g);
    }
}

/* fio's seed of stream `stream` of thread `thread_number` (1-based, in the
 * order fio makes its threads: jobs in file order, clones together) for
 * randseed `randseed` (fio's setup_random_seeds with randrepeat). */
static inline uint64_t fio_taus_stream_seed(uint64_t randseed, unsigned thread_number, unsigned stream)
{
    uint64_t seed = randseed;
    for (int i = 0; i < 4; i++)
        seed *= 0x9e370001ull;
    for (unsigned i = 0; i < stream; i++)
        seed *= 0x9e370001ull;
    return seed * thread_number + stream;
}

#endif
