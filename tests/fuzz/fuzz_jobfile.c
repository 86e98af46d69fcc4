/* fuzz_jobfile.c - fio-style job files with includes and ${ENV}.
 *
 * The input is split at lines "#--" into up to three files, main.fio, a.fio
 * and b.fio, written to the harness's private directory; main.fio is parsed
 * so `include a.fio` / `include b.fio` resolve to harness-written files.
 * Inputs with a '/' on a line that mentions "include" are skipped, so no
 * include can leave that directory, and the environment is replaced by a few
 * fixed variables, so ${ENV} cannot bring a path in either. The same text is
 * also parsed from memory (as built-in profiles are) when it has no include,
 * since includes there resolve against the current directory. */
#include "fuzz.h"

#include <strings.h>

#include "jobfile/jobfile.h"

/* A '\n'-separated line holding "include" (any case), and with need_slash
 * a '/' as well. */
static int include_line(const char *s, size_t n, int need_slash)
{
    const char *end = s + n;
    while (s < end) {
        const char *nl = memchr(s, '\n', (size_t)(end - s)), *e = nl ? nl : end;
        int inc = 0, slash = 0;
        for (const char *q = s; q < e; q++) {
            slash |= *q == '/';
            inc |= e - q >= 7 && strncasecmp(q, "include", 7) == 0;
        }
        if (inc && (slash || !need_slash))
            return 1;
        s = e + 1;
    }
    return 0;
}

static void put(const char *dir, const char *name, const char *text, size_t len)
{
    char path[512];
    snprintf(path, sizeof(path), "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    if (!f)
        abort();
    fwrite(text, 1, len, f);
    fclose(f);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static int init;
    if (!init) {
        clearenv();
        setenv("FUZZ_INC", "a.fio", 1);
        setenv("FUZZ_BS", "4k", 1);
        setenv("FUZZ_RW", "randrw", 1);
        init = 1;
    }
    if (include_line((const char *)data, size, 1))
        return 0;
    const char *dir = fuzz_tmpdir();
    static const char *const names[3] = {"main.fio", "a.fio", "b.fio"};
    const char *p = (const char *)data, *end = p + size;
    for (unsigned k = 0; k < 3; k++) {
        const char *sep = NULL;
        for (const char *q = p; k < 2 && q + 3 <= end; q++)
            if ((q == p || q[-1] == '\n') && memcmp(q, "#--", 3) == 0) {
                sep = q;
                break;
            }
        const char *stop = sep ? sep : end;
        put(dir, names[k], p, (size_t)(stop - p));
        p = sep ? sep + 3 : end;
    }
    char path[512], err[JOBFILE_MSG_MAX];
    snprintf(path, sizeof(path), "%s/main.fio", dir);
    struct jobfile_opts o[2] = {{.ignore_unsupported = false}, {.ignore_unsupported = true, .fio_defaults = true}};
    for (unsigned i = 0; i < 2; i++) {
        struct jobfile jf = {0};
        if (jobfile_parse_file(path, &o[i], &jf, err, sizeof(err)) == 0)
            jobfile_free(&jf);
    }
    /* the same text parsed from memory, as built-in profiles are */
    char *text = fuzz_cstr(data, size);
    struct jobfile jf = {0};
    if (!memchr(data, 0, size) && !include_line((const char *)data, size, 0) &&
        jobfile_parse_string(text, "fuzz", &o[0], &jf, err, sizeof(err)) == 0)
        jobfile_free(&jf);
    free(text);
    return 0;
}
