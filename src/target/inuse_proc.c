/* inuse_proc.c - see inuse_proc.h. */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "target/inuse_parse.h"
#include "target/inuse_proc.h"

/* The inode of the initial PID namespace (PROC_PID_INIT_INO). */
#define INIT_PID_NS_INO 4026531836UL
#define FDINFO_MAX (1u << 20)

struct scan {
    const struct inuse_id *ids;
    unsigned n;
    char *buf; /* FDINFO_MAX bytes for one fdinfo text */
};

static int match_stat(const struct scan *s, const struct stat *st)
{
    for (unsigned i = 0; i < s->n; i++) {
        const struct inuse_id *d = &s->ids[i];
        if (d->block ? S_ISBLK(st->st_mode) && st->st_rdev == d->rdev
                     : S_ISREG(st->st_mode) && st->st_dev == d->dev && st->st_ino == d->ino)
            return (int)i;
    }
    return -1;
}

static ssize_t read_at(int dir, const char *name, char *buf, size_t len)
{
    int f = openat(dir, name, O_RDONLY | O_CLOEXEC);
    if (f < 0)
        return -1;
    size_t got = 0;
    while (got + 1 < len) {
        ssize_t r = read(f, buf + got, len - 1 - got);
        if (r <= 0)
            break;
        got += (size_t)r;
    }
    close(f);
    buf[got] = 0;
    return (ssize_t)got;
}

struct uring_arg {
    const struct scan *s;
    int id;
};

/* A registered file: a path is checked by identity (stat), a bare name
 * (6.1) or a deleted path by its last component against the names. */
static int uring_entry(const char *name, bool deleted, void *arg)
{
    struct uring_arg *a = arg;
    struct stat st;
    if (name[0] == '/' && !deleted && stat(name, &st) == 0) {
        int i = match_stat(a->s, &st);
        if (i >= 0) {
            a->id = i;
            return 1;
        }
        return 0;
    }
    const char *base = strrchr(name, '/');
    base = base ? base + 1 : name;
    for (unsigned i = 0; i < a->s->n; i++)
        if (a->s->ids[i].name && a->s->ids[i].name[0] && !strcmp(a->s->ids[i].name, base)) {
            a->id = (int)i;
            return 1;
        }
    return 0;
}

/* The ring's registered files; 6.1 lists none while the ring's lock is
 * busy, so an empty list of a non-empty table is read again. Returns the
 * id or -1; *unlisted when the list stayed empty. */
static int uring_files(const struct scan *s, int fdinfo_dir, const char *fd, bool *unlisted)
{
    *unlisted = false;
    for (int tries = 0; tries < 5; tries++) {
        if (read_at(fdinfo_dir, fd, s->buf, FDINFO_MAX) < 0)
            return -1;
        struct uring_arg a = {.s = s, .id = -1};
        unsigned declared, listed;
        int rc = inuse_uring_files(s->buf, uring_entry, &a, &declared, &listed);
        if (rc < 0)
            return -1;
        if (rc > 0)
            return a.id;
        /* 6.1 lists every slot ("<none>" for an empty one) or, when the
         * ring's lock is busy, none; later kernels list the filled slots */
        if (listed > 0 || declared == 0)
            return -1;
        usleep(2000);
    }
    *unlisted = true;
    return -1;
}

static void comm_of(int pdir, char *comm, size_t len)
{
    snprintf(comm, len, "?");
    char b[64];
    if (read_at(pdir, "comm", b, sizeof(b)) > 0) {
        b[strcspn(b, "\n")] = 0;
        snprintf(comm, len, "%s", b);
    }
}

struct found {
    int id;
    enum inuse_how how;
    int fd;
};

/* Descriptors of one process: writers of an id, io_uring rings holding
 * one. Returns 1 found, 0 not, -1 unreadable. *reader when an id is open
 * read-only. */
static int scan_fds(const struct scan *s, int pdir, int skip_fd, struct found *f, bool *reader,
                    bool *unlisted)
{
    int fdd = openat(pdir, "fd", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fdd < 0)
        return errno == ENOENT ? 0 : -1;
    int infod = openat(pdir, "fdinfo", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    DIR *d = fdopendir(fdd);
    if (!d) {
        close(fdd);
        if (infod >= 0)
            close(infod);
        return -1;
    }
    int rc = 0;
    struct dirent *e;
    while (rc == 0 && (e = readdir(d))) {
        if (!isdigit((unsigned char)e->d_name[0]) || atoi(e->d_name) == skip_fd)
            continue;
        struct stat st;
        if (fstatat(dirfd(d), e->d_name, &st, 0) < 0)
            continue;
        int id = match_stat(s, &st);
        if (id >= 0) {
            unsigned long flags;
            char info[512];
            if (infod >= 0 && read_at(infod, e->d_name, info, sizeof(info)) > 0 &&
                inuse_fdinfo_flags(info, &flags) && (flags & O_ACCMODE) == O_RDONLY) {
                *reader = true;
                continue;
            }
            /* opened for writing, or its flags unreadable: counted */
            *f = (struct found){id, INUSE_FD_WRITE, atoi(e->d_name)};
            rc = 1;
            break;
        }
        char link[64];
        ssize_t n = readlinkat(dirfd(d), e->d_name, link, sizeof(link) - 1);
        if (n <= 0)
            continue;
        link[n] = 0;
        if (strcmp(link, "anon_inode:[io_uring]") || infod < 0)
            continue;
        bool short_list;
        id = uring_files(s, infod, e->d_name, &short_list);
        if (short_list)
            *unlisted = true;
        if (id >= 0) {
            *f = (struct found){id, INUSE_URING, atoi(e->d_name)};
            rc = 1;
        }
    }
    closedir(d);
    if (infod >= 0)
        close(infod);
    return rc;
}

/* Writable shared mappings of one process. Returns 1 found, 0 not, -1 when
 * a mapping that could be a block device's could not be identified. */
static int scan_maps(const struct scan *s, int pdir, struct found *f)
{
    int fd = openat(pdir, "maps", O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return errno == ENOENT ? 0 : -1;
    FILE *m = fdopen(fd, "r");
    if (!m) {
        close(fd);
        return -1;
    }
    bool any_block = false;
    for (unsigned i = 0; i < s->n; i++)
        any_block |= s->ids[i].block;
    char line[PATH_MAX + 256];
    int rc = 0;
    while (rc == 0 && fgets(line, sizeof(line), m)) {
        struct inuse_map mp;
        if (!inuse_maps_line(line, &mp) || !mp.write || !mp.shared || !mp.inode)
            continue;
        struct stat st = {.st_mode = S_IFREG, .st_dev = makedev(mp.major, mp.minor),
                          .st_ino = (ino_t)mp.inode};
        int id = match_stat(s, &st);
        if (id < 0) {
            /* the identity through map_files: a block device node, or a file
             * system whose stat device differs from the one maps prints */
            char name[64];
            snprintf(name, sizeof(name), "map_files/%llx-%llx", (unsigned long long)mp.start,
                     (unsigned long long)mp.end);
            if (fstatat(pdir, name, &st, 0) == 0)
                id = match_stat(s, &st);
            else if (any_block && errno != ENOENT)
                rc = -1;
        }
        if (id >= 0) {
            *f = (struct found){id, INUSE_MAP_SHARED, -1};
            rc = 1;
        }
    }
    fclose(m);
    return rc;
}

static void note_limit(struct inuse_proc_result *r)
{
    char ns[64];
    ssize_t n = readlink("/proc/self/ns/pid", ns, sizeof(ns) - 1);
    if (n > 0) {
        ns[n] = 0;
        unsigned long ino = 0;
        if (sscanf(ns, "pid:[%lu]", &ino) == 1 && ino != INIT_PID_NS_INO) {
            snprintf(r->limit, sizeof(r->limit),
                     "this process runs in a PID namespace other than the host's, so processes "
                     "outside it cannot be examined");
            r->strict = true;
            return;
        }
    }
    struct stat st;
    if (stat("/proc/1", &st) < 0) {
        snprintf(r->limit, sizeof(r->limit),
                 "/proc hides other users' processes (hidepid), so they cannot be examined");
        r->strict = true;
        return;
    }
    if (r->hidden) {
        r->strict = geteuid() != 0;
        snprintf(r->limit, sizeof(r->limit),
                 "the descriptors and mappings of %u process%s (e.g. pid %ld, %s) cannot be read%s",
                 r->hidden, r->hidden == 1 ? "" : "es", r->hidden_pid, r->hidden_comm,
                 r->strict ? " (not root)" : " (it holds privileges this process lacks)");
    }
}

void inuse_proc_scan(const struct inuse_id *ids, unsigned n, int skip_fd,
                     struct inuse_proc_result *r)
{
    memset(r, 0, sizeof(*r));
    struct scan s = {.ids = ids, .n = n, .buf = malloc(FDINFO_MAX)};
    DIR *proc = s.buf ? opendir("/proc") : NULL;
    if (!proc) {
        free(s.buf);
        snprintf(r->limit, sizeof(r->limit), "/proc cannot be read");
        return;
    }
    long self = (long)getpid();
    struct stat me;
    bool have_me = stat("/proc/self/exe", &me) == 0;
    struct dirent *e;
    while (!r->found && (e = readdir(proc))) {
        char *end;
        long p = strtol(e->d_name, &end, 10);
        if (*end || p <= 0)
            continue;
        int pdir = openat(dirfd(proc), e->d_name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (pdir < 0)
            continue;
        struct stat ex;
        bool same = p == self || (have_me && fstatat(pdir, "exe", &ex, 0) == 0 &&
                                  ex.st_dev == me.st_dev && ex.st_ino == me.st_ino);
        struct found f;
        bool reader = false, unlisted = false;
        int a = scan_fds(&s, pdir, p == self ? skip_fd : -1, &f, &reader, &unlisted);
        int b = a == 1 ? 0 : scan_maps(&s, pdir, &f);
        r->reader |= reader;
        if (a == 1 || b == 1) {
            if (same) {
                r->excused = true;
            } else {
                r->found = true;
                r->hit = (struct inuse_proc_hit){.pid = p, .how = f.how, .id = (unsigned)f.id, .fd = f.fd};
                comm_of(pdir, r->hit.comm, sizeof(r->hit.comm));
            }
        } else if ((a < 0 || b < 0 || unlisted) && !same) {
            /* a process that exited meanwhile is not hidden */
            struct stat gone;
            if (fstatat(pdir, "stat", &gone, 0) == 0) {
                if (!r->hidden) {
                    r->hidden_pid = p;
                    comm_of(pdir, r->hidden_comm, sizeof(r->hidden_comm));
                }
                r->hidden++;
            }
        }
        close(pdir);
    }
    closedir(proc);
    free(s.buf);
    if (!r->found)
        note_limit(r);
}
