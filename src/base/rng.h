/* rng.h - the per-thread random number generator of the I/O path.
 *
 * xoshiro256** (Blackman and Vigna): 256 bits of state, a few ns per draw, no
 * shared state, so every worker owns one and no lock is ever taken. Seeds are
 * expanded with splitmix64, which the algorithm's authors recommend, so nearby
 * seeds (thread 0, 1, 2...) still give unrelated streams. Header-only so the
 * generator inlines into the callers' hot loops.
 */
#ifndef SSDBENCH_RNG_H
#define SSDBENCH_RNG_H

#include <stdint.h>

struct rng {
    uint64_t s[4];
};

/* One splitmix64 step: advances *x and returns the next output. Also a good
 * 64-bit mixer for deriving keys from seeds. */
static inline uint64_t rng_splitmix(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* Four consecutive splitmix64 outputs are distinct, so the state can never be
 * all zero (the one state xoshiro must avoid). */
static inline void rng_seed(struct rng *r, uint64_t seed)
{
    uint64_t x = seed;
    for (int i = 0; i < 4; i++)
        r->s[i] = rng_splitmix(&x);
}

static inline uint64_t rng_rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

static inline uint64_t rng_next(struct rng *r)
{
    uint64_t *s = r->s;
    uint64_t out = rng_rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rng_rotl(s[3], 45);
    return out;
}

/* Uniform in [0, n) without modulo bias (Lemire's multiply-and-reject). The
 * division in the rejection branch runs with probability n / 2^64, i.e. almost
 * never for block counts. n == 0 returns 0. */
static inline uint64_t rng_below(struct rng *r, uint64_t n)
{
    unsigned __int128 m = (unsigned __int128)rng_next(r) * n;
    uint64_t lo = (uint64_t)m;
    if (lo < n) {
        uint64_t t = (0 - n) % n; /* 2^64 mod n */
        while (lo < t) {
            m = (unsigned __int128)rng_next(r) * n;
            lo = (uint64_t)m;
        }
    }
    return (uint64_t)(m >> 64);
}

/* [0, 1) with the full 53-bit double mantissa. */
static inline double rng_unit(struct rng *r)
{
    return (double)(rng_next(r) >> 11) * 0x1.0p-53;
}

/* Advances the stream by 2^128 draws: gives non-overlapping sub-streams from
 * one seed (the reference jump polynomial). */
static inline void rng_jump(struct rng *r)
{
    static const uint64_t jump[4] = {0x180ec6d33cfd0abaULL, 0xd5a61266f0c9392cULL,
                                     0xa9582618e03fc9aaULL, 0x39abdc4529b1661cULL};
    uint64_t s0 = 0, s1 = 0, s2 = 0, s3 = 0;
    for (int i = 0; i < 4; i++) {
        for (int b = 0; b < 64; b++) {
            if (jump[i] & (1ULL << b)) {
                s0 ^= r->s[0];
                s1 ^= r->s[1];
                s2 ^= r->s[2];
                s3 ^= r->s[3];
            }
            rng_next(r);
        }
    }
    r->s[0] = s0;
    r->s[1] = s1;
    r->s[2] = s2;
    r->s[3] = s3;
}

#endif
