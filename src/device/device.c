/* device.c - device_probe and the health readings (device.h): sysfs for
 * every block device, then the device's own identity and health through
 * device_cmd.h, parsed by device_parse.h. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "base/sysfs_attr.h"
#include "device/device.h"
#include "device/device_cmd.h"
#include "device/device_purge.h"

static long read_long(const char *dir, const char *name)
{
    char b[64];
    sysfs_attr(dir, name, b, sizeof(b));
    if (!b[0])
        return -1;
    char *end;
    long v = strtol(b, &end, 10);
    return end != b ? v : -1;
}

static bool is_dir(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

static bool prefix(const char *s, const char *p)
{
    return strncmp(s, p, strlen(p)) == 0;
}

/* The only entry of a directory (dm/md slaves), or "" if not exactly one. */
static void only_entry(const char *dir, char *out, size_t len)
{
    out[0] = 0;
    DIR *d = opendir(dir);
    if (!d)
        return;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)))
        if (e->d_name[0] != '.' && n++ == 0)
            snprintf(out, len, "%s", e->d_name);
    closedir(d);
    if (n != 1)
        out[0] = 0;
}

/* The whole disk of a block device name: a partition's parent. */
static int disk_of(const char *name, char *disk, size_t len)
{
    char link[PATH_MAX], real[PATH_MAX];
    snprintf(link, sizeof(link), "/sys/class/block/%s", name);
    if (!realpath(link, real))
        return -ENOENT;
    char part[PATH_MAX + 16];
    snprintf(part, sizeof(part), "%s/partition", real);
    if (access(part, F_OK) == 0) {
        char *s = strrchr(real, '/');
        if (s)
            *s = 0;
    }
    const char *b = strrchr(real, '/');
    snprintf(disk, len, "%s", b ? b + 1 : real);
    return 0;
}

static enum device_bus classify(const char *disk)
{
    static const char *const virt[] = {"loop", "zram", "ram", "dm-", "md", "nbd", "vd", "xvd", "rbd", "pmem"};
    if (prefix(disk, "nvme"))
        return DEV_BUS_NVME;
    for (size_t i = 0; i < sizeof(virt) / sizeof(virt[0]); i++)
        if (prefix(disk, virt[i]))
            return DEV_BUS_VIRTUAL;
    if (prefix(disk, "sd")) {
        char dir[PATH_MAX], vendor[64];
        snprintf(dir, sizeof(dir), "/sys/block/%s/device", disk);
        sysfs_attr(dir, "vendor", vendor, sizeof(vendor));
        return strcmp(vendor, "ATA") == 0 ? DEV_BUS_ATA : DEV_BUS_SCSI;
    }
    return DEV_BUS_OTHER;
}

static void sysfs_part(struct device_info *di)
{
    char dir[PATH_MAX], b[256];
    snprintf(dir, sizeof(dir), "/sys/block/%s/device", di->disk);
    sysfs_attr(dir, "vendor", di->vendor, sizeof(di->vendor));
    sysfs_attr(dir, "model", di->model, sizeof(di->model));
    sysfs_attr(dir, "serial", di->serial, sizeof(di->serial));
    if (!di->serial[0])
        sysfs_attr(dir, "wwid", di->serial, sizeof(di->serial));
    sysfs_attr(dir, "firmware_rev", di->firmware, sizeof(di->firmware));
    if (!di->firmware[0])
        sysfs_attr(dir, "rev", di->firmware, sizeof(di->firmware));
    if (di->bus == DEV_BUS_NVME) {
        char real[PATH_MAX];
        if (realpath(dir, real)) {
            const char *s = strrchr(real, '/');
            snprintf(di->nvme_ctrl, sizeof(di->nvme_ctrl), "%s", s ? s + 1 : real);
        }
    }
    snprintf(dir, sizeof(dir), "/sys/block/%s/queue", di->disk);
    sysfs_attr(dir, "rotational", b, sizeof(b));
    di->rotational = b[0] ? atoi(b) : -1;
    di->logical_block = (uint32_t)(read_long(dir, "logical_block_size") > 0 ? read_long(dir, "logical_block_size") : 0);
    di->physical_block = (uint32_t)(read_long(dir, "physical_block_size") > 0 ? read_long(dir, "physical_block_size") : 0);
    sysfs_attr(dir, "scheduler", di->schedulers, sizeof(di->schedulers));
    char *a = strchr(di->schedulers, '['), *z = a ? strchr(a, ']') : NULL;
    if (a && z)
        snprintf(di->scheduler, sizeof(di->scheduler), "%.*s", (int)(z - a - 1), a + 1);
    else
        snprintf(di->scheduler, sizeof(di->scheduler), "%s", di->schedulers);
    di->nr_requests = read_long(dir, "nr_requests");
    di->max_sectors_kb = read_long(dir, "max_sectors_kb");
    di->max_hw_sectors_kb = read_long(dir, "max_hw_sectors_kb");
    di->read_ahead_kb = read_long(dir, "read_ahead_kb");
    sysfs_attr(dir, "discard_max_bytes", b, sizeof(b));
    di->discard_max_bytes = b[0] ? strtoull(b, NULL, 10) : 0;
    sysfs_attr(dir, "write_cache", di->write_cache, sizeof(di->write_cache));
    if (di->write_cache[0])
        snprintf(di->write_cache_path, sizeof(di->write_cache_path), "%s/write_cache", dir);
    sysfs_attr(dir, "zoned", di->zoned, sizeof(di->zoned));
    di->zone_cap_min_bytes = di->zone_cap_max_bytes = NAN;
    if (device_is_zoned(di)) {
        long cs = read_long(dir, "chunk_sectors");
        di->zone_bytes = cs > 0 ? (uint64_t)cs * 512 : 0;
        di->nr_zones = read_long(dir, "nr_zones");
        di->max_open_zones = read_long(dir, "max_open_zones");
        di->max_active_zones = read_long(dir, "max_active_zones");
    }
    snprintf(dir, sizeof(dir), "/sys/class/block/%s", di->name);
    sysfs_attr(dir, "size", b, sizeof(b));
    di->size_bytes = b[0] ? strtoull(b, NULL, 10) * 512 : 0;
    snprintf(dir, sizeof(dir), "/sys/block/%s/loop", di->disk);
    sysfs_attr(dir, "backing_file", di->backing_file, sizeof(di->backing_file));
}

/* Opens /dev/<disk> read-only, only if it is the block device sysfs names. */
static int open_node(const struct device_info *di)
{
    char dir[PATH_MAX], dev[32];
    snprintf(dir, sizeof(dir), "/sys/block/%s", di->disk);
    sysfs_attr(dir, "dev", dev, sizeof(dev));
    unsigned ma, mi;
    if (sscanf(dev, "%u:%u", &ma, &mi) != 2)
        return -ENODEV;
    int fd = open(di->dev_node, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return -errno;
    struct stat st;
    if (fstat(fd, &st) < 0 || !S_ISBLK(st.st_mode) || major(st.st_rdev) != ma || minor(st.st_rdev) != mi) {
        close(fd);
        return -ENODEV;
    }
    return fd;
}

static void id_unknown(struct device_identity *id)
{
    memset(id, 0, sizeof(*id));
    id->capacity_bytes = NAN;
    id->rotation_rpm = id->write_cache_supported = id->write_cache_enabled = id->trim = -1;
}

static int nvme_identity(int fd, struct device_identity *id)
{
    uint8_t *buf = malloc(NVME_ID_BYTES);
    if (!buf)
        return -ENOMEM;
    int rc = devcmd_nvme_identify(fd, 1, 0, buf);
    if (rc == 0 && nvme_parse_id_ctrl(buf, NVME_ID_BYTES, &id->ctrl) == 0) {
        id->nvme = true;
        snprintf(id->source, sizeof(id->source), "nvme");
        snprintf(id->model, sizeof(id->model), "%s", id->ctrl.model);
        snprintf(id->serial, sizeof(id->serial), "%s", id->ctrl.serial);
        snprintf(id->firmware, sizeof(id->firmware), "%s", id->ctrl.firmware);
        id->rotation_rpm = 0;
        id->write_cache_supported = id->ctrl.vwc & 1;
        id->trim = (id->ctrl.oncs >> 2) & 1;
        uint32_t wc;
        if (id->write_cache_supported && devcmd_nvme_get_feature(fd, 0x06, &wc) == 0)
            id->write_cache_enabled = wc & 1;
        else if (!id->write_cache_supported)
            id->write_cache_enabled = 0;
        id->nsid = devcmd_nvme_nsid(fd);
        if (id->nsid && devcmd_nvme_identify(fd, 0, id->nsid, buf) == 0 &&
            nvme_parse_id_ns(buf, NVME_ID_BYTES, &id->ns) == 0) {
            const struct nvme_lbaf *f = &id->ns.lbaf[id->ns.flbas_index];
            if (f->lbads >= 9 && f->lbads < 32) {
                id->logical_block = 1u << f->lbads;
                id->capacity_bytes = (double)id->ns.nsze * id->logical_block;
            }
        } else {
            id->nsid = 0;
        }
    }
    free(buf);
    return rc;
}

static int ata_identity(int fd, struct device_identity *id)
{
    uint8_t buf[ATA_SECTOR_BYTES];
    struct ata_identity a;
    int rc = devcmd_ata_identify(fd, buf);
    if (rc < 0 || ata_parse_identity(buf, sizeof(buf), &a) < 0)
        return rc < 0 ? rc : -EIO;
    snprintf(id->source, sizeof(id->source), "ata");
    snprintf(id->model, sizeof(id->model), "%s", a.model);
    snprintf(id->serial, sizeof(id->serial), "%s", a.serial);
    snprintf(id->firmware, sizeof(id->firmware), "%s", a.firmware);
    id->capacity_bytes = (double)a.sectors * a.logical_bytes;
    id->logical_block = a.logical_bytes;
    id->physical_block = a.physical_bytes;
    id->rotation_rpm = a.rotation == 1 ? 0 : a.rotation >= 0x401 && a.rotation < 0xffff ? a.rotation : -1;
    id->write_cache_supported = a.write_cache_supported;
    id->write_cache_enabled = a.write_cache_enabled;
    id->trim = a.trim;
    id->ata = true;
    id->ata_id = a;
    return 0;
}

bool device_is_zoned(const struct device_info *di)
{
    return !strcmp(di->zoned, "host-managed") || !strcmp(di->zoned, "host-aware");
}

/* The zone capacities of a zoned disk from its zone report. */
static void zone_capacity(struct device_info *di)
{
    if (!device_is_zoned(di))
        return;
    int fd = open_node(di);
    if (fd < 0)
        return;
    if (devcmd_zone_capacity(fd, &di->zone_cap_min_bytes, &di->zone_cap_max_bytes) < 0)
        di->zone_cap_min_bytes = di->zone_cap_max_bytes = NAN;
    close(fd);
}

/* A SCSI disk's write cache: the WCE bit of its Caching mode page (MODE
 * SENSE (10), current values; the read pts uses too). Left unknown when the
 * disk has no such page. */
static void scsi_write_cache(struct device_info *di)
{
    if (di->bus != DEV_BUS_SCSI || di->id.write_cache_enabled >= 0)
        return;
    int fd = open_node(di);
    if (fd < 0)
        return;
    int wce = devwc_get(fd, di, devio_real());
    close(fd);
    if (wce >= 0) {
        di->id.write_cache_supported = 1;
        di->id.write_cache_enabled = wce;
    }
}

static const char *no_health_reason(const struct device_info *di, char *buf, size_t len)
{
    if (di->bus == DEV_BUS_NONE)
        snprintf(buf, len, "no block device behind this file system: no SMART");
    else if (prefix(di->disk, "loop"))
        snprintf(buf, len, "loop device: no SMART (sysfs only)");
    else if (prefix(di->disk, "zram"))
        snprintf(buf, len, "zram device: no SMART (sysfs only)");
    else
        snprintf(buf, len, "%s device %s: no SMART (sysfs only)", device_bus_name(di->bus), di->disk);
    return buf;
}

void device_read_health(const struct device_info *di, bool smartctl, struct device_health *h)
{
    char why[160];
    if (di->bus != DEV_BUS_NVME && di->bus != DEV_BUS_ATA && di->bus != DEV_BUS_SCSI) {
        device_health_unknown(h, no_health_reason(di, why, sizeof(why)));
        return;
    }
    int fd = open_node(di);
    int rc = fd;
    if (fd >= 0 && di->bus == DEV_BUS_NVME) {
        uint8_t buf[NVME_SMART_BYTES];
        struct nvme_smart s;
        rc = devcmd_nvme_smart_log(fd, buf);
        if (rc == 0 && nvme_parse_smart(buf, sizeof(buf), &s) == 0) {
            device_health_nvme(&s, h);
            close(fd);
            return;
        }
    } else if (fd >= 0 && di->bus == DEV_BUS_ATA) {
        uint8_t buf[ATA_SECTOR_BYTES];
        struct ata_smart s;
        rc = devcmd_ata_smart_read_data(fd, buf);
        if (rc == 0 && ata_parse_smart(buf, sizeof(buf), &s) == 0 && s.n > 0) {
            device_health_ata(&s, di->id.model[0] ? di->id.model : di->model, h);
            close(fd);
            return;
        }
    }
    if (fd >= 0)
        close(fd);
    if (smartctl) {
        size_t len;
        char *out = devcmd_smartctl(di->dev_node, &len);
        struct device_identity id;
        if (out && device_smartctl_parse(out, len, &id, h) == 0) {
            free(out);
            return;
        }
        free(out);
    }
    snprintf(why, sizeof(why), "%s: health log not readable (%s)", di->dev_node,
             strerror(rc < 0 ? -rc : EIO));
    device_health_unknown(h, why);
}

int device_probe_name(const char *name, const struct device_probe_opts *o, struct device_info *di,
                      char *err, size_t errlen)
{
    char path_keep[sizeof(di->path)], via_keep[sizeof(di->via)];
    snprintf(path_keep, sizeof(path_keep), "%s", di->path);
    snprintf(via_keep, sizeof(via_keep), "%s", di->via);
    memset(di, 0, sizeof(*di));
    snprintf(di->path, sizeof(di->path), "%s", path_keep);
    snprintf(di->via, sizeof(di->via), "%s", via_keep);
    di->rotational = -1;
    di->nr_requests = di->max_sectors_kb = di->max_hw_sectors_kb = di->read_ahead_kb = -1;
    id_unknown(&di->id);
    snprintf(di->name, sizeof(di->name), "%s", name);
    if (disk_of(name, di->disk, sizeof(di->disk)) < 0) {
        snprintf(err, errlen, "%s: no such block device in /sys/class/block", name);
        return -ENOENT;
    }
    /* device-mapper or md on exactly one disk: that disk's identity */
    char slaves[PATH_MAX], one[64];
    for (int depth = 0; depth < 8; depth++) {
        snprintf(slaves, sizeof(slaves), "/sys/block/%s/slaves", di->disk);
        if (!is_dir(slaves))
            break;
        only_entry(slaves, one, sizeof(one));
        if (!one[0] || disk_of(one, di->disk, sizeof(di->disk)) < 0)
            break;
    }
    snprintf(di->dev_node, sizeof(di->dev_node), "/dev/%s", di->disk);
    di->bus = classify(di->disk);
    sysfs_part(di);
    zone_capacity(di);
    bool tried_smartctl = false;   /* and it gave nothing: not again for the health */
    if (di->bus == DEV_BUS_NVME || di->bus == DEV_BUS_ATA || di->bus == DEV_BUS_SCSI) {
        int fd = open_node(di);
        int rc = fd;
        if (fd >= 0) {
            rc = di->bus == DEV_BUS_NVME ? nvme_identity(fd, &di->id)
               : di->bus == DEV_BUS_ATA ? ata_identity(fd, &di->id) : -ENOTSUP;
            close(fd);
        }
        if (rc < 0 && o->smartctl) {
            tried_smartctl = true;
            size_t len;
            char *out = devcmd_smartctl(di->dev_node, &len);
            struct device_health h;
            if (out && device_smartctl_parse(out, len, &di->id, &h) == 0 && o->health) {
                di->health = h;
                free(out);
                scsi_write_cache(di);
                return 0;
            }
            free(out);
        }
    }
    if (o->health)
        device_read_health(di, o->smartctl && !tried_smartctl, &di->health);
    else
        device_health_unknown(&di->health, "not read");
    if (di->id.has_attrs == false && di->bus == DEV_BUS_ATA && o->health && di->health.available &&
        strcmp(di->health.source, "ata") == 0) {
        /* keep the attribute table for `info` */
        int fd = open_node(di);
        uint8_t buf[ATA_SECTOR_BYTES];
        if (fd >= 0 && devcmd_ata_smart_read_data(fd, buf) == 0 &&
            ata_parse_smart(buf, sizeof(buf), &di->id.attrs) == 0)
            di->id.has_attrs = true;
        if (fd >= 0)
            close(fd);
    }
    scsi_write_cache(di);
    return 0;
}

int device_probe(const char *path, const struct device_probe_opts *o, struct device_info *di,
                 char *err, size_t errlen)
{
    struct stat st;
    memset(di, 0, sizeof(*di));
    snprintf(di->path, sizeof(di->path), "%s", path);
    if (stat(path, &st) < 0) {
        int e = errno;
        snprintf(err, errlen, "%s: %s", path, strerror(e));
        return -e;
    }
    dev_t d;
    if (S_ISBLK(st.st_mode)) {
        d = st.st_rdev;
    } else if (S_ISREG(st.st_mode) || S_ISDIR(st.st_mode)) {
        d = st.st_dev;
    } else {
        snprintf(err, errlen, "%s: not a block device, regular file or directory", path);
        return -EINVAL;
    }
    char link[64], real[PATH_MAX];
    snprintf(link, sizeof(link), "/sys/dev/block/%u:%u", major(d), minor(d));
    if (major(d) == 0 || !realpath(link, real)) {
        /* tmpfs, overlay, btrfs subvolumes: no one block device */
        di->bus = DEV_BUS_NONE;
        di->rotational = -1;
        di->nr_requests = di->max_sectors_kb = di->max_hw_sectors_kb = di->read_ahead_kb = -1;
        id_unknown(&di->id);
        snprintf(di->via, sizeof(di->via), "file on a file system without a block device (device %u:%u)",
                 major(d), minor(d));
        char why[160];
        device_health_unknown(&di->health, no_health_reason(di, why, sizeof(why)));
        return 0;
    }
    const char *b = strrchr(real, '/');
    if (!S_ISBLK(st.st_mode))
        snprintf(di->via, sizeof(di->via), "file on %s", b ? b + 1 : real);
    return device_probe_name(b ? b + 1 : real, o, di, err, errlen);
}

/* hwmon temperature of the disk: device/hwmon*, device/hwmon/hwmon* */
static int hwmon_fd(const char *disk)
{
    static const char *const where[] = {"/sys/block/%s/device", "/sys/block/%s/device/hwmon"};
    for (size_t w = 0; w < 2; w++) {
        char dir[PATH_MAX];
        snprintf(dir, sizeof(dir), where[w], disk);
        DIR *d = opendir(dir);
        if (!d)
            continue;
        struct dirent *e;
        int fd = -1;
        while (fd < 0 && (e = readdir(d))) {
            if (!prefix(e->d_name, "hwmon") || !e->d_name[5])
                continue;
            char p[PATH_MAX + 300];
            snprintf(p, sizeof(p), "%s/%s/temp1_input", dir, e->d_name);
            fd = open(p, O_RDONLY | O_CLOEXEC);
        }
        closedir(d);
        if (fd >= 0)
            return fd;
    }
    return -1;
}

void device_temp_open(const struct device_info *di, struct device_temp *t)
{
    t->kind = 0;
    t->fd = -1;
    if (di->bus == DEV_BUS_VIRTUAL || di->bus == DEV_BUS_NONE)
        return;
    int fd = hwmon_fd(di->disk);
    if (fd >= 0) {
        t->kind = 1;
        t->fd = fd;
        return;
    }
    if (di->bus == DEV_BUS_NVME && di->health.available && strcmp(di->health.source, "nvme") == 0) {
        fd = open_node(di);
        if (fd >= 0) {
            t->kind = 2;
            t->fd = fd;
        }
    }
}

double device_temp_read(struct device_temp *t)
{
    if (t->kind == 1) {
        char b[32];
        ssize_t n = pread(t->fd, b, sizeof(b) - 1, 0);
        if (n <= 0)
            return NAN;
        b[n] = 0;
        char *end;
        long mc = strtol(b, &end, 10);
        return end != b ? (double)mc / 1000.0 : NAN;
    }
    if (t->kind == 2) {
        uint8_t buf[NVME_SMART_BYTES];
        struct nvme_smart s;
        if (devcmd_nvme_smart_log(t->fd, buf) == 0 && nvme_parse_smart(buf, sizeof(buf), &s) == 0 && s.temp_k)
            return (double)s.temp_k - 273;
    }
    return NAN;
}

void device_temp_close(struct device_temp *t)
{
    if (t->fd >= 0)
        close(t->fd);
    t->fd = -1;
    t->kind = 0;
}

void device_write_cache_hint(const struct device_info *di, char *buf, size_t len)
{
    char k[256] = "", d[160] = "";
    if (di->write_cache_path[0])
        snprintf(k, sizeof(k), "kernel: echo 'write through' (or 'write back') > %s", di->write_cache_path);
    if (di->bus == DEV_BUS_NVME)
        snprintf(d, sizeof(d), "device: nvme set-feature /dev/%s -f 6 -v 0 (1 = on)",
                 di->nvme_ctrl[0] ? di->nvme_ctrl : di->disk);
    else if (di->bus == DEV_BUS_ATA)
        snprintf(d, sizeof(d), "device: hdparm -W 0 %s (-W 1 = on)", di->dev_node);
    else if (di->bus == DEV_BUS_SCSI)
        snprintf(d, sizeof(d), "device: sdparm --clear WCE %s (--set WCE = on)", di->dev_node);
    snprintf(buf, len, "%s%s%s", k, k[0] && d[0] ? "; " : "", d);
}
