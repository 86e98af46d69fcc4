/* device_cmd.h - the read-only commands device.c sends to a disk: NVMe
 * admin commands through the NVMe admin pass-through ioctl
 * (NVME_IOCTL_ADMIN_CMD, <linux/nvme_ioctl.h>; no library), ATA commands
 * through SG_IO with ATA PASS-THROUGH (16), and `smartctl --json -a`. Only
 * Identify, Get Log Page, Get Features, IDENTIFY DEVICE and SMART READ DATA
 * are ever sent: nothing here changes a device. */
#ifndef SSDBENCH_DEVICE_CMD_H
#define SSDBENCH_DEVICE_CMD_H

#include <stddef.h>
#include <stdint.h>

/* NVMe on an open NVMe block or controller node; 0 or -errno. */
int devcmd_nvme_identify(int fd, uint32_t cns, uint32_t nsid, uint8_t buf[4096]);
int devcmd_nvme_smart_log(int fd, uint8_t buf[512]);
/* Get Features, feature fid, current value in *value. */
int devcmd_nvme_get_feature(int fd, uint32_t fid, uint32_t *value);
/* The namespace id of an NVMe block device (NVME_IOCTL_ID), 0 if none. */
uint32_t devcmd_nvme_nsid(int fd);

/* ATA through SG_IO on an open sd node; 0 or -errno (-EIO: the
 * translation layer or the device refused). */
int devcmd_ata_identify(int fd, uint8_t buf[512]);
int devcmd_ata_smart_read_data(int fd, uint8_t buf[512]);

/* Runs smartctl --json -a -n standby DEV (a sleeping disk is not woken),
 * at most 15 s; returns its standard output (malloc'd, NUL-terminated,
 * *len bytes) or NULL when smartctl is not installed or gave nothing. */
char *devcmd_smartctl(const char *dev, size_t *len);

/* The smallest and largest zone capacity of a zoned block device, from its
 * zone report (BLKREPORTZONE, read-only; zones reported 256 at a time), in
 * bytes. Returns 0, or -errno (-ENOTTY: not zoned). */
int devcmd_zone_capacity(int fd, double *min_bytes, double *max_bytes);

#endif
