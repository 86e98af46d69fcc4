/* test_device_purge_cmd.c - the purge and write-cache command bytes
 * (device/device_purge_cmd.h) bit by bit against the specifications (NVMe
 * 1.4 / 2.0 Sanitize, Format NVM, Get Log Page, Set Features; ATA ACS-3
 * SECURITY and SANITIZE commands and the 512-byte password data; SAT-3 ATA
 * PASS-THROUGH (16); SBC SANITIZE / FORMAT UNIT; SPC MODE SENSE / SELECT),
 * and the choice of method for each identify fixture of
 * tests/fixtures/device/. */
#include <errno.h>
#include <string.h>

#include "check.h"
#include "device_fixture.h"
#include "device/device_purge_cmd.h"

TEST(nvme_sanitize_cdw10_fields)
{
    /* SANACT bits 2:0, AUSE bit 3, OWPASS bits 7:4, OIPBP bit 8, NDAS bit 9 */
    CHECK(nvme_sanitize_cdw10(2, false, 0, false, false) == 0x002, "block erase");
    CHECK(nvme_sanitize_cdw10(4, false, 0, false, false) == 0x004, "crypto erase");
    CHECK(nvme_sanitize_cdw10(1, true, 0, false, false) == 0x009, "exit failure + AUSE");
    CHECK(nvme_sanitize_cdw10(3, false, 15, true, false) == 0x1f3, "overwrite 15 passes, OIPBP");
    CHECK(nvme_sanitize_cdw10(2, false, 0, false, true) == 0x202, "NDAS");
    struct nvme_cmd_bytes c;
    nvme_sanitize_cmd(NVME_SANACT_BLOCK_ERASE, &c);
    CHECK(c.opcode == 0x84, "opcode %02x", c.opcode);
    CHECK(c.nsid == 0 && c.cdw10 == 0x002 && c.cdw11 == 0 && c.data_len == 0, "block erase command");
    nvme_sanitize_cmd(NVME_SANACT_CRYPTO_ERASE, &c);
    CHECK(c.cdw10 == 0x004, "crypto cdw10 %08x", c.cdw10);
}

TEST(nvme_format_cdw10_fields)
{
    /* LBAF 3:0, MSET 4, PI 7:5, PIL 8, SES 11:9, LBAFU 13:12 */
    CHECK(nvme_format_cdw10(0, false, 0, false, 1) == 0x200, "SES 1, format 0");
    CHECK(nvme_format_cdw10(1, true, 0, false, 1) == 0x211, "format 1, MSET");
    CHECK(nvme_format_cdw10(0, false, 1, true, 2) == 0x520, "PI 1, PIL, SES 2");
    CHECK(nvme_format_cdw10(0x13, false, 0, false, 1) == 0x1203, "format 19: LBAFU 1, LBAFL 3");
    uint8_t b[NVME_ID_BYTES];
    CHECK(fixture_load("nvme_id_ns.bin", b, sizeof(b)) == NVME_ID_BYTES, "fixture");
    struct nvme_id_ns ns;
    CHECK(nvme_parse_id_ns(b, sizeof(b), &ns) == 0, "parse");
    struct nvme_cmd_bytes c;
    nvme_format_cmd(&ns, 1, 1, &c);
    /* the fixture's FLBAS 0x11: format 1, metadata extended; DPS 0 */
    CHECK(c.opcode == 0x80 && c.nsid == 1, "opcode %02x nsid %u", c.opcode, c.nsid);
    CHECK(c.cdw10 == 0x211, "cdw10 %08x keeps format 1 and MSET", c.cdw10);
}

TEST(nvme_log_identify_features)
{
    struct nvme_cmd_bytes c;
    nvme_get_log_cmd(0x81, 512, &c);
    CHECK(c.opcode == 0x02 && c.nsid == 0xffffffffu, "get log");
    CHECK(c.cdw10 == (127u << 16 | 0x81), "cdw10 %08x: NUMDL 127, LID 81h", c.cdw10);
    CHECK(c.data_len == 512, "len");
    nvme_ns_list_cmd(0, &c);
    CHECK(c.opcode == 0x06 && c.cdw10 == 0x02 && c.nsid == 0 && c.data_len == 4096, "CNS 02h");
    nvme_set_vwc_cmd(true, &c);
    CHECK(c.opcode == 0x09 && c.cdw10 == 0x06 && c.cdw11 == 1, "set VWC on");
    nvme_set_vwc_cmd(false, &c);
    CHECK(c.cdw11 == 0 && !(c.cdw10 & 0x80000000u), "set VWC off, not saved");
    nvme_get_vwc_cmd(&c);
    CHECK(c.opcode == 0x0a && c.cdw10 == 0x06, "get VWC current");
}

TEST(nvme_sanitize_log_parse)
{
    uint8_t b[512] = {0};
    b[0] = 0x00; b[1] = 0x80;           /* SPROG 0x8000: half */
    b[2] = 0x02; b[3] = 0x01;           /* SSTAT: in progress, global data erased */
    b[4] = 0x02;                        /* SCDW10 */
    b[12] = 0x2c; b[13] = 0x01;         /* block erase estimate 300 s */
    b[16] = 0xff; b[17] = 0xff; b[18] = 0xff; b[19] = 0xff;
    struct nvme_sanitize_log l;
    CHECK(nvme_parse_sanitize_log(b, sizeof(b), &l) == 0, "parse");
    CHECK(l.sprog == 0x8000 && l.state == NVME_SAN_RUNNING && l.global_erased, "sprog/sstat");
    CHECK(l.scdw10 == 2 && l.et_block == 300 && l.et_crypto == 0xffffffffu, "scdw10 / times");
    CHECK(nvme_parse_sanitize_log(b, 19, &l) == -EINVAL, "short");
    uint8_t lst[16] = {1, 0, 0, 0, 2, 0, 0, 0, 7, 0, 0, 0, 0, 0, 0, 0};
    uint32_t ids[8];
    CHECK(nvme_parse_ns_list(lst, sizeof(lst), ids, 8) == 3 && ids[2] == 7, "ns list");
}

TEST(sat_ata16_layout)
{
    struct ata_regs r;
    uint8_t cdb[16];
    ata_sec_set_password_regs(&r);
    sat_ata16(&r, SAT_PROTO_PIO_OUT, false, cdb);
    static const uint8_t setpw[16] = {0x85, 5 << 1, 0x06, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0xf1, 0};
    CHECK(!memcmp(cdb, setpw, 16), "SECURITY SET PASSWORD cdb");
    ata_sec_erase_prepare_regs(&r);
    sat_ata16(&r, SAT_PROTO_NONDATA, false, cdb);
    static const uint8_t prep[16] = {0x85, 3 << 1, 0x00, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xf3, 0};
    CHECK(!memcmp(cdb, prep, 16), "SECURITY ERASE PREPARE cdb");
    ata_sec_erase_unit_regs(&r);
    sat_ata16(&r, SAT_PROTO_PIO_OUT, false, cdb);
    CHECK(cdb[14] == 0xf4 && cdb[6] == 1 && cdb[2] == 0x06, "SECURITY ERASE UNIT");
    ata_sec_disable_regs(&r);
    sat_ata16(&r, SAT_PROTO_PIO_OUT, false, cdb);
    CHECK(cdb[14] == 0xf6, "SECURITY DISABLE PASSWORD");
    ata_sanitize_regs(ATA_SANITIZE_BLOCK, &r);
    sat_ata16(&r, SAT_PROTO_NONDATA, false, cdb);
    /* extend; features 0012h; LBA 0000426B4572h: 31:24 42, 7:0 72, 15:8 45, 23:16 6B */
    static const uint8_t blk[16] = {0x85, 3 << 1 | 1, 0x00, 0x00, 0x12, 0, 0, 0x42, 0x72,
                                    0x00, 0x45, 0x00, 0x6b, 0x40, 0xb4, 0};
    CHECK(!memcmp(cdb, blk, 16), "SANITIZE BLOCK ERASE EXT cdb");
    ata_sanitize_regs(ATA_SANITIZE_CRYPTO, &r);
    sat_ata16(&r, SAT_PROTO_NONDATA, false, cdb);
    /* 43727970h: 31:24 43, 7:0 70, 15:8 79, 23:16 72 */
    CHECK(cdb[4] == 0x11 && cdb[7] == 0x43 && cdb[8] == 0x70 && cdb[10] == 0x79 && cdb[12] == 0x72,
          "CRYPTO SCRAMBLE EXT key");
    ata_sanitize_regs(ATA_SANITIZE_STATUS, &r);
    sat_ata16(&r, SAT_PROTO_NONDATA, true, cdb);
    CHECK(cdb[2] == 0x20 && cdb[4] == 0 && cdb[8] == 0 && cdb[14] == 0xb4, "STATUS EXT, ck_cond");
    ata_set_wc_regs(true, &r);
    sat_ata16(&r, SAT_PROTO_NONDATA, false, cdb);
    CHECK(cdb[14] == 0xef && cdb[4] == 0x02 && cdb[1] == 6, "SET FEATURES 02h");
    ata_set_wc_regs(false, &r);
    sat_ata16(&r, SAT_PROTO_NONDATA, false, cdb);
    CHECK(cdb[4] == 0x82, "SET FEATURES 82h");
    /* 48-bit LBA bytes 9 and 11 */
    struct ata_regs big = {.command = 0x25, .lba = 0x0000abcd12345678ull, .ext = true, .count = 0x0102};
    sat_ata16(&big, SAT_PROTO_PIO_IN, false, cdb);
    CHECK(cdb[1] == (4 << 1 | 1) && cdb[2] == 0x0e, "PIO in: t_dir, byt_blok, t_length 2");
    CHECK(cdb[5] == 0x01 && cdb[6] == 0x02 && cdb[9] == 0xcd && cdb[11] == 0xab && cdb[7] == 0x12,
          "count / LBA 47:24");
}

TEST(ata_security_password_block)
{
    uint8_t b[512];
    ata_security_block(b, false, false, false, "p4ss");
    CHECK(b[0] == 0 && b[1] == 0, "word 0: user, high");
    CHECK(!memcmp(b + 2, "p4ss", 4) && b[6] == 0, "password from byte 2, zero padded");
    unsigned nz = 0;
    for (int i = 34; i < 512; i++)
        nz += b[i] != 0;
    CHECK(nz == 0, "words 17-255 zero");
    ata_security_block(b, false, true, false, "x");
    CHECK(b[0] == 0x02 && b[1] == 0, "enhanced erase: word 0 bit 1");
    ata_security_block(b, true, false, true, "x");
    CHECK(b[0] == 0x01 && b[1] == 0x01, "master, maximum: bits 0 and 8");
    ata_security_block(b, false, false, false, "0123456789abcdef0123456789abcdefTOOLONG");
    CHECK(!memcmp(b + 2, "0123456789abcdef0123456789abcdef", 32) && b[34] == 0, "32 bytes at most");
}

TEST(sat_sense_registers)
{
    /* descriptor sense with the ATA Status Return descriptor */
    uint8_t s[32] = {0x72, 0x01, 0x00, 0x1d, 0, 0, 0, 14, 0x09, 0x0c, 0x01, 0x00,
                     0x80, 0x00, 0x00, 0x34, 0x00, 0x12, 0, 0, 0x40, 0x50};
    struct ata_regs r;
    uint8_t st = 0;
    CHECK(sat_sense_regs(s, sizeof(s), &r, &st) == 0, "descriptor found");
    CHECK(r.count == 0x8000 && st == 0x50 && r.device == 0x40, "count %04x status %02x", r.count, st);
    CHECK((r.lba & 0xffff) == 0x1234, "lba %llx", (unsigned long long)r.lba);
    struct ata_sanitize_status ss;
    ata_parse_sanitize_status(&r, &ss);
    CHECK(ss.done && !ss.running && ss.progress == 0x1234, "status done");
    s[12] = 0x40;
    sat_sense_regs(s, sizeof(s), &r, &st);
    ata_parse_sanitize_status(&r, &ss);
    CHECK(!ss.done && ss.running, "in progress");
    uint8_t none[18] = {0x72, 0x05, 0x24, 0x00};
    CHECK(sat_sense_regs(none, sizeof(none), &r, &st) == -EINVAL, "no descriptor");
}

TEST(scsi_cdbs)
{
    uint8_t c[12];
    scsi_sanitize_cdb(SCSI_SANITIZE_BLOCK, false, c);
    static const uint8_t san[10] = {0x48, 0x02, 0, 0, 0, 0, 0, 0, 0, 0};
    CHECK(!memcmp(c, san, 10), "SANITIZE block erase");
    scsi_sanitize_cdb(SCSI_SANITIZE_CRYPTO, true, c);
    CHECK(c[1] == 0x83, "crypto erase, IMMED");
    scsi_format_unit_cdb(c);
    CHECK(c[0] == 0x04 && c[1] == 0 && c[4] == 0 && c[5] == 0, "FORMAT UNIT plain");
    scsi_rsoc_cdb(0x48, 2, 64, c);
    static const uint8_t rs[12] = {0xa3, 0x0c, 0x02, 0x48, 0x00, 0x02, 0, 0, 0, 64, 0, 0};
    CHECK(!memcmp(c, rs, 12), "RSOC op + service action");
    scsi_rsoc_cdb(0x04, -1, 64, c);
    CHECK(c[2] == 1 && c[3] == 0x04 && c[4] == 0 && c[5] == 0, "RSOC op only");
    uint8_t ans[4] = {0, 0x03};
    CHECK(scsi_rsoc_supported(ans, 4), "support 011b");
    ans[1] = 0x01;
    CHECK(!scsi_rsoc_supported(ans, 4), "support 001b: not supported");
    scsi_mode_sense_caching_cdb(64, c);
    static const uint8_t ms[10] = {0x5a, 0x08, 0x08, 0, 0, 0, 0, 0, 64, 0};
    CHECK(!memcmp(c, ms, 10), "MODE SENSE(10) caching");
    scsi_mode_select_cdb(28, c);
    static const uint8_t sel[10] = {0x55, 0x10, 0, 0, 0, 0, 0, 0, 28, 0};
    CHECK(!memcmp(c, sel, 10), "MODE SELECT(10) PF");
    /* an answer: header (8), no block descriptors, page 08h (PS set), length 12h, WCE on */
    uint8_t m[64] = {0, 26, 0, 0, 0, 0, 0, 0, 0x88, 0x12, 0x04};
    CHECK(scsi_caching_page_offset(m, sizeof(m)) == 8, "page at 8");
    CHECK(scsi_caching_select(m, sizeof(m), false) == 28, "select length");
    CHECK(m[0] == 0 && m[1] == 0 && m[8] == 0x08 && m[10] == 0x00, "WCE cleared, PS cleared");
    CHECK(scsi_caching_select(m, sizeof(m), true) == 28 && m[10] == 0x04, "WCE set");
}

/* ---- the decision table on the fixtures --------------------------------------- */

static bool nvme_di(const char *ctrl, struct device_info *di)
{
    memset(di, 0, sizeof(*di));
    snprintf(di->name, sizeof(di->name), "nvme0n1");
    snprintf(di->disk, sizeof(di->disk), "nvme0n1");
    snprintf(di->dev_node, sizeof(di->dev_node), "/dev/nvme0n1");
    di->bus = DEV_BUS_NVME;
    di->discard_max_bytes = 2199023255040ull;
    static uint8_t b[NVME_ID_BYTES];
    if (fixture_load(ctrl, b, sizeof(b)) != NVME_ID_BYTES || nvme_parse_id_ctrl(b, sizeof(b), &di->id.ctrl) ||
        fixture_load("nvme_id_ns.bin", b, sizeof(b)) != NVME_ID_BYTES || nvme_parse_id_ns(b, sizeof(b), &di->id.ns))
        return false;
    di->id.nvme = true;
    di->id.nsid = 1;
    return true;
}

static bool ata_di(const char *ident, struct device_info *di)
{
    memset(di, 0, sizeof(*di));
    snprintf(di->name, sizeof(di->name), "sda");
    snprintf(di->disk, sizeof(di->disk), "sda");
    snprintf(di->dev_node, sizeof(di->dev_node), "/dev/sda");
    di->bus = DEV_BUS_ATA;
    di->discard_max_bytes = 2147450880u;
    uint8_t b[ATA_SECTOR_BYTES];
    if (fixture_load(ident, b, sizeof(b)) != ATA_SECTOR_BYTES || ata_parse_identity(b, sizeof(b), &di->id.ata_id))
        return false;
    di->id.ata = true;
    return true;
}

TEST(ata_purge_words_parsed)
{
    struct device_info di;
    CHECK(ata_di("ata_identify_sec.bin", &di), "fixture");
    const struct ata_identity *a = &di.id.ata_id;
    CHECK(a->security_supported == 1 && a->security_enabled == 0 && a->security_locked == 0 &&
              a->security_frozen == 0 && a->security_enhanced == 1,
          "security word 128");
    CHECK(a->erase_minutes == FX_PG_SEC_MINUTES && a->enhanced_erase_minutes == FX_PG_ENH_MINUTES,
          "erase times %u %u", a->erase_minutes, a->enhanced_erase_minutes);
    CHECK(a->sanitize_supported == 0, "no sanitize");
    CHECK(ata_di("ata_identify_frozen.bin", &di), "fixture");
    CHECK(a->security_frozen == 1 && a->sanitize_supported == 1 && a->sanitize_block == 1 &&
              a->sanitize_crypto == 1 && a->sanitize_overwrite == 0,
          "frozen + sanitize");
    CHECK(ata_di("ata_identify.bin", &di), "fixture");
    CHECK(a->security_supported == 0 && a->security_frozen == -1 && a->sanitize_supported == 0,
          "no security feature set");
}

TEST(decision_table_fixtures)
{
    static const struct {
        const char *fixture;
        int nvme;
        enum devpurge_method want;
        bool wide;
    } rows[] = {
        {"nvme_id_ctrl.bin", 1, DEVPURGE_NVME_SANITIZE_BLOCK, true},         /* SANICAP 3 */
        {"nvme_id_ctrl_crypto.bin", 1, DEVPURGE_NVME_SANITIZE_CRYPTO, true}, /* SANICAP 1 */
        {"nvme_id_ctrl_format.bin", 1, DEVPURGE_NVME_FORMAT_ERASE, false},   /* FNA 04h */
        {"nvme_id_ctrl_format_all.bin", 1, DEVPURGE_NVME_FORMAT_ERASE, true},/* FNA 03h */
        {"nvme_id_ctrl_none.bin", 1, DEVPURGE_DISCARD, false},               /* overwrite only, no format */
        {"ata_identify_sec.bin", 0, DEVPURGE_ATA_SECURITY_ERASE, false},
        {"ata_identify_frozen.bin", 0, DEVPURGE_ATA_SANITIZE_BLOCK, false},
        {"ata_identify.bin", 0, DEVPURGE_DISCARD, false},
    };
    for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
        struct device_info di;
        CHECK(rows[i].nvme ? nvme_di(rows[i].fixture, &di) : ata_di(rows[i].fixture, &di),
              "fixture %s", rows[i].fixture);
        struct devpurge_choice c;
        devpurge_choose(&di, NULL, &c);
        CHECK(c.method == rows[i].want, "%s: %s, want %s (%s)", rows[i].fixture,
              devpurge_method_name(c.method), devpurge_method_name(rows[i].want), c.why);
        CHECK(c.controller_wide == rows[i].wide, "%s: controller-wide %d", rows[i].fixture,
              c.controller_wide);
        CHECK(c.refuse == 0, "%s: not refused", rows[i].fixture);
    }
    struct device_info di;
    struct devpurge_choice c;
    CHECK(ata_di("ata_identify_frozen.bin", &di), "fixture");
    devpurge_choose(&di, NULL, &c);
    CHECK(strstr(c.why, "frozen") != NULL, "frozen named: %s", c.why);
    CHECK(ata_di("ata_identify_locked.bin", &di), "fixture");
    devpurge_choose(&di, NULL, &c);
    CHECK(c.refuse == -EPERM && strstr(c.why, "locked"), "locked refused: %s", c.why);
    /* a user password already set: security erase passed over */
    CHECK(ata_di("ata_identify_sec.bin", &di), "fixture");
    di.id.ata_id.security_enabled = 1;
    devpurge_choose(&di, NULL, &c);
    CHECK(c.method == DEVPURGE_DISCARD && strstr(c.why, "password"), "password set: %s", c.why);
    /* without discard: zero fill */
    CHECK(ata_di("ata_identify.bin", &di), "fixture");
    di.discard_max_bytes = 0;
    devpurge_choose(&di, NULL, &c);
    CHECK(c.method == DEVPURGE_ZERO_FILL, "zero fill");
    /* a partition of an NVMe disk: the block layer only */
    CHECK(nvme_di("nvme_id_ctrl.bin", &di), "fixture");
    snprintf(di.name, sizeof(di.name), "nvme0n1p1");
    devpurge_choose(&di, NULL, &c);
    CHECK(c.method == DEVPURGE_DISCARD && strstr(c.why, "not the whole disk"), "partition: %s", c.why);
    /* identify not read: no device command */
    CHECK(nvme_di("nvme_id_ctrl.bin", &di), "fixture");
    di.id.nvme = false;
    devpurge_choose(&di, NULL, &c);
    CHECK(c.method == DEVPURGE_DISCARD, "unidentified NVMe: discard");
    /* SCSI per REPORT SUPPORTED OPERATION CODES */
    memset(&di, 0, sizeof(di));
    snprintf(di.name, sizeof(di.name), "sdb");
    snprintf(di.disk, sizeof(di.disk), "sdb");
    di.bus = DEV_BUS_SCSI;
    struct scsi_purge_caps sc = {.sanitize_block = 0, .sanitize_crypto = 1, .format_unit = 1};
    devpurge_choose(&di, &sc, &c);
    CHECK(c.method == DEVPURGE_SCSI_SANITIZE_CRYPTO, "scsi crypto");
    sc.sanitize_crypto = 0;
    devpurge_choose(&di, &sc, &c);
    CHECK(c.method == DEVPURGE_SCSI_FORMAT_UNIT, "scsi format unit");
    devpurge_choose(&di, NULL, &c);
    CHECK(c.method == DEVPURGE_ZERO_FILL, "scsi without caps, no discard: zero fill");
}

TEST(virtual_devices_go_to_the_block_layer)
{
    static const char *const names[] = {"loop0", "zram1", "vda", "dm-0"};
    for (size_t i = 0; i < 4; i++) {
        struct device_info di;
        memset(&di, 0, sizeof(di));
        snprintf(di.name, sizeof(di.name), "%s", names[i]);
        snprintf(di.disk, sizeof(di.disk), "%s", names[i]);
        di.bus = DEV_BUS_VIRTUAL;
        di.discard_max_bytes = 4ull << 30;
        struct devpurge_choice c;
        devpurge_choose(&di, NULL, &c);
        CHECK(c.method == DEVPURGE_DISCARD && !devpurge_is_device(c.method), "%s: discard", names[i]);
        CHECK(strstr(c.why, "virtual") != NULL, "%s: reason %s", names[i], c.why);
    }
    CHECK(devpurge_is_device(DEVPURGE_NVME_FORMAT_ERASE) && devpurge_is_device(DEVPURGE_SCSI_FORMAT_UNIT) &&
              !devpurge_is_device(DEVPURGE_DISCARD) && !devpurge_is_device(DEVPURGE_NONE),
          "device methods");
}

CHECK_MAIN()
