/* test_zbd.c - fio's zonemode=zbd placement (base/zbd.h), with exact
 * sequences worked out from fio 3.33's zbd.c: sequential writes skipping
 * from capacity to zone end, full zones reset, the open zone limits
 * (max_open_zones, job_max_open_zones, ignore_zone_limits), the reset
 * threshold and frequency, reads kept below the write pointer unless
 * read_beyond_wp, one write in flight per zone, the zone set shared by
 * several workers; and the job-file side. */
#include "check.h"
#include "testjob.h"

#include <errno.h>
#include <string.h>

#include "base/zbd.h"
#include "jobfile/jobfile.h"

#define K 1024ull
#define ZS (64 * K)
#define CAP (48 * K)
#define BS 16 * K

/* n zones of 64 KiB with 48 KiB capacity; wp[i] bytes written in zone i */
static void zones(struct zbd_zone *z, unsigned n, const uint64_t *wp)
{
    for (unsigned i = 0; i < n; i++)
        z[i] = (struct zbd_zone){.start = i * ZS, .len = ZS, .cap = CAP, .wp = i * ZS + (wp ? wp[i] : 0),
                                 .seq = true};
}

static struct zbd_params params(unsigned nzones, bool random)
{
    return (struct zbd_params){.region_start = 0, .region_len = nzones * ZS, .random = random,
                               .writes = true, .host_managed = true, .dev_max_open = 4,
                               .min_bs = {BS, BS}};
}

/* One I/O as the worker does it: resets done, queued and completed.
 * Returns the action (ZBD_OK with *off, *len placed). */
static enum zbd_act io(struct zbd_state *s, unsigned dir, uint64_t *off, uint32_t *len)
{
    enum zbd_act a;
    while ((a = zbd_adjust(s, &dir, off, len, 0)) == ZBD_RESET)
        zbd_reset_done(s, s->reset_zone);
    if (a == ZBD_OK) {
        zbd_queued(s, dir, *off, *len);
        zbd_completed(s, dir, *off, *len);
    }
    return a;
}

/* a sequential pass: the positions fio's last_pos takes; offsets into out */
static unsigned seq_pass(struct zbd_state *s, unsigned dir, uint64_t *out, unsigned max)
{
    uint64_t pos = 0;
    unsigned n = 0;
    while (n < max) {
        pos = zbd_seq_pos(s, dir, pos);
        if (pos + BS > s->p.region_len)
            break;
        uint64_t off = pos;
        uint32_t len = BS;
        if (io(s, dir, &off, &len) != ZBD_OK)
            break;
        out[n++] = off;
        pos = off + len;
    }
    return n;
}

TEST(seq_write_skips_capacity)
{
    struct zbd_zone z[8];
    zones(z, 8, NULL);
    struct zbd_state s;
    char err[200];
    struct zbd_params p = params(4, false);
    p.region_start = 2 * ZS; /* zones 2..5 */
    CHECK(zbd_init(&s, &p, z, 8, NULL, err, sizeof(err)) == 0, "%s", err);
    CHECK(s.zs->nz == 4 && s.zs->max_open == 4, "nz %u max_open %u", s.zs->nz, s.zs->max_open);
    uint64_t off[16];
    uint64_t pos = 0;
    unsigned n = 0;
    for (; n < 16; n++) {
        pos = zbd_seq_pos(&s, 1, pos);
        if (pos + BS > p.region_len)
            break;
        uint64_t o = p.region_start + pos;
        uint32_t len = BS;
        CHECK(io(&s, 1, &o, &len) == ZBD_OK && len == BS, "write %u", n);
        off[n] = o;
        pos = o + len - p.region_start;
    }
    static const uint64_t want[12] = {128, 144, 160, 192, 208, 224, 256, 272, 288, 320, 336, 352};
    CHECK(n == 12, "%u writes", n);
    for (unsigned i = 0; i < 12; i++)
        CHECK(off[i] == want[i] * K, "write %u at %llu", i, (unsigned long long)off[i] / K);
    CHECK(s.skip_bytes == 4 * 16 * K && s.resets == 0 && s.zs->nopen == 0, "skip %llu resets %llu open %u",
          (unsigned long long)s.skip_bytes, (unsigned long long)s.resets, s.zs->nopen);
    for (unsigned i = 0; i < 4; i++)
        CHECK(s.zs->z[i].wp == s.zs->z[i].start + CAP, "zone %u wp", i);
    zbd_free(&s);
}

TEST(seq_write_resets_full_zones)
{
    struct zbd_zone z[4];
    const uint64_t wp[4] = {CAP, CAP, 16 * K, 0};
    zones(z, 4, wp);
    struct zbd_state s;
    char err[200];
    struct zbd_params p = params(4, false);
    CHECK(zbd_init(&s, &p, z, 4, NULL, err, sizeof(err)) == 0, "%s", err);
    uint64_t off[16];
    unsigned n = seq_pass(&s, 1, off, 16);
    /* zones 0 and 1 are full: reset, then written from their start; zone 2
     * goes on at its write pointer (the position 128K is rewritten to 144K) */
    static const uint64_t want[] = {0, 16, 32, 64, 80, 96, 144, 160, 192, 208, 224};
    CHECK(n == 11, "%u writes", n);
    for (unsigned i = 0; i < n; i++)
        CHECK(off[i] == want[i] * K, "write %u at %llu", i, (unsigned long long)off[i] / K);
    CHECK(s.resets == 2, "%llu resets", (unsigned long long)s.resets);
    zbd_free(&s);
}

TEST(random_write_open_limit)
{
    struct zbd_zone z[4];
    zones(z, 4, NULL);
    struct zbd_state s;
    char err[200];
    struct zbd_params p = params(4, true);
    p.max_open_zones = 2;
    CHECK(zbd_init(&s, &p, z, 4, NULL, err, sizeof(err)) == 0, "%s", err);
    /* drawn offsets -> placed: zone 0 and 3 open; zone 1 cannot open, the
     * write goes to open[(100K * 2) / 256K] = open[0] = zone 0; zone 0 fills
     * (and closes) at 32K, so zone 2 can open; zone 3 fills at 224K */
    const uint64_t drawn[] = {0, 200 * K, 100 * K, 240 * K, 10 * K, 130 * K, 250 * K};
    const uint64_t want[] = {0, 192, 16, 208, 32, 128, 224};
    for (unsigned i = 0; i < 7; i++) {
        uint64_t o = drawn[i];
        uint32_t len = BS;
        CHECK(io(&s, 1, &o, &len) == ZBD_OK, "write %u", i);
        CHECK(o == want[i] * K, "write %u at %lluK, want %lluK", i, (unsigned long long)o / K,
              (unsigned long long)want[i]);
        if (i == 4)
            CHECK(s.zs->nopen == 1 && s.zs->open[0] == 3, "zone 0 full and closed: %u open", s.zs->nopen);
    }
    CHECK(s.resets == 0 && s.zs->nopen == 1 && s.zs->open[0] == 2, "resets %llu open %u",
          (unsigned long long)s.resets, s.zs->nopen);
    zbd_free(&s);
}

TEST(random_write_full_zone_reset)
{
    struct zbd_zone z[4];
    const uint64_t wp[4] = {CAP, 0, 0, 0};
    zones(z, 4, wp);
    struct zbd_state s;
    char err[200];
    struct zbd_params p = params(4, true);
    CHECK(zbd_init(&s, &p, z, 4, NULL, err, sizeof(err)) == 0, "%s", err);
    uint64_t o = 20 * K;
    uint32_t len = BS;
    CHECK(io(&s, 1, &o, &len) == ZBD_OK && o == 0 && s.resets == 1 && s.zs->wp_bytes == BS,
          "at %llu resets %llu", (unsigned long long)o, (unsigned long long)s.resets);
    zbd_free(&s);
}

/* Two workers on one zone set (numjobs=2): the write pointers are the
 * set's, one write in flight per zone across both, the open zone limit the
 * set's and job_max_open_zones each worker's own. */
TEST(shared_zones)
{
    struct zbd_zone z[4];
    zones(z, 4, NULL);
    struct zbd_state a, b;
    char err[200];
    struct zbd_params p = params(4, true);
    p.job_max_open_zones = 1;
    CHECK(zbd_init(&a, &p, z, 4, NULL, err, sizeof(err)) == 0, "%s", err);
    CHECK(zbd_share(&b, &p, &a, err, sizeof(err)) == 0 && b.zs == a.zs && a.zs->users == 2, "%s", err);
    unsigned dir = 1;
    uint64_t o = 0;
    uint32_t len = BS;
    CHECK(zbd_adjust(&a, &dir, &o, &len, 0) == ZBD_OK && o == 0, "a at %llu", (unsigned long long)o);
    zbd_queued(&a, 1, o, len);
    /* b draws the same zone while a's write is in flight: it waits, with
     * nothing of its own in flight */
    uint64_t ob = 8 * K;
    uint32_t lb = BS;
    CHECK(zbd_adjust(&b, &dir, &ob, &lb, 0) == ZBD_WAIT && a.zs->nbusy == 1 && b.my_busy == 0, "b waits");
    zbd_completed(&a, 1, 0, BS);
    CHECK(zbd_adjust(&b, &dir, &ob, &lb, 0) == ZBD_OK && ob == BS, "b at a's write pointer: %llu",
          (unsigned long long)ob);
    zbd_queued(&b, 1, ob, lb);
    zbd_completed(&b, 1, ob, lb);
    CHECK(a.zs->z[0].wp == 2 * BS && a.zs->wp_bytes == 2 * BS, "wp %llu", (unsigned long long)a.zs->z[0].wp);
    /* job_max_open_zones=1 each: b opens zone 1 although a holds zone 0 */
    ob = ZS + 4 * K;
    CHECK(zbd_adjust(&b, &dir, &ob, &lb, 0) == ZBD_OK && ob == ZS, "b in zone 1: %llu", (unsigned long long)ob);
    CHECK(a.my_open == 1 && b.my_open == 1 && a.zs->nopen == 2, "open %u/%u/%u", a.my_open, b.my_open,
          a.zs->nopen);
    /* a write placed and not taken by the engine goes back */
    zbd_queued(&b, 1, ob, lb);
    zbd_unqueued(&b, 1, ob, lb);
    CHECK(a.zs->z[1].wp == ZS && a.zs->nbusy == 0 && b.my_busy == 0 && a.zs->wp_bytes == 2 * BS, "taken back");
    /* a third worker on other zones of the same set, or with another limit */
    struct zbd_state c;
    struct zbd_params q = p;
    q.region_len = 2 * ZS;
    CHECK(zbd_share(&c, &q, &a, err, sizeof(err)) == -EINVAL && strstr(err, "same zones"), "%s", err);
    q = p;
    q.max_open_zones = 2;
    CHECK(zbd_share(&c, &q, &a, err, sizeof(err)) == -EINVAL && strstr(err, "max_open_zones"), "%s", err);
    zbd_free(&b);
    CHECK(a.zs && a.zs->users == 1, "a keeps the set");
    zbd_free(&a);
}

/* verify: the zones with data are reset before the writes (fio's
 * zbd_file_reset), and once every zone is full the job ends instead of
 * resetting one (fio never reopens a full zone when verifying) */
TEST(verify_no_reset_of_full_zones)
{
    struct zbd_zone z[2];
    const uint64_t wp[2] = {CAP, 0};
    zones(z, 2, wp);
    struct zbd_state s;
    char err[200];
    struct zbd_params p = params(2, true);
    p.verify = true;
    CHECK(zbd_init(&s, &p, z, 2, NULL, err, sizeof(err)) == 0, "%s", err);
    CHECK(s.zs->z[0].reset_due && !s.zs->z[1].reset_due, "zone 0 to reset first");
    zbd_reset_done(&s, 0);
    unsigned n = 0;
    for (;;) {
        uint64_t o = (n * 37 % 8) * BS;
        uint32_t len = BS;
        if (io(&s, 1, &o, &len) != ZBD_OK)
            break;
        n++;
    }
    CHECK(n == 2 * CAP / (BS) && s.resets == 1, "%u writes, %llu resets", n, (unsigned long long)s.resets);
    zbd_free(&s);
}

TEST(job_max_open_and_ignore_limits)
{
    struct zbd_zone z[4];
    zones(z, 4, NULL);
    struct zbd_state s;
    char err[200];
    struct zbd_params p = params(4, true);
    p.job_max_open_zones = 1;
    CHECK(zbd_init(&s, &p, z, 4, NULL, err, sizeof(err)) == 0 && s.zs->max_open == 4, "%s", err);
    uint64_t o = 130 * K;
    uint32_t len = BS;
    CHECK(io(&s, 1, &o, &len) == ZBD_OK && o == 128 * K, "first at %llu", (unsigned long long)o);
    o = 10 * K;
    CHECK(io(&s, 1, &o, &len) == ZBD_OK && o == 144 * K, "to the one open zone: %llu", (unsigned long long)o);
    zbd_free(&s);

    /* ignore_zone_limits: the device's 4 does not apply, nothing is tracked */
    p = params(4, true);
    p.dev_max_open = 1;
    p.ignore_zone_limits = true;
    CHECK(zbd_init(&s, &p, z, 4, NULL, err, sizeof(err)) == 0 && s.zs->max_open == 0, "%s", err);
    for (unsigned i = 0; i < 4; i++) {
        o = i * ZS + 5 * K;
        CHECK(io(&s, 1, &o, &len) == ZBD_OK && o == i * ZS, "zone %u at %llu", i, (unsigned long long)o);
    }
    zbd_free(&s);
    p.ignore_zone_limits = false;
    CHECK(zbd_init(&s, &p, z, 4, NULL, err, sizeof(err)) == 0 && s.zs->max_open == 1, "%s", err);
    zbd_free(&s);
}

TEST(reset_frequency)
{
    struct zbd_zone z[4];
    zones(z, 4, NULL);
    struct zbd_state s;
    char err[200];
    struct zbd_params p = params(4, true);
    p.reset_threshold = 0;
    p.reset_frequency = 0.5; /* every second write resets its zone first */
    CHECK(zbd_init(&s, &p, z, 4, NULL, err, sizeof(err)) == 0, "%s", err);
    const uint64_t want[] = {0, 0, 16, 0, 16, 0};
    for (unsigned i = 0; i < 6; i++) {
        uint64_t o = 8 * K;
        uint32_t len = BS;
        CHECK(io(&s, 1, &o, &len) == ZBD_OK && o == want[i] * K, "write %u at %llu", i,
              (unsigned long long)o / K);
    }
    CHECK(s.resets == 3, "%llu resets", (unsigned long long)s.resets);
    zbd_free(&s);
    /* a threshold above what is written: no early reset */
    p.reset_threshold = 0.5;
    CHECK(zbd_init(&s, &p, z, 4, NULL, err, sizeof(err)) == 0, "%s", err);
    for (unsigned i = 0; i < 3; i++) {
        uint64_t o = 8 * K;
        uint32_t len = BS;
        CHECK(io(&s, 1, &o, &len) == ZBD_OK && o == i * BS, "write %u", i);
    }
    CHECK(s.resets == 0, "%llu resets", (unsigned long long)s.resets);
    zbd_free(&s);
}

TEST(reads_below_wp)
{
    struct zbd_zone z[4];
    const uint64_t wp[4] = {32 * K, 0, CAP, 16 * K};
    zones(z, 4, wp);
    struct zbd_state s;
    char err[200];
    struct zbd_params p = params(4, false);
    p.writes = false;
    CHECK(zbd_init(&s, &p, z, 4, NULL, err, sizeof(err)) == 0, "%s", err);
    uint64_t off[16];
    unsigned n = seq_pass(&s, 0, off, 16);
    static const uint64_t want[] = {0, 16, 128, 144, 160, 192};
    CHECK(n == 6, "%u reads", n);
    for (unsigned i = 0; i < n; i++)
        CHECK(off[i] == want[i] * K, "read %u at %llu", i, (unsigned long long)off[i] / K);
    zbd_free(&s);

    /* random: the nearest zone with data, the offset folded into its data */
    p.random = true;
    CHECK(zbd_init(&s, &p, z, 4, NULL, err, sizeof(err)) == 0, "%s", err);
    uint64_t o = 70 * K; /* zone 1 is empty: zone 2 (z1 first), (6K % 32K) / 16K * 16K = 0 */
    uint32_t len = BS;
    CHECK(io(&s, 0, &o, &len) == ZBD_OK && o == 128 * K && len == BS, "at %llu", (unsigned long long)o);
    o = 200 * K; /* zone 3 holds 16K = len: its start */
    CHECK(io(&s, 0, &o, &len) == ZBD_OK && o == 192 * K, "at %llu", (unsigned long long)o);
    o = 20 * K;
    len = 32 * K; /* range 32K <= len: the zone start, cut to the wp */
    CHECK(io(&s, 0, &o, &len) == ZBD_OK && o == 0 && len == 32 * K, "at %llu len %u", (unsigned long long)o, len);
    zbd_free(&s);

    /* read_beyond_wp: as drawn */
    p.read_beyond_wp = true;
    CHECK(zbd_init(&s, &p, z, 4, NULL, err, sizeof(err)) == 0, "%s", err);
    o = 70 * K;
    len = BS;
    CHECK(io(&s, 0, &o, &len) == ZBD_OK && o == 70 * K, "at %llu", (unsigned long long)o);
    zbd_free(&s);
}

TEST(one_write_in_flight_per_zone)
{
    struct zbd_zone z[4];
    zones(z, 4, NULL);
    struct zbd_state s;
    char err[200];
    struct zbd_params p = params(4, false);
    CHECK(zbd_init(&s, &p, z, 4, NULL, err, sizeof(err)) == 0, "%s", err);
    unsigned dir = 1;
    uint64_t o = 0;
    uint32_t len = BS;
    CHECK(zbd_adjust(&s, &dir, &o, &len, 0) == ZBD_OK, "first");
    zbd_queued(&s, 1, o, len);
    uint64_t o2 = 16 * K;
    CHECK(zbd_adjust(&s, &dir, &o2, &len, 1) == ZBD_WAIT, "the zone's write is in flight");
    zbd_completed(&s, 1, o, len);
    CHECK(zbd_adjust(&s, &dir, &o2, &len, 0) == ZBD_OK && o2 == 16 * K, "after completion");
    zbd_free(&s);
}

TEST(init_errors)
{
    struct zbd_zone z[4];
    zones(z, 4, NULL);
    struct zbd_state s;
    char err[200];
    struct zbd_params p = params(4, false);
    p.region_len = 3 * ZS + 4 * K;
    CHECK(zbd_init(&s, &p, z, 4, NULL, err, sizeof(err)) == -EINVAL && strstr(err, "whole zones"), "%s", err);
    p = params(4, false);
    p.max_open_zones = 5;
    CHECK(zbd_init(&s, &p, z, 4, NULL, err, sizeof(err)) == -EINVAL && strstr(err, "larger than the device's 4"),
          "%s", err);
    p = params(4, false);
    p.dev_max_open = 0;
    p.job_max_open_zones = 2;
    CHECK(zbd_init(&s, &p, z, 4, NULL, err, sizeof(err)) == -EINVAL && strstr(err, "without a global"), "%s", err);
    /* zones open on the device count; one over the limit of 1 is reset */
    const uint64_t wp[4] = {16 * K, 32 * K, 0, 0};
    zones(z, 4, wp);
    const bool open[4] = {true, true, false, false};
    p = params(4, false);
    p.dev_max_open = 1;
    CHECK(zbd_init(&s, &p, z, 4, open, err, sizeof(err)) == 0, "%s", err);
    CHECK(s.zs->nopen == 1 && s.zs->open[0] == 0 && !s.zs->z[0].reset_due && s.zs->z[1].reset_due, "open %u", s.zs->nopen);
    zbd_free(&s);
}

static char perr[300];

static int parse(const char *text, struct jobfile *jf)
{
    struct jobfile_opts o = {.fio_defaults = true};
    perr[0] = '\0';
    return jobfile_parse_string(text, "t.fio", &o, jf, perr, sizeof(perr));
}

TEST(jobfile_options)
{
    struct jobfile jf;
    const char *txt = "[a]\nfilename=/dev/x\nrw=randwrite\nzonemode=zbd\nzonesize=8m\nmax_open_zones=3\n"
                      "job_max_open_zones=2\nzone_reset_threshold=0.5\nzone_reset_frequency=0.25\n"
                      "read_beyond_wp=1\nignore_zone_limits=1\nsize=2z\n";
    int rc = parse(txt, &jf);
    CHECK(rc == 0, "%s", perr);
    const struct job_spec *j = &jf.jobs[0];
    CHECK(j->zone_mode == JOB_ZONE_ZBD && j->max_open_zones == 3 && j->job_max_open_zones == 2 &&
              j->zone_reset_threshold == 0.5 && j->zone_reset_frequency == 0.25 && j->read_beyond_wp &&
              j->ignore_zone_limits && j->size == 16 * K * K,
          "options");
    jobfile_free(&jf);
    rc = parse("[a]\nfilename=/dev/x\nzonemode=zbd\nzone_reset_frequency=2\n", &jf);
    CHECK(rc == -EINVAL && strstr(perr, "0..1"), "%s", perr);
    rc = parse("[a]\nfilename=/dev/x\nzonemode=zbd\nsize=2z\n", &jf);
    CHECK(rc == -EINVAL && strstr(perr, "needs zonesize"), "%s", perr);
}

CHECK_MAIN()
