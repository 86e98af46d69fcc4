/* csv.c - the headline figures of every phase, scope and direction as CSV,
 * for spreadsheets. Latencies are in ns, throughput in MB/s (10^6 B/s).
 * Paced jobs also fill the sched_* columns (scheduled issue time ->
 * completion; empty for unpaced jobs). After a blank line follows a second
 * table: every phase's interval series, one row per interval. */
#include <stdio.h>
#include <string.h>

#include "output/render.h"
#include "result/result_read.h"

void render_csv_quoted(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

/* The interval series of every phase: "phase" then the series' own fields
 * (those of the first phase that has rows). */
static void intervals_csv(FILE *f, const cJSON *doc)
{
    const cJSON *ph, *fields = NULL;
    cJSON_ArrayForEach(ph, cJSON_GetObjectItemCaseSensitive(doc, "phases")) {
        fields = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(ph, "intervals"), "fields");
        if (cJSON_GetArraySize(fields) > 0)
            break;
    }
    if (!fields || cJSON_GetArraySize(fields) == 0)
        return;
    fprintf(f, "\nphase");
    const cJSON *fl;
    cJSON_ArrayForEach(fl, fields)
        fprintf(f, ",%s", cJSON_IsString(fl) ? fl->valuestring : "?");
    fprintf(f, "\n");
    cJSON_ArrayForEach(ph, cJSON_GetObjectItemCaseSensitive(doc, "phases")) {
        const cJSON *iv = cJSON_GetObjectItemCaseSensitive(ph, "intervals");
        const cJSON *rows = cJSON_GetObjectItemCaseSensitive(iv, "rows");
        cJSON *parsed = cJSON_IsRaw(rows) ? cJSON_Parse(rows->valuestring) : NULL;
        if (parsed)
            rows = parsed;
        int idx[64], n = 0;
        cJSON_ArrayForEach(fl, fields)
            if (n < 64)
                idx[n++] = cJSON_IsString(fl) ? result_field_index(iv, fl->valuestring) : -1;
        const cJSON *r;
        cJSON_ArrayForEach(r, rows) {
            render_csv_quoted(f, result_str(ph, "name", ""));
            for (int i = 0; i < n; i++) {
                const cJSON *v = idx[i] >= 0 ? cJSON_GetArrayItem(r, idx[i]) : NULL;
                if (cJSON_IsNumber(v))
                    fprintf(f, ",%.17g", v->valuedouble);
                else
                    fputc(',', f);
            }
            fprintf(f, "\n");
        }
        cJSON_Delete(parsed);
    }
}

void render_csv(FILE *f, const cJSON *doc)
{
    /* percentile columns follow the first scope's list */
    const cJSON *first = NULL, *ph;
    cJSON_ArrayForEach(ph, cJSON_GetObjectItemCaseSensitive(doc, "phases")) {
        first = result_scope(ph, "total");
        if (first)
            break;
    }
    const cJSON *plist = cJSON_GetObjectItemCaseSensitive(
        cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(first, "read"), "latency_ns"),
        "percentiles");
    fprintf(f, "phase,kind,scope,dir,elapsed_s,ios,bytes,iops,mbps,errors,lat_min_ns,lat_mean_ns,"
               "lat_stddev_ns,lat_max_ns,mean_inflight");
    const cJSON *p;
    cJSON_ArrayForEach(p, plist)
        fprintf(f, ",p%s_ns", p->string);
    fprintf(f, ",sched_lat_mean_ns,sched_lat_max_ns");
    cJSON_ArrayForEach(p, plist)
        fprintf(f, ",sched_p%s_ns", p->string);
    fprintf(f, "\n");
    cJSON_ArrayForEach(ph, cJSON_GetObjectItemCaseSensitive(doc, "phases")) {
        const cJSON *sc;
        cJSON_ArrayForEach(sc, cJSON_GetObjectItemCaseSensitive(ph, "results")) {
            static const char *const dn[] = {"read", "write", "trim"};
            for (int d = 0; d < 3; d++) {
                const cJSON *dir = cJSON_GetObjectItemCaseSensitive(sc, dn[d]);
                /* a trim row only for scopes that trimmed (or failed to) */
                if (d == 2 && result_num(dir, "ios", 0) == 0 && result_num(dir, "errors", 0) == 0)
                    continue;
                const cJSON *l = cJSON_GetObjectItemCaseSensitive(dir, "latency_ns");
                render_csv_quoted(f, result_str(ph, "name", ""));
                fputc(',', f);
                render_csv_quoted(f, result_str(ph, "kind", ""));
                fputc(',', f);
                render_csv_quoted(f, result_str(sc, "scope", ""));
                fprintf(f, ",%s,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g",
                        dn[d], result_num(sc, "elapsed_s", 0), result_num(dir, "ios", 0),
                        result_num(dir, "bytes", 0), result_num(dir, "iops", 0),
                        result_num(dir, "mbps", 0), result_num(dir, "errors", 0),
                        result_num(l, "min", 0), result_num(l, "mean", 0), result_num(l, "stddev", 0),
                        result_num(l, "max", 0), result_num(sc, "mean_inflight", 0));
                const cJSON *pl = cJSON_GetObjectItemCaseSensitive(l, "percentiles");
                cJSON_ArrayForEach(p, plist)
                    fprintf(f, ",%.17g", result_num(pl, p->string, 0));
                const cJSON *sl = cJSON_GetObjectItemCaseSensitive(dir, "scheduled_latency_ns");
                const cJSON *spl = cJSON_GetObjectItemCaseSensitive(sl, "percentiles");
                if (cJSON_IsObject(sl))
                    fprintf(f, ",%.17g,%.17g", result_num(sl, "mean", 0), result_num(sl, "max", 0));
                else
                    fprintf(f, ",,");
                cJSON_ArrayForEach(p, plist) {
                    if (cJSON_IsObject(sl))
                        fprintf(f, ",%.17g", result_num(spl, p->string, 0));
                    else
                        fputc(',', f);
                }
                fprintf(f, "\n");
            }
        }
    }
    intervals_csv(f, doc);
}
