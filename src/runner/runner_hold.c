/* runner_hold.c - see runner_hold.h. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "base/sizefmt.h"
#include "runner/runner_hold.h"

void runner_hold_init(struct runner_hold *h)
{
    memset(h, 0, sizeof(*h));
    for (unsigned i = 0; i < GUARD_MAX_CONSENT; i++)
        h->consent_fd[i] = -1;
}

static struct runner_hold_ent *find(struct runner_hold *h, const char *path)
{
    for (unsigned i = 0; h && i < h->n; i++)
        if (!strcmp(h->e[i].path, path))
            return &h->e[i];
    return NULL;
}

int runner_hold_add(struct runner_hold *h, const char *path, bool write, uint64_t create_size)
{
    struct runner_hold_ent *e = find(h, path);
    if (!e) {
        if (h->n == h->cap) {
            unsigned cap = h->cap ? 2 * h->cap : 8;
            struct runner_hold_ent *ne = realloc(h->e, cap * sizeof(*ne));
            if (!ne)
                return -ENOMEM;
            h->e = ne;
            h->cap = cap;
        }
        e = &h->e[h->n++];
        memset(e, 0, sizeof(*e));
        e->t.fd = -1;
        snprintf(e->path, sizeof(e->path), "%s", path);
    }
    e->write = e->write || write;
    if (create_size > e->create_size)
        e->create_size = create_size;
    return 0;
}

int runner_hold_add_chardev(struct runner_hold *h, const char *path, bool write)
{
    if (runner_hold_add(h, path, write, 0) < 0)
        return -ENOMEM;
    find(h, path)->chardev = true;
    return 0;
}

/* Each consent path as it names something now: an O_PATH descriptor
 * (following links, as the consent's stat did), matched later through
 * /proc/self/fd/N; a path naming nothing consents to nothing. */
static void bind_consent(struct runner_hold *h, const struct guard_consent *c)
{
    h->consent.n = 0;
    h->consent.option = c ? c->option : NULL;
    for (unsigned i = 0; c && i < c->n && i < GUARD_MAX_CONSENT; i++) {
        int fd = open(c->paths[i], O_PATH | O_CLOEXEC);
        h->consent_fd[i] = fd;
        if (fd >= 0)
            snprintf(h->consent_path[i], sizeof(h->consent_path[i]), "/proc/self/fd/%d", fd);
        else
            h->consent_path[i][0] = 0;
        h->consent.paths[h->consent.n++] = h->consent_path[i];
    }
}

/* The directory a new file would be created in. */
static void parent_dir(const char *path, char *dir, size_t len)
{
    const char *s = strrchr(path, '/');
    if (!s)
        snprintf(dir, len, ".");
    else if (s == path)
        snprintf(dir, len, "/");
    else
        snprintf(dir, len, "%.*s", (int)(s - path), path);
}

/* The files the plan will create must fit the free space of their file
 * systems (summed per file system), checked before any is created. */
static int check_space(struct runner_hold *h, char *err, size_t errlen)
{
    for (unsigned i = 0; i < h->n; i++) {
        struct runner_hold_ent *e = &h->e[i];
        if (!e->is_new || !e->create_size)
            continue;
        char dir[JOB_PATH_MAX];
        struct stat ds;
        struct statvfs vfs;
        parent_dir(e->path, dir, sizeof(dir));
        if (stat(dir, &ds) < 0 || statvfs(dir, &vfs) < 0)
            continue; /* a directory a phase makes (file sets): judged when made */
        uint64_t need = 0;
        bool first = true;
        for (unsigned k = 0; k < h->n; k++) {
            struct runner_hold_ent *o = &h->e[k];
            char od[JOB_PATH_MAX];
            struct stat os;
            if (!o->is_new || !o->create_size)
                continue;
            parent_dir(o->path, od, sizeof(od));
            if (stat(od, &os) < 0 || os.st_dev != ds.st_dev)
                continue;
            if (k < i)
                first = false; /* this file system was judged with an earlier file */
            need = need + o->create_size < need ? UINT64_MAX : need + o->create_size;
        }
        uint64_t avail = (uint64_t)vfs.f_bavail * vfs.f_frsize;
        if (first && need > avail) {
            char a[32], b[32];
            sizefmt_binary(a, sizeof(a), (double)need, "B");
            sizefmt_binary(b, sizeof(b), (double)avail, "B");
            snprintf(err, errlen,
                     "%s: the new file%s of this run need%s %llu bytes (%s) but the file system of %s "
                     "has %llu bytes (%s) free; use a smaller --size",
                     e->path, need > e->create_size ? "s" : "", need > e->create_size ? "" : "s",
                     (unsigned long long)need, a, dir,
                     (unsigned long long)avail, b);
            return -ENOSPC;
        }
    }
    return 0;
}

int runner_hold_judge(struct runner_hold *h, const struct guard_consent *c, char *err, size_t errlen)
{
    bind_consent(h, c);
    for (unsigned i = 0; i < h->n; i++) {
        struct runner_hold_ent *e = &h->e[i];
        struct stat st;
        if (lstat(e->path, &st) < 0 && errno == ENOENT) {
            e->is_new = true;
            continue;
        }
        /* a block device that another name of this plan already holds:
         * shared at the phase (a second O_EXCL open would fail) */
        struct stat fs;
        if (stat(e->path, &fs) == 0 && S_ISBLK(fs.st_mode)) {
            bool dup = false;
            for (unsigned k = 0; k < i; k++)
                if (h->e[k].held && h->e[k].t.info.kind == TARGET_BLOCK &&
                    makedev(h->e[k].t.info.major, h->e[k].t.info.minor) == fs.st_rdev &&
                    (h->e[k].write || !e->write))
                    dup = true;
            if (dup)
                continue;
        }
        struct target_open_opts o = {.write = e->write, .consent = &h->consent, .chardev = e->chardev};
        int rc = target_open(&e->t, e->path, &o, err, errlen);
        if (rc == -ENOENT) {
            e->is_new = true;
            continue;
        }
        if (rc < 0)
            return rc;
        if (e->t.info.kind == TARGET_FILE) {
            /* a file: its identity is kept, not its descriptor (a plan
             * may name thousands); the phase's open must find that file */
            e->known = true;
            e->t.write = false; /* no mark renewed for a look */
            target_close(&e->t, false);
            continue;
        }
        e->held = true;
    }
    return check_space(h, err, errlen);
}

/* A held block device with the device number of st (another name for it). */
static struct runner_hold_ent *find_dev(struct runner_hold *h, dev_t rdev)
{
    for (unsigned i = 0; h && i < h->n; i++)
        if (h->e[i].held && h->e[i].t.info.kind == TARGET_BLOCK &&
            makedev(h->e[i].t.info.major, h->e[i].t.info.minor) == rdev)
            return &h->e[i];
    return NULL;
}

static int share(struct runner_hold_ent *e, struct target *t, const char *path,
                 const struct target_open_opts *o, char *err, size_t errlen)
{
    int rc = target_share(t, path, &e->t, o, err, errlen);
    if (rc < 0)
        return rc;
    /* an earlier phase may have grown the file */
    struct stat st;
    if (e->t.info.kind == TARGET_FILE && fstat(t->fd, &st) == 0)
        t->info.size = (uint64_t)st.st_size;
    t->dev = e->t.dev;
    t->ino = e->t.ino;
    return 0;
}

int runner_hold_open(struct runner_hold *h, struct target *t, const char *path,
                     const struct target_open_opts *o, char *err, size_t errlen)
{
    if (!h)
        return target_open(t, path, o, err, errlen);
    struct runner_hold_ent *e = find(h, path);
    if (!e || !e->held) {
        struct stat st;
        struct runner_hold_ent *d = stat(path, &st) == 0 && S_ISBLK(st.st_mode) ? find_dev(h, st.st_rdev)
                                                                                : NULL;
        if (d && (d->write || !o->write))
            e = d;
    }
    if (e && e->held && (e->write || !o->write))
        return share(e, t, path, o, err, errlen);
    int rc = target_open(t, path, o, err, errlen);
    if (rc < 0 || !e)
        return rc;
    /* a name the plan saw missing: the file a phase created, or a new one */
    if (t->info.created) {
        e->created = true;
        e->t.dev = t->dev;
        e->t.ino = t->ino;
    } else if ((e->created || e->known) && (t->dev != e->t.dev || t->ino != e->t.ino)) {
        snprintf(err, errlen,
                 "%s: no longer names the file %s (it was replaced); refusing it", path,
                 e->created ? "an earlier phase created" : "judged before the first phase");
        target_close(t, false);
        return -EPERM;
    } else if (e->is_new && !e->created && o->write && t->info.kind == TARGET_BLOCK) {
        /* missing at the check, a device now, and no phase made it: a link
         * planted meanwhile, not what the plan was judged on */
        snprintf(err, errlen,
                 "%s: became a block device after the plan's check; refusing it", path);
        target_close(t, false);
        return -EPERM;
    }
    return 0;
}

void runner_hold_close(struct runner_hold *h)
{
    for (unsigned i = 0; i < h->n; i++)
        if (h->e[i].held)
            target_close(&h->e[i].t, false);
    for (unsigned i = 0; i < GUARD_MAX_CONSENT; i++)
        if (h->consent_fd[i] >= 0)
            close(h->consent_fd[i]);
    free(h->e);
    runner_hold_init(h);
}
