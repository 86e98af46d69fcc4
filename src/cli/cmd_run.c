/* cmd_run.c - `ssdbench run`: fio-style jobs from options or job files, or the
 * built-in quick grid when given nothing. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/cli_opts.h"
#include "cli/cli_tables.h"
#include "cli/cli_dry.h"
#include "cli/commands.h"
#include "cli/fio_mode.h"
#include "engine/engine.h"
#include "base/outfile.h"
#include "base/signal.h"
#include "job/job_resolve.h"
#include "job/spec_parse.h"
#include "jobfile/jobfile.h"
#include "jobfile/options.h"
#include "result/journal.h"
#include "result/result.h"
#include "target/target.h"
#include "workload/jobrun.h"
#include "workload/plan.h"
#include "profiles/profiles.h"
#include "workload/quick.h"
#include "workload/workload.h"

#define MAX_JOBFILES 64
#define MAX_PROFILE_OPTS 64
#define RUN_DEFAULT_FILE_SIZE (1ull << 30) /* runner_setup.c's, for a missing file without a size */

/* The job options handed to the fio option parser: pointers into argv, plus
 * the "--key=value" strings a --profile expands to (owned here). */
struct argvec {
    char **v;
    int n, cap;
    char **owned;
    int nowned;
};

static int argvec_push(struct argvec *a, char *s, bool owned)
{
    if (a->n + 1 >= a->cap) {
        int cap = a->cap * 2 + 16;
        char **v = realloc(a->v, (size_t)cap * sizeof(*v));
        char **o = realloc(a->owned, (size_t)cap * sizeof(*o));
        if (v)
            a->v = v;
        if (o)
            a->owned = o;
        if (!v || !o)
            return -ENOMEM;
        a->cap = cap;
    }
    a->v[a->n++] = s;
    a->v[a->n] = NULL;
    if (owned)
        a->owned[a->nowned++] = s;
    return 0;
}

static void argvec_free(struct argvec *a)
{
    for (int i = 0; i < a->nowned; i++)
        free(a->owned[i]);
    free(a->owned);
    free(a->v);
    memset(a, 0, sizeof(*a));
}

/* --profile NAME: the profile's options, spliced in where it stands, so it
 * acts like options typed there (global before the first --name, and later
 * options override it). */
static int push_profile(struct argvec *a, const char *name)
{
    struct profile_opt *po = calloc(MAX_PROFILE_OPTS, sizeof(*po));
    char perr[512];
    if (!po)
        return -ENOMEM;
    int n = profile_options(name, po, MAX_PROFILE_OPTS, perr, sizeof(perr));
    if (n < 0) {
        cli_err("--profile: %s", perr);
        free(po);
        return n;
    }
    for (int k = 0; k < n; k++) {
        char *s = NULL;
        if ((po[k].bare ? asprintf(&s, "--%s", po[k].key)
                        : asprintf(&s, "--%s=%s", po[k].key, po[k].value)) < 0 ||
            argvec_push(a, s, true) < 0) {
            free(s);
            free(po);
            return -ENOMEM;
        }
    }
    free(po);
    return 0;
}

/* What `run` parsed and what its run keeps until the document is saved:
 * the jobs (or the quick grid and its test file). */
struct run_cfg {
    struct jobfile jf;
    struct plan plan;
    char quick_path[4096];      /* the quick grid's test file, removed afterwards */
    bool quick;                 /* the quick grid: summary only */
    uint64_t quick_size;
    bool dry_run;               /* --dry-run: print the plan, run nothing */
};

/* What run's own options fill (the rest of the command line is job
 * options, read by the job option table). */
struct run_args {
    struct argvec *ja;
    const char **files;
    unsigned *nfiles;
    const char **sections;
    struct jobfile_opts *jo;
    bool parse_only, dry;
};

static int set_ignore(const struct cli_ctx *c, const struct cli_opt *o, const char *v)
{
    ((struct run_args *)c->cfg)->jo->ignore_unsupported = true;
    return 0;
}

static int set_section(const struct cli_ctx *c, const struct cli_opt *o, const char *v)
{
    struct run_args *r = c->cfg;
    if (r->jo->nsections < MAX_JOBFILES)
        r->sections[r->jo->nsections++] = v;
    return 0;
}

static int set_job_file(const struct cli_ctx *c, const struct cli_opt *o, const char *v)
{
    struct run_args *r = c->cfg;
    if (*r->nfiles < MAX_JOBFILES)
        r->files[(*r->nfiles)++] = v;
    return 0;
}

static int set_profile(const struct cli_ctx *c, const struct cli_opt *o, const char *v)
{
    return push_profile(((struct run_args *)c->cfg)->ja, v);
}

#define A(f) CLI_AT(struct run_args, f)

static const struct cli_opt run_opts[] = {
    CLI_TEXT("usage: ssdbench run [options] [JOBFILE...]\n"
             "       ssdbench run --name=NAME --filename=PATH --rw=randread --bs=4k ... [--name=...]\n"
             "       ssdbench run            (quick grid on a temporary test file)\n\n"
             "Output and safety:\n"
             "  --format text|json|csv|fio-json|fio-json+   what to print (default text)\n"
             "  --format fio-normal|fio-terse     fio's human text / terse lines (version 3)\n"
             "  --output-format normal|json|json+           fio's names for the same"),
    CLI_SHARED("--output"),
    CLI_SHARED("--result"),
    CLI_SHARED("--archive"),
    CLI_SHARED("--tag"),
    CLI_SHARED("--destroy"),
    {.name = "--job-file",
     .man = "Read a fio job file.", .value = "FILE", .help = "read a fio job file (same as a positional JOBFILE)",
     .type = CLI_T_CALL, .set = set_job_file},
    {.name = "--section",
     .man = "Run only this section of the job files (repeatable).", .value = "NAME", .help = "run only this job section (repeatable)", .type = CLI_T_CALL,
     .set = set_section},
    {.name = "--profile",
     .man = "A workload profile's job options (see \\fBssdbench profiles\\fR), spliced in\n"
            "where it stands; later options override it.", .value = "NAME", .help = "a workload profile's options, here (see ssdbench profiles)",
     .type = CLI_T_CALL, .set = set_profile},
    {.name = "--parse-only",
     .man = "Check job files and options, run nothing.", .help = "check job files and options, run nothing", .type = CLI_T_FLAG,
     A(parse_only)},
    {.name = "--dry-run",
     .man = "Print the plan: every phase with its jobs and their time, the total, each\n"
            "target with its kind and size and what the write guard would say about it\n"
            "(a missing file: where it would be created, how big, that it is kept). Nothing\n"
            "is opened for writing or created; a missing device, or a missing path under\n"
            "/dev, /proc or /sys, is named and exits 2.", .help = "print the phases, their time, the targets and what the\n"
                                  "guard says about each; write nothing (a missing device: exit 2)",
     .type = CLI_T_FLAG, A(dry)},
    {.name = "--ignore-unsupported",
     .man = "Downgrade options fio knows but ssdbench does not implement to warnings.\n"
            "Unknown keys (typos) and values ssdbench cannot honour (such as\n"
            "ioengine=cpuio) stay errors.", .help = "warn about fio options ssdbench lacks (typos stay errors)",
     .type = CLI_T_CALL, .set = set_ignore},
    CLI_SHARED("--quiet"),
    CLI_SHARED("--ranks-per-host"),
    CLI_TEXT("\n"
             "Defaults on the command line: rw=randread, bs=4k, ioengine=io_uring, direct=1,\n"
             "iodepth=1, numjobs=1; without --filename a job's file is NAME.0.0 in the current\n"
             "directory, and a missing file without --size is created at 1 GiB and kept (a\n"
             "missing path under /dev, /proc or /sys is an error). Job files start from fio's\n"
             "defaults instead (rw=read, ioengine=psync, direct=0).\n\n"
             "On the command line --runtime makes a job time-based (it loops over its region\n"
             "until the time is up); in job files fio's rule holds: without time_based a job\n"
             "ends after one pass over its region or at runtime, whichever comes first.\n\n"
             "Job options (fio's names; before the first --name they apply to every job):"),
    CLI_OPTS_END,
};

#undef A

const struct cli_cmd_opts run_cmd_opts = {.cmd = "run", .man_section = "RUN", .opts = run_opts, .col = 27};

static void run_usage(FILE *f)
{
    cli_opts_help(f, &run_cmd_opts);
    job_option_print(f);
}

/* The command line's words: --job-file, --section, --profile and the job
 * options into ja (argv[0] first), job files into files. Returns WL_PARSED,
 * or the exit status after --help or a one-line error. */
static int run_words(int argc, char **argv, struct cli_output *out, struct argvec *ja, const char **files,
                     unsigned *nfiles, const char **sections, struct jobfile_opts *jo, bool *parse_only,
                     bool *dry_run)
{
    bool operands = false;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (operands || !strcmp(a, "-")) { /* "-": the job file on standard input */
            if (*nfiles < MAX_JOBFILES)
                files[(*nfiles)++] = a;
            continue;
        }
        if (!strcmp(a, "--")) {
            operands = true;
            continue;
        }
        int c = cli_output_option(&i, argc, argv, out);
        if (c < 0)
            return CLI_EXIT_USAGE;
        if (c > 0)
            continue;
        const char *v;
        const struct cli_opt *hit;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            run_usage(stdout);
            return 0;
        } else if (cli_opts_find(run_opts, a)) {
            bool ops = false;
            struct run_args ra = {.ja = ja, .files = files, .nfiles = nfiles, .sections = sections, .jo = jo,
                                  .parse_only = *parse_only, .dry = *dry_run};
            const struct cli_ctx ctx = {.cmd = "run", .cfg = &ra, .out = out};
            if (cli_opts_next_typed("run", run_opts, &i, argc, argv, &v, &ops, &hit) != CLI_OPT_TYPED ||
                cli_opt_apply(&ctx, hit, v) < 0)
                return CLI_EXIT_USAGE;
            *parse_only = ra.parse_only;
            *dry_run = ra.dry;
        } else if (a[0] == '-' && a[1] == '-') {
            if (argvec_push(ja, argv[i], false) < 0)
                return CLI_EXIT_FAIL;
            /* "--rw randread": the value goes with its option, as in fio */
            if (!strchr(a, '=') && job_option_takes_arg(a + 2) && i + 1 < argc &&
                strncmp(argv[i + 1], "--", 2) && argvec_push(ja, argv[++i], false) < 0)
                return CLI_EXIT_FAIL;
        } else if (a[0] == '-') {
            cli_err("run: unknown option '%s' (see ssdbench run --help)", a);
            return CLI_EXIT_USAGE;
        } else if (*nfiles < MAX_JOBFILES) {
            files[(*nfiles)++] = a;
        }
    }
    return WL_PARSED;
}

/* The jobs of the job files, or of the command line's options. 0, or
 * -errno with the message in err. */
static int run_jobs(struct jobfile *jf, const char **files, unsigned nfiles, const struct argvec *ja,
                    struct jobfile_opts *jo, char *err, size_t errlen)
{
    int rc;
    if (nfiles) {
        /* a fio job file runs what fio would run: fio's defaults */
        jo->fio_defaults = true;
        /* job options with job files: defaults for every job of the
         * files, as fio applies them (`run job.fio --runtime=10`) */
        rc = fio_mode_parse_files(files, nfiles, ja->v + 1, ja->n - 1, jo, jf, err, errlen);
    } else {
        rc = jobfile_parse_cmdline(ja->n - 1, ja->v + 1, jo, jf, err, errlen);
    }
    /* fio's rules (job/job_resolve.h): on the command line --runtime
     * means "run this long", job files keep fio's rule */
    for (unsigned j = 0; rc == 0 && j < jf->njobs; j++)
        job_resolve(&jf->jobs[j], !nfiles);
    for (unsigned w = 0; rc == 0 && w < jf->nwarnings; w++)
        cli_err("warning: %s", jf->warnings[w]);
    return rc;
}

/* The size a missing file of job j is created with (fio's: filesize, else
 * size, else the default 1 GiB). */
static uint64_t create_size(const struct job_spec *j)
{
    return j->file_size ? j->file_size : j->size ? j->size : RUN_DEFAULT_FILE_SIZE;
}

/* One job's time bound in seconds (ramp + runtime), 0 when only its size
 * ends it. */
static double job_seconds(const struct job_spec *j)
{
    return j->runtime_ns ? (double)(j->startdelay_ns + j->ramp_ns + j->runtime_ns) / 1e9 : 0;
}

/* --dry-run: every phase's jobs, their time and targets (with what the
 * guard says about each), the total; nothing is written or created. 0, or
 * CLI_EXIT_USAGE after naming a missing target. */
static int run_dry(const struct run_cfg *c, const struct guard_consent *consent)
{
    char d[48], what[256];
    int code = 0;
    if (c->quick) {
        double secs = 0;
        printf("run plan (the quick grid):\n");
        for (unsigned p = 0; p < c->plan.nphases; p++) {
            const struct job_spec *j = &c->plan.phases[p].jobs[0];
            profile_summary(j, what, sizeof(what));
            cli_duration(d, sizeof(d), job_seconds(j));
            printf("  phase %u: %s: %s, QD%u, %s\n", p + 1, j->name, what, j->iodepth, d);
            secs += job_seconds(j);
        }
        printf("  target %s: missing: would be created (%llu MiB) and removed afterwards\n", c->quick_path,
               (unsigned long long)(c->quick_size >> 20));
        cli_duration(d, sizeof(d), secs);
        printf("  total: %s\n", d);
        return 0;
    }
    printf("run plan (%u job%s):\n", c->jf.njobs, c->jf.njobs == 1 ? "" : "s");
    double total = 0, phase = 0;
    unsigned nphase = 1;
    bool unbounded = false;
    for (unsigned k = 0; k < c->jf.njobs; k++) {
        const struct job_spec *j = &c->jf.jobs[k];
        if (k && j->stonewall) {
            total += phase;
            phase = 0;
            nphase++;
        }
        double js = job_seconds(j);
        phase = js > phase ? js : phase;
        unbounded |= js == 0;
        profile_summary(j, what, sizeof(what));
        cli_duration(d, sizeof(d), js);
        printf("  phase %u: job %s: %s, QD%u x%u, %s%s\n", nphase, j->name, what, j->iodepth, j->numjobs,
               js ? (j->time_based ? "time based, " : "at most ") : "", js ? d : "until its size is done");
        if (!engine_lookup(j->engine)->needs_files) {
            printf("  target (null engine): nothing is read or written\n");
            continue;
        }
        bool writes = job_rw_destroys(j) && !(j->verify != VERIFY_OFF && j->verify_only);
        for (unsigned t = 0; t < j->ntargets; t++)
            if (cli_dry_target(stdout, j->targets[t], writes && job_target_destroys(j, t), create_size(j), consent) < 0)
                code = CLI_EXIT_USAGE;
    }
    total += phase;
    cli_duration(d, sizeof(d), total);
    if (total == 0)
        printf("  total: set by the jobs' sizes (the time depends on the device)\n");
    else
        printf("  total: %s%s\n", d, unbounded ? " plus the jobs bounded by size (their time depends on the device)" : "");
    return code;
}

/* A missing file created at the default size, said out loud: where, how
 * big, and that it stays (fio would refuse: "you need to specify size="). */
static void announce_default_files(const struct jobfile *jf)
{
    for (unsigned k = 0; k < jf->njobs; k++) {
        const struct job_spec *j = &jf->jobs[k];
        if (j->size || j->file_size || j->fill_device || !engine_lookup(j->engine)->needs_files)
            continue;
        for (unsigned t = 0; t < j->ntargets; t++) {
            struct target_info ti;
            char e[256], cwd[4096];
            if (target_probe(j->targets[t], &ti, e, sizeof(e)) != -ENOENT)
                continue;
            bool rel = j->targets[t][0] != '/';
            cli_err("job %s: no size given: creating %s%s%s with the default size 1 GiB; it is kept after "
                    "the run (give --size, or --filename of an existing file or device)",
                    j->name, j->targets[t], rel ? " in " : "", rel ? (getcwd(cwd, sizeof(cwd)) ? cwd : ".") : "");
        }
    }
}

/* fio's units read "64KiB" as 64,000 bytes and "4KB" as 4,096: a size on
 * the command line spelt with KB/KiB (MB, MiB ...) gets its bytes said. */
static void note_size_spellings(const struct argvec *ja)
{
    for (int k = 1; k < ja->n; k++) {
        const char *w = ja->v[k], *eq = strchr(w, '=');
        if (strncmp(w, "--", 2) || !eq)
            continue;
        const char *v = eq + 1;
        size_t len = strlen(v);
        bool kb = len >= 3 && strchr("kKmMgGtTpP", v[len - 2]) && strchr("bB", v[len - 1]);
        bool kib = len >= 4 && strchr("kKmMgGtTpP", v[len - 3]) && strchr("iI", v[len - 2]) &&
                   strchr("bB", v[len - 1]);
        uint64_t b;
        char e[128];
        if ((kb || kib) && isdigit((unsigned char)v[0]) && !strchr(v, ',') && !strchr(v, ':') &&
            spec_parse_size(v, 1024, &b, e, sizeof(e)) == 0)
            cli_err("note: %.*s=%s is %llu bytes (fio's units: k = 1024, and the ...iB spellings are "
                    "powers of 1000)", (int)(eq - w), w, v, (unsigned long long)b);
    }
}

/* Reads the jobs (or picks the quick grid's file); with --parse-only says
 * so and stops. */
static int run_plan(struct run_cfg *rc_, const char **files, unsigned nfiles, const struct argvec *ja,
                    struct jobfile_opts *jo, bool parse_only)
{
    char err[1024];
    if (nfiles == 0 && ja->n == 1) {
        uint64_t size;
        char path[sizeof(rc_->quick_path)];
        if (quick_pick_file(path, sizeof(path), &size, err, sizeof(err)) < 0) {
            cli_err("%s", err);
            return CLI_EXIT_USAGE;
        }
        memcpy(rc_->quick_path, path, sizeof(path));
        if (parse_only)
            return 0;
        rc_->quick = true;
        rc_->quick_size = size;
        if (!rc_->dry_run)
            fprintf(stderr, "ssdbench: quick grid on a %llu MiB test file %s (removed afterwards)\n",
                (unsigned long long)(size >> 20), path);
        if (quick_plan(&rc_->plan, path, size, 4000000000ull, 1000000000ull) < 0) {
            cli_err("out of memory");
            return CLI_EXIT_FAIL;
        }
        return WL_PARSED;
    }
    note_size_spellings(ja);
    if (run_jobs(&rc_->jf, files, nfiles, ja, jo, err, sizeof(err)) < 0) {
        cli_err("%s", err);
        return CLI_EXIT_USAGE;
    }
    if (parse_only) {
        printf("%u job%s parsed, OK\n", rc_->jf.njobs, rc_->jf.njobs == 1 ? "" : "s");
        return 0;
    }
    return WL_PARSED;
}

static int run_parse(int argc, char **argv, void *cfg, struct cli_output *out)
{
    struct run_cfg *c = cfg;
    const char *files[MAX_JOBFILES];
    unsigned nfiles = 0;
    struct argvec ja;
    memset(&ja, 0, sizeof(ja));
    bool parse_only = false, dry = false;
    struct jobfile_opts jo;
    memset(&jo, 0, sizeof(jo));
    const char *sections[MAX_JOBFILES];
    jo.sections = sections;
    if (argvec_push(&ja, argv[0], false) < 0)
        return CLI_EXIT_FAIL;
    int code = run_words(argc, argv, out, &ja, files, &nfiles, sections, &jo, &parse_only, &dry);
    c->dry_run = dry;
    /* a 10-minute run must not be lost to a typo in --result */
    if (code == WL_PARSED && !parse_only && !dry && cli_output_check(out, cli_journal_want(out)) < 0)
        code = CLI_EXIT_USAGE;
    if (!jo.nsections)
        jo.sections = NULL;
    if (code == WL_PARSED)
        code = run_plan(c, files, nfiles, &ja, &jo, parse_only);
    if (code == WL_PARSED && !c->quick && cli_jobs_readonly(c->jf.jobs, c->jf.njobs) &&
        cli_output_check_readonly(out) < 0)
        code = CLI_EXIT_USAGE;
    /* the quick grid's private directory, made by quick_pick_file, is
     * removed by run_free as after a run */
    if (code == WL_PARSED && dry)
        code = run_dry(c, &out->consent);
    argvec_free(&ja);
    return code;
}

/* Removes the quick grid's test file once the jobs are done. */
static void run_drop_quick(struct run_cfg *c)
{
    plan_free(&c->plan);
    jobfile_free(&c->jf);
    if (c->quick_path[0])
        quick_remove_file(c->quick_path);
    c->quick_path[0] = 0;
}

static int run_run(struct session *s, void *cfg, struct cli_output *out)
{
    struct run_cfg *c = cfg;
    char err[1024];
    signal_install();
    s->ro.stop_on_error = true;
    if (!c->quick)
        announce_default_files(&c->jf);
    int rc = c->quick ? plan_run(s->doc, &c->plan, &s->ro, &s->st, err, sizeof(err))
                   : jobrun_execute(s->doc, &c->jf, &s->ro, &s->st, err, sizeof(err));
    run_drop_quick(c);
    if (rc < 0) {
        cli_err("%s", err);
        return CLI_EXIT_USAGE;
    }
    result_finish(s->doc, s->st.interrupted, s->st.signal);
    cli_report_errors(s->doc);
    s->done = true;
    return plan_exit_code(&s->st);
}

static int run_render(struct session *s, void *cfg, const struct cli_output *out, int status)
{
    struct run_cfg *c = cfg;
    struct render_opts rend = {.summary = true, .details = !c->quick};
    /* the result first, so a reader that goes away (| head) cannot lose it;
     * if it cannot be written (a full disk) the journal stays */
    if (cli_save_result(s->doc, out) < 0)
        status = status ? status : CLI_EXIT_FAIL;
    struct cli_output rest = *out;
    rest.result = NULL;
    return cli_emit(s->doc, &rest, &rend, status);
}

static void run_free(void *cfg)
{
    struct run_cfg *c = cfg;
    run_drop_quick(c);
}

const struct workload_cmd run_workload = {
    .name = "run",
    .summary = "run fio-style jobs (options, job files, or the built-in quick grid)",
    .usage = run_usage,
    .cfg_size = sizeof(struct run_cfg),
    .parse = run_parse,
    .run = run_run,
    .render = run_render,
    .free = run_free,
};
