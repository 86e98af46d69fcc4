/* options_buf.c - setters of fio's buffer-content options (buffer_pattern,
 * buffer_compress_percentage, dedupe_percentage, dedupe_mode,
 * dedupe_working_set_percentage,
 * scramble_buffers, refill_buffers) and their resolution at finalize, in
 * fio 3.33's rules (options.c str_buffer_pattern_cb, str_dedupe_cb;
 * init.c fixup_options and init_flags). The fill itself is
 * runner/worker_buf.c. */
#include "jobfile/options_int.h"

#include <errno.h>
#include <string.h>
#include <strings.h>

#include "base/buf_pattern.h"
#include "job/spec_parse.h"

JOPT_SETTER(buffer_pattern)
{
    char msg[160];
    (void)o;
    int n = buf_pattern_parse(v, c->job->buf_pattern, JOB_VPATTERN_MAX, msg, sizeof(msg));
    if (n < 0)
        return jopt_fail(c, -EINVAL, "%s", msg);
    c->job->buf_pattern_len = (unsigned)n;
    /* fio: a pattern turns scrambling and zero buffers off (refill is
     * decided at finalize, when the job's directions are known) */
    c->job->scramble_buffers = false;
    if (c->job->buffer == BUF_ZERO)
        c->job->buffer = BUF_RANDOM;
    return 0;
}

/* fio's buffer_compress_percentage: fio's layout (compress_chunk), and
 * given at all it stops scrambling (fio's TD_F_COMPRESS). */
JOPT_SETTER(fio_compress)
{
    unsigned p = 0;
    (void)o;
    int rc = jopt_percent(c, v, &p);
    if (rc)
        return rc;
    c->job->compress_pct = p;
    c->job->compress_fio = p > 0;
    c->job->buffer = p ? BUF_COMPRESSIBLE : BUF_RANDOM;
    c->x->buf_compress_given = true;
    return 0;
}

JOPT_SETTER(dedupe_percentage)
{
    unsigned p = 0;
    (void)o;
    int rc = jopt_percent(c, v, &p);
    if (rc)
        return rc;
    c->job->dedupe_pct = p;
    c->job->refill_buffers = true; /* fio: dedupe needs refilled buffers */
    c->x->buf_compress_given = true;
    return 0;
}

JOPT_SETTER(dedupe_mode)
{
    (void)o;
    if (!strcasecmp(v, "repeat") || !strcasecmp(v, "working_set")) {
        c->job->dedupe_working_set = !strcasecmp(v, "working_set");
        return 0;
    }
    return jopt_fail(c, -EINVAL, "unknown value '%s' (expected repeat or working_set)", v);
}

JOPT_SETTER(dedupe_ws_pct)
{
    (void)o;
    return jopt_percent(c, v, &c->job->dedupe_ws_pct);
}

JOPT_SETTER(scramble_buffers)
{
    bool b;
    (void)o;
    int rc = spec_parse_bool(v, &b, c->err, c->errlen);
    if (rc)
        return jopt_prefix(c, rc);
    c->job->scramble_buffers = b;
    return 0;
}

JOPT_SETTER(refill_buffers)
{
    bool b = true;
    (void)o;
    if (v) {
        int rc = spec_parse_bool(v, &b, c->err, c->errlen);
        if (rc)
            return jopt_prefix(c, rc);
    }
    c->job->refill_buffers = b;
    c->x->buf_refill_set = true;
    return 0;
}

void job_buf_finalize(struct job_spec *job, struct job_extra *x)
{
    /* fio: 100% compressible is zero buffers, set up once */
    if (job->compress_fio && job->compress_pct == 100) {
        job->compress_fio = false;
        job->compress_pct = 0;
        job->buffer = BUF_ZERO;
    } else if (job->compress_fio && !x->buf_refill_set) {
        job->refill_buffers = true;
    }
    /* fio: a pattern is refilled when the job also reads (reads land in the
     * same buffers) or compresses */
    if (job->buf_pattern_len && (job->compress_fio || job_rw_reads(job)))
        job->refill_buffers = true;
    /* fio's init_flags: no scrambling of zero buffers, compressible or
     * deduplicated data */
    if (x->buf_compress_given || job->dedupe_pct || job->buffer == BUF_ZERO)
        job->scramble_buffers = false;
}
