/* result_access.c - reading a results-model document safely: accessors that
 * take any node of any type and fall back to a default (see result.h). */
#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "result/result.h"

double result_value_num(const cJSON *v, double dflt)
{
    double d;
    if (cJSON_IsNumber(v))
        d = v->valuedouble;
    else if (cJSON_IsString(v) && v->valuestring && v->valuestring[0]) {
        /* large integers are stored as decimal strings (see hist_json.h) */
        char *end;
        d = strtod(v->valuestring, &end);
        if (*end)
            return dflt;
    } else
        return dflt;
    return isfinite(d) ? d : dflt;
}

const char *result_value_str(const cJSON *v, const char *dflt)
{
    return cJSON_IsString(v) && v->valuestring ? v->valuestring : dflt;
}

double result_num(const cJSON *obj, const char *key, double dflt)
{
    return result_value_num(cJSON_IsObject(obj) ? cJSON_GetObjectItemCaseSensitive(obj, key) : NULL, dflt);
}

const cJSON *result_get(const cJSON *obj, const char *key)
{
    return cJSON_GetObjectItemCaseSensitive(obj, key);
}

const char *result_str(const cJSON *obj, const char *key, const char *dflt)
{
    return result_value_str(cJSON_IsObject(obj) ? cJSON_GetObjectItemCaseSensitive(obj, key) : NULL, dflt);
}

double result_num_in(const cJSON *obj, const char *key, double lo, double hi, double dflt)
{
    double v = result_num(obj, key, dflt);
    return v < lo ? lo : v > hi ? hi : v;
}

double result_at_num(const cJSON *arr, int i, double dflt)
{
    return result_value_num(cJSON_IsArray(arr) && i >= 0 ? cJSON_GetArrayItem(arr, i) : NULL, dflt);
}

const char *result_at_str(const cJSON *arr, int i, const char *dflt)
{
    return result_value_str(cJSON_IsArray(arr) && i >= 0 ? cJSON_GetArrayItem(arr, i) : NULL, dflt);
}

int result_field_index(const cJSON *intervals, const char *name)
{
    int i = 0;
    const cJSON *f;
    cJSON_ArrayForEach(f, cJSON_GetObjectItemCaseSensitive(intervals, "fields")) {
        if (cJSON_IsString(f) && strcmp(f->valuestring, name) == 0)
            return i;
        i++;
    }
    return -1;
}

const cJSON *result_scope(const cJSON *phase, const char *scope)
{
    const cJSON *r;
    cJSON_ArrayForEach(r, cJSON_GetObjectItemCaseSensitive(phase, "results"))
        if (strcmp(result_str(r, "scope", ""), scope) == 0)
            return r;
    return NULL;
}

void result_label(const cJSON *doc, const char *file, char *buf, size_t len)
{
    const char *l = result_str(doc, "label", "");
    if (!*l)
        l = result_str(cJSON_GetObjectItemCaseSensitive(doc, "fileio"), "label", "");
    if (*l) {
        snprintf(buf, len, "%s", l);
        return;
    }
    const char *b = strrchr(file, '/');
    b = b ? b + 1 : file;
    size_t n = strlen(b);
    if (n > 5 && !strcmp(b + n - 5, ".json"))
        n -= 5;
    snprintf(buf, len, "%.*s", (int)n, b);
}

/* --- the kind of a result (which command made it) --- */

const char *result_kind(const cJSON *doc)
{
    if (cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(doc, "suite")))
        return "suite";
    if (cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(doc, "fileio")))
        return "fileio";
    if (cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(doc, "act")))
        return "act";
    return "run";
}
