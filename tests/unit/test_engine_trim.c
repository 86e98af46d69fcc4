/* test_engine_trim.c - trims in the engines (engine_trim.c): the discard
 * call on a regular file (a punched hole that reads back as zeros, the
 * file size kept), the queue the asynchronous engines keep trims in
 * (staging order, the depth limit, handing back at most max), and a trim
 * through each engine's own queue/run on a file, counted in the request's
 * result. */
#include "check.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/engine.h"
#include "job/job.h"

#define FILE_LEN (256 * 1024)

/* A temporary file of FILE_LEN bytes of 0xa5, or -1. */
static int data_file(char *path, size_t len)
{
    snprintf(path, len, "/tmp/ssdbench-trim.XXXXXX");
    int fd = mkstemp(path);
    if (fd < 0)
        return -1;
    unsigned char *b = malloc(FILE_LEN);
    memset(b, 0xa5, FILE_LEN);
    ssize_t w = pwrite(fd, b, FILE_LEN, 0);
    free(b);
    if (w != FILE_LEN || fsync(fd) < 0) {
        close(fd);
        unlink(path);
        return -1;
    }
    return fd;
}

/* Bytes [off, off+len) are all v. */
static bool all_bytes(int fd, uint64_t off, uint64_t len, unsigned char v)
{
    unsigned char *b = malloc(len);
    bool ok = pread(fd, b, len, (off_t)off) == (ssize_t)len;
    for (uint64_t i = 0; ok && i < len; i++)
        ok = b[i] == v;
    free(b);
    return ok;
}

TEST(file_trim_punches_a_hole)
{
    char path[64];
    int fd = data_file(path, sizeof(path));
    CHECK(fd >= 0, "no temporary file");
    int rc = engine_trim(fd, 64 * 1024, 64 * 1024);
    if (rc < 0 && errno == EOPNOTSUPP) {
        close(fd);
        unlink(path);
        printf("SKIP %s:%s: /tmp cannot punch holes\n", __FILE__, __func__);
        return;
    }
    CHECK(rc == 0, "engine_trim: %s", strerror(errno));
    struct stat st;
    CHECK(fstat(fd, &st) == 0 && st.st_size == FILE_LEN, "size changed");
    CHECK(all_bytes(fd, 64 * 1024, 64 * 1024, 0), "the trimmed range is not zero");
    CHECK(all_bytes(fd, 0, 64 * 1024, 0xa5) && all_bytes(fd, 128 * 1024, 128 * 1024, 0xa5),
          "bytes outside the range changed");
    close(fd);
    unlink(path);
}

TEST(file_kind_learned_on_the_first_trim)
{
    char path[64];
    int fd = data_file(path, sizeof(path));
    CHECK(fd >= 0, "no temporary file");
    uint8_t kinds[JOB_MAX_TARGETS] = {0};
    int rc = engine_trim_file(kinds, 3, fd, 0, 64 * 1024);
    if (rc < 0 && errno == EOPNOTSUPP) {
        close(fd);
        unlink(path);
        printf("SKIP %s:%s: /tmp cannot punch holes\n", __FILE__, __func__);
        return;
    }
    CHECK(rc == 0, "engine_trim_file: %s", strerror(errno));
    CHECK(kinds[3] != 0, "the file's kind was not kept");
    CHECK(kinds[0] == 0 && kinds[4] == 0, "another file's kind changed");
    uint8_t learned = kinds[3];
    /* the second trim goes straight to the punch, with the same effect */
    CHECK(engine_trim_file(kinds, 3, fd, 128 * 1024, 64 * 1024) == 0, "second trim: %s", strerror(errno));
    CHECK(kinds[3] == learned, "the kind changed");
    CHECK(all_bytes(fd, 0, 64 * 1024, 0) && all_bytes(fd, 128 * 1024, 64 * 1024, 0), "trimmed ranges not zero");
    CHECK(all_bytes(fd, 64 * 1024, 64 * 1024, 0xa5) && all_bytes(fd, 192 * 1024, 64 * 1024, 0xa5),
          "bytes outside the ranges changed");
    close(fd);
    unlink(path);
}

TEST(bad_descriptor_fails_with_errno)
{
    errno = 0;
    CHECK(engine_trim(-1, 0, 4096) == -1 && errno == EBADF, "errno %d", errno);
}

TEST(trim_queue_order_depth_and_max)
{
    char path[64];
    int fd = data_file(path, sizeof(path));
    CHECK(fd >= 0, "no temporary file");
    int fds[1] = {fd};
    struct engine_trims q;
    CHECK(engine_trims_init(&q, 3) == 0, "init");
    struct io_req r[4];
    memset(r, 0, sizeof(r));
    for (int i = 0; i < 4; i++) {
        r[i].op = IO_OP_TRIM;
        r[i].off = (uint64_t)i * 4096;
        r[i].len = 4096;
        r[i].res = -999;
    }
    for (int i = 0; i < 3; i++)
        CHECK(engine_trims_stage(&q, &r[i]) == 0, "stage %d", i);
    CHECK(engine_trims_stage(&q, &r[3]) == -EAGAIN, "a fourth fits in depth 3");
    struct io_req *done[4];
    CHECK(engine_trims_take(&q, done, 4) == 0, "taken before they were carried out");
    engine_trims_do(&q, fds);
    CHECK(engine_trims_take(&q, done, 2) == 2 && done[0] == &r[0] && done[1] == &r[1], "first two");
    CHECK(engine_trims_stage(&q, &r[3]) == 0, "room again");
    /* r[3] is staged, not carried out: only r[2] comes back */
    CHECK(engine_trims_take(&q, done, 4) == 1 && done[0] == &r[2], "third");
    engine_trims_do(&q, fds);
    CHECK(engine_trims_take(&q, done, 4) == 1 && done[0] == &r[3], "fourth");
    for (int i = 0; i < 4; i++)
        CHECK(r[i].res == 4096, "trim %d: res %d", i, r[i].res);
    engine_trims_free(&q);
    close(fd);
    unlink(path);
}

/* One trim through an engine: queue, run, the completion carries len. */
static int engine_one_trim(const struct engine_ops *ops, int fd, uint64_t off, uint32_t len, int32_t *res)
{
    struct io_req slot;
    memset(&slot, 0, sizeof(slot));
    struct engine e = {.ops = ops, .slots = &slot, .depth = 1};
    int fds[1] = {fd};
    static char buf[4096];
    struct iovec iov = {buf, sizeof(buf)};
    char err[256];
    int rc = ops->init(&e, 1, fds, 1, &iov, 1, err, sizeof(err));
    if (rc < 0)
        return rc;
    slot.op = IO_OP_TRIM;
    slot.off = off;
    slot.len = len;
    slot.buf = buf;
    rc = ops->queue(&e, &slot);
    struct io_req *done[1] = {NULL};
    if (rc == 0)
        rc = ops->run(&e, 1, 0, done, 1);
    ops->exit(&e);
    if (rc != 1 || done[0] != &slot)
        return rc < 0 ? rc : -EPROTO;
    *res = slot.res;
    return 0;
}

TEST(every_engine_trims_a_file)
{
    static const enum engine_kind kinds[] = {ENGINE_PSYNC, ENGINE_LIBAIO, ENGINE_IO_URING};
    for (unsigned k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
        char path[64];
        int fd = data_file(path, sizeof(path));
        CHECK(fd >= 0, "no temporary file");
        int32_t res = 0;
        int rc = engine_one_trim(engine_lookup(kinds[k]), fd, 128 * 1024, 32 * 1024, &res);
        CHECK(rc == 0, "%s: %d", job_engine_name(kinds[k]), rc);
        CHECK(res == 32 * 1024, "%s: res %d", job_engine_name(kinds[k]), res);
        CHECK(all_bytes(fd, 128 * 1024, 32 * 1024, 0) && all_bytes(fd, 0, 128 * 1024, 0xa5),
                  "%s: bytes", job_engine_name(kinds[k]));
        close(fd);
        unlink(path);
    }
}

TEST(null_engine_completes_trims_whole)
{
    int32_t res = 0;
    CHECK(engine_one_trim(&engine_null_ops, -1, 0, 8192, &res) == 0 && res == 8192, "res %d", res);
}

CHECK_MAIN()
