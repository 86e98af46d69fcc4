/* result_params_fio.c - params keys of fio's buffer, scheduling and
 * measurement options (see result_params_fio.h). */
#include "result/result_params_fio.h"

#include <stdio.h>

#include "base/cpulist.h"

static void add_nodes(cJSON *p, const char *key, const char *prefix, uint64_t nodes)
{
    char list[256], v[300];
    if (nodes == UINT64_MAX)
        snprintf(list, sizeof(list), "all");
    else
        cpulist_format(&nodes, 1, list, sizeof(list));
    snprintf(v, sizeof(v), "%s%s", prefix, list);
    cJSON_AddStringToObject(p, key, v);
}

void result_params_fio_extra(cJSON *p, const struct job_spec *j)
{
    /* buffer contents */
    if (j->buf_pattern_len) {
        char hex[2 + 2 * JOB_VPATTERN_MAX + 1] = "0x";
        for (unsigned i = 0; i < j->buf_pattern_len && i < JOB_VPATTERN_MAX; i++)
            snprintf(hex + 2 + 2 * i, 3, "%02x", j->buf_pattern[i]);
        cJSON_AddStringToObject(p, "buffer_pattern", hex);
    }
    if (j->compress_fio)
        cJSON_AddNumberToObject(p, "compress_chunk", j->compress_chunk);
    if (j->dedupe_pct)
        cJSON_AddNumberToObject(p, "dedupe_pct", j->dedupe_pct);
    cJSON_AddBoolToObject(p, "scramble_buffers", j->scramble_buffers);
    /* scheduling */
    if (cpulist_count(j->cpus_allowed, JOB_CPUSET_WORDS)) {
        char list[1024];
        cpulist_format(j->cpus_allowed, JOB_CPUSET_WORDS, list, sizeof(list));
        cJSON_AddStringToObject(p, "cpus_allowed", list);
        cJSON_AddStringToObject(p, "cpus_allowed_policy", j->cpus_split ? "split" : "shared");
    }
    if (j->cpu_nodes)
        add_nodes(p, "numa_cpu_nodes", "", j->cpu_nodes);
    if (j->mem_policy) {
        static const char *const modes[] = {"", "default", "prefer", "bind", "interleave", "local"};
        char pre[32];
        snprintf(pre, sizeof(pre), "%s%s", modes[j->mem_policy], j->mem_nodes ? ":" : "");
        if (j->mem_nodes)
            add_nodes(p, "numa_mem_policy", pre, j->mem_nodes);
        else
            cJSON_AddStringToObject(p, "numa_mem_policy", pre);
    }
    if (j->nice)
        cJSON_AddNumberToObject(p, "nice", j->nice);
    if (j->ioprio >= 0)
        cJSON_AddNumberToObject(p, "prio", j->ioprio);
    if (j->ioprio_class >= 0)
        cJSON_AddNumberToObject(p, "prioclass", j->ioprio_class);
    /* measurement switches */
    if (j->no_lat)
        cJSON_AddBoolToObject(p, "disable_lat", true);
    if (j->no_clat)
        cJSON_AddBoolToObject(p, "disable_clat", true);
    if (j->no_bw)
        cJSON_AddBoolToObject(p, "disable_bw_measurement", true);
    if (j->lat_pct)
        cJSON_AddBoolToObject(p, "lat_percentiles", true);
    if (j->clat_pct_off)
        cJSON_AddBoolToObject(p, "clat_percentiles", false);
    if (j->slat_pct)
        cJSON_AddBoolToObject(p, "slat_percentiles", true);
}
