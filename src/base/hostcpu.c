/* hostcpu.c - see hostcpu.h. */
#include <stdio.h>
#include <string.h>

#include "base/hostcpu.h"

void hostcpu_read(struct hostcpu *c)
{
    memset(c, 0, sizeof(*c));
    FILE *f = fopen("/proc/stat", "r");
    if (!f)
        return;
    unsigned long long u, n, s, idle, iow, irq, sirq, steal;
    if (fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &u, &n, &s, &idle, &iow, &irq,
               &sirq, &steal) == 8) {
        c->valid = true;
        c->busy = (double)(u + n + s + irq + sirq);
        c->steal = (double)steal;
        c->iowait = (double)iow;
        c->total = (double)(u + n + s + idle + iow + irq + sirq + steal);
    }
    fclose(f);
}

void hostcpu_pct(const struct hostcpu *a, const struct hostcpu *b, double *busy_pct,
                 double *steal_pct, double *iowait_pct)
{
    double tot = a->valid && b->valid ? b->total - a->total : 0;
    *busy_pct = tot > 0 ? 100.0 * (b->busy - a->busy) / tot : 0;
    *steal_pct = tot > 0 ? 100.0 * (b->steal - a->steal) / tot : 0;
    *iowait_pct = tot > 0 ? 100.0 * (b->iowait - a->iowait) / tot : 0;
}
