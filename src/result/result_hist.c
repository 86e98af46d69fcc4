/* result_hist.c - lossless (de)serialisation of struct hist. Reading is strict:
 * a result file that does not describe a possible histogram is refused with a
 * reason rather than producing percentiles from damaged data. */
#include "result/result_hist.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define JSON_EXACT_LIMIT 9007199254740992.0   /* 2^53: doubles are exact below */

/* ---- writing ---------------------------------------------------------- */

static void u128_to_dec(unsigned __int128 v, char *buf, size_t len)
{
    char tmp[48];
    size_t n = 0;
    do {
        tmp[n++] = (char)('0' + (unsigned)(v % 10));
        v /= 10;
    } while (v && n < sizeof(tmp));
    size_t i = 0;
    for (; i < n && i + 1 < len; i++)
        buf[i] = tmp[n - 1 - i];
    buf[i] = '\0';
}

static cJSON *json_u128(unsigned __int128 v, int always_string)
{
    if (!always_string && v < (unsigned __int128)(1ULL << 53))
        return cJSON_CreateNumber((double)(uint64_t)v);
    char buf[48];
    u128_to_dec(v, buf, sizeof(buf));
    return cJSON_CreateString(buf);
}

/* Adds [index, count] to arr; returns 0 on success. */
static int add_pair(cJSON *arr, unsigned idx, uint64_t count)
{
    cJSON *pair = cJSON_CreateArray();
    if (!pair)
        return -1;
    if (!cJSON_AddItemToArray(arr, pair)) {
        cJSON_Delete(pair);
        return -1;
    }
    cJSON *a = cJSON_CreateNumber(idx), *b = json_u128(count, 0);
    int ok = a && cJSON_AddItemToArray(pair, a);
    if (!ok)
        cJSON_Delete(a);
    ok = ok && b && cJSON_AddItemToArray(pair, b);
    if (!ok)
        cJSON_Delete(b);
    return ok ? 0 : -1;
}

static int add_field(cJSON *obj, const char *key, cJSON *item)
{
    if (!item)
        return -1;
    if (!cJSON_AddItemToObject(obj, key, item)) {
        cJSON_Delete(item);
        return -1;
    }
    return 0;
}

cJSON *result_hist_to_json(const struct hist *h)
{
    cJSON *o = cJSON_CreateObject();
    if (!o)
        return NULL;
    int bad = 0;
    bad |= add_field(o, "sub_bucket_bits", cJSON_CreateNumber(HIST_SUB_BITS));
    bad |= add_field(o, "max_bits", cJSON_CreateNumber(HIST_MAX_BITS));
    bad |= add_field(o, "n", json_u128(h->n, 0));
    bad |= add_field(o, "sum", json_u128(h->sum, 0));
    bad |= add_field(o, "sumsq", json_u128(h->sumsq, 1));
    bad |= add_field(o, "min", json_u128(h->min, 0));
    bad |= add_field(o, "max", json_u128(h->max, 0));

    cJSON *ms = cJSON_CreateArray();
    bad |= add_field(o, "ms_log2", ms);
    if (ms) {
        uint64_t above0 = 0;
        for (unsigned i = 1; i < HIST_MS_BUCKETS; i++)
            above0 += h->ms_log2[i];
        if (h->n - above0)
            bad |= add_pair(ms, 0, h->n - above0);
        for (unsigned i = 1; i < HIST_MS_BUCKETS && !bad; i++)
            if (h->ms_log2[i])
                bad |= add_pair(ms, i, h->ms_log2[i]);
    }
    cJSON *bk = cJSON_CreateArray();
    bad |= add_field(o, "buckets", bk);
    for (unsigned i = 0; bk && i < HIST_NBUCKETS && !bad; i++)
        if (h->counts[i])
            bad |= add_pair(bk, i, h->counts[i]);
    if (bad) {
        cJSON_Delete(o);
        return NULL;
    }
    return o;
}

/* ---- reading ---------------------------------------------------------- */

static int fail(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int fail(char *err, size_t errlen, const char *fmt, ...)
{
    if (err && errlen) {
        int n = snprintf(err, errlen, "histogram: ");
        if (n >= 0 && (size_t)n < errlen) {
            va_list ap;
            va_start(ap, fmt);
            vsnprintf(err + n, errlen - (size_t)n, fmt, ap);
            va_end(ap);
        }
    }
    return -EINVAL;
}

/* Short rendering of a JSON value for error messages. */
static const char *describe(const cJSON *it, char *buf, size_t len)
{
    if (!it)
        snprintf(buf, len, "nothing");
    else if (cJSON_IsNumber(it))
        snprintf(buf, len, "%.17g", it->valuedouble);
    else if (cJSON_IsString(it))
        snprintf(buf, len, "\"%.40s%s\"", it->valuestring,
                 strlen(it->valuestring) > 40 ? "..." : "");
    else if (cJSON_IsArray(it))
        snprintf(buf, len, "an array");
    else if (cJSON_IsObject(it))
        snprintf(buf, len, "an object");
    else if (cJSON_IsBool(it))
        snprintf(buf, len, "%s", cJSON_IsTrue(it) ? "true" : "false");
    else if (cJSON_IsNull(it))
        snprintf(buf, len, "null");
    else
        snprintf(buf, len, "an invalid value");
    return buf;
}

/* A non-negative integer written as a JSON number below 2^53 or as a decimal
 * string; limit is the largest value accepted. Returns 0 or -1. */
static int get_uint(const cJSON *it, unsigned __int128 limit, unsigned __int128 *out)
{
    if (cJSON_IsNumber(it)) {
        double d = it->valuedouble;
        if (!(d >= 0.0) || d >= JSON_EXACT_LIMIT || floor(d) != d)
            return -1;
        if ((unsigned __int128)(uint64_t)d > limit)
            return -1;
        *out = (uint64_t)d;
        return 0;
    }
    if (!cJSON_IsString(it) || !it->valuestring || !it->valuestring[0])
        return -1;
    unsigned __int128 v = 0;
    for (const char *p = it->valuestring; *p; p++) {
        if (*p < '0' || *p > '9')
            return -1;
        unsigned d = (unsigned)(*p - '0');
        if (v > (limit - d) / 10)
            return -1;
        v = v * 10 + d;
    }
    *out = v;
    return 0;
}

static int get_u64_field(const cJSON *j, const char *key, uint64_t *out,
                         char *err, size_t errlen)
{
    const cJSON *it = cJSON_GetObjectItemCaseSensitive(j, key);
    unsigned __int128 v;
    if (!it)
        return fail(err, errlen, "missing \"%s\"", key);
    if (get_uint(it, UINT64_MAX, &v)) {
        char d[64];
        return fail(err, errlen, "\"%s\" is %s, expected an integer 0..2^64-1 "
                    "(as a string from 2^53 on)", key, describe(it, d, sizeof(d)));
    }
    *out = (uint64_t)v;
    return 0;
}

/* Reads a list of [index, count] pairs with strictly increasing indices below
 * nidx into counts[] (already zeroed). total receives the sum of counts. */
static int get_pairs(const cJSON *j, const char *key, unsigned nidx, uint64_t *counts,
                     unsigned __int128 *total, char *err, size_t errlen)
{
    const cJSON *arr = cJSON_GetObjectItemCaseSensitive(j, key);
    char d[64];
    if (!arr)
        return fail(err, errlen, "missing \"%s\"", key);
    if (!cJSON_IsArray(arr))
        return fail(err, errlen, "\"%s\" is %s, expected an array of [index, count] pairs",
                    key, describe(arr, d, sizeof(d)));
    *total = 0;
    long prev = -1;
    int pos = 0;
    for (const cJSON *p = arr->child; p; p = p->next, pos++) {
        if (!cJSON_IsArray(p) || cJSON_GetArraySize(p) != 2)
            return fail(err, errlen, "%s[%d] is %s, expected an [index, count] pair",
                        key, pos, cJSON_IsArray(p) ? "an array not of 2 items"
                                                   : describe(p, d, sizeof(d)));
        unsigned __int128 idx, cnt;
        const cJSON *ji = p->child, *jc = p->child->next;
        if (!cJSON_IsNumber(ji) || get_uint(ji, UINT32_MAX, &idx) || idx >= nidx)
            return fail(err, errlen, "%s[%d]: index %s out of range 0..%u",
                        key, pos, describe(ji, d, sizeof(d)), nidx - 1);
        if ((long)idx <= prev)
            return fail(err, errlen, "%s[%d]: index %u not above the previous index %ld",
                        key, pos, (unsigned)idx, prev);
        if (get_uint(jc, UINT64_MAX, &cnt))
            return fail(err, errlen, "%s[%d]: count %s is not an integer 0..2^64-1 "
                        "(as a string from 2^53 on)", key, pos, describe(jc, d, sizeof(d)));
        prev = (long)idx;
        counts[idx] = (uint64_t)cnt;
        *total += cnt;
    }
    return 0;
}

static int parse(const cJSON *j, struct hist *h, char *err, size_t errlen)
{
    char d[64];
    if (!cJSON_IsObject(j))
        return fail(err, errlen, "expected an object, found %s", describe(j, d, sizeof(d)));

    static const struct { const char *key; unsigned want; } layout[] = {
        {"sub_bucket_bits", HIST_SUB_BITS}, {"max_bits", HIST_MAX_BITS},
    };
    for (unsigned i = 0; i < sizeof(layout) / sizeof(layout[0]); i++) {
        const cJSON *it = cJSON_GetObjectItemCaseSensitive(j, layout[i].key);
        if (!it)
            return fail(err, errlen, "missing \"%s\"", layout[i].key);
        if (!cJSON_IsNumber(it) || it->valuedouble != (double)layout[i].want)
            return fail(err, errlen, "\"%s\" is %s; this version reads only %u",
                        layout[i].key, describe(it, d, sizeof(d)), layout[i].want);
    }

    int rc;
    if ((rc = get_u64_field(j, "n", &h->n, err, errlen)) ||
        (rc = get_u64_field(j, "sum", &h->sum, err, errlen)) ||
        (rc = get_u64_field(j, "min", &h->min, err, errlen)) ||
        (rc = get_u64_field(j, "max", &h->max, err, errlen)))
        return rc;
    const cJSON *sq = cJSON_GetObjectItemCaseSensitive(j, "sumsq");
    if (!sq)
        return fail(err, errlen, "missing \"sumsq\"");
    if (get_uint(sq, ~(unsigned __int128)0, &h->sumsq))
        return fail(err, errlen, "\"sumsq\" is %s, expected a decimal string",
                    describe(sq, d, sizeof(d)));

    unsigned __int128 total;
    if ((rc = get_pairs(j, "buckets", HIST_NBUCKETS, h->counts, &total, err, errlen)))
        return rc;
    if (total != h->n)
        return fail(err, errlen, "bucket counts add up to %s, but n is %" PRIu64,
                    (u128_to_dec(total, d, sizeof(d)), d), h->n);

    unsigned __int128 mstotal;
    if ((rc = get_pairs(j, "ms_log2", HIST_MS_BUCKETS, h->ms_log2, &mstotal, err, errlen)))
        return rc;
    /* Index 0 is implied in memory (see struct hist); when listed it must agree. */
    unsigned __int128 above0 = mstotal - h->ms_log2[0];
    if (above0 > h->n || (h->ms_log2[0] && h->ms_log2[0] != h->n - above0) ||
        (!h->ms_log2[0] && above0 != h->n))
        return fail(err, errlen, "ms_log2 counts add up to %s, but n is %" PRIu64,
                    (u128_to_dec(mstotal, d, sizeof(d)), d), h->n);
    h->ms_log2[0] = 0;

    if (h->n == 0) {
        if (h->sum || h->sumsq || h->max || h->min != UINT64_MAX)
            return fail(err, errlen, "empty (n is 0) but sum, sumsq, min or max is set "
                        "(an empty histogram has min 18446744073709551615 and max 0)");
        return 0;
    }
    unsigned first = 0, last = HIST_NBUCKETS - 1;
    while (!h->counts[first])
        first++;
    while (!h->counts[last])
        last--;
    if (h->min > h->max)
        return fail(err, errlen, "min %" PRIu64 " is above max %" PRIu64, h->min, h->max);
    if (hist_index(h->min) != first)
        return fail(err, errlen, "min %" PRIu64 " is not in the lowest non-empty bucket %u",
                    h->min, first);
    if (hist_index(h->max) != last)
        return fail(err, errlen, "max %" PRIu64 " is not in the highest non-empty bucket %u",
                    h->max, last);
    /* Where the sum cannot have wrapped, it must lie between n*min and n*max. */
    unsigned __int128 nmax = (unsigned __int128)h->n * h->max;
    if (nmax <= UINT64_MAX &&
        (h->sum < (unsigned __int128)h->n * h->min || h->sum > nmax))
        return fail(err, errlen, "sum %" PRIu64 " is outside n*min..n*max", h->sum);
    return 0;
}

int result_hist_from_json(const cJSON *j, struct hist *h, char *err, size_t errlen)
{
    hist_init(h);
    int rc = parse(j, h, err, errlen);
    if (rc)
        hist_init(h);
    return rc;
}
