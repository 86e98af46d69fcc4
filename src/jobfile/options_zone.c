/* options_zone.c - setters for fio's zone options (zonemode, zoneskip and the
 * "z" suffix of size, io_size, offset, offset_increment and zoneskip: a
 * count of zones) and for its rate floors and latency limits (rate_min,
 * rate_iops_min, max_latency, latency_percentile), plus the finalize step
 * that applies fio's zone rules (init.c fixup_options, zbd.c
 * zbd_recalc_options_with_zone_granularity).
 */
#include "jobfile/options_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "job/spec_parse.h"


/* "Nz": 1 with *n set; 0 when v does not end in 'z'; -EINVAL (message set)
 * for a bad count, as fio's "unexpected zone value". */
static int zone_count(struct job_opt_ctx *c, const char *v, uint64_t *n)
{
    size_t len = strlen(v);
    if (!len || (v[len - 1] != 'z' && v[len - 1] != 'Z'))
        return 0;
    char *ep;
    errno = 0;
    unsigned long long x = strtoull(v, &ep, 10);
    if (errno || ep == v || ep != v + len - 1 || *v == '-' || *v == '+' || x > UINT32_MAX)
        return jopt_fail(c, -EINVAL, "unexpected zone value '%s' (expected a count of zones, e.g. 2z)", v);
    *n = x;
    return 1;
}

JOPT_SETTER(zsize)
{
    uint64_t n;
    int z = zone_count(c, v, &n);
    if (z < 0)
        return z;
    if (z) {
        c->job->size = 0;
        c->job->size_pct = 0;
        c->x->size_nz = n;
        return 0;
    }
    c->x->size_nz = 0;
    return jopt_set_size(o, c, v);
}

JOPT_SETTER(zoffset)
{
    uint64_t n;
    int z = zone_count(c, v, &n);
    if (z < 0)
        return z;
    if (z) {
        c->job->offset = 0;
        c->job->offset_pct = 0;
        c->x->offset_nz = n;
        return 0;
    }
    c->x->offset_nz = 0;
    return jopt_set_offset(o, c, v);
}

/* plain sizes with a zone count: io_size, offset_increment, zoneskip */
static int zsize_field(const struct job_opt *o, struct job_opt_ctx *c, const char *v, uint64_t *field,
                       uint64_t *nz)
{
    (void)o;
    uint64_t n;
    int z = zone_count(c, v, &n);
    if (z < 0)
        return z;
    if (z) {
        *field = 0;
        *nz = n;
        return 0;
    }
    uint64_t b;
    PARSED(spec_parse_size(v, c->x->kb_base, &b, c->err, c->errlen));
    *field = b;
    *nz = 0;
    return 0;
}

/* io_size and offset_increment also take fio's P%: a share of each file
 * (job/job_fiosize.h), the bytes then 0 */
static int pct_field(struct job_opt_ctx *c, const char *v, uint64_t *field, double *pct, uint64_t *nz)
{
    size_t n = strlen(v);
    if (!n || v[n - 1] != '%')
        return 0;
    uint64_t b;
    PARSED(spec_parse_size_pct(v, c->x->kb_base, &b, pct, c->err, c->errlen));
    *field = 0;
    *nz = 0;
    return 1;
}

JOPT_SETTER(zio_size)
{
    int p = pct_field(c, v, &c->job->io_limit, &c->job->io_size_pct, &c->x->io_size_nz);
    if (p)
        return p < 0 ? p : 0;
    c->job->io_size_pct = 0;
    return zsize_field(o, c, v, &c->job->io_limit, &c->x->io_size_nz);
}

JOPT_SETTER(zoffset_inc)
{
    int p = pct_field(c, v, &c->job->offset_increment, &c->job->offset_increment_pct, &c->x->offset_inc_nz);
    if (p)
        return p < 0 ? p : 0;
    c->job->offset_increment_pct = 0;
    return zsize_field(o, c, v, &c->job->offset_increment, &c->x->offset_inc_nz);
}

JOPT_SETTER(zoneskip)
{
    return zsize_field(o, c, v, &c->job->zone_skip, &c->x->zone_skip_nz);
}

JOPT_SETTER(zonemode)
{
    (void)o;
    if (!strcasecmp(v, "none")) {
        c->x->zone_mode = JOB_ZONE_NONE;
        return 0;
    }
    if (!strcasecmp(v, "strided")) {
        c->x->zone_mode = JOB_ZONE_STRIDED;
        return 0;
    }
    if (!strcasecmp(v, "zbd")) {
        c->x->zone_mode = JOB_ZONE_ZBD;
        return 0;
    }
    return jopt_fail(c, -EINVAL, "unknown value '%s' (expected none, strided or zbd)", v);
}

int jopt_finalize_zones(struct job_spec *job, struct job_extra *x, char *err, size_t errlen)
{
    /* fio's fixup_options; zonemode defaults to none (fio 3.33's option
     * default), so zonesize alone is refused as fio refuses it */
    if (x->zone_mode < 0)
        x->zone_mode = JOB_ZONE_NONE;
    if (x->zone_mode == JOB_ZONE_NONE && job->zone_size)
        return snprintf(err, errlen, "zonemode=none and zonesize are not compatible"), -EINVAL;
    if (x->zone_mode == JOB_ZONE_STRIDED && !job->zone_size)
        return snprintf(err, errlen, "zonesize must be specified when using zonemode=strided"), -EINVAL;
    job->zone_mode = (enum job_zone_mode)x->zone_mode;
    if (job->zone_mode == JOB_ZONE_STRIDED && !job->zone_range)
        job->zone_range = job->zone_size;
    /* values in zones: times zonesize (fio leaves them 0 without one) */
    uint64_t zs = job->zone_size;
    const uint64_t nz[5] = {x->size_nz, x->io_size_nz, x->offset_nz, x->offset_inc_nz, x->zone_skip_nz};
    uint64_t *field[5] = {&job->size, &job->io_limit, &job->offset, &job->offset_increment,
                          &job->zone_skip};
    static const char *const names[5] = {"size", "io_size", "offset", "offset_increment", "zoneskip"};
    for (unsigned i = 0; i < 5; i++) {
        if (!nz[i] || !zs)
            continue;
        if (nz[i] > UINT64_MAX / zs)
            return snprintf(err, errlen, "%s: %llu zones of %llu bytes overflow", names[i],
                            (unsigned long long)nz[i], (unsigned long long)zs), -EINVAL;
        *field[i] = nz[i] * zs;
    }
    if (job->zone_mode == JOB_ZONE_ZBD) {
        /* fio takes the zone size from the device; the job's Nz values
         * need it at parse time here */
        if (!zs && (x->size_nz || x->io_size_nz || x->offset_nz || x->offset_inc_nz || x->zone_skip_nz))
            return snprintf(err, errlen, "zonemode=zbd: a size in zones (Nz) needs zonesize"), -EINVAL;
        if (job->zone_skip)
            return snprintf(err, errlen, "zonemode=zbd with zoneskip is not supported by ssdbench"), -ENOTSUP;
        if (job->rw == RW_TRIM || job->rw == RW_RANDTRIM || job->rw == RW_TRIMWRITE || job->rw == RW_RANDTRIMWRITE)
            return snprintf(err, errlen, "zonemode=zbd with trims is not supported by ssdbench"), -ENOTSUP;
    }
    if (job->zone_mode == JOB_ZONE_STRIDED && job->verify != VERIFY_OFF)
        return snprintf(err, errlen, "zonemode=strided with verify is not supported by ssdbench"), -ENOTSUP;
    /* a trimwrite's write follows its trim to the same block; a zone move
     * or restart between the two would put it elsewhere */
    if (job->zone_mode == JOB_ZONE_STRIDED && (job->rw == RW_TRIMWRITE || job->rw == RW_RANDTRIMWRITE))
        return snprintf(err, errlen, "zonemode=strided with rw=trimwrite is not supported by ssdbench"), -ENOTSUP;
    return 0;
}

/* --- rate floors and latency limits --- */

int jopt_finalize_limits(struct job_spec *job, const struct job_extra *x, char *err, size_t errlen)
{
    /* fio's fixup_options */
    uint64_t rmin = 0, imin = 0;
    for (unsigned d = 0; d < DIR_COUNT; d++) {
        rmin += job->rate_min_bytes[d];
        imin += job->rate_min_iops[d];
    }
    if (rmin && imin)
        return snprintf(err, errlen, "rate_min and rate_iops_min are mutually exclusive"), -EINVAL;
    for (unsigned d = 0; d < DIR_COUNT; d++)
        if ((x->rate_bytes[d] && x->rate_bytes[d] < job->rate_min_bytes[d]) ||
            (x->rate_iops[d] && x->rate_iops[d] < job->rate_min_iops[d]))
            return snprintf(err, errlen, "minimum rate exceeds rate, ddir %u", d), -EINVAL;
    return 0;
}

JOPT_SETTER(rate_min)
{
    (void)o;
    return jopt_per_dir(c, v, JOPT_DIR_SIZE, 0, c->job->rate_min_bytes);
}

JOPT_SETTER(rate_iops_min)
{
    (void)o;
    return jopt_per_dir(c, v, JOPT_DIR_UINT, UINT32_MAX, c->job->rate_min_iops);
}

JOPT_SETTER(max_latency)
{
    (void)o;
    return jopt_per_dir(c, v, JOPT_DIR_TIME, 0, c->job->max_latency_ns);
}

JOPT_SETTER(latency_percentile)
{
    (void)o;
    double p;
    PARSED(spec_parse_double(v, &p, c->err, c->errlen));
    if (!(p >= 0 && p <= 100))
        return jopt_fail(c, -EINVAL, "value '%s' is out of range (allowed 0..100)", v);
    c->job->lat_percentile = p;
    return 0;
}

/* --- zonemode=zbd: fio's float options in [0, 1] --- */

static int zbd_share(struct job_opt_ctx *c, const char *v, double *out)
{
    double p;
    PARSED(spec_parse_double(v, &p, c->err, c->errlen));
    if (!(p >= 0 && p <= 1))
        return jopt_fail(c, -EINVAL, "value '%s' is out of range (allowed 0..1)", v);
    *out = p;
    return 0;
}

JOPT_SETTER(zone_reset_threshold)
{
    (void)o;
    return zbd_share(c, v, &c->job->zone_reset_threshold);
}

JOPT_SETTER(zone_reset_frequency)
{
    (void)o;
    return zbd_share(c, v, &c->job->zone_reset_frequency);
}
