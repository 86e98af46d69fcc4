/* test_plan_mem.c - a plan judged before it runs: the memory a phase needs
 * (runner_mem.h) computed exactly from workers x iodepth x the largest
 * block size, engine depth caps and clone counts; a refusal naming the
 * product; the plan's target list (runner_hold.h) merging mentions of one
 * path, a missing file noted as new, new files larger than the free space
 * refused before anything exists, a user's file refused at the check, and
 * a consent bound to what its path named at the check. */
#include "check.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "job/job.h"
#include "runner/runner_hold.h"
#include "runner/runner_mem.h"

static void job(struct job_spec *j, enum engine_kind e, unsigned numjobs, unsigned depth, uint32_t bs)
{
    job_defaults(j);
    snprintf(j->name, sizeof(j->name), "j");
    j->engine = e;
    j->numjobs = numjobs;
    j->iodepth = depth;
    for (int d = 0; d < DIR_COUNT; d++) {
        j->bs[d].n = 1;
        j->bs[d].bs[0] = bs;
    }
    j->ntargets = 1;
    snprintf(j->targets[0], sizeof(j->targets[0]), "nul");
    j->norandommap = true;
    j->size = 1 << 20;
}

TEST(mem_buffers_are_the_product)
{
    struct job_spec *j = malloc(sizeof(*j));
    CHECK(j, "alloc");
    job(j, ENGINE_NULL, 128, 65536, 4096);
    struct runner_mem a, b;
    runner_mem_need(j, 1, NULL, &a);
    CHECK(a.big_workers == 128 && a.big_depth == 65536 && a.big_bufsize == 4096, "%llu %llu %llu",
          (unsigned long long)a.big_workers, (unsigned long long)a.big_depth,
          (unsigned long long)a.big_bufsize);
    CHECK(a.resident >= 128ull * 65536 * 4096, "resident %llu", (unsigned long long)a.resident);
    /* twice the depth: exactly the buffers and slots of the second half more */
    j->iodepth = 2 * 65536;
    runner_mem_need(j, 1, NULL, &b);
    CHECK(b.resident - a.resident >= 128ull * 65536 * 4096, "grew by %llu",
          (unsigned long long)(b.resident - a.resident));
    /* a block size not a multiple of 4 KiB is rounded up, as the buffers are */
    job(j, ENGINE_NULL, 1, 8, 5000);
    runner_mem_need(j, 1, NULL, &a);
    CHECK(a.big_bufsize == 8192, "bufsize %llu", (unsigned long long)a.big_bufsize);
    /* psync submits one at a time: its depth is 1 whatever iodepth says */
    job(j, ENGINE_PSYNC, 4, 4096, 65536);
    runner_mem_need(j, 1, NULL, &a);
    CHECK(a.big_depth == 1 && a.big_workers == 4, "depth %llu workers %llu",
          (unsigned long long)a.big_depth, (unsigned long long)a.big_workers);
    /* thread stacks count for the address space only */
    CHECK(a.address > a.resident, "address %llu resident %llu", (unsigned long long)a.address,
          (unsigned long long)a.resident);
    free(j);
}

TEST(mem_refusal_names_the_product)
{
    struct job_spec *j = malloc(sizeof(*j));
    CHECK(j, "alloc");
    job(j, ENGINE_NULL, 4096, 1u << 20, 1u << 24); /* 2^56 bytes of buffers */
    char err[512] = "";
    int rc = runner_mem_check(j, 1, NULL, err, sizeof(err));
    CHECK(rc == -ENOMEM, "rc %d", rc);
    CHECK(strstr(err, "job 'j': 4096 workers x iodepth 1048576 x 16777216 bytes = 64PiB of I/O buffers"),
          "%s", err);
    CHECK(strstr(err, "MemAvailable") || strstr(err, "RLIMIT_AS"), "%s", err);
    CHECK(!strchr(err, '\n'), "one line: %s", err);
    job(j, ENGINE_NULL, 1, 1, 4096);
    CHECK(runner_mem_check(j, 1, NULL, err, sizeof(err)) == 0, "a small job: %s", err);
    free(j);
}

TEST(hold_merges_and_judges)
{
    char dir[] = "/tmp/ssdbench-hold.XXXXXX";
    CHECK(mkdtemp(dir), "mkdtemp");
    char newf[256], user[256];
    snprintf(newf, sizeof(newf), "%s/new.bin", dir);
    snprintf(user, sizeof(user), "%s/user.dat", dir);
    struct runner_hold h;
    runner_hold_init(&h);
    CHECK(runner_hold_add(&h, newf, false, 4096) == 0, "add");
    CHECK(runner_hold_add(&h, newf, true, 8192) == 0, "add again");
    CHECK(runner_hold_add(&h, newf, false, 1024) == 0, "add a third time");
    CHECK(h.n == 1 && h.e[0].write && h.e[0].create_size == 8192, "n %u write %d size %llu", h.n,
          h.e[0].write, (unsigned long long)h.e[0].create_size);
    char err[512] = "";
    CHECK(runner_hold_judge(&h, NULL, err, sizeof(err)) == 0, "%s", err);
    CHECK(h.e[0].is_new && !h.e[0].held, "a missing file is new");
    CHECK(access(newf, F_OK) != 0, "judging creates nothing");
    runner_hold_close(&h);

    /* more than the file system has: refused, nothing made */
    runner_hold_init(&h);
    CHECK(runner_hold_add(&h, newf, true, UINT64_MAX / 2) == 0, "add");
    int rc = runner_hold_judge(&h, NULL, err, sizeof(err));
    CHECK(rc == -ENOSPC && strstr(err, "free; use a smaller --size"), "rc %d: %s", rc, err);
    CHECK(access(newf, F_OK) != 0, "nothing made");
    runner_hold_close(&h);

    /* a user's file: refused at the check unless consented; the consent is
     * bound to the file its path named then */
    int fd = open(user, O_CREAT | O_WRONLY | O_EXCL, 0644);
    CHECK(fd >= 0 && write(fd, "user data", 9) == 9, "user file");
    close(fd);
    runner_hold_init(&h);
    CHECK(runner_hold_add(&h, user, true, 0) == 0, "add");
    rc = runner_hold_judge(&h, NULL, err, sizeof(err));
    CHECK(rc == -EPERM, "without consent: rc %d", rc);
    runner_hold_close(&h);
    struct guard_consent c = {.n = 1, .paths = {user}, .option = "--destroy"};
    runner_hold_init(&h);
    CHECK(runner_hold_add(&h, user, true, 0) == 0, "add");
    rc = runner_hold_judge(&h, &c, err, sizeof(err));
    CHECK(rc == 0 && h.e[0].known, "with consent: rc %d %s", rc, err);
    CHECK(!strncmp(h.consent.paths[0], "/proc/self/fd/", 14), "bound: %s", h.consent.paths[0]);
    /* the path now names another file: the bound consent does not follow */
    char other[256];
    snprintf(other, sizeof(other), "%s/other.dat", dir);
    fd = open(other, O_CREAT | O_WRONLY | O_EXCL, 0644);
    CHECK(fd >= 0, "other");
    close(fd);
    CHECK(rename(other, user) == 0, "swap");
    struct target t;
    struct target_open_opts o = {.write = true, .consent = &h.consent};
    rc = runner_hold_open(&h, &t, user, &o, err, sizeof(err));
    CHECK(rc == -EPERM, "the swapped file: rc %d", rc);
    if (rc == 0)
        target_close(&t, false);
    runner_hold_close(&h);
    unlink(user);
    rmdir(dir);
}

CHECK_MAIN()
