/* test_inuse_parse.c - the in-use walk's parsers on fixed kernel text:
 * fdinfo open flags, an io_uring ring's registered files (the 6.1 dentry
 * names, the later escaped paths, a deleted file, a list the busy ring did
 * not print), /proc/PID/maps lines, the loop driver's device encoding and
 * byte-range overlap. */
#include <fcntl.h>
#include <string.h>
#include <sys/sysmacros.h>

#include "check.h"
#include "target/inuse_parse.h"

TEST(fdinfo_flags)
{
    unsigned long f = 0;
    CHECK(inuse_fdinfo_flags("pos:\t0\nflags:\t0100002\nmnt_id:\t24\n", &f), "found");
    CHECK(f == 0100002 && (f & O_ACCMODE) == O_RDWR, "%lo", f);
    CHECK(inuse_fdinfo_flags("pos:\t0\nflags:\t0100000\n", &f) && (f & O_ACCMODE) == O_RDONLY, "ro");
    CHECK(inuse_fdinfo_flags("flags:\t01\n", &f) && (f & O_ACCMODE) == O_WRONLY, "first line");
    CHECK(!inuse_fdinfo_flags("pos:\t0\nmnt_id:\t24\n", &f), "no flags line");
    CHECK(!inuse_fdinfo_flags("pos:\t0\nflags:\tzz\n", &f), "not octal");
    /* "flags" only at the start of a line */
    CHECK(!inuse_fdinfo_flags("eflags:\t02\n", &f), "inside a word");
}

struct names {
    char got[4][256];
    bool deleted[4];
    unsigned n;
    unsigned stop_at; /* 1-based; 0 never */
};

static int collect(const char *name, bool deleted, void *arg)
{
    struct names *c = arg;
    if (c->n < 4) {
        snprintf(c->got[c->n], sizeof(c->got[0]), "%s", name);
        c->deleted[c->n] = deleted;
    }
    c->n++;
    return c->stop_at && c->n == c->stop_at ? 7 : 0;
}

TEST(uring_files_paths)
{
    /* 6.18: the path, with space, tab, newline and backslash escaped */
    const char *t = "pos:\t0\nflags:\t02000002\nSqMask:\t0x3\nCachedCqTail:\t0\n"
                    "UserFiles:\t3\n    0: /tmp/a\\040file\n    1: /dev/loop7\n"
                    "    2: /tmp/gone.img (deleted)\nUserBufs:\t0\nPollList:\n";
    struct names c = {0};
    unsigned declared, listed;
    CHECK(inuse_uring_files(t, collect, &c, &declared, &listed) == 0, "walked");
    CHECK(declared == 3 && listed == 3 && c.n == 3, "%u %u %u", declared, listed, c.n);
    CHECK(!strcmp(c.got[0], "/tmp/a file") && !c.deleted[0], "%s", c.got[0]);
    CHECK(!strcmp(c.got[1], "/dev/loop7"), "%s", c.got[1]);
    CHECK(!strcmp(c.got[2], "/tmp/gone.img") && c.deleted[2], "%s", c.got[2]);
    /* the callback's stop is returned */
    struct names s = {.stop_at = 2};
    CHECK(inuse_uring_files(t, collect, &s, &declared, &listed) == 7 && s.n == 2, "stop");
}

TEST(uring_files_61_names_and_short_lists)
{
    /* 6.1: "%5u: <dentry name>", and nothing listed while the ring is busy */
    struct names c = {0};
    unsigned declared, listed;
    CHECK(inuse_uring_files("UserFiles:\t2\n    0: disk.img\n   17: loop3\nUserBufs:\t0\n", collect,
                            &c, &declared, &listed) == 0,
          "walked");
    CHECK(declared == 2 && listed == 2 && !strcmp(c.got[0], "disk.img") && !strcmp(c.got[1], "loop3"),
          "%u %s %s", listed, c.got[0], c.got[1]);
    struct names b = {0};
    CHECK(inuse_uring_files("UserFiles:\t4\nUserBufs:\t0\n", collect, &b, &declared, &listed) == 0,
          "busy ring");
    CHECK(declared == 4 && listed == 0 && b.n == 0, "short list is visible: %u of %u", listed,
          declared);
    CHECK(inuse_uring_files("UserFiles:\t0\n", collect, &b, &declared, &listed) == 0 && declared == 0,
          "none registered, text ends");
    CHECK(inuse_uring_files("pos:\t0\nflags:\t02\n", collect, &b, &declared, &listed) == -1,
          "not a ring");
}

TEST(maps_lines)
{
    struct inuse_map m;
    char l1[] = "7f5b7ab7c000-7f5b7ab7d000 rw-s 00000000 fe:00 10985769                   "
                "/tmp/inuse probe/t.bin\n";
    CHECK(inuse_maps_line(l1, &m), "shared file");
    CHECK(m.start == 0x7f5b7ab7c000ULL && m.end == 0x7f5b7ab7d000ULL, "range");
    CHECK(m.write && m.shared && m.major == 0xfe && m.minor == 0 && m.inode == 10985769, "fields");
    CHECK(!strcmp(m.path, "/tmp/inuse probe/t.bin"), "path with a space: '%s'", m.path);
    char l2[] = "00400000-00452000 r-xp 00000000 08:02 173521      /usr/bin/dbus-daemon\n";
    CHECK(inuse_maps_line(l2, &m) && !m.write && !m.shared && m.start == 0x400000, "padded, private");
    char l3[] = "7ffd1b1f2000-7ffd1b213000 rw-p 00000000 00:00 0                          [stack]\n";
    CHECK(inuse_maps_line(l3, &m) && m.inode == 0 && !strcmp(m.path, "[stack]"), "anonymous");
    char l4[] = "7f0000000000-7f0000001000 rw-s 00000000 103:1f 42\n";
    CHECK(inuse_maps_line(l4, &m) && m.major == 0x103 && m.minor == 0x1f && !strcmp(m.path, ""),
          "no path, wide device numbers");
    char l5[] = "7f00-7f10 rw-s 0 fe:00\n";
    CHECK(!inuse_maps_line(l5, &m), "no inode");
    char l6[] = "garbage\n";
    CHECK(!inuse_maps_line(l6, &m), "garbage");
}

TEST(loop_device_encoding)
{
    /* new_encode_dev: minor low byte, major, minor high bits above */
    CHECK(inuse_decode_dev((7u << 8) | 3u) == makedev(7, 3), "7:3");
    uint64_t enc = (259u << 8) | (0x1234u & 0xff) | ((0x1234u & ~0xffu) << 12);
    CHECK(inuse_decode_dev(enc) == makedev(259, 0x1234), "259:4660");
    CHECK(inuse_decode_dev(0) == makedev(0, 0), "none");
}

TEST(deleted_and_escapes)
{
    char p[64] = "/tmp/x.img (deleted)";
    CHECK(inuse_strip_deleted(p) && !strcmp(p, "/tmp/x.img"), "%s", p);
    CHECK(!inuse_strip_deleted(p) && !strcmp(p, "/tmp/x.img"), "only once");
    char q[64] = " (deleted)";
    CHECK(!inuse_strip_deleted(q), "the mark alone is a name");
    char out[64];
    inuse_unescape("/a\\040b\\011c\\134d\\012", out, sizeof(out));
    CHECK(!strcmp(out, "/a b\tc\\d\n"), "'%s'", out);
    inuse_unescape("\\9xx\\04", out, sizeof(out));
    CHECK(!strcmp(out, "\\9xx\\04"), "not an escape: '%s'", out);
    inuse_unescape("abcdef", out, 4);
    CHECK(!strcmp(out, "abc"), "bounded: '%s'", out);
}

TEST(range_overlap)
{
    CHECK(inuse_ranges_overlap(0, 10, 5, 10), "overlap");
    CHECK(!inuse_ranges_overlap(0, 10, 10, 10), "adjacent");
    CHECK(inuse_ranges_overlap(1 << 20, 0, 4 << 20, 1 << 20), "to the end");
    CHECK(!inuse_ranges_overlap(8 << 20, 0, 0, 8 << 20), "to the end, before it");
    CHECK(inuse_ranges_overlap(0, 0, 0, 0), "both whole");
}

CHECK_MAIN()
