/* textsafe.c - see textsafe.h. */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/textsafe.h"

/* The UTF-8 decoding state carried from one write to the next. */
struct ts_state {
    unsigned char seq[4]; /* the sequence begun, not yet complete */
    unsigned have, need;  /* bytes in seq, bytes it needs in all */
};

struct ts_sink {
    char *p;
    size_t len, cap;
    FILE *dst;
    bool failed;
};

static void put(struct ts_sink *k, const char *s, size_t n)
{
    if (k->dst) {
        if (!k->failed && fwrite(s, 1, n, k->dst) != n)
            k->failed = true;
        return;
    }
    for (size_t i = 0; i < n && k->len + 1 < k->cap; i++)
        k->p[k->len++] = s[i];
}

static void put_hex(struct ts_sink *k, const char *pre, unsigned char b)
{
    static const char hex[] = "0123456789abcdef";
    char e[8];
    size_t n = strlen(pre);
    memcpy(e, pre, n);
    e[n++] = hex[b >> 4];
    e[n++] = hex[b & 15];
    put(k, e, n);
}

/* The bytes of an incomplete or broken sequence, each escaped. */
static void flush_seq(struct ts_state *st, struct ts_sink *k)
{
    for (unsigned i = 0; i < st->have; i++)
        put_hex(k, "\\x", st->seq[i]);
    st->have = st->need = 0;
}

static unsigned lead_len(unsigned char b)
{
    if (b >= 0xc2 && b <= 0xdf)
        return 2;
    if (b >= 0xe0 && b <= 0xef)
        return 3;
    if (b >= 0xf0 && b <= 0xf4)
        return 4;
    return 0;
}

/* Is the second byte allowed after this lead (no overlong forms, no
 * surrogates, nothing above U+10FFFF)? */
static bool second_ok(unsigned char lead, unsigned char b)
{
    if (b < 0x80 || b > 0xbf)
        return false;
    if (lead == 0xe0)
        return b >= 0xa0;
    if (lead == 0xed)
        return b <= 0x9f;
    if (lead == 0xf0)
        return b >= 0x90;
    if (lead == 0xf4)
        return b <= 0x8f;
    return true;
}

/* A byte written as it is. */
static bool plain(unsigned char b)
{
    return b == '\n' || b == '\t' || (b >= 0x20 && b < 0x7f);
}

static void feed(struct ts_state *st, struct ts_sink *k, const unsigned char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        unsigned char b = s[i];
        if (st->need) {
            bool ok = st->have == 1 ? second_ok(st->seq[0], b) : b >= 0x80 && b <= 0xbf;
            if (ok) {
                st->seq[st->have++] = b;
                if (st->have == st->need) {
                    if (st->need == 2 && st->seq[0] == 0xc2 && st->seq[1] <= 0x9f)
                        put_hex(k, "\\u00", st->seq[1]); /* a C1 control */
                    else
                        put(k, (const char *)st->seq, st->have);
                    st->have = st->need = 0;
                }
                continue;
            }
            flush_seq(st, k); /* cut short: b starts afresh */
        }
        if (plain(b)) {
            size_t j = i + 1; /* the whole run of plain bytes in one write */
            while (j < n && plain(s[j]))
                j++;
            put(k, (const char *)s + i, j - i);
            i = j - 1;
        } else if (b < 0x80) {
            put_hex(k, "\\x", b);
        } else if (lead_len(b)) {
            st->seq[0] = b;
            st->have = 1;
            st->need = lead_len(b);
        } else {
            put_hex(k, "\\x", b);
        }
    }
}

size_t textsafe_escape(const char *s, size_t n, char *out, size_t outlen)
{
    struct ts_state st = {0};
    struct ts_sink k = {.p = out, .cap = outlen};
    feed(&st, &k, (const unsigned char *)s, n);
    flush_seq(&st, &k);
    if (outlen)
        out[k.len] = 0;
    return k.len;
}

struct ts_cookie {
    struct ts_state st;
    struct ts_sink k;
};

static ssize_t ts_write(void *c, const char *buf, size_t n)
{
    struct ts_cookie *t = c;
    feed(&t->st, &t->k, (const unsigned char *)buf, n);
    return t->k.failed ? -1 : (ssize_t)n;
}

static int ts_close(void *c)
{
    struct ts_cookie *t = c;
    flush_seq(&t->st, &t->k);
    int rc = t->k.failed ? -1 : 0;
    free(t);
    return rc;
}

FILE *textsafe_open(FILE *dst)
{
    struct ts_cookie *t = calloc(1, sizeof(*t));
    if (!t)
        return NULL;
    t->k.dst = dst;
    cookie_io_functions_t io = {.write = ts_write, .close = ts_close};
    FILE *f = fopencookie(t, "w", io);
    if (!f)
        free(t);
    return f;
}

int textsafe_close(FILE *f)
{
    return fclose(f) == 0 ? 0 : -1;
}
