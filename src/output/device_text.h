/* device_text.h - device identity and health for people: the text of
 * `ssdbench info` (from its JSON document, result_device.h) and the health
 * table of each device target in a run's text output. */
#ifndef SSDBENCH_DEVICE_TEXT_H
#define SSDBENCH_DEVICE_TEXT_H

#include <stdio.h>
#include <cjson/cJSON.h>

/* The `ssdbench info` document as text. */
void render_device_info(FILE *f, const cJSON *info);

/* One block per target with a "health" object: before, after, change; or
 * one line saying why there is none. */
void render_device_health(FILE *f, const cJSON *doc);

#endif
