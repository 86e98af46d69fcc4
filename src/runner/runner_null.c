/* runner_null.c - set-up of a job on an engine without files (ioengine=null):
 * nothing is opened, but the volume follows fio's file arithmetic as if the
 * job's files were there: each file's length from size / nrfiles or from
 * filesize less offset (target/fileset.h), one pass covering those lengths
 * with size, when smaller, capping it; each clone's files (numjobs)
 * a region of their own. Declared in runner_int.h. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "runner/runner_int.h"
#include "target/fileset.h"
#include "job/job_opts.h"

#define NULL_DEFAULT_SIZE (1ull << 30)

int runner_setup_null(const struct job_spec *j, unsigned jidx, struct job_setup *js,
                      struct phase_stats *out, char *err, size_t errlen)
{
    unsigned nt = j->ntargets ? j->ntargets : 1;
    unsigned nf = j->layout == LAYOUT_FILES && j->nrfiles ? j->nrfiles : 1;
    struct rng r;
    rng_seed(&r, j->seed ^ 0xf11e512eull);
    struct fileset_spec fs;
    job_fileset_spec(j, &fs);
    uint64_t lens[JOB_MAX_TARGETS] = {0};
    for (unsigned i = 0; i < nt; i++) {
        uint64_t len;
        if (!j->size && !j->file_size) {
            len = NULL_DEFAULT_SIZE; /* fio needs a size here; ssdbench's default */
        } else {
            int rc = fileset_file_len(&fs, j->layout == LAYOUT_FILES ? i % nf : 0, false, 0, &r, &len,
                                      err, errlen);
            if (rc < 0)
                return rc;
        }
        lens[i] = len;
        js->file_start[i] = j->offset;
        js->file_len[i] = len;
        js->fds[i] = -1;
    }
    /* a replay of several files keeps them apart (its I/Os name them) */
    js->ntargets = j->layout == LAYOUT_FILES || j->layout == LAYOUT_JBOD || j->read_iolog[0] ? nt : 1;
    /* one pass of a clone: its files' lengths; size, when smaller, caps it */
    uint64_t total = 0;
    if (j->layout == LAYOUT_FILES)
        for (unsigned f = 0; f < nf; f++)
            total += lens[j->fileset_idx[f] < nt ? j->fileset_idx[f] : 0];
    else
        total = lens[0];
    js->region_start = j->offset;
    js->region_len = j->size && j->size < total ? j->size : total;
    if (j->size_pct > 0 && j->size_pct != 100) {
        /* fio: size=N% of the file (filesize), in whole smallest blocks */
        if (!j->file_size) {
            snprintf(err, errlen, "job '%s': size=%g%% with ioengine=null needs filesize (the size it is a "
                     "share of; fio does no I/O)", j->name, j->size_pct);
            return -EINVAL;
        }
        uint64_t fsz = total + j->offset;
        uint64_t io = (uint64_t)((double)fsz * j->size_pct / 100.0);
        if (io > total)
            io = total;
        js->region_len = io - io % j->res.bs_min;
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
    /* room for every clone's offset_increment */
    unsigned clones = j->numjobs ? j->numjobs : 1;
    ti.size = js->region_start + js->region_len + j->offset_increment * (clones > nt ? clones : nt);
    ti.rotational = -1;
    for (unsigned i = 0; i < js->ntargets; i++) {
        js->tg[i].info = ti;
        js->tg[i].fd = -1;
        out->job_target[jidx * JOB_MAX_TARGETS + i] = runner_add_target(out, &ti);
    }
    return 0;
}
