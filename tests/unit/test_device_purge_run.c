/* test_device_purge_run.c - the purge and write-cache command streams
 * (device/device_purge.h) on a mock at the ioctl boundary (struct
 * devio_ops): which ioctls, with which bytes, in which order, the sanitize
 * polling and its timeout, the ATA temporary password cleared after a
 * failed erase, the other-namespace scan; that a command is only sent to a
 * device of its own kind; and prep_purge on a real loop device, which
 * must choose the block layer and never reach the mock. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <linux/nvme_ioctl.h>
#include <scsi/sg.h>

#include "base/signal.h"
#include "check.h"
#include "device_fixture.h"
#include "device/device_purge.h"
#include "prep/prep_purge.h"

#define MAXCALLS 64

struct call {
    unsigned long req;
    uint8_t opcode;             /* NVMe opcode or the CDB's first byte */
    uint32_t nsid, cdw10, cdw11, timeout;
    uint8_t cdb[16];
    uint8_t data[64];           /* the first bytes sent (data-out) */
    int dir;
};

struct mock {
    struct call calls[MAXCALLS];
    unsigned n;
    uint64_t now;
    unsigned sleeps;
    /* scripted answers */
    unsigned san_state[16];     /* the sanitize log's state at each read */
    unsigned nsan, san_reads;
    int fail_opcode;            /* NVMe opcode or ATA command that fails (-1 none) */
    uint32_t ns_list[8];
    uint64_t ns_nuse[8];
    uint32_t vwc;
    uint16_t ata_status_count[8];
    unsigned nata_status, ata_status_reads;
};

static int mock_ioctl(void *ctx, int fd, unsigned long req, void *arg)
{
    (void)fd;
    struct mock *m = ctx;
    struct call *c = m->n < MAXCALLS ? &m->calls[m->n++] : &m->calls[MAXCALLS - 1];
    memset(c, 0, sizeof(*c));
    c->req = req;
    if (req == NVME_IOCTL_ADMIN_CMD) {
        struct nvme_admin_cmd *a = arg;
        c->opcode = a->opcode;
        c->nsid = a->nsid;
        c->cdw10 = a->cdw10;
        c->cdw11 = a->cdw11;
        c->timeout = a->timeout_ms;
        if (m->fail_opcode == a->opcode)
            return 0x4002;      /* an NVMe status */
        uint8_t *buf = (uint8_t *)(uintptr_t)a->addr;
        if (a->opcode == NVME_OP_GET_LOG && (a->cdw10 & 0xff) == NVME_LID_SANITIZE) {
            memset(buf, 0, a->data_len);
            unsigned k = m->san_reads < m->nsan ? m->san_reads : m->nsan - 1;
            m->san_reads++;
            buf[0] = 0x00; buf[1] = (uint8_t)(0x40 * (k + 1)); /* progress grows */
            buf[2] = (uint8_t)m->san_state[k];
            buf[12] = 120;       /* block erase estimate 120 s */
            buf[16] = buf[17] = buf[18] = buf[19] = 0xff;
        } else if (a->opcode == NVME_OP_IDENTIFY && (a->cdw10 & 0xff) == 0x02) {
            memset(buf, 0, a->data_len);
            for (unsigned i = 0; i < 8 && m->ns_list[i]; i++)
                memcpy(buf + 4 * i, &m->ns_list[i], 4);
        } else if (a->opcode == NVME_OP_IDENTIFY && (a->cdw10 & 0xff) == 0x00) {
            memset(buf, 0, a->data_len);
            for (unsigned i = 0; i < 8; i++)
                if (m->ns_list[i] == a->nsid)
                    for (int b = 0; b < 8; b++)
                        buf[16 + b] = (uint8_t)(m->ns_nuse[i] >> (8 * b));
        } else if (a->opcode == NVME_OP_GET_FEATURES) {
            a->result = m->vwc;
        }
        return 0;
    }
    if (req == SG_IO) {
        struct sg_io_hdr *h = arg;
        memcpy(c->cdb, h->cmdp, h->cmd_len < 16 ? h->cmd_len : 16);
        c->opcode = c->cdb[0];
        c->timeout = h->timeout;
        c->dir = h->dxfer_direction;
        if (h->dxfer_direction == SG_DXFER_TO_DEV && h->dxferp)
            memcpy(c->data, h->dxferp, h->dxfer_len < 64 ? h->dxfer_len : 64);
        h->status = 0;
        h->host_status = 0;
        h->driver_status = 0;
        uint8_t cmd = c->cdb[0] == 0x85 ? c->cdb[14] : 0;
        if (cmd && m->fail_opcode == cmd) {
            h->status = 2;      /* CHECK CONDITION, aborted command */
            uint8_t *s = h->sbp;
            s[0] = 0x72; s[1] = 0x0b; s[2] = 0x00; s[3] = 0x00;
            return 0;
        }
        if (cmd == ATA_CMD_SANITIZE && c->cdb[4] == 0x00 && (c->cdb[2] & 0x20)) {
            /* SANITIZE STATUS EXT with ck_cond: the registers in descriptor sense */
            unsigned k = m->ata_status_reads < m->nata_status ? m->ata_status_reads : m->nata_status - 1;
            m->ata_status_reads++;
            uint16_t cnt = m->ata_status_count[k];
            uint8_t *s = h->sbp;
            memset(s, 0, h->mx_sb_len);
            s[0] = 0x72; s[1] = 0x01; s[2] = 0x00; s[3] = 0x1d; s[7] = 14;
            s[8] = 0x09; s[9] = 0x0c; s[10] = 0x01;
            s[12] = (uint8_t)(cnt >> 8); s[13] = (uint8_t)cnt;
            s[15] = 0x00; s[17] = 0x80;                 /* progress 0x8000 */
            s[21] = 0x50;                                /* status: ready */
            h->status = 2;
        }
        return 0;
    }
    errno = ENOTTY;
    return -1;
}

static void mock_sleep(void *ctx, unsigned ms)
{
    struct mock *m = ctx;
    m->sleeps++;
    m->now += ms;
}

static uint64_t mock_now(void *ctx)
{
    return ((struct mock *)ctx)->now;
}

static void mock_init(struct mock *m, struct devio_ops *ops)
{
    memset(m, 0, sizeof(*m));
    m->fail_opcode = -1;
    m->now = 1000;
    *ops = (struct devio_ops){mock_ioctl, mock_sleep, mock_now, m};
}

static bool nvme_di(const char *ctrl, struct device_info *di)
{
    memset(di, 0, sizeof(*di));
    snprintf(di->name, sizeof(di->name), "nvme0n1");
    snprintf(di->disk, sizeof(di->disk), "nvme0n1");
    snprintf(di->dev_node, sizeof(di->dev_node), "/dev/nvme0n1");
    di->bus = DEV_BUS_NVME;
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
    uint8_t b[ATA_SECTOR_BYTES];
    if (fixture_load(ident, b, sizeof(b)) != ATA_SECTOR_BYTES || ata_parse_identity(b, sizeof(b), &di->id.ata_id))
        return false;
    di->id.ata = true;
    return true;
}

TEST(nvme_sanitize_polls_to_completion)
{
    struct mock m;
    struct devio_ops ops;
    mock_init(&m, &ops);
    /* before: never sanitized; then running, running, done */
    unsigned st[] = {NVME_SAN_NEVER, NVME_SAN_RUNNING, NVME_SAN_RUNNING, NVME_SAN_DONE};
    memcpy(m.san_state, st, sizeof(st));
    m.nsan = 4;
    struct device_info di;
    CHECK(nvme_di("nvme_id_ctrl.bin", &di), "fixture");
    struct devpurge_opts o = {.poll_ms = 500};
    struct devpurge_result r;
    char err[256] = "";
    int rc = devpurge_run(3, &di, DEVPURGE_NVME_SANITIZE_BLOCK, &ops, &o, &r, err, sizeof(err));
    CHECK(rc == 0, "rc %d: %s", rc, err);
    CHECK(m.n == 5, "calls %u: log, sanitize, 3 logs", m.n);
    CHECK(m.calls[0].opcode == 0x02 && m.calls[0].cdw10 == (127u << 16 | 0x81), "status log first");
    CHECK(m.calls[1].req == NVME_IOCTL_ADMIN_CMD && m.calls[1].opcode == 0x84, "sanitize opcode");
    CHECK(m.calls[1].cdw10 == 0x2 && m.calls[1].nsid == 0 && m.calls[1].cdw11 == 0, "cdw10 %08x",
          m.calls[1].cdw10);
    for (unsigned i = 2; i < 5; i++)
        CHECK(m.calls[i].opcode == 0x02 && (m.calls[i].cdw10 & 0xff) == 0x81, "poll %u", i);
    CHECK(r.polls == 3 && m.sleeps == 3, "polls %u sleeps %u", r.polls, m.sleeps);
    CHECK(r.elapsed_s == 1.5, "elapsed %.3f (3 polls of 0.5 s)", r.elapsed_s);
    CHECK(r.estimate_s == 120, "estimate %.0f", r.estimate_s);
}

TEST(nvme_sanitize_timeout_and_failure)
{
    struct mock m;
    struct devio_ops ops;
    mock_init(&m, &ops);
    m.san_state[0] = NVME_SAN_NEVER;
    m.san_state[1] = NVME_SAN_RUNNING;
    m.nsan = 2;
    struct device_info di;
    CHECK(nvme_di("nvme_id_ctrl.bin", &di), "fixture");
    struct devpurge_opts o = {.poll_ms = 1000, .timeout_ms = 5000};
    struct devpurge_result r;
    char err[256] = "";
    int rc = devpurge_run(3, &di, DEVPURGE_NVME_SANITIZE_BLOCK, &ops, &o, &r, err, sizeof(err));
    CHECK(rc == -ETIMEDOUT, "rc %d", rc);
    CHECK(r.polls == 5, "polls %u", r.polls);
    CHECK(strstr(err, "still running after 5 s") != NULL, "message: %s", err);
    /* the default timeout: twice the device's estimate (120 s) + 10 min */
    mock_init(&m, &ops);
    m.san_state[0] = NVME_SAN_NEVER;
    m.san_state[1] = NVME_SAN_RUNNING;
    m.nsan = 2;
    o.timeout_ms = 0;
    rc = devpurge_run(3, &di, DEVPURGE_NVME_SANITIZE_BLOCK, &ops, &o, &r, err, sizeof(err));
    CHECK(rc == -ETIMEDOUT && r.polls == 840, "default timeout: %u polls", r.polls);
    /* a failed sanitize */
    mock_init(&m, &ops);
    m.san_state[0] = NVME_SAN_NEVER;
    m.san_state[1] = NVME_SAN_RUNNING;
    m.san_state[2] = NVME_SAN_FAILED;
    m.nsan = 3;
    rc = devpurge_run(3, &di, DEVPURGE_NVME_SANITIZE_CRYPTO, &ops, &o, &r, err, sizeof(err));
    CHECK(rc == -EIO && strstr(err, "failed"), "failed: %d %s", rc, err);
    CHECK(m.calls[1].cdw10 == 0x4, "crypto erase cdw10 %08x", m.calls[1].cdw10);
    /* one already running: not started again */
    mock_init(&m, &ops);
    m.san_state[0] = NVME_SAN_RUNNING;
    m.nsan = 1;
    rc = devpurge_run(3, &di, DEVPURGE_NVME_SANITIZE_BLOCK, &ops, &o, &r, err, sizeof(err));
    CHECK(rc == -EBUSY && m.n == 1, "running: %d after %u calls", rc, m.n);
}

TEST(nvme_format_bytes)
{
    struct mock m;
    struct devio_ops ops;
    mock_init(&m, &ops);
    struct device_info di;
    CHECK(nvme_di("nvme_id_ctrl_format.bin", &di), "fixture");
    struct devpurge_result r;
    char err[256] = "";
    CHECK(devpurge_run(3, &di, DEVPURGE_NVME_FORMAT_ERASE, &ops, NULL, &r, err, sizeof(err)) == 0, "%s", err);
    CHECK(m.n == 1 && m.calls[0].opcode == 0x80 && m.calls[0].nsid == 1, "format namespace 1");
    CHECK(m.calls[0].cdw10 == 0x211, "cdw10 %08x: SES 1, format 1, MSET", m.calls[0].cdw10);
    mock_init(&m, &ops);
    CHECK(nvme_di("nvme_id_ctrl_format_all.bin", &di), "fixture");
    CHECK(devpurge_run(3, &di, DEVPURGE_NVME_FORMAT_ERASE, &ops, NULL, &r, err, sizeof(err)) == 0, "%s", err);
    CHECK(m.calls[0].nsid == 0xffffffffu, "all namespaces: nsid %08x", m.calls[0].nsid);
    mock_init(&m, &ops);
    m.fail_opcode = 0x80;
    CHECK(devpurge_run(3, &di, DEVPURGE_NVME_FORMAT_ERASE, &ops, NULL, &r, err, sizeof(err)) == -EIO, "refused");
    CHECK(strstr(err, "status 0x4002") != NULL, "status named: %s", err);
}

TEST(ata_security_erase_sequence)
{
    struct mock m;
    struct devio_ops ops;
    mock_init(&m, &ops);
    struct device_info di;
    CHECK(ata_di("ata_identify_sec.bin", &di), "fixture");
    struct devpurge_result r;
    char err[256] = "";
    int rc = devpurge_run(3, &di, DEVPURGE_ATA_SECURITY_ERASE, &ops, NULL, &r, err, sizeof(err));
    CHECK(rc == 0, "rc %d %s", rc, err);
    CHECK(m.n == 3, "3 commands, %u", m.n);
    CHECK(m.calls[0].req == SG_IO && m.calls[0].cdb[0] == 0x85 && m.calls[0].cdb[14] == 0xf1, "SET PASSWORD");
    CHECK(m.calls[0].dir == SG_DXFER_TO_DEV && m.calls[0].cdb[1] == (5 << 1), "PIO data-out");
    CHECK(m.calls[0].data[0] == 0 && m.calls[0].data[1] == 0, "user password, high level");
    CHECK(!memcmp(m.calls[0].data + 2, DEVPURGE_ATA_PASSWORD, strlen(DEVPURGE_ATA_PASSWORD)), "password");
    CHECK(m.calls[1].cdb[14] == 0xf3 && m.calls[1].dir == SG_DXFER_NONE && m.calls[1].cdb[1] == (3 << 1),
          "ERASE PREPARE, non-data");
    CHECK(m.calls[2].cdb[14] == 0xf4 && m.calls[2].data[0] == 0, "ERASE UNIT normal");
    CHECK(!memcmp(m.calls[2].data + 2, DEVPURGE_ATA_PASSWORD, strlen(DEVPURGE_ATA_PASSWORD)), "same password");
    /* the fixture's 60-minute estimate: twice that and 10 minutes */
    CHECK(m.calls[2].timeout == (60u * 2 + 10) * 60000u, "timeout %u ms", m.calls[2].timeout);
    CHECK(r.estimate_s == 3600, "estimate %.0f", r.estimate_s);
    /* the erase fails: the temporary password is disabled again */
    mock_init(&m, &ops);
    m.fail_opcode = 0xf4;
    rc = devpurge_run(3, &di, DEVPURGE_ATA_SECURITY_ERASE, &ops, NULL, &r, err, sizeof(err));
    CHECK(rc == -EIO, "rc %d", rc);
    CHECK(m.n == 4 && m.calls[3].cdb[14] == 0xf6, "DISABLE PASSWORD after the failure (%u calls)", m.n);
    CHECK(!memcmp(m.calls[3].data + 2, DEVPURGE_ATA_PASSWORD, strlen(DEVPURGE_ATA_PASSWORD)), "disable password");
    CHECK(strstr(err, "SECURITY ERASE UNIT") != NULL, "step named: %s", err);
}

TEST(ata_sanitize_polls_status)
{
    struct mock m;
    struct devio_ops ops;
    mock_init(&m, &ops);
    m.ata_status_count[0] = 0x4000;   /* in progress */
    m.ata_status_count[1] = 0x4000;
    m.ata_status_count[2] = 0x8000;   /* completed without error */
    m.nata_status = 3;
    struct device_info di;
    CHECK(ata_di("ata_identify_frozen.bin", &di), "fixture");
    struct devpurge_opts o = {.poll_ms = 2000};
    struct devpurge_result r;
    char err[256] = "";
    int rc = devpurge_run(3, &di, DEVPURGE_ATA_SANITIZE_BLOCK, &ops, &o, &r, err, sizeof(err));
    CHECK(rc == 0, "rc %d %s", rc, err);
    CHECK(m.n == 4, "sanitize + 3 status reads: %u", m.n);
    CHECK(m.calls[0].cdb[14] == 0xb4 && m.calls[0].cdb[4] == 0x12 && (m.calls[0].cdb[1] & 1), "BLOCK ERASE EXT");
    CHECK(m.calls[0].cdb[7] == 0x42 && m.calls[0].cdb[8] == 0x72, "key");
    CHECK(m.calls[1].cdb[4] == 0x00 && (m.calls[1].cdb[2] & 0x20), "STATUS EXT with ck_cond");
    CHECK(r.polls == 3 && r.elapsed_s == 6.0, "polls %u elapsed %.1f", r.polls, r.elapsed_s);
}

TEST(command_only_for_a_matching_device)
{
    struct mock m;
    struct devio_ops ops;
    mock_init(&m, &ops);
    struct device_info di;
    memset(&di, 0, sizeof(di));
    snprintf(di.name, sizeof(di.name), "loop0");
    snprintf(di.disk, sizeof(di.disk), "loop0");
    di.bus = DEV_BUS_VIRTUAL;
    struct devpurge_result r;
    char err[256];
    static const enum devpurge_method all[] = {
        DEVPURGE_NVME_SANITIZE_BLOCK, DEVPURGE_NVME_SANITIZE_CRYPTO, DEVPURGE_NVME_FORMAT_ERASE,
        DEVPURGE_ATA_SECURITY_ERASE,  DEVPURGE_ATA_SANITIZE_BLOCK,   DEVPURGE_ATA_SANITIZE_CRYPTO,
        DEVPURGE_SCSI_SANITIZE_BLOCK, DEVPURGE_SCSI_FORMAT_UNIT,     DEVPURGE_DISCARD};
    for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++)
        CHECK(devpurge_run(3, &di, all[i], &ops, NULL, &r, err, sizeof(err)) == -EINVAL, "%s on loop",
              devpurge_method_name(all[i]));
    CHECK(nvme_di("nvme_id_ctrl.bin", &di), "fixture");
    CHECK(devpurge_run(3, &di, DEVPURGE_ATA_SECURITY_ERASE, &ops, NULL, &r, err, sizeof(err)) == -EINVAL,
          "ATA on NVMe");
    di.id.nvme = false;
    CHECK(devpurge_run(3, &di, DEVPURGE_NVME_SANITIZE_BLOCK, &ops, NULL, &r, err, sizeof(err)) == -EINVAL,
          "NVMe without identify");
    CHECK(ata_di("ata_identify_sec.bin", &di), "fixture");
    CHECK(devpurge_run(3, &di, DEVPURGE_NVME_FORMAT_ERASE, &ops, NULL, &r, err, sizeof(err)) == -EINVAL,
          "NVMe on ATA");
    CHECK(m.n == 0, "no ioctl reached: %u", m.n);
    CHECK(devwc_set(3, &(struct device_info){.bus = DEV_BUS_VIRTUAL}, &ops, true, err, sizeof(err)) ==
              -EOPNOTSUPP && m.n == 0,
          "no write-cache command on a virtual device");
}

TEST(other_namespaces_listed)
{
    struct mock m;
    struct devio_ops ops;
    mock_init(&m, &ops);
    m.ns_list[0] = 1;
    m.ns_list[1] = 2;
    m.ns_list[2] = 5;
    m.ns_nuse[1] = 0;
    m.ns_nuse[2] = 4242;
    struct device_info di;
    CHECK(nvme_di("nvme_id_ctrl.bin", &di), "fixture");
    uint32_t ids[8];
    uint64_t nuse[8];
    int n = devpurge_nvme_other_namespaces(3, &di, &ops, ids, nuse, 8);
    CHECK(n == 2, "two others, %d", n);
    CHECK(ids[0] == 2 && nuse[0] == 0 && ids[1] == 5 && nuse[1] == 4242, "ids %u %u nuse %llu %llu", ids[0],
          ids[1], (unsigned long long)nuse[0], (unsigned long long)nuse[1]);
    CHECK(m.calls[0].opcode == 0x06 && m.calls[0].cdw10 == 0x02, "CNS 02h first");
    CHECK(m.calls[1].cdw10 == 0x00 && m.calls[1].nsid == 2 && m.calls[2].nsid == 5, "CNS 00h per namespace");
}

TEST(write_cache_commands)
{
    struct mock m;
    struct devio_ops ops;
    mock_init(&m, &ops);
    struct device_info di;
    char err[256] = "";
    CHECK(nvme_di("nvme_id_ctrl.bin", &di), "fixture");
    m.vwc = 1;
    CHECK(devwc_get(3, &di, &ops) == 1, "nvme get");
    CHECK(m.calls[0].opcode == 0x0a && m.calls[0].cdw10 == 0x06, "Get Features 06h");
    CHECK(devwc_set(3, &di, &ops, false, err, sizeof(err)) == 0, "%s", err);
    CHECK(m.calls[1].opcode == 0x09 && m.calls[1].cdw10 == 0x06 && m.calls[1].cdw11 == 0, "Set Features off");
    CHECK(ata_di("ata_identify.bin", &di), "fixture");
    mock_init(&m, &ops);
    CHECK(devwc_set(3, &di, &ops, true, err, sizeof(err)) == 0, "%s", err);
    CHECK(m.calls[0].cdb[14] == 0xef && m.calls[0].cdb[4] == 0x02, "SET FEATURES 02h");
    CHECK(devwc_set(3, &di, &ops, false, err, sizeof(err)) == 0 && m.calls[1].cdb[4] == 0x82, "82h");
}

/* prep_purge on a loop device of our own: the block layer's discard, and
 * no ioctl through the device table. */
TEST(loop_device_chooses_discard)
{
    if (geteuid() != 0) {
        printf("note: not root, loop device part not run\n");
        return;
    }
    char img[] = "/dev/shm/ssdbench-purge-XXXXXX";
    int fd = mkstemp(img);
    CHECK(fd >= 0, "mkstemp");
    CHECK(ftruncate(fd, 16 << 20) == 0, "truncate");
    close(fd);
    char cmd[256], dev[64] = "";
    snprintf(cmd, sizeof(cmd), "losetup --find --show %s", img);
    FILE *p = popen(cmd, "r");
    if (p) {
        if (!fgets(dev, sizeof(dev), p))
            dev[0] = 0;
        pclose(p);
    }
    dev[strcspn(dev, "\n")] = 0;
    if (!dev[0]) {
        unlink(img);
        CHECK(0, "losetup failed");
    }
    struct mock m;
    struct devio_ops ops;
    mock_init(&m, &ops);
    const char *paths[1] = {dev};
    struct guard_consent c = {.n = 1, .paths = {paths[0]}, .option = "--destroy"};
    struct rpurge_opts o = {.consent = &c, .ops = &ops};
    struct rpurge_report r;
    char err[512] = "";
    int rc = prep_purge(dev, &o, &r, err, sizeof(err));
    snprintf(cmd, sizeof(cmd), "losetup -d %s", dev);
    int drc = system(cmd);
    unlink(img);
    CHECK(drc == 0, "detach");
    CHECK(rc == 0, "purge: %s", err);
    CHECK(r.r.method == PURGE_DISCARD && !r.device_command, "method %s", purge_method_name(r.r.method));
    CHECK(strstr(r.considered, "virtual") != NULL, "considered: %s", r.considered);
    CHECK(m.n == 0, "the device table was not reached (%u calls)", m.n);
}

/* Last: raises the stop flag, which stays set for the rest of the process. */
TEST(signal_stops_the_wait_not_the_device)
{
    struct mock m;
    struct devio_ops ops;
    mock_init(&m, &ops);
    m.san_state[0] = NVME_SAN_NEVER;
    m.san_state[1] = NVME_SAN_RUNNING;
    m.nsan = 2;
    struct device_info di;
    CHECK(nvme_di("nvme_id_ctrl.bin", &di), "fixture");
    signal_raise_stop(SIGINT);
    struct devpurge_opts o = {.poll_ms = 1000};
    struct devpurge_result r;
    char err[256] = "";
    int rc = devpurge_run(3, &di, DEVPURGE_NVME_SANITIZE_BLOCK, &ops, &o, &r, err, sizeof(err));
    CHECK(rc == -EINTR && r.polls == 1, "rc %d after %u polls", rc, r.polls);
    CHECK(m.calls[1].opcode == 0x84, "the sanitize was sent before the signal was seen");
    CHECK(strstr(err, "SIGINT") && strstr(err, "goes on"), "message: %s", err);
}

CHECK_MAIN()
