/* result_file.c - a result document to and from its file (see result.h). */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/slurp.h"
#include "result/result.h"

int result_write(const cJSON *doc, const char *path, char *err, size_t errlen)
{
    char *txt = cJSON_Print(doc);
    if (!txt) {
        snprintf(err, errlen, "out of memory while writing the result");
        return -ENOMEM;
    }
    int rc = 0;
    if (strcmp(path, "-") == 0) {
        fputs(txt, stdout);
        fputc('\n', stdout);
        fflush(stdout);
    } else {
        char tmp[PATH_MAX];
        snprintf(tmp, sizeof(tmp), "%s.tmp.%d", path, (int)getpid());
        FILE *f = fopen(tmp, "w");
        if (!f) {
            snprintf(err, errlen, "%s: cannot write: %s", path, strerror(errno));
            free(txt);
            return -errno;
        }
        bool ok = fputs(txt, f) >= 0 && fputc('\n', f) != EOF && fflush(f) == 0 && fsync(fileno(f)) == 0;
        ok = fclose(f) == 0 && ok;
        if (!ok || rename(tmp, path) < 0) {
            snprintf(err, errlen, "%s: cannot write: %s", path, strerror(errno));
            unlink(tmp);
            rc = -EIO;
        }
    }
    free(txt);
    return rc;
}

cJSON *result_load(const char *path, char *err, size_t errlen)
{
    size_t len;
    char *buf = slurp(path, (size_t)1 << 34, &len, err, errlen);
    if (!buf)
        return NULL;
    cJSON *doc = cJSON_ParseWithLength(buf, len);
    if (!doc) {
        const char *ep = cJSON_GetErrorPtr();
        size_t off = ep && ep >= buf && ep <= buf + len ? (size_t)(ep - buf) : 0;
        unsigned line = 1;
        for (size_t i = 0; i < off; i++)
            line += buf[i] == '\n';
        snprintf(err, errlen, "%s:%u: not valid JSON", path, line);
        free(buf);
        return NULL;
    }
    free(buf);
    const char *schema = result_str(doc, "schema", NULL);
    if (!schema) {
        snprintf(err, errlen, "%s: not an ssdbench result (no \"schema\" field)", path);
        cJSON_Delete(doc);
        return NULL;
    }
    if (strcmp(schema, RESULT_SCHEMA) != 0) {
        snprintf(err, errlen, "%s: result schema '%s' is not supported (this ssdbench reads %s)", path,
                 schema, RESULT_SCHEMA);
        cJSON_Delete(doc);
        return NULL;
    }
    if (!cJSON_IsArray(cJSON_GetObjectItemCaseSensitive(doc, "phases"))) {
        snprintf(err, errlen, "%s: \"phases\" is missing or not a list", path);
        cJSON_Delete(doc);
        return NULL;
    }
    return doc;
}
