/* fio's unlink_each_loop for a worker: between two passes over the region
 * (loops), once nothing is in flight, every file of the worker that this
 * run created is unlinked (only while its path still names that file,
 * as unlink=1) and made anew, empty, under the same descriptor number
 * (dup2), so the engine's descriptors stay valid; the next pass writes it
 * again. A file the run found is neither removed nor replaced.
 *
 * Clones sharing a file (numjobs > 1 with filename=) do as fio's threads
 * do, each at the end of its own pass: it removes the name, if the name
 * still holds the file this run last put there (made at set-up, or by a
 * clone's renewal), and opens the name anew, so it writes the new file
 * while the other clones go on writing the file they had open (removed)
 * until their own pass ends, when they remove the name in turn (the file
 * the first made) and make their own. Each clone has its own descriptor
 * of the file for this; one clone at a time removes and makes the name
 * (the job's lock), so the race in which a fio clone finds the name
 * removed by another and not made yet (fio: ENOENT, the clone stops) does
 * not happen: the name is made. The file left is the one the last clone
 * to renew made, written by its last pass, as in fio. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "runner/runner_int.h"
#include "target/target.h"

int wuel_setup(struct worker *w, const struct job_spec *j, struct job_setup *js, char *err,
               size_t errlen)
{
    if (!j->unlink_each_loop)
        return 0;
    /* clones each on their own file (fio's per-clone names) renew only
     * their own */
    bool own_files = j->layout == LAYOUT_JBOD && js->ntargets == j->numjobs && w->map.ntouch == 1;
    bool shared = j->numjobs > 1 && !own_files;
    const char *why = j->layout == LAYOUT_FILES              ? "a file set (nrfiles)"
                      : j->zone_mode != JOB_ZONE_NONE         ? "zones"
                      : j->verify != VERIFY_OFF               ? "verify"
                      : job_rw_reads(j) || job_rw_trims(j)    ? "reads or trims (only writes)"
                      : shared && (j->layout != LAYOUT_JBOD || w->map.ntouch != 1)
                                                              ? "clones sharing a stripe"
                      : j->read_iolog[0]                      ? "read_iolog"
                      : j->engine == ENGINE_IO_URING && j->uring.registerfiles == ENGINE_KNOB_ON
                                                              ? "registerfiles=1 (a registered file would stay the removed one)"
                      : j->engine != ENGINE_PSYNC && j->engine != ENGINE_LIBAIO && j->engine != ENGINE_IO_URING
                                                              ? "this engine"
                                                              : NULL;
    if (why) {
        snprintf(err, errlen, "job '%s': unlink_each_loop=1 is done for write jobs with psync, libaio or io_uring, not with %s",
                 j->name, why);
        return -EINVAL;
    }
    w->uel.on = true;
    w->uel.uring = j->uring;
    w->uel.uring.registerfiles = ENGINE_KNOB_OFF;
    w->uel.tg = js->tg;
    w->uel.first = w->map.layout == LAYOUT_JBOD ? w->first_target : 0;
    w->uel.n = w->map.ntouch;
    w->uel.pass_seen = 0;
    if (shared && w->uel.first < js->ntargets && js->tg[w->uel.first].fd >= 0) {
        /* its own descriptor of the file, renewed without the others' */
        int fd = fcntl(js->tg[w->uel.first].fd, F_DUPFD_CLOEXEC, 0);
        if (fd < 0) {
            snprintf(err, errlen, "%s: unlink_each_loop: %s", js->tg[w->uel.first].info.path, strerror(errno));
            return -errno;
        }
        if (!js->uel_lock_on) {
            pthread_mutex_init(&js->uel_lock, NULL);
            js->uel_lock_on = true;
        }
        w->uel.shared = true;
        w->uel.own_fd = fd;
        w->uel.lock = &js->uel_lock;
        w->local_fds[w->uel.first] = fd;
    }
    return 0;
}

void wuel_free(struct worker *w)
{
    if (w->uel.shared)
        close(w->uel.own_fd);
    w->uel.shared = false;
}

void wuel_free_job(struct job_setup *js)
{
    if (js->uel_lock_on)
        pthread_mutex_destroy(&js->uel_lock);
    js->uel_lock_on = false;
}

bool wuel_pass_over(struct worker *w, const struct io_req *r)
{
    struct wuel *u = &w->uel;
    if (w->gen.pass == u->pass_seen)
        return false;
    u->pass_seen = w->gen.pass;
    u->held = *r;
    u->have_held = true;
    u->due = true;
    return true;
}

bool wuel_take_held(struct worker *w, struct io_req *r)
{
    struct wuel *u = &w->uel;
    if (!u->have_held || u->due)
        return false;
    r->op = u->held.op;
    r->len = u->held.len;
    r->off = u->held.off;
    r->target = u->held.target;
    r->file = u->held.file;
    u->have_held = false;
    return true;
}

/* One file: unlinked if it still is the one created, made anew (O_EXCL)
 * with the descriptor's flags, and put under the old descriptor number
 * (own >= 0: a clone's own descriptor of a file clones share, renewed too;
 * a name another remover took away is made again). */
static int renew_one(struct target *t, int own, char *err, size_t errlen)
{
    struct stat st = {.st_dev = t->dev, .st_ino = t->ino, .st_mode = S_IFREG};
    int flags = fcntl(own >= 0 ? own : t->fd, F_GETFL);
    if (flags < 0)
        return -errno;
    int rc = target_unlink_same(t->info.path, &st);
    if (rc == -ENOENT && own >= 0)
        rc = 0;
    if (rc < 0) {
        snprintf(err, errlen, "%s: unlink_each_loop: not removed: %s", t->info.path,
                 rc == -ESTALE ? "the name no longer holds the file this run created" : strerror(-rc));
        return rc;
    }
    int nfd = open(t->info.path,
                   O_CREAT | O_EXCL | O_CLOEXEC | (flags & (O_ACCMODE | O_DIRECT | O_DSYNC | O_SYNC)), 0600);
    if (nfd < 0) {
        rc = -errno;
        snprintf(err, errlen, "%s: unlink_each_loop: cannot create: %s", t->info.path, strerror(errno));
        return rc;
    }
    struct stat nst;
    if (fstat(nfd, &nst) < 0 || dup3(nfd, t->fd, O_CLOEXEC) < 0 || (own >= 0 && dup3(nfd, own, O_CLOEXEC) < 0)) {
        rc = -errno;
        snprintf(err, errlen, "%s: unlink_each_loop: %s", t->info.path, strerror(errno));
        close(nfd);
        return rc;
    }
    close(nfd);
    t->dev = nst.st_dev;
    t->ino = nst.st_ino;
    return 0;
}

int wuel_renew(struct worker *w, char *err, size_t errlen)
{
    struct wuel *u = &w->uel;
    u->due = false;
    for (unsigned i = 0; i < u->n; i++) {
        struct target *t = &u->tg[u->first + i];
        if (!t->info.created || t->info.kind != TARGET_FILE)
            continue; /* found, not made: kept, as unlink=1 keeps it */
        if (u->shared)
            pthread_mutex_lock(u->lock);
        int rc = renew_one(t, u->shared ? u->own_fd : -1, err, errlen);
        if (u->shared)
            pthread_mutex_unlock(u->lock);
        if (rc < 0)
            return rc;
    }
    return 0;
}
