/* prep_wcstate.h - what is known of a disk's volatile write cache before,
 * during and after a test, and its names (WCE/WCD): the state the setter
 * (prep_wcache.h) fills in and its record (prep_wcjournal.h) writes
 * down, shared by both. */
#ifndef SSDBENCH_PREP_WCSTATE_H
#define SSDBENCH_PREP_WCSTATE_H

#include <stdbool.h>
#include <string.h>

#include "target/target_opts.h"
#include "device/device.h"
#include "device/device_purge.h"

enum wcache_via { WCACHE_NONE, WCACHE_DEVICE, WCACHE_KERNEL };

struct wcache_state {
    char path[TARGET_PATH_MAX];
    enum wcache_via via;            /* how it was set */
    bool want;                      /* enabled for the test */
    int device_before, device_during;   /* 1 on, 0 off, -1 unknown */
    char kernel_before[32], kernel_during[32], kernel_after[32]; /* queue/write_cache */
    int device_after;
    bool changed;                   /* something was set (so restore has work) */
    bool restored;
    char sysfs[160];
    char note[512];                 /* what the setting means, what failed */
    char recovered[512];            /* a record an earlier run left, put back first ("" none) */
    struct device_info di;          /* for the device command */
    const struct devio_ops *ops;
};

/* "WCE", "WCD" or "unknown" for a device state (1 / 0 / -1) or a kernel
 * attribute ("write back" / "write through"). */
static inline const char *wcache_name_device(int state)
{
    return state == 1 ? "WCE" : state == 0 ? "WCD" : "unknown";
}

static inline const char *wcache_name_kernel(const char *a)
{
    return !strcmp(a, "write back") ? "WCE" : !strcmp(a, "write through") ? "WCD" : "unknown";
}

#endif
