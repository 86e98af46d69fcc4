/* job_fiosize.c - fio 3.33's region arithmetic for one file of a job (see
 * job_fiosize.h). */
#include "job/job_fiosize.h"

#include <errno.h>
#include <stdio.h>

static bool size_in_bytes(const struct job_spec *j)
{
    return j->size > 0 && !(j->size_pct > 0);
}

/* fio's get_start_offset */
static uint64_t start_offset(const struct job_spec *j, unsigned clone, uint64_t real, bool regular,
                             uint64_t bs)
{
    if (j->file_append && regular)
        return real;
    /* fio's percentages are whole numbers, its products unsigned 64-bit
     * (they wrap for an unknown size) */
    bool align = false;
    uint64_t inc = j->offset_increment;
    if (j->offset_increment_pct > 0) {
        inc = (uint64_t)j->offset_increment_pct * real / 100;
        align = true;
    }
    uint64_t off;
    if (j->offset_pct > 0) {
        off = real * (uint64_t)j->offset_pct / 100 + (uint64_t)clone * inc;
        align = true;
    } else {
        off = j->offset + (uint64_t)clone * inc;
    }
    if (align)
        off = (off / bs + (off % bs != 0)) * bs;
    return off;
}

int job_fio_file(const struct job_spec *j, unsigned clone, unsigned filenum, unsigned nf, uint64_t real,
                 bool regular, struct rng *r, uint64_t *start, uint64_t *len, char *err, size_t errlen)
{
    if (nf == 0)
        nf = 1;
    uint64_t bs = j->res.bs_min ? j->res.bs_min : 1;
    uint64_t off = start_offset(j, clone, real, regular, bs);
    uint64_t io;
    if (!j->file_size) {
        uint64_t sz = size_in_bytes(j) ? j->size : 0;
        uint64_t fs = sz / nf;
        uint64_t extra = (sz - fs * nf) / bs;
        io = fs + (filenum < extra ? bs : 0);
        if (io == 0) {
            if (off > real)
                goto bad_offset;
            io = real - off;
        }
    } else {
        uint64_t lo = j->file_size, hi = j->file_size_hi > lo ? j->file_size_hi : lo;
        if (real >= lo && real <= hi) {
            if (off > real)
                goto bad_offset;
            io = real - off;
        } else {
            if (off > lo)
                goto bad_offset;
            uint64_t sz = lo;
            if (hi > lo) {
                sz = lo + (uint64_t)((double)(hi - lo) * ((double)(rng_next(r) >> 11) / 9007199254740992.0));
                sz -= sz % bs;
                if (sz < lo)
                    sz = lo;
            }
            io = sz - off;
        }
    }
    if (j->size_pct > 0 && j->size_pct != 100 && io != JOB_FIO_SIZE_UNKNOWN) {
        uint64_t file_size = io + off;
        uint64_t keep = file_size * (uint64_t)j->size_pct / 100;
        if (keep > io)
            keep = io;
        io = keep - keep % bs;
    }
    *start = off;
    *len = io;
    return 0;
bad_offset:
    if (real == JOB_FIO_SIZE_UNKNOWN && (j->offset_pct > 0 || j->offset_increment_pct > 0))
        snprintf(err, errlen, "job '%s': offset=%g%% of a file whose size ioengine=null knows only from "
                 "size= in bytes (fio 3.33: \"you need to specify valid offset=\")", j->name,
                 j->offset_pct > 0 ? j->offset_pct : j->offset_increment_pct);
    else
        snprintf(err, errlen, "job '%s': clone %u's offset %llu lies beyond %s %llu (fio 3.33: \"you "
                 "need to specify valid offset=\")", j->name, clone, (unsigned long long)off,
                 j->file_size ? "filesize" : "the file's size",
                 (unsigned long long)(j->file_size ? j->file_size : real));
    return -EINVAL;
}

int job_fio_null_file(const struct job_spec *j, unsigned clone, unsigned filenum, unsigned nf,
                      struct rng *r, uint64_t *start, uint64_t *len, char *err, size_t errlen)
{
    uint64_t real = size_in_bytes(j) ? j->size / (nf ? nf : 1) : JOB_FIO_SIZE_UNKNOWN;
    if (!j->file_size && !size_in_bytes(j)) {
        snprintf(err, errlen, "job '%s': file %u needs a size; give size= or filesize=", j->name, filenum);
        return -EINVAL;
    }
    return job_fio_file(j, clone, filenum, nf, real, false, r, start, len, err, errlen);
}

uint64_t job_fio_file_share(const struct job_spec *j, uint64_t len)
{
    if (!(j->io_size_pct > 0) || j->io_size_pct == 100)
        return len;
    return len * (uint64_t)j->io_size_pct / 100;
}

uint64_t job_fio_null_pass(const struct job_spec *j, uint64_t total)
{
    return size_in_bytes(j) && j->size < total ? j->size : total;
}
