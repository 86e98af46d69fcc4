/* options_fio_set.c - setters for fio job-file options that need more than a
 * plain field: continue_on_error and ignore_error (fio's error classes and
 * lists), unified_rw_reporting and thinktime_blocks_type.
 */
#include "jobfile/options_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "job/spec_parse.h"

JOPT_SETTER(continue_on_error)
{
    static const struct {
        const char *name;
        unsigned bits;
    } vals[] = {
        {"none", 0},
        {"0", 0},
        {"read", JOB_ERR_READ},
        {"write", JOB_ERR_WRITE},
        {"io", JOB_ERR_READ | JOB_ERR_WRITE},
        {"verify", JOB_ERR_VERIFY},
        {"all", JOB_ERR_READ | JOB_ERR_WRITE | JOB_ERR_VERIFY},
        {"1", JOB_ERR_READ | JOB_ERR_WRITE | JOB_ERR_VERIFY},
    };
    (void)o;
    for (unsigned i = 0; i < sizeof(vals) / sizeof(vals[0]); i++)
        if (!strcasecmp(v, vals[i].name)) {
            c->job->continue_on_error = vals[i].bits;
            return 0;
        }
    return jopt_fail(c, -EINVAL,
                     "unknown value '%s' (expected none, read, write, io, verify, all, 0 or 1)", v);
}

JOPT_SETTER(unified_rw)
{
    static const char *const names[][2] = {{"none", "0"}, {"mixed", "1"}, {"both", "2"}};
    (void)o;
    for (unsigned i = 0; i < 3; i++)
        if (!strcasecmp(v, names[i][0]) || !strcmp(v, names[i][1])) {
            c->job->unified_rw = i;
            return 0;
        }
    return jopt_fail(c, -EINVAL, "unknown value '%s' (expected none, mixed, both, 0, 1 or 2)", v);
}

JOPT_SETTER(thinktime_blocks_type)
{
    (void)o;
    if (!strcasecmp(v, "complete") || !strcasecmp(v, "issue")) {
        c->job->thinktime_issue = !strcasecmp(v, "issue");
        return 0;
    }
    return jopt_fail(c, -EINVAL, "unknown value '%s' (expected complete or issue)", v);
}

/* An errno from its name (ENOSPC) as glibc spells it, or 0. */
static int errno_by_name(const char *name)
{
    for (int e = 1; e < 4096; e++) {
        const char *n = strerrorname_np(e);
        if (n && !strcasecmp(n, name))
            return e;
    }
    return 0;
}

/* fio: READ_LIST,WRITE_LIST,VERIFY_LIST; each list ERR:ERR:...; an error
 * is a name starting with E or a number (its sign ignored). A class with a
 * list is turned on in continue_on_error. */
JOPT_SETTER(ignore_error)
{
    char buf[SPEC_VALUE_MAX];
    (void)o;
    if (strlen(v) >= sizeof(buf))
        return jopt_fail(c, -EINVAL, "value is too long");
    strcpy(buf, v);
    unsigned n[JOB_ERR_CLASSES] = {0};
    int list[JOB_ERR_CLASSES][JOB_IGNORE_MAX];
    unsigned cls = 0;
    char *save = NULL;
    char *rest = buf;
    for (char *field = buf; field; field = rest, cls++) {
        char *comma = strchr(field, ',');
        rest = comma ? comma + 1 : NULL;
        if (comma)
            *comma = '\0';
        if (cls >= JOB_ERR_CLASSES)
            return jopt_fail(c, -EINVAL, "more than 3 lists (read,write,verify) in '%s'", v);
        for (char *e = strtok_r(field, ":", &save); e; e = strtok_r(NULL, ":", &save)) {
            while (*e == ' ' || *e == '\t')
                e++;
            int err = 0;
            if (*e == 'E' || *e == 'e') {
                err = errno_by_name(e);
            } else {
                char *end;
                long x = strtol(e, &end, 10);
                err = *end || x == 0 ? 0 : (int)labs(x);
            }
            if (!err)
                return jopt_fail(c, -EINVAL, "unknown error '%s' (give a name like ENOSPC or a number)", e);
            if (n[cls] == JOB_IGNORE_MAX)
                return jopt_fail(c, -EINVAL, "more than %d errors in one list", JOB_IGNORE_MAX);
            list[cls][n[cls]++] = err;
        }
    }
    for (unsigned k = 0; k < JOB_ERR_CLASSES; k++) {
        if (!n[k])
            continue;
        c->job->nignore[k] = n[k];
        memcpy(c->job->ignore_errno[k], list[k], n[k] * sizeof(int));
        c->job->continue_on_error |= 1u << k;
    }
    return 0;
}

/* --- fio's io_uring engine options --- */

/* A tri-state knob (enum engine_knob) at the option's field: a bare key or a
 * true value is on, a false one off; -1 (fio's "probe" for nonvectored)
 * leaves ssdbench's choice. */
JOPT_SETTER(uring_knob)
{
    uint8_t *field = (uint8_t *)c->job + o->off;
    if (v && !strcmp(v, "-1")) {
        *field = ENGINE_KNOB_DEFAULT;
        return 0;
    }
    bool b;
    int rc = spec_parse_bool(v, &b, c->err, c->errlen);
    if (rc)
        return jopt_prefix(c, rc);
    *field = b ? ENGINE_KNOB_ON : ENGINE_KNOB_OFF;
    return 0;
}

JOPT_SETTER(sqthread_poll_cpu)
{
    uint64_t n;
    (void)o;
    int rc = spec_parse_u64(v, &n, c->err, c->errlen);
    if (rc)
        return jopt_prefix(c, rc);
    if (n >= 4096)
        return jopt_fail(c, -EINVAL, "CPU %llu is out of range (0-4095)", (unsigned long long)n);
    c->job->uring.sqthread_poll_cpu = (unsigned)n;
    c->job->uring.sqthread_poll_cpu_set = true;
    return 0;
}

/* --- fio's io_uring_cmd and sg engine options --- */

JOPT_SETTER(cmd_type)
{
    (void)o;
    if (!v || strcasecmp(v, "nvme"))
        return jopt_fail(c, -ENOTSUP, "unsupported cmd_type '%.40s' (expected nvme)", v ? v : "");
    return 0;
}

/* fio 3.33's names, with its deprecated aliases (verify, same);
 * write_stream (WRITE STREAM(16)) is not implemented */
JOPT_SETTER(sg_write_mode)
{
    static const struct {
        const char *name;
        enum sg_write_mode m;
    } modes[] = {
        {"write", SG_WRITE},
        {"write_and_verify", SG_WRITE_VERIFY},
        {"verify", SG_WRITE_VERIFY},
        {"write_same", SG_WRITE_SAME},
        {"same", SG_WRITE_SAME},
        {"write_same_ndob", SG_WRITE_SAME_NDOB},
        {"verify_bytchk_00", SG_VERIFY_BYTCHK_00},
        {"verify_bytchk_01", SG_VERIFY_BYTCHK_01},
        {"verify_bytchk_11", SG_VERIFY_BYTCHK_11},
    };
    (void)o;
    for (unsigned i = 0; v && i < sizeof(modes) / sizeof(modes[0]); i++)
        if (!strcasecmp(v, modes[i].name)) {
            c->job->sg.write_mode = (uint8_t)modes[i].m;
            return 0;
        }
    bool fio = v && !strcasecmp(v, "write_stream");
    return jopt_fail(c, fio ? -ENOTSUP : -EINVAL,
                     "%s sg_write_mode '%.40s' (expected write, write_and_verify, write_same, "
                     "write_same_ndob, verify_bytchk_00, verify_bytchk_01 or verify_bytchk_11)",
                     fio ? "unsupported" : "unknown", v ? v : "");
}

/* fio's create_serialize: 1 (the default) lays the job's files out before
 * any job starts, one after another; 0 lets each job lay out its own as it
 * starts. ssdbench lays out the files of each stonewalled group at the
 * group's start, one after another, which both values give the same files
 * and I/O as. fio refuses 0 with zonemode=zbd (finalize). */
JOPT_SETTER(create_serialize)
{
    bool on;
    (void)o;
    if (spec_parse_bool(v ? v : "1", &on, c->err, c->errlen))
        return jopt_prefix(c, -EINVAL);
    c->x->create_parallel = !on;
    return 0;
}

/* fio switches whose other value ssdbench does not do: the default (off)
 * is accepted, as what ssdbench does anyway; on is refused with why. */
JOPT_SETTER(off_only)
{
    static const struct {
        const char *name, *why;
    } why[] = {
        {"create_on_open", "ssdbench creates and lays out missing files before the run"},
        {"allow_mounted_write", "ssdbench's write guard decides; consent with SSDBENCH_DESTROY=PATH"},
    };
    bool on;
    if (spec_parse_bool(v ? v : "1", &on, c->err, c->errlen))
        return jopt_prefix(c, -EINVAL);
    if (!on)
        return 0;
    if (!strcmp(o->name, "create_on_open")) {
        c->x->create_on_open = true; /* judged with the engine (job_option_finalize) */
        return 0;
    }
    for (unsigned i = 0; i < sizeof(why) / sizeof(why[0]); i++)
        if (!strcmp(o->name, why[i].name))
            return jopt_fail(c, -ENOTSUP, "1 is not supported (%s)", why[i].why);
    return jopt_fail(c, -ENOTSUP, "1 is not supported");
}
