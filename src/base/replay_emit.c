/* replay_emit.c - what both log readers (the text log, replay_log.c, and
 * blktrace, replay_blk.c) do with an entry they have read: the log's files
 * by name, fio's delay since the last stamp, the entry appended with the
 * log's counts, extents and open state, and the "PATH:LINE: " of an error
 * (declared in replay_log_int.h). */
#include "base/replay_log_int.h"

#include <errno.h>
#include <string.h>

static int find_file(const struct rlog *lg, const char *name)
{
    for (unsigned i = 0; i < lg->nfiles; i++)
        if (!strcmp(lg->files[i], name))
            return (int)i;
    return -1;
}

/* "PATH:LINE: " or, for blktrace, "PATH: record N: " */
int rlog_where(const struct rlog_stream *st, char *err, size_t errlen)
{
    int k = st->lg->blktrace ? snprintf(err, errlen, "%s: record %u: ", st->path, st->line)
                             : snprintf(err, errlen, "%s:%u: ", st->path, st->line);
    return k < 0 ? 0 : (size_t)k >= errlen ? (int)errlen - 1 : k;
}

int rlog_bad(const struct rlog_stream *st, char *err, size_t errlen, const char *why, const char *what)
{
    int k = rlog_where(st, err, errlen);
    snprintf(err + k, errlen - (size_t)k, "%s '%.60s'", why, what);
    return -EINVAL;
}

int rlog_file(struct rlog_stream *st, const char *name, bool add, char *err, size_t errlen)
{
    struct rlog *lg = st->lg;
    int f = find_file(lg, name);
    if (f >= 0 || !add)
        return f;
    if (lg->nfiles == RLOG_MAX_FILES) {
        int k = rlog_where(st, err, errlen);
        snprintf(err + k, errlen - (size_t)k, "more than %d files", RLOG_MAX_FILES);
        return -E2BIG;
    }
    if (strlen(name) >= RLOG_PATH_MAX)
        return rlog_bad(st, err, errlen, "file name too long", name), -ENAMETOOLONG;
    strcpy(lg->files[lg->nfiles], name);
    return (int)lg->nfiles++;
}

uint64_t rlog_gap(struct rlog_stream *st, uint64_t t, unsigned unit_ns)
{
    unsigned pct = st->o.time_scale ? st->o.time_scale : 100;
    uint64_t d = 0;
    if (st->last_t && !st->o.no_stall && t >= st->last_t) {
        uint64_t gap = t - st->last_t;
        d = pct == 100 ? gap : (uint64_t)((double)gap * (100.0 / (double)pct));
    }
    st->last_t = t;
    /* fio keeps microseconds: blktrace's nanoseconds are truncated */
    return unit_ns == 1 ? d / 1000 * 1000 : d * unit_ns;
}

int rlog_emit(struct rlog_stream *st, struct rlog_entry *e, struct rlog_entry *out, size_t *n, char *err,
              size_t errlen)
{
    struct rlog *lg = st->lg;
    unsigned f = e->file;
    switch (e->op) {
    case RLOG_ADD:
        break;
    case RLOG_OPEN:
        if (st->open[f]) {
            /* fio: a redirected file's re-open is ignored; any other aborts */
            if (!st->redirect[0])
                return rlog_bad(st, err, errlen, "open of a file the log has open (fio 3.33 aborts on it):",
                           lg->files[f]);
        } else {
            lg->reopens += st->opened[f];
            st->open[f] = st->opened[f] = true;
        }
        lg->opens++;
        break;
    case RLOG_CLOSE:
        st->open[f] = false;
        lg->closes++;
        break;
    case RLOG_WAIT:
        lg->waits++;
        break;
    default:
        if (!st->open[f])
            return rlog_bad(st, err, errlen, "I/O on a file the log has not opened (fio 3.33 aborts on it):",
                       lg->files[f]);
        if (e->op <= RLOG_TRIM) {
            lg->bytes[e->op] += e->len;
            if (e->len > lg->max_len[e->op])
                lg->max_len[e->op] = e->len;
            if (e->off + e->len > lg->extent[f])
                lg->extent[f] = e->off + e->len;
        }
        lg->count[e->op]++;
        break;
    }
    out[(*n)++] = *e;
    return 1;
}
