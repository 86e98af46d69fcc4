/* test_passthru.c - the passthrough engines' commands (engine/passthru.h)
 * byte by byte: NVMe Read/Write dwords (0-based block count, the LBA split
 * over CDW10/11), the LBA size from an Identify Namespace answer, SCSI
 * READ/WRITE CDBs (10 or 16 by LBA and count), each sg_write_mode's opcode,
 * flag bits and data length, READ CAPACITY(16) and its answer; the
 * NVMe generic name mapping (chardev_map.h); the engine options
 * (ioengine=io_uring_cmd|sg, cmd_type, sg_write_mode, readfua, writefua). */
#include <errno.h>
#include <string.h>

#include "job/job.h"
#include "check.h"
#include "engine/passthru.h"
#include "jobfile/options.h"
#include "target/chardev_map.h"

TEST(nvme_rw_dwords)
{
    struct nvme_rw_dwords d;
    /* 8 KiB at 4 GiB + 4 KiB on 512-byte blocks: LBA 0x800008, 16 blocks */
    CHECK(nvme_rw_build(&d, NVME_OPC_WRITE, 1, 9, (4ull << 30) + 4096, 8192) == 0, "build");
    CHECK(d.opcode == 0x01 && d.nsid == 1, "opcode %u nsid %u", d.opcode, d.nsid);
    CHECK(d.cdw10 == 0x800008 && d.cdw11 == 0, "slba %x %x", d.cdw10, d.cdw11);
    CHECK(d.cdw12 == 15, "nlb 0-based: %u", d.cdw12);
    CHECK(d.data_len == 8192, "len %u", d.data_len);
    /* an LBA above 2^32 on 4 KiB blocks: 2^44 bytes = LBA 2^32 */
    CHECK(nvme_rw_build(&d, NVME_OPC_READ, 7, 12, 1ull << 44, 4096) == 0, "build high");
    CHECK(d.opcode == 0x02 && d.nsid == 7 && d.cdw10 == 0 && d.cdw11 == 1 && d.cdw12 == 0,
          "%u %u %x %x %u", d.opcode, d.nsid, d.cdw10, d.cdw11, d.cdw12);
    /* the largest: 65536 blocks; one more is refused */
    CHECK(nvme_rw_build(&d, NVME_OPC_READ, 1, 9, 0, 65536u * 512) == 0 && d.cdw12 == 65535, "max");
    CHECK(nvme_rw_build(&d, NVME_OPC_READ, 1, 9, 0, 65537u * 512) == -EINVAL, "over max");
    CHECK(nvme_rw_build(&d, NVME_OPC_READ, 1, 12, 512, 4096) == -EINVAL, "misaligned offset");
    CHECK(nvme_rw_build(&d, NVME_OPC_READ, 1, 12, 0, 512) == -EINVAL, "misaligned length");
    CHECK(nvme_rw_build(&d, NVME_OPC_READ, 1, 9, 0, 0) == -EINVAL, "empty");
}

TEST(nvme_dsm_dwords)
{
    struct nvme_rw_dwords d;
    uint8_t r[16];
    /* 64 KiB at 4 GiB + 4 KiB on 512-byte blocks: LBA 0x800008, 128 blocks */
    CHECK(nvme_dsm_build(&d, r, 3, 9, (4ull << 30) + 4096, 65536) == 0, "build");
    CHECK(d.opcode == 0x09 && d.nsid == 3 && d.cdw10 == 0 && d.cdw11 == 4 && d.data_len == 16,
          "opcode %u nsid %u nr %u attr %u len %u", d.opcode, d.nsid, d.cdw10, d.cdw11, d.data_len);
    static const uint8_t want[16] = {0, 0, 0, 0, 0x80, 0, 0, 0, 0x08, 0, 0x80, 0, 0, 0, 0, 0};
    CHECK(!memcmp(r, want, 16), "range %02x %02x %02x", r[4], r[8], r[10]);
    CHECK(nvme_dsm_build(&d, r, 1, 12, 2048, 4096) == -EINVAL, "misaligned offset");
    CHECK(nvme_dsm_build(&d, r, 1, 12, 0, 0) == -EINVAL, "empty");
}

TEST(nvme_idns_lba_size)
{
    uint8_t id[4096];
    memset(id, 0, sizeof(id));
    id[25] = 1;                   /* NLBAF: 2 formats */
    id[128 + 2] = 9;              /* format 0: 512 */
    id[128 + 4 + 2] = 12;         /* format 1: 4096 */
    CHECK(nvme_idns_lba_shift(id, sizeof(id)) == 9, "format 0");
    id[26] = 0x11;                /* FLBAS: format 1, metadata bit set */
    CHECK(nvme_idns_lba_shift(id, sizeof(id)) == 12, "format 1");
    id[26] = 0x02;                /* a format past NLBAF */
    CHECK(nvme_idns_lba_shift(id, sizeof(id)) == -1, "out of range");
    /* more than 16 formats: FLBAS bits 6:5 are bits 5:4 of the index */
    id[25] = 19;
    id[26] = 0x21;                /* index 0x11 = 17 */
    id[128 + 4 * 17 + 2] = 13;
    CHECK(nvme_idns_lba_shift(id, sizeof(id)) == 13, "format 17: %d", nvme_idns_lba_shift(id, sizeof(id)));
    CHECK(nvme_idns_lba_shift(id, 512) == -1, "short answer");
}

static const uint8_t *cdb_of(struct scsi_cmd *c, bool write, enum sg_write_mode m, bool fua,
                             uint64_t off, uint32_t len)
{
    return scsi_rw_build(c, write, m, fua, 512, off, len) == 0 ? c->cdb : NULL;
}

TEST(scsi_rw10_rw16)
{
    struct scsi_cmd c;
    /* READ(10) of 8 blocks at LBA 0x01020304 */
    const uint8_t r10[10] = {0x28, 0, 0x01, 0x02, 0x03, 0x04, 0, 0, 8, 0};
    CHECK(cdb_of(&c, false, SG_WRITE, false, 0x01020304ull * 512, 4096), "build");
    CHECK(c.cdb_len == 10 && !memcmp(c.cdb, r10, 10) && !c.to_dev && c.xfer_len == 4096, "read(10)");
    /* WRITE(10) with FUA */
    CHECK(cdb_of(&c, true, SG_WRITE, true, 512, 512) && c.cdb[0] == 0x2a && c.cdb[1] == 0x08 &&
              c.cdb[5] == 1 && c.cdb[8] == 1 && c.to_dev && c.cdb_len == 10, "write(10) fua");
    /* LBA 0xffffffff is not below the (10) limit: READ(16) */
    const uint8_t r16[16] = {0x88, 0, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0, 0, 0, 1, 0, 0};
    CHECK(cdb_of(&c, false, SG_WRITE, false, 0xffffffffull * 512, 512), "build 16");
    CHECK(c.cdb_len == 16 && !memcmp(c.cdb, r16, 16), "read(16)");
    /* a count over 0xffff blocks needs (16) too */
    CHECK(cdb_of(&c, true, SG_WRITE, false, 0, 0x10000u * 512) && c.cdb[0] == 0x8a &&
              c.cdb[11] == 1 && c.cdb[12] == 0 && c.cdb[13] == 0, "write(16) by count");
    CHECK(scsi_rw_build(&c, false, SG_WRITE, false, 4096, 512, 4096) == -EINVAL, "misaligned");
    CHECK(scsi_rw_build(&c, false, SG_WRITE, false, 4096, 0, 0) == -EINVAL, "empty");
}

TEST(scsi_write_modes)
{
    struct scsi_cmd c;
    CHECK(cdb_of(&c, true, SG_WRITE_VERIFY, false, 0, 4096) && c.cdb[0] == 0x2e && c.cdb[1] == 0 &&
              c.xfer_len == 4096, "write and verify(10)");
    CHECK(cdb_of(&c, true, SG_WRITE_VERIFY, false, 0x100000000ull * 512, 4096) && c.cdb[0] == 0x8e,
          "write and verify(16)");
    CHECK(cdb_of(&c, true, SG_WRITE_SAME, false, 0, 4096) && c.cdb[0] == 0x41 && c.xfer_len == 512 &&
              c.cdb[8] == 8, "write same(10): one block sent, 8 written");
    CHECK(cdb_of(&c, true, SG_WRITE_SAME, false, 0x100000000ull * 512, 4096) && c.cdb[0] == 0x93 &&
              c.xfer_len == 512 && c.cdb[13] == 8, "write same(16)");
    CHECK(cdb_of(&c, true, SG_WRITE_SAME_NDOB, false, 512, 19 * 512) && c.cdb[0] == 0x93 &&
              c.cdb[1] == 0x01 && c.cdb_len == 16 && c.xfer_len == 0 && c.cdb[9] == 1 && c.cdb[13] == 19,
          "write same(16) ndob");
    CHECK(cdb_of(&c, true, SG_VERIFY_BYTCHK_00, false, 0, 4096) && c.cdb[0] == 0x2f && c.cdb[1] == 0 &&
              c.xfer_len == 0, "verify bytchk 00");
    CHECK(cdb_of(&c, true, SG_VERIFY_BYTCHK_01, false, 0, 4096) && c.cdb[1] == 0x02 && c.xfer_len == 4096,
          "verify bytchk 01");
    CHECK(cdb_of(&c, true, SG_VERIFY_BYTCHK_11, false, 0, 4096) && c.cdb[1] == 0x06 && c.xfer_len == 512,
          "verify bytchk 11");
    CHECK(cdb_of(&c, true, SG_VERIFY_BYTCHK_01, false, 0x100000000ull * 512, 512) && c.cdb[0] == 0x8f,
          "verify(16)");
}

TEST(scsi_readcap16)
{
    struct scsi_cmd c;
    scsi_readcap16_build(&c);
    const uint8_t want[16] = {0x9e, 0x10, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 32, 0, 0};
    CHECK(c.cdb_len == 16 && !memcmp(c.cdb, want, 16) && c.xfer_len == 32 && !c.to_dev, "cdb");
    uint8_t a[32] = {0, 0, 0, 0, 0, 0x03, 0xff, 0xff, 0, 0, 0x10, 0};
    uint64_t blocks;
    uint32_t bs;
    CHECK(scsi_readcap16_parse(a, sizeof(a), &blocks, &bs) == 0 && blocks == 0x40000 && bs == 4096,
          "%llu %u", (unsigned long long)blocks, bs);
    a[10] = 0;
    CHECK(scsi_readcap16_parse(a, sizeof(a), &blocks, &bs) == -1, "block length 0");
    CHECK(scsi_readcap16_parse(a, 8, &blocks, &bs) == -1, "short");
    scsi_sync_build(&c);
    CHECK(c.cdb[0] == 0x35 && c.cdb_len == 10 && c.xfer_len == 0, "synchronize cache");
}

TEST(ng_disk_names)
{
    char d[32];
    CHECK(chardev_ng_disk("ng0n1", d, sizeof(d)) == 0 && !strcmp(d, "nvme0n1"), "%s", d);
    CHECK(chardev_ng_disk("ng12n3", d, sizeof(d)) == 0 && !strcmp(d, "nvme12n3"), "%s", d);
    CHECK(chardev_ng_disk("ng0c1n1", d, sizeof(d)) == -1, "per-path node");
    CHECK(chardev_ng_disk("ng0n1p1", d, sizeof(d)) == -1, "trailing text");
    CHECK(chardev_ng_disk("sg0", d, sizeof(d)) == -1, "not nvme");
}

TEST(engine_options)
{
    struct job_spec j;
    struct job_extra x;
    char e[256];
    job_defaults(&j);
    job_extra_defaults(&x);
    CHECK(job_set_option(&j, &x, "ioengine", "io_uring_cmd", e, sizeof(e)) == 0 &&
              j.engine == ENGINE_URING_CMD, "%s", e);
    CHECK(!strcmp(job_engine_name(j.engine), "io_uring_cmd"), "name");
    CHECK(job_set_option(&j, &x, "cmd_type", "nvme", e, sizeof(e)) == 0, "%s", e);
    CHECK(job_set_option(&j, &x, "cmd_type", "scsi", e, sizeof(e)) == -ENOTSUP && strstr(e, "scsi"), "%s", e);
    CHECK(job_set_option(&j, &x, "ioengine", "sg", e, sizeof(e)) == 0 && j.engine == ENGINE_SG, "%s", e);
    CHECK(j.sg.write_mode == SG_WRITE && !j.sg.readfua && !j.sg.writefua, "defaults");
    static const struct {
        const char *v;
        enum sg_write_mode m;
    } modes[] = {{"write_and_verify", SG_WRITE_VERIFY}, {"verify", SG_WRITE_VERIFY},
                 {"write_same", SG_WRITE_SAME},         {"same", SG_WRITE_SAME},
                 {"write_same_ndob", SG_WRITE_SAME_NDOB}, {"verify_bytchk_00", SG_VERIFY_BYTCHK_00},
                 {"verify_bytchk_01", SG_VERIFY_BYTCHK_01}, {"verify_bytchk_11", SG_VERIFY_BYTCHK_11},
                 {"write", SG_WRITE}};
    for (unsigned i = 0; i < sizeof(modes) / sizeof(modes[0]); i++)
        CHECK(job_set_option(&j, &x, "sg_write_mode", modes[i].v, e, sizeof(e)) == 0 &&
                  j.sg.write_mode == modes[i].m, "%s: %s", modes[i].v, e);
    CHECK(job_set_option(&j, &x, "sg_write_mode", "write_stream", e, sizeof(e)) == -ENOTSUP, "%s", e);
    CHECK(job_set_option(&j, &x, "sg_write_mode", "wrte", e, sizeof(e)) == -EINVAL && strstr(e, "wrte"), "%s", e);
    CHECK(job_set_option(&j, &x, "readfua", "1", e, sizeof(e)) == 0 && j.sg.readfua, "%s", e);
    CHECK(job_set_option(&j, &x, "writefua", "1", e, sizeof(e)) == 0 && j.sg.writefua, "%s", e);
}

CHECK_MAIN()
