/* test_randmap.c - the random map structures (randmap.h): the permutation
 * hands out every block exactly once per pass for awkward counts and a new
 * order each pass; the bitmap's next-free search and run marking agree with
 * a plain byte array at every step, across level boundaries and wrap-around.
 * The generator's use of them is in test_gen.c. */
#include "check.h"

#include <stdint.h>
#include <stdlib.h>

#include "base/rng.h"
#include "job/randmap.h"

static const uint64_t counts[] = {1, 2, 3, 5, 7, 63, 64, 65, 1000, 4097, 262147};

TEST(randperm_every_block_once_per_pass)
{
    for (unsigned c = 0; c < sizeof(counts) / sizeof(counts[0]); c++) {
        uint64_t n = counts[c];
        unsigned char *seen = calloc(n, 1);
        uint64_t *first = calloc(n, sizeof(uint64_t));
        CHECK(seen && first, "alloc");
        struct randperm p;
        randperm_init(&p, n, 1234 + c);
        for (int pass = 0; pass < 3; pass++) {
            memset(seen, 0, n);
            uint64_t b, k = 0, same = 0;
            while (randperm_next(&p, &b)) {
                CHECK(b < n, "n %llu: block %llu", (unsigned long long)n, (unsigned long long)b);
                CHECK(!seen[b], "n %llu pass %d: block %llu twice", (unsigned long long)n, pass,
                      (unsigned long long)b);
                seen[b] = 1;
                if (pass == 0)
                    first[k] = b;
                else if (first[k] == b)
                    same++;
                k++;
            }
            CHECK(k == n, "n %llu pass %d: %llu blocks", (unsigned long long)n, pass,
                  (unsigned long long)k);
            CHECK(!randperm_next(&p, &b), "a finished pass stays finished");
            /* a new pass is a new order (not checked for tiny counts, where
             * the same order is likely) */
            if (pass > 0 && n >= 1000)
                CHECK(same < n / 10, "n %llu pass %d: %llu of %llu in the same place",
                      (unsigned long long)n, pass, (unsigned long long)same,
                      (unsigned long long)n);
            randperm_reset(&p);
        }
        free(seen);
        free(first);
    }
}

TEST(randperm_order_looks_random)
{
    /* successive blocks of a 2^20 permutation: the mean jump is about n/3
     * for a random order; a sequential or strided order would fail */
    uint64_t n = 1 << 20, prev = 0, b;
    struct randperm p;
    randperm_init(&p, n, 99);
    double sum = 0;
    uint64_t k = 0;
    while (randperm_next(&p, &b)) {
        if (k++)
            sum += (double)(b > prev ? b - prev : prev - b);
        prev = b;
    }
    double mean = sum / (double)(k - 1) / (double)n;
    CHECK(mean > 0.32 && mean < 0.345, "mean jump %.4f of n, want 1/3", mean);
}

static uint64_t ref_next_free(const unsigned char *a, uint64_t n, uint64_t b)
{
    for (uint64_t i = 0; i < n; i++) {
        uint64_t x = (b + i) % n;
        if (!a[x])
            return x;
    }
    return UINT64_MAX;
}

TEST(randmap_matches_a_plain_array)
{
    for (unsigned c = 0; c < sizeof(counts) / sizeof(counts[0]); c++) {
        uint64_t n = counts[c];
        if (n > 5000)
            continue; /* the reference search is quadratic */
        struct randmap m;
        CHECK(randmap_init(&m, n) == 0, "init");
        unsigned char *ref = calloc(n, 1);
        struct rng r;
        rng_seed(&r, n);
        uint64_t marked = 0;
        for (int round = 0; round < 2; round++) {
            while (marked < n) {
                uint64_t b = rng_below(&r, n);
                uint64_t want = ref_next_free(ref, n, b);
                uint64_t got = randmap_isset(&m, b) ? randmap_next_free(&m, b) : b;
                CHECK(got == want, "n %llu: next free from %llu is %llu, want %llu",
                      (unsigned long long)n, (unsigned long long)b, (unsigned long long)got,
                      (unsigned long long)want);
                uint64_t nr = 1 + rng_below(&r, 70);
                uint64_t k = randmap_set_run(&m, got, nr), rk = 0;
                while (rk < nr && got + rk < n && !ref[got + rk])
                    ref[got + rk++] = 1;
                CHECK(k == rk && k >= 1, "n %llu: run at %llu of %llu marked %llu, want %llu",
                      (unsigned long long)n, (unsigned long long)got, (unsigned long long)nr,
                      (unsigned long long)k, (unsigned long long)rk);
                marked += k;
                CHECK(m.nfree == n - marked, "nfree");
            }
            CHECK(randmap_next_free(&m, 0) == UINT64_MAX, "full map has no free block");
            CHECK(randmap_set_run(&m, 0, 5) == 0, "full map marks nothing");
            randmap_reset(&m);
            memset(ref, 0, n);
            marked = 0;
            CHECK(m.nfree == n && !randmap_isset(&m, n - 1), "reset");
        }
        randmap_free(&m);
        free(ref);
    }
}

TEST(randmap_levels_and_size)
{
    /* 2^32 blocks (16 TiB of 4 KiB): 512 MiB of bits plus 8 MiB + 128 KiB +
     * 2 KiB + 32 B + 8 B of summary levels */
    size_t want = (size_t)(67108864ULL + 1048576 + 16384 + 256 + 4 + 1) * 8;
    CHECK(randmap_bytes(1ULL << 32) == want, "bytes %zu, want %zu", randmap_bytes(1ULL << 32), want);
    CHECK(randmap_bytes(1) == 8, "one block: one word");
    /* a run across a level-1 boundary and the search above it */
    struct randmap m;
    uint64_t n = 64 * 64 * 3 + 5;
    CHECK(randmap_init(&m, n) == 0, "init");
    CHECK(randmap_set_run(&m, 0, 64 * 64 + 10) == 64 * 64 + 10, "long run");
    CHECK(randmap_next_free(&m, 3) == 64 * 64 + 10, "next free after the run: %llu",
          (unsigned long long)randmap_next_free(&m, 3));
    CHECK(randmap_set_run(&m, 64 * 64 + 10, n) == n - (64 * 64 + 10), "to the end");
    CHECK(m.nfree == 0 && randmap_next_free(&m, 0) == UINT64_MAX, "full");
    randmap_free(&m);
}

CHECK_MAIN()
