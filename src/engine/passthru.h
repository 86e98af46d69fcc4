/* passthru.h - the device commands the passthrough engines build: NVMe
 * Read/Write/Flush/Dataset Management dwords (engine_uring_cmd.c) and SCSI
 * CDBs (engine_sg.c),
 * plus the answers they parse (Identify Namespace's LBA format, READ
 * CAPACITY(16)). Pure functions on bytes, no I/O, so each field can be
 * checked by a unit test. */
#ifndef SSDBENCH_PASSTHRU_H
#define SSDBENCH_PASSTHRU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/engine_opts.h"

/* NVMe I/O command opcodes (NVM command set) */
#define NVME_OPC_FLUSH 0x00
#define NVME_OPC_WRITE 0x01
#define NVME_OPC_READ 0x02
#define NVME_OPC_DSM 0x09

/* The command dwords ssdbench sets: CDW10/11 the starting LBA (low, high),
 * CDW12 bits 15:0 the number of logical blocks, 0-based. */
struct nvme_rw_dwords {
    uint8_t opcode;
    uint32_t nsid;
    uint32_t cdw10, cdw11, cdw12;
    uint32_t data_len;
};

/* A Read or Write of len bytes at byte offset off on a namespace with
 * 2^lba_shift byte blocks. Returns 0, or -EINVAL when off or len is not a
 * whole number of blocks, len is 0 or over 65536 blocks. */
int nvme_rw_build(struct nvme_rw_dwords *d, uint8_t opcode, uint32_t nsid, unsigned lba_shift,
                  uint64_t off, uint32_t len);

/* A trim of len bytes at byte offset off: Dataset Management with one range
 * (CDW10 NR = 0) and the Attribute Deallocate bit (CDW11 bit 2); the range
 * (16 bytes, little-endian: context attributes 0, the number of blocks,
 * the starting LBA) goes into range16, and d->data_len is 16. Returns 0, or
 * -EINVAL when off or len is not a whole number of blocks or len is 0. */
int nvme_dsm_build(struct nvme_rw_dwords *d, uint8_t range16[16], uint32_t nsid, unsigned lba_shift,
                   uint64_t off, uint32_t len);

/* The LBA data size of the namespace's current format from a 4096-byte
 * Identify Namespace answer: FLBAS (byte 26: bits 3:0, and 6:5 as bits
 * 5:4 of the index when NLBAF > 16) picks an LBA format (bytes 128 + 4i);
 * its LBADS (byte 2 of it) is the shift. Returns the shift (9..16), or -1
 * when the answer names none in range. */
int nvme_idns_lba_shift(const uint8_t *idns, size_t len);

/* enum sg_write_mode: engine/engine_opts.h (fio's sg_write_mode values) */

/* What one SCSI command carries: its CDB, and the bytes sent or received
 * (xfer_len, at most the I/O's length; 0 = no data). */
struct scsi_cmd {
    uint8_t cdb[16];
    uint8_t cdb_len;
    bool to_dev;        /* data out (else in, or none when xfer_len is 0) */
    uint32_t xfer_len;
};

#define SCSI_MAX_10B_LBA 0xffffffffull /* READ/WRITE(10) address below this */

/* A read (write = false) or, per mode, a write of len bytes at byte offset
 * off on a disk of block_size byte blocks: the (10) form while the LBA is
 * below 2^32 - 1 and the count fits 16 bits (WRITE SAME with NDOB is (16)
 * only), else the (16) form; FUA when fua. Returns 0, or -EINVAL when off or
 * len is not a whole number of blocks or len is 0. */
int scsi_rw_build(struct scsi_cmd *c, bool write, enum sg_write_mode mode, bool fua,
                  uint32_t block_size, uint64_t off, uint32_t len);

/* SYNCHRONIZE CACHE(10) of the whole medium */
void scsi_sync_build(struct scsi_cmd *c);

/* READ CAPACITY(16) (SERVICE ACTION IN(16), 10h), asking for 32 bytes */
void scsi_readcap16_build(struct scsi_cmd *c);
/* Its answer: the last LBA + 1 and the block length. Returns 0, or -1
 * when the answer is short or names a block length of 0. */
int scsi_readcap16_parse(const uint8_t *buf, size_t len, uint64_t *blocks, uint32_t *block_size);

#endif
