/* compare.h - side-by-side tables of two or more result documents with ratio
 * columns against a baseline (above 1 = better, throughput and latency alike): "two drives vs one", "RAID vs a single disk",
 * "kernel A vs kernel B".
 *
 * Rows are matched by phase name, so any result kind compares: single runs
 * (one row per phase), sweeps and suites (one table per profile, one row per
 * sweep point). When a document shares no phase name with the first one but
 * has as many phases, rows are matched by position instead (two runs with
 * differently named jobs) and the table says so. Read and write are combined
 * (IOPS and MB/s summed; latency figures from the merged histograms, exact
 * where the stored sums allow).
 */
#ifndef SSDBENCH_COMPARE_H
#define SSDBENCH_COMPARE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <cjson/cJSON.h>

#define COMPARE_MAX_DOCS 16

struct compare_opts {
    /* comma list of: iops mbps lat avg-lat max sd avg-sd pN (p99, p99.9, ...)
     * read-iops write-iops read-lat write-lat read-pN write-pN; NULL = the
     * default "iops,mbps,lat,p99" */
    const char *metrics;
    const char *scope;   /* result scope, NULL = "total" (e.g. "target:t1") */
    bool csv;            /* CSV rows instead of text tables */
    unsigned nlabels;    /* series labels in file order (--label); 0 = each result's */
    const char *labels[COMPARE_MAX_DOCS];
    const char *baseline; /* the reference series: a position "1".."n" or a label; NULL = the first */
};

/* Checks a metrics list; 0 or -EINVAL with a message naming the bad one. */
int compare_check_metrics(const char *metrics, char *err, size_t errlen);

/* Prints the comparison of docs[0..n) (n >= 2); names label the documents
 * (file names). Returns 0, or -EINVAL with a message for a bad metric or a
 * document with no phases. */
int render_compare(FILE *f, const cJSON *const *docs, const char *const *names, unsigned n,
                   const struct compare_opts *o, char *err, size_t errlen);

#endif
