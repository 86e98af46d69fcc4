/* checksum_sha1.c - SHA-1 as FIPS 180-4 specifies it (big-endian words, 80
 * rounds in four groups of 20 with the constants 0x5a827999, 0x6ed9eba1,
 * 0x8f1bbcdc, 0xca62c1d6). */
#include "base/checksum.h"

#include <string.h>

static uint32_t rotl(uint32_t x, unsigned k)
{
    return (x << k) | (x >> (32 - k));
}

static void block(uint32_t h[5], const uint8_t *p)
{
    uint32_t w[80];
    for (int i = 0; i < 16; i++)
        w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 | (uint32_t)p[4 * i + 2] << 8 |
               (uint32_t)p[4 * i + 3];
    for (int i = 16; i < 80; i++)
        w[i] = rotl(w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16], 1);
    uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4];
    for (int i = 0; i < 80; i++) {
        uint32_t f, k;
        if (i < 20)
            f = (b & c) | (~b & d), k = 0x5a827999;
        else if (i < 40)
            f = b ^ c ^ d, k = 0x6ed9eba1;
        else if (i < 60)
            f = (b & c) | (b & d) | (c & d), k = 0x8f1bbcdc;
        else
            f = b ^ c ^ d, k = 0xca62c1d6;
        uint32_t t = rotl(a, 5) + f + e + k + w[i];
        e = d;
        d = c;
        c = rotl(b, 30);
        b = a;
        a = t;
    }
    h[0] += a;
    h[1] += b;
    h[2] += c;
    h[3] += d;
    h[4] += e;
}

void sha1_init(struct sha1_ctx *c)
{
    static const uint32_t h0[5] = {0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476, 0xc3d2e1f0};
    memcpy(c->h, h0, sizeof(h0));
    c->n = 0;
}

void sha1_update(struct sha1_ctx *c, const void *data, size_t len)
{
    checksum_feed64(c->h, c->blk, &c->n, data, len, block);
}

void sha1_final(struct sha1_ctx *c, uint8_t out[20])
{
    uint64_t bits = c->n * 8;
    uint8_t pad[72] = {0x80};
    size_t have = c->n % 64;
    sha1_update(c, pad, have < 56 ? 56 - have : 120 - have);
    uint8_t l[8];
    for (int i = 0; i < 8; i++)
        l[i] = (uint8_t)(bits >> (56 - 8 * i));
    sha1_update(c, l, 8);
    for (int i = 0; i < 5; i++)
        for (int k = 0; k < 4; k++)
            out[4 * i + k] = (uint8_t)(c->h[i] >> (24 - 8 * k));
}
