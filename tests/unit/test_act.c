/* test_act.c - ACT config parsing, derived rates and the raw-log writer
 * (the reader, slice tables and verdict are in test_act_analyze.c). Expected
 * numbers are hand-computed from reference/act.md: the per-device load
 * table and the commit-to-device example. Run from the repository root. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "act/act_log.h"
#include "act/act_text.h"
#include "act/act_analyze.h"
#include "act/act_config.h"

#define DATA "tests/data/act/"

static const char *dev1[] = {"/dev/sdb"};

static bool fmt2(double v, const char *want)
{
    char buf[32];
    snprintf(buf, sizeof(buf), "%.2f", v);
    return !strcmp(buf, want);
}

/* 3x, 1 device, 10 threads configured: the act.md example config. */
static int cfg_load(struct act_config *c, double load, unsigned ndev, const char **devs)
{
    char err[256];
    return act_config_from_load(c, load, ndev, devs, 86400, err, sizeof(err));
}

TEST(derived_rates_per_device_table)
{
    /* act.md section 3: N x load on one device, 1536 B records, 128 KiB blocks. */
    static const struct { double load; const char *lb; unsigned dev_ops; } rows[] = {
        {1, "23.53", 2047},    {2, "47.06", 4094},    {3, "70.59", 6141},
        {6, "141.18", 12282},  {12, "282.35", 24565}, {24, "564.71", 49129},
        {30, "705.88", 61412}, {40, "941.18", 81882}, {60, "1411.76", 122824},
    };
    for (unsigned i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
        struct act_config c;
        struct act_derived d;
        char err[256];
        CHECK(cfg_load(&c, rows[i].load, 1, dev1) == 0, "load %g", rows[i].load);
        CHECK(act_config_derive(&c, 2, 512, &d, err, sizeof(err)) == 0, "%s", err);
        unsigned n = (unsigned)rows[i].load;
        CHECK(c.read_reqs_per_sec == 2000 * n && c.write_reqs_per_sec == 1000 * n, "%gx", rows[i].load);
        CHECK(d.internal_read_reqs_per_sec == 2000 * n, "%u", d.internal_read_reqs_per_sec);
        CHECK(d.internal_write_reqs_per_sec == 0, "no small writes without commit-to-device");
        CHECK(d.records_per_block == 85, "R = 131072 / 1536 = 85, got %u", d.records_per_block);
        CHECK(fmt2(d.large_block_reads_per_sec, rows[i].lb), "%gx lb reads %.4f", rows[i].load,
              d.large_block_reads_per_sec);
        CHECK(fmt2(d.large_block_writes_per_sec, rows[i].lb), "%gx lb writes", rows[i].load);
        double ops = d.internal_read_reqs_per_sec + d.large_block_reads_per_sec +
                     d.large_block_writes_per_sec;
        CHECK((unsigned)lround(ops) == rows[i].dev_ops, "%gx device ops %.2f", rows[i].load, ops);
        CHECK(d.io_bytes_min == 1536 && d.io_bytes_max == 1536 && d.n_io_sizes == 1,
              "small read 1536 B on a 512 B device, got %u", d.io_bytes_min);
    }
    /* MiB/s at 1x: 2000 x 1536 B = 2.93, 23.53 x 128 KiB = 2.94 */
    struct act_config c;
    struct act_derived d;
    char err[256];
    CHECK(cfg_load(&c, 1, 1, dev1) == 0 && act_config_derive(&c, 2, 512, &d, err, 256) == 0, "1x");
    CHECK(fmt2(d.internal_read_reqs_per_sec * (double)d.io_bytes_min / 1048576, "2.93"), "-");
    CHECK(fmt2(d.large_block_reads_per_sec * d.large_block_bytes / 1048576, "2.94"), "-");
    /* On a 4 KiB device each small read is 4096 B: 2.67x the MiB/s. */
    CHECK(act_config_derive(&c, 2, 4096, &d, err, sizeof(err)) == 0, "%s", err);
    CHECK(d.io_bytes_min == 4096 && d.io_bytes_max == 4096, "%u", d.io_bytes_min);
}

TEST(derived_rates_multi_device_and_threads)
{
    const char *devs[] = {"/dev/sdb", "/dev/sdc", "/dev/sdd", "/dev/sde"};
    struct act_config c;
    struct act_derived d;
    char err[256];
    CHECK(cfg_load(&c, 3, 4, devs) == 0, "3x 4 devices");
    CHECK(c.read_reqs_per_sec == 24000 && c.write_reqs_per_sec == 12000, "%u", c.read_reqs_per_sec);
    CHECK(act_config_derive(&c, 2, 512, &d, err, sizeof(err)) == 0, "%s", err);
    CHECK(fmt2(d.large_block_reads_per_sec, "282.35"), "%.3f", d.large_block_reads_per_sec);
    CHECK(fmt2(d.large_block_reads_per_device, "70.59"), "per device %.3f",
          d.large_block_reads_per_device);
    /* default threads: 5 x 2 CPUs; 24000 / 10 per thread; all reads */
    CHECK(d.service_threads == 10 && d.detected_cpus == 2, "%u", d.service_threads);
    CHECK(d.small_reqs_per_thread == 2400, "%u", d.small_reqs_per_thread);
    CHECK(d.read_split == 1048576, "%u", d.read_split);
    CHECK(d.do_reads && d.do_large_blocks && !d.do_commits, "histogram set");
    c.service_threads = 7;   /* 24000 / 7 = 3428 (integer, as ACT) */
    CHECK(act_config_derive(&c, 2, 512, &d, err, sizeof(err)) == 0, "%s", err);
    CHECK(d.small_reqs_per_thread == 3428 && d.detected_cpus == 0, "%u", d.small_reqs_per_thread);
    /* 1.5x: fractional loads round to whole requests */
    CHECK(cfg_load(&c, 1.5, 1, dev1) == 0 && c.read_reqs_per_sec == 3000 &&
          c.write_reqs_per_sec == 1500, "1.5x");
    /* load config too small: 5 reads/s over 10 threads */
    act_config_defaults(&c);
    c.ndevices = 1;
    strcpy(c.devices[0], "/dev/sdb");
    c.test_duration_sec = 60;
    c.read_reqs_per_sec = 5;
    CHECK(act_config_derive(&c, 2, 512, &d, err, sizeof(err)) == -EINVAL &&
          strstr(err, "load config too small"), "got '%s'", err);
}

TEST(derived_commit_range_update_defrag)
{
    struct act_config c;
    struct act_derived d;
    char err[256];
    /* act.md: records 1000..4000 B -> stored 1008..4000, avg 2504, R = 52;
     * 3000 writes/s -> lb reads 115.38, lb writes 57.69. */
    CHECK(act_config_parse_file(&c, DATA "commit.conf", err, sizeof(err)) == 0, "%s", err);
    CHECK(act_config_derive(&c, 2, 512, &d, err, sizeof(err)) == 0, "%s", err);
    CHECK(d.record_stored_bytes == 1008 && d.record_stored_bytes_rmx == 4000, "%u..%u",
          d.record_stored_bytes, d.record_stored_bytes_rmx);
    CHECK(d.avg_record_stored_bytes == 2504 && d.records_per_block == 52, "%u %u",
          d.avg_record_stored_bytes, d.records_per_block);
    CHECK(fmt2(d.large_block_reads_per_sec, "115.38"), "%.4f", d.large_block_reads_per_sec);
    CHECK(fmt2(d.large_block_writes_per_sec, "57.69"), "%.4f", d.large_block_writes_per_sec);
    CHECK(d.internal_write_reqs_per_sec == 3000 && d.internal_read_reqs_per_sec == 0, "small");
    CHECK(d.read_split == 0 && d.small_reqs_per_thread == 300 && d.do_commits && !d.do_reads, "-");
    /* sizes: 1008 -> 1024 .. 4000 -> 4096 in 512 B steps = 7 sizes */
    CHECK(d.io_bytes_min == 1024 && d.io_bytes_max == 4096 && d.n_io_sizes == 7, "%u %u %u",
          d.io_bytes_min, d.io_bytes_max, d.n_io_sizes);

    /* README's 1500 B record: stored 1504, R = 87, 1000 w/s -> 22.99 (not 22.949) */
    CHECK(cfg_load(&c, 1, 1, dev1) == 0, "1x");
    c.record_bytes = 1500;
    CHECK(act_config_derive(&c, 2, 512, &d, err, sizeof(err)) == 0, "%s", err);
    CHECK(d.records_per_block == 87 && fmt2(d.large_block_reads_per_sec, "22.99"), "%.4f",
          d.large_block_reads_per_sec);
    /* record range 1536..3000: stored 1536..3008, avg 2272, R = 57: 2000/57 = 35.09 */
    c.record_bytes = 1536;
    c.record_bytes_range_max = 3000;
    CHECK(act_config_derive(&c, 2, 512, &d, err, sizeof(err)) == 0, "%s", err);
    CHECK(d.avg_record_stored_bytes == 2272 && d.records_per_block == 57, "%u",
          d.avg_record_stored_bytes);
    CHECK(fmt2(d.large_block_reads_per_sec, "35.09"), "%.4f", d.large_block_reads_per_sec);
    CHECK(d.io_bytes_min == 1536 && d.io_bytes_max == 3072 && d.n_io_sizes == 4, "%u %u",
          d.io_bytes_max, d.n_io_sizes);
    c.record_bytes_range_max = 0;
    /* update-pct 50: 2000 + 1000 x 50% small reads; rf 2 doubles lb: 47.06 */
    c.update_pct = 50;
    c.replication_factor = 2;
    CHECK(act_config_derive(&c, 2, 512, &d, err, sizeof(err)) == 0, "%s", err);
    CHECK(d.internal_read_reqs_per_sec == 2500, "%u", d.internal_read_reqs_per_sec);
    CHECK(fmt2(d.large_block_writes_per_sec, "47.06"), "%.3f", d.large_block_writes_per_sec);
    /* ... and with commit-to-device the small writes are write x rf */
    c.commit_to_device = true;
    CHECK(act_config_derive(&c, 2, 512, &d, err, sizeof(err)) == 0, "%s", err);
    CHECK(d.internal_write_reqs_per_sec == 2000, "%u", d.internal_write_reqs_per_sec);
    /* read_split = 2^20 x 2500 / 4500 = 582542 */
    CHECK(d.read_split == 582542, "%u", d.read_split);
    /* defrag-lwm-pct 60: amplification 2.5 -> 1000/85 x 2.5 = 29.41 */
    act_config_defaults(&c);
    CHECK(cfg_load(&c, 1, 1, dev1) == 0, "1x");
    c.defrag_lwm_pct = 60;
    CHECK(act_config_derive(&c, 2, 512, &d, err, sizeof(err)) == 0, "%s", err);
    CHECK(fmt2(d.large_block_reads_per_sec, "29.41") && d.write_amplification == 2.5, "%.3f",
          d.large_block_reads_per_sec);
    /* no-defrag-reads drops the lb reads only */
    c.defrag_lwm_pct = 50;
    c.no_defrag_reads = true;
    CHECK(act_config_derive(&c, 2, 512, &d, err, sizeof(err)) == 0, "%s", err);
    CHECK(d.large_block_reads_per_sec == 0 && fmt2(d.large_block_writes_per_sec, "23.53"), "-");
}

TEST(device_layout)
{
    struct act_config c;
    struct act_derived d;
    struct act_device_layout l;
    char err[256];
    CHECK(cfg_load(&c, 3, 1, dev1) == 0 && act_config_derive(&c, 2, 512, &d, err, 256) == 0, "-");
    /* 2 GiB: 16384 blocks; 4194304 512 B units; a 1536 B read needs 3 -> 4194302 offsets */
    CHECK(act_device_layout(&d, 2147483648ull + 1000, 512, &l) == 0, "-");
    CHECK(l.n_large_blocks == 16384 && l.n_small_offsets == 4194302, "%llu %llu",
          (unsigned long long)l.n_large_blocks, (unsigned long long)l.n_small_offsets);
    CHECK(act_device_layout(&d, 2147483648ull, 4096, &l) == 0 && l.io_bytes_min == 4096 &&
          l.n_small_offsets == 524288, "4k device");
    CHECK(act_device_layout(&d, 100000, 512, &l) == -EINVAL, "no whole large block");
    CHECK(act_device_layout(&d, 1 << 20, 3000, &l) == -EINVAL, "bad min io");
}

TEST(config_file_good)
{
    struct act_config c;
    char err[256] = "";
    CHECK(act_config_parse_file(&c, DATA "good.conf", err, sizeof(err)) == 0, "%s", err);
    CHECK(c.ndevices == 2 && !strcmp(c.devices[0], "/dev/sdb") &&
          !strcmp(c.devices[1], "/dev/sdc"), "devices %u", c.ndevices);
    CHECK(c.test_duration_sec == 86400 && c.read_reqs_per_sec == 12000 &&
          c.write_reqs_per_sec == 6000 && c.service_threads == 40, "numbers");
    CHECK(c.tomb_raider && c.tomb_raider_sleep_usec == 1000 && c.max_lag_sec == 10, "tomb raider");
    CHECK(!c.commit_to_device && !c.microsecond_histograms && c.record_bytes == 1536, "defaults");
    /* defaults of the keys not given */
    CHECK(act_config_parse_text(&c, "device-names: a b;c\ntest-duration-sec: 5\n"
                                    "write-reqs-per-sec: 1\n", "t", err, sizeof(err)) == 0, "%s", err);
    CHECK(c.ndevices == 3 && c.report_interval_sec == 1 && c.large_block_op_kbytes == 128 &&
          c.replication_factor == 1 && c.defrag_lwm_pct == 50 && c.compress_pct == 100 &&
          c.max_lag_sec == 10 && c.service_threads == 0 && c.read_reqs_per_sec == 0, "defaults");
}

/* Each bad config must fail with a message that starts with name:line and
 * quotes the key and value. */
static bool bad_text(const char *text, const char *want1, const char *want2, char *err)
{
    struct act_config c;
    err[0] = '\0';
    if (act_config_parse_text(&c, text, "t.conf", err, 256) != -EINVAL)
        return false;
    return strstr(err, want1) && (!want2 || strstr(err, want2));
}

#define BASE "device-names: /dev/sdb\ntest-duration-sec: 60\nread-reqs-per-sec: 2000\n"

TEST(config_errors_name_the_line)
{
    char err[256];
    CHECK(bad_text(BASE "foo: bar\n", "t.conf:4: unknown key 'foo'", "'bar'", err), "%s", err);
    CHECK(bad_text(BASE "scheduler-mode: noop\n", "t.conf:4: scheduler-mode: noop: ",
                   "removed in ACT 6.5", err), "%s", err);
    CHECK(bad_text(BASE "num-queues: 4\n", "t.conf:4: num-queues: 4", "removed in ACT 6.0", err),
          "%s", err);
    CHECK(bad_text(BASE "commit-min-bytes: 4096\n", "t.conf:4:", "removed in ACT 6.4", err), "%s",
          err);
    CHECK(bad_text(BASE "write-reqs-per-sec: 1e3\n", "t.conf:4: write-reqs-per-sec: '1e3'",
                   "not a whole number", err), "%s", err);
    CHECK(bad_text(BASE "write-reqs-per-sec: -1\n", "t.conf:4: write-reqs-per-sec: '-1'", NULL, err),
          "%s", err);
    CHECK(bad_text(BASE "write-reqs-per-sec: 4294967296\n", "t.conf:4:", "4294967296", err), "%s",
          err);
    CHECK(bad_text(BASE "write-reqs-per-sec: 10 20\n", "t.conf:4:", "one value", err), "%s", err);
    CHECK(bad_text(BASE "write-reqs-per-sec:\n", "t.conf:4: write-reqs-per-sec: missing value",
                   NULL, err), "%s", err);
    CHECK(bad_text(BASE "tomb-raider: true-ish\n", "t.conf:4: tomb-raider: 'true-ish'",
                   "yes or no", err), "%s", err);
    CHECK(bad_text(BASE "read-reqs-per-sec: 1\n", "t.conf:4:", "given twice (first on line 3)",
                   err), "%s", err);
    CHECK(bad_text("test-duration-sec: 60\nread-reqs-per-sec: 1\n", "t.conf: device-names is missing",
                   NULL, err), "%s", err);
    CHECK(bad_text("device-names: x\nread-reqs-per-sec: 1\n", "test-duration-sec is missing",
                   NULL, err), "%s", err);
    CHECK(bad_text("device-names: x\ntest-duration-sec: 0\nread-reqs-per-sec: 1\n",
                   "t.conf:2: test-duration-sec: 0", NULL, err), "%s", err);
    CHECK(bad_text(BASE "commit-to-device: yes\n# c\ndisable-odsync: yes\n",
                   "t.conf:6: disable-odsync: yes: not allowed with commit-to-device: yes (line 4)",
                   NULL, err), "%s", err);
    CHECK(bad_text(BASE "large-block-op-kbytes: 100\n", "t.conf:4: large-block-op-kbytes: 100",
                   "power of 2", err), "%s", err);
    CHECK(bad_text(BASE "large-block-op-kbytes: 16384\n", "t.conf:4:", NULL, err), "%s", err);
    CHECK(bad_text(BASE "record-bytes-range-max: 1000\n", "t.conf:4: record-bytes-range-max: 1000",
                   NULL, err), "%s", err);
    CHECK(bad_text(BASE "record-bytes: 0\n", "t.conf:4: record-bytes: 0", NULL, err), "%s", err);
    CHECK(bad_text(BASE "record-bytes: 200000\n", "t.conf:4:", "larger than a large block", err),
          "%s", err);
    CHECK(bad_text(BASE "defrag-lwm-pct: 100\n", "t.conf:4: defrag-lwm-pct: 100", NULL, err), "%s",
          err);
    CHECK(bad_text(BASE "update-pct: 101\n", "t.conf:4: update-pct: 101", NULL, err), "%s", err);
    CHECK(bad_text(BASE "compress-pct: 101\n", "t.conf:4: compress-pct: 101", NULL, err), "%s", err);
    CHECK(bad_text(BASE "replication-factor: 0\n", "t.conf:4: replication-factor: 0", NULL, err),
          "%s", err);
    CHECK(bad_text(BASE "report-interval-sec: 0\n", "t.conf:4: report-interval-sec: 0", NULL, err),
          "%s", err);
    CHECK(bad_text("device-names: x\ntest-duration-sec: 9\nread-reqs-per-sec: 0\n",
                   "t.conf:3:", "can't both be 0", err), "%s", err);
}

TEST(config_error_files)
{
    static const struct { const char *file, *want; } cases[] = {
        {"bad_unknown.conf", DATA "bad_unknown.conf:6: unknown key 'read-req-size' (value '1536')"},
        {"bad_removed.conf", DATA "bad_removed.conf:7: scheduler-mode: noop: removed in ACT 6.5"},
        {"bad_number.conf", DATA "bad_number.conf:3: read-reqs-per-sec: '6k': not a whole number"},
        {"bad_nodevices.conf", DATA "bad_nodevices.conf: device-names is missing"},
        {"bad_duration.conf", DATA "bad_duration.conf:4: test-duration-sec: 0: must be at least 1"},
        {"bad_odsync_commit.conf",
         DATA "bad_odsync_commit.conf:6: commit-to-device: yes: not allowed with disable-odsync: "
              "yes (line 5)"},
    };
    for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        struct act_config c;
        char path[256], err[256] = "";
        snprintf(path, sizeof(path), DATA "%s", cases[i].file);
        CHECK(act_config_parse_file(&c, path, err, sizeof(err)) == -EINVAL, "%s accepted", path);
        CHECK(!strncmp(err, cases[i].want, strlen(cases[i].want)), "%s: got '%s'", path, err);
    }
    struct act_config c;
    char err[256];
    CHECK(act_config_parse_file(&c, DATA "no-such.conf", err, sizeof(err)) == -ENOENT &&
          strstr(err, "no-such.conf: cannot open"), "%s", err);
}

TEST(load_shorthand)
{
    double v;
    CHECK(act_parse_load("3x", &v) == 0 && v == 3, "3x");
    CHECK(act_parse_load("60", &v) == 0 && v == 60, "60");
    CHECK(act_parse_load("1.5X", &v) == 0 && v == 1.5, "1.5X");
    CHECK(act_parse_load("x", &v) < 0 && act_parse_load("0x", &v) < 0 &&
          act_parse_load("-3x", &v) < 0 && act_parse_load("3xx", &v) < 0 &&
          act_parse_load("", &v) < 0 && act_parse_load("nanx", &v) < 0, "bad loads accepted");
    struct act_config c;
    char err[256];
    const char *devs[] = {"/dev/sdb", "/dev/sdc"};
    CHECK(act_config_from_load(&c, 30, 2, devs, 86400, err, sizeof(err)) == 0, "%s", err);
    CHECK(c.read_reqs_per_sec == 120000 && c.write_reqs_per_sec == 60000 && c.ndevices == 2 &&
          c.test_duration_sec == 86400 && c.record_bytes == 1536, "30x x 2");
    CHECK(act_config_from_load(&c, 3, 1, devs, 0, err, sizeof(err)) == -EINVAL &&
          strstr(err, "--duration"), "%s", err);
    CHECK(act_config_from_load(&c, 0.0001, 1, devs, 60, err, sizeof(err)) == -EINVAL, "%s", err);
}

/* --- writer ------------------------------------------------------------ */

TEST(writer_exact_layout)
{
    struct act_config c;
    struct act_derived d;
    char err[256];
    CHECK(cfg_load(&c, 3, 1, dev1) == 0, "3x");
    c.test_duration_sec = 180;
    CHECK(act_config_derive(&c, 2, 512, &d, err, sizeof(err)) == 0, "%s", err);
    size_t len;
    char *buf = NULL;
    FILE *f = open_memstream(&buf, &len);
    CHECK(act_log_config(f, &c, &d) == 0, "config");
    struct act_log_device ld = {"/dev/sdb", 2147483648ull, 512};
    act_log_devices(f, &ld, 1, d.large_block_bytes);
    struct act_log_hist h[2] = {{"reads", {5925, 53, 22}}, {"large-block-writes", {0}}};
    h[1].buckets[0] = 69;
    h[1].buckets[2] = 1;
    h[1].buckets[5] = 2;
    h[1].buckets[9] = 3;
    h[1].buckets[64] = 4;
    CHECK(act_log_interval(f, 1, h, 2) == 0, "interval");
    struct act_log_hist empty = {"writes", {0}};
    act_log_interval(f, 2, &empty, 1);
    act_log_stop(f, ACT_STOP_SERVICE_LAG);
    act_log_stop(f, ACT_STOP_LB_WRITE_LAG);
    act_log_io_error(f, "/dev/sdb", false, EIO);
    fclose(f);
    const char *want =
        "detected 2 CPUs\n\nACT-STORAGE CONFIGURATION\ndevice-names: /dev/sdb\nnum-devices: 1\n"
        "service-threads: 10\ntest-duration-sec: 180\nreport-interval-sec: 1\n"
        "microsecond-histograms: no\nread-reqs-per-sec: 6000\nwrite-reqs-per-sec: 3000\n"
        "record-bytes: 1536\nrecord-bytes-range-max: 0\nlarge-block-op-kbytes: 128\n"
        "replication-factor: 1\nupdate-pct: 0\ndefrag-lwm-pct: 50\nno-defrag-reads: no\n"
        "compress-pct: 100\ndisable-odsync: no\ncommit-to-device: no\ntomb-raider: no\n"
        "tomb-raider-sleep-usec: 0\nmax-lag-sec: 10\n\nDERIVED CONFIGURATION\n"
        "record-stored-bytes: 1536 ... 1536\ninternal-read-reqs-per-sec: 6000\n"
        "internal-write-reqs-per-sec: 0\nlarge-block-reads-per-sec: 70.59\n"
        "large-block-writes-per-sec: 70.59\n\n"
        "/dev/sdb size = 2147483648 bytes, 16384 large blocks, minimum IO size = 512 bytes\n"
        "after 1 sec:\nreads (6000 total)\n (00: 0000005925) (01: 0000000053) (02: 0000000022)\n"
        "large-block-writes (79 total)\n"
        " (00: 0000000069) (02: 0000000001) (05: 0000000002) (09: 0000000003)\n"
        " (64: 0000000004)\n\nafter 2 sec:\nwrites (0 total)\n\n"
        "ERROR: service thread can't keep up\nACT can't do requested load - test stopped\n"
        "try configuring more 'service-threads'\n"
        "ERROR: large block writes can't keep up\ndrive(s) can't keep up - test stopped\n"
        "ERROR: reading /dev/sdb: 5 'Input/output error'\n";
    CHECK(!strcmp(buf, want), "got:\n%s", buf);
    free(buf);

    /* file-size-mbytes only when set; no "detected" line when threads are configured */
    c.file_size_mbytes = 2048;
    c.service_threads = 4;
    CHECK(act_config_derive(&c, 2, 512, &d, err, sizeof(err)) == 0, "%s", err);
    buf = NULL;
    f = open_memstream(&buf, &len);
    act_log_header(f, "ssdbench 9.9");
    act_log_config(f, &c, &d);
    fclose(f);
    CHECK(!strncmp(buf, "\nACT version 6.6\nStorage device IO test\nWritten by ssdbench 9.9",
                   60) && strstr(buf, "\n\nACT-STORAGE CONFIGURATION\n") &&
          !strstr(buf, "detected") &&
          strstr(buf, "num-devices: 1\nfile-size-mbytes: 2048\nservice-threads: 4\n"), "%s", buf);
    free(buf);
}

TEST(writer_standard_names)
{
    const char *devs[] = {"/dev/sdb", "/dev/sdc"};
    struct act_config c;
    struct act_derived d;
    char err[256], names[8][ACT_HIST_NAME_MAX];
    CHECK(cfg_load(&c, 1, 2, devs) == 0, "-");
    c.commit_to_device = true;
    CHECK(act_config_derive(&c, 2, 512, &d, err, sizeof(err)) == 0, "%s", err);
    unsigned n = act_log_standard_names(&c, &d, names, 8);
    static const char *want[] = {"reads", "/dev/sdb-reads", "/dev/sdc-reads", "large-block-reads",
                                 "large-block-writes", "writes", "/dev/sdb-writes", "/dev/sdc-writes"};
    CHECK(n == 8, "%u names", n);
    for (unsigned i = 0; i < 8; i++)
        CHECK(!strcmp(names[i], want[i]), "%u: %s", i, names[i]);
    c.read_reqs_per_sec = 0;   /* write-only: no reads histograms */
    c.commit_to_device = false;
    CHECK(act_config_derive(&c, 2, 512, &d, err, sizeof(err)) == 0, "%s", err);
    n = act_log_standard_names(&c, &d, names, 8);
    CHECK(n == 2 && !strcmp(names[0], "large-block-reads"), "%u %s", n, names[0]);
}

CHECK_MAIN()
