/* quick.c - see quick.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "target/target.h"
#include "workload/quick.h"

int quick_pick_file(char *path, size_t len, uint64_t *size, char *err, size_t errlen)
{
    const char *dir = getenv("TMPDIR");
    if (!dir || !*dir || access(dir, W_OK) != 0)
        dir = ".";
    uint64_t free_bytes = target_fs_free(dir);
    uint64_t s = QUICK_DEFAULT_SIZE;
    if (free_bytes / 4 < s)
        s = (free_bytes / 4) & ~((1ull << 20) - 1);
    if (s < QUICK_MIN_SIZE) {
        snprintf(err, errlen, "%s: only %llu MiB free; the default test needs at least %llu MiB "
                 "(set TMPDIR to a roomier directory)", dir, (unsigned long long)(free_bytes >> 20),
                 (unsigned long long)(QUICK_MIN_SIZE * 4 >> 20));
        return -ENOSPC;
    }
    /* a new directory of ssdbench's own (mkdtemp: created, never found;
     * mode 0700), so whatever else is in dir is neither used nor removed */
    char d[4096];
    if ((size_t)snprintf(d, sizeof(d), "%s/ssdbench-default-%d.XXXXXX", dir, (int)getpid()) >= sizeof(d) ||
        (size_t)snprintf(path, len, "%s/" QUICK_FILE_NAME, d) >= len) {
        snprintf(err, errlen, "%s: path too long for the default test's file", dir);
        return -ENAMETOOLONG;
    }
    if (!mkdtemp(d)) {
        int e = errno;
        snprintf(err, errlen, "%s: cannot create the default test's directory: %s", dir, strerror(e));
        return -e;
    }
    snprintf(path, len, "%s/" QUICK_FILE_NAME, d);
    *size = s;
    return 0;
}

void quick_remove_file(const char *path)
{
    char d[4096];
    const char *slash = strrchr(path, '/');
    if (!slash || strcmp(slash + 1, QUICK_FILE_NAME) || (size_t)(slash - path) >= sizeof(d))
        return;
    memcpy(d, path, (size_t)(slash - path));
    d[slash - path] = 0;
    unlink(path);
    rmdir(d); /* only when empty: nothing but the test file is ever removed */
}

struct quick_test {
    const char *name;
    enum job_rw rw;
    uint32_t bs;
    unsigned depth;
};

static const struct quick_test quick_tests[] = {
    {"seq-read-128k-qd8", RW_READ, 128 << 10, 8},
    {"seq-write-128k-qd8", RW_WRITE, 128 << 10, 8},
    {"rand-read-4k-qd32", RW_RANDREAD, 4096, 32},
    {"rand-write-4k-qd32", RW_RANDWRITE, 4096, 32},
    {"rand-read-4k-qd1", RW_RANDREAD, 4096, 1},
    {"rand-write-4k-qd1", RW_RANDWRITE, 4096, 1},
};

int quick_plan(struct plan *p, const char *path, uint64_t size, uint64_t runtime_ns,
               uint64_t ramp_ns)
{
    for (unsigned i = 0; i < sizeof(quick_tests) / sizeof(quick_tests[0]); i++) {
        const struct quick_test *t = &quick_tests[i];
        struct job_spec j;
        job_defaults(&j);
        snprintf(j.name, sizeof(j.name), "%s", t->name);
        snprintf(j.targets[0], sizeof(j.targets[0]), "%s", path);
        j.ntargets = 1;
        j.rw = t->rw;
        j.pct_random = job_rw_is_random(t->rw) ? 100 : 0;
        for (int d = 0; d < DIR_COUNT; d++)
            j.bs[d].bs[0] = t->bs;
        j.iodepth = t->depth;
        j.file_size = size;
        j.runtime_ns = runtime_ns;
        j.ramp_ns = ramp_ns;
        j.time_based = true;
        j.seed = 1 + i;
        j.seed_set = true;
        if (!plan_add(p, t->name, "run", &j, 1))
            return -ENOMEM;
    }
    return 0;
}
