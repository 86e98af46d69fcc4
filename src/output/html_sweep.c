/* html_sweep.c - report sections for suites: preconditioning rounds with
 * the steady-state window, and sweeps (IOPS, MB/s and latency per point). */
#include "output/html_kinds.h"

int rep_build_precondition(struct report *r)
{
    (void)r;
    return 0;
}

int rep_build_sweeps(struct report *r)
{
    (void)r;
    return 0;
}
