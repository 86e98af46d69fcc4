/* worker_flow.c - fio's flow control (flow_id, flow, flow_sleep): the workers
 * of one flow_id issue I/Os in the ratio of their flow weights. Each worker
 * counts its own I/Os and the group's; before an I/O, a worker whose share
 * of the group's count is above its share of the group's weight issues
 * nothing and waits (flow_sleep), as fio's flow_threshold_exceeded. A
 * worker that ends takes its count and weight out of the group, so the
 * others share anew. Declared in runner_int.h. */
#include <errno.h>
#include <stdio.h>

#include "runner/runner_int.h"

int wflow_setup(struct phase_run *run, char *err, size_t errlen)
{
    run->nflows = 0;
    for (unsigned i = 0; i < run->nworkers; i++) {
        struct worker *w = &run->workers[i];
        w->flow = NULL;
        w->flow_count = 0;
        if (!w->job->flow)
            continue;
        struct flow_group *g = NULL;
        for (unsigned k = 0; k < run->nflows && !g; k++)
            if (run->flows[k].id == w->job->flow_id)
                g = &run->flows[k];
        if (!g) {
            if (run->nflows == RUN_MAX_FLOWS) {
                snprintf(err, errlen, "job '%s': more than %d flow_id values in one run", w->job->name,
                         RUN_MAX_FLOWS);
                return -EINVAL;
            }
            g = &run->flows[run->nflows++];
            g->id = w->job->flow_id;
            atomic_store(&g->count, 1); /* fio's flow counter starts at 1 */
            atomic_store(&g->weight, 0);
        }
        atomic_fetch_add(&g->weight, (int64_t)w->job->flow);
        w->flow = g;
    }
    return 0;
}

bool wflow_ahead(struct worker *w)
{
    struct flow_group *g = w->flow;
    uint64_t count = atomic_load_explicit(&g->count, memory_order_relaxed);
    int64_t weight = atomic_load_explicit(&g->weight, memory_order_relaxed);
    if (weight > 0 && (double)w->flow_count / (double)count > (double)w->job->flow / (double)weight)
        return true;
    atomic_fetch_add_explicit(&g->count, 1, memory_order_relaxed);
    w->flow_count++;
    return false;
}

void wflow_exit(struct worker *w)
{
    struct flow_group *g = w->flow;
    if (!g)
        return;
    atomic_fetch_sub(&g->count, w->flow_count);
    atomic_fetch_sub(&g->weight, (int64_t)w->job->flow);
    w->flow = NULL;
}
