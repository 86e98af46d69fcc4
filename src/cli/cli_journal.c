/* cli_journal.c - see cli_journal.h: opened next to --result FILE before
 * the first phase, removed once the result is saved, kept (and named) when
 * it could not be. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "base/outfile.h"
#include "cli/cli_journal.h"
#include "result/journal.h"

int cli_journal_open(struct cli_journal *j, const char *result, struct session *s)
{
    if (!j || !j->want || j->f || !result)
        return 0;
    char err[1024];
    snprintf(j->path, sizeof(j->path), "%s.partial", result);
    int jfd = outfile_create_new(j->path, err, sizeof(err));
    if (jfd >= 0 && !(j->f = fdopen(jfd, "w+")))
        close(jfd);
    if (j->f && journal_write_head(j->f, s->doc) == 0) {
        s->ro.series = j->f;
        return 0;
    }
    if (jfd == -EEXIST)
        session_err("%s (a journal left by an earlier run: read it with 'ssdbench show', turn it "
                    "into a result with 'ssdbench recover', or remove it)", err);
    else
        session_err("%s", jfd < 0 ? err : "cannot write the journal");
    if (j->f) {
        fclose(j->f);
        j->f = NULL;
        unlink(j->path);
    }
    return -1;
}

void cli_journal_drop(struct cli_journal *j)
{
    if (!j || !j->f)
        return;
    fclose(j->f);
    j->f = NULL;
    unlink(j->path);
}

void cli_journal_end(struct cli_journal *j, bool done)
{
    if (!j || !j->f)
        return;
    fclose(j->f);
    j->f = NULL;
    if (!done) /* stopped before a result: nothing measured to keep */
        unlink(j->path);
    else
        session_err("the measured intervals are kept in %s (ssdbench show %s, or ssdbench recover %s -o RESULT)",
                    j->path, j->path, j->path);
}
