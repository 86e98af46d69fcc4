/* test_fio_taus.c - fio's Tausworthe generators and stream seeds
 * (base/fio_taus.h) against the values fio 3.33's own lib/rand.c gives for
 * the trim stream of thread 1 with fio's default randseed (0x89). */
#include "check.h"

#include "base/fio_taus.h"

TEST(taus88_trim_stream_of_thread_1)
{
    struct fio_taus g;
    fio_taus_seed(&g, fio_taus_stream_seed(FIO_TAUS_DEFAULT_SEED, 1, FIO_TAUS_STREAM_TRIM), false);
    static const uint64_t want[3] = {343776149u, 1309639401u, 4033184366u};
    for (int i = 0; i < 3; i++) {
        uint64_t v = fio_taus_next(&g);
        CHECK(v == want[i], "draw %d: %llu, fio %llu", i, (unsigned long long)v, (unsigned long long)want[i]);
    }
    CHECK(fio_taus_max(&g) == UINT32_MAX, "32-bit range");
}

TEST(taus258_trim_stream_of_thread_1)
{
    struct fio_taus g;
    fio_taus_seed(&g, fio_taus_stream_seed(FIO_TAUS_DEFAULT_SEED, 1, FIO_TAUS_STREAM_TRIM), true);
    static const uint64_t want[3] = {7745507921945015020ull, 1425600761200345395ull, 16008631837432837026ull};
    for (int i = 0; i < 3; i++) {
        uint64_t v = fio_taus_next(&g);
        CHECK(v == want[i], "draw %d: %llu, fio %llu", i, (unsigned long long)v, (unsigned long long)want[i]);
    }
    CHECK(fio_taus_max(&g) == UINT64_MAX, "64-bit range");
}

CHECK_MAIN()
