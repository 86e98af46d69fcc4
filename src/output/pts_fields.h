/* pts_fields.h - reading a PTS result's fields, shared by its text report
 * (pts_text.c) and its html pages (html_pts.c): element indexes and the
 * figure a test tracks for steady state. */
#ifndef SSDBENCH_PTS_FIELDS_H
#define SSDBENCH_PTS_FIELDS_H

#include <cjson/cJSON.h>

/* An element index stored in the document, clamped so the conversion is
 * defined whatever the file holds (-1 when missing). */
int pts_el_num(const cJSON *o, int dflt);
/* Element i of a list of element indexes, -1 when missing or out of range. */
int pts_el_at(const cJSON *arr, int i);
/* The key of the figure a PTS test tracks ("iops", "mbps", "lat_mean_ns"),
 * from its tracking_metric (the schema's default when absent: "iops"). */
const char *pts_metric_key(const cJSON *t);

#endif
