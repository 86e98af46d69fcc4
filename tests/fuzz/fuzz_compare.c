/* fuzz_compare.c - what `ssdbench compare` does with result files: the
 * input against itself with every metric, as text and as CSV, and against
 * a minimal valid result (rows matched by position). Output goes to
 * /dev/null. */
#include "fuzz.h"

#include "output/compare.h"
#include "result/result.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[1024];
    cJSON *doc = result_parse((const char *)data, size, "fuzz.json", err, sizeof(err));
    if (!doc)
        return 0;
    static const char mini[] = "{\"schema\":\"ssdbench-result/1\",\"phases\":[{\"name\":\"p\","
                               "\"results\":[{\"scope\":\"total\",\"read\":{\"ios\":1,\"iops\":1}}]}]}";
    cJSON *other = result_parse(mini, sizeof(mini) - 1, "mini.json", err, sizeof(err));
    if (!other)
        abort();
    FILE *f = fuzz_sink();
    const cJSON *docs[3] = {doc, doc, other};
    const char *names[3] = {"a.json", "b.json", "mini.json"};
    struct compare_opts co = {
        .metrics = "iops,mbps,lat,avg-lat,max,sd,avg-sd,p99.9,read-iops,write-iops,read-lat,write-lat,"
                   "read-p50,write-p99.99"};
    render_compare(f, docs, names, 3, &co, err, sizeof(err));
    co.csv = true;
    co.metrics = NULL;
    co.scope = "target:t0";
    render_compare(f, docs, names, 2, &co, err, sizeof(err));
    cJSON_Delete(other);
    cJSON_Delete(doc);
    return 0;
}
