/* test_device_result.c - device health in the results model
 * (result/result_device.c) and its renderings (output/device_text.c, the
 * report's health cell): before / after / delta over several phases,
 * unavailable health with its reason, the info document. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "device/device.h"
#include "output/device_text.h"
#include "output/html_kinds.h"
#include "result/result.h"
#include "result/result_device.h"

static void reading(struct device_health *h, double temp, double written, double nand, double used)
{
    device_health_unknown(h, NULL);
    h->available = true;
    snprintf(h->source, sizeof(h->source), "nvme");
    h->temp_c = temp;
    h->data_written_bytes = written;
    h->nand_written_bytes = nand;
    h->percent_used = used;
    h->media_errors = 0;
}

TEST(health_over_two_phases)
{
    cJSON *t = cJSON_CreateObject();
    struct device_health b1, a1, b2, a2;
    reading(&b1, 40, 1e9, 3e9, 2);
    reading(&a1, 44, 2e9, 5e9, 2);
    reading(&b2, 43, 2e9, 5e9, 2);
    reading(&a2, 45, 5e9, 11e9, 3);
    result_target_health(t, &b1, &a1, 47);
    result_target_health(t, &b2, &a2, NAN);
    const cJSON *h = cJSON_GetObjectItemCaseSensitive(t, "health");
    CHECK(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(h, "available")), "available");
    const cJSON *b = cJSON_GetObjectItemCaseSensitive(h, "before");
    const cJSON *a = cJSON_GetObjectItemCaseSensitive(h, "after");
    const cJSON *d = cJSON_GetObjectItemCaseSensitive(h, "delta");
    CHECK(result_num(b, "temp_c", 0) == 40, "before is the first phase's");
    CHECK(result_num(a, "temp_c", 0) == 45, "after is the last phase's");
    CHECK(result_num(d, "data_written_bytes", 0) == 4e9, "written %g", result_num(d, "data_written_bytes", 0));
    CHECK(result_num(d, "nand_written_bytes", 0) == 8e9, "nand");
    CHECK(result_num(d, "write_amplification", 0) == 2, "wa %g", result_num(d, "write_amplification", 0));
    CHECK(result_num(d, "temp_max_c", 0) == 47, "max keeps the first phase's sample: %g", result_num(d, "temp_max_c", 0));
    CHECK(result_num(d, "percent_used", -1) == 1, "wear");
    CHECK(cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(d, "power_on_hours")), "unknown is null");
    CHECK(cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(a, "reallocated")), "unknown reading is null");
    cJSON_Delete(t);
}

TEST(unavailable_health_says_why)
{
    cJSON *t = cJSON_CreateObject();
    struct device_health u;
    device_health_unknown(&u, "loop device: no SMART (sysfs only)");
    result_target_health(t, &u, &u, NAN);
    const cJSON *h = cJSON_GetObjectItemCaseSensitive(t, "health");
    CHECK(cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(h, "available")), "not available");
    CHECK(!strcmp(result_str(h, "reason", ""), "loop device: no SMART (sysfs only)"), "reason");
    CHECK(!cJSON_GetObjectItemCaseSensitive(h, "before"), "no readings");
    cJSON_Delete(t);
}

TEST(reading_round_trip)
{
    struct device_health h, back;
    reading(&h, 37, 123456789, NAN, 3);
    h.power_on_hours = 5678;
    cJSON *o = result_health_reading(&h);
    result_health_from_json(o, &back);
    CHECK(back.available && !strcmp(back.source, "nvme"), "source");
    CHECK(back.temp_c == 37 && back.data_written_bytes == 123456789 && back.power_on_hours == 5678, "figures");
    CHECK(isnan(back.nand_written_bytes) && isnan(back.unsafe_shutdowns), "unknowns stay unknown");
    cJSON_Delete(o);
}

/* The rendered health table has the before, after and change columns. */
TEST(text_and_report_cells)
{
    cJSON *doc = cJSON_CreateObject();
    cJSON *ts = cJSON_AddArrayToObject(doc, "targets");
    cJSON *t = cJSON_CreateObject();
    cJSON_AddStringToObject(t, "id", "t0");
    cJSON *d = cJSON_AddObjectToObject(t, "device");
    cJSON_AddStringToObject(d, "name", "nvme0n1");
    cJSON_AddItemToArray(ts, t);
    struct device_health b, a;
    reading(&b, 40, 1e9, 3e9, 2);
    reading(&a, 44, 2e9, 5e9, 3);
    result_target_health(t, &b, &a, 46);
    char *txt = NULL;
    size_t tl = 0;
    FILE *f = open_memstream(&txt, &tl);
    CHECK(f, "memstream");
    render_device_health(f, doc);
    fclose(f);
    CHECK(strstr(txt, "health t0 (nvme0n1, from nvme)"), "%s", txt);
    CHECK(strstr(txt, "temperature (C)") && strstr(txt, "max 46"), "%s", txt);
    CHECK(strstr(txt, "1.00 GB") && strstr(txt, "2.00 GB"), "%s", txt);
    CHECK(strstr(txt, "write amplification (NAND / host writes over the run): 2.00"), "%s", txt);
    free(txt);
    char cell[1024];
    html_health_text(cell, sizeof(cell), doc);
    CHECK(strstr(cell, "nvme0n1: temperature 40 -> 44 C (max 46)"), "%s", cell);
    CHECK(strstr(cell, "1.000 GB written") && strstr(cell, "write amplification 2.00"), "%s", cell);
    cJSON_Delete(doc);
}
/* A zoned device's identity in the JSON and its line in `info`; a
 * conventional one has no zoned keys. */
static struct device_info *zoned_di(const char *model)
{
    struct device_info *di = calloc(1, sizeof(*di));
    snprintf(di->name, sizeof(di->name), "nvme0n2");
    snprintf(di->disk, sizeof(di->disk), "nvme0n2");
    snprintf(di->zoned, sizeof(di->zoned), "%s", model);
    di->bus = DEV_BUS_NVME;
    di->rotational = 0;
    di->nr_requests = di->max_sectors_kb = di->max_hw_sectors_kb = di->read_ahead_kb = -1;
    di->id.capacity_bytes = NAN;
    di->id.rotation_rpm = di->id.write_cache_supported = di->id.write_cache_enabled = di->id.trim = -1;
    di->zone_bytes = 8 << 20;
    di->nr_zones = 8;
    di->max_open_zones = 4;
    di->max_active_zones = 0;
    di->zone_cap_min_bytes = di->zone_cap_max_bytes = 6 << 20;
    return di;
}

TEST(zoned_identity_json_and_text)
{
    struct device_info *di = zoned_di("host-managed");
    cJSON *info = cJSON_CreateObject();
    cJSON_AddStringToObject(info, "path", "/dev/nvme0n2");
    cJSON *d = cJSON_AddObjectToObject(info, "device");
    result_device_identity(d, di);
    CHECK(!strcmp(result_str(d, "zoned", ""), "host-managed"), "zoned");
    CHECK(result_num(d, "zone_bytes", 0) == 8388608 && result_num(d, "zone_capacity_bytes", 0) == 6291456,
          "zone size, capacity");
    CHECK(!cJSON_GetObjectItemCaseSensitive(d, "zone_capacity_max_bytes"), "one capacity: no max key");
    CHECK(result_num(d, "nr_zones", 0) == 8 && result_num(d, "max_open_zones", 0) == 4 &&
          result_num(d, "max_active_zones", -1) == 0, "count and limits");
    char *txt = NULL;
    size_t tl = 0;
    FILE *f = open_memstream(&txt, &tl);
    CHECK(f, "memstream");
    render_device_info(f, info);
    fclose(f);
    CHECK(strstr(txt, "zoned:         host-managed, 8 zones of 8.39 MB (capacity 6.29 MB), max open "
                      "zones 4, max active zones no limit\n"), "%s", txt);
    free(txt);
    cJSON_Delete(info);
    /* zones of two capacities: both ends */
    di->zone_cap_min_bytes = 4 << 20;
    d = cJSON_CreateObject();
    result_device_identity(d, di);
    CHECK(result_num(d, "zone_capacity_bytes", 0) == 4194304 &&
          result_num(d, "zone_capacity_max_bytes", 0) == 6291456, "min and max capacity");
    cJSON_Delete(d);
    /* not zoned: no keys */
    snprintf(di->zoned, sizeof(di->zoned), "none");
    d = cJSON_CreateObject();
    result_device_identity(d, di);
    CHECK(!cJSON_GetObjectItemCaseSensitive(d, "zoned") && !cJSON_GetObjectItemCaseSensitive(d, "nr_zones"),
          "conventional device with zoned keys");
    cJSON_Delete(d);
    free(di);
}

CHECK_MAIN()
