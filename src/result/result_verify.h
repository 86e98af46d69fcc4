/* result_verify.h - a job's "verify" object in the results model: the
 * method, what was checked, the bad block count and the first bad block
 * (docs/fio.md "Verify"). */
#ifndef SSDBENCH_RESULT_VERIFY_H
#define SSDBENCH_RESULT_VERIFY_H

#include <cjson/cJSON.h>

#include "runner/runner.h"

/* first_target_id: the document's id of the first bad block's target */
cJSON *result_verify_json(const struct job_spec *jb, const struct verify_stats *vs,
                          const char *first_target_id);

#endif
