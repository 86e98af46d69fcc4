/* fio_mode.c - see fio_mode.h. fio's command line is read the way fio's
 * getopt reads it: fio's own options (--output-format=..., --showcmd, ...)
 * by their table below, job options (--rw randread, --time_based) by the
 * option table (jobfile/options.h), every other word is a job file ("-" =
 * standard input). Jobs start from fio's defaults (rw=read, ioengine=psync,
 * buffered, randrepeat=1) on the command line as in job files, and run as fio
 * runs them (size-bounded unless time_based). The output is fio's: normal
 * text by default, terse, json and json+, several at once in fio's order. */
#include "cli/fio_mode.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "base/outfile.h"
#include "base/textsafe.h"
#include "base/signal.h"
#include "cli/cli.h"
#include "cli/commands.h"
#include "cli/fio_help.h"
#include "cli/fio_progress.h"
#include "cli/workloads.h"
#include "jobfile/jobfile.h"
#include "jobfile/options.h"
#include "output/fio_json.h"
#include "output/fio_text.h"
#include "result/result.h"
#include "stats/iolog.h"
#include "workload/jobrun.h"
#include "workload/workload.h"

#define FIO_MAX_FILES 64

/* fio's output formats; fio prints them in this order (its output buffers
 * __FIO_OUTPUT_TERSE, _JSON, _NORMAL), json+ inside the one JSON document */
#define FIO_OUT_TERSE 1u
#define FIO_OUT_JSON 2u
#define FIO_OUT_NORMAL 4u
#define FIO_OUT_JSON_PLUS 8u

bool fio_mode_invoked(const char *argv0)
{
    if (!argv0)
        return false;
    const char *b = strrchr(argv0, '/');
    return !strcmp(b ? b + 1 : argv0, "fio");
}

struct fio_cfg {
    struct jobfile jf;
    char *destroy_env;           /* a copy of SSDBENCH_DESTROY, split in place */
    unsigned formats;
    unsigned terse_version;      /* --terse-version: 2..5 (0 = fio's default 3) */
    struct fio_progress prog;
};

/* What the command line asked for, before any job is read. */
struct fio_args {
    const char *prog;
    const char *files[FIO_MAX_FILES];
    unsigned nfiles;
    char **jobv;                 /* job options, in order */
    int njob;
    const char *sections[FIO_MAX_FILES];
    unsigned nsections;
    bool version, help, showcmd, parse_only, readonly, warnings_fatal, ignore_unsupported;
    bool cmdhelp, enghelp;
    bool debug_parse;            /* --debug=parse (or all) */
    const char *cmdhelp_key, *enghelp_engine;
    const char *inflate_log;     /* --inflate-log=FILE */
    unsigned max_jobs;           /* 0 = no limit */
    unsigned terse_version;
};

enum fio_has_arg { NO_ARG, REQ_ARG, OPT_ARG };

enum fio_opt_id {
    O_OUTPUT, O_OUTPUT_FORMAT, O_MINIMAL, O_TERSE_VERSION, O_BW_LOG, O_VERSION, O_HELP, O_CMDHELP,
    O_ENGHELP, O_SHOWCMD, O_READONLY, O_ETA, O_ETA_INTERVAL, O_ETA_NEWLINE, O_STATUS_INTERVAL,
    O_DEBUG, O_PARSE_ONLY, O_SECTION, O_ALLOC_SIZE, O_WARNINGS_FATAL, O_MAX_JOBS,
    O_IGNORE_UNSUPPORTED, O_DESTROY, O_RESULT, O_INFLATE_LOG,
};

/* fio's long options (init.c l_opts) that ssdbench honours, as fio's getopt
 * takes their arguments; then ssdbench's own. */
static const struct {
    const char *name;
    enum fio_has_arg arg;
    enum fio_opt_id id;
} fio_opts[] = {
    {"output", REQ_ARG, O_OUTPUT},
    {"output-format", REQ_ARG, O_OUTPUT_FORMAT},
    {"minimal", NO_ARG, O_MINIMAL},
    {"terse-version", REQ_ARG, O_TERSE_VERSION},
    {"bandwidth-log", NO_ARG, O_BW_LOG},
    {"version", NO_ARG, O_VERSION},
    {"help", NO_ARG, O_HELP},
    {"cmdhelp", OPT_ARG, O_CMDHELP},
    {"enghelp", OPT_ARG, O_ENGHELP},
    {"showcmd", NO_ARG, O_SHOWCMD},
    {"readonly", NO_ARG, O_READONLY},
    {"eta", REQ_ARG, O_ETA},
    {"eta-interval", REQ_ARG, O_ETA_INTERVAL},
    {"eta-newline", REQ_ARG, O_ETA_NEWLINE},
    {"status-interval", REQ_ARG, O_STATUS_INTERVAL},
    {"debug", REQ_ARG, O_DEBUG},
    {"parse-only", NO_ARG, O_PARSE_ONLY},
    {"section", REQ_ARG, O_SECTION},
    {"alloc-size", REQ_ARG, O_ALLOC_SIZE},
    {"warnings-fatal", NO_ARG, O_WARNINGS_FATAL},
    {"max-jobs", REQ_ARG, O_MAX_JOBS},
    /* ssdbench's own */
    {"ignore-unsupported", NO_ARG, O_IGNORE_UNSUPPORTED},
    {"destroy", REQ_ARG, O_DESTROY},
    {"result", REQ_ARG, O_RESULT},
    {"inflate-log", REQ_ARG, O_INFLATE_LOG},
};

#define NFIO_OPTS (sizeof(fio_opts) / sizeof(fio_opts[0]))

/* fio's parse_output_format: a comma list of terse (minimal, csv), json,
 * json+ and normal. 0 or -1. */
static int parse_formats(const char *v, unsigned *out)
{
    char buf[256];
    snprintf(buf, sizeof(buf), "%s", v);
    unsigned f = 0;
    char *save = NULL;
    for (char *w = strtok_r(buf, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
        if (!strcmp(w, "terse") || !strcmp(w, "minimal") || !strcmp(w, "csv"))
            f |= FIO_OUT_TERSE;
        else if (!strcmp(w, "json"))
            f |= FIO_OUT_JSON;
        else if (!strcmp(w, "json+"))
            f |= FIO_OUT_JSON | FIO_OUT_JSON_PLUS;
        else if (!strcmp(w, "normal"))
            f |= FIO_OUT_NORMAL;
        else {
            cli_err("--output-format: invalid output format '%s' (use normal, terse, json or json+, "
                    "several separated by ',')", w);
            return -1;
        }
    }
    if (!f) {
        cli_err("--output-format: no format given");
        return -1;
    }
    *out = f;
    return 0;
}

static int time_arg(const char *opt, const char *v, uint64_t *ns)
{
    return cli_opt_time(opt, v, ns);
}

/* One of fio's own options, its value already split off. 0 or -1 after a
 * one-line error. */
static int fio_option(enum fio_opt_id id, const char *v, struct fio_args *a, struct fio_cfg *c,
                      struct cli_output *out)
{
    switch (id) {
    case O_OUTPUT: out->output = v; return 0;
    case O_OUTPUT_FORMAT: return parse_formats(v, &c->formats);
    case O_MINIMAL: c->formats = FIO_OUT_TERSE; return 0;
    case O_TERSE_VERSION:
        /* fio takes versions 2 to 5 (show_thread_status_terse_all) */
        if (strlen(v) != 1 || v[0] < '2' || v[0] > '5') {
            cli_err("--terse-version: bad terse version format '%s' (fio's versions are 2, 3, 4 and 5)", v);
            return -1;
        }
        a->terse_version = c->terse_version = (unsigned)(v[0] - '0');
        return 0;
    case O_BW_LOG: c->prog.bw_log = true; return 0;
    case O_VERSION: a->version = true; return 0;
    case O_HELP: a->help = true; return 0;
    case O_CMDHELP: a->cmdhelp = true; a->cmdhelp_key = v; return 0;
    case O_ENGHELP: a->enghelp = true; a->enghelp_engine = v; return 0;
    case O_SHOWCMD: a->showcmd = true; return 0;
    case O_READONLY: a->readonly = true; return 0;
    case O_ETA:
        if (!strcmp(v, "always"))
            c->prog.eta = FIO_ETA_ALWAYS;
        else if (!strcmp(v, "never"))
            c->prog.eta = FIO_ETA_NEVER;
        else if (!strcmp(v, "auto"))
            c->prog.eta = FIO_ETA_AUTO;
        else {
            cli_err("--eta: '%s' is not always, never or auto", v);
            return -1;
        }
        return 0;
    case O_ETA_INTERVAL: {
        uint64_t ns;
        return time_arg("--eta-interval", v, &ns);
    }
    case O_ETA_NEWLINE: return time_arg("--eta-newline", v, &c->prog.eta_newline_ns);
    case O_STATUS_INTERVAL:
        if (time_arg("--status-interval", v, &c->prog.status_interval_ns) < 0)
            return -1;
        if (c->prog.status_interval_ns < 1000000000ull) {
            cli_err("--status-interval: '%s' is shorter than 1s (status is printed once per interval)", v);
            return -1;
        }
        return 0;
    case O_DEBUG:
        /* fio's "parse" debug lines are printed (fio_debug_parse); the
         * other debug areas are accepted, ssdbench has no such logging */
        for (const char *s = v; s && *s;) {
            size_t n = strcspn(s, ",");
            if ((n == 5 && !strncmp(s, "parse", 5)) || (n == 3 && !strncmp(s, "all", 3)))
                a->debug_parse = true;
            s += n + (s[n] == ',');
        }
        return 0;
    case O_PARSE_ONLY: a->parse_only = true; return 0;
    case O_SECTION:
        if (a->nsections < FIO_MAX_FILES)
            a->sections[a->nsections++] = v;
        return 0;
    case O_ALLOC_SIZE: {
        unsigned kb;
        return cli_opt_uint("--alloc-size", v, 1, 0x7fffffff, &kb);
    }
    case O_WARNINGS_FATAL: a->warnings_fatal = true; return 0;
    case O_MAX_JOBS: return cli_opt_uint("--max-jobs", v, 1, 0x7fffffff, &a->max_jobs);
    case O_IGNORE_UNSUPPORTED: a->ignore_unsupported = true; return 0;
    case O_DESTROY:
        if (out->consent.n >= GUARD_MAX_CONSENT) {
            cli_err("--destroy: at most %d paths", GUARD_MAX_CONSENT);
            return -1;
        }
        out->consent.paths[out->consent.n++] = v;
        return 0;
    case O_RESULT: out->result = v; return 0;
    case O_INFLATE_LOG: a->inflate_log = v; return 0;
    }
    return 0;
}

/* The words of the command line. 0, or -1 after a one-line error. */
static int fio_words(int argc, char **argv, struct fio_args *a, struct fio_cfg *c, struct cli_output *out)
{
    for (int i = 1; i < argc; i++) {
        const char *w = argv[i];
        if (!strcmp(w, "-h")) {
            a->help = true;
            continue;
        }
        if (strncmp(w, "--", 2) || !w[2]) {
            if (w[0] == '-' && w[1]) {
                cli_err("unknown option '%s' (see fio --help)", w);
                return -1;
            }
            if (a->nfiles == FIO_MAX_FILES) {
                cli_err("more than %d job files", FIO_MAX_FILES);
                return -1;
            }
            a->files[a->nfiles++] = w;
            continue;
        }
        const char *eq = strchr(w, '=');
        size_t klen = eq ? (size_t)(eq - w - 2) : strlen(w + 2);
        unsigned k;
        for (k = 0; k < NFIO_OPTS; k++)
            if (strlen(fio_opts[k].name) == klen && !strncmp(w + 2, fio_opts[k].name, klen))
                break;
        if (k < NFIO_OPTS) {
            const char *v = eq ? eq + 1 : NULL;
            if (fio_opts[k].arg == NO_ARG && v) {
                cli_err("option '--%s' doesn't allow an argument", fio_opts[k].name);
                return -1;
            }
            if (fio_opts[k].arg == REQ_ARG && !v) {
                if (i + 1 >= argc) {
                    cli_err("option '--%s' requires an argument", fio_opts[k].name);
                    return -1;
                }
                v = argv[++i];
            }
            if (fio_option(fio_opts[k].id, v, a, c, out) < 0)
                return -1;
            continue;
        }
        /* a job option, with its value in the next word when it takes one */
        a->jobv[a->njob++] = argv[i];
        if (!eq && job_option_takes_arg(w + 2) && i + 1 < argc && strncmp(argv[i + 1], "--", 2))
            a->jobv[a->njob++] = argv[++i];
    }
    return 0;
}

/* Standard input as one job file's text (at most JOBFILE_MAX_BYTES). */
static char *read_stdin(char *err, size_t errlen)
{
    size_t cap = 65536, len = 0;
    char *buf = malloc(cap + 1);
    while (buf) {
        size_t n = fread(buf + len, 1, cap - len, stdin);
        len += n;
        if (n == 0)
            break;
        if (len == cap) {
            if (cap >= JOBFILE_MAX_BYTES) {
                snprintf(err, errlen, "<stdin>: job file larger than %u MiB", JOBFILE_MAX_BYTES >> 20);
                free(buf);
                return NULL;
            }
            char *b = realloc(buf, 2 * cap + 1);
            if (!b)
                break;
            buf = b;
            cap *= 2;
        }
    }
    if (!buf || ferror(stdin)) {
        snprintf(err, errlen, "<stdin>: cannot read the job file");
        free(buf);
        return NULL;
    }
    buf[len] = '\0';
    if (memchr(buf, '\0', len)) {
        snprintf(err, errlen, "<stdin>: not a text file");
        free(buf);
        return NULL;
    }
    return buf;
}

/* One job file (or "-"). With --showcmd its command line is printed. */
static int parse_one(const char *path, struct jobfile_opts *jo, bool showcmd, bool *stdin_used, struct jobfile *jf,
                     char *err, size_t errlen)
{
    struct fio_showcmd sc;
    if (showcmd) {
        if (fio_showcmd_init(&sc) < 0) {
            snprintf(err, errlen, "out of memory");
            return -ENOMEM;
        }
        jo->on_entry = fio_showcmd_entry;
        jo->entry_ctx = &sc;
    }
    int rc;
    if (!strcmp(path, "-")) {
        char *text = NULL;
        if (*stdin_used) {
            snprintf(err, errlen, "only one job file can be read from standard input");
            rc = -EINVAL;
        } else if (!(text = read_stdin(err, errlen))) {
            rc = -EIO;
        } else {
            rc = jobfile_parse_string(text, "<stdin>", jo, jf, err, errlen);
        }
        *stdin_used = true;
        free(text);
    } else {
        rc = jobfile_parse_file(path, jo, jf, err, errlen);
    }
    if (showcmd) {
        if (rc == 0 && fio_showcmd_finish(&sc, stdout) < 0) {
            snprintf(err, errlen, "out of memory");
            rc = -ENOMEM;
        }
        fio_showcmd_free(&sc);
        jo->on_entry = NULL;
    }
    return rc;
}

/* Job options given with job files: as in fio, defaults for every job of
 * the files (applied to their [global] template first). */
struct presets {
    char **keys, **values;
    unsigned n;
};

static void presets_free(struct presets *ps)
{
    for (unsigned i = 0; i < ps->n; i++) {
        free(ps->keys[i]);
        free(ps->values[i]);
    }
    free(ps->keys);
    free(ps->values);
    memset(ps, 0, sizeof(*ps));
}

/* The words "--key=value", "--key value", "--key" into pairs. 0 or -errno. */
static int presets_make(struct presets *ps, char **w, int n, char *err, size_t errlen)
{
    memset(ps, 0, sizeof(*ps));
    ps->keys = calloc((size_t)n + 1, sizeof(*ps->keys));
    ps->values = calloc((size_t)n + 1, sizeof(*ps->values));
    if (!ps->keys || !ps->values)
        goto nomem;
    for (int i = 0; i < n; i++) {
        const char *k = w[i] + 2, *eq = strchr(k, '=');
        const char *v = eq ? eq + 1 : NULL;
        char *key = eq ? strndup(k, (size_t)(eq - k)) : strdup(k);
        if (!key)
            goto nomem;
        ps->keys[ps->n] = key;
        if (!v && i + 1 < n && strncmp(w[i + 1], "--", 2))
            v = w[++i]; /* the value fio_words kept with its option */
        if (v && !(ps->values[ps->n] = strdup(v))) {
            ps->n++;
            goto nomem;
        }
        ps->n++;
        if (!strcmp(key, "name")) {
            snprintf(err, errlen, "command line: --name cannot be combined with job files (options before "
                     "it are defaults for the files' jobs)");
            presets_free(ps);
            return -EINVAL;
        }
    }
    return 0;
nomem:
    snprintf(err, errlen, "out of memory");
    presets_free(ps);
    return -ENOMEM;
}

/* fio --debug=parse: fio's lines for each option applied, and for a
 * steady-state criterion the threshold as fio's parser reports it. */
static void fio_debug_parse(void *ctx, const char *key, const char *value, const struct job_extra *x)
{
    int pid = (int)getpid();
    printf("parse    %d handle_option=%s, ptr=%s\n", pid, key, value ? value : "");
    if (strcasecmp(key, "steadystate") && strcasecmp(key, "ss"))
        return;
    const struct steady_cfg *s = &x->ss.cfg;
    if (s->limit_pct)
        printf("parse    %d set steady state threshold to %f%%\n", pid, s->limit);
    else if (s->metric == STEADY_IOPS)
        printf("parse    %d set steady state IOPS threshold to %f\n", pid, s->limit);
    else
        printf("parse    %d set steady state BW threshold to %lld\n", pid, (long long)s->limit);
}

static int parse_jobs(struct fio_args *a, struct fio_cfg *c, char *err, size_t errlen)
{
    struct jobfile_opts jo;
    memset(&jo, 0, sizeof(jo));
    if (a->debug_parse)
        jo.on_applied = fio_debug_parse;
    jo.fio_defaults = true;
    jo.fio_size_rules = true;
    jo.interval_ns = 500000000ull; /* fio's bwavgtime / iopsavgtime */
    jo.ignore_unsupported = a->ignore_unsupported;
    jo.sections = a->nsections ? a->sections : NULL;
    jo.nsections = a->nsections;
    if (!a->nfiles) {
        if (a->showcmd) {
            snprintf(err, errlen, "--showcmd needs a job file");
            return -EINVAL;
        }
        return jobfile_parse_cmdline(a->njob, a->jobv, &jo, &c->jf, err, errlen);
    }
    struct presets ps;
    int rc = presets_make(&ps, a->jobv, a->njob, err, errlen);
    if (rc < 0)
        return rc;
    jo.preset_keys = (const char *const *)ps.keys;
    jo.preset_values = (const char *const *)ps.values;
    jo.npreset = ps.n;
    bool stdin_used = false;
    rc = parse_one(a->files[0], &jo, a->showcmd, &stdin_used, &c->jf, err, errlen);
    for (unsigned f = 1; f < a->nfiles && rc == 0; f++) {
        struct jobfile more;
        memset(&more, 0, sizeof(more));
        rc = parse_one(a->files[f], &jo, a->showcmd, &stdin_used, &more, err, errlen);
        if (rc == 0)
            rc = jobfile_append(&c->jf, &more, err, errlen);
        jobfile_free(&more);
    }
    presets_free(&ps);
    return rc;
}

/* fio refuses a write job in read-only mode before anything runs. */
static int check_readonly(const struct jobfile *jf)
{
    for (unsigned j = 0; j < jf->njobs; j++) {
        if (jf->jobs[j].read_iolog[0])
            continue; /* a replay leaves its writes out instead (job_replay_readonly) */
        enum job_rw rw = jf->jobs[j].rw;
        bool writes = rw == RW_WRITE || rw == RW_RANDWRITE ||
                      ((rw == RW_RW || rw == RW_RANDRW) && jf->jobs[j].rwmixread < 100) ||
                      job_rw_trims(&jf->jobs[j]); /* fio: trims are refused as well */
        if (writes) {
            cli_err("job <%s> has write bit set, but fio is in read-only mode (--readonly)", jf->jobs[j].name);
            return -1;
        }
    }
    return 0;
}

/* The planned length in seconds when every job is limited by time, else 0
 * (the ETA line then shows the elapsed time). Phases run one after another. */
static double planned_seconds(const struct jobfile *jf)
{
    double total = 0, phase = 0;
    for (unsigned j = 0; j < jf->njobs; j++) {
        const struct job_spec *jb = &jf->jobs[j];
        if (!jb->runtime_ns)
            return 0;
        if (jb->stonewall && j) {
            total += phase;
            phase = 0;
        }
        double s = (double)(jb->runtime_ns + jb->ramp_ns + jb->startdelay_ns) / 1e9;
        phase = s > phase ? s : phase;
    }
    return total + phase;
}

/* fio mode's consent for scripts that cannot add --destroy to a fio command
 * line: SSDBENCH_DESTROY names the paths (':' between them), as --destroy
 * does; the guard's refusal names it. 0, or -1 after a one-line error. */
#define FIO_DESTROY_ENV "SSDBENCH_DESTROY"
static int fio_env_consent(struct fio_cfg *c, struct cli_output *out)
{
    out->consent.option = "to the environment " FIO_DESTROY_ENV;
    const char *v = getenv(FIO_DESTROY_ENV);
    if (!v || !*v)
        return 0;
    c->destroy_env = strdup(v);
    if (!c->destroy_env)
        return cli_err("out of memory"), -1;
    char *save = NULL;
    for (char *p = strtok_r(c->destroy_env, ":", &save); p; p = strtok_r(NULL, ":", &save)) {
        if (out->consent.n >= GUARD_MAX_CONSENT) {
            cli_err(FIO_DESTROY_ENV ": at most %d paths (with --destroy)", GUARD_MAX_CONSENT);
            return -1;
        }
        out->consent.paths[out->consent.n++] = p;
    }
    return 0;
}

static int fio_parse(int argc, char **argv, void *cfg, struct cli_output *out)
{
    struct fio_cfg *c = cfg;
    struct fio_args a;
    memset(&a, 0, sizeof(a));
    a.prog = argv[0];
    c->formats = FIO_OUT_NORMAL;
    c->prog.eta = FIO_ETA_AUTO;
    c->prog.err = stderr;
    out->quiet = true; /* fio mode prints its own ETA line */
    a.jobv = calloc((size_t)argc + 1, sizeof(*a.jobv));
    if (!a.jobv)
        return CLI_EXIT_FAIL;
    int code = WL_PARSED;
    char err[JOBFILE_MSG_MAX + 64];
    if (fio_env_consent(c, out) < 0 || fio_words(argc, argv, &a, c, out) < 0) {
        code = CLI_EXIT_USAGE;
    } else if (a.version) {
        fio_help_version(stdout);
        code = 0;
    } else if (a.help) {
        fio_help_usage(stdout, "fio");
        code = 0;
    } else if (a.cmdhelp) {
        code = fio_help_cmd(stdout, a.cmdhelp_key);
    } else if (a.enghelp) {
        code = fio_help_engine(stdout, a.enghelp_engine);
    } else if (a.inflate_log) {
        char ierr[JOB_PATH_MAX + 128];
        code = iolog_inflate(a.inflate_log, stdout, ierr, sizeof(ierr)) < 0 ? CLI_EXIT_FAIL : 0;
        if (code)
            cli_err("%s", ierr);
    } else if (!a.nfiles && !a.njob) {
        fprintf(stderr, "No job(s) defined\n\n");
        fio_help_usage(stderr, "fio");
        code = CLI_EXIT_FAIL;
    } else if (parse_jobs(&a, c, err, sizeof(err)) < 0) {
        cli_err("%s", err);
        code = CLI_EXIT_USAGE;
    }
    for (unsigned w = 0; code == WL_PARSED && w < c->jf.nwarnings; w++)
        cli_err("warning: %s", c->jf.warnings[w]);
    if (code == WL_PARSED && a.warnings_fatal && c->jf.nwarnings) {
        cli_err("%u warning%s and --warnings-fatal: nothing run", c->jf.nwarnings, c->jf.nwarnings == 1 ? "" : "s");
        code = CLI_EXIT_USAGE;
    }
    if (code == WL_PARSED && a.readonly && check_readonly(&c->jf) < 0)
        code = CLI_EXIT_USAGE;
    /* fio's --readonly is every job's readonly=1 */
    for (unsigned j = 0; code == WL_PARSED && a.readonly && j < c->jf.njobs; j++) {
        char rerr[600];
        if (job_replay_readonly(&c->jf.jobs[j], &c->jf.extra[j], rerr, sizeof(rerr)) < 0) {
            cli_err("job <%s>: %s", c->jf.jobs[j].name, rerr);
            code = CLI_EXIT_USAGE;
        }
    }
    if (code == WL_PARSED && a.max_jobs) {
        unsigned long n = 0;
        for (unsigned j = 0; j < c->jf.njobs; j++)
            n += c->jf.extra[j].numjobs ? c->jf.extra[j].numjobs : 1;
        if (n > a.max_jobs) {
            cli_err("%lu jobs (clones counted) are more than --max-jobs=%u", n, a.max_jobs);
            code = CLI_EXIT_USAGE;
        }
    }
    if (code == WL_PARSED && (a.showcmd || a.parse_only))
        code = 0; /* fio runs nothing after --showcmd or --parse-only */
    if (code == WL_PARSED && cli_output_check(out, NULL) < 0)
        code = CLI_EXIT_USAGE;
    if (code == WL_PARSED && cli_jobs_readonly(c->jf.jobs, c->jf.njobs) && cli_output_check_readonly(out) < 0)
        code = CLI_EXIT_USAGE;
    if (code == WL_PARSED)
        c->prog.planned_s = planned_seconds(&c->jf);
    free(a.jobv);
    return code;
}

static int fio_run(struct session *s, void *cfg, struct cli_output *out)
{
    struct fio_cfg *c = cfg;
    char err[1024];
    signal_install();
    if (fio_progress_start(&c->prog, err, sizeof(err)) < 0) {
        cli_err("%s", err);
        return CLI_EXIT_USAGE;
    }
    s->ro.stop_on_error = true;
    /* jobs with steadystate= use the interval hook themselves (jobrun.c):
     * they run without the ETA line and running totals */
    s->ro.on_interval = fio_progress_hook;
    s->ro.arg = &c->prog;
    int rc = jobrun_execute(s->doc, &c->jf, &s->ro, &s->st, err, sizeof(err));
    bool log_failed = fio_progress_end(&c->prog) < 0;
    if (rc < 0) {
        cli_err("%s", err);
        return CLI_EXIT_USAGE;
    }
    result_finish(s->doc, s->st.interrupted, s->st.signal);
    cli_report_errors(s->doc);
    s->done = true;
    int code = plan_exit_code(&s->st);
    return code ? code : log_failed ? CLI_EXIT_FAIL : 0;
}

/* Every chosen format into one output, in fio's order. */
static int fio_render(struct session *s, void *cfg, const struct cli_output *out, int status)
{
    struct fio_cfg *c = cfg;
    char err[1024];
    if (out->result && result_write(s->doc, out->result, err, sizeof(err)) < 0) {
        cli_err("%s", err);
        status = status ? status : CLI_EXIT_FAIL;
    }
    struct outfile of;
    if (outfile_open(&of, out->output ? out->output : "-", err, sizeof(err)) < 0) {
        cli_err("%s", err);
        return status ? status : CLI_EXIT_FAIL;
    }
    /* a format that cannot be written does not keep the others back */
    bool failed = false;
    /* the text formats with control characters in names and paths escaped */
    FILE *safe = c->formats & (FIO_OUT_TERSE | FIO_OUT_NORMAL) ? textsafe_open(of.f) : NULL;
    FILE *text = safe ? safe : of.f;
    if (c->formats & FIO_OUT_TERSE && render_fio_terse_v(text, s->doc, c->terse_version ? c->terse_version : 3, err, sizeof(err)) < 0) {
        cli_err("%s", err);
        failed = true;
    }
    if (safe)
        fflush(safe); /* terse before the JSON document, as fio */
    if (c->formats & FIO_OUT_JSON &&
        render_fio_json(of.f, s->doc, c->formats & FIO_OUT_JSON_PLUS, err, sizeof(err)) < 0) {
        cli_err("%s", err);
        failed = true;
    }
    if (c->formats & FIO_OUT_NORMAL && render_fio_normal(text, s->doc, err, sizeof(err)) < 0) {
        cli_err("%s", err);
        failed = true;
    }
    if (safe)
        textsafe_close(safe); /* a failed write shows as an error on of.f */
    if (failed)
        status = status ? status : CLI_EXIT_FAIL;
    int wrc = outfile_commit(&of, err, sizeof(err));
    if (wrc < 0 && !OUTFILE_READER_GONE(wrc)) {
        cli_err("%s", err);
        status = status ? status : CLI_EXIT_FAIL;
    }
    return status;
}

static void fio_free(void *cfg)
{
    struct fio_cfg *c = cfg;
    fio_progress_end(&c->prog);
    jobfile_free(&c->jf);
    free(c->destroy_env);
}

static const struct workload_cmd fio_workload = {
    .name = "fio",
    .summary = "fio's command line, defaults and output (ssdbench invoked as fio)",
    .cfg_size = sizeof(struct fio_cfg),
    .parse = fio_parse,
    .run = fio_run,
    .render = fio_render,
    .free = fio_free,
};

int fio_mode_main(int argc, char **argv, struct cluster *cl)
{
    return cli_workload_main(&fio_workload, argc, argv, cl);
}

int fio_mode_parse_files(const char *const *files, unsigned nfiles, char **jobv, int njob,
                         struct jobfile_opts *jo, struct jobfile *jf, char *err, size_t errlen)
{
    struct presets ps;
    int rc = presets_make(&ps, jobv, njob, err, errlen);
    if (rc < 0)
        return rc;
    jo->preset_keys = (const char *const *)ps.keys;
    jo->preset_values = (const char *const *)ps.values;
    jo->npreset = ps.n;
    bool stdin_used = false;
    for (unsigned f = 0; f < nfiles && rc == 0; f++) {
        const char *path = !strcmp(files[f], "/dev/stdin") ? "-" : files[f];
        if (f == 0) {
            rc = parse_one(path, jo, false, &stdin_used, jf, err, errlen);
            continue;
        }
        struct jobfile more;
        memset(&more, 0, sizeof(more));
        rc = parse_one(path, jo, false, &stdin_used, &more, err, errlen);
        if (rc == 0)
            rc = jobfile_append(jf, &more, err, errlen);
        jobfile_free(&more);
    }
    jo->preset_keys = jo->preset_values = NULL;
    jo->npreset = 0;
    presets_free(&ps);
    return rc;
}
