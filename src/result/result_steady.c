/* result_steady.c - a steady-state report as the results model files it. */
#include <math.h>
#include <stdio.h>

#include "result/result_steady.h"

cJSON *result_steady_json(const struct steady_cfg *cfg, const struct steady_report *r,
                         const double *window, unsigned nwindow, uint64_t interval_ns)
{
    cJSON *o = cJSON_CreateObject();
    char crit[64];
    steady_format(cfg, crit, sizeof(crit));
    cJSON_AddStringToObject(o, "rule", steady_rule_name(cfg->rule));
    cJSON_AddStringToObject(o, "metric", steady_metric_name(cfg->metric));
    cJSON_AddStringToObject(o, "criterion", crit);
    cJSON_AddNumberToObject(o, "window", cfg->window);
    cJSON_AddNumberToObject(o, "max_rounds", cfg->max_rounds);
    cJSON_AddNumberToObject(o, "interval_s", (double)interval_ns / 1e9);
    cJSON_AddStringToObject(o, "state", steady_state_name(r->state));
    cJSON_AddBoolToObject(o, "reached", r->reached);
    cJSON_AddBoolToObject(o, "evaluated", r->evaluated);
    cJSON_AddNumberToObject(o, "rounds", r->rounds);
    cJSON_AddNumberToObject(o, "window_first", r->window_first);
    cJSON_AddNumberToObject(o, "window_last", r->window_last);
    char stmt[160];
    if (r->reached)
        snprintf(stmt, sizeof(stmt), "steady state reached at round %u (window rounds %u-%u)",
                 r->window_last, r->window_first, r->window_last);
    else if (r->evaluated)
        snprintf(stmt, sizeof(stmt), "steady state not achieved after %u rounds (last window rounds %u-%u)",
                 r->rounds, r->window_first, r->window_last);
    else
        snprintf(stmt, sizeof(stmt), "steady state not achieved: %u rounds, fewer than the window of %u",
                 r->rounds, cfg->window);
    cJSON_AddStringToObject(o, "statement", stmt);
    cJSON_AddNumberToObject(o, "avg", r->avg);
    cJSON_AddNumberToObject(o, "min", r->min);
    cJSON_AddNumberToObject(o, "max", r->max);
    if (cfg->rule == STEADY_SNIA) {
        cJSON_AddNumberToObject(o, "range", r->range);
        cJSON_AddNumberToObject(o, "range_pct", isfinite(r->range_pct) ? r->range_pct : -1);
        cJSON_AddNumberToObject(o, "range_allowed", r->range_allowed);
        cJSON_AddNumberToObject(o, "slope_excursion", r->slope_excursion);
        cJSON_AddNumberToObject(o, "slope_excursion_pct",
                                isfinite(r->slope_excursion_pct) ? r->slope_excursion_pct : -1);
        cJSON_AddNumberToObject(o, "slope_allowed", r->slope_allowed);
    } else {
        cJSON_AddNumberToObject(o, "limit", cfg->limit);
        cJSON_AddBoolToObject(o, "limit_pct", cfg->limit_pct);
        cJSON_AddNumberToObject(o, "max_dev", r->max_dev);
        cJSON_AddNumberToObject(o, "max_dev_pct", isfinite(r->max_dev_pct) ? r->max_dev_pct : -1);
        cJSON_AddNumberToObject(o, "slope_pct", isfinite(r->slope_pct) ? r->slope_pct : -1);
        cJSON_AddNumberToObject(o, "criterion_value", isfinite(r->criterion) ? r->criterion : -1);
    }
    cJSON *fit = cJSON_AddObjectToObject(o, "fit");
    cJSON_AddNumberToObject(fit, "slope", r->slope);
    cJSON_AddNumberToObject(fit, "intercept", r->intercept);
    cJSON *w = cJSON_AddArrayToObject(o, "values");
    for (unsigned i = 0; i < nwindow; i++)
        cJSON_AddItemToArray(w, cJSON_CreateNumber(window[i]));
    cJSON_AddBoolToObject(o, "zero_avg", r->zero_avg);
    return o;
}
