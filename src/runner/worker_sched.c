/* worker_sched.c - scheduling options of a worker thread (see
 * worker_sched.h), in fio 3.33's order (backend.c thread_main): CPU set,
 * NUMA, I/O priority, nice. */
#include "runner/worker_sched.h"

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "base/cpulist.h"
#include "base/sysfs_attr.h"
#include "runner/runner_int.h"

#define NODE_DIR "/sys/devices/system/node"

/* the kernel's MPOL_* and MPOL_MF_MOVE (linux/mempolicy.h) */
enum { K_MPOL_DEFAULT, K_MPOL_PREFERRED, K_MPOL_BIND, K_MPOL_INTERLEAVE, K_MPOL_LOCAL };
#define K_MPOL_MF_MOVE 2
#define IOPRIO_WHO_PROCESS 1
#define IOPRIO_CLASS_SHIFT 13
#define IOPRIO_CLASS_BE 2

/* "all": the nodes online now */
static int nodes_resolve(uint64_t want, uint64_t *out, char *err, size_t errlen, const char *opt)
{
    if (want != UINT64_MAX) {
        *out = want;
        return 0;
    }
    char line[256], msg[128];
    if (!sysfs_attr(NODE_DIR, "online", line, sizeof(line)) || cpulist_parse(line, out, 1, 64, msg, sizeof(msg)) < 0)
        return snprintf(err, errlen, "%s=all: cannot read %s/online", opt, NODE_DIR), -ENOENT;
    return 0;
}

/* The CPUs of the nodes in mask, from their cpulist files. */
static int node_cpus(uint64_t nodes, uint64_t *cpus, char *err, size_t errlen)
{
    memset(cpus, 0, JOB_CPUSET_WORDS * sizeof(*cpus));
    for (unsigned n = 0; n < 64; n++) {
        if (!(nodes >> n & 1))
            continue;
        char dir[64], line[1024], msg[128];
        uint64_t one[JOB_CPUSET_WORDS];
        snprintf(dir, sizeof(dir), NODE_DIR "/node%u", n);
        if (!sysfs_attr(dir, "cpulist", line, sizeof(line)))
            return snprintf(err, errlen, "numa_cpu_nodes: node %u does not exist (%s/cpulist)", n, dir), -ENOENT;
        if (!line[0])
            continue; /* a node without CPUs */
        if (cpulist_parse(line, one, JOB_CPUSET_WORDS, JOB_CPUSET_WORDS * 64, msg, sizeof(msg)) < 0)
            return snprintf(err, errlen, "numa_cpu_nodes: %s/cpulist: %s", dir, msg), -EINVAL;
        for (unsigned i = 0; i < JOB_CPUSET_WORDS; i++)
            cpus[i] |= one[i];
    }
    if (!cpulist_count(cpus, JOB_CPUSET_WORDS))
        return snprintf(err, errlen, "numa_cpu_nodes: the nodes have no CPUs"), -EINVAL;
    return 0;
}

static int set_cpus(struct worker *w, char *err, size_t errlen)
{
    const struct job_spec *j = w->job;
    uint64_t mask[JOB_CPUSET_WORDS];
    memcpy(mask, j->cpus_allowed, sizeof(mask));
    const char *opt = "cpus_allowed";
    unsigned n = cpulist_count(mask, JOB_CPUSET_WORDS);
    if (n && j->cpus_split) {
        /* fio's fio_cpus_split: thread number (here the worker's place in
         * the phase) modulo the CPUs in the set picks one */
        unsigned want = (unsigned)(w - w->run->workers) % n, seen = 0;
        for (unsigned c = 0; c < JOB_CPUSET_WORDS * 64; c++)
            if (cpulist_has(mask, c) && seen++ != want)
                mask[c / 64] &= ~(1ull << (c % 64));
    }
    if (j->cpu_nodes) {
        /* fio: numa_run_on_node_mask after the cpumask, so the nodes win */
        uint64_t nodes;
        int rc = nodes_resolve(j->cpu_nodes, &nodes, err, errlen, "numa_cpu_nodes");
        if (rc || (rc = node_cpus(nodes, mask, err, errlen)))
            return rc;
        opt = "numa_cpu_nodes";
        n = 1;
    }
    if (!n)
        return 0;
    cpu_set_t set;
    CPU_ZERO(&set);
    for (unsigned c = 0; c < JOB_CPUSET_WORDS * 64 && c < CPU_SETSIZE; c++)
        if (cpulist_has(mask, c))
            CPU_SET(c, &set);
    if (sched_setaffinity(0, sizeof(set), &set) < 0) {
        int e = errno;
        char list[256];
        cpulist_format(mask, JOB_CPUSET_WORDS, list, sizeof(list));
        return snprintf(err, errlen, "%s: cannot run on CPUs %s: %s", opt, list, strerror(e)), -e;
    }
    return 0;
}

static int set_mem(struct worker *w, char *err, size_t errlen)
{
    const struct job_spec *j = w->job;
    if (!j->mem_policy)
        return 0;
    static const int kmode[] = {[JOB_MPOL_DEFAULT] = K_MPOL_DEFAULT, [JOB_MPOL_PREFER] = K_MPOL_PREFERRED,
                                [JOB_MPOL_BIND] = K_MPOL_BIND, [JOB_MPOL_INTERLEAVE] = K_MPOL_INTERLEAVE,
                                [JOB_MPOL_LOCAL] = K_MPOL_LOCAL};
    int mode = kmode[j->mem_policy];
    unsigned long nodes = 0;
    if (j->mem_nodes) {
        uint64_t m;
        int rc = nodes_resolve(j->mem_nodes, &m, err, errlen, "numa_mem_policy");
        if (rc)
            return rc;
        nodes = (unsigned long)m;
    }
    /* maxnode counts one more than the bits the kernel reads */
    const unsigned long *nm = nodes ? &nodes : NULL;
    unsigned long maxnode = nodes ? 65 : 0;
    if (syscall(SYS_set_mempolicy, mode, nm, maxnode) < 0) {
        int e = errno;
        return snprintf(err, errlen, "numa_mem_policy: set_mempolicy: %s (nodes not online?)", strerror(e)), -e;
    }
    /* the buffers were placed at setup: move them under the policy */
    if (w->bufmem && syscall(SYS_mbind, w->bufmem, w->bufsize * w->depth, mode, nm, maxnode, K_MPOL_MF_MOVE) < 0) {
        int e = errno;
        return snprintf(err, errlen, "numa_mem_policy: mbind of the I/O buffers: %s", strerror(e)), -e;
    }
    return 0;
}

static int set_prio(struct worker *w, char *err, size_t errlen)
{
    const struct job_spec *j = w->job;
    if (j->ioprio < 0 && j->ioprio_class < 0)
        return 0;
    /* fio's ioprio_value: no class (or 0) is best effort, no level is 0 */
    int cls = j->ioprio_class > 0 ? j->ioprio_class : IOPRIO_CLASS_BE;
    int lvl = j->ioprio >= 0 ? j->ioprio : 0;
    if (syscall(SYS_ioprio_set, IOPRIO_WHO_PROCESS, 0, cls << IOPRIO_CLASS_SHIFT | lvl) < 0) {
        int e = errno;
        return snprintf(err, errlen, "prio/prioclass: ioprio_set class %d level %d: %s", cls, lvl, strerror(e)), -e;
    }
    return 0;
}

static int set_nice(struct worker *w, char *err, size_t errlen)
{
    if (!w->job->nice)
        return 0;
    /* fio calls nice(): relative to the thread's current value */
    id_t tid = (id_t)syscall(SYS_gettid);
    errno = 0;
    int cur = getpriority(PRIO_PROCESS, tid);
    if (cur == -1 && errno)
        cur = 0;
    int v = cur + w->job->nice;
    v = v < -20 ? -20 : v > 19 ? 19 : v;
    if (setpriority(PRIO_PROCESS, tid, v) < 0) {
        int e = errno;
        return snprintf(err, errlen, "nice: cannot set %d: %s", v, strerror(e)), -e;
    }
    return 0;
}

int wsched_apply(struct worker *w, char *err, size_t errlen)
{
    int rc;
    if ((rc = set_cpus(w, err, errlen)) || (rc = set_mem(w, err, errlen)) || (rc = set_prio(w, err, errlen)) ||
        (rc = set_nice(w, err, errlen)))
        return rc;
    return 0;
}
