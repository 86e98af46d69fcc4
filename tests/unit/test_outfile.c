/* test_outfile.c - safe output files (base/outfile.c), bounded input reads
 * (base/slurp.c) and the journal reader (result/journal.c) on torn and
 * arbitrary bytes. */
#include <errno.h>
#include <stdint.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "base/outfile.h"
#include "base/slurp.h"
#include "base/textsafe.h"
#include "workload/quick.h"
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

/* A file's whole text ("" when unreadable). */
static void read_text(const char *path, char *buf, size_t len)
{
    buf[0] = 0;
    FILE *f = fopen(path, "r");
    if (!f)
        return;
    size_t n = fread(buf, 1, len - 1, f);
    buf[n] = 0;
    fclose(f);
}

/* Derived names (logs, dumps, verify state): only a regular file or a new
 * name is written; a link (even to /dev/null), a FIFO or a device is
 * refused and left as it was. */
TEST(derived_names_strict)
{
    char d[64], p[160], l[160], err[512], buf[64];
    tmpdir(d, sizeof(d));
    CHECK(d[0], "mkdtemp");
    struct outfile o;
    snprintf(p, sizeof(p), "%s/new.log", d);
    CHECK(outfile_open_derived(&o, p, err, sizeof(err)) == 0, "new: %s", err);
    fputs("a\n", o.f);
    CHECK(outfile_commit(&o, err, sizeof(err)) == 0, "%s", err);
    read_text(p, buf, sizeof(buf));
    CHECK(!strcmp(buf, "a\n"), "new: '%s'", buf);
    CHECK(outfile_open_derived(&o, p, err, sizeof(err)) == 0, "regular: %s", err);
    fputs("b\n", o.f);
    CHECK(outfile_commit(&o, err, sizeof(err)) == 0, "%s", err);
    read_text(p, buf, sizeof(buf));
    CHECK(!strcmp(buf, "b\n"), "replaced: '%s'", buf);
    /* links: to a regular file, to /dev/null, dangling */
    const char *dests[] = {p, "/dev/null", "/nonexistent/x"};
    for (unsigned i = 0; i < 3; i++) {
        snprintf(l, sizeof(l), "%s/link%u", d, i);
        CHECK(symlink(dests[i], l) == 0, "symlink");
        CHECK(outfile_open_derived(&o, l, err, sizeof(err)) == -ELOOP, "link to %s accepted", dests[i]);
        CHECK(strstr(err, "symbolic link") && strstr(err, l), "%s", err);
        CHECK(outfile_open_append(&o, l, err, sizeof(err)) == -ELOOP, "append: link to %s accepted", dests[i]);
        CHECK(outfile_check_strict(l, err, sizeof(err)) < 0, "check: link to %s accepted", dests[i]);
        struct stat st;
        CHECK(lstat(l, &st) == 0 && S_ISLNK(st.st_mode), "the link was replaced");
        unlink(l);
    }
    read_text(p, buf, sizeof(buf));
    CHECK(!strcmp(buf, "b\n"), "the link's target changed: '%s'", buf);
    /* a FIFO nobody reads: refused at once, never waited on */
    snprintf(l, sizeof(l), "%s/fifo", d);
    CHECK(mkfifo(l, 0600) == 0, "mkfifo");
    CHECK(outfile_open_derived(&o, l, err, sizeof(err)) == -EPERM && strstr(err, "FIFO"), "fifo: %s", err);
    CHECK(outfile_open_append(&o, l, err, sizeof(err)) == -EPERM && strstr(err, "FIFO"), "fifo append: %s", err);
    CHECK(outfile_check_strict(l, err, sizeof(err)) < 0, "check: fifo accepted");
    unlink(l);
    /* a character device by its own name */
    CHECK(outfile_open_derived(&o, "/dev/null", err, sizeof(err)) == -EPERM, "/dev/null accepted");
    CHECK(strstr(err, "character device"), "%s", err);
    CHECK(outfile_open_append(&o, "/dev/null", err, sizeof(err)) == -EPERM, "append: /dev/null accepted");
    CHECK(outfile_check_strict("/dev/null", err, sizeof(err)) < 0, "check: /dev/null accepted");
    /* standard output is a descriptor this process has: accepted by the check */
    CHECK(outfile_check_strict("-", err, sizeof(err)) == 0, "-: %s", err);
    CHECK(outfile_check_strict(p, err, sizeof(err)) == 0, "regular: %s", err);
    unlink(p);
    CHECK(rmdir(d) == 0, "something was left in %s", d);
}

TEST(append_regular_only)
{
    char d[64], p[160], err[512], buf[64];
    tmpdir(d, sizeof(d));
    CHECK(d[0], "mkdtemp");
    snprintf(p, sizeof(p), "%s/agg.log", d);
    struct outfile o;
    for (int i = 0; i < 2; i++) {
        CHECK(outfile_open_append(&o, p, err, sizeof(err)) == 0, "append %d: %s", i, err);
        fprintf(o.f, "%d\n", i);
        CHECK(outfile_commit(&o, err, sizeof(err)) == 0, "%s", err);
    }
    read_text(p, buf, sizeof(buf));
    CHECK(!strcmp(buf, "0\n1\n"), "appended: '%s'", buf);
    /* a directory at the name */
    CHECK(outfile_open_append(&o, d, err, sizeof(err)) == -EISDIR, "directory: %s", err);
    unlink(p);
    CHECK(rmdir(d) == 0, "something was left in %s", d);
}

/* A FIFO named as an output is opened without blocking and retried while
 * it has no reader (up to OUTFILE_FIFO_WAIT_S): a reader that comes late
 * still gets the output. */
TEST(named_fifo_with_reader)
{
    char d[64], p[160], err[512];
    tmpdir(d, sizeof(d));
    CHECK(d[0], "mkdtemp");
    snprintf(p, sizeof(p), "%s/fifo", d);
    CHECK(mkfifo(p, 0600) == 0, "mkfifo");
    pid_t kid = fork();
    if (kid == 0) {
        usleep(300 * 1000); /* the reader comes late */
        int fd = open(p, O_RDONLY);
        char b[16];
        while (fd >= 0 && read(fd, b, sizeof(b)) > 0) {
        }
        _exit(0);
    }
    struct outfile o;
    CHECK(outfile_open(&o, p, err, sizeof(err)) == 0, "fifo with a late reader: %s", err);
    fputs("x\n", o.f);
    CHECK(outfile_commit(&o, err, sizeof(err)) == 0, "%s", err);
    int st;
    waitpid(kid, &st, 0);
    unlink(p);
    rmdir(d);
}

TEST(textsafe_escapes_controls)
{
    char out[256];
    textsafe_escape("a\x1b[31mb\tc\n", 10, out, sizeof(out));
    CHECK(!strcmp(out, "a\\x1b[31mb\tc\n"), "%s", out);
    textsafe_escape("\x07\x7f\x00z", 4, out, sizeof(out));
    CHECK(!strcmp(out, "\\x07\\x7f\\x00z"), "%s", out);
    /* C1 CSI in UTF-8, valid UTF-8 kept, broken sequences escaped */
    textsafe_escape("\xc2\x9b" "1m \xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80", 16, out, sizeof(out));
    CHECK(!strcmp(out, "\\u009b1m \xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80"), "%s", out);
    textsafe_escape("\x9b\xc3(\xe2\x82", 5, out, sizeof(out));
    CHECK(!strcmp(out, "\\x9b\\xc3(\\xe2\\x82"), "%s", out);
    textsafe_escape("\xed\xa0\x80\xc0\xaf", 5, out, sizeof(out)); /* a surrogate, an overlong */
    CHECK(!strcmp(out, "\\xed\\xa0\\x80\\xc0\\xaf"), "%s", out);
    /* bounded: never past the buffer */
    char small[5];
    CHECK(textsafe_escape("\x1b\x1b\x1b", 3, small, sizeof(small)) == 4 && !strcmp(small, "\\x1b"), "%s", small);
}

TEST(textsafe_stream_across_writes)
{
    char *mem = NULL;
    size_t len = 0;
    FILE *dst = open_memstream(&mem, &len);
    CHECK(dst, "open_memstream");
    FILE *f = textsafe_open(dst);
    CHECK(f, "textsafe_open");
    /* a C1 sequence and a 3-byte character split across writes */
    fputs("x\xc2", f);
    fflush(f);
    fputs("\x9b" "y\xe2\x82", f);
    fflush(f);
    fputs("\xac\x1b", f);
    fflush(f);
    fputs("\xe2", f); /* cut short by the end */
    CHECK(textsafe_close(f) == 0, "close");
    fclose(dst);
    CHECK(mem && !strcmp(mem, "x\\u009by\xe2\x82\xac\\x1b\\xe2"), "%s", mem ? mem : "(null)");
    free(mem);
}

/* The quick grid never uses nor removes an existing file: its test file is
 * in a new directory of its own, and removing it removes only that. */
TEST(quick_file_private)
{
    char d[64], planted[160], path[4096], err[512], buf[64];
    tmpdir(d, sizeof(d));
    CHECK(d[0], "mkdtemp");
    snprintf(planted, sizeof(planted), "%s/ssdbench-default-%d.dat", d, (int)getpid());
    FILE *f = fopen(planted, "w");
    CHECK(f, "fopen");
    fputs("someone else\n", f);
    fclose(f);
    const char *old = getenv("TMPDIR");
    char *saved = old ? strdup(old) : NULL;
    setenv("TMPDIR", d, 1);
    uint64_t size = 0;
    int rc = quick_pick_file(path, sizeof(path), &size, err, sizeof(err));
    if (saved) {
        setenv("TMPDIR", saved, 1);
        free(saved);
    } else {
        unsetenv("TMPDIR");
    }
    if (rc == -ENOSPC) {
        unlink(planted);
        rmdir(d);
        return; /* the temporary directory's file system is nearly full */
    }
    CHECK(rc == 0, "%s", err);
    CHECK(strcmp(path, planted) && !strncmp(path, d, strlen(d)), "picked %s", path);
    char dir[4096];
    snprintf(dir, sizeof(dir), "%s", path);
    *strrchr(dir, '/') = 0;
    struct stat st;
    CHECK(stat(dir, &st) == 0 && S_ISDIR(st.st_mode) && (st.st_mode & 0777) == 0700 && st.st_uid == getuid(),
          "%s is not a private directory", dir);
    CHECK(access(path, F_OK) != 0, "the test file exists before the run creates it");
    /* the run creates it; removing takes the file and the directory */
    f = fopen(path, "w");
    CHECK(f, "fopen %s", path);
    fclose(f);
    quick_remove_file(path);
    CHECK(access(dir, F_OK) != 0, "%s left", dir);
    read_text(planted, buf, sizeof(buf));
    CHECK(!strcmp(buf, "someone else\n"), "the existing file changed: '%s'", buf);
    /* a path not of quick_pick_file's form is left alone */
    quick_remove_file(planted);
    CHECK(access(planted, F_OK) == 0, "removed a file the quick grid did not make");
    unlink(planted);
    CHECK(rmdir(d) == 0, "something was left in %s", d);
}

CHECK_MAIN()
