/* cpulist.c - CPU and node lists (see cpulist.h). */
#include "base/cpulist.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *num(const char *s, unsigned long *v)
{
    while (*s == ' ' || *s == '\t')
        s++;
    if (!isdigit((unsigned char)*s))
        return NULL;
    char *end;
    errno = 0;
    *v = strtoul(s, &end, 10);
    if (errno)
        return NULL;
    while (*end == ' ' || *end == '\t' || *end == '\n')
        end++;
    return end;
}

int cpulist_parse(const char *s, uint64_t *mask, unsigned nwords, unsigned limit, char *err, size_t errlen)
{
    memset(mask, 0, nwords * sizeof(*mask));
    if (limit > nwords * 64)
        limit = nwords * 64;
    int n = 0;
    const char *p = s;
    for (;;) {
        unsigned long a, b;
        const char *q = num(p, &a);
        if (!q) {
            snprintf(err, errlen, "bad list item at '%.20s' (expected N or N-M, ',' separated)", p);
            return -1;
        }
        b = a;
        if (*q == '-') {
            q = num(q + 1, &b);
            if (!q || b < a) {
                snprintf(err, errlen, "bad range at '%.20s'", p);
                return -1;
            }
        }
        if (b >= limit) {
            snprintf(err, errlen, "%lu is too large (this host has 0..%u)", b, limit ? limit - 1 : 0);
            return -1;
        }
        for (unsigned long i = a; i <= b; i++) {
            if (!cpulist_has(mask, (unsigned)i))
                n++;
            mask[i / 64] |= 1ull << (i % 64);
        }
        if (!*q)
            break;
        if (*q != ',') {
            snprintf(err, errlen, "bad list item at '%.20s' (expected N or N-M, ',' separated)", p);
            return -1;
        }
        p = q + 1;
    }
    return n;
}

void cpulist_format(const uint64_t *mask, unsigned nwords, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    unsigned total = nwords * 64;
    for (unsigned i = 0; i < total; i++) {
        if (!cpulist_has(mask, i))
            continue;
        unsigned j = i;
        while (j + 1 < total && cpulist_has(mask, j + 1))
            j++;
        int w = j > i ? snprintf(buf + used, len - used, "%s%u-%u", used ? "," : "", i, j)
                      : snprintf(buf + used, len - used, "%s%u", used ? "," : "", i);
        if (w < 0 || (size_t)w >= len - used)
            return;
        used += (size_t)w;
        i = j;
    }
}

unsigned cpulist_count(const uint64_t *mask, unsigned nwords)
{
    unsigned n = 0;
    for (unsigned i = 0; i < nwords; i++)
        n += (unsigned)__builtin_popcountll(mask[i]);
    return n;
}
