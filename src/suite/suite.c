/* suite.c - the suite's configuration, parsers, sweep points and phase jobs
 * (see suite.h). Running it is suite_run.c. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "jobfile/options.h"
#include "result/result.h"
#include "target/stripe.h"
#include "job/job_opts.h"
#include "suite/suite.h"
#include "result/result_fig.h"

static const char *const default_profiles[] = {"4k-random-read", "4k-random-write", "8k-70-30",
                                               "fileserver", "webserver"};

void suite_defaults(struct suite_cfg *c)
{
    memset(c, 0, sizeof(*c));
    for (unsigned i = 0; i < sizeof(default_profiles) / sizeof(default_profiles[0]); i++)
        snprintf(c->profiles[c->nprofiles++], JOB_NAME_MAX, "%s", default_profiles[i]);
    char err[128];
    suite_parse_sweep("tq:2,4,8,16x2,4,8,16", &c->sweep, err, sizeof(err));
    c->precond = PRECOND_AUTO;
    c->pre_threads = 16;
    c->pre_depth = 16;
    c->interval_ns = 60000000000ull;
    steady_snia_defaults(&c->ss);
    c->range_pct = 100;
    c->layout = LAYOUT_JBOD;
    c->rwmixread = -1;
}

uint64_t suite_point_runtime(const struct suite_cfg *c)
{
    if (c->runtime_ns)
        return c->runtime_ns;
    return c->sweep.kind == SWEEP_QD ? 300000000000ull : 60000000000ull;
}

/* "1,2,4,...,256" -> values; "..." doubles up to the next value. */
static int parse_list(const char *s, unsigned max, unsigned *out, unsigned *n, const char *what,
                      char *err, size_t errlen)
{
    *n = 0;
    bool pending = false;
    const char *p = s;
    if (!*p) {
        snprintf(err, errlen, "--sweep: empty %s list in '%s'", what, s);
        return -EINVAL;
    }
    while (*p) {
        size_t l = strcspn(p, ",");
        char tok[32];
        if (l == 0 || l >= sizeof(tok)) {
            snprintf(err, errlen, "--sweep: bad %s list '%s' (use numbers separated by ',')", what,
                     s);
            return -EINVAL;
        }
        memcpy(tok, p, l);
        tok[l] = 0;
        p += l;
        if (*p == ',')
            p++;
        if (!strcmp(tok, "...")) {
            if (*n == 0 || pending) {
                snprintf(err, errlen, "--sweep: '...' in '%s' needs a value before and after it",
                         s);
                return -EINVAL;
            }
            pending = true;
            continue;
        }
        char *e;
        unsigned long v = strtoul(tok, &e, 10);
        if (*e || v == 0 || v > max || !isdigit((unsigned char)tok[0])) {
            snprintf(err, errlen, "--sweep: %s '%s' is not a number in 1..%u", what, tok, max);
            return -EINVAL;
        }
        if (pending) {
            unsigned long x = (unsigned long)out[*n - 1] * 2;
            for (; x < v; x *= 2) {
                if (*n >= SUITE_SWEEP_MAX)
                    break;
                out[(*n)++] = (unsigned)x;
            }
            pending = false;
        }
        if (*n >= SUITE_SWEEP_MAX) {
            snprintf(err, errlen, "--sweep: more than %d %s values in '%s'", SUITE_SWEEP_MAX, what,
                     s);
            return -EINVAL;
        }
        out[(*n)++] = (unsigned)v;
    }
    if (pending) {
        snprintf(err, errlen, "--sweep: '...' in '%s' needs a value after it", s);
        return -EINVAL;
    }
    return 0;
}

int suite_parse_sweep(const char *s, struct suite_sweep *sw, char *err, size_t errlen)
{
    memset(sw, 0, sizeof(*sw));
    if (!strcasecmp(s, "none")) {
        sw->kind = SWEEP_NONE;
        return 0;
    }
    if (!strncasecmp(s, "qd:", 3)) {
        sw->kind = SWEEP_QD;
        sw->nthreads = 1;
        sw->threads[0] = 1;
        return parse_list(s + 3, 65536, sw->depths, &sw->ndepths, "queue depth", err, errlen);
    }
    if (!strncasecmp(s, "tq:", 3)) {
        sw->kind = SWEEP_TQ;
        const char *x = strpbrk(s + 3, "xX*");
        if (!x) {
            snprintf(err, errlen, "--sweep: '%s' needs THREADSxDEPTHS, e.g. tq:2,4,8,16x2,4,8,16",
                     s);
            return -EINVAL;
        }
        char tl[256];
        size_t l = (size_t)(x - (s + 3));
        if (l >= sizeof(tl)) {
            snprintf(err, errlen, "--sweep: '%s' is too long", s);
            return -EINVAL;
        }
        memcpy(tl, s + 3, l);
        tl[l] = 0;
        int rc = parse_list(tl, 4096, sw->threads, &sw->nthreads, "thread count", err, errlen);
        if (rc == 0)
            rc = parse_list(x + 1, 65536, sw->depths, &sw->ndepths, "queue depth", err, errlen);
        return rc;
    }
    snprintf(err, errlen, "--sweep: unknown sweep '%s' (use tq:T,..xQ,.., qd:Q,.. or none)", s);
    return -EINVAL;
}

int suite_parse_load(const char *s, unsigned *threads, unsigned *depth, char *err, size_t errlen)
{
    unsigned t = 0, q = 0;
    char c1 = 0, c2 = 0, extra = 0;
    int n = sscanf(s, "%u%c%u%c%c", &t, &c1, &q, &c2, &extra);
    bool ok = (n == 3 && (c1 == 'x' || c1 == 'X' || c1 == '*')) ||
              (n == 4 && (c1 == 'T' || c1 == 't') && (c2 == 'Q' || c2 == 'q'));
    if (!ok || t == 0 || q == 0 || t > 4096 || q > 65536) {
        snprintf(err, errlen, "bad load '%s' (use THREADSxDEPTH, e.g. 16x16, or 16T16Q)", s);
        return -EINVAL;
    }
    *threads = t;
    *depth = q;
    return 0;
}

int suite_parse_ss(const char *s, struct steady_cfg *c, char *err, size_t errlen)
{
    if (!strncasecmp(s, "snia", 4) && (s[4] == 0 || s[4] == ':')) {
        c->rule = STEADY_SNIA;
        c->metric = STEADY_IOPS;
        if (s[4] == ':') {
            double r, sl;
            char t;
            if (sscanf(s + 5, "%lf%%/%lf%%%c", &r, &sl, &t) != 2 || !(r > 0) || !(sl > 0)) {
                snprintf(err, errlen,
                         "--ss: bad SNIA limits '%s' (use snia:RANGE%%/SLOPE%%, e.g. snia:20%%/10%%)",
                         s);
                return -EINVAL;
            }
            c->range_pct = r;
            c->slope_pct = sl;
        }
        return 0;
    }
    char msg[256];
    if (steady_parse_fio(s, c, msg, sizeof(msg)) < 0) {
        snprintf(err, errlen, "--ss: %s (or use snia)", msg);
        return -EINVAL;
    }
    return 0;
}

void suite_point_label(enum suite_sweep_kind kind, unsigned threads, unsigned depth, char *buf,
                       size_t len)
{
    if (kind == SWEEP_QD)
        snprintf(buf, len, "QD%u", depth);
    else
        snprintf(buf, len, "%uT%uQ", threads, depth);
}

unsigned suite_points(const struct suite_sweep *sw, struct suite_point *out, unsigned cap)
{
    unsigned n = 0;
    if (sw->kind == SWEEP_NONE)
        return 0;
    for (unsigned t = 0; t < sw->nthreads; t++)
        for (unsigned q = 0; q < sw->ndepths; q++) {
            if (n >= cap)
                return n;
            out[n].threads = sw->threads[t];
            out[n].depth = sw->depths[q];
            suite_point_label(sw->kind, out[n].threads, out[n].depth, out[n].label,
                              sizeof(out[n].label));
            n++;
        }
    return n;
}

/* Options the suite sets itself, with the suite option that does it. */
static const char *controlled(const char *key)
{
    static const struct {
        const char *opt, *use;
    } tab[] = {
        {"filename", "TARGET arguments"}, {"directory", "TARGET arguments"},
        {"layout", "--layout"},           {"numjobs", "--sweep"},
        {"iodepth", "--sweep"},           {"runtime", "--runtime"},
        {"time_based", "--runtime"},      {"ramp_time", "--ramp"},
        {"size", "--range"},              {"offset", "--range"},
        {"range", "--range"},             {"io_size", "--runtime"},
        {"name", "the profile name"},     {"stonewall", "the suite's phase order"},
    };
    const struct job_opt *o = job_option_find(key);
    if (!o)
        return NULL;
    for (unsigned i = 0; i < sizeof(tab) / sizeof(tab[0]); i++)
        if (!strcmp(o->name, tab[i].opt))
            return tab[i].use;
    return NULL;
}

int suite_part_job(const struct suite_cfg *c, const struct profile_part *part,
                   struct job_spec *out, char *err, size_t errlen)
{
    *out = part->job;
    struct job_extra x = part->extra;
    char msg[512];
    bool mixed = out->rw == RW_RW || out->rw == RW_RANDRW;
    if (c->rwmixread >= 0 && mixed) {
        char v[16];
        snprintf(v, sizeof(v), "%d", c->rwmixread);
        if (job_set_option(out, &x, "rwmixread", v, msg, sizeof(msg)) < 0) {
            snprintf(err, errlen, "--rwmixread %d: %s", c->rwmixread, msg);
            return -EINVAL;
        }
    }
    size_t plen = strcspn(part->name, "/");
    for (unsigned i = 0; i < c->nset; i++) {
        if (c->set_prof[i][0] && (strlen(c->set_prof[i]) != plen ||
                                  strncmp(c->set_prof[i], part->name, plen)))
            continue;
        const char *use = controlled(c->set_key[i]);
        if (use) {
            snprintf(err, errlen, "--set %s: the suite sets this itself (use %s)", c->set_key[i],
                     use);
            return -EINVAL;
        }
        int rc = job_set_option(out, &x, c->set_key[i], c->set_val[i][0] ? c->set_val[i] : NULL,
                                msg, sizeof(msg));
        if (rc < 0) {
            snprintf(err, errlen, "--set %s=%s: %s", c->set_key[i], c->set_val[i], msg);
            return rc;
        }
    }
    if (job_option_finalize(out, &x, true, msg, sizeof(msg)) < 0) {
        snprintf(err, errlen, "profile part %s: %s", part->name, msg);
        return -EINVAL;
    }
    return 0;
}

void suite_phase_job(const struct suite_cfg *c, const struct job_spec *part, unsigned threads,
                     unsigned depth, uint64_t runtime_ns, uint64_t ramp_ns, struct job_spec *out)
{
    *out = *part;
    out->ntargets = c->ntargets;
    memcpy(out->targets, c->targets, sizeof(out->targets));
    out->layout = c->ntargets > 1 ? c->layout : LAYOUT_JBOD;
    out->stripe_chunk = out->layout == LAYOUT_STRIPE ? c->stripe_chunk : 0;
    out->numjobs = threads;
    out->clones = 0; /* the suite reports each point's job whole */
    out->iodepth = depth;
    out->runtime_ns = runtime_ns;
    out->ramp_ns = ramp_ns;
    out->time_based = runtime_ns > 0;
    out->io_limit = 0;
    out->stonewall = false;
    if (c->range_pct > 0 && c->range_pct < 100) {
        out->offset = 0;
        out->offset_pct = 0;
        out->size = 0;
        out->size_pct = c->range_pct;
    }
}

int suite_unused_range(const struct suite_cfg *c, const uint64_t *sizes, unsigned i,
                       uint64_t *offset, char *err, size_t errlen)
{
    uint64_t min = UINT64_MAX;
    for (unsigned t = 0; t < c->ntargets; t++)
        if (sizes[t] < min)
            min = sizes[t];
    double pct = c->range_pct > 0 && c->range_pct < 100 ? c->range_pct : 100;
    if (c->ntargets > 1 && c->layout == LAYOUT_STRIPE) {
        struct stripe_map m;
        int rc = stripe_init(&m, c->ntargets, c->stripe_chunk, min, err, errlen);
        if (rc < 0)
            return rc;
        uint64_t space = stripe_logical_len(&m);
        uint64_t l = (uint64_t)((double)space * pct / 100.0) & ~(uint64_t)4095;
        uint64_t row = c->stripe_chunk * c->ntargets;
        uint64_t rows = (l + row - 1) / row;
        *offset = rows * c->stripe_chunk;
    } else {
        *offset = pct < 100 ? ((uint64_t)((double)min * pct / 100.0) & ~(uint64_t)4095) : min;
    }
    if (*offset > sizes[i])
        *offset = sizes[i];
    return 0;
}

static bool profile_mixed(const struct profile_set *ps, const struct profile *p)
{
    for (unsigned k = 0; k < p->nparts; k++) {
        const struct job_spec *j = &profile_part(ps, p, k)->job;
        if (j->rw == RW_RW || j->rw == RW_RANDRW)
            return true;
    }
    return false;
}

/* The profiles, targets, layout, range and sweep settings. */
static int check_targets(const struct suite_cfg *c, char *err, size_t errlen)
{
    if (c->nprofiles == 0) {
        snprintf(err, errlen, "--profiles: no profile given");
        return -EINVAL;
    }
    if (c->ntargets == 0) {
        snprintf(err, errlen, "suite: which target? give one or more files or block devices");
        return -EINVAL;
    }
    if (c->ntargets > 1 && c->layout != LAYOUT_JBOD && c->layout != LAYOUT_STRIPE) {
        snprintf(err, errlen, "--layout: the suite runs jbod or stripe:CHUNK");
        return -EINVAL;
    }
    if (c->layout == LAYOUT_STRIPE && c->ntargets < 2) {
        snprintf(err, errlen, "--layout stripe needs at least two targets");
        return -EINVAL;
    }
    if (c->layout == LAYOUT_STRIPE && (c->stripe_chunk == 0 || c->stripe_chunk % 512)) {
        snprintf(err, errlen, "--layout stripe:CHUNK: the chunk must be a multiple of 512 bytes");
        return -EINVAL;
    }
    if (!(c->range_pct > 0 && c->range_pct <= 100)) {
        snprintf(err, errlen, "--range %g%%: use a percentage in (0, 100]", c->range_pct);
        return -EINVAL;
    }
    if (c->discard_unused && c->range_pct >= 100) {
        snprintf(err, errlen, "--discard-unused needs --range below 100%%");
        return -EINVAL;
    }
    if (c->sweep.kind == SWEEP_NONE && c->precond == PRECOND_OFF && !c->sample_ns) {
        snprintf(err, errlen, "--sweep none with --precondition off leaves nothing to run");
        return -EINVAL;
    }
    return 0;
}

/* The preconditioning settings (preconditioning on). */
static int check_precondition(const struct suite_cfg *c, char *err, size_t errlen)
{
    if (c->interval_ns < 1000000) {
        snprintf(err, errlen, "--ss-interval: at least 1 ms");
        return -EINVAL;
    }
    char msg[256];
    if (steady_cfg_check(&c->ss, msg, sizeof(msg)) < 0) {
        snprintf(err, errlen, "steady state: %s", msg);
        return -EINVAL;
    }
    if (c->precond == PRECOND_AUTO && c->ss.max_rounds == 0) {
        snprintf(err, errlen,
                 "--precondition auto needs a round limit (--ss-max-rounds N); use "
                 "--precondition TIME for a fixed duration");
        return -EINVAL;
    }
    if (c->precond == PRECOND_TIME && c->precond_ns < c->interval_ns) {
        snprintf(err, errlen, "--precondition: a fixed time must cover at least one interval");
        return -EINVAL;
    }
    return 0;
}

/* Every --set PROFILE:KEY names a profile of --profiles. */
static int check_sets(const struct suite_cfg *c, char *err, size_t errlen)
{
    for (unsigned i = 0; i < c->nset; i++) {
        if (!c->set_prof[i][0])
            continue;
        bool named = false;
        for (unsigned k = 0; k < c->nprofiles; k++)
            named |= !strcmp(c->profiles[k], c->set_prof[i]);
        if (!named) {
            snprintf(err, errlen, "--set %s:%s: profile '%s' is not in --profiles", c->set_prof[i],
                     c->set_key[i], c->set_prof[i]);
            return -EINVAL;
        }
    }
    return 0;
}

/* Every profile exists, is listed once and (with --layout stripe) fits the
 * stripe; *nmixed and mixed_names (mlen bytes) get the profiles that mix
 * reads and writes. */
static int check_profiles(const struct suite_cfg *c, const struct profile_set *ps, unsigned *nmixed,
                          char *mixed_names, size_t mlen, char *err, size_t errlen)
{
    int rc;
    for (unsigned i = 0; i < c->nprofiles; i++) {
        const struct profile *p = profile_find(ps, c->profiles[i]);
        if (!p) {
            profile_unknown_msg(ps, c->profiles[i], err, errlen);
            return -EINVAL;
        }
        for (unsigned k = 0; k < i; k++)
            if (!strcmp(c->profiles[k], c->profiles[i])) {
                snprintf(err, errlen, "--profiles: '%s' is listed twice", c->profiles[i]);
                return -EINVAL;
            }
        if (profile_mixed(ps, p)) {
            size_t l = strlen(mixed_names);
            snprintf(mixed_names + l, mlen - l, "%s%s", *nmixed ? ", " : "", p->name);
            (*nmixed)++;
        }
        for (unsigned k = 0; k < p->nparts; k++) {
            struct job_spec j, ph;
            rc = suite_part_job(c, profile_part(ps, p, k), &j, err, errlen);
            if (rc < 0)
                return rc;
            suite_phase_job(c, &j, 1, 1, 1, 0, &ph);
            if (ph.layout == LAYOUT_STRIPE) {
                struct stripe_map m;
                char msg[256];
                if (stripe_init(&m, c->ntargets, c->stripe_chunk, c->stripe_chunk, msg,
                                sizeof(msg)) < 0 ||
                    job_stripe_check(&m, &ph, msg, sizeof(msg)) < 0) {
                    snprintf(err, errlen, "profile %s with --layout stripe: %s", p->name, msg);
                    return -EINVAL;
                }
            }
        }
    }
    return 0;
}

int suite_check(const struct suite_cfg *c, const struct profile_set *ps, char *err,
                size_t errlen)
{
    int rc = check_targets(c, err, errlen);
    if (rc < 0)
        return rc;
    if (c->precond != PRECOND_OFF && (rc = check_precondition(c, err, errlen)) < 0)
        return rc;
    unsigned nmixed = 0;
    char mixed_names[256] = "";
    if ((rc = check_sets(c, err, errlen)) < 0)
        return rc;
    if ((rc = check_profiles(c, ps, &nmixed, mixed_names, sizeof(mixed_names), err, errlen)) < 0)
        return rc;
    if (c->rwmixread >= 0 && !nmixed) {
        snprintf(err, errlen, "--rwmixread: none of the profiles mixes reads and writes");
        return -EINVAL;
    }
    if (c->rwmixread >= 0 && nmixed > 1) {
        snprintf(err, errlen,
                 "--rwmixread %d: %u profiles mix reads and writes (%s) and each has its own "
                 "mix; name the one to change, e.g. --set %.*s:rwmixread=%d",
                 c->rwmixread, nmixed, mixed_names, (int)strcspn(mixed_names, ","), mixed_names,
                 c->rwmixread);
        return -EINVAL;
    }
    return 0;
}

/* The IOPS of a phase of the baseline: its suite figures, else its total. */
static bool baseline_iops(const cJSON *base, const char *phase, double *iops)
{
    const cJSON *suite = cJSON_GetObjectItemCaseSensitive(base, "suite");
    const cJSON *pr, *pt;
    cJSON_ArrayForEach(pr, cJSON_GetObjectItemCaseSensitive(suite, "profiles"))
        cJSON_ArrayForEach(pt, cJSON_GetObjectItemCaseSensitive(pr, "points"))
            if (!strcmp(result_str(pt, "phase", ""), phase)) {
                *iops = result_num(cJSON_GetObjectItemCaseSensitive(pt, "combined"), "iops", 0);
                return true;
            }
    const cJSON *ph;
    cJSON_ArrayForEach(ph, cJSON_GetObjectItemCaseSensitive(base, "phases"))
        if (!strcmp(result_str(ph, "name", ""), phase)) {
            const cJSON *tot = result_scope(ph, "total");
            if (!tot)
                return false;
            *iops = result_num(cJSON_GetObjectItemCaseSensitive(tot, "read"), "iops", 0) +
                    result_num(cJSON_GetObjectItemCaseSensitive(tot, "write"), "iops", 0);
            return true;
        }
    return false;
}

unsigned suite_result_targets(const cJSON *doc)
{
    const cJSON *t = cJSON_GetObjectItemCaseSensitive(
        cJSON_GetObjectItemCaseSensitive(doc, "suite"), "targets");
    int n = cJSON_GetArraySize(t);
    return n > 0 ? (unsigned)n : 1;
}

int suite_baseline_check(const cJSON *doc, const char *file, char *err, size_t errlen)
{
    const char *kind = result_kind(doc);
    if (!strcmp(kind, "suite"))
        return 0;
    snprintf(err, errlen, "--baseline %s: %s %s result; a suite scales against a suite result", file,
             !strcmp(kind, "act") ? "an" : "a", !strcmp(kind, "act") ? "ACT" : kind);
    return -EINVAL;
}

cJSON *suite_scaling_json(const cJSON *baseline, const char *phase, double iops,
                          unsigned ntargets)
{
    double b;
    if (!baseline || !baseline_iops(baseline, phase, &b))
        return NULL;
    unsigned bt = suite_result_targets(baseline);
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "baseline_iops", b);
    cJSON_AddNumberToObject(o, "baseline_targets", bt);
    double f = b > 0 ? iops / b : 0;
    cJSON_AddNumberToObject(o, "factor", f);
    cJSON_AddNumberToObject(o, "per_target", ntargets ? f * bt / ntargets : 0);
    return o;
}
