/* device_purge.c - see device_purge.h. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <linux/nvme_ioctl.h>
#include <scsi/sg.h>

#include "base/signal.h"
#include "device/device_purge.h"

/* ---- the real ioctl ------------------------------------------------------------ */

static int real_ioctl(void *ctx, int fd, unsigned long req, void *arg)
{
    (void)ctx;
    return ioctl(fd, req, arg);
}

static void real_sleep(void *ctx, unsigned ms)
{
    (void)ctx;
    struct timespec ts = {.tv_sec = ms / 1000, .tv_nsec = (long)(ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
        ;
}

static uint64_t real_now(void *ctx)
{
    (void)ctx;
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

static const struct devio_ops real_ops = {real_ioctl, real_sleep, real_now, NULL};

const struct devio_ops *devio_real(void)
{
    return &real_ops;
}

/* ---- NVMe ------------------------------------------------------------------------- */

/* 0, -errno, or -EIO with the NVMe status in *nvme_status. */
static int nvme_send(int fd, const struct devio_ops *ops, const struct nvme_cmd_bytes *b,
                     void *buf, uint32_t *result, int *nvme_status)
{
    struct nvme_admin_cmd c;
    memset(&c, 0, sizeof(c));
    c.opcode = b->opcode;
    c.nsid = b->nsid;
    c.cdw10 = b->cdw10;
    c.cdw11 = b->cdw11;
    c.addr = (uint64_t)(uintptr_t)buf;
    c.data_len = b->data_len;
    c.timeout_ms = b->timeout_ms;
    int rc = ops->ioctl(ops->ctx, fd, NVME_IOCTL_ADMIN_CMD, &c);
    if (nvme_status)
        *nvme_status = rc > 0 ? rc : 0;
    if (rc < 0)
        return -errno ? -errno : -EIO;
    if (rc > 0)
        return -EIO;
    if (result)
        *result = c.result;
    return 0;
}

static int sanitize_log(int fd, const struct devio_ops *ops, struct nvme_sanitize_log *l)
{
    uint8_t buf[512];
    memset(buf, 0, sizeof(buf));
    struct nvme_cmd_bytes b;
    nvme_get_log_cmd(NVME_LID_SANITIZE, sizeof(buf), &b);
    int rc = nvme_send(fd, ops, &b, buf, NULL, NULL);
    if (rc == 0)
        rc = nvme_parse_sanitize_log(buf, sizeof(buf), l);
    return rc;
}

static void say(const struct devpurge_opts *o, const char *fmt, double a, double b)
{
    if (!o || !o->progress)
        return;
    char line[160];
    snprintf(line, sizeof(line), fmt, a, b);
    o->progress(o->arg, line);
}

static uint64_t timeout_of(const struct devpurge_opts *o, double estimate_s)
{
    if (o && o->timeout_ms)
        return o->timeout_ms;
    if (!isnan(estimate_s))
        return (uint64_t)(estimate_s * 2000.0) + 600000u;
    return 24ull * 3600 * 1000;
}

static int nvme_sanitize(int fd, unsigned sanact, const struct devio_ops *ops,
                         const struct devpurge_opts *o, struct devpurge_result *r, char *err,
                         size_t errlen)
{
    struct nvme_sanitize_log l;
    double est = NAN;
    if (sanitize_log(fd, ops, &l) == 0) {
        uint32_t et = sanact == NVME_SANACT_BLOCK_ERASE ? l.et_block : l.et_crypto;
        if (et && et != 0xffffffffu)
            est = et;
        if (l.state == NVME_SAN_RUNNING) {
            snprintf(err, errlen, "a sanitize is already running on this controller (%.1f %% done)",
                     l.sprog * 100.0 / 65536.0);
            return -EBUSY;
        }
    }
    r->estimate_s = est;
    struct nvme_cmd_bytes b;
    nvme_sanitize_cmd(sanact, &b);
    int st = 0;
    int rc = nvme_send(fd, ops, &b, NULL, NULL, &st);
    if (rc < 0) {
        if (st)
            snprintf(err, errlen, "the controller refused Sanitize (status 0x%x)", st);
        else
            snprintf(err, errlen, "Sanitize: %s", strerror(-rc));
        return rc;
    }
    uint64_t t0 = ops->now_ms(ops->ctx), limit = timeout_of(o, est);
    unsigned poll = o && o->poll_ms ? o->poll_ms : 1000;
    say(o, "sanitize started (device estimate %.0f s)%.0s", isnan(est) ? -1 : est, 0);
    for (;;) {
        ops->sleep_ms(ops->ctx, poll);
        r->polls++;
        rc = sanitize_log(fd, ops, &l);
        uint64_t now = ops->now_ms(ops->ctx);
        if (rc == 0 && (l.state == NVME_SAN_DONE || l.state == NVME_SAN_DONE_NDAS)) {
            r->elapsed_s = (double)(now - t0) / 1000.0;
            snprintf(r->notes, sizeof(r->notes), "sanitize status: completed%s, %u polls",
                     l.global_erased ? ", global data erased" : "", r->polls);
            return 0;
        }
        if (rc == 0 && l.state == NVME_SAN_FAILED) {
            snprintf(err, errlen,
                     "the sanitize failed (Sanitize Status log); the controller stays in sanitize "
                     "failure mode until a sanitize succeeds");
            return -EIO;
        }
        if (signal_received()) {
            snprintf(err, errlen,
                     "stopped waiting for the sanitize after %.0f s (%s; %.1f %% done): the "
                     "device goes on with it and refuses I/O until it ends",
                     (double)(now - t0) / 1000.0, signal_name(signal_received()),
                     rc == 0 ? l.sprog * 100.0 / 65536.0 : 0.0);
            return -EINTR;
        }
        if (now - t0 >= limit) {
            snprintf(err, errlen,
                     "the sanitize was still running after %.0f s (%.1f %% done); the device "
                     "finishes it on its own and refuses I/O until then",
                     (double)(now - t0) / 1000.0, rc == 0 ? l.sprog * 100.0 / 65536.0 : 0.0);
            return -ETIMEDOUT;
        }
        if (rc == 0)
            say(o, "sanitize %.1f %% done after %.0f s", l.sprog * 100.0 / 65536.0,
                (double)(now - t0) / 1000.0);
    }
}

static int nvme_format(int fd, const struct device_info *di, const struct devio_ops *ops,
                       struct devpurge_result *r, char *err, size_t errlen)
{
    struct nvme_cmd_bytes b;
    bool all = (di->id.ctrl.fna & (NVME_FNA_FORMAT_ALL | NVME_FNA_ERASE_ALL)) != 0;
    nvme_format_cmd(&di->id.ns, all ? 0xffffffffu : di->id.nsid, 1, &b);
    uint64_t t0 = ops->now_ms(ops->ctx);
    int st = 0;
    int rc = nvme_send(fd, ops, &b, NULL, NULL, &st);
    r->elapsed_s = (double)(ops->now_ms(ops->ctx) - t0) / 1000.0;
    if (rc < 0) {
        if (st)
            snprintf(err, errlen, "the controller refused Format NVM (status 0x%x)", st);
        else
            snprintf(err, errlen, "Format NVM: %s", strerror(-rc));
        return rc;
    }
    snprintf(r->notes, sizeof(r->notes), "Format NVM, secure erase setting 1 (user data erase)%s",
             all ? ", all namespaces" : "");
    return 0;
}

/* ---- SG_IO ------------------------------------------------------------------------- */

/* One SG_IO. dir: SG_DXFER_NONE / _TO_DEV / _FROM_DEV. ata: CHECK
 * CONDITION with "ATA pass-through information available" counts as
 * success (the registers are in sense). 0, -errno, or -EIO with the sense
 * key / ASC / ASCQ in the message. */
static int sg_send(int fd, const struct devio_ops *ops, const uint8_t *cdb, unsigned cdblen, int dir,
                   void *buf, unsigned len, unsigned timeout_ms, bool ata, uint8_t *sense,
                   size_t senselen, char *err, size_t errlen)
{
    struct sg_io_hdr h;
    memset(&h, 0, sizeof(h));
    memset(sense, 0, senselen);
    h.interface_id = 'S';
    h.dxfer_direction = dir;
    h.cmd_len = (unsigned char)cdblen;
    h.mx_sb_len = (unsigned char)senselen;
    h.dxfer_len = len;
    h.dxferp = buf;
    h.cmdp = (unsigned char *)cdb;
    h.sbp = sense;
    h.timeout = timeout_ms;
    if (ops->ioctl(ops->ctx, fd, SG_IO, &h) < 0) {
        int e = errno ? errno : EIO;
        snprintf(err, errlen, "SG_IO: %s", strerror(e));
        return -e;
    }
    if (h.host_status || (h.driver_status & 0x0f)) {
        snprintf(err, errlen, "SG_IO: host status 0x%x, driver status 0x%x", h.host_status,
                 h.driver_status);
        return -EIO;
    }
    if (h.status) {
        int desc = (sense[0] & 0x7f) >= 0x72;
        uint8_t key = (desc ? sense[1] : sense[2]) & 0x0f;
        uint8_t asc = desc ? sense[2] : sense[12], ascq = desc ? sense[3] : sense[13];
        if (ata && asc == 0 && ascq == 0x1d && (key == 0 || key == 1))
            return 0;
        snprintf(err, errlen, "the device refused it (sense key 0x%x, ASC 0x%02x, ASCQ 0x%02x)",
                 key, asc, ascq);
        return -EIO;
    }
    return 0;
}

static int ata_cmd(int fd, const struct devio_ops *ops, const struct ata_regs *r, unsigned proto,
                   bool ck_cond, void *buf, unsigned timeout_ms, struct ata_regs *out, char *err,
                   size_t errlen)
{
    uint8_t cdb[16], sense[64];
    sat_ata16(r, proto, ck_cond, cdb);
    int dir = proto == SAT_PROTO_PIO_OUT ? SG_DXFER_TO_DEV
            : proto == SAT_PROTO_PIO_IN ? SG_DXFER_FROM_DEV : SG_DXFER_NONE;
    int rc = sg_send(fd, ops, cdb, 16, dir, buf, buf ? 512 : 0, timeout_ms, true, sense,
                     sizeof(sense), err, errlen);
    if (rc == 0 && out) {
        uint8_t status = 0;
        if (sat_sense_regs(sense, sizeof(sense), out, &status) < 0) {
            snprintf(err, errlen, "no ATA registers in the answer");
            return -EIO;
        }
        if (status & 0x01) {
            snprintf(err, errlen, "the drive reported an error (status 0x%02x, error 0x%02x)",
                     status, (unsigned)out->features);
            return -EIO;
        }
    }
    return rc;
}

static int ata_security_erase(int fd, const struct device_info *di, const struct devio_ops *ops,
                              struct devpurge_result *r, char *err, size_t errlen)
{
    const struct ata_identity *a = &di->id.ata_id;
    uint8_t blk[512];
    struct ata_regs rg;
    char e2[256];
    ata_security_block(blk, false, false, false, DEVPURGE_ATA_PASSWORD);
    ata_sec_set_password_regs(&rg);
    int rc = ata_cmd(fd, ops, &rg, SAT_PROTO_PIO_OUT, false, blk, 15000, NULL, e2, sizeof(e2));
    if (rc < 0) {
        snprintf(err, errlen, "SECURITY SET PASSWORD: %s", e2);
        return rc;
    }
    unsigned minutes = a->erase_minutes;
    r->estimate_s = minutes ? minutes * 60.0 : NAN;
    /* the erase runs inside the command: twice the drive's estimate and
     * 10 minutes more, else 12 h (hdparm waits as long) */
    uint64_t tmo = minutes ? (uint64_t)minutes * 2 * 60000 + 600000 : 12ull * 3600 * 1000;
    if (tmo > 0xffffffffu)
        tmo = 0xffffffffu;
    uint64_t t0 = ops->now_ms(ops->ctx);
    ata_sec_erase_prepare_regs(&rg);
    rc = ata_cmd(fd, ops, &rg, SAT_PROTO_NONDATA, false, NULL, 15000, NULL, e2, sizeof(e2));
    const char *step = "SECURITY ERASE PREPARE";
    if (rc == 0) {
        ata_security_block(blk, false, false, false, DEVPURGE_ATA_PASSWORD);
        ata_sec_erase_unit_regs(&rg);
        rc = ata_cmd(fd, ops, &rg, SAT_PROTO_PIO_OUT, false, blk, (unsigned)tmo, NULL, e2, sizeof(e2));
        step = "SECURITY ERASE UNIT";
    }
    r->elapsed_s = (double)(ops->now_ms(ops->ctx) - t0) / 1000.0;
    if (rc < 0) {
        /* leave the drive as it was: without a password */
        char e3[256];
        struct ata_regs d;
        ata_security_block(blk, false, false, false, DEVPURGE_ATA_PASSWORD);
        ata_sec_disable_regs(&d);
        int rd = ata_cmd(fd, ops, &d, SAT_PROTO_PIO_OUT, false, blk, 15000, NULL, e3, sizeof(e3));
        snprintf(err, errlen, "%s: %s%s%s%s", step, e2,
                 rd < 0 ? "; clearing the temporary user password '" : "",
                 rd < 0 ? DEVPURGE_ATA_PASSWORD : "",
                 rd < 0 ? "' failed too: disable it with hdparm --security-disable" : "");
        return rc;
    }
    snprintf(r->notes, sizeof(r->notes),
             "SECURITY ERASE UNIT (normal erase) with a temporary user password, cleared by the erase");
    return 0;
}

static int ata_sanitize(int fd, uint16_t feature, const struct devio_ops *ops,
                        const struct devpurge_opts *o, struct devpurge_result *r, char *err,
                        size_t errlen)
{
    struct ata_regs rg, out;
    char e2[256];
    ata_sanitize_regs(feature, &rg);
    int rc = ata_cmd(fd, ops, &rg, SAT_PROTO_NONDATA, false, NULL, 60000, NULL, e2, sizeof(e2));
    if (rc < 0) {
        snprintf(err, errlen, "SANITIZE: %s", e2);
        return rc;
    }
    r->estimate_s = NAN;
    uint64_t t0 = ops->now_ms(ops->ctx), limit = timeout_of(o, NAN);
    unsigned poll = o && o->poll_ms ? o->poll_ms : 1000;
    for (;;) {
        ops->sleep_ms(ops->ctx, poll);
        r->polls++;
        ata_sanitize_regs(ATA_SANITIZE_STATUS, &rg);
        rc = ata_cmd(fd, ops, &rg, SAT_PROTO_NONDATA, true, NULL, 15000, &out, e2, sizeof(e2));
        uint64_t now = ops->now_ms(ops->ctx);
        struct ata_sanitize_status s = {0};
        if (rc == 0)
            ata_parse_sanitize_status(&out, &s);
        if (rc == 0 && s.done && !s.running) {
            r->elapsed_s = (double)(now - t0) / 1000.0;
            snprintf(r->notes, sizeof(r->notes), "SANITIZE STATUS EXT: completed, %u polls", r->polls);
            return 0;
        }
        if (rc < 0 && !s.running && r->polls > 1) {
            snprintf(err, errlen, "SANITIZE STATUS EXT: %s (the sanitize failed)", e2);
            return -EIO;
        }
        if (signal_received()) {
            snprintf(err, errlen,
                     "stopped waiting for the sanitize after %.0f s (%s): the drive goes on "
                     "with it",
                     (double)(now - t0) / 1000.0, signal_name(signal_received()));
            return -EINTR;
        }
        if (now - t0 >= limit) {
            snprintf(err, errlen,
                     "the sanitize was still running after %.0f s (%.1f %% done); the drive "
                     "finishes it on its own",
                     (double)(now - t0) / 1000.0, s.progress * 100.0 / 65536.0);
            return -ETIMEDOUT;
        }
        say(o, "sanitize %.1f %% done after %.0f s", s.progress * 100.0 / 65536.0,
            (double)(now - t0) / 1000.0);
    }
}

static int scsi_erase(int fd, enum devpurge_method m, const struct devio_ops *ops,
                      struct devpurge_result *r, char *err, size_t errlen)
{
    uint8_t cdb[10], sense[64];
    unsigned len = 10;
    if (m == DEVPURGE_SCSI_FORMAT_UNIT) {
        scsi_format_unit_cdb(cdb);
        len = 6;
    } else {
        scsi_sanitize_cdb(m == DEVPURGE_SCSI_SANITIZE_BLOCK ? SCSI_SANITIZE_BLOCK : SCSI_SANITIZE_CRYPTO,
                          false, cdb);
    }
    uint64_t t0 = ops->now_ms(ops->ctx);
    char e2[256];
    int rc = sg_send(fd, ops, cdb, len, SG_DXFER_NONE, NULL, 0, 24u * 3600u * 1000u, false, sense,
                     sizeof(sense), e2, sizeof(e2));
    r->elapsed_s = (double)(ops->now_ms(ops->ctx) - t0) / 1000.0;
    r->estimate_s = NAN;
    if (rc < 0) {
        snprintf(err, errlen, "%s: %s", m == DEVPURGE_SCSI_FORMAT_UNIT ? "FORMAT UNIT" : "SANITIZE", e2);
        return rc;
    }
    return 0;
}

int devpurge_run(int fd, const struct device_info *di, enum devpurge_method m,
                 const struct devio_ops *ops, const struct devpurge_opts *o,
                 struct devpurge_result *r, char *err, size_t errlen)
{
    memset(r, 0, sizeof(*r));
    r->estimate_s = NAN;
    bool nvme = m == DEVPURGE_NVME_SANITIZE_BLOCK || m == DEVPURGE_NVME_SANITIZE_CRYPTO ||
                m == DEVPURGE_NVME_FORMAT_ERASE;
    bool ata = m == DEVPURGE_ATA_SECURITY_ERASE || m == DEVPURGE_ATA_SANITIZE_BLOCK ||
               m == DEVPURGE_ATA_SANITIZE_CRYPTO;
    bool scsi = m >= DEVPURGE_SCSI_SANITIZE_BLOCK && m <= DEVPURGE_SCSI_FORMAT_UNIT;
    /* the command path is only taken for a device of its own kind */
    if ((nvme && (di->bus != DEV_BUS_NVME || !di->id.nvme)) ||
        (ata && (di->bus != DEV_BUS_ATA || !di->id.ata)) || (scsi && di->bus != DEV_BUS_SCSI) ||
        !devpurge_is_device(m)) {
        snprintf(err, errlen, "%s: %s is not a command for this device (%s)", di->dev_node,
                 devpurge_method_name(m), device_bus_name(di->bus));
        return -EINVAL;
    }
    switch (m) {
    case DEVPURGE_NVME_SANITIZE_BLOCK:
        return nvme_sanitize(fd, NVME_SANACT_BLOCK_ERASE, ops, o, r, err, errlen);
    case DEVPURGE_NVME_SANITIZE_CRYPTO:
        return nvme_sanitize(fd, NVME_SANACT_CRYPTO_ERASE, ops, o, r, err, errlen);
    case DEVPURGE_NVME_FORMAT_ERASE:
        return nvme_format(fd, di, ops, r, err, errlen);
    case DEVPURGE_ATA_SECURITY_ERASE:
        return ata_security_erase(fd, di, ops, r, err, errlen);
    case DEVPURGE_ATA_SANITIZE_BLOCK:
        return ata_sanitize(fd, ATA_SANITIZE_BLOCK, ops, o, r, err, errlen);
    case DEVPURGE_ATA_SANITIZE_CRYPTO:
        return ata_sanitize(fd, ATA_SANITIZE_CRYPTO, ops, o, r, err, errlen);
    default:
        return scsi_erase(fd, m, ops, r, err, errlen);
    }
}

int devpurge_nvme_other_namespaces(int fd, const struct device_info *di,
                                   const struct devio_ops *ops, uint32_t *ids, uint64_t *nuse,
                                   unsigned max)
{
    uint8_t *buf = malloc(NVME_ID_BYTES);
    if (!buf)
        return -ENOMEM;
    uint32_t all[1024];
    struct nvme_cmd_bytes b;
    nvme_ns_list_cmd(0, &b);
    int rc = nvme_send(fd, ops, &b, buf, NULL, NULL);
    unsigned n = rc == 0 ? nvme_parse_ns_list(buf, NVME_ID_BYTES, all, 1024) : 0, k = 0;
    /* a full page may have more after it, and more than max cannot all be
     * checked: either way not every namespace the erase reaches is known */
    unsigned others = 0;
    for (unsigned i = 0; i < n; i++)
        others += all[i] != di->id.nsid;
    if (rc == 0 && (n == 1024 || others > max)) {
        free(buf);
        return -E2BIG;
    }
    for (unsigned i = 0; rc == 0 && i < n && k < max; i++) {
        if (all[i] == di->id.nsid)
            continue;
        struct nvme_cmd_bytes q;
        memset(&q, 0, sizeof(q));
        q.opcode = NVME_OP_IDENTIFY;
        q.nsid = all[i];
        q.cdw10 = 0x00;
        q.data_len = NVME_ID_BYTES;
        q.timeout_ms = 5000;
        struct nvme_id_ns ns;
        ids[k] = all[i];
        nuse[k] = nvme_send(fd, ops, &q, buf, NULL, NULL) == 0 &&
                          nvme_parse_id_ns(buf, NVME_ID_BYTES, &ns) == 0
                      ? ns.nuse
                      : UINT64_MAX;
        k++;
    }
    free(buf);
    return rc < 0 ? rc : (int)k;
}

void devpurge_scsi_caps(int fd, const struct devio_ops *ops, struct scsi_purge_caps *c)
{
    c->sanitize_block = c->sanitize_crypto = c->format_unit = -1;
    struct {
        uint8_t op;
        int sa;
        int *out;
    } q[3] = {{0x48, SCSI_SANITIZE_BLOCK, &c->sanitize_block},
              {0x48, SCSI_SANITIZE_CRYPTO, &c->sanitize_crypto},
              {0x04, -1, &c->format_unit}};
    for (int i = 0; i < 3; i++) {
        uint8_t cdb[12], buf[64], sense[64];
        char e[128];
        memset(buf, 0, sizeof(buf));
        scsi_rsoc_cdb(q[i].op, q[i].sa, sizeof(buf), cdb);
        if (sg_send(fd, ops, cdb, 12, SG_DXFER_FROM_DEV, buf, sizeof(buf), 5000, false, sense,
                    sizeof(sense), e, sizeof(e)) == 0)
            *q[i].out = scsi_rsoc_supported(buf, sizeof(buf));
    }
}

/* ---- write cache ---------------------------------------------------------------------- */

int devwc_get(int fd, const struct device_info *di, const struct devio_ops *ops)
{
    char e[160];
    if (di->bus == DEV_BUS_NVME && di->id.nvme) {
        if (!(di->id.ctrl.vwc & 1))
            return -EOPNOTSUPP;
        struct nvme_cmd_bytes b;
        nvme_get_vwc_cmd(&b);
        uint32_t v = 0;
        int rc = nvme_send(fd, ops, &b, NULL, &v, NULL);
        return rc < 0 ? rc : (int)(v & 1);
    }
    if (di->bus == DEV_BUS_ATA && di->id.ata) {
        if (di->id.ata_id.write_cache_supported != 1)
            return -EOPNOTSUPP;
        uint8_t buf[512];
        struct ata_regs r;
        memset(&r, 0, sizeof(r));
        r.command = 0xec;
        r.count = 1;
        int rc = ata_cmd(fd, ops, &r, SAT_PROTO_PIO_IN, false, buf, 5000, NULL, e, sizeof(e));
        struct ata_identity a;
        if (rc == 0 && ata_parse_identity(buf, sizeof(buf), &a) == 0)
            return a.write_cache_enabled < 0 ? -EIO : a.write_cache_enabled;
        return rc < 0 ? rc : -EIO;
    }
    if (di->bus == DEV_BUS_SCSI) {
        uint8_t cdb[10], buf[64], sense[64];
        memset(buf, 0, sizeof(buf));
        scsi_mode_sense_caching_cdb(sizeof(buf), cdb);
        int rc = sg_send(fd, ops, cdb, 10, SG_DXFER_FROM_DEV, buf, sizeof(buf), 5000, false, sense,
                         sizeof(sense), e, sizeof(e));
        int o = rc == 0 ? scsi_caching_page_offset(buf, sizeof(buf)) : -1;
        if (o < 0)
            return rc < 0 ? rc : -EOPNOTSUPP;
        return (buf[o + 2] >> 2) & 1;
    }
    return -EOPNOTSUPP;
}

int devwc_set(int fd, const struct device_info *di, const struct devio_ops *ops, bool enable,
              char *err, size_t errlen)
{
    char e[200];
    int rc = -EOPNOTSUPP;
    e[0] = 0;
    if (di->bus == DEV_BUS_NVME && di->id.nvme) {
        struct nvme_cmd_bytes b;
        nvme_set_vwc_cmd(enable, &b);
        int st = 0;
        rc = nvme_send(fd, ops, &b, NULL, NULL, &st);
        if (rc < 0)
            snprintf(e, sizeof(e), "Set Features 06h: %s (status 0x%x)", strerror(-rc), st);
    } else if (di->bus == DEV_BUS_ATA && di->id.ata) {
        struct ata_regs r;
        ata_set_wc_regs(enable, &r);
        rc = ata_cmd(fd, ops, &r, SAT_PROTO_NONDATA, false, NULL, 15000, NULL, e, sizeof(e));
    } else if (di->bus == DEV_BUS_SCSI) {
        uint8_t cdb[10], buf[64], sense[64];
        memset(buf, 0, sizeof(buf));
        scsi_mode_sense_caching_cdb(sizeof(buf), cdb);
        rc = sg_send(fd, ops, cdb, 10, SG_DXFER_FROM_DEV, buf, sizeof(buf), 5000, false, sense,
                     sizeof(sense), e, sizeof(e));
        int len = rc == 0 ? scsi_caching_select(buf, sizeof(buf), enable) : -1;
        if (rc == 0 && len < 0) {
            rc = -EOPNOTSUPP;
            snprintf(e, sizeof(e), "no Caching mode page");
        }
        if (rc == 0) {
            scsi_mode_select_cdb((uint16_t)len, cdb);
            rc = sg_send(fd, ops, cdb, 10, SG_DXFER_TO_DEV, buf, (unsigned)len, 5000, false, sense,
                         sizeof(sense), e, sizeof(e));
        }
    }
    if (rc < 0)
        snprintf(err, errlen, "%s: setting the write cache %s: %s", di->dev_node,
                 enable ? "on" : "off", e[0] ? e : "no command for this device");
    return rc;
}
