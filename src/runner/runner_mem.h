/* runner_mem.h - the memory a phase will allocate, computed before it is
 * allocated, against what the host can give.
 *
 * A phase allocates everything up front (no allocation per I/O): per worker
 * its I/O buffers (iodepth x the largest block size, rounded to 4 KiB), its
 * request slots, its interval buffers and histograms (runner_int.h:
 * WORKER_RING + 1 io_stats per target it touches), the random map and the
 * verify table of its region; per job its per-clone statistics; and a
 * thread stack per worker (address space, not resident). A plan whose
 * phase would not fit is refused before its first phase, with one line
 * naming the product and the limit: MemAvailable (/proc/meminfo) for what
 * is resident, RLIMIT_AS (less what the process already maps) for the
 * address space. */
#ifndef SSDBENCH_RUNNER_MEM_H
#define SSDBENCH_RUNNER_MEM_H

#include <stddef.h>
#include <stdint.h>

#include "job/job.h"

struct runner_mem {
    uint64_t resident;        /* bytes the phase allocates */
    uint64_t address;         /* resident + thread stacks */
    /* the largest job's share, for the message */
    unsigned big_job;
    uint64_t big_workers, big_depth, big_bufsize, big_bytes;
};

/* The memory jobs[0..njobs) need when they run together. region_len[j]
 * (may be NULL, or 0 for a job) is job j's region when it is known (after
 * its targets are open); else the job's size is taken. */
void runner_mem_need(const struct job_spec *jobs, unsigned njobs, const uint64_t *region_len,
                     struct runner_mem *m);

/* runner_mem_need, then: 0 when it fits, else -ENOMEM with one line in err
 * ("job 'x': 128 workers x iodepth 65536 x 4096 bytes = 32 GiB of I/O
 * buffers; the phase needs 33 GiB, more than MemAvailable 20 GiB"). */
int runner_mem_check(const struct job_spec *jobs, unsigned njobs, const uint64_t *region_len, char *err,
                     size_t errlen);

struct job_setup;

/* runner_mem_check for a phase whose targets are open (runner_int.h's
 * job_setup gives each job's region), just before the workers allocate. */
int runner_mem_check_phase(const struct job_spec *jobs, unsigned njobs, const struct job_setup *setups,
                           char *err, size_t errlen);

#endif
