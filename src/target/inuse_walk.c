/* inuse_walk.c - see inuse_walk.h. Builds the stack of storage items the
 * target's writes reach, then judges every use of any of them. */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
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
#include "target/inuse_parse.h"
#include "target/inuse_proc.h"
#include "target/inuse_walk.h"

#define MAX_PARTS 128    /* nodes of one device */
#define MAX_ITEMS 24     /* items of one stack */
#define MAX_FLAT 512     /* nodes of all block items */
#define MAX_NAMESPACES 1024

/* ---- sysfs nodes */

static int sysfs_dir(dev_t dev, struct inuse_node *n)
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
    char v[32];
    return sysfs_attr(dir, name, v, sizeof(v)) ? strtoull(v, NULL, 10) : 0;
}

static bool read_dev(const char *dir, dev_t *dev)
{
    char v[32];
    unsigned ma, mi;
    if (!sysfs_attr(dir, "dev", v, sizeof(v)) || sscanf(v, "%u:%u", &ma, &mi) != 2)
        return false;
    *dev = makedev(ma, mi);
    return true;
}

unsigned inuse_list_nodes(dev_t dev, struct inuse_node *out, unsigned max)
{
    memset(&out[0], 0, sizeof(out[0]));
    if (sysfs_dir(dev, &out[0]) < 0) {
        snprintf(out[0].name, sizeof(out[0].name), "%u:%u", major(dev), minor(dev));
        out[0].sysdir[0] = 0;
        out[0].dev = dev;
        return 1;
    }
    unsigned n = 1;
    char top[PATH_MAX];
    snprintf(top, sizeof(top), "%s", out[0].sysdir);
    DIR *d = opendir(top);
    if (!d)
        return n;
    struct dirent *e;
    while ((e = readdir(d)) && n < max) {
        if (e->d_name[0] == '.')
            continue;
        struct inuse_node *p = &out[n];
        memset(p, 0, sizeof(*p));
        snprintf(p->sysdir, sizeof(p->sysdir), "%.*s/%s", PATH_MAX - 300, top, e->d_name);
        char f[PATH_MAX + 16];
        snprintf(f, sizeof(f), "%s/partition", p->sysdir);
        if (access(f, F_OK) != 0 || !read_dev(p->sysdir, &p->dev))
            continue;
        snprintf(p->name, sizeof(p->name), "%s", e->d_name);
        /* sysfs counts partition start and size in 512-byte sectors */
        p->start = read_u64(p->sysdir, "start") * 512;
        p->size = read_u64(p->sysdir, "size") * 512;
        n++;
    }
    closedir(d);
    return n;
}

/* ---- loop devices, as the kernel records them */

struct loopdev {
    char name[32];
    dev_t rdev;
    bool known;             /* LOOP_GET_STATUS64 answered */
    dev_t bdev;             /* backing file: its device and inode */
    ino_t bino;
    dev_t brdev;            /* backing block device: its number, else 0 */
    uint64_t offset, sizelimit;
    char file[PATH_MAX];    /* sysfs backing_file, " (deleted)" removed */
    bool deleted;
};

/* Every bound loop device. Each is opened read-only to ask the driver
 * (a loop set to detach on last close is always open by someone while
 * bound, so this open is never the last). */
static unsigned load_loops(struct loopdev **out)
{
    *out = NULL;
    DIR *d = opendir("/sys/block");
    if (!d)
        return 0;
    unsigned n = 0, cap = 0;
    struct loopdev *l = NULL;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (strncmp(e->d_name, "loop", 4) || !isdigit((unsigned char)e->d_name[4]))
            continue;
        char dir[PATH_MAX], file[PATH_MAX];
        snprintf(dir, sizeof(dir), "/sys/block/%s/loop", e->d_name);
        if (!sysfs_attr(dir, "backing_file", file, sizeof(file)))
            continue; /* not bound */
        if (n == cap) {
            struct loopdev *nl = realloc(l, (cap = cap ? 2 * cap : 16) * sizeof(*l));
            if (!nl)
                break;
            l = nl;
        }
        struct loopdev *p = &l[n];
        memset(p, 0, sizeof(*p));
        snprintf(p->name, sizeof(p->name), "%s", e->d_name);
        snprintf(dir, sizeof(dir), "/sys/block/%s", e->d_name);
        if (!read_dev(dir, &p->rdev))
            continue;
        snprintf(p->file, sizeof(p->file), "%s", file);
        p->deleted = inuse_strip_deleted(p->file);
        char node[64];
        snprintf(node, sizeof(node), "/dev/%s", e->d_name);
        int fd = open(node, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOFOLLOW);
        struct stat st;
        struct loop_info64 li;
        if (fd >= 0 && fstat(fd, &st) == 0 && S_ISBLK(st.st_mode) && st.st_rdev == p->rdev &&
            ioctl(fd, LOOP_GET_STATUS64, &li) == 0) {
            p->known = true;
            p->bdev = inuse_decode_dev(li.lo_device);
            p->bino = (ino_t)li.lo_inode;
            p->brdev = inuse_decode_dev(li.lo_rdevice);
            p->offset = li.lo_offset;
            p->sizelimit = li.lo_sizelimit;
        } else {
            p->offset = read_u64(dir, "loop/offset");
            p->sizelimit = read_u64(dir, "loop/sizelimit");
        }
        if (fd >= 0)
            close(fd);
        n++;
    }
    closedir(d);
    *out = l;
    return n;
}

/* ---- the stack */

struct item {
    bool block;
    dev_t rdev;             /* block */
    dev_t dev;              /* file */
    ino_t ino;
    char name[64];          /* block: kernel name */
    char role[PATH_MAX + 96]; /* "" for the target, else how it relates to it */
    bool parts;             /* its partitions count too */
    bool ranged;            /* a whole disk: only [start, start + len) is reached */
    uint64_t start, len;
    char excuse_holder[64]; /* the device above that holds it by design */
    dev_t excuse_loop;      /* the loop above that uses it by design */
};

struct walk {
    struct item it[MAX_ITEMS];
    unsigned n;
    struct loopdev *loops;
    unsigned nloops;
    struct inuse_node flat[MAX_FLAT];
    unsigned nflat;
    char limit[512];        /* what could not be seen: the verdict is "cannot tell" */
    unsigned unknown_loops; /* loop devices that could not be identified */
    char unknown_loop[32];  /* the first */
    char note[512];         /* what could not be seen but does not stop a write */
    const char *path;
};

static void add_limit(struct walk *w, const char *what)
{
    size_t l = strlen(w->limit);
    if (l + 3 < sizeof(w->limit))
        snprintf(w->limit + l, sizeof(w->limit) - l, "%s%s", l ? "; " : "", what);
}

static struct item *add_item(struct walk *w, bool block, dev_t rdev, dev_t dev, ino_t ino)
{
    for (unsigned i = 0; i < w->n; i++) {
        struct item *o = &w->it[i];
        if (o->block == block && (block ? o->rdev == rdev : o->dev == dev && o->ino == ino))
            return NULL; /* already in the stack */
    }
    if (w->n == MAX_ITEMS) {
        add_limit(w, "the storage stack is deeper than ssdbench follows");
        return NULL;
    }
    struct item *it = &w->it[w->n++];
    memset(it, 0, sizeof(*it));
    it->block = block;
    it->rdev = rdev;
    it->dev = dev;
    it->ino = ino;
    return it;
}

static struct item *add_block(struct walk *w, dev_t rdev, bool parts)
{
    for (unsigned i = 0; i < w->n; i++)
        if (w->it[i].block && w->it[i].rdev == rdev && parts) {
            w->it[i].parts = true; /* reached whole now: every byte counts */
            w->it[i].ranged = false;
        }
    struct item *it = add_item(w, true, rdev, 0, 0);
    if (it) {
        struct inuse_node nd;
        if (sysfs_dir(rdev, &nd) == 0)
            snprintf(it->name, sizeof(it->name), "%s", nd.name);
        else
            snprintf(it->name, sizeof(it->name), "%u:%u", major(rdev), minor(rdev));
        it->parts = parts;
    }
    return it;
}

static const struct loopdev *loop_of(const struct walk *w, dev_t rdev)
{
    for (unsigned i = 0; i < w->nloops; i++)
        if (w->loops[i].rdev == rdev)
            return &w->loops[i];
    return NULL;
}

/* Adds what lies below and beside block item i. */
static void expand(struct walk *w, unsigned i)
{
    struct item cur = w->it[i];
    struct inuse_node self;
    if (sysfs_dir(cur.rdev, &self) < 0)
        return;
    char f[PATH_MAX + 16];
    snprintf(f, sizeof(f), "%s/partition", self.sysdir);
    if (access(f, F_OK) == 0) {
        /* a partition: its whole disk (the bytes it spans) and the
         * partitions overlapping it */
        uint64_t start = read_u64(self.sysdir, "start") * 512, len = read_u64(self.sysdir, "size") * 512;
        char pdir[PATH_MAX];
        snprintf(pdir, sizeof(pdir), "%s", self.sysdir);
        char *slash = strrchr(pdir, '/');
        dev_t disk;
        if (slash && (*slash = 0, read_dev(pdir, &disk))) {
            struct item *d = add_block(w, disk, false);
            if (d) {
                d->ranged = true;
                d->start = start;
                d->len = len;
                snprintf(d->role, sizeof(d->role), "its whole disk %s", d->name);
            }
            struct inuse_node *sib = malloc(MAX_PARTS * sizeof(*sib));
            unsigned ns = sib ? inuse_list_nodes(disk, sib, MAX_PARTS) : 0;
            for (unsigned k = 1; k < ns; k++) {
                if (sib[k].dev == cur.rdev ||
                    !inuse_ranges_overlap(sib[k].start, sib[k].size, start, len))
                    continue;
                struct item *s = add_block(w, sib[k].dev, false);
                if (s)
                    snprintf(s->role, sizeof(s->role), "the partition %s overlapping it", s->name);
            }
            free(sib);
        }
    }
    const struct loopdev *l = loop_of(w, cur.rdev);
    if (l && !l->known) {
        char what[PATH_MAX + 96];
        snprintf(what, sizeof(what), "the backing of loop device %s could not be asked (/dev/%s not openable)",
                 l->name, l->name);
        add_limit(w, what);
    } else if (l && l->brdev) {
        struct item *b = add_block(w, l->brdev, true);
        if (b) {
            b->excuse_loop = cur.rdev;
            snprintf(b->role, sizeof(b->role), "the backing device %s of %s", b->name, cur.name);
        }
    } else if (l) {
        struct item *b = add_item(w, false, 0, l->bdev, l->bino);
        if (b) {
            b->excuse_loop = cur.rdev;
            snprintf(b->role, sizeof(b->role), "the backing file %s%s (inode %llu) of %s", l->file,
                     l->deleted ? " (deleted)" : "", (unsigned long long)l->bino, cur.name);
        }
    }
    snprintf(f, sizeof(f), "%s/slaves", self.sysdir);
    DIR *d = opendir(f);
    struct dirent *e;
    while (d && (e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        char sd[PATH_MAX + 300];
        snprintf(sd, sizeof(sd), "%s/%s", f, e->d_name);
        dev_t sdev;
        if (!read_dev(sd, &sdev))
            continue;
        struct item *s = add_block(w, sdev, true);
        if (s) {
            snprintf(s->excuse_holder, sizeof(s->excuse_holder), "%s", cur.name);
            snprintf(s->role, sizeof(s->role), "the component %s of %s", s->name, cur.name);
        }
    }
    if (d)
        closedir(d);
}

static void build(struct walk *w, const struct stat *st)
{
    if (S_ISBLK(st->st_mode))
        add_block(w, st->st_rdev, true);
    else
        add_item(w, false, 0, st->st_dev, st->st_ino);
    for (unsigned i = 0; i < w->n; i++)
        if (w->it[i].block)
            expand(w, i);
    /* the nodes of every block item, for the passes below */
    for (unsigned i = 0; i < w->n; i++) {
        const struct item *it = &w->it[i];
        if (!it->block)
            continue;
        struct inuse_node *nd = malloc(MAX_PARTS * sizeof(*nd));
        if (!nd)
            continue;
        unsigned k = inuse_list_nodes(it->rdev, nd, it->parts ? MAX_PARTS : 1);
        for (unsigned j = 0; j < k && w->nflat < MAX_FLAT; j++) {
            nd[j].item = i;
            w->flat[w->nflat++] = nd[j];
        }
        free(nd);
    }
}

/* How a message names a node or an item: the target's own by name
 * ("loop3p1 is mounted"), others by their role. */
static void subject(const struct walk *w, const struct inuse_node *n, bool it_for_self, char *out,
                    size_t len)
{
    const struct item *it = &w->it[n->item];
    if (!it->role[0] && it_for_self && n->dev == it->rdev)
        snprintf(out, len, "it");
    else if (!it->role[0])
        snprintf(out, len, "%s", n->name);
    else if (n->dev == it->rdev)
        snprintf(out, len, "%s", it->role);
    else
        snprintf(out, len, "partition %s of %s", n->name, it->role);
}

static void item_subject(const struct item *it, char *out, size_t len)
{
    snprintf(out, len, "%s", it->role[0] ? it->role : "it");
}

/* ---- uses from above */

/* Searches one mountinfo file for any of the nodes; field 3 is the mounted
 * file system's device number. */
static int scan_mountinfo(const char *file, const struct inuse_node *nodes, unsigned n, char *where,
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
                char un[PATH_MAX];
                inuse_unescape(mnt, un, sizeof(un));
                snprintf(where, len, "%s", un);
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
static int find_mount(const struct inuse_node *nodes, unsigned n, char *where, size_t len, long *pid)
{
    *pid = 0;
    int i = scan_mountinfo("/proc/self/mountinfo", nodes, n, where, len);
    if (i >= 0)
        return i;
    struct stat own;
    ino_t *seen = malloc(MAX_NAMESPACES * sizeof(*seen));
    unsigned nseen = 0;
    if (!seen)
        return -1;
    if (stat("/proc/self/ns/mnt", &own) == 0)
        seen[nseen++] = own.st_ino;
    DIR *d = opendir("/proc");
    struct dirent *e;
    while (d && (e = readdir(d))) {
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
    if (d)
        closedir(d);
    free(seen);
    return i;
}

/* An active swap area: a block node (by number) or a file (by inode). */
static bool swap_is(const struct stat *sw, const struct inuse_node *n, const struct item *f)
{
    if (n)
        return S_ISBLK(sw->st_mode) && sw->st_rdev == n->dev;
    return S_ISREG(sw->st_mode) && sw->st_dev == f->dev && sw->st_ino == f->ino;
}

static bool find_swap(const struct walk *w, char *msg, size_t len)
{
    FILE *f = fopen("/proc/swaps", "r");
    if (!f)
        return false;
    char line[4096], path[PATH_MAX];
    bool found = false;
    while (!found && fgets(line, sizeof(line), f)) {
        struct stat st;
        char un[PATH_MAX];
        if (sscanf(line, "%4095s", path) != 1)
            continue;
        inuse_unescape(path, un, sizeof(un));
        if (stat(un, &st) < 0)
            continue;
        char who[PATH_MAX + 200];
        for (unsigned i = 0; i < w->nflat && !found; i++)
            if (swap_is(&st, &w->flat[i], NULL)) {
                subject(w, &w->flat[i], false, who, sizeof(who));
                snprintf(msg, len, "refusing to write to %s: %s is in use as swap; swapoff it first",
                         w->path, who);
                found = true;
            }
        for (unsigned i = 0; i < w->n && !found; i++)
            if (!w->it[i].block && swap_is(&st, NULL, &w->it[i])) {
                item_subject(&w->it[i], who, sizeof(who));
                snprintf(msg, len, "refusing to write to %s: %s is an active swap file; swapoff it first",
                         w->path, who);
                found = true;
            }
    }
    fclose(f);
    return found;
}

static bool find_holder(const struct walk *w, char *msg, size_t len)
{
    for (unsigned i = 0; i < w->nflat; i++) {
        const struct inuse_node *n = &w->flat[i];
        if (!n->sysdir[0])
            continue;
        char h[PATH_MAX + 16];
        snprintf(h, sizeof(h), "%s/holders", n->sysdir);
        DIR *d = opendir(h);
        if (!d)
            continue;
        struct dirent *e;
        while ((e = readdir(d))) {
            if (e->d_name[0] == '.' || !strcmp(e->d_name, w->it[n->item].excuse_holder))
                continue;
            char who[PATH_MAX + 200];
            subject(w, n, false, who, sizeof(who));
            snprintf(msg, len,
                     "refusing to write to %s: %s is held by %s (LVM, md or device-mapper); "
                     "release it first",
                     w->path, who, e->d_name);
            closedir(d);
            return true;
        }
        closedir(d);
    }
    return false;
}

/* Whether loop l is over item it (one of its nodes, or the bytes of a
 * whole disk the target spans). -1: cannot tell. */
static int loop_over(const struct walk *w, const struct loopdev *l, unsigned item)
{
    const struct item *it = &w->it[item];
    if (l->rdev == it->excuse_loop)
        return 0;
    struct stat st;
    bool have = false;
    if (!l->known) {
        if (l->deleted || stat(l->file, &st) < 0)
            return -1;
        have = true;
    }
    if (!it->block) {
        if (l->known)
            return l->bdev == it->dev && l->bino == it->ino;
        return S_ISREG(st.st_mode) && st.st_dev == it->dev && st.st_ino == it->ino;
    }
    dev_t over = l->known ? l->brdev : (have && S_ISBLK(st.st_mode) ? st.st_rdev : 0);
    if (!over)
        return 0;
    for (unsigned i = 0; i < w->nflat; i++) {
        const struct inuse_node *n = &w->flat[i];
        if (n->item != item || n->dev != over)
            continue;
        if (it->ranged && n->dev == it->rdev &&
            !inuse_ranges_overlap(l->offset, l->sizelimit, it->start, it->len))
            return 0;
        return 1;
    }
    return 0;
}

static bool find_loop(struct walk *w, char *msg, size_t len)
{
    for (unsigned i = 0; i < w->n; i++)
        for (unsigned k = 0; k < w->nloops; k++) {
            const struct loopdev *l = &w->loops[k];
            int r = loop_over(w, l, i);
            if (r < 0) {
                if (!w->unknown_loops++)
                    snprintf(w->unknown_loop, sizeof(w->unknown_loop), "%s", l->name);
                continue;
            }
            if (!r)
                continue;
            /* what sits on that loop, for the message */
            char on[PATH_MAX + 128] = "";
            struct inuse_node *nd = malloc(MAX_PARTS * sizeof(*nd));
            if (nd) {
                unsigned nn = inuse_list_nodes(l->rdev, nd, MAX_PARTS);
                char where[PATH_MAX];
                long pid;
                int m = find_mount(nd, nn, where, sizeof(where), &pid);
                if (m >= 0)
                    snprintf(on, sizeof(on), ", which is mounted on %.*s%s", PATH_MAX, where,
                             m > 0 ? " (a partition of it)" : "");
                free(nd);
            }
            char who[PATH_MAX + 200];
            item_subject(&w->it[i], who, sizeof(who));
            snprintf(msg, len,
                     "refusing to write to %s: %s is %sthe backing %s of /dev/%s (at offset %llu)%s; "
                     "detach it first (losetup -d /dev/%s)",
                     w->path, who, w->it[i].role[0] ? "also " : "",
                     w->it[i].block ? "device" : "file", l->name, (unsigned long long)l->offset, on,
                     l->name);
            return true;
        }
    return false;
}

/* The kernel's count: a write lease is granted only while no one else has
 * the file open (any process, namespace or kernel user, mappings and
 * io_uring registrations included). 1 granted (and released at once), 0
 * refused because others have it open, -1 cannot tell (not the owner
 * without CAP_LEASE, a file system without leases). A lease-break signal
 * during the instant it is held is SIGURG, ignored by default. */
static int sole_opener(int fd)
{
    int sig = fcntl(fd, F_GETSIG);
    if (sig < 0 || fcntl(fd, F_SETSIG, SIGURG) < 0)
        return -1;
    int rc = fcntl(fd, F_SETLEASE, F_WRLCK);
    int e = errno;
    if (rc == 0)
        fcntl(fd, F_SETLEASE, F_UNLCK);
    fcntl(fd, F_SETSIG, sig);
    return rc == 0 ? 1 : e == EAGAIN ? 0 : -1;
}

static bool find_process(struct walk *w, int fd, bool lease_failed, char *msg, size_t len)
{
    struct inuse_id ids[MAX_FLAT + MAX_ITEMS];
    unsigned n = 0;
    for (unsigned i = 0; i < w->nflat; i++)
        ids[n++] = (struct inuse_id){.block = true, .rdev = w->flat[i].dev, .name = w->flat[i].name, .item = i};
    const char *base = strrchr(w->path, '/');
    base = base ? base + 1 : w->path;
    for (unsigned i = 0; i < w->n; i++)
        if (!w->it[i].block)
            ids[n++] = (struct inuse_id){.dev = w->it[i].dev, .ino = w->it[i].ino,
                                         .name = w->it[i].role[0] ? NULL : base, .item = i};
    struct inuse_proc_result r;
    inuse_proc_scan(ids, n, fd, &r);
    if (r.found) {
        const struct inuse_id *id = &ids[r.hit.id];
        char who[PATH_MAX + 200];
        if (id->block)
            subject(w, &w->flat[id->item], true, who, sizeof(who));
        else
            item_subject(&w->it[id->item], who, sizeof(who));
        if (r.hit.how == INUSE_FD_WRITE)
            snprintf(msg, len, "refusing to write to %s: process %ld (%s) has %s open for writing; stop it first",
                     w->path, r.hit.pid, r.hit.comm, who);
        else if (r.hit.how == INUSE_MAP_SHARED)
            snprintf(msg, len,
                     "refusing to write to %s: process %ld (%s) maps %s shared and writable (a "
                     "mapping outlives its descriptor); stop it first",
                     w->path, r.hit.pid, r.hit.comm, who);
        else
            snprintf(msg, len,
                     "refusing to write to %s: process %ld (%s) has %s registered with its io_uring "
                     "instance (descriptor %d); stop it first",
                     w->path, r.hit.pid, r.hit.comm, who, r.hit.fd);
        return true;
    }
    if (r.limit[0] && r.strict)
        add_limit(w, r.limit);
    else if (r.limit[0])
        snprintf(w->note, sizeof(w->note), "%s", r.limit);
    if (lease_failed && !r.excused && !r.reader) {
        /* io_uring drops the files of a ring closed a moment ago
         * asynchronously: ask the kernel again for up to 2 s */
        for (int i = 0; i < 100; i++) {
            usleep(20000);
            if (sole_opener(fd) == 1) {
                /* the kernel's count settles it: no process, loop or other
                 * kernel user has the file open */
                w->note[0] = w->limit[0] = 0;
                w->unknown_loops = 0;
                return false;
            }
        }
        if (r.limit[0]) {
            add_limit(w, r.limit);
            return false;
        }
        snprintf(msg, len,
                 "refusing to write to %s: it is open elsewhere, but by nothing a process shows (a "
                 "kernel user such as nfsd, or a descriptor in flight); stop that use first",
                 w->path);
        return true;
    }
    return false;
}

int guard_in_use(int fd, const struct stat *st, const char *path, char *msg, size_t len)
{
    if (len)
        msg[0] = 0;
    int lease = -1;
    if (S_ISREG(st->st_mode) && fd >= 0 && (lease = sole_opener(fd)) == 1)
        return 0; /* no one else has it open: nothing above it, no writer */
    struct walk *w = calloc(1, sizeof(*w));
    if (!w) {
        snprintf(msg, len, "refusing to write to %s: cannot tell whether it is in use (out of memory)",
                 path);
        return 2;
    }
    w->path = path;
    w->nloops = load_loops(&w->loops);
    build(w, st);
    char where[PATH_MAX];
    long pid;
    int rc = 0, i;
    if (w->nflat && (i = find_mount(w->flat, w->nflat, where, sizeof(where), &pid)) >= 0) {
        char ns[64] = "", who[PATH_MAX + 200];
        if (pid)
            snprintf(ns, sizeof(ns), " in the mount namespace of pid %ld", pid);
        subject(w, &w->flat[i], false, who, sizeof(who));
        snprintf(msg, len, "refusing to write to %s: %s is mounted on %s%s; unmount it first", path,
                 who, where, ns);
        rc = 1;
    } else if (find_swap(w, msg, len) || find_holder(w, msg, len) || find_loop(w, msg, len) ||
               find_process(w, fd, lease == 0, msg, len)) {
        rc = 1;
    }
    if (rc == 1) {
        size_t l = strlen(msg);
        snprintf(msg + l, len - l, " (in use: consent does not override this)");
    } else if (w->limit[0] || w->unknown_loops) {
        if (w->unknown_loops) {
            char what[160];
            snprintf(what, sizeof(what),
                     "%u loop device%s (e.g. %s) could not be asked for %s backing (not openable)",
                     w->unknown_loops, w->unknown_loops == 1 ? "" : "s", w->unknown_loop,
                     w->unknown_loops == 1 ? "its" : "their");
            add_limit(w, what);
        }
        snprintf(msg, len,
                 "refusing to write to %s: cannot tell whether it is in use%s: %s; run ssdbench as "
                 "root in the host's PID namespace to check it (consent does not override this)",
                 path, lease == 0 ? " (another process has it open)" : "", w->limit);
        rc = 2;
    } else if (w->note[0]) {
        snprintf(msg, len, "%s: the in-use check could not see everything: %s", path, w->note);
    }
    free(w->loops);
    free(w);
    return rc;
}
