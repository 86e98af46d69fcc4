/* html_health.c - the device targets' health over a run in the report's
 * "what was tested" table (see html_kinds.h). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "output/html_kinds.h"
#include "result/result_read.h"

static bool has(const cJSON *o, const char *k)
{
    return cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(o, k));
}

void html_health_text(char *buf, size_t len, const cJSON *doc)
{
    size_t n = 0;
    buf[0] = 0;
    const cJSON *t;
    cJSON_ArrayForEach(t, cJSON_GetObjectItemCaseSensitive(doc, "targets")) {
        const cJSON *h = cJSON_GetObjectItemCaseSensitive(t, "health");
        if (!cJSON_IsObject(h) || n + 2 >= len)
            continue;
        const cJSON *d = cJSON_GetObjectItemCaseSensitive(t, "device");
        n += (size_t)snprintf(buf + n, len - n, "%s%s: ", n ? "; " : "", result_str(d, "name", "?"));
        if (n >= len)
            break;
        if (!cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(h, "available"))) {
            n += (size_t)snprintf(buf + n, len - n, "not available (%s)", result_str(h, "reason", "?"));
            continue;
        }
        const cJSON *b = cJSON_GetObjectItemCaseSensitive(h, "before");
        const cJSON *a = cJSON_GetObjectItemCaseSensitive(h, "after");
        const cJSON *dl = cJSON_GetObjectItemCaseSensitive(h, "delta");
        char part[512] = "";
        size_t m = 0;
        if (has(b, "temp_c") || has(a, "temp_c"))
            m += (size_t)snprintf(part + m, sizeof(part) - m, "temperature %.0f -> %.0f C (max %.0f), ",
                                  result_num(b, "temp_c", NAN), result_num(a, "temp_c", NAN),
                                  result_num(dl, "temp_max_c", NAN));
        if (has(a, "percent_used") && m < sizeof(part))
            m += (size_t)snprintf(part + m, sizeof(part) - m, "endurance used %.0f -> %.0f %%, ",
                                  result_num(b, "percent_used", NAN), result_num(a, "percent_used", NAN));
        if (has(dl, "data_written_bytes") && m < sizeof(part))
            m += (size_t)snprintf(part + m, sizeof(part) - m, "%.3f GB written, ",
                                  result_num(dl, "data_written_bytes", 0) / 1e9);
        if (has(dl, "media_errors") && m < sizeof(part))
            m += (size_t)snprintf(part + m, sizeof(part) - m, "%+.0f media errors, ",
                                  result_num(dl, "media_errors", 0));
        if (has(dl, "write_amplification") && m < sizeof(part))
            m += (size_t)snprintf(part + m, sizeof(part) - m, "write amplification %.2f, ",
                                  result_num(dl, "write_amplification", 0));
        if (m >= 2 && m < sizeof(part))
            part[m - 2] = 0;
        n += (size_t)snprintf(buf + n, len - n, "%s (from %s)", part[0] ? part : "no figures",
                              result_str(h, "source", "?"));
    }
    if (!buf[0])
        snprintf(buf, len, "-");
}
