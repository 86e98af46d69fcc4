/* buf_pattern.c - fio's pattern syntax and fill (see buf_pattern.h). */
#include "base/buf_pattern.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#define QUOTE_MAX 40

/* Where the first "0x" (any case) at or after s begins, or NULL. */
static const char *find_0x(const char *s)
{
    for (; *s; s++)
        if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
            return s;
    return NULL;
}

static int bad(char *err, size_t errlen, const char *what, const char *at)
{
    snprintf(err, errlen, "%s at '%.*s'", what, QUOTE_MAX, at);
    return -1;
}

/* "text": returns the characters used, or -1. */
static int elem_string(const char *s, uint8_t *out, unsigned room, unsigned *got, char *err,
                       size_t errlen)
{
    const char *end = strchr(s + 1, '"');
    if (!end)
        return bad(err, errlen, "unterminated string", s);
    size_t l = (size_t)(end - s - 1);
    if (!l)
        return bad(err, errlen, "empty string", s);
    if (l > room)
        return bad(err, errlen, "pattern longer than 512 bytes", s);
    memcpy(out, s + 1, l);
    *got = (unsigned)l;
    return (int)(end - s + 1);
}

/* 'file': the file's first bytes, as many as fit. */
static int elem_file(const char *s, uint8_t *out, unsigned room, unsigned *got, char *err,
                     size_t errlen)
{
    const char *end = strchr(s + 1, '\'');
    if (!end)
        return bad(err, errlen, "unterminated file name", s);
    char path[4096];
    size_t l = (size_t)(end - s - 1);
    if (!l || l >= sizeof(path))
        return bad(err, errlen, "bad file name", s);
    memcpy(path, s + 1, l);
    path[l] = '\0';
    if (!room)
        return bad(err, errlen, "pattern longer than 512 bytes", s);
    /* non-blocking: a FIFO or terminal named here fails instead of hanging */
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) {
        snprintf(err, errlen, "cannot read pattern file '%.*s': %s", QUOTE_MAX, path, strerror(errno));
        return -1;
    }
    size_t n = 0;
    while (n < room) {
        ssize_t r = read(fd, out + n, room - n);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break;
        n += (size_t)r;
    }
    close(fd);
    if (!n) {
        snprintf(err, errlen, "pattern file '%.*s' is empty or unreadable", QUOTE_MAX, path);
        return -1;
    }
    *got = (unsigned)n;
    return (int)(end - s + 1);
}

static int hexval(char c)
{
    return isdigit((unsigned char)c) ? c - '0' : tolower((unsigned char)c) - 'a' + 10;
}

/* 0xHEX, or a decimal (which stops where a later "0x" begins, as fio's
 * look-ahead does). */
static int elem_number(const char *s, uint8_t *out, unsigned room, unsigned *got, char *err,
                       size_t errlen)
{
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X') && isxdigit((unsigned char)s[2])) {
        const char *d = s + 2;
        size_t nd = 0;
        while (isxdigit((unsigned char)d[nd]))
            nd++;
        /* "0xff0x14": the 0 before the x starts the next number */
        if (d[nd] && nd > 1 && d[nd - 1] == '0' && (d[nd] == 'x' || d[nd] == 'X'))
            nd--;
        size_t nb = (nd + 1) / 2;
        if (nb > room)
            return bad(err, errlen, "pattern longer than 512 bytes", s);
        size_t i = 0;
        for (size_t b = 0; b < nb; b++) {
            if (b == 0 && nd % 2) {
                out[b] = (uint8_t)hexval(d[i++]);
            } else {
                out[b] = (uint8_t)(hexval(d[i]) << 4 | hexval(d[i + 1]));
                i += 2;
            }
        }
        *got = (unsigned)nb;
        return (int)(2 + nd);
    }
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X') && (s[2] == 'x' || s[2] == 'X'))
        return bad(err, errlen, "bad hex number", s);
    /* decimal, limited to the characters before the next "0x" */
    const char *lim = find_0x(s);
    char tmp[64];
    size_t n = lim ? (size_t)(lim - s) : strlen(s);
    if (lim && n == 0)
        n = strlen(s); /* "0x" not followed by hex digits: fio's strtol reads the 0 */
    if (n >= sizeof(tmp))
        n = sizeof(tmp) - 1;
    memcpy(tmp, s, n);
    tmp[n] = '\0';
    char *end;
    errno = 0;
    long v = strtol(tmp, &end, 10);
    if (end == tmp)
        return bad(err, errlen, "bad pattern element (expected \"string\", 'file', 0xhex or a number)", s);
    if (errno || v > INT_MAX || v < INT_MIN)
        return bad(err, errlen, "number out of range (INT_MIN..INT_MAX)", s);
    unsigned nb = 0;
    if (!v) {
        if (!room)
            return bad(err, errlen, "pattern longer than 512 bytes", s);
        out[nb++] = 0;
    } else {
        for (unsigned u = (unsigned)v; u; u >>= 8) {
            if (nb == room)
                return bad(err, errlen, "pattern longer than 512 bytes", s);
            out[nb++] = (uint8_t)u;
        }
    }
    *got = nb;
    return (int)(end - tmp);
}

int buf_pattern_parse(const char *s, uint8_t *out, unsigned cap, char *err, size_t errlen)
{
    unsigned total = 0;
    if (!s || !*s) {
        snprintf(err, errlen, "empty pattern");
        return -1;
    }
    while (*s) {
        unsigned got = 0;
        int used;
        if (*s == '"')
            used = elem_string(s, out + total, cap - total, &got, err, errlen);
        else if (*s == '\'')
            used = elem_file(s, out + total, cap - total, &got, err, errlen);
        else
            used = elem_number(s, out + total, cap - total, &got, err, errlen);
        if (used < 0)
            return -1;
        s += used;
        total += got;
    }
    return (int)total;
}

void buf_pattern_fill(const uint8_t *pat, unsigned n, void *out, size_t len)
{
    uint8_t *p = out;
    size_t have = n < len ? n : len;
    memcpy(p, pat, have);
    /* double the filled part until the buffer is full */
    while (have < len) {
        size_t c = have < len - have ? have : len - have;
        memcpy(p + have, p, c);
        have += c;
    }
}
