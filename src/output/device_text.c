/* device_text.c - see device_text.h. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "output/device_text.h"
#include "result/result_read.h"

static void bytes_str(char *b, size_t n, double v)
{
    if (isnan(v))
        snprintf(b, n, "-");
    else if (fabs(v) >= 1e12)
        snprintf(b, n, "%.2f TB", v / 1e12);
    else if (fabs(v) >= 1e9)
        snprintf(b, n, "%.2f GB", v / 1e9);
    else if (fabs(v) >= 1e6)
        snprintf(b, n, "%.2f MB", v / 1e6);
    else
        snprintf(b, n, "%.0f B", v);
}

static void num_str(char *b, size_t n, double v, const char *fmt)
{
    if (isnan(v))
        snprintf(b, n, "-");
    else
        snprintf(b, n, fmt, v);
}

static const char *flag(const cJSON *o, const char *k)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
    return cJSON_IsTrue(v) ? "yes" : cJSON_IsFalse(v) ? "no" : "unknown";
}

/* The figures of a reading: key, label, bytes or not, format. */
static const struct {
    const char *key, *label;
    int bytes;
    const char *fmt;
} figs[] = {
    {"temp_c", "temperature (C)", 0, "%.0f"},
    {"percent_used", "endurance used (%)", 0, "%.0f"},
    {"available_spare_pct", "available spare (%)", 0, "%.0f"},
    {"critical_warning", "critical warning (bits)", 0, "%.0f"},
    {"data_read_bytes", "data read", 1, NULL},
    {"data_written_bytes", "data written", 1, NULL},
    {"host_read_cmds", "host read commands", 0, "%.0f"},
    {"host_write_cmds", "host write commands", 0, "%.0f"},
    {"nand_written_bytes", "NAND written", 1, NULL},
    {"media_errors", "media errors", 0, "%.0f"},
    {"reallocated", "reallocated sectors", 0, "%.0f"},
    {"power_on_hours", "power-on hours", 0, "%.0f"},
    {"power_cycles", "power cycles", 0, "%.0f"},
    {"unsafe_shutdowns", "unsafe shutdowns", 0, "%.0f"},
};

static void fig_str(char *b, size_t n, const cJSON *o, unsigned i)
{
    double v = result_num(o, figs[i].key, NAN);
    if (!cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(o, figs[i].key)))
        v = NAN;
    if (figs[i].bytes)
        bytes_str(b, n, v);
    else
        num_str(b, n, v, figs[i].fmt);
}

static void reading(FILE *f, const cJSON *h)
{
    if (!cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(h, "available"))) {
        fprintf(f, "health: not available: %s\n", result_str(h, "reason", "?"));
        return;
    }
    fprintf(f, "health (from %s):\n", result_str(h, "source", "?"));
    unsigned shown = 0;
    for (unsigned i = 0; i < sizeof(figs) / sizeof(figs[0]); i++) {
        char v[40];
        fig_str(v, sizeof(v), h, i);
        if (strcmp(v, "-")) {
            fprintf(f, "  %-24s %s\n", figs[i].label, v);
            shown++;
        }
    }
    if (!shown)
        fprintf(f, "  (the device reports no figures)\n");
}

/* A zoned device: its model, zone size and capacity, count and limits
 * (0 open / active = no limit). */
static void zoned_line(FILE *f, const cJSON *d)
{
    char zs[32], zc[32], zx[32] = "";
    bytes_str(zs, sizeof(zs), result_num(d, "zone_bytes", NAN));
    bytes_str(zc, sizeof(zc), result_num(d, "zone_capacity_bytes", NAN));
    double cmax = result_num(d, "zone_capacity_max_bytes", NAN);
    if (!isnan(cmax)) {
        char m[32];
        bytes_str(m, sizeof(m), cmax);
        snprintf(zx, sizeof(zx), " to %s", m);
    }
    double mo = result_num(d, "max_open_zones", NAN), ma = result_num(d, "max_active_zones", NAN);
    char o[24], a[24];
    snprintf(o, sizeof(o), isnan(mo) ? "?" : mo == 0 ? "no limit" : "%.0f", mo);
    snprintf(a, sizeof(a), isnan(ma) ? "?" : ma == 0 ? "no limit" : "%.0f", ma);
    fprintf(f, "zoned:         %s, %.0f zones of %s (capacity %s%s), max open zones %s, max active zones %s\n",
            result_str(d, "zoned", "?"), result_num(d, "nr_zones", 0), zs, zc, zx, o, a);
}

/* A string field, or "(not reported)". */
static const char *sv(const cJSON *o, const char *k)
{
    const char *s = result_str(o, k, "");
    return s[0] ? s : "(not reported)";
}

void render_device_info(FILE *f, const cJSON *info)
{
    const cJSON *d = cJSON_GetObjectItemCaseSensitive(info, "device");
    fprintf(f, "%s", result_str(info, "path", "?"));
    if (result_str(info, "via", "")[0])
        fprintf(f, " (%s)", result_str(info, "via", ""));
    fprintf(f, "\n");
    if (!strcmp(result_str(d, "bus", ""), "none")) {
        reading(f, cJSON_GetObjectItemCaseSensitive(info, "health"));
        return;
    }
    char cap[32];
    bytes_str(cap, sizeof(cap), result_num(d, "capacity_bytes", NAN));
    fprintf(f, "device:        %s (%s, disk %s, bus %s, identity from %s)\n", result_str(d, "dev_node", "?"),
            result_str(d, "name", "?"), result_str(d, "disk", "?"), result_str(d, "bus", "?"),
            result_str(d, "identity_source", "?"));
    fprintf(f, "model:         %s\n", sv(d, "model"));
    if (strcmp(result_str(d, "sysfs_model", ""), result_str(d, "model", "")))
        fprintf(f, "  (sysfs:      %s)\n", result_str(d, "sysfs_model", ""));
    if (result_str(d, "vendor", "")[0])
        fprintf(f, "vendor:        %s\n", result_str(d, "vendor", ""));
    fprintf(f, "serial:        %s\n", sv(d, "serial"));
    fprintf(f, "firmware:      %s\n", sv(d, "firmware"));
    fprintf(f, "capacity:      %s (%.0f bytes)\n", cap, result_num(d, "capacity_bytes", 0));
    fprintf(f, "blocks:        logical %.0f, physical %.0f\n", result_num(d, "logical_block", 0),
            result_num(d, "physical_block", 0));
    double rpm = result_num(d, "rotation_rpm", NAN);
    fprintf(f, "rotational:    %s", flag(d, "rotational"));
    if (!isnan(rpm))
        fprintf(f, rpm > 0 ? " (%.0f rpm)" : " (device: solid state)", rpm);
    fprintf(f, "\ntrim/discard:  %s (discard_max_bytes %.0f)\n", flag(d, "trim"),
            result_num(d, "discard_max_bytes", 0));
    if (result_str(d, "backing_file", "")[0])
        fprintf(f, "backing file:  %s\n", result_str(d, "backing_file", ""));
    if (result_str(d, "zoned", "")[0])
        zoned_line(f, d);
    fprintf(f, "queue:         scheduler %s (offered: %s), nr_requests %.0f, max_sectors_kb %.0f "
               "(hw %.0f), read_ahead_kb %.0f\n",
            result_str(d, "scheduler", "?"), result_str(d, "schedulers", ""), result_num(d, "nr_requests", -1),
            result_num(d, "max_sectors_kb", -1), result_num(d, "max_hw_sectors_kb", -1),
            result_num(d, "read_ahead_kb", -1));
    fprintf(f, "write cache:   kernel: %s; device: supported %s, enabled %s\n",
            result_str(d, "write_cache", "unknown")[0] ? result_str(d, "write_cache", "unknown") : "unknown",
            flag(d, "write_cache_supported"), flag(d, "write_cache_enabled"));
    if (result_str(d, "write_cache_change", "")[0])
        fprintf(f, "  change:      %s\n", result_str(d, "write_cache_change", ""));
    if (cJSON_GetObjectItemCaseSensitive(d, "nsid")) {
        fprintf(f, "nvme:          controller %s, namespace %.0f of %.0f, LBA format %s (index %.0f)\n",
                result_str(d, "nvme_controller", "?"), result_num(d, "nsid", 0), result_num(d, "namespaces", 0),
                result_str(d, "lba_format", "?"), result_num(d, "lba_format_index", 0));
        const cJSON *lf;
        cJSON_ArrayForEach(lf, cJSON_GetObjectItemCaseSensitive(d, "lba_formats"))
            fprintf(f, "  format %2.0f:   %5.0f + %3.0f metadata bytes, relative performance %.0f%s\n",
                    result_num(lf, "index", 0), result_num(lf, "data_bytes", 0),
                    result_num(lf, "metadata_bytes", 0), result_num(lf, "relative_performance", 0),
                    cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(lf, "in_use")) ? "  (in use)" : "");
    }
    reading(f, cJSON_GetObjectItemCaseSensitive(info, "health"));
    const cJSON *attrs = cJSON_GetObjectItemCaseSensitive(info, "smart_attributes");
    if (cJSON_GetArraySize(attrs) > 0) {
        fprintf(f, "SMART attributes:\n  %3s %5s %5s %15s\n", "id", "value", "worst", "raw");
        const cJSON *a;
        cJSON_ArrayForEach(a, attrs)
            fprintf(f, "  %3.0f %5.0f %5.0f %15.0f\n", result_num(a, "id", 0), result_num(a, "value", 0),
                    result_num(a, "worst", 0), result_num(a, "raw", 0));
    }
}

void render_device_health(FILE *f, const cJSON *doc)
{
    const cJSON *t;
    cJSON_ArrayForEach(t, cJSON_GetObjectItemCaseSensitive(doc, "targets")) {
        const cJSON *h = cJSON_GetObjectItemCaseSensitive(t, "health");
        if (!cJSON_IsObject(h))
            continue;
        const cJSON *d = cJSON_GetObjectItemCaseSensitive(t, "device");
        if (!cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(h, "available"))) {
            fprintf(f, "health %s (%s): not available: %s\n", result_str(t, "id", "?"),
                    result_str(d, "name", "?"), result_str(h, "reason", "?"));
            continue;
        }
        const cJSON *b = cJSON_GetObjectItemCaseSensitive(h, "before");
        const cJSON *a = cJSON_GetObjectItemCaseSensitive(h, "after");
        const cJSON *dl = cJSON_GetObjectItemCaseSensitive(h, "delta");
        fprintf(f, "health %s (%s, from %s):\n  %-24s %14s %14s %14s\n", result_str(t, "id", "?"),
                result_str(d, "name", "?"), result_str(h, "source", "?"), "", "before", "after", "change");
        for (unsigned i = 0; i < sizeof(figs) / sizeof(figs[0]); i++) {
            char vb[40], va[40], vd[40] = "";
            fig_str(vb, sizeof(vb), b, i);
            fig_str(va, sizeof(va), a, i);
            if (!strcmp(vb, "-") && !strcmp(va, "-"))
                continue;
            if (!strcmp(figs[i].key, "temp_c"))
                num_str(vd, sizeof(vd), result_num(dl, "temp_max_c", NAN), "max %.0f");
            else if (cJSON_GetObjectItemCaseSensitive(dl, figs[i].key))
                fig_str(vd, sizeof(vd), dl, i);
            fprintf(f, "  %-24s %14s %14s %14s\n", figs[i].label, vb, va, vd);
        }
        double wa = result_num(dl, "write_amplification", NAN);
        if (cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(dl, "write_amplification")))
            fprintf(f, "  write amplification (NAND / host writes over the run): %.2f\n", wa);
    }
}
