/* purge.c - see purge.h. */
#include <errno.h>
#include <fcntl.h>
#include <linux/falloc.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/clock.h"
#include "base/signal.h"
#include "target/purge.h"
#include "target/zoned.h"
#include "target/target.h"

#define ZERO_CHUNK (1u << 20)

const char *purge_method_name(enum purge_method m)
{
    switch (m) {
    case PURGE_NONE: return "none";
    case PURGE_SECURE_DISCARD: return "secure-discard";
    case PURGE_DISCARD: return "discard";
    case PURGE_ZERO_FILL: return "zero-fill";
    case PURGE_PUNCH_HOLE: return "punch-hole";
    case PURGE_NVME_SANITIZE_BLOCK: return "nvme-sanitize-block-erase";
    case PURGE_NVME_SANITIZE_CRYPTO: return "nvme-sanitize-crypto-erase";
    case PURGE_NVME_FORMAT_ERASE: return "nvme-format-secure-erase";
    case PURGE_ATA_SECURITY_ERASE: return "ata-security-erase";
    case PURGE_ATA_SANITIZE_BLOCK: return "ata-sanitize-block-erase";
    case PURGE_ATA_SANITIZE_CRYPTO: return "ata-sanitize-crypto-scramble";
    case PURGE_SCSI_SANITIZE_BLOCK: return "scsi-sanitize-block-erase";
    case PURGE_SCSI_SANITIZE_CRYPTO: return "scsi-sanitize-crypto-erase";
    case PURGE_SCSI_FORMAT_UNIT: return "scsi-format-unit";
    case PURGE_ZONE_RESET: return "zone-reset";
    }
    return "?";
}

bool purge_method_is_device(enum purge_method m)
{
    return m >= PURGE_NVME_SANITIZE_BLOCK && m <= PURGE_SCSI_FORMAT_UNIT;
}

static void note(struct purge_report *r, const char *what, int e)
{
    size_t n = strlen(r->notes);
    snprintf(r->notes + n, sizeof(r->notes) - n, "%s%s: %s", n ? "; " : "", what,
             e == EOPNOTSUPP || e == ENOTTY ? "not supported" : strerror(e));
}

/* Writes zeroes over [off, off + len); fd may be O_DIRECT. */
static int zero_write(int fd, uint64_t off, uint64_t len, const char *path, char *err,
                      size_t errlen)
{
    void *buf;
    if (posix_memalign(&buf, 4096, ZERO_CHUNK)) {
        snprintf(err, errlen, "out of memory");
        return -ENOMEM;
    }
    memset(buf, 0, ZERO_CHUNK);
    int rc = 0;
    while (len > 0) {
        if (signal_received()) {
            snprintf(err, errlen, "%s: zero fill interrupted at offset %llu", path,
                     (unsigned long long)off);
            rc = -EINTR;
            break;
        }
        size_t n = len < ZERO_CHUNK ? (size_t)len : ZERO_CHUNK;
        ssize_t w = pwrite(fd, buf, n, (off_t)off);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            rc = w < 0 ? -errno : -EIO;
            snprintf(err, errlen, "%s: zero fill failed at offset %llu: %s", path,
                     (unsigned long long)off, strerror(-rc));
            break;
        }
        off += (uint64_t)w;
        len -= (uint64_t)w;
    }
    free(buf);
    if (rc == 0 && fsync(fd) < 0) {
        rc = -errno;
        snprintf(err, errlen, "%s: fsync after zero fill: %s", path, strerror(errno));
    }
    return rc;
}

static int purge_block(int fd, const char *path, struct purge_report *r, char *err,
                       size_t errlen)
{
    uint64_t size = 0;
    if (ioctl(fd, BLKGETSIZE64, &size) < 0) {
        snprintf(err, errlen, "%s: cannot read the device size: %s", path, strerror(errno));
        return -errno;
    }
    r->offset = 0;
    r->length = size;
    uint64_t range[2] = {0, size};
    int rc = 0;
    if (ioctl(fd, BLKSECDISCARD, range) == 0) {
        r->method = PURGE_SECURE_DISCARD;
    } else {
        note(r, "secure discard", errno);
        if (ioctl(fd, BLKDISCARD, range) == 0) {
            r->method = PURGE_DISCARD;
        } else {
            note(r, "discard", errno);
            r->method = PURGE_ZERO_FILL;
            if (ioctl(fd, BLKZEROOUT, range) < 0) {
                note(r, "kernel zero-out", errno);
                rc = zero_write(fd, 0, size, path, err, errlen);
            }
        }
    }
    return rc;
}

static int purge_file(int fd, const char *path, uint64_t size, struct purge_report *r,
                      char *err, size_t errlen)
{
    r->offset = 0;
    r->length = size;
    int rc = 0;
    if (size == 0) {
        r->method = PURGE_NONE;
    } else if (fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, 0, (off_t)size) == 0) {
        r->method = PURGE_PUNCH_HOLE;
    } else {
        note(r, "punch hole", errno);
        r->method = PURGE_ZERO_FILL;
        rc = zero_write(fd, 0, size, path, err, errlen);
    }
    return rc;
}

/* Opens path for writing through the guard: one open, checked on its
 * descriptor (block devices held O_EXCL until target_close). */
static int open_guarded(struct target *t, const char *path, const struct guard_consent *c,
                        char *err, size_t errlen)
{
    struct target_open_opts o = {.write = true, .consent = c};
    return target_open(t, path, &o, err, errlen);
}

int purge_target(const char *path, const struct guard_consent *c, struct purge_report *r,
                 char *err, size_t errlen)
{
    memset(r, 0, sizeof(*r));
    snprintf(r->path, sizeof(r->path), "%s", path);
    struct target t;
    int rc = open_guarded(&t, path, c, err, errlen);
    if (rc == -ENOENT) {
        r->method = PURGE_NONE;
        snprintf(r->notes, sizeof(r->notes), "does not exist yet");
        return 0;
    }
    if (rc == -EINVAL && t.fd < 0 && strstr(err, "not a regular file or block device")) {
        snprintf(err, errlen, "%s: not a block device or regular file; cannot purge it", path);
        return -EINVAL;
    }
    if (rc < 0)
        return rc;
    rc = purge_target_open(&t, path, r, err, errlen);
    target_close(&t, false);
    return rc;
}

int purge_target_open(struct target *t, const char *path, struct purge_report *r, char *err,
                      size_t errlen)
{
    int rc;
    uint64_t t0 = clock_ns();
    if (t->info.kind == TARGET_BLOCK && zoned_is_zoned(&t->info)) {
        unsigned zones;
        r->offset = 0;
        r->length = t->info.size;
        rc = zoned_reset_all(t->fd, &t->info, path, &zones, err, errlen);
        if (rc == 0) {
            r->method = PURGE_ZONE_RESET;
            char n[300];
            snprintf(n, sizeof(n), "%s zoned device: every zone reset (%u zones, BLKRESETZONE)%s%s",
                     t->info.zoned, zones, r->notes[0] ? "; " : "", r->notes);
            snprintf(r->notes, sizeof(r->notes), "%s", n);
        }
    } else if (t->info.kind == TARGET_BLOCK) {
        /* zero fill in whole aligned chunks; buffered if O_DIRECT is refused */
        int fl = fcntl(t->fd, F_GETFL);
        if (fl >= 0)
            fcntl(t->fd, F_SETFL, fl | O_DIRECT);
        rc = purge_block(t->fd, path, r, err, errlen);
    } else {
        rc = purge_file(t->fd, path, t->info.size, r, err, errlen);
    }
    r->elapsed_s = (double)(clock_ns() - t0) / 1e9;
    return rc;
}

int purge_discard(const char *path, uint64_t offset, uint64_t length,
                  const struct guard_consent *c, struct purge_report *r, char *err,
                  size_t errlen)
{
    memset(r, 0, sizeof(*r));
    snprintf(r->path, sizeof(r->path), "%s", path);
    struct target_info ti;
    int rc = target_probe(path, &ti, err, errlen);
    if (rc < 0)
        return rc;
    if (ti.kind != TARGET_BLOCK) {
        snprintf(err, errlen,
                 "%s: discarding the unused range needs a block device (this is not one)", path);
        return -EINVAL;
    }
    struct target t;
    rc = open_guarded(&t, path, c, err, errlen);
    if (rc < 0)
        return rc;
    if (t.info.kind != TARGET_BLOCK) {
        target_close(&t, false);
        snprintf(err, errlen,
                 "%s: discarding the unused range needs a block device (this is not one)", path);
        return -EINVAL;
    }
    int fd = t.fd;
    uint64_t b = t.info.logical_block ? t.info.logical_block : 512, size = t.info.size;
    uint64_t end = offset + length > size ? size : offset + length;
    uint64_t start = (offset + b - 1) / b * b;
    end = end / b * b;
    r->offset = start;
    r->length = end > start ? end - start : 0;
    uint64_t t0 = clock_ns();
    if (r->length == 0) {
        r->method = PURGE_NONE;
    } else {
        uint64_t range[2] = {start, r->length};
        if (ioctl(fd, BLKDISCARD, range) == 0) {
            r->method = PURGE_DISCARD;
        } else {
            rc = -errno;
            if (errno == EOPNOTSUPP)
                snprintf(err, errlen,
                         "%s does not support discard, so its unused range cannot be freed as "
                         "spare area (purge it with the vendor's tool and leave out "
                         "--discard-unused)",
                         path);
            else
                snprintf(err, errlen, "%s: discard of %llu bytes at %llu failed: %s", path,
                         (unsigned long long)r->length, (unsigned long long)start,
                         strerror(errno));
        }
    }
    r->elapsed_s = (double)(clock_ns() - t0) / 1e9;
    target_close(&t, false);
    return rc;
}
