/* sysfs_attr.c - see sysfs_attr.h. */
#include "base/sysfs_attr.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>

bool sysfs_attr(const char *dir, const char *name, char *out, size_t len)
{
    char p[PATH_MAX];
    if (!len)
        return false;
    out[0] = 0;
    if (snprintf(p, sizeof(p), "%s/%s", dir, name) >= (int)sizeof(p))
        return false;
    FILE *f = fopen(p, "r");
    if (!f)
        return false;
    bool ok = fgets(out, (int)len, f) != NULL;
    if (ok) {
        size_t n = strlen(out);
        while (n && (out[n - 1] == '\n' || out[n - 1] == ' '))
            out[--n] = 0;
        size_t s = 0;
        while (out[s] == ' ')
            s++;
        memmove(out, out + s, n - s + 1);
    } else {
        out[0] = 0;
    }
    fclose(f);
    return ok;
}
