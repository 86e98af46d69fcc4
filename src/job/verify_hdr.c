/* verify_hdr.c - building and checking verified blocks (see verify_hdr.h). */
#include "job/verify_hdr.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/checksum.h"
#include "base/rng.h"

static const struct {
    const char *name;
    enum job_verify kind;
} kinds[] = {
    {"0", VERIFY_OFF},         {"md5", VERIFY_MD5},       {"crc32c", VERIFY_CRC32C},
    {"crc32c-intel", VERIFY_CRC32C_INTEL}, {"xxhash", VERIFY_XXHASH}, {"sha256", VERIFY_SHA256},
    {"meta", VERIFY_META},     {"pattern", VERIFY_PATTERN}, {"null", VERIFY_NULL},
    /* fio's further checksums */
    {"crc64", VERIFY_CRC64},   {"crc32", VERIFY_CRC32},   {"crc16", VERIFY_CRC16},
    {"crc7", VERIFY_CRC7},     {"sha1", VERIFY_SHA1},     {"sha512", VERIFY_SHA512},
    {"sha3-224", VERIFY_SHA3_224}, {"sha3-256", VERIFY_SHA3_256}, {"sha3-384", VERIFY_SHA3_384},
    {"sha3-512", VERIFY_SHA3_512},
};

const char *verify_kind_name(enum job_verify k)
{
    for (unsigned i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
        if (kinds[i].kind == k)
            return k == VERIFY_OFF ? "none" : kinds[i].name;
    return "unknown";
}

int verify_kind_parse(const char *s)
{
    for (unsigned i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
        if (!strcasecmp(s, kinds[i].name))
            return (int)kinds[i].kind;
    if (!strcasecmp(s, "none"))
        return VERIFY_OFF;
    return -1;
}

unsigned verify_digest_size(enum job_verify k)
{
    switch (k) {
    case VERIFY_MD5: return 16;
    case VERIFY_CRC32C:
    case VERIFY_CRC32C_INTEL: return 4;
    case VERIFY_XXHASH: return 8;
    case VERIFY_SHA256: return 32;
    case VERIFY_CRC64: return 8;
    case VERIFY_CRC32: return 4;
    case VERIFY_CRC16: return 2;
    case VERIFY_CRC7: return 1;
    case VERIFY_SHA1: return 20;
    case VERIFY_SHA512: return 64;
    case VERIFY_SHA3_224: return 28;
    case VERIFY_SHA3_256: return 32;
    case VERIFY_SHA3_384: return 48;
    case VERIFY_SHA3_512: return 64;
    default: return 0;
    }
}

unsigned verify_hdr_size(enum job_verify k)
{
    if (k == VERIFY_OFF || k == VERIFY_PATTERN)
        return 0;
    return VERIFY_HDR_BASE + verify_digest_size(k);
}

uint32_t verify_chunk_len(const struct job_spec *j, uint32_t len)
{
    return j->verify_interval && j->verify_interval < len ? j->verify_interval : len;
}

uint64_t verify_block_seed(uint64_t job_seed, uint32_t worker, uint64_t seq)
{
    uint64_t x = job_seed ^ ((uint64_t)worker << 40) ^ 0x5eed5eedull;
    x += seq * 0xd1342543de82ef95ull;
    return rng_splitmix(&x);
}

static void put16(uint8_t *p, uint16_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
}

static void put32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static void put64(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static uint64_t get(const uint8_t *p, unsigned n)
{
    uint64_t v = 0;
    for (int i = (int)n - 1; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

static void digest(enum job_verify k, const void *p, size_t len, uint8_t *out)
{
    switch (k) {
    case VERIFY_MD5: {
        struct md5_ctx c;
        md5_init(&c);
        md5_update(&c, p, len);
        md5_final(&c, out);
        break;
    }
    case VERIFY_SHA256: {
        struct sha256_ctx c;
        sha256_init(&c);
        sha256_update(&c, p, len);
        sha256_final(&c, out);
        break;
    }
    case VERIFY_CRC32C:
    case VERIFY_CRC32C_INTEL:
        put32(out, crc32c(0, p, len));
        break;
    case VERIFY_CRC64:
        put64(out, sum_crc64(p, len));
        break;
    case VERIFY_CRC32:
        put32(out, sum_crc32(p, len));
        break;
    case VERIFY_CRC16:
        put16(out, sum_crc16(p, len));
        break;
    case VERIFY_CRC7:
        out[0] = sum_crc7(p, len);
        break;
    case VERIFY_SHA1: {
        struct sha1_ctx c;
        sha1_init(&c);
        sha1_update(&c, p, len);
        sha1_final(&c, out);
        break;
    }
    case VERIFY_SHA512: {
        struct sha512_ctx c;
        sha512_init(&c);
        sha512_update(&c, p, len);
        sha512_final(&c, out);
        break;
    }
    case VERIFY_SHA3_224:
    case VERIFY_SHA3_256:
    case VERIFY_SHA3_384:
    case VERIFY_SHA3_512:
        sha3(verify_digest_size(k), p, len, out);
        break;
    case VERIFY_XXHASH:
        put64(out, xxh64(p, len, 0));
        break;
    default:
        break;
    }
}

static void swap_hdr(uint8_t *chunk, uint32_t voff, unsigned hs)
{
    for (unsigned i = 0; i < hs; i++) {
        uint8_t t = chunk[i];
        chunk[i] = chunk[voff + i];
        chunk[voff + i] = t;
    }
}

/* The block's data before headers: random from seed, or the pattern. */
static void fill_data(const struct job_spec *j, uint8_t *p, uint32_t len, uint64_t off, uint64_t seed)
{
    if (j->verify_pattern_len) {
        uint8_t pat[JOB_VPATTERN_MAX];
        unsigned n = j->verify_pattern_len;
        memcpy(pat, j->verify_pattern, n);
        for (unsigned f = 0; f < j->verify_pattern_nfmt; f++)
            put64(pat + j->verify_pattern_fmt[f], off);
        for (uint32_t i = 0; i < len; i += n)
            memcpy(p + i, pat, len - i < n ? len - i : n);
        return;
    }
    struct rng r;
    rng_seed(&r, seed);
    uint32_t i = 0;
    for (; i + 8 <= len; i += 8) {
        uint64_t v = rng_next(&r);
        memcpy(p + i, &v, 8);
    }
    if (i < len) {
        uint64_t v = rng_next(&r);
        memcpy(p + i, &v, len - i);
    }
}

/* the method byte of the header: crc32c-intel is crc32c (fio's synonym) */
static uint8_t kind_byte(enum job_verify k)
{
    return (uint8_t)(k == VERIFY_CRC32C_INTEL ? VERIFY_CRC32C : k);
}

static void build_hdr(const struct job_spec *j, uint8_t *h, uint32_t clen, uint64_t coff, uint64_t seed,
                      uint64_t seq, uint32_t worker)
{
    unsigned hs = verify_hdr_size(j->verify);
    put32(h, VERIFY_MAGIC);
    h[4] = kind_byte(j->verify);
    h[5] = 0;
    put16(h + 6, (uint16_t)hs);
    put32(h + 8, clen);
    put32(h + 12, worker);
    put64(h + 16, coff);
    put64(h + 24, seed);
    put64(h + 32, seq);
    put32(h + 40, crc32c(0, h, 40));
    put32(h + 44, 0);
    digest(j->verify, h + hs, clen - hs, h + VERIFY_HDR_BASE);
}

void verify_fill(const struct job_spec *j, void *buf, uint32_t len, uint64_t off, uint64_t seed,
                 uint64_t seq, uint32_t worker)
{
    uint8_t *p = buf;
    fill_data(j, p, len, off, seed);
    unsigned hs = verify_hdr_size(j->verify);
    if (!hs)
        return;
    uint32_t cl = verify_chunk_len(j, len);
    for (uint32_t c = 0; c + hs <= len; c += cl) {
        uint32_t clen = len - c < cl ? len - c : cl;
        if (clen < hs)
            break;
        build_hdr(j, p + c, clen, off + c, seed, seq, worker);
        if (j->verify_offset && j->verify_offset + hs <= clen)
            swap_hdr(p + c, j->verify_offset, hs);
    }
}

static bool fail(struct verify_bad *b, const char *what, uint64_t want, uint64_t got)
{
    b->what = what;
    b->want = want;
    b->got = got;
    return false;
}

/* Checks one chunk (header already swapped back); false with *b filled. */
static bool check_chunk(const struct job_spec *j, uint8_t *c, uint32_t clen, uint64_t coff,
                        uint32_t cstart, const struct verify_expect *e, struct verify_bad *b)
{
    unsigned hs = verify_hdr_size(j->verify);
    b->chunk_off = coff;
    b->chunk_len = clen;
    if (hs) {
        b->hdr_len = (uint32_t)get(c + 8, 4);
        b->hdr_worker = (uint32_t)get(c + 12, 4);
        b->hdr_off = get(c + 16, 8);
        b->hdr_seed = get(c + 24, 8);
        b->hdr_seq = get(c + 32, 8);
        uint32_t magic = (uint32_t)get(c, 4);
        if (magic != VERIFY_MAGIC)
            return fail(b, "magic", VERIFY_MAGIC, magic);
        if (c[4] != kind_byte(j->verify) || get(c + 6, 2) != hs)
            return fail(b, "kind", kind_byte(j->verify), c[4]);
        if (b->hdr_len != clen)
            return fail(b, "length", clen, b->hdr_len);
        if (b->hdr_off != coff)
            return fail(b, "offset", coff, b->hdr_off);
        if (e->check_seed && b->hdr_seed != e->seed)
            return fail(b, "seed", e->seed, b->hdr_seed);
        if (e->check_seed && b->hdr_seq != e->seq)
            return fail(b, "sequence", e->seq, b->hdr_seq);
        uint32_t crc = crc32c(0, c, 40);
        if (get(c + 40, 4) != crc)
            return fail(b, "header crc", crc, get(c + 40, 4));
        unsigned ds = verify_digest_size(j->verify);
        if (ds) {
            uint8_t sum[VERIFY_DIGEST_MAX];
            digest(j->verify, c + hs, clen - hs, sum);
            if (memcmp(sum, c + VERIFY_HDR_BASE, ds)) {
                b->sumlen = ds;
                memcpy(b->want_sum, c + VERIFY_HDR_BASE, ds);
                memcpy(b->got_sum, sum, ds);
                return fail(b, "checksum", 0, 0);
            }
        }
    }
    if (j->verify_pattern_len && (j->verify == VERIFY_PATTERN || j->verify == VERIFY_META)) {
        uint8_t pat[JOB_VPATTERN_MAX];
        unsigned n = j->verify_pattern_len;
        memcpy(pat, j->verify_pattern, n);
        for (unsigned f = 0; f < j->verify_pattern_nfmt; f++)
            put64(pat + j->verify_pattern_fmt[f], e->off);
        for (uint32_t i = hs; i < clen; i++) {
            uint8_t want = pat[(cstart + i) % n];
            if (c[i] != want)
                return fail(b, "pattern", want, c[i]);
        }
    }
    return true;
}

bool verify_check(const struct job_spec *j, void *buf, uint32_t len, const struct verify_expect *e,
                  void *scratch, struct verify_bad *bad)
{
    uint8_t *p = buf;
    unsigned hs = verify_hdr_size(j->verify);
    uint32_t cl = verify_chunk_len(j, len);
    memset(bad, 0, sizeof(*bad));
    bad->off = e->off;
    bad->len = len;
    bad->first_diff = -1;
    bool ok = true;
    for (uint32_t c = 0; c < len && ok; c += cl) {
        uint32_t clen = len - c < cl ? len - c : cl;
        if (hs && clen < hs)
            break;
        if (hs && j->verify_offset && j->verify_offset + hs <= clen)
            swap_hdr(p + c, j->verify_offset, hs);
        ok = check_chunk(j, p + c, clen, e->off + c, c, e, bad);
    }
    if (ok)
        return true;
    /* the expected block: from the expected seed, or (a read-only job) the
     * seed and sequence the header claims */
    uint64_t seed = e->check_seed ? e->seed : bad->hdr_seed;
    uint64_t seq = e->check_seed ? e->seq : bad->hdr_seq;
    uint32_t worker = e->check_seed ? e->worker : bad->hdr_worker;
    verify_fill(j, scratch, len, e->off, seed, seq, worker);
    uint8_t *x = scratch;
    if (hs && j->verify_offset)
        for (uint32_t c = 0; c < len; c += cl)
            if (len - c >= hs && j->verify_offset + hs <= (len - c < cl ? len - c : cl))
                swap_hdr(x + c, j->verify_offset, hs);
    for (uint32_t i = 0; i < len; i++)
        if (x[i] != p[i]) {
            bad->first_diff = i;
            break;
        }
    return false;
}

/* one element of a pattern value; returns the characters used or -1 */
static int pattern_elem(struct job_spec *j, const char *s, char *err, size_t errlen)
{
    unsigned n = j->verify_pattern_len;
    uint8_t *out = j->verify_pattern;
    if (*s == '"' || *s == '\'') {
        const char *end = strchr(s + 1, *s);
        if (!end)
            return snprintf(err, errlen, "unterminated string in pattern '%s'", s), -1;
        size_t l = (size_t)(end - s - 1);
        if (n + l > JOB_VPATTERN_MAX)
            return snprintf(err, errlen, "pattern longer than %d bytes", JOB_VPATTERN_MAX), -1;
        memcpy(out + n, s + 1, l);
        j->verify_pattern_len = n + (unsigned)l;
        return (int)(end - s + 1);
    }
    if (s[0] == '%' && s[1] == 'o') {
        if (n + 8 > JOB_VPATTERN_MAX || j->verify_pattern_nfmt >= JOB_VPATTERN_FMT_MAX)
            return snprintf(err, errlen, "too many %%o in pattern"), -1;
        memset(out + n, 0, 8);
        j->verify_pattern_fmt[j->verify_pattern_nfmt++] = (uint16_t)n;
        j->verify_pattern_len = n + 8;
        return 2;
    }
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        /* hex digits in written order; "0xff0x14" is two numbers */
        const char *d = s + 2;
        size_t nd = 0;
        while (isxdigit((unsigned char)d[nd]) &&
               !(d[nd] == '0' && (d[nd + 1] == 'x' || d[nd + 1] == 'X') && nd > 0))
            nd++;
        if (!nd)
            return snprintf(err, errlen, "bad hex number in pattern '%s'", s), -1;
        size_t nb = (nd + 1) / 2;
        if (n + nb > JOB_VPATTERN_MAX)
            return snprintf(err, errlen, "pattern longer than %d bytes", JOB_VPATTERN_MAX), -1;
        for (size_t b = 0, i = 0; b < nb; b++) {
            char two[3] = {0};
            size_t take = (b == 0 && nd % 2) ? 1 : 2;
            memcpy(two, d + i, take);
            out[n + b] = (uint8_t)strtoul(two, NULL, 16);
            i += take;
        }
        j->verify_pattern_len = n + (unsigned)nb;
        return (int)(2 + nd);
    }
    if (isdigit((unsigned char)*s) || *s == '-') {
        char *end;
        errno = 0;
        long v = strtol(s, &end, 10);
        if (end == s || errno || v > 2147483647L || v < -2147483647L - 1)
            return snprintf(err, errlen, "bad number in pattern '%s'", s), -1;
        /* fio: the value's low bytes, least significant first, as many as it needs */
        uint32_t u = (uint32_t)v;
        unsigned nb = 0;
        uint8_t tmp[4];
        if (!u)
            tmp[nb++] = 0;
        for (; u; u >>= 8)
            tmp[nb++] = (uint8_t)u;
        if (n + nb > JOB_VPATTERN_MAX)
            return snprintf(err, errlen, "pattern longer than %d bytes", JOB_VPATTERN_MAX), -1;
        memcpy(out + n, tmp, nb);
        j->verify_pattern_len = n + nb;
        return (int)(end - s);
    }
    return snprintf(err, errlen, "bad pattern element '%s'", s), -1;
}

int verify_pattern_parse(struct job_spec *j, const char *v, char *err, size_t errlen)
{
    j->verify_pattern_len = 0;
    j->verify_pattern_nfmt = 0;
    for (const char *s = v; *s;) {
        if (isspace((unsigned char)*s) || *s == ',') {
            s++;
            continue;
        }
        int used = pattern_elem(j, s, err, errlen);
        if (used < 0)
            return -1;
        s += used;
    }
    if (!j->verify_pattern_len)
        return snprintf(err, errlen, "empty pattern"), -1;
    return 0;
}
