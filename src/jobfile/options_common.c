/* options_common.c - what every setter file of the option table
 * (options_set.c, options_files.c, options_zone.c, options_buf.c ...)
 * shares, declared in options_int.h: the "KEY: message" errors, a 0..100
 * percentage, and fio's per-direction "read,write,trim" values. */
#include "jobfile/options_int.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>

#include "job/spec_parse.h"

int jopt_fail(struct job_opt_ctx *c, int rc, const char *fmt, ...)
{
    if (c->err && c->errlen) {
        int n = snprintf(c->err, c->errlen, "%s: ", c->key);
        if (n >= 0 && (size_t)n < c->errlen) {
            va_list ap;
            va_start(ap, fmt);
            vsnprintf(c->err + n, c->errlen - (size_t)n, fmt, ap);
            va_end(ap);
        }
    }
    return rc;
}

int jopt_prefix(struct job_opt_ctx *c, int rc)
{
    char msg[512];
    snprintf(msg, sizeof(msg), "%s", c->err ? c->err : "");
    return jopt_fail(c, rc, "%s", msg);
}

int jopt_percent(struct job_opt_ctx *c, const char *v, unsigned *out)
{
    uint64_t n;
    if (spec_parse_uint_in(v, 0, 100, &n, NULL, 0))
        return jopt_fail(c, -EINVAL, "value '%s' is out of range (allowed 0..100)", v);
    *out = (unsigned)n;
    return 0;
}

int jopt_per_dir(struct job_opt_ctx *c, const char *v, enum jopt_dir_kind kind, uint64_t max,
                 uint64_t out[DIR_COUNT])
{
    char buf[SPEC_VALUE_MAX];
    const char *f[SPEC_NDIRS];
    uint64_t t[SPEC_NDIRS] = {0};
    PARSED(spec_split_dirs(v, buf, sizeof(buf), f, c->err, c->errlen));
    for (unsigned d = 0; d < SPEC_NDIRS; d++) {
        if (!f[d])
            continue;
        if (kind == JOPT_DIR_SIZE)
            PARSED(spec_parse_size(f[d], c->x->kb_base, &t[d], c->err, c->errlen));
        else if (kind == JOPT_DIR_UINT)
            PARSED(spec_parse_uint_in(f[d], 0, max, &t[d], c->err, c->errlen));
        else
            PARSED(spec_parse_time(f[d], 1000, &t[d], c->err, c->errlen));
    }
    for (unsigned d = 0; d < DIR_COUNT; d++)
        if (f[d])
            out[d] = t[d];
    return 0;
}
