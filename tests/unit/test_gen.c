/* test_gen.c - the I/O generator (gen.h) and job defaults (job.c): exact
 * sequential sequences, uniform offsets by chi-square, bssplit and rwmixread
 * shares, pct_random and rw_seq_nr, seeds, the striped layout's chunk rule and
 * the rejection of bad specs. The distributions are in test_dist.c, the RNG in
 * test_rng.c. Fixed seeds; statistical bounds at >= 4.5 standard deviations or
 * 1% relative, chi-square at p = 0.001. */
#include "check.h"
#include "testjob.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/rng.h"
#include "job/dist.h"
#include "job/gen.h"
#include "job/job.h"

#define KiB 1024ULL
#define MiB (1024ULL * KiB)
#define GiB (1024ULL * MiB)
#define NDRAW 1000000

/* chi-square critical values at p = 0.001 by degrees of freedom */
static double chi2_crit(unsigned df)
{
    switch (df) {
    case 1: return 10.828;
    case 2: return 13.816;
    case 3: return 16.266;
    case 7: return 24.322;
    case 9: return 27.877;
    case 11: return 31.264;
    case 63: return 103.442;
    }
    return 0;
}

/* --- job defaults ----------------------------------------------------------- */

TEST(job_defaults_and_names)
{
    struct job_spec j;
    job_defaults(&j);
    CHECK(strcmp(j.name, "job") == 0, "name %s", j.name);
    CHECK(j.rw == RW_RANDREAD && j.pct_random == 100 && j.rwmixread == 50, "rw");
    CHECK(j.bs[DIR_READ].n == 1 && j.bs[DIR_READ].bs[0] == 4096 && j.bs[DIR_READ].pct[0] == 100,
          "read bs");
    CHECK(j.bs[DIR_WRITE].n == 1 && j.bs[DIR_WRITE].bs[0] == 4096, "write bs");
    CHECK(j.iodepth == 1 && j.numjobs == 1 && j.rw_seq_nr == 1 && j.loops == 1, "counts");
    CHECK(j.engine == ENGINE_IO_URING && j.direct && j.layout == LAYOUT_JBOD, "engine/layout");
    CHECK(j.interval_ns == 1000000000ULL && j.buffer == BUF_RANDOM, "interval/buffer");
    CHECK(j.npercentiles == 19, "npercentiles %u", j.npercentiles);
    CHECK(j.percentiles[0] == 1 && j.percentiles[13] == 99.5 && j.percentiles[18] == 99.9999,
          "percentiles");
    CHECK(strcmp(job_rw_name(RW_RANDRW), "randrw") == 0, "rw name");
    CHECK(strcmp(job_rw_name(RW_RW), "rw") == 0, "rw name");
    CHECK(strcmp(job_engine_name(ENGINE_LIBAIO), "libaio") == 0, "engine name");
    CHECK(strcmp(job_layout_name(LAYOUT_STRIPE), "stripe") == 0, "layout name");
    CHECK(job_rw_is_random(RW_RANDWRITE) && !job_rw_is_random(RW_RW), "is_random");
    j.rw = RW_RANDRW;
    j.rwmixread = 100;
    CHECK(job_rw_reads(&j) && !job_rw_writes(&j), "rwmixread 100");
    j.rwmixread = 0;
    CHECK(!job_rw_reads(&j) && job_rw_writes(&j), "rwmixread 0");
    j.rw = RW_WRITE;
    CHECK(!job_rw_reads(&j) && job_rw_writes(&j), "write");
}

/* --- uniform, sizes, directions --------------------------------------------- */

TEST(uniform_offsets_chi_square_aligned_in_range)
{
    struct job_spec j = mkjob(RW_RANDREAD);
    struct gen g;
    char err[256];
    uint64_t R = 1 * GiB;
    CHECK(gen_init(&g, &j, R, 1, err, sizeof(err)) == 0, "%s", err);
    unsigned cell[64] = {0};
    for (int i = 0; i < NDRAW; i++) {
        struct gen_io io;
        gen_next(&g, &io);
        CHECK(io.dir == DIR_READ && io.len == 4096, "dir %u len %u", io.dir, io.len);
        CHECK(io.off % 4096 == 0, "unaligned %llu", (unsigned long long)io.off);
        CHECK(io.off + io.len <= R, "out of range %llu", (unsigned long long)io.off);
        cell[io.off / (R / 64)]++;
    }
    double chi = 0, e = NDRAW / 64.0;
    for (int i = 0; i < 64; i++)
        chi += (cell[i] - e) * (cell[i] - e) / e;
    CHECK(chi < chi2_crit(63), "chi-square %.2f over 64 cells", chi);
    gen_free(&g);
}

TEST(uniform_mixed_sizes_odd_region_fit)
{
    /* region not a multiple of anything; every size must fit */
    struct job_spec j = mkjob(RW_RANDRW);
    set_bssplit(&j, DIR_READ, "512/10:4k/60:64k/30");
    set_bssplit(&j, DIR_WRITE, "4k/50:128k/50");
    struct gen g;
    char err[256];
    uint64_t R = 1 * MiB + 512 + 4096 * 3;
    CHECK(gen_init(&g, &j, R, 3, err, sizeof(err)) == 0, "%s", err);
    uint64_t maxend = 0;
    for (int i = 0; i < 200000; i++) {
        struct gen_io io;
        gen_next(&g, &io);
        uint64_t al = io.dir == DIR_READ ? 512 : 4096;
        CHECK(io.off % al == 0, "dir %u off %llu not %llu-aligned", io.dir,
              (unsigned long long)io.off, (unsigned long long)al);
        CHECK(io.off + io.len <= R, "off %llu len %u past %llu", (unsigned long long)io.off,
              io.len, (unsigned long long)R);
        if (io.off + io.len > maxend)
            maxend = io.off + io.len;
    }
    /* the last 512-aligned start for 512 B reads ends exactly at R */
    CHECK(maxend == R, "highest end %llu, region %llu", (unsigned long long)maxend,
          (unsigned long long)R);
    gen_free(&g);
}

/* Draws NDRAW sizes and checks every share: chi-square at p=0.001 and each
 * share within max(1% relative, 4.5 sigma). */
static int check_bssplit(const char *spec, char *why, size_t whylen)
{
    struct job_spec j = mkjob(RW_RANDREAD);
    set_bssplit(&j, DIR_READ, spec);
    j.norandommap = true; /* the draw itself: the map cuts sizes late in a pass */
    struct gen g;
    char err[160];
    if (gen_init(&g, &j, 1 * GiB, 11, err, sizeof(err))) {
        snprintf(why, whylen, "init: %s", err);
        return 0;
    }
    const struct job_bssplit *b = &j.bs[DIR_READ];
    unsigned cnt[JOB_BSSPLIT_MAX] = {0};
    for (int i = 0; i < NDRAW; i++) {
        struct gen_io io;
        gen_next(&g, &io);
        unsigned k = 0;
        while (k < b->n && b->bs[k] != io.len)
            k++;
        if (k == b->n) {
            snprintf(why, whylen, "size %u not in the mix", io.len);
            gen_free(&g);
            return 0;
        }
        cnt[k]++;
    }
    gen_free(&g);
    double chi = 0;
    for (unsigned k = 0; k < b->n; k++) {
        double p = b->pct[k] / 100, e = p * NDRAW, obs = cnt[k] / (double)NDRAW;
        double tol = fmax(0.01 * p, 4.5 * sqrt(p * (1 - p) / NDRAW));
        chi += (cnt[k] - e) * (cnt[k] - e) / e;
        if (fabs(obs - p) > tol) {
            snprintf(why, whylen, "%u B: share %.5f, want %.5f +- %.5f", b->bs[k], obs, p, tol);
            return 0;
        }
    }
    if (chi > chi2_crit(b->n - 1)) {
        snprintf(why, whylen, "chi-square %.2f over %u sizes", chi, b->n);
        return 0;
    }
    return 1;
}

TEST(bssplit_shares)
{
    static const char *const mixes[] = {
        "512/10:4k/60:64k/30",
        /* file server, web server, ECW/JESD219 (profiles.md section 2) */
        "512/10:1k/5:2k/5:4k/60:8k/2:16k/4:32k/4:64k/10",
        "512/22:1k/15:2k/8:4k/23:8k/15:16k/2:32k/6:64k/7:128k/1:512k/1",
        "512/4:1k/1:1536/1:2k/1:2560/1:3k/1:3584/1:4k/67:8k/10:16k/7:32k/3:64k/3",
    };
    for (unsigned i = 0; i < sizeof(mixes) / sizeof(mixes[0]); i++) {
        char why[256];
        CHECK(check_bssplit(mixes[i], why, sizeof(why)), "%s: %s", mixes[i], why);
    }
}

TEST(bssplit_thresholds_exact)
{
    struct job_spec j = mkjob(RW_RANDREAD);
    set_bssplit(&j, DIR_READ, "512/10:1k/5:2k/5:4k/60:8k/2:16k/4:32k/4:64k/10");
    struct gen g;
    char err[256];
    CHECK(gen_init(&g, &j, 1 * GiB, 1, err, sizeof(err)) == 0, "%s", err);
    static const double cum[8] = {10, 15, 20, 80, 82, 86, 90, 100};
    CHECK(g.dir[DIR_READ].nsizes == 8, "nsizes %u", g.dir[DIR_READ].nsizes);
    for (int i = 0; i < 7; i++) {
        double t = g.dir[DIR_READ].size[i].thresh / 9223372036854775808.0;
        CHECK(fabs(t - cum[i] / 100) < 1e-12, "threshold %d = %.15f, want %.2f", i, t,
              cum[i] / 100);
    }
    CHECK(g.dir[DIR_READ].size[7].thresh == UINT64_MAX, "last threshold");
    CHECK(g.dir[DIR_READ].align == 512, "default alignment %llu",
          (unsigned long long)g.dir[DIR_READ].align);
    gen_free(&g);
}

TEST(bssplit_zero_share_never_drawn)
{
    struct job_spec j = mkjob(RW_RANDREAD);
    set_bssplit(&j, DIR_READ, "512/0:4k/50:8k/50:1024k/0");
    struct gen g;
    char err[256];
    CHECK(gen_init(&g, &j, 1 * GiB, 1, err, sizeof(err)) == 0, "%s", err);
    CHECK(g.dir[DIR_READ].align == 4096, "align %llu ignores 512/0",
          (unsigned long long)g.dir[DIR_READ].align);
    for (int i = 0; i < 100000; i++) {
        struct gen_io io;
        gen_next(&g, &io);
        CHECK(io.len == 4096 || io.len == 8192, "size %u", io.len);
    }
    gen_free(&g);
}

TEST(rwmixread_70)
{
    struct job_spec j = mkjob(RW_RANDRW);
    j.rwmixread = 70;
    set_bssplit(&j, DIR_WRITE, "8k/100");
    struct gen g;
    char err[256];
    CHECK(gen_init(&g, &j, 1 * GiB, 9, err, sizeof(err)) == 0, "%s", err);
    unsigned reads = 0;
    for (int i = 0; i < NDRAW; i++) {
        struct gen_io io;
        gen_next(&g, &io);
        CHECK(io.len == (io.dir == DIR_READ ? 4096u : 8192u), "dir %u len %u", io.dir, io.len);
        reads += io.dir == DIR_READ;
    }
    double f = reads / (double)NDRAW;
    CHECK(fabs(f - 0.70) <= 0.007, "read share %.5f", f);
    gen_free(&g);
    /* single-direction modes */
    enum job_rw modes[4] = {RW_READ, RW_RANDREAD, RW_WRITE, RW_RANDWRITE};
    for (int m = 0; m < 4; m++) {
        j = mkjob(modes[m]);
        CHECK(gen_init(&g, &j, 1 * MiB, 9, err, sizeof(err)) == 0, "%s", err);
        for (int i = 0; i < 1000; i++) {
            struct gen_io io;
            gen_next(&g, &io);
            CHECK(io.dir == (m < 2 ? DIR_READ : DIR_WRITE), "mode %d dir %u", m, io.dir);
        }
        gen_free(&g);
    }
}

/* ACT's 2:1 read/write split is 66.67%: rwmixread=67 would be 0.5% off,
 * rwmix_read_frac is exact. 4.5 sd of 10^6 draws at p = 2/3 is 2121; 67%
 * would land 3333 away. */
TEST(rwmix_read_frac_exact)
{
    struct job_spec j = mkjob(RW_RANDRW);
    j.rwmixread = 67;
    j.rwmix_read_frac = 2.0 / 3.0;
    struct gen g;
    char err[256];
    CHECK(gen_init(&g, &j, 1 * GiB, 11, err, sizeof(err)) == 0, "%s", err);
    /* 2^64 * 2/3 = 12297829382473034410.67; the double 2/3 is 2^-54 low, so
     * the threshold is 1024 below that, give or take the last bit */
    double want = 12297829382473034410.67 - 1024;
    CHECK(fabs((double)g.read_thresh - want) <= 4096, "threshold %llu",
          (unsigned long long)g.read_thresh);
    unsigned reads = 0;
    for (int i = 0; i < NDRAW; i++) {
        struct gen_io io;
        gen_next(&g, &io);
        reads += io.dir == DIR_READ;
    }
    CHECK(fabs((double)reads - 666666.67) <= 2121, "reads %u of 10^6", reads);
    gen_free(&g);

    j.rwmix_read_frac = 1.0; /* every draw reads */
    CHECK(gen_init(&g, &j, 1 * GiB, 11, err, sizeof(err)) == 0, "%s", err);
    for (int i = 0; i < 10000; i++) {
        struct gen_io io;
        gen_next(&g, &io);
        CHECK(io.dir == DIR_READ, "draw %d wrote", i);
    }
    gen_free(&g);

    j.rwmix_read_frac = 1.5;
    CHECK(gen_init(&g, &j, 1 * GiB, 11, err, sizeof(err)) == -EINVAL, "1.5 accepted");
    CHECK(strstr(err, "1.5") != NULL, "message '%s' does not name the value", err);
    gen_free(&g);
}

/* --- sequential ----------------------------------------------------------- */

TEST(sequential_wraps_exactly)
{
    struct job_spec j = mkjob(RW_READ);
    struct gen g;
    char err[256];
    /* 42 KiB: ten 4 KiB I/Os fit, the eleventh would cross the end */
    CHECK(gen_init(&g, &j, 42 * KiB, 1, err, sizeof(err)) == 0, "%s", err);
    for (int i = 0; i < 25; i++) {
        struct gen_io io;
        gen_next(&g, &io);
        uint64_t want = (uint64_t)(i % 10) * 4096;
        CHECK(io.off == want && io.dir == DIR_READ, "I/O %d at %llu, want %llu", i,
              (unsigned long long)io.off, (unsigned long long)want);
    }
    gen_rewind(&g);
    struct gen_io io;
    gen_next(&g, &io);
    CHECK(io.off == 0, "after rewind %llu", (unsigned long long)io.off);
    gen_free(&g);
}

TEST(sequential_hole)
{
    /* rw=write:4k over 64 KiB: 0, 8k, ..., 56k, then 0 again */
    struct job_spec j = mkjob(RW_WRITE);
    j.seq_hole = 4096;
    struct gen g;
    char err[256];
    CHECK(gen_init(&g, &j, 64 * KiB, 1, err, sizeof(err)) == 0, "%s", err);
    for (int i = 0; i < 20; i++) {
        struct gen_io io;
        gen_next(&g, &io);
        uint64_t want = (uint64_t)(i % 8) * 8192;
        CHECK(io.off == want && io.dir == DIR_WRITE, "I/O %d at %llu, want %llu", i,
              (unsigned long long)io.off, (unsigned long long)want);
    }
    gen_free(&g);
    /* a hole larger than the region: every I/O at 0 (above INT64_MAX a hole
     * is negative, fio's read:-8k: test_fio_small.c) */
    j.seq_hole = 1ull << 62;
    CHECK(gen_init(&g, &j, 64 * KiB, 1, err, sizeof(err)) == 0, "%s", err);
    for (int i = 0; i < 5; i++) {
        struct gen_io io;
        gen_next(&g, &io);
        CHECK(io.off == 0, "I/O %d at %llu", i, (unsigned long long)io.off);
    }
    gen_free(&g);
}

TEST(sequential_directions_keep_own_positions)
{
    struct job_spec j = mkjob(RW_RW);
    j.rwmixread = 50;
    set_bssplit(&j, DIR_WRITE, "8k/100");
    struct gen g;
    char err[256];
    uint64_t R = 1 * MiB;
    CHECK(gen_init(&g, &j, R, 5, err, sizeof(err)) == 0, "%s", err);
    uint64_t next[2] = {0, 0};
    unsigned n[2] = {0, 0};
    for (int i = 0; i < 2000; i++) {
        struct gen_io io;
        gen_next(&g, &io);
        uint64_t want = next[io.dir] + io.len > R ? 0 : next[io.dir];
        CHECK(io.off == want, "I/O %d dir %u at %llu, want %llu", i, io.dir,
              (unsigned long long)io.off, (unsigned long long)want);
        next[io.dir] = io.off + io.len;
        n[io.dir]++;
    }
    /* both directions went round the region at least once */
    CHECK(n[0] > 256 && n[1] > 128, "reads %u writes %u", n[0], n[1]);
    gen_free(&g);
}

TEST(sequential_mixed_sizes_contiguous)
{
    struct job_spec j = mkjob(RW_READ);
    set_bssplit(&j, DIR_READ, "512/10:1k/5:2k/5:4k/60:8k/2:16k/4:32k/4:64k/10");
    struct gen g;
    char err[256];
    uint64_t R = 4 * MiB;
    CHECK(gen_init(&g, &j, R, 5, err, sizeof(err)) == 0, "%s", err);
    uint64_t next = 0;
    unsigned wraps = 0;
    for (int i = 0; i < 100000; i++) {
        struct gen_io io;
        gen_next(&g, &io);
        if (next + io.len > R) {
            CHECK(io.off == 0, "I/O %d at %llu should wrap", i, (unsigned long long)io.off);
            wraps++;
        } else {
            CHECK(io.off == next, "I/O %d at %llu, want %llu", i, (unsigned long long)io.off,
                  (unsigned long long)next);
        }
        next = io.off + io.len;
    }
    CHECK(wraps >= 200, "%u wraps", wraps);
    gen_free(&g);
}

TEST(pct_random_zero_is_sequential)
{
    struct job_spec j = mkjob(RW_RANDREAD);
    j.pct_random = 0;
    struct gen g;
    char err[256];
    CHECK(gen_init(&g, &j, 1 * MiB, 5, err, sizeof(err)) == 0, "%s", err);
    for (int i = 0; i < 1000; i++) {
        struct gen_io io;
        gen_next(&g, &io);
        uint64_t want = (uint64_t)(i % 256) * 4096;
        CHECK(io.off == want, "I/O %d at %llu", i, (unsigned long long)io.off);
    }
    gen_free(&g);
    /* pct_random is ignored by sequential modes (as in fio) */
    j = mkjob(RW_READ);
    j.pct_random = 100;
    CHECK(gen_init(&g, &j, 1 * MiB, 5, err, sizeof(err)) == 0, "%s", err);
    for (int i = 0; i < 300; i++) {
        struct gen_io io;
        gen_next(&g, &io);
        CHECK(io.off == (uint64_t)(i % 256) * 4096, "rw=read I/O %d at %llu", i,
              (unsigned long long)io.off);
    }
    gen_free(&g);
}

TEST(pct_random_40_share)
{
    struct job_spec j = mkjob(RW_RANDREAD);
    j.pct_random = 40;
    struct gen g;
    char err[256];
    uint64_t R = 64 * GiB; /* a random offset hits the previous end with p = 2^-24 */
    CHECK(gen_init(&g, &j, R, 5, err, sizeof(err)) == 0, "%s", err);
    uint64_t next = 0;
    unsigned seq = 0;
    for (int i = 0; i < NDRAW; i++) {
        struct gen_io io;
        gen_next(&g, &io);
        seq += io.off == next;
        next = io.off + io.len;
    }
    double f = seq / (double)NDRAW;
    CHECK(fabs(f - 0.60) < 0.006, "sequential share %.5f, want 0.60", f);
    gen_free(&g);
}

TEST(rw_seq_nr_runs)
{
    /* randread:8 -> a random offset, then 7 I/Os continuing from it */
    struct job_spec j = mkjob(RW_RANDREAD);
    j.rw_seq_nr = 8;
    struct gen g;
    char err[256];
    uint64_t R = 64 * GiB;
    CHECK(gen_init(&g, &j, R, 5, err, sizeof(err)) == 0, "%s", err);
    uint64_t prev_end = 0;
    unsigned breaks = 0;
    for (int i = 0; i < 8000; i++) {
        struct gen_io io;
        gen_next(&g, &io);
        if (i % 8) {
            CHECK(io.off == prev_end, "I/O %d at %llu, want %llu", i, (unsigned long long)io.off,
                  (unsigned long long)prev_end);
        } else {
            breaks += io.off != prev_end;
        }
        prev_end = io.off + io.len;
    }
    CHECK(breaks >= 998, "only %u of 1000 runs start at a new offset", breaks);
    gen_free(&g);
}

TEST(seeds_reproduce_and_differ)
{
    struct job_spec j = mkjob(RW_RANDRW);
    set_bssplit(&j, DIR_READ, "512/10:4k/60:64k/30");
    struct gen a, b, c;
    char err[256];
    CHECK(gen_init(&a, &j, 1 * GiB, 77, err, sizeof(err)) == 0, "%s", err);
    CHECK(gen_init(&b, &j, 1 * GiB, 77, err, sizeof(err)) == 0, "%s", err);
    CHECK(gen_init(&c, &j, 1 * GiB, 78, err, sizeof(err)) == 0, "%s", err);
    unsigned same_c = 0;
    for (int i = 0; i < 10000; i++) {
        struct gen_io x, y, z;
        gen_next(&a, &x);
        gen_next(&b, &y);
        gen_next(&c, &z);
        CHECK(x.off == y.off && x.len == y.len && x.dir == y.dir, "seed 77 diverged at %d", i);
        same_c += x.off == z.off;
    }
    CHECK(same_c < 10, "seeds 77 and 78 gave %u equal offsets", same_c);
    gen_free(&a);
    gen_free(&b);
    gen_free(&c);
}

/* --- invalid input ---------------------------------------------------------- */

static int rejects(const struct job_spec *j, uint64_t R, const char *needle, char *why,
                   size_t whylen)
{
    struct gen g;
    char err[256] = "";
    int rc = gen_init(&g, j, R, 1, err, sizeof(err));
    if (rc != -EINVAL) {
        snprintf(why, whylen, "rc %d for '%s'", rc, needle);
        if (rc == 0)
            gen_free(&g);
        return 0;
    }
    if (!strstr(err, needle) || strchr(err, '\n')) {
        snprintf(why, whylen, "message '%s' lacks '%s'", err, needle);
        return 0;
    }
    gen_free(&g); /* must be safe after a failure */
    return 1;
}

TEST(invalid_specs_rejected)
{
    char why[512];
    struct job_spec j;

    j = mkjob(RW_RANDREAD);
    set_bssplit(&j, DIR_READ, "4k/60:8k/39");
    CHECK(rejects(&j, GiB, "99%", why, sizeof(why)), "%s", why);
    j = mkjob(RW_RANDREAD);
    set_bssplit(&j, DIR_READ, "4k/60:8k/41");
    CHECK(rejects(&j, GiB, "101%", why, sizeof(why)), "%s", why);
    j = mkjob(RW_RANDREAD);
    set_bssplit(&j, DIR_READ, "0/100");
    CHECK(rejects(&j, GiB, "block size 0", why, sizeof(why)), "%s", why);
    j = mkjob(RW_RANDREAD);
    j.bs[DIR_READ].n = 0;
    CHECK(rejects(&j, GiB, "no block size", why, sizeof(why)), "%s", why);
    j = mkjob(RW_READ);
    set_bssplit(&j, DIR_READ, "4k/50:2048k/50");
    CHECK(rejects(&j, MiB, "2097152", why, sizeof(why)), "%s", why);
    j = mkjob(RW_RANDREAD);
    j.blockalign[DIR_READ] = 8 * MiB;
    CHECK(rejects(&j, MiB, "blockalign 8388608", why, sizeof(why)), "%s", why);
    j = mkjob(RW_RANDRW);
    j.rwmixread = 101;
    CHECK(rejects(&j, GiB, "rwmixread 101", why, sizeof(why)), "%s", why);
    j = mkjob(RW_RANDREAD);
    j.pct_random = 150;
    CHECK(rejects(&j, GiB, "150", why, sizeof(why)), "%s", why);
    j = mkjob(RW_RANDREAD);
    CHECK(rejects(&j, 0, "empty", why, sizeof(why)), "%s", why);
    /* the write side of a write-only job is checked, the read side is not */
    j = mkjob(RW_RANDWRITE);
    set_bssplit(&j, DIR_READ, "4k/10");
    set_bssplit(&j, DIR_WRITE, "4k/10");
    CHECK(rejects(&j, GiB, "writes sums to 10%", why, sizeof(why)), "%s", why);

    j = mkjob(RW_RANDREAD);
    j.dist.kind = DIST_ZONED;
    j.dist.nzones = 3;
    j.dist.zones[0] = (struct job_zone){50, 5};
    j.dist.zones[1] = (struct job_zone){30, 15};
    j.dist.zones[2] = (struct job_zone){10, 80};
    CHECK(rejects(&j, GiB, "access shares sum to 90%", why, sizeof(why)), "%s", why);
    j.dist.zones[2] = (struct job_zone){20, 70};
    CHECK(rejects(&j, GiB, "range shares sum to 90%", why, sizeof(why)), "%s", why);
    j.dist.zones[1] = (struct job_zone){30, 0};
    j.dist.zones[2] = (struct job_zone){20, 95};
    CHECK(rejects(&j, GiB, "zone 2 is 30/0", why, sizeof(why)), "%s", why);
    j.dist.zones[0] = (struct job_zone){50, 0.001};
    j.dist.zones[1] = (struct job_zone){30, 10};
    j.dist.zones[2] = (struct job_zone){20, 89.999};
    CHECK(rejects(&j, 64 * KiB, "covers no block", why, sizeof(why)), "%s", why);
    j.dist.nzones = 0;
    CHECK(rejects(&j, GiB, "0 zones", why, sizeof(why)), "%s", why);

    j = mkjob(RW_RANDREAD);
    j.dist.kind = DIST_ZIPF;
    j.dist.param = 0;
    CHECK(rejects(&j, GiB, "zipf theta 0", why, sizeof(why)), "%s", why);
    j.dist.kind = DIST_PARETO;
    j.dist.param = 1;
    CHECK(rejects(&j, GiB, "pareto h 1", why, sizeof(why)), "%s", why);
    j.dist.kind = DIST_NORMAL;
    j.dist.param = -2;
    CHECK(rejects(&j, GiB, "normal sigma -2", why, sizeof(why)), "%s", why);

    j = mkjob(RW_RANDREAD);
    j.layout = LAYOUT_STRIPE;
    j.stripe_chunk = 64 * KiB;
    set_bssplit(&j, DIR_READ, "4k/50:128k/50");
    CHECK(rejects(&j, GiB, "131072", why, sizeof(why)), "%s", why);
    set_bssplit(&j, DIR_READ, "4k/100");
    j.blockalign[DIR_READ] = 3 * 4096;
    CHECK(rejects(&j, GiB, "alignment 12288", why, sizeof(why)), "%s", why);
}

/* --- random map --------------------------------------------------------------- */

/* Runs one size-bounded pass (passes = 1) and counts how often each unit-sized
 * block was covered. Returns the I/O count; *bytes the sum of lengths. */
static uint64_t one_pass(struct job_spec *j, uint64_t R, uint64_t unit, unsigned *cover,
                         uint64_t *bytes, char *why, size_t whylen)
{
    struct gen g;
    char err[256];
    j->passes = 1;
    if (gen_init(&g, j, R, 5, err, sizeof(err))) {
        snprintf(why, whylen, "init: %s", err);
        return 0;
    }
    uint64_t n = 0, limit = 4 * (R / unit) + 8;
    struct gen_io io;
    *bytes = 0;
    while (n < limit && gen_next(&g, &io)) {
        n++;
        *bytes += io.len;
        if (io.off % unit || io.len % unit || io.off + io.len > R) {
            snprintf(why, whylen, "I/O %llu+%u not on the %llu grid or past %llu",
                     (unsigned long long)io.off, io.len, (unsigned long long)unit,
                     (unsigned long long)R);
            gen_free(&g);
            return 0;
        }
        for (uint64_t b = io.off / unit; b < (io.off + io.len) / unit; b++)
            cover[b]++;
    }
    if (n == limit)
        snprintf(why, whylen, "the pass did not end after %llu I/Os", (unsigned long long)n);
    gen_free(&g);
    return n;
}

static int all_once(const unsigned *cover, uint64_t nb, char *why, size_t whylen)
{
    for (uint64_t b = 0; b < nb; b++)
        if (cover[b] != 1) {
            snprintf(why, whylen, "block %llu of %llu covered %u times", (unsigned long long)b,
                     (unsigned long long)nb, cover[b]);
            return 0;
        }
    return 1;
}

TEST(randommap_every_block_once_per_pass)
{
    static const uint64_t nblocks[] = {1, 2, 3, 7, 64, 1000, 4099};
    for (unsigned c = 0; c < sizeof(nblocks) / sizeof(nblocks[0]); c++) {
        uint64_t nb = nblocks[c], bytes;
        unsigned *cover = calloc(nb, sizeof(unsigned));
        char why[256] = "";
        struct job_spec j = mkjob(RW_RANDWRITE);
        uint64_t n = one_pass(&j, nb * 4096, 4096, cover, &bytes, why, sizeof(why));
        CHECK(n == nb && bytes == nb * 4096, "%llu blocks: %llu I/Os, %llu bytes %s",
              (unsigned long long)nb, (unsigned long long)n, (unsigned long long)bytes, why);
        CHECK(all_once(cover, nb, why, sizeof(why)), "%s", why);
        free(cover);
    }
}

TEST(randommap_mixed_sizes_and_rwmix)
{
    /* bssplit: the bitmap cuts I/Os at covered blocks, so a pass is exactly
     * the region; reads and writes share one map; a region that is not a
     * multiple of the unit leaves only its tail */
    static const char *const mixes[] = {"4k/50:16k/30:64k/20", "4k/10:8k/10:128k/80"};
    static const uint64_t regions[] = {1031 * 4096ULL, 4 * MiB, 1031 * 4096ULL + 1000};
    for (unsigned m = 0; m < 2; m++) {
        for (unsigned r = 0; r < 3; r++) {
            for (int rw = 0; rw < 2; rw++) {
                uint64_t R = regions[r], nb = R / 4096, bytes;
                unsigned *cover = calloc(nb + 1, sizeof(unsigned));
                char why[256] = "";
                struct job_spec j = mkjob(rw ? RW_RANDRW : RW_RANDWRITE);
                set_bssplit(&j, DIR_WRITE, mixes[m]);
                set_bssplit(&j, DIR_READ, mixes[m]);
                CHECK(gen_map_choice(&j, NULL) == GEN_MAP_BITMAP, "bitmap");
                uint64_t n = one_pass(&j, R, 4096, cover, &bytes, why, sizeof(why));
                CHECK(n > 0 && bytes == nb * 4096, "%s R %llu rw %d: %llu bytes %s", mixes[m],
                      (unsigned long long)R, rw, (unsigned long long)bytes, why);
                CHECK(all_once(cover, nb, why, sizeof(why)), "%s R %llu: %s", mixes[m],
                      (unsigned long long)R, why);
                free(cover);
            }
        }
    }
}

TEST(randommap_off_repeats_blocks)
{
    /* norandommap: n uniform draws over n blocks leave about 1/e of them
     * untouched (0.368 +- 4.5 sigma), and the generator never ends a pass */
    uint64_t nb = 16384;
    unsigned *cover = calloc(nb, sizeof(unsigned));
    struct job_spec j = mkjob(RW_RANDWRITE);
    j.norandommap = true;
    j.passes = 1;
    CHECK(gen_map_choice(&j, NULL) == GEN_MAP_NONE, "no map");
    struct gen g;
    char err[256];
    CHECK(gen_init(&g, &j, nb * 4096, 5, err, sizeof(err)) == 0, "%s", err);
    struct gen_io io;
    for (uint64_t i = 0; i < nb; i++) {
        CHECK(gen_next(&g, &io), "norandommap never ends a pass");
        cover[io.off / 4096]++;
    }
    uint64_t zero = 0;
    for (uint64_t b = 0; b < nb; b++)
        zero += cover[b] == 0;
    double f = (double)zero / (double)nb;
    CHECK(fabs(f - 0.3679) < 4.5 * 0.0038, "untouched share %.4f", f);
    gen_free(&g);
    free(cover);
}

TEST(randommap_passes_time_based_and_loops)
{
    uint64_t nb = 777;
    for (int lfsr = 0; lfsr < 2; lfsr++) {
        struct job_spec j = mkjob(RW_RANDREAD);
        j.random_generator = lfsr ? RANDGEN_LFSR : RANDGEN_TAUSWORTHE;
        j.passes = 2;
        struct gen g;
        char err[256];
        CHECK(gen_init(&g, &j, nb * 4096, 9, err, sizeof(err)) == 0, "%s", err);
        unsigned *cover = calloc(nb, sizeof(unsigned));
        struct gen_io io;
        uint64_t n = 0;
        while (n < 3 * nb && gen_next(&g, &io)) {
            cover[io.off / 4096]++;
            n++;
            if (n == nb)
                for (uint64_t b = 0; b < nb; b++)
                    CHECK(cover[b] == 1, "first pass: block %llu %u times",
                          (unsigned long long)b, cover[b]);
        }
        CHECK(n == 2 * nb, "loops=2: %llu I/Os", (unsigned long long)n);
        for (uint64_t b = 0; b < nb; b++)
            CHECK(cover[b] == 2, "block %llu %u times", (unsigned long long)b, cover[b]);
        gen_free(&g);
        /* time-based (passes 0): the map starts over, the third pass is whole */
        j.passes = 0;
        CHECK(gen_init(&g, &j, nb * 4096, 9, err, sizeof(err)) == 0, "%s", err);
        memset(cover, 0, nb * sizeof(unsigned));
        for (uint64_t i = 0; i < 3 * nb; i++) {
            CHECK(gen_next(&g, &io), "time-based never ends");
            if (i >= 2 * nb)
                cover[io.off / 4096]++;
        }
        for (uint64_t b = 0; b < nb; b++)
            CHECK(cover[b] == 1, "third pass: block %llu %u times", (unsigned long long)b,
                  cover[b]);
        gen_free(&g);
        free(cover);
    }
}

TEST(randommap_stripe_chunks_and_workers)
{
    /* the bitmap cut also stops at a stripe chunk; two workers (seeds) have
     * their own maps and orders */
    uint64_t R = 8 * MiB, nb = R / 4096, bytes;
    unsigned *cover = calloc(nb, sizeof(unsigned));
    char why[256] = "";
    struct job_spec j = mkjob(RW_RANDWRITE);
    j.layout = LAYOUT_STRIPE;
    j.stripe_chunk = 64 * KiB;
    set_bssplit(&j, DIR_WRITE, "4k/50:32k/25:64k/25");
    struct gen g;
    char err[256];
    j.passes = 1;
    CHECK(gen_init(&g, &j, R, 5, err, sizeof(err)) == 0, "%s", err);
    struct gen_io io;
    while (gen_next(&g, &io)) {
        CHECK(io.off / (64 * KiB) == (io.off + io.len - 1) / (64 * KiB), "I/O %llu+%u crosses a chunk",
              (unsigned long long)io.off, io.len);
    }
    gen_free(&g);
    CHECK(one_pass(&j, R, 4096, cover, &bytes, why, sizeof(why)) > 0 && bytes == R, "%s", why);
    CHECK(all_once(cover, nb, why, sizeof(why)), "%s", why);

    struct job_spec k = mkjob(RW_RANDWRITE);
    struct gen a, b;
    CHECK(gen_init(&a, &k, R, 1, err, sizeof(err)) == 0 && gen_init(&b, &k, R, 2, err, sizeof(err)) == 0,
          "%s", err);
    unsigned same = 0;
    for (int i = 0; i < 1000; i++) {
        struct gen_io x, y;
        gen_next(&a, &x);
        gen_next(&b, &y);
        same += x.off == y.off;
    }
    CHECK(same < 20, "%u of 1000 offsets equal across workers", same);
    gen_free(&a);
    gen_free(&b);
    free(cover);
}

TEST(randommap_choice_follows_fio)
{
    struct job_spec j = mkjob(RW_RANDWRITE);
    const char *why;
    CHECK(gen_map_choice(&j, &why) == GEN_MAP_PERM, "fixed size: permutation");
    set_bssplit(&j, DIR_WRITE, "4k/50:64k/50");
    CHECK(gen_map_choice(&j, &why) == GEN_MAP_BITMAP, "bssplit: bitmap");
    j.random_generator = RANDGEN_LFSR;
    CHECK(gen_map_choice(&j, &why) == GEN_MAP_PERM, "lfsr: permutation");
    j.random_generator = RANDGEN_TAUSWORTHE;
    j.dist.kind = DIST_ZIPF;
    j.dist.param = 1.2;
    CHECK(gen_map_choice(&j, &why) == GEN_MAP_NONE && strstr(why, "non-uniform"), "zipf: %s", why);
    j.dist.kind = DIST_ZONED;
    CHECK(gen_map_choice(&j, &why) == GEN_MAP_NONE, "zoned: none");
    j = mkjob(RW_RANDWRITE);
    j.blockalign[DIR_WRITE] = 512;
    CHECK(gen_map_choice(&j, &why) == GEN_MAP_NONE && !strcmp(why, "blockalign"), "%s", why);
    j = mkjob(RW_WRITE);
    CHECK(gen_map_choice(&j, &why) == GEN_MAP_NONE && !strcmp(why, "sequential"), "%s", why);
    j = mkjob(RW_RANDWRITE);
    j.norandommap = true;
    CHECK(gen_map_choice(&j, &why) == GEN_MAP_NONE && !strcmp(why, "norandommap"), "%s", why);
}

/* --- sequential pass end ------------------------------------------------------ */

TEST(sequential_bssplit_stops_at_region_end)
{
    /* a size-bounded sequential pass with a bssplit: contiguous from 0,
     * never past the end, never back to 0, exactly the region (fio redraws
     * sizes until one fits), then the generator ends the job */
    static const uint64_t regions[] = {64 * MiB, 64 * MiB + 4096 * 3, 1 * MiB + 2048};
    for (unsigned r = 0; r < 3; r++) {
        uint64_t R = regions[r];
        struct job_spec j = mkjob(RW_WRITE);
        set_bssplit(&j, DIR_WRITE, "4k/50:64k/30:256k/20");
        j.passes = 1;
        struct gen g;
        char err[256];
        CHECK(gen_init(&g, &j, R, 3, err, sizeof(err)) == 0, "%s", err);
        struct gen_io io;
        uint64_t pos = 0, n = 0;
        while (gen_next(&g, &io)) {
            CHECK(io.off == pos, "R %llu: I/O %llu at %llu, want %llu", (unsigned long long)R,
                  (unsigned long long)n, (unsigned long long)io.off, (unsigned long long)pos);
            CHECK(io.off + io.len <= R, "past the end");
            pos += io.len;
            n++;
        }
        CHECK(pos == R / 4096 * 4096, "R %llu: %llu bytes", (unsigned long long)R,
              (unsigned long long)pos);
        gen_free(&g);
    }
}

/* --- trims ------------------------------------------------------------------ */

TEST(trim_modes_names_and_directions)
{
    static const struct {
        enum job_rw rw;
        const char *name;
        bool random, writes, trimwrite;
    } m[] = {
        {RW_TRIM, "trim", false, false, false},
        {RW_RANDTRIM, "randtrim", true, false, false},
        {RW_TRIMWRITE, "trimwrite", false, true, true},
        {RW_RANDTRIMWRITE, "randtrimwrite", true, true, true},
    };
    for (unsigned i = 0; i < sizeof(m) / sizeof(m[0]); i++) {
        struct job_spec j = mkjob(m[i].rw);
        CHECK(strcmp(job_rw_name(m[i].rw), m[i].name) == 0, "%s", job_rw_name(m[i].rw));
        CHECK(job_rw_is_random(m[i].rw) == m[i].random, "%s random", m[i].name);
        CHECK(!job_rw_reads(&j) && job_rw_trims(&j) && job_rw_destroys(&j), "%s trims", m[i].name);
        CHECK(job_rw_writes(&j) == m[i].writes && job_rw_trimwrite(&j) == m[i].trimwrite, "%s writes",
              m[i].name);
    }
    struct job_spec r = mkjob(RW_RANDREAD);
    CHECK(!job_rw_trims(&r) && !job_rw_destroys(&r), "randread destroys nothing");
    struct job_spec w = mkjob(RW_WRITE);
    CHECK(!job_rw_trims(&w) && job_rw_destroys(&w), "write destroys");
}

/* rw=trim: sequential trims with the third block size over the region,
 * one pass, nothing else */
TEST(trim_sequential_third_block_size)
{
    struct job_spec j = mkjob(RW_TRIM);
    set_bssplit(&j, DIR_READ, "4k/100");
    set_bssplit(&j, DIR_WRITE, "8k/100");
    set_bssplit(&j, DIR_TRIM, "64k/100");
    j.passes = 1;
    struct gen g;
    char err[256];
    CHECK(gen_init(&g, &j, 1 * MiB, 7, err, sizeof(err)) == 0, "%s", err);
    struct gen_io io;
    uint64_t pos = 0, n = 0;
    while (gen_next(&g, &io)) {
        CHECK(io.dir == DIR_TRIM && io.len == 64 * KiB && io.off == pos, "I/O %llu: dir %u len %u off %llu",
              (unsigned long long)n, io.dir, io.len, (unsigned long long)io.off);
        pos += io.len;
        n++;
    }
    CHECK(n == 16 && pos == 1 * MiB, "%llu trims, %llu bytes", (unsigned long long)n, (unsigned long long)pos);
    gen_free(&g);
}

/* randtrim with the random map: every block trimmed once per pass */
TEST(randtrim_covers_every_block_once)
{
    uint64_t nb = 257, bytes;
    unsigned *cover = calloc(nb, sizeof(unsigned));
    char why[256] = "";
    struct job_spec j = mkjob(RW_RANDTRIM);
    CHECK(gen_map_choice(&j, NULL) == GEN_MAP_PERM, "map %s", gen_map_name(gen_map_choice(&j, NULL)));
    uint64_t n = one_pass(&j, nb * 4096, 4096, cover, &bytes, why, sizeof(why));
    CHECK(n == nb && bytes == nb * 4096, "%llu I/Os, %llu bytes %s", (unsigned long long)n,
          (unsigned long long)bytes, why);
    CHECK(all_once(cover, nb, why, sizeof(why)), "%s", why);
    free(cover);
}

/* (rand)trimwrite: trim, then a write of exactly that block, alternating;
 * the trims cover the region once per pass and the pair is never split at
 * the pass end */
TEST(trimwrite_pairs_trim_then_write)
{
    for (int rnd = 0; rnd < 2; rnd++) {
        struct job_spec j = mkjob(rnd ? RW_RANDTRIMWRITE : RW_TRIMWRITE);
        set_bssplit(&j, DIR_TRIM, "4k/50:16k/50");
        set_bssplit(&j, DIR_WRITE, "512/100"); /* not used: writes repeat the trims */
        j.passes = 1;
        uint64_t R = 1 * MiB;
        struct gen g;
        char err[256];
        CHECK(gen_init(&g, &j, R, 11, err, sizeof(err)) == 0, "%s", err);
        struct gen_io io, last = {0};
        uint64_t n = 0, trimmed = 0, written = 0;
        unsigned char *seen = calloc(R / 4096, 1);
        bool ok = true;
        while (gen_next(&g, &io)) {
            bool want_trim = n % 2 == 0;
            if (want_trim) {
                ok = ok && io.dir == DIR_TRIM && io.off + io.len <= R;
                trimmed += io.len;
                for (uint64_t b = io.off / 4096; b < (io.off + io.len) / 4096 && b < R / 4096; b++)
                    ok = ok && !seen[b]++;
            } else {
                ok = ok && io.dir == DIR_WRITE && io.off == last.off && io.len == last.len;
                written += io.len;
            }
            CHECK(ok, "%s I/O %llu: dir %u off %llu len %u", job_rw_name(j.rw), (unsigned long long)n, io.dir,
                  (unsigned long long)io.off, io.len);
            if (!ok)
                break;
            last = io;
            n++;
        }
        CHECK(n % 2 == 0 && trimmed == R && written == R, "%s: %llu I/Os, %llu trimmed, %llu written",
              job_rw_name(j.rw), (unsigned long long)n, (unsigned long long)trimmed,
              (unsigned long long)written);
        free(seen);
        gen_free(&g);
    }
}

TEST(permutation_inline_path_same_as_general)
{
    /* gen_next's inline path (perm_only) gives the I/Os the general path
     * gives, over several passes, and is taken exactly for one-block I/Os
     * of one direction */
    static const enum job_rw modes[] = {RW_RANDREAD, RW_RANDWRITE, RW_RANDTRIM};
    for (unsigned m = 0; m < 3; m++) {
        struct job_spec j = mkjob(modes[m]);
        j.passes = 3;
        struct gen a, b;
        char err[256];
        uint64_t nb = 1001;
        CHECK(gen_init(&a, &j, nb * 4096, 77, err, sizeof(err)) == 0, "%s", err);
        CHECK(gen_init(&b, &j, nb * 4096, 77, err, sizeof(err)) == 0, "%s", err);
        CHECK(a.perm_only, "%s: one block per I/O takes the inline path", job_rw_name(j.rw));
        b.perm_only = false;
        struct gen_io x, y;
        uint64_t n = 0, diff = 0;
        for (;;) {
            bool ra = gen_next(&a, &x), rb = gen_next(&b, &y);
            CHECK(ra == rb, "%s: I/O %llu: one path ended", job_rw_name(j.rw), (unsigned long long)n);
            if (!ra || !rb)
                break;
            diff += x.dir != y.dir || x.len != y.len || x.off != y.off;
            n++;
        }
        CHECK(n == 3 * nb && diff == 0, "%s: %llu I/Os, %llu differ", job_rw_name(j.rw),
              (unsigned long long)n, (unsigned long long)diff);
        gen_free(&a);
        gen_free(&b);
    }
    struct job_spec j = mkjob(RW_RANDRW);
    struct gen g;
    char err[256];
    CHECK(gen_init(&g, &j, 1000 * 4096, 1, err, sizeof(err)) == 0, "%s", err);
    CHECK(!g.perm_only, "mixed directions: the general path");
    gen_free(&g);
    j = mkjob(RW_RANDREAD);
    j.pct_random = 50;
    CHECK(gen_init(&g, &j, 1000 * 4096, 1, err, sizeof(err)) == 0, "%s", err);
    CHECK(!g.perm_only, "percentage_random: the general path");
    gen_free(&g);
}

TEST(trim_bad_block_size_named)
{
    struct job_spec j = mkjob(RW_TRIM);
    set_bssplit(&j, DIR_TRIM, "8k/100");
    struct gen g;
    char err[256];
    CHECK(gen_init(&g, &j, 4096, 1, err, sizeof(err)) == -EINVAL, "accepted");
    CHECK(strstr(err, "trims") != NULL, "%s", err);
    gen_free(&g);
}

CHECK_MAIN()
