/* spec_parse_mix.c - compound values of the fio option language: per-direction
 * block sizes and mixes, offset distributions, percentile lists, rw modes,
 * engines, layouts and buffer contents.
 *
 * Every parser works on a private copy and writes its outputs only after the
 * whole value has been checked, so a rejected value leaves the job untouched.
 */
#include "job/spec_parse.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "job/spec_parse_int.h"

static const char *const dir_word[SPEC_NDIRS] = {"reads", "writes", "trims"};

/* Sums of shares are compared with this slack: 33.3+33.3+33.4 must pass. */
#define SHARE_EPS 1e-6

static int block_size(const char *s, unsigned kb_base, uint64_t *out, char *err, size_t errlen)
{
    int rc = spec_parse_size(s, kb_base, out, err, errlen);
    if (rc)
        return rc;
    if (*out < 1 || *out > SPEC_BS_MAX)
        return spec_fail(err, errlen, -EINVAL,
                         "block size '%.*s' is out of range (allowed 1 byte to 1g)",
                         SPEC_QUOTE_MAX, s);
    return 0;
}

static void bssplit_single(struct job_bssplit *b, uint64_t bs)
{
    memset(b, 0, sizeof(*b));
    b->n = 1;
    b->bs[0] = (uint32_t)bs;
    b->pct[0] = 100;
}

int spec_parse_bs(const char *s, unsigned kb_base, struct job_bssplit bs[DIR_COUNT], char *err,
                  size_t errlen)
{
    char buf[SPEC_VALUE_MAX];
    const char *f[SPEC_NDIRS];
    uint64_t v[SPEC_NDIRS] = {0};
    int rc = spec_split_dirs(s, buf, sizeof(buf), f, err, errlen);
    for (unsigned d = 0; !rc && d < SPEC_NDIRS; d++)
        if (f[d])
            rc = block_size(f[d], kb_base, &v[d], err, errlen);
    if (rc)
        return rc;
    for (unsigned d = 0; d < DIR_COUNT; d++)
        if (f[d])
            bssplit_single(&bs[d], v[d]);
    return 0;
}

int spec_parse_blockalign(const char *s, unsigned kb_base, uint32_t align[DIR_COUNT], char *err,
                          size_t errlen)
{
    char buf[SPEC_VALUE_MAX];
    const char *f[SPEC_NDIRS];
    uint64_t v[SPEC_NDIRS] = {0};
    int rc = spec_split_dirs(s, buf, sizeof(buf), f, err, errlen);
    for (unsigned d = 0; !rc && d < SPEC_NDIRS; d++) {
        if (!f[d])
            continue;
        rc = spec_parse_size(f[d], kb_base, &v[d], err, errlen);
        if (!rc && v[d] > SPEC_BS_MAX)
            rc = spec_fail(err, errlen, -EINVAL,
                           "block alignment '%s' is out of range (allowed 0 to 1g)", f[d]);
    }
    if (rc)
        return rc;
    for (unsigned d = 0; d < DIR_COUNT; d++)
        if (f[d])
            align[d] = (uint32_t)v[d];
    return 0;
}

/* fio draws lo + hi * u, rounds down to a multiple of lo and clamps to hi. */
static void bsrange_split(uint64_t lo, uint64_t hi, struct job_bssplit *b)
{
    memset(b, 0, sizeof(*b));
    b->range_lo = (uint32_t)lo;
    b->range_hi = (uint32_t)hi;
    uint64_t m = hi / lo, rem = hi % lo;
    if (m + (rem ? 1 : 0) <= JOB_BSSPLIT_MAX) {
        for (uint64_t k = 1; k <= m; k++) {
            b->bs[b->n] = (uint32_t)(k * lo);
            b->pct[b->n++] = 100.0 * (double)lo / (double)hi;
        }
        if (rem) {
            b->bs[b->n] = (uint32_t)hi;
            b->pct[b->n++] = 100.0 * (double)rem / (double)hi;
        }
        return;
    }
    for (unsigned i = 0; i < JOB_BSSPLIT_MAX; i++) {
        uint64_t k = 1 + (uint64_t)((double)i * (double)(m - 1) / (JOB_BSSPLIT_MAX - 1) + 0.5);
        b->bs[i] = (uint32_t)(i == JOB_BSSPLIT_MAX - 1 ? hi : k * lo);
        b->pct[i] = 100.0 / JOB_BSSPLIT_MAX;
    }
    b->n = JOB_BSSPLIT_MAX;
}

int spec_parse_bsrange(const char *s, unsigned kb_base, struct job_bssplit bs[DIR_COUNT],
                       char *err, size_t errlen)
{
    char buf[SPEC_VALUE_MAX];
    const char *f[SPEC_NDIRS];
    uint64_t lo[SPEC_NDIRS] = {0}, hi[SPEC_NDIRS] = {0};
    int rc = spec_split_dirs(s, buf, sizeof(buf), f, err, errlen);
    for (unsigned d = 0; !rc && d < SPEC_NDIRS; d++) {
        if (!f[d])
            continue;
        rc = spec_parse_range(f[d], kb_base, &lo[d], &hi[d], err, errlen);
        if (!rc && (lo[d] < 1 || hi[d] > SPEC_BS_MAX))
            rc = spec_fail(err, errlen, -EINVAL,
                           "block size range '%s' is out of range (allowed 1 byte to 1g)", f[d]);
    }
    if (rc)
        return rc;
    for (unsigned d = 0; d < DIR_COUNT; d++)
        if (f[d])
            bsrange_split(lo[d], hi[d], &bs[d]);
    return 0;
}

/* One direction's "size/pct:size/pct:...". */
static int bssplit_one(char *list, unsigned dir, unsigned kb_base, struct job_bssplit *out,
                       char *err, size_t errlen)
{
    struct job_bssplit t;
    bool missing[JOB_BSSPLIT_MAX];
    unsigned nmiss = 0;
    double sum = 0;
    char *p = list;

    memset(&t, 0, sizeof(t));
    while (*p) {
        char *colon = spec_find_sep(p, ":");
        if (colon)
            *colon = '\0';
        char *ent = spec_trim(p);
        p = colon ? colon + 1 : p + strlen(p);
        if (!*ent)
            return spec_fail(err, errlen, -EINVAL,
                             "bssplit for %s has an empty entry (expected SIZE/PERCENT:SIZE/PERCENT...)",
                             dir_word[dir]);
        if (t.n == JOB_BSSPLIT_MAX)
            return spec_fail(err, errlen, -EINVAL, "bssplit for %s has more than %d entries",
                             dir_word[dir], JOB_BSSPLIT_MAX);
        char *slash = spec_find_sep(ent, "/");
        if (slash)
            *slash = '\0';
        uint64_t bs;
        int rc = block_size(ent, kb_base, &bs, err, errlen);
        if (rc)
            return rc;
        char *pct = slash ? spec_trim(slash + 1) : NULL;
        missing[t.n] = !pct || !*pct;
        if (missing[t.n]) {
            nmiss++;
        } else if (spec_parse_double(pct, &t.pct[t.n], NULL, 0) || t.pct[t.n] > 100) {
            return spec_fail(err, errlen, -EINVAL,
                             "bssplit percentage '%.*s' for %s is invalid (expected 0 to 100)",
                             SPEC_QUOTE_MAX, pct, dir_word[dir]);
        } else {
            sum += t.pct[t.n];
        }
        t.bs[t.n++] = (uint32_t)bs;
    }
    if (t.n == 0)
        return spec_fail(err, errlen, -EINVAL, "bssplit for %s is empty", dir_word[dir]);
    if (nmiss == 0 && fabs(sum - 100) > SHARE_EPS)
        return spec_fail(err, errlen, -EINVAL, "bssplit percentages for %s add up to %g%%, not 100%%",
                         dir_word[dir], sum);
    if (nmiss > 0 && 100 - sum <= SHARE_EPS)
        return spec_fail(err, errlen, -EINVAL,
                         "bssplit percentages for %s add up to %g%%, leaving nothing for the %u entr%s without one",
                         dir_word[dir], sum, nmiss, nmiss == 1 ? "y" : "ies");
    /* blanks share the remainder; 0% entries are dropped */
    unsigned n = 0;
    for (unsigned i = 0; i < t.n; i++) {
        double share = missing[i] ? (100 - sum) / nmiss : t.pct[i];
        if (share <= 0)
            continue;
        out->bs[n] = t.bs[i];
        out->pct[n++] = share;
    }
    out->n = n;
    out->range_lo = out->range_hi = 0; /* a split, not a range */
    return 0;
}

int spec_parse_bssplit(const char *s, unsigned kb_base, struct job_bssplit bs[DIR_COUNT],
                       char *err, size_t errlen)
{
    char buf[SPEC_VALUE_MAX];
    const char *f[SPEC_NDIRS];
    struct job_bssplit t[SPEC_NDIRS];
    memset(t, 0, sizeof(t));
    int rc = spec_split_dirs(s, buf, sizeof(buf), f, err, errlen);
    for (unsigned d = 0; !rc && d < SPEC_NDIRS; d++) {
        if (!f[d])
            continue;
        char list[SPEC_VALUE_MAX];
        strcpy(list, f[d]);
        rc = bssplit_one(list, d, kb_base, &t[d], err, errlen);
    }
    if (rc)
        return rc;
    for (unsigned d = 0; d < DIR_COUNT; d++)
        if (f[d])
            bs[d] = t[d];
    return 0;
}

/* --- random_distribution --- */

static int zone_list(char *list, struct job_distribution *d, char *err, size_t errlen)
{
    static const char form[] = "expected zoned:ACCESS%/RANGE%:..., e.g. zoned:50/5:30/15:20/80";
    bool missing[JOB_ZONES_MAX];
    double asum = 0, rsum = 0;
    unsigned nmiss = 0, n = 0;
    char *p = list;

    while (*p) {
        char *colon = spec_find_sep(p, ":");
        if (colon)
            *colon = '\0';
        char *ent = spec_trim(p);
        p = colon ? colon + 1 : p + strlen(p);
        if (!*ent)
            return spec_fail(err, errlen, -EINVAL, "zoned distribution has an empty zone (%s)", form);
        if (n == JOB_ZONES_MAX)
            return spec_fail(err, errlen, -EINVAL, "zoned distribution has more than %d zones",
                             JOB_ZONES_MAX);
        char *slash = strchr(ent, '/');
        if (slash)
            *slash = '\0';
        struct job_zone *z = &d->zones[n];
        if (spec_parse_double(ent, &z->access_pct, NULL, 0) || z->access_pct > 100)
            return spec_fail(err, errlen, -EINVAL, "zoned access share '%.*s' is invalid (%s)",
                             SPEC_QUOTE_MAX, ent, form);
        asum += z->access_pct;
        char *r = slash ? spec_trim(slash + 1) : NULL;
        missing[n] = !r || !*r;
        if (missing[n]) {
            nmiss++;
        } else if (spec_parse_double(r, &z->range_pct, NULL, 0) || !(z->range_pct > 0) ||
                   z->range_pct > 100) {
            return spec_fail(err, errlen, -EINVAL,
                             "zoned range share '%.*s' is invalid (expected more than 0 and at most 100)",
                             SPEC_QUOTE_MAX, r);
        } else {
            rsum += z->range_pct;
        }
        n++;
    }
    if (n == 0)
        return spec_fail(err, errlen, -EINVAL, "zoned distribution has no zones (%s)", form);
    if (fabs(asum - 100) > SHARE_EPS)
        return spec_fail(err, errlen, -EINVAL, "zoned access shares add up to %g%%, not 100%%", asum);
    if (nmiss == 0 && fabs(rsum - 100) > SHARE_EPS)
        return spec_fail(err, errlen, -EINVAL, "zoned range shares add up to %g%%, not 100%%", rsum);
    if (nmiss > 0 && 100 - rsum <= SHARE_EPS)
        return spec_fail(err, errlen, -EINVAL,
                         "zoned range shares add up to %g%%, leaving nothing for the zones without one",
                         rsum);
    for (unsigned i = 0; i < n; i++)
        if (missing[i])
            d->zones[i].range_pct = (100 - rsum) / nmiss;
    d->nzones = n;
    return 0;
}

static int zoned(char *arg, struct job_distribution *out, char *err, size_t errlen)
{
    char buf[SPEC_VALUE_MAX];
    const char *f[SPEC_NDIRS];
    struct job_distribution t[SPEC_NDIRS];
    int rc = spec_split_dirs(arg, buf, sizeof(buf), f, err, errlen);
    if (rc)
        return rc;
    for (unsigned d = 0; d < SPEC_NDIRS; d++) {
        if (!f[d])
            continue;
        char list[SPEC_VALUE_MAX];
        strcpy(list, f[d]);
        memset(&t[d], 0, sizeof(t[d]));
        t[d].kind = DIST_ZONED;
        if ((rc = zone_list(list, &t[d], err, errlen)))
            return rc;
    }
    if (f[DIR_READ] && f[DIR_WRITE] && memcmp(&t[DIR_READ], &t[DIR_WRITE], sizeof(t[0])))
        return spec_fail(err, errlen, -ENOTSUP,
                         "per-direction zoned lists are not supported: one list applies to reads and writes");
    *out = t[f[DIR_READ] ? DIR_READ : DIR_WRITE];
    return 0;
}

int spec_parse_distribution(const char *s, struct job_distribution *d, char *err, size_t errlen)
{
    static const char form[] =
        "expected random, uniform, zipf:THETA, pareto:H, normal:SIGMA or zoned:ACCESS/RANGE:...";
    char buf[SPEC_VALUE_MAX];
    int rc = spec_copy(s, buf, sizeof(buf), err, errlen);
    if (rc)
        return rc;
    char *name = spec_trim(buf);
    char *arg = strchr(name, ':');
    if (arg)
        *arg++ = '\0';
    struct job_distribution t;
    memset(&t, 0, sizeof(t));

    if (!strcasecmp(name, "random") || !strcasecmp(name, "uniform")) {
        if (arg)
            return spec_fail(err, errlen, -EINVAL, "distribution '%s' takes no parameter", name);
        t.kind = DIST_UNIFORM;
    } else if (!strcasecmp(name, "zoned")) {
        if (!arg)
            return spec_fail(err, errlen, -EINVAL, "zoned distribution needs zones (%s)", form);
        if ((rc = zoned(arg, &t, err, errlen)))
            return rc;
    } else if (!strcasecmp(name, "zoned_abs") || !strcasecmp(name, "sequence")) {
        return spec_fail(err, errlen, -ENOTSUP, "random_distribution=%s is not supported (%s)",
                         name, form);
    } else if (!strcasecmp(name, "zipf") || !strcasecmp(name, "pareto") ||
               !strcasecmp(name, "normal") || !strcasecmp(name, "gauss")) {
        t.kind = tolower((unsigned char)name[0]) == 'z'   ? DIST_ZIPF
                 : tolower((unsigned char)name[0]) == 'p' ? DIST_PARETO
                                                          : DIST_NORMAL;
        t.param = t.kind == DIST_ZIPF ? 1.1 : t.kind == DIST_PARETO ? 0.2 : 0;
        if (arg) {
            char *center = strchr(arg, ':');
            if (center)
                *center++ = '\0';
            if (spec_parse_double(arg, &t.param, NULL, 0))
                return spec_fail(err, errlen, -EINVAL, "invalid %s parameter '%s' (%s)", name, arg,
                                 form);
            double c = 0;
            if (center && (spec_parse_double(center, &c, NULL, 0) || c > 1))
                return spec_fail(err, errlen, -EINVAL,
                                 "invalid %s centre '%s' (expected 0 to 1)", name, center);
            if (c != 0)
                return spec_fail(err, errlen, -ENOTSUP,
                                 "a %s hot-spot centre other than 0 is not supported ('%s')", name, center);
        }
        if (t.kind == DIST_ZIPF && !(t.param > 0))
            return spec_fail(err, errlen, -EINVAL, "zipf theta %g is out of range (expected more than 0)",
                             t.param);
        if (t.kind == DIST_PARETO && !(t.param > 0 && t.param < 1))
            return spec_fail(err, errlen, -EINVAL,
                             "pareto h %g is out of range (expected more than 0 and less than 1)", t.param);
        if (t.kind == DIST_NORMAL && !(t.param > 0 && t.param < 100))
            return spec_fail(err, errlen, -EINVAL,
                             "normal sigma %s is out of range (expected normal:SIGMA with 0 < SIGMA < 100, percent of the range)",
                             arg ? arg : "(none)");
    } else {
        return spec_fail(err, errlen, -EINVAL, "unknown distribution '%.*s' (%s)", SPEC_QUOTE_MAX,
                         name, form);
    }
    *d = t;
    return 0;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int spec_parse_percentiles(const char *s, double out[JOB_PCT_MAX], unsigned *n, char *err,
                           size_t errlen)
{
    char buf[SPEC_VALUE_MAX];
    double t[JOB_PCT_MAX];
    unsigned k = 0;
    int rc = spec_copy(s, buf, sizeof(buf), err, errlen);
    if (rc)
        return rc;
    for (char *save = NULL, *tok = strtok_r(buf, ":,", &save); tok; tok = strtok_r(NULL, ":,", &save)) {
        tok = spec_trim(tok);
        if (k == JOB_PCT_MAX)
            return spec_fail(err, errlen, -EINVAL, "percentile list '%.*s' has more than %d values",
                             SPEC_QUOTE_MAX, s, JOB_PCT_MAX);
        if (spec_parse_double(tok, &t[k], NULL, 0) || !(t[k] > 0 && t[k] <= 100))
            return spec_fail(err, errlen, -EINVAL,
                             "invalid percentile '%.*s' (expected more than 0 and at most 100)",
                             SPEC_QUOTE_MAX, tok);
        k++;
    }
    if (k == 0)
        return spec_fail(err, errlen, -EINVAL,
                         "empty percentile list (expected values such as 50:99:99.9)");
    qsort(t, k, sizeof(t[0]), cmp_double);
    unsigned m = 0;
    for (unsigned i = 0; i < k; i++)
        if (m == 0 || t[i] != out[m - 1])
            out[m++] = t[i];
    *n = m;
    return 0;
}

int spec_parse_rw(const char *s, unsigned kb_base, enum job_rw *rw, unsigned *seq_nr,
                  uint64_t *hole, char *err, size_t errlen)
{
    static const struct {
        const char *name;
        enum job_rw rw;
    } modes[] = {
        {"read", RW_READ},   {"write", RW_WRITE},   {"randread", RW_RANDREAD},
        {"randwrite", RW_RANDWRITE}, {"rw", RW_RW}, {"readwrite", RW_RW},
        {"randrw", RW_RANDRW},
        {"trim", RW_TRIM}, {"randtrim", RW_RANDTRIM}, {"trimwrite", RW_TRIMWRITE},
        {"randtrimwrite", RW_RANDTRIMWRITE},
    };
    char buf[128];
    int rc = spec_copy(s, buf, sizeof(buf), err, errlen);
    if (rc)
        return rc;
    char *name = spec_trim(buf);
    char *suf = strchr(name, ':');
    if (suf)
        *suf++ = '\0';
    for (unsigned i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
        if (strcasecmp(name, modes[i].name))
            continue;
        uint64_t v = 0;
        bool random = modes[i].rw == RW_RANDREAD || modes[i].rw == RW_RANDWRITE ||
                      modes[i].rw == RW_RANDRW || modes[i].rw == RW_RANDTRIM ||
                      modes[i].rw == RW_RANDTRIMWRITE;
        if (suf && random &&
            spec_parse_uint_in(suf, 1, UINT32_MAX, &v, NULL, 0))
            return spec_fail(err, errlen, -EINVAL,
                             "invalid rw suffix '%s:%s' (random modes take a count of I/Os per offset, e.g. %s:8)",
                             name, suf, name);
        /* fio's negative offset increment (read:-8k): backwards */
        bool back = suf && !random && suf[0] == '-';
        if (suf && !random && (spec_parse_size(suf + back, kb_base, &v, NULL, 0) || (back && (v == 0 || v > INT64_MAX))))
            return spec_fail(err, errlen, -EINVAL,
                             "invalid rw suffix '%s:%s' (sequential modes take a size to skip after each I/O, e.g. %s:4k, or to step back, e.g. %s:-8k)",
                             name, suf, name, name);
        *rw = modes[i].rw;
        *seq_nr = suf && random ? (unsigned)v : 1;
        *hole = suf && !random ? (back ? (uint64_t)0 - v : v) : 0;
        return 0;
    }
    return spec_fail(err, errlen, -EINVAL,
                     "unknown rw mode '%.*s' (expected read, write, randread, randwrite, rw, readwrite, randrw, trim, randtrim, trimwrite or randtrimwrite)",
                     SPEC_QUOTE_MAX, name);
}

int spec_parse_engine(const char *s, enum engine_kind *e, char *err, size_t errlen)
{
    static const struct {
        const char *name;
        enum engine_kind e;
    } engines[] = {
        {"io_uring", ENGINE_IO_URING}, {"libaio", ENGINE_LIBAIO}, {"psync", ENGINE_PSYNC},
        {"pvsync", ENGINE_PSYNC},      {"sync", ENGINE_PSYNC},    {"null", ENGINE_NULL},
        {"io_uring_cmd", ENGINE_URING_CMD}, {"sg", ENGINE_SG}, {"posixaio", ENGINE_POSIXAIO},
        {"falloc", ENGINE_FALLOC}, {"ftruncate", ENGINE_FTRUNCATE}, {"cpuio", ENGINE_CPUIO},
        {"filecreate", ENGINE_FILECREATE}, {"filestat", ENGINE_FILESTAT}, {"filedelete", ENGINE_FILEDELETE},
        {"exec", ENGINE_EXEC}, {"e4defrag", ENGINE_E4DEFRAG},
    };
    static const char *const fio_only[] = {
        "vsync", "pvsync2", "mmap", "splice", "net",
        "netsplice", "rdma", "rbd", "http", "nfs",
        "dircreate", "dirstat", "dirdelete",
        "libhdfs", "mtd", "nbd", "dev-dax", "libpmem", "xnvme", "libzbc", "spdk",
        "windowsaio", "solarisaio", "guasi", "gfapi", "gfapi_async", "libcufile", "libiscsi",
        /* the rest of fio 3.33's engines (its engines/ folder) */
        "rados", "dfs", "ime_psync", "ime_psyncv", "ime_aio", "pmemblk", "librpma_apm_client",
        "librpma_apm_server", "librpma_gpspm_client", "librpma_gpspm_server",
    };
    char buf[128];
    int rc = spec_copy(s, buf, sizeof(buf), err, errlen);
    if (rc)
        return rc;
    char *v = spec_trim(buf);
    for (unsigned i = 0; i < sizeof(engines) / sizeof(engines[0]); i++)
        if (!strcasecmp(v, engines[i].name)) {
            *e = engines[i].e;
            return 0;
        }
    bool known = !strncasecmp(v, "external", 8);
    for (unsigned i = 0; i < sizeof(fio_only) / sizeof(fio_only[0]); i++)
        known = known || !strcasecmp(v, fio_only[i]);
    return spec_fail(err, errlen, known ? -ENOTSUP : -EINVAL,
                     "%s ioengine '%.*s' (expected io_uring, libaio, posixaio, psync, pvsync, sync, null, io_uring_cmd, sg, "
                     "falloc, ftruncate, cpuio, filecreate, filestat, filedelete, exec or e4defrag)",
                     known ? "unsupported" : "unknown", SPEC_QUOTE_MAX, v);
}

int spec_parse_layout(const char *s, unsigned kb_base, enum job_layout *l, uint64_t *chunk,
                      char *err, size_t errlen)
{
    char buf[128];
    int rc = spec_copy(s, buf, sizeof(buf), err, errlen);
    if (rc)
        return rc;
    char *v = spec_trim(buf);
    char *arg = strchr(v, ':');
    if (arg)
        *arg++ = '\0';
    if (!strcasecmp(v, "stripe")) {
        uint64_t c = 0;
        if (arg) {
            if ((rc = spec_parse_size(arg, kb_base, &c, err, errlen)))
                return rc;
            if (c < 512 || c > SPEC_BS_MAX || c % 512)
                return spec_fail(err, errlen, -EINVAL,
                                 "stripe chunk '%s' is out of range (allowed a multiple of 512 from 512 to 1g)",
                                 arg);
            *chunk = c;
        }
        *l = LAYOUT_STRIPE;
        return 0;
    }
    if (!arg && !strcasecmp(v, "jbod")) {
        *l = LAYOUT_JBOD;
        return 0;
    }
    if (!arg && !strcasecmp(v, "random")) {
        *l = LAYOUT_RANDOM;
        return 0;
    }
    return spec_fail(err, errlen, -EINVAL, "unknown layout '%.*s' (expected jbod, stripe[:CHUNK] or random)",
                     SPEC_QUOTE_MAX, s);
}

int spec_parse_buffer(const char *s, enum job_buffer *b, unsigned *compress_pct, char *err,
                      size_t errlen)
{
    char buf[128];
    int rc = spec_copy(s, buf, sizeof(buf), err, errlen);
    if (rc)
        return rc;
    char *v = spec_trim(buf);
    char *arg = strchr(v, ':');
    if (arg)
        *arg++ = '\0';
    if (!strcasecmp(v, "compressible") && arg) {
        uint64_t p;
        if (spec_parse_uint_in(arg, 0, 100, &p, NULL, 0))
            return spec_fail(err, errlen, -EINVAL,
                             "invalid compressible share '%s' (expected compressible:PCT with PCT 0..100)", arg);
        *b = BUF_COMPRESSIBLE;
        *compress_pct = (unsigned)p;
        return 0;
    }
    if (!arg && !strcasecmp(v, "random")) {
        *b = BUF_RANDOM;
        return 0;
    }
    if (!arg && !strcasecmp(v, "zero")) {
        *b = BUF_ZERO;
        return 0;
    }
    return spec_fail(err, errlen, -EINVAL,
                     "unknown buffer '%.*s' (expected random, zero or compressible:PCT)", SPEC_QUOTE_MAX, s);
}
