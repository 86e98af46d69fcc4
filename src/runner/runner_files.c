/* runner_files.c - set-up of fio's file sets (LAYOUT_FILES): every file a
 * job's clones serve is opened once, created at the size fio gives it
 * (target/fileset.h) and, for writing, judged by the guard on the
 * descriptor the I/O then uses, as any target; and the page-cache steps
 * before the run of every job (pre_read, invalidate). Declared in
 * runner_int.h. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "runner/runner_hold.h"
#include "runner/runner_int.h"
#include "target/fileset.h"
#include "job/job_fiosize.h"
#include "job/job_opts.h"

/* fio's create_work_dirs: the directories in a generated file name are
 * made (mode 0700) before the file; existing ones are left alone. */
static int make_parents(const char *path, char *err, size_t errlen)
{
    char d[JOB_PATH_MAX];
    snprintf(d, sizeof(d), "%s", path);
    for (char *s = strchr(d + 1, '/'); s; s = strchr(s + 1, '/')) {
        *s = 0;
        if (mkdir(d, 0700) < 0 && errno != EEXIST) {
            snprintf(err, errlen, "%s: cannot create directory %s: %s", path, d, strerror(errno));
            return -errno;
        }
        *s = '/';
    }
    return 0;
}

/* What a file set does not combine with, refused before anything is opened. */
static int fileset_refusals(const struct job_spec *j, unsigned nf, unsigned clones, char *err, size_t errlen)
{
    if (j->source || j->fill_device) {
        snprintf(err, errlen, "job '%s': nrfiles does not combine with %s", j->name,
                 j->source ? "a shared request source" : "fill_device");
        return -EINVAL;
    }
    if (j->ntargets < 1 || (uint64_t)clones * nf > JOB_MAX_TARGETS) {
        snprintf(err, errlen, "job '%s': %u clones x %u files do not fit the job's %u targets", j->name,
                 clones, nf, j->ntargets);
        return -EINVAL;
    }
    return 0;
}

/* O_DIRECT: the file set's block sizes and offset against each file's
 * logical block size. */
static int fileset_check_direct(const struct job_spec *j, const struct job_setup *js, char *err, size_t errlen)
{
    for (unsigned i = 0; i < js->ntargets; i++) {
        uint32_t lbs = js->tg[i].info.logical_block ? js->tg[i].info.logical_block : 512;
        if (j->res.bs_min % lbs || j->offset % lbs) {
            snprintf(err, errlen,
                     "%s: block size and offset must be multiples of its logical block size %u (needed for O_DIRECT); or use direct=0",
                     js->tg[i].info.path, lbs);
            return -EINVAL;
        }
    }
    return 0;
}

int runner_setup_files(const struct job_spec *j, unsigned jidx, const struct runner_opts *opts,
                       struct job_setup *setups, struct phase_stats *out, char *err, size_t errlen)
{
    struct job_setup *js = &setups[jidx];
    unsigned nf = j->nrfiles ? j->nrfiles : 1, clones = j->numjobs ? j->numjobs : 1;
    bool writes = job_rw_destroys(j) && !(j->verify != VERIFY_OFF && j->verify_only);
    int crc = fileset_refusals(j, nf, clones, err, errlen);
    if (crc < 0)
        return crc;
    /* every file the job will write is judged before any is created, so a
     * refused one leaves no new files behind (target_open decides again,
     * on the descriptor the I/O uses) */
    for (unsigned i = 0; writes && i < j->ntargets; i++) {
        int rc = target_check_write(j->targets[i], opts->consent, err, errlen);
        if (rc < 0)
            return rc;
    }
    /* fio's sizes before the run (0: not there yet); fio refuses a clone
     * whose files have none when neither size= in bytes nor filesize says
     * how large to make them */
    uint64_t real[JOB_MAX_TARGETS] = {0};
    bool regular[JOB_MAX_TARGETS] = {false};
    for (unsigned i = 0; i < j->ntargets; i++) {
        struct stat st;
        if (stat(j->targets[i], &st) < 0)
            regular[i] = errno == ENOENT; /* fio's type of a file it will create */
        else if (S_ISREG(st.st_mode))
            real[i] = (uint64_t)st.st_size, regular[i] = true;
    }
    bool sized = (j->size > 0 && !(j->size_pct > 0)) || j->file_size;
    for (unsigned c = 0; !sized && c < clones; c++) {
        uint64_t have = 0;
        for (unsigned f = 0; f < nf; f++) {
            unsigned i = j->fileset_idx[c * nf + f];
            if (i != JOB_FILESET_NONE && i < j->ntargets)
                have += real[i];
        }
        if (have == 0) {
            snprintf(err, errlen, "job '%s': clone %u's files are empty or not there yet and nothing gives "
                     "their size; give size= in bytes or filesize= (fio 3.33: \"you need to specify size=\")",
                     j->name, c);
            return -EINVAL;
        }
    }
    /* range sizes from the job's seed: the same seed, the same sizes */
    struct rng r;
    rng_seed(&r, j->seed ^ 0xf11e512eull);
    bool done[JOB_MAX_TARGETS] = {false};
    uint64_t pass[2] = {0, 0}; /* clone 0's files: their lengths, their shares (io_size=P%) */
    for (unsigned k = 0; k < clones * nf; k++) {
        unsigned i = j->fileset_idx[k];
        if (i == JOB_FILESET_NONE)
            continue;
        if (i >= j->ntargets) {
            snprintf(err, errlen, "job '%s': file %u of clone %u has no target", j->name, k % nf, k / nf);
            return -EINVAL;
        }
        if (done[i])
            continue;
        int rc = make_parents(j->targets[i], err, errlen);
        if (rc < 0)
            return rc;
        uint64_t start, len;
        rc = job_fio_file(j, k / nf, k % nf, nf, real[i], regular[i], &r, &start, &len, err, errlen);
        if (rc < 0)
            return rc;
        struct target_open_opts oo = {
            .write = writes,
            .direct = j->direct,
            .dsync = j->dsync,
            .sync = j->osync,
            .create_size = start + len,
            /* fio lays a file out to its region (file_append: the writes extend it) */
            .extend_to = j->file_append && regular[i] ? 0 : start + len,
            /* fio lays a file out (writes it) only when the job reads it */
            .fill_random = j->fallocate == FALLOC_UNSET || job_rw_reads(j),
            .seed = j->seed + i,
            .consent = opts->consent,
            .alloc = j->fallocate,
        };
        if (j->readonly)
            oo.create_size = 0; /* a read-only job creates nothing */
        rc = runner_hold_open(opts->hold, &js->tg[i], j->targets[i], &oo, err, errlen);
        if (rc < 0)
            return rc;
        done[i] = true;
        js->ntargets = js->ntargets > i + 1 ? js->ntargets : i + 1;
        js->fds[i] = js->tg[i].fd;
        out->job_target[jidx * JOB_MAX_TARGETS + i] = runner_add_target(out, &js->tg[i].info);
        /* a file this run created is written from 0 */
        if (j->file_append && js->tg[i].info.created)
            start = 0;
        /* an existing file smaller than its region (it was not laid out):
         * the region ends with it; file_append: the writes go past the end */
        uint64_t tsize = js->tg[i].info.size;
        if (!(j->file_append && regular[i])) {
            if (tsize <= start) {
                snprintf(err, errlen, "job '%s': offset %llu is beyond the end of %s (%llu bytes)", j->name,
                         (unsigned long long)start, j->targets[i], (unsigned long long)tsize);
                return -EINVAL;
            }
            if (len > tsize - start)
                len = tsize - start;
        }
        js->file_start[i] = start;
        js->file_len[i] = len;
        if (k < nf) {
            pass[0] += len;
            pass[1] += job_fio_file_share(j, len);
        }
        if (len < j->res.bs_min && !(j->io_size_pct > 0)) {
            snprintf(err, errlen, "job '%s': %s has %llu bytes to use, less than the block size", j->name,
                     j->targets[i], (unsigned long long)len);
            return -EINVAL;
        }
    }
    if (js->ntargets != j->ntargets) {
        snprintf(err, errlen, "job '%s': %u of its %u files are served by no clone", j->name,
                 j->ntargets - js->ntargets, j->ntargets);
        return -EINVAL;
    }
    /* one pass of a clone: its files' regions; size, when smaller, caps it
     * (fio: with filesize, size is the I/O amount); io_size=P%: its share */
    js->region_start = js->file_start[j->fileset_idx[0]];
    js->region_len = job_fio_null_pass(j, pass[0]);
    js->io_share = job_fio_null_pass(j, pass[1]);
    if (js->region_len < j->res.bs_min || js->io_share < j->res.bs_min) {
        snprintf(err, errlen, "job '%s': %llu bytes to use, less than the block size (fio 3.33: \"blocksize "
                 "is larger than data set range\")", j->name,
                 (unsigned long long)(js->io_share < js->region_len ? js->io_share : js->region_len));
        return -EINVAL;
    }
    if (j->direct && (crc = fileset_check_direct(j, js, err, errlen)) < 0)
        return crc;
    return runner_prepare_cache(j, js, err, errlen);
}

int runner_prepare_cache(const struct job_spec *j, struct job_setup *js, char *err, size_t errlen)
{
    if (!j->pre_read && !j->invalidate)
        return 0;
    for (unsigned i = 0; i < js->ntargets; i++) {
        const struct target *t = &js->tg[i];
        if (t->fd < 0)
            continue;
        uint64_t off = 0, len = 0;
        if (j->layout == LAYOUT_FILES) {
            off = js->file_start[i];
            len = js->file_len[i];
        } else if (j->layout == LAYOUT_JBOD) {
            off = js->region_start;
            len = js->region_len;
        }
        if (j->pre_read) {
            /* fio: pre-reading clears invalidate */
            int rc = target_pre_read(t, off, len, err, errlen);
            if (rc < 0)
                return rc;
            continue;
        }
        /* the whole target, outside file sets: every clone's region is in it */
        if (j->layout != LAYOUT_FILES)
            off = len = 0;
        char msg[256];
        if (target_invalidate(t, off, len, msg, sizeof(msg)) < 0)
            fprintf(stderr, "ssdbench: warning: %s\n", msg);
    }
    return 0;
}
