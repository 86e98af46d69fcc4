/* guard.c - see guard.h. Every check works from the descriptor that will be
 * written (its fstat identity, its blkid probe, its extended attribute), so
 * /dev/disk/by-id links, /dev/mapper names, partitions and paths swapped
 * between check and use cannot slip past. */
#include <blkid/blkid.h>
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/loop.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "base/sysfs_attr.h"
#include "target/guard.h"
#include "target/inuse_walk.h"
#include "target/target.h"

#define MAX_NODES 128

bool guard_consented_st(const struct stat *st, const struct guard_consent *c)
{
    if (!c)
        return false;
    for (unsigned i = 0; i < c->n; i++) {
        struct stat cs;
        if (stat(c->paths[i], &cs) < 0)
            continue;
        if (S_ISBLK(st->st_mode) && S_ISBLK(cs.st_mode) && cs.st_rdev == st->st_rdev)
            return true;
        if (S_ISREG(st->st_mode) && S_ISREG(cs.st_mode) && cs.st_dev == st->st_dev &&
            cs.st_ino == st->st_ino)
            return true;
    }
    return false;
}

bool guard_explain_busy(dev_t rdev, const char *path, char *msg, size_t len)
{
    struct stat st = {.st_mode = S_IFBLK, .st_rdev = rdev};
    if (guard_in_use(-1, &st, path, msg, len))
        return true;
    snprintf(msg, len,
             "refusing to write to %s: it is in use (another program has it open exclusively, "
             "or it is mounted); stop that use first",
             path);
    return false;
}

static void describe(blkid_probe pr, char *what, size_t len)
{
    const char *type = NULL, *usage = NULL, *pttype = NULL;
    blkid_probe_lookup_value(pr, "TYPE", &type, NULL);
    blkid_probe_lookup_value(pr, "USAGE", &usage, NULL);
    blkid_probe_lookup_value(pr, "PTTYPE", &pttype, NULL);
    if (pttype) {
        snprintf(what, len, "a %s partition table", pttype);
        return;
    }
    const char *kind = "signature";
    if (usage && strcmp(usage, "filesystem") == 0)
        kind = "file system";
    else if (usage && strcmp(usage, "raid") == 0)
        kind = "RAID/LVM member signature";
    else if (usage && strcmp(usage, "crypto") == 0)
        kind = "encrypted volume signature";
    snprintf(what, len, "a %s %s", type ? type : "unknown", kind);
}

/* Asks libblkid, on the descriptor, for any file system, RAID/LVM member or
 * partition table in [off, off + size). GPT is looked for even without a
 * protective MBR (a wiped first sector). An ambivalent answer (two
 * signatures) and a failed probe count as found. */
static bool signature(int fd, uint64_t off, uint64_t size, char *what, size_t len)
{
    blkid_probe pr = blkid_new_probe();
    if (!pr) {
        snprintf(what, len, "content libblkid could not examine (out of memory)");
        return true;
    }
    bool found = false;
    if (blkid_probe_set_device(pr, fd, (blkid_loff_t)off, (blkid_loff_t)size) < 0) {
        snprintf(what, len, "content libblkid could not examine");
        found = true;
    } else {
        blkid_probe_enable_superblocks(pr, 1);
        blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_TYPE | BLKID_SUBLKS_USAGE);
        blkid_probe_enable_partitions(pr, 1);
        blkid_probe_set_partitions_flags(pr, BLKID_PARTS_MAGIC | BLKID_PARTS_FORCE_GPT);
        int rc = blkid_do_safeprobe(pr);
        if (rc == 0) {
            describe(pr, what, len);
            found = true;
        } else if (rc == -2) {
            snprintf(what, len, "more than one signature (libblkid: ambivalent result)");
            found = true;
        } else if (rc < 0) {
            snprintf(what, len, "content libblkid could not examine (probe failed)");
            found = true;
        }
    }
    blkid_free_probe(pr);
    return found;
}

static bool read_at(int fd, void *buf, size_t n, uint64_t off)
{
    return pread(fd, buf, n, (off_t)off) == (ssize_t)n;
}

bool guard_end_signature(int fd, uint64_t size, char *what, size_t len)
{
    unsigned char b[512];
    static const unsigned sector[] = {512, 4096};
    for (unsigned i = 0; i < 2; i++) {
        uint64_t s = sector[i];
        if (size < 3 * s)
            continue;
        if (read_at(fd, b, sizeof(b), size - s) && memcmp(b, "EFI PART", 8) == 0) {
            snprintf(what, len, "a backup GPT header in its last %u-byte sector", sector[i]);
            return true;
        }
        if (read_at(fd, b, sizeof(b), s) && memcmp(b, "EFI PART", 8) == 0) {
            snprintf(what, len, "a GPT header at %u bytes", sector[i]);
            return true;
        }
    }
    /* md 1.0: 8 KiB from the end, rounded down to 4 KiB; magic a92b4efc LE */
    uint64_t sectors = size / 512;
    if (sectors >= 32) {
        uint64_t off = ((sectors - 16) & ~(uint64_t)7) * 512;
        if (read_at(fd, b, 4, off) && b[0] == 0xfc && b[1] == 0x4e && b[2] == 0x2b && b[3] == 0xa9) {
            snprintf(what, len, "an md RAID (1.0) superblock near its end");
            return true;
        }
    }
    return false;
}

static int refuse(char *msg, size_t len, const char *path, const char *found,
                  const struct guard_consent *c)
{
    snprintf(msg, len, "refusing to write to %s: %s; to destroy its contents, add %s=%s", path,
             found, c && c->option ? c->option : "--destroy", path);
    return -EPERM;
}

static int check_block(int fd, const struct stat *st, const char *path,
                       const struct guard_consent *c, char *msg, size_t len)
{
    struct inuse_node nodes[MAX_NODES];
    unsigned n = inuse_list_nodes(st->st_rdev, nodes, MAX_NODES);
    /* In use is refused whatever the consent: the write would corrupt a
     * live file system or a layer above. */
    if (guard_in_use(fd, st, path, msg, len))
        return -EPERM;
    if (guard_consented_st(st, c))
        return 0;
    uint64_t size = 0;
    off_t end = lseek(fd, 0, SEEK_END);
    if (end > 0)
        size = (uint64_t)end;
    lseek(fd, 0, SEEK_SET);
    char what[256], found[400];
    if (signature(fd, 0, 0, what, sizeof(what)) ||
        guard_end_signature(fd, size, what, sizeof(what))) {
        snprintf(found, sizeof(found), "it holds %s", what);
        return refuse(msg, len, path, found, c);
    }
    for (unsigned i = 1; i < n; i++) {
        if (!nodes[i].size || nodes[i].start + nodes[i].size > size)
            continue;
        if (signature(fd, nodes[i].start, nodes[i].size, what, sizeof(what))) {
            snprintf(found, sizeof(found), "its partition %s holds %s", nodes[i].name, what);
            return refuse(msg, len, path, found, c);
        }
    }
    return 0;
}

static int check_fd(int fd, const struct stat *st, const char *path,
                    const struct guard_consent *c, bool *ours, char *msg, size_t len);

int guard_check_fd(int fd, const struct stat *st, const char *path,
                   const struct guard_consent *c, bool *ours, char *msg, size_t len)
{
    if (len)
        msg[0] = 0;
    /* allowed, with what the in-use walk could not see: msg keeps it for
     * the caller, who keeps it with the target (never silent) */
    return check_fd(fd, st, path, c, ours, msg, len);
}

static int check_fd(int fd, const struct stat *st, const char *path,
                    const struct guard_consent *c, bool *ours, char *msg, size_t len)
{
    *ours = false;
    if (S_ISBLK(st->st_mode))
        return check_block(fd, st, path, c, msg, len);
    if (S_ISREG(st->st_mode)) {
        /* in use is refused whatever the mark or the consent */
        if (guard_in_use(fd, st, path, msg, len))
            return -EPERM;
        if (target_fd_is_ours(fd)) {
            *ours = true;
            return 0;
        }
        if (guard_consented_st(st, c))
            return 0;
        char found[128];
        snprintf(found, sizeof(found),
                 "it is an existing file of %lld bytes that ssdbench did not create (or that "
                 "changed since ssdbench last closed it)",
                 (long long)st->st_size);
        return refuse(msg, len, path, found, c);
    }
    snprintf(msg, len, "%s: not a regular file or block device", path);
    return -EINVAL;
}
