/* result_device.h - device identity and health in the results model.
 *
 * A block-device target's "device" object (result.c) gets the identity the
 * device reports about itself (result_device_identity), and a "health"
 * object: the reading before the target's first phase, the reading after
 * its latest, and what changed (data written, wear, errors, the highest
 * temperature seen, write amplification where the device counts NAND
 * writes). `ssdbench info --json` is the same identity and one reading
 * (result_device_info). Unknown figures are null. Keys: docs/info.md.
 */
#ifndef SSDBENCH_RESULT_DEVICE_H
#define SSDBENCH_RESULT_DEVICE_H

#include <cjson/cJSON.h>

#include "device/device.h"

#define RESULT_INFO_SCHEMA "ssdbench-info/1"

/* One health reading as JSON. */
cJSON *result_health_reading(const struct device_health *h);
/* Back from JSON (missing or null figures NAN). */
void result_health_from_json(const cJSON *o, struct device_health *h);

/* Adds the device's own identity, queue settings and NVMe namespace to a
 * target's "device" object d (keys already there are kept, except model,
 * serial and firmware, which the device's own identity replaces). */
void result_device_identity(cJSON *d, const struct device_info *di);

/* Files one phase's readings in a target object t: "health" gets "before"
 * on the first call, "after" and "delta" on every call. temp_max is the
 * highest per-interval sample of the phase (NAN: none). */
void result_target_health(cJSON *t, const struct device_health *before,
                          const struct device_health *after, double temp_max);

/* The `ssdbench info` document of one probed device. */
cJSON *result_device_info(const struct device_info *di);

#endif
