/* worker_prio.c - fio's cmdprio options in the worker (runner/worker_prio.h):
 * the per-direction choice tables built from the job, the draw per I/O. */
#include "runner/worker_prio.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "runner/runner_int.h"

/* fio's ioprio_value(): class 0 is best effort */
static uint16_t prio_value(unsigned cls, unsigned level)
{
    return (uint16_t)((cls ? cls : 2) << 13 | level);
}

int wprio_setup(struct worker *w, const struct job_spec *j, uint64_t seed, char *err, size_t errlen)
{
    const struct job_cmdprio *c = &j->cmdprio;
    bool dirs[2] = {job_rw_reads(j), job_rw_writes(j)};
    bool any = false;
    for (int d = 0; d < 2; d++)
        any |= dirs[d] && (c->bssplit ? c->nsplit[d] > 0 : c->pct[d] > 0);
    w->prio = NULL;
    if (!any)
        return 0;
    struct wprio *p = calloc(1, sizeof(*p));
    if (!p)
        return snprintf(err, errlen, "out of memory"), -ENOMEM;
    rng_seed(&p->rng, seed ^ 0x70726f69ull);
    p->total = j->lat_pct;
    /* fio: the job's own priority (prioclass/prio, else 0) is slot 0 */
    uint16_t own = 0;
    if (j->ioprio_class >= 0 || j->ioprio >= 0)
        own = prio_value(j->ioprio_class > 0 ? (unsigned)j->ioprio_class : 0,
                         j->ioprio > 0 ? (unsigned)j->ioprio : 0);
    p->own = own;
    int rc = 0;
    for (int d = 0; d < 2 && rc >= 0; d++) {
        if (!dirs[d] || (c->bssplit ? c->nsplit[d] == 0 : c->pct[d] == 0))
            continue;
        /* the implicit priority: cmdprio_class (default real time), cmdprio */
        uint16_t implicit = prio_value(c->cls[d] ? c->cls[d] : 1, c->level[d]);
        if ((rc = prio_stats_slot(&p->st.dir[d], own)) < 0)
            break;
        unsigned n = c->bssplit ? c->nsplit[d] : 1;
        for (unsigned i = 0; i < n; i++) {
            struct wprio_pick *k = &p->pick[d][i];
            if (c->bssplit) {
                k->bs = c->split[d][i].bs;
                k->pct = c->split[d][i].pct;
                k->ioprio = c->split[d][i].prio < 0 ? implicit : (uint16_t)c->split[d][i].prio;
            } else {
                k->pct = c->pct[d];
                k->ioprio = implicit;
            }
            if ((rc = prio_stats_slot(&p->st.dir[d], k->ioprio)) < 0)
                break;
            k->idx = (uint8_t)rc;
        }
        p->npick[d] = n;
    }
    if (rc < 0) {
        prio_stats_clear(&p->st);
        free(p);
        return snprintf(err, errlen, "cmdprio: %s", rc == -ENOMEM ? "out of memory" : "too many priorities"), rc;
    }
    w->prio = p;
    return 0;
}

void wprio_free(struct worker *w)
{
    if (!w->prio)
        return;
    prio_stats_clear(&w->prio->st);
    free(w->prio);
    w->prio = NULL;
}

/* fio_cmdprio_set_ioprio: percentage mode, one entry for every size;
 * bssplit, the entries of r's size (kept together, in the job's order),
 * their percentages added up against one draw */
void wprio_draw(struct wprio *p, struct io_req *r)
{
    r->ioprio = p->own;
    r->prio_idx = 0;
    if (r->op > IO_OP_WRITE || !p->npick[r->op])
        return;
    const struct wprio_pick *k = p->pick[r->op];
    unsigned n = p->npick[r->op];
    unsigned i = 0;
    if (k[0].bs) {
        while (i < n && k[i].bs != r->len)
            i++;
        if (i == n)
            return;
    }
    unsigned sum = 0;
    for (unsigned e = i; e < n && (e == i || k[e].bs == k[i].bs); e++)
        sum += k[e].pct;
    unsigned draw = (unsigned)rng_below(&p->rng, 100);
    if (draw >= sum)
        return;
    unsigned acc = 0;
    for (unsigned e = i; e < n; e++) {
        acc += k[e].pct;
        if (draw < acc) {
            r->ioprio = k[e].ioprio;
            r->prio_idx = k[e].idx;
            return;
        }
    }
}
