/* result_steady.h - the steady-state report (base/steady.h) as an object of
 * the results model, shared by every workload that detects steady state (the
 * suite's preconditioning, fio's ss= jobs, PTS). */
#ifndef SSDBENCH_RESULT_STEADY_H
#define SSDBENCH_RESULT_STEADY_H

#include <stdint.h>
#include <cjson/cJSON.h>

#include "base/steady.h"

/* The steady-state report as JSON (rule, window, figures, fit, reached). */
cJSON *result_steady_json(const struct steady_cfg *cfg, const struct steady_report *r,
                         const double *window, unsigned nwindow, uint64_t interval_ns);

#endif
