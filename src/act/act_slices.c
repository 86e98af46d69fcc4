/* act_slices.c - slice tables and the certification verdict (the log reader
 * is in act_analyze.c). Declared in act_analyze.h. */
#include "act/act_analyze.h"
#include "base/round.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

const unsigned act_limit_ms[ACT_NLIMITS] = {1, 8, 64};
const double act_limit_pct[ACT_NLIMITS] = {5.0, 1.0, 0.1};

int act_table_init(struct act_table *t, const char *name, unsigned slice_sec)
{
    memset(t, 0, sizeof(*t));
    if (!slice_sec)
        return -EINVAL;
    snprintf(t->name, sizeof(t->name), "%s", name);
    t->slice_sec = slice_sec;
    t->next_end = slice_sec;
    return 0;
}

int act_table_feed(struct act_table *t, unsigned elapsed_s, const uint64_t cum[ACT_NBUCKETS])
{
    t->found = true;
    if (t->gap || elapsed_s < t->next_end)
        return 0;
    if (elapsed_s > t->next_end) {
        /* act_latency.py looks for the exact "after <end> sec:" line and stops
         * when it is missing; so do we. */
        t->gap = true;
        return 0;
    }
    uint64_t total = 0;
    for (unsigned b = 0; b < ACT_NBUCKETS; b++) {
        if (cum[b] < t->prev[b])
            return -ERANGE;
        total += cum[b];
    }
    if (t->nslices == t->cap) {
        unsigned cap = t->cap ? 2 * t->cap : 32;
        struct act_slice_row *r = realloc(t->rows, cap * sizeof(*r));
        if (!r)
            return -ENOMEM;
        t->rows = r;
        t->cap = cap;
    }
    struct act_slice_row *row = &t->rows[t->nslices++];
    memset(row, 0, sizeof(*row));
    uint64_t ops = total - t->prev_total;
    row->ops = ops;
    if (ops) {
        uint64_t below = 0;
        for (unsigned b = 0; b < ACT_TABLE_BUCKETS; b++) {
            below += cum[b] - t->prev[b];
            row->over[b] = round_decimal((double)(ops - below) * 100.0 / (double)ops, 2);
        }
    }
    row->rate = round_decimal((double)ops / (double)t->slice_sec, 1);
    memcpy(t->prev, cum, sizeof(t->prev));
    t->prev_total = total;
    t->next_end += t->slice_sec;
    return 0;
}

void act_table_finish(struct act_table *t)
{
    memset(t->avg, 0, sizeof(t->avg));
    memset(t->max, 0, sizeof(t->max));
    t->avg_rate = t->max_rate = 0;
    for (unsigned s = 0; s < t->nslices; s++) {
        const struct act_slice_row *r = &t->rows[s];
        for (unsigned b = 0; b < ACT_TABLE_BUCKETS; b++) {
            t->avg[b] += r->over[b];
            if (r->over[b] > t->max[b])
                t->max[b] = r->over[b];
        }
        t->avg_rate += r->rate;
        if (r->rate > t->max_rate)
            t->max_rate = r->rate;
    }
    if (t->nslices) {
        for (unsigned b = 0; b < ACT_TABLE_BUCKETS; b++)
            t->avg[b] /= t->nslices;
        t->avg_rate /= t->nslices;
    }
}

void act_table_free(struct act_table *t)
{
    free(t->rows);
    t->rows = NULL;
    t->nslices = t->cap = 0;
}

unsigned act_display_columns(unsigned start, unsigned num, unsigned every,
                             unsigned cols[ACT_TABLE_BUCKETS])
{
    unsigned n = 0;
    if (!every)
        return 0;
    for (unsigned b = start; b < ACT_TABLE_BUCKETS && n < num; b += every)
        cols[n++] = b;
    return n;
}

void act_verdict_compute(const struct act_table *hourly, bool us_buckets, bool stopped_early,
                         const char *stop_msg, unsigned configured_duration_s,
                         struct act_verdict *v)
{
    /* 1, 8 and 64 ms are buckets 0, 3 and 6 in ms; in us the nearest
     * thresholds the log2 buckets give are 2^10, 2^13 and 2^16 us. */
    static const unsigned col_ms[ACT_NLIMITS] = {0, 3, 6}, col_us[ACT_NLIMITS] = {10, 13, 16};
    const unsigned *col = us_buckets ? col_us : col_ms;

    memset(v, 0, sizeof(*v));
    v->us_buckets = us_buckets;
    v->stopped_early = stopped_early;
    snprintf(v->hist, sizeof(v->hist), "%s", hourly ? hourly->name : "reads");
    if (hourly) {
        v->slice_sec = hourly->slice_sec;
        v->hours = hourly->nslices;
        double worst = -1;
        for (unsigned h = 0; h < hourly->nslices; h++) {
            const double *over = hourly->rows[h].over;
            double score = 0;
            for (unsigned k = 0; k < ACT_NLIMITS; k++) {
                double p = over[col[k]];
                if (h == 0 || p > v->max_pct[k]) {
                    v->max_pct[k] = p;
                    v->max_hour[k] = h + 1;
                }
                if (p / act_limit_pct[k] > score)
                    score = p / act_limit_pct[k];
            }
            if (score > worst) {
                worst = score;
                v->worst_hour = h + 1;
                for (unsigned k = 0; k < ACT_NLIMITS; k++)
                    v->worst_pct[k] = over[col[k]];
            }
        }
        for (unsigned k = 0; k < ACT_NLIMITS; k++)
            v->over_limit[k] = v->hours && !(v->max_pct[k] < act_limit_pct[k]);
    }
    bool any_over = v->over_limit[0] || v->over_limit[1] || v->over_limit[2];
    uint64_t span = (uint64_t)v->hours * v->slice_sec;

    if (stopped_early) {
        v->status = ACT_VERDICT_FAIL;
        snprintf(v->reason, sizeof(v->reason), "stopped early by the max-lag rule: %s",
                 stop_msg && *stop_msg ? stop_msg : "can't keep up");
    } else if (!hourly || !hourly->found) {
        v->status = ACT_VERDICT_NONE;
        snprintf(v->reason, sizeof(v->reason),
                 "no 'reads' histogram in the log (no small reads), nothing to certify");
    } else if (span >= ACT_CERT_SECONDS) {
        v->status = any_over ? ACT_VERDICT_FAIL : ACT_VERDICT_PASS;
        if (any_over) {
            unsigned k = v->over_limit[0] ? 0 : v->over_limit[1] ? 1 : 2;
            snprintf(v->reason, sizeof(v->reason),
                     "hour %u has %.2f%% of reads >= %u ms (limit: below %g%%)", v->max_hour[k],
                     v->max_pct[k], act_limit_ms[k], act_limit_pct[k]);
        } else {
            snprintf(v->reason, sizeof(v->reason), "every one of %u hours is below all three "
                     "limits", v->hours);
        }
    } else if (configured_duration_s >= ACT_CERT_SECONDS) {
        v->status = ACT_VERDICT_INCOMPLETE;
        snprintf(v->reason, sizeof(v->reason),
                 "the log holds %u full hour%s of the 24 required (run still going, "
                 "interrupted or cut short)", v->hours, v->hours == 1 ? "" : "s");
    } else {
        v->status = ACT_VERDICT_NONE;
        snprintf(v->reason, sizeof(v->reason),
                 "a %u s run: certification needs 24 h (test-duration-sec: 86400)",
                 configured_duration_s ? configured_duration_s : (unsigned)span);
    }
}

const char *act_verdict_name(enum act_verdict_status s)
{
    switch (s) {
    case ACT_VERDICT_PASS: return "PASS";
    case ACT_VERDICT_FAIL: return "FAIL";
    case ACT_VERDICT_INCOMPLETE: return "INCOMPLETE";
    case ACT_VERDICT_NONE: break;
    }
    return "none";
}

void act_verdict_scale(struct act_verdict *v, double tick_ms, bool complete)
{
    v->scaled_tick_ms = tick_ms;
    if (!complete || v->stopped_early || !v->hours)
        return;
    bool any_over = v->over_limit[0] || v->over_limit[1] || v->over_limit[2];
    v->status = any_over ? ACT_VERDICT_FAIL : ACT_VERDICT_PASS;
    if (any_over) {
        unsigned k = v->over_limit[0] ? 0 : v->over_limit[1] ? 1 : 2;
        snprintf(v->reason, sizeof(v->reason),
                 "time-scaled run (%g ms per report interval), not a certification: hour %u has "
                 "%.2f%% of reads >= %u ms (limit: below %g%%)", tick_ms, v->max_hour[k],
                 v->max_pct[k], act_limit_ms[k], act_limit_pct[k]);
    } else {
        snprintf(v->reason, sizeof(v->reason),
                 "time-scaled run (%g ms per report interval), not a certification: every one "
                 "of %u hours is below all three limits", tick_ms, v->hours);
    }
}
