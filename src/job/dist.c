/* dist.c - building the bucket/alias tables behind dist.h. Everything here
 * runs once per worker at init; the draw itself is inline in dist.h. */
#include "job/dist.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "base/errmsg.h"

#define DIST_SUM_TOL 0.001

const char *dist_name(enum job_dist kind)
{
    switch (kind) {
    case DIST_UNIFORM: return "uniform";
    case DIST_ZIPF: return "zipf";
    case DIST_PARETO: return "pareto";
    case DIST_NORMAL: return "normal";
    case DIST_ZONED: return "zoned";
    }
    return "unknown";
}

int dist_validate(const struct job_distribution *spec, char *err, size_t errlen)
{
    double p = spec->param;
    switch (spec->kind) {
    case DIST_UNIFORM:
        return 0;
    case DIST_ZIPF:
        if (!(p > 0) || !isfinite(p))
            return errmsg(err, errlen, -EINVAL, "zipf theta %g out of range: must be > 0", p);
        return 0;
    case DIST_PARETO:
        if (!(p > 0 && p < 1))
            return errmsg(err, errlen, -EINVAL,
                             "pareto h %g out of range: must be between 0 and 1 (exclusive)", p);
        return 0;
    case DIST_NORMAL:
        if (!(p > 0) || !isfinite(p))
            return errmsg(err, errlen, -EINVAL,
                             "normal sigma %g%% out of range: must be > 0 (percent of the range)", p);
        return 0;
    case DIST_ZONED: {
        if (spec->nzones < 1 || spec->nzones > JOB_ZONES_MAX)
            return errmsg(err, errlen, -EINVAL, "zoned: %u zones, must be 1 to %u",
                             spec->nzones, JOB_ZONES_MAX);
        double acc = 0, rng = 0;
        for (unsigned i = 0; i < spec->nzones; i++) {
            const struct job_zone *z = &spec->zones[i];
            if (!(z->access_pct >= 0 && z->access_pct <= 100) ||
                !(z->range_pct >= 0 && z->range_pct <= 100))
                return errmsg(err, errlen, -EINVAL,
                                 "zoned: zone %u is %g/%g, shares must be 0 to 100", i + 1,
                                 z->access_pct, z->range_pct);
            if (z->access_pct > 0 && z->range_pct == 0)
                return errmsg(err, errlen, -EINVAL,
                                 "zoned: zone %u is %g/%g, an accessed zone needs a range > 0",
                                 i + 1, z->access_pct, z->range_pct);
            acc += z->access_pct;
            rng += z->range_pct;
        }
        if (fabs(acc - 100) > DIST_SUM_TOL)
            return errmsg(err, errlen, -EINVAL, "zoned: access shares sum to %g%%, must be 100%%",
                             acc);
        if (fabs(rng - 100) > DIST_SUM_TOL)
            return errmsg(err, errlen, -EINVAL, "zoned: range shares sum to %g%%, must be 100%%",
                             rng);
        return 0;
    }
    }
    return errmsg(err, errlen, -EINVAL, "unknown random distribution %d", (int)spec->kind);
}

/* --- table construction ------------------------------------------------- */

static int dist_alloc(struct dist *d, unsigned m)
{
    size_t bytes = (size_t)(m + 1) * sizeof(uint64_t) + (size_t)m * sizeof(struct dist_slot);
    /* slots first: 16-byte entries keep the uint64 bounds aligned after them */
    void *mem = malloc(bytes);
    if (!mem)
        return -ENOMEM;
    d->slot = mem;
    d->start = (uint64_t *)(d->slot + m);
    d->m = m;
    return 0;
}

/* Vose's alias construction from bucket masses (any positive scale). */
static int dist_build_alias(struct dist *d, const double *mass)
{
    unsigned m = d->m;
    double total = 0;
    for (unsigned i = 0; i < m; i++)
        total += mass[i];
    if (!(total > 0))
        return -EINVAL;
    double *q = malloc(sizeof(double) * m);
    uint32_t *small = malloc(sizeof(uint32_t) * m);
    uint32_t *large = malloc(sizeof(uint32_t) * m);
    if (!q || !small || !large) {
        free(q);
        free(small);
        free(large);
        return -ENOMEM;
    }
    unsigned ns = 0, nl = 0;
    for (unsigned i = 0; i < m; i++) {
        q[i] = mass[i] / total * m;
        if (q[i] < 1)
            small[ns++] = i;
        else
            large[nl++] = i;
    }
    while (ns && nl) {
        uint32_t s = small[--ns];
        uint32_t l = large[nl - 1];
        /* 0 <= q[s] < 1; rounding can leave a donor a hair below 0 */
        d->slot[s].thresh = q[s] > 0 ? (uint64_t)ldexp(q[s], 64) : 0;
        d->slot[s].alias = l;
        d->slot[s].pad = 0;
        q[l] -= 1 - q[s];
        if (q[l] < 1) {
            nl--;
            small[ns++] = l;
        }
    }
    /* What is left has q == 1 up to rounding: always itself. */
    while (nl) {
        uint32_t l = large[--nl];
        d->slot[l] = (struct dist_slot){UINT64_MAX, l, 0};
    }
    while (ns) {
        uint32_t s = small[--ns];
        d->slot[s] = (struct dist_slot){UINT64_MAX, s, 0};
    }
    free(q);
    free(small);
    free(large);
    return 0;
}

/* Rank bucket bounds: DIST_EXACT_RANKS single ranks, then geometric growth by
 * rho. Writes m + 1 bounds to out when out != NULL; returns m. */
static unsigned dist_rank_bounds(uint64_t n, double rho, uint64_t *out)
{
    unsigned m = 0;
    uint64_t b = 0;
    if (out)
        out[0] = 0;
    while (b < n) {
        uint64_t nb = b + 1;
        if (b >= DIST_EXACT_RANKS) {
            double x = ceil((double)b * rho);
            nb = x >= (double)n ? n : (uint64_t)x;
            if (nb <= b)
                nb = b + 1;
        }
        b = nb;
        m++;
        if (out)
            out[m] = b;
    }
    return m;
}

static double dist_zipf_direct(uint64_t a, uint64_t b, double theta)
{
    double s = 0;
    for (uint64_t k = b;; k--) { /* small terms first */
        s += pow((double)k, -theta);
        if (k == a)
            break;
    }
    return s;
}

double dist_zipf_sum(uint64_t a, uint64_t b, double theta)
{
    if (a < 1)
        a = 1;
    if (b < a)
        return 0;
    if (b - a < 256 || b < 512)
        return dist_zipf_direct(a, b, theta);
    double head = 0;
    if (a < 256) {
        head = dist_zipf_direct(a, 255, theta);
        a = 256;
    }
    /* Euler-Maclaurin from a >= 256: the first omitted term is below 1e-12
     * of f(a) for theta up to 40, and heavier skews put no mass out here. */
    double A = (double)a, B = (double)b, t = theta;
    double integral;
    if (t == 1)
        integral = log(B / A);
    else
        integral = pow(A, 1 - t) * expm1((1 - t) * log(B / A)) / (1 - t);
    double fa = pow(A, -t), fb = pow(B, -t);
    double d1a = -t * fa / A, d1b = -t * fb / B;
    double c3 = -t * (t + 1) * (t + 2);
    double d3a = c3 * fa / (A * A * A), d3b = c3 * fb / (B * B * B);
    double c5 = c3 * (t + 3) * (t + 4);
    double d5a = c5 * fa / pow(A, 5), d5b = c5 * fb / pow(B, 5);
    return head + integral + (fa + fb) / 2 + (d1b - d1a) / 12 - (d3b - d3a) / 720 +
           (d5b - d5a) / 30240;
}

static int dist_init_ranks(struct dist *d, const struct job_distribution *spec, uint64_t n)
{
    double theta = spec->param, q = 0, e;
    if (spec->kind == DIST_ZIPF) {
        e = -theta;
    } else {
        q = log(1 - spec->param) / log(spec->param); /* 1/p */
        e = q - 1;
    }
    double rho = 1 + 1.0 / (64 * fmax(1, fabs(e)));
    unsigned m = dist_rank_bounds(n, rho, NULL);
    while (m > DIST_MAX_BUCKETS) {
        rho = 1 + (rho - 1) * 1.25;
        m = dist_rank_bounds(n, rho, NULL);
    }
    d->spread = fabs(e) > 0 && n > DIST_EXACT_RANKS ? expm1(fabs(e) * log(rho)) : 0;
    int rc = dist_alloc(d, m);
    if (rc)
        return rc;
    dist_rank_bounds(n, rho, d->start);
    double *mass = malloc(sizeof(double) * m);
    if (!mass)
        return -ENOMEM;
    for (unsigned i = 0; i < m; i++) {
        uint64_t a = d->start[i], b = d->start[i + 1];
        if (spec->kind == DIST_ZIPF) {
            mass[i] = dist_zipf_sum(a + 1, b, theta);
        } else {
            /* P(a <= rank < b) = (b/n)^q - (a/n)^q */
            double fa = a ? pow((double)a / (double)n, q) : 0;
            double fb = b == n ? 1 : pow((double)b / (double)n, q);
            mass[i] = fb - fa;
        }
    }
    rc = dist_build_alias(d, mass);
    free(mass);
    return rc;
}

/* P(za <= Z < zb) for a standard normal, accurate in both tails. */
static double dist_norm_mass(double za, double zb)
{
    const double r = M_SQRT1_2;
    if (za >= 0)
        return 0.5 * (erfc(za * r) - erfc(zb * r));
    if (zb <= 0)
        return 0.5 * (erfc(-zb * r) - erfc(-za * r));
    return 1 - 0.5 * erfc(-za * r) - 0.5 * erfc(zb * r);
}

static int dist_init_normal(struct dist *d, double sigma_pct, uint64_t n)
{
    double N = (double)n, c = N / 2, s = sigma_pct / 100 * N;
    if (s > 4 * N) {
        /* flat: one bucket */
        int rc = dist_alloc(d, 1);
        if (rc)
            return rc;
        d->start[0] = 0;
        d->start[1] = n;
        d->slot[0] = (struct dist_slot){UINT64_MAX, 0, 0};
        return 0;
    }
    uint64_t w = (uint64_t)floor(s / 64);
    uint64_t wmax = (n + 8191) / 8192;
    if (w > wmax)
        w = wmax;
    if (w < 1)
        w = 1;
    uint64_t lo = 0, hi = n;
    if (c - 9 * s > 0 && c + 9 * s < N) {
        lo = (uint64_t)floor((c - 9 * s) / (double)w) * w;
        double h = ceil((c + 9 * s) / (double)w) * (double)w;
        hi = h >= N ? n : (uint64_t)h;
    }
    uint64_t m64 = (hi - lo + w - 1) / w;
    int rc = dist_alloc(d, (unsigned)m64);
    if (rc)
        return rc;
    unsigned m = d->m;
    for (unsigned i = 0; i < m; i++)
        d->start[i] = lo + (uint64_t)i * w;
    d->start[m] = hi;
    double *mass = malloc(sizeof(double) * m);
    if (!mass)
        return -ENOMEM;
    /* Folding: position y in [0,N) collects x = y + 2kN and x = 2kN - y. */
    long kmax = (long)ceil((N + 10 * s) / (2 * N)) + 1;
    for (unsigned i = 0; i < m; i++) {
        double a = (double)d->start[i], b = (double)d->start[i + 1], sum = 0;
        for (long k = -kmax; k <= kmax; k++) {
            double p = 2 * N * (double)k;
            sum += dist_norm_mass((a + p - c) / s, (b + p - c) / s);
            sum += dist_norm_mass((p - b - c) / s, (p - a - c) / s);
        }
        mass[i] = sum;
    }
    d->spread = w > 1 ? expm1(3.0 * (double)w / s) : 0; /* across one bucket at 3 sigma */
    rc = dist_build_alias(d, mass);
    free(mass);
    return rc;
}

static int dist_init_zoned(struct dist *d, const struct job_distribution *spec, uint64_t n,
                           char *err, size_t errlen)
{
    double rsum = 0, asum = 0;
    for (unsigned i = 0; i < spec->nzones; i++) {
        rsum += spec->zones[i].range_pct;
        asum += spec->zones[i].access_pct;
    }
    int rc = dist_alloc(d, spec->nzones);
    if (rc)
        return rc;
    double mass[JOB_ZONES_MAX];
    double cum = 0;
    d->start[0] = 0;
    for (unsigned i = 0; i < spec->nzones; i++) {
        const struct job_zone *z = &spec->zones[i];
        cum += z->range_pct;
        uint64_t end = i + 1 == spec->nzones ? n : (uint64_t)llround(cum / rsum * (double)n);
        if (end > n)
            end = n;
        if (end < d->start[i])
            end = d->start[i];
        d->start[i + 1] = end;
        mass[i] = z->access_pct / asum;
        if (mass[i] > 0 && end == d->start[i])
            return errmsg(err, errlen, -EINVAL,
                             "zoned: zone %u (%g/%g) covers no block of a %llu-block region",
                             i + 1, z->access_pct, z->range_pct, (unsigned long long)n);
    }
    return dist_build_alias(d, mass);
}

int dist_init(struct dist *d, const struct job_distribution *spec, uint64_t n, uint64_t key,
              char *err, size_t errlen)
{
    memset(d, 0, sizeof(*d));
    if (err && errlen)
        err[0] = 0;
    d->kind = spec->kind;
    d->n = n;
    if (n == 0)
        return errmsg(err, errlen, -EINVAL, "%s distribution over an empty region",
                         dist_name(spec->kind));
    int rc = dist_validate(spec, err, errlen);
    if (rc)
        return rc;
    switch (spec->kind) {
    case DIST_UNIFORM:
        return 0;
    case DIST_ZIPF:
    case DIST_PARETO: {
        unsigned bits = 1;
        while (bits < 64 && (1ULL << bits) < n)
            bits++;
        d->perm_mask = bits == 64 ? UINT64_MAX : (1ULL << bits) - 1;
        d->perm_shift = (bits + 1) / 2;
        uint64_t x = key;
        d->perm_key0 = rng_splitmix(&x) & d->perm_mask;
        d->perm_key1 = rng_splitmix(&x) & d->perm_mask;
        d->permute = true;
        rc = dist_init_ranks(d, spec, n);
        break;
    }
    case DIST_NORMAL:
        rc = dist_init_normal(d, spec->param, n);
        break;
    case DIST_ZONED:
        rc = dist_init_zoned(d, spec, n, err, errlen);
        break;
    }
    if (rc) {
        if (rc == -ENOMEM)
            errmsg(err, errlen, rc, "out of memory for the %s table (%u buckets)",
                      dist_name(spec->kind), d->m);
        else if (err && errlen && !err[0])
            errmsg(err, errlen, rc, "%s distribution has no mass", dist_name(spec->kind));
        dist_free(d);
    }
    return rc;
}

void dist_free(struct dist *d)
{
    free(d->slot);
    d->slot = NULL;
    d->start = NULL;
    d->m = 0;
}
