/* device_purge.h - sending the purge and write-cache commands of
 * device_purge_cmd.h to a device: NVMe Sanitize (polled through the
 * Sanitize Status log until it ends or a timeout) and Format NVM through
 * the NVMe admin pass-through ioctl, ATA SECURITY ERASE (with a temporary
 * user password, set and erased as hdparm does) and SANITIZE through SG_IO
 * ATA PASS-THROUGH (16), SCSI SANITIZE and FORMAT UNIT through SG_IO; and
 * reading / setting the device's volatile write cache (NVMe feature 06h,
 * ATA SET FEATURES 02h / 82h, SCSI Caching mode page WCE).
 *
 * These are the only commands in device/ that change a device. They take
 * a descriptor the caller opened through the destructive-write guard
 * (prep/prep_purge.c, prep/prep_wcache.c): nothing here decides
 * whether writing is allowed. Every ioctl goes through a function table,
 * struct devio_ops, so the tests watch the exact command stream on a mock
 * (tests/unit/test_device_purge_run.c) without an NVMe or SATA device;
 * devio_real() is the kernel's ioctl, nanosleep and the monotonic clock.
 */
#ifndef SSDBENCH_DEVICE_PURGE_H
#define SSDBENCH_DEVICE_PURGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "device/device.h"
#include "device/device_purge_cmd.h"

struct devio_ops {
    int (*ioctl)(void *ctx, int fd, unsigned long req, void *arg);
    void (*sleep_ms)(void *ctx, unsigned ms);
    uint64_t (*now_ms)(void *ctx);
    void *ctx;
};

const struct devio_ops *devio_real(void);

/* The temporary ATA user password ssdbench sets for SECURITY ERASE UNIT
 * (the erase clears it again); named in the message when clearing fails. */
#define DEVPURGE_ATA_PASSWORD "ssdbench-purge"

struct devpurge_opts {
    unsigned poll_ms;               /* sanitize status polling interval (0: 1000) */
    uint64_t timeout_ms;            /* give up waiting after this (0: twice the device's
                                       estimate + 10 min, else 24 h) */
    void (*progress)(void *arg, const char *line);
    void *arg;
};

struct devpurge_result {
    double elapsed_s;
    double estimate_s;              /* the device's estimate, NAN unknown */
    unsigned polls;                 /* sanitize status reads */
    char notes[256];
};

/* Sends method m (a device method, devpurge_is_device) on fd, the open
 * whole-device node of di, and waits for its end. 0, or -errno with a
 * one-line message (-ETIMEDOUT: a sanitize still running at the timeout;
 * the device finishes it on its own). */
int devpurge_run(int fd, const struct device_info *di, enum devpurge_method m,
                 const struct devio_ops *ops, const struct devpurge_opts *o,
                 struct devpurge_result *r, char *err, size_t errlen);

/* The controller's active namespaces other than di's own and how many
 * blocks each holds (Identify CNS 02h, then each namespace's NUSE; nuse
 * UINT64_MAX when unreadable). Returns how many (at most max), -errno. */
int devpurge_nvme_other_namespaces(int fd, const struct device_info *di,
                                   const struct devio_ops *ops, uint32_t *ids, uint64_t *nuse,
                                   unsigned max);

/* REPORT SUPPORTED OPERATION CODES for SANITIZE block / crypto erase and
 * FORMAT UNIT (-1 each when the device does not answer). */
void devpurge_scsi_caps(int fd, const struct devio_ops *ops, struct scsi_purge_caps *c);

/* The device's volatile write cache: 1 on, 0 off, -errno (-EOPNOTSUPP: no
 * such command for this bus, or no volatile cache). */
int devwc_get(int fd, const struct device_info *di, const struct devio_ops *ops);
int devwc_set(int fd, const struct device_info *di, const struct devio_ops *ops, bool enable,
              char *err, size_t errlen);

#endif
