/* act_config.c - ACT storage config parsing, checks and derived rates.
 * See act_config.h for what is accepted and why we are stricter than ACT. */
#include "base/slurp.h"
#include "act/act_config.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum key_kind { K_UINT, K_BOOL, K_DEVICES };

enum key_id {
    KEY_DEVICE_NAMES, KEY_FILE_SIZE_MBYTES, KEY_SERVICE_THREADS, KEY_TEST_DURATION_SEC,
    KEY_REPORT_INTERVAL_SEC, KEY_MICROSECOND_HISTOGRAMS, KEY_READ_REQS_PER_SEC,
    KEY_WRITE_REQS_PER_SEC, KEY_RECORD_BYTES, KEY_RECORD_BYTES_RANGE_MAX,
    KEY_LARGE_BLOCK_OP_KBYTES, KEY_REPLICATION_FACTOR, KEY_UPDATE_PCT, KEY_DEFRAG_LWM_PCT,
    KEY_NO_DEFRAG_READS, KEY_COMPRESS_PCT, KEY_DISABLE_ODSYNC, KEY_COMMIT_TO_DEVICE,
    KEY_TOMB_RAIDER, KEY_TOMB_RAIDER_SLEEP_USEC, KEY_MAX_LAG_SEC, KEY_COUNT
};

struct key_def {
    const char *name;
    enum key_kind kind;
    size_t off;
};

#define U(f) K_UINT, offsetof(struct act_config, f)
#define B(f) K_BOOL, offsetof(struct act_config, f)
static const struct key_def keys[KEY_COUNT] = {
    [KEY_DEVICE_NAMES] = {"device-names", K_DEVICES, 0},
    [KEY_FILE_SIZE_MBYTES] = {"file-size-mbytes", U(file_size_mbytes)},
    [KEY_SERVICE_THREADS] = {"service-threads", U(service_threads)},
    [KEY_TEST_DURATION_SEC] = {"test-duration-sec", U(test_duration_sec)},
    [KEY_REPORT_INTERVAL_SEC] = {"report-interval-sec", U(report_interval_sec)},
    [KEY_MICROSECOND_HISTOGRAMS] = {"microsecond-histograms", B(microsecond_histograms)},
    [KEY_READ_REQS_PER_SEC] = {"read-reqs-per-sec", U(read_reqs_per_sec)},
    [KEY_WRITE_REQS_PER_SEC] = {"write-reqs-per-sec", U(write_reqs_per_sec)},
    [KEY_RECORD_BYTES] = {"record-bytes", U(record_bytes)},
    [KEY_RECORD_BYTES_RANGE_MAX] = {"record-bytes-range-max", U(record_bytes_range_max)},
    [KEY_LARGE_BLOCK_OP_KBYTES] = {"large-block-op-kbytes", U(large_block_op_kbytes)},
    [KEY_REPLICATION_FACTOR] = {"replication-factor", U(replication_factor)},
    [KEY_UPDATE_PCT] = {"update-pct", U(update_pct)},
    [KEY_DEFRAG_LWM_PCT] = {"defrag-lwm-pct", U(defrag_lwm_pct)},
    [KEY_NO_DEFRAG_READS] = {"no-defrag-reads", B(no_defrag_reads)},
    [KEY_COMPRESS_PCT] = {"compress-pct", U(compress_pct)},
    [KEY_DISABLE_ODSYNC] = {"disable-odsync", B(disable_odsync)},
    [KEY_COMMIT_TO_DEVICE] = {"commit-to-device", B(commit_to_device)},
    [KEY_TOMB_RAIDER] = {"tomb-raider", B(tomb_raider)},
    [KEY_TOMB_RAIDER_SLEEP_USEC] = {"tomb-raider-sleep-usec", U(tomb_raider_sleep_usec)},
    [KEY_MAX_LAG_SEC] = {"max-lag-sec", U(max_lag_sec)},
};
#undef U
#undef B

/* Keys older ACT versions accepted. Named separately so the message can say
 * what replaced them rather than just "unknown". */
static const struct {
    const char *name, *why;
} removed_keys[] = {
    {"scheduler-mode", "removed in ACT 6.5 (it never worked on partitions); set the I/O "
                       "scheduler in /sys/block/<dev>/queue/scheduler instead"},
    {"commit-min-bytes", "removed in ACT 6.4; commit writes round up to the device's minimum "
                         "I/O size"},
    {"num-queues", "removed in ACT 6.0 with the transaction queues; use service-threads"},
    {"threads-per-queue", "removed in ACT 6.0 with the transaction queues; use service-threads"},
    {"max-reqs-queued", "removed in ACT 6.0 with the transaction queues; max-lag-sec now "
                        "stops a run that falls behind"},
    {"queue-per-device", "removed in ACT 6.0 with the transaction queues"},
    {"use-valloc", "removed in ACT 4.0"},
    {"num-write-buffers", "removed in ACT 4.0"},
    {"large-block-ops-per-sec", "pre-3.0 key; large-block rates are now derived from "
                                "write-reqs-per-sec"},
    {"read-req-num-512-blocks", "pre-3.0 key; use record-bytes"},
    {"cache-threads", "an act_index key, not act_storage"},
};

void act_config_defaults(struct act_config *c)
{
    memset(c, 0, sizeof(*c));
    c->report_interval_sec = 1;
    c->record_bytes = 1536;
    c->large_block_op_kbytes = 128;
    c->replication_factor = 1;
    c->defrag_lwm_pct = 50;
    c->compress_pct = 100;
    c->max_lag_sec = 10;
}

/* Message prefix: "name:line: " when both are known, "name: " or nothing. */
static void errf(char *err, size_t errlen, const char *name, unsigned line, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
static void errf(char *err, size_t errlen, const char *name, unsigned line, const char *fmt, ...)
{
    if (!err || !errlen)
        return;
    int n = 0;
    if (name && line)
        n = snprintf(err, errlen, "%s:%u: ", name, line);
    else if (name)
        n = snprintf(err, errlen, "%s: ", name);
    if (n < 0 || (size_t)n >= errlen)
        n = 0;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err + n, errlen - (size_t)n, fmt, ap);
    va_end(ap);
}

static bool is_pow2(uint32_t v) { return v && !(v & (v - 1)); }
static uint32_t round16(uint32_t v) { return (uint32_t)(((uint64_t)v + 15) & ~(uint64_t)15); }

/* The checks ACT's check_configuration makes, plus the ones that avoid its
 * divisions by zero. lines[] (may be NULL) holds where each key was set.
 * Long on purpose: a flat list of independent checks, one per key with its
 * own message; in parts they would only be scattered. */
static int check(const struct act_config *c, const char *name, const unsigned *lines,
                 char *err, size_t errlen)
{
#define AT(k) (lines ? lines[k] : 0u)
    if (c->ndevices == 0) {
        errf(err, errlen, name, 0, "device-names is missing (required: the devices to test, "
                                   "whose data is destroyed)");
        return -EINVAL;
    }
    if (c->test_duration_sec == 0) {
        if (lines && !lines[KEY_TEST_DURATION_SEC])
            errf(err, errlen, name, 0, "test-duration-sec is missing (required; 86400 is "
                                       "the 24 h certification run)");
        else
            errf(err, errlen, name, AT(KEY_TEST_DURATION_SEC),
                 "test-duration-sec: 0: must be at least 1 (86400 for certification)");
        return -EINVAL;
    }
    if (c->report_interval_sec == 0) {
        errf(err, errlen, name, AT(KEY_REPORT_INTERVAL_SEC),
             "report-interval-sec: 0: must be at least 1");
        return -EINVAL;
    }
    if (c->record_bytes == 0 || c->record_bytes > ACT_MAX_RECORD_BYTES) {
        errf(err, errlen, name, AT(KEY_RECORD_BYTES),
             "record-bytes: %u: must be 1 to %u (8 MiB)", c->record_bytes, ACT_MAX_RECORD_BYTES);
        return -EINVAL;
    }
    if (c->record_bytes_range_max &&
        (c->record_bytes_range_max <= c->record_bytes ||
         c->record_bytes_range_max > ACT_MAX_RECORD_BYTES)) {
        errf(err, errlen, name, AT(KEY_RECORD_BYTES_RANGE_MAX),
             "record-bytes-range-max: %u: must be above record-bytes (%u) and at most %u",
             c->record_bytes_range_max, c->record_bytes, ACT_MAX_RECORD_BYTES);
        return -EINVAL;
    }
    if (!is_pow2(c->large_block_op_kbytes) ||
        c->large_block_op_kbytes > ACT_MAX_LARGE_BLOCK_KBYTES) {
        errf(err, errlen, name, AT(KEY_LARGE_BLOCK_OP_KBYTES),
             "large-block-op-kbytes: %u: must be a power of 2 from 1 to %u",
             c->large_block_op_kbytes, ACT_MAX_LARGE_BLOCK_KBYTES);
        return -EINVAL;
    }
    uint32_t smin = round16(c->record_bytes);
    uint32_t smax = c->record_bytes_range_max ? round16(c->record_bytes_range_max) : smin;
    if ((smin + smax) / 2 > c->large_block_op_kbytes * 1024u) {
        unsigned k = c->record_bytes_range_max ? KEY_RECORD_BYTES_RANGE_MAX : KEY_RECORD_BYTES;
        errf(err, errlen, name, AT(k),
             "%s: %u: the average stored record (%u bytes) is larger than a large block "
             "(large-block-op-kbytes %u); raise large-block-op-kbytes",
             keys[k].name, k == KEY_RECORD_BYTES ? c->record_bytes : c->record_bytes_range_max,
             (smin + smax) / 2, c->large_block_op_kbytes);
        return -EINVAL;
    }
    if (c->replication_factor == 0) {
        errf(err, errlen, name, AT(KEY_REPLICATION_FACTOR),
             "replication-factor: 0: must be at least 1");
        return -EINVAL;
    }
    if (c->update_pct > 100) {
        errf(err, errlen, name, AT(KEY_UPDATE_PCT), "update-pct: %u: must be 0 to 100",
             c->update_pct);
        return -EINVAL;
    }
    if (c->defrag_lwm_pct > 99) {
        errf(err, errlen, name, AT(KEY_DEFRAG_LWM_PCT), "defrag-lwm-pct: %u: must be 0 to 99",
             c->defrag_lwm_pct);
        return -EINVAL;
    }
    if (c->compress_pct > 100) {
        errf(err, errlen, name, AT(KEY_COMPRESS_PCT), "compress-pct: %u: must be 0 to 100",
             c->compress_pct);
        return -EINVAL;
    }
    if (c->disable_odsync && c->commit_to_device) {
        unsigned a = AT(KEY_DISABLE_ODSYNC), b = AT(KEY_COMMIT_TO_DEVICE);
        if (!lines)
            errf(err, errlen, name, 0, "disable-odsync and commit-to-device can't both be "
                 "yes; commits must be synchronous");
        else if (b > a)
            errf(err, errlen, name, b, "commit-to-device: yes: not allowed with "
                 "disable-odsync: yes (line %u); commits must be synchronous", a);
        else
            errf(err, errlen, name, a, "disable-odsync: yes: not allowed with "
                 "commit-to-device: yes (line %u); commits must be synchronous", b);
        return -EINVAL;
    }
    if (c->read_reqs_per_sec == 0 && c->write_reqs_per_sec == 0) {
        unsigned a = AT(KEY_READ_REQS_PER_SEC), b = AT(KEY_WRITE_REQS_PER_SEC);
        errf(err, errlen, name, a > b ? a : b,
             "read-reqs-per-sec and write-reqs-per-sec can't both be 0");
        return -EINVAL;
    }
    uint64_t w = (uint64_t)c->write_reqs_per_sec * c->replication_factor;
    uint64_t r = c->read_reqs_per_sec + (uint64_t)c->write_reqs_per_sec * c->update_pct / 100;
    if (w > UINT32_MAX || r + (c->commit_to_device ? w : 0) > UINT32_MAX) {
        errf(err, errlen, name, AT(KEY_WRITE_REQS_PER_SEC),
             "write-reqs-per-sec: %u: the derived request rate overflows 32 bits",
             c->write_reqs_per_sec);
        return -EINVAL;
    }
    return 0;
#undef AT
}

int act_config_check(const struct act_config *c, char *err, size_t errlen)
{
    return check(c, NULL, NULL, err, errlen);
}

/* Base 10, all digits, fits in uint32: ACT's parse_uint32 without its silent
 * truncation of "12abc" to 12. */
static bool parse_u32(const char *s, uint32_t *out)
{
    if (!isdigit((unsigned char)*s))
        return false;
    uint64_t v = 0;
    for (; *s; s++) {
        if (!isdigit((unsigned char)*s))
            return false;
        v = v * 10 + (uint64_t)(*s - '0');
        if (v > UINT32_MAX)
            return false;
    }
    *out = (uint32_t)v;
    return true;
}

/* ACT takes any value starting with 'y' as yes and anything else as no, so
 * "true" would silently mean no. We take only yes/no/y/n/true/false. */
static bool parse_bool(const char *s, bool *out)
{
    static const char *const yes[] = {"yes", "y", "true"}, *const no[] = {"no", "n", "false"};
    for (unsigned i = 0; i < 3; i++) {
        if (!strcasecmp(s, yes[i])) {
            *out = true;
            return true;
        }
        if (!strcasecmp(s, no[i])) {
            *out = false;
            return true;
        }
    }
    return false;
}

static int parse_devices(struct act_config *c, char *val, const char *name, unsigned line,
                         char *err, size_t errlen)
{
    char *save = NULL;
    for (char *tok = strtok_r(val, ",; \t", &save); tok; tok = strtok_r(NULL, ",; \t", &save)) {
        if (c->ndevices == ACT_MAX_DEVICES) {
            errf(err, errlen, name, line, "device-names: more than %u devices", ACT_MAX_DEVICES);
            return -EINVAL;
        }
        if (strlen(tok) >= ACT_DEVICE_NAME_MAX) {
            errf(err, errlen, name, line, "device-names: '%.40s...': name longer than %u "
                 "characters", tok, ACT_DEVICE_NAME_MAX - 1);
            return -EINVAL;
        }
        strcpy(c->devices[c->ndevices++], tok);
    }
    return 0;
}

static int parse_line(struct act_config *c, char *s, const char *name, unsigned line,
                      unsigned *lines, char *err, size_t errlen)
{
    char *hash = strchr(s, '#');
    if (hash)
        *hash = '\0';
    while (isspace((unsigned char)*s))
        s++;
    size_t n = strlen(s);
    while (n && isspace((unsigned char)s[n - 1]))
        s[--n] = '\0';
    if (!*s)
        return 0;

    /* ACT tokenizes on ':' and whitespace, so "key: v", "key:v" and "key v" all work. */
    char *key = s;
    size_t klen = strcspn(s, ": \t");
    char *val = s + klen;
    if (*val)
        *val++ = '\0';
    val += strspn(val, ": \t");

    int id = -1;
    for (int k = 0; k < KEY_COUNT; k++)
        if (!strcmp(key, keys[k].name))
            id = k;
    if (id < 0) {
        for (size_t r = 0; r < sizeof(removed_keys) / sizeof(removed_keys[0]); r++)
            if (!strcmp(key, removed_keys[r].name)) {
                errf(err, errlen, name, line, "%s: %s: %s", key, val, removed_keys[r].why);
                return -EINVAL;
            }
        errf(err, errlen, name, line, "unknown key '%s' (value '%s'); ACT refuses it too",
             key, val);
        return -EINVAL;
    }
    if (lines[id]) {
        errf(err, errlen, name, line, "%s: %s: given twice (first on line %u)", key, val,
             lines[id]);
        return -EINVAL;
    }
    lines[id] = line;
    if (!*val) {
        errf(err, errlen, name, line, "%s: missing value", key);
        return -EINVAL;
    }
    if (keys[id].kind == K_DEVICES)
        return parse_devices(c, val, name, line, err, errlen);
    if (strcspn(val, " \t") != strlen(val)) {
        errf(err, errlen, name, line, "%s: '%s': one value expected", key, val);
        return -EINVAL;
    }
    if (keys[id].kind == K_BOOL) {
        if (!parse_bool(val, (bool *)((char *)c + keys[id].off))) {
            errf(err, errlen, name, line, "%s: '%s': expected yes or no", key, val);
            return -EINVAL;
        }
        return 0;
    }
    if (!parse_u32(val, (uint32_t *)((char *)c + keys[id].off))) {
        errf(err, errlen, name, line, "%s: '%s': not a whole number from 0 to %u", key, val,
             UINT32_MAX);
        return -EINVAL;
    }
    return 0;
}

int act_config_parse_text(struct act_config *c, const char *text, const char *name,
                          char *err, size_t errlen)
{
    unsigned lines[KEY_COUNT] = {0};
    char buf[4096];
    unsigned line = 0;
    act_config_defaults(c);
    for (const char *p = text; *p;) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        line++;
        if (len >= sizeof(buf)) {
            errf(err, errlen, name, line, "line longer than %zu characters", sizeof(buf) - 1);
            return -EINVAL;
        }
        memcpy(buf, p, len);
        buf[len] = '\0';
        if (memchr(buf, '\0', len)) {
            errf(err, errlen, name, line, "binary data in a config file");
            return -EINVAL;
        }
        int rc = parse_line(c, buf, name, line, lines, err, errlen);
        if (rc)
            return rc;
        p = nl ? nl + 1 : p + len;
    }
    return check(c, name, lines, err, errlen);
}

int act_config_parse_file(struct act_config *c, const char *path, char *err, size_t errlen)
{
    enum { MAXSZ = 1 << 20 };
    /* a regular file only: a FIFO or device is refused without blocking */
    char serr[512];
    FILE *f = slurp_open(path, "ACT config", MAXSZ, serr, sizeof(serr));
    if (!f) {
        int e = errno;
        snprintf(err, errlen, "%s", serr);
        return -e;
    }
    char *text = malloc(MAXSZ + 1);
    if (!text) {
        fclose(f);
        errf(err, errlen, path, 0, "out of memory");
        return -ENOMEM;
    }
    size_t n = fread(text, 1, MAXSZ + 1, f);
    int rerr = ferror(f);
    fclose(f);
    int rc;
    if (rerr) {
        errf(err, errlen, path, 0, "read error");
        rc = -EIO;
    } else if (n > MAXSZ) {
        errf(err, errlen, path, 0, "ACT config larger than 1 MiB");
        rc = -EINVAL;
    } else if (memchr(text, '\0', n)) {
        errf(err, errlen, path, 0, "binary data; not an ACT config");
        rc = -EINVAL;
    } else {
        text[n] = '\0';
        rc = act_config_parse_text(c, text, path, err, errlen);
    }
    free(text);
    return rc;
}

int act_parse_load(const char *s, double *load)
{
    if (!s || !*s || isspace((unsigned char)*s))
        return -EINVAL;
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || errno)
        return -EINVAL;
    if (*end == 'x' || *end == 'X')
        end++;
    if (*end || !(v > 0) || !isfinite(v))
        return -EINVAL;
    *load = v;
    return 0;
}

int act_config_from_load(struct act_config *c, double load, unsigned ndev,
                         const char *const *devices, uint32_t duration_sec,
                         char *err, size_t errlen)
{
    act_config_defaults(c);
    if (!(load > 0) || !isfinite(load)) {
        errf(err, errlen, "--load", 0, "%g: must be a positive multiple of the 1x load", load);
        return -EINVAL;
    }
    if (ndev == 0 || ndev > ACT_MAX_DEVICES) {
        errf(err, errlen, NULL, 0, "%u devices given: ACT needs 1 to %u", ndev,
             ACT_MAX_DEVICES);
        return -EINVAL;
    }
    double r = nearbyint(load * ndev * ACT_1X_READS_PER_DEVICE);
    double w = nearbyint(load * ndev * ACT_1X_WRITES_PER_DEVICE);
    if (r > UINT32_MAX || w > UINT32_MAX) {
        errf(err, errlen, "--load", 0, "%gx on %u devices: rate too large", load, ndev);
        return -EINVAL;
    }
    for (unsigned i = 0; i < ndev; i++) {
        if (!devices[i] || !*devices[i] || strlen(devices[i]) >= ACT_DEVICE_NAME_MAX) {
            errf(err, errlen, NULL, 0, "device '%s': name empty or longer than %u characters",
                 devices[i] ? devices[i] : "", ACT_DEVICE_NAME_MAX - 1);
            return -EINVAL;
        }
        strcpy(c->devices[i], devices[i]);
    }
    c->ndevices = ndev;
    c->read_reqs_per_sec = (uint32_t)r;
    c->write_reqs_per_sec = (uint32_t)w;
    c->test_duration_sec = duration_sec;
    if (duration_sec == 0) {
        errf(err, errlen, "--duration", 0, "0: the run needs a duration of at least 1 s");
        return -EINVAL;
    }
    if (c->read_reqs_per_sec == 0 && c->write_reqs_per_sec == 0) {
        errf(err, errlen, "--load", 0, "%gx: rounds to 0 requests per second", load);
        return -EINVAL;
    }
    return check(c, NULL, NULL, err, errlen);
}

static void io_sizes(uint32_t smin, uint32_t smax, uint32_t min_io, uint32_t *lo, uint32_t *hi,
                     uint32_t *n)
{
    uint32_t bmin = (uint32_t)(((uint64_t)smin + min_io - 1) / min_io);
    uint32_t bmax = (uint32_t)(((uint64_t)smax + min_io - 1) / min_io);
    *lo = bmin * min_io;
    *hi = bmax * min_io;
    *n = bmax - bmin + 1;
}

static bool valid_min_io(uint32_t v) { return is_pow2(v) && v >= 512 && v <= 4096; }

int act_config_derive(const struct act_config *c, unsigned ncpus, uint32_t min_io_bytes,
                      struct act_derived *d, char *err, size_t errlen)
{
    memset(d, 0, sizeof(*d));
    int rc = check(c, NULL, NULL, err, errlen);
    if (rc)
        return rc;
    if (!valid_min_io(min_io_bytes)) {
        errf(err, errlen, NULL, 0, "minimum I/O size %u: expected 512, 1024, 2048 or 4096",
             min_io_bytes);
        return -EINVAL;
    }
    d->ndevices = c->ndevices;
    d->service_threads = c->service_threads;
    if (d->service_threads == 0) {
        if (ncpus == 0 || ncpus > UINT32_MAX / 5) {
            errf(err, errlen, NULL, 0, "service-threads: cannot default to 5 x CPUs "
                                       "(%u CPUs detected)", ncpus);
            return -EINVAL;
        }
        d->service_threads = 5 * ncpus;
        d->detected_cpus = ncpus;
    }
    d->record_stored_bytes = round16(c->record_bytes);
    d->record_stored_bytes_rmx = c->record_bytes_range_max
                                     ? round16(c->record_bytes_range_max)
                                     : d->record_stored_bytes;
    d->avg_record_stored_bytes = (d->record_stored_bytes + d->record_stored_bytes_rmx) / 2;
    d->large_block_bytes = c->large_block_op_kbytes * 1024u;
    d->records_per_block = d->large_block_bytes / d->avg_record_stored_bytes;
    d->write_amplification = 100.0 / (double)(100 - c->defrag_lwm_pct);

    uint32_t writes = c->replication_factor * c->write_reqs_per_sec;
    d->internal_read_reqs_per_sec =
        c->read_reqs_per_sec + (uint32_t)((uint64_t)c->write_reqs_per_sec * c->update_pct / 100);
    double base = (double)writes / (double)d->records_per_block;
    double lb = base * d->write_amplification;
    d->large_block_reads_per_sec = c->no_defrag_reads ? 0.0 : lb;
    if (c->commit_to_device) {
        d->large_block_writes_per_sec = base * (d->write_amplification - 1.0);
        d->internal_write_reqs_per_sec = writes;
    } else {
        d->large_block_writes_per_sec = lb;
    }
    d->large_block_reads_per_device = d->large_block_reads_per_sec / c->ndevices;
    d->large_block_writes_per_device = d->large_block_writes_per_sec / c->ndevices;

    uint32_t total = d->internal_read_reqs_per_sec + d->internal_write_reqs_per_sec;
    if (total && total / d->service_threads == 0) {
        errf(err, errlen, NULL, 0, "load config too small: %u small requests/s over %u "
             "service threads is less than 1 per thread; lower service-threads", total,
             d->service_threads);
        return -EINVAL;
    }
    d->small_reqs_per_thread = total / d->service_threads;
    d->read_split = total ? (uint32_t)((uint64_t)ACT_SPLIT_RESOLUTION *
                                       d->internal_read_reqs_per_sec / total) : 0;
    d->do_reads = c->read_reqs_per_sec != 0;
    d->do_large_blocks = c->write_reqs_per_sec != 0;
    d->do_commits = c->commit_to_device && c->write_reqs_per_sec != 0;
    d->min_io_bytes = min_io_bytes;
    io_sizes(d->record_stored_bytes, d->record_stored_bytes_rmx, min_io_bytes,
             &d->io_bytes_min, &d->io_bytes_max, &d->n_io_sizes);
    return 0;
}

int act_device_layout(const struct act_derived *d, uint64_t dev_bytes, uint32_t min_io_bytes,
                      struct act_device_layout *out)
{
    memset(out, 0, sizeof(*out));
    if (!valid_min_io(min_io_bytes) || !d->large_block_bytes)
        return -EINVAL;
    out->min_io_bytes = min_io_bytes;
    out->n_large_blocks = dev_bytes / d->large_block_bytes;
    io_sizes(d->record_stored_bytes, d->record_stored_bytes_rmx, min_io_bytes,
             &out->io_bytes_min, &out->io_bytes_max, &out->n_io_sizes);
    uint64_t nmin = out->n_large_blocks * d->large_block_bytes / min_io_bytes;
    uint64_t bmax = out->io_bytes_max / min_io_bytes;
    if (out->n_large_blocks == 0 || nmin < bmax)
        return -EINVAL;
    out->n_small_offsets = nmin - bmax + 1;
    return 0;
}
