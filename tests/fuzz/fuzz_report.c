/* fuzz_report.c - what `ssdbench report` does with result files: the
 * report model of two results (the input twice, so overlays and ratio
 * tables are built), the HTML page and the CSV tables. Output goes to
 * /dev/null. */
#include "fuzz.h"

#include "output/html_build.h"
#include "output/html_report.h"
#include "output/report_csv.h"
#include "result/result.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[1024];
    cJSON *doc = result_parse((const char *)data, size, "fuzz.json", err, sizeof(err));
    if (!doc)
        return 0;
    FILE *f = fuzz_sink();
    struct html_report_input in[2] = {{doc, "a.json", NULL}, {doc, "b.json", "b"}};
    struct html_report_opts o = {.title = NULL, .baseline = 1};
    struct html_report *rep = html_build(in, 2, &o, err, sizeof(err));
    if (rep) {
        html_page_write(f, rep);
        report_csv_write_stream(f, rep);
        html_report_free(rep);
    }
    cJSON_Delete(doc);
    return 0;
}
