/* zone.h - fio's zonemode=strided: a worker's I/O confined to one zone at a
 * time, moving on through the target in strides.
 *
 * fio's rule (io_u.c setup_strided_zone_mode, fill_io_u), per worker:
 *  - A zone is zonerange bytes starting at the zone base; the first base is
 *    the start of the worker's region (offset, offset_increment).
 *  - Every I/O is drawn inside the current zone: sequential positions and
 *    random offsets are relative to the base and below zonerange (the
 *    generator works on a zonerange-long region).
 *  - After each I/O its length is added to zone_bytes. Before the next one:
 *    when zone_bytes >= zonesize, the base moves on by zonerange + zoneskip
 *    (zone_bytes back to 0); a base at or past the end of the target wraps
 *    to the first base. Whenever zone_bytes is a multiple of zonerange
 *    (every new zone, and every zonerange bytes inside a zone larger than
 *    its range) the sequential positions and the random map start over.
 *  - An I/O that would run past the end of the target ends fio's pass: the
 *    walk starts again at the first zone (zone_bytes 0) and the I/O is
 *    drawn there; when even that does not fit, the job ends.
 *  - time_based (fio's get_next_seq_offset): a sequential position at or
 *    past the end of the region (start + size) goes back to the zone
 *    base, so zones past it repeat their first offset.
 *  - What ends the job is unchanged: the bytes of the region (size, or
 *    io_size) times loops, or the runtime - not the zones.
 * On fio's stream (job/fio_rand.h) the checks are fio's own (against
 * io_size and the file's end, gen_zone_reset); on ssdbench's own stream
 * the generator keeps every I/O inside the zone, where fio lets a
 * sequential I/O run past a zone's end when zonerange is not a multiple
 * of the block size (or with mixed sizes).
 *
 * zone_walk_next runs per I/O: a compare, an add and, at a zone change, a
 * generator rewind. No allocation.
 */
#ifndef SSDBENCH_ZONE_H
#define SSDBENCH_ZONE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "job/gen.h"
#include "job/job.h"

struct zone_walk {
    bool on;
    uint64_t first;   /* the first zone base (region start, absolute) */
    uint64_t base;    /* the current zone base, absolute */
    uint64_t size;    /* zonesize: bytes of I/O per zone */
    uint64_t range;   /* zonerange: length of a zone */
    uint64_t skip;    /* zoneskip: gap after each zone */
    uint64_t end;     /* end of the target: bases wrap here, I/Os stop here */
    uint64_t bytes;   /* fio's zone_bytes: I/O bytes in the current zone */
    uint64_t region_len; /* the worker's region (fio's io_size of the file) */
    bool time_based;
    uint64_t zones;   /* zones entered after the first (for tests) */
    uint64_t restarts; /* I/Os that did not fit before the end: back to the first zone */
};

/* Prepares the walk of a worker whose region is region_len bytes at
 * region_start (absolute) in a target (or striped space) of end bytes. Off (z->on
 * false) unless job->zone_mode is strided. -EINVAL with a one-line message
 * when the first zone does not fit. */
int zone_walk_init(struct zone_walk *z, const struct job_spec *job, uint64_t region_start,
                   uint64_t region_len, uint64_t end, char *err, size_t errlen);

/* The region length the worker's generator must be set up with. */
static inline uint64_t zone_walk_gen_len(const struct zone_walk *z, uint64_t region_len)
{
    return z->on ? z->range : region_len;
}

/* The next I/O: moves to the next zone when due, rewinds g when fio resets
 * its file state, draws from g and turns io->off into an offset relative to
 * region_start. False when g is done or the I/O would pass the end. */
bool zone_walk_next(struct zone_walk *z, struct gen *g, uint64_t region_start, struct gen_io *io);

#endif
