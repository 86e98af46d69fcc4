/* runner_mem.c - see runner_mem.h. */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "job/randmap.h"
#include "base/sizefmt.h"
#include "runner/runner_int.h"
#include "runner/runner_mem.h"
#include "runner/worker_verify.h"

/* a + b, or UINT64_MAX when it does not fit */
static uint64_t add(uint64_t a, uint64_t b)
{
    return a + b < a ? UINT64_MAX : a + b;
}

static uint64_t mul(uint64_t a, uint64_t b)
{
    return a && b > UINT64_MAX / a ? UINT64_MAX : a * b;
}

static uint64_t stack_size(void)
{
    pthread_attr_t a;
    size_t s = 8u << 20;
    if (pthread_getattr_default_np(&a) == 0) {
        pthread_attr_getstacksize(&a, &s);
        pthread_attr_destroy(&a);
    }
    return s;
}

void runner_mem_need(const struct job_spec *jobs, unsigned njobs, const uint64_t *region_len,
                     struct runner_mem *m)
{
    memset(m, 0, sizeof(*m));
    uint64_t stack = stack_size();
    uint64_t collector = mul((uint64_t)njobs * 3 + 2, sizeof(struct io_stats));
    m->resident = collector;
    for (unsigned j = 0; j < njobs; j++) {
        const struct job_spec *jb = &jobs[j];
        const struct engine_ops *ops = engine_lookup(jb->engine);
        uint64_t nt = ops && !ops->needs_files ? 1 : jb->ntargets ? jb->ntargets : 1;
        bool jbod = jb->layout == LAYOUT_JBOD || (nt <= 1 && jb->layout != LAYOUT_FILES);
        uint64_t clones = jb->numjobs ? jb->numjobs : 1;
        uint64_t workers = mul(clones, jbod ? nt : 1);
        uint64_t touch = jbod ? 1 : nt;
        uint64_t depth = jb->iodepth ? jb->iodepth : 1;
        if (ops && ops->max_depth && depth > ops->max_depth)
            depth = ops->max_depth;
        uint64_t bufsize = ((uint64_t)job_bs_max(jb) + 4095) & ~(uint64_t)4095;
        uint64_t bufs = mul(depth, bufsize);
        uint64_t slots = mul(depth, sizeof(struct io_req) + sizeof(struct io_req *) * 2 + sizeof(struct iovec));
        uint64_t stats = mul(touch, mul(WORKER_RING + 1, sizeof(struct io_stats)) +
                                        (uint64_t)WORKER_LITE * sizeof(struct lite_counts));
        uint64_t region = region_len && region_len[j] ? region_len[j] : jb->size;
        uint64_t map = 0, vtab = 0;
        if (region && gen_map_choice(jb, NULL) == GEN_MAP_BITMAP)
            map = randmap_bytes(region / job_bs_min(jb));
        if (region && jb->verify != VERIFY_OFF) {
            uint64_t nrec = region / job_bs_min(jb) + 1;
            vtab = mul(nrec, sizeof(struct wverify_rec));
            /* the ring of written blocks (verify_backlog, or fio's list
             * order), the size of the table; trims of written blocks:
             * their queue too */
            bool trims = jb->trim_percentage && jb->trim_backlog && jb->do_verify;
            unsigned rings = (jb->verify_backlog || wverify_job_listed(jb)) + trims;
            vtab = add(vtab, mul(mul(nrec + 1, sizeof(struct wverify_pend)), rings));
        }
        uint64_t per_worker = add(add(add(bufs, slots), add(stats, map)), vtab);
        if (jb->verify != VERIFY_OFF) /* per slot, the expected block, verify_async's own ones */
            per_worker = add(per_worker, mul(depth, 64) + mul(1 + (uint64_t)jb->verify_async, bufsize));
        if (jb->source)
            per_worker = add(per_worker, sizeof(struct hist));
        /* per job: totals and per-target statistics, per-clone blocks */
        uint64_t job = add(mul(workers, per_worker), mul(add(nt, workers), sizeof(struct io_stats)));
        job = add(job, mul(workers, sizeof(struct worker) + sizeof(struct worker_usage) + 64));
        m->resident = add(m->resident, job);
        m->address = add(m->address, mul(workers, stack));
        if (job > m->big_bytes) {
            m->big_job = j;
            m->big_bytes = job;
            m->big_workers = workers;
            m->big_depth = depth;
            m->big_bufsize = bufsize;
        }
    }
    m->address = add(m->address, m->resident);
}

/* MemAvailable in bytes, or 0 when unknown. */
static uint64_t mem_available(void)
{
    FILE *f = fopen("/proc/meminfo", "re");
    if (!f)
        return 0;
    char line[128];
    unsigned long long kb = 0;
    while (fgets(line, sizeof(line), f))
        if (sscanf(line, "MemAvailable: %llu kB", &kb) == 1)
            break;
    fclose(f);
    return (uint64_t)kb * 1024;
}

/* The address space this process maps already (VmSize). */
static uint64_t mapped_now(void)
{
    FILE *f = fopen("/proc/self/statm", "re");
    unsigned long long pages = 0;
    if (f) {
        if (fscanf(f, "%llu", &pages) != 1)
            pages = 0;
        fclose(f);
    }
    return (uint64_t)pages * (uint64_t)sysconf(_SC_PAGESIZE);
}

static void human(uint64_t v, char *buf, size_t len)
{
    sizefmt_binary(buf, len, (double)v, "B");
}

int runner_mem_check(const struct job_spec *jobs, unsigned njobs, const uint64_t *region_len, char *err,
                     size_t errlen)
{
    struct runner_mem m;
    runner_mem_need(jobs, njobs, region_len, &m);
    uint64_t avail = mem_available();
    struct rlimit rl;
    uint64_t as_left = UINT64_MAX;
    if (getrlimit(RLIMIT_AS, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY) {
        uint64_t now = mapped_now();
        as_left = rl.rlim_cur > now ? rl.rlim_cur - now : 0;
    }
    const char *limit = NULL;
    uint64_t have = 0, need = 0;
    if (avail && m.resident > avail) {
        limit = "MemAvailable";
        have = avail;
        need = m.resident;
    } else if (m.address > as_left) {
        limit = "the address-space limit (RLIMIT_AS, less what is mapped already)";
        have = as_left;
        need = m.address;
    }
    if (!limit)
        return 0;
    char a[32], b[32], c[32];
    uint64_t bufs = mul(m.big_workers, mul(m.big_depth, m.big_bufsize));
    human(bufs, a, sizeof(a));
    human(need, b, sizeof(b));
    human(have, c, sizeof(c));
    snprintf(err, errlen,
             "job '%s': %" PRIu64 " workers x iodepth %" PRIu64 " x %" PRIu64 " bytes = %s of I/O buffers; "
             "the phase needs %s (%" PRIu64 " bytes), more than %s %s (%" PRIu64 " bytes); lower numjobs, "
             "iodepth or bs",
             jobs[m.big_job].name, m.big_workers, m.big_depth, m.big_bufsize, a, b, need, limit, c, have);
    return -ENOMEM;
}

int runner_mem_check_phase(const struct job_spec *jobs, unsigned njobs, const struct job_setup *setups,
                           char *err, size_t errlen)
{
    uint64_t *reg = calloc(njobs ? njobs : 1, sizeof(*reg));
    if (!reg) {
        snprintf(err, errlen, "out of memory");
        return -ENOMEM;
    }
    for (unsigned j = 0; j < njobs; j++)
        reg[j] = setups[j].region_len;
    int rc = runner_mem_check(jobs, njobs, reg, err, errlen);
    free(reg);
    return rc;
}
