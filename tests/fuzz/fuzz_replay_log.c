/* fuzz_replay_log.c - the read_iolog reader (base/replay_log.h): fio's text
 * iologs and blktrace files, read whole and as a stream a few entries at a
 * time, as a job's check and a worker's chunked replay read them. The
 * first byte picks the options (redirect, scale, align, time scale,
 * no_stall, skip); the rest is the log, written to a file of the
 * harness's own directory. Devices are looked up in an empty directory. */
#include "fuzz.h"

#include "base/replay_log.h"

static struct rlog lg, slg; /* large: not on the stack */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    char path[300], devs[300];
    snprintf(path, sizeof(path), "%s/log", fuzz_tmpdir());
    snprintf(devs, sizeof(devs), "%s/dev", fuzz_tmpdir());
    FILE *f = fopen(path, "wb");
    if (!f)
        abort();
    fwrite(data + 1, 1, size - 1, f);
    fclose(f);
    unsigned sel = data[0];
    struct rlog_opts o = {.redirect = sel & 1 ? "t.dat" : NULL, .scale = sel & 2 ? 3 : 0,
                          .align = sel & 4 ? 4096 : 0, .time_scale = sel & 8 ? 37 : 0, .no_stall = sel & 16,
                          .skip = (sel >> 5) & 7, .dev_dir = devs, .keep = true};
    char err[512];
    if (rlog_read(path, &o, &lg, err, sizeof(err)) == 0)
        rlog_free(&lg);
    o.keep = false;
    struct rlog_stream *st;
    if (rlog_stream_open(path, &o, &slg, &st, err, sizeof(err)) == 0) {
        struct rlog_entry e[3];
        while (rlog_stream_next(st, e, 3, err, sizeof(err)) > 0)
            ;
        rlog_stream_close(st);
    }
    char name[64];
    rlog_list_name((const char *)"a:b\\:c", sel, name, sizeof(name));
    return 0;
}
