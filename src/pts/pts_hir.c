/* pts_hir.c - Host Idle Recovery (reference 4.5): purge, then RND 4 KiB
 * 100 % writes in rounds of one element until steady state (IOPS, the
 * pre-writes), then five wait states: each is --reps bursts of RND 4 KiB
 * writes of --hir-burst (5 s) followed by an idle of 1, 2, 3, 5 or 10 burst
 * times (5, 10, 15, 25, 50 s), and after each a return to baseline of
 * continuous writes for reps burst times (360 x 5 s = 1800 s) sampled every
 * burst time. Every burst is a phase (kind pts-burst) and every baseline one
 * (pts-baseline), so the kernel's counters equal the result's. Times on the
 * report's axis are measured from the first burst. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/clock.h"
#include "base/signal.h"
#include "pts/pts_int.h"
#include "result/result.h"

#define HIR_NWAIT 5
static const unsigned hir_wait[HIR_NWAIT] = {1, 2, 3, 5, 10};   /* x the burst */

/* Idle for ns unless a stop signal arrives (then the run is interrupted). */
static void idle(struct pts_ctx *x, uint64_t ns)
{
    uint64_t end = clock_ns() + ns;
    while (clock_ns() < end) {
        int sig = signal_received();
        if (sig) {
            x->st->interrupted = true;
            x->st->signal = sig;
            return;
        }
        uint64_t left = end - clock_ns(), step = 20000000ull;
        clock_sleep_until(clock_ns() + (left < step ? left : step));
    }
}

#define HIR_NF 6
static const char *const hir_fields[HIR_NF] = {"t_s", "dur_s", "iops", "mbps", "lat_mean_ns",
                                               "lat_max_ns"};

struct hir_samples {
    cJSON *rows;
    double t0_s;              /* the phase's start on the test's time axis */
};

static bool baseline_hook(void *arg, const struct runner_interval *iv)
{
    struct hir_samples *s = arg;
    double dur, ios, bytes;
    pts_interval_sums(iv, &dur, &ios, &bytes);
    const struct hist *lh = &iv->all->dir[DIR_WRITE].lat;
    double v[HIR_NF] = {s->t0_s + (double)iv->t_start_ns / 1e9, dur, dur > 0 ? ios / dur : 0,
                        dur > 0 ? bytes / dur / 1e6 : 0, hist_mean(lh),
                        lh->n ? (double)lh->max : 0};
    cJSON_AddItemToArray(s->rows, cJSON_CreateDoubleArray(v, HIR_NF));
    return false;
}

static cJSON *fields_json(void)
{
    cJSON *fl = cJSON_CreateArray();
    for (unsigned i = 0; i < HIR_NF; i++)
        cJSON_AddItemToArray(fl, cJSON_CreateString(hir_fields[i]));
    return fl;
}

static int wait_states(struct pts_ctx *x, cJSON *tj, struct hist *h, char *err, size_t errlen)
{
    const struct pts_cfg *c = x->c;
    const struct pts_element el = {.bs = 4 << 10, .read_pct = 0, .seq = false};
    cJSON *wa = cJSON_AddArrayToObject(tj, "wait_states");
    uint64_t t0 = clock_ns();
    int rc = 0;
    for (unsigned w = 0; w < HIR_NWAIT && !x->st->interrupted; w++) {
        uint64_t wait_ns = hir_wait[w] * c->hir_burst_ns;
        cJSON *ws = cJSON_CreateObject();
        cJSON_AddItemToArray(wa, ws);
        cJSON_AddNumberToObject(ws, "wait_state", hir_wait[w]);
        cJSON_AddNumberToObject(ws, "wait_s", (double)wait_ns / 1e9);
        cJSON_AddNumberToObject(ws, "t_start_s", (double)(clock_ns() - t0) / 1e9);
        cJSON *bursts = cJSON_AddArrayToObject(ws, "bursts");
        pts_progress(x, "hir: wait state %u: %u bursts of %.3g s, each followed by %.3g s idle",
                     hir_wait[w], c->hir_reps, (double)c->hir_burst_ns / 1e9, (double)wait_ns / 1e9);
        double sum = 0;
        for (unsigned b = 0; b < c->hir_reps && !x->st->interrupted; b++) {
            char name[JOB_NAME_MAX];
            snprintf(name, sizeof(name), "pts hir ws%u b%u", hir_wait[w], b + 1);
            struct job_spec j;
            pts_rnd_job(x, name, &el, c->hir_burst_ns, x->tc, x->qd, &j);
            double ts = (double)(clock_ns() - t0) / 1e9;
            cJSON *ph = pts_run_phase(x, name, "pts-burst", &j, 1, NULL, NULL, &rc, err, errlen);
            if (!ph)
                return rc;
            struct el_fig f;
            if ((rc = pts_phase_fig(ph, &h[0], &h[1], &f, err, errlen)) < 0)
                return rc;
            cJSON *fj = pts_fig_json(&f, name);
            cJSON_AddNumberToObject(fj, "t_s", ts);
            cJSON_AddItemToArray(bursts, fj);
            sum += f.iops;
            if (x->st->interrupted)
                break;
            uint64_t i0 = clock_ns();
            idle(x, wait_ns);
            cJSON_AddNumberToObject(fj, "idle_s", (double)(clock_ns() - i0) / 1e9);
        }
        int nb = cJSON_GetArraySize(bursts);
        cJSON_AddNumberToObject(ws, "burst_iops_mean", nb ? sum / nb : 0);
        if (x->st->interrupted)
            break;
        /* return to baseline: continuous writes for reps bursts' time */
        char name[JOB_NAME_MAX];
        snprintf(name, sizeof(name), "pts hir ws%u baseline", hir_wait[w]);
        struct job_spec j;
        pts_rnd_job(x, name, &el, (uint64_t)c->hir_reps * c->hir_burst_ns, x->tc, x->qd, &j);
        j.interval_ns = c->hir_burst_ns;
        cJSON *bl = cJSON_AddObjectToObject(ws, "baseline");
        struct hir_samples s = {.rows = cJSON_CreateArray(), .t0_s = (double)(clock_ns() - t0) / 1e9};
        cJSON *ph = pts_run_phase(x, name, "pts-baseline", &j, 1, baseline_hook, &s, &rc, err, errlen);
        cJSON *sj = cJSON_AddObjectToObject(bl, "samples");
        cJSON_AddItemToObject(sj, "fields", fields_json());
        cJSON_AddItemToObject(sj, "rows", s.rows);
        if (!ph)
            return rc;
        struct el_fig f;
        if ((rc = pts_phase_fig(ph, &h[0], &h[1], &f, err, errlen)) < 0)
            return rc;
        cJSON_AddItemToObject(bl, "figures", pts_fig_json(&f, name));
        cJSON_AddNumberToObject(bl, "t_start_s", s.t0_s);
    }
    return 0;
}

int pts_test_hir(struct pts_ctx *x, char *err, size_t errlen)
{
    const struct pts_cfg *c = x->c;
    cJSON *tj = pts_new_test(x, "hir", PTS_HIR);
    cJSON_AddNumberToObject(tj, "threads", x->tc);
    cJSON_AddNumberToObject(tj, "depth", x->qd);
    cJSON_AddNumberToObject(tj, "burst_s", (double)c->hir_burst_ns / 1e9);
    cJSON_AddNumberToObject(tj, "reps", c->hir_reps);
    cJSON_AddNumberToObject(tj, "baseline_s", (double)c->hir_reps * (double)c->hir_burst_ns / 1e9);
    int rc = pts_do_purge(x, tj, err, errlen);
    cJSON_AddNullToObject(tj, "wipc");   /* the pre-writes start from the purged state */
    struct hist *h = malloc(2 * sizeof(*h));
    if (!h) {
        snprintf(err, errlen, "out of memory");
        return -ENOMEM;
    }
    if (rc == 0 && !x->st->interrupted) {
        struct pts_matrix m;
        memset(&m, 0, sizeof(m));
        m.test = PTS_HIR;
        m.nelements = 1;
        m.el[0] = (struct pts_element){.bs = 4 << 10, .read_pct = 0, .seq = false};
        m.ntrack = 1;
        m.metric = STEADY_IOPS;
        cJSON *pre = cJSON_AddObjectToObject(tj, "prewrite");
        cJSON_AddStringToObject(pre, "title", "pre-writes");
        rc = pts_run_rounds(x, pre, "hir pre", &m, NULL, NULL, err, errlen);
    }
    if (rc == 0 && !x->st->interrupted)
        rc = wait_states(x, tj, h, err, errlen);
    free(h);
    pts_end_test(tj);
    return rc;
}
