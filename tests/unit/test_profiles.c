/* test_profiles.c - the profile table (profiles.h): every built-in profile
 * against its published definition (profiles.md, written out by hand here),
 * the shares of block sizes, directions and zones that the I/O generator
 * actually produces from each profile (within 0.2 percentage points, i.e.
 * well inside 1 %), user profile files (parts, replacement, errors with
 * file:line), replay for `run --profile`, and the write-switched
 * preconditioning job. */
#include "check.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>

#include "jobfile/options.h"
#include "job/gen.h"
#include "job/job.h"
#include "profiles/profiles.h"

#define NDRAW 2000000

/* The published definitions: rw, read share, block sizes with shares. */
struct def {
    const char *name;
    enum job_rw rw;
    unsigned rwmixread;       /* for mixed modes */
    unsigned n;
    uint32_t bs[16];
    double pct[16];
};

static const struct def defs[] = {
    {"4k-random-read", RW_RANDREAD, 100, 1, {4096}, {100}},
    {"4k-random-write", RW_RANDWRITE, 0, 1, {4096}, {100}},
    {"8k-random-read", RW_RANDREAD, 100, 1, {8192}, {100}},
    {"8k-random-write", RW_RANDWRITE, 0, 1, {8192}, {100}},
    {"8k-70-30", RW_RANDRW, 70, 1, {8192}, {100}},
    {"128k-seq-read", RW_READ, 100, 1, {131072}, {100}},
    {"128k-seq-write", RW_WRITE, 0, 1, {131072}, {100}},
    {"database", RW_RANDRW, 67, 1, {8192}, {100}},
    {"email", RW_RANDRW, 50, 1, {8192}, {100}},
    {"fileserver", RW_RANDRW, 80, 8,
     {512, 1024, 2048, 4096, 8192, 16384, 32768, 65536},
     {10, 5, 5, 60, 2, 4, 4, 10}},
    {"webserver", RW_RANDREAD, 100, 10,
     {512, 1024, 2048, 4096, 8192, 16384, 32768, 65536, 131072, 524288},
     {22, 15, 8, 23, 15, 2, 6, 7, 1, 1}},
    {"ecw", RW_RANDRW, 40, 12,
     {512, 1024, 1536, 2048, 2560, 3072, 3584, 4096, 8192, 16384, 32768, 65536},
     {4, 1, 1, 1, 1, 1, 1, 67, 10, 7, 3, 3}},
};
#define NDEFS (sizeof(defs) / sizeof(defs[0]))

static bool is_mixed(enum job_rw rw)
{
    return rw == RW_RANDRW || rw == RW_RW;
}

TEST(builtin_set_has_every_required_profile)
{
    struct profile_set ps;
    char err[512];
    CHECK(profile_set_builtin(&ps, err, sizeof(err)) == 0, "%s", err);
    for (unsigned i = 0; i < NDEFS; i++)
        CHECK(profile_find(&ps, defs[i].name), "missing %s", defs[i].name);
    const struct profile *lat = profile_find(&ps, "latency");
    CHECK(lat && lat->nparts == 2, "latency parts");
    CHECK(ps.nprofiles == NDEFS + 1, "%u profiles, expected %u", ps.nprofiles, (unsigned)NDEFS + 1);
    CHECK(!strcmp(profile_part(&ps, lat, 0)->name, "latency/read"), "part 0 name");
    CHECK(!strcmp(profile_part(&ps, lat, 1)->name, "latency/write"), "part 1 name");
    profile_set_free(&ps);
}

TEST(builtin_definitions_match_published)
{
    struct profile_set ps;
    char err[512];
    CHECK(profile_set_builtin(&ps, err, sizeof(err)) == 0, "%s", err);
    for (unsigned i = 0; i < NDEFS; i++) {
        const struct def *d = &defs[i];
        const struct profile *p = profile_find(&ps, d->name);
        CHECK(p && p->nparts == 1 && !p->fixed_load, "%s", d->name);
        const struct job_spec *j = &profile_part(&ps, p, 0)->job;
        CHECK(j->rw == d->rw, "%s: rw %d", d->name, j->rw);
        if (is_mixed(d->rw))
            CHECK(j->rwmixread == d->rwmixread, "%s: rwmixread %u", d->name, j->rwmixread);
        int dir = d->rw == RW_RANDWRITE || d->rw == RW_WRITE ? DIR_WRITE : DIR_READ;
        const struct job_bssplit *b = &j->bs[dir];
        CHECK(b->n == d->n, "%s: %u sizes", d->name, b->n);
        for (unsigned k = 0; k < d->n; k++)
            CHECK(b->bs[k] == d->bs[k] && fabs(b->pct[k] - d->pct[k]) < 1e-9,
                  "%s: entry %u = %u/%g", d->name, k, b->bs[k], b->pct[k]);
        if (is_mixed(d->rw)) {
            const struct job_bssplit *w = &j->bs[DIR_WRITE];
            CHECK(w->n == d->n, "%s: write sizes", d->name);
            for (unsigned k = 0; k < d->n; k++)
                CHECK(w->bs[k] == d->bs[k] && w->pct[k] == d->pct[k], "%s: write %u", d->name, k);
        }
        CHECK(j->direct && j->refill_buffers && !j->time_based, "%s: common options", d->name);
        CHECK(j->pct_random == (job_rw_is_random(d->rw) ? 100u : 0u), "%s: pct_random", d->name);
        if (strcmp(d->name, "ecw") == 0) {
            CHECK(j->dist.kind == DIST_ZONED && j->dist.nzones == 3, "ecw zoned");
            CHECK(j->dist.zones[0].access_pct == 50 && j->dist.zones[0].range_pct == 5, "zone 0");
            CHECK(j->dist.zones[1].access_pct == 30 && j->dist.zones[1].range_pct == 15, "zone 1");
            CHECK(j->dist.zones[2].access_pct == 20 && j->dist.zones[2].range_pct == 80, "zone 2");
            CHECK(j->blockalign[DIR_READ] == 4096 && j->blockalign[DIR_WRITE] == 4096, "ecw align");
        } else {
            CHECK(j->dist.kind == DIST_UNIFORM, "%s: uniform", d->name);
        }
    }
    const struct profile *lat = profile_find(&ps, "latency");
    CHECK(lat->fixed_load, "latency is fixed-load");
    const struct job_spec *r = &profile_part(&ps, lat, 0)->job, *w = &profile_part(&ps, lat, 1)->job;
    CHECK(r->rw == RW_RANDREAD && w->rw == RW_RANDWRITE, "latency rw");
    CHECK(r->iodepth == 1 && r->numjobs == 1 && w->iodepth == 1 && w->numjobs == 1, "QD1 T1");
    CHECK(r->bs[DIR_READ].bs[0] == 4096 && w->bs[DIR_WRITE].bs[0] == 4096, "4k");
    profile_set_free(&ps);
}

TEST(mean_block_sizes_hand_computed)
{
    struct profile_set ps;
    char err[512];
    CHECK(profile_set_builtin(&ps, err, sizeof(err)) == 0, "%s", err);
    /* 512*.10 + 1k*.05 + 2k*.05 + 4k*.60 + 8k*.02 + 16k*.04 + 32k*.04 + 64k*.10 */
    double fs = profile_mean_bs(&profile_part(&ps, profile_find(&ps, "fileserver"), 0)->job.bs[0]);
    CHECK(fabs(fs - 11345.92) < 1e-6, "fileserver mean %.4f", fs);
    /* webserver: 112.64+153.6+163.84+942.08+1228.8+327.68+1966.08+4587.52+1310.72+5242.88 */
    double ws = profile_mean_bs(&profile_part(&ps, profile_find(&ps, "webserver"), 0)->job.bs[0]);
    CHECK(fabs(ws - 16035.84) < 1e-6, "webserver mean %.4f", ws);
    /* ecw: 20.48+10.24+15.36+20.48+25.6+30.72+35.84+2744.32+819.2+1146.88+983.04+1966.08 */
    double ec = profile_mean_bs(&profile_part(&ps, profile_find(&ps, "ecw"), 0)->job.bs[0]);
    CHECK(fabs(ec - 7818.24) < 1e-6, "ecw mean %.4f", ec);
    char sum[200];
    profile_summary(&profile_part(&ps, profile_find(&ps, "8k-70-30"), 0)->job, sum, sizeof(sum));
    CHECK(!strcmp(sum, "randrw 70/30, 8 KiB"), "summary '%s'", sum);
    profile_set_free(&ps);
}

/* Draws NDRAW I/Os from the generator the runner uses and compares the
 * measured shares with the published ones. */
TEST(generated_shares_within_a_fifth_of_a_point)
{
    struct profile_set ps;
    char err[512];
    CHECK(profile_set_builtin(&ps, err, sizeof(err)) == 0, "%s", err);
    for (unsigned i = 0; i < NDEFS; i++) {
        const struct def *d = &defs[i];
        struct job_spec j = profile_part(&ps, profile_find(&ps, d->name), 0)->job;
        j.seed = 1000 + i;
        j.seed_set = true;
        struct gen g;
        uint64_t region = 1ull << 30;
        CHECK(gen_init(&g, &j, region, j.seed, err, sizeof(err)) == 0, "%s: %s", d->name, err);
        static uint64_t count[16];
        uint64_t reads = 0, zone[3] = {0};
        memset(count, 0, sizeof(count));
        for (unsigned n = 0; n < NDRAW; n++) {
            struct gen_io io;
            gen_next(&g, &io);
            reads += io.dir == DIR_READ;
            unsigned k;
            for (k = 0; k < d->n && d->bs[k] != io.len; k++)
                ;
            CHECK(k < d->n, "%s: size %u not in the definition", d->name, io.len);
            count[k]++;
            if (io.off < region / 20)
                zone[0]++;
            else if (io.off < region / 5)
                zone[1]++;
            else
                zone[2]++;
        }
        gen_free(&g);
        double rshare = 100.0 * (double)reads / NDRAW;
        double want = is_mixed(d->rw) ? d->rwmixread : (d->rw == RW_RANDREAD || d->rw == RW_READ ? 100 : 0);
        CHECK(fabs(rshare - want) <= 0.2, "%s: read share %.3f%%, defined %g%%", d->name, rshare, want);
        for (unsigned k = 0; k < d->n; k++) {
            double s = 100.0 * (double)count[k] / NDRAW;
            CHECK(fabs(s - d->pct[k]) <= 0.2, "%s: %u B share %.3f%%, defined %g%%", d->name,
                  d->bs[k], s, d->pct[k]);
        }
        if (!strcmp(d->name, "ecw")) {
            static const double zw[3] = {50, 30, 20};
            for (int z = 0; z < 3; z++) {
                double s = 100.0 * (double)zone[z] / NDRAW;
                CHECK(fabs(s - zw[z]) <= 0.2, "ecw zone %d share %.3f%%, defined %g%%", z, s, zw[z]);
            }
        }
    }
    profile_set_free(&ps);
}

TEST(user_file_parts_and_replacement)
{
    struct profile_set ps;
    char err[512];
    CHECK(profile_set_builtin(&ps, err, sizeof(err)) == 0, "%s", err);
    unsigned before = ps.nprofiles;
    const char *text = "; my profiles\n"
                       "[global]\n"
                       "direct=1\n"
                       "[oltp-16k]\n"
                       "description=16 KiB OLTP\n"
                       "rw=randrw\n"
                       "rwmixread=60\n"
                       "bs=16k\n"
                       "[qd/r]\n"
                       "rw=randread\n"
                       "iodepth=32\n"
                       "[qd/w]\n"
                       "rw=randwrite\n"
                       "[email]\n"
                       "rw=randrw\n"
                       "rwmixread=68\n"
                       "bs=32k\n";
    CHECK(profile_set_load_text(&ps, text, "my.fio", err, sizeof(err)) == 0, "%s", err);
    CHECK(ps.nprofiles == before + 2, "%u profiles", ps.nprofiles);
    const struct profile *o = profile_find(&ps, "oltp-16k");
    CHECK(o && o->nparts == 1 && !o->fixed_load, "oltp-16k");
    CHECK(!strcmp(o->source, "my.fio:4"), "source '%s'", o->source);
    CHECK(!strcmp(o->description, "16 KiB OLTP"), "description");
    CHECK(profile_part(&ps, o, 0)->job.bs[0].bs[0] == 16384, "bs");
    CHECK(!strcmp(profile_part(&ps, o, 0)->def,
                  "description=16 KiB OLTP\nrw=randrw\nrwmixread=60\nbs=16k\n"),
          "def '%s'", profile_part(&ps, o, 0)->def);
    CHECK(!strcmp(o->global_def, "direct=1\n"), "global '%s'", o->global_def);
    const struct profile *q = profile_find(&ps, "qd");
    CHECK(q && q->nparts == 2 && q->fixed_load, "qd parts/fixed");
    CHECK(profile_part(&ps, q, 0)->job.iodepth == 32, "qd/r depth");
    const struct profile *e = profile_find(&ps, "email");
    CHECK(e && profile_part(&ps, e, 0)->job.rwmixread == 68, "email replaced");
    CHECK(profile_part(&ps, e, 0)->job.bs[0].bs[0] == 32768, "email bs");
    CHECK(e == &ps.profiles[8], "email kept its place");
    profile_set_free(&ps);
}

TEST(user_file_errors_name_file_and_line)
{
    struct profile_set ps;
    char err[512];
    CHECK(profile_set_builtin(&ps, err, sizeof(err)) == 0, "%s", err);
    int rc = profile_set_load_text(&ps, "[a]\nrw=randrw\nbs=4q\n", "bad.fio", err, sizeof(err));
    CHECK(rc < 0 && strstr(err, "bad.fio:3") && strstr(err, "4q"), "rc %d '%s'", rc, err);
    rc = profile_set_load_text(&ps, "[a b]\nrw=read\n", "sp.fio", err, sizeof(err));
    CHECK(rc == -EINVAL && strstr(err, "sp.fio:1") && strstr(err, "'a b'"), "'%s'", err);
    rc = profile_set_load_text(&ps, "[x]\nrw=read\n[x]\nrw=write\n", "dup.fio", err, sizeof(err));
    CHECK(rc == -EINVAL && strstr(err, "dup.fio:3"), "'%s'", err);
    rc = profile_set_load_text(&ps, "[y/a]\nrw=read\n[z]\nrw=read\n[y/b]\nrw=write\n", "gap.fio", err,
                               sizeof(err));
    CHECK(rc == -EINVAL && strstr(err, "gap.fio:5"), "'%s'", err);
    rc = profile_set_load_file(&ps, "/nonexistent/p.fio", err, sizeof(err));
    CHECK(rc == -ENOENT && strstr(err, "/nonexistent/p.fio"), "'%s'", err);
    profile_set_free(&ps);
}

TEST(apply_replays_builtin_lines)
{
    struct job_spec j;
    struct job_extra x;
    char err[512];
    job_defaults(&j);
    job_extra_defaults(&x);
    CHECK(profile_apply("database", &j, &x, err, sizeof(err)) == 0, "%s", err);
    CHECK(j.rw == RW_RANDRW && j.rwmixread == 67 && j.bs[0].bs[0] == 8192, "database");
    CHECK(j.refill_buffers && j.direct, "global lines applied");
    CHECK(job_set_option(&j, &x, "rwmixread", "66", err, sizeof(err)) == 0, "%s", err);
    CHECK(j.rwmixread == 66, "66/33 variant");
    job_defaults(&j);
    CHECK(profile_apply("latency/write", &j, &x, err, sizeof(err)) == 0, "%s", err);
    CHECK(j.rw == RW_RANDWRITE && j.iodepth == 1, "latency/write");
    CHECK(profile_apply("latency", &j, &x, err, sizeof(err)) == -EINVAL && strstr(err, "latency/read"),
          "'%s'", err);
    CHECK(profile_apply("fileservr", &j, &x, err, sizeof(err)) == -ENOENT && strstr(err, "'fileserver'"),
          "'%s'", err);
    struct profile_opt o[32];
    int n = profile_options("8k-70-30", o, 32, err, sizeof(err));
    CHECK(n == 8, "%d options", n);
    CHECK(!strcmp(o[1].key, "refill_buffers") && o[1].bare, "bare key");
    CHECK(!strcmp(o[6].key, "rwmixread") && !strcmp(o[6].value, "70"), "rwmixread=70");
}

TEST(precondition_job_switches_reads_to_writes)
{
    struct profile_set ps;
    char err[512];
    CHECK(profile_set_builtin(&ps, err, sizeof(err)) == 0, "%s", err);
    struct job_spec pre;
    const struct job_spec *web = &profile_part(&ps, profile_find(&ps, "webserver"), 0)->job;
    profile_precondition_job(web, &pre);
    CHECK(pre.rw == RW_RANDWRITE, "rw %d", pre.rw);
    CHECK(pre.bs[DIR_WRITE].n == 10 && pre.bs[DIR_WRITE].bs[9] == 524288 &&
              pre.bs[DIR_WRITE].pct[0] == 22,
          "write mix = read mix");
    /* the profile says norandommap; preconditioning keeps a map anyway, as a
     * permutation (no memory for the 10-size mix) */
    CHECK(web->norandommap && !pre.norandommap && pre.random_generator == RANDGEN_LFSR &&
              gen_map_choice(&pre, NULL) == GEN_MAP_PERM,
          "preconditioning covers every block");
    const struct job_spec *seq = &profile_part(&ps, profile_find(&ps, "128k-seq-read"), 0)->job;
    profile_precondition_job(seq, &pre);
    CHECK(pre.rw == RW_WRITE && pre.bs[DIR_WRITE].bs[0] == 131072, "sequential write");
    const struct job_spec *mix = &profile_part(&ps, profile_find(&ps, "8k-70-30"), 0)->job;
    profile_precondition_job(mix, &pre);
    CHECK(pre.rw == RW_RANDRW && pre.rwmixread == 70, "mixed stays mixed");
    profile_set_free(&ps);
}

CHECK_MAIN()
