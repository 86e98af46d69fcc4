/* test_checksum.c - the verify checksums (base/checksum.h) against the
 * published test vectors: RFC 1321's MD5 suite, FIPS 180-4 / NIST's SHA-256
 * examples, RFC 3720's CRC-32C examples plus the "123456789" check value,
 * and xxHash's XXH64 values; also that split updates equal one update and
 * that the SSE4.2 and table CRCs agree on every length and alignment. */
#include "check.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "base/checksum.h"

static void hex(const uint8_t *p, unsigned n, char *out)
{
    for (unsigned i = 0; i < n; i++)
        sprintf(out + 2 * i, "%02x", p[i]);
}

static const char *md5s(const char *s, size_t len)
{
    static char out[33];
    uint8_t d[16];
    struct md5_ctx c;
    md5_init(&c);
    md5_update(&c, s, len);
    md5_final(&c, d);
    hex(d, 16, out);
    return out;
}

static const char *sha256s(const void *s, size_t len)
{
    static char out[65];
    uint8_t d[32];
    struct sha256_ctx c;
    sha256_init(&c);
    sha256_update(&c, s, len);
    sha256_final(&c, d);
    hex(d, 32, out);
    return out;
}

TEST(md5_rfc1321_suite)
{
    static const char *v[][2] = {
        {"", "d41d8cd98f00b204e9800998ecf8427e"},
        {"a", "0cc175b9c0f1b6a831c399e269772661"},
        {"abc", "900150983cd24fb0d6963f7d28e17f72"},
        {"message digest", "f96b697d7cb7938d525a2f31aaf161d0"},
        {"abcdefghijklmnopqrstuvwxyz", "c3fcd3d76192e4007dfb496cca67e13b"},
        {"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789",
         "d174ab98d277d9f5a5611c2c9f419d9f"},
        {"12345678901234567890123456789012345678901234567890123456789012345678901234567890",
         "57edf4a22be3c955ac49da2e2107b67a"},
    };
    for (unsigned i = 0; i < sizeof(v) / sizeof(v[0]); i++)
        CHECK(!strcmp(md5s(v[i][0], strlen(v[i][0])), v[i][1]), "md5(\"%s\") = %s", v[i][0],
              md5s(v[i][0], strlen(v[i][0])));
}

TEST(sha256_fips180_examples)
{
    CHECK(!strcmp(sha256s("", 0), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"), "empty");
    CHECK(!strcmp(sha256s("abc", 3), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"), "abc");
    const char *two = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
    CHECK(!strcmp(sha256s(two, strlen(two)), "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
          "two-block message: %s", sha256s(two, strlen(two)));
    /* one million 'a', fed in uneven pieces */
    static char a[1000];
    memset(a, 'a', sizeof(a));
    struct sha256_ctx c;
    sha256_init(&c);
    for (int i = 0; i < 1000; i++)
        sha256_update(&c, a, 1000);
    uint8_t d[32];
    char out[65];
    sha256_final(&c, d);
    hex(d, 32, out);
    CHECK(!strcmp(out, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"), "1M a: %s", out);
}

TEST(split_updates_equal_one_update)
{
    uint8_t buf[300];
    for (unsigned i = 0; i < sizeof(buf); i++)
        buf[i] = (uint8_t)(i * 7 + 3);
    for (unsigned cut = 0; cut <= sizeof(buf); cut += 13) {
        uint8_t d1[32], d2[32];
        struct sha256_ctx s1, s2;
        sha256_init(&s1);
        sha256_update(&s1, buf, sizeof(buf));
        sha256_final(&s1, d1);
        sha256_init(&s2);
        sha256_update(&s2, buf, cut);
        sha256_update(&s2, buf + cut, sizeof(buf) - cut);
        sha256_final(&s2, d2);
        CHECK(!memcmp(d1, d2, 32), "sha256 cut at %u", cut);
        struct md5_ctx m1, m2;
        md5_init(&m1);
        md5_update(&m1, buf, sizeof(buf));
        md5_final(&m1, d1);
        md5_init(&m2);
        md5_update(&m2, buf, cut);
        md5_update(&m2, buf + cut, sizeof(buf) - cut);
        md5_final(&m2, d2);
        CHECK(!memcmp(d1, d2, 16), "md5 cut at %u", cut);
        CHECK(crc32c(crc32c(0, buf, cut), buf + cut, sizeof(buf) - cut) == crc32c(0, buf, sizeof(buf)),
              "crc32c cut at %u", cut);
    }
}

TEST(crc32c_rfc3720_vectors)
{
    uint8_t b[32];
    CHECK(crc32c_sw(0, "123456789", 9) == 0xe3069283u, "check value %08x", crc32c_sw(0, "123456789", 9));
    memset(b, 0, 32);
    CHECK(crc32c_sw(0, b, 32) == 0x8a9136aau, "32 zeros %08x", crc32c_sw(0, b, 32));
    memset(b, 0xff, 32);
    CHECK(crc32c_sw(0, b, 32) == 0x62a8ab43u, "32 ones %08x", crc32c_sw(0, b, 32));
    for (int i = 0; i < 32; i++)
        b[i] = (uint8_t)i;
    CHECK(crc32c_sw(0, b, 32) == 0x46dd794eu, "incrementing %08x", crc32c_sw(0, b, 32));
    for (int i = 0; i < 32; i++)
        b[i] = (uint8_t)(31 - i);
    CHECK(crc32c_sw(0, b, 32) == 0x113fdb5cu, "decrementing %08x", crc32c_sw(0, b, 32));
    CHECK(crc32c(0, "123456789", 9) == 0xe3069283u, "dispatching crc32c");
}

TEST(crc32c_hw_equals_table)
{
    if (!crc32c_hw_available()) {
        printf("SKIP crc32c_hw_equals_table: no SSE4.2 on this CPU\n");
        return;
    }
    CHECK(crc32c_hw(0, "123456789", 9) == 0xe3069283u, "hw check value %08x", crc32c_hw(0, "123456789", 9));
    uint8_t buf[200];
    for (unsigned i = 0; i < sizeof(buf); i++)
        buf[i] = (uint8_t)(i * 151 + 17);
    for (unsigned start = 0; start < 9; start++)
        for (unsigned len = 0; start + len <= sizeof(buf); len += 7)
            CHECK(crc32c_hw(0x1234, buf + start, len) == crc32c_sw(0x1234, buf + start, len),
                  "start %u len %u", start, len);
}

TEST(xxh64_reference_values)
{
    CHECK(xxh64("", 0, 0) == 0xef46db3751d8e999ull, "empty %016llx", (unsigned long long)xxh64("", 0, 0));
    CHECK(xxh64("a", 1, 0) == 0xd24ec4f1a98c6e5bull, "a %016llx", (unsigned long long)xxh64("a", 1, 0));
    CHECK(xxh64("abc", 3, 0) == 0x44bc2cf5ad770999ull, "abc %016llx", (unsigned long long)xxh64("abc", 3, 0));
    const char *s = "Nobody inspects the spammish repetition";
    CHECK(xxh64(s, strlen(s), 0) == 0xfbcea83c8a378bf1ull, "spammish %016llx",
          (unsigned long long)xxh64(s, strlen(s), 0));
}

CHECK_MAIN()
