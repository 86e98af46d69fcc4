/* runner_null.c - set-up of a job on an engine without files (ioengine=null):
 * nothing is opened, but the volume follows fio's file arithmetic as if the
 * job's files were there (job/job_fiosize.h: offsets and percentages of a
 * file whose size fio does not know, filesize less each clone's offset),
 * one pass covering a clone's files with a byte size, when smaller,
 * capping it; each clone (numjobs, or fio's per-clone default files) a
 * region of its own, set per worker through runner_null_clone. Without
 * size and filesize (fio: an error) a file is 1 GiB. Declared in
 * runner_int.h. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "runner/runner_int.h"
#include "job/job_fiosize.h"

#define NULL_DEFAULT_SIZE (1ull << 30)

int runner_null_clone(const struct job_spec *j, unsigned clone, uint64_t *start, uint64_t *len,
                      uint64_t *share, char *err, size_t errlen)
{
    bool files = j->layout == LAYOUT_FILES;
    unsigned nf = files && j->nrfiles ? j->nrfiles : 1;
    struct rng r;
    rng_seed(&r, j->seed ^ 0xf11e512eull ^ (0x9e3779b97f4a7c15ull * clone));
    uint64_t total = 0, part = 0;
    bool first = true;
    for (unsigned f = 0; f < nf; f++) {
        uint64_t s, l;
        int rc = job_fio_null_file(j, clone, f, nf, &r, &s, &l, err, errlen);
        if (rc < 0)
            return rc;
        if (files && j->fileset_idx[clone * nf + f] == JOB_FILESET_NONE)
            continue; /* an earlier clone's file: fio leaves it out */
        if (first)
            *start = s;
        first = false;
        total += l;
        part += job_fio_file_share(j, l);
    }
    *len = job_fio_null_pass(j, total);
    *share = job_fio_null_pass(j, part);
    if (*len < j->res.bs_min || *share < j->res.bs_min) {
        snprintf(err, errlen, "job '%s': clone %u has %llu bytes to use, less than the block size (fio 3.33: "
                 "\"blocksize is larger than data set range\")", j->name, clone, (unsigned long long)(*share < *len ? *share : *len));
        return -EINVAL;
    }
    return 0;
}

unsigned runner_null_fio_clone(const struct job_spec *j, unsigned clone, unsigned target)
{
    /* fio's per-clone default files: target k is clone k's */
    bool per_clone = j->layout != LAYOUT_FILES && j->numjobs <= 1 && j->clones > 1 && j->clones == j->ntargets;
    return per_clone ? target : clone;
}

int runner_setup_null(const struct job_spec *j, unsigned jidx, struct job_setup *js,
                      struct phase_stats *out, char *err, size_t errlen)
{
    unsigned nt = j->ntargets ? j->ntargets : 1;
    bool files = j->layout == LAYOUT_FILES;
    unsigned nf = files && j->nrfiles ? j->nrfiles : 1;
    if (j->size_pct > 0 && j->size_pct != 100 && !j->file_size) {
        /* fio: a share of a size it does not know ("you need to specify size=") */
        snprintf(err, errlen, "job '%s': size=%g%% with ioengine=null needs filesize (the size it is a "
                 "share of; fio does no I/O)", j->name, j->size_pct);
        return -EINVAL;
    }
    bool fio_sizes = j->size || j->file_size; /* else ssdbench's 1 GiB (fio: an error) */
    for (unsigned i = 0; i < nt; i++) {
        js->file_start[i] = j->offset;
        js->file_len[i] = NULL_DEFAULT_SIZE;
        js->fds[i] = -1;
    }
    /* a replay of several files keeps them apart (its I/Os name them) */
    js->ntargets = files || j->layout == LAYOUT_JBOD || j->read_iolog[0] ? nt : 1;
    js->null_fio = fio_sizes;
    js->region_start = j->offset;
    js->region_len = NULL_DEFAULT_SIZE;
    js->io_share = job_fio_file_share(j, NULL_DEFAULT_SIZE);
    uint64_t reach = 0;
    if (fio_sizes) {
        /* every clone as fio sizes it (a refusal names the clone): a file
         * set's files, or a clone's one region */
        unsigned clones = runner_null_fio_clone(j, 0, 1) == 1 ? nt : j->numjobs ? j->numjobs : 1;
        if (files)
            clones = j->clones ? j->clones : 1;
        for (unsigned c = 0; c < clones; c++) {
            uint64_t s, l, sh;
            int rc = runner_null_clone(j, c, &s, &l, &sh, err, errlen);
            if (rc < 0)
                return rc;
            if (c == 0) {
                js->region_start = s;
                js->region_len = l;
                js->io_share = sh;
            }
            struct rng r;
            rng_seed(&r, j->seed ^ 0xf11e512eull ^ (0x9e3779b97f4a7c15ull * c));
            for (unsigned f = 0; f < nf; f++) {
                rc = job_fio_null_file(j, c, f, nf, &r, &s, &l, err, errlen);
                if (rc < 0)
                    return rc;
                if (s + l > reach)
                    reach = s + l;
                unsigned t = files ? j->fileset_idx[c * nf + f] : c < nt ? c : 0;
                if (t != JOB_FILESET_NONE && t < nt && (files || c < nt)) {
                    js->file_start[t] = s;
                    js->file_len[t] = l;
                }
            }
        }
    }
    if (js->region_len < j->res.bs_min) {
        snprintf(err, errlen, "job '%s': %llu bytes to use, less than the block size", j->name,
                 (unsigned long long)js->region_len);
        return -EINVAL;
    }
    struct target_info ti;
    memset(&ti, 0, sizeof(ti));
    snprintf(ti.path, sizeof(ti.path), "(null engine)");
    snprintf(ti.resolved, sizeof(ti.resolved), "(null engine)");
    /* room for every clone's region */
    ti.size = reach > js->region_start + js->region_len ? reach : js->region_start + js->region_len;
    ti.rotational = -1;
    for (unsigned i = 0; i < js->ntargets; i++) {
        js->tg[i].info = ti;
        js->tg[i].fd = -1;
        out->job_target[jidx * JOB_MAX_TARGETS + i] = runner_add_target(out, &ti);
    }
    return 0;
}
