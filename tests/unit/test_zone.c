/* test_zone.c - fio's zonemode=strided walk (job/zone.h): the exact offset
 * sequences fio 3.33 issues (worked out from io_u.c setup_strided_zone_mode
 * and checked against fio's write_iolog), the wrap at the end of the target,
 * zones larger than their range, the restart when an I/O does not fit, the
 * time_based rule, random offsets inside their zone with the map reset per
 * zone; and the job-file side: the "z" suffix, zonemode rules and the
 * limits' options. */
#include "check.h"
#include "testjob.h"

#include <errno.h>
#include <string.h>

#include "job/gen.h"
#include "job/zone.h"
#include "jobfile/jobfile.h"

#define K 1024ull

struct walk {
    struct job_spec j;
    struct gen g;
    struct zone_walk z;
    uint64_t start;
};

static int walk_init(struct walk *w, uint64_t start, uint64_t region_len, uint64_t end)
{
    char err[256];
    w->start = start;
    int rc = zone_walk_init(&w->z, &w->j, start, region_len, end, err, sizeof(err));
    if (rc)
        return rc;
    rc = gen_init(&w->g, &w->j, zone_walk_gen_len(&w->z, region_len), 7, err, sizeof(err));
    w->g.passes = 0;
    return rc;
}

/* the next absolute offset, in KiB */
static long next_k(struct walk *w)
{
    struct gen_io io;
    if (!zone_walk_next(&w->z, &w->g, w->start, &io))
        return -1;
    return (long)((w->start + io.off) / K);
}

static struct job_spec zjob(enum job_rw rw, uint64_t bs, uint64_t zsize, uint64_t zrange, uint64_t zskip)
{
    struct job_spec j = mkjob(rw);
    j.bs[0].bs[0] = j.bs[1].bs[0] = (uint32_t)bs;
    j.zone_mode = JOB_ZONE_STRIDED;
    j.zone_size = zsize;
    j.zone_range = zrange;
    j.zone_skip = zskip;
    return j;
}

static bool seq_is(struct walk *w, const long *want, unsigned n, char *msg, size_t len)
{
    for (unsigned i = 0; i < n; i++) {
        long got = next_k(w);
        if (got != want[i]) {
            snprintf(msg, len, "I/O %u at %ldk, want %ldk", i, got, want[i]);
            return false;
        }
    }
    return true;
}

TEST(zone_sequential_as_fio)
{
    /* fio: zonesize=16k zonerange=64k zoneskip=32k bs=4k, read, from 0 */
    char m[128] = "";
    struct walk w = {.j = zjob(RW_READ, 4 * K, 16 * K, 64 * K, 32 * K)};
    CHECK(walk_init(&w, 0, 1024 * K, 16384 * K) == 0, "init");
    const long want[] = {0, 4, 8, 12, 96, 100, 104, 108, 192, 196, 200, 204, 288};
    CHECK(seq_is(&w, want, 13, m, sizeof(m)), "%s", m);
    CHECK(w.z.zones == 3, "zones entered: %llu", (unsigned long long)w.z.zones);
    gen_free(&w.g);
}

TEST(zone_wraps_at_end_of_target)
{
    char m[128] = "";
    struct walk w = {.j = zjob(RW_WRITE, 4 * K, 8 * K, 64 * K, 64 * K)};
    CHECK(walk_init(&w, 0, 256 * K, 256 * K) == 0, "init");
    /* bases 0, 128k, then 256k is the end: back to 0, positions reset */
    const long want[] = {0, 4, 128, 132, 0, 4, 128};
    CHECK(seq_is(&w, want, 7, m, sizeof(m)), "%s", m);
    gen_free(&w.g);
}

TEST(zone_larger_than_range)
{
    /* zonesize 128k over a 64k range: the range is covered twice, the
     * positions start over every 64k of I/O */
    char m[128] = "";
    struct walk w = {.j = zjob(RW_READ, 16 * K, 128 * K, 64 * K, 0)};
    CHECK(walk_init(&w, 1024 * K, 1024 * K, 4096 * K) == 0, "init");
    const long want[] = {1024, 1040, 1056, 1072, 1024, 1040, 1056, 1072, 1088, 1104};
    CHECK(seq_is(&w, want, 10, m, sizeof(m)), "%s", m);
    gen_free(&w.g);
}

TEST(zone_restart_when_past_the_end)
{
    /* fio: the I/O at 248k+16k would pass the end (256k): the pass ends and
     * the walk starts at the first zone again */
    char m[128] = "";
    struct walk w = {.j = zjob(RW_READ, 16 * K, 64 * K, 64 * K, 0)};
    CHECK(walk_init(&w, 200 * K, 56 * K, 256 * K) == 0, "init");
    const long want[] = {200, 216, 232, 200, 216, 232, 200};
    CHECK(seq_is(&w, want, 7, m, sizeof(m)), "%s", m);
    CHECK(w.z.restarts == 2, "restarts %llu", (unsigned long long)w.z.restarts);
    /* a first zone where nothing fits ends the job */
    struct walk v = {.j = zjob(RW_READ, 16 * K, 64 * K, 64 * K, 0)};
    CHECK(walk_init(&v, 250 * K, 6 * K, 256 * K) == 0, "init");
    CHECK(next_k(&v) == -1, "nothing fits: the walk ends");
    gen_free(&w.g);
    gen_free(&v.g);
}

TEST(zone_time_based_repeats_past_region)
{
    /* fio's time_based rule: once the zone base is past start + size, every
     * sequential I/O goes back to the base */
    char m[128] = "";
    struct walk w = {.j = zjob(RW_READ, 4 * K, 16 * K, 32 * K, 32 * K)};
    w.j.time_based = true;
    CHECK(walk_init(&w, 0, 64 * K, 1024 * K) == 0, "init");
    const long want[] = {0, 4, 8, 12, 64, 64, 64, 64, 128, 128};
    CHECK(seq_is(&w, want, 10, m, sizeof(m)), "%s", m);
    gen_free(&w.g);
}

TEST(zone_random_inside_zone_map_per_zone)
{
    struct walk w = {.j = zjob(RW_RANDREAD, 4 * K, 64 * K, 64 * K, 192 * K)};
    CHECK(walk_init(&w, 0, 4096 * K, 4096 * K) == 0, "init");
    for (unsigned zone = 0; zone < 32; zone++) {
        unsigned seen = 0;
        bool inside = true;
        uint64_t base = (uint64_t)(zone % 16) * 256; /* stride 256k, 16 zones, then wrap */
        for (unsigned i = 0; i < 16; i++) {
            long k = next_k(&w);
            if (k < (long)base || k >= (long)base + 64)
                inside = false;
            else
                seen |= 1u << ((k - (long)base) / 4);
        }
        CHECK(inside, "zone %u: an offset outside [%lluk, +64k)", zone, (unsigned long long)base);
        CHECK(seen == 0xffff, "zone %u: the map covers each of its 16 blocks once (%04x)", zone, seen);
    }
    gen_free(&w.g);
}

TEST(zone_off_without_strided)
{
    struct job_spec j = mkjob(RW_READ);
    struct zone_walk z;
    char err[128];
    CHECK(zone_walk_init(&z, &j, 0, 1024, 1024, err, sizeof(err)) == 0 && !z.on, "off");
    CHECK(zone_walk_gen_len(&z, 777) == 777, "region unchanged");
}

/* --- job files --- */

static char perr[1024];

static int parse(const char *text, struct jobfile *jf)
{
    struct jobfile_opts o = {.fio_defaults = true};
    perr[0] = '\0';
    return jobfile_parse_string(text, "t.fio", &o, jf, perr, sizeof(perr));
}

TEST(zone_suffix_and_rules)
{
    struct jobfile jf;
    int rc = parse("[a]\nfilename=/dev/x\noffset=2z\nsize=3z\nio_size=5z\nzoneskip=1z\n"
                   "zonemode=strided\nzonesize=64k\noffset_increment=4z\n", &jf);
    CHECK(rc == 0, "%s", perr);
    const struct job_spec *j = &jf.jobs[0];
    CHECK(j->zone_mode == JOB_ZONE_STRIDED && j->zone_size == 64 * K && j->zone_range == 64 * K,
          "mode, size, range default");
    CHECK(j->offset == 128 * K && j->size == 192 * K && j->io_limit == 320 * K &&
              j->zone_skip == 64 * K && j->offset_increment == 256 * K,
          "zones into bytes: %llu %llu %llu %llu %llu", (unsigned long long)j->offset,
          (unsigned long long)j->size, (unsigned long long)j->io_limit,
          (unsigned long long)j->zone_skip, (unsigned long long)j->offset_increment);
    jobfile_free(&jf);

    /* fio 3.33: zonemode defaults to none, and none refuses a zonesize */
    CHECK(parse("[a]\nfilename=/dev/x\nzonesize=64k\n", &jf) == -EINVAL &&
              strstr(perr, "zonemode=none and zonesize are not compatible"), "%s", perr);
    CHECK(parse("[a]\nfilename=/dev/x\nzonemode=strided\n", &jf) == -EINVAL &&
              strstr(perr, "zonesize must be specified"), "%s", perr);
    CHECK(parse("[a]\nfilename=/dev/x\nzonemode=zbd\n", &jf) == 0 && jf.jobs[0].zone_mode == JOB_ZONE_ZBD,
          "%s", perr);
    jobfile_free(&jf);
    CHECK(parse("[a]\nfilename=/dev/x\noffset=1.5z\n", &jf) == -EINVAL &&
              strstr(perr, "unexpected zone value '1.5z'"), "%s", perr);
    /* without a zonesize fio leaves a zone count at 0 */
    CHECK(parse("[a]\nfilename=/dev/x\noffset=2z\n", &jf) == 0 && jf.jobs[0].offset == 0, "%s", perr);
    jobfile_free(&jf);
}

TEST(limit_options)
{
    struct jobfile jf;
    int rc = parse("[a]\nfilename=/dev/x\nratemin=1m,2m\nratecycle=500\n"
                   "max_latency=10ms,20\nlatency_target=5ms\nlatency_window=1s\n"
                   "latency_percentile=99.5\nlatency_run=1\n[b]\nfilename=/dev/x\n"
                   "[c]\nfilename=/dev/x\nrate_iops_min=100\n", &jf);
    CHECK(rc == 0, "%s", perr);
    const struct job_spec *a = &jf.jobs[0], *b = &jf.jobs[1], *c = &jf.jobs[2];
    CHECK(a->rate_min_bytes[0] == 1024 * K && a->rate_min_bytes[1] == 2048 * K, "rate_min");
    CHECK(c->rate_min_iops[0] == 100 && c->rate_min_iops[1] == 100, "rate_iops_min applies to both");
    CHECK(a->rate_cycle_ms == 500 && b->rate_cycle_ms == 1000, "ratecycle and its default");
    CHECK(a->max_latency_ns[0] == 10000000 && a->max_latency_ns[1] == 20000,
          "max_latency (bare = usec): %llu %llu", (unsigned long long)a->max_latency_ns[0],
          (unsigned long long)a->max_latency_ns[1]);
    CHECK(a->lat_target_ns == 5000000 && a->lat_window_ns == 1000000000ull &&
              a->lat_percentile == 99.5 && a->lat_run,
          "latency target settings");
    CHECK(b->lat_percentile == 100 && !b->lat_target_ns, "defaults");
    jobfile_free(&jf);
    CHECK(parse("[a]\nfilename=/dev/x\nlatency_percentile=101\n", &jf) == -EINVAL &&
              strstr(perr, "out of range"), "%s", perr);
    /* fio's rules: one kind of floor; no floor above the rate */
    CHECK(parse("[a]\nfilename=/dev/x\nrate_min=1m\nrate_iops_min=5\n", &jf) == -EINVAL &&
              strstr(perr, "mutually exclusive"), "%s", perr);
    CHECK(parse("[a]\nfilename=/dev/x\nrate_iops=10,20\nrate_iops_min=5,30\n", &jf) == -EINVAL &&
              strstr(perr, "minimum rate exceeds rate, ddir 1"), "%s", perr);
}

CHECK_MAIN()
