/* fio_help.c - see fio_help.h. The help comes from ssdbench's option table
 * (jobfile/options.h) in the layout fio prints; options fio has and ssdbench
 * lacks say so. */
#include "cli/fio_help.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "job/spec_parse.h"
#include "jobfile/options.h"

#define FIO_COMPAT "fio-3.33"

void fio_help_version(FILE *f)
{
    fprintf(f, "%s-compatible (ssdbench %s)\n", FIO_COMPAT, SSDBENCH_VERSION);
}

void fio_help_usage(FILE *f, const char *prog)
{
    fio_help_version(f);
    fprintf(f,
            "%s [options] [job options] <job file(s)>\n"
            "  --output=file\t\tWrite output to file\n"
            "  --output-format=type\tOutput format (terse,json,json+,normal), several separated by ','\n"
            "  --minimal\t\tMinimal (terse) output\n"
            "  --terse-version=type\tSet terse version output format (3 only)\n"
            "  --bandwidth-log\tGenerate aggregate bandwidth logs (agg-read_bw.log, agg-write_bw.log)\n"
            "  --parse-only\t\tParse options only, don't start any IO\n"
            "  --showcmd\t\tTurn a job file into command line options\n"
            "  --cmdhelp=cmd\t\tPrint command help, \"all\" for all of them\n"
            "  --enghelp=engine\tPrint ioengine help, or list available ioengines\n"
            "  --eta=when\t\tWhen ETA estimate should be printed (always, never or auto)\n"
            "  --eta-newline=t\tForce a new line for every 't' period passed\n"
            "  --eta-interval=t\tAccepted; the ETA line follows the job's interval\n"
            "  --status-interval=t\tPrint the running totals every 't' period passed (on stderr)\n"
            "  --readonly\t\tRefuse any job that writes\n"
            "  --section=name\tOnly run specified section in job file (repeatable)\n"
            "  --warnings-fatal\tParser warnings are fatal\n"
            "  --max-jobs=nr\t\tRefuse more than nr jobs (clones counted)\n"
            "  --alloc-size=kb\tAccepted, no effect (ssdbench has no shared memory pool)\n"
            "  --debug=options\tAccepted, no effect (ssdbench has no debug logging)\n"
            "  --version\t\tPrint version info and exit\n"
            "  --help\t\tPrint this page\n"
            "ssdbench's own:\n"
            "  --ignore-unsupported\tWarn about (rather than refuse) options fio knows and ssdbench lacks\n"
            "  --destroy=path\tConsent to overwrite an existing file or device\n"
            "  --result=file\t\tAlso save ssdbench's result document\n"
            "A job file '-' is read from standard input. See man ssdbench (FIO MODE).\n",
            prog);
}

/* fio's type words (parse.c's typehelp) for the table's value forms */
static const char *type_help(const struct job_opt *o)
{
    switch (o->type) {
    case JOPT_BOOL: return job_option_takes_arg(o->name) ? "boolean value (opt=1)" : "empty or boolean value ([0|1])";
    case JOPT_UINT: return "integer value (opt=100)";
    case JOPT_SIZE: return "string with possible k/m/g postfix (opt=4k)";
    case JOPT_TIME: return "string with time postfix (opt=10s)";
    case JOPT_STR:
    case JOPT_FUNC: break;
    }
    return "string (opt=bla)";
}

int fio_help_cmd(FILE *f, const char *key)
{
    unsigned n;
    const struct job_opt *t = job_option_table(&n);
    if (!key || !*key || !strcmp(key, "all")) {
        for (unsigned i = 0; i < n; i++)
            fprintf(f, "%-24s: %s\n", t[i].name, t[i].help);
        return 0;
    }
    const struct job_opt *o = job_option_find(key);
    if (!o) {
        if (job_option_fio_known(key)) {
            fprintf(f, "%20s: %s\n", job_option_canonical(key), "known to fio, not supported by ssdbench");
            return 0;
        }
        const char *s = job_option_suggest(key);
        if (s)
            fprintf(stderr, "No such command: %s (did you mean '%s'?)\n", key, s);
        else
            fprintf(stderr, "No such command: %s\n", key);
        return 1;
    }
    fprintf(f, "%20s: %s\n", o->name, o->help);
    for (unsigned a = 0; a < 3 && o->alias[a]; a++)
        fprintf(f, "%20s: %s\n", "alias", o->alias[a]);
    fprintf(f, "%20s: %s\n", "type", type_help(o));
    fprintf(f, "%20s: %s\n", "valid values", o->arg);
    if (o->type == JOPT_UINT && o->max > o->min)
        fprintf(f, "%20s: min=%llu, max=%llu\n", "range", (unsigned long long)o->min,
                (unsigned long long)o->max);
    fprintf(f, "\n");
    return 0;
}

int fio_help_engine(FILE *f, const char *engine)
{
    static const char *const ours[] = {"io_uring", "libaio", "posixaio", "psync", "pvsync", "sync", "null",
                                       "io_uring_cmd", "sg", "falloc", "ftruncate", "cpuio",
                                       "filecreate", "filestat", "filedelete", "exec", "e4defrag"};
    if (!engine || !*engine) {
        fprintf(f, "Available IO engines:\n");
        for (unsigned i = 0; i < sizeof(ours) / sizeof(ours[0]); i++)
            fprintf(f, "\t%s\n", ours[i]);
        return 0;
    }
    char name[128];
    snprintf(name, sizeof(name), "%s", engine);
    char *comma = strchr(name, ','); /* ENGINE,CMD: the engine's option CMD */
    if (comma)
        *comma = '\0';
    enum engine_kind e;
    char err[256];
    int rc = spec_parse_engine(name, &e, err, sizeof(err));
    if (rc == -ENOTSUP) {
        fprintf(f, "IO engine %s is not supported by ssdbench\n", name);
        return 1;
    }
    if (rc) {
        fprintf(f, "IO engine %s not found\n", name);
        return 1;
    }
    /* fio's options of each engine that ssdbench implements, in fio's layout */
    static const char *const uring_opts[] = {
        "hipri", "fixedbufs", "registerfiles", "sqthread_poll", "sqthread_poll_cpu",
        "nonvectored", "uncached", "nowait", "force_async", NULL,
    };
    static const char *const uring_cmd_opts[] = {
        "cmd_type", "fixedbufs", "registerfiles", "sqthread_poll", "sqthread_poll_cpu",
        "nonvectored", NULL,
    };
    static const char *const sg_opts[] = {"readfua", "writefua", "sg_write_mode", NULL};
    static const char *const cpu_opts[] = {"cpuload", "cpumode", "cpuchunks", NULL};
    static const char *const stat_opts[] = {"stat_type", NULL};
    static const char *const exec_opts[] = {"program", "arguments", "grace_time", "std_redirect", NULL};
    static const char *const e4_opts[] = {"donorname", "inplace", NULL};
    const char *const *list = e == ENGINE_IO_URING    ? uring_opts
                              : e == ENGINE_URING_CMD ? uring_cmd_opts
                              : e == ENGINE_SG        ? sg_opts
                              : e == ENGINE_CPUIO     ? cpu_opts
                              : e == ENGINE_FILESTAT  ? stat_opts
                              : e == ENGINE_EXEC      ? exec_opts
                              : e == ENGINE_E4DEFRAG  ? e4_opts
                                                      : NULL;
    if (list) {
        if (comma && comma[1])
            return fio_help_cmd(f, comma + 1);
        for (unsigned i = 0; list[i]; i++) {
            const struct job_opt *o = job_option_find(list[i]);
            if (o)
                fprintf(f, "%-24s: %s\n", o->name, o->help);
        }
        return 0;
    }
    fprintf(f, "IO engine %s has no options\n", name);
    return 1;
}

/* --- --showcmd --- */

int fio_showcmd_init(struct fio_showcmd *s)
{
    memset(s, 0, sizeof(*s));
    s->f = open_memstream(&s->buf, &s->len);
    return s->f ? 0 : -ENOMEM;
}

/* fio sorts a section's options by priority before it reads them: kb_base,
 * unit_base, lockfile and cpus_allowed_policy first, filename and
 * filename_format last, the rest in file order. */
static int prio(const char *name)
{
    static const char *const first[] = {"kb_base", "unit_base", "lockfile", "cpus_allowed_policy"};
    for (unsigned i = 0; i < 4; i++)
        if (!strcmp(name, first[i]))
            return 1;
    return !strcmp(name, "filename") || !strcmp(name, "filename_format") ? -1 : 0;
}

static void drop_entries(struct fio_showcmd *s)
{
    for (unsigned i = 0; i < s->n; i++) {
        free(s->keys[i]);
        free(s->values[i]);
    }
    s->n = 0;
}

static void flush_section(struct fio_showcmd *s)
{
    for (int p = 1; p >= -1; p--)
        for (unsigned i = 0; i < s->n; i++) {
            if (prio(s->keys[i]) != p)
                continue;
            if (!s->values[i])
                fprintf(s->f, "--%s ", s->keys[i]);
            else if (!strcmp(s->keys[i], "description"))
                fprintf(s->f, "--%s=\"%s\" ", s->keys[i], s->values[i]);
            else
                fprintf(s->f, "--%s=%s ", s->keys[i], s->values[i]);
        }
    drop_entries(s);
}

void fio_showcmd_entry(void *ctx, const char *section, bool global, const char *key, const char *value)
{
    struct fio_showcmd *s = ctx;
    if (s->failed)
        return;
    if (!key) {
        flush_section(s);
        if (!s->started)
            fprintf(s->f, "fio ");
        s->started = true;
        if (!global)
            fprintf(s->f, "--name=%s ", section);
        return;
    }
    if (s->n == s->cap) {
        unsigned cap = s->cap ? 2 * s->cap : 16;
        char **k = realloc(s->keys, cap * sizeof(*k));
        if (k)
            s->keys = k;
        char **v = realloc(s->values, cap * sizeof(*v));
        if (v)
            s->values = v;
        if (!k || !v) {
            s->failed = true;
            return;
        }
        s->cap = cap;
    }
    const char *name = job_option_canonical(key);
    s->keys[s->n] = strdup(name ? name : key);
    s->values[s->n] = value ? strdup(value) : NULL;
    if (!s->keys[s->n] || (value && !s->values[s->n])) {
        free(s->keys[s->n]);
        free(s->values[s->n]);
        s->failed = true;
        return;
    }
    s->n++;
}

int fio_showcmd_finish(struct fio_showcmd *s, FILE *f)
{
    flush_section(s);
    if (s->failed || fflush(s->f))
        return -1;
    fwrite(s->buf, 1, s->len, f);
    fprintf(f, "\n");
    return 0;
}

void fio_showcmd_free(struct fio_showcmd *s)
{
    drop_entries(s);
    free(s->keys);
    free(s->values);
    if (s->f)
        fclose(s->f);
    free(s->buf);
    memset(s, 0, sizeof(*s));
}
