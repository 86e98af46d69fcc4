/* fileio_src.c - sysbench fileio 1.0.20's request stream as a shared
 * request source for the runner (see fileio.h, struct io_source in job.h).
 *
 * sysbench generates every request of every thread from one set of
 * counters behind one mutex, and so does this source:
 *  - an event limit (--events) over all threads, fsyncs included, checked
 *    before each event as sysbench's sb_more_events does;
 *  - seq*: one cursor walks file 0, 1, ... N-1 and wraps; each request is
 *    min(request size, bytes left in the file);
 *  - rnd*: a position uniform in the total size, rounded down to the block
 *    size, then file = pos / file size, offset = pos % file size, size =
 *    min(block size, bytes left in the file);
 *  - rndrw: read when (reads + 1) / (writes + 1) < --file-rw-ratio, with
 *    counters over all threads (counted as requests are handed out, where
 *    sysbench counts them as they finish; with one synchronous thread the
 *    two are the same);
 *  - --file-fsync-freq=F: when there were writes since the last round and
 *    the number of read/write requests so far is a multiple of F, the next
 *    N events are fsyncs of file 0 .. N-1, one per event, whichever thread
 *    takes them; the request counter does not advance meanwhile;
 *  - --file-fsync-all: after each write the same thread fsyncs that write's
 *    file within the same event (event_continues), which is no event of its
 *    own.
 * The offsets are drawn from ssdbench's generator, so they are uniform on
 * sysbench's grid but not sysbench's sequence for a given --rand-seed.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>

#include "base/rng.h"
#include "engine/engine.h"
#include "fileio/fileio.h"

struct fileio_src {
    struct io_source ops;
    pthread_mutex_t lock;
    /* the options, resolved */
    enum fileio_mode mode;
    unsigned nfiles;
    uint64_t file_size, block_size, request_size;
    unsigned fsync_freq;
    bool fsync_all, fdatasync;
    double rw_ratio;
    uint64_t max_events;
    /* sysbench's shared state */
    struct rng rng;
    uint64_t position;
    unsigned current_file;
    unsigned fsynced_file;
    bool dirty;
    uint64_t req_performed;
    struct fileio_src_counts n;
    /* --file-fsync-all: per thread, 1 + the file its last write went to */
    unsigned nthreads;
    unsigned *pending;
};

static void flush_req(const struct fileio_src *s, unsigned file, struct io_source_req *r)
{
    r->op = s->fdatasync ? IO_OP_FDATASYNC : IO_OP_FSYNC;
    r->target = (uint16_t)file;
    r->off = 0;
    r->len = 0;
    r->event_continues = false;
}

static bool src_next_locked(struct fileio_src *s, unsigned worker, struct io_source_req *r)
{
    if (s->pending && worker < s->nthreads && s->pending[worker]) {
        flush_req(s, s->pending[worker] - 1, r);
        s->pending[worker] = 0;
        s->n.fsyncs++;
        return true;
    }
    if (s->max_events && s->n.events >= s->max_events)
        return false;
    s->n.events++;
    bool write;
    switch (s->mode) {
    case FILEIO_SEQWR:
    case FILEIO_SEQREWR:
    case FILEIO_RNDWR: write = true; break;
    case FILEIO_RNDRW:
        write = !((double)(s->n.reads + 1) / (double)(s->n.writes + 1) < s->rw_ratio);
        break;
    default: write = false; break;
    }
    if (s->fsync_freq && s->dirty && s->req_performed % s->fsync_freq == 0) {
        flush_req(s, s->fsynced_file, r);
        if (++s->fsynced_file == s->nfiles) {
            s->fsynced_file = 0;
            s->dirty = false;
        }
        s->n.fsyncs++;
        s->n.periodic_fsyncs++;
        return true;
    }
    s->req_performed++;
    if (write)
        s->dirty = true;
    r->op = write ? IO_OP_WRITE : IO_OP_READ;
    r->event_continues = false;
    if (fileio_mode_random(s->mode)) {
        uint64_t total = s->file_size * s->nfiles;
        uint64_t pos = (uint64_t)(rng_unit(&s->rng) * (double)total);
        if (pos >= total)
            pos = total - 1;
        pos -= pos % s->block_size;
        r->target = (uint16_t)(pos / s->file_size);
        r->off = pos % s->file_size;
        uint64_t left = s->file_size - r->off;
        r->len = (uint32_t)(s->block_size < left ? s->block_size : left);
    } else {
        if (s->current_file == s->nfiles) {
            s->current_file = 0;
            s->position = 0;
        }
        r->target = (uint16_t)s->current_file;
        r->off = s->position;
        uint64_t left = s->file_size - s->position;
        r->len = (uint32_t)(s->request_size < left ? s->request_size : left);
        s->position += r->len;
        if (s->position == s->file_size) {
            s->current_file++;
            s->position = 0;
        }
    }
    if (write) {
        s->n.writes++;
        if (s->fsync_all && s->pending && worker < s->nthreads) {
            s->pending[worker] = 1u + r->target;
            r->event_continues = true;
        }
    } else {
        s->n.reads++;
    }
    return true;
}

static bool src_next(void *arg, unsigned worker, struct io_source_req *r)
{
    struct fileio_src *s = arg;
    pthread_mutex_lock(&s->lock);
    bool ok = src_next_locked(s, worker, r);
    pthread_mutex_unlock(&s->lock);
    return ok;
}

struct fileio_src *fileio_src_new(const struct fileio_opts *o, unsigned threads, uint64_t seed)
{
    struct fileio_src *s = calloc(1, sizeof(*s));
    if (!s)
        return NULL;
    s->mode = o->mode;
    s->nfiles = o->file_num;
    s->file_size = fileio_file_size(o);
    s->block_size = o->block_size;
    s->request_size = fileio_request_size(o);
    /* --file-fsync-all switches the periodic fsyncs off, as in sysbench */
    s->fsync_all = o->fsync_all && fileio_mode_writes(o->mode);
    s->fsync_freq = o->fsync_all ? 0 : o->fsync_freq;
    s->fdatasync = o->fdatasync;
    s->rw_ratio = o->rw_ratio;
    s->max_events = o->events;
    s->nthreads = threads;
    if (s->fsync_all && !(s->pending = calloc(threads, sizeof(*s->pending)))) {
        free(s);
        return NULL;
    }
    rng_seed(&s->rng, seed);
    pthread_mutex_init(&s->lock, NULL);
    s->ops.next = src_next;
    s->ops.arg = s;
    return s;
}

const struct io_source *fileio_src_ops(const struct fileio_src *s)
{
    return &s->ops;
}

void fileio_src_counts(struct fileio_src *s, struct fileio_src_counts *c)
{
    pthread_mutex_lock(&s->lock);
    *c = s->n;
    pthread_mutex_unlock(&s->lock);
}

void fileio_src_free(struct fileio_src *s)
{
    if (!s)
        return;
    pthread_mutex_destroy(&s->lock);
    free(s->pending);
    free(s);
}
