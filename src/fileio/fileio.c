/* fileio.c - the sysbench fileio options model (see fileio.h). Value forms
 * follow sysbench 1.0.20: sizes take binary K/M/G/T suffixes (an optional
 * trailing B), integers are plain decimal, booleans on/off (also
 * true/false/yes/no/1/0), and a bare boolean flag means on. Unlike sysbench,
 * trailing garbage is an error rather than silently ignored ("4Mx"). */
#include "base/suggest.h"
#include "fileio/fileio.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "job/spec_parse.h"
#include "base/errmsg.h"

#define fileio_fail(err, errlen, ...) errmsg(err, errlen, -EINVAL, __VA_ARGS__)

#define FILEIO_DEFAULT_TOTAL (2ull << 30)

static const char *const fileio_mode_names[] = {"seqwr", "seqrewr", "seqrd", "rndrd", "rndwr", "rndrw"};
static const char *const fileio_io_names[] = {"sync", "async", "mmap"};

/* Options sysbench accepts that do not change a fileio run. */
static const char *const fileio_ignored[] = {
    "rand-type", "rand-spec-iter", "rand-spec-pct", "rand-spec-res", "rand-pareto-h",
    "rand-zipfian-exp", "thread-stack-size", "forced-shutdown", "verbosity", "debug",
    "thread-init-timeout", "luajit-cmd", NULL,
};

static const char *const fileio_names[] = {
    "file-num", "file-block-size", "file-total-size", "file-test-mode", "file-io-mode",
    "file-async-backlog", "file-extra-flags", "file-fsync-freq", "file-fsync-all",
    "file-fsync-end", "file-fsync-mode", "file-merged-requests", "file-rw-ratio", "file-fill",
    "threads", "time", "events", "rate", "report-interval", "percentile", "histogram",
    "rand-seed", "validate", NULL,
};

void fileio_defaults(struct fileio_opts *o)
{
    memset(o, 0, sizeof(*o));
    o->file_num = 128;
    o->block_size = 16384;
    o->total_size = FILEIO_DEFAULT_TOTAL;
    o->mode = FILEIO_RNDRD;
    o->io_mode = FILEIO_IO_SYNC;
    o->async_backlog = 128;
    o->fsync_freq = 100;
    o->fsync_end = true;
    o->rw_ratio = 1.5;
    o->nthreads = 1;
    o->threads[0] = 1;
    o->time_s = 10;
    o->percentile = 95;
}

/* Plain decimal integer with an optional binary suffix (sizes only). */
static int parse_num(const char *s, bool size, uint64_t *out)
{
    if (!s || !isdigit((unsigned char)*s))
        return -1;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno)
        return -1;
    unsigned shift = 0;
    if (size && *end) {
        switch (tolower((unsigned char)*end)) {
        case 'k': shift = 10; break;
        case 'm': shift = 20; break;
        case 'g': shift = 30; break;
        case 't': shift = 40; break;
        case 'b': break;
        default: return -1;
        }
        if (shift)
            end++;
        if (tolower((unsigned char)*end) == 'b')
            end++;
    }
    if (*end)
        return -1;
    if (shift && v > (UINT64_MAX >> shift))
        return -1;
    *out = (uint64_t)v << shift;
    return 0;
}

static int set_uint(const char *name, const char *v, bool size, uint64_t lo, uint64_t hi,
                    uint64_t *out, char *err, size_t errlen)
{
    uint64_t x;
    if (parse_num(v, size, &x) < 0)
        return fileio_fail(err, errlen, "invalid value for --%s: '%s' (expected %s)", name,
                           v ? v : "", size ? "a size in bytes, e.g. 16384 or 16K" : "a whole number");
    if (x < lo || x > hi)
        return fileio_fail(err, errlen, "invalid value for --%s: %s (must be %llu to %llu)", name, v,
                           (unsigned long long)lo, (unsigned long long)hi);
    *out = x;
    return 0;
}

static int set_bool(const char *name, const char *v, bool *out, char *err, size_t errlen)
{
    char tmp[8];
    if (spec_parse_bool(v, out, tmp, sizeof(tmp)) < 0)
        return fileio_fail(err, errlen, "invalid value for --%s: '%s' (expected on or off)", name, v);
    return 0;
}

static int pick(const char *name, const char *v, const char *const *names, unsigned n, unsigned *out,
                const char *expect, char *err, size_t errlen)
{
    for (unsigned i = 0; v && i < n; i++)
        if (strcmp(v, names[i]) == 0) {
            *out = i;
            return 0;
        }
    return fileio_fail(err, errlen, "invalid value for --%s: '%s' (expected %s)", name, v ? v : "",
                       expect ? expect : "?");
}

static int set_flags(const char *v, unsigned *out, char *err, size_t errlen)
{
    unsigned f = 0;
    char buf[128];
    if (v && strlen(v) >= sizeof(buf))
        return fileio_fail(err, errlen, "invalid value for --file-extra-flags: '%.40s...'", v);
    snprintf(buf, sizeof(buf), "%s", v ? v : "");
    char *save = NULL;
    for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        if (!strcmp(t, "sync"))
            f |= FILEIO_FLAG_SYNC;
        else if (!strcmp(t, "dsync"))
            f |= FILEIO_FLAG_DSYNC;
        else if (!strcmp(t, "direct"))
            f |= FILEIO_FLAG_DIRECT;
        else
            return fileio_fail(err, errlen, "Invalid value for file-extra-flags: %s", v);
    }
    *out = f;
    return 0;
}

static int set_threads(struct fileio_opts *o, const char *v, char *err, size_t errlen)
{
    unsigned n = 0, list[FILEIO_MAX_STEPS];
    const char *p = v ? v : "";
    do {
        char item[32];
        size_t len = strcspn(p, ",");
        if (len == 0 || len >= sizeof(item))
            return fileio_fail(err, errlen, "invalid value for --threads: '%s' (expected N or a list N1,N2,...)", v ? v : "");
        memcpy(item, p, len);
        item[len] = 0;
        uint64_t x;
        if (parse_num(item, false, &x) == 0 && x == 0)
            return fileio_fail(err, errlen, "Invalid value for --threads: 0.");
        if (parse_num(item, false, &x) < 0 || x < 1 || x > FILEIO_MAX_THREADS)
            return fileio_fail(err, errlen, "invalid value for --threads: %s (must be 1 to %u)", item,
                               FILEIO_MAX_THREADS);
        if (n == FILEIO_MAX_STEPS)
            return fileio_fail(err, errlen, "--threads: at most %u values in a list", FILEIO_MAX_STEPS);
        list[n++] = (unsigned)x;
        p += len;
    } while (*p++ == ',');
    o->nthreads = n;
    memcpy(o->threads, list, n * sizeof(list[0]));
    return 0;
}

static bool is_in(const char *name, const char *const *list)
{
    for (unsigned i = 0; list[i]; i++)
        if (strcmp(name, list[i]) == 0)
            return true;
    return false;
}

/* Long on purpose: one branch per sysbench option, in the order of
 * sysbench's help (and fileio_usage), so the list reads as the table it is. */
int fileio_set(struct fileio_opts *o, const char *name, const char *v, char *err, size_t errlen)
{
    uint64_t x;
    unsigned u;
    int rc;
    /* sysbench 1.0's deprecated spellings */
    if (!strcmp(name, "num-threads"))
        name = "threads";
    else if (!strcmp(name, "max-time"))
        name = "time";
    else if (!strcmp(name, "max-requests"))
        name = "events";
    else if (!strcmp(name, "tx-rate"))
        name = "rate";

    bool is_bool = !strcmp(name, "file-fsync-all") || !strcmp(name, "file-fsync-end") ||
                   !strcmp(name, "histogram") || !strcmp(name, "validate");
    if (!v && !is_bool && is_in(name, fileio_names))
        return fileio_fail(err, errlen, "--%s needs a value (--%s=VALUE)", name, name);

    if (!strcmp(name, "file-num")) {
        if ((rc = set_uint(name, v, false, 1, 1u << 20, &x, err, errlen)) == 0)
            o->file_num = (unsigned)x;
    } else if (!strcmp(name, "file-block-size")) {
        rc = set_uint(name, v, true, 1, SPEC_BS_MAX, &o->block_size, err, errlen);
    } else if (!strcmp(name, "file-total-size")) {
        rc = set_uint(name, v, true, 1, UINT64_MAX >> 1, &o->total_size, err, errlen);
    } else if (!strcmp(name, "file-test-mode")) {
        /* sysbench's words for the values it names */
        rc = pick(name, v, fileio_mode_names, 6, &u, NULL, err, errlen);
        if (rc < 0)
            return fileio_fail(err, errlen, "Invalid IO operations mode: %s.", v ? v : "");
        if (rc == 0) {
            o->mode = (enum fileio_mode)u;
            o->mode_set = true;
        }
    } else if (!strcmp(name, "file-io-mode")) {
        rc = pick(name, v, fileio_io_names, 3, &u, NULL, err, errlen);
        if (rc < 0)
            return fileio_fail(err, errlen, "unknown I/O mode: %s", v ? v : "");
        if (rc == 0)
            o->io_mode = (enum fileio_io)u;
    } else if (!strcmp(name, "file-async-backlog")) {
        if ((rc = set_uint(name, v, false, 1, 65536, &x, err, errlen)) == 0)
            o->async_backlog = (unsigned)x;
    } else if (!strcmp(name, "file-extra-flags")) {
        rc = set_flags(v, &o->extra_flags, err, errlen);
    } else if (!strcmp(name, "file-fsync-freq")) {
        if ((rc = set_uint(name, v, false, 0, 1u << 30, &x, err, errlen)) == 0)
            o->fsync_freq = (unsigned)x;
    } else if (!strcmp(name, "file-fsync-all")) {
        rc = set_bool(name, v, &o->fsync_all, err, errlen);
    } else if (!strcmp(name, "file-fsync-end")) {
        rc = set_bool(name, v, &o->fsync_end, err, errlen);
    } else if (!strcmp(name, "file-fsync-mode")) {
        static const char *const m[] = {"fsync", "fdatasync"};
        rc = pick(name, v, m, 2, &u, NULL, err, errlen);
        if (rc < 0)
            return fileio_fail(err, errlen, "Invalid fsync mode: %s.", v ? v : "");
        if (rc == 0)
            o->fdatasync = u == 1;
    } else if (!strcmp(name, "file-merged-requests")) {
        if ((rc = set_uint(name, v, false, 0, 1u << 20, &x, err, errlen)) == 0)
            o->merged_requests = (unsigned)x;
    } else if (!strcmp(name, "file-rw-ratio")) {
        char *end;
        double d = strtod(v, &end);
        if (end == v || *end || !(d > 0) || !isfinite(d))
            return fileio_fail(err, errlen,
                               "invalid value for --file-rw-ratio: '%s' (expected a number above 0, e.g. 1.5)", v);
        o->rw_ratio = d;
        rc = 0;
    } else if (!strcmp(name, "file-fill")) {
        static const char *const m[] = {"random", "zero"};
        rc = pick(name, v, m, 2, &u, "random or zero", err, errlen);
        if (rc == 0)
            o->zero_fill = u == 1;
    } else if (!strcmp(name, "threads")) {
        rc = set_threads(o, v, err, errlen);
    } else if (!strcmp(name, "time")) {
        rc = set_uint(name, v, false, 0, 100ull * 365 * 86400, &o->time_s, err, errlen);
    } else if (!strcmp(name, "events")) {
        rc = set_uint(name, v, false, 0, UINT64_MAX >> 1, &o->events, err, errlen);
    } else if (!strcmp(name, "rate")) {
        rc = set_uint(name, v, false, 0, 1ull << 32, &o->rate, err, errlen);
    } else if (!strcmp(name, "report-interval")) {
        if ((rc = set_uint(name, v, false, 0, 86400, &x, err, errlen)) == 0)
            o->report_interval = (unsigned)x;
    } else if (!strcmp(name, "percentile")) {
        if ((rc = set_uint(name, v, false, 0, 100, &x, err, errlen)) == 0)
            o->percentile = (unsigned)x;
    } else if (!strcmp(name, "histogram")) {
        rc = set_bool(name, v, &o->histogram, err, errlen);
    } else if (!strcmp(name, "rand-seed")) {
        rc = set_uint(name, v, false, 0, UINT64_MAX >> 1, &o->rand_seed, err, errlen);
    } else if (!strcmp(name, "validate")) {
        rc = set_bool(name, v, &o->validate, err, errlen);
    } else if (is_in(name, fileio_ignored)) {
        rc = 0;
    } else if (!strcmp(name, "report-checkpoints")) {
        return fileio_fail(err, errlen,
                           "--report-checkpoints is not supported by ssdbench fileio (use --report-interval, or --threads with one value per run)");
    } else {
        const char *best = suggest_from_list(name, fileio_names);
        if (best)
            fileio_fail(err, errlen, "invalid option: --%s (did you mean --%s?)", name, best);
        else
            fileio_fail(err, errlen, "invalid option: --%s (see ssdbench fileio --help)", name);
        return -ENOENT;
    }
    return rc;
}

uint64_t fileio_file_size(const struct fileio_opts *o)
{
    return o->file_num ? o->total_size / o->file_num : 0;
}

uint64_t fileio_request_size(const struct fileio_opts *o)
{
    if (!fileio_mode_random(o->mode) && o->merged_requests > 0)
        return o->block_size * o->merged_requests;
    return o->block_size;
}

bool fileio_mode_random(enum fileio_mode m)
{
    return m == FILEIO_RNDRD || m == FILEIO_RNDWR || m == FILEIO_RNDRW;
}

bool fileio_mode_writes(enum fileio_mode m)
{
    return m == FILEIO_SEQWR || m == FILEIO_SEQREWR || m == FILEIO_RNDWR || m == FILEIO_RNDRW;
}

bool fileio_mode_reads(enum fileio_mode m)
{
    return m == FILEIO_SEQRD || m == FILEIO_RNDRD || m == FILEIO_RNDRW;
}

const char *fileio_mode_name(enum fileio_mode m)
{
    return (unsigned)m < 6 ? fileio_mode_names[m] : "?";
}

const char *fileio_io_name(enum fileio_io m)
{
    return (unsigned)m < 3 ? fileio_io_names[m] : "?";
}

void fileio_file_name(unsigned i, char *buf, size_t len)
{
    snprintf(buf, len, "test_file.%u", i);
}

int fileio_check(const struct fileio_opts *o, enum fileio_cmd cmd, char *err, size_t errlen)
{
    if (cmd == FILEIO_CLEANUP)
        return 0;
    uint64_t fs = fileio_file_size(o);
    if (fs == 0)
        return fileio_fail(err, errlen,
                           "--file-total-size=%llu is less than one byte for each of the %u files",
                           (unsigned long long)o->total_size, o->file_num);
    if (cmd == FILEIO_PREPARE)
        return 0;
    if (!o->mode_set)
        return fileio_fail(err, errlen,
                           "Missing required argument: --file-test-mode");
    if (fs % o->block_size)
        return fileio_fail(err, errlen,
                           "the file size %llu (--file-total-size / --file-num) is not a multiple of --file-block-size=%llu",
                           (unsigned long long)fs, (unsigned long long)o->block_size);
    uint64_t rq = fileio_request_size(o);
    if (rq > SPEC_BS_MAX || fs % rq)
        return fileio_fail(err, errlen,
                           "--file-merged-requests=%u: the request size %llu must divide the file size %llu",
                           o->merged_requests, (unsigned long long)rq, (unsigned long long)fs);
    /* One job holds at most JOB_MAX_TARGETS files, and each thread reaches all of them. */
    if (o->file_num > JOB_MAX_TARGETS)
        return fileio_fail(err, errlen,
                           "--file-num=%u: ssdbench fileio runs at most %u files; use --file-num=%u or fewer",
                           o->file_num, JOB_MAX_TARGETS, JOB_MAX_TARGETS);
    return 0;
}

cJSON *fileio_opts_json(const struct fileio_opts *o)
{
    cJSON *j = cJSON_CreateObject();
    if (!j)
        return NULL;
    cJSON_AddNumberToObject(j, "file-num", o->file_num);
    cJSON_AddNumberToObject(j, "file-block-size", (double)o->block_size);
    cJSON_AddNumberToObject(j, "file-total-size", (double)o->total_size);
    cJSON_AddNumberToObject(j, "file_size", (double)fileio_file_size(o));
    cJSON_AddNumberToObject(j, "request_size", (double)fileio_request_size(o));
    if (o->mode_set)
        cJSON_AddStringToObject(j, "file-test-mode", fileio_mode_name(o->mode));
    cJSON_AddStringToObject(j, "file-io-mode", fileio_io_name(o->io_mode));
    cJSON_AddNumberToObject(j, "file-async-backlog", o->async_backlog);
    cJSON *fl = cJSON_AddArrayToObject(j, "file-extra-flags");
    if (o->extra_flags & FILEIO_FLAG_SYNC)
        cJSON_AddItemToArray(fl, cJSON_CreateString("sync"));
    if (o->extra_flags & FILEIO_FLAG_DSYNC)
        cJSON_AddItemToArray(fl, cJSON_CreateString("dsync"));
    if (o->extra_flags & FILEIO_FLAG_DIRECT)
        cJSON_AddItemToArray(fl, cJSON_CreateString("direct"));
    /* --file-fsync-all switches the periodic and the final fsyncs off, as in sysbench */
    cJSON_AddNumberToObject(j, "file-fsync-freq", o->fsync_all ? 0 : o->fsync_freq);
    cJSON_AddBoolToObject(j, "file-fsync-all", o->fsync_all);
    cJSON_AddBoolToObject(j, "file-fsync-end", o->fsync_end && !o->fsync_all);
    cJSON_AddStringToObject(j, "file-fsync-mode", o->fdatasync ? "fdatasync" : "fsync");
    cJSON_AddNumberToObject(j, "file-merged-requests", o->merged_requests);
    cJSON_AddNumberToObject(j, "file-rw-ratio", o->rw_ratio);
    cJSON_AddStringToObject(j, "file-fill", o->zero_fill ? "zero" : "random");
    cJSON *th = cJSON_AddArrayToObject(j, "threads");
    for (unsigned i = 0; i < o->nthreads; i++)
        cJSON_AddItemToArray(th, cJSON_CreateNumber(o->threads[i]));
    cJSON_AddNumberToObject(j, "time", (double)o->time_s);
    cJSON_AddNumberToObject(j, "events", (double)o->events);
    cJSON_AddNumberToObject(j, "rate", (double)o->rate);
    cJSON_AddNumberToObject(j, "report-interval", o->report_interval);
    cJSON_AddNumberToObject(j, "percentile", o->percentile);
    cJSON_AddBoolToObject(j, "histogram", o->histogram);
    char seed[32];
    snprintf(seed, sizeof(seed), "%llu", (unsigned long long)o->rand_seed);
    cJSON_AddStringToObject(j, "rand-seed", seed);
    cJSON_AddBoolToObject(j, "validate", o->validate);
    return j;
}
