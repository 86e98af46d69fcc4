/* test_replay_log.c - fio's iolog reader (base/replay_log.h): the entries of
 * a version 3 and a version 2 log, fio's time rule (no gap before the first
 * non-zero stamp or for a stamp that goes back; gaps times 100 / pct),
 * replay_scale then replay_align on offsets, replay_redirect, reopens, the
 * ':' list of logs, a blktrace file's events, skips and depth, and bad
 * lines as "PATH:LINE: why". */
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
    CHECK(lg.version == 3 && lg.nfiles == 1 && !strcmp(lg.files[0], "a") && lg.n == 8, "v%u %u files %zu entries",
          lg.version, lg.nfiles, lg.n);
    CHECK(lg.count[RLOG_READ] == 1 && lg.count[RLOG_WRITE] == 1 && lg.count[RLOG_TRIM] == 1 &&
              lg.count[RLOG_SYNC] == 1 && lg.count[RLOG_DATASYNC] == 1 && lg.opens == 1 && lg.closes == 1,
          "counts");
    CHECK(lg.extent[0] == 8704 && lg.max_len[RLOG_WRITE] == 512 && lg.bytes[RLOG_TRIM] == 4096, "extent %llu",
          (unsigned long long)lg.extent[0]);
    /* fio's gaps: stamps 0, 0, 0, 100 (last 0: no gap), 150 (+50), 120
     * (back: 0), 170 (+50), 200 (+30) */
    uint64_t gap[8] = {0, 0, 0, 0, 50000, 0, 50000, 30000};
    uint8_t op[8] = {RLOG_ADD, RLOG_OPEN, RLOG_READ, RLOG_WRITE, RLOG_TRIM, RLOG_SYNC, RLOG_DATASYNC, RLOG_CLOSE};
    for (unsigned i = 0; i < 8; i++)
        CHECK(lg.e[i].gap_ns == gap[i] && lg.e[i].op == op[i], "entry %u gap %llu op %u, want %llu %u", i,
              (unsigned long long)lg.e[i].gap_ns, lg.e[i].op, (unsigned long long)gap[i], op[i]);
    CHECK(lg.e[3].off == 8192 && lg.e[3].len == 512 && lg.e[5].len == 0, "entry fields");
    rlog_free(&lg);
    /* replay_no_stall: no gaps at all */
    o.no_stall = true;
    rc = rd("fio version 3 iolog\n0 a add\n0 a open\n10 a read 0 4096\n100 a read 0 4096\n", &o, &lg, err);
    CHECK(rc == 0 && lg.n == 4 && lg.e[3].gap_ns == 0, "no_stall: %s", err);
    rlog_free(&lg);
    /* read-only: no writes nor trims, their gaps lost */
    o = (struct rlog_opts){.keep = true, .read_only = true};
    rc = rd("fio version 3 iolog\n0 a add\n0 a open\n10 a read 0 4096\n20 a write 0 4096\n30 a trim 0 4096\n"
            "35 a read 0 4096\n", &o, &lg, err);
    CHECK(rc == 0 && lg.n == 4 && lg.ro_skipped == 1 && lg.count[RLOG_WRITE] == 0 && lg.count[RLOG_TRIM] == 0 &&
              lg.e[3].gap_ns == 5000,
          "read_only: %s %zu", err, lg.n);
    rlog_free(&lg);
}

TEST(time_scale_scale_align_redirect)
{
    char err[256] = "";
    struct rlog_opts o = {.keep = true, .time_scale = 200, .scale = 3, .align = 4096, .redirect = "/dev/x"};
    int rc = rd("fio version 3 iolog\n10 a add\n10 a open\n10 b add\n10 a read 30000 4096\n1010 b read 12288 4096\n",
                &o, &lg, err);
    CHECK(rc == 0, "%s", err);
    CHECK(lg.nfiles == 1 && !strcmp(lg.files[0], "/dev/x") && lg.n == 5, "redirect: %u files '%s'", lg.nfiles,
          lg.files[0]);
    /* fio: the re-add of a redirected file repeats the action before it */
    CHECK(lg.e[2].op == RLOG_OPEN, "re-add op %u", lg.e[2].op);
    /* 30000 / 3 = 10000, down to 8192; 12288 / 3 = 4096 */
    CHECK(lg.e[3].off == 8192 && lg.e[4].off == 4096, "offsets %llu %llu", (unsigned long long)lg.e[3].off,
          (unsigned long long)lg.e[4].off);
    /* a gap of 1000 us at 200 % is 500 us */
    CHECK(lg.e[3].gap_ns == 0 && lg.e[4].gap_ns == 500000, "gap %llu", (unsigned long long)lg.e[4].gap_ns);
    rlog_free(&lg);
}

TEST(version2_and_wait)
{
    char err[256] = "";
    struct rlog_opts o = {.keep = true};
    int rc = rd("fio version 2 iolog\na add\na open\na write 0 4096\na wait 20 0\na read 0 4096\na close\n", &o,
                &lg, err);
    CHECK(rc == 0, "%s", err);
    CHECK(lg.version == 2 && lg.n == 6 && lg.waits == 1 && lg.e[3].op == RLOG_WAIT &&
              lg.e[3].gap_ns == 20000000ull && lg.e[4].gap_ns == 0,
          "v%u %zu entries wait %llu", lg.version, lg.n, (unsigned long long)lg.e[3].gap_ns);
    rlog_free(&lg);
    o.no_stall = true; /* fio drops the waits */
    rc = rd("fio version 2 iolog\na add\na open\na write 0 4096\na wait 20 0\na close\n", &o, &lg, err);
    CHECK(rc == 0 && lg.n == 4 && lg.waits == 0, "no_stall wait: %zu", lg.n);
    rlog_free(&lg);
}

TEST(reopen_counted)
{
    char err[256] = "";
    struct rlog_opts o = {.keep = true};
    int rc = rd("fio version 3 iolog\n0 a add\n0 a open\n1 a read 0 4096\n2 a close\n3 a open\n4 a read 0 4096\n"
                "5 a close\n", &o, &lg, err);
    CHECK(rc == 0 && lg.opens == 2 && lg.closes == 2 && lg.reopens == 1, "%s: %llu opens %llu reopens", err,
          (unsigned long long)lg.opens, (unsigned long long)lg.reopens);
    rlog_free(&lg);
}

TEST(list_names)
{
    char n[64];
    CHECK(rlog_list_count("a:b\\:c::d:") == 3, "count %u", rlog_list_count("a:b\\:c::d:"));
    CHECK(rlog_list_name("a:b\\:c::d:", 1, n, sizeof(n)) && !strcmp(n, "b:c"), "1: '%s'", n);
    CHECK(rlog_list_name("a:b\\:c::d:", 5, n, sizeof(n)) && !strcmp(n, "d"), "5 (mod 3): '%s'", n);
    CHECK(rlog_list_name(":x", 0, n, sizeof(n)) && !strcmp(n, "x"), "leading colon: '%s'", n);
    CHECK(!rlog_list_name("::", 0, n, sizeof(n)), "no name");
}

/* blktrace records (struct blk_io_trace, little-endian) */
static unsigned char bt[64 * 56];
static size_t btlen;

static void put(uint64_t v, unsigned bytes)
{
    for (unsigned i = 0; i < bytes; i++)
        bt[btlen++] = (unsigned char)(v >> (8 * i));
}

static void rec(uint64_t t, uint64_t sector, uint32_t bytes, uint32_t action, uint32_t dev, uint16_t pdu)
{
    put(0x65617407, 4), put(1, 4), put(t, 8), put(sector, 8), put(bytes, 4), put(action, 4), put(1, 4);
    put(dev, 4), put(0, 4), put(0, 2), put(pdu, 2);
    for (unsigned i = 0; i < pdu; i++)
        bt[btlen++] = 'x';
}

#define TC(x) ((uint32_t)(x) << 16)
enum { Q = 1, C = 8, R = 1, W = 2, F = 4, QU = 16, CO = 128, N = 1024, D = 8192 };

static int rd_bt(const struct rlog_opts *o, struct rlog *out, char *err)
{
    snprintf(path, sizeof(path), "/tmp/ssdbench-rlog-%d.bt", (int)getpid());
    FILE *f = fopen(path, "wb");
    if (f) {
        fwrite(bt, 1, btlen, f);
        fclose(f);
    }
    int rc = rlog_read(path, o, out, err, 256);
    unlink(path);
    return rc;
}

TEST(blktrace_events)
{
    char err[256] = "";
    unsigned dev = (7u << 20) | 3;
    btlen = 0;
    rec(0, 0, 0, TC(N), dev, 5);                          /* a process note with its pdu */
    rec(1000000, 8, 4096, Q | TC(QU | R), dev, 0);        /* read 4096 at 4096 */
    rec(1000500, 8, 4096, Q | TC(QU | R), dev, 0);        /* queued twice: depth 2 */
    rec(1001000, 8, 4096, C | TC(CO | R), dev, 0);
    rec(1003000, 16, 8192, Q | TC(QU | W), dev, 0);       /* write, 2 us later */
    rec(1004999, 0, 0, Q | TC(QU | W | F), dev, 0);       /* flush: a sync */
    rec(1006000, 24, 4096, Q | TC(QU | W | D), dev, 0);   /* discard: a trim */
    rec(1007000, 32, 0, Q | TC(QU | R), dev, 0);          /* zero bytes: not replayed */
    struct rlog_opts o = {.keep = true, .redirect = "t.dat"};
    int rc = rd_bt(&o, &lg, err);
    CHECK(rc == 0 && lg.blktrace && lg.nfiles == 1 && !strcmp(lg.files[0], "t.dat"), "%s", err);
    /* open, read, read, write, sync, trim, close */
    uint8_t op[7] = {RLOG_OPEN, RLOG_READ, RLOG_READ, RLOG_WRITE, RLOG_SYNC, RLOG_TRIM, RLOG_CLOSE};
    uint64_t gap[7] = {0, 0, 0, 2000, 1000, 1000, 0}; /* whole microseconds (1999 ns -> 1 us) */
    CHECK(lg.n == 7, "%zu entries", lg.n);
    for (unsigned i = 0; i < 7 && i < lg.n; i++)
        CHECK(lg.e[i].op == op[i] && lg.e[i].gap_ns == gap[i], "entry %u: op %u gap %llu", i, lg.e[i].op,
              (unsigned long long)lg.e[i].gap_ns);
    CHECK(lg.e[1].off == 4096 && lg.e[1].len == 4096 && lg.e[3].off == 8192 && lg.e[5].off == 12288, "offsets");
    CHECK(lg.depth == 2, "depth %u", lg.depth);
    rlog_free(&lg);
    /* replay_skip: no reads, no syncs (their gaps are lost) */
    o.skip = RLOG_SKIP_READ | RLOG_SKIP_SYNC;
    rc = rd_bt(&o, &lg, err);
    CHECK(rc == 0 && lg.count[RLOG_READ] == 0 && lg.count[RLOG_SYNC] == 0 && lg.count[RLOG_WRITE] == 1 &&
              lg.count[RLOG_TRIM] == 1,
          "skip: %s", err);
    rlog_free(&lg);
    /* without replay_redirect the device is looked up: none here */
    o = (struct rlog_opts){.keep = true, .dev_dir = "/nonexistent"};
    rc = rd_bt(&o, &lg, err);
    CHECK(rc < 0 && strstr(err, "record 2:") && strstr(err, "7:3"), "no device: %s", err);
    /* a short last record, a bad version: one line naming the record */
    o.redirect = "t.dat";
    btlen -= 10;
    rc = rd_bt(&o, &lg, err);
    CHECK(rc < 0 && strstr(err, "record 8: short") && !strchr(err, '\n'), "short: %s", err);
    btlen = 0;
    rec(0, 8, 4096, Q | TC(QU | R), dev, 0);
    rec(1, 8, 4096, Q | TC(QU | R), dev, 0);
    bt[48] = 0x06;
    rc = rd_bt(&o, &lg, err);
    CHECK(rc < 0 && strstr(err, "record 2: blktrace version 6"), "version: %s", err);
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
        {"fio version 3 iolog\n0 a add\n0 a open\n1 a read 0 0\n", ":4:", "zero length"},
        {"fio version 3 iolog\n0 a add\n1 a read 0 4294967296\n", ":3:", "bad length"},
        {"fio version 3 iolog\n0 a add\n1 b write 0 4096\n", ":3:", "not added"},
        {"fio version 3 iolog\n0 a add\n1 a remove\n", ":3:", "bad file action"},
        {"fio version 3 iolog\n0 a add\n1 a wait 5 0\n", ":3:", "version 2"},
        {"fio version 2 iolog\na add\na open\n", "", "no read, write or trim"},
        {"fio version 3 iolog\n0 a add\n1 a read 0 4096\n", ":3:", "not opened"},
        {"fio version 3 iolog\n0 a add\n0 a open\n1 a close\n2 a read 0 4096\n", ":5:", "not opened"},
        {"fio version 3 iolog\n0 a add\n0 a open\n1 a open\n", ":4:", "has open"},
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
