/* hostcpu.h - the host's CPU time counters from /proc/stat (all CPUs, in
 * jiffies), so that a run can say how busy the machine was around it: per
 * interval in the series and over the whole run in the result's host block. */
#ifndef SSDBENCH_HOSTCPU_H
#define SSDBENCH_HOSTCPU_H

#include <stdbool.h>

struct hostcpu {
    bool valid;
    double busy;    /* user + nice + system + irq + softirq */
    double steal;   /* taken by the hypervisor */
    double iowait;  /* idle with I/O outstanding */
    double total;   /* everything, idle included */
};

/* Reads the first ("cpu") line of /proc/stat; valid = false when unreadable. */
void hostcpu_read(struct hostcpu *c);

/* Shares in percent of the time between a and b (0 when b is not later). */
void hostcpu_pct(const struct hostcpu *a, const struct hostcpu *b, double *busy_pct,
                 double *steal_pct, double *iowait_pct);

#endif
