/* options_files.c - fio's file-set options: the setters of nrfiles'
 * companions (file_service_type, filesize ranges, fallocate, invalidate) and
 * the names of the files a job without filename uses (filename_format,
 * default $jobname.$jobnum.$filenum, inside directory), as fio 3.33 makes
 * them (init.c make_filename, filesetup.c add_file).
 */
#include "jobfile/options_int.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "job/spec_parse.h"

JOPT_SETTER(file_service_type)
{
    (void)o;
    char name[32];
    const char *colon = strchr(v, ':');
    size_t nl = colon ? (size_t)(colon - v) : strlen(v);
    if (nl >= sizeof(name))
        nl = sizeof(name) - 1;
    memcpy(name, v, nl);
    name[nl] = 0;
    static const struct {
        const char *name;
        enum job_fservice t;
    } kinds[] = {
        {"roundrobin", FSERVICE_ROUNDROBIN}, {"sequential", FSERVICE_SEQUENTIAL},
        {"random", FSERVICE_RANDOM},         {"zipf", FSERVICE_ZIPF},
        {"pareto", FSERVICE_PARETO},         {"normal", FSERVICE_NORMAL},
        {"gauss", FSERVICE_NORMAL},
    };
    unsigned k = 0;
    while (k < sizeof(kinds) / sizeof(kinds[0]) && strcasecmp(name, kinds[k].name))
        k++;
    if (k == sizeof(kinds) / sizeof(kinds[0]))
        return jopt_fail(c, -EINVAL,
                         "unknown value '%s' (expected roundrobin, sequential, random[:N], zipf[:THETA], "
                         "pareto[:H] or normal:SIGMA)", v);
    enum job_fservice t = kinds[k].t;
    c->job->file_service = t;
    c->job->file_service_nr = 1;
    c->job->file_service_param = 0;
    if (t <= FSERVICE_RANDOM) {
        if (colon) {
            uint64_t n;
            int rc = spec_parse_uint_in(colon + 1, 1, 1u << 30, &n, c->err, c->errlen);
            if (rc)
                return jopt_prefix(c, rc);
            c->job->file_service_nr = (unsigned)n;
        }
        return 0;
    }
    /* the non-uniform forms: the same parameters as random_distribution */
    char spec[64];
    snprintf(spec, sizeof(spec), "%s%s", t == FSERVICE_NORMAL ? "normal" : name, colon ? colon : "");
    struct job_distribution d;
    if (t == FSERVICE_NORMAL && !colon)
        return jopt_fail(c, -EINVAL, "'%s' needs a sigma (normal:SIGMA, percent of the files)", v);
    int rc = spec_parse_distribution(spec, &d, c->err, c->errlen);
    if (rc)
        return jopt_prefix(c, rc);
    c->job->file_service_param = d.param;
    return 0;
}

JOPT_SETTER(filesize)
{
    (void)o;
    uint64_t lo, hi;
    int rc = strpbrk(v, "-:") ? spec_parse_range(v, c->x->kb_base, &lo, &hi, c->err, c->errlen)
                              : spec_parse_size(v, c->x->kb_base, &lo, c->err, c->errlen);
    if (rc)
        return jopt_prefix(c, rc);
    if (!strpbrk(v, "-:"))
        hi = lo;
    c->job->file_size = lo;
    c->job->file_size_hi = hi;
    return 0;
}

JOPT_SETTER(fallocate)
{
    static const struct {
        const char *name;
        enum target_fallocate m;
    } modes[] = {
        {"none", FALLOC_NONE},   {"0", FALLOC_NONE},         {"native", FALLOC_NATIVE},
        {"posix", FALLOC_POSIX}, {"1", FALLOC_POSIX},        {"keep", FALLOC_KEEP},
        {"truncate", FALLOC_TRUNCATE},
    };
    (void)o;
    for (unsigned i = 0; i < sizeof(modes) / sizeof(modes[0]); i++)
        if (!strcasecmp(v, modes[i].name)) {
            c->job->fallocate = modes[i].m;
            return 0;
        }
    return jopt_fail(c, -EINVAL, "unknown value '%s' (expected none, native, posix, keep, truncate, 0 or 1)", v);
}

JOPT_SETTER(invalidate)
{
    (void)o;
    bool b = true;
    int rc = v ? spec_parse_bool(v, &b, c->err, c->errlen) : 0;
    if (rc)
        return jopt_prefix(c, rc);
    c->job->invalidate = b;
    c->x->invalidate_set = true;
    return 0;
}

/* fio's make_filename: each keyword (any case) replaced wherever it occurs,
 * $jobname first, then $jobnum, $filenum and $clientuid (empty: ssdbench
 * has no client/server mode). */
static int make_filename(const char *fmt, const char *jobname, unsigned jobnum, unsigned filenum,
                         char *out, size_t len)
{
    char nums[2][16];
    snprintf(nums[0], sizeof(nums[0]), "%u", jobnum);
    snprintf(nums[1], sizeof(nums[1]), "%u", filenum);
    const char *const keys[4] = {"$jobname", "$jobnum", "$filenum", "$clientuid"};
    const char *const vals[4] = {jobname, nums[0], nums[1], ""};
    char b0[JOB_PATH_MAX * 2], b1[JOB_PATH_MAX * 2];
    char *src = b0, *dst = b1;
    if (snprintf(b0, sizeof(b0), "%s", fmt) >= (int)sizeof(b0))
        return -1;
    for (unsigned k = 0; k < 4; k++) {
        char *hit;
        size_t kl = strlen(keys[k]), from = 0;
        /* (searching on after the inserted value: a value holding the
         * keyword is not expanded again) */
        while ((hit = strcasestr(src + from, keys[k]))) {
            int n = snprintf(dst, sizeof(b0), "%.*s%s%s", (int)(hit - src), src, vals[k], hit + kl);
            if (n < 0 || n >= (int)sizeof(b0))
                return -1;
            from = (size_t)(hit - src) + strlen(vals[k]);
            char *t = src;
            src = dst;
            dst = t;
        }
    }
    if (strlen(src) >= len)
        return -1;
    strcpy(out, src);
    return 0;
}

int jopt_files_finalize(struct job_spec *job, struct job_extra *x, char **dirs, int ndirs,
                        char *err, size_t errlen)
{
    unsigned nf = job->nrfiles ? job->nrfiles : 1;
    bool range = job->file_size_hi > job->file_size;
    if (job->ntargets && range)
        return snprintf(err, errlen, "filesize range: only for the files ssdbench names (give no filename)"),
               -EINVAL;
    if (!job->ntargets && engine_kind_by_name(job->engine))
        return jopt_names_finalize(job, x->filename_format[0] ? x->filename_format : "$jobname.$jobnum.$filenum",
                                   ndirs > 0 ? dirs[0] : "", err, errlen);
    if (job->fio_stream && job->ntargets > 1 && nf < 2 && job->layout == LAYOUT_JBOD) {
        /* fio: the names of one job's filename are its files, served by
         * each clone's one thread as a file set (the size shared out) */
        unsigned nc = job->numjobs ? job->numjobs : 1;
        if ((uint64_t)nc * job->ntargets > JOB_MAX_TARGETS)
            return snprintf(err, errlen, "numjobs=%u x %u files in filename: at most %d per job", nc,
                            job->ntargets, JOB_MAX_TARGETS), -EINVAL;
        for (unsigned cl = 0; cl < nc; cl++)
            for (unsigned f = 0; f < job->ntargets; f++)
                job->fileset_idx[cl * job->ntargets + f] = (uint8_t)f;
        job->layout = LAYOUT_FILES;
        job->nrfiles = job->ntargets;
        return 0;
    }
    if (job->ntargets || (nf < 2 && !x->filename_format[0] && !range))
        return 0;
    if (nf > 1 && job->layout != LAYOUT_JBOD)
        return snprintf(err, errlen, "nrfiles=%u: the file set is one layout of its own (give no layout)", nf),
               -EINVAL;
    unsigned clones = job->numjobs ? job->numjobs : 1;
    if ((uint64_t)clones * nf > JOB_MAX_TARGETS)
        return snprintf(err, errlen,
                        "numjobs=%u x nrfiles=%u needs %u files (at most %d per job)", clones, nf,
                        clones * nf, JOB_MAX_TARGETS), -EINVAL;
    const char *fmt = x->filename_format[0] ? x->filename_format : "$jobname.$jobnum.$filenum";
    for (unsigned cl = 0; cl < clones; cl++)
        for (unsigned f = 0; f < nf; f++) {
            char name[JOB_PATH_MAX], path[JOB_PATH_MAX * 2 + 2];
            if (make_filename(fmt, job->name, cl, f, name, sizeof(name)))
                return snprintf(err, errlen, "filename_format '%.60s': the name of file %u of clone %u is too long",
                                fmt, f, cl), -EINVAL;
            /* fio: generated names go into the clone's directory */
            const char *d = ndirs > 0 && name[0] != '/' ? dirs[cl % (unsigned)ndirs] : "";
            size_t dl = strlen(d);
            snprintf(path, sizeof(path), "%s%s%s", d, dl && d[dl - 1] != '/' ? "/" : "", name);
            if (strlen(path) >= JOB_PATH_MAX)
                return snprintf(err, errlen, "path '%.60s...' (directory + file name) is longer than %d characters",
                                path, JOB_PATH_MAX - 1), -EINVAL;
            unsigned t = 0;
            while (t < job->ntargets && strcmp(job->targets[t], path))
                t++;
            if (t < job->ntargets && cl > 0) {
                /* fio (add_file): a later clone does not get a file an
                 * earlier clone named; one left with none does no I/O */
                job->fileset_idx[cl * nf + f] = JOB_FILESET_NONE;
                continue;
            }
            if (t == job->ntargets)
                strcpy(job->targets[job->ntargets++], path);
            job->fileset_idx[cl * nf + f] = (uint8_t)t;
        }
    if (nf > 1 || range || job->ntargets != clones) {
        /* one stream per clone over its own files (and shared ones) */
        job->layout = LAYOUT_FILES;
        job->nrfiles = nf;
    } else {
        /* one file per clone: fio's default per-clone files */
        x->files_per_clone = true;
        job->numjobs = 1;
    }
    return 1;
}
