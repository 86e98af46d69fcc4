/* fuzz_result.c - the result reader alone: result_parse (JSON, schema,
 * the validation pass of result_check.c), then every accessor over every
 * node, as renderers use them. Fast, so it reaches deep into the parser;
 * fuzz_show, fuzz_report and fuzz_compare drive the renderers. */
#include "fuzz.h"

#include "result/result.h"

static void touch(const cJSON *node)
{
    const cJSON *it;
    int i = 0;
    cJSON_ArrayForEach(it, node) {
        if (cJSON_IsObject(node) && it->string) {
            (void)result_num(node, it->string, 0);
            (void)result_str(node, it->string, "");
            (void)result_num_in(node, it->string, 0, RESULT_U64_MAX, 0);
        } else {
            (void)result_at_num(node, i, 0);
            (void)result_at_str(node, i, "");
        }
        i++;
        touch(it);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[1024];
    cJSON *doc = result_parse((const char *)data, size, "fuzz.json", err, sizeof(err));
    if (!doc)
        return 0;
    touch(doc);
    const cJSON *ph;
    cJSON_ArrayForEach(ph, cJSON_GetObjectItemCaseSensitive(doc, "phases")) {
        (void)result_scope(ph, "total");
        (void)result_field_index(cJSON_GetObjectItemCaseSensitive(ph, "intervals"), "read_iops");
    }
    char *txt = result_print(doc, false);
    free(txt);
    cJSON_Delete(doc);
    return 0;
}
