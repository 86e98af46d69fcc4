/* runner_kstat.c - the kernel's own counters of a block device
 * (/sys/class/block/<dev>/stat), read around a phase so a result can show
 * that its counts are the kernel's. */
#include <inttypes.h>
#include <stdio.h>
#include <limits.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "runner/runner_int.h"

/* The sysfs name of the block device a file's filesystem is on ("vda",
 * "nvme0n1p2"), or false (tmpfs, overlay and other devices without one). */
static bool file_device(const char *path, char *name, size_t len)
{
    struct stat st;
    if (stat(path, &st) < 0)
        return false;
    char link[96], dst[PATH_MAX];
    snprintf(link, sizeof(link), "/sys/dev/block/%u:%u", major(st.st_dev), minor(st.st_dev));
    ssize_t n = readlink(link, dst, sizeof(dst) - 1);
    if (n <= 0)
        return false;
    dst[n] = 0;
    const char *base = strrchr(dst, '/');
    snprintf(name, len, "%s", base ? base + 1 : dst);
    return name[0] != 0;
}

void runner_read_kstat(const struct target_info *ti, struct kernel_stats *k)
{
    memset(k, 0, sizeof(*k));
    if (ti->kind == TARGET_BLOCK && ti->devname[0]) {
        snprintf(k->device, sizeof(k->device), "%s", ti->devname);
    } else if (ti->kind == TARGET_FILE) {
        if (!file_device(ti->resolved[0] ? ti->resolved : ti->path, k->device, sizeof(k->device)))
            return;
        k->of_file = true;
    } else {
        return;
    }
    char p[128];
    snprintf(p, sizeof(p), "/sys/class/block/%s/stat", k->device);
    FILE *f = fopen(p, "r");
    if (!f)
        return;
    /* fields 1-11 always; 12-15 discards (4.18+); 16-17 flushes (5.5+) */
    unsigned long long v[17];
    int n = 0;
    while (n < 17 && fscanf(f, "%llu", &v[n]) == 1)
        n++;
    if (n >= 11) {
        k->valid = true;
        k->read_ios = v[0], k->read_merges = v[1], k->read_sectors = v[2], k->read_ticks_ms = v[3];
        k->write_ios = v[4], k->write_merges = v[5], k->write_sectors = v[6], k->write_ticks_ms = v[7];
        k->io_ticks_ms = v[9];
    }
    if (n >= 15) {
        k->has_discard = true;
        k->discard_ios = v[11], k->discard_merges = v[12], k->discard_sectors = v[13];
        k->discard_ticks_ms = v[14];
    }
    if (n >= 17) {
        k->has_flush = true;
        k->flush_ios = v[15], k->flush_ticks_ms = v[16];
    }
    fclose(f);
}

void runner_kstat_delta(struct kernel_stats *a, const struct kernel_stats *b)
{
    if (!a->valid || !b->valid || strcmp(a->device, b->device) != 0) {
        a->valid = false;
        return;
    }
    a->read_ios = b->read_ios - a->read_ios;
    a->read_merges = b->read_merges - a->read_merges;
    a->read_sectors = b->read_sectors - a->read_sectors;
    a->read_ticks_ms = b->read_ticks_ms - a->read_ticks_ms;
    a->write_ios = b->write_ios - a->write_ios;
    a->write_merges = b->write_merges - a->write_merges;
    a->write_sectors = b->write_sectors - a->write_sectors;
    a->write_ticks_ms = b->write_ticks_ms - a->write_ticks_ms;
    a->io_ticks_ms = b->io_ticks_ms - a->io_ticks_ms;
    a->has_discard = a->has_discard && b->has_discard;
    a->discard_ios = b->discard_ios - a->discard_ios;
    a->discard_merges = b->discard_merges - a->discard_merges;
    a->discard_sectors = b->discard_sectors - a->discard_sectors;
    a->discard_ticks_ms = b->discard_ticks_ms - a->discard_ticks_ms;
    a->has_flush = a->has_flush && b->has_flush;
    a->flush_ios = b->flush_ios - a->flush_ios;
    a->flush_ticks_ms = b->flush_ticks_ms - a->flush_ticks_ms;
}
