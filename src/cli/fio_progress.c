/* fio_progress.c - see fio_progress.h. */
#include "cli/fio_progress.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "base/outfile.h"
#include "workload/session.h"

void fio_num(char *buf, size_t len, double v, bool binary, const char *suffix)
{
    static const char *const bin[] = {"", "Ki", "Mi", "Gi", "Ti", "Pi"};
    static const char *const dec[] = {"", "k", "M", "G", "T", "P"};
    double base = binary ? 1024.0 : 1000.0;
    unsigned u = 0;
    while (v >= 10000.0 && u < 5) {
        v /= base;
        u++;
    }
    const char *unit = binary ? bin[u] : dec[u];
    if (v < 10 && u)
        snprintf(buf, len, "%.2f%s%s", v, unit, suffix);
    else if (v < 100 && u)
        snprintf(buf, len, "%.1f%s%s", v, unit, suffix);
    else
        snprintf(buf, len, "%.0f%s%s", v, unit, suffix);
}

int fio_progress_start(struct fio_progress *p, char *err, size_t errlen)
{
    static const char *const names[DIR_COUNT] = {"agg-read_bw.log", "agg-write_bw.log",
                                                     "agg-trim_bw.log"};
    if (!p->err)
        p->err = stderr;
    p->next_status_ns = p->status_interval_ns;
    if (!p->bw_log)
        return 0;
    for (int d = 0; d < DIR_COUNT; d++) {
        /* a name ssdbench picks: appended only as a regular file, never
         * through a link, never into a FIFO or device */
        struct outfile of;
        char oerr[512];
        if (outfile_open_append(&of, names[d], oerr, sizeof(oerr)) < 0) {
            snprintf(err, errlen, "--bandwidth-log: %s", oerr);
            fio_progress_end(p);
            return -1;
        }
        p->log[d] = of.f;
    }
    return 0;
}

static bool eta_on(const struct fio_progress *p)
{
    return p->eta == FIO_ETA_ALWAYS || (p->eta == FIO_ETA_AUTO && isatty(fileno(p->err)));
}

static uint64_t ios_of(const struct runner_interval *iv, int d)
{
    return iv->all->dir[d].ios;
}

/* fio's ETA line (",t=" parts when trims ran): "Jobs: 2 (f=2): [50.0%][r=12.3MiB/s,w=0KiB/s][r=3150,w=0 IOPS][eta 00m:05s]" */
static void eta_line(struct fio_progress *p, const struct runner_interval *iv)
{
    double secs = (double)(iv->t_end_ns - iv->t_start_ns) / 1e9;
    char bw[DIR_COUNT][32], io[DIR_COUNT][32], pct[32] = "", eta[32];
    for (int d = 0; d < DIR_COUNT; d++) {
        const struct dir_stats *ds = &iv->all->dir[d];
        fio_num(bw[d], sizeof(bw[d]), secs > 0 ? (double)ds->bytes / secs : 0, true, "B/s");
        fio_num(io[d], sizeof(io[d]), secs > 0 ? (double)ds->ios / secs : 0, false, "");
    }
    double done = (double)p->now_ns / 1e9;
    if (p->planned_s > 0) {
        double left = p->planned_s > done ? p->planned_s - done : 0;
        snprintf(pct, sizeof(pct), "[%.1f%%]", done >= p->planned_s ? 100.0 : 100.0 * done / p->planned_s);
        snprintf(eta, sizeof(eta), "eta %02um:%02us", (unsigned)(left / 60), (unsigned)left % 60);
    } else {
        snprintf(eta, sizeof(eta), "elapsed %02um:%02us", (unsigned)(done / 60), (unsigned)done % 60);
    }
    if (ios_of(iv, DIR_TRIM))
        fprintf(p->err, "Jobs: %u (f=%u): %s[r=%s,w=%s,t=%s][r=%s,w=%s,t=%s IOPS][%s]", iv->njobs, iv->njobs, pct,
                bw[0], bw[1], bw[2], io[0], io[1], io[2], eta);
    else
        fprintf(p->err, "Jobs: %u (f=%u): %s[r=%s,w=%s][r=%s,w=%s IOPS][%s]", iv->njobs, iv->njobs, pct, bw[0],
                bw[1], io[0], io[1], eta);
    if (p->eta_newline_ns && p->now_ns - p->last_newline_ns >= p->eta_newline_ns) {
        fputc('\n', p->err);
        p->last_newline_ns = p->now_ns;
        p->line_open = false;
    } else {
        fputc('\r', p->err);
        p->line_open = true;
    }
    fflush(p->err);
}

/* fio's group line for each direction with I/O, from the running totals:
 * "   READ: bw=3483MiB/s (3652MB/s), io=1024MiB (1074MB), run=294-294msec" */
static void status_lines(struct fio_progress *p)
{
    static const char *const dname[DIR_COUNT] = {"READ", "WRITE", "TRIM"};
    double secs = (double)p->now_ns / 1e9;
    unsigned long long ms = (unsigned long long)(p->now_ns / 1000000);
    if (p->line_open)
        fputc('\n', p->err);
    p->line_open = false;
    fprintf(p->err, "Run status at %llumsec (running totals):\n", ms);
    for (int d = 0; d < DIR_COUNT; d++) {
        if (!p->ios[d])
            continue;
        char bwb[32], bwd[32], iob[32], iod[32];
        fio_num(bwb, sizeof(bwb), secs > 0 ? (double)p->bytes[d] / secs : 0, true, "B/s");
        fio_num(bwd, sizeof(bwd), secs > 0 ? (double)p->bytes[d] / secs : 0, false, "B/s");
        fio_num(iob, sizeof(iob), (double)p->bytes[d], true, "B");
        fio_num(iod, sizeof(iod), (double)p->bytes[d], false, "B");
        fprintf(p->err, "%7s: bw=%s (%s), io=%s (%s), run=%llu-%llumsec\n", dname[d], bwb, bwd, iob, iod, ms, ms);
    }
    fflush(p->err);
}

bool fio_progress_hook(void *arg, const struct runner_interval *iv)
{
    struct fio_progress *p = arg;
    if (iv->index == 0) /* a new phase: its times start at 0 again */
        p->base_ns = p->now_ns;
    p->now_ns = p->base_ns + iv->t_end_ns;
    double secs = (double)(iv->t_end_ns - iv->t_start_ns) / 1e9;
    for (int d = 0; d < DIR_COUNT; d++) {
        const struct dir_stats *ds = &iv->all->dir[d];
        p->ios[d] += ds->ios;
        p->bytes[d] += ds->bytes;
        /* fio's log line: time (ms), value (KiB/s), ddir, bs (0), prio (0) */
        if (p->log[d] && ds->ios && secs > 0)
            fprintf(p->log[d], "%llu, %llu, %d, 0, 0\n", (unsigned long long)(p->now_ns / 1000000),
                    (unsigned long long)((double)ds->bytes / 1024.0 / secs), d);
    }
    if (eta_on(p))
        eta_line(p, iv);
    if (p->status_interval_ns && p->now_ns >= p->next_status_ns) {
        status_lines(p);
        while (p->next_status_ns <= p->now_ns)
            p->next_status_ns += p->status_interval_ns;
    }
    return false;
}

int fio_progress_end(struct fio_progress *p)
{
    if (p->line_open && p->err)
        fputc('\n', p->err);
    p->line_open = false;
    int rc = 0;
    for (int d = 0; d < DIR_COUNT; d++)
        if (p->log[d]) {
            bool bad = ferror(p->log[d]) != 0;
            if ((fclose(p->log[d]) != 0 || bad) && !rc) {
                rc = -1;
                session_err("--bandwidth-log: cannot write agg-%s_bw.log", d == 0 ? "read" : d == 1 ? "write" : "trim");
            }
            p->log[d] = NULL;
        }
    return rc;
}
