/* ata_parse.c - ATA IDENTIFY DEVICE and SMART READ DATA parsers
 * (device_parse.h). IDENTIFY data is 256 little-endian words; word w is at
 * bytes 2w (low) and 2w + 1 (high). */
#include <errno.h>
#include <string.h>

#include "device/device_parse.h"

static uint16_t word(const uint8_t *b, unsigned w)
{
    return dev_le16(b + 2 * w);
}

void ata_string(const uint8_t *b, unsigned w, unsigned nwords, char *out)
{
    unsigned o = 0;
    for (unsigned i = 0; i < nwords; i++) {
        uint16_t v = word(b, w + i);
        unsigned char c[2] = {(unsigned char)(v >> 8), (unsigned char)(v & 0xff)};
        for (int k = 0; k < 2; k++)
            out[o++] = c[k] >= 0x20 && c[k] < 0x7f ? (char)c[k] : c[k] ? '?' : ' ';
    }
    while (o && out[o - 1] == ' ')
        o--;
    out[o] = 0;
    unsigned s = 0;
    while (out[s] == ' ')
        s++;
    memmove(out, out + s, o - s + 1);
}

/* Word 255: low byte A5h, high byte makes the 512 bytes sum to 0 mod 256. */
static int sector_checksum(const uint8_t *b, bool need_signature)
{
    if (need_signature && b[510] != 0xa5)
        return -1;
    unsigned sum = 0;
    for (unsigned i = 0; i < ATA_SECTOR_BYTES; i++)
        sum += b[i];
    return (sum & 0xff) == 0;
}

/* A flag word is valid when bit 15 is 0 and bit 14 is 1 (words 82-87, 106, 169 are
 * not all so marked; those without the marker count when not FFFFh). */
static int bit_of(uint16_t w, unsigned bit)
{
    if (w == 0xffff)
        return -1;
    return (w >> bit) & 1;
}

/* Erase time words 89 / 90 (ACS-3): bit 15 set: bits 14:0 are the time in
 * 2-minute units; clear: bits 7:0 are (ACS-2 format); 0 = not reported,
 * the largest value = more than the field holds (counted as that). */
static unsigned erase_minutes(uint16_t w)
{
    if (w == 0xffff)
        return 0;
    return w & 0x8000 ? 2u * (w & 0x7fffu) : 2u * (w & 0xffu);
}

/* Words 59, 82, 89, 90 and 128: what a purge may use. */
static void ata_parse_purge_caps(const uint8_t *b, struct ata_identity *a)
{
    uint16_t w82 = word(b, 82), w128 = word(b, 128), w59 = word(b, 59);
    a->security_supported = bit_of(w82, 1) == 1 && w128 != 0xffff && (w128 & 1) ? 1
                          : bit_of(w82, 1) < 0 ? -1 : 0;
    bool s = a->security_supported == 1;
    a->security_enabled = s ? (w128 >> 1) & 1 : -1;
    a->security_locked = s ? (w128 >> 2) & 1 : -1;
    a->security_frozen = s ? (w128 >> 3) & 1 : -1;
    a->security_count_expired = s ? (w128 >> 4) & 1 : -1;
    a->security_enhanced = s ? (w128 >> 5) & 1 : -1;
    a->erase_minutes = s ? erase_minutes(word(b, 89)) : 0;
    a->enhanced_erase_minutes = s ? erase_minutes(word(b, 90)) : 0;
    int san = w59 == 0xffff ? -1 : (w59 >> 12) & 1;
    a->sanitize_supported = san;
    a->sanitize_crypto = san == 1 ? (w59 >> 13) & 1 : san;
    a->sanitize_overwrite = san == 1 ? (w59 >> 14) & 1 : san;
    a->sanitize_block = san == 1 ? (w59 >> 15) & 1 : san;
}

int ata_parse_identity(const uint8_t *b, size_t len, struct ata_identity *a)
{
    if (len < ATA_SECTOR_BYTES)
        return -EINVAL;
    memset(a, 0, sizeof(*a));
    ata_string(b, 10, 10, a->serial);
    ata_string(b, 23, 4, a->firmware);
    ata_string(b, 27, 20, a->model);
    uint16_t w82 = word(b, 82), w83 = word(b, 83), w85 = word(b, 85);
    a->lba48 = w83 != 0xffff && (w83 & (1u << 10));
    if (a->lba48)
        a->sectors = (uint64_t)word(b, 100) | (uint64_t)word(b, 101) << 16 |
                     (uint64_t)word(b, 102) << 32 | (uint64_t)word(b, 103) << 48;
    else
        a->sectors = (uint64_t)word(b, 60) | (uint64_t)word(b, 61) << 16;
    uint16_t w106 = word(b, 106);
    a->logical_bytes = 512;
    a->physical_bytes = 512;
    if ((w106 & 0xc000) == 0x4000) {
        if (w106 & (1u << 12)) {
            uint32_t words = (uint32_t)word(b, 117) | (uint32_t)word(b, 118) << 16;
            if (words >= 256)
                a->logical_bytes = words * 2;
        }
        a->physical_bytes = a->logical_bytes;
        if (w106 & (1u << 13))
            a->physical_bytes = a->logical_bytes << (w106 & 0xf);
    }
    a->rotation = word(b, 217);
    a->smart_supported = bit_of(w82, 0);
    a->smart_enabled = bit_of(w85, 0);
    a->write_cache_supported = bit_of(w82, 5);
    a->write_cache_enabled = bit_of(w85, 5);
    a->trim = bit_of(word(b, 169), 0);
    a->major_version = word(b, 80);
    a->checksum_ok = sector_checksum(b, true);
    ata_parse_purge_caps(b, a);
    return 0;
}

int ata_parse_smart(const uint8_t *b, size_t len, struct ata_smart *s)
{
    if (len < ATA_SECTOR_BYTES)
        return -EINVAL;
    memset(s, 0, sizeof(*s));
    s->revision = dev_le16(b);
    for (unsigned i = 0; i < ATA_SMART_MAX_ATTRS; i++) {
        const uint8_t *e = b + 2 + 12 * i;
        if (e[0] == 0)
            continue;
        struct ata_smart_attr *a = &s->attr[s->n++];
        a->id = e[0];
        a->flags = dev_le16(e + 1);
        a->value = e[3];
        a->worst = e[4];
        a->raw = 0;
        for (int k = 5; k >= 0; k--)
            a->raw = a->raw << 8 | e[5 + k];
    }
    s->checksum_ok = sector_checksum(b, false);
    return 0;
}

const struct ata_smart_attr *ata_smart_find(const struct ata_smart *s, uint8_t id)
{
    for (unsigned i = 0; i < s->n; i++)
        if (s->attr[i].id == id)
            return &s->attr[i];
    return NULL;
}
