/* runner_setup.c - a phase's set-up, job by job: the targets opened and
 * checked by the guard, alignment and the region each job covers, then each
 * worker's engine, buffers, generators and logs (declared in runner_int.h). */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "base/clock.h"
#include "runner/worker_prio.h"
#include "runner/runner_hold.h"
#include "runner/runner_int.h"
#include "target/chardev_map.h"
#include "runner/worker_verify.h"
#include "base/signal.h"
#include "stats/iolog.h"
#include "job/job_opts.h"
#include "job/job_fiosize.h"
#include "target/zoned.h"

#define DEFAULT_FILE_SIZE (1ull << 30)
#define FILL_CREATE_SIZE (1ull << 20)

static int check_alignment(const struct job_spec *j, const struct target_info *ti, uint64_t start,
                           char *err, size_t errlen)
{
    uint32_t lbs = ti->logical_block ? ti->logical_block : 512;
    for (int d = 0; d < DIR_COUNT; d++) {
        if ((d == DIR_READ && !job_rw_reads(j)) || (d == DIR_WRITE && !job_rw_writes(j)) ||
            (d == DIR_TRIM && !job_rw_trims(j)))
            continue;
        for (unsigned i = 0; i < j->bs[d].n; i++)
            if (j->bs[d].bs[i] % lbs) {
                snprintf(err, errlen,
                         "%s block size %" PRIu32 " is not a multiple of %s's logical block size %" PRIu32
                         " (needed for O_DIRECT); use a multiple of %" PRIu32 " or --direct=0",
                         d == DIR_READ ? "read" : d == DIR_WRITE ? "write" : "trim", j->bs[d].bs[i],
                         ti->path, lbs, lbs);
                return -EINVAL;
            }
        if (j->blockalign[d] && j->blockalign[d] % lbs) {
            snprintf(err, errlen,
                     "blockalign %" PRIu32 " is not a multiple of %s's logical block size %" PRIu32
                     " (needed for O_DIRECT)", j->blockalign[d], ti->path, lbs);
            return -EINVAL;
        }
    }
    if (start % lbs) {
        snprintf(err, errlen,
                 "offset %" PRIu64 " is not a multiple of %s's logical block size %" PRIu32
                 " (needed for O_DIRECT)", start, ti->path, lbs);
        return -EINVAL;
    }
    return 0;
}

/* Region [start, start+len) of a space of total bytes, from offset/size or
 * their percentages. A fio job's (job file, command line: clones set)
 * offset=P% is fio's get_start_offset: P% of the file's size before the
 * run, rounded up to the smallest block size, so 0 for files this run
 * made (fresh: fio sees a size of 0); other jobs' percentages land on
 * 4 KiB. */
static int compute_region(const struct job_spec *j, uint64_t total, bool fresh, uint64_t *start, uint64_t *len,
                          char *err, size_t errlen)
{
    uint64_t s = j->offset_pct > 0 ? (uint64_t)((double)total * j->offset_pct / 100.0) : j->offset;
    if (j->offset_pct > 0 && j->clones) {
        uint64_t bs = j->res.bs_min ? j->res.bs_min : 1;
        s = fresh ? 0 : (total * (uint64_t)j->offset_pct / 100 + bs - 1) / bs * bs;
    } else {
        s &= ~(uint64_t)4095 | (j->offset_pct > 0 ? 0 : 4095); /* percentages land on 4 KiB */
    }
    if (s >= total) {
        snprintf(err, errlen, "job '%s': offset %" PRIu64 " is beyond the end of the target (%" PRIu64
                 " bytes)", j->name, s, total);
        return -EINVAL;
    }
    uint64_t l = j->size_pct > 0 ? (uint64_t)((double)total * j->size_pct / 100.0) : j->size;
    if (j->size_pct > 0)
        l &= ~(uint64_t)4095;
    if (l == 0 || s + l > total)
        l = total - s;
    *start = s;
    *len = l;
    return 0;
}

/* fio's file_append: the region of each regular file starts at its end
 * (its size when opened; offset is not used; a file it creates starts at
 * 0) and is size bytes long, so the job's writes extend the file; later
 * clones on the same file follow the earlier ones (clone_region), as fio's
 * serial set-up finds the file each earlier clone has grown. Without a
 * byte size fio's region is empty ("blocksize is larger than data set
 * range"). */
static int append_region(const struct job_spec *j, struct job_setup *js, char *err, size_t errlen)
{
    bool files = js->ntargets > 0;
    for (unsigned i = 0; i < js->ntargets; i++)
        files = files && js->tg[i].info.kind == TARGET_FILE;
    if (!files || j->layout != LAYOUT_JBOD || j->segs.n || j->zone_mode != JOB_ZONE_NONE) {
        snprintf(err, errlen, "job '%s': file_append=1 needs regular files as its targets (no devices, "
                 "stripes or zones)", j->name);
        return -EINVAL;
    }
    uint64_t size = js->tg[0].info.size;
    uint64_t start = js->tg[0].info.created ? 0 : size;
    uint64_t len = j->size > 0 && !(j->size_pct > 0) ? j->size : j->file_size > start ? j->file_size - start : 0;
    if (len < j->res.bs_min) {
        snprintf(err, errlen, "job '%s': file_append=1 appends size= bytes; without them there is nothing to "
                 "write (fio 3.33: \"blocksize is larger than data set range\")", j->name);
        return -EINVAL;
    }
    js->region_start = start;
    js->region_len = len;
    return 0;
}

/* fio's default per-clone files (NAME.k.0): numjobs became as many targets
 * of one worker each, and clone k is target k (its offset_increment too) */
static bool per_clone_files(const struct job_spec *j)
{
    return j->numjobs <= 1 && j->clones > 1 && j->clones == j->ntargets;
}

/* offset_increment: how much further than the first clone's region the
 * last clone's reaches, for the size of a file made for the job. */
static uint64_t clone_span(const struct job_spec *j)
{
    unsigned n = per_clone_files(j) ? j->clones : j->numjobs ? j->numjobs : 1;
    return j->layout == LAYOUT_JBOD ? j->offset_increment * (n - 1) : 0;
}

/* ...and for target i: a per-clone file holds its own clone's region only */
static uint64_t target_span(const struct job_spec *j, unsigned i)
{
    return per_clone_files(j) && j->layout == LAYOUT_JBOD ? j->offset_increment * i : clone_span(j);
}

/* A fio job whose starts are shares of a regular file's size (offset=P%,
 * offset_increment=P%): each clone's region is fio's arithmetic
 * (job/job_fiosize.h) on the size the file has when the clone's turn
 * comes in fio's serial set-up (create_serialize, in fio's thread order:
 * clone 0, then the last clone first): a file the clones share has been
 * laid out by the clones set up before it, a per-clone file is its own. */
static bool fio_serial_regions(const struct job_spec *j)
{
    return j->clones && j->layout == LAYOUT_JBOD && (j->offset_pct > 0 || j->offset_increment_pct > 0) &&
           !j->fill_device && !j->file_append && !j->segs.n && j->zone_mode == JOB_ZONE_NONE;
}

/* ...on target i, a regular file (missing: to be created) of before bytes
 * whose size fio knows: it has one, or size= in bytes or filesize= gives
 * it (else ssdbench's 1 GiB file, not fio's refusal) */
static bool fio_serial_target(const struct job_spec *j, bool regular, uint64_t before)
{
    return fio_serial_regions(j) && regular && (before || (j->size > 0 && !(j->size_pct > 0)) || j->file_size);
}

/* Clone k's region [*start, *start + *len) (a pass: capped by a byte
 * size) on a file of real0 bytes before the run; *reach: how far fio's
 * clones lay the file out. -EINVAL with fio's refusal. */
static int fio_clone_region(const struct job_spec *j, unsigned k, uint64_t real0, bool shared, uint64_t *start,
                            uint64_t *len, uint64_t *reach, char *err, size_t errlen)
{
    unsigned n = j->numjobs ? j->numjobs : 1;
    uint64_t real = real0, s = 0, l = 0, far = real0;
    struct rng r;
    rng_seed(&r, j->seed);
    *start = j->offset;
    *len = 0;
    for (unsigned t = 0; t < (shared ? n : 1); t++) {
        unsigned c = !shared ? k : t == 0 ? 0 : n - t; /* 0, n-1, ..., 1 */
        int rc = job_fio_file(j, c, 0, 1, real, true, &r, &s, &l, err, errlen);
        if (rc < 0)
            return rc;
        if (s + l > far)
            far = s + l;
        if (shared)
            real = far;
        if (c == k) {
            *start = s;
            *len = job_fio_null_pass(j, l);
        }
    }
    if (reach)
        *reach = far;
    return 0;
}

/* io_size=P%: the bytes of a clone's pass of len bytes from start: P% of
 * fio's f->io_size (with filesize the file up to it, which a byte size=
 * caps only afterwards), capped by a byte size= */
static uint64_t jbod_share(const struct job_spec *j, uint64_t start, uint64_t len)
{
    bool size_bytes = j->size > 0 && !(j->size_pct > 0);
    uint64_t base = size_bytes && j->file_size > start ? j->file_size - start : len;
    return job_fio_null_pass(j, job_fio_file_share(j, base));
}

/* fill_device: how far a job may write into a regular file: its size plus
 * the file system's free space, or further when size asks for more (fio
 * then writes until ENOSPC); a block device: its size. */
static uint64_t fill_space(const struct job_spec *j, const struct job_setup *js, uint64_t space)
{
    uint64_t want = j->size_pct > 0 ? 0 : j->offset + j->size;
    uint64_t m = UINT64_MAX;
    for (unsigned i = 0; i < js->ntargets; i++) {
        struct stat st;
        struct statvfs vfs;
        uint64_t t = js->tg[i].info.size;
        if (fstat(js->fds[i], &st) == 0 && S_ISREG(st.st_mode) && fstatvfs(js->fds[i], &vfs) == 0) {
            t = (uint64_t)st.st_size + (uint64_t)vfs.f_bavail * vfs.f_frsize;
            if (want > t)
                t = want;
        }
        if (t < m)
            m = t;
    }
    return m == UINT64_MAX || m < space ? space : m;
}

static uint64_t create_size(const struct job_spec *j, uint64_t span)
{
    return j->file_size     ? j->file_size
           : j->fill_device ? FILL_CREATE_SIZE /* grows as it is written */
           : j->size        ? j->offset + j->size + span
                            : DEFAULT_FILE_SIZE;
}

uint64_t runner_create_size(const struct job_spec *j)
{
    return create_size(j, clone_span(j));
}

/* A block device an earlier target of this phase holds O_EXCL: a second
 * O_EXCL open of it fails, so later jobs share it (target_share). */
static const struct target *held_device(const struct job_setup *setups, unsigned jidx, unsigned i,
                                        const struct target_info *ti, bool chardev)
{
    for (unsigned j = 0; j <= jidx; j++)
        for (unsigned t = 0; t < (j == jidx ? i : setups[j].ntargets); t++) {
            const struct target *h = &setups[j].tg[t];
            /* a passthrough node shares only with the same kind of node */
            if (h->fd >= 0 && h->exclusive && h->info.major == ti->major &&
                h->info.minor == ti->minor && h->chardev == chardev)
                return h;
        }
    return NULL;
}

/* Opens job j's targets (writes: for writing, under the guard), sharing a
 * device an earlier job of the phase holds. */
static int open_job_targets(const struct job_spec *j, unsigned jidx, const struct runner_opts *opts,
                            struct job_setup *setups, struct phase_stats *out, bool writes, char *err,
                            size_t errlen)
{
    struct job_setup *js = &setups[jidx];
    bool passthru = j->engine == ENGINE_URING_CMD || j->engine == ENGINE_SG;
    for (unsigned i = 0; i < j->ntargets; i++) {
        /* a replay's target that no log writes is opened as for reads
         * (fio's clone of a log that only reads opens its files so) */
        bool tw = writes && job_target_destroys(j, i);
        struct target_open_opts oo = {
            .write = tw,
            .direct = j->direct,
            .dsync = j->dsync,
            .sync = j->osync,
            .create_size = create_size(j, target_span(j, i)),
            /* fio lays an existing shorter file out to the job's region */
            .extend_to = j->file_append ? 0 /* the writes extend it */
                         : j->file_size || j->size_pct > 0 || j->offset_pct > 0 ? j->file_size
                         : j->size ? j->offset + j->size + target_span(j, i) : 0,
            .fill_random = true,
            .seed = j->seed + i,
            .consent = opts->consent,
            .chardev = passthru,
        };
        struct stat bst;
        bool there = stat(j->targets[i], &bst) == 0;
        bool reg = there ? S_ISREG(bst.st_mode) : errno == ENOENT;
        js->before[i] = there && reg ? (uint64_t)bst.st_size : 0;
        if (fio_serial_target(j, reg, js->before[i])) {
            /* laid out as far as fio's clones lay the file out */
            uint64_t s0, l0, reach;
            bool own = per_clone_files(j);
            int rc = fio_clone_region(j, own ? i : 0, js->before[i], !own, &s0, &l0, &reach, err, errlen);
            if (rc < 0)
                return rc;
            if (reach > oo.create_size)
                oo.create_size = reach;
            if (reach > oo.extend_to)
                oo.extend_to = reach;
        }
        if (passthru)
            oo.create_size = 0; /* devices only */
        if (j->readonly)
            oo.create_size = 0; /* a read-only job creates nothing */
        /* fio fallocate: allocate that way; laid out only for reading */
        oo.alloc = j->fallocate;
        oo.fill_random = j->fallocate == FALLOC_UNSET || job_rw_reads(j);
        /* a device an earlier job holds is shared, not opened again (the
         * share reopens the held descriptor; the name only picks which) */
        struct stat pst;
        const struct target *h = NULL;
        bool chr = false;
        if (tw && stat(j->targets[i], &pst) == 0 &&
            (S_ISBLK(pst.st_mode) || (passthru && S_ISCHR(pst.st_mode)))) {
            /* a passthrough node is held through the disk it addresses */
            dev_t d = pst.st_rdev;
            char bpath[JOB_PATH_MAX], why[256];
            chr = S_ISCHR(pst.st_mode);
            if (!chr || chardev_block(pst.st_rdev, bpath, sizeof(bpath), &d, why, sizeof(why)) == 0) {
                struct target_info want = {.major = major(d), .minor = minor(d)};
                h = held_device(setups, jidx, i, &want, chr);
            }
        }
        int rc = h ? target_share(&js->tg[i], j->targets[i], h, &oo, err, errlen)
                   : runner_hold_open(opts->hold, &js->tg[i], j->targets[i], &oo, err, errlen);
        if (!h && rc == -EPERM && js->tg[i].busy &&
            (h = held_device(setups, jidx, i, &js->tg[i].info, chr)))
            rc = target_share(&js->tg[i], j->targets[i], h, &oo, err, errlen);
        if (rc == 0 && tw && j->zone_mode != JOB_ZONE_ZBD)
            rc = zoned_check_write(&js->tg[i].info, j->name, err, errlen);
        if (rc < 0) {
            if (js->tg[i].fd >= 0 && !h)
                target_close(&js->tg[i], false);
            return rc;
        }
        js->ntargets = i + 1;
        if (j->engine == ENGINE_URING_CMD && !js->tg[i].chardev) {
            snprintf(err, errlen,
                     "%s: ioengine=io_uring_cmd needs the namespace's NVMe generic character "
                     "device (/dev/ngXnY), not a %s",
                     j->targets[i], js->tg[i].info.kind == TARGET_BLOCK ? "block device" : "file");
            return -EINVAL;
        }
        if (j->engine == ENGINE_SG && js->tg[i].info.kind != TARGET_BLOCK) {
            snprintf(err, errlen, "%s: ioengine=sg needs a SCSI disk (/dev/sdX) or its generic device (/dev/sgN)",
                     j->targets[i]);
            return -EINVAL;
        }
        js->fds[i] = js->tg[i].fd;
        out->job_target[jidx * JOB_MAX_TARGETS + i] = runner_add_target(out, &js->tg[i].info);
    }
    return 0;
}

/* fio mode: size=P% of files that are not there yet (empty or missing,
 * no filesize) is refused as fio refuses it; a clone's own file, or the
 * files the clones share, all of them */
static int fio_size_known(const struct job_spec *j, char *err, size_t errlen)
{
    if (!j->fio_size_rules || !(j->size_pct > 0) || j->file_size || j->fill_device || j->read_iolog[0])
        return 0;
    bool own = per_clone_files(j);
    unsigned empty = 0;
    for (unsigned i = 0; i < j->ntargets; i++) {
        struct stat st;
        if (stat(j->targets[i], &st) < 0 || (S_ISREG(st.st_mode) && st.st_size == 0))
            empty++;
    }
    if (!empty || (!own && empty < j->ntargets))
        return 0;
    snprintf(err, errlen, "job '%s': size=%g%% of a file that is empty or not there yet, and no filesize= "
             "(fio 3.33: \"you need to specify size=\"); give filesize= or size= in bytes", j->name,
             j->size_pct);
    return -EINVAL;
}

int runner_setup_job(const struct job_spec *j, unsigned jidx, const struct runner_opts *opts,
                     struct job_setup *setups, struct phase_stats *out, char *err, size_t errlen)
{
    struct job_setup *js = &setups[jidx];
    const struct engine_ops *ops = engine_lookup(j->engine);
    /* verify_only writes nothing: its targets are opened as for reads;
     * trims destroy data as writes do (and BLKDISCARD needs write access) */
    bool writes = job_rw_destroys(j) && !(j->verify != VERIFY_OFF && j->verify_only);
    js->ntargets = 0;
    if (ops->by_name) /* filecreate, filestat, filedelete: runner_names.c */
        return runner_setup_names(j, jidx, opts, js, out, err, errlen);
    if (j->engine == ENGINE_EXEC) { /* its output files, through the guard */
        int xrc = runner_exec_outputs(j, opts, js, err, errlen);
        if (xrc < 0)
            return xrc;
    }
    if (j->engine == ENGINE_E4DEFRAG) { /* its donor file, through the guard */
        int xrc = runner_e4defrag_donor(j, opts, js, err, errlen);
        if (xrc < 0)
            return xrc;
    }
    if (!ops->needs_files) /* the null engine: runner_null.c */
        return runner_setup_null(j, jidx, js, out, err, errlen);
    if (j->ntargets == 0) {
        snprintf(err, errlen, "job '%s': no target; give --filename=PATH (a file or a block device)",
                 j->name);
        return -EINVAL;
    }
    bool passthru = j->engine == ENGINE_URING_CMD || j->engine == ENGINE_SG;
    /* trims: Dataset Management through io_uring_cmd; sg has none */
    bool no_trims = j->engine == ENGINE_SG && job_rw_trims(j);
    if (passthru && (j->layout == LAYOUT_FILES || no_trims)) {
        snprintf(err, errlen, "job '%s': ioengine=%s runs reads and writes on device targets (%s)",
                 j->name, job_engine_name(j->engine),
                 no_trims ? "no trims" : "no file sets");
        return -EINVAL;
    }
    if (j->layout == LAYOUT_FILES) /* fio's file set: runner_files.c */
        return runner_setup_files(j, jidx, opts, setups, out, err, errlen);
    int frc = fio_size_known(j, err, errlen);
    if (frc < 0)
        return frc;
    int orc = open_job_targets(j, jidx, opts, setups, out, writes, err, errlen);
    if (orc < 0)
        return orc;
    uint64_t min_size = UINT64_MAX;
    for (unsigned i = 0; i < js->ntargets; i++)
        if (js->tg[i].info.size < min_size)
            min_size = js->tg[i].info.size;
    uint64_t space = min_size;
    if (j->layout == LAYOUT_STRIPE) {
        int rc = stripe_init(&js->stripe, js->ntargets, j->stripe_chunk, min_size, err, errlen);
        if (rc < 0)
            return rc;
        rc = job_stripe_check(&js->stripe, j, err, errlen);
        if (rc < 0)
            return rc;
        space = stripe_logical_len(&js->stripe);
    }
    if (j->fill_device && j->layout != LAYOUT_STRIPE)
        space = fill_space(j, js, space);
    if (j->segs.n) {
        /* ActiveRange segments: the job's space is the segments end to end */
        const struct ar_segments *sg = &j->segs;
        uint64_t last_end = ar_segment_start(sg, sg->n - 1) + sg->len;
        if (j->layout == LAYOUT_STRIPE || js->ntargets != 1 || last_end > min_size) {
            snprintf(err, errlen,
                     "%s: ActiveRange segments need one target holding them all (last segment "
                     "ends at %llu, target %llu bytes)",
                     j->name, (unsigned long long)last_end, (unsigned long long)min_size);
            return -EINVAL;
        }
        space = (uint64_t)sg->n * sg->len;
    }
    bool fresh = js->ntargets > 0 && j->layout != LAYOUT_STRIPE;
    for (unsigned i = 0; i < js->ntargets; i++)
        fresh = fresh && js->tg[i].info.created;
    int rc = j->file_append ? append_region(j, js, err, errlen)
                            : compute_region(j, space, fresh, &js->region_start, &js->region_len, err, errlen);
    if (rc < 0)
        return rc;
    if (fio_serial_target(j, js->tg[0].info.kind == TARGET_FILE, js->before[0])) {
        /* clone 0's region as fio's arithmetic gives it */
        rc = fio_clone_region(j, 0, js->before[0], !per_clone_files(j), &js->region_start, &js->region_len,
                              NULL, err, errlen);
        if (rc < 0)
            return rc;
        if (js->region_start >= js->tg[0].info.size || js->region_len < j->res.bs_min) {
            snprintf(err, errlen, "job '%s': offset %llu leaves %llu bytes of %s (%llu bytes) to use, less "
                     "than the block size (fio 3.33: \"blocksize is larger than data set range\")", j->name,
                     (unsigned long long)js->region_start, (unsigned long long)js->region_len,
                     js->tg[0].info.path, (unsigned long long)js->tg[0].info.size);
            return -EINVAL;
        }
    }
    if (j->layout == LAYOUT_STRIPE) {
        rc = stripe_check_region(&js->stripe, js->region_start, js->region_len, err, errlen);
        if (rc < 0)
            return rc;
    }
    js->io_share = jbod_share(j, js->region_start, js->region_len);
    if (js->io_share < j->res.bs_min) {
        snprintf(err, errlen, "job '%s': io_size=%g%% is %llu bytes, less than the block size (fio 3.33: "
                 "\"blocksize is larger than data set range\")", j->name, j->io_size_pct,
                 (unsigned long long)js->io_share);
        return -EINVAL;
    }
    if (j->segs.n && js->region_start % j->segs.len) {
        snprintf(err, errlen, "%s: with ActiveRange segments the offset must be a multiple of the "
                              "segment length %llu", j->name, (unsigned long long)j->segs.len);
        return -EINVAL;
    }
    if (j->direct)
        for (unsigned i = 0; i < js->ntargets; i++) {
            rc = check_alignment(j, &js->tg[i].info, j->layout == LAYOUT_STRIPE ? 0 : js->region_start,
                                 err, errlen);
            if (rc < 0)
                return rc;
        }
    return runner_prepare_cache(j, js, err, errlen);
}

struct io_stats *runner_new_ibuf(unsigned ntouch)
{
    struct io_stats *b = calloc(ntouch, sizeof(*b));
    for (unsigned t = 0; b && t < ntouch; t++)
        iostats_init(&b[t]);
    return b;
}

/* numjobs workers per target; clone k starts offset_increment * k
 * further (fio): a job with a size keeps its length (cut at the end of
 * the target), one without runs to the end. */
static int clone_region(struct worker *w, const struct job_spec *j, const struct job_setup *js, char *err,
                        size_t errlen)
{
    if (js->null_fio) {
        /* ioengine=null: each fio clone's region as fio sizes it; a pass
         * of its own length (io_limit holds passes of clone 0's) */
        unsigned c = runner_null_fio_clone(j, w->clone, w->first_target);
        uint64_t start, len, share;
        int rc = runner_null_clone(j, c, &start, &len, &share, err, errlen);
        if (rc < 0)
            return rc;
        if (w->map.layout != LAYOUT_FILES)
            w->map.region_start = start;
        w->map.region_len = len;
        if (j->res.passes && js->region_len && len != js->region_len)
            w->io_limit_own = j->io_limit / js->region_len * len;
        if (j->io_size_pct > 0 && !j->time_based && js->io_share && share != js->io_share)
            w->io_limit_own = j->io_limit / js->io_share * share;
        return 0;
    }
    unsigned k = per_clone_files(j) ? w->first_target : w->clone;
    if (j->file_append && w->map.layout == LAYOUT_JBOD && w->first_target < js->ntargets) {
        /* each file's own end; a clone after the others on the same file */
        const struct target_info *ti = &js->tg[w->first_target].info;
        unsigned after = per_clone_files(j) ? 0 : w->clone;
        w->map.region_start = (ti->created ? 0 : ti->size) + (uint64_t)after * js->region_len;
        w->map.region_len = js->region_len;
        return 0;
    }
    bool sim = w->first_target < js->ntargets &&
               fio_serial_target(j, js->tg[w->first_target].info.kind == TARGET_FILE, js->before[w->first_target]);
    if (!(w->map.layout == LAYOUT_JBOD && ((j->offset_increment && k) || sim)))
        return 0;
    uint64_t shift = j->offset_increment * k;
    uint64_t tsize = js->ntargets > w->first_target ? js->tg[w->first_target].info.size : 0;
    if (tsize == 0)
        tsize = js->region_start + js->region_len;
    uint64_t start = js->region_start + shift, len = 0;
    if (sim) {
        int rc = fio_clone_region(j, k, js->before[w->first_target], !per_clone_files(j), &start, &len, NULL,
                                  err, errlen);
        if (rc < 0)
            return rc;
        shift = 0;
    }
    if ((!sim && shift / j->offset_increment != k) || start < shift || start >= tsize) {
        snprintf(err, errlen, "job '%s': offset_increment moves clone %u past the end of the target",
                 j->name, k);
        return -EINVAL;
    }
    bool sized = j->size > 0 || j->size_pct > 0;
    if (!sim)
        len = sized ? js->region_len : tsize - start;
    if (len > tsize - start)
        len = tsize - start;
    w->map.region_start = start;
    w->map.region_len = len;
    if (j->res.passes && js->region_len && len != js->region_len)
        w->io_limit_own = j->io_limit / js->region_len * len;
    if (j->io_size_pct > 0 && !j->time_based && js->io_share) {
        uint64_t share = jbod_share(j, start, len);
        if (share != js->io_share)
            w->io_limit_own = j->io_limit / js->io_share * share;
    }
    return 0;
}

/* The worker's slots on their buffers (zero, random or compressible
 * contents from the buffer generator), all free. */
static void init_slots(struct worker *w, const struct job_spec *j)
{
    for (unsigned i = 0; i < w->depth; i++) {
        struct io_req *r = &w->slots[i];
        r->slot = i;
        r->buf = (char *)w->bufmem + i * w->bufsize;
        w->iov[i].iov_base = r->buf;
        w->iov[i].iov_len = w->bufsize;
        w->free_slots[i] = r;
        if (j->buffer == BUF_COMPRESSIBLE || j->buffer == BUF_RANDOM) {
            uint64_t *p = r->buf;
            for (size_t k = 0; k < w->bufsize / 8; k++)
                p[k] = rng_next(&w->brng);
            if (j->buffer == BUF_COMPRESSIBLE)
                for (size_t c = 0; c < w->bufsize; c += 512)
                    memset((char *)r->buf + c, 0, 512 * j->compress_pct / 100);
        } else {
            memset(r->buf, 0, w->bufsize);
        }
    }
}

int runner_setup_worker(struct worker *w, const struct job_spec *j, const struct job_setup *js,
                        char *err, size_t errlen)
{
    const struct engine_ops *ops = engine_lookup(j->engine);
    w->eng.ops = ops;
    w->eng.small = &j->small;
    w->eng.exec = &j->exec;
    w->eng.exec_out[0] = js->exec_open ? js->exec_out[0].fd : -1;
    w->eng.exec_out[1] = js->exec_open ? js->exec_out[1].fd : -1;
    w->eng.donor_fd = js->donor_open ? js->donor.fd : -1;
    if (ops->by_name) {
        int nrc = runner_names_worker(w, j, js, err, errlen);
        if (nrc < 0)
            return nrc;
    }
    w->depth = j->iodepth ? j->iodepth : 1;
    if (ops->max_depth && w->depth > ops->max_depth)
        w->depth = ops->max_depth;
    w->map.layout = js->ntargets > 1 || j->layout == LAYOUT_FILES ? j->layout : LAYOUT_JBOD;
    w->map.ntouch = w->map.layout == LAYOUT_JBOD ? 1 : js->ntargets;
    w->map.region_start = js->region_start;
    w->map.region_len = js->region_len;
    w->map.stripe = js->stripe;
    w->map.segs = j->segs;
    int crc = clone_region(w, j, js, err, errlen);
    if (crc < 0)
        return crc;
    memcpy(w->local_fds, js->fds, sizeof(w->local_fds));
    w->fds = w->local_fds;

    size_t bs = j->res.bs_max;
    w->bufsize = (bs + 4095) & ~(size_t)4095;
    w->slots = calloc(w->depth, sizeof(*w->slots));
    w->free_slots = calloc(w->depth, sizeof(*w->free_slots));
    w->done = calloc(w->depth, sizeof(*w->done));
    w->staged = calloc(w->depth, sizeof(*w->staged));
    w->iov = calloc(w->depth, sizeof(*w->iov));
    bool ring_ok = true;
    for (unsigned s = 0; s < WORKER_RING; s++) {
        w->ring[s] = runner_new_ibuf(w->map.ntouch);
        ring_ok = ring_ok && w->ring[s];
        atomic_init(&w->ring_k[s], RING_NONE);
    }
    w->late = runner_new_ibuf(w->map.ntouch);
    w->lite = calloc((size_t)WORKER_LITE * w->map.ntouch, sizeof(*w->lite));
    if (j->source && !(w->ev.hist = malloc(sizeof(*w->ev.hist)))) {
        snprintf(err, errlen, "out of memory");
        return -ENOMEM;
    }
    if (w->ev.hist)
        hist_init(w->ev.hist);
    for (unsigned s = 0; s < WORKER_LITE; s++)
        atomic_init(&w->lite_k[s], RING_NONE);
    if (!w->slots || !w->free_slots || !w->done || !w->staged || !w->iov || !ring_ok || !w->late || !w->lite ||
        posix_memalign(&w->bufmem, 4096, w->bufsize * w->depth)) {
        snprintf(err, errlen, "out of memory");
        return -ENOMEM;
    }
    w->cur = w->ring[0];
    uint64_t seed = j->seed + 0x9e3779b97f4a7c15ull * (w->clone + 1) + w->first_target * 7919;
    rng_seed(&w->brng, seed ^ 0xb0ffe5ull);
    init_slots(w, j);
    w->nfree = w->depth;
    wbuf_setup(w); /* fio's buffer_pattern, compression layout, dedupe */
    /* fio numbers its logs by job clone: the worker's place in the phase */
    struct iolog_opts lo;
    job_iolog_opts(j, &lo);
    int lrc = iolog_open(&w->iolog, &lo, w->run->opts->log_number_base + (unsigned)(w - w->run->workers) + 1, err, errlen);
    if (lrc < 0)
        return lrc;
    lrc = wlog_open(w, clock_ns(), err, errlen); /* write_iolog */
    if (lrc < 0)
        return lrc;
    int vrc = wprio_setup(w, j, seed, err, errlen); /* fio's cmdprio */
    if (vrc < 0)
        return vrc;
    if (w->map.layout == LAYOUT_FILES && (vrc = wfiles_setup(w, j, js, err, errlen)) < 0)
        return vrc;
    vrc = wverify_setup(w, err, errlen); /* after the file set: its table spans the files */
    if (vrc < 0)
        return vrc;
    /* fio zonemode=strided: the generator draws inside one zone, the walk
     * moves the zone; zones wrap at the end of the target */
    uint64_t zend = w->map.region_start + w->map.region_len;
    if (w->map.layout == LAYOUT_JBOD && js->ntargets > w->first_target &&
        js->tg[w->first_target].info.size > zend)
        zend = js->tg[w->first_target].info.size;
    int zrc = zone_walk_init(&w->zone, j, w->map.region_start, w->map.region_len, zend, err, errlen);
    if (zrc < 0)
        return zrc;
    if (w->zone.on && w->map.layout == LAYOUT_FILES) {
        snprintf(err, errlen, "zonemode=strided with a file set (nrfiles) is not supported");
        return -EINVAL;
    }
    rate_floor_init(&w->floor, j, w->depth);
    int grc = gen_init(&w->gen, j, zone_walk_gen_len(&w->zone, w->map.region_len), seed, err, errlen);
    if (grc == 0 && w->zone.on)
        w->gen.passes = 0; /* the job's bytes end it, not passes over a zone */
    /* fio's own random streams for jobs of fio's job language, numbered as
     * fio numbers its threads (one region, or one strided zone; file sets
     * in wfiles_setup; not zbd) */
    if (grc == 0 && w->map.layout != LAYOUT_FILES && j->zone_mode != JOB_ZONE_ZBD) {
        const char *fname = w->first_target < j->ntargets ? j->targets[w->first_target] : j->name;
        grc = gen_fio_start(&w->gen, j, runner_fio_thread(w, j), fname, err, errlen);
    }
    if (grc == 0)
        grc = wzbd_setup(w, j, js, err, errlen);
    if (grc == 0)
        grc = wreplay_setup(w, j, js, err, errlen); /* read_iolog */
    return grc;
}

unsigned runner_free_worker(struct worker *w)
{
    unsigned failed = w->side_errors;
    if (wlog_close(w, clock_ns()) < 0) /* a worker that never ran */
        failed++;
    if (w->iolog) {
        char lerr[JOB_PATH_MAX + 600];
        if (iolog_close(w->iolog, w->run->measure_start + w->job->startdelay_ns, w->t_finished, lerr,
                        sizeof(lerr)) < 0) {
            fprintf(stderr, "ssdbench: %s\n", lerr);
            failed++;
        }
        w->iolog = NULL;
    }
    gen_free(&w->gen);
    wzbd_free(w);
    wverify_free(w);
    wprio_free(w);
    wfiles_free(w);
    wreplay_free(w);
    wuel_free(w);
    free(w->slots);
    free(w->free_slots);
    free(w->done);
    free(w->staged);
    free(w->iov);
    for (unsigned s = 0; s < WORKER_RING; s++)
        free(w->ring[s]);
    free(w->late);
    free(w->lite);
    free(w->ev.hist);
    for (unsigned i = 0; i < w->pend_len; i++)
        free(w->pend[(w->pend_head + i) % w->pend_cap].buf);
    free(w->pend);
    for (unsigned i = 0; i < w->npool; i++)
        free(w->pool[i]);
    free(w->pool);
    free(w->bufmem);
    return failed;
}
