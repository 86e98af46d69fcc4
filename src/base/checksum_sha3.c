/* checksum_sha3.c - SHA3-224/256/384/512 as FIPS 202 specifies them: the
 * Keccak-f[1600] permutation (24 rounds of theta, rho, pi, chi, iota on
 * 25 little-endian 64-bit lanes), a sponge of rate 200 - 2 * digest bytes,
 * and the SHA-3 padding 0x06 ... 0x80. */
#include "base/checksum.h"

#include <string.h>

static const uint64_t RC[24] = {
    0x0000000000000001, 0x0000000000008082, 0x800000000000808a, 0x8000000080008000,
    0x000000000000808b, 0x0000000080000001, 0x8000000080008081, 0x8000000000008009,
    0x000000000000008a, 0x0000000000000088, 0x0000000080008009, 0x000000008000000a,
    0x000000008000808b, 0x800000000000008b, 0x8000000000008089, 0x8000000000008003,
    0x8000000000008002, 0x8000000000000080, 0x000000000000800a, 0x800000008000000a,
    0x8000000080008081, 0x8000000000008080, 0x0000000080000001, 0x8000000080008008,
};
/* rho offsets and pi destinations, walking the lanes in pi's order from lane 1 */
static const unsigned ROT[24] = {1,  3,  6,  10, 15, 21, 28, 36, 45, 55, 2,  14,
                                 27, 41, 56, 8,  25, 43, 62, 18, 39, 61, 20, 44};
static const unsigned PI[24] = {10, 7,  11, 17, 18, 3, 5,  16, 8,  21, 24, 4,
                                15, 23, 19, 13, 12, 2, 20, 14, 22, 9,  6,  1};

static uint64_t rotl(uint64_t x, unsigned k)
{
    return (x << k) | (x >> (64 - k));
}

static void keccak_f(uint64_t a[25])
{
    for (int r = 0; r < 24; r++) {
        uint64_t c[5];
        for (int x = 0; x < 5; x++)
            c[x] = a[x] ^ a[x + 5] ^ a[x + 10] ^ a[x + 15] ^ a[x + 20];
        for (int x = 0; x < 5; x++) {
            uint64_t d = c[(x + 4) % 5] ^ rotl(c[(x + 1) % 5], 1);
            for (int y = 0; y < 25; y += 5)
                a[y + x] ^= d;
        }
        uint64_t t = a[1];
        for (int i = 0; i < 24; i++) {
            uint64_t next = a[PI[i]];
            a[PI[i]] = rotl(t, ROT[i]);
            t = next;
        }
        for (int y = 0; y < 25; y += 5) {
            uint64_t row[5];
            memcpy(row, a + y, sizeof(row));
            for (int x = 0; x < 5; x++)
                a[y + x] = row[x] ^ (~row[(x + 1) % 5] & row[(x + 2) % 5]);
        }
        a[0] ^= RC[r];
    }
}

/* XORs rate bytes of p into the state (lanes little-endian) and permutes */
static void absorb(uint64_t a[25], const uint8_t *p, unsigned rate)
{
    for (unsigned i = 0; i < rate / 8; i++) {
        uint64_t v = 0;
        for (int k = 7; k >= 0; k--)
            v = v << 8 | p[8 * i + (unsigned)k];
        a[i] ^= v;
    }
    keccak_f(a);
}

void sha3(unsigned digest_bytes, const void *data, size_t len, uint8_t *out)
{
    uint64_t a[25] = {0};
    unsigned rate = 200 - 2 * digest_bytes;
    const uint8_t *p = data;
    for (; len >= rate; p += rate, len -= rate)
        absorb(a, p, rate);
    uint8_t last[200] = {0};
    memcpy(last, p, len);
    last[len] ^= 0x06;
    last[rate - 1] ^= 0x80;
    absorb(a, last, rate);
    for (unsigned i = 0; i < digest_bytes; i++)
        out[i] = (uint8_t)(a[i / 8] >> (8 * (i % 8)));
}
