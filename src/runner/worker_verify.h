/* worker_verify.h - a worker's verify state (jobs with verify=): what it
 * wrote last at each place of its region, the blocks waiting for a check as
 * you go (verify_backlog), and the check of a block read back. Used by
 * worker.c only; allocated once at setup, nothing per I/O.
 *
 * The written-block table has one entry per `unit` bytes of the worker's
 * region (unit = the gcd of the write sizes, blockalign and seq_hole): the
 * write sequence number and length of the block that starts there, 0 when
 * none does. A write replaces every block it overlaps (they can no longer be
 * checked whole, as fio drops overlapping entries of its log), so after any
 * mix of sizes, norandommap repeats and loops the table holds exactly the
 * last write of every place. The verify phase reads the table's blocks in
 * offset order.
 */
#ifndef SSDBENCH_WORKER_VERIFY_H
#define SSDBENCH_WORKER_VERIFY_H

#include "runner/runner_int.h"

#include "base/fio_taus.h"

/* wverify_rec.flags */
#define WV_CHECKED 1u      /* checked since written (by a backlog round) */
#define WV_TRIM_QUEUED 2u  /* waiting in the trim queue (trim_percentage) */
#define WV_TRIMMED 4u      /* trimmed: must read back as zeros (trim_verify_zero) */
#define WV_LOGGED 8u       /* in fio's log (trims on, or verify_backlog): written, not yet taken for reading back */
#define WV_INFLIGHT 16u    /* verify_backlog: its write is in flight (fio's IP_F_IN_FLIGHT) */

/* wverify.slot_kind: what a slot of the loop carries (verify_backlog) */
enum { WV_SLOT_NONE, WV_SLOT_WRITE, WV_SLOT_READBACK };

struct wverify_rec {
    uint64_t seq;      /* 0: no block starts here */
    uint32_t len;
    uint32_t flags;    /* WV_* */
};

struct wverify_pend {
    uint64_t idx, seq;
};

/* fio's trims of written blocks (trim_percentage, trim_backlog,
 * trim_backlog_batch, trim_verify_zero), kept as fio keeps them so that
 * the same job issues as many trims: each logged write draws from fio's
 * trim stream (seeded as fio seeds its thread) and joins the trim queue
 * with trim_percentage's chance; before each I/O of the loop, fio's
 * check_get_trim: a running batch takes the next queued block, else a new
 * batch starts when the log holds a multiple of trim_backlog blocks and
 * the last completion was not a read. `hist` is fio's io_hist_len (blocks
 * logged and not yet read back), `live` its trim_entries. The queue is a
 * ring of (index, sequence); entries whose block was overwritten or read
 * back since are stale and skipped (and squeezed out when it is full). */
struct wvtrim {
    struct fio_taus rng;
    uint64_t rng_seed;           /* fio seeds its streams again at every pass (randrepeat) */
    uint64_t thresh;             /* a draw at most this joins the queue */
    struct wverify_pend *q;
    uint64_t cap, head, len;
    uint64_t live, batch, hist;
    uint64_t vbatch;             /* fio's verify_batch (verify_backlog with trims on) */
    unsigned last_op;            /* fio's last_ddir: the last completion's direction (READ at first) */
};

/* verify_dump writes every bad block as read and as expected (fio's
 * NAME.OFFSET.received/.expected): the names of the last ("" when not
 * written) and how many could not be written */
struct wverify_dumped {
    char received[JOB_PATH_MAX + 48], expected[JOB_PATH_MAX + 48];
    unsigned failed;
};

struct wverify {
    uint64_t unit;
    uint64_t nrec;
    struct wverify_rec *rec;
    unsigned maxunits;           /* the longest write in units */
    uint64_t seq;                /* writes so far */
    bool read_only;              /* the job only reads: check each read against its own header */
    /* verify_backlog: the last writes not yet checked (a ring) */
    struct wverify_pend *fifo;
    uint64_t fifo_cap, fifo_head, fifo_len;
    uint64_t cursor;             /* verify phase: next table entry */
    /* loops: as fio, the written blocks are checked after every pass; the
     * first write of the next pass waits (held) until they are */
    unsigned pass_seen;          /* the generator's pass of the last recorded write */
    bool pass_due;               /* a pass ended: check before writing on */
    bool have_held;
    struct io_req held;          /* that first write (its place only; no buffer) */
    uint64_t roff;               /* region offset of the write prepare() made last */
    /* a file set (nrfiles): the table spans the worker's files one after
     * the other, file k's region from vbase[k] (k < nfiles; vbase[nfiles]
     * the end) */
    unsigned nfiles;
    uint64_t *vbase;
    uint64_t held_roff;
    struct wverify_pend *slot;   /* [depth]: the block each slot reads (or, verify_backlog, writes) */
    /* fio's order of its log: a random job with a random map keeps the
     * written blocks in a list (read back in write order: the ring above,
     * sized for the table), any other in a tree by offset (the table) */
    bool listed;
    /* verify_backlog without trims, as fio's check_get_verify before each
     * I/O of the loop: hist is fio's io_hist_len (blocks logged at their
     * write's issue and not yet taken), vbatch its verify_batch, last_op
     * its last_ddir; a block whose write is in flight is not taken yet */
    bool fio_backlog;
    uint64_t hist, vbatch;
    unsigned last_op;
    uint64_t lcursor;            /* the tree's lowest logged entry is at or after it */
    uint8_t *slot_kind;          /* [depth]: WV_SLOT_* */
    void *scratch;               /* the expected block, for reports and dumps */
    struct wvtrim *vt;           /* NULL: no trims of written blocks */
    struct wvasync *va;          /* verify_async's threads (worker_vasync.h); NULL: checks in the worker */
    struct wverify_dumped dumped; /* the worker's own checks */
    /* verify_state_load (worker_vstate.h): replay only the first state_writes writes */
    bool state_loaded;
    uint64_t state_writes;
    struct verify_stats st;
};

/* Resolves a job's verify settings as fio does (verify_interval from the
 * write sizes) and refuses what ssdbench cannot check (one line in err). */
int wverify_resolve_job(struct job_spec *j, uint64_t region_len, char *err, size_t errlen);
int wverify_setup(struct worker *w, char *err, size_t errlen);
/* fio keeps the job's written blocks in a list (read back in write order),
 * not a tree by offset: a random job with a random map */
bool wverify_job_listed(const struct job_spec *j);
void wverify_free(struct worker *w);

/* A write of the generator (region offset roff) staged in r: recorded, and
 * with fill, r->buf built. */
void wverify_write(struct worker *w, struct io_req *r, uint64_t roff, bool fill);
/* The len bytes at region offset roff are gone (a zone reset): the blocks
 * starting there are no longer checked. */
void wverify_forget(struct worker *w, uint64_t roff, uint64_t len);
/* writing waits for a check round (a pass ended, or verify_backlog with
 * trims on: without trims each I/O chooses for itself, as in fio) */
bool wverify_hold(const struct worker *w);
/* A file set: the table offset of offset off of file k's region. */
static inline uint64_t wverify_file_roff(const struct worker *w, unsigned k, uint64_t off)
{
    return w->vf->vbase[k] + off;
}
/* r, a write just prepared, starts a new pass that must wait for the check
 * of the last: its place is kept and true returned (r is not issued). */
bool wverify_pass_over(struct worker *w, const struct io_req *r);
/* After the check: the held write into r (true), if there is one. */
bool wverify_take_held(struct worker *w, struct io_req *r);
/* Next block to read back into r (backlog, trims on: the oldest of the
 * log, at most verify_backlog_batch a round; else the table); false when
 * none is left. */
bool wverify_next(struct worker *w, struct io_req *r, bool backlog);
void wverify_round_start(struct worker *w, bool backlog);
/* r (a read of wverify_next, or of a read-only job) completed whole:
 * checks it; false when bad. */
bool wverify_done(struct worker *w, struct io_req *r);
bool wverify_read_done(struct worker *w, struct io_req *r);

/* The check of a block read back in three parts, so that verify_async's
 * threads (worker_vasync.h) do the middle one: what is expected (the
 * worker, at the completion: it marks the block checked), the check
 * itself (any thread: reads the job and the buffer, writes only scratch
 * and *bad; a bad block's line in fio's words on stderr), and the counts
 * (the worker). */
enum wv_how { WV_HOW_DATA, WV_HOW_ZEROS, WV_HOW_PRETEND };
struct wverify_job {
    struct verify_expect e;
    uint8_t how;                 /* enum wv_how */
    bool readback;               /* a read of the table (else a read-only job's read) */
};
void wverify_expect(struct worker *w, const struct io_req *r, bool readback, struct wverify_job *vj);
bool wverify_check_block(const struct worker *w, struct io_req *r, const struct wverify_job *vj, void *scratch,
                         struct verify_bad *bad, struct wverify_dumped *d);
void wverify_account(struct worker *w, const struct io_req *r, bool good, const struct verify_bad *bad);
/* the job-local target of r */
unsigned wverify_target(const struct worker *w, const struct io_req *r);
/* fio's check_get_trim before an I/O of the loop (jobs with vf->vt): true
 * when a queued block is trimmed now, into r (r NULL: verify_only's
 * replay, nothing issued). */
bool wverify_trim_next(struct worker *w, struct io_req *r);
/* A backlog round read nothing (stopped, or no block to read): with trims
 * on, fio's batch ends and no new one starts before a non-read completes. */
void wverify_round_empty(struct worker *w);
/* Whether wverify_trim_next would trim now (no change of state). */
bool wverify_trim_due(const struct worker *w);
/* A completion (jobs with vf->vt, or verify_backlog): fio's last_ddir. */
static inline void wverify_completed_op(struct worker *w, unsigned op)
{
    if (op > IO_OP_TRIM)
        return;
    if (w->vf->vt)
        w->vf->vt->last_op = op;
    else
        w->vf->last_op = op;
}
/* verify_backlog without trims (vf->fio_backlog), before each I/O of the
 * loop: fio's check_get_verify; true when r is now a read of a logged block
 * (fio's get_next_verify: the oldest of its list, or the lowest offset of
 * its tree, once its write has completed). */
bool wverify_backlog_next(struct worker *w, struct io_req *r);
/* A completion of the loop of such a job: its write is no longer in
 * flight; true when r was a backlog read (to be checked). */
bool wverify_loop_done(struct worker *w, struct io_req *r);

#endif
