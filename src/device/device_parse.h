/* device_parse.h - pure parsers of what storage devices report about
 * themselves: NVMe Identify Controller, Identify Namespace and the SMART /
 * Health Information log page (0x02), ATA IDENTIFY DEVICE and SMART READ
 * DATA sectors, and `smartctl --json` output. Each takes a byte buffer and
 * fills a struct; nothing here touches a device, so every parser is tested
 * on the fixtures in tests/fixtures/device/ (built byte by byte from the
 * specifications). Offsets: NVM Express Base Specification 1.4 / 2.0
 * (Figures "Identify - Identify Controller Data Structure", "Identify -
 * Identify Namespace Data Structure", "SMART / Health Information Log");
 * ATA/ATAPI Command Set ACS-3 (IDENTIFY DEVICE data words, SMART READ DATA
 * layout as every vendor uses it). Multi-byte NVMe fields and ATA words are
 * little-endian; ATA strings hold two characters per word, the first in the
 * word's high byte.
 *
 * Unknown values are NAN (doubles) or -1 (flags), never 0, so "not
 * reported" cannot pass for "none". 128-bit NVMe counters become doubles:
 * exact up to 2^53, far beyond any count a device reaches.
 */
#ifndef SSDBENCH_DEVICE_PARSE_H
#define SSDBENCH_DEVICE_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define NVME_ID_BYTES 4096
#define NVME_SMART_BYTES 512
#define ATA_SECTOR_BYTES 512
#define NVME_MAX_LBAF 64
#define ATA_SMART_MAX_ATTRS 30

/* NVMe Identify Controller (CNS 01h): the fields ssdbench shows. */
struct nvme_id_ctrl {
    uint16_t vid, ssvid;            /* bytes 0-1, 2-3 */
    char serial[21];                /* SN, bytes 4-23 */
    char model[41];                 /* MN, bytes 24-63 */
    char firmware[9];               /* FR, bytes 64-71 */
    uint8_t cmic;                   /* byte 76: bit 1 = more than one controller in the subsystem */
    uint8_t mdts;                   /* byte 77: max transfer 2^mdts pages (0 = no limit) */
    uint16_t cntlid;                /* bytes 78-79 */
    uint32_t ver;                   /* bytes 80-83: major << 16 | minor << 8 | tertiary */
    uint16_t oacs;                  /* bytes 256-257: optional admin commands */
    uint8_t frmw;                   /* byte 260: firmware slots */
    uint16_t wctemp_k, cctemp_k;    /* bytes 266-267, 268-269: warning / critical temperature */
    double tnvmcap;                 /* bytes 280-295: total NVM capacity, bytes (0: not reported) */
    uint32_t sanicap;               /* bytes 328-331: sanitize capabilities */
    uint32_t nn;                    /* bytes 516-519: number of namespaces */
    uint16_t oncs;                  /* bytes 520-521: optional NVM commands (bit 2 DSM = TRIM) */
    uint8_t fna;                    /* byte 524: format NVM attributes */
    uint8_t vwc;                    /* byte 525: bit 0 volatile write cache present */
    char subnqn[257];               /* bytes 768-1023 */
};

struct nvme_lbaf {
    uint16_t ms;                    /* metadata bytes per block */
    uint8_t lbads;                  /* data size 2^lbads bytes */
    uint8_t rp;                     /* relative performance 0 best .. 3 degraded */
};

/* NVMe Identify Namespace (CNS 00h). */
struct nvme_id_ns {
    uint64_t nsze, ncap, nuse;      /* bytes 0-7, 8-15, 16-23, in logical blocks */
    uint8_t nsfeat;                 /* byte 24 */
    unsigned nlbaf;                 /* byte 25 is 0-based: formats = byte + 1 */
    unsigned flbas_index;           /* byte 26 bits 3:0, and 6:5 as bits 5:4 (NVMe 2.0) */
    bool meta_extended;             /* byte 26 bit 4: metadata at the end of each block */
    uint8_t dps;                    /* byte 29: end-to-end protection type */
    uint8_t nmic;                   /* byte 30: shared namespace */
    uint8_t nguid[16];              /* bytes 104-119 */
    uint8_t eui64[8];               /* bytes 120-127 */
    struct nvme_lbaf lbaf[NVME_MAX_LBAF]; /* bytes 128 + 4 i */
};

/* NVMe SMART / Health Information (log page 02h). */
struct nvme_smart {
    uint8_t critical_warning;       /* byte 0 */
    uint16_t temp_k;                /* bytes 1-2: composite temperature, kelvin */
    uint8_t avail_spare, spare_thresh, percent_used; /* bytes 3, 4, 5 */
    uint8_t endurance_warning;      /* byte 6 */
    double data_units_read;         /* bytes 32-47: thousands of 512-byte units */
    double data_units_written;      /* bytes 48-63 */
    double host_reads, host_writes; /* bytes 64-79, 80-95: commands */
    double ctrl_busy_min;           /* bytes 96-111 */
    double power_cycles;            /* bytes 112-127 */
    double power_on_hours;          /* bytes 128-143 */
    double unsafe_shutdowns;        /* bytes 144-159 */
    double media_errors;            /* bytes 160-175 */
    double error_log_entries;       /* bytes 176-191 */
    uint32_t warn_temp_min, crit_temp_min; /* bytes 192-195, 196-199 */
    uint16_t temp_sensor_k[8];      /* bytes 200-215 (0 = not implemented) */
};

/* ATA IDENTIFY DEVICE (ECh), 256 words. */
struct ata_identity {
    char serial[21];                /* words 10-19 */
    char firmware[9];               /* words 23-26 */
    char model[41];                 /* words 27-46 */
    bool lba48;                     /* word 83 bit 10 */
    uint64_t sectors;               /* words 100-103 when lba48, else 60-61 */
    uint32_t logical_bytes;         /* word 106 bit 12: words 117-118 (in words) x 2, else 512 */
    uint32_t physical_bytes;        /* logical << word 106 bits 3:0 when bit 13 */
    uint16_t rotation;              /* word 217: 1 = solid state, 0401h-FFFEh = rpm, 0 = not reported */
    int smart_supported, smart_enabled;       /* word 82 / 85 bit 0 */
    int write_cache_supported, write_cache_enabled; /* word 82 / 85 bit 5 */
    int trim;                       /* word 169 bit 0 */
    uint16_t major_version;         /* word 80 */
    int checksum_ok;                /* word 255: 1 good, 0 bad, -1 absent (low byte not A5h) */
    /* purge capabilities (device_purge_cmd.h): the Security feature set
     * (word 82 bit 1; word 128: bit 0 supported, 1 enabled = a user
     * password is set, 2 locked, 3 frozen, 4 count expired, 5 enhanced
     * erase supported; words 89 / 90 the erase times) and the Sanitize
     * feature set (word 59 bit 12 supported, 13 CRYPTO SCRAMBLE, 14
     * OVERWRITE, 15 BLOCK ERASE) */
    int security_supported, security_enabled, security_locked, security_frozen;
    int security_count_expired, security_enhanced;
    unsigned erase_minutes, enhanced_erase_minutes; /* 0 not reported */
    int sanitize_supported, sanitize_crypto, sanitize_overwrite, sanitize_block;
};

struct ata_smart_attr {
    uint8_t id;
    uint16_t flags;
    uint8_t value, worst;           /* normalized current and worst */
    uint64_t raw;                   /* 48-bit raw value, little-endian */
};

/* ATA SMART READ DATA (B0h/D0h): the attribute table. */
struct ata_smart {
    uint16_t revision;              /* bytes 0-1 */
    unsigned n;                     /* attributes with a non-zero id */
    struct ata_smart_attr attr[ATA_SMART_MAX_ATTRS]; /* 12-byte entries from byte 2 */
    int checksum_ok;                /* byte 511 makes the sector sum 0 mod 256 */
};

/* Each returns 0, or -EINVAL when len is short (the struct is then unset). */
int nvme_parse_id_ctrl(const uint8_t *buf, size_t len, struct nvme_id_ctrl *c);
int nvme_parse_id_ns(const uint8_t *buf, size_t len, struct nvme_id_ns *ns);
int nvme_parse_smart(const uint8_t *buf, size_t len, struct nvme_smart *s);
int ata_parse_identity(const uint8_t *buf, size_t len, struct ata_identity *a);
int ata_parse_smart(const uint8_t *buf, size_t len, struct ata_smart *s);

/* The attribute with this id, or NULL. */
const struct ata_smart_attr *ata_smart_find(const struct ata_smart *s, uint8_t id);

/* Little-endian readers, also for the fixture generator and its tests. */
uint16_t dev_le16(const uint8_t *p);
uint32_t dev_le32(const uint8_t *p);
uint64_t dev_le64(const uint8_t *p);
double dev_le128(const uint8_t *p);
/* An ATA string of nwords words from word w (byte-swapped per word),
 * trailing spaces removed; out holds 2 * nwords + 1 bytes. */
void ata_string(const uint8_t *buf, unsigned w, unsigned nwords, char *out);

#endif
