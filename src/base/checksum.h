/* checksum.h - the data checksums of the verify header, written from their
 * specifications: MD5 (RFC 1321), SHA-256, SHA-1 and SHA-512 (FIPS 180-4),
 * SHA-3 (FIPS 202), fio's CRC-64, CRC-32, CRC-16 and CRC-7 (named by the CRC
 * catalogue's parameters in checksum_crc.c), CRC-32C (Castagnoli,
 * the iSCSI polynomial of RFC 3720, with the SSE4.2 crc32 instruction when
 * the CPU has it and a table otherwise) and XXH64 (xxHash's 64-bit variant,
 * from its specification document). Pure code: no I/O, no allocation, no
 * global state. Each is checked against its published test vectors in
 * tests/unit/test_checksum.c.
 */
#ifndef SSDBENCH_CHECKSUM_H
#define SSDBENCH_CHECKSUM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* MD5: init, any number of updates, final writes the 16-byte digest. */
/* The 64-byte block feeding MD5 and SHA-256 share: bytes are gathered in
 * blk (n counts all bytes so far) and every whole block goes to the hash's
 * compression function with its state h. */
typedef void (*checksum_block_fn)(uint32_t *h, const uint8_t *blk);
void checksum_feed64(uint32_t *h, uint8_t blk[64], uint64_t *n, const void *data, size_t len,
                     checksum_block_fn block);

struct md5_ctx {
    uint32_t h[4];
    uint64_t n;          /* bytes so far */
    uint8_t blk[64];
};
void md5_init(struct md5_ctx *c);
void md5_update(struct md5_ctx *c, const void *p, size_t len);
void md5_final(struct md5_ctx *c, uint8_t out[16]);

/* SHA-256: the same shape, a 32-byte digest. */
struct sha256_ctx {
    uint32_t h[8];
    uint64_t n;
    uint8_t blk[64];
};
void sha256_init(struct sha256_ctx *c);
void sha256_update(struct sha256_ctx *c, const void *p, size_t len);
void sha256_final(struct sha256_ctx *c, uint8_t out[32]);

/* CRC-32C of p[0..len), continuing from crc (0 to start; the usual
 * pre- and post-inversion are done inside, so crc32c(crc32c(0, a), b) is the
 * CRC of a then b). crc32c() takes the SSE4.2 instruction when the CPU has
 * it; the _sw and _hw variants are for tests (the _hw one only when
 * crc32c_hw_available()). */
uint32_t crc32c(uint32_t crc, const void *p, size_t len);
uint32_t crc32c_sw(uint32_t crc, const void *p, size_t len);
uint32_t crc32c_hw(uint32_t crc, const void *p, size_t len);
bool crc32c_hw_available(void);

/* XXH64 of p[0..len) with seed. */
uint64_t xxh64(const void *p, size_t len, uint64_t seed);

/* fio's further verify checksums (checksum_crc.c, checksum_sha1.c,
 * checksum_sha512.c, checksum_sha3.c): the same values as fio's crc64,
 * crc32, crc16, crc7, sha1, sha512 and sha3-* methods. */
uint64_t sum_crc64(const void *p, size_t len);   /* CRC-64/REDIS (Jones poly, reflected, init 0) */
uint32_t sum_crc32(const void *p, size_t len);   /* poly 0x04c11db7, MSB first, init 0, no xorout */
uint16_t sum_crc16(const void *p, size_t len);   /* CRC-16/ARC */
uint8_t  sum_crc7(const void *p, size_t len);    /* CRC-7/MMC, the 7 bits in the low bits */

struct sha1_ctx {
    uint32_t h[5];
    uint64_t n;
    uint8_t blk[64];
};
void sha1_init(struct sha1_ctx *c);
void sha1_update(struct sha1_ctx *c, const void *p, size_t len);
void sha1_final(struct sha1_ctx *c, uint8_t out[20]);

struct sha512_ctx {
    uint64_t h[8];
    uint64_t n;          /* bytes so far */
    uint8_t blk[128];
};
void sha512_init(struct sha512_ctx *c);
void sha512_update(struct sha512_ctx *c, const void *p, size_t len);
void sha512_final(struct sha512_ctx *c, uint8_t out[64]);

/* SHA3-224/256/384/512 (digest_bytes 28, 32, 48 or 64) of p[0..len), one shot. */
void sha3(unsigned digest_bytes, const void *p, size_t len, uint8_t *out);

#endif
