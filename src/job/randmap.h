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

struct randperm {
    uint64_t n;        /* blocks */
    uint64_t next;     /* blocks handed out this pass */
    uint64_t key[4];   /* round keys of this pass */
    uint64_t seed;
    uint64_t pass;
    unsigned wide;     /* bits of the wider half */
    unsigned narrow;   /* bits of the other half (wide + narrow = log2 of the domain) */
};

/* n >= 1. */
void randperm_init(struct randperm *p, uint64_t n, uint64_t seed);
/* The next block of this pass, or false once all n were handed out. */
bool randperm_next(struct randperm *p, uint64_t *block);
/* Starts the next pass with a new order. */
void randperm_reset(struct randperm *p);

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
