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
#include "target/purge.h"
#include "target/target.h"

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
    fprintf(f, "load %s", r->passed ? "passed" : "failed");
    if (r->an.verdict.status == ACT_VERDICT_NONE && r->an.ntables) {
        /* a short run is judged on the device screen (ssd only), as ACT's
         * rule judges device latency; say so when the other screen differs */
        bool tover = r->screen_trans.over_limit[0] || r->screen_trans.over_limit[1] ||
                     r->screen_trans.over_limit[2];
        fprintf(f, " (judged on the device screen, ssd only%s)",
                tover ? "; the transaction screen, total latency, FAILs the limits" : "");
    } else if (r->an.verdict.status != ACT_VERDICT_NONE) {
        fprintf(f, " (judged on the hourly device latency, ACT's rule)");
    }
    fprintf(f, "\n\n");
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

/* The drive column: the model of the first device (its sysfs name, else the
 * path), "N x" in front for several. */
static void drive_name(const struct act_config *c, char *buf, size_t len)
{
    struct target_info ti;
    char msg[256];
    const char *name = c->ndevices ? c->devices[0] : "?";
    if (c->ndevices && target_probe(c->devices[0], &ti, msg, sizeof(msg)) == 0)
        name = ti.model[0] ? ti.model : ti.devname[0] ? ti.devname : c->devices[0];
    if (c->ndevices > 1)
        snprintf(buf, len, "%u x %s", c->ndevices, name);
    else
        snprintf(buf, len, "%s", name);
}

static const char *phase_started(const cJSON *doc, const char *phase)
{
    const cJSON *ph;
    cJSON_ArrayForEach(ph, cJSON_GetObjectItemCaseSensitive(doc, "phases"))
        if (!strcmp(result_str(ph, "name", ""), phase))
            return result_str(ph, "started", "");
    return "";
}

/* The certification summary, one row per load as the published ACT
 * summaries: drive, size (what ACT used), load, over-provisioning, the worst
 * slice's % over 1/8/64 ms as "total / ssd only" (transaction / device), the
 * date the load started, and the verdict. */
static void print_ladder(FILE *f, const cJSON *doc, const struct act_load_result *rs, unsigned n,
                         const struct act_device *devs, double op_pct)
{
    char drive[128], size[32], op[16];
    drive_name(&rs[0].cfg, drive, sizeof(drive));
    double gb = (double)devs[0].size_bytes / 1e9;
    snprintf(size, sizeof(size), gb >= 10 ? "%.0f GB" : "%.2f GB", gb);
    if (op_pct > 0)
        snprintf(op, sizeof(op), "%g%%", op_pct);
    else
        snprintf(op, sizeof(op), "no");
    int dw = (int)strlen(drive) > 10 ? (int)strlen(drive) : 10;
    fprintf(f, "%-*s  %10s  %6s  %4s  %-13s %-13s %-13s %-10s  %s\n", dw, "drive", "size", "load",
            "OP", "> 1 ms", "> 8 ms", "> 64 ms", "date", "result");
    fprintf(f, "%-*s  %10s  %6s  %4s  %-13s %-13s %-13s %-10s  %s\n", dw, "", "", "", "",
            "total/ssd", "total/ssd", "total/ssd", "", "");
    for (unsigned i = 0; i < n; i++) {
        const struct act_load_result *r = &rs[i];
        char cell[3][32];
        for (unsigned k = 0; k < 3; k++)
            snprintf(cell[k], sizeof(cell[k]), "%.2f/%.2f", r->screen_trans.max_pct[k],
                     r->screen.max_pct[k]);
        char load[16];
        snprintf(load, sizeof(load), "%gx", r->load);
        fprintf(f, "%-*s  %10s  %6s  %4s  %-13s %-13s %-13s %-10.10s  %s\n", dw, drive, size,
                r->load > 0 ? load : "config", op, cell[0], cell[1], cell[2],
                phase_started(doc, r->phase), outcome(r));
    }
    fprintf(f, "(%% of small reads over the limit in the worst slice: total = transaction latency\n"
               " from the scheduled start, ssd only = device latency; the result judges the device\n"
               " column: ACT's rule for 24 h runs, the same limits per slice for shorter ones)\n\n");
}

/* --op: ACT uses the first (100 - op) % of each device (whole large blocks);
 * the rest is discarded first so the drive can use it as spare area. */
static int over_provision(struct session *s, const struct act_config *c, double op_pct,
                          struct act_device *devs, cJSON *act)
{
    cJSON *o = cJSON_AddObjectToObject(act, "over_provisioning");
    cJSON_AddNumberToObject(o, "pct", op_pct);
    cJSON *arr = cJSON_AddArrayToObject(o, "discard");
    uint64_t lb = (uint64_t)(c->large_block_op_kbytes ? c->large_block_op_kbytes : 128) * 1024;
    for (unsigned i = 0; i < c->ndevices; i++) {
        char err[512];
        struct target_info ti;
        if (target_probe(c->devices[i], &ti, err, sizeof(err)) < 0 || ti.kind != TARGET_BLOCK) {
            session_err("act: --op: %s is not a block device (over-provisioning discards the "
                        "unused part)", c->devices[i]);
            return WL_USAGE;
        }
        uint64_t used = (uint64_t)((double)devs[i].size_bytes * (100.0 - op_pct) / 100.0) / lb * lb;
        if (used == 0) {
            session_err("act: --op %g%%: nothing left of %s", op_pct, c->devices[i]);
            return WL_USAGE;
        }
        struct purge_report r;
        if (purge_discard(c->devices[i], used, ti.size - used, s->ro.consent, &r, err,
                          sizeof(err)) < 0) {
            session_err("act: --op: %s", err);
            return WL_USAGE;
        }
        devs[i].size_bytes = used;
        cJSON *d = cJSON_CreateObject();
        cJSON_AddStringToObject(d, "target", c->devices[i]);
        cJSON_AddStringToObject(d, "method", purge_method_name(r.method));
        cJSON_AddNumberToObject(d, "used_bytes", (double)used);
        cJSON_AddNumberToObject(d, "offset", (double)r.offset);
        cJSON_AddNumberToObject(d, "length", (double)r.length);
        cJSON_AddItemToArray(arr, d);
    }
    return WL_OK;
}

/* Overall progress before a load of several, one line per load on stderr:
 * a ladder runs for days. */
static void print_progress(const struct act_config *base, const struct act_args *a, unsigned nrun, double load)
{
    /* overall progress, one line per load: a ladder runs for days */
    double per = (double)base->test_duration_sec;
    if (a->o.tick_ns && base->report_interval_sec)
        per = per / base->report_interval_sec * (double)a->o.tick_ns / 1e9;
    char left[48];
    double l = a->find_max ? per : per * (double)(a->nloads - nrun);
    if (l >= 3600)
        snprintf(left, sizeof(left), "%.0f h %.0f min", (double)((long)l / 3600),
                 (double)(((long)l % 3600) / 60));
    else if (l >= 60)
        snprintf(left, sizeof(left), "%.0f min", l / 60);
    else
        snprintf(left, sizeof(left), "%.0f s", l);
    if (a->find_max)
        fprintf(stderr, "ssdbench: act: [load %u, %gx, of the ladder up to %gx; this load "
                        "%s] starting\n", nrun + 1, load,
                a->max_load > 0 ? a->max_load : 1024, left);
    else
        fprintf(stderr, "ssdbench: act: [load %u/%u, %gx; %s left] starting\n", nrun + 1,
                a->nloads, load, left);
}

/* The --find-max summary line and its record in the result; returns the
 * exit status given the one so far. */
static int find_max_summary(FILE *sum, cJSON *act, const struct act_args *a, const struct act_load_result *rs,
                            unsigned nrun, double highest, double first_fail, bool max_reached, bool interrupted,
                            int status)
{
    act_json_find_max(act, highest, first_fail);
    cJSON_AddStringToObject(cJSON_GetObjectItemCaseSensitive(act, "find_max"), "stopped_by",
                            first_fail > 0 ? "a load failed"
                            : max_reached  ? "max load reached"
                            : interrupted  ? "interrupted"
                                           : "error");
    if (highest > 0)
        fprintf(sum, "highest passing load: %gx", highest);
    else
        fprintf(sum, "no load passed");
    if (first_fail > 0)
        fprintf(sum, "; stopped because the next load, %gx, failed: %s\n", first_fail,
                outcome(&rs[nrun - 1]));
    else if (max_reached)
        fprintf(sum, "; stopped at the maximum load (--max-load %gx), none failed\n",
                a->max_load > 0 ? a->max_load : 1024);
    else if (interrupted)
        fprintf(sum, "; stopped by an interrupt before a load failed\n");
    else
        fprintf(sum, "; stopped before a load failed (%s)\n",
                status ? "an error ended the search" : "the ladder ran out");
    if (!status && !interrupted)
        status = highest > 0 ? WL_OK : WL_FAIL;
    for (unsigned i = 0; i < nrun && !status; i++)
        if (rs[i].io_errors)
            status = WL_FAIL;
    return status;
}

/* Run one load with its ACT log (path: the log's name, when --log); WL_OK,
 * or the exit status the ladder stops with (the error said). */
static int run_logged_load(struct session *s, const struct act_args *a, const struct act_config *base, double load,
                           bool several, struct act_device *devs, struct act_load_result *r, char *path,
                           size_t pathlen)
{
    char err[1024];
    struct outfile lf;
    if (a->log)
        log_name(a->log, load, several, path, pathlen);
    if (outfile_open_stream(&lf, a->log ? path : "-", err, sizeof(err)) < 0) {
        session_err("act: %s", err);
        return WL_USAGE;
    }
    FILE *log = lf.f;
    int rc = act_run_load(s, base, load, devs, &a->o, log, PRODUCER, r, err, sizeof(err));
    /* the log of a stopped load is kept too: it holds what was measured */
    char lerr[512];
    if (outfile_commit(&lf, lerr, sizeof(lerr)) < 0 && rc == 0)
        r->log_error = true;
    if (rc < 0) {
        session_err("act: %s", err);
        act_load_result_free(r);
        return rc == -EPERM || rc == -EINVAL ? WL_USAGE : WL_FAIL;
    }
    return WL_OK;
}

int act_ladder_run(struct session *s, const struct act_args *a, const struct act_config *base,
                   const struct act_device *devs_in, unsigned *nloads_run)
{
    struct act_device devs[ACT_MAX_DEVICES];
    memcpy(devs, devs_in, sizeof(*devs) * (base->ndevices < ACT_MAX_DEVICES ? base->ndevices
                                                                              : ACT_MAX_DEVICES));
    *nloads_run = 0;
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
    if (a->op_pct > 0 && (status = over_provision(s, base, a->op_pct, devs, act)) != WL_OK) {
        free(rs);
        return status;
    }
    unsigned nrun = 0;
    bool max_reached = false;
    double load = a->nloads ? a->loads[0] : a->find_max ? 1 : 0;
    double highest = 0, first_fail = 0;
    bool interrupted = false;
    int sig = 0;
    while (nrun < cap) {
        char path[4096];
        if (several && s->ro.status)
            print_progress(base, a, nrun, load);
        struct act_load_result *r = &rs[nrun];
        int ls = run_logged_load(s, a, base, load, several, devs, r, path, sizeof(path));
        if (ls != WL_OK) {
            status = ls;
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
            if (load > (a->max_load > 0 ? a->max_load : 1024)) {
                max_reached = true;
                break;
            }
        } else {
            if (r->lagged || r->io_errors || r->an.verdict.status == ACT_VERDICT_FAIL)
                status = status ? status : WL_FAIL;
            if (nrun >= a->nloads)
                break;
            load = a->loads[nrun];
        }
    }
    if (several && nrun)
        print_ladder(sum, doc, rs, nrun, devs, a->op_pct);
    if (a->find_max && nrun)
        status = find_max_summary(sum, act, a, rs, nrun, highest, first_fail, max_reached, interrupted, status);
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
