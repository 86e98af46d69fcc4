/* fio_json.h - fio-shaped JSON (`--output-format=json` / `json+`), rendered
 * from an ssdbench result document so that tools written for fio's output
 * can read ssdbench's runs (live or re-rendered from a saved result).
 *
 * The document follows fio 3.33's layout and units for the fields such tools
 * read: "jobs[]" with per-direction io_bytes, bw (KiB/s), bw_bytes, iops,
 * runtime (ms), total_ios, slat_ns / clat_ns / lat_ns (with "percentile"
 * keyed "%f", and json+ "bins"), bw_* / iops_* interval statistics, usr_cpu,
 * sys_cpu, iodepth_level, latency_ns/us/ms and "disk_util". One object per
 * ssdbench job, or per run of consecutive group_reporting jobs of one group,
 * as fio reports them. Every figure comes from the document; where ssdbench
 * measures something differently (no separate submission latency, interval
 * samples at the job's interval instead of every 500 ms) docs/fio.md says so.
 * The producer is named honestly: "fio version" reads
 * "fio-3.33-compatible (ssdbench X)" and "ssdbench version" is beside it.
 */
#ifndef SSDBENCH_FIO_JSON_H
#define SSDBENCH_FIO_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <cjson/cJSON.h>

/* fio's version whose JSON layout the output follows. */
#define FIO_JSON_COMPAT "fio-3.33"

/* Builds the fio-shaped document (caller frees with cJSON_Delete). plus adds
 * json+'s histogram bins. NULL with a one-line reason in err when the result
 * document is damaged (e.g. a histogram that does not parse) or memory runs
 * out. */
cJSON *fio_json_build(const cJSON *doc, bool plus, char *err, size_t errlen);

/* Writes the fio-shaped document for doc to f, and nothing else (nothing at
 * all when it cannot be built). Returns 0, or -EINVAL for a damaged
 * document, -ENOMEM, -EIO when f could not be written; err then holds one
 * line for the user. */
int render_fio_json(FILE *f, const cJSON *doc, bool plus, char *err, size_t errlen);

#endif
