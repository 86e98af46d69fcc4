/* test_device_ata.c - the ATA IDENTIFY DEVICE and SMART READ DATA parsers
 * and the ATA health figures (device/), on the fixtures built from ACS-3
 * by tests/fixtures/device/gen_fixtures.c. */
#include <math.h>
#include <string.h>

#include "check.h"
#include "device_fixture.h"
#include "device/device.h"
#include "device/device_parse.h"

TEST(identify_every_field)
{
    uint8_t b[ATA_SECTOR_BYTES];
    CHECK(fixture_load("ata_identify.bin", b, sizeof(b)) == ATA_SECTOR_BYTES, "fixture");
    struct ata_identity a;
    CHECK(ata_parse_identity(b, sizeof(b), &a) == 0, "parse");
    CHECK(!strcmp(a.serial, FX_ATA_SERIAL), "serial '%s'", a.serial);
    CHECK(!strcmp(a.firmware, FX_ATA_FW), "firmware '%s'", a.firmware);
    CHECK(!strcmp(a.model, FX_ATA_MODEL), "model '%s'", a.model);
    CHECK(a.lba48, "48-bit");
    CHECK(a.sectors == FX_ATA_SECTORS, "sectors %llu", (unsigned long long)a.sectors);
    CHECK(a.logical_bytes == 512, "logical %u", a.logical_bytes);
    CHECK(a.physical_bytes == 512u << FX_ATA_PHYS_SHIFT, "physical %u", a.physical_bytes);
    CHECK(a.rotation == FX_ATA_ROTATION, "rotation %u", a.rotation);
    CHECK(a.smart_supported == 1 && a.smart_enabled == 1, "smart");
    CHECK(a.write_cache_supported == 1 && a.write_cache_enabled == 1, "write cache");
    CHECK(a.trim == 1, "trim");
    CHECK(a.major_version == FX_ATA_MAJOR, "major %04x", a.major_version);
    CHECK(a.checksum_ok == 1, "checksum %d", a.checksum_ok);
}

TEST(identify_4kn_28bit)
{
    uint8_t b[ATA_SECTOR_BYTES];
    CHECK(fixture_load("ata_identify_4kn.bin", b, sizeof(b)) == ATA_SECTOR_BYTES, "fixture");
    struct ata_identity a;
    CHECK(ata_parse_identity(b, sizeof(b), &a) == 0, "parse");
    CHECK(!strcmp(a.model, "WDC WD40EFRX-68N32N0"), "model '%s'", a.model);
    CHECK(!strcmp(a.serial, "WD-WCC4E0000001"), "odd-length serial '%s'", a.serial);
    CHECK(!a.lba48 && a.sectors == 0x07654321u, "28-bit sectors %llx", (unsigned long long)a.sectors);
    CHECK(a.logical_bytes == 4096 && a.physical_bytes == 4096, "4Kn %u/%u", a.logical_bytes, a.physical_bytes);
    CHECK(a.rotation == 7200, "rpm %u", a.rotation);
    CHECK(a.write_cache_supported == 1 && a.write_cache_enabled == 0, "cache off");
    CHECK(a.trim == 0, "no trim");
    CHECK(a.checksum_ok == 1, "checksum");
}

TEST(identify_checksum_catches_a_flipped_byte)
{
    uint8_t b[ATA_SECTOR_BYTES];
    CHECK(fixture_load("ata_identify.bin", b, sizeof(b)) == ATA_SECTOR_BYTES, "fixture");
    b[100] ^= 1;
    struct ata_identity a;
    CHECK(ata_parse_identity(b, sizeof(b), &a) == 0 && a.checksum_ok == 0, "checksum %d", a.checksum_ok);
    b[510] = 0;
    CHECK(ata_parse_identity(b, sizeof(b), &a) == 0 && a.checksum_ok == -1, "no signature");
}

TEST(smart_every_attribute)
{
    uint8_t b[ATA_SECTOR_BYTES];
    CHECK(fixture_load("ata_smart.bin", b, sizeof(b)) == ATA_SECTOR_BYTES, "fixture");
    struct ata_smart s;
    CHECK(ata_parse_smart(b, sizeof(b), &s) == 0, "parse");
    CHECK(s.revision == FX_SMART_REV, "revision %u", s.revision);
    CHECK(s.checksum_ok == 1, "checksum");
    unsigned i = 0;
#define X(id_, flags_, value_, worst_, raw_)                                              \
    CHECK(i < s.n && s.attr[i].id == id_ && s.attr[i].flags == flags_ &&                  \
              s.attr[i].value == value_ && s.attr[i].worst == worst_ && s.attr[i].raw == (uint64_t)(raw_), \
          "attribute %u: id %u flags %04x value %u worst %u raw %llu", i, s.attr[i].id,   \
          s.attr[i].flags, s.attr[i].value, s.attr[i].worst, (unsigned long long)s.attr[i].raw); \
    i++;
    FX_ATTRS
#undef X
    CHECK(s.n == i, "%u attributes, want %u", s.n, i);
    CHECK(ata_smart_find(&s, 194) && !ata_smart_find(&s, 1), "find");
}

TEST(health_from_attributes)
{
    uint8_t b[ATA_SECTOR_BYTES];
    CHECK(fixture_load("ata_smart.bin", b, sizeof(b)) == ATA_SECTOR_BYTES, "fixture");
    struct ata_smart s;
    struct device_health h;
    CHECK(ata_parse_smart(b, sizeof(b), &s) == 0, "parse");
    device_health_ata(&s, FX_ATA_MODEL, &h);
    CHECK(h.available && !strcmp(h.source, "ata"), "source");
    CHECK(h.temp_c == 0x23, "temperature from 194 raw byte 0: %g", h.temp_c);
    CHECK(h.power_on_hours == 8766 && h.power_cycles == 321, "hours %g cycles %g", h.power_on_hours, h.power_cycles);
    CHECK(h.reallocated == 3 && h.media_errors == 2 && h.unsafe_shutdowns == 17, "counts");
    CHECK(h.percent_used == 100 - 97, "wear from 177: %g", h.percent_used);
    CHECK(h.data_written_bytes == 60129542144.0 * 512, "241 in sectors: %.0f", h.data_written_bytes);
    CHECK(h.data_read_bytes == 30064771072.0 * 512, "242 in sectors");
    CHECK(isnan(h.nand_written_bytes), "249 is Intel's only");
    device_health_ata(&s, "INTEL SSDSC2BB480G4", &h);
    CHECK(h.data_written_bytes == 60129542144.0 * 32 * 1048576, "Intel 241 in 32 MiB");
    CHECK(h.nand_written_bytes == 12345.0 * 1073741824, "Intel 249 in GiB: %.0f", h.nand_written_bytes);
}

TEST(health_temperature_falls_back_to_190)
{
    uint8_t b[ATA_SECTOR_BYTES];
    CHECK(fixture_load("ata_smart.bin", b, sizeof(b)) == ATA_SECTOR_BYTES, "fixture");
    struct ata_smart s;
    CHECK(ata_parse_smart(b, sizeof(b), &s) == 0, "parse");
    for (unsigned i = 0; i < s.n; i++)
        if (s.attr[i].id == 194)
            s.attr[i].id = 1;
    struct device_health h;
    device_health_ata(&s, "x", &h);
    CHECK(h.temp_c == 34, "190: %g", h.temp_c);
}
CHECK_MAIN()
