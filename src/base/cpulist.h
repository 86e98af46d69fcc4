/* cpulist.h - the kernel's CPU and node list form ("0-3,8,10-11"), as
 * cpus_allowed, numa_cpu_nodes and /sys/devices/system/node/nodeN/cpulist
 * write it, to and from a bit mask of 64-bit words (bit i of word i/64 =
 * CPU or node i). */
#ifndef SSDBENCH_CPULIST_H
#define SSDBENCH_CPULIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Parses s into mask[nwords] (cleared first). Numbers must be below limit
 * (and below nwords * 64). Returns the count of bits set (> 0), or -1 with a
 * one-line message naming the bad part. Blanks around items are allowed. */
int cpulist_parse(const char *s, uint64_t *mask, unsigned nwords, unsigned limit, char *err, size_t errlen);

/* Writes the mask in list form ("0-3,8") into buf; "" when empty. */
void cpulist_format(const uint64_t *mask, unsigned nwords, char *buf, size_t len);

static inline bool cpulist_has(const uint64_t *mask, unsigned i)
{
    return mask[i / 64] >> (i % 64) & 1;
}

/* Bits set in the mask. */
unsigned cpulist_count(const uint64_t *mask, unsigned nwords);

#endif
