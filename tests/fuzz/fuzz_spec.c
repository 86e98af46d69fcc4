/* fuzz_spec.c - the value parsers of job/spec_parse*.c: sizes, times,
 * percentiles, block sizes and splits, distributions, rw, ranges, engines,
 * layouts, buffers. The first byte picks the parser (and kb_base); the rest
 * is the value. */
#include "fuzz.h"

#include "job/spec_parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    unsigned sel = data[0];
    char *s = fuzz_cstr(data + 1, size - 1);
    unsigned kb = sel & 0x80 ? 1000 : 1024;
    char err[512];
    uint64_t u, v;
    double d;
    bool b;
    struct job_bssplit bs[DIR_COUNT];
    uint32_t align[DIR_COUNT];
    struct job_distribution dist;
    double pct[JOB_PCT_MAX];
    unsigned n;
    enum job_rw rw;
    enum engine_kind eng;
    enum job_layout lay;
    enum job_buffer buf;
    char split[SPEC_VALUE_MAX];
    const char *field[SPEC_NDIRS];
    switch (sel & 0x1f) {
    case 0: spec_parse_u64(s, &u, err, sizeof(err)); break;
    case 1: spec_parse_uint_in(s, 1, 1000, &u, err, sizeof(err)); break;
    case 2: spec_parse_double(s, &d, err, sizeof(err)); break;
    case 3: spec_parse_size(s, kb, &u, err, sizeof(err)); break;
    case 4: spec_parse_size_pct(s, kb, &u, &d, err, sizeof(err)); break;
    case 5: spec_parse_time(s, SPEC_NS_PER_S, &u, err, sizeof(err)); break;
    case 6: spec_parse_time(s, SPEC_NS_PER_MS, &u, err, sizeof(err)); break;
    case 7: spec_parse_bool(s, &b, err, sizeof(err)); break;
    case 8: spec_parse_range(s, kb, &u, &v, err, sizeof(err)); break;
    case 9: spec_split_dirs(s, split, sizeof(split), field, err, sizeof(err)); break;
    case 10: spec_parse_bs(s, kb, bs, err, sizeof(err)); break;
    case 11: spec_parse_blockalign(s, kb, align, err, sizeof(err)); break;
    case 12: spec_parse_bsrange(s, kb, bs, err, sizeof(err)); break;
    case 13: spec_parse_bssplit(s, kb, bs, err, sizeof(err)); break;
    case 14: spec_parse_distribution(s, &dist, err, sizeof(err)); break;
    case 15: spec_parse_percentiles(s, pct, &n, err, sizeof(err)); break;
    case 16: spec_parse_rw(s, kb, &rw, &n, &u, err, sizeof(err)); break;
    case 17: spec_parse_engine(s, &eng, err, sizeof(err)); break;
    case 18: spec_parse_layout(s, kb, &lay, &u, err, sizeof(err)); break;
    case 19: spec_parse_buffer(s, &buf, &n, err, sizeof(err)); break;
    case 20: spec_trim(s); break;
    default: spec_parse_time(s, SPEC_NS_PER_US, &u, err, sizeof(err)); break;
    }
    free(s);
    return 0;
}
