/* runner_cluster.c - see runner_cluster.h. A histogram is merged as what
 * it is, counts: n, sum, the 128-bit sum of squares (as four 32-bit limbs,
 * so a sum over ranks cannot carry out of a limb), the ACT millisecond
 * buckets and the 4608 log-linear buckets are summed, min and max reduced
 * with min and max. Percentiles of the merge are then exactly those of one
 * histogram over every rank's samples. Histograms empty on every rank are
 * left out of the big reduction (one small one finds them first). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/signal.h"
#include "runner/runner_cluster.h"

int runner_cluster_verdict(struct cluster *c, int rc, uint64_t shape, char *err, size_t errlen)
{
    if (!cluster_multi(c))
        return rc;
    /* the lowest failing rank: min over (failed ? rank : nranks); shapes
     * alike when their min is their max */
    uint64_t lo[2] = {rc < 0 ? c->rank : c->nranks, shape}, hi = shape;
    if (cluster_reduce_u64(c, lo, 2, CLUSTER_MIN) < 0 || cluster_reduce_u64(c, &hi, 1, CLUSTER_MAX) < 0)
        return -EIO;
    uint64_t who = lo[0];
    if (who >= c->nranks && lo[1] != hi) {
        snprintf(err, errlen, "the ranks' jobs have different numbers of targets (each rank's list must be as long)");
        return -EINVAL;
    }
    if (who >= c->nranks)
        return 0;
    struct {
        int64_t rc;
        char msg[512];
    } v;
    memset(&v, 0, sizeof(v));
    if (c->rank == who) {
        v.rc = rc;
        snprintf(v.msg, sizeof(v.msg), "rank %u (host %s): %s", c->rank, c->host, err);
    }
    if (cluster_bcast(c, &v, sizeof(v), (unsigned)who) < 0)
        return -EIO;
    snprintf(err, errlen, "%s", v.msg);
    return (int)v.rc;
}

void runner_reduce_free(struct runner_reduce *rb)
{
    free(rb->head);
    free(rb->sum);
    free(rb->mn);
    free(rb->mx);
    memset(rb, 0, sizeof(*rb));
}

static int grow(uint64_t **p, size_t *cap, size_t n)
{
    if (n <= *cap)
        return 0;
    uint64_t *q = realloc(*p, n * sizeof(*q));
    if (!q)
        return -ENOMEM;
    *p = q;
    *cap = n;
    return 0;
}

#define HISTS_PER (4 * DIR_COUNT + 1)    /* per io_stats: 4 per direction + sync_lat */
#define COUNTERS_PER (3 * DIR_COUNT + 2) /* ios, bytes, errors per direction; syncs, sync_errors */
#define HIST_WORDS (1 + 4 + HIST_MS_BUCKETS + HIST_NBUCKETS)

static struct hist *hist_at(struct io_stats *s, unsigned h)
{
    if (h == HISTS_PER - 1)
        return &s->sync_lat;
    struct dir_stats *d = &s->dir[h / 4];
    switch (h % 4) {
    case 0: return &d->lat;
    case 1: return &d->slat;
    case 2: return &d->clat;
    default: return &d->sched;
    }
}

static uint64_t *counter_at(struct io_stats *s, unsigned i)
{
    if (i < 3 * DIR_COUNT) {
        struct dir_stats *d = &s->dir[i / 3];
        return i % 3 == 0 ? &d->ios : i % 3 == 1 ? &d->bytes : &d->errors;
    }
    return i == 3 * DIR_COUNT ? &s->syncs : &s->sync_errors;
}

int runner_cluster_merge(struct cluster *c, struct runner_reduce *rb, struct io_stats *s, unsigned n)
{
    if (!cluster_multi(c) || !n)
        return 0;
    size_t nh = (size_t)n * HISTS_PER, nhead = (size_t)n * COUNTERS_PER + nh;
    if (grow(&rb->head, &rb->head_cap, nhead) < 0)
        return -ENOMEM;
    uint64_t *head = rb->head;
    for (unsigned i = 0; i < n; i++) {
        for (unsigned k = 0; k < COUNTERS_PER; k++)
            head[(size_t)i * COUNTERS_PER + k] = *counter_at(&s[i], k);
        for (unsigned h = 0; h < HISTS_PER; h++)
            head[(size_t)n * COUNTERS_PER + (size_t)i * HISTS_PER + h] = hist_at(&s[i], h)->n;
    }
    int rc = cluster_reduce_u64(c, head, nhead, CLUSTER_SUM);
    if (rc < 0)
        return rc;
    const uint64_t *hn = head + (size_t)n * COUNTERS_PER;
    size_t used = 0;
    for (size_t x = 0; x < nh; x++)
        used += hn[x] ? 1 : 0;
    if (grow(&rb->sum, &rb->sum_cap, used * HIST_WORDS + 1) < 0 || grow(&rb->mn, &rb->mn_cap, used + 1) < 0 ||
        grow(&rb->mx, &rb->mx_cap, used + 1) < 0)
        return -ENOMEM;
    /* pack the histograms some rank used */
    size_t u = 0;
    for (size_t x = 0; x < nh; x++) {
        if (!hn[x])
            continue;
        const struct hist *h = hist_at(&s[x / HISTS_PER], (unsigned)(x % HISTS_PER));
        uint64_t *w = rb->sum + u * HIST_WORDS;
        w[0] = h->sum;
        for (unsigned l = 0; l < 4; l++)
            w[1 + l] = (uint64_t)(h->sumsq >> (32 * l)) & 0xffffffffu;
        if (h->n) {
            memcpy(w + 5, h->ms_log2, sizeof(h->ms_log2));
            memcpy(w + 5 + HIST_MS_BUCKETS, h->counts, sizeof(h->counts));
        } else {
            memset(w + 5, 0, (HIST_MS_BUCKETS + HIST_NBUCKETS) * sizeof(uint64_t));
        }
        rb->mn[u] = h->n ? h->min : UINT64_MAX;
        rb->mx[u] = h->n ? h->max : 0;
        u++;
    }
    if (used) {
        if ((rc = cluster_reduce_u64(c, rb->sum, used * HIST_WORDS, CLUSTER_SUM)) < 0 ||
            (rc = cluster_reduce_u64(c, rb->mn, used, CLUSTER_MIN)) < 0 ||
            (rc = cluster_reduce_u64(c, rb->mx, used, CLUSTER_MAX)) < 0)
            return rc;
    }
    /* unpack */
    u = 0;
    for (size_t x = 0; x < nh; x++) {
        struct hist *h = hist_at(&s[x / HISTS_PER], (unsigned)(x % HISTS_PER));
        if (!hn[x])
            continue;
        const uint64_t *w = rb->sum + u * HIST_WORDS;
        h->n = hn[x];
        h->sum = w[0];
        unsigned __int128 sq = 0;
        for (unsigned l = 0; l < 4; l++)
            sq += (unsigned __int128)w[1 + l] << (32 * l);
        h->sumsq = sq;
        memcpy(h->ms_log2, w + 5, sizeof(h->ms_log2));
        memcpy(h->counts, w + 5 + HIST_MS_BUCKETS, sizeof(h->counts));
        h->min = rb->mn[u];
        h->max = rb->mx[u];
        u++;
    }
    for (unsigned i = 0; i < n; i++)
        for (unsigned k = 0; k < COUNTERS_PER; k++)
            *counter_at(&s[i], k) = head[(size_t)i * COUNTERS_PER + k];
    return 0;
}

int runner_cluster_step(struct cluster *c, struct runner_reduce *rb, int mine, struct io_stats *ivjobs,
                        unsigned njobs, uint64_t *t_end_rel, unsigned *late)
{
    if (mine < 0) {
        for (unsigned j = 0; j < njobs; j++)
            iostats_reset(&ivjobs[j]);
        *t_end_rel = 0;
        *late = 0;
    }
    uint64_t v[5] = {mine > 0, *t_end_rel, *late & 1u, (*late >> 1) & 1u, (uint64_t)signal_received()};
    if (cluster_reduce_u64(c, v, 5, CLUSTER_MAX) < 0)
        return -1;
    if (v[4] && !signal_received())
        signal_raise_stop((int)v[4]);
    if (!v[0])
        return -1;
    if (runner_cluster_merge(c, rb, ivjobs, njobs) < 0)
        return -1;
    *t_end_rel = v[1];
    *late = (unsigned)(v[2] | (v[3] << 1));
    return 1;
}

void runner_cluster_finish(struct cluster *c, struct phase_stats *out, const struct job_stats *ccum,
                           uint64_t agreed, int64_t skew)
{
    unsigned nj = out->njobs;
    /* [elapsed, per job elapsed..., signal, lagged, hook] max; errors sum */
    uint64_t *mx = calloc(nj + 4, sizeof(*mx));
    uint64_t errs = out->error_total;
    struct phase_cluster *pc = calloc(1, sizeof(*pc));
    if (pc) {
        pc->job_total = calloc(nj ? nj : 1, sizeof(*pc->job_total));
        pc->job_elapsed_ns = calloc(nj ? nj : 1, sizeof(*pc->job_elapsed_ns));
    }
    if (!mx || !pc || !pc->job_total || !pc->job_elapsed_ns)
        cluster_abort(c, 1, "out of memory for the cluster totals");
    mx[0] = out->elapsed_ns;
    for (unsigned j = 0; j < nj; j++)
        mx[1 + j] = out->stats[j].elapsed_ns;
    mx[nj + 1] = out->interrupted ? (uint64_t)out->signal : 0;
    mx[nj + 2] = out->lagged;
    mx[nj + 3] = out->stopped_by_hook;
    if (cluster_reduce_u64(c, mx, nj + 4, CLUSTER_MAX) < 0 || cluster_reduce_u64(c, &errs, 1, CLUSTER_SUM) < 0)
        cluster_abort(c, 1, "the ranks lost contact at the end of a phase");
    pc->rank = c->rank;
    pc->nranks = c->nranks;
    pc->agreed_start_wall_ns = agreed;
    pc->start_skew_ns = skew;
    pc->elapsed_ns = out->elapsed_ns;
    pc->error_total = out->error_total;
    for (unsigned j = 0; j < nj; j++) {
        pc->job_total[j] = out->stats[j].total;
        pc->job_elapsed_ns[j] = out->stats[j].elapsed_ns;
        out->stats[j].total = ccum[j].total;
        out->stats[j].elapsed_ns = mx[1 + j];
    }
    out->elapsed_ns = mx[0];
    if (mx[nj + 1]) {
        out->interrupted = true;
        out->signal = (int)mx[nj + 1];
    }
    out->lagged = mx[nj + 2] != 0;
    out->stopped_by_hook = mx[nj + 3] != 0;
    out->error_total = errs;
    out->cluster = pc;
    free(mx);
}
