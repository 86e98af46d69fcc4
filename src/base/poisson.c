/* poisson.c - exponential gaps for Poisson pacing (see poisson.h). */
#include "base/poisson.h"

#include <math.h>

uint64_t poisson_gap_ns(struct rng *r, double mean_ns)
{
    /* (k + 1) / 2^53 lies in (0, 1], so the log is finite */
    double u = (double)((rng_next(r) >> 11) + 1) * (1.0 / 9007199254740992.0);
    double g = -log(u) * mean_ns;
    return g < 1.8e19 ? (uint64_t)g : UINT64_MAX / 2;
}
