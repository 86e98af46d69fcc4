/* passthru.c - NVMe command dwords and SCSI CDBs of the passthrough engines
 * (see passthru.h); byte layouts from the NVMe Base/NVM command set
 * specifications and SBC-4. */
#include <errno.h>
#include <string.h>

#include "engine/passthru.h"

int nvme_rw_build(struct nvme_rw_dwords *d, uint8_t opcode, uint32_t nsid, unsigned lba_shift,
                  uint64_t off, uint32_t len)
{
    uint64_t mask = (1ull << lba_shift) - 1;
    if (!len || (off & mask) || (len & mask))
        return -EINVAL;
    uint64_t nlb = (uint64_t)len >> lba_shift;
    if (nlb > 65536)
        return -EINVAL;
    uint64_t slba = off >> lba_shift;
    memset(d, 0, sizeof(*d));
    d->opcode = opcode;
    d->nsid = nsid;
    d->cdw10 = (uint32_t)slba;
    d->cdw11 = (uint32_t)(slba >> 32);
    d->cdw12 = (uint32_t)(nlb - 1);
    d->data_len = len;
    return 0;
}

int nvme_dsm_build(struct nvme_rw_dwords *d, uint8_t range16[16], uint32_t nsid, unsigned lba_shift,
                   uint64_t off, uint32_t len)
{
    uint64_t mask = (1ull << lba_shift) - 1;
    if (!len || (off & mask) || (len & mask))
        return -EINVAL;
    uint32_t nlb = len >> lba_shift;
    uint64_t slba = off >> lba_shift;
    memset(range16, 0, 16);
    for (unsigned i = 0; i < 4; i++)
        range16[4 + i] = (uint8_t)(nlb >> (8 * i));
    for (unsigned i = 0; i < 8; i++)
        range16[8 + i] = (uint8_t)(slba >> (8 * i));
    memset(d, 0, sizeof(*d));
    d->opcode = NVME_OPC_DSM;
    d->nsid = nsid;
    d->cdw10 = 0;      /* one range (0-based) */
    d->cdw11 = 1u << 2; /* AD: deallocate */
    d->data_len = 16;
    return 0;
}

int nvme_idns_lba_shift(const uint8_t *idns, size_t len)
{
    if (len < 4096)
        return -1;
    unsigned nlbaf = idns[25] + 1u; /* 0-based */
    unsigned idx = idns[26] & 0x0f;
    if (nlbaf > 16)
        idx |= (unsigned)((idns[26] >> 5) & 0x03) << 4;
    if (idx >= nlbaf || idx >= 64)
        return -1;
    unsigned lbads = idns[128 + 4 * idx + 2];
    return lbads >= 9 && lbads <= 16 ? (int)lbads : -1;
}

static void be16(uint8_t *p, uint16_t v)
{
    p[0] = (uint8_t)(v >> 8);
    p[1] = (uint8_t)v;
}

static void be32(uint8_t *p, uint32_t v)
{
    be16(p, (uint16_t)(v >> 16));
    be16(p + 2, (uint16_t)v);
}

static void be64(uint8_t *p, uint64_t v)
{
    be32(p, (uint32_t)(v >> 32));
    be32(p + 4, (uint32_t)v);
}

static uint64_t get_be(const uint8_t *p, unsigned n)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < n; i++)
        v = v << 8 | p[i];
    return v;
}

int scsi_rw_build(struct scsi_cmd *c, bool write, enum sg_write_mode mode, bool fua,
                  uint32_t block_size, uint64_t off, uint32_t len)
{
    if (!block_size || !len || off % block_size || len % block_size)
        return -EINVAL;
    uint64_t lba = off / block_size;
    uint64_t nblocks = len / block_size;
    memset(c, 0, sizeof(*c));
    bool ten = lba < SCSI_MAX_10B_LBA && nblocks <= 0xffff;
    /* opcodes (10, 16) */
    uint8_t op10, op16;
    c->xfer_len = len;
    c->to_dev = write;
    if (!write) {
        op10 = 0x28, op16 = 0x88; /* READ */
        if (fua)
            c->cdb[1] |= 0x08;
    } else {
        switch (mode) {
        case SG_WRITE:
        default:
            op10 = 0x2a, op16 = 0x8a;
            if (fua)
                c->cdb[1] |= 0x08;
            break;
        case SG_WRITE_VERIFY:
            op10 = 0x2e, op16 = 0x8e; /* BYTCHK 0 */
            break;
        case SG_WRITE_SAME:
            op10 = 0x41, op16 = 0x93;
            c->xfer_len = block_size;
            break;
        case SG_WRITE_SAME_NDOB:
            op10 = op16 = 0x93;
            ten = false;
            c->cdb[1] |= 0x01;
            c->xfer_len = 0;
            break;
        case SG_VERIFY_BYTCHK_00:
            op10 = 0x2f, op16 = 0x8f;
            c->xfer_len = 0;
            break;
        case SG_VERIFY_BYTCHK_01:
            op10 = 0x2f, op16 = 0x8f;
            c->cdb[1] |= 0x02;
            break;
        case SG_VERIFY_BYTCHK_11:
            op10 = 0x2f, op16 = 0x8f;
            c->cdb[1] |= 0x06;
            c->xfer_len = block_size;
            break;
        }
    }
    if (ten) {
        c->cdb[0] = op10;
        c->cdb_len = 10;
        be32(&c->cdb[2], (uint32_t)lba);
        be16(&c->cdb[7], (uint16_t)nblocks);
    } else {
        if (nblocks > 0xffffffffull)
            return -EINVAL;
        c->cdb[0] = op16;
        c->cdb_len = 16;
        be64(&c->cdb[2], lba);
        be32(&c->cdb[10], (uint32_t)nblocks);
    }
    return 0;
}

void scsi_sync_build(struct scsi_cmd *c)
{
    memset(c, 0, sizeof(*c));
    c->cdb[0] = 0x35; /* SYNCHRONIZE CACHE(10); LBA 0 and 0 blocks: all of it */
    c->cdb_len = 10;
}

void scsi_readcap16_build(struct scsi_cmd *c)
{
    memset(c, 0, sizeof(*c));
    c->cdb[0] = 0x9e;
    c->cdb[1] = 0x10;
    be32(&c->cdb[10], 32);
    c->cdb_len = 16;
    c->xfer_len = 32;
}

int scsi_readcap16_parse(const uint8_t *buf, size_t len, uint64_t *blocks, uint32_t *block_size)
{
    if (len < 12)
        return -1;
    uint64_t last = get_be(buf, 8);
    uint32_t bs = (uint32_t)get_be(buf + 8, 4);
    if (!bs || last == UINT64_MAX)
        return -1;
    *blocks = last + 1;
    *block_size = bs;
    return 0;
}
