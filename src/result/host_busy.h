/* host_busy.h - whether the host was busy enough during a run that other
 * work could have changed its figures, from the numbers a result keeps
 * (host CPU shares over the run, load averages, ssdbench's own CPU time).
 *
 * Thresholds (docs/results.md, "Host load"):
 *  - other work: the host's busy CPU share minus ssdbench's own share is at
 *    least HOST_BUSY_OTHER_PCT percent of all CPUs;
 *  - steal: the hypervisor took at least HOST_BUSY_STEAL_PCT percent;
 *  - load: the 1-minute load average (the larger of start and end) exceeds
 *    the CPU count plus ssdbench's own threads (its workers and collector). */
#ifndef SSDBENCH_HOST_BUSY_H
#define SSDBENCH_HOST_BUSY_H

#include <stdbool.h>
#include <stddef.h>
#include <cjson/cJSON.h>

#define HOST_BUSY_OTHER_PCT 25.0
#define HOST_BUSY_STEAL_PCT 5.0

struct host_load {
    double cpus;
    double busy_pct, steal_pct;       /* system-wide over the run */
    double load_start, load_end;      /* 1-minute load averages */
    double duration_s;                /* the run, wall clock */
    double own_cpu_s;                 /* ssdbench's user + system CPU time */
    double own_threads;               /* ssdbench's largest number of running threads */
};

/* True when busy; why then holds what was seen, e.g. "other work used 48% of
 * the CPUs, load 80.2 on 2 CPUs". */
bool host_busy(const struct host_load *h, char *why, size_t len);

/* The figures of a result document (fields missing: 0). */
void host_load_from_doc(const cJSON *doc, struct host_load *h);

#endif
