/* test_fio_plat.c - fio's latency bucket layout (stats/fio_plat.h): the
 * index agrees with fio's plat_val_to_idx() written out plainly, bucket
 * bounds and midpoints are fio's, every bucket of ssdbench's histogram lies
 * inside one fio bucket (so converting is exact), and the conversion keeps
 * every count. */
#include "check.h"

#include <stdint.h>

#include "stats/fio_plat.h"
#include "stats/hist.h"

/* fio 3.33 stat.c plat_val_to_idx, as written there */
static unsigned ref_index(unsigned long long val)
{
    unsigned msb = val == 0 ? 0 : (unsigned)(sizeof(val) * 8) - (unsigned)__builtin_clzll(val) - 1;
    if (msb <= 6)
        return (unsigned)val;
    unsigned error_bits = msb - 6;
    unsigned base = (error_bits + 1) << 6;
    unsigned offset = (unsigned)(63 & (val >> error_bits));
    return (base + offset) < (1856 - 1) ? base + offset : 1856 - 1;
}

TEST(index_is_fios)
{
    CHECK(FIO_PLAT_NR == 1856, "%u", FIO_PLAT_NR);
    for (uint64_t v = 0; v < 100000; v++)
        CHECK(fio_plat_index(v) == ref_index(v), "v %llu", (unsigned long long)v);
    for (unsigned b = 7; b < 64; b++) {
        uint64_t p = UINT64_C(1) << b;
        uint64_t vs[] = {p - 1, p, p + 1, p + p / 3, p | (p - 1)};
        for (unsigned i = 0; i < 5; i++)
            CHECK(fio_plat_index(vs[i]) == ref_index(vs[i]), "v %llu", (unsigned long long)vs[i]);
    }
    CHECK(fio_plat_index(UINT64_MAX) == 1855, "%u", fio_plat_index(UINT64_MAX));
}

TEST(bounds_and_middles)
{
    for (unsigned i = 0; i + 1 < FIO_PLAT_NR; i++) {
        uint64_t lo = fio_plat_lo(i), hi = fio_plat_hi(i);
        CHECK(fio_plat_index(lo) == i && fio_plat_index(hi - 1) == i && fio_plat_index(hi) == i + 1,
              "bucket %u [%llu, %llu)", i, (unsigned long long)lo, (unsigned long long)hi);
        CHECK(fio_plat_lo(i + 1) == hi, "bucket %u", i);
    }
    /* fio's plat_idx_to_val: the bucket's middle */
    CHECK(fio_plat_mid(100) == 100, "%llu", (unsigned long long)fio_plat_mid(100));
    CHECK(fio_plat_mid(128) == 129, "%llu", (unsigned long long)fio_plat_mid(128));
    CHECK(fio_plat_mid(1855) == (UINT64_C(1) << 33) + 63 * (UINT64_C(1) << 27) + (UINT64_C(1) << 26),
          "%llu", (unsigned long long)fio_plat_mid(1855));
}

TEST(every_hist_bucket_inside_one_fio_bucket)
{
    for (unsigned i = 0; i < HIST_NBUCKETS - 1; i++) {
        uint64_t lo = hist_bucket_lo(i), hi = hist_bucket_hi(i);
        CHECK(fio_plat_index(lo) == fio_plat_index(hi - 1), "hist bucket %u [%llu, %llu)", i,
              (unsigned long long)lo, (unsigned long long)hi);
    }
}

TEST(conversion_is_exact)
{
    static struct hist h;
    static uint64_t out[FIO_PLAT_NR], direct[FIO_PLAT_NR];
    hist_init(&h);
    uint64_t x = 88172645463325252ull;
    for (unsigned i = 0; i < 200000; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        uint64_t v = (x >> (x & 31)) % (UINT64_C(1) << 36);
        hist_add(&h, v);
        direct[fio_plat_index(v)]++;
    }
    fio_plat_from_hist(&h, out);
    uint64_t total = 0;
    for (unsigned i = 0; i < FIO_PLAT_NR; i++) {
        CHECK(out[i] == direct[i], "bucket %u: %llu vs %llu", i, (unsigned long long)out[i],
              (unsigned long long)direct[i]);
        total += out[i];
    }
    CHECK(total == h.n, "%llu", (unsigned long long)total);
}

CHECK_MAIN()
