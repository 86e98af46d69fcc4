/* options_prio.c - fio's per-I/O priority options (cmdprio_percentage,
 * cmdprio_class, cmdprio, cmdprio_bssplit), io_submit_mode and the rules
 * they follow once the whole job is known (jopt_finalize_prio): fio's
 * libaio and io_uring engines only, percentage and bssplit not together,
 * serialize_overlap only where it holds by itself.
 */
#include "jobfile/options_int.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "job/spec_parse.h"

/* int[,int]: read and write; one value is both (fio's per-direction rule) */
static int per_rw(struct job_opt_ctx *c, const char *v, uint64_t lo, uint64_t hi, uint8_t out[2])
{
    uint64_t t[DIR_COUNT] = {out[0], out[1], 0};
    int rc = jopt_per_dir(c, v, JOPT_DIR_UINT, hi, t);
    if (rc)
        return rc;
    for (unsigned d = 0; d < 2; d++) {
        if (t[d] < lo)
            return jopt_fail(c, -EINVAL, "value %llu is below %llu in '%s'", (unsigned long long)t[d],
                             (unsigned long long)lo, v);
        out[d] = (uint8_t)t[d];
    }
    return 0;
}

JOPT_SETTER(cmdprio_percentage)
{
    (void)o;
    return per_rw(c, v, 0, 100, c->job->cmdprio.pct);
}

JOPT_SETTER(cmdprio_class)
{
    (void)o;
    return per_rw(c, v, 1, 3, c->job->cmdprio.cls);
}

JOPT_SETTER(cmdprio)
{
    (void)o;
    return per_rw(c, v, 0, 7, c->job->cmdprio.level);
}

/* One direction's list: bs/perc[/class/level] entries separated by ':'
 * (fio's parse_cmdprio_bssplit_entry: a percentage above 100 is 100, a
 * class above 3 is 3, a level above 7 is 7; entries of 0 % are dropped),
 * sorted by block size as fio keeps them. */
static int split_dir(struct job_opt_ctx *c, char *s, struct job_cmdprio_split *out, uint8_t *n)
{
    unsigned cnt = 0;
    char *save = NULL;
    for (char *e = strtok_r(s, ":", &save); e; e = strtok_r(NULL, ":", &save)) {
        char *sl = strchr(e, '/');
        if (sl)
            *sl = '\0';
        uint64_t bs;
        PARSED(spec_parse_size(e, c->x->kb_base, &bs, c->err, c->errlen));
        if (bs == 0 || bs > UINT32_MAX)
            return jopt_fail(c, -EINVAL, "block size '%s' out of range", e);
        unsigned f[3] = {0, 0, 0};
        int nf = 0;
        if (sl && sl[1]) {
            char *p = sl + 1;
            while (nf < 3 && *p) {
                char *end;
                unsigned long x = strtoul(p, &end, 10);
                if (end == p || (*end && *end != '/'))
                    return jopt_fail(c, -EINVAL, "invalid entry '%s/%s' (expected bs/percentage[/class/level])",
                                     e, sl + 1);
                f[nf++] = x > 1000 ? 1000 : (unsigned)x;
                p = *end ? end + 1 : end;
            }
            if (*p || nf == 2)
                return jopt_fail(c, -EINVAL, "invalid entry '%s/%s' (expected bs/percentage[/class/level])",
                                 e, sl + 1);
        }
        unsigned pct = f[0] > 100 ? 100 : f[0];
        if (!pct)
            continue;
        if (cnt == JOB_CMDPRIO_SPLIT_MAX)
            return jopt_fail(c, -EINVAL, "more than %d entries", JOB_CMDPRIO_SPLIT_MAX);
        int32_t prio = -1;
        if (nf == 3) {
            unsigned cls = f[1] > 3 ? 3 : f[1];
            unsigned lvl = f[2] > 7 ? 7 : f[2];
            prio = (int32_t)((cls ? cls : 2) << 13 | lvl); /* fio: class 0 is best effort */
        }
        unsigned i = cnt++;
        while (i > 0 && out[i - 1].bs > bs) {
            out[i] = out[i - 1];
            i--;
        }
        out[i] = (struct job_cmdprio_split){.bs = (uint32_t)bs, .pct = (uint8_t)pct, .prio = prio};
    }
    /* fio: the percentages of one block size add up to 100 at most */
    for (unsigned i = 0; i < cnt;) {
        unsigned j = i, sum = 0;
        while (j < cnt && out[j].bs == out[i].bs)
            sum += out[j++].pct;
        if (sum > 100)
            return jopt_fail(c, -EINVAL, "the percentages for block size %u add up to %u (over 100)",
                             out[i].bs, sum);
        i = j;
    }
    *n = (uint8_t)cnt;
    return 0;
}

JOPT_SETTER(cmdprio_bssplit)
{
    char buf[SPEC_VALUE_MAX];
    const char *f[SPEC_NDIRS];
    (void)o;
    PARSED(spec_split_dirs(v, buf, sizeof(buf), f, c->err, c->errlen));
    struct job_cmdprio *p = &c->job->cmdprio;
    for (unsigned d = 0; d < 2; d++) {
        if (!f[d])
            continue;
        char one[SPEC_VALUE_MAX];
        snprintf(one, sizeof(one), "%s", f[d]);
        int rc = split_dir(c, one, p->split[d], &p->nsplit[d]);
        if (rc)
            return rc;
    }
    p->bssplit = true;
    return 0;
}

JOPT_SETTER(io_submit_mode)
{
    (void)o;
    if (!strcasecmp(v, "inline") || !strcasecmp(v, "offload")) {
        c->job->submit_offload = !strcasecmp(v, "offload");
        return 0;
    }
    return jopt_fail(c, -EINVAL, "unknown value '%s' (expected inline or offload)", v);
}

int jopt_finalize_prio(struct job_spec *job, char *err, size_t errlen)
{
    const struct job_cmdprio *p = &job->cmdprio;
    bool perc = p->pct[0] || p->pct[1];
    bool any = perc || p->bssplit || p->cls[0] || p->cls[1] || p->level[0] || p->level[1];
    if (any && job->engine != ENGINE_LIBAIO && job->engine != ENGINE_IO_URING)
        return snprintf(err, errlen, "cmdprio options are options of fio's libaio and io_uring engines "
                                     "(a per-I/O priority); this job's engine has none"),
               -EINVAL;
    if (perc && p->bssplit)
        return snprintf(err, errlen, "cmdprio_percentage and cmdprio_bssplit options are mutually exclusive"),
               -EINVAL;
    if (job->serialize_overlap && job->iodepth > 1)
        return snprintf(err, errlen, "serialize_overlap is supported with iodepth=1 only (where no two I/Os "
                                     "of a job are in flight); this job has iodepth=%u",
                        job->iodepth),
               -ENOTSUP;
    return 0;
}
