/* act_config.h - Aerospike ACT (act_storage 6.x) configuration and the rates
 * ACT derives from it.
 *
 * An ACT config file is `key: value` lines with `#` comments. We accept every
 * current act_storage key with ACT's default, and refuse unknown and removed
 * keys with a file:line message (ACT refuses unknown keys too, so a config that
 * ACT runs, we run). Where ACT silently guesses (a yes/no value that is not
 * y/n, trailing text after a number, a key given twice) we refuse instead,
 * because a certification run is 24 hours long and a typo should cost seconds.
 *
 * act_config_derive() reproduces ACT's integer arithmetic on purpose
 * (stored size rounded up to 16, integer records per block, integer rate per
 * service thread): the point is the same load as ACT, not a "better" one.
 */
#ifndef SSDBENCH_ACT_CONFIG_H
#define SSDBENCH_ACT_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define ACT_MAX_DEVICES 128      /* ACT's limit since 5.2 */
#define ACT_DEVICE_NAME_MAX 128  /* names must be shorter than this */
#define ACT_MAX_RECORD_BYTES (8u << 20)
#define ACT_MAX_LARGE_BLOCK_KBYTES 8192u
#define ACT_NBUCKETS 65           /* log2 latency buckets: 0 = [0,1) unit, i = [2^(i-1), 2^i) */
#define ACT_HIST_NAME_MAX 160     /* longest histogram name: device name + "-writes" */

/* The 1x load per device: 2000 small reads/s + 1000 writes/s. */
#define ACT_1X_READS_PER_DEVICE 2000u
#define ACT_1X_WRITES_PER_DEVICE 1000u

/* Everything an act_storage config can say. Defaults are ACT's
 * (act_config_defaults). Rates are totals across all devices. */
struct act_config {
    unsigned ndevices;
    char devices[ACT_MAX_DEVICES][ACT_DEVICE_NAME_MAX];
    uint32_t test_duration_sec;       /* required, > 0 */
    uint32_t read_reqs_per_sec;
    uint32_t write_reqs_per_sec;
    uint32_t service_threads;         /* 0 = 5 x online CPUs (resolved by derive) */
    uint32_t report_interval_sec;     /* 1 */
    bool microsecond_histograms;      /* no: buckets are ms */
    uint32_t record_bytes;            /* 1536 */
    uint32_t record_bytes_range_max;  /* 0 = no range */
    uint32_t large_block_op_kbytes;   /* 128 */
    uint32_t replication_factor;      /* 1 */
    uint32_t update_pct;              /* 0 */
    uint32_t defrag_lwm_pct;          /* 50 */
    bool no_defrag_reads;
    uint32_t compress_pct;            /* 100 */
    bool disable_odsync;
    bool commit_to_device;
    bool tomb_raider;
    uint32_t tomb_raider_sleep_usec;  /* 0 */
    uint32_t max_lag_sec;             /* 10; 0 = never stop */
    uint32_t file_size_mbytes;        /* 0; else devices are buffered files */
};

/* What ACT computes from a config. "Internal" rates are ACT's own names:
 * what the service threads actually issue. Large-block rates are totals over
 * all devices; each device's thread paces to rate / ndevices. */
struct act_derived {
    unsigned ndevices;
    uint32_t service_threads;          /* resolved */
    unsigned detected_cpus;            /* CPUs used for the default, 0 if configured */
    uint32_t record_stored_bytes;      /* roundup(record-bytes, 16) */
    uint32_t record_stored_bytes_rmx;  /* same for the range max; = min without a range */
    uint32_t avg_record_stored_bytes;  /* (min + max) / 2, integer */
    uint32_t large_block_bytes;
    uint32_t records_per_block;        /* floor(large_block_bytes / avg), ACT's integer R */
    double write_amplification;        /* 100 / (100 - defrag-lwm-pct) */
    uint32_t internal_read_reqs_per_sec;   /* read + write * update-pct / 100 */
    uint32_t internal_write_reqs_per_sec;  /* write * rf with commit-to-device, else 0 */
    double large_block_reads_per_sec;      /* 0 with no-defrag-reads */
    double large_block_writes_per_sec;
    double large_block_reads_per_device;   /* pacing rate of one device's thread */
    double large_block_writes_per_device;
    uint32_t small_reqs_per_thread;    /* (reads + writes) / threads, integer as ACT */
    uint32_t read_split;               /* P(read) of a small op, in 1/2^20 (ACT's resolution) */
    bool do_reads;                     /* `reads` histograms exist (read-reqs-per-sec > 0) */
    bool do_large_blocks;              /* write-reqs-per-sec > 0: lb threads and histograms */
    bool do_commits;                   /* commit-to-device with writes: `writes` histograms */
    /* Small I/O sizes for the min_io_bytes given to act_config_derive: the
     * stored sizes rounded up to multiples of it. Sizes are uniform over the
     * n_io_sizes multiples of min_io_bytes from io_bytes_min to io_bytes_max. */
    uint32_t min_io_bytes;
    uint32_t io_bytes_min;
    uint32_t io_bytes_max;
    uint32_t n_io_sizes;
};

/* Per-device placement of small and large I/Os (ACT's discover_device). */
struct act_device_layout {
    uint64_t n_large_blocks;     /* size / large block; the tail is unused */
    uint64_t n_small_offsets;    /* small I/O offset = uniform(0..n-1) * min_io */
    uint32_t min_io_bytes;
    uint32_t io_bytes_min, io_bytes_max, n_io_sizes;
};

#define ACT_SPLIT_RESOLUTION (1u << 20)

/* Histogram unit in ns for hist_log2_buckets(): ms, or us with
 * microsecond-histograms. */
static inline uint64_t act_hist_unit_ns(const struct act_config *c)
{
    return c->microsecond_histograms ? 1000u : 1000000u;
}

void act_config_defaults(struct act_config *c);

/* Parse a config file. On error returns -EINVAL (or -errno when the file
 * cannot be read) and writes "path:line: message" to err. Unknown keys,
 * removed keys, bad numbers and invalid combinations are errors. */
int act_config_parse_file(struct act_config *c, const char *path, char *err, size_t errlen);
/* The same for text in memory; name is used in messages in place of a path. */
int act_config_parse_text(struct act_config *c, const char *text, const char *name,
                          char *err, size_t errlen);

/* Config for the shorthand `--load Nx DEVICE...`: read = round(N*D*2000),
 * write = round(N*D*1000), every other key at its default. */
int act_config_from_load(struct act_config *c, double load, unsigned ndev,
                         const char *const *devices, uint32_t duration_sec,
                         char *err, size_t errlen);

/* "3x", "3", "1.5x" -> 3.0, 3.0, 1.5. Returns -EINVAL for anything else or <= 0. */
int act_parse_load(const char *s, double *load);

/* Checks that do not need a file (the parser runs them with line numbers). */
int act_config_check(const struct act_config *c, char *err, size_t errlen);

/* ACT's derived rates. ncpus is the online CPU count (used only when
 * service-threads is 0); min_io_bytes is the device's minimum direct-I/O size
 * (512..4096, probed elsewhere). Errors: -EINVAL with a message, including
 * ACT's "load config too small". */
int act_config_derive(const struct act_config *c, unsigned ncpus, uint32_t min_io_bytes,
                      struct act_derived *d, char *err, size_t errlen);

/* Offsets and sizes on one device of dev_bytes with its own min_io_bytes.
 * -EINVAL when the device holds no whole large block or is too small for the
 * largest small I/O. */
int act_device_layout(const struct act_derived *d, uint64_t dev_bytes, uint32_t min_io_bytes,
                      struct act_device_layout *out);

#endif
