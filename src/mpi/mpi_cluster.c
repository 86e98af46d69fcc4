/* mpi_cluster.c - see mpi_cluster.h. */
#include <errno.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/clock.h"
#include "base/signal.h"
#include "mpi/mpi_cluster.h"

/* The implementation's state, behind cluster.impl. */
struct mpi_impl {
    MPI_Comm comm;       /* every collective of the run */
    MPI_Comm exitcomm;   /* the exit agreement only, so it never meets a run's collective */
};

static MPI_Comm comm_of(struct cluster *c)
{
    return ((struct mpi_impl *)c->impl)->comm;
}

/* Waits for rq, polling (20 us growing to 1 ms), so a stop signal is seen:
 * if the others have not answered MPI_CLUSTER_STOP_S after it, abort. */
static int wait_req(struct cluster *c, MPI_Request *rq, const char *what)
{
    uint64_t sig_at = 0;
    long sl = 20000;
    for (;;) {
        int done = 0;
        if (MPI_Test(rq, &done, MPI_STATUS_IGNORE) != MPI_SUCCESS)
            return -EIO;
        if (done)
            return 0;
        if (signal_received()) {
            uint64_t now = clock_ns();
            if (!sig_at)
                sig_at = now;
            else if (now - sig_at > (uint64_t)MPI_CLUSTER_STOP_S * 1000000000ull) {
                char msg[160];
                snprintf(msg, sizeof(msg), "rank %u (host %s): stopped by %s while waiting for the other "
                         "ranks (%s); aborting the job", c->rank, c->host, signal_name(signal_received()), what);
                c->ops->abort(c, 128 + signal_received(), msg);
            }
        }
        struct timespec ts = {0, sl};
        nanosleep(&ts, NULL);
        if (sl < 1000000)
            sl *= 2;
    }
}

static int m_barrier(struct cluster *c)
{
    MPI_Request rq;
    if (MPI_Ibarrier(comm_of(c), &rq) != MPI_SUCCESS)
        return -EIO;
    return wait_req(c, &rq, "barrier");
}

static int m_bcast(struct cluster *c, void *buf, size_t len, unsigned root)
{
    MPI_Request rq;
    if (len > INT32_MAX || MPI_Ibcast(buf, (int)len, MPI_BYTE, (int)root, comm_of(c), &rq) != MPI_SUCCESS)
        return -EIO;
    return wait_req(c, &rq, "broadcast");
}

static MPI_Op op_of(enum cluster_op op)
{
    return op == CLUSTER_SUM ? MPI_SUM : op == CLUSTER_MAX ? MPI_MAX : MPI_MIN;
}

static int reduce(struct cluster *c, void *buf, size_t n, MPI_Datatype t, enum cluster_op op)
{
    MPI_Request rq;
    if (n > INT32_MAX || MPI_Iallreduce(MPI_IN_PLACE, buf, (int)n, t, op_of(op), comm_of(c), &rq) != MPI_SUCCESS)
        return -EIO;
    return wait_req(c, &rq, "reduction");
}

static int m_reduce_u64(struct cluster *c, uint64_t *buf, size_t n, enum cluster_op op)
{
    return reduce(c, buf, n, MPI_UINT64_T, op);
}

static int m_reduce_double(struct cluster *c, double *buf, size_t n, enum cluster_op op)
{
    return reduce(c, buf, n, MPI_DOUBLE, op);
}

static int m_gather(struct cluster *c, const void *blob, size_t len, void **out, size_t **lens)
{
    *out = NULL;
    *lens = NULL;
    int mine = len > INT32_MAX ? -1 : (int)len;
    int *counts = NULL, *displs = NULL;
    if (c->rank == 0) {
        counts = calloc(c->nranks, sizeof(int));
        displs = calloc(c->nranks, sizeof(int));
        if (!counts || !displs)
            c->ops->abort(c, 1, "out of memory gathering the ranks' results");
    }
    MPI_Request rq;
    if (MPI_Igather(&mine, 1, MPI_INT, counts, 1, MPI_INT, 0, comm_of(c), &rq) != MPI_SUCCESS ||
        wait_req(c, &rq, "gather") < 0)
        return -EIO;
    char *all = NULL;
    if (c->rank == 0) {
        size_t total = 0;
        for (unsigned r = 0; r < c->nranks; r++) {
            if (counts[r] < 0 || total + (size_t)counts[r] > INT32_MAX)
                c->ops->abort(c, 1, "a rank's result is too large to gather");
            displs[r] = (int)total;
            total += (size_t)counts[r];
        }
        all = malloc(total ? total : 1);
        *lens = malloc(c->nranks * sizeof(size_t));
        if (!all || !*lens)
            c->ops->abort(c, 1, "out of memory gathering the ranks' results");
        for (unsigned r = 0; r < c->nranks; r++)
            (*lens)[r] = (size_t)counts[r];
    }
    if (MPI_Igatherv(blob, mine, MPI_BYTE, all, counts, displs, MPI_BYTE, 0, comm_of(c), &rq) != MPI_SUCCESS ||
        wait_req(c, &rq, "gather") < 0) {
        free(all);
        free(counts);
        free(displs);
        return -EIO;
    }
    free(counts);
    free(displs);
    *out = all;
    return 0;
}

static void m_abort(struct cluster *c, int code, const char *msg)
{
    fflush(stderr);
    if (msg && *msg)
        dprintf(c->errfd, "ssdbench: %s\n", msg);
    MPI_Abort(MPI_COMM_WORLD, code ? code : 1);
    _exit(code ? code : 1);
}

static const struct cluster_ops mpi_ops = {
    .name = "mpi",
    .barrier = m_barrier,
    .bcast = m_bcast,
    .reduce_u64 = m_reduce_u64,
    .reduce_double = m_reduce_double,
    .gather = m_gather,
    .abort = m_abort,
};

int mpi_cluster_init(struct cluster *c, int *argc, char ***argv)
{
    cluster_single(c);
    if (MPI_Init(argc, argv) != MPI_SUCCESS) {
        fprintf(stderr, "ssdbench: MPI_Init failed\n");
        return -1;
    }
    struct mpi_impl *m = calloc(1, sizeof(*m));
    if (!m) {
        fprintf(stderr, "ssdbench: out of memory\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
        return -1;
    }
    MPI_Comm_dup(MPI_COMM_WORLD, &m->comm);
    MPI_Comm_dup(MPI_COMM_WORLD, &m->exitcomm);
    int r, n, lr, ln, hi, nh;
    MPI_Comm_rank(m->comm, &r);
    MPI_Comm_size(m->comm, &n);
    /* the ranks sharing this host's memory are its local ranks */
    MPI_Comm local, leaders;
    MPI_Comm_split_type(m->comm, MPI_COMM_TYPE_SHARED, r, MPI_INFO_NULL, &local);
    MPI_Comm_rank(local, &lr);
    MPI_Comm_size(local, &ln);
    /* hosts numbered by their lowest rank: the local rank 0s in rank order */
    MPI_Comm_split(m->comm, lr == 0 ? 0 : MPI_UNDEFINED, r, &leaders);
    if (lr == 0) {
        MPI_Comm_rank(leaders, &hi);
        MPI_Comm_size(leaders, &nh);
        MPI_Comm_free(&leaders);
    }
    MPI_Bcast(&hi, 1, MPI_INT, 0, local);
    MPI_Bcast(&nh, 1, MPI_INT, 0, local);
    MPI_Comm_free(&local);
    c->ops = &mpi_ops;
    c->impl = m;
    c->rank = (unsigned)r;
    c->nranks = (unsigned)n;
    c->localrank = (unsigned)lr;
    c->localsize = (unsigned)ln;
    c->hostindex = (unsigned)hi;
    c->nhosts = (unsigned)nh;
    return 0;
}

int mpi_cluster_finish(struct cluster *c, int code)
{
    struct mpi_impl *m = c->impl;
    fflush(stdout);
    fflush(stderr);
    int all = code;
    MPI_Request rq;
    MPI_Iallreduce(&code, &all, 1, MPI_INT, MPI_MAX, m->exitcomm, &rq);
    uint64_t t0 = clock_ns();
    for (;;) {
        int done = 0;
        MPI_Test(&rq, &done, MPI_STATUS_IGNORE);
        if (done)
            break;
        if (code != 0 && clock_ns() - t0 > (uint64_t)MPI_CLUSTER_STOP_S * 1000000000ull) {
            char msg[200];
            snprintf(msg, sizeof(msg), "rank %u (host %s) ended with exit code %d; stopping every rank",
                     c->rank, c->host, code);
            m_abort(c, code, msg);
        }
        struct timespec ts = {0, 1000000};
        nanosleep(&ts, NULL);
    }
    MPI_Comm_free(&m->comm);
    MPI_Comm_free(&m->exitcomm);
    free(m);
    MPI_Finalize();
    return all;
}
