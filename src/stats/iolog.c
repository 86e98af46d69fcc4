/* iolog.c - see iolog.h. */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

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


/* "t, v, ddir, bs, prio\n", or with offsets "t, v, ddir, bs, off, prio\n";
 * prio as fio writes it: 1 for a real-time I/O priority, else 0, or with
 * log_prio the priority value itself (0x%04x) */
static size_t format_line_prio(const struct iolog *l, char *p, uint64_t t_ms, uint64_t v, unsigned ddir,
                               uint64_t bs, uint64_t off, unsigned prio)
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
    if (l->log_prio) {
        static const char hex[] = "0123456789abcdef";
        memcpy(p, ", 0x", 4);
        p += 4;
        for (int sh = 12; sh >= 0; sh -= 4)
            *p++ = hex[(prio >> sh) & 15];
        *p++ = '\n';
        return (size_t)(p - s);
    }
    memcpy(p, (prio >> 13) == 1 ? ", 1\n" : ", 0\n", 4);
    return (size_t)(p + 4 - s);
}

static size_t format_line(const struct iolog *l, char *p, uint64_t t_ms, uint64_t v, unsigned ddir,
                          uint64_t bs, uint64_t off)
{
    return format_line_prio(l, p, t_ms, v, ddir, bs, off, 0);
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
        n = format_line_prio(l, line, t_ms, io->lat, d, io->bytes, io->off, io->prio);
        iolog_put(l, IOLOG_LAT, line, n);
    }
    if (l->f[IOLOG_CLAT]) {
        n = format_line_prio(l, line, t_ms, io->t_issue ? io->lat - io->slat : io->lat, d, io->bytes,
                        io->off, io->prio);
        iolog_put(l, IOLOG_CLAT, line, n);
    }
    if (l->f[IOLOG_SLAT] && io->t_issue) {
        uint64_t ti_ms = (io->t_issue > t0_ns ? io->t_issue - t0_ns : 0) / 1000000;
        n = format_line_prio(l, line, ti_ms, io->slat, d, io->bytes, io->off, io->prio);
        iolog_put(l, IOLOG_SLAT, line, n);
    }
    if (l->f[IOLOG_SCHED] && io->paced) {
        n = format_line_prio(l, line, t_ms, io->sched, d, io->bytes, io->off, io->prio);
        iolog_put(l, IOLOG_SCHED, line, n);
    }
    if (l->f[IOLOG_BW] && !l->no_bw) {
        /* fio: this I/O's bytes over its latency, bytes * 10^6 / ns */
        n = format_line_prio(l, line, t_ms, io->lat ? (uint64_t)io->bytes * 1000000u / io->lat : 0, d,
                        io->bytes, io->off, io->prio);
        iolog_put(l, IOLOG_BW, line, n);
    }
    if (l->f[IOLOG_IOPS]) {
        n = format_line_prio(l, line, t_ms, 1, d, io->bytes, io->off, io->prio);
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

int iolog_open(struct iolog **out, const struct iolog_opts *o, unsigned number, char *err,
               size_t errlen)
{
    const char *none = "";
    const char *names[IOLOG_NKINDS] = {o->lat_log, o->lat_log, o->lat_log,
                                       o->schedlat ? o->lat_log : none, o->bw_log,
                                       o->iops_log, o->hist_log};
    *out = NULL;
    if (!o->lat_log[0] && !o->bw_log[0] && !o->iops_log[0] && !o->hist_log[0])
        return 0;
    struct iolog *l = calloc(1, sizeof(*l));
    if (!l)
        return snprintf(err, errlen, "out of memory"), -ENOMEM;
    l->avg_ns = (uint64_t)o->avg_msec * 1000000u;
    l->win_end = l->avg_ns;
    l->offsets = o->offsets;
    l->log_prio = o->log_prio;
    /* fio's disable_bw_measurement: no per-I/O bandwidth lines (the file stays, empty) */
    l->no_bw = o->no_bw && !l->avg_ns;
    if (o->hist_log[0] && o->hist_msec && !(l->hist = iolog_hist_new(o->hist_msec, o->hist_coarseness))) {
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
        /* (the histogram log stays text: fio compresses its own samples) */
        f->gz = o->compressed && k != IOLOG_HIST;
        if (f->gz) {
            /* compressed (fio's NAME.log.fz): the lines go to a private
             * file, deflated onto the .fz file at close */
            f->gz_own = o->per_job_logs;
            if (o->per_job_logs)
                snprintf(f->shared, sizeof(f->shared), "%s_%s.%u.log.fz", names[k], iolog_suffix[k], number);
            else
                snprintf(f->shared, sizeof(f->shared), "%s_%s.log.fz", names[k], iolog_suffix[k]);
            snprintf(f->path, sizeof(f->path), "%s.%d-%u.part", f->shared, (int)getpid(), number);
            int orc = outfile_check_strict(f->shared, oerr, sizeof(oerr));
            f->fd = orc < 0 ? orc : outfile_create_new(f->path, oerr, sizeof(oerr));
        } else if (o->per_job_logs) {
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

/* log_store_compressed: fio 3.33 stores its samples, not its text: each
 * line becomes fio's struct io_sample (time, value, ddir with bit 31 when
 * an offset follows, priority, bs; 32 bytes, 40 with the offset), little
 * endian as written by fio on x86, and the whole private file one zlib
 * stream (fio's chunks are zlib streams one after another). */
#define FZ_OFFSET_BIT 0x80000000u
static size_t fz_sample(const char *line, unsigned char *out)
{
    unsigned long long t, bs, off = 0;
    long long v;
    unsigned ddir, prio;
    bool with_off = sscanf(line, "%llu, %lld, %u, %llu, %llu, %u", &t, &v, &ddir, &bs, &off, &prio) == 6;
    if (!with_off && sscanf(line, "%llu, %lld, %u, %llu, %u", &t, &v, &ddir, &bs, &prio) != 5)
        return 0;
    memset(out, 0, 40);
    uint64_t t64 = t, v64 = (uint64_t)v, bs64 = bs, off64 = off;
    uint32_t d32 = ddir | (with_off ? FZ_OFFSET_BIT : 0);
    uint16_t p16 = (uint16_t)prio;
    memcpy(out, &t64, 8);
    memcpy(out + 8, &v64, 8);
    memcpy(out + 16, &d32, 4);
    memcpy(out + 20, &p16, 2);
    memcpy(out + 24, &bs64, 8);
    if (with_off)
        memcpy(out + 32, &off64, 8);
    return with_off ? 40 : 32;
}

static int deflate_into(int in, FILE *out)
{
    FILE *fin = fdopen(dup(in), "r");
    if (!fin)
        return -errno;
    z_stream z;
    memset(&z, 0, sizeof(z));
    if (deflateInit(&z, Z_DEFAULT_COMPRESSION) != Z_OK) {
        fclose(fin);
        return -ENOMEM;
    }
    unsigned char ibuf[IOLOG_BUF_SIZE], obuf[IOLOG_BUF_SIZE];
    char line[IOLOG_LINE_MAX * 2];
    int rc = 0, flush = Z_NO_FLUSH;
    while (rc == 0 && flush != Z_FINISH) {
        size_t n = 0;
        while (n + 40 <= sizeof(ibuf) && fgets(line, sizeof(line), fin))
            n += fz_sample(line, ibuf + n);
        if (n + 40 <= sizeof(ibuf))
            flush = Z_FINISH;
        z.next_in = ibuf;
        z.avail_in = (uInt)n;
        do {
            z.next_out = obuf;
            z.avail_out = sizeof(obuf);
            if (deflate(&z, flush) == Z_STREAM_ERROR) {
                rc = -EIO;
                break;
            }
            size_t m = sizeof(obuf) - z.avail_out;
            if (m && fwrite(obuf, 1, m, out) != m)
                rc = -(errno ? errno : EIO);
        } while (rc == 0 && z.avail_out == 0);
    }
    if (rc == 0 && ferror(fin))
        rc = -EIO;
    deflateEnd(&z);
    fclose(fin);
    return rc;
}

/* Appends the private file of a per_job_logs=0 log to the shared one: a
 * name ssdbench derives, appended only as a regular file (never through a
 * link, into a FIFO or a device: base/outfile.h). 0, or -errno with the
 * reason in err. */
static int append_shared(struct iolog_file *f, char *err, size_t errlen)
{
    struct outfile of;
    /* compressed: deflated onto it, and a per_job_logs=1 one replaces it */
    int rc = f->gz_own ? outfile_open_derived(&of, f->shared, err, errlen)
                       : outfile_open_append(&of, f->shared, err, errlen);
    if (rc < 0)
        return rc;
    int in = open(f->path, O_RDONLY | O_CLOEXEC);
    rc = in < 0 ? -errno : 0;
    if (rc == 0 && f->gz)
        rc = deflate_into(in, of.f);
    char buf[IOLOG_BUF_SIZE];
    while (rc == 0 && !f->gz) {
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

/* Prints the whole samples in buf[0..*n) as fio's log lines; keeps the
 * partial one at the start of buf. */
static void fz_print(unsigned char *buf, size_t *n, FILE *out)
{
    size_t at = 0;
    while (*n - at >= 32) {
        uint64_t t, v, bs, off = 0;
        uint32_t d;
        uint16_t p;
        memcpy(&d, buf + at + 16, 4);
        size_t sz = d & FZ_OFFSET_BIT ? 40 : 32;
        if (*n - at < sz)
            break;
        memcpy(&t, buf + at, 8);
        memcpy(&v, buf + at + 8, 8);
        memcpy(&p, buf + at + 20, 2);
        memcpy(&bs, buf + at + 24, 8);
        if (sz == 40) {
            memcpy(&off, buf + at + 32, 8);
            fprintf(out, "%llu, %lld, %u, %llu, %llu, %u\n", (unsigned long long)t, (long long)v,
                    d & ~(FZ_OFFSET_BIT | 0x40000000u), (unsigned long long)bs, (unsigned long long)off, p);
        } else {
            fprintf(out, "%llu, %lld, %u, %llu, %u\n", (unsigned long long)t, (long long)v,
                    d & ~(FZ_OFFSET_BIT | 0x40000000u), (unsigned long long)bs, p);
        }
        at += sz;
    }
    memmove(buf, buf + at, *n - at);
    *n -= at;
}

int iolog_inflate(const char *path, FILE *out, char *err, size_t errlen)
{
    int in = open(path, O_RDONLY | O_CLOEXEC);
    if (in < 0)
        return snprintf(err, errlen, "%s: %s", path, strerror(errno)), -errno;
    z_stream z;
    memset(&z, 0, sizeof(z));
    if (inflateInit(&z) != Z_OK) {
        close(in);
        return snprintf(err, errlen, "out of memory"), -ENOMEM;
    }
    unsigned char ibuf[IOLOG_BUF_SIZE], obuf[IOLOG_BUF_SIZE + 40];
    size_t have = 0; /* bytes of samples waiting in obuf */
    int rc = 0;
    bool mid = false; /* inside a stream */
    for (;;) {
        ssize_t n = read(in, ibuf, sizeof(ibuf));
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            rc = -errno;
            snprintf(err, errlen, "%s: %s", path, strerror(errno));
            break;
        }
        if (n == 0) {
            if (mid) {
                rc = -EINVAL;
                snprintf(err, errlen, "%s: the compressed log ends inside a stream", path);
            }
            break;
        }
        z.next_in = ibuf;
        z.avail_in = (uInt)n;
        while (z.avail_in && rc == 0) {
            z.next_out = obuf + have;
            z.avail_out = (uInt)(IOLOG_BUF_SIZE - have);
            int zr = inflate(&z, Z_NO_FLUSH);
            if (zr != Z_OK && zr != Z_STREAM_END && zr != Z_BUF_ERROR) {
                rc = -EINVAL;
                snprintf(err, errlen, "%s: not a compressed fio log (%s)", path, z.msg ? z.msg : "zlib error");
                break;
            }
            have = IOLOG_BUF_SIZE - z.avail_out;
            fz_print(obuf, &have, out);
            mid = zr != Z_STREAM_END;
            if (zr == Z_STREAM_END)
                inflateReset(&z); /* the next chunk is a stream of its own */
        }
        if (rc)
            break;
    }
    inflateEnd(&z);
    close(in);
    if (rc == 0 && fflush(out) != 0) {
        rc = -errno;
        snprintf(err, errlen, "writing the inflated log: %s", strerror(errno));
    }
    return rc;
}
