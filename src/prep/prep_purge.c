/* prep_purge.c - see prep_purge.h. */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <linux/fs.h>

#include "base/clock.h"
#include "device/device.h"
#include "device/device_purge.h"
#include "prep/prep_purge.h"
#include "target/target.h"
#include "target/zoned.h"

#define MAX_OTHER_NS 64

enum purge_method prep_purge_method(enum devpurge_method m)
{
    switch (m) {
    case DEVPURGE_NVME_SANITIZE_BLOCK: return PURGE_NVME_SANITIZE_BLOCK;
    case DEVPURGE_NVME_SANITIZE_CRYPTO: return PURGE_NVME_SANITIZE_CRYPTO;
    case DEVPURGE_NVME_FORMAT_ERASE: return PURGE_NVME_FORMAT_ERASE;
    case DEVPURGE_ATA_SECURITY_ERASE: return PURGE_ATA_SECURITY_ERASE;
    case DEVPURGE_ATA_SANITIZE_BLOCK: return PURGE_ATA_SANITIZE_BLOCK;
    case DEVPURGE_ATA_SANITIZE_CRYPTO: return PURGE_ATA_SANITIZE_CRYPTO;
    case DEVPURGE_SCSI_SANITIZE_BLOCK: return PURGE_SCSI_SANITIZE_BLOCK;
    case DEVPURGE_SCSI_SANITIZE_CRYPTO: return PURGE_SCSI_SANITIZE_CRYPTO;
    case DEVPURGE_SCSI_FORMAT_UNIT: return PURGE_SCSI_FORMAT_UNIT;
    case DEVPURGE_DISCARD: return PURGE_DISCARD;
    case DEVPURGE_ZERO_FILL: return PURGE_ZERO_FILL;
    case DEVPURGE_NONE: break;
    }
    return PURGE_NONE;
}

/* /dev/nvme0n<nsid> for the disk nvme0n1: the disk's name up to its last
 * 'n', then the namespace id. */
static void ns_node(const char *disk, uint32_t nsid, char *out, size_t len)
{
    const char *n = strrchr(disk, 'n');
    int keep = n && n != disk ? (int)(n - disk) : (int)strlen(disk);
    snprintf(out, len, "/dev/%.*sn%u", keep, disk, nsid);
}

/* The other namespaces a controller-wide erase reaches: each one with a
 * block node is opened through the guard (in use refuses, consent or not;
 * signatures need consent), and one holding data must be named. Opened
 * namespaces stay held in others until the erase is over. */
static int hold_other_namespaces(int fd, const struct device_info *di, const struct rpurge_opts *o,
                                 const struct devio_ops *ops, struct target *others,
                                 unsigned *nothers, struct rpurge_report *r, char *err,
                                 size_t errlen)
{
    uint32_t ids[MAX_OTHER_NS];
    uint64_t nuse[MAX_OTHER_NS];
    if (di->id.ctrl.cmic & 0x2) {
        /* other controllers' namespaces (another host's) are not listed here */
        snprintf(err, errlen,
                 "purge: %s: the NVM subsystem has more than one controller (CMIC bit 1); a "
                 "sanitize or format of all namespaces would also erase namespaces this host "
                 "cannot check, so it is not sent (--purge-method block for the block layer's purge)",
                 di->dev_node);
        return -EPERM;
    }
    int n = devpurge_nvme_other_namespaces(fd, di, ops, ids, nuse, MAX_OTHER_NS);
    if (n == -E2BIG) {
        snprintf(err, errlen,
                 "purge: %s: the controller has more namespaces than ssdbench checks (%d); a "
                 "sanitize erases every namespace, so it is not sent (--purge-method block for "
                 "the block layer's purge)",
                 di->dev_node, MAX_OTHER_NS);
        return -EPERM;
    }
    if (n < 0) {
        snprintf(err, errlen,
                 "purge: %s: the controller's namespace list could not be read (%s); a sanitize "
                 "erases every namespace, so it is not sent (--purge-method block for the block "
                 "layer's purge)",
                 di->dev_node, strerror(-n));
        return -EPERM;
    }
    size_t sl = 0;
    for (int i = 0; i < n; i++) {
        char node[96];
        ns_node(di->disk, ids[i], node, sizeof(node));
        struct stat st;
        bool has_node = stat(node, &st) == 0 && S_ISBLK(st.st_mode);
        bool data = nuse[i] != 0;
        struct target *held = NULL;
        if (has_node) {
            /* open first: in use and signatures are judged on the fd held,
             * and so is the consent below */
            struct target_open_opts to = {.write = true, .consent = o->consent};
            int rc = target_open(&others[*nothers], node, &to, err, errlen);
            if (rc < 0)
                return rc;
            held = &others[(*nothers)++];
        }
        struct stat fst;
        bool named = held && fstat(held->fd, &fst) == 0 && S_ISBLK(fst.st_mode) &&
                     guard_consented_st(&fst, o->consent);
        if (data && !named) {
            char blocks[48];
            if (nuse[i] == UINT64_MAX)
                snprintf(blocks, sizeof(blocks), "its use could not be read");
            else
                snprintf(blocks, sizeof(blocks), "NUSE %llu blocks", (unsigned long long)nuse[i]);
            snprintf(err, errlen,
                     "purge: %s: the erase reaches the whole controller, and namespace %u (%s) "
                     "holds data (%s); name it with --destroy %s as well, or use --purge-method "
                     "block",
                     di->dev_node, ids[i], has_node ? node : "no block device", blocks, node);
            return -EPERM;
        }
        if (sl < sizeof(r->scope))
            sl += (size_t)snprintf(r->scope + sl, sizeof(r->scope) - sl, "%snamespace %u%s", sl ? ", " : "also ",
                                   ids[i], data ? " (named)" : " (empty)");
    }
    return 0;
}

static int device_purge(struct target *t, const char *path, const struct device_info *di,
                        const struct devpurge_choice *ch, const struct rpurge_opts *o,
                        struct rpurge_report *r, char *err, size_t errlen)
{
    const struct devio_ops *ops = o->ops ? o->ops : devio_real();
    struct stat st;
    if (fstat(t->fd, &st) < 0 || !guard_consented_st(&st, o->consent)) {
        snprintf(err, errlen,
                 "purge: %s: %s erases the whole device; name it with --destroy %s to consent (or "
                 "--purge-method block for the block layer's purge)",
                 path, devpurge_method_name(ch->method), path);
        return -EPERM;
    }
    struct target others[MAX_OTHER_NS];
    unsigned nothers = 0;
    int rc = 0;
    if (ch->controller_wide && di->bus == DEV_BUS_NVME)
        rc = hold_other_namespaces(t->fd, di, o, ops, others, &nothers, r, err, errlen);
    if (rc == 0) {
        if (o->progress) {
            char line[160];
            snprintf(line, sizeof(line), "%s: %s", path, devpurge_method_name(ch->method));
            o->progress(o->arg, line);
        }
        struct devpurge_opts po = {.poll_ms = o->poll_ms, .timeout_ms = o->timeout_ms,
                                   .progress = o->progress, .arg = o->arg};
        struct devpurge_result dr;
        char e2[400];
        rc = devpurge_run(t->fd, di, ch->method, ops, &po, &dr, e2, sizeof(e2));
        r->estimate_s = dr.estimate_s;
        if (rc == 0) {
            r->r.method = prep_purge_method(ch->method);
            r->device_command = true;
            r->r.offset = 0;
            r->r.length = t->info.size;
            r->r.elapsed_s = dr.elapsed_s;
            snprintf(r->r.notes, sizeof(r->r.notes), "%s", dr.notes);
            /* the page cache may still hold what was there */
            if (ops == devio_real())
                ioctl(t->fd, BLKFLSBUF, 0);
        } else if (rc == -ETIMEDOUT || rc == -EBUSY || rc == -EINTR) {
            snprintf(err, errlen, "purge: %s: %s", path, e2);
        } else {
            /* the device refused: the block layer's methods, and say so */
            snprintf(r->r.notes, sizeof(r->r.notes), "%s failed: %s; ", devpurge_method_name(ch->method), e2);
            rc = 1;
        }
    }
    for (unsigned i = 0; i < nothers; i++)
        target_close(&others[i], false);
    return rc;
}

int prep_purge(const char *path, const struct rpurge_opts *o, struct rpurge_report *r, char *err,
                 size_t errlen)
{
    memset(r, 0, sizeof(*r));
    r->estimate_s = NAN;
    snprintf(r->r.path, sizeof(r->r.path), "%s", path);
    struct target_info ti;
    int rc = target_probe(path, &ti, err, errlen);
    if (rc < 0 || ti.kind != TARGET_BLOCK)
        return purge_target(path, o->consent, &r->r, err, errlen);
    struct target t;
    struct target_open_opts to = {.write = true, .consent = o->consent};
    rc = target_open(&t, path, &to, err, errlen);
    if (rc < 0)
        return rc;
    struct device_info di;
    struct device_probe_opts po = {.health = false, .smartctl = false};
    memset(&di, 0, sizeof(di));
    snprintf(di.path, sizeof(di.path), "%s", path);
    char e2[256];
    struct devpurge_choice ch;
    if (zoned_is_zoned(&t.info)) {
        /* the zones are reset (purge_target_open), whatever erase the device has */
        memset(&ch, 0, sizeof(ch));
        ch.method = DEVPURGE_DISCARD;
        snprintf(ch.why, sizeof(ch.why), "%s zoned device: every zone is reset; the device's own erase is not used",
                 t.info.zoned);
    } else if (device_probe_name(t.info.devname, &po, &di, e2, sizeof(e2)) < 0) {
        memset(&ch, 0, sizeof(ch));
        ch.method = DEVPURGE_DISCARD;
        snprintf(ch.why, sizeof(ch.why), "device purge: not identified (%s)", e2);
    } else {
        struct scsi_purge_caps sc, *scp = NULL;
        if (o->mode == RPURGE_AUTO && di.bus == DEV_BUS_SCSI && !strcmp(di.name, di.disk)) {
            devpurge_scsi_caps(t.fd, o->ops ? o->ops : devio_real(), &sc);
            scp = &sc;
        }
        devpurge_choose(&di, scp, &ch);
    }
    if (ch.refuse) {
        snprintf(err, errlen, "purge: %s", ch.why);
        target_close(&t, false);
        return ch.refuse;
    }
    if (o->mode == RPURGE_BLOCK && devpurge_is_device(ch.method)) {
        snprintf(r->considered, sizeof(r->considered), "%s: not used (--purge-method block)",
                 devpurge_method_name(ch.method));
        ch.method = DEVPURGE_DISCARD;
    } else {
        snprintf(r->considered, sizeof(r->considered), "%s", ch.why);
    }
    rc = 1;
    if (devpurge_is_device(ch.method))
        rc = device_purge(&t, path, &di, &ch, o, r, err, errlen);
    if (rc == 1) {
        /* the block layer: secure discard, discard, zero fill */
        struct purge_report br;
        memset(&br, 0, sizeof(br));
        snprintf(br.path, sizeof(br.path), "%s", path);
        rc = purge_target_open(&t, path, &br, err, errlen);
        char pre[sizeof(r->r.notes)];
        snprintf(pre, sizeof(pre), "%s", r->r.notes);
        r->r = br;
        if (pre[0]) {
            char both[sizeof(r->r.notes)];
            snprintf(both, sizeof(both), "%s%s", pre, br.notes);
            snprintf(r->r.notes, sizeof(r->r.notes), "%s", both);
        }
    }
    target_close(&t, false);
    return rc;
}

int prep_purge_check(const char *path, const struct rpurge_opts *o, char *err, size_t errlen)
{
    struct target_info ti;
    char e2[256];
    if (target_probe(path, &ti, e2, sizeof(e2)) < 0 || ti.kind != TARGET_BLOCK)
        return 0;   /* the purge itself reports what is wrong */
    if (zoned_is_zoned(&ti))
        return 0;   /* zone reset: the block layer's, the write guard's consent */
    struct device_info di;
    struct device_probe_opts po = {.health = false, .smartctl = false};
    memset(&di, 0, sizeof(di));
    snprintf(di.path, sizeof(di.path), "%s", path);
    if (device_probe_name(ti.devname, &po, &di, e2, sizeof(e2)) < 0)
        return 0;
    struct devpurge_choice ch;
    devpurge_choose(&di, NULL, &ch);
    if (ch.refuse) {
        snprintf(err, errlen, "purge: %s", ch.why);
        return ch.refuse;
    }
    if (o->mode == RPURGE_BLOCK || !devpurge_is_device(ch.method))
        return 0;
    struct stat st;
    if (stat(path, &st) < 0 || !guard_consented_st(&st, o->consent)) {
        snprintf(err, errlen,
                 "purge: %s: %s erases the whole device; name it with --destroy %s to consent (or "
                 "--purge-method block for the block layer's purge)",
                 path, devpurge_method_name(ch.method), path);
        return -EPERM;
    }
    if (!(ch.controller_wide && di.bus == DEV_BUS_NVME))
        return 0;
    int fd = open(di.dev_node, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return 0;
    const struct devio_ops *ops = o->ops ? o->ops : devio_real();
    uint32_t ids[MAX_OTHER_NS];
    uint64_t nuse[MAX_OTHER_NS];
    int n = devpurge_nvme_other_namespaces(fd, &di, ops, ids, nuse, MAX_OTHER_NS);
    close(fd);
    for (int i = 0; i < n; i++) {
        char node[96];
        ns_node(di.disk, ids[i], node, sizeof(node));
        struct stat ns;
        bool has_node = stat(node, &ns) == 0 && S_ISBLK(ns.st_mode);
        if (nuse[i] != 0 && !(has_node && guard_consented_st(&ns, o->consent))) {
            snprintf(err, errlen,
                     "purge: %s: the erase reaches the whole controller, and namespace %u (%s) "
                     "holds data; name it with --destroy %s as well, or use --purge-method block",
                     di.dev_node, ids[i], has_node ? node : "no block device", node);
            return -EPERM;
        }
    }
    return 0;
}
