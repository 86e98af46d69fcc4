/* act_log.h - writes an ACT 6 raw log (act_storage's stdout) so that ACT's own
 * analysis script, act_latency.py, reads it unchanged.
 *
 * The layout is ACT 6.6's, byte for byte where the script looks (see
 * reference/act.md section 9): header, the two CONFIGURATION blocks, device
 * discovery, HISTOGRAM NAMES, then one `after N sec:` block of cumulative
 * log2 buckets per report interval. The script requires a line
 * `ACT version 6.x`, so we keep it, and the line after it names ssdbench as
 * the producer (the script skips it; ssdbench's reader reports it).
 *
 * Plain arrays in, text out: the runner turns its histograms into
 * act_log_hist entries (hist_log2_buckets with unit 1e6 or 1e3 ns) and this
 * module never sees the runner. Every function returns 0 or -EIO when the
 * stream reports an error; act_log_interval flushes so that a killed run
 * loses at most the interval being written.
 */
#ifndef SSDBENCH_ACT_LOG_H
#define SSDBENCH_ACT_LOG_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "act/act_config.h"

#define ACT_LOG_VERSION "6.6"     /* the ACT log format we write */

/* One histogram at one dump: counts cumulative since the start of the run. */
struct act_log_hist {
    const char *name;
    uint64_t buckets[ACT_NBUCKETS];
};

/* Discovery facts for one device, printed as ACT prints them. */
struct act_log_device {
    const char *name;
    uint64_t size_bytes;
    uint32_t min_io_bytes;
};

/* Why a run was stopped by the max-lag rule (ACT's wording follows). */
enum act_log_stop {
    ACT_STOP_SERVICE_LAG,   /* service threads behind: the host can't issue the load */
    ACT_STOP_LB_READ_LAG,   /* large-block reads behind: the drives can't keep up */
    ACT_STOP_LB_WRITE_LAG,
};

/* Blank line, "ACT version 6.6", "Storage device IO test", a line naming the
 * producer (e.g. "ssdbench 0.1.0"), blank line. */
int act_log_header(FILE *f, const char *producer);

/* "detected N CPUs" (only when service-threads defaulted), then the
 * ACT-STORAGE CONFIGURATION block (every key, defaults included, plus
 * num-devices; file-size-mbytes only when set) and DERIVED CONFIGURATION. */
int act_log_config(FILE *f, const struct act_config *c, const struct act_derived *d);

/* One discovery line per device. lb_bytes is the large-block size. */
int act_log_devices(FILE *f, const struct act_log_device *devs, unsigned ndev,
                    uint32_t lb_bytes);

/* The names ACT dumps, in its order: reads and <dev>-reads (with reads),
 * large-block-reads and large-block-writes (with writes), writes and
 * <dev>-writes (commit-to-device). Returns how many names were written to
 * names[] (at most max); the total needed is 2 + 2 * ndevices at most. */
unsigned act_log_standard_names(const struct act_config *c, const struct act_derived *d,
                                char (*names)[ACT_HIST_NAME_MAX], unsigned max);

/* Blank line, "HISTOGRAM NAMES", the names, blank line. */
int act_log_hist_names(FILE *f, const char *const *names, unsigned n);

/* One interval: "after N sec:", then per histogram "<name> (<total> total)"
 * and its non-zero buckets, 4 cells " (BB: CCCCCCCCCC)" per line, then a
 * blank line. Flushes the stream. */
int act_log_interval(FILE *f, unsigned elapsed_s, const struct act_log_hist *h, unsigned nhist);

/* The ERROR lines ACT prints when max-lag-sec stops a run. */
int act_log_stop(FILE *f, enum act_log_stop why);

/* ACT's line for a failed I/O ("ERROR: reading <dev>: <errno> '<message>'"). */
int act_log_io_error(FILE *f, const char *dev, bool is_write, int errnum);

#endif
