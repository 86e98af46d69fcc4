/* pts_xsr.c - Cross Stimulus Recovery (reference 4.6): purge, then three
 * access groups one after the other with no idle time: AG1 SEQ 1024 KiB
 * writes for --xsr-time (8 h), AG2 RND 8 KiB writes for 3/4 of it (6 h),
 * AG3 SEQ 1024 KiB writes for --xsr-time again, each one phase (kind
 * pts-xsr) at the run's TC/QD sampled every --xsr-interval (1 min):
 * throughput, IOPS, average (ART) and maximum (MRT) response time. The
 * recovery time is the time from AG3's start to the end of its first sample
 * whose throughput reaches AG1's average. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/clock.h"
#include "pts/pts_int.h"
#include "result/result.h"

#define XSR_NF 7
static const char *const xsr_fields[XSR_NF] = {"t_s", "dur_s", "mbps", "iops", "lat_mean_ns",
                                               "lat_max_ns", "ag_t_s"};

struct xsr_samples {
    cJSON *rows;
    double t0_s;
};

static bool xsr_hook(void *arg, const struct runner_interval *iv)
{
    struct xsr_samples *s = arg;
    double dur, ios, bytes;
    pts_interval_sums(iv, &dur, &ios, &bytes);
    const struct hist *lh = &iv->all->dir[DIR_WRITE].lat;
    double v[XSR_NF] = {s->t0_s + (double)iv->t_start_ns / 1e9, dur,
                        dur > 0 ? bytes / dur / 1e6 : 0, dur > 0 ? ios / dur : 0, hist_mean(lh),
                        lh->n ? (double)lh->max : 0, (double)iv->t_end_ns / 1e9};
    cJSON_AddItemToArray(s->rows, cJSON_CreateDoubleArray(v, XSR_NF));
    return false;
}

int pts_test_xsr(struct pts_ctx *x, char *err, size_t errlen)
{
    const struct pts_cfg *c = x->c;
    cJSON *tj = pts_new_test(x, "xsr", PTS_XSR);
    cJSON_AddNumberToObject(tj, "threads", x->tc);
    cJSON_AddNumberToObject(tj, "depth", x->qd);
    cJSON_AddNumberToObject(tj, "sample_s", (double)c->xsr_sample_ns / 1e9);
    int rc = pts_do_purge(x, tj, err, errlen);
    cJSON_AddNullToObject(tj, "wipc");   /* AG1 is the first stimulus after the purge */
    struct hist *h = malloc(2 * sizeof(*h));
    struct job_spec *jobs = calloc(64, sizeof(*jobs));
    if (!h || !jobs) {
        free(h);
        free(jobs);
        snprintf(err, errlen, "out of memory");
        return -ENOMEM;
    }
    cJSON *ga = cJSON_AddArrayToObject(tj, "groups");
    uint64_t t0 = clock_ns();
    double ag1_mbps = -1;
    for (unsigned g = 0; g < 3 && rc == 0 && !x->st->interrupted; g++) {
        bool seq = g != 1;
        uint32_t bs = seq ? 1024u << 10 : 8u << 10;
        uint64_t ns = seq ? c->xsr_ns : c->xsr_ns / 4 * 3;
        char name[JOB_NAME_MAX];
        snprintf(name, sizeof(name), "pts xsr AG%u %s %uKiB", g + 1, seq ? "SEQ" : "RND", bs >> 10);
        unsigned nj = 1;
        if (seq) {
            nj = pts_seq_jobs(x, name, bs, 0, ns, 0, jobs);
        } else {
            struct pts_element e = {.bs = bs, .read_pct = 0, .seq = false};
            pts_rnd_job(x, name, &e, ns, x->tc, x->qd, &jobs[0]);
        }
        for (unsigned k = 0; k < nj; k++)
            jobs[k].interval_ns = c->xsr_sample_ns;
        cJSON *gj = cJSON_CreateObject();
        cJSON_AddItemToArray(ga, gj);
        cJSON_AddStringToObject(gj, "group", g == 0 ? "AG1" : g == 1 ? "AG2" : "AG3");
        cJSON_AddStringToObject(gj, "access", seq ? "SEQ" : "RND");
        cJSON_AddNumberToObject(gj, "block_size", bs);
        cJSON_AddNumberToObject(gj, "read_pct", 0);
        cJSON_AddNumberToObject(gj, "time_s", (double)ns / 1e9);
        pts_progress(x, "xsr: AG%u, %s %uKiB writes for %.3g s at T%u/Q%u", g + 1,
                     seq ? "SEQ" : "RND", bs >> 10, (double)ns / 1e9, x->tc, x->qd);
        struct xsr_samples s = {.rows = cJSON_CreateArray(), .t0_s = (double)(clock_ns() - t0) / 1e9};
        cJSON_AddNumberToObject(gj, "t_start_s", s.t0_s);
        cJSON *ph = pts_run_phase(x, name, "pts-xsr", jobs, nj, xsr_hook, &s, &rc, err, errlen);
        cJSON *sj = cJSON_AddObjectToObject(gj, "samples");
        cJSON *fl = cJSON_AddArrayToObject(sj, "fields");
        for (unsigned i = 0; i < XSR_NF; i++)
            cJSON_AddItemToArray(fl, cJSON_CreateString(xsr_fields[i]));
        cJSON_AddItemToObject(sj, "rows", s.rows);
        if (!ph)
            break;
        struct el_fig f;
        if ((rc = pts_phase_fig(ph, &h[0], &h[1], &f, err, errlen)) < 0)
            break;
        cJSON_AddItemToObject(gj, "figures", pts_fig_json(&f, name));
        if (g == 0)
            ag1_mbps = f.mbps;
        if (g == 2 && ag1_mbps >= 0) {
            /* recovery: the first AG3 sample at or above AG1's average */
            const cJSON *row;
            double rec = -1;
            cJSON_ArrayForEach(row, s.rows) {
                if (result_at_num(row, 2, 0) >= ag1_mbps) {
                    rec = result_at_num(row, 6, 0);
                    break;
                }
            }
            cJSON *rj = cJSON_AddObjectToObject(tj, "recovery");
            cJSON_AddNumberToObject(rj, "ag1_mbps", ag1_mbps);
            cJSON_AddBoolToObject(rj, "recovered", rec >= 0);
            if (rec >= 0)
                cJSON_AddNumberToObject(rj, "time_s", rec);
            else
                cJSON_AddNullToObject(rj, "time_s");
        }
    }
    free(h);
    free(jobs);
    pts_end_test(tj);
    return rc;
}
