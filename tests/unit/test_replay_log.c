/* test_replay_log.c - fio's iolog reader (base/replay_log.h): the entries of
 * a version 3 and a version 2 log, fio's time rule (no gap before the first
 * non-zero stamp or for a stamp that goes back; gaps times 100 / pct),
 * replay_scale then replay_align on offsets, replay_redirect, and bad lines
 * as "PATH:LINE: why". */
#include "check.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "base/replay_log.h"

static char path[64];

static void write_log(const char *text)
{
    snprintf(path, sizeof(path), "/tmp/ssdbench-rlog-%d.log", (int)getpid());
    FILE *f = fopen(path, "w");
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

static int rd(const char *text, const struct rlog_opts *o, struct rlog *lg, char *err)
{
    write_log(text);
    int rc = rlog_read(path, o, lg, err, 256);
    unlink(path);
    return rc;
}

static struct rlog lg; /* large: not on the stack */

TEST(version3_entries_and_times)
{
    char err[256] = "";
    struct rlog_opts o = {.keep = true};
    int rc = rd("fio version 3 iolog\n0 a add\n0 a open\n0 a read 0 4096\n100 a write 8192 512\n"
                "150 a trim 4096 4096\n120 a sync 0 0\n170 a datasync 0 0\n200 a close\n",
                &o, &lg, err);
    CHECK(rc == 0, "%s", err);
    CHECK(lg.version == 3 && lg.nfiles == 1 && !strcmp(lg.files[0], "a") && lg.n == 5, "v%u %u files %zu entries",
          lg.version, lg.nfiles, lg.n);
    CHECK(lg.count[RLOG_READ] == 1 && lg.count[RLOG_WRITE] == 1 && lg.count[RLOG_TRIM] == 1 &&
              lg.count[RLOG_SYNC] == 1 && lg.count[RLOG_DATASYNC] == 1 && lg.opens == 1 && lg.closes == 1,
          "counts");
    CHECK(lg.extent[0] == 8704 && lg.max_len[RLOG_WRITE] == 512 && lg.bytes[RLOG_TRIM] == 4096, "extent %llu",
          (unsigned long long)lg.extent[0]);
    /* fio: stamps 0, 100 (last 0: no gap), 150 (+50), 120 (back: 0), 170 (+50) */
    uint64_t due[5] = {0, 0, 50000, 50000, 100000};
    for (unsigned i = 0; i < 5; i++)
        CHECK(lg.e[i].due_ns == due[i], "entry %u due %llu, want %llu", i, (unsigned long long)lg.e[i].due_ns,
              (unsigned long long)due[i]);
    CHECK(lg.e[1].op == RLOG_WRITE && lg.e[1].off == 8192 && lg.e[1].len == 512 && lg.e[3].op == RLOG_SYNC &&
              lg.e[3].len == 0,
          "entry fields");
    rlog_free(&lg);
}

TEST(time_scale_scale_align_redirect)
{
    char err[256] = "";
    struct rlog_opts o = {.keep = true, .time_scale = 200, .scale = 3, .align = 4096, .redirect = "/dev/x"};
    int rc = rd("fio version 3 iolog\n10 a add\n10 b add\n10 a read 30000 4096\n1010 b read 12288 4096\n", &o, &lg,
                err);
    CHECK(rc == 0, "%s", err);
    CHECK(lg.nfiles == 1 && !strcmp(lg.files[0], "/dev/x"), "redirect: %u files '%s'", lg.nfiles, lg.files[0]);
    /* 30000 / 3 = 10000, down to 8192; 12288 / 3 = 4096 */
    CHECK(lg.e[0].off == 8192 && lg.e[1].off == 4096, "offsets %llu %llu", (unsigned long long)lg.e[0].off,
          (unsigned long long)lg.e[1].off);
    /* a gap of 1000 us at 200 % is 500 us */
    CHECK(lg.e[0].due_ns == 0 && lg.e[1].due_ns == 500000, "due %llu", (unsigned long long)lg.e[1].due_ns);
    rlog_free(&lg);
}

TEST(version2_and_wait)
{
    char err[256] = "";
    struct rlog_opts o = {.keep = true};
    int rc = rd("fio version 2 iolog\na add\na open\na write 0 4096\na wait 20 0\na read 0 4096\na close\n", &o,
                &lg, err);
    CHECK(rc == 0, "%s", err);
    CHECK(lg.version == 2 && lg.n == 2 && lg.waits == 1 && lg.e[0].due_ns == 0 && lg.e[1].due_ns == 20000000ull,
          "v%u %zu entries due %llu", lg.version, lg.n, (unsigned long long)lg.e[1].due_ns);
    rlog_free(&lg);
}

TEST(bad_lines_name_file_and_line)
{
    static const struct {
        const char *text, *line, *why;
    } cases[] = {
        {"fio version 1 iolog\n", ":1:", "not a fio iolog"},
        {"fio version 3 iolog\n0 a add\n1 a read 0\n", ":3:", "expected"},
        {"fio version 3 iolog\n0 a add\nx a read 0 1\n", ":3:", "bad time stamp"},
        {"fio version 3 iolog\n0 a add\n1 a read -1 4096\n", ":3:", "bad offset"},
        {"fio version 3 iolog\n0 a add\n1 a read 0 0\n", ":3:", "zero length"},
        {"fio version 3 iolog\n0 a add\n1 a read 0 4294967296\n", ":3:", "bad length"},
        {"fio version 3 iolog\n0 a add\n1 b write 0 4096\n", ":3:", "not added"},
        {"fio version 3 iolog\n0 a add\n1 a remove\n", ":3:", "bad file action"},
        {"fio version 3 iolog\n0 a add\n1 a wait 5 0\n", ":3:", "version 2"},
        {"fio version 2 iolog\na add\na open\n", "", "no read, write or trim"},
        {"", "", "empty"},
    };
    for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        char err[256] = "";
        struct rlog_opts o = {.keep = true};
        int rc = rd(cases[i].text, &o, &lg, err);
        CHECK(rc < 0 && strstr(err, path) && strstr(err, cases[i].line) && strstr(err, cases[i].why) &&
                  !strchr(err, '\n') && lg.e == NULL,
              "case %u: rc %d '%s'", i, rc, err);
    }
}

CHECK_MAIN()
