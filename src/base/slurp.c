/* slurp.c - see slurp.h. */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/slurp.h"

void slurp_size_str(char *buf, size_t len, size_t b)
{
    if (b >= (1u << 30) && b % (1u << 30) == 0)
        snprintf(buf, len, "%zu GiB", b >> 30);
    else if (b >= (1u << 20) && b % (1u << 20) == 0)
        snprintf(buf, len, "%zu MiB", b >> 20);
    else if (b >= 1024 && b % 1024 == 0)
        snprintf(buf, len, "%zu KiB", b >> 10);
    else
        snprintf(buf, len, "%zu bytes", b);
}

static const char *kind_name(mode_t m)
{
    return S_ISDIR(m) ? "a directory" : S_ISCHR(m) ? "a character device" : S_ISBLK(m) ? "a block device"
         : S_ISFIFO(m) ? "a FIFO" : S_ISSOCK(m) ? "a socket" : "not a regular file";
}

static void too_large(char *err, size_t errlen, const char *path, const char *what, size_t max)
{
    char sz[32];
    slurp_size_str(sz, sizeof(sz), max);
    snprintf(err, errlen, "%s: %s larger than %s", path, what, sz);
}

FILE *slurp_open(const char *path, const char *what, size_t max, char *err, size_t errlen)
{
    if (strcmp(path, "-") == 0)
        return stdin;
    /* O_NONBLOCK: opening a FIFO must not wait for a writer */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) {
        int e = errno;
        snprintf(err, errlen, "%s: cannot open: %s", path, strerror(e));
        errno = e;
        return NULL;
    }
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        snprintf(err, errlen, "%s: is %s, not a regular file (%s)", path, kind_name(st.st_mode), what);
        close(fd);
        errno = EINVAL;
        return NULL;
    }
    if (max && (uint64_t)st.st_size > max) {
        too_large(err, errlen, path, what, max);
        close(fd);
        errno = EFBIG;
        return NULL;
    }
    int fl = fcntl(fd, F_GETFL);
    if (fl >= 0)
        fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
    FILE *f = fdopen(fd, "r");
    if (!f) {
        int e = errno;
        snprintf(err, errlen, "%s: cannot open: %s", path, strerror(e));
        close(fd);
        errno = e;
    }
    return f;
}

char *slurp_named(const char *path, const char *what, size_t max, size_t *len, char *err, size_t errlen)
{
    FILE *f = slurp_open(path, what, max, err, errlen);
    if (!f)
        return NULL;
    size_t cap = 1 << 16, n = 0, got;
    char *buf = malloc(cap);
    int e = buf ? 0 : ENOMEM;
    /* read at most max + 1 bytes: one more than allowed says "too large"
     * even for a file that grows or for standard input */
    while (!e && (got = fread(buf + n, 1, cap - n - 1, f)) > 0) {
        n += got;
        if (max && n > max) {
            e = EFBIG;
            break;
        }
        if (n + 1 < cap)
            continue;
        size_t ncap = cap * 2;
        if (max && ncap > max + 2)
            ncap = max + 2;
        char *nb = realloc(buf, ncap);
        if (!nb) {
            e = ENOMEM;
            break;
        }
        buf = nb;
        cap = ncap;
    }
    if (!e && ferror(f))
        e = EIO;
    if (f != stdin)
        fclose(f);
    if (e) {
        if (e == EFBIG)
            too_large(err, errlen, path, what, max);
        else
            snprintf(err, errlen, "%s: %s", path, e == EIO ? "read error" : "out of memory");
        free(buf);
        errno = e;
        return NULL;
    }
    buf[n] = 0;
    *len = n;
    return buf;
}

char *slurp(const char *path, size_t max, size_t *len, char *err, size_t errlen)
{
    return slurp_named(path, "file", max, len, err, errlen);
}
