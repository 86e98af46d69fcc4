/* runner_device.c - identity and health of a phase's block-device targets
 * (device.h), read off the I/O path: before the workers are released, after
 * they have all finished, and, for the per-interval temperature, by the
 * collector when it writes an interval's row (at most once per interval,
 * and only with intervals of at least RUNNER_TEMP_MIN_STEP, so short ACT
 * ticks do not turn into a stream of admin commands). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "runner/runner_int.h"

#define RUNNER_TEMP_MIN_STEP 1000000000ull

struct runner_devices {
    unsigned n;
    bool sample;
    struct device_temp temp[];
};

struct runner_devices *runner_devices_before(struct phase_stats *out, uint64_t step_ns)
{
    out->devices = calloc(out->ntargets ? out->ntargets : 1, sizeof(*out->devices));
    struct runner_devices *rd = calloc(1, sizeof(*rd) + (out->ntargets + 1) * sizeof(rd->temp[0]));
    if (!out->devices || !rd) {
        free(out->devices);
        out->devices = NULL;
        free(rd);
        return NULL;
    }
    rd->n = out->ntargets;
    rd->sample = step_ns >= RUNNER_TEMP_MIN_STEP;
    struct device_probe_opts o = {.health = true, .smartctl = true};
    for (unsigned t = 0; t < out->ntargets; t++) {
        struct runner_device *d = &out->devices[t];
        rd->temp[t].kind = 0;
        rd->temp[t].fd = -1;
        d->temp_max_c = NAN;
        if (out->targets[t].kind != TARGET_BLOCK || !out->targets[t].devname[0])
            continue;
        char err[256];
        if (device_probe_name(out->targets[t].devname, &o, &d->info, err, sizeof(err)) < 0) {
            device_health_unknown(&d->before, err);
            d->after = d->before;
            continue;
        }
        d->valid = true;
        d->before = d->info.health;
        if (rd->sample)
            device_temp_open(&d->info, &rd->temp[t]);
    }
    return rd;
}

double runner_devices_sample(struct runner_devices *rd, struct phase_stats *out)
{
    double hi = NAN;
    if (!rd || !rd->sample)
        return hi;
    for (unsigned t = 0; t < rd->n; t++) {
        if (!rd->temp[t].kind)
            continue;
        double c = device_temp_read(&rd->temp[t]);
        if (isnan(c))
            continue;
        struct runner_device *d = &out->devices[t];
        if (isnan(d->temp_max_c) || c > d->temp_max_c)
            d->temp_max_c = c;
        if (isnan(hi) || c > hi)
            hi = c;
    }
    return hi;
}

void runner_devices_after(struct runner_devices *rd, struct phase_stats *out)
{
    if (!rd)
        return;
    for (unsigned t = 0; t < rd->n; t++) {
        device_temp_close(&rd->temp[t]);
        struct runner_device *d = &out->devices[t];
        if (d->valid)
            device_read_health(&d->info, true, &d->after);
    }
    free(rd);
}
