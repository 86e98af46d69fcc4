/* replay_log.c - fio's I/O log reader (declared in replay_log.h): the
 * stream (a text log or, by its magic, a blktrace file: replay_blk.c), one
 * line at a time, each split into its fields and checked, the log's own
 * open/close state kept so a line fio 3.33 would abort on is refused; a bad
 * one ends the read with "PATH:LINE: why". rlog_read reads a stream whole. */
#include "base/replay_log_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/slurp.h"

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

static int file_action(struct rlog_stream *st, const char *name, const char *act, uint64_t gap,
                       struct rlog_entry *out, size_t *n, char *err, size_t errlen)
{
    struct rlog_entry e = {.gap_ns = gap};
    if (!strcmp(act, "add")) {
        int f = rlog_file(st, name, false, err, errlen);
        if (f >= 0 && st->redirect[0]) {
            /* fio ignores the re-add of a redirected file but queues the
             * action before it again (its file_action is left as it was) */
            e.op = st->last_act;
        } else {
            if (f < 0 && (f = rlog_file(st, name, true, err, errlen)) < 0)
                return f;
            e.op = RLOG_ADD;
        }
        e.file = (uint16_t)f;
        st->last_act = e.op;
        return rlog_emit(st, &e, out, n, err, errlen);
    }
    bool open = !strcmp(act, "open");
    if (!open && strcmp(act, "close"))
        return rlog_bad(st, err, errlen, "bad file action (add, open or close)", act);
    int f = rlog_file(st, name, false, err, errlen);
    if (f < 0)
        return rlog_bad(st, err, errlen, "file not added before", name);
    e.op = open ? RLOG_OPEN : RLOG_CLOSE;
    e.file = (uint16_t)f;
    st->last_act = e.op;
    return rlog_emit(st, &e, out, n, err, errlen);
}

static int io_action(struct rlog_stream *st, const char *name, const char *act, const char *soff, const char *slen,
                     uint64_t gap, struct rlog_entry *out, size_t *n, char *err, size_t errlen)
{
    static const char *const names[] = {"read", "write", "trim", "sync", "datasync"};
    struct rlog *lg = st->lg;
    const struct rlog_opts *o = &st->o;
    uint64_t off, len;
    if (!parse_u64(soff, UINT64_MAX, &off))
        return rlog_bad(st, err, errlen, "bad offset", soff);
    if (!strcmp(act, "wait") && lg->version == 2) {
        /* fio: wait until MSEC after the start; nothing with replay_no_stall */
        if (o->no_stall)
            return 0;
        if (off > UINT64_MAX / 1000000)
            return rlog_bad(st, err, errlen, "wait too long", soff);
        struct rlog_entry e = {.gap_ns = off * 1000000, .op = RLOG_WAIT};
        return rlog_emit(st, &e, out, n, err, errlen);
    }
    int op = -1;
    for (int i = 0; i < 5; i++)
        if (!strcmp(act, names[i]))
            op = i;
    if (op < 0)
        return rlog_bad(st, err, errlen, lg->version == 3 && !strcmp(act, "wait")
                                        ? "wait is a version 2 action"
                                        : "bad action (read, write, trim, sync, datasync)", act);
    if (!parse_u64(slen, UINT32_MAX, &len))
        return rlog_bad(st, err, errlen, "bad length", slen);
    if (op <= RLOG_TRIM && len == 0)
        return rlog_bad(st, err, errlen, "zero length", slen);
    int f = rlog_file(st, name, false, err, errlen);
    if (f < 0)
        return rlog_bad(st, err, errlen, "file not added before", name);
    /* fio's order: scale, then align */
    if (o->scale > 1)
        off /= o->scale;
    if (o->align)
        off &= ~(o->align - 1);
    if (op <= RLOG_TRIM && off > UINT64_MAX - len)
        return rlog_bad(st, err, errlen, "offset + length past 2^64", soff);
    if (o->read_only && (op == RLOG_WRITE || op == RLOG_TRIM)) {
        /* fio leaves writes out in read-only mode (and trims always) */
        lg->ro_skipped += op == RLOG_WRITE;
        return 0;
    }
    struct rlog_entry e = {.gap_ns = gap, .off = off, .len = op <= RLOG_TRIM ? (uint32_t)len : 0,
                           .op = (uint8_t)op, .file = (uint16_t)f};
    return rlog_emit(st, &e, out, n, err, errlen);
}

static int read_line(struct rlog_stream *st, char *p, struct rlog_entry *out, size_t *n, char *err, size_t errlen)
{
    char *f[RLOG_FIELDS];
    unsigned nf = 0;
    char *save = NULL;
    for (char *s = strtok_r(p, " \t\r\n", &save); s; s = strtok_r(NULL, " \t\r\n", &save)) {
        if (nf == RLOG_FIELDS)
            return rlog_bad(st, err, errlen, "too many fields in", f[0]);
        f[nf++] = s;
    }
    if (nf == 0)
        return 0; /* an empty line */
    unsigned v3 = st->lg->version == 3;
    uint64_t gap = 0;
    if (v3) {
        uint64_t t;
        if (!parse_u64(f[0], UINT64_MAX, &t))
            return rlog_bad(st, err, errlen, "bad time stamp", f[0]);
        gap = rlog_gap(st, t, 1000);
    }
    const char *name = st->redirect[0] ? st->redirect : f[v3];
    if (nf == 2 + v3)
        return file_action(st, name, f[v3 + 1], gap, out, n, err, errlen);
    if (nf == 4 + v3)
        return io_action(st, name, f[v3 + 1], f[v3 + 2], f[v3 + 3], gap, out, n, err, errlen);
    return rlog_bad(st, err, errlen, v3 ? "expected 'USEC FILE ACTION [OFFSET LENGTH]', got"
                                   : "expected 'FILE ACTION [OFFSET LENGTH]', got", f[0]);
}

static long text_next(struct rlog_stream *st, struct rlog_entry *e, size_t max, char *err, size_t errlen)
{
    size_t n = 0;
    while (n + 2 <= max) {
        if (!fgets(st->buf, RLOG_LINE_MAX, st->fp)) {
            if (ferror(st->fp))
                return snprintf(err, errlen, "%s: read error", st->path), -EIO;
            st->ended = true;
            break;
        }
        st->line++;
        size_t l = strlen(st->buf);
        if (l == RLOG_LINE_MAX - 1 && st->buf[l - 1] != '\n') {
            int k = rlog_where(st, err, errlen);
            snprintf(err + k, errlen - (size_t)k, "line longer than %d characters", RLOG_LINE_MAX - 2);
            return -EINVAL;
        }
        int rc = read_line(st, st->buf, e, &n, err, errlen);
        if (rc < 0)
            return rc;
    }
    return (long)n;
}

int rlog_stream_open(const char *path, const struct rlog_opts *o, struct rlog *lg, struct rlog_stream **out,
                     char *err, size_t errlen)
{
    *out = NULL;
    memset(lg, 0, sizeof(*lg));
    if (strlen(path) >= RLOG_PATH_MAX)
        return snprintf(err, errlen, "%.60s...: log name too long", path), -ENAMETOOLONG;
    struct rlog_stream *st = calloc(1, sizeof(*st));
    if (!st)
        return snprintf(err, errlen, "%s: out of memory", path), -ENOMEM;
    st->fp = slurp_open(path, "read_iolog", 0, err, errlen);
    if (!st->fp) {
        int rc = errno ? -errno : -EINVAL;
        free(st);
        return rc;
    }
    strcpy(st->path, path);
    st->o = *o;
    if (o->redirect && o->redirect[0])
        snprintf(st->redirect, sizeof(st->redirect), "%s", o->redirect);
    st->o.redirect = st->redirect[0] ? st->redirect : NULL;
    snprintf(st->dev_dir, sizeof(st->dev_dir), "%s", o->dev_dir ? o->dev_dir : "/dev");
    st->o.dev_dir = st->dev_dir;
    st->lg = lg;
    for (unsigned i = 0; i < RLOG_MAX_FILES; i++)
        st->dev_of[i] = UINT32_MAX;
    int rc = 0;
    /* fio's is_blktrace: one whole record with the magic (either byte order) */
    unsigned char rec[48];
    size_t got = fread(rec, 1, sizeof(rec), st->fp);
    if (got == sizeof(rec) && rlog_blk_magic(rec, got, &st->swap)) {
        lg->blktrace = true;
        rewind(st->fp);
    } else {
        rewind(st->fp);
        st->line = 1;
        if (!fgets(st->buf, RLOG_LINE_MAX, st->fp))
            rc = ferror(st->fp) ? (snprintf(err, errlen, "%s: read error", path), -EIO)
                                : (snprintf(err, errlen, "%s: empty, not a fio iolog", path), -EINVAL);
        else if (!strncmp(st->buf, ver2, sizeof(ver2) - 1))
            lg->version = 2;
        else if (!strncmp(st->buf, ver3, sizeof(ver3) - 1))
            lg->version = 3;
        else
            rc = (snprintf(err, errlen, "%s:1: not a fio iolog (version 2 or 3; fio no longer reads version 1) "
                                        "nor a blktrace file", path), -EINVAL);
    }
    if (rc) {
        rlog_stream_close(st);
        return rc;
    }
    *out = st;
    return 0;
}

long rlog_stream_next(struct rlog_stream *st, struct rlog_entry *e, size_t max, char *err, size_t errlen)
{
    if (st->ended && !st->closes_left)
        return 0;
    return st->lg->blktrace ? rlog_blk_next(st, e, max, err, errlen) : text_next(st, e, max, err, errlen);
}

void rlog_stream_close(struct rlog_stream *st)
{
    if (!st)
        return;
    if (st->fp)
        fclose(st->fp);
    free(st);
}

int rlog_read(const char *path, const struct rlog_opts *o, struct rlog *out, char *err, size_t errlen)
{
    struct rlog_stream *st;
    int rc = rlog_stream_open(path, o, out, &st, err, errlen);
    if (rc)
        return rc;
    size_t cap = 0;
    struct rlog_entry local[64];
    for (;;) {
        struct rlog_entry *dst = local;
        size_t room = sizeof(local) / sizeof(local[0]);
        if (o->keep) {
            if (cap - out->n < 64) {
                size_t nc = cap ? 2 * cap : 1024;
                struct rlog_entry *ne = realloc(out->e, nc * sizeof(*ne));
                if (!ne) {
                    rc = (snprintf(err, errlen, "%s: out of memory", path), -ENOMEM);
                    break;
                }
                out->e = ne;
                cap = nc;
            }
            dst = out->e + out->n;
            room = cap - out->n;
        }
        long got = rlog_stream_next(st, dst, room, err, errlen);
        if (got < 0) {
            rc = (int)got;
            break;
        }
        if (got == 0)
            break;
        if (o->keep)
            out->n += (size_t)got;
    }
    if (!rc && !out->count[RLOG_READ] && !out->count[RLOG_WRITE] && !out->count[RLOG_TRIM])
        rc = (snprintf(err, errlen, "%s: no read, write or trim to replay", path), -EINVAL);
    rlog_stream_close(st);
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

/* fio's get_next_str: the next ':'-separated name, "\:" a colon in it,
 * empty names skipped. */
static const char *next_name(const char *s, char *out, size_t outlen, bool *fits)
{
    while (*s == ':')
        s++;
    if (!*s)
        return NULL;
    size_t k = 0;
    *fits = true;
    for (; *s && *s != ':'; s++) {
        if (*s == '\\' && s[1] == ':')
            s++;
        if (k + 1 < outlen)
            out[k++] = *s;
        else
            *fits = false;
    }
    if (outlen)
        out[k] = 0;
    return s;
}

unsigned rlog_list_count(const char *list)
{
    char tmp[RLOG_PATH_MAX];
    unsigned n = 0;
    bool fits;
    for (const char *s = list; (s = next_name(s, tmp, sizeof(tmp), &fits)) != NULL;)
        n++;
    return n;
}

bool rlog_list_name(const char *list, unsigned idx, char *out, size_t outlen)
{
    unsigned n = rlog_list_count(list);
    if (!n)
        return false;
    idx %= n;
    bool fits = false;
    const char *s = list;
    for (unsigned i = 0; i <= idx; i++)
        s = next_name(s, out, outlen, &fits);
    return fits;
}
