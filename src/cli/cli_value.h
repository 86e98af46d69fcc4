/* cli_value.h - the typed values of the command option tables
 * (cli_opts.h): a percentage, a size, a duration, a whole number, a real
 * number and one of a list of names, each read from one word and checked
 * against its range. Pure: no printing; a refusal is the one-line message
 * "OPT: 'VALUE' is not ..." written to msg, naming the option and the
 * value, which the caller prints. */
#ifndef SSDBENCH_CLI_VALUE_H
#define SSDBENCH_CLI_VALUE_H

#include <stddef.h>
#include <stdint.h>

/* The ends of a range: inclusive unless marked open. */
#define CLI_LO_OPEN 1u
#define CLI_HI_OPEN 2u

/* One name of an enumerated option and the value it stands for. A list
 * ends with a NULL name. */
struct cli_enum {
    const char *name;
    int value;
};

/* "20", "20%", "12.5": a percentage in [lo, hi] (ends open per flags).
 * 0, or -1 with "OPT: 'V' is not a percentage in (0, 100]". */
int cli_parse_pct(const char *opt, const char *v, double lo, double hi, unsigned flags, double *out, char *msg,
                  size_t msglen);

/* A real number (strtod's spelling, nothing after it) in [lo, hi]. */
int cli_parse_real(const char *opt, const char *v, double lo, double hi, unsigned flags, double *out, char *msg,
                   size_t msglen);

/* A whole number (decimal, 0x hex, (arithmetic)) in [lo, hi]:
 * "OPT: 'V' is not a number in LO..HI". */
int cli_parse_uint(const char *opt, const char *v, uint64_t lo, uint64_t hi, uint64_t *out, char *msg,
                   size_t msglen);

/* A size with fio's units as the command line reads them (k m g t p:
 * powers of 1024, also spelt kb/KB and ki/KiB... as fio's kb_base=1024
 * reads them, see job/spec_parse.h) in [lo, hi] bytes and a multiple of
 * step (0 or 1: any): "OPT: 'V' is not a size in 512..64MiB, a multiple
 * of 512". */
int cli_parse_size(const char *opt, const char *v, uint64_t lo, uint64_t hi, uint64_t step, uint64_t *out,
                   char *msg, size_t msglen);

/* A duration with fio's suffixes (d h m s ms us ns; a bare number in
 * unit_ns) in [lo_ns, hi_ns]; *ns in nanoseconds. whole_unit: the value
 * must be a whole number of unit_ns. */
int cli_parse_duration(const char *opt, const char *v, uint64_t unit_ns, uint64_t lo_ns, uint64_t hi_ns,
                       int whole_unit, uint64_t *ns, char *msg, size_t msglen);

/* One of e's names (exact, case-sensitive): "OPT: 'V' is not a, b or c". */
int cli_parse_enum(const char *opt, const char *v, const struct cli_enum *e, int *out, char *msg, size_t msglen);

/* "a, b or c": the names of e, for messages and help. */
void cli_enum_names(const struct cli_enum *e, const char *last_sep, char *buf, size_t len);

/* A size as the tables print it: "64MiB", "4KiB", "512". */
void cli_size_str(uint64_t bytes, char *buf, size_t len);

#endif
