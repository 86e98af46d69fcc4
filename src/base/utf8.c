/* utf8.c - see utf8.h. */
#include <stdlib.h>
#include <string.h>

#include "base/utf8.h"

size_t utf8_seq_len(const unsigned char *p, size_t avail)
{
    if (!avail)
        return 0;
    unsigned char c = p[0];
    if (c < 0x80)
        return 1;
    size_t n;
    unsigned char lo = 0x80, hi = 0xBF;   /* allowed range of the second byte */
    if (c >= 0xC2 && c <= 0xDF)
        n = 2;
    else if (c >= 0xE0 && c <= 0xEF) {
        n = 3;
        if (c == 0xE0)
            lo = 0xA0;                    /* no overlong 3-byte forms */
        else if (c == 0xED)
            hi = 0x9F;                    /* no surrogates */
    } else if (c >= 0xF0 && c <= 0xF4) {
        n = 4;
        if (c == 0xF0)
            lo = 0x90;                    /* no overlong 4-byte forms */
        else if (c == 0xF4)
            hi = 0x8F;                    /* nothing above U+10FFFF */
    } else
        return 0;
    if (avail < n || p[1] < lo || p[1] > hi)
        return 0;
    for (size_t i = 2; i < n; i++)
        if (p[i] < 0x80 || p[i] > 0xBF)
            return 0;
    return n;
}

bool utf8_valid(const char *s, size_t len)
{
    const unsigned char *p = (const unsigned char *)s;
    for (size_t i = 0; i < len;) {
        size_t n = utf8_seq_len(p + i, len - i);
        if (!n)
            return false;
        i += n;
    }
    return true;
}

char *utf8_fix(const char *s, size_t len, size_t *outlen)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t bad = 0;
    for (size_t i = 0; i < len;) {
        size_t n = utf8_seq_len(p + i, len - i);
        if (!n) {
            bad++;
            n = 1;
        }
        i += n;
    }
    if (bad > (((size_t)-1) - len - 1) / 2)
        return NULL;
    char *out = malloc(len + 2 * bad + 1), *o = out;
    if (!out)
        return NULL;
    for (size_t i = 0; i < len;) {
        size_t n = utf8_seq_len(p + i, len - i);
        if (n) {
            memcpy(o, p + i, n);
            o += n;
            i += n;
        } else {
            memcpy(o, "\xEF\xBF\xBD", 3);
            o += 3;
            i++;
        }
    }
    *o = 0;
    if (outlen)
        *outlen = (size_t)(o - out);
    return out;
}
