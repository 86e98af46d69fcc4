/* test_fio_rand.c - fio's own I/O stream (job/fio_rand.h) against sequences
 * fio 3.33 itself issued (its write_iolog, with the command line in each
 * test), and the generator's switch to it (gen_fio_start, gen_fio_stream):
 * only for jobs of fio's job language, none of ssdbench's own. */
#include "check.h"
#include "testjob.h"

#include <stdint.h>
#include <string.h>

#include "job/fio_rand.h"
#include "job/gen.h"
#include "job/job.h"
#include "job/spec_parse.h"

#define KiB 1024ULL
#define MiB (1024ULL * KiB)

/* a job as fio's job language makes it: fio's stream, randrepeat=1 */
static struct job_spec fiojob(enum job_rw rw, uint32_t bs)
{
    struct job_spec j = mkjob(rw);
    for (unsigned d = 0; d < DIR_COUNT; d++) {
        j.bs[d].n = 1;
        j.bs[d].bs[0] = bs;
        j.bs[d].pct[0] = 100;
    }
    j.fio_stream = true;
    j.fio_randrepeat = true;
    j.passes = 1;
    j.rwmixread = 50;
    return j;
}

/* fio --name=a --ioengine=null --rw=randread --bs=4k --size=64k */
TEST(randread_blocks_as_fio)
{
    static const unsigned want[16] = {0, 11, 13, 7, 6, 14, 8, 5, 15, 1, 2, 10, 3, 4, 9, 12};
    struct job_spec j = fiojob(RW_RANDREAD, 4096);
    struct fio_gen f;
    CHECK(fio_gen_init(&f, &j, 64 * KiB, 1, "a.0.0", NULL, 0) == 0, "init");
    struct gen_io io;
    for (unsigned i = 0; i < 16; i++) {
        CHECK(fio_gen_next(&f, &io), "I/O %u", i);
        CHECK(io.dir == DIR_READ && io.len == 4096 && io.off == want[i] * 4096ull,
              "I/O %u: %u %u at %llu, fio: read 4096 at %u", i, io.dir, io.len,
              (unsigned long long)io.off, want[i] * 4096);
    }
    CHECK(!fio_gen_next(&f, &io), "the pass ends after 16 blocks");
    fio_gen_free(&f);
}

/* fio --name=a --ioengine=null --rw=randrw --bssplit=4k/50:16k/50,8k
 *     --size=256k --randseed=5: reads cut by the map (a 16k read at 94208
 *     became 8k), 29 I/Os */
TEST(randrw_bssplit_randseed_as_fio)
{
    static const unsigned want[][3] = {
        {0, 12288, 16384},  {0, 192512, 16384}, {1, 212992, 8192},  {0, 122880, 4096},
        {0, 102400, 4096},  {0, 217088, 4096},  {1, 98304, 8192},   {1, 90112, 8192},
        {0, 237568, 16384}, {0, 28672, 16384},  {1, 221184, 8192},  {1, 163840, 8192},
        {0, 253952, 4096},  {0, 61440, 4096},   {1, 106496, 8192},  {1, 139264, 8192},
        {1, 114688, 8192},  {0, 208896, 4096},  {0, 94208, 8192},   {0, 159744, 16384},
        {1, 0, 8192},       {1, 131072, 8192},  {1, 147456, 8192},  {1, 180224, 8192},
        {1, 229376, 8192},  {1, 253952, 8192},  {1, 237568, 8192},  {0, 77824, 4096},
        {1, 172032, 8192},
    };
    struct job_spec j = fiojob(RW_RANDRW, 8192);
    set_bssplit(&j, DIR_READ, "4k/50:16k/50");
    j.seed = 5;
    j.fio_seed_given = true;
    struct fio_gen f;
    CHECK(fio_gen_init(&f, &j, 256 * KiB, 1, "a.0.0", NULL, 0) == 0, "init");
    struct gen_io io;
    unsigned n = sizeof(want) / sizeof(want[0]);
    for (unsigned i = 0; i < n; i++) {
        CHECK(fio_gen_next(&f, &io), "I/O %u", i);
        CHECK(io.dir == want[i][0] && io.off == want[i][1] && io.len == want[i][2],
              "I/O %u: %u %u at %llu, fio: %u %u at %u", i, io.dir, io.len,
              (unsigned long long)io.off, want[i][0], want[i][2], want[i][1]);
    }
    CHECK(!fio_gen_next(&f, &io), "fio's pass ends after %u I/Os", n);
    fio_gen_free(&f);
}

/* fio --name=a --ioengine=null --rw=randrw --bs=4k,16k --size=16m: 572
 * reads and 612 writes, 12,369,920 bytes (the map indexed in each
 * direction's own size); two loops repeat the pass exactly (randrepeat) */
TEST(randrw_mixed_units_volume_as_fio)
{
    struct job_spec j = fiojob(RW_RANDRW, 4096);
    for (unsigned d = DIR_WRITE; d < DIR_COUNT; d++)
        j.bs[d].bs[0] = 16384;
    j.passes = 2;
    struct fio_gen f;
    CHECK(fio_gen_init(&f, &j, 16 * MiB, 1, "a.0.0", NULL, 0) == 0, "init");
    uint64_t n[2][2] = {{0}}, bytes[2] = {0}, first[2] = {0};
    struct gen_io io;
    while (fio_gen_next(&f, &io)) {
        unsigned p = f.pass; /* counts the passes before this I/O's */
        CHECK(p < 2, "no third pass");
        if (n[p][0] + n[p][1] == 0)
            first[p] = io.off;
        n[p][io.dir]++;
        bytes[p] += io.len;
    }
    CHECK(first[1] == first[0], "pass 2 starts as pass 1: %llu, %llu", (unsigned long long)first[1],
          (unsigned long long)first[0]);
    CHECK(n[0][DIR_READ] == 572 && n[0][DIR_WRITE] == 612 && bytes[0] == 12369920,
          "pass 1: %llu reads, %llu writes, %llu bytes; fio: 572, 612, 12369920",
          (unsigned long long)n[0][DIR_READ], (unsigned long long)n[0][DIR_WRITE],
          (unsigned long long)bytes[0]);
    CHECK(n[1][DIR_READ] == 572 && n[1][DIR_WRITE] == 612 && bytes[1] == 12369920,
          "pass 2 repeats pass 1: %llu reads, %llu writes, %llu bytes",
          (unsigned long long)n[1][DIR_READ], (unsigned long long)n[1][DIR_WRITE],
          (unsigned long long)bytes[1]);
    fio_gen_free(&f);
}

/* taus88 seeded as fio seeds it: the first offsets of fio's threads 1 to 3
 * (numjobs=3, 1 MiB of 4k blocks) are blocks 15, 65 and 25 */
TEST(thread_seeds_as_fio)
{
    static const unsigned want[3] = {15, 65, 25};
    for (unsigned t = 1; t <= 3; t++) {
        struct job_spec j = fiojob(RW_RANDREAD, 4096);
        struct fio_gen f;
        CHECK(fio_gen_init(&f, &j, 1 * MiB, t, "a.0.0", NULL, 0) == 0, "init");
        struct gen_io io;
        CHECK(fio_gen_next(&f, &io) && io.off == want[t - 1] * 4096ull,
              "thread %u: first block %llu, fio: %u", t, (unsigned long long)(io.off / 4096),
              want[t - 1]);
        fio_gen_free(&f);
    }
}

/* the switch: jobs of fio's job language only; ssdbench's own command line
 * keeps its stream and its inline path */
TEST(gen_switches_only_for_fio_jobs)
{
    struct job_spec j = fiojob(RW_RANDREAD, 4096);
    CHECK(gen_fio_stream(&j), "a fio job runs on fio's stream");
    struct gen g;
    char err[256];
    CHECK(gen_init(&g, &j, 1 * MiB, 1, err, sizeof(err)) == 0, "%s", err);
    CHECK(gen_fio_start(&g, &j, 1, "a.0.0", err, sizeof(err)) == 0 && g.fio && !g.perm_only, "switched");
    struct gen_io io;
    CHECK(gen_next(&g, &io) && io.off == 15 * 4096ull, "the first I/O is fio's");
    gen_free(&g);

    j.fio_stream = false;
    CHECK(!gen_fio_stream(&j), "ssdbench's own job keeps its stream");
    CHECK(gen_init(&g, &j, 1 * MiB, 1, err, sizeof(err)) == 0, "%s", err);
    CHECK(gen_fio_start(&g, &j, 1, "a.0.0", err, sizeof(err)) == 0 && !g.fio && g.perm_only,
          "not switched: the inline permutation path stays");
    gen_free(&g);

    j.fio_stream = true;
    j.rw = RW_RANDTRIMWRITE;
    CHECK(gen_fio_stream(&j) && !fio_gen_unsupported(&j), "randtrimwrite runs on fio's stream");
    j.offset = 4096;
    CHECK(!gen_fio_stream(&j) && fio_gen_unsupported(&j),
          "randtrimwrite with an offset keeps ssdbench's stream (fio adds the offset twice)");
}

/* a file set on fio's stream: one thread, fio's round-robin over the
 * files, each file's own map (a 4-block file is done after 4 I/Os on it) */
TEST(file_set_round_robin)
{
    struct job_spec j = fiojob(RW_RANDREAD, 4096);
    j.passes = 1;
    struct fio_gen f;
    uint64_t lens[3] = {16 * 1024, 16 * 1024, 8 * 1024};
    const char *names[3] = {"a.0.0", "a.0.1", "a.0.2"};
    CHECK(fio_gen_init_files(&f, &j, 3, lens, names, 1, NULL, 0) == 0, "init");
    struct gen_io io;
    unsigned seen[3] = {0, 0, 0}, order[10];
    unsigned n = 0;
    while (n < 12 && fio_gen_next(&f, &io)) {
        unsigned k = fio_gen_file(&f);
        CHECK(io.off + io.len <= lens[k], "I/O %u inside file %u", n, k);
        if (n < 10)
            order[n] = k;
        seen[k]++;
        n++;
    }
    CHECK(n == 10 && seen[0] == 4 && seen[1] == 4 && seen[2] == 2, "every block of each file once (%u I/Os)", n);
    CHECK(order[0] == 0 && order[1] == 1 && order[2] == 2 && order[3] == 0 && order[6] == 0 && order[7] == 1 &&
              order[8] == 0,
          "round robin, a done file skipped");
    fio_gen_free(&f);
}

/* the sizes fio's stream reads: a bssplit parsed over whatever was there
 * is a split (no bsrange bounds left), a bsrange keeps its bounds */
TEST(bssplit_and_bsrange_bounds)
{
    struct job_bssplit bs[DIR_COUNT];
    memset(bs, 0x5a, sizeof(bs));
    char err[256];
    CHECK(spec_parse_bssplit("4k/50:64k/50", 1024, bs, err, sizeof(err)) == 0, "%s", err);
    for (unsigned d = 0; d < DIR_COUNT; d++)
        CHECK(bs[d].n == 2 && bs[d].range_lo == 0 && bs[d].range_hi == 0, "dir %u: n %u, range %u-%u", d,
              bs[d].n, bs[d].range_lo, bs[d].range_hi);
    CHECK(spec_parse_bsrange("4k-16k", 1024, bs, err, sizeof(err)) == 0, "%s", err);
    CHECK(bs[DIR_READ].range_lo == 4096 && bs[DIR_READ].range_hi == 16384, "range %u-%u",
          bs[DIR_READ].range_lo, bs[DIR_READ].range_hi);
}

CHECK_MAIN()
