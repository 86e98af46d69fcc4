/* suite_cmd.c - see suite_cmd.h: the suite as a workload, from its parsed
 * options to a finished document. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "result/result.h"
#include "suite/suite_cmd.h"
#include "target/target.h"

static void duration_str(char *buf, size_t len, double s)
{
    if (s >= 3600)
        snprintf(buf, len, "%.1f h", s / 3600);
    else if (s >= 60)
        snprintf(buf, len, "%.1f min", s / 60);
    else
        snprintf(buf, len, "%.1f s", s);
}

/* "3 h 10 min", "12 min", "40 s": the time left, rounded for people. */
static void left_str(char *buf, size_t len, double s)
{
    if (s >= 3600)
        snprintf(buf, len, "%.0f h %.0f min", (double)((long)s / 3600), (double)(((long)s % 3600) / 60));
    else if (s >= 60)
        snprintf(buf, len, "%.0f min", s / 60);
    else
        snprintf(buf, len, "%.0f s", s);
}

/* Overall progress of a suite: which point of how many, which profile, and
 * the time left at most (the points left at their runtime and the
 * preconditionings left at their limit), one line per step. */
struct suite_progress {
    const struct suite_cfg *c;
    unsigned npoints, points_done;   /* sweep points and samples */
    unsigned nprofiles, profile;     /* profile: 1-based, 0 before the first */
    unsigned pre_left;               /* preconditionings not started */
    double pt_s, pre_s;              /* one point; one preconditioning (its limit) */
};

static void on_progress(void *arg, const char *msg)
{
    struct suite_progress *pg = arg;
    const struct suite_cfg *c = pg->c;
    bool point = !strncmp(msg, "sweep-point: ", 13) || !strncmp(msg, "sample: ", 8);
    const char *body = point ? strchr(msg, ' ') + 1 : msg; /* "NAME[/PART] LABEL" or "NAME: ..." */
    for (unsigned i = 0; i < c->nprofiles; i++) {
        size_t l = strlen(c->profiles[i]);
        if (!strncmp(body, c->profiles[i], l) && strchr(": /", body[l]) && body[l] &&
            pg->profile < i + 1)
            pg->profile = i + 1;
    }
    if (strstr(msg, ": preconditioning at ") && pg->pre_left)
        pg->pre_left--;
    if (point && pg->points_done < pg->npoints)
        pg->points_done++;
    double left = (double)(pg->npoints - pg->points_done + (point ? 1 : 0)) * pg->pt_s +
                  (double)pg->pre_left * pg->pre_s;
    char l[32];
    left_str(l, sizeof(l), left);
    fprintf(stderr, "ssdbench: suite: [point %u/%u, profile %u/%u, up to %s left] %s\n",
            pg->points_done, pg->npoints, pg->profile ? pg->profile : 1, pg->nprofiles, l, msg);
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

/* Whether the suite writes: preconditioning, purge, discard or a profile
 * that writes. */
static bool suite_writes(const struct suite_cfg *c, const struct profile_set *ps)
{
    if (c->precond != PRECOND_OFF || c->purge || c->discard_unused)
        return true;
    char msg[256];
    for (unsigned i = 0; i < c->nprofiles; i++) {
        const struct profile *p = profile_find(ps, c->profiles[i]);
        for (unsigned k = 0; p && k < p->nparts; k++) {
            struct job_spec j;
            if (suite_part_job(c, profile_part(ps, p, k), &j, msg, sizeof(msg)) == 0 &&
                job_rw_writes(&j))
                return true;
        }
    }
    return false;
}

/* Load and check the --baseline results into base, their labels into
 * labels; on failure says why, frees what it loaded and returns -1. */
static int load_baselines(const struct suite_args *a, cJSON **base, char labels[][64])
{
    char msg[1024];
    for (unsigned b = 0; b < a->nbaselines; b++) {
        if (!(base[b] = result_load(a->baselines[b], msg, sizeof(msg))) ||
            suite_baseline_check(base[b], a->baselines[b], msg, sizeof(msg)) < 0) {
            session_err(base[b] ? "%s" : "--baseline: %s", msg);
            for (unsigned k = 0; k <= b; k++)
                cJSON_Delete(base[k]);
            return -1;
        }
        result_label(base[b], a->baselines[b], labels[b], sizeof(labels[b]));
    }
    return 0;
}

/* The plan's one-line announcement on stderr, and a warning per block
 * device the suite overwrites. */
static void announce(const struct suite_cfg *c, const struct profile_set *ps)
{
    char msg[1024];
    char d[32];
    duration_str(d, sizeof(d), plan_seconds(c, ps, NULL));
    fprintf(stderr, "ssdbench: suite: %u profile%s on %u target%s, up to %s\n", c->nprofiles,
            c->nprofiles == 1 ? "" : "s", c->ntargets, c->ntargets == 1 ? "" : "s", d);
    if (suite_writes(c, ps))
        for (unsigned t = 0; t < c->ntargets; t++) {
            struct target_info ti;
            if (target_probe(c->targets[t], &ti, msg, sizeof(msg)) == 0 &&
                ti.kind == TARGET_BLOCK)
                fprintf(stderr, "ssdbench: suite: overwrites %s for up to %s (the write "
                                "guard refuses a device that holds a file system, partition "
                                "table or other signature; a blank one is written without "
                                "--destroy)\n",
                        c->targets[t], d);
        }
}

/* The totals the progress lines count down: points, their length and the
 * preconditioning still to run. */
static void progress_totals(const struct suite_cfg *c, const struct profile_set *ps, struct suite_progress *pg)
{
    struct suite_point pts[SUITE_SWEEP_MAX * SUITE_SWEEP_MAX];
    unsigned np = c->sweep.kind == SWEEP_NONE
                      ? 0 : suite_points(&c->sweep, pts, SUITE_SWEEP_MAX * SUITE_SWEEP_MAX);
    for (unsigned i = 0; i < c->nprofiles; i++) {
        const struct profile *p = profile_find(ps, c->profiles[i]);
        unsigned n = c->sweep.kind == SWEEP_NONE ? 0 : p->fixed_load ? p->nparts : p->nparts * np;
        pg->npoints += n + (c->sample_ns ? p->nparts : 0);
    }
    pg->pt_s = (double)(suite_point_runtime(c) + c->ramp_ns) / 1e9;
    pg->pre_s = c->precond == PRECOND_AUTO ? (double)c->interval_ns * c->ss.max_rounds / 1e9
                : c->precond == PRECOND_TIME ? (double)c->precond_ns / 1e9 : 0;
    pg->pre_left = c->precond == PRECOND_OFF ? 0 : c->nprofiles;
}

int suite_workload_run(struct session *s, const struct suite_args *a, bool *ran)
{
    const struct suite_cfg *c = a->cfg;
    const char *const *pfiles = a->pfiles;
    unsigned npfiles = a->npfiles;
    bool dry = a->dry;
    int status = WL_USAGE;
    char msg[1024];
    *ran = false;
    struct profile_set ps;
    if (profile_set_builtin(&ps, msg, sizeof(msg)) < 0) {
        session_err("%s", msg);
        status = WL_FAIL;
        return status;
    }
    for (unsigned f = 0; f < npfiles; f++)
        if (profile_set_load_file(&ps, pfiles[f], msg, sizeof(msg)) < 0) {
            session_err("%s", msg);
            profile_set_free(&ps);
            return status;
        }
    if (suite_check(c, &ps, msg, sizeof(msg)) < 0) {
        session_err("%s", msg);
        profile_set_free(&ps);
        return status;
    }
    if (dry) {
        printf("suite plan:\n");
        double secs = plan_seconds(c, &ps, stdout);
        char d[32];
        duration_str(d, sizeof(d), secs);
        printf("  total: up to %s\n", d);
        profile_set_free(&ps);
        status = 0;
        return status;
    }
    cJSON *base[SUITE_MAX_BASELINES] = {NULL};
    char labels[SUITE_MAX_BASELINES][64];
    if (load_baselines(a, base, labels) < 0) {
        profile_set_free(&ps);
        return status;
    }
    if (!a->quiet)
        announce(c, &ps);
    struct suite_progress pg = {.c = c, .nprofiles = c->nprofiles};
    progress_totals(c, &ps, &pg);
    cJSON *doc = s->doc;
    struct suite_run_opts so = {
        .consent = s->ro.consent,
        .status = s->ro.status,
        .series = s->ro.series,
        .progress = a->quiet ? NULL : on_progress,
        .arg = &pg,
        .nbaselines = a->nbaselines,
    };
    for (unsigned b = 0; b < a->nbaselines; b++) {
        so.baselines[b] = base[b];
        so.baseline_names[b] = a->baselines[b];
        so.baseline_labels[b] = labels[b];
    }
    struct plan_status *st = &s->st;
    int rc = suite_run(c, &ps, doc, &so, st, msg, sizeof(msg));
    profile_set_free(&ps);
    for (unsigned b = 0; b < a->nbaselines; b++)
        cJSON_Delete(base[b]);
    int nphases = cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(doc, "phases"));
    if (rc < 0) {
        session_err("%s", msg);
        if (nphases == 0)
            return status;
    }
    result_finish(doc, st->interrupted, st->signal);
    *ran = true;
    return rc < 0 ? WL_FAIL : plan_exit_code(st);
}
