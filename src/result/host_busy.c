/* host_busy.c - see host_busy.h. */
#include <stdio.h>
#include <string.h>

#include "result/host_busy.h"
#include "result/result.h"

bool host_busy(const struct host_load *h, char *why, size_t len)
{
    double own_pct = h->cpus > 0 && h->duration_s > 0 ? 100.0 * h->own_cpu_s / (h->duration_s * h->cpus) : 0;
    double other = h->busy_pct - own_pct;
    double load = h->load_start > h->load_end ? h->load_start : h->load_end;
    size_t n = 0;
    bool busy = false;
    why[0] = 0;
    if (other >= HOST_BUSY_OTHER_PCT) {
        n += (size_t)snprintf(why + n, len - n, "other work used %.0f%% of the CPUs (ssdbench %.0f%%)",
                              other, own_pct);
        busy = true;
    }
    if (h->steal_pct >= HOST_BUSY_STEAL_PCT && n < len) {
        n += (size_t)snprintf(why + n, len - n, "%ssteal %.1f%%", busy ? ", " : "", h->steal_pct);
        busy = true;
    }
    if (h->cpus > 0 && load > h->cpus + h->own_threads && n < len) {
        snprintf(why + n, len - n, "%sload %.1f on %.0f CPUs", busy ? ", " : "", load, h->cpus);
        busy = true;
    }
    return busy;
}

void host_load_from_doc(const cJSON *doc, struct host_load *h)
{
    memset(h, 0, sizeof(*h));
    const cJSON *host = cJSON_GetObjectItemCaseSensitive(doc, "host");
    h->cpus = result_num(host, "cpus", 0);
    h->busy_pct = result_num(host, "cpu_busy_pct", 0);
    h->steal_pct = result_num(host, "cpu_steal_pct", 0);
    h->load_start = result_num(host, "loadavg_1m_start", 0);
    h->load_end = result_num(host, "loadavg_1m_end", 0);
    h->duration_s = result_num(doc, "duration_s", 0);
    const cJSON *ph;
    cJSON_ArrayForEach(ph, cJSON_GetObjectItemCaseSensitive(doc, "phases")) {
        const cJSON *cpu = cJSON_GetObjectItemCaseSensitive(ph, "cpu");
        h->own_cpu_s += result_num(cpu, "user_s", 0) + result_num(cpu, "sys_s", 0);
        double threads = 1;
        const cJSON *j;
        cJSON_ArrayForEach(j, cJSON_GetObjectItemCaseSensitive(ph, "jobs"))
            threads += result_num(j, "workers", 1);
        if (threads > h->own_threads)
            h->own_threads = threads;
    }
}
