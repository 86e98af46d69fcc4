/* worker_prio.h - fio's cmdprio options in the worker: each read and write
 * gets its I/O priority (cmdprio_percentage or cmdprio_bssplit, fio's
 * draw: a number in 0..99 from the job's own random stream against the
 * percentages), the engines pass it per I/O (io_req.ioprio), and its
 * latency goes into that priority's histogram (stats/prio_stats.h).
 *
 * A worker without cmdprio has w->prio == NULL and pays one predicted
 * branch at admission and one at completion.
 */
#ifndef SSDBENCH_WORKER_PRIO_H
#define SSDBENCH_WORKER_PRIO_H

#include <stdbool.h>
#include <stdint.h>

#include "base/rng.h"
#include "engine/engine.h"
#include "job/job.h"
#include "stats/prio_stats.h"

struct worker;

struct wprio_pick {
    uint32_t bs;                 /* bssplit: the block size (0 = any, percentage mode) */
    uint8_t pct;
    uint16_t ioprio;
    uint8_t idx;                 /* slot in st.dir[d] */
};

struct wprio {
    struct rng rng;
    bool total;                  /* lat_percentiles: the total latency, else clat */
    uint16_t own;                /* the job's own priority (prioclass/prio; 0 = none) */
    unsigned npick[2];
    struct wprio_pick pick[2][JOB_CMDPRIO_SPLIT_MAX];
    struct prio_stats st;        /* measured I/Os only (after the ramp) */
};

/* w->prio for a job with cmdprio_percentage or cmdprio_bssplit (else
 * NULL). 0 or -ENOMEM / -ENOSPC with a message. */
int wprio_setup(struct worker *w, const struct job_spec *j, uint64_t seed, char *err, size_t errlen);
void wprio_free(struct worker *w);

/* At admission: r's priority and statistics slot. */
void wprio_draw(struct wprio *p, struct io_req *r);

/* At a good completion of a read or write: lat (submission -> completion)
 * and slat (0 when not measured) into r's priority's histogram. */
static inline void wprio_record(struct wprio *p, const struct io_req *r, uint64_t lat, uint64_t slat)
{
    if (r->op > IO_OP_WRITE)
        return;
    const struct prio_dir *d = &p->st.dir[r->op];
    unsigned k = r->prio_idx < d->n ? r->prio_idx : 0;
    if (d->n)
        hist_add(d->h[k], p->total ? lat : lat - slat);
}

#endif
