/* outfile.c - see outfile.h. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/outfile.h"

static int fail(char *err, size_t errlen, const char *path, int e, const char *what)
{
    if (what)
        snprintf(err, errlen, "%s: %s", path, what);
    else
        snprintf(err, errlen, "%s: cannot write: %s", path, strerror(e));
    return -e;
}

/* What a non-regular, non-writable kind of file is called in a refusal. */
static const char *refused_kind(mode_t m)
{
    if (S_ISDIR(m))
        return "is a directory (name a file to write to)";
    if (S_ISBLK(m))
        return "is a block device; outputs are never written to block devices";
    return NULL;
}

/* Opens a character device, FIFO or socket for writing in place. With
 * check set nothing is opened (a FIFO's reader would see an early end, a
 * tape would rewind): only write permission is checked. */
static int open_direct(struct outfile *o, bool follow, bool check, char *err, size_t errlen)
{
    if (check) {
        if (access(o->path, W_OK) != 0)
            return fail(err, errlen, o->path, errno, NULL);
        return 1;
    }
    int fl = O_WRONLY | O_CLOEXEC | O_NOCTTY | (follow ? 0 : O_NOFOLLOW);
    int fd = open(o->path, fl | O_NONBLOCK);
    if (fd < 0 && errno == ENXIO) {
        struct stat st;
        if (stat(o->path, &st) == 0 && S_ISFIFO(st.st_mode)) {
            /* a FIFO with no reader yet: wait for one, but not for ever */
            const struct timespec tick = {0, 50 * 1000 * 1000};
            for (unsigned n = 0; n < OUTFILE_FIFO_WAIT_S * 20 && fd < 0 && errno == ENXIO; n++) {
                nanosleep(&tick, NULL);
                fd = open(o->path, fl | O_NONBLOCK);
            }
            if (fd < 0 && errno == ENXIO)
                return fail(err, errlen, o->path, ENXIO, "is a FIFO nobody reads (waited 10 s); not written");
        } else {
            errno = ENXIO;
        }
    }
    if (fd < 0)
        return fail(err, errlen, o->path, errno, NULL);
    struct stat st;
    if (fstat(fd, &st) != 0 || S_ISREG(st.st_mode) || refused_kind(st.st_mode)) {
        int e = errno;
        close(fd);
        if (S_ISREG(st.st_mode))
            return fail(err, errlen, o->path, EEXIST, "changed while being opened; not written");
        return fail(err, errlen, o->path, e ? e : EINVAL, refused_kind(st.st_mode));
    }
    int cur = fcntl(fd, F_GETFL);
    if (cur >= 0)
        fcntl(fd, F_SETFL, cur & ~O_NONBLOCK);
    o->f = fdopen(fd, "w");
    if (!o->f) {
        int e = errno;
        close(fd);
        return fail(err, errlen, o->path, e, NULL);
    }
    return 0;
}

/* A new temporary file next to the path, to be renamed over it. */
static int open_temp(struct outfile *o, mode_t mode, char *err, size_t errlen)
{
    int fd = -1;
    for (unsigned n = 0; n < 100 && fd < 0; n++) {
        if ((size_t)snprintf(o->tmp, sizeof(o->tmp), "%s.tmp.%ld.%u", o->path, (long)getpid(), n) >=
            sizeof(o->tmp))
            return fail(err, errlen, o->path, ENAMETOOLONG, NULL);
        fd = open(o->tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
        if (fd < 0 && errno != EEXIST)
            break;
    }
    if (fd < 0) {
        int e = errno;
        o->tmp[0] = 0;
        return fail(err, errlen, o->path, e, NULL);
    }
    if (mode)
        (void)fchmod(fd, mode & 07777); /* a replaced file keeps its permissions */
    o->f = fdopen(fd, "w");
    if (!o->f) {
        int e = errno;
        close(fd);
        unlink(o->tmp);
        o->tmp[0] = 0;
        return fail(err, errlen, o->path, e, NULL);
    }
    return 0;
}

/* The descriptor number when path names one of this process's own open
 * files (/dev/stdout, /dev/stderr, /dev/fd/N, /proc/self/fd/N), else -1:
 * those are written through a duplicate of the descriptor, sharing its
 * offset and append mode, as the shell's redirection set them up. */
static int own_fd(const char *path)
{
    if (!strcmp(path, "/dev/stdout"))
        return 1;
    if (!strcmp(path, "/dev/stderr"))
        return 2;
    const char *n = !strncmp(path, "/dev/fd/", 8) ? path + 8 : !strncmp(path, "/proc/self/fd/", 14) ? path + 14 : NULL;
    if (!n || !*n || strlen(n) > 6 || strspn(n, "0123456789") != strlen(n))
        return -1;
    return atoi(n);
}

static int open_own(struct outfile *o, int n, bool check, char *err, size_t errlen)
{
    struct stat st;
    int fl = fcntl(n, F_GETFL);
    if (fl < 0 || fstat(n, &st) != 0)
        return fail(err, errlen, o->path, EBADF, "is not open in this process");
    if ((fl & O_ACCMODE) == O_RDONLY)
        return fail(err, errlen, o->path, EBADF, "is open for reading only");
    if (refused_kind(st.st_mode))
        return fail(err, errlen, o->path, EPERM, refused_kind(st.st_mode));
    if (check)
        return 1;
    int fd = fcntl(n, F_DUPFD_CLOEXEC, 3);
    if (fd < 0 || !(o->f = fdopen(fd, "w"))) {
        int e = errno;
        if (fd >= 0)
            close(fd);
        return fail(err, errlen, o->path, e, NULL);
    }
    return 0;
}

static int open_mode(struct outfile *o, const char *path, bool check, char *err, size_t errlen)
{
    memset(o, 0, sizeof(*o));
    if (!path || !path[0])
        return fail(err, errlen, "(empty)", EINVAL, "empty output path");
    if ((size_t)snprintf(o->path, sizeof(o->path), "%s", path) >= sizeof(o->path))
        return fail(err, errlen, path, ENAMETOOLONG, NULL);
    if (strcmp(path, "-") == 0) {
        o->f = stdout;
        return check ? 1 : 0;
    }
    int own = own_fd(path);
    if (own >= 0)
        return open_own(o, own, check, err, errlen);
    /* O_PATH opens nothing (no device open, no FIFO wait): it only tells
     * what the last component is, without following a link. */
    int pfd = open(path, O_PATH | O_NOFOLLOW | O_CLOEXEC);
    if (pfd < 0) {
        if (errno == ENOENT)
            return open_temp(o, 0, err, errlen);
        return fail(err, errlen, path, errno, NULL);
    }
    struct stat st;
    int r = fstat(pfd, &st);
    int e = errno;
    close(pfd);
    if (r != 0)
        return fail(err, errlen, path, e, NULL);
    if (S_ISREG(st.st_mode))
        return open_temp(o, st.st_mode, err, errlen);
    if (refused_kind(st.st_mode))
        return fail(err, errlen, path, S_ISDIR(st.st_mode) ? EISDIR : EPERM, refused_kind(st.st_mode));
    if (S_ISLNK(st.st_mode)) {
        struct stat tt;
        if (stat(path, &tt) != 0)
            return fail(err, errlen, path, ENOENT,
                        "is a symbolic link to nothing; outputs are not created through links (name the file itself)");
        if (S_ISREG(tt.st_mode))
            return fail(err, errlen, path, ELOOP,
                        "is a symbolic link to a regular file; outputs are not written through links "
                        "(name the file itself)");
        if (refused_kind(tt.st_mode))
            return fail(err, errlen, path, S_ISDIR(tt.st_mode) ? EISDIR : EPERM, refused_kind(tt.st_mode));
        return open_direct(o, true, check, err, errlen);
    }
    return open_direct(o, false, check, err, errlen);
}

int outfile_open(struct outfile *o, const char *path, char *err, size_t errlen)
{
    return open_mode(o, path, false, err, errlen);
}

int outfile_open_stream(struct outfile *o, const char *path, char *err, size_t errlen)
{
    if (path && path[0] && strcmp(path, "-") != 0 && own_fd(path) < 0) {
        memset(o, 0, sizeof(*o));
        if ((size_t)snprintf(o->path, sizeof(o->path), "%s", path) >= sizeof(o->path))
            return fail(err, errlen, path, ENAMETOOLONG, NULL);
        int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
        if (fd >= 0) {
            if (!(o->f = fdopen(fd, "w"))) {
                int e = errno;
                close(fd);
                unlink(path);
                return fail(err, errlen, path, e, NULL);
            }
            o->created = true;
            return 0;
        }
        if (errno != EEXIST)
            return fail(err, errlen, path, errno, NULL);
        /* there is something at path: the rules of outfile_open */
    }
    return open_mode(o, path, false, err, errlen);
}

/* True when fd is a pipe or socket whose reader has gone away: the error
 * of an earlier failed write may no longer be in errno. */
static bool broken_pipe(int fd)
{
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0 || !(S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode)))
        return false;
    struct pollfd p = {.fd = fd, .events = POLLOUT};
    return poll(&p, 1, 0) == 1 && (p.revents & POLLERR);
}

int outfile_commit(struct outfile *o, char *err, size_t errlen)
{
    if (!o->f)
        return fail(err, errlen, o->path, EBADF, "not open");
    int e = 0;
    errno = 0;
    if (fflush(o->f) != 0 || ferror(o->f))
        e = broken_pipe(fileno(o->f)) ? EPIPE : errno ? errno : EIO;
    if (o->f == stdout) {
        o->f = NULL;
        return e ? fail(err, errlen, "standard output", e, NULL) : 0;
    }
    if (!e && o->tmp[0] && fsync(fileno(o->f)) != 0)
        e = errno;
    if (fclose(o->f) != 0 && !e)
        e = errno ? errno : EIO;
    o->f = NULL;
    if (!e && o->tmp[0] && rename(o->tmp, o->path) != 0)
        e = errno;
    if (e && o->tmp[0])
        unlink(o->tmp);
    o->tmp[0] = 0;
    return e ? fail(err, errlen, o->path, e, NULL) : 0;
}

void outfile_abort(struct outfile *o)
{
    if (o->f && o->f != stdout)
        fclose(o->f);
    else if (o->f)
        fflush(o->f);
    o->f = NULL;
    if (o->tmp[0])
        unlink(o->tmp);
    else if (o->created)
        unlink(o->path);
    o->tmp[0] = 0;
    o->created = false;
}

int outfile_check(const char *path, char *err, size_t errlen)
{
    struct outfile o;
    int rc = open_mode(&o, path, true, err, errlen);
    if (rc != 0)
        return rc; /* written directly (nothing was opened), or refused */
    bool direct = o.tmp[0] == 0;
    outfile_abort(&o);
    return direct ? 1 : 0;
}

/* What a derived name's last component is, when it may not be written. */
static const char *strict_refusal(mode_t m)
{
    if (S_ISLNK(m))
        return "is a symbolic link: written only as a regular file, never through a link";
    if (S_ISDIR(m))
        return "is a directory; not written";
    if (S_ISBLK(m))
        return "is a block device; outputs are never written to block devices";
    if (S_ISCHR(m))
        return "is a character device: written only as a regular file";
    if (S_ISFIFO(m))
        return "is a FIFO: written only as a regular file";
    if (!S_ISREG(m))
        return "is not a regular file; not written";
    return NULL;
}

/* The kind of path's last component, not following a link and opening
 * nothing: 0 (absent), 1 (a regular file, mode in *mode) or a negative
 * errno with the refusal in err. */
static int strict_look(const char *path, mode_t *mode, char *err, size_t errlen)
{
    struct stat st;
    if (fstatat(AT_FDCWD, path, &st, AT_SYMLINK_NOFOLLOW) != 0) {
        if (errno == ENOENT)
            return 0;
        return fail(err, errlen, path, errno, NULL);
    }
    const char *why = strict_refusal(st.st_mode);
    if (why)
        return fail(err, errlen, path, S_ISLNK(st.st_mode) ? ELOOP : S_ISDIR(st.st_mode) ? EISDIR : EPERM, why);
    *mode = st.st_mode;
    return 1;
}

/* The start of every open of a name ssdbench makes: o cleared and named,
 * the name judged by the strict rule (strict_look: 1 it exists, *mode
 * its mode; 0 new; -errno refused). */
static int derived_start(struct outfile *o, const char *path, mode_t *mode, char *err, size_t errlen)
{
    memset(o, 0, sizeof(*o));
    if (!path || !path[0])
        return fail(err, errlen, "(empty)", EINVAL, "empty output path");
    if ((size_t)snprintf(o->path, sizeof(o->path), "%s", path) >= sizeof(o->path))
        return fail(err, errlen, path, ENAMETOOLONG, NULL);
    *mode = 0;
    return strict_look(path, mode, err, errlen);
}

int outfile_open_derived(struct outfile *o, const char *path, char *err, size_t errlen)
{
    mode_t mode;
    int k = derived_start(o, path, &mode, err, errlen);
    if (k < 0)
        return k;
    /* the temporary file is new (O_EXCL|O_NOFOLLOW); the rename replaces
     * the name itself, whatever was put there meanwhile */
    return open_temp(o, k ? mode : 0, err, errlen);
}

int outfile_open_append(struct outfile *o, const char *path, char *err, size_t errlen)
{
    mode_t mode;
    int k = derived_start(o, path, &mode, err, errlen);
    if (k < 0)
        return k;
    int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC, 0644);
    if (fd < 0) {
        if (errno == ELOOP)
            return fail(err, errlen, path, ELOOP, strict_refusal(S_IFLNK));
        return fail(err, errlen, path, errno, NULL);
    }
    struct stat st;
    if (fstat(fd, &st) != 0 || strict_refusal(st.st_mode)) {
        int e = errno;
        close(fd);
        return fail(err, errlen, path, e ? e : EPERM, strict_refusal(st.st_mode));
    }
    int cur = fcntl(fd, F_GETFL);
    if (cur >= 0)
        fcntl(fd, F_SETFL, cur & ~O_NONBLOCK);
    if (!(o->f = fdopen(fd, "a"))) {
        int e = errno;
        close(fd);
        return fail(err, errlen, path, e, NULL);
    }
    return 0;
}

int outfile_check_strict(const char *path, char *err, size_t errlen)
{
    if (path && (!strcmp(path, "-") || own_fd(path) >= 0))
    {
        int rc = outfile_check(path, err, errlen);
        return rc < 0 ? rc : 0;
    }
    mode_t mode = 0;
    int k = strict_look(path ? path : "", &mode, err, errlen);
    if (k < 0)
        return k;
    struct outfile o;
    if (outfile_open_derived(&o, path, err, errlen) < 0)
        return -EPERM;
    outfile_abort(&o);
    return 0;
}

int outfile_create_new(const char *path, char *err, size_t errlen)
{
    int fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
    if (fd < 0) {
        if (errno == EEXIST)
            return fail(err, errlen, path, EEXIST, "already exists; not overwritten");
        return fail(err, errlen, path, errno, NULL);
    }
    return fd;
}
