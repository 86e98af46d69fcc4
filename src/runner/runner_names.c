/* runner_names.c - set-up of a job on a file-operation engine (filecreate,
 * filestat, filedelete: engine/engine_names.c). Such a job has no
 * descriptors: its files are a name set, nrfiles names per clone from the
 * job's names_fmt (tens of thousands are fine: nothing is held per name
 * but, for filedelete, its identity), each file_len bytes of the clone's
 * region, so an I/O's offset names its file.
 *
 * The guard, before the run: filestat and filedelete lay missing files out
 * as fio does (created by target_open at the file's size, ssdbench's
 * own); filedelete opens every existing name for writing through
 * target_open, so a file that is not ssdbench's needs consent, and
 * records the device and inode judged, the only file the engine will
 * remove under that name. filecreate writes no existing file (the engine
 * opens a name already there read-only), so it judges nothing. And the
 * exec engine's NAME.stdout and NAME.stderr, which it writes: opened
 * through target_open like any target written. Declared in
 * runner_int.h. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/outfile.h"
#include "runner/runner_int.h"

/* Clone c's head and tail around $filenum (names_fmt keeps $jobnum and
 * $filenum in lower case, at most one $filenum). */
static int clone_names(const struct job_spec *j, unsigned c, struct engine_names *n)
{
    memset(n, 0, sizeof(*n));
    if (!j->names_fmt[0]) {
        n->numbered = false;
        return snprintf(n->head, sizeof(n->head), "%s", j->targets[0]) >= (int)sizeof(n->head) ? -1 : 0;
    }
    char buf[512], *out = buf;
    size_t room = sizeof(buf);
    const char *s = j->names_fmt;
    while (*s) {
        int k;
        if (!strncmp(s, "$jobnum", 7)) {
            k = snprintf(out, room, "%u", c);
            s += 7;
        } else {
            k = snprintf(out, room, "%c", *s);
            s++;
        }
        if (k < 0 || (size_t)k >= room)
            return -1;
        out += k;
        room -= (size_t)k;
    }
    char *hit = strstr(buf, "$filenum");
    n->numbered = hit != NULL;
    if (hit)
        *hit = 0;
    if (snprintf(n->head, sizeof(n->head), "%s", buf) >= (int)sizeof(n->head) ||
        (hit && snprintf(n->tail, sizeof(n->tail), "%s", hit + 8) >= (int)sizeof(n->tail)))
        return -1;
    return 0;
}

static unsigned names_count(const struct job_spec *j)
{
    return j->names_fmt[0] && j->nrfiles ? j->nrfiles : 1;
}

/* filestat/filedelete: lay file f out when missing (fio's layout), judge an
 * existing one for deletion; ids (filedelete) gets what was judged. */
static int prepare_name(const struct job_spec *j, const struct runner_opts *opts, const char *path,
                        uint64_t len, uint64_t *ids, char *err, size_t errlen)
{
    struct stat st;
    bool exists = lstat(path, &st) == 0;
    if (exists && j->engine == ENGINE_FILESTAT)
        return 0; /* looked up only */
    struct target_open_opts oo = {
        .write = true,
        .create_size = exists ? 0 : len,
        .fill_random = false,
        .seed = j->seed,
        .consent = opts->consent,
        .alloc = j->fallocate,
    };
    struct target t;
    int rc = target_open(&t, path, &oo, err, errlen);
    if (rc < 0)
        return rc;
    if (ids) {
        ids[0] = (uint64_t)t.dev;
        ids[1] = (uint64_t)t.ino;
        if (!ids[0] && !ids[1]) {
            struct stat fst;
            if (fstat(t.fd, &fst) == 0) {
                ids[0] = (uint64_t)fst.st_dev;
                ids[1] = (uint64_t)fst.st_ino;
            }
        }
    }
    target_close(&t, false);
    return 0;
}

int runner_setup_names(const struct job_spec *j, unsigned jidx, const struct runner_opts *opts,
                       struct job_setup *js, struct phase_stats *out, char *err, size_t errlen)
{
    unsigned nf = names_count(j), clones = j->numjobs ? j->numjobs : 1;
    if (!j->names_fmt[0] && j->ntargets != 1) {
        snprintf(err, errlen, "job '%s': ioengine=%s takes one filename, or none and nrfiles names", j->name,
                 job_engine_name(j->engine));
        return -EINVAL;
    }
    uint64_t len = j->file_size ? j->file_size : j->size / nf;
    if (len == 0) {
        snprintf(err, errlen, "job '%s': ioengine=%s needs filesize or size", j->name, job_engine_name(j->engine));
        return -EINVAL;
    }
    uint64_t total = len * nf;
    js->region_start = 0;
    js->region_len = j->size && j->size < total ? j->size : total;
    if (js->region_len < job_bs_max(j) && js->region_len < len) {
        snprintf(err, errlen, "job '%s': %llu bytes to use, less than the block size", j->name,
                 (unsigned long long)js->region_len);
        return -EINVAL;
    }
    js->names_len = len;
    if (j->engine == ENGINE_FILEDELETE && !(js->name_ids = calloc((size_t)clones * nf * 2, sizeof(uint64_t)))) {
        snprintf(err, errlen, "out of memory");
        return -ENOMEM;
    }
    for (unsigned c = 0; j->engine != ENGINE_FILECREATE && c < clones; c++) {
        struct engine_names n;
        if (clone_names(j, c, &n) < 0) {
            snprintf(err, errlen, "job '%s': file names too long", j->name);
            return -EINVAL;
        }
        for (unsigned f = 0; f < nf; f++) {
            char path[512];
            if (engine_name_of(&n, f, path, sizeof(path)) < 0) {
                snprintf(err, errlen, "job '%s': file name %u too long", j->name, f);
                return -EINVAL;
            }
            int rc = prepare_name(j, opts, path, len, js->name_ids ? js->name_ids + 2 * ((size_t)c * nf + f) : NULL,
                                  err, errlen);
            if (rc < 0)
                return rc;
        }
    }
    struct target_info ti;
    memset(&ti, 0, sizeof(ti));
    snprintf(ti.path, sizeof(ti.path), "(%s names)", job_engine_name(j->engine));
    snprintf(ti.resolved, sizeof(ti.resolved), "(%s names of job %.100s)", job_engine_name(j->engine), j->name);
    ti.size = js->region_len;
    ti.rotational = -1;
    js->ntargets = 1;
    js->fds[0] = -1;
    js->tg[0].info = ti;
    js->tg[0].fd = -1;
    out->job_target[jidx * JOB_MAX_TARGETS] = runner_add_target(out, &ti);
    return 0;
}

int runner_names_worker(struct worker *w, const struct job_spec *j, const struct job_setup *js, char *err,
                        size_t errlen)
{
    struct engine_names *n = &w->eng.names;
    if (clone_names(j, w->clone, n) < 0) {
        snprintf(err, errlen, "job '%s': file names too long", j->name);
        return -EINVAL;
    }
    n->nfiles = names_count(j);
    n->file_len = js->names_len;
    n->stat_type = j->small.stat_type;
    n->ids = js->name_ids ? js->name_ids + 2 * (size_t)w->clone * n->nfiles : NULL;
    return 0;
}

int runner_e4defrag_donor(const struct job_spec *j, const struct runner_opts *opts, struct job_setup *js,
                          char *err, size_t errlen)
{
    const char *path = j->small.donor;
    /* a file the job names for ssdbench to create and change: absent or a
     * regular file, never a link or a device planted there */
    int rc = outfile_check_strict(path, err, errlen);
    if (rc < 0)
        return rc;
    struct target_open_opts oo = {
        .write = true,
        .create_size = 1, /* created, then emptied below: fio creates it empty */
        .fill_random = false,
        .seed = j->seed,
        .consent = opts->consent,
    };
    rc = target_open(&js->donor, path, &oo, err, errlen);
    if (rc < 0)
        return rc;
    js->donor_open = true;
    if (js->donor.info.created && ftruncate(js->donor.fd, 0) < 0) {
        snprintf(err, errlen, "%s: cannot empty it: %s", path, strerror(errno));
        return -errno;
    }
    /* fio's e4defrag init: without inplace the donor is allocated over
     * [offset, filesize) once (fio's file_size_high - start_offset) */
    if (!j->small.inplace) {
        uint64_t hi = j->file_size_hi > j->file_size ? j->file_size_hi : j->file_size;
        int64_t len = (int64_t)(hi - j->offset);
        if (hi <= j->offset || fallocate(js->donor.fd, 0, (off_t)j->offset, (off_t)len) < 0) {
            int e = hi <= j->offset ? EINVAL : errno;
            snprintf(err, errlen, "e4defrag: cannot allocate the donor file %s over [offset, filesize) "
                     "(%" PRIu64 ", %" PRIu64 "): %s (fio: give filesize=, or inplace=1)",
                     path, j->offset, hi, strerror(e));
            return -e;
        }
    }
    return 0;
}

int runner_exec_outputs(const struct job_spec *j, const struct runner_opts *opts, struct job_setup *js, char *err,
                        size_t errlen)
{
    if (!j->exec.std_redirect)
        return 0;
    static const char *const ext[2] = {"stdout", "stderr"};
    for (unsigned i = 0; i < 2; i++) {
        char path[JOB_PATH_MAX];
        snprintf(path, sizeof(path), "%.200s.%s", j->name, ext[i]);
        /* a name ssdbench makes itself: absent or a regular file, never a
         * link or a device planted there (the rule of every derived name) */
        int rc = outfile_check_strict(path, err, errlen);
        if (rc < 0) {
            if (i)
                target_close(&js->exec_out[0], false);
            return rc;
        }
        struct target_open_opts oo = {
            .write = true,
            .create_size = 1, /* created, then emptied below */
            .fill_random = false,
            .seed = j->seed,
            .consent = opts->consent,
        };
        rc = target_open(&js->exec_out[i], path, &oo, err, errlen);
        if (rc < 0) {
            if (i)
                target_close(&js->exec_out[0], false);
            return rc;
        }
        /* fio opens them O_TRUNC: the program's output starts the file */
        if (ftruncate(js->exec_out[i].fd, 0) < 0) {
            snprintf(err, errlen, "%s: cannot empty it: %s", path, strerror(errno));
            target_close(&js->exec_out[i], false);
            if (i)
                target_close(&js->exec_out[0], false);
            return -errno;
        }
    }
    js->exec_open = true;
    return 0;
}
