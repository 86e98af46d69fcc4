/* options_set.c - the setters behind option-table entries that are more than
 * "store this number", and job_option_finalize(), which resolves the options
 * that depend on each other once a job is complete.
 */
#include "jobfile/options_int.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "job/spec_parse.h"


static bool rw_random(enum job_rw rw)
{
    return rw == RW_RANDREAD || rw == RW_RANDWRITE || rw == RW_RANDRW || rw == RW_RANDTRIM ||
           rw == RW_RANDTRIMWRITE;
}

static bool rw_mixed(enum job_rw rw)
{
    return rw == RW_RW || rw == RW_RANDRW;
}

/* Splits a fio path list: ':' separates, "\:" is a literal colon, empty
 * entries are skipped. Returns the count or -1 when cap is exceeded. */
static int path_list(char *s, char **out, unsigned cap)
{
    unsigned n = 0;
    char *start = s, *w = s;
    for (char *r = s;; r++) {
        if (*r == '\\' && r[1] == ':') {
            *w++ = ':';
            r++;
            continue;
        }
        if (*r == ':' || *r == '\0') {
            bool end = *r == '\0';
            *w = '\0';
            while (*start == ' ' || *start == '\t')
                start++;
            for (char *t = w; t > start && (t[-1] == ' ' || t[-1] == '\t');)
                *--t = '\0';
            if (*start) {
                if (n == cap)
                    return -1;
                out[n++] = start;
            }
            if (end)
                break;
            start = w = r + 1;
            continue;
        }
        *w++ = *r;
    }
    return (int)n;
}

JOPT_SETTER(name)
{
    size_t n = strlen(v);
    if (n == 0 || n >= JOB_NAME_MAX)
        return jopt_fail(c, -EINVAL, "job name '%.40s' must have 1 to %d characters", v,
                         JOB_NAME_MAX - 1);
    memcpy(c->job->name, v, n + 1);
    return 0;
}

JOPT_SETTER(filename)
{
    char *copy = strdup(v), *paths[JOB_MAX_TARGETS];
    if (!copy)
        return jopt_fail(c, -ENOMEM, "out of memory");
    int n = path_list(copy, paths, JOB_MAX_TARGETS);
    int rc = 0;
    if (n < 0)
        rc = jopt_fail(c, -EINVAL, "more than %d files in '%.60s...'", JOB_MAX_TARGETS, v);
    else if (n == 0)
        rc = jopt_fail(c, -EINVAL, "no file name in '%s'", v);
    for (int i = 0; !rc && i < n; i++) {
        if (!strcmp(paths[i], "-"))
            rc = jopt_fail(c, -ENOTSUP, "'-' (stdin/stdout) is not supported as a file");
        else if (strlen(paths[i]) >= JOB_PATH_MAX)
            rc = jopt_fail(c, -EINVAL, "path '%.60s...' is longer than %d characters", paths[i],
                           JOB_PATH_MAX - 1);
    }
    if (!rc) {
        c->job->ntargets = (unsigned)n;
        for (int i = 0; i < n; i++)
            strcpy(c->job->targets[i], paths[i]);
    }
    free(copy);
    return rc;
}

JOPT_SETTER(size)
{
    PARSED(spec_parse_size_pct(v, c->x->kb_base, &c->job->size, &c->job->size_pct, c->err,
                               c->errlen));
    return 0;
}

JOPT_SETTER(offset)
{
    uint64_t b;
    double p;
    PARSED(spec_parse_size_pct(v, c->x->kb_base, &b, &p, c->err, c->errlen));
    if (p >= 100)
        return jopt_fail(c, -EINVAL, "offset '%s' is out of range (a percentage must be under 100%%)", v);
    c->job->offset = b;
    c->job->offset_pct = p;
    return 0;
}

JOPT_SETTER(range)
{
    char buf[SPEC_VALUE_MAX];
    uint64_t ob = 0, lb = 0;
    double op = 0, lp = 0;
    if (strlen(v) >= sizeof(buf))
        return jopt_fail(c, -EINVAL, "value is too long");
    strcpy(buf, v);
    char *colon = strchr(buf, ':');
    if (colon) {
        *colon = '\0';
        PARSED(spec_parse_size_pct(buf, c->x->kb_base, &ob, &op, c->err, c->errlen));
        PARSED(spec_parse_size_pct(colon + 1, c->x->kb_base, &lb, &lp, c->err, c->errlen));
        if (op >= 100)
            return jopt_fail(c, -EINVAL, "offset '%s' is out of range (a percentage must be under 100%%)",
                             buf);
    } else {
        size_t n = strlen(buf);
        if (n == 0 || buf[n - 1] != '%')
            return jopt_fail(c, -EINVAL, "invalid range '%s' (expected PCT%% or OFFSET:LENGTH, e.g. 50%% or 1g:10g)", v);
        PARSED(spec_parse_size_pct(buf, c->x->kb_base, &lb, &lp, c->err, c->errlen));
    }
    c->job->offset = ob;
    c->job->offset_pct = op;
    c->job->size = lb;
    c->job->size_pct = lp;
    return 0;
}

JOPT_SETTER(rw)
{
    PARSED(spec_parse_rw(v, c->x->kb_base, &c->job->rw, &c->job->rw_seq_nr, &c->job->seq_hole,
                         c->err, c->errlen));
    return 0;
}

JOPT_SETTER(rw_sequencer)
{
    if (!strcasecmp(v, "sequential"))
        return 0;
    if (!strcasecmp(v, "identical"))
        return jopt_fail(c, -ENOTSUP, "'identical' is not supported (only sequential)");
    return jopt_fail(c, -EINVAL, "unknown value '%s' (expected sequential)", v);
}

JOPT_SETTER(rwmixread)
{
    unsigned p = 0;
    int rc = jopt_percent(c, v, &p);
    if (!rc)
        c->job->rwmixread = p;
    return rc;
}

JOPT_SETTER(rwmixwrite)
{
    unsigned p = 0;
    int rc = jopt_percent(c, v, &p);
    if (!rc)
        c->job->rwmixread = 100 - p;
    return rc;
}

JOPT_SETTER(bs)
{
    PARSED(spec_parse_bs(v, c->x->kb_base, c->job->bs, c->err, c->errlen));
    return 0;
}

JOPT_SETTER(bsrange)
{
    PARSED(spec_parse_bsrange(v, c->x->kb_base, c->job->bs, c->err, c->errlen));
    return 0;
}

JOPT_SETTER(bssplit)
{
    PARSED(spec_parse_bssplit(v, c->x->kb_base, c->job->bs, c->err, c->errlen));
    return 0;
}

JOPT_SETTER(blockalign)
{
    PARSED(spec_parse_blockalign(v, c->x->kb_base, c->job->blockalign, c->err, c->errlen));
    return 0;
}

JOPT_SETTER(engine)
{
    PARSED(spec_parse_engine(v, &c->job->engine, c->err, c->errlen));
    return 0;
}

/* fio sync=1|0|none|sync|dsync; O_SYNC is run as O_DSYNC (same data path). */
JOPT_SETTER(sync)
{
    bool b;
    if (!v || !strcasecmp(v, "sync") || !strcasecmp(v, "dsync")) {
        c->job->dsync = true;
        return 0;
    }
    if (!strcasecmp(v, "none")) {
        c->job->dsync = false;
        return 0;
    }
    if (spec_parse_bool(v, &b, NULL, 0))
        return jopt_fail(c, -EINVAL, "invalid value '%s' (expected 0, 1, none, sync or dsync)", v);
    c->job->dsync = b;
    return 0;
}

JOPT_SETTER(rate)
{
    return jopt_per_dir(c, v, JOPT_DIR_SIZE, 0, c->x->rate_bytes);
}

JOPT_SETTER(rate_iops)
{
    return jopt_per_dir(c, v, JOPT_DIR_UINT, UINT32_MAX, c->x->rate_iops);
}

JOPT_SETTER(rate_process)
{
    if (!strcasecmp(v, "linear") || !strcasecmp(v, "poisson")) {
        c->job->rate_poisson = !strcasecmp(v, "poisson");
        return 0;
    }
    return jopt_fail(c, -EINVAL, "unknown value '%s' (expected linear or poisson)", v);
}

JOPT_SETTER(random_generator)
{
    static const struct {
        const char *name;
        enum job_randgen g;
    } gens[] = {{"tausworthe", RANDGEN_TAUSWORTHE},
                {"tausworthe64", RANDGEN_TAUSWORTHE64},
                {"lfsr", RANDGEN_LFSR}};
    for (unsigned i = 0; i < sizeof(gens) / sizeof(gens[0]); i++) {
        if (!strcasecmp(v, gens[i].name)) {
            c->job->random_generator = gens[i].g;
            return 0;
        }
    }
    return jopt_fail(c, -EINVAL, "unknown value '%s' (expected tausworthe, tausworthe64 or lfsr)", v);
}

JOPT_SETTER(distribution)
{
    PARSED(spec_parse_distribution(v, &c->job->dist, c->err, c->errlen));
    return 0;
}

JOPT_SETTER(randrepeat)
{
    bool b;
    PARSED(spec_parse_bool(v, &b, c->err, c->errlen));
    c->x->randrepeat = b;
    return 0;
}

JOPT_SETTER(randseed)
{
    uint64_t s;
    PARSED(spec_parse_u64(v, &s, c->err, c->errlen));
    c->job->seed = s;
    c->job->seed_set = true;
    c->x->randseed_set = true;
    return 0;
}

JOPT_SETTER(pct_random)
{
    uint64_t t[DIR_COUNT] = {UINT64_MAX, UINT64_MAX, UINT64_MAX};
    int rc = jopt_per_dir(c, v, JOPT_DIR_UINT, 100, t);
    if (rc)
        return rc;
    if (t[0] != UINT64_MAX && t[1] != UINT64_MAX && t[0] != t[1])
        return jopt_fail(c, -ENOTSUP,
                         "different values for reads and writes ('%s') are not supported", v);
    c->job->pct_random = (unsigned)(t[0] != UINT64_MAX ? t[0] : t[1]);
    c->x->pct_random_set = true;
    return 0;
}

JOPT_SETTER(zero_buffers)
{
    bool b;
    PARSED(spec_parse_bool(v, &b, c->err, c->errlen));
    if (b)
        c->job->buffer = BUF_ZERO;
    else if (c->job->buffer == BUF_ZERO)
        c->job->buffer = BUF_RANDOM;
    return 0;
}

JOPT_SETTER(buffer)
{
    PARSED(spec_parse_buffer(v, &c->job->buffer, &c->job->compress_pct, c->err, c->errlen));
    c->job->compress_fio = false; /* ssdbench's own layout (512 B chunks, zeroes first) */
    return 0;
}

JOPT_SETTER(layout)
{
    PARSED(spec_parse_layout(v, c->x->kb_base, &c->job->layout, &c->job->stripe_chunk, c->err,
                             c->errlen));
    if (c->job->layout == LAYOUT_STRIPE && c->job->stripe_chunk == 0)
        c->job->stripe_chunk = 128 * 1024;
    return 0;
}

/* write_lat_log / write_bw_log / write_iops_log: a name, or bare for the job name. */
JOPT_SETTER(log)
{
    unsigned i = o->off == offsetof(struct job_spec, lat_log)  ? 0
                 : o->off == offsetof(struct job_spec, bw_log) ? 1
                                                               : 2;
    char *field = (char *)c->job + o->off;
    if (v && strlen(v) >= o->size)
        return jopt_fail(c, -EINVAL, "log name '%.60s...' is longer than %zu characters", v,
                         o->size - 1);
    c->x->log_default[i] = !v || !*v;
    strcpy(field, v ? v : "");
    return 0;
}

JOPT_SETTER(percentiles)
{
    PARSED(spec_parse_percentiles(v, c->job->percentiles, &c->job->npercentiles, c->err,
                                  c->errlen));
    return 0;
}

JOPT_SETTER(steadystate)
{
    struct steady_cfg t = c->x->ss.cfg;
    PARSED(steady_parse_fio(v, &t, c->err, c->errlen));
    c->x->ss.cfg = t;
    c->x->ss.set = true;
    return 0;
}

JOPT_SETTER(kb_base)
{
    uint64_t b;
    if (spec_parse_u64(v, &b, NULL, 0) || (b != 1000 && b != 1024))
        return jopt_fail(c, -EINVAL, "invalid value '%s' (expected 1024 or 1000)", v);
    c->x->kb_base = (unsigned)b;
    return 0;
}

/* --- finalize --- */

static double mean_bs(const struct job_bssplit *b)
{
    double sum = 0, w = 0;
    for (unsigned i = 0; i < b->n; i++) {
        sum += b->bs[i] * b->pct[i];
        w += b->pct[i];
    }
    return w > 0 ? sum / w : 0;
}

/* fio limits each direction separately; one paced stream meets both limits
 * when its total rate is the smallest limit divided by that direction's share. */
static void finalize_rate(struct job_spec *job, const struct job_extra *x)
{
    double share[DIR_COUNT];
    bool mixed = rw_mixed(job->rw);
    bool reads = job->rw == RW_READ || job->rw == RW_RANDREAD;
    share[DIR_READ] = mixed ? job->rwmixread / 100.0 : reads ? 1 : 0;
    share[DIR_WRITE] = mixed ? 1 - share[DIR_READ] : reads ? 0 : 1;
    /* trims: trimwrite is one trim per write */
    share[DIR_TRIM] = job_rw_trimwrite(job) ? 0.5 : job_rw_trims(job) ? 1 : 0;
    if (job_rw_trims(job))
        share[DIR_WRITE] = job_rw_trimwrite(job) ? 0.5 : 0;
    double total = INFINITY;
    for (unsigned d = 0; d < DIR_COUNT; d++) {
        double iops = 0;
        double m = mean_bs(&job->bs[d]);
        if (x->rate_bytes[d] && m > 0)
            iops = (double)x->rate_bytes[d] / m;
        else if (x->rate_iops[d])
            iops = (double)x->rate_iops[d];
        if (iops > 0 && share[d] > 0 && iops / share[d] < total)
            total = iops / share[d];
    }
    if (isfinite(total))
        job->rate_iops = total;
}

static int finalize_targets(struct job_spec *job, struct job_extra *x, bool no_default_files,
                            char *err, size_t errlen)
{
    char dirbuf[JOB_PATH_MAX], *dirs[JOB_MAX_TARGETS];
    strcpy(dirbuf, x->directory);
    int ndirs = path_list(dirbuf, dirs, JOB_MAX_TARGETS);
    if (ndirs < 0)
        return snprintf(err, errlen, "directory: more than %d directories", JOB_MAX_TARGETS), -EINVAL;

    x->numjobs = job->numjobs;
    /* fio's file sets and filename_format (options_files.c) */
    int frc = no_default_files ? 0 : jopt_files_finalize(job, x, dirs, ndirs, err, errlen);
    if (frc)
        return frc < 0 ? frc : 0;
    if (job->ntargets == 0 && !no_default_files) {
        /* fio's default: every clone gets its own file $jobname.$jobnum.$filenum */
        unsigned n = job->numjobs ? job->numjobs : 1;
        if (n > JOB_MAX_TARGETS)
            return snprintf(err, errlen,
                            "numjobs=%u without filename needs %u files (at most %d); give filename",
                            n, n, JOB_MAX_TARGETS), -EINVAL;
        for (unsigned j = 0; j < n; j++) {
            char path[JOB_PATH_MAX + 32];
            int len = snprintf(path, sizeof(path), "%s.%u.0", job->name, j);
            if (len < 0 || len >= JOB_PATH_MAX)
                return snprintf(err, errlen, "file name '%s.%u.0' is too long", job->name, j), -EINVAL;
            strcpy(job->targets[j], path);
        }
        job->ntargets = n;
        x->files_per_clone = true;
        if (job->layout == LAYOUT_JBOD)
            job->numjobs = 1;
    }
    if (ndirs == 0)
        return 0;
    for (unsigned i = 0; i < job->ntargets; i++) {
        if (job->targets[i][0] == '/')
            continue;
        char path[2 * JOB_PATH_MAX + 2];
        const char *d = dirs[i % (unsigned)ndirs];
        size_t dl = strlen(d);
        snprintf(path, sizeof(path), "%s%s%s", d, dl && d[dl - 1] == '/' ? "" : "/",
                 job->targets[i]);
        if (strlen(path) >= JOB_PATH_MAX)
            return snprintf(err, errlen, "path '%.60s...' (directory + filename) is longer than %d characters",
                            path, JOB_PATH_MAX - 1), -EINVAL;
        strcpy(job->targets[i], path);
    }
    return 0;
}

int job_option_finalize(struct job_spec *job, struct job_extra *x, bool no_default_files,
                        char *err, size_t errlen)
{
    char *logs[3] = {job->lat_log, job->bw_log, job->iops_log};
    int rc;

    if (!x->pct_random_set)
        job->pct_random = rw_random(job->rw) ? 100 : 0;
    finalize_rate(job, x);
    /* fio's number_ios counts per pass: times loops */
    if (x->number_ios)
        job->rw_ios_limit = x->number_ios * (job->loops ? job->loops : 1);
    job->fio_randseed = x->randseed_set ? job->seed : 0x89; /* fio's default randseed */
    if (x->experimental_verify)
        job->trim_percentage = 0; /* fio logs no written blocks then, so none is trimmed */
    if (!x->randseed_set && x->randrepeat == 1) {
        job->seed = JOB_FIO_RANDSEED;
        job->seed_set = true;
    } else if (!x->randseed_set && x->randrepeat == 0) {
        job->seed_set = false;
    }
    /* fio's own streams: randrepeat as given (fio seeds its threads before
     * its randseed rule turns randrepeat off, see job/fio_rand.c) */
    job->fio_randrepeat = x->randrepeat == 1;
    job->fio_seed_given = x->randseed_set;
    for (unsigned i = 0; i < 3; i++)
        if (x->log_default[i] && !logs[i][0])
            snprintf(logs[i], JOB_PATH_MAX, "%s", job->name);
    if ((rc = jopt_finalize_replay(job, x, err, errlen)))
        return rc;
    if ((rc = finalize_targets(job, x, no_default_files, err, errlen)))
        return rc;
    /* create_on_open=1 is what ioengine=filecreate does; other engines'
     * files are created and laid out before the run */
    if (x->create_on_open && job->engine != ENGINE_FILECREATE)
        return snprintf(err, errlen, "create_on_open: 1 is not supported (ssdbench creates and lays out missing "
                                     "files before the run; only ioengine=filecreate creates them as it opens them)"),
               -ENOTSUP;
    if (x->create_parallel && x->zone_mode == JOB_ZONE_ZBD)
        return snprintf(err, errlen, "--zonemode=zbd and --create_serialize=0 are not compatible"), -EINVAL;
    if ((rc = jopt_small_finalize(job, err, errlen)))
        return rc;
    /* fio's e4defrag init: the donor is needed, directory= before it */
    if (job->engine == ENGINE_E4DEFRAG) {
        if (!job->small.donor[0])
            return snprintf(err, errlen, "ioengine=e4defrag: 'donorname' options required"), -EINVAL;
        if (x->directory[0]) {
            char p[sizeof(job->small.donor)];
            if (snprintf(p, sizeof(p), "%s/%s", x->directory, job->small.donor) >= (int)sizeof(p))
                return snprintf(err, errlen, "donorname: directory and name are too long"), -ENAMETOOLONG;
            memcpy(job->small.donor, p, sizeof(p));
        }
    }
    /* fio: a read-only job that would write or trim is refused whole */
    if (job->readonly && (job_rw_writes(job) || job_rw_trims(job)))
        return snprintf(err, errlen, "has write bit set, but fio is in read-only mode (readonly=1)"), -EINVAL;
    if (job->readonly && job->unlink_after)
        return snprintf(err, errlen, "unlink=1 with readonly=1: a read-only job removes nothing"), -EINVAL;
    job_buf_finalize(job, x);
    /* fio invalidates the page cache unless told not to */
    if (!x->invalidate_set)
        job->invalidate = true;
    /* fio zones: zonemode default, zonerange, values in zones */
    if ((rc = jopt_finalize_zones(job, x, err, errlen)))
        return rc;
    if ((rc = jopt_finalize_limits(job, x, err, errlen)))
        return rc;
    if ((rc = jopt_finalize_prio(job, err, errlen)))
        return rc;
    if (x->ss.dur_ns > 0) {
        char msg[256];
        x->ss.set = true;
        if (steady_fio_window(&x->ss.cfg, x->ss.dur_ns, x->ss.ramp_ns, x->ss.interval_ns, msg,
                              sizeof(msg)))
            return snprintf(err, errlen, "ss_dur: %s", msg), -EINVAL;
    }
    return 0;
}
