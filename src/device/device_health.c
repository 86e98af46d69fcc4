/* device_health.c - health readings from parsed log pages, and what a run
 * changed (device.h). Pure functions: no device access. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "device/device.h"

const char *device_bus_name(enum device_bus b)
{
    switch (b) {
    case DEV_BUS_NVME: return "nvme";
    case DEV_BUS_ATA: return "ata";
    case DEV_BUS_SCSI: return "scsi";
    case DEV_BUS_VIRTUAL: return "virtual";
    case DEV_BUS_OTHER: return "other";
    case DEV_BUS_NONE: break;
    }
    return "none";
}

void device_health_unknown(struct device_health *h, const char *reason)
{
    memset(h, 0, sizeof(*h));
    snprintf(h->reason, sizeof(h->reason), "%s", reason ? reason : "");
    h->temp_c = h->percent_used = h->available_spare_pct = h->critical_warning = NAN;
    h->data_read_bytes = h->data_written_bytes = h->host_read_cmds = h->host_write_cmds = NAN;
    h->nand_written_bytes = h->media_errors = h->reallocated = NAN;
    h->power_on_hours = h->power_cycles = h->unsafe_shutdowns = NAN;
}

void device_health_nvme(const struct nvme_smart *s, struct device_health *h)
{
    device_health_unknown(h, NULL);
    h->available = true;
    snprintf(h->source, sizeof(h->source), "nvme");
    if (s->temp_k)
        h->temp_c = (double)s->temp_k - 273;
    h->percent_used = s->percent_used;
    h->available_spare_pct = s->avail_spare;
    h->critical_warning = s->critical_warning;
    /* a data unit is 1000 units of 512 bytes */
    h->data_read_bytes = s->data_units_read * 512000.0;
    h->data_written_bytes = s->data_units_written * 512000.0;
    h->host_read_cmds = s->host_reads;
    h->host_write_cmds = s->host_writes;
    h->media_errors = s->media_errors;
    h->power_on_hours = s->power_on_hours;
    h->power_cycles = s->power_cycles;
    h->unsafe_shutdowns = s->unsafe_shutdowns;
}

static double raw32(const struct ata_smart *s, uint8_t id)
{
    const struct ata_smart_attr *a = ata_smart_find(s, id);
    return a ? (double)(a->raw & 0xffffffffu) : NAN;
}

static double first_of(const struct ata_smart *s, uint8_t a, uint8_t b)
{
    double v = raw32(s, a);
    return isnan(v) ? raw32(s, b) : v;
}

void device_health_ata(const struct ata_smart *s, const char *model, struct device_health *h)
{
    device_health_unknown(h, NULL);
    h->available = true;
    snprintf(h->source, sizeof(h->source), "ata");
    const struct ata_smart_attr *t = ata_smart_find(s, 194);
    if (!t)
        t = ata_smart_find(s, 190);
    if (t)
        h->temp_c = (double)(t->raw & 0xff);
    h->power_on_hours = raw32(s, 9);
    h->power_cycles = raw32(s, 12);
    h->reallocated = raw32(s, 5);
    h->media_errors = first_of(s, 187, 198);
    h->unsafe_shutdowns = first_of(s, 192, 174);
    static const uint8_t wear[] = {177, 233, 231, 202};
    for (unsigned i = 0; i < sizeof(wear); i++) {
        const struct ata_smart_attr *w = ata_smart_find(s, wear[i]);
        if (w && w->value <= 100) {
            h->percent_used = 100.0 - w->value;
            break;
        }
    }
    bool intel = model && strncasecmp(model, "INTEL", 5) == 0;
    double unit = intel ? 32.0 * 1048576 : 512.0;
    const struct ata_smart_attr *a;
    if ((a = ata_smart_find(s, 241)))
        h->data_written_bytes = (double)a->raw * unit;
    if ((a = ata_smart_find(s, 242)))
        h->data_read_bytes = (double)a->raw * unit;
    if (intel && (a = ata_smart_find(s, 249)))
        h->nand_written_bytes = (double)a->raw * 1073741824.0;
}

static double diff(double a, double b)
{
    return isnan(a) || isnan(b) ? NAN : b - a;
}

static double maxn(double a, double b)
{
    return isnan(a) ? b : isnan(b) ? a : a > b ? a : b;
}

void device_health_delta(const struct device_health *b, const struct device_health *a,
                         double temp_max_sampled, struct device_health_delta *d)
{
    d->data_read_bytes = diff(b->data_read_bytes, a->data_read_bytes);
    d->data_written_bytes = diff(b->data_written_bytes, a->data_written_bytes);
    d->host_read_cmds = diff(b->host_read_cmds, a->host_read_cmds);
    d->host_write_cmds = diff(b->host_write_cmds, a->host_write_cmds);
    d->nand_written_bytes = diff(b->nand_written_bytes, a->nand_written_bytes);
    d->percent_used = diff(b->percent_used, a->percent_used);
    d->media_errors = diff(b->media_errors, a->media_errors);
    d->reallocated = diff(b->reallocated, a->reallocated);
    d->power_on_hours = diff(b->power_on_hours, a->power_on_hours);
    d->unsafe_shutdowns = diff(b->unsafe_shutdowns, a->unsafe_shutdowns);
    d->temp_max_c = maxn(maxn(b->temp_c, a->temp_c), temp_max_sampled);
    d->write_amplification = NAN;
    if (!isnan(d->nand_written_bytes) && !isnan(d->data_written_bytes) && d->data_written_bytes > 0)
        d->write_amplification = d->nand_written_bytes / d->data_written_bytes;
}
