/* iolog.c - see iolog.h. */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "stats/iolog.h"

#include "base/numfmt.h"

/* Longest line: six 20-digit numbers and their separators. */
#define IOLOG_LINE_MAX 128

static const char *const iolog_suffix[IOLOG_NKINDS] = {"lat", "clat", "slat", "schedlat", "bw",
                                                       "iops", "clat_hist"};

static int write_all(int fd, const char *p, size_t n)
{
    while (n) {
        ssize_t w = write(fd, p, n);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            return -errno;
        }
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

static void flush_file(struct iolog *l, struct iolog_file *f)
{
    if (f->len && !l->error) {
        int rc = write_all(f->fd, f->buf, f->len);
        if (rc < 0)
            l->error = rc;
    }
    f->len = 0;
}


/* "t, v, ddir, bs, 0\n", or with offsets "t, v, ddir, bs, off, 0\n" */
static size_t format_line(const struct iolog *l, char *p, uint64_t t_ms, uint64_t v, unsigned ddir,
                          uint64_t bs, uint64_t off)
{
    char *s = p;
    p = numfmt_u64(p, t_ms);
    *p++ = ',', *p++ = ' ';
    p = numfmt_u64(p, v);
    *p++ = ',', *p++ = ' ';
    *p++ = (char)('0' + ddir);
    *p++ = ',', *p++ = ' ';
    p = numfmt_u64(p, bs);
    if (l->offsets) {
        *p++ = ',', *p++ = ' ';
        p = numfmt_u64(p, off);
    }
    memcpy(p, ", 0\n", 4);
    return (size_t)(p + 4 - s);
}

static void iolog_put(struct iolog *l, enum iolog_kind k, const char *line, size_t n)
{
    struct iolog_file *f = l->f[k];
    if (!f)
        return;
    if (f->len + n > IOLOG_BUF_SIZE)
        flush_file(l, f);
    memcpy(f->buf + f->len, line, n);
    f->len += n;
}

/* The histogram log's lines go to the IOLOG_HIST buffer. */
static void hist_put(void *arg, const char *text, size_t n)
{
    iolog_put(arg, IOLOG_HIST, text, n);
}

void iolog_hist_emit(struct iolog *l, uint64_t t0_ns, const struct iolog_io *io)
{
    const struct iolog_hist_sink out = {hist_put, l};
    uint64_t clat = io->t_issue ? io->lat - io->slat : io->lat;
    uint64_t t_ms = (io->tc > t0_ns ? io->tc - t0_ns : 0) / 1000000;
    iolog_hist_add(l->hist, io->ddir, io->bytes, clat, t_ms, &out);
}

void iolog_emit(struct iolog *l, uint64_t t0_ns, const struct iolog_io *io)
{
    char line[IOLOG_LINE_MAX];
    uint64_t t_ms = (io->tc > t0_ns ? io->tc - t0_ns : 0) / 1000000;
    unsigned d = io->ddir;
    size_t n;
    if (l->f[IOLOG_LAT]) {
        n = format_line(l, line, t_ms, io->lat, d, io->bytes, io->off);
        iolog_put(l, IOLOG_LAT, line, n);
    }
    if (l->f[IOLOG_CLAT]) {
        n = format_line(l, line, t_ms, io->t_issue ? io->lat - io->slat : io->lat, d, io->bytes,
                        io->off);
        iolog_put(l, IOLOG_CLAT, line, n);
    }
    if (l->f[IOLOG_SLAT] && io->t_issue) {
        uint64_t ti_ms = (io->t_issue > t0_ns ? io->t_issue - t0_ns : 0) / 1000000;
        n = format_line(l, line, ti_ms, io->slat, d, io->bytes, io->off);
        iolog_put(l, IOLOG_SLAT, line, n);
    }
    if (l->f[IOLOG_SCHED] && io->paced) {
        n = format_line(l, line, t_ms, io->sched, d, io->bytes, io->off);
        iolog_put(l, IOLOG_SCHED, line, n);
    }
    if (l->f[IOLOG_BW]) {
        /* fio: this I/O's bytes over its latency, bytes * 10^6 / ns */
        n = format_line(l, line, t_ms, io->lat ? (uint64_t)io->bytes * 1000000u / io->lat : 0, d,
                        io->bytes, io->off);
        iolog_put(l, IOLOG_BW, line, n);
    }
    if (l->f[IOLOG_IOPS]) {
        n = format_line(l, line, t_ms, 1, d, io->bytes, io->off);
        iolog_put(l, IOLOG_IOPS, line, n);
    }
}

/* Writes the lines of the current window, stamped t_ns, and empties it.
 * rates: also the bandwidth and IOPS lines (a whole window of avg_ns). */
static void window_out(struct iolog *l, uint64_t t_ns, bool rates)
{
    char line[IOLOG_LINE_MAX];
    uint64_t t_ms = t_ns / 1000000;
    double secs = (double)l->avg_ns / 1e9;
    for (unsigned d = 0; d < DIR_COUNT; d++) {
        struct iolog_win *w = &l->win[d];
        if (!w->n)
            continue;
        size_t n = format_line(l, line, t_ms, (w->lat_sum + w->n / 2) / w->n, d, 0, 0);
        iolog_put(l, IOLOG_LAT, line, n);
        n = format_line(l, line, t_ms, (w->clat_sum + w->n / 2) / w->n, d, 0, 0);
        iolog_put(l, IOLOG_CLAT, line, n);
        if (w->slat_n) {
            n = format_line(l, line, t_ms, (w->slat_sum + w->slat_n / 2) / w->slat_n, d, 0, 0);
            iolog_put(l, IOLOG_SLAT, line, n);
        }
        if (w->sched_n) {
            n = format_line(l, line, t_ms, (w->sched_sum + w->sched_n / 2) / w->sched_n, d, 0, 0);
            iolog_put(l, IOLOG_SCHED, line, n);
        }
        if (rates) {
            n = format_line(l, line, t_ms, (uint64_t)((double)w->bytes / secs / 1024.0), d, 0, 0);
            iolog_put(l, IOLOG_BW, line, n);
            n = format_line(l, line, t_ms, (uint64_t)((double)w->n / secs), d, 0, 0);
            iolog_put(l, IOLOG_IOPS, line, n);
        }
        memset(w, 0, sizeof(*w));
    }
}

void iolog_roll(struct iolog *l, uint64_t t_ns)
{
    window_out(l, l->win_end, true);
    l->win_end = t_ns - t_ns % l->avg_ns + l->avg_ns;
}

static void close_file(struct iolog_file *f, bool remove_it)
{
    if (f->of.f) {
        outfile_abort(&f->of);
    } else {
        if (f->fd >= 0)
            close(f->fd);
        if (remove_it)
            unlink(f->path);
    }
    f->fd = -1;
}

static void free_log(struct iolog *l)
{
    free(l->hist);
    for (unsigned k = 0; k < IOLOG_NKINDS; k++)
        free(l->f[k]);
    free(l);
}

int iolog_open(struct iolog **out, const struct job_spec *job, unsigned number, char *err,
               size_t errlen)
{
    const char *none = "";
    const char *names[IOLOG_NKINDS] = {job->lat_log, job->lat_log, job->lat_log,
                                       job->rate_iops > 0 && job->log_schedlat ? job->lat_log : none, job->bw_log,
                                       job->iops_log, job->hist_log};
    *out = NULL;
    if (!job->lat_log[0] && !job->bw_log[0] && !job->iops_log[0] && !job->hist_log[0])
        return 0;
    struct iolog *l = calloc(1, sizeof(*l));
    if (!l)
        return snprintf(err, errlen, "out of memory"), -ENOMEM;
    l->avg_ns = (uint64_t)job->log_avg_msec * 1000000u;
    l->win_end = l->avg_ns;
    l->offsets = job->log_offset;
    if (job->hist_log[0] && job->log_hist_msec && !(l->hist = iolog_hist_new(job))) {
        free_log(l);
        return snprintf(err, errlen, "out of memory"), -ENOMEM;
    }
    for (unsigned k = 0; k < IOLOG_NKINDS; k++) {
        if (!names[k][0])
            continue;
        struct iolog_file *f = calloc(1, sizeof(*f));
        if (!f) {
            free_log(l);
            return snprintf(err, errlen, "out of memory"), -ENOMEM;
        }
        f->fd = -1;
        l->f[k] = f;
        char oerr[512] = "";
        if (job->per_job_logs) {
            /* a safe output file: written to a temporary file, renamed at close */
            snprintf(f->path, sizeof(f->path), "%s_%s.%u.log", names[k], iolog_suffix[k], number);
            int orc = outfile_open_derived(&f->of, f->path, oerr, sizeof(oerr));
            f->fd = orc < 0 ? orc : fileno(f->of.f);
        } else {
            /* a private file per worker, appended to the shared one at close */
            snprintf(f->shared, sizeof(f->shared), "%s_%s.log", names[k], iolog_suffix[k]);
            snprintf(f->path, sizeof(f->path), "%s.%d-%u.part", f->shared, (int)getpid(), number);
            /* the shared name is judged now, before the run, as well as
             * when it is appended to (a refusal then still fails the run) */
            int orc = outfile_check_strict(f->shared, oerr, sizeof(oerr));
            f->fd = orc < 0 ? orc : outfile_create_new(f->path, oerr, sizeof(oerr));
        }
        if (f->fd < 0) {
            int e = -f->fd;
            f->fd = -1;
            snprintf(err, errlen, "cannot create log file %s", oerr);
            for (unsigned j = 0; j < k; j++)
                if (l->f[j])
                    close_file(l->f[j], l->f[j]->shared[0] != 0);
            free_log(l);
            return -e;
        }
    }
    *out = l;
    return 0;
}

/* Appends the private file of a per_job_logs=0 log to the shared one: a
 * name ssdbench derives, appended only as a regular file (never through a
 * link, into a FIFO or a device: base/outfile.h). 0, or -errno with the
 * reason in err. */
static int append_shared(struct iolog_file *f, char *err, size_t errlen)
{
    struct outfile of;
    int rc = outfile_open_append(&of, f->shared, err, errlen);
    if (rc < 0)
        return rc;
    int in = open(f->path, O_RDONLY | O_CLOEXEC);
    rc = in < 0 ? -errno : 0;
    char buf[IOLOG_BUF_SIZE];
    while (rc == 0) {
        ssize_t n = read(in, buf, sizeof(buf));
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            rc = n < 0 ? -errno : 0;
            break;
        }
        if (fwrite(buf, 1, (size_t)n, of.f) != (size_t)n)
            rc = -(errno ? errno : EIO);
    }
    if (in >= 0)
        close(in);
    if (rc < 0) {
        outfile_abort(&of);
        snprintf(err, errlen, "%s: cannot write: %s", f->shared, strerror(-rc));
        return rc;
    }
    return outfile_commit(&of, err, errlen);
}

int iolog_close(struct iolog *l, uint64_t t0_ns, uint64_t t_end_ns, char *err, size_t errlen)
{
    if (!l)
        return 0;
    if (l->avg_ns && t_end_ns > t0_ns) {
        uint64_t t = t_end_ns - t0_ns;
        /* as fio: a final part-window gives its latency lines, no rates */
        if (t >= l->win_end)
            window_out(l, l->win_end, true);
        else
            window_out(l, t, false);
    }
    if (l->hist) {
        const struct iolog_hist_sink out = {hist_put, l};
        iolog_hist_finish(l->hist, (t_end_ns > t0_ns ? t_end_ns - t0_ns : 0) / 1000000, &out);
    }
    int rc = 0;
    const char *bad = NULL;
    char aerr[600] = "";
    for (unsigned k = 0; k < IOLOG_NKINDS; k++) {
        struct iolog_file *f = l->f[k];
        if (!f)
            continue;
        flush_file(l, f);
        if (l->error && !bad)
            bad = f->path, rc = l->error;
        char cerr[512];
        if (f->of.f) {
            if (rc)
                outfile_abort(&f->of);
            else if (outfile_commit(&f->of, cerr, sizeof(cerr)) < 0) {
                bad = f->path, rc = -EIO;
                snprintf(aerr, sizeof(aerr), "%s", cerr);
            }
        } else if (f->fd >= 0 && close(f->fd) < 0 && !rc) {
            bad = f->path, rc = -errno;
        }
        f->fd = -1;
        if (f->shared[0]) {
            int a = rc ? 0 : append_shared(f, aerr, sizeof(aerr));
            if (a < 0 && !rc)
                bad = f->shared, rc = a;
            unlink(f->path);
        }
    }
    if (rc && aerr[0])
        snprintf(err, errlen, "cannot write log file %s", aerr);
    else if (rc)
        snprintf(err, errlen, "cannot write log file %s: %s", bad, strerror(-rc));
    free_log(l);
    return rc;
}
