/* nvme_parse.c - NVMe Identify Controller, Identify Namespace and SMART /
 * Health log parsers (device_parse.h), plus the little-endian readers. */
#include <errno.h>
#include <string.h>

#include "device/device_parse.h"

uint16_t dev_le16(const uint8_t *p)
{
    return (uint16_t)(p[0] | p[1] << 8);
}

uint32_t dev_le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

uint64_t dev_le64(const uint8_t *p)
{
    return (uint64_t)dev_le32(p) | (uint64_t)dev_le32(p + 4) << 32;
}

double dev_le128(const uint8_t *p)
{
    return (double)dev_le64(p) + (double)dev_le64(p + 8) * 18446744073709551616.0;
}

/* An NVMe ASCII field: space padded, copied without the padding; bytes
 * outside printable ASCII become '?'. */
static void nvme_string(const uint8_t *p, size_t n, char *out)
{
    size_t len = n;
    while (len && (p[len - 1] == ' ' || p[len - 1] == 0))
        len--;
    size_t s = 0;
    while (s < len && p[s] == ' ')
        s++;
    size_t o = 0;
    for (size_t i = s; i < len; i++)
        out[o++] = p[i] >= 0x20 && p[i] < 0x7f ? (char)p[i] : '?';
    out[o] = 0;
}

int nvme_parse_id_ctrl(const uint8_t *b, size_t len, struct nvme_id_ctrl *c)
{
    if (len < NVME_ID_BYTES)
        return -EINVAL;
    memset(c, 0, sizeof(*c));
    c->vid = dev_le16(b + 0);
    c->ssvid = dev_le16(b + 2);
    nvme_string(b + 4, 20, c->serial);
    nvme_string(b + 24, 40, c->model);
    nvme_string(b + 64, 8, c->firmware);
    c->cmic = b[76];
    c->mdts = b[77];
    c->cntlid = dev_le16(b + 78);
    c->ver = dev_le32(b + 80);
    c->oacs = dev_le16(b + 256);
    c->frmw = b[260];
    c->wctemp_k = dev_le16(b + 266);
    c->cctemp_k = dev_le16(b + 268);
    c->tnvmcap = dev_le128(b + 280);
    c->sanicap = dev_le32(b + 328);
    c->nn = dev_le32(b + 516);
    c->oncs = dev_le16(b + 520);
    c->fna = b[524];
    c->vwc = b[525];
    nvme_string(b + 768, 256, c->subnqn);
    return 0;
}

int nvme_parse_id_ns(const uint8_t *b, size_t len, struct nvme_id_ns *ns)
{
    if (len < NVME_ID_BYTES)
        return -EINVAL;
    memset(ns, 0, sizeof(*ns));
    ns->nsze = dev_le64(b + 0);
    ns->ncap = dev_le64(b + 8);
    ns->nuse = dev_le64(b + 16);
    ns->nsfeat = b[24];
    ns->nlbaf = (unsigned)b[25] + 1;
    ns->flbas_index = (b[26] & 0x0f) | (unsigned)((b[26] >> 5) & 0x3) << 4;
    /* formats beyond 16 exist only with NVMe 2.0's upper index bits */
    if (ns->nlbaf <= 16)
        ns->flbas_index &= 0x0f;
    ns->meta_extended = b[26] & 0x10;
    ns->dps = b[29];
    ns->nmic = b[30];
    memcpy(ns->nguid, b + 104, 16);
    memcpy(ns->eui64, b + 120, 8);
    for (unsigned i = 0; i < NVME_MAX_LBAF; i++) {
        uint32_t f = dev_le32(b + 128 + 4 * i);
        ns->lbaf[i].ms = (uint16_t)(f & 0xffff);
        ns->lbaf[i].lbads = (uint8_t)(f >> 16 & 0xff);
        ns->lbaf[i].rp = (uint8_t)(f >> 24 & 0x3);
    }
    return 0;
}

int nvme_parse_smart(const uint8_t *b, size_t len, struct nvme_smart *s)
{
    if (len < NVME_SMART_BYTES)
        return -EINVAL;
    memset(s, 0, sizeof(*s));
    s->critical_warning = b[0];
    s->temp_k = dev_le16(b + 1);
    s->avail_spare = b[3];
    s->spare_thresh = b[4];
    s->percent_used = b[5];
    s->endurance_warning = b[6];
    s->data_units_read = dev_le128(b + 32);
    s->data_units_written = dev_le128(b + 48);
    s->host_reads = dev_le128(b + 64);
    s->host_writes = dev_le128(b + 80);
    s->ctrl_busy_min = dev_le128(b + 96);
    s->power_cycles = dev_le128(b + 112);
    s->power_on_hours = dev_le128(b + 128);
    s->unsafe_shutdowns = dev_le128(b + 144);
    s->media_errors = dev_le128(b + 160);
    s->error_log_entries = dev_le128(b + 176);
    s->warn_temp_min = dev_le32(b + 192);
    s->crit_temp_min = dev_le32(b + 196);
    for (unsigned i = 0; i < 8; i++)
        s->temp_sensor_k[i] = dev_le16(b + 200 + 2 * i);
    return 0;
}
