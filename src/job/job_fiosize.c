/* job_fiosize.c - fio 3.33's region arithmetic for a file an engine never
 * opens (see job_fiosize.h). */
#include "job/job_fiosize.h"

#include <errno.h>
#include <stdio.h>

#define SIZE_UNKNOWN UINT64_MAX /* fio's real_file_size of -1 */

int job_fio_null_file(const struct job_spec *j, unsigned clone, unsigned filenum, unsigned nf,
                      struct rng *r, uint64_t *start, uint64_t *len, char *err, size_t errlen)
{
    if (nf == 0)
        nf = 1;
    uint64_t bs = j->res.bs_min ? j->res.bs_min : 1;
    bool size_bytes = j->size > 0 && !(j->size_pct > 0);
    uint64_t real = size_bytes ? j->size / nf : SIZE_UNKNOWN;
    /* get_start_offset: fio's percentages are whole numbers, its products
     * unsigned 64-bit (they wrap for an unknown size) */
    uint64_t off;
    if (j->offset_pct > 0) {
        uint64_t pct = (uint64_t)j->offset_pct;
        off = real * pct / 100 + (uint64_t)clone * j->offset_increment;
        off = (off / bs + (off % bs != 0)) * bs;
    } else {
        off = j->offset + (uint64_t)clone * j->offset_increment;
    }
    uint64_t io;
    if (!j->file_size) {
        uint64_t fs = j->size / nf;
        uint64_t extra = (j->size - fs * nf) / bs;
        io = fs + (filenum < extra ? bs : 0);
        if (io == 0) {
            snprintf(err, errlen, "job '%s': file %u needs a size; give size= or filesize=", j->name, filenum);
            return -EINVAL;
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
    if (j->size_pct > 0 && j->size_pct != 100) {
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
    if (real == SIZE_UNKNOWN && j->offset_pct > 0)
        snprintf(err, errlen, "job '%s': offset=%g%% of a file whose size ioengine=null knows only from "
                 "size= in bytes (fio 3.33: \"you need to specify valid offset=\")", j->name, j->offset_pct);
    else
        snprintf(err, errlen, "job '%s': clone %u's offset %llu lies beyond filesize %llu (fio 3.33: \"you "
                 "need to specify valid offset=\")", j->name, clone, (unsigned long long)off,
                 (unsigned long long)j->file_size);
    return -EINVAL;
}

uint64_t job_fio_null_pass(const struct job_spec *j, uint64_t total)
{
    bool size_bytes = j->size > 0 && !(j->size_pct > 0);
    return size_bytes && j->size < total ? j->size : total;
}
