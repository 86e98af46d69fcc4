/* html_kinds.h - helpers the per-kind report builders share (html_run.c,
 * html_sweep.c, html_act.c, html_fileio.c): reading a phase's histograms
 * and interval series, and the latency section every kind can reuse. */
#ifndef SSDBENCH_HTML_KINDS_H
#define SSDBENCH_HTML_KINDS_H

#include <stdint.h>
#include <cjson/cJSON.h>

#include "output/html_report.h"
#include "stats/hist.h"

#define REP_NDIRS 3
extern const char *const rep_dirs[REP_NDIRS];     /* read, write, sync */

/* A phase of result `res`. */
struct rep_run {
    size_t res;
    const cJSON *phase;
};

/* One latency series: a latency object holding "histogram" (a direction's
 * latency_ns or scheduled_latency_ns, an ACT slice's histogram entry). */
struct rep_lat_src {
    const cJSON *lat;
    const char *name;
    unsigned color, dash;
};

/* The full histogram of a latency object (malloc'd, caller frees), or NULL
 * when it has no samples or the stored form is bad (message in err). */
struct hist *rep_hist(const cJSON *lat, char *err, size_t errlen);

/* A direction's latency_ns object (NULL when dir is NULL). */
const cJSON *rep_lat(const cJSON *dir);

/* The report's histogram bin holding the bucket that starts at lo: eight
 * bins per power of two, so each is a union of whole buckets (exact). */
void rep_hist_bin(uint64_t lo, uint64_t *bin_lo, uint64_t *bin_hi);

/* Percentile curve and histogram charts (with their data tables) for the
 * given series. id prefixes the table ids, what the titles. */
int rep_latency_charts(struct report *r, const char *id, const char *what, const struct rep_lat_src *src,
                       size_t nsrc);

/* The whole section of one run-like phase across results: job lines, a
 * summary table, a comparison with ratios, latency charts, time series. */
void rep_run_section(struct report *r, const char *id, const char *what, const struct rep_run *runs,
                     size_t nruns);

double rep_row_num(const cJSON *row, int field);

/* Palette slot of a series: result res, its slot-th direction of nslots. */
unsigned rep_color(size_t res, unsigned slot, unsigned nslots);

/* The "what was tested" table (html_setup.c), one row per result. */
struct html_table *rep_setup_table(struct report *r);

/* The overview of several run phases: IOPS per phase per result. */
void rep_overview(struct report *r, const char *const *names, size_t nnames);

/* Phases: kind test ("run" matches run and every kind no builder knows). */
bool rep_phase_is(const cJSON *phase, const char *kind);
const cJSON *rep_phases(const struct report *r, size_t res);

/* Kinds that have their own builder; rep_build_runs takes the rest. */
bool rep_kind_known(const char *kind);

#endif
