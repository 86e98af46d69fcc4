/* worker_buf.c - fio's write-buffer contents (see worker_buf.h). */
#include "runner/worker_buf.h"

#include <string.h>

#include "base/buf_pattern.h"
#include "base/rng.h"
#include "runner/runner_int.h"

static void fill_random(struct rng *r, uint8_t *p, size_t len)
{
    size_t i = 0;
    for (; i + 8 <= len; i += 8) {
        uint64_t v = rng_next(r);
        memcpy(p + i, &v, 8);
    }
    if (i < len) {
        uint64_t v = rng_next(r);
        memcpy(p + i, &v, len - i);
    }
}

/* The seed of unique buffer i in working_set mode. */
static uint64_t ws_seed(const struct wbuf_state *wb, uint64_t i)
{
    uint64_t x = wb->ws_base + i * 0x9e3779b97f4a7c15ull;
    return rng_splitmix(&x);
}

/* dedupe_global: the base of participant k's unique buffers */
static uint64_t g_base(const struct wbuf_state *wb, unsigned k)
{
    uint64_t x = wb->g_seed ^ (0xd1b54a32d192ed03ull * (k + 1));
    return rng_splitmix(&x);
}

/* Entry i of the working set: the worker's own unique buffer i, or with
 * dedupe_global fio's rotation over the participants */
static uint64_t ws_entry(const struct wbuf_state *wb, uint64_t i)
{
    if (!wb->global)
        return ws_seed(wb, i);
    struct wbuf_state o = *wb;
    o.ws_base = g_base(wb, (unsigned)((wb->g_idx + i / wb->g_per) % wb->g_n));
    return ws_seed(&o, i % wb->g_per);
}

void wbuf_global(struct worker *w, unsigned idx, unsigned n, uint64_t seed)
{
    w->wb.global = n > 0;
    w->wb.g_idx = idx;
    w->wb.g_n = n;
    w->wb.g_seed = seed;
}

/* The seed of the next buffer: a new one, or with dedupe_percentage the
 * last unique buffer's again (fio's dedupe_mode=repeat) or one of the first
 * ws_n unique buffers' drawn uniformly (fio's working_set: dedupe.c and
 * io_u.c get_buf_state). At 100 % fio repeats in either mode. */
static uint64_t next_seed(struct worker *w)
{
    const struct job_spec *j = w->job;
    if (j->dedupe_pct >= 100)
        return w->wb.prev_seed;
    bool dup = j->dedupe_pct && rng_below(&w->brng, 100) < j->dedupe_pct;
    if (j->dedupe_pct && j->dedupe_working_set)
        return dup ? ws_entry(&w->wb, rng_below(&w->wb.ws_idx, w->wb.ws_n)) : ws_seed(&w->wb, w->wb.ws_next++);
    if (dup)
        return w->wb.prev_seed;
    uint64_t s = rng_next(&w->brng);
    w->wb.prev_seed = s;
    return s;
}

void wbuf_fill(struct worker *w, void *buf, size_t len)
{
    const struct job_spec *j = w->job;
    uint8_t *p = buf;
    if (j->compress_fio || j->dedupe_pct) {
        /* fio: the buffer in chunks of min(smallest write, compress_chunk);
         * each chunk's first (100 - pct)% random, the rest zero or the
         * pattern from its first byte */
        unsigned pct = j->compress_fio ? j->compress_pct : 0;
        struct rng r;
        rng_seed(&r, next_seed(w));
        size_t mw = j->res.write_bs_min;
        size_t chunk = j->compress_chunk && j->compress_chunk < mw ? j->compress_chunk : mw;
        for (size_t left = len; left;) {
            size_t c = chunk < left ? chunk : left;
            size_t rnd = c * (100 - pct) / 100;
            fill_random(&r, p, rnd);
            if (c > rnd) {
                if (j->buf_pattern_len)
                    buf_pattern_fill(j->buf_pattern, j->buf_pattern_len, p + rnd, c - rnd);
                else
                    memset(p + rnd, 0, c - rnd);
            }
            p += c;
            left -= c;
        }
    } else if (j->buf_pattern_len) {
        buf_pattern_fill(j->buf_pattern, j->buf_pattern_len, p, len);
    } else if (j->buffer == BUF_ZERO) {
        memset(p, 0, len);
    } else {
        struct rng r;
        rng_seed(&r, rng_next(&w->brng));
        fill_random(&r, p, len);
    }
}

void wbuf_setup(struct worker *w)
{
    if (!wbuf_active(w->job))
        return; /* the buffer generator's stream stays as it was */
    w->wb.prev_seed = rng_next(&w->brng);
    if (w->job->dedupe_working_set) {
        /* fio: the set is dedupe_working_set_percentage of the job's size
         * in buffers of the smallest write (at least one here; fio draws
         * from an empty set) */
        const struct worker_map *m = &w->map;
        uint64_t bytes = m->region_len * (m->layout == LAYOUT_FILES || m->layout == LAYOUT_RANDOM ? m->ntouch : 1);
        uint64_t n = (uint64_t)((unsigned __int128)bytes * w->job->dedupe_ws_pct / 100 / w->job->res.write_bs_min);
        w->wb.ws_n = n ? n : 1;
        w->wb.ws_base = rng_next(&w->brng);
        w->wb.ws_next = 0;
        if (w->wb.global) {
            /* fio: a set's entries spread evenly over the participants */
            w->wb.ws_base = g_base(&w->wb, w->wb.g_idx);
            w->wb.g_per = w->wb.ws_n / w->wb.g_n ? w->wb.ws_n / w->wb.g_n : 1;
        }
        rng_seed(&w->wb.ws_idx, rng_next(&w->brng));
    }
    if (!job_rw_writes(w->job))
        return;
    for (unsigned i = 0; i < w->depth; i++)
        wbuf_fill(w, w->slots[i].buf, w->bufsize);
}

void wbuf_scramble(struct io_req *r, uint64_t now_ns)
{
    uint8_t *p = r->buf;
    uint64_t boff = r->off;
    uint64_t sec = now_ns / 1000000000ull, nsec = now_ns % 1000000000ull;
    unsigned line = (unsigned)((nsec ^ boff) & 7);
    for (uint32_t b = 0; b < r->len >> 9; b++, p += 512, boff += 512) {
        memcpy(p + ((size_t)line << 6), &boff, 8);
        memcpy(p + 48, &sec, 8);
        memcpy(p + 56, &nsec, 8);
    }
}
