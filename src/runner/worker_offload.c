/* worker_offload.c - fio's io_submit_mode=offload (runner/worker_offload.h):
 * the offload front of a worker's engine and its submitter thread.
 *
 * Worker side: queue() stages; submit() and run() move the staged requests
 * to the submitter's list; run() then waits (as long as asked) for the
 * completions the submitter reaped. Submitter side: the real engine, set up
 * and used on that thread only; every round it queues what was handed over,
 * submits it, and reaps what has completed. Where the engine can signal its
 * completions on an eventfd (engine_ops.notify: io_uring, libaio), the
 * submitter then sleeps in poll() on that and on its own wake eventfd,
 * which the worker signals when it hands requests over to a sleeping
 * submitter: a request is issued as soon as it is handed over, whatever
 * is in flight. Elsewhere (posixaio, sg, polled rings) it waits in the
 * engine for a completion, at most OFFLOAD_NAP at a time, so a request
 * handed over meanwhile waits up to that long. The request slots move
 * between the threads under the mutex; the worker touches a request again
 * only after it came back. Nothing is allocated per I/O.
 */
#include "runner/worker_offload.h"

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

#define OFFLOAD_NAP 200000ull /* ns: without notify, the submitter's longest wait for a completion */

struct woffload {
    struct engine_ops ops;        /* this worker's front (the real engine's flags) */
    const struct engine_ops *inner;
    struct engine ie;             /* the real engine, used by the submitter only */
    pthread_t th;
    bool started;
    pthread_mutex_t mu;
    pthread_cond_t to_sub, to_wrk;
    /* init's arguments, for the submitter */
    unsigned depth;
    const int *fds;
    unsigned nfds;
    const struct iovec *bufs;
    unsigned nbufs;
    char *err;
    size_t errlen;
    int init_rc;
    bool init_done;
    /* worker side: staged, not handed over yet */
    struct io_req **stg;
    unsigned nstg;
    /* under mu: handed over, and completed */
    struct io_req **pend;
    unsigned npend;
    struct io_req **cq;
    unsigned ncq;
    int error;                    /* the real engine failed (-errno) */
    bool stop;
    bool sleeping;                /* the submitter sleeps in poll(): signal wake_fd */
    /* eventfds: the worker wakes the submitter; the engine's completions */
    int wake_fd, comp_fd;
    bool notified;                /* the engine signals comp_fd */
    /* submitter's own */
    struct io_req **batch, **reaped;
    unsigned inflight;
};

static uint64_t mono_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* read an eventfd's count (none: EAGAIN), so that it signals anew */
static void drain(int fd)
{
    uint64_t v;
    ssize_t n = read(fd, &v, sizeof(v));
    (void)n;
}

static void *submitter(void *arg)
{
    struct woffload *o = arg;
    int rc = o->inner->init(&o->ie, o->depth, o->fds, o->nfds, o->bufs, o->nbufs, o->err, o->errlen);
    if (rc == 0 && o->inner->notify)
        o->notified = o->inner->notify(&o->ie, o->comp_fd) == 0;
    pthread_mutex_lock(&o->mu);
    o->init_rc = rc;
    o->init_done = true;
    pthread_cond_broadcast(&o->to_wrk);
    pthread_mutex_unlock(&o->mu);
    if (rc < 0)
        return NULL;
    for (;;) {
        pthread_mutex_lock(&o->mu);
        if (!o->notified)
            while (!o->npend && !o->inflight && !o->stop)
                pthread_cond_wait(&o->to_sub, &o->mu);
        if ((o->stop && !o->npend && !o->inflight) || o->error) {
            pthread_mutex_unlock(&o->mu);
            break;
        }
        unsigned n = o->npend;
        memcpy(o->batch, o->pend, n * sizeof(*o->batch));
        o->npend = 0;
        pthread_mutex_unlock(&o->mu);
        int got = 0;
        for (unsigned i = 0; i < n; i++) {
            int q = o->inner->queue(&o->ie, o->batch[i]);
            if (q < 0) {
                /* cannot happen (same depth); completes with its error */
                o->batch[i]->res = q;
                o->reaped[got++] = o->batch[i];
            } else {
                o->inflight++;
            }
        }
        int r = 0;
        if (o->inflight) {
            /* with notify: submit and reap what is there, never wait here */
            unsigned min_done = o->notified || n ? 0 : 1;
            r = o->inner->run(&o->ie, min_done, o->notified ? 0 : OFFLOAD_NAP, o->reaped + got,
                              o->depth - (unsigned)got);
        }
        pthread_mutex_lock(&o->mu);
        if (r < 0) {
            o->error = r;
        } else {
            o->inflight -= (unsigned)r;
            got += r;
        }
        memcpy(o->cq + o->ncq, o->reaped, (unsigned)got * sizeof(*o->cq));
        o->ncq += (unsigned)got;
        if (got || r < 0)
            pthread_cond_broadcast(&o->to_wrk);
        /* sleep when a round found nothing to do (a round that did
         * something is followed by one more: requests an engine left
         * staged are submitted by it) until requests are handed over or,
         * with requests in flight, one completes */
        if (o->notified && !n && !r && !o->npend && !o->error && !(o->stop && !o->inflight)) {
            o->sleeping = true;
            unsigned inflight = o->inflight;
            pthread_mutex_unlock(&o->mu);
            struct pollfd pf[2] = {{.fd = o->wake_fd, .events = POLLIN}, {.fd = o->comp_fd, .events = POLLIN}};
            if (poll(pf, inflight ? 2 : 1, -1) > 0) {
                if (pf[0].revents)
                    drain(o->wake_fd);
                if (inflight && pf[1].revents)
                    drain(o->comp_fd); /* before reaping: a later completion signals again */
            }
            pthread_mutex_lock(&o->mu);
            o->sleeping = false;
        }
        pthread_mutex_unlock(&o->mu);
    }
    o->inner->exit(&o->ie);
    return NULL;
}

/* under mu: the submitter has something new to look at */
static void wake_submitter(struct woffload *o)
{
    if (o->notified) {
        if (o->sleeping) {
            uint64_t one = 1;
            ssize_t n = write(o->wake_fd, &one, sizeof(one));
            (void)n; /* fails only when the count is full: it is awake */
        }
    } else {
        pthread_cond_signal(&o->to_sub);
    }
}

static void handover(struct woffload *o)
{
    if (!o->nstg)
        return;
    pthread_mutex_lock(&o->mu);
    memcpy(o->pend + o->npend, o->stg, o->nstg * sizeof(*o->pend));
    o->npend += o->nstg;
    o->nstg = 0;
    wake_submitter(o);
    pthread_mutex_unlock(&o->mu);
}

static void offload_free(struct woffload *o)
{
    pthread_cond_destroy(&o->to_sub);
    pthread_cond_destroy(&o->to_wrk);
    pthread_mutex_destroy(&o->mu);
    if (o->wake_fd >= 0)
        close(o->wake_fd);
    if (o->comp_fd >= 0)
        close(o->comp_fd);
    free(o->stg);
    free(o->pend);
    free(o->cq);
    free(o->batch);
    free(o->reaped);
    free(o);
}

static int off_init(struct engine *e, unsigned depth, const int *fds, unsigned nfds,
                    const struct iovec *bufs, unsigned nbufs, char *err, size_t errlen)
{
    struct woffload *o = e->priv;
    o->ie.ops = o->inner;
    o->ie.slots = e->slots;
    o->ie.depth = e->depth;
    o->ie.flush_writes = e->flush_writes;
    o->ie.uring = e->uring;
    o->ie.sg = e->sg;
    o->depth = depth;
    o->fds = fds;
    o->nfds = nfds;
    o->bufs = bufs;
    o->nbufs = nbufs;
    o->err = err;
    o->errlen = errlen;
    o->stg = calloc(depth, sizeof(*o->stg));
    o->pend = calloc(depth, sizeof(*o->pend));
    o->cq = calloc(depth, sizeof(*o->cq));
    o->batch = calloc(depth, sizeof(*o->batch));
    o->reaped = calloc(depth, sizeof(*o->reaped));
    o->wake_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    o->comp_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    int rc = 0;
    if (!o->stg || !o->pend || !o->cq || !o->batch || !o->reaped)
        rc = -ENOMEM;
    else if (o->wake_fd < 0 || o->comp_fd < 0)
        rc = -errno;
    else if ((rc = -pthread_create(&o->th, NULL, submitter, o)) == 0) {
        o->started = true;
        pthread_mutex_lock(&o->mu);
        while (!o->init_done)
            pthread_cond_wait(&o->to_wrk, &o->mu);
        rc = o->init_rc;
        pthread_mutex_unlock(&o->mu);
    }
    if (rc < 0) {
        if (o->started)
            pthread_join(o->th, NULL);
        e->ops = o->inner;
        e->priv = NULL;
        offload_free(o);
    }
    return rc;
}

static int off_queue(struct engine *e, struct io_req *r)
{
    struct woffload *o = e->priv;
    if (o->nstg >= o->depth)
        return -EAGAIN;
    o->stg[o->nstg++] = r;
    return 0;
}

static int off_submit(struct engine *e)
{
    struct woffload *o = e->priv;
    handover(o);
    return 0;
}

static int off_run(struct engine *e, unsigned min_done, uint64_t timeout_ns, struct io_req **done,
                   unsigned max)
{
    struct woffload *o = e->priv;
    handover(o);
    struct timespec dl;
    if (timeout_ns) {
        uint64_t t = mono_ns() + timeout_ns;
        dl.tv_sec = (time_t)(t / 1000000000ull);
        dl.tv_nsec = (long)(t % 1000000000ull);
    }
    pthread_mutex_lock(&o->mu);
    while (o->ncq < min_done && !o->error) {
        if (!timeout_ns)
            pthread_cond_wait(&o->to_wrk, &o->mu);
        else if (pthread_cond_timedwait(&o->to_wrk, &o->mu, &dl) == ETIMEDOUT)
            break;
    }
    unsigned n = o->ncq < max ? o->ncq : max;
    memcpy(done, o->cq, n * sizeof(*done));
    memmove(o->cq, o->cq + n, (o->ncq - n) * sizeof(*o->cq));
    o->ncq -= n;
    int err = o->error;
    pthread_mutex_unlock(&o->mu);
    return n == 0 && err ? err : (int)n;
}

static void off_exit(struct engine *e)
{
    struct woffload *o = e->priv;
    if (!o)
        return;
    pthread_mutex_lock(&o->mu);
    o->stop = true;
    wake_submitter(o);
    pthread_mutex_unlock(&o->mu);
    pthread_join(o->th, NULL);
    e->ops = o->inner;
    e->priv = NULL;
    offload_free(o);
}

int woffload_wrap(struct engine *e)
{
    struct woffload *o = calloc(1, sizeof(*o));
    if (!o)
        return -ENOMEM;
    o->wake_fd = o->comp_fd = -1;
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_mutex_init(&o->mu, NULL);
    pthread_cond_init(&o->to_sub, NULL);
    pthread_cond_init(&o->to_wrk, &ca);
    pthread_condattr_destroy(&ca);
    o->inner = e->ops;
    o->ops = *e->ops;
    o->ops.init = off_init;
    o->ops.queue = off_queue;
    o->ops.run = off_run;
    /* slat (the submitting call's return) only where the real engine has
     * one: the hand-over to the submitter */
    o->ops.submit = e->ops->submit ? off_submit : NULL;
    o->ops.exit = off_exit;
    e->ops = &o->ops;
    e->priv = o;
    return 0;
}
