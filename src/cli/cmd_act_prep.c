/* cmd_act_prep.c - `ssdbench act-prep DEVICE`: ACT's act_prep (zero the
 * whole device, then fill it with random data, 8 writers in parallel) on the
 * shared runner, so the guard, the result file and the kernel counters come
 * with it. Progress is ACT's row of dots, one per percent. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cli_opts.h"
#include "cli/commands.h"
#include "base/signal.h"
#include "result/result.h"
#include "target/target.h"
#include "act/act_run.h"
#include "workload/plan.h"

static const struct cli_opt prep_opts[] = {
    CLI_ROW(NULL, NULL, NULL,
     "usage: ssdbench act-prep DEVICE [--destroy DEVICE] [--result FILE] [--quiet]\n"
     "\n"
     "Prepares a device for `ssdbench act` as Aerospike's act_prep does: writes zeros over\n"
     "the whole device, then random data, each pass by 8 parallel sequential writers of\n"
     "128 KiB (O_DIRECT, no O_DSYNC). EVERYTHING ON DEVICE IS DESTROYED. A device that is\n"
     "mounted or in use is refused; one that holds a file system, partition table or\n"
     "other signature is refused unless named with --destroy (ACT's act_prep asks nothing).\n", 0),
    CLI_SHARED_NOTE("--destroy", "the device itself, when it holds a signature"),
    CLI_SHARED_NOTE("--result", "both passes, with the kernel's counters"),
    CLI_SHARED_NOTE("--quiet", "no progress dots either"),
    CLI_ROW("--help", "-h", NULL, "this text", 0),
    CLI_ROW(NULL, NULL, NULL, "\nExit status: 0 done, 1 I/O errors, 2 bad input or refusal, 130/143 interrupted.", 0),
    CLI_OPTS_END,
};

struct prep_progress {
    uint64_t total;
    unsigned dots;
    bool quiet;
};

static bool prep_interval(void *arg, const struct runner_interval *iv)
{
    struct prep_progress *pp = arg;
    uint64_t done = 0;
    for (unsigned j = 0; j < iv->njobs; j++)
        done += iv->cumulative[j].total.dir[DIR_WRITE].bytes;
    unsigned want = pp->total ? (unsigned)(done * 100 / pp->total) : 100;
    if (!pp->quiet) {
        for (; pp->dots < want && pp->dots < 100; pp->dots++)
            putchar('.');
        fflush(stdout);
    }
    return false;
}

/* The options and the device. 0, 1 after --help, -1 after a one-line error. */
static int prep_parse(int argc, char **argv, struct cli_output *out, const char **devp)
{
    bool operands = false;
    for (int i = 1; i < argc; i++) {
        int c = operands ? 0 : cli_output_option(&i, argc, argv, out);
        if (c < 0)
            return -1;
        if (c > 0)
            continue;
        const char *a = argv[i], *v;
        int id = cli_opts_next("act-prep", prep_opts, &i, argc, argv, &v, &operands);
        if (id == CLI_OPT_HELP) {
            cli_opts_print(stdout, prep_opts, 21);
            return 1;
        }
        if (id == CLI_OPT_ERROR)
            return -1;
        if (id != CLI_OPT_OPERAND)
            continue;
        if (*devp) {
            cli_err("act-prep: two devices given ('%s' and '%s'); prepare one at a time", *devp, a);
            return -1;
        }
        *devp = a;
    }
    if (out->format != FMT_TEXT || out->output) {
        cli_err("act-prep: --format/--output do not apply; save the result with --result FILE");
        return -1;
    }
    if (!*devp) {
        cli_err("act-prep: no device given (usage: ssdbench act-prep DEVICE)");
        return -1;
    }
    return 0;
}

/* The device: what it is and whether it may be written. 0, or -1 after a
 * one-line error. */
static int prep_probe(const char *dev, const struct guard_consent *consent, struct target_info *ti)
{
    char err[1024];
    int rc = target_probe(dev, ti, err, sizeof(err));
    if (rc < 0) {
        if (rc == -ENOENT)
            cli_err("act-prep: %s: no such device", dev);
        else
            cli_err("act-prep: %s", err);
        return -1;
    }
    if (ti->kind != TARGET_BLOCK && ti->kind != TARGET_FILE) {
        cli_err("act-prep: %s: not a block device or regular file", dev);
        return -1;
    }
    /* Ask before anything is printed: a refusal leaves the device untouched
     * and says exactly which option to add. */
    rc = target_check_write(dev, consent, err, sizeof(err));
    if (rc < 0) {
        cli_err("act-prep: %s", err);
        return -1;
    }
    return 0;
}

/* The zero pass, then the random pass, each a phase of doc, with its
 * progress dots and rate line. Returns a failure status or CLI_EXIT_OK. */
static int prep_passes(cJSON *doc, const char *dev, const struct target_info *ti, const struct cli_output *out,
                       struct job_spec *jobs, struct plan_status *st)
{
    char err[1024];
    unsigned njobs;
    int rc, status = CLI_EXIT_OK;
    for (int pass = 0; pass < 2 && !st->interrupted; pass++) {
        bool zero = pass == 0;
        if (act_prep_jobs(dev, ti->size, zero, jobs, &njobs, err, sizeof(err)) < 0)
            break;
        printf("%s device %s\n", zero ? "cleaning" : "salting", dev);
        fflush(stdout);
        struct prep_progress pp = {.total = ti->size, .quiet = out->quiet};
        struct runner_opts ro = {
            .consent = &out->consent,
            .on_interval = prep_interval,
            .arg = &pp,
            .stop_on_error = true,
        };
        struct plan_phase ph;
        memset(&ph, 0, sizeof(ph));
        snprintf(ph.name, sizeof(ph.name), "act-prep-%s", zero ? "zero" : "salt");
        snprintf(ph.kind, sizeof(ph.kind), "precondition");
        ph.njobs = njobs;
        ph.jobs = jobs;
        cJSON *po = plan_run_phase(doc, &ph, &ro, st, &rc, err, sizeof(err));
        if (!po) {
            if (pp.dots)
                putchar('\n');
            cli_err("act-prep: %s", err);
            status = rc == -EPERM ? CLI_EXIT_USAGE : CLI_EXIT_FAIL;
            break;
        }
        if (!st->interrupted && !st->io_errors && !out->quiet)
            for (; pp.dots < 100; pp.dots++)
                putchar('.');
        double secs = result_num(po, "elapsed_s", 0);
        printf("%s%.1f s, %.0f MB/s\n", out->quiet ? "" : "\n", secs,
               secs > 0 ? (double)ti->size / secs / 1e6 : 0);
        fflush(stdout);
    }
    return status;
}

int cmd_act_prep(int argc, char **argv)
{
    struct cli_output out;
    cli_output_init(&out);
    const char *dev = NULL;
    int rc = prep_parse(argc, argv, &out, &dev);
    if (rc)
        return rc > 0 ? CLI_EXIT_OK : CLI_EXIT_USAGE;
    struct target_info ti;
    if (prep_probe(dev, &out.consent, &ti) < 0)
        return CLI_EXIT_USAGE;
    char err[1024];
    struct job_spec *jobs = calloc(ACT_PREP_MAX_JOBS, sizeof(*jobs));
    if (!jobs)
        return CLI_EXIT_FAIL;
    unsigned njobs;
    if (act_prep_jobs(dev, ti.size, true, jobs, &njobs, err, sizeof(err)) < 0) {
        cli_err("act-prep: %s", err);
        free(jobs);
        return CLI_EXIT_USAGE;
    }
    printf("%s size = %llu bytes, %llu large blocks of 128 KiB\n", dev,
           (unsigned long long)ti.size, (unsigned long long)(ti.size / ACT_PREP_BLOCK));
    fflush(stdout);

    signal_install();
    cJSON *doc = result_new(argc, argv);
    struct plan_status st;
    memset(&st, 0, sizeof(st));
    int status = prep_passes(doc, dev, &ti, &out, jobs, &st);
    free(jobs);
    result_finish(doc, st.interrupted, st.signal);
    if (out.result) {
        if (result_write(doc, out.result, err, sizeof(err)) < 0) {
            cli_err("%s", err);
            status = status ? status : CLI_EXIT_FAIL;
        }
    }
    cJSON_Delete(doc);
    if (status)
        return status;
    if (st.io_errors)
        cli_err("act-prep: I/O errors on %s (see --result for where)", dev);
    return plan_exit_code(&st);
}
