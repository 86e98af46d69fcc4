/* profiles.c - profile sets: built-in table (profiles_table.c) and files (see profiles.h).
 *
 * Jobs come from the job-file parser; a small line reader walks the same text
 * beside it only to keep each section's own lines (for listing and replay)
 * and to see whether a profile sets its own load. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/slurp.h"
#include "base/suggest.h"
#include "jobfile/jobfile.h"
#include "profiles/profiles.h"

/* --- the line reader --- */

struct sect {
    char name[JOB_NAME_MAX];
    unsigned line;
    char def[PROFILE_DEF_MAX];
    char gdef[PROFILE_DEF_MAX];
    bool fixed;
};

struct sects {
    unsigned n, cap;
    struct sect *s;
};

static void append_line(char *buf, size_t cap, const char *line, bool *overflow)
{
    size_t n = strlen(buf), l = strlen(line);
    if (n + l + 2 > cap) {
        *overflow = true;
        return;
    }
    memcpy(buf + n, line, l);
    buf[n + l] = '\n';
    buf[n + l + 1] = 0;
}

/* The option key of a line: up to '=' or a blank, trimmed. */
static void line_key(const char *line, char *key, size_t len)
{
    size_t n = strcspn(line, "= \t");
    if (n >= len)
        n = len - 1;
    memcpy(key, line, n);
    key[n] = 0;
}

static bool sets_load(const char *line)
{
    char key[64];
    line_key(line, key, sizeof(key));
    const struct job_opt *o = job_option_find(key);
    return o && (!strcmp(o->name, "iodepth") || !strcmp(o->name, "numjobs"));
}

static int read_sections(const char *text, const char *src, struct sects *out, char *err,
                         size_t errlen)
{
    char gdef[PROFILE_DEF_MAX] = "";
    bool gfixed = false, in_global = false, overflow = false;
    struct sect *cur = NULL;
    unsigned lineno = 0;
    const char *p = text;
    while (*p) {
        const char *e = strchr(p, '\n');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        char line[2048];
        lineno++;
        if (n >= sizeof(line))
            n = sizeof(line) - 1;
        memcpy(line, p, n);
        line[n] = 0;
        p = e ? e + 1 : p + strlen(p);
        char *s = line;
        while (isspace((unsigned char)*s))
            s++;
        size_t l = strlen(s);
        while (l && isspace((unsigned char)s[l - 1]))
            s[--l] = 0;
        if (!*s || *s == ';' || *s == '#')
            continue;
        if (*s == '[') {
            char *close = strchr(s, ']');
            if (!close)
                continue; /* the job-file parser reports it */
            *close = 0;
            const char *name = s + 1;
            if (!strcmp(name, "global")) {
                in_global = true;
                cur = NULL;
                continue;
            }
            in_global = false;
            if (out->n == out->cap) {
                unsigned cap = out->cap ? out->cap * 2 : 16;
                struct sect *ns = realloc(out->s, cap * sizeof(*ns));
                if (!ns) {
                    snprintf(err, errlen, "out of memory");
                    return -ENOMEM;
                }
                out->s = ns;
                out->cap = cap;
            }
            cur = &out->s[out->n++];
            memset(cur, 0, sizeof(*cur));
            snprintf(cur->name, sizeof(cur->name), "%s", name);
            cur->line = lineno;
            snprintf(cur->gdef, sizeof(cur->gdef), "%s", gdef);
            cur->fixed = gfixed;
            continue;
        }
        if (in_global) {
            append_line(gdef, sizeof(gdef), s, &overflow);
            gfixed |= sets_load(s);
        } else if (cur) {
            append_line(cur->def, sizeof(cur->def), s, &overflow);
            cur->fixed |= sets_load(s);
        }
        if (overflow) {
            snprintf(err, errlen, "%s:%u: profile definition longer than %d characters", src, lineno,
                     PROFILE_DEF_MAX - 1);
            return -EINVAL;
        }
    }
    return 0;
}

/* --- sets --- */

static bool name_ok(const char *s)
{
    if (!*s)
        return false;
    for (; *s; s++)
        if (!isalnum((unsigned char)*s) && !strchr("._+-/", *s))
            return false;
    return true;
}

/* "NAME/PART" -> NAME */
static void profile_name_of(const char *section, char *out, size_t len)
{
    size_t n = strcspn(section, "/");
    if (n >= len)
        n = len - 1;
    memcpy(out, section, n);
    out[n] = 0;
}

const struct profile *profile_find(const struct profile_set *ps, const char *name)
{
    for (unsigned i = 0; i < ps->nprofiles; i++)
        if (!strcmp(ps->profiles[i].name, name))
            return &ps->profiles[i];
    return NULL;
}

const struct profile_part *profile_part(const struct profile_set *ps, const struct profile *p,
                                        unsigned i)
{
    return i < p->nparts ? &ps->parts[p->first + i] : NULL;
}

void profile_unknown_msg(const struct profile_set *ps, const char *name, char *err, size_t errlen)
{
    struct suggest sg;
    suggest_init(&sg, name);
    for (unsigned i = 0; i < ps->nprofiles; i++)
        suggest_consider(&sg, ps->profiles[i].name);
    const char *best = suggest_result(&sg);
    if (best)
        snprintf(err, errlen, "unknown profile '%s' (did you mean '%s'?)", name, best);
    else
        snprintf(err, errlen, "unknown profile '%s' (see ssdbench profiles)", name);
}

static int grow(void **arr, unsigned n, size_t size)
{
    void *na = realloc(*arr, (size_t)(n + 1) * size);
    if (!na)
        return -ENOMEM;
    *arr = na;
    return 0;
}

/* Section s, job i of jf, of file name: a new profile, or the next part of
 * the one just before it (profiles from first_new on are this file's). */
static int add_section(struct profile_set *ps, const struct jobfile *jf, unsigned i, const struct sect *s,
                       const char *name, unsigned first_new, char *err, size_t errlen)
{
    char pname[JOB_NAME_MAX];
    profile_name_of(s->name, pname, sizeof(pname));
    const char *part = strchr(s->name, '/');
    if (!name_ok(s->name) || (part && (!part[1] || strchr(part + 1, '/'))) || !pname[0]) {
        snprintf(err, errlen,
                 "%s:%u: profile name '%s' may hold letters, digits and . _ + - only, "
                 "with one '/' before a part name",
                 name, s->line, s->name);
        return -EINVAL;
    }
    if (strcmp(jf->extra[i].section, s->name) != 0) {
        snprintf(err, errlen, "%s:%u: section '%s' does not match the parsed job '%s'", name,
                 s->line, s->name, jf->extra[i].section);
        return -EINVAL;
    }
    struct profile *cur = NULL;
    for (unsigned k = first_new; k < ps->nprofiles; k++)
        if (!strcmp(ps->profiles[k].name, pname))
            cur = &ps->profiles[k];
    if (cur) {
        const struct profile_part *last = &ps->parts[cur->first + cur->nparts - 1];
        if (cur->first + cur->nparts != ps->nparts || !part || !strchr(last->name, '/')) {
            snprintf(err, errlen,
                     "%s:%u: '%s' repeats profile '%s'; parts of one profile are named "
                     "NAME/PART and written one after another",
                     name, s->line, s->name, pname);
            return -EINVAL;
        }
    }
    if (grow((void **)&ps->parts, ps->nparts, sizeof(*ps->parts)) < 0) {
        snprintf(err, errlen, "out of memory");
        return -ENOMEM;
    }
    struct profile_part *pp = &ps->parts[ps->nparts];
    memset(pp, 0, sizeof(*pp));
    snprintf(pp->name, sizeof(pp->name), "%s", s->name);
    snprintf(pp->def, sizeof(pp->def), "%s", s->def);
    pp->job = jf->jobs[i];
    pp->extra = jf->extra[i];
    ps->nparts++;
    if (cur) {
        cur->nparts++;
        cur->fixed_load |= s->fixed;
        return 0;
    }
    if (grow((void **)&ps->profiles, ps->nprofiles, sizeof(*ps->profiles)) < 0) {
        snprintf(err, errlen, "out of memory");
        return -ENOMEM;
    }
    cur = &ps->profiles[ps->nprofiles++];
    memset(cur, 0, sizeof(*cur));
    snprintf(cur->name, sizeof(cur->name), "%s", pname);
    snprintf(cur->description, sizeof(cur->description), "%s", pp->job.description);
    if (strcmp(name, "built-in") == 0)
        snprintf(cur->source, sizeof(cur->source), "built-in");
    else
        snprintf(cur->source, sizeof(cur->source), "%.300s:%u", name, s->line);
    snprintf(cur->global_def, sizeof(cur->global_def), "%s", s->gdef);
    cur->fixed_load = s->fixed;
    cur->first = ps->nparts - 1;
    cur->nparts = 1;
    return 0;
}

/* A new profile (from first_new on) with an older one's name replaces it
 * in place. */
static void replace_older(struct profile_set *ps, unsigned first_new)
{
    for (unsigned k = first_new; k < ps->nprofiles; k++)
        for (unsigned o = 0; o < first_new; o++)
            if (!strcmp(ps->profiles[o].name, ps->profiles[k].name)) {
                ps->profiles[o] = ps->profiles[k];
                memmove(&ps->profiles[k], &ps->profiles[k + 1],
                        (ps->nprofiles - k - 1) * sizeof(*ps->profiles));
                ps->nprofiles--;
                k--;
                break;
            }
}

int profile_set_load_text(struct profile_set *ps, const char *text, const char *name, char *err,
                          size_t errlen)
{
    struct jobfile_opts jo;
    memset(&jo, 0, sizeof(jo));
    jo.no_default_files = true;
    struct jobfile jf;
    int rc = jobfile_parse_string(text, name, &jo, &jf, err, errlen);
    if (rc < 0)
        return rc;
    struct sects ss = {0};
    rc = read_sections(text, name, &ss, err, errlen);
    if (rc == 0 && ss.n != jf.njobs) {
        snprintf(err, errlen, "%s: found %u sections but the job parser made %u jobs", name, ss.n,
                 jf.njobs);
        rc = -EINVAL;
    }
    /* this file's profiles, in file order; parts must be consecutive */
    unsigned first_new = ps->nprofiles;
    for (unsigned i = 0; rc == 0 && i < ss.n; i++)
        rc = add_section(ps, &jf, i, &ss.s[i], name, first_new, err, errlen);
    /* a new profile with an older one's name replaces it in place */
    if (rc == 0)
        replace_older(ps, first_new);
    free(ss.s);
    jobfile_free(&jf);
    return rc;
}

int profile_set_builtin(struct profile_set *ps, char *err, size_t errlen)
{
    memset(ps, 0, sizeof(*ps));
    return profile_set_load_text(ps, profile_builtin_text(), "built-in", err, errlen);
}

int profile_set_load_file(struct profile_set *ps, const char *path, char *err, size_t errlen)
{
    size_t len;
    char *buf = slurp_named(path, "profile file", 16u << 20, &len, err, errlen);
    if (!buf)
        return -errno;
    int rc = profile_set_load_text(ps, buf, path, err, errlen);
    free(buf);
    return rc;
}

void profile_set_free(struct profile_set *ps)
{
    free(ps->profiles);
    free(ps->parts);
    memset(ps, 0, sizeof(*ps));
}

/* --- descriptions --- */

double profile_mean_bs(const struct job_bssplit *b)
{
    double sum = 0, w = 0;
    for (unsigned i = 0; i < b->n; i++) {
        sum += (double)b->bs[i] * b->pct[i];
        w += b->pct[i];
    }
    return w > 0 ? sum / w : 0;
}

static void size_str(char *buf, size_t len, double b)
{
    if (b >= 1048576 && (uint64_t)b % 1048576 == 0)
        snprintf(buf, len, "%.0f MiB", b / 1048576);
    else if (b >= 1024)
        snprintf(buf, len, "%.4g KiB", b / 1024);
    else
        snprintf(buf, len, "%.0f B", b);
}

void profile_summary(const struct job_spec *job, char *buf, size_t len)
{
    int n;
    bool mixed = job->rw == RW_RW || job->rw == RW_RANDRW;
    if (mixed)
        n = snprintf(buf, len, "%s %u/%u", job_rw_name(job->rw), job->rwmixread,
                     100 - job->rwmixread);
    else
        n = snprintf(buf, len, "%s", job_rw_name(job->rw));
    int d = job_rw_reads(job) ? DIR_READ : DIR_WRITE;
    const struct job_bssplit *b = &job->bs[d];
    char s1[32], s2[32], s3[32];
    if (b->n == 1) {
        size_str(s1, sizeof(s1), b->bs[0]);
        n += snprintf(buf + n, len > (size_t)n ? len - (size_t)n : 0, ", %s", s1);
    } else if (b->n > 1) {
        uint32_t lo = b->bs[0], hi = b->bs[0];
        for (unsigned i = 1; i < b->n; i++) {
            lo = b->bs[i] < lo ? b->bs[i] : lo;
            hi = b->bs[i] > hi ? b->bs[i] : hi;
        }
        size_str(s1, sizeof(s1), lo);
        size_str(s2, sizeof(s2), hi);
        size_str(s3, sizeof(s3), profile_mean_bs(b));
        n += snprintf(buf + n, len > (size_t)n ? len - (size_t)n : 0, ", %s..%s mix (mean %s)", s1,
                      s2, s3);
    }
    if (job->dist.kind == DIST_ZONED) {
        n += snprintf(buf + n, len > (size_t)n ? len - (size_t)n : 0, ", zoned");
        for (unsigned i = 0; i < job->dist.nzones; i++)
            n += snprintf(buf + n, len > (size_t)n ? len - (size_t)n : 0, "%s%g/%g", i ? ":" : " ",
                          job->dist.zones[i].access_pct, job->dist.zones[i].range_pct);
    } else if (job->dist.kind != DIST_UNIFORM) {
        static const char *const dn[] = {"uniform", "zipf", "pareto", "normal", "zoned"};
        n += snprintf(buf + n, len > (size_t)n ? len - (size_t)n : 0, ", %s:%g", dn[job->dist.kind],
                      job->dist.param);
    }
    (void)n;
}

/* --- replay of built-in lines --- */

int profile_options(const char *name, struct profile_opt *out, unsigned cap, char *err,
                    size_t errlen)
{
    struct sects ss = {0};
    int rc = read_sections(profile_builtin_text(), "built-in", &ss, err, errlen);
    if (rc < 0)
        return rc;
    const struct sect *hit = NULL;
    unsigned nhit = 0;
    for (unsigned i = 0; i < ss.n; i++) {
        char pname[JOB_NAME_MAX];
        profile_name_of(ss.s[i].name, pname, sizeof(pname));
        if (!strcmp(ss.s[i].name, name)) {
            hit = &ss.s[i];
            nhit = 1;
            break;
        }
        if (!strcmp(pname, name)) {
            if (!hit)
                hit = &ss.s[i];
            nhit++;
        }
    }
    if (!hit) {
        struct profile_set ps;
        if (profile_set_builtin(&ps, err, errlen) == 0) {
            profile_unknown_msg(&ps, name, err, errlen);
            profile_set_free(&ps);
        }
        free(ss.s);
        return -ENOENT;
    }
    if (nhit > 1) {
        char pname[JOB_NAME_MAX];
        profile_name_of(hit->name, pname, sizeof(pname));
        snprintf(err, errlen, "profile '%s' has %u parts; name one of them (e.g. '%s')", pname, nhit,
                 hit->name);
        free(ss.s);
        return -EINVAL;
    }
    unsigned n = 0;
    for (int pass = 0; pass < 2; pass++) {
        const char *t = pass ? hit->def : hit->gdef;
        while (*t) {
            size_t l = strcspn(t, "\n");
            if (n < cap) {
                struct profile_opt *o = &out[n];
                memset(o, 0, sizeof(*o));
                size_t k = strcspn(t, "=");
                if (k > l)
                    k = l;
                size_t kl = k;
                while (kl && isspace((unsigned char)t[kl - 1]))
                    kl--;
                snprintf(o->key, sizeof(o->key), "%.*s", (int)kl, t);
                if (k < l) {
                    const char *v = t + k + 1;
                    while (isspace((unsigned char)*v))
                        v++;
                    snprintf(o->value, sizeof(o->value), "%.*s", (int)(t + l - v), v);
                } else {
                    o->bare = true;
                }
            }
            n++;
            t += l;
            if (*t)
                t++;
        }
    }
    free(ss.s);
    return (int)(n < cap ? n : cap);
}

int profile_apply(const char *name, struct job_spec *job, struct job_extra *x, char *err,
                  size_t errlen)
{
    struct profile_opt opts[64];
    int n = profile_options(name, opts, 64, err, errlen);
    if (n < 0)
        return n;
    for (int i = 0; i < n; i++) {
        char msg[512];
        int rc = job_set_option(job, x, opts[i].key, opts[i].bare ? NULL : opts[i].value, msg,
                                sizeof(msg));
        if (rc < 0) {
            snprintf(err, errlen, "profile %s: %s: %s", name, opts[i].key, msg);
            return rc;
        }
    }
    return 0;
}

void profile_precondition_job(const struct job_spec *part, struct job_spec *out)
{
    *out = *part;
    /* preconditioning means "write the whole region": each pass of each
     * worker starts an I/O at every block, whatever the profile says. The
     * permutation (random_generator=lfsr) needs no memory even for block
     * size mixes, where a bitmap of 512 B blocks would cost 1 GiB per 4 TB
     * and worker; mixed sizes then overlap, so every block is written at
     * least once per pass. */
    out->norandommap = false;
    out->random_generator = RANDGEN_LFSR;
    if (job_rw_writes(part))
        return;
    out->rw = part->rw == RW_READ ? RW_WRITE : RW_RANDWRITE;
    out->bs[DIR_WRITE] = part->bs[DIR_READ];
    out->blockalign[DIR_WRITE] = part->blockalign[DIR_READ];
}
