/* slurp.c - see slurp.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/slurp.h"

const char *slurp_not_text(int fd)
{
    struct stat st;
    if (fstat(fd, &st) < 0)
        return strerror(errno);
    if (S_ISDIR(st.st_mode))
        return "is a directory";
    if (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode))
        return "is a device, not a file";
    return NULL;
}

char *slurp(const char *path, size_t max, size_t *len, char *err, size_t errlen)
{
    FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "r");
    if (!f) {
        int e = errno;
        snprintf(err, errlen, "%s: cannot open: %s", path, strerror(e));
        errno = e;
        return NULL;
    }
    const char *why = f != stdin ? slurp_not_text(fileno(f)) : NULL;
    if (why) {
        snprintf(err, errlen, "%s: cannot read: %s", path, why);
        fclose(f);
        errno = EINVAL;
        return NULL;
    }
    size_t cap = 1 << 16, n = 0, got;
    char *buf = malloc(cap);
    while (buf && (got = fread(buf + n, 1, cap - n - 1, f)) > 0) {
        n += got;
        if (n + 1 < cap)
            continue;
        char *nb = cap >= max ? NULL : realloc(buf, cap * 2);
        if (!nb) {
            free(buf);
            buf = NULL;
            break;
        }
        buf = nb;
        cap *= 2;
    }
    int rerr = ferror(f);
    if (f != stdin)
        fclose(f);
    if (!buf || rerr) {
        snprintf(err, errlen, "%s: %s", path,
                 rerr ? "read error" : "too large or out of memory");
        free(buf);
        errno = rerr ? EIO : EFBIG;
        return NULL;
    }
    buf[n] = 0;
    *len = n;
    return buf;
}
