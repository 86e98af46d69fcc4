/* worker_files.c - a file-set worker (LAYOUT_FILES): fio's get_next_file
 * (io_u.c) over the worker's nrfiles files, each with its own generator
 * (own sequential position, own random map) over its own region.
 *
 * As fio 3.33:
 *  - roundrobin (default) moves to the next file every file_service_nr
 *    I/Os, sequential stays on a file until its pass is over, random picks
 *    a file uniformly every file_service_nr I/Os; a file whose pass is over
 *    is done for this loop and not picked again. When every file is done,
 *    the next loop starts (loops, or endless for time_based and io_size
 *    jobs) with every file rewound.
 *  - zipf, pareto and normal pick files by that distribution over the file
 *    numbers (ssdbench's tables, dist.h); a file whose pass is over starts
 *    again at once (fio's fio_file_reset), so only the job's I/O amount or
 *    runtime ends these.
 *  - openfiles: at most that many files are being served; a file joins
 *    when the round-robin cursor or the random draw reaches it while fewer
 *    are served (fio opens it then), and leaves when done. All descriptors
 *    are opened (and checked by the guard) before the run, so nothing is
 *    opened while I/O runs.
 * Per I/O: one generator draw, and every file_service_nr I/Os a pick (a
 * scan of at most nrfiles entries). No allocation after wfiles_setup.
 * A job on fio's stream (gen_fio_stream) instead draws every I/O and its
 * file from one fio thread over all its files (job/fio_rand.h), as fio. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "job/dist.h"
#include "job/fio_rand.h"
#include "runner/runner_int.h"

struct wfile {
    unsigned target;   /* job-local target index */
    uint64_t start;    /* region start in the file */
    uint64_t len;      /* region length */
    bool open, done;
    struct gen gen;
};

struct wfiles {
    unsigned n, max_open, nopen, ndone;
    unsigned cur, left, next_rr;
    bool have_cur;
    unsigned loop, loops;  /* loops == 0: endless */
    unsigned last_write;   /* target of the last write drawn (for fsync=N) */
    unsigned last_k;       /* file of the last I/O drawn (for verify) */
    enum job_fservice type;
    unsigned nr;
    bool nonuniform;
    struct dist dist;
    struct rng rng;
    struct fio_gen *fio;   /* fio's stream over every file; NULL: a generator each */
    struct wfile f[];
};

void wfiles_free(struct worker *w)
{
    struct wfiles *wf = w->wf;
    if (!wf)
        return;
    for (unsigned k = 0; k < wf->n; k++)
        gen_free(&wf->f[k].gen);
    if (wf->nonuniform)
        dist_free(&wf->dist);
    if (wf->fio) {
        fio_gen_free(wf->fio);
        free(wf->fio);
    }
    free(wf);
    w->wf = NULL;
}

/* fio's one thread over the clone's files, in the job's order of them */
static int wfiles_fio_start(struct worker *w, struct wfiles *wf, const struct job_spec *j, char *err,
                            size_t errlen)
{
    uint64_t lens[JOB_MAX_TARGETS];
    const char *names[JOB_MAX_TARGETS];
    for (unsigned k = 0; k < wf->n; k++) {
        lens[k] = wf->f[k].len;
        names[k] = j->targets[wf->f[k].target];
    }
    if (!(wf->fio = malloc(sizeof(*wf->fio)))) {
        snprintf(err, errlen, "out of memory");
        return -ENOMEM;
    }
    int rc = fio_gen_init_files(wf->fio, j, wf->n, lens, names, runner_fio_thread(w, j), err, errlen);
    if (rc < 0) {
        free(wf->fio);
        wf->fio = NULL;
    }
    return rc;
}

int wfiles_setup(struct worker *w, const struct job_spec *j, const struct job_setup *js, char *err,
                 size_t errlen)
{
    unsigned n = j->nrfiles ? j->nrfiles : 1;
    struct wfiles *wf = calloc(1, sizeof(*wf) + n * sizeof(wf->f[0]));
    /* each file's generator ends after one pass; the loops are counted here */
    struct job_spec *one = malloc(sizeof(*one));
    if (!wf || !one) {
        free(wf);
        free(one);
        snprintf(err, errlen, "out of memory");
        return -ENOMEM;
    }
    *one = *j;
    one->passes = 1;
    w->wf = wf;
    wf->n = n;
    wf->max_open = j->openfiles && j->openfiles < n ? j->openfiles : n;
    if (wf->max_open == 0)
        wf->max_open = 1;
    wf->loops = j->passes;
    wf->type = j->file_service;
    wf->nr = j->file_service_nr ? j->file_service_nr : 1;
    uint64_t seed = j->seed + 0x9e3779b97f4a7c15ull * (w->clone + 1);
    rng_seed(&wf->rng, seed ^ 0xf11e5e7eull);
    int rc = 0;
    bool fio = gen_fio_stream(j);
    wf->n = 0;
    for (unsigned k = 0; k < n && rc == 0; k++) {
        unsigned t = j->fileset_idx[w->clone * n + k];
        if (t == JOB_FILESET_NONE)
            continue; /* an earlier clone's file (fio leaves it out) */
        struct wfile *f = &wf->f[wf->n++];
        f->target = t;
        f->start = js->file_start[f->target];
        f->len = js->file_len[f->target];
        rc = gen_init(&f->gen, one, js->file_len[f->target], seed + 0x51ed27ull * (k + 1), err, errlen);
        if (rc == 0 && fio)
            gen_free(&f->gen); /* checked the file's region; fio's stream draws its I/O */
    }
    free(one);
    if (rc == 0 && wf->n && fio)
        return wfiles_fio_start(w, wf, j, err, errlen);
    if (rc == 0 && wf->type >= FSERVICE_ZIPF) {
        struct job_distribution d = {
            .kind = wf->type == FSERVICE_ZIPF ? DIST_ZIPF : wf->type == FSERVICE_PARETO ? DIST_PARETO : DIST_NORMAL,
            .param = j->file_service_param,
        };
        if (d.param == 0)
            d.param = d.kind == DIST_ZIPF ? 1.1 : 0.2; /* fio's defaults */
        rc = wf->n ? dist_init(&wf->dist, &d, wf->n, j->seed, err, errlen) : 0;
        wf->nonuniform = rc == 0;
    }
    return rc;
}

/* A file the worker starts serving (fio opens it here). */
static inline void wf_open(struct wfiles *wf, unsigned k)
{
    if (!wf->f[k].open) {
        wf->f[k].open = true;
        wf->nopen++;
    }
}

static unsigned pick_rr(struct wfiles *wf)
{
    for (unsigned i = 0; i < wf->n; i++) {
        unsigned k = wf->next_rr;
        wf->next_rr = k + 1 < wf->n ? k + 1 : 0;
        struct wfile *f = &wf->f[k];
        if (f->done)
            continue;
        if (!f->open && wf->nopen >= wf->max_open)
            continue; /* fio: busy, try the next one */
        wf_open(wf, k);
        return k;
    }
    return 0; /* not reached: a file is open or may be opened */
}

static unsigned pick_random(struct wfiles *wf)
{
    /* drawing among all files until one may be served is a uniform draw
     * among the not-done files while more may be opened, else among the
     * open ones */
    bool may_open = wf->nopen < wf->max_open;
    unsigned want = (unsigned)rng_below(&wf->rng, may_open ? wf->n - wf->ndone : wf->nopen);
    for (unsigned k = 0; k < wf->n; k++) {
        struct wfile *f = &wf->f[k];
        if (f->done || (!may_open && !f->open))
            continue;
        if (want-- == 0) {
            wf_open(wf, k);
            return k;
        }
    }
    return 0;
}

static unsigned pick(struct wfiles *wf)
{
    if (wf->have_cur && !wf->f[wf->cur].done) {
        if (wf->type == FSERVICE_SEQUENTIAL)
            return wf->cur;
        if (wf->left) {
            wf->left--;
            return wf->cur;
        }
    }
    unsigned k;
    if (wf->nonuniform) {
        uint64_t r = dist_next_rank(&wf->dist, &wf->rng);
        k = (unsigned)(wf->dist.permute ? dist_permute(&wf->dist, r) : r);
    } else if (wf->type == FSERVICE_RANDOM) {
        k = pick_random(wf);
    } else {
        k = pick_rr(wf);
    }
    wf->cur = k;
    wf->have_cur = true;
    wf->left = wf->nr - 1;
    return k;
}

static void next_loop(struct wfiles *wf)
{
    for (unsigned k = 0; k < wf->n; k++) {
        wf->f[k].done = wf->f[k].open = false;
        gen_rewind(&wf->f[k].gen);
    }
    wf->nopen = wf->ndone = 0;
    wf->have_cur = false;
    wf->next_rr = 0;
}

bool wfiles_next(struct worker *w, struct gen_io *io, unsigned *target, uint64_t *off)
{
    struct wfiles *wf = w->wf;
    if (wf->n == 0)
        return false; /* a clone without files of its own: no I/O, as fio */
    if (wf->fio) {
        if (!fio_gen_next(wf->fio, io))
            return false;
        unsigned k = fio_gen_file(wf->fio);
        wf->loop = wf->fio->pass;
        if (io->dir == DIR_WRITE)
            wf->last_write = wf->f[k].target;
        wf->last_k = k;
        *target = wf->f[k].target;
        *off = wf->f[k].start + io->off;
        return true;
    }
    /* each file can give an I/O right after a rewind, so two rounds over
     * the files always find one; the bound only guards against a file
     * that cannot */
    for (unsigned tries = 0; tries <= 2 * wf->n + 2; tries++) {
        if (wf->ndone == wf->n) {
            wf->loop++;
            if (wf->loops && wf->loop >= wf->loops)
                return false;
            next_loop(wf);
        }
        unsigned k = pick(wf);
        struct wfile *f = &wf->f[k];
        if (gen_next(&f->gen, io)) {
            if (io->dir == DIR_WRITE)
                wf->last_write = f->target;
            wf->last_k = k;
            *target = f->target;
            *off = f->start + io->off;
            return true;
        }
        /* this file's pass is over */
        gen_rewind(&f->gen);
        if (wf->nonuniform)
            continue; /* fio resets the file and picks again */
        f->done = true;
        wf->ndone++;
        if (f->open) {
            f->open = false;
            wf->nopen--;
        }
        wf->have_cur = false;
    }
    return false;
}

unsigned wfiles_last_write(const struct worker *w)
{
    return w->wf->last_write;
}

unsigned wfiles_count(const struct worker *w)
{
    return w->wf->n;
}

void wfiles_file(const struct worker *w, unsigned k, unsigned *target, uint64_t *start, uint64_t *len)
{
    *target = w->wf->f[k].target;
    *start = w->wf->f[k].start;
    *len = w->wf->f[k].len;
}

unsigned wfiles_last_index(const struct worker *w)
{
    return w->wf->last_k;
}

unsigned wfiles_loop(const struct worker *w)
{
    return w->wf->loop;
}

bool wfiles_serves(const struct worker *w, unsigned target)
{
    for (unsigned k = 0; k < w->wf->n; k++)
        if (w->wf->f[k].target == target)
            return true;
    return false;
}
