/* cluster.c - see cluster.h: the single-process table, the collective
 * wrappers, the agreed start, the plan hash and {rank} substitution. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/clock.h"
#include "base/cluster.h"

static int single_barrier(struct cluster *c)
{
    return 0;
}

static int single_bcast(struct cluster *c, void *buf, size_t len, unsigned root)
{
    return root == 0 ? 0 : -EINVAL;
}

static int single_reduce_u64(struct cluster *c, uint64_t *buf, size_t n, enum cluster_op op)
{
    return 0;
}

static int single_reduce_double(struct cluster *c, double *buf, size_t n, enum cluster_op op)
{
    return 0;
}

static int single_gather(struct cluster *c, const void *blob, size_t len, void **out, size_t **lens)
{
    *out = malloc(len ? len : 1);
    *lens = malloc(sizeof(size_t));
    if (!*out || !*lens) {
        free(*out);
        free(*lens);
        *out = NULL;
        *lens = NULL;
        return -ENOMEM;
    }
    memcpy(*out, blob, len);
    (*lens)[0] = len;
    return 0;
}

static void single_abort(struct cluster *c, int code, const char *msg)
{
    if (msg && *msg)
        dprintf(c ? c->errfd : 2, "ssdbench: %s\n", msg);
    exit(code);
}

static const struct cluster_ops single_ops = {
    .name = "single",
    .barrier = single_barrier,
    .bcast = single_bcast,
    .reduce_u64 = single_reduce_u64,
    .reduce_double = single_reduce_double,
    .gather = single_gather,
    .abort = single_abort,
};

void cluster_single(struct cluster *c)
{
    memset(c, 0, sizeof(*c));
    c->ops = &single_ops;
    c->nranks = 1;
    c->localsize = 1;
    c->nhosts = 1;
    c->errfd = 2;
    if (gethostname(c->host, sizeof(c->host)) < 0 || !c->host[0])
        snprintf(c->host, sizeof(c->host), "localhost");
    c->host[sizeof(c->host) - 1] = 0;
}

int cluster_barrier(struct cluster *c)
{
    return c ? c->ops->barrier(c) : 0;
}

int cluster_bcast(struct cluster *c, void *buf, size_t len, unsigned root)
{
    return c ? c->ops->bcast(c, buf, len, root) : 0;
}

int cluster_reduce_u64(struct cluster *c, uint64_t *buf, size_t n, enum cluster_op op)
{
    return c && n ? c->ops->reduce_u64(c, buf, n, op) : 0;
}

int cluster_reduce_double(struct cluster *c, double *buf, size_t n, enum cluster_op op)
{
    return c && n ? c->ops->reduce_double(c, buf, n, op) : 0;
}

int cluster_gather(struct cluster *c, const void *blob, size_t len, void **out, size_t **lens)
{
    if (c)
        return c->ops->gather(c, blob, len, out, lens);
    return single_gather(NULL, blob, len, out, lens);
}

void cluster_abort(struct cluster *c, int code, const char *msg)
{
    if (c)
        c->ops->abort(c, code, msg);
    single_abort(NULL, code, msg);
}

uint64_t cluster_agree_start(struct cluster *c, uint64_t lead_ns)
{
    uint64_t t = clock_wall_ns() + lead_ns;
    cluster_bcast(c, &t, sizeof(t), 0);
    return t;
}

int64_t cluster_sleep_until_wall(uint64_t t)
{
    struct timespec ts = {.tv_sec = (time_t)(t / 1000000000ull), .tv_nsec = (long)(t % 1000000000ull)};
    while (clock_nanosleep(CLOCK_REALTIME, TIMER_ABSTIME, &ts, NULL) == EINTR)
        if (clock_wall_ns() >= t)
            break;
    return (int64_t)(clock_wall_ns() - t);
}

uint64_t cluster_hash(uint64_t h, const void *p, size_t len)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < len; i++) {
        h ^= b[i];
        h *= 0x100000001b3ull;
    }
    return h;
}

bool cluster_same_u64(struct cluster *c, uint64_t v)
{
    uint64_t lo = v, hi = v;
    if (cluster_reduce_u64(c, &lo, 1, CLUSTER_MIN) < 0 || cluster_reduce_u64(c, &hi, 1, CLUSTER_MAX) < 0)
        return false;
    return lo == hi;
}

/* The value of name ("rank" ...) into buf, or NULL when name is not one. */
static const char *subst_value(const struct cluster *c, const char *name, size_t len, char *buf, size_t blen)
{
    static const char *const names[] = {"rank", "nranks", "host", "localrank", "localsize", "hostindex", "nhosts"};
    struct cluster one;
    if (!c) {
        cluster_single(&one);
        c = &one;
    }
    unsigned v[] = {c->rank, c->nranks, 0, c->localrank, c->localsize, c->hostindex, c->nhosts};
    for (unsigned i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
        if (strlen(names[i]) != len || memcmp(names[i], name, len))
            continue;
        if (i == 2)
            snprintf(buf, blen, "%s", c->host);
        else
            snprintf(buf, blen, "%u", v[i]);
        return buf;
    }
    return NULL;
}

int cluster_subst(const struct cluster *c, const char *in, char *out, size_t outlen)
{
    size_t o = 0;
    char val[CLUSTER_HOST_MAX + 16];
    for (const char *p = in; *p;) {
        const char *rep = NULL;
        size_t skip = 1;
        if (*p == '{') {
            const char *e = strchr(p + 1, '}');
            if (e && (rep = subst_value(c, p + 1, (size_t)(e - p - 1), val, sizeof(val))))
                skip = (size_t)(e - p) + 1;
        }
        size_t n = rep ? strlen(rep) : 1;
        if (o + n >= outlen)
            return -1;
        memcpy(out + o, rep ? rep : p, n);
        o += n;
        p += skip;
    }
    if (o >= outlen)
        return -1;
    out[o] = 0;
    return (int)o;
}

bool cluster_has_subst(const char *s)
{
    char val[CLUSTER_HOST_MAX + 16];
    for (const char *p = strchr(s, '{'); p; p = strchr(p + 1, '{')) {
        const char *e = strchr(p + 1, '}');
        if (e && subst_value(NULL, p + 1, (size_t)(e - p - 1), val, sizeof(val)))
            return true;
    }
    return false;
}
