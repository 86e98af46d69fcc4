/* act_log.c - ACT 6 raw log writer. The exact spacing matters: act_latency.py
 * finds lines by prefix ("ACT version", "report-interval-sec",
 * "microsecond-histograms", "after N ") and cells by "(BB: value)". */
#include "act/act_log.h"

#include <errno.h>
#include <inttypes.h>
#include <string.h>

static int status(FILE *f) { return ferror(f) ? -EIO : 0; }

int act_log_header(FILE *f, const char *producer)
{
    /* The producer line must not start with any prefix the script searches
     * for, nor end in "CONFIGURATION". */
    fprintf(f, "\nACT version %s\nStorage device IO test\n", ACT_LOG_VERSION);
    fprintf(f, "Written by %s in ACT %s log format (not by Aerospike ACT)\n\n",
            producer && *producer ? producer : "ssdbench", ACT_LOG_VERSION);
    return status(f);
}

static const char *yes_no(bool b) { return b ? "yes" : "no"; }

int act_log_config(FILE *f, const struct act_config *c, const struct act_derived *d)
{
    if (d->detected_cpus)
        fprintf(f, "detected %u CPUs\n\n", d->detected_cpus);
    fprintf(f, "ACT-STORAGE CONFIGURATION\ndevice-names:");
    for (unsigned i = 0; i < c->ndevices; i++)
        fprintf(f, " %s", c->devices[i]);
    fprintf(f, "\nnum-devices: %u\n", c->ndevices);
    if (c->file_size_mbytes)
        fprintf(f, "file-size-mbytes: %" PRIu32 "\n", c->file_size_mbytes);
    fprintf(f, "service-threads: %" PRIu32 "\n", d->service_threads);
    fprintf(f, "test-duration-sec: %" PRIu32 "\n", c->test_duration_sec);
    fprintf(f, "report-interval-sec: %" PRIu32 "\n", c->report_interval_sec);
    fprintf(f, "microsecond-histograms: %s\n", yes_no(c->microsecond_histograms));
    fprintf(f, "read-reqs-per-sec: %" PRIu32 "\n", c->read_reqs_per_sec);
    fprintf(f, "write-reqs-per-sec: %" PRIu32 "\n", c->write_reqs_per_sec);
    fprintf(f, "record-bytes: %" PRIu32 "\n", c->record_bytes);
    fprintf(f, "record-bytes-range-max: %" PRIu32 "\n", c->record_bytes_range_max);
    fprintf(f, "large-block-op-kbytes: %" PRIu32 "\n", c->large_block_op_kbytes);
    fprintf(f, "replication-factor: %" PRIu32 "\n", c->replication_factor);
    fprintf(f, "update-pct: %" PRIu32 "\n", c->update_pct);
    fprintf(f, "defrag-lwm-pct: %" PRIu32 "\n", c->defrag_lwm_pct);
    fprintf(f, "no-defrag-reads: %s\n", yes_no(c->no_defrag_reads));
    fprintf(f, "compress-pct: %" PRIu32 "\n", c->compress_pct);
    fprintf(f, "disable-odsync: %s\n", yes_no(c->disable_odsync));
    fprintf(f, "commit-to-device: %s\n", yes_no(c->commit_to_device));
    fprintf(f, "tomb-raider: %s\n", yes_no(c->tomb_raider));
    fprintf(f, "tomb-raider-sleep-usec: %" PRIu32 "\n", c->tomb_raider_sleep_usec);
    fprintf(f, "max-lag-sec: %" PRIu32 "\n", c->max_lag_sec);

    fprintf(f, "\nDERIVED CONFIGURATION\n");
    fprintf(f, "record-stored-bytes: %" PRIu32 " ... %" PRIu32 "\n", d->record_stored_bytes,
            d->record_stored_bytes_rmx);
    fprintf(f, "internal-read-reqs-per-sec: %" PRIu32 "\n", d->internal_read_reqs_per_sec);
    fprintf(f, "internal-write-reqs-per-sec: %" PRIu32 "\n", d->internal_write_reqs_per_sec);
    fprintf(f, "large-block-reads-per-sec: %.2f\n", d->large_block_reads_per_sec);
    fprintf(f, "large-block-writes-per-sec: %.2f\n\n", d->large_block_writes_per_sec);
    return status(f);
}

int act_log_devices(FILE *f, const struct act_log_device *devs, unsigned ndev, uint32_t lb_bytes)
{
    for (unsigned i = 0; i < ndev; i++)
        fprintf(f, "%s size = %" PRIu64 " bytes, %" PRIu64 " large blocks, "
                   "minimum IO size = %" PRIu32 " bytes\n",
                devs[i].name, devs[i].size_bytes, lb_bytes ? devs[i].size_bytes / lb_bytes : 0,
                devs[i].min_io_bytes);
    return status(f);
}

static unsigned add_name(char (*names)[ACT_HIST_NAME_MAX], unsigned n, unsigned max,
                         const char *a, const char *b)
{
    if (n < max)
        snprintf(names[n], ACT_HIST_NAME_MAX, "%s%s", a, b);
    return n + 1;
}

unsigned act_log_standard_names(const struct act_config *c, const struct act_derived *d,
                                char (*names)[ACT_HIST_NAME_MAX], unsigned max)
{
    unsigned n = 0;
    if (d->do_reads) {
        n = add_name(names, n, max, "reads", "");
        for (unsigned i = 0; i < c->ndevices; i++)
            n = add_name(names, n, max, c->devices[i], "-reads");
    }
    if (d->do_large_blocks) {
        n = add_name(names, n, max, "large-block-reads", "");
        n = add_name(names, n, max, "large-block-writes", "");
    }
    if (d->do_commits) {
        n = add_name(names, n, max, "writes", "");
        for (unsigned i = 0; i < c->ndevices; i++)
            n = add_name(names, n, max, c->devices[i], "-writes");
    }
    return n < max ? n : max;
}

int act_log_hist_names(FILE *f, const char *const *names, unsigned n)
{
    fprintf(f, "\nHISTOGRAM NAMES\n");
    for (unsigned i = 0; i < n; i++)
        fprintf(f, "%s\n", names[i]);
    fputc('\n', f);
    return status(f);
}

static void dump_hist(FILE *f, const struct act_log_hist *h)
{
    uint64_t total = 0;
    for (unsigned b = 0; b < ACT_NBUCKETS; b++)
        total += h->buckets[b];
    fprintf(f, "%s (%" PRIu64 " total)\n", h->name, total);
    unsigned k = 0;
    for (unsigned b = 0; b < ACT_NBUCKETS; b++) {
        if (!h->buckets[b])
            continue;
        fprintf(f, " (%02u: %010" PRIu64 ")", b, h->buckets[b]);
        if ((++k & 3) == 0)
            fputc('\n', f);
    }
    if (k & 3)
        fputc('\n', f);
}

int act_log_interval(FILE *f, unsigned elapsed_s, const struct act_log_hist *h, unsigned nhist)
{
    fprintf(f, "after %u sec:\n", elapsed_s);
    for (unsigned i = 0; i < nhist; i++)
        dump_hist(f, &h[i]);
    fputc('\n', f);
    if (fflush(f))
        return -EIO;
    return status(f);
}

int act_log_stop(FILE *f, enum act_log_stop why)
{
    switch (why) {
    case ACT_STOP_SERVICE_LAG:
        fprintf(f, "ERROR: service thread can't keep up\n"
                   "ACT can't do requested load - test stopped\n"
                   "try configuring more 'service-threads'\n");
        break;
    case ACT_STOP_LB_READ_LAG:
    case ACT_STOP_LB_WRITE_LAG:
        fprintf(f, "ERROR: large block %s can't keep up\n"
                   "drive(s) can't keep up - test stopped\n",
                why == ACT_STOP_LB_READ_LAG ? "reads" : "writes");
        break;
    }
    if (fflush(f))
        return -EIO;
    return status(f);
}

int act_log_io_error(FILE *f, const char *dev, bool is_write, int errnum)
{
    char buf[128];
    const char *msg = strerror_r(errnum, buf, sizeof(buf));
    fprintf(f, "ERROR: %s %s: %d '%s'\n", is_write ? "writing" : "reading", dev, errnum, msg);
    return status(f);
}
