/* worker_vasync.c - verify_async's check threads of a worker (see
 * worker_vasync.h). */
#include "runner/worker_vasync.h"

#include "base/cpulist.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct wva_item {
    struct io_req *r;
    struct wverify_job vj;
    bool done;                   /* checked */
    bool good;
    bool first;                  /* the first bad block: this thread wrote its dump */
    struct verify_bad bad;
};

struct wva_thread {
    struct wvasync *va;
    pthread_t th;
    void *scratch;               /* the expected block of this thread's check */
    struct wverify_dumped dumped;
};

struct wvasync {
    const struct worker *w;      /* read only on the threads: the job, the layout */
    pthread_mutex_t mu;
    pthread_cond_t work, checked;
    /* [cap]: the reads handed over, in order; item i at i % cap. Taken
     * back in that order (nh: the next to take), so a bad block holds back
     * the slots of every read handed over after it, as the worker's own
     * check would; nc: the next to check, nt: the next to hand over */
    struct wva_item *ring;
    unsigned cap;
    uint64_t nh, nc, nt;
    bool exit;
    bool claimed;                /* a thread took the first bad block */
    unsigned dump_failed;
    char dump_received[JOB_PATH_MAX + 48], dump_expected[JOB_PATH_MAX + 48];
    unsigned nthreads, started;
    struct wva_thread *t;
};

static void *wva_main(void *arg)
{
    struct wva_thread *t = arg;
    struct wvasync *va = t->va;
    const struct worker *w = va->w;
    pthread_mutex_lock(&va->mu);
    for (;;) {
        while (va->nc == va->nt && !va->exit)
            pthread_cond_wait(&va->work, &va->mu);
        if (va->nc == va->nt)
            break;
        uint64_t i = va->nc++;
        struct wva_item it = va->ring[i % va->cap];
        pthread_mutex_unlock(&va->mu);
        it.good = wverify_check_block(w, it.r, &it.vj, t->scratch, &it.bad, &t->dumped);
        it.first = false;
        pthread_mutex_lock(&va->mu);
        if (!it.good && !va->claimed) { /* the first bad block reported: its dump's names */
            it.first = va->claimed = true;
            snprintf(va->dump_received, sizeof(va->dump_received), "%s", t->dumped.received);
            snprintf(va->dump_expected, sizeof(va->dump_expected), "%s", t->dumped.expected);
        }
        va->dump_failed += t->dumped.failed;
        t->dumped.failed = 0;
        it.done = true;
        va->ring[i % va->cap] = it;
        if (i == va->nh)
            pthread_cond_signal(&va->checked);
    }
    pthread_mutex_unlock(&va->mu);
    return NULL;
}

static void wva_free(struct wvasync *va)
{
    for (unsigned i = 0; i < va->nthreads; i++)
        free(va->t[i].scratch);
    free(va->t);
    free(va->ring);
    pthread_cond_destroy(&va->work);
    pthread_cond_destroy(&va->checked);
    pthread_mutex_destroy(&va->mu);
    free(va);
}

static void wva_join(struct wvasync *va)
{
    pthread_mutex_lock(&va->mu);
    va->exit = true;
    pthread_cond_broadcast(&va->work);
    pthread_mutex_unlock(&va->mu);
    for (unsigned i = 0; i < va->started; i++)
        pthread_join(va->t[i].th, NULL);
    va->started = 0;
}

int wvasync_start(struct worker *w, char *err, size_t errlen)
{
    const struct job_spec *j = w->job;
    struct wvasync *va = calloc(1, sizeof(*va));
    if (!va)
        return snprintf(err, errlen, "out of memory"), -ENOMEM;
    va->w = w;
    va->cap = w->depth;
    va->nthreads = j->verify_async;
    pthread_mutex_init(&va->mu, NULL);
    pthread_cond_init(&va->work, NULL);
    pthread_cond_init(&va->checked, NULL);
    va->ring = calloc(va->cap, sizeof(*va->ring));
    va->t = calloc(va->nthreads, sizeof(*va->t));
    bool ok = va->ring && va->t;
    for (unsigned i = 0; ok && i < va->nthreads; i++) {
        va->t[i].va = va;
        ok = posix_memalign(&va->t[i].scratch, 4096, w->bufsize) == 0;
        if (!ok)
            va->t[i].scratch = NULL;
    }
    if (!ok) {
        wva_free(va);
        return snprintf(err, errlen, "out of memory for %u verify threads", j->verify_async), -ENOMEM;
    }
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    cpu_set_t set;
    CPU_ZERO(&set);
    unsigned ncpu = cpulist_count(j->verify_async_cpus, JOB_CPUSET_WORDS);
    for (unsigned c = 0; c < JOB_CPUSET_WORDS * 64 && c < CPU_SETSIZE; c++)
        if (cpulist_has(j->verify_async_cpus, c))
            CPU_SET(c, &set);
    if (ncpu)
        pthread_attr_setaffinity_np(&attr, sizeof(set), &set);
    /* the signals stay the worker's (and the main thread's) */
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, &old);
    int rc = 0;
    for (unsigned i = 0; i < va->nthreads && !rc; i++) {
        rc = pthread_create(&va->t[i].th, &attr, wva_main, &va->t[i]);
        if (!rc) {
            char name[16];
            snprintf(name, sizeof(name), "sb-verify-%u", i);
            pthread_setname_np(va->t[i].th, name);
            va->started++;
        }
    }
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    pthread_attr_destroy(&attr);
    if (rc) {
        char list[256];
        cpulist_format(j->verify_async_cpus, JOB_CPUSET_WORDS, list, sizeof(list));
        if (ncpu && rc == EINVAL)
            snprintf(err, errlen, "job '%s': verify_async_cpus: cannot run on CPUs %s", j->name, list);
        else
            snprintf(err, errlen, "job '%s': only %u of %u verify threads started: %s", j->name, va->started,
                     va->nthreads, strerror(rc));
        wva_join(va);
        wva_free(va);
        return -rc;
    }
    w->vf->va = va;
    return 0;
}

void wvasync_stop(struct worker *w)
{
    struct wvasync *va = w->vf ? w->vf->va : NULL;
    if (!va)
        return;
    wva_join(va);
    w->vf->va = NULL;
    wva_free(va);
}

void wvasync_hand(struct worker *w, struct io_req *r, bool readback)
{
    struct wvasync *va = w->vf->va;
    struct wva_item it = {.r = r};
    wverify_expect(w, r, readback, &it.vj);
    pthread_mutex_lock(&va->mu);
    va->ring[va->nt % va->cap] = it;
    va->nt++;
    pthread_cond_signal(&va->work);
    pthread_mutex_unlock(&va->mu);
}

unsigned wvasync_out(const struct worker *w)
{
    const struct wvasync *va = w->vf->va;
    return (unsigned)(va->nt - va->nh); /* nt and nh change on the worker only */
}

bool wvasync_take(struct worker *w, bool wait, struct io_req **r, bool *good)
{
    struct wvasync *va = w->vf->va;
    if (va->nt == va->nh)
        return false;
    pthread_mutex_lock(&va->mu);
    while (wait && !va->ring[va->nh % va->cap].done)
        pthread_cond_wait(&va->checked, &va->mu);
    struct wva_item *it = &va->ring[va->nh % va->cap];
    if (!it->done) {
        pthread_mutex_unlock(&va->mu);
        return false;
    }
    it->done = false;
    va->nh++;
    struct verify_stats *st = &w->vf->st;
    if (it->first) { /* the first bad block a thread found is the one reported */
        st->have_first = false;
        snprintf(st->dump_received, sizeof(st->dump_received), "%s", va->dump_received);
        snprintf(st->dump_expected, sizeof(st->dump_expected), "%s", va->dump_expected);
    }
    w->side_errors += va->dump_failed;
    va->dump_failed = 0;
    wverify_account(w, it->r, it->good, &it->bad);
    *r = it->r;
    *good = it->good;
    pthread_mutex_unlock(&va->mu);
    return true;
}
