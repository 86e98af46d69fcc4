/* act_analyze.h - ACT log analysis: the slice tables of ACT's act_latency.py
 * and the certification verdict, as data.
 *
 * Two layers:
 *  - act_table: one histogram's "% of ops >= 2^i units" per time slice, fed
 *    cumulative log2 bucket snapshots. It knows nothing about logs, so the
 *    runner can feed it directly and the JSON/HTML renderers can reuse it.
 *  - act_analyze_file/_stream: reads a raw log (ours, ACT 6.x, and the 5.x and
 *    3.x/4.x layouts) in one pass, feeding the requested tables plus an hourly
 *    `reads` table for the verdict. Memory is per slice, not per interval, so
 *    a 24 h log at 1 s intervals is fine.
 *
 * Numbers follow act_latency.py exactly: a slice's percentages are rounded to
 * 2 decimals (Python's round, i.e. correctly rounded half-even), `avg` is the
 * unweighted mean of the rounded per-slice values and `max` their maximum,
 * a partial last slice is ignored, and the slice length is rounded up to a
 * multiple of the report interval. The verdict compares the same rounded
 * figures with the limits, so it agrees with reading ACT's `max` row.
 */
#ifndef SSDBENCH_ACT_ANALYZE_H
#define SSDBENCH_ACT_ANALYZE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "act/act_config.h"

#define ACT_TABLE_BUCKETS 17   /* thresholds 2^0 .. 2^16 units, as act_latency.py */
#define ACT_MAX_TABLES 8
#define ACT_CERT_SECONDS 86400u
#define ACT_CERT_SLICE 3600u

struct act_slice_row {
    double over[ACT_TABLE_BUCKETS]; /* % of the slice's ops >= 2^i units, rounded to 0.01 */
    double rate;                    /* ops/s over the slice, rounded to 0.1 */
    uint64_t ops;
};

/* One histogram's slice table. Fill with act_table_init, act_table_feed per
 * cumulative snapshot, act_table_finish; release with act_table_free. */
struct act_table {
    char name[ACT_HIST_NAME_MAX];   /* as found in the log */
    unsigned slice_sec;
    unsigned next_end;              /* elapsed second that closes the next slice */
    bool found;                     /* at least one snapshot was fed */
    bool gap;                       /* a slice end had no snapshot: later data ignored */
    uint64_t prev_total;
    uint64_t prev[ACT_NBUCKETS];
    unsigned nslices, cap;
    struct act_slice_row *rows;
    double avg[ACT_TABLE_BUCKETS], max[ACT_TABLE_BUCKETS];
    double avg_rate, max_rate;
};

int act_table_init(struct act_table *t, const char *name, unsigned slice_sec);
/* Snapshot at elapsed_s seconds (cumulative counts). Only snapshots that land
 * on a slice end count. Returns 0, -ENOMEM, or -ERANGE when a count is lower
 * than at the previous slice end (not one cumulative series). */
int act_table_feed(struct act_table *t, unsigned elapsed_s, const uint64_t cum[ACT_NBUCKETS]);
void act_table_finish(struct act_table *t);
void act_table_free(struct act_table *t);

/* Threshold columns as act_latency.py picks them from -s, -n, -e: start,
 * start+every, ... up to num columns, never past bucket 16. Returns the count. */
unsigned act_display_columns(unsigned start, unsigned num, unsigned every,
                             unsigned cols[ACT_TABLE_BUCKETS]);

enum act_verdict_status {
    ACT_VERDICT_NONE,        /* no certification: the run is shorter than 24 h */
    ACT_VERDICT_PASS,
    ACT_VERDICT_FAIL,        /* a limit reached in some hour, or the run stopped early */
    ACT_VERDICT_INCOMPLETE,  /* configured for >= 24 h but the log holds less */
};

#define ACT_NLIMITS 3
extern const unsigned act_limit_ms[ACT_NLIMITS];     /* 1, 8, 64 */
extern const double act_limit_pct[ACT_NLIMITS];      /* 5, 1, 0.1: must stay below */

struct act_verdict {
    enum act_verdict_status status;
    char hist[ACT_HIST_NAME_MAX];   /* histogram judged */
    bool us_buckets;                /* us histograms: thresholds are 1.024/8.192/65.536 ms */
    unsigned slice_sec;             /* 3600 rounded up to the report interval */
    unsigned hours;                 /* full slices judged */
    unsigned worst_hour;            /* 1-based; the hour nearest to (or furthest past) a
                                       limit, pct/limit; 0 when there is no full hour */
    double worst_pct[ACT_NLIMITS];  /* that hour's figures */
    double max_pct[ACT_NLIMITS];    /* the `max` row */
    unsigned max_hour[ACT_NLIMITS]; /* first hour reaching each max */
    bool over_limit[ACT_NLIMITS];
    bool stopped_early;
    double scaled_tick_ms;          /* > 0: a time-scaled run (--tick-ms): one report
                                       interval lasted this many real ms; never a certification */
    char reason[256];
};

/* "PASS", "FAIL", "INCOMPLETE" or "none", as the text and the JSON print it. */
const char *act_verdict_name(enum act_verdict_status s);

/* hourly: a finished table of the `reads` histogram with ACT_CERT_SLICE
 * slices (or NULL when the log has none). stop_msg may be NULL. */
void act_verdict_compute(const struct act_table *hourly, bool us_buckets, bool stopped_early,
                         const char *stop_msg, unsigned configured_duration_s,
                         struct act_verdict *v);

/* A time-scaled run (one report interval = tick_ms of real time) judged
 * by ACT's hourly rule over the hours it logged, however many: when it
 * logged every interval (complete), was not stopped by max lag and has at
 * least one full hour, the verdict is PASS or FAIL with a reason saying it
 * is scaled. Marks v as scaled either way. */
void act_verdict_scale(struct act_verdict *v, double tick_ms, bool complete);

/* What the log says about itself. */
struct act_log_info {
    char version[16];             /* "6.6"; "" when no version line */
    double version_num;
    char producer[96];            /* "ssdbench 0.1.0" for our logs, "" for ACT's */
    unsigned report_interval_sec; /* 0 when not found */
    bool us_histograms;           /* microsecond-histograms: yes */
    bool scale_found;
    unsigned test_duration_sec;   /* configured; 0 when not found */
    unsigned num_devices;
    char config_text[4096];       /* the CONFIGURATION blocks, lines as in the log */
    char names_text[2048];        /* the HISTOGRAM NAMES block */
    char seen_names[1024];        /* histogram names of the first report, comma-separated */
    unsigned nblocks;             /* complete reports */
    unsigned last_elapsed;        /* seconds of the last complete report */
    bool truncated;               /* the last report is incomplete (killed or running) */
    bool stopped_early;           /* max-lag "can't keep up" stop */
    char stop_message[160];       /* its first ERROR line */
    unsigned error_lines;         /* every ERROR line, I/O errors included */
    char first_error[160];
};

struct act_analyze_opts {
    unsigned slice_sec;       /* -t, 3600 */
    unsigned start_bucket;    /* -s, 0 (at most 16) */
    unsigned num_buckets;     /* -n, 7 */
    unsigned every_nth;       /* -e, 1 */
    bool extra;               /* -x: rate column */
    unsigned nhist;           /* -h given; 0 = `reads` (plus the device table for < 6.0) */
    char hist[ACT_MAX_TABLES][ACT_HIST_NAME_MAX];
};

struct act_analysis {
    struct act_log_info info;
    struct act_analyze_opts opts;
    unsigned slice_sec;           /* effective */
    bool slice_adjusted;          /* rounded up to the report interval */
    unsigned ncols;
    unsigned cols[ACT_TABLE_BUCKETS];
    unsigned ntables;
    struct act_table tables[ACT_MAX_TABLES];
    struct act_table hourly;      /* `reads`, hourly, for the verdict */
    struct act_verdict verdict;
};

void act_analyze_opts_default(struct act_analyze_opts *o);

/* Analyse a log. Errors (-EINVAL bad log or options, -errno I/O, -ENOMEM)
 * leave a one-line "name[:line]: message" in err. A log without one full
 * slice is not an error: tables then have nslices == 0. On success release
 * with act_analysis_free. */
int act_analyze_file(const char *path, const struct act_analyze_opts *o, struct act_analysis *a,
                     char *err, size_t errlen);
int act_analyze_stream(FILE *f, const char *name, const struct act_analyze_opts *o,
                       struct act_analysis *a, char *err, size_t errlen);
void act_analysis_free(struct act_analysis *a);

#endif
