/* result_params_fio.h - the params keys of fio's buffer-content,
 * scheduling and measurement options (written only when not fio's
 * default; see docs/results.md). */
#ifndef SSDBENCH_RESULT_PARAMS_FIO_H
#define SSDBENCH_RESULT_PARAMS_FIO_H

#include <cjson/cJSON.h>

#include "job/job.h"

void result_params_fio_extra(cJSON *p, const struct job_spec *j);

#endif
