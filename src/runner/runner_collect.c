/* runner_collect.c - the collector's side of the interval hand-over: takes
 * what the workers published (their ring buffers, the late buffer and the
 * counts-only ring), merges interval k of every worker into the job, target
 * and phase statistics, and streams one journal row per interval. The
 * workers' side is worker.c; docs/design.md "Interval hand-over" says how
 * the two meet without locks. */
#include <inttypes.h>
#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runner/runner_int.h"

static double mbps(uint64_t bytes, double secs)
{
    return secs > 0 ? (double)bytes / secs / 1e6 : 0;
}

/* One direction's iops, MB/s, latency mean, max, stddev and p99. */
static void rate_cols(FILE *f, const struct dir_stats *ds, double secs)
{
    fprintf(f, ",%.3f,%.6f,%.1f,%" PRIu64 ",%.1f,%" PRIu64, secs > 0 ? (double)ds->ios / secs : 0,
            mbps(ds->bytes, secs), hist_mean(&ds->lat), ds->lat.n ? ds->lat.max : 0,
            hist_stddev(&ds->lat), hist_percentile(&ds->lat, 99.0));
}

void runner_stream_row(FILE *f, const struct io_stats *s, uint64_t t_ms, double secs,
                       uint64_t stalled_ns, const struct runner_row_host *h, unsigned late)
{
    fprintf(f, "[%" PRIu64, t_ms);
    double inflight_ns = 0;
    for (int d = 0; d < DIR_COUNT; d++)
        inflight_ns += (double)s->dir[d].lat.sum;
    /* the columns of runner_series_fields: reads and writes first, the
     * trims after the scheduled latencies */
    for (int d = 0; d <= DIR_WRITE; d++)
        rate_cols(f, &s->dir[d], secs);
    fprintf(f, ",%.3f", secs > 0 ? inflight_ns / (secs * 1e9) : 0);
    for (int d = 0; d <= DIR_WRITE; d++)
        fprintf(f, ",%" PRIu64 ",%" PRIu64, s->dir[d].ios, s->dir[d].bytes);
    fprintf(f, ",%" PRIu64, s->syncs);
    for (int d = 0; d <= DIR_WRITE; d++) {
        const struct hist *sh = &s->dir[d].sched;
        fprintf(f, ",%" PRIu64 ",%" PRIu64, sh->n ? hist_percentile(sh, 99.0) : 0, sh->n ? sh->max : 0);
    }
    rate_cols(f, &s->dir[DIR_TRIM], secs);
    fprintf(f, ",%" PRIu64 ",%" PRIu64, s->dir[DIR_TRIM].ios, s->dir[DIR_TRIM].bytes);
    fprintf(f, ",%.3f,%.2f,%.2f,%.2f,%u", (double)stalled_ns / 1e6, h->busy_pct, h->steal_pct,
            h->iowait_pct, late);
    if (isnan(h->device_temp_c))
        fprintf(f, ",null]\n");
    else
        fprintf(f, ",%.1f]\n", h->device_temp_c);
    fflush(f);
}

/* A clean interval buffer for worker w (from its pool, else new). */
static struct io_stats *pool_get(struct worker *w)
{
    return w->npool ? w->pool[--w->npool] : runner_new_ibuf(w->map.ntouch);
}

static void pool_put(struct worker *w, struct io_stats *b)
{
    for (unsigned t = 0; t < w->map.ntouch; t++)
        iostats_reset(&b[t]);
    if (w->npool == w->pool_cap) {
        unsigned cap = w->pool_cap * 2 + 4;
        struct io_stats **p = realloc(w->pool, cap * sizeof(*p));
        if (!p) {
            free(b);
            return;
        }
        w->pool = p;
        w->pool_cap = cap;
    }
    w->pool[w->npool++] = b;
}

static bool pend_push(struct worker *w, unsigned k, unsigned late, struct io_stats *b)
{
    if (w->pend_len == w->pend_cap) {
        unsigned cap = w->pend_cap * 2 + 4;
        struct worker_pend *p = malloc(cap * sizeof(*p));
        if (!p)
            return false;
        for (unsigned i = 0; i < w->pend_len; i++)
            p[i] = w->pend[(w->pend_head + i) % w->pend_cap];
        free(w->pend);
        w->pend = p;
        w->pend_cap = cap;
        w->pend_head = 0;
    }
    w->pend[(w->pend_head + w->pend_len++) % w->pend_cap] = (struct worker_pend){k, late, b};
    return true;
}

/* Takes every slot worker w has published, swapping a clean buffer in, and
 * frees the slots (consumed). Taking does not wait for the other workers,
 * so a worker stuck in one long I/O cannot make the others' rings fill. */
static void take(struct worker *w)
{
    unsigned pub = atomic_load_explicit(&w->published, memory_order_acquire);
    while (w->taken < pub) {
        unsigned k = w->taken, s = k % WORKER_RING, ls = k % WORKER_LITE;
        if (atomic_load_explicit(&w->ring_k[s], memory_order_relaxed) == k) {
            struct io_stats *fresh = pool_get(w);
            if (!fresh || !pend_push(w, k, w->ring_late[s] ? LATE_HIST_EXTRA : 0, w->ring[s])) {
                free(fresh);
                break; /* out of memory: try again at the next wake-up */
            }
            w->ring[s] = fresh;
        } else if (atomic_load_explicit(&w->lite_k[ls], memory_order_relaxed) == k) {
            /* counts only: the histograms come with a later interval */
            struct io_stats *b = pool_get(w);
            if (!b || !pend_push(w, k, LATE_HIST_MISSING, b)) {
                free(b);
                break;
            }
            const struct lite_counts *lc = &w->lite[(size_t)ls * w->map.ntouch];
            for (unsigned t = 0; t < w->map.ntouch; t++) {
                for (int d = 0; d < DIR_COUNT; d++) {
                    b[t].dir[d].ios = lc[t].ios[d];
                    b[t].dir[d].bytes = lc[t].bytes[d];
                    b[t].dir[d].errors = lc[t].errors[d];
                }
                b[t].syncs = lc[t].syncs;
                b[t].sync_errors = lc[t].sync_errors;
            }
        }
        w->taken++;
    }
    atomic_store_explicit(&w->consumed, w->taken, memory_order_release);
}

/* Merges every worker's interval k once all of them have handed it over (or
 * finished). Returns 1 when merged, 0 when not ready, -1 when all is done. */
int runner_collect(struct phase_run *run, struct phase_stats *out, unsigned k,
                   struct io_stats *ivjobs, struct io_stats *ivall, uint64_t *t_end_rel,
                   unsigned *late)
{
    bool all_finished = true, any = false, ready = true;
    uint64_t last_finish = 0;
    for (unsigned i = 0; i < run->nworkers; i++) {
        struct worker *w = &run->workers[i];
        /* finished first: its published count is then final */
        int fin = atomic_load_explicit(&w->finished, memory_order_acquire);
        take(w);
        if (!fin) {
            all_finished = false;
            if (w->taken <= k)
                ready = false;
        } else {
            if (w->taken < atomic_load_explicit(&w->published, memory_order_relaxed))
                ready = false; /* out of memory while taking */
            if (w->t_finished > last_finish)
                last_finish = w->t_finished;
        }
        if (w->taken > k)
            any = true;
    }
    if (!ready)
        return 0;
    if (!any && all_finished)
        return -1;
    for (unsigned j = 0; j < run->njobs; j++)
        iostats_reset(&ivjobs[j]);
    iostats_reset(ivall);
    *late = 0;
    for (unsigned i = 0; i < run->nworkers; i++) {
        struct worker *w = &run->workers[i];
        if (!w->pend_len || w->pend[w->pend_head].k != k)
            continue; /* no completion of this worker in interval k */
        struct io_stats *b = w->pend[w->pend_head].buf;
        *late |= w->pend[w->pend_head].late;
        if (w->pend[w->pend_head].late)
            out->late_hist_intervals++;
        w->pend_head = (w->pend_head + 1) % w->pend_cap;
        w->pend_len--;
        struct job_stats *js = &out->stats[w->job_index];
        for (unsigned t = 0; t < w->map.ntouch; t++) {
            const struct io_stats *s = &b[t];
            unsigned jt = w->map.layout == LAYOUT_JBOD ? w->first_target : t;
            iostats_merge(&ivjobs[w->job_index], s);
            w->total_ios += s->dir[0].ios + s->dir[1].ios + s->syncs;
            w->total_busy_ns += s->dir[0].lat.sum + s->dir[1].lat.sum + s->sync_lat.sum;
            iostats_merge(&js->total, s);
            iostats_merge(&js->per_target[jt], s);
            if (js->per_worker)
                iostats_merge(&js->per_worker[w->job_worker], s);
        }
        pool_put(w, b);
    }
    for (unsigned j = 0; j < run->njobs; j++)
        iostats_merge(ivall, &ivjobs[j]);
    uint64_t end = (uint64_t)(k + 1) * run->step_ns;
    if (all_finished && last_finish > run->measure_start && last_finish - run->measure_start < end)
        end = last_finish - run->measure_start;
    *t_end_rel = end;
    return 1;
}
