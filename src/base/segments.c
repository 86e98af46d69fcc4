/* segments.c - see segments.h. */
#include <errno.h>
#include <stdio.h>

#include "base/segments.h"

int ar_segments_init(struct ar_segments *s, uint64_t base, uint64_t range, uint64_t amount,
                     unsigned n, uint64_t align, uint64_t seed, char *err, size_t errlen)
{
    *s = (struct ar_segments){0};
    if (!n || !align) {
        snprintf(err, errlen, "segments: need at least one segment and an alignment");
        return -EINVAL;
    }
    uint64_t len = amount / n / align * align;
    uint64_t slot = range / n / align * align;
    if (!len) {
        snprintf(err, errlen,
                 "segments: an ActiveRange Amount of %llu bytes in %u segments gives segments "
                 "smaller than %llu bytes",
                 (unsigned long long)amount, n, (unsigned long long)align);
        return -EINVAL;
    }
    if (slot < len + align) {
        snprintf(err, errlen,
                 "segments: %u segments of %llu bytes do not fit apart in an ActiveRange of %llu "
                 "bytes (each needs %llu bytes and a gap of %llu): use a smaller amount or fewer "
                 "segments",
                 n, (unsigned long long)len, (unsigned long long)range,
                 (unsigned long long)len, (unsigned long long)align);
        return -EINVAL;
    }
    s->n = n;
    s->base = base;
    s->slot = slot;
    s->len = len;
    s->align = align;
    s->choices = (slot - len) / align;
    s->seed = seed;
    return 0;
}
