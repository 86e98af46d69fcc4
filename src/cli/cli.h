/* cli.h - what every subcommand shares: one-line errors, exit codes, the
 * output options (--format, --output, --result), the destroy consent list,
 * and writing/rendering a finished result. Only src/cli decides what the user
 * sees and with which exit code. */
#ifndef SSDBENCH_CLI_H
#define SSDBENCH_CLI_H

#include <stdbool.h>
#include <stdint.h>
#include <cjson/cJSON.h>

#include "runner/runner.h"
#include "output/render.h"
#include "target/guard.h"
#include "workload/session.h"
#include "cli/cli_journal.h"
#include "archive/archive.h"

#define CLI_EXIT_OK 0
#define CLI_EXIT_FAIL 1     /* I/O errors, a failed verdict */
#define CLI_EXIT_USAGE 2    /* bad input, refusal; nothing written */

enum cli_format { FMT_TEXT, FMT_JSON, FMT_CSV, FMT_FIO_JSON, FMT_FIO_JSON_PLUS,
                  /* fio's human and terse text (output/fio_text.h) */
                  FMT_FIO_NORMAL, FMT_FIO_TERSE };

struct cli_output {
    enum cli_format format;
    const char *output;      /* where the chosen format goes; NULL = stdout */
    const char *result;      /* also save the ssdbench result JSON here */
    bool quiet;              /* no live status line */
    struct guard_consent consent;
    struct cli_journal *journal; /* a workload's interval journal (cli_journal.c); NULL elsewhere */
    /* A rank other than 0 of a cluster run (base/cluster.h): --result and
     * --output are rank 0's and are ignored here; nothing is printed. */
    bool follower;
    /* --ranks-per-host N: every host must run N ranks (0 = any) */
    unsigned ranks_per_host;
    /* --archive[=PATH]: file the finished result in the archive
     * (cli_archive.h); archive_path NULL = the default location. Only
     * commands that write a result (o->journal set) take it and --tag. */
    bool archive;
    const char *archive_path;
    struct archive_tag tags[ARCHIVE_MAX_TAGS];
    size_t ntags;
    char tagbuf[ARCHIVE_MAX_TAGS][128];
};

/* Where cli_output_check reports that o's result can have a journal: a
 * pointer to o->journal->want, or NULL when o has no journal. */
bool *cli_journal_want(struct cli_output *o);

/* Saves doc to o->result (nothing when o->result is NULL); once it is on
 * disk the journal is closed and removed. 0, or -1 after a one-line error
 * (the journal is then kept and named). */
int cli_save_result(const cJSON *doc, const struct cli_output *o);

/* "ssdbench: <message>" on stderr: the same one-line error a workload
 * prints (session_err). */
#define cli_err session_err

void cli_output_init(struct cli_output *o);

/* Before a run starts: checks that --result and --output name something
 * ssdbench can write (base/outfile.h), so a long run is not lost to a typo
 * or a directory. Prints one line and returns -1 when not; 0 otherwise.
 * *journal (may be NULL) is set when the result is a regular file that a
 * RESULT.partial journal can sit next to. */
int cli_output_check(const struct cli_output *o, bool *journal);

/* For a read-only run (--readonly, readonly=1): --result and --output must
 * be regular files (new or replaced) or standard output; a link, FIFO,
 * socket or device is refused (base/outfile.h, outfile_check_strict).
 * Prints one line and returns -1 when not; 0 otherwise. */
int cli_output_check_readonly(const struct cli_output *o);

/* True when any of the n jobs is read-only. */
bool cli_jobs_readonly(const struct job_spec *jobs, unsigned n);

/* Finishes a run: saves --result, writes the chosen format to --output or
 * stdout. Returns status unchanged, or CLI_EXIT_FAIL if writing failed. */
int cli_emit(cJSON *doc, const struct cli_output *o, const struct render_opts *ro, int status);

/* A live status line on stderr when it is a terminal (elapsed / total,
 * IOPS, MB/s and p99 per direction of the last interval); none otherwise.
 * Pass as runner_opts.status unless --quiet. */
void cli_status(const struct runner_interval *iv, double total_s);

/* True when stderr is a terminal that takes the live line's cursor codes
 * (ESC[K): not a pipe or file, not TERM=dumb. */
bool cli_live_terminal(void);

/* "WARNING: the host was busy during the run (...)" on stderr when the
 * result's host figures say so (result/host_busy.h); nothing otherwise. */
void cli_warn_busy(const cJSON *doc);
/* Prints each target's guard_note (a write allowed although the in-use
 * check could not see everything) to stderr. */
void cli_note_guard(const cJSON *doc);

/* One stderr line per error record of the result ("12 write errors on
 * /dev/x, first at offset N: No space left on device"), so a failed run says
 * why without reading the JSON. */
void cli_report_errors(const cJSON *doc);

/* The command line's numbers and times, read as the option table reads job
 * options (job/spec_parse.h): integers in decimal, 0x hex or (arithmetic),
 * times with fio's suffixes (d h m s ms us ns; a bare number in unit_ns).
 * cli_uint is true for an integer in [lo, hi]; cli_time is true for a time,
 * else false with the reason in msg. */
bool cli_uint(const char *v, uint64_t lo, uint64_t hi, uint64_t *out);
bool cli_unsigned(const char *v, unsigned lo, unsigned hi, unsigned *out);
/* A time that is a whole number of seconds in [lo, hi] (bare number = s). */
bool cli_seconds(const char *v, uint64_t lo, uint64_t hi, uint64_t *sec);
bool cli_time(const char *v, uint64_t unit_ns, uint64_t *ns, char *msg, size_t msglen);

/* The same, printing the one-line error "OPT: 'V' is not a number in LO..HI"
 * or "OPT: <why>"; 0 or -1. cli_opt_time reads a bare number as seconds. */
int cli_opt_uint(const char *opt, const char *v, unsigned lo, unsigned hi, unsigned *out);
int cli_opt_time(const char *opt, const char *v, uint64_t *ns);

/* The closest name to s in names[] (NULL-terminated), or NULL. */
const char *cli_suggest(const char *s, const char *const *names);

#endif
