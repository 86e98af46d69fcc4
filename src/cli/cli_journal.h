/* cli_journal.h - the interval journal (result/journal.h) a workload
 * command streams next to a --result FILE while it runs, so a kill -9 or a
 * failed final write keeps every completed interval in FILE.partial. The
 * glue (cli_workload_main) owns it; saving the result removes it
 * (cli_save_result in cli.c). */
#ifndef SSDBENCH_CLI_JOURNAL_H
#define SSDBENCH_CLI_JOURNAL_H

#include <stdbool.h>
#include <stdio.h>

#include "workload/session.h"

struct cli_journal {
    bool want;          /* --result names a regular file (cli_output_check) */
    FILE *f;            /* the open journal, or NULL */
    char path[4200];    /* RESULT.partial */
};

/* Opens the journal next to result when wanted and not yet open, writes
 * its head from s->doc and sets s->ro.series, so every phase streams its
 * interval rows. 0, or -1 after a one-line error (an existing journal is
 * never overwritten: it may be the only copy of an earlier run). */
int cli_journal_open(struct cli_journal *j, const char *result, struct session *s);

/* The result is on disk: the journal is closed and removed. */
void cli_journal_drop(struct cli_journal *j);

/* The end of a workload command: a journal still open is removed when the
 * run stopped before it had a result (done false), and kept and named when
 * the result could not be saved. */
void cli_journal_end(struct cli_journal *j, bool done);

#endif
