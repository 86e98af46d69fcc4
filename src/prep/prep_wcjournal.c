/* prep_wcjournal.c - see prep_wcjournal.h. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/sysfs_attr.h"
#include "device/device_purge.h"
#include "prep/prep_wcstate.h"
#include "prep/prep_wcjournal.h"

#define WCJ_TAG "ssdbench-wcache 1"
#define WCJ_PREFIX "wcache-"

struct wcj_rec {
    char disk[64];
    char diskseq[32];
    char via[16];         /* "kernel" or "device" */
    char before[32];      /* kernel: the attribute's text; device: "1" or "0" */
    long pid;
};

static void state_dir(char *buf, size_t len)
{
    const char *d = getenv("SSDBENCH_STATE_DIR");
    snprintf(buf, len, "%s", d && d[0] ? d : "/run/ssdbench");
}

/* A sysfs block device name: letters, digits, '-', '_', '.', no "..". */
static bool disk_name_ok(const char *s)
{
    if (!s[0] || s[0] == '.' || strlen(s) >= 64)
        return false;
    for (const char *p = s; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
              *p == '-' || *p == '_' || *p == '.'))
            return false;
    return true;
}

static void rec_path(const char *disk, char *buf, size_t len)
{
    char d[4096];
    state_dir(d, sizeof(d));
    snprintf(buf, len, "%s/" WCJ_PREFIX "%s", d, disk);
}

static void diskseq(const char *disk, char *buf, size_t len)
{
    char dir[128];
    snprintf(dir, sizeof(dir), "/sys/block/%s", disk);
    sysfs_attr(dir, "diskseq", buf, len);
    if (!buf[0])
        snprintf(buf, len, "-");
}

int wcj_record(const struct wcache_state *s, char *err, size_t errlen)
{
    const char *disk = s->di.disk[0] ? s->di.disk : s->di.name;
    if (!disk_name_ok(disk)) {
        snprintf(err, errlen, "%s: no disk name to record its write cache under", s->path);
        return -EINVAL;
    }
    char dir[4096], path[4200], tmp[4300], seq[32];
    state_dir(dir, sizeof(dir));
    if (mkdir(dir, 0700) < 0 && errno != EEXIST) {
        snprintf(err, errlen, "%s: cannot make the state directory: %s", dir, strerror(errno));
        return -errno;
    }
    struct stat ds;
    if (lstat(dir, &ds) < 0 || !S_ISDIR(ds.st_mode) || ds.st_uid != geteuid() || (ds.st_mode & 022)) {
        snprintf(err, errlen, "%s: not a directory of this user's that only it can write", dir);
        return -EPERM;
    }
    rec_path(disk, path, sizeof(path));
    snprintf(tmp, sizeof(tmp), "%s.%ld.new", path, (long)getpid());
    diskseq(disk, seq, sizeof(seq));
    char body[512];
    int n;
    if (s->via == WCACHE_DEVICE)
        n = snprintf(body, sizeof(body), WCJ_TAG "\ndisk=%s\ndiskseq=%s\nvia=device\nbefore=%d\npid=%ld\n", disk,
                     seq, s->device_before == 1, (long)getpid());
    else
        n = snprintf(body, sizeof(body), WCJ_TAG "\ndisk=%s\ndiskseq=%s\nvia=kernel\nbefore=%s\npid=%ld\n", disk,
                     seq, s->kernel_before, (long)getpid());
    int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0) {
        snprintf(err, errlen, "%s: cannot write the write-cache record: %s", tmp, strerror(errno));
        return -errno;
    }
    bool ok = write(fd, body, (size_t)n) == n && fsync(fd) == 0;
    int e = errno;
    close(fd);
    if (!ok || rename(tmp, path) < 0) {
        e = ok ? errno : e;
        unlink(tmp);
        snprintf(err, errlen, "%s: cannot write the write-cache record: %s", path, strerror(e));
        return -e;
    }
    int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd >= 0) {
        fsync(dfd);
        close(dfd);
    }
    return 0;
}

void wcj_clear(const char *disk)
{
    if (!disk_name_ok(disk))
        return;
    char path[4200];
    rec_path(disk, path, sizeof(path));
    unlink(path);
}

/* Reads a record (a small regular file, not followed through a link). */
static int rec_read(const char *path, struct wcj_rec *r, char *msg, size_t len)
{
    memset(r, 0, sizeof(*r));
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return errno == ENOENT ? 0 : (snprintf(msg, len, "%s: %s", path, strerror(errno)), -errno);
    char buf[1024];
    struct stat st;
    ssize_t n = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) ? read(fd, buf, sizeof(buf) - 1) : -1;
    close(fd);
    if (n <= 0) {
        snprintf(msg, len, "%s: not a write-cache record", path);
        return -EINVAL;
    }
    buf[n] = 0;
    char *save = NULL, *line = strtok_r(buf, "\n", &save);
    if (!line || strcmp(line, WCJ_TAG)) {
        snprintf(msg, len, "%s: not a write-cache record (no '" WCJ_TAG "' line)", path);
        return -EINVAL;
    }
    while ((line = strtok_r(NULL, "\n", &save))) {
        char *eq = strchr(line, '=');
        if (!eq)
            continue;
        *eq = 0;
        const char *v = eq + 1;
        if (!strcmp(line, "disk"))
            snprintf(r->disk, sizeof(r->disk), "%s", v);
        else if (!strcmp(line, "diskseq"))
            snprintf(r->diskseq, sizeof(r->diskseq), "%s", v);
        else if (!strcmp(line, "via"))
            snprintf(r->via, sizeof(r->via), "%s", v);
        else if (!strcmp(line, "before"))
            snprintf(r->before, sizeof(r->before), "%s", v);
        else if (!strcmp(line, "pid"))
            r->pid = strtol(v, NULL, 10);
    }
    bool kernel = !strcmp(r->via, "kernel"), device = !strcmp(r->via, "device");
    if (!disk_name_ok(r->disk) || r->pid <= 0 || (!kernel && !device) ||
        (kernel && strcmp(r->before, "write back") && strcmp(r->before, "write through")) ||
        (device && strcmp(r->before, "0") && strcmp(r->before, "1"))) {
        snprintf(msg, len, "%s: a damaged write-cache record (kept; remove it by hand)", path);
        return -EINVAL;
    }
    return 1;
}

static bool pid_alive(long pid)
{
    return pid == (long)getpid() || kill((pid_t)pid, 0) == 0 || errno == EPERM;
}

/* Puts r's original state back on its disk. */
static int rec_restore(const struct wcj_rec *r, char *msg, size_t len)
{
    if (!strcmp(r->via, "kernel")) {
        char f[128];
        snprintf(f, sizeof(f), "/sys/block/%s/queue/write_cache", r->disk);
        int fd = open(f, O_WRONLY | O_CLOEXEC);
        ssize_t w = fd >= 0 ? write(fd, r->before, strlen(r->before)) : -1;
        int e = errno;
        if (fd >= 0)
            close(fd);
        if (w < 0) {
            snprintf(msg, len, "%s: restoring '%s': %s", f, r->before, strerror(e));
            return -e;
        }
        snprintf(msg, len, "write cache of %s restored to '%s' (%s), as an earlier run (pid %ld) "
                           "recorded it before changing it", r->disk, r->before,
                 wcache_name_kernel(r->before), r->pid);
        return 1;
    }
    struct device_info di;
    struct device_probe_opts po = {0};
    char e2[256];
    if (device_probe_name(r->disk, &po, &di, e2, sizeof(e2)) < 0) {
        snprintf(msg, len, "%s: restoring the write cache: %s", r->disk, e2);
        return -ENODEV;
    }
    int fd = open(di.dev_node, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        snprintf(msg, len, "%s: restoring the write cache: %s", di.dev_node, strerror(errno));
        return -errno;
    }
    int rc = devwc_set(fd, &di, devio_real(), r->before[0] == '1', e2, sizeof(e2));
    close(fd);
    if (rc < 0) {
        snprintf(msg, len, "%s: restoring the write cache: %s", di.dev_node, e2);
        return rc;
    }
    snprintf(msg, len, "write cache of %s restored to %s on the device, as an earlier run (pid %ld) "
                       "recorded it before changing it", r->disk, wcache_name_device(r->before[0] == '1'),
             r->pid);
    return 1;
}

/* One record file: 0 nothing to do, 1 restored (or stale and dropped),
 * 2 alive, -errno failed. */
static int settle_path(const char *path, char *msg, size_t len)
{
    struct wcj_rec r;
    int rc = rec_read(path, &r, msg, len);
    if (rc <= 0)
        return rc;
    if (pid_alive(r.pid)) {
        snprintf(msg, len, "the write cache of %s is held by another ssdbench run (pid %ld)", r.disk, r.pid);
        return 2;
    }
    char seq[32];
    diskseq(r.disk, seq, sizeof(seq));
    if (strcmp(seq, r.diskseq)) {
        /* the disk it was made for is gone (a loop device detached, a
         * disk replaced): its name now belongs to another */
        snprintf(msg, len, "a write-cache record for %s (pid %ld) is for a disk that is gone (diskseq %s, "
                           "now %s); dropped without changing anything", r.disk, r.pid, r.diskseq, seq);
        unlink(path);
        return 1;
    }
    rc = rec_restore(&r, msg, len);
    if (rc > 0)
        unlink(path);
    return rc;
}

int wcj_settle(const char *disk, char *msg, size_t len)
{
    msg[0] = 0;
    if (!disk_name_ok(disk))
        return 0;
    char path[4200];
    rec_path(disk, path, sizeof(path));
    return settle_path(path, msg, len);
}

int wcj_recover_all(void (*fn)(void *arg, const char *line), void *arg)
{
    char dir[4096];
    state_dir(dir, sizeof(dir));
    DIR *d = opendir(dir);
    if (!d)
        return 0;
    int restored = 0, bad = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (strncmp(e->d_name, WCJ_PREFIX, strlen(WCJ_PREFIX)) || strchr(e->d_name, '.'))
            continue;
        char path[4400], msg[512] = "";
        snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
        int rc = settle_path(path, msg, sizeof(msg));
        if (rc == 1)
            restored++;
        if (rc < 0)
            bad = rc;
        if (msg[0])
            fn(arg, msg);
    }
    closedir(d);
    return bad < 0 ? bad : restored;
}
