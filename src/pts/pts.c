/* pts.c - see pts.h: presets, test matrices and the steady-state detectors
 * (base/steady.h) over the tracking variables; the checks and the
 * compliance list are in pts_check.c. */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "pts/pts.h"

void pts_defaults(struct pts_cfg *c)
{
    memset(c, 0, sizeof(*c));
    for (int t = 0; t < PTS_NTESTS; t++)
        c->test[t] = true;
    c->preset = PTS_ENTERPRISE;
    c->max_rounds = 25;
    c->capacity_scale = 1.0;
    c->wsat_ns = PTS_SPEC_WSAT_NS;
    c->wsat_sample_ns = PTS_SPEC_ELEMENT_NS;
    c->engine = ENGINE_IO_URING;
    c->hir_burst_ns = PTS_SPEC_HIR_BURST_NS;
    c->hir_reps = PTS_SPEC_HIR_REPS;
    c->xsr_ns = PTS_SPEC_XSR_NS;
    c->xsr_sample_ns = PTS_SPEC_ELEMENT_NS;
    c->dirth_bs = 8 << 10;
    c->dirth_read_pct = 65;
}

double pts_active_range(const struct pts_cfg *c)
{
    if (c->active_range_pct > 0)
        return c->active_range_pct;
    return c->preset == PTS_CLIENT ? 75.0 : 100.0;
}

unsigned pts_tc(const struct pts_cfg *c)
{
    return c->tc ? c->tc : c->preset == PTS_CLIENT ? 2 : 4;
}

unsigned pts_qd(const struct pts_cfg *c)
{
    return c->qd ? c->qd : c->preset == PTS_CLIENT ? 16 : 32;
}

const char *pts_wc_required(const struct pts_cfg *c)
{
    return c->preset == PTS_CLIENT ? "WCE" : "WCD";
}

static const char *const test_names[PTS_NTESTS] = {"iops", "throughput", "latency", "wsat",
                                                   "hir",  "xsr",        "cbw",     "dirth"};
static const char *const test_titles[PTS_NTESTS] = {
    "IOPS", "Throughput", "Latency", "Write Saturation", "Host Idle Recovery",
    "Cross Stimulus Recovery", "Composite Block Size Workload",
    "Demand Intensity / Response Time Histogram"};

const char *pts_test_name(enum pts_test t)
{
    return t < PTS_NTESTS ? test_names[t] : "?";
}

const char *pts_test_title(enum pts_test t)
{
    return t < PTS_NTESTS ? test_titles[t] : "?";
}

const char *pts_preset_name(enum pts_preset p)
{
    return p == PTS_CLIENT ? "client" : "enterprise";
}

int pts_test_parse(const char *s)
{
    for (int t = 0; t < PTS_NTESTS; t++)
        if (!strcasecmp(s, test_names[t]))
            return t;
    if (!strcasecmp(s, "tp"))
        return PTS_TP;
    if (!strcasecmp(s, "lat"))
        return PTS_LAT;
    if (!strcasecmp(s, "ecw"))
        return PTS_CBW;
    return -1;
}

/* PTS loop order: outer R/W mix, inner block size (largest first). */
static const unsigned iops_mix[PTS_MAX_MIX] = {100, 95, 65, 50, 35, 5, 0};
static const uint32_t iops_bs[PTS_MAX_BS] = {1024 << 10, 128 << 10, 64 << 10, 32 << 10,
                                             16 << 10,   8 << 10,   4 << 10,  512};
static const unsigned lat_mix[3] = {100, 65, 0};
static const uint32_t lat_bs[3] = {512, 4 << 10, 8 << 10};

static unsigned find_el(const struct pts_matrix *m, uint32_t bs, unsigned read_pct)
{
    for (unsigned i = 0; i < m->nelements; i++)
        if (m->el[i].bs == bs && m->el[i].read_pct == read_pct)
            return i;
    return 0;
}

void pts_matrix(enum pts_test t, uint32_t tp_bs, struct pts_matrix *m)
{
    memset(m, 0, sizeof(*m));
    m->test = t;
    switch (t) {
    case PTS_IOPS:
        for (unsigned x = 0; x < PTS_MAX_MIX; x++)
            for (unsigned b = 0; b < PTS_MAX_BS; b++)
                m->el[m->nelements++] = (struct pts_element){.bs = iops_bs[b], .read_pct = iops_mix[x], .seq = false};
        /* PTS 2.0.x: RND 4 KiB 0/100, RND 64 KiB 65/35, RND 1024 KiB 100/0 */
        m->ntrack = 3;
        m->track[0] = find_el(m, 4 << 10, 0);
        m->track[1] = find_el(m, 64 << 10, 65);
        m->track[2] = find_el(m, 1024 << 10, 100);
        m->metric = STEADY_IOPS;
        break;
    case PTS_TP:
        m->el[m->nelements++] = (struct pts_element){.bs = tp_bs, .read_pct = 100, .seq = true};
        m->el[m->nelements++] = (struct pts_element){.bs = tp_bs, .read_pct = 0, .seq = true};
        m->ntrack = 1;
        m->track[0] = 1;   /* SEQ write MB/s */
        m->metric = STEADY_BW;
        break;
    case PTS_LAT:
        for (unsigned x = 0; x < 3; x++)
            for (unsigned b = 0; b < 3; b++)
                m->el[m->nelements++] = (struct pts_element){.bs = lat_bs[b], .read_pct = lat_mix[x], .seq = false};
        m->ntrack = 1;
        m->track[0] = find_el(m, 4 << 10, 0);   /* average latency of RND 4 KiB 0/100 */
        m->metric = STEADY_LAT;
        break;
    case PTS_WSAT:
    case PTS_HIR:   /* HIR pre-writes, XSR, CBW/DIRTH: see pts_hir.c .. pts_ecw.c */
    case PTS_XSR:
    case PTS_CBW:
    case PTS_DIRTH:
    case PTS_NTESTS:
        m->el[m->nelements++] = (struct pts_element){.bs = 4 << 10, .read_pct = 0, .seq = false};
        m->ntrack = 1;
        m->track[0] = 0;
        m->metric = STEADY_IOPS;
        break;
    }
}

uint64_t pts_element_ns(const struct pts_cfg *c, const struct pts_matrix *m)
{
    if (!c->round_ns || !m->nelements)
        return PTS_SPEC_ELEMENT_NS;
    return c->round_ns / m->nelements;
}

void pts_bs_name(uint32_t bs, char *buf, size_t len)
{
    if (bs % 1024)
        snprintf(buf, len, "%gKiB", bs / 1024.0);
    else
        snprintf(buf, len, "%" PRIu32 "KiB", bs / 1024);
}

void pts_mix_name(unsigned read_pct, char *buf, size_t len)
{
    snprintf(buf, len, "%u/%u", read_pct, 100 - read_pct);
}

void pts_reason(cJSON *a, const char *fmt, ...)
{
    char buf[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof(buf), fmt, ap);
    va_end(ap);
    cJSON_AddItemToArray(a, cJSON_CreateString(buf));
}

/* ---- steady state --------------------------------------------------------- */

int pts_ss_init(struct pts_ss *s, unsigned n, enum steady_metric metric, unsigned max_rounds)
{
    memset(s, 0, sizeof(*s));
    if (n < 1 || n > PTS_MAX_TRACK)
        return -EINVAL;
    steady_snia_defaults(&s->cfg);
    s->cfg.metric = metric;
    s->cfg.max_rounds = max_rounds;
    s->n = n;
    s->state = STEADY_CONTINUE;
    for (unsigned i = 0; i < n; i++)
        if (steady_init(&s->det[i], &s->cfg) < 0)
            return -EINVAL;
    return 0;
}

enum steady_state pts_ss_feed(struct pts_ss *s, const double *values)
{
    if (s->state != STEADY_CONTINUE)
        return s->state;
    struct steady *d[PTS_MAX_TRACK];
    for (unsigned i = 0; i < s->n; i++)
        d[i] = &s->det[i];
    s->state = steady_feed_many(d, values, s->n);
    return s->state;
}

void pts_ss_report(const struct pts_ss *s, unsigned i, struct steady_report *r, double *win,
                   unsigned *nwin)
{
    steady_get_report(&s->det[i], r);
    *nwin = r->evaluated ? steady_window_values(&s->det[i], win, s->cfg.window) : 0;
}
