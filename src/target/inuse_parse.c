/* inuse_parse.c - see inuse_parse.h. */
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>

#include "target/inuse_parse.h"

bool inuse_fdinfo_flags(const char *text, unsigned long *flags)
{
    const char *p = text;
    while (p && *p) {
        if (!strncmp(p, "flags:", 6)) {
            char *end;
            *flags = strtoul(p + 6, &end, 8);
            return end != p + 6;
        }
        p = strchr(p, '\n');
        if (p)
            p++;
    }
    return false;
}

void inuse_unescape(const char *in, char *out, size_t len)
{
    size_t o = 0;
    if (!len)
        return;
    for (size_t i = 0; in[i] && o + 1 < len; i++) {
        if (in[i] == '\\' && in[i + 1] >= '0' && in[i + 1] <= '3' && in[i + 2] >= '0' &&
            in[i + 2] <= '7' && in[i + 3] >= '0' && in[i + 3] <= '7') {
            out[o++] = (char)((in[i + 1] - '0') * 64 + (in[i + 2] - '0') * 8 + (in[i + 3] - '0'));
            i += 3;
        } else {
            out[o++] = in[i];
        }
    }
    out[o] = 0;
}

bool inuse_strip_deleted(char *path)
{
    static const char del[] = " (deleted)";
    size_t n = strlen(path), d = sizeof(del) - 1;
    if (n > d && !strcmp(path + n - d, del)) {
        path[n - d] = 0;
        return true;
    }
    return false;
}

/* One "%5u: NAME" entry line: spaces, digits, a colon and a space. */
static const char *entry_name(const char *line)
{
    const char *p = line;
    while (*p == ' ')
        p++;
    if (*p < '0' || *p > '9')
        return NULL;
    while (*p >= '0' && *p <= '9')
        p++;
    if (p[0] != ':' || p[1] != ' ')
        return NULL;
    return p + 2;
}

int inuse_uring_files(const char *text, int (*fn)(const char *name, bool deleted, void *arg),
                      void *arg, unsigned *declared, unsigned *listed)
{
    *declared = *listed = 0;
    const char *p = text;
    while (p && *p && strncmp(p, "UserFiles:", 10)) {
        p = strchr(p, '\n');
        if (p)
            p++;
    }
    if (!p || !*p)
        return -1;
    *declared = (unsigned)strtoul(p + 10, NULL, 10);
    p = strchr(p, '\n');
    while (p && *++p) {
        const char *eol = strchr(p, '\n');
        size_t n = eol ? (size_t)(eol - p) : strlen(p);
        char line[4096];
        if (n >= sizeof(line))
            n = sizeof(line) - 1;
        memcpy(line, p, n);
        line[n] = 0;
        const char *name = entry_name(line);
        if (!name)
            break; /* "UserBufs:" or the next section */
        (*listed)++;
        char un[4096];
        inuse_unescape(name, un, sizeof(un));
        bool deleted = inuse_strip_deleted(un);
        int rc = fn(un, deleted, arg);
        if (rc)
            return rc;
        p = eol;
    }
    return 0;
}

static bool hex(const char **p, uint64_t *v)
{
    char *end;
    unsigned long long x = strtoull(*p, &end, 16);
    if (end == *p)
        return false;
    *v = x;
    *p = end;
    return true;
}

bool inuse_maps_line(char *line, struct inuse_map *m)
{
    memset(m, 0, sizeof(*m));
    m->path = "";
    const char *p = line;
    uint64_t maj, min, off;
    if (!hex(&p, &m->start) || *p++ != '-' || !hex(&p, &m->end) || *p++ != ' ')
        return false;
    if (strlen(p) < 5 || p[4] != ' ')
        return false;
    m->write = p[1] == 'w';
    m->shared = p[3] == 's';
    p += 5;
    if (!hex(&p, &off) || *p++ != ' ' || !hex(&p, &maj) || *p++ != ':' || !hex(&p, &min) ||
        *p != ' ')
        return false;
    char *end;
    unsigned long long ino = strtoull(p, &end, 10);
    if (end == p)
        return false;
    m->major = (unsigned)maj;
    m->minor = (unsigned)min;
    m->inode = ino;
    while (*end == ' ')
        end++;
    end[strcspn(end, "\n")] = 0;
    m->path = end;
    return true;
}

dev_t inuse_decode_dev(uint64_t d)
{
    return makedev((unsigned)((d & 0xfff00) >> 8), (unsigned)((d & 0xff) | ((d >> 12) & 0xfff00)));
}

bool inuse_ranges_overlap(uint64_t a, uint64_t alen, uint64_t b, uint64_t blen)
{
    uint64_t aend = alen ? a + alen : UINT64_MAX, bend = blen ? b + blen : UINT64_MAX;
    return a < bend && b < aend;
}
