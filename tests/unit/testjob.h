/* testjob.h - small job builders shared by the generator, distribution and
 * stripe tests (header-only, test code only). */
#ifndef SSDBENCH_TEST_TESTJOB_H
#define SSDBENCH_TEST_TESTJOB_H

#include <stdlib.h>

#include "job/job.h"

/* ssdbench's defaults with rw set, random share to match, and seed 42. */
static inline struct job_spec mkjob(enum job_rw rw)
{
    struct job_spec j;
    job_defaults(&j);
    j.rw = rw;
    j.pct_random = job_rw_is_random(rw) ? 100 : 0;
    j.seed = 42;
    j.seed_set = true;
    return j;
}

/* "512/10:4k/60:64k/30" -> bssplit; sizes in bytes or with a k suffix. */
static inline void set_bssplit(struct job_spec *j, unsigned d, const char *s)
{
    struct job_bssplit *b = &j->bs[d];
    b->n = 0;
    while (*s) {
        char *e;
        unsigned long v = strtoul(s, &e, 10);
        if (*e == 'k') {
            v *= 1024;
            e++;
        }
        double p = strtod(e + 1, &e); /* skip '/' */
        b->bs[b->n] = (uint32_t)v;
        b->pct[b->n] = p;
        b->n++;
        s = *e == ':' ? e + 1 : e;
    }
}

#endif
