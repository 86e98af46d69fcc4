/* worker_verify.c - a worker's verify bookkeeping and checks (see
 * worker_verify.h and job/verify_hdr.h). The cold parts (reports, dump
 * files) run only for a bad block. */
#include "runner/worker_verify.h"
#include "runner/worker_vstate.h"

#include "base/gcd.h"
#include "base/outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define WVERIFY_MAX_REC (1ull << 25)

static void bs_range(const struct job_bssplit *s, uint32_t *lo, uint32_t *hi)
{
    *lo = UINT32_MAX;
    *hi = 0;
    for (unsigned i = 0; i < s->n; i++) {
        if (s->pct[i] <= 0 && s->n > 1)
            continue;
        if (s->bs[i] < *lo)
            *lo = s->bs[i];
        if (s->bs[i] > *hi)
            *hi = s->bs[i];
    }
    if (*lo == UINT32_MAX)
        *lo = *hi = 4096;
}

int wverify_resolve_job(struct job_spec *j, uint64_t region_len, char *err, size_t errlen)
{
    if (j->verify == VERIFY_OFF)
        return 0;
    bool writes = job_rw_writes(j);
    int d = writes ? DIR_WRITE : DIR_READ;
    uint32_t lo, hi;
    bs_range(&j->bs[d], &lo, &hi);
    /* fio's fixup: a header every smallest block when sizes vary, never
     * more than the smallest block, and a divisor of both ends */
    uint32_t iv = j->verify_interval;
    if (hi != lo && !iv)
        iv = lo;
    if (iv > lo)
        iv = lo;
    if (!iv || lo % iv || hi % iv)
        iv = (uint32_t)gcd_u64(lo, hi);
    j->verify_interval = iv;
    unsigned hs = verify_hdr_size(j->verify);
    if (hs && iv < hs) {
        snprintf(err, errlen, "job '%s': verify_interval %u is smaller than the %s header (%u bytes)",
                 j->name, iv, verify_kind_name(j->verify), hs);
        return -EINVAL;
    }
    if (hs && j->verify_offset && j->verify_offset + hs > iv) {
        snprintf(err, errlen, "job '%s': verify_offset %u + header %u runs past the chunk of %u bytes",
                 j->name, j->verify_offset, hs, iv);
        return -EINVAL;
    }
    if ((j->verify == VERIFY_PATTERN) && !j->verify_pattern_len) {
        snprintf(err, errlen, "job '%s': verify=pattern needs verify_pattern", j->name);
        return -EINVAL;
    }
    if (!writes)
        return 0;
    if (j->layout == LAYOUT_RANDOM && j->ntargets > 1) {
        snprintf(err, errlen, "job '%s': verify is not supported with layout=random (a block's target is not "
                 "reproducible)", j->name);
        return -ENOTSUP;
    }
    if (j->source) {
        snprintf(err, errlen, "job '%s': verify is not supported for this workload", j->name);
        return -ENOTSUP;
    }
    if (j->trim_percentage && j->trim_backlog && j->do_verify && !job_rw_trimwrite(j)) {
        snprintf(err, errlen, "job '%s': trim_percentage with trim_backlog trims written blocks, which fio 3.33 "
                 "does only for rw=trimwrite or randtrimwrite (it aborts any other write job that does)", j->name);
        return -EINVAL;
    }
    if (j->verify_state_load && !j->verify_only) {
        snprintf(err, errlen, "job '%s': verify_state_load needs verify_only (it limits the replay of the writes)",
                 j->name);
        return -EINVAL;
    }
    if (j->verify_only && j->time_based) {
        snprintf(err, errlen, "job '%s': verify_only cannot replay a time_based job (as in fio)", j->name);
        return -EINVAL;
    }
    (void)region_len;
    return 0;
}

int wverify_setup(struct worker *w, char *err, size_t errlen)
{
    const struct job_spec *j = w->job;
    if (j->verify == VERIFY_OFF)
        return 0;
    struct wverify *vf = calloc(1, sizeof(*vf));
    if (!vf)
        return snprintf(err, errlen, "out of memory"), -ENOMEM;
    w->vf = vf;
    vf->slot = calloc(w->depth, sizeof(*vf->slot));
    vf->slot_kind = calloc(w->depth, 1);
    if (posix_memalign(&vf->scratch, 4096, w->bufsize) || !vf->slot || !vf->slot_kind)
        return snprintf(err, errlen, "out of memory"), -ENOMEM;
    if (!job_rw_writes(j)) {
        vf->read_only = true;
        return 0;
    }
    uint64_t u = 0;
    uint32_t lo, hi;
    bs_range(&j->bs[DIR_WRITE], &lo, &hi);
    for (unsigned i = 0; i < j->bs[DIR_WRITE].n; i++)
        u = gcd_u64(u, j->bs[DIR_WRITE].bs[i]);
    if (j->blockalign[DIR_WRITE])
        u = gcd_u64(u, j->blockalign[DIR_WRITE]);
    if (j->seq_hole)
        u = gcd_u64(u, j->seq_hole > INT64_MAX ? (uint64_t)0 - j->seq_hole : j->seq_hole);
    if (j->layout == LAYOUT_STRIPE && j->stripe_chunk)
        u = gcd_u64(u, j->stripe_chunk);
    if (j->replay_verify_unit) /* read_iolog: the logged writes' offsets and lengths */
        u = gcd_u64(u, j->replay_verify_unit);
    if (!u)
        u = 512;
    vf->unit = u;
    vf->maxunits = (unsigned)((hi + u - 1) / u);
    uint64_t span = w->map.region_len;
    if (w->map.layout == LAYOUT_FILES) { /* the files' regions one after the other */
        vf->nfiles = wfiles_count(w);
        vf->vbase = calloc(vf->nfiles + 1, sizeof(*vf->vbase));
        if (!vf->vbase)
            return snprintf(err, errlen, "out of memory"), -ENOMEM;
        for (unsigned k = 0; k < vf->nfiles; k++) {
            unsigned t;
            uint64_t start, len;
            wfiles_file(w, k, &t, &start, &len);
            vf->vbase[k + 1] = vf->vbase[k] + (len + u - 1) / u * u;
        }
        span = vf->vbase[vf->nfiles];
    }
    vf->nrec = span / u + 1;
    if (vf->nrec > WVERIFY_MAX_REC) {
        snprintf(err, errlen,
                 "job '%s': verify tracks at most %llu blocks of %llu bytes per worker; this region has %llu "
                 "(use a smaller size or larger blocks)",
                 j->name, WVERIFY_MAX_REC, (unsigned long long)u, (unsigned long long)vf->nrec);
        return -E2BIG;
    }
    vf->rec = calloc(vf->nrec, sizeof(*vf->rec));
    if (!vf->rec)
        return snprintf(err, errlen, "out of memory for the verify table (%llu entries)",
                        (unsigned long long)vf->nrec), -ENOMEM;
    bool trims = j->trim_percentage && j->trim_backlog && j->do_verify;
    vf->listed = wverify_job_listed(j);
    vf->fio_backlog = j->verify_backlog && !trims;
    vf->last_op = IO_OP_READ; /* fio's last_ddir starts as a read */
    if (j->verify_backlog || vf->listed) {
        /* fio's rule may let any number wait: the ring holds the table's
         * blocks (stale entries are squeezed out when it is full) */
        vf->fifo_cap = vf->nrec + 1;
        vf->fifo = calloc(vf->fifo_cap, sizeof(*vf->fifo));
        if (!vf->fifo)
            return snprintf(err, errlen, "out of memory"), -ENOMEM;
    }
    if (trims) {
        struct wvtrim *vt = calloc(1, sizeof(*vt));
        vf->vt = vt;
        if (vt) {
            vt->cap = vf->nrec + 1;
            vt->q = calloc(vt->cap, sizeof(*vt->q));
        }
        if (!vt || !vt->q)
            return snprintf(err, errlen, "out of memory for the trim queue (%llu entries)",
                            (unsigned long long)vf->nrec), -ENOMEM;
        /* fio's trim stream of this clone's thread */
        uint64_t rs = j->fio_randseed ? j->fio_randseed : FIO_TAUS_DEFAULT_SEED;
        vt->rng_seed = fio_taus_stream_seed(rs, runner_fio_thread(w, j), FIO_TAUS_STREAM_TRIM);
        fio_taus_seed(&vt->rng, vt->rng_seed, j->random_generator == RANDGEN_TAUSWORTHE64);
        vt->thresh = fio_taus_max(&vt->rng) / 100 * j->trim_percentage;
        vt->last_op = IO_OP_READ;
    }
    if (j->verify_state_load && j->verify_only)
        return wvstate_load(w, err, errlen);
    return 0;
}

void wverify_free(struct worker *w)
{
    struct wverify *vf = w->vf;
    if (!vf)
        return;
    if (vf->vt)
        free(vf->vt->q);
    free(vf->vt);
    free(vf->vbase);
    free(vf->rec);
    free(vf->fifo);
    free(vf->slot);
    free(vf->slot_kind);
    free(vf->scratch);
    free(vf);
    w->vf = NULL;
}

static void place(struct worker *w, uint64_t roff, struct io_req *r);

/* A tracked block is no longer checked (overwritten, or gone): fio drops
 * it from its log and its trim queue. */
static void drop(struct wverify *vf, struct wverify_rec *p)
{
    if (vf->vt) {
        if (p->flags & WV_LOGGED)
            vf->vt->hist--;
        if (p->flags & WV_TRIM_QUEUED)
            vf->vt->live--;
    } else if (p->flags & WV_LOGGED) {
        vf->hist--;
    }
    p->seq = 0;
    p->flags = 0;
    vf->st.written--;
}

void wverify_forget(struct worker *w, uint64_t roff, uint64_t len)
{
    struct wverify *vf = w->vf;
    for (uint64_t i = roff / vf->unit; i < (roff + len) / vf->unit && i < vf->nrec; i++)
        if (vf->rec[i].seq)
            drop(vf, &vf->rec[i]);
}

/* The ring is full: the stale entries go (the live ones are fewer than
 * the table's blocks, so room is made). */
static void trim_squeeze(struct wverify *vf)
{
    struct wvtrim *vt = vf->vt;
    uint64_t n = 0;
    for (uint64_t k = 0; k < vt->len; k++) {
        struct wverify_pend p = vt->q[(vt->head + k) % vt->cap];
        const struct wverify_rec *e = &vf->rec[p.idx];
        if (e->seq == p.seq && (e->flags & WV_TRIM_QUEUED))
            vt->q[(vt->head + n++) % vt->cap] = p;
    }
    vt->len = n;
}

/* fio's log_io_piece and io_u_should_trim: the write at idx is logged and,
 * with trim_percentage's chance, queued for a trim. */
static void trim_log(struct wverify *vf, uint64_t idx, uint64_t seq)
{
    struct wvtrim *vt = vf->vt;
    vt->hist++;
    vf->rec[idx].flags |= WV_LOGGED;
    if (fio_taus_next(&vt->rng) > vt->thresh)
        return;
    if (vt->len == vt->cap)
        trim_squeeze(vf);
    vt->q[(vt->head + vt->len) % vt->cap] = (struct wverify_pend){.idx = idx, .seq = seq};
    vt->len++;
    vt->live++;
    vf->rec[idx].flags |= WV_TRIM_QUEUED;
}

bool wverify_trim_next(struct worker *w, struct io_req *r)
{
    struct wverify *vf = w->vf;
    struct wvtrim *vt = vf->vt;
    const struct job_spec *j = w->job;
    if (!vt->live)
        return false;
    if (vt->batch)
        vt->batch--;
    else if (vt->hist % j->trim_backlog == 0 && vt->last_op != IO_OP_READ)
        vt->batch = j->trim_batch ? j->trim_batch : j->trim_backlog;
    else
        return false;
    for (;;) { /* live > 0: a queued entry is in the ring */
        struct wverify_pend p = vt->q[vt->head];
        vt->head = (vt->head + 1) % vt->cap;
        vt->len--;
        struct wverify_rec *e = &vf->rec[p.idx];
        if (e->seq != p.seq || !(e->flags & WV_TRIM_QUEUED))
            continue;
        e->flags &= ~WV_TRIM_QUEUED;
        vt->live--;
        if (r) {
            r->op = IO_OP_TRIM;
            r->len = e->len;
            place(w, p.idx * vf->unit, r);
            r->t_sched = 0;
            r->t_issue = 0;
        }
        if (j->trim_zero) {
            e->flags |= WV_TRIMMED; /* read back, it must be zeros */
        } else {
            vt->live++; /* drop() counts it out of the queue once more */
            e->flags |= WV_TRIM_QUEUED;
            drop(vf, e); /* not checked at all (fio takes it off its list) */
        }
        return true;
    }
}

/* The backlog ring is full (trims on): the blocks overwritten or checked
 * since go. */
static void fifo_squeeze(struct wverify *vf)
{
    uint64_t n = 0;
    for (uint64_t k = 0; k < vf->fifo_len; k++) {
        struct wverify_pend p = vf->fifo[(vf->fifo_head + k) % vf->fifo_cap];
        const struct wverify_rec *e = &vf->rec[p.idx];
        if (e->seq == p.seq && !(e->flags & WV_CHECKED))
            vf->fifo[(vf->fifo_head + n++) % vf->fifo_cap] = p;
    }
    vf->fifo_len = n;
}

void wverify_write(struct worker *w, struct io_req *r, uint64_t roff, bool fill)
{
    struct wverify *vf = w->vf;
    const struct job_spec *j = w->job;
    uint64_t idx = roff / vf->unit;
    uint64_t n = (r->len + vf->unit - 1) / vf->unit;
    if (idx + n > vf->nrec)
        n = vf->nrec - idx;
    /* the nearest block starting to the left overlaps when it reaches here */
    for (uint64_t k = 1; k <= vf->maxunits && k <= idx; k++) {
        struct wverify_rec *p = &vf->rec[idx - k];
        if (p->seq) {
            if ((p->len + vf->unit - 1) / vf->unit > k)
                drop(vf, p);
            break;
        }
    }
    for (uint64_t u = 0; u < n; u++)
        if (vf->rec[idx + u].seq)
            drop(vf, &vf->rec[idx + u]);
    uint64_t seq = ++vf->seq;
    vf->rec[idx] = (struct wverify_rec){.seq = seq, .len = r->len};
    vf->st.written++;
    if (vf->vt)
        trim_log(vf, idx, seq);
    if (vf->fio_backlog) { /* fio logs the write at its issue, in flight until it completes */
        vf->rec[idx].flags |= WV_LOGGED;
        vf->hist++;
        if (idx < vf->lcursor)
            vf->lcursor = idx;
        if (fill) {
            vf->rec[idx].flags |= WV_INFLIGHT;
            vf->slot[r->slot] = (struct wverify_pend){.idx = idx, .seq = seq};
            vf->slot_kind[r->slot] = WV_SLOT_WRITE;
        }
    }
    if (vf->fifo) {
        if (vf->fifo_len == vf->fifo_cap)
            fifo_squeeze(vf);
        uint64_t at = (vf->fifo_head + vf->fifo_len) % vf->fifo_cap;
        vf->fifo[at] = (struct wverify_pend){.idx = idx, .seq = seq};
        if (vf->fifo_len < vf->fifo_cap)
            vf->fifo_len++;
        else
            vf->fifo_head = (vf->fifo_head + 1) % vf->fifo_cap; /* the oldest waits for the final phase */
    }
    if (fill)
        verify_fill(j, r->buf, r->len, r->off, verify_block_seed(j->seed, w->job_worker, seq), seq,
                    w->job_worker);
}

/* fio's check_get_verify with trims on (its counts depend on it): a
 * backlog read is due while the log holds blocks and a batch runs, or a
 * new batch starts when the log holds a multiple of verify_backlog blocks
 * and the last completion was not a read. */
static bool vt_verify_due(const struct wverify *vf, const struct job_spec *j)
{
    const struct wvtrim *vt = vf->vt;
    return vt->hist && (vt->vbatch || (vt->hist % j->verify_backlog == 0 && vt->last_op != IO_OP_READ));
}

bool wverify_hold(const struct worker *w)
{
    const struct wverify *vf = w->vf;
    if (vf->pass_due)
        return true;
    /* without trims (fio_backlog) each I/O makes its own choice; with them
     * the worker holds its writes for a backlog round */
    if (!w->job->verify_backlog || !vf->vt)
        return false;
    return vt_verify_due(vf, w->job);
}

void wverify_round_empty(struct worker *w)
{
    struct wvtrim *vt = w->vf->vt;
    if (vt) {
        vt->vbatch = 0;
        vt->last_op = IO_OP_READ;
    }
}

bool wverify_trim_due(const struct worker *w)
{
    const struct wvtrim *vt = w->vf->vt;
    return vt->live && (vt->batch || (vt->hist % w->job->trim_backlog == 0 && vt->last_op != IO_OP_READ));
}

bool wverify_pass_over(struct worker *w, const struct io_req *r)
{
    struct wverify *vf = w->vf;
    const struct job_spec *j = w->job;
    unsigned pass = w->map.layout == LAYOUT_FILES ? wfiles_loop(w) : w->gen.pass;
    bool over = pass != vf->pass_seen;
    vf->pass_seen = pass;
    if (!over || !j->do_verify || j->time_based)
        return false;
    if (vf->vt && j->seed_set) /* fio's clear_io_state: the streams start again */
        fio_taus_seed(&vf->vt->rng, vf->vt->rng_seed, vf->vt->rng.use64);
    vf->held = *r;
    vf->held_roff = vf->roff;
    vf->have_held = true;
    vf->pass_due = true;
    return true;
}

bool wverify_take_held(struct worker *w, struct io_req *r)
{
    struct wverify *vf = w->vf;
    if (!vf->have_held || vf->pass_due)
        return false;
    r->op = vf->held.op;
    r->len = vf->held.len;
    r->off = vf->held.off;
    r->target = vf->held.target;
    r->file = vf->held.file;
    vf->roff = vf->held_roff;
    vf->have_held = false;
    return true;
}

void wverify_round_start(struct worker *w, bool backlog)
{
    struct wverify *vf = w->vf;
    if (!backlog) { /* a backlog round's batch is counted in the trim log (wvtrim) */
        vf->cursor = 0; /* every block not checked since its write */
        vf->pass_due = false;
    }
}

/* region offset -> where the block is */
static void place(struct worker *w, uint64_t roff, struct io_req *r)
{
    if (w->map.layout == LAYOUT_FILES) {
        const struct wverify *vf = w->vf;
        unsigned lo = 0, hi = vf->nfiles; /* the last file with vbase <= roff */
        while (hi - lo > 1) {
            unsigned mid = (lo + hi) / 2;
            if (vf->vbase[mid] <= roff)
                lo = mid;
            else
                hi = mid;
        }
        unsigned t;
        uint64_t start, len;
        wfiles_file(w, lo, &t, &start, &len);
        r->target = (uint16_t)t;
        r->file = (uint16_t)t;
        r->off = start + (roff - vf->vbase[lo]);
    } else if (w->map.layout == LAYOUT_STRIPE) {
        unsigned t;
        uint64_t toff;
        stripe_map(&w->map.stripe, w->map.region_start + roff, &t, &toff);
        r->target = (uint16_t)t;
        r->file = (uint16_t)t;
        r->off = toff;
    } else {
        r->target = 0;
        r->file = (uint16_t)w->first_target;
        r->off = w->map.region_start + roff;
        if (w->map.segs.n)
            r->off = ar_segment_map(&w->map.segs, r->off);
    }
}

bool wverify_next(struct worker *w, struct io_req *r, bool backlog)
{
    struct wverify *vf = w->vf;
    uint64_t idx = 0, seq = 0;
    bool found = false;
    if (backlog && vf->vt) {
        /* fio's order: the oldest block of the log; a batch goes on (and
         * waits for blocks, when the log is empty) until it is done */
        const struct job_spec *j = w->job;
        struct wvtrim *vt = vf->vt;
        if (!vt->hist)
            return false;
        if (!vt->vbatch) {
            if (vt->hist % j->verify_backlog || vt->last_op == IO_OP_READ)
                return false;
            vt->vbatch = j->verify_backlog_batch ? j->verify_backlog_batch : j->verify_backlog;
        }
        while (!found && vf->fifo_len) {
            struct wverify_pend p = vf->fifo[vf->fifo_head];
            vf->fifo_head = (vf->fifo_head + 1) % vf->fifo_cap;
            vf->fifo_len--;
            struct wverify_rec *e = &vf->rec[p.idx];
            if (e->seq != p.seq || (e->flags & WV_CHECKED))
                continue;
            idx = p.idx;
            seq = p.seq;
            found = true;
            vt->vbatch--;
        }
    } else if (vf->listed) {
        /* fio's list: in the order written */
        while (!found && vf->fifo_len) {
            struct wverify_pend p = vf->fifo[vf->fifo_head];
            vf->fifo_head = (vf->fifo_head + 1) % vf->fifo_cap;
            vf->fifo_len--;
            const struct wverify_rec *e = &vf->rec[p.idx];
            if (e->seq != p.seq || (e->flags & WV_CHECKED))
                continue;
            idx = p.idx;
            seq = p.seq;
            found = true;
        }
    } else {
        for (; vf->cursor < vf->nrec && !found; vf->cursor++) {
            struct wverify_rec *e = &vf->rec[vf->cursor];
            if (e->seq && !(e->flags & WV_CHECKED)) {
                idx = vf->cursor;
                seq = e->seq;
                found = true;
            }
        }
    }
    if (!found)
        return false;
    if (vf->vt) { /* fio takes a block read back off its log and its trim queue */
        struct wverify_rec *e = &vf->rec[idx];
        if (e->flags & WV_LOGGED)
            vf->vt->hist--;
        e->flags &= ~WV_LOGGED;
        if (e->flags & WV_TRIM_QUEUED) {
            e->flags &= ~WV_TRIM_QUEUED;
            vf->vt->live--;
        }
    } else if (vf->rec[idx].flags & WV_LOGGED) { /* taken off fio's log */
        vf->rec[idx].flags &= ~WV_LOGGED;
        vf->hist--;
    }
    r->op = IO_OP_READ;
    r->len = vf->rec[idx].len;
    place(w, idx * vf->unit, r);
    r->t_sched = 0;
    r->t_issue = 0;
    vf->slot[r->slot] = (struct wverify_pend){.idx = idx, .seq = seq};
    if (backlog)
        vf->st.backlog_blocks++;
    return true;
}

/* verify_dump: NAME.OFFSET.received / .expected, fio's names; next to a
 * regular file, in the working directory for a device. A name ssdbench
 * derives: written only as a regular file (base/outfile.h), never through a
 * link, a FIFO or a device; a refusal is one line on stderr. */
static void dump_one(const char *target, uint64_t off, const char *type, const void *p, uint32_t len,
                     char *name, size_t namelen)
{
    char a[JOB_PATH_MAX], b[JOB_PATH_MAX];
    snprintf(a, sizeof(a), "%s", target);
    snprintf(b, sizeof(b), "%s", target);
    struct stat sb;
    bool file = stat(target, &sb) == 0 && S_ISREG(sb.st_mode);
    if (file)
        snprintf(name, namelen, "%s/%s.%llu.%s", dirname(a), basename(b), (unsigned long long)off, type);
    else
        snprintf(name, namelen, "%s.%llu.%s", basename(b), (unsigned long long)off, type);
    struct outfile of;
    char err[JOB_PATH_MAX + 256];
    if (outfile_open_derived(&of, name, err, sizeof(err)) < 0) {
        fprintf(stderr, "ssdbench: verify_dump: %s\n", err);
        name[0] = 0;
        return;
    }
    if (fwrite(p, 1, len, of.f) != len) {
        outfile_abort(&of);
        fprintf(stderr, "ssdbench: verify_dump: %s: cannot write\n", name);
        name[0] = 0;
    } else if (outfile_commit(&of, err, sizeof(err)) < 0) {
        fprintf(stderr, "ssdbench: verify_dump: %s\n", err);
        name[0] = 0;
    } else {
        fprintf(stderr, "       %s data dumped as %s\n", type, name); /* fio's line */
    }
}

/* fio's words for a bad block (verify.c verify_header, log_verify_failure,
 * the pattern check, verify_trimmed_io_u), one write to stderr: the
 * field's line and " at file F offset O, length L (requested block:
 * offset=O, length=L)"; a checksum's "METHOD: verify failed at ..."
 * with the expected and received digests. fio's header is not ssdbench's,
 * so the fields named are ssdbench's (seed: rand_seed, sequence:
 * numberio). verify=pattern has no header, and fio reads the pattern's
 * bytes as one all the same: its line's length is bytes 4-7 of the chunk
 * (little-endian) and a "verify type mismatch" line follows (after the
 * dump's lines; say_tail) with bytes 2-3 against its own number of the
 * method (18); both as fio prints them. */
static void say_bad(const struct job_spec *j, const char *file, const struct verify_bad *b, bool readback,
                    const uint8_t *buf)
{
    char msg[1024], at[JOB_PATH_MAX + 160];
    const char *w = b->what;
    unsigned long long want = (unsigned long long)b->want, got = (unsigned long long)b->got;
    snprintf(at, sizeof(at), " at file %s offset %llu, length %u (requested block: offset=%llu, length=%u)\n", file,
             (unsigned long long)b->chunk_off, b->chunk_len, (unsigned long long)b->off, b->len);
    if (!strcmp(w, "zeros after trim")) {
        snprintf(msg, sizeof(msg), "trim: verify failed at file %s offset %llu, length %u, block offset %lld\n", file,
                 (unsigned long long)b->off, b->len, (long long)b->first_diff);
    } else if (!strcmp(w, "checksum")) {
        char e[2 * VERIFY_DIGEST_MAX + 1], r[2 * VERIFY_DIGEST_MAX + 1];
        for (unsigned i = 0; i < b->sumlen; i++) {
            snprintf(e + 2 * i, 3, "%02x", b->want_sum[i]);
            snprintf(r + 2 * i, 3, "%02x", b->got_sum[i]);
        }
        e[2 * b->sumlen] = r[2 * b->sumlen] = 0;
        snprintf(msg, sizeof(msg),
                 "%.8s: verify failed at file %s offset %llu, length %u (requested block: offset=%llu, length=%u, "
                 "flags=%x)\n       Expected CRC: %s\n       Received CRC: %s\n",
                 verify_kind_name(j->verify), file, (unsigned long long)b->chunk_off, b->chunk_len,
                 (unsigned long long)b->off, b->len, readback ? 0x88u : 0x8u, e, r);
    } else if (!strcmp(w, "pattern")) {
        long long i = b->first_diff - (long long)(b->chunk_off - b->off) - (long long)verify_hdr_size(j->verify);
        const uint8_t *c = buf + (b->chunk_off - b->off);
        uint32_t hlen = b->chunk_len;
        if (j->verify == VERIFY_PATTERN && b->chunk_len >= 8)
            hlen = (uint32_t)c[4] | (uint32_t)c[5] << 8 | (uint32_t)c[6] << 16 | (uint32_t)c[7] << 24;
        snprintf(msg, sizeof(msg),
                 "fio: got pattern '%02llx', wanted '%02llx'. Bad bits %d\nfio: bad pattern block offset %lld\n"
                 "pattern: verify failed at file %s offset %llu, length %u (requested block: offset=%llu, "
                 "length=%u, flags=%x)\n",
                 got, want, __builtin_popcountll(got ^ want), i < 0 ? 0 : i, file,
                 (unsigned long long)b->chunk_off, hlen, (unsigned long long)b->off, b->len,
                 readback ? 0x88u : 0x8u);
    } else if (!strcmp(w, "kind")) {
        snprintf(msg, sizeof(msg), "fio: verify type mismatch (%llu media, %llu given)\n", got, want);
    } else {
        const char *what = !strcmp(w, "magic") ? "bad magic header" : !strcmp(w, "length") ? "bad header length"
                           : !strcmp(w, "offset") ? "bad header offset" : !strcmp(w, "seed") ? "bad header rand_seed"
                           : !strcmp(w, "sequence") ? "bad header numberio" : "bad header crc";
        if (!strcmp(w, "magic") || !strcmp(w, "header crc"))
            snprintf(msg, sizeof(msg), "verify: %s %llx, %s %llx%s", what, got,
                     !strcmp(w, "magic") ? "wanted" : "calculated", want, at);
        else
            snprintf(msg, sizeof(msg), "verify: %s %llu, wanted %llu%s", what, got, want, at);
    }
    fputs(msg, stderr);
}

static void say_tail(const struct job_spec *j, const struct verify_bad *b, const uint8_t *buf)
{
    if (j->verify != VERIFY_PATTERN || strcmp(b->what, "pattern") || b->chunk_len < 8)
        return;
    const uint8_t *c = buf + (b->chunk_off - b->off);
    unsigned media = (unsigned)c[2] | (unsigned)c[3] << 8;
    if (media != 18)
        fprintf(stderr, "fio: verify type mismatch (%u media, 18 given)\n", media);
}

void wverify_expect(struct worker *w, const struct io_req *r, bool readback, struct wverify_job *vj)
{
    struct wverify *vf = w->vf;
    const struct job_spec *j = w->job;
    memset(vj, 0, sizeof(*vj));
    vj->readback = readback;
    if (j->verify == VERIFY_NULL || j->engine == ENGINE_NULL) {
        vj->how = WV_HOW_PRETEND; /* verify=null, and the null engine, which moves no data (as fio's) */
        return;
    }
    if (!readback) {
        vj->e = (struct verify_expect){.off = r->off, .worker = w->job_worker, .check_seed = false};
        return;
    }
    struct wverify_pend p = vf->slot[r->slot];
    struct wverify_rec *rec = &vf->rec[p.idx];
    bool trimmed = rec->seq == p.seq && (rec->flags & WV_TRIMMED);
    if (rec->seq == p.seq)
        rec->flags |= WV_CHECKED;
    if (trimmed) {
        vj->how = WV_HOW_ZEROS;
        return;
    }
    vj->e = (struct verify_expect){.off = r->off, .seed = verify_block_seed(j->seed, w->job_worker, p.seq),
                                   .seq = p.seq, .worker = w->job_worker, .check_seed = true};
}

unsigned wverify_target(const struct worker *w, const struct io_req *r)
{
    return w->map.layout == LAYOUT_JBOD ? w->first_target : r->target;
}

bool wverify_check_block(const struct worker *w, struct io_req *r, const struct wverify_job *vj, void *scratch,
                         struct verify_bad *bad, struct wverify_dumped *d)
{
    const struct job_spec *j = w->job;
    if (vj->how == WV_HOW_PRETEND)
        return true;
    if (vj->how == WV_HOW_ZEROS) {
        /* a trimmed block read back (trim_verify_zero): all zeros, as
         * fio's verify_trimmed_io_u checks */
        const uint8_t *p = r->buf;
        uint32_t i = 0;
        while (i < r->len && !p[i])
            i++;
        if (i == r->len)
            return true;
        *bad = (struct verify_bad){.off = r->off, .len = r->len, .chunk_off = r->off, .chunk_len = r->len,
                                   .what = "zeros after trim", .want = 0, .got = p[i], .first_diff = i};
    } else if (verify_check(j, r->buf, r->len, &vj->e, scratch, bad)) {
        return true;
    }
    unsigned t = wverify_target(w, r);
    say_bad(j, t < j->ntargets ? j->targets[t] : "?", bad, vj->readback, r->buf);
    d->received[0] = d->expected[0] = 0;
    if (j->verify_dump && vj->how == WV_HOW_DATA) { /* every bad block, as fio */
        dump_one(j->targets[t], r->off, "received", r->buf, r->len, d->received, sizeof(d->received));
        dump_one(j->targets[t], r->off, "expected", scratch, r->len, d->expected, sizeof(d->expected));
        d->failed += !d->received[0] + !d->expected[0];
    }
    say_tail(j, bad, r->buf);
    return false;
}

void wverify_account(struct worker *w, const struct io_req *r, bool good, const struct verify_bad *bad)
{
    struct wverify *vf = w->vf;
    vf->st.blocks++;
    vf->st.bytes += r->len;
    if (good)
        return;
    vf->st.bad++;
    if (!vf->st.have_first) {
        vf->st.have_first = true;
        vf->st.first = *bad;
        vf->st.first_target = wverify_target(w, r);
    }
}

/* The check on the completing thread: expected, checked, counted. */
static bool check_here(struct worker *w, struct io_req *r, bool readback)
{
    struct wverify *vf = w->vf;
    struct wverify_job vj;
    struct verify_bad bad;
    wverify_expect(w, r, readback, &vj);
    bool good = wverify_check_block(w, r, &vj, vf->scratch, &bad, &vf->dumped);
    bool first = !good && !vf->st.have_first;
    wverify_account(w, r, good, &bad);
    if (first) {
        snprintf(vf->st.dump_received, sizeof(vf->st.dump_received), "%s", vf->dumped.received);
        snprintf(vf->st.dump_expected, sizeof(vf->st.dump_expected), "%s", vf->dumped.expected);
    }
    w->side_errors += vf->dumped.failed;
    vf->dumped.failed = 0;
    return good;
}

bool wverify_done(struct worker *w, struct io_req *r)
{
    return check_here(w, r, true);
}

bool wverify_read_done(struct worker *w, struct io_req *r)
{
    return check_here(w, r, false);
}

bool wverify_job_listed(const struct job_spec *j)
{
    /* fio's file_randommap: a random job with an axmap (not norandommap,
     * not the lfsr generator, which keeps none) */
    return job_rw_is_random(j->rw) && !j->norandommap && j->random_generator != RANDGEN_LFSR;
}

/* fio's get_next_verify in the loop: the first entry of its log, unless
 * that block's write is still in flight (then nothing: a write goes). */
static bool backlog_pick(struct wverify *vf, uint64_t *idx)
{
    if (vf->listed) {
        while (vf->fifo_len) {
            struct wverify_pend p = vf->fifo[vf->fifo_head];
            const struct wverify_rec *e = &vf->rec[p.idx];
            if (e->seq == p.seq && (e->flags & WV_LOGGED)) {
                if (e->flags & WV_INFLIGHT)
                    return false;
                vf->fifo_head = (vf->fifo_head + 1) % vf->fifo_cap;
                vf->fifo_len--;
                *idx = p.idx;
                return true;
            }
            vf->fifo_head = (vf->fifo_head + 1) % vf->fifo_cap; /* overwritten or read back since */
            vf->fifo_len--;
        }
        return false;
    }
    while (vf->lcursor < vf->nrec && !(vf->rec[vf->lcursor].flags & WV_LOGGED))
        vf->lcursor++;
    if (vf->lcursor >= vf->nrec || (vf->rec[vf->lcursor].flags & WV_INFLIGHT))
        return false;
    *idx = vf->lcursor;
    return true;
}

bool wverify_backlog_next(struct worker *w, struct io_req *r)
{
    struct wverify *vf = w->vf;
    const struct job_spec *j = w->job;
    if (!vf->hist)
        return false;
    if (!vf->vbatch) {
        if (vf->hist % j->verify_backlog || vf->last_op == IO_OP_READ)
            return false;
        vf->vbatch = j->verify_backlog_batch ? j->verify_backlog_batch : j->verify_backlog;
    }
    uint64_t idx;
    if (!backlog_pick(vf, &idx))
        return false;
    vf->vbatch--;
    struct wverify_rec *e = &vf->rec[idx];
    e->flags &= ~WV_LOGGED;
    vf->hist--;
    r->op = IO_OP_READ;
    r->len = e->len;
    place(w, idx * vf->unit, r);
    r->t_sched = 0;
    r->t_issue = 0;
    vf->slot[r->slot] = (struct wverify_pend){.idx = idx, .seq = e->seq};
    vf->slot_kind[r->slot] = WV_SLOT_READBACK;
    vf->st.backlog_blocks++;
    return true;
}

bool wverify_loop_done(struct worker *w, struct io_req *r)
{
    struct wverify *vf = w->vf;
    uint8_t kind = vf->slot_kind[r->slot];
    vf->slot_kind[r->slot] = WV_SLOT_NONE;
    if (r->op <= IO_OP_TRIM)
        vf->last_op = r->op;
    if (kind == WV_SLOT_WRITE) {
        struct wverify_pend p = vf->slot[r->slot];
        if (vf->rec[p.idx].seq == p.seq)
            vf->rec[p.idx].flags &= ~WV_INFLIGHT;
    }
    return kind == WV_SLOT_READBACK;
}
