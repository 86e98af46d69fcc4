/* cli_dry.c - see cli_dry.h. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cli_dry.h"
#include "target/target.h"

void cli_duration(char *buf, size_t len, double s)
{
    if (s >= 3600)
        snprintf(buf, len, "%.0f h %.0f min", (double)(long)(s / 3600), (double)((long)s % 3600) / 60.0);
    else if (s >= 60)
        snprintf(buf, len, "%.0f min %.0f s", (double)(long)(s / 60), (double)((long)s % 60));
    else if (s == (double)(long)s)
        snprintf(buf, len, "%.0f s", s);
    else
        snprintf(buf, len, "%.1f s", s);
}

static void size_words(char *buf, size_t len, uint64_t b)
{
    static const char *const u[] = {"bytes", "KiB", "MiB", "GiB", "TiB", "PiB"};
    unsigned k = 0;
    double v = (double)b;
    while (v >= 1024 && k < 5) {
        v /= 1024;
        k++;
    }
    if (k == 0)
        snprintf(buf, len, "%llu bytes", (unsigned long long)b);
    else
        snprintf(buf, len, v == (double)(uint64_t)v ? "%.0f %s" : "%.2f %s", v, u[k]);
}

int cli_dry_target(FILE *f, const char *path, bool writes, uint64_t create_size,
                   const struct guard_consent *c)
{
    struct target t;
    char err[1024], sz[32];
    struct target_open_opts o = {.write = writes, .consent = c};
    int rc = target_open(&t, path, &o, err, sizeof(err));
    if (rc == -ENOENT && create_size && !target_pseudo_place(path)) {
        size_words(sz, sizeof(sz), create_size);
        fprintf(f, "  target %s: missing: would be created (%s) and kept after the run\n", path, sz);
        return 0;
    }
    if (rc == -ENOENT) {
        cli_err("%s: no such file or device%s", path,
                target_pseudo_place(path) ? " (ssdbench creates no file under /dev, /proc or /sys)" : "");
        return -1;
    }
    if (rc == -EPERM) {
        /* the guard's answer, as a run would get it */
        fprintf(f, "  target %s: would be written: REFUSED: %s\n", path, err);
        return 0;
    }
    if (rc < 0) {
        cli_err("%s", err);
        return -1;
    }
    size_words(sz, sizeof(sz), t.info.size);
    fprintf(f, "  target %s: %s, %s: %s\n", path, t.info.kind == TARGET_BLOCK ? "block device" : "file", sz,
            !writes ? "read only" : t.ours ? "would be written (a file ssdbench made; the guard allows it)"
                                           : "would be written (the guard allows it)");
    target_close(&t, false);
    return 0;
}
