/* cluster.h - the ranks a run is spread over, as every floor sees them.
 *
 * One ssdbench process is one rank of a cluster: rank 0 of 1 when run
 * plainly, rank r of n under mpirun (the MPI build, src/mpi/, fills the same
 * table with MPI calls). Workloads and the runner speak only to this
 * interface: a barrier, a broadcast, element-wise sum/max/min reductions on
 * u64 and double arrays whose result every rank gets, a gather of one blob
 * per rank to rank 0, and an abort that ends every rank with a message.
 * The single-process table (cluster_single) does what those mean for one
 * rank, so the same code runs with or without MPI.
 *
 * Every call is collective: every rank makes the same calls in the same
 * order, or the job hangs (a watchdog in the MPI table aborts then). */
#ifndef SSDBENCH_BASE_CLUSTER_H
#define SSDBENCH_BASE_CLUSTER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CLUSTER_HOST_MAX 64

enum cluster_op { CLUSTER_SUM, CLUSTER_MAX, CLUSTER_MIN };

struct cluster;

struct cluster_ops {
    const char *name;                                   /* "single", "mpi" */
    int (*barrier)(struct cluster *c);
    /* root's len bytes at buf to every rank */
    int (*bcast)(struct cluster *c, void *buf, size_t len, unsigned root);
    /* buf[0..n) on every rank becomes op over all ranks, in place */
    int (*reduce_u64)(struct cluster *c, uint64_t *buf, size_t n, enum cluster_op op);
    int (*reduce_double)(struct cluster *c, double *buf, size_t n, enum cluster_op op);
    /* Every rank's blob to rank 0: on rank 0 *out is a malloc'ed array of
     * nranks blobs back to back and lens[nranks] their sizes (lens malloc'ed
     * too); other ranks get *out = NULL, *lens = NULL. */
    int (*gather)(struct cluster *c, const void *blob, size_t len, void **out, size_t **lens);
    /* Ends every rank of the job with status code after printing msg. */
    void (*abort)(struct cluster *c, int code, const char *msg);
};

struct cluster {
    const struct cluster_ops *ops;
    unsigned rank, nranks;
    unsigned localrank, localsize;      /* among the ranks on this host */
    unsigned hostindex, nhosts;         /* hosts numbered by their lowest rank */
    char host[CLUSTER_HOST_MAX];
    int errfd;                          /* where an abort says why: standard error as it
                                           was before a rank other than 0 was silenced */
    void *impl;                         /* the implementation's own state */
};

/* A one-rank cluster of this process (rank 0 of 1 on this host). */
void cluster_single(struct cluster *c);

static inline bool cluster_multi(const struct cluster *c)
{
    return c && c->nranks > 1;
}

/* The collective calls, on c (NULL: the single process). Return 0 or -errno. */
int cluster_barrier(struct cluster *c);
int cluster_bcast(struct cluster *c, void *buf, size_t len, unsigned root);
int cluster_reduce_u64(struct cluster *c, uint64_t *buf, size_t n, enum cluster_op op);
int cluster_reduce_double(struct cluster *c, double *buf, size_t n, enum cluster_op op);
int cluster_gather(struct cluster *c, const void *blob, size_t len, void **out, size_t **lens);
void cluster_abort(struct cluster *c, int code, const char *msg);

/* Rank 0's time (CLOCK_REALTIME ns, lead_ns from now) to every rank: the
 * agreed start of a phase. */
uint64_t cluster_agree_start(struct cluster *c, uint64_t lead_ns);

/* Sleeps until the CLOCK_REALTIME time t; returns how late (+) or early
 * (-) the wake-up was, in ns (the rank's start skew). */
int64_t cluster_sleep_until_wall(uint64_t t);

/* 64-bit FNV-1a of len bytes, chained from h (start with CLUSTER_HASH_INIT):
 * what ranks compare to agree they run the same plan. */
#define CLUSTER_HASH_INIT 0xcbf29ce484222325ull
uint64_t cluster_hash(uint64_t h, const void *p, size_t len);

/* True on every rank when every rank passed the same v (one reduction of
 * min and max); false on every rank otherwise. */
bool cluster_same_u64(struct cluster *c, uint64_t v);

/* Copies in to out (outlen bytes) replacing {rank}, {nranks}, {host},
 * {localrank}, {localsize}, {hostindex} and {nhosts} with c's values (c
 * NULL: the single process). Other braces are kept as they are. Returns the
 * length written, or -1 when it does not fit. */
int cluster_subst(const struct cluster *c, const char *in, char *out, size_t outlen);

/* True when s holds one of the names cluster_subst replaces. */
bool cluster_has_subst(const char *s);

#endif
