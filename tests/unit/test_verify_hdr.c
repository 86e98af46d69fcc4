/* test_verify_hdr.c - verified blocks (job/verify_hdr.h): a block built by
 * verify_fill checks clean for every kind, interval and offset swap; each
 * kind of damage (data byte, header field, stale write, wrong offset) is
 * reported with the right reason, chunk and first differing byte; patterns
 * parse as fio's verify_pattern does. */
#include "check.h"

#include <stdint.h>
#include <string.h>

#include "job/verify_hdr.h"

static const enum job_verify all[] = {VERIFY_MD5, VERIFY_CRC32C, VERIFY_CRC32C_INTEL, VERIFY_XXHASH,
                                      VERIFY_SHA256, VERIFY_META};

static void job_for(struct job_spec *j, enum job_verify k)
{
    job_defaults(j);
    j->verify = k;
}

static uint8_t buf[65536], scratch[65536];

TEST(clean_blocks_check_clean)
{
    struct job_spec j;
    for (unsigned k = 0; k < sizeof(all) / sizeof(all[0]); k++)
        for (unsigned iv = 0; iv <= 4096; iv += 1024)
            for (uint32_t voff = 0; voff <= 256; voff += 256) {
                job_for(&j, all[k]);
                j.verify_interval = iv;
                j.verify_offset = voff;
                uint32_t len = 16384;
                uint64_t seed = verify_block_seed(42, 3, 7);
                verify_fill(&j, buf, len, 1 << 20, seed, 7, 3);
                struct verify_expect e = {.off = 1 << 20, .seed = seed, .seq = 7, .worker = 3, .check_seed = true};
                struct verify_bad b;
                CHECK(verify_check(&j, buf, len, &e, scratch, &b), "%s iv %u voff %u: %s",
                      verify_kind_name(all[k]), iv, voff, b.what);
            }
}

TEST(data_damage_is_a_checksum_error_at_its_byte)
{
    struct job_spec j;
    for (unsigned k = 0; k < 5; k++) {
        job_for(&j, all[k]);
        j.verify_interval = 4096;
        uint64_t seed = verify_block_seed(1, 0, 1);
        verify_fill(&j, buf, 16384, 8192, seed, 1, 0);
        buf[9000] ^= 0x40; /* chunk 2 (8192..12287), data area */
        struct verify_expect e = {.off = 8192, .seed = seed, .seq = 1, .check_seed = true};
        struct verify_bad b;
        CHECK(!verify_check(&j, buf, 16384, &e, scratch, &b), "%s missed a flipped bit", verify_kind_name(all[k]));
        CHECK(!strcmp(b.what, "checksum"), "%s: %s", verify_kind_name(all[k]), b.what);
        CHECK(b.chunk_off == 8192 + 8192 && b.chunk_len == 4096, "chunk %llu", (unsigned long long)b.chunk_off);
        CHECK(b.first_diff == 9000, "first diff %lld", (long long)b.first_diff);
        CHECK(b.sumlen == verify_digest_size(all[k]) && memcmp(b.want_sum, b.got_sum, b.sumlen),
              "digests reported");
    }
}

TEST(meta_has_no_digest_but_checks_the_header)
{
    struct job_spec j;
    job_for(&j, VERIFY_META);
    verify_fill(&j, buf, 4096, 0, 5, 1, 0);
    buf[100] ^= 1; /* data: meta does not see it */
    struct verify_expect e = {.off = 0, .seed = 5, .seq = 1, .check_seed = true};
    struct verify_bad b;
    CHECK(verify_check(&j, buf, 4096, &e, scratch, &b), "meta checks the header only");
    buf[20] ^= 1; /* the offset field */
    CHECK(!verify_check(&j, buf, 4096, &e, scratch, &b) && !strcmp(b.what, "offset"), "%s", b.what);
}

TEST(header_fields_name_the_problem)
{
    struct job_spec j;
    job_for(&j, VERIFY_CRC32C);
    struct verify_bad b;
    uint64_t seed = verify_block_seed(9, 0, 4);
    /* a block found where another was written: offset */
    verify_fill(&j, buf, 4096, 4096, seed, 4, 0);
    struct verify_expect e = {.off = 8192, .seed = seed, .seq = 4, .check_seed = true};
    CHECK(!verify_check(&j, buf, 4096, &e, scratch, &b) && !strcmp(b.what, "offset"), "%s", b.what);
    CHECK(b.want == 8192 && b.got == 4096, "want %llu got %llu", (unsigned long long)b.want, (unsigned long long)b.got);
    /* an older write of the same block: seed, then sequence */
    verify_fill(&j, buf, 4096, 8192, verify_block_seed(9, 0, 2), 2, 0);
    CHECK(!verify_check(&j, buf, 4096, &e, scratch, &b) && !strcmp(b.what, "seed"), "%s", b.what);
    verify_fill(&j, buf, 4096, 8192, seed, 3, 0);
    CHECK(!verify_check(&j, buf, 4096, &e, scratch, &b) && !strcmp(b.what, "sequence"), "%s", b.what);
    CHECK(b.want == 4 && b.got == 3, "sequence want/got");
    /* a read-only job takes seed and sequence from the header */
    e.check_seed = false;
    CHECK(verify_check(&j, buf, 4096, &e, scratch, &b), "read-only check: %s", b.what);
    /* zeroes: magic */
    memset(buf, 0, 4096);
    CHECK(!verify_check(&j, buf, 4096, &e, scratch, &b) && !strcmp(b.what, "magic"), "%s", b.what);
    CHECK(b.first_diff == 0, "first diff %lld", (long long)b.first_diff);
    /* a header byte that no field check covers: the header crc */
    verify_fill(&j, buf, 4096, 8192, seed, 4, 0);
    buf[13] ^= 0x80; /* worker field */
    e.check_seed = true;
    CHECK(!verify_check(&j, buf, 4096, &e, scratch, &b) && !strcmp(b.what, "header crc"), "%s", b.what);
    /* length */
    verify_fill(&j, buf, 8192, 8192, seed, 4, 0);
    CHECK(!verify_check(&j, buf, 4096, &e, scratch, &b) && !strcmp(b.what, "length"), "%s", b.what);
}

TEST(crc32c_intel_is_crc32c)
{
    struct job_spec w, r;
    job_for(&w, VERIFY_CRC32C_INTEL);
    job_for(&r, VERIFY_CRC32C);
    verify_fill(&w, buf, 4096, 0, 3, 1, 0);
    struct verify_expect e = {.off = 0, .seed = 3, .seq = 1, .check_seed = true};
    struct verify_bad b;
    CHECK(verify_check(&r, buf, 4096, &e, scratch, &b), "crc32c reads crc32c-intel blocks: %s", b.what);
    job_for(&r, VERIFY_MD5);
    CHECK(!verify_check(&r, buf, 4096, &e, scratch, &b) && !strcmp(b.what, "kind"), "md5 does not: %s", b.what);
}

TEST(verify_offset_moves_the_header)
{
    struct job_spec j;
    job_for(&j, VERIFY_MD5);
    j.verify_offset = 1024;
    verify_fill(&j, buf, 4096, 0, 77, 1, 0);
    uint32_t magic;
    memcpy(&magic, buf + 1024, 4);
    CHECK(magic == VERIFY_MAGIC, "header at verify_offset");
    memcpy(&magic, buf, 4);
    CHECK(magic != VERIFY_MAGIC, "not at the start");
}

TEST(pattern_parse_and_check)
{
    struct job_spec j;
    char err[128];
    job_for(&j, VERIFY_PATTERN);
    CHECK(verify_pattern_parse(&j, "0xdeadbeef", err, sizeof(err)) == 0, "%s", err);
    CHECK(j.verify_pattern_len == 4 && j.verify_pattern[0] == 0xde && j.verify_pattern[3] == 0xef, "hex order");
    CHECK(verify_pattern_parse(&j, "0xff0x14\"ab\"%o-12", err, sizeof(err)) == 0, "%s", err);
    CHECK(j.verify_pattern_len == 1 + 1 + 2 + 8 + 4, "len %u", j.verify_pattern_len);
    CHECK(j.verify_pattern[0] == 0xff && j.verify_pattern[1] == 0x14 && j.verify_pattern[2] == 'a' &&
              j.verify_pattern_nfmt == 1 && j.verify_pattern_fmt[0] == 4 && j.verify_pattern[12] == 0xf4,
          "elements");
    CHECK(verify_pattern_parse(&j, "258", err, sizeof(err)) == 0 && j.verify_pattern_len == 2 &&
              j.verify_pattern[0] == 2 && j.verify_pattern[1] == 1,
          "decimal little-endian");
    CHECK(verify_pattern_parse(&j, "\"open", err, sizeof(err)) < 0, "unterminated string");
    CHECK(verify_pattern_parse(&j, "zz", err, sizeof(err)) < 0, "garbage");

    CHECK(verify_pattern_parse(&j, "%o", err, sizeof(err)) == 0, "%s", err);
    verify_fill(&j, buf, 4096, 0x123000, 0, 0, 0);
    uint64_t v;
    memcpy(&v, buf + 8, 8);
    CHECK(v == 0x123000, "offset pasted: %llx", (unsigned long long)v);
    struct verify_expect e = {.off = 0x123000};
    struct verify_bad b;
    CHECK(verify_check(&j, buf, 4096, &e, scratch, &b), "pattern clean: %s", b.what);
    buf[4000] ^= 2;
    CHECK(!verify_check(&j, buf, 4096, &e, scratch, &b) && !strcmp(b.what, "pattern"), "pattern damage");
    CHECK(b.first_diff == 4000, "first diff %lld", (long long)b.first_diff);
    e.off = 0x124000; /* the block of another offset */
    verify_fill(&j, buf, 4096, 0x123000, 0, 0, 0);
    CHECK(!verify_check(&j, buf, 4096, &e, scratch, &b), "%%o catches a misplaced block");
}

TEST(kind_names)
{
    CHECK(verify_kind_parse("md5") == VERIFY_MD5 && verify_kind_parse("crc32c-intel") == VERIFY_CRC32C_INTEL &&
              verify_kind_parse("0") == VERIFY_OFF && verify_kind_parse("xxhash") == VERIFY_XXHASH &&
              verify_kind_parse("crc63") == -1,
          "names");
    /* fio's further methods */
    CHECK(verify_kind_parse("crc64") == VERIFY_CRC64 && verify_kind_parse("crc32") == VERIFY_CRC32 &&
              verify_kind_parse("crc16") == VERIFY_CRC16 && verify_kind_parse("crc7") == VERIFY_CRC7 &&
              verify_kind_parse("sha1") == VERIFY_SHA1 && verify_kind_parse("sha512") == VERIFY_SHA512 &&
              verify_kind_parse("sha3-224") == VERIFY_SHA3_224 && verify_kind_parse("SHA3-512") == VERIFY_SHA3_512,
          "fio's further names");
    CHECK(!strcmp(verify_kind_name(VERIFY_SHA3_384), "sha3-384") && verify_hdr_size(VERIFY_SHA512) == 112 &&
              verify_hdr_size(VERIFY_CRC7) == 49 && verify_hdr_size(VERIFY_SHA3_224) == 76 &&
              verify_hdr_size(VERIFY_CRC64) == 56,
          "further sizes");
    CHECK(verify_hdr_size(VERIFY_SHA256) == 80 && verify_hdr_size(VERIFY_PATTERN) == 0 &&
              verify_hdr_size(VERIFY_META) == 48,
          "sizes");
}

CHECK_MAIN()
