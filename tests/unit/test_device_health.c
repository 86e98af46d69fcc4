/* test_device_health.c - what a run changed (device_health_delta), the
 * smartctl --json source, and device_probe on this machine's sysfs. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "device_fixture.h"
#include "device/device.h"

static char fbuf[65536];

static size_t text(const char *name)
{
    size_t n = fixture_load(name, (uint8_t *)fbuf, sizeof(fbuf) - 1);
    fbuf[n] = 0;
    return n;
}

TEST(delta_and_write_amplification)
{
    struct device_health b, a;
    device_health_unknown(&b, NULL);
    device_health_unknown(&a, NULL);
    b.data_written_bytes = 1000;
    a.data_written_bytes = 5000;
    b.nand_written_bytes = 2000;
    a.nand_written_bytes = 12000;
    b.temp_c = 40;
    a.temp_c = 45;
    b.percent_used = 3;
    a.percent_used = 4;
    struct device_health_delta d;
    device_health_delta(&b, &a, 51, &d);
    CHECK(d.data_written_bytes == 4000, "written %g", d.data_written_bytes);
    CHECK(d.nand_written_bytes == 10000, "nand %g", d.nand_written_bytes);
    CHECK(d.write_amplification == 2.5, "wa %g", d.write_amplification);
    CHECK(d.temp_max_c == 51, "temp max %g", d.temp_max_c);
    CHECK(d.percent_used == 1, "wear %g", d.percent_used);
    CHECK(isnan(d.media_errors), "unknown stays unknown");
    device_health_delta(&b, &a, NAN, &d);
    CHECK(d.temp_max_c == 45, "temp max without samples %g", d.temp_max_c);
    a.nand_written_bytes = NAN;
    device_health_delta(&b, &a, NAN, &d);
    CHECK(isnan(d.write_amplification), "no NAND counter: no write amplification");
    a.nand_written_bytes = 12000;
    a.data_written_bytes = 1000;
    device_health_delta(&b, &a, NAN, &d);
    CHECK(isnan(d.write_amplification), "no host writes: no write amplification");
}

TEST(smartctl_ata)
{
    size_t n = text("smartctl_ata.json");
    CHECK(n > 0, "fixture");
    struct device_identity id;
    struct device_health h;
    CHECK(device_smartctl_parse(fbuf, n, &id, &h) == 0, "parse");
    CHECK(!strcmp(id.model, "Samsung SSD 860 EVO 500GB") && !strcmp(id.serial, "S3Z9NB0K654321") &&
              !strcmp(id.firmware, "RVT02B6Q"), "identity");
    CHECK(id.capacity_bytes == 500107862016.0, "capacity");
    CHECK(id.logical_block == 512 && id.physical_block == 4096, "blocks");
    CHECK(id.rotation_rpm == 0 && id.trim == 1, "ssd, trim");
    CHECK(id.has_attrs && id.attrs.n == 5, "attributes %u", id.attrs.n);
    CHECK(h.available && !strcmp(h.source, "smartctl"), "source");
    CHECK(h.temp_c == 35 && h.power_on_hours == 8766 && h.power_cycles == 321, "temp/hours/cycles");
    CHECK(h.reallocated == 3 && h.percent_used == 3, "reallocated, wear");
    CHECK(h.data_written_bytes == 60129542144.0 * 512, "written");
}

TEST(smartctl_nvme)
{
    size_t n = text("smartctl_nvme.json");
    CHECK(n > 0, "fixture");
    struct device_identity id;
    struct device_health h;
    CHECK(device_smartctl_parse(fbuf, n, &id, &h) == 0, "parse");
    CHECK(!strcmp(id.model, FX_NVME_MN), "model");
    CHECK(h.temp_c == FX_SM_TEMP_K - 273 && h.percent_used == FX_SM_PCT_USED, "temp, used");
    CHECK(h.data_written_bytes == (double)FX_SM_DUW * 512000, "written");
    CHECK(h.media_errors == FX_SM_MEDIA && h.unsafe_shutdowns == FX_SM_UNSAFE, "errors");
    CHECK(h.critical_warning == FX_SM_CRIT, "warning");
}

TEST(smartctl_scsi_without_smart_has_no_temperature)
{
    /* QEMU's SCSI disk, as smartctl 7.3 reports it: "SMART support is:
     * Unavailable" and a placeholder "Current Drive Temperature: 0 C" */
    size_t n = text("smartctl_scsi_nosmart.json");
    CHECK(n > 0, "fixture");
    struct device_identity id;
    struct device_health h;
    CHECK(device_smartctl_parse(fbuf, n, &id, &h) == 0, "parse");
    CHECK(!strcmp(id.model, "QEMU HARDDISK") && !strcmp(id.serial, "LABSCSI0001"), "identity");
    CHECK(h.available && isnan(h.temp_c), "placeholder 0 taken as a temperature: %g", h.temp_c);
    /* the same document with SMART available: 0 C is a reading */
    char *at = strstr(fbuf, "\"available\": false");
    CHECK(at != NULL, "fixture has smart_support.available false");
    memcpy(at, "\"available\":  true", 18);
    CHECK(device_smartctl_parse(fbuf, n, &id, &h) == 0 && h.temp_c == 0, "0 C with SMART: %g", h.temp_c);
}

TEST(smartctl_failure_and_garbage_refused)
{
    size_t n = text("smartctl_failed.json");
    CHECK(n > 0, "fixture");
    struct device_identity id;
    struct device_health h;
    CHECK(device_smartctl_parse(fbuf, n, &id, &h) == -ENODEV, "failed smartctl run accepted");
    CHECK(device_smartctl_parse("{\"a\":1}", 7, &id, &h) == -EINVAL, "not smartctl");
    CHECK(device_smartctl_parse("{\"smartc", 9, &id, &h) == -EINVAL, "torn");
}

TEST(probe_file_on_this_machine)
{
    /* the repository's own Makefile: a file, so its file system's device */
    struct device_info *di = calloc(1, sizeof(*di));
    CHECK(di, "oom");
    char err[256];
    struct device_probe_opts o = {.health = true};
    int rc = device_probe("Makefile", &o, di, err, sizeof(err));
    CHECK(rc == 0, "%s", err);
    CHECK(di->via[0], "a file says which device it is on");
    if (di->bus == DEV_BUS_NONE || di->bus == DEV_BUS_VIRTUAL)
        CHECK(!di->health.available && di->health.reason[0], "no SMART: reason given");
    free(di);
    di = calloc(1, sizeof(*di));
    CHECK(di, "oom");
    CHECK(device_probe("/nonexistent/x", &o, di, err, sizeof(err)) == -ENOENT, "missing path");
    CHECK(strstr(err, "/nonexistent/x"), "message names the path: %s", err);
    free(di);
}
CHECK_MAIN()
