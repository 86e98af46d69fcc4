/* checksum_crc.c - the short CRCs of fio's verify methods crc64, crc32,
 * crc16 and crc7, bit for bit fio's (init 0, no final xor), named by the
 * CRC catalogue's parameters:
 *   crc64: CRC-64/REDIS  (poly 0xad93d23594c935a9 reflected, check 0xe9c6d914c4b8d9ca)
 *   crc32: poly 0x04c11db7, MSB first, init 0, no xorout (CRC-32/CKSUM without
 *          its final inversion and length: check 0x89a1897f = ~0x765e7680)
 *   crc16: CRC-16/ARC    (poly 0x8005 reflected, check 0xbb3d)
 *   crc7:  CRC-7/MMC     (poly 0x09, MSB first, check 0x75)
 * Four bits at a time from 16-entry tables (each entry is four shift-and-
 * reduce steps of its index, listed here so nothing is computed at run
 * time): two lookups per byte. */
#include "base/checksum.h"

static const uint64_t t64[16] = {
    0x0000000000000000, 0x7d08ff3b88be6f81, 0xfa11fe77117cdf02, 0x8719014c99c2b083,
    0xdf7adabd7a6e2d6f, 0xa2722586f2d042ee, 0x256b24ca6b12f26d, 0x5863dbf1e3ac9dec,
    0x95ac9329ac4bc9b5, 0xe8a46c1224f5a634, 0x6fbd6d5ebd3716b7, 0x12b5926535897936,
    0x4ad64994d625e4da, 0x37deb6af5e9b8b5b, 0xb0c7b7e3c7593bd8, 0xcdcf48d84fe75459,
};
static const uint32_t t32[16] = {
    0x00000000, 0x04c11db7, 0x09823b6e, 0x0d4326d9, 0x130476dc, 0x17c56b6b, 0x1a864db2, 0x1e475005,
    0x2608edb8, 0x22c9f00f, 0x2f8ad6d6, 0x2b4bcb61, 0x350c9b64, 0x31cd86d3, 0x3c8ea00a, 0x384fbdbd,
};
static const uint16_t t16[16] = {
    0x0000, 0xcc01, 0xd801, 0x1400, 0xf001, 0x3c00, 0x2800, 0xe401,
    0xa001, 0x6c00, 0x7800, 0xb401, 0x5000, 0x9c01, 0x8801, 0x4400,
};
/* crc7 is kept in the top 7 bits of a byte, so its poly is 0x09 << 1 */
static const uint8_t t7[16] = {
    0x00, 0x12, 0x24, 0x36, 0x48, 0x5a, 0x6c, 0x7e, 0x90, 0x82, 0xb4, 0xa6, 0xd8, 0xca, 0xfc, 0xee,
};

uint64_t sum_crc64(const void *data, size_t len)
{
    const uint8_t *p = data;
    uint64_t c = 0;
    while (len--) {
        c ^= *p++;
        c = (c >> 4) ^ t64[c & 15];
        c = (c >> 4) ^ t64[c & 15];
    }
    return c;
}

uint32_t sum_crc32(const void *data, size_t len)
{
    const uint8_t *p = data;
    uint32_t c = 0;
    while (len--) {
        c ^= (uint32_t)*p++ << 24;
        c = (c << 4) ^ t32[c >> 28];
        c = (c << 4) ^ t32[c >> 28];
    }
    return c;
}

uint16_t sum_crc16(const void *data, size_t len)
{
    const uint8_t *p = data;
    uint16_t c = 0;
    while (len--) {
        c ^= *p++;
        c = (uint16_t)((c >> 4) ^ t16[c & 15]);
        c = (uint16_t)((c >> 4) ^ t16[c & 15]);
    }
    return c;
}

uint8_t sum_crc7(const void *data, size_t len)
{
    const uint8_t *p = data;
    uint8_t c = 0;   /* the CRC << 1 */
    while (len--) {
        c ^= *p++;
        c = (uint8_t)((c << 4) ^ t7[c >> 4]);
        c = (uint8_t)((c << 4) ^ t7[c >> 4]);
    }
    return c >> 1;
}
