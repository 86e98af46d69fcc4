/* journal.c - see journal.h. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runner/runner.h"
#include "result/journal.h"
#include "result/result.h"

static int put_json_line(FILE *f, const char *key, const cJSON *v)
{
    char *txt = cJSON_PrintUnformatted(v);
    if (!txt)
        return -ENOMEM;
    int ok = fprintf(f, "# %s %s\n", key, txt) > 0;
    free(txt);
    return ok ? 0 : -EIO;
}

static cJSON *string_array(const char *const *v, unsigned n)
{
    cJSON *a = cJSON_CreateArray();
    for (unsigned i = 0; a && i < n; i++)
        cJSON_AddItemToArray(a, cJSON_CreateString(v[i]));
    return a;
}

int journal_write_head(FILE *f, const cJSON *doc)
{
    cJSON *start = cJSON_CreateObject();
    if (!start)
        return -ENOMEM;
    static const char *const keep[] = {"schema", "tool", "started", "started_unix_ms", "host"};
    for (size_t i = 0; i < sizeof(keep) / sizeof(keep[0]); i++) {
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(doc, keep[i]);
        if (v)
            cJSON_AddItemToObject(start, keep[i], cJSON_Duplicate(v, 1));
    }
    unsigned n = runner_series_nfields();
    cJSON *fields = string_array(runner_series_fields, n), *units = string_array(runner_series_units, n);
    int rc = fprintf(f, "# %s\n", JOURNAL_FORMAT) > 0 ? 0 : -EIO;
    if (!rc)
        rc = put_json_line(f, "start", start);
    if (!rc)
        rc = put_json_line(f, "fields", fields);
    if (!rc)
        rc = put_json_line(f, "units", units);
    cJSON_Delete(start);
    cJSON_Delete(fields);
    cJSON_Delete(units);
    if (!rc && fflush(f) != 0)
        rc = -EIO;
    return rc;
}

int journal_write_phase(FILE *f, const char *name, const char *kind, const struct job_spec *jobs,
                        unsigned njobs)
{
    cJSON *ph = cJSON_CreateObject();
    if (!ph)
        return -ENOMEM;
    cJSON_AddStringToObject(ph, "name", name);
    cJSON_AddStringToObject(ph, "kind", kind);
    cJSON_AddNumberToObject(ph, "step_ms", njobs ? (double)jobs[0].interval_ns / 1e6 : 1000);
    cJSON *ja = cJSON_AddArrayToObject(ph, "jobs");
    for (unsigned j = 0; j < njobs; j++) {
        cJSON *jo = cJSON_CreateObject();
        cJSON_AddStringToObject(jo, "name", jobs[j].name);
        cJSON_AddItemToObject(jo, "params", result_job_params(&jobs[j]));
        cJSON_AddItemToArray(ja, jo);
    }
    int rc = put_json_line(f, "phase", ph);
    cJSON_Delete(ph);
    if (!rc && fflush(f) != 0)
        rc = -EIO;
    return rc;
}

int journal_write_done(FILE *f, const cJSON *doc, const cJSON *phase)
{
    cJSON *d = cJSON_CreateObject(), *ph = cJSON_Duplicate(phase, 1);
    const cJSON *t = cJSON_GetObjectItemCaseSensitive(doc, "targets");
    int rc = -ENOMEM;
    if (d && ph) {
        cJSON *iv = cJSON_GetObjectItemCaseSensitive(ph, "intervals");
        if (cJSON_IsObject(iv))
            cJSON_DeleteItemFromObjectCaseSensitive(iv, "rows");
        cJSON_AddItemToObject(d, "phase", ph);
        ph = NULL;
        cJSON_AddItemToObject(d, "targets", t ? cJSON_Duplicate(t, 1) : cJSON_CreateArray());
        rc = put_json_line(f, "done", d);
        if (!rc && fflush(f) != 0)
            rc = -EIO;
    }
    cJSON_Delete(ph);
    cJSON_Delete(d);
    return rc;
}

bool journal_detect(const char *buf, size_t len)
{
    static const char head[] = "# ssdbench-journal/";
    return buf && len >= sizeof(head) - 1 && memcmp(buf, head, sizeof(head) - 1) == 0;
}

/* Sums of one phase's rows, for its "total" scope. */
struct phase_sum {
    double ios[3], bytes[3], lat_sum[3], lat_max[3], inflight_s, t_last_ms; /* read, write, trim */
    unsigned rows;
};

/* What the reader knows while walking the lines. */
struct jreader {
    cJSON *doc, *phase, *rows;    /* the current phase and its rows */
    cJSON *fields;                /* names from "# fields" (owned by doc) */
    int nfields;
    int col_t, col_ios[3], col_bytes[3], col_mean[3], col_max[3], col_inflight; /* -1: no such column */
    struct phase_sum sum;
    unsigned skipped, total_rows, line, whole;
};

static int field_col(const cJSON *fields, const char *name)
{
    int i = 0;
    const cJSON *f;
    cJSON_ArrayForEach(f, fields) {
        if (cJSON_IsString(f) && strcmp(f->valuestring, name) == 0)
            return i;
        i++;
    }
    return -1;
}

static double col(const double *v, int c)
{
    return c >= 0 ? v[c] : 0;
}

static cJSON *dir_total(const struct phase_sum *s, int d, double secs)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "ios", s->ios[d]);
    cJSON_AddNumberToObject(o, "bytes", s->bytes[d]);
    cJSON_AddNumberToObject(o, "iops", secs > 0 ? s->ios[d] / secs : 0);
    cJSON_AddNumberToObject(o, "mbps", secs > 0 ? s->bytes[d] / secs / 1e6 : 0);
    cJSON_AddNumberToObject(o, "mibps", secs > 0 ? s->bytes[d] / secs / 1048576.0 : 0);
    cJSON_AddNumberToObject(o, "errors", 0);
    /* mean and max are exact from the rows; percentiles of the whole phase
     * are not (the journal holds each interval's p99 only) */
    cJSON *l = cJSON_AddObjectToObject(o, "latency_ns");
    cJSON_AddNumberToObject(l, "mean", s->ios[d] > 0 ? s->lat_sum[d] / s->ios[d] : 0);
    cJSON_AddNumberToObject(l, "max", s->lat_max[d]);
    cJSON_AddNullToObject(o, "scheduled_latency_ns");
    return o;
}

/* Closes the current phase: its totals from the summed rows. */
static void end_phase(struct jreader *r)
{
    if (!r->phase)
        return;
    const struct phase_sum *s = &r->sum;
    double secs = s->t_last_ms / 1000.0;
    cJSON_AddNumberToObject(r->phase, "elapsed_s", secs);
    cJSON *res = cJSON_AddArrayToObject(r->phase, "results");
    cJSON *t = cJSON_CreateObject();
    cJSON_AddStringToObject(t, "scope", "total");
    cJSON_AddNumberToObject(t, "elapsed_s", secs);
    cJSON_AddItemToObject(t, "read", dir_total(s, 0, secs));
    cJSON_AddItemToObject(t, "write", dir_total(s, 1, secs));
    cJSON_AddItemToObject(t, "trim", dir_total(s, 2, secs));
    cJSON_AddNumberToObject(t, "mean_inflight", secs > 0 ? s->inflight_s / secs : 0);
    cJSON_AddItemToArray(res, t);
    cJSON_AddNumberToObject(r->phase, "recovered_intervals", s->rows);
    r->phase = NULL;
    r->rows = NULL;
}

static void begin_phase(struct jreader *r, cJSON *info)
{
    end_phase(r);
    cJSON *ph = cJSON_CreateObject();
    const char *name = result_str(info, "name", "?"), *kind = result_str(info, "kind", "?");
    cJSON_AddStringToObject(ph, "name", name);
    cJSON_AddStringToObject(ph, "kind", kind);
    cJSON_AddStringToObject(ph, "stopped_by", "unknown (recovered from a journal)");
    cJSON *jobs = cJSON_GetObjectItemCaseSensitive(info, "jobs");
    cJSON *ja = cJSON_AddArrayToObject(ph, "jobs");
    const cJSON *j;
    cJSON_ArrayForEach(j, jobs) {
        if (!cJSON_IsObject(j))
            continue;
        cJSON *jo = cJSON_CreateObject();
        cJSON_AddStringToObject(jo, "name", result_str(j, "name", "?"));
        const cJSON *p = cJSON_GetObjectItemCaseSensitive(j, "params");
        cJSON_AddItemToObject(jo, "params", cJSON_IsObject(p) ? cJSON_Duplicate(p, 1) : cJSON_CreateObject());
        cJSON_AddArrayToObject(jo, "targets");
        cJSON_AddItemToArray(ja, jo);
    }
    cJSON *iv = cJSON_AddObjectToObject(ph, "intervals");
    const cJSON *step = cJSON_GetObjectItemCaseSensitive(info, "step_ms");
    cJSON_AddNumberToObject(iv, "step_ms", cJSON_IsNumber(step) ? step->valuedouble : 1000);
    cJSON_AddItemToObject(iv, "fields", cJSON_Duplicate(r->fields, 1));
    const cJSON *units = cJSON_GetObjectItemCaseSensitive(r->doc, "_units");
    if (units)
        cJSON_AddItemToObject(iv, "units", cJSON_Duplicate(units, 1));
    r->rows = cJSON_AddArrayToObject(iv, "rows");
    cJSON_AddArrayToObject(ph, "kernel_stats");
    cJSON_AddArrayToObject(ph, "errors");
    cJSON_AddItemToArray(cJSON_GetObjectItemCaseSensitive(r->doc, "phases"), ph);
    memset(&r->sum, 0, sizeof(r->sum));
    r->phase = ph;
}

/* A "# done" line: the current phase as it was filed replaces the one
 * being rebuilt from rows; the rows read so far become its rows. */
static void done_phase(struct jreader *r, cJSON *v)
{
    cJSON *ph = cJSON_DetachItemFromObjectCaseSensitive(v, "phase");
    cJSON *t = cJSON_DetachItemFromObjectCaseSensitive(v, "targets");
    cJSON *iv = ph ? cJSON_GetObjectItemCaseSensitive(ph, "intervals") : NULL;
    if (!r->phase || !cJSON_IsObject(ph) || !cJSON_IsObject(iv) || (t && !cJSON_IsArray(t))) {
        cJSON_Delete(ph);
        cJSON_Delete(t);
        r->skipped++;
        return;
    }
    cJSON *oiv = cJSON_GetObjectItemCaseSensitive(r->phase, "intervals");
    cJSON *rows = cJSON_DetachItemFromObjectCaseSensitive(oiv, "rows");
    cJSON_DeleteItemFromObjectCaseSensitive(iv, "rows");
    cJSON_AddItemToObject(iv, "rows", rows ? rows : cJSON_CreateArray());
    cJSON *phases = cJSON_GetObjectItemCaseSensitive(r->doc, "phases");
    int last = cJSON_GetArraySize(phases) - 1;
    cJSON_ReplaceItemInArray(phases, last, ph);
    if (t)
        cJSON_ReplaceItemInObjectCaseSensitive(r->doc, "targets", t);
    r->phase = NULL;
    r->rows = NULL;
    r->whole++;
}

/* One "[...]" row: one value per field, numbers (null where a figure was
 * not measured, such as device_temp_c, except in the columns summed
 * here); anything else is skipped. */
static void add_row(struct jreader *r, const char *line, size_t n)
{
    cJSON *row = r->rows && r->nfields > 0 ? cJSON_ParseWithLength(line, n) : NULL;
    if (!row || !cJSON_IsArray(row) || cJSON_GetArraySize(row) != r->nfields) {
        cJSON_Delete(row);
        r->skipped++;
        return;
    }
    double v[64];
    int i = 0;
    const cJSON *x;
    cJSON_ArrayForEach(x, row) {
        if (i >= 64 || (!cJSON_IsNull(x) && (!cJSON_IsNumber(x) || !isfinite(x->valuedouble)))) {
            cJSON_Delete(row);
            r->skipped++;
            return;
        }
        v[i++] = cJSON_IsNull(x) ? NAN : x->valuedouble;
    }
    const int used[] = {r->col_t, r->col_ios[0], r->col_ios[1], r->col_bytes[0], r->col_bytes[1],
                        r->col_mean[0], r->col_mean[1], r->col_max[0], r->col_max[1], r->col_inflight,
                        r->col_ios[2], r->col_bytes[2], r->col_mean[2], r->col_max[2]};
    for (size_t u = 0; u < sizeof(used) / sizeof(used[0]); u++)
        if (!isfinite(col(v, used[u]))) {
            cJSON_Delete(row);
            r->skipped++;
            return;
        }
    struct phase_sum *s = &r->sum;
    double t = col(v, r->col_t), secs = (t - s->t_last_ms) / 1000.0;
    for (int d = 0; d < 3; d++) {
        double ios = col(v, r->col_ios[d]);
        s->ios[d] += ios;
        s->bytes[d] += col(v, r->col_bytes[d]);
        s->lat_sum[d] += ios * col(v, r->col_mean[d]);
        if (col(v, r->col_max[d]) > s->lat_max[d])
            s->lat_max[d] = col(v, r->col_max[d]);
    }
    s->inflight_s += col(v, r->col_inflight) * (secs > 0 ? secs : 0);
    if (t > s->t_last_ms)
        s->t_last_ms = t;
    s->rows++;
    r->total_rows++;
    cJSON_AddItemToArray(r->rows, row);
}

static void set_fields(struct jreader *r, cJSON *fields)
{
    int n = cJSON_GetArraySize(fields);
    if (!cJSON_IsArray(fields) || n < 1 || n > 64 || r->fields) {
        cJSON_Delete(fields);
        r->skipped++;
        return;
    }
    cJSON_AddItemToObject(r->doc, "_fields", fields);
    r->fields = fields;
    r->nfields = n;
    static const char *const dn[3] = {"read", "write", "trim"};
    r->col_t = field_col(fields, "t_ms");
    r->col_inflight = field_col(fields, "mean_inflight");
    for (int d = 0; d < 3; d++) {
        char k[32];
        snprintf(k, sizeof(k), "%s_ios", dn[d]);
        r->col_ios[d] = field_col(fields, k);
        snprintf(k, sizeof(k), "%s_bytes", dn[d]);
        r->col_bytes[d] = field_col(fields, k);
        snprintf(k, sizeof(k), "%s_lat_mean_ns", dn[d]);
        r->col_mean[d] = field_col(fields, k);
        snprintf(k, sizeof(k), "%s_lat_max_ns", dn[d]);
        r->col_max[d] = field_col(fields, k);
    }
}

/* A "# key {json}" line. */
static void header_line(struct jreader *r, const char *line, size_t n)
{
    const char *p = line + 2, *end = line + n;
    const char *sp = memchr(p, ' ', (size_t)(end - p));
    if (!sp)
        return; /* "# ssdbench-journal/1" or a comment */
    size_t klen = (size_t)(sp - p);
    cJSON *v = cJSON_ParseWithLength(sp + 1, (size_t)(end - sp - 1));
    if (!v) {
        r->skipped++;
        return;
    }
    if (klen == 5 && !memcmp(p, "start", 5) && cJSON_IsObject(v)) {
        static const char *const keep[] = {"tool", "started", "started_unix_ms", "host"};
        for (size_t i = 0; i < sizeof(keep) / sizeof(keep[0]); i++) {
            cJSON *x = cJSON_DetachItemFromObjectCaseSensitive(v, keep[i]);
            if (!x)
                continue;
            if (cJSON_GetObjectItemCaseSensitive(r->doc, keep[i]))
                cJSON_ReplaceItemInObjectCaseSensitive(r->doc, keep[i], x);
            else
                cJSON_AddItemToObject(r->doc, keep[i], x);
        }
        cJSON_Delete(v);
    } else if (klen == 6 && !memcmp(p, "fields", 6)) {
        set_fields(r, v);
    } else if (klen == 5 && !memcmp(p, "units", 5) && cJSON_IsArray(v) &&
               !cJSON_GetObjectItemCaseSensitive(r->doc, "_units")) {
        cJSON_AddItemToObject(r->doc, "_units", v);
    } else if (klen == 5 && !memcmp(p, "phase", 5) && cJSON_IsObject(v) && r->fields) {
        begin_phase(r, v);
        cJSON_Delete(v);
    } else if (klen == 4 && !memcmp(p, "done", 4) && cJSON_IsObject(v)) {
        done_phase(r, v);
        cJSON_Delete(v);
    } else {
        cJSON_Delete(v);
        r->skipped++;
    }
}

cJSON *journal_parse(const char *buf, size_t len, const char *name, char *err, size_t errlen)
{
    if (!journal_detect(buf, len)) {
        snprintf(err, errlen, "%s: not an ssdbench journal (no '# %s' line)", name, JOURNAL_FORMAT);
        return NULL;
    }
    struct jreader r;
    memset(&r, 0, sizeof(r));
    r.doc = cJSON_CreateObject();
    if (!r.doc) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    cJSON_AddStringToObject(r.doc, "schema", RESULT_SCHEMA);
    cJSON_AddObjectToObject(r.doc, "tool");
    cJSON_AddStringToObject(r.doc, "started", "?");
    cJSON_AddObjectToObject(r.doc, "host");
    cJSON_AddArrayToObject(r.doc, "targets");
    cJSON_AddArrayToObject(r.doc, "phases");
    cJSON_AddArrayToObject(r.doc, "errors");
    size_t off = 0;
    while (off < len) {
        const char *line = buf + off;
        const char *nl = memchr(line, '\n', len - off);
        size_t n = nl ? (size_t)(nl - line) : len - off;
        off += n + (nl ? 1 : 0);
        r.line++;
        if (n && line[n - 1] == '\r')
            n--;
        if (n > JOURNAL_LINE_MAX) {
            r.skipped++;
            continue;
        }
        /* a last line without a newline may be torn by the kill: a row
         * is kept only if it parses whole */
        if (n >= 2 && line[0] == '#' && line[1] == ' ')
            header_line(&r, line, n);
        else if (n && line[0] == '[')
            add_row(&r, line, n);
        else if (n)
            r.skipped++;
    }
    end_phase(&r);
    cJSON_DeleteItemFromObjectCaseSensitive(r.doc, "_fields");
    cJSON_DeleteItemFromObjectCaseSensitive(r.doc, "_units");
    cJSON_AddStringToObject(r.doc, "recovered_from", name);
    cJSON_AddBoolToObject(r.doc, "incomplete", true);
    cJSON_AddNumberToObject(r.doc, "recovered_intervals", r.total_rows);
    cJSON_AddNumberToObject(r.doc, "recovered_whole_phases", r.whole);
    cJSON_AddNumberToObject(r.doc, "journal_lines_skipped", r.skipped);
    cJSON_AddBoolToObject(r.doc, "interrupted", true);
    cJSON_AddStringToObject(r.doc, "signal", "unknown (the run did not finish; recovered from its journal)");
    return r.doc;
}
