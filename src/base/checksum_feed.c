/* checksum_feed.c - the 64-byte block feeding of MD5 and SHA-256 (see
 * checksum.h). */
#include "base/checksum.h"

#include <string.h>

void checksum_feed64(uint32_t *h, uint8_t blk[64], uint64_t *n, const void *data, size_t len,
                     checksum_block_fn block)
{
    const uint8_t *p = data;
    size_t have = *n % 64;
    *n += len;
    if (have) {
        size_t take = 64 - have < len ? 64 - have : len;
        memcpy(blk + have, p, take);
        p += take;
        len -= take;
        if (have + take < 64)
            return;
        block(h, blk);
    }
    for (; len >= 64; p += 64, len -= 64)
        block(h, p);
    memcpy(blk, p, len);
}
