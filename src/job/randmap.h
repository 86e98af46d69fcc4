/* randmap.h - the random map: which blocks of a region a pass has covered, so
 * a size-bounded random job touches every block exactly once per pass (fio's
 * default randommap), with two cheap implementations.
 *
 *  - randperm: a keyed pseudo-random permutation of [0, n) (an alternating
 *    Feistel network on the smallest power of two >= n, walked until it lands
 *    below n). No memory, O(1) expected per block (fewer than 2 network
 *    evaluations on average, since the power of two is < 2n), and each pass
 *    gets a fresh key. Used when every I/O is one block, and for
 *    random_generator=lfsr (fio's full-period generator has the same
 *    contract: every start block once per pass, no map memory).
 *  - randmap: a bitmap of one bit per block with summary levels on top (bit
 *    j of level i+1 set = word j of level i full), so "first free block at or
 *    after b" is a few word reads whatever the fill, and marking a run of
 *    blocks stops at the first one already done, which is how an I/O of
 *    several blocks is trimmed (fio's axmap rule). One allocation at init;
 *    n/8 bytes plus under 1/63 of that for the levels: 4 Ki blocks per KiB,
 *    ~520 MiB for 2^32 blocks (16 TiB of 4 KiB blocks).
 */
#ifndef SSDBENCH_RANDMAP_H
#define SSDBENCH_RANDMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define RANDPERM_ROUNDS 4

struct randperm {
    uint64_t n;        /* blocks */
    uint64_t next;     /* blocks handed out this pass */
    uint64_t key[RANDPERM_ROUNDS]; /* round keys of this pass */
    uint64_t seed;
    uint64_t pass;
    unsigned wide;     /* bits of the wider half */
    unsigned narrow;   /* bits of the other half (wide + narrow = log2 of the domain) */
    unsigned wide_shift, narrow_shift; /* 64 - wide, 64 - narrow */
    uint64_t narrow_mask;              /* 2^narrow - 1 */
};

/* n >= 1. */
void randperm_init(struct randperm *p, uint64_t n, uint64_t seed);
/* Starts the next pass with a new order. */
void randperm_reset(struct randperm *p);

/* The network, inline: it runs once per I/O of a random job. */
/* The round function: one multiply, its high bits folded down (the low
 * bits of a product depend only on the low bits of the input). */
static inline uint64_t randperm_mix(uint64_t x)
{
    x *= 0x9e3779b97f4a7c15ULL;
    return x ^ ((x ^ (x >> 12)) >> 29); /* x ^ (x >> 29) ^ (x >> 41) */
}

/* One evaluation of the network on [0, 2^(wide + narrow)). Each round maps
 * (hi: a bits, lo: b bits) to (lo, hi ^ F(lo)), which is invertible, and
 * swaps the widths; an even number of rounds restores them. Written out
 * for the four rounds: two rounds in a row put the halves back in their
 * places, so round 0 and 2 xor F(lo) into the wide half and rounds 1 and 3
 * xor F(wide half) into lo, with no swaps. */
#if RANDPERM_ROUNDS != 4
#error "randperm_eval is written out for four rounds"
#endif
static inline uint64_t randperm_eval(const struct randperm *p, uint64_t x)
{
    const unsigned nb = p->narrow, sw = p->wide_shift, sn = p->narrow_shift;
    uint64_t hi = x >> nb, lo = x & p->narrow_mask;
    hi ^= randperm_mix(lo ^ p->key[0]) >> sw;
    lo ^= randperm_mix(hi ^ p->key[1]) >> sn;
    hi ^= randperm_mix(lo ^ p->key[2]) >> sw;
    lo ^= randperm_mix(hi ^ p->key[3]) >> sn;
    return (hi << nb) | lo;
}

/* The next block of this pass, or false once all n were handed out. */
static inline bool randperm_next(struct randperm *p, uint64_t *block)
{
    if (p->next >= p->n)
        return false;
    /* Cycle walking: follow the permutation of the power-of-two domain from
     * an index below n until it lands below n again. That is a permutation
     * of [0, n), and the walk ends because the index's own cycle returns to
     * it. */
    uint64_t y = randperm_eval(p, p->next++);
    while (y >= p->n)
        y = randperm_eval(p, y);
    *block = y;
    return true;
}

#define RANDMAP_LEVELS_MAX 12

struct randmap {
    uint64_t n;        /* blocks */
    uint64_t nfree;    /* not yet covered this pass */
    unsigned nlevels;
    uint64_t nwords[RANDMAP_LEVELS_MAX];
    uint64_t *level[RANDMAP_LEVELS_MAX]; /* [0] = one bit per block, 1 = covered */
    uint64_t *mem;
};

/* Bytes randmap_init allocates for n blocks. */
size_t randmap_bytes(uint64_t n);
/* n >= 1. Returns 0 or -ENOMEM. */
int randmap_init(struct randmap *m, uint64_t n);
void randmap_free(struct randmap *m);
/* Every block free again (a new pass). */
void randmap_reset(struct randmap *m);
bool randmap_isset(const struct randmap *m, uint64_t b);
/* The first free block at or after b, wrapping to 0; UINT64_MAX when the map
 * is full. */
uint64_t randmap_next_free(const struct randmap *m, uint64_t b);
/* Marks up to nr blocks from b, stopping at the map's end or at the first
 * block already covered; returns how many it marked (0 when b is covered). */
uint64_t randmap_set_run(struct randmap *m, uint64_t b, uint64_t nr);

#endif
