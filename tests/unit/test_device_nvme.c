/* test_device_nvme.c - the NVMe parsers (device/device_parse.h) on the
 * fixtures built from the specification by tests/fixtures/device/
 * gen_fixtures.c: every field equals the value written at its offset. */
#include <math.h>
#include <string.h>

#include "check.h"
#include "device_fixture.h"
#include "device/device.h"
#include "device/device_parse.h"

TEST(id_ctrl_every_field)
{
    uint8_t b[NVME_ID_BYTES];
    CHECK(fixture_load("nvme_id_ctrl.bin", b, sizeof(b)) == NVME_ID_BYTES, "fixture");
    struct nvme_id_ctrl c;
    CHECK(nvme_parse_id_ctrl(b, sizeof(b), &c) == 0, "parse");
    CHECK(c.vid == FX_NVME_VID, "vid %04x", c.vid);
    CHECK(c.ssvid == FX_NVME_SSVID, "ssvid %04x", c.ssvid);
    CHECK(!strcmp(c.serial, FX_NVME_SN), "serial '%s'", c.serial);
    CHECK(!strcmp(c.model, FX_NVME_MN), "model '%s'", c.model);
    CHECK(!strcmp(c.firmware, FX_NVME_FR), "firmware '%s'", c.firmware);
    CHECK(c.mdts == FX_NVME_MDTS, "mdts %u", c.mdts);
    CHECK(c.cntlid == FX_NVME_CNTLID, "cntlid %u", c.cntlid);
    CHECK(c.ver == FX_NVME_VER, "ver %08x", c.ver);
    CHECK(c.oacs == FX_NVME_OACS, "oacs %04x", c.oacs);
    CHECK(c.frmw == FX_NVME_FRMW, "frmw %02x", c.frmw);
    CHECK(c.wctemp_k == FX_NVME_WCTEMP, "wctemp %u", c.wctemp_k);
    CHECK(c.cctemp_k == FX_NVME_CCTEMP, "cctemp %u", c.cctemp_k);
    CHECK(c.tnvmcap == (double)FX_NVME_TNVMCAP_LO, "tnvmcap %.0f", c.tnvmcap);
    CHECK(c.sanicap == FX_NVME_SANICAP, "sanicap %08x", c.sanicap);
    CHECK(c.nn == FX_NVME_NN, "nn %u", c.nn);
    CHECK(c.oncs == FX_NVME_ONCS, "oncs %04x", c.oncs);
    CHECK(c.fna == FX_NVME_FNA, "fna %02x", c.fna);
    CHECK(c.vwc == FX_NVME_VWC, "vwc %02x", c.vwc);
    CHECK(!strcmp(c.subnqn, FX_NVME_SUBNQN), "subnqn '%s'", c.subnqn);
}

TEST(id_ctrl_short_buffer_refused)
{
    uint8_t b[NVME_ID_BYTES] = {0};
    struct nvme_id_ctrl c;
    CHECK(nvme_parse_id_ctrl(b, NVME_ID_BYTES - 1, &c) < 0, "short buffer accepted");
}

TEST(id_ns_every_field)
{
    uint8_t b[NVME_ID_BYTES];
    CHECK(fixture_load("nvme_id_ns.bin", b, sizeof(b)) == NVME_ID_BYTES, "fixture");
    struct nvme_id_ns ns;
    CHECK(nvme_parse_id_ns(b, sizeof(b), &ns) == 0, "parse");
    CHECK(ns.nsze == FX_NS_NSZE, "nsze %llu", (unsigned long long)ns.nsze);
    CHECK(ns.ncap == FX_NS_NCAP, "ncap %llu", (unsigned long long)ns.ncap);
    CHECK(ns.nuse == FX_NS_NUSE, "nuse %llu", (unsigned long long)ns.nuse);
    CHECK(ns.nsfeat == FX_NS_NSFEAT, "nsfeat");
    CHECK(ns.nlbaf == FX_NS_NLBAF_RAW + 1, "nlbaf %u", ns.nlbaf);
    CHECK(ns.flbas_index == (FX_NS_FLBAS & 0xf), "flbas index %u", ns.flbas_index);
    CHECK(ns.meta_extended == !!(FX_NS_FLBAS & 0x10), "metadata extended");
    CHECK(ns.dps == FX_NS_DPS && ns.nmic == FX_NS_NMIC, "dps/nmic");
    static const uint8_t eui[8] = FX_NS_EUI64;
    CHECK(!memcmp(ns.eui64, eui, 8), "eui64");
    CHECK(ns.lbaf[0].ms == FX_NS_LBAF0_MS && ns.lbaf[0].lbads == FX_NS_LBAF0_LBADS &&
              ns.lbaf[0].rp == FX_NS_LBAF0_RP, "lbaf0 %u %u %u", ns.lbaf[0].ms, ns.lbaf[0].lbads, ns.lbaf[0].rp);
    CHECK(ns.lbaf[1].ms == FX_NS_LBAF1_MS && ns.lbaf[1].lbads == FX_NS_LBAF1_LBADS &&
              ns.lbaf[1].rp == FX_NS_LBAF1_RP, "lbaf1 %u %u %u", ns.lbaf[1].ms, ns.lbaf[1].lbads, ns.lbaf[1].rp);
    CHECK(ns.lbaf[2].lbads == 0, "format 2 does not exist");
}

TEST(id_ns_upper_format_index_bits)
{
    /* NVMe 2.0: FLBAS bits 6:5 are bits 5:4 of the index when more than 16 formats */
    uint8_t b[NVME_ID_BYTES] = {0};
    b[25] = 63;           /* 64 formats */
    b[26] = 0x40 | 0x03;  /* index 0x23 */
    struct nvme_id_ns ns;
    CHECK(nvme_parse_id_ns(b, sizeof(b), &ns) == 0, "parse");
    CHECK(ns.flbas_index == 0x23, "index %u", ns.flbas_index);
    b[25] = 3;            /* 4 formats: the upper bits are reserved */
    CHECK(nvme_parse_id_ns(b, sizeof(b), &ns) == 0, "parse");
    CHECK(ns.flbas_index == 3, "index %u", ns.flbas_index);
}

TEST(smart_log_every_field)
{
    uint8_t b[NVME_SMART_BYTES];
    CHECK(fixture_load("nvme_smart.bin", b, sizeof(b)) == NVME_SMART_BYTES, "fixture");
    struct nvme_smart s;
    CHECK(nvme_parse_smart(b, sizeof(b), &s) == 0, "parse");
    CHECK(s.critical_warning == FX_SM_CRIT, "critical warning");
    CHECK(s.temp_k == FX_SM_TEMP_K, "temp %u", s.temp_k);
    CHECK(s.avail_spare == FX_SM_SPARE && s.spare_thresh == FX_SM_SPARE_TH, "spare");
    CHECK(s.percent_used == FX_SM_PCT_USED, "percent used %u", s.percent_used);
    CHECK(s.endurance_warning == FX_SM_ENDUR, "endurance");
    CHECK(s.data_units_read == (double)FX_SM_DUR, "dur %.0f", s.data_units_read);
    CHECK(s.data_units_written == (double)FX_SM_DUW, "duw %.0f", s.data_units_written);
    CHECK(s.host_reads == (double)FX_SM_HR, "host reads %.0f", s.host_reads);
    CHECK(s.host_writes == (double)FX_SM_HW, "host writes %.0f", s.host_writes);
    CHECK(s.ctrl_busy_min == (double)FX_SM_BUSY, "busy");
    CHECK(s.power_cycles == (double)FX_SM_PCYC, "power cycles");
    CHECK(s.power_on_hours == (double)FX_SM_POH, "poh");
    CHECK(s.unsafe_shutdowns == (double)FX_SM_UNSAFE, "unsafe");
    CHECK(s.media_errors == (double)FX_SM_MEDIA, "media errors");
    CHECK(s.error_log_entries == (double)FX_SM_ERRLOG, "error log entries");
    CHECK(s.warn_temp_min == FX_SM_WARN_T && s.crit_temp_min == FX_SM_CRIT_T, "temp times");
    CHECK(s.temp_sensor_k[0] == FX_SM_SENSOR1 && s.temp_sensor_k[1] == FX_SM_SENSOR2 &&
              s.temp_sensor_k[2] == 0, "sensors %u %u", s.temp_sensor_k[0], s.temp_sensor_k[1]);
}

TEST(le128_high_half)
{
    uint8_t b[16] = {0};
    b[0] = 5;
    b[8] = 1; /* 2^64 + 5 */
    CHECK(dev_le128(b) == 18446744073709551616.0 + 5, "%.0f", dev_le128(b));
}

TEST(health_from_smart_log)
{
    uint8_t b[NVME_SMART_BYTES];
    CHECK(fixture_load("nvme_smart.bin", b, sizeof(b)) == NVME_SMART_BYTES, "fixture");
    struct nvme_smart s;
    struct device_health h;
    CHECK(nvme_parse_smart(b, sizeof(b), &s) == 0, "parse");
    device_health_nvme(&s, &h);
    CHECK(h.available && !strcmp(h.source, "nvme"), "source");
    CHECK(h.temp_c == FX_SM_TEMP_K - 273, "temp %g", h.temp_c);
    CHECK(h.percent_used == FX_SM_PCT_USED, "used");
    CHECK(h.data_written_bytes == (double)FX_SM_DUW * 512000, "written %.0f", h.data_written_bytes);
    CHECK(h.data_read_bytes == (double)FX_SM_DUR * 512000, "read %.0f", h.data_read_bytes);
    CHECK(h.host_write_cmds == (double)FX_SM_HW && h.host_read_cmds == (double)FX_SM_HR, "cmds");
    CHECK(h.media_errors == FX_SM_MEDIA && h.unsafe_shutdowns == FX_SM_UNSAFE, "errors");
    CHECK(h.power_on_hours == FX_SM_POH && h.power_cycles == FX_SM_PCYC, "hours");
    CHECK(h.critical_warning == FX_SM_CRIT, "warning");
    CHECK(isnan(h.nand_written_bytes) && isnan(h.reallocated), "not in the log: unknown");
}
CHECK_MAIN()
