/* cmd_suite.c - `ssdbench suite`: the enterprise review methodology
 * (preconditioning to steady state, thread x queue or QD sweeps, server
 * profiles, over-provisioning, several devices) on any targets. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/commands.h"
#include "core/outfile.h"
#include "core/signal.h"
#include "output/suite_text.h"
#include "result/result.h"
#include "workload/profiles.h"
#include "workload/spec_parse.h"
#include "workload/suite.h"

#define MAX_PROFILE_FILES 16

static void suite_usage(FILE *f)
{
    fprintf(f,
            "usage: ssdbench suite [options] TARGET...\n\n"
            "Per profile: optional purge, preconditioning with the same profile at 16 threads x 16\n"
            "queue until steady state, then each sweep point for a fixed time, with no idle time.\n\n"
            "Workload:\n"
            "  --profiles LIST          comma-separated profile names (default\n"
            "                           4k-random-read,4k-random-write,8k-70-30,fileserver,webserver;\n"
            "                           see ssdbench profiles)\n"
            "  --profile-file FILE      add profiles from a fio-style job file (repeatable)\n"
            "  --rwmixread N            read share of the mixed profiles (database 66 = 66/33)\n"
            "  --set KEY=VALUE          a job option for every profile, e.g. ioengine=libaio\n"
            "Sweep:\n"
            "  --sweep S                tq:2,4,8,16x2,4,8,16 (default) | qd:1,2,4,...,256 | none;\n"
            "                           '...' doubles up to the next value\n"
            "  --runtime TIME           each sweep point (default 1m for tq, 5m for qd)\n"
            "  --ramp TIME              discarded warm-up before each point (default 0)\n"
            "Preconditioning:\n"
            "  --precondition auto|TIME|off   until steady state (default), a fixed time, or none\n"
            "  --precondition-load TxQ  threads x queue depth (default 16x16)\n"
            "  --ss RULE                snia (default, = snia:20%%/10%%) or fio's iops:10%%,\n"
            "                           iops_slope:0.1%%, bw:..., lat:...\n"
            "  --ss-interval TIME       interval = one steady-state round (default 1m)\n"
            "  --ss-window N            rounds per window (default 5)\n"
            "  --ss-max-rounds N        give up after N rounds: 'not achieved' (default 25)\n"
            "  --sample TIME            after preconditioning, run each profile at that load for TIME\n"
            "  --purge                  purge every target before each profile\n"
            "Targets:\n"
            "  --range PCT              active range: only the first PCT%% of each target\n"
            "  --discard-unused         discard the rest first (block devices), as spare area\n"
            "  --layout jbod|stripe:CHUNK  several targets: separate LUNs at once (threads x queue\n"
            "                           per target) or one striped space (in total); default jbod\n"
            "  --baseline RESULT.json   a single-target suite result: report the scaling factor\n"
            "Output and safety:\n"
            "  --format text|json|csv   what to print (default text)\n"
            "  --output FILE, -o FILE   write it to FILE\n"
            "  --result FILE            also save the result JSON\n"
            "  --destroy PATH           consent to overwrite PATH (a device or an existing file)\n"
            "  --dry-run                print the plan and its longest duration, run nothing\n"
            "  --quiet, -q              no progress or status lines\n");
}

static void on_progress(void *arg, const char *msg)
{
    (void)arg;
    fprintf(stderr, "ssdbench: suite: %s\n", msg);
}

static int parse_time(const char *opt, const char *v, uint64_t *ns)
{
    char msg[256];
    if (spec_parse_time(v, 1000000000ull, ns, msg, sizeof(msg)) < 0) {
        cli_err("%s: %s", opt, msg);
        return -1;
    }
    return 0;
}

static int parse_uint(const char *opt, const char *v, unsigned lo, unsigned hi, unsigned *out)
{
    char *e;
    unsigned long x = strtoul(v, &e, 10);
    if (!*v || *e || x < lo || x > hi) {
        cli_err("%s: '%s' is not a number in %u..%u", opt, v, lo, hi);
        return -1;
    }
    *out = (unsigned)x;
    return 0;
}

static int split_profiles(const char *v, struct suite_cfg *c)
{
    c->nprofiles = 0;
    const char *p = v;
    while (*p) {
        size_t l = strcspn(p, ",");
        if (l == 0 || l >= JOB_NAME_MAX || c->nprofiles >= SUITE_MAX_PROFILES) {
            cli_err("--profiles: bad list '%s' (names separated by ',')", v);
            return -1;
        }
        snprintf(c->profiles[c->nprofiles++], JOB_NAME_MAX, "%.*s", (int)l, p);
        p += l;
        if (*p)
            p++;
    }
    if (!c->nprofiles) {
        cli_err("--profiles: empty list");
        return -1;
    }
    return 0;
}

static void duration_str(char *buf, size_t len, double s)
{
    if (s >= 3600)
        snprintf(buf, len, "%.1f h", s / 3600);
    else if (s >= 60)
        snprintf(buf, len, "%.1f min", s / 60);
    else
        snprintf(buf, len, "%.1f s", s);
}

/* Longest the suite can take: preconditioning to its round limit. */
static double plan_seconds(const struct suite_cfg *c, const struct profile_set *ps, FILE *f)
{
    struct suite_point pts[SUITE_SWEEP_MAX * SUITE_SWEEP_MAX];
    unsigned np = suite_points(&c->sweep, pts, SUITE_SWEEP_MAX * SUITE_SWEEP_MAX);
    double pt = (double)(suite_point_runtime(c) + c->ramp_ns) / 1e9;
    double pre = c->precond == PRECOND_AUTO ? (double)c->interval_ns * c->ss.max_rounds / 1e9
               : c->precond == PRECOND_TIME ? (double)c->precond_ns / 1e9 : 0;
    double total = 0;
    for (unsigned i = 0; i < c->nprofiles; i++) {
        const struct profile *p = profile_find(ps, c->profiles[i]);
        unsigned n = p->fixed_load ? p->nparts : p->nparts * np;
        double s = pre + n * pt + p->nparts * (double)c->sample_ns / 1e9;
        total += s;
        if (f) {
            char d[32];
            duration_str(d, sizeof(d), s);
            fprintf(f, "  %-16s preconditioning %s, %u point%s: up to %s\n", p->name,
                    c->precond == PRECOND_OFF ? "off" : c->precond == PRECOND_AUTO ? "to steady state" : "fixed",
                    n, n == 1 ? "" : "s", d);
        }
    }
    return total;
}

int cmd_suite(int argc, char **argv)
{
    struct cli_output out;
    cli_output_init(&out);
    struct suite_cfg *c = calloc(1, sizeof(*c));
    if (!c)
        return CLI_EXIT_FAIL;
    suite_defaults(c);
    const char *pfiles[MAX_PROFILE_FILES];
    unsigned npfiles = 0;
    const char *baseline = NULL;
    bool dry = false;
    int status = CLI_EXIT_USAGE;
    char msg[1024];
    for (int i = 1; i < argc; i++) {
        int r = cli_output_option(&i, argc, argv, &out);
        if (r < 0)
            goto done;
        if (r > 0)
            continue;
        const char *a = argv[i], *v;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            suite_usage(stdout);
            status = 0;
            goto done;
        } else if ((v = cli_opt_value("--profiles", &i, argc, argv))) {
            if (split_profiles(v, c) < 0)
                goto done;
        } else if ((v = cli_opt_value("--profile-file", &i, argc, argv))) {
            if (npfiles == MAX_PROFILE_FILES) {
                cli_err("--profile-file: at most %d files", MAX_PROFILE_FILES);
                goto done;
            }
            pfiles[npfiles++] = v;
        } else if ((v = cli_opt_value("--sweep", &i, argc, argv))) {
            if (suite_parse_sweep(v, &c->sweep, msg, sizeof(msg)) < 0) {
                cli_err("%s", msg);
                goto done;
            }
        } else if ((v = cli_opt_value("--runtime", &i, argc, argv))) {
            if (parse_time("--runtime", v, &c->runtime_ns) < 0)
                goto done;
            if (!c->runtime_ns) {
                cli_err("--runtime: must be more than 0");
                goto done;
            }
        } else if ((v = cli_opt_value("--ramp", &i, argc, argv))) {
            if (parse_time("--ramp", v, &c->ramp_ns) < 0)
                goto done;
        } else if ((v = cli_opt_value("--precondition-load", &i, argc, argv))) {
            if (suite_parse_load(v, &c->pre_threads, &c->pre_depth, msg, sizeof(msg)) < 0) {
                cli_err("--precondition-load: %s", msg);
                goto done;
            }
        } else if ((v = cli_opt_value("--precondition", &i, argc, argv))) {
            if (!strcmp(v, "auto")) {
                c->precond = PRECOND_AUTO;
            } else if (!strcmp(v, "off") || !strcmp(v, "none")) {
                c->precond = PRECOND_OFF;
            } else {
                c->precond = PRECOND_TIME;
                if (spec_parse_time(v, 1000000000ull, &c->precond_ns, msg, sizeof(msg)) < 0) {
                    cli_err("--precondition: '%s' is not auto, off or a time (%s)", v, msg);
                    goto done;
                }
            }
        } else if ((v = cli_opt_value("--ss-interval", &i, argc, argv))) {
            if (parse_time("--ss-interval", v, &c->interval_ns) < 0)
                goto done;
        } else if ((v = cli_opt_value("--ss-window", &i, argc, argv))) {
            if (parse_uint("--ss-window", v, 2, STEADY_WINDOW_MAX, &c->ss.window) < 0)
                goto done;
        } else if ((v = cli_opt_value("--ss-max-rounds", &i, argc, argv))) {
            if (parse_uint("--ss-max-rounds", v, 0, 1000000, &c->ss.max_rounds) < 0)
                goto done;
        } else if ((v = cli_opt_value("--ss", &i, argc, argv))) {
            if (suite_parse_ss(v, &c->ss, msg, sizeof(msg)) < 0) {
                cli_err("%s", msg);
                goto done;
            }
        } else if ((v = cli_opt_value("--sample", &i, argc, argv))) {
            if (parse_time("--sample", v, &c->sample_ns) < 0)
                goto done;
        } else if (!strcmp(a, "--purge")) {
            c->purge = true;
        } else if ((v = cli_opt_value("--range", &i, argc, argv))) {
            char *e;
            double pct = strtod(v, &e);
            if (e == v || (*e && strcmp(e, "%")) || !(pct > 0 && pct <= 100)) {
                cli_err("--range: '%s' is not a percentage in (0, 100]", v);
                goto done;
            }
            c->range_pct = pct;
        } else if (!strcmp(a, "--discard-unused")) {
            c->discard_unused = true;
        } else if ((v = cli_opt_value("--layout", &i, argc, argv))) {
            uint64_t chunk = 0;
            if (spec_parse_layout(v, 1024, &c->layout, &chunk, msg, sizeof(msg)) < 0) {
                cli_err("--layout: %s", msg);
                goto done;
            }
            if (c->layout == LAYOUT_STRIPE && !chunk) {
                cli_err("--layout: give the stripe chunk, e.g. stripe:128k");
                goto done;
            }
            c->stripe_chunk = chunk;
        } else if ((v = cli_opt_value("--baseline", &i, argc, argv))) {
            baseline = v;
        } else if ((v = cli_opt_value("--rwmixread", &i, argc, argv))) {
            unsigned x;
            if (parse_uint("--rwmixread", v, 0, 100, &x) < 0)
                goto done;
            c->rwmixread = (int)x;
        } else if ((v = cli_opt_value("--set", &i, argc, argv))) {
            size_t k = strcspn(v, "=");
            if (k == 0 || k >= sizeof(c->set_key[0]) || strlen(v + k) >= sizeof(c->set_val[0]) ||
                c->nset >= SUITE_MAX_SET) {
                cli_err("--set: bad '%s' (use --set KEY=VALUE)", v);
                goto done;
            }
            snprintf(c->set_key[c->nset], sizeof(c->set_key[0]), "%.*s", (int)k, v);
            snprintf(c->set_val[c->nset], sizeof(c->set_val[0]), "%s", v[k] ? v + k + 1 : "");
            c->nset++;
        } else if (!strcmp(a, "--dry-run")) {
            dry = true;
        } else if (a[0] == '-' && a[1]) {
            static const char *const names[] = {
                "--profiles", "--profile-file", "--sweep", "--runtime", "--ramp", "--precondition",
                "--precondition-load", "--ss", "--ss-interval", "--ss-window", "--ss-max-rounds",
                "--sample", "--purge", "--range", "--discard-unused", "--layout", "--baseline",
                "--rwmixread", "--set", "--dry-run", "--format", "--output", "--result",
                "--destroy", "--quiet", NULL};
            char key[64];
            snprintf(key, sizeof(key), "%.*s", (int)strcspn(a, "="), a);
            const char *s = cli_suggest(key, names);
            if (s)
                cli_err("suite: unknown option '%s' (did you mean '%s'?)", a, s);
            else
                cli_err("suite: unknown option '%s' (see ssdbench suite --help)", a);
            goto done;
        } else {
            if (c->ntargets == JOB_MAX_TARGETS) {
                cli_err("suite: at most %d targets", JOB_MAX_TARGETS);
                goto done;
            }
            if (strlen(a) >= JOB_PATH_MAX) {
                cli_err("suite: target path too long: %s", a);
                goto done;
            }
            snprintf(c->targets[c->ntargets++], JOB_PATH_MAX, "%s", a);
        }
    }

    struct profile_set ps;
    if (profile_set_builtin(&ps, msg, sizeof(msg)) < 0) {
        cli_err("%s", msg);
        status = CLI_EXIT_FAIL;
        goto done;
    }
    for (unsigned f = 0; f < npfiles; f++)
        if (profile_set_load_file(&ps, pfiles[f], msg, sizeof(msg)) < 0) {
            cli_err("%s", msg);
            profile_set_free(&ps);
            goto done;
        }
    if (suite_check(c, &ps, msg, sizeof(msg)) < 0) {
        cli_err("%s", msg);
        profile_set_free(&ps);
        goto done;
    }
    if (dry) {
        printf("suite plan:\n");
        double s = plan_seconds(c, &ps, stdout);
        char d[32];
        duration_str(d, sizeof(d), s);
        printf("  total: up to %s\n", d);
        profile_set_free(&ps);
        status = 0;
        goto done;
    }
    if (cli_output_check(&out, NULL) < 0) {
        profile_set_free(&ps);
        goto done;
    }
    cJSON *base = NULL;
    if (baseline && !(base = result_load(baseline, msg, sizeof(msg)))) {
        cli_err("--baseline: %s", msg);
        profile_set_free(&ps);
        goto done;
    }
    if (!out.quiet) {
        char d[32];
        duration_str(d, sizeof(d), plan_seconds(c, &ps, NULL));
        fprintf(stderr, "ssdbench: suite: %u profile%s on %u target%s, up to %s\n", c->nprofiles,
                c->nprofiles == 1 ? "" : "s", c->ntargets, c->ntargets == 1 ? "" : "s", d);
    }
    signal_install();
    cJSON *doc = result_new(argc, argv);
    struct suite_run_opts so = {
        .consent = &out.consent,
        .status = out.quiet ? NULL : cli_status,
        .progress = out.quiet ? NULL : on_progress,
        .baseline = base,
        .baseline_name = baseline,
    };
    struct plan_status st;
    memset(&st, 0, sizeof(st));
    int rc = suite_run(c, &ps, doc, &so, &st, msg, sizeof(msg));
    profile_set_free(&ps);
    cJSON_Delete(base);
    int nphases = cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(doc, "phases"));
    if (rc < 0) {
        cli_err("%s", msg);
        if (nphases == 0) {
            cJSON_Delete(doc);
            goto done;
        }
    }
    result_finish(doc, st.interrupted, st.signal);
    int code = rc < 0 ? CLI_EXIT_FAIL : plan_exit_code(&st);
    struct render_opts ro = {.summary = true, .details = true};
    if (out.format == FMT_TEXT) {
        char e2[512];
        if (out.result && result_write(doc, out.result, e2, sizeof(e2)) < 0) {
            cli_err("%s", e2);
            code = code ? code : CLI_EXIT_FAIL;
        }
        struct outfile of;
        if (outfile_open(&of, out.output ? out.output : "-", e2, sizeof(e2)) < 0) {
            cli_err("%s", e2);
            code = code ? code : CLI_EXIT_FAIL;
        } else {
            render_suite_text(of.f, doc, &ro);
            if (outfile_commit(&of, e2, sizeof(e2)) < 0) {
                cli_err("%s", e2);
                code = code ? code : CLI_EXIT_FAIL;
            }
            fflush(stdout);
        }
    } else {
        code = cli_emit(doc, &out, &ro, code);
    }
    cJSON_Delete(doc);
    status = code;
done:
    free(c);
    return status;
}
