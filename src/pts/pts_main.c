/* pts_main.c - pts_run (see pts.h): the run of a configuration from end to
 * end. The target is probed and checked, the device's own erase and the
 * write cache are settled before any I/O (the write cache put back at the
 * end), the header is written, then each test asked for runs in the
 * specification's order: IOPS, Throughput, Latency and WSAT (pts_run.c),
 * HIR (pts_hir.c), XSR (pts_xsr.c), CBW and DIRTH (pts_ecw.c). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/clock.h"
#include "pts/pts_int.h"
#include "prep/prep_purge.h"
#include "prep/prep_wcache.h"
#include "target/target.h"
#include "target/zoned.h"

#define MIB (1ull << 20)

/* ---- write cache ------------------------------------------------------------------ */

static const char *wc_via_name(enum wcache_via v)
{
    return v == WCACHE_DEVICE ? "device" : v == WCACHE_KERNEL ? "kernel" : "none";
}

/* The header's write_cache object: the state during the run (state,
 * kernel), before, how it was set and why not. */
static void wcache_json(struct pts_ctx *x, cJSON *wc)
{
    const struct wcache_state *w = x->wc;
    const char *obs = w->kernel_during[0] ? w->kernel_during : x->ti.write_cache;
    const char *state = w->via == WCACHE_DEVICE ? wcache_name_device(w->device_during)
                                                : wcache_name_kernel(obs);
    cJSON_AddStringToObject(wc, "kernel", obs[0] ? obs : "unknown");
    cJSON_AddStringToObject(wc, "state", state);
    cJSON_AddStringToObject(wc, "set_by", wc_via_name(x->wc_rc == 0 ? w->via : WCACHE_NONE));
    cJSON *b = cJSON_AddObjectToObject(wc, "before");
    const char *kb = w->kernel_before[0] ? w->kernel_before : x->ti.write_cache;
    cJSON_AddStringToObject(b, "state", w->via == WCACHE_DEVICE ? wcache_name_device(w->device_before)
                                                                : wcache_name_kernel(kb));
    cJSON_AddStringToObject(b, "kernel", kb[0] ? kb : "unknown");
    if (w->note[0])
        cJSON_AddStringToObject(wc, "note", w->note);
    if (w->recovered[0])
        cJSON_AddStringToObject(wc, "recovered", w->recovered);
    if (strcmp(state, pts_wc_required(x->c)))
        pts_add_reason(x, "write cache %s (kernel: %s); the %s preset asks for %s%s", state,
                   obs[0] ? obs : "unknown", pts_preset_name(x->c->preset), pts_wc_required(x->c),
                   x->c->keep_write_cache ? " (--write-cache keep)" : "");
    else if (w->via == WCACHE_KERNEL && (w->di.bus == DEV_BUS_NVME || w->di.bus == DEV_BUS_ATA ||
                                         w->di.bus == DEV_BUS_SCSI))
        pts_add_reason(x, "write cache %s only in the kernel's flush behaviour (the device's own cache "
                      "could not be set)", state);
}

/* Puts the write cache back and records the state after. */
static void wcache_end(struct pts_ctx *x)
{
    char e[256] = "";
    int rc = wcache_restore(x->wc, e, sizeof(e));
    cJSON *wc = cJSON_GetObjectItemCaseSensitive(x->pts, "write_cache");
    cJSON_AddBoolToObject(wc, "restored", rc == 0);
    cJSON *a = cJSON_AddObjectToObject(wc, "after");
    const struct wcache_state *w = x->wc;
    cJSON_AddStringToObject(a, "state", w->via == WCACHE_DEVICE ? wcache_name_device(w->device_after)
                                                                : wcache_name_kernel(w->kernel_after));
    cJSON_AddStringToObject(a, "kernel", w->kernel_after[0] ? w->kernel_after : "unknown");
    if (rc < 0) {
        cJSON_AddStringToObject(wc, "restore_error", e);
        pts_progress(x, "write cache not restored: %s", e);
    }
}

static cJSON *header_json(struct pts_ctx *x)
{
    const struct pts_cfg *c = x->c;
    cJSON *p = cJSON_CreateObject();
    cJSON_AddNumberToObject(p, "version", 1);
    cJSON_AddStringToObject(p, "spec", "SNIA SSS PTS 2.0.2");
    cJSON_AddStringToObject(p, "preset", pts_preset_name(c->preset));
    cJSON_AddStringToObject(p, "target", c->target);
    cJSON *tl = cJSON_AddArrayToObject(p, "tests_requested");
    for (int t = 0; t < PTS_NTESTS; t++)
        if (c->test[t])
            cJSON_AddItemToArray(tl, cJSON_CreateString(pts_test_name((enum pts_test)t)));
    cJSON_AddNumberToObject(p, "capacity_bytes", (double)x->capacity);
    cJSON_AddNumberToObject(p, "active_range_pct", pts_active_range(c));
    cJSON_AddNumberToObject(p, "active_range_bytes", (double)x->ar_bytes);
    cJSON_AddNumberToObject(p, "threads", x->tc);
    cJSON_AddNumberToObject(p, "depth", x->qd);
    cJSON_AddNumberToObject(p, "max_rounds", c->max_rounds);
    cJSON_AddNumberToObject(p, "capacity_scale", c->capacity_scale);
    cJSON_AddStringToObject(p, "data_pattern", "random, refilled for every write");
    cJSON_AddStringToObject(p, "engine", job_engine_name(c->engine));
    cJSON *wc = cJSON_AddObjectToObject(p, "write_cache");
    cJSON_AddStringToObject(wc, "required", pts_wc_required(c));
    wcache_json(x, wc);
    if (x->segs.n) {
        /* PTS-C ActiveRange segmentation: every segment's start, so the
         * confinement can be checked against an I/O log */
        cJSON *sg = cJSON_AddObjectToObject(p, "active_range_segments");
        cJSON_AddNumberToObject(sg, "amount_bytes", (double)x->segs.n * (double)x->segs.len);
        cJSON_AddNumberToObject(sg, "requested_amount_bytes", (double)c->active_amount);
        cJSON_AddNumberToObject(sg, "segments", x->segs.n);
        cJSON_AddNumberToObject(sg, "segment_bytes", (double)x->segs.len);
        cJSON_AddNumberToObject(sg, "slot_bytes", (double)x->segs.slot);
        cJSON_AddNumberToObject(sg, "align_bytes", (double)x->segs.align);
        char seed[24];
        snprintf(seed, sizeof(seed), "%" PRIu64, x->segs.seed);
        cJSON_AddStringToObject(sg, "seed", seed);
        cJSON_AddStringToObject(sg, "applies_to", "the rounds of IOPS, throughput and latency (not WIPC, not WSAT)");
        cJSON *st = cJSON_AddArrayToObject(sg, "starts");
        for (unsigned i = 0; i < x->segs.n; i++)
            cJSON_AddItemToArray(st, cJSON_CreateNumber((double)ar_segment_start(&x->segs, i)));
    }
    cJSON *pm = cJSON_AddObjectToObject(p, "purge");
    cJSON_AddStringToObject(pm, "mode", c->no_purge ? "none" : c->purge_mode == RPURGE_BLOCK ? "block" : "auto");
    cJSON_AddItemToObject(p, "noncompliance", x->reasons);
    cJSON_AddArrayToObject(p, "tests");
    return p;
}

int pts_run(const struct pts_cfg *c, cJSON *doc, const struct pts_run_opts *o,
            struct plan_status *st, char *err, size_t errlen)
{
    struct pts_ctx x = {.c = c, .o = o, .doc = doc, .st = st, .tc = pts_tc(c), .qd = pts_qd(c)};
    int rc = target_probe(c->target, &x.ti, err, errlen);
    if (rc == -ENOENT)
        snprintf(err, errlen, "pts: %s does not exist", c->target);
    if (rc < 0)
        return rc;
    if (x.ti.kind != TARGET_BLOCK && x.ti.kind != TARGET_FILE) {
        snprintf(err, errlen, "pts: %s is not a block device or file", c->target);
        return -EINVAL;
    }
    if ((rc = pts_check(c, x.ti.logical_block, err, errlen)) < 0)
        return rc;
    if (x.ti.kind == TARGET_BLOCK && zoned_is_zoned(&x.ti)) {
        /* PTS's random writes over the whole ActiveRange and its purge
         * assume a conventional device; there is no zoned variant */
        snprintf(err, errlen,
                 "pts: %s is a %s zoned block device; the PTS tests write at random over the "
                 "ActiveRange, which a zoned device does not take (no zoned variant)",
                 c->target, x.ti.zoned);
        return -EINVAL;
    }
    /* refuse now rather than after the purge */
    if ((rc = target_check_write(c->target, o->consent, err, errlen)) < 0)
        return rc;
    if (!c->no_purge) {
        /* the device's own erase needs its own consent: refuse it now too */
        struct rpurge_opts po = {.consent = o->consent, .mode = c->purge_mode};
        if ((rc = prep_purge_check(c->target, &po, err, errlen)) < 0)
            return rc;
    }
    x.capacity = x.ti.size;
    x.ar_bytes = (uint64_t)((double)x.capacity * pts_active_range(c) / 100.0) / MIB * MIB;
    if (x.ar_bytes < 4 * MIB) {
        snprintf(err, errlen, "pts: the ActiveRange of %s is %" PRIu64 " bytes; at least 4 MiB",
                 c->target, x.ar_bytes);
        return -EINVAL;
    }
    if (c->active_amount) {
        uint64_t seed = clock_wall_ns() ^ clock_ns();
        if ((rc = ar_segments_init(&x.segs, 0, x.ar_bytes, c->active_amount,
                                   c->segments ? c->segments : PTS_SEGMENTS, PTS_SEGMENT_ALIGN, seed,
                                   err, errlen)) < 0)
            return rc;
    }
    x.wc = calloc(1, sizeof(*x.wc));
    if (!x.wc) {
        snprintf(err, errlen, "out of memory");
        return -ENOMEM;
    }
    x.wc_rc = 1;
    if (!c->keep_write_cache) {
        bool enable = !strcmp(pts_wc_required(c), "WCE");
        x.wc_rc = wcache_apply(c->target, enable, NULL, x.wc, err, errlen);
        if (x.wc_rc < 0) {
            free(x.wc);
            return x.wc_rc;
        }
        if (x.wc->recovered[0])
            pts_progress(&x, "%s", x.wc->recovered);
        if (x.wc_rc == 0)
            pts_progress(&x, "write cache %s: %s", enable ? "enabled" : "disabled", x.wc->note);
        else
            pts_progress(&x, "write cache not set: %s", x.wc->note);
    } else {
        /* kept as it is now, once an earlier run's change is undone */
        if ((rc = wcache_keep(c->target, x.wc, err, errlen)) < 0) {
            free(x.wc);
            return rc;
        }
        if (x.wc->recovered[0])
            pts_progress(&x, "%s", x.wc->recovered);
        snprintf(x.wc->note, sizeof(x.wc->note), "left as it was (--write-cache keep)");
    }
    x.reasons = pts_noncompliance(c, c->test);
    x.pts = header_json(&x);
    cJSON_AddItemToObject(doc, "pts", x.pts);
    char ts[64];
    pts_now_iso(ts, sizeof(ts));
    cJSON_AddStringToObject(x.pts, "started", ts);
    if (c->test[PTS_IOPS] && !st->interrupted)
        rc = pts_test_rounds(&x, PTS_IOPS, 0, err, errlen);
    if (rc == 0 && c->test[PTS_TP] && !st->interrupted) {
        /* PTS-C: SEQ 1024 KiB only */
        if (c->preset == PTS_ENTERPRISE)
            rc = pts_test_rounds(&x, PTS_TP, 128 << 10, err, errlen);
        if (rc == 0 && !st->interrupted)
            rc = pts_test_rounds(&x, PTS_TP, 1024 << 10, err, errlen);
    }
    if (rc == 0 && c->test[PTS_LAT] && !st->interrupted)
        rc = pts_test_rounds(&x, PTS_LAT, 0, err, errlen);
    if (rc == 0 && c->test[PTS_WSAT] && !st->interrupted)
        rc = pts_test_wsat(&x, err, errlen);
    if (rc == 0 && c->test[PTS_HIR] && !st->interrupted)
        rc = pts_test_hir(&x, err, errlen);
    if (rc == 0 && c->test[PTS_XSR] && !st->interrupted)
        rc = pts_test_xsr(&x, err, errlen);
    if (rc == 0 && c->test[PTS_CBW] && !st->interrupted)
        rc = pts_test_di(&x, PTS_CBW, err, errlen);
    if (rc == 0 && c->test[PTS_DIRTH] && !st->interrupted)
        rc = pts_test_di(&x, PTS_DIRTH, err, errlen);
    wcache_end(&x);
    free(x.wc);
    if (st->interrupted)
        pts_add_reason(&x, "interrupted");
    pts_now_iso(ts, sizeof(ts));
    cJSON_AddStringToObject(x.pts, "finished", ts);
    cJSON_AddBoolToObject(x.pts, "compliant", cJSON_GetArraySize(x.reasons) == 0);
    return rc;
}
