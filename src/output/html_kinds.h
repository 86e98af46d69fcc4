/* html_kinds.h - helpers the per-kind report builders share (html_run.c,
 * html_sweep.c, html_act.c, html_fileio.c): reading a phase's histograms
 * and interval series, and the latency section every kind can reuse. */
#ifndef SSDBENCH_HTML_KINDS_H
#define SSDBENCH_HTML_KINDS_H

#include <stdint.h>
#include <cjson/cJSON.h>

#include "output/html_report.h"
#include "stats/hist.h"

#define HTML_NDIRS 3
extern const char *const html_dirs[HTML_NDIRS];     /* read, write, sync */

/* A phase of result `res`. */
struct html_run {
    size_t res;
    const cJSON *phase;
};

/* One latency series: a latency object holding "histogram" (a direction's
 * latency_ns or scheduled_latency_ns, an ACT slice's histogram entry). */
struct html_lat_src {
    const cJSON *lat;
    const char *name;
    unsigned color, dash;
};

/* The full histogram of a latency object (malloc'd, caller frees), or NULL
 * when it has no samples or the stored form is bad (message in err). */
struct hist *html_hist(const cJSON *lat, char *err, size_t errlen);

/* A direction's latency_ns object (NULL when dir is NULL). */
const cJSON *html_lat(const cJSON *dir);

/* The report's histogram bin holding the bucket that starts at lo: eight
 * bins per power of two, so each is a union of whole buckets (exact). */
void html_hist_bin(uint64_t lo, uint64_t *bin_lo, uint64_t *bin_hi);

/* Percentile curve and histogram charts (with their data tables) for the
 * given series. id prefixes the table ids, what the titles. */
int html_latency_charts(struct html_report *r, const char *id, const char *what, const struct html_lat_src *src,
                       size_t nsrc);

/* The whole section of one run-like phase across results: job lines, a
 * summary table, a comparison with ratios, latency charts, time series. */
void html_run_section(struct html_report *r, const char *id, const char *what, const struct html_run *runs,
                     size_t nruns);

/* The hosts and ranks of phases run over many ranks (html_cluster.c): a
 * per-host IOPS chart with its table and a per-rank table; nothing for
 * phases without a "cluster" object. */
void html_cluster_section(struct html_report *r, const char *id, const char *what, const struct html_run *runs,
                          size_t nruns);

double html_row_num(const cJSON *row, int field);

/* Palette slot of a series: result res, its slot-th direction of nslots. */
unsigned html_color(size_t res, unsigned slot, unsigned nslots);

/* The device targets' health over the run, one text cell (html_health.c):
 * temperature before -> after (max), wear, data written, errors, write
 * amplification; "-" when no target is a device. */
void html_health_text(char *buf, size_t len, const cJSON *doc);

/* The "what was tested" table (html_setup.c), one row per result. */
struct html_table *html_setup_table(struct html_report *r);

/* The overview of several run phases: IOPS per phase per result. */
void html_overview(struct html_report *r, const char *const *names, size_t nnames);

/* Phases: kind test ("run" matches run and every kind no builder knows). */
bool html_phase_is(const cJSON *phase, const char *kind);
const cJSON *html_phases(const struct html_report *r, size_t res);

/* Kinds that have their own builder; html_build_runs takes the rest. */
bool html_kind_known(const char *kind);

/* Per-kind builders (html_run.c ...). Each adds its sections when the
 * results hold its kind; returns 0 or -ENOMEM. */
int html_build_runs(struct html_report *r);
int html_build_sweeps(struct html_report *r);
int html_build_precondition(struct html_report *r);
int html_build_act(struct html_report *r);
int html_build_fileio(struct html_report *r);
/* html_pts.c: the PTS pages of results with a "pts" object */
int html_build_pts(struct html_report *r);
/* html_comparables.c: with several results, a comparables chart per shared
 * profile (a bar per result) and a trend per device over time */
int html_build_comparables(struct html_report *r);

#endif
