/* verify_hdr.h - what a verified block holds and how a block read back is
 * checked (fio's verify= semantics, ssdbench's own byte layout). Pure code:
 * no I/O, no allocation.
 *
 * A written block of len bytes is cut into chunks of verify_interval bytes
 * (the whole block when 0). The block's data comes first: random bytes from
 * the block's seed (xoshiro256**, 8 bytes at a time), or verify_pattern
 * repeated from the block start with %o replaced by the block offset. Then
 * every chunk but with verify=pattern gets a header at its start, overwriting
 * the data there (little-endian fields):
 *
 *    0  u32  magic 0x56445353 ("SSDV")
 *    4  u8   verify kind (enum job_verify)
 *    5  u8   0
 *    6  u16  header size: 48 + digest size
 *    8  u32  chunk length
 *   12  u32  worker: the writer's index among the job's workers
 *   16  u64  offset: the chunk's byte offset in its target
 *   24  u64  seed: the block's data seed (verify_block_seed)
 *   32  u64  sequence: the writer's write number, from 1
 *   40  u32  CRC-32C of bytes 0..39
 *   44  u32  0
 *   48       digest of the chunk's data after the header: md5 16 bytes,
 *            crc32c 4, xxhash (XXH64) 8, sha256 32, crc64 8, crc32 4,
 *            crc16 2, crc7 1, sha1 20, sha512 64, sha3-224/256/384/512
 *            28/32/48/64, meta none
 *
 * verify_offset swaps the header with the bytes at that offset of the chunk
 * after it is built, and back before it is checked, as fio does.
 *
 * A check reports the first problem of the first bad chunk: a header field
 * that differs (magic, kind, length, offset, seed, sequence, header CRC),
 * a digest that differs (expected = stored, found = computed from the data
 * read), or pattern bytes that differ; plus the first byte of the block that
 * differs from the data regenerated from the expected seed.
 */
#ifndef SSDBENCH_VERIFY_HDR_H
#define SSDBENCH_VERIFY_HDR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "job/job.h"

#define VERIFY_MAGIC 0x56445353u
#define VERIFY_HDR_BASE 48u
#define VERIFY_DIGEST_MAX 64u

/* fio's name of a kind ("md5", "crc32c", ...), and the kind of a name
 * (-1 when unknown; "0" is VERIFY_OFF). */
const char *verify_kind_name(enum job_verify k);
int verify_kind_parse(const char *s);
unsigned verify_digest_size(enum job_verify k);
/* bytes of header at each chunk start (0 for pattern, off) */
unsigned verify_hdr_size(enum job_verify k);
/* chunk length of a block of len bytes */
uint32_t verify_chunk_len(const struct job_spec *j, uint32_t len);

/* The data seed of the seq-th write of a worker (the job's seed mixed in). */
uint64_t verify_block_seed(uint64_t job_seed, uint32_t worker, uint64_t seq);

/* What the reader expects of a block. check_seed: seed and sequence are
 * known (a write job, or a replay with verify_only); a read-only job takes
 * them from the header. */
struct verify_expect {
    uint64_t off;      /* block offset in the target */
    uint64_t seed;
    uint64_t seq;
    uint32_t worker;
    bool check_seed;
};

/* The first problem of a bad block. */
struct verify_bad {
    uint64_t off;             /* block offset in the target */
    uint32_t len;             /* block length */
    uint64_t chunk_off;       /* offset of the bad chunk in the target */
    uint32_t chunk_len;
    const char *what;         /* "magic", "kind", "length", "offset", "seed", "sequence",
                                 "header crc", "checksum", "pattern" */
    uint64_t want, got;       /* header fields and pattern bytes: expected and found */
    unsigned sumlen;          /* "checksum": digest bytes */
    uint8_t want_sum[VERIFY_DIGEST_MAX], got_sum[VERIFY_DIGEST_MAX];
    int64_t first_diff;       /* first byte of the block that differs from the expected
                                 data (-1: none, or not known) */
    /* the header as found (when the kind has one) */
    uint64_t hdr_seed, hdr_seq, hdr_off;
    uint32_t hdr_len, hdr_worker;
};

/* Builds block buf[0..len) of a write at target offset off. */
void verify_fill(const struct job_spec *j, void *buf, uint32_t len, uint64_t off, uint64_t seed,
                 uint64_t seq, uint32_t worker);

/* Checks block buf[0..len) as read (buf is modified: verify_offset's swap
 * is undone in place). scratch (len bytes) receives the expected block.
 * Returns true when good; else *bad says why. */
bool verify_check(const struct job_spec *j, void *buf, uint32_t len, const struct verify_expect *e,
                  void *scratch, struct verify_bad *bad);

/* Parses fio's verify_pattern value into j (0x hex, decimal, "quoted"
 * strings, %o; concatenated as fio does). Returns 0 or -1 with a message. */
int verify_pattern_parse(struct job_spec *j, const char *v, char *err, size_t errlen);

#endif
