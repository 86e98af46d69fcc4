/* jobfile.c - fio's INI job files: sections, [global] inheritance, includes,
 * substitutions and comments, on top of the section machinery shared with the
 * command-line form.
 *
 * A job section starts as a copy of the [global] template as it stands at
 * that point of the file, so a later [global] affects only later jobs (fio's
 * behaviour). Includes are read in place; an included file holds key=value
 * lines only, and a file that is already being read cannot be included again
 * (the loop is reported at the include line that closes it).
 */
#include "base/slurp.h"
#include "jobfile/jobfile_int.h"
#include "base/slurp.h"
#include "job/spec_parse.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>


/* Longest value after substitution. */
#define JF_VALUE_MAX (64 * 1024)

int jf_fail(struct jf_parser *p, int rc, const char *fmt, ...)
{
    if (p->err && p->errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(p->err, p->errlen, fmt, ap);
        va_end(ap);
    }
    return rc;
}

static int warn(struct jf_parser *p, const char *loc, const char *msg)
{
    struct jobfile *jf = p->out;
    if (jf->nwarnings == p->wcap) {
        unsigned cap = p->wcap ? 2 * p->wcap : 8;
        void *w = realloc(jf->warnings, cap * sizeof(*jf->warnings));
        if (!w)
            return jf_fail(p, -ENOMEM, "out of memory");
        jf->warnings = w;
        p->wcap = cap;
    }
    snprintf(jf->warnings[jf->nwarnings++], JOBFILE_MSG_MAX, "%.300s: %.600s (ignored)", loc, msg);
    return 0;
}

/* --- substitution --- */

struct sbuf {
    char *s;
    size_t n, cap;
    bool bad;
};

static void sb_put(struct sbuf *b, const char *s, size_t n)
{
    if (b->bad)
        return;
    if (b->n + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 64;
        while (cap < b->n + n + 1)
            cap *= 2;
        char *t = cap > JF_VALUE_MAX ? NULL : realloc(b->s, cap);
        if (!t) {
            b->bad = true;
            return;
        }
        b->s = t;
        b->cap = cap;
    }
    memcpy(b->s + b->n, s, n);
    b->n += n;
    b->s[b->n] = '\0';
}

char *jf_expand(const char *s)
{
    struct sbuf b = {0};
    sb_put(&b, "", 0);
    while (*s) {
        if (s[0] == '$' && s[1] == '{') {
            const char *end = strchr(s + 2, '}');
            if (end) {
                char name[256];
                size_t n = (size_t)(end - s - 2);
                if (n < sizeof(name)) {
                    memcpy(name, s + 2, n);
                    name[n] = '\0';
                    const char *v = getenv(name);
                    if (v)
                        sb_put(&b, v, strlen(v));
                }
                s = end + 1;
                continue;
            }
        }
        if (s[0] == '$') {
            static const char *const names[] = {"pagesize", "mb_memory", "ncpus"};
            size_t i;
            for (i = 0; i < 3; i++)
                if (!strncmp(s + 1, names[i], strlen(names[i])) &&
                    !isalnum((unsigned char)s[1 + strlen(names[i])]) && s[1 + strlen(names[i])] != '_')
                    break;
            if (i < 3) {
                long page = sysconf(_SC_PAGESIZE);
                long long v = i == 0 ? page
                              : i == 1 ? (long long)sysconf(_SC_PHYS_PAGES) * page / (1024 * 1024)
                                       : sysconf(_SC_NPROCESSORS_ONLN);
                char num[32];
                int k = snprintf(num, sizeof(num), "%lld", v);
                sb_put(&b, num, (size_t)k);
                s += 1 + strlen(names[i]);
                continue;
            }
        }
        sb_put(&b, s, 1);
        s++;
    }
    if (b.bad) {
        free(b.s);
        return NULL;
    }
    return b.s;
}

/* --- sections --- */

static int apply(struct jf_parser *p, struct job_spec *job, struct job_extra *x,
                 const struct jf_entry *e);

int jf_begin(struct jf_parser *p, const struct jobfile_opts *o, struct jobfile *out, char *err,
             size_t errlen)
{
    static const struct jobfile_opts none;
    memset(p, 0, sizeof(*p));
    memset(out, 0, sizeof(*out));
    p->o = o ? o : &none;
    p->out = out;
    p->err = err;
    p->errlen = errlen;
    if (err && errlen)
        err[0] = '\0';
    p->gjob = malloc(sizeof(*p->gjob));
    if (!p->gjob)
        return jf_fail(p, -ENOMEM, "out of memory");
    job_defaults(p->gjob);
    job_extra_defaults(&p->gx);
    p->gjob->scramble_buffers = true; /* fio's default in its job language */
    if (p->o->fio_defaults) {
        p->gjob->rw = RW_READ;
        p->gjob->pct_random = 0;
        p->gjob->engine = ENGINE_PSYNC;
        p->gjob->direct = false;
        p->gx.randrepeat = 1;
        p->gjob->fio_stream = true; /* fio's random streams: the I/O fio would issue */
        p->gjob->slat = true; /* fio's disable_slat=0: async engines measure slat */
        /* fio's batching: one I/O per submission, reaps of one
         * (iodepth_batch_complete_max follows the min), and fio's queue */
        p->gjob->iodepth_batch_submit = 1;
        p->gjob->iodepth_batch_complete_min = 1;
        p->gjob->fio_queue = true;
    }
    p->gjob->fio_size_rules = p->o->fio_size_rules;
    if (p->o->interval_ns)
        p->gjob->interval_ns = p->o->interval_ns;
    for (unsigned i = 0; i < p->o->npreset; i++) {
        struct jf_entry e = {.key = (char *)p->o->preset_keys[i], .value = (char *)p->o->preset_values[i]};
        snprintf(e.loc, sizeof(e.loc), "command line");
        int rc = apply(p, p->gjob, &p->gx, &e);
        if (rc)
            return rc;
    }
    return 0;
}

static int apply(struct jf_parser *p, struct job_spec *job, struct job_extra *x,
                 const struct jf_entry *e)
{
    char msg[JOBFILE_MSG_MAX];
    int rc = job_set_option(job, x, e->key, e->value, msg, sizeof(msg));
    if (rc == 0 && p->o->on_applied)
        p->o->on_applied(p->o->applied_ctx, e->key, e->value, x);
    if (rc == 0)
        return 0;
    /* only a key fio knows and the table lacks is ignored: a typo (-ENOENT)
     * or a value the table cannot honour (ioengine=cpuio, rw=trim) would run
     * something else than the job asks for */
    if (rc == -ENOTSUP && p->o->ignore_unsupported && !job_option_find(e->key))
        return warn(p, e->loc, msg);
    return jf_fail(p, rc, "%s: %s", e->loc, msg);
}

/* kb_base first (it changes how the other sizes read), then file order */
static int apply_all(struct jf_parser *p, struct job_spec *job, struct job_extra *x)
{
    int rc;
    for (int pass = 0; pass < 2; pass++)
        for (unsigned i = 0; i < p->ne; i++) {
            const struct job_opt *o = job_option_find(p->e[i].key);
            bool first = o && !strcmp(o->name, "kb_base");
            if (first == (pass == 0) && (rc = apply(p, job, x, &p->e[i])))
                return rc;
        }
    return 0;
}

static bool wanted(const struct jf_parser *p, const char *section)
{
    if (!p->o->sections)
        return true;
    for (unsigned i = 0; i < p->o->nsections; i++)
        if (!strcmp(p->o->sections[i], section))
            return true;
    return false;
}

/* Appends the section's keys with a value to buf ("key\tvalue\n"), whole
 * entries only. */
static void note_written(const struct jf_parser *p, char *buf, size_t cap)
{
    size_t len = strlen(buf);
    for (unsigned i = 0; i < p->ne; i++) {
        const struct jf_entry *e = &p->e[i];
        if (!e->value || strchr(e->key, '\t') || strchr(e->value, '\t') || strchr(e->value, '\n'))
            continue;
        size_t need = strlen(e->key) + strlen(e->value) + 2;
        if (len + need >= cap)
            continue;
        len += (size_t)snprintf(buf + len, cap - len, "%s\t%s\n", e->key, e->value);
    }
}

static int close_section(struct jf_parser *p)
{
    int rc = 0;
    if (!p->open)
        return 0;
    if (p->o->on_entry && (p->global || wanted(p, p->name))) {
        p->o->on_entry(p->o->entry_ctx, p->name, p->global, NULL, NULL);
        for (unsigned i = 0; i < p->ne; i++)
            p->o->on_entry(p->o->entry_ctx, p->name, p->global, p->e[i].key, p->e[i].value);
    }
    if (p->global) {
        rc = apply_all(p, p->gjob, &p->gx);
        note_written(p, p->gjob->written_global, sizeof(p->gjob->written_global));
    } else {
        struct jobfile *jf = p->out;
        struct job_spec *job = malloc(sizeof(*job));
        struct job_extra x = p->gx;
        if (!job)
            return jf_fail(p, -ENOMEM, "out of memory");
        *job = *p->gjob;
        snprintf(job->name, sizeof(job->name), "%s", p->name);
        snprintf(x.section, sizeof(x.section), "%s", p->name);
        rc = apply_all(p, job, &x);
        job->written_opts[0] = 0;
        /* fio's command line sets a job's name with its name option, which
         * fio echoes among the job's options (a job file's section does not) */
        const char *dflt = p->o->default_name ? p->o->default_name : "job";
        if (!strcmp(p->loc, CMDLINE_LOC) && strcmp(p->name, dflt) && !strchr(p->name, '\t'))
            snprintf(job->written_opts, sizeof(job->written_opts), "name\t%s\n", p->name);
        note_written(p, job->written_opts, sizeof(job->written_opts));
        if (!rc) {
            char msg[JOBFILE_MSG_MAX];
            rc = job_option_finalize(job, &x, p->o->no_default_files, msg, sizeof(msg));
            if (rc)
                jf_fail(p, rc, "%s: job '%s': %s", p->loc, job->name, msg);
            /* fio's clones: numjobs, or the per-clone files it became */
            job->clones = x.files_per_clone ? job->ntargets : job->numjobs;
        }
        if (!rc && wanted(p, x.section) && jf->njobs >= JOBFILE_MAX_JOBS)
            rc = jf_fail(p, -E2BIG, "%s: job '%s': more than %u jobs in one job file", p->loc, job->name,
                         JOBFILE_MAX_JOBS);
        if (!rc && wanted(p, x.section)) {
            if (jf->njobs == p->cap) {
                unsigned cap = p->cap ? 2 * p->cap : 4;
                struct job_spec *j = realloc(jf->jobs, cap * sizeof(*j));
                if (j)
                    jf->jobs = j;
                struct job_extra *e = realloc(jf->extra, cap * sizeof(*e));
                if (e)
                    jf->extra = e;
                if (!j || !e)
                    rc = jf_fail(p, -ENOMEM, "out of memory");
                else
                    p->cap = cap;
            }
            if (!rc) {
                jf->jobs[jf->njobs] = *job;
                jf->extra[jf->njobs++] = x;
            }
        }
        free(job);
    }
    for (unsigned i = 0; i < p->ne; i++) {
        free(p->e[i].key);
        free(p->e[i].value);
    }
    p->ne = 0;
    p->open = false;
    return rc;
}

int jf_section(struct jf_parser *p, const char *name, const char *loc)
{
    int rc = close_section(p);
    if (rc)
        return rc;
    if (strlen(name) >= JOB_NAME_MAX)
        return jf_fail(p, -EINVAL, "%s: section name '%.40s...' is longer than %d characters", loc,
                       name, JOB_NAME_MAX - 1);
    p->open = true;
    p->global = !strcmp(name, "global");
    snprintf(p->name, sizeof(p->name), "%s", name);
    snprintf(p->loc, sizeof(p->loc), "%s", loc);
    return 0;
}

int jf_add(struct jf_parser *p, const char *key, const char *value, const char *loc)
{
    if (p->ne >= JOBFILE_MAX_ENTRIES)
        return jf_fail(p, -E2BIG, "%s: section '%s' has more than %u options", loc, p->name,
                       JOBFILE_MAX_ENTRIES);
    if (p->ne == p->ecap) {
        unsigned cap = p->ecap ? 2 * p->ecap : 16;
        struct jf_entry *e = realloc(p->e, cap * sizeof(*e));
        if (!e)
            return jf_fail(p, -ENOMEM, "out of memory");
        p->e = e;
        p->ecap = cap;
    }
    struct jf_entry *e = &p->e[p->ne];
    e->key = strdup(key);
    e->value = value ? jf_expand(value) : NULL;
    snprintf(e->loc, sizeof(e->loc), "%s", loc);
    if (!e->key || (value && !e->value)) {
        free(e->key);
        free(e->value);
        return jf_fail(p, -EINVAL, "%s: value of '%s' is too long or out of memory", loc, key);
    }
    p->ne++;
    return 0;
}

/* fio: stonewall or new_group on any job but the first of a group starts a
 * new group. */
static void assign_groups(struct jobfile *jf)
{
    int gid = 0;
    unsigned in_group = 0;
    for (unsigned i = 0; i < jf->njobs; i++) {
        if ((jf->jobs[i].stonewall || jf->extra[i].new_group) && in_group) {
            gid++;
            in_group = 0;
        }
        jf->jobs[i].group_id = gid;
        in_group++;
    }
    jf->ngroups = jf->njobs ? (unsigned)gid + 1 : 0;
}

/* fio's file-wide rules: exitall on any job holds for every job; wait_for
 * names an earlier job (not itself). */
static int fio_file_rules(struct jf_parser *p)
{
    struct jobfile *jf = p->out;
    bool exitall = false;
    for (unsigned i = 0; i < jf->njobs; i++)
        exitall = exitall || jf->jobs[i].exitall;
    for (unsigned i = 0; i < jf->njobs; i++) {
        jf->jobs[i].exitall = exitall;
        const char *w = jf->extra[i].wait_for;
        if (!w[0])
            continue;
        if (!strcmp(w, jf->jobs[i].name))
            return jf_fail(p, -EINVAL, "job '%s': a job cannot wait for itself (wait_for=%s)",
                           jf->jobs[i].name, w);
        bool found = false;
        for (unsigned k = 0; k < i && !found; k++)
            found = !strcmp(jf->jobs[k].name, w);
        if (!found)
            return jf_fail(p, -EINVAL, "job '%s': wait_for=%s names no earlier job", jf->jobs[i].name, w);
    }
    return 0;
}

int jf_end(struct jf_parser *p, const char *what)
{
    int rc = close_section(p);
    if (rc)
        return rc;
    if (p->out->njobs == 0) {
        if (p->o->sections)
            return jf_fail(p, -EINVAL, "%s: no job matches the selected section%s", what,
                           p->o->nsections == 1 ? "" : "s");
        return jf_fail(p, -EINVAL, "%s: no job defined (only [global] sections or no sections)", what);
    }
    assign_groups(p->out);
    return fio_file_rules(p);
}

void jf_cleanup(struct jf_parser *p, int rc)
{
    for (unsigned i = 0; i < p->ne; i++) {
        free(p->e[i].key);
        free(p->e[i].value);
    }
    free(p->e);
    free(p->gjob);
    if (rc)
        jobfile_free(p->out);
}

int jobfile_append(struct jobfile *a, const struct jobfile *b, char *err, size_t errlen)
{
    unsigned n = a->njobs + b->njobs;
    struct job_spec *jobs = realloc(a->jobs, n * sizeof(*jobs));
    if (jobs)
        a->jobs = jobs;
    struct job_extra *extra = realloc(a->extra, n * sizeof(*extra));
    if (extra)
        a->extra = extra;
    if (!jobs || !extra) {
        snprintf(err, errlen, "out of memory");
        return -ENOMEM;
    }
    for (unsigned i = 0; i < b->njobs; i++) {
        a->jobs[a->njobs + i] = b->jobs[i];
        a->jobs[a->njobs + i].group_id += (int)a->ngroups;
        a->extra[a->njobs + i] = b->extra[i];
    }
    if (b->njobs && a->njobs)
        a->jobs[a->njobs].stonewall = true;
    a->njobs = n;
    a->ngroups += b->ngroups;
    return 0;
}

void jobfile_free(struct jobfile *jf)
{
    free(jf->jobs);
    free(jf->extra);
    free(jf->warnings);
    memset(jf, 0, sizeof(*jf));
}

/* --- INI reader --- */

struct jf_src {
    char path[PATH_MAX];       /* as shown in messages */
    char real[PATH_MAX];       /* canonical, for loop detection ("" for strings) */
};

struct jf_reader {
    struct jf_parser *p;
    struct jf_src stack[JOBFILE_INCLUDE_DEPTH];
    unsigned depth;
    size_t total;              /* bytes read so far, the job file and every include */
};

static int read_text(struct jf_reader *r, const char *text, bool nested);

static int read_file(struct jf_reader *r, const char *path, const char *loc, bool nested)
{
    struct jf_parser *p = r->p;
    char real[PATH_MAX];
    const char *where = loc ? loc : path;

    if (!realpath(path, real)) {
        int e = errno;
        return jf_fail(p, -e, "%s: cannot open %s'%s': %s", where, loc ? "include " : "", path,
                       strerror(e));
    }
    for (unsigned i = 0; i < r->depth; i++)
        if (!strcmp(r->stack[i].real, real))
            return jf_fail(p, -ELOOP, "%s: include loop: '%s' is already being read", where, path);
    if (r->depth == JOBFILE_INCLUDE_DEPTH)
        return jf_fail(p, -ELOOP, "%s: includes nested deeper than %d", where, JOBFILE_INCLUDE_DEPTH);
    /* a regular file of at most JOBFILE_MAX_BYTES: /dev/zero or a FIFO is
     * refused at once instead of filling memory or waiting for a writer */
    char serr[PATH_MAX + 128];
    size_t len = 0;
    size_t left = JOBFILE_MAX_BYTES - r->total; /* never 0 (which would mean no limit) */
    char *text = left ? slurp_named(path, "job file", left, &len, serr, sizeof(serr)) : NULL;
    if (!left)
        errno = EFBIG;
    if (!text && loc && errno == EFBIG)
        return jf_fail(p, -EFBIG, "%s: include '%s': the job file and its includes read more than %u MiB "
                       "in all", loc, path, JOBFILE_MAX_BYTES >> 20);
    if (!text) {
        int e = errno;
        if (loc)
            return jf_fail(p, -e, "%s: include %s", loc, serr);
        return jf_fail(p, -e, "%s", serr);
    }
    if (memchr(text, '\0', len)) {
        free(text);
        return jf_fail(p, -EINVAL, "%s: '%s' is not a text file", where, path);
    }
    r->total += len;
    struct jf_src *s = &r->stack[r->depth++];
    snprintf(s->path, sizeof(s->path), "%s", path);
    snprintf(s->real, sizeof(s->real), "%s", real);
    int rc = read_text(r, text, nested);
    r->depth--;
    free(text);
    return rc;
}

static int include(struct jf_reader *r, const char *arg, const char *loc)
{
    struct jf_parser *p = r->p;
    char *name = jf_expand(arg);
    if (!name)
        return jf_fail(p, -EINVAL, "%s: include path is too long", loc);
    char *path = spec_trim(name);
    int rc;
    if (!*path) {
        rc = jf_fail(p, -EINVAL, "%s: include needs a file name", loc);
    } else if (path[0] == '/' || r->stack[r->depth - 1].real[0] == '\0') {
        rc = read_file(r, path, loc, true);
    } else {
        /* relative to the including file, as fio resolves it */
        char full[2 * PATH_MAX];
        const char *cur = r->stack[r->depth - 1].path;
        const char *slash = strrchr(cur, '/');
        if (slash)
            snprintf(full, sizeof(full), "%.*s/%s", (int)(slash - cur), cur, path);
        else
            snprintf(full, sizeof(full), "%s", path);
        rc = strlen(full) >= PATH_MAX ? jf_fail(p, -ENAMETOOLONG, "%s: include path is too long", loc)
                                      : read_file(r, full, loc, true);
    }
    free(name);
    return rc;
}

static int read_line(struct jf_reader *r, char *line, const char *loc, bool nested)
{
    struct jf_parser *p = r->p;
    /* fio strips everything from the first ';' or '#' */
    line[strcspn(line, ";#")] = '\0';
    line = spec_trim(line);
    if (!*line)
        return 0;
    if (line[0] == '[') {
        char *close = strchr(line, ']');
        if (nested)
            return jf_fail(p, -EINVAL, "%s: section header '%s' in an included file (includes hold key=value lines only)",
                           loc, line);
        if (!close)
            return jf_fail(p, -EINVAL, "%s: unterminated section header '%s' (missing ']')", loc, line);
        if (*spec_trim(close + 1))
            return jf_fail(p, -EINVAL, "%s: unexpected text '%s' after section header", loc,
                           spec_trim(close + 1));
        *close = '\0';
        char *name = spec_trim(line + 1);
        if (!*name)
            return jf_fail(p, -EINVAL, "%s: empty section name '[]'", loc);
        return jf_section(p, name, loc);
    }
    if (!strncasecmp(line, "include", 7) &&
        (isspace((unsigned char)line[7]) || line[7] == '=')) {
        if (!p->open)
            return jf_fail(p, -EINVAL, "%s: include outside of a [section]", loc);
        char *arg = line + 7;
        while (isspace((unsigned char)*arg))
            arg++;
        if (*arg == '=')
            arg++;
        return include(r, arg, loc);
    }
    char *eq = strchr(line, '=');
    if (eq)
        *eq = '\0';
    char *key = spec_trim(line);
    if (!*key)
        return jf_fail(p, -EINVAL, "%s: line has a value but no key", loc);
    if (!p->open)
        return jf_fail(p, -EINVAL, "%s: option '%s' outside of a [section]", loc, key);
    return jf_add(p, key, eq ? spec_trim(eq + 1) : NULL, loc);
}

static int read_text(struct jf_reader *r, const char *text, bool nested)
{
    const char *path = r->stack[r->depth - 1].path;
    unsigned lineno = 0;
    int rc = 0;
    while (*text && !rc) {
        const char *nl = strchr(text, '\n');
        size_t n = nl ? (size_t)(nl - text) : strlen(text);
        char *line = malloc(n + 1);
        if (!line)
            return jf_fail(r->p, -ENOMEM, "out of memory");
        memcpy(line, text, n);
        line[n] = '\0';
        char loc[JF_LOC_MAX];
        snprintf(loc, sizeof(loc), "%.280s:%u", path, ++lineno);
        rc = read_line(r, line, loc, nested);
        free(line);
        text += n + (nl ? 1 : 0);
    }
    return rc;
}

int jobfile_parse_file(const char *path, const struct jobfile_opts *o, struct jobfile *out,
                       char *err, size_t errlen)
{
    struct jf_parser p;
    struct jf_reader r = {.p = &p};
    int rc = jf_begin(&p, o, out, err, errlen);
    if (!rc)
        rc = read_file(&r, path, NULL, false);
    if (!rc)
        rc = jf_end(&p, path);
    jf_cleanup(&p, rc);
    return rc;
}

int jobfile_parse_string(const char *text, const char *name, const struct jobfile_opts *o,
                         struct jobfile *out, char *err, size_t errlen)
{
    struct jf_parser p;
    struct jf_reader r = {.p = &p, .depth = 1};
    snprintf(r.stack[0].path, sizeof(r.stack[0].path), "%s", name ? name : "(string)");
    int rc = jf_begin(&p, o, out, err, errlen);
    if (!rc)
        rc = read_text(&r, text, false);
    if (!rc)
        rc = jf_end(&p, r.stack[0].path);
    jf_cleanup(&p, rc);
    return rc;
}

int jobfile_help(FILE *f)
{
    fprintf(f,
            "Job options (fio's names; '-' and '_' are interchangeable):\n"
            "  sizes: 4096, 4k, 1m, 1.5g, 0x1000; k/m/g/t/p are 1024-based (kb_base=1000\n"
            "         makes them 1000-based); fio's 4kib means 4000 and 4ki means 4096\n"
            "  times: 500us, 20ms, 30s, 5m, 2h, 1d; a bare number is seconds\n"
            "  per direction: read,write[,trim] (bs=4k,64k); a trailing comma keeps the rest\n"
            "  booleans: 1/0, true/false, yes/no, on/off; a bare key means true\n\n");
    job_option_print(f);
    return 0;
}
