/* result_device.c - see result_device.h. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "result/result.h"
#include "result/result_device.h"

static void num_or_null(cJSON *o, const char *k, double v)
{
    if (isnan(v) || isinf(v))
        cJSON_AddNullToObject(o, k);
    else
        cJSON_AddNumberToObject(o, k, v);
}

static void flag_or_null(cJSON *o, const char *k, int v)
{
    if (v < 0)
        cJSON_AddNullToObject(o, k);
    else
        cJSON_AddBoolToObject(o, k, v);
}

/* The figures of a reading, in one table so JSON both ways agree. */
#define HEALTH_FIELDS                                     \
    F("temp_c", temp_c)                                   \
    F("percent_used", percent_used)                       \
    F("available_spare_pct", available_spare_pct)         \
    F("critical_warning", critical_warning)               \
    F("data_read_bytes", data_read_bytes)                 \
    F("data_written_bytes", data_written_bytes)           \
    F("host_read_cmds", host_read_cmds)                   \
    F("host_write_cmds", host_write_cmds)                 \
    F("nand_written_bytes", nand_written_bytes)           \
    F("media_errors", media_errors)                       \
    F("reallocated", reallocated)                         \
    F("power_on_hours", power_on_hours)                   \
    F("power_cycles", power_cycles)                       \
    F("unsafe_shutdowns", unsafe_shutdowns)

cJSON *result_health_reading(const struct device_health *h)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddBoolToObject(o, "available", h->available);
    if (!h->available) {
        cJSON_AddStringToObject(o, "reason", h->reason);
        return o;
    }
    cJSON_AddStringToObject(o, "source", h->source);
#define F(key, field) num_or_null(o, key, h->field);
    HEALTH_FIELDS
#undef F
    return o;
}

void result_health_from_json(const cJSON *o, struct device_health *h)
{
    device_health_unknown(h, result_str(o, "reason", ""));
    h->available = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(o, "available"));
    snprintf(h->source, sizeof(h->source), "%s", result_str(o, "source", ""));
#define F(key, field) h->field = result_num(o, key, NAN);
    HEALTH_FIELDS
#undef F
}

static void set_str(cJSON *d, const char *k, const char *v)
{
    if (cJSON_GetObjectItemCaseSensitive(d, k))
        cJSON_DeleteItemFromObjectCaseSensitive(d, k);
    cJSON_AddStringToObject(d, k, v);
}

static void add_if_absent_str(cJSON *d, const char *k, const char *v)
{
    if (!cJSON_GetObjectItemCaseSensitive(d, k))
        cJSON_AddStringToObject(d, k, v);
}

void result_device_identity(cJSON *d, const struct device_info *di)
{
    const struct device_identity *id = &di->id;
    add_if_absent_str(d, "name", di->name);
    cJSON_AddStringToObject(d, "disk", di->disk);
    cJSON_AddStringToObject(d, "bus", device_bus_name(di->bus));
    cJSON_AddStringToObject(d, "vendor", di->vendor);
    cJSON_AddStringToObject(d, "identity_source", id->source[0] ? id->source : "sysfs");
    if (id->model[0])
        set_str(d, "model", id->model);
    else
        add_if_absent_str(d, "model", di->model);
    if (id->serial[0])
        set_str(d, "serial", id->serial);
    else
        add_if_absent_str(d, "serial", di->serial);
    if (id->firmware[0])
        set_str(d, "firmware", id->firmware);
    else
        add_if_absent_str(d, "firmware", di->firmware);
    num_or_null(d, "capacity_bytes", !isnan(id->capacity_bytes) ? id->capacity_bytes
                                     : di->size_bytes ? (double)di->size_bytes : NAN);
    if (!cJSON_GetObjectItemCaseSensitive(d, "rotational"))
        flag_or_null(d, "rotational", di->rotational);
    num_or_null(d, "rotation_rpm", id->rotation_rpm >= 0 ? id->rotation_rpm : NAN);
    num_or_null(d, "logical_block", id->logical_block ? id->logical_block : di->logical_block ? di->logical_block : NAN);
    num_or_null(d, "physical_block", id->physical_block ? id->physical_block
                                     : di->physical_block ? di->physical_block : NAN);
    flag_or_null(d, "trim", id->trim >= 0 ? id->trim : di->discard_max_bytes > 0 ? 1 : -1);
    add_if_absent_str(d, "scheduler", di->scheduler);
    cJSON_AddStringToObject(d, "schedulers", di->schedulers);
    num_or_null(d, "nr_requests", di->nr_requests >= 0 ? (double)di->nr_requests : NAN);
    num_or_null(d, "max_sectors_kb", di->max_sectors_kb >= 0 ? (double)di->max_sectors_kb : NAN);
    num_or_null(d, "max_hw_sectors_kb", di->max_hw_sectors_kb >= 0 ? (double)di->max_hw_sectors_kb : NAN);
    num_or_null(d, "read_ahead_kb", di->read_ahead_kb >= 0 ? (double)di->read_ahead_kb : NAN);
    cJSON_AddNumberToObject(d, "discard_max_bytes", (double)di->discard_max_bytes);
    add_if_absent_str(d, "write_cache", di->write_cache);
    flag_or_null(d, "write_cache_supported", id->write_cache_supported);
    flag_or_null(d, "write_cache_enabled", id->write_cache_enabled);
    char hint[512];
    device_write_cache_hint(di, hint, sizeof(hint));
    cJSON_AddStringToObject(d, "write_cache_change", hint);
    if (di->backing_file[0])
        add_if_absent_str(d, "backing_file", di->backing_file);
    if (device_is_zoned(di)) {
        /* zoned block devices: the model, the zone geometry and limits */
        cJSON_AddStringToObject(d, "zoned", di->zoned);
        num_or_null(d, "zone_bytes", di->zone_bytes ? (double)di->zone_bytes : NAN);
        num_or_null(d, "zone_capacity_bytes", di->zone_cap_min_bytes);
        if (di->zone_cap_max_bytes != di->zone_cap_min_bytes)
            num_or_null(d, "zone_capacity_max_bytes", di->zone_cap_max_bytes);
        num_or_null(d, "nr_zones", di->nr_zones >= 0 ? (double)di->nr_zones : NAN);
        num_or_null(d, "max_open_zones", di->max_open_zones >= 0 ? (double)di->max_open_zones : NAN);
        num_or_null(d, "max_active_zones", di->max_active_zones >= 0 ? (double)di->max_active_zones : NAN);
    }
    if (!id->nvme)
        return;
    cJSON_AddStringToObject(d, "nvme_controller", di->nvme_ctrl);
    cJSON_AddNumberToObject(d, "pci_vendor_id", id->ctrl.vid);
    cJSON_AddNumberToObject(d, "namespaces", id->ctrl.nn);
    cJSON_AddNumberToObject(d, "nsid", id->nsid);
    if (!id->nsid)
        return;
    const struct nvme_lbaf *cur = &id->ns.lbaf[id->ns.flbas_index];
    char lf[48];
    snprintf(lf, sizeof(lf), "%u+%u", cur->lbads < 32 ? 1u << cur->lbads : 0, cur->ms);
    cJSON_AddStringToObject(d, "lba_format", lf);
    cJSON_AddNumberToObject(d, "lba_format_index", id->ns.flbas_index);
    cJSON_AddNumberToObject(d, "namespace_blocks", (double)id->ns.nsze);
    cJSON_AddNumberToObject(d, "namespace_used_blocks", (double)id->ns.nuse);
    cJSON *fl = cJSON_AddArrayToObject(d, "lba_formats");
    for (unsigned i = 0; i < id->ns.nlbaf && i < NVME_MAX_LBAF; i++) {
        const struct nvme_lbaf *f = &id->ns.lbaf[i];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddNumberToObject(o, "index", i);
        cJSON_AddNumberToObject(o, "data_bytes", f->lbads < 32 ? (double)(1u << f->lbads) : 0);
        cJSON_AddNumberToObject(o, "metadata_bytes", f->ms);
        cJSON_AddNumberToObject(o, "relative_performance", f->rp);
        cJSON_AddBoolToObject(o, "in_use", i == id->ns.flbas_index);
        cJSON_AddItemToArray(fl, o);
    }
}

static void delta_json(cJSON *o, const struct device_health_delta *dd)
{
    num_or_null(o, "data_read_bytes", dd->data_read_bytes);
    num_or_null(o, "data_written_bytes", dd->data_written_bytes);
    num_or_null(o, "host_read_cmds", dd->host_read_cmds);
    num_or_null(o, "host_write_cmds", dd->host_write_cmds);
    num_or_null(o, "nand_written_bytes", dd->nand_written_bytes);
    num_or_null(o, "percent_used", dd->percent_used);
    num_or_null(o, "media_errors", dd->media_errors);
    num_or_null(o, "reallocated", dd->reallocated);
    num_or_null(o, "power_on_hours", dd->power_on_hours);
    num_or_null(o, "unsafe_shutdowns", dd->unsafe_shutdowns);
    num_or_null(o, "temp_max_c", dd->temp_max_c);
    num_or_null(o, "write_amplification", dd->write_amplification);
}

void result_target_health(cJSON *t, const struct device_health *before,
                          const struct device_health *after, double temp_max)
{
    cJSON *h = cJSON_GetObjectItemCaseSensitive(t, "health");
    if (!cJSON_IsObject(h)) {
        h = cJSON_AddObjectToObject(t, "health");
        cJSON_AddBoolToObject(h, "available", before->available);
        if (!before->available) {
            cJSON_AddStringToObject(h, "reason", before->reason);
            return;
        }
        cJSON_AddStringToObject(h, "source", before->source);
        cJSON_AddItemToObject(h, "before", result_health_reading(before));
        num_or_null(h, "temp_max_sampled_c", NAN);
    }
    if (!cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(h, "available")))
        return;
    double prev = result_num(h, "temp_max_sampled_c", NAN);
    double tmax = isnan(prev) ? temp_max : isnan(temp_max) ? prev : fmax(prev, temp_max);
    cJSON_DeleteItemFromObjectCaseSensitive(h, "temp_max_sampled_c");
    cJSON_DeleteItemFromObjectCaseSensitive(h, "after");
    cJSON_DeleteItemFromObjectCaseSensitive(h, "delta");
    num_or_null(h, "temp_max_sampled_c", tmax);
    cJSON_AddItemToObject(h, "after", result_health_reading(after));
    struct device_health b;
    result_health_from_json(cJSON_GetObjectItemCaseSensitive(h, "before"), &b);
    struct device_health_delta dd;
    device_health_delta(&b, after, tmax, &dd);
    cJSON *d = cJSON_AddObjectToObject(h, "delta");
    delta_json(d, &dd);
}

cJSON *result_device_info(const struct device_info *di)
{
    cJSON *doc = cJSON_CreateObject();
    cJSON_AddStringToObject(doc, "schema", RESULT_INFO_SCHEMA);
    cJSON_AddStringToObject(doc, "path", di->path);
    cJSON_AddStringToObject(doc, "via", di->via);
    cJSON *d = cJSON_AddObjectToObject(doc, "device");
    if (di->bus != DEV_BUS_NONE) {
        cJSON_AddStringToObject(d, "name", di->name);
        cJSON_AddStringToObject(d, "dev_node", di->dev_node);
        cJSON_AddStringToObject(d, "model", di->model);
        cJSON_AddStringToObject(d, "serial", di->serial);
        cJSON_AddStringToObject(d, "firmware", di->firmware);
        flag_or_null(d, "rotational", di->rotational);
        cJSON_AddNumberToObject(d, "size_bytes", (double)di->size_bytes);
        cJSON_AddStringToObject(d, "sysfs_model", di->model);
        result_device_identity(d, di);
    } else {
        cJSON_AddStringToObject(d, "bus", device_bus_name(di->bus));
    }
    cJSON_AddItemToObject(doc, "health", result_health_reading(&di->health));
    if (di->id.has_attrs) {
        cJSON *a = cJSON_AddArrayToObject(doc, "smart_attributes");
        for (unsigned i = 0; i < di->id.attrs.n; i++) {
            const struct ata_smart_attr *s = &di->id.attrs.attr[i];
            cJSON *o = cJSON_CreateObject();
            cJSON_AddNumberToObject(o, "id", s->id);
            cJSON_AddNumberToObject(o, "value", s->value);
            cJSON_AddNumberToObject(o, "worst", s->worst);
            cJSON_AddNumberToObject(o, "raw", (double)s->raw);
            cJSON_AddNumberToObject(o, "flags", s->flags);
            cJSON_AddItemToArray(a, o);
        }
    }
    return doc;
}
