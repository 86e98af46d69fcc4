/* replay_log.c - fio's I/O log reader (declared in replay_log.h): the
 * version line, then one line at a time, each split into its fields and
 * checked; a bad one ends the read with "PATH:LINE: why". */
#include "base/replay_log.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/slurp.h"

#define RLOG_LINE_MAX 4096
#define RLOG_FIELDS 6

static const char ver2[] = "fio version 2 iolog";
static const char ver3[] = "fio version 3 iolog";

/* A decimal number, all of the field (fio reads %llu / %u). */
static bool parse_u64(const char *s, uint64_t max, uint64_t *out)
{
    if (*s < '0' || *s > '9')
        return false;
    errno = 0;
    char *end;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || *end || v > max)
        return false;
    *out = v;
    return true;
}

static int find_file(const struct rlog *lg, const char *name)
{
    for (unsigned i = 0; i < lg->nfiles; i++)
        if (!strcmp(lg->files[i], name))
            return (int)i;
    return -1;
}

static int add_entry(struct rlog *lg, size_t *cap, const struct rlog_entry *e)
{
    if (lg->n == *cap) {
        size_t nc = *cap ? 2 * *cap : 1024;
        struct rlog_entry *ne = realloc(lg->e, nc * sizeof(*ne));
        if (!ne)
            return -ENOMEM;
        lg->e = ne;
        *cap = nc;
    }
    lg->e[lg->n++] = *e;
    return 0;
}

/* The state of one read: the time stamps so far (fio's io_log_last_ttime
 * and the sum of its delays). */
struct rlog_read {
    const struct rlog_opts *o;
    struct rlog *lg;
    size_t cap;
    uint64_t last_t;      /* the last v3 time stamp (0: none yet, as fio) */
    uint64_t due_us;
};

/* fio's delay_since_ttime: nothing before the first non-zero stamp or for
 * a stamp that goes back; else the gap, times 100 / replay_time_scale. */
static void advance_time(struct rlog_read *rd, uint64_t t)
{
    unsigned pct = rd->o->time_scale ? rd->o->time_scale : 100;
    if (rd->last_t && t >= rd->last_t) {
        uint64_t gap = t - rd->last_t;
        rd->due_us += pct == 100 ? gap : (uint64_t)((double)gap * (100.0 / (double)pct));
    }
    rd->last_t = t;
}

static int bad(char *err, size_t errlen, const char *path, unsigned line, const char *why, const char *what)
{
    snprintf(err, errlen, "%s:%u: %s '%.60s'", path, line, why, what);
    return -EINVAL;
}

static int file_action(struct rlog_read *rd, const char *name, const char *act, const char *path, unsigned line,
                       char *err, size_t errlen)
{
    struct rlog *lg = rd->lg;
    if (!strcmp(act, "add")) {
        if (find_file(lg, name) >= 0)
            return 0; /* one file, however often it is added (replay_redirect) */
        if (lg->nfiles == RLOG_MAX_FILES)
            return snprintf(err, errlen, "%s:%u: more than %d files", path, line, RLOG_MAX_FILES), -E2BIG;
        if (strlen(name) >= RLOG_PATH_MAX)
            return bad(err, errlen, path, line, "file name too long", name);
        strcpy(lg->files[lg->nfiles++], name);
        return 0;
    }
    bool open = !strcmp(act, "open");
    if (!open && strcmp(act, "close"))
        return bad(err, errlen, path, line, "bad file action (add, open or close)", act);
    if (find_file(lg, name) < 0)
        return bad(err, errlen, path, line, "file not added before", name);
    if (open)
        lg->opens++;
    else
        lg->closes++;
    return 0;
}

static int io_action(struct rlog_read *rd, const char *name, const char *act, const char *soff, const char *slen,
                     const char *path, unsigned line, char *err, size_t errlen)
{
    static const char *const names[] = {"read", "write", "trim", "sync", "datasync"};
    struct rlog *lg = rd->lg;
    const struct rlog_opts *o = rd->o;
    uint64_t off, len;
    if (!parse_u64(soff, UINT64_MAX, &off))
        return bad(err, errlen, path, line, "bad offset", soff);
    if (!strcmp(act, "wait") && lg->version == 2) {
        /* fio: wait until MSEC after the start (nothing with replay_no_stall) */
        uint64_t at = off * 1000;
        if (at > rd->due_us)
            rd->due_us = at;
        lg->waits++;
        return 0;
    }
    int op = -1;
    for (int i = 0; i < 5; i++)
        if (!strcmp(act, names[i]))
            op = i;
    if (op < 0)
        return bad(err, errlen, path, line, lg->version == 3 && !strcmp(act, "wait")
                                                ? "wait is a version 2 action"
                                                : "bad action (read, write, trim, sync, datasync)", act);
    if (!parse_u64(slen, UINT32_MAX, &len))
        return bad(err, errlen, path, line, "bad length", slen);
    if (op <= RLOG_TRIM && len == 0)
        return bad(err, errlen, path, line, "zero length", slen);
    int f = find_file(lg, name);
    if (f < 0)
        return bad(err, errlen, path, line, "file not added before", name);
    /* fio's order: scale, then align */
    if (o->scale > 1)
        off /= o->scale;
    if (o->align)
        off &= ~(o->align - 1);
    if (op <= RLOG_TRIM) {
        if (off > UINT64_MAX - len)
            return bad(err, errlen, path, line, "offset + length past 2^64", soff);
        lg->bytes[op] += len;
        if ((uint32_t)len > lg->max_len[op])
            lg->max_len[op] = (uint32_t)len;
        if (off + len > lg->extent[f])
            lg->extent[f] = off + len;
    }
    lg->count[op]++;
    if (!o->keep)
        return 0;
    struct rlog_entry e = {.due_ns = rd->due_us * 1000, .off = off, .len = op <= RLOG_TRIM ? (uint32_t)len : 0,
                           .op = (uint8_t)op, .file = (uint16_t)f};
    if (add_entry(lg, &rd->cap, &e) < 0)
        return snprintf(err, errlen, "%s: out of memory", path), -ENOMEM;
    return 0;
}

static int read_line(struct rlog_read *rd, char *p, const char *path, unsigned line, char *err, size_t errlen)
{
    char *f[RLOG_FIELDS];
    unsigned n = 0;
    for (char *s = strtok(p, " \t\r\n"); s; s = strtok(NULL, " \t\r\n")) {
        if (n == RLOG_FIELDS)
            return bad(err, errlen, path, line, "too many fields in", f[0]);
        f[n++] = s;
    }
    if (n == 0)
        return 0; /* an empty line */
    unsigned v3 = rd->lg->version == 3;
    if (v3) {
        uint64_t t;
        if (!parse_u64(f[0], UINT64_MAX, &t))
            return bad(err, errlen, path, line, "bad time stamp", f[0]);
        advance_time(rd, t);
    }
    const char *redirect = rd->o->redirect && rd->o->redirect[0] ? rd->o->redirect : NULL;
    const char *name = redirect ? redirect : f[v3];
    if (n == 2 + v3)
        return file_action(rd, name, f[v3 + 1], path, line, err, errlen);
    if (n == 4 + v3)
        return io_action(rd, name, f[v3 + 1], f[v3 + 2], f[v3 + 3], path, line, err, errlen);
    return bad(err, errlen, path, line, v3 ? "expected 'USEC FILE ACTION [OFFSET LENGTH]', got"
                                           : "expected 'FILE ACTION [OFFSET LENGTH]', got", f[0]);
}

int rlog_read(const char *path, const struct rlog_opts *o, struct rlog *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof(*out));
    FILE *fp = slurp_open(path, "read_iolog", 0, err, errlen);
    if (!fp)
        return errno ? -errno : -EINVAL;
    char *buf = malloc(RLOG_LINE_MAX);
    if (!buf) {
        fclose(fp);
        return snprintf(err, errlen, "%s: out of memory", path), -ENOMEM;
    }
    struct rlog_read rd = {.o = o, .lg = out};
    int rc = 0;
    unsigned line = 0;
    while (!rc && fgets(buf, RLOG_LINE_MAX, fp)) {
        line++;
        size_t l = strlen(buf);
        if (l == RLOG_LINE_MAX - 1 && buf[l - 1] != '\n') {
            rc = (snprintf(err, errlen, "%s:%u: line longer than %d characters", path, line, RLOG_LINE_MAX - 2), -EINVAL);
            break;
        }
        if (line == 1) {
            if (!strncmp(buf, ver2, sizeof(ver2) - 1))
                out->version = 2;
            else if (!strncmp(buf, ver3, sizeof(ver3) - 1))
                out->version = 3;
            else
                rc = (snprintf(err, errlen, "%s:1: not a fio iolog (version 2 or 3; fio no longer reads version 1)",
                              path), -EINVAL);
            continue;
        }
        rc = read_line(&rd, buf, path, line, err, errlen);
    }
    if (!rc && ferror(fp))
        rc = (snprintf(err, errlen, "%s: read error", path), -EIO);
    if (!rc && line == 0)
        rc = (snprintf(err, errlen, "%s: empty, not a fio iolog", path), -EINVAL);
    if (!rc && !out->count[RLOG_READ] && !out->count[RLOG_WRITE] && !out->count[RLOG_TRIM])
        rc = (snprintf(err, errlen, "%s: no read, write or trim to replay", path), -EINVAL);
    free(buf);
    fclose(fp);
    if (rc)
        rlog_free(out);
    return rc;
}

void rlog_free(struct rlog *lg)
{
    free(lg->e);
    lg->e = NULL;
    lg->n = 0;
}
