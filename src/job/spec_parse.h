/* spec_parse.h - value parsers of the fio option language.
 *
 * Every front end that reads fio-style values (job files, `ssdbench run`
 * options, built-in profiles, sweeps) goes through these functions, so "4k",
 * "1m", "30s", "4k/60:64k/40" or "zoned:50/5:30/15:20/80" mean the same thing
 * everywhere. Each parser returns 0, -EINVAL (the value is malformed or out of
 * range) or -ENOTSUP (fio accepts the value but ssdbench cannot run it, e.g.
 * rw=trim or ioengine=pvsync2, so a caller may downgrade it to a warning), and
 * on failure writes one line to err naming the value and the accepted form.
 * Nothing here allocates memory that outlives a call or touches global state.
 *
 * Sizes follow fio exactly (measured with fio 3.33), including its deliberate
 * unit inversion:
 *   kb_base=1024 (default): 4k = 4kb = 4ki = 4096, but 4kib = 4000
 *   kb_base=1000:           4k = 4kb = 4ki = 4000, but 4kib = 4096
 * Only the spellings ending in "ib" are inverted; "ki" without "b" is plain.
 * Suffixes k m g t p, an optional trailing b, any case; "0x" hex (no suffix);
 * a decimal fraction is allowed when the result is a whole number of bytes
 * (1.5k = 1536, where fio silently reads 1). A value in parentheses is
 * arithmetic: "(8*1024)k", "(2^20)", with + - * / % ^ and units on numbers.
 */
#ifndef SSDBENCH_SPEC_PARSE_H
#define SSDBENCH_SPEC_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "job/job.h"

/* fio's directions in per-direction values "read,write,trim". ssdbench has no
 * trim, so the third value is checked and then dropped. */
#define SPEC_NDIRS 3

/* Longest value any parser accepts (a 64-entry bssplit for 3 directions fits). */
#define SPEC_VALUE_MAX 4096

#define SPEC_NS_PER_US 1000ull
#define SPEC_NS_PER_MS 1000000ull
#define SPEC_NS_PER_S 1000000000ull

/* Largest block size accepted: Linux moves at most ~2 GiB per syscall. */
#define SPEC_BS_MAX (1ull << 30)

/* Strips leading and trailing white space in place; returns the new start. */
char *spec_trim(char *s);

/* Plain non-negative integer (decimal, 0x hex or parenthesised arithmetic). */
int spec_parse_u64(const char *s, uint64_t *out, char *err, size_t errlen);
/* Same, checked against [lo, hi]; the message names the range. */
int spec_parse_uint_in(const char *s, uint64_t lo, uint64_t hi, uint64_t *out,
                       char *err, size_t errlen);
/* Non-negative decimal number, e.g. "99.99". */
int spec_parse_double(const char *s, double *out, char *err, size_t errlen);

/* Size in bytes with fio's units; kb_base is 1024 or 1000. */
int spec_parse_size(const char *s, unsigned kb_base, uint64_t *out, char *err, size_t errlen);
/* Size or a percentage "20%" (of the target): exactly one of *bytes / *pct is
 * set, the other zeroed. Percentages are in (0, 100]. */
int spec_parse_size_pct(const char *s, unsigned kb_base, uint64_t *bytes, double *pct,
                        char *err, size_t errlen);

/* Time in ns. Suffixes d h m s ms msec us usec ns nsec (m = minutes, as in
 * fio); a bare number is in default_unit_ns (seconds for most options). */
int spec_parse_time(const char *s, uint64_t default_unit_ns, uint64_t *ns, char *err,
                    size_t errlen);

/* 1/0, true/false, yes/no, on/off (any case). NULL or "" (a bare key) = true. */
int spec_parse_bool(const char *s, bool *out, char *err, size_t errlen);

/* "lo-hi" or "lo:hi" sizes; swapped when given high first (as fio does). */
int spec_parse_range(const char *s, unsigned kb_base, uint64_t *lo, uint64_t *hi, char *err,
                     size_t errlen);

/* Splits a per-direction value "read,write,trim" by fio's rules: a value that
 * is not followed by a comma also applies to the directions after it; an
 * empty field, or a direction after a trailing comma, is left unchanged
 * (field[d] = NULL). "8k" -> all three; "8k,32k" -> 8k, 32k, 32k;
 * "8k,32k," -> 8k, 32k, unchanged; ",8k" -> unchanged, 8k, 8k.
 * field[] points into buf (at least strlen(s) + 1 bytes). */
int spec_split_dirs(const char *s, char *buf, size_t buflen, const char *field[SPEC_NDIRS],
                    char *err, size_t errlen);

/* bs=4k or bs=8k,32k: one block size per direction, 1 B .. SPEC_BS_MAX. A
 * direction left unchanged by the comma rule keeps its old value. */
int spec_parse_bs(const char *s, unsigned kb_base, struct job_bssplit bs[DIR_COUNT], char *err,
                  size_t errlen);
/* blockalign=4k[,8k]: per direction, 0 = the smallest block size. */
int spec_parse_blockalign(const char *s, unsigned kb_base, uint32_t align[DIR_COUNT], char *err,
                          size_t errlen);
/* bsrange=1k-4k[,lo-hi]: fio picks a uniformly random multiple of lo in
 * [lo, hi] (sizes above hi clamp to hi), which is expressed exactly as a
 * bssplit: every multiple k*lo <= hi at share lo/hi, plus hi itself with the
 * rest when hi is not a multiple. When that would need more than
 * JOB_BSSPLIT_MAX entries, 64 evenly spaced multiples (lo and hi included)
 * share equally, which keeps the mean size and the span. */
int spec_parse_bsrange(const char *s, unsigned kb_base, struct job_bssplit bs[DIR_COUNT],
                       char *err, size_t errlen);
/* bssplit=4k/60:64k/40[,read-list-for-writes...]: percentages of I/Os. Blank
 * percentages ("4k/50:1k/:32k/") share the remainder equally; any other total
 * than 100 is rejected (fio accepts totals under 100). A 0% entry is dropped. */
int spec_parse_bssplit(const char *s, unsigned kb_base, struct job_bssplit bs[DIR_COUNT],
                       char *err, size_t errlen);

/* random_distribution: random | uniform | zipf[:theta] | pareto[:h] |
 * normal:sigma (gauss too) | zoned:access/range:... . fio's defaults: zipf 1.1,
 * pareto 0.2. Ranges: zipf theta > 0 (1.0 allowed, unlike fio), pareto
 * 0 < h < 1, normal 0 < sigma < 100 (percent of the range). A hot-spot centre
 * ("zipf:1.2:0.25") other than 0 is -ENOTSUP, so is zoned_abs and per-direction
 * zoned lists that differ. zoned: access shares must total 100; blank range
 * shares take the rest equally; range shares must total 100. */
int spec_parse_distribution(const char *s, struct job_distribution *d, char *err,
                            size_t errlen);

/* percentile_list: values in (0, 100] separated by ':' (fio) or ',', at most
 * JOB_PCT_MAX; returned sorted ascending without duplicates. */
int spec_parse_percentiles(const char *s, double out[JOB_PCT_MAX], unsigned *n, char *err,
                           size_t errlen);

/* rw / readwrite: read write randread randwrite rw readwrite randrw, with fio's
 * ":N" suffix. Random modes: N I/Os per generated offset -> *seq_nr (>= 1).
 * Sequential modes: a size skipped after each I/O -> *hole; a negative size
 * (fio's rw=read:-8k: each I/O starts that much before the end of the
 * previous one) -> its two's complement (*hole > INT64_MAX). Without a suffix
 * *seq_nr = 1 and *hole = 0. Trim modes are -ENOTSUP. */
int spec_parse_rw(const char *s, unsigned kb_base, enum job_rw *rw, unsigned *seq_nr,
                  uint64_t *hole, char *err, size_t errlen);

/* ioengine: io_uring, libaio, psync, pvsync and sync (both run as psync),
 * null. Other fio engines are -ENOTSUP. */
int spec_parse_engine(const char *s, enum engine_kind *e, char *err, size_t errlen);

/* layout: jbod | stripe[:CHUNK] | random. *chunk is set only for stripe:CHUNK. */
int spec_parse_layout(const char *s, unsigned kb_base, enum job_layout *l, uint64_t *chunk,
                      char *err, size_t errlen);

/* buffer: random | zero | compressible:PCT (PCT 0..100, the zeroed share). */
int spec_parse_buffer(const char *s, enum job_buffer *b, unsigned *compress_pct, char *err,
                      size_t errlen);

#endif
