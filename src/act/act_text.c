/* act_text.c - act_latency.py's table layout and the verdict lines.
 * The spacing (including the trailing spaces of the two name lines) is the
 * script's, so `diff` against its output is empty. */
#include "act/act_text.h"

#include <errno.h>
#include <stdbool.h>
#include <string.h>

#define GAP "  "

static int status(FILE *f) { return ferror(f) ? -EIO : 0; }

/* Python's str.ljust. */
static void ljust(FILE *f, const char *s, size_t width)
{
    fputs(s, f);
    for (size_t n = strlen(s); n < width; n++)
        fputc(' ', f);
}

static void spaces(FILE *f, size_t n)
{
    while (n--)
        fputc(' ', f);
}

int act_text_header(FILE *f, const char *logname, const struct act_analysis *a)
{
    const struct act_log_info *in = &a->info;
    fprintf(f, "%s is ACT version %s", logname, in->version[0] ? in->version : "(unknown)");
    if (in->producer[0])
        fprintf(f, " (written by %s)", in->producer);
    fprintf(f, "\n\n");
    if (a->slice_adjusted)
        fprintf(f, "analyzing time slices of %u seconds\n", a->slice_sec);
    fputs(in->config_text, f);
    if (in->names_text[0])
        fprintf(f, "HISTOGRAM NAMES\n%s\n", in->names_text);
    return status(f);
}

static unsigned row_count(const struct act_analysis *a)
{
    unsigned n = a->ntables ? a->tables[0].nslices : 0;
    for (unsigned t = 1; t < a->ntables; t++)
        if (a->tables[t].nslices < n)
            n = a->tables[t].nslices;
    return n;
}

static void values(FILE *f, const struct act_analysis *a, const size_t *pad,
                   const double *const *over, const double *rate)
{
    for (unsigned t = 0; t < a->ntables; t++) {
        fputs(GAP, f);
        spaces(f, pad[t]);
        for (unsigned c = 0; c < a->ncols; c++)
            fprintf(f, "%7.2f", over[t][a->cols[c]]);
        if (a->opts.extra)
            fprintf(f, "%11.1f", rate[t]);
    }
    fputc('\n', f);
}

static void underline(FILE *f, const struct act_analysis *a, const size_t *pad)
{
    fputs("-----", f);
    for (unsigned t = 0; t < a->ntables; t++) {
        fputs(GAP, f);
        spaces(f, pad[t]);
        for (unsigned c = 0; c < a->ncols; c++)
            fputs(" ------", f);
        if (a->opts.extra)
            fputs(" ----------", f);
    }
    fputc('\n', f);
}

int act_text_tables(FILE *f, const struct act_analysis *a)
{
    unsigned rows = row_count(a);
    if (!rows || !a->ntables)
        return 0;
    char labels[ACT_TABLE_BUCKETS * 8 + 16] = "";
    size_t len = 0;
    for (unsigned c = 0; c < a->ncols; c++)
        len += (size_t)snprintf(labels + len, sizeof(labels) - len, "%7u", 1u << a->cols[c]);
    if (a->opts.extra)
        len += (size_t)snprintf(labels + len, sizeof(labels) - len, "       rate");
    /* A name longer than its table pushes the next table right. */
    size_t pad[ACT_MAX_TABLES] = {0};
    for (unsigned t = 1; t < a->ntables; t++) {
        size_t prev = 1 + strlen(a->tables[t - 1].name);
        pad[t] = prev > len ? prev - len : 0;
    }
    const char *unit = a->info.us_histograms ? " %>(us)" : " %>(ms)";

    fputs("     ", f);
    for (unsigned t = 0; t < a->ntables; t++) {
        fputs(GAP " ", f);
        ljust(f, a->tables[t].name, len ? len - 1 : 0);
    }
    fputs("\n     ", f);
    for (unsigned t = 0; t < a->ntables; t++) {
        fputs(GAP, f);
        spaces(f, pad[t]);
        ljust(f, unit, len);
    }
    fputs("\nslice", f);
    for (unsigned t = 0; t < a->ntables; t++) {
        fputs(GAP, f);
        spaces(f, pad[t]);
        fputs(labels, f);
    }
    fputc('\n', f);
    underline(f, a, pad);

    const double *over[ACT_MAX_TABLES];
    double rate[ACT_MAX_TABLES];
    for (unsigned s = 0; s < rows; s++) {
        fprintf(f, "%5u", s + 1);
        for (unsigned t = 0; t < a->ntables; t++) {
            over[t] = a->tables[t].rows[s].over;
            rate[t] = a->tables[t].rows[s].rate;
        }
        values(f, a, pad, over, rate);
    }
    underline(f, a, pad);
    fputs("  avg", f);
    for (unsigned t = 0; t < a->ntables; t++) {
        over[t] = a->tables[t].avg;
        rate[t] = a->tables[t].avg_rate;
    }
    values(f, a, pad, over, rate);
    fputs("  max", f);
    for (unsigned t = 0; t < a->ntables; t++) {
        over[t] = a->tables[t].max;
        rate[t] = a->tables[t].max_rate;
    }
    values(f, a, pad, over, rate);
    return ferror(f) ? -EIO : (int)rows;
}

int act_text_verdict(FILE *f, const struct act_analysis *a)
{
    const struct act_log_info *in = &a->info;
    const struct act_verdict *v = &a->verdict;
    bool noted = false;
    if (in->stopped_early) {
        fprintf(f, "note: the run stopped early after %u s: %s\n", in->last_elapsed,
                in->stop_message);
        noted = true;
    } else if (in->test_duration_sec && in->last_elapsed < in->test_duration_sec) {
        fprintf(f, "note: the log ends after %u s of the configured %u s\n", in->last_elapsed,
                in->test_duration_sec);
        noted = true;
    }
    if (in->truncated) {
        fprintf(f, "note: the last report is cut off (run still going or killed); ignored\n");
        noted = true;
    }
    if (in->error_lines && strcmp(in->first_error, in->stop_message)) {
        fprintf(f, "note: %u ERROR line%s in the log, the first: %s\n", in->error_lines,
                in->error_lines == 1 ? "" : "s", in->first_error);
        noted = true;
    }
    if (noted)
        fputc('\n', f);
    if (v->hours) {
        fprintf(f, "certification rule: in every hour of '%s', below 5%% >= 1 ms, "
                   "1%% >= 8 ms and 0.1%% >= 64 ms\n", v->hist);
        if (v->us_buckets)
            fprintf(f, "  (microsecond histograms: thresholds taken at 1.024, 8.192 and "
                       "65.536 ms, the nearest bucket edges)\n");
        fprintf(f, "  %u hour%s judged (slices of %u s)\n", v->hours, v->hours == 1 ? "" : "s",
                v->slice_sec);
        for (unsigned k = 0; k < ACT_NLIMITS; k++) {
            char label[16], limit[16];
            snprintf(label, sizeof(label), ">= %u ms:", act_limit_ms[k]);
            snprintf(limit, sizeof(limit), "%g%%", act_limit_pct[k]);
            fprintf(f, "  %-10s max %6.2f%% in hour %-3u  limit below %-5s %s\n", label,
                    v->max_pct[k], v->max_hour[k], limit, v->over_limit[k] ? "OVER" : "ok");
        }
        fprintf(f, "  worst hour: %u (%.2f%% >= 1 ms, %.2f%% >= 8 ms, %.2f%% >= 64 ms)\n",
                v->worst_hour, v->worst_pct[0], v->worst_pct[1], v->worst_pct[2]);
    }
    if (v->scaled_tick_ms > 0)
        fprintf(f, "verdict: %s (scaled): %s\n", act_verdict_name(v->status), v->reason);
    else
        fprintf(f, "verdict: %s: %s\n", act_verdict_name(v->status), v->reason);
    return status(f);
}
