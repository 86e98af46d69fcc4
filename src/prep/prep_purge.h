/* prep_purge.h - the purge as `ssdbench purge` and `ssdbench pts` run it:
 * the device's own erase command where the device has one, else the block
 * layer's (target/purge.h), always through the destructive-write guard.
 *
 * The target is opened once for writing through target_open (the guard:
 * signatures, mounts, holders, open writers, in use; held O_EXCL), then
 * identified (device/device.h) and the method chosen (devpurge_choose in
 * device/device_purge_cmd.h, in the order SNIA PTS asks for). A device
 * command erases the whole device, so on top of the guard it needs the
 * device named in a destroy option even when it carries no signature; an
 * NVMe sanitize (and a Format NVM that applies to all namespaces) erases
 * every namespace of the controller, so each other active namespace is
 * opened through the guard as well and, when it holds data (NUSE > 0),
 * must be named too. The refusal says what was found. When the device
 * refuses the command itself the block layer's methods follow, and the
 * notes say so; a sanitize that outlives the timeout is an error (the
 * device is still erasing).
 */
#ifndef SSDBENCH_PREP_PURGE_H
#define SSDBENCH_PREP_PURGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "device/device_purge.h"
#include "target/guard.h"
#include "target/purge.h"

enum rpurge_mode {
    RPURGE_AUTO,        /* the device's command where it has one, else the block layer */
    RPURGE_BLOCK,       /* the block layer only (secure discard, discard, zero fill) */
};

struct rpurge_opts {
    const struct guard_consent *consent;
    enum rpurge_mode mode;
    const struct devio_ops *ops;    /* NULL: devio_real() */
    uint64_t timeout_ms;            /* sanitize wait (0: from the device's estimate, else 24 h) */
    unsigned poll_ms;               /* sanitize status interval (0: 1 s) */
    void (*progress)(void *arg, const char *line);
    void *arg;
};

struct rpurge_report {
    struct purge_report r;          /* method, range, time, the block layer's notes */
    bool device_command;            /* r.method is the device's own erase */
    char considered[512];           /* why the stronger methods were passed over */
    char scope[256];                /* what the method erased beyond the target */
    double estimate_s;              /* the device's own estimate, NAN unknown */
};

/* Purges path. 0 with the report; -EPERM refused (one line: what was
 * found, how to consent); -ETIMEDOUT a sanitize still running; other
 * -errno with a one-line message. */
int prep_purge(const char *path, const struct rpurge_opts *o, struct rpurge_report *r, char *err,
                 size_t errlen);

/* What prep_purge would refuse, decided without writing (for refusing
 * before a long run starts): a locked drive, a device erase without the
 * device named, an NVMe controller-wide erase with another namespace
 * holding data that is not named. 0 or -EPERM with the message. The purge
 * itself decides again on its descriptor. */
int prep_purge_check(const char *path, const struct rpurge_opts *o, char *err, size_t errlen);

/* The target method of a device method. */
enum purge_method prep_purge_method(enum devpurge_method m);

#endif
