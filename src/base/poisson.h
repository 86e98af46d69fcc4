/* poisson.h - the gaps of a Poisson arrival process, for fio's
 * rate_process=poisson: exponentially distributed with a given mean, drawn
 * from a seeded generator so a run's schedule repeats with its seed. */
#ifndef SSDBENCH_POISSON_H
#define SSDBENCH_POISSON_H

#include <stdint.h>

#include "base/rng.h"

/* One gap in ns: mean_ns * -ln(u), u uniform in (0, 1] (53 bits). */
uint64_t poisson_gap_ns(struct rng *r, double mean_ns);

#endif
