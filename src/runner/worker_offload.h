/* worker_offload.h - fio's io_submit_mode=offload: a worker's I/O issued by
 * a submitter thread of its own.
 *
 * woffload_wrap() puts an engine in front of the worker's engine: its
 * queue() stages a request, its submit() and run() hand the staged ones to
 * the submitter (a mutex and two condition variables, no allocation per
 * I/O), which queues them to the real engine, submits them and reaps their
 * completions, and run() hands back what the submitter reaped. The worker
 * loop stays as it is: it generates, stamps and records every I/O; only
 * the engine calls move to the other thread, as in fio, where the job
 * thread prepares each io_u and a submit worker issues it.
 */
#ifndef SSDBENCH_WORKER_OFFLOAD_H
#define SSDBENCH_WORKER_OFFLOAD_H

#include "engine/engine.h"

/* Before e->ops->init: e->ops becomes the offload front of the engine it
 * was; init starts the submitter, which sets up the real engine, and exit
 * stops it. 0 or -ENOMEM. */
int woffload_wrap(struct engine *e);

#endif
