/* replay_blk.c - blktrace binary files as fio 3.33 replays them
 * (blktrace.c read_blktrace, declared in replay_log_int.h): 48-byte
 * records (struct blk_io_trace, either byte order, version 7), each
 * followed by pdu_len bytes that are skipped. Only queue events are
 * replayed: a discard is a trim, a flush a sync, any other a read or (the
 * write category) a write at sector x 512, of its bytes; process and other
 * notes are not. The gap of each replayed event is the time since the last
 * queue event, in whole microseconds. Each device (major:minor) is a file
 * found under /dev as fio finds it (its first block device of that number,
 * in directory order), or replay_redirect; a device not found takes the
 * file of the last device found, as fio (an error before any is found,
 * where fio fails); a file is opened when its device
 * first appears (with replay_redirect, again at each change of device: fio
 * ignores the re-open) and every file is closed at the end. replay_skip
 * drops reads, writes, trims or syncs (their gap is lost, as in fio);
 * replay_align rounds lengths up and offsets down, replay_scale divides
 * offsets. fio's iodepth probe (queued less merged, the highest at a
 * completion, per direction, at most 1024) is lg->depth. */
#include "base/replay_log_int.h"

#include <dirent.h>
#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#define BLK_MAGIC 0x65617400u
#define BLK_VERSION 0x07u
#define BLK_TC_ACT(x) ((uint32_t)(x) << 16)
#define BLK_TC_READ (1u << 0)
#define BLK_TC_WRITE (1u << 1)
#define BLK_TC_FLUSH (1u << 2)
#define BLK_TC_NOTIFY (1u << 10)
#define BLK_TC_DISCARD (1u << 13)
#define BLK_TA_QUEUE 1u
#define BLK_TA_BACKMERGE 2u
#define BLK_TA_FRONTMERGE 3u
#define BLK_TA_COMPLETE 8u

struct blk_rec {
    uint32_t magic, sequence;
    uint64_t time, sector;
    uint32_t bytes, action, pid, device, cpu;
    uint16_t error, pdu_len;
};

static uint32_t get32(const unsigned char *p, bool swap)
{
    uint32_t v;
    memcpy(&v, p, 4);
    return swap ? __builtin_bswap32(v) : v;
}

static uint64_t get64(const unsigned char *p, bool swap)
{
    uint64_t v;
    memcpy(&v, p, 8);
    return swap ? __builtin_bswap64(v) : v;
}

static uint16_t get16(const unsigned char *p, bool swap)
{
    uint16_t v;
    memcpy(&v, p, 2);
    return swap ? __builtin_bswap16(v) : v;
}

static void decode(const unsigned char *p, bool swap, struct blk_rec *t)
{
    t->magic = get32(p, swap);
    t->sequence = get32(p + 4, swap);
    t->time = get64(p + 8, swap);
    t->sector = get64(p + 16, swap);
    t->bytes = get32(p + 24, swap);
    t->action = get32(p + 28, swap);
    t->pid = get32(p + 32, swap);
    t->device = get32(p + 36, swap);
    t->cpu = get32(p + 40, swap);
    t->error = get16(p + 44, swap);
    t->pdu_len = get16(p + 46, swap);
}

bool rlog_blk_magic(const unsigned char *rec, size_t n, bool *swap)
{
    if (n < 48)
        return false;
    uint32_t m = get32(rec, false);
    if ((m & 0xffffff00u) == BLK_MAGIC)
        return *swap = false, true;
    if ((__builtin_bswap32(m) & 0xffffff00u) == BLK_MAGIC)
        return *swap = true, true;
    return false;
}

/* fio's blktrace_lookup_device: the first block device major:minor under
 * dir, depth first in directory order. */
static bool lookup_device(const char *dir, unsigned maj, unsigned min, char *out, size_t outlen)
{
    DIR *d = opendir(dir);
    if (!d)
        return false;
    bool found = false;
    struct dirent *de;
    while (!found && (de = readdir(d)) != NULL) {
        if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
            continue;
        char full[RLOG_PATH_MAX];
        if ((size_t)snprintf(full, sizeof(full), "%s/%s", dir, de->d_name) >= sizeof(full))
            continue;
        struct stat st;
        if (lstat(full, &st) < 0)
            break; /* fio: perror and stop looking here */
        if (S_ISDIR(st.st_mode) && lookup_device(full, maj, min, out, outlen)) {
            found = true;
            break;
        }
        if (S_ISBLK(st.st_mode) && major(st.st_rdev) == maj && minor(st.st_rdev) == min) {
            snprintf(out, outlen, "%s", full);
            found = true;
        }
    }
    closedir(d);
    return found;
}

/* fio's trace_add_file: the device's file (the last one's from the cache),
 * and an open the first time a device is found; -errno with the message */
static int dev_file(struct rlog_stream *st, uint32_t device, struct rlog_entry *out, size_t *n, char *err,
                    size_t errlen)
{
    if (st->cache_valid && st->cache_dev == device)
        return (int)st->cache_file;
    st->cache_valid = true;
    st->cache_dev = device;
    for (unsigned f = 0; f < st->lg->nfiles; f++)
        if (st->dev_of[f] == device)
            return (int)(st->cache_file = f);
    unsigned maj = device >> 20, min = device & ((1u << 20) - 1);
    char name[RLOG_PATH_MAX];
    if (st->redirect[0])
        snprintf(name, sizeof(name), "%s", st->redirect);
    else if (!lookup_device(st->dev_dir, maj, min, name, sizeof(name))) {
        /* fio's trace_add_file keeps the file it last found: the I/O goes
         * there (and so does the next of this device, from the cache);
         * before any is found fio's file 0 is not open yet (fio 3.33
         * aborts on it when a device is found later, and fails the job
         * when none is) */
        if (st->lg->nfiles)
            return (int)st->cache_file;
        return snprintf(err, errlen,
                        "%s: record %u: no block device %u:%u under %s, and no device of the trace found before "
                        "it (fio sends such I/O to the last device found; replay_redirect names one)",
                        st->path, st->line, maj, min, st->dev_dir), -ENODEV;
    }
    int f = rlog_file(st, name, true, err, errlen);
    if (f < 0)
        return f;
    st->dev_of[f] = device;
    st->cache_file = (unsigned)f;
    struct rlog_entry e = {.op = RLOG_OPEN, .file = (uint16_t)f};
    int rc = rlog_emit(st, &e, out, n, err, errlen);
    return rc < 0 ? rc : f;
}

static int t_ddir(uint32_t action)
{
    if (action & BLK_TC_ACT(BLK_TC_READ))
        return RLOG_READ;
    if (action & BLK_TC_ACT(BLK_TC_WRITE))
        return RLOG_WRITE;
    if (action & BLK_TC_ACT(BLK_TC_DISCARD))
        return RLOG_TRIM;
    return -1;
}

/* fio's depth probe, on every record but notes */
static void depth_note(struct rlog_stream *st, const struct blk_rec *t)
{
    int d = t_ddir(t->action);
    if (d < 0)
        return;
    uint32_t a = t->action & 0xffff;
    if (a == BLK_TA_QUEUE)
        st->this_depth[d]++;
    else if (a == BLK_TA_BACKMERGE || a == BLK_TA_FRONTMERGE)
        st->this_depth[d]--;
    else if (a == BLK_TA_COMPLETE) {
        if (st->this_depth[d] > st->depth[d])
            st->depth[d] = st->this_depth[d];
        st->this_depth[d] = 0;
    }
}

static void depth_end(struct rlog_stream *st)
{
    int max = 0;
    for (int i = 0; i < 3; i++) {
        int d = st->depth[i];
        if (d > 1024)
            d = 1024;
        else if (!d && st->lg->count[i])
            d = 1;
        if (d > max)
            max = d;
    }
    st->lg->depth = (unsigned)max;
}

/* One queue event: 0 (not replayed) or the entries it made */
static int queue_event(struct rlog_stream *st, struct blk_rec *t, struct rlog_entry *out, size_t *n, char *err,
                       size_t errlen)
{
    const struct rlog_opts *o = &st->o;
    if ((t->action & 0xffff) != BLK_TA_QUEUE || (t->action & BLK_TC_ACT(BLK_TC_NOTIFY)))
        return 0;
    uint64_t gap = rlog_gap(st, t->time, 1);
    if (o->align) /* fio's t_bytes_align: lengths up */
        t->bytes = (uint32_t)((t->bytes + o->align - 1) & ~(o->align - 1));
    struct rlog_entry e = {.gap_ns = gap};
    int f;
    if (t->action & BLK_TC_ACT(BLK_TC_DISCARD)) {
        if (o->skip & RLOG_SKIP_TRIM)
            return 0;
        if (!t->bytes)
            return snprintf(err, errlen, "%s: record %u: a discard of 0 bytes", st->path, st->line), -EINVAL;
        e.op = RLOG_TRIM;
    } else if (t->action & BLK_TC_ACT(BLK_TC_FLUSH)) {
        if (o->skip & RLOG_SKIP_SYNC)
            return 0;
        e.op = RLOG_SYNC;
    } else {
        /* fio finds the device before the skip */
        if ((f = dev_file(st, t->device, out, n, err, errlen)) < 0)
            return f;
        e.op = (t->action & BLK_TC_ACT(BLK_TC_WRITE)) ? RLOG_WRITE : RLOG_READ;
        if (o->skip & (e.op == RLOG_WRITE ? RLOG_SKIP_WRITE : RLOG_SKIP_READ))
            return 0;
        if (!t->bytes)
            return 0; /* fio: "ignoring zero byte trace" */
    }
    if ((f = dev_file(st, t->device, out, n, err, errlen)) < 0)
        return f;
    e.file = (uint16_t)f;
    if (e.op != RLOG_SYNC) {
        if (t->sector > UINT64_MAX / 512)
            return snprintf(err, errlen, "%s: record %u: sector %llu past 2^64 bytes", st->path, st->line,
                            (unsigned long long)t->sector), -EINVAL;
        uint64_t off = t->sector * 512;
        if (o->scale > 1)
            off /= o->scale;
        if (o->align)
            off &= ~(o->align - 1);
        e.off = off;
        e.len = t->bytes;
        if (off > UINT64_MAX - e.len)
            return snprintf(err, errlen, "%s: record %u: offset + length past 2^64", st->path, st->line), -EINVAL;
    }
    return rlog_emit(st, &e, out, n, err, errlen);
}

long rlog_blk_next(struct rlog_stream *st, struct rlog_entry *e, size_t max, char *err, size_t errlen)
{
    size_t n = 0;
    unsigned char raw[48];
    while (n + 2 <= max) {
        if (st->ended) {
            /* fio closes every file at the end of the trace */
            while (st->closes_left && n < max) {
                struct rlog_entry c = {.op = RLOG_CLOSE, .file = (uint16_t)(st->lg->nfiles - st->closes_left)};
                st->closes_left--;
                int rc = rlog_emit(st, &c, e, &n, err, errlen);
                if (rc < 0)
                    return rc;
            }
            break;
        }
        size_t got = fread(raw, 1, sizeof(raw), st->fp);
        if (got == 0 && feof(st->fp)) {
            st->ended = true;
            st->closes_left = st->lg->nfiles;
            depth_end(st);
            continue;
        }
        st->line++;
        if (ferror(st->fp))
            return snprintf(err, errlen, "%s: record %u: read error", st->path, st->line), -EIO;
        if (got < sizeof(raw))
            return snprintf(err, errlen, "%s: record %u: short (%zu of 48 bytes)", st->path, st->line, got),
                   -EINVAL;
        struct blk_rec t;
        decode(raw, st->swap, &t);
        if ((t.magic & 0xffffff00u) != BLK_MAGIC)
            return snprintf(err, errlen, "%s: record %u: bad magic %#x in blktrace data", st->path, st->line,
                            t.magic), -EINVAL;
        if ((t.magic & 0xff) != BLK_VERSION)
            return snprintf(err, errlen, "%s: record %u: blktrace version %u (fio reads version 7)", st->path,
                            st->line, t.magic & 0xff), -EINVAL;
        if (t.pdu_len && fseek(st->fp, t.pdu_len, SEEK_CUR) < 0)
            return snprintf(err, errlen, "%s: record %u: cannot skip its %u bytes", st->path, st->line,
                            t.pdu_len), -EIO;
        if (!(t.action & BLK_TC_ACT(BLK_TC_NOTIFY))) {
            depth_note(st, &t);
            /* fio's read-only mode: no event of the write or discard
             * category, before anything else is made of it */
            if (st->o.read_only && (t.action & BLK_TC_ACT(BLK_TC_WRITE | BLK_TC_DISCARD))) {
                st->lg->ro_skipped++;
                continue;
            }
        }
        int rc = queue_event(st, &t, e, &n, err, errlen);
        if (rc < 0)
            return rc;
    }
    return (long)n;
}
