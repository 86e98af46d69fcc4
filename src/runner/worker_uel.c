/* fio's unlink_each_loop for a worker: between two passes over the region
 * (loops), once nothing is in flight, every file of the worker that this
 * run created is unlinked (only while its path still names that file,
 * as unlink=1) and made anew, empty, under the same descriptor number
 * (dup2), so the engine's descriptors stay valid; the next pass writes it
 * again. A file the run found is neither removed nor replaced. */
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
    const char *why = j->layout == LAYOUT_FILES              ? "a file set (nrfiles)"
                      : j->zone_mode != JOB_ZONE_NONE         ? "zones"
                      : j->verify != VERIFY_OFF               ? "verify"
                      : job_rw_reads(j) || job_rw_trims(j)    ? "reads or trims (only writes)"
                      : j->numjobs > 1 && !own_files          ? "numjobs > 1 on files the clones share"
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
    return 0;
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
 * with the descriptor's flags, and put under the old descriptor number. */
static int renew_one(struct target *t, char *err, size_t errlen)
{
    struct stat st = {.st_dev = t->dev, .st_ino = t->ino, .st_mode = S_IFREG};
    int flags = fcntl(t->fd, F_GETFL);
    if (flags < 0)
        return -errno;
    int rc = target_unlink_same(t->info.path, &st);
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
    if (fstat(nfd, &nst) < 0 || dup3(nfd, t->fd, O_CLOEXEC) < 0) {
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
        int rc = renew_one(t, err, errlen);
        if (rc < 0)
            return rc;
    }
    return 0;
}
