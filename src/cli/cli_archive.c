/* cli_archive.c - see cli_archive.h. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cli_archive.h"
#include "result/result.h"

/* The archive at path (NULL: the default), or NULL with the reason in err. */
static struct archive *open_at(const char *path, bool create, char *err, size_t errlen)
{
    char def[PATH_MAX];
    if (!path) {
        if (archive_default_path(def, sizeof(def), err, errlen) < 0)
            return NULL;
        path = def;
    }
    int rc;
    return archive_open(path, create, &rc, err, errlen);
}

struct archive *cli_archive_open(const char *path, bool create)
{
    char err[1024];
    struct archive *a = open_at(path, create, err, sizeof(err));
    if (!a)
        cli_err("archive: %s", err);
    return a;
}

int cli_archive_workload(const cJSON *doc, const struct cli_output *o)
{
    if (!o->archive || o->follower)
        return 0;
    char *txt = result_print(doc, true);
    size_t len = txt ? strlen(txt) : 0;
    char *bytes = txt ? realloc(txt, len + 2) : NULL;
    if (!bytes) {
        free(txt);
        cli_err("archive: out of memory; the result was not filed");
        return -1;
    }
    /* exactly what result_write puts in --result */
    bytes[len++] = '\n';
    bytes[len] = 0;
    char err[1024];
    /* indexed from the bytes filed, not the document in memory: printing
     * keeps 15 digits where they read back within an ulp, and the figures
     * must be those of the stored document (as `archive add` of the file
     * would index them) */
    cJSON *filed = cJSON_ParseWithLength(bytes, len);
    struct archive *a = filed ? open_at(o->archive_path, true, err, sizeof(err)) : NULL;
    if (!filed)
        snprintf(err, sizeof(err), "out of memory");
    int rc = -1;
    if (a) {
        int64_t id;
        int r = archive_file(a, bytes, len, filed, o->result && strcmp(o->result, "-") ? o->result : "run", o->tags,
                             o->ntags, &id, err, sizeof(err));
        if (r == 0 || r == -EEXIST) {
            if (!o->quiet || r == -EEXIST)
                fprintf(stderr, "ssdbench: filed as archive:%lld in %s\n", (long long)id, archive_path(a));
            rc = 0;
        } else {
            cli_err("archive: %s; the result was not filed", err);
        }
        archive_close(a);
    } else {
        cli_err("archive: %s; the result was not filed%s", err, o->result ? " (it is saved in --result)" : "");
    }
    cJSON_Delete(filed);
    free(bytes);
    return rc;
}

int cli_load_named(const char *name, const char *archive_path, struct cli_loaded *out, size_t max, size_t *n)
{
    char err[1024];
    if (*n >= max) {
        cli_err("%s: more than %zu results", name, max);
        return -1;
    }
    if (!archive_is_selector(name)) {
        cJSON *doc = result_load(name, err, sizeof(err));
        if (!doc) {
            cli_err("%s", err);
            return -1;
        }
        out[*n].doc = doc;
        snprintf(out[*n].name, sizeof(out[*n].name), "%s", name);
        (*n)++;
        return 0;
    }
    struct archive_sel sel;
    if (archive_sel_parse(name, &sel, err, sizeof(err)) < 0) {
        cli_err("%s", err);
        return -1;
    }
    struct archive *a = cli_archive_open(archive_path, false);
    if (!a)
        return -1;
    int64_t ids[ARCHIVE_MAX_SELECT];
    size_t nid = 0, start = *n;
    int rc = archive_sel_ids(a, &sel, ids, &nid, err, sizeof(err));
    if (rc < 0)
        cli_err("%s", err);
    for (size_t k = 0; rc == 0 && k < nid; k++) {
        if (*n >= max) {
            cli_err("%s: names %zu results, more than the %zu that fit", name, nid, max - start);
            rc = -1;
            break;
        }
        char *text;
        size_t len;
        if ((rc = archive_get(a, ids[k], &text, &len, err, sizeof(err))) < 0) {
            cli_err("%s", err);
            break;
        }
        char nm[64];
        snprintf(nm, sizeof(nm), "archive:%lld", (long long)ids[k]);
        cJSON *doc = result_parse(text, len, nm, err, sizeof(err));
        free(text);
        if (!doc) {
            cli_err("%s", err);
            rc = -1;
            break;
        }
        out[*n].doc = doc;
        snprintf(out[*n].name, sizeof(out[*n].name), "%s", nm);
        (*n)++;
    }
    archive_close(a);
    if (rc < 0) {
        cli_loaded_free(out + start, *n - start);
        *n = start;
        return -1;
    }
    return 0;
}

void cli_loaded_free(struct cli_loaded *l, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        cJSON_Delete(l[i].doc);
        l[i].doc = NULL;
    }
}

