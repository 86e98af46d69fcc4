/* options_small.c - the options of fio's small local engines (cpuio's
 * cpuload, cpumode and cpuchunks, filestat's stat_type) and what the job
 * language derives from them once the job is complete: cpuio's pause
 * (fio's cpu.c sets thinktime = cpuchunks * (100 - cpuload) / cpuload
 * microseconds after every completed I/O, and its job never ends on
 * size), and a file-operation engine's name set (names_fmt). */
#include "jobfile/options_int.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

JOPT_SETTER(cpumode)
{
    (void)o;
    if (!strcasecmp(v, "noop"))
        c->job->small.cpu_qsort = false;
    else if (!strcasecmp(v, "qsort"))
        c->job->small.cpu_qsort = true;
    else
        return jopt_fail(c, -EINVAL, "unknown value '%s' (expected noop or qsort)", v);
    return 0;
}

JOPT_SETTER(stat_type)
{
    (void)o;
    static const char *const names[] = {"stat", "lstat", "statx"};
    for (unsigned i = 0; i < 3; i++)
        if (!strcasecmp(v, names[i])) {
            c->job->small.stat_type = (uint8_t)(STAT_TYPE_STAT + i);
            return 0;
        }
    return jopt_fail(c, -EINVAL, "unknown value '%s' (expected stat, lstat or statx)", v);
}

/* fio's exit_what (not an engine option; kept with these for its size) */
JOPT_SETTER(exit_what)
{
    (void)o;
    static const char *const names[] = {"group", "stonewall", "all"};
    for (unsigned i = 0; i < 3; i++)
        if (!strcasecmp(v, names[i])) {
            c->job->exit_what = (uint8_t)i;
            return 0;
        }
    return jopt_fail(c, -EINVAL, "unknown value '%s' (expected group, stonewall or all)", v);
}

/* fio's expand_variables: every %r is the runtime in whole seconds, every
 * %n the job's name */
static int exec_expand(struct job_spec *job, char *err, size_t errlen)
{
    char out[sizeof(job->exec.arguments)], secs[24];
    snprintf(secs, sizeof(secs), "%llu", (unsigned long long)(job->runtime_ns / 1000000000ull));
    size_t n = 0;
    for (const char *s = job->exec.arguments; *s; s++) {
        const char *put = NULL;
        if (s[0] == '%' && (s[1] == 'r' || s[1] == 'n')) {
            put = s[1] == 'r' ? secs : job->name;
            s++;
        }
        size_t k = put ? strlen(put) : 1;
        if (n + k >= sizeof(out))
            return snprintf(err, errlen, "arguments: too long once %%r and %%n are replaced"), -EINVAL;
        memcpy(out + n, put ? put : s, k);
        n += k;
    }
    out[n] = 0;
    memcpy(job->exec.arguments, out, n + 1);
    return 0;
}

int jopt_small_finalize(struct job_spec *job, char *err, size_t errlen)
{
    if (job->engine == ENGINE_EXEC) {
        if (!job->exec.program[0])
            return snprintf(err, errlen, "ioengine=exec: no program is defined, it is mandatory to define one"),
                   -EINVAL;
        /* fio's exec init: a 50 ms pause after every I/O, no end on size */
        job->thinktime_ns = 50000000ull;
        job->thinktime_spin_ns = 0;
        job->thinktime_blocks = 1;
        job->thinktime_issue = false;
        job->time_based = true;
        job->exec.runtime_ns = job->runtime_ns;
        return exec_expand(job, err, errlen);
    }
    if (job->engine != ENGINE_CPUIO)
        return 0;
    if (!job->small.cpuload)
        return snprintf(err, errlen, "ioengine=cpuio: cpu thread needs rate (cpuload=)"), -EINVAL;
    if (job->small.cpuload > 100)
        job->small.cpuload = 100;
    unsigned chunk = job->small.cpuchunks ? job->small.cpuchunks : 50000;
    job->small.cpuchunks = chunk;
    job->thinktime_ns = (uint64_t)chunk * (100 - job->small.cpuload) / job->small.cpuload * 1000u;
    job->thinktime_spin_ns = 0;
    job->thinktime_blocks = 1;
    job->thinktime_issue = false;
    /* fio: cpuio moves no bytes, so only runtime ends it */
    job->time_based = true;
    return 0;
}

/* Appends s[0..n) to out (room left in *room); -1 when it does not fit. */
static int put(char **out, size_t *room, const char *s, size_t n)
{
    if (n >= *room)
        return -1;
    memcpy(*out, s, n);
    *out += n;
    **out = 0;
    *room -= n;
    return 0;
}

int jopt_names_finalize(struct job_spec *job, const char *fmt, const char *dir, char *err, size_t errlen)
{
    char *out = job->names_fmt;
    size_t room = sizeof(job->names_fmt);
    size_t dl = strlen(dir);
    int rc = 0;
    if (dl && fmt[0] != '/')
        rc = put(&out, &room, dir, dl) || (dir[dl - 1] != '/' && put(&out, &room, "/", 1));
    unsigned filenums = 0;
    for (const char *s = fmt; *s && rc == 0;) {
        static const char *const keys[] = {"$jobname", "$jobnum", "$filenum", "$clientuid"};
        unsigned k = 0;
        while (k < 4 && strncasecmp(s, keys[k], strlen(keys[k])))
            k++;
        if (k == 0)
            rc = put(&out, &room, job->name, strlen(job->name));
        else if (k < 3)
            rc = put(&out, &room, keys[k], strlen(keys[k])); /* filled per clone and file */
        filenums += k == 2;
        if (k < 4)
            s += strlen(keys[k]);
        else
            rc = put(&out, &room, s++, 1);
    }
    if (rc)
        return snprintf(err, errlen, "filename_format '%.60s': the names are too long", fmt), -EINVAL;
    unsigned nf = job->nrfiles ? job->nrfiles : 1;
    if (filenums != 1 && nf > 1)
        return snprintf(err, errlen, "filename_format '%.60s': ioengine=%s with nrfiles=%u needs $filenum once", fmt,
                        job_engine_name(job->engine), nf), -EINVAL;
    job->nrfiles = nf;
    job->layout = LAYOUT_JBOD;
    return 1;
}
