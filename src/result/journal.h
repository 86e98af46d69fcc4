/* journal.h - the run journal (RESULT.partial): what `ssdbench run --result`
 * streams to disk while it runs, so a run killed with SIGKILL, or whose final
 * write failed, still has every completed interval on disk.
 *
 * Format "ssdbench-journal/1" (docs/results.md): text lines, each at most
 * JOURNAL_LINE_MAX bytes.
 *   # ssdbench-journal/1
 *   # start {...}      the result document as begun: schema, tool (version,
 *                      command line), host, start time
 *   # fields [...]     names of the interval row columns
 *   # units [...]      the unit of each column
 *   # phase {...}      a phase begins: name, kind, step_ms, jobs (name, params)
 *   [t_ms, ...]        one completed interval of the current phase
 *   # done {...}       the phase as filed when it ended ({"phase": the phase
 *                      object without its interval rows, which are the
 *                      lines above; "targets": the document's targets})
 * A phase with a "done" line is recovered whole (per-job and per-target
 * figures, percentiles, kernel counters); only the phase a kill cut short
 * is rebuilt from its rows. The reader turns a journal back into a result document marked incomplete;
 * it accepts any bytes: torn or malformed lines are skipped and counted. */
#ifndef SSDBENCH_JOURNAL_H
#define SSDBENCH_JOURNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <cjson/cJSON.h>

#include "job/job.h"

#define JOURNAL_FORMAT "ssdbench-journal/1"
#define JOURNAL_LINE_MAX (1u << 20)

/* Writes the journal's head: format line, the begun result document (its
 * private fields left out), field names and units. Returns 0 or -EIO. */
int journal_write_head(FILE *f, const cJSON *doc);

/* Writes a "# phase" line for a phase about to run. Returns 0 or -EIO. */
int journal_write_phase(FILE *f, const char *name, const char *kind, const struct job_spec *jobs,
                        unsigned njobs);

/* Writes a "# done" line for a phase just filed in doc (its interval rows
 * are left out: they are in the journal already). Returns 0, -ENOMEM or
 * -EIO. */
int journal_write_done(FILE *f, const cJSON *doc, const cJSON *phase);

/* True when buf starts like a journal. */
bool journal_detect(const char *buf, size_t len);

/* A result document rebuilt from a journal (name is used in messages and
 * recorded as "recovered_from"): every complete interval row, per-phase
 * totals summed from the rows, "incomplete": true. NULL with a one-line
 * message when no journal head is found. */
cJSON *journal_parse(const char *buf, size_t len, const char *name, char *err, size_t errlen);

#endif
