/* test_cluster.c - the cluster interface without MPI: {rank} substitution,
 * the single-process table, the plan hash, and the exact merge of interval
 * statistics over ranks (runner_cluster_merge) on a stand-in two-rank
 * cluster whose other rank holds the same figures, so the merge must equal
 * hist_merge of a histogram with itself, bucket for bucket. */
#include "check.h"

#include <stdint.h>

#include "base/cluster.h"
#include "runner/runner_cluster.h"
#include "stats/hist.h"
#include "workload/plan.h"
#include "workload/plan_subst.h"

/* a check whose message is its condition */
#define OK(cond) CHECK(cond, "%s", "")

static struct cluster fake(unsigned rank, unsigned n, const char *host)
{
    struct cluster c;
    cluster_single(&c);
    c.rank = rank;
    c.nranks = n;
    c.localrank = rank % 2;
    c.localsize = 2;
    c.hostindex = rank / 2;
    c.nhosts = (n + 1) / 2;
    snprintf(c.host, sizeof(c.host), "%s", host);
    return c;
}

TEST(subst_every_name)
{
    struct cluster c = fake(3, 4, "node7");
    char out[256];
    OK(cluster_subst(&c, "/mnt/f.{rank}-of-{nranks}@{host}:{localrank}/{localsize}/{hostindex}/{nhosts}",
                        out, sizeof(out)) > 0);
    OK(!strcmp(out, "/mnt/f.3-of-4@node7:1/2/1/2"));
}

TEST(subst_keeps_other_braces)
{
    struct cluster c = fake(1, 2, "h");
    char out[64];
    OK(cluster_subst(&c, "{x}{rank}{}{rank", out, sizeof(out)) > 0);
    OK(!strcmp(out, "{x}1{}{rank"));
    OK(cluster_has_subst("a{host}b"));
    OK(!cluster_has_subst("a{hostx}b{"));
}

TEST(subst_too_long_refused)
{
    struct cluster c = fake(12345, 20000, "averyveryverylonghostname");
    char out[16];
    OK(cluster_subst(&c, "{host}", out, sizeof(out)) == -1);
    OK(cluster_subst(&c, "0123456789abcdef", out, sizeof(out)) == -1);
    OK(cluster_subst(&c, "{rank}", out, sizeof(out)) == 5 && !strcmp(out, "12345"));
}

TEST(subst_null_is_single_process)
{
    char out[64];
    OK(cluster_subst(NULL, "f.{rank}.{nranks}.{localrank}", out, sizeof(out)) > 0);
    OK(!strcmp(out, "f.0.1.0"));
}

TEST(plan_subst_targets_and_logs)
{
    struct cluster c = fake(2, 4, "n1");
    struct job_spec j;
    memset(&j, 0, sizeof(j));
    snprintf(j.name, sizeof(j.name), "a");
    j.ntargets = 2;
    snprintf(j.targets[0], sizeof(j.targets[0]), "/dev/disk{localrank}");
    snprintf(j.targets[1], sizeof(j.targets[1]), "/plain");
    snprintf(j.lat_log, sizeof(j.lat_log), "lat.{host}.{rank}");
    char err[128];
    OK(plan_subst_jobs(&c, &j, 1, err, sizeof(err)) == 0);
    OK(!strcmp(j.targets[0], "/dev/disk0"));
    OK(!strcmp(j.targets[1], "/plain"));
    OK(!strcmp(j.lat_log, "lat.n1.2"));
}

TEST(single_process_table)
{
    struct cluster c;
    cluster_single(&c);
    OK(c.rank == 0 && c.nranks == 1 && c.localsize == 1 && c.nhosts == 1 && c.host[0]);
    OK(!cluster_multi(&c) && !cluster_multi(NULL));
    uint64_t v[3] = {1, 2, 3};
    OK(cluster_reduce_u64(&c, v, 3, CLUSTER_SUM) == 0 && v[0] == 1 && v[2] == 3);
    double d = 2.5;
    OK(cluster_reduce_double(&c, &d, 1, CLUSTER_MAX) == 0 && d == 2.5);
    OK(cluster_barrier(&c) == 0);
    int x = 7;
    OK(cluster_bcast(&c, &x, sizeof(x), 0) == 0 && x == 7);
    OK(cluster_bcast(&c, &x, sizeof(x), 1) < 0);
    void *all = NULL;
    size_t *lens = NULL;
    OK(cluster_gather(&c, "abc", 3, &all, &lens) == 0);
    OK(all && lens && lens[0] == 3 && !memcmp(all, "abc", 3));
    free(all);
    free(lens);
    OK(cluster_same_u64(&c, 42));
    char err[64];
    OK(runner_cluster_verdict(&c, -13, 0, err, sizeof(err)) == -13);
}

TEST(hash_sees_every_byte)
{
    uint64_t a = cluster_hash(CLUSTER_HASH_INIT, "run --bs=4k", 11);
    uint64_t b = cluster_hash(CLUSTER_HASH_INIT, "run --bs=8k", 11);
    uint64_t c = cluster_hash(CLUSTER_HASH_INIT, "run --bs=4k", 11);
    OK(a != b && a == c);
    /* argument boundaries count: "ab","c" is not "a","bc" */
    uint64_t x = cluster_hash(cluster_hash(CLUSTER_HASH_INIT, "ab", 3), "c", 2);
    uint64_t y = cluster_hash(cluster_hash(CLUSTER_HASH_INIT, "a", 2), "bc", 3);
    OK(x != y);
}

/* A two-rank stand-in: the other rank has the same numbers, so SUM doubles
 * every element and MIN/MAX keep it. */
static int twin_reduce_u64(struct cluster *c, uint64_t *buf, size_t n, enum cluster_op op)
{
    if (op == CLUSTER_SUM)
        for (size_t i = 0; i < n; i++)
            buf[i] *= 2;
    return 0;
}

TEST(merge_is_exact_hist_sum)
{
    struct cluster c = fake(0, 2, "h");
    struct cluster_ops ops = *c.ops;
    ops.reduce_u64 = twin_reduce_u64;
    c.ops = &ops;
    struct io_stats *s = calloc(2, sizeof(*s)), *want = calloc(2, sizeof(*want));
    OK(s && want);
    if (!s || !want)
        return;
    for (unsigned i = 0; i < 2; i++) {
        iostats_init(&s[i]);
        iostats_init(&want[i]);
    }
    uint64_t x = 88172645463325252ull;
    for (unsigned k = 0; k < 200000; k++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        uint64_t v = (x % 5000000) + (k % 97 == 0 ? (uint64_t)1 << 40 : 0);
        struct dir_stats *d = &s[k & 1].dir[(k >> 1) & 1];
        d->ios++;
        d->bytes += 4096;
        hist_add(&d->lat, v);
    }
    s[1].syncs = 5;
    hist_add(&s[1].sync_lat, 123456);
    for (unsigned i = 0; i < 2; i++) {
        iostats_merge(&want[i], &s[i]);
        iostats_merge(&want[i], &s[i]);
    }
    struct runner_reduce rb;
    memset(&rb, 0, sizeof(rb));
    OK(runner_cluster_merge(&c, &rb, s, 2) == 0);
    for (unsigned i = 0; i < 2; i++) {
        for (unsigned d = 0; d < 2; d++) {
            const struct hist *g = &s[i].dir[d].lat, *w = &want[i].dir[d].lat;
            OK(s[i].dir[d].ios == want[i].dir[d].ios && s[i].dir[d].bytes == want[i].dir[d].bytes);
            OK(g->n == w->n && g->sum == w->sum && g->sumsq == w->sumsq);
            OK(g->min == w->min && g->max == w->max);
            OK(!memcmp(g->counts, w->counts, sizeof(g->counts)));
            OK(!memcmp(g->ms_log2, w->ms_log2, sizeof(g->ms_log2)));
            OK(hist_percentile(g, 99.9) == hist_percentile(w, 99.9));
            OK(s[i].dir[d].slat.n == 0);
        }
    }
    OK(s[1].syncs == 10 && s[1].sync_lat.n == 2 && s[1].sync_lat.sum == 2 * 123456ull);
    /* the 128-bit sum of squares survives the limbs (values near 2^40 make it
     * larger than 64 bits) */
    OK((s[0].dir[0].lat.sumsq >> 64) != 0);
    runner_reduce_free(&rb);
    free(s);
    free(want);
}

CHECK_MAIN()
