/* worker_wlog.c - fio's write_iolog: every I/O a worker issues, as fio 3.33
 * writes it ("fio version 3 iolog": microseconds since the job started, the
 * file name, then add / open / read OFFSET LEN / write / trim / sync /
 * datasync (OFFSET 0) / close), appended to the named file as fio appends (clones
 * write one after another into the same file). The stream has one buffer,
 * allocated at set-up; the I/O path formats into it. Declared in
 * runner_int.h. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "runner/runner_int.h"

#define WLOG_BUF (64 * 1024)

static const char *wlog_file(const struct worker *w, unsigned t)
{
    const struct job_spec *j = w->job;
    return t < j->ntargets ? j->targets[t] : j->name;
}

static void wlog_files(struct worker *w, uint64_t now, const char *what)
{
    unsigned first = w->map.layout == LAYOUT_JBOD ? w->first_target : 0;
    unsigned n = w->map.layout == LAYOUT_JBOD ? 1 : w->job->ntargets;
    uint64_t us = now > w->wlog_t0 ? (now - w->wlog_t0) / 1000 : 0;
    for (unsigned t = first; t < first + n; t++)
        fprintf(w->wlog, "%llu %s %s\n", (unsigned long long)us, wlog_file(w, t), what);
}

int wlog_open(struct worker *w, uint64_t now, char *err, size_t errlen)
{
    const char *path = w->job->write_iolog;
    if (!path[0])
        return 0;
    int fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW | O_CLOEXEC, 0644);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
        int e = fd < 0 ? errno : EINVAL;
        snprintf(err, errlen, "write_iolog %s: %s", path, fd < 0 ? strerror(e) : "not a regular file");
        if (fd >= 0)
            close(fd);
        return -e;
    }
    w->wlog_buf = malloc(WLOG_BUF);
    w->wlog = w->wlog_buf ? fdopen(fd, "a") : NULL;
    if (!w->wlog) {
        close(fd);
        free(w->wlog_buf);
        w->wlog_buf = NULL;
        return snprintf(err, errlen, "out of memory"), -ENOMEM;
    }
    setvbuf(w->wlog, w->wlog_buf, _IOFBF, WLOG_BUF);
    w->wlog_t0 = now;
    fputs("fio version 3 iolog\n", w->wlog);
    wlog_files(w, now, "add");
    wlog_files(w, now, "open");
    return 0;
}

void wlog_io(struct worker *w, const struct io_req *r, uint64_t now)
{
    static const char *const op[] = {[IO_OP_READ] = "read", [IO_OP_WRITE] = "write", [IO_OP_TRIM] = "trim",
                                     [IO_OP_FSYNC] = "sync", [IO_OP_FDATASYNC] = "datasync"};
    unsigned t = w->map.layout == LAYOUT_JBOD ? w->first_target : r->target;
    unsigned long long us = now > w->wlog_t0 ? (now - w->wlog_t0) / 1000 : 0;
    /* flushes too have an offset and a length (0), as fio writes them and
     * reads them back */
    fprintf(w->wlog, "%llu %s %s %llu %u\n", us, wlog_file(w, t), op[r->op], (unsigned long long)r->off,
            r->op <= IO_OP_TRIM ? r->len : 0);
}

int wlog_close(struct worker *w, uint64_t now)
{
    if (!w->wlog)
        return 0;
    wlog_files(w, now, "close");
    int rc = fclose(w->wlog) == 0 ? 0 : -errno;
    w->wlog = NULL;
    free(w->wlog_buf);
    w->wlog_buf = NULL;
    return rc;
}
