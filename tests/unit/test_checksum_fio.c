/* test_checksum_fio.c - fio's further verify checksums (base/checksum.h)
 * against published test vectors: the CRC catalogue's check values for
 * "123456789" (CRC-64/REDIS, CRC-16/ARC, CRC-7/MMC, and CRC-32/CKSUM's
 * without its final inversion), the FIPS 180-4 examples for SHA-1 and
 * SHA-512 (empty, "abc", the 448-bit message, a million 'a'), the FIPS 202
 * examples for SHA3-224/256/384/512; split updates equal one update. */
#include "check.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/checksum.h"

static void hex(const uint8_t *p, unsigned n, char *out)
{
    for (unsigned i = 0; i < n; i++)
        sprintf(out + 2 * i, "%02x", p[i]);
}

static const char *const M448 = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";

/* the message of vector i: "", "abc", the 448-bit one, a million 'a' */
static const char *msg(unsigned i, size_t *len, char *million)
{
    static const char *const m[3] = {"", "abc", NULL};
    if (i == 3) {
        memset(million, 'a', 1000000);
        *len = 1000000;
        return million;
    }
    const char *s = i == 2 ? M448 : m[i];
    *len = strlen(s);
    return s;
}

TEST(crc_check_values)
{
    const char *s = "123456789";
    CHECK(sum_crc64(s, 9) == 0xe9c6d914c4b8d9caull, "%016llx", (unsigned long long)sum_crc64(s, 9));
    CHECK(sum_crc32(s, 9) == 0x89a1897fu && (uint32_t)~sum_crc32(s, 9) == 0x765e7680u, "%08x",
          sum_crc32(s, 9));
    CHECK(sum_crc16(s, 9) == 0xbb3d, "%04x", sum_crc16(s, 9));
    CHECK(sum_crc7(s, 9) == 0x75, "%02x", sum_crc7(s, 9));
    CHECK(sum_crc64("", 0) == 0 && sum_crc32("", 0) == 0 && sum_crc16("", 0) == 0 && sum_crc7("", 0) == 0,
          "empty");
    /* a changed byte changes each of them */
    char b[64];
    memset(b, 0x5a, sizeof(b));
    uint64_t c64 = sum_crc64(b, 64);
    uint32_t c32 = sum_crc32(b, 64);
    uint16_t c16 = sum_crc16(b, 64);
    uint8_t c7 = sum_crc7(b, 64);
    b[37] ^= 1;
    CHECK(sum_crc64(b, 64) != c64 && sum_crc32(b, 64) != c32 && sum_crc16(b, 64) != c16 &&
          sum_crc7(b, 64) != c7, "one flipped bit");
}

TEST(sha1_vectors)
{
    static const char *const want[4] = {
        "da39a3ee5e6b4b0d3255bfef95601890afd80709", "a9993e364706816aba3e25717850c26c9cd0d89d",
        "84983e441c3bd26ebaae4aa1f95129e5e54670f1", "34aa973cd4c4daa4f61eeb2bdbad27316534016f"};
    char *million = malloc(1000000);
    for (unsigned i = 0; i < 4; i++) {
        size_t len;
        const char *m = msg(i, &len, million);
        struct sha1_ctx c;
        uint8_t d[20];
        char h[41];
        sha1_init(&c);
        sha1_update(&c, m, len);
        sha1_final(&c, d);
        hex(d, 20, h);
        CHECK(!strcmp(h, want[i]), "vector %u: %s", i, h);
    }
    free(million);
}

TEST(sha512_vectors)
{
    static const char *const want[4] = {
        "cf83e1357eefb8bdf1542850d66d8007d620e4050b5715dc83f4a921d36ce9ce47d0d13c5d85f2b0ff8318d2877eec2f"
        "63b931bd47417a81a538327af927da3e",
        "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd"
        "454d4423643ce80e2a9ac94fa54ca49f",
        "204a8fc6dda82f0a0ced7beb8e08a41657c16ef468b228a8279be331a703c33596fd15c13b1b07f9aa1d3bea57789ca0"
        "31ad85c7a71dd70354ec631238ca3445",
        "e718483d0ce769644e2e42c7bc15b4638e1f98b13b2044285632a803afa973ebde0ff244877ea60a4cb0432ce577c31b"
        "eb009c5c2c49aa2e4eadb217ad8cc09b"};
    char *million = malloc(1000000);
    for (unsigned i = 0; i < 4; i++) {
        size_t len;
        const char *m = msg(i, &len, million);
        struct sha512_ctx c;
        uint8_t d[64];
        char h[129];
        sha512_init(&c);
        sha512_update(&c, m, len);
        sha512_final(&c, d);
        hex(d, 64, h);
        CHECK(!strcmp(h, want[i]), "vector %u: %s", i, h);
    }
    free(million);
}

TEST(sha3_vectors)
{
    static const unsigned sizes[4] = {28, 32, 48, 64};
    static const char *const want[4][4] = {
        {"6b4e03423667dbb73b6e15454f0eb1abd4597f9a1b078e3f5b5a6bc7",
         "e642824c3f8cf24ad09234ee7d3c766fc9a3a5168d0c94ad73b46fdf",
         "8a24108b154ada21c9fd5574494479ba5c7e7ab76ef264ead0fcce33",
         "d69335b93325192e516a912e6d19a15cb51c6ed5c15243e7a7fd653c"},
        {"a7ffc6f8bf1ed76651c14756a061d662f580ff4de43b49fa82d80a4b80f8434a",
         "3a985da74fe225b2045c172d6bd390bd855f086e3e9d525b46bfe24511431532",
         "41c0dba2a9d6240849100376a8235e2c82e1b9998a999e21db32dd97496d3376",
         "5c8875ae474a3634ba4fd55ec85bffd661f32aca75c6d699d0cdcb6c115891c1"},
        {"0c63a75b845e4f7d01107d852e4c2485c51a50aaaa94fc61995e71bbee983a2ac3713831264adb47fb6bd1e058d5f004",
         "ec01498288516fc926459f58e2c6ad8df9b473cb0fc08c2596da7cf0e49be4b298d88cea927ac7f539f1edf228376d25",
         "991c665755eb3a4b6bbdfb75c78a492e8c56a22c5c4d7e429bfdbc32b9d4ad5aa04a1f076e62fea19eef51acd0657c22",
         "eee9e24d78c1855337983451df97c8ad9eedf256c6334f8e948d252d5e0e76847aa0774ddb90a842190d2c558b4b8340"},
        {"a69f73cca23a9ac5c8b567dc185a756e97c982164fe25859e0d1dcc1475c80a615b2123af1f5f94c11e3e9402c3ac558"
         "f500199d95b6d3e301758586281dcd26",
         "b751850b1a57168a5693cd924b6b096e08f621827444f70d884f5d0240d2712e10e116e9192af3c91a7ec57647e39340"
         "57340b4cf408d5a56592f8274eec53f0",
         "04a371e84ecfb5b8b77cb48610fca8182dd457ce6f326a0fd3d7ec2f1e91636dee691fbe0c985302ba1b0d8dc78c0863"
         "46b533b49c030d99a27daf1139d6e75e",
         "3c3a876da14034ab60627c077bb98f7e120a2a5370212dffb3385a18d4f38859ed311d0a9d5141ce9cc5c66ee689b266"
         "a8aa18ace8282a0e0db596c90b0a7b87"},
    };
    char *million = malloc(1000000);
    for (unsigned s = 0; s < 4; s++)
        for (unsigned i = 0; i < 4; i++) {
            size_t len;
            const char *m = msg(i, &len, million);
            uint8_t d[64];
            char h[129];
            sha3(sizes[s], m, len, d);
            hex(d, sizes[s], h);
            CHECK(!strcmp(h, want[s][i]), "sha3-%u vector %u: %s", sizes[s] * 8, i, h);
        }
    free(million);
}

/* every split of a 300-byte message into two updates gives the one-update digest */
TEST(split_updates)
{
    uint8_t m[300];
    for (unsigned i = 0; i < sizeof(m); i++)
        m[i] = (uint8_t)(i * 131 + 7);
    uint8_t a1[20], a5[64];
    struct sha1_ctx c1;
    struct sha512_ctx c5;
    sha1_init(&c1);
    sha1_update(&c1, m, sizeof(m));
    sha1_final(&c1, a1);
    sha512_init(&c5);
    sha512_update(&c5, m, sizeof(m));
    sha512_final(&c5, a5);
    for (unsigned cut = 0; cut <= sizeof(m); cut++) {
        uint8_t b1[20], b5[64];
        sha1_init(&c1);
        sha1_update(&c1, m, cut);
        sha1_update(&c1, m + cut, sizeof(m) - cut);
        sha1_final(&c1, b1);
        sha512_init(&c5);
        sha512_update(&c5, m, cut);
        sha512_update(&c5, m + cut, sizeof(m) - cut);
        sha512_final(&c5, b5);
        CHECK(!memcmp(a1, b1, 20) && !memcmp(a5, b5, 64), "cut %u", cut);
    }
}

/* SHA-3 at every length around the rate boundaries (136 bytes for SHA3-256)
 * differs from its neighbours: the padding takes the right byte */
TEST(sha3_rate_edges)
{
    uint8_t m[300] = {0};
    uint8_t prev[32] = {0};
    for (size_t len = 130; len < 280; len++) {
        uint8_t d[32];
        sha3(32, m, len, d);
        CHECK(memcmp(d, prev, 32) != 0, "len %zu", len);
        memcpy(prev, d, 32);
    }
}

CHECK_MAIN()
