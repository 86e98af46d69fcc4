/* worker_vstate.h - fio's verify state files (verify_state_save,
 * verify_state_load): what a verify write job got done, so that a later
 * verify_only run checks only the blocks that were written, after the job
 * was stopped part-way (runtime, a signal, an error).
 *
 * fio's semantics, ssdbench's file: a write job with verify_state_save=1
 * writes ssdbench-JOB-N-verify.state (N = the worker's index in its job; '/'
 * in the job name becomes '.') in the current directory when its writes
 * end. It records the number of the job's writes known to be complete: all
 * of them when the worker stopped with nothing in flight (its normal end,
 * and a stop by signal or runtime, which wait for the I/Os in flight), else
 * all but the last iodepth (fio likewise treats its last iodepth issues as
 * unknown unless seen completed). A verify_only job with
 * verify_state_load=1 replays the job's offsets as usual (same job, same
 * seed) but only that many writes, so it reads and checks exactly the
 * blocks written. A hard kill (SIGKILL, power loss) writes no state, as in
 * fio, which saves at its thread's exit or at a trigger.
 *
 * The file is text: "ssdbench-verify-state 1", then "job NAME", "worker N",
 * "seed S", "writes W", one per line, then "crc32c X" over the bytes before
 * it. Not fio's binary format (fio's holds its random generator state,
 * which ssdbench does not use), and a different name (local-JOB-N-verify.state
 * is fio's), so neither tool reads the other's file by accident.
 */
#ifndef SSDBENCH_WORKER_VSTATE_H
#define SSDBENCH_WORKER_VSTATE_H

#include <stddef.h>

#include "runner/runner_int.h"

/* The state file's path for worker index n of job j. */
void wvstate_path(const struct job_spec *j, unsigned n, char *out, size_t outlen);
/* At the end of the writes (inflight: I/Os still in flight then): writes the
 * state file. 0, or a negative errno with a one-line message in err. */
int wvstate_save(struct worker *w, unsigned inflight, char *err, size_t errlen);
/* verify_only with verify_state_load: reads the worker's state file into
 * w->vf (state_loaded, state_writes). 0, or a negative errno with a
 * one-line message naming the file. */
int wvstate_load(struct worker *w, char *err, size_t errlen);

#endif
