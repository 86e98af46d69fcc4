/* segments.h - ActiveRange segmentation (SNIA PTS-C): I/O confined to n
 * equal, non-touching segments whose total is the "ActiveRange Amount",
 * spread over the ActiveRange.
 *
 * SNIA's test terminology: the segments are contiguous, equal-sized LBA
 * ranges inside the ActiveRange; segment size = ActiveRange Amount / number
 * of segments (2048 for IOPS, TP and LAT); their starting LBAs are randomly
 * distributed across the whole ActiveRange; segments shall not touch. Our
 * placement: the ActiveRange is cut into n equal slots and segment i lies
 * in slot i at a random multiple of align, with at least align bytes free
 * before the next slot, so the set spans the range, every start is random,
 * and no two segments touch. The offsets come from a hash of (seed, i), so
 * the table is a few numbers, not an array: the runner maps each I/O with
 * one division and a hash, and a reader redoes the table from the seed.
 *
 * Jobs see the segments laid end to end: a space of n x len bytes in which
 * the generator keeps every I/O inside one segment (as it keeps striped
 * I/Os inside a chunk, job/gen.h), and ar_segment_map turns such an
 * offset into the device offset.
 */
#ifndef SSDBENCH_SEGMENTS_H
#define SSDBENCH_SEGMENTS_H

#include <stddef.h>
#include <stdint.h>

struct ar_segments {
    unsigned n;             /* 0: no segmentation */
    uint64_t base;          /* the ActiveRange's first byte */
    uint64_t slot;          /* ActiveRange / n, a multiple of align */
    uint64_t len;           /* segment length, a multiple of align */
    uint64_t align;
    uint64_t choices;       /* (slot - len) / align positions per slot */
    uint64_t seed;
};

/* Lays amount bytes as n segments over [base, base + range). 0, or
 * -EINVAL with a one-line message (too many segments for the amount, an
 * amount too large to leave gaps, ...). */
int ar_segments_init(struct ar_segments *s, uint64_t base, uint64_t range, uint64_t amount,
                     unsigned n, uint64_t align, uint64_t seed, char *err, size_t errlen);

static inline uint64_t ar_segments_mix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

/* Device offset of segment i's first byte. */
static inline uint64_t ar_segment_start(const struct ar_segments *s, unsigned i)
{
    uint64_t k = ar_segments_mix(s->seed ^ ((uint64_t)i * 0x2545f4914f6cdd1dull)) % s->choices;
    return s->base + (uint64_t)i * s->slot + k * s->align;
}

/* A byte offset in the segments laid end to end -> the device offset. */
static inline uint64_t ar_segment_map(const struct ar_segments *s, uint64_t off)
{
    uint64_t i = off / s->len;
    return ar_segment_start(s, (unsigned)i) + (off - i * s->len);
}

#endif
