/* pts_fields.c - see pts_fields.h. */
#include <string.h>

#include "output/pts_fields.h"
#include "result/result_read.h"
#include "result/result_schema.h"

int pts_el_num(const cJSON *o, int dflt)
{
    return (int)result_num_in(o, "element", -1, 1e6, dflt);
}

int pts_el_at(const cJSON *arr, int i)
{
    double v = result_at_num(arr, i, -1);
    return v >= 0 && v <= 1e6 ? (int)v : -1;
}

const char *pts_metric_key(const cJSON *t)
{
    const char *m = result_sstr(t, "pts.tests[].tracking_metric");
    return !strcmp(m, "bw") ? "mbps" : !strcmp(m, "lat") ? "lat_mean_ns" : "iops";
}
