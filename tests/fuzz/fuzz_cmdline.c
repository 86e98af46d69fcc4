/* fuzz_cmdline.c - fio's command-line form (jobfile/cmdline.c). The input
 * is split at NUL bytes and newlines into at most 64 arguments. */
#include "fuzz.h"

#include "jobfile/jobfile.h"

static int cli_option(void *ctx, const char *key, const char *value, const char *next, char *err,
                      size_t errlen)
{
    (void)ctx;
    (void)value;
    (void)err;
    (void)errlen;
    if (!strcmp(key, "quiet"))
        return 1;
    if (!strcmp(key, "result"))
        return value ? 1 : next ? 2 : 0;
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_cstr(data, size);
    char *argv[65];
    int argc = 0;
    char *p = text, *end = text + size;
    while (p <= end && argc < 64) {
        char *q = p;
        while (q < end && *q && *q != '\n')
            q++;
        *q = 0;
        argv[argc++] = p;
        p = q + 1;
    }
    argv[argc] = NULL;
    char err[JOBFILE_MSG_MAX];
    struct jobfile_opts o[2] = {{.default_name = "fuzz"},
                                {.ignore_unsupported = true, .fio_defaults = true,
                                 .no_default_files = true, .cli_option = cli_option}};
    for (unsigned i = 0; i < 2; i++) {
        struct jobfile jf = {0};
        if (jobfile_parse_cmdline(argc, argv, &o[i], &jf, err, sizeof(err)) == 0)
            jobfile_free(&jf);
    }
    free(text);
    return 0;
}
