/* test_stripe.c - the RAID-0 mapping (stripe.h): a hand-computed table,
 * exhaustive round trips on a small layout, random offsets on large layouts
 * against plain division, the job/region checks, and the generator's promise
 * that no I/O crosses a chunk in the striped layout. */
#include "check.h"
#include "testjob.h"

#include <errno.h>
#include <stdint.h>

#include "base/rng.h"
#include "target/stripe.h"
#include "job/gen.h"
#include "job/job.h"
#include "job/job_opts.h"

#define KiB 1024ULL
#define MiB (1024ULL * KiB)
#define GiB (1024ULL * MiB)
#define TiB (1024ULL * GiB)

TEST(hand_computed_3x64k)
{
    struct stripe_map m;
    char err[256];
    /* 1 MiB + 1000 per target: 16 whole chunks each, the 1000-byte tail unused */
    CHECK(stripe_init(&m, 3, 64 * KiB, MiB + 1000, err, sizeof(err)) == 0, "%s", err);
    CHECK(stripe_logical_len(&m) == 3 * MiB, "logical len %llu",
          (unsigned long long)stripe_logical_len(&m));
    static const struct {
        uint64_t logical;
        unsigned target;
        uint64_t off;
    } t[] = {
        {0, 0, 0},
        {65535, 0, 65535},
        {65536, 1, 0},
        {131072 + 100, 2, 100},
        {196608, 0, 65536},            /* chunk 3: target 0, row 1 */
        {331776, 2, 69632},            /* chunk 5 + 4096: target 2, row 1 */
        {459264, 1, 131584},           /* chunk 7 + 512: target 1, row 2 */
        {3145727, 2, 1048575},         /* last byte: chunk 47, target 2, row 15 */
    };
    for (unsigned i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
        unsigned tg;
        uint64_t off;
        stripe_map(&m, t[i].logical, &tg, &off);
        CHECK(tg == t[i].target && off == t[i].off, "%llu -> (%u, %llu), want (%u, %llu)",
              (unsigned long long)t[i].logical, tg, (unsigned long long)off, t[i].target,
              (unsigned long long)t[i].off);
        CHECK(stripe_unmap(&m, tg, off) == t[i].logical, "unmap (%u, %llu)", tg,
              (unsigned long long)off);
    }
}

TEST(round_trip_every_chunk_small_layouts)
{
    static const unsigned ns[] = {1, 2, 3, 4, 5, 7};
    static const uint64_t chunks[] = {512, 4096, 3 * 4096, 64 * KiB};
    for (unsigned a = 0; a < sizeof(ns) / sizeof(ns[0]); a++) {
        for (unsigned b = 0; b < sizeof(chunks) / sizeof(chunks[0]); b++) {
            unsigned n = ns[a];
            uint64_t chunk = chunks[b], rows = 10;
            struct stripe_map m;
            char err[256];
            CHECK(stripe_init(&m, n, chunk, rows * chunk + chunk / 2, err, sizeof(err)) == 0,
                  "%s", err);
            CHECK(stripe_logical_len(&m) == n * rows * chunk, "n %u chunk %llu: len %llu", n,
                  (unsigned long long)chunk, (unsigned long long)stripe_logical_len(&m));
            unsigned char seen[7][10] = {{0}};
            for (uint64_t k = 0; k < n * rows; k++) {
                const uint64_t within[3] = {0, chunk / 2 + 1, chunk - 1};
                for (int w = 0; w < 3; w++) {
                    uint64_t lo = k * chunk + within[w];
                    unsigned tg;
                    uint64_t off;
                    stripe_map(&m, lo, &tg, &off);
                    CHECK(tg == k % n && off == (k / n) * chunk + within[w],
                          "n %u chunk %llu: %llu -> (%u, %llu)", n, (unsigned long long)chunk,
                          (unsigned long long)lo, tg, (unsigned long long)off);
                    CHECK(stripe_unmap(&m, tg, off) == lo, "round trip of %llu",
                          (unsigned long long)lo);
                    if (w == 0) {
                        CHECK(!seen[tg][off / chunk], "chunk (%u, %llu) used twice", tg,
                              (unsigned long long)(off / chunk));
                        seen[tg][off / chunk] = 1;
                    }
                }
            }
        }
    }
}

TEST(random_offsets_large_layouts)
{
    static const unsigned ns[] = {1, 2, 3, 6, 7, 12, 13, 64};
    static const uint64_t chunks[] = {4096, 128 * KiB, 7 * 512, 3 * 64 * KiB};
    struct rng r;
    rng_seed(&r, 17);
    for (unsigned a = 0; a < sizeof(ns) / sizeof(ns[0]); a++) {
        for (unsigned b = 0; b < sizeof(chunks) / sizeof(chunks[0]); b++) {
            unsigned n = ns[a];
            uint64_t chunk = chunks[b];
            struct stripe_map m;
            char err[256];
            CHECK(stripe_init(&m, n, chunk, 16 * TiB + 12345, err, sizeof(err)) == 0, "%s", err);
            uint64_t len = stripe_logical_len(&m);
            CHECK(len == n * ((16 * TiB + 12345) / chunk) * chunk, "len");
            for (int i = 0; i < 20000; i++) {
                uint64_t lo = i == 0 ? len - 1 : rng_below(&r, len);
                unsigned tg;
                uint64_t off;
                stripe_map(&m, lo, &tg, &off);
                uint64_t k = lo / chunk;
                CHECK(tg == k % n && off == k / n * chunk + lo % chunk,
                      "n %u chunk %llu: %llu -> (%u, %llu)", n, (unsigned long long)chunk,
                      (unsigned long long)lo, tg, (unsigned long long)off);
                CHECK(stripe_unmap(&m, tg, off) == lo, "round trip of %llu",
                      (unsigned long long)lo);
            }
        }
    }
    /* near the 64-bit limit: 3 targets of 2^61 bytes */
    struct stripe_map m;
    char err[256];
    CHECK(stripe_init(&m, 3, 64 * KiB, 1ULL << 61, err, sizeof(err)) == 0, "%s", err);
    uint64_t top = stripe_logical_len(&m) - 1;
    unsigned tg;
    uint64_t off;
    stripe_map(&m, top, &tg, &off);
    CHECK(tg == 2 && off == (1ULL << 61) - 1, "top -> (%u, %llu)", tg, (unsigned long long)off);
}

TEST(init_rejects_bad_layouts)
{
    struct stripe_map m;
    char err[256];
    CHECK(stripe_init(&m, 0, 64 * KiB, GiB, err, sizeof(err)) == -EINVAL && strstr(err, "0 targets"),
          "%s", err);
    char too_many[16];
    snprintf(too_many, sizeof(too_many), "%d", JOB_MAX_TARGETS + 1);
    CHECK(stripe_init(&m, JOB_MAX_TARGETS + 1, 64 * KiB, GiB, err, sizeof(err)) == -EINVAL &&
              strstr(err, too_many),
          "%s", err);
    CHECK(stripe_init(&m, 2, 0, GiB, err, sizeof(err)) == -EINVAL && strstr(err, "0 bytes"), "%s",
          err);
    CHECK(stripe_init(&m, 2, 1000, GiB, err, sizeof(err)) == -EINVAL && strstr(err, "1000"), "%s",
          err);
    CHECK(stripe_init(&m, 2, 64 * KiB, 4096, err, sizeof(err)) == -EINVAL && strstr(err, "4096"),
          "%s", err);
    CHECK(stripe_init(&m, 64, 64 * KiB, 1ULL << 60, err, sizeof(err)) == -EINVAL &&
              strstr(err, "64-bit"),
          "%s", err);
}

TEST(check_job_and_region)
{
    struct stripe_map m;
    char err[256];
    CHECK(stripe_init(&m, 4, 64 * KiB, GiB, err, sizeof(err)) == 0, "%s", err);

    struct job_spec j = mkjob(RW_RANDRW);
    set_bssplit(&j, DIR_READ, "4k/50:64k/50");
    set_bssplit(&j, DIR_WRITE, "8k/100");
    CHECK(job_stripe_check(&m, &j, err, sizeof(err)) == 0, "good job: %s", err);

    set_bssplit(&j, DIR_READ, "4k/50:128k/50");
    CHECK(job_stripe_check(&m, &j, err, sizeof(err)) == -EINVAL &&
              strstr(err, "block size 131072 for reads is larger than the stripe chunk 65536"),
          "%s", err);
    /* sizes that do not divide the chunk are fine: the generator keeps
     * every I/O inside one chunk (see gen.c and test_gen's chunk tests) */
    set_bssplit(&j, DIR_READ, "4k/50:48k/50");
    CHECK(job_stripe_check(&m, &j, err, sizeof(err)) == 0, "48k in 64k chunks: %s", err);
    set_bssplit(&j, DIR_READ, "512/4:1k/1:1536/1:2k/1:2560/1:3k/1:3584/1:4k/67:8k/10:16k/7:32k/3:64k/3");
    CHECK(job_stripe_check(&m, &j, err, sizeof(err)) == 0, "ECW mix: %s", err);
    set_bssplit(&j, DIR_READ, "4k/100");
    j.blockalign[DIR_WRITE] = 12 * 1024;
    CHECK(job_stripe_check(&m, &j, err, sizeof(err)) == -EINVAL &&
              strstr(err, "blockalign 12288 for writes"),
          "%s", err);
    /* an unused direction is not checked */
    j = mkjob(RW_RANDREAD);
    set_bssplit(&j, DIR_WRITE, "256k/100");
    CHECK(job_stripe_check(&m, &j, err, sizeof(err)) == 0, "read-only job: %s", err);
    j.offset = 4096;
    CHECK(job_stripe_check(&m, &j, err, sizeof(err)) == -EINVAL && strstr(err, "offset 4096"),
          "%s", err);
    j.offset = 128 * KiB;
    j.offset_increment = 1000 * 512;
    CHECK(job_stripe_check(&m, &j, err, sizeof(err)) == -EINVAL &&
              strstr(err, "offset_increment 512000"),
          "%s", err);

    CHECK(stripe_check_region(&m, 128 * KiB, GiB, err, sizeof(err)) == 0, "%s", err);
    CHECK(stripe_check_region(&m, 4096, GiB, err, sizeof(err)) == -EINVAL &&
              strstr(err, "region start 4096"),
          "%s", err);
    CHECK(stripe_check_region(&m, 64 * KiB, 4 * GiB, err, sizeof(err)) == -EINVAL &&
              strstr(err, "past the striped space"),
          "%s", err);
}

TEST(stripe_layout_never_crosses_chunks)
{
    const uint64_t chunk = 64 * KiB;
    const enum job_dist kinds[3] = {DIST_UNIFORM, DIST_ZIPF, DIST_ZONED};
    for (int k = 0; k < 3; k++) {
        for (int seq = 0; seq < 2; seq++) {
            struct job_spec j = mkjob(seq ? RW_RW : RW_RANDRW);
            j.layout = LAYOUT_STRIPE;
            j.stripe_chunk = chunk;
            /* 1536 and 48k do not divide the chunk: still never crossing */
            set_bssplit(&j, DIR_READ, "512/4:1k/1:1536/1:2k/1:4k/66:8k/10:16k/7:32k/4:48k/3:64k/3");
            set_bssplit(&j, DIR_WRITE, "4k/50:16k/25:64k/25");
            j.blockalign[DIR_READ] = 4096;
            j.dist.kind = kinds[k];
            j.dist.param = 1.1;
            j.dist.nzones = 2;
            j.dist.zones[0] = (struct job_zone){90, 10};
            j.dist.zones[1] = (struct job_zone){10, 90};
            struct gen g;
            char err[256];
            uint64_t R = 16 * MiB;
            CHECK(gen_init(&g, &j, R, 61, err, sizeof(err)) == 0, "%s", err);
            for (int i = 0; i < 200000; i++) {
                struct gen_io io;
                gen_next(&g, &io);
                CHECK(io.off / chunk == (io.off + io.len - 1) / chunk,
                      "dist %d seq %d: %u bytes at %llu cross a chunk", k, seq, io.len,
                      (unsigned long long)io.off);
                CHECK(io.off + io.len <= R, "past the end");
                if (!seq)
                    CHECK(io.off % 4096 == 0, "unaligned %llu",
                          (unsigned long long)io.off);
            }
            gen_free(&g);
        }
    }
}

TEST(stripe_layout_uniform_stays_uniform)
{
    /* 16k I/Os on a 4k grid in 64k chunks may start in slots 0..12 of a
     * chunk; crossing draws are redrawn, so those 13 slots stay equally
     * likely (moving them back would pile 4/16 onto slot 12). Chi-square,
     * 12 df, p = 0.001: 32.909. */
    struct job_spec j = mkjob(RW_RANDREAD);
    j.layout = LAYOUT_STRIPE;
    j.stripe_chunk = 64 * KiB;
    set_bssplit(&j, DIR_READ, "4k/50:16k/50");
    j.norandommap = true; /* the draw itself; with the map see test_gen.c */
    struct gen g;
    char err[256];
    CHECK(gen_init(&g, &j, 256 * MiB, 71, err, sizeof(err)) == 0, "%s", err);
    unsigned slot[16] = {0}, n16k = 0;
    for (int i = 0; i < 400000; i++) {
        struct gen_io io;
        gen_next(&g, &io);
        if (io.len == 16384) {
            unsigned sl = (unsigned)(io.off % 65536 / 4096);
            CHECK(io.off % 4096 == 0 && sl <= 12, "16k I/O at %llu", (unsigned long long)io.off);
            slot[sl]++;
            n16k++;
        }
    }
    gen_free(&g);
    double chi = 0, e = n16k / 13.0;
    for (int i = 0; i < 13; i++)
        chi += (slot[i] - e) * (slot[i] - e) / e;
    CHECK(chi < 32.909, "chi-square %.2f over the 13 start slots (slot 12: %u, mean %.0f)", chi,
          slot[12], e);
}

CHECK_MAIN()
