/* fileio_cmd.c - see fileio_cmd.h: fileio's commands from parsed options to
 * a finished document. */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "base/signal.h"
#include "fileio/fileio_cmd.h"
#include "result/result.h"

static int fatal(const struct fileio_view *v, const char *msg, int status)
{
    if (v->fatal)
        v->fatal(v->arg, msg);
    return status;
}

/* A refusal wrote nothing: bad input's status; anything else failed. */
static int refused_or_failed(int rc)
{
    return rc == -EPERM ? WL_USAGE : WL_FAIL;
}

int fileio_cmd_baselines(const char *const *paths, unsigned n, cJSON **docs,
                         char labels[][FILEIO_LABEL_MAX])
{
    char err[1024];
    for (unsigned b = 0; b < n; b++) {
        docs[b] = result_load(paths[b], err, sizeof(err));
        const char *kind = docs[b] ? result_kind(docs[b]) : NULL;
        if (!docs[b])
            session_err("fileio: --baseline: %s", err);
        else if (strcmp(kind, "fileio") != 0 ||
                 !cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(docs[b], "fileio"),
                                                   "scaling"))
            session_err("fileio: --baseline %s: %s %s result; fileio compares against a fileio "
                        "result (ssdbench fileio ... --result FILE run)",
                        paths[b], !strcmp(kind, "act") ? "an" : "a", strcmp(kind, "fileio") ? kind
                                                                                     : "fileio (no scaling table)");
        else {
            result_label(docs[b], paths[b], labels[b], FILEIO_LABEL_MAX);
            continue;
        }
        fileio_cmd_baselines_free(docs, b + 1);
        return WL_USAGE;
    }
    return WL_OK;
}

void fileio_cmd_baselines_free(cJSON **docs, unsigned n)
{
    for (unsigned b = 0; b < n; b++) {
        cJSON_Delete(docs[b]);
        docs[b] = NULL;
    }
}

void fileio_doc_baselines(cJSON *doc, const char *const *paths, char labels[][FILEIO_LABEL_MAX], unsigned n)
{
    cJSON *fo = cJSON_GetObjectItemCaseSensitive(doc, "fileio");
    if (!fo || !n)
        return;
    cJSON *arr = cJSON_AddArrayToObject(fo, "baselines");
    for (unsigned b = 0; arr && b < n; b++) {
        cJSON *e = cJSON_CreateObject();
        cJSON_AddStringToObject(e, "file", paths[b]);
        cJSON_AddStringToObject(e, "label", labels[b]);
        cJSON_AddItemToArray(arr, e);
    }
}

int fileio_cmd_prepare(const struct fileio_opts *o, const struct guard_consent *consent,
                       const struct fileio_view *v, uint64_t *written, double *secs)
{
    char err[1024];
    signal_install(); /* also where SIGINT came in ignored (a background job) */
    int rc = fileio_prepare(o, consent, v->file, v->arg, written, secs, err, sizeof(err));
    if (rc == -EINTR)
        return fatal(v, err, 128 + signal_received());
    return rc < 0 ? fatal(v, err, refused_or_failed(rc)) : WL_OK;
}

int fileio_cmd_cleanup(const struct fileio_opts *o, const struct guard_consent *consent,
                       const struct fileio_view *v)
{
    char err[1024];
    int rc = fileio_cleanup(o, consent, err, sizeof(err));
    return rc < 0 ? fatal(v, err, refused_or_failed(rc)) : WL_OK;
}

/* The test files as the run needs them. 0, or -errno with err set. */
static int files_ready(const struct fileio_opts *o, const struct guard_consent *consent, char *err,
                       size_t errlen)
{
    int rc = 0;
    /* a file the user did not offer is refused first, whatever else is
     * wrong with the set */
    if (fileio_mode_writes(o->mode))
        rc = fileio_claim_files(o, consent, err, errlen);
    /* sysbench's sequential write is a creation test: its run removes the
     * test files and writes them anew (unlink only: a symlink's target or a
     * device stays untouched; files ssdbench did not create stay unless
     * consented) */
    if (rc == 0 && o->mode == FILEIO_SEQWR)
        rc = fileio_cleanup(o, consent, err, errlen);
    if (rc == 0)
        rc = fileio_check_files(o, err, errlen);
    return rc;
}

int fileio_cmd_run(struct session *s, const struct fileio_opts *o, const char *label,
                   const struct fileio_view *v)
{
    char err[1024];
    int rc = files_ready(o, s->ro.consent, err, sizeof(err));
    if (rc < 0)
        return fatal(v, err, refused_or_failed(rc));
    if (o->validate)
        session_err("WARNING: --validate is accepted but data validation is not performed");
    if (!o->time_s && !o->events)
        session_err("WARNING: Both event and time limits are disabled, running an endless test");

    char cwd[4096] = "";
    if (!label && getcwd(cwd, sizeof(cwd)))
        label = cwd;
    signal_install();
    fileio_doc_begin(s->doc, o, label);
    const cJSON *opts = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(s->doc, "fileio"),
                                                         "options");
    /* sysbench prints no status line; an I/O error ends the run */
    s->ro.status = NULL;
    s->ro.stop_on_error = true;
    for (unsigned i = 0; i < o->nthreads && !s->st.interrupted; i++) {
        if (v->begin)
            v->begin(v->arg, opts, o->threads[i]);
        cJSON *phase = fileio_run(s->doc, o, o->threads[i], &s->ro, v->row, v->arg, &s->st, &rc, err,
                                  sizeof(err));
        if (!phase)
            return fatal(v, err, WL_FAIL);
        if (v->phase)
            v->phase(v->arg, phase);
    }
    result_finish(s->doc, s->st.interrupted, s->st.signal);
    s->done = true;
    return plan_exit_code(&s->st);
}
