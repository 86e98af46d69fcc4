/* zbd.h - fio's zonemode=zbd as pure logic: where each I/O of a worker goes
 * on a zoned block device, given the zones' write pointers (fio 3.33 zbd.c).
 *
 * The state holds the zones of the worker's region (offset and size rounded
 * to whole zones), each with start, length, capacity, write pointer, whether
 * it has one (sequential zone), whether it is open and whether a write to it
 * is in flight. The rules, as fio's zbd_adjust_block:
 *  - Writes go at the write pointer of a zone: the zone of the drawn offset
 *    when it can be opened (max_open_zones / job_max_open_zones), else one
 *    of the open zones (picked by the offset's place in the region), else
 *    the next zones in order; the length is cut to the zone capacity.
 *  - A zone whose write pointer is within min_bs of its capacity is full: a
 *    write that lands there resets it first (ZBD_RESET: the caller resets it
 *    on the device and calls zbd_reset_done); zone_reset_threshold and
 *    zone_reset_frequency reset zones early.
 *  - Sequential writes skip from a zone's capacity to its end.
 *  - Reads stay below the write pointer (next zone with data for sequential
 *    reads, nearest for random ones) unless read_beyond_wp.
 *  - One write in flight per zone (fio's zone lock): a write to a busy zone
 *    answers ZBD_WAIT; the caller completes I/O and asks again.
 *  - With verify, a writing job resets the region's zones that hold data
 *    before it writes, and a full zone is never opened (a reset would lose
 *    blocks still to be checked): the job ends when no zone has room.
 * The zones (write pointers, open list, data counted for the reset
 * threshold) are a zbd_zones set that every worker of a phase placing I/O on
 * the same zones of one device shares, as fio shares a device's zone info
 * between its jobs (numjobs clones too): zbd_share joins a worker to
 * another's set. The caller serialises the calls on one set (one lock per
 * set, worker_zbd.c); the per-worker parts (the job's parameters, the zones
 * it opened for job_max_open_zones, its resets) stay in its zbd_state.
 * zbd_adjust runs per I/O without allocating.
 */
#ifndef SSDBENCH_ZBD_H
#define SSDBENCH_ZBD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct zbd_zone {
    uint64_t start, len, cap, wp;
    bool seq;  /* has a write pointer (not a conventional zone) */
    bool open;
    bool busy; /* a write in flight */
    bool reset_due;
};

struct zbd_params {
    uint64_t region_start, region_len; /* absolute bytes on the device */
    bool random;                       /* random offsets (fio td_random) */
    bool mixed;                        /* reads and writes (fio td_rw) */
    bool writes;
    bool read_beyond_wp;
    bool verify;       /* verify=: zones are reset at the start, full ones never reopened */
    bool host_managed;
    bool ignore_zone_limits;
    unsigned max_open_zones;     /* the job's; 0 = the device's */
    unsigned job_max_open_zones; /* 0 = none */
    unsigned dev_max_open;       /* the device's limit; 0 = none */
    double reset_threshold, reset_frequency;
    uint64_t min_bs[2]; /* smallest read and write block */
};

enum zbd_act { ZBD_OK, ZBD_EOF, ZBD_WAIT, ZBD_RESET };

/* The zones of a region, shared by the workers placing I/O on them. */
struct zbd_zones {
    struct zbd_zone *z; /* the region's zones, plus one past the end */
    unsigned nz;
    uint64_t zone_size;
    uint64_t region_start, region_len;
    unsigned max_open;  /* effective (fio's zbdi->max_open_zones) */
    unsigned nopen;
    unsigned *open;     /* open zone indexes, nz + 1 entries */
    uint64_t wp_bytes;  /* fio's wp_sectors_with_data, in bytes */
    uint32_t write_cnt; /* writes until the next threshold check resets */
    unsigned nbusy;     /* zones with a write in flight */
    unsigned users;     /* the workers sharing the set (freed by the last) */
};

struct zbd_state {
    bool on;
    struct zbd_params p;
    struct zbd_zones *zs;
    unsigned my_open;   /* zones this worker opened (fio's td->num_open_zones) */
    unsigned my_busy;   /* of zs->nbusy, this worker's writes */
    unsigned reset_zone; /* ZBD_RESET: the zone to reset */
    uint64_t resets;    /* fio's nr_zone_resets */
    bool resumed;       /* the next zbd_adjust follows a reset: no new threshold count */
    uint64_t skip_bytes; /* fio's io_skip_bytes (capacity to zone end) */
};

/* Copies the n zones of the device that cover [region_start, region_start +
 * region_len) and applies fio's limits. -EINVAL / -ENOMEM with a one-line
 * message (region not on zone boundaries, max_open_zones above the device's,
 * job_max_open_zones without a global limit). dev_open (may be NULL) says
 * which device zones are open: they count as open, and those over the
 * limits get reset_due set (fio resets them): the caller resets each on the
 * device and calls zbd_reset_done. */
int zbd_init(struct zbd_state *s, const struct zbd_params *p, const struct zbd_zone *dev, unsigned n,
             const bool *dev_open, char *err, size_t errlen);
/* Joins s to owner's zone set (the same region of the same device, seen by
 * another worker): -EINVAL with a one-line message when p's region or open
 * zone limits differ from the set's. */
int zbd_share(struct zbd_state *s, const struct zbd_params *p, struct zbd_state *owner, char *err,
              size_t errlen);
void zbd_free(struct zbd_state *s);

/* Before a sequential I/O is drawn: the position pos (relative to the region)
 * of a write at a zone's capacity moves to the zone's end. */
uint64_t zbd_seq_pos(struct zbd_state *s, unsigned dir, uint64_t pos);

/* Adjusts *dir (0 read, 1 write), *off (absolute) and *len of an I/O.
 * inflight: I/Os of the worker in flight. ZBD_RESET: reset zone
 * s->reset_zone on the device, call zbd_reset_done, then ask again.
 * ZBD_WAIT: the zone's write or the other workers' writes must complete
 * first (with inflight 0: another worker's). */
enum zbd_act zbd_adjust(struct zbd_state *s, unsigned *dir, uint64_t *off, uint32_t *len,
                        unsigned inflight);
void zbd_reset_done(struct zbd_state *s, unsigned zi);
/* A write was queued (moves the write pointer) / an I/O completed;
 * zbd_unqueued takes back the last zbd_queued of a write that was not
 * issued after all (its zone was busy meanwhile: nobody wrote after it). */
void zbd_queued(struct zbd_state *s, unsigned dir, uint64_t off, uint32_t len);
void zbd_unqueued(struct zbd_state *s, unsigned dir, uint64_t off, uint32_t len);
void zbd_completed(struct zbd_state *s, unsigned dir, uint64_t off, uint32_t len);
/* The zone index of an absolute offset (zs->nz when outside). */
unsigned zbd_zone_of(const struct zbd_state *s, uint64_t off);

#endif
