/* worker_vasync.h - fio's verify_async=N: N threads per worker that check
 * the completed reads of a verify job while the worker goes on issuing,
 * pinned to verify_async_cpus when it is given (fio's verify_async_thread).
 *
 * The worker, at a read's completion, works out what the block must hold
 * (wverify_expect: the table is the worker's) and hands the read over
 * (wvasync_hand); its slot stays out of the free list until a thread has
 * checked it, as fio returns the io_u only after the asynchronous check.
 * A thread runs the check (wverify_check_block: fio's lines for a bad
 * block, and its verify_dump), in a scratch buffer of its own; the worker takes the checked reads back (wvasync_take) and counts
 * them as a check in the worker would, so counts, errors, verify_fatal and
 * the result are those of the synchronous check. Two rings of the worker's
 * depth, a mutex and two condition variables, all made at start; nothing
 * per I/O. The threads are started by the worker thread (so they inherit
 * its scheduling unless verify_async_cpus moves them) and joined by
 * wvasync_stop after its loop, whichever way the loop ended. */
#ifndef SSDBENCH_WORKER_VASYNC_H
#define SSDBENCH_WORKER_VASYNC_H

#include "runner/worker_verify.h"

struct wvasync;

/* The worker's verify threads (w->vf->va); 0, or -errno with one line in
 * err (nothing is left running then). */
int wvasync_start(struct worker *w, char *err, size_t errlen);
/* Ends and joins the threads (every read handed over is taken back first
 * by the caller, or dropped), frees them. */
void wvasync_stop(struct worker *w);
/* r, a read of a verify job that completed whole: to be checked. */
void wvasync_hand(struct worker *w, struct io_req *r, bool readback);
/* Reads handed over and not yet taken back. */
unsigned wvasync_out(const struct worker *w);
/* A checked read into *r (true) and its verdict in *good; with wait,
 * waits for one while any is out. */
bool wvasync_take(struct worker *w, bool wait, struct io_req **r, bool *good);

#endif
