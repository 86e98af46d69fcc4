/* zone.c - fio's zonemode=strided walk over a worker's target (see zone.h). */
#include "job/zone.h"

#include <errno.h>
#include <string.h>

#include "base/errmsg.h"

int zone_walk_init(struct zone_walk *z, const struct job_spec *job, uint64_t region_start,
                   uint64_t region_len, uint64_t end, char *err, size_t errlen)
{
    memset(z, 0, sizeof(*z));
    if (job->zone_mode != JOB_ZONE_STRIDED)
        return 0;
    if (!job->zone_size)
        return errmsg(err, errlen, -EINVAL, "zonemode=strided needs zonesize");
    z->on = true;
    z->size = job->zone_size;
    z->range = job->zone_range ? job->zone_range : job->zone_size;
    z->skip = job->zone_skip;
    z->first = z->base = region_start;
    z->end = end;
    z->region_len = region_len;
    z->time_based = job->time_based;
    if (region_start >= end)
        return errmsg(err, errlen, -EINVAL, "zonemode=strided: the region starts at %llu, at or past the end (%llu bytes)",
                      (unsigned long long)region_start, (unsigned long long)end);
    return 0;
}

/* fio's fill_io_u for one I/O; false when it does not fit before the end */
static bool zone_try(struct zone_walk *z, struct gen *g, struct gen_io *io)
{
    if (z->bytes >= z->size) {
        z->bytes = 0;
        z->base += z->range + z->skip;
        if (z->base >= z->end || z->base < z->first)
            z->base = z->first;
        z->zones++;
    }
    if (z->bytes % z->range == 0)
        gen_zone_reset(g, z->base - z->first, z->region_len, z->end - z->first); /* fio_file_reset */
    /* fio's time_based rule in get_next_seq_offset: a sequential position
     * at or past the end of the region [first, first + region_len) goes
     * back to the zone base - every I/O, once the zones are past it */
    if (z->time_based)
        gen_seq_wrap(g, z->base >= z->first + z->region_len ? 0 : z->first + z->region_len - z->base);
    if (!gen_next(g, io))
        return false;
    uint64_t abs = z->base + io->off;
    return abs >= z->base && abs <= z->end && io->len <= z->end - abs;
}

bool zone_walk_next(struct zone_walk *z, struct gen *g, uint64_t region_start, struct gen_io *io)
{
    if (!zone_try(z, g, io)) {
        /* fio: the pass ends (clear_io_state) and, with bytes still to do,
         * the next starts from the first zone */
        z->base = z->first;
        z->bytes = 0;
        z->restarts++;
        gen_rewind(g);
        if (!zone_try(z, g, io))
            return false;
    }
    z->bytes += io->len;
    io->off = z->base + io->off - region_start;
    return true;
}
