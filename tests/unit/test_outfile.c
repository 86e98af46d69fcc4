/* test_outfile.c - safe output files (base/outfile.c), bounded input reads
 * (base/slurp.c) and the journal reader (result/journal.c) on torn and
 * arbitrary bytes. */
#include <errno.h>
#include <stdint.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "base/outfile.h"
#include "base/slurp.h"
#include "result/journal.h"
#include "result/result.h"

static void tmpdir(char *d, size_t n)
{
    snprintf(d, n, "/tmp/ssdbench-outfile.XXXXXX");
    if (!mkdtemp(d))
        d[0] = 0;
}

static int write_text(const char *path, const char *text, char *err, size_t errlen)
{
    struct outfile o;
    int rc = outfile_open(&o, path, err, errlen);
    if (rc < 0)
        return rc;
    fputs(text, o.f);
    return outfile_commit(&o, err, errlen);
}

TEST(regular_replaced_atomically)
{
    char d[64], p[128], err[512];
    tmpdir(d, sizeof(d));
    CHECK(d[0], "mkdtemp");
    snprintf(p, sizeof(p), "%s/r.json", d);
    CHECK(write_text(p, "one\n", err, sizeof(err)) == 0, "%s", err);
    struct outfile o;
    CHECK(outfile_open(&o, p, err, sizeof(err)) == 0, "%s", err);
    fputs("two\n", o.f);
    fflush(o.f);
    /* until the commit the old content is what a reader sees */
    size_t len;
    char *b = slurp(p, 1024, &len, err, sizeof(err));
    CHECK(b && !strcmp(b, "one\n"), "before commit: %s", b ? b : err);
    free(b);
    CHECK(outfile_commit(&o, err, sizeof(err)) == 0, "%s", err);
    b = slurp(p, 1024, &len, err, sizeof(err));
    CHECK(b && !strcmp(b, "two\n"), "after commit: %s", b ? b : err);
    free(b);
    unlink(p);
    CHECK(rmdir(d) == 0, "a temporary file was left in %s", d);
}

TEST(refusals)
{
    char d[64], p[128], l[128], err[512];
    tmpdir(d, sizeof(d));
    CHECK(d[0], "mkdtemp");
    struct outfile o;
    CHECK(outfile_open(&o, d, err, sizeof(err)) == -EISDIR, "directory: %s", err);
    CHECK(strstr(err, "is a directory"), "%s", err);
    snprintf(p, sizeof(p), "%s/target", d);
    snprintf(l, sizeof(l), "%s/link", d);
    CHECK(write_text(p, "keep\n", err, sizeof(err)) == 0, "%s", err);
    CHECK(symlink(p, l) == 0, "symlink");
    CHECK(outfile_open(&o, l, err, sizeof(err)) < 0, "link to a regular file accepted");
    CHECK(strstr(err, "symbolic link"), "%s", err);
    CHECK(outfile_check(l, err, sizeof(err)) < 0, "check accepted a link");
    struct stat st;
    CHECK(lstat(l, &st) == 0 && S_ISLNK(st.st_mode), "the link was replaced");
    CHECK(outfile_check(p, err, sizeof(err)) == 0, "regular: %s", err);
    CHECK(outfile_check("/dev/null", err, sizeof(err)) == 1, "/dev/null: %s", err);
    unlink(l);
    unlink(p);
    rmdir(d);
}

TEST(char_device_written_into)
{
    char err[512];
    CHECK(write_text("/dev/null", "x\n", err, sizeof(err)) == 0, "%s", err);
    struct stat st;
    CHECK(stat("/dev/null", &st) == 0 && S_ISCHR(st.st_mode), "/dev/null is no longer a device");
}

TEST(slurp_refuses_devices_and_caps)
{
    char err[512];
    size_t len;
    CHECK(!slurp_named("/dev/zero", "job file", 4u << 20, &len, err, sizeof(err)), "read /dev/zero");
    CHECK(errno == EINVAL && strstr(err, "/dev/zero: is a character device"), "%s", err);
    char d[64], p[128];
    tmpdir(d, sizeof(d));
    snprintf(p, sizeof(p), "%s/big", d);
    FILE *f = fopen(p, "w");
    CHECK(f, "create");
    for (int i = 0; i < 5000; i++)
        fputs("0123456789", f);
    fclose(f);
    CHECK(!slurp_named(p, "job file", 4096, &len, err, sizeof(err)), "cap ignored");
    CHECK(errno == EFBIG && strstr(err, "job file larger than 4 KiB"), "%s", err);
    char *b = slurp_named(p, "job file", 50000, &len, err, sizeof(err));
    CHECK(b && len == 50000, "exactly at the cap: %s", b ? "short" : err);
    free(b);
    unlink(p);
    rmdir(d);
}

static const char journal_text[] =
    "# ssdbench-journal/1\n"
    "# start {\"schema\":\"ssdbench-result/1\",\"tool\":{\"name\":\"ssdbench\",\"command_line\":[\"run\"]}}\n"
    "# fields [\"t_ms\",\"read_iops\",\"read_lat_mean_ns\",\"read_lat_max_ns\",\"mean_inflight\",\"read_ios\",\"read_bytes\"]\n"
    "# units [\"ms\",\"IO/s\",\"ns\",\"ns\",\"I/Os\",\"I/Os\",\"bytes\"]\n"
    "# phase {\"name\":\"p\",\"kind\":\"run\",\"step_ms\":1000,\"jobs\":[{\"name\":\"p\",\"params\":{}}]}\n"
    "[1000,10,100,500,1,10,40960]\n"
    "[2000,30,200,900,1,30,122880]\n"
    "[3000,5";

TEST(journal_rows_and_totals)
{
    char err[512];
    cJSON *doc = journal_parse(journal_text, sizeof(journal_text) - 1, "j", err, sizeof(err));
    CHECK(doc, "%s", err);
    const cJSON *ph = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(doc, "phases"), 0);
    const cJSON *iv = cJSON_GetObjectItemCaseSensitive(ph, "intervals");
    CHECK(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(iv, "rows")) == 2, "torn row kept");
    const cJSON *rd = cJSON_GetObjectItemCaseSensitive(result_scope(ph, "total"), "read");
    CHECK(result_num(rd, "ios", 0) == 40, "ios %g", result_num(rd, "ios", 0));
    CHECK(result_num(rd, "bytes", 0) == 163840, "bytes %g", result_num(rd, "bytes", 0));
    CHECK(result_num(rd, "iops", 0) == 20, "iops %g", result_num(rd, "iops", 0));
    const cJSON *lat = cJSON_GetObjectItemCaseSensitive(rd, "latency_ns");
    CHECK(result_num(lat, "mean", 0) == 175, "mean %g", result_num(lat, "mean", 0)); /* (10*100+30*200)/40 */
    CHECK(result_num(lat, "max", 0) == 900, "max %g", result_num(lat, "max", 0));
    CHECK(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(doc, "incomplete")), "not marked incomplete");
    CHECK(result_num(doc, "journal_lines_skipped", 0) == 1, "skipped %g", result_num(doc, "journal_lines_skipped", 0));
    cJSON_Delete(doc);
    CHECK(!journal_parse("{\"schema\":1}", 12, "x", err, sizeof(err)), "not a journal accepted");
}

TEST(journal_survives_arbitrary_bytes)
{
    char err[512];
    uint64_t s = 88172645463325252ull;
    size_t hl = sizeof(journal_text) - 1;
    char *buf = malloc(hl + 4096);
    CHECK(buf, "malloc");
    for (int it = 0; it < 3000; it++) {
        /* a prefix of a good journal, then random bytes (often brackets,
         * hashes and newlines) */
        size_t keep = 19 + (size_t)(it * 7919) % (hl - 19), n = (size_t)(it * 31) % 4096;
        memcpy(buf, journal_text, keep);
        static const char alpha[] = "[]{}#,\n 0123456789.-e\"x\x01\xff";
        for (size_t i = 0; i < n; i++) {
            s ^= s << 13, s ^= s >> 7, s ^= s << 17;
            buf[keep + i] = (s & 1) ? (char)(s >> 8) : alpha[(s >> 8) % (sizeof(alpha) - 1)];
        }
        cJSON *doc = journal_parse(buf, keep + n, "fuzz", err, sizeof(err));
        cJSON_Delete(doc);
    }
    free(buf);
}

CHECK_MAIN()
