/* test_guard.c - the destructive-write guard on descriptors: the inode-bound
 * mark (what breaks it, what does not), the end-of-device signatures, the
 * refusal of FIFOs without blocking, and creation that will not follow a
 * planted link. Runs in a temporary directory under TMPDIR (a file system
 * with user extended attributes, as the test hosts have). */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "check.h"
#include "target/guard.h"
#include "target/target.h"

static char dir[256];

static void enter(void)
{
    const char *t = getenv("TMPDIR");
    snprintf(dir, sizeof(dir), "%s/ssdbench-guard.XXXXXX", t ? t : "/tmp");
    if (!mkdtemp(dir) || chdir(dir) < 0)
        abort();
}

static void leave(void)
{
    if (chdir("/") == 0) {
        char cmd[300];
        snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
        if (system(cmd) != 0)
            printf("note: could not remove %s\n", dir);
    }
}

static int make_file(const char *name, size_t n)
{
    int fd = open(name, O_RDWR | O_CREAT | O_TRUNC, 0644);
    char buf[4096];
    memset(buf, 'x', sizeof(buf));
    for (size_t off = 0; fd >= 0 && off < n; off += sizeof(buf))
        if (write(fd, buf, sizeof(buf)) != (ssize_t)sizeof(buf))
            return -1;
    return fd;
}

TEST(mark_binds_to_what_was_left)
{
    enter();
    int fd = make_file("f", 16384);
    CHECK(fd >= 0, "create");
    CHECK(!target_fd_is_ours(fd), "an unmarked file is not ours");
    CHECK(target_mark_ours(fd) == 0, "stamp: %s", strerror(errno));
    CHECK(target_fd_is_ours(fd), "freshly stamped");
    /* a write right after the stamp, same size, same second: broken */
    CHECK(pwrite(fd, "y", 1, 0) == 1, "write");
    CHECK(!target_fd_is_ours(fd), "a write after the stamp must break the mark");
    CHECK(target_mark_ours(fd) == 0, "restamp");
    CHECK(target_fd_is_ours(fd), "restamped");
    /* a hand-set value of the old kind is not a mark */
    CHECK(fsetxattr(fd, "user.ssdbench", "1", 1, 0) == 0, "setxattr");
    CHECK(!target_fd_is_ours(fd), "value '1' by hand");
    /* the genuine value copied onto another file does not transfer */
    CHECK(target_mark_ours(fd) == 0, "restamp");
    char v[256];
    ssize_t n = fgetxattr(fd, "user.ssdbench", v, sizeof(v));
    int g = make_file("g", 16384);
    CHECK(n > 0 && g >= 0 && fsetxattr(g, "user.ssdbench", v, (size_t)n, 0) == 0, "copy value");
    CHECK(!target_fd_is_ours(g), "a copied value names another inode");
    /* a chmod (change time moves on) does not count as ssdbench's state either */
    CHECK(target_fd_is_ours(fd), "still ours");
    sleep(0);
    CHECK(fchmod(fd, 0600) == 0, "chmod");
    /* the change time may stay within the window; a truncate to the same size must not pass */
    CHECK(ftruncate(fd, 16384) == 0, "truncate");
    CHECK(!target_fd_is_ours(fd), "a truncate after the stamp must break the mark");
    close(fd);
    close(g);
    leave();
}

TEST(open_refuses_fifo_without_blocking)
{
    enter();
    CHECK(mkfifo("p", 0644) == 0, "mkfifo");
    struct target t;
    char err[512];
    struct target_open_opts ro = {.write = false};
    int rc = target_open(&t, "p", &ro, err, sizeof(err));
    CHECK(rc == -EINVAL && strstr(err, "FIFO"), "read: %d %s", rc, err);
    struct target_open_opts wo = {.write = true};
    rc = target_open(&t, "p", &wo, err, sizeof(err));
    CHECK(rc == -EINVAL && strstr(err, "FIFO"), "write: %d %s", rc, err);
    struct target_info ti;
    rc = target_probe("p", &ti, err, sizeof(err));
    CHECK(rc == -EINVAL, "probe: %d %s", rc, err);
    leave();
}

TEST(create_does_not_follow_a_dangling_link)
{
    enter();
    CHECK(symlink("victim", "link") == 0, "symlink");
    struct target t;
    char err[512];
    struct target_open_opts o = {.write = true, .create_size = 4096};
    int rc = target_open(&t, "link", &o, err, sizeof(err));
    struct stat st;
    CHECK(rc < 0 && lstat("victim", &st) < 0, "a link to nothing must not create its target: %d %s",
          rc, err);
    /* a file created by target_open is ours; a user file beside it is not */
    rc = target_open(&t, "made", &o, err, sizeof(err));
    CHECK(rc == 0 && t.info.created && t.ours, "create: %s", err);
    target_close(&t, false);
    int u = make_file("user", 4096);
    close(u);
    struct guard_consent none = {.n = 0, .option = "--destroy"};
    o.consent = &none;
    rc = target_open(&t, "made", &o, err, sizeof(err));
    CHECK(rc == 0 && t.ours, "reopen own: %s", err);
    target_close(&t, false);
    rc = target_open(&t, "user", &o, err, sizeof(err));
    CHECK(rc == -EPERM && strstr(err, "did not create") && strstr(err, "--destroy=user"), "%s", err);
    struct guard_consent yes = {.n = 1, .paths = {"user"}, .option = "--destroy"};
    o.consent = &yes;
    rc = target_open(&t, "user", &o, err, sizeof(err));
    CHECK(rc == 0 && !t.ours, "consent: %s", err);
    target_close(&t, false);
    leave();
}

TEST(end_signatures)
{
    enter();
    const uint64_t size = 1 << 20;
    int fd = make_file("dev", size);
    char what[128];
    CHECK(fd >= 0 && !guard_end_signature(fd, size, what, sizeof(what)), "blank: %s", what);
    CHECK(pwrite(fd, "EFI PART", 8, size - 512) == 8, "write");
    CHECK(guard_end_signature(fd, size, what, sizeof(what)) && strstr(what, "backup GPT"), "512");
    CHECK(pwrite(fd, "xxxxxxxx", 8, size - 512) == 8 && pwrite(fd, "EFI PART", 8, size - 4096) == 8,
          "write");
    CHECK(guard_end_signature(fd, size, what, sizeof(what)) && strstr(what, "4096"), "4096: %s",
          what);
    CHECK(pwrite(fd, "xxxxxxxx", 8, size - 4096) == 8, "write");
    const unsigned char md[4] = {0xfc, 0x4e, 0x2b, 0xa9};
    uint64_t sectors = size / 512, off = ((sectors - 16) & ~(uint64_t)7) * 512;
    CHECK(pwrite(fd, md, 4, (off_t)off) == 4, "write");
    CHECK(guard_end_signature(fd, size, what, sizeof(what)) && strstr(what, "md"), "md: %s", what);
    close(fd);
    leave();
}

CHECK_MAIN()
