/* stripe.c - set-up and region checks for the RAID-0 mapping in stripe.h. */
#include "target/stripe.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include "base/errmsg.h"

#define stripe_fail(err, errlen, ...) errmsg(err, errlen, -EINVAL, __VA_ARGS__)

static unsigned stripe_log2(uint64_t x)
{
    return 63u - (unsigned)__builtin_clzll(x);
}

int stripe_init(struct stripe_map *m, unsigned ntargets, uint64_t chunk, uint64_t target_len,
                char *err, size_t errlen)
{
    *m = (struct stripe_map){0};
    if (ntargets < 1 || ntargets > STRIPE_MAX_TARGETS)
        return stripe_fail(err, errlen, "stripe over %u targets: must be 1 to %u", ntargets,
                           STRIPE_MAX_TARGETS);
    if (chunk == 0)
        return stripe_fail(err, errlen, "stripe chunk is 0 bytes: give a chunk size (e.g. 128k)");
    if (chunk % STRIPE_CHUNK_UNIT)
        return stripe_fail(err, errlen, "stripe chunk %llu is not a multiple of %u bytes",
                           (unsigned long long)chunk, STRIPE_CHUNK_UNIT);
    if (target_len < chunk)
        return stripe_fail(err, errlen,
                           "targets hold %llu usable bytes, less than one stripe chunk (%llu)",
                           (unsigned long long)target_len, (unsigned long long)chunk);
    /* The logical space must fit in 64 bits, and so must (chunk index * N)
     * for the reciprocal division. */
    unsigned __int128 rows = target_len / chunk;
    unsigned __int128 chunks = rows * ntargets;
    if (chunks * chunk > UINT64_MAX || chunks * ntargets > UINT64_MAX)
        return stripe_fail(err, errlen, "stripe of %u x %llu bytes exceeds the 64-bit offset range",
                           ntargets, (unsigned long long)target_len);
    m->ntargets = ntargets;
    m->chunk = chunk;
    m->target_len = target_len;
    m->chunk_pow2 = (chunk & (chunk - 1)) == 0;
    m->chunk_shift = m->chunk_pow2 ? stripe_log2(chunk) : 0;
    m->n_pow2 = (ntargets & (ntargets - 1)) == 0;
    m->n_shift = m->n_pow2 ? stripe_log2(ntargets) : 0;
    m->n_recip = m->n_pow2 ? 0 : UINT64_MAX / ntargets + 1; /* N not a power of 2 */
    return 0;
}

uint64_t stripe_logical_len(const struct stripe_map *m)
{
    if (m->chunk == 0)
        return 0;
    return (uint64_t)m->ntargets * (m->target_len / m->chunk) * m->chunk;
}

int stripe_check_region(const struct stripe_map *m, uint64_t start, uint64_t len, char *err,
                        size_t errlen)
{
    uint64_t total = stripe_logical_len(m);
    if (start % m->chunk)
        return stripe_fail(err, errlen,
                           "region start %llu is not a multiple of the stripe chunk %llu",
                           (unsigned long long)start, (unsigned long long)m->chunk);
    if (start > total || len > total - start)
        return stripe_fail(err, errlen,
                           "region %llu+%llu runs past the striped space (%llu bytes)",
                           (unsigned long long)start, (unsigned long long)len,
                           (unsigned long long)total);
    return 0;
}
