/* randmap.c - the random map (see randmap.h): a keyed permutation and a
 * summary-level bitmap. */
#include "job/randmap.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/rng.h"

/* --- permutation ------------------------------------------------------------ */

static void randperm_keys(struct randperm *p)
{
    uint64_t x = p->seed ^ (p->pass * 0xd6e8feb86659fd93ULL);
    for (int r = 0; r < RANDPERM_ROUNDS; r++)
        p->key[r] = rng_splitmix(&x);
    p->next = 0;
}

void randperm_init(struct randperm *p, uint64_t n, uint64_t seed)
{
    memset(p, 0, sizeof(*p));
    p->n = n ? n : 1;
    unsigned bits = 2;
    while (bits < 64 && (1ULL << bits) < p->n)
        bits++;
    p->wide = (bits + 1) / 2;
    p->narrow = bits / 2;
    p->wide_shift = 64 - p->wide;
    p->narrow_shift = 64 - p->narrow;
    p->narrow_mask = (1ULL << p->narrow) - 1;
    p->seed = seed;
    randperm_keys(p);
}

void randperm_reset(struct randperm *p)
{
    p->pass++;
    randperm_keys(p);
}

/* --- bitmap ----------------------------------------------------------------- */

static unsigned randmap_shape(uint64_t n, uint64_t *nwords)
{
    unsigned nl = 0;
    uint64_t units = n;
    do {
        nwords[nl] = (units + 63) / 64;
        units = nwords[nl++];
    } while (units > 1 && nl < RANDMAP_LEVELS_MAX);
    return nl;
}

size_t randmap_bytes(uint64_t n)
{
    uint64_t nw[RANDMAP_LEVELS_MAX];
    unsigned nl = randmap_shape(n ? n : 1, nw);
    uint64_t total = 0;
    for (unsigned i = 0; i < nl; i++)
        total += nw[i];
    return (size_t)(total * sizeof(uint64_t));
}

int randmap_init(struct randmap *m, uint64_t n)
{
    memset(m, 0, sizeof(*m));
    m->n = n ? n : 1;
    m->nlevels = randmap_shape(m->n, m->nwords);
    m->mem = malloc(randmap_bytes(m->n));
    if (!m->mem)
        return -ENOMEM;
    uint64_t *p = m->mem;
    for (unsigned i = 0; i < m->nlevels; i++) {
        m->level[i] = p;
        p += m->nwords[i];
    }
    randmap_reset(m);
    return 0;
}

void randmap_free(struct randmap *m)
{
    free(m->mem);
    memset(m, 0, sizeof(*m));
}

void randmap_reset(struct randmap *m)
{
    memset(m->mem, 0, randmap_bytes(m->n));
    /* Bits past the last real unit of each level count as covered, so a
     * search never returns them and a word is full exactly when its real
     * units are. */
    uint64_t units = m->n;
    for (unsigned i = 0; i < m->nlevels; i++) {
        unsigned used = (unsigned)(units % 64);
        if (used)
            m->level[i][m->nwords[i] - 1] = ~0ULL << used;
        units = m->nwords[i];
    }
    m->nfree = m->n;
}

bool randmap_isset(const struct randmap *m, uint64_t b)
{
    return b >= m->n || (m->level[0][b >> 6] >> (b & 63) & 1);
}

/* Level-0 word w just became full: tell the levels above. */
static void randmap_word_full(struct randmap *m, uint64_t w)
{
    for (unsigned i = 1; i < m->nlevels; i++) {
        uint64_t *word = &m->level[i][w >> 6];
        *word |= 1ULL << (w & 63);
        if (*word != ~0ULL)
            return;
        w >>= 6;
    }
}

/* First free block at or after b, no wrap. */
static uint64_t randmap_find_from(const struct randmap *m, uint64_t b)
{
    uint64_t pos = b;
    unsigned i = 0;
    for (;;) {
        uint64_t w = pos >> 6;
        if (w >= m->nwords[i])
            return UINT64_MAX;
        uint64_t avail = ~m->level[i][w] & (~0ULL << (pos & 63));
        if (avail) {
            pos = (w << 6) + (uint64_t)__builtin_ctzll(avail);
            break;
        }
        if (i + 1 == m->nlevels)
            return UINT64_MAX;
        pos = w + 1; /* bit w + 1 of the level above: the next word here */
        i++;
    }
    /* A clear bit at level i names a word of level i - 1 that is not full. */
    while (i > 0) {
        i--;
        pos = (pos << 6) + (uint64_t)__builtin_ctzll(~m->level[i][pos]);
    }
    return pos;
}

uint64_t randmap_next_free(const struct randmap *m, uint64_t b)
{
    if (m->nfree == 0)
        return UINT64_MAX;
    if (b >= m->n)
        b = 0;
    uint64_t r = randmap_find_from(m, b);
    if (r == UINT64_MAX && b > 0)
        r = randmap_find_from(m, 0);
    return r;
}

uint64_t randmap_set_run(struct randmap *m, uint64_t b, uint64_t nr)
{
    uint64_t done = 0;
    while (done < nr && b < m->n) {
        uint64_t w = b >> 6;
        unsigned bit = (unsigned)(b & 63);
        uint64_t span = 64 - bit;
        if (span > nr - done)
            span = nr - done;
        if (span > m->n - b)
            span = m->n - b;
        uint64_t mask = (span == 64 ? ~0ULL : ((1ULL << span) - 1)) << bit;
        uint64_t busy = m->level[0][w] & mask;
        bool stop = false;
        if (busy) {
            span = (uint64_t)__builtin_ctzll(busy) - bit;
            mask = span ? ((1ULL << span) - 1) << bit : 0;
            stop = true;
        }
        if (mask) {
            m->level[0][w] |= mask;
            if (m->level[0][w] == ~0ULL)
                randmap_word_full(m, w);
        }
        done += span;
        b += span;
        if (stop)
            break;
    }
    m->nfree -= done;
    return done;
}
