/* device_purge_cmd.h - the bytes of the commands that purge a device or set
 * its write cache, and the choice of purge method, as pure functions: no
 * descriptor, no ioctl, so every bit is unit-tested against the
 * specifications (tests/unit/test_device_purge_cmd.c) and the choice against
 * the identify fixtures (tests/fixtures/device/).
 *
 * Sources: NVM Express Base Specification 1.4 / 2.0 (Sanitize, Format NVM,
 * Get Log Page with the Sanitize Status log 81h, Set / Get Features with
 * Volatile Write Cache 06h, Identify CNS 02h), ATA/ATAPI Command Set ACS-3
 * (SECURITY SET PASSWORD / ERASE PREPARE / ERASE UNIT / DISABLE PASSWORD
 * and their 512-byte data, SANITIZE DEVICE, SET FEATURES 02h / 82h),
 * SAT-3 (ATA PASS-THROUGH (16)), SBC-3/4 and SPC-4 (SANITIZE, FORMAT UNIT,
 * REPORT SUPPORTED OPERATION CODES, MODE SENSE / SELECT (10) with the
 * Caching mode page 08h).
 *
 * The order of preference (devpurge_choose) is what SNIA PTS asks for: the
 * device's own erase first (NVMe Sanitize block erase, then crypto erase,
 * then Format NVM with Secure Erase Setting 1; ATA SECURITY ERASE UNIT,
 * then ATA SANITIZE; SCSI SANITIZE, then FORMAT UNIT), and only when none
 * is available the block layer's discard, else a zero fill. Overwrite
 * sanitize is not used: it leaves every block written, not fresh.
 */
#ifndef SSDBENCH_DEVICE_PURGE_CMD_H
#define SSDBENCH_DEVICE_PURGE_CMD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "device/device.h"

/* ---- NVMe admin commands --------------------------------------------------- */

#define NVME_OP_GET_LOG 0x02
#define NVME_OP_IDENTIFY 0x06
#define NVME_OP_SET_FEATURES 0x09
#define NVME_OP_GET_FEATURES 0x0a
#define NVME_OP_FORMAT 0x80
#define NVME_OP_SANITIZE 0x84
#define NVME_FID_VWC 0x06
#define NVME_LID_SANITIZE 0x81

/* Sanitize Action (CDW10 bits 2:0) */
#define NVME_SANACT_EXIT_FAILURE 1
#define NVME_SANACT_BLOCK_ERASE 2
#define NVME_SANACT_OVERWRITE 3
#define NVME_SANACT_CRYPTO_ERASE 4

/* SANICAP bits (Identify Controller bytes 331:328) */
#define NVME_SANICAP_CES (1u << 0)
#define NVME_SANICAP_BES (1u << 1)
#define NVME_SANICAP_OWS (1u << 2)
/* FNA bits (byte 524) */
#define NVME_FNA_FORMAT_ALL (1u << 0)
#define NVME_FNA_ERASE_ALL (1u << 1)
#define NVME_FNA_CRYPTO (1u << 2)
/* OACS bit 1: Format NVM supported */
#define NVME_OACS_FORMAT (1u << 1)

/* One admin command as the pass-through ioctl takes it (the fields of
 * struct nvme_admin_cmd that matter here). */
struct nvme_cmd_bytes {
    uint8_t opcode;
    uint32_t nsid;
    uint32_t cdw10, cdw11;
    uint32_t data_len;          /* bytes to read into the buffer, 0 none */
    uint32_t timeout_ms;
};

/* Sanitize: CDW10 bits 2:0 SANACT, 3 AUSE (allow unrestricted sanitize
 * exit), 7:4 OWPASS, 8 OIPBP, 9 NDAS (no-deallocate after sanitize). */
uint32_t nvme_sanitize_cdw10(unsigned sanact, bool ause, unsigned owpass, bool oipbp, bool ndas);
void nvme_sanitize_cmd(unsigned sanact, struct nvme_cmd_bytes *c);
/* Format NVM: CDW10 bits 3:0 LBAF (low), 4 MSET, 7:5 PI, 8 PIL, 11:9 SES,
 * 13:12 LBAF (high, NVMe 2.0). */
uint32_t nvme_format_cdw10(unsigned lbaf, bool mset, unsigned pi, bool pil, unsigned ses);
/* Format of namespace nsid (0xffffffff: all) keeping its current format
 * (flbas index, metadata placement, protection type and location from ns),
 * with Secure Erase Setting ses (1 user data erase, 2 cryptographic). */
void nvme_format_cmd(const struct nvme_id_ns *ns, uint32_t nsid, unsigned ses,
                     struct nvme_cmd_bytes *c);
/* Get Log Page: CDW10 bits 7:0 LID, 31:16 NUMDL = dwords - 1 (of len bytes);
 * the controller's log (NSID FFFFFFFFh). */
void nvme_get_log_cmd(uint8_t lid, uint32_t len, struct nvme_cmd_bytes *c);
/* Identify CNS 02h: the active namespace ids above nsid (4096 bytes). */
void nvme_ns_list_cmd(uint32_t after_nsid, struct nvme_cmd_bytes *c);
/* Set Features FID 06h with CDW11 bit 0 = WCE; Get Features FID 06h, current. */
void nvme_set_vwc_cmd(bool enable, struct nvme_cmd_bytes *c);
void nvme_get_vwc_cmd(struct nvme_cmd_bytes *c);

/* The Sanitize Status log (81h): SPROG (bytes 1:0, progress in 1/65536),
 * SSTAT (bytes 3:2: bits 2:0 status, 7:3 overwrite passes, 8 global data
 * erased), SCDW10 (bytes 7:4), the estimated times (bytes 11:8 overwrite,
 * 15:12 block erase, 19:16 crypto erase; seconds, FFFFFFFFh unknown). */
enum nvme_sanitize_state {
    NVME_SAN_NEVER = 0, NVME_SAN_DONE = 1, NVME_SAN_RUNNING = 2, NVME_SAN_FAILED = 3,
    NVME_SAN_DONE_NDAS = 4,
};
struct nvme_sanitize_log {
    uint16_t sprog;
    uint16_t sstat;
    unsigned state;             /* sstat bits 2:0 */
    bool global_erased;         /* sstat bit 8 */
    uint32_t scdw10;
    uint32_t et_overwrite, et_block, et_crypto;
};
int nvme_parse_sanitize_log(const uint8_t *buf, size_t len, struct nvme_sanitize_log *l);
/* The active namespace list (Identify CNS 02h): up to max ids, 0-terminated
 * in the data; returns how many. */
unsigned nvme_parse_ns_list(const uint8_t *buf, size_t len, uint32_t *ids, unsigned max);

/* ---- ATA commands (through ATA PASS-THROUGH (16)) --------------------------- */

#define ATA_CMD_SET_FEATURES 0xef
#define ATA_CMD_SEC_SET_PASS 0xf1
#define ATA_CMD_SEC_ERASE_PREP 0xf3
#define ATA_CMD_SEC_ERASE_UNIT 0xf4
#define ATA_CMD_SEC_DISABLE 0xf6
#define ATA_CMD_SANITIZE 0xb4
#define ATA_SANITIZE_STATUS 0x0000
#define ATA_SANITIZE_CRYPTO 0x0011
#define ATA_SANITIZE_BLOCK 0x0012
#define ATA_SANITIZE_KEY_CRYPTO 0x43727970ull  /* "Cryp" */
#define ATA_SANITIZE_KEY_BLOCK 0x426b4572ull   /* "BkEr" */
#define ATA_FEAT_WC_ON 0x02
#define ATA_FEAT_WC_OFF 0x82

/* SAT protocols (CDB byte 1 bits 4:1) */
#define SAT_PROTO_NONDATA 3
#define SAT_PROTO_PIO_IN 4
#define SAT_PROTO_PIO_OUT 5

/* An ATA command's registers. */
struct ata_regs {
    uint8_t command, device;
    uint16_t features, count;
    uint64_t lba;               /* 48 bits */
    bool ext;                   /* 48-bit command: the EXTEND bit */
};

/* ATA PASS-THROUGH (16): byte 0 85h; byte 1 protocol << 1 | extend; byte 2
 * ck_cond << 5 | t_dir << 3 | byte_block << 2 | t_length (2: the count
 * field holds the length, in 512-byte blocks); bytes 3-14 the registers
 * (features 15:8, 7:0; count 15:8, 7:0; LBA 31:24, 7:0, 39:32, 15:8,
 * 47:40, 23:16; device; command); byte 15 control 0. Non-data commands
 * carry t_length 0. ck_cond asks for the registers back in the sense data. */
void sat_ata16(const struct ata_regs *r, unsigned protocol, bool ck_cond, uint8_t cdb[16]);

/* The 512-byte data of SECURITY SET PASSWORD / ERASE UNIT / DISABLE
 * PASSWORD: word 0 bit 0 identifier (0 user, 1 master), bit 1 enhanced
 * erase (ERASE UNIT only), bit 8 master password capability (SET PASSWORD
 * with the user password: 0 high, 1 maximum); words 1-16 the 32-byte
 * password (bytes 2-33, first character first, zero padded, as hdparm
 * sends it); the rest zero. */
void ata_security_block(uint8_t out[512], bool master, bool enhanced, bool maximum,
                        const char *password);
void ata_sec_set_password_regs(struct ata_regs *r);
void ata_sec_erase_prepare_regs(struct ata_regs *r);
void ata_sec_erase_unit_regs(struct ata_regs *r);
void ata_sec_disable_regs(struct ata_regs *r);
/* SANITIZE DEVICE B4h, 48-bit: feature 0012h BLOCK ERASE EXT with the key
 * 426B4572h in LBA, 0011h CRYPTO SCRAMBLE EXT with 43727970h, 0000h
 * SANITIZE STATUS EXT; count bit 4 FAILURE MODE stays 0 (a failed sanitize
 * must be retried, not exited); device bit 6 set. */
void ata_sanitize_regs(uint16_t feature, struct ata_regs *r);
/* SET FEATURES EFh 02h (enable volatile write cache) / 82h (disable). */
void ata_set_wc_regs(bool enable, struct ata_regs *r);

/* The ATA registers returned in descriptor sense data (features holds the
 * ERROR register there) (the ATA Status
 * Return descriptor, code 09h) or fixed sense data; 0 or -EINVAL when the
 * sense carries none. */
int sat_sense_regs(const uint8_t *sense, size_t len, struct ata_regs *r, uint8_t *status);
/* SANITIZE STATUS EXT output: count bit 15 completed without error, 14 in
 * progress; LBA 15:0 progress (1/65536). */
struct ata_sanitize_status {
    bool done, running;
    uint16_t progress;
};
void ata_parse_sanitize_status(const struct ata_regs *r, struct ata_sanitize_status *s);

/* ---- SCSI commands ------------------------------------------------------------ */

#define SCSI_SANITIZE_BLOCK 0x02
#define SCSI_SANITIZE_CRYPTO 0x03

/* SANITIZE (48h): byte 1 bit 7 IMMED, bit 5 AUSE, bits 4:0 service action;
 * bytes 7-8 parameter list length (0: block and crypto erase take none). */
void scsi_sanitize_cdb(unsigned service_action, bool immed, uint8_t cdb[10]);
/* FORMAT UNIT (04h) with no parameter list: the device's default format. */
void scsi_format_unit_cdb(uint8_t cdb[6]);
/* REPORT SUPPORTED OPERATION CODES (A3h / 0Ch), one command: reporting
 * options 2 (op code and service action) or 1 (op code only when sa < 0),
 * allocation length alloc. */
void scsi_rsoc_cdb(uint8_t opcode, int service_action, uint32_t alloc, uint8_t cdb[12]);
/* The SUPPORT field (byte 1 bits 2:0) of a one-command answer: true for
 * 011b (supported as the standard says) and 101b (vendor-specific). */
bool scsi_rsoc_supported(const uint8_t *buf, size_t len);
/* MODE SENSE (10) of the Caching page 08h, current values, no block
 * descriptors; MODE SELECT (10) with PF = 1, SP = 0 (not saved). */
void scsi_mode_sense_caching_cdb(uint16_t alloc, uint8_t cdb[10]);
void scsi_mode_select_cdb(uint16_t len, uint8_t cdb[10]);
/* In a MODE SENSE (10) answer: the offset of the Caching page (after the
 * 8-byte header and the block descriptors), -1 when absent; its WCE bit
 * (page byte 2 bit 2). scsi_caching_select turns the answer into MODE
 * SELECT data with WCE set or cleared: the header's mode data length
 * zeroed, the page's PS bit cleared; returns its length or -1. */
int scsi_caching_page_offset(const uint8_t *buf, size_t len);
int scsi_caching_select(uint8_t *buf, size_t len, bool wce);

/* ---- the choice --------------------------------------------------------------- */

enum devpurge_method {
    DEVPURGE_NONE,
    DEVPURGE_NVME_SANITIZE_BLOCK,
    DEVPURGE_NVME_SANITIZE_CRYPTO,
    DEVPURGE_NVME_FORMAT_ERASE,     /* Format NVM, SES 1 (user data erase) */
    DEVPURGE_ATA_SECURITY_ERASE,
    DEVPURGE_ATA_SANITIZE_BLOCK,
    DEVPURGE_ATA_SANITIZE_CRYPTO,
    DEVPURGE_SCSI_SANITIZE_BLOCK,
    DEVPURGE_SCSI_SANITIZE_CRYPTO,
    DEVPURGE_SCSI_FORMAT_UNIT,
    DEVPURGE_DISCARD,               /* the block layer from here on */
    DEVPURGE_ZERO_FILL,
};

/* "nvme-sanitize-block-erase", ..., "discard", "zero-fill". */
const char *devpurge_method_name(enum devpurge_method m);
/* True for the device's own erase commands (a purge as PTS means it). */
bool devpurge_is_device(enum devpurge_method m);

/* What the SCSI device answered to REPORT SUPPORTED OPERATION CODES (the
 * only SCSI capabilities the choice needs); -1 not asked. */
struct scsi_purge_caps {
    int sanitize_block, sanitize_crypto, format_unit;
};

struct devpurge_choice {
    enum devpurge_method method;
    bool controller_wide;           /* erases every namespace of the controller */
    int refuse;                     /* 0, or -EPERM: no purge at all (a locked drive) */
    char why[512];                  /* why the stronger methods were passed over; or the refusal */
};

/* The method for the probed device di (device_probe with identity): a
 * partition, a virtual device (loop, zram, dm, ...) or a file goes to the
 * block layer (discard when the queue's discard_max_bytes > 0, else zero
 * fill); NVMe per SANICAP, OACS and FNA; ATA per IDENTIFY words 59, 82,
 * 128 (refused with -EPERM when the security feature set is locked;
 * passed over when frozen or a user password is already set); SCSI per
 * scsi (may be NULL: no SCSI device command). */
void devpurge_choose(const struct device_info *di, const struct scsi_purge_caps *scsi,
                     struct devpurge_choice *c);

#endif
