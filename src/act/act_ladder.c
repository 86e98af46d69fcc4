/* act_ladder.c - see act_ladder.h: one load, a ladder of loads or the search
 * for the highest passing load, each load one act_run_load with its own ACT
 * log, and the summary people read (describe, slice tables, verdicts, the
 * ladder table). */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "act/act_ladder.h"
#include "act/act_text.h"
#include "base/errmsg.h"
#include "base/outfile.h"
#include "result/result.h"

#define PRODUCER "ssdbench " SSDBENCH_VERSION

/* The shorthand's config, through the config parser so every key is
 * checked as in a file. */
int act_shorthand_config(const struct act_args *a, struct act_config *c, char *err, size_t errlen)
{
    struct act_config tmp;
    if (act_config_from_load(&tmp, a->loads[0], a->ndev, a->devices,
                             a->duration_set ? a->duration : 86400, err, errlen) < 0)
        return -1;
    size_t cap = 4096 + (size_t)a->ndev * ACT_DEVICE_NAME_MAX + (size_t)a->nsets * 512;
    char *text = malloc(cap);
    if (!text)
        return errmsg(err, errlen, -1, "out of memory");
    size_t n = (size_t)snprintf(text, cap, "device-names:");
    for (unsigned i = 0; i < a->ndev; i++)
        n += (size_t)snprintf(text + n, cap - n, " %s", a->devices[i]);
    n += (size_t)snprintf(text + n, cap - n,
                          "\ntest-duration-sec: %u\nread-reqs-per-sec: %u\nwrite-reqs-per-sec: %u\n",
                          tmp.test_duration_sec, tmp.read_reqs_per_sec, tmp.write_reqs_per_sec);
    for (unsigned i = 0; i < a->nsets; i++) {
        const char *eq = strchr(a->sets[i], '=');
        n += (size_t)snprintf(text + n, cap - n, "%.*s: %s\n", (int)(eq - a->sets[i]),
                              a->sets[i], eq + 1);
    }
    int rc = act_config_parse_text(c, text, "--set", err, errlen);
    free(text);
    return rc < 0 ? -1 : 0;
}

/* "act.log" -> "act-3x.log" for one load of several. */
static void log_name(const char *base, double load, bool several, char *out, size_t n)
{
    if (!several) {
        snprintf(out, n, "%s", base);
        return;
    }
    const char *slash = strrchr(base, '/');
    const char *dot = strrchr(slash ? slash + 1 : base, '.');
    if (dot && dot != (slash ? slash + 1 : base))
        snprintf(out, n, "%.*s-%gx%s", (int)(dot - base), base, load, dot);
    else
        snprintf(out, n, "%s-%gx", base, load);
}

static void describe(FILE *f, const struct act_load_result *r, const struct act_run_opts *o)
{
    const struct act_derived *d = &r->derived;
    const struct act_plan *p = &r->plan;
    if (r->load > 0)
        fprintf(f, "With %gx load", r->load);
    else
        fprintf(f, "With the config's load");
    fprintf(f, " on %u device%s: %.0f small reads/s", r->cfg.ndevices,
            r->cfg.ndevices == 1 ? "" : "s", p->small_rate_total * p->read_frac);
    if (d->internal_write_reqs_per_sec)
        fprintf(f, ", %.0f commit writes/s", p->small_rate_total * (1 - p->read_frac));
    fprintf(f, ", %.2f large-block reads/s, %.2f large-block writes/s%s, %u s\n",
            d->large_block_reads_per_sec, d->large_block_writes_per_sec,
            r->cfg.tomb_raider ? ", tomb raider" : "", p->nintervals * r->cfg.report_interval_sec);
    if (o->mode == ACT_MODE_THREADS)
        fprintf(f, "  threads mode: %u service threads (%s), one I/O each", d->service_threads,
                job_engine_name(o->engine));
    else
        fprintf(f, "  open-loop mode: %u %s worker%s with %u slots each", p->service_rings,
                job_engine_name(o->engine), p->service_rings == 1 ? "" : "s",
                p->jobs[p->job_of[ACT_JOB_SERVICE] >= 0 ? p->job_of[ACT_JOB_SERVICE] : 0].iodepth);
    fprintf(f, "; queue depth at most %u; CPU %.2f s user + %.2f s system\n\n",
            p->max_queue_depth, r->cpu_user_s, r->cpu_sys_s);
}

static void print_screen(FILE *f, const char *what, const struct act_verdict *v, unsigned slice)
{
    bool over = v->over_limit[0] || v->over_limit[1] || v->over_limit[2];
    fprintf(f, "screen (%s, %u slice%s of %u s): max %.2f%% >= 1 ms, %.2f%% >= 8 ms, "
               "%.2f%% >= 64 ms: %s\n", what, v->hours, v->hours == 1 ? "" : "s", slice,
            v->max_pct[0], v->max_pct[1], v->max_pct[2],
            v->hours == 0 ? "no full slice" : over ? "FAIL" : "pass");
}

static void print_load(FILE *f, const struct act_load_result *r, const struct act_run_opts *o)
{
    describe(f, r, o);
    if (r->an.ntables && act_text_tables(f, &r->an) > 0) {
        fputc('\n', f);
        print_screen(f, "device", &r->screen, r->an.slice_sec);
        print_screen(f, "transaction", &r->screen_trans, r->an.slice_sec);
    } else if (r->an.ntables) {
        fprintf(f, "no full slice of %u s to tabulate (logged: %u s); try a shorter --slice\n",
                r->an.slice_sec, r->logged_s);
    } else {
        fprintf(f, "no small reads in this load: nothing to tabulate\n");
    }
    if (r->io_errors)
        fprintf(f, "I/O errors: %llu (see the result's errors)\n",
                (unsigned long long)r->io_errors);
    act_text_verdict(f, &r->an);
    fprintf(f, "load %s\n\n", r->passed ? "passed" : "failed");
    fflush(f);
}

static const char *outcome(const struct act_load_result *r)
{
    if (r->interrupted)
        return "interrupted";
    if (r->lagged)
        return "FAIL (max-lag stop)";
    if (r->io_errors)
        return "FAIL (I/O errors)";
    bool scaled = r->an.verdict.scaled_tick_ms > 0;
    switch (r->an.verdict.status) {
    case ACT_VERDICT_PASS: return scaled ? "PASS (scaled)" : "PASS";
    case ACT_VERDICT_FAIL: return scaled ? "FAIL (scaled)" : "FAIL";
    case ACT_VERDICT_INCOMPLETE: return "INCOMPLETE";
    case ACT_VERDICT_NONE: break;
    }
    return r->passed ? "pass (screen, < 24 h)" : "fail (screen, < 24 h)";
}

/* One row per load: the max of each slice table, as the seed's summary. */
static void print_ladder(FILE *f, const struct act_load_result *rs, unsigned n)
{
    fprintf(f, "%7s  %-13s %-13s %-13s %s\n%7s  %-13s %-13s %s\n", "load", "> 1 ms",
            "> 8 ms", "> 64 ms", "result", "", "trans/device", "trans/device", "trans/device");
    for (unsigned i = 0; i < n; i++) {
        const struct act_load_result *r = &rs[i];
        char cell[3][32];
        for (unsigned k = 0; k < 3; k++)
            snprintf(cell[k], sizeof(cell[k]), "%.2f/%.2f", r->screen_trans.max_pct[k],
                     r->screen.max_pct[k]);
        char load[16];
        snprintf(load, sizeof(load), "%gx", r->load);
        fprintf(f, "%7s  %-13s %-13s %-13s %s\n", r->load > 0 ? load : "config", cell[0],
                cell[1], cell[2], outcome(r));
    }
    fputc('\n', f);
}

int act_ladder_run(struct session *s, const struct act_args *a, const struct act_config *base,
                   const struct act_device *devs, unsigned *nloads_run)
{
    bool several = a->find_max || a->nloads > 1;
    FILE *sum = a->log ? stdout : stderr;
    cJSON *doc = s->doc;
    cJSON *act = act_json_begin(doc, base, &a->o, devs);
    unsigned cap = a->find_max ? 64 : (a->nloads ? a->nloads : 1);
    struct act_load_result *rs = calloc(cap, sizeof(*rs));
    if (!doc || !act || !rs) {
        session_err("act: out of memory");
        free(rs);
        return WL_FAIL;
    }
    int status = WL_OK;
    unsigned nrun = 0;
    double load = a->nloads ? a->loads[0] : a->find_max ? 1 : 0;
    double highest = 0, first_fail = 0;
    bool interrupted = false;
    int sig = 0;
    while (nrun < cap) {
        char path[4096];
        char err[1024];
        struct outfile lf;
        if (a->log)
            log_name(a->log, load, several, path, sizeof(path));
        if (outfile_open(&lf, a->log ? path : "-", err, sizeof(err)) < 0) {
            session_err("act: %s", err);
            status = WL_USAGE;
            break;
        }
        FILE *log = lf.f;
        struct act_load_result *r = &rs[nrun];
        int rc = act_run_load(s, base, load, devs, &a->o, log, PRODUCER, r, err, sizeof(err));
        /* the log of a stopped load is kept too: it holds what was measured */
        char lerr[512];
        if (outfile_commit(&lf, lerr, sizeof(lerr)) < 0 && rc == 0)
            r->log_error = true;
        if (rc < 0) {
            session_err("act: %s", err);
            act_load_result_free(r);
            status = rc == -EPERM || rc == -EINVAL ? WL_USAGE : WL_FAIL;
            break;
        }
        nrun++;
        act_json_add_load(act, r, a->log ? path : "-");
        print_load(sum, r, &a->o);
        if (r->log_error) {
            session_err("act: writing the ACT log failed; the load was stopped");
            status = WL_FAIL;
        }
        if (r->interrupted) {
            interrupted = true;
            sig = r->signal;
            break;
        }
        if (a->find_max) {
            if (!r->passed) {
                first_fail = load;
                break;
            }
            highest = load;
            load = act_ladder_next(load);
            if (load > (a->max_load > 0 ? a->max_load : 1024))
                break;
        } else {
            if (r->lagged || r->io_errors || r->an.verdict.status == ACT_VERDICT_FAIL)
                status = status ? status : WL_FAIL;
            if (nrun >= a->nloads)
                break;
            load = a->loads[nrun];
        }
    }
    if (several && nrun)
        print_ladder(sum, rs, nrun);
    if (a->find_max && nrun) {
        act_json_find_max(act, highest, first_fail);
        if (highest > 0)
            fprintf(sum, "highest passing load: %gx", highest);
        else
            fprintf(sum, "no load passed");
        if (first_fail > 0)
            fprintf(sum, " (%gx failed: %s)\n", first_fail, outcome(&rs[nrun - 1]));
        else
            fprintf(sum, " (stopped before a load failed)\n");
        if (!status && !interrupted)
            status = highest > 0 ? WL_OK : WL_FAIL;
        for (unsigned i = 0; i < nrun && !status; i++)
            if (rs[i].io_errors)
                status = WL_FAIL;
    }
    for (unsigned i = 0; i < nrun; i++)
        act_load_result_free(&rs[i]);
    free(rs);
    result_finish(doc, interrupted, sig);
    *nloads_run = nrun;
    s->st.interrupted = interrupted;
    s->st.signal = sig;
    fflush(sum);
    if (interrupted)
        return 128 + (sig ? sig : SIGINT);
    return status;
}
