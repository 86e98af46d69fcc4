/* device_cmd.c - see device_cmd.h. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <linux/blkzoned.h>
#include <linux/nvme_ioctl.h>
#include <scsi/sg.h>

#include "device/device_cmd.h"

static int nvme_admin(int fd, uint8_t opcode, uint32_t nsid, uint32_t cdw10, void *buf, uint32_t len,
                      uint32_t *result)
{
    struct nvme_admin_cmd c;
    memset(&c, 0, sizeof(c));
    c.opcode = opcode;
    c.nsid = nsid;
    c.addr = (uint64_t)(uintptr_t)buf;
    c.data_len = len;
    c.cdw10 = cdw10;
    c.timeout_ms = 5000;
    int rc = ioctl(fd, NVME_IOCTL_ADMIN_CMD, &c);
    if (rc < 0)
        return -errno;
    if (rc > 0)
        return -EIO; /* an NVMe status code */
    if (result)
        *result = c.result;
    return 0;
}

int devcmd_nvme_identify(int fd, uint32_t cns, uint32_t nsid, uint8_t buf[4096])
{
    memset(buf, 0, 4096);
    return nvme_admin(fd, 0x06, nsid, cns, buf, 4096, NULL);
}

int devcmd_nvme_smart_log(int fd, uint8_t buf[512])
{
    memset(buf, 0, 512);
    /* Get Log Page: LID 02h, NUMDL = 512 / 4 - 1, the controller's log */
    return nvme_admin(fd, 0x02, 0xffffffffu, (127u << 16) | 0x02, buf, 512, NULL);
}

int devcmd_nvme_get_feature(int fd, uint32_t fid, uint32_t *value)
{
    return nvme_admin(fd, 0x0a, 0, fid & 0xff, NULL, 0, value);
}

uint32_t devcmd_nvme_nsid(int fd)
{
    int id = ioctl(fd, NVME_IOCTL_ID);
    return id > 0 ? (uint32_t)id : 0;
}

/* ATA PASS-THROUGH (16), PIO data-in of one 512-byte block. */
static int ata_pio_in(int fd, uint8_t command, uint8_t features, uint8_t lba_mid, uint8_t lba_high,
                      uint8_t buf[512])
{
    uint8_t cdb[16] = {0}, sense[32] = {0};
    cdb[0] = 0x85;
    cdb[1] = 4 << 1;            /* protocol 4: PIO data-in; not extended */
    cdb[2] = 0x08 | 0x04 | 0x02; /* t_dir from device, length in blocks, in the sector count */
    cdb[4] = features;
    cdb[6] = 1;                 /* sector count */
    cdb[10] = lba_mid;
    cdb[12] = lba_high;
    cdb[14] = command;
    memset(buf, 0, 512);
    struct sg_io_hdr h;
    memset(&h, 0, sizeof(h));
    h.interface_id = 'S';
    h.dxfer_direction = SG_DXFER_FROM_DEV;
    h.cmd_len = sizeof(cdb);
    h.mx_sb_len = sizeof(sense);
    h.dxfer_len = 512;
    h.dxferp = buf;
    h.cmdp = cdb;
    h.sbp = sense;
    h.timeout = 5000;
    if (ioctl(fd, SG_IO, &h) < 0)
        return -errno;
    if (h.host_status || (h.driver_status & 0x0f))
        return -EIO;
    if (h.status) {
        /* CHECK CONDITION carrying "ATA pass-through information available"
         * (ASC 00h ASCQ 1Dh) is a success with the ATA registers */
        int desc = (sense[0] & 0x7f) >= 0x72;
        uint8_t asc = desc ? sense[2] : sense[12], ascq = desc ? sense[3] : sense[13];
        uint8_t key = (desc ? sense[1] : sense[2]) & 0x0f;
        if (!(asc == 0 && ascq == 0x1d && (key == 0 || key == 1)))
            return -EIO;
    }
    return 0;
}

int devcmd_ata_identify(int fd, uint8_t buf[512])
{
    return ata_pio_in(fd, 0xec, 0, 0, 0, buf);
}

int devcmd_ata_smart_read_data(int fd, uint8_t buf[512])
{
    return ata_pio_in(fd, 0xb0, 0xd0, 0x4f, 0xc2, buf);
}

static const char *smartctl_path(void)
{
    static const char *const where[] = {"/usr/sbin/smartctl", "/usr/bin/smartctl", "/sbin/smartctl",
                                        "/usr/local/sbin/smartctl"};
    for (size_t i = 0; i < sizeof(where) / sizeof(where[0]); i++)
        if (access(where[i], X_OK) == 0)
            return where[i];
    return NULL;
}

static uint64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

char *devcmd_smartctl(const char *dev, size_t *len)
{
    const char *exe = smartctl_path();
    if (!exe)
        return NULL;
    int p[2];
    if (pipe2(p, O_CLOEXEC) < 0)
        return NULL;
    pid_t pid = fork();
    if (pid < 0) {
        close(p[0]);
        close(p[1]);
        return NULL;
    }
    if (pid == 0) {
        int nul = open("/dev/null", O_RDWR | O_CLOEXEC);
        if (nul >= 0) {
            dup2(nul, 0);
            dup2(nul, 2);
        }
        dup2(p[1], 1);
        execl(exe, "smartctl", "--json", "-a", "-n", "standby", dev, (char *)NULL);
        _exit(127);
    }
    close(p[1]);
    size_t cap = 65536, n = 0, max = 4u << 20;
    char *out = malloc(cap);
    uint64_t deadline = now_ms() + 15000;
    bool timed_out = !out;   /* out of memory: stop smartctl at once */
    while (!timed_out) {
        uint64_t t = now_ms();
        if (t >= deadline) {
            timed_out = true;
            break;
        }
        struct pollfd pf = {.fd = p[0], .events = POLLIN};
        int pr = poll(&pf, 1, (int)(deadline - t));
        if (pr < 0 && errno == EINTR)
            continue;
        if (pr <= 0) {
            timed_out = pr == 0;
            break;
        }
        if (n + 4096 + 1 > cap) {
            if (cap >= max)
                break;
            char *g = realloc(out, cap * 2);
            if (!g)
                break;
            out = g;
            cap *= 2;
        }
        ssize_t r = read(p[0], out + n, cap - n - 1);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break;
        n += (size_t)r;
    }
    close(p[0]);
    if (timed_out)
        kill(pid, SIGKILL);
    int st;
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
        ;
    if (!out || n == 0 || timed_out) {
        free(out);
        return NULL;
    }
    out[n] = 0;
    *len = n;
    return out;
}

int devcmd_zone_capacity(int fd, double *min_bytes, double *max_bytes)
{
    enum { BATCH = 256 };
    size_t sz = sizeof(struct blk_zone_report) + BATCH * sizeof(struct blk_zone);
    struct blk_zone_report *rep = malloc(sz);
    if (!rep)
        return -ENOMEM;
    uint64_t sector = 0, lo = UINT64_MAX, hi = 0;
    int rc = 0;
    for (;;) {
        memset(rep, 0, sz);
        rep->sector = sector;
        rep->nr_zones = BATCH;
        if (ioctl(fd, BLKREPORTZONE, rep) < 0) {
            rc = -errno;
            break;
        }
        if (rep->nr_zones == 0)
            break;
        for (unsigned i = 0; i < rep->nr_zones; i++) {
            const struct blk_zone *z = &rep->zones[i];
            /* capacity is valid with BLK_ZONE_REP_CAPACITY (kernel 5.9+) */
            uint64_t cap = (rep->flags & BLK_ZONE_REP_CAPACITY) ? z->capacity : z->len;
            lo = cap < lo ? cap : lo;
            hi = cap > hi ? cap : hi;
        }
        const struct blk_zone *last = &rep->zones[rep->nr_zones - 1];
        if (last->start + last->len <= sector)
            break;
        sector = last->start + last->len;
    }
    free(rep);
    if (rc == 0 && hi == 0)
        rc = -ENODATA;
    if (rc == 0) {
        *min_bytes = (double)lo * 512;
        *max_bytes = (double)hi * 512;
    }
    return rc;
}
