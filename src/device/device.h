/* device.h - what a storage device is and how healthy it is.
 *
 * device_probe() resolves a path (a block device, a partition, or a regular
 * file, which stands for its file system's device) to the disk behind it and
 * reads everything it can without writing: sysfs for every device (model,
 * serial, firmware, rotational, block sizes, queue settings, write cache),
 * NVMe Identify Controller / Namespace and the SMART / Health log through
 * the NVMe admin pass-through ioctl, ATA IDENTIFY DEVICE and SMART READ DATA
 * through SG_IO ATA PASS-THROUGH (16), and `smartctl --json` as a further
 * source for SATA/SAS disks when smartctl is installed. Devices without a
 * health log of their own (loop, zram, ram, virtio, device-mapper, md, nbd)
 * get the sysfs part and health.available = false with the reason.
 *
 * Health figures are doubles, NAN when the device does not report them;
 * struct device_health is one reading, and device_health_delta what a run
 * changed. The pure conversions from parsed log pages (device_health_nvme,
 * device_health_ata, device_smartctl_parse) are separate from the access,
 * so they are tested on fixtures.
 */
#ifndef SSDBENCH_DEVICE_H
#define SSDBENCH_DEVICE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "device/device_parse.h"

enum device_bus {
    DEV_BUS_NONE,      /* no block device (a file on tmpfs, overlay ...) */
    DEV_BUS_NVME,
    DEV_BUS_ATA,       /* SATA behind libata (sd*, vendor "ATA") */
    DEV_BUS_SCSI,      /* SAS, USB bridges and other sd* */
    DEV_BUS_VIRTUAL,   /* loop, zram, ram, virtio, dm, md, nbd: sysfs only */
    DEV_BUS_OTHER,     /* mmc and the rest: sysfs only */
};

const char *device_bus_name(enum device_bus b);

/* One health reading. */
struct device_health {
    bool available;
    char source[16];            /* "nvme", "ata", "smartctl" */
    char reason[160];           /* why not available */
    double temp_c;              /* current temperature, degrees Celsius */
    double percent_used;        /* endurance used, % (NVMe percentage used; ATA 100 - wear value) */
    double available_spare_pct;
    double critical_warning;    /* NVMe critical warning bits; 0 = none */
    double data_read_bytes;     /* host reads the device counted, bytes */
    double data_written_bytes;  /* host writes the device counted, bytes */
    double host_read_cmds, host_write_cmds;
    double nand_written_bytes;  /* writes to the media itself (where reported) */
    double media_errors;        /* NVMe media and data integrity errors; ATA 187 (else 198) */
    double reallocated;         /* ATA 5, SCSI grown defects */
    double power_on_hours;
    double power_cycles;
    double unsafe_shutdowns;    /* NVMe unsafe shutdowns; ATA 192 (else 174) */
};

/* NAN in every figure, not available, reason as given. */
void device_health_unknown(struct device_health *h, const char *reason);

/* What a run changed: after - before for the counters, the highest
 * temperature seen, write amplification = NAND writes delta / host writes
 * delta (NAN unless both are reported and host writes grew). */
struct device_health_delta {
    double data_read_bytes, data_written_bytes, host_read_cmds, host_write_cmds;
    double nand_written_bytes, percent_used, media_errors, reallocated;
    double power_on_hours, unsafe_shutdowns;
    double temp_max_c;
    double write_amplification;
};
void device_health_delta(const struct device_health *before, const struct device_health *after,
                         double temp_max_sampled, struct device_health_delta *d);

/* Health from a parsed NVMe SMART / Health log. */
void device_health_nvme(const struct nvme_smart *s, struct device_health *h);
/* Health from ATA SMART attributes; model picks vendor units (Intel counts
 * attribute 241/242 in 32 MiB, others in 512-byte sectors). Attributes read
 * (docs/info.md): 194 (else 190) temperature, raw byte 0; 9 power-on hours;
 * 12 power cycles; 5 reallocated sectors; 187 (else 198) uncorrectable
 * errors; 192 (else 174) unsafe shutdowns; wear as 100 - normalized value of
 * 177 (Samsung), 233 (Intel), 231 (SSD life left), 202 (Micron, % remaining);
 * 241 / 242 host writes / reads; 249 (Intel, GiB) NAND writes. */
void device_health_ata(const struct ata_smart *s, const char *model, struct device_health *h);

/* What a device says about itself (beyond sysfs), merged from the sources. */
struct device_identity {
    char source[16];            /* "nvme", "ata", "smartctl", "" = none */
    char model[64], serial[32], firmware[16];
    double capacity_bytes;      /* NAN unknown */
    uint32_t logical_block, physical_block; /* 0 unknown */
    int rotation_rpm;           /* 0 solid state, > 0 rpm, -1 unknown */
    int write_cache_supported, write_cache_enabled, trim; /* 1, 0, -1 unknown */
    /* NVMe only */
    bool nvme;
    struct nvme_id_ctrl ctrl;
    struct nvme_id_ns ns;
    uint32_t nsid;              /* 0: no namespace identified */
    /* ATA only: the attribute table */
    bool has_attrs;
    struct ata_smart attrs;
    /* ATA only: the whole IDENTIFY DEVICE reading (security and sanitize
     * words for the purge, device_purge_cmd.h) */
    bool ata;
    struct ata_identity ata_id;
};

/* Everything device_probe learns. */
struct device_info {
    char path[4096];            /* as given */
    char via[160];              /* "" for a device; "file on sda1" for a file */
    char name[64];              /* the sysfs name given or found (sda1, nvme0n1, dm-0) */
    char disk[64];              /* the whole disk whose identity and health these are */
    char dev_node[80];          /* /dev/<disk> */
    enum device_bus bus;
    /* sysfs (empty strings / -1 / 0 when absent) */
    char vendor[64], model[96], serial[96], firmware[64];
    int rotational;
    uint32_t logical_block, physical_block;
    uint64_t size_bytes;        /* of name (the partition when a partition) */
    char scheduler[32];         /* the active one */
    char schedulers[128];       /* all offered, as sysfs lists them */
    long nr_requests, max_sectors_kb, max_hw_sectors_kb, read_ahead_kb;
    uint64_t discard_max_bytes;
    char write_cache[32];       /* "write back" / "write through" */
    char write_cache_path[160]; /* the sysfs file that changes it */
    char backing_file[4096];    /* loop devices */
    char nvme_ctrl[32];         /* nvme0 for nvme0n1 */
    /* zoned block devices (queue/zoned "host-managed" or "host-aware";
     * "none" or "" otherwise): zone size from chunk_sectors, the zone count,
     * the open and active zone limits (0: no limit) from sysfs, and the
     * smallest and largest zone capacity of the zone report (BLKREPORTZONE;
     * NAN when not read) */
    char zoned[16];
    uint64_t zone_bytes;
    long nr_zones, max_open_zones, max_active_zones;
    double zone_cap_min_bytes, zone_cap_max_bytes;
    struct device_identity id;
    struct device_health health;
};

struct device_probe_opts {
    bool health;                /* read the health log too */
    bool smartctl;              /* run smartctl --json when direct commands gave nothing */
};

/* Fills di for path. Returns 0 (also for a file on a file system without a
 * block device: bus DEV_BUS_NONE, health unavailable with the reason), or
 * -errno with a one-line message naming the path. */
int device_probe(const char *path, const struct device_probe_opts *o, struct device_info *di,
                 char *err, size_t errlen);

/* The same for a block device known by its sysfs name (nvme0n1, sda1), as
 * the runner knows its targets. */
int device_probe_name(const char *name, const struct device_probe_opts *o, struct device_info *di,
                      char *err, size_t errlen);

/* A zoned block device: queue/zoned is host-managed or host-aware. */
bool device_is_zoned(const struct device_info *di);

/* How to change the write cache, one line: the kernel's view
 * (queue/write_cache: "write through" stops the flushes) and the device's
 * own cache (nvme set-feature, hdparm -W, sdparm WCE); "" for devices
 * without either. */
void device_write_cache_hint(const struct device_info *di, char *buf, size_t len);

/* A fresh health reading of a probed device (h unavailable with the reason
 * when it has none). */
void device_read_health(const struct device_info *di, bool smartctl, struct device_health *h);

/* A cheap temperature sensor for per-interval samples: the device's hwmon
 * temp1_input in sysfs, else (NVMe) the SMART log through the admin queue,
 * which does not pass through the I/O queues. ATA disks without hwmon are
 * not sampled: SMART READ DATA is not a queued command and would drain the
 * NCQ queue in the middle of the load. */
struct device_temp {
    int kind;                   /* 0 none, 1 hwmon file, 2 NVMe log */
    int fd;
};
void device_temp_open(const struct device_info *di, struct device_temp *t);
double device_temp_read(struct device_temp *t);   /* degrees Celsius, NAN */
void device_temp_close(struct device_temp *t);

/* Parses `smartctl --json -a` output (buf[0..len)) into identity and
 * health; returns 0, -EINVAL when it is not smartctl's JSON, -ENODEV when
 * smartctl could not open or identify the device. */
int device_smartctl_parse(const char *buf, size_t len, struct device_identity *id,
                          struct device_health *h);

#endif
