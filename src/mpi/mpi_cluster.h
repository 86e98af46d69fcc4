/* mpi_cluster.h - the cluster interface (base/cluster.h) on MPI. Built only
 * with `make MPI=1` (build-mpi/, mpicc) and included only by cli/main.c, so
 * the plain build needs no MPI headers.
 *
 * Collectives are MPI's non-blocking ones, waited for by polling, so a
 * stop signal is seen while a rank waits for the others: when the others
 * do not answer within MPI_CLUSTER_STOP_S of it, the job is aborted
 * (MPI_Abort) instead of hanging. A rank that dies (kill -9) is MPI's to
 * notice: mpirun then ends every other rank. */
#ifndef SSDBENCH_MPI_CLUSTER_H
#define SSDBENCH_MPI_CLUSTER_H

#include "base/cluster.h"

#define MPI_CLUSTER_STOP_S 5

/* MPI_Init and the rank, host and local rank of this process into c.
 * Returns 0, or -1 after printing why. */
int mpi_cluster_init(struct cluster *c, int *argc, char ***argv);

/* The end of the job: every rank's exit code is the highest of all ranks'.
 * A rank whose code is not 0 waits MPI_CLUSTER_STOP_S for the others to
 * end too, then aborts the job (its error stops every rank). Calls
 * MPI_Finalize; returns the code to exit with. */
int mpi_cluster_finish(struct cluster *c, int code);

#endif
