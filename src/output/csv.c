/* csv.c - the headline figures of every phase, scope and direction as CSV,
 * for spreadsheets. Latencies are in ns, throughput in MB/s (10^6 B/s). */
#include <stdio.h>
#include <string.h>

#include "output/render.h"
#include "result/result.h"

static void csv_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
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
    fprintf(f, "\n");
    cJSON_ArrayForEach(ph, cJSON_GetObjectItemCaseSensitive(doc, "phases")) {
        const cJSON *sc;
        cJSON_ArrayForEach(sc, cJSON_GetObjectItemCaseSensitive(ph, "results")) {
            for (int d = 0; d < 2; d++) {
                const cJSON *dir = cJSON_GetObjectItemCaseSensitive(sc, d ? "write" : "read");
                const cJSON *l = cJSON_GetObjectItemCaseSensitive(dir, "latency_ns");
                csv_str(f, result_str(ph, "name", ""));
                fputc(',', f);
                csv_str(f, result_str(ph, "kind", ""));
                fputc(',', f);
                csv_str(f, result_str(sc, "scope", ""));
                fprintf(f, ",%s,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g",
                        d ? "write" : "read", result_num(sc, "elapsed_s", 0), result_num(dir, "ios", 0),
                        result_num(dir, "bytes", 0), result_num(dir, "iops", 0),
                        result_num(dir, "mbps", 0), result_num(dir, "errors", 0),
                        result_num(l, "min", 0), result_num(l, "mean", 0), result_num(l, "stddev", 0),
                        result_num(l, "max", 0), result_num(sc, "mean_inflight", 0));
                const cJSON *pl = cJSON_GetObjectItemCaseSensitive(l, "percentiles");
                cJSON_ArrayForEach(p, plist)
                    fprintf(f, ",%.17g", result_num(pl, p->string, 0));
                fprintf(f, "\n");
            }
        }
    }
}
