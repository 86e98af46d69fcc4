/* act_run_json.c - the result's top-level "act" object (see act_run.h and
 * docs/act.md). It refers to phases by name and holds only what the phases
 * do not: the config, the derivation, the verdicts and the per-slice
 * histograms. */
#include "act/act_run.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static cJSON *config_json(const struct act_config *c)
{
    cJSON *o = cJSON_CreateObject();
    cJSON *dn = cJSON_AddArrayToObject(o, "device-names");
    for (unsigned i = 0; i < c->ndevices; i++)
        cJSON_AddItemToArray(dn, cJSON_CreateString(c->devices[i]));
    cJSON_AddNumberToObject(o, "num-devices", c->ndevices);
    if (c->file_size_mbytes)
        cJSON_AddNumberToObject(o, "file-size-mbytes", c->file_size_mbytes);
    if (c->service_threads)
        cJSON_AddNumberToObject(o, "service-threads", c->service_threads);
    else
        cJSON_AddNullToObject(o, "service-threads");
    cJSON_AddNumberToObject(o, "test-duration-sec", c->test_duration_sec);
    cJSON_AddNumberToObject(o, "report-interval-sec", c->report_interval_sec);
    cJSON_AddBoolToObject(o, "microsecond-histograms", c->microsecond_histograms);
    cJSON_AddNumberToObject(o, "read-reqs-per-sec", c->read_reqs_per_sec);
    cJSON_AddNumberToObject(o, "write-reqs-per-sec", c->write_reqs_per_sec);
    cJSON_AddNumberToObject(o, "record-bytes", c->record_bytes);
    cJSON_AddNumberToObject(o, "record-bytes-range-max", c->record_bytes_range_max);
    cJSON_AddNumberToObject(o, "large-block-op-kbytes", c->large_block_op_kbytes);
    cJSON_AddNumberToObject(o, "replication-factor", c->replication_factor);
    cJSON_AddNumberToObject(o, "update-pct", c->update_pct);
    cJSON_AddNumberToObject(o, "defrag-lwm-pct", c->defrag_lwm_pct);
    cJSON_AddBoolToObject(o, "no-defrag-reads", c->no_defrag_reads);
    cJSON_AddNumberToObject(o, "compress-pct", c->compress_pct);
    cJSON_AddBoolToObject(o, "disable-odsync", c->disable_odsync);
    cJSON_AddBoolToObject(o, "commit-to-device", c->commit_to_device);
    cJSON_AddBoolToObject(o, "tomb-raider", c->tomb_raider);
    cJSON_AddNumberToObject(o, "tomb-raider-sleep-usec", c->tomb_raider_sleep_usec);
    cJSON_AddNumberToObject(o, "max-lag-sec", c->max_lag_sec);
    return o;
}

static cJSON *derived_json(const struct act_derived *d, const struct act_plan *p)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "service_threads", d->service_threads);
    if (d->detected_cpus)
        cJSON_AddNumberToObject(o, "detected_cpus", d->detected_cpus);
    cJSON_AddNumberToObject(o, "record_stored_bytes_min", d->record_stored_bytes);
    cJSON_AddNumberToObject(o, "record_stored_bytes_max", d->record_stored_bytes_rmx);
    cJSON_AddNumberToObject(o, "records_per_block", d->records_per_block);
    cJSON_AddNumberToObject(o, "large_block_bytes", d->large_block_bytes);
    cJSON_AddNumberToObject(o, "write_amplification", d->write_amplification);
    cJSON_AddNumberToObject(o, "internal_read_reqs_per_sec", d->internal_read_reqs_per_sec);
    cJSON_AddNumberToObject(o, "internal_write_reqs_per_sec", d->internal_write_reqs_per_sec);
    cJSON_AddNumberToObject(o, "large_block_reads_per_sec", d->large_block_reads_per_sec);
    cJSON_AddNumberToObject(o, "large_block_writes_per_sec", d->large_block_writes_per_sec);
    cJSON_AddNumberToObject(o, "large_block_reads_per_device", d->large_block_reads_per_device);
    cJSON_AddNumberToObject(o, "large_block_writes_per_device", d->large_block_writes_per_device);
    cJSON_AddNumberToObject(o, "small_reqs_per_thread", d->small_reqs_per_thread);
    cJSON_AddNumberToObject(o, "small_reqs_per_sec_issued", p->small_rate_total);
    cJSON_AddNumberToObject(o, "read_split", d->read_split);
    cJSON_AddNumberToObject(o, "read_share", p->read_frac);
    cJSON_AddNumberToObject(o, "min_io_bytes", d->min_io_bytes);
    cJSON_AddNumberToObject(o, "io_bytes_min", d->io_bytes_min);
    cJSON_AddNumberToObject(o, "io_bytes_max", d->io_bytes_max);
    cJSON_AddNumberToObject(o, "io_sizes", d->n_io_sizes);
    cJSON_AddNumberToObject(o, "io_sizes_used", p->n_sizes_used);
    cJSON_AddBoolToObject(o, "io_sizes_approximated", p->sizes_approximated);
    cJSON_AddNumberToObject(o, "large_blocks_per_device", (double)p->n_large_blocks);
    cJSON_AddNumberToObject(o, "small_offsets_per_device", (double)p->n_small_offsets);
    cJSON_AddNumberToObject(o, "report_intervals", p->nintervals);
    cJSON_AddNumberToObject(o, "interval_ms", (double)p->interval_ns / 1e6);
    cJSON_AddNumberToObject(o, "max_queue_depth", p->max_queue_depth);
    cJSON_AddNumberToObject(o, "service_workers", p->service_rings);
    /* the schedule's I/O counts: a run that completes issues exactly these */
    cJSON *sc = cJSON_AddObjectToObject(o, "scheduled_ios");
    static const char *const keys[ACT_NJOBS] = {"service", "large_block_reads",
                                                "large_block_writes", "tomb_raider"};
    for (unsigned k = 0; k < ACT_NJOBS; k++)
        if (p->job_of[k] >= 0 && p->scheduled[k])
            cJSON_AddNumberToObject(sc, keys[k], (double)p->scheduled[k]);
    return o;
}

/* {"1": x, "8": y, "64": z} */
static cJSON *limits_json(const double *v)
{
    cJSON *o = cJSON_CreateObject();
    for (unsigned k = 0; k < ACT_NLIMITS; k++) {
        char key[8];
        snprintf(key, sizeof(key), "%u", act_limit_ms[k]);
        cJSON_AddNumberToObject(o, key, v[k]);
    }
    return o;
}

static cJSON *verdict_json(const struct act_verdict *v, bool official)
{
    cJSON *o = cJSON_CreateObject();
    if (official) {
        cJSON_AddStringToObject(o, "status", act_verdict_name(v->status));
        cJSON_AddStringToObject(o, "reason", v->reason);
        cJSON_AddStringToObject(o, "histogram", v->hist);
        cJSON_AddBoolToObject(o, "scaled", v->scaled_tick_ms > 0);
        if (v->scaled_tick_ms > 0)
            cJSON_AddNumberToObject(o, "tick_ms", v->scaled_tick_ms);
    }
    cJSON_AddNumberToObject(o, "slice_s", v->slice_sec);
    cJSON_AddNumberToObject(o, official ? "hours" : "slices", v->hours);
    if (v->hours) {
        cJSON_AddNumberToObject(o, official ? "worst_hour" : "worst_slice", v->worst_hour);
        cJSON_AddItemToObject(o, official ? "worst_hour_pct_over_ms" : "worst_slice_pct_over_ms",
                              limits_json(v->worst_pct));
        cJSON_AddItemToObject(o, "max_pct_over_ms", limits_json(v->max_pct));
        double mh[ACT_NLIMITS];
        for (unsigned k = 0; k < ACT_NLIMITS; k++)
            mh[k] = v->max_hour[k];
        cJSON_AddItemToObject(o, official ? "max_hour" : "max_slice", limits_json(mh));
    }
    bool any = v->over_limit[0] || v->over_limit[1] || v->over_limit[2];
    if (!official)
        cJSON_AddBoolToObject(o, "pass", v->hours > 0 && !any && !v->stopped_early);
    return o;
}

cJSON *act_json_begin(cJSON *doc, const struct act_config *c, const struct act_run_opts *o,
                      const struct act_device *devs)
{
    cJSON *act = cJSON_AddObjectToObject(doc, "act");
    if (!act)
        return NULL;
    cJSON_AddItemToObject(act, "config", config_json(c));
    cJSON_AddStringToObject(act, "mode", o->mode == ACT_MODE_THREADS ? "threads" : "open-loop");
    cJSON_AddStringToObject(act, "engine", job_engine_name(o->engine));
    if (o->mode == ACT_MODE_OPEN_LOOP && o->iodepth)
        cJSON_AddNumberToObject(act, "iodepth", o->iodepth);
    if (o->tick_ns)
        cJSON_AddNumberToObject(act, "tick_ms", (double)o->tick_ns / 1e6);
    cJSON *dv = cJSON_AddArrayToObject(act, "devices");
    for (unsigned i = 0; i < c->ndevices; i++) {
        cJSON *d = cJSON_CreateObject();
        cJSON_AddStringToObject(d, "name", c->devices[i]);
        cJSON_AddNumberToObject(d, "size_bytes", (double)devs[i].size_bytes);
        cJSON_AddNumberToObject(d, "min_io_bytes", devs[i].min_io_bytes);
        cJSON_AddItemToArray(dv, d);
    }
    cJSON_AddArrayToObject(act, "loads");
    return act;
}

void act_json_add_load(cJSON *act, struct act_load_result *res, const char *logname)
{
    cJSON *loads = cJSON_GetObjectItemCaseSensitive(act, "loads");
    if (!loads)
        return;
    cJSON *l = cJSON_CreateObject();
    if (res->load > 0)
        cJSON_AddNumberToObject(l, "load", res->load);
    else
        cJSON_AddNullToObject(l, "load");
    cJSON_AddStringToObject(l, "phase", res->phase);
    cJSON_AddStringToObject(l, "log", logname ? logname : "-");
    cJSON_AddNumberToObject(l, "read_reqs_per_sec", res->cfg.read_reqs_per_sec);
    cJSON_AddNumberToObject(l, "write_reqs_per_sec", res->cfg.write_reqs_per_sec);
    cJSON_AddNumberToObject(l, "test_duration_sec", res->cfg.test_duration_sec);
    cJSON_AddItemToObject(l, "derived", derived_json(&res->derived, &res->plan));
    const char *stop = res->interrupted ? "signal" : res->lagged ? "max-lag"
                     : res->log_error ? "log-error" : "complete";
    cJSON_AddStringToObject(l, "stopped_by", stop);
    if (res->lagged)
        cJSON_AddStringToObject(l, "stop_message", res->an.info.stop_message);
    cJSON_AddNumberToObject(l, "logged_s", res->logged_s);
    cJSON_AddNumberToObject(l, "io_errors", (double)res->io_errors);
    cJSON_AddItemToObject(l, "verdict", verdict_json(&res->an.verdict, true));
    cJSON *sc = cJSON_AddObjectToObject(l, "screen");
    cJSON_AddItemToObject(sc, "device", verdict_json(&res->screen, false));
    cJSON_AddItemToObject(sc, "transaction", verdict_json(&res->screen_trans, false));
    cJSON_AddBoolToObject(l, "passed", res->passed);
    if (res->slices) {
        cJSON *arr = cJSON_AddArrayToObject(l, "slices");
        char *line = NULL;
        size_t cap = 0;
        rewind(res->slices);
        while (getline(&line, &cap, res->slices) > 0) {
            cJSON *so = cJSON_Parse(line);
            if (so)
                cJSON_AddItemToArray(arr, so);
        }
        free(line);
    }
    cJSON_AddItemToArray(loads, l);
}

void act_json_find_max(cJSON *act, double highest_pass, double first_fail)
{
    cJSON *o = cJSON_AddObjectToObject(act, "find_max");
    if (highest_pass > 0)
        cJSON_AddNumberToObject(o, "highest_passing_load", highest_pass);
    else
        cJSON_AddNullToObject(o, "highest_passing_load");
    if (first_fail > 0)
        cJSON_AddNumberToObject(o, "first_failing_load", first_fail);
    else
        cJSON_AddNullToObject(o, "first_failing_load");
}
