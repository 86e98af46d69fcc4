/* result_file.c - a result document to and from its file (see result.h). */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/outfile.h"
#include "base/slurp.h"
#include "base/utf8.h"
#include "result/result.h"
#include "result/journal.h"
#include "result/result_check.h"

char *result_print(const cJSON *doc, bool formatted)
{
    char *raw = formatted ? cJSON_Print(doc) : cJSON_PrintUnformatted(doc);
    if (!raw)
        return NULL;
    /* outside strings the printed text is ASCII, so repairing the whole
     * text repairs exactly the string values and keys */
    size_t len = strlen(raw);
    if (utf8_valid(raw, len))
        return raw;
    char *txt = utf8_fix(raw, len, NULL);
    free(raw);
    return txt;
}

int result_write(const cJSON *doc, const char *path, char *err, size_t errlen)
{
    char *txt = result_print(doc, true);
    if (!txt) {
        snprintf(err, errlen, "out of memory while writing the result");
        return -ENOMEM;
    }
    struct outfile of;
    int rc = outfile_open(&of, path, err, errlen);
    if (rc == 0) {
        if (fputs(txt, of.f) < 0 || fputc('\n', of.f) == EOF) {
            int e = errno ? errno : EIO;
            outfile_abort(&of);
            snprintf(err, errlen, "%s: cannot write: %s", path, strerror(e));
            rc = -e;
        } else {
            rc = outfile_commit(&of, err, errlen);
        }
    }
    free(txt);
    return rc;
}

cJSON *result_parse(const char *buf, size_t len, const char *name, char *err, size_t errlen)
{
    cJSON *doc = cJSON_ParseWithLength(buf, len);
    if (!doc) {
        const char *ep = cJSON_GetErrorPtr();
        size_t off = ep && ep >= buf && ep <= buf + len ? (size_t)(ep - buf) : 0;
        unsigned line = 1;
        for (size_t i = 0; i < off; i++)
            line += buf[i] == '\n';
        snprintf(err, errlen, "%s:%u: not valid JSON (or nested deeper than %d levels)", name, line,
                 CJSON_NESTING_LIMIT);
        return NULL;
    }
    if (!cJSON_IsObject(doc)) {
        snprintf(err, errlen, "%s: not an ssdbench result (not a JSON object)", name);
        cJSON_Delete(doc);
        return NULL;
    }
    const char *schema = result_str(doc, "schema", NULL);
    if (!schema) {
        snprintf(err, errlen, "%s: not an ssdbench result (no \"schema\" field)", name);
        cJSON_Delete(doc);
        return NULL;
    }
    if (strcmp(schema, RESULT_SCHEMA) != 0) {
        snprintf(err, errlen, "%s: result schema '%.60s' is not supported (this ssdbench reads %s)", name,
                 schema, RESULT_SCHEMA);
        cJSON_Delete(doc);
        return NULL;
    }
    if (!cJSON_IsArray(cJSON_GetObjectItemCaseSensitive(doc, "phases"))) {
        snprintf(err, errlen, "%s: \"phases\" is missing or not a list", name);
        cJSON_Delete(doc);
        return NULL;
    }
    char why[400];
    if (result_check(doc, why, sizeof(why)) < 0) {
        snprintf(err, errlen, "%s: %s", name, why);
        cJSON_Delete(doc);
        return NULL;
    }
    return doc;
}

cJSON *result_load(const char *path, char *err, size_t errlen)
{
    size_t len;
    char *buf = slurp_named(path, "result file", RESULT_MAX_BYTES, &len, err, errlen);
    if (!buf)
        return NULL;
    cJSON *doc;
    if (journal_detect(buf, len)) { /* a run's RESULT.partial journal */
        doc = journal_parse(buf, len, path, err, errlen);
        char why[400];
        if (doc && result_check(doc, why, sizeof(why)) < 0) {
            snprintf(err, errlen, "%s: %s", path, why);
            cJSON_Delete(doc);
            doc = NULL;
        }
    } else {
        doc = result_parse(buf, len, path, err, errlen);
    }
    free(buf);
    return doc;
}
