/* options_sched.c - setters of fio's scheduling and clock options:
 * cpus_allowed, cpumask, cpus_allowed_policy, numa_cpu_nodes, verify_async_cpus,
 * numa_mem_policy, nice, prio, prioclass, gtod_reduce and clocksource, with
 * fio 3.33's value forms and ranges (options.c). The worker applies them
 * (runner/worker_sched.c). */
#include "jobfile/options_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "base/cpulist.h"
#include "job/spec_parse.h"

/* fio's cpus_configured(): CPUs the system has, online or not */
static unsigned cpus_configured(void)
{
    long n = sysconf(_SC_NPROCESSORS_CONF);
    return n > 0 ? (unsigned)n : 1;
}

JOPT_SETTER(cpus_allowed)
{
    char msg[160];
    (void)o;
    if (cpulist_parse(v, c->job->cpus_allowed, JOB_CPUSET_WORDS, cpus_configured(), msg, sizeof(msg)) < 0)
        return jopt_fail(c, -EINVAL, "%s", msg);
    return 0;
}

/* fio's verify_async_cpus: cpus_allowed's list form, for the verify threads */
JOPT_SETTER(verify_async_cpus)
{
    char msg[160];
    (void)o;
    if (cpulist_parse(v, c->job->verify_async_cpus, JOB_CPUSET_WORDS, cpus_configured(), msg, sizeof(msg)) < 0)
        return jopt_fail(c, -EINVAL, "%s", msg);
    return 0;
}

/* fio: an int whose bit i allows CPU i (the low 32 bits) */
JOPT_SETTER(cpumask)
{
    (void)o;
    char *end;
    errno = 0;
    unsigned long long m = strtoull(v, &end, !strncasecmp(v, "0x", 2) ? 16 : 10);
    if (end == v || *end || errno || m > 0xffffffffull)
        return jopt_fail(c, -EINVAL, "value '%s' is not a CPU bit mask (a number up to 0xffffffff)", v);
    if (!m)
        return jopt_fail(c, -EINVAL, "empty mask '%s' (no CPU allowed)", v);
    unsigned ncpu = cpus_configured();
    for (unsigned i = 0; i < 32; i++)
        if (m >> i & 1 && i >= ncpu)
            return jopt_fail(c, -EINVAL, "CPU %u too large (this host has 0..%u)", i, ncpu - 1);
    memset(c->job->cpus_allowed, 0, sizeof(c->job->cpus_allowed));
    c->job->cpus_allowed[0] = m;
    return 0;
}

JOPT_SETTER(cpus_allowed_policy)
{
    (void)o;
    if (!strcasecmp(v, "shared") || !strcasecmp(v, "split")) {
        c->job->cpus_split = !strcasecmp(v, "split");
        return 0;
    }
    return jopt_fail(c, -EINVAL, "unknown value '%s' (expected shared or split)", v);
}

/* a node list, or "all" (the nodes online when the job runs) */
static int node_list(struct job_opt_ctx *c, const char *v, uint64_t *mask)
{
    char msg[160];
    if (!strcasecmp(v, "all")) {
        *mask = UINT64_MAX;
        return 0;
    }
    if (cpulist_parse(v, mask, 1, 64, msg, sizeof(msg)) < 0)
        return jopt_fail(c, -EINVAL, "%s", msg);
    return 0;
}

JOPT_SETTER(numa_cpu_nodes)
{
    (void)o;
    return node_list(c, v, &c->job->cpu_nodes);
}

/* fio: default, prefer:NODE, bind:NODES, interleave[:NODES] (all nodes
 * when none), local */
JOPT_SETTER(numa_mem_policy)
{
    static const char *const modes[] = {"default", "prefer", "bind", "interleave", "local"};
    (void)o;
    char buf[128];
    if (strlen(v) >= sizeof(buf))
        return jopt_fail(c, -EINVAL, "value is too long");
    strcpy(buf, v);
    char *list = strchr(buf, ':');
    if (list)
        *list++ = '\0';
    int mode = -1;
    for (int i = 0; i < 5; i++)
        if (!strcmp(buf, modes[i]))
            mode = i;
    if (mode < 0)
        return jopt_fail(c, -EINVAL, "unknown policy '%s' (expected default, prefer, bind, interleave or local)", buf);
    uint64_t nodes = 0;
    switch (mode + JOB_MPOL_DEFAULT) {
    case JOB_MPOL_DEFAULT:
    case JOB_MPOL_LOCAL:
        if (list)
            return jopt_fail(c, -EINVAL, "no node list for '%s'", buf);
        break;
    case JOB_MPOL_PREFER: {
        char *end;
        unsigned long n = list ? strtoul(list, &end, 10) : 0;
        if (!list || !*list || *end || n >= 64)
            return jopt_fail(c, -EINVAL, "'prefer' needs one node (prefer:N)");
        nodes = 1ull << n;
        break;
    }
    case JOB_MPOL_BIND:
        if (!list)
            return jopt_fail(c, -EINVAL, "'bind' needs a node list (bind:NODES)");
        /* fallthrough */
    case JOB_MPOL_INTERLEAVE: {
        int rc = node_list(c, list ? list : "all", &nodes);
        if (rc)
            return rc;
        break;
    }
    }
    c->job->mem_policy = mode + JOB_MPOL_DEFAULT;
    c->job->mem_nodes = nodes;
    return 0;
}

static int int_in(struct job_opt_ctx *c, const char *v, long lo, long hi, int *out)
{
    char *end;
    errno = 0;
    long n = strtol(v, &end, 10);
    if (end == v || *end || errno || n < lo || n > hi)
        return jopt_fail(c, -EINVAL, "value '%s' is out of range (allowed %ld..%ld)", v, lo, hi);
    *out = (int)n;
    return 0;
}

JOPT_SETTER(nice)
{
    (void)o;
    return int_in(c, v, -20, 19, &c->job->nice);
}

JOPT_SETTER(prio)
{
    (void)o;
    return int_in(c, v, 0, 7, &c->job->ioprio);
}

JOPT_SETTER(prioclass)
{
    (void)o;
    return int_in(c, v, 0, 3, &c->job->ioprio_class);
}

/* fio: gtod_reduce=1 turns off every latency and the percentiles; 0
 * leaves the settings alone */
JOPT_SETTER(gtod_reduce)
{
    bool b;
    (void)o;
    int rc = spec_parse_bool(v, &b, c->err, c->errlen);
    if (rc)
        return jopt_prefix(c, rc);
    if (b) {
        c->job->no_lat = c->job->no_clat = c->job->no_bw = true;
        c->job->slat = false;
        c->job->clat_pct_off = true;
        c->job->lat_pct = c->job->slat_pct = false;
    }
    return 0;
}

/* ssdbench times on CLOCK_MONOTONIC whatever is named (the worker's stamps
 * read it through the TSC when the kernel's clocksource is tsc, base/tsc_clock.h) */
JOPT_SETTER(clocksource)
{
    (void)o;
    if (!strcasecmp(v, "clock_gettime") || !strcasecmp(v, "gettimeofday") || !strcasecmp(v, "cpu"))
        return 0;
    return jopt_fail(c, -EINVAL, "unknown value '%s' (expected gettimeofday, clock_gettime or cpu)", v);
}
