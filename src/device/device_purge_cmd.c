/* device_purge_cmd.c - see device_purge_cmd.h. Nothing here opens or sends
 * anything. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "device/device_purge_cmd.h"

/* ---- NVMe ------------------------------------------------------------------- */

uint32_t nvme_sanitize_cdw10(unsigned sanact, bool ause, unsigned owpass, bool oipbp, bool ndas)
{
    return (sanact & 7u) | (ause ? 1u << 3 : 0) | (owpass & 0xfu) << 4 | (oipbp ? 1u << 8 : 0) |
           (ndas ? 1u << 9 : 0);
}

void nvme_sanitize_cmd(unsigned sanact, struct nvme_cmd_bytes *c)
{
    memset(c, 0, sizeof(*c));
    c->opcode = NVME_OP_SANITIZE;
    c->nsid = 0;                    /* sanitize applies to the whole NVM subsystem's controller */
    /* AUSE 0: a failed sanitize can only be left by another sanitize */
    c->cdw10 = nvme_sanitize_cdw10(sanact, false, 0, false, false);
    c->timeout_ms = 60000;          /* the command returns at once; the log says when it ends */
}

uint32_t nvme_format_cdw10(unsigned lbaf, bool mset, unsigned pi, bool pil, unsigned ses)
{
    return (lbaf & 0xfu) | (mset ? 1u << 4 : 0) | (pi & 7u) << 5 | (pil ? 1u << 8 : 0) |
           (ses & 7u) << 9 | ((lbaf >> 4) & 3u) << 12;
}

void nvme_format_cmd(const struct nvme_id_ns *ns, uint32_t nsid, unsigned ses,
                     struct nvme_cmd_bytes *c)
{
    memset(c, 0, sizeof(*c));
    c->opcode = NVME_OP_FORMAT;
    c->nsid = nsid;
    /* DPS bits 2:0 protection type, bit 3 protection information first */
    c->cdw10 = nvme_format_cdw10(ns->flbas_index, ns->meta_extended, ns->dps & 7u,
                                 (ns->dps >> 3) & 1u, ses);
    c->timeout_ms = 4u * 3600u * 1000u; /* a format runs inside the command */
}

void nvme_get_log_cmd(uint8_t lid, uint32_t len, struct nvme_cmd_bytes *c)
{
    memset(c, 0, sizeof(*c));
    c->opcode = NVME_OP_GET_LOG;
    c->nsid = 0xffffffffu;
    c->cdw10 = lid | ((len / 4 - 1) & 0xffffu) << 16;
    c->data_len = len;
    c->timeout_ms = 5000;
}

void nvme_ns_list_cmd(uint32_t after_nsid, struct nvme_cmd_bytes *c)
{
    memset(c, 0, sizeof(*c));
    c->opcode = NVME_OP_IDENTIFY;
    c->nsid = after_nsid;
    c->cdw10 = 0x02;
    c->data_len = NVME_ID_BYTES;
    c->timeout_ms = 5000;
}

void nvme_set_vwc_cmd(bool enable, struct nvme_cmd_bytes *c)
{
    memset(c, 0, sizeof(*c));
    c->opcode = NVME_OP_SET_FEATURES;
    c->cdw10 = NVME_FID_VWC;        /* SV (bit 31) 0: not saved across power cycles */
    c->cdw11 = enable ? 1u : 0u;
    c->timeout_ms = 5000;
}

void nvme_get_vwc_cmd(struct nvme_cmd_bytes *c)
{
    memset(c, 0, sizeof(*c));
    c->opcode = NVME_OP_GET_FEATURES;
    c->cdw10 = NVME_FID_VWC;        /* SEL (bits 10:8) 0: current */
    c->timeout_ms = 5000;
}

int nvme_parse_sanitize_log(const uint8_t *b, size_t len, struct nvme_sanitize_log *l)
{
    if (len < 20)
        return -EINVAL;
    memset(l, 0, sizeof(*l));
    l->sprog = dev_le16(b);
    l->sstat = dev_le16(b + 2);
    l->state = l->sstat & 7u;
    l->global_erased = (l->sstat >> 8) & 1u;
    l->scdw10 = dev_le32(b + 4);
    l->et_overwrite = dev_le32(b + 8);
    l->et_block = dev_le32(b + 12);
    l->et_crypto = dev_le32(b + 16);
    return 0;
}

unsigned nvme_parse_ns_list(const uint8_t *b, size_t len, uint32_t *ids, unsigned max)
{
    unsigned n = 0;
    for (size_t o = 0; o + 4 <= len && n < max; o += 4) {
        uint32_t id = dev_le32(b + o);
        if (!id)
            break;
        ids[n++] = id;
    }
    return n;
}

/* ---- ATA ---------------------------------------------------------------------- */

void sat_ata16(const struct ata_regs *r, unsigned protocol, bool ck_cond, uint8_t cdb[16])
{
    memset(cdb, 0, 16);
    cdb[0] = 0x85;
    cdb[1] = (uint8_t)((protocol & 0xfu) << 1 | (r->ext ? 1u : 0u));
    bool data = protocol == SAT_PROTO_PIO_IN || protocol == SAT_PROTO_PIO_OUT;
    cdb[2] = (uint8_t)((ck_cond ? 1u << 5 : 0) | (protocol == SAT_PROTO_PIO_IN ? 1u << 3 : 0) |
                       (data ? 1u << 2 | 2u : 0));
    cdb[3] = (uint8_t)(r->features >> 8);
    cdb[4] = (uint8_t)r->features;
    cdb[5] = (uint8_t)(r->count >> 8);
    cdb[6] = (uint8_t)r->count;
    cdb[7] = (uint8_t)(r->lba >> 24);
    cdb[8] = (uint8_t)r->lba;
    cdb[9] = (uint8_t)(r->lba >> 32);
    cdb[10] = (uint8_t)(r->lba >> 8);
    cdb[11] = (uint8_t)(r->lba >> 40);
    cdb[12] = (uint8_t)(r->lba >> 16);
    cdb[13] = r->device;
    cdb[14] = r->command;
}

void ata_security_block(uint8_t out[512], bool master, bool enhanced, bool maximum,
                        const char *password)
{
    memset(out, 0, 512);
    uint16_t w0 = (uint16_t)((master ? 1u : 0u) | (enhanced ? 1u << 1 : 0u) | (maximum ? 1u << 8 : 0u));
    out[0] = (uint8_t)w0;
    out[1] = (uint8_t)(w0 >> 8);
    size_t n = strlen(password);
    memcpy(out + 2, password, n < 32 ? n : 32);
}

static void regs(struct ata_regs *r, uint8_t cmd, uint16_t count)
{
    memset(r, 0, sizeof(*r));
    r->command = cmd;
    r->count = count;
}

void ata_sec_set_password_regs(struct ata_regs *r)
{
    regs(r, ATA_CMD_SEC_SET_PASS, 1);
}

void ata_sec_erase_prepare_regs(struct ata_regs *r)
{
    regs(r, ATA_CMD_SEC_ERASE_PREP, 0);
}

void ata_sec_erase_unit_regs(struct ata_regs *r)
{
    regs(r, ATA_CMD_SEC_ERASE_UNIT, 1);
}

void ata_sec_disable_regs(struct ata_regs *r)
{
    regs(r, ATA_CMD_SEC_DISABLE, 1);
}

void ata_sanitize_regs(uint16_t feature, struct ata_regs *r)
{
    regs(r, ATA_CMD_SANITIZE, 0);
    r->features = feature;
    r->ext = true;
    r->device = 0x40;
    r->lba = feature == ATA_SANITIZE_BLOCK ? ATA_SANITIZE_KEY_BLOCK
           : feature == ATA_SANITIZE_CRYPTO ? ATA_SANITIZE_KEY_CRYPTO : 0;
}

void ata_set_wc_regs(bool enable, struct ata_regs *r)
{
    regs(r, ATA_CMD_SET_FEATURES, 0);
    r->features = enable ? ATA_FEAT_WC_ON : ATA_FEAT_WC_OFF;
}

int sat_sense_regs(const uint8_t *s, size_t len, struct ata_regs *r, uint8_t *status)
{
    memset(r, 0, sizeof(*r));
    if (len < 8)
        return -EINVAL;
    unsigned code = s[0] & 0x7f;
    if (code == 0x72 || code == 0x73) {
        size_t add = s[7], o = 8;
        while (o + 2 <= len && o < 8 + add) {
            const uint8_t *d = s + o;
            size_t dl = (size_t)d[1] + 2;
            if (d[0] == 0x09 && dl >= 14 && o + 14 <= len) {
                bool ext = d[2] & 1;
                r->ext = ext;
                r->features = d[3];     /* the ERROR register comes back here */
                r->count = (uint16_t)((ext ? d[4] : 0) << 8 | d[5]);
                r->lba = (uint64_t)d[7] | (uint64_t)d[9] << 8 | (uint64_t)d[11] << 16;
                if (ext)
                    r->lba |= (uint64_t)d[6] << 24 | (uint64_t)d[8] << 32 | (uint64_t)d[10] << 40;
                r->device = d[12];
                *status = d[13];
                return 0;
            }
            o += dl;
        }
        return -EINVAL;
    }
    if ((code == 0x70 || code == 0x71) && len >= 18) {
        /* fixed format (SAT-3 12.2.2.6): information bytes 3-6 = error,
         * status, device, count 7:0; command-specific bytes 8-11 = extend
         * flags and count / LBA high bytes, LBA 7:0, 15:8, 23:16 */
        r->count = s[6];
        *status = s[4];
        r->device = s[5];
        r->lba = (uint64_t)s[9] | (uint64_t)s[10] << 8 | (uint64_t)s[11] << 16;
        return 0;
    }
    return -EINVAL;
}

void ata_parse_sanitize_status(const struct ata_regs *r, struct ata_sanitize_status *s)
{
    s->done = (r->count >> 15) & 1u;
    s->running = (r->count >> 14) & 1u;
    s->progress = (uint16_t)(r->lba & 0xffffu);
}

/* ---- SCSI ----------------------------------------------------------------------- */

void scsi_sanitize_cdb(unsigned sa, bool immed, uint8_t cdb[10])
{
    memset(cdb, 0, 10);
    cdb[0] = 0x48;
    cdb[1] = (uint8_t)((immed ? 0x80u : 0u) | (sa & 0x1fu));   /* AUSE (bit 5) 0 */
}

void scsi_format_unit_cdb(uint8_t cdb[6])
{
    memset(cdb, 0, 6);
    cdb[0] = 0x04;
}

void scsi_rsoc_cdb(uint8_t opcode, int sa, uint32_t alloc, uint8_t cdb[12])
{
    memset(cdb, 0, 12);
    cdb[0] = 0xa3;
    cdb[1] = 0x0c;
    cdb[2] = sa < 0 ? 1 : 2;
    cdb[3] = opcode;
    if (sa >= 0) {
        cdb[4] = (uint8_t)((unsigned)sa >> 8);
        cdb[5] = (uint8_t)sa;
    }
    cdb[6] = (uint8_t)(alloc >> 24);
    cdb[7] = (uint8_t)(alloc >> 16);
    cdb[8] = (uint8_t)(alloc >> 8);
    cdb[9] = (uint8_t)alloc;
}

bool scsi_rsoc_supported(const uint8_t *b, size_t len)
{
    if (len < 2)
        return false;
    unsigned s = b[1] & 7u;
    return s == 3 || s == 5;
}

void scsi_mode_sense_caching_cdb(uint16_t alloc, uint8_t cdb[10])
{
    memset(cdb, 0, 10);
    cdb[0] = 0x5a;
    cdb[1] = 0x08;                  /* DBD */
    cdb[2] = 0x08;                  /* PC 00b current, page 08h */
    cdb[7] = (uint8_t)(alloc >> 8);
    cdb[8] = (uint8_t)alloc;
}

void scsi_mode_select_cdb(uint16_t len, uint8_t cdb[10])
{
    memset(cdb, 0, 10);
    cdb[0] = 0x55;
    cdb[1] = 0x10;                  /* PF 1, SP 0 */
    cdb[7] = (uint8_t)(len >> 8);
    cdb[8] = (uint8_t)len;
}

int scsi_caching_page_offset(const uint8_t *b, size_t len)
{
    if (len < 8)
        return -1;
    size_t bdl = (size_t)b[6] << 8 | b[7];
    size_t o = 8 + bdl;
    if (o + 3 > len || (b[o] & 0x3f) != 0x08)
        return -1;
    return (int)o;
}

int scsi_caching_select(uint8_t *b, size_t len, bool wce)
{
    int o = scsi_caching_page_offset(b, len);
    if (o < 0)
        return -1;
    size_t total = (size_t)o + 2 + b[o + 1];
    if (total > len)
        return -1;
    b[0] = b[1] = 0;                /* mode data length: reserved in MODE SELECT */
    b[o] &= 0x3f;                   /* PS must be 0 */
    if (wce)
        b[o + 2] |= 0x04;
    else
        b[o + 2] &= (uint8_t)~0x04u;
    return (int)total;
}

/* ---- the choice ------------------------------------------------------------------ */

const char *devpurge_method_name(enum devpurge_method m)
{
    switch (m) {
    case DEVPURGE_NONE: return "none";
    case DEVPURGE_NVME_SANITIZE_BLOCK: return "nvme-sanitize-block-erase";
    case DEVPURGE_NVME_SANITIZE_CRYPTO: return "nvme-sanitize-crypto-erase";
    case DEVPURGE_NVME_FORMAT_ERASE: return "nvme-format-secure-erase";
    case DEVPURGE_ATA_SECURITY_ERASE: return "ata-security-erase";
    case DEVPURGE_ATA_SANITIZE_BLOCK: return "ata-sanitize-block-erase";
    case DEVPURGE_ATA_SANITIZE_CRYPTO: return "ata-sanitize-crypto-scramble";
    case DEVPURGE_SCSI_SANITIZE_BLOCK: return "scsi-sanitize-block-erase";
    case DEVPURGE_SCSI_SANITIZE_CRYPTO: return "scsi-sanitize-crypto-erase";
    case DEVPURGE_SCSI_FORMAT_UNIT: return "scsi-format-unit";
    case DEVPURGE_DISCARD: return "discard";
    case DEVPURGE_ZERO_FILL: return "zero-fill";
    }
    return "?";
}

bool devpurge_is_device(enum devpurge_method m)
{
    return m >= DEVPURGE_NVME_SANITIZE_BLOCK && m <= DEVPURGE_SCSI_FORMAT_UNIT;
}

static void why(struct devpurge_choice *c, const char *fmt, const char *a)
{
    size_t n = strlen(c->why);
    if (n)
        n += (size_t)snprintf(c->why + n, sizeof(c->why) - n, "; ");
    if (n < sizeof(c->why))
        snprintf(c->why + n, sizeof(c->why) - n, fmt, a);
}

static void block_layer(const struct device_info *di, struct devpurge_choice *c)
{
    if (di->discard_max_bytes > 0)
        c->method = DEVPURGE_DISCARD;
    else {
        c->method = DEVPURGE_ZERO_FILL;
        why(c, "discard: %s", "the queue has no discard (discard_max_bytes 0)");
    }
}

static bool choose_nvme(const struct device_info *di, struct devpurge_choice *c)
{
    const struct device_identity *id = &di->id;
    if (!id->nvme) {
        why(c, "NVMe: %s", "Identify Controller not read; no device command");
        return false;
    }
    uint32_t sc = id->ctrl.sanicap;
    if (sc & NVME_SANICAP_BES) {
        c->method = DEVPURGE_NVME_SANITIZE_BLOCK;
        c->controller_wide = true;
        return true;
    }
    if (sc & NVME_SANICAP_CES) {
        why(c, "sanitize block erase: %s", "not supported (SANICAP bit 1 clear)");
        c->method = DEVPURGE_NVME_SANITIZE_CRYPTO;
        c->controller_wide = true;
        return true;
    }
    why(c, "sanitize: %s", "neither block nor crypto erase supported (SANICAP)");
    if (id->ctrl.oacs & NVME_OACS_FORMAT) {
        if (!id->nsid) {
            why(c, "format: %s", "the namespace was not identified");
            return false;
        }
        c->method = DEVPURGE_NVME_FORMAT_ERASE;
        c->controller_wide = (id->ctrl.fna & (NVME_FNA_FORMAT_ALL | NVME_FNA_ERASE_ALL)) != 0;
        return true;
    }
    why(c, "format: %s", "Format NVM not supported (OACS bit 1 clear)");
    return false;
}

static bool choose_ata(const struct device_info *di, struct devpurge_choice *c)
{
    const struct device_identity *id = &di->id;
    if (!id->ata) {
        why(c, "ATA: %s", "IDENTIFY DEVICE not read; no device command");
        return false;
    }
    const struct ata_identity *a = &id->ata_id;
    if (a->security_supported == 1 && a->security_locked == 1) {
        c->refuse = -EPERM;
        snprintf(c->why, sizeof(c->why),
                 "%s is locked by an ATA security password (IDENTIFY word 128 bit 2): it cannot be "
                 "written or purged until it is unlocked with that password (hdparm "
                 "--security-unlock)",
                 di->dev_node);
        return true;
    }
    if (a->security_supported == 1 && a->security_frozen != 1 && a->security_enabled != 1 &&
        a->security_count_expired != 1) {
        c->method = DEVPURGE_ATA_SECURITY_ERASE;
        return true;
    }
    if (a->security_supported != 1)
        why(c, "ATA security erase: %s", "the Security feature set is not supported");
    else if (a->security_frozen == 1)
        why(c, "ATA security erase: %s",
            "refused, the drive's security is frozen (IDENTIFY word 128 bit 3; the BIOS froze it: "
            "a suspend/resume or a hot-plug unfreezes it)");
    else if (a->security_enabled == 1)
        why(c, "ATA security erase: %s",
            "refused, a user password is already set (word 128 bit 1); ssdbench sets its own "
            "temporary one only on a drive without");
    else
        why(c, "ATA security erase: %s", "refused, the password attempt counter expired (word 128 bit 4)");
    if (a->sanitize_supported == 1 && a->sanitize_block == 1) {
        c->method = DEVPURGE_ATA_SANITIZE_BLOCK;
        return true;
    }
    if (a->sanitize_supported == 1 && a->sanitize_crypto == 1) {
        c->method = DEVPURGE_ATA_SANITIZE_CRYPTO;
        return true;
    }
    why(c, "ATA sanitize: %s",
        a->sanitize_supported == 1 ? "neither BLOCK ERASE nor CRYPTO SCRAMBLE supported (word 59)"
                                   : "the Sanitize feature set is not supported (word 59 bit 12)");
    return false;
}

static bool choose_scsi(const struct scsi_purge_caps *s, struct devpurge_choice *c)
{
    if (!s) {
        why(c, "SCSI: %s", "supported operation codes not asked; no device command");
        return false;
    }
    if (s->sanitize_block == 1) {
        c->method = DEVPURGE_SCSI_SANITIZE_BLOCK;
        return true;
    }
    if (s->sanitize_crypto == 1) {
        c->method = DEVPURGE_SCSI_SANITIZE_CRYPTO;
        return true;
    }
    why(c, "SCSI sanitize: %s", "not supported (REPORT SUPPORTED OPERATION CODES)");
    if (s->format_unit == 1) {
        c->method = DEVPURGE_SCSI_FORMAT_UNIT;
        return true;
    }
    why(c, "SCSI format unit: %s", "not reported as supported");
    return false;
}

void devpurge_choose(const struct device_info *di, const struct scsi_purge_caps *scsi,
                     struct devpurge_choice *c)
{
    memset(c, 0, sizeof(*c));
    c->method = DEVPURGE_NONE;
    bool whole = di->name[0] && !strcmp(di->name, di->disk);
    bool done = false;
    switch (di->bus) {
    case DEV_BUS_NVME:
    case DEV_BUS_ATA:
    case DEV_BUS_SCSI:
        if (!whole) {
            why(c, "device purge: %s",
                "not the whole disk (a partition or a mapped device; the device's erase commands "
                "erase the whole disk: name the disk)");
            break;
        }
        done = di->bus == DEV_BUS_NVME ? choose_nvme(di, c)
             : di->bus == DEV_BUS_ATA ? choose_ata(di, c) : choose_scsi(scsi, c);
        break;
    case DEV_BUS_VIRTUAL:
        why(c, "device purge: %s", "a virtual device (loop, zram, dm, ...) has no erase command");
        break;
    case DEV_BUS_NONE:
    case DEV_BUS_OTHER:
        why(c, "device purge: %s", "no erase command known for this device");
        break;
    }
    if (!done)
        block_layer(di, c);
}
