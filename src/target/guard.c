/* guard.c - see guard.h. Every check works from the descriptor that will be
 * written (its fstat identity, its blkid probe, its extended attribute), so
 * /dev/disk/by-id links, /dev/mapper names, partitions and paths swapped
 * between check and use cannot slip past. */
#include <blkid/blkid.h>
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/loop.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "base/sysfs_attr.h"
#include "target/guard.h"
#include "target/target.h"

#define MAX_NODES 128
#define MAX_NAMESPACES 1024

bool guard_consented_st(const struct stat *st, const struct guard_consent *c)
{
    if (!c)
        return false;
    for (unsigned i = 0; i < c->n; i++) {
        struct stat cs;
        if (stat(c->paths[i], &cs) < 0)
            continue;
        if (S_ISBLK(st->st_mode) && S_ISBLK(cs.st_mode) && cs.st_rdev == st->st_rdev)
            return true;
        if (S_ISREG(st->st_mode) && S_ISREG(cs.st_mode) && cs.st_dev == st->st_dev &&
            cs.st_ino == st->st_ino)
            return true;
    }
    return false;
}

/* sysfs directory of a block device and the names of its partitions. */
struct devnode {
    char sysdir[PATH_MAX];
    char name[64];
    dev_t dev;
    uint64_t start, size; /* partitions: bytes from the start of the disk */
};

static int sysfs_dir(dev_t dev, struct devnode *n)
{
    char link[64];
    snprintf(link, sizeof(link), "/sys/dev/block/%u:%u", major(dev), minor(dev));
    if (!realpath(link, n->sysdir))
        return -errno;
    const char *s = strrchr(n->sysdir, '/');
    snprintf(n->name, sizeof(n->name), "%s", s ? s + 1 : n->sysdir);
    n->dev = dev;
    return 0;
}

static uint64_t read_u64(const char *dir, const char *name)
{
    char f[PATH_MAX + 64];
    snprintf(f, sizeof(f), "%s/%s", dir, name);
    FILE *fp = fopen(f, "r");
    unsigned long long v = 0;
    if (fp) {
        if (fscanf(fp, "%llu", &v) != 1)
            v = 0;
        fclose(fp);
    }
    return v;
}

/* Lists the device itself plus its partitions (subdirectories with a "dev"). */
static unsigned list_nodes(dev_t dev, struct devnode *out, unsigned max)
{
    unsigned n = 0;
    if (sysfs_dir(dev, &out[0]) < 0) {
        snprintf(out[0].name, sizeof(out[0].name), "%u:%u", major(dev), minor(dev));
        out[0].sysdir[0] = 0;
        out[0].dev = dev;
        return 1;
    }
    n = 1;
    char top[PATH_MAX];
    snprintf(top, sizeof(top), "%s", out[0].sysdir);
    DIR *d = opendir(top);
    if (!d)
        return n;
    struct dirent *e;
    while ((e = readdir(d)) && n < max) {
        if (e->d_name[0] == '.')
            continue;
        char f[PATH_MAX + 300];
        snprintf(f, sizeof(f), "%s/%s/partition", top, e->d_name);
        if (access(f, F_OK) != 0)
            continue;
        snprintf(f, sizeof(f), "%s/%s/dev", top, e->d_name);
        FILE *fp = fopen(f, "r");
        unsigned ma, mi;
        if (fp && fscanf(fp, "%u:%u", &ma, &mi) == 2) {
            struct devnode *p = &out[n];
            snprintf(p->sysdir, sizeof(p->sysdir), "%s/%s", top, e->d_name);
            snprintf(p->name, sizeof(p->name), "%s", e->d_name);
            p->dev = makedev(ma, mi);
            /* sysfs counts partition start and size in 512-byte sectors */
            p->start = read_u64(p->sysdir, "start") * 512;
            p->size = read_u64(p->sysdir, "size") * 512;
            n++;
        }
        if (fp)
            fclose(fp);
    }
    closedir(d);
    return n;
}

/* Searches one mountinfo file for any of the nodes; field 3 is the mounted
 * file system's device number. */
static int scan_mountinfo(const char *file, const struct devnode *nodes, unsigned n, char *where,
                          size_t len)
{
    FILE *f = fopen(file, "r");
    if (!f)
        return -1;
    char line[4096];
    int found = -1;
    while (found < 0 && fgets(line, sizeof(line), f)) {
        unsigned ma, mi;
        char mnt[PATH_MAX];
        if (sscanf(line, "%*s %*s %u:%u %*s %4095s", &ma, &mi, mnt) != 3)
            continue;
        for (unsigned i = 0; i < n; i++)
            if (makedev(ma, mi) == nodes[i].dev) {
                snprintf(where, len, "%s", mnt);
                found = (int)i;
                break;
            }
    }
    fclose(f);
    return found;
}

/* Mounted in any mount namespace: this process's first, then the mountinfo
 * of one process in every other namespace found under /proc. Returns the
 * node index or -1; *pid is 0 for this namespace. */
static int find_mount(const struct devnode *nodes, unsigned n, char *where, size_t len, long *pid)
{
    *pid = 0;
    int i = scan_mountinfo("/proc/self/mountinfo", nodes, n, where, len);
    if (i >= 0)
        return i;
    struct stat own;
    ino_t seen[MAX_NAMESPACES];
    unsigned nseen = 0;
    if (stat("/proc/self/ns/mnt", &own) == 0)
        seen[nseen++] = own.st_ino;
    DIR *d = opendir("/proc");
    if (!d)
        return -1;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (!isdigit((unsigned char)e->d_name[0]))
            continue;
        char p[300];
        struct stat ns;
        snprintf(p, sizeof(p), "/proc/%s/ns/mnt", e->d_name);
        if (stat(p, &ns) < 0)
            continue;
        bool dup = false;
        for (unsigned k = 0; k < nseen && !dup; k++)
            dup = seen[k] == ns.st_ino;
        if (dup)
            continue;
        if (nseen < MAX_NAMESPACES)
            seen[nseen++] = ns.st_ino;
        snprintf(p, sizeof(p), "/proc/%s/mountinfo", e->d_name);
        i = scan_mountinfo(p, nodes, n, where, len);
        if (i >= 0) {
            *pid = strtol(e->d_name, NULL, 10);
            break;
        }
    }
    closedir(d);
    return i;
}

static int find_swap(const struct devnode *nodes, unsigned n)
{
    FILE *f = fopen("/proc/swaps", "r");
    if (!f)
        return -1;
    char line[4096], path[PATH_MAX];
    int found = -1;
    while (found < 0 && fgets(line, sizeof(line), f)) {
        struct stat st;
        if (sscanf(line, "%4095s", path) != 1 || stat(path, &st) < 0 || !S_ISBLK(st.st_mode))
            continue;
        for (unsigned i = 0; i < n; i++)
            if (st.st_rdev == nodes[i].dev)
                found = (int)i;
    }
    fclose(f);
    return found;
}

static bool holder(const struct devnode *n, char *who, size_t len)
{
    char h[PATH_MAX + 16];
    snprintf(h, sizeof(h), "%s/holders", n->sysdir);
    DIR *d = opendir(h);
    if (!d)
        return false;
    struct dirent *e;
    bool found = false;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        snprintf(who, len, "%s", e->d_name);
        found = true;
        break;
    }
    closedir(d);
    return found;
}

/* What matches in another process's descriptor table. */
struct fd_match {
    const struct devnode *nodes; /* block: the device and its partitions */
    unsigned n;
    const struct stat *file;     /* regular file: its device and inode */
};

static bool fd_matches(const struct stat *s, const struct fd_match *m)
{
    if (m->file)
        return S_ISREG(s->st_mode) && s->st_dev == m->file->st_dev && s->st_ino == m->file->st_ino;
    if (!S_ISBLK(s->st_mode))
        return false;
    for (unsigned i = 0; i < m->n; i++)
        if (s->st_rdev == m->nodes[i].dev)
            return true;
    return false;
}

/* Whether descriptor FD of the process whose /proc directory is pdir was
 * opened for writing (the "flags:" line of its fdinfo, octal). */
static bool fd_writes(int pdir, const char *fd)
{
    char file[300], buf[512];
    snprintf(file, sizeof(file), "fdinfo/%s", fd);
    int f = openat(pdir, file, O_RDONLY | O_CLOEXEC);
    if (f < 0)
        return false;
    ssize_t n = read(f, buf, sizeof(buf) - 1);
    close(f);
    if (n <= 0)
        return false;
    buf[n] = 0;
    const char *p = strstr(buf, "flags:");
    if (!p)
        return false;
    unsigned long flags = strtoul(p + 6, NULL, 8);
    return (flags & O_ACCMODE) != O_RDONLY;
}

/* Finds another process holding the target (or, for a device, one of its
 * partitions) open for writing: a database or ACT-style server on a raw
 * device, a virtual machine on an image file. Readers (udev's probes, a
 * backup) do not count, nor do other ssdbench processes (the same binary:
 * the ranks of one cluster run writing one shared file). Fills pid and its
 * command name. */
static bool open_for_write_elsewhere(const struct fd_match *m, long *pid, char *comm, size_t len)
{
    DIR *proc = opendir("/proc");
    if (!proc)
        return false;
    long self = (long)getpid();
    struct stat me;
    bool have_me = stat("/proc/self/exe", &me) == 0;
    bool found = false;
    struct dirent *e;
    while (!found && (e = readdir(proc))) {
        char *end;
        long p = strtol(e->d_name, &end, 10);
        if (*end || p <= 0 || p == self)
            continue;
        int pdir = openat(dirfd(proc), e->d_name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (pdir < 0)
            continue;
        struct stat ex;
        if (have_me && fstatat(pdir, "exe", &ex, 0) == 0 && ex.st_dev == me.st_dev && ex.st_ino == me.st_ino) {
            close(pdir);
            continue;
        }
        int fdd = openat(pdir, "fd", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        DIR *fds = fdd >= 0 ? fdopendir(fdd) : NULL;
        if (!fds && fdd >= 0)
            close(fdd);
        struct dirent *f;
        while (fds && !found && (f = readdir(fds))) {
            struct stat s;
            if (f->d_name[0] == '.' || fstatat(dirfd(fds), f->d_name, &s, 0) < 0)
                continue;
            if (fd_matches(&s, m) && fd_writes(pdir, f->d_name)) {
                found = true;
                *pid = p;
                snprintf(comm, len, "?");
                int c = openat(pdir, "comm", O_RDONLY | O_CLOEXEC);
                if (c >= 0) {
                    ssize_t n = read(c, comm, len - 1);
                    close(c);
                    if (n > 0) {
                        comm[n] = 0;
                        comm[strcspn(comm, "\n")] = 0;
                    }
                }
            }
        }
        if (fds)
            closedir(fds);
        close(pdir);
    }
    closedir(proc);
    return found;
}

/* Finds a use of the device or one of its partitions: mounted anywhere,
 * swap, or held. Fills msg with the refusal (no override offered). */
static bool in_use(const char *path, const struct devnode *nodes, unsigned n, char *msg,
                   size_t len)
{
    char where[PATH_MAX];
    long pid;
    int i = find_mount(nodes, n, where, sizeof(where), &pid);
    if (i >= 0) {
        char ns[64] = "";
        if (pid)
            snprintf(ns, sizeof(ns), " in the mount namespace of pid %ld", pid);
        snprintf(msg, len, "refusing to write to %s: %s is mounted on %s%s; unmount it first", path,
                 nodes[i].name, where, ns);
        return true;
    }
    if ((i = find_swap(nodes, n)) >= 0) {
        snprintf(msg, len, "refusing to write to %s: %s is in use as swap; swapoff it first", path,
                 nodes[i].name);
        return true;
    }
    for (unsigned k = 0; k < n; k++)
        if (nodes[k].sysdir[0] && holder(&nodes[k], where, sizeof(where))) {
            snprintf(msg, len,
                     "refusing to write to %s: %s is held by %s (LVM, md or device-mapper); "
                     "release it first",
                     path, nodes[k].name, where);
            return true;
        }
    struct fd_match m = {.nodes = nodes, .n = n};
    if (open_for_write_elsewhere(&m, &pid, where, sizeof(where))) {
        snprintf(msg, len, "refusing to write to %s: process %ld (%s) has it open for writing; stop it first",
                 path, pid, where);
        return true;
    }
    return false;
}

/* Whether loop device NAME (e.g. "loop3") is backed by the inode st names.
 * The kernel's own record (LOOP_GET_STATUS64: device and inode of the
 * backing file) is asked first, so a backing file renamed, deleted from its
 * directory or bound in another mount namespace is still found; the sysfs
 * path is the fall-back where /dev/NAME cannot be opened. A loop device set
 * to detach on last close is not opened (closing it could detach it). */
static bool loop_backs(const char *name, const struct stat *st)
{
    char dir[PATH_MAX], path[PATH_MAX];
    snprintf(dir, sizeof(dir), "/sys/block/%s/loop", name);
    if (!sysfs_attr(dir, "backing_file", path, sizeof(path)))
        return false; /* not bound */
    char ac[8];
    if (sysfs_attr(dir, "autoclear", ac, sizeof(ac)) && ac[0] == '0') {
        char dev[80];
        snprintf(dev, sizeof(dev), "/dev/%s", name);
        int fd = open(dev, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOFOLLOW);
        if (fd >= 0) {
            struct loop_info64 li;
            int rc = ioctl(fd, LOOP_GET_STATUS64, &li);
            close(fd);
            if (rc == 0) {
                /* the kernel encodes the device as new_encode_dev() */
                unsigned long long d = li.lo_device;
                dev_t ld = makedev((unsigned)((d & 0xfff00) >> 8),
                                   (unsigned)((d & 0xff) | ((d >> 12) & 0xfff00)));
                if (ld == st->st_dev && li.lo_inode == st->st_ino)
                    return true;
            }
        }
    }
    size_t n = strlen(path);
    const char *del = " (deleted)";
    if (n > strlen(del) && !strcmp(path + n - strlen(del), del))
        path[n - strlen(del)] = 0;
    struct stat bs;
    return stat(path, &bs) == 0 && bs.st_dev == st->st_dev && bs.st_ino == st->st_ino;
}

/* Finds a use of a regular file that a write would corrupt under a live
 * user: the backing file of a loop device (a file system or a layer above
 * may sit on it), or an active swap file. Fills msg (no override offered). */
static bool file_in_use(const struct stat *st, const char *path, char *msg, size_t len)
{
    DIR *d = opendir("/sys/block");
    if (d) {
        struct dirent *e;
        while ((e = readdir(d))) {
            if (strncmp(e->d_name, "loop", 4) || !isdigit((unsigned char)e->d_name[4]))
                continue;
            if (loop_backs(e->d_name, st)) {
                snprintf(msg, len,
                         "refusing to write to %s: it is the backing file of /dev/%s; detach it "
                         "first (losetup -d /dev/%s)",
                         path, e->d_name, e->d_name);
                closedir(d);
                return true;
            }
        }
        closedir(d);
    }
    FILE *f = fopen("/proc/swaps", "r");
    if (f) {
        char line[4096], sp[PATH_MAX];
        bool found = false;
        while (!found && fgets(line, sizeof(line), f)) {
            struct stat ss;
            if (sscanf(line, "%4095s", sp) == 1 && stat(sp, &ss) == 0 && S_ISREG(ss.st_mode) &&
                ss.st_dev == st->st_dev && ss.st_ino == st->st_ino)
                found = true;
        }
        fclose(f);
        if (found) {
            snprintf(msg, len, "refusing to write to %s: it is an active swap file; swapoff it first",
                     path);
            return true;
        }
    }
    struct fd_match m = {.file = st};
    long pid;
    char comm[64];
    if (open_for_write_elsewhere(&m, &pid, comm, sizeof(comm))) {
        snprintf(msg, len, "refusing to write to %s: process %ld (%s) has it open for writing; stop it first",
                 path, pid, comm);
        return true;
    }
    return false;
}

bool guard_explain_busy(dev_t rdev, const char *path, char *msg, size_t len)
{
    struct devnode nodes[MAX_NODES];
    unsigned n = list_nodes(rdev, nodes, MAX_NODES);
    if (in_use(path, nodes, n, msg, len))
        return true;
    snprintf(msg, len,
             "refusing to write to %s: it is in use (another program has it open exclusively, "
             "or it is mounted); stop that use first",
             path);
    return false;
}

static void describe(blkid_probe pr, char *what, size_t len)
{
    const char *type = NULL, *usage = NULL, *pttype = NULL;
    blkid_probe_lookup_value(pr, "TYPE", &type, NULL);
    blkid_probe_lookup_value(pr, "USAGE", &usage, NULL);
    blkid_probe_lookup_value(pr, "PTTYPE", &pttype, NULL);
    if (pttype) {
        snprintf(what, len, "a %s partition table", pttype);
        return;
    }
    const char *kind = "signature";
    if (usage && strcmp(usage, "filesystem") == 0)
        kind = "file system";
    else if (usage && strcmp(usage, "raid") == 0)
        kind = "RAID/LVM member signature";
    else if (usage && strcmp(usage, "crypto") == 0)
        kind = "encrypted volume signature";
    snprintf(what, len, "a %s %s", type ? type : "unknown", kind);
}

/* Asks libblkid, on the descriptor, for any file system, RAID/LVM member or
 * partition table in [off, off + size). GPT is looked for even without a
 * protective MBR (a wiped first sector). An ambivalent answer (two
 * signatures) and a failed probe count as found. */
static bool signature(int fd, uint64_t off, uint64_t size, char *what, size_t len)
{
    blkid_probe pr = blkid_new_probe();
    if (!pr) {
        snprintf(what, len, "content libblkid could not examine (out of memory)");
        return true;
    }
    bool found = false;
    if (blkid_probe_set_device(pr, fd, (blkid_loff_t)off, (blkid_loff_t)size) < 0) {
        snprintf(what, len, "content libblkid could not examine");
        found = true;
    } else {
        blkid_probe_enable_superblocks(pr, 1);
        blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_TYPE | BLKID_SUBLKS_USAGE);
        blkid_probe_enable_partitions(pr, 1);
        blkid_probe_set_partitions_flags(pr, BLKID_PARTS_MAGIC | BLKID_PARTS_FORCE_GPT);
        int rc = blkid_do_safeprobe(pr);
        if (rc == 0) {
            describe(pr, what, len);
            found = true;
        } else if (rc == -2) {
            snprintf(what, len, "more than one signature (libblkid: ambivalent result)");
            found = true;
        } else if (rc < 0) {
            snprintf(what, len, "content libblkid could not examine (probe failed)");
            found = true;
        }
    }
    blkid_free_probe(pr);
    return found;
}

static bool read_at(int fd, void *buf, size_t n, uint64_t off)
{
    return pread(fd, buf, n, (off_t)off) == (ssize_t)n;
}

bool guard_end_signature(int fd, uint64_t size, char *what, size_t len)
{
    unsigned char b[512];
    static const unsigned sector[] = {512, 4096};
    for (unsigned i = 0; i < 2; i++) {
        uint64_t s = sector[i];
        if (size < 3 * s)
            continue;
        if (read_at(fd, b, sizeof(b), size - s) && memcmp(b, "EFI PART", 8) == 0) {
            snprintf(what, len, "a backup GPT header in its last %u-byte sector", sector[i]);
            return true;
        }
        if (read_at(fd, b, sizeof(b), s) && memcmp(b, "EFI PART", 8) == 0) {
            snprintf(what, len, "a GPT header at %u bytes", sector[i]);
            return true;
        }
    }
    /* md 1.0: 8 KiB from the end, rounded down to 4 KiB; magic a92b4efc LE */
    uint64_t sectors = size / 512;
    if (sectors >= 32) {
        uint64_t off = ((sectors - 16) & ~(uint64_t)7) * 512;
        if (read_at(fd, b, 4, off) && b[0] == 0xfc && b[1] == 0x4e && b[2] == 0x2b && b[3] == 0xa9) {
            snprintf(what, len, "an md RAID (1.0) superblock near its end");
            return true;
        }
    }
    return false;
}

static int refuse(char *msg, size_t len, const char *path, const char *found,
                  const struct guard_consent *c)
{
    snprintf(msg, len, "refusing to write to %s: %s; to destroy its contents, add %s=%s", path,
             found, c && c->option ? c->option : "--destroy", path);
    return -EPERM;
}

static int check_block(int fd, const struct stat *st, const char *path,
                       const struct guard_consent *c, char *msg, size_t len)
{
    struct devnode nodes[MAX_NODES];
    unsigned n = list_nodes(st->st_rdev, nodes, MAX_NODES);
    /* In use is refused whatever the consent: the write would corrupt a
     * live file system or a layer above. */
    if (in_use(path, nodes, n, msg, len))
        return -EPERM;
    if (guard_consented_st(st, c))
        return 0;
    uint64_t size = 0;
    off_t end = lseek(fd, 0, SEEK_END);
    if (end > 0)
        size = (uint64_t)end;
    lseek(fd, 0, SEEK_SET);
    char what[256], found[400];
    if (signature(fd, 0, 0, what, sizeof(what)) ||
        guard_end_signature(fd, size, what, sizeof(what))) {
        snprintf(found, sizeof(found), "it holds %s", what);
        return refuse(msg, len, path, found, c);
    }
    for (unsigned i = 1; i < n; i++) {
        if (!nodes[i].size || nodes[i].start + nodes[i].size > size)
            continue;
        if (signature(fd, nodes[i].start, nodes[i].size, what, sizeof(what))) {
            snprintf(found, sizeof(found), "its partition %s holds %s", nodes[i].name, what);
            return refuse(msg, len, path, found, c);
        }
    }
    return 0;
}

int guard_check_fd(int fd, const struct stat *st, const char *path,
                   const struct guard_consent *c, bool *ours, char *msg, size_t len)
{
    *ours = false;
    if (S_ISBLK(st->st_mode))
        return check_block(fd, st, path, c, msg, len);
    if (S_ISREG(st->st_mode)) {
        /* in use is refused whatever the mark or the consent */
        if (file_in_use(st, path, msg, len))
            return -EPERM;
        if (target_fd_is_ours(fd)) {
            *ours = true;
            return 0;
        }
        if (guard_consented_st(st, c))
            return 0;
        char found[128];
        snprintf(found, sizeof(found),
                 "it is an existing file of %lld bytes that ssdbench did not create (or that "
                 "changed since ssdbench last closed it)",
                 (long long)st->st_size);
        return refuse(msg, len, path, found, c);
    }
    snprintf(msg, len, "%s: not a regular file or block device", path);
    return -EINVAL;
}
