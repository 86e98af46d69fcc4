/* fuzz_show.c - what `ssdbench show` does with a result file, in every
 * format (text, csv, fio-json, fio-json+, the suite, sysbench and PTS texts),
 * plus the readers of saved results in other commands (`fileio --baseline`,
 * `suite --baseline` scaling). Output goes to /dev/null. */
#include "fuzz.h"

#include "output/fio_json.h"
#include "output/pts_text.h"
#include "output/render.h"
#include "output/suite_text.h"
#include "output/sysbench_text.h"
#include "result/result.h"
#include "suite/suite.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[1024];
    cJSON *doc = result_parse((const char *)data, size, "fuzz.json", err, sizeof(err));
    if (!doc)
        return 0;
    FILE *f = fuzz_sink();
    struct render_opts ro = {.summary = true, .details = true};
    render_text(f, doc, &ro);
    render_csv(f, doc);
    render_fio_json(f, doc, true, err, sizeof(err));
    if (cJSON_GetObjectItemCaseSensitive(doc, "suite"))
        render_suite_text(f, doc, &ro);
    if (cJSON_GetObjectItemCaseSensitive(doc, "fileio"))
    {
        struct sysbench_base b[2] = {{.doc = doc, .label = NULL}, {.doc = doc, .label = ""}};
        sysbench_text_render(f, doc, b, 2);
    }
    if (cJSON_GetObjectItemCaseSensitive(doc, "pts"))
        render_pts_text(f, doc);
    const cJSON *ph;
    cJSON_ArrayForEach(ph, cJSON_GetObjectItemCaseSensitive(doc, "phases")) {
        cJSON *s = suite_scaling_json(doc, result_str(ph, "name", ""), 1000, 2);
        cJSON_Delete(s);
    }
    cJSON_Delete(doc);
    return 0;
}
