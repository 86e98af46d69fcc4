/* worker_buf.h - fio's write-buffer contents in the worker: buffer_pattern,
 * fio's compressible layout (buffer_compress_percentage with
 * buffer_compress_chunk), dedupe_percentage and scramble_buffers, as fio
 * 3.33's io_u.c fill_io_buffer and small_content_scramble make them.
 *
 * Buffers are filled once when the worker is set up; per write only a
 * refill (refill_buffers, implied by compression and dedupe) or a scramble
 * runs, both in place, without allocating. Jobs that use none of these
 * options keep the plain fills of worker.c (random, zero, ssdbench's
 * compressible:PCT). Verify jobs write verify's data over the buffer, as
 * fio does.
 */
#ifndef SSDBENCH_WORKER_BUF_H
#define SSDBENCH_WORKER_BUF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/rng.h"
#include "job/job.h"

struct worker;
struct io_req;

/* dedupe_percentage's state: the seed of the last unique buffer; in
 * working_set mode the unique buffers' seeds are derived from ws_base and
 * a counter (buffer i: splitmix of ws_base + i), so the set of the first
 * ws_n unique buffers is known without storing it, and a duplicate draws
 * its index from ws_idx (fio's dedupe_working_set_index_state). */
struct wbuf_state {
    uint64_t prev_seed;
    uint64_t ws_base, ws_next, ws_n;
    struct rng ws_idx;
    /* dedupe_global (fio's init_global_dedupe_working_set_seeds): this
     * worker is participant g_idx of g_n, each participant's unique
     * buffers derive from g_seed and its index, and entry i of the set is
     * participant (g_idx + i / g_per)'s unique buffer i % g_per */
    bool global;
    unsigned g_idx, g_n;
    uint64_t g_seed, g_per;
};

/* The phase-wide part of dedupe_global's state, set by the runner before
 * the worker's set-up: participant idx of n, from seed. */
void wbuf_global(struct worker *w, unsigned idx, unsigned n, uint64_t seed);

/* Does the job's data come from this module (a pattern, fio's compression
 * layout or dedupe) rather than worker.c's plain fills? */
static inline bool wbuf_active(const struct job_spec *j)
{
    return j->buf_pattern_len || j->compress_fio || j->dedupe_pct;
}

/* fio's rule for scrambling a write: random buffers that are neither
 * refilled nor verified. */
static inline bool wbuf_scrambles(const struct job_spec *j)
{
    return j->scramble_buffers && !j->refill_buffers && j->buffer == BUF_RANDOM && !wbuf_active(j) &&
           j->verify == VERIFY_OFF;
}

/* At setup (wbuf_active jobs): every slot buffer filled. */
void wbuf_setup(struct worker *w);
/* Fills len bytes at buf with the job's contents (fio's fill_io_buffer). */
void wbuf_fill(struct worker *w, void *buf, size_t len);
/* fio's small_content_scramble: into every 512 B block of the write, its
 * offset (8 bytes, at one of the block's eight 64-byte lines, chosen by
 * the time and offset) and the time stamp (seconds and nanoseconds at
 * bytes 48..63). */
void wbuf_scramble(struct io_req *r, uint64_t now_ns);

#endif
