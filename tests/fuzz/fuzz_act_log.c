/* fuzz_act_log.c - the ACT log reader (act_analyze, as `ssdbench
 * act-analyze` runs it). The first byte picks the options (slice length,
 * buckets, extra column); the rest is the log. */
#include "fuzz.h"

#include "act/act_analyze.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    struct act_analyze_opts o;
    act_analyze_opts_default(&o);
    unsigned sel = data[0];
    static const unsigned slices[4] = {3600, 1, 7, 60};
    o.slice_sec = slices[sel & 3];
    o.start_bucket = (sel >> 2) & 3;
    o.num_buckets = 1 + ((sel >> 4) & 7);
    o.every_nth = 1 + ((sel >> 4) & 1);
    o.extra = sel & 0x80;
    FILE *f = fmemopen((void *)(data + 1), size - 1 ? size - 1 : 1, "r");
    if (!f)
        return 0;
    if (size == 1)
        fgetc(f);   /* fmemopen needs a non-empty buffer: consume it */
    struct act_analysis a;
    char err[512];
    if (act_analyze_stream(f, "fuzz.log", &o, &a, err, sizeof(err)) == 0)
        act_analysis_free(&a);
    fclose(f);
    return 0;
}
