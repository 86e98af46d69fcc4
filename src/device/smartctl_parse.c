/* smartctl_parse.c - identity and health from `smartctl --json -a` output
 * (device.h): smartmontools' own field names for ATA attributes, the NVMe
 * health log and SCSI error counters. A further source for SATA behind
 * bridges and SAS disks, which ATA pass-through does not reach. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <cjson/cJSON.h>

#include "device/device.h"

static double num(const cJSON *o, const char *k)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
    return cJSON_IsNumber(v) && isfinite(v->valuedouble) ? v->valuedouble : NAN;
}

static void str(const cJSON *o, const char *k, char *out, size_t len)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
    if (cJSON_IsString(v) && v->valuestring)
        snprintf(out, len, "%s", v->valuestring);
}

static const cJSON *obj(const cJSON *o, const char *k)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
    return cJSON_IsObject(v) ? v : NULL;
}

/* The ATA attribute table into the same struct SMART READ DATA fills. */
static void ata_table(const cJSON *t, struct ata_smart *s)
{
    memset(s, 0, sizeof(*s));
    s->checksum_ok = -1;
    const cJSON *e;
    cJSON_ArrayForEach(e, t) {
        double id = num(e, "id");
        if (isnan(id) || id < 1 || id > 255 || s->n >= ATA_SMART_MAX_ATTRS)
            continue;
        struct ata_smart_attr *a = &s->attr[s->n++];
        a->id = (uint8_t)id;
        double v = num(e, "value"), w = num(e, "worst"), f = num(obj(e, "flags"), "value");
        double r = num(obj(e, "raw"), "value");
        a->value = isnan(v) || v < 0 || v > 255 ? 0 : (uint8_t)v;
        a->worst = isnan(w) || w < 0 || w > 255 ? 0 : (uint8_t)w;
        a->flags = isnan(f) || f < 0 || f > 65535 ? 0 : (uint16_t)f;
        a->raw = isnan(r) || r < 0 || r >= 281474976710656.0 ? 0 : (uint64_t)r;
    }
}

static void nvme_log(const cJSON *l, struct device_health *h)
{
    device_health_unknown(h, NULL);
    h->available = true;
    h->temp_c = num(l, "temperature");
    h->critical_warning = num(l, "critical_warning");
    h->available_spare_pct = num(l, "available_spare");
    h->percent_used = num(l, "percentage_used");
    h->data_read_bytes = num(l, "data_units_read") * 512000.0;
    h->data_written_bytes = num(l, "data_units_written") * 512000.0;
    h->host_read_cmds = num(l, "host_reads");
    h->host_write_cmds = num(l, "host_writes");
    h->media_errors = num(l, "media_errors");
    h->power_on_hours = num(l, "power_on_hours");
    h->power_cycles = num(l, "power_cycles");
    h->unsafe_shutdowns = num(l, "unsafe_shutdowns");
}

int device_smartctl_parse(const char *buf, size_t len, struct device_identity *id,
                          struct device_health *h)
{
    cJSON *doc = cJSON_ParseWithLength(buf, len);
    if (!cJSON_IsObject(doc) || !obj(doc, "smartctl")) {
        cJSON_Delete(doc);
        return -EINVAL;
    }
    /* exit status bit 0: bad command line, bit 1: device open or
     * IDENTIFY failed: nothing worth reading */
    double xs = num(obj(doc, "smartctl"), "exit_status");
    if (!isnan(xs) && ((unsigned)xs & 3u)) {
        cJSON_Delete(doc);
        return -ENODEV;
    }
    memset(id, 0, sizeof(*id));
    id->capacity_bytes = NAN;
    id->rotation_rpm = id->write_cache_supported = id->write_cache_enabled = id->trim = -1;
    snprintf(id->source, sizeof(id->source), "smartctl");
    str(doc, "model_name", id->model, sizeof(id->model));
    str(doc, "serial_number", id->serial, sizeof(id->serial));
    str(doc, "firmware_version", id->firmware, sizeof(id->firmware));
    /* SCSI disks: INQUIRY's product and revision under their own names */
    if (!id->model[0])
        str(doc, "scsi_product", id->model, sizeof(id->model));
    if (!id->firmware[0])
        str(doc, "scsi_revision", id->firmware, sizeof(id->firmware));
    id->capacity_bytes = num(obj(doc, "user_capacity"), "bytes");
    double lb = num(doc, "logical_block_size"), pb = num(doc, "physical_block_size");
    id->logical_block = isnan(lb) || lb < 0 || lb > 1e9 ? 0 : (uint32_t)lb;
    id->physical_block = isnan(pb) || pb < 0 || pb > 1e9 ? 0 : (uint32_t)pb;
    double rr = num(doc, "rotation_rate");
    if (!isnan(rr) && rr >= 0 && rr < 1e6)
        id->rotation_rpm = (int)rr;
    const cJSON *trim = cJSON_GetObjectItemCaseSensitive(obj(doc, "trim"), "supported");
    if (cJSON_IsBool(trim))
        id->trim = cJSON_IsTrue(trim);

    const cJSON *nv = obj(doc, "nvme_smart_health_information_log");
    const cJSON *at = cJSON_GetObjectItemCaseSensitive(obj(doc, "ata_smart_attributes"), "table");
    if (nv) {
        nvme_log(nv, h);
    } else if (cJSON_IsArray(at)) {
        ata_table(at, &id->attrs);
        id->has_attrs = true;
        device_health_ata(&id->attrs, id->model, h);
    } else {
        device_health_unknown(h, NULL);
        h->available = true;
        h->reallocated = num(doc, "scsi_grown_defect_list");
        const cJSON *ec = obj(doc, "scsi_error_counter_log");
        double r = num(obj(ec, "read"), "total_uncorrected_errors");
        double w = num(obj(ec, "write"), "total_uncorrected_errors");
        h->media_errors = isnan(r) ? w : isnan(w) ? r : r + w;
        h->percent_used = num(doc, "scsi_percentage_used_endurance_indicator");
    }
    snprintf(h->source, sizeof(h->source), "smartctl");
    /* Without SMART (QEMU's SCSI disk, some bridges) smartctl still prints
     * "Current Drive Temperature: 0 C", a placeholder: not a reading */
    const cJSON *sa = cJSON_GetObjectItemCaseSensitive(obj(doc, "smart_support"), "available");
    double tc = num(obj(doc, "temperature"), "current");
    if (!isnan(tc) && !(tc == 0 && cJSON_IsFalse(sa)))
        h->temp_c = tc;
    double poh = num(obj(doc, "power_on_time"), "hours");
    if (!isnan(poh))
        h->power_on_hours = poh;
    double pc = num(doc, "power_cycle_count");
    if (!isnan(pc))
        h->power_cycles = pc;
    cJSON_Delete(doc);
    return 0;
}
