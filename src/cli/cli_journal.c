/* cli_journal.c - the interval journal of every workload command (see
 * cli.h): opened next to --result FILE before the first phase, removed once
 * the result is saved, kept (and named) when it could not be. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "base/outfile.h"
#include "cli/cli.h"
#include "result/journal.h"
#include "result/result.h"

bool *cli_journal_want(struct cli_output *o)
{
    return o->journal ? &o->journal->want : NULL;
}

int cli_journal_open(struct cli_output *o, struct session *s)
{
    struct cli_journal *j = o->journal;
    if (!j || !j->want || j->f || !o->result)
        return 0;
    char err[1024];
    snprintf(j->path, sizeof(j->path), "%s.partial", o->result);
    int jfd = outfile_create_new(j->path, err, sizeof(err));
    if (jfd >= 0 && !(j->f = fdopen(jfd, "w+")))
        close(jfd);
    if (j->f && journal_write_head(j->f, s->doc) == 0) {
        s->ro.series = j->f;
        return 0;
    }
    if (jfd == -EEXIST)
        cli_err("%s (a journal left by an earlier run: read it with 'ssdbench show', turn it "
                "into a result with 'ssdbench recover', or remove it)", err);
    else
        cli_err("%s", jfd < 0 ? err : "cannot write the journal");
    if (j->f) {
        fclose(j->f);
        j->f = NULL;
        unlink(j->path);
    }
    return -1;
}

int cli_save_result(const cJSON *doc, const struct cli_output *o)
{
    char err[1024];
    if (!o->result)
        return 0;
    if (result_write(doc, o->result, err, sizeof(err)) < 0) {
        cli_err("%s", err);
        return -1;
    }
    struct cli_journal *j = o->journal;
    if (j && j->f) {
        fclose(j->f);
        j->f = NULL;
        unlink(j->path);
    }
    return 0;
}

void cli_journal_end(struct cli_output *o, bool done)
{
    struct cli_journal *j = o->journal;
    if (!j || !j->f)
        return;
    fclose(j->f);
    j->f = NULL;
    if (!done) /* stopped before a result: nothing measured to keep */
        unlink(j->path);
    else
        cli_err("the measured intervals are kept in %s (ssdbench show %s, or ssdbench recover %s -o RESULT)",
                j->path, j->path, j->path);
}
