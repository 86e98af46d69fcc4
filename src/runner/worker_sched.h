/* worker_sched.h - fio's scheduling options applied by each worker thread
 * to itself before it starts: the CPU set (cpus_allowed / cpumask, split
 * policy, numa_cpu_nodes from /sys/devices/system/node/nodeN/cpulist), the
 * memory policy (numa_mem_policy: set_mempolicy for the thread, mbind with
 * MPOL_MF_MOVE for its I/O buffers; no libnuma), nice, and the I/O
 * priority (ioprio_set on the thread, fio's class/level encoding). */
#ifndef SSDBENCH_WORKER_SCHED_H
#define SSDBENCH_WORKER_SCHED_H

#include <stddef.h>

struct worker;

/* Applies the job's settings to the calling thread (worker w). Returns 0,
 * or -errno with a one-line message naming the option. */
int wsched_apply(struct worker *w, char *err, size_t errlen);

#endif
